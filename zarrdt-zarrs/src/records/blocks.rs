//! Reading an array one block after another, for tools that stream an array too large to hold
//! (`zarrdt dump`, `zarrdt export`, Arrow batches): the blocks a selection is read in
//! ([`Blocks`]: whole chunks, in C order, within a byte budget), and each block's records as
//! the bytes zarrs' codecs hand over, every shard index checked once, zarrs' shard indexes
//! kept between blocks.

use std::collections::HashSet;
use std::ops::Range;

use zarrs::array::{
    Array, ArrayBytes, ArrayError, ArrayShardedExt, ArrayShardedReadableExt,
    ArrayShardedReadableExtCache, ArraySubset, ArraySubsetTraits, CodecOptions,
};
use zarrs::storage::ReadableStorageTraits;

use crate::subset::check_subset;
use crate::{Error, RecordType};

/// The byte budget of a block that streaming readers (`zarrdt dump`, `zarrdt export`, Arrow
/// batches) give [`BlockReader::blocks`] unless they need more: 8 MiB, whole chunks beyond it.
pub const DEFAULT_BLOCK_BYTES: usize = 8 << 20;

/// How many byte budgets a block may take to hold whole the chunks it reads (bands of whole
/// chunks, the dimensions after them whole), rather than rows of elements that read each chunk
/// again for every row it spans.
const ROW_OF_CHUNKS_BUDGETS: u128 = 32;

/// Shard indexes zarrs keeps between blocks, at most (one per shard read).
const CACHED_SHARD_INDEXES: usize = 16;

/// Reads the records of one subset ("block") after another as bytes: each record in the
/// native layout of the array's [`RecordType`] (every multi-byte value in the machine's byte
/// order), the records in C order. Checked as [`ReadRecords`](crate::ReadRecords) reads are:
/// a block beyond the array is an error before anything is read, the index of each shard a
/// block touches is read and checked ([`check_shards`](crate::check_shards)) the first time,
/// and a chunk that cannot be read or decoded is an error naming its key. Memory: the block,
/// and the indexes of the last few shards read.
///
/// For records of a type known only at run time, decoded or written without building values
/// (with [`JsonWriter`](zarrdt_core::JsonWriter), say); a Rust type reads with
/// [`ReadRecords::retrieve_records`](crate::ReadRecords::retrieve_records).
///
/// ```
/// use std::sync::Arc;
/// use zarrdt_zarrs::{ArrayOptions, BlockReader, DEFAULT_BLOCK_BYTES, WriteRecords};
/// use zarrdt_zarrs::zarrs::storage::store::MemoryStore;
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
/// # Ok::<(), zarrdt_zarrs::Error>(())
/// ```
pub struct BlockReader<S: ?Sized> {
    /// The reader's own handle of the array (the same store).
    array: Array<S>,
    element_size: usize,
    cache: ArrayShardedReadableExtCache,
    options: CodecOptions,
    /// The shards whose indexes have been checked.
    checked: HashSet<Vec<u64>>,
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
        let bytes: ArrayBytes<'static> = self
            .array
            .retrieve_array_subset_sharded_opt(&self.cache, block, &self.options)
            .map_err(|error| Error::in_subset(&self.array, block, error))?;
        Ok(bytes.into_fixed().map_err(ArrayError::from)?.into_owned())
    }

    /// Checks the index of each shard of `block` not checked before.
    fn check_shards(&mut self, block: &dyn ArraySubsetTraits) -> Result<(), Error> {
        if !self.array.is_sharded() {
            return Ok(());
        }
        let block = block.to_array_subset();
        let Some(shards) = self
            .array
            .chunks_in_array_subset(&block)
            .map_err(ArrayError::from)?
        else {
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
/// a byte budget unless a single row of chunks exceeds it (then one row of chunks). Where bands
/// along a later dimension would read chunks taller than one index again for each index (2-D
/// tiles, a row of elements at a time), the bands go along the first dimension whose chunks
/// the selection spans several indices of, if one of them is within 32 budgets (256 MiB for
/// [`DEFAULT_BLOCK_BYTES`]): memory for time, so that no chunk is decoded more than once. Made by [`BlockReader::blocks`]; [`Blocks::limit`]
/// stops after a number of elements.
///
/// The chunk shape is the one at the selection's start, and bands end on multiples of it.
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
        let dim = (0..n)
            .find(|&dim| bytes_of(dim) <= budget)
            .unwrap_or(n.saturating_sub(1));
        // Bands along `dim` take the dimensions before it one index at a time, and so read a
        // chunk spanning several of those indices once for each (a tile 250 rows tall, 250
        // times): bands along the first dimension where the selection spans several indices
        // of a chunk instead, where those are within `ROW_OF_CHUNKS_BUDGETS` budgets.
        let spanned = (0..dim)
            .find(|&before| chunk[before].min(extents[before]) > 1)
            .unwrap_or(dim);
        let dim =
            if spanned < dim && bytes_of(spanned) <= budget.saturating_mul(ROW_OF_CHUNKS_BUDGETS) {
                spanned
            } else {
                dim
            };
        let step = if n == 0 {
            1
        } else {
            u64::try_from(budget / bytes_of(dim).max(1))
                .unwrap_or(u64::MAX)
                .max(1)
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

    /// The same blocks, covering at most `count` elements: the last one cut short where it
    /// is a range of the last dimension, so that no more than needed is read.
    pub fn limit(mut self, count: u64) -> Self {
        self.remaining = count;
        self
    }
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
        let mut end = boundary.min(range.end);
        if self.dim == n - 1 {
            end = end.min(start.saturating_add(self.remaining));
        }
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
        assert!(limited(vec![0..4], vec![2], 8, 0).is_empty());
        assert!(limited(vec![], vec![], 8, 0).is_empty());
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
