//! The one place records are written to an array: the bytes of a region, in the machine's byte
//! order, through zarrs. (They are read through zarrdt-zarrs' `BlockReader`.)

use zarrdt_zarrs::check_shards;
use zarrdt_zarrs::zarrs::array::{Array, ArrayBytes, ArrayError, ArraySubset};
use zarrdt_zarrs::zarrs::storage::ReadableWritableStorageTraits;

use crate::Error;

/// Stores `bytes`, the records of `region` in C order and the machine's byte order. The
/// indexes of the stored shards the region touches are checked first, as a read checks them:
/// zarrs reads a shard the region covers in part to update it, and its decode panics on some
/// damaged indexes (zarrs 0.23.14).
pub(crate) fn write<S: ?Sized + ReadableWritableStorageTraits + 'static>(
    array: &Array<S>,
    region: &ArraySubset,
    bytes: &[u8],
) -> Result<(), Error> {
    check_shards(array, region).map_err(|error| Error::Region {
        region: ranges(region),
        source: Box::new(error),
    })?;
    array
        .store_array_subset(region, ArrayBytes::new_flen(bytes))
        .map_err(|error| at(region, error))
}

/// zarrs' error about `region`, saying which elements.
fn at(region: &ArraySubset, error: ArrayError) -> Error {
    Error::Region {
        region: ranges(region),
        source: Box::new(zarrdt_zarrs::Error::Array(error)),
    }
}

/// `region` as `[start:end,...]`.
fn ranges(region: &ArraySubset) -> String {
    let ranges: Vec<String> = region
        .to_ranges()
        .iter()
        .map(|range| format!("{}:{}", range.start, range.end))
        .collect();
    format!("[{}]", ranges.join(","))
}
