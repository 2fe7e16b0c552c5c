//! Arrays of records through zarrs (issue 8): created in one call, written and read with
//! derived types, run-time types and single fields, on a directory store, compressed and
//! sharded, with edge chunks, missing chunks and writes across chunk boundaries; records of
//! every field kind against zarrs' own reads and writes; Zarr v2 structured arrays through
//! zarrs; the metadata in the current spec forms.

#![allow(clippy::unwrap_used)]

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Value as Json, json};
use zarrdt::array::{ArrayOptions, Compression, RecordType, open_array};
use zarrdt::layout::Layout;
use zarrdt::time::{Milliseconds, Nanoseconds};
use zarrdt::types::DataType;
use zarrdt::value::{Record, Value};
use zarrdt::zarrs::array::{Array, ArraySubset};
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::zarrs::storage::byte_range::{ByteRange, ByteRangeIterator};
use zarrdt::zarrs::storage::store::MemoryStore;
use zarrdt::zarrs::storage::{
    Bytes, MaybeBytesIterator, OffsetBytesIterator, ReadableStorageTraits, StorageError, StoreKey,
    StorePrefix, WritableStorageTraits,
};
use zarrdt::{ByteString, DateTime64, FixedString, RawBytes, TimeDelta64};
use zarrdt::{Endian, ZarrStruct, ZarrType};
use zarrdt::{ReadRecords, WriteRecords};

use rusty_fork::rusty_fork_test;

use crate::common::records::AllScalars;
use crate::common::{meter, store};

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq, Default)]
struct Point {
    x: f32,
    y: f32,
}

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq, Default)]
struct Particle {
    id: u64,
    pos: [f32; 3],
    mass: f64,
    alive: bool,
    at: Point,
}

/// Like `Particle`, but `mass` is a `float32`.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq, Default)]
struct LightParticle {
    id: u64,
    pos: [f32; 3],
    mass: f32,
    alive: bool,
    at: Point,
}

/// A derived type without `Clone`: it derives fine, and is simply not a zarrs element.
#[derive(ZarrStruct, Debug)]
#[allow(dead_code)]
struct NotClone {
    a: u8,
}

fn particle(i: u64) -> Particle {
    let f = i as f32;
    Particle {
        id: i * 1_000_003,
        pos: [f, -f, f32::from_bits(0x7fc0_0000 | (i as u32 & 0xff))],
        mass: if i.is_multiple_of(7) {
            -0.0
        } else {
            1.5 * i as f64
        },
        alive: i.is_multiple_of(3),
        at: Point {
            x: f * 0.5,
            y: f32::INFINITY,
        },
    }
}

/// `Particle` as a Zarr v2 dtype with a byte order of its own for each field (no v3 form).
fn mixed_order_layout() -> Layout {
    Layout::from_v2_json(&json!([
        ["id", ">u8"],
        ["pos", "<f4", [3]],
        ["mass", ">f8"],
        ["alive", "|b1"],
        ["at", [["x", "<f4"], ["y", ">f4"]]]
    ]))
    .unwrap()
}

fn fill() -> Particle {
    Particle {
        id: u64::MAX,
        pos: [f32::NAN, -0.0, f32::NEG_INFINITY],
        mass: f64::from_bits(0x7ff8_0000_0000_0001),
        alive: false,
        at: Point { x: -1.0, y: 0.0 },
    }
}

/// Bit-exact equality of records (floats by bits).
fn same(a: &[Particle], b: &[Particle]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(a, b)| a.encode(Endian::Little) == b.encode(Endian::Little))
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    crate::common::scratch_dir("zarrs_arrays", name)
}

/// A 2-D array of 37 × 23 records in chunks of 8 × 8 (edge chunks on both sides), written in
/// three overlapping rectangles that cross chunk (and shard) boundaries; the rest reads as the
/// fill value, whole, as an ndarray, and in subsets.
fn round_trip(name: &str, options: ArrayOptions) {
    let dir = scratch(name);
    let array = options.create(store(&dir), "/", &fill()).unwrap();
    let (rows, cols) = (37u64, 23u64);
    let mut expected = vec![fill(); (rows * cols) as usize];
    for (r0, r1, c0, c1) in [(0, 10, 0, 9), (5, 30, 7, 20), (33, 37, 20, 23)] {
        let mut block = Vec::new();
        for r in r0..r1 {
            for c in c0..c1 {
                let record = particle(r * cols + c);
                expected[(r * cols + c) as usize] = record;
                block.push(record);
            }
        }
        array.store_array_subset(&[r0..r1, c0..c1], &block).unwrap();
    }
    let all: Vec<Particle> = array.retrieve_array_subset(&[0..rows, 0..cols]).unwrap();
    assert!(same(&all, &expected), "{name}: the whole array");
    let grid: ndarray::ArrayD<Particle> = array.retrieve_array_subset(&[3..12, 6..10]).unwrap();
    assert_eq!(grid.shape(), [9, 4]);
    for ((r, c), record) in (3..12u64)
        .flat_map(|r| (6..10u64).map(move |c| (r, c)))
        .zip(grid.iter())
    {
        assert!(
            same(&[*record], &[expected[(r * cols + c) as usize]]),
            "{name}: [{r}, {c}]"
        );
    }
    // Opened again by zarrdt from the store, without knowing it is `Particle`s.
    let opened = open_array(store(&dir), "/").unwrap();
    let record = RecordType::of(opened.data_type()).unwrap();
    assert_eq!(record.data_type(), Some(&Particle::data_type()));
    let values = opened.retrieve_values(&[36..37, 20..23]).unwrap();
    let typed: Vec<Particle> = values
        .iter()
        .map(|v| Particle::from_value(v).unwrap())
        .collect();
    assert!(same(
        &typed,
        &expected[(36 * cols + 20) as usize..(36 * cols + 23) as usize]
    ));
}

/// A pool of `threads` threads for a read to run on.
fn thread_pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

#[test]
fn records_round_trip_in_every_codec_and_byte_order() {
    let compressions = [
        Compression::None,
        Compression::Zstd { level: 1 },
        Compression::Gzip { level: 5 },
        Compression::BloscLz4 { level: 5 },
    ];
    for (index, compression) in compressions.into_iter().enumerate() {
        for endian in [Endian::Little, Endian::Big] {
            let name = format!("codec{index}_{endian}");
            round_trip(
                &name,
                ArrayOptions::new(vec![37, 23], vec![8, 8])
                    .endian(endian)
                    .compression(compression.clone()),
            );
        }
    }
}

#[test]
fn records_round_trip_in_shards() {
    round_trip(
        "sharded",
        ArrayOptions::new(vec![37, 23], vec![8, 8])
            .shards(vec![16, 16])
            .endian(Endian::Big),
    );
}

#[test]
fn missing_chunks_are_not_written_and_read_as_the_fill_value() {
    let dir = scratch("missing");
    let array = ArrayOptions::new(vec![100], vec![10])
        .compression(Compression::None)
        .create(store(&dir), "/", &fill())
        .unwrap();
    let records: Vec<Particle> = (0..15).map(particle).collect();
    array.store_array_subset(&[20..35], &records).unwrap();
    let mut written: Vec<String> = std::fs::read_dir(dir.join("c"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    written.sort();
    assert_eq!(written, ["2", "3"]);
    let back: Vec<Particle> = array.retrieve_array_subset(&[18..37]).unwrap();
    assert!(same(&back[..2], &[fill(), fill()]));
    assert!(same(&back[2..17], &records));
    assert!(same(&back[17..], &[fill(), fill()]));
}

#[test]
fn the_metadata_is_in_the_current_spec_form() {
    let dir = scratch("metadata");
    ArrayOptions::new(vec![10], vec![5])
        .endian(Endian::Big)
        .dimension_names(["particle"])
        .create(store(&dir), "/", &fill())
        .unwrap();
    let text = std::fs::read_to_string(dir.join("zarr.json")).unwrap();
    let json: Json = serde_json::from_str(&text).unwrap();
    assert_eq!(json["data_type"], Particle::data_type().to_v3_json());
    assert_eq!(
        json["codecs"][0],
        json!({"name": "bytes", "configuration": {"endian": "big"}})
    );
    assert_eq!(json["codecs"][1]["name"], "zstd");
    assert_eq!(json["dimension_names"], json!(["particle"]));
    assert!(json.get("attributes").is_none_or(|a| a == &json!({})));
    assert!(!text.contains("_zarrs"), "{text}");
    // The fill value in field order, in the registered object form.
    let fill_text = serde_json::to_string(&json["fill_value"]).unwrap();
    assert_eq!(
        fill_text,
        r#"{"id":18446744073709551615,"pos":{"0":"NaN","1":-0.0,"2":"-Infinity"},"mass":"0x7ff8000000000001","alive":false,"at":{"x":-1.0,"y":0.0}}"#
    );
}

#[test]
fn single_byte_records_have_no_endian() {
    #[derive(ZarrStruct, Clone, Copy, Debug, PartialEq, Default)]
    struct Rgb {
        r: u8,
        g: u8,
        b: u8,
    }
    let dir = scratch("rgb");
    let array = ArrayOptions::new(vec![4], vec![4])
        .create(store(&dir), "/", &Rgb::default())
        .unwrap();
    array
        .store_array_subset(&[0..1], &[Rgb { r: 1, g: 2, b: 3 }])
        .unwrap();
    let json: Json =
        serde_json::from_str(&std::fs::read_to_string(dir.join("zarr.json")).unwrap()).unwrap();
    assert_eq!(json["codecs"][0], json!({"name": "bytes"}));
}

#[test]
fn a_type_mismatch_names_the_first_differing_field() {
    let dir = scratch("mismatch");
    let array = ArrayOptions::new(vec![4], vec![4])
        .create(store(&dir), "/", &fill())
        .unwrap();
    let error = array
        .retrieve_array_subset::<Vec<LightParticle>>(&[0..4])
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("at field `mass`: expected float32, found float64"),
        "{error}"
    );
    let error = array
        .store_array_subset(&[0..1], &[LightParticle::default()])
        .unwrap_err()
        .to_string();
    assert!(error.contains("at field `mass`"), "{error}");
}

#[test]
fn run_time_values_and_derived_types_read_each_other() {
    let dir = scratch("values");
    let array = ArrayOptions::new(vec![20], vec![6])
        .create(store(&dir), "/", &fill())
        .unwrap();
    let values: Vec<Value> = (0..20).map(|i| particle(i).to_value()).collect();
    array.store_values(&[0..20], &values).unwrap();
    let typed: Vec<Particle> = array.retrieve_array_subset(&[0..20]).unwrap();
    assert!(same(&typed, &(0..20).map(particle).collect::<Vec<_>>()));
    let back = array.retrieve_values(&[0..20]).unwrap();
    assert_eq!(back, values);
    // A value that does not fit is an error naming the field.
    let mut bad = values[0].clone();
    if let Value::Record(record) = &mut bad {
        let fields: Vec<_> = record
            .fields()
            .iter()
            .map(|(name, value)| {
                let value = if &**name == "alive" {
                    Value::Int8(1)
                } else {
                    value.clone()
                };
                (name.clone(), value)
            })
            .collect();
        *record = fields.into_iter().collect();
    }
    let error = array.store_values(&[0..1], &[bad]).unwrap_err();
    assert!(error.to_string().contains("at field `alive`"), "{error}");
}

#[test]
fn one_field_of_every_record() {
    let dir = scratch("field");
    let array = ArrayOptions::new(vec![50], vec![8])
        .shards(vec![16])
        .endian(Endian::Big)
        .create(store(&dir), "/", &fill())
        .unwrap();
    let records: Vec<Particle> = (0..50).map(particle).collect();
    array.store_array_subset(&[0..50], &records).unwrap();
    let mass: Vec<f64> = array.retrieve_field(&[10..40], &["mass"]).unwrap();
    let expected: Vec<u64> = records[10..40].iter().map(|p| p.mass.to_bits()).collect();
    assert_eq!(
        mass.iter().map(|m| m.to_bits()).collect::<Vec<_>>(),
        expected
    );
    let pos: Vec<[f32; 3]> = array.retrieve_field(&[0..50], &["pos"]).unwrap();
    assert!(
        pos.iter()
            .zip(&records)
            .all(|(a, p)| a.map(f32::to_bits) == p.pos.map(f32::to_bits))
    );
    let x: Vec<f32> = array.retrieve_field(&[0..50], &["at", "x"]).unwrap();
    assert_eq!(x, records.iter().map(|p| p.at.x).collect::<Vec<_>>());
    let at: Vec<Point> = array.retrieve_field(&[0..3], &["at"]).unwrap();
    assert_eq!(at, records[..3].iter().map(|p| p.at).collect::<Vec<_>>());
    let error = array.retrieve_field::<f32>(&[0..1], &["mass"]).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("expected float32, found float64"),
        "{error}"
    );
    let error = array
        .retrieve_field::<f32>(&[0..1], &["at", "z"])
        .unwrap_err();
    assert!(error.to_string().contains("`at.z`"), "{error}");
}

/// A chunk that reaches past the array's end is stored whole, the fill value in its elements
/// beyond the end (never read, but stored, as zarr-python stores them): between the rows of a
/// 2-D edge chunk and after the records of a 1-D one, unsharded and in a shard's inner chunk
/// (an inner chunk wholly beyond the end is not stored at all).
#[test]
fn edge_chunks_store_the_fill_value_beyond_the_array() {
    let fill_bytes = fill().encode(Endian::Little);
    let dir = scratch("edge_fill_2d");
    // 5 x 6 records in chunks of 4 x 4: chunk (1, 1) holds rows 4..8, columns 4..8 of which
    // only (4, 4) and (4, 5) are in the array.
    let array = ArrayOptions::new(vec![5, 6], vec![4, 4])
        .compression(Compression::None)
        .create(store(&dir), "/", &fill())
        .unwrap();
    // A chunk written first leaves the thread's buffer full of records.
    let records: Vec<Particle> = (0..30).map(particle).collect();
    array.store_records(&[0..5, 0..6], &records).unwrap();
    let stored = std::fs::read(dir.join("c").join("1").join("1")).unwrap();
    assert_eq!(stored.len(), 16 * 37);
    for (position, element) in stored.chunks_exact(37).enumerate() {
        let (row, column) = (4 + position / 4, 4 + position % 4);
        let expected = if row < 5 && column < 6 {
            particle((row * 6 + column) as u64).encode(Endian::Little)
        } else {
            fill_bytes.clone()
        };
        assert_eq!(element, expected, "element ({row}, {column})");
    }
    let stored = std::fs::read(dir.join("c").join("0").join("1")).unwrap();
    for (position, element) in stored.chunks_exact(37).enumerate() {
        let (row, column) = (position / 4, 4 + position % 4);
        let expected = if column < 6 {
            particle((row * 6 + column) as u64).encode(Endian::Little)
        } else {
            fill_bytes.clone()
        };
        assert_eq!(element, expected, "element ({row}, {column})");
    }
    // 1-D, sharded: 21 records in shards of 16 (inner chunks of 4): the second shard's first
    // inner chunk holds records 16..20, its second record 20 and the fill value, the two
    // after it are beyond the end and not stored; laid out in place, the index after them.
    let dir = scratch("edge_fill_sharded");
    let array = ArrayOptions::new(vec![21], vec![4])
        .shards(vec![16])
        .compression(Compression::None)
        .create(store(&dir), "/", &fill())
        .unwrap();
    let records: Vec<Particle> = (0..21).map(particle).collect();
    array.store_records(&[0..21], &records).unwrap();
    let index = zarrdt::array::ShardIndex::read(&array, &[1])
        .unwrap()
        .unwrap();
    assert_eq!(index.written(), 2, "{index:?}");
    assert_eq!(index.entries()[0], Some(0..4 * 37));
    assert_eq!(index.entries()[1], Some(4 * 37..8 * 37));
    let stored = std::fs::read(dir.join("c").join("1")).unwrap();
    for (position, element) in stored[..8 * 37].chunks_exact(37).enumerate() {
        let expected = if position < 5 {
            particle(16 + position as u64).encode(Endian::Little)
        } else {
            fill_bytes.clone()
        };
        assert_eq!(element, expected, "record {}", 16 + position);
    }
    let back: Vec<Particle> = array.retrieve_array_subset(&[0..21]).unwrap();
    assert!(same(&back, &records));
}

