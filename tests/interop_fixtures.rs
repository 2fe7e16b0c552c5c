#![allow(clippy::unwrap_used)]
//! Reads every array of the committed zarr-python fixtures (`tests/fixtures/zarr-python-*`,
//! made by `tests/interop/generate.py`) with `zarrdt` and compares, bit for bit, with what
//! zarr-python read back: every element, the fill value, and the raw bytes of both in the
//! dtype zarr-python read into. Then checks that our writers round-trip: the metadata
//! document, the fill value JSON, and every stored chunk (padding bytes aside).
//!
//! The case list comes from each version's `index.json`; nothing is hard-coded except a
//! minimum number of cases per version and the known deviations (see [`known_deviation`]).

use std::any::Any;
use std::collections::BTreeSet;
use std::fs;
use std::io::ErrorKind;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use num_complex::Complex;
use serde_json::{Value as Json, json};
mod common;

use common::{chunk_targets, grid_positions, hex_decode, hex_encode, typed};
use zarrdt::{ArrayMetadataV2, ArrayMetadataV3, Endian, Error, Layout, Value};

#[test]
fn zarr_python_3_4_2_fixtures() {
    check_version("3.4.2", 30);
}

#[test]
fn zarr_python_3_1_6_fixtures() {
    check_version("3.1.6", 10);
}

#[test]
fn zarr_python_2_18_7_fixtures() {
    check_version("2.18.7", 30);
}

// ------------------------------------------------------------------------------------------
// Known deviations
// ------------------------------------------------------------------------------------------

/// Cases whose expected values are the data that was written (`expected_from:
/// "written_data"`, with a `read_error`), because the writing zarr-python could not read its
/// own output. We can, and compare with the written data like any other case.
const WRITTEN_DATA_CASES: &[(&str, &str)] = &[
    // zarr-python 3.1.6 writes nested v2 struct dtypes but its v2 dtype checker rejects them
    // when reading ("No Zarr data type found that matches ...").
    ("3.1.6", "v2_by_31_nested"),
];

/// A known, narrow difference between the spec, the file and what zarr-python read back.
enum Deviation {
    /// zarr-python 2.18.7 decodes a v2 complex fill `[re, im]` as `re + 1j*im`, which is not
    /// `complex(re, im)` when `im` is NaN (`1j*NaN` has a NaN real part) or a signed zero
    /// (`-0.0j` added to `-inf` gives `+0.0`). The file holds the right fill; we read it as the
    /// spec says (`spec`), zarr-python reports `zarr_python` for the fill and for every element
    /// of a missing chunk. Both are asserted, so the test fails if either side changes.
    ComplexFillMisread {
        spec: Json,
        zarr_python: Json,
        zarr_python_value: Value,
    },
    /// zarr-python 3.1.x (bug fixed in 3.3.0, #4141) stored big-endian chunk bytes and a
    /// big-endian base64 fill under `{"name": "bytes"}` without `endian`. The legacy
    /// `structured` spec says a missing endian means little-endian, so we follow the metadata
    /// and must read the same byte-swapped garbage zarr-python reads (`fill`).
    LegacyBigEndianGarbage { fill: Json },
    /// The writer changed the fill when writing it (2.18.7 drops the sign of -0.0; 3.4.2
    /// writes every NaN as "NaN", losing payloads and signs). Readers can only follow the
    /// file, so zarr-python and we agree; `on_disk` pins the fill JSON in the file.
    WriterChangedFill { on_disk: Json },
}

/// The cases [`known_deviation`] knows, so that a renamed fixture cannot silently lose its
/// deviation checks.
const DEVIATION_CASES: &[(&str, &str)] = &[
    ("2.18.7", "v2_scalar_complex64"),
    ("2.18.7", "v2_scalar_complex128"),
    ("3.1.6", "v3_legacy_bigendian_bug"),
    ("2.18.7", "v2_scalar_float64_negzero"),
    ("3.4.2", "v3_struct_special_fills"),
];

