//! Shard indexes checked before zarrs uses them.
//!
//! zarrs 0.23.14 trusts the `(offset, nbytes)` pairs of a shard's index: an entry whose sum
//! overflows `u64` panics (`sharding_codec.rs:347` reading a whole shard,
//! `zarrs_codec`'s `byte_interval_partial_decoder.rs:55` reading part of one), a huge
//! `nbytes` is allocated before the read (a 16-byte entry asking for 2⁴⁰ bytes aborts the
//! process, `nbytes` near 2⁶⁴ panics with a capacity overflow), and an entry of the wrong size
//! for an uncompressed inner chunk is read past its end, giving other chunks' bytes as values.
//! [`check_shards`] reads the index of each shard a read touches and refuses such entries
//! first, naming the shard and the entry.
//!
//! The check follows the array's codec chain: array-to-array codecs before `sharding_indexed`
//! (a `transpose`) change the shape the shard holds; bytes-to-bytes codecs after it (zstd over
//! each whole shard, as zarr-python writes when a `ShardingCodec` is the serializer) mean the
//! stored object is not the shard but its encoding: the shard is what those codecs decode it
//! to, its index is inside that, and no part of it can be read without decoding it all.

use std::borrow::Cow;
use std::collections::HashSet;
use std::num::NonZeroU64;
use std::ops::Range;
use std::sync::Arc;

use zarrs::array::codec::{CodecChain, ShardingCodec};
use zarrs::array::{
    Array, ArrayShardedExt, ArraySubsetTraits, ArrayToArrayCodecTraits, ArrayToBytesCodecTraits,
    BytesRepresentation, BytesToBytesCodecTraits, CodecError, CodecMetadataOptions, CodecOptions,
    DataType, FillValue,
};
use zarrs::metadata::ConfigurationSerialize;
use zarrs::metadata_ext::codec::sharding::{
    ShardingCodecConfiguration, ShardingCodecConfigurationV1, ShardingIndexLocation,
};
use zarrs::node::meta_key_v3;
use zarrs::storage::ReadableStorageTraits;
use zarrs::storage::byte_range::ByteRange;

use crate::Error;
use crate::error::NestedChunk;

/// Checks the index of every stored shard of `array` that `subset` touches: each entry is a
/// missing inner chunk (`u64::MAX` twice) or a byte range inside the shard, clear of the index,
/// and of the exact size of an inner chunk where the inner codecs fix it (no compression).
///
/// [`retrieve_values`](crate::ReadRecords::retrieve_values), [`retrieve_records`](crate::ReadRecords::retrieve_records)
/// and [`retrieve_field`](crate::ReadRecords::retrieve_field) check the same before zarrs reads
/// a shard (a shard they read whole themselves is checked in the bytes they read), and
/// [`store_records`](crate::WriteRecords::store_records) and
/// [`store_values`](crate::WriteRecords::store_values) on each shard they write in part (which
/// zarrs reads to update); call it before zarrs' own `retrieve_array_subset` or
/// `store_array_subset` on shards from an untrusted source, which zarrs 0.23.14 does not check
/// (a corrupt entry panics or aborts the process there). Nothing is checked for an
/// array whose index codecs have no fixed size. An array that is not sharded has instead
/// each chunk `subset` covers in part checked to be of the size its codecs fix, where they fix
/// one (no compressor): zarrs reads part of such a chunk as byte ranges without asking its
/// size, and a chunk cut short would give other bytes as records. The cost is one read
/// of each shard's index; when bytes-to-bytes codecs follow `sharding_indexed`, one read and
/// one decoding of each whole shard (within the size its codecs can produce), since its index
/// is inside the encoded shard; of an array that is not sharded, one size request for each
/// chunk covered in part.
///
/// ```
/// use std::sync::Arc;
/// use zarrdt::array::{ArrayOptions, check_shards};
/// use zarrdt::zarrs::storage::store::MemoryStore;
///
/// let store = Arc::new(MemoryStore::new());
/// let array = ArrayOptions::new(vec![8], vec![2]).shards(vec![8]).create(store, "/", &0u32)?;
/// array.store_array_subset(&[0..8], &(0..8u32).collect::<Vec<_>>())?;
/// check_shards(&array, &[0..8])?;
/// # Ok::<(), zarrdt::array::Error>(())
/// ```
pub fn check_shards<S: ?Sized + ReadableStorageTraits + 'static>(
    array: &Array<S>,
    subset: &dyn ArraySubsetTraits,
) -> Result<(), Error> {
    let Some(sharding) = Sharding::of(array)? else {
        return crate::stored_size::check_parts(array, subset, &mut HashSet::new());
    };
    let Some(shards) = array
        .chunks_in_array_subset(subset)
        .map_err(zarrs::array::ArrayError::from)?
    else {
        return Ok(());
    };
    for indices in &shards.indices() {
        sharding.read_index(array, &indices)?;
    }
    Ok(())
}

