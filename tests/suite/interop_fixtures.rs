#![allow(clippy::unwrap_used)]
//! Reads every array of the committed zarr-python fixtures (`tests/fixtures/zarr-python-*`,
//! made by `tests/interop/generate.py`: uncompressed, with each zarr-python's default codecs,
//! sharded) through zarrs, as a user would: `zarrdt::array::open_array` (its Zarr v2 path for
//! NumPy structured dtypes with padding, subarrays and mixed byte order), then
//! `retrieve_values`, and every derived record type of this file whose data type the array
//! has; and compares, bit for bit, with what zarr-python read back: every element, the fill
//! value, and the raw bytes of both in the dtype zarr-python read into. The chunk grid, the
//! chunk keys and the codecs are zarrs'; the test checks that the chunks zarrs finds are the
//! files zarr-python wrote. Then it checks that zarrdt's metadata writers round-trip each
//! document.
//!
//! The case list comes from each version's `index.json`; nothing is hard-coded except the
//! minimum coverage per version and the known deviations (see [`known_deviation`]).

use std::any::{Any, type_name};
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::ops::Range;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::common;
use half::f16;
use num_complex::Complex;
use serde_json::{Value as Json, json};

use common::records::{AllScalars, Grid, Particle};
use common::{hex_decode, hex_encode, typed};
use zarrdt::ReadRecords;
use zarrdt::array::{RecordType, StructDataType, open_array};
use zarrdt::layout::Layout;
use zarrdt::metadata::{ArrayMetadataV2, ArrayMetadataV3};
use zarrdt::time::{Milliseconds, Nanoseconds, Seconds};
use zarrdt::value::Value;
use zarrdt::zarrs::array::{Array, ArrayMetadata, Element as ZarrsElement, ElementOwned};
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::zarrs::storage::{ReadableStorageTraits, StoreKey};
use zarrdt::{
    ByteString, DateTime64, Endian, Error, FixedString, RawBytes, TimeDelta64, ZarrEnum,
    ZarrStruct, ZarrType,
};

/// What a version's fixtures must cover, so that a regenerated set cannot lose a kind of
/// array unnoticed: at least this many cases, cases with each codec (by name, in the metadata
/// zarrs reads; a Zarr v2 compressor by its id), and derived types that read some case.
struct Coverage {
    cases: usize,
    codecs: &'static [(&'static str, usize)],
    /// Derived record types (by name in this file) that must read at least one case.
    derived: &'static [&'static str],
}

#[test]
fn zarr_python_3_4_2_fixtures() {
    check_version(
        "3.4.2",
        &Coverage {
            cases: 50,
            codecs: &[("zstd", 15), ("sharding_indexed", 2)],
            derived: &[
                "Flat",
                "FlatPoint",
                "Deep",
                "EveryScalar",
                "Extension",
                "BoolOnly",
                "Rgb",
                "Xy",
                "Xyz",
                "FieldNames",
                "Pair",
                "Renamed",
                "Particle",
                "Grid",
                "AllScalars",
                "SpecialFills",
                "NestedV2",
                "EnumsChars",
            ],
        },
    );
}

#[test]
fn zarr_python_3_1_6_fixtures() {
    check_version(
        "3.1.6",
        &Coverage {
            cases: 15,
            codecs: &[("zstd", 6)],
            derived: &["Flat", "FlatPoint", "EveryScalar", "Xy"],
        },
    );
}

#[test]
fn zarr_python_2_18_7_fixtures() {
    check_version(
        "2.18.7",
        &Coverage {
            cases: 40,
            codecs: &[("blosc", 9)],
            derived: &[
                "Flat",
                "NestedV2",
                "Subarray",
                "ExtensionV2",
                "EveryScalar",
                "Xy",
                "Particle",
                "Grid",
                "AllScalars",
                "SpecialFills",
                "EnumsChars",
            ],
        },
    );
}

