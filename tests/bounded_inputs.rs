//! Memory and time bounded by the input (issue 7): each confirmed case gets a typed error or
//! the right value within 10 ms and 10 MB, measured with a counting global allocator
//! (`peak_alloc`: the peak of live allocated bytes); and time is linear in the number of fields
//! (1k against 100k).
//!
//! The allocator's counters are global, so the tests of this file run one at a time (each
//! holds [`serial`]'s lock), and nothing else allocates while a case is measured.

#![allow(clippy::unwrap_used)]

use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use peak_alloc::PeakAlloc;
use serde_json::{Value as Json, json};
use zarrdt::{
    ArrayMetadataV2, ArrayMetadataV3, ArrayValue, DataType, Element, Endian, Error, Layout, Record,
    ScalarType, StructType, Value, ZarrStruct,
};

#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

/// Makes the tests of this file run one after another.
fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

const LIMIT_BYTES: usize = 10 << 20;
const LIMIT_TIME: Duration = Duration::from_millis(10);

/// Runs `case`, and checks that its peak allocation above what was live before and its time
/// stay within 10 MB and 10 ms; returns its result.
fn bounded<T>(name: &str, case: impl FnOnce() -> T) -> T {
    let before = ALLOCATOR.current_usage();
    ALLOCATOR.reset_peak_usage();
    let start = Instant::now();
    let result = case();
    let elapsed = start.elapsed();
    let peak = ALLOCATOR.peak_usage().saturating_sub(before);
    assert!(
        peak <= LIMIT_BYTES,
        "{name}: peak allocation {peak} bytes, over {LIMIT_BYTES}"
    );
    assert!(
        elapsed <= LIMIT_TIME,
        "{name}: took {elapsed:?}, over {LIMIT_TIME:?}"
    );
    result
}

// ---------------------------------------------------------------------------------------------
// The confirmed cases of issue 7
// ---------------------------------------------------------------------------------------------

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Inner {
    x: u8,
}

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Outer {
    inner: Inner,
}

/// A 137-byte `.zarray` whose record is a 2147483647-byte subarray, with the legacy fill `0`:
/// the fill value is the zero record, its subarray holding its zero item once.
#[test]
fn legacy_zero_fill_of_a_two_gigabyte_record() {
    let _serial = serial();
    let text = r#"{"zarr_format":2,"shape":[1],"chunks":[1],"dtype":[["a","|u1",[2147483647]]],"fill_value":0,"order":"C","compressor":null}"#;
    assert!(text.len() <= 137, "{}", text.len());
    let meta = bounded("legacy zero fill", || ArrayMetadataV2::from_json_str(text)).unwrap();
    let fill = meta.fill_value.unwrap();
    let a = fill
        .as_record()
        .unwrap()
        .get("a")
        .unwrap()
        .as_array()
        .unwrap();
    assert_eq!(a.shape(), [2_147_483_647]);
    assert_eq!(a.get(2_147_483_646).as_deref(), Some(&Value::UInt8(0)));
    assert_eq!(meta.layout.zero_value(), fill);
}

/// A layout with a 2·10⁹-item subarray checked against (and decoded into) a derived struct
/// of one byte: an error at once, without a field per item.
#[test]
fn a_huge_subarray_against_a_small_derived_struct() {
    let _serial = serial();
    let layout = bounded("parse", || {
        Layout::from_v2_json(&json!([["inner", "|u1", [2_000_000_000]]]))
    })
    .unwrap();
    let error = bounded("check_layout", || Outer::check_layout(&layout)).unwrap_err();
    assert!(matches!(error, Error::TypeMismatch { .. }), "{error}");
    assert!(
        error
            .to_string()
            .starts_with("data type mismatch at field `inner.x`"),
        "{error}"
    );
    let error = bounded("decode_elements", || layout.decode_elements::<Outer>(&[])).unwrap_err();
    assert!(matches!(error, Error::TypeMismatch { .. }), "{error}");
}

