//! Part of a chunk (a shard) written: the whole chunk read, changed and handed back to be
//! stored, as zarrs' own `store_array_subset` does it, with the chunk's memory asked of the
//! allocator first. A chunk's size is a number from the metadata (a 300-byte `zarr.json` can
//! make it 1 PiB, or a shard's index 256 TiB), and zarrs allocates a chunk of the fill value
//! (a shard's index too) without asking, which aborts the process where the memory is not
//! there: here that is [`Error::ChunkTooLarge`], before anything is read or written. Memory:
//! the chunk once (zarrs' decode of the stored chunk, changed in place, or its fill value).

use zarrs::array::{Array, ArrayBytes, ArrayError, ArraySubset, CodecOptions, update_array_bytes};
use zarrs::storage::ReadableStorageTraits;

use super::fill::fill_elements;
use crate::Error;
use crate::shard::Sharding;

/// The bytes of the chunk at `indices` (its whole shape, native elements of `element_size`
/// bytes) with `region` (in array coordinates, within the chunk) replaced by `bytes` (its
/// elements in C order); the rest as stored, or the fill value where the chunk is not stored.
/// `sharding`, the array's sharding codec where it has one, counts the index of the shard; a
/// chunk made of the fill value has room for `after` more bytes (a shard's encoded index, laid
/// out after its elements), asked for, not required.
pub(super) fn updated_chunk<S>(
    array: &Array<S>,
    indices: &[u64],
    region: &ArraySubset,
    bytes: &[u8],
    element_size: usize,
    sharding: Option<&Sharding>,
    after: usize,
) -> Result<ArrayBytes<'static>, Error>
where
    S: ?Sized + ReadableStorageTraits + 'static,
{
    let in_chunk = |error| Error::in_chunk(array, indices, error);
    let chunk = array.chunk_subset(indices).map_err(in_chunk)?;
    let index_bytes = match sharding {
        Some(sharding) => sharding.index_entries(array, indices)?.saturating_mul(16),
        None => 0,
    };
    let chunk_bytes = chunk.num_elements().saturating_mul(element_size as u64);
    let too_large = || Error::ChunkTooLarge {
        key: array.chunk_key(indices).to_string(),
        bytes: chunk_bytes,
        index_bytes,
    };
    let room = usize::try_from(chunk_bytes.saturating_add(index_bytes)).map_err(|_| too_large())?;
    // Asked for and given back untouched before zarrs reads the chunk: it allocates a stored
    // shard's missing inner chunks, and the index of a shard it writes, without asking.
    if Vec::<u8>::new().try_reserve_exact(room).is_err() {
        return Err(too_large());
    }
    let options = CodecOptions::default();
    let stored = array
        .retrieve_chunk_if_exists_opt(indices, &options)
        .map_err(in_chunk)?;
    let old = match stored {
        Some(stored) => stored,
        None => {
            // Fits in `usize`: `room` does.
            let chunk_bytes = chunk_bytes as usize;
            let mut filled = Vec::new();
            if filled
                .try_reserve_exact(chunk_bytes.saturating_add(after))
                .is_err()
            {
                filled
                    .try_reserve_exact(chunk_bytes)
                    .map_err(|_| too_large())?;
            }
            filled.resize(chunk_bytes, 0);
            fill_elements(&mut filled, array.fill_value().as_ne_bytes());
            ArrayBytes::new_flen(filled)
        }
    };
    let within = region
        .relative_to(chunk.start())
        .map_err(|error| in_chunk(ArrayError::from(error)))?;
    update_array_bytes(
        old,
        chunk.shape(),
        &within,
        &ArrayBytes::new_flen(bytes),
        array.data_type().size(),
    )
    .map_err(|error| in_chunk(ArrayError::CodecError(error)))
}
