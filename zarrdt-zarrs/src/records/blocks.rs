//! Reading an array one block after another, for tools that stream an array too large to hold
//! (`zarrdt dump`, `zarrdt export`, Arrow batches): the blocks a selection is read in
//! ([`Blocks`]: whole chunks, in C order, within a byte budget), and each block's records as
//! the bytes zarrs' codecs hand over, every shard index checked once, zarrs' shard indexes
//! kept between blocks.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::Arc;

use zarrs::array::{
    Array, ArrayBytes, ArrayError, ArrayPartialDecoderTraits, ArrayShardedExt,
    ArrayShardedReadableExt, ArrayShardedReadableExtCache, ArraySubset, ArraySubsetTraits,
    ArrayToBytesCodecTraits, CodecOptions,
};
use zarrs::storage::ReadableStorageTraits;
use zarrs::storage::byte_range::ByteRange;

use crate::shard::{Sharding, inner_indices};
use crate::subset::check_subset;
use crate::{Error, RecordType};

/// The byte budget of a block that streaming readers (`zarrdt dump`, `zarrdt export`, Arrow
/// batches) give [`BlockReader::blocks`] unless they need more: 8 MiB, whole chunks beyond it.
pub const DEFAULT_BLOCK_BYTES: usize = 8 << 20;

/// How many byte budgets a block may take to hold whole the chunks it reads (bands of whole
/// chunks, the dimensions after them whole), rather than rows of elements that read each chunk
/// again for every row it spans.
const ROW_OF_CHUNKS_BUDGETS: u128 = 32;

/// Chunks a block holds, at most, whatever its bytes: zarrs keeps hundreds of bytes of state
/// for every chunk of a read, so a block of 8 MiB of one-byte chunks (8 Mi chunks) took
/// gigabytes, and a `--limit 3` of an array of many dimensions read millions of them.
const BLOCK_CHUNKS: u128 = 16_384;

/// Shard indexes zarrs keeps between blocks, at most (one per shard read).
const CACHED_SHARD_INDEXES: usize = 16;

/// A chunk of more bytes than this (and than the budget) is read in pieces within the budget,
/// not whole: its size is a number from the metadata, and a missing chunk would be filled
/// whole from nothing stored (a 40 GB fill value for an array of a few hundred bytes).
const WHOLE_CHUNK_CEILING: u128 = 256 << 20;

/// zarrs' partial decoder of one chunk (or inner chunk).
type PartialDecoder = Arc<dyn ArrayPartialDecoderTraits>;

/// The partial decoder of a stored chunk, or of an inner chunk of a shard and where the inner
/// chunk is (its indices among the shard's inner chunks, its bytes in the shard), which its
/// errors name.
#[derive(Clone)]
struct PartDecoder {
    decoder: PartialDecoder,
    inner: Option<InnerPart>,
}

/// The inner chunk a [`PartDecoder`] decodes, for its errors.
#[derive(Clone)]
struct InnerPart {
    /// Its indices among the shard's inner chunks.
    indices: Vec<u64>,
    /// Its bytes in the stored shard.
    range: Range<u64>,
    /// Those bytes, which the decoder reads.
    stored: Arc<Vec<u8>>,
}