// ------------------------------------------------------------------------------------------
// Derived record types of the fixtures' dtypes
// ------------------------------------------------------------------------------------------

/// `[a <i4, b <f8]` (and, in Zarr v2, its big-endian and mixed-order forms).
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Flat {
    a: i32,
    b: f64,
}

#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Point {
    x: f32,
    y: f32,
}

/// `[point [x <f4, y <f4], value <f8]`.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct FlatPoint {
    point: Point,
    value: f64,
}

#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Bar {
    baz: f32,
    qux: i32,
}

/// `[foo <f4, bar [baz <f4, qux <i4]]`.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct NestedV2 {
    foo: f32,
    bar: Bar,
}

/// `[x <f4, z <f4 (2, 2)]`.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Subarray {
    x: f32,
    z: [[f32; 2]; 2],
}

#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct DeepInner {
    c: Complex<f32>,
    t: i64,
}

#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Inner {
    deep: DeepInner,
    u: u8,
}

#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Outer {
    flag: bool,
    inner: Inner,
    w: f16,
}

/// Three levels of nested records.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Deep {
    id: u16,
    outer: Outer,
    z: i8,
}

/// One field of every core scalar type, named after the type.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct EveryScalar {
    #[zarr(rename = "bool")]
    boolean: bool,
    int8: i8,
    int16: i16,
    int32: i32,
    int64: i64,
    uint8: u8,
    uint16: u16,
    uint32: u32,
    uint64: u64,
    float16: f16,
    float32: f32,
    float64: f64,
    complex64: Complex<f32>,
    complex128: Complex<f64>,
}

/// `[t <M8[s], t10 <M8[10s], tms <M8[ms], dt <m8[ns], s <U4, raw |V3, bs |S5]`.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Extension {
    t: DateTime64<Seconds>,
    t10: DateTime64<Seconds, 10>,
    tms: DateTime64<Milliseconds>,
    dt: TimeDelta64<Nanoseconds>,
    s: FixedString<4>,
    raw: RawBytes<3>,
    bs: ByteString<5>,
}

/// `[t <M8[10s], d <m8[ms], s <U4, b |S5, v |V3]`.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct ExtensionV2 {
    t: DateTime64<Seconds, 10>,
    d: TimeDelta64<Milliseconds>,
    s: FixedString<4>,
    b: ByteString<5>,
    v: RawBytes<3>,
}

/// Every NaN, infinity and signed zero a fill can hold.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct SpecialFills {
    nan: f32,
    nan_payload: f32,
    neg_nan: f64,
    negzero: f64,
    neginf: f64,
    h: f16,
    c: Complex<f64>,
    c2: Complex<f32>,
}

#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct BoolOnly {
    a: bool,
    b: bool,
}

#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Rgb {
    r: u8,
    g: u8,
    b: u8,
}

/// `[x <i2, y <f4]`, the 2-D fixtures' record.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Xy {
    x: i16,
    y: f32,
}

/// `[x <i2, y <f4, z <c8]`, the sharded 2-D fixture's record.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Xyz {
    x: i16,
    y: f32,
    z: Complex<f32>,
}

#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct FieldNames {
    #[zarr(rename = "foo.mask")]
    mask: u8,
    #[zarr(rename = "température")]
    temperature: f64,
    #[zarr(rename = "0")]
    zero: i16,
    #[zarr(rename = "1")]
    one: i32,
    #[zarr(rename = "with space")]
    with_space: f32,
}

/// A tuple struct: fields `"0"` and `"1"`.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Pair(i16, f32);

#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Renamed {
    #[zarr(rename = "foo.mask")]
    mask: u8,
    #[zarr(rename = "température")]
    temperature: f64,
}

/// Enum and char fields of an array zarr-python wrote with plain integers and `U1`
/// (`v3_derive_enums_chars`, `v2_derive_enums_chars`): every stored value is a variant.
#[derive(ZarrStruct, Clone, Copy, Debug)]
struct EnumsChars {
    status: Status,
    kind: Kind,
    history: [Status; 3],
    grade: char,
    value: f64,
}