/// `Layout::to_v3` of subarrays of 10⁷ and 4·10⁷ items: an error naming the field, at once.
#[test]
fn to_v3_rejects_a_huge_subarray_at_once() {
    let _serial = serial();
    for items in [10_000_000u64, 40_000_000] {
        let layout = Layout::from_v2_json(&json!([["a", "<f4", [items]]])).unwrap();
        let error = bounded("to_v3", || layout.to_v3()).unwrap_err();
        assert!(
            matches!(&error, Error::NoV3Equivalent { path, .. } if path.to_string() == "a"),
            "{error}"
        );
    }
}

/// A 290-byte `zarr.json` whose field is `null_terminated_bytes` of 2147483647 bytes with the
/// fill `""`: the fill is the empty byte string, not 2 GB of zeros.
#[test]
fn empty_fill_of_huge_null_terminated_bytes() {
    let _serial = serial();
    let text = r#"{"zarr_format":3,"node_type":"array","shape":[1],"data_type":{"name":"struct","configuration":{"fields":[{"name":"s","data_type":{"name":"null_terminated_bytes","configuration":{"length_bytes":2147483647}}}]}},"chunk_grid":{"name":"regular","configuration":{"chunk_shape":[1]}},"fill_value":{"s":""},"codecs":[{"name":"bytes"}]}"#;
    assert!(text.len() <= 330, "{}", text.len());
    let meta = bounded("null-terminated fill", || {
        ArrayMetadataV3::from_json_str(text)
    })
    .unwrap();
    let s = meta.fill_value.as_record().unwrap().get("s").unwrap();
    assert_eq!(s, &Value::Bytes(Vec::new()));
    // Written back, it is still the empty string.
    let written = bounded("write", || {
        meta.data_type.fill_value_to_json(&meta.fill_value)
    })
    .unwrap();
    assert_eq!(written, json!({"s": ""}));
}

/// Sizes near 2^64 and beyond the element limit are errors, never allocations.
#[test]
fn sizes_beyond_the_limit_are_errors() {
    let _serial = serial();
    let cases = [
        json!("r18446744073709551608"),
        json!("r17179869184"),
        json!({"name": "raw_bytes", "configuration": {"length_bytes": 1u64 << 40}}),
        json!({"name": "null_terminated_bytes", "configuration": {"length_bytes": 1u64 << 40}}),
        json!({"name": "fixed_length_utf32", "configuration": {"length_bytes": 1u64 << 40}}),
        json!({"name": "struct", "configuration": {"fields": [
            {"name": "a", "data_type": "r17179869176"}, {"name": "b", "data_type": "uint8"}]}}),
    ];
    for case in cases {
        let error = bounded("size", || DataType::from_v3_json(&case)).unwrap_err();
        assert!(
            matches!(error, Error::InvalidDataType { .. }),
            "{case}: {error}"
        );
    }
    for descr in [
        json!([["a", "|u1", [2147483648u64]]]),
        json!([["a", "<f8", [65536, 65536]]]),
        json!("|V2147483648"),
        json!([["a", "|V2147483647"], ["b", "|u1"]]),
    ] {
        let error = bounded("descr size", || Layout::from_v2_json(&descr)).unwrap_err();
        assert!(
            matches!(error, Error::InvalidDtype { .. }),
            "{descr}: {error}"
        );
    }
    assert!(ScalarType::raw_bytes(usize::MAX).is_none());
    assert!(ScalarType::raw_bits(usize::MAX - 7).is_none());
    assert!(ScalarType::fixed_length_utf32(usize::MAX / 4).is_none());
}

/// Metadata nested deeper than the limit is an error, not a stack overflow, however it is
/// built.
#[test]
fn deep_nesting_is_an_error() {
    let _serial = serial();
    // Built by moving each level into the next (`json!` would copy the inner value by
    // serialising it, recursively).
    fn object(members: Vec<(&str, Json)>) -> Json {
        Json::Object(
            members
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect(),
        )
    }
    let mut v3 = json!("uint8");
    let mut v2 = json!("|u1");
    for _ in 0..10_000 {
        let field = object(vec![("name", json!("a")), ("data_type", v3)]);
        let configuration = object(vec![("fields", Json::Array(vec![field]))]);
        v3 = object(vec![
            ("name", json!("struct")),
            ("configuration", configuration),
        ]);
        v2 = Json::Array(vec![Json::Array(vec![json!("a"), v2])]);
    }
    let error = DataType::from_v3_json(&v3).unwrap_err();
    assert!(error.to_string().contains("deeper than 64"), "{error}");
    let error = Layout::from_v2_json(&v2).unwrap_err();
    assert!(error.to_string().contains("deeper than 64"), "{error}");
    // serde_json's own drop of such a value recurses; leak it rather than overflow the stack.
    std::mem::forget(v3);
    std::mem::forget(v2);
}

