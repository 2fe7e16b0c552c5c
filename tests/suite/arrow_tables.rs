//! Records as Arrow tables (`zarrdt::arrow`, issue 21): every committed zarr-python fixture
//! read as batches and written back bit for bit (values and fill value), derived types to
//! batches and back, tables from elsewhere (text, bytes, lists, times with nulls) written
//! into arrays, every error naming its column and record, and the memory a streamed read
//! takes. That pyarrow and Polars read the exported files as zarr-python reads the arrays is
//! `tests/arrow/check.sh`.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use half::f16;
use num_complex::Complex;
use rusty_fork::rusty_fork_test;
use serde_json::{Value as Json, json};

use zarrdt::array::{ArrayOptions, open_array};
use zarrdt::arrow::arrow_array::cast::AsArray;
use zarrdt::arrow::arrow_array::types::{Int32Type, TimestampMillisecondType, UInt32Type};
use zarrdt::arrow::arrow_array::{
    Array, ArrayRef, BinaryArray, BooleanArray, FixedSizeListArray, Int32Array, Int64Array,
    LargeListArray, ListArray, RecordBatch, StringArray, StructArray, TimestampMicrosecondArray,
    UInt8Array,
};
use zarrdt::arrow::arrow_schema::{DataType as ArrowType, Field, TimeUnit as ArrowUnit};
use zarrdt::arrow::{
    ArrowRecords, BatchReader, Error as ArrowError, ReadOptions, RecordConverter, Sizes, TableType,
    TableWriter,
};
use zarrdt::layout::Layout;
use zarrdt::time::{Days, Milliseconds, Months, Nanoseconds, Seconds};
use zarrdt::types::DataType;
use zarrdt::value::Value;
use zarrdt::zarrs::array::Array as ZarrsArray;
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::zarrs::storage::store::MemoryStore;
use zarrdt::{ByteString, DateTime64, FixedString, RawBytes, TimeDelta64, ZarrStruct, ZarrType};
use zarrdt::{ReadRecords, WriteRecords};

use crate::common::meter;
use crate::common::records::Particle;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Every case of every fixture version, from the versions' `index.json`.
fn fixture_cases() -> Vec<(String, PathBuf)> {
    let mut cases = Vec::new();
    for entry in fs::read_dir(fixtures()).unwrap() {
        let dir = entry.unwrap().path();
        let Ok(text) = fs::read_to_string(dir.join("index.json")) else {
            continue;
        };
        let index: Json = serde_json::from_str(&text).unwrap();
        for case in index["cases"].as_array().unwrap() {
            let name = case["name"].as_str().unwrap();
            let path = dir.join(format!("{name}.zarr"));
            let version = dir.file_name().unwrap().to_string_lossy().into_owned();
            cases.push((format!("{version}/{name}"), path));
        }
    }
    cases.sort();
    cases
}

fn open(path: &Path) -> ZarrsArray<FilesystemStore> {
    open_array(Arc::new(FilesystemStore::new(path).unwrap()), "/").unwrap()
}

/// The fill value of an array, decoded with its record type.
fn fill_of<S: ?Sized>(array: &ZarrsArray<S>) -> Value {
    let record = zarrdt::array::RecordType::of(array.data_type()).unwrap();
    record
        .native_layout()
        .decode_value(array.fill_value().as_ne_bytes())
        .unwrap()
}

fn whole<S: ?Sized>(array: &ZarrsArray<S>) -> Vec<std::ops::Range<u64>> {
    array.shape().iter().map(|&extent| 0..extent).collect()
}

/// Fixture values with no exact Arrow form, and the error each gives: `datetime64[10s]`
/// holding 2⁶³ − 1 tens of seconds, beyond Arrow's `timestamp[s]`.
const NO_ARROW_FORM: [(&str, u64, &str); 2] = [
    (
        "zarr-python-2.18.7/v2_blosc_extension_fields",
        4,
        "t, record 4: 9223372036854775807 is beyond the range of Arrow's timestamps in s",
    ),
    (
        "zarr-python-2.18.7/v2_extension_fields",
        4,
        "t, record 4: 9223372036854775807 is beyond the range of Arrow's timestamps in s",
    ),
];

/// Every fixture array (each zarr-python version's, v2 and v3, every codec, padding,
/// subarrays, times, text) as batches of three rows; the batches give back exactly the
/// values, and written into a new array through the schema's metadata they make the same
/// array: values and fill value, bit for bit, and the shape. A value with no Arrow form is
/// the error naming it, and the rest of its array round-trips.
#[test]
fn every_fixture_round_trips_through_batches() {
    let cases = fixture_cases();
    assert!(cases.len() >= 100, "{} cases", cases.len());
    let mut refused = 0;
    for (name, path) in &cases {
        let array = open(path);
        match NO_ARROW_FORM.iter().find(|(case, ..)| case == name) {
            None => round_trip(name, &array, whole(&array)),
            Some((_, record, message)) => {
                let reader = BatchReader::new(&array, &ReadOptions::default()).unwrap();
                let err = reader.collect::<Result<Vec<_>, _>>().unwrap_err();
                assert_eq!(err.to_string(), *message, "{name}");
                let n = array.shape()[0];
                round_trip(name, &array, vec![0..*record]);
                round_trip(name, &array, vec![record + 1..n]);
                refused += 1;
            }
        }
    }
    assert_eq!(refused, NO_ARROW_FORM.len());
}

/// Checks `selection` of `array` through batches of three rows and back into a new array.
fn round_trip<S: ?Sized + zarrdt::zarrs::storage::ReadableStorageTraits + 'static>(
    name: &str,
    array: &ZarrsArray<S>,
    selection: Vec<std::ops::Range<u64>>,
) {
    let expected = array.retrieve_values(&selection).unwrap();
    let options = ReadOptions::default()
        .select(selection.clone())
        .batch_rows(3);
    let reader = BatchReader::new(array, &options).unwrap();
    let schema = reader.schema();
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    assert!(batches.iter().all(|b| b.num_rows() <= 3), "{name}");
    let rows: usize = batches.iter().map(RecordBatch::num_rows).sum();
    assert_eq!(rows, expected.len(), "{name}");

    let zarr = TableType::from_schema(&schema, None).unwrap();
    let layout = zarr.native_layout().unwrap();
    let converter = RecordConverter::new(&layout).unwrap();
    let mut bytes = Vec::new();
    for batch in &batches {
        converter.append_records(batch, &mut bytes).unwrap();
    }
    assert_eq!(layout.decode_values(&bytes).unwrap(), expected, "{name}");

    let shape = zarr.shape().unwrap().to_vec();
    let extents: Vec<u64> = selection.iter().map(|r| r.end - r.start).collect();
    assert_eq!(shape, extents, "{name}");
    let chunks: Vec<u64> = shape.iter().map(|&e| e.clamp(1, 2)).collect();
    let options = ArrayOptions::new(shape.clone(), chunks);
    let store = Arc::new(MemoryStore::new());
    let mut writer = TableWriter::create(store, "/copy", &zarr, &options).unwrap();
    for batch in &batches {
        writer.write(batch).unwrap();
    }
    let copy = writer.finish().unwrap();
    assert_eq!(copy.shape(), extents, "{name}");
    assert_eq!(
        copy.retrieve_values(&whole(&copy)).unwrap(),
        expected,
        "{name}"
    );
    assert_eq!(fill_of(&copy), fill_of(array), "{name}: fill value");
    assert_eq!(copy.attributes(), array.attributes(), "{name}: attributes");
}