/// `retrieve_field_into` appends to the vector it is given, whose memory a cleared vector
/// keeps from read to read; a refused read leaves it as it was, and one that fails in a chunk
/// keeps what it held before.
#[test]
fn one_field_into_a_kept_vector() {
    let dir = scratch("field_into");
    let array = ArrayOptions::new(vec![50], vec![8])
        .shards(vec![16])
        .compression(Compression::None)
        .create(store(&dir), "/", &fill())
        .unwrap();
    let records: Vec<Particle> = (0..50).map(particle).collect();
    array.store_records(&[0..50], &records).unwrap();
    let ids = |range: Range<usize>| records[range].iter().map(|p| p.id).collect::<Vec<_>>();
    let mut kept: Vec<u64> = vec![7, 8];
    array
        .retrieve_field_into(&[10..40], &["id"], &mut kept)
        .unwrap();
    assert_eq!(kept[..2], [7, 8], "appended after what it held");
    assert_eq!(kept[2..], ids(10..40));
    // Cleared and read again: the same memory, no new allocation.
    let memory = kept.as_ptr();
    kept.clear();
    array
        .retrieve_field_into(&[3..33], &["id"], &mut kept)
        .unwrap();
    assert_eq!(kept, ids(3..33));
    assert_eq!(kept.as_ptr(), memory, "the vector's memory is reused");
    assert_eq!(
        kept,
        array.retrieve_field::<u64>(&[3..33], &["id"]).unwrap()
    );
    // Refused before anything is read: the vector as it was.
    let before = kept.clone();
    let error = array
        .retrieve_field_into(&[0..1], &["no_such_field"], &mut kept)
        .unwrap_err();
    assert!(error.to_string().contains("no_such_field"), "{error}");
    array
        .retrieve_field_into(&[0..60], &["id"], &mut kept)
        .unwrap_err();
    assert_eq!(kept, before);
    // A bad `bool` in the last shard: what the vector held is kept.
    let file = dir.join("c").join("3");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[28] = 2; // `alive` (byte 28) of the shard's first record, 48
    std::fs::write(&file, bytes).unwrap();
    let mut alive: Vec<bool> = vec![true];
    let error = array
        .retrieve_field_into(&[0..50], &["alive"], &mut alive)
        .unwrap_err();
    assert!(error.to_string().contains("element 48"), "{error}");
    assert!(alive[0], "what it held is kept");
}

/// A Zarr v2 record array with mixed per-field byte order, a subarray field and padding-free
/// nesting, Blosc-compressed: written through zarrs with zarrdt's `.zarray`, read back through
/// zarrs by `open_array` (zarrs alone cannot open structured v2 arrays).
#[test]
fn zarr_v2_structured_arrays_through_zarrs() {
    let dir = scratch("v2");
    let layout = mixed_order_layout();
    let fill_value = fill().to_value();
    let array = ArrayOptions::new(vec![30], vec![7])
        .compression(Compression::BloscLz4 { level: 5 })
        .create_v2(store(&dir), "/", &layout, Some(&fill_value))
        .unwrap();
    let records: Vec<Particle> = (0..20).map(particle).collect();
    array.store_array_subset(&[3..23], &records).unwrap();
    let zarray: Json =
        serde_json::from_str(&std::fs::read_to_string(dir.join(".zarray")).unwrap()).unwrap();
    assert_eq!(zarray["dtype"], layout.to_v2_json().unwrap());
    assert_eq!(zarray["compressor"]["id"], "blosc");
    assert!(dir.join("0").exists() && dir.join("3").exists() && !dir.join("4").exists());
    // The stored bytes are in each field's own order: chunk 1 holds records 7..14, the first
    // is particle(4), whose id is stored big-endian.
    let opened = open_array(store(&dir), "/").unwrap();
    let back: Vec<Particle> = opened.retrieve_array_subset(&[0..30]).unwrap();
    assert!(same(&back[..3], &[fill(); 3]));
    assert!(same(&back[3..23], &records));
    assert!(same(&back[23..], &[fill(); 7]));
    let values = opened.retrieve_values(&[3..4]).unwrap();
    assert_eq!(values[0], records[0].to_value());
    let record = RecordType::of(opened.data_type()).unwrap();
    assert!(
        record.data_type().is_none(),
        "mixed byte order has no v3 form"
    );
    let mass: Vec<f64> = opened.retrieve_field(&[3..6], &["mass"]).unwrap();
    assert_eq!(mass, [records[0].mass, records[1].mass, records[2].mass]);
}

/// A legacy `structured` array (zarr-python 3.1's form) whose base64 fill is big-endian under
/// a big-endian `bytes` codec: `open_array` reads the fill in the codec's byte order.
#[test]
fn legacy_structured_fills_follow_the_codec() {
    #[derive(ZarrStruct, Clone, Copy, Debug, PartialEq, Default)]
    struct Pair {
        a: i32,
        b: u8,
    }
    let dir = scratch("legacy");
    let array = ArrayOptions::new(vec![4], vec![2])
        .endian(Endian::Big)
        .create(store(&dir), "/", &Pair { a: 1, b: 2 })
        .unwrap();
    array
        .store_array_subset(&[0..2], &[Pair { a: 7, b: 8 }; 2])
        .unwrap();
    let path = dir.join("zarr.json");
    let mut json: Json = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    json["data_type"] = json!({"name": "structured", "configuration": {"fields": [["a", "int32"], ["b", "uint8"]]}});
    json["fill_value"] = json!("AAAAAQI=");
    std::fs::write(&path, serde_json::to_string(&json).unwrap()).unwrap();
    let opened = open_array(store(&dir), "/").unwrap();
    let back: Vec<Pair> = opened.retrieve_array_subset(&[0..4]).unwrap();
    assert_eq!(
        back,
        [
            Pair { a: 7, b: 8 },
            Pair { a: 7, b: 8 },
            Pair { a: 1, b: 2 },
            Pair { a: 1, b: 2 }
        ]
    );
}

#[test]
fn arrays_of_scalars_and_run_time_types() {
    let dir = scratch("scalars");
    let array: Array<FilesystemStore> = ArrayOptions::new(vec![10], vec![4])
        .create(store(&dir), "/", &f64::NAN)
        .unwrap();
    array.store_array_subset(&[0..2], &[1.5f64, -2.0]).unwrap();
    let back: Vec<f64> = array.retrieve_array_subset(&[0..3]).unwrap();
    assert_eq!(back[..2], [1.5, -2.0]);
    assert!(back[2].is_nan());
    // A struct with extension types, known only at run time.
    let data_type = DataType::from_v3_json(&json!({"name": "struct", "configuration": {"fields": [
        {"name": "t", "data_type": {"name": "numpy.datetime64", "configuration": {"unit": "ms", "scale_factor": 1}}},
        {"name": "s", "data_type": {"name": "fixed_length_utf32", "configuration": {"length_bytes": 16}}},
        {"name": "b", "data_type": {"name": "null_terminated_bytes", "configuration": {"length_bytes": 5}}}
    ]}}))
    .unwrap();
    let fill = data_type
        .fill_value_from_v3_json(&json!({"t": "NaT", "s": "", "b": ""}), None)
        .unwrap();
    let dir = scratch("extension");
    let array = ArrayOptions::new(vec![3], vec![2])
        .create_with(store(&dir), "/", &data_type, &fill)
        .unwrap();
    let one = data_type
        .fill_value_from_v3_json(
            &json!({"t": 1_700_000_000_000i64, "s": "héll", "b": "YWI="}),
            None,
        )
        .unwrap();
    array
        .store_values(&[1..2], std::slice::from_ref(&one))
        .unwrap();
    let back = open_array(store(&dir), "/")
        .unwrap()
        .retrieve_values(&[0..3])
        .unwrap();
    assert_eq!(back, [fill.clone(), one, fill]);
}

#[test]
fn opening_what_is_not_an_array_says_so() {
    let dir = scratch("empty");
    let error = open_array(store(&dir), "/").unwrap_err();
    assert!(error.to_string().contains("no Zarr array"), "{error}");
    std::fs::write(dir.join("zarr.json"), "{not json").unwrap();
    let error = open_array(store(&dir), "/").unwrap_err();
    assert!(error.to_string().contains("zarr.json"), "{error}");
    std::fs::write(
        dir.join("zarr.json"),
        r#"{"zarr_format":3,"node_type":"array","shape":[1],"data_type":{"name":"struct","configuration":{"fields":[{"name":"a","data_type":"int32"}]}},"chunk_grid":{"name":"regular","configuration":{"chunk_shape":[1]}},"chunk_key_encoding":{"name":"default"},"fill_value":{"b":1},"codecs":[{"name":"bytes","configuration":{"endian":"little"}}]}"#,
    )
    .unwrap();
    // zarrdt's error about the type or fill value, in the document it is in.
    let error = open_array(store(&dir), "/").unwrap_err().to_string();
    assert!(error.contains("invalid fill value at field `b`"), "{error}");
    assert!(
        error.starts_with("invalid array metadata zarr.json: "),
        "{error}"
    );
    let v3 = std::fs::read_to_string(dir.join("zarr.json")).unwrap();
    std::fs::write(
        dir.join("zarr.json"),
        v3.replace(r#""int32""#, r#""float99""#),
    )
    .unwrap();
    let error = open_array(store(&dir), "/").unwrap_err().to_string();
    assert!(error.contains("float99"), "{error}");
    assert!(
        error.starts_with("invalid array metadata zarr.json: "),
        "{error}"
    );
    std::fs::remove_file(dir.join("zarr.json")).unwrap();
    std::fs::create_dir(dir.join("v2")).unwrap();
    std::fs::write(
        dir.join("v2/.zarray"),
        r#"{"zarr_format":2,"shape":[1],"chunks":[1],"dtype":[["a","<i4"]],"fill_value":"AAAAAAAA","order":"C","compressor":null,"filters":null}"#,
    )
    .unwrap();
    let error = open_array(store(&dir), "/v2").unwrap_err().to_string();
    assert!(
        error.starts_with("invalid array metadata v2/.zarray: "),
        "{error}"
    );
}

/// `store_records` / `retrieve_records` move records chunk by chunk and agree with zarrs'
/// own element API everywhere: whole chunks, parts of chunks, the edge chunk, missing chunks,
/// shards (whole and in part), beyond the end and arrays of more dimensions (zarrs' path); a
/// wrong type and a wrong count are errors.
#[test]
fn records_move_chunk_by_chunk_as_zarrs_moves_them() {
    for (name, options) in [
        ("transfer_plain", ArrayOptions::new(vec![103], vec![10])),
        (
            "transfer_sharded",
            ArrayOptions::new(vec![103], vec![5]).shards(vec![20]),
        ),
    ] {
        let dir = scratch(name);
        let array = options.create(store(&dir), "/", &fill()).unwrap();
        // Records 7..95: whole chunks, parts of the chunks at both ends; 95..103 (the edge
        // chunk) and 0..7 in part stay unwritten.
        let written: Vec<Particle> = (7..95).map(particle).collect();
        array.store_records(&[7..95], &written).unwrap();
        let mut expected: Vec<Particle> = vec![fill(); 103];
        expected[7..95].copy_from_slice(&written);
        for range in [0..103, 0..1, 3..57, 40..41, 95..103, 100..103, 20..40] {
            let ours: Vec<Particle> = array.retrieve_records(&[range.start..range.end]).unwrap();
            let theirs: Vec<Particle> = array
                .retrieve_array_subset(&[range.start..range.end])
                .unwrap();
            assert!(same(&ours, &theirs), "{name} {range:?}");
            let (from, to) = (range.start as usize, range.end as usize);
            assert!(same(&ours, &expected[from..to]), "{name} {range:?}");
        }
        // Writing the edge chunk and across it.
        let tail: Vec<Particle> = (90..103).map(|i| particle(i + 1000)).collect();
        array.store_records(&[90..103], &tail).unwrap();
        expected[90..103].copy_from_slice(&tail);
        let back: Vec<Particle> = array.retrieve_array_subset(&[0..103]).unwrap();
        assert!(same(&back, &expected), "{name}");

        let error = array.store_records(&[0..5], &written[..4]).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("4 elements given to write a subset of 5"),
            "{error}"
        );
        // Beyond the end: zarrs reads the stored edge chunk there without an error (beyond an
        // empty array's end too); zarrdt refuses the subset, naming it and the shape.
        let error = array.retrieve_records::<Particle>(&[100..104]).unwrap_err();
        assert!(
            error.to_string().contains("[100..104]")
                || format!("{error:?}").contains("start: [100], shape: [4]"),
            "{error}"
        );
        assert!(format!("{error:?}").contains("103"), "{error:?}");
        let error = array
            .retrieve_records::<LightParticle>(&[0..5])
            .unwrap_err();
        assert!(error.to_string().contains("mass"), "{error}");
    }
    let dir = scratch("transfer_2d");
    let array = ArrayOptions::new(vec![6, 5], vec![4, 4])
        .create(store(&dir), "/", &fill())
        .unwrap();
    let records: Vec<Particle> = (0..12).map(particle).collect();
    array.store_records(&[1..5, 2..5], &records).unwrap();
    let ours: Vec<Particle> = array.retrieve_records(&[0..6, 0..5]).unwrap();
    let theirs: Vec<Particle> = array.retrieve_array_subset(&[0..6, 0..5]).unwrap();
    assert!(same(&ours, &theirs));
    assert!(same(&ours[7..10], &records[..3]));
}

#[test]
fn a_read_too_large_to_hold_is_an_error_before_anything_is_read() {
    // 2^56 records whose chunks are all missing: the stored bytes (37 a record) fit the
    // subset checks, the output (48 bytes a `Particle`) cannot be allocated. Each read refuses
    // it at once (before, the output grew chunk after chunk of fill values until memory ran
    // out).
    let dir = scratch("too_large_to_hold");
    let count = 1u64 << 56;
    let array = ArrayOptions::new(vec![count], vec![1 << 20])
        .create(store(&dir), "/", &fill())
        .unwrap();
    let error = array.retrieve_records::<Particle>(&[0..count]).unwrap_err();
    assert!(
        matches!(
            error,
            zarrdt::array::Error::OutputTooLarge { elements, element_size }
                if elements as u64 == count && element_size == std::mem::size_of::<Particle>()
        ),
        "{error:?}"
    );
    assert!(
        error.to_string().contains("72057594037927936 elements"),
        "{error}"
    );
    let mut kept = vec![fill()];
    let error = array
        .retrieve_records_into(&[0..count], &mut kept)
        .unwrap_err();
    assert!(
        matches!(error, zarrdt::array::Error::OutputTooLarge { .. }),
        "{error:?}"
    );
    assert!(same(&kept, &[fill()]), "the output is left as it was");
    let error = array
        .retrieve_field::<f64>(&[0..count], &["mass"])
        .unwrap_err();
    assert!(
        matches!(
            error,
            zarrdt::array::Error::OutputTooLarge {
                element_size: 8,
                ..
            }
        ),
        "{error:?}"
    );
    let error = array.retrieve_values(&[0..count]).unwrap_err();
    assert!(
        matches!(error, zarrdt::array::Error::OutputTooLarge { .. }),
        "{error:?}"
    );
    // A part of it reads as the fill value.
    let part: Vec<Particle> = array.retrieve_records(&[count - 3..count]).unwrap();
    assert!(same(&part, &[fill(); 3]));
}

/// Reads every subset of `subsets` of `array` through zarrdt (`retrieve_records`,
/// `retrieve_field`, `retrieve_values`) and through zarrs' own decode, and compares them.
fn reads_as_zarrs_reads(name: &str, array: &Array<FilesystemStore>, subsets: &[Vec<Range<u64>>]) {
    for ranges in subsets {
        let subset = &ArraySubset::new_with_ranges(ranges);
        let ours: Vec<Particle> = array.retrieve_records(subset).unwrap();
        let theirs: Vec<Particle> = array.retrieve_array_subset(subset).unwrap();
        assert!(same(&ours, &theirs), "{name} {ranges:?}");
        let masses: Vec<f64> = array.retrieve_field(subset, &["mass"]).unwrap();
        let expected: Vec<u64> = theirs.iter().map(|p| p.mass.to_bits()).collect();
        let masses: Vec<u64> = masses.iter().map(|mass| mass.to_bits()).collect();
        assert_eq!(masses, expected, "{name} {ranges:?}");
        let values = array.retrieve_values(subset).unwrap();
        let expected = array
            .record_type()
            .unwrap()
            .native_layout()
            .decode_values(&Particle::encode_slice(&theirs, Endian::NATIVE))
            .unwrap();
        assert_eq!(
            format!("{values:?}"),
            format!("{expected:?}"),
            "{name} {ranges:?}"
        );
    }
}