// ---------------------------------------------------------------------------------------------
// Values: one shape, strict records, field order
// ---------------------------------------------------------------------------------------------

/// A Rust array has one value shape in every format, and fill values round-trip.
#[test]
fn one_value_shape_for_rust_arrays() {
    let _serial = serial();
    let value = [[1.5f32, -0.0], [f32::NAN, 2.0]].to_value();
    assert!(matches!(&value, Value::Array(array) if array.shape() == [2, 2]));
    let v3 = <[[f32; 2]; 2]>::data_type();
    let v2 = <[[f32; 2]; 2]>::layout(Endian::Big);
    assert_eq!(
        v3.fill_value_from_json(&v3.fill_value_to_json(&value).unwrap())
            .unwrap(),
        value
    );
    assert_eq!(
        v2.fill_value_from_json(&v2.fill_value_to_json(Some(&value)).unwrap())
            .unwrap(),
        Some(value.clone())
    );
    assert_eq!(
        v2.decode_value(&v2.encode_value(&value).unwrap()).unwrap(),
        value
    );
    assert_eq!(
        v2.value_from_json(&v2.value_to_json(&value).unwrap())
            .unwrap(),
        value
    );
}

/// A value of N bytes of `u8`s takes about N bytes.
#[test]
fn a_million_u8_items_take_about_a_megabyte() {
    let _serial = serial();
    let layout = Layout::from_v2_json(&json!([["a", "|u1", [1_000_000]]])).unwrap();
    let bytes = vec![7u8; 1_000_000];
    let value = bounded("decode", || layout.decode_value(&bytes)).unwrap();
    let before = ALLOCATOR.current_usage();
    let copy = value.clone();
    let taken = ALLOCATOR.current_usage() - before;
    assert!(taken < 1_100_000, "a copy of the value takes {taken} bytes");
    drop(copy);
}

/// Record indices must be plain decimal, and a record may not name a field twice.
#[test]
fn records_are_matched_strictly() {
    let _serial = serial();
    let pos = <[u8; 2]>::layout(Endian::Little);
    for names in [["+0", "1"], ["00", "1"], ["0", "01"]] {
        let record: Record = names.iter().map(|&n| (n, Value::UInt8(1))).collect();
        let error = pos.encode_value(&Value::Record(record)).unwrap_err();
        assert!(
            matches!(error, Error::ValueMismatch { .. }),
            "{names:?}: {error}"
        );
    }
    let point = DataType::from(
        StructType::new([
            ("x", ScalarType::UInt8.into()),
            ("y", ScalarType::UInt8.into()),
        ])
        .unwrap(),
    );
    let twice: Record = [
        ("x", Value::UInt8(1)),
        ("x", Value::UInt8(2)),
        ("y", Value::UInt8(3)),
    ]
    .into_iter()
    .collect();
    let error = point
        .fill_value_to_json(&Value::Record(twice.clone()))
        .unwrap_err();
    assert!(error.to_string().contains("more than once"), "{error}");
    let layout = Layout::from_data_type(&point, None).unwrap();
    let error = layout.encode_value(&Value::Record(twice)).unwrap_err();
    assert_eq!(error.path().unwrap().to_string(), "x");
}

