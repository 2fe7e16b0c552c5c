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

/// A fill value's JSON as zarrs holds it.
pub(crate) fn fill_metadata(json: Json) -> Result<FillValueMetadata, serde_json::Error> {
    serde_json::from_value(json)
}