/// Shards a read covers whole are read in one read each and split into their inner chunks by
/// zarrdt; the records are what zarrs' own decode gives, with missing inner chunks, a missing
/// shard, an edge shard, compressed and big-endian inner chunks, and 2-D shards whose inner
/// chunks are slabs (as wide as the shard) or tiles.
#[test]
fn whole_shards_read_as_zarrs_reads_them() {
    let one_d = || ArrayOptions::new(vec![103], vec![5]).shards(vec![20]);
    for (name, options) in [
        ("split_plain", one_d()),
        (
            "split_zstd",
            one_d().compression(Compression::Zstd { level: 1 }),
        ),
        ("split_big", one_d().endian(Endian::Big)),
    ] {
        let dir = scratch(name);
        let array = options.create(store(&dir), "/", &fill()).unwrap();
        // Shard 0: inner chunk 0 missing, 1 in part; shard 1: its last inner chunk missing;
        // shard 2 (40..60) not stored; shard 3 whole; shard 4: one inner chunk; the edge shard
        // (100..120): its first inner chunk, in part within the array.
        for range in [7..33, 60..80, 95..103] {
            let records: Vec<Particle> = range.clone().map(particle).collect();
            array.store_records(&[range], &records).unwrap();
        }
        let subsets: Vec<Vec<Range<u64>>> = [
            0..103,
            0..20,
            20..40,
            40..60,
            60..80,
            80..100,
            100..103,
            3..57,
            18..62,
            99..101,
        ]
        .into_iter()
        .map(|range| vec![range])
        .collect();
        reads_as_zarrs_reads(name, &array, &subsets);
    }
    // A read of many shards read whole (at least four a thread) goes a shard at a time: the
    // same records, on two threads, with missing and partly written shards among them.
    let dir = scratch("split_many");
    let array = ArrayOptions::new(vec![103], vec![5])
        .shards(vec![10])
        .compression(Compression::Zstd { level: 1 })
        .create(store(&dir), "/", &fill())
        .unwrap();
    for range in [7..33, 60..80, 95..103] {
        let records: Vec<Particle> = range.clone().map(particle).collect();
        array.store_records(&[range], &records).unwrap();
    }
    let pool = thread_pool(2);
    pool.install(|| {
        reads_as_zarrs_reads(
            "split_many",
            &array,
            &[vec![0..103], vec![10..90], vec![3..97]],
        );
    });
    for (name, inner) in [("split_slabs", vec![2, 6]), ("split_tiles", vec![2, 3])] {
        let dir = scratch(name);
        let array = ArrayOptions::new(vec![13, 6], inner)
            .shards(vec![4, 6])
            .create(store(&dir), "/", &fill())
            .unwrap();
        let mut next = 0;
        for region in [[1..7, 0..6], [9..13, 2..5]] {
            let count = region
                .iter()
                .map(|range| range.end - range.start)
                .product::<u64>();
            let records: Vec<Particle> = (next..next + count).map(particle).collect();
            next += count;
            array.store_records(&region, &records).unwrap();
        }
        let subsets = [
            vec![0..13, 0..6],
            vec![0..4, 0..6],
            vec![4..8, 0..6],
            vec![12..13, 0..6],
            vec![2..11, 1..5],
            vec![8..12, 0..6],
        ];
        reads_as_zarrs_reads(name, &array, &subsets);
    }
    // Compressed rows of shards side by side, decoded as the read comes to them on two and
    // three threads: an edge row of shards (13 rows in shards of 4), inner chunks and shards
    // never written, shards wider than the array (the last column of shards, 12 of 14
    // columns); inner chunks as wide as the shard, and tiles (a read hands those over a band
    // of rows of them at a time, decoding the next band meanwhile; one shard a slab on three
    // threads has two tiles a row, and a band two rows); big-endian tiles, decoded in their
    // stored order.
    for (name, shape, inner, endian) in [
        (
            "split_rows_zstd",
            vec![13u64, 12u64],
            vec![2u64, 6u64],
            Endian::Little,
        ),
        (
            "split_rows_zstd_wide",
            vec![13, 14],
            vec![2, 6],
            Endian::Little,
        ),
        ("split_tiles_zstd", vec![13, 12], vec![2, 3], Endian::Little),
        (
            "split_tiles_zstd_wide",
            vec![13, 14],
            vec![2, 3],
            Endian::Little,
        ),
        (
            "split_tiles_zstd_one_column",
            vec![13, 6],
            vec![2, 3],
            Endian::Little,
        ),
        (
            "split_tiles_zstd_big",
            vec![13, 14],
            vec![2, 3],
            Endian::Big,
        ),
    ] {
        let dir = scratch(name);
        let array = ArrayOptions::new(shape.clone(), inner)
            .shards(vec![4, 6])
            .compression(Compression::Zstd { level: 1 })
            .endian(endian)
            .create(store(&dir), "/", &fill())
            .unwrap();
        let mut next = 0;
        for region in [
            [1..7, 0..6],
            [9..13, 2..shape[1]],
            [5..6, 7.min(shape[1])..12.min(shape[1])],
        ] {
            let count = region
                .iter()
                .map(|range| range.end - range.start)
                .product::<u64>();
            let records: Vec<Particle> = (next..next + count).map(particle).collect();
            next += count;
            array.store_records(&region, &records).unwrap();
        }
        let subsets = [
            vec![0..13, 0..shape[1]],
            vec![0..4, 0..12.min(shape[1])],
            vec![4..12, 0..shape[1]],
            vec![12..13, 3..shape[1]],
            vec![2..11, 1..5],
        ];
        for threads in [2, 3] {
            let pool = thread_pool(threads);
            pool.install(|| reads_as_zarrs_reads(name, &array, &subsets));
        }
    }
}

/// Tiles in the second and third dimensions of a 3-D array (edges in all three, shards partly
/// written and missing), decoded a band at a time on one, two and three threads, read as zarrs
/// reads them: compressed in both byte orders, tiles as tall as the shard, and uncompressed.
#[test]
fn tiles_in_three_dimensions_read_as_zarrs_reads_them() {
    for (name, inner, shard, compression, endian) in [
        (
            "tiles_3d",
            [2, 3, 5],
            [4, 6, 10],
            Compression::Zstd { level: 1 },
            Endian::Little,
        ),
        (
            "tiles_3d_big",
            [2, 3, 2],
            [4, 6, 4],
            Compression::Zstd { level: 1 },
            Endian::Big,
        ),
        (
            "tiles_3d_tall",
            [4, 3, 5],
            [4, 6, 10],
            Compression::Zstd { level: 1 },
            Endian::Little,
        ),
        (
            "tiles_3d_plain",
            [2, 3, 2],
            [4, 6, 4],
            Compression::None,
            Endian::Little,
        ),
    ] {
        let dir = scratch(name);
        let array = ArrayOptions::new(vec![7, 9, 11], inner.to_vec())
            .shards(shard.to_vec())
            .compression(compression)
            .endian(endian)
            .create(store(&dir), "/", &fill())
            .unwrap();
        let mut next = 0;
        for region in [[0..4, 0..9, 0..11], [5..7, 2..8, 3..11], [4..5, 6..7, 0..2]] {
            let count = region
                .iter()
                .map(|range| range.end - range.start)
                .product::<u64>();
            let records: Vec<Particle> = (next..next + count).map(particle).collect();
            next += count;
            array.store_records(&region, &records).unwrap();
        }
        let subsets = [
            vec![0..7, 0..9, 0..11],
            vec![0..4, 0..6, 0..11],
            vec![4..7, 0..9, 0..11],
            vec![1..7, 3..9, 2..10],
            vec![3..5, 0..9, 10..11],
        ];
        for threads in [1, 2, 3] {
            let pool = thread_pool(threads);
            pool.install(|| reads_as_zarrs_reads(name, &array, &subsets));
        }
    }
}

rusty_fork_test! {
    /// A read of whole shards holds each stored shard and the records, and no decoded copy of
    /// the shard besides (zarrs' own decode of a whole shard makes one, shard-sized): the bytes
    /// allocated are within the output plus 1.25 times the stored shards.
    #[test]
    fn a_whole_shard_read_allocates_the_stored_shard_and_the_records() {
        for (name, shape, chunks, shards) in [
            ("whole_shard_allocations_1d", vec![40_000], vec![1_000], vec![10_000]),
            ("whole_shard_allocations_2d", vec![200, 200], vec![20, 25], vec![100, 100]),
        ] {
            let dir = scratch(name);
            let count: u64 = shape.iter().product();
            let ranges: Vec<Range<u64>> = shape.iter().map(|&extent| 0..extent).collect();
            let subset = ArraySubset::new_with_ranges(&ranges);
            let array = ArrayOptions::new(shape, chunks)
                .shards(shards)
                .compression(Compression::None)
                .create(store(&dir), "/", &fill())
                .unwrap();
            let records: Vec<Particle> = (0..count).map(particle).collect();
            array.store_records(&subset, &records).unwrap();
            let stored: u64 = file_sizes(&dir.join("c")).iter().sum();
            let output = count as usize * std::mem::size_of::<Particle>();
            let (read, usage) =
                meter::measure(|| array.retrieve_records::<Particle>(&subset).unwrap());
            assert!(same(&read, &records), "{name}");
            let bound = output + stored as usize * 5 / 4;
            eprintln!("{name}: output {output} B, stored shards {stored} B, allocated {usage:?}");
            assert!(usage.allocated_bytes <= bound, "{name}: {usage:?} against {bound} bytes");
        }
    }
}

rusty_fork_test! {
    /// A read of compressed whole shards decodes their inner chunks as it comes to them, a band
    /// of rows of them at a time (one inner chunk a thread at least), each let go once handed
    /// over: beside the output it holds the stored shards being read and the next ones, and
    /// two bands of decoded inner chunks (three where they are tiles: the next row of shards'
    /// first row is decoded when fetched), never a decoded shard. (Decoded whole when fetched,
    /// the shards of these reads, four each of ten inner chunks, went two at a time, and a
    /// window of two decoded shards was held while the next was decoded: 3.7 MB each; tiles,
    /// two windows of a row of two shards.) 1-D, and 2-D with inner chunks as wide as the shard
    /// (and the shard as the array, or wider: then no inner chunk is read to its end), and
    /// tiles in rows of two shards; records, and one field (its inner chunks cut to the field
    /// as they are decoded).
    #[test]
    fn a_compressed_shard_read_holds_inner_chunks_not_decoded_shards() {
        for (name, shape, inner, shard) in [
            ("compressed_shard_peak_1d", vec![400_000u64], vec![10_000u64], vec![100_000u64]),
            ("compressed_shard_peak_2d", vec![1_600, 250], vec![40, 250], vec![400, 250]),
            // Shards wider than the array: no inner chunk is read to its end.
            ("compressed_shard_peak_2d_edge", vec![1_600, 250], vec![40, 256], vec![400, 256]),
            ("compressed_shard_peak_tiles", vec![1_600, 500], vec![40, 50], vec![400, 250]),
        ] {
            let dir = scratch(name);
            let count: u64 = shape.iter().product();
            let subset: Vec<Range<u64>> = shape.iter().map(|&extent| 0..extent).collect();
            let array = ArrayOptions::new(shape.clone(), inner.clone())
                .shards(shard.clone())
                .compression(Compression::Zstd { level: 1 })
                .create(store(&dir), "/", &fill())
                .unwrap();
            let records: Vec<Particle> = (0..count).map(particle).collect();
            array.store_records(&subset, &records).unwrap();
            let largest_stored = *file_sizes(&dir.join("c")).iter().max().unwrap() as usize;
            let inner_bytes = inner.iter().product::<u64>() as usize * Particle::SIZE;
            // A slab: the shards side by side along the first dimension; a band: rows of inner
            // chunks across it, one inner chunk a thread at least.
            let shards_per_slab: u64 = shape[1..]
                .iter()
                .zip(&shard[1..])
                .map(|(extent, shard)| extent.div_ceil(*shard))
                .product();
            let chunks_per_row = shard[1..]
                .iter()
                .zip(&inner[1..])
                .map(|(shard, inner)| shard / inner)
                .product::<u64>()
                * shards_per_slab;
            let band = 2u64.div_ceil(chunks_per_row) * chunks_per_row;
            let bands = if inner[1..] == shard[1..] { 2 } else { 3 };
            let held = 2 * shards_per_slab as usize * largest_stored
                + bands * band as usize * inner_bytes
                + (1 << 20);
            let pool = thread_pool(2);
            let (read, usage) = pool.install(|| {
                meter::measure(|| array.retrieve_records::<Particle>(&subset).unwrap())
            });
            assert!(same(&read, &records), "{name}");
            let output = count as usize * std::mem::size_of::<Particle>();
            eprintln!(
                "{name}, records: output {output} B, stored shard {largest_stored} B, inner \
                 chunk {inner_bytes} B, {usage:?}"
            );
            assert!(
                usage.peak_bytes <= output + held,
                "{name}: {usage:?} against {output} + {held} bytes"
            );
            // One field: each inner chunk is cut to the field as it is decoded, so the bands
            // hold 8 bytes an element, and each thread one decoded inner chunk while it cuts
            // it. (Kept whole, the tiles' three bands of records are over this bound.)
            let (ids, usage) = pool.install(|| {
                meter::measure(|| array.retrieve_field::<u64>(&subset, &["id"]).unwrap())
            });
            assert!(ids.iter().zip(&records).all(|(id, record)| *id == record.id));
            let output = count as usize * 8;
            let inner_elements = inner.iter().product::<u64>() as usize;
            let held = 2 * shards_per_slab as usize * largest_stored
                + bands * band as usize * inner_elements * 8
                + 2 * inner_bytes
                + (1 << 19);
            eprintln!("{name}, one field: output {output} B, {usage:?}");
            assert!(
                usage.peak_bytes <= output + held,
                "{name}: {usage:?} against {output} + {held} bytes"
            );
        }
    }
}

/// A directory store that notes every read of a chunk (a shard: its key and byte ranges), and
/// if asked to, waits in its first read of a whole one until a second one has begun, for
/// `PATIENCE` at most: whether two were ever under way at once.
struct WatchedReads {
    inner: FilesystemStore,
    reads: std::sync::Mutex<Vec<(String, Vec<ByteRange>)>>,
    /// Whether the first read of a whole shard waits for a second.
    meet: bool,
    started: std::sync::Mutex<usize>,
    began: std::sync::Condvar,
    met: std::sync::atomic::AtomicBool,
}

impl WatchedReads {
    fn new(dir: &std::path::Path, meet: bool) -> Self {
        WatchedReads {
            inner: FilesystemStore::new(dir).unwrap(),
            reads: std::sync::Mutex::new(Vec::new()),
            meet,
            started: std::sync::Mutex::new(0),
            began: std::sync::Condvar::new(),
            met: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Long enough for another thread to start, however loaded the machine: only a read that
    /// never starts a second fetch while the first one is under way waits it out.
    const PATIENCE: std::time::Duration = std::time::Duration::from_secs(30);
}

impl ReadableStorageTraits for WatchedReads {
    fn get_partial_many<'a>(
        &'a self,
        key: &StoreKey,
        byte_ranges: ByteRangeIterator<'a>,
    ) -> Result<MaybeBytesIterator<'a>, StorageError> {
        let byte_ranges: Vec<ByteRange> = byte_ranges.collect();
        if key.as_str().starts_with("c/") {
            self.reads
                .lock()
                .unwrap()
                .push((key.to_string(), byte_ranges.clone()));
        }
        // A shard read whole (its index alone is read first, to check it).
        if self.meet
            && key.as_str().starts_with("c/")
            && byte_ranges == [ByteRange::FromStart(0, None)]
        {
            let mut started = self.started.lock().unwrap();
            *started += 1;
            self.began.notify_all();
            if *started == 1 {
                let (started, _) = self
                    .began
                    .wait_timeout_while(started, Self::PATIENCE, |started| *started < 2)
                    .unwrap();
                self.met
                    .store(*started >= 2, std::sync::atomic::Ordering::SeqCst);
            }
        }
        let byte_ranges: ByteRangeIterator<'a> = Box::new(byte_ranges.into_iter());
        self.inner.get_partial_many(key, byte_ranges)
    }