/// Reads the records of one subset ("block") after another as bytes: each record in the
/// native layout of the array's [`RecordType`] (every multi-byte value in the machine's byte
/// order), the records in C order. Checked as [`ReadRecords`](crate::ReadRecords) reads are:
/// a block beyond the array is an error before anything is read, the index of each shard a
/// block touches is read and checked ([`check_shards`](crate::check_shards)) the first time
/// (so is the stored size of an uncompressed chunk a block covers in part), and a chunk that
/// cannot be read or decoded is an error naming its key. A block that is part of one chunk
/// (of an unsharded array), or of one stored inner chunk of a shard, is read
/// through zarrs' partial decoder of that chunk, kept for the next part: a missing chunk gives
/// the part's fill value alone, an uncompressed one the part's bytes alone, a compressed one is
/// decoded once for all its parts. Memory: the block, the indexes of the last few shards read,
/// and the compressed chunk (inner chunk) the last part came from, decoded.
///
/// For records of a type known only at run time, decoded or written without building values
/// (with [`JsonWriter`](zarrdt_core::JsonWriter), say); a Rust type reads with
/// [`ReadRecords::retrieve_records`](crate::ReadRecords::retrieve_records).
///
/// ```
/// use std::sync::Arc;
/// use zarrdt::array::{ArrayOptions, BlockReader, DEFAULT_BLOCK_BYTES, WriteRecords};
/// use zarrdt::zarrs::storage::store::MemoryStore;
///
/// let array = ArrayOptions::new(vec![8], vec![2]).shards(vec![4]).create(Arc::new(MemoryStore::new()), "/", &0u16)?;
/// array.store_records(&[0..8], &(0..8u16).collect::<Vec<_>>())?;
/// let mut reader = BlockReader::new(&array)?;
/// for start in [0, 2, 4, 6] {
///     let bytes = reader.read(&[start..start + 2])?;
///     let expected: Vec<u8> = (start..start + 2).flat_map(|n| (n as u16).to_ne_bytes()).collect();
///     assert_eq!(bytes, expected);
/// }
/// // Or the blocks of a selection, each of whole chunks within 8 MiB, in C order.
/// let mut records = Vec::new();
/// for block in reader.blocks(&[1..7], DEFAULT_BLOCK_BYTES) {
///     records.extend(reader.read(&block)?);
/// }
/// assert_eq!(records.len(), 6 * 2);
/// # Ok::<(), zarrdt::array::Error>(())
/// ```
pub struct BlockReader<S: ?Sized> {
    /// The reader's own handle of the array (the same store).
    array: Array<S>,
    element_size: usize,
    cache: ArrayShardedReadableExtCache,
    options: CodecOptions,
    /// The shards whose indexes have been checked (of an array that is not sharded, the
    /// chunks whose stored size has been).
    checked: HashSet<Vec<u64>>,
    /// The chunk (a sharded array's inner chunk) that the last block read lay in part of, and
    /// zarrs' partial decoder of it: the next part of the same chunk is read from it (a
    /// compressed chunk decoded once for all its parts, not once a part); `None` for an inner
    /// chunk that is not stored, whose parts zarrs' sharded read fills.
    part_of: Option<(Vec<u64>, Option<PartDecoder>)>,
    /// The array's sharding codec, where its inner chunks can be read on their own (no codec
    /// before or after it changes the shard).
    sharding: Option<Sharding>,
}

