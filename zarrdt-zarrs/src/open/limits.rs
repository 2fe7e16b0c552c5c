//! What an array's metadata may ask for, checked on its JSON before zarrs sees it.
//!
//! zarrs 0.23.14 trusts the numbers in metadata: it materialises fill values of the element's
//! size (a v2 `null` fill of a raw type as a JSON array of one number per byte, 56 bytes of
//! memory each), multiplies shapes without checking for overflow (a panic in a debug build,
//! a wrapped size and undefined behaviour in a release build), expands rectilinear chunk grids
//! run by run, and names chunk keys with a configurable suffix that can point outside the
//! store. An element larger than the limit, a product that overflows, a chunk grid or key
//! encoding other than the standard ones, and codec configurations zarrs would divide by zero
//! on are refused here, each with an error naming the document, the member and the value.

use serde_json::{Map, Value as Json};

use crate::Error;
use crate::codec::zlib_bz2;

/// The default limit on the size of one element (record), in bytes: 16 MiB.
pub const DEFAULT_MAX_ELEMENT_SIZE: usize = 16 << 20;

/// The default limit on the size of one shard's index, in bytes: 256 MiB, the index of a
/// shard of 16 Mi inner chunks (16 bytes each).
pub const DEFAULT_MAX_SHARD_INDEX_SIZE: u64 = 256 << 20;

/// The most bytes a chunk (or shard) may span, counting its full shape: beyond this, zarrs'
/// size computations overflow. Real chunks are many orders of magnitude smaller.
const MAX_CHUNK_BYTES: u64 = 1 << 62;

/// Limits on what an array opened from untrusted metadata may ask for, and the entry point
/// that opens an array with them ([`OpenOptions::open`]; [`open_array`](crate::open_array)
/// uses the defaults).
///
/// ```no_run
/// use std::sync::Arc;
/// use zarrdt::array::OpenOptions;
/// use zarrdt::zarrs::filesystem::FilesystemStore;
///
/// let store = Arc::new(FilesystemStore::new("big-records.zarr")?);
/// // Records of up to 64 MiB, from a source you trust with that much memory per record.
/// let array = OpenOptions::new().max_element_size(64 << 20).open(store, "/")?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenOptions {
    max_element_size: usize,
    max_shard_index_size: u64,
}

impl Default for OpenOptions {
    /// Elements of at most [`DEFAULT_MAX_ELEMENT_SIZE`] bytes, shard indexes of at most
    /// [`DEFAULT_MAX_SHARD_INDEX_SIZE`].
    fn default() -> Self {
        OpenOptions {
            max_element_size: DEFAULT_MAX_ELEMENT_SIZE,
            max_shard_index_size: DEFAULT_MAX_SHARD_INDEX_SIZE,
        }
    }
}

impl OpenOptions {
    /// The default limits.
    pub fn new() -> Self {
        Self::default()
    }

    /// Refuses arrays whose element (record) is more than `bytes` bytes, before anything of
    /// that size is allocated (16 MiB by default). Opening an array allocates its fill value,
    /// one element, and reading allocates whole elements.
    pub fn max_element_size(mut self, bytes: usize) -> Self {
        self.max_element_size = bytes;
        self
    }

    /// The limit on the size of one element, in bytes.
    pub fn element_size_limit(&self) -> usize {
        self.max_element_size
    }

    /// Refuses arrays whose shards (at any level of sharding) have an index of more than
    /// `bytes` bytes, 16 per inner chunk (256 MiB by default, 16 Mi inner chunks). A shard's
    /// shape and its inner chunks' are numbers in the metadata: every write into a shard holds
    /// and stores its whole index, even for one record (a 450-byte `zarr.json` of shards of
    /// 2^29 inner chunks made a write of one record store an 8 GiB index), and every read of a
    /// stored shard reads it.
    ///
    /// ```no_run
    /// use std::sync::Arc;
    /// use zarrdt::array::OpenOptions;
    /// use zarrdt::zarrs::filesystem::FilesystemStore;
    ///
    /// let store = Arc::new(FilesystemStore::new("fine-shards.zarr")?);
    /// // Shards of up to 2^27 inner chunks, from a source you trust.
    /// let array = OpenOptions::new().max_shard_index_size(2 << 30).open(store, "/")?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_shard_index_size(mut self, bytes: u64) -> Self {
        self.max_shard_index_size = bytes;
        self
    }

    /// The limit on the size of one shard's index, in bytes.
    pub fn shard_index_size_limit(&self) -> u64 {
        self.max_shard_index_size
    }

    /// `size`, the size of an element of the array at `path`, if it is within the limit.
    pub(crate) fn check_element_size(&self, path: &str, size: usize) -> Result<usize, Error> {
        if size > self.max_element_size {
            return Err(Error::ElementTooLarge {
                path: path.to_owned(),
                size,
                limit: self.max_element_size,
            });
        }
        Ok(size)
    }
}

