//! Opening record arrays written by anyone: Zarr v3 (`struct`, legacy `structured`, and every
//! other type zarrs knows) and Zarr v2 (NumPy structured dtypes included), through zarrs, with
//! the metadata checked first ([`limits`]) so that no number in it makes zarrs allocate, loop
//! or overflow beyond what the input and the [`OpenOptions`] allow.

pub(crate) mod limits;
mod v2;
mod v3;

pub use limits::{DEFAULT_MAX_ELEMENT_SIZE, DEFAULT_MAX_SHARD_INDEX_SIZE, OpenOptions};

use std::sync::{Arc, Once};

use serde_json::Value as Json;
use zarrs::array::data_type::api::{DataTypeRuntimePluginV3, register_data_type_v3};
use zarrs::array::{Array, DataTypeTraitsV3};
use zarrs::node::{meta_key_v2_array, meta_key_v2_attributes, meta_key_v2_group, meta_key_v3};
use zarrs::storage::{ReadableStorageTraits, StorageError, StoreKey};

use crate::codec::diagnose;
use crate::node::node_path;
use crate::{Error, StructDataType};

/// Registers zarrdt's `struct` data type with zarrs at run time, so that it takes precedence
/// over any other `struct` plugin linked into the program (zarrs also finds it at link time,
/// through `inventory`), and zarrdt's zlib, bz2, zstd, gzip and blosc codecs, ahead of zarrs'
/// own (decoding bounded by the chunk's size; numcodecs' default level for zlib and bz2).
/// Idempotent; the functions of this crate call it.
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

/// Reads the JSON document at `key`, if there is one: a JSON object, or an error.
pub(crate) fn read_json<S: ?Sized + ReadableStorageTraits>(
    store: &S,
    key: &StoreKey,
) -> Result<Option<Json>, Error> {
    let Some(bytes) = store.get(key).map_err(|error| unreadable(key, error))? else {
        return Ok(None);
    };
    let json = zarrdt_core::parse_metadata_json(&bytes)
        .map_err(|error| Error::metadata(key, None, error))?;
    if !json.is_object() {
        let kind = match json {
            Json::Array(_) => "an array",
            Json::String(_) => "a string",
            Json::Number(_) => "a number",
            Json::Bool(_) => "a boolean",
            _ => "null",
        };
        return Err(Error::metadata(
            key,
            None,
            format!("must be a JSON object, not {kind}"),
        ));
    }
    Ok(Some(json))
}

/// zarrs' metadata type (`T`) of the document at `key` (which zarrdt's [`limits`] checked
/// first): an error names the member zarrs refused (`order`, `filters[0]`) and the reason,
/// where serde alone would say only the reason.
fn zarrs_metadata<T: serde::de::DeserializeOwned>(key: &str, json: Json) -> Result<T, Error> {
    serde_path_to_error::deserialize(json).map_err(|error| {
        let member = error.path().to_string();
        let member = (member != ".").then_some(member);
        Error::metadata(key, member.as_deref(), error.into_inner())
    })
}

/// Opens the Zarr array at `path` (`"/"` for the root of the store, `"/group/array"` below it;
/// without the leading `/` as well, as zarr-python takes paths) for reading and writing
/// records through zarrs, with the default [`OpenOptions`] (elements of at most 16 MiB).
///
/// * Zarr v3: every data type zarrs knows, and struct types (`struct` and the legacy
///   `structured`). A struct's data type and fill value are checked by zarrdt first, so that a
///   bad one is an error naming the field and the JSON. A legacy base64 struct fill is read in
///   the byte order of the array's `bytes` codec (also inside `sharding_indexed`), as the
///   `structured` spec says.
/// * Zarr v2: every dtype zarrs knows, and NumPy structured dtypes (per-field byte order,
///   padding, subarrays, nested records; [`StructDataType`]),
///   with the compressors, filters, `order` and dimension separator zarrs supports (Blosc,
///   zstd, gzip, …). A `null` fill value of a structured dtype reads as the zero record, as
///   NumPy fills it.
///
/// The metadata is untrusted. An element larger than its limit is [`Error::ElementTooLarge`]
/// and a shard whose index is larger than its limit is [`Error::ShardIndexTooLarge`] (both
/// limits are in [`OpenOptions`]), before anything of their size is allocated. Shapes whose
/// products overflow, chunk grids other than `regular`, chunk key encodings other than
/// `default` and `v2`, and codec configurations zarrs cannot use safely are
/// [`Error::Metadata`] naming the document and the member. A `path` that is not a node path
/// is zarrs' [`ArrayCreateError::NodePathError`](zarrs::array::ArrayCreateError::NodePathError); a group there is [`Error::Group`], nothing
/// [`Error::NotAnArray`]. Opening takes memory in proportion
/// to the metadata and one element.
///
/// Missing chunks read as the fill value. Do not call zarrs' `store_metadata` on a Zarr v2
/// structured array opened this way: zarrs would write its in-memory v3 form.
///
/// ```no_run
/// use std::sync::Arc;
/// use zarrdt::array::open_array;
/// use zarrdt::array::ReadRecords;
/// use zarrdt::zarrs::filesystem::FilesystemStore;
///
/// let store = Arc::new(FilesystemStore::new("data.zarr")?);
/// let array = open_array(store, "/")?;
/// let records = array.retrieve_values(&[0..10])?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn open_array<S: ?Sized + ReadableStorageTraits + 'static>(
    store: Arc<S>,
    path: &str,
) -> Result<Array<S>, Error> {
    OpenOptions::default().open(store, path)
}

