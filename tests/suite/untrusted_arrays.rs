//! Untrusted metadata through every entry point (issue 23): arrays of every field kind, v2 and
//! v3, with elements just within and beyond the element-size limit and far beyond it, with
//! `null`, `0` and base64 fills, empty and with a chunk written, go through the core's parsers,
//! `open_array`, `retrieve_values`, `retrieve_records`, `retrieve_field` and `zarrdt inspect`,
//! `dump` and `rust` (in-process). Each entry point must answer with a typed error or the right
//! values, never a panic or an abort, holding at most 64 MB + 2 × the element size live at
//! once (an element beyond the limit counts as none: it must be refused before anything of its
//! size exists). The counters are the process's, so each test runs in a process of its own.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use rusty_fork::rusty_fork_test;
use serde_json::{Value as Json, json};
use zarrdt::array::{DEFAULT_MAX_ELEMENT_SIZE, Error as ArrayError, OpenOptions};
use zarrdt::metadata::{ArrayMetadataV2, ArrayMetadataV3};
use zarrdt::zarrs::array::{Array, ArraySubset};
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::{ReadRecords, WriteRecords};
use zarrdt_cli::{Cli, Command, Format};

use crate::common::{clock, meter};

/// The lowered limit of the cases that are opened and read: small enough to read quickly in a
/// debug build, large enough to be far above any fixed cost.
const SMALL_LIMIT: usize = 64 << 10;
/// Memory any entry point may hold beyond twice the element.
const BASE_BYTES: usize = 64 << 20;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Version {
    V2,
    V3,
}

/// One array of the table.
struct Case {
    name: String,
    version: Version,
    /// `.zarray` or `zarr.json`.
    document: Json,
    /// The element's size in bytes.
    size: u64,
    /// The limit it is opened with.
    limit: usize,
    /// Whether chunk `0` is written (the array has two elements, one per chunk).
    written: bool,
    /// Whether the element type is a record (zarrdt's to read), not one of zarrs' own types
    /// (which may refuse an array with a typed error of their own, such as v2 `|S`).
    record: bool,
}

impl Case {
    /// Whether the element is within the limit (and the core's 2³¹ − 1 bytes).
    fn accepted(&self) -> bool {
        self.size <= self.limit as u64
    }

    /// The memory any entry point may hold.
    fn budget(&self) -> usize {
        let element = if self.accepted() {
            self.size as usize
        } else {
            0
        };
        BASE_BYTES + 2 * element
    }

    /// The memory the core's parsers may hold: they have no limit of their own but the
    /// largest element there is (2³¹ − 1 bytes).
    fn core_budget(&self) -> usize {
        let element = if self.size < 1 << 31 {
            self.size as usize
        } else {
            0
        };
        BASE_BYTES + 2 * element
    }
}

/// The v3 data types of one element of `size` bytes, by kind: struct fields of every kind
/// that has a size in bytes, nested, and zarrs' own types of that size.
fn v3_kinds(size: u64) -> Vec<(&'static str, Json)> {
    let record = |data_type: Json| json!({"name": "struct", "configuration": {"fields": [{"name": "a", "data_type": data_type}]}});
    let bytes =
        |name: &str, length: u64| json!({"name": name, "configuration": {"length_bytes": length}});
    vec![
        ("struct raw_bytes", record(bytes("raw_bytes", size))),
        (
            "struct null_terminated_bytes",
            record(bytes("null_terminated_bytes", size)),
        ),
        (
            "struct fixed_length_utf32",
            record(bytes("fixed_length_utf32", size)),
        ),
        ("struct r<N>", record(json!(format!("r{}", size * 8)))),
        (
            "nested struct",
            record(json!({"name": "struct", "configuration": {"fields": [
                {"name": "x", "data_type": "uint32"},
                {"name": "y", "data_type": bytes("raw_bytes", size - 4)}]}})),
        ),
        ("r<N>", json!(format!("r{}", size * 8))),
        ("fixed_length_utf32", bytes("fixed_length_utf32", size)),
    ]
}

/// The v2 dtypes of one element of `size` bytes (a multiple of 8), by kind.
fn v2_kinds(size: u64) -> Vec<(&'static str, Json)> {
    vec![
        ("structured |V", json!([["a", format!("|V{size}")]])),
        ("structured |S", json!([["a", format!("|S{size}")]])),
        ("structured <U", json!([["a", format!("<U{}", size / 4)]])),
        ("subarray |u1", json!([["a", "|u1", [size]]])),
        ("subarray <f8", json!([["a", "<f8", [size / 8]]])),
        ("nested subarray", json!([["a", [["x", "|u1"]], [size]]])),
        ("|V", json!(format!("|V{size}"))),
        ("|S", json!(format!("|S{size}"))),
        ("<U", json!(format!("<U{}", size / 4))),
    ]
}

/// The fills of a v2 array of `size`-byte elements: `null`, `0`, and base64 of zero bytes
/// where that is no more than a megabyte of text.
fn v2_fills(size: u64) -> Vec<(&'static str, Json)> {
    let mut fills = vec![("null", Json::Null), ("0", json!(0))];
    if size <= 1 << 20 {
        fills.push(("base64", json!(BASE64.encode(vec![0u8; size as usize]))));
    }
    fills
}

/// The zero fill of a v3 leaf type in the registered form, if it takes no more than a
/// megabyte of JSON (raw types are written byte by byte or in base64).
fn zero_leaf(leaf: &Json) -> Option<Json> {
    let name = leaf.as_str().or_else(|| leaf["name"].as_str())?;
    let length = leaf["configuration"]["length_bytes"].as_u64();
    let small = |bytes: u64| bytes <= 1 << 20;
    match name {
        "uint32" => Some(json!(0)),
        "fixed_length_utf32" => Some(json!("")),
        "null_terminated_bytes" => Some(json!("")),
        "raw_bytes" => length
            .filter(|&n| small(n))
            .map(|n| json!(BASE64.encode(vec![0u8; n as usize]))),
        raw => {
            let bytes = raw.strip_prefix('r')?.parse::<u64>().ok()? / 8;
            small(bytes).then(|| json!(vec![0u8; bytes as usize]))
        }
    }
}

/// The zero value of a v3 data type in the registered fill form, if it is small (see
/// [`zero_leaf`]).
fn zero_value(data_type: &Json) -> Option<Json> {
    if data_type["name"] != "struct" {
        return zero_leaf(data_type);
    }
    let fields = data_type["configuration"]["fields"].as_array()?;
    let mut record = serde_json::Map::new();
    for field in fields {
        record.insert(
            field["name"].as_str()?.to_owned(),
            zero_value(&field["data_type"])?,
        );
    }
    Some(Json::Object(record))
}

