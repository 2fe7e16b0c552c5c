//! The error type of this crate: every failure names what was wrong and where.

use std::fmt;

use crate::FieldPath;

/// Everything that can go wrong in `zarrdt-core`.
///
/// Each variant carries the offending input (the JSON text, the typestr, the byte) and its
/// location (the [`FieldPath`] inside a record, the element index and byte offset inside a
/// chunk), so that its message can be shown to a user as is. No input makes this crate panic;
/// it returns one of these instead.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A Zarr v3 data type (a name or a JSON object) that is malformed, unknown or not allowed
    /// where it appears.
    #[error("invalid data type{}: {json}: {reason}", path.describe())]
    InvalidDataType {
        /// Where in the struct the bad data type is (root for the array's own data type).
        path: FieldPath,
        /// The offending JSON, compact.
        json: String,
        /// What was wrong with it.
        reason: String,
    },

    /// A struct whose fields break the rules: no fields, an empty or duplicate name, or a
    /// packed size beyond [`MAX_ELEMENT_SIZE`](crate::MAX_ELEMENT_SIZE).
    #[error("invalid struct{}: {reason}", path.describe())]
    InvalidStruct {
        /// The struct (root) or field at fault.
        path: FieldPath,
        /// What was wrong.
        reason: String,
    },

    /// A Zarr v2 / NumPy typestr or `descr` entry that is malformed or unsupported.
    #[error("invalid v2 dtype{}: {json}: {reason}", path.describe())]
    InvalidDtype {
        /// Where in the record the bad entry is.
        path: FieldPath,
        /// The offending JSON, compact (a typestr appears as a JSON string).
        json: String,
        /// What was wrong with it.
        reason: String,
    },

    /// A fill value whose JSON is not a permitted form for its data type.
    #[error("invalid fill value{} for {data_type}: got {json}, expected {expected}", path.describe())]
    InvalidFillValue {
        /// Where in the struct the bad member is.
        path: FieldPath,
        /// The data type the value was read for (its v3 name or v2 typestr).
        data_type: String,
        /// The offending JSON, compact.
        json: String,
        /// The forms that would have been accepted.
        expected: String,
    },

    /// A value that the chosen metadata format cannot represent (for example a NaN with a
    /// payload as a v2 scalar fill value, which only knows `"NaN"`).
    #[error("cannot represent{} in {format}: {reason}", path.describe())]
    Unrepresentable {
        /// Where in the record the value is.
        path: FieldPath,
        /// The target form (for example `"Zarr v2 fill_value"`).
        format: &'static str,
        /// Why not.
        reason: String,
    },

    /// A `bytes` codec configuration that is malformed.
    #[error("invalid bytes codec configuration {json}: {reason}")]
    InvalidCodec {
        /// The offending JSON, compact.
        json: String,
        /// What was wrong with it.
        reason: String,
    },

    /// Encoding a data type with multi-byte values through a `bytes` codec without `endian`.
    #[error("the bytes codec needs an `endian` for {data_type}: it has multi-byte values")]
    MissingEndian {
        /// The data type that needs a byte order.
        data_type: String,
    },

    /// A chunk whose length is not a whole number of elements.
    #[error("{len} bytes is not a whole number of {element_size}-byte elements")]
    ChunkLength {
        /// The length of the buffer.
        len: usize,
        /// The size of one encoded element.
        element_size: usize,
    },

    /// A caller's buffer of the wrong size.
    #[error("buffer of {found} bytes, expected {expected} bytes")]
    BufferLength {
        /// The size needed.
        expected: usize,
        /// The size given.
        found: usize,
    },

    /// Encoded bytes that are not a valid value of their type (a bool byte other than 0 or 1,
    /// a UTF-32 code unit that is no Unicode scalar value, an integer that is no variant of
    /// its enum).
    #[error("element {index}{}, byte offset {offset}: {fault}", path.describe())]
    InvalidElement {
        /// Index of the element (record) in what was decoded: the buffer given to a decode
        /// (a chunk, for the `bytes` codec), or the selection read from an array (its
        /// elements in C order, counted from its first), for the array reads.
        index: usize,
        /// The leaf field holding the bad bytes.
        path: FieldPath,
        /// Byte offset of the bad value, counted as `index` is: from the start of the decoded
        /// buffer, or of the selection's packed records.
        offset: usize,
        /// What was wrong with the bytes.
        fault: ElementFault,
    },

    /// A dynamic [`Value`](crate::Value) whose shape or kind does not fit the data type it is
    /// used with.
    #[error("value{} does not fit {data_type}: {reason}", path.describe())]
    ValueMismatch {
        /// Where in the record.
        path: FieldPath,
        /// The data type expected there.
        data_type: String,
        /// What was found instead.
        reason: String,
    },

    /// A data type read from metadata that differs from the one a Rust type expects.
    #[error("data type mismatch{}: {difference}", path.describe())]
    TypeMismatch {
        /// The first field path at which the two differ (root when the top level differs).
        path: FieldPath,
        /// What differs: names, types, field order or count.
        difference: String,
    },

    /// A v2 data type that has no Zarr v3 equivalent (subarray fields, mixed byte order,
    /// padding), asked for in v3 form.
    #[error("no Zarr v3 equivalent{}: {reason}", path.describe())]
    NoV3Equivalent {
        /// The field that cannot be expressed.
        path: FieldPath,
        /// Why.
        reason: String,
    },

    /// A field path that names no field of the record.
    #[error("the record has no field `{path}`{}", hint_part(.hint))]
    NoSuchField {
        /// The path asked for.
        path: FieldPath,
        /// What is there instead: the fields of the struct where the path leaves the record
        /// (`the record's fields are `time`, `value``), or the type that is no struct
        /// (``value` is float32, not a struct`); empty if nothing more is known.
        hint: String,
    },

    /// Array metadata (`zarr.json`, `.zarray`) that is malformed outside the data type and
    /// fill value.
    #[error("invalid array metadata: member {member:?}: {reason}")]
    InvalidMetadata {
        /// The JSON member at fault.
        member: String,
        /// What was wrong.
        reason: String,
    },

    /// Text that is not JSON at all.
    #[error("invalid JSON: {0}")]
    Json(#[from] serde_json::Error),
}

