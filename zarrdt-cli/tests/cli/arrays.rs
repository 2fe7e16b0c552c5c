//! The binary on arrays written in the test through zarrdt: Zarr v3 and v2, compressed
//! (zstd, gzip, Blosc), sharded, 2-D, big-endian, F order, missing chunks; `inspect`, every
//! `dump` format and option.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::path::Path;
use std::sync::Arc;

use common::{flatten, scratch, zarrdt};
use serde_json::{Value as Json, json};
use zarrdt::WriteRecords;
use zarrdt::array::{ArrayOptions, Compression, open_array};
use zarrdt::types::{DataType, ScalarType};
use zarrdt::value::Value;
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::{Endian, ZarrStruct, ZarrType};

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Sample {
    id: u32,
    pos: [f32; 2],
    flag: bool,
    temp: f64,
}

fn sample(i: u64) -> Sample {
    Sample {
        id: u32::try_from(i).unwrap(),
        pos: [i as f32 * 0.5, -(i as f32)],
        flag: i.is_multiple_of(3),
        temp: i as f64 * 0.25 - 1.0,
    }
}

const FILL: Sample = Sample {
    id: 7,
    pos: [f32::NAN, -0.0],
    flag: false,
    temp: f64::INFINITY,
};

/// The dump's JSON of `s`: `pos` is a struct of fields "0", "1" in v3, a subarray in v2.
fn expected(s: &Sample, v3: bool) -> Json {
    let number = |x: f32| {
        if x.is_nan() {
            json!("NaN")
        } else {
            json!(f64::from(x))
        }
    };
    let pos = if v3 {
        json!({"0": number(s.pos[0]), "1": number(s.pos[1])})
    } else {
        json!([number(s.pos[0]), number(s.pos[1])])
    };
    let temp = if s.temp.is_infinite() {
        json!("Infinity")
    } else {
        json!(s.temp)
    };
    json!({"id": s.id, "pos": pos, "flag": s.flag, "temp": temp})
}

fn store(dir: &Path) -> Arc<FilesystemStore> {
    Arc::new(FilesystemStore::new(dir).unwrap())
}

fn path(dir: &Path) -> &str {
    dir.to_str().unwrap()
}

/// A sharded, zstd-compressed v3 array of 100 samples in shards of 50 and chunks of 10, of
/// which only 0..60 are written: the second shard holds one inner chunk.
fn sharded(name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    let array = ArrayOptions::new(vec![100], vec![10])
        .shards(vec![50])
        .compression(Compression::Zstd { level: 3 })
        .create(store(&dir), "/", &FILL)
        .unwrap();
    let samples: Vec<Sample> = (0..60).map(sample).collect();
    array.store_array_subset(&[0..60], &samples).unwrap();
    dir
}

