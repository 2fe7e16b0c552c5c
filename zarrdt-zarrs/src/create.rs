//! Creating record arrays in one call: [`ArrayOptions`] says the shape, chunking, sharding,
//! compression and byte order; zarrs builds the array; zarrdt supplies the data type and the
//! fill value and writes the metadata in the current spec forms.

use std::sync::Arc;

use serde_json::{Map, Value as Json, json};
use zarrdt_core::{DataType as ZarrDataType, ENUMS_ATTRIBUTE, Endian, Layout, Value, ZarrType};
use zarrs::array::codec::api::CodecMetadataOptions;
use zarrs::array::codec::{
    BloscCodec, BloscCompressionLevel, BloscCompressor, BloscShuffleMode, BytesCodec, GzipCodec,
};
use zarrs::array::{
    Array, ArrayBuilder, ArrayMetadata, ArrayMetadataOptions, BytesToBytesCodecTraits, DataType,
};
use zarrs::metadata::v3::MetadataV3;
use zarrs::node::{NodePath, meta_key_v2_array, meta_key_v2_group, meta_key_v3};
use zarrs::storage::{ReadableWritableStorageTraits, StoreKey, StorePrefix, StorePrefixError};

use crate::codec::lz4::Lz4Codec;
use crate::codec::lzma::LzmaCodec;
use crate::codec::zlib_bz2::Kind;
use crate::convert::{endianness_of, fill_metadata};
use crate::node::node_path;
use crate::open::{OpenOptions, limits, read_json};
use crate::{Error, StructDataType, register};

/// How chunks are compressed: zarrs' zstd, gzip and Blosc, and numcodecs' zlib, bz2, lz4 and
/// lzma, under the names zarr-python writes them with (Zarr v3 `numcodecs.lz4`, v2 `lz4`), so
/// that zarr-python reads them.
///
/// ```
/// use std::sync::Arc;
/// use zarrdt::array::{ArrayOptions, Compression, ReadRecords, WriteRecords, open_array};
/// use zarrdt::zarrs::storage::store::MemoryStore;
///
/// let store = Arc::new(MemoryStore::new());
/// let array = ArrayOptions::new(vec![6], vec![3])
///     .compression(Compression::Lzma { preset: 6 })
///     .create(store.clone(), "/", &0u32)?;
/// array.store_records(&[0..4], &[1u32, 2, 3, 4])?;
/// let codecs = serde_json::to_value(array.metadata())?["codecs"].clone();
/// assert_eq!(codecs[1]["name"], "numcodecs.lzma");
/// let back: Vec<u32> = open_array(store, "/")?.retrieve_records(&[0..6])?;
/// assert_eq!(back, [1, 2, 3, 4, 0, 0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Compression {
    /// Not compressed.
    None,
    /// Zstandard at `level` (zarr-python 3's default compressor).
    Zstd {
        /// Compression level, 1 (fast) to 22 (small); 0 is zstd's default (3), and negative
        /// levels (to -131072) are faster still. Any other is an error when the array is
        /// created.
        level: i32,
    },
    /// Gzip at `level`, 0 to 9.
    Gzip {
        /// Compression level.
        level: u32,
    },
    /// Blosc with LZ4 and byte shuffling (zarr-python 2's default compressor), at `level`
    /// 0 to 9.
    BloscLz4 {
        /// Compression level.
        level: u8,
    },
    /// zlib at `level`, 0 to 9: numcodecs' `Zlib` (Zarr v3 `numcodecs.zlib`, v2 `zlib`).
    Zlib {
        /// Compression level.
        level: u32,
    },
    /// bzip2 at `level`, 1 to 9: numcodecs' `BZ2` (Zarr v3 `numcodecs.bz2`, v2 `bz2`).
    Bz2 {
        /// Compression level.
        level: u32,
    },
    /// An LZ4 block after its 4-byte length: numcodecs' `LZ4` (Zarr v3 `numcodecs.lz4`, v2
    /// `lz4`), written with `acceleration` 1 (lz4_flex compresses at LZ4's default speed).
    Lz4,
    /// An xz stream with a CRC64 check at `preset` 0 to 9 (optionally with the extreme flag,
    /// 2³¹): numcodecs' `LZMA` (Zarr v3 `numcodecs.lzma`, v2 `lzma`).
    Lzma {
        /// The xz preset (6 is xz's default).
        preset: u32,
    },
}