impl Error {
    /// This error with its element index and byte offset counted from `elements` elements of
    /// `element_size` bytes earlier: for an error about part of a larger buffer (a chunk's
    /// records decoded after others, in the caller's output).
    #[must_use]
    pub fn shifted(self, elements: usize, element_size: usize) -> Self {
        match self {
            Error::InvalidElement {
                index,
                path,
                offset,
                fault,
            } => Error::InvalidElement {
                index: index.saturating_add(elements),
                path,
                offset: offset.saturating_add(elements.saturating_mul(element_size)),
                fault,
            },
            other => other,
        }
    }

    /// The field path the error names (root for the whole element), if it names one.
    pub fn path(&self) -> Option<&FieldPath> {
        with_path!(self, path => Some(path), None)
    }

    /// The same error seen from the enclosing struct or subarray: `segment` is put in front of
    /// its field path. Errors without a path are returned unchanged.
    #[must_use]
    pub fn within(mut self, segment: crate::PathSegment) -> Self {
        if let Some(path) = with_path!(&mut self, path => Some(path), None) {
            path.prepend(segment);
        }
        self
    }

    /// This error seen from the subarray holding it as item `flat` (counted row-major) of its
    /// `shape`: one index per dimension in the path.
    #[must_use]
    pub(crate) fn within_item(self, flat: usize, shape: &[usize]) -> Self {
        crate::path::item_segments(flat, shape)
            .into_iter()
            .rev()
            .fold(self, Error::within)
    }
}

/// `$some` (with `$path` bound to the error's field path) for the variants that carry one,
/// `$none` for the others: the one list of which errors name a field.
macro_rules! with_path {
    ($error:expr, $path:ident => $some:expr, $none:expr) => {
        match $error {
            Error::InvalidDataType { $path, .. }
            | Error::InvalidStruct { $path, .. }
            | Error::InvalidDtype { $path, .. }
            | Error::InvalidFillValue { $path, .. }
            | Error::Unrepresentable { $path, .. }
            | Error::InvalidElement { $path, .. }
            | Error::ValueMismatch { $path, .. }
            | Error::TypeMismatch { $path, .. }
            | Error::NoV3Equivalent { $path, .. }
            | Error::NoSuchField { $path, .. } => $some,
            Error::InvalidCodec { .. }
            | Error::MissingEndian { .. }
            | Error::ChunkLength { .. }
            | Error::BufferLength { .. }
            | Error::InvalidMetadata { .. }
            | Error::Json(_) => $none,
        }
    };
}
use with_path;

