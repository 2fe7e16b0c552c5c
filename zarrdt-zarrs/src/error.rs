//! The error type of the zarrs integration.

use zarrs::array::{Array, ArrayCreateError, ArrayError};
use zarrs::storage::StorageError;

/// Everything that can go wrong creating, opening, reading or writing a record array.
///
/// Errors about the data type, fill value or records are zarrdt's own
/// ([`zarrdt_core::Error`]: they name the field, the record and the offending JSON); errors
/// about stores, codecs and chunks are zarrs'.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The data type, fill value or records are wrong (zarrdt's error, naming what and where).
    #[error(transparent)]
    Zarr(#[from] zarrdt_core::Error),

    /// The array could not be created or opened (zarrs' error).
    #[error(transparent)]
    Create(#[from] ArrayCreateError),

    /// Reading or writing the array failed: storage, codecs, a subset out of range (zarrs'
    /// error).
    #[error(transparent)]
    Array(#[from] ArrayError),

    /// A chunk (for a sharded array, a shard whose fault is not in one inner chunk:
    /// [`Error::InnerChunk`] otherwise) that could not be read or decoded: zarrs' error, with
    /// the chunk's store key.
    #[error("chunk {key}: {source}")]
    Chunk {
        /// The store key of the chunk.
        key: String,
        /// zarrs' error.
        source: Box<ArrayError>,
    },

    /// An inner chunk of a shard that could not be read or decoded: zarrs' error, with the
    /// shard's store key, the inner chunk's place among the shard's inner chunks and its bytes
    /// in the stored shard (as its index gives them); where the inner chunk is itself a shard
    /// (nested sharding), the inner chunk of it at fault, and so on inward.
    #[error(
        "shard {key}, inner chunk {inner:?} (bytes {}..{} of the shard){}: {source}",
        bytes.start,
        bytes.end,
        nested_part(nested)
    )]
    InnerChunk {
        /// The store key of the shard.
        key: String,
        /// The inner chunk's indices in the shard's grid of inner chunks (as the sharding codec
        /// sees the shard).
        inner: Vec<u64>,
        /// The inner chunk's bytes in the stored shard.
        bytes: std::ops::Range<u64>,
        /// Where `inner` is itself a shard: its inner chunk that does not decode, then, if that
        /// is a shard too, the one in it, outermost first; empty otherwise. `source` is about
        /// the last.
        nested: Vec<NestedChunk>,
        /// zarrs' error.
        source: Box<ArrayError>,
    },

    /// An element of a read that is no valid value of its type (a `bool` byte 2, a UTF-32 code
    /// unit that is no character, an enum value no variant names): zarrdt's error
    /// ([`zarrdt_core::Error::InvalidElement`], naming the element's index and byte offset in
    /// the read's output and its field), with where the element is in the array and stored.
    #[error(
        "chunk {key}{}, element {position:?} of the array; in the read's output: {source}",
        not_stored_part(*.stored)
    )]
    InvalidElement {
        /// The store key of the chunk (for a sharded array, the shard) the element is in.
        key: String,
        /// Whether that chunk is stored: `false` if the element is the array's fill value.
        stored: bool,
        /// The element's indices in the array.
        position: Vec<u64>,
        /// zarrdt's error ([`zarrdt_core::Error::InvalidElement`]), counted in the read's
        /// output.
        source: Box<zarrdt_core::Error>,
    },

    /// The store failed (zarrs' error).
    #[error(transparent)]
    Storage(#[from] StorageError),

    /// Array metadata that is wrong: a document that is not JSON or not an array's, a member
    /// zarrdt or zarrs refuses, or options that cannot make a valid one
    /// ([`ArrayOptions`](crate::ArrayOptions)). Built by one constructor, so each field means
    /// one thing whatever found the fault.
    #[error("invalid array metadata {key}{}: {reason}", in_member(.member))]
    Metadata {
        /// The store key of the metadata document: the one read (`zarr.json`, `a/b/.zarray`),
        /// or the one an array being created was to have.
        key: String,
        /// The member of the document at fault (`codecs`, `data_type`, `fill_value`, `shape`,
        /// …), or `None` for the document as a whole.
        member: Option<String>,
        /// What is wrong.
        reason: String,
    },

    /// A metadata document (`zarr.json`, `.zarray`, `.zattrs`, `.zgroup`) that the store could
    /// not read: zarrs' error, with the document's store key.
    #[error("cannot read the metadata document {key}: {source}")]
    MetadataRead {
        /// The store key of the document.
        key: String,
        /// zarrs' error.
        source: StorageError,
    },

    /// No array metadata (`zarr.json` or `.zarray`) at the path.
    #[error("no Zarr array at {path:?} (neither zarr.json nor .zarray)")]
    NotAnArray {
        /// The path in the store.
        path: String,
    },

    /// A Zarr group at the path, where an array was asked for.
    #[error("{path:?} is a Zarr group ({key}), not an array; its arrays are at paths below it")]
    Group {
        /// The path in the store.
        path: String,
        /// The store key of the group's metadata document (`zarr.json` or `.zgroup`).
        key: String,
    },

    /// An array or group already at the path of an array being created: creating it would
    /// leave the old chunks under the new metadata, read as the new type's
    /// ([`ArrayOptions::overwrite`](crate::ArrayOptions::overwrite) replaces it).
    #[error(
        "an array or group is at {path:?} already ({key}); open it (open_array), or replace it \
         (ArrayOptions::overwrite)"
    )]
    NodeExists {
        /// The path in the store.
        path: String,
        /// The store key of the metadata document found there.
        key: String,
    },

    /// An array above the path of an array being created: only groups have children, and
    /// the new array's keys would be among the array's own chunks (which replacing it, with
    /// [`ArrayOptions::overwrite`](crate::ArrayOptions::overwrite), would erase).
    #[error(
        "cannot create an array at {path:?}: {parent:?} is an array ({key}), and only groups \
         have children"
    )]
    InsideArray {
        /// The path in the store.
        path: String,
        /// The array above it.
        parent: String,
        /// The store key of that array's metadata document.
        key: String,
    },

    /// An array whose element (record) is larger than the limit it was opened with
    /// ([`OpenOptions::max_element_size`](crate::OpenOptions::max_element_size)), refused
    /// before anything of that size is allocated; or an array to be created with one larger
    /// than the limit it is made within
    /// ([`ArrayOptions::within`](crate::ArrayOptions::within)), refused before anything is
    /// written.
    #[error(
        "array {path}: an element is {size} bytes, more than the limit of {limit} bytes; \
         raise it (OpenOptions::max_element_size, zarrdt --max-element-size) to open it \
         (ArrayOptions::within to create it)"
    )]
    ElementTooLarge {
        /// The array's path in its store.
        path: String,
        /// The size of one element, in bytes.
        size: usize,
        /// The limit, in bytes.
        limit: usize,
    },

    /// An array whose shards have an index larger than the limit it was opened with
    /// ([`OpenOptions::max_shard_index_size`](crate::OpenOptions::max_shard_index_size)), or
    /// an array to be created whose shards opening it within the limits it is made for
    /// ([`ArrayOptions::within`](crate::ArrayOptions::within)) would refuse so: every write
    /// into such a shard would hold and store the whole index.
    #[error(
        "{key}: {member}: shards of {inner_chunks} inner chunks have an index of {size} bytes, \
         more than the limit of {limit} bytes (a write into a shard holds its whole index); \
         such arrays open only with the limit raised (OpenOptions::max_shard_index_size, \
         zarrdt --max-shard-index-size; ArrayOptions::within to create them)"
    )]
    ShardIndexTooLarge {
        /// The store key of the metadata document.
        key: String,
        /// The codec, as a path in the document (`codecs[0]`).
        member: String,
        /// The number of inner chunks in a shard.
        inner_chunks: u64,
        /// The size of a shard's index, in bytes (16 per inner chunk).
        size: u64,
        /// The limit, in bytes.
        limit: u64,
    },

    /// A read whose output cannot be allocated: a subset of more elements than the machine
    /// can hold (of an array whose chunks may all be missing, so that nothing stored limits
    /// it). Refused before anything is read.
    #[error(
        "the output of the read, {elements} elements of {element_size} bytes, cannot be \
         allocated; read the subset in parts (BlockReader)"
    )]
    OutputTooLarge {
        /// The number of elements asked for.
        elements: usize,
        /// The size of one element of the output (the Rust value's, not the stored one's).
        element_size: usize,
    },

    /// A write given a different number of elements (records) than its subset holds.
    #[error("{found} elements given to write a subset of {expected} elements")]
    ElementCount {
        /// The number of elements in the subset.
        expected: u64,
        /// The number of elements given.
        found: usize,
    },

    /// A write into part of a chunk (a shard) whose whole cannot be allocated: such a write
    /// reads, changes and stores the whole chunk (and a shard's index), whose size the
    /// array's metadata sets. Refused before anything is read or written.
    #[error(
        "chunk {key}: a write into part of it holds the whole chunk, {bytes} bytes{}, which \
         cannot be allocated",
        index_part(*.index_bytes)
    )]
    ChunkTooLarge {
        /// The chunk's store key.
        key: String,
        /// The chunk's elements, in bytes (saturated at `u64::MAX`).
        bytes: u64,
        /// A shard's index, decoded, in bytes (0 for a chunk that is no shard).
        index_bytes: u64,
    },

    /// A zarrs data type that zarrdt does not know.
    #[error("the data type {data_type} is not one zarrdt knows")]
    UnsupportedDataType {
        /// The data type, as zarrs shows it.
        data_type: String,
    },

    /// A scalar type where a struct type is needed.
    #[error("{data_type} is a scalar type, not a struct; zarrs has its own data type for it")]
    NotAStruct {
        /// The data type.
        data_type: String,
    },

    /// A shard whose index is corrupt: an entry outside the shard, overlapping its index, or
    /// of the wrong size for an inner chunk ([`check_shards`](crate::check_shards)).
    #[error("shard {key}: {reason}")]
    Shard {
        /// The store key of the shard.
        key: String,
        /// What is wrong, naming the index entry.
        reason: String,
    },

    /// A codec of the array's metadata that zarrdt does not read: not one zarrs knows, or a
    /// configuration it refuses.
    #[error("array {path}: codec {codec}: {reason}")]
    Codec {
        /// The path of the array in its store.
        path: String,
        /// The codec's metadata (name or id and configuration), as written.
        codec: String,
        /// Why it is not read, and what would read it.
        reason: String,
    },

    /// A store that cannot be opened at a location.
    #[error("cannot open the store {location}: {reason}")]
    Store {
        /// The location asked for.
        location: String,
        /// Why.
        reason: String,
    },
}

