//! Opening a Zarr v3 array: its element sized and its metadata checked before zarrs builds it.

use std::sync::Arc;

use serde_json::{Value as Json, json};
use zarrdt_core::{ArrayMetadataV3 as ElementMetadataV3, DataType as ZarrDataType};
use zarrs::array::{Array, ArrayMetadata, ArrayMetadataV3, DataType};
use zarrs::metadata::v3::MetadataV3;
use zarrs::storage::{ReadableStorageTraits, StoreKey};

use super::limits::{self, invalid};
use super::{OpenOptions, astype_changes_nothing};
use crate::Error;
use crate::convert::fill_metadata;

/// The size zarrdt counts for a variable-length element: its offset in the chunk.
const VARIABLE_ELEMENT_SIZE: usize = 8;

/// Opens the v3 array whose `zarr.json` at `key` is `json`: struct types are checked by
/// zarrdt, and a legacy base64 fill is rewritten in the registered object form, read in the
/// codec's byte order; other types are sized by zarrs (which allocates nothing of an element's
/// size to create a data type) before it builds their fill value.
pub(super) fn open<S: ?Sized + ReadableStorageTraits + 'static>(
    options: &OpenOptions,
    store: Arc<S>,
    path: &str,
    key: &StoreKey,
    mut json: Json,
) -> Result<Array<S>, Error> {
    let key = key.to_string();
    let data_type = json
        .get("data_type")
        .ok_or_else(|| invalid(&key, "data_type", "missing"))?;
    let name = data_type
        .as_str()
        .or_else(|| data_type.get("name")?.as_str());
    let is_struct = matches!(name, Some("struct" | "structured"));
    if is_struct {
        // zarrdt's errors about the type and fill value name the field and the JSON; the
        // document they are in is added.
        let in_document = |error| Error::metadata(&key, None, error);
        // The type first: its fill value is read only once its size is known to be allowed.
        let record = ZarrDataType::from_v3_json(data_type).map_err(in_document)?;
        let size = record.size();
        options.check_element_size(path, size)?;
        limits::check_v3(&key, &json, size, options)?;
        let elements = ElementMetadataV3::from_json(&json).map_err(in_document)?;
        if !json["fill_value"].is_object() {
            json["fill_value"] = elements
                .data_type
                .fill_value_to_v3_json(&elements.fill_value)
                .map_err(in_document)?;
        }
        if record.has_endianness() {
            little_endian_where_unsaid(&mut json["codecs"]);
        }
    } else {
        let metadata: MetadataV3 =
            serde_json::from_value(data_type.clone()).map_err(|e| invalid(&key, "data_type", e))?;
        let zarrs_type =
            DataType::from_metadata(&metadata).map_err(|e| invalid(&key, "data_type", e))?;
        let size = match zarrs_type.fixed_size() {
            Some(size) => options.check_element_size(path, size)?,
            None => VARIABLE_ELEMENT_SIZE,
        };
        limits::check_v3(&key, &json, size, options)?;
    }
    let metadata = if is_struct {
        struct_metadata(&key, json)?
    } else {
        super::zarrs_metadata(&key, json)?
    };
    Ok(Array::new_with_metadata(
        store,
        path,
        ArrayMetadata::V3(metadata),
    )?)
}

/// zarrs' metadata of the struct array whose (checked) document is `json`. A struct's data type
/// and fill value are most of its document (every field is in both, a subarray's items too), and
/// they are moved into zarrs' metadata as they are: serde would copy the whole document twice
/// over to deserialize it (zarrs' metadata has a `flatten`ed member). The rest, with the type's
/// name alone in place of the type, is deserialized as for any other type.
fn struct_metadata(key: &str, mut json: Json) -> Result<ArrayMetadataV3, Error> {
    let Some(document) = json.as_object_mut() else {
        return Err(invalid(key, "<document>", "must be a JSON object"));
    };
    // `DataType::from_v3_json` accepted the type: `{"name": …, "configuration": {…}}`.
    let Some(Json::Object(mut data_type)) = document.insert("data_type".to_owned(), Json::Null)
    else {
        return Err(invalid(key, "data_type", "must be an object"));
    };
    let (Some(Json::String(name)), Some(Json::Object(configuration))) =
        (data_type.remove("name"), data_type.remove("configuration"))
    else {
        return Err(invalid(
            key,
            "data_type",
            "must have a name and a configuration",
        ));
    };
    document.insert("data_type".to_owned(), Json::String(name.clone()));
    let fill_value = document.insert("fill_value".to_owned(), Json::Null);
    let mut metadata: ArrayMetadataV3 = super::zarrs_metadata(key, json)?;
    metadata.data_type = MetadataV3::new_with_configuration(name, configuration);
    metadata.fill_value = fill_metadata(fill_value.unwrap_or_default());
    Ok(metadata)
}

