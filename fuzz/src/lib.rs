//! Shared pieces of the fuzz targets: splitting an input into its parts, reading a fuzzed data
//! type in each form, and the identities every parsed thing must satisfy.
//!
//! A failed identity panics, which libFuzzer reports as a crash with the input that caused it.

use serde_json::Value as Json;
use zarrdt::Endian;
use zarrdt::layout::{Layout, PathSegment};
use zarrdt::types::{DataType, ScalarType};
use zarrdt::value::Value;

/// `data` split at its first NUL byte (which JSON text never contains): the text before it and
/// the bytes after it (empty if there is no NUL).
pub fn split_nul(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &[]),
    }
}

/// Choices read from a fuzzer's input, a byte at a time (zeros once it runs out), for targets
/// whose input is a string of choices rather than a file format.
pub struct Choices<'a> {
    bytes: &'a [u8],
}

impl<'a> Choices<'a> {
    /// The choices `bytes` makes.
    pub fn new(bytes: &'a [u8]) -> Self {
        Choices { bytes }
    }

    /// The next byte (0 once the input has run out).
    pub fn byte(&mut self) -> u8 {
        let (&first, rest) = self.bytes.split_first().unwrap_or((&0, &[]));
        self.bytes = rest;
        first
    }

    /// The next two bytes, little-endian.
    pub fn u16(&mut self) -> usize {
        usize::from(u16::from_le_bytes([self.byte(), self.byte()]))
    }

    /// One of `choices` (not empty), by the next byte.
    pub fn pick<T: Clone>(&mut self, choices: &[T]) -> T {
        choices[usize::from(self.byte()) % choices.len()].clone()
    }

