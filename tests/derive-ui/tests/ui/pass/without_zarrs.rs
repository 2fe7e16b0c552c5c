//! The derive with only the core (`zarrdt` without its default features, as a user who needs
//! no arrays depends on it): records of nested structs and arrays encode and decode; a type
//! of the user's named `PhantomData` is a field like any other.

use zarrdt::{Endian, ZarrStruct, ZarrType};

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Point {
    x: f32,
    y: f32,
}

#[derive(ZarrStruct, Clone, Debug, PartialEq)]
struct Track {
    id: u64,
    points: [Point; 2],
    valid: bool,
}

/// A type of the user's that is named `PhantomData`, which is no marker.
mod units {
    #[derive(zarrdt::ZarrStruct, Clone, Copy, Debug, PartialEq)]
    pub struct PhantomData {
        pub x: u8,
    }
}

/// Its field is stored; the marker is not.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Tagged {
    a: u8,
    p: units::PhantomData,
    marker: std::marker::PhantomData<u32>,
}

fn main() {
    assert_eq!(Tagged::SIZE, 2);
    let tagged = Tagged {
        a: 1,
        p: units::PhantomData { x: 2 },
        marker: std::marker::PhantomData,
    };
    assert_eq!(tagged.encode(Endian::Little), [1, 2]);

    let track = Track {
        id: 7,
        points: [Point { x: 1.0, y: -2.0 }, Point { x: 0.5, y: 4.0 }],
        valid: true,
    };
    assert_eq!(Track::SIZE, 8 + 2 * 8 + 1);
    let bytes = track.encode(Endian::Big);
    assert_eq!(Track::decode(&bytes, Endian::Big).unwrap(), track);
}
