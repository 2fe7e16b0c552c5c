//! `open_array` and the reads on untrusted metadata (issue 23): v2 and v3 metadata, either
//! the input's own JSON or generated from it with sizes, fills, shapes and nesting biased
//! toward every limit, opened from an in-memory store with a 1 MiB element limit, then read
//! (every value of a few elements, records and a field of a type that is not the array's) and
//! every error formatted. Nothing may panic or abort, and with `-rss_limit_mb=256` (and so
//! `-malloc_limit_mb=256`) nothing may allocate by a number read from the metadata.
//!
//! The input's first byte chooses: even, the rest is `JSON NUL CHUNK` (the document and the
//! bytes of chunk `0`); odd, the rest drives the generator ([`Generator`]).

#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use serde_json::{Value as Json, json};
use zarrdt::ReadRecords;
use zarrdt::array::OpenOptions;
use zarrdt::zarrs::array::ArraySubset;
use zarrdt::zarrs::storage::store::MemoryStore;
use zarrdt::zarrs::storage::{StoreKey, WritableStorageTraits};
use zarrdt_fuzz::{Choices, split_nul};

/// The element limit the target opens arrays with.
const LIMIT: usize = 1 << 20;

/// The most bytes of elements the target reads as `Value`s.
const VALUES_BYTES: u64 = 1 << 18;

/// Sizes next to every limit: the target's, the default's (16 MiB), the core's (2³¹ − 1),
/// products that overflow, and small ones.
const SIZES: [u64; 16] = [
    0,
    1,
    2,
    3,
    8,
    (1 << 20) - 1,
    1 << 20,
    (1 << 20) + 1,
    (16 << 20) + 1,
    (1 << 31) - 1,
    1 << 31,
    1 << 32,
    1 << 40,
    1 << 62,
    u64::MAX / 2,
    u64::MAX,
];

/// Makes metadata documents of the input's choices.
struct Generator<'a> {
    choices: Choices<'a>,
}

impl Generator<'_> {
    fn byte(&mut self) -> u8 {
        self.choices.byte()
    }

    fn pick<T: Clone>(&mut self, choices: &[T]) -> T {
        self.choices.pick(choices)
    }

    fn size(&mut self) -> u64 {
        self.pick(&SIZES)
    }

    /// A shape of 0 to 3 dimensions.
    fn shape(&mut self) -> Vec<u64> {
        let rank = usize::from(self.byte() % 4);
        (0..rank).map(|_| self.size()).collect()
    }

    /// A v3 data type, nested up to `depth` levels.
    fn v3_type(&mut self, depth: u8) -> Json {
        let size = self.size();
        match self.byte() % 10 {
            0 => json!(self.pick(&["uint8", "int32", "float64", "bool", "complex128", "float16"])),
            1 => json!(format!("r{}", size.saturating_mul(8))),
            2 => json!({"name": "raw_bytes", "configuration": {"length_bytes": size}}),
            3 => json!({"name": "null_terminated_bytes", "configuration": {"length_bytes": size}}),
            4 => json!({"name": "fixed_length_utf32", "configuration": {"length_bytes": size}}),
            5 => json!({"name": "numpy.datetime64",
                        "configuration": {"unit": "ms", "scale_factor": size}}),
            6 if depth > 0 => {
                let count = usize::from(self.byte() % 4) + 1;
                let fields: Vec<Json> = (0..count)
                    .map(|i| json!({"name": format!("f{i}"), "data_type": self.v3_type(depth - 1)}))
                    .collect();
                json!({"name": self.pick(&["struct", "structured"]),
                       "configuration": {"fields": fields}})
            }
            7 => json!({"name": "optional", "configuration": {"name": "fixed_length_utf32",
                        "configuration": {"length_bytes": size}}}),
            8 => json!(self.pick(&["string", "bytes", "bfloat16"])),
            _ => json!({"name": "struct", "configuration": {"fields": [
                {"name": "a", "data_type": {"name": "raw_bytes",
                                             "configuration": {"length_bytes": size}}}]}}),
        }
    }

    /// A v2 dtype, nested up to `depth` levels.
    fn v2_type(&mut self, depth: u8) -> Json {
        let size = self.size();
        match self.byte() % 8 {
            0 => json!(self.pick(&["<u1", "<i4", ">f8", "|b1", "<c16", "<M8[ms]"])),
            1 => json!(format!("|V{size}")),
            2 => json!(format!("|S{size}")),
            3 => json!(format!("<U{size}")),
            4 => json!("|O"),
            5 if depth > 0 => {
                let count = usize::from(self.byte() % 3) + 1;
                let fields: Vec<Json> = (0..count)
                    .map(|i| {
                        let inner = self.v2_type(depth - 1);
                        if self.byte() % 2 == 0 {
                            json!([format!("f{i}"), inner])
                        } else {
                            json!([format!("f{i}"), inner, self.shape()])
                        }
                    })
                    .collect();
                json!(fields)
            }
            _ => json!([["a", "|u1", [size]]]),
        }
    }

    fn fill(&mut self) -> Json {
        let size = usize::try_from(self.size().min(1 << 12)).unwrap_or(0);
        self.pick(&[
            Json::Null,
            json!(0),
            json!(""),
            json!("AAAA"),
            json!(base64_zeros(size)),
            json!({"a": 0}),
            json!({"a": "AAAA"}),
            json!([0, 0]),
        ])
    }

    fn v3_codecs(&mut self, chunks: &[u64]) -> Json {
        let bytes = json!({"name": "bytes", "configuration": {"endian": "little"}});
        match self.byte() % 5 {
            0 => json!([bytes]),
            1 => json!([bytes, {"name": "zstd", "configuration": {"level": 1, "checksum": false}}]),
            2 => {
                let order: Vec<u64> = (0..chunks.len() as u64).rev().collect();
                json!([{"name": "transpose", "configuration": {"order": order}}, bytes])
            }
            _ => {
                let inner: Vec<u64> = chunks.iter().map(|_| self.size()).collect();
                json!([{"name": "sharding_indexed", "configuration": {
                    "chunk_shape": inner,
                    "codecs": [bytes],
                    "index_codecs": [bytes, {"name": "crc32c"}],
                    "index_location": self.pick(&["start", "end"])}}])
            }
        }
    }

    /// A whole metadata document: its key (`zarr.json` or `.zarray`) and text.
    fn document(&mut self) -> (&'static str, Json) {
        let shape = self.shape();
        let chunks: Vec<u64> = shape.iter().map(|_| self.size()).collect();
        if self.byte() % 2 == 0 {
            let data_type = self.v3_type(3);
            let codecs = self.v3_codecs(&chunks);
            let grid = self.pick(&["regular", "regular", "rectilinear"]);
            (
                "zarr.json",
                json!({
                    "zarr_format": 3, "node_type": "array", "shape": shape,
                    "data_type": data_type,
                    "chunk_grid": {"name": grid, "configuration": {"chunk_shape": chunks}},
                    "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
                    "fill_value": self.fill(),
                    "codecs": codecs,
                }),
            )
        } else {
            let dtype = self.v2_type(3);
            let filters = if self.byte() % 4 == 0 {
                json!([{"id": "shuffle", "elementsize": self.size()}])
            } else {
                Json::Null
            };
            (
                ".zarray",
                json!({
                    "zarr_format": 2, "shape": shape, "chunks": chunks, "dtype": dtype,
                    "fill_value": self.fill(), "order": self.pick(&["C", "F"]),
                    "compressor": null, "filters": filters,
                }),
            )
        }
    }
}