#[derive(ZarrEnum, Clone, Copy, Debug)]
#[repr(u8)]
enum Status {
    Ok,
    Warn,
    Fail = 7,
}

#[derive(ZarrEnum, Clone, Copy, Debug)]
#[repr(i16)]
enum Kind {
    Min = -300,
    Zero = 0,
    Max = 300,
}

/// A derived record type tried on every fixture: its name, and a reader that returns the
/// records' bytes (native byte order) if the array's data type stores this type.
struct Derived {
    name: &'static str,
    read: fn(&Array<FilesystemStore>) -> Option<Vec<u8>>,
}

fn derived<T: ZarrType + ZarrsElement + ElementOwned>(name: &'static str) -> Derived {
    Derived {
        name,
        read: |array| {
            <T as ZarrsElement>::validate_data_type(array.data_type()).ok()?;
            let records: Vec<T> = array
                .retrieve_array_subset(&array.subset_all())
                .unwrap_or_else(|e| panic!("reading {}s: {e}", type_name::<T>()));
            Some(T::encode_slice(&records, Endian::NATIVE))
        },
    }
}

fn derived_types() -> Vec<Derived> {
    vec![
        derived::<Flat>("Flat"),
        derived::<FlatPoint>("FlatPoint"),
        derived::<NestedV2>("NestedV2"),
        derived::<Subarray>("Subarray"),
        derived::<Deep>("Deep"),
        derived::<EveryScalar>("EveryScalar"),
        derived::<Extension>("Extension"),
        derived::<ExtensionV2>("ExtensionV2"),
        derived::<SpecialFills>("SpecialFills"),
        derived::<BoolOnly>("BoolOnly"),
        derived::<Rgb>("Rgb"),
        derived::<Xy>("Xy"),
        derived::<Xyz>("Xyz"),
        derived::<FieldNames>("FieldNames"),
        derived::<Pair>("Pair"),
        derived::<Renamed>("Renamed"),
        derived::<Particle>("Particle"),
        derived::<Grid>("Grid"),
        derived::<AllScalars>("AllScalars"),
        derived::<EnumsChars>("EnumsChars"),
    ]
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

/// What the cases of a version exercised.
#[derive(Default)]
struct Stats {
    cases: usize,
    chunks: usize,
    elements: usize,
    /// Cases per codec name.
    codecs: BTreeMap<String, usize>,
    /// Cases per derived type that read them.
    derived: BTreeMap<&'static str, usize>,
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

fn check_version(version: &str, coverage: &Coverage) {
    let dir = fixtures_dir(version);
    let index = read_json(&dir.join("index.json"));
    assert_eq!(index["writer"]["zarr"], version, "index.json writer");
    let entries = index["cases"].as_array().unwrap();
    assert!(
        entries.len() >= coverage.cases,
        "zarr-python {version}: only {} cases listed, expected at least {}",
        entries.len(),
        coverage.cases
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

    let derived = derived_types();
    let mut total = Stats::default();
    let mut failures = Vec::new();
    for entry in entries {
        let name = str_of(entry, "name");
        let zarr_format = entry["zarr_format"].as_u64().unwrap();
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            check_case(version, &dir, name, zarr_format, &derived, &mut total);
        }));
        match result {
            Ok(()) => total.cases += 1,
            Err(payload) => failures.push(format!("{name}: {}", panic_message(&*payload))),
        }
    }
    eprintln!(
        "zarr-python {version}: {} cases checked through zarrs ({} failed), {} stored chunks \
         found, {} elements compared; cases per codec {:?}; per derived type {:?}",
        entries.len(),
        failures.len(),
        total.chunks,
        total.elements,
        total.codecs,
        total.derived,
    );
    assert!(
        failures.is_empty(),
        "{} of {} zarr-python {version} cases failed:\n{}",
        failures.len(),
        entries.len(),
        failures.join("\n")
    );
    assert_eq!(total.cases, entries.len());
    for &(codec, minimum) in coverage.codecs {
        let count = total.codecs.get(codec).copied().unwrap_or(0);
        assert!(
            count >= minimum,
            "zarr-python {version}: {count} cases with {codec}, expected at least {minimum}"
        );
    }
    for name in coverage.derived {
        assert!(
            total.derived.contains_key(name),
            "zarr-python {version}: no case read as the derived type {name}"
        );
    }
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

/// Checks one case; `stats` counts what it exercised.
#[allow(clippy::too_many_lines)]
fn check_case(
    version: &str,
    dir: &Path,
    name: &str,
    zarr_format: u64,
    derived: &[Derived],
    stats: &mut Stats,
) {
    let expected = read_json(&dir.join(format!("{name}.json")));
    assert_eq!(expected["case"], name);
    assert_eq!(expected["zarr_format"], zarr_format);
    assert_eq!(expected["path"], format!("{name}.zarr"));
    check_provenance(version, name, &expected);
    let deviation = known_deviation(version, name);

    // 1. Open it through zarrs, as anyone would.
    let store = Arc::new(FilesystemStore::new(dir.join(format!("{name}.zarr"))).unwrap());
    let array = open_array(store.clone(), "/").unwrap_or_else(|e| panic!("open_array: {e}"));
    let record = RecordType::of(array.data_type()).unwrap();
    let native = record.native_layout();
    assert_eq!(json!(array.shape()), expected["shape"], "shape");
    let (chunks, shards, codecs) = grid_and_codecs(&array);
    assert_eq!(json!(chunks), expected["chunks"], "chunks");
    assert_eq!(json!(shards), expected["shards"], "shards");
    for codec in codecs {
        *stats.codecs.entry(codec).or_default() += 1;
    }

    // zarr-python reads Zarr v3 into the packed little-endian dtype of the data type, and
    // Zarr v2 into the `.zarray` dtype itself (`dtype_descr`, with NumPy's names for padding).
    let raw = match zarr_format {
        3 => metadata_document(&store, "zarr.json"),
        2 => metadata_document(&store, ".zarray"),
        other => panic!("zarr_format {other}"),
    };
    let readback_layout = if zarr_format == 3 {
        Layout::from_data_type(record.data_type().unwrap(), Some(Endian::Little)).unwrap()
    } else {
        let readback = v2_readback_layout(&expected);
        if let Some(stored) = array
            .data_type()
            .downcast_ref::<StructDataType>()
            .and_then(StructDataType::stored_layout)
        {
            assert_eq!(
                &readback, stored,
                "dtype_descr as read back vs the .zarray dtype zarrdt opened"
            );
        }
        readback
    };
    assert_eq!(
        json!(readback_layout.size()),
        expected["itemsize"],
        "itemsize"
    );
    assert_eq!(native.size(), readback_layout.size());

    // 2. The chunks zarrs finds (its grid, its keys) are the files zarr-python wrote.
    let stored: BTreeSet<String> = expected["stored_chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|key| key.as_str().unwrap().to_owned())
        .collect();
    let mut found = BTreeSet::new();
    let total = usize::try_from(array.shape().iter().product::<u64>()).unwrap();
    let mut from_fill = vec![false; total];
    for position in grid_positions(array.chunk_grid_shape()) {
        if array.retrieve_encoded_chunk(&position).unwrap().is_some() {
            found.insert(array.chunk_key(&position).to_string());
        } else {
            let subset = array.chunk_subset_bounded(&position).unwrap();
            for flat in flat_indices(array.shape(), &subset.to_ranges()) {
                from_fill[flat] = true;
            }
        }
    }
    assert_eq!(found, stored, "chunks zarrs finds vs stored_chunks");
    stats.chunks += found.len();

    // 3. The fill value, and what zarr-python substitutes for missing chunks.
    let our_fill = if expected["fill_value"].is_null() {
        // A null v2 fill reads as the zero record, as NumPy fills it.
        assert_eq!(raw["fill_value"], Json::Null, "fill_value on disk");
        assert!(
            array.fill_value().as_ne_bytes().iter().all(|&b| b == 0),
            "a null fill reads as zeros"
        );
        None
    } else {
        Some(
            native
                .decode_value(array.fill_value().as_ne_bytes())
                .unwrap(),
        )
    };
    let our_fill_json = our_fill
        .as_ref()
        .map_or(Json::Null, |fill| typed(fill, native));
    let zarr_fill = match &deviation {
        Some(Deviation::ComplexFillMisread {
            spec,
            zarr_python,
            zarr_python_value,
        }) => {
            assert_eq!(
                &our_fill_json, spec,
                "our fill must be the spec's reading of the file"
            );
            assert_eq!(
                &expected["fill_value"], zarr_python,
                "zarr-python's known complex fill bug"
            );
            assert_eq!(&typed(zarr_python_value, native), zarr_python);
            Some(zarr_python_value.clone())
        }
        other => {
            match other {
                Some(Deviation::LegacyBigEndianGarbage { fill }) => {
                    assert_eq!(
                        &our_fill_json, fill,
                        "we follow the metadata: little-endian"
                    );
                }
                Some(Deviation::WriterChangedFill { on_disk }) => {
                    assert_eq!(&raw["fill_value"], on_disk, "fill_value on disk");
                }
                _ => {}
            }
            assert_eq!(our_fill_json, expected["fill_value"], "fill_value");
            our_fill.clone()
        }
    };
    let expected_fill_hex = &expected["fill_value_hex"];
    match &zarr_fill {
        None => assert!(expected_fill_hex.is_null(), "fill_value_hex"),
        Some(fill) => {
            let encoded = readback_layout.encode_value(fill).unwrap();
            assert_same_data_bytes(
                "fill_value_hex",
                &hex_decode(expected_fill_hex.as_str().unwrap()),
                &encoded,
                &readback_layout,
            );
        }
    }

    // 4. Every element through zarrs, as zarr-python sees the array (the elements of missing
    //    chunks hold its fill).
    let values = array.retrieve_values(&array.subset_all()).unwrap();
    assert_eq!(values.len(), total, "number of elements");
    let zarr_view: Vec<Value> = values
        .iter()
        .zip(&from_fill)
        .map(|(value, &missing)| match (&zarr_fill, missing) {
            (Some(fill), true) => fill.clone(),
            _ => value.clone(),
        })
        .collect();
    let expected_values = expected["values"].as_array().unwrap();
    assert_eq!(zarr_view.len(), expected_values.len(), "number of elements");
    for (index, (value, want)) in zarr_view.iter().zip(expected_values).enumerate() {
        assert_eq!(
            &typed(value, native),
            want,
            "element {index} (C order) of {name}"
        );
        stats.elements += 1;
    }
    let readback_bytes = readback_layout.encode_values(&zarr_view).unwrap();
    assert_same_data_bytes(
        "values_hex",
        &hex_decode(str_of(&expected, "values_hex")),
        &readback_bytes,
        &readback_layout,
    );

    // 5. Every derived record type whose data type the array has reads the same records.
    let native_bytes = native.encode_values(&values).unwrap();
    for candidate in derived {
        if let Some(bytes) = (candidate.read)(&array) {
            assert_eq!(
                hex_encode(&bytes),
                hex_encode(&native_bytes),
                "records read as {} vs dynamic values",
                candidate.name
            );
            *stats.derived.entry(candidate.name).or_default() += 1;
        }
    }

    // 6. Our metadata writers: metadata and fill JSON round trips.
    match zarr_format {
        3 => round_trip_v3(&ArrayMetadataV3::from_json(&raw).unwrap(), &raw),
        _ => round_trip_v2(&ArrayMetadataV2::from_json(&raw).unwrap(), &raw),
    }
}

/// The metadata document `key` at the root of `store`.
fn metadata_document(store: &FilesystemStore, key: &str) -> Json {
    let bytes = store
        .get(&StoreKey::new(key).unwrap())
        .unwrap()
        .unwrap_or_else(|| panic!("no {key}"));
    serde_json::from_slice(&bytes).unwrap()
}

/// The chunk shape (inside shards, for a sharded array), the shard shape if sharded, and the
/// names of the codecs (the shards' inner codecs too; a Zarr v2 compressor and filters by
/// their ids), from the metadata zarrs holds.
fn grid_and_codecs(array: &Array<FilesystemStore>) -> (Vec<u64>, Option<Vec<u64>>, Vec<String>) {
    let grid_chunk: Vec<u64> = array
        .chunk_shape(&vec![0; array.dimensionality()])
        .unwrap()
        .iter()
        .map(|extent| extent.get())
        .collect();
    match array.metadata() {
        ArrayMetadata::V3(metadata) => {
            let codecs = serde_json::to_value(&metadata.codecs).unwrap();
            let mut names = Vec::new();
            let mut inner = None;
            collect_codecs(&codecs, &mut names, &mut inner);
            match inner {
                Some(chunks) => (chunks, Some(grid_chunk), names),
                None => (grid_chunk, None, names),
            }
        }
        ArrayMetadata::V2(metadata) => {
            let document = serde_json::to_value(metadata).unwrap();
            let mut names: Vec<String> = document["filters"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|filter| str_of(filter, "id").to_owned())
                .collect();
            if let Some(id) = document["compressor"].get("id") {
                names.push(id.as_str().unwrap().to_owned());
            }
            (grid_chunk, None, names)
        }
    }
}

fn collect_codecs(codecs: &Json, names: &mut Vec<String>, inner: &mut Option<Vec<u64>>) {
    for codec in codecs.as_array().unwrap() {
        // A codec without configuration may be its bare name.
        let name = codec.as_str().unwrap_or_else(|| str_of(codec, "name"));
        names.push(name.to_owned());
        if name == "sharding_indexed" {
            let configuration = &codec["configuration"];
            *inner = Some(serde_json::from_value(configuration["chunk_shape"].clone()).unwrap());
            collect_codecs(&configuration["codecs"], names, &mut None);
        }
    }
}

/// Every position of a grid of `shape`, in C order.
fn grid_positions(shape: &[u64]) -> Vec<Vec<u64>> {
    shape.iter().fold(vec![vec![]], |positions, &extent| {
        positions
            .into_iter()
            .flat_map(|prefix| {
                (0..extent).map(move |i| {
                    let mut next = prefix.clone();
                    next.push(i);
                    next
                })
            })
            .collect()
    })
}

/// The flat C-order indices, in an array of `shape`, of the elements of `ranges`.
fn flat_indices(shape: &[u64], ranges: &[Range<u64>]) -> Vec<usize> {
    let mut flat = vec![0u64];
    for (range, extent) in ranges.iter().zip(shape) {
        flat = flat
            .iter()
            .flat_map(|&outer| range.clone().map(move |i| outer * extent + i))
            .collect();
    }
    flat.into_iter()
        .map(|i| usize::try_from(i).unwrap())
        .collect()
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
// Bytes, padding aside
// ------------------------------------------------------------------------------------------

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
    let fill_json = meta
        .data_type
        .fill_value_to_v3_json(&meta.fill_value)
        .unwrap();
    let fill_back = meta
        .data_type
        .fill_value_from_v3_json(&fill_json, endian)
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
        .fill_value_to_v2_json(meta.fill_value.as_ref())
        .unwrap();
    let fill_back = meta
        .layout
        .fill_value_from_v2_json(&fill_json)
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