    fn size_key(&self, key: &StoreKey) -> Result<Option<u64>, StorageError> {
        self.inner.size_key(key)
    }

    fn supports_get_partial(&self) -> bool {
        true
    }
}

/// A read of compressed shards read whole, one shard a window (their inner chunks, decoded as
/// the read comes to them, keep the threads busy): the first two shards are fetched together,
/// on both threads, where one thread would read the first alone, nothing yet to hand over
/// beside it; the records read are the same, and the first window's error still comes first.
#[test]
fn the_first_two_shards_read_whole_are_fetched_together() {
    let count = 5 * 4_000u64;
    let (dir, records) = stored_particles(
        "first_two_shards",
        count,
        4_000,
        Compression::Zstd { level: 1 },
    );
    let pool = thread_pool(2);
    let meeting = Arc::new(WatchedReads::new(&dir, true));
    let array = open_array(Arc::clone(&meeting), "/").unwrap();
    let read = pool.install(|| array.retrieve_records::<Particle>(&[0..count]).unwrap());
    assert!(same(&read, &records));
    assert!(
        meeting.met.load(std::sync::atomic::Ordering::SeqCst),
        "the first shard was read alone"
    );
    // Both of the first two shards damaged: the error names the first.
    for shard in ["c/0", "c/1"] {
        std::fs::write(dir.join(shard), b"not a shard").unwrap();
    }
    let array = open_array(store(&dir), "/").unwrap();
    let error = pool
        .install(|| array.retrieve_records::<Particle>(&[0..count]))
        .unwrap_err();
    assert!(error.to_string().contains("c/0"), "{error}");
}

/// A read of shards read whole asks the store once for each, its index checked in what it
/// read (a read of each index first, to check it, was a request more a shard, in turn), and
/// once for a shard not stored, which is the fill value (it was asked for again through zarrs,
/// which would have trusted the index of a shard stored in between); a read of part of a
/// shard, which zarrs reads in ranges, still has the shard's index read and checked before
/// zarrs reads it. Uncompressed and compressed, on one and two threads.
#[test]
fn shards_read_whole_are_asked_for_once() {
    let count = 5 * 4_000u64;
    let records: Vec<Particle> = (0..count).map(particle).collect();
    for compression in [Compression::None, Compression::Zstd { level: 1 }] {
        let [dir, gone] = ["", "_gone"].map(|name| {
            let name = format!("asked_once_{compression:?}{name}");
            stored_particles(&name, count, 4_000, compression.clone()).0
        });
        std::fs::remove_file(gone.join("c").join("2")).unwrap();
        for threads in [1, 2] {
            let pool = thread_pool(threads);
            let watched = Arc::new(WatchedReads::new(&dir, false));
            let array = open_array(Arc::clone(&watched), "/").unwrap();
            let read = pool.install(|| array.retrieve_records::<Particle>(&[0..count]).unwrap());
            assert!(same(&read, &records));
            let mut reads = watched.reads.lock().unwrap().clone();
            reads.sort_by(|a, b| a.0.cmp(&b.0));
            let whole: Vec<(String, Vec<ByteRange>)> = (0..5)
                .map(|shard| (format!("c/{shard}"), vec![ByteRange::FromStart(0, None)]))
                .collect();
            assert_eq!(reads, whole, "{compression:?} on {threads} threads");
            // A shard not stored: asked for once too (not again through zarrs), the fill value.
            let watched = Arc::new(WatchedReads::new(&gone, false));
            let array = open_array(Arc::clone(&watched), "/").unwrap();
            let read = pool.install(|| array.retrieve_records::<Particle>(&[0..count]).unwrap());
            let expected: Vec<Particle> = records
                .iter()
                .enumerate()
                .map(|(i, record)| if i / 4_000 == 2 { fill() } else { *record })
                .collect();
            assert!(same(&read, &expected));
            let mut reads = watched.reads.lock().unwrap().clone();
            reads.sort_by(|a, b| a.0.cmp(&b.0));
            assert_eq!(
                reads, whole,
                "{compression:?} on {threads} threads, c/2 gone"
            );
            // Part of the second shard: its index read (and checked) first, then zarrs' reads.
            let watched = Arc::new(WatchedReads::new(&dir, false));
            let array = open_array(Arc::clone(&watched), "/").unwrap();
            let part = pool
                .install(|| array.retrieve_records::<Particle>(&[4_500..6_500]))
                .unwrap();
            assert!(same(&part, &records[4_500..6_500]));
            let reads = watched.reads.lock().unwrap().clone();
            assert!(reads.len() > 1, "{reads:?}");
            assert!(reads.iter().all(|(key, _)| key == "c/1"), "{reads:?}");
            assert!(
                matches!(reads[0].1[..], [ByteRange::Suffix(_)]),
                "the index first: {reads:?}"
            );
        }
    }
}

rusty_fork_test! {
    /// A read or write of a subset of many tiny chunks holds the chunks of a window or two at
    /// a time, not a plan of every chunk made up front (about 300 bytes a chunk: 30 MB for
    /// these 100 000, beside an output of 4.8 MB): whole records and one field read from
    /// chunks of one record none of which is stored (zarrs' in-memory store, which keeps
    /// nothing per key asked for), 1-D and 2-D, and the fill value written to them (each
    /// chunk of it erased, so the store holds nothing) within a megabyte beside the output.
    #[test]
    fn tiny_chunks_are_planned_a_window_at_a_time() {
        for shape in [vec![100_000u64], vec![250, 400]] {
            let count: u64 = shape.iter().product();
            let chunks = vec![1; shape.len()];
            let subset: Vec<Range<u64>> = shape.iter().map(|&extent| 0..extent).collect();
            let array = ArrayOptions::new(shape.clone(), chunks)
                .compression(Compression::None)
                .create(Arc::new(MemoryStore::new()), "/", &fill())
                .unwrap();
            let output = count as usize * std::mem::size_of::<Particle>();
            let (read, usage) =
                meter::measure(|| array.retrieve_records::<Particle>(&subset).unwrap());
            assert!(same(&read, &vec![fill(); count as usize]), "{shape:?}");
            eprintln!("{shape:?}, records: output {output} B, {usage:?}");
            assert!(usage.peak_bytes <= output + (1 << 20), "{shape:?}: {usage:?}");
            let (ids, usage) =
                meter::measure(|| array.retrieve_field::<u64>(&subset, &["id"]).unwrap());
            assert!(ids.iter().all(|&id| id == fill().id), "{shape:?}");
            eprintln!("{shape:?}, one field: {usage:?}");
            assert!(usage.peak_bytes <= count as usize * 8 + (1 << 20), "{shape:?}: {usage:?}");
            let (result, usage) = meter::measure(|| array.store_records(&subset, &read));
            result.unwrap();
            eprintln!("{shape:?}, write: {usage:?}");
            assert!(usage.peak_bytes <= 1 << 20, "{shape:?}: {usage:?}");
        }
    }
}

/// A write and a read of a 2-D subset in many windows of small chunks (edge chunks on every
/// side of it, written in part) give the records back, and zarrs reads what was written.
#[test]
fn a_subset_of_many_small_chunks_round_trips_window_by_window() {
    let array = ArrayOptions::new(vec![300, 70], vec![7, 3])
        .compression(Compression::None)
        .create(Arc::new(MemoryStore::new()), "/", &fill())
        .unwrap();
    let subset = ArraySubset::new_with_ranges(&[5..290, 2..69]);
    let count = subset.num_elements();
    let records: Vec<Particle> = (0..count).map(particle).collect();
    array.store_records(&subset, &records).unwrap();
    let back: Vec<Particle> = array.retrieve_records(&subset).unwrap();
    assert!(same(&back, &records));
    let by_zarrs: Vec<Particle> = array.retrieve_array_subset(&subset).unwrap();
    assert!(same(&by_zarrs, &records));
    // Around the subset, the fill value.
    let whole: Vec<Particle> = array.retrieve_records(&[0..300, 0..70]).unwrap();
    let outside = whole
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            let (row, column) = ((i / 70) as u64, (i % 70) as u64);
            !((5..290).contains(&row) && (2..69).contains(&column))
        })
        .map(|(_, record)| *record)
        .collect::<Vec<_>>();
    assert_eq!(outside.len(), 300 * 70 - count as usize);
    assert!(same(&outside, &vec![fill(); outside.len()]));
}

rusty_fork_test! {
    /// A write of whole uncompressed shards encodes each into a buffer its thread reuses, lays
    /// the shard out in that same buffer (the index after the elements) and gets it back from
    /// the store: on two threads, 16 shards allocate under three shards' bytes, one buffer per
    /// thread and the small things (zarrs' encoder allocates two shards' bytes for every shard,
    /// 32 here; a shard copied into a second buffer per thread, 4.6).
    #[test]
    fn a_whole_shard_write_reuses_its_buffers() {
        let dir = scratch("whole_shard_write_allocations");
        let count = 16 * 2_000u64;
        let array = ArrayOptions::new(vec![count], vec![500])
            .shards(vec![2_000])
            .compression(Compression::None)
            .create(store(&dir), "/", &fill())
            .unwrap();
        let records: Vec<Particle> = (0..count).map(particle).collect();
        let shard = 2_000 * 37;
        let pool = thread_pool(2);
        let ((), usage) = pool.install(|| {
            meter::measure(|| array.store_records(&[0..count], &records).unwrap())
        });
        eprintln!("shard {shard} B, allocated {usage:?}");
        assert!(usage.allocated_bytes <= 3 * shard, "{usage:?} against {} bytes", 3 * shard);
        let back: Vec<Particle> = array.retrieve_array_subset(&[0..count]).unwrap();
        assert!(same(&back, &records));
    }
}

rusty_fork_test! {
    /// A read of zstd chunks decodes each into the buffer of a chunk handed over before it,
    /// once there is one (two windows of a chunk a thread are decoded at once): 16 chunks on
    /// two threads allocate the output, the stored chunks and four decoded chunks at most, not
    /// 16 (3.0 MB here without the reuse, against a bound of 2.2); one field of them the same.
    #[test]
    fn a_compressed_read_decodes_into_buffers_it_reuses() {
        let dir = scratch("spare_buffers");
        let (chunks, per) = (16u64, 2_000u64);
        let count = chunks * per;
        let array = ArrayOptions::new(vec![count], vec![per])
            .compression(Compression::Zstd { level: 1 })
            .create(store(&dir), "/", &fill())
            .unwrap();
        let records: Vec<Particle> = (0..count).map(particle).collect();
        array.store_records(&[0..count], &records).unwrap();
        let stored: u64 = (0..chunks)
            .map(|chunk| std::fs::metadata(dir.join(format!("c/{chunk}"))).unwrap().len())
            .sum();
        let stored = usize::try_from(stored).unwrap();
        let chunk = usize::try_from(per).unwrap() * 37;
        let count_usize = usize::try_from(count).unwrap();
        let array = open_array(store(&dir), "/").unwrap();
        let pool = thread_pool(2);
        pool.install(|| {
            let (back, usage) =
                meter::measure(|| array.retrieve_records::<Particle>(&[0..count]).unwrap());
            assert!(same(&back, &records));
            let output = count_usize * std::mem::size_of::<Particle>();
            // Four decoded chunks at most, and two more of room for the small things.
            let bound = output + stored + 6 * chunk;
            eprintln!("records: {usage:?} against {bound}");
            assert!(usage.allocated_bytes <= bound, "{usage:?} against {bound}");
            let (ids, usage) =
                meter::measure(|| array.retrieve_field::<u64>(&[0..count], &["id"]).unwrap());
            assert!(ids.iter().zip(&records).all(|(id, record)| *id == record.id));
            let bound = count_usize * 8 + stored + 6 * chunk;
            eprintln!("field: {usage:?} against {bound}");
            assert!(usage.allocated_bytes <= bound, "{usage:?} against {bound}");
        });
    }
}

/// `Particle` with its `alive` as a `u8`: the same bytes, which can hold a `bool` of 2.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq, Default)]
struct ParticleWithByte {
    id: u64,
    pos: [f32; 3],
    mass: f64,
    alive: u8,
    at: Point,
}

/// `Particle`s `0..count`, written by zarrdt to a new one-dimensional array in shards of
/// `shard` records, inner chunks of 1 000, compressed by `compression`: its directory, and the
/// records.
fn stored_particles(
    name: &str,
    count: u64,
    shard: u64,
    compression: Compression,
) -> (PathBuf, Vec<Particle>) {
    let dir = scratch(name);
    let _ = std::fs::remove_dir_all(&dir);
    let array = ArrayOptions::new(vec![count], vec![1_000])
        .shards(vec![shard])
        .compression(compression)
        .create(store(&dir), "/", &fill())
        .unwrap();
    let records: Vec<Particle> = (0..count).map(particle).collect();
    array.store_records(&[0..count], &records).unwrap();
    (dir, records)
}

/// Two shards of six zstd inner chunks of `Particle`s (12 000 records), written by zarrdt,
/// then shard `c/0` with the record `bad` holding a `bool` of 2 (if any; written through
/// the twin type and copied over) and the zstd frame of its inner chunk `broken` made
/// unreadable (if any).
fn faulted_shards(
    name: &str,
    bad: Option<usize>,
    broken: Option<usize>,
) -> (PathBuf, Vec<Particle>) {
    const INNER: u64 = 1_000;
    const SHARD: u64 = 6_000;
    let count = 2 * SHARD;
    let options = || {
        ArrayOptions::new(vec![count], vec![INNER])
            .shards(vec![SHARD])
            .compression(Compression::Zstd { level: 1 })
    };
    let dir = scratch(name);
    let array = options().create(store(&dir), "/", &fill()).unwrap();
    let records: Vec<Particle> = (0..count).map(particle).collect();
    array.store_records(&[0..count], &records).unwrap();
    if let Some(bad) = bad {
        let subset = [0..count];
        copy_in_bad_bool(name, options(), &subset, &records, bad, &dir, "c/0");
    }
    if let Some(broken) = broken {
        break_frame(&dir.join("c/0"), 6, broken);
    }
    (dir, records)
}

/// Whether `error` is a `bool` of 2 in element `bad` of the output (of a read from the
/// array's origin, so its position in the array is in a stored chunk).
fn is_bool_2(error: &zarrdt::array::Error, bad: usize) -> bool {
    matches!(
        error,
        zarrdt::array::Error::InvalidElement {
            stored: true,
            source,
            ..
        } if matches!(**source, zarrdt::Error::InvalidElement {
            index,
            fault: zarrdt::advanced::ElementFault::InvalidBool(2),
            ..
        } if index == bad)
    )
}