impl Default for Compression {
    /// Zstandard at level 3.
    fn default() -> Self {
        Compression::Zstd { level: 3 }
    }
}

impl Compression {
    /// The levels [`Compression::Zstd`] takes: zstd's own, from -131072 (fastest) to 22
    /// (smallest); 0 is zstd's default (3).
    ///
    /// ```
    /// use zarrdt::array::Compression;
    ///
    /// assert_eq!(Compression::zstd_levels(), -131_072..=22);
    /// ```
    pub fn zstd_levels() -> std::ops::RangeInclusive<i32> {
        zstd::compression_level_range()
    }
}

/// The shape, chunking, sharding, compression and byte order of an array to create; then one
/// call creates it for a record type.
///
/// With a Rust record type:
///
/// ```
/// use std::sync::Arc;
/// use zarrdt::zarrs::storage::store::MemoryStore;
/// use zarrdt::{ArrayOptions, Compression, Endian, ReadRecords, WriteRecords, ZarrStruct};
///
/// #[derive(ZarrStruct, Clone, Copy, Debug, PartialEq, Default)]
/// struct Sample { time: f64, value: f32, channel: u16 }
///
/// let store = Arc::new(MemoryStore::new());
/// let samples = vec![Sample { time: 0.5, value: 2.0, channel: 3 }; 1000];
/// let array = ArrayOptions::new(vec![1_000_000], vec![10_000])
///     .shards(vec![100_000]) // 10 chunks a shard
///     .endian(Endian::Big)
///     .compression(Compression::Zstd { level: 5 })
///     .create(store, "/", &Sample::default())?;
/// array.store_records(&[0..samples.len() as u64], &samples)?;
/// let back: Vec<Sample> = array.retrieve_records(&[10..20])?;
/// assert_eq!(back, samples[10..20]);
/// # Ok::<(), zarrdt::array::Error>(())
/// ```
///
/// With a type known only at run time:
///
/// ```
/// use std::sync::Arc;
/// use zarrdt::types::DataType;
/// use zarrdt::value::{Record, Value};
/// use zarrdt::array::{ArrayOptions, Compression};
/// use zarrdt::array::{ReadRecords, WriteRecords};
/// use zarrdt::zarrs::storage::store::MemoryStore;
/// use serde_json::json;
///
/// let sample = DataType::from_v3_json(&json!({"name": "struct", "configuration": {"fields": [
///     {"name": "time", "data_type": "float64"}, {"name": "channel", "data_type": "uint16"}]}}))?;
/// let fill: Record = [("time", Value::Float64(f64::NAN)), ("channel", Value::UInt16(0))]
///     .into_iter()
///     .collect();
/// let store = Arc::new(MemoryStore::new());
/// let array = ArrayOptions::new(vec![100], vec![10])
///     .compression(Compression::Gzip { level: 5 })
///     .create_with(store, "/", &sample, &fill.clone().into())?;
/// let one: Record = [("time", Value::Float64(0.5)), ("channel", Value::UInt16(3))]
///     .into_iter()
///     .collect();
/// array.store_values(&[5..6], &[one.clone().into()])?;
/// let read = array.retrieve_values(&[4..6])?;
/// assert_eq!(read, [fill.into(), one.into()]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct ArrayOptions {
    shape: Vec<u64>,
    chunk_shape: Vec<u64>,
    shard_shape: Option<Vec<u64>>,
    endian: Endian,
    compression: Compression,
    dimension_names: Option<Vec<Option<String>>>,
    attributes: Map<String, Json>,
    overwrite: bool,
    limits: OpenOptions,
}

impl ArrayOptions {
    /// An array of `shape` in chunks of `chunk_shape`: little-endian, zstd-compressed, not
    /// sharded.
    pub fn new(shape: Vec<u64>, chunk_shape: Vec<u64>) -> Self {
        ArrayOptions {
            shape,
            chunk_shape,
            shard_shape: None,
            endian: Endian::Little,
            compression: Compression::default(),
            dimension_names: None,
            attributes: Map::new(),
            overwrite: false,
            limits: OpenOptions::new(),
        }
    }