/// The index of one stored shard, read and checked as [`check_shards`] checks it: where each
/// inner chunk lies in the shard, or that it is not stored.
///
/// The index is decoded through the array's `index_codecs`, so a `crc32c` among them is
/// verified: a shard whose index does not match its checksum is an [`Error::Shard`] naming it.
///
/// ```
/// use std::sync::Arc;
/// use zarrdt::array::{ArrayOptions, ShardIndex};
/// use zarrdt::zarrs::storage::store::MemoryStore;
///
/// let store = Arc::new(MemoryStore::new());
/// let array = ArrayOptions::new(vec![8], vec![2]).shards(vec![8]).create(store, "/", &0u32)?;
/// array.store_array_subset(&[2..6], &[2u32, 3, 4, 5])?;
/// let index = ShardIndex::read(&array, &[0])?.expect("a stored shard");
/// assert_eq!(index.chunks_per_shard(), [4]);
/// assert_eq!(index.written(), 2); // inner chunks [1] and [2]
/// assert!(index.entries()[0].is_none() && index.entries()[1].is_some());
/// # Ok::<(), zarrdt::array::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardIndex {
    chunks_per_shard: Vec<u64>,
    entries: Vec<Option<Range<u64>>>,
}

impl ShardIndex {
    /// Reads and checks the index of the shard at `shard_indices` (its position in the chunk
    /// grid) of `array`.
    ///
    /// `Ok(None)` if the array is not sharded, the shard is not stored, the index codecs give
    /// an index of no fixed size, or the shard kept changing while it was read (a writer in
    /// this process rewriting it). An index entry outside the shard, or of the wrong size for
    /// an uncompressed inner chunk, and an index that does not decode (a wrong checksum) are
    /// [`Error::Shard`], naming the shard and the entry. When bytes-to-bytes codecs follow
    /// `sharding_indexed` (each shard encoded whole), the whole shard is read and decoded to
    /// find its index. The memory taken is bounded by the stored shard.
    pub fn read<S: ?Sized + ReadableStorageTraits + 'static>(
        array: &Array<S>,
        shard_indices: &[u64],
    ) -> Result<Option<ShardIndex>, Error> {
        match Sharding::of(array)? {
            Some(sharding) => sharding.read_index(array, shard_indices),
            None => Ok(None),
        }
    }

    /// The inner chunks per shard along each dimension (as the sharding codec sees the shard:
    /// after any codecs before it, such as `transpose`).
    pub fn chunks_per_shard(&self) -> &[u64] {
        &self.chunks_per_shard
    }

    /// Each inner chunk's byte range in the shard, in C order of the inner chunks; `None` for
    /// one that is not stored (the fill value).
    pub fn entries(&self) -> &[Option<Range<u64>>] {
        &self.entries
    }

    /// How many inner chunks the shard stores.
    pub fn written(&self) -> usize {
        self.entries.iter().filter(|entry| entry.is_some()).count()
    }
}

/// The `sharding_indexed` codec of an array, and the codecs around it.
pub(crate) struct Sharding {
    configuration: ShardingCodecConfigurationV1,
    index_codecs: CodecChain,
    inner_codecs: CodecChain,
    /// The codec itself.
    codec: Arc<dyn ArrayToBytesCodecTraits>,
    /// The array-to-array codecs before it.
    before: Vec<Arc<dyn ArrayToArrayCodecTraits>>,
    /// The bytes-to-bytes codecs after it, which encode each whole shard.
    after: Vec<Arc<dyn BytesToBytesCodecTraits>>,
    /// The data type and fill value the sharding codec sees (after `before`).
    data_type: DataType,
    fill_value: FillValue,
    /// The sharding codec of the inner codecs, if each inner chunk is itself a shard (nested
    /// sharding): zarrs trusts its index as it does the outer one's.
    nested: Option<Box<Sharding>>,
}