/// [`Error::metadata`] about the member `member` of the metadata document `key`.
pub(crate) fn invalid(key: &str, member: &str, reason: impl std::fmt::Display) -> Error {
    Error::metadata(key, Some(member), reason)
}

/// The extents of the shape at `member` of `object`: a list of non-negative integers.
pub(crate) fn extents(
    object: &Map<String, Json>,
    key: &str,
    member: &str,
) -> Result<Vec<u64>, Error> {
    let value = object
        .get(member)
        .ok_or_else(|| invalid(key, member, "missing"))?;
    extents_of(value, key, member)
}

fn extents_of(value: &Json, key: &str, member: &str) -> Result<Vec<u64>, Error> {
    let list = value.as_array().ok_or_else(|| {
        invalid(
            key,
            member,
            format!("must be a list of integers, not {value}"),
        )
    })?;
    list.iter()
        .map(|extent| {
            extent.as_u64().ok_or_else(|| {
                invalid(
                    key,
                    member,
                    format!("{extent} is not a non-negative integer"),
                )
            })
        })
        .collect()
}

/// Checks an array `shape` against its `chunks` (the chunk grid's, or a shard's inner chunks
/// within the shard's shape), for elements of `element_size` bytes (at least one byte is
/// counted, so that variable-length elements count too): the same number of dimensions, no
/// empty chunk, and no product of extents or bytes that overflows.
pub(crate) fn check_chunks(
    key: &str,
    member: &str,
    shape: &[u64],
    chunks: &[u64],
    element_size: usize,
) -> Result<(), Error> {
    if shape.len() != chunks.len() {
        return Err(invalid(
            key,
            member,
            format!(
                "{} dimensions, where the shape {shape:?} has {}",
                chunks.len(),
                shape.len()
            ),
        ));
    }
    if chunks.contains(&0) {
        return Err(invalid(
            key,
            member,
            format!("{chunks:?} has an empty dimension"),
        ));
    }
    // Every chunk index times the chunk extent must stay far from overflowing.
    for (&extent, &chunk) in shape.iter().zip(chunks) {
        if extent
            .checked_add(chunk)
            .is_none_or(|end| end > MAX_CHUNK_BYTES)
        {
            return Err(invalid(
                key,
                member,
                format!(
                    "an extent of {extent} in chunks of {chunk}: the two together pass 2^62, \
                     beyond what zarrs computes with"
                ),
            ));
        }
    }
    let bytes = chunks
        .iter()
        .try_fold(element_size.max(1) as u64, |bytes, &chunk| {
            bytes.checked_mul(chunk)
        })
        .filter(|&bytes| bytes <= MAX_CHUNK_BYTES);
    if bytes.is_none() {
        return Err(invalid(
            key,
            member,
            format!(
                "chunks of {chunks:?} elements of {element_size} bytes are more than 2^62 bytes"
            ),
        ));
    }
    Ok(())
}

/// Checks that the product of the extents of `shape`, taken in order, fits in 64 bits (zarrs
/// multiplies them so, with overflow checks where they are on, also for a shape with a 0 after
/// the extents that overflow).
pub(crate) fn check_element_count(key: &str, member: &str, shape: &[u64]) -> Result<(), Error> {
    shape
        .iter()
        .try_fold(1u64, |count, &extent| count.checked_mul(extent))
        .map(|_| ())
        .ok_or_else(|| {
            let count = if shape.contains(&0) {
                "0 elements, but the extents before its 0 multiply to more than 2^64, which \
                 zarrs overflows on"
            } else {
                "more than 2^64 elements"
            };
            invalid(key, member, format!("{shape:?} has {count}"))
        })
}

/// The name of a v3 extension point (`"regular"`, or `{"name": "regular", ...}`).
fn name_of(value: &Json) -> Option<&str> {
    value
        .as_str()
        .or_else(|| value.get("name").and_then(Json::as_str))
}

