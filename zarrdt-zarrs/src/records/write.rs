//! Writing records into a subset of an array chunk by chunk (shard by shard, for a sharded
//! array): each chunk's records encoded into a buffer its thread reuses, passed through the
//! array's codecs and stored, several chunks at a time (a large uncompressed chunk encoded and
//! written a piece at a time: [`StreamedChunks`]). A chunk the
//! subset covers (or covers within the array, for an edge chunk at least half in it) is stored
//! whole, encoded once; one it covers in part is read whole, changed and stored whole
//! ([`updated_chunk`]: a shard's index checked first, as a read checks it, and the chunk's
//! memory asked for first, a chunk too large to hold an error, not an abort). Memory: the
//! threads' buffers, one chunk each (a piece each, for chunks written a piece at a time). A
//! chunk that fails ends the write: no chunk after it is begun.

use std::cell::RefCell;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use zarrdt_core::{Endian, ZarrType};
use zarrs::array::{
    Array, ArrayBytes, ArrayError, ArrayShardedExt, ArraySubset, ArraySubsetTraits,
    ArrayToBytesCodecTraits,
};
use zarrs::storage::ReadableWritableStorageTraits;

use super::fill::{fill_elements, write_options};
use super::plan::Plan;
use super::streamed::StreamedChunks;
use super::update::updated_chunk;
use super::whole_shard::{WholeShards, all_fill, set_and_take_back, stores_directly};
use crate::Error;
use crate::shard::Sharding;
use crate::subset::check_subset;

/// The records of one chunk: where they come from in the caller's slice, and where they go in
/// its region (the whole chunk, or its overlap with the subset; positions in C order).
struct Part {
    /// The chunk's indices in the chunk grid.
    indices: Vec<u64>,
    /// The region written: the whole chunk, or the part of it in the subset.
    region: ArraySubset,
    /// Whether the region is the whole chunk.
    whole: bool,
    /// Pairs of (records, positions in the region), in the order of their positions.
    runs: Vec<(Range<usize>, Range<usize>)>,
}

/// What is written: elements, each encoded into `size()` native packed bytes. A write takes
/// it as `&dyn Source` (it is asked a run of elements at a time), so that the write's parallel
/// steps are compiled once, not for every record type.
pub(crate) trait Source: Sync {
    /// The number of elements.
    fn len(&self) -> usize;
    /// The size of one element's bytes.
    fn size(&self) -> usize;
    /// Encodes the elements `elements` into `out` (exactly their bytes).
    fn encode(&self, elements: Range<usize>, out: &mut [u8]) -> Result<(), zarrdt_core::Error>;
}

/// Records of a Rust type.
pub(crate) struct Records<'a, T>(pub(crate) &'a [T]);

impl<T: ZarrType + Sync> Source for Records<'_, T> {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn size(&self) -> usize {
        T::SIZE
    }

    fn encode(&self, elements: Range<usize>, out: &mut [u8]) -> Result<(), zarrdt_core::Error> {
        T::encode_slice_into(&self.0[elements], out, Endian::NATIVE)
    }
}

/// Elements already encoded (native packed bytes, `size` each).
pub(crate) struct Encoded<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) size: usize,
}

impl Source for Encoded<'_> {
    fn len(&self) -> usize {
        self.bytes.len() / self.size.max(1)
    }

    fn size(&self) -> usize {
        self.size
    }

    fn encode(&self, elements: Range<usize>, out: &mut [u8]) -> Result<(), zarrdt_core::Error> {
        out.copy_from_slice(&self.bytes[elements.start * self.size..elements.end * self.size]);
        Ok(())
    }
}

