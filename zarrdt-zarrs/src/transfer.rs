//! Records of a one-dimensional array moved chunk by chunk: each chunk fetched (or encoded and
//! stored) by zarrs on its own, several at a time, and decoded straight into (or encoded
//! straight from) the caller's records, so that no array-sized byte buffer is ever built.

use std::ops::Range;

use rayon::prelude::*;
use zarrdt_core::{Endian, ZarrType};
use zarrs::array::{Array, ArrayBytes, ArrayError, ArraySubsetTraits};
use zarrs::storage::{ReadableStorageTraits, ReadableWritableStorageTraits};

use crate::subset::check_subset;
use crate::{Error, RecordType};

/// The records of `subset` of `array` as `T`s, row-major: what
/// `array.retrieve_array_subset::<Vec<T>>(subset)` gives, in less time and memory.
///
/// On a one-dimensional array, the chunks are fetched and decoded by zarrs a few at a time,
/// in parallel, and each is decoded into the result as it arrives: the memory used is the
/// result and a few chunks, where zarrs alone assembles the bytes of the whole subset first.
/// Other arrays go through zarrs' `retrieve_array_subset`. Missing chunks give the fill value.
///
/// ```
/// use std::sync::Arc;
/// use zarrdt_zarrs::{ArrayOptions, retrieve_records, store_records};
/// use zarrdt_zarrs::zarrs::storage::store::MemoryStore;
///
/// let store = Arc::new(MemoryStore::new());
/// let array = ArrayOptions::new(vec![10], vec![4]).create(store, "/", &0u32)?;
/// store_records(&array, &[0..10], &(0..10u32).collect::<Vec<_>>())?;
/// let some: Vec<u32> = retrieve_records(&array, &[3..9])?; // parts of three chunks
/// assert_eq!(some, [3, 4, 5, 6, 7, 8]);
/// # Ok::<(), zarrdt_zarrs::Error>(())
/// ```
pub fn retrieve_records<T: ZarrType + Send, S: ?Sized + ReadableStorageTraits + 'static>(
    array: &Array<S>,
    subset: &dyn ArraySubsetTraits,
) -> Result<Vec<T>, Error> {
    check_type::<T, S>(array)?;
    check_subset(array, subset, T::SIZE)?;
    crate::check_shards(array, subset)?;
    let Some(pieces) = pieces(array, subset)? else {
        let bytes: ArrayBytes<'static> = array
            .retrieve_array_subset(subset)
            .map_err(|error| Error::in_subset(array, subset, error))?;
        let bytes = bytes.into_fixed().map_err(ArrayError::from)?;
        return Ok(T::decode_slice(&bytes, Endian::NATIVE)?);
    };
    let mut records = Vec::with_capacity(pieces.iter().map(Piece::len).sum());
    for batch in pieces.chunks(rayon::current_num_threads().max(1)) {
        let fetched: Vec<Result<ArrayBytes<'static>, ArrayError>> = batch
            .par_iter()
            .map(|piece| {
                if piece.whole {
                    array.retrieve_chunk(&[piece.chunk])
                } else {
                    // A one-range array, which zarrs reads as a contiguous region (a slice
                    // of ranges goes through its per-index path).
                    let within = [piece.within.start..piece.within.end];
                    array.retrieve_chunk_subset(&[piece.chunk], &within)
                }
            })
            .collect();
        for (piece, bytes) in batch.iter().zip(fetched) {
            let bytes = bytes.map_err(|error| Error::in_chunk(array, &[piece.chunk], error))?;
            let bytes = bytes.into_fixed().map_err(ArrayError::from)?;
            let before = records.len();
            T::decode_slice_into(&bytes, Endian::NATIVE, &mut records).map_err(|error| {
                // The element and offset within the subset, as zarrs' own reads give them.
                match error {
                    zarrdt_core::Error::InvalidElement {
                        index,
                        path,
                        offset,
                        fault,
                    } => zarrdt_core::Error::InvalidElement {
                        index: before + index,
                        path,
                        offset: before * T::SIZE + offset,
                        fault,
                    },
                    other => other,
                }
            })?;
        }
    }
    Ok(records)
}

