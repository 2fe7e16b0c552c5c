//! Shards a read or a write covers whole, read and written by zarrdt around zarrs' codecs.
//!
//! A read: one read of the stored shard (so that a writer replacing it meanwhile is never seen
//! half), its index checked as [`check_shards`](crate::check_shards) checks it, and each inner
//! chunk decoded by the array's inner codecs straight from the shard's bytes, to the records'
//! stored byte order where [`StoredOrder`] can: an uncompressed inner chunk is not copied at
//! all, and no shard-sized buffer is made. Compressed inner chunks are decoded as the read
//! comes to them, a band of rows of inner chunks at a time (a row: the inner chunks at one
//! index along the shard's first dimension), each band handed to the output and let go before
//! the next but one is decoded; where a band is handed over by one thread (its runs short: a
//! tile's row, or a short row of the shard) the next band is decoded meanwhile, and tiles
//! (inner chunks narrower than the shard) have a shard's first row decoded when it is fetched:
//! beside the output, the stored shards and two bands of decoded inner chunks (three, tiles),
//! never a decoded shard. An inner chunk that fails to decode is an error only when the read
//! comes to it; one wholly beyond the array's end is never decoded. (zarrs' own decode of a
//! whole shard copies every inner chunk into a new shard-sized buffer, which the kernel faults
//! in anew for each shard: shards are larger than what the allocator keeps for reuse.)
//!
//! A write: each inner chunk that is not all the fill value encoded by the array's inner codecs
//! and copied once, in C order, before or after the index the index codecs encode, into a
//! buffer its thread gets back from the store and reuses for its next shard; a shard of
//! nothing but the fill value is erased. Where the inner codecs change nothing (uncompressed,
//! the native byte order) and the index goes last, the shard is laid out in place: the buffer
//! the records were encoded into, with the index after them, with no copy at all. (zarrs'
//! encoder copies every inner chunk out of the shard, then into a new shard-sized buffer,
//! faulted in anew for every shard, in an order that varies from write to write.)
//!
//! Only for arrays with no codecs before or after `sharding_indexed` (a `transpose` before it
//! changes the shape it sees; a compressor after it encodes each shard whole) and no storage
//! transformers: zarrs reads and writes those.

use std::borrow::Cow;
use std::cell::RefCell;
use std::num::NonZeroU64;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use rayon::prelude::*;
use zarrdt_core::Endian;
use zarrs::array::{Array, ArrayError, ArrayMetadata, ArrayShardedExt, CodecOptions};
use zarrs::storage::{Bytes, ReadableStorageTraits, ReadableWritableStorageTraits};

use super::fill::FillPiece;
use super::run::{Projection, RunBytes};
use super::spare::SpareBuffers;
use super::stored_order::StoredOrder;
use crate::Error;
use crate::shard::{Plan, Sharding, inner_indices};

