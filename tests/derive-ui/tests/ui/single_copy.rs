use zarrdt::ZarrStruct;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

// Not a plain-bytes type: zerocopy's traits are missing.
#[derive(ZarrStruct)]
#[zarr(single_copy)]
struct NotZerocopy {
    a: f64,
    b: f64,
}

// #[repr(C)] puts 3 bytes of padding after `a`: the record is 5 bytes, the struct 8.
#[derive(ZarrStruct, IntoBytes, FromBytes, Immutable, KnownLayout)]
#[repr(C, align(4))]
#[zarr(single_copy)]
struct Padded {
    a: u8,
    _gap: [u8; 3],
    #[zarr(skip)]
    b: u32,
}

// Packed and plain bytes, but a field's own type is not stored as its bytes in memory.
#[derive(ZarrStruct, Clone, Copy)]
struct Inner {
    x: u16,
    y: u8,
}

#[derive(ZarrStruct)]
#[zarr(single_copy)]
struct Outer {
    inner: Inner,
}

fn main() {}
