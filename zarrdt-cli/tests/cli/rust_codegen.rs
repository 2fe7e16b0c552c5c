//! `zarrdt rust`: the generated structs compile, and read the arrays they were generated from.
//!
//! Every committed zarr-python fixture a derived struct can hold (all but the ones with
//! padding), and arrays written here (sharded v3 with renamed, keyword, nested, array, text
//! and time fields; v2 with subarrays and mixed byte order), each get `zarrdt rust`. What it
//! prints is committed in `codegen/generated.rs`, one module per array, and compiled into this
//! test binary: [`generated_code_is_current`] checks that the command still prints exactly
//! that (`ZARRDT_BLESS=1` writes it again, then the next build compiles the new code), and
//! [`generated_structs_read_their_arrays`] opens each array through zarrs, checks that the
//! struct's data type is the array's, reads every element as the struct and compares it with
//! the same elements read as run-time values. No cargo project is built at test time.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde_json::json;
use zarrdt::array::{ArrayOptions, Compression, RecordType, open_array};
use zarrdt::layout::Layout;
use zarrdt::types::DataType;
use zarrdt::value::Value;
use zarrdt::zarrs::array::{ArraySubset, Element as ZarrsElement, ElementOwned};
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::{Endian, ZarrType};
use zarrdt::{ReadRecords, WriteRecords};

use crate::common::{self, workspace};

/// The code `zarrdt rust` printed for every array, compiled here.
#[allow(
    dead_code,
    missing_docs,
    non_camel_case_types,
    unreachable_pub,
    clippy::all,
    clippy::pedantic
)]
#[path = "codegen/generated.rs"]
#[rustfmt::skip] // as `zarrdt rust` prints it
mod generated;

/// Where the committed generated code lives.
fn generated_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/codegen/generated.rs")
}

/// The scratch arrays' names: `zarrdt rust` is run on them from the scratch directory, so that
/// its header names them the same way on every machine.
const AWKWARD_V3: &str = "codegen_awkward_v3";
const AWKWARD_V2: &str = "codegen_awkward_v2";
const ENUMS_V3: &str = "codegen_enums_v3";

#[derive(zarrdt::ZarrEnum, Clone, Copy)]
#[repr(i8)]
enum Quality {
    Bad = -1,
    Good = 1,
}

#[derive(zarrdt::ZarrStruct, Clone, Copy)]
struct Measured {
    quality: Quality,
    history: [Quality; 2],
    letter: char,
}

/// A v3 array of records with enum fields (named in its `zarrdt:enums` attribute) and a
/// `char`: `zarrdt rust` keeps the integers, with a comment naming the variants.
fn enums_v3() -> PathBuf {
    let dir = own_scratch(ENUMS_V3);
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    let record = |quality| Measured {
        quality,
        history: [Quality::Good, quality],
        letter: 'µ',
    };
    let array = ArrayOptions::new(vec![4], vec![2])
        .create(store, "/", &record(Quality::Good))
        .unwrap();
    array
        .store_array_subset(
            &ArraySubset::new_with_ranges(&[1..3]),
            &[record(Quality::Bad), record(Quality::Good)],
        )
        .unwrap();
    dir
}