#[test]
fn v3_sharded_zstd_with_missing_inner_chunks() {
    let dir = sharded("sharded");
    let dump = zarrdt(["dump", path(&dir)]).json();
    assert_eq!(dump["zarr_format"], 3);
    assert_eq!(dump["shape"], json!([100]));
    // zarr-python's `Array.chunks`: the inner chunks of a sharded array.
    assert_eq!(dump["chunks"], json!([10]));
    assert_eq!(dump["data_type"], Sample::data_type().to_v3_json());
    assert_eq!(dump["fill_value"], expected(&FILL, true));
    let values = dump["values"].as_array().unwrap();
    assert_eq!(values.len(), 100);
    for (i, value) in values.iter().enumerate() {
        let want = if i < 60 { sample(i as u64) } else { FILL };
        assert_eq!(value, &expected(&want, true), "element {i}");
    }

    // A selection across the shard boundary, and a limit.
    let part = zarrdt(["dump", path(&dir), "--select", "45:55"]).json();
    let want: Vec<Json> = (45..55).map(|i| expected(&sample(i), true)).collect();
    assert_eq!(part["values"], json!(want));
    let first = zarrdt(["dump", path(&dir), "--select", "-45:", "--limit", "3"]).json();
    let want: Vec<Json> = (55..58).map(|i| expected(&sample(i), true)).collect();
    assert_eq!(first["values"], json!(want));

    // What inspect counts: both shards written, 6 of 10 inner chunks.
    let info = zarrdt(["inspect", "--json", path(&dir)]).json();
    assert_eq!(info["shards"], json!([50]));
    assert_eq!(info["chunks"], json!([10]));
    assert_eq!(
        info["chunk_count"],
        json!({"total": 2, "written": 2, "missing": 0})
    );
    assert_eq!(
        info["inner_chunk_count"],
        json!({"total": 10, "written": 6, "missing": 4})
    );
    assert_eq!(info["itemsize"], 21);
    assert_eq!(info["uncompressed_bytes"], 2100);
    assert_eq!(info["byte_order"], "little (the bytes codec's endian)");
    let leaves: Vec<(String, String, u64)> = info["leaves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|leaf| {
            (
                leaf["path"].as_str().unwrap().to_owned(),
                leaf["numpy_typestr"].as_str().unwrap().to_owned(),
                leaf["offset"].as_u64().unwrap(),
            )
        })
        .collect();
    let leaf = |p: &str, t: &str, o: u64| (p.to_owned(), t.to_owned(), o);
    assert_eq!(
        leaves,
        [
            leaf("id", "<u4", 0),
            leaf("pos.0", "<f4", 4),
            leaf("pos.1", "<f4", 8),
            leaf("flag", "|b1", 12),
            leaf("temp", "<f8", 13)
        ]
    );
    let text = zarrdt(["inspect", path(&dir)]).ok();
    for needle in [
        "Zarr v3 array of records",
        "[10] (inner), in shards of [50]",
        "sharding_indexed(",
        "index_codecs=[bytes(endian=little), crc32c]",
        "zstd(",
        "2 of 2 shards written, 0 missing",
        "6 of 10 inner chunks written, 4 missing",
        "21 bytes (packed)",
        "byte map of one record (21 bytes)",
        "|id",
        "|pos.0",
    ] {
        assert!(text.contains(needle), "{needle:?} in\n{text}");
    }
}

/// Shards that zstd encodes whole (zarr-python's default when a `ShardingCodec` is the
/// serializer): read whole, and `inspect` says so instead of reading the stored bytes as the
/// shard's index.
#[test]
fn v3_shards_encoded_whole_by_zstd() {
    let dir = scratch("encoded_shards");
    ArrayOptions::new(vec![100], vec![10])
        .shards(vec![50])
        .compression(Compression::None)
        .create(store(&dir), "/", &FILL)
        .unwrap();
    let metadata = dir.join("zarr.json");
    let mut document: Json = serde_json::from_slice(&std::fs::read(&metadata).unwrap()).unwrap();
    let codecs = document["codecs"].as_array_mut().unwrap();
    codecs.push(json!({"name": "zstd", "configuration": {"level": 0, "checksum": false}}));
    std::fs::write(&metadata, document.to_string()).unwrap();
    let array = open_array(store(&dir), "/").unwrap();
    let samples: Vec<Sample> = (0..30).map(sample).collect();
    array.store_array_subset(&[0..30], &samples).unwrap();

    let dump = zarrdt(["dump", path(&dir)]).json();
    let values = dump["values"].as_array().unwrap();
    for (i, value) in values.iter().enumerate() {
        let want = if i < 30 { sample(i as u64) } else { FILL };
        assert_eq!(value, &expected(&want, true), "element {i}");
    }
    let info = zarrdt(["inspect", "--json", path(&dir)]).json();
    assert_eq!(info["whole_shard_codecs"], json!(["zstd"]));
    assert_eq!(
        info["chunk_count"],
        json!({"total": 2, "written": 1, "missing": 1})
    );
    assert_eq!(info["inner_chunk_count"]["written"], Json::Null);
    let text = zarrdt(["inspect", path(&dir)]).ok();
    for needle in [
        "shard reads   whole shards only: zstd encodes each whole shard after sharding_indexed",
        "inner chunks  10 inner chunks (not counted: each shard's index is inside the \
         zstd-encoded shard)",
        "-> zstd(",
    ] {
        assert!(text.contains(needle), "{needle:?} in\n{text}");
    }
    let plain = zarrdt(["inspect", path(&sharded("plain_shards"))]).ok();
    assert!(
        plain.contains("shard reads   in part: an inner chunk through the shard's index"),
        "{plain}"
    );
}