impl<S: ?Sized + ReadableStorageTraits + 'static> BlockReader<S> {
    /// A reader of `array` (which it keeps its own handle of), whose data type must be one
    /// zarrdt knows ([`RecordType::of`]).
    pub fn new(array: &Array<S>) -> Result<Self, Error> {
        let element_size = RecordType::of(array.data_type())?.native_layout().size();
        Ok(BlockReader {
            array: array.with_storage(array.storage()),
            element_size,
            cache: ArrayShardedReadableExtCache::new(array),
            options: CodecOptions::default(),
            checked: HashSet::new(),
            part_of: None,
            // A configuration `Sharding` does not read leaves parts to zarrs' sharded read.
            sharding: Sharding::of(array)
                .ok()
                .flatten()
                .filter(|sharding| !sharding.is_wrapped()),
        })
    }

    /// The blocks the selection `ranges` (one range per dimension) is read in, each of whole
    /// chunks (a sharded array's inner chunks) of at most `budget` bytes where a row of
    /// chunks fits in it (see [`Blocks`]).
    pub fn blocks(&self, ranges: &[Range<u64>], budget: usize) -> Blocks {
        let start: Vec<u64> = ranges.iter().map(|range| range.start).collect();
        let grid = self.array.subchunk_grid();
        let chunk = grid
            .chunk_indices(&start)
            .ok()
            .flatten()
            .and_then(|indices| grid.chunk_shape_u64(&indices).ok().flatten())
            .filter(|shape| shape.len() == ranges.len())
            .unwrap_or_else(|| vec![1; ranges.len()]);
        Blocks::new(ranges.to_vec(), chunk, self.element_size, budget)
    }

    /// The records of `block`, in C order, as bytes (see [`BlockReader`]).
    pub fn read(&mut self, block: &dyn ArraySubsetTraits) -> Result<Vec<u8>, Error> {
        check_subset(&self.array, block, self.element_size)?;
        self.check_shards(block)?;
        if self.cache.len() > CACHED_SHARD_INDEXES {
            self.cache.clear();
        }
        if let Some((chunk, subset)) = self.part_of_chunk(block)?
            && let Some(bytes) = self.read_part(chunk, subset.start(), block)?
        {
            return Ok(bytes);
        }
        let bytes: ArrayBytes<'static> = self
            .array
            .retrieve_array_subset_sharded_opt(&self.cache, block, &self.options)
            .map_err(|error| crate::culprit::in_subset(&self.array, block, error))?;
        Ok(bytes.into_fixed().map_err(ArrayError::from)?.into_owned())
    }

    /// The indices of the chunk (of a sharded array, the inner chunk, in the grid of inner
    /// chunks) `block` lies in part of: `block` lies in one without covering all of it that
    /// lies in the array. `None` for a sharded array whose inner chunks cannot be read on their
    /// own (zarrs' sharded read reads the parts). With the chunk's subset of the array.
    fn part_of_chunk(
        &self,
        block: &dyn ArraySubsetTraits,
    ) -> Result<Option<(Vec<u64>, ArraySubset)>, Error> {
        let sharded = self.array.is_sharded();
        if sharded && self.sharding.is_none() {
            return Ok(None);
        }
        let block = block.to_array_subset();
        let grid = if sharded {
            self.array.subchunk_grid()
        } else {
            self.array.chunk_grid().clone()
        };
        let incompatible =
            |_| ArrayError::InvalidArraySubset(block.clone(), self.array.shape().to_vec());
        let Some(chunks) = grid.chunks_in_array_subset(&block).map_err(incompatible)? else {
            return Ok(None);
        };
        if chunks.num_elements() != 1 {
            return Ok(None);
        }
        let indices: Vec<u64> = chunks.start().to_vec();
        let Some(chunk) = grid.subset(&indices).map_err(incompatible)? else {
            return Ok(None);
        };
        let in_array = chunk.bound(self.array.shape()).map_err(ArrayError::from)?;
        Ok((block != in_array).then_some((indices, chunk)))
    }

    /// The records of `block`, part of the chunk (inner chunk) at `chunk` whose first element
    /// is at `origin`, through the chunk's partial decoder (kept for the next part): a missing
    /// chunk gives the fill value of the part alone, an uncompressed one the part's bytes
    /// alone, a compressed one is decoded once. `None` for part of an inner chunk that is not
    /// stored (zarrs' sharded read then fills the part).
    fn read_part(
        &mut self,
        chunk: Vec<u64>,
        origin: &[u64],
        block: &dyn ArraySubsetTraits,
    ) -> Result<Option<Vec<u8>>, Error> {
        // Errors name the chunk (for an inner chunk, its shard).
        let owner = self
            .array
            .chunk_grid()
            .chunk_indices(origin)
            .ok()
            .flatten()
            .unwrap_or_else(|| chunk.clone());
        let in_chunk = |error| Error::in_chunk(&self.array, &owner, error);
        let part = match &self.part_of {
            Some((indices, decoder)) if *indices == chunk => decoder.clone(),
            _ => {
                self.part_of = None;
                let decoder = match &self.sharding {
                    Some(sharding) => self.inner_chunk_decoder(sharding, origin, &owner)?,
                    None => Some(PartDecoder {
                        decoder: self
                            .array
                            .partial_decoder_opt(&chunk, &self.options)
                            .map_err(in_chunk)?,
                        inner: None,
                    }),
                };
                self.part_of = Some((chunk, decoder.clone()));
                decoder
            }
        };
        let Some(part) = part else {
            return Ok(None);
        };
        let within = block
            .to_array_subset()
            .relative_to(origin)
            .map_err(|error| in_chunk(ArrayError::from(error)))?;
        let bytes = part
            .decoder
            .partial_decode(&within, &self.options)
            .map_err(|error| match (&part.inner, &self.sharding) {
                (Some(inner), Some(sharding)) => Error::in_inner_chunk(
                    self.array.chunk_key(&owner).to_string(),
                    inner.indices.clone(),
                    inner.range.clone(),
                    sharding.nested_fault(&inner.stored, &self.options),
                    ArrayError::from(error),
                ),
                _ => in_chunk(ArrayError::from(error)),
            })?;
        Ok(Some(
            bytes.into_fixed().map_err(ArrayError::from)?.into_owned(),
        ))
    }

    /// zarrs' partial decoder of the inner chunk whose first element is at `origin`, of the
    /// shard at `shard`, over its stored bytes (read by the
    /// shard's checked index), through the inner codecs; `None` if the inner chunk (or its
    /// shard) is not stored.
    fn inner_chunk_decoder(
        &self,
        sharding: &Sharding,
        origin: &[u64],
        shard: &[u64],
    ) -> Result<Option<PartDecoder>, Error> {
        let in_shard = |error| Error::in_chunk(&self.array, shard, error);
        let Some(index) = sharding.read_index(&self.array, shard)? else {
            return Ok(None);
        };
        let shard_origin = self.array.chunk_subset(shard).map_err(in_shard)?;
        let inner_shape = sharding.inner_chunk_shape();
        // The inner chunk's number in the shard, in C order.
        let mut number = 0u64;
        for ((at, start), (count, extent)) in origin
            .iter()
            .zip(shard_origin.start())
            .zip(index.chunks_per_shard().iter().zip(inner_shape))
        {
            number = number * count + (at - start) / extent.get();
        }
        let Some((entry, Some(range))) = usize::try_from(number)
            .ok()
            .and_then(|number| Some((number, index.entries().get(number)?)))
        else {
            return Ok(None);
        };
        let inner = inner_indices(entry, index.chunks_per_shard());
        let Some(stored) = self
            .array
            .storage()
            .get_partial(
                &self.array.chunk_key(shard),
                ByteRange::FromStart(range.start, Some(range.end - range.start)),
            )
            .map_err(|error| in_shard(ArrayError::StorageError(error)))?
        else {
            return Ok(None);
        };
        let stored = Arc::new(Vec::<u8>::from(stored));
        let decoder = Arc::new(sharding.inner_codecs().clone())
            .partial_decoder(
                stored.clone(),
                inner_shape,
                sharding.data_type(),
                sharding.fill_value(),
                &self.options,
            )
            .map_err(|error| {
                Error::in_inner_chunk(
                    self.array.chunk_key(shard).to_string(),
                    inner.clone(),
                    range.clone(),
                    sharding.nested_fault(&stored, &self.options),
                    ArrayError::CodecError(error),
                )
            })?;
        Ok(Some(PartDecoder {
            decoder,
            inner: Some(InnerPart {
                indices: inner,
                range: range.clone(),
                stored,
            }),
        }))
    }

    /// The indices of the chunks (shards) `block` touches, as a subset of the chunk grid.
    fn chunks_of(&self, block: &ArraySubset) -> Result<Option<ArraySubset>, Error> {
        Ok(self
            .array
            .chunks_in_array_subset(block)
            .map_err(ArrayError::from)?)
    }

    /// Checks the index of each shard of `block` not checked before; of an array that is not
    /// sharded, the stored size of each chunk `block` covers in part, not checked before.
    fn check_shards(&mut self, block: &dyn ArraySubsetTraits) -> Result<(), Error> {
        if !self.array.is_sharded() {
            return crate::stored_size::check_parts(&self.array, block, &mut self.checked);
        }
        let Some(shards) = self.chunks_of(&block.to_array_subset())? else {
            return Ok(());
        };
        for indices in &shards.indices() {
            if self.checked.contains(&indices[..]) {
                continue;
            }
            let shard: ArraySubset = self.array.chunk_subset(&indices)?;
            crate::check_shards(&self.array, &shard)?;
            self.checked.insert(indices.to_vec());
        }
        Ok(())
    }
}

