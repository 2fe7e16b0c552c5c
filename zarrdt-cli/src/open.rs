//! Opening the array at a location (a directory, or `s3://bucket/prefix` with the `s3`
//! feature): zarrs (through `zarrdt::array::open_array`) for the chunks, and zarrdt's reading
//! of the metadata document (`zarrdt::metadata`) for what the tool shows.

use std::io::Write;

use serde_json::Value as Json;
use zarrdt::Endian;
use zarrdt::array::{OpenOptions, RecordType, open_store};
use zarrdt::layout::Layout;
use zarrdt::metadata::{ArrayMetadataV2, ArrayMetadataV3};
use zarrdt::types::DataType;
use zarrdt::value::{JsonWriteError, JsonWriter};
use zarrdt::zarrs::array::{Array, ArrayShardedExt};
use zarrdt::zarrs::node::{NodePath, meta_key_v2_array, meta_key_v3};
use zarrdt::zarrs::storage::{
    ReadableWritableListableStorage, ReadableWritableListableStorageTraits, StoreKey,
};

use crate::Failure;
use crate::fields::numpy_descr;

/// The array's metadata document, as zarrdt reads it.
pub(crate) enum Metadata {
    /// `zarr.json`.
    V3(ArrayMetadataV3),
    /// `.zarray`.
    V2(ArrayMetadataV2),
}

/// An array opened for the tool.
pub(crate) struct Opened {
    /// The location as given on the command line.
    pub(crate) path: String,
    /// The store: the array's directory, or an S3 bucket.
    pub(crate) store: ReadableWritableListableStorage,
    /// The array, through zarrs.
    pub(crate) array: Array<dyn ReadableWritableListableStorageTraits>,
    /// The metadata document.
    pub(crate) metadata: Metadata,
    /// One element as zarrs hands it over: every multi-byte value in the machine's byte order.
    pub(crate) native: Layout,
    /// One element as stored: the v2 `dtype`, or the v3 data type in the `bytes` codec's order.
    pub(crate) stored: Layout,
    /// The Zarr v3 data type, where the element type has one.
    pub(crate) data_type: Option<DataType>,
}

impl Opened {
    /// The error `problem` about this array.
    pub(crate) fn fail(&self, problem: impl std::fmt::Display) -> Failure {
        Failure::at(&self.path, problem)
    }

    /// 2 or 3.
    pub(crate) fn zarr_format(&self) -> u8 {
        match self.metadata {
            Metadata::V3(_) => 3,
            Metadata::V2(_) => 2,
        }
    }

    /// The `endian` of the v3 `bytes` codec (inside `sharding_indexed` too), if written.
    pub(crate) fn codec_endian(&self) -> Option<Endian> {
        match &self.metadata {
            Metadata::V3(v3) => v3.bytes_codec.and_then(|codec| codec.endian()),
            Metadata::V2(_) => None,
        }
    }

    /// The data type as the dump contract writes it: v3 JSON where one exists, else the v2
    /// `dtype` as NumPy writes it (as in `.zarray`).
    pub(crate) fn data_type_json(&self) -> Result<Json, Failure> {
        match &self.data_type {
            Some(data_type) => Ok(data_type.to_v3_json()),
            None => numpy_descr(&self.stored).map_err(|e| self.fail(format!("data type: {e}"))),
        }
    }

    /// The shape of the chunks as zarr-python's `Array.chunks` gives it: the inner chunks of a
    /// sharded array.
    pub(crate) fn read_chunk_shape(&self) -> Vec<u64> {
        if let Some(inner) = self.array.subchunk_shape() {
            return inner.iter().map(|extent| extent.get()).collect();
        }
        self.grid_chunk_shape()
    }

    /// The shape of the chunks of the chunk grid (the shards of a sharded array).
    pub(crate) fn grid_chunk_shape(&self) -> Vec<u64> {
        match &self.metadata {
            Metadata::V3(v3) => v3.chunk_shape.clone(),
            Metadata::V2(v2) => v2.chunks.clone(),
        }
    }

    /// The fill value's bytes (native byte order), unless it is a v2 `null` fill.
    pub(crate) fn fill_bytes(&self) -> Option<&[u8]> {
        let has_fill = match &self.metadata {
            Metadata::V3(_) => true,
            Metadata::V2(v2) => v2.fill_value.is_some(),
        };
        has_fill.then(|| self.array.fill_value().as_ne_bytes())
    }

