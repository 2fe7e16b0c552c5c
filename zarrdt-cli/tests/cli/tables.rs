//! `zarrdt export` and `zarrdt import` (issue 21): arrays to Parquet and Arrow IPC files and
//! back, as the `dump` of the result shows them; selections and fields; tables from
//! elsewhere; the progress line; every failure one line naming the file.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow_ipc::CompressionType;
use arrow_ipc::reader::{FileReader, StreamReader};
use arrow_ipc::writer::{FileWriter, IpcWriteOptions};
use common::{scratch, workspace, zarrdt};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::{Value as Json, json};
use zarrdt::array::{ArrayOptions, Compression, WriteRecords};
use zarrdt::arrow::arrow_array::{
    ArrayRef, Int32Array, Int64Array, RecordBatch, StringArray, TimestampMillisecondArray,
};
use zarrdt::types::DataType;
use zarrdt::value::Value;
use zarrdt::zarrs::filesystem::FilesystemStore;

/// A record of several kinds, with a fill value of special floats, written 2-D and sharded.
fn write_array(dir: &Path, sharded: bool) -> String {
    let data_type = DataType::from_v3_json(&json!({"name": "struct", "configuration": {"fields": [
        {"name": "id", "data_type": "uint32"},
        {"name": "pos", "data_type": {"name": "struct", "configuration": {"fields": [
            {"name": "0", "data_type": "float32"}, {"name": "1", "data_type": "float32"}]}}},
        {"name": "name", "data_type": {"name": "fixed_length_utf32", "configuration": {"length_bytes": 12}}},
        {"name": "at", "data_type": {"name": "numpy.datetime64", "configuration": {"unit": "D", "scale_factor": 1}}},
        {"name": "z", "data_type": "complex64"}]}}))
    .unwrap();
    let fill = data_type
        .fill_value_from_v3_json(
            &json!({"id": 7, "pos": {"0": "NaN", "1": -0.0},
            "name": "fil", "at": "NaT", "z": ["Infinity", "0x7fc00001"]}),
            None,
        )
        .unwrap();
    let path = dir.join("array.zarr");
    let store = Arc::new(FilesystemStore::new(&path).unwrap());
    let mut options =
        ArrayOptions::new(vec![6, 5], vec![2, 5]).compression(Compression::Zstd { level: 3 });
    if sharded {
        options = options.shards(vec![4, 5]);
    }
    let array = options.create_with(store, "/", &data_type, &fill).unwrap();
    let values: Vec<Value> = (0..20u32)
        .map(|i| {
            let name = ["", "é", "日本語"][i as usize % 3];
            data_type
                .fill_value_from_v3_json(
                    &json!({"id": i, "pos": {"0": i as f32 / 2.0, "1": 1.5},
                    "name": name, "at": i64::from(i) * 100 - 500, "z": [1.0, -f64::from(i)]}),
                    None,
                )
                .unwrap()
        })
        .collect();
    // The last two rows are never written: the fill value.
    array.store_values(&[0..4, 0..5], &values).unwrap();
    path.display().to_string()
}

/// The `dump` JSON of an array without its codec-dependent members.
fn dumped(path: &str) -> Json {
    dumped_within(path, None)
}

/// [`dumped`], opened with `--max-shard-index-size` `limit` if given (else the default).
fn dumped_within(path: &str, limit: Option<&str>) -> Json {
    let limit = limit.map(|limit| ["--max-shard-index-size", limit]);
    let mut dump = zarrdt(
        ["dump", path]
            .into_iter()
            .chain(limit.into_iter().flatten()),
    )
    .json();
    let object = dump.as_object_mut().unwrap();
    object.remove("chunks");
    dump
}