/// A codec zarrdt does not read: one line naming the codec, its configuration and why.
/// Puts `codec` after the codecs of the Zarr v3 array in `dir`.
fn add_codec(dir: &Path, codec: Json) {
    let metadata = dir.join("zarr.json");
    let mut document: Json = serde_json::from_slice(&std::fs::read(&metadata).unwrap()).unwrap();
    document["codecs"].as_array_mut().unwrap().push(codec);
    std::fs::write(&metadata, document.to_string()).unwrap();
}

#[test]
fn a_codec_zarrdt_does_not_read_is_named() {
    let dir = sharded("unread_codec");
    add_codec(
        &dir,
        json!({"name": "numcodecs.pickle", "configuration": {}}),
    );
    zarrdt(["dump", path(&dir)]).fails(
        1,
        path(&dir),
        r#"codec {"name":"numcodecs.pickle","configuration":{}}: not a codec zarrdt reads"#,
    );
}

/// An array with numcodecs' crc32 after its codecs, as zarr-python 3 writes
/// `compressors=[numcodecs.zarr3.CRC32()]`: `dump` reads it, and names a damaged chunk.
#[test]
fn a_damaged_crc32_chunk_is_named() {
    let dir = scratch("crc32");
    ArrayOptions::new(vec![7], vec![3])
        .create(store(&dir), "/", &FILL)
        .unwrap();
    add_codec(
        &dir,
        json!({"name": "numcodecs.crc32", "configuration": {}}),
    );
    let array = open_array(store(&dir), "/").unwrap();
    let samples: Vec<Sample> = (0..7).map(sample).collect();
    array.store_records(&[0..7], &samples).unwrap();
    let dump = zarrdt(["dump", path(&dir)]).json();
    assert_eq!(flatten(&dump["values"], 1).len(), 7);
    assert_eq!(dump["values"][6], expected(&sample(6), true));

    let chunk = dir.join("c/1");
    let mut bytes = std::fs::read(&chunk).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x01;
    std::fs::write(&chunk, &bytes).unwrap();
    zarrdt(["dump", path(&dir)]).fails(1, path(&dir), "chunk c/1: crc32: the checksum stored");
    let stderr = zarrdt(["dump", path(&dir)]).stderr;
    assert!(stderr.contains("the chunk is damaged"), "{stderr}");
}