/// The members of a v3 array's `zarr.json` the core spec defines.
const V3_MEMBERS: [&str; 11] = [
    "zarr_format",
    "node_type",
    "shape",
    "data_type",
    "chunk_grid",
    "chunk_key_encoding",
    "fill_value",
    "codecs",
    "attributes",
    "storage_transformers",
    "dimension_names",
];

/// Checks the members of a v3 `zarr.json` zarrs would expand or trust: the chunk grid (only
/// `regular`, whose chunk shape must fit the array), the chunk key encoding (only `default`
/// and `v2`, whose keys stay inside the array's prefix), no storage transformers, every
/// `sharding_indexed` codec (its inner chunks within its shards) and `transpose` order, and no
/// member the spec does not define but an extension that says `"must_understand": false`.
pub(crate) fn check_v3(
    key: &str,
    json: &Json,
    element_size: usize,
    options: &OpenOptions,
) -> Result<(), Error> {
    let object = json
        .as_object()
        .ok_or_else(|| Error::metadata(key, None, "must be a JSON object"))?;
    // The core spec: an unknown member may be ignored only if it is an object whose
    // `must_understand` is false; anything else asks to be understood, which zarrdt cannot.
    if let Some((name, value)) = object.iter().find(|(name, value)| {
        !V3_MEMBERS.contains(&name.as_str())
            && value.get("must_understand").and_then(Json::as_bool) != Some(false)
    }) {
        return Err(invalid(
            key,
            name,
            format!(
                "{value} is an extension zarrdt does not know, and does not say \
                 \"must_understand\": false (which would let it be ignored)"
            ),
        ));
    }
    let shape = extents(object, key, "shape")?;
    check_element_count(key, "shape", &shape)?;

    let grid = object
        .get("chunk_grid")
        .ok_or_else(|| invalid(key, "chunk_grid", "missing"))?;
    if name_of(grid) != Some("regular") {
        return Err(invalid(
            key,
            "chunk_grid",
            format!("{grid} is not supported by zarrdt (only the \"regular\" chunk grid)"),
        ));
    }
    let chunk_shape = grid
        .get("configuration")
        .and_then(|configuration| configuration.get("chunk_shape"))
        .ok_or_else(|| invalid(key, "chunk_grid", "no configuration.chunk_shape"))?;
    let chunk_shape = extents_of(chunk_shape, key, "chunk_grid.configuration.chunk_shape")?;
    check_chunks(key, "chunk_grid", &shape, &chunk_shape, element_size)?;

    if let Some(encoding) = object.get("chunk_key_encoding") {
        check_key_encoding(key, encoding)?;
    }
    match object.get("storage_transformers") {
        None => {}
        Some(Json::Array(list)) if list.is_empty() => {}
        Some(other) => {
            return Err(invalid(
                key,
                "storage_transformers",
                format!("{other} is not supported by zarrdt"),
            ));
        }
    }
    let codecs = object
        .get("codecs")
        .ok_or_else(|| invalid(key, "codecs", "missing"))?;
    let top = Sharded {
        chunk_bytes: chunk_shape
            .iter()
            .try_fold(element_size as u64, |bytes, &extent| {
                bytes.checked_mul(extent)
            })
            .unwrap_or(u64::MAX),
        chunk_elements: chunk_shape
            .iter()
            .try_fold(1u64, |elements, &extent| elements.checked_mul(extent))
            .unwrap_or(u64::MAX),
        inner_counts: 1,
    };
    let level = Level {
        key,
        element_size,
        index_limit: options.max_shard_index_size,
    };
    check_codecs(&level, "codecs", codecs, &chunk_shape, top)
}

/// What the levels of sharding above a codec list make of a chunk of the array: zarrs bounds
/// the encoded size of a shard by its inner chunks' count times the encoded size of its
/// inner codecs over the whole chunk's shape (not the inner chunk's), at every level of
/// sharding, in `u64` arithmetic that overflows (a panic with overflow checks) beyond it.
#[derive(Clone, Copy)]
struct Sharded {
    /// The bytes of a chunk of the array (with its full shape).
    chunk_bytes: u64,
    /// Its elements.
    chunk_elements: u64,
    /// The product, over the levels of sharding above, of the chunk's elements over each
    /// level's inner chunk's (at least the count of inner chunks zarrs multiplies by).
    inner_counts: u64,
}

