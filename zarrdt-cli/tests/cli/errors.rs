//! Errors: one line on stderr naming the path and the problem, exit code 1 (2 for usage
//! errors, clap's), never a panic or a backtrace.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{scratch, workspace, zarrdt};
use serde_json::{Value as Json, json};

/// A copy of a committed fixture (uncompressed v3 struct, 5 elements in chunks of 2) to break.
fn fixture_copy(name: &str) -> PathBuf {
    let dir = scratch(name);
    let source = workspace().join("tests/fixtures/zarr-python-3.4.2/v3_struct_nested.zarr");
    copy_dir(&source, &dir);
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn edit_metadata(dir: &Path, edit: impl FnOnce(&mut Json)) {
    let file = dir.join("zarr.json");
    let mut json: Json = serde_json::from_slice(&fs::read(&file).unwrap()).unwrap();
    edit(&mut json);
    fs::write(&file, serde_json::to_vec(&json).unwrap()).unwrap();
}

fn p(dir: &Path) -> &str {
    dir.to_str().unwrap()
}

#[test]
fn not_an_array() {
    let dir = scratch("not_an_array");
    for command in ["inspect", "dump", "rust"] {
        zarrdt([command, p(&dir)]).fails(1, p(&dir), "no Zarr array");
    }
    let missing = dir.join("nothing-here.zarr");
    zarrdt(["dump", p(&missing)]).fails(1, p(&missing), "No such file or directory");
    let file = dir.join("file.txt");
    fs::write(&file, "hello").unwrap();
    zarrdt(["inspect", p(&file)]).fails(1, p(&file), "not a Zarr array");
}

#[test]
fn invalid_metadata() {
    let dir = fixture_copy("not_json");
    fs::write(dir.join("zarr.json"), "{not json").unwrap();
    zarrdt(["inspect", p(&dir)]).fails(1, p(&dir), "invalid array metadata zarr.json");

    let dir = fixture_copy("no_shape");
    edit_metadata(&dir, |json| {
        json.as_object_mut().unwrap().remove("shape");
    });
    zarrdt(["dump", p(&dir)]).fails(1, p(&dir), "shape");

    let dir = fixture_copy("bad_type");
    edit_metadata(&dir, |json| {
        json["data_type"]["configuration"]["fields"][1]["data_type"] = json!("float99");
    });
    zarrdt(["dump", p(&dir)]).fails(1, p(&dir), "\"float99\"");

    let dir = fixture_copy("bad_fill");
    edit_metadata(&dir, |json| json["fill_value"]["value"] = json!("high"));
    zarrdt(["dump", p(&dir)]).fails(1, p(&dir), "fill");

    let dir = scratch("bad_zarray");
    fs::write(dir.join(".zarray"), r#"{"zarr_format": 2, "shape": [3]}"#).unwrap();
    zarrdt(["inspect", p(&dir)]).fails(1, p(&dir), ".zarray");
}

/// Shards whose index is more than `--max-shard-index-size` (256 MiB, 16 Mi inner chunks, by
/// default) are refused when the array is opened, naming the codec, the size, the limit and the
/// flag: a write into one would store its whole index, a read of one reads it. A larger limit
/// opens it.
#[test]
fn shard_indexes_beyond_the_limit() {
    let dir = scratch("shard_index_limit");
    let bytes = json!({"name": "bytes", "configuration": {"endian": "little"}});
    fs::write(
        dir.join("zarr.json"),
        json!({"zarr_format": 3, "node_type": "array", "shape": [10], "data_type": "uint8",
               "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1u64 << 29]}},
               "chunk_key_encoding": {"name": "default"}, "fill_value": 0,
               "codecs": [{"name": "sharding_indexed", "configuration": {
                   "chunk_shape": [1], "codecs": [bytes.clone()], "index_codecs": [bytes]}}]})
        .to_string(),
    )
    .unwrap();
    for command in ["inspect", "dump", "rust"] {
        for part in [
            "codecs[0]",
            "8589934592 bytes",
            "limit of 268435456 bytes",
            "--max-shard-index-size",
        ] {
            zarrdt([command, p(&dir)]).fails(1, p(&dir), part);
        }
    }
    // With the limit raised, it opens (and reads nothing: no shard is stored).
    let inspected = zarrdt(["inspect", "--max-shard-index-size", "8589934592", p(&dir)]).ok();
    assert!(
        inspected.contains("sharding_indexed") || inspected.contains("shard"),
        "{inspected}"
    );
}

/// An element larger than `--max-element-size` (16 MiB by default) is refused before anything
/// of its size is allocated, naming its size, the limit and the flag; a larger limit opens it.
#[test]
fn elements_beyond_the_limit() {
    let dir = scratch("element_limit");
    fs::write(
        dir.join(".zarray"),
        json!({"zarr_format": 2, "shape": [0], "chunks": [1],
               "dtype": [["a", "|u1", [16_777_217]]], "fill_value": 0,
               "order": "C", "compressor": null, "filters": null})
        .to_string(),
    )
    .unwrap();
    for command in ["inspect", "dump", "rust"] {
        zarrdt([command, p(&dir)]).fails(1, p(&dir), "16777217 bytes");
        zarrdt([command, p(&dir)]).fails(1, p(&dir), "limit of 16777216 bytes");
        zarrdt([command, p(&dir)]).fails(1, p(&dir), "--max-element-size");
        zarrdt([command, "--max-element-size", "100", p(&dir)]).fails(1, p(&dir), "limit of 100");
    }
    // With the limit raised, the fill value (16 MiB of zeros) is written in full; read here
    // as text, since a JSON tree of it would take a gigabyte.
    let dumped = zarrdt(["dump", "--max-element-size", "16777217", p(&dir)]).ok();
    assert!(
        dumped.contains("\"fill_value\": {\"a\":[0,0,0,"),
        "{}",
        &dumped[..200]
    );
    assert!(dumped.contains("\"values\": []"), "{}", &dumped[..200]);
    assert_eq!(dumped.matches("0,").count(), 16_777_216);
}

#[test]
fn unsupported_codec() {
    let dir = fixture_copy("codec");
    edit_metadata(&dir, |json| {
        json["codecs"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "lzma9000", "configuration": {}}));
    });
    zarrdt(["dump", p(&dir)]).fails(
        1,
        p(&dir),
        r#"codec {"name":"lzma9000","configuration":{}}: not a codec zarrdt reads: no codec of this name is registered with zarrs"#,
    );
}

