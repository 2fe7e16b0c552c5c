//! Whole uncompressed chunks written to their store a piece at a time: each piece of the chunk
//! encoded into a buffer that stays in the cache and handed to the store's partial write as it
//! is made, where the chunk would otherwise be encoded whole into memory, read back by the
//! store's write and only then written (a 21 MB chunk passes through the memory three times
//! instead of once). The bytes stored are the same, in one partial write of the whole chunk,
//! in order (a directory store holds its lock on the chunk for the whole write, as for a whole
//! one: a read through the same store sees no chunk or the whole new one).
//!
//! Only for chunks whose codecs are the `bytes` codec alone (not sharded, no array-to-array
//! codec, no compressor or checksum: every run of elements is then stored as the chunk stores
//! it, at its place), in stores that write in part efficiently (a directory's, zarrs' in-memory
//! one; its atomic-write adapter and object stores say they do not), for chunks of two pieces
//! or more that are not stored yet. One stored before is replaced whole, truncated first, as
//! zarrs' stores replace it: written over in place, a writer killed in the middle would leave
//! old and new records mixed, where a whole write leaves the chunk cut short. A chunk of nothing
//! but the fill value is not stored, as zarrs' `store_chunk` does not store it: its pieces are
//! written only once one that is not all fill has been encoded.
//!
//! Each piece is encoded into the buffer of the one before, which the store has let go of once
//! it wrote it (a directory's store writes a piece and drops it before it asks for the next; an
//! in-memory one copies it into its value), and a thread keeps its last piece's buffer for its
//! next chunk: a chunk is written with no allocation and no zeroing per piece.

use std::cell::RefCell;
use std::num::NonZeroU64;
use std::ops::Range;

use zarrs::array::codec::BytesCodec;
use zarrs::array::{Array, ArrayBytes, ArrayError, ArrayToBytesCodecTraits};
use zarrs::storage::{Bytes, ReadableWritableStorageTraits};

use super::fill::write_options;
use super::whole_shard::{all_fill, stores_directly, taken_back};
use crate::Error;

/// The bytes of one piece: small enough that a piece encoded stays in a core's cache until the
/// store has written it.
const PIECE_BYTES: usize = 512 << 10;