/// Stores `records` (row-major) into `subset` of `array`: what
/// `array.store_array_subset(subset, records)` does, in less time and memory.
///
/// On a one-dimensional array, each chunk's records are encoded and stored by zarrs on their
/// own, a few chunks at a time, in parallel (chunks only partly in `subset` are read, updated
/// and written by zarrs); no array-sized byte buffer is built. Other arrays go through zarrs'
/// `store_array_subset`.
pub fn store_records<T: ZarrType + Sync, S: ?Sized + ReadableWritableStorageTraits + 'static>(
    array: &Array<S>,
    subset: &dyn ArraySubsetTraits,
    records: &[T],
) -> Result<(), Error> {
    check_type::<T, S>(array)?;
    check_subset(array, subset, T::SIZE)?;
    let Some(pieces) = pieces(array, subset)? else {
        let bytes = T::encode_slice(records, Endian::NATIVE);
        array.store_array_subset(subset, ArrayBytes::new_flen(bytes))?;
        return Ok(());
    };
    let expected: usize = pieces.iter().map(Piece::len).sum();
    if records.len() != expected {
        return Err(Error::Zarr(zarrdt_core::Error::BufferLength {
            expected,
            found: records.len(),
        }));
    }
    let mut first = 0;
    let mut starts = Vec::with_capacity(pieces.len());
    for piece in &pieces {
        starts.push(first);
        first += piece.len();
    }
    let work: Vec<(&Piece, usize)> = pieces.iter().zip(starts).collect();
    for batch in work.chunks(rayon::current_num_threads().max(1)) {
        batch
            .par_iter()
            .map(|(piece, start)| {
                let bytes = T::encode_slice(&records[*start..*start + piece.len()], Endian::NATIVE);
                if piece.whole {
                    array.store_chunk(&[piece.chunk], ArrayBytes::new_flen(bytes))
                } else {
                    let origin = piece.origin + piece.within.start;
                    let range = origin..origin + (piece.within.end - piece.within.start);
                    array.store_array_subset(&[range], ArrayBytes::new_flen(bytes))
                }
            })
            .collect::<Result<Vec<()>, ArrayError>>()?;
    }
    Ok(())
}

/// The part of one chunk a subset covers.
struct Piece {
    chunk: u64,
    /// The chunk's first element in the array.
    origin: u64,
    /// The elements covered, counted from the chunk's start.
    within: Range<u64>,
    /// Whether they are the whole chunk.
    whole: bool,
}

impl Piece {
    fn len(&self) -> usize {
        // Within a chunk, whose elements zarrs holds in memory at once.
        usize::try_from(self.within.end - self.within.start).unwrap_or(usize::MAX)
    }
}

/// The chunks `subset` of a one-dimensional `array` covers, in order; `None` for an array of
/// more dimensions, or a subset zarrs must judge (out of bounds), which zarrs then handles.
fn pieces<S: ?Sized>(
    array: &Array<S>,
    subset: &dyn ArraySubsetTraits,
) -> Result<Option<Vec<Piece>>, Error> {
    let (&[length], &[start], &[count]) = (array.shape(), &*subset.start(), &*subset.shape())
    else {
        return Ok(None);
    };
    let Some(end) = start.checked_add(count).filter(|&end| end <= length) else {
        return Ok(None);
    };
    let Some(chunks) = array
        .chunks_in_array_subset(subset)
        .map_err(ArrayError::from)?
    else {
        return Ok(None);
    };
    let (&[first], &[number]) = (chunks.start(), chunks.shape()) else {
        return Ok(None);
    };
    let mut pieces = Vec::new();
    for chunk in first..first.saturating_add(number) {
        // Edge chunks are whole chunks in the store, beyond the array's end too: only a
        // chunk covered entirely, unbounded, is moved as a chunk.
        let bounds = array.chunk_subset(&[chunk])?;
        let (&[origin], &[size]) = (bounds.start(), bounds.shape()) else {
            return Ok(None);
        };
        let (from, to) = (start.max(origin), end.min(origin.saturating_add(size)));
        if from < to {
            pieces.push(Piece {
                chunk,
                origin,
                within: from - origin..to - origin,
                whole: from == origin && to - origin == size,
            });
        }
    }
    Ok(Some(pieces))
}

/// That `T` is the array's record type, or the error naming the first field that differs.
fn check_type<T: ZarrType, S: ?Sized>(array: &Array<S>) -> Result<(), Error> {
    let record = RecordType::of(array.data_type())?;
    T::layout(Endian::NATIVE).check_matches(record.native_layout())?;
    Ok(())
}