/// The most a chunk's bytes times its levels' inner chunk counts may be: a half of
/// [`MAX_CHUNK_BYTES`], for the compressors' overhead and the indexes zarrs adds to it.
const MAX_SHARDED_BYTES: u64 = MAX_CHUNK_BYTES / 2;

/// Only the standard chunk key encodings, with a standard separator.
fn check_key_encoding(key: &str, encoding: &Json) -> Result<(), Error> {
    let name = name_of(encoding);
    if !matches!(name, Some("default" | "v2")) {
        return Err(invalid(
            key,
            "chunk_key_encoding",
            format!(
                "{encoding} is not supported by zarrdt (only \"default\" and \"v2\", whose keys \
                 stay inside the array)"
            ),
        ));
    }
    match encoding
        .get("configuration")
        .and_then(|configuration| configuration.get("separator"))
    {
        None => Ok(()),
        Some(separator) if matches!(separator.as_str(), Some("/" | ".")) => Ok(()),
        Some(separator) => Err(invalid(
            key,
            "chunk_key_encoding.configuration.separator",
            format!("must be \"/\" or \".\", not {separator}"),
        )),
    }
}

/// What every codec list of an array's metadata is checked against.
struct Level<'a> {
    /// The metadata document's store key.
    key: &'a str,
    /// The size of one element, in bytes.
    element_size: usize,
    /// The most bytes a shard's index may take ([`OpenOptions::max_shard_index_size`]).
    index_limit: u64,
}