    /// Whether the input has run out.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

/// The byte order a flag bit selects.
pub fn endian(bit: bool) -> Endian {
    if bit { Endian::Big } else { Endian::Little }
}

/// A data type written as JSON, read every way it can be: as a v3 data type stored in either
/// byte order, and as a v2 `dtype`. Each is returned with the layout of its stored elements.
pub struct Parsed {
    /// The v3 data type, if the JSON is one.
    pub v3: Option<DataType>,
    /// The layouts the JSON describes: the v3 type in little- and big-endian order, the v2
    /// `dtype`.
    pub layouts: Vec<Layout>,
}

/// Reads `json` as a v3 data type and as a v2 `dtype`, checking the parse → write → parse
/// identity of each that parses.
pub fn parse_type(json: &Json) -> Parsed {
    let v3 = DataType::from_v3_json(json).ok();
    let mut layouts = Vec::new();
    if let Some(data_type) = &v3 {
        check_v3_identity(data_type);
        for endian in [Endian::Little, Endian::Big] {
            let layout = Layout::from_data_type(data_type, Some(endian))
                .expect("a data type has a layout in either byte order");
            layouts.push(layout);
        }
    }
    if let Ok(layout) = Layout::from_v2_json(json) {
        check_v2_identity(&layout);
        layouts.push(layout);
    }
    Parsed { v3, layouts }
}

/// v3 data type → JSON → the same data type, and the JSON written again is the same; its
/// layouts in both byte orders are views of it.
pub fn check_v3_identity(data_type: &DataType) {
    let written = data_type.to_v3_json();
    let back = DataType::from_v3_json(&written)
        .unwrap_or_else(|e| panic!("written v3 JSON {written} does not parse: {e}"));
    assert_eq!(&back, data_type, "v3 JSON {written} reads as another type");
    assert_eq!(back.to_v3_json(), written, "v3 JSON not stable");
    let _ = data_type.to_string();
    let _ = data_type.leaves();
    for endian in [Endian::Little, Endian::Big] {
        let layout = Layout::from_data_type(data_type, Some(endian))
            .expect("a data type has a layout in either byte order");
        assert_eq!(layout.size(), data_type.size());
        let (view, found) = layout
            .to_v3()
            .unwrap_or_else(|e| panic!("layout of {written} has no v3 view: {e}"));
        assert_eq!(
            &view, data_type,
            "layout of {written} is a view of another type"
        );
        if data_type.has_endianness() {
            assert_eq!(found, Some(endian));
        }
        if let Ok(v2) = layout.to_v2_json() {
            let again = Layout::from_v2_json(&v2)
                .unwrap_or_else(|e| panic!("written v2 dtype {v2} does not parse: {e}"));
            // `r<N>` is written as `|V{N/8}`, which reads as `raw_bytes`: the same bytes, and
            // the same v2 dtype from then on.
            assert_eq!(again.size(), layout.size());
            assert_eq!(
                again.to_v2_json().ok(),
                Some(v2.clone()),
                "v2 dtype {v2} (of v3 {written}) not stable"
            );
            let has_raw = layout
                .leaves()
                .iter()
                .any(|leaf| matches!(leaf.scalar(), ScalarType::Raw { .. }));
            if !has_raw {
                assert_eq!(
                    again, layout,
                    "v2 dtype {v2} (of v3 {written}) reads as another layout"
                );
            }
        }
    }
}

/// v2 `dtype` → JSON → the same layout, and the JSON written again is the same; a layout with
/// a v3 view is that view in its byte order.
pub fn check_v2_identity(layout: &Layout) {
    let _ = layout.leaves();
    let _ = layout.has_padding();
    let _ = layout.depth();
    let Ok(written) = layout.to_v2_json() else {
        return;
    };
    let back = Layout::from_v2_json(&written)
        .unwrap_or_else(|e| panic!("written v2 dtype {written} does not parse: {e}"));
    assert_eq!(&back, layout, "v2 dtype {written} reads as another layout");
    assert_eq!(
        back.to_v2_json().ok(),
        Some(written.clone()),
        "v2 dtype not stable"
    );
    if let Ok((data_type, endian)) = layout.to_v3() {
        let again = Layout::from_data_type(&data_type, endian)
            .unwrap_or_else(|e| panic!("v3 view of {written} has no layout: {e}"));
        assert_eq!(&again, layout, "v3 view of {written} is another layout");
        check_v3_identity(&data_type);
    }
}

/// A fill value or element value read from JSON writes and reads back as itself.
pub fn check_value_json(layout: &Layout, value: &Value) {
    let json = layout
        .value_to_json(value)
        .unwrap_or_else(|e| panic!("a value of the layout is not written: {e}"));
    let back = layout
        .value_from_json(&json)
        .unwrap_or_else(|e| panic!("written value {json} does not read: {e}"));
    assert_eq!(&back, value, "value JSON {json} reads as another value");
}

/// The field names from the top of the element to `path`, if it crosses no subarray.
pub fn field_names(path: &zarrdt::layout::FieldPath) -> Option<Vec<&str>> {
    path.segments()
        .iter()
        .map(|segment| match segment {
            PathSegment::Field(name) => Some(name.as_str()),
            PathSegment::Index(_) => None,
        })
        .collect()
}

/// Reads the field at `path` of every element of `chunk` as the Rust type of `scalar` (those
/// that have one here), and checks it against the dynamic decode of the whole elements.
pub fn check_field(layout: &Layout, chunk: &[u8], path: &[&str], scalar: ScalarType) {
    macro_rules! field {
        ($ty:ty) => {{
            let read = layout.decode_field::<$ty>(chunk, path);
            check_field_values(
                layout,
                chunk,
                path,
                read.map(|values| {
                    values
                        .iter()
                        .map(zarrdt::ZarrType::to_value)
                        .collect::<Vec<Value>>()
                }),
            );
        }};
    }
    match scalar {
        ScalarType::Bool => field!(bool),
        ScalarType::Int8 => field!(i8),
        ScalarType::Int16 => field!(i16),
        ScalarType::Int32 => field!(i32),
        ScalarType::Int64 => field!(i64),
        ScalarType::UInt8 => field!(u8),
        ScalarType::UInt16 => field!(u16),
        ScalarType::UInt32 => field!(u32),
        ScalarType::UInt64 => field!(u64),
        ScalarType::Float16 => field!(zarrdt::half::f16),
        ScalarType::Float32 => field!(f32),
        ScalarType::Float64 => field!(f64),
        ScalarType::Complex64 => field!(zarrdt::num_complex::Complex<f32>),
        ScalarType::Complex128 => field!(zarrdt::num_complex::Complex<f64>),
        _ => {
            // A type this harness has no Rust type for: a mismatch must be an error.
            assert!(layout.decode_field::<u8>(chunk, path).is_err());
        }
    }
}

fn check_field_values(
    layout: &Layout,
    chunk: &[u8],
    path: &[&str],
    read: Result<Vec<Value>, zarrdt::Error>,
) {
    let whole = layout.decode_values(chunk);
    match (read, whole) {
        (Ok(values), Ok(elements)) => {
            assert_eq!(values.len(), elements.len());
            for (value, element) in values.iter().zip(&elements) {
                let mut inner = element;
                for name in path {
                    inner = inner
                        .as_record()
                        .and_then(|record| record.get(name))
                        .expect("the field is in the decoded record");
                }
                assert_eq!(value, inner, "field {path:?} differs from the record's");
            }
        }
        // The field alone may be valid where another field is not.
        (Ok(_), Err(_)) => {}
        (Err(e), Ok(_)) => panic!("field {path:?} fails where the whole elements decode: {e}"),
        (Err(_), Err(_)) => {}
    }
}

/// An error's message is written without a panic and stays in proportion to the input (an
/// error about a huge document elides it): at most 16 bytes per input byte, plus 4 KiB.
pub fn check_error(error: &zarrdt::Error, input_len: usize) {
    let message = error.to_string();
    let _ = format!("{error:?}");
    assert!(
        message.len() <= 16 * input_len + 4096,
        "a {}-byte error message for a {input_len}-byte input",
        message.len()
    );
}
