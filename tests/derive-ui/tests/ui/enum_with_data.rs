// An enum is stored as one integer: variants with data are refused (each named), as are
// `ZarrEnum` on a struct (beside `ZarrStruct` too), generic enums, and `#[zarr]` keys an enum does not have.
use zarrdt::{ZarrEnum, ZarrStruct};

#[derive(ZarrEnum)]
#[repr(u8)]
enum Shape {
    Circle(f64),
    Square { side: f64 },
    Empty,
}

#[derive(ZarrEnum)]
struct NotAnEnum {
    a: u8,
}

// Both derives on a struct: the one mistake, not a conflict of the two `ZarrType` impls.
#[derive(ZarrStruct, ZarrEnum)]
struct Both {
    a: u8,
}

#[derive(ZarrEnum)]
#[repr(u8)]
enum Generic<const N: usize> {
    A,
}

#[derive(ZarrEnum)]
#[repr(u8)]
#[zarr(rename_all = "lowercase")]
enum Keys {
    #[zarr(rename = "a")]
    A,
}

// A struct holding the rejected enum gets no follow-on errors.
#[derive(ZarrStruct)]
struct Holder {
    shape: Shape,
}

fn main() {}
