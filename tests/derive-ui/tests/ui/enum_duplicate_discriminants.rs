// Two variants of one value: a stored integer would name both. rustc refuses the enum itself;
// the derive adds no errors of its own.
use zarrdt::ZarrEnum;

#[derive(ZarrEnum)]
#[repr(u8)]
enum Explicit {
    A = 1,
    B = 1,
}

#[derive(ZarrEnum)]
#[repr(i16)]
enum Implicit {
    A = 2,
    B = 1,
    C,
}

fn main() {}