/// A compression level outside numcodecs' range is an error naming it, in Zarr v3 and v2 (a
/// bz2 level of 0 made zarrs panic: the `cli_dump` fuzz target found it).
#[test]
fn compression_levels_out_of_range() {
    let dir = fixture_copy("bz2_level_0");
    edit_metadata(&dir, |json| {
        json["codecs"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "numcodecs.bz2", "configuration": {"level": 0}}));
    });
    zarrdt(["dump", p(&dir)]).fails(
        1,
        p(&dir),
        "bz2: invalid configuration: level 0 is not 1 to 9",
    );

    let dir = scratch("bz2_level_0_v2");
    let zarray = json!({"zarr_format": 2, "shape": [4], "chunks": [2], "dtype": "<i4",
        "fill_value": 0, "order": "C", "compressor": {"id": "bz2", "level": 0},
        "filters": null});
    fs::write(dir.join(".zarray"), zarray.to_string()).unwrap();
    zarrdt(["inspect", p(&dir)]).fails(
        1,
        p(&dir),
        "compressor: bz2: invalid configuration: level 0 is not 1 to 9",
    );
}

#[test]
fn chunk_of_the_wrong_size() {
    let dir = fixture_copy("short_chunk");
    // The second chunk (elements 2 and 3) loses most of its 32 bytes.
    let chunk = dir.join("c").join("1");
    let bytes = fs::read(&chunk).unwrap();
    fs::write(&chunk, &bytes[..5]).unwrap();
    let run = zarrdt(["dump", p(&dir)]);
    assert!(
        run.stdout.contains("\"values\""),
        "streamed up to the chunk"
    );
    run.fails(
        1,
        p(&dir),
        "chunk c/1: the size of a decoded chunk is 5, expected 32",
    );
    // The chunks before it are fine.
    zarrdt(["dump", p(&dir), "--select", "0:2"]).ok();
    zarrdt(["dump", p(&dir), "--select", "3:4", "--format", "csv"]).fails(1, p(&dir), "chunk c/1");
}

#[test]
fn selections_and_fields() {
    let dir = fixture_copy("selections");
    zarrdt(["dump", p(&dir), "--select", "2:9"]).fails(
        1,
        p(&dir),
        "--select 2:9 is out of range for dimension 0 of length 5",
    );
    zarrdt(["dump", p(&dir), "--select", "7"]).fails(1, p(&dir), "index 7 is out of range");
    zarrdt(["dump", p(&dir), "--select", "0:1,0:1"]).fails(
        1,
        p(&dir),
        "--select has 2 ranges, but the array has 1 dimension",
    );
    zarrdt(["dump", p(&dir), "--select", "3:1"]).fails(1, p(&dir), "stop before start");
    zarrdt(["dump", p(&dir), "--fields", "point.z"]).fails(
        1,
        p(&dir),
        "no field \"point.z\" (its fields: point, value)",
    );
    // A valid selection with a negative start, for contrast.
    let tail = zarrdt(["dump", p(&dir), "--select", "-2:"]).json();
    assert_eq!(tail["values"].as_array().unwrap().len(), 2);
}