thread_local! {
    /// The buffer of the last piece this thread wrote, for its next chunk's first piece.
    static KEPT_PIECE: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// How the whole chunks of one array are written a piece at a time.
pub(super) struct StreamedChunks {
    /// The size of one element.
    element_size: usize,
}

impl StreamedChunks {
    /// How whole chunks of `array` (elements of `element_size` bytes) are written a piece at a
    /// time; `None` where they are not (see the module's docs).
    pub(super) fn of<S>(array: &Array<S>, element_size: usize) -> Option<Self>
    where
        S: ?Sized + ReadableWritableStorageTraits + 'static,
    {
        let codecs = array.codecs();
        let bytes_alone = codecs.array_to_array_codecs().is_empty()
            && codecs.bytes_to_bytes_codecs().is_empty()
            && codecs
                .array_to_bytes_codec()
                .as_any()
                .downcast_ref::<BytesCodec>()
                .is_some();
        (bytes_alone
            && element_size > 0
            && stores_directly(array)
            && array.storage().supports_set_partial())
        .then_some(StreamedChunks { element_size })
    }

    /// The elements of one piece (one at least).
    fn piece_elements(&self) -> usize {
        (PIECE_BYTES / self.element_size).max(1)
    }

    /// Whether a whole chunk of `elements` elements is written a piece at a time.
    pub(super) fn streams(&self, elements: usize) -> bool {
        elements >= 2 * self.piece_elements()
    }

    /// Stores the whole chunk at `indices` of `elements` elements, if it is not stored yet,
    /// `encode` giving the native bytes of the elements at a range of its positions (C order)
    /// into a buffer of exactly their size. Returns whether it did: a chunk stored before is
    /// not written over in place (a writer killed in the middle would leave old and new
    /// records mixed), it is for the caller to store whole.
    ///
    /// The pieces are written in order, so that a writer killed in the middle leaves the chunk
    /// cut short (a read error naming it), as a killed whole write leaves it; a failure of the
    /// store once it is writing leaves it likewise.
    pub(super) fn store<S>(
        &self,
        array: &Array<S>,
        indices: &[u64],
        elements: usize,
        encode: impl Fn(Range<usize>, &mut [u8]) -> Result<(), Error> + Sync,
    ) -> Result<bool, Error>
    where
        S: ?Sized + ReadableWritableStorageTraits + 'static,
    {
        let key = array.chunk_key(indices);
        let storage = array.storage();
        let in_chunk = |error| Error::in_chunk(array, indices, error);
        let stored_error = |error| in_chunk(ArrayError::StorageError(error));
        if storage.size_key(&key).map_err(stored_error)?.is_some() {
            return Ok(false);
        }
        let options = write_options(array);
        let per_piece = self.piece_elements();
        let pieces = elements.div_ceil(per_piece);
        let size = self.element_size;
        let fill = array.fill_value().as_ne_bytes();
        let window = |number: usize| number * per_piece..((number + 1) * per_piece).min(elements);
        // The native bytes of a piece, encoded into `bytes` (a piece's buffer let go of: of
        // the same length but for the last piece, so nothing is zeroed first).
        let native = |number: usize, mut bytes: Vec<u8>| -> Result<Vec<u8>, Error> {
            let window = window(number);
            bytes.resize(window.len() * size, 0);
            encode(window, &mut bytes)?;
            Ok(bytes)
        };
        // The piece's stored bytes: the `bytes` codec's, run on the piece as on a chunk of its
        // elements (it encodes each element alone: the byte order).
        let stored = |number: usize, native: Vec<u8>| -> Result<(u64, Bytes), Error> {
            let count = NonZeroU64::new(window(number).len() as u64).ok_or_else(|| {
                in_chunk(ArrayError::InvalidChunkGridIndicesError(indices.into()))
            })?;
            let encoded = array
                .codecs()
                .encode(
                    ArrayBytes::new_flen(native),
                    &[count],
                    array.data_type(),
                    array.fill_value(),
                    &options,
                )
                .map_err(|error| in_chunk(ArrayError::CodecError(error)))?;
            Ok((
                (number * per_piece * size) as u64,
                Bytes::from(encoded.into_owned()),
            ))
        };
        // The pieces before the first that is not all fill are not written until it comes
        // (none, if it never does: the chunk is not stored, as zarrs' `store_chunk` does not
        // store it); they are copies of the first one's stored bytes.
        let mut first = 0;
        let mut fill_piece = None;
        let mut buffer = KEPT_PIECE.with(RefCell::take);
        let current = loop {
            let bytes = native(first, buffer)?;
            if options.store_empty_chunks() || !all_fill(&bytes, fill) {
                break stored(first, bytes)?;
            }
            buffer = if first == 0 {
                fill_piece = Some(stored(0, bytes)?.1);
                Vec::new()
            } else {
                bytes
            };
            first += 1;
            if first == pieces {
                keep_piece(buffer);
                return Ok(true);
            }
        };
        // Nothing at the chunk's end first: a store that sizes a value to the end of each
        // write (zarrs' in-memory one) makes it once, whole; a file is not extended by it.
        let sized = ((elements * size) as u64, Bytes::new());
        let leading = (0..first).filter_map(|number| {
            fill_piece
                .clone()
                .map(|bytes| ((number * per_piece * size) as u64, bytes))
        });
        let mut failure = None;
        let mut next = first + 1;
        // The piece handed to the store last: its buffer is the next piece's once the store
        // has let go of it.
        let mut last = Some(current.1.clone());
        let rest = std::iter::from_fn(|| {
            if next == pieces {
                return None;
            }
            let buffer = last.take().and_then(taken_back).unwrap_or_default();
            match native(next, buffer).and_then(|bytes| stored(next, bytes)) {
                Ok(piece) => {
                    last = Some(piece.1.clone());
                    next += 1;
                    Some(piece)
                }
                Err(error) => {
                    failure = Some(error);
                    None
                }
            }
        });
        storage
            .set_partial_many(
                &key,
                Box::new(
                    std::iter::once(sized)
                        .chain(leading)
                        .chain(std::iter::once(current))
                        .chain(rest),
                ),
            )
            .map_err(stored_error)?;
        keep_piece(last.and_then(taken_back).unwrap_or_default());
        failure.map_or(Ok(true), Err)
    }
}

/// Keeps `buffer` for the thread's next chunk, unless it is much larger than a piece (a piece
/// of one large element).
fn keep_piece(buffer: Vec<u8>) {
    if buffer.capacity() <= 2 * PIECE_BYTES {
        KEPT_PIECE.with(|kept| *kept.borrow_mut() = buffer);
    }
}
