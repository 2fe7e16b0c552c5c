//! `zarrdt dump --format json` on every array of the committed zarr-python fixtures
//! (`tests/fixtures/zarr-python-*`, read-only), compared with what zarr-python itself read
//! back (the `<case>.json` sidecars): shape, chunks, data type, fill value and every element,
//! bit for bit. Also `inspect` (text and JSON) and `--format csv` run on every one of them.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::fs;
use std::path::Path;

use common::{dump_layout, flatten, sidecar_form, workspace, zarrdt};
use serde_json::{Value as Json, json};
use zarrdt::layout::Layout;
use zarrdt::types::DataType;

/// Cases where zarr-python read the fill value wrongly (2.18.7 decodes a v2 complex fill
/// `[re, im]` as `re + 1j*im`): the dump has the spec's reading (`ours`), the sidecar
/// zarr-python's, also for every element of a missing chunk.
const FILL_MISREAD: &[(&str, &str, &str)] = &[
    (
        "2.18.7",
        "v2_scalar_complex64",
        r#"["0x3f800000", "0x7fc00000"]"#,
    ),
    (
        "2.18.7",
        "v2_scalar_complex128",
        r#"["0xfff0000000000000", "0x8000000000000000"]"#,
    ),
];

#[test]
fn zarr_python_3_4_2() {
    check_version("3.4.2", 30);
}

#[test]
fn zarr_python_3_1_6() {
    check_version("3.1.6", 10);
}

#[test]
fn zarr_python_2_18_7() {
    check_version("2.18.7", 30);
}

/// The array zarr-python 3.4.2's `zarr migrate v3` made of the 2.18.7 fixture with an
/// identity `AsType` filter (`tests/fixtures/migrated-by-zarr-python-3.4.2`): `dump` gives
/// every record zarr-python 2.18 read back from the Zarr v2 array, bit for bit, and `inspect`
/// shows the codec as it is stored.
#[test]
fn an_array_zarr_python_migrated_to_zarr_v3() {
    let name = "v2_blosc_astype_same_type";
    let fixtures = workspace().join("tests/fixtures");
    let expected = read_json(
        &fixtures
            .join("zarr-python-2.18.7")
            .join(format!("{name}.json")),
    );
    let array = fixtures
        .join("migrated-by-zarr-python-3.4.2")
        .join(format!("{name}.zarr"));
    let array = array.to_str().unwrap();
    let dump = zarrdt(["dump", "--format", "json", array]).json();
    assert_eq!(dump["zarr_format"], 3);
    let layout = dump_layout(&dump["data_type"]);
    let values: Vec<Json> = flatten(&dump["values"], 1)
        .iter()
        .map(|value| sidecar_form(&layout, value))
        .collect();
    assert_eq!(Json::Array(values), expected["values"]);
    let inspect = zarrdt(["inspect", array]).ok();
    assert!(
        inspect.contains("numcodecs.astype(encode_dtype=|V12, decode_dtype=|V12) -> bytes"),
        "{inspect}"
    );
}