#[test]
fn usage_errors_exit_2() {
    let dir = fixture_copy("usage");
    zarrdt(["dump", p(&dir), "--select", "1:2:3"]).fails(
        2,
        "--select",
        "steps other than 1 are not supported",
    );
    zarrdt(["dump", p(&dir), "--select", "a"]).fails(2, "--select", "is not an index");
    zarrdt(["dump", p(&dir), "--select", "18446744073709551615:"]).fails(
        2,
        "--select",
        "\"18446744073709551615\" is out of range for an index",
    );
    zarrdt(["dump", p(&dir), "--format", "xml"]).fails(2, "--format", "xml");
    zarrdt(["dump", p(&dir), "--limit", "ten"]).fails(2, "--limit", "ten");
    zarrdt(["rust", p(&dir), "--name", "type"]).fails(2, "--name", "not a Rust type name");
    zarrdt(["frobnicate"]).fails(2, "frobnicate", "unrecognized subcommand");
    zarrdt(["dump"]).fails(2, "PATH", "required");
}

#[test]
fn records_no_rust_struct_can_hold() {
    let aligned = workspace().join("tests/fixtures/zarr-python-2.18.7/v2_aligned.zarr");
    zarrdt(["rust", p(&aligned)]).fails(1, p(&aligned), "3 bytes of padding at offsets 1..4");
}

/// An array of scalars with no Rust type (NumPy's `|V3`, zarrs' `r24`) says so of its
/// elements: it has no field, so none is named.
#[test]
fn scalars_no_rust_type_can_hold() {
    let dir = scratch("void_scalars");
    fs::write(
        dir.join(".zarray"),
        json!({"zarr_format": 2, "shape": [2], "chunks": [2], "dtype": "|V3",
               "fill_value": null, "order": "C", "compressor": null, "filters": null})
        .to_string(),
    )
    .unwrap();
    let run = zarrdt(["rust", p(&dir)]);
    assert!(!run.stderr.contains("field"), "{}", run.stderr);
    run.fails(1, p(&dir), "the elements: zarrdt has no Rust type for r24");
}

// ------------------------------------------------------------------------------------------
// The array-level bad inputs of issue 12: one line naming the array and the problem, exit 1
// ------------------------------------------------------------------------------------------

/// A record with a bool and a UTF-32 string, 13 bytes.
#[derive(zarrdt::ZarrStruct, Clone, Copy, Debug, PartialEq, Default)]
struct Reading {
    id: u32,
    ok: bool,
    name: zarrdt::FixedString<2>,
}

/// A fresh array of 8 `Reading`s made with `options`, all written, in chunks `c/0`, `c/1`…
fn readings_array(name: &str, options: zarrdt::array::ArrayOptions) -> PathBuf {
    let dir = scratch(name);
    let store = std::sync::Arc::new(zarrdt::zarrs::filesystem::FilesystemStore::new(&dir).unwrap());
    let array = options.create(store, "/", &Reading::default()).unwrap();
    let records: Vec<Reading> = (0..8)
        .map(|i| Reading {
            id: i,
            ok: i % 2 == 0,
            name: zarrdt::FixedString::new("ab").unwrap(),
        })
        .collect();
    array.store_array_subset(&[0..8], &records).unwrap();
    dir
}

/// Eight `Reading`s in uncompressed chunks of 4 (52 bytes each).
fn plain_readings(name: &str) -> PathBuf {
    readings_array(
        name,
        zarrdt::array::ArrayOptions::new(vec![8], vec![4])
            .compression(zarrdt::array::Compression::None),
    )
}

fn edit_file(file: &Path, edit: impl FnOnce(&mut Vec<u8>)) {
    let mut bytes = fs::read(file).unwrap();
    edit(&mut bytes);
    fs::write(file, bytes).unwrap();
}