thread_local! {
    /// The stored form of the shard being written on this thread, back from the store and
    /// reused.
    static STORED: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Whether zarrdt may read and write `array`'s chunks in its store itself: no storage
/// transformers stand between the array and the store.
pub(super) fn stores_directly<S: ?Sized>(array: &Array<S>) -> bool {
    match array.metadata() {
        ArrayMetadata::V3(metadata) => metadata.storage_transformers.is_empty(),
        _ => true,
    }
}

/// Whether `bytes` are elements each equal to `fill` (the fill value's bytes).
pub(super) fn all_fill(bytes: &[u8], fill: &[u8]) -> bool {
    if fill.iter().all(|&byte| byte == 0) {
        bytes.iter().all(|&byte| byte == 0)
    } else {
        bytes
            .chunks_exact(fill.len().max(1))
            .all(|element| element == fill)
    }
}

/// Stores `bytes` at `key` and takes the buffer back for the next write once the store has let
/// it go (a directory's store writes the file and drops it; an in-memory one keeps it, and
/// then nothing comes back).
pub(super) fn set_and_take_back<S: ?Sized + ReadableWritableStorageTraits>(
    storage: &S,
    key: &zarrs::storage::StoreKey,
    bytes: Vec<u8>,
) -> Result<Option<Vec<u8>>, zarrs::storage::StorageError> {
    let stored = Bytes::from(bytes);
    storage.set(key, stored.clone())?;
    Ok(taken_back(stored))
}

/// The buffer of bytes handed to a store, if the store has let go of them (`None` if it keeps
/// them).
pub(super) fn taken_back(stored: Bytes) -> Option<Vec<u8>> {
    stored.try_into_mut().ok().map(Vec::from)
}

/// How the shards of one array are read and written whole.
pub(crate) struct WholeShards {
    sharding: Sharding,
    /// The index of a shard.
    plan: Plan,
    /// The shard's shape, the inner chunks' shape (the sharding codec's, as numbers), and the
    /// size of one decoded.
    shard_shape: Vec<u64>,
    inner: Vec<u64>,
    inner_bytes: usize,
    /// The size of one element.
    element_size: usize,
    /// Whether each inner chunk is a run of the shard's elements (as wide as the shard in
    /// every dimension but the first), so that a write encodes it where it lies; otherwise
    /// they are tiles, and a read decodes a shard's first row of them when it is fetched.
    in_order: bool,
    /// Whether the inner codecs end in bytes-to-bytes codecs (a compressor, a checksum): an
    /// inner chunk decoded is then a buffer of its own, not a part of the stored shard.
    compressed: bool,
    /// How a read decodes inner chunks to their stored order, if it does.
    stored_order: Option<StoredOrder>,
    /// Fill values for missing inner chunks, made when one is first met.
    fill: OnceLock<FillPiece>,
    /// The part of each element a read keeps of the inner chunks it decodes, if not all.
    projection: Option<Projection>,
    /// Decoded inner chunks let go of, for the next ones to be decoded into.
    spare: SpareBuffers,
}

/// A shard read whole: its stored bytes, and each inner chunk's bytes, decoded or still to be
/// (in C order of the inner chunks).
pub(crate) struct SplitShard<'a> {
    /// The stored shard, let go once no piece is read from it.
    stored: Bytes,
    pieces: Vec<Piece>,
    /// How many pieces are read from `stored` (encoded, or stored as they are).
    in_stored: usize,
    shards: &'a WholeShards,
    /// The shard's store key, for errors.
    key: Arc<str>,
    options: CodecOptions,
}

/// One inner chunk's bytes.
pub(crate) enum Piece {
    /// Not decoded yet: its bytes in the stored shard, encoded.
    Encoded(Range<usize>),
    /// Its decode failed: the error, raised when a read comes to it (so that the error a read
    /// reports is the first in the output's order, whatever was decoded ahead of it).
    Failed(Error),
    /// In the stored shard, as they are (the inner codecs changed nothing).
    Stored(Range<usize>),
    /// Decoded by the inner codecs.
    Decoded(Vec<u8>),
    /// Decoded by the inner codecs, and only the read's [`Projection`] of each element kept.
    Projected(Vec<u8>),
    /// Not stored: the fill value.
    Fill,
    /// Not to be read: handed over and let go, or wholly beyond the array's end.
    Released,
}

/// An inner chunk still to be decoded, apart from its shard (its encoded bytes shared with the
/// stored shard), so that it is decoded while the shard's other inner chunks are read.
pub(crate) struct ToDecode<'a> {
    /// Its number (C order among the shard's inner chunks) and its place in the stored shard.
    chunk: usize,
    range: Range<usize>,
    bytes: Bytes,
    shards: &'a WholeShards,
    /// The shard's store key, for errors.
    key: Arc<str>,
    options: CodecOptions,
}

impl WholeShards {
    /// How a read or write of `plan` (over `array`'s shards, elements of `element_size` bytes)
    /// reads and writes the shards it covers whole; `None` if it covers none, or zarrs is to
    /// read them. Worked out only when some shard is covered: it parses the codecs' metadata.
    pub(crate) fn for_plan<S: ?Sized>(
        array: &Array<S>,
        plan: &super::plan::Plan,
        element_size: usize,
    ) -> Result<Option<WholeShards>, Error> {
        if !array.is_sharded() || !plan.covers_a_unit() {
            return Ok(None);
        }
        WholeShards::of(array, plan.unit_shape(), element_size)
    }