impl Sharding {
    /// Reads and checks the index of the shard at `indices` of `array` (see
    /// [`ShardIndex::read`]).
    pub(crate) fn read_index<S: ?Sized + ReadableStorageTraits + 'static>(
        &self,
        array: &Array<S>,
        indices: &[u64],
    ) -> Result<Option<ShardIndex>, Error> {
        let storage = array.storage();
        let key = array.chunk_key(indices);
        let fail = |reason: String| Error::Shard {
            key: key.to_string(),
            reason,
        };
        let shard_shape = self
            .shard_shape(&array.chunk_shape(indices)?)
            .map_err(|e| fail(e.to_string()))?;
        let Some(plan) = self.plan(&shard_shape).map_err(|e| fail(e.to_string()))? else {
            return Ok(None);
        };
        if self.is_encoded() {
            let representations = self
                .representations(&shard_shape)
                .map_err(|e| fail(e.to_string()))?;
            // A stored object larger than its codecs can write is refused unread.
            let most = representations.last().and_then(BytesRepresentation::size);
            match (storage.size_key(&key)?, most) {
                (None, _) => return Ok(None),
                (Some(size), Some(most)) if size > most => {
                    return Err(fail(format!(
                        "{size} bytes stored, more than its codecs write for this shard ({most})"
                    )));
                }
                _ => {}
            }
            let Some(stored) = storage.get(&key)? else {
                return Ok(None);
            };
            let shard = self
                .decode(&representations, stored.to_vec())
                .map_err(|e| fail(format!("decoding the shard: {e}")))?;
            return self.index_in(&plan, &shard, "decodes to", &fail).map(Some);
        }
        // The length and the index of one version of the shard: a writer in this process may
        // be rewriting it (zarrs' filesystem store truncates, then writes), so the length is
        // read before and after the index (which the store reads under the shard's lock) and
        // must agree; a shard that keeps changing is left to zarrs. The read is never longer
        // than the shard was found to be, so a short shard costs no index-sized allocation.
        let mut attempts = 0;
        let (length, bytes) = loop {
            let Some(length) = storage.size_key(&key)? else {
                return Ok(None);
            };
            // Read under the lock even when too short, to wait for a writer holding it.
            let wanted = plan.index_size.min(length);
            let range = match self.configuration.index_location {
                ShardingIndexLocation::Start => ByteRange::FromStart(0, Some(wanted)),
                ShardingIndexLocation::End => ByteRange::Suffix(wanted),
            };
            let index = storage.get_partial(&key, range);
            if storage.size_key(&key)? != Some(length) {
                attempts += 1;
                if attempts == 3 {
                    return Ok(None);
                }
                continue;
            }
            if length < plan.index_size {
                return Err(fail(format!(
                    "is {length} bytes, too short for its index of {} bytes",
                    plan.index_size
                )));
            }
            match index? {
                Some(bytes) => break (length, bytes),
                None => return Ok(None),
            }
        };
        let index = self.check_index(&plan, bytes.to_vec(), length, &fail)?;
        let read = |range: Range<u64>| {
            let range = ByteRange::FromStart(range.start, Some(range.end - range.start));
            Ok(storage
                .get_partial(&key, range)?
                .map(|bytes| Cow::Owned(bytes.to_vec())))
        };
        self.check_nested(&index, &read, &fail)?;
        Ok(Some(index))
    }

    /// Checks the index of each stored inner chunk of a shard (of `index`) that is itself a
    /// shard (nested sharding), and of the shards nested in those, which zarrs would trust as
    /// it does the outer one's: an error names the outer shard (through `fail`) and the inner
    /// chunk. `read` gives an inner chunk's stored bytes from its byte range in the shard.
    /// Nothing is read where the inner chunks are not shards; otherwise each stored inner chunk
    /// is read whole, one at a time (a nested index lies at the end or start of an inner chunk,
    /// which, encoded, must be decoded whole to find it).
    fn check_nested<'a>(
        &self,
        index: &ShardIndex,
        read: &ReadInner<'a>,
        fail: &dyn Fn(String) -> Error,
    ) -> Result<(), Error> {
        let Some(nested) = &self.nested else {
            return Ok(());
        };
        let shape = nested
            .shard_shape(self.inner_chunk_shape())
            .map_err(|e| fail(e.to_string()))?;
        let Some(plan) = nested.plan(&shape).map_err(|e| fail(e.to_string()))? else {
            return Ok(());
        };
        let representations = nested
            .representations(&shape)
            .map_err(|e| fail(e.to_string()))?;
        for (entry, range) in index.entries().iter().enumerate() {
            let Some(range) = range else {
                continue;
            };
            let inner = inner_indices(entry, index.chunks_per_shard());
            let fail_inner =
                |reason: String| fail(format!("inner chunk {inner:?}, itself a shard: {reason}"));
            let Some(stored) = read(range.clone())? else {
                continue;
            };
            let shard = if nested.is_encoded() {
                let most = representations.last().and_then(BytesRepresentation::size);
                if let Some(most) = most
                    && stored.len() as u64 > most
                {
                    return Err(fail_inner(format!(
                        "{} bytes, more than its codecs write for it ({most})",
                        stored.len()
                    )));
                }
                let decoded = nested
                    .decode(&representations, stored.into_owned())
                    .map_err(|e| fail_inner(format!("decoding it: {e}")))?;
                Cow::Owned(decoded)
            } else {
                stored
            };
            nested.index_in(&plan, &shard, "is", &fail_inner)?;
        }
        Ok(())
    }

    /// The checked index of the shard whose bytes (as the sharding codec wrote them) are
    /// `shard`, the indexes of any shards nested in its inner chunks checked too
    /// ([`Sharding::check_nested`]); `what` says where the bytes come from (`"is"`, `"decodes
    /// to"`), for the error of a shard too short for its index.
    pub(crate) fn index_in(
        &self,
        plan: &Plan,
        shard: &[u8],
        what: &str,
        fail: &dyn Fn(String) -> Error,
    ) -> Result<ShardIndex, Error> {
        let length = shard.len() as u64;
        if length < plan.index_size {
            return Err(fail(format!(
                "{what} {length} bytes, too short for its index of {} bytes",
                plan.index_size
            )));
        }
        // Both within the shard: its length is at least the index's size (checked above).
        let index = match self.configuration.index_location {
            ShardingIndexLocation::Start => &shard[..plan.index_size as usize],
            ShardingIndexLocation::End => &shard[(length - plan.index_size) as usize..],
        };
        let index = self.check_index(plan, index.to_vec(), length, fail)?;
        self.check_nested(
            &index,
            &|range| Ok(slice(shard, range).map(Cow::Borrowed)),
            fail,
        )?;
        Ok(index)
    }

    /// Whether codecs before or after `sharding_indexed` change what it sees or stores: a
    /// stored shard is then not the bytes the sharding codec wrote for the array's elements.
    pub(crate) fn is_wrapped(&self) -> bool {
        !self.before.is_empty() || !self.after.is_empty()
    }

    /// The inner chunks' shape.
    pub(crate) fn inner_chunk_shape(&self) -> &[NonZeroU64] {
        &self.configuration.chunk_shape
    }

    /// Decodes one stored inner chunk of `shape` through the inner codecs (no copy where they
    /// change nothing: an uncompressed chunk in the native byte order stays borrowed).
    pub(crate) fn decode_inner<'a>(
        &self,
        stored: &'a [u8],
        shape: &[NonZeroU64],
        options: &CodecOptions,
    ) -> Result<Cow<'a, [u8]>, zarrs::array::ArrayError> {
        let decoded = self.inner_codecs.decode(
            Cow::Borrowed(stored),
            shape,
            &self.data_type,
            &self.fill_value,
            options,
        )?;
        Ok(decoded.into_fixed()?)
    }

    /// Encodes one inner chunk of `shape` (its native elements) through the inner codecs (no
    /// copy where they change nothing).
    pub(crate) fn encode_inner<'a>(
        &self,
        decoded: &'a [u8],
        shape: &[NonZeroU64],
        options: &CodecOptions,
    ) -> Result<Cow<'a, [u8]>, CodecError> {
        self.inner_codecs.encode(
            zarrs::array::ArrayBytes::new_flen(decoded),
            shape,
            &self.data_type,
            &self.fill_value,
            options,
        )
    }

    /// The encoded index of a shard: `entries` holds each inner chunk's `(offset, size)` in the
    /// shard (`u64::MAX` twice for one not stored), in C order.
    pub(crate) fn encode_index(
        &self,
        plan: &Plan,
        entries: &[u64],
        options: &CodecOptions,
    ) -> Result<Vec<u8>, CodecError> {
        let bytes: Vec<u8> = entries
            .iter()
            .flat_map(|entry| entry.to_ne_bytes())
            .collect();
        let encoded = self.index_codecs.encode(
            zarrs::array::ArrayBytes::new_flen(bytes),
            &plan.index_shape,
            &zarrs::array::data_type::uint64(),
            &FillValue::from(u64::MAX),
            options,
        )?;
        Ok(encoded.into_owned())
    }

    /// Whether the index comes before the inner chunks.
    pub(crate) fn index_first(&self) -> bool {
        self.configuration.index_location == ShardingIndexLocation::Start
    }

    /// The fill value's bytes, as the sharding codec sees them.
    pub(crate) fn fill_value(&self) -> &FillValue {
        &self.fill_value
    }

    /// The data type the sharding codec sees.
    pub(crate) fn data_type(&self) -> &DataType {
        &self.data_type
    }

    /// The codecs of each inner chunk.
    pub(crate) fn inner_codecs(&self) -> &CodecChain {
        &self.inner_codecs
    }

    /// Whether bytes-to-bytes codecs encode each whole shard: the stored object is not the
    /// shard, and no part of a shard can be read on its own.
    fn is_encoded(&self) -> bool {
        !self.after.is_empty()
    }

    /// The number of entries of the index of the shard at `indices` of `array` (one an inner
    /// chunk, 16 bytes each decoded), whatever its codecs; saturated where they overflow.
    pub(crate) fn index_entries<S: ?Sized>(
        &self,
        array: &Array<S>,
        indices: &[u64],
    ) -> Result<u64, Error> {
        let shard_shape = self
            .shard_shape(&array.chunk_shape(indices)?)
            .map_err(|error| {
                Error::in_chunk(array, indices, zarrs::array::ArrayError::CodecError(error))
            })?;
        Ok(shard_shape
            .iter()
            .zip(self.configuration.chunk_shape.iter())
            .map(|(shard, inner)| shard.get().div_ceil(inner.get()))
            .fold(1u64, u64::saturating_mul))
    }

    /// The shape the sharding codec sees for a shard of the array's `shape`.
    fn shard_shape(&self, shape: &[NonZeroU64]) -> Result<Vec<NonZeroU64>, CodecError> {
        let mut shape = shape.to_vec();
        for codec in &self.before {
            shape = codec.encoded_shape(&shape)?;
        }
        Ok(shape)
    }

    /// The representation of a shard of `shape` after the sharding codec and after each codec
    /// that follows it: what each of those codecs is given to encode, then what is stored.
    fn representations(
        &self,
        shape: &[NonZeroU64],
    ) -> Result<Vec<BytesRepresentation>, CodecError> {
        let mut representations =
            vec![
                self.codec
                    .encoded_representation(shape, &self.data_type, &self.fill_value)?,
            ];
        for codec in &self.after {
            let last = representations[representations.len() - 1];
            representations.push(codec.encoded_representation(&last));
        }
        Ok(representations)
    }

    /// The shard whose encoding by the codecs after sharding is `stored`, each codec told the
    /// size it must decode to (`representations`).
    fn decode(
        &self,
        representations: &[BytesRepresentation],
        stored: Vec<u8>,
    ) -> Result<Vec<u8>, CodecError> {
        let mut bytes = Cow::Owned(stored);
        for (codec, representation) in self.after.iter().zip(representations).rev() {
            bytes = codec.decode(bytes, representation, &CodecOptions::default())?;
        }
        Ok(bytes.into_owned())
    }

    /// Decodes and checks the encoded index `bytes` of a shard of `length` bytes: every entry a
    /// missing inner chunk or a byte range of the shard clear of the index, of an inner
    /// chunk's size where the inner codecs fix it.
    fn check_index(
        &self,
        plan: &Plan,
        bytes: Vec<u8>,
        length: u64,
        fail: &dyn Fn(String) -> Error,
    ) -> Result<ShardIndex, Error> {
        let decoded = self
            .index_codecs
            .decode(
                Cow::Owned(bytes),
                &plan.index_shape,
                &zarrs::array::data_type::uint64(),
                &FillValue::from(u64::MAX),
                &CodecOptions::default(),
            )
            .and_then(|decoded| Ok(decoded.into_fixed()?.into_owned()))
            .map_err(|e| fail(format!("its index: {e}")))?;
        // The region the inner chunks may occupy: the shard without its index.
        let (start, end) = match self.configuration.index_location {
            ShardingIndexLocation::Start => (plan.index_size, length),
            ShardingIndexLocation::End => (0, length - plan.index_size),
        };
        let mut entries = Vec::with_capacity(decoded.len() / 16);
        for (entry, pair) in decoded.chunks_exact(16).enumerate() {
            let word = |b: &[u8]| u64::from_ne_bytes(b.try_into().unwrap_or([0; 8]));
            let (offset, nbytes) = (word(&pair[..8]), word(&pair[8..]));
            if (offset, nbytes) == (u64::MAX, u64::MAX) {
                entries.push(None);
                continue;
            }
            let bad = |why: String| {
                fail(format!(
                    "index entry {entry} (inner chunk {:?}): offset {offset}, size {nbytes}: {why}",
                    inner_indices(entry, &plan.chunks_per_shard)
                ))
            };
            match offset.checked_add(nbytes) {
                Some(stop) if offset >= start && stop <= end => {}
                _ => {
                    return Err(bad(format!(
                        "not within bytes {start}..{end}, where the inner chunks of this \
                         {length}-byte shard lie"
                    )));
                }
            }
            // No inner codec chain encodes an inner chunk (of one element at least) to nothing;
            // read, such an entry is an empty range, which object stores refuse with messages
            // of their own ("Range started at 0 and ended at 0").
            if nbytes == 0 {
                return Err(bad("an encoded inner chunk is never empty".to_owned()));
            }
            if let Some(size) = plan.inner_size
                && nbytes != size
            {
                return Err(bad(format!("an inner chunk is {size} bytes here")));
            }
            entries.push(Some(offset..offset + nbytes));
        }
        Ok(ShardIndex {
            chunks_per_shard: plan.chunks_per_shard.clone(),
            entries,
        })
    }
}

