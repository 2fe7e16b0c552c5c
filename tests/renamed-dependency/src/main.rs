//! The dependency is renamed (`zarrdt_renamed = { package = "zarrdt" }`), so the generated code
//! is pointed at it; no `zarrdt` crate is in scope under that name. `cargo test --workspace`
//! runs `main` through the test below.
#![forbid(unsafe_code)]

use zarrdt_renamed::{Endian, ZarrStruct, ZarrType};

#[derive(ZarrStruct)]
#[zarr(crate = "zarrdt_renamed")]
struct Sample {
    time: i64,
    value: f64,
}

#[derive(zarrdt_renamed::ZarrEnum)]
#[zarr(crate = "zarrdt_renamed")]
#[repr(u16)]
enum Channel {
    Left = 1,
    Right = 2,
}

#[derive(ZarrStruct)]
#[zarr(crate = "zarrdt_renamed")]
struct Stereo {
    channel: Channel,
    letter: char,
}

mod nested {
    use zarrdt_renamed as zr;

    #[derive(zr::ZarrStruct)]
    #[zarr(crate = "zr")]
    pub struct Relative {
        pub value: u16,
    }
}

fn main() {
    check();
}

fn check() {
    let sample = Sample {
        time: 1,
        value: 2.0,
    };
    assert_eq!(sample.encode(Endian::Little).len(), 16);
    assert_eq!(<Sample as ZarrStruct>::FIELDS.len(), 2);
    assert_eq!(nested::Relative { value: 1 }.encode(Endian::Big), [0, 1]);
    let stereo = Stereo {
        channel: Channel::Right,
        letter: 'a',
    };
    assert_eq!(stereo.encode(Endian::Big), [0, 2, 0, 0, 0, b'a']);
    assert!(matches!(
        Channel::decode(&[0, 1], Endian::Big),
        Ok(Channel::Left)
    ));
    assert!(Channel::decode(&[0, 3], Endian::Big).is_err());
}

#[test]
fn renamed_dependency_works() {
    check();
}