    /// How to read `array`'s shards (of `shard_shape`, elements of `element_size` bytes)
    /// whole; `None` if zarrs is to read them (see the module's docs).
    fn of<S: ?Sized>(
        array: &Array<S>,
        shard_shape: &[u64],
        element_size: usize,
    ) -> Result<Option<WholeShards>, Error> {
        let Some(sharding) = Sharding::of(array)? else {
            return Ok(None);
        };
        if sharding.is_wrapped() || !stores_directly(array) {
            return Ok(None);
        }
        let inner_shape = sharding.inner_chunk_shape().to_vec();
        let Some(shape) = shard_shape
            .iter()
            .map(|&extent| NonZeroU64::new(extent))
            .collect::<Option<Vec<_>>>()
        else {
            return Ok(None);
        };
        // A zero-dimensional array's one element is left to zarrs.
        let tiles = !shape.is_empty()
            && inner_shape.len() == shape.len()
            && shape
                .iter()
                .zip(&inner_shape)
                .all(|(shard, inner)| shard.get() % inner.get() == 0);
        if !tiles {
            return Ok(None);
        }
        let Ok(Some(plan)) = sharding.plan(&shape) else {
            return Ok(None);
        };
        let inner_bytes = inner_shape
            .iter()
            .try_fold(element_size as u64, |bytes, extent| {
                bytes.checked_mul(extent.get())
            })
            .and_then(|bytes| usize::try_from(bytes).ok());
        let fill = sharding.fill_value().as_ne_bytes().len();
        let Some(inner_bytes) = inner_bytes.filter(|&bytes| bytes > 0 && fill == element_size)
        else {
            return Ok(None);
        };
        let in_order = inner_shape[1..] == shape[1..];
        let compressed = !sharding.inner_codecs().bytes_to_bytes_codecs().is_empty();
        let stored_order = StoredOrder::of(
            sharding.inner_codecs(),
            sharding.data_type(),
            sharding.fill_value(),
        );
        Ok(Some(WholeShards {
            stored_order,
            // The inner chunks decoded at once: a band on every thread, the next beside it.
            spare: SpareBuffers::new(2 * rayon::current_num_threads().max(1)),
            sharding,
            plan,
            shard_shape: shard_shape.to_vec(),
            inner: inner_shape.iter().map(|extent| extent.get()).collect(),
            inner_bytes,
            element_size,
            in_order,
            compressed,
            fill: OnceLock::new(),
            projection: None,
        }))
    }

    /// The largest piece of an inner chunk a read hands over at once (see
    /// [`SplitShard::for_each`]): the whole inner chunk where it is a run of the shard's
    /// elements, else a row of it along the last dimension.
    pub(crate) fn largest_piece(&self) -> usize {
        if self.in_order {
            return self.inner_bytes;
        }
        let row = self.inner.last().copied().unwrap_or(1);
        usize::try_from(row)
            .unwrap_or(usize::MAX)
            .saturating_mul(self.element_size)
    }

    /// The same, for a read that keeps only `projection` of each element it decodes (if
    /// given, and within the element).
    pub(crate) fn projecting(mut self, projection: Option<Projection>) -> Self {
        self.projection = projection.filter(|projection| {
            projection
                .offset
                .checked_add(projection.size)
                .is_some_and(|end| end <= self.element_size)
                && projection.size > 0
        });
        self
    }

