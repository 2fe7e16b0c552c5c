// A `#[repr(packed)]` struct: fields are copied out before they are encoded.
#[derive(ZarrStruct)]
#[repr(C, packed)]
struct Packed {
    a: u8,
    b: u32,
}