/// A sharded v3 array whose field names need renames and raw identifiers, with nested records,
/// Rust arrays, text, bytes and time fields.
fn awkward_v3() -> PathBuf {
    let dir = own_scratch(AWKWARD_V3);
    let data_type = DataType::from_v3_json(&json!({"name": "struct", "configuration": {"fields": [
        {"name": "type", "data_type": "uint8"},
        {"name": "foo.mask", "data_type": "bool"},
        {"name": "Position", "data_type": {"name": "struct", "configuration": {"fields": [
            {"name": "0", "data_type": "float64"},
            {"name": "1", "data_type": "float64"}]}}},
        {"name": "pair", "data_type": {"name": "struct", "configuration": {"fields": [
            {"name": "0", "data_type": "int16"},
            {"name": "1", "data_type": "complex64"}]}}},
        {"name": "grid", "data_type": {"name": "struct", "configuration": {"fields": [
            {"name": "0", "data_type": {"name": "struct", "configuration": {"fields": [
                {"name": "0", "data_type": "uint16"}, {"name": "1", "data_type": "uint16"}]}}},
            {"name": "1", "data_type": {"name": "struct", "configuration": {"fields": [
                {"name": "0", "data_type": "uint16"}, {"name": "1", "data_type": "uint16"}]}}}]}}},
        {"name": "when", "data_type": {"name": "numpy.datetime64",
            "configuration": {"unit": "ms", "scale_factor": 5}}},
        {"name": "label", "data_type": {"name": "fixed_length_utf32",
            "configuration": {"length_bytes": 12}}},
        {"name": "tag", "data_type": {"name": "null_terminated_bytes",
            "configuration": {"length_bytes": 4}}},
        {"name": "self", "data_type": "float16"},
        // A control character and a text-direction override: escaped in the literal and the
        // identifier made of them (rustc refuses a raw U+202E in a literal).
        {"name": "ring\u{7}", "data_type": "uint8"},
        {"name": "\u{202e}ver", "data_type": "uint8"}
    ]}}))
    .unwrap();
    let layout = Layout::from_data_type(&data_type, Some(Endian::NATIVE)).unwrap();
    let record = |i: i64| {
        layout
            .value_from_json(&json!({
                "type": i, "foo.mask": i % 2 == 0, "Position": {"0": 0.5 * i as f64, "1": -1.0},
                "pair": {"0": -i, "1": [1.5, "NaN"]},
                "grid": {"0": {"0": 1, "1": 2}, "1": {"0": 3, "1": i}},
                "when": i * 1000, "label": "héé", "tag": "AQI=", "self": 0.25,
                "ring\u{7}": i, "\u{202e}ver": i + 1
            }))
            .unwrap()
    };
    let fill = record(0);
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    let array = ArrayOptions::new(vec![12], vec![3])
        .shards(vec![6])
        .compression(Compression::Zstd { level: 1 })
        .endian(Endian::Big)
        .create_with(store, "/", &data_type, &fill)
        .unwrap();
    let values: Vec<Value> = (1..9).map(record).collect();
    array.store_values(&[2..10], &values).unwrap();
    dir
}

/// A v2 array with a nested record, a subarray of records and mixed byte order.
fn awkward_v2() -> PathBuf {
    let dir = own_scratch(AWKWARD_V2);
    let layout = Layout::from_v2_json(&json!([
        ["id", ">u4"],
        ["point", [["x", "<f4"], ["y", ">f4"]]],
        ["hits", [["t", "<i2"], ["ok", "|b1"]], [3]],
        ["Name", "<U2"]
    ]))
    .unwrap();
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    let array = ArrayOptions::new(vec![5], vec![2])
        .compression(Compression::Gzip { level: 1 })
        .create_v2(store.clone(), "/", &layout, None)
        .unwrap();
    let native = layout.with_endian(Endian::NATIVE);
    let values: Vec<Value> = (0..3)
        .map(|i| {
            native
                .value_from_json(&json!({
                    "id": i, "point": {"x": 1.5, "y": -2.5},
                    "hits": [{"t": i, "ok": true}, {"t": -1, "ok": false}, {"t": 7, "ok": true}],
                    "Name": "ab"
                }))
                .unwrap()
        })
        .collect();
    drop(array);
    let array = open_array(store, "/").unwrap();
    array.store_values(&[0..3], &values).unwrap();
    dir
}

/// Every fixture a derived struct can hold, relative to the workspace.
fn fixtures() -> Vec<String> {
    let mut arrays = Vec::new();
    for version in ["2.18.7", "3.1.6", "3.4.2"] {
        let dir = format!("tests/fixtures/zarr-python-{version}");
        let mut names: Vec<String> = fs::read_dir(workspace().join(&dir))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|name| name.ends_with(".zarr"))
            .collect();
        names.sort();
        for name in names {
            // Padding: no packed struct has these layouts (checked in tests/errors.rs).
            if [
                "v2_aligned.zarr",
                "v2_blosc_aligned.zarr",
                "v2_offsets.zarr",
            ]
            .contains(&name.as_str())
            {
                continue;
            }
            arrays.push(format!("{dir}/{name}"));
        }
    }
    arrays
}

