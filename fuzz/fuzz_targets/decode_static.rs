//! Chunks of arbitrary bytes decoded as derived structs, the static path: `decode_slice` (through
//! `BytesCodec::decode` and `decode_into`) of records with bool, text, time, bytes, nested and
//! array fields, in both byte orders, checked against the dynamic decode of the same layout
//! (same values, bit for bit, or both errors) and encoded back to the same bytes.

#![no_main]

use libfuzzer_sys::fuzz_target;
use zarrdt::num_complex::Complex;
use zarrdt::{ByteString, DateTime64, Endian, FixedString, RawBytes, TimeDelta64, ZarrStruct, ZarrType};
use zarrdt::time::{Milliseconds, Nanoseconds};

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Inner {
    x: f32,
    flag: bool,
    code: [u16; 3],
}

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Everything {
    id: u64,
    name: FixedString<3>,
    inner: Inner,
    pos: [[f64; 2]; 2],
    charge: zarrdt::half::f16,
    wave: Complex<f32>,
    at: DateTime64<Milliseconds>,
    took: TimeDelta64<Nanoseconds>,
    tag: ByteString<4>,
    raw: RawBytes<2>,
    ok: bool,
}

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Flags {
    a: bool,
    b: [bool; 5],
    c: i8,
}

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Text {
    s: FixedString<5>,
    n: [Inner; 2],
}

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Floats {
    a: f32,
    b: [f32; 3],
    c: Complex<f32>,
}

fn check<T: ZarrType + Clone>(chunk: &[u8], endian: Endian) {
    let decoded = T::decode_slice(chunk, endian);
    let layout = T::layout(endian);
    let dynamic = layout.decode_values(chunk);
    match (&decoded, &dynamic) {
        (Ok(records), Ok(values)) => {
            assert_eq!(records.len(), values.len());
            for (record, value) in records.iter().zip(values) {
                assert_eq!(
                    &record.to_value(),
                    value,
                    "static and dynamic decode differ"
                );
            }
            let bytes = T::encode_slice(records, endian);
            assert_eq!(bytes, chunk, "records changed through the static path");
        }
        (Err(_), Err(_)) => {}
        (a, b) => panic!(
            "static decode {:?}, dynamic decode {:?}",
            a.as_ref().err(),
            b.as_ref().err()
        ),
    }
    // Appending keeps what was there, and an error leaves it as it was.
    let mut out: Vec<T> = Vec::new();
    if let Ok(records) = &decoded {
        if let Some(first) = records.first() {
            out.push(first.clone());
        }
    }
    let before = out.len();
    match T::decode_slice_into(chunk, endian, &mut out) {
        Ok(()) => assert_eq!(out.len(), before + decoded.as_ref().map_or(0, Vec::len)),
        Err(_) => {
            assert!(decoded.is_err());
            assert_eq!(out.len(), before, "a failed decode_into changed its output");
        }
    }
}

fuzz_target!(|chunk: &[u8]| {
    for endian in [Endian::Little, Endian::Big] {
        check::<Everything>(chunk, endian);
        check::<Inner>(chunk, endian);
        check::<Flags>(chunk, endian);
        check::<Text>(chunk, endian);
        check::<Floats>(chunk, endian);
    }
});