/// A read that decodes compressed inner chunks as it comes to them reports the first fault in
/// the output's order, on any number of threads: a `bool` of 2 in an inner chunk before a
/// broken zstd frame in a later one, in the same batch of inner chunks decoded together or
/// not (decoded whole when fetched, the shard reported the frame); the frame alone names the
/// shard's key, for records and one field; a vector read into keeps what it held.
#[test]
fn compressed_inner_chunks_decoded_as_read_report_the_first_fault() {
    for (bool_in, frame_in) in [(3, 5), (4, 5), (2, 3)] {
        let bad = bool_in * 1_000 + 17;
        let name = format!("faults_as_read_{bool_in}_{frame_in}");
        let (dir, _) = faulted_shards(&name, Some(bad), Some(frame_in));
        let array = open_array(store(&dir), "/").unwrap();
        for threads in [1, 2, 3] {
            let pool = thread_pool(threads);
            pool.install(|| {
                let error = array
                    .retrieve_records::<Particle>(&[0..12_000])
                    .unwrap_err();
                assert!(
                    is_bool_2(&error, bad),
                    "{name}, {threads} threads: {error:?}"
                );
                // Into a vector: it keeps what it held (and possibly some records after it).
                let mut kept = vec![fill(); 3];
                let error = array
                    .retrieve_records_into::<Particle>(&[0..12_000], &mut kept)
                    .unwrap_err();
                assert!(
                    is_bool_2(&error, bad),
                    "{name}, {threads} threads: {error:?}"
                );
                assert!(kept.len() >= 3 && same(&kept[..3], &[fill(); 3]));
            });
        }
    }
    // The frame alone: the error names the shard and the inner chunk; the other shard reads.
    let (dir, records) = faulted_shards("faults_as_read_frame", None, Some(5));
    let array = open_array(store(&dir), "/").unwrap();
    let pool = thread_pool(2);
    pool.install(|| {
        let error = array
            .retrieve_records::<Particle>(&[0..12_000])
            .unwrap_err();
        assert!(
            matches!(&error, zarrdt::array::Error::InnerChunk { key, inner, .. }
                if key == "c/0" && inner == &[5]),
            "{error:?}"
        );
        let error = array
            .retrieve_field::<u64>(&[0..12_000], &["id"])
            .unwrap_err();
        assert!(
            matches!(&error, zarrdt::array::Error::InnerChunk { key, inner, .. }
                if key == "c/0" && inner == &[5]),
            "{error:?}"
        );
        let back: Vec<Particle> = array.retrieve_records(&[6_000..12_000]).unwrap();
        assert!(same(&back, &records[6_000..]));
    });
}

/// A damaged shard index is reported in the output's order, on any number of threads, whether
/// the shard is read whole (its index checked in the bytes read) or in part (its index read
/// and checked before zarrs reads it, in its turn): shard `c/0` read whole before `c/1` read in
/// part, both damaged, reports `c/0`; `c/1` alone damaged reports `c/1`. (Checked in a pass of
/// their own before the read, the index of the shard read in part was reported first.)
#[test]
fn a_damaged_shard_index_is_reported_in_the_output_order() {
    let count = 3 * 4_000u64;
    for damaged in [&["c/0", "c/1"][..], &["c/1"][..]] {
        let name = format!("index_fault_order_{}", damaged.len());
        let (dir, _) = stored_particles(&name, count, 4_000, Compression::Zstd { level: 1 });
        for shard in damaged {
            std::fs::write(dir.join(shard), b"not a shard").unwrap();
        }
        let array = open_array(store(&dir), "/").unwrap();
        for threads in [1, 2, 3] {
            let pool = thread_pool(threads);
            let error = pool
                .install(|| array.retrieve_records::<Particle>(&[0..6_000]))
                .unwrap_err();
            assert!(
                matches!(&error, zarrdt::array::Error::Shard { key, .. } if key == damaged[0]),
                "{damaged:?} on {threads} threads: {error:?}"
            );
        }
    }
}

/// The first fault in the output's order is the one reported when a later chunk cannot even be
/// fetched, on any number of threads: a `bool` of 2 in chunk `c/0` before a broken zstd frame in
/// `c/1`; a broken frame in shard `c/0` (one inner chunk, decoded as the read comes to it)
/// before a broken frame in the edge shard `c/1` (read in part, decoded when fetched). On two
/// threads and more both units are fetched together; the later one's failure was reported
/// before the earlier one was handed over.
#[test]
fn a_chunk_that_fails_to_fetch_does_not_hide_an_earlier_fault() {
    let break_start = |path: &std::path::Path| {
        let mut stored = std::fs::read(path).unwrap();
        stored[..4].copy_from_slice(b"oops");
        std::fs::write(path, &stored).unwrap();
    };
    let read_on = |array: &Array<FilesystemStore>, count: u64, threads: usize| {
        let pool = thread_pool(threads);
        pool.install(|| {
            let records = array.retrieve_records::<Particle>(&[0..count]).unwrap_err();
            let field = array
                .retrieve_field::<u64>(&[0..count], &["id"])
                .unwrap_err();
            (records, field)
        })
    };
    // Chunks: a bool of 2 in `c/0`, `c/1` unreadable.
    let bad = 417;
    let options =
        || ArrayOptions::new(vec![2_000], vec![1_000]).compression(Compression::Zstd { level: 1 });
    let dir = scratch("fetch_fault_order_chunks");
    let array = options().create(store(&dir), "/", &fill()).unwrap();
    let records: Vec<Particle> = (0..2_000).map(particle).collect();
    array.store_records(&[0..2_000], &records).unwrap();
    let subset = [0..2_000];
    copy_in_bad_bool(
        "fetch_fault_order_chunks",
        options(),
        &subset,
        &records,
        bad,
        &dir,
        "c/0",
    );
    break_start(&dir.join("c/1"));
    let array = open_array(store(&dir), "/").unwrap();
    for threads in [1, 2, 3] {
        let (records, field) = read_on(&array, 2_000, threads);
        assert!(is_bool_2(&records, bad), "{threads} threads: {records:?}");
        // The field holds no `bool`: the frame of `c/1` is its first fault.
        assert!(
            matches!(&field, zarrdt::array::Error::Chunk { key, .. } if key == "c/1"),
            "{threads} threads: {field:?}"
        );
    }
    // Shards of one inner chunk: `c/0`'s frame broken, and that of the edge shard `c/1`.
    let count = 1_400;
    let (dir, _) = stored_particles(
        "fetch_fault_order_shards",
        count,
        1_000,
        Compression::Zstd { level: 1 },
    );
    break_frame(&dir.join("c/0"), 1, 0);
    break_frame(&dir.join("c/1"), 1, 0);
    let array = open_array(store(&dir), "/").unwrap();
    for threads in [1, 2, 3] {
        let (records, field) = read_on(&array, count, threads);
        for error in [records, field] {
            assert!(
                matches!(&error, zarrdt::array::Error::InnerChunk { key, inner, .. }
                    if key == "c/0" && inner == &[0]),
                "{threads} threads: {error:?}"
            );
        }
    }
}

/// `records` written to a new array of `options` (at `subset`) through the twin type, the
/// record `bad` (its number in `records`) holding a `bool` of 2, and that array's `shard`
/// copied over the one in `dir`.
fn copy_in_bad_bool(
    name: &str,
    options: ArrayOptions,
    subset: &[Range<u64>],
    records: &[Particle],
    bad: usize,
    dir: &std::path::Path,
    shard: &str,
) {
    let twin_dir = scratch(&format!("{name}_twin"));
    let twin = options
        .create(store(&twin_dir), "/", &ParticleWithByte::default())
        .unwrap();
    let twins: Vec<ParticleWithByte> = records
        .iter()
        .enumerate()
        .map(|(number, record)| ParticleWithByte {
            id: record.id,
            pos: record.pos,
            mass: record.mass,
            alive: if number == bad {
                2
            } else {
                u8::from(record.alive)
            },
            at: record.at,
        })
        .collect();
    twin.store_records(&subset, &twins).unwrap();
    std::fs::copy(twin_dir.join(shard), dir.join(shard)).unwrap();
}

/// Two shards side by side (8 × 12 `Particle`s in shards of 4 × 6, zstd tiles of 2 × 3, two
/// rows of two tiles each), written by zarrdt, then the record at `bad` (row, column) holding a
/// `bool` of 2 (if any; written through the twin type and its shard copied over) and the zstd
/// frame of tile `broken.1` of shard `broken.0` made unreadable (if any).
fn faulted_tiles(name: &str, bad: Option<(u64, u64)>, broken: Option<(&str, usize)>) -> PathBuf {
    let options = || {
        ArrayOptions::new(vec![8, 12], vec![2, 3])
            .shards(vec![4, 6])
            .compression(Compression::Zstd { level: 1 })
    };
    let dir = scratch(name);
    let array = options().create(store(&dir), "/", &fill()).unwrap();
    let records: Vec<Particle> = (0..96).map(particle).collect();
    array.store_records(&[0..8, 0..12], &records).unwrap();
    if let Some((row, column)) = bad {
        let shard = format!("c/{}/{}", row / 4, column / 6);
        let bad = (row * 12 + column) as usize;
        copy_in_bad_bool(name, options(), &[0..8, 0..12], &records, bad, &dir, &shard);
    }
    if let Some((shard, tile)) = broken {
        break_frame(&dir.join(shard), 4, tile);
    }
    dir
}

/// A read of tiles reports the first fault in the output's order, on any number of threads,
/// though it decodes the next band of tiles (in both shards of a row) while handing this one
/// over: a broken frame in the right shard's first tile comes at element 6, before a `bool` of
/// 2 in the left one's second row (element 17) and after one at element 4; a frame in the
/// second band, decoded ahead, after a `bool` in the first; a `bool` in the right shard before
/// a frame in the left one's second band.
#[test]
fn tiles_decoded_as_read_report_the_first_fault() {
    // Tile `number` of `shard` (two rows of two tiles a shard, C order) is broken.
    let is_frame = |error: &zarrdt::array::Error, (shard, number): (&str, usize)| {
        let tile = [number as u64 / 2, number as u64 % 2];
        matches!(error, zarrdt::array::Error::InnerChunk { key, inner, .. }
            if key == shard && inner == &tile)
    };
    // (bad record, broken tile, whether the frame comes first)
    for (bad, broken, frame_first) in [
        ((1, 5), ("c/0/1", 0), true),
        ((0, 4), ("c/0/1", 0), false),
        ((1, 2), ("c/0/1", 2), false),
        ((1, 7), ("c/0/0", 3), false),
        ((3, 1), ("c/0/1", 1), true),
    ] {
        let name = format!(
            "tile_faults_{}_{}_{}_{}",
            bad.0,
            bad.1,
            &broken.0[4..],
            broken.1
        );
        let dir = faulted_tiles(&name, Some(bad), Some(broken));
        let array = open_array(store(&dir), "/").unwrap();
        for threads in [1, 2, 3] {
            let pool = thread_pool(threads);
            pool.install(|| {
                let error = array
                    .retrieve_records::<Particle>(&[0..8, 0..12])
                    .unwrap_err();
                let reported = if frame_first {
                    is_frame(&error, broken)
                } else {
                    is_bool_2(&error, (bad.0 * 12 + bad.1) as usize)
                };
                assert!(reported, "{name}, {threads} threads: {error:?}");
                // The field with the bad `bool`, its tiles cut to it as they are decoded: the
                // same fault, named in the record's terms (index, byte offset, field).
                let field = array
                    .retrieve_field::<bool>(&[0..8, 0..12], &["alive"])
                    .unwrap_err();
                if frame_first {
                    assert!(is_frame(&field, broken), "{name}: {field:?}");
                } else {
                    assert_eq!(
                        field.to_string(),
                        error.to_string(),
                        "{name}, {threads} threads"
                    );
                }
            });
        }
    }
    // The frame alone, in one field: the error names the shard and the tile; the rows of
    // shards after it read.
    let dir = faulted_tiles("tile_faults_frame", None, Some(("c/0/1", 3)));
    let array = open_array(store(&dir), "/").unwrap();
    let error = array
        .retrieve_field::<u64>(&[0..8, 0..12], &["id"])
        .unwrap_err();
    assert!(is_frame(&error, ("c/0/1", 3)), "{error:?}");
    let ids: Vec<u64> = array.retrieve_field(&[4..8, 0..12], &["id"]).unwrap();
    assert_eq!(ids, (48..96).map(|i| particle(i).id).collect::<Vec<u64>>());
}

/// An inner chunk a read never comes to is no error, on any number of threads, as with zarrs:
/// the array shrunk to 7 000 records after an inner chunk of its last shard that now lies
/// beyond the end (its sixth) was broken; the read decodes inner chunks a batch at a time,
/// and one batch reaches past the end.
#[test]
fn an_inner_chunk_beyond_the_end_is_no_error() {
    let (dir, records) = faulted_shards("faults_beyond_the_end", None, None);
    break_frame(&dir.join("c/1"), 6, 5);
    let metadata_path = dir.join("zarr.json");
    let mut metadata: Json =
        serde_json::from_slice(&std::fs::read(&metadata_path).unwrap()).unwrap();
    metadata["shape"] = json!([7_000]);
    std::fs::write(&metadata_path, serde_json::to_vec(&metadata).unwrap()).unwrap();
    let array = open_array(store(&dir), "/").unwrap();
    let zarrs: Vec<Particle> = array.retrieve_array_subset(&[0..7_000]).unwrap();
    assert!(same(&zarrs, &records[..7_000]));
    for threads in [1, 2, 6] {
        let pool = thread_pool(threads);
        pool.install(|| {
            let read: Vec<Particle> = array.retrieve_records(&[0..7_000]).unwrap();
            assert!(same(&read, &records[..7_000]), "{threads} threads");
            let ids: Vec<u64> = array.retrieve_field(&[0..7_000], &["id"]).unwrap();
            assert!(
                ids.iter()
                    .zip(&records)
                    .all(|(id, record)| *id == record.id)
            );
        });
    }
}

/// The sizes of the files under `dir`.
fn file_sizes(dir: &std::path::Path) -> Vec<u64> {
    std::fs::read_dir(dir)
        .unwrap()
        .flat_map(|entry| {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                file_sizes(&entry.path())
            } else {
                vec![entry.metadata().unwrap().len()]
            }
        })
        .collect()
}

/// Breaks the zstd frame of inner chunk `number` of the shard at `path` (of `chunks` inner
/// chunks, its index at the end): its first four bytes overwritten.
fn break_frame(path: &std::path::Path, chunks: usize, number: usize) {
    let mut stored = std::fs::read(path).unwrap();
    let (offset, _) = index_at_end(&stored, chunks)[number];
    stored[offset as usize..offset as usize + 4].copy_from_slice(b"oops");
    std::fs::write(path, &stored).unwrap();
}

/// A shard whose index is at its start (`"index_location": "start"`) reads whole as zarrs reads
/// it.
#[test]
fn whole_shards_with_the_index_first_read_as_zarrs_reads_them() {
    let dir = scratch("split_index_first");
    ArrayOptions::new(vec![103], vec![5])
        .shards(vec![20])
        .create(store(&dir), "/", &fill())
        .unwrap();
    let path = dir.join("zarr.json");
    let mut metadata: Json = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let sharding = metadata["codecs"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|codec| codec["name"] == "sharding_indexed")
        .unwrap();
    sharding["configuration"]["index_location"] = json!("start");
    std::fs::write(&path, serde_json::to_vec(&metadata).unwrap()).unwrap();
    let array = open_array(store(&dir), "/").unwrap();
    for range in [7..33, 60..80, 95..103] {
        let records: Vec<Particle> = range.clone().map(particle).collect();
        array.store_records(&[range], &records).unwrap();
    }
    let shard = std::fs::read(dir.join("c/3")).unwrap();
    // The index first: the inner chunks (in whatever order zarrs wrote them) begin right after
    // it, at its own size (4 entries of 16 bytes and a crc32c of 4).
    let first = (0..4)
        .map(|entry| {
            let at = entry * 16;
            u64::from_le_bytes(shard[at..at + 8].try_into().unwrap())
        })
        .min();
    assert_eq!(first, Some(68), "index first");
    let subsets: Vec<Vec<Range<u64>>> = [0..103, 0..20, 60..80, 100..103, 18..62]
        .into_iter()
        .map(|range| vec![range])
        .collect();
    reads_as_zarrs_reads("split_index_first", &array, &subsets);
}

/// The `(offset, size)` pairs of the index at the end of a stored shard of `chunks` inner
/// chunks (an index of 16 bytes per chunk and a crc32c of 4).
fn index_at_end(shard: &[u8], chunks: usize) -> Vec<(u64, u64)> {
    let index = &shard[shard.len() - 16 * chunks - 4..];
    (0..chunks)
        .map(|entry| {
            let word = |at: usize| u64::from_le_bytes(index[at..at + 8].try_into().unwrap());
            (word(16 * entry), word(16 * entry + 8))
        })
        .collect()
}