/// The fills of a v3 array of `data_type` whose elements are `size` bytes: the zero value in
/// the registered form and (structs) the legacy base64 of its bytes, each where it takes no
/// more than a megabyte; an element beyond the limit gets `0`, as it is refused before its
/// fill is read.
fn v3_fills(data_type: &Json, size: u64, accepted: bool) -> Vec<(&'static str, Json)> {
    if !accepted {
        return vec![("0", json!(0))];
    }
    let mut fills: Vec<(&'static str, Json)> = zero_value(data_type)
        .map(|zero| ("zero", zero))
        .into_iter()
        .collect();
    if data_type["name"] == "struct" && size <= 1 << 20 {
        fills.push(("base64", json!(BASE64.encode(vec![0u8; size as usize]))));
    }
    fills
}

/// Every case: each kind at the sizes near each limit, each fill, empty and written.
fn cases() -> Vec<Case> {
    // Refused: one byte beyond the limit, the core's largest element, and far beyond it.
    let refused = [
        (
            DEFAULT_MAX_ELEMENT_SIZE as u64 + 8,
            DEFAULT_MAX_ELEMENT_SIZE,
        ),
        ((1 << 31) - 8, DEFAULT_MAX_ELEMENT_SIZE),
        (1 << 40, DEFAULT_MAX_ELEMENT_SIZE),
        (SMALL_LIMIT as u64 + 8, SMALL_LIMIT),
    ];
    // Accepted and read: at the lowered limit, written and not; at the default limit, empty.
    let accepted = [
        (SMALL_LIMIT as u64, SMALL_LIMIT, false),
        (SMALL_LIMIT as u64, SMALL_LIMIT, true),
        (
            DEFAULT_MAX_ELEMENT_SIZE as u64,
            DEFAULT_MAX_ELEMENT_SIZE,
            false,
        ),
    ];
    let sizes: Vec<(u64, usize, bool)> = refused
        .iter()
        .map(|&(size, limit)| (size, limit, false))
        .chain(accepted)
        .collect();
    let mut cases = Vec::new();
    for &(size, limit, written) in &sizes {
        let shape = if written { json!([2]) } else { json!([0]) };
        // At the default limit, one kind of each version shows that 16 MiB opens; every kind
        // is read at the lowered limit (a debug build writes 16 MiB of JSON slowly).
        let at_default = size == DEFAULT_MAX_ELEMENT_SIZE as u64;
        let default_kinds = ["structured |V", "struct null_terminated_bytes"];
        for (kind, dtype) in v2_kinds(size) {
            if at_default && !default_kinds.contains(&kind) {
                continue;
            }
            for (fill_name, fill) in v2_fills(size) {
                cases.push(Case {
                    name: format!(
                        "v2 {kind} {size} bytes, limit {limit}, fill {fill_name}, {}",
                        if written { "written" } else { "empty" }
                    ),
                    version: Version::V2,
                    document: json!({
                        "zarr_format": 2, "shape": shape, "chunks": [1], "dtype": dtype,
                        "fill_value": fill, "order": "C", "compressor": null, "filters": null
                    }),
                    size,
                    limit,
                    written,
                    record: dtype.is_array(),
                });
            }
        }
        for (kind, data_type) in v3_kinds(size) {
            if at_default && !default_kinds.contains(&kind) {
                continue;
            }
            for (fill_name, fill) in v3_fills(&data_type, size, size <= limit as u64) {
                cases.push(Case {
                    name: format!("v3 {kind} {size} bytes, limit {limit}, fill {fill_name}, {}", if written { "written" } else { "empty" }),
                    version: Version::V3,
                    document: json!({
                        "zarr_format": 3, "node_type": "array", "shape": shape,
                        "data_type": data_type,
                        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1]}},
                        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
                        "fill_value": fill,
                        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]
                    }),
                    size,
                    limit,
                    written,
                    record: data_type["name"] == "struct",
                });
            }
        }
    }
    cases
}

/// Writes `case` as an array in a fresh directory (its metadata, and chunk `0` of zero bytes
/// if it is written); the directory.
fn write_case(root: &Path, index: usize, case: &Case) -> PathBuf {
    let dir = root.join(format!("case-{index}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (document, chunk) = match case.version {
        Version::V2 => (".zarray", "0"),
        Version::V3 => ("zarr.json", "c/0"),
    };
    std::fs::write(dir.join(document), case.document.to_string()).unwrap();
    if case.written {
        let path = dir.join(chunk);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, vec![0u8; case.size as usize]).unwrap();
    }
    dir
}

/// Runs `entry` on `case`, within its memory budget, its time recorded on the benchmark's
/// [`clock`]; its result.
fn bounded<T>(case: &Case, entry: &str, run: impl FnOnce() -> T) -> T {
    let budget = if entry == "the core" {
        case.core_budget()
    } else {
        case.budget()
    };
    let start = Instant::now();
    let (result, usage) = meter::measure(run);
    let took = start.elapsed();
    assert!(
        usage.peak_bytes <= budget,
        "{}: {entry} held {} bytes at once, over {budget}",
        case.name,
        usage.peak_bytes,
    );
    // The core has no element limit of its own: the fill of an element it accepts (up to
    // 2^31 - 1 bytes) is that many bytes, which this suite's counting allocator zeroes by
    // hand (peak_alloc's alloc_zeroed writes every byte; the system allocator maps zero
    // pages instead), so its time follows the element there; it is timed up to the default
    // limit, as every other entry point is for every case.
    if entry != "the core" || case.size <= DEFAULT_MAX_ELEMENT_SIZE as u64 {
        clock::record(&format!("{} through {entry}", case.name), took);
    }
    result
}

/// What a refused case's errors must say: the size and the limit (or, beyond the core's
/// limit, that the size is out of range).
fn says_too_large(case: &Case, text: &str) {
    assert!(!text.contains('\n'), "{}: one line: {text}", case.name);
    if case.size < 1 << 31 {
        for part in [case.size.to_string(), case.limit.to_string()] {
            assert!(
                text.contains(&part),
                "{}: {text:?} does not say {part}",
                case.name
            );
        }
        assert!(
            text.contains("max-element-size") || text.contains("max_element_size"),
            "{}: {text:?} does not say how to raise the limit",
            case.name
        );
    } else {
        assert!(
            ["1..=", "exceeds", "out of range", "more than", "at most"]
                .iter()
                .any(|word| text.contains(word)),
            "{}: {text:?} does not say the size is out of range",
            case.name
        );
    }
}

/// The elements an array of `case` holds: two, the first written, or none.
fn expected_len(case: &Case) -> usize {
    if case.written { 2 } else { 0 }
}

