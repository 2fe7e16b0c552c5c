//! Errors: one line on stderr naming the path and the problem, exit code 1 (2 for usage
//! errors, clap's), never a panic or a backtrace.
#![allow(clippy::unwrap_used)]

mod common;

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

#[test]
fn unsupported_codec() {
    let dir = fixture_copy("codec");
    edit_metadata(&dir, |json| {
        json["codecs"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "lzma9000", "configuration": {}}));
    });
    zarrdt(["dump", p(&dir)]).fails(1, p(&dir), "codec lzma9000 is not supported");
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
    zarrdt(["dump", p(&dir), "--select", "1:2:3"]).fails(2, "--select", "steps are not supported");
    zarrdt(["dump", p(&dir), "--select", "a"]).fails(2, "--select", "is not an index");
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