impl Plan {
    /// The inner chunks per shard along each dimension.
    pub(crate) fn chunks_per_shard(&self) -> &[u64] {
        &self.chunks_per_shard
    }

    /// The size of the encoded index.
    pub(crate) fn index_size(&self) -> u64 {
        self.index_size
    }
}

/// What the index of one shard looks like.
pub(crate) struct Plan {
    chunks_per_shard: Vec<u64>,
    index_shape: Vec<NonZeroU64>,
    index_size: u64,
    /// The encoded size of every inner chunk, if the inner codecs fix it.
    inner_size: Option<u64>,
}

impl Sharding {
    /// The sharding codec of `array`, if it is sharded (and its configuration is one zarrs
    /// reads, as it does for the array).
    pub(crate) fn of<S: ?Sized>(array: &Array<S>) -> Result<Option<Sharding>, Error> {
        if !array.is_sharded() {
            return Ok(None);
        }
        let key = meta_key_v3(array.path());
        let invalid = |reason: String| Error::metadata(&key, Some("codecs"), reason);
        Sharding::in_chain(&array.codecs(), array.data_type(), array.fill_value()).map_err(invalid)
    }

    /// The sharding codec of the codec chain `codecs` of elements of `data_type` and
    /// `fill_value`, if its array-to-bytes codec is one (and of a configuration zarrs reads);
    /// the reason otherwise, if the chain cannot be made sense of.
    fn in_chain(
        codecs: &CodecChain,
        data_type: &DataType,
        fill_value: &FillValue,
    ) -> Result<Option<Sharding>, String> {
        let codec = codecs.array_to_bytes_codec();
        if !codec.as_any().is::<ShardingCodec>() {
            return Ok(None);
        }
        let Some(configuration) = codec.configuration_v3(&CodecMetadataOptions::default()) else {
            return Ok(None);
        };
        let ShardingCodecConfiguration::V1(configuration) =
            ShardingCodecConfiguration::try_from_configuration(configuration)
                .map_err(|e| e.to_string())?
        else {
            return Ok(None);
        };
        let index_codecs =
            CodecChain::from_metadata(&configuration.index_codecs).map_err(|e| e.to_string())?;
        let inner_codecs =
            CodecChain::from_metadata(&configuration.codecs).map_err(|e| e.to_string())?;
        let before = codecs.array_to_array_codecs().to_vec();
        let mut data_type = data_type.clone();
        let mut fill_value = fill_value.clone();
        for codec in &before {
            let encoded = codec
                .encoded_data_type(&data_type)
                .map_err(|e| e.to_string())?;
            fill_value = codec
                .encoded_fill_value(&data_type, &fill_value)
                .map_err(|e| e.to_string())?;
            data_type = encoded;
        }
        let nested = Sharding::in_chain(&inner_codecs, &data_type, &fill_value)?.map(Box::new);
        Ok(Some(Sharding {
            configuration,
            index_codecs,
            inner_codecs,
            codec: codecs.array_to_bytes_codec().clone(),
            before,
            after: codecs.bytes_to_bytes_codecs().to_vec(),
            data_type,
            fill_value,
            nested,
        }))
    }

