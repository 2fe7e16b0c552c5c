// `ZarrStruct` beside `ZarrEnum` on an enum: the one error, on the enum, and no conflicting
// implementation of `ZarrType` from a stub.
use zarrdt::{ZarrEnum, ZarrStruct};

#[derive(ZarrStruct, ZarrEnum, Clone, Copy)]
#[repr(u8)]
enum Quality {
    Good,
    Bad,
}

fn main() {}