/// Invalid bytes inside one element: what was wrong and where, relative to the element.
///
/// Returned by the per-element checks ([`ZarrType::check_packed`](crate::ZarrType::check_packed));
/// chunk decoders turn it into [`Error::InvalidElement`] with the element index and the byte
/// offset from the start of the chunk. It is one pointer wide, so that decoders returning
/// `Result<T, DecodeError>` stay cheap on the path where nothing is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("byte offset {}{}: {}", .0.offset, .0.path.describe(), .0.fault)]
pub struct DecodeError(Box<DecodeErrorParts>);

#[derive(Clone, Debug, PartialEq, Eq)]
struct DecodeErrorParts {
    path: FieldPath,
    offset: usize,
    fault: ElementFault,
}

impl DecodeError {
    /// A fault at offset 0 of a scalar element.
    pub fn new(fault: ElementFault) -> Self {
        Self::at_offset(fault, 0)
    }

    /// A fault `offset` bytes into a scalar element.
    pub fn at_offset(fault: ElementFault, offset: usize) -> Self {
        DecodeError(Box::new(DecodeErrorParts {
            path: FieldPath::root(),
            offset,
            fault,
        }))
    }

    /// The leaf field holding the bad bytes, from the top of the element.
    pub fn path(&self) -> &FieldPath {
        &self.0.path
    }

    /// Byte offset of the bad value from the start of the element.
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// What was wrong.
    pub fn fault(&self) -> &ElementFault {
        &self.0.fault
    }

    /// The same fault seen from the enclosing struct: inside its field `name`, which starts
    /// `field_offset` bytes into it.
    #[must_use]
    pub fn in_field(mut self, name: &str, field_offset: usize) -> Self {
        self.0
            .path
            .prepend(crate::PathSegment::Field(name.to_owned()));
        self.0.offset += field_offset;
        self
    }

    /// The same fault inside element `index` of a subarray's outermost dimension, whose
    /// elements are `stride` bytes (the index of a Rust array `[T; N]`).
    #[must_use]
    pub fn in_element(mut self, index: usize, stride: usize) -> Self {
        self.0.path.prepend(crate::PathSegment::Index(index));
        self.0.offset += index * stride;
        self
    }

    /// The same fault inside item `flat` (counted row-major) of a subarray of `shape` whose
    /// items are `stride` bytes: one index per dimension in the path.
    #[must_use]
    pub(crate) fn in_item(mut self, flat: usize, shape: &[usize], stride: usize) -> Self {
        for segment in crate::path::item_segments(flat, shape).into_iter().rev() {
            self.0.path.prepend(segment);
        }
        self.0.offset += flat * stride;
        self
    }

    /// The chunk-level error for element `index` of a chunk of `element_size`-byte elements.
    pub fn at(self, index: usize, element_size: usize) -> Error {
        let parts = *self.0;
        Error::InvalidElement {
            index,
            path: parts.path,
            offset: index
                .saturating_mul(element_size)
                .saturating_add(parts.offset),
            fault: parts.fault,
        }
    }
}

/// What is wrong with the bytes of one encoded value.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ElementFault {
    /// A `bool` byte other than `0x00` or `0x01`.
    InvalidBool(u8),
    /// A UTF-32 code unit that is a surrogate or above U+10FFFF.
    InvalidUtf32(u32),
    /// An integer that is the value of no variant of the enum stored there.
    InvalidEnum {
        /// The value read.
        value: i128,
        /// The enum: its name, integer type and (the first) variants, as
        /// [`EnumDescriptor`](crate::EnumDescriptor) shows them:
        /// ``"`Status` (uint8: Ok = 0, Fail = 7)"``.
        enumeration: String,
    },
}