#[test]
fn export_and_import_give_back_the_array() {
    // zstd's levels as zstd takes them: 0 its default, negative ones faster.
    for (format, sharded, compression) in [
        ("parquet", false, "gzip:4"),
        ("arrow", true, "zstd:-5"),
        ("arrows", false, "zstd:0"),
    ] {
        let dir = scratch(&format!("tables-round-trip-{format}"));
        let array = write_array(&dir, sharded);
        let table = dir.join(format!("records.{format}"));
        let out = zarrdt(["export", &array, table.to_str().unwrap()]).ok();
        assert_eq!(
            out,
            format!(
                "exported 30 records of {array} to {} ({})\n",
                table.display(),
                match format {
                    "parquet" => "Parquet",
                    "arrow" => "Arrow IPC",
                    _ => "Arrow IPC stream",
                }
            )
        );
        if format == "arrows" {
            // The stream format, as `.arrows` conventionally holds (no file magic).
            let bytes = std::fs::read(&table).unwrap();
            assert!(!bytes.starts_with(b"ARROW1"));
            let rows: usize = StreamReader::try_new(File::open(&table).unwrap(), None)
                .unwrap()
                .map(|batch| batch.unwrap().num_rows())
                .sum();
            assert_eq!(rows, 30);
        }
        let back = dir.join("back.zarr");
        let out = zarrdt([
            "import",
            table.to_str().unwrap(),
            back.to_str().unwrap(),
            "--chunks",
            "3,5",
            "--shards",
            "6,5",
            "--compression",
            compression,
        ])
        .ok();
        assert!(
            out.contains("imported 30 records") && out.contains("(shape [6, 5])"),
            "{out}"
        );
        // The same data type, fill value, shape and values, bit for bit.
        assert_eq!(dumped(back.to_str().unwrap()), dumped(&array), "{format}");
        let metadata: Json =
            serde_json::from_str(&std::fs::read_to_string(back.join("zarr.json")).unwrap())
                .unwrap();
        assert_eq!(
            metadata["codecs"][0]["name"], "sharding_indexed",
            "{format}"
        );
        assert_eq!(
            metadata["codecs"][0]["configuration"]["chunk_shape"],
            json!([3, 5])
        );
        let (name, level) = compression.split_once(':').unwrap();
        let codec = &metadata["codecs"][0]["configuration"]["codecs"][1];
        assert_eq!(codec["name"], name, "{format}: {codec}");
        assert_eq!(
            codec["configuration"]["level"],
            json!(level.parse::<i32>().unwrap()),
            "{format}: {codec}"
        );
    }
}

/// An export edited elsewhere whose text grew past the width the hidden `zarr.data_type`
/// metadata gives (pyarrow keeps schema metadata through an edit) imports: that field is
/// widened to the longest value; the other fields, the fill value and the shape stay.
#[test]
fn an_edited_export_whose_text_grew_imports() {
    let dir = scratch("tables-grown-text");
    let array = write_array(&dir, false);
    let table = dir.join("records.parquet");
    zarrdt(["export", &array, table.to_str().unwrap()]).ok();
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(&table).unwrap()).unwrap();
    // The schema with its metadata, as pyarrow keeps it.
    let schema = reader.schema().clone();
    assert!(schema.metadata().contains_key("zarr.fill_value"));
    let batches: Vec<RecordBatch> = reader.build().unwrap().map(Result::unwrap).collect();
    let edited = dir.join("edited.parquet");
    let name = schema.index_of("name").unwrap();
    assert!(schema.field(name).metadata().contains_key("zarr.data_type"));
    let mut writer =
        ArrowWriter::try_new(File::create(&edited).unwrap(), schema.clone(), None).unwrap();
    for batch in &batches {
        let grown: Vec<String> = (0..batch.num_rows())
            .map(|i| format!("name {i:02}"))
            .collect();
        let mut columns = batch.columns().to_vec();
        columns[name] = Arc::new(StringArray::from(grown));
        writer
            .write(&RecordBatch::try_new(schema.clone(), columns).unwrap())
            .unwrap();
    }
    writer.close().unwrap();
    let back = dir.join("edited.zarr");
    zarrdt(["import", edited.to_str().unwrap(), back.to_str().unwrap()]).ok();
    let before = dumped(&array);
    let after = dumped(back.to_str().unwrap());
    let mut expected_type = before["data_type"].clone();
    expected_type["configuration"]["fields"][2]["data_type"]["configuration"]["length_bytes"] =
        json!(28);
    assert_eq!(after["data_type"], expected_type);
    assert_eq!(after["fill_value"], before["fill_value"]);
    assert_eq!(after["shape"], json!([6, 5]));
    assert_eq!(after["values"][1][2]["name"], "name 07");
    assert_eq!(after["values"][1][2]["id"], before["values"][1][2]["id"]);
}