#[test]
fn bad_chunks() {
    // A chunk whose length is not a multiple of the itemsize.
    let dir = plain_readings("not_a_multiple");
    edit_file(&dir.join("c/1"), |bytes| bytes.push(0));
    zarrdt(["dump", p(&dir)]).fails(
        1,
        p(&dir),
        "chunk c/1: the size of a decoded chunk is 53, expected 52",
    );

    // An empty chunk file, and one too long.
    let dir = plain_readings("empty_chunk");
    fs::write(dir.join("c/0"), b"").unwrap();
    zarrdt(["dump", p(&dir)]).fails(
        1,
        p(&dir),
        "chunk c/0: the size of a decoded chunk is 0, expected 52",
    );
    let dir = plain_readings("long_chunk");
    edit_file(&dir.join("c/1"), |bytes| bytes.extend_from_slice(&[0; 13]));
    zarrdt(["dump", p(&dir)]).fails(
        1,
        p(&dir),
        "chunk c/1: the size of a decoded chunk is 65, expected 52",
    );

    // Part of a chunk cut short, or too long, is the same error: not the records at those
    // bytes (zarrs reads part of an uncompressed chunk as byte ranges).
    let dir = plain_readings("short_chunk_in_part");
    edit_file(&dir.join("c/0"), |bytes| bytes.truncate(26));
    let out = scratch("short_chunk_in_part_out").join("t.arrow");
    let short = "chunk c/0: the size of a decoded chunk is 26, expected 52";
    zarrdt(["dump", p(&dir), "--select", "0:1"]).fails(1, p(&dir), short);
    zarrdt(["dump", p(&dir), "--select", "1:6"]).fails(1, p(&dir), short);
    zarrdt(["export", p(&dir), out.to_str().unwrap(), "--select", "0:1"]).fails(1, p(&dir), short);
    zarrdt(["dump", p(&dir), "--select", "4:8"]).ok();
    edit_file(&dir.join("c/0"), |bytes| bytes.resize(60, 0));
    zarrdt(["dump", p(&dir), "--select", "0:2"]).fails(
        1,
        p(&dir),
        "chunk c/0: the size of a decoded chunk is 60, expected 52",
    );

    // A missing chunk file is the fill value.
    let dir = plain_readings("missing_chunk");
    fs::remove_file(dir.join("c/0")).unwrap();
    let dump = zarrdt(["dump", p(&dir)]).json();
    assert_eq!(dump["values"][0], json!({"id": 0, "ok": false, "name": ""}));
    assert_eq!(
        dump["values"][5],
        json!({"id": 5, "ok": false, "name": "ab"})
    );

    // zstd frames where the metadata says uncompressed.
    let zstd = readings_array("zstd", zarrdt::array::ArrayOptions::new(vec![8], vec![4]));
    let dir = plain_readings("zstd_as_plain");
    for key in ["c/0", "c/1"] {
        fs::copy(zstd.join(key), dir.join(key)).unwrap();
    }
    zarrdt(["dump", p(&dir)]).fails(1, p(&dir), "chunk c/0: the size of a decoded chunk is");
}

#[test]
fn bad_elements() {
    // Bool byte 2 in element 5 (element 1 of chunk c/1).
    let dir = plain_readings("bool_2");
    edit_file(&dir.join("c/1"), |bytes| bytes[17] = 2);
    let run = zarrdt(["dump", p(&dir)]);
    run.fails(1, p(&dir), "invalid bool byte 0x02");
    // Named by its index in the array, the offset within the element (not "element 0").
    zarrdt(["dump", p(&dir)]).fails(
        1,
        p(&dir),
        "element [5] at field `ok`, byte offset 4 in the element: invalid bool byte 0x02",
    );
    let dir = plain_readings("bool_2_csv");
    edit_file(&dir.join("c/1"), |bytes| bytes[17] = 2);
    zarrdt(["dump", p(&dir), "--format", "csv"]).fails(1, p(&dir), "field `ok`");

    // A lone surrogate as a UTF-32 code unit.
    let dir = plain_readings("utf32");
    edit_file(&dir.join("c/1"), |bytes| {
        bytes[18..22].copy_from_slice(&0xd800u32.to_le_bytes());
    });
    zarrdt(["dump", p(&dir)]).fails(1, p(&dir), "invalid UTF-32 code unit 0x0000d800");
}

