//! Reading an array one block after another, for tools that stream an array too large to hold
//! (`zarrdt dump`): each block's records as the bytes zarrs' codecs hand over, every shard
//! index checked once, zarrs' shard indexes kept between blocks.

use std::collections::HashSet;

use zarrs::array::{
    Array, ArrayBytes, ArrayError, ArrayShardedExt, ArrayShardedReadableExt,
    ArrayShardedReadableExtCache, ArraySubset, ArraySubsetTraits, CodecOptions,
};
use zarrs::storage::ReadableStorageTraits;

use crate::subset::check_subset;
use crate::{Error, RecordType};

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
/// use zarrdt_zarrs::{ArrayOptions, BlockReader, WriteRecords};
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
/// # Ok::<(), zarrdt_zarrs::Error>(())
/// ```
pub struct BlockReader<'a, S: ?Sized> {
    array: &'a Array<S>,
    element_size: usize,
    cache: ArrayShardedReadableExtCache,
    options: CodecOptions,
    /// The shards whose indexes have been checked.
    checked: HashSet<Vec<u64>>,
}

impl<'a, S: ?Sized + ReadableStorageTraits + 'static> BlockReader<'a, S> {
    /// A reader of `array`, whose data type must be one zarrdt knows ([`RecordType::of`]).
    pub fn new(array: &'a Array<S>) -> Result<Self, Error> {
        let element_size = RecordType::of(array.data_type())?.native_layout().size();
        Ok(BlockReader {
            array,
            element_size,
            cache: ArrayShardedReadableExtCache::new(array),
            options: CodecOptions::default(),
            checked: HashSet::new(),
        })
    }

    /// The records of `block`, in C order, as bytes (see [`BlockReader`]).
    pub fn read(&mut self, block: &dyn ArraySubsetTraits) -> Result<Vec<u8>, Error> {
        check_subset(self.array, block, self.element_size)?;
        self.check_shards(block)?;
        if self.cache.len() > CACHED_SHARD_INDEXES {
            self.cache.clear();
        }
        let bytes: ArrayBytes<'static> = self
            .array
            .retrieve_array_subset_sharded_opt(&self.cache, block, &self.options)
            .map_err(|error| Error::in_subset(self.array, block, error))?;
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
            crate::check_shards(self.array, &shard)?;
            self.checked.insert(indices.to_vec());
        }
        Ok(())
    }
}