fn run_case(root: &Path, index: usize, case: &Case) {
    let dir = write_case(root, index, case);
    let text = case.document.to_string();

    // The core's parsers: a value or an error, never an element-sized allocation.
    bounded(case, "the core", || match case.version {
        Version::V2 => ArrayMetadataV2::from_json_str(&text).map(drop),
        Version::V3 => ArrayMetadataV3::from_json_str(&text).map(drop),
    })
    .ok();

    // open_array, with the case's limit.
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    let options = OpenOptions::new().max_element_size(case.limit);
    let opened = bounded(case, "open_array", || options.open(store.clone(), "/"));
    let array: Option<Array<FilesystemStore>> = match (case.accepted(), opened) {
        (true, Ok(array)) => Some(array),
        // zarrs' own types: zarrs may refuse one (v2 `|S`), with its own typed error.
        (true, Err(error))
            if !case.record && !matches!(error, ArrayError::ElementTooLarge { .. }) =>
        {
            assert!(!error.to_string().contains('\n'), "{}: {error}", case.name);
            return;
        }
        (true, Err(error)) => panic!("{}: refused: {error}", case.name),
        (false, Ok(_)) => panic!("{}: opened beyond the limit", case.name),
        (false, Err(error)) => {
            if case.size < 1 << 31 {
                assert!(
                    matches!(error, ArrayError::ElementTooLarge { .. }),
                    "{}: {error:?}",
                    case.name
                );
            }
            says_too_large(case, &error.to_string());
            None
        }
    };

    // The reads: every value (a missing chunk is the fill value), and records or a field of
    // a type that is not the array's, which must be refused before anything is read.
    if let Some(array) = &array {
        let all = ArraySubset::new_with_shape(array.shape().to_vec());
        let values = bounded(case, "retrieve_values", || array.retrieve_values(&all));
        match values {
            Ok(values) => assert_eq!(values.len(), expected_len(case), "{}", case.name),
            Err(error) => panic!("{}: retrieve_values: {error}", case.name),
        }
        let records = bounded(case, "retrieve_records", || {
            array.retrieve_records::<u64>(&all)
        });
        assert!(records.is_err(), "{}: records of the wrong type", case.name);
        let field = bounded(case, "retrieve_field", || {
            array.retrieve_field::<u64>(&all, &["a"])
        });
        assert!(field.is_err(), "{}: a field of the wrong type", case.name);
    }

    // The command, in-process, with the case's limit.
    let location = dir.to_str().unwrap().to_owned();
    let commands = [
        (
            "zarrdt inspect",
            Command::Inspect {
                path: location.clone(),
                json: true,
            },
        ),
        (
            "zarrdt dump",
            Command::Dump {
                path: location.clone(),
                select: None,
                limit: None,
                fields: Vec::new(),
                format: Format::Json,
            },
        ),
        (
            "zarrdt rust",
            Command::Rust {
                path: location.clone(),
                name: "Record".into(),
            },
        ),
    ];
    for (entry, command) in commands {
        let cli = Cli {
            max_element_size: case.limit,
            ..Cli::new(command)
        };
        let result = bounded(case, entry, || zarrdt_cli::run(cli, &mut std::io::sink()));
        match (case.accepted(), result) {
            (false, Ok(())) => panic!("{}: {entry} read an array beyond the limit", case.name),
            (false, Err(failure)) => says_too_large(case, failure.message()),
            // zarrdt rust refuses records no Rust struct can hold (text of odd sizes, elements
            // too large for a Rust array type), with a one-line error.
            (true, Err(failure)) if entry == "zarrdt rust" => {
                assert!(
                    !failure.message().contains('\n'),
                    "{}: {}",
                    case.name,
                    failure.message()
                );
            }
            (true, Err(failure)) => panic!("{}: {entry}: {}", case.name, failure.message()),
            (true, Ok(())) => {}
        }
    }
}

/// Runs every case, reporting every failure by name.
pub(crate) fn run_cases() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("untrusted-arrays");
    let cases = cases();
    let mut failures = Vec::new();
    for (index, case) in cases.iter().enumerate() {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_case(&root, index, case)
        }));
        if let Err(panic) = outcome {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            // A failure's message may quote a fill value of megabytes: its start says enough.
            failures.push(message.chars().take(400).collect::<String>());
        }
        let _ = std::fs::remove_dir_all(root.join(format!("case-{index}")));
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

rusty_fork_test! {
    /// Every case through every entry point, within its memory budget.
    #[test]
    fn every_entry_point_is_bounded_by_the_input() {
        run_cases();
    }
}

/// A v3 `zarr.json` of a one-field struct array, `changes` applied.
fn v3_document(changes: Json) -> Json {
    let mut document = json!({
        "zarr_format": 3, "node_type": "array", "shape": [4],
        "data_type": {"name": "struct", "configuration": {"fields": [
            {"name": "a", "data_type": "uint32"}]}},
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": {"a": 0},
        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]
    });
    for (key, value) in changes.as_object().unwrap() {
        document[key] = value.clone();
    }
    document
}

/// A v3 `zarr.json` of records of a `uint8` field `a` (fill 3) and 64 KiB of text `s`,
/// `changes` applied: records far wider than the field a read may keep.
fn wide_records_document(changes: Json) -> Json {
    let mut wide = json!({
        "data_type": {"name": "struct", "configuration": {"fields": [
            {"name": "a", "data_type": "uint8"},
            {"name": "s", "data_type": {"name": "fixed_length_utf32",
                "configuration": {"length_bytes": 65536}}}]}},
        "fill_value": {"a": 3, "s": ""}});
    let wide_fields = wide.as_object_mut().unwrap();
    wide_fields.extend(changes.as_object().unwrap().clone());
    v3_document(wide)
}

/// A v2 `.zarray` of a one-field structured array, `changes` applied.
fn v2_document(changes: Json) -> Json {
    let mut document = json!({
        "zarr_format": 2, "shape": [4], "chunks": [2], "dtype": [["a", "<u4"]],
        "fill_value": null, "order": "C", "compressor": null, "filters": null
    });
    for (key, value) in changes.as_object().unwrap() {
        document[key] = value.clone();
    }
    document
}

/// The directory of an array named `name`: `document` and the `chunks` given, written anew.
fn write_array(name: &str, document: &Json, chunks: &[(&str, &[u8])]) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("metadata-hazards")
        .join(name.replace(' ', "-"));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let file = if document["zarr_format"] == 2 {
        ".zarray"
    } else {
        "zarr.json"
    };
    std::fs::write(root.join(file), document.to_string()).unwrap();
    for (key, bytes) in chunks {
        let path = root.join(key);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    root
}

/// The array written by [`write_array`], opened through `open_array`.
fn open_written(name: &str, document: &Json, chunks: &[(&str, &[u8])]) -> Array<FilesystemStore> {
    let store = Arc::new(FilesystemStore::new(write_array(name, document, chunks)).unwrap());
    zarrdt::array::open_array(store, "/").unwrap()
}

/// Opens `document` (with the `chunks` given written) through `open_array`, and reads it
/// whole; the error, which must be one line, or `None` if it opened and read.
fn open_and_read(name: &str, document: &Json, chunks: &[(&str, &[u8])]) -> Option<String> {
    let root = write_array(name, document, chunks);
    let (result, usage) = meter::measure(|| {
        let store = Arc::new(FilesystemStore::new(&root).unwrap());
        let array = zarrdt::array::open_array(store, "/").map_err(|e| e.to_string())?;
        let all = ArraySubset::new_with_shape(array.shape().to_vec());
        array.retrieve_values(&all).map_err(|e| e.to_string())?;
        Ok::<(), String>(())
    });
    assert!(
        usage.peak_bytes <= BASE_BYTES,
        "{name}: {} bytes at once",
        usage.peak_bytes
    );
    let error = result.err()?;
    assert!(!error.contains('\n'), "{name}: one line: {error}");
    Some(error)
}