/// A whole shard is written by zarrdt: its inner chunks in C order right after one another,
/// those that are all the fill value left out, a shard of nothing but the fill value not
/// stored at all, the same bytes every time the same records are written (zarrs' encoder
/// lays inner chunks out in an order that varies); zarrs reads back what was written.
#[test]
fn whole_shards_are_written_in_order_without_empty_inner_chunks() {
    let dir = scratch("shard_writes");
    let array = ArrayOptions::new(vec![60], vec![5])
        .shards(vec![20])
        .compression(Compression::None)
        .create(store(&dir), "/", &fill())
        .unwrap();
    // Shard 0: inner chunk 1 (5..10) all fill; shard 1 all fill; shard 2 all records.
    let mut records: Vec<Particle> = (0..60).map(particle).collect();
    records[5..10].copy_from_slice(&[fill(); 5]);
    records[20..40].copy_from_slice(&[fill(); 20]);
    array.store_records(&[0..60], &records).unwrap();
    let inner = 5 * 37;
    let shard = std::fs::read(dir.join("c/0")).unwrap();
    let max = u64::MAX;
    assert_eq!(
        index_at_end(&shard, 4),
        [(0, inner), (max, max), (inner, inner), (2 * inner, inner)]
    );
    assert_eq!(shard.len() as u64, 3 * inner + 4 * 16 + 4);
    assert!(
        !dir.join("c/1").exists(),
        "a shard of the fill value is not stored"
    );
    let full = std::fs::read(dir.join("c/2")).unwrap();
    assert_eq!(
        index_at_end(&full, 4),
        [
            (0, inner),
            (inner, inner),
            (2 * inner, inner),
            (3 * inner, inner)
        ]
    );
    let back: Vec<Particle> = array.retrieve_array_subset(&[0..60]).unwrap();
    assert!(same(&back, &records));
    // Writing again gives the same bytes; a shard rewritten as the fill value is erased.
    array.store_records(&[0..60], &records).unwrap();
    assert_eq!(std::fs::read(dir.join("c/0")).unwrap(), shard);
    array.store_records(&[40..60], &[fill(); 20]).unwrap();
    assert!(
        !dir.join("c/2").exists(),
        "a shard rewritten as the fill value is erased"
    );
    let back: Vec<Particle> = array.retrieve_array_subset(&[0..60]).unwrap();
    records[40..60].copy_from_slice(&[fill(); 20]);
    assert!(same(&back, &records));
}

/// A zero-dimensional sharded array (one element) is written and read as zarrs writes and reads
/// it.
#[test]
fn a_zero_dimensional_sharded_array_reads_and_writes() {
    let dir = scratch("sharded_0d");
    let array = ArrayOptions::new(vec![], vec![])
        .shards(vec![])
        .create(store(&dir), "/", &fill())
        .unwrap();
    let empty: [Range<u64>; 0] = [];
    let subset = ArraySubset::new_with_ranges(&empty);
    let before: Vec<Particle> = array.retrieve_records(&subset).unwrap();
    assert!(same(&before, &[fill()]));
    array.store_records(&subset, &[particle(7)]).unwrap();
    let ours: Vec<Particle> = array.retrieve_records(&subset).unwrap();
    let theirs: Vec<Particle> = array.retrieve_array_subset(&subset).unwrap();
    assert!(same(&ours, &[particle(7)]) && same(&theirs, &[particle(7)]));
}

/// A fieldless enum stored as its `i16` discriminant.
#[derive(zarrdt::ZarrEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(i16)]
enum Phase {
    #[default]
    Solid,
    Liquid = -3,
    Gas = 300,
}

/// A field of every kind the derive takes: `bool`, every integer and float, complex numbers,
/// `char`, text, bytes, raw bytes, times, an enum, a nested struct and subarrays.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Kinds {
    scalars: AllScalars,
    letter: char,
    name: FixedString<3>,
    bytes: ByteString<4>,
    raw: RawBytes<3>,
    at: DateTime64<Nanoseconds>,
    took: TimeDelta64<Milliseconds>,
    phase: Phase,
    point: Point,
    grid: [[i16; 2]; 3],
    flags: [bool; 2],
}

fn kinds(i: u64) -> Kinds {
    let n = i as i64;
    let f = i as f32;
    Kinds {
        scalars: AllScalars {
            b: i % 3 == 1,
            i8: (n % 200 - 100) as i8,
            i16: (n * 77 - 3000) as i16,
            i32: -(n as i32) * 65_537,
            i64: n * -1_000_000_007,
            u8: (i % 251) as u8,
            u16: (i * 263) as u16,
            u32: (i as u32).wrapping_mul(2_654_435_761),
            u64: i.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            f16: half::f16::from_f32(f / 8.0),
            f32: if i.is_multiple_of(5) {
                f32::NAN
            } else {
                -f * 1.25
            },
            f64: f64::from_bits(0x7ff0_0000_0000_0001 + i % 4),
            c64: num_complex::Complex::new(f, -f),
            c128: num_complex::Complex::new(f64::NEG_INFINITY, i as f64 / 3.0),
        },
        letter: ['a', 'é', '\0', '😀'][(i % 4) as usize],
        name: FixedString::new(["", "x", "πρ", "abc"][(i % 4) as usize]).unwrap(),
        bytes: ByteString::new(&[b'k', (i % 256) as u8, 0, 7][..(i % 5) as usize]).unwrap(),
        raw: RawBytes::new([i as u8, 0xff, (i >> 8) as u8]),
        at: DateTime64::new(n * 1_000_000_007 - 5),
        took: TimeDelta64::new(-n * 3),
        phase: [Phase::Solid, Phase::Liquid, Phase::Gas][(i % 3) as usize],
        point: Point { x: f, y: -0.0 },
        grid: [[n as i16, -1], [2, (n * 3) as i16], [i16::MIN, i16::MAX]],
        flags: [i.is_multiple_of(2), i.is_multiple_of(7)],
    }
}

fn kinds_fill() -> Kinds {
    Kinds {
        letter: 'z',
        name: FixedString::new("∅").unwrap(),
        phase: Phase::Gas,
        flags: [true, false],
        ..kinds(12_345)
    }
}

/// Bit-exact equality of any records (floats by bits).
fn same_bytes<T: ZarrType>(a: &[T], b: &[T]) -> bool {
    T::encode_slice(a, Endian::Little) == T::encode_slice(b, Endian::Little)
}

/// Records of every field kind move through zarrdt's reads and writes as through zarrs' own:
/// unsharded and sharded (whole shards laid out in place and copied, an edge shard, missing
/// chunks and inner chunks), both byte orders, compressed and not, 1-D and 2-D; what zarrdt writes zarrs
/// reads and the other way round, and one field of each kind reads as the records' field.
#[test]
fn every_field_kind_moves_as_zarrs_moves_it() {
    let layouts = [
        (
            "kinds_plain",
            ArrayOptions::new(vec![50], vec![8]).compression(Compression::None),
        ),
        (
            "kinds_big_zstd",
            ArrayOptions::new(vec![50], vec![8])
                .endian(Endian::Big)
                .compression(Compression::Zstd { level: 1 }),
        ),
        (
            // Chunk 0 never written: read as the fill value (through zarrs) in the same read
            // as chunks decoded from their stored big-endian bytes.
            "kinds_big_missing_chunk",
            ArrayOptions::new(vec![50], vec![2])
                .endian(Endian::Big)
                .compression(Compression::None),
        ),
        (
            "kinds_sharded",
            ArrayOptions::new(vec![50], vec![5])
                .shards(vec![20])
                .compression(Compression::None),
        ),
        (
            "kinds_sharded_big_zstd",
            ArrayOptions::new(vec![50], vec![5])
                .shards(vec![20])
                .endian(Endian::Big)
                .compression(Compression::Zstd { level: 1 }),
        ),
        (
            "kinds_2d_tiles",
            ArrayOptions::new(vec![10, 7], vec![2, 2])
                .shards(vec![4, 4])
                .compression(Compression::None),
        ),
        (
            "kinds_2d_big_tiles",
            ArrayOptions::new(vec![10, 7], vec![2, 2])
                .shards(vec![4, 4])
                .endian(Endian::Big)
                .compression(Compression::None),
        ),
        (
            "kinds_2d_big_chunks",
            ArrayOptions::new(vec![10, 7], vec![3, 2])
                .endian(Endian::Big)
                .compression(Compression::Zstd { level: 1 }),
        ),
    ];
    // On two threads, whatever the machine's: the sharded zstd layout's four inner chunks a
    // shard are then decoded as the read comes to them (one a thread at a time).
    let pool = thread_pool(2);
    pool.install(|| {
        for (name, options) in layouts {
            let dir = scratch(name);
            let array = options.create(store(&dir), "/", &kinds_fill()).unwrap();
            let shape = array.shape().to_vec();
            let all: Vec<Range<u64>> = shape.iter().map(|&extent| 0..extent).collect();
            let count: u64 = shape.iter().product();
            let cols = if shape.len() == 2 { shape[1] } else { 1 };
            // zarrdt writes most of it (whole chunks and shards, parts of the ones at its ends),
            // leaving the start unwritten.
            let ours: Vec<Range<u64>> = if shape.len() == 2 {
                vec![1..10, 0..7]
            } else {
                vec![3..50]
            };
            let subset = ArraySubset::new_with_ranges(&ours);
            let mut expected = vec![kinds_fill(); count as usize];
            let mut written = Vec::new();
            for index in subset.indices().iter() {
                let at = if shape.len() == 2 {
                    index[0] * cols + index[1]
                } else {
                    index[0]
                };
                expected[at as usize] = kinds(at);
                written.push(kinds(at));
            }
            array.store_records(&subset, &written).unwrap();
            let theirs: Vec<Kinds> = array.retrieve_array_subset(&all).unwrap();
            assert!(
                same_bytes(&theirs, &expected),
                "{name}: zarrs reads what zarrdt wrote"
            );
            let read: Vec<Kinds> = array.retrieve_records(&all).unwrap();
            assert!(same_bytes(&read, &expected), "{name}: zarrdt reads it back");
            // One field of each kind, as the records have it.
            fn field<T: ZarrType + Send>(
                array: &Array<FilesystemStore>,
                all: &[Range<u64>],
                path: &[&str],
                expected: Vec<T>,
                name: &str,
            ) {
                let read: Vec<T> = array.retrieve_field(&all.to_vec(), path).unwrap();
                assert!(same_bytes(&read, &expected), "{name}: field {path:?}");
            }
            let scalars: Vec<AllScalars> = expected.iter().map(|r| r.scalars).collect();
            field(
                &array,
                &all,
                &["scalars", "c128"],
                scalars.iter().map(|s| s.c128).collect(),
                name,
            );
            field(
                &array,
                &all,
                &["scalars", "b"],
                scalars.iter().map(|s| s.b).collect(),
                name,
            );
            field(
                &array,
                &all,
                &["scalars", "f16"],
                scalars.iter().map(|s| s.f16).collect(),
                name,
            );
            field(
                &array,
                &all,
                &["scalars", "u64"],
                scalars.iter().map(|s| s.u64).collect(),
                name,
            );
            field(&array, &all, &["scalars"], scalars, name);
            field(
                &array,
                &all,
                &["letter"],
                expected.iter().map(|r| r.letter).collect(),
                name,
            );
            field(
                &array,
                &all,
                &["name"],
                expected.iter().map(|r| r.name).collect(),
                name,
            );
            field(
                &array,
                &all,
                &["bytes"],
                expected.iter().map(|r| r.bytes).collect(),
                name,
            );
            field(
                &array,
                &all,
                &["raw"],
                expected.iter().map(|r| r.raw).collect(),
                name,
            );
            field(
                &array,
                &all,
                &["at"],
                expected.iter().map(|r| r.at).collect(),
                name,
            );
            field(
                &array,
                &all,
                &["took"],
                expected.iter().map(|r| r.took).collect(),
                name,
            );
            field(
                &array,
                &all,
                &["phase"],
                expected.iter().map(|r| r.phase).collect(),
                name,
            );
            field(
                &array,
                &all,
                &["point", "y"],
                expected.iter().map(|r| r.point.y).collect(),
                name,
            );
            field(
                &array,
                &all,
                &["grid"],
                expected.iter().map(|r| r.grid).collect(),
                name,
            );
            field(
                &array,
                &all,
                &["flags"],
                expected.iter().map(|r| r.flags).collect(),
                name,
            );
            // zarrs writes the start (and over part of what zarrdt wrote); zarrdt reads it.
            let start: Vec<Range<u64>> = if shape.len() == 2 {
                vec![0..3, 2..7]
            } else {
                vec![0..9]
            };
            let subset = ArraySubset::new_with_ranges(&start);
            let mut block = Vec::new();
            for index in subset.indices().iter() {
                let at = if shape.len() == 2 {
                    index[0] * cols + index[1]
                } else {
                    index[0]
                };
                expected[at as usize] = kinds(at + 1_000);
                block.push(kinds(at + 1_000));
            }
            array.store_array_subset(&subset, &block).unwrap();
            let read: Vec<Kinds> = array.retrieve_records(&all).unwrap();
            assert!(
                same_bytes(&read, &expected),
                "{name}: zarrdt reads what zarrs wrote"
            );
            let part: Vec<Range<u64>> = if shape.len() == 2 {
                vec![2..9, 1..6]
            } else {
                vec![7..44]
            };
            let ours: Vec<Kinds> = array.retrieve_records(&part).unwrap();
            let theirs: Vec<Kinds> = array.retrieve_array_subset(&part).unwrap();
            assert!(
                same_bytes(&ours, &theirs),
                "{name}: a part, as zarrs reads it"
            );
        }
    });
}

/// Chunks of more than a MiB are decoded by both threads, records and one field, from either
/// byte order as stored (a big-endian chunk is decoded from its stored bytes): they read as
/// zarrs reads them, unsharded and sharded, and a bad `bool` in the middle of a chunk is named
/// by its index in the output, whichever the order.
#[test]
fn large_chunks_decode_on_both_threads_from_either_byte_order() {
    // 30 000 records of 37 bytes: 1.11 MB a chunk, past the 1 MiB a run needs to be decoded
    // by all threads; 65 000 records, so the last chunk (and shard) is an edge one.
    let (count, chunk) = (65_000u64, 30_000u64);
    let records: Vec<Particle> = (0..count).map(particle).collect();
    let pool = thread_pool(2);
    let mut errors = Vec::new();
    for endian in [Endian::Little, Endian::Big] {
        let plain = ArrayOptions::new(vec![count], vec![chunk])
            .endian(endian)
            .compression(Compression::None);
        let layouts = [
            ("plain", plain.clone()),
            ("sharded", plain.clone().shards(vec![2 * chunk])),
        ];
        for (name, options) in layouts {
            let name = format!("large_chunks_{name}_{endian:?}");
            let dir = scratch(&name);
            let array = options.create(store(&dir), "/", &fill()).unwrap();
            array.store_records(&[0..count], &records).unwrap();
            let array = open_array(store(&dir), "/").unwrap();
            pool.install(|| {
                reads_as_zarrs_reads(&name, &array, &[vec![0..count]]);
            });
        }
        // `alive` (byte 28) of record 12 345 of chunk c/1: record 42 345 of the array.
        let dir = scratch(&format!("large_chunks_bad_bool_{endian:?}"));
        let array = plain.create(store(&dir), "/", &fill()).unwrap();
        array.store_records(&[0..count], &records).unwrap();
        let file = dir.join("c").join("1");
        let mut bytes = std::fs::read(&file).unwrap();
        bytes[12_345 * 37 + 28] = 2;
        std::fs::write(&file, bytes).unwrap();
        let array = open_array(store(&dir), "/").unwrap();
        let (records_error, field_error) = pool.install(|| {
            (
                array.retrieve_records::<Particle>(&[0..count]).unwrap_err(),
                array
                    .retrieve_field::<bool>(&[0..count], &["alive"])
                    .unwrap_err(),
            )
        });
        for error in [&records_error, &field_error] {
            assert!(
                matches!(
                    error,
                    zarrdt::array::Error::InvalidElement {
                        position,
                        source,
                        ..
                    } if position == &[42_345] && matches!(**source, zarrdt::Error::InvalidElement {
                        index: 42_345,
                        offset,
                        ..
                    } if offset == 42_345 * 37 + 28)
                ),
                "{endian:?}: {error:?}"
            );
        }
        errors.push((records_error.to_string(), field_error.to_string()));
    }
    assert_eq!(errors[0], errors[1], "both orders fail alike");
}