/// A table keeps its array's user attributes (`zarr.attributes`); a new array made of it gets
/// them, under those its options set. Attributes that are not a JSON object are refused,
/// naming the key.
#[test]
fn attributes_go_with_the_table() {
    let store = Arc::new(MemoryStore::new());
    let attributes = json!({"units": "m", "zarrdt:enums": {"id": {"A": 0}}, "nested": [1, {}]});
    let Json::Object(attributes) = attributes else {
        unreachable!()
    };
    let array = ArrayOptions::new(vec![3], vec![2])
        .attributes(attributes.clone())
        .create(store.clone(), "/a", &0u16)
        .unwrap();
    array.store_records(&[0..3], &[1u16, 2, 3]).unwrap();
    let reader = BatchReader::new(&array, &ReadOptions::default()).unwrap();
    let schema = reader.schema();
    let zarr = TableType::from_schema(&schema, None).unwrap();
    assert_eq!(zarr.attributes(), &attributes);
    assert_eq!(zarr.for_new_array().unwrap().attributes(), &attributes);
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    let Json::Object(mine) = json!({"units": "km", "source": "here"}) else {
        unreachable!()
    };
    for (path, given, expected) in [
        ("/b", serde_json::Map::new(), json!(attributes)),
        (
            "/c",
            mine,
            json!({"units": "km", "zarrdt:enums": {"id": {"A": 0}}, "nested": [1, {}],
                   "source": "here"}),
        ),
    ] {
        let options = ArrayOptions::new(vec![3], vec![2]).attributes(given);
        let mut writer = TableWriter::create(store.clone(), path, &zarr, &options).unwrap();
        for batch in &batches {
            writer.write(batch).unwrap();
        }
        let copy = writer.finish().unwrap();
        assert_eq!(Json::Object(copy.attributes().clone()), expected);
        assert_eq!(copy.retrieve_records::<u16>(&[0..3]).unwrap(), [1, 2, 3]);
    }
    // Without attributes, none in the table.
    let plain = ArrayOptions::new(vec![1], vec![1])
        .create(store.clone(), "/plain", &0u8)
        .unwrap();
    let reader = BatchReader::new(&plain, &ReadOptions::default()).unwrap();
    assert!(!reader.schema().metadata().contains_key("zarr.attributes"));
    for (text, message) in [
        (
            "[1, 2]",
            "schema metadata zarr.attributes: an array of 2 items, not a JSON object",
        ),
        (
            &format!("\"{}\"", "x".repeat(100)),
            &format!(
                "schema metadata zarr.attributes: \"{}… is not a JSON object",
                "x".repeat(39)
            ),
        ),
        ("{", "schema metadata zarr.attributes: "),
    ] {
        let mut metadata = schema.metadata().clone();
        metadata.insert("zarr.attributes", text.to_string());
        let edited = schema.as_ref().clone().with_metadata(metadata);
        let err = TableType::from_schema(&edited, None).unwrap_err();
        assert!(err.to_string().starts_with(message), "{err}");
    }
}

/// The Arrow types of the fixture with every extension field (datetime64 of s, 10 s and ms,
/// timedelta64 of ns, U4, V3, S5), and its values: NaT is null, text without its trailing
/// NULs, times multiplied into Arrow units.
#[test]
fn extension_fields_as_arrow_values() {
    let array = open(&fixtures().join("zarr-python-3.4.2/v3_struct_extension_fields.zarr"));
    let reader = BatchReader::new(&array, &ReadOptions::default()).unwrap();
    let schema = reader.schema();
    let types: Vec<String> = schema
        .fields()
        .iter()
        .map(|f| format!("{}: {}", f.name(), f.data_type()))
        .collect();
    assert_eq!(
        types,
        [
            "t: Timestamp(s)",
            "t10: Timestamp(s)",
            "tms: Timestamp(ms)",
            "dt: Duration(ns)",
            "s: Utf8",
            "raw: FixedSizeBinary(3)",
            "bs: Binary"
        ]
    );
    let batch = reader.into_iter().next().unwrap().unwrap();
    let t10 = batch.column(1).as_primitive::<ArrowTimestampS>();
    // t10 holds NaT, 1, -1, 170000000, 0 tens of seconds.
    assert!(t10.is_null(0));
    assert_eq!(t10.value(1), 10);
    assert_eq!(t10.value(3), 1_700_000_000);
    let text = batch.column(4).as_string::<i32>();
    assert_eq!(
        text.iter().collect::<Vec<_>>(),
        [
            Some(""),
            Some("abcd"),
            Some("é"),
            Some("日本語"),
            Some("🦀x")
        ]
    );
    let bytes = batch.column(6).as_binary::<i32>();
    assert_eq!(bytes.value(2), b"a\0b");
    assert_eq!(bytes.value(0), b"");
    let dt = batch.column(3).as_primitive::<ArrowDurationNs>();
    assert!(dt.is_null(0) && !dt.is_null(1) && dt.value(4) == 1_000_000_000);
    let metadata = schema.metadata();
    assert!(metadata.get("zarr.data_type").is_some());
    assert!(metadata.get("zarr.fill_value").unwrap().contains("\"hé\""));
    assert_eq!(metadata.get("zarr.shape").unwrap(), "[5]");
}

type ArrowTimestampS = zarrdt::arrow::arrow_array::types::TimestampSecondType;
type ArrowDurationNs = zarrdt::arrow::arrow_array::types::DurationNanosecondType;

/// A record of every field kind, nested, with Rust arrays.
#[derive(ZarrStruct, Clone, Debug, Default, PartialEq)]
struct Inner {
    x: f32,
    flags: [bool; 2],
}

#[derive(ZarrStruct, Clone, Debug, Default, PartialEq)]
struct Everything {
    id: u64,
    small: i8,
    half: f16,
    z: Complex<f64>,
    pos: [f32; 3],
    grid: [[i16; 2]; 3],
    inner: Inner,
    inners: [Inner; 2],
    name: FixedString<5>,
    tag: ByteString<4>,
    raw: RawBytes<3>,
    at: DateTime64<Milliseconds>,
    day: DateTime64<Days>,
    month: DateTime64<Months>,
    decade: DateTime64<Seconds, 10>,
    took: TimeDelta64<Nanoseconds>,
    ok: bool,
}

fn everything(n: usize) -> Vec<Everything> {
    (0..n)
        .map(|i| {
            let k = i as i64;
            Everything {
                id: i as u64 * 1_000_003,
                small: (i % 200) as i8,
                half: f16::from_f32(i as f32 / 4.0),
                z: Complex::new(i as f64, -(i as f64)),
                pos: [i as f32, 0.5, -1.0],
                grid: [[1, 2], [3, i as i16], [5, 6]],
                inner: Inner {
                    x: 2.5,
                    flags: [i % 2 == 0, true],
                },
                inners: [
                    Inner::default(),
                    Inner {
                        x: -0.0,
                        flags: [false, i % 3 == 0],
                    },
                ],
                name: FixedString::new(["", "a", "héllo", "日本"][i % 4]).unwrap(),
                tag: ByteString::new([&b""[..], b"ab", b"a\0b", b"wxyz"][i % 4]).unwrap(),
                raw: RawBytes::from([i as u8, 0, 255]),
                at: if i % 5 == 0 {
                    DateTime64::new(i64::MIN)
                } else {
                    DateTime64::new(1_700_000_000_000 + k)
                },
                day: DateTime64::new(19_000 + k),
                month: DateTime64::new(-30 + k),
                decade: DateTime64::new(k - 3),
                took: TimeDelta64::new(if i % 7 == 3 { i64::MIN } else { k * 1000 }),
                ok: i % 2 == 1,
            }
        })
        .collect()
}

