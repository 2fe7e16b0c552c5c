// `#[derive(ZarrEnum)]` stores an enum as its `repr` integer, so it needs one of the eight
// fixed-size integers.
use zarrdt::ZarrEnum;

#[derive(ZarrEnum)]
enum NoRepr {
    A,
    B,
}

#[derive(ZarrEnum)]
#[repr(C)]
enum CRepr {
    A,
    B,
}

#[derive(ZarrEnum)]
#[repr(usize)]
enum PlatformSized {
    A,
    B,
}

#[derive(ZarrEnum)]
#[repr(u128)]
enum TooWide {
    A,
    B,
}

fn main() {}