/// The blocks a selection is read in, in C order: bands of whole chunks along one dimension,
/// the dimensions after it whole and the ones before it one index at a time, each band within
/// a byte budget and 16 384 chunks unless a single row of chunks exceeds them (then one row of
/// chunks). Where bands
/// along a later dimension would read chunks taller than one index again for each index (2-D
/// tiles, a row of elements at a time), the bands go along the first dimension whose chunks
/// the selection spans several indices of, if one of them is within 32 budgets (256 MiB for
/// [`DEFAULT_BLOCK_BYTES`]): memory for time, so that no chunk is decoded more than once. Made by [`BlockReader::blocks`]; [`Blocks::limit`]
/// stops after a number of elements.
///
/// The chunk shape is the one at the selection's start, and bands end on multiples of it. A
/// chunk of more than 256 MiB (and more than the budget) is read in pieces within the budget,
/// in C order, not whole: its size is a number from the metadata, which must not decide the
/// memory a read takes.
#[derive(Clone, Debug)]
pub struct Blocks {
    ranges: Vec<Range<u64>>,
    chunk: Vec<u64>,
    /// The dimension the bands step along.
    dim: usize,
    /// Chunks per band along `dim`.
    step: u64,
    /// Elements in one index of `dim` (the product of the extents after it).
    inner: u64,
    /// The current index of each dimension before `dim`.
    prefix: Vec<u64>,
    /// The start of the next band along `dim`.
    position: u64,
    /// Elements the blocks may still cover.
    remaining: u64,
    done: bool,
}