/// JSON objects come out in field order, whatever the alphabet says.
#[test]
fn objects_are_written_in_field_order() {
    let _serial = serial();
    let data_type = DataType::from(
        StructType::new([
            ("zeta", ScalarType::Int8.into()),
            ("alpha", ScalarType::Int8.into()),
            ("mid", ScalarType::Int8.into()),
        ])
        .unwrap(),
    );
    let value: Record = [
        ("mid", Value::Int8(3)),
        ("zeta", Value::Int8(1)),
        ("alpha", Value::Int8(2)),
    ]
    .into_iter()
    .collect();
    let json = data_type.fill_value_to_json(&Value::Record(value)).unwrap();
    assert_eq!(json.to_string(), r#"{"zeta":1,"alpha":2,"mid":3}"#);
    let meta = ArrayMetadataV3::new(
        vec![1],
        vec![1],
        data_type,
        data_type_fill(),
        Endian::Little,
    );
    let text = meta.to_json().unwrap().to_string();
    let fields = text.find(r#""fields":[{"name":"zeta""#).unwrap();
    let fill = text
        .find(r#""fill_value":{"zeta":0,"alpha":0,"mid":0}"#)
        .unwrap();
    assert!(fields < fill);
}

fn data_type_fill() -> Value {
    Value::Record(
        [
            ("zeta", Value::Int8(0)),
            ("alpha", Value::Int8(0)),
            ("mid", Value::Int8(0)),
        ]
        .into_iter()
        .collect(),
    )
}

// ---------------------------------------------------------------------------------------------
// Legacy base64 struct fills and the bytes codec inside sharding
// ---------------------------------------------------------------------------------------------

fn legacy(codecs: Json) -> ArrayMetadataV3 {
    ArrayMetadataV3::from_json(&json!({
        "zarr_format": 3, "node_type": "array", "shape": [4],
        "data_type": {"name": "structured", "configuration": {"fields": [["a", "int32"], ["b", "uint8"]]}},
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4]}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": "AAAAAQI=",
        "codecs": codecs
    }))
    .unwrap()
}

fn fill_a(meta: &ArrayMetadataV3) -> &Value {
    meta.fill_value.as_record().unwrap().get("a").unwrap()
}

/// A base64 struct fill is read in the byte order of the array's bytes codec (the
/// `structured` spec, tensorstore), little-endian without one; zarr-python 3.4.1+ reads it as
/// little-endian always, which `fill_value_from_json_with_endian(.., Some(Little))` gives.
#[test]
fn legacy_base64_fills_follow_the_codec_endian() {
    let _serial = serial();
    let big = legacy(json!([{"name": "bytes", "configuration": {"endian": "big"}}]));
    assert_eq!(fill_a(&big), &Value::Int32(1));
    let little = legacy(json!([{"name": "bytes", "configuration": {"endian": "little"}}]));
    assert_eq!(fill_a(&little), &Value::Int32(0x0100_0000));
    let none = legacy(json!([{"name": "bytes"}]));
    assert_eq!(fill_a(&none), &Value::Int32(0x0100_0000));
    let as_zarr_python = big
        .data_type
        .fill_value_from_json_with_endian(&json!("AAAAAQI="), Some(Endian::Little))
        .unwrap();
    assert_eq!(
        as_zarr_python.as_record().unwrap().get("a"),
        Some(&Value::Int32(0x0100_0000))
    );
}

/// The bytes codec of a sharded array is the one inside `sharding_indexed`: its endian
/// decides the fill and the chunks, and is written back where it was.
#[test]
fn the_bytes_codec_inside_sharding_is_found() {
    let _serial = serial();
    let sharded = |endian: &str| {
        json!([{"name": "sharding_indexed", "configuration": {
            "chunk_shape": [2],
            "codecs": [{"name": "bytes", "configuration": {"endian": endian}}],
            "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
            "index_location": "end"}}])
    };
    let big = legacy(sharded("big"));
    assert_eq!(big.bytes_codec.unwrap().endian(), Some(Endian::Big));
    assert_eq!(fill_a(&big), &Value::Int32(1));
    assert_eq!(
        big.layout().unwrap().uniform_endian(),
        Ok(Some(Endian::Big))
    );
    let written = big.to_json().unwrap();
    assert_eq!(
        written["codecs"][0]["configuration"]["codecs"][0]["configuration"]["endian"],
        "big"
    );
    assert_eq!(written["fill_value"], json!({"a": 1, "b": 2}));
    let little = legacy(sharded("little"));
    assert_eq!(fill_a(&little), &Value::Int32(0x0100_0000));
}

// ---------------------------------------------------------------------------------------------
// Linear time in the number of fields
// ---------------------------------------------------------------------------------------------

/// The metadata of a flat struct of `count` `int32` fields, its fill value, and the time to
/// parse the type, read the fill and encode one record (the best of three runs).
fn field_count_work(count: usize) -> Duration {
    let fields: Vec<Json> = (0..count)
        .map(|i| json!({"name": format!("field_{i}"), "data_type": "int32"}))
        .collect();
    let type_json = json!({"name": "struct", "configuration": {"fields": fields}});
    let fill: serde_json::Map<String, Json> = (0..count)
        .map(|i| (format!("field_{i}"), json!(i)))
        .collect();
    let fill = Json::Object(fill);
    (0..3)
        .map(|_| {
            let start = Instant::now();
            let data_type = DataType::from_v3_json(&type_json).unwrap();
            let value = data_type.fill_value_from_json(&fill).unwrap();
            let layout = Layout::from_data_type(&data_type, Some(Endian::Little)).unwrap();
            let bytes = layout.encode_value(&value).unwrap();
            assert_eq!(bytes.len(), 4 * count);
            assert_eq!(layout.decode_value(&bytes).unwrap(), value);
            start.elapsed()
        })
        .min()
        .unwrap()
}

/// 100 times the fields take about 100 times as long, not 10 000 times: the allowed ratio,
/// 1000, leaves room for noise and caches and is ten times below quadratic.
#[test]
fn time_is_linear_in_the_number_of_fields() {
    let _serial = serial();
    let small = field_count_work(1_000);
    let large = field_count_work(100_000);
    let ratio = large.as_secs_f64() / small.as_secs_f64().max(1e-6);
    eprintln!("parse + fill + encode + decode: 1k fields {small:?}, 100k fields {large:?}");
    assert!(
        ratio < 1000.0,
        "1k fields: {small:?}, 100k fields: {large:?}, ratio {ratio:.0}"
    );
}

// Keep the imports honest: the array value type is part of the unified shape.
#[test]
fn array_values_of_any_storage_are_one_value() {
    let _serial = serial();
    let typed = Value::Array(ArrayValue::from_vec(vec![2], vec![1u8, 2]).unwrap());
    let listed = Value::Array(ArrayValue::from(vec![Value::UInt8(1), Value::UInt8(2)]));
    let record = Value::Record(
        [("0", Value::UInt8(1)), ("1", Value::UInt8(2))]
            .into_iter()
            .collect(),
    );
    assert_eq!(typed, listed);
    assert_eq!(typed, record);
}

/// The public constructors check what they build, so no later operation meets a model that
/// breaks its rules (issue 7: an offset beyond the record, duplicate names, a size beyond the
/// limit all reached the codecs before).
#[test]
fn public_constructors_check_what_they_build() {
    let _serial = serial();
    use zarrdt::{ByteSize, LayoutField, ScalarLayout, StructLayout};
    let u1 = || Layout::Scalar(ScalarLayout::new(ScalarType::UInt8, None).unwrap());
    let beyond = StructLayout::new([LayoutField::new("a", 100, u1())], 4).unwrap_err();
    assert!(matches!(beyond, Error::InvalidStruct { .. }), "{beyond}");
    let twice = StructLayout::new(
        [
            LayoutField::new("a", 0, u1()),
            LayoutField::new("a", 1, u1()),
        ],
        2,
    )
    .unwrap_err();
    assert!(twice.to_string().contains("more than once"), "{twice}");
    let twice = StructType::new([
        ("a", ScalarType::UInt8.into()),
        ("a", ScalarType::UInt8.into()),
    ])
    .unwrap_err();
    assert!(twice.to_string().contains("more than once"), "{twice}");
    assert!(ByteSize::new(usize::MAX).is_none());
    assert!(ByteSize::new(0).is_none());
    assert!(ScalarLayout::new(ScalarType::Int32, None).is_err());
}
