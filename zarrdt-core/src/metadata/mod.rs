//! Array metadata documents: the parts of `zarr.json` (v3) and `.zarray` (v2) that say what
//! the elements are and where the chunks lie.
//!
//! These readers take what real writers wrote (zarr-python 2.18, 3.1 and 3.4 among them) and the
//! writers emit only the current spec forms. Compression and other codecs are not applied by
//! this crate and chunk keys are not formed here; the codecs' JSON and the key encoding are
//! kept so that the array engine (zarrs, through the `zarrs` integration) can.

mod json;
mod v2;
mod v3;

pub use json::{MAX_METADATA_DEPTH, parse_metadata_json};
pub use v2::ArrayMetadataV2;
pub use v3::ArrayMetadataV3;

use serde_json::{Map, Value as Json};

use crate::Error;

fn invalid(member: &str, reason: impl Into<String>) -> Error {
    Error::InvalidMetadata {
        member: member.to_owned(),
        reason: reason.into(),
    }
}

fn member<'a>(object: &'a Map<String, Json>, name: &str) -> Result<&'a Json, Error> {
    object.get(name).ok_or_else(|| invalid(name, "missing"))
}

fn shape(object: &Map<String, Json>, name: &str) -> Result<Vec<u64>, Error> {
    member(object, name)?
        .as_array()
        .and_then(|extents| extents.iter().map(Json::as_u64).collect())
        .ok_or_else(|| invalid(name, "must be a list of non-negative integers"))
}