/// A scratch directory `name` of this process's own: both tests write the scratch arrays, and
/// where each runs in a process of its own (`cargo nextest`), one removing the directory the
/// other is writing made the other fail (`NodeExists`).
fn own_scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("zarrdt-cli-tests")
        .join(format!("codegen-{}", std::process::id()))
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every array: its name (a fixture's path in the workspace, or a scratch array's name) and
/// where it is, the scratch arrays written once for both tests.
fn arrays() -> &'static [(String, PathBuf)] {
    static ARRAYS: OnceLock<Vec<(String, PathBuf)>> = OnceLock::new();
    ARRAYS.get_or_init(written_arrays)
}

fn written_arrays() -> Vec<(String, PathBuf)> {
    let mut arrays: Vec<(String, PathBuf)> = fixtures()
        .into_iter()
        .map(|name| {
            let path = workspace().join(&name);
            (name, path)
        })
        .collect();
    arrays.push((AWKWARD_V3.to_owned(), awkward_v3()));
    arrays.push((AWKWARD_V2.to_owned(), awkward_v2()));
    arrays.push((ENUMS_V3.to_owned(), enums_v3()));
    arrays
}

/// What `zarrdt rust` prints for the array `name` at `path`, run from the directory that
/// makes `name` its path.
fn rust_code(name: &str, path: &Path, type_name: Option<&str>) -> String {
    let base = path
        .ancestors()
        .nth(Path::new(name).components().count())
        .unwrap();
    let mut args = vec!["rust", name];
    if let Some(type_name) = type_name {
        args.extend(["--name", type_name]);
    }
    common::zarrdt_in(base, args).ok()
}

/// The committed file's text for `arrays`: a module per array, and the function that checks
/// each array with its struct.
fn generated_file(arrays: &[(String, PathBuf)]) -> String {
    let mut modules = String::new();
    let mut checks = String::new();
    for (i, (name, path)) in arrays.iter().enumerate() {
        let type_name = format!("Array{i}");
        let code = rust_code(name, path, Some(&type_name));
        let _ = writeln!(modules, "pub(super) mod a{i} {{\n{code}}}\n");
        let _ = writeln!(
            checks,
            "    super::check::<a{i}::{type_name}>({name:?}, &path_of({name:?}));"
        );
    }
    format!(
        "// Written by `ZARRDT_BLESS=1 cargo test -p zarrdt-cli --test cli rust_codegen`: the\n\
         // code `zarrdt rust` prints for each array of `rust_codegen.rs`, compiled by that test.\n\n\
         {modules}\
         /// Reads each array (found by its name) as its generated struct.\n\
         pub(super) fn check_all(path_of: &dyn Fn(&str) -> std::path::PathBuf) {{\n\
         {checks}}}\n"
    )
}