impl Blocks {
    /// The blocks of `ranges`, read in chunks of `chunk` elements of `size` bytes, within
    /// `budget` bytes.
    fn new(ranges: Vec<Range<u64>>, chunk: Vec<u64>, size: usize, budget: usize) -> Self {
        let n = ranges.len();
        let chunk: Vec<u64> = chunk.into_iter().map(|extent| extent.max(1)).collect();
        let chunk = pieces_of(chunk, size, budget);
        let extents: Vec<u64> = ranges
            .iter()
            .map(|r| r.end.saturating_sub(r.start))
            .collect();
        let empty = extents.contains(&0);
        let budget = budget as u128;
        let inner_of =
            |dim: usize| -> u128 { extents[dim + 1..].iter().map(|&e| u128::from(e)).product() };
        let bytes_of = |dim: usize| -> u128 {
            let band = u128::from(chunk[dim].min(extents[dim]).max(1));
            band * inner_of(dim) * size as u128
        };
        // The chunks of one band along `dim` (one chunk of it, the dimensions after it whole),
        // at most: one more along each dimension for a selection not on chunk boundaries.
        let chunks_of = |dim: usize| -> u128 {
            (dim + 1..n)
                .map(|d| u128::from(extents[d].div_ceil(chunk[d]).saturating_add(1)))
                .fold(1u128, u128::saturating_mul)
        };
        let dim = (0..n)
            .find(|&dim| bytes_of(dim) <= budget && chunks_of(dim) <= BLOCK_CHUNKS)
            .unwrap_or(n.saturating_sub(1));
        // Bands along `dim` take the dimensions before it one index at a time, and so read a
        // chunk spanning several of those indices once for each (a tile 250 rows tall, 250
        // times): bands along the first dimension where the selection spans several indices
        // of a chunk instead, where those are within `ROW_OF_CHUNKS_BUDGETS` budgets.
        let spanned = (0..dim)
            .find(|&before| chunk[before].min(extents[before]) > 1)
            .unwrap_or(dim);
        let dim = if spanned < dim
            && bytes_of(spanned) <= budget.saturating_mul(ROW_OF_CHUNKS_BUDGETS)
            && chunks_of(spanned) <= BLOCK_CHUNKS
        {
            spanned
        } else {
            dim
        };
        // Bands of chunks along `dim` a block takes: within the budget, and within
        // `BLOCK_CHUNKS` chunks.
        let step = if n == 0 {
            1
        } else {
            let bands = (budget / bytes_of(dim).max(1)).min(BLOCK_CHUNKS / chunks_of(dim).max(1));
            u64::try_from(bands).unwrap_or(u64::MAX).max(1)
        };
        let inner = if n == 0 {
            1
        } else {
            u64::try_from(inner_of(dim)).unwrap_or(u64::MAX)
        };
        Blocks {
            prefix: ranges[..dim.min(n)].iter().map(|r| r.start).collect(),
            position: ranges.get(dim).map_or(0, |r| r.start),
            remaining: u64::MAX,
            done: empty,
            ranges,
            chunk,
            dim,
            step,
            inner,
        }
    }