    /// Groups the chunks into shards of `shard_shape` (a multiple of the chunk shape): one
    /// object per shard in the store, with an index of its chunks (`sharding_indexed`, with a
    /// crc32c checksum of the index). Shards whose index is beyond the limit the array is made
    /// within ([`ArrayOptions::within`]; by default 16 Mi chunks, an index of
    /// [`DEFAULT_MAX_SHARD_INDEX_SIZE`](crate::DEFAULT_MAX_SHARD_INDEX_SIZE)) are
    /// [`Error::ShardIndexTooLarge`] when the array is created, since opening it with that
    /// limit would refuse them.
    #[must_use]
    pub fn shards(mut self, shard_shape: Vec<u64>) -> Self {
        self.shard_shape = Some(shard_shape);
        self
    }

    /// The byte order of multi-byte values in the chunks (the `bytes` codec's `endian`,
    /// written whenever the type has multi-byte values).
    #[must_use]
    pub fn endian(mut self, endian: Endian) -> Self {
        self.endian = endian;
        self
    }

    /// How chunks are compressed.
    #[must_use]
    pub fn compression(mut self, compression: Compression) -> Self {
        self.compression = compression;
        self
    }

    /// Names of the dimensions.
    #[must_use]
    pub fn dimension_names<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.dimension_names = Some(names.into_iter().map(|name| Some(name.into())).collect());
        self
    }

    /// User attributes.
    #[must_use]
    pub fn attributes(mut self, attributes: Map<String, Json>) -> Self {
        self.attributes = attributes;
        self
    }

    /// The user attributes the array is created with ([`ArrayOptions::attributes`]).
    pub fn user_attributes(&self) -> &Map<String, Json> {
        &self.attributes
    }

    /// Whether an array or group already at the path is replaced: if there is one (its
    /// `zarr.json`, `.zarray` or `.zgroup`), everything under the path (its metadata, chunks
    /// and any nodes below it) is erased before the new metadata is written. Without it
    /// (the default), creating an array where a node is already is [`Error::NodeExists`]:
    /// the old chunks would stay under the new metadata and read as the new type's values.
    /// zarr-python refuses the same without `overwrite=True`.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use zarrdt::array::{ArrayOptions, Error, ReadRecords, WriteRecords};
    /// use zarrdt::zarrs::storage::store::MemoryStore;
    ///
    /// let store = Arc::new(MemoryStore::new());
    /// let first = ArrayOptions::new(vec![4], vec![2]).create(store.clone(), "/", &0.5f64)?;
    /// first.store_records(&[0..4], &[1.5f64; 4])?;
    /// let again = ArrayOptions::new(vec![4], vec![2]).create(store.clone(), "/", &0u64);
    /// assert!(matches!(again, Err(Error::NodeExists { .. })));
    ///
    /// let replaced = ArrayOptions::new(vec![4], vec![2])
    ///     .overwrite(true)
    ///     .create(store, "/", &0u64)?;
    /// assert_eq!(replaced.retrieve_records::<u64>(&[0..4])?, [0; 4], "no chunk of the old one");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn overwrite(mut self, overwrite: bool) -> Self {
        self.overwrite = overwrite;
        self
    }

    /// The limits of the readers the array is made for ([`OpenOptions::new`]'s by default,
    /// those of [`open_array`](crate::open_array)): an array whose element (record) or shard
    /// index is beyond them is [`Error::ElementTooLarge`] or [`Error::ShardIndexTooLarge`] when
    /// it is created, before anything is written or erased, since [`OpenOptions::open`] with
    /// them would refuse it. Raise them here as you raise them to open the array.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use zarrdt::array::{ArrayOptions, Error, OpenOptions};
    /// use zarrdt::layout::Layout;
    /// use zarrdt::zarrs::storage::store::MemoryStore;
    ///
    /// // A record of 20 MB: one field of 20 000 000 bytes.
    /// let record = Layout::from_v2_json(&serde_json::json!([["frame", "|u1", [20_000_000]]]))?;
    /// let store = Arc::new(MemoryStore::new());
    /// let refused = ArrayOptions::new(vec![4], vec![1]).create_v2(store.clone(), "/", &record, None);
    /// assert!(matches!(refused, Err(Error::ElementTooLarge { size: 20_000_000, .. })));
    ///
    /// let limits = OpenOptions::new().max_element_size(32 << 20);
    /// ArrayOptions::new(vec![4], vec![1])
    ///     .within(limits.clone())
    ///     .create_v2(store.clone(), "/", &record, None)?;
    /// let array = limits.open(store, "/")?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn within(mut self, limits: OpenOptions) -> Self {
        self.limits = limits;
        self
    }

    /// Names the variants of `T`'s enum fields (`#[derive(ZarrEnum)]`) in the attribute
    /// [`ENUMS_ATTRIBUTE`] (`"zarrdt:enums"`: each enum field's path to its variants, name to
    /// value), replacing any the attributes hold; nothing if `T` has no enum. The stored values
    /// stay integers; the attribute lets other readers (and `zarrdt inspect`) show names.
    /// [`ArrayOptions::create`] does this itself; call it for [`ArrayOptions::create_v2`].
    #[must_use]
    pub fn enums_of<T: ZarrType>(mut self) -> Self {
        if let Some(enums) = T::TYPE.enums_attribute() {
            self.attributes.insert(ENUMS_ATTRIBUTE.to_owned(), enums);
        }
        self
    }

    /// Creates a Zarr v3 array of `T` at `path` (`"/"` for the store's root, `"/group/array"`
    /// or `"group/array"` below it) whose fill value
    /// is `fill`, writes its `zarr.json`, and returns it for reading and writing `T`s. The
    /// variants of `T`'s enum fields are named in the attributes ([`ArrayOptions::enums_of`]).
    /// An array or group already at `path` is [`Error::NodeExists`], unless
    /// [`ArrayOptions::overwrite`], said before any other fault (a caller cleaning up after a
    /// failed create never takes that node for one it made); shapes that do not fit together
    /// (a shard shape that is no multiple of the chunk shape) and compression levels out of
    /// range are [`Error::Metadata`], and an element or shard index beyond the limits of
    /// [`ArrayOptions::within`] [`Error::ElementTooLarge`] or [`Error::ShardIndexTooLarge`],
    /// before anything is written or erased.
    pub fn create<T: ZarrType, S: ?Sized + ReadableWritableStorageTraits + 'static>(
        &self,
        store: Arc<S>,
        path: &str,
        fill: &T,
    ) -> Result<Array<S>, Error> {
        self.clone()
            .enums_of::<T>()
            .create_with(store, path, &T::data_type(), &fill.to_value())
    }

    /// Creates a Zarr v3 array of `data_type` (a type only known at run time) whose fill value
    /// is `fill`, writes its `zarr.json`, and returns it; refused as [`ArrayOptions::create`]
    /// says.
    pub fn create_with<S: ?Sized + ReadableWritableStorageTraits + 'static>(
        &self,
        store: Arc<S>,
        path: &str,
        data_type: &ZarrDataType,
        fill: &Value,
    ) -> Result<Array<S>, Error> {
        register();
        let (path, node) = node_path(path)?;
        let path = path.as_ref();
        let key = meta_key_v3(&node);
        self.check_new(&*store, &node, path, &key, "chunk_grid", data_type.size())?;
        let fill_json = data_type.fill_value_to_v3_json(fill)?;
        let zarrs_type = zarrs_data_type(data_type, &key)?;
        let bytes = BytesCodec::new(
            data_type
                .has_endianness()
                .then(|| endianness_of(self.endian)),
        );
        let compressors = self.compressors(data_type.size(), &key, "codecs")?;
        let (grid, inner) = match &self.shard_shape {
            Some(shards) => (shards.clone(), Some(self.chunk_shape.clone())),
            None => (self.chunk_shape.clone(), None),
        };
        let mut builder = ArrayBuilder::new(
            self.shape.clone(),
            grid,
            zarrs_type,
            fill_metadata(fill_json.clone()),
        );
        builder
            .array_to_bytes_codec(Arc::new(bytes))
            .bytes_to_bytes_codecs(compressors)
            .subchunk_shape(inner)
            .attributes(self.attributes.clone())
            .dimension_names(self.dimension_names.clone());
        let array = builder.build(store.clone(), path)?;
        self.make_room(&*store, &node, path)?;
        // zarrs writes a fill object in hash order; a record's fields have an order, so the
        // document is written with the fill value as zarrdt writes it.
        let options = ArrayMetadataOptions::default().with_include_zarrs_metadata(false);
        let ArrayMetadata::V3(metadata) = array.metadata_opt(&options) else {
            unreachable!("ArrayBuilder builds Zarr v3 arrays")
        };
        let mut document =
            serde_json::to_value(metadata).map_err(|e| Error::metadata(&key, None, e))?;
        document["fill_value"] = fill_json;
        write_document(&*store, &key, &document)?;
        Ok(array)
    }

    /// Creates a Zarr v2 array (`.zarray`) of elements stored in `layout` (a NumPy dtype: per
    /// field byte order and subarray fields allowed, no padding), whose fill value is `fill`
    /// (`None`: no fill value), and returns it, opened through zarrs. Zarr v2 has no sharding,
    /// so [`ArrayOptions::shards`] is an error here; the byte order is the layout's own. Refused
    /// as [`ArrayOptions::create`] says.
    pub fn create_v2<S: ?Sized + ReadableWritableStorageTraits + 'static>(
        &self,
        store: Arc<S>,
        path: &str,
        layout: &Layout,
        fill: Option<&Value>,
    ) -> Result<Array<S>, Error> {
        let (path, node) = node_path(path)?;
        let path = path.as_ref();
        let key = meta_key_v2_array(&node);
        self.check_new(&*store, &node, path, &key, "chunks", layout.size())?;
        if self.shard_shape.is_some() {
            return Err(Error::metadata(
                &key,
                None,
                "Zarr v2 arrays cannot be sharded (sharding is a Zarr v3 codec)",
            ));
        }
        // The codec checks the settings, whichever writes the configuration.
        let codecs = self.compressors(layout.size(), &key, "compressor")?;
        let compressor = match &self.compression {
            Compression::None => Json::Null,
            Compression::Zstd { level } => json!({"id": "zstd", "level": level}),
            Compression::Gzip { level } => json!({"id": "gzip", "level": level}),
            Compression::BloscLz4 { level } => {
                json!({"id": "blosc", "cname": "lz4", "clevel": level, "shuffle": 1, "blocksize": 0})
            }
            Compression::Zlib { .. }
            | Compression::Bz2 { .. }
            | Compression::Lz4
            | Compression::Lzma { .. } => {
                // numcodecs' configuration is the codec's v2 one.
                let codec = codecs.first().ok_or_else(|| {
                    Error::metadata(&key, Some("compressor"), "no codec for the compression")
                })?;
                let mut configuration = Json::Object(
                    codec
                        .configuration_v2(&CodecMetadataOptions::default())
                        .map(Map::from)
                        .unwrap_or_default(),
                );
                let id = codec.name_v2().ok_or_else(|| {
                    Error::metadata(&key, Some("compressor"), "the codec has no Zarr v2 id")
                })?;
                configuration["id"] = Json::from(id.into_owned());
                configuration
            }
        };
        let document = json!({
            "zarr_format": 2,
            "shape": self.shape,
            "chunks": self.chunk_shape,
            "dtype": layout.to_v2_json()?,
            "fill_value": layout.fill_value_to_v2_json(fill)?,
            "order": "C",
            "compressor": compressor,
            "filters": null,
            "dimension_separator": ".",
        });
        self.make_room(&*store, &node, path)?;
        write_document(&*store, &key, &document)?;
        if !self.attributes.is_empty() {
            let key = zarrs::node::meta_key_v2_attributes(&node);
            write_document(&*store, &key, &Json::Object(self.attributes.clone()))?;
        }
        self.limits.open(store, path)
    }

    /// What is checked before anything is written or erased, in this order: a node already at
    /// `node` of `store` (unless overwritten), the size of an element (`element_size` bytes)
    /// against the limits, then the shapes (`grid`: the member of the document `key` that
    /// holds the chunk shape).
    fn check_new<S: ?Sized + ReadableWritableStorageTraits>(
        &self,
        store: &S,
        node: &NodePath,
        path: &str,
        key: &StoreKey,
        grid: &str,
        element_size: usize,
    ) -> Result<(), Error> {
        self.refuse_existing(store, node, path)?;
        self.limits.check_element_size(path, element_size)?;
        self.check_shape(key, grid, element_size)
    }

    /// Checks the shapes before anything is written: as many chunk (and shard) dimensions as
    /// the array has, every chunk extent positive, every shard extent a positive multiple of
    /// the chunk's, and then the limits opening checks a document's shapes by (no count
    /// of elements or bytes, of `element_size` each, beyond what zarrs computes without
    /// overflowing, no shard index beyond the limit of [`ArrayOptions::within`]), so that no
    /// array is created that would not open within the limits. An error names the
    /// member of the document `key` at fault (`grid`: the one that holds the chunk shape).
    fn check_shape(&self, key: &StoreKey, grid: &str, element_size: usize) -> Result<(), Error> {
        let dimensions = self.shape.len();
        let invalid = |reason: String| Error::metadata(key, Some(grid), reason);
        if self.chunk_shape.len() != dimensions {
            return Err(invalid(format!(
                "the chunk shape {:?} has {} dimensions, the array's shape {:?} {dimensions}",
                self.chunk_shape,
                self.chunk_shape.len(),
                self.shape
            )));
        }
        if self.chunk_shape.contains(&0) {
            return Err(invalid(format!(
                "the chunk shape {:?} has an extent of 0",
                self.chunk_shape
            )));
        }
        let key = &key.to_string();
        limits::check_element_count(key, "shape", &self.shape)?;
        let Some(shards) = &self.shard_shape else {
            return limits::check_chunks(key, grid, &self.shape, &self.chunk_shape, element_size);
        };
        let divides = shards.len() == dimensions
            && shards
                .iter()
                .zip(&self.chunk_shape)
                .all(|(&shard, &chunk)| shard > 0 && shard.is_multiple_of(chunk));
        if !divides {
            return Err(invalid(format!(
                "the shard shape {shards:?} is not a positive multiple of the chunk shape {:?} \
                 in every dimension",
                self.chunk_shape
            )));
        }
        limits::check_chunks(key, grid, &self.shape, shards, element_size)?;
        // The sharding codec is the first of the codecs.
        limits::check_shard_index(
            key,
            "codecs[0]",
            shards,
            &self.chunk_shape,
            self.limits.shard_index_size_limit(),
        )
    }

    /// A node at `node` of `store` (or an array above it) is an error before anything else
    /// is checked, unless it is to be replaced ([`ArrayOptions::overwrite`], then erased only
    /// once the new array is known to be valid): a caller that cleans up after a failed
    /// create (as `zarrdt import` does) must not take an existing array for one it made.
    fn refuse_existing<S: ?Sized + ReadableWritableStorageTraits>(
        &self,
        store: &S,
        node: &NodePath,
        path: &str,
    ) -> Result<(), Error> {
        if self.overwrite {
            return Ok(());
        }
        // Without `overwrite`, making room erases nothing: it only looks.
        self.make_room(store, node, path)
    }

    /// Makes room for the array at `node` of `store`: a node there already (its `zarr.json`,
    /// `.zarray` or `.zgroup`) is erased with everything below it if [`ArrayOptions::overwrite`]
    /// says so, else [`Error::NodeExists`].
    fn make_room<S: ?Sized + ReadableWritableStorageTraits>(
        &self,
        store: &S,
        node: &NodePath,
        path: &str,
    ) -> Result<(), Error> {
        // No array above: its chunks' keys are where the new array's would go.
        let mut parent = node.as_str();
        while parent != "/" {
            parent = match parent.rsplit_once('/') {
                Some((above, _)) if !above.is_empty() => above,
                _ => "/",
            };
            let above = NodePath::new(parent)
                .map_err(|error| Error::metadata(meta_key_v3(node), None, error))?;
            let v3 = meta_key_v3(&above);
            let is_v3_array = read_json(store, &v3)?
                .is_some_and(|json| json.get("node_type").and_then(Json::as_str) == Some("array"));
            let v2 = meta_key_v2_array(&above);
            let found = if is_v3_array {
                Some(v3)
            } else {
                store.size_key(&v2)?.map(|_| v2)
            };
            if let Some(key) = found {
                return Err(Error::InsideArray {
                    path: path.to_owned(),
                    parent: parent.to_owned(),
                    key: key.to_string(),
                });
            }
        }
        for key in [
            meta_key_v3(node),
            meta_key_v2_array(node),
            meta_key_v2_group(node),
        ] {
            if store.size_key(&key)?.is_none() {
                continue;
            }
            if !self.overwrite {
                return Err(Error::NodeExists {
                    path: path.to_owned(),
                    key: key.to_string(),
                });
            }
            let prefix: StorePrefix = node
                .try_into()
                .map_err(|error: StorePrefixError| Error::metadata(&key, None, error))?;
            store.erase_prefix(&prefix)?;
            return Ok(());
        }
        Ok(())
    }

    /// The bytes-to-bytes codecs of the chosen compression, for elements of `size` bytes; an
    /// error names the `member` of the metadata document `key` they were to be written in.
    fn compressors(
        &self,
        size: usize,
        key: &StoreKey,
        member: &str,
    ) -> Result<Vec<Arc<dyn BytesToBytesCodecTraits>>, Error> {
        let invalid = |reason: String| Error::metadata(key, Some(member), reason);
        Ok(match &self.compression {
            Compression::None => Vec::new(),
            Compression::Zstd { level } => {
                let levels = Compression::zstd_levels();
                if !levels.contains(level) {
                    return Err(invalid(format!(
                        "zstd level {level} is not in {}..={}",
                        levels.start(),
                        levels.end()
                    )));
                }
                vec![Arc::new(crate::codec::zstd::codec(*level, false))]
            }
            Compression::Gzip { level } => vec![Arc::new(crate::codec::gzip::wrap(Arc::new(
                GzipCodec::new(*level).map_err(|e| invalid(e.to_string()))?,
            )))],
            Compression::BloscLz4 { level } => {
                let level = BloscCompressionLevel::try_from(*level)
                    .map_err(|level| invalid(format!("blosc level {level} is not in 0..=9")))?;
                vec![Arc::new(crate::codec::blosc::wrap(Arc::new(
                    BloscCodec::new(
                        BloscCompressor::LZ4,
                        level,
                        None,
                        BloscShuffleMode::Shuffle,
                        Some(crate::codec::blosc::typesize(size)),
                    )
                    .map_err(|e| invalid(e.to_string()))?,
                )))]
            }
            Compression::Zlib { level } => vec![Arc::new(
                Kind::Zlib
                    .codec(*level)
                    .map_err(|e| invalid(e.to_string()))?,
            )],
            Compression::Bz2 { level } => vec![Arc::new(
                Kind::Bz2
                    .codec(*level)
                    .map_err(|e| invalid(e.to_string()))?,
            )],
            Compression::Lz4 => vec![Arc::new(Lz4Codec::new(1))],
            Compression::Lzma { preset } => vec![Arc::new(
                LzmaCodec::xz(*preset).map_err(|e| invalid(e.to_string()))?,
            )],
        })
    }
}