/// Derived types: `T::arrow_schema()` gives the Arrow types of every field kind, and
/// `Vec<T>` to a batch and back is the identity.
#[test]
fn derived_types_to_batches_and_back() {
    let schema = Everything::arrow_schema().unwrap();
    let types: Vec<String> = schema
        .fields()
        .iter()
        .map(|f| format!("{}: {}", f.name(), f.data_type()))
        .collect();
    let expected = [
        "id: UInt64",
        "small: Int8",
        "half: Float16",
        "z: Struct(\"re\": non-null Float64, \"im\": non-null Float64)",
        "pos: FixedSizeList(3 x Float32)",
        "grid: FixedSizeList(3 x non-null FixedSizeList(2 x Int16))",
        "inner: Struct(\"x\": non-null Float32, \"flags\": non-null FixedSizeList(2 x Boolean))",
        "inners: FixedSizeList(2 x non-null Struct(\"x\": non-null Float32, \"flags\": non-null FixedSizeList(2 x Boolean)))",
        "name: Utf8",
        "tag: Binary",
        "raw: FixedSizeBinary(3)",
        "at: Timestamp(ms)",
        "day: Timestamp(s)",
        "month: Timestamp(s)",
        "decade: Timestamp(s)",
        "took: Duration(ns)",
        "ok: Boolean",
    ];
    assert_eq!(types.len(), expected.len());
    for (found, wanted) in types.iter().zip(expected) {
        // Arrow's display of nested types differs a little between its versions; the
        // names, kinds and sizes must be there.
        let key = |text: &str| {
            text.replace("non-null ", "")
                .replace(['"', ' '], "")
                .replace("Field{", "")
        };
        assert_eq!(key(found), key(wanted), "{found}");
    }
    assert!(schema.field_with_name("at").unwrap().is_nullable());
    assert!(!schema.field_with_name("id").unwrap().is_nullable());
    assert_eq!(
        schema.metadata().get("zarr.data_type").unwrap(),
        &Everything::data_type().to_v3_json().to_string()
    );

    let records = everything(1000);
    let batch = Everything::to_record_batch(&records).unwrap();
    assert_eq!(batch.num_rows(), 1000);
    assert_eq!(Everything::from_record_batch(&batch).unwrap(), records);
    // NaT is null; days and months are seconds at their start; tens of seconds multiplied.
    let at = batch.column(11).as_primitive::<TimestampMillisecondType>();
    assert!(at.is_null(0) && at.is_null(5) && !at.is_null(1));
    assert_eq!(at.value(1), 1_700_000_000_001);
    let day = batch.column(12).as_primitive::<ArrowTimestampS>();
    assert_eq!(day.value(0), 19_000 * 86_400);
    let month = batch.column(13).as_primitive::<ArrowTimestampS>();
    // 30 months before 1970-01 is 1967-07-01: 184 + 366 + 365 days before.
    assert_eq!(month.value(0), -(184 + 366 + 365) * 86_400);
    let decade = batch.column(14).as_primitive::<ArrowTimestampS>();
    assert_eq!(decade.value(0), -30);
    let name = batch.column(8).as_string::<i32>();
    assert_eq!(name.value(2), "héllo");
    let tag = batch.column(9).as_binary::<i32>();
    assert_eq!(tag.value(2), b"a\0b");

    // A slice of a batch, and the columns in another order, give the same records.
    let slice = batch.slice(10, 20);
    assert_eq!(
        Everything::from_record_batch(&slice).unwrap(),
        &records[10..30]
    );
    let mut columns: Vec<(String, ArrayRef)> = schema
        .fields()
        .iter()
        .zip(batch.columns())
        .map(|(f, c)| (f.name().clone(), c.clone()))
        .collect();
    columns.reverse();
    let reordered = RecordBatch::try_from_iter(columns).unwrap();
    assert_eq!(Everything::from_record_batch(&reordered).unwrap(), records);
}

/// The quickstart's particle through an array: written, read as batches of any size, and back.
#[test]
fn particles_through_an_array() {
    let store = Arc::new(MemoryStore::new());
    let n = 10_000u64;
    let array = ArrayOptions::new(vec![n], vec![1024])
        .shards(vec![4096])
        .create(store.clone(), "/p", &Particle::default())
        .unwrap();
    let particles: Vec<Particle> = (0..n)
        .map(|i| Particle {
            id: i,
            pos: [i as f32, 1.0, 2.0],
            mass: i as f64 * 0.5,
            alive: i % 3 == 0,
        })
        .collect();
    array.store_records(&[0..n], &particles).unwrap();
    for batch_rows in [1, 7, 1000, 100_000] {
        let reader = BatchReader::new(
            &array,
            &ReadOptions::default()
                .select(vec![5..9_995])
                .batch_rows(batch_rows),
        )
        .unwrap();
        assert_eq!(reader.rows(), 9_990);
        let mut read = Vec::new();
        for batch in reader {
            let batch = batch.unwrap();
            assert!(batch.num_rows() <= batch_rows);
            read.extend(Particle::from_record_batch(&batch).unwrap());
        }
        assert_eq!(read, &particles[5..9_995]);
    }
    // Some fields only.
    let reader = BatchReader::new(&array, &ReadOptions::default().fields(["mass", "id"])).unwrap();
    let names: Vec<String> = reader
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    assert_eq!(names, ["id", "mass"]);
    let first = reader.into_iter().next().unwrap().unwrap();
    assert_eq!(first.num_columns(), 2);
    let zarr = TableType::from_schema(&first.schema(), None).unwrap();
    assert_eq!(
        zarr.data_type().unwrap().to_v3_json(),
        json!({"name": "struct", "configuration": {"fields": [
            {"name": "id", "data_type": "uint64"}, {"name": "mass", "data_type": "float64"}]}})
    );
    let err = BatchReader::new(&array, &ReadOptions::default().fields(["nope"]))
        .err()
        .unwrap();
    assert_eq!(err.to_string(), "column nope: the record has no such field");
}

/// Batches into an existing array: appended to a one-dimensional one (which grows), and a
/// batch that does not fit is an error naming the column, with nothing written.
#[test]
fn batches_into_an_existing_array() {
    let store = Arc::new(MemoryStore::new());
    let array = ArrayOptions::new(vec![10], vec![4])
        .create(store.clone(), "/p", &Particle::default())
        .unwrap();
    let particles: Vec<Particle> = (0..25)
        .map(|i| Particle {
            id: i,
            ..Particle::default()
        })
        .collect();
    let batch = Particle::to_record_batch(&particles).unwrap();
    let mut writer = TableWriter::open(array, 10).unwrap();
    writer.write(&batch.slice(0, 5)).unwrap();
    writer.write(&batch.slice(5, 20)).unwrap();
    let wrong = RecordBatch::try_from_iter([
        ("id", Arc::new(Int64Array::from(vec![1])) as ArrayRef),
        ("pos", batch.column(1).slice(0, 1)),
        ("mass", batch.column(2).slice(0, 1)),
        ("alive", batch.column(3).slice(0, 1)),
    ])
    .unwrap();
    let err = writer.write(&wrong).unwrap_err();
    assert_eq!(
        err.to_string(),
        "column id: uint64 needs UInt64, found Int64"
    );
    assert_eq!(writer.position(), 35);
    let array = writer.finish().unwrap();
    assert_eq!(array.shape(), [35]);
    let reopened = open_array(store, "/p").unwrap();
    assert_eq!(reopened.shape(), [35]);
    let read: Vec<Particle> = reopened.retrieve_records(&[10..35]).unwrap();
    assert_eq!(read, particles);
}

/// `List` and `LargeList` columns (sliced, so that their offsets do not start at 0) fill a
/// subarray field when every list has its length; a list of another length is an error naming
/// the record.
#[test]
fn lists_of_either_offset_width_fill_a_subarray() {
    let layout = Layout::from_v2_json(&json!([["pos", "<i4", [2]]])).unwrap();
    let converter = RecordConverter::new(&layout).unwrap();
    let rows = |lengths: [usize; 4]| {
        let mut next = 0;
        let lists: Vec<Option<Vec<Option<i32>>>> = lengths
            .iter()
            .map(|&length| {
                let list = (next..next + length as i32).map(Some).collect();
                next += length as i32;
                Some(list)
            })
            .collect();
        lists
    };
    let expected: Vec<u8> = (2..8i32).flat_map(|v| v.to_ne_bytes()).collect();
    for lengths in [[2, 2, 2, 2], [2, 2, 2, 3]] {
        let small = ListArray::from_iter_primitive::<Int32Type, _, _>(rows(lengths)).slice(1, 3);
        let large =
            LargeListArray::from_iter_primitive::<Int32Type, _, _>(rows(lengths)).slice(1, 3);
        for column in [Arc::new(small) as ArrayRef, Arc::new(large) as ArrayRef] {
            let batch = RecordBatch::try_from_iter([("pos", column)]).unwrap();
            let result = converter.from_record_batch(&batch);
            if lengths[3] == 2 {
                assert_eq!(result.unwrap(), expected);
            } else {
                assert_eq!(
                    result.unwrap_err().to_string(),
                    "pos, record 2: a list of 3 items, where the subarray has 2"
                );
            }
        }
    }
}

