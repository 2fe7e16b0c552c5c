//! Opening record arrays written by anyone: Zarr v3 (`struct`, legacy `structured`, and every
//! other type zarrs knows) and Zarr v2 (NumPy structured dtypes included), through zarrs.

use std::sync::{Arc, Once};

use serde_json::Value as Json;
use zarrdt_core::{ArrayMetadataV2, ArrayMetadataV3 as ElementMetadataV3};
use zarrs::array::data_type::api::{DataTypeRuntimePluginV3, register_data_type_v3};
use zarrs::array::{Array, ArrayMetadata, ArrayMetadataV3, DataTypeTraitsV3};
use zarrs::metadata::v2::ArrayMetadataV2 as ZarrsMetadataV2;
use zarrs::node::{NodePath, meta_key_v2_array, meta_key_v2_attributes, meta_key_v3};
use zarrs::storage::{ReadableStorageTraits, StoreKey};

use crate::codec::diagnose;
use crate::convert::fill_metadata;
use crate::{Error, StoredStructDataType, StructDataType};

/// Registers zarrdt's `struct` data type with zarrs at run time, so that it takes precedence
/// over any other `struct` plugin linked into the program (zarrs also finds it at link time,
/// through `inventory`), and zarrdt's zlib and bz2 codecs, ahead of zarrs' own (numcodecs'
/// default level, decoding bounded by the chunk's size). Idempotent; the functions of this
/// crate call it.
pub fn register() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        crate::codec::register();
        // The registration lives for the whole program.
        let _handle = register_data_type_v3(DataTypeRuntimePluginV3::new(
            |name| matches!(name, "struct" | "structured"),
            StructDataType::create,
        ));
    });
}

/// Reads the JSON document at `key`, if there is one.
fn read_json<S: ?Sized + ReadableStorageTraits>(
    store: &S,
    key: &StoreKey,
) -> Result<Option<Json>, Error> {
    let Some(bytes) = store.get(key)? else {
        return Ok(None);
    };
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|error| Error::Metadata {
            key: key.to_string(),
            reason: error.to_string(),
        })
}

/// Opens the Zarr array at `path` (`"/"` for the root of the store, `"/group/array"` below it)
/// for reading and writing records through zarrs.
///
/// * Zarr v3: every data type zarrs knows, and struct types (`struct` and the legacy
///   `structured`). A struct's data type and fill value are checked by zarrdt first, so that a
///   bad one is an error naming the field and the JSON. A legacy base64 struct fill is read in
///   the byte order of the array's `bytes` codec (also inside `sharding_indexed`), as the
///   `structured` spec says.
/// * Zarr v2: every dtype zarrs knows, and NumPy structured dtypes (per-field byte order,
///   padding, subarrays, nested records; [`StoredStructDataType`]), with the compressors,
///   filters, `order` and dimension separator zarrs supports (Blosc, zstd, gzip, …). A `null`
///   fill value of a structured dtype reads as the zero record, as NumPy fills it.
///
/// Missing chunks read as the fill value. Do not call zarrs' `store_metadata` on a Zarr v2
/// structured array opened this way: zarrs would write its in-memory v3 form.
///
/// ```no_run
/// use std::sync::Arc;
/// use zarrdt_zarrs::{open_array, retrieve_values};
/// use zarrdt_zarrs::zarrs::filesystem::FilesystemStore;
///
/// let store = Arc::new(FilesystemStore::new("data.zarr")?);
/// let array = open_array(store, "/")?;
/// let records = retrieve_values(&array, &[0..10])?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn open_array<S: ?Sized + ReadableStorageTraits + 'static>(
    store: Arc<S>,
    path: &str,
) -> Result<Array<S>, Error> {
    register();
    let node = NodePath::new(path).map_err(|error| Error::Metadata {
        key: path.to_owned(),
        reason: error.to_string(),
    })?;
    // An array that does not open for a codec's sake is an error naming that codec.
    if let Some(json) = read_json(&*store, &meta_key_v3(&node))? {
        return open_v3(store, path, &meta_key_v3(&node), json.clone())
            .map_err(|error| diagnose::v3(path, &json).unwrap_or(error));
    }
    if let Some(json) = read_json(&*store, &meta_key_v2_array(&node))? {
        let opened = if json.get("dtype").is_some_and(Json::is_array) {
            let attributes = read_json(&*store, &meta_key_v2_attributes(&node))?;
            open_v2_structured(
                store,
                path,
                &meta_key_v2_array(&node),
                json.clone(),
                attributes,
            )
        } else {
            Array::open(store, path).map_err(Error::from)
        };
        return opened.map_err(|error| diagnose::v2(path, &json).unwrap_or(error));
    }
    Err(Error::NotAnArray {
        path: path.to_owned(),
    })
}

fn invalid(key: &StoreKey, reason: impl ToString) -> Error {
    Error::Metadata {
        key: key.to_string(),
        reason: reason.to_string(),
    }
}

/// A v3 array: struct types are checked by zarrdt, and a legacy base64 fill is rewritten in
/// the registered object form, read in the codec's byte order.
fn open_v3<S: ?Sized + ReadableStorageTraits + 'static>(
    store: Arc<S>,
    path: &str,
    key: &StoreKey,
    mut json: Json,
) -> Result<Array<S>, Error> {
    let name = json.get("data_type").and_then(|data_type| {
        data_type
            .as_str()
            .or_else(|| data_type.get("name")?.as_str())
    });
    if matches!(name, Some("struct" | "structured")) {
        let elements = ElementMetadataV3::from_json(&json)?;
        if !json["fill_value"].is_object() {
            json["fill_value"] = elements
                .data_type
                .fill_value_to_json(&elements.fill_value)?;
        }
    }
    let metadata: ArrayMetadataV3 = serde_json::from_value(json).map_err(|e| invalid(key, e))?;
    Ok(Array::new_with_metadata(
        store,
        path,
        ArrayMetadata::V3(metadata),
    )?)
}

/// A v2 array of a NumPy structured dtype: zarrs reads its grid, keys and codecs from the
/// `.zarray` with a same-size placeholder dtype, and [`StoredStructDataType`] decodes the
/// records.
fn open_v2_structured<S: ?Sized + ReadableStorageTraits + 'static>(
    store: Arc<S>,
    path: &str,
    key: &StoreKey,
    json: Json,
    attributes: Option<Json>,
) -> Result<Array<S>, Error> {
    let elements = ArrayMetadataV2::from_json(&json)?;
    let data_type = StoredStructDataType::from_v2_json(&json["dtype"])?;
    let fill = elements
        .fill_value
        .unwrap_or_else(|| data_type.native_layout().zero_value());
    let mut placeholder = json.clone();
    placeholder["dtype"] = Json::from(format!("|V{}", data_type.stored_layout().size()));
    placeholder["fill_value"] = Json::Null;
    let mut v2: ZarrsMetadataV2 =
        serde_json::from_value(placeholder).map_err(|e| invalid(key, e))?;
    if let Some(Json::Object(attributes)) = attributes {
        v2.attributes = attributes;
    }
    let mut v3 = zarrs::convert::array_metadata_v2_to_v3(&v2).map_err(|e| invalid(key, e))?;
    v3.data_type = data_type.metadata();
    v3.fill_value = fill_metadata(data_type.native_layout().value_to_json(&fill)?)
        .map_err(|e| invalid(key, e))?;
    Ok(Array::new_with_metadata(
        store,
        path,
        ArrayMetadata::V3(v3),
    )?)
}