    /// The same blocks, covering at most `count` elements: the last one cut short to the
    /// indices of its dimension that hold the elements counted, so that no more than needed
    /// is read (whole rows of the dimensions after it).
    pub fn limit(mut self, count: u64) -> Self {
        self.remaining = count;
        self
    }
}

/// The shape blocks are aligned to: `chunk` itself, or, for a chunk of more than
/// [`WHOLE_CHUNK_CEILING`] bytes (and more than `budget`), pieces of it within `budget` in C
/// order (the last dimensions whole while they fit, then as many indices of the next as fit,
/// one index of the ones before).
fn pieces_of(chunk: Vec<u64>, size: usize, budget: usize) -> Vec<u64> {
    let budget = budget as u128;
    let bytes = chunk.iter().fold(size as u128, |bytes, &extent| {
        bytes.saturating_mul(u128::from(extent))
    });
    if bytes <= WHOLE_CHUNK_CEILING.max(budget) {
        return chunk;
    }
    let mut piece = vec![1; chunk.len()];
    let mut inner = (size as u128).max(1);
    for (dim, &extent) in chunk.iter().enumerate().rev() {
        let fits = budget / inner;
        if fits < u128::from(extent) {
            piece[dim] = u64::try_from(fits).unwrap_or(1).max(1);
            break;
        }
        piece[dim] = extent;
        inner *= u128::from(extent);
    }
    piece
}

impl Iterator for Blocks {
    type Item = ArraySubset;