#[test]
fn v3_two_dimensional_gzip_big_endian() {
    let dir = scratch("two_d");
    let array = ArrayOptions::new(vec![7, 5], vec![3, 2])
        .compression(Compression::Gzip { level: 5 })
        .endian(Endian::Big)
        .dimension_names(["time", "station"])
        .create(store(&dir), "/", &FILL)
        .unwrap();
    // Rows 0..6 written; row 6 (the last chunk row) left missing.
    let samples: Vec<Sample> = (0..30).map(sample).collect();
    array.store_array_subset(&[0..6, 0..5], &samples).unwrap();
    let at = |r: u64, c: u64| if r < 6 { sample(r * 5 + c) } else { FILL };

    let dump = zarrdt(["dump", path(&dir)]).json();
    assert_eq!(dump["chunks"], json!([3, 2]));
    let rows = dump["values"].as_array().unwrap();
    assert_eq!(rows.len(), 7);
    // The dimension names as written, in the text as in the JSON (an unnamed one null).
    let info = zarrdt(["inspect", "--json", path(&dir)]).json();
    assert_eq!(info["dimension_names"], json!(["time", "station"]));
    let text = zarrdt(["inspect", path(&dir)]).ok();
    assert!(
        text.contains("  dimensions    [\"time\", \"station\"]\n"),
        "{text}"
    );
    let document = dir.join("zarr.json");
    let mut metadata: Json =
        serde_json::from_str(&std::fs::read_to_string(&document).unwrap()).unwrap();
    metadata["dimension_names"] = json!(["time", null]);
    std::fs::write(&document, metadata.to_string()).unwrap();
    let text = zarrdt(["inspect", path(&dir)]).ok();
    assert!(
        text.contains("  dimensions    [\"time\", null]\n"),
        "{text}"
    );
    metadata.as_object_mut().unwrap().remove("dimension_names");
    std::fs::write(&document, metadata.to_string()).unwrap();
    let info = zarrdt(["inspect", "--json", path(&dir)]).json();
    assert_eq!(info["dimension_names"], Json::Null);
    assert!(!zarrdt(["inspect", path(&dir)]).ok().contains("dimensions"));
    for (r, row) in rows.iter().enumerate() {
        let want: Vec<Json> = (0..5).map(|c| expected(&at(r as u64, c), true)).collect();
        assert_eq!(row, &json!(want), "row {r}");
    }

    // A 2-D selection keeps the nesting.
    let part = zarrdt(["dump", path(&dir), "--select", "2:5,1:4"]).json();
    let want: Vec<Json> = (2..5)
        .map(|r| {
            json!(
                (1..4)
                    .map(|c| expected(&at(r, c), true))
                    .collect::<Vec<_>>()
            )
        })
        .collect();
    assert_eq!(part["values"], json!(want));
    // One row index, and a limit that stops inside a row: the rows so far, the last one short.
    let limited = zarrdt(["dump", path(&dir), "--select", "5:7", "--limit", "7"]).json();
    let values = limited["values"].as_array().unwrap();
    assert_eq!(values.len(), 2);
    assert_eq!(values[0].as_array().unwrap().len(), 5);
    assert_eq!(
        values[1],
        json!([expected(&FILL, true), expected(&FILL, true)])
    );

    // CSV: one column per leaf path, one row per element; table: the index first.
    let csv = zarrdt(["dump", path(&dir), "--format", "csv", "--select", "0:1,0:2"]).ok();
    assert_eq!(
        csv,
        "id,pos.0,pos.1,flag,temp\n0,0.0,-0.0,true,-1.0\n1,0.5,-1.0,false,-0.75\n"
    );
    let table = zarrdt(["dump", path(&dir), "--format", "table", "--select", "6,3:5"]).ok();
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["indices", "id", "pos.0", "pos.1", "flag", "temp"]
    );
    assert_eq!(
        lines[2].split_whitespace().collect::<Vec<_>>(),
        ["6,3", "7", "NaN", "-0.0", "false", "inf"]
    );
    assert_eq!(lines.len(), 4);

    // --fields: just those leaves, and the data type and fill of just them.
    let some = zarrdt([
        "dump",
        path(&dir),
        "--fields",
        "temp,pos.1",
        "--select",
        "0:1,1:2",
    ])
    .json();
    assert_eq!(
        some["data_type"],
        json!({"name": "struct", "configuration": {"fields": [
            {"name": "pos", "data_type": {"name": "struct", "configuration": {"fields": [
                {"name": "1", "data_type": "float32"}]}}},
            {"name": "temp", "data_type": "float64"}]}})
    );
    assert_eq!(
        some["fill_value"],
        json!({"pos": {"1": -0.0}, "temp": "Infinity"})
    );
    assert_eq!(
        some["values"],
        json!([[{"pos": {"1": -1.0}, "temp": -0.75}]])
    );
    let info = zarrdt(["inspect", "--json", path(&dir)]).json();
    assert_eq!(info["byte_order"], "big (the bytes codec's endian)");
    assert_eq!(info["leaves"][4]["numpy_typestr"], ">f8");
    assert_eq!(
        info["chunk_count"],
        json!({"total": 9, "written": 6, "missing": 3})
    );
}

