//! The one place records are read from and written to an array: the bytes of a region, in the
//! machine's byte order, through zarrs.

use zarrdt_zarrs::check_shards;
use zarrdt_zarrs::zarrs::array::{Array, ArrayBytes, ArrayError, ArraySubset};
use zarrdt_zarrs::zarrs::storage::{ReadableStorageTraits, ReadableWritableStorageTraits};

use crate::Error;

/// The records of `region` of `array`, C order, as zarrs hands them over (every multi-byte
/// value in the machine's byte order); shard indexes are checked first.
pub(crate) fn read<S: ?Sized + ReadableStorageTraits + 'static>(
    array: &Array<S>,
    region: &ArraySubset,
) -> Result<Vec<u8>, Error> {
    check_shards(array, region)?;
    let bytes: ArrayBytes<'static> = array
        .retrieve_array_subset(region)
        .map_err(|error| at(region, error))?;
    let bytes = bytes
        .into_fixed()
        .map_err(|error| at(region, ArrayError::from(error)))?;
    Ok(bytes.into_owned())
}

/// Stores `bytes`, the records of `region` in C order and the machine's byte order.
pub(crate) fn write<S: ?Sized + ReadableWritableStorageTraits + 'static>(
    array: &Array<S>,
    region: &ArraySubset,
    bytes: Vec<u8>,
) -> Result<(), Error> {
    array
        .store_array_subset(region, ArrayBytes::new_flen(bytes))
        .map_err(|error| at(region, error))
}

/// zarrs' error about `region`, saying which elements.
fn at(region: &ArraySubset, error: ArrayError) -> Error {
    let ranges: Vec<String> = region
        .to_ranges()
        .iter()
        .map(|range| format!("{}:{}", range.start, range.end))
        .collect();
    Error::Region {
        region: format!("[{}]", ranges.join(",")),
        source: Box::new(zarrdt_zarrs::Error::Array(error)),
    }
}