impl fmt::Display for ElementFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ElementFault::InvalidBool(byte) => {
                write!(f, "invalid bool byte 0x{byte:02x} (must be 0x00 or 0x01)")
            }
            ElementFault::InvalidUtf32(unit) => {
                write!(
                    f,
                    "invalid UTF-32 code unit 0x{unit:08x} (not a Unicode scalar value)"
                )
            }
            ElementFault::InvalidEnum { value, enumeration } => {
                write!(f, "{value} is no variant of enum {enumeration}")
            }
        }
    }
}

/// The hint part of [`Error::NoSuchField`]'s message: none if there is no hint.
fn hint_part(hint: &str) -> String {
    if hint.is_empty() {
        String::new()
    } else {
        format!("; {hint}")
    }
}

/// A compact JSON rendering of `json` for error messages: exact for small documents; beyond
/// [`SHOWN_DEPTH`] levels or about [`SHOWN_LENGTH`] characters, the rest is elided as `…`, so
/// that an error about a huge or deeply nested document stays short (and is made without
/// deep recursion).
pub(crate) fn show(json: &serde_json::Value) -> String {
    let mut out = String::new();
    write_shown(json, 0, &mut out);
    out
}

/// Levels of nesting [`show`] writes out.
const SHOWN_DEPTH: usize = 8;

/// Characters after which [`show`] elides the rest of a list or object.
const SHOWN_LENGTH: usize = 400;

fn write_shown(json: &serde_json::Value, depth: usize, out: &mut String) {
    use serde_json::Value as Json;
    let elided = |out: &mut String| out.len() > SHOWN_LENGTH || depth >= SHOWN_DEPTH;
    match json {
        Json::Array(items) => {
            if elided(out) && !items.is_empty() {
                out.push_str("[…]");
                return;
            }
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                if out.len() > SHOWN_LENGTH {
                    out.push('…');
                    break;
                }
                write_shown(item, depth + 1, out);
            }
            out.push(']');
        }
        Json::Object(members) => {
            if elided(out) && !members.is_empty() {
                out.push_str("{…}");
                return;
            }
            out.push('{');
            for (index, (name, member)) in members.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                if out.len() > SHOWN_LENGTH {
                    out.push('…');
                    break;
                }
                write_string(name, out);
                out.push(':');
                write_shown(member, depth + 1, out);
            }
            out.push('}');
        }
        Json::String(text) => write_string(text, out),
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// Characters of a string [`show`] writes; a longer string is cut there, its length said.
const SHOWN_STRING: usize = 200;

/// `text` as a JSON string, or its first [`SHOWN_STRING`] characters with `…` and its
/// length in bytes: a 50 MB fill value in metadata makes an error of a line, not of 50 MB.
fn write_string(text: &str, out: &mut String) {
    use std::fmt::Write as _;
    match text.char_indices().nth(SHOWN_STRING) {
        None => out.push_str(&serde_json::Value::from(text).to_string()),
        Some((cut, _)) => {
            let shown = serde_json::Value::from(&text[..cut]).to_string();
            out.push_str(&shown[..shown.len() - 1]);
            let _ = write!(out, "…\" ({} bytes)", text.len());
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::show;

    #[test]
    fn long_strings_are_cut() {
        let long = "x".repeat(50_000_000);
        let shown = show(&json!({"fill_value": long, &long[..300]: 1}));
        assert!(shown.len() < 700, "{}", shown.len());
        assert!(
            shown.contains(&format!("\"{}…\" (50000000 bytes)", "x".repeat(200))),
            "{shown}"
        );
        assert!(shown.contains(&format!("\"{}…\" (300 bytes):1", "x".repeat(200))));
        assert_eq!(
            show(&json!("é".repeat(200))),
            format!("\"{}\"", "é".repeat(200))
        );
    }

    #[test]
    fn small_documents_are_shown_exactly() {
        let json = json!({"name": "struct", "configuration": {"fields": [["a", "int32"]]}});
        assert_eq!(show(&json), json.to_string());
    }

    #[test]
    fn deep_and_long_documents_are_elided() {
        let mut deep = json!(1);
        for _ in 0..20 {
            deep = json!([deep]);
        }
        assert_eq!(show(&deep), "[[[[[[[[[…]]]]]]]]]");
        let long = json!((0..1000).collect::<Vec<_>>());
        let shown = show(&long);
        assert!(shown.len() < 420 && shown.ends_with(",…]"), "{shown}");
    }
}
