//! The derive with only the core (`zarrdt` without its default features, as a user who needs
//! no arrays depends on it): records of nested structs and arrays encode and decode.

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

fn main() {
    let track = Track {
        id: 7,
        points: [Point { x: 1.0, y: -2.0 }, Point { x: 0.5, y: 4.0 }],
        valid: true,
    };
    assert_eq!(Track::SIZE, 8 + 2 * 8 + 1);
    let bytes = track.encode(Endian::Big);
    assert_eq!(Track::decode(&bytes, Endian::Big).unwrap(), track);
}