/// Arrow IPC files compressed as pyarrow's Feather writer compresses them (LZ4 frames by
/// default, or zstd) import as uncompressed ones do.
#[test]
fn compressed_arrow_ipc_imports() {
    let dir = scratch("tables-compressed-ipc");
    let batch = RecordBatch::try_from_iter([
        ("n", Arc::new(Int32Array::from(vec![3, 1, 4])) as ArrayRef),
        (
            "s",
            Arc::new(StringArray::from(vec!["a", "bc", ""])) as ArrayRef,
        ),
    ])
    .unwrap();
    for (name, compression) in [
        ("lz4.feather", CompressionType::LZ4_FRAME),
        ("zstd.arrow", CompressionType::ZSTD),
    ] {
        let table = dir.join(name);
        let options = IpcWriteOptions::default()
            .try_with_compression(Some(compression))
            .unwrap();
        let mut writer = FileWriter::try_new_with_options(
            File::create(&table).unwrap(),
            &batch.schema(),
            options,
        )
        .unwrap();
        writer.write(&batch).unwrap();
        writer.finish().unwrap();
        let back = dir.join(format!("{name}.zarr"));
        zarrdt(["import", table.to_str().unwrap(), back.to_str().unwrap()]).ok();
        assert_eq!(
            dumped(back.to_str().unwrap())["values"],
            json!([{"n": 3, "s": "a"}, {"n": 1, "s": "bc"}, {"n": 4, "s": ""}]),
            "{name}"
        );
    }
}

#[test]
fn selections_and_fields() {
    let dir = scratch("tables-select");
    let array = write_array(&dir, false);
    let table = dir.join("part.parquet");
    zarrdt([
        "export",
        &array,
        table.to_str().unwrap(),
        "--select",
        "1:3,2:",
        "--fields",
        "name,pos.1",
        "--batch-rows",
        "2",
    ])
    .ok();
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(&table).unwrap()).unwrap();
    let schema = reader.schema().clone();
    let names: Vec<&String> = schema.fields().iter().map(|f| f.name()).collect();
    assert_eq!(names, ["pos", "name"]);
    assert_eq!(schema.metadata().get("zarr.shape").unwrap(), "[2,3]");
    let rows: usize = reader.build().unwrap().map(|b| b.unwrap().num_rows()).sum();
    assert_eq!(rows, 6);
    // The batches as written: of two rows at most.
    let ipc = dir.join("part.arrow");
    zarrdt([
        "export",
        &array,
        ipc.to_str().unwrap(),
        "--select",
        "1:3,2:",
        "--batch-rows",
        "2",
    ])
    .ok();
    let reader = FileReader::try_new(File::open(&ipc).unwrap(), None).unwrap();
    let batches: Vec<RecordBatch> = reader.map(Result::unwrap).collect();
    assert_eq!(batches.len(), 3);
    assert!(
        batches
            .iter()
            .all(|b| b.num_rows() == 2 && b.num_columns() == 5)
    );
    // Imported, the part is an array of that shape with those fields.
    let back = dir.join("part.zarr");
    zarrdt(["import", table.to_str().unwrap(), back.to_str().unwrap()]).ok();
    let dump = dumped(back.to_str().unwrap());
    assert_eq!(dump["shape"], json!([2, 3]));
    assert_eq!(
        dump["values"][0][0],
        // Element [1, 2] is record 7 of the array.
        json!({"pos": {"1": 1.5}, "name": "é"})
    );
    assert_eq!(
        dump["fill_value"],
        json!({"pos": {"1": -0.0}, "name": "fil"})
    );
}