/// The member part of an [`Error::Metadata`] message.
fn in_member(member: &Option<String>) -> String {
    member
        .as_ref()
        .map(|member| format!(": {member}"))
        .unwrap_or_default()
}

/// The part of [`Error::InvalidElement`]'s message for a chunk that is not stored.
/// An inner chunk of a shard that is itself an inner chunk of a shard (nested sharding): its
/// place in the shard around it, as [`Error::InnerChunk`] names the outermost one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NestedChunk {
    /// Its indices in the grid of inner chunks of the shard around it.
    pub inner: Vec<u64>,
    /// Its bytes in the shard around it (as that shard's index gives them; decoded, where
    /// codecs encode that shard whole).
    pub bytes: std::ops::Range<u64>,
}

/// The nested inner chunks' part of [`Error::InnerChunk`]'s message.
fn nested_part(nested: &[NestedChunk]) -> String {
    nested
        .iter()
        .map(|chunk| {
            format!(
                ", itself a shard: inner chunk {:?} (bytes {}..{} of it)",
                chunk.inner, chunk.bytes.start, chunk.bytes.end
            )
        })
        .collect()
}

fn not_stored_part(stored: bool) -> &'static str {
    if stored {
        ""
    } else {
        " (not stored: the element is the array's fill value)"
    }
}