fn base64_zeros(bytes: usize) -> String {
    "A".repeat(bytes.div_ceil(3) * 4)
}

/// An error's text: formatted both ways, one line, and in proportion to the input.
fn check_error(error: &dyn std::fmt::Debug, display: String, input_len: usize) {
    let debug = format!("{error:?}");
    assert!(
        !display.contains('\n'),
        "an error of several lines: {display}"
    );
    let bound = 4096 + 4 * input_len;
    assert!(
        display.len() <= bound,
        "an error of {} bytes",
        display.len()
    );
    assert!(debug.len() <= 4 * bound, "a Debug of {} bytes", debug.len());
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let (key, document, chunk) = if mode % 2 == 0 {
        let (text, chunk) = split_nul(rest);
        let Ok(json) = serde_json::from_slice::<Json>(text) else {
            return;
        };
        let key = if json["zarr_format"] == 2 {
            ".zarray"
        } else {
            "zarr.json"
        };
        (key, json, chunk.to_vec())
    } else {
        let (key, json) = Generator {
            choices: Choices::new(rest),
        }
        .document();
        (key, json, rest.iter().rev().take(64).copied().collect())
    };
    let store = Arc::new(MemoryStore::new());
    let text = document.to_string();
    let input_len = text.len() + chunk.len();
    let put = |name: &str, bytes: Vec<u8>| {
        let key = StoreKey::new(name).expect("a valid key");
        store
            .set(&key, bytes.into())
            .expect("the memory store takes any key");
    };
    put(key, text.into_bytes());
    let chunk_key = if key == ".zarray" { "0" } else { "c/0" };
    put(chunk_key, chunk);

    let array = match OpenOptions::new().max_element_size(LIMIT).open(store, "/") {
        Ok(array) => array,
        Err(error) => return check_error(&error, error.to_string(), input_len),
    };
    // A few elements at the start, within the shape.
    let ranges: Vec<std::ops::Range<u64>> = array
        .shape()
        .iter()
        .map(|&extent| 0..extent.min(2))
        .collect();
    let subset = ArraySubset::new_with_ranges(&ranges);
    // Values are read where the elements hold at most 256 KiB: a record's fields are a `Value`
    // each (about 70 bytes a field), so more would measure the representation the caller
    // asked for, not a bound of the library (fuzz/README.md).
    let element_size = array.data_type().fixed_size().unwrap_or(0) as u64;
    if subset.num_elements().saturating_mul(element_size) <= VALUES_BYTES
        && let Err(error) = array.retrieve_values(&subset)
    {
        check_error(&error, error.to_string(), input_len);
    }
    if let Err(error) = array.retrieve_records::<u64>(&subset) {
        check_error(&error, error.to_string(), input_len);
    }
    if let Err(error) = array.retrieve_field::<u8>(&subset, &["a"]) {
        check_error(&error, error.to_string(), input_len);
    }
});