/// Stores the elements of `source` (C order) into `subset` of `array`.
pub(crate) fn write<S>(
    array: &Array<S>,
    subset: &dyn ArraySubsetTraits,
    source: &dyn Source,
) -> Result<(), Error>
where
    S: ?Sized + ReadableWritableStorageTraits + 'static,
{
    check_count(subset, source.len())?;
    check_subset(array, subset, source.size())?;
    // As many elements as the subset holds (checked above).
    let expected = source.len();
    if expected == 0 {
        return Ok(());
    }
    let Some(chunk_shape) = super::read::grid_chunk_shape(array) else {
        // A grid zarrs alone knows how to walk: its own write of the whole subset, which reads
        // the shards it updates (every shard the subset touches checked first, below).
        crate::check_shards(array, subset)?;
        let mut bytes = vec![0; expected * source.size()];
        source.encode(0..expected, &mut bytes)?;
        array.store_array_subset_opt(subset, ArrayBytes::new_flen(bytes), &write_options(array))?;
        return Ok(());
    };
    let plan = Plan::new(subset, chunk_shape, array.shape())?;
    let whole_shards = WholeShards::for_plan(array, &plan, source.size())?;
    let streamed = StreamedChunks::of(array, source.size());
    // A shard written in part is read, changed and written again by zarrs, whose decode
    // panics on some damaged indexes (an entry at offset 2⁶⁴ − 1, in zarrs 0.23.14): its index
    // is read and checked first, as a read checks it. A shard written whole is not read.
    let sharding = if array.is_sharded() && !plan.covers_every_unit() {
        Sharding::of(array)?
    } else {
        None
    };
    // The chunks go a window at a time (their parts made for it, then let go), several
    // chunks of a window at once; the first failure, in the subset's order, ends the write.
    let threads = rayon::current_num_threads().max(1);
    let mut next = 0;
    for window in plan.windows(WINDOW_UNITS_PER_THREAD * threads) {
        let parts = parts(&plan, window, &mut next)?;
        store_each(parts.len(), &|number| {
            let part = &parts[number];
            if let Some(sharding) = sharding.as_ref().filter(|_| !part.whole) {
                sharding.read_index(array, &part.indices)?;
            }
            store_part(
                array,
                part,
                source,
                whole_shards.as_ref(),
                streamed.as_ref(),
                sharding.as_ref(),
            )
        })?;
    }
    Ok(())
}

/// `store` of the parts numbered `0..count`, several at once: once a part has failed, no part
/// after it is begun (a store that has gone away would otherwise be tried, and waited for, once
/// for every part left), and every part before it still is; the error is the first failure in
/// the parts' order, however the threads ran. The closure behind a reference: one instance,
/// compiled in this crate, whatever the storage and the records written.
fn store_each(
    count: usize,
    store: &(dyn Fn(usize) -> Result<(), Error> + Sync),
) -> Result<(), Error> {
    let failed = AtomicUsize::new(usize::MAX);
    (0..count)
        .into_par_iter()
        .map(|number| {
            if failed.load(Ordering::Relaxed) < number {
                return Ok(());
            }
            let stored = store(number);
            if stored.is_err() {
                failed.fetch_min(number, Ordering::Relaxed);
            }
            stored
        })
        .collect::<Vec<_>>()
        .into_iter()
        .collect()
}

/// The chunks a window of a write holds at least, per thread: enough that the threads are
/// seldom idle where one window ends, few enough that a subset of millions of tiny chunks
/// holds only a window's parts.
const WINDOW_UNITS_PER_THREAD: usize = 256;

/// The parts of the chunks of the slabs `window` of `plan`, their runs numbered from `next`
/// (the records before the window), which is moved past theirs.
fn parts(plan: &Plan, window: Range<usize>, next: &mut usize) -> Result<Vec<Part>, Error> {
    let mut parts = Vec::new();
    for slab in plan.slabs(window)? {
        let first = parts.len();
        let runs = plan.runs(&slab);
        parts.extend(slab.units.into_iter().map(|unit| Part {
            indices: unit.indices,
            region: unit.region,
            whole: unit.whole,
            runs: Vec::new(),
        }));
        for run in runs {
            let count = run.elements.len();
            parts[first + run.unit]
                .runs
                .push((*next..*next + count, run.elements));
            *next += count;
        }
    }
    // In the order of their positions: the records of a chunk come in its C order already
    // (this only makes sure of it).
    for part in &mut parts {
        part.runs.sort_by_key(|(_, to)| to.start);
    }
    Ok(parts)
}

/// Checks that `found` elements are as many as `subset` holds ([`Error::ElementCount`]; a
/// subset of more than `u64::MAX` elements, which no write has, is said to hold `u64::MAX`).
pub(crate) fn check_count(subset: &dyn ArraySubsetTraits, found: usize) -> Result<(), Error> {
    let expected = crate::subset::element_count(&subset.shape()).unwrap_or(u64::MAX);
    if u64::try_from(found) == Ok(expected) {
        return Ok(());
    }
    Err(Error::ElementCount { expected, found })
}