    /// Reads the shard at `indices` in one read and checks its index; `None` if it is not
    /// stored. Its inner chunks are decoded as the read comes to them where
    /// [`decodes_as_read`](Self::decodes_as_read) (the first row of tiles now), all of them now
    /// (on all threads) otherwise.
    pub(crate) fn read<S: ?Sized + ReadableStorageTraits + 'static>(
        &self,
        array: &Array<S>,
        indices: &[u64],
        options: &CodecOptions,
    ) -> Result<Option<SplitShard<'_>>, Error> {
        let key = array.chunk_key(indices);
        let Some(stored) = array.storage().get(&key)? else {
            return Ok(None);
        };
        let key: Arc<str> = Arc::from(key.as_str());
        let fail = |reason: String| Error::Shard {
            key: key.to_string(),
            reason,
        };
        let index = self.sharding.index_in(&self.plan, &stored, "is", &fail)?;
        let pieces = index
            .entries()
            .iter()
            .enumerate()
            .map(|(number, entry)| {
                // No read comes to an inner chunk wholly beyond the array's end (one stored
                // before the array shrank): never decoded, as zarrs never decodes it.
                if self.beyond(indices, array.shape(), number) {
                    return Ok(Piece::Released);
                }
                let Some(range) = entry else {
                    return Ok(Piece::Fill);
                };
                // Within the shard: the index was checked against its length.
                let (start, end) = (
                    usize::try_from(range.start).unwrap_or(usize::MAX),
                    usize::try_from(range.end).unwrap_or(usize::MAX),
                );
                if start > end || end > stored.len() {
                    return Err(fail(format!("an inner chunk at bytes {start}..{end}")));
                }
                Ok(Piece::Encoded(start..end))
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let in_stored = pieces
            .iter()
            .filter(|piece| matches!(piece, Piece::Encoded(_)))
            .count();
        let mut shard = SplitShard {
            stored,
            pieces,
            in_stored,
            shards: self,
            key,
            options: *options,
        };
        if !self.decodes_as_read() {
            shard.decode_rows(0..usize::MAX);
        } else if !self.in_order {
            // Tiles: a read hands them over a row of them at a time, each row's decode beside
            // the handing over of the row before; this shard's first row is decoded now,
            // beside the handing over of the shards read before it.
            shard.decode_rows(0..1);
        }
        Ok(Some(shard))
    }

    /// Whether a read decodes a shard's inner chunks as it comes to them, a band of rows of
    /// them at a time (see [`SplitShard::to_decode`]): they are compressed (each decoded into a
    /// buffer of its own; uncompressed ones are read where they are stored) and there are
    /// enough of them to keep every thread busy. Memory, for the row of shards being read:
    /// their stored bytes and two bands of decoded inner chunks across them (three for tiles),
    /// not the decoded shards.
    pub(crate) fn decodes_as_read(&self) -> bool {
        self.compressed && self.inner_chunks() >= rayon::current_num_threads()
    }

    /// Stores `elements`, the native bytes of every element of the shard at `indices` (C
    /// order), as that shard (see the module's docs). Gives back a buffer for the thread's next
    /// shard: `elements`' own, or the one the store let go.
    pub(crate) fn store<S: ?Sized + ReadableWritableStorageTraits + 'static>(
        &self,
        array: &Array<S>,
        indices: &[u64],
        elements: Vec<u8>,
        options: &CodecOptions,
    ) -> Result<Vec<u8>, Error> {
        let key = array.chunk_key(indices);
        let codec = |error| Error::in_chunk(array, indices, ArrayError::CodecError(error));
        let stored = |error| Error::in_chunk(array, indices, ArrayError::StorageError(error));
        let counts = self.plan.chunks_per_shard();
        let chunks: u64 = counts.iter().product();
        let index_size = self.index_size();
        let count = usize::try_from(chunks).unwrap_or(0);
        // Each inner chunk encoded on all threads: `None` for one of nothing but the fill
        // value (one wholly beyond the array's end is, unlooked at); borrowed from `elements`
        // where the codecs change nothing.
        let skip_beyond = !options.store_empty_chunks();
        let encode = |number: usize| -> Result<Option<Cow<'_, [u8]>>, Error> {
            if skip_beyond && self.beyond(indices, array.shape(), number) {
                return Ok(None);
            }
            if self.in_order {
                let start = number * self.inner_bytes;
                let bytes = elements
                    .get(start..start + self.inner_bytes)
                    .ok_or_else(|| self.wrong_length(elements.len()))?;
                self.encode_inner(bytes, options).map_err(codec)
            } else {
                let gathered = self.gather(&elements, number)?;
                let encoded = self.encode_inner(&gathered, options).map_err(codec)?;
                Ok(encoded.map(|encoded| Cow::Owned(encoded.into_owned())))
            }
        };
        let encoded = encode_each(count, &encode)?;
        // Where each inner chunk lies in the stored shard, in C order after (or before) the
        // index.
        let mut entries = vec![u64::MAX; 2 * count];
        // The inner chunks stored are the first ones, each its run of `elements` as it is (an
        // uncompressed array in the native byte order; the ones after them all fill, at an
        // edge of the array), and the index goes after them: the shard is the start of
        // `elements` and the index, laid out in place.
        let stored_first = encoded
            .iter()
            .take_while(|encoded| encoded.is_some())
            .count();
        let in_place = !self.sharding.index_first()
            && encoded[stored_first..].iter().all(Option::is_none)
            && encoded[..stored_first]
                .iter()
                .enumerate()
                .all(|(number, encoded)| {
                    let run = number * self.inner_bytes..(number + 1) * self.inner_bytes;
                    matches!(encoded, Some(Cow::Borrowed(bytes))
                    if elements.get(run).map(<[u8]>::as_ptr_range) == Some(bytes.as_ptr_range()))
                });
        let (mut shard, kept) = if in_place {
            for number in 0..stored_first {
                entries[2 * number] = (number * self.inner_bytes) as u64;
                entries[2 * number + 1] = self.inner_bytes as u64;
            }
            drop(encoded);
            let mut elements = elements;
            elements.truncate(stored_first * self.inner_bytes);
            (elements, None)
        } else {
            let mut shard = STORED.with(|kept| std::mem::take(&mut *kept.borrow_mut()));
            shard.clear();
            // Room for the shard uncompressed, so that it grows only past that.
            shard.reserve(
                count
                    .saturating_mul(self.inner_bytes)
                    .saturating_add(index_size),
            );
            if self.sharding.index_first() {
                shard.resize(index_size, 0);
            }
            for (number, encoded) in encoded.iter().enumerate() {
                if let Some(encoded) = encoded {
                    entries[2 * number] = shard.len() as u64;
                    entries[2 * number + 1] = encoded.len() as u64;
                    shard.extend_from_slice(encoded);
                }
            }
            drop(encoded);
            (shard, Some(elements))
        };
        // Whichever buffer is not stored goes back to where it came from.
        let give_back = |shard: Vec<u8>| match kept {
            Some(elements) => {
                STORED.with(|kept| *kept.borrow_mut() = shard);
                elements
            }
            None => shard,
        };
        let storage = array.storage();
        if entries.iter().all(|&entry| entry == u64::MAX) {
            storage.erase(&key).map_err(stored)?;
            return Ok(give_back(shard));
        }
        let index = self
            .sharding
            .encode_index(&self.plan, &entries, options)
            .map_err(codec)?;
        if index.len() != index_size {
            return Err(Error::Shard {
                key: key.to_string(),
                reason: format!(
                    "its index encodes to {} bytes, not the {index_size} its codecs announce",
                    index.len()
                ),
            });
        }
        if self.sharding.index_first() {
            shard[..index_size].copy_from_slice(&index);
        } else {
            shard.extend_from_slice(&index);
        }
        let back = set_and_take_back(&*storage, &key, shard).map_err(stored)?;
        Ok(give_back(back.unwrap_or_default()))
    }

    /// Whether the inner chunk `number` (C order) of the shard at `indices` lies wholly beyond
    /// the end of an array of `array_shape` (its elements are then the fill value).
    fn beyond(&self, indices: &[u64], array_shape: &[u64], number: usize) -> bool {
        let counts = self.plan.chunks_per_shard();
        let mut rest = number as u64;
        let mut beyond = false;
        for dimension in (0..counts.len()).rev() {
            let count = counts[dimension].max(1);
            let position = rest % count;
            rest /= count;
            let shard_origin = indices
                .get(dimension)
                .copied()
                .unwrap_or(0)
                .saturating_mul(self.shard_shape.get(dimension).copied().unwrap_or(0));
            let origin = shard_origin.saturating_add(
                position.saturating_mul(self.inner.get(dimension).copied().unwrap_or(0)),
            );
            beyond |= array_shape
                .get(dimension)
                .is_some_and(|&extent| origin >= extent);
        }
        beyond
    }

    /// The number of inner chunks of a shard.
    pub(crate) fn inner_chunks(&self) -> usize {
        let chunks: u64 = self.plan.chunks_per_shard().iter().product();
        usize::try_from(chunks).unwrap_or(usize::MAX)
    }

    /// The size of a shard's encoded index: the room a shard laid out in place needs after its
    /// elements' bytes.
    pub(crate) fn index_size(&self) -> usize {
        usize::try_from(self.plan.index_size()).unwrap_or(usize::MAX)
    }

    /// One inner chunk's `bytes` encoded by the inner codecs (borrowed where they change
    /// nothing); `None` if it is all the fill value and empty chunks are not stored.
    fn encode_inner<'b>(
        &self,
        bytes: &'b [u8],
        options: &CodecOptions,
    ) -> Result<Option<Cow<'b, [u8]>>, zarrs::array::CodecError> {
        if !options.store_empty_chunks()
            && all_fill(bytes, self.sharding.fill_value().as_ne_bytes())
        {
            return Ok(None);
        }
        self.sharding
            .encode_inner(bytes, self.sharding.inner_chunk_shape(), options)
            .map(Some)
    }

    /// The inner chunk `number` (C order among the shard's inner chunks), copied out of the
    /// shard's `elements` row by row.
    fn gather(&self, elements: &[u8], number: usize) -> Result<Vec<u8>, Error> {
        let inner = &self.inner;
        let size = self.element_size;
        let counts = self.plan.chunks_per_shard();
        // The inner chunk's position among the shard's inner chunks.
        let mut chunk = vec![0u64; counts.len()];
        let mut rest = number as u64;
        for (position, &count) in chunk.iter_mut().zip(counts).rev() {
            *position = rest % count.max(1);
            rest /= count.max(1);
        }
        let last = inner.len() - 1;
        let row = usize::try_from(inner[last]).unwrap_or(usize::MAX) * size;
        let mut out = Vec::with_capacity(self.inner_bytes);
        let mut within = vec![0u64; inner.len()];
        loop {
            // The row's first element in the shard, in C order.
            let mut at = 0u64;
            for ((&position, &offset), (&extent, &shard)) in chunk
                .iter()
                .zip(&within)
                .zip(inner.iter().zip(&self.shard_shape))
            {
                at = at * shard + position * extent + offset;
            }
            let start = usize::try_from(at).unwrap_or(usize::MAX) * size;
            out.extend_from_slice(
                elements
                    .get(start..start + row)
                    .ok_or_else(|| self.wrong_length(elements.len()))?,
            );
            // The next row: every dimension but the last, in C order.
            let mut dimension = last;
            loop {
                if dimension == 0 {
                    return Ok(out);
                }
                dimension -= 1;
                within[dimension] += 1;
                if within[dimension] < inner[dimension] {
                    break;
                }
                within[dimension] = 0;
            }
        }
    }

    /// The error of a shard's elements of the wrong length (a caller's bug, never the input's).
    fn wrong_length(&self, len: usize) -> Error {
        Error::Zarr(zarrdt_core::Error::ChunkLength {
            len,
            element_size: self.element_size,
        })
    }

    /// The piece of an inner chunk decoded to `bytes` (whole elements): its read's
    /// [`Projection`] of each element if it has one, else the bytes themselves.
    fn decoded(&self, bytes: Cow<'_, [u8]>) -> Piece {
        let Some(Projection { offset, size }) = self.projection else {
            return Piece::Decoded(bytes.into_owned());
        };
        let mut kept = Vec::with_capacity(bytes.len() / self.element_size * size);
        for element in bytes.chunks_exact(self.element_size) {
            kept.extend_from_slice(&element[offset..offset + size]);
        }
        if let Cow::Owned(decoded) = bytes {
            self.spare.give(decoded);
        }
        Piece::Projected(kept)
    }

    /// Fill values (in the order of the decoded inner chunks), made when a missing inner chunk
    /// is first met, which is handed over from them a piece at a time.
    fn fill(&self) -> &FillPiece {
        self.fill.get_or_init(|| {
            let fill = match &self.stored_order {
                Some(order) => order.fill_record(),
                None => self.sharding.fill_value().as_ne_bytes(),
            };
            FillPiece::new(fill, self.inner_bytes / self.element_size.max(1))
        })
    }

    /// The order of every multi-byte value of the inner chunks a read decodes.
    fn endian(&self) -> Endian {
        self.stored_order
            .as_ref()
            .map_or(Endian::NATIVE, StoredOrder::endian)
    }
}