/// A table from elsewhere: text, bytes, lists of one length, timestamps with nulls, nested
/// structs. Its Zarr type needs the widths measured; the values come back from the array.
#[test]
fn foreign_tables_into_arrays() {
    let names = StringArray::from(vec!["a", "héllo", "", "日本語"]);
    let blobs = BinaryArray::from(vec![&b"x"[..], b"", b"abcdef", b"\0z"]);
    let list = ListArray::from_iter_primitive::<Int32Type, _, _>(vec![
        Some(vec![Some(1), Some(2)]),
        Some(vec![Some(3), Some(4)]),
        Some(vec![Some(5), Some(6)]),
        Some(vec![Some(7), Some(8)]),
    ]);
    let times = TimestampMicrosecondArray::from(vec![Some(1), None, Some(-5), Some(0)]);
    let point = StructArray::from(vec![
        (
            Arc::new(Field::new("a", ArrowType::Int32, false)),
            Arc::new(Int32Array::from(vec![1, 2, 3, 4])) as ArrayRef,
        ),
        (
            Arc::new(Field::new("ok", ArrowType::Boolean, false)),
            Arc::new(BooleanArray::from(vec![true, false, true, false])) as ArrayRef,
        ),
    ]);
    let batch = RecordBatch::try_from_iter([
        ("name", Arc::new(names) as ArrayRef),
        ("blob", Arc::new(blobs) as ArrayRef),
        ("pair", Arc::new(list) as ArrayRef),
        ("when", Arc::new(times) as ArrayRef),
        ("point", Arc::new(point) as ArrayRef),
    ])
    .unwrap();
    let err = TableType::from_schema(&batch.schema(), None).unwrap_err();
    assert!(matches!(err, ArrowError::SizesNeeded { .. }), "{err}");
    assert!(err.to_string().starts_with("column name: strings"), "{err}");
    let mut sizes = Sizes::default();
    sizes.measure(&batch).unwrap();
    let zarr = TableType::from_schema(&batch.schema(), Some(&sizes)).unwrap();
    let fields: Vec<String> = zarr
        .data_type()
        .unwrap()
        .as_struct()
        .unwrap()
        .fields()
        .iter()
        .map(|f| format!("{}: {}", f.name(), f.data_type()))
        .collect();
    assert_eq!(
        fields,
        [
            r#"name: {"name":"fixed_length_utf32","configuration":{"length_bytes":20}}"#,
            r#"blob: {"name":"null_terminated_bytes","configuration":{"length_bytes":6}}"#,
            r#"pair: {"name":"struct","configuration":{"fields":[{"name":"0","data_type":"int32"},{"name":"1","data_type":"int32"}]}}"#,
            r#"when: {"name":"numpy.datetime64","configuration":{"unit":"us","scale_factor":1}}"#,
            r#"point: {"name":"struct","configuration":{"fields":[{"name":"a","data_type":"int32"},{"name":"ok","data_type":"bool"}]}}"#,
        ]
    );
    let store = Arc::new(MemoryStore::new());
    let mut writer =
        TableWriter::create(store, "/t", &zarr, &ArrayOptions::new(vec![0], vec![3])).unwrap();
    writer.write(&batch).unwrap();
    let array = writer.finish().unwrap();
    let values = array.retrieve_values(&[0..4]).unwrap();
    let row = |i: usize| array_layout(&array).value_to_json(&values[i]).unwrap();
    assert_eq!(
        row(1),
        json!({"name": "héllo", "blob": "", "pair": {"0": 3, "1": 4}, "when": i64::MIN,
               "point": {"a": 2, "ok": false}})
    );
    assert_eq!(row(3)["name"], "日本語");
    assert_eq!(row(2)["when"], -5);
    // A list of another length.
    let ragged = ListArray::from_iter_primitive::<Int32Type, _, _>(vec![
        Some(vec![Some(1), Some(2)]),
        Some(vec![Some(3)]),
    ]);
    let ragged = RecordBatch::try_from_iter([("pair", Arc::new(ragged) as ArrayRef)]).unwrap();
    let err = Sizes::default().measure(&ragged).unwrap_err();
    assert_eq!(
        err.to_string(),
        "pair, record 1: a list of 1 items, where earlier lists have 2: a Zarr subarray has one shape"
    );
    // A null list is a null, wherever it is: before the lists of one length, among them, in a
    // large list.
    for nulls in [
        [None, Some(vec![Some(1), Some(2)])],
        [Some(vec![Some(1), Some(2)]), None],
    ] {
        let record = nulls.iter().position(Option::is_none).unwrap();
        let list = ListArray::from_iter_primitive::<Int32Type, _, _>(nulls.clone());
        let large = LargeListArray::from_iter_primitive::<Int32Type, _, _>(nulls);
        for column in [Arc::new(list) as ArrayRef, Arc::new(large)] {
            let batch = RecordBatch::try_from_iter([("pair", column)]).unwrap();
            let err = Sizes::default().measure(&batch).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!(
                    "pair, record {record}: null, and Zarr records have no nulls (only \
                     datetime64 and timedelta64 fields, whose NaT is null)"
                )
            );
        }
    }
}

fn array_layout<S: ?Sized>(array: &ZarrsArray<S>) -> Layout {
    zarrdt::array::RecordType::of(array.data_type())
        .unwrap()
        .native_layout()
        .clone()
}

#[derive(ZarrStruct, Clone, Debug, Default, PartialEq)]
struct Small {
    a: i32,
    name: FixedString<3>,
    at: DateTime64<Seconds>,
}

/// Records to columns go a tile of records at a time (and, in large batches, on several
/// threads): a value that does not convert far into a batch, in a subarray or a scalar, is
/// still named by its record in the batch, and every other value is where it belongs.
#[test]
fn errors_and_values_far_into_a_large_batch() {
    // {id: u4, flags: [b1; 3], s: U1}: 19 bytes, 40 000 records, tiles of 862 records.
    let layout =
        Layout::from_v2_json(&json!([["id", "<u4"], ["flags", "|b1", [3]], ["s", "<U2"]])).unwrap();
    let converter = RecordConverter::new(&layout).unwrap();
    let size = layout.size();
    let records = 40_000usize;
    let mut bytes = vec![0u8; records * size];
    for (index, record) in bytes.chunks_exact_mut(size).enumerate() {
        record[..4].copy_from_slice(&(index as u32).to_le_bytes());
        record[4 + index % 3] = 1;
        let letter = u32::from(b'a') + (index % 26) as u32;
        record[7..11].copy_from_slice(&letter.to_le_bytes());
    }
    let batch = converter.to_record_batch(&bytes).unwrap();
    assert_eq!(batch.num_rows(), records);
    let ids = batch.column(0).as_primitive::<UInt32Type>();
    assert!(
        ids.values()
            .iter()
            .enumerate()
            .all(|(i, &id)| id as usize == i)
    );
    let flags = batch.column(1).as_fixed_size_list();
    let flags = flags.values().as_boolean();
    for index in [0, 861, 862, 20_001, records - 1] {
        for item in 0..3 {
            assert_eq!(
                flags.value(3 * index + item),
                item == index % 3,
                "record {index}"
            );
        }
    }
    let text = batch.column(2).as_string::<i32>();
    assert_eq!(
        text.value(records - 1),
        ((b'a' + ((records - 1) % 26) as u8) as char).to_string()
    );

    let mut bad = bytes.clone();
    bad[31_337 * size + 4 + 2] = 7;
    assert_eq!(
        converter.to_record_batch(&bad).unwrap_err().to_string(),
        "flags, record 31337: bool byte 0x07 is neither 0 nor 1"
    );
    let mut bad = bytes;
    bad[25_000 * size + 11..25_000 * size + 15].copy_from_slice(&0xD800u32.to_le_bytes());
    assert_eq!(
        converter.to_record_batch(&bad).unwrap_err().to_string(),
        "s, record 25000: UTF-32 code unit 0xd800 (character 1) is not a character"
    );
}