/// Stores one chunk's records: the whole chunk if they cover it within the array and at least
/// half of it is in the array (the fill value beyond the array's end, which is never read),
/// else an update of the part they cover.
///
/// A whole uncompressed chunk not stored yet is written a piece at a time where its store
/// writes in part ([`StreamedChunks`]). Any other whole chunk of an unsharded array is encoded into its
/// thread's buffer, passed through the array's codecs and stored by zarrdt, the store handing
/// the buffer back for the thread's next chunk (zarrs' `store_chunk_opt` copies a borrowed uncompressed chunk whole, and a fresh
/// chunk-sized buffer would be faulted in anew, chunks being larger than what glibc reuses). A
/// whole shard is encoded into the same buffer and written by [`WholeShards::store`] (laid out
/// in that buffer where its inner codecs change nothing). Part of a chunk or a shard is written
/// by reading the whole one, changing it and storing it whole ([`store_encoded`]); a shard
/// [`WholeShards`] cannot write, by zarrs.
fn store_part<S>(
    array: &Array<S>,
    part: &Part,
    source: &dyn Source,
    whole_shards: Option<&WholeShards>,
    streamed: Option<&StreamedChunks>,
    sharding: Option<&Sharding>,
) -> Result<(), Error>
where
    S: ?Sized + ReadableWritableStorageTraits + 'static,
{
    let whole_chunk = !array.is_sharded() && part.whole && stores_directly(array);
    let elements = usize::try_from(part.region.num_elements()).unwrap_or(usize::MAX);
    if let Some(streamed) = streamed.filter(|streamed| whole_chunk && streamed.streams(elements)) {
        let fill = array.fill_value().as_ne_bytes();
        let encode = |window, out: &mut [u8]| encode_window(part, source, window, Some(fill), out);
        if streamed.store(array, &part.indices, elements, encode)? {
            return Ok(());
        }
    }
    if !array.is_sharded() && !whole_chunk {
        // Zeroed by the allocator (a fresh mapping needs no clearing).
        let zeroed = vec![0; elements * source.size()];
        let buffer = encode_part(array, part, source, zeroed)?;
        return store_encoded(array, part, &buffer, source.size(), sharding, None);
    }
    let whole_shard = whole_shards.filter(|_| part.whole);
    ENCODED.with(|kept| {
        let mut buffer = std::mem::take(&mut *kept.borrow_mut());
        if let Some(shards) = whole_shard {
            // Room for the index after the elements, should the shard be laid out in place.
            let room = elements
                .saturating_mul(source.size())
                .saturating_add(shards.index_size());
            // Asked for, not required: without it, appending the index moves the buffer.
            let _ = buffer.try_reserve(room.saturating_sub(buffer.len()));
        }
        let buffer = encode_part(array, part, source, buffer)?;
        // The buffer to keep for the next chunk or shard: back from the store where zarrdt
        // stores it (empty if the store kept it), this one where zarrs copies out of it.
        let back = if whole_chunk {
            store_whole_chunk(array, &part.indices, buffer)?
        } else if let Some(shards) = whole_shard {
            // A whole shard, written by zarrdt around zarrs' codecs.
            shards.store(array, &part.indices, buffer, &write_options(array))?
        } else {
            store_encoded(array, part, &buffer, source.size(), sharding, whole_shards)?;
            buffer
        };
        // A large one is not kept for ever.
        if back.capacity() <= KEPT_BUFFER_MAX {
            *kept.borrow_mut() = back;
        }
        Ok(())
    })
}

/// The largest buffer a thread keeps from one chunk or shard to the next.
const KEPT_BUFFER_MAX: usize = 256 << 20;

