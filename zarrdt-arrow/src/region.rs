//! The one place records are written to an array: the bytes of a region, in the machine's byte
//! order, through zarrdt-zarrs' checked write (`WriteRecords::store_bytes`). (They are read
//! through zarrdt-zarrs' `BlockReader`.)

use zarrdt_zarrs::WriteRecords;
use zarrdt_zarrs::zarrs::array::{Array, ArraySubset};
use zarrdt_zarrs::zarrs::storage::ReadableWritableStorageTraits;

use crate::Error;

/// Stores `bytes`, the records of `region` in C order and the machine's byte order, as
/// zarrdt-zarrs stores records: the index of each stored shard written in part checked first
/// (zarrs' decode panics on some damaged ones), and a chunk written in part read and changed
/// whole with its memory asked for first (a chunk the metadata makes too large to hold is an
/// error, not an abort).
pub(crate) fn write<S: ?Sized + ReadableWritableStorageTraits + 'static>(
    array: &Array<S>,
    region: &ArraySubset,
    bytes: &[u8],
) -> Result<(), Error> {
    array
        .store_bytes(region, bytes)
        .map_err(|error| Error::Region {
            region: ranges(region),
            source: Box::new(error),
        })
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
