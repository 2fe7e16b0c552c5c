//! The derive's text, bytes and time field types against what zarr-python writes for the same
//! NumPy dtypes (issue 9): the metadata is the same, the fixtures zarr-python 3.4.2 (v3) and
//! 2.18.7 (v2) wrote read into derived structs through zarrs, value for value, and derived
//! records round-trip through arrays zarrdt writes, in both byte orders.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value as Json;
use zarrdt::array::{ArrayOptions, Compression, open_array};
use zarrdt::time::{Milliseconds, Nanoseconds, Seconds};
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::{
    ByteString, DateTime64, Endian, Error, FixedString, RawBytes, TimeDelta64, ZarrStruct, ZarrType,
};

/// `v3_struct_extension_fields`: `[('t', '<M8[s]'), ('t10', '<M8[10s]'), ('tms', '<M8[ms]'),
/// ('dt', '<m8[ns]'), ('s', '<U4'), ('raw', '|V3'), ('bs', '|S5')]`.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq, Default)]
struct Extension {
    t: DateTime64<Seconds>,
    t10: DateTime64<Seconds, 10>,
    tms: DateTime64<Milliseconds>,
    dt: TimeDelta64<Nanoseconds>,
    s: FixedString<4>,
    raw: RawBytes<3>,
    bs: ByteString<5>,
}

/// `v2_extension_fields`: `[('t', '<M8[10s]'), ('d', '<m8[ms]'), ('s', '<U4'), ('b', '|S5'),
/// ('v', '|V3')]`.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq, Default)]
struct ExtensionV2 {
    t: DateTime64<Seconds, 10>,
    d: TimeDelta64<Milliseconds>,
    s: FixedString<4>,
    b: ByteString<5>,
    v: RawBytes<3>,
}

fn fixture(version: &str, path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(format!("zarr-python-{version}"))
        .join(path)
}

