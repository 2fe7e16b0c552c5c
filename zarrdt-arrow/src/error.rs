//! The error type of the Arrow conversions.

use arrow_schema::ArrowError;

/// Everything that can go wrong converting records to and from Arrow.
///
/// Every variant says where: the field or column (a path such as `point.x`), and for values
/// the record (its index in the batch, or in the selection read from an array).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A Zarr type with no exact Arrow form, or an Arrow type with no Zarr record form.
    #[error("{path}: {reason}")]
    Unsupported {
        /// The field (or column).
        path: String,
        /// Why.
        reason: String,
    },

    /// A value that does not convert: a `bool` byte other than 0 or 1, a UTF-32 code unit
    /// that is no character, a time out of range, a null where Zarr has none, a string too
    /// long for its field…
    #[error("{path}, record {record}: {reason}")]
    Value {
        /// The field (or column).
        path: String,
        /// The record: its index in the batch (converters), in the selection of an array
        /// (readers), or in the array in C order (writers: the element the row was to be
        /// written to).
        record: u64,
        /// What is wrong.
        reason: String,
    },

    /// A batch whose columns do not fit the record type: a missing or extra column, or a
    /// column of another type.
    #[error("column {column}: {reason}")]
    Column {
        /// The column (a path such as `point.x` inside struct columns).
        column: String,
        /// What does not fit.
        reason: String,
    },

    /// A string, binary or list column whose width must be measured before a Zarr type can
    /// be made for it ([`Sizes::measure`](crate::Sizes::measure)).
    #[error(
        "column {column}: {kind} have no fixed size; measure the batches first (Sizes::measure)"
    )]
    SizesNeeded {
        /// The column.
        column: String,
        /// What it holds: `"strings"`, `"byte strings"`, `"lists"`.
        kind: &'static str,
    },

    /// The records of a batch that cannot be allocated: more rows of records this wide than
    /// the machine can hold at once. Refused before any is converted.
    #[error(
        "the records of a batch of {rows} rows of {record_size} bytes cannot be allocated; \
         convert it in smaller batches (RecordBatch::slice)"
    )]
    BatchTooLarge {
        /// The batch's rows.
        rows: usize,
        /// The size of one record in bytes.
        record_size: usize,
    },

    /// A table whose record (one row as a Zarr element) is larger than the limit
    /// ([`OpenOptions::max_element_size`](zarrdt_zarrs::OpenOptions::max_element_size), 16 MiB
    /// by default): refused before anything of its size is made.
    #[error(
        "a record of the table is {size} bytes, more than the limit of {limit} bytes (the \
         maximum element size)"
    )]
    ElementTooLarge {
        /// The size of one record, in bytes (saturated at `usize::MAX`).
        size: usize,
        /// The limit, in bytes.
        limit: usize,
    },

    /// Schema metadata under a `zarr.` key that cannot be read.
    #[error("schema metadata {key}: {reason}")]
    Metadata {
        /// The key.
        key: String,
        /// What is wrong.
        reason: String,
    },

    /// Rows that do not fit the array: past the end of an array of more than one dimension,
    /// or not filling it.
    #[error("{0}")]
    Shape(String),

    /// Reading or writing a region of the array failed (zarrs' error: the store, a codec).
    #[error("elements {region}: {source}")]
    Region {
        /// The region, as index ranges (`[0:100,5:10]`).
        region: String,
        /// The error.
        source: Box<zarrdt_zarrs::Error>,
    },

    /// zarrdt's model refused a type or value (its error names the field).
    #[error(transparent)]
    Zarr(#[from] zarrdt_core::Error),

    /// Reading or writing the array failed (the store, a codec, a chunk).
    #[error(transparent)]
    Array(#[from] zarrdt_zarrs::Error),

    /// Arrow refused to build an array or batch.
    #[error(transparent)]
    Arrow(#[from] ArrowError),
}

impl From<Error> for ArrowError {
    /// The error as Arrow's, for [`RecordBatchReader`](arrow_array::RecordBatchReader)s:
    /// an `ExternalError` that keeps it (downcast to get it back).
    fn from(error: Error) -> Self {
        match error {
            Error::Arrow(arrow) => arrow,
            other => ArrowError::ExternalError(Box::new(other)),
        }
    }
}

impl Error {
    /// A null at `record` of `path`, which a Zarr record cannot hold.
    pub(crate) fn null_value(path: &str, record: u64) -> Self {
        Error::Value {
            path: path.to_owned(),
            record,
            reason: "null, and Zarr records have no nulls (only datetime64 and timedelta64 \
                     fields, whose NaT is null)"
                .into(),
        }
    }

    /// The same error with its record index moved by `first` (the index of the batch's first
    /// record in a larger selection).
    pub(crate) fn shifted(self, first: u64) -> Self {
        match self {
            Error::Value {
                path,
                record,
                reason,
            } => Error::Value {
                path,
                record: record + first,
                reason,
            },
            other => other,
        }
    }
}