/// Random layouts read as zarrs reads them: one to three dimensions, each an extent, an inner
/// chunk and a shard of one to four inner chunks (edges in every dimension, shards wider than
/// the array, tiles and inner chunks as wide as the shard), zstd or uncompressed, either byte
/// order, a few boxes written (the rest missing), and subsets from whole shards to single
/// elements; on one, two and three threads.
mod random_layouts {
    use super::*;
    use proptest::prelude::*;

    /// One dimension: (extent, inner chunk, shard).
    fn dimension(inner_max: u64) -> impl Strategy<Value = (u64, u64, u64)> {
        (1..=inner_max, 1u64..=4).prop_flat_map(|(inner, per_shard)| {
            let shard = inner * per_shard;
            (1..=3 * shard).prop_map(move |extent| (extent, inner, shard))
        })
    }

    /// A box within `shape`.
    fn region(shape: Vec<u64>) -> impl Strategy<Value = Vec<Range<u64>>> {
        shape
            .into_iter()
            .map(|extent| (0..extent).prop_flat_map(move |start| (Just(start), 1..=extent - start)))
            .collect::<Vec<_>>()
            .prop_map(|bounds| {
                bounds
                    .into_iter()
                    .map(|(start, len)| start..start + len)
                    .collect()
            })
    }

    /// An array's layout, whether it is compressed and big-endian, the boxes written and the
    /// subsets read.
    #[allow(clippy::type_complexity)]
    fn case() -> impl Strategy<
        Value = (
            Vec<(u64, u64, u64)>,
            bool,
            bool,
            Vec<Vec<Range<u64>>>,
            Vec<Vec<Range<u64>>>,
        ),
    > {
        (1usize..=3)
            .prop_flat_map(|dimensions| {
                let inner_max = if dimensions == 1 { 6 } else { 3 };
                prop::collection::vec(dimension(inner_max), dimensions)
            })
            .prop_flat_map(|layout| {
                let shape: Vec<u64> = layout.iter().map(|&(extent, _, _)| extent).collect();
                (
                    Just(layout),
                    any::<bool>(),
                    any::<bool>(),
                    prop::collection::vec(region(shape.clone()), 1..=4),
                    prop::collection::vec(region(shape), 1..=5),
                )
            })
    }