    /// The index of a shard of `shard_shape` (as the sharding codec sees it); `None` if its
    /// size is not fixed.
    pub(crate) fn plan(&self, shard_shape: &[NonZeroU64]) -> Result<Option<Plan>, CodecError> {
        let inner_shape = &self.configuration.chunk_shape;
        if inner_shape.len() != shard_shape.len() {
            return Ok(None);
        }
        let chunks_per_shard: Vec<u64> = shard_shape
            .iter()
            .zip(inner_shape.iter())
            .map(|(shard, inner)| shard.get().div_ceil(inner.get()))
            .collect();
        let mut index_shape = Vec::with_capacity(chunks_per_shard.len() + 1);
        for &count in &chunks_per_shard {
            let Some(count) = NonZeroU64::new(count) else {
                return Ok(None);
            };
            index_shape.push(count);
        }
        index_shape.push(NonZeroU64::MIN.saturating_add(1));
        let index_size = match self.index_codecs.encoded_representation(
            &index_shape,
            &zarrs::array::data_type::uint64(),
            &FillValue::from(u64::MAX),
        )? {
            BytesRepresentation::FixedSize(size) => size,
            _ => return Ok(None),
        };
        let inner_size = match self.inner_codecs.encoded_representation(
            inner_shape,
            &self.data_type,
            &self.fill_value,
        )? {
            BytesRepresentation::FixedSize(size) => Some(size),
            _ => None,
        };
        Ok(Some(Plan {
            chunks_per_shard,
            index_shape,
            index_size,
            inner_size,
        }))
    }
}

