//! Memory and work bounded by the input (issue 7): each confirmed case gets a typed error or
//! the right value within 10 MB and a bounded number of allocations, counted by the suite's
//! allocator ([`meter`]); and the work is linear in the number of fields (1k against 100k).
//!
//! The counters are the process's, so each test of this file runs in a process of its own
//! (`rusty_fork_test!`). The time of each case is measured by the `hostile_inputs` benchmark
//! (`cargo bench --bench hostile_inputs`), which runs the same cases: a time limit is no unit
//! test.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rusty_fork::rusty_fork_test;
use serde_json::{Value as Json, json};
use zarrdt::ReadRecords;
use zarrdt::advanced::ElementFault;
use zarrdt::array::{ArrayOptions, Compression, check_shards, open_array};
use zarrdt::layout::Layout;
use zarrdt::metadata::{ArrayMetadataV2, ArrayMetadataV3};
use zarrdt::types::{DataType, ScalarType, StructType, SubarrayType};
use zarrdt::value::{Record, SubarrayValue, Value};
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::zarrs::storage::store::MemoryStore;
use zarrdt::{Endian, Error, FixedString, ZarrStruct, ZarrType};

use crate::common::clock;
use crate::common::meter::{self, Usage};

/// The most bytes a case may hold live at once.
const LIMIT_BYTES: usize = 10 << 20;
/// The most allocations a case may make: some hundred times what the largest case makes, and
/// far below what work proportional to a size read from the input (2³¹) would make.
const LIMIT_ALLOCATIONS: usize = 100_000;

/// Checks one run of a case against the limits.
fn check_usage(name: &str, usage: Usage) {
    assert!(
        usage.peak_bytes <= LIMIT_BYTES,
        "{name}: peak allocation {} bytes, over {LIMIT_BYTES}",
        usage.peak_bytes
    );
    assert!(
        usage.allocations <= LIMIT_ALLOCATIONS,
        "{name}: {} allocations, over {LIMIT_ALLOCATIONS}",
        usage.allocations
    );
}

/// Runs `case`, and checks that its peak allocation above what was live before and its number
/// of allocations stay within the limits; returns its result.
fn bounded<T>(name: &str, case: impl FnOnce() -> T) -> T {
    let (result, usage) = meter::measure(case);
    check_usage(name, usage);
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

rusty_fork_test! {
    /// A 137-byte `.zarray` whose record is a 2147483647-byte subarray, with the legacy fill `0`:
    /// the fill value is the zero record, its subarray holding its zero item once.
    #[test]
    fn legacy_zero_fill_of_a_two_gigabyte_record() {
        let text = r#"{"zarr_format":2,"shape":[1],"chunks":[1],"dtype":[["a","|u1",[2147483647]]],"fill_value":0,"order":"C","compressor":null}"#;
        assert!(text.len() <= 137, "{}", text.len());
        let meta = bounded("legacy zero fill", || ArrayMetadataV2::from_json_str(text)).unwrap();
        let fill = meta.fill_value.unwrap();
        let a = fill
            .as_record()
            .unwrap()
            .get("a")
            .unwrap()
            .as_subarray()
            .unwrap();
        assert_eq!(a.shape(), [2_147_483_647]);
        assert_eq!(a.get(2_147_483_646).as_deref(), Some(&Value::UInt8(0)));
        assert_eq!(meta.layout.zero_value(), fill);
    }
}

rusty_fork_test! {
    /// A layout with a 2·10⁹-item subarray checked against (and decoded into) a derived struct
    /// of one byte: an error at once, without a field per item.
    #[test]
    fn a_huge_subarray_against_a_small_derived_struct() {
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
    }
}

rusty_fork_test! {
    /// `Layout::to_v3` of subarrays of 10⁷ and 4·10⁷ items: an error naming the field, at once.
    #[test]
    fn to_v3_rejects_a_huge_subarray_at_once() {
        for items in [10_000_000u64, 40_000_000] {
            let layout = Layout::from_v2_json(&json!([["a", "<f4", [items]]])).unwrap();
            let error = bounded("to_v3", || layout.to_v3()).unwrap_err();
            assert!(
                matches!(&error, Error::NoV3Equivalent { path, .. } if path.to_string() == "a"),
                "{error}"
            );
        }
    }
}

rusty_fork_test! {
    /// A 290-byte `zarr.json` whose field is `null_terminated_bytes` of 2147483647 bytes with the
    /// fill `""`: the fill is the empty byte string, not 2 GB of zeros.
    #[test]
    fn empty_fill_of_huge_null_terminated_bytes() {
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
            meta.data_type.fill_value_to_v3_json(&meta.fill_value)
        })
        .unwrap();
        assert_eq!(written, json!({"s": ""}));
    }
}