/// A v2 array of `Sample`s with Blosc, written through zarrdt; `order` rewritten afterwards
/// when `fortran`.
fn v2_array(name: &str, shape: Vec<u64>, chunks: Vec<u64>, fortran: bool) -> std::path::PathBuf {
    let dir = scratch(name);
    let layout = Sample::layout(Endian::Little);
    ArrayOptions::new(shape, chunks)
        .compression(Compression::BloscLz4 { level: 5 })
        .create_v2(store(&dir), "/", &layout, Some(&FILL.to_value()))
        .unwrap();
    if fortran {
        let file = dir.join(".zarray");
        let mut zarray: Json = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        zarray["order"] = json!("F");
        std::fs::write(&file, serde_json::to_vec(&zarray).unwrap()).unwrap();
    }
    dir
}

#[test]
fn v2_blosc_with_a_missing_chunk() {
    let dir = v2_array("v2_blosc", vec![25], vec![10], false);
    let array = open_array(store(&dir), "/").unwrap();
    let values: Vec<Value> = (0..10)
        .chain(20..25)
        .map(|i| sample(i).to_value())
        .collect();
    array.store_values(&[0..10], &values[..10]).unwrap();
    array.store_values(&[20..25], &values[10..]).unwrap();

    let dump = zarrdt(["dump", path(&dir)]).json();
    assert_eq!(dump["zarr_format"], 2);
    assert_eq!(dump["chunks"], json!([10]));
    // The v2 dtype has a subarray field, so no v3 form: the dtype as in .zarray.
    assert_eq!(
        dump["data_type"],
        json!([
            ["id", "<u4"],
            ["pos", "<f4", [2]],
            ["flag", "|b1"],
            ["temp", "<f8"]
        ])
    );
    assert_eq!(dump["fill_value"], expected(&FILL, false));
    let got = dump["values"].as_array().unwrap();
    for (i, value) in got.iter().enumerate() {
        let want = if (10..20).contains(&i) {
            FILL
        } else {
            sample(i as u64)
        };
        assert_eq!(value, &expected(&want, false), "element {i}");
    }
    let csv = zarrdt(["dump", path(&dir), "--format", "csv", "--limit", "1"]).ok();
    assert_eq!(csv, "id,pos[0],pos[1],flag,temp\n0,0.0,-0.0,true,-1.0\n");
    let text = zarrdt(["inspect", path(&dir)]).ok();
    assert!(
        text.contains("compressor blosc(") && text.contains("order C"),
        "{text}"
    );
    assert!(text.contains("2 of 3 chunks written, 1 missing"), "{text}");
    assert!(text.contains("|pos[2]"), "{text}");
}

#[test]
fn v2_fortran_order_two_dimensional() {
    let dir = v2_array("v2_fortran", vec![4, 3], vec![3, 2], true);
    let array = open_array(store(&dir), "/").unwrap();
    let values: Vec<Value> = (0..12).map(|i| sample(i).to_value()).collect();
    array.store_values(&[0..4, 0..3], &values).unwrap();
    // The chunk bytes are column-major: the first chunk starts with elements (0,0), (1,0).
    let dump = zarrdt(["dump", path(&dir)]).json();
    let flat = flatten(&dump["values"], 2);
    let want: Vec<Json> = (0..12).map(|i| expected(&sample(i), false)).collect();
    assert_eq!(flat, want);
    assert_eq!(dump["values"].as_array().unwrap().len(), 4);
    let text = zarrdt(["inspect", path(&dir)]).ok();
    assert!(text.contains("order F"), "{text}");
}