fn read_json(path: &Path) -> Json {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

fn check_version(version: &str, min_cases: usize) {
    let dir = workspace()
        .join("tests/fixtures")
        .join(format!("zarr-python-{version}"));
    let index = read_json(&dir.join("index.json"));
    let cases = index["cases"].as_array().unwrap();
    assert!(cases.len() >= min_cases, "{} cases", cases.len());
    let mut elements = 0;
    for case in cases {
        let name = case["name"].as_str().unwrap();
        elements += check_case(version, &dir, name);
    }
    eprintln!(
        "zarr-python {version}: {} arrays, {elements} elements",
        cases.len()
    );
}

/// Checks one fixture; returns the number of elements compared.
fn check_case(version: &str, dir: &Path, name: &str) -> usize {
    let expected = read_json(&dir.join(format!("{name}.json")));
    let array = dir.join(format!("{name}.zarr"));
    let dump = zarrdt(["dump", "--format", "json", array.to_str().unwrap()]).json();
    let context = format!("zarr-python {version} {name}");

    // The header.
    let members: Vec<&str> = dump
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        members,
        [
            "zarr_format",
            "shape",
            "chunks",
            "data_type",
            "fill_value",
            "values"
        ],
        "{context}"
    );
    assert_eq!(dump["zarr_format"], expected["zarr_format"], "{context}");
    assert_eq!(dump["shape"], expected["shape"], "{context}");
    assert_eq!(dump["chunks"], expected["chunks"], "{context}");
    check_data_type(&array, &dump["data_type"], &context);
    let layout = dump_layout(&dump["data_type"]);
    assert_eq!(json!(layout.size()), expected["itemsize"], "{context}");

    // The fill value.
    let misread = FILL_MISREAD
        .iter()
        .find(|(v, case, _)| *v == version && *case == name);
    let fill = match &dump["fill_value"] {
        Json::Null => Json::Null,
        fill => sidecar_form(&layout, fill),
    };
    match misread {
        Some((_, _, ours)) => {
            assert_eq!(
                fill,
                serde_json::from_str::<Json>(ours).unwrap(),
                "{context}"
            );
            assert_ne!(
                fill, expected["fill_value"],
                "{context}: zarr-python's misreading"
            );
        }
        None => assert_eq!(fill, expected["fill_value"], "{context}: fill_value"),
    }

    // Every element, in C order.
    let dimensions = expected["shape"].as_array().unwrap().len();
    let values = flatten(&dump["values"], dimensions);
    let wanted = expected["values"].as_array().unwrap();
    assert_eq!(values.len(), wanted.len(), "{context}: number of elements");
    for (index, (value, want)) in values.iter().zip(wanted).enumerate() {
        let ours = sidecar_form(&layout, value);
        if misread.is_some() && ours == fill && *want == expected["fill_value"] {
            continue; // a missing chunk: both read their own fill value
        }
        assert_eq!(&ours, want, "{context}: element {index} (C order)");
    }

    // The other views run on everything.
    let inspect = zarrdt(["inspect", array.to_str().unwrap()]).ok();
    assert!(
        inspect.contains("byte map of one record"),
        "{context}\n{inspect}"
    );
    let info = zarrdt(["inspect", "--json", array.to_str().unwrap()]).json();
    assert_eq!(info["shape"], expected["shape"], "{context}");
    assert_eq!(info["itemsize"], expected["itemsize"], "{context}");
    assert_eq!(info["data_type"], dump["data_type"], "{context}");
    assert_eq!(info["fill_value"], dump["fill_value"], "{context}");
    let written = expected["stored_chunks"].as_array().unwrap().len();
    assert_eq!(info["chunk_count"]["written"], json!(written), "{context}");
    let csv = zarrdt(["dump", "--format", "csv", array.to_str().unwrap()]).ok();
    assert_eq!(csv.lines().count(), values.len() + 1, "{context}\n{csv}");
    values.len()
}

/// The dump's `data_type`: the array's in v3 JSON where it has one (the registered `struct`
/// form), else the `.zarray` dtype.
fn check_data_type(array: &Path, data_type: &Json, context: &str) {
    let v3 = array.join("zarr.json");
    if v3.exists() {
        let raw = read_json(&v3)["data_type"].clone();
        let normal = DataType::from_v3_json(&raw).unwrap().to_v3_json();
        assert_eq!(data_type, &normal, "{context}: data_type");
        if raw.get("name") != Some(&json!("structured")) {
            assert_eq!(data_type, &raw, "{context}: data_type as written");
        }
        return;
    }
    let dtype = read_json(&array.join(".zarray"))["dtype"].clone();
    match Layout::from_v2_json(&dtype).unwrap().to_v3() {
        Ok((v3, _)) => assert_eq!(data_type, &v3.to_v3_json(), "{context}: data_type"),
        Err(_) => assert_eq!(data_type, &dtype, "{context}: data_type (v2 form)"),
    }
}