fn known_deviation(version: &str, case: &str) -> Option<Deviation> {
    Some(match (version, case) {
        ("2.18.7", "v2_scalar_complex64") => Deviation::ComplexFillMisread {
            // On disk: [1.0, "NaN"].
            spec: json!(["0x3f800000", "0x7fc00000"]),
            zarr_python: json!(["0x7fc00000", "0x7fc00000"]),
            zarr_python_value: Value::Complex64(Complex::new(
                f32::from_bits(0x7fc0_0000),
                f32::from_bits(0x7fc0_0000),
            )),
        },
        ("2.18.7", "v2_scalar_complex128") => Deviation::ComplexFillMisread {
            // On disk: ["-Infinity", -0.0].
            spec: json!(["0xfff0000000000000", "0x8000000000000000"]),
            zarr_python: json!(["0xfff0000000000000", "0x0000000000000000"]),
            zarr_python_value: Value::Complex128(Complex::new(f64::NEG_INFINITY, 0.0)),
        },
        ("3.1.6", "v3_legacy_bigendian_bug") => Deviation::LegacyBigEndianGarbage {
            // Written as (1, 2.0) in big-endian; read as little-endian.
            fill: json!({"a": 16_777_216, "b": "0x0000000000000040"}),
        },
        ("2.18.7", "v2_scalar_float64_negzero") => Deviation::WriterChangedFill {
            // Requested -0.0.
            on_disk: json!(0.0),
        },
        ("3.4.2", "v3_struct_special_fills") => Deviation::WriterChangedFill {
            // Requested nan_payload 0x7fc00001 and neg_nan 0xfff8000000000000.
            on_disk: json!({
                "nan": "NaN", "nan_payload": "NaN", "neg_nan": "NaN", "negzero": -0.0,
                "neginf": "-Infinity", "h": "NaN", "c": ["NaN", "Infinity"],
                "c2": ["-Infinity", -0.0]
            }),
        },
        _ => return None,
    })
}

// ------------------------------------------------------------------------------------------
// Driver
// ------------------------------------------------------------------------------------------

#[derive(Default)]
struct Stats {
    cases: usize,
    chunks: usize,
    elements: usize,
}

fn fixtures_dir(version: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
        .join(format!("zarr-python-{version}"))
}

fn read_json(path: &Path) -> Json {
    let text =
        fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

fn str_of<'a>(json: &'a Json, key: &str) -> &'a str {
    json[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key:?} is not a string in {json}"))
}

/// Case names present in a fixture directory: `<case>.json` (other than `index.json`) and
/// `<case>.zarr`.
fn case_names_on_disk(dir: &Path, suffix: &str) -> BTreeSet<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name != "index.json")
        .filter_map(|name| name.strip_suffix(suffix).map(str::to_owned))
        .collect()
}

fn check_version(version: &str, min_cases: usize) {
    let dir = fixtures_dir(version);
    let index = read_json(&dir.join("index.json"));
    assert_eq!(index["writer"]["zarr"], version, "index.json writer");
    let entries = index["cases"].as_array().unwrap();
    assert!(
        entries.len() >= min_cases,
        "zarr-python {version}: only {} cases listed, expected at least {min_cases}",
        entries.len()
    );
    let listed: BTreeSet<String> = entries.iter().map(|e| str_of(e, "name").into()).collect();
    assert_eq!(listed.len(), entries.len(), "duplicate case names");
    assert_eq!(
        listed,
        case_names_on_disk(&dir, ".json"),
        "<case>.json files"
    );
    assert_eq!(
        listed,
        case_names_on_disk(&dir, ".zarr"),
        "<case>.zarr arrays"
    );
    for skipped in index["skipped"].as_array().unwrap() {
        assert!(!listed.contains(str_of(skipped, "name")), "{skipped}");
    }
    for &(v, case) in DEVIATION_CASES.iter().chain(WRITTEN_DATA_CASES) {
        assert!(
            v != version || listed.contains(case),
            "{case} is not a case"
        );
    }
    for case in &listed {
        let is_deviation = DEVIATION_CASES.contains(&(version, case.as_str()));
        assert_eq!(
            known_deviation(version, case).is_some(),
            is_deviation,
            "{case}"
        );
    }

    let mut total = Stats::default();
    let mut failures = Vec::new();
    for entry in entries {
        let name = str_of(entry, "name");
        let zarr_format = entry["zarr_format"].as_u64().unwrap();
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            check_case(version, &dir, name, zarr_format, &mut total);
        }));
        match result {
            Ok(()) => total.cases += 1,
            Err(payload) => failures.push(format!("{name}: {}", panic_message(&*payload))),
        }
    }
    eprintln!(
        "zarr-python {version}: {} cases checked ({} failed), {} chunks decoded, {} elements \
         compared",
        entries.len(),
        failures.len(),
        total.chunks,
        total.elements
    );
    assert!(
        failures.is_empty(),
        "{} of {} zarr-python {version} cases failed:\n{}",
        failures.len(),
        entries.len(),
        failures.join("\n")
    );
    assert_eq!(total.cases, entries.len());
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_else(|| "(non-string panic)".into())
}

