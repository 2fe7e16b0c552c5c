#![allow(clippy::unwrap_used)]
//! Derived structs against the arrays zarr-python wrote for their equivalent dtypes
//! (`tests/interop/generate.py`, cases `v3_derive_*` by 3.4.2 and `v2_derive_*` by 2.18.7, and
//! the single-byte `v3_struct_bool_only` and `v3_struct_u1_only`):
//! the data type, fill value, codec and whole metadata documents we would write agree with the
//! files, and the stored chunks decode into the expected Rust values (and encode back to the
//! same bytes).

use crate::common;

use common::records::{Grid, Particle};

use std::fmt::Debug;
use std::fs;
use std::path::{Path, PathBuf};

use half::f16;
use num_complex::Complex;
use serde_json::Value as Json;
use std::sync::Arc;

use zarrdt::ReadRecords;
use zarrdt::array::open_array;
use zarrdt::layout::Layout;
use zarrdt::metadata::{ArrayMetadataV2, ArrayMetadataV3, BytesCodec};
use zarrdt::zarrs::array::{Array, ElementOwned};
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::{Endian, ZarrStruct, ZarrType};

// =============================================================================================
// The Rust equivalents of the fixtures' dtypes
// =============================================================================================

/// `v3_derive_tuple`.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Tuple(i16, f32);

/// `v3_derive_renamed`.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Renamed {
    #[zarr(rename = "foo.mask")]
    mask: u8,
    #[zarr(rename = "température")]
    temperature: f64,
}

/// `v3_derive_all_scalars`, `v2_derive_all_scalars`: field names by rename and by identifier.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct AllScalars {
    #[zarr(rename = "b")]
    flag: bool,
    i8: i8,
    i16: i16,
    i32: i32,
    i64: i64,
    u8: u8,
    u16: u16,
    u32: u32,
    u64: u64,
    f16: f16,
    f32: f32,
    f64: f64,
    #[zarr(rename = "c64")]
    complex64: Complex<f32>,
    #[zarr(rename = "c128")]
    complex128: Complex<f64>,
}

/// `v3_struct_bool_only`.
#[derive(ZarrStruct, Clone, Copy, Debug)]
struct BoolPair {
    a: bool,
    b: bool,
}

/// `v3_struct_u1_only`.
#[derive(ZarrStruct, Clone, Copy, Debug)]
struct Rgb {
    r: u8,
    g: u8,
    b: u8,
}

// =============================================================================================
// Expected values, transcribed from the fixtures' `values` (bit patterns as written there)
// =============================================================================================

fn particle_values() -> Vec<Particle> {
    let p = |id, pos: [u32; 3], mass, alive| Particle {
        id,
        pos: pos.map(f32::from_bits),
        mass: f64::from_bits(mass),
        alive,
    };
    vec![
        p(1, [0, 0, 0], 0x3ff0_0000_0000_0000, true),
        p(
            2,
            [0x3f80_0000, 0x4000_0000, 0x4040_0000],
            0x4004_0000_0000_0000,
            false,
        ),
        p(
            3,
            [0xbf80_0000, 0xc000_0000, 0xc040_0000],
            0x01a5_6e1f_c2f8_f359,
            true,
        ),
        p(
            u64::MAX,
            [0x3f00_0000, 0x3e80_0000, 0x3e00_0000],
            0x7ff0_0000_0000_0000,
            true,
        ),
        p(
            0,
            [0x5015_02f9, 0xaedb_e6ff, 0x7fc0_0000],
            0x8000_0000_0000_0000,
            false,
        ),
    ]
}

fn tuple_values() -> Vec<Tuple> {
    let t = |a, b| Tuple(a, f32::from_bits(b));
    vec![
        t(-32768, 0x3fc0_0000),
        t(32767, 0xc020_0000),
        t(0, 0x7fc0_0000),
        t(-1, 0xff80_0000),
        t(1, 0x0000_0000),
    ]
}

fn renamed_values() -> Vec<Renamed> {
    let r = |mask, temperature| Renamed {
        mask,
        temperature: f64::from_bits(temperature),
    };
    vec![
        r(0, 0x4034_8000_0000_0000),
        r(1, 0xc044_0000_0000_0000),
        r(2, 0x4059_0000_0000_0000),
        r(254, 0xc071_1266_6666_6666),
        r(255, 0x4042_9999_9999_999a),
    ]
}