thread_local! {
    /// The chunk or shard being encoded on this thread, reused from one to the next.
    static ENCODED: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Stores a whole chunk's native `elements` as zarrs' `store_chunk` does (a chunk of nothing
/// but the fill value erased, any other encoded by the array's codecs), giving the store a
/// buffer it hands back for the next chunk: `elements`' own where the codecs change nothing or
/// convert in place (zarrs' `store_chunk` copies a borrowed chunk its codecs pass through into
/// a new buffer, and keeps an owned one for good). Returns the buffer back (empty if the store
/// kept it).
fn store_whole_chunk<S>(
    array: &Array<S>,
    indices: &[u64],
    elements: Vec<u8>,
) -> Result<Vec<u8>, Error>
where
    S: ?Sized + ReadableWritableStorageTraits + 'static,
{
    let key = array.chunk_key(indices);
    let storage = array.storage();
    let options = write_options(array);
    let in_chunk = |error| Error::in_chunk(array, indices, error);
    let stored = |error| in_chunk(ArrayError::StorageError(error));
    if !options.store_empty_chunks() && all_fill(&elements, array.fill_value().as_ne_bytes()) {
        storage.erase(&key).map_err(stored)?;
        return Ok(elements);
    }
    let shape = array.chunk_shape(indices).map_err(in_chunk)?;
    // Handed to the codecs to keep: unchanged or converted in place (the byte order), the same
    // buffer comes out; compressed, a new one, and this one is freed.
    let encoded = array
        .codecs()
        .encode(
            ArrayBytes::new_flen(elements),
            &shape,
            array.data_type(),
            array.fill_value(),
            &options,
        )
        .map_err(|error| in_chunk(ArrayError::CodecError(error)))?;
    let back = set_and_take_back(&*storage, &key, encoded.into_owned()).map_err(stored)?;
    Ok(back.unwrap_or_default())
}

/// The bytes of `part`'s region, in `buffer` (whatever it held): the records encoded, the fill
/// value or zeros elsewhere.
fn encode_part<S: ?Sized>(
    array: &Array<S>,
    part: &Part,
    source: &dyn Source,
    mut buffer: Vec<u8>,
) -> Result<Vec<u8>, Error> {
    let elements = usize::try_from(part.region.num_elements()).unwrap_or(usize::MAX);
    if part.whole {
        // Every element is written below (the fill value where no record goes, beyond the
        // array's end): the buffer's old bytes need no clearing.
        buffer.resize(elements * source.size(), 0);
        encode_window(
            part,
            source,
            0..elements,
            Some(array.fill_value().as_ne_bytes()),
            &mut buffer,
        )?;
    } else {
        // Zeros where nothing is encoded (zarrs keeps its stored elements there).
        buffer.clear();
        buffer.resize(elements * source.size(), 0);
        encode_window(part, source, 0..elements, None, &mut buffer)?;
    }
    Ok(buffer)
}

/// The bytes of the positions `window` of `part`'s region into `out` (exactly their size): the
/// records encoded, and `fill` (one element's bytes) where no record goes, if given (`out`
/// left as it is there, if not).
fn encode_window(
    part: &Part,
    source: &dyn Source,
    window: Range<usize>,
    fill: Option<&[u8]>,
    out: &mut [u8],
) -> Result<(), Error> {
    let size = source.size();
    // The runs are in the order of their positions (see `Part::runs`).
    let first = part.runs.partition_point(|(_, to)| to.end <= window.start);
    let mut next = window.start;
    for (from, to) in part.runs[first..]
        .iter()
        .take_while(|(_, to)| to.start < window.end)
    {
        let start = to.start.max(window.start);
        let end = to.end.min(window.end);
        if let Some(fill) = fill.filter(|_| start > next) {
            fill_elements(
                &mut out[(next - window.start) * size..(start - window.start) * size],
                fill,
            );
        }
        let records = from.start + (start - to.start)..from.start + (end - to.start);
        source.encode(
            records,
            &mut out[(start - window.start) * size..(end - window.start) * size],
        )?;
        next = end;
    }
    if let Some(fill) = fill.filter(|_| window.end > next) {
        fill_elements(&mut out[(next - window.start) * size..], fill);
    }
    Ok(())
}

/// Stores a part's encoded elements (`size` bytes each): the whole chunk, or an update of its
/// region (the whole chunk read and changed first, its memory asked for: see
/// [`updated_chunk`]); an updated chunk is stored as a whole one (a shard by
/// [`WholeShards::store`] where it can be).
fn store_encoded<S>(
    array: &Array<S>,
    part: &Part,
    bytes: &[u8],
    size: usize,
    sharding: Option<&Sharding>,
    whole_shards: Option<&WholeShards>,
) -> Result<(), Error>
where
    S: ?Sized + ReadableWritableStorageTraits + 'static,
{
    let in_chunk = |error| Error::in_chunk(array, &part.indices, error);
    if part.whole {
        return array
            .store_chunk_opt(
                &part.indices,
                ArrayBytes::new_flen(bytes),
                &write_options(array),
            )
            .map_err(in_chunk);
    }
    let index = whole_shards.map_or(0, WholeShards::index_size);
    let chunk = updated_chunk(
        array,
        &part.indices,
        &part.region,
        bytes,
        size,
        sharding,
        index,
    )?;
    if array.is_sharded() && whole_shards.is_none() {
        return array
            .store_chunk_opt(&part.indices, chunk, &write_options(array))
            .map_err(in_chunk);
    }
    let mut chunk = chunk.into_fixed().map_err(ArrayError::from)?.into_owned();
    match whole_shards {
        Some(shards) => {
            // Room for the index after the elements, should the shard be laid out in place.
            let _ = chunk.try_reserve_exact(index);
            shards.store(array, &part.indices, chunk, &write_options(array))
        }
        None => store_whole_chunk(array, &part.indices, chunk),
    }
    .map(drop)
}