impl OpenOptions {
    /// Opens the Zarr array at `path` as [`open_array`] does, within these limits.
    pub fn open<S: ?Sized + ReadableStorageTraits + 'static>(
        &self,
        store: Arc<S>,
        path: &str,
    ) -> Result<Array<S>, Error> {
        register();
        let (path, node) = node_path(path)?;
        let path = path.as_ref();
        // An array that does not open for a codec's sake is an error naming that codec.
        let key = meta_key_v3(&node);
        if let Some(mut json) = read_json(&*store, &key)? {
            if json.get("node_type").and_then(Json::as_str) == Some("group") {
                return Err(group(path, &key));
            }
            if let Some(codecs) = json.get_mut("codecs") {
                v3::drop_identity_astype(codecs);
            }
            if let Some(error) = diagnose::misread_v3(path, &json) {
                return Err(error);
            }
            // The codecs alone are kept for the diagnosis: a struct's document can be large.
            let codecs = json["codecs"].clone();
            return v3::open(self, store, path, &key, json)
                .map_err(|error| named_codec(error, || diagnose::v3(path, &codecs)));
        }
        let key = meta_key_v2_array(&node);
        if let Some(mut json) = read_json(&*store, &key)? {
            v2::drop_identity_astype(&mut json);
            if let Some(error) = diagnose::misread_v2(path, &json) {
                return Err(error);
            }
            let attributes = read_json(&*store, &meta_key_v2_attributes(&node))?;
            return v2::open(self, store, path, &key, json.clone(), attributes)
                .map_err(|error| named_codec(error, || diagnose::v2(path, &json)));
        }
        let key = meta_key_v2_group(&node);
        if store
            .size_key(&key)
            .map_err(|error| unreadable(&key, error))?
            .is_some()
        {
            return Err(group(path, &key));
        }
        Err(Error::NotAnArray {
            path: path.to_owned(),
        })
    }
}

/// Whether the `configuration` of an `astype` filter (Zarr v2) or `numcodecs.astype` codec
/// (Zarr v3) converts a type to itself: numcodecs' `AsType` with `encode_dtype` equal to
/// `decode_dtype` changes no byte, and zarrs has no codec of that name, so it is read as if it
/// were not there.
fn astype_changes_nothing(configuration: &Json) -> bool {
    let encoded = configuration.get("encode_dtype").and_then(Json::as_str);
    encoded.is_some() && encoded == configuration.get("decode_dtype").and_then(Json::as_str)
}

/// [`Error::MetadataRead`]: the store's `error` reading the metadata document at `key`.
fn unreadable(key: &StoreKey, error: StorageError) -> Error {
    Error::MetadataRead {
        key: key.to_string(),
        source: error,
    }
}

/// [`Error::Group`]: the group at `path`, whose metadata is at `key`.
fn group(path: &str, key: &StoreKey) -> Error {
    Error::Group {
        path: path.to_owned(),
        key: key.to_string(),
    }
}

/// zarrs' `error` creating an array, as the error naming the codec it could not make, if a
/// codec is why (`diagnose`); zarrdt's own errors about the metadata stay as they are.
fn named_codec(error: Error, diagnose: impl FnOnce() -> Option<Error>) -> Error {
    match error {
        Error::Create(_) => diagnose().unwrap_or(error),
        other => other,
    }
}