rusty_fork_test! {
    /// Metadata zarrs 0.23.14 would expand, overflow on, or follow outside the store (each
    /// found by reading its code): a typed error naming the member, within 64 MB, never a
    /// panic or an abort; and what zarr-python writes that zarrs alone trips on opens.
    #[test]
    fn metadata_zarrs_would_trust_is_refused_by_member() {
        let refused: Vec<(&str, Json, &str)> = vec![
            (
                "a rectilinear grid of 10^12 chunks",
                v3_document(json!({"chunk_grid": {"name": "rectilinear", "configuration": {
                    "kind": "inline", "chunk_shapes": [[[1, 1_000_000_000_000u64]]]}}})),
                "chunk_grid",
            ),
            (
                "a chunk key suffix out of the store",
                v3_document(json!({"chunk_key_encoding": {"name": "zarrs.default_suffix",
                    "configuration": {"suffix": "/../../../outside.bin"}}})),
                "chunk_key_encoding",
            ),
            (
                "a chunk key separator that is a path",
                v3_document(json!({"chunk_key_encoding": {"name": "default",
                    "configuration": {"separator": "/../"}}})),
                "separator",
            ),
            (
                "chunks of 2^64 elements",
                v3_document(json!({"shape": [1, 1],
                    "chunk_grid": {"name": "regular", "configuration": {
                        "chunk_shape": [4294967296u64, 4294967296u64]}}})),
                "chunk_grid",
            ),
            (
                "an extent near 2^64",
                v3_document(json!({"shape": [u64::MAX - 1]})),
                "chunk_grid",
            ),
            (
                "2^70 elements",
                v3_document(json!({"shape": [1u64 << 35, 1u64 << 35],
                    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1, 1]}}})),
                "shape",
            ),
            (
                "a shard index of 2^64 bytes",
                v3_document(json!({"shape": [1, 1],
                    "chunk_grid": {"name": "regular", "configuration": {
                        "chunk_shape": [1u64 << 30, 1u64 << 30]}},
                    "codecs": [{"name": "sharding_indexed", "configuration": {
                        "chunk_shape": [1, 1],
                        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
                        "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
                        "index_location": "end"}}]})),
                "codecs[0]",
            ),
            (
                // zarrs bounds a shard's size by its inner chunks (2^30) times the shard's
                // bytes (2^30 elements): past 2^64, a panic in its arithmetic reading no chunk.
                "shards zarrs cannot bound the size of",
                v3_document(json!({"shape": [10],
                    "chunk_grid": {"name": "regular", "configuration": {
                        "chunk_shape": [1u64 << 30]}},
                    "codecs": [{"name": "sharding_indexed", "configuration": {
                        "chunk_shape": [1],
                        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
                        "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
                        "index_location": "end"}}]})),
                "codecs[0]",
            ),
            (
                "nested shards zarrs cannot bound the size of",
                v3_document(json!({"shape": [10],
                    "chunk_grid": {"name": "regular", "configuration": {
                        "chunk_shape": [1u64 << 36]}},
                    "codecs": [{"name": "sharding_indexed", "configuration": {
                        "chunk_shape": [1u64 << 20],
                        "codecs": [{"name": "sharding_indexed", "configuration": {
                            "chunk_shape": [1u64 << 4],
                            "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
                            "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
                            "index_location": "end"}}],
                        "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
                        "index_location": "end"}}]})),
                "codecs[0].configuration.codecs[0]",
            ),
            (
                "a transpose that is no permutation",
                v3_document(json!({"codecs": [
                    {"name": "transpose", "configuration": {"order": [0, 0]}},
                    {"name": "bytes", "configuration": {"endian": "little"}}]})),
                "codecs[0]",
            ),
            (
                "storage transformers",
                v3_document(json!({"storage_transformers": [{"name": "anything"}]})),
                "storage_transformers",
            ),
            (
                "a shuffle of zero-byte elements",
                v2_document(json!({"filters": [{"id": "shuffle", "elementsize": 0}]})),
                "filters[0]",
            ),
            (
                "a chunk of no extent",
                v2_document(json!({"chunks": [0]})),
                "chunks",
            ),
            (
                "chunks of another rank",
                v2_document(json!({"chunks": [2, 2]})),
                "chunks",
            ),
        ];
        let mut failures = Vec::new();
        for (name, document, member) in &refused {
            match open_and_read(name, document, &[]) {
                None => failures.push(format!("{name}: opened and read")),
                Some(error) if !error.contains(member) => {
                    failures.push(format!("{name}: {error:?} does not name {member}"));
                }
                Some(_) => {}
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));

        // An order of a million axes is shown by its first few, and a long fill value cut:
        // errors of a line, not of megabytes.
        let axes: Vec<u64> = (0..1_000_000).collect();
        let long_order = v3_document(json!({"codecs": [
            {"name": "transpose", "configuration": {"order": axes}},
            {"name": "bytes", "configuration": {"endian": "little"}}]}));
        // (Its million-item JSON is itself a tree of 160 MB: not through `open_and_read`'s
        // memory bound.)
        let root = write_array("a long order", &long_order, &[]);
        let store = Arc::new(FilesystemStore::new(&root).unwrap());
        let error = zarrdt::array::open_array(store, "/").unwrap_err().to_string();
        assert!(error.len() < 2000, "{}", error.len());
        assert!(error.contains("(1000000 axes)"), "{error}");
        let long_fill = v3_document(json!({"fill_value": "x".repeat(10_000_000)}));
        let error = open_and_read("a long fill value", &long_fill, &[]).unwrap();
        assert!(error.len() < 2000, "{}", error.len());
        assert!(error.contains("(10000000 bytes)"), "{error}");

        // A zero-dimensional v2 array in F order (zarr-python writes it) opens: zarrs alone
        // would make a transpose of no dimensions, undefined behaviour.
        let scalar = v2_document(json!({"shape": [], "chunks": [], "order": "F"}));
        assert_eq!(open_and_read("zero dimensions in F order", &scalar, &[]), None);
    }

    /// A shard file of one byte whose index would be 2^33 bytes: zarrs 0.23.14 allocates the
    /// index before reading it (an abort where the memory is not there); the shard check reads
    /// no more than the file holds. (Opened here with the index limit raised to it: by default
    /// an index of more than 256 MiB is refused when the array is opened.)
    #[test]
    fn a_short_shard_costs_no_index_sized_allocation() {
        let document = v3_document(json!({"shape": [1u64 << 29],
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1u64 << 29]}},
            "codecs": [{"name": "sharding_indexed", "configuration": {
                "chunk_shape": [1],
                "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
                "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
                "index_location": "end"}}]}));
        let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("metadata-hazards/short-shard");
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("c")).unwrap();
        std::fs::write(root.join("zarr.json"), document.to_string()).unwrap();
        std::fs::write(root.join("c/0"), [7u8]).unwrap();
        let (result, usage) = meter::measure(|| {
            let store = Arc::new(FilesystemStore::new(&root).unwrap());
            let array = OpenOptions::new()
                .max_shard_index_size(1 << 33)
                .open(store, "/")
                .map_err(|e| e.to_string())?;
            array.retrieve_values(&[0..1]).map_err(|e| e.to_string())
        });
        assert!(usage.peak_bytes <= BASE_BYTES, "{} bytes at once", usage.peak_bytes);
        let error = result.unwrap_err();
        // Worded as where the shard is read whole (`is N bytes`).
        assert!(error.contains("shard c/0: is 1 bytes, too short"), "{error}");
    }

    /// A subset beyond the array: zarrs 0.23.14 reads it (the stored chunk beyond an empty
    /// array's end); every read of zarrdt refuses it, naming the subset and the shape.
    #[test]
    fn subsets_beyond_the_array_are_errors() {
        let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("metadata-hazards/beyond");
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("c")).unwrap();
        std::fs::write(root.join("zarr.json"), v3_document(json!({"shape": [0]})).to_string())
            .unwrap();
        std::fs::write(root.join("c/0"), [1u8; 8]).unwrap();
        let store = Arc::new(FilesystemStore::new(&root).unwrap());
        let array = zarrdt::array::open_array(store, "/").unwrap();
        let beyond = ArraySubset::new_with_ranges(&[0..2]);
        for error in [
            array.retrieve_values(&beyond).map(drop).unwrap_err(),
            array.retrieve_field::<u32>(&beyond, &["a"]).map(drop).unwrap_err(),
        ] {
            let text = error.to_string();
            assert!(text.contains("[0..2]") || text.contains("0..2"), "{text}");
        }
    }
}

