// The text, bytes and time field types of NumPy records, complex numbers and float16.
#[derive(ZarrStruct)]
struct Event {
    name: FixedString<4>,
    code: ByteString<3>,
    raw: RawBytes<2>,
    at: DateTime64<Seconds, 10>,
    took: TimeDelta64<Milliseconds>,
    z: num_complex::Complex<f32>,
    h: half::f16,
}