/// Checks a v3 codec list whose chunks have `chunk_shape`: sharding (recursively, each level's
/// inner chunks within its shards, each shard's index within the limit) and transpose orders.
fn check_codecs(
    level: &Level<'_>,
    member: &str,
    codecs: &Json,
    chunk_shape: &[u64],
    sharded: Sharded,
) -> Result<(), Error> {
    let (key, element_size) = (level.key, level.element_size);
    let list = codecs
        .as_array()
        .ok_or_else(|| invalid(key, member, format!("must be a list, not {codecs}")))?;
    for (index, codec) in list.iter().enumerate() {
        let here = format!("{member}[{index}]");
        let configuration = codec.get("configuration");
        match name_of(codec) {
            Some("sharding_indexed") => {
                let configuration = configuration.ok_or_else(|| {
                    invalid(key, &here, "sharding_indexed without a configuration")
                })?;
                let inner = configuration
                    .get("chunk_shape")
                    .ok_or_else(|| invalid(key, &here, "sharding_indexed without a chunk_shape"))?;
                let inner = extents_of(inner, key, &format!("{here}.configuration.chunk_shape"))?;
                check_chunks(key, &here, chunk_shape, &inner, element_size)?;
                let index = index_size(chunk_shape, &inner)
                    .filter(|&size| size <= MAX_CHUNK_BYTES)
                    .ok_or_else(|| {
                        invalid(
                            key,
                            &here,
                            format!(
                                "shards of {chunk_shape:?} in inner chunks of {inner:?} have an \
                                 index of more than 2^62 bytes"
                            ),
                        )
                    })?;
                let inner_elements = inner.iter().product::<u64>().max(1);
                let inner_counts = sharded
                    .inner_counts
                    .checked_mul(sharded.chunk_elements.div_ceil(inner_elements));
                if inner_counts
                    .and_then(|counts| counts.checked_mul(sharded.chunk_bytes))
                    .is_none_or(|bytes| bytes > MAX_SHARDED_BYTES)
                {
                    return Err(invalid(
                        key,
                        &here,
                        format!(
                            "shards of {} bytes in inner chunks of {inner:?}: zarrs bounds a \
                             shard's encoded size by the count of its inner chunks times its \
                             bytes, which is more than 2^61 here",
                            sharded.chunk_bytes
                        ),
                    ));
                }
                check_index_size(key, &here, index, level.index_limit)?;
                if let Some(codecs) = configuration.get("codecs") {
                    check_codecs(
                        level,
                        &format!("{here}.configuration.codecs"),
                        codecs,
                        &inner,
                        Sharded {
                            inner_counts: inner_counts.unwrap_or(u64::MAX),
                            ..sharded
                        },
                    )?;
                }
            }
            Some("transpose") => {
                let order = configuration
                    .and_then(|configuration| configuration.get("order"))
                    .ok_or_else(|| invalid(key, &here, "transpose without an order"))?;
                check_order(key, &here, order, chunk_shape.len())?;
            }
            Some("numcodecs.shuffle") => {
                check_shuffle(key, &here, configuration.and_then(|c| c.get("elementsize")))?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// The size of the index of a shard of `shard` elements in inner chunks of `inner`: an entry
/// of 16 bytes per inner chunk (`None` beyond `u64`).
fn index_size(shard: &[u64], inner: &[u64]) -> Option<u64> {
    shard
        .iter()
        .zip(inner)
        .try_fold(16u64, |bytes, (&shard, &chunk)| {
            bytes.checked_mul(shard.div_ceil(chunk.max(1)))
        })
}

/// Checks that the index of a shard of `shard` elements in inner chunks of `inner` (16 bytes
/// an inner chunk) is at most `limit` bytes; the error names the codec `member` of the
/// document `key`.
pub(crate) fn check_shard_index(
    key: &str,
    member: &str,
    shard: &[u64],
    inner: &[u64],
    limit: u64,
) -> Result<(), Error> {
    let size = index_size(shard, inner).unwrap_or(u64::MAX);
    check_index_size(key, member, size, limit)
}

/// Checks that a shard index of `size` bytes is at most `limit` bytes.
fn check_index_size(key: &str, member: &str, size: u64, limit: u64) -> Result<(), Error> {
    if size > limit {
        return Err(Error::ShardIndexTooLarge {
            key: key.to_owned(),
            member: member.to_owned(),
            inner_chunks: size / 16,
            size,
            limit,
        });
    }
    Ok(())
}

/// A transpose order: a permutation of the dimensions.
fn check_order(key: &str, member: &str, order: &Json, dimensions: usize) -> Result<(), Error> {
    let order = extents_of(order, key, member)?;
    let mut seen = vec![false; dimensions];
    let is_permutation = order.len() == dimensions
        && order.iter().all(|&axis| {
            usize::try_from(axis)
                .ok()
                .and_then(|axis| seen.get_mut(axis))
                .is_some_and(|slot| !std::mem::replace(slot, true))
        });
    if !is_permutation {
        // A few axes are enough to see it: the order may have millions.
        let shown = match order.get(..16) {
            Some(first) if order.len() > 16 => format!("{first:?}… ({} axes)", order.len()),
            _ => format!("{order:?}"),
        };
        return Err(invalid(
            key,
            member,
            format!("the order {shown} is not a permutation of {dimensions} dimensions"),
        ));
    }
    Ok(())
}

/// A shuffle filter's element size, which zarrs divides by.
fn check_shuffle(key: &str, member: &str, elementsize: Option<&Json>) -> Result<(), Error> {
    match elementsize {
        Some(size) if size.as_u64().is_some_and(|size| size >= 1) => Ok(()),
        other => Err(invalid(
            key,
            member,
            format!(
                "shuffle needs an elementsize of at least 1, not {}",
                other.map_or_else(|| "none".to_owned(), Json::to_string)
            ),
        )),
    }
}

/// Checks the members of a v2 `.zarray` zarrs would trust: `shape` and `chunks`, the
/// shuffle filters' element sizes and the zlib and bz2 levels.
pub(crate) fn check_v2(key: &str, json: &Json, element_size: usize) -> Result<(), Error> {
    let object = json
        .as_object()
        .ok_or_else(|| Error::metadata(key, None, "must be a JSON object"))?;
    let shape = extents(object, key, "shape")?;
    check_element_count(key, "shape", &shape)?;
    let chunks = extents(object, key, "chunks")?;
    check_chunks(key, "chunks", &shape, &chunks, element_size)?;
    // A zlib or bz2 codec's configuration, checked by making the codec as zarrdt will.
    let check_codec = |member: &str, codec: &Json| match codec {
        Json::Object(codec) => zlib_bz2::check_v2(codec).map_err(|e| invalid(key, member, e)),
        _ => Ok(()),
    };
    if let Some(compressor) = object.get("compressor") {
        check_codec("compressor", compressor)?;
    }
    if let Some(Json::Array(filters)) = object.get("filters") {
        for (index, filter) in filters.iter().enumerate() {
            let member = format!("filters[{index}]");
            if filter.get("id").and_then(Json::as_str) == Some("shuffle") {
                check_shuffle(key, &member, filter.get("elementsize"))?;
            }
            check_codec(&member, filter)?;
        }
    }
    Ok(())
}