#[test]
fn scalar_arrays_and_zero_dimensions() {
    // A float64 array: one column `value`, the fill NaN where nothing is written.
    let dir = scratch("scalars");
    let float64 = DataType::from(ScalarType::Float64);
    let array = ArrayOptions::new(vec![2, 3], vec![1, 3])
        .compression(Compression::None)
        .create_with(store(&dir), "/", &float64, &Value::Float64(f64::NAN))
        .unwrap();
    array
        .store_values(
            &[0..1, 0..3],
            &[
                Value::Float64(0.1),
                Value::Float64(f64::from_bits(0x7ff8_0000_0000_0001)),
                Value::Float64(-0.0),
            ],
        )
        .unwrap();
    let dump = zarrdt(["dump", path(&dir)]).json();
    assert_eq!(dump["data_type"], "float64");
    assert_eq!(dump["fill_value"], "NaN");
    assert_eq!(
        dump["values"],
        json!([[0.1, "0x7ff8000000000001", -0.0], ["NaN", "NaN", "NaN"]])
    );
    let csv = zarrdt(["dump", path(&dir), "--format", "csv"]).ok();
    assert_eq!(csv, "value\n0.1\nNaN\n-0.0\nNaN\nNaN\nNaN\n");
    let empty = zarrdt(["dump", path(&dir), "--select", "1:1"]).json();
    assert_eq!(empty["values"], json!([]));
    let none = zarrdt(["dump", path(&dir), "--limit", "0"]).json();
    assert_eq!(none["values"], json!([]));
    let text = zarrdt(["inspect", path(&dir)]).ok();
    assert!(
        text.contains("array of scalars") && text.contains("|value"),
        "{text}"
    );
    let code = zarrdt(["rust", path(&dir), "--name", "Reading"]).ok();
    assert!(code.contains("pub type Reading = f64;"), "{code}");
}

/// An empty array is written as NumPy nests it, and `--limit` bounds the lists as it bounds
/// elements: an extent of 2**61 beside a 0 is not 2**61 lists unless they are asked for.
#[test]
fn empty_arrays_are_nested_lists_within_the_limit() {
    let dir = scratch("empty_nested");
    let float64 = DataType::from(ScalarType::Float64);
    ArrayOptions::new(vec![3, 0], vec![1, 1])
        .create_with(store(&dir), "/", &float64, &Value::Float64(0.0))
        .unwrap();
    let dump = zarrdt(["dump", path(&dir)]).json();
    assert_eq!(dump["values"], json!([[], [], []]));
    let dump = zarrdt(["dump", path(&dir), "--limit", "2"]).json();
    assert_eq!(dump["values"], json!([[], []]));

    let dir = scratch("empty_huge");
    ArrayOptions::new(vec![1 << 61, 0, 5], vec![1, 1, 1])
        .create_with(store(&dir), "/", &float64, &Value::Float64(0.0))
        .unwrap();
    let dump = zarrdt(["dump", path(&dir), "--limit", "0"]).json();
    assert_eq!(dump["values"], json!([]));
    let dump = zarrdt(["dump", path(&dir), "--limit", "3"]).json();
    assert_eq!(dump["values"], json!([[], [], []]));
    let dump = zarrdt(["dump", path(&dir), "--select", "5:7,:,:"]).json();
    assert_eq!(dump["values"], json!([[], []]));
}

/// Nested records of fields named `result`, `some`, `vec`, `zarr_struct`.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Prelude {
    result: Narrow,
    some: Wide,
    vec: [Narrow; 2],
    zarr_struct: Wider,
}

/// One byte.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Narrow {
    a: u8,
}

/// Two bytes.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Wide {
    b: u16,
}

/// Four bytes.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Wider {
    c: u32,
}

/// `zarrdt rust` never names a struct as the prelude names a type or a variant, nor as the
/// derive it imports: the code is pasted into programs that use `Result`, `Some` and `Vec`.
#[test]
fn generated_structs_do_not_hide_the_prelude() {
    let dir = scratch("prelude_names");
    let record = Prelude {
        result: Narrow { a: 1 },
        some: Wide { b: 2 },
        vec: [Narrow { a: 3 }; 2],
        zarr_struct: Wider { c: 4 },
    };
    ArrayOptions::new(vec![1], vec![1])
        .create(store(&dir), "/", &record)
        .unwrap();
    let code = zarrdt(["rust", path(&dir)]).ok();
    for name in ["Result2", "Some2", "ZarrStruct2"] {
        assert!(
            code.contains(&format!("pub struct {name} {{")),
            "{name}: {code}"
        );
    }
    for name in ["Result", "Some", "Vec", "ZarrStruct"] {
        assert!(
            !code.contains(&format!("pub struct {name} ")),
            "{name}: {code}"
        );
    }
    assert!(code.contains("pub result: Result2,"), "{code}");
    assert!(code.contains("pub vec: [Result2; 2],"), "{code}");
    for name in ["Result", "Some", "Option"] {
        zarrdt(["rust", path(&dir), "--name", name]).fails(2, "--name", "would hide the prelude");
    }
    zarrdt(["rust", path(&dir), "--name", "ZarrStruct"]).fails(2, "--name", "the derive");
}

