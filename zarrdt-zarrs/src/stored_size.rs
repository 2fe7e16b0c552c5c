//! The stored size of a chunk whose codecs fix it, checked before zarrs reads part of it.
//!
//! Where an array's codecs give every chunk the same encoded size (no compressor: the `bytes`
//! codec, alone or with `transpose` or a checksum), zarrs 0.23.14 reads part of a chunk as
//! byte ranges of the stored object without asking its size: a chunk cut short, or one too
//! long, gives whatever lies at those ranges as records. zarrs reads a whole chunk in one
//! piece and refuses one of the wrong length; [`check`] gives a read of part of one the same
//! error, for the cost of one size request. A sharded array's shards have no fixed size (an
//! inner chunk may be missing); their uncompressed inner chunks are checked in the shard's
//! index instead ([`Sharding::read_index`](crate::shard::Sharding::read_index)).

use std::collections::HashSet;

use zarrs::array::codec::api::InvalidBytesLengthError;
use zarrs::array::{
    Array, ArrayError, ArraySubsetTraits, ArrayToBytesCodecTraits, BytesRepresentation, CodecError,
};
use zarrs::storage::ReadableStorageTraits;

use crate::Error;

/// Checks that the chunk at `chunk` (its indices in the chunk grid) of `array`, if it is
/// stored, has the size the array's codecs give a chunk of its shape, where they fix one. A
/// chunk of another size is an [`Error::Chunk`] naming it, with both sizes, as zarrs' whole
/// read of it says.
pub(crate) fn check<S: ?Sized + ReadableStorageTraits + 'static>(
    array: &Array<S>,
    chunk: &[u64],
) -> Result<(), Error> {
    let in_chunk = |error| Error::in_chunk(array, chunk, error);
    let shape = array.chunk_shape(chunk)?;
    let expected = match array
        .codecs()
        .encoded_representation(&shape, array.data_type(), array.fill_value())
        .map_err(|error| in_chunk(ArrayError::CodecError(error)))?
    {
        BytesRepresentation::FixedSize(size) => size,
        BytesRepresentation::BoundedSize(_) | BytesRepresentation::UnboundedSize => return Ok(()),
    };
    let stored = array
        .storage()
        .size_key(&array.chunk_key(chunk))
        .map_err(|error| in_chunk(ArrayError::StorageError(error)))?;
    match stored {
        Some(size) if size != expected => {
            let length = |size: u64| usize::try_from(size).unwrap_or(usize::MAX);
            Err(in_chunk(ArrayError::CodecError(
                CodecError::UnexpectedChunkDecodedSize(InvalidBytesLengthError::new(
                    length(size),
                    length(expected),
                )),
            )))
        }
        _ => Ok(()),
    }
}

/// Checks as [`check`] does each chunk of `array` that `subset` covers only in part (within
/// the array) and that is not among `checked` (the chunks zarrs reads part of in a read of
/// `subset`), adding each to `checked` once it is found right. Nothing is asked of the store
/// where the array's codecs fix no chunk size (a compressor, or sharding).
pub(crate) fn check_parts<S: ?Sized + ReadableStorageTraits + 'static>(
    array: &Array<S>,
    subset: &dyn ArraySubsetTraits,
    checked: &mut HashSet<Vec<u64>>,
) -> Result<(), Error> {
    let Some(chunks) = array
        .chunks_in_array_subset(subset)
        .map_err(ArrayError::from)?
    else {
        return Ok(());
    };
    // Whether the codecs fix a size does not depend on the chunk's shape: asked of the first.
    let first = chunks.start().to_vec();
    let shape = array.chunk_shape(&first)?;
    let fixed = array
        .codecs()
        .encoded_representation(&shape, array.data_type(), array.fill_value())
        .is_ok_and(|representation| matches!(representation, BytesRepresentation::FixedSize(_)));
    if !fixed || chunks.is_empty() {
        return Ok(());
    }
    let subset = subset.to_array_subset();
    for indices in &chunks.indices() {
        let chunk = array.chunk_subset_bounded(&indices)?;
        let covered = chunk.overlap(&subset).map_err(ArrayError::from)?;
        if covered != chunk && !checked.contains(&indices[..]) {
            check(array, &indices)?;
            checked.insert(indices.to_vec());
        }
    }
    Ok(())
}