rusty_fork_test! {
    /// A zstd chunk of a few bytes whose frame declares a terabyte: zarrs 0.23.14 allocates
    /// the declared size (an abort); zarrdt's zstd decodes into the chunk's size, so the read
    /// is an error naming the chunk, within 64 MB.
    #[test]
    fn a_zstd_frame_declaring_a_terabyte_is_an_error() {
        let document = v3_document(json!({"codecs": [
            {"name": "bytes", "configuration": {"endian": "little"}},
            {"name": "zstd", "configuration": {"level": 1, "checksum": false}}]}));
        // Magic, a descriptor of a single segment with an 8-byte content size, 2^40, and one
        // empty raw block.
        let mut frame = vec![0x28, 0xb5, 0x2f, 0xfd, 0xe0];
        frame.extend_from_slice(&(1u64 << 40).to_le_bytes());
        frame.extend_from_slice(&[1, 0, 0]);
        let error = open_and_read("zstd bomb", &document, &[("c/0", &frame)]).unwrap();
        assert!(error.contains("c/0") && error.contains("zstd"), "{error}");
    }
}

rusty_fork_test! {
    /// A blosc chunk whose header declares 800 MB, and a gzip chunk of 64 KB that inflates to
    /// 64 MiB, both for chunks of 8 bytes, in v3 and in v2 metadata (blosc is zarr-python 2's
    /// default compressor): zarrs 0.23.14 allocates what the header declares (blosc) or reads
    /// the stream to its end (gzip); zarrdt checks the header against the chunk's size, and
    /// inflates no further than it, so each read is an error naming the chunk and the sizes,
    /// within 64 MB (the previous code: 800 MB and 64 MiB at once).
    #[test]
    fn blosc_and_gzip_chunks_larger_than_declared_are_errors_in_bounded_memory() {
        use std::borrow::Cow;
        use zarrdt::zarrs::array::codec::api::{BytesToBytesCodecTraits, CodecOptions};
        use zarrdt::zarrs::array::codec::{
            BloscCodec, BloscCompressionLevel, BloscCompressor, BloscShuffleMode, GzipCodec,
        };

        let options = CodecOptions::default();
        let blosc = BloscCodec::new(
            BloscCompressor::LZ4,
            BloscCompressionLevel::try_from(5).unwrap(),
            None,
            BloscShuffleMode::Shuffle,
            Some(4),
        )
        .unwrap();
        let mut lying = blosc
            .encode(Cow::Borrowed(&[1u8; 8][..]), &options)
            .unwrap()
            .into_owned();
        lying[4..8].copy_from_slice(&800_000_000u32.to_le_bytes());
        let bomb = GzipCodec::new(9)
            .unwrap()
            .encode(Cow::Owned(vec![0u8; 64 << 20]), &options)
            .unwrap()
            .into_owned();
        assert!(bomb.len() < 128 << 10, "{}", bomb.len());

        let blosc_v3 = json!({"name": "blosc", "configuration": {"cname": "lz4", "clevel": 5,
            "shuffle": "shuffle", "typesize": 4, "blocksize": 0}});
        let blosc_v2 = json!({"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1,
            "blocksize": 0});
        let gzip_v3 = json!({"name": "gzip", "configuration": {"level": 9}});
        let gzip_v2 = json!({"id": "gzip", "level": 9});
        let bytes = json!({"name": "bytes", "configuration": {"endian": "little"}});
        for (name, document, key, chunk, says) in [
            (
                "blosc v3",
                v3_document(json!({"codecs": [bytes, blosc_v3]})),
                "c/0",
                &lying,
                "blosc: the stream decodes to 800000000 bytes, expected the 8 bytes",
            ),
            (
                "blosc v2",
                v2_document(json!({"compressor": blosc_v2})),
                "0",
                &lying,
                "blosc: the stream decodes to 800000000 bytes, expected the 8 bytes",
            ),
            (
                "gzip v3",
                v3_document(json!({"codecs": [bytes, gzip_v3]})),
                "c/0",
                &bomb,
                "gzip: the stream decodes to more than 8 bytes",
            ),
            (
                "gzip v2",
                v2_document(json!({"compressor": gzip_v2})),
                "0",
                &bomb,
                "gzip: the stream decodes to more than 8 bytes",
            ),
        ] {
            let (error, usage) =
                meter::measure(|| open_and_read(name, &document, &[(key, chunk.as_slice())]));
            let error = error.unwrap_or_else(|| panic!("{name}: read"));
            assert!(error.contains(key) && error.contains(says), "{name}: {error}");
            assert!(
                usage.peak_bytes <= BASE_BYTES,
                "{name}: {} bytes at once",
                usage.peak_bytes
            );
        }

        // The same through the array `ArrayOptions::create` returns (its codecs made by
        // zarrdt, not read from metadata), both compressors.
        for (name, compression) in [
            ("created blosc", zarrdt::Compression::BloscLz4 { level: 5 }),
            ("created gzip", zarrdt::Compression::Gzip { level: 9 }),
        ] {
            let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
                .join("metadata-hazards")
                .join(name.replace(' ', "-"));
            let _ = std::fs::remove_dir_all(&root);
            let store = Arc::new(FilesystemStore::new(&root).unwrap());
            let array = zarrdt::ArrayOptions::new(vec![4], vec![2])
                .compression(compression)
                .create(store, "/", &0u32)
                .unwrap();
            zarrdt::WriteRecords::store_records(&array, &[0..4], &[1u32, 2, 3, 4]).unwrap();
            let chunk = if name.contains("blosc") { &lying } else { &bomb };
            std::fs::write(root.join("c/0"), chunk).unwrap();
            let (result, usage) = meter::measure(|| array.retrieve_records::<u32>(&[0..4]));
            let error = result.unwrap_err().to_string();
            assert!(error.contains("c/0") && error.contains("bytes"), "{name}: {error}");
            assert!(
                usage.peak_bytes <= BASE_BYTES,
                "{name}: {} bytes at once",
                usage.peak_bytes
            );
        }
    }
}