/// Values that do not convert, each an error naming the field or column and the record.
#[test]
fn value_errors_name_the_field_and_record() {
    // Records to columns: a bool byte that is neither 0 nor 1; a code unit that is no char;
    // a time beyond Arrow's range.
    let layout = Layout::from_v2_json(&json!([["a", "<i4"], ["b", "|b1"]])).unwrap();
    let converter = RecordConverter::new(&layout).unwrap();
    let mut bytes = vec![0u8; 10];
    bytes[9] = 2;
    assert_eq!(
        converter.to_record_batch(&bytes).unwrap_err().to_string(),
        "b, record 1: bool byte 0x02 is neither 0 nor 1"
    );
    let layout = Layout::from_v2_json(&json!([["s", "<U2"]])).unwrap();
    let converter = RecordConverter::new(&layout).unwrap();
    let mut bytes = vec![0u8; 16];
    bytes[8..12].copy_from_slice(&0xD800u32.to_le_bytes());
    assert_eq!(
        converter.to_record_batch(&bytes).unwrap_err().to_string(),
        "s, record 1: UTF-32 code unit 0xd800 (character 0) is not a character"
    );
    let layout = Layout::from_v2_json(&json!([["t", "<M8[D]"]])).unwrap();
    let converter = RecordConverter::new(&layout).unwrap();
    let mut bytes = 5i64.to_le_bytes().to_vec();
    bytes.extend(i64::MAX.to_le_bytes());
    assert_eq!(
        converter.to_record_batch(&bytes).unwrap_err().to_string(),
        "t, record 1: 9223372036854775807 is beyond the range of Arrow's timestamps in s"
    );
    // A time unit Arrow lacks, and one it has only for some scales.
    for (dtype, why) in [
        (
            "<M8[7ps]",
            "t: datetime64[7ps] is not a whole number of nanoseconds",
        ),
        (
            "<m8[M]",
            "t: timedelta64[M]: years and months have no fixed length",
        ),
        (
            "<M8",
            "t: datetime64[generic]: NumPy's generic time unit has no Arrow form",
        ),
    ] {
        let layout = Layout::from_v2_json(&json!([["t", dtype]])).unwrap();
        let err = RecordConverter::new(&layout).unwrap_err().to_string();
        assert!(err.starts_with(why), "{dtype}: {err}");
    }
    let layout = Layout::from_v2_json(&json!([["t", "<M8[1000ps]"]])).unwrap();
    let schema = RecordConverter::new(&layout).unwrap().schema();
    assert_eq!(
        schema.field(0).data_type(),
        &ArrowType::Timestamp(ArrowUnit::Nanosecond, None)
    );

    // Columns to records: a null outside a time field, a string too long, a time that is no
    // whole number of the field's unit, NaT's own value, a missing column, an extra one.
    let batch = |a: Int32Array, name: StringArray, at: ArrayRef| {
        RecordBatch::try_from_iter([
            ("a", Arc::new(a) as ArrayRef),
            ("name", Arc::new(name) as ArrayRef),
            ("at", at),
        ])
        .unwrap()
    };
    let ms = |values: Vec<Option<i64>>| -> ArrayRef {
        Arc::new(zarrdt::arrow::arrow_array::TimestampMillisecondArray::from(
            values,
        ))
    };
    let ok = batch(
        Int32Array::from(vec![1, 2]),
        StringArray::from(vec!["ab", "é"]),
        ms(vec![Some(1000), None]),
    );
    let read = Small::from_record_batch(&ok).unwrap();
    assert_eq!(read[0].at.count(), 1);
    assert!(read[1].at.is_nat());
    let cases = [
        (
            batch(
                Int32Array::from(vec![Some(1), None]),
                StringArray::from(vec!["a", "b"]),
                ms(vec![Some(0), Some(0)]),
            ),
            "a, record 1: null, and Zarr records have no nulls",
        ),
        (
            batch(
                Int32Array::from(vec![1, 2]),
                StringArray::from(vec!["a", "abcd"]),
                ms(vec![Some(0), Some(0)]),
            ),
            "name, record 1: 4 characters do not fit fixed_length_utf32 of 3",
        ),
        (
            batch(
                Int32Array::from(vec![1, 2]),
                StringArray::from(vec!["a", "b"]),
                ms(vec![Some(0), Some(1500)]),
            ),
            "at, record 1: 1500 ms is not a whole number of s",
        ),
        (
            batch(
                Int32Array::from(vec![1, 2]),
                StringArray::from(vec!["a", "b"]),
                Arc::new(zarrdt::arrow::arrow_array::TimestampSecondArray::from(
                    vec![0, i64::MIN],
                )),
            ),
            "at, record 1: -9223372036854775808 is NumPy's NaT",
        ),
    ];
    for (batch, message) in cases {
        let err = Small::from_record_batch(&batch).unwrap_err().to_string();
        assert!(err.starts_with(message), "{err}");
    }
    let missing =
        RecordBatch::try_from_iter([("a", Arc::new(Int32Array::from(vec![1])) as ArrayRef)])
            .unwrap();
    assert_eq!(
        Small::from_record_batch(&missing).unwrap_err().to_string(),
        "column name: the batch has no such column"
    );
    let extra = RecordBatch::try_from_iter([
        ("a", Arc::new(Int32Array::from(vec![1])) as ArrayRef),
        ("name", Arc::new(StringArray::from(vec!["x"])) as ArrayRef),
        ("at", ms(vec![None])),
        ("b", Arc::new(UInt8Array::from(vec![1])) as ArrayRef),
    ])
    .unwrap();
    assert_eq!(
        Small::from_record_batch(&extra).unwrap_err().to_string(),
        "column b: the record has no such field"
    );
    // A fixed-size list of the wrong length for a Rust array.
    let values = Arc::new(zarrdt::arrow::arrow_array::Float32Array::from(vec![0.0; 4]));
    let item = Arc::new(Field::new("item", ArrowType::Float32, false));
    let list = FixedSizeListArray::try_new(item, 2, values, None).unwrap();
    let batch = RecordBatch::try_from_iter([("value", Arc::new(list) as ArrayRef)]).unwrap();
    let err = <[f32; 3]>::from_record_batch(&batch)
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with(
            "column value: a subarray of 3 items needs a FixedSizeList(3) column, found FixedSizeList(2 x"
        ),
        "{err}"
    );
}

/// Zarr v3 arrays of Rust arrays (structs of fields "0", "1", …) take list columns, and
/// derived types take the struct form: the two forms are one type.
#[test]
fn array_fields_take_either_form() {
    let store = Arc::new(MemoryStore::new());
    ArrayOptions::new(vec![4], vec![2])
        .create(store.clone(), "/p", &Particle::default())
        .unwrap();
    // Reopened, the v3 array's `pos` is a struct of fields "0", "1", "2".
    let array = open_array(store, "/p").unwrap();
    let reader = BatchReader::new(&array, &ReadOptions::default()).unwrap();
    let pos = reader.schema().field(1).data_type().clone();
    assert!(
        matches!(pos, ArrowType::Struct(ref f) if f.len() == 3),
        "{pos}"
    );
    let particles = vec![
        Particle {
            id: 7,
            pos: [1.0, 2.0, 3.0],
            mass: 4.0,
            alive: true
        };
        4
    ];
    // A batch of the derived type (pos a fixed-size list) into the array.
    let batch = Particle::to_record_batch(&particles).unwrap();
    let mut writer = TableWriter::open(array, 0).unwrap();
    writer.write(&batch).unwrap();
    let array = writer.finish().unwrap();
    // And the array's batches (pos a struct) into the derived type.
    let read = BatchReader::new(&array, &ReadOptions::default())
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(Particle::from_record_batch(&read).unwrap(), particles);
}

/// A table whose columns changed since zarrdt wrote it (one dropped): each remaining column
/// keeps its exact Zarr type and fill from the metadata.
#[test]
fn changed_tables_keep_their_column_types() {
    let layout =
        Layout::from_v2_json(&json!([["t", "<M8[10s]"], ["c", "<c8"], ["x", "<i2"]])).unwrap();
    let data_type = DataType::from_v3_json(&json!({"name": "struct", "configuration": {"fields": [
        {"name": "t", "data_type": {"name": "numpy.datetime64", "configuration": {"unit": "s", "scale_factor": 10}}},
        {"name": "c", "data_type": "complex64"}, {"name": "x", "data_type": "int16"}]}}))
    .unwrap();
    let fill = data_type
        .fill_value_from_v3_json(&json!({"t": 3, "c": [1.0, "NaN"], "x": 9}), None)
        .unwrap();
    let store = Arc::new(MemoryStore::new());
    let array = ArrayOptions::new(vec![3], vec![3])
        .create_with(store.clone(), "/a", &data_type, &fill)
        .unwrap();
    let _ = layout;
    let batch = BatchReader::new(&array, &ReadOptions::default())
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    let kept = batch.project(&[0, 1]).unwrap();
    let zarr = TableType::from_schema(&kept.schema(), None).unwrap();
    assert_eq!(
        zarr.data_type().unwrap().to_v3_json()["configuration"]["fields"],
        json!([
            {"name": "t", "data_type": {"name": "numpy.datetime64", "configuration": {"unit": "s", "scale_factor": 10}}},
            {"name": "c", "data_type": "complex64"}])
    );
    let layout = zarr.native_layout().unwrap();
    assert_eq!(
        layout.value_to_json(zarr.fill_value().unwrap()).unwrap(),
        json!({"t": 3, "c": [1.0, "NaN"]})
    );
    let mut writer =
        TableWriter::create(store, "/b", &zarr, &ArrayOptions::new(vec![3], vec![2])).unwrap();
    writer.write(&kept).unwrap();
    let copy = writer.finish().unwrap();
    assert_eq!(
        layout.value_to_json(&fill_of(&copy)).unwrap(),
        json!({"t": 3, "c": [1.0, "NaN"]})
    );
    assert_eq!(copy.retrieve_values(&[0..3]).unwrap().len(), 3);
}