/// `zarrdt rust` still prints exactly the committed code (`ZARRDT_BLESS=1` writes it again),
/// and names fields as a Rust user would.
#[test]
fn generated_code_is_current() {
    let arrays = arrays();
    let text = generated_file(arrays);
    let path = generated_path();
    if std::env::var_os("ZARRDT_BLESS").is_some() {
        fs::write(&path, &text).unwrap();
    }
    let committed = fs::read_to_string(&path).unwrap_or_default();
    if let Some((line, (printed, held))) = text
        .lines()
        .zip(committed.lines())
        .enumerate()
        .find(|(_, (printed, held))| printed != held)
        .or(
            (text.lines().count() != committed.lines().count()).then_some((
                text.lines().count().min(committed.lines().count()),
                ("", ""),
            )),
        )
    {
        panic!(
            "`zarrdt rust` prints other code than {} holds (line {}: {printed:?} against \
             {held:?}); if the change is meant, write it again with ZARRDT_BLESS=1 and review \
             the diff",
            path.display(),
            line + 1
        );
    }

    let scratch_array = |wanted: &str| {
        let (name, path) = arrays.iter().find(|(name, _)| name == wanted).unwrap();
        rust_code(name, path, None)
    };
    let awkward = scratch_array(AWKWARD_V3);
    for needle in [
        "pub r#type: u8,",
        "#[zarr(rename = \"foo.mask\")]\n    pub foo_mask: bool,",
        "#[zarr(rename = \"Position\")]\n    pub position: [f64; 2],",
        "pub pair: Pair,",
        "pub struct Pair(\n    pub i16,\n    pub zarrdt::num_complex::Complex<f32>,\n);",
        "pub grid: [[u16; 2]; 2],",
        "pub when: zarrdt::DateTime64<zarrdt::time::Milliseconds, 5>,",
        "pub label: zarrdt::FixedString<3>,",
        "pub tag: zarrdt::ByteString<4>,",
        "#[zarr(rename = \"self\")]\n    pub self_: zarrdt::half::f16,",
    ] {
        assert!(awkward.contains(needle), "{needle:?} in\n{awkward}");
    }
    let v2 = scratch_array(AWKWARD_V2);
    assert!(v2.contains("pub hits: [Hits; 3],"), "{v2}");
    assert!(
        v2.contains("#[zarr(rename = \"Name\")]\n    pub name: zarrdt::FixedString<2>,"),
        "{v2}"
    );
    // Enum fields stay integers, with their variants in a comment.
    let enums = scratch_array(ENUMS_V3);
    for needle in [
        "    /// An enum (attribute \"zarrdt:enums\"): Bad = -1, Good = 1. A `#[derive(ZarrEnum)]` \
         `#[repr(i8)]` enum with these variants may be used instead of `i8`.\n    pub quality: i8,",
        "`#[repr(i8)]` enum with these variants may be used instead of `i8`.\n    pub history: [i8; 2],",
        "    pub letter: zarrdt::FixedString<1>,",
    ] {
        assert!(enums.contains(needle), "{needle:?} in\n{enums}");
    }
}

/// Each generated struct reads its array: the same data type (v3) or layout (v2), and every
/// element equal to the run-time value of the same element.
#[test]
fn generated_structs_read_their_arrays() {
    let arrays = arrays();
    let checked = std::cell::Cell::new(0);
    generated::check_all(&|name| {
        checked.set(checked.get() + 1);
        arrays
            .iter()
            .find(|(known, _)| known == name)
            .unwrap_or_else(|| {
                panic!("{name}: no such array; write the code again (ZARRDT_BLESS=1)")
            })
            .1
            .clone()
    });
    assert_eq!(checked.get(), arrays.len(), "one struct per array");
}

/// Reads the array `name` at `path` as `T`, its generated struct.
fn check<T: ZarrType + ElementOwned + ZarrsElement + std::fmt::Debug>(name: &str, path: &Path) {
    let store = Arc::new(FilesystemStore::new(path).unwrap());
    let array = open_array(store, "/").unwrap();
    let record = RecordType::of(array.data_type()).unwrap();
    // The struct's data type is the array's (v3), or its layout the array's (v2).
    if path.join("zarr.json").exists() {
        let data_type = record.data_type().unwrap();
        assert!(
            T::data_type() == *data_type,
            "{name}: {} vs {}",
            T::data_type(),
            data_type
        );
    }
    T::layout(Endian::NATIVE)
        .check_matches(record.native_layout())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let all = ArraySubset::new_with_shape(array.shape().to_vec());
    let typed: Vec<T> = array
        .retrieve_array_subset(&all)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let values = array.retrieve_values(&all).unwrap();
    assert_eq!(typed.len(), values.len(), "{name}");
    for (i, (t, v)) in typed.iter().zip(&values).enumerate() {
        assert!(t.to_value() == *v, "{name} element {i}: {t:?} vs {v:?}");
    }
}