rusty_fork_test! {
    /// An array of two elements in one chunk of 2²⁸ (1 GiB of `uint32`s; found by the
    /// `open_array` fuzz target): its read asks for the two, so the chunk is not read whole
    /// (which filled a missing chunk's 1 GiB, or made room for a stored chunk's 1 GiB); and a
    /// zstd chunk of 17 bytes whose frame does not say its size cannot decode to 1 GiB (a zstd
    /// block decodes to at most 128 KiB and takes 4 bytes at least), so it is refused before
    /// anything is allocated. Both within 64 MB (the previous code: 1 GiB at once).
    #[test]
    fn a_chunk_far_larger_than_the_array_costs_no_chunk_sized_allocation() {
        let huge = |codecs: Json| {
            v3_document(json!({"shape": [2],
                "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1u64 << 28]}},
                "codecs": codecs}))
        };
        let bytes = json!({"name": "bytes", "configuration": {"endian": "little"}});
        let zstd = json!({"name": "zstd", "configuration": {"level": 1, "checksum": false}});
        // Magic; a descriptor with no content size, a 1 KiB window; one last raw block of 8.
        let mut frame = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x41, 0x00, 0x00];
        frame.extend_from_slice(&[1, 0, 0, 0, 2, 0, 0, 0]);
        let missing = huge(json!([bytes.clone()]));
        let (read, usage) = meter::measure(|| open_and_read("huge chunk missing", &missing, &[]));
        assert_eq!(read, None, "two fill values read");
        assert!(usage.peak_bytes <= BASE_BYTES, "{} bytes at once", usage.peak_bytes);
        let compressed = huge(json!([bytes, zstd]));
        let (error, usage) = meter::measure(|| {
            open_and_read("huge chunk zstd", &compressed, &[("c/0", frame.as_slice())])
        });
        let error = error.expect("an error");
        assert!(
            error.contains("c/0") && error.contains("not the chunk's 1073741824"),
            "{error}"
        );
        assert!(usage.peak_bytes <= BASE_BYTES, "{} bytes at once", usage.peak_bytes);
    }
}

rusty_fork_test! {
    /// A missing chunk of 269 MB (4100 records of 64 KiB: a few hundred bytes of metadata) is
    /// read in pieces of the block budget, each piece filled alone, by `zarrdt dump` and
    /// `zarrdt export` and the `BlockReader` and Arrow batches under them: within 64 MB, where
    /// the whole chunk's fill value was made at once before (for 100 000 records of 400 kB,
    /// 40 GB: an abort). Arrow batches hold 16 MiB of records at most, whatever the rows asked.
    #[test]
    fn a_chunk_larger_than_a_block_is_read_in_pieces() {
        use clap::Parser as _;
        let document = v3_document(json!({"shape": [4100],
            "data_type": {"name": "struct", "configuration": {"fields": [{"name": "a",
                "data_type": {"name": "fixed_length_utf32",
                    "configuration": {"length_bytes": 65536}}}]}},
            "fill_value": {"a": ""},
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4100]}}}));
        let root = write_array("chunk in pieces", &document, &[]);
        let array = root.to_str().unwrap().to_owned();
        let table = root.with_extension("arrow").to_str().unwrap().to_owned();
        for arguments in [
            vec!["zarrdt", "dump", &array, "--format", "csv"],
            vec!["zarrdt", "export", &array, &table],
        ] {
            let cli = Cli::try_parse_from(&arguments).unwrap();
            let mut out = Vec::new();
            let (result, usage) = meter::measure(|| zarrdt_cli::run(cli, &mut out));
            if let Err(failure) = result {
                panic!("{arguments:?}: {}", failure.message());
            }
            assert!(
                usage.peak_bytes <= BASE_BYTES,
                "{arguments:?}: {} bytes at once",
                usage.peak_bytes
            );
            if arguments[1] == "dump" {
                let text = String::from_utf8(out).unwrap();
                assert_eq!(text.lines().count(), 4101, "a header and 4100 rows");
            }
        }
        let store = Arc::new(FilesystemStore::new(&root).unwrap());
        let array = zarrdt::array::open_array(store, "/").unwrap();
        let (rows, usage) = meter::measure(|| {
            let options = zarrdt::arrow::ReadOptions::default().batch_rows(5000);
            let batches = zarrdt::arrow::BatchReader::new(&array, &options).unwrap();
            batches.take(2).map(|batch| batch.unwrap().num_rows()).collect::<Vec<_>>()
        });
        assert_eq!(rows, [256, 256]);
        assert!(usage.peak_bytes <= BASE_BYTES, "{} bytes at once", usage.peak_bytes);
    }
}

rusty_fork_test! {
    /// The parts of one compressed chunk read one after another (as the pieces of a chunk too
    /// large to read whole are) decode it once: 64 parts of a 1 MiB zstd chunk allocate a few
    /// MB in all, not 64 decodes of the chunk; the same for an inner chunk of a shard (139 MB
    /// allocated through zarrs' sharded read, which decodes it once a part). The decoded chunk
    /// is held once, beside the output.
    #[test]
    fn the_parts_of_a_compressed_chunk_decode_it_once() {
        use zarrdt::WriteRecords as _;
        use zarrdt::array::{ArrayOptions, BlockReader, Compression};
        let values: Vec<u8> = (0..1u32 << 20).map(|i| (i % 251) as u8).collect();
        for (name, options) in [
            ("chunk", ArrayOptions::new(vec![1 << 20], vec![1 << 20])),
            (
                "inner chunk",
                ArrayOptions::new(vec![1 << 20], vec![1 << 20]).shards(vec![1 << 20]),
            ),
        ] {
            let store = Arc::new(zarrdt::zarrs::storage::store::MemoryStore::new());
            let array = options
                .compression(Compression::Zstd { level: 1 })
                .create(store, "/", &0u8)
                .unwrap();
            array.store_records(&[0..1 << 20], &values).unwrap();
            let mut reader = BlockReader::new(&array).unwrap();
            let (read, usage) = meter::measure(|| {
                let mut read = Vec::with_capacity(1 << 20);
                for start in (0..1u64 << 20).step_by(1 << 14) {
                    read.extend(reader.read(&[start..start + (1 << 14)]).unwrap());
                }
                read
            });
            assert_eq!(read, values, "{name}");
            assert!(usage.allocated_bytes < 8 << 20, "{name}: {usage:?}");
            // The output and the chunk decoded once, held once (the chunk was copied whole
            // out of its decode: 3.1 MB).
            assert!(usage.peak_bytes < 5 << 19, "{name}: {usage:?}");
        }
    }
}

rusty_fork_test! {
    /// One field of records in a missing chunk of 269 MB (4100 records of 65 kB, a few hundred
    /// bytes of metadata): the fill value is handed over a piece at a time, never made whole,
    /// so the read holds its 4100 bytes and a piece (268 MB at once before; 40 GB, an abort,
    /// for 100 000 records of 400 kB). The records themselves are read from pieces too. With
    /// the `bytes` codec alone, and behind a `transpose` (whose chunks zarrs decodes).
    #[test]
    fn one_field_of_a_huge_missing_chunk_takes_the_fields_memory() {
        let bytes = json!({"name": "bytes", "configuration": {"endian": "little"}});
        let transpose = json!({"name": "transpose", "configuration": {"order": [0]}});
        for (name, codecs) in [
            ("bytes", json!([bytes.clone()])),
            ("transpose", json!([transpose, bytes])),
        ] {
            let document = wide_records_document(json!({"shape": [4100],
                "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4100]}},
                "codecs": codecs}));
            let array = open_written(&format!("field of a missing chunk {name}"), &document, &[]);
            let (field, usage) =
                meter::measure(|| array.retrieve_field::<u8>(&[0..4100], &["a"]).unwrap());
            assert_eq!(field, vec![3; 4100], "{name}");
            assert!(usage.peak_bytes <= 8 << 20, "{name}: {usage:?}");
            let values = array.retrieve_values(&[4090..4100]).unwrap();
            assert_eq!(values.len(), 10, "{name}");
        }
    }
}

