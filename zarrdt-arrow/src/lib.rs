//! Zarr record arrays as Apache Arrow tables: the Arrow schema of any record data type, record
//! bytes to [`RecordBatch`](arrow_array::RecordBatch) columns and back at memory speed, and
//! batches streamed from and into record arrays through zarrs.
//!
//! * [`RecordConverter`]: the Arrow form of a record [`Layout`](zarrdt_core::Layout) (the type
//!   mapping is in its documentation); records to a batch by a transpose (each column's buffer
//!   built straight from the record bytes by a strided copy) and batches back to records,
//!   errors naming the column and the record;
//! * [`ArrowRecords`]: the same for Rust record types (every `#[derive(ZarrStruct)]` struct),
//!   `T::arrow_schema()`, `T::to_record_batch(&records)`, `T::from_record_batch(&batch)`;
//! * [`BatchReader`]: any selection of an array, all fields or some, as batches of a bounded
//!   number of rows, read a block of whole chunks at a time;
//! * [`TableType`] and [`TableWriter`]: the Zarr type of a table (the one zarrdt wrote in its
//!   schema metadata, or one made from the Arrow types, with text widths measured by
//!   [`Sizes`]), and batches written into a new or existing array.
//!
//! The schema of a table read from an array keeps the Zarr data type, the fill value, the
//! shape and the array's attributes in its metadata ([`metadata`]), so Zarr → Arrow
//! (→ Parquet) → Zarr gives the same records and fill value, bit for bit, and the same
//! attributes.
//!
//! ```
//! use std::sync::Arc;
//! use zarrdt::arrow::{BatchReader, ReadOptions, TableType, TableWriter};
//! use zarrdt::types::DataType;
//! use zarrdt::value::Value;
//! use zarrdt::array::{ArrayOptions, ReadRecords};
//! use zarrdt::zarrs::storage::store::MemoryStore;
//! use serde_json::json;
//!
//! let sample = DataType::from_v3_json(&json!({"name": "struct", "configuration": {"fields": [
//!     {"name": "time", "data_type": {"name": "numpy.datetime64",
//!                                    "configuration": {"unit": "ms", "scale_factor": 1}}},
//!     {"name": "value", "data_type": "float32"}]}}))?;
//! let zero = sample.fill_value_from_v3_json(&json!({"time": "NaT", "value": 0.0}), None)?;
//! let store = Arc::new(MemoryStore::new());
//! let array = ArrayOptions::new(vec![1000], vec![100]).create_with(store.clone(), "/a", &sample, &zero)?;
//!
//! // The array as batches (NaT is null), and back into a new array.
//! let reader = BatchReader::new(&array, &ReadOptions::default().batch_rows(256))?;
//! let zarr = TableType::from_schema(&reader.schema(), None)?;
//! let mut writer = TableWriter::create(store, "/b", &zarr, &ArrayOptions::new(vec![0], vec![100]))?;
//! for batch in reader {
//!     let batch = batch?;
//!     assert_eq!(batch.column(0).null_count(), batch.num_rows());
//!     writer.write(&batch)?;
//! }
//! let copy = writer.finish()?;
//! assert_eq!(copy.retrieve_values(&[0..1000])?, array.retrieve_values(&[0..1000])?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! arrow-rs 60 and 59 both work (the dependency accepts either), so that a program using
//! DataFusion 55 (built on arrow 59) shares its Arrow types with this crate. Cargo picks the
//! newest arrow a range allows for each dependency and does not merge two majors by itself:
//! in such a program, pin the arrow crates to 59 once in `Cargo.lock`
//! (`cargo update -p arrow-array@60.1.0 --precise 59.3.2`, the same for `arrow-buffer`,
//! `arrow-data`, `arrow-schema`), as `examples/table-query` does.

#![forbid(unsafe_code)]

mod convert;
mod error;
mod export;
mod import;
mod infer;
pub mod metadata;
mod native;
mod plan;
mod positions;
mod read;
mod region;
mod time;
mod typed;
mod write;

pub use convert::RecordConverter;
pub use error::Error;
pub use infer::{Sizes, TableType};
pub use plan::VALUE_COLUMN;
pub use read::{BatchReader, DEFAULT_BATCH_ROWS, ReadOptions};
pub use typed::ArrowRecords;
pub use write::TableWriter;

/// The arrow-rs crates this crate is built with: name them through here, so that the
/// versions agree.
pub use {arrow_array, arrow_buffer, arrow_schema};