/// The zarrs data type of a Zarr data type: zarrdt's [`StructDataType`] for structs (made
/// from the type itself, not its v3 JSON, which lists one field per item of a subarray), zarrs'
/// own for scalars, created through zarrs' registry from their v3 metadata. An error names the
/// metadata document `key` the data type was to be written in.
fn zarrs_data_type(data_type: &ZarrDataType, key: &StoreKey) -> Result<DataType, Error> {
    if !matches!(data_type, ZarrDataType::Scalar(_)) {
        return Ok(StructDataType::new(data_type.clone())?.into_data_type());
    }
    let invalid = |reason: String| Error::metadata(key, Some("data_type"), reason);
    let metadata: MetadataV3 =
        serde_json::from_value(data_type.to_v3_json()).map_err(|e| invalid(e.to_string()))?;
    DataType::from_metadata(&metadata).map_err(|e| invalid(e.to_string()))
}

/// Writes a JSON document (pretty, as zarr-python writes them).
fn write_document<S: ?Sized + ReadableWritableStorageTraits>(
    store: &S,
    key: &StoreKey,
    document: &Json,
) -> Result<(), Error> {
    let text = serde_json::to_vec_pretty(document).map_err(|e| Error::metadata(key, None, e))?;
    store.set(key, text.into())?;
    Ok(())
}