    /// Writes the fill value's JSON (every leaf in its v3 fill value form) for the record of
    /// `layout` (the native layout, or fields of it at their offsets) to `out`, from the
    /// fill's bytes and without a value tree, however large the record; `null` for a v2
    /// `null` fill.
    pub(crate) fn write_fill_json(
        &self,
        layout: &Layout,
        out: &mut impl Write,
    ) -> Result<(), Failure> {
        match self.fill_bytes() {
            None => out.write_all(b"null").map_err(|e| Failure::output(&e)),
            Some(bytes) => JsonWriter::new(layout)
                .write(bytes, out)
                .map_err(|error| match error {
                    JsonWriteError::Output(error) => Failure::output(&error),
                    invalid => self.fail(format!("fill value: {invalid}")),
                }),
        }
    }
}

/// Opens the array at `location` (a directory, or `s3://bucket/prefix`) within `limits`.
pub(crate) fn open(location: &str, limits: &OpenOptions) -> Result<Opened, Failure> {
    let fail = |problem: String| Failure::at(location, problem);
    if !location.contains("://") {
        match std::fs::metadata(location) {
            Err(error) => return Err(fail(error.to_string())),
            Ok(metadata) if !metadata.is_dir() => {
                return Err(fail(
                    "not a Zarr array: a file, not a directory with zarr.json or .zarray".into(),
                ));
            }
            Ok(_) => {}
        }
    }
    if location.starts_with("s3://") && !cfg!(feature = "s3") {
        return Err(fail(
            "S3 locations need the s3 feature: cargo install --path zarrdt-cli --features s3"
                .into(),
        ));
    }
    let (store, node) = open_store(location).map_err(|e| fail(one_line(&e)))?;
    let array = limits.open(store.clone(), &node).map_err(|error| {
        // S3 answers a missing bucket as it answers a missing object: say both.
        let bucket = location
            .strip_prefix("s3://")
            .and_then(|rest| rest.split('/').next());
        match (&error, bucket) {
            (zarrdt::array::Error::NotAnArray { .. }, Some(bucket)) => {
                fail(format!("{}, or no bucket `{bucket}`", one_line(&error)))
            }
            _ => fail(one_line(&error)),
        }
    })?;
    let record = RecordType::of(array.data_type()).map_err(|e| fail(one_line(&e)))?;
    let node_path = NodePath::new(&node).map_err(|e| fail(e.to_string()))?;
    let read = |key: StoreKey| read_json(&*store, &key).map_err(&fail);
    let parsed = |error: zarrdt::Error| fail(format!("metadata: {}", one_line(&error)));
    let metadata = match read(meta_key_v3(&node_path))? {
        Some(json) => Metadata::V3(ArrayMetadataV3::from_json(&json).map_err(parsed)?),
        None => match read(meta_key_v2_array(&node_path))? {
            Some(json) => Metadata::V2(ArrayMetadataV2::from_json(&json).map_err(parsed)?),
            None => return Err(fail("not a Zarr array: no zarr.json or .zarray".into())),
        },
    };
    let stored = match &metadata {
        Metadata::V2(v2) => Ok(v2.layout.clone()),
        // A v3 type with multi-byte values and no `endian` is read as little-endian.
        Metadata::V3(v3) => v3.layout(),
    }
    .map_err(|e| fail(format!("data type: {e}")))?;
    Ok(Opened {
        path: location.to_owned(),
        store,
        array,
        metadata,
        native: record.native_layout().clone(),
        stored,
        data_type: record.data_type().cloned(),
    })
}

/// The JSON document at `key` in the store, if there is one.
fn read_json(
    store: &dyn ReadableWritableListableStorageTraits,
    key: &StoreKey,
) -> Result<Option<Json>, String> {
    let Some(bytes) = store.get(key).map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    zarrdt::metadata::parse_metadata_json(&bytes)
        .map(Some)
        .map_err(|e| format!("invalid metadata {key}: {e}"))
}

/// An error's message on one line.
pub fn one_line(error: &dyn std::fmt::Display) -> String {
    let text = error.to_string();
    let mut line = String::with_capacity(text.len());
    for (index, part) in text.lines().map(str::trim).enumerate() {
        if index > 0 && !part.is_empty() {
            line.push(' ');
        }
        line.push_str(part);
    }
    line
}
