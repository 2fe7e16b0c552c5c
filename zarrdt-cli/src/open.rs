//! Opening the array at a location (a directory, or `s3://bucket/prefix` with the `s3`
//! feature): zarrs (through `zarrdt::array::open_array`) for the chunks, and
//! the metadata document as written, for what the tool shows.

use std::io::Write;

use serde_json::Value as Json;
use zarrdt::Endian;
use zarrdt::array::{OpenOptions, RecordType, open_store};
use zarrdt::layout::Layout;
use zarrdt::types::DataType;
use zarrdt::zarrs::array::{Array, ArrayShardedExt};
use zarrdt::zarrs::node::{NodePath, meta_key_v2_array, meta_key_v3};
use zarrdt::zarrs::storage::{
    ReadableWritableListableStorage, ReadableWritableListableStorageTraits, StoreKey,
};

use crate::Failure;
use crate::render::Renderer;

/// An array opened for the tool.
pub(crate) struct Opened {
    /// The location as given on the command line.
    pub(crate) path: String,
    /// The store: the array's directory, or an S3 bucket.
    pub(crate) store: ReadableWritableListableStorage,
    /// The array, through zarrs.
    pub(crate) array: Array<dyn ReadableWritableListableStorageTraits>,
    /// 2 or 3.
    pub(crate) zarr_format: u8,
    /// The metadata document as written (`zarr.json` or `.zarray`).
    pub(crate) raw: Json,
    /// One element as zarrs hands it over: every multi-byte value in the machine's byte order.
    pub(crate) native: Layout,
    /// One element as stored: the v2 `dtype`, or the v3 data type in the `bytes` codec's order.
    pub(crate) stored: Layout,
    /// The Zarr v3 data type, where the element type has one.
    pub(crate) data_type: Option<DataType>,
    /// The `endian` of the v3 `bytes` codec (inside `sharding_indexed` too), if written.
    pub(crate) codec_endian: Option<Endian>,
    /// Whether the array has a fill value (a v2 `null` fill has none).
    has_fill: bool,
}

impl Opened {
    /// The error `problem` about this array.
    pub(crate) fn fail(&self, problem: impl std::fmt::Display) -> Failure {
        Failure::at(&self.path, problem)
    }

    /// The data type as the dump contract writes it: v3 JSON where one exists, else the v2
    /// `dtype` as in `.zarray`.
    pub(crate) fn data_type_json(&self) -> Json {
        match &self.data_type {
            Some(data_type) => data_type.to_v3_json(),
            None => self.raw["dtype"].clone(),
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
        let shape = match self.zarr_format {
            2 => &self.raw["chunks"],
            _ => &self.raw["chunk_grid"]["configuration"]["chunk_shape"],
        };
        shape
            .as_array()
            .map(|extents| extents.iter().filter_map(Json::as_u64).collect())
            .unwrap_or_default()
    }

    /// The fill value's bytes (native byte order), unless it is a v2 `null` fill.
    pub(crate) fn fill_bytes(&self) -> Option<&[u8]> {
        self.has_fill.then(|| self.array.fill_value().as_ne_bytes())
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
            Some(bytes) => Renderer::new(layout)
                .json_to(bytes, out)
                .map_err(|e| self.fail(format!("fill value: {e}"))),
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
    let array = limits
        .open(store.clone(), &node)
        .map_err(|e| fail(one_line(&e)))?;
    let node_path = NodePath::new(&node).map_err(|e| fail(e.to_string()))?;
    let read = |key: StoreKey| read_json(&*store, &key).map_err(fail);
    let (zarr_format, raw) = match read(meta_key_v3(&node_path))? {
        Some(raw) => (3, raw),
        None => (
            2,
            read(meta_key_v2_array(&node_path))?
                .ok_or_else(|| fail("not a Zarr array: no zarr.json or .zarray".into()))?,
        ),
    };
    let record = RecordType::of(array.data_type()).map_err(|e| fail(one_line(&e)))?;
    let native = record.native_layout().clone();
    let data_type = record.data_type().cloned();
    let codec_endian = if zarr_format == 3 {
        bytes_codec_endian(&raw["codecs"])
    } else {
        None
    };
    let stored = match (zarr_format, &data_type) {
        (2, _) => Layout::from_v2_json(&raw["dtype"]),
        (_, Some(data_type)) => {
            // A v3 type with multi-byte values and no `endian` is read as little-endian.
            let endian = data_type
                .has_endianness()
                .then(|| codec_endian.unwrap_or(Endian::Little));
            Layout::from_data_type(data_type, endian)
        }
        (_, None) => Ok(native.clone()),
    }
    .map_err(|e| fail(format!("data type: {e}")))?;
    let has_fill = !(zarr_format == 2 && raw["fill_value"].is_null());
    Ok(Opened {
        path: location.to_owned(),
        store,
        array,
        zarr_format,
        raw,
        native,
        stored,
        data_type,
        codec_endian,
        has_fill,
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
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|e| format!("invalid metadata {key}: {e}"))
}

/// The `endian` of the `bytes` codec in a v3 codec list, looking inside `sharding_indexed`.
pub(crate) fn bytes_codec_endian(codecs: &Json) -> Option<Endian> {
    for codec in codecs.as_array()? {
        let name = codec.as_str().or_else(|| codec["name"].as_str());
        let configuration = &codec["configuration"];
        match name {
            Some("bytes") => return configuration["endian"].as_str()?.parse().ok(),
            Some("sharding_indexed") => return bytes_codec_endian(&configuration["codecs"]),
            _ => {}
        }
    }
    None
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