#[test]
fn tables_from_elsewhere() {
    let dir = scratch("tables-foreign");
    let table = dir.join("people.parquet");
    let batch = RecordBatch::try_from_iter([
        (
            "age",
            Arc::new(Int32Array::from(vec![31, 45, 27])) as ArrayRef,
        ),
        (
            "name",
            Arc::new(StringArray::from(vec!["Ada", "Grace Hopper", "Łukasz"])) as ArrayRef,
        ),
        (
            "seen",
            Arc::new(TimestampMillisecondArray::from(vec![
                Some(1),
                None,
                Some(-2),
            ])) as ArrayRef,
        ),
    ])
    .unwrap();
    let mut writer =
        ArrowWriter::try_new(File::create(&table).unwrap(), batch.schema(), None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    let back = dir.join("people.zarr");
    zarrdt(["import", table.to_str().unwrap(), back.to_str().unwrap()]).ok();
    let dump = dumped(back.to_str().unwrap());
    assert_eq!(
        dump["data_type"]["configuration"]["fields"],
        json!([
            {"name": "age", "data_type": "int32"},
            {"name": "name", "data_type": {"name": "fixed_length_utf32", "configuration": {"length_bytes": 48}}},
            {"name": "seen", "data_type": {"name": "numpy.datetime64", "configuration": {"unit": "ms", "scale_factor": 1}}}
        ])
    );
    assert_eq!(
        dump["values"],
        json!([
            {"age": 31, "name": "Ada", "seen": 1},
            {"age": 45, "name": "Grace Hopper", "seen": i64::MIN},
            {"age": 27, "name": "Łukasz", "seen": -2}
        ])
    );
    // No rows: text, whose width only rows tell, is one character wide; an empty array.
    let empty = dir.join("empty.parquet");
    let none = batch.slice(0, 0);
    let mut writer =
        ArrowWriter::try_new(File::create(&empty).unwrap(), none.schema(), None).unwrap();
    writer.write(&none).unwrap();
    writer.close().unwrap();
    let back = dir.join("empty.zarr");
    zarrdt(["import", empty.to_str().unwrap(), back.to_str().unwrap()]).ok();
    let dump = dumped(back.to_str().unwrap());
    assert_eq!(dump["shape"], json!([0]));
    assert_eq!(
        dump["data_type"]["configuration"]["fields"][1],
        json!({"name": "name", "data_type": {"name": "fixed_length_utf32", "configuration": {"length_bytes": 4}}})
    );
}

#[test]
fn progress_line() {
    let dir = scratch("tables-progress");
    let array = write_array(&dir, false);
    let table = dir.join("p.arrow");
    let run = zarrdt(["export", &array, table.to_str().unwrap(), "--progress"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .ends_with("\r  exported 30 / 30 records (100 %)\n"),
        "{:?}",
        run.stderr
    );
    // Unasked, not on a terminal: quiet.
    let run = zarrdt(["export", &array, table.to_str().unwrap()]);
    assert_eq!(run.stderr, "");
    let back = dir.join("p.zarr");
    let run = zarrdt([
        "import",
        table.to_str().unwrap(),
        back.to_str().unwrap(),
        "--progress",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The table's shape is 2-D, so the rows of the IPC file were counted first.
    assert!(
        run.stderr
            .ends_with("\r  imported 30 / 30 records (100 %)\n"),
        "{:?}",
        run.stderr
    );
}

/// A table whose `zarr.shape` metadata multiplies past 64 bits is refused, naming the key
/// (it panicked with overflow checks on, and wrapped without); one that fits with a 0 among
/// its extents is no panic either.
#[test]
fn a_zarr_shape_beyond_64_bits_is_refused() {
    let dir = scratch("tables-huge-shape");
    let data_type =
        r#"{"name":"struct","configuration":{"fields":[{"name":"a","data_type":"int32"}]}}"#;
    let cases: [(&str, Vec<i32>, &str); 4] = [
        ("square", vec![1, 2, 3, 4], "[4294967296, 4294967296]"),
        ("empty", vec![], "[9223372036854775808, 2]"),
        ("three", vec![1, 2, 3, 4], "[4, 4611686018427387904, 4]"),
        ("zero", vec![], "[0, 18446744073709551615]"),
    ];
    for (name, values, shape) in cases {
        let batch =
            RecordBatch::try_from_iter([("a", Arc::new(Int32Array::from(values)) as ArrayRef)])
                .unwrap();
        let metadata = std::collections::HashMap::from([
            ("zarr.data_type".to_owned(), data_type.to_owned()),
            ("zarr.shape".to_owned(), shape.to_owned()),
        ]);
        let schema = Arc::new(batch.schema().as_ref().clone().with_metadata(metadata));
        let batch = RecordBatch::try_new(schema.clone(), batch.columns().to_vec()).unwrap();
        let table = dir.join(format!("{name}.arrow"));
        let mut writer = FileWriter::try_new(File::create(&table).unwrap(), &schema).unwrap();
        writer.write(&batch).unwrap();
        writer.finish().unwrap();
        let out = dir.join(format!("{name}.zarr"));
        let run = zarrdt(["import", table.to_str().unwrap(), out.to_str().unwrap()]);
        if name == "zero" {
            // Its extents fit: refused for the chunks they make, on one line, naming the
            // default chunks rather than options never given.
            run.fails(1, out.to_str().unwrap(), ": the default chunks [1, ");
            let run = zarrdt([
                "import",
                table.to_str().unwrap(),
                out.to_str().unwrap(),
                "--shards",
                "2,2",
            ]);
            run.fails(
                1,
                out.to_str().unwrap(),
                ": --shards (with the default chunks [",
            );
        } else {
            run.fails(1, table.to_str().unwrap(), "zarr.shape");
        }
        assert!(!out.exists(), "{name}");
    }
}

#[test]
fn failures_are_one_line_naming_the_file() {
    let dir = scratch("tables-failures");
    let array = write_array(&dir, false);
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    zarrdt(["export", &array, &path("t.csv")]).fails(1, "t.csv", "unknown table format");
    // A table is a local file: an object store URL is said to be one (it was a directory
    // `s3:`, "No such file or directory"), for export's output and import's input alike.
    let local = "table files are local files; `s3://` is not read or written here";
    zarrdt(["export", &array, "s3://bucket/t.parquet"]).fails(1, "s3://bucket/t.parquet", local);
    let out = path("from-s3.zarr");
    zarrdt(["import", "s3://bucket/t.parquet", &out]).fails(1, "s3://bucket/t.parquet", local);
    assert!(!Path::new(&out).exists());
    // Feather V1 (pyarrow's `version=1`, magic "FEA1") is named, not read as a stream whose
    // length is its magic.
    let feather = path("old.feather");
    std::fs::write(&feather, b"FEA1\x00\x00\x00\x00 some columns FEA1").unwrap();
    zarrdt(["import", &feather, &out]).fails(1, "old.feather", "a Feather V1 file");
    assert!(!Path::new(&out).exists());
    // No batches of 0 rows (they were taken as 1, the slowest setting).
    let zero = zarrdt(["export", &array, &path("t.parquet"), "--batch-rows", "0"]);
    assert_eq!(zero.code, 2, "{}", zero.stderr);
    assert!(zero.stderr.contains("--batch-rows"), "{}", zero.stderr);
    zarrdt(["export", &path("none.zarr"), &path("t.parquet")]).fails(1, "none.zarr", "");
    // A datetime64[s] beyond Parquet's milliseconds: refused, and no file is left.
    let fixture =
        workspace().join("tests/fixtures/zarr-python-3.4.2/v3_struct_extension_fields.zarr");
    let fixture = fixture.to_str().unwrap();
    zarrdt(["export", fixture, &path("t.parquet")]).fails(
        1,
        "t.parquet",
        "t, record 4: 9223372036854775807 s is beyond Parquet's timestamps",
    );
    assert!(!dir.join("t.parquet").exists());
    // The same in Arrow's own format holds it.
    zarrdt(["export", fixture, &path("t.arrow")]).ok();
    // Importing onto an existing path, with chunks of the wrong rank, or a table with a null
    // where Zarr has none.
    zarrdt(["import", &path("t.arrow"), &array]).fails(1, &array, "already exists");
    // The same through a `file://` URL (no check of the directory first: the store is asked),
    // with options that are fine and with shards that do not fit the chunks: the array there
    // is said first, and it still opens (a failed import erased its zarr.json).
    let url = format!("file://{array}");
    zarrdt(["import", &path("t.arrow"), &url]).fails(1, &url, "already exists");
    zarrdt([
        "import",
        &path("t.arrow"),
        &url,
        "--chunks",
        "2",
        "--shards",
        "3",
    ])
    .fails(1, &url, "already exists");
    zarrdt(["export", &array, &path("still.parquet")]).ok();
    // A store location that holds anything is no place for a new array (an S3 prefix with
    // arrays below it would become their parent): not even chunks with no array.
    let blocked = path("blocked.zarr");
    std::fs::create_dir_all(dir.join("blocked.zarr/c/0")).unwrap();
    let blocked_url = format!("file://{blocked}");
    zarrdt(["import", &path("t.arrow"), &blocked_url]).fails(
        1,
        &blocked_url,
        "already exists (it holds c/); import creates a new array",
    );
    assert!(!dir.join("blocked.zarr/zarr.json").exists());
    std::fs::write(dir.join("blocked.zarr/c/0/x"), b"").unwrap();
    let parent_url = format!("file://{}", path(""));
    zarrdt(["import", &path("t.arrow"), &parent_url]).fails(
        1,
        &parent_url,
        "already exists (it holds ",
    );
    zarrdt([
        "import",
        &path("t.arrow"),
        &path("new.zarr"),
        "--chunks",
        "2,2",
    ])
    .fails(
        1,
        "new.zarr",
        "--chunks has 2 extents; the array has 1 dimension ([5])",
    );
    zarrdt([
        "import",
        &path("t.arrow"),
        &path("new.zarr"),
        "--shards",
        "4,1",
    ])
    .fails(
        1,
        "new.zarr",
        "--shards has 2 extents; the array has 1 dimension ([5])",
    );
    // An Arrow IPC file of numbers only is not read before the array is made: its rows are
    // not known yet.
    let numbers = workspace().join("tests/fixtures/zarr-python-3.4.2/v3_derive_particle.zarr");
    zarrdt(["export", numbers.to_str().unwrap(), &path("numbers.arrow")]).ok();
    zarrdt([
        "import",
        &path("numbers.arrow"),
        &path("new.zarr"),
        "--chunks",
        "2,2",
    ])
    .fails(
        1,
        "new.zarr",
        "--chunks has 2 extents; the array has 1 dimension, the table's rows",
    );
    // A Parquet file says how many rows it has.
    zarrdt(["export", numbers.to_str().unwrap(), &path("rows.parquet")]).ok();
    zarrdt([
        "import",
        &path("rows.parquet"),
        &path("new.zarr"),
        "--chunks",
        "2,2",
    ])
    .fails(
        1,
        "new.zarr",
        "--chunks has 2 extents; the array has 1 dimension ([5])",
    );
    assert!(
        !dir.join("new.zarr").exists(),
        "a refused import makes nothing"
    );
    // Shards without chunks: the default chunks (all 5 records) tile the shard instead.
    let unsharded = path("unsharded.zarr");
    zarrdt(["import", &path("t.arrow"), &unsharded]).ok();
    for (shards, chunks) in [("3", 3), ("4", 4), ("7", 7), ("9", 3), ("1048576", 4)] {
        let sharded = path(&format!("sharded-{shards}.zarr"));
        zarrdt(["import", &path("t.arrow"), &sharded, "--shards", shards]).ok();
        let metadata: Json =
            serde_json::from_str(&std::fs::read_to_string(format!("{sharded}/zarr.json")).unwrap())
                .unwrap();
        assert_eq!(
            metadata["codecs"][0]["configuration"]["chunk_shape"],
            json!([chunks]),
            "--shards {shards}"
        );
        assert_eq!(dumped(&sharded), dumped(&unsharded), "--shards {shards}");
    }
    // The array is made within the limits it is to be read with: shards of 5 inner chunks
    // have an index of 80 bytes.
    let limited = path("limited.zarr");
    let import = |limit: &str, shards: &str| {
        zarrdt([
            "import",
            "--max-shard-index-size",
            limit,
            &path("t.arrow"),
            &limited,
            "--chunks",
            "1",
            "--shards",
            shards,
        ])
    };
    import("64", "5").fails(
        1,
        "limited.zarr",
        "an index of 80 bytes, more than the limit of 64",
    );
    assert!(
        !dir.join("limited.zarr").exists(),
        "a refused import makes nothing"
    );
    import("80", "5").ok();
    assert_eq!(
        dumped_within(&limited, Some("80")),
        dumped(&unsharded),
        "shards at the limit"
    );
    let table = dir.join("nulls.parquet");
    let batch = RecordBatch::try_from_iter([(
        "a",
        Arc::new(Int32Array::from(vec![Some(1), None])) as ArrayRef,
    )])
    .unwrap();
    let mut writer =
        ArrowWriter::try_new(File::create(&table).unwrap(), batch.schema(), None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    zarrdt(["import", table.to_str().unwrap(), &path("n.zarr")]).fails(
        1,
        "nulls.parquet",
        "a, record 1: null, and Zarr records have no nulls",
    );
    // A record of more leaf fields than a Parquet file is written with (each a column whose
    // writer holds about 40 KB): refused, naming what to do; Arrow IPC writes it.
    let wide = dir.join("wide.zarr");
    std::fs::create_dir_all(&wide).unwrap();
    let descr: Vec<Json> = (0..10_001)
        .map(|i| json!([format!("f{i}"), "|u1"]))
        .collect();
    let zarray = json!({"zarr_format": 2, "shape": [2], "chunks": [2], "dtype": descr,
        "fill_value": null, "order": "C", "compressor": null, "filters": null});
    std::fs::write(wide.join(".zarray"), zarray.to_string()).unwrap();
    let wide = wide.to_str().unwrap();
    zarrdt(["export", wide, &path("wide.parquet")]).fails(
        1,
        "wide.parquet",
        "the records have 10001 leaf fields, each a Parquet column",
    );
    assert!(!dir.join("wide.parquet").exists());
    zarrdt(["export", wide, &path("wide.arrow")]).ok();
    // --max-element-size holds for imports too, before anything of the record's size.
    zarrdt([
        "--max-element-size",
        "3",
        "import",
        table.to_str().unwrap(),
        &path("m.zarr"),
    ])
    .fails(
        1,
        "nulls.parquet",
        "a record of the table is 4 bytes, more than the limit of 3 bytes",
    );
    assert!(!dir.join("m.zarr").exists());
    assert!(
        !dir.join("n.zarr").exists(),
        "a failed import leaves no array"
    );
    zarrdt([
        "import",
        &path("t.arrow"),
        &path("c.zarr"),
        "--compression",
        "brotli",
    ])
    .fails(2, "brotli", "");
    zarrdt([
        "import",
        &path("t.arrow"),
        &path("s.zarr"),
        "--chunks",
        "2",
        "--shards",
        "3",
    ])
    .fails(
        1,
        "s.zarr",
        "--chunks, --shards: the shard shape [3] is not a positive multiple of the chunk shape [2]",
    );
    assert!(!dir.join("s.zarr").exists(), "nor its directory");
    // A failed export keeps the file that was at OUT; a finished one replaces it; neither
    // leaves its partial file.
    std::fs::write(dir.join("keep.parquet"), "precious").unwrap();
    zarrdt(["export", fixture, &path("keep.parquet")]).fails(1, "keep.parquet", "beyond");
    assert_eq!(
        std::fs::read_to_string(dir.join("keep.parquet")).unwrap(),
        "precious"
    );
    zarrdt(["export", &array, &path("keep.parquet")]).ok();
    assert!(
        std::fs::read(dir.join("keep.parquet"))
            .unwrap()
            .starts_with(b"PAR1")
    );
    let partial = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .find(|name| name.ends_with(".partial"));
    assert_eq!(partial, None);
    // Bytes that made arrow-rs' IPC reader panic: an error naming the file and the damage.
    let damaged = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/damaged/slice_offset.arrow");
    zarrdt(["import", damaged.to_str().unwrap(), &path("d.zarr")]).fails(
        1,
        "slice_offset.arrow",
        "the Arrow IPC data is damaged",
    );
    assert!(!dir.join("d.zarr").exists());
}

/// A compressed Arrow IPC buffer starts with its uncompressed length, which arrow-rs
/// allocates before it decompresses: one that cannot be allocated aborted `import` (a
/// 400-byte file declaring 32 GiB). One its codec cannot make of its bytes is an error naming
/// the batch and buffer, in files and streams, LZ4 and zstd, with no array left; the same
/// files undamaged import.
#[test]
fn compressed_ipc_buffers_of_impossible_sizes_are_errors() {
    use arrow_ipc::writer::StreamWriter;
    let dir = scratch("tables-ipc-sizes");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let values: Vec<i64> = (0..1000).map(|i| i % 7).collect();
    let batch = RecordBatch::try_from_iter([("x", Arc::new(Int64Array::from(values)) as ArrayRef)])
        .unwrap();
    for codec in [CompressionType::LZ4_FRAME, CompressionType::ZSTD] {
        let options = IpcWriteOptions::default()
            .try_with_compression(Some(codec))
            .unwrap();
        for stream in [false, true] {
            let mut bytes = Vec::new();
            if stream {
                let mut writer = StreamWriter::try_new_with_options(
                    &mut bytes,
                    &batch.schema(),
                    options.clone(),
                )
                .unwrap();
                writer.write(&batch).unwrap();
                writer.finish().unwrap();
            } else {
                let mut writer =
                    FileWriter::try_new_with_options(&mut bytes, &batch.schema(), options.clone())
                        .unwrap();
                writer.write(&batch).unwrap();
                writer.finish().unwrap();
            }
            let name = format!("{codec:?}-{}", if stream { "s.arrows" } else { "f.arrow" });
            std::fs::write(dir.join(&name), &bytes).unwrap();
            zarrdt(["import", &path(&name), &path(&format!("{name}.zarr"))]).ok();
            // The values buffer's length before its compressed bytes: 8000.
            let prefix = 8000i64.to_le_bytes();
            let at: Vec<usize> = (0..bytes.len() - 8)
                .filter(|&i| bytes[i..i + 8] == prefix)
                .collect();
            assert_eq!(at.len(), 1, "{name}");
            bytes[at[0]..at[0] + 8].copy_from_slice(&(1i64 << 62).to_le_bytes());
            let damaged = format!("damaged-{name}");
            std::fs::write(dir.join(&damaged), &bytes).unwrap();
            let codec = if codec == CompressionType::ZSTD {
                "zstd"
            } else {
                "LZ4"
            };
            zarrdt(["import", &path(&damaged), &path("d.zarr")]).fails(
                1,
                &damaged,
                &format!(
                    "the Arrow IPC data is damaged: record batch 0, buffer 1: the compressed \
                     buffer says it holds 4611686018427387904 bytes uncompressed, more than \
                     {codec} makes of "
                ),
            );
            assert!(!dir.join("d.zarr").exists(), "{damaged}");
        }
    }
}

/// Damaged Arrow IPC files whose footer, blocks or messages arrow-rs would allocate by their
/// claims before reading them (found by the `cli_import` fuzz target): each is an error before
/// arrow-rs reads the file, with nothing made.
#[test]
fn damaged_ipc_files_are_errors_before_arrow_allocates() {
    let dir = scratch("tables-ipc-files");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let refused = |name: &str, bytes: &[u8], says: &str| {
        std::fs::write(dir.join(name), bytes).unwrap();
        zarrdt(["import", &path(name), &path("out.zarr")]).fails(1, name, says);
        assert!(!dir.join("out.zarr").exists(), "{name}");
    };
    // The trailer of "ARROW1ARROW1" claims a footer of 827 805 522 bytes ("ROW1"), which
    // arrow-rs allocated (zeroed) before reading.
    refused(
        "footer.arrow",
        b"ARROW1ARROW1",
        "the Arrow IPC data is damaged: its footer says it is 827805522 bytes, more than the 2 \
         bytes before the file's trailer",
    );
    let values: Vec<i64> = (0..1000).map(|i| i % 7).collect();
    let batch = RecordBatch::try_from_iter([("x", Arc::new(Int64Array::from(values)) as ArrayRef)])
        .unwrap();
    let options = IpcWriteOptions::default()
        .try_with_compression(Some(CompressionType::LZ4_FRAME))
        .unwrap();
    let mut bytes = Vec::new();
    let mut writer =
        FileWriter::try_new_with_options(&mut bytes, &batch.schema(), options).unwrap();
    writer.write(&batch).unwrap();
    writer.finish().unwrap();
    drop(writer);
    // The record batch's block in the footer: offset, metadata length (and 4 bytes of
    // padding), body length, as the footer's flatbuffer stores the struct.
    let footer_length =
        u32::from_le_bytes(bytes[bytes.len() - 10..bytes.len() - 6].try_into().unwrap());
    let footer_at = bytes.len() - 10 - footer_length as usize;
    let footer = arrow_ipc::root_as_footer(&bytes[footer_at..bytes.len() - 10]).unwrap();
    let block = *footer.recordBatches().unwrap().get(0);
    let mut encoded = block.offset().to_le_bytes().to_vec();
    encoded.extend(block.metaDataLength().to_le_bytes());
    encoded.extend([0; 4]);
    encoded.extend(block.bodyLength().to_le_bytes());
    let at = (footer_at..bytes.len() - 24)
        .find(|&i| bytes[i..i + 24] == encoded[..])
        .expect("the block in the footer");
    // A block claiming a terabyte of body, which arrow-rs allocated (zeroed) before reading.
    let mut huge_block = bytes.clone();
    huge_block[at + 16..at + 24].copy_from_slice(&(1i64 << 40).to_le_bytes());
    refused(
        "block.arrow",
        &huge_block,
        "record batch 0: its block (at byte ",
    );
    // The message's length prefix cut to 8 bytes: its flatbuffer runs past it, which arrow-rs
    // reads anyway (it parses the whole block), so a declared uncompressed length of 2^62
    // there must be seen too (it aborted the process).
    let message = block.offset() as usize;
    assert_eq!(bytes[message..message + 4], [0xff; 4]);
    let mut past_prefix = bytes.clone();
    past_prefix[message + 4..message + 8].copy_from_slice(&8u32.to_le_bytes());
    let prefix = 8000i64.to_le_bytes();
    let length_at: Vec<usize> = (0..footer_at - 8)
        .filter(|&i| bytes[i..i + 8] == prefix)
        .collect();
    assert_eq!(length_at.len(), 1);
    past_prefix[length_at[0]..length_at[0] + 8].copy_from_slice(&(1i64 << 62).to_le_bytes());
    refused(
        "prefix.arrow",
        &past_prefix,
        "record batch 0, buffer 1: the compressed buffer says it holds 4611686018427387904 \
         bytes uncompressed, more than LZ4 makes of ",
    );
}

/// A zero-dimensional array (one element) goes to a one-row table and comes back with no
/// dimensions, from Parquet and from Arrow IPC alike.
#[test]
fn a_zero_dimensional_array_round_trips() {
    let dir = scratch("tables-0d");
    let store = Arc::new(FilesystemStore::new(dir.join("one.zarr")).unwrap());
    let array = ArrayOptions::new(vec![], vec![])
        .compression(Compression::None)
        .create(store, "/", &0.5f64)
        .unwrap();
    array.store_records(&[], &[2.25f64]).unwrap();
    let source = dir.join("one.zarr");
    for table in ["one.parquet", "one.arrow"] {
        let table = dir.join(table);
        let back = dir.join(format!(
            "{}.zarr",
            table.file_name().unwrap().to_string_lossy()
        ));
        zarrdt(["export", source.to_str().unwrap(), table.to_str().unwrap()]).ok();
        zarrdt(["import", table.to_str().unwrap(), back.to_str().unwrap()]).ok();
        let dump = dumped(back.to_str().unwrap());
        assert_eq!(dump["shape"], json!([]), "{table:?}");
        assert_eq!(dump["values"], json!(2.25), "{table:?}");
    }
}