rusty_fork_test! {
    /// Sizes near 2^64 and beyond the element limit are errors, never allocations.
    #[test]
    fn sizes_beyond_the_limit_are_errors() {
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
}

rusty_fork_test! {
    /// Metadata nested deeper than the limit is an error, not a stack overflow, however it is
    /// built.
    #[test]
    fn deep_nesting_is_an_error() {
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
}

// ---------------------------------------------------------------------------------------------
// Values: one shape, strict records, field order
// ---------------------------------------------------------------------------------------------

rusty_fork_test! {
    /// A Rust array has one value shape in every format, and fill values round-trip.
    #[test]
    fn one_value_shape_for_rust_arrays() {
        let value = [[1.5f32, -0.0], [f32::NAN, 2.0]].to_value();
        assert!(matches!(&value, Value::Subarray(array) if array.shape() == [2, 2]));
        let v3 = <[[f32; 2]; 2]>::data_type();
        let v2 = <[[f32; 2]; 2]>::layout(Endian::Big);
        assert_eq!(
            v3.fill_value_from_v3_json(&v3.fill_value_to_v3_json(&value).unwrap(), None)
                .unwrap(),
            value
        );
        assert_eq!(
            v2.fill_value_from_v2_json(&v2.fill_value_to_v2_json(Some(&value)).unwrap())
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
}

rusty_fork_test! {
    /// A value of N bytes of `u8`s takes about N bytes.
    #[test]
    fn a_million_u8_items_take_about_a_megabyte() {
        let layout = Layout::from_v2_json(&json!([["a", "|u1", [1_000_000]]])).unwrap();
        let bytes = vec![7u8; 1_000_000];
        let value = bounded("decode", || layout.decode_value(&bytes)).unwrap();
        let (copy, usage) = meter::measure(|| value.clone());
        let taken = usage.peak_bytes;
        assert!(taken < 1_100_000, "a copy of the value takes {taken} bytes");
        drop(copy);
    }
}

rusty_fork_test! {
    /// Record indices must be plain decimal, and a record may not name a field twice.
    #[test]
    fn records_are_matched_strictly() {
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
            .fill_value_to_v3_json(&Value::Record(twice.clone()))
            .unwrap_err();
        assert!(error.to_string().contains("more than once"), "{error}");
        let layout = Layout::from_data_type(&point, None).unwrap();
        let error = layout.encode_value(&Value::Record(twice)).unwrap_err();
        assert_eq!(error.path().unwrap().to_string(), "x");
    }
}

rusty_fork_test! {
    /// JSON objects come out in field order, whatever the alphabet says.
    #[test]
    fn objects_are_written_in_field_order() {
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
        let json = data_type.fill_value_to_v3_json(&Value::Record(value)).unwrap();
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

rusty_fork_test! {
    /// A base64 struct fill is read in the byte order of the array's bytes codec (the
    /// `structured` spec, tensorstore), little-endian without one; zarr-python 3.4.1+ reads it as
    /// little-endian always, which `fill_value_from_v3_json(.., Some(Little))` gives.
    #[test]
    fn legacy_base64_fills_follow_the_codec_endian() {
        let big = legacy(json!([{"name": "bytes", "configuration": {"endian": "big"}}]));
        assert_eq!(fill_a(&big), &Value::Int32(1));
        let little = legacy(json!([{"name": "bytes", "configuration": {"endian": "little"}}]));
        assert_eq!(fill_a(&little), &Value::Int32(0x0100_0000));
        let none = legacy(json!([{"name": "bytes"}]));
        assert_eq!(fill_a(&none), &Value::Int32(0x0100_0000));
        let as_zarr_python = big
            .data_type
            .fill_value_from_v3_json(&json!("AAAAAQI="), Some(Endian::Little))
            .unwrap();
        assert_eq!(
            as_zarr_python.as_record().unwrap().get("a"),
            Some(&Value::Int32(0x0100_0000))
        );
    }
}

rusty_fork_test! {
    /// The bytes codec of a sharded array is the one inside `sharding_indexed`: its endian
    /// decides the fill and the chunks, and is written back where it was.
    #[test]
    fn the_bytes_codec_inside_sharding_is_found() {
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
}

// ---------------------------------------------------------------------------------------------
// Linear time in the number of fields
// ---------------------------------------------------------------------------------------------

/// The metadata of a flat struct of `count` `int32` fields and its fill value; parsing the
/// type, reading the fill, encoding one record and decoding it back.
pub(crate) fn field_count_work(count: usize) -> impl Fn() {
    let fields: Vec<Json> = (0..count)
        .map(|i| json!({"name": format!("field_{i}"), "data_type": "int32"}))
        .collect();
    let type_json = json!({"name": "struct", "configuration": {"fields": fields}});
    let fill: serde_json::Map<String, Json> = (0..count)
        .map(|i| (format!("field_{i}"), json!(i)))
        .collect();
    let fill = Json::Object(fill);
    move || {
        let data_type = DataType::from_v3_json(&type_json).unwrap();
        let value = data_type.fill_value_from_v3_json(&fill, None).unwrap();
        let layout = Layout::from_data_type(&data_type, Some(Endian::Little)).unwrap();
        let bytes = layout.encode_value(&value).unwrap();
        assert_eq!(bytes.len(), 4 * count);
        assert_eq!(layout.decode_value(&bytes).unwrap(), value);
    }
}

rusty_fork_test! {
    /// 100 times the fields take about 100 times the allocations and bytes, not 10 000 times:
    /// the allowed ratio, 150, is linear with room for amortised growth.
    #[test]
    fn work_is_linear_in_the_number_of_fields() {
        let (small, large) = (field_count_work(1_000), field_count_work(100_000));
        let ((), small) = meter::measure(&small);
        let ((), large) = meter::measure(&large);
        eprintln!("parse + fill + encode + decode: 1k fields {small:?}, 100k fields {large:?}");
        for (what, small, large) in [
            ("allocations", small.allocations, large.allocations),
            ("allocated bytes", small.allocated_bytes, large.allocated_bytes),
            ("peak bytes", small.peak_bytes, large.peak_bytes),
        ] {
            let ratio = large as f64 / small.max(1) as f64;
            assert!(ratio < 150.0, "{what}: 1k fields {small}, 100k fields {large}, ratio {ratio:.0}");
        }
    }

    /// A record with a subarray field of 65 536 items (an imported Arrow fixed-size list): its
    /// Zarr v3 JSON lists one field per item, and creating the array made it, copied it and
    /// parsed it again over and over (more than 86 allocations an item; an import of a
    /// 192-byte table took 3 s). The JSON is now made without copies, the zarrs data type
    /// from the type itself, and the type's parse makes field paths only for errors: at most
    /// 50 allocations an item (42 now; 66 before the last change).
    #[test]
    fn an_array_of_a_wide_subarray_is_created_without_remaking_its_json() {
        let (data_type, fill) = wide_subarray_record();
        let store = Arc::new(MemoryStore::new());
        let (array, created) = meter::measure(|| {
            ArrayOptions::new(vec![4], vec![4]).create_with(store.clone(), "/", &data_type, &fill)
        });
        array.unwrap();
        let per_item = created.allocations as f64 / WIDE_ITEMS as f64;
        eprintln!("create_with: {created:?}, {per_item:.1} allocations an item");
        assert!(per_item <= 50.0, "create_with made {per_item:.1} allocations an item");
    }

    /// Opening that array read its 8 MB `zarr.json` into zarrs' metadata through serde, which
    /// copied the whole document twice over, after zarrdt had copied it once to keep it for an
    /// error message, and every parse of the type made each field's path: 72 allocations an
    /// item. The type and fill value are now moved into zarrs' metadata and the type's field
    /// paths made only for errors: at most 40 (25 when this test was written).
    #[test]
    fn an_array_of_a_wide_subarray_is_opened_without_copying_its_json() {
        let (data_type, fill) = wide_subarray_record();
        let store = Arc::new(MemoryStore::new());
        ArrayOptions::new(vec![4], vec![4])
            .create_with(store.clone(), "/", &data_type, &fill)
            .unwrap();
        let (array, opened) = meter::measure(|| open_array(store.clone(), "/"));
        array.unwrap();
        let per_item = opened.allocations as f64 / WIDE_ITEMS as f64;
        eprintln!("open_array: {opened:?}, {per_item:.1} allocations an item");
        assert!(per_item <= 40.0, "open_array made {per_item:.1} allocations an item");
    }
}

/// The items of [`wide_subarray_record`]'s subarray field.
const WIDE_ITEMS: usize = 65_536;

/// A record with one field, a subarray of [`WIDE_ITEMS`] `int8`s (an imported Arrow
/// fixed-size list), and its zero fill value.
fn wide_subarray_record() -> (DataType, Value) {
    let items = SubarrayType::new(DataType::from(ScalarType::Int8), vec![WIDE_ITEMS]).unwrap();
    let data_type = DataType::from(StructType::new([("x", DataType::from(items))]).unwrap());
    let fill = Layout::from_data_type(&data_type, Some(Endian::Little))
        .unwrap()
        .zero_value();
    (data_type, fill)
}

// Keep the imports honest: the array value type is part of the unified shape.
rusty_fork_test! {
    #[test]
    fn array_values_of_any_storage_are_one_value() {
        let typed = Value::Subarray(SubarrayValue::from_vec(vec![2], vec![1u8, 2]).unwrap());
        let listed = Value::Subarray(SubarrayValue::from(vec![Value::UInt8(1), Value::UInt8(2)]));
        let record = Value::Record(
            [("0", Value::UInt8(1)), ("1", Value::UInt8(2))]
                .into_iter()
                .collect(),
        );
        assert_eq!(typed, listed);
        assert_eq!(typed, record);
    }
}

rusty_fork_test! {
    /// The public constructors check what they build, so no later operation meets a model that
    /// breaks its rules (issue 7: an offset beyond the record, duplicate names, a size beyond the
    /// limit all reached the codecs before).
    #[test]
    fn public_constructors_check_what_they_build() {
        use zarrdt::layout::{LayoutField, ScalarLayout, StructLayout};
        use zarrdt::types::ByteSize;
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
}

// ---------------------------------------------------------------------------------------------
// The bad-input table of issue 12
// ---------------------------------------------------------------------------------------------

/// A record with a bool and a UTF-32 string, 13 bytes: arrays of it in chunks of 4 (52 bytes).
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq, Default)]
struct Reading {
    id: u32,
    ok: bool,
    name: FixedString<2>,
}

fn readings() -> Vec<Reading> {
    (0..8)
        .map(|i| Reading {
            id: i,
            ok: i % 2 == 0,
            name: FixedString::new("ab").unwrap(),
        })
        .collect()
}

/// A fresh directory holding an array of 8 `Reading`s made with `options`, all written.
fn written_array(name: &str, options: ArrayOptions) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("bad_inputs")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    let array = options.create(store, "/", &Reading::default()).unwrap();
    array.store_array_subset(&[0..8], readings()).unwrap();
    dir
}

/// Eight `Reading`s in uncompressed chunks of 4, `c/0` and `c/1`.
fn plain_array(name: &str) -> PathBuf {
    written_array(
        name,
        ArrayOptions::new(vec![8], vec![4]).compression(Compression::None),
    )
}

/// Overwrites the chunk file `key` of the array in `dir` with what `edit` makes of it.
fn edit_chunk(dir: &Path, key: &str, edit: impl FnOnce(&mut Vec<u8>)) {
    let file = dir.join(key);
    let mut bytes = std::fs::read(&file).unwrap();
    edit(&mut bytes);
    std::fs::write(&file, bytes).unwrap();
}

/// Opens the array in `dir` and reads all of it as run-time values and as `Reading`s with
/// zarrdt's functions, which must fail alike; the error.
fn read_array(dir: &Path) -> Result<Vec<Value>, ArrayReadError> {
    let store = Arc::new(FilesystemStore::new(dir).unwrap());
    let array = open_array(store, "/")?;
    let values = array.retrieve_values(&[0..8]);
    let records = array.retrieve_records::<Reading>(&[0..8]);
    match (values, records) {
        (Ok(values), Ok(records)) => {
            let as_values: Vec<Value> = records.iter().map(ZarrType::to_value).collect();
            assert_eq!(values, as_values, "the two reads agree");
            Ok(values)
        }
        (Err(a), Err(b)) => {
            assert_eq!(a.to_string(), b.to_string(), "the two reads fail alike");
            Err(a)
        }
        (a, b) => panic!("one read fails, the other not: {a:?} / {b:?}"),
    }
}

/// zarrs' own typed read of the array in `dir` fails (and does not panic): the values are
/// never wrong, whatever the message.
fn zarrs_read_fails(dir: &Path) -> bool {
    let store = Arc::new(FilesystemStore::new(dir).unwrap());
    let array = open_array(store, "/").unwrap();
    let read: Result<Vec<Reading>, _> = array.retrieve_array_subset(&[0..8]);
    read.is_err()
}

type ArrayReadError = zarrdt::array::Error;

/// The crc32c (Castagnoli) of `bytes`, as the shard index codec computes it.
pub(crate) fn crc32c(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0x82f6_3b78
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Sets entry `entry` of the index at the end of the shard `c/0` (4 inner chunks, little-endian
/// with a crc32c, 68 bytes) to `(offset, nbytes)`, with a valid checksum.
fn set_index_entry(dir: &Path, entry: usize, offset: u64, nbytes: u64) {
    edit_chunk(dir, "c/0", |shard| {
        let end = shard.len();
        let index = end - 68;
        let at = index + entry * 16;
        shard[at..at + 8].copy_from_slice(&offset.to_le_bytes());
        shard[at + 8..at + 16].copy_from_slice(&nbytes.to_le_bytes());
        let crc = crc32c(&shard[index..end - 4]);
        shard[end - 4..].copy_from_slice(&crc.to_le_bytes());
    });
}

/// `result` is the error of element 5's `ok` (byte offset 69) holding 0x02, in its message and
/// its value, stored in the chunk `key`; `what` names the array in a failure.
fn says_bool_2_in_element_5(result: Result<Vec<Value>, ArrayReadError>, key: &str, what: &str) {
    let chunk = format!("chunk {key}, element [5] of the array");
    let error = error_saying(
        result,
        &[&chunk, "element 5", "field `ok`", "byte offset 69", "0x02"],
    );
    assert!(
        matches!(
            &error,
            ArrayReadError::InvalidElement {
                key: stored_in,
                stored: true,
                position,
                source,
            } if stored_in == key && position == &[5] && matches!(**source, Error::InvalidElement {
                index: 5,
                offset: 69,
                fault: ElementFault::InvalidBool(2),
                ..
            })
        ),
        "{what}: {error:?}"
    );
}

/// `result` is the error of element 5's `name` (byte offset 70) starting with the lone
/// surrogate 0xd800, in its message and its value, stored in the chunk `key`; `what` names the
/// array in a failure.
fn says_surrogate_in_element_5(result: Result<Vec<Value>, ArrayReadError>, key: &str, what: &str) {
    let chunk = format!("chunk {key}, element [5] of the array");
    let error = error_saying(
        result,
        &[
            &chunk,
            "element 5",
            "field `name`",
            "byte offset 70",
            "0x0000d800",
        ],
    );
    assert!(
        matches!(
            &error,
            ArrayReadError::InvalidElement {
                key: stored_in,
                source,
                ..
            } if stored_in == key && matches!(**source, Error::InvalidElement {
                fault: ElementFault::InvalidUtf32(0xd800),
                ..
            })
        ),
        "{what}: {error:?}"
    );
}

/// The error of `result`, which must be one, with its message on one line containing each of
/// `parts`.
fn error_saying<T: std::fmt::Debug, E: std::fmt::Display>(
    result: Result<T, E>,
    parts: &[&str],
) -> E {
    let error = match result {
        Ok(value) => panic!("no error, but {value:?}"),
        Err(error) => error,
    };
    let text = error.to_string();
    assert!(!text.contains('\n'), "one line: {text}");
    for part in parts {
        assert!(text.contains(part), "{text:?} does not say {part:?}");
    }
    error
}

/// Runs `case` three times, each within the limits of memory and allocations, recording the
/// best of the three on the benchmark's [`clock`]; its result.
fn bounded_thrice<T>(name: &str, case: impl Fn() -> T) -> T {
    let mut best = Duration::MAX;
    let mut result = None;
    for _ in 0..3 {
        let start = Instant::now();
        let (outcome, usage) = meter::measure(&case);
        best = best.min(start.elapsed());
        check_usage(name, usage);
        // The first result is kept; the others are dropped (unmeasured) after their run.
        if result.is_none() {
            result = Some(outcome);
        }
    }
    clock::record(name, best);
    result.unwrap()
}

fn v3(json: Json) -> Result<DataType, Error> {
    DataType::from_v3_json(&json)
}

fn v2(json: Json) -> Result<Layout, Error> {
    Layout::from_v2_json(&json)
}

/// A struct data type of the given fields (name, v3 type).
fn struct_of(fields: &[(&str, Json)]) -> DataType {
    let fields: Vec<Json> = fields
        .iter()
        .map(|(name, data_type)| json!({"name": name, "data_type": data_type}))
        .collect();
    v3(json!({"name": "struct", "configuration": {"fields": fields}})).unwrap()
}

/// Metadata (as a JSON value) nested `depth` levels deep, v3 and v2, built by moving each level
/// into the next; never dropped (serde_json's drop recurses).
fn deep_type(depth: usize) -> (&'static Json, &'static Json) {
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
    for _ in 0..depth {
        let field = object(vec![("name", json!("a")), ("data_type", v3)]);
        let configuration = object(vec![("fields", Json::Array(vec![field]))]);
        v3 = object(vec![
            ("name", json!("struct")),
            ("configuration", configuration),
        ]);
        v2 = Json::Array(vec![Json::Array(vec![json!("a"), v2])]);
    }
    (Box::leak(Box::new(v3)), Box::leak(Box::new(v2)))
}

rusty_fork_test! {
    /// Every bad input of issue 12, by name: a typed error naming what is wrong and where (the
    /// JSON, the field, the chunk's key, the element and byte offset), never a panic, each within
    /// 10 MB and 100 000 allocations (its time: the `hostile_inputs` benchmark). A missing chunk
    /// is no error: it reads as the fill value. The cases run one after another and every
    /// failure is reported with its name.
    #[test]
    fn bad_input_table() {
        bad_input_cases();
    }
}

/// The cases of [`bad_input_table`], each through [`bounded_thrice`].
pub(crate) fn bad_input_cases() {
    let mut failures = Vec::new();
    let mut case = |name: &str, check: &dyn Fn()| {
        if let Err(panic) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(check)) {
            let message = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)")
                .to_owned();
            failures.push(format!("{name}: {message}"));
        }
    };

    // ---- chunks ----
    case("a truncated chunk", &|| {
        let dir = plain_array("truncated");
        edit_chunk(&dir, "c/1", |bytes| bytes.truncate(20));
        let error = bounded_thrice("truncated", || read_array(&dir));
        let error = error_saying(error, &["chunk c/1", "20, expected 52"]);
        assert!(matches!(error, ArrayReadError::Chunk { .. }), "{error:?}");
        assert!(zarrs_read_fails(&dir));
    });
    case(
        "a chunk whose length is not a multiple of the itemsize",
        &|| {
            let dir = plain_array("not_a_multiple");
            edit_chunk(&dir, "c/0", |bytes| bytes.push(0));
            let error = bounded_thrice("not a multiple", || read_array(&dir));
            let error = error_saying(error, &["chunk c/0", "53, expected 52"]);
            assert!(matches!(error, ArrayReadError::Chunk { .. }), "{error:?}");
            assert!(zarrs_read_fails(&dir));
        },
    );
    case("zstd frames where the metadata says uncompressed", &|| {
        let zstd = written_array("zstd", ArrayOptions::new(vec![8], vec![4]));
        let dir = plain_array("zstd_as_plain");
        for key in ["c/0", "c/1"] {
            std::fs::copy(zstd.join(key), dir.join(key)).unwrap();
        }
        let frame = std::fs::read(dir.join("c/0")).unwrap();
        assert_eq!(frame[..4], [0x28, 0xb5, 0x2f, 0xfd], "a zstd frame");
        let error = bounded_thrice("zstd frames", || read_array(&dir));
        let error = error_saying(error, &["chunk c/0", "expected 52"]);
        assert!(matches!(error, ArrayReadError::Chunk { .. }), "{error:?}");
        assert!(zarrs_read_fails(&dir));
    });
    case("bool byte 2", &|| {
        let dir = plain_array("bool_2");
        // ZarrType 1 of chunk c/1 (element 5 of the array): its `ok` at byte 13 + 4.
        edit_chunk(&dir, "c/1", |bytes| bytes[17] = 2);
        says_bool_2_in_element_5(
            bounded_thrice("bool 2", || read_array(&dir)),
            "c/1",
            "little-endian",
        );
        assert!(zarrs_read_fails(&dir));
    });
    case("an invalid UTF-32 code unit", &|| {
        let dir = plain_array("utf32");
        // ZarrType 1 of chunk c/1: the first code unit of `name`, a lone surrogate.
        edit_chunk(&dir, "c/1", |bytes| {
            bytes[18..22].copy_from_slice(&0xd800u32.to_le_bytes());
        });
        says_surrogate_in_element_5(
            bounded_thrice("utf-32", || read_array(&dir)),
            "c/1",
            "little-endian",
        );
        assert!(zarrs_read_fails(&dir));
    });
    case("an empty chunk file", &|| {
        let dir = plain_array("empty_chunk");
        std::fs::write(dir.join("c/0"), b"").unwrap();
        let error = bounded_thrice("empty chunk", || read_array(&dir));
        error_saying(error, &["chunk c/0", "0, expected 52"]);
        assert!(zarrs_read_fails(&dir));
    });
    case("a chunk file too long", &|| {
        let dir = plain_array("long_chunk");
        edit_chunk(&dir, "c/1", |bytes| bytes.extend_from_slice(&[0; 13]));
        let error = bounded_thrice("long chunk", || read_array(&dir));
        error_saying(error, &["chunk c/1", "65, expected 52"]);
        assert!(zarrs_read_fails(&dir));
    });
    case(
        "the same chunk faults in a big-endian array, chunks and inner chunks decoded from \
         their stored bytes",
        &|| {
            let big = ArrayOptions::new(vec![8], vec![4])
                .endian(Endian::Big)
                .compression(Compression::None);
            // Unsharded: chunk c/1 holds elements 4..8; sharded: one shard of two inner chunks
            // of 4, the second holding them, wherever zarrs' writer put it (its order varies).
            let layouts = [
                ("big", big.clone(), "c/1", false),
                ("big_sharded", big.clone().shards(vec![8]), "c/0", true),
            ];
            let start_of = |dir: &Path, sharded: bool| -> usize {
                if !sharded {
                    return 0;
                }
                let store = Arc::new(FilesystemStore::new(dir).unwrap());
                let array = open_array(store, "/").unwrap();
                let index = zarrdt::array::ShardIndex::read(&array, &[0])
                    .unwrap()
                    .unwrap();
                let second = index.entries()[1].clone().unwrap();
                usize::try_from(second.start).unwrap()
            };
            for (name, options, key, sharded) in layouts {
                let dir = written_array(&format!("{name}_bool_2"), options.clone());
                let start = start_of(&dir, sharded);
                edit_chunk(&dir, key, |bytes| bytes[start + 17] = 2);
                says_bool_2_in_element_5(
                    bounded_thrice("big-endian bool 2", || read_array(&dir)),
                    key,
                    name,
                );
                let dir = written_array(&format!("{name}_utf32"), options.clone());
                let start = start_of(&dir, sharded);
                edit_chunk(&dir, key, |bytes| {
                    bytes[start + 18..start + 22].copy_from_slice(&0xd800u32.to_be_bytes());
                });
                says_surrogate_in_element_5(
                    bounded_thrice("big-endian utf-32", || read_array(&dir)),
                    key,
                    name,
                );
            }
            // Chunks of the wrong length, decoded by the chain zarrdt runs with raw bits.
            let dir = written_array("big_truncated", big.clone());
            edit_chunk(&dir, "c/1", |bytes| bytes.truncate(20));
            let error = bounded_thrice("big-endian truncated", || read_array(&dir));
            let error = error_saying(error, &["chunk c/1", "20, expected 52"]);
            assert!(matches!(error, ArrayReadError::Chunk { .. }), "{error:?}");
            let dir = written_array("big_long", big.clone());
            edit_chunk(&dir, "c/1", |bytes| bytes.extend_from_slice(&[0; 13]));
            let error = bounded_thrice("big-endian long chunk", || read_array(&dir));
            error_saying(error, &["chunk c/1", "65, expected 52"]);
            // Read whole, the array is as written.
            let dir = written_array("big_intact", big);
            let values = bounded_thrice("big-endian intact", || read_array(&dir)).unwrap();
            let written: Vec<Value> = readings().iter().map(ZarrType::to_value).collect();
            assert_eq!(values, written);
        },
    );
    case("a missing chunk file is the fill value", &|| {
        let dir = plain_array("missing_chunk");
        std::fs::remove_file(dir.join("c/0")).unwrap();
        let values = bounded_thrice("missing chunk", || read_array(&dir)).unwrap();
        let fill = Reading::default().to_value();
        assert_eq!(
            values[..4],
            [fill.clone(), fill.clone(), fill.clone(), fill]
        );
        assert_eq!(values[4], readings()[4].to_value());
    });
    case("a shard whose index points outside the file", &|| {
        let sharded = || {
            ArrayOptions::new(vec![8], vec![2])
                .shards(vec![8])
                .compression(Compression::None)
        };
        // Beyond the end; near 2^64 (offset + size overflows); 2^40 bytes (zarrs would
        // allocate them); a size other than an inner chunk's 26 bytes; inside the index.
        let entries = [
            (1000, 26, "offset 1000, size 26: not within bytes 0..104"),
            (u64::MAX - 5, 26, "offset 18446744073709551610"),
            (u64::MAX, 1, "size 1"),
            (0, 1 << 40, "size 1099511627776"),
            (5, u64::MAX, "size 18446744073709551615"),
            (0, 3, "an inner chunk is 26 bytes here"),
            (110, 26, "offset 110"),
        ];
        for (number, (offset, nbytes, says)) in entries.into_iter().enumerate() {
            let dir = written_array(&format!("shard_{number}"), sharded());
            set_index_entry(&dir, 1, offset, nbytes);
            let error = bounded_thrice("shard index", || read_array(&dir));
            let error = error_saying(
                error,
                &["shard c/0", "index entry 1", "inner chunk [1]", says],
            );
            assert!(matches!(error, ArrayReadError::Shard { .. }), "{error:?}");
            // Also for the part of the array the bad entry is not about.
            let store = Arc::new(FilesystemStore::new(&dir).unwrap());
            let array = open_array(store, "/").unwrap();
            let error = check_shards(&array, &[6..7]);
            assert!(
                matches!(error, Err(ArrayReadError::Shard { .. })),
                "{error:?}"
            );
        }
        // An intact shard with a missing inner chunk passes.
        let dir = written_array("shard_missing_inner", sharded());
        set_index_entry(&dir, 2, u64::MAX, u64::MAX);
        let values = bounded_thrice("missing inner chunk", || read_array(&dir)).unwrap();
        assert_eq!(values[4], Reading::default().to_value());
        assert_eq!(values[3], readings()[3].to_value());
    });

    // ---- metadata files ----
    case("non-UTF-8 or non-JSON metadata files", &|| {
        for (name, text) in [
            ("not_utf8", &b"{\"zarr_format\": 3, \xff\xfe}"[..]),
            ("not_json", &b"zarr_format = 3"[..]),
        ] {
            let dir = plain_array(name);
            std::fs::write(dir.join("zarr.json"), text).unwrap();
            let store = Arc::new(FilesystemStore::new(&dir).unwrap());
            let error = bounded_thrice(name, || open_array(store.clone(), "/").map(|_| ()));
            let error = error_saying(error, &["invalid array metadata zarr.json"]);
            assert!(
                matches!(error, ArrayReadError::Metadata { .. }),
                "{error:?}"
            );
            std::fs::remove_file(dir.join("zarr.json")).unwrap();
            std::fs::write(dir.join(".zarray"), text).unwrap();
            let error = bounded_thrice(name, || open_array(store.clone(), "/").map(|_| ()));
            error_saying(error, &["invalid array metadata .zarray"]);
        }
    });
    case("metadata nested 100 000 levels deep", &|| {
        let (deep_v3, deep_v2) = deep_type(100_000);
        let error = bounded_thrice("deep v3", || DataType::from_v3_json(deep_v3));
        let error = error_saying(error, &["nested deeper than 64"]);
        assert!(matches!(error, Error::InvalidDataType { .. }), "{error:?}");
        let error = bounded_thrice("deep v2", || Layout::from_v2_json(deep_v2));
        let error = error_saying(error, &["nested deeper than 64"]);
        assert!(matches!(error, Error::InvalidDtype { .. }), "{error:?}");
        // The same as a zarr.json file: measured before it is parsed, and refused.
        let text = format!(
            "{}{}",
            "{\"fields\":[".repeat(100_000),
            "]}".repeat(100_000)
        );
        let dir = plain_array("deep");
        std::fs::write(dir.join("zarr.json"), &text).unwrap();
        let store = Arc::new(FilesystemStore::new(&dir).unwrap());
        let error = bounded_thrice("deep file", || open_array(store.clone(), "/").map(|_| ()));
        error_saying(
            error,
            &["zarr.json", "nested deeper than 272", "byte offset"],
        );
        let error = bounded_thrice("deep text", || ArrayMetadataV3::from_json_str(&text));
        error_saying(error, &["nested deeper than 272"]);
    });
    case(
        "struct types as deep as zarrdt reads them, in zarr.json and .zarray",
        &|| {
            // 64 levels of structs: four levels of JSON each in zarr.json (serde_json alone stops
            // at 32), two in a NumPy descr; 65 are refused naming the limit of 64.
            for (levels, opens) in [(64, true), (65, false)] {
                let mut data_type = json!("uint8");
                let mut fill = json!(7);
                let mut descr = json!("|u1");
                for _ in 0..levels {
                    data_type = json!({"name": "struct", "configuration": {"fields": [
                    {"name": "a", "data_type": data_type}]}});
                    fill = json!({ "a": fill });
                    descr = json!([["a", descr]]);
                }
                let v3 = json!({"zarr_format": 3, "node_type": "array", "shape": [2],
                "data_type": data_type,
                "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
                "chunk_key_encoding": {"name": "default"}, "fill_value": fill,
                "codecs": [{"name": "bytes"}]});
                let v2 = json!({"zarr_format": 2, "shape": [2], "chunks": [2], "dtype": descr,
                "fill_value": null, "order": "C", "compressor": null, "filters": null});
                for (document, text) in [("zarr.json", v3.to_string()), (".zarray", v2.to_string())]
                {
                    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
                        .join("bad_inputs")
                        .join(format!("deep_{levels}_{document}"));
                    let _ = std::fs::remove_dir_all(&dir);
                    std::fs::create_dir_all(&dir).unwrap();
                    std::fs::write(dir.join(document), &text).unwrap();
                    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
                    let opened = bounded_thrice(document, || open_array(store.clone(), "/"));
                    match (opened, opens) {
                        (Ok(array), true) => {
                            let mut leaf = &array.retrieve_values(&[1..2]).unwrap()[0];
                            for _ in 0..levels {
                                let Value::Record(record) = leaf else {
                                    panic!("{leaf:?}")
                                };
                                leaf = record.get("a").unwrap();
                            }
                            let zero_or_fill = if document == "zarr.json" { 7 } else { 0 };
                            assert_eq!(leaf, &Value::UInt8(zero_or_fill), "{document}");
                        }
                        (Err(error), false) => {
                            error_saying(Err::<(), _>(error), &["nested deeper than 64"]);
                        }
                        (other, _) => {
                            panic!("{levels} levels, {document}: {:?}", other.map(|_| ()))
                        }
                    }
                }
            }
        },
    );

    // ---- data types ----
    case("duplicate or empty field names", &|| {
        let fields = |a: &str, b: &str| {
            json!({"name": "struct", "configuration": {"fields": [
                    {"name": a, "data_type": "int8"}, {"name": b, "data_type": "int8"}]}})
        };
        let error = bounded_thrice("duplicate v3", || v3(fields("x", "x")));
        error_saying(error, &["`x`", "more than once"]);
        let error = bounded_thrice("empty v3", || v3(fields("x", "")));
        error_saying(error, &["empty"]);
        let error = bounded_thrice("duplicate v2", || v2(json!([["x", "|i1"], ["x", "|i1"]])));
        error_saying(error, &["`x`", "more than once"]);
        // An unnamed v2 field is named as NumPy names it, and may then be a duplicate.
        let error = bounded_thrice("empty v2", || v2(json!([["f1", "|i1"], ["", "|i1"]])));
        error_saying(error, &["`f1`", "more than once"]);
    });
    case("r0, r7 and r with a size near 2^64", &|| {
        for (name, says) in [
            ("r0", "r0"),
            ("r7", "r7"),
            ("r18446744073709551608", "r18446744073709551608"),
            ("r18446744073709551616", "r18446744073709551616"),
        ] {
            let error = bounded_thrice(name, || v3(json!(name)));
            let error = error_saying(error, &[says]);
            assert!(matches!(error, Error::InvalidDataType { .. }), "{error:?}");
            // As a field, the field is named.
            let error = bounded_thrice(name, || {
                v3(json!({"name": "struct", "configuration": {"fields": [
                        {"name": "raw", "data_type": name}]}}))
            });
            error_saying(error, &["field `raw`", says]);
        }
    });
    case("a struct whose itemsize overflows usize", &|| {
        let huge = json!({"name": "raw_bytes", "configuration": {"length_bytes": 1u64 << 31}});
        let fields: Vec<Json> = (0..(1 << 10))
            .map(|i| json!({"name": format!("f{i}"), "data_type": huge}))
            .collect();
        let error = bounded_thrice("itemsize v3", || {
            v3(json!({"name": "struct", "configuration": {"fields": fields}}))
        });
        error_saying(error, &["raw_bytes"]);
        let word = format!("|V{}", 1u64 << 62);
        let error = bounded_thrice("itemsize v2", || {
            v2(json!([
                ["a", word],
                ["b", word],
                ["c", word],
                ["d", word],
                ["e", word]
            ]))
        });
        error_saying(error, &["field `a`", "|V4611686018427387904"]);
        let error = bounded_thrice("itemsize v2 subarrays", || {
            v2(json!([["a", "<f8", [1u64 << 32, 1u64 << 32, 1u64 << 32]]]))
        });
        error_saying(error, &["field `a`"]);
    });
    case("a subarray of 2^31 items", &|| {
        let error = bounded_thrice("subarray", || v2(json!([["a", "|u1", [1u64 << 31]]])));
        let error = error_saying(error, &["field `a`", "2147483648"]);
        assert!(matches!(error, Error::InvalidDtype { .. }), "{error:?}");
    });
    case("a length_bytes of 2^40", &|| {
        for name in ["raw_bytes", "null_terminated_bytes", "fixed_length_utf32"] {
            let error = bounded_thrice(name, || {
                v3(json!({"name": name, "configuration": {"length_bytes": 1u64 << 40}}))
            });
            let error = error_saying(error, &[name, "1099511627776"]);
            assert!(matches!(error, Error::InvalidDataType { .. }), "{error:?}");
        }
    });
    case(
        "a v2 descr with an offset gap larger than the itemsize",
        &|| {
            for gap in [1u64 << 40, u64::MAX] {
                let padding = format!("|V{gap}");
                let error = bounded_thrice("gap", || {
                    v2(json!([["a", "<i4"], ["", padding], ["b", "|u1"]]))
                });
                let error = error_saying(error, &[&padding]);
                assert!(matches!(error, Error::InvalidDtype { .. }), "{error:?}");
            }
        },
    );

    // ---- fill values ----
    case("a hex fill with the wrong digit count", &|| {
        for (scalar, hex) in [
            ("float16", "0x7e0"),
            ("float32", "0x7fc0000"),
            ("float64", "0x7ff80000000000001"),
            ("float32", "0x"),
        ] {
            let data_type = struct_of(&[("x", json!(scalar))]);
            let error = bounded_thrice(hex, || {
                data_type.fill_value_from_v3_json(&json!({"x": hex}), None)
            });
            let error = error_saying(error, &["field `x`", hex, scalar]);
            assert!(matches!(error, Error::InvalidFillValue { .. }), "{error:?}");
        }
    });
    case(
        "an integer fill that is fractional, exponent-form or out of range",
        &|| {
            for (scalar, fill, says) in [
                ("int32", json!(1.5), "1.5"),
                (
                    "int32",
                    serde_json::from_str::<Json>("1e3").unwrap(),
                    "1000.0",
                ),
                ("uint8", json!(256), "256"),
                ("int8", json!(-129), "-129"),
                ("uint64", json!(-1), "-1"),
                ("int64", json!(u64::MAX), "18446744073709551615"),
                (
                    "uint64",
                    serde_json::from_str::<Json>("18446744073709551616").unwrap(),
                    "1.8446744073709552e+19",
                ),
            ] {
                let data_type = struct_of(&[("n", json!(scalar))]);
                let error = bounded_thrice(scalar, || {
                    data_type.fill_value_from_v3_json(&json!({"n": fill}), None)
                });
                let error = error_saying(error, &["field `n`", scalar, says]);
                assert!(matches!(error, Error::InvalidFillValue { .. }), "{error:?}");
            }
        },
    );
    case(
        "a fill object missing a field or with an extra one",
        &|| {
            let data_type = struct_of(&[("a", json!("int8")), ("b", json!("int8"))]);
            let error = bounded_thrice("missing", || {
                data_type.fill_value_from_v3_json(&json!({"a": 1}), None)
            });
            error_saying(error, &["`b`"]);
            let error = bounded_thrice("extra", || {
                data_type.fill_value_from_v3_json(&json!({"a": 1, "b": 2, "c": 3}), None)
            });
            error_saying(error, &["`c`"]);
        },
    );
    case("a base64 fill of the wrong length", &|| {
        // A legacy `structured` fill of a 5-byte record: 4 bytes, and 6.
        let data_type = v3(json!({"name": "structured", "configuration": {"fields": [
                ["a", "int32"], ["b", "uint8"]]}}))
        .unwrap();
        for fill in ["AAAAAA==", "AAAAAAAA"] {
            let error = bounded_thrice("base64", || {
                data_type.fill_value_from_v3_json(&json!(fill), None)
            });
            let error = error_saying(error, &[fill, "5"]);
            assert!(matches!(error, Error::InvalidFillValue { .. }), "{error:?}");
        }
        let layout = v2(json!([["a", "<i4"], ["b", "|u1"]])).unwrap();
        let error = bounded_thrice("base64 v2", || {
            layout.fill_value_from_v2_json(&json!("AAAAAA=="))
        });
        error_saying(error, &["AAAAAA==", "5"]);
    });

    assert!(
        failures.is_empty(),
        "{} of the bad inputs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

rusty_fork_test! {
    /// `retrieve_values` builds the result as `Value`s: numbers and `bool`s in a subarray are
    /// held in one vector of their type, every other item (a record, text, a time, raw bytes)
    /// read from a chunk in one buffer of its stored bytes, decoded when asked for. Its memory
    /// is the result's in that form, the same for stored chunks and for missing ones (read as
    /// the fill value), at most twice the items' bytes and one byte more per item, whatever
    /// their kind (measured with four elements of 100 000 items): 3 bytes per `u8` item, and 3
    /// per record of one `u8`, where each record was a `Value` of its own (about 150 bytes; a
    /// document of a hundred bytes whose element is a subarray of a million such records then
    /// asked for about 150 MB a value read). Each kind's last item reads as stored.
    #[test]
    fn values_take_memory_in_proportion_to_their_items() {
        use zarrdt::zarrs::storage::{StoreKey, WritableStorageTraits};
        const ITEMS: usize = 100_000;
        let mut record = Record::new();
        record.push("g", Value::UInt8(7));
        let mut nested = Record::new();
        nested.push("h", Value::Record(record.clone()));
        nested.push("t", Value::TimeDelta64(0x0707_0707_0707_0707));
        for (dtype, item_size, last) in [
            (json!([["f0", "|u1", [ITEMS]]]), 1, Value::UInt8(7)),
            (json!([["f0", "|V1", [ITEMS]]]), 1, Value::Bytes(vec![7])),
            (json!([["f0", [["g", "|u1"]], [ITEMS]]]), 1, Value::Record(record)),
            (json!([["f0", "|S2", [ITEMS]]]), 2, Value::Bytes(vec![7, 7])),
            (
                json!([["f0", "<M8[s]", [ITEMS]]]),
                8,
                Value::DateTime64(0x0707_0707_0707_0707),
            ),
            (
                json!([["f0", [["h", [["g", "|u1"]]], ["t", "<m8[ms]"]], [ITEMS]]]),
                9,
                Value::Record(nested),
            ),
        ] {
            let most_per_item = 2 * item_size + 1;
            let store = Arc::new(MemoryStore::new());
            let zarray = json!({"zarr_format": 2, "shape": [4], "chunks": [4], "dtype": dtype,
                "fill_value": 0, "order": "C", "compressor": null, "filters": null});
            let put = |key: &str, bytes: Vec<u8>| {
                store.set(&StoreKey::new(key).unwrap(), bytes.into()).unwrap();
            };
            put(".zarray", zarray.to_string().into_bytes());
            let array = open_array(store.clone(), "/").unwrap();
            for chunk in ["missing", "stored"] {
                if chunk == "stored" {
                    put("0", vec![7; 4 * ITEMS * item_size]);
                }
                let (values, usage) = meter::measure(|| array.retrieve_values(&[0..4]).unwrap());
                assert_eq!(values.len(), 4);
                if chunk == "stored" {
                    let items = values[3].as_record().unwrap().get("f0").unwrap();
                    let items = items.as_subarray().unwrap();
                    assert_eq!(items.get(ITEMS - 1).as_deref(), Some(&last), "{dtype}");
                    assert_eq!(items.get(ITEMS), None, "{dtype}");
                }
                let items = 4 * ITEMS;
                assert!(
                    usage.peak_bytes <= most_per_item * items,
                    "{dtype}, {chunk}: {} bytes per item ({usage:?})",
                    usage.peak_bytes / items
                );
                // Every byte pattern of these items decodes, so none is decoded to check it:
                // the allocations are a few per element, not one or more per item.
                assert!(
                    usage.allocations <= 1000,
                    "{dtype}, {chunk}: {} allocations",
                    usage.allocations
                );
            }
        }
    }
}
