//! Metadata documents as JSON: nested as deep as the data types this crate reads need, and no
//! deeper.
//!
//! serde_json stops at 128 levels of arrays and objects, which a v3 struct type reaches at 32
//! levels of structs (each level is a `data_type` object, its `configuration`, the `fields`
//! list and a field's object) though types nest to [`MAX_NESTING_DEPTH`]. A document is
//! measured first, in one pass over its bytes, and parsed only if it is within
//! [`MAX_METADATA_DEPTH`]; so the parse's recursion is bounded by that constant, never by the
//! input.

use serde::Deserialize as _;
use serde::de::Error as _;
use serde_json::Value as Json;

use crate::MAX_NESTING_DEPTH;

/// The deepest nesting of JSON arrays and objects in a metadata document that
/// [`parse_metadata_json`] reads: room for a v3 struct type [`MAX_NESTING_DEPTH`] levels deep
/// (four JSON levels each) inside `zarr.json`, and for user attributes as deep.
pub const MAX_METADATA_DEPTH: usize = 4 * MAX_NESTING_DEPTH + 16;

/// Parses a metadata document (`zarr.json`, `.zarray`, `.zattrs`): JSON nested at most
/// [`MAX_METADATA_DEPTH`] levels, whose data types may then nest [`MAX_NESTING_DEPTH`]
/// levels in any form (v3 `struct`, legacy `structured`, NumPy `descr`), where serde_json's
/// default limit would stop a v3 struct at 32.
///
/// A deeper document is an error naming its depth limit and the byte offset where it is
/// exceeded, found before anything is parsed; invalid JSON is serde_json's error, naming the
/// line and column.
///
/// ```
/// use zarrdt::metadata::{MAX_METADATA_DEPTH, parse_metadata_json};
///
/// let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
/// assert!(serde_json::from_str::<serde_json::Value>(&deep).is_err());
/// assert!(parse_metadata_json(deep.as_bytes()).is_ok());
/// let deeper = "[".repeat(MAX_METADATA_DEPTH + 1);
/// let error = parse_metadata_json(deeper.as_bytes()).unwrap_err();
/// assert!(error.to_string().contains("nested deeper than"));
/// ```
pub fn parse_metadata_json(bytes: &[u8]) -> Result<Json, serde_json::Error> {
    if let Some(offset) = too_deep(bytes) {
        return Err(serde_json::Error::custom(format!(
            "nested deeper than {MAX_METADATA_DEPTH} levels of arrays and objects at byte \
             offset {offset}"
        )));
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    // Bounded by `too_deep` above: no stack deeper than MAX_METADATA_DEPTH levels.
    deserializer.disable_recursion_limit();
    let json = Json::deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(json)
}

/// The byte offset of the first `[` or `{` (outside strings) beyond [`MAX_METADATA_DEPTH`]
/// levels, if there is one. Brackets need not match: what is not JSON is serde_json's to say.
fn too_deep(bytes: &[u8]) -> Option<usize> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (offset, &byte) in bytes.iter().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_METADATA_DEPTH {
                    return Some(offset);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_is_counted_outside_strings_only() {
        let at_limit = format!(
            "{}\"[[{{\\\"\"{}",
            "[".repeat(MAX_METADATA_DEPTH),
            "]".repeat(MAX_METADATA_DEPTH)
        );
        assert_eq!(too_deep(at_limit.as_bytes()), None);
        assert!(parse_metadata_json(at_limit.as_bytes()).is_ok());
        let over = format!("{{\"a\": {}", "[".repeat(MAX_METADATA_DEPTH));
        assert_eq!(too_deep(over.as_bytes()), Some(5 + MAX_METADATA_DEPTH));
        let error = parse_metadata_json(over.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(
            error.contains(&format!("byte offset {}", 5 + MAX_METADATA_DEPTH)),
            "{error}"
        );
    }

    #[test]
    fn a_hundred_thousand_levels_are_refused_before_parsing() {
        let deep = "[".repeat(100_000);
        let error = parse_metadata_json(deep.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(error.contains("nested deeper than"), "{error}");
    }

    #[test]
    fn what_is_not_json_is_serde_json_error() {
        let error = parse_metadata_json(b"{\"a\": 1,}").unwrap_err().to_string();
        assert!(error.contains("line 1"), "{error}");
        assert!(parse_metadata_json(b"{} {}").is_err());
        assert!(parse_metadata_json(b"]]]{}").is_err());
    }
}