impl Sharding {
    /// The first inner chunk (in C order) of the shard at `shard` of `array` that `region` (in
    /// the array's indices) overlaps and that does not decode on its own: an
    /// [`Error::InnerChunk`] naming it; `None` if each decodes, if the shard's index cannot be
    /// read, or if codecs around the sharding codec make its inner chunks other than the
    /// array's. They are read and decoded one at a time: the memory taken is one inner chunk's.
    pub(crate) fn failing_inner_chunk<S: ?Sized + ReadableStorageTraits + 'static>(
        &self,
        array: &Array<S>,
        shard: &[u64],
        region: &zarrs::array::ArraySubset,
        options: &CodecOptions,
    ) -> Option<Error> {
        if self.is_wrapped() {
            return None;
        }
        let index = self.read_index(array, shard).ok()??;
        let origin = array.chunk_origin(shard).ok()?;
        let inner_shape = self.inner_chunk_shape();
        // The inner chunks `region` overlaps, along each dimension.
        let mut overlapped = Vec::with_capacity(inner_shape.len());
        for (((&start, &length), &origin), inner) in region
            .start()
            .iter()
            .zip(region.shape())
            .zip(&origin)
            .zip(inner_shape)
        {
            let first = start.checked_sub(origin)?;
            let last = first.checked_add(length.checked_sub(1)?)?;
            overlapped.push(first / inner.get()..last / inner.get() + 1);
        }
        let key = array.chunk_key(shard);
        for (entry, bytes) in index.entries().iter().enumerate() {
            let Some(bytes) = bytes else {
                continue;
            };
            let inner = inner_indices(entry, index.chunks_per_shard());
            if !inner
                .iter()
                .zip(&overlapped)
                .all(|(indices, range)| range.contains(indices))
            {
                continue;
            }
            let range = ByteRange::FromStart(bytes.start, Some(bytes.end - bytes.start));
            let Ok(Some(stored)) = array.storage().get_partial(&key, range) else {
                return None;
            };
            if let Err(error) = self.decode_inner(&stored, inner_shape, options) {
                return Some(Error::in_inner_chunk(
                    key.to_string(),
                    inner,
                    bytes.clone(),
                    self.nested_fault(&stored, options),
                    error,
                ));
            }
        }
        None
    }
}