/// Removes from `codecs` (and from the inner codecs of `sharding_indexed`) every
/// `numcodecs.astype` whose two types are the same ([`astype_changes_nothing`]): the identity
/// `astype` filter zarr-python 2.18 writes for records, as zarr-python 3's `zarr migrate v3`
/// carries it over into a Zarr v3 array. Only the array's metadata in memory changes.
pub(super) fn drop_identity_astype(codecs: &mut Json) {
    let Some(codecs) = codecs.as_array_mut() else {
        return;
    };
    codecs.retain(|codec| {
        let is_astype = codec.get("name").and_then(Json::as_str) == Some("numcodecs.astype");
        !(is_astype
            && codec
                .get("configuration")
                .is_some_and(astype_changes_nothing))
    });
    for codec in codecs {
        if codec.get("name").and_then(Json::as_str) == Some("sharding_indexed")
            && let Some(inner) = codec.pointer_mut("/configuration/codecs")
        {
            drop_identity_astype(inner);
        }
    }
}

/// Gives every `bytes` codec of `codecs` (and of the inner codecs of `sharding_indexed`) that
/// says no `endian` the little-endian one: the order a struct's chunks are read in where it
/// is unsaid (the legacy `structured` spec's rule, which zarr-python follows), and so the
/// order zarrs writes them in (zarr-python 3.1 writes `{"name": "bytes"}` for every
/// `structured` array; zarrs refuses to encode multi-byte values without an order). Only the
/// array's metadata in memory changes; the stored document stays as it is.
fn little_endian_where_unsaid(codecs: &mut Json) {
    let Some(codecs) = codecs.as_array_mut() else {
        return;
    };
    for codec in codecs {
        match codec.get("name").and_then(Json::as_str) {
            Some("bytes") => {
                let configuration = codec
                    .as_object_mut()
                    .map(|codec| codec.entry("configuration").or_insert_with(|| json!({})));
                if let Some(Json::Object(configuration)) = configuration {
                    configuration
                        .entry("endian")
                        .or_insert_with(|| Json::from("little"));
                }
            }
            Some("sharding_indexed") => {
                if let Some(inner) = codec.pointer_mut("/configuration/codecs") {
                    little_endian_where_unsaid(inner);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_astype_codecs_that_change_nothing_are_dropped_shards_too() {
        let astype = |encode: &str, decode: &str| {
            json!({"name": "numcodecs.astype",
                "configuration": {"encode_dtype": encode, "decode_dtype": decode}})
        };
        let same = astype("|V12", "|V12");
        let converting = astype("<f4", "<f8");
        let bytes = json!({"name": "bytes", "configuration": {"endian": "little"}});
        let sharding = |codecs: Json| {
            json!({"name": "sharding_indexed", "configuration": {"chunk_shape": [2],
                "codecs": codecs, "index_codecs": [bytes.clone()]}})
        };
        let dropped = |mut codecs: Json| {
            drop_identity_astype(&mut codecs);
            codecs
        };
        assert_eq!(
            dropped(json!([same.clone(), bytes.clone()])),
            json!([bytes.clone()])
        );
        assert_eq!(
            dropped(json!([sharding(json!([same.clone(), bytes.clone()]))])),
            json!([sharding(json!([bytes.clone()]))])
        );
        let kept = json!([converting.clone(), bytes.clone()]);
        assert_eq!(dropped(kept.clone()), kept);
        // Not the same type unless both are written; the v2 filter's name is not the v3 one's.
        let half = json!([{"name": "numcodecs.astype", "configuration": {"decode_dtype": "|V12"}}]);
        assert_eq!(dropped(half.clone()), half);
        let v2_name = json!([{"name": "astype",
            "configuration": {"encode_dtype": "|V12", "decode_dtype": "|V12"}}]);
        assert_eq!(dropped(v2_name.clone()), v2_name);
        assert_eq!(dropped(Json::Null), Json::Null);
    }
}
