//! The error type of the zarrs integration.

use zarrs::array::{ArrayCreateError, ArrayError};
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

    /// The store failed (zarrs' error).
    #[error(transparent)]
    Storage(#[from] StorageError),

    /// A metadata document that is not JSON, or not an array's.
    #[error("invalid array metadata {key}: {reason}")]
    Metadata {
        /// The store key of the document.
        key: String,
        /// What was wrong.
        reason: String,
    },

    /// No array metadata (`zarr.json` or `.zarray`) at the path.
    #[error("no Zarr array at {path:?} (neither zarr.json nor .zarray)")]
    NotAnArray {
        /// The path in the store.
        path: String,
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

    /// A store that cannot be opened at a location.
    #[error("cannot open the store {location}: {reason}")]
    Store {
        /// The location asked for.
        location: String,
        /// Why.
        reason: String,
    },
}