// ------------------------------------------------------------------------------------------
// One case
// ------------------------------------------------------------------------------------------

enum Meta {
    V3(ArrayMetadataV3),
    V2(ArrayMetadataV2),
}

/// An opened fixture array.
struct Array {
    dir: PathBuf,
    /// The metadata document as written by zarr-python.
    raw: Json,
    meta: Meta,
    shape: Vec<u64>,
    chunks: Vec<u64>,
    /// How one element lies in the chunks: what they are decoded and re-encoded with.
    layout: Layout,
    fill: Option<Value>,
    /// The NumPy dtype zarr-python read into, which `values_hex` and `fill_value_hex` are in.
    readback_layout: Layout,
}

impl Array {
    fn chunk_key(&self, position: &[u64]) -> String {
        match &self.meta {
            Meta::V3(meta) => meta.chunk_key(position),
            Meta::V2(meta) => meta.chunk_key(position),
        }
    }
}

/// Checks one case; `stats` counts the chunks decoded and elements compared.
fn check_case(version: &str, dir: &Path, name: &str, zarr_format: u64, stats: &mut Stats) {
    let expected = read_json(&dir.join(format!("{name}.json")));
    assert_eq!(expected["case"], name);
    assert_eq!(expected["zarr_format"], zarr_format);
    assert_eq!(expected["path"], format!("{name}.zarr"));
    check_provenance(version, name, &expected);
    let deviation = known_deviation(version, name);

    let array_dir = dir.join(format!("{name}.zarr"));
    let array = match zarr_format {
        3 => open_v3(&array_dir),
        2 => open_v2(&array_dir, &expected),
        other => panic!("zarr_format {other}"),
    };
    assert_eq!(json!(array.shape), expected["shape"], "shape");
    assert_eq!(json!(array.chunks), expected["chunks"], "chunks");
    assert_eq!(
        json!(array.readback_layout.size()),
        expected["itemsize"],
        "itemsize"
    );
    assert_eq!(array.layout.size(), array.readback_layout.size());

    // 1. Read the whole array: every chunk of the grid, decoded or filled.
    let stored: BTreeSet<String> = expected["stored_chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|key| key.as_str().unwrap().to_owned())
        .collect();
    let assembled = assemble(&array, &stored);
    stats.chunks += assembled.chunks;

    // 2. The fill value, and what zarr-python substitutes for missing chunks.
    let our_fill = array
        .fill
        .as_ref()
        .map_or(Json::Null, |fill| typed(fill, &array.layout));
    let zarr_fill = match &deviation {
        Some(Deviation::ComplexFillMisread {
            spec,
            zarr_python,
            zarr_python_value,
        }) => {
            assert_eq!(
                &our_fill, spec,
                "our fill must be the spec's reading of the file"
            );
            assert_eq!(
                &expected["fill_value"], zarr_python,
                "zarr-python's known complex fill bug"
            );
            assert_eq!(&typed(zarr_python_value, &array.layout), zarr_python);
            Some(zarr_python_value.clone())
        }
        other => {
            match other {
                Some(Deviation::LegacyBigEndianGarbage { fill }) => {
                    assert_eq!(&our_fill, fill, "we follow the metadata: little-endian");
                }
                Some(Deviation::WriterChangedFill { on_disk }) => {
                    assert_eq!(&array.raw["fill_value"], on_disk, "fill_value on disk");
                }
                _ => {}
            }
            assert_eq!(our_fill, expected["fill_value"], "fill_value");
            array.fill.clone()
        }
    };
    let expected_fill_hex = &expected["fill_value_hex"];
    match &zarr_fill {
        None => assert!(expected_fill_hex.is_null(), "fill_value_hex"),
        Some(fill) => {
            let encoded = array.readback_layout.encode_value(fill).unwrap();
            assert_same_data_bytes(
                "fill_value_hex",
                &hex_decode(expected_fill_hex.as_str().unwrap()),
                &encoded,
                &array.readback_layout,
            );
        }
    }

    // 3. Every element, as zarr-python sees the array (missing chunks hold its fill).
    let zarr_view: Vec<Value> = assembled
        .values
        .iter()
        .zip(&assembled.from_fill)
        .map(|(value, &from_fill)| match (&zarr_fill, from_fill) {
            (Some(fill), true) => fill.clone(),
            _ => value.clone(),
        })
        .collect();
    let expected_values = expected["values"].as_array().unwrap();
    assert_eq!(zarr_view.len(), expected_values.len(), "number of elements");
    for (index, (value, want)) in zarr_view.iter().zip(expected_values).enumerate() {
        assert_eq!(
            &typed(value, &array.layout),
            want,
            "element {index} (C order) of {name}"
        );
        stats.elements += 1;
    }
    let readback_bytes = array.readback_layout.encode_values(&zarr_view).unwrap();
    assert_same_data_bytes(
        "values_hex",
        &hex_decode(str_of(&expected, "values_hex")),
        &readback_bytes,
        &array.readback_layout,
    );

    // 4. Our writers: metadata and fill JSON round trips (chunks were checked in `assemble`).
    match &array.meta {
        Meta::V3(meta) => round_trip_v3(meta, &array.raw),
        Meta::V2(meta) => round_trip_v2(meta, &array.raw),
    }
}

/// `expected_from` / `read_error` are consistent, and only the known cases are
/// `written_data`.
fn check_provenance(version: &str, name: &str, expected: &Json) {
    let from = str_of(expected, "expected_from");
    let written = WRITTEN_DATA_CASES.contains(&(version, name));
    match from {
        "zarr_readback" => assert!(!written && expected.get("read_error").is_none()),
        "written_data" => {
            assert!(written, "unexpected written_data case");
            assert!(
                expected["read_error"].is_string(),
                "written_data needs a read_error"
            );
        }
        other => panic!("expected_from {other:?}"),
    }
}

fn open_v3(dir: &Path) -> Array {
    let text = fs::read_to_string(dir.join("zarr.json")).unwrap();
    let meta = ArrayMetadataV3::from_json_str(&text)
        .unwrap_or_else(|e| panic!("zarr.json does not parse: {e}"));
    // The fixtures are uncompressed: the bytes codec is the whole chain.
    assert_eq!(meta.codecs.len(), 1, "codecs {:?}", meta.codecs);
    assert!(meta.bytes_codec.is_some(), "no bytes codec");
    let layout = meta.layout().unwrap();
    // zarr-python reads v3 arrays into the native (little-endian), packed NumPy dtype.
    let readback_layout = Layout::from_data_type(&meta.data_type, Some(Endian::Little)).unwrap();
    Array {
        dir: dir.to_owned(),
        raw: serde_json::from_str(&text).unwrap(),
        shape: meta.shape.clone(),
        chunks: meta.chunk_shape.clone(),
        layout,
        fill: Some(meta.fill_value.clone()),
        readback_layout,
        meta: Meta::V3(meta),
    }
}

fn open_v2(dir: &Path, expected: &Json) -> Array {
    let raw = read_json(&dir.join(".zarray"));
    let meta =
        ArrayMetadataV2::from_json(&raw).unwrap_or_else(|e| panic!(".zarray does not parse: {e}"));
    assert_eq!(meta.order, 'C', "order");
    assert!(meta.compressor.is_null(), "compressor");
    assert!(meta.filters.is_null(), "filters");
    let separator = raw
        .get("dimension_separator")
        .and_then(Json::as_str)
        .unwrap_or(".");
    assert_eq!(meta.dimension_separator.to_string(), separator);
    // zarr-python 2 reads a v2 array into exactly its `.zarray` dtype: NumPy's view of it must
    // be our layout.
    let readback_layout = v2_readback_layout(expected);
    assert_eq!(
        readback_layout, meta.layout,
        "dtype_descr as read back vs our parse of .zarray dtype"
    );
    Array {
        dir: dir.to_owned(),
        raw,
        shape: meta.shape.clone(),
        chunks: meta.chunks.clone(),
        layout: meta.layout.clone(),
        fill: meta.fill_value.clone(),
        readback_layout,
        meta: Meta::V2(meta),
    }
}

/// The layout of `dtype_descr`. NumPy renames the `""` padding entries of an on-disk descr to
/// `f<index>` (listed in `padding_fields`); they are padding again here.
fn v2_readback_layout(expected: &Json) -> Layout {
    let padding: Vec<&str> = expected["padding_fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|name| name.as_str().unwrap())
        .collect();
    let mut descr = expected["dtype_descr"].clone();
    if !padding.is_empty() {
        for entry in descr.as_array_mut().unwrap() {
            let items = entry.as_array_mut().unwrap();
            let is_void = items[1].as_str().is_some_and(|t| t.starts_with("|V"));
            if is_void && padding.contains(&items[0].as_str().unwrap()) {
                items[0] = json!("");
            }
        }
    }
    Layout::from_v2_json(&descr).unwrap_or_else(|e| panic!("dtype_descr {descr}: {e}"))
}

// ------------------------------------------------------------------------------------------
// Chunks
// ------------------------------------------------------------------------------------------

struct Assembled {
    /// Every element in C order.
    values: Vec<Value>,
    /// Whether the element comes from the fill value (its chunk is not stored).
    from_fill: Vec<bool>,
    /// Chunks decoded.
    chunks: usize,
}

fn assemble(array: &Array, stored: &BTreeSet<String>) -> Assembled {
    let total = usize::try_from(array.shape.iter().product::<u64>()).unwrap();
    let mut slots: Vec<Option<(Value, bool)>> = vec![None; total];
    let mut visited = BTreeSet::new();
    let mut decoded_chunks = 0;
    for position in grid_positions(&array.shape, &array.chunks) {
        let key = array.chunk_key(&position);
        let targets = chunk_targets(&array.shape, &array.chunks, &position);
        let elements: Vec<(Value, bool)> = match fs::read(array.dir.join(&key)) {
            Ok(bytes) => {
                assert!(stored.contains(&key), "chunk {key} is not in stored_chunks");
                assert!(visited.insert(key.clone()), "chunk {key} visited twice");
                let expected_len = targets.len() * array.layout.size();
                assert_eq!(bytes.len(), expected_len, "length of chunk {key}");
                let values = array
                    .layout
                    .decode_values(&bytes)
                    .unwrap_or_else(|e| panic!("chunk {key}: {e}"));
                assert_eq!(values.len(), targets.len(), "elements in chunk {key}");
                check_chunk_round_trip(&key, &array.layout, &bytes, &values);
                decoded_chunks += 1;
                values.into_iter().map(|value| (value, false)).collect()
            }
            Err(e) if e.kind() == ErrorKind::NotFound => {
                let fill = array
                    .fill
                    .as_ref()
                    .unwrap_or_else(|| panic!("chunk {key} is missing and fill_value is null"));
                vec![(fill.clone(), true); targets.len()]
            }
            Err(e) => panic!("chunk {key}: {e}"),
        };
        for (target, element) in targets.into_iter().zip(elements) {
            if let Some(flat) = target {
                assert!(slots[flat].is_none(), "element {flat} written twice");
                slots[flat] = Some(element);
            }
        }
    }
    assert_eq!(
        &visited, stored,
        "every stored chunk is a chunk of the grid"
    );
    let (values, from_fill) = slots
        .into_iter()
        .enumerate()
        .map(|(flat, slot)| slot.unwrap_or_else(|| panic!("element {flat} not covered")))
        .unzip();
    Assembled {
        values,
        from_fill,
        chunks: decoded_chunks,
    }
}

/// Encoding the decoded chunk with the same layout gives back the stored bytes; padding
/// bytes, which we write as zeros, are not compared.
fn check_chunk_round_trip(key: &str, layout: &Layout, stored: &[u8], values: &[Value]) {
    let encoded = layout
        .encode_values(values)
        .unwrap_or_else(|e| panic!("re-encoding chunk {key}: {e}"));
    assert_same_data_bytes(&format!("chunk {key}"), stored, &encoded, layout);
    let mask = data_mask(layout);
    for (index, element) in encoded.chunks_exact(layout.size()).enumerate() {
        for (offset, (&byte, &data)) in element.iter().zip(&mask).enumerate() {
            assert!(
                data || byte == 0,
                "chunk {key}: element {index} padding byte {offset} encoded as {byte:#04x}"
            );
        }
    }
}

/// `true` for every byte of one element that belongs to a field.
fn data_mask(layout: &Layout) -> Vec<bool> {
    let mut mask = vec![false; layout.size()];
    for leaf in layout.leaves() {
        // Every copy of the leaf: one per item of each subarray it sits in.
        let mut starts = vec![leaf.offset()];
        for repeat in leaf.repeats() {
            starts = starts
                .iter()
                .flat_map(|&start| (0..repeat.count()).map(move |i| start + i * repeat.stride()))
                .collect();
        }
        for start in starts {
            mask[start..start + leaf.layout().scalar().size()].fill(true);
        }
    }
    mask
}

/// `expected` and `actual` hold the same elements of `layout`, padding bytes aside.
fn assert_same_data_bytes(what: &str, expected: &[u8], actual: &[u8], layout: &Layout) {
    assert_eq!(expected.len(), actual.len(), "{what}: byte length");
    let size = layout.size();
    let mask = data_mask(layout);
    let pairs = expected.chunks_exact(size).zip(actual.chunks_exact(size));
    for (index, (want, got)) in pairs.enumerate() {
        let differs = (0..size).any(|offset| mask[offset] && want[offset] != got[offset]);
        assert!(
            !differs,
            "{what}: element {index} differs: expected {}, got {}",
            hex_encode(want),
            hex_encode(got)
        );
    }
}

// ------------------------------------------------------------------------------------------
// Metadata and fill value round trips
// ------------------------------------------------------------------------------------------

fn round_trip_v3(meta: &ArrayMetadataV3, raw: &Json) {
    let endian = meta.bytes_codec.and_then(|codec| codec.endian());
    let fill_json = meta.data_type.fill_value_to_json(&meta.fill_value).unwrap();
    let fill_back = meta
        .data_type
        .fill_value_from_json_with_endian(&fill_json, endian)
        .unwrap_or_else(|e| panic!("our fill JSON {fill_json} does not read back: {e}"));
    assert_eq!(
        fill_back, meta.fill_value,
        "fill JSON round trip via {fill_json}"
    );

    let written = meta.to_json().unwrap();
    let back = ArrayMetadataV3::from_json(&written)
        .unwrap_or_else(|e| panic!("our zarr.json does not parse: {e}\n{written}"));
    let mut want = meta.clone();
    if meta.legacy_structured {
        // Legacy `structured` arrays (zarr-python 3.1) are written in the registered `struct`
        // form, which the spec says readers must accept and writers must not write legacy.
        assert_eq!(written["data_type"]["name"], "struct");
        assert!(!back.legacy_structured);
        want.legacy_structured = false;
        // The struct spec needs an explicit endian where 3.1 wrote none, so the writer may
        // make the (little-endian) default explicit; the byte order must stay the same.
        assert_eq!(
            back.bytes_codec.map(|codec| codec.read_endian()),
            meta.bytes_codec.map(|codec| codec.read_endian())
        );
        want.bytes_codec = back.bytes_codec;
        want.codecs = back.codecs.clone();
    } else {
        // What zarr-python 3.4 wrote is already in the current forms: we write the same.
        assert_eq!(written["data_type"], raw["data_type"], "data_type written");
        assert_eq!(written["codecs"], raw["codecs"], "codecs written");
        assert_eq!(
            written["fill_value"], raw["fill_value"],
            "fill_value written"
        );
    }
    assert_eq!(back, want, "zarr.json round trip via {written}");
    // zarr-extensions struct spec: "When a struct type contains multi-byte numeric fields, the
    // bytes codec MUST be configured with an explicit endian setting".
    if meta.data_type.as_struct().is_some() && meta.data_type.has_endianness() {
        assert!(
            back.bytes_codec.and_then(|codec| codec.endian()).is_some(),
            "our zarr.json writes a multi-byte struct without a bytes endian: {}",
            written["codecs"]
        );
    }
}

fn round_trip_v2(meta: &ArrayMetadataV2, raw: &Json) {
    let fill_json = meta
        .layout
        .fill_value_to_json(meta.fill_value.as_ref())
        .unwrap();
    let fill_back = meta
        .layout
        .fill_value_from_json(&fill_json)
        .unwrap_or_else(|e| panic!("our fill JSON {fill_json} does not read back: {e}"));
    assert_eq!(
        fill_back, meta.fill_value,
        "fill JSON round trip via {fill_json}"
    );

    if meta.layout.has_padding() {
        // Deliberate (documented on `Layout::to_v2_json`): padded dtypes are not written, as
        // their `""` descr entries read back as fields in zarr-python 3. Only these cases.
        let error = meta.to_json().unwrap_err();
        assert!(
            matches!(error, Error::Unrepresentable { .. }),
            "padded dtype: {error}"
        );
        return;
    }
    let written = meta.to_json().unwrap();
    assert_eq!(written["dtype"], raw["dtype"], "dtype written");
    let back = ArrayMetadataV2::from_json(&written)
        .unwrap_or_else(|e| panic!("our .zarray does not parse: {e}\n{written}"));
    assert_eq!(&back, meta, ".zarray round trip via {written}");
}

// ------------------------------------------------------------------------------------------
// Typed JSON (the encoding of tests/interop/generate.py)
// ------------------------------------------------------------------------------------------