/// A CSV of one column writes an empty value as `""`, not as an empty line (which pandas
/// skips and Python's `csv` reads as a row of no fields), as Python's `csv` writes it.
#[test]
fn csv_of_one_column_keeps_empty_values() {
    let dir = scratch("one_text_column");
    let text = DataType::from(ScalarType::fixed_length_utf32(3).unwrap());
    let array = ArrayOptions::new(vec![3], vec![3])
        .create_with(store(&dir), "/", &text, &Value::String(String::new()))
        .unwrap();
    let values = ["a", "", "b,c"].map(|s| Value::String(s.into()));
    array.store_values(&[0..3], &values).unwrap();
    let csv = zarrdt(["dump", path(&dir), "--format", "csv"]).ok();
    assert_eq!(csv, "value\na\n\"\"\n\"b,c\"\n");
}

#[test]
fn closed_output_is_not_an_error() {
    let dir = scratch("big");
    let array = ArrayOptions::new(vec![20_000], vec![5_000])
        .create(store(&dir), "/", &FILL)
        .unwrap();
    let samples: Vec<Sample> = (0..20_000).map(sample).collect();
    array.store_array_subset(&[0..20_000], &samples).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_zarrdt"))
        .args(["dump", path(&dir), "--format", "csv"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 100];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    assert!(output.stderr.is_empty(), "{output:?}");
}

/// A record with NumPy `S<n>` byte strings (`ByteString`) and a `raw_bytes` field.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Tagged {
    code: zarrdt::ByteString<6>,
    raw: zarrdt::RawBytes<2>,
}

/// CSV and tables show `S<n>` byte strings as text, printable bytes as they are and the rest
/// escaped as Python writes bytes (`b'c\x00d'`); JSON keeps base64, its contract.
#[test]
fn byte_strings_as_text_in_csv_and_tables() {
    let dir = scratch("byte_strings");
    let fill = Tagged {
        code: zarrdt::ByteString::new(b"").unwrap(),
        raw: zarrdt::RawBytes::new([0, 0]),
    };
    let array = ArrayOptions::new(vec![3], vec![3])
        .create(store(&dir), "/", &fill)
        .unwrap();
    let tagged = |code: &[u8], raw: [u8; 2]| Tagged {
        code: zarrdt::ByteString::new(code).unwrap(),
        raw: zarrdt::RawBytes::new(raw),
    };
    let records = [
        tagged(b"c000", [1, 2]),
        tagged(b"a,\"b", [0, 255]),
        tagged(b"\x00x\ty\\\xff", [9, 9]),
    ];
    array.store_array_subset(&[0..3], &records).unwrap();

    let csv = zarrdt(["dump", path(&dir), "--format", "csv"]).ok();
    assert_eq!(
        csv,
        "code,raw\nc000,AQI=\n\"a,\"\"b\",AP8=\n\\x00x\\ty\\\\\\xff,CQk=\n"
    );
    let table = zarrdt(["dump", path(&dir), "--format", "table"]).ok();
    let rows: Vec<Vec<&str>> = table
        .lines()
        .map(|line| line.split_whitespace().collect())
        .collect();
    assert_eq!(rows[0], ["index", "code", "raw"]);
    assert_eq!(rows[2], ["0", "c000", "AQI="]);
    assert_eq!(rows[4], ["2", "\\x00x\\ty\\\\\\xff", "CQk="]);
    let dump = zarrdt(["dump", path(&dir)]).json();
    assert_eq!(
        dump["values"][0],
        json!({"code": "YzAwMA==", "raw": "AQI="})
    );
}

/// A record whose text comes before another column.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Label {
    name: zarrdt::FixedString<4>,
    x: i32,
}

