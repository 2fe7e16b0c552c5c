//! The one place records are written to an array: the bytes of a region, in the machine's byte
//! order, through zarrs. (They are read through zarrdt-zarrs' `BlockReader`.)

use zarrdt_zarrs::zarrs::array::{Array, ArrayBytes, ArrayError, ArraySubset};
use zarrdt_zarrs::zarrs::storage::ReadableWritableStorageTraits;

use crate::Error;

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