/// `encode` of the inner chunks numbered `0..count`, on all threads, in order; the error is
/// the first failure in the shard's order, however the threads ran. The closure behind a
/// reference: one instance, compiled in this crate, whatever the storage.
fn encode_each<'b>(
    count: usize,
    encode: &(dyn Fn(usize) -> Result<Option<Cow<'b, [u8]>>, Error> + Sync),
) -> Result<Vec<Option<Cow<'b, [u8]>>>, Error> {
    (0..count)
        .into_par_iter()
        .map(encode)
        .collect::<Vec<_>>()
        .into_iter()
        .collect()
}

impl<'a> SplitShard<'a> {
    /// Decodes every inner chunk of the rows `rows` not decoded yet, on all threads.
    fn decode_rows(&mut self, rows: Range<usize>) {
        let decoded = self
            .to_decode(rows)
            .into_par_iter()
            .map(ToDecode::decode)
            .collect::<Vec<_>>();
        for (chunk, piece) in decoded {
            self.settle(chunk, piece);
        }
    }

    /// The inner chunks in the rows `rows` still to be decoded (a row: the inner chunks at one
    /// index along the shard's first dimension, C order among them).
    pub(crate) fn to_decode(&self, rows: Range<usize>) -> Vec<ToDecode<'a>> {
        self.chunks_in(rows)
            .filter_map(|chunk| {
                let Piece::Encoded(range) = &self.pieces[chunk] else {
                    return None;
                };
                Some(ToDecode {
                    chunk,
                    range: range.clone(),
                    // Within the stored shard: checked when it was read.
                    bytes: self.stored.slice(range.clone()),
                    shards: self.shards,
                    key: self.key.clone(),
                    options: self.options,
                })
            })
            .collect()
    }

    /// Puts `piece`, the inner chunk `chunk` decoded ([`ToDecode::decode`]), in place of its
    /// encoded bytes; lets the stored shard go once no piece is read from it.
    pub(crate) fn settle(&mut self, chunk: usize, piece: Piece) {
        let Some(place @ Piece::Encoded(_)) = self.pieces.get_mut(chunk) else {
            return;
        };
        if !matches!(piece, Piece::Stored(_)) {
            self.in_stored -= 1;
        }
        *place = piece;
        self.let_go_of_stored();
    }

    /// Lets the inner chunks of the rows `rows` go: a read has handed them over (whole shards
    /// are read in C order, each element once), whether or not it read all of them (at the
    /// array's edge it does not). Lets the stored shard go once no piece is read from it.
    pub(crate) fn let_go(&mut self, rows: Range<usize>) {
        for number in self.chunks_in(rows) {
            self.release(number);
        }
    }

    /// The numbers of the inner chunks in the rows `rows` (C order among them), within the
    /// shard.
    fn chunks_in(&self, rows: Range<usize>) -> Range<usize> {
        let per_row = self.chunks_per_row();
        let start = rows.start.saturating_mul(per_row).min(self.pieces.len());
        let end = rows.end.saturating_mul(per_row).min(self.pieces.len());
        start..end
    }

    /// Lets the inner chunk `number` go; lets the stored shard go once no piece is read from it.
    fn release(&mut self, number: usize) {
        let Some(piece) = self.pieces.get_mut(number) else {
            return;
        };
        match std::mem::replace(piece, Piece::Released) {
            Piece::Stored(_) | Piece::Encoded(_) => {
                self.in_stored -= 1;
                self.let_go_of_stored();
            }
            Piece::Decoded(decoded) => self.shards.spare.give(decoded),
            _ => {}
        }
    }

    /// Lets the stored shard go if no piece is read from it any more.
    fn let_go_of_stored(&mut self) {
        if self.in_stored == 0 {
            self.stored = Bytes::new();
        }
    }

    /// The number of inner chunks in a row of them (at one index along the first dimension).
    pub(crate) fn chunks_per_row(&self) -> usize {
        let counts = self.shards.plan.chunks_per_shard();
        let per_row: u64 = counts.iter().skip(1).product();
        usize::try_from(per_row).unwrap_or(usize::MAX).max(1)
    }

    /// The number of elements in a row of inner chunks: the elements at `row * len..(row + 1)
    /// * len` (C order in the shard) are in row `row`.
    pub(crate) fn row_len(&self) -> usize {
        let shards = self.shards;
        let len = shards.shard_shape.iter().skip(1).fold(
            shards.inner.first().copied().unwrap_or(1),
            |len, &extent| len.saturating_mul(extent),
        );
        usize::try_from(len).unwrap_or(usize::MAX).max(1)
    }

    /// The shard's decoded bytes in `range` (bytes of its elements in C order), handed to
    /// `take` a piece at a time (a piece is the part of a row of the shard in one inner
    /// chunk); `None` if the range is not whole elements of the shard or comes to an inner
    /// chunk not decoded or already let go (a caller's bug).
    pub(crate) fn for_each(
        &mut self,
        range: Range<usize>,
        take: &mut dyn FnMut(RunBytes<'_>) -> Result<(), Error>,
    ) -> Option<Result<(), Error>> {
        let shards = self.shards;
        let size = shards.element_size;
        if range.start > range.end
            || range.end > self.len()
            || !range.start.is_multiple_of(size)
            || !range.end.is_multiple_of(size)
        {
            return None;
        }
        let inner = &shards.inner;
        let last = inner.len().checked_sub(1)?;
        let mut coordinates = vec![0u64; inner.len()];
        let mut at = (range.start / size) as u64;
        let end = (range.end / size) as u64;
        while at < end {
            // The element's coordinates in the shard, its inner chunk and its place there.
            let mut rest = at;
            for (coordinate, &extent) in coordinates.iter_mut().zip(&shards.shard_shape).rev() {
                *coordinate = rest % extent;
                rest /= extent;
            }
            let (mut chunk, mut within) = (0u64, 0u64);
            for ((&coordinate, &extent), &shard) in
                coordinates.iter().zip(inner).zip(&shards.shard_shape)
            {
                chunk = chunk * (shard / extent) + coordinate / extent;
                within = within * extent + coordinate % extent;
            }
            // Along the last dimension, to the end of the inner chunk's row or of the range.
            let count = (inner[last] - coordinates[last] % inner[last]).min(end - at);
            let number = usize::try_from(chunk).ok()?;
            // A failed decode: its error, now that the read has come to it.
            if let Piece::Failed(_) = self.pieces.get(number)?
                && let Piece::Failed(error) =
                    std::mem::replace(&mut self.pieces[number], Piece::Released)
            {
                return Some(Err(error));
            }
            let (from, to) = (usize::try_from(within).ok()?, usize::try_from(count).ok()?);
            let to = from + to;
            if let Piece::Fill = self.pieces.get(number)? {
                if let Err(error) = shards.fill().hand_over(to - from, take) {
                    return Some(Err(error));
                }
                if to * size == shards.inner_bytes {
                    self.release(number);
                }
                at += count;
                continue;
            }
            let (bytes, width, projected) = match self.pieces.get(number)? {
                Piece::Stored(stored) => (self.stored.get(stored.clone())?, size, false),
                Piece::Decoded(decoded) => (decoded.as_slice(), size, false),
                Piece::Projected(kept) => (kept.as_slice(), shards.projection?.size, true),
                Piece::Fill | Piece::Encoded(_) | Piece::Failed(_) | Piece::Released => {
                    return None;
                }
            };
            let bytes = bytes.get(from * width..to * width)?;
            let run = if projected {
                RunBytes::Projected(bytes)
            } else {
                RunBytes::Elements(bytes)
            };
            if let Err(error) = take(run) {
                return Some(Err(error));
            }
            // Read to its end: each element of a whole shard is read once, in C order, so no
            // read comes to this inner chunk again.
            if to * size == shards.inner_bytes {
                self.release(number);
            }
            at += count;
        }
        Some(Ok(()))
    }

    /// The order of every multi-byte value in the shard's decoded bytes.
    pub(crate) fn endian(&self) -> Endian {
        self.shards.endian()
    }

    /// The length of the shard's decoded bytes.
    pub(crate) fn len(&self) -> usize {
        self.pieces.len() * self.shards.inner_bytes
    }
}

