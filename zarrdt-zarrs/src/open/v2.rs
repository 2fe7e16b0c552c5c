//! Opening a Zarr v2 array: its `dtype` sized and its `.zarray` checked before zarrs builds it;
//! NumPy structured dtypes through [`StructDataType`].

use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::Value as Json;
use zarrdt_core::{ArrayMetadataV2, Layout};
use zarrs::array::{Array, ArrayCreateError, ArrayMetadata};
use zarrs::metadata::v2::ArrayMetadataV2 as ZarrsMetadataV2;
use zarrs::storage::{ReadableStorageTraits, StoreKey};

use super::limits::{self, invalid};
use super::{OpenOptions, astype_changes_nothing};
use crate::{Error, StructDataType};

/// The size zarrdt counts for an object (`|O`) element: its offset in the chunk.
const OBJECT_ELEMENT_SIZE: usize = 8;

/// Opens the v2 array whose `.zarray` at `key` is `json` (with its `.zattrs`, if any).
pub(super) fn open<S: ?Sized + ReadableStorageTraits + 'static>(
    options: &OpenOptions,
    store: Arc<S>,
    path: &str,
    key: &StoreKey,
    mut json: Json,
    attributes: Option<Json>,
) -> Result<Array<S>, Error> {
    let key = key.to_string();
    let dtype = json
        .get("dtype")
        .ok_or_else(|| invalid(&key, "dtype", "missing"))?;
    let element_size = match Layout::from_v2_json(dtype) {
        Ok(layout) => options.check_element_size(path, layout.size())?,
        // Python objects (strings, bytes) are zarrs' to read; every fixed-size dtype is one
        // zarrdt knows, so any other error is the dtype's.
        Err(_)
            if dtype
                .as_str()
                .is_some_and(|typestr| typestr.starts_with("|O")) =>
        {
            OBJECT_ELEMENT_SIZE
        }
        Err(error) => return Err(Error::metadata(&key, None, error)),
    };
    limits::check_v2(&key, &json, element_size)?;
    // zarrs makes no transpose of no dimensions (a zero-dimensional array has one order).
    if json["shape"].as_array().is_some_and(Vec::is_empty) {
        json["order"] = Json::from("C");
    }
    if json["dtype"].is_array() {
        return open_structured(store, path, &key, json, attributes);
    }
    fill_scalar_zero(&mut json, element_size);
    let mut metadata: ZarrsMetadataV2 = super::zarrs_metadata(&key, json)?;
    if let Some(Json::Object(attributes)) = attributes {
        metadata.attributes = attributes;
    }
    Ok(Array::new_with_metadata(
        store,
        path,
        ArrayMetadata::V2(metadata),
    )?)
}

/// A v2 array of a NumPy structured dtype: zarrs reads its grid, keys and codecs from the
/// `.zarray` with a same-size placeholder dtype (and a placeholder fill zarrs passes through
/// as it is), and [`StructDataType`] decodes the records and holds the fill value.
fn open_structured<S: ?Sized + ReadableStorageTraits + 'static>(
    store: Arc<S>,
    path: &str,
    key: &str,
    json: Json,
    attributes: Option<Json>,
) -> Result<Array<S>, Error> {
    // zarrdt's errors about the dtype and fill value name the field and the JSON; the
    // document they are in is added.
    let in_document = |error| Error::metadata(key, None, error);
    let elements = ArrayMetadataV2::from_json(&json).map_err(in_document)?;
    let data_type = StructDataType::from_v2_json(&json["dtype"]).map_err(in_document)?;
    let data_type = if elements.fill_value.is_none() {
        data_type.without_fill_value()
    } else {
        data_type
    };
    let native = data_type.native_layout();
    let fill = match elements.fill_value {
        Some(fill) => native.encode_value(&fill).map_err(in_document)?,
        None => vec![0; native.size()],
    };
    let mut placeholder = json;
    placeholder["dtype"] = Json::from(format!("|V{}", native.size()));
    placeholder["fill_value"] = Json::from(0);
    let mut v2: ZarrsMetadataV2 = super::zarrs_metadata(key, placeholder)?;
    if let Some(Json::Object(attributes)) = attributes {
        v2.attributes = attributes;
    }
    // What zarrs cannot convert (a codec it does not know) is its error, as for other arrays.
    let mut v3 = zarrs::convert::array_metadata_v2_to_v3(&v2)
        .map_err(|e| Error::Create(ArrayCreateError::UnsupportedZarrV2Array(e.to_string())))?;
    v3.data_type = data_type.metadata();
    v3.fill_value = StructDataType::v2_fill_metadata(&fill);
    Ok(Array::new_with_metadata(
        store,
        path,
        ArrayMetadata::V3(v3),
    )?)
}

/// Removes from the `.zarray` `json` every `astype` filter whose two types are the same
/// ([`astype_changes_nothing`]; zarr-python 2.18 writes one for records as `|V<n>` both). A
/// `filters` list left empty becomes `null`, as zarr-python writes no filters.
pub(super) fn drop_identity_astype(json: &mut Json) {
    let Some(filters) = json.get_mut("filters").and_then(Json::as_array_mut) else {
        return;
    };
    let before = filters.len();
    filters.retain(|filter| {
        let is_astype = filter.get("id").and_then(Json::as_str) == Some("astype");
        !(is_astype && astype_changes_nothing(filter))
    });
    if filters.is_empty() && before > 0 {
        json["filters"] = Json::Null;
    }
}

/// A `null` or `0` fill of a raw (`|V<n>`), text (`<U<n>`) or complex (`<c8`, `<c16`) dtype as
/// the zero value zarrs reads (it refuses both for these types, where zarr-python and NumPy
/// read zeros): base64 of the element's zero bytes, the empty string, or `[0.0, 0.0]`.
fn fill_scalar_zero(json: &mut Json, element_size: usize) {
    let zero = json["fill_value"].is_null() || json["fill_value"] == 0;
    match json["dtype"].as_str() {
        Some(typestr) if zero && typestr.starts_with("|V") => {
            json["fill_value"] = Json::from(BASE64.encode(vec![0u8; element_size]));
        }
        Some(typestr) if zero && (typestr.starts_with("<U") || typestr.starts_with(">U")) => {
            json["fill_value"] = Json::from("");
        }
        Some(typestr) if zero && typestr.get(1..2) == Some("c") => {
            json["fill_value"] = serde_json::json!([0.0, 0.0]);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn only_astype_filters_that_change_nothing_are_dropped() {
        let same = json!({"id": "astype", "encode_dtype": "|V12", "decode_dtype": "|V12"});
        let converting = json!({"id": "astype", "encode_dtype": "<f4", "decode_dtype": "<f8"});
        let shuffle = json!({"id": "shuffle", "elementsize": 12});
        let dropped = |filters: Json| {
            let mut document = json!({"filters": filters});
            drop_identity_astype(&mut document);
            document["filters"].clone()
        };
        assert_eq!(dropped(json!([same.clone()])), Json::Null);
        assert_eq!(
            dropped(json!([same.clone(), shuffle.clone(), same.clone()])),
            json!([shuffle])
        );
        assert_eq!(dropped(json!([converting.clone()])), json!([converting]));
        // Not the same type unless both are written.
        let half = json!({"id": "astype", "decode_dtype": "|V12"});
        assert_eq!(dropped(json!([half.clone()])), json!([half]));
        assert_eq!(dropped(json!([])), json!([]));
        assert_eq!(dropped(Json::Null), Json::Null);
    }
}
