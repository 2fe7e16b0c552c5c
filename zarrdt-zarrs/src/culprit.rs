//! Which chunk of a failed read of zarrs' is at fault, and in a shard which inner chunk.
//!
//! zarrs' codec and storage errors say neither: the read's parts are read again, one at a
//! time, until one fails on its own. Only after a read has failed, and bounded by it: one
//! chunk's part (or one inner chunk) at a time.

use zarrs::array::{Array, ArrayBytes, ArrayError, ArraySubset, ArraySubsetTraits, CodecOptions};
use zarrs::storage::ReadableStorageTraits;

use crate::Error;
use crate::shard::Sharding;

/// zarrs' `error` from reading `subset` of `array`, with the first chunk of the subset that
/// cannot be read on its own named ([`in_chunk`]).
pub(crate) fn in_subset<S: ?Sized + ReadableStorageTraits + 'static>(
    array: &Array<S>,
    subset: &dyn ArraySubsetTraits,
    error: ArrayError,
) -> Error {
    if !about_bytes(&error) {
        return Error::Array(error);
    }
    let culprit = || -> Option<Error> {
        let subset = subset.to_array_subset();
        let chunks = array.chunks_in_array_subset(&subset).ok()??;
        for indices in &chunks.indices() {
            let part = array.chunk_subset(&indices).ok()?.overlap(&subset).ok()?;
            let read: Result<ArrayBytes<'static>, ArrayError> = array.retrieve_array_subset(&part);
            if let Err(error) = read {
                return Some(in_chunk(
                    array,
                    &indices,
                    &part,
                    &CodecOptions::default(),
                    error,
                ));
            }
        }
        None
    };
    culprit().unwrap_or(Error::Array(error))
}

/// zarrs' `error` from reading `region` (in the array's indices) of the chunk at `chunk` of
/// `array`: for a sharded array whose failure is a codec's, the first inner chunk of the
/// region that does not decode on its own ([`Error::InnerChunk`]); otherwise the chunk's store
/// key added ([`Error::Chunk`]).
pub(crate) fn in_chunk<S: ?Sized + ReadableStorageTraits + 'static>(
    array: &Array<S>,
    chunk: &[u64],
    region: &ArraySubset,
    options: &CodecOptions,
    error: ArrayError,
) -> Error {
    if matches!(error, ArrayError::CodecError(_))
        && let Ok(Some(sharding)) = Sharding::of(array)
        && let Some(inner) = sharding.failing_inner_chunk(array, chunk, region, options)
    {
        return inner;
    }
    Error::in_chunk(array, chunk, error)
}

/// Whether zarrs' `error` is about a chunk's bytes (a codec's or the store's), which it does
/// not name.
fn about_bytes(error: &ArrayError) -> bool {
    matches!(
        error,
        ArrayError::CodecError(_) | ArrayError::StorageError(_)
    )
}