impl Sharding {
    /// Where the fault is in an inner chunk that does not decode (its stored bytes `stored`),
    /// if the inner chunks are shards themselves (nested sharding): the first of its own inner
    /// chunks that does not decode, then the one in that, and so on, outermost first. Empty
    /// where the inner chunks are not shards, or where the fault is the inner chunk's own (its
    /// index, or the codecs that encode it whole). Each inner chunk of it is decoded on its
    /// own, one at a time, as [`Sharding::failing_inner_chunk`] decodes the shard's.
    pub(crate) fn nested_fault(&self, stored: &[u8], options: &CodecOptions) -> Vec<NestedChunk> {
        let Some(nested) = &self.nested else {
            return Vec::new();
        };
        let Ok(shape) = nested.shard_shape(self.inner_chunk_shape()) else {
            return Vec::new();
        };
        let Ok(Some(plan)) = nested.plan(&shape) else {
            return Vec::new();
        };
        let shard = if nested.is_encoded() {
            let Ok(representations) = nested.representations(&shape) else {
                return Vec::new();
            };
            let most = representations.last().and_then(BytesRepresentation::size);
            if most.is_some_and(|most| stored.len() as u64 > most) {
                return Vec::new();
            }
            match nested.decode(&representations, stored.to_vec()) {
                Ok(decoded) => Cow::Owned(decoded),
                Err(_) => return Vec::new(),
            }
        } else {
            Cow::Borrowed(stored)
        };
        let fail = |reason: String| Error::Shard {
            key: String::new(),
            reason,
        };
        let Ok(index) = nested.index_in(&plan, &shard, "is", &fail) else {
            return Vec::new();
        };
        for (entry, range) in index.entries().iter().enumerate() {
            let Some(range) = range else {
                continue;
            };
            let Some(bytes) = slice(&shard, range.clone()) else {
                continue;
            };
            if nested
                .decode_inner(bytes, nested.inner_chunk_shape(), options)
                .is_ok()
            {
                continue;
            }
            let mut fault = vec![NestedChunk {
                inner: inner_indices(entry, index.chunks_per_shard()),
                bytes: range.clone(),
            }];
            fault.extend(nested.nested_fault(bytes, options));
            return fault;
        }
        Vec::new()
    }
}

/// How [`Sharding::check_nested`] reads an inner chunk: its stored bytes from its byte range
/// in the shard, `None` if they are gone.
type ReadInner<'a> = dyn Fn(Range<u64>) -> Result<Option<Cow<'a, [u8]>>, Error> + 'a;

/// The bytes of `bytes` in `range`, if it lies within them.
fn slice(bytes: &[u8], range: Range<u64>) -> Option<&[u8]> {
    bytes.get(usize::try_from(range.start).ok()?..usize::try_from(range.end).ok()?)
}

/// The indices in the shard of the inner chunk of index entry `entry` (C order).
pub(crate) fn inner_indices(entry: usize, chunks_per_shard: &[u64]) -> Vec<u64> {
    let mut rest = entry as u64;
    let mut indices = vec![0u64; chunks_per_shard.len()];
    for (slot, &count) in indices.iter_mut().zip(chunks_per_shard).rev() {
        *slot = rest % count.max(1);
        rest /= count.max(1);
    }
    indices
}
