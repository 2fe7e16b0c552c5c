//! `zarrdt rust`: the generated structs compile, and read the arrays they were generated from.
//!
//! Every committed zarr-python fixture a derived struct can hold (all but the two with
//! padding), and arrays written here (sharded v3 with renamed, keyword, nested, array, text
//! and time fields; v2 with subarrays and mixed byte order), each get `zarrdt rust`. The code
//! goes into one module per array of a small cargo project depending on zarrdt by path, whose
//! `main` opens each array through zarrs, checks that the struct's data type is the array's,
//! reads every element as the struct and compares it with the same elements read as run-time
//! values. The project is built in `target/tmp`, so only the first run compiles zarrs.
#![allow(clippy::unwrap_used)]

mod common;

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use common::{scratch, workspace, zarrdt};
use serde_json::json;
use zarrdt::array::{ArrayOptions, Compression, open_array, store_values};
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::{DataType, Endian, Layout, Value};

/// A sharded v3 array whose field names need renames and raw identifiers, with nested records,
/// Rust arrays, text, bytes and time fields.
fn awkward_v3() -> PathBuf {
    let dir = scratch("codegen_awkward_v3");
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
        {"name": "self", "data_type": "float16"}
    ]}}))
    .unwrap();
    let layout = Layout::from_data_type(&data_type, Some(Endian::NATIVE)).unwrap();
    let record = |i: i64| {
        layout
            .value_from_json(&json!({
                "type": i, "foo.mask": i % 2 == 0, "Position": {"0": 0.5 * i as f64, "1": -1.0},
                "pair": {"0": -i, "1": [1.5, "NaN"]},
                "grid": {"0": {"0": 1, "1": 2}, "1": {"0": 3, "1": i}},
                "when": i * 1000, "label": "héé", "tag": "AQI=", "self": 0.25
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
    store_values(&array, &[2..10], &values).unwrap();
    dir
}

/// A v2 array with a nested record, a subarray of records and mixed byte order.
fn awkward_v2() -> PathBuf {
    let dir = scratch("codegen_awkward_v2");
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
    store_values(&array, &[0..3], &values).unwrap();
    dir
}

/// Every fixture a derived struct can hold.
fn fixtures() -> Vec<PathBuf> {
    let mut arrays = Vec::new();
    for version in ["2.18.7", "3.1.6", "3.4.2"] {
        let dir = workspace()
            .join("tests/fixtures")
            .join(format!("zarr-python-{version}"));
        let mut names: Vec<PathBuf> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "zarr"))
            .collect();
        names.sort();
        for path in names {
            let name = path.file_name().unwrap().to_str().unwrap();
            // Padding: no packed struct has these layouts (checked in tests/errors.rs).
            if [
                "v2_aligned.zarr",
                "v2_blosc_aligned.zarr",
                "v2_offsets.zarr",
            ]
            .contains(&name)
            {
                continue;
            }
            arrays.push(path);
        }
    }
    arrays
}

fn manifest(workspace: &Path) -> String {
    format!(
        "[package]\nname = \"zarrdt-codegen-check\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
         publish = false\n\n[dependencies]\nzarrdt = {{ path = {:?} }}\n\n[workspace]\n",
        workspace.display().to_string()
    )
}

#[test]
fn generated_structs_compile_and_read_their_arrays() {
    let mut arrays = fixtures();
    arrays.push(awkward_v3());
    arrays.push(awkward_v2());

    let mut modules = String::new();
    let mut checks = String::new();
    for (i, array) in arrays.iter().enumerate() {
        let name = format!("Array{i}");
        let code = zarrdt(["rust", array.to_str().unwrap(), "--name", &name]).ok();
        let _ = writeln!(modules, "mod a{i} {{\n{code}}}\n");
        let _ = writeln!(
            checks,
            "    check::<a{i}::{name}>({:?});",
            array.display().to_string()
        );
    }
    let awkward = zarrdt(["rust", arrays[arrays.len() - 2].to_str().unwrap()]).ok();
    for needle in [
        "pub r#type: u8,",
        "#[zarr(rename = \"foo.mask\")]\n    pub foo_mask: bool,",
        "#[zarr(rename = \"Position\")]\n    pub position: [f64; 2],",
        "pub pair: Pair,",
        "pub struct Pair(\n    pub i16,\n    pub zarrdt::num_complex::Complex<f32>,\n);",
        "pub grid: [[u16; 2]; 2],",
        "pub when: zarrdt::DateTime64<zarrdt::Milliseconds, 5>,",
        "pub label: zarrdt::FixedString<3>,",
        "pub tag: zarrdt::ByteString<4>,",
        "#[zarr(rename = \"self\")]\n    pub self_: zarrdt::half::f16,",
    ] {
        assert!(awkward.contains(needle), "{needle:?} in\n{awkward}");
    }
    let v2 = zarrdt(["rust", arrays[arrays.len() - 1].to_str().unwrap()]).ok();
    assert!(v2.contains("pub hits: [Hits; 3],"), "{v2}");
    assert!(
        v2.contains("#[zarr(rename = \"Name\")]\n    pub name: zarrdt::FixedString<2>,"),
        "{v2}"
    );

    let main = format!(
        r#"#![allow(dead_code, non_camel_case_types, clippy::all)]
use std::sync::Arc;
use zarrdt::array::{{RecordType, open_array, retrieve_values}};
use zarrdt::zarrs::array::{{ArraySubset, Element as ZarrsElement, ElementOwned}};
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::{{Element, Endian}};

{modules}
fn check<T: Element + ElementOwned + ZarrsElement + std::fmt::Debug>(path: &str) {{
    let store = Arc::new(FilesystemStore::new(path).unwrap());
    let array = open_array(store, "/").unwrap();
    let record = RecordType::of(array.data_type()).unwrap();
    // The struct's data type is the array's (v3), or its layout the array's (v2).
    if std::path::Path::new(path).join("zarr.json").exists() {{
        let data_type = record.data_type().unwrap();
        assert!(T::data_type() == *data_type, "{{path}}: {{}} vs {{}}", T::data_type(), data_type);
    }}
    T::layout(Endian::NATIVE).check_matches(record.native_layout()).unwrap();
    let all = ArraySubset::new_with_shape(array.shape().to_vec());
    let typed: Vec<T> = array.retrieve_array_subset(&all).unwrap_or_else(|e| panic!("{{path}}: {{e}}"));
    let values = retrieve_values(&array, &all).unwrap();
    assert_eq!(typed.len(), values.len());
    for (i, (t, v)) in typed.iter().zip(&values).enumerate() {{
        assert!(t.to_value() == *v, "{{path}} element {{i}}: {{t:?}} vs {{v:?}}");
    }}
    println!("ok {{}} {{path}}", typed.len());
}}

fn main() {{
{checks}}}
"#
    );

    let project = Path::new(env!("CARGO_TARGET_TMPDIR")).join("zarrdt-cli-codegen");
    fs::create_dir_all(project.join("src")).unwrap();
    fs::write(project.join("Cargo.toml"), manifest(&workspace())).unwrap();
    let lock = project.join("Cargo.lock");
    if !lock.exists() {
        fs::copy(workspace().join("Cargo.lock"), &lock).unwrap();
    }
    fs::write(project.join("src/main.rs"), main).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(["run", "--quiet", "--offline"])
        .current_dir(&project)
        .env("CARGO_TARGET_DIR", project.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the generated code in {} failed:\n{stderr}\n{stdout}",
        project.display()
    );
    let checked = stdout.lines().filter(|l| l.starts_with("ok ")).count();
    assert_eq!(checked, arrays.len(), "{stdout}");
    eprintln!("{checked} generated structs compiled and read their arrays");
}