impl ToDecode<'_> {
    /// The inner chunk decoded by the inner codecs: its number and its piece, or its failure
    /// kept for a read that comes to it.
    pub(crate) fn decode(self) -> (usize, Piece) {
        let shards = self.shards;
        let shape = shards.sharding.inner_chunk_shape();
        let decoded = match &shards.stored_order {
            Some(order) => order.decode(
                shards.sharding.inner_codecs(),
                Cow::Borrowed(&self.bytes),
                shape,
                &self.options,
                &shards.spare,
            ),
            None => shards
                .sharding
                .decode_inner(&self.bytes, shape, &self.options),
        };
        let inner = || inner_indices(self.chunk, shards.plan.chunks_per_shard());
        let piece = match decoded {
            Err(error) => Piece::Failed(Error::in_inner_chunk(
                self.key.to_string(),
                inner(),
                self.range.start as u64..self.range.end as u64,
                shards.sharding.nested_fault(&self.bytes, &self.options),
                error,
            )),
            Ok(decoded) if decoded.len() != shards.inner_bytes => Piece::Failed(Error::Shard {
                reason: format!(
                    "inner chunk {:?} decodes to {} bytes, expected {}",
                    inner(),
                    decoded.len(),
                    shards.inner_bytes
                ),
                key: self.key.to_string(),
            }),
            // Borrowed from the stored bytes (a codec hands back its input or a part of it):
            // kept as its place in the stored shard.
            Ok(Cow::Borrowed(slice)) => {
                match slice
                    .as_ptr()
                    .addr()
                    .checked_sub(self.bytes.as_ptr().addr())
                {
                    Some(offset) if offset + slice.len() <= self.bytes.len() => {
                        let start = self.range.start + offset;
                        Piece::Stored(start..start + slice.len())
                    }
                    _ => shards.decoded(Cow::Borrowed(slice)),
                }
            }
            Ok(owned @ Cow::Owned(_)) => shards.decoded(owned),
        };
        (self.chunk, piece)
    }
}