fn grid_values() -> Vec<Grid> {
    (0..5)
        .map(|r: i16| Grid {
            cells: [0, 1, 2].map(|i| [0, 1].map(|j| 100 * r + 10 * i + j)),
        })
        .collect()
}

fn all_scalars_values() -> Vec<AllScalars> {
    let c64 = |re: u32, im: u32| Complex::new(f32::from_bits(re), f32::from_bits(im));
    let c128 = |re: u64, im: u64| Complex::new(f64::from_bits(re), f64::from_bits(im));
    vec![
        AllScalars {
            flag: true,
            i8: i8::MIN,
            i16: i16::MIN,
            i32: i32::MIN,
            i64: i64::MIN,
            u8: 0,
            u16: 0,
            u32: 0,
            u64: 0,
            f16: f16::from_bits(0x8000),
            f32: f32::from_bits(0x8000_0000),
            f64: f64::from_bits(0x8000_0000_0000_0000),
            complex64: c64(0x3f80_0000, 0x7fc0_0000),
            complex128: c128(0x3ff0_0000_0000_0000, 0x7ff8_0000_0000_0000),
        },
        AllScalars {
            flag: false,
            i8: i8::MAX,
            i16: i16::MAX,
            i32: i32::MAX,
            i64: i64::MAX,
            u8: u8::MAX,
            u16: u16::MAX,
            u32: u32::MAX,
            u64: u64::MAX,
            f16: f16::from_bits(0x0001),
            f32: f32::from_bits(0x0000_0001),
            f64: f64::from_bits(0x0000_0000_0000_0001),
            complex64: c64(0x8000_0000, 0x7f80_0000),
            complex128: c128(0x8000_0000_0000_0000, 0x7ff0_0000_0000_0000),
        },
        AllScalars {
            flag: true,
            i8: 0,
            i16: 0,
            i32: 0,
            i64: 0,
            u8: 1,
            u16: 1,
            u32: 1,
            u64: 1,
            f16: f16::from_bits(0x7e01),
            f32: f32::from_bits(0x7fc0_0001),
            f64: f64::from_bits(0x7ff8_0000_0000_0001),
            complex64: c64(0xff80_0000, 0x0000_0001),
            complex128: c128(0xfff0_0000_0000_0000, 0x0000_0000_0000_0001),
        },
        AllScalars {
            flag: false,
            i8: -1,
            i16: -1,
            i32: -1,
            i64: -1,
            u8: 128,
            u16: 32768,
            u32: 2_147_483_648,
            u64: 9_223_372_036_854_775_808,
            f16: f16::from_bits(0xfc00),
            f32: f32::from_bits(0x7f80_0001),
            f64: f64::from_bits(0xfff0_0000_0000_0000),
            complex64: c64(0x7fc0_0001, 0x8000_0000),
            complex128: c128(0x7ff8_0000_0000_0001, 0x8000_0000_0000_0000),
        },
        AllScalars {
            flag: true,
            i8: 42,
            i16: 42,
            i32: 42,
            i64: 42,
            u8: 42,
            u16: 42,
            u32: 42,
            u64: 42,
            f16: f16::from_bits(0x7c00),
            f32: f32::from_bits(0xffc0_0000),
            f64: f64::from_bits(0x7ff0_0000_0000_0000),
            complex64: c64(0x4049_0fdb, 0xc049_0fdb),
            complex128: c128(0x4009_21fb_5444_2d18, 0xc009_21fb_5444_2d18),
        },
    ]
}

// =============================================================================================
// Helpers
// =============================================================================================

const V3: &str = "3.4.2";
const V2: &str = "2.18.7";

fn fixture(version: &str, relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(format!("zarr-python-{version}"))
        .join(relative)
}

