//! Rust record types as Arrow tables: [`ArrowRecords`], for every [`ZarrType`] (derived
//! structs included), through its layout and packed bytes.

use std::collections::HashMap;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use zarrdt_core::{Endian, ZarrType};

use crate::metadata::DATA_TYPE;
use crate::{Error, RecordConverter};

/// Arrow tables of Rust records: the schema of a type, and `Vec<T>` to and from a
/// [`RecordBatch`]. Implemented for every [`ZarrType`], so every `#[derive(ZarrStruct)]` type
/// has it; a Rust array field `[T; N]` is a `FixedSizeList`.
///
/// ```
/// use zarrdt::arrow::ArrowRecords;
/// use zarrdt::ZarrType;
///
/// // Any `ZarrType`; a `#[derive(ZarrStruct)]` struct gets one column per field.
/// let points: Vec<[f32; 3]> = vec![[0.5, 1.5, 2.5], [3.0, 4.0, 5.0]];
/// let batch = <[f32; 3]>::to_record_batch(&points)?;
/// assert_eq!(batch.schema().field(0).name(), "value");
/// assert_eq!(<[f32; 3]>::from_record_batch(&batch)?, points);
/// # Ok::<(), zarrdt::arrow::Error>(())
/// ```
pub trait ArrowRecords: ZarrType {
    /// The Arrow schema of records of this type; its metadata names the Zarr data type.
    ///
    /// Errors for a type with no Arrow form (a time unit Arrow lacks), naming the field.
    fn arrow_schema() -> Result<SchemaRef, Error> {
        Ok(converter::<Self>()?.schema())
    }

    /// `records` as one batch, a column per field.
    fn to_record_batch(records: &[Self]) -> Result<RecordBatch, Error> {
        let converter = converter::<Self>()?;
        converter.to_record_batch(&Self::encode_slice(records, Endian::NATIVE))
    }

    /// The records of `batch`, whose columns must be this type's fields (errors name the
    /// column; see [`RecordConverter::from_record_batch`]).
    fn from_record_batch(batch: &RecordBatch) -> Result<Vec<Self>, Error> {
        let bytes = converter::<Self>()?.from_record_batch(batch)?;
        Ok(Self::decode_slice(&bytes, Endian::NATIVE)?)
    }
}

impl<T: ZarrType> ArrowRecords for T {}

/// The converter of `T`'s packed records, with `T`'s v3 data type in its metadata.
fn converter<T: ZarrType>() -> Result<RecordConverter, Error> {
    let metadata = HashMap::from([(
        DATA_TYPE.to_owned(),
        T::data_type().to_v3_json().to_string(),
    )]);
    RecordConverter::with_metadata(&T::layout(Endian::NATIVE), metadata)
}