/// A table whose text grew since zarrdt wrote it (edited by a tool that kept the schema's
/// metadata): with [`Sizes`] measured over it, the columns whose values no longer fit the
/// metadata's widths are typed from their values, the others keep their types and fills; the
/// table as exported keeps its exact type, fill and shape.
#[test]
fn grown_text_is_typed_from_its_values() {
    let data_type = DataType::from_v3_json(&json!({"name": "struct", "configuration": {"fields": [
        {"name": "id", "data_type": "int32"},
        {"name": "name", "data_type": {"name": "fixed_length_utf32", "configuration": {"length_bytes": 12}}},
        {"name": "inner", "data_type": {"name": "struct", "configuration": {"fields": [
            {"name": "code", "data_type": {"name": "null_terminated_bytes", "configuration": {"length_bytes": 2}}}]}}}]}}))
    .unwrap();
    let fill = data_type
        .fill_value_from_v3_json(
            &json!({"id": 7, "name": "abc", "inner": {"code": "eg=="}}),
            None,
        )
        .unwrap();
    let store = Arc::new(MemoryStore::new());
    let array = ArrayOptions::new(vec![2], vec![2])
        .create_with(store.clone(), "/a", &data_type, &fill)
        .unwrap();
    let exported = BatchReader::new(&array, &ReadOptions::default())
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    let measured = |batch: &RecordBatch| {
        let mut sizes = Sizes::default();
        sizes.measure(batch).unwrap();
        sizes
    };
    let pristine = TableType::from_schema(&exported.schema(), Some(&measured(&exported))).unwrap();
    assert_eq!(pristine.data_type(), Some(&data_type));
    assert_eq!(pristine.shape(), Some(&[2][..]));

    let names: ArrayRef = Arc::new(StringArray::from(vec!["abc_v2", "x"]));
    let codes: ArrayRef = Arc::new(BinaryArray::from(vec![&b"xyz"[..], b"w"]));
    let inner = exported.column(2).as_struct();
    let inner = StructArray::new(inner.fields().clone(), vec![codes], None);
    let edited = RecordBatch::try_new(
        exported.schema(),
        vec![exported.column(0).clone(), names, Arc::new(inner)],
    )
    .unwrap();
    // Without sizes, the metadata's types, as before: the write names the value.
    let unmeasured = TableType::from_schema(&edited.schema(), None).unwrap();
    assert_eq!(unmeasured.data_type(), Some(&data_type));
    let zarr = TableType::from_schema(&edited.schema(), Some(&measured(&edited))).unwrap();
    let fields = zarr.data_type().unwrap().to_v3_json()["configuration"]["fields"].clone();
    assert_eq!(fields[0], json!({"name": "id", "data_type": "int32"}));
    assert_eq!(
        fields[1]["data_type"]["configuration"]["length_bytes"],
        json!(24),
        "{fields}"
    );
    assert_eq!(
        fields[2]["data_type"]["configuration"]["fields"][0]["data_type"]["configuration"]["length_bytes"],
        json!(3),
        "{fields}"
    );
    let layout = zarr.native_layout().unwrap();
    assert_eq!(
        layout.value_to_json(zarr.fill_value().unwrap()).unwrap()["id"],
        json!(7)
    );
    let mut writer =
        TableWriter::create(store, "/b", &zarr, &ArrayOptions::new(vec![2], vec![2])).unwrap();
    writer.write(&edited).unwrap();
    let copy = writer.finish().unwrap();
    let values = copy.retrieve_values(&[0..2]).unwrap();
    assert_eq!(
        layout.value_to_json(&values[0]).unwrap(),
        json!({"id": 7, "name": "abc_v2", "inner": {"code": "eHl6"}})
    );
}

/// Every column of a batch is read or refused: a name twice, or a column beside `value` for
/// records that are one column, is an error naming the column; an array whose element is a
/// Rust array reads back from what `BatchReader` reads of it (the columns `"0"`, `"1"`, … of
/// its Zarr v3 form).
#[test]
fn every_column_is_read_or_refused() {
    #[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
    struct Sample {
        time: f64,
        value: f64,
    }
    let float =
        |v: f64| Arc::new(zarrdt::arrow::arrow_array::Float64Array::from(vec![v])) as ArrayRef;
    let twice = RecordBatch::try_from_iter([
        ("time", float(1.0)),
        ("time", float(2.0)),
        ("value", float(3.0)),
    ])
    .unwrap();
    let error = Sample::from_record_batch(&twice).unwrap_err();
    assert!(
        matches!(&error, ArrowError::Column { column, .. } if column == "time"),
        "{error}"
    );
    assert!(
        error.to_string().contains("more than one column"),
        "{error}"
    );
    let beside =
        RecordBatch::try_from_iter([("x", float(1.0)), ("value", float(2.0)), ("y", float(3.0))])
            .unwrap();
    let error = f64::from_record_batch(&beside).unwrap_err();
    assert!(
        matches!(&error, ArrowError::Column { column, .. } if column == "x"),
        "{error}"
    );
    let named = RecordBatch::try_from_iter([("reading", float(4.0))]).unwrap();
    assert_eq!(f64::from_record_batch(&named).unwrap(), [4.0]);

    let store = Arc::new(MemoryStore::new());
    let pairs = [[1u8, 2], [3, 4], [5, 6]];
    let array = ArrayOptions::new(vec![3], vec![3])
        .create(store, "/pairs", &[0u8; 2])
        .unwrap();
    array.store_records(&[0..3], &pairs).unwrap();
    let batch = BatchReader::new(&array, &ReadOptions::default())
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(batch.num_columns(), 2);
    assert_eq!(<[u8; 2]>::from_record_batch(&batch).unwrap(), pairs);
    let as_list = <[u8; 2]>::to_record_batch(&pairs).unwrap();
    assert_eq!(<[u8; 2]>::from_record_batch(&as_list).unwrap(), pairs);
}

/// Two-dimensional arrays: rows are the elements in C order, any selection, blocks of chunk
/// rows; written back into an array of the same shape.
#[test]
fn two_dimensional_selections() {
    let store = Arc::new(MemoryStore::new());
    let array = ArrayOptions::new(vec![7, 9], vec![3, 4])
        .create(store.clone(), "/g", &0i32)
        .unwrap();
    let values: Vec<Value> = (0..63).map(Value::Int32).collect();
    array.store_values(&[0..7, 0..9], &values).unwrap();
    for batch_rows in [1, 5, 100] {
        let reader = BatchReader::new(
            &array,
            &ReadOptions::default()
                .select(vec![1..6, 2..8])
                .batch_rows(batch_rows),
        )
        .unwrap();
        assert_eq!(reader.schema().field(0).name(), "value");
        let mut read = Vec::new();
        for batch in reader {
            let batch = batch.unwrap();
            read.extend(
                batch
                    .column(0)
                    .as_primitive::<Int32Type>()
                    .values()
                    .iter()
                    .copied(),
            );
        }
        let expected: Vec<i32> = (1..6)
            .flat_map(|i| (2..8).map(move |j| i * 9 + j))
            .collect();
        assert_eq!(read, expected, "{batch_rows}");
    }
    let reader = BatchReader::new(&array, &ReadOptions::default().batch_rows(10)).unwrap();
    let zarr = TableType::from_schema(&reader.schema(), None).unwrap();
    assert_eq!(zarr.shape(), Some(&[7u64, 9][..]));
    let mut writer = TableWriter::create(
        store.clone(),
        "/h",
        &zarr,
        &ArrayOptions::new(vec![7, 9], vec![2, 9]),
    )
    .unwrap();
    for batch in reader {
        writer.write(&batch.unwrap()).unwrap();
    }
    let copy = writer.finish().unwrap();
    assert_eq!(copy.retrieve_values(&[0..7, 0..9]).unwrap(), values);
    // Too few rows for the shape.
    let mut writer = TableWriter::create(
        store,
        "/i",
        &zarr,
        &ArrayOptions::new(vec![7, 9], vec![2, 9]),
    )
    .unwrap();
    let one = BatchReader::new(&array, &ReadOptions::default().batch_rows(9))
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    writer.write(&one).unwrap();
    assert_eq!(
        writer.finish().unwrap_err().to_string(),
        "9 rows do not fill the array of shape [7, 9]"
    );
}