fn read_json(path: &Path) -> Json {
    let text =
        fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn u64s(json: &Json) -> Vec<u64> {
    json.as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Bitwise equality (floats by bits) via [`zarrdt::value::Value`] and the encoded bytes.
fn assert_bitwise_eq<T: ZarrType + Debug>(found: &[T], expected: &[T], context: &str) {
    assert_eq!(found.len(), expected.len(), "{context}: number of elements");
    for (index, (f, e)) in found.iter().zip(expected).enumerate() {
        assert_eq!(
            f.to_value(),
            e.to_value(),
            "{context}: element {index}: {f:?} vs {e:?}"
        );
        assert_eq!(
            f.encode(Endian::Big),
            e.encode(Endian::Big),
            "{context}: element {index}: {f:?} vs {e:?}"
        );
    }
}

/// The fixture's description of the case, checked to be the one we think it is.
/// The fixture array `case` written by zarr-python `version`, opened through zarrs.
fn open_fixture(version: &str, case: &str) -> Array<FilesystemStore> {
    let store = Arc::new(FilesystemStore::new(fixture(version, &format!("{case}.zarr"))).unwrap());
    open_array(store, "/").unwrap_or_else(|e| panic!("{case}: {e}"))
}

fn case_json(version: &str, case: &str, itemsize: usize) -> Json {
    let json = read_json(&fixture(version, &format!("{case}.json")));
    assert_eq!(json["case"], case);
    assert_eq!(json["itemsize"].as_u64(), Some(itemsize as u64), "{case}");
    json
}

/// The expected elements of every stored chunk: the values, then the fill up to the end of
/// the last chunk (zarr-python writes whole chunks).
fn with_fill<T: Clone>(values: Vec<T>, chunk_len: usize, fill: &T) -> Vec<T> {
    let mut all = values;
    while !all.len().is_multiple_of(chunk_len) {
        all.push(fill.clone());
    }
    all
}

// =============================================================================================
// Zarr v3
// =============================================================================================

fn check_v3_case<T: ZarrStruct + ElementOwned + Debug + Clone>(
    case: &str,
    expected: &[T],
    fill_value: &T,
) {
    let zarr = read_json(&fixture(V3, &format!("{case}.zarr/zarr.json")));
    let described = case_json(V3, case, T::SIZE);
    let fill = fill_value.to_value();

    // The pieces of metadata, exactly as zarr-python wrote them.
    assert_eq!(
        T::data_type().to_v3_json(),
        zarr["data_type"],
        "{case}: data_type"
    );
    assert_eq!(
        T::data_type().fill_value_to_v3_json(&fill).unwrap(),
        zarr["fill_value"],
        "{case}: fill_value"
    );
    assert_eq!(
        BytesCodec::for_data_type(&T::data_type(), Endian::Little).to_json(),
        zarr["codecs"][0],
        "{case}: bytes codec"
    );
    assert_eq!(
        zarr["codecs"].as_array().unwrap().len(),
        1,
        "{case}: codecs"
    );

    // The whole document.
    let shape = u64s(&zarr["shape"]);
    let chunk_shape = u64s(&zarr["chunk_grid"]["configuration"]["chunk_shape"]);
    let meta = ArrayMetadataV3::new(
        shape.clone(),
        chunk_shape.clone(),
        T::data_type(),
        fill.clone(),
        Endian::Little,
    );
    let written = meta.to_json().unwrap();
    for key in [
        "zarr_format",
        "node_type",
        "data_type",
        "fill_value",
        "codecs",
        "shape",
        "chunk_grid",
        "chunk_key_encoding",
        "attributes",
    ] {
        assert_eq!(written[key], zarr[key], "{case}: zarr.json member {key:?}");
    }

    // Reading the file's document gives our type and fill back.
    let parsed = ArrayMetadataV3::from_json(&zarr).unwrap();
    T::check_data_type(&parsed.data_type).unwrap();
    assert_eq!(parsed.data_type, T::data_type(), "{case}: parsed data type");
    assert_eq!(parsed.fill_value, fill, "{case}: parsed fill value");
    let parsed_fill = T::from_value(&parsed.fill_value).unwrap();
    assert_bitwise_eq(
        std::slice::from_ref(&parsed_fill),
        std::slice::from_ref(fill_value),
        &format!("{case}: fill"),
    );
    let codec = parsed.bytes_codec.unwrap();
    let needs_endian = T::TYPE.has_endianness();
    assert_eq!(
        codec.endian(),
        needs_endian.then_some(Endian::Little),
        "{case}"
    );

    // The fixture's own list of values is what we transcribed.
    let listed: Vec<T> = described["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| T::from_value(&T::data_type().fill_value_from_v3_json(v, None).unwrap()).unwrap())
        .collect();
    assert_bitwise_eq(&listed, expected, &format!("{case}: fixture values"));
    assert_eq!(
        hex(&T::encode_slice(expected, Endian::Little)),
        described["values_hex"].as_str().unwrap(),
        "{case}: values_hex"
    );

    // The chunks, through zarrs: its chunk keys and the array's codec chain (only `bytes`:
    // the fixtures are uncompressed, so the stored bytes are the bytes codec's output).
    assert_eq!(
        zarr["codecs"].as_array().unwrap().len(),
        1,
        "{case}: codecs"
    );
    let chunk_len = usize::try_from(chunk_shape[0]).unwrap();
    let all = with_fill(expected.to_vec(), chunk_len, fill_value);
    let array = open_fixture(V3, case);
    let whole: Vec<T> = array.retrieve_array_subset(&[0..shape[0]]).unwrap();
    assert_bitwise_eq(
        &whole,
        &all[..whole.len()],
        &format!("{case}: the whole array"),
    );
    let dynamic = array.retrieve_values(&[0..shape[0]]).unwrap();
    let from_dynamic: Vec<T> = dynamic.iter().map(|v| T::from_value(v).unwrap()).collect();
    assert_bitwise_eq(
        &from_dynamic,
        &all[..whole.len()],
        &format!("{case}: values"),
    );
    let chunks = shape[0].div_ceil(chunk_shape[0]);
    let stored = described["stored_chunks"].as_array().unwrap();
    assert_eq!(stored.len() as u64, chunks, "{case}: stored chunks");
    for index in 0..chunks {
        let key = array.chunk_key(&[index]);
        assert_eq!(key.as_str(), format!("c/{index}"), "{case}: chunk key");
        assert_eq!(stored[index as usize], key.as_str());
        let start = index as usize * chunk_len;
        let want = &all[start..start + chunk_len];
        let context = format!("{case}: chunk {key}");

        let decoded: Vec<T> = array.retrieve_chunk(&[index]).unwrap();
        assert_bitwise_eq(&decoded, want, &context);
        let bytes = array.retrieve_encoded_chunk(&[index]).unwrap().unwrap();
        // The bytes codec alone reads and writes the stored bytes.
        let read = codec.read_endian();
        assert_bitwise_eq(&T::decode_slice(&bytes, read).unwrap(), want, &context);
        let write = codec.write_endian(&T::data_type()).unwrap();
        assert_eq!(T::encode_slice(&decoded, write), bytes, "{context}: encode");
        // The runtime codec of the file's type agrees.
        let dynamic = codec.decode_values(&parsed.data_type, &bytes).unwrap();
        let from_dynamic: Vec<T> = dynamic.iter().map(|v| T::from_value(v).unwrap()).collect();
        assert_bitwise_eq(&from_dynamic, want, &format!("{context}: runtime codec"));
    }
}

#[test]
fn v3_derive_particle() {
    check_v3_case::<Particle>(
        "v3_derive_particle",
        &particle_values(),
        &Particle::default(),
    );
}

#[test]
fn v3_derive_tuple() {
    check_v3_case::<Tuple>("v3_derive_tuple", &tuple_values(), &Tuple::default());
}

#[test]
fn v3_derive_renamed() {
    check_v3_case::<Renamed>("v3_derive_renamed", &renamed_values(), &Renamed::default());
}

#[test]
fn v3_derive_grid() {
    check_v3_case::<Grid>("v3_derive_grid", &grid_values(), &Grid::default());
}

#[test]
fn v3_derive_all_scalars() {
    check_v3_case::<AllScalars>(
        "v3_derive_all_scalars",
        &all_scalars_values(),
        &AllScalars::default(),
    );
}

/// Structs of single-byte fields: the bytes codec has no `endian` (zarr-python writes
/// `{"name": "bytes"}`), and the fills are not zero.
#[test]
fn v3_struct_bool_only() {
    let values = [
        (false, false),
        (true, false),
        (false, true),
        (true, true),
        (false, true),
    ]
    .map(|(a, b)| BoolPair { a, b });
    check_v3_case::<BoolPair>(
        "v3_struct_bool_only",
        &values,
        &BoolPair { a: true, b: false },
    );
}

#[test]
fn v3_struct_u1_only() {
    let values = [
        (0, 10, 255),
        (1, 20, 0),
        (2, 30, 255),
        (3, 40, 0),
        (254, 50, 1),
    ]
    .map(|(r, g, b)| Rgb { r, g, b });
    check_v3_case::<Rgb>(
        "v3_struct_u1_only",
        &values,
        &Rgb {
            r: 255,
            g: 128,
            b: 0,
        },
    );
}

/// `ArrayMetadataV3::layout` is "the stored layout of one element, as the chunks are read"
/// and `Layout::decode_elements` decodes "a chunk stored in this layout into Rust values of
/// `T`"; a v3 array of a derived struct with array fields stores exactly `T`'s bytes (the crate
/// documentation: a `[T; N]` field is a struct of fields "0".."N-1" in v3, "which has exactly
/// the bytes of the array"), so its layout stores `T` and its chunks decode as `T`.
#[test]
fn v3_layout_decodes_elements_of_structs_with_array_fields() {
    fn check<T: ZarrStruct + Default + Debug + Clone>(case: &str, expected: &[T]) {
        let zarr = read_json(&fixture(V3, &format!("{case}.zarr/zarr.json")));
        let parsed = ArrayMetadataV3::from_json(&zarr).unwrap();
        let layout = parsed.layout().unwrap();
        // The same bytes as T's own layout: T's array fields are subarrays in it, and the
        // file's v3 type has their struct form (fields "0", "1", ...), which matches them.
        let ours = Layout::from_data_type(&T::data_type(), Some(Endian::Little)).unwrap();
        ours.check_matches(&layout)
            .unwrap_or_else(|e| panic!("{case}: {e}"));
        layout
            .check_matches(&ours)
            .unwrap_or_else(|e| panic!("{case}: {e}"));
        assert_eq!(layout.uniform_endian(), ours.uniform_endian());
        T::check_layout(&layout).unwrap_or_else(|e| panic!("{case}: check_layout: {e}"));
        let bytes = open_fixture(V3, case)
            .retrieve_encoded_chunk(&[0])
            .unwrap()
            .unwrap();
        // Its one byte order (the file's bytes codec's).
        let endian = layout.uniform_endian().unwrap().unwrap_or(Endian::NATIVE);
        let decoded = T::decode_slice(&bytes, endian).unwrap_or_else(|e| panic!("{case}: {e}"));
        assert_bitwise_eq(&decoded, &expected[..2], case);
    }
    // Without array fields.
    check::<Tuple>("v3_derive_tuple", &tuple_values());
    // With array fields (v3: structs of fields "0", "1", ...).
    check::<Particle>("v3_derive_particle", &particle_values());
    check::<Grid>("v3_derive_grid", &grid_values());
}

// =============================================================================================
// Zarr v2
// =============================================================================================

fn check_v2_case<T: ZarrStruct + ElementOwned + Default + Debug + Clone>(
    case: &str,
    expected: &[T],
) {
    let zarray = read_json(&fixture(V2, &format!("{case}.zarr/.zarray")));
    let described = case_json(V2, case, T::SIZE);
    let fill = T::default().to_value();
    let layout = T::layout(Endian::Little);

    // The pieces of metadata, exactly as zarr-python wrote them.
    assert_eq!(
        layout.to_v2_json().unwrap(),
        zarray["dtype"],
        "{case}: dtype"
    );
    assert_eq!(
        layout.fill_value_to_v2_json(Some(&fill)).unwrap(),
        zarray["fill_value"],
        "{case}: fill_value"
    );

    // The whole document.
    let shape = u64s(&zarray["shape"]);
    let chunks = u64s(&zarray["chunks"]);
    let meta = ArrayMetadataV2::new(shape.clone(), chunks.clone(), layout, Some(fill.clone()));
    let written = meta.to_json().unwrap();
    for key in [
        "zarr_format",
        "dtype",
        "fill_value",
        "shape",
        "chunks",
        "order",
        "compressor",
        "filters",
    ] {
        assert_eq!(written[key], zarray[key], "{case}: .zarray member {key:?}");
    }

    // Reading the file's document gives our layout and fill back.
    let parsed = ArrayMetadataV2::from_json(&zarray).unwrap();
    T::check_layout(&parsed.layout).unwrap();
    assert_eq!(parsed.layout, T::layout(Endian::Little), "{case}: layout");
    let parsed_fill = T::from_value(parsed.fill_value.as_ref().unwrap()).unwrap();
    assert_bitwise_eq(&[parsed_fill], &[T::default()], &format!("{case}: fill"));
    assert_eq!(
        hex(&T::encode_slice(expected, Endian::Little)),
        described["values_hex"].as_str().unwrap(),
        "{case}: values_hex"
    );

    // The chunks, through zarrs (which needs zarrdt's v2 path for structured dtypes): its
    // chunk keys and the array's codecs (none: the fixtures are uncompressed).
    assert!(zarray["compressor"].is_null(), "{case}: compressor");
    let chunk_len = usize::try_from(chunks[0]).unwrap();
    let all = with_fill(expected.to_vec(), chunk_len, &T::default());
    let array = open_fixture(V2, case);
    let whole: Vec<T> = array.retrieve_array_subset(&[0..shape[0]]).unwrap();
    assert_bitwise_eq(
        &whole,
        &all[..whole.len()],
        &format!("{case}: the whole array"),
    );
    let count = shape[0].div_ceil(chunks[0]);
    assert_eq!(
        described["stored_chunks"].as_array().unwrap().len() as u64,
        count
    );
    for index in 0..count {
        let key = array.chunk_key(&[index]);
        assert_eq!(key.as_str(), index.to_string(), "{case}: chunk key");
        let bytes = array.retrieve_encoded_chunk(&[index]).unwrap().unwrap();
        let start = index as usize * chunk_len;
        let want = &all[start..start + chunk_len];
        let context = format!("{case}: chunk {key}");

        let decoded: Vec<T> = array.retrieve_chunk(&[index]).unwrap();
        assert_bitwise_eq(&decoded, want, &context);
        assert_bitwise_eq(
            &common::decode_stored::<T>(&parsed.layout, &bytes).unwrap(),
            want,
            &context,
        );
        assert_eq!(
            T::encode_slice(&decoded, Endian::Little),
            bytes,
            "{context}: encode"
        );
        // The runtime codec of the file's layout agrees.
        let dynamic = parsed.layout.decode_values(&bytes).unwrap();
        let from_dynamic: Vec<T> = dynamic.iter().map(|v| T::from_value(v).unwrap()).collect();
        assert_bitwise_eq(&from_dynamic, want, &format!("{context}: runtime codec"));
    }
}

#[test]
fn v2_derive_particle() {
    check_v2_case::<Particle>("v2_derive_particle", &particle_values());
}

#[test]
fn v2_derive_grid() {
    check_v2_case::<Grid>("v2_derive_grid", &grid_values());
}

#[test]
fn v2_derive_all_scalars() {
    check_v2_case::<AllScalars>("v2_derive_all_scalars", &all_scalars_values());
}

/// The v2 and v3 fixtures hold the same data for the same struct.
#[test]
fn v2_and_v3_fixtures_store_the_same_bytes() {
    for (v2, v3) in [
        ("v2_derive_particle", "v3_derive_particle"),
        ("v2_derive_grid", "v3_derive_grid"),
        ("v2_derive_all_scalars", "v3_derive_all_scalars"),
    ] {
        let (a, b) = (open_fixture(V2, v2), open_fixture(V3, v3));
        for chunk in 0..3 {
            let a = a.retrieve_encoded_chunk(&[chunk]).unwrap().unwrap();
            let b = b.retrieve_encoded_chunk(&[chunk]).unwrap().unwrap();
            assert_eq!(a, b, "{v2} vs {v3}, chunk {chunk}");
        }
    }
}
