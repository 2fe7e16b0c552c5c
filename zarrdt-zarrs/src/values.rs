//! Records of an array whose type is only known when it is opened: read and written as
//! dynamic [`Value`]s.

use zarrdt_core::Value;
use zarrs::array::{Array, ArrayBytes, ArraySubsetTraits};
use zarrs::storage::{ReadableStorageTraits, ReadableWritableStorageTraits};

use crate::subset::check_subset;
use crate::{Error, RecordType};

/// The records of `subset` of `array`, row-major, as dynamic values (missing chunks give the
/// fill value).
pub fn retrieve_values<S: ?Sized + ReadableStorageTraits + 'static>(
    array: &Array<S>,
    subset: &dyn ArraySubsetTraits,
) -> Result<Vec<Value>, Error> {
    let record = RecordType::of(array.data_type())?;
    check_subset(array, subset, record.native_layout().size())?;
    crate::check_shards(array, subset)?;
    let bytes: ArrayBytes<'static> = array
        .retrieve_array_subset(subset)
        .map_err(|error| Error::in_subset(array, subset, error))?;
    let bytes = bytes.into_fixed().map_err(zarrs::array::ArrayError::from)?;
    Ok(record.native_layout().decode_values(&bytes)?)
}

/// Stores `values` (row-major) into `subset` of `array`; each must be a value of the array's
/// data type, or the error names the field.
pub fn store_values<S: ?Sized + ReadableWritableStorageTraits + 'static>(
    array: &Array<S>,
    subset: &dyn ArraySubsetTraits,
    values: &[Value],
) -> Result<(), Error> {
    let record = RecordType::of(array.data_type())?;
    check_subset(array, subset, record.native_layout().size())?;
    let bytes = record.native_layout().encode_values(values)?;
    array.store_array_subset(subset, ArrayBytes::new_flen(bytes))?;
    Ok(())
}