rusty_fork_test! {
    /// A zlib stream of 19 bytes (8 zero bytes, stored) as the chunk of an array whose chunk
    /// is 2²⁸ `uint32`s (1 GiB): its decoder is not given the 1 GiB before the stream makes it
    /// (a stream makes at most 1032 bytes a byte), so the read is the error saying what it
    /// made, within 64 MB (1 GiB at once before, zeroed).
    #[test]
    fn a_short_stream_for_a_huge_chunk_is_not_given_the_chunk() {
        let document = v3_document(json!({"shape": [2],
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1u64 << 28]}},
            "codecs": [{"name": "bytes", "configuration": {"endian": "little"}},
                {"name": "numcodecs.zlib", "configuration": {"level": 1}}]}));
        // zlib: its header, one stored block of eight zero bytes, their Adler-32.
        let mut stream = vec![0x78, 0x01, 0x01, 0x08, 0x00, 0xf7, 0xff];
        stream.extend_from_slice(&[0; 8]);
        stream.extend_from_slice(&[0x00, 0x08, 0x00, 0x01]);
        // `open_and_read` holds the open and the read within 64 MB.
        let error = open_and_read("short zlib stream", &document, &[("c/0", &stream)])
            .expect("an error");
        assert!(
            error.contains("c/0") && error.contains("decodes to 8 bytes"),
            "{error}"
        );
    }
}

rusty_fork_test! {
    /// The same through shards read whole: one field of a shard of two missing inner chunks of
    /// 269 MB each (its object the index alone, 36 bytes) is handed over from 4 MiB of fill
    /// values, not from an inner chunk of them (269 MB at once before).
    #[test]
    fn one_field_of_missing_inner_chunks_takes_the_fields_memory() {
        let bytes = json!({"name": "bytes", "configuration": {"endian": "little"}});
        let document = wide_records_document(json!({"shape": [8200],
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [8200]}},
            "codecs": [{"name": "sharding_indexed", "configuration": {
                "chunk_shape": [4100], "codecs": [bytes.clone()],
                "index_codecs": [bytes, {"name": "crc32c"}], "index_location": "end"}}]}));
        let mut shard: Vec<u8> = std::iter::repeat_n(u64::MAX.to_le_bytes(), 4)
            .flatten()
            .collect();
        let checksum = crate::bounded_inputs::crc32c(&shard);
        shard.extend_from_slice(&checksum.to_le_bytes());
        let array = open_written(
            "field of missing inner chunks",
            &document,
            &[("c/0", shard.as_slice())],
        );
        let (field, usage) =
            meter::measure(|| array.retrieve_field::<u8>(&[0..8200], &["a"]).unwrap());
        assert_eq!(field, vec![3; 8200]);
        assert!(usage.peak_bytes <= 8 << 20, "{usage:?}");
    }
}

rusty_fork_test! {
    /// A write of two records into part of a chunk that the metadata makes 1 PiB (a 300-byte
    /// `zarr.json`), or into part of a shard of that size, is an error naming the chunk and its
    /// size: updating part of a chunk holds the whole chunk, which zarrs allocated without
    /// asking (an abort before). Nothing is stored. A shard whose index alone is 256 TiB is
    /// refused when the array is opened.
    #[test]
    fn a_write_into_part_of_a_huge_chunk_is_an_error() {
        let bytes = json!({"name": "bytes", "configuration": {"endian": "little"}});
        let sharded = |shard: u64, inner: u64| {
            json!({"chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [shard]}},
                "codecs": [{"name": "sharding_indexed", "configuration": {
                    "chunk_shape": [inner], "codecs": [bytes.clone()],
                    "index_codecs": [bytes.clone(), {"name": "crc32c"}],
                    "index_location": "end"}}]})
        };
        let unsharded = json!({
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1u64 << 48]}},
            "codecs": [bytes.clone()]});
        for (name, changes, size) in [
            ("chunk", unsharded, "1125899906842624 bytes"),
            ("shard", sharded(1 << 48, 1 << 48), "1125899906842624 bytes"),
        ] {
            let mut changes = changes;
            changes["shape"] = json!([2]);
            changes["data_type"] = json!("uint32");
            changes["fill_value"] = json!(0);
            let root = write_array(&format!("write into a huge {name}"), &v3_document(changes), &[]);
            let store = Arc::new(FilesystemStore::new(&root).unwrap());
            let array = zarrdt::array::open_array(store, "/").unwrap();
            let (result, usage) = meter::measure(|| array.store_records(&[0..2], &[1u32, 2]));
            let error = result.expect_err(name).to_string();
            assert!(
                error.contains("c/0") && error.contains(size) && error.contains("cannot be allocated"),
                "{name}: {error}"
            );
            assert!(usage.peak_bytes <= 1 << 20, "{name}: {usage:?}");
            assert!(!root.join("c").exists(), "{name}: nothing stored");
        }
        let mut changes = sharded(1 << 44, 1);
        changes["shape"] = json!([2]);
        changes["data_type"] = json!("uint32");
        changes["fill_value"] = json!(0);
        let root = write_array("write into a huge shard index", &v3_document(changes), &[]);
        let store = Arc::new(FilesystemStore::new(&root).unwrap());
        let error = zarrdt::array::open_array(store, "/").unwrap_err().to_string();
        assert!(error.contains("codecs[0]") && error.contains("2^61"), "{error}");
    }
}