fn read_json(path: &Path) -> Json {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The fixtures' typed JSON of one text, bytes or time value.
fn time(json: &Json) -> i64 {
    json.as_i64().unwrap()
}

fn extension_from(json: &Json) -> Extension {
    Extension {
        t: DateTime64::new(time(&json["t"])),
        t10: DateTime64::new(time(&json["t10"])),
        tms: DateTime64::new(time(&json["tms"])),
        dt: TimeDelta64::new(time(&json["dt"])),
        s: FixedString::new(json["s"].as_str().unwrap()).unwrap(),
        raw: RawBytes::new(hex_array(json["raw"].as_str().unwrap())),
        bs: ByteString::new(&hex_vec(json["bs"].as_str().unwrap())).unwrap(),
    }
}

fn hex_vec(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

fn hex_array<const N: usize>(text: &str) -> [u8; N] {
    hex_vec(text).try_into().unwrap()
}

#[test]
fn v3_metadata_equals_zarr_pythons_for_the_same_dtype() {
    let zarr = read_json(&fixture(
        "3.4.2",
        "v3_struct_extension_fields.zarr/zarr.json",
    ));
    assert_eq!(Extension::data_type().to_v3_json(), zarr["data_type"]);
    let fill = extension_from(
        &read_json(&fixture("3.4.2", "v3_struct_extension_fields.json"))["fill_value"],
    );
    assert_eq!(fill.s, "hé");
    assert_eq!(fill.bs.as_bytes(), b"ab");
    assert!(fill.t.is_nat() && fill.dt.is_nat());
    assert_eq!(
        Extension::data_type()
            .fill_value_to_v3_json(&fill.to_value())
            .unwrap(),
        zarr["fill_value"]
    );
}

#[test]
fn v3_arrays_zarr_python_wrote_read_into_derived_structs() {
    let described = read_json(&fixture("3.4.2", "v3_struct_extension_fields.json"));
    let store = Arc::new(
        FilesystemStore::new(fixture("3.4.2", "v3_struct_extension_fields.zarr")).unwrap(),
    );
    let array = open_array(store, "/").unwrap();
    let values: Vec<Extension> = array.retrieve_array_subset(&[0..5]).unwrap();
    let expected: Vec<Extension> = described["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(extension_from)
        .collect();
    assert_eq!(values, expected);
    // The records' bytes are zarr-python's, byte for byte.
    let bytes: Vec<u8> = values
        .iter()
        .flat_map(|v| v.encode(Endian::Little))
        .collect();
    assert_eq!(hex(&bytes), described["values_hex"].as_str().unwrap());
    // NaT, non-ASCII text and a full-length byte string are among them.
    assert!(values.iter().any(|v| v.t10.is_nat()));
    assert!(values.iter().any(|v| !v.s.to_string().is_ascii()));
    assert!(values.iter().any(|v| v.bs.as_bytes().len() == 5));
}

#[test]
fn v2_arrays_zarr_python_wrote_read_into_derived_structs() {
    let zarray = read_json(&fixture("2.18.7", "v2_extension_fields.zarr/.zarray"));
    assert_eq!(
        ExtensionV2::layout(Endian::Little).to_v2_json().unwrap(),
        zarray["dtype"]
    );
    let described = read_json(&fixture("2.18.7", "v2_extension_fields.json"));
    let fill = ExtensionV2::layout(Endian::Little)
        .fill_value_from_v2_json(&zarray["fill_value"])
        .unwrap()
        .unwrap();
    let fill = ExtensionV2::from_value(&fill).unwrap();
    assert!(fill.t.is_nat() && fill.d.is_nat());
    assert_eq!(fill.s, "hé");
    let store =
        Arc::new(FilesystemStore::new(fixture("2.18.7", "v2_extension_fields.zarr")).unwrap());
    let array = open_array(store, "/").unwrap();
    let values: Vec<ExtensionV2> = array.retrieve_array_subset(&[0..5]).unwrap();
    let bytes: Vec<u8> = values
        .iter()
        .flat_map(|v| v.encode(Endian::Little))
        .collect();
    assert_eq!(hex(&bytes), described["values_hex"].as_str().unwrap());
    assert_eq!(values[1].s, "abcd");
    assert_eq!(values[1].b.as_bytes(), b"hello");
    assert_eq!(values[1].v.as_bytes(), &[0xff, 0xfe, 0xfd]);
}

fn samples() -> Vec<Extension> {
    (0..9i64)
        .map(|i| Extension {
            t: if i == 3 {
                DateTime64::NAT
            } else {
                DateTime64::new(i * 1_000_000_007)
            },
            t10: DateTime64::new(-i),
            tms: DateTime64::new(1_700_000_000_000 + i),
            dt: TimeDelta64::new(i - 4),
            s: FixedString::new(["", "a", "äb", "𝄞xyz"][i as usize % 4]).unwrap(),
            raw: RawBytes::new([i as u8, 0, 255]),
            bs: ByteString::new(&b"hello"[..(i as usize % 6)]).unwrap(),
        })
        .collect()
}

#[test]
fn derived_records_round_trip_through_arrays_in_both_byte_orders() {
    for endian in [Endian::Little, Endian::Big] {
        let dir =
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("derive_field_types_{endian}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let store = Arc::new(FilesystemStore::new(&dir).unwrap());
        let fill = Extension {
            t: DateTime64::NAT,
            s: FixedString::new("fill").unwrap(),
            ..Default::default()
        };
        let array = ArrayOptions::new(vec![12], vec![4])
            .endian(endian)
            .compression(Compression::Zstd { level: 1 })
            .create(store.clone(), "/", &fill)
            .unwrap();
        array.store_array_subset(&[0..9], samples()).unwrap();
        let back: Vec<Extension> = open_array(store, "/")
            .unwrap()
            .retrieve_array_subset(&[0..12])
            .unwrap();
        assert_eq!(back[..9], samples());
        assert_eq!(back[9..], [fill; 3]);
    }
}

#[test]
fn invalid_content_is_an_error_naming_the_field() {
    // A string too long for its field.
    let mut value = samples()[2].to_value();
    if let zarrdt::value::Value::Record(record) = &mut value {
        let fields: Vec<_> = record
            .fields()
            .iter()
            .map(|(name, v)| {
                let v = if &**name == "s" {
                    zarrdt::value::Value::String("toolong".into())
                } else {
                    v.clone()
                };
                (name.clone(), v)
            })
            .collect();
        *record = fields.into_iter().collect();
    }
    let error = Extension::from_value(&value).unwrap_err();
    assert_eq!(
        error.to_string(),
        "value at field `s` does not fit fixed_length_utf32: 7 characters do not fit in 4"
    );
    // An unpaired surrogate read from a chunk: record 1, field `s`, its second code unit.
    let mut bytes: Vec<u8> = samples()[..2]
        .iter()
        .flat_map(|v| v.encode(Endian::Little))
        .collect();
    let s_offset = 32 + 4;
    bytes[Extension::SIZE + s_offset..Extension::SIZE + s_offset + 4]
        .copy_from_slice(&0xdc00u32.to_le_bytes());
    let error = Extension::decode_slice(&bytes, Endian::Little).unwrap_err();
    assert!(
        matches!(&error, Error::InvalidElement { index: 1, offset, .. } if *offset == Extension::SIZE + s_offset),
        "{error}"
    );
    assert_eq!(error.path().unwrap().to_string(), "s");
}