/// Zarr v2 arrays with no v3 form keep their v2 `dtype` in the schema metadata, as the
/// `.zarray` wrote it; written back, a record with subarray fields makes a v2 array again,
/// any other a v3 array (padding packed; the same values).
#[test]
fn v2_layouts_keep_their_dtype() {
    for case in ["v2_aligned", "v2_subarray", "v2_offsets", "v2_mixed_order"] {
        let path = fixtures().join(format!("zarr-python-2.18.7/{case}.zarr"));
        let array = open(&path);
        let reader = BatchReader::new(&array, &ReadOptions::default()).unwrap();
        let schema = reader.schema();
        let zarray: Json =
            serde_json::from_str(&fs::read_to_string(path.join(".zarray")).unwrap()).unwrap();
        let stored = Layout::from_v2_json(&zarray["dtype"]).unwrap();
        let zarr = TableType::from_schema(&schema, None).unwrap();
        let store = Arc::new(MemoryStore::new());
        let options = ArrayOptions::new(array.shape().to_vec(), vec![2]);
        let mut writer = TableWriter::create(store.clone(), "/c", &zarr, &options).unwrap();
        for batch in reader {
            writer.write(&batch.unwrap()).unwrap();
        }
        let copy = writer.finish().unwrap();
        assert_eq!(
            copy.retrieve_values(&whole(&copy)).unwrap(),
            array.retrieve_values(&whole(&array)).unwrap(),
            "{case}"
        );
        let has_subarray = stored.leaves().iter().any(|leaf| leaf.count() > 1);
        let written_v2 = zarrdt::zarrs::storage::ReadableStorageTraits::get(
            &*store,
            &"c/.zarray".try_into().unwrap(),
        )
        .unwrap()
        .is_some();
        assert_eq!(written_v2, has_subarray, "{case}");
        if stored.to_v3().is_ok() {
            assert!(schema.metadata().get("zarr.data_type").is_some(), "{case}");
        } else {
            let dtype: Json =
                serde_json::from_str(schema.metadata().get("zarr.dtype").unwrap()).unwrap();
            assert_eq!(dtype, zarray["dtype"], "{case}");
            assert!(zarr.v2_layout().is_some(), "{case}");
        }
    }
}

/// The writer creates a one-dimensional array of no rows, and of rows that came in batches of
/// one; a two-dimensional start must begin a row.
#[test]
fn edges_of_the_writer() {
    let store = Arc::new(MemoryStore::new());
    let zarr = TableType::from_schema(&Small::arrow_schema().unwrap(), None).unwrap();
    let writer = TableWriter::create(
        store.clone(),
        "/e",
        &zarr,
        &ArrayOptions::new(vec![0], vec![4]),
    )
    .unwrap();
    let empty = writer.finish().unwrap();
    assert_eq!(empty.shape(), [0]);
    let records = vec![Small::default(); 9];
    let batch = Small::to_record_batch(&records).unwrap();
    let mut writer = TableWriter::create(
        store.clone(),
        "/f",
        &zarr,
        &ArrayOptions::new(vec![100], vec![4]),
    )
    .unwrap();
    for row in 0..9 {
        writer.write(&batch.slice(row, 1)).unwrap();
    }
    let array = writer.finish().unwrap();
    assert_eq!(array.shape(), [9]);
    let read: Vec<Small> = array.retrieve_records(&[0..9]).unwrap();
    assert_eq!(read, records);
    let grid = ArrayOptions::new(vec![4, 3], vec![2, 3])
        .create(store.clone(), "/g", &0u8)
        .unwrap();
    let err = TableWriter::open(grid, 4).err().unwrap().to_string();
    assert_eq!(
        err,
        "element 4 does not begin a row of the trailing dimensions [3]"
    );
    // Arrays with no elements for an extent of 0 after the first (an export of one imports
    // back; it was refused as not beginning a row): the table of no rows makes them, a row
    // does not fit.
    for shape in [vec![5, 0], vec![0, 0], vec![2, 0, 3], vec![2, 3, 0]] {
        let chunks: Vec<u64> = shape.iter().map(|&extent| extent.max(1)).collect();
        let options = ArrayOptions::new(shape.clone(), chunks);
        let path = format!("/z{shape:?}").replace([' ', '[', ']', ','], "_");
        let mut writer = TableWriter::create(store.clone(), &path, &zarr, &options).unwrap();
        writer.write(&batch.slice(0, 0)).unwrap();
        let array = writer.finish().unwrap();
        assert_eq!(array.shape(), shape);
        let reopened = zarrdt::array::open_array(store.clone(), &path).unwrap();
        assert_eq!(reopened.shape(), shape);
        let mut writer =
            TableWriter::create(store.clone(), &path, &zarr, &options.overwrite(true)).unwrap();
        let error = writer.write(&batch.slice(0, 1)).unwrap_err().to_string();
        assert!(
            error.contains("go past the end of the array"),
            "{shape:?}: {error}"
        );
    }
}

/// Text measured into a fixed width: `rows` strings of one letter, the first `width` long.
fn wide_text(rows: usize, width: usize) -> RecordBatch {
    let mut text = vec!["a".to_owned(); rows];
    text[0] = "x".repeat(width);
    RecordBatch::try_from_iter([("s", Arc::new(StringArray::from(text)) as ArrayRef)]).unwrap()
}

