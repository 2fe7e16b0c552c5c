//! Conversions between zarrs' and zarrdt's names for the same things: byte orders and fill
//! value JSON.

use serde_json::Value as Json;
use zarrdt_core::Endian;
use zarrs::array::{Endianness, FillValueMetadata};

/// zarrdt's name for a zarrs byte order.
pub(crate) fn endian_of(endianness: Endianness) -> Endian {
    match endianness {
        Endianness::Little => Endian::Little,
        Endianness::Big => Endian::Big,
    }
}

/// zarrs' name for a zarrdt byte order.
pub(crate) fn endianness_of(endian: Endian) -> Endianness {
    match endian {
        Endian::Little => Endianness::Little,
        Endian::Big => Endianness::Big,
    }
}

/// A fill value's JSON as zarrs holds it, moved into place (serde would buffer a copy of it
/// first: zarrs' type is an untagged enum). Recursion is bounded by the JSON's depth, which
/// [`zarrdt_core::parse_metadata_json`] bounds for documents and the data type for fills zarrdt
/// writes.
pub(crate) fn fill_metadata(json: Json) -> FillValueMetadata {
    match json {
        Json::Null => FillValueMetadata::Null,
        Json::Bool(value) => FillValueMetadata::Bool(value),
        Json::Number(number) => FillValueMetadata::Number(number),
        Json::String(text) => FillValueMetadata::String(text),
        Json::Array(items) => {
            FillValueMetadata::Array(items.into_iter().map(fill_metadata).collect())
        }
        Json::Object(members) => FillValueMetadata::Object(
            members
                .into_iter()
                .map(|(name, value)| (name, fill_metadata(value)))
                .collect(),
        ),
    }
}