rusty_fork_test! {
    /// A shard's index is 16 bytes per inner chunk, a number the metadata sets: a 450-byte
    /// `zarr.json` of shards of 2^29 inner chunks made a write of one record store an 8 GiB
    /// index, and a read of two records of it was killed at 24 GB. An index beyond the limit
    /// (256 MiB by default) is refused when the array is opened, at any level of sharding,
    /// naming the codec, its inner chunks and the size; a raised limit opens it, and an array
    /// whose index is within the limit (16 MiB) is written and read in at most four times its
    /// index's memory.
    #[test]
    fn a_shard_index_beyond_the_limit_is_refused_when_opened() {
        let bytes = json!({"name": "bytes", "configuration": {"endian": "little"}});
        let sharding = |inner: u64, codecs: Json| {
            json!({"name": "sharding_indexed", "configuration": {
                "chunk_shape": [inner], "codecs": codecs,
                "index_codecs": [bytes.clone(), {"name": "crc32c"}], "index_location": "end"}})
        };
        let document = |shard: u64, codecs: Json| {
            v3_document(json!({"shape": [10], "data_type": "uint32", "fill_value": 0,
                "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [shard]}},
                "codecs": codecs}))
        };
        let flat = document(1 << 29, json!([sharding(1, json!([bytes.clone()]))]));
        // A shard of one inner shard of 2^25 inner chunks: the outer index is 16 bytes, the
        // inner one 512 MiB.
        let nested = document(
            1 << 25,
            json!([sharding(1 << 25, json!([sharding(1, json!([bytes.clone()]))]))]),
        );
        for (name, document, member, count, size) in [
            ("index of 8 GiB", &flat, "codecs[0]", "536870912 inner chunks", 1u64 << 33),
            (
                "inner index of 512 MiB",
                &nested,
                "codecs[0].configuration.codecs[0]",
                "33554432 inner chunks",
                1 << 29,
            ),
        ] {
            let root = write_array(name, document, &[]);
            let open = || Arc::new(FilesystemStore::new(&root).unwrap());
            let (result, usage) = meter::measure(|| zarrdt::array::open_array(open(), "/"));
            assert!(usage.peak_bytes <= 1 << 20, "{name}: {usage:?}");
            let error = result.expect_err(name);
            assert!(
                matches!(&error, ArrayError::ShardIndexTooLarge { member: m, size: s, limit, .. }
                    if m == member && *s == size && *limit == 256 << 20),
                "{name}: {error:?}"
            );
            let text = error.to_string();
            for part in [member, count, &size.to_string(), "max_shard_index_size"] {
                assert!(text.contains(part), "{name}: {part} in {text}");
            }
            // Raised, it opens (nothing is written: the index alone would be its size).
            OpenOptions::new()
                .max_shard_index_size(size)
                .open(open(), "/")
                .unwrap_or_else(|error| panic!("{name}: {error}"));
            let below = OpenOptions::new().max_shard_index_size(size - 1).open(open(), "/");
            assert!(below.is_err(), "{name}");
        }

        // Shards of 2^20 inner chunks, a 16 MiB index: opened with the default limit, one
        // written and read; lowered to 1 MiB, the limit refuses it.
        let root = write_array(
            "index of 16 MiB",
            &document(1 << 20, json!([sharding(1, json!([bytes.clone()]))])),
            &[],
        );
        let store = Arc::new(FilesystemStore::new(&root).unwrap());
        let lowered = OpenOptions::new().max_shard_index_size(1 << 20).open(store.clone(), "/");
        assert!(matches!(lowered, Err(ArrayError::ShardIndexTooLarge { size, .. }) if size == 16 << 20));
        let array = zarrdt::array::open_array(store, "/").unwrap();
        let (written, usage) = meter::measure(|| array.store_records(&[2..4], &[5u32, 6]));
        written.unwrap();
        assert!(usage.peak_bytes <= 4 * (16 << 20), "write: {usage:?}");
        let (read, usage) = meter::measure(|| array.retrieve_records::<u32>(&[0..10]));
        assert_eq!(read.unwrap(), [0, 0, 5, 6, 0, 0, 0, 0, 0, 0]);
        assert!(usage.peak_bytes <= 4 * (16 << 20), "read: {usage:?}");
    }
}

rusty_fork_test! {
    /// Two records written into part of a chunk of 16 MiB, missing and then stored (a chunk, a
    /// zstd chunk, a shard of four inner chunks), hold the chunk once, read, changed in place
    /// and stored whole, beside what its codecs hold: zstd's output (room for the chunk
    /// compressed); for the shard, zarrs' decode of the stored one (its inner chunks beside
    /// the shard) and the shard's encoded inner chunks.
    #[test]
    fn a_write_into_part_of_a_chunk_holds_the_chunk_once() {
        const CHUNK: u64 = 1 << 22;
        const CHUNK_BYTES: usize = 4 << 22;
        let bytes = json!({"name": "bytes", "configuration": {"endian": "little"}});
        for (name, codecs, encoded) in [
            ("chunk", json!([bytes.clone()]), 0),
            ("zstd chunk", json!([bytes.clone(), {"name": "zstd", "configuration": {"level": 1, "checksum": false}}]), CHUNK_BYTES),
            ("shard", json!([{"name": "sharding_indexed", "configuration": {
                "chunk_shape": [CHUNK / 4], "codecs": [bytes.clone()],
                "index_codecs": [bytes.clone(), {"name": "crc32c"}], "index_location": "end"}}]),
                2 * CHUNK_BYTES),
        ] {
            let document = v3_document(json!({"shape": [CHUNK + 2], "data_type": "uint32",
                "fill_value": 7,
                "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [CHUNK]}},
                "codecs": codecs}));
            let array = open_written(&format!("write into part of a {name}"), &document, &[]);
            // Into the missing chunk, then into it stored.
            for (at, values) in [(5u64, [1u32, 2]), (CHUNK - 3, [3, 4])] {
                let (result, usage) =
                    meter::measure(|| array.store_records(&[at..at + 2], &values));
                result.unwrap();
                assert!(
                    usage.peak_bytes <= CHUNK_BYTES + encoded + CHUNK_BYTES / 4,
                    "{name} at {at}: {usage:?}"
                );
            }
            let head = array.retrieve_records::<u32>(&[3..8]).unwrap();
            assert_eq!(head, [7, 7, 1, 2, 7], "{name}");
            let tail = array.retrieve_records::<u32>(&[CHUNK - 4..CHUNK + 2]).unwrap();
            assert_eq!(tail, [7, 3, 4, 7, 7, 7], "{name}");
        }
    }
}

/// An empty subset of an array whose other extent is huge (2^61 × 0 records of 4 bytes): every
/// read and write of it is empty, not "cannot be allocated" (its bytes were counted as
/// 4 × 2^61 before the 0); a write given records for it is a count error, also for a subset of
/// more than 2^64 elements (beyond the array). An array whose extents overflow before its 0
/// is refused at open, saying so.
#[test]
fn empty_subsets_of_huge_extents_read_and_write_nothing() {
    /// The array's records.
    #[derive(zarrdt::ZarrStruct, Clone, Copy, Debug, PartialEq)]
    struct A {
        a: u32,
    }
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("metadata-hazards/empty-huge");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let document = v3_document(json!({
        "shape": [1u64 << 61, 0],
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1 << 20, 1]}},
    }));
    std::fs::write(root.join("zarr.json"), document.to_string()).unwrap();
    let store = Arc::new(FilesystemStore::new(&root).unwrap());
    let array = zarrdt::array::open_array(store.clone(), "/").unwrap();
    let all = ArraySubset::new_with_ranges(&[0..1 << 61, 0..0]);
    assert_eq!(array.retrieve_records::<A>(&all).unwrap(), Vec::<A>::new());
    assert!(array.retrieve_values(&all).unwrap().is_empty());
    assert!(
        array
            .retrieve_field::<u32>(&all, &["a"])
            .unwrap()
            .is_empty()
    );
    let mut kept = vec![A { a: 9 }];
    array.retrieve_records_into(&all, &mut kept).unwrap();
    assert_eq!(kept, [A { a: 9 }]);
    array.store_records::<A>(&all, &[]).unwrap();
    let error = array.store_records(&all, &[A { a: 1 }]).unwrap_err();
    assert!(
        matches!(
            error,
            ArrayError::ElementCount {
                expected: 0,
                found: 1
            }
        ),
        "{error}"
    );
    let mut reader = zarrdt::array::BlockReader::new(&array).unwrap();
    assert!(reader.read(&all).unwrap().is_empty());
    zarrdt::array::check_shards(&array, &all).unwrap();
    // A subset of 2^64 elements (beyond the array), given records: a count error.
    let error = array
        .store_records(&[0..1 << 61, 0..8], &[A { a: 1 }])
        .unwrap_err();
    assert!(
        matches!(
            error,
            ArrayError::ElementCount {
                expected: u64::MAX,
                found: 1
            }
        ),
        "{error}"
    );

    let document = v3_document(json!({"shape": [1u64 << 40, 1u64 << 40, 0]}));
    std::fs::write(root.join("zarr.json"), document.to_string()).unwrap();
    let error = zarrdt::array::open_array(store, "/")
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("has 0 elements, but the extents before its 0"),
        "{error}"
    );
}