/// The crc32c (Castagnoli) of `bytes`.
fn crc32c(bytes: &[u8]) -> u32 {
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

#[test]
fn shard_index_pointing_outside_the_file() {
    // Entry 1 of the index (4 inner chunks of 2 records; 68 bytes with its crc32c, at the end):
    // beyond the file, near 2^64 (zarrs' offset + size overflows), 2^40 bytes (zarrs would
    // allocate them).
    for (number, (offset, nbytes)) in [(1000u64, 26u64), (u64::MAX - 5, 26), (0, 1 << 40)]
        .into_iter()
        .enumerate()
    {
        let dir = readings_array(
            &format!("bad_shard_{number}"),
            zarrdt::array::ArrayOptions::new(vec![8], vec![2])
                .shards(vec![8])
                .compression(zarrdt::array::Compression::None),
        );
        edit_file(&dir.join("c/0"), |shard| {
            let end = shard.len();
            let at = end - 68 + 16;
            shard[at..at + 8].copy_from_slice(&offset.to_le_bytes());
            shard[at + 8..at + 16].copy_from_slice(&nbytes.to_le_bytes());
            let crc = crc32c(&shard[end - 68..end - 4]);
            shard[end - 4..].copy_from_slice(&crc.to_le_bytes());
        });
        zarrdt(["dump", p(&dir)]).fails(
            1,
            p(&dir),
            &format!("shard c/0: index entry 1 (inner chunk [1]): offset {offset}, size {nbytes}"),
        );
        zarrdt(["dump", p(&dir), "--select", "6:8"]).fails(1, p(&dir), "shard c/0: index entry 1");
    }
}

/// An inner chunk of a shard that does not decode: `dump` and `export` name the shard and the
/// inner chunk, the whole array or a selection of that inner chunk.
#[test]
fn a_damaged_inner_chunk() {
    let dir = readings_array(
        "bad_inner_chunk",
        zarrdt::array::ArrayOptions::new(vec![8], vec![2])
            .shards(vec![8])
            .compression(zarrdt::array::Compression::Zstd { level: 3 }),
    );
    let store = std::sync::Arc::new(zarrdt::zarrs::filesystem::FilesystemStore::new(&dir).unwrap());
    let array = zarrdt::array::open_array(store, "/").unwrap();
    let index = zarrdt::array::ShardIndex::read(&array, &[0])
        .unwrap()
        .unwrap();
    let range = index.entries()[2].clone().unwrap();
    edit_file(&dir.join("c/0"), |shard| {
        for byte in &mut shard[range.start as usize + 4..range.end as usize] {
            *byte = 0x55;
        }
    });
    let named = format!(
        "shard c/0, inner chunk [2] (bytes {}..{} of the shard): zstd",
        range.start, range.end
    );
    zarrdt(["dump", p(&dir)]).fails(1, p(&dir), &named);
    zarrdt(["dump", p(&dir), "--select", "5:6"]).fails(1, p(&dir), &named);
    let out = scratch("bad_inner_chunk_out").join("t.arrow");
    zarrdt(["export", p(&dir), out.to_str().unwrap()]).fails(1, p(&dir), &named);
    // The inner chunks around it still read.
    zarrdt(["dump", p(&dir), "--select", "0:4"]).ok();
}

/// A shard whose index does not match its crc32c: `inspect` (counting inner chunks) and
/// `dump` (checking the shard before reading) both say so, through the library's one reader
/// of shard indexes.
#[test]
fn shard_index_with_a_corrupt_checksum() {
    let dir = readings_array(
        "bad_shard_crc",
        zarrdt::array::ArrayOptions::new(vec![8], vec![2])
            .shards(vec![8])
            .compression(zarrdt::array::Compression::None),
    );
    let before = zarrdt(["inspect", "--json", p(&dir)]).json();
    assert_eq!(
        before["inner_chunk_count"],
        json!({"total": 4, "written": 4, "missing": 0})
    );
    // One bit of entry 2 flipped, the checksum left as it was.
    edit_file(&dir.join("c/0"), |shard| {
        let at = shard.len() - 68 + 2 * 16;
        shard[at] ^= 1;
    });
    for command in [&["inspect"][..], &["inspect", "--json"], &["dump"]] {
        let mut args = command.to_vec();
        args.push(p(&dir));
        zarrdt(args).fails(1, p(&dir), "shard c/0: its index: the checksum is invalid");
    }
}

#[test]
fn metadata_that_is_not_utf8_or_not_json() {
    for (name, text) in [
        ("meta_not_utf8", &b"{\"zarr_format\": 3, \xff\xfe}"[..]),
        ("meta_not_json", &b"zarr_format = 3"[..]),
    ] {
        let dir = plain_readings(name);
        fs::write(dir.join("zarr.json"), text).unwrap();
        for command in ["inspect", "dump", "rust"] {
            zarrdt([command, p(&dir)]).fails(1, p(&dir), "invalid array metadata zarr.json");
        }
        fs::remove_file(dir.join("zarr.json")).unwrap();
        fs::write(dir.join(".zarray"), text).unwrap();
        zarrdt(["dump", p(&dir)]).fails(1, p(&dir), "invalid array metadata .zarray");
    }
}