/// Records that cannot be allocated are an error naming the batch, not an abort: 65 536 rows
/// of the widest text a field holds (2 GiB a record) would be 128 TiB.
#[test]
fn a_batch_too_large_to_hold_is_an_error() {
    let layout = Layout::from_v2_json(&json!([["s", "<U536870911"]])).unwrap();
    let converter = RecordConverter::new(&layout).unwrap();
    let batch = wide_text(1 << 16, 0);
    let mut bytes = vec![7u8];
    let err = converter.append_records(&batch, &mut bytes).unwrap_err();
    assert!(
        matches!(
            err,
            ArrowError::BatchTooLarge {
                rows: 65_536,
                record_size: 2_147_483_644
            }
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "the records of a batch of 65536 rows of 2147483644 bytes cannot be allocated; convert \
         it in smaller batches (RecordBatch::slice)"
    );
    assert_eq!(bytes, [7]);
}

rusty_fork_test! {
    /// A subarray of millions of items is a few bytes of a `.zarray` or a Parquet schema, and
    /// its Zarr v3 form a struct of a field per item: an export names no v3 type for such a
    /// column (its fixed-size list says it), and a table of such a list is refused before any
    /// JSON of it is made; the memory of either is the record's, not a kilobyte an item
    /// (an export and an import of a 4 MB record aborted at 4 GB before). Small subarrays
    /// keep their v3 type.
    #[test]
    fn huge_subarrays_make_no_huge_json() {
        let huge = Layout::from_v2_json(&json!([["x", "|u1", [4_000_000]]])).unwrap();
        let (converter, usage) = meter::measure(|| RecordConverter::new(&huge).unwrap());
        assert!(usage.peak_bytes < 16 << 20, "{usage:?}");
        let schema = converter.schema();
        assert!(schema.field(0).metadata().is_empty(), "{:?}", schema.field(0).metadata());
        let small = Layout::from_v2_json(&json!([["x", "|u1", [4]]])).unwrap();
        let small = RecordConverter::new(&small).unwrap();
        assert!(small.schema().field(0).metadata().contains_key("zarr.data_type"));

        let item = Arc::new(Field::new("item", ArrowType::UInt8, false));
        let list = Field::new("x", ArrowType::FixedSizeList(item, 4_000_000), false);
        let table = zarrdt::arrow::arrow_schema::Schema::new(vec![list]);
        let (error, usage) = meter::measure(|| TableType::from_schema(&table, None).unwrap_err());
        assert!(usage.peak_bytes < 16 << 20, "{usage:?}");
        assert!(
            matches!(&error, ArrowError::Unsupported { path, .. } if path == "x"),
            "{error}"
        );
        assert!(error.to_string().contains("4000000 fields"), "{error}");

        // A reader of such an array writes the fill value into the schema's metadata as text
        // straight from its bytes (2 bytes an item here): a value and a JSON tree of it took
        // 150 bytes an item (600 MB for this 4 MB record).
        let array = ArrayOptions::new(vec![4], vec![1])
            .create_v2(Arc::new(MemoryStore::new()), "/", &huge, None)
            .unwrap();
        let (reader, usage) =
            meter::measure(|| BatchReader::new(&array, &ReadOptions::default()).unwrap());
        assert!(usage.peak_bytes < 32 << 20, "{usage:?}");
        let schema = reader.schema();
        let fill = &schema.metadata()["zarr.fill_value"];
        assert_eq!(fill.len(), 2 * 4_000_000 + 7, "{}", &fill[..40]);
        assert!(fill.starts_with(r#"{"x":[0,0,"#), "{}", &fill[..40]);
    }
}

rusty_fork_test! {
    /// A batch of wide records (one string of 20 000 characters makes every record 80 kB:
    /// 400 rows, 32 MB) is written in parts of 8 MiB, so that memory holds one part and a band,
    /// not the batch; checked in full first, so that a batch with a bad value in its last part
    /// writes nothing. The width comes from the table (a 40 kB string in a file of a few kB
    /// made `zarrdt import` ask for 26 GB at once before).
    #[test]
    fn wide_records_are_written_in_parts_of_bounded_memory() {
        let batch = wide_text(400, 20_000);
        let mut sizes = Sizes::default();
        sizes.measure(&batch).unwrap();
        let zarr = TableType::from_schema(&batch.schema(), Some(&sizes)).unwrap();
        let options = ArrayOptions::new(vec![0], vec![10]);
        let store = Arc::new(MemoryStore::new());
        let mut writer = TableWriter::create(store, "/w", &zarr, &options).unwrap();
        let ((), usage) = meter::measure(|| writer.write(&batch).unwrap());
        assert!(usage.peak_bytes < 24 << 20, "{usage:?}");
        // A bad value in the last part: an error naming its record, and nothing written.
        let mut text: Vec<Option<String>> = vec![Some("b".into()); 400];
        text[399] = None;
        let bad = RecordBatch::try_from_iter([(
            "s",
            Arc::new(StringArray::from(text)) as ArrayRef,
        )])
        .unwrap();
        let err = writer.write(&bad).unwrap_err();
        assert!(matches!(err, ArrowError::Value { record: 799, .. }), "{err}");
        assert_eq!(writer.position(), 400);
        let array = writer.finish().unwrap();
        assert_eq!(array.shape(), [400]);
        let values = array.retrieve_values(&[0..400]).unwrap();
        let text = |value: &Value| match value {
            Value::Record(record) => record.get("s").cloned(),
            _ => None,
        };
        assert_eq!(text(&values[0]), Some(Value::String("x".repeat(20_000))));
        assert_eq!(text(&values[399]), Some(Value::String("a".into())));
    }

    /// Streaming an array in batches of 1000 rows holds one block of whole chunks (at least
    /// 8 MiB: 28 chunks of 10 000 particles, 290 KB each) and one batch, not the array: the
    /// peak is the same for 11.6 MB and 58 MB of records, under 10 MiB.
    #[test]
    fn streamed_reads_take_memory_bounded_by_the_block() {
        let peak = |n: u64| {
            let store = Arc::new(MemoryStore::new());
            let array = ArrayOptions::new(vec![n], vec![10_000])
                .compression(zarrdt::array::Compression::None)
                .create(store, "/p", &Particle::default())
                .unwrap();
            let particles = vec![Particle::default(); 10_000];
            for start in (0..n).step_by(10_000) {
                array.store_records(&[start..start + 10_000], &particles).unwrap();
            }
            let (rows, usage) = meter::measure(|| {
                let reader =
                    BatchReader::new(&array, &ReadOptions::default().batch_rows(1000)).unwrap();
                let mut rows = 0;
                for batch in reader {
                    rows += batch.unwrap().num_rows();
                }
                rows
            });
            assert_eq!(rows as u64, n);
            usage.peak_bytes
        };
        let small = peak(400_000);
        let large = peak(2_000_000);
        assert!(small < 10 << 20, "{small}");
        assert!(large < 10 << 20, "{large}");
        assert!(large.abs_diff(small) < 1 << 20, "{small} {large}");
    }
}

rusty_fork_test! {
    /// Rows written into an existing array whose metadata makes a chunk 1 PiB (a 300-byte
    /// `zarr.json`) are an error naming the chunk when they are stored: a write into part of a
    /// chunk holds the whole chunk, which zarrs allocated without asking (an abort before).
    #[test]
    fn rows_into_part_of_a_huge_chunk_are_an_error() {
        let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("arrow-huge-chunk");
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(&root).unwrap();
        let document = json!({"zarr_format": 3, "node_type": "array", "shape": [2],
            "data_type": {"name": "struct", "configuration": {"fields": [
                {"name": "a", "data_type": "uint32"}]}},
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1u64 << 48]}},
            "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
            "fill_value": {"a": 0},
            "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]});
        fs::write(root.join("zarr.json"), document.to_string()).unwrap();
        let array = open_array(Arc::new(FilesystemStore::new(&root).unwrap()), "/").unwrap();
        let batch = RecordBatch::try_from_iter([(
            "a",
            Arc::new(zarrdt::arrow::arrow_array::UInt32Array::from(vec![1, 2])) as ArrayRef,
        )])
        .unwrap();
        let (result, usage) = meter::measure(|| {
            let mut writer = TableWriter::open(array, 0).map_err(|e| e.to_string())?;
            writer.write(&batch).map_err(|e| e.to_string())?;
            writer.finish().map(drop).map_err(|e| e.to_string())
        });
        let error = result.unwrap_err();
        assert!(
            error.contains("c/0") && error.contains("1125899906842624 bytes, which cannot be allocated"),
            "{error}"
        );
        assert!(usage.peak_bytes <= 1 << 20, "{usage:?}");
        assert!(!root.join("c").exists());
    }
}

rusty_fork_test! {
    /// A table's schema is untrusted: a fixed-size list column of 6 815 746 pairs of `int32`
    /// (a few bytes of schema, a 54 MB record) is refused before its fill value, a record of
    /// that size, is made (it was a tree of 13.6 million values, then gigabytes of JSON in
    /// `zarrdt import`); the limit is the one [`OpenOptions`] sets.
    #[test]
    fn a_record_over_the_element_limit_is_refused_before_it_is_made() {
        use zarrdt::array::OpenOptions;
        use zarrdt::arrow::arrow_schema::Schema;
        let pair = ArrowType::FixedSizeList(Arc::new(Field::new("item", ArrowType::Int32, false)), 2);
        let list = ArrowType::FixedSizeList(Arc::new(Field::new("item", pair, false)), 6_815_746);
        let schema = Schema::new(vec![Field::new("x", list, false)]);
        let (error, usage) =
            crate::common::meter::measure(|| TableType::from_schema(&schema, None).unwrap_err());
        assert!(
            matches!(error, ArrowError::ElementTooLarge { size: 54_525_968, limit: 16_777_216 }),
            "{error:?}"
        );
        assert!(usage.peak_bytes < 1 << 20, "{usage:?}");
        let small = OpenOptions::new().max_element_size(1000);
        let narrow = Schema::new(vec![Field::new("x", ArrowType::Int64, false)]);
        assert!(TableType::from_schema_within(&narrow, None, &small).is_ok());
        let wide = Schema::new(
            (0..126)
                .map(|i| Field::new(format!("f{i}"), ArrowType::Int64, false))
                .collect::<Vec<_>>(),
        );
        let error = TableType::from_schema_within(&wide, None, &small).unwrap_err();
        assert!(error.to_string().contains("1008 bytes, more than the limit of 1000"), "{error}");
    }
}