/// Table columns are aligned by the width a terminal gives the text: CJK characters and most
/// emoji take two columns each, combining marks none.
#[test]
fn wide_characters_keep_table_columns_aligned() {
    let dir = scratch("wide_text");
    let label = |name: &str, x: i32| Label {
        name: zarrdt::FixedString::new(name).unwrap(),
        x,
    };
    let array = ArrayOptions::new(vec![3], vec![3])
        .create(store(&dir), "/", &label("", 0))
        .unwrap();
    array
        .store_records(
            &[0..3],
            &[
                label("中文字符", 1),
                label("ab", 22),
                label("e\u{301}🦀", 333),
            ],
        )
        .unwrap();
    let table = zarrdt(["dump", path(&dir), "--format", "table"]).ok();
    assert_eq!(
        table,
        "index  name      x\n\
         -----  --------  ---\n\
         0      中文字符  1\n\
         1      ab        22\n\
         2      e\u{301}🦀       333\n"
    );
}

/// A record whose field names are not identifiers.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Spoken {
    #[zarr(rename = "Temp (C)")]
    temp: f32,
    #[zarr(rename = "b c")]
    b_c: u8,
    #[zarr(rename = "foo.mask")]
    mask: bool,
}

/// CSV and table columns are the field names as they are (`Temp (C)`, as Parquet names the
/// column), quoted only where a name would make the path ambiguous (`["foo.mask"]`); every
/// column name is taken back by `--fields`.
#[test]
fn column_names_are_field_names_quoted_only_where_needed() {
    let dir = scratch("spoken_names");
    let spoken = Spoken {
        temp: 21.5,
        b_c: 3,
        mask: true,
    };
    ArrayOptions::new(vec![1], vec![1])
        .create(store(&dir), "/", &spoken)
        .unwrap()
        .store_records(&[0..1], &[spoken])
        .unwrap();
    let csv = zarrdt(["dump", path(&dir), "--format", "csv"]).ok();
    assert_eq!(csv, "Temp (C),b c,\"[\"\"foo.mask\"\"]\"\n21.5,3,true\n");
    let table = zarrdt(["dump", path(&dir), "--format", "table"]).ok();
    assert!(
        table.starts_with("index  Temp (C)  b c  [\"foo.mask\"]\n"),
        "{table}"
    );
    for (column, header) in [
        ("Temp (C)", "Temp (C)"),
        ("b c", "b c"),
        ("[\"foo.mask\"]", "\"[\"\"foo.mask\"\"]\""),
    ] {
        let one = zarrdt(["dump", path(&dir), "--format", "csv", "--fields", column]).ok();
        assert_eq!(one.lines().next(), Some(header), "{one}");
    }
}

/// A record with a NumPy `U<n>` text field.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Note {
    id: u8,
    text: zarrdt::FixedString<4>,
}

/// A table row is one line whatever the text holds: control characters in `U<n>` text are
/// escaped there as Python escapes them (`\n`, `\t`, `\x07`); CSV quotes the text as it is.
#[test]
fn text_with_line_breaks_stays_in_its_table_row() {
    let dir = scratch("text_controls");
    let note = |id: u8, text: &str| Note {
        id,
        text: zarrdt::FixedString::new(text).unwrap(),
    };
    let array = ArrayOptions::new(vec![2], vec![2])
        .create(store(&dir), "/", &note(0, ""))
        .unwrap();
    array
        .store_records(&[0..2], &[note(1, "a\nb"), note(2, "\t\u{7}é\r")])
        .unwrap();
    let table = zarrdt(["dump", path(&dir), "--format", "table"]).ok();
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 4, "{table}");
    assert_eq!(
        lines[2].split_whitespace().collect::<Vec<_>>(),
        ["0", "1", "a\\nb"]
    );
    assert_eq!(
        lines[3].split_whitespace().collect::<Vec<_>>(),
        ["1", "2", "\\t\\x07é\\r"]
    );
    let csv = zarrdt(["dump", path(&dir), "--format", "csv"]).ok();
    assert_eq!(csv, "id,text\n1,\"a\nb\"\n2,\"\t\u{7}é\r\"\n");
}
