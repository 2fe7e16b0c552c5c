//! Field types and attributes that must compile: the text, bytes and time types, user types
//! named like standard library types, `rename_all`, `skip`, and `single_copy` on a struct
//! that has the layout.

#![forbid(unsafe_code)]

use zarrdt::time::{Milliseconds, Nanoseconds, Seconds};
use zarrdt::{
    ByteString, DateTime64, Endian, FixedString, RawBytes, TimeDelta64, ZarrStruct, ZarrType,
};
use zerocopy::{Immutable, IntoBytes, KnownLayout, TryFromBytes};

// The user's own types may have the names of standard library types.
#[derive(ZarrStruct, Clone, Copy, Default)]
struct Cell {
    value: f32,
}

#[derive(ZarrStruct, Clone, Copy, Default)]
struct Box {
    side: f64,
}

#[derive(ZarrStruct, Clone, Copy, Default)]
struct Option {
    code: u8,
}

#[derive(ZarrStruct, Clone, Default)]
#[zarr(rename_all = "camelCase")]
struct Observation {
    station_name: FixedString<16>,
    wmo_code: ByteString<5>,
    raw_header: RawBytes<4>,
    observed_at: DateTime64<Milliseconds>,
    integration: TimeDelta64<Nanoseconds>,
    epoch_10s: DateTime64<Seconds, 10>,
    cell: Cell,
    bounds: Box,
    quality: Option,
    #[zarr(skip)]
    cache: Vec<f64>,
}

#[derive(ZarrStruct, Clone, Copy, TryFromBytes, IntoBytes, Immutable, KnownLayout)]
#[repr(C)]
#[zarr(single_copy)]
struct Sample {
    time: f64,
    value: f32,
    channel: u32,
    label: FixedString<2>,
}

#[test]
fn compiles_and_runs() {
    assert_eq!(Observation::SIZE, 64 + 5 + 4 + 8 + 8 + 8 + 4 + 8 + 1);
    let names: Vec<&str> = <Observation as ZarrStruct>::FIELDS
        .iter()
        .map(|f| f.name())
        .collect();
    assert_eq!(names[..3], ["stationName", "wmoCode", "rawHeader"]);
    let decoded = Observation::decode(&Observation::default().encode(Endian::Big), Endian::Big);
    assert!(
        decoded.unwrap().cache.is_empty(),
        "a skipped field decodes as its default"
    );
    let samples = [Sample {
        time: 1.0,
        value: 2.0,
        channel: 3,
        label: FixedString::new("ab").unwrap(),
    }];
    let bytes = Sample::encode_slice(&samples, Endian::NATIVE);
    assert_eq!(bytes, samples.as_bytes());
}