    fn next(&mut self) -> Option<ArraySubset> {
        if self.done || self.remaining == 0 {
            return None;
        }
        let n = self.ranges.len();
        if n == 0 {
            self.done = true;
            self.remaining = 0;
            return Some(ArraySubset::new_with_ranges(&[]));
        }
        let range = &self.ranges[self.dim];
        let chunk = self.chunk[self.dim];
        let start = self.position;
        let boundary = (start / chunk)
            .saturating_add(self.step)
            .saturating_mul(chunk);
        // No more indices of `dim` than hold the elements still counted (each index holds
        // `inner` of them): a band of millions of chunks is not read for ten elements.
        let wanted = self.remaining.div_ceil(self.inner.max(1));
        let end = boundary.min(range.end).min(start.saturating_add(wanted));
        let mut ranges = Vec::with_capacity(n);
        ranges.extend(self.prefix.iter().map(|&index| index..index + 1));
        ranges.push(start..end);
        ranges.extend(self.ranges[self.dim + 1..].iter().cloned());
        self.remaining = self
            .remaining
            .saturating_sub((end - start).saturating_mul(self.inner));
        self.position = end;
        if end == range.end {
            self.position = range.start;
            // The next index of the dimensions before `dim`, in C order.
            let mut carry = true;
            for dim in (0..self.dim).rev() {
                self.prefix[dim] += 1;
                if self.prefix[dim] < self.ranges[dim].end {
                    carry = false;
                    break;
                }
                self.prefix[dim] = self.ranges[dim].start;
            }
            self.done = carry;
        }
        Some(ArraySubset::new_with_ranges(&ranges))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks(ranges: Vec<Range<u64>>, chunk: Vec<u64>, budget: usize) -> Vec<Vec<Range<u64>>> {
        Blocks::new(ranges, chunk, 1, budget)
            .map(|subset| subset.to_ranges())
            .collect()
    }

    /// However small its chunks, a block holds at most `BLOCK_CHUNKS` of them: one-byte
    /// chunks in 1-D, and in 26 dimensions of 2 (67 M chunks of one element).
    #[test]
    fn blocks_of_tiny_chunks_hold_a_bounded_count() {
        let count = |subset: &[Range<u64>], chunk: &[u64]| -> u128 {
            subset
                .iter()
                .zip(chunk)
                .map(|(r, &c)| u128::from((r.end - 1) / c - r.start / c + 1))
                .product()
        };
        let one_d = blocks(vec![0..1 << 24], vec![1], 8 << 20);
        assert_eq!(one_d.len(), (1 << 24) / 16_384);
        assert!(one_d.iter().all(|b| count(b, &[1]) == 16_384));
        let ranges = vec![0..2; 26];
        let chunk = vec![1; 26];
        let mut read = Blocks::new(ranges, chunk.clone(), 1, 8 << 20);
        let first = read.next().unwrap().to_ranges();
        assert!(count(&first, &chunk) <= BLOCK_CHUNKS, "{first:?}");
        let limited: Vec<Vec<Range<u64>>> = Blocks::new(vec![0..2; 26], chunk.clone(), 1, 8 << 20)
            .limit(3)
            .map(|subset| subset.to_ranges())
            .collect();
        assert!(limited.iter().map(|b| count(b, &chunk)).sum::<u128>() <= BLOCK_CHUNKS);
    }

    #[test]
    fn one_dimension_in_whole_chunks() {
        assert_eq!(
            blocks(vec![3..25], vec![10], 20),
            [3..20, 20..25].map(|r| vec![r])
        );
        // A chunk beyond the budget is still read whole.
        assert_eq!(
            blocks(vec![0..25], vec![10], 4),
            [0..10, 10..20, 20..25].map(|r| vec![r])
        );
        assert!(blocks(vec![5..5], vec![10], 4).is_empty());
    }

    #[test]
    fn more_dimensions_keep_c_order() {
        // Bands of rows of chunks when a row of chunks fits.
        assert_eq!(
            blocks(vec![0..4, 1..3], vec![2, 2], 4),
            [vec![0..2, 1..3], vec![2..4, 1..3]]
        );
        // Else one row of chunks, where it is within 32 budgets: rows of elements would read
        // each chunk once per row.
        assert_eq!(
            blocks(vec![0..4, 0..6], vec![2, 2], 3),
            [vec![0..2, 0..6], vec![2..4, 0..6]]
        );
        // In three dimensions, chunks one index tall along the first: bands along the second,
        // the first one index at a time (no chunk read twice), not a whole row of chunks.
        assert_eq!(
            blocks(vec![0..2, 0..4, 0..6], vec![1, 2, 2], 3),
            [
                vec![0..1, 0..2, 0..6],
                vec![0..1, 2..4, 0..6],
                vec![1..2, 0..2, 0..6],
                vec![1..2, 2..4, 0..6]
            ]
        );
        // Beyond 32 budgets (or where a chunk is one row), one index of the first dimension at
        // a time.
        assert_eq!(
            blocks(vec![0..2, 0..200], vec![2, 100], 3),
            [
                vec![0..1, 0..100],
                vec![0..1, 100..200],
                vec![1..2, 0..100],
                vec![1..2, 100..200]
            ]
        );
        assert_eq!(
            blocks(vec![0..2, 0..6], vec![1, 2], 3),
            [
                vec![0..1, 0..2],
                vec![0..1, 2..4],
                vec![0..1, 4..6],
                vec![1..2, 0..2],
                vec![1..2, 2..4],
                vec![1..2, 4..6]
            ]
        );
        assert_eq!(blocks(vec![], vec![], 3), [Vec::<Range<u64>>::new()]);
    }

    #[test]
    fn a_limit_cuts_the_last_block() {
        let limited = |ranges: Vec<Range<u64>>, chunk: Vec<u64>, budget: usize, count: u64| {
            Blocks::new(ranges, chunk, 1, budget)
                .limit(count)
                .map(|subset| subset.to_ranges())
                .collect::<Vec<_>>()
        };
        // Along the last dimension: no more than the limit is read.
        assert_eq!(
            limited(vec![0..10], vec![4], 4, 5),
            [vec![0..4], vec![4..5]]
        );
        assert_eq!(limited(vec![0..10], vec![4], 100, 5), [vec![0..5]]);
        // Rows one at a time (chunks one row tall): whole blocks until the limit is covered.
        assert_eq!(
            limited(vec![0..3, 0..6], vec![1, 4], 5, 7),
            [vec![0..1, 0..4], vec![0..1, 4..6], vec![1..2, 0..1]]
        );
        // A row of chunks two rows tall: read whole, then no more.
        assert_eq!(
            limited(vec![0..3, 0..6], vec![2, 4], 5, 7),
            [vec![0..2, 0..6]]
        );
        // Bands of rows: a band is read whole, then no more.
        assert_eq!(
            limited(vec![0..4, 0..3], vec![2, 3], 6, 4),
            [vec![0..2, 0..3]]
        );
        // A band of many chunks along the first dimension (one column of chunks ten wide):
        // ten elements read as ten rows, not as the band the budget allows; 25 of rows of ten
        // as three rows.
        assert_eq!(
            limited(vec![0..100_000_000, 0..1], vec![1, 10], 1 << 20, 10),
            [vec![0..10, 0..1]]
        );
        assert_eq!(
            limited(vec![0..100, 0..10], vec![1, 10], 1 << 20, 25),
            [vec![0..3, 0..10]]
        );
        assert!(limited(vec![0..4], vec![2], 8, 0).is_empty());
        assert!(limited(vec![], vec![], 8, 0).is_empty());
    }

    #[test]
    fn chunks_beyond_the_ceiling_are_read_in_pieces() {
        // Under the ceiling (or the budget), whole chunks.
        assert_eq!(pieces_of(vec![1000], 1000, 8), [1000]);
        assert_eq!(pieces_of(vec![1 << 20], 1024, 1 << 30), [1 << 20]);
        // Beyond both: the last dimensions whole while they fit in the budget, then as many
        // indices of the next as fit, one index of the ones before.
        assert_eq!(pieces_of(vec![100_000], 400_000, 8 << 20), [20]);
        assert_eq!(pieces_of(vec![1000, 1000], 1000, 8 << 20), [8, 1000]);
        assert_eq!(pieces_of(vec![4, 100_000], 1000, 8 << 20), [1, 8388]);
        assert_eq!(pieces_of(vec![2, 3, 1 << 30], 1, 8), [1, 1, 8]);
        // A record wider than the budget: one at a time.
        assert_eq!(pieces_of(vec![1 << 20], 1 << 30, 8 << 20), [1]);
        // Blocks of a 512 MiB chunk within a budget of 8 bytes, in C order.
        assert_eq!(
            blocks(vec![3..20], vec![1 << 29], 8),
            [3..8, 8..16, 16..20].map(|r| vec![r])
        );
        assert_eq!(
            blocks(vec![0..2, 0..12], vec![1 << 15, 1 << 15], 8),
            [
                vec![0..1, 0..8],
                vec![0..1, 8..12],
                vec![1..2, 0..8],
                vec![1..2, 8..12]
            ]
        );
    }

    /// Every element of the selection, once, in C order, whatever the shapes and budget.
    #[test]
    fn blocks_cover_the_selection_in_c_order() {
        type Case<'a> = (&'a [u64], &'a [Range<u64>]);
        let cases: [Case<'_>; 5] = [
            (&[3, 2, 2], &[1..7, 0..5, 1..3]),
            (&[3, 1, 2, 3], &[0..4, 1..3, 0..4, 2..4]),
            (&[2], &[0..9]),
            (&[4, 4], &[2..3, 1..8]),
            (&[5, 1], &[0..7, 0..2]),
        ];
        for (chunk, ranges) in cases {
            let all = ArraySubset::new_with_ranges(ranges);
            let expected: Vec<Vec<u64>> = all.indices().into_iter().map(|i| i.to_vec()).collect();
            for budget in [1, 3, 8, 24, 1000] {
                let mut seen = Vec::new();
                for block in Blocks::new(ranges.to_vec(), chunk.to_vec(), 1, budget) {
                    seen.extend(block.indices().into_iter().map(|i| i.to_vec()));
                }
                assert_eq!(
                    seen, expected,
                    "chunk {chunk:?}, {ranges:?}, budget {budget}"
                );
            }
        }
    }
}