/// The index's part of [`Error::ChunkTooLarge`]'s message: none for a chunk without one.
fn index_part(index_bytes: u64) -> String {
    if index_bytes == 0 {
        String::new()
    } else {
        format!(" and {index_bytes} bytes of index")
    }
}

impl Error {
    /// The error about `member` (`None`: the document as a whole) of the array metadata
    /// document at the store key `key`: the one way [`Error::Metadata`] is built.
    pub(crate) fn metadata(
        key: impl std::fmt::Display,
        member: Option<&str>,
        reason: impl std::fmt::Display,
    ) -> Self {
        Error::Metadata {
            key: key.to_string(),
            member: member.map(str::to_owned),
            reason: reason.to_string(),
        }
    }

    /// zarrs' `error` about the bytes of a chunk (a codec or storage error, which does not say
    /// which chunk) with the store key of `chunk` added.
    pub(crate) fn in_chunk<S: ?Sized>(array: &Array<S>, chunk: &[u64], error: ArrayError) -> Self {
        Error::at_key(array.chunk_key(chunk).to_string(), error)
    }

    /// zarrs' `error` about the bytes of the inner chunk at `inner` (its indices among the
    /// shard's inner chunks) of the shard stored at `key`, at `bytes` in the shard (a codec or
    /// storage error) with all three added, and `nested`, where the fault lies in it if it is
    /// itself a shard ([`Sharding::nested_fault`](crate::shard::Sharding::nested_fault)).
    pub(crate) fn in_inner_chunk(
        key: String,
        inner: Vec<u64>,
        bytes: std::ops::Range<u64>,
        nested: Vec<NestedChunk>,
        error: ArrayError,
    ) -> Self {
        match error {
            ArrayError::CodecError(_) | ArrayError::StorageError(_) => Error::InnerChunk {
                key,
                inner,
                bytes,
                nested,
                source: Box::new(error),
            },
            other => Error::Array(other),
        }
    }

    /// zarrs' `error` about the bytes of the chunk stored at `key` (a codec or storage error)
    /// with that key added.
    pub(crate) fn at_key(key: String, error: ArrayError) -> Self {
        match error {
            ArrayError::CodecError(_) | ArrayError::StorageError(_) => Error::Chunk {
                key,
                source: Box::new(error),
            },
            other => Error::Array(other),
        }
    }
}
