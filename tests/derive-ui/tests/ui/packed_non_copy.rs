use zarrdt::ZarrStruct;

#[derive(ZarrStruct)]
struct Inner {
    a: u8,
}

// Packed structs copy their fields out (references to them would be unaligned), so every
// field must be `Copy`.
#[derive(ZarrStruct)]
#[repr(C, packed)]
struct Outer {
    inner: Inner,
}

fn main() {}