    proptest! {
        #![proptest_config(crate::common::random::config_of(48))]
        #[test]
        fn random_layouts_read_as_zarrs_reads_them(
            (layout, compressed, big, written, mut subsets) in case()
        ) {
            let shape: Vec<u64> = layout.iter().map(|&(extent, _, _)| extent).collect();
            let inner: Vec<u64> = layout.iter().map(|&(_, inner, _)| inner).collect();
            let shards: Vec<u64> = layout.iter().map(|&(_, _, shard)| shard).collect();
            let dir = scratch(&format!("random_layout_{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            let array = ArrayOptions::new(shape.clone(), inner.clone())
                .shards(shards.clone())
                .compression(if compressed {
                    Compression::Zstd { level: 1 }
                } else {
                    Compression::None
                })
                .endian(if big { Endian::Big } else { Endian::Little })
                .create(store(&dir), "/", &fill())
                .unwrap();
            let mut next = 0;
            for region in &written {
                let count: u64 = region.iter().map(|range| range.end - range.start).product();
                let records: Vec<Particle> = (next..next + count).map(particle).collect();
                next += count;
                array.store_records(region, &records).unwrap();
            }
            subsets.push(shape.iter().map(|&extent| 0..extent).collect());
            let name = format!("shape {shape:?}, inner {inner:?}, shards {shards:?}");
            for threads in [1, 2, 3] {
                let pool = thread_pool(threads);
                pool.install(|| reads_as_zarrs_reads(&name, &array, &subsets));
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

/// A 7 × 10 array of `uint64` (fill value 77) in chunks (shards) of 4 × 6 with `codecs`, in a
/// scratch directory of its own, opened through `open_array`.
fn uint64_array(name: &str, codecs: &Json) -> Array<FilesystemStore> {
    let dir = scratch(&name.replace(' ', "-"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let document = json!({"zarr_format": 3, "node_type": "array", "shape": [7, 10],
        "data_type": "uint64", "fill_value": 77,
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4, 6]}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "codecs": codecs});
    std::fs::write(dir.join("zarr.json"), document.to_string()).unwrap();
    open_array(store(&dir), "/").unwrap()
}

/// Writes into part of chunks (missing ones, then stored ones, edge chunks) store what zarrs'
/// own `store_array_subset` stores, in every codec and byte order, sharded or not: twin arrays,
/// one written by `store_records` (which reads, changes and stores each chunk itself), the
/// other by zarrs, read back the same by zarrs.
#[test]
fn writes_into_part_of_chunks_store_what_zarrs_stores() {
    let little = json!({"name": "bytes", "configuration": {"endian": "little"}});
    let big = json!({"name": "bytes", "configuration": {"endian": "big"}});
    let zstd = json!({"name": "zstd", "configuration": {"level": 1, "checksum": false}});
    let transpose = json!({"name": "transpose", "configuration": {"order": [1, 0]}});
    let crc = json!({"name": "crc32c"});
    let sharded = |inner: Json, at: &str| {
        json!([{"name": "sharding_indexed", "configuration": {"chunk_shape": [2, 3],
            "codecs": inner, "index_codecs": [little.clone(), crc.clone()],
            "index_location": at}}])
    };
    for (name, codecs) in [
        ("little", json!([little.clone()])),
        ("big", json!([big.clone()])),
        ("transpose big", json!([transpose.clone(), big.clone()])),
        ("zstd", json!([little.clone(), zstd.clone()])),
        ("sharded", sharded(json!([big.clone()]), "end")),
        (
            "sharded zstd first",
            sharded(json!([little.clone(), zstd.clone()]), "start"),
        ),
        ("sharded then zstd", {
            let mut codecs = sharded(json!([little.clone()]), "end");
            codecs.as_array_mut().unwrap().push(zstd.clone());
            codecs
        }),
    ] {
        let twins: Vec<Array<FilesystemStore>> = ["ours", "zarrs"]
            .iter()
            .map(|twin| uint64_array(&format!("part {name} {twin}"), &codecs))
            .collect();
        let mut next = 0u64;
        for subset in [
            [1..3, 2..7],
            [0..7, 8..10],
            [3..6, 0..10],
            [5..7, 3..4],
            [0..1, 0..10],
        ] {
            let count = (subset[0].end - subset[0].start) * (subset[1].end - subset[1].start);
            let values: Vec<u64> = (next..next + count)
                .map(|value| value * 0x0101_0000_0001)
                .collect();
            next += count;
            twins[0].store_records(&subset, &values).unwrap();
            twins[1].store_array_subset(&subset, &values).unwrap();
            let ours: Vec<u64> = twins[0].retrieve_array_subset(&[0..7, 0..10]).unwrap();
            let theirs: Vec<u64> = twins[1].retrieve_array_subset(&[0..7, 0..10]).unwrap();
            assert_eq!(ours, theirs, "{name} after {subset:?}");
            assert_eq!(
                twins[0].retrieve_records::<u64>(&[0..7, 0..10]).unwrap(),
                theirs,
                "{name}"
            );
        }
    }
}

/// The files under `dir`, each with its bytes, by path (relative to `dir`).
fn stored_files(dir: &std::path::Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(next) = dirs.pop() {
        for entry in std::fs::read_dir(&next).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path
                .file_name()
                .is_some_and(|name| name != "zarr.json" && name != ".zarray")
            {
                let bytes = std::fs::read(&path).unwrap();
                files.push((path.strip_prefix(dir).unwrap().to_path_buf(), bytes));
            }
        }
    }
    files.sort();
    files
}

/// Whole uncompressed chunks of more than a megabyte (written a piece at a time to a store
/// that writes in part, where they are not stored yet) are stored byte for byte as zarrs'
/// `store_array_subset` stores them: both byte orders, a Zarr v2 dtype of mixed byte orders, an
/// edge chunk (the fill value beyond the array), 2-D chunks whose records come row by row,
/// chunks whose first pieces are the fill value and one that is nothing but the fill value (not
/// stored); then written again over the stored ones (whole), and over a longer file.
#[test]
fn large_whole_chunks_are_stored_as_zarrs_stores_them() {
    let mixed = mixed_order_layout();
    // Chunks of 40 000 records (1.48 MB, three pieces of 512 KiB) or 200 x 300.
    let one = |endian| {
        ArrayOptions::new(vec![100_000], vec![40_000])
            .endian(endian)
            .compression(Compression::None)
    };
    let two = ArrayOptions::new(vec![300, 500], vec![200, 300]).compression(Compression::None);
    type Create = Box<dyn Fn(&std::path::Path) -> Array<FilesystemStore>>;
    let cases: Vec<(&str, Create)> = vec![
        (
            "little",
            Box::new(move |dir| {
                one(Endian::Little)
                    .create(store(dir), "/", &fill())
                    .unwrap()
            }),
        ),
        (
            "big",
            Box::new(move |dir| one(Endian::Big).create(store(dir), "/", &fill()).unwrap()),
        ),
        (
            "v2 mixed",
            Box::new(move |dir| {
                one(Endian::Little)
                    .create_v2(store(dir), "/", &mixed, Some(&fill().to_value()))
                    .unwrap()
            }),
        ),
        (
            "2-D",
            Box::new(move |dir| two.clone().create(store(dir), "/", &fill()).unwrap()),
        ),
    ];
    // Every record; the first 30 000 the fill value (two pieces of chunk 0 and part of its
    // third); the first 40 000 (chunk 0 not stored; in 2-D, parts of chunks).
    let records_with = |count: u64, fills: u64| -> Vec<Particle> {
        (0..count)
            .map(|i| if i < fills { fill() } else { particle(i) })
            .collect()
    };
    for (name, create) in &cases {
        for fills in [0, 30_000, 40_000] {
            let label = format!("{name}, {fills} fill values first");
            let dirs: Vec<PathBuf> = ["ours", "zarrs"]
                .iter()
                .map(|twin| {
                    scratch(&format!("large whole {name} {fills} {twin}").replace(' ', "_"))
                })
                .collect();
            let twins: Vec<Array<FilesystemStore>> = dirs
                .iter()
                .map(|dir| {
                    let _ = std::fs::remove_dir_all(dir);
                    create(dir)
                })
                .collect();
            let shape = twins[0].shape().to_vec();
            let count: u64 = shape.iter().product();
            let subset: Vec<Range<u64>> = shape.iter().map(|&extent| 0..extent).collect();
            let records = records_with(count, fills);
            twins[0].store_records(&subset, &records).unwrap();
            twins[1].store_array_subset(&subset, &records).unwrap();
            same_files(&dirs, &label);
            let back: Vec<Particle> = twins[0].retrieve_records(&subset).unwrap();
            assert!(same(&back, &records), "{label}");
            // Again over the stored chunks, chunk 0 over a longer file (not this array's).
            let first = twins[0].chunk_key(&vec![0; twins[0].dimensionality()]);
            for dir in &dirs {
                let path = dir.join(first.as_str());
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, vec![0xa5; 40_000 * 37 + 100]).unwrap();
            }
            let records = records_with(count, 40_000 - fills);
            twins[0].store_records(&subset, &records).unwrap();
            twins[1].store_array_subset(&subset, &records).unwrap();
            same_files(&dirs, &format!("{label}, written again"));
        }
    }
}

/// Random layouts of wide records (4 KiB: a chunk of 256 of them is written in pieces of 128):
/// whatever the shape, chunks, byte order, subset, fill values and chunks stored before, the
/// chunks `store_records` stores are zarrs' `store_array_subset`'s, byte for byte.
mod pieces_against_zarrs {
    use super::*;
    use proptest::prelude::*;

    #[derive(ZarrStruct, Clone, Debug)]
    struct Wide {
        id: u32,
        data: [u16; 2046],
    }

    fn wide(i: u64) -> Wide {
        let mut data = [0u16; 2046];
        for (j, value) in data.iter_mut().enumerate() {
            *value = (i as u16).wrapping_mul(31).wrapping_add(j as u16);
        }
        Wide { id: i as u32, data }
    }

    fn wide_fill() -> Wide {
        Wide {
            id: 7,
            data: [0x0102; 2046],
        }
    }

    /// A shape, a chunk shape, a subset of the shape.
    fn layout() -> impl Strategy<Value = (Vec<u64>, Vec<u64>, Vec<Range<u64>>)> {
        prop_oneof![
            (200u64..1_300, 200u64..700).prop_map(|(n, c)| (vec![n], vec![c])),
            (10u64..40, 20u64..60, 8u64..24, 16u64..40)
                .prop_map(|(r, k, cr, ck)| (vec![r, k], vec![cr, ck])),
        ]
        .prop_flat_map(|(shape, chunks)| {
            let ranges: Vec<_> = shape
                .iter()
                .map(|&extent| {
                    // The whole extent half the time: chunks at the start written whole.
                    (any::<bool>(), 0..extent, 0..extent).prop_map(move |(all, a, b)| {
                        if all {
                            0..extent
                        } else {
                            a.min(b)..a.max(b) + 1
                        }
                    })
                })
                .collect();
            (Just(shape), Just(chunks), ranges)
        })
    }

    proptest! {
        #![proptest_config(crate::common::random::config_of(32))]
        #[test]
        fn whole_chunks_in_pieces_store_what_zarrs_stores(
            (shape, chunks, subset) in layout(),
            big in any::<bool>(),
            fills in 0u64..1_500,
            stored_before in any::<bool>(),
            case in any::<u32>(),
        ) {
            let endian = if big { Endian::Big } else { Endian::Little };
            let dirs: Vec<PathBuf> = ["ours", "zarrs"]
                .iter()
                .map(|twin| scratch(&format!("pieces_prop_{case}_{twin}")))
                .collect();
            let twins: Vec<Array<FilesystemStore>> = dirs
                .iter()
                .map(|dir| {
                    let _ = std::fs::remove_dir_all(dir);
                    ArrayOptions::new(shape.clone(), chunks.clone())
                        .endian(endian)
                        .compression(Compression::None)
                        .create(store(dir), "/", &wide_fill())
                        .unwrap()
                })
                .collect();
            if stored_before {
                let all: Vec<Range<u64>> = shape.iter().map(|&extent| 0..extent).collect();
                let count: u64 = shape.iter().product();
                let records: Vec<Wide> = (0..count).map(|i| wide(i + 5_000)).collect();
                twins[0].store_records(&all, &records).unwrap();
                twins[1].store_array_subset(&all, &records).unwrap();
            }
            let count: u64 = subset.iter().map(|range| range.end - range.start).product();
            let records: Vec<Wide> = (0..count)
                .map(|i| if i < fills { wide_fill() } else { wide(i) })
                .collect();
            twins[0].store_records(&subset, &records).unwrap();
            twins[1].store_array_subset(&subset, &records).unwrap();
            same_files(&dirs, &format!("{shape:?} in {chunks:?}, {subset:?}, {endian:?}"));
            for dir in &dirs {
                let _ = std::fs::remove_dir_all(dir);
            }
        }
    }
}

/// The chunks stored under the two directories are the same, byte for byte.
fn same_files(dirs: &[PathBuf], label: &str) {
    let (ours, theirs) = (stored_files(&dirs[0]), stored_files(&dirs[1]));
    assert_eq!(
        ours.iter().map(|(path, _)| path).collect::<Vec<_>>(),
        theirs.iter().map(|(path, _)| path).collect::<Vec<_>>(),
        "{label}: the chunks stored"
    );
    for ((path, ours), (_, theirs)) in ours.iter().zip(&theirs) {
        assert!(ours == theirs, "{label}: {path:?} differs");
    }
}

/// How the writes of a [`FaultyWrites`] fail.
enum WriteFault {
    /// Partial writes fail once they have written this many values: a disk filling up in the
    /// middle of a chunk.
    PartialAfter(usize),
    /// Every write and erase fails: a server gone away.
    All,
}

/// A directory store whose writes fail as its [`WriteFault`] says, counting the writes and
/// erases asked of it.
struct FaultyWrites {
    inner: FilesystemStore,
    fault: WriteFault,
    writes: std::sync::atomic::AtomicUsize,
}

impl FaultyWrites {
    fn new(dir: &Path, fault: WriteFault) -> Self {
        FaultyWrites {
            inner: FilesystemStore::new(dir).unwrap(),
            fault,
            writes: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// Counts a write; the error of a store gone away, if it is one.
    fn write(&self) -> Result<(), StorageError> {
        self.writes
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        match self.fault {
            WriteFault::All => Err(StorageError::Other("the server has gone away".into())),
            WriteFault::PartialAfter(_) => Ok(()),
        }
    }
}

impl ReadableStorageTraits for FaultyWrites {
    fn get_partial_many<'a>(
        &'a self,
        key: &StoreKey,
        byte_ranges: ByteRangeIterator<'a>,
    ) -> Result<MaybeBytesIterator<'a>, StorageError> {
        self.inner.get_partial_many(key, byte_ranges)
    }

    fn size_key(&self, key: &StoreKey) -> Result<Option<u64>, StorageError> {
        self.inner.size_key(key)
    }

    fn supports_get_partial(&self) -> bool {
        true
    }
}

impl WritableStorageTraits for FaultyWrites {
    fn set(&self, key: &StoreKey, value: Bytes) -> Result<(), StorageError> {
        self.write()?;
        self.inner.set(key, value)
    }

    fn set_partial_many(
        &self,
        key: &StoreKey,
        offset_values: OffsetBytesIterator,
    ) -> Result<(), StorageError> {
        self.write()?;
        let WriteFault::PartialAfter(pieces) = self.fault else {
            unreachable!("a store gone away fails every write")
        };
        self.inner
            .set_partial_many(key, Box::new(offset_values.take(pieces)))?;
        Err(StorageError::Other("no space left on the device".into()))
    }

    fn erase(&self, key: &StoreKey) -> Result<(), StorageError> {
        self.write()?;
        self.inner.erase(key)
    }

    fn erase_prefix(&self, prefix: &StorePrefix) -> Result<(), StorageError> {
        self.inner.erase_prefix(prefix)
    }

    fn supports_set_partial(&self) -> bool {
        matches!(self.fault, WriteFault::PartialAfter(_))
    }
}

/// A write whose store fails stops at the first failure: no chunk after it is begun, so a
/// store gone away is tried about once a thread, not once for every chunk (each try may wait
/// out a timeout); the error names the first chunk. Chunks, and whole shards.
#[test]
fn a_failing_write_stops_at_the_first_chunk() {
    let count = 400u64;
    let records: Vec<Particle> = (0..count).map(particle).collect();
    for shards in [None, Some(vec![4])] {
        let dir = scratch(&format!("dead_writes_{}", shards.is_some()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut options =
            ArrayOptions::new(vec![count], vec![1]).compression(Compression::Zstd { level: 1 });
        if let Some(shards) = &shards {
            options = options.shards(shards.clone());
        }
        options.create(store(&dir), "/", &fill()).unwrap();
        let dead = Arc::new(FaultyWrites::new(&dir, WriteFault::All));
        let array = open_array(Arc::clone(&dead), "/").unwrap();
        let pool = thread_pool(2);
        let error = pool
            .install(|| array.store_records(&[0..count], &records))
            .unwrap_err();
        assert!(error.to_string().contains("c/0:"), "{shards:?}: {error}");
        assert!(
            error.to_string().contains("gone away"),
            "{shards:?}: {error}"
        );
        let writes = dead.writes.load(std::sync::atomic::Ordering::SeqCst);
        eprintln!("{shards:?}: {writes} writes tried");
        assert!(writes <= 4, "{shards:?}: {writes} writes tried");
    }
}

/// A chunk written a piece at a time is written in order: a write that fails (or a writer
/// killed) in the middle leaves it cut short, a read error naming it, as a failed whole write
/// does; never the chunk's full length with records missing in it.
#[test]
fn a_chunk_written_in_pieces_that_fails_is_cut_short() {
    let count = 40_000u64;
    let records: Vec<Particle> = (0..count).map(particle).collect();
    for pieces in [1, 2, 3] {
        let dir = scratch(&format!("failing_pieces_{pieces}"));
        let _ = std::fs::remove_dir_all(&dir);
        ArrayOptions::new(vec![count], vec![count])
            .compression(Compression::None)
            .create(store(&dir), "/", &fill())
            .unwrap();
        let failing = Arc::new(FaultyWrites::new(&dir, WriteFault::PartialAfter(pieces)));
        let array = open_array(failing, "/").unwrap();
        let error = array.store_records(&[0..count], &records).unwrap_err();
        assert!(error.to_string().contains("no space left"), "{error}");
        // The empty write sizing the value, then pieces of 512 KiB (14 169 records).
        let written = std::fs::metadata(dir.join("c").join("0")).unwrap().len();
        assert_eq!(
            written,
            (pieces as u64 - 1) * 14_169 * 37,
            "{pieces} values written"
        );
        let array = open_array(store(&dir), "/").unwrap();
        let error = array.retrieve_records::<Particle>(&[0..count]).unwrap_err();
        assert!(error.to_string().contains("c/0"), "{pieces}: {error}");
    }
}

rusty_fork_test! {
    /// A whole uncompressed chunk written to a directory is encoded a piece at a time, each
    /// piece written as it is made: a 14.8 MB chunk takes less than 2 MiB beside the records
    /// (encoded whole, it took the chunk), in either byte order and a Zarr v2 dtype of mixed
    /// byte orders; kept by zarrs' in-memory store, the chunk and less than 2 MiB besides.
    /// The pieces share one buffer: less than 2 MiB is allocated in all (a buffer per piece
    /// is the chunk's size again).
    #[test]
    fn a_large_whole_chunk_is_written_a_piece_at_a_time() {
        let count = 400_000u64;
        let records: Vec<Particle> = (0..count).map(particle).collect();
        let layout = mixed_order_layout();
        for (name, endian, v2) in [
            ("little", Endian::Little, false),
            ("big", Endian::Big, false),
            ("v2", Endian::Little, true),
        ] {
            let dir = scratch(&format!("whole_chunk_in_pieces_{name}"));
            let options = ArrayOptions::new(vec![count], vec![count])
                .endian(endian)
                .compression(Compression::None);
            let array = if v2 {
                options.create_v2(store(&dir), "/", &layout, Some(&fill().to_value()))
            } else {
                options.create(store(&dir), "/", &fill())
            }
            .unwrap();
            let (result, usage) = meter::measure(|| array.store_records(&[0..count], &records));
            result.unwrap();
            assert!(usage.peak_bytes < 2 << 20, "{name}: {usage:?}");
            assert!(usage.allocated_bytes < 2 << 20, "{name}: {usage:?}");
            let back: Vec<Particle> = array.retrieve_records(&[0..count]).unwrap();
            assert!(same(&back, &records), "{name}");
        }
        // zarrs' in-memory store keeps the chunk, made once at its size from the pieces.
        let array = ArrayOptions::new(vec![count], vec![count])
            .compression(Compression::None)
            .create(Arc::new(MemoryStore::new()), "/", &fill())
            .unwrap();
        let (result, usage) = meter::measure(|| array.store_records(&[0..count], &records));
        result.unwrap();
        let chunk = count as usize * 37;
        assert!(usage.peak_bytes < chunk + (2 << 20), "in memory: {usage:?}");
        assert!(
            usage.allocated_bytes < chunk + (2 << 20),
            "in memory: {usage:?}"
        );
        let back: Vec<Particle> = array.retrieve_records(&[0..count]).unwrap();
        assert!(same(&back, &records), "in memory");
    }
}

/// Parts of inner chunks read by `BlockReader` (each part of a stored inner chunk through its
/// own partial decoder, kept for the next part) are what zarrs' sharded read gives, in every
/// inner codec and byte order, the index at either end, inner chunks stored and missing, at
/// the array's edges, one part after another in and across inner chunks and shards.
#[test]
fn parts_of_inner_chunks_read_as_zarrs_reads_them() {
    use zarrdt::array::{BlockReader, ShardIndex};
    let little = json!({"name": "bytes", "configuration": {"endian": "little"}});
    let big = json!({"name": "bytes", "configuration": {"endian": "big"}});
    let zstd = json!({"name": "zstd", "configuration": {"level": 1, "checksum": false}});
    let crc = json!({"name": "crc32c"});
    for (name, inner, at) in [
        ("little", json!([little.clone()]), "end"),
        ("big", json!([big.clone()]), "start"),
        ("zstd", json!([little.clone(), zstd.clone()]), "end"),
        ("big zstd", json!([big.clone(), zstd.clone()]), "start"),
    ] {
        let codecs = json!([{"name": "sharding_indexed", "configuration": {"chunk_shape": [2, 3],
            "codecs": inner, "index_codecs": [little.clone(), crc.clone()],
            "index_location": at}}]);
        let array = uint64_array(&format!("inner parts {name}"), &codecs);
        // Every element its own value but those of the inner chunk [0..2, 3..6], the fill
        // value (not stored), and of the shard [4..7, 6..10] (not written).
        let values: Vec<u64> = (0..7u64)
            .flat_map(|row| (0..10u64).map(move |column| (row, column)))
            .map(|(row, column)| match (row, column) {
                (0..2, 3..6) => 77,
                _ => (row * 100 + column + 1) * 0x0102_0304_0506,
            })
            .collect();
        array
            .store_records(
                &[0..7, 0..6],
                &values
                    .chunks(10)
                    .flat_map(|row| &row[..6])
                    .copied()
                    .collect::<Vec<_>>(),
            )
            .unwrap();
        array
            .store_records(
                &[0..4, 6..10],
                &values[..40]
                    .chunks(10)
                    .flat_map(|row| &row[6..])
                    .copied()
                    .collect::<Vec<_>>(),
            )
            .unwrap();
        let stored = ShardIndex::read(&array, &[0, 0]).unwrap().unwrap();
        assert_eq!(
            stored.written(),
            3,
            "{name}: one inner chunk of shard [0, 0] missing"
        );
        assert!(
            ShardIndex::read(&array, &[1, 1]).unwrap().is_none(),
            "{name}"
        );
        let mut reader = BlockReader::new(&array).unwrap();
        let mut parts = Vec::new();
        for rows in [0..1, 1..2, 2..3, 3..4, 4..5, 6..7, 1..2] {
            for columns in [0..1, 1..3, 3..5, 6..9, 9..10, 2..3] {
                parts.push([rows.clone(), columns]);
            }
        }
        parts.push([0..7, 0..10]);
        parts.push([5..7, 7..9]);
        for part in parts {
            let ours = reader.read(&part).unwrap();
            let theirs: Vec<u64> = array.retrieve_array_subset(&part).unwrap();
            let theirs: Vec<u8> = theirs
                .iter()
                .flat_map(|value| value.to_ne_bytes())
                .collect();
            assert_eq!(ours, theirs, "{name} {part:?}");
        }
    }
}

/// A Zarr v2 array with no fill value (`"fill_value": null`): zarrdt reads the zero record
/// where a chunk is missing, but zarr-python 2.18 reads uninitialised memory there, so a chunk
/// of zero records is stored, never erased, whichever way it is written (whole chunks, part of
/// one, a chunk written a piece at a time); with a fill value, such a chunk is erased as
/// before. Structured and numeric dtypes alike.
#[test]
fn a_v2_array_without_a_fill_value_keeps_every_chunk_written() {
    let dir = scratch("v2_no_fill");
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    let layout = Layout::from_v2_json(&json!([["a", "<i4"], ["b", ">f8"]])).unwrap();
    let zero: Value = [("a", Value::Int32(0)), ("b", Value::Float64(0.0))]
        .into_iter()
        .collect::<Record>()
        .into();
    let chunk = |name: &str, key: &str| dir.join(name).join(key).exists();
    for (name, fill, kept) in [("none", None, true), ("zero", Some(&zero), false)] {
        ArrayOptions::new(vec![10], vec![4])
            .compression(Compression::None)
            .create_v2(store.clone(), &format!("/{name}"), &layout, fill)
            .unwrap();
        let zarray: Json =
            serde_json::from_slice(&std::fs::read(dir.join(name).join(".zarray")).unwrap())
                .unwrap();
        assert_eq!(zarray["fill_value"].is_null(), fill.is_none());
        let array = open_array(store.clone(), &format!("/{name}")).unwrap();
        array
            .store_values(&[0..10], &vec![zero.clone(); 10])
            .unwrap();
        assert_eq!(
            ["0", "1", "2"].map(|key| chunk(name, key)),
            [kept; 3],
            "{name}: whole chunks and the edge chunk"
        );
        drop(array);
    }
    // Part of a chunk, and a big uncompressed chunk written a piece at a time.
    let array = open_array(store.clone(), "/none").unwrap();
    std::fs::remove_file(dir.join("none").join("1")).unwrap();
    array
        .store_values(&[5..6], std::slice::from_ref(&zero))
        .unwrap();
    assert!(chunk("none", "1"), "part of a missing chunk");
    let big = ArrayOptions::new(vec![300_000], vec![300_000])
        .compression(Compression::None)
        .create_v2(store.clone(), "/big", &layout, None)
        .unwrap();
    drop(big);
    let big = open_array(store.clone(), "/big").unwrap();
    big.store_bytes(&[0..300_000], &vec![0u8; 300_000 * 12])
        .unwrap();
    assert!(chunk("big", "0"), "a chunk written a piece at a time");
    // A numeric v2 dtype with no fill value, through zarrs' own data type.
    std::fs::create_dir_all(dir.join("ints")).unwrap();
    std::fs::write(
        dir.join("ints").join(".zarray"),
        json!({"zarr_format": 2, "shape": [8], "chunks": [4], "dtype": "<i4",
               "fill_value": null, "order": "C", "compressor": null, "filters": null})
        .to_string(),
    )
    .unwrap();
    let ints = open_array(store, "/ints").unwrap();
    ints.store_records(&[0..8], &[0i32; 8]).unwrap();
    assert!(
        chunk("ints", "0") && chunk("ints", "1"),
        "numeric chunks of zeros"
    );
}

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct LegacyAB {
    a: i32,
    b: f64,
}

/// zarr-python 3.1 writes every struct array as legacy `structured` with `{"name": "bytes"}`
/// and no `endian`; zarrdt reads it little-endian, as the spec says and zarr-python reads it,
/// and writes into it in the same order (zarrs refused to encode without an order), leaving
/// the stored `zarr.json` as it is.
#[test]
fn records_are_written_into_a_legacy_structured_array_without_an_endian() {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/zarr-python-3.1.6/v3_legacy_zstd_flat.zarr");
    let dir = scratch("legacy_no_endian");
    for relative in ["zarr.json", "c/0", "c/1", "c/2"] {
        let from = source.join(relative);
        if from.exists() {
            std::fs::create_dir_all(dir.join(relative).parent().unwrap()).unwrap();
            std::fs::copy(&from, dir.join(relative)).unwrap();
        }
    }
    let document = std::fs::read(dir.join("zarr.json")).unwrap();
    assert!(!String::from_utf8_lossy(&document).contains("endian"));
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    let array = open_array(store.clone(), "/").unwrap();
    let before: Vec<LegacyAB> = array.retrieve_records(&[0..5]).unwrap();
    let written = [
        LegacyAB { a: -7, b: 0.25 },
        LegacyAB {
            a: 1 << 20,
            b: -3.5,
        },
    ];
    array.store_records(&[1..3], &written).unwrap();
    array.store_records(&[4..5], &written[..1]).unwrap();
    let mut expected = before.clone();
    expected[1..3].copy_from_slice(&written);
    expected[4] = written[0];
    let back: Vec<LegacyAB> = open_array(store, "/")
        .unwrap()
        .retrieve_records(&[0..5])
        .unwrap();
    let bits = |records: &[LegacyAB]| -> Vec<(i32, u64)> {
        records.iter().map(|r| (r.a, r.b.to_bits())).collect()
    };
    assert_eq!(bits(&back), bits(&expected));
    assert_eq!(std::fs::read(dir.join("zarr.json")).unwrap(), document);
}
