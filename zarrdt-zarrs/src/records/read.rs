//! Reading a subset of an array unit by unit (chunks, or a sharded array's inner chunks): the
//! units of a few slabs fetched and decoded by zarrs' codecs in parallel while the previous
//! slabs are decoded, each run of elements straight from the codecs' output into the caller's
//! output ([`Sink`]), in C order; a shard the subset covers whole is read in one read and
//! split into its inner chunks by [`WholeShards`] where it can be, compressed inner chunks
//! decoded a band at a time as the read comes to them (a band: rows of inner chunks across
//! the slab, one inner chunk a thread at least); records are handed over in the byte order
//! they are stored in where they can be ([`StoredOrder`]), compressed chunks decoded into the
//! buffers of chunks handed over before them ([`SpareBuffers`]), a missing chunk's fill value a
//! piece at a time (never a whole chunk of it: a field may be all the read keeps). Memory: the
//! output and two windows of units (a window is whole slabs of at least as many units as
//! threads, or one slab, a row of shards, where shards are read whole with an inner chunk for
//! every thread and either decoded as the read comes to them or many), of which shards decoded
//! as read hold their stored bytes and two or three bands of decoded inner chunks, whatever the
//! array's size.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use rayon::prelude::*;
use zarrdt_core::{BigEndian, Endian, Layout, LittleEndian, StaticEndian, Value, ZarrType};
use zarrs::array::codec::CodecChain;
use zarrs::array::{
    Array, ArrayBytes, ArrayError, ArrayShardedReadableExt, ArrayShardedReadableExtCache,
    ArraySubsetTraits, CodecOptions,
};
use zarrs::storage::ReadableStorageTraits;

use super::beside::{First, each_beside};
use super::fill::FillPiece;
use super::plan::{Plan, Run, Slab, Unit};
use super::run::{Projection, RunBytes};
use super::spare::SpareBuffers;
use super::stored_order::StoredOrder;
use super::whole_shard::{Piece, SplitShard, ToDecode, WholeShards};
use crate::Error;
use crate::shard::Sharding;
use crate::subset::check_subset;

/// Runs of at least this many bytes are decoded by all threads; shorter ones by one.
const PARALLEL_BYTES: usize = 1 << 20;

/// A read of at least this many shards per thread, each read whole, goes a shard at a time.
const MANY_SHARDS_PER_THREAD: usize = 4;

/// Where the elements read go: each run of consecutive elements, as the packed bytes zarrs'
/// codecs hand over, every multi-byte value in the order the run comes with (the native one,
/// or the stored one where [`StoredOrder`] decodes the chunks). A read takes it as
/// `&mut dyn Sink` (it is handed a run at a time), so that the read's parallel steps are
/// compiled once, not for every record type.
pub(crate) trait Sink: Send {
    /// Makes room for `elements` more elements, all at once, before any is read (an output
    /// grown chunk by chunk would be copied and faulted in again as it grows); an error if it
    /// cannot be allocated.
    fn reserve(&mut self, elements: usize) -> Result<(), Error>;
    /// Appends the elements of `bytes` (each multi-byte value in `endian`); an error names
    /// them by their index in the output.
    fn take(&mut self, bytes: &[u8], endian: Endian) -> Result<(), zarrdt_core::Error>;
    /// The part of each element the sink keeps, if not all of it: the shards' decoded inner
    /// chunks then keep only that ([`Sink::take_projected`]).
    fn projection(&self) -> Option<Projection> {
        None
    }
    /// Appends the elements whose [`Sink::projection`] is `bytes` (packed, each multi-byte
    /// value in `endian`), as [`Sink::take`] does for whole elements.
    fn take_projected(&mut self, bytes: &[u8], endian: Endian) -> Result<(), zarrdt_core::Error>;
}

/// Room for `elements` more values in `out`, or [`Error::OutputTooLarge`].
fn reserve<T>(out: &mut Vec<T>, elements: usize) -> Result<(), Error> {
    out.try_reserve_exact(elements)
        .map_err(|_| Error::OutputTooLarge {
            elements,
            element_size: std::mem::size_of::<T>(),
        })
}

/// Reads `subset` of `array` (elements of `element_size` bytes) into `sink`, in C order; an
/// invalid element is [`Error::InvalidElement`], naming where it is in the array.
pub(crate) fn read<S>(
    array: &Array<S>,
    subset: &dyn ArraySubsetTraits,
    element_size: usize,
    sink: &mut dyn Sink,
) -> Result<(), Error>
where
    S: ?Sized + ReadableStorageTraits + 'static,
{
    read_in_order(array, subset, element_size, sink).map_err(|error| match error {
        Error::Zarr(source @ zarrdt_core::Error::InvalidElement { index, .. }) => {
            located(array, subset, index, source)
        }
        other => other,
    })
}

/// [`Error::InvalidElement`]: `source`, about element `index` of the read of `subset`, with
/// that element's position in `array` and the key of the chunk (shard) it is in.
fn located<S: ?Sized + ReadableStorageTraits + 'static>(
    array: &Array<S>,
    subset: &dyn ArraySubsetTraits,
    index: usize,
    source: zarrdt_core::Error,
) -> Error {
    // The index in C order of the subset's shape (which holds the element, so no extent of
    // it is 0), as indices in the array.
    let shape = subset.shape();
    let within = (!shape.contains(&0))
        .then(|| zarrs::array::unravel_index(index as u64, &shape))
        .flatten();
    let Some(within) = within else {
        return Error::Zarr(source);
    };
    let position: Vec<u64> = within
        .iter()
        .zip(subset.start().iter())
        .map(|(at, start)| start + at)
        .collect();
    let Some(chunk) = array.chunk_grid().chunk_indices(&position).ok().flatten() else {
        return Error::Zarr(source);
    };
    let key = array.chunk_key(&chunk);
    let stored = !matches!(array.storage().size_key(&key), Ok(None));
    Error::InvalidElement {
        key: key.to_string(),
        stored,
        position,
        source: Box::new(source),
    }
}

/// [`read`], whose errors name no element's position in the array.
fn read_in_order<S>(
    array: &Array<S>,
    subset: &dyn ArraySubsetTraits,
    element_size: usize,
    sink: &mut dyn Sink,
) -> Result<(), Error>
where
    S: ?Sized + ReadableStorageTraits + 'static,
{
    check_subset(array, subset, element_size)?;
    // The subset's bytes fit in `isize` (checked above), so its element count fits in `usize`.
    let elements = crate::subset::element_count(&subset.shape())
        .and_then(|elements| usize::try_from(elements).ok())
        .unwrap_or(usize::MAX);
    sink.reserve(elements)?;
    if elements == 0 {
        return Ok(());
    }
    let Some(unit_shape) = grid_chunk_shape(array) else {
        // A grid zarrs alone knows how to walk: its own read of the whole subset.
        crate::check_shards(array, subset)?;
        let bytes: ArrayBytes<'static> = array
            .retrieve_array_subset(subset)
            .map_err(|error| crate::culprit::in_subset(array, subset, error))?;
        let bytes = bytes.into_fixed().map_err(ArrayError::from)?;
        return Ok(sink.take(&bytes, Endian::NATIVE)?);
    };
    let plan = Plan::new(subset, unit_shape, array.shape())?;
    // A sink that keeps part of each element (one field) has the inner chunks cut to it as
    // they are decoded, on the decoding threads, where the handing over goes a piece shorter
    // than `PARALLEL_BYTES` at a time (tiles, small inner chunks), on one thread: the bands
    // then hold the part alone, and the cutting is done beside it. Longer pieces are handed
    // over by all threads, where cutting first would be one more pass over the bytes.
    let whole_shards = WholeShards::for_plan(array, &plan, element_size)?.map(|shards| {
        let projection = sink
            .projection()
            .filter(|_| shards.largest_piece() < PARALLEL_BYTES);
        shards.projecting(projection)
    });
    let codecs = array.codecs();
    let sharding = Sharding::of(array)?;
    let first = if whole_shards.is_none() && units_decompress(&codecs, sharding.as_ref()) {
        First::Items
    } else {
        First::Task
    };
    let reader = Reader {
        array,
        stored_order: StoredOrder::of(&codecs, array.data_type(), array.fill_value())
            .map(|order| (codecs, order)),
        cache: ArrayShardedReadableExtCache::new(array),
        options: CodecOptions::default().with_concurrent_target(1),
        whole_shards: whole_shards.as_ref(),
        sharding,
        // The chunks of two windows are decoded at once: those handed over, and the next.
        spare: SpareBuffers::new(2 * rayon::current_num_threads().max(1)),
        fill: OnceLock::new(),
        first,
    };
    // Windows of whole slabs, each at least as many units as there are threads; or at least
    // one unit (one slab: a shard, or a row of shards side by side) where the units are
    // shards read whole with an inner chunk for every thread (their inner chunks keep the
    // threads busy), if the shards' inner chunks are decoded as the read comes to them (the
    // threads' work is then in the decode, not the fetch) or the read covers many shards: two
    // windows of a slab each, not of `threads` shards, in memory beside the output. (A read of
    // a few shards decoded whole when fetched keeps the wider windows, faster there.)
    let threads = rayon::current_num_threads().max(1);
    let window_units = match &whole_shards {
        Some(shards)
            if shards.inner_chunks() >= threads
                && (shards.decodes_as_read()
                    || plan.unit_count() >= MANY_SHARDS_PER_THREAD * threads) =>
        {
            1
        }
        _ => threads,
    };
    // Each window's slabs are made as it is fetched, and let go once it is handed over.
    let mut windows = plan.windows(window_units);
    let Some(first) = windows.next() else {
        return Ok(());
    };
    // Hands the window of `slabs` over from its units' bytes.
    let mut hand_over_window = |slabs: &[Slab], bytes: &mut [UnitBytes<'_>]| {
        decode(&plan, slabs, bytes, element_size, sink, &reader.spare)
    };
    // A unit that fails to fetch is reported when the handing over comes to it: the first
    // fault in the output's order is the error, however many units a window holds.
    let (mut bytes, mut current) = if window_units < threads
        && let Some(second) = windows.next()
    {
        // Windows of fewer units than threads (a slab of shards read whole): the first two
        // are fetched together, the threads then all busy with the fetch, which one thread
        // would otherwise do alone (nothing is handed over yet), and the first is handed over
        // before the third is fetched: two windows in memory, as after.
        let mut slabs = plan.slabs(first.start..second.end)?;
        let mut bytes = reader.fetch_beside(&slabs, &mut || ());
        let ahead_slabs = slabs.split_off(first.len());
        let ahead = bytes.split_off(window_len(&slabs));
        hand_over_window(&slabs, &mut bytes)?;
        (ahead, ahead_slabs)
    } else {
        let slabs = plan.slabs(first)?;
        (reader.fetch_beside(&slabs, &mut || ()), slabs)
    };
    for next in windows {
        let next = plan.slabs(next)?;
        let mut decoded = Ok(());
        let ahead = reader.fetch_beside(&next, &mut || {
            decoded = hand_over_window(&current, &mut bytes);
        });
        decoded?;
        bytes = ahead;
        current = next;
        // The cache holds one shard index per shard read; keep it small.
        if reader.cache.len() > 64 {
            reader.cache.clear();
        }
    }
    hand_over_window(&current, &mut bytes)
}

/// The units of a window of `slabs`.
fn window_len(slabs: &[Slab]) -> usize {
    slabs.iter().map(|slab| slab.units.len()).sum()
}

/// Whether fetching a unit of an array of `codecs` and `sharding` (a chunk, or an inner chunk
/// of a shard not read whole) decompresses it: a compressor among the codecs of its chunks,
/// or of its shards' inner chunks.
fn units_decompress(codecs: &CodecChain, sharding: Option<&Sharding>) -> bool {
    let compressed = |codecs: &CodecChain| !codecs.bytes_to_bytes_codecs().is_empty();
    compressed(codecs) || sharding.is_some_and(|sharding| compressed(sharding.inner_codecs()))
}

/// The chunk shape of the array's chunk grid (its shards, if sharded), if it is regular.
pub(crate) fn grid_chunk_shape<S: ?Sized>(array: &Array<S>) -> Option<Vec<u64>> {
    regular_chunk_shape(array.chunk_grid())
}

fn regular_chunk_shape(grid: &zarrs::array::ChunkGrid) -> Option<Vec<u64>> {
    let metadata = grid.metadata();
    if metadata.name() != "regular" {
        return None;
    }
    let shape = metadata.configuration()?.get("chunk_shape")?.as_array()?;
    shape.iter().map(serde_json::Value::as_u64).collect()
}

/// Fetches units through zarrs, sharing shard indexes between them.
struct Reader<'a, S: ?Sized> {
    array: &'a Array<S>,
    /// How whole chunks are decoded to their stored order, by the array's codecs, if they are.
    stored_order: Option<(Arc<CodecChain>, StoredOrder)>,
    cache: ArrayShardedReadableExtCache,
    options: CodecOptions,
    /// How shards are read whole and split, where they can be.
    whole_shards: Option<&'a WholeShards>,
    /// The array's sharding, if it is sharded: the index of a shard zarrs reads is checked
    /// first (zarrs trusts it), as [`check_shards`](crate::check_shards) does.
    sharding: Option<Sharding>,
    /// Decoded chunks handed over, for the next ones to be decoded into.
    spare: SpareBuffers,
    /// Fill values for chunks that are not stored, made when one is first met.
    fill: OnceLock<Arc<FillPiece>>,
    /// Whether a window's units are fetched first, the window before handed over beside them
    /// ([`First::Items`], where a unit's fetch decompresses it), or the other way round.
    first: First,
}

/// The decoded bytes of a unit (the part of it the read covers, in C order).
enum UnitBytes<'a> {
    /// In one piece, each multi-byte value in the order given.
    Whole(Cow<'static, [u8]>, Endian),
    /// A whole chunk that is not stored: `elements` elements of the fill value (in the native
    /// order), handed over from `fill` a piece at a time.
    Fill {
        fill: Arc<FillPiece>,
        elements: usize,
    },
    /// A shard read whole, in its inner chunks.
    Shard(SplitShard<'a>),
    /// A unit that could not be fetched: its error, reported when the handing over comes to it,
    /// so that a fault in an earlier unit fetched with it is reported first.
    Failed(Error),
}

/// A unit not fetched yet: [`UnitBytes::EMPTY`].
impl Default for UnitBytes<'_> {
    fn default() -> Self {
        UnitBytes::EMPTY
    }
}

impl<'a> UnitBytes<'a> {
    /// A unit with nothing left in it: handed over, or its failure reported.
    const EMPTY: Self = UnitBytes::Whole(Cow::Borrowed(&[]), Endian::NATIVE);

    /// The order of every multi-byte value in the unit's bytes.
    fn endian(&self) -> Endian {
        match self {
            UnitBytes::Whole(_, endian) => *endian,
            UnitBytes::Shard(shard) => shard.endian(),
            UnitBytes::Fill { .. } | UnitBytes::Failed(_) => Endian::NATIVE,
        }
    }

    /// The shard read whole, if the unit is one.
    fn shard(&self) -> Option<&SplitShard<'a>> {
        match self {
            UnitBytes::Shard(shard) => Some(shard),
            UnitBytes::Whole(..) | UnitBytes::Fill { .. } | UnitBytes::Failed(_) => None,
        }
    }

    /// Hands `take` the bytes in `range` (of whole elements), in order, in one or more
    /// pieces; an error if the range is beyond the unit, or the unit's own if it could not be
    /// fetched (reported once: the unit is empty after).
    fn for_each(
        &mut self,
        range: Range<usize>,
        element_size: usize,
        take: &mut dyn FnMut(RunBytes<'_>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let (len, done) = match self {
            UnitBytes::Whole(bytes, _) => (
                bytes.len(),
                bytes
                    .get(range)
                    .map(|bytes| take(RunBytes::Elements(bytes))),
            ),
            UnitBytes::Shard(shard) => (shard.len(), shard.for_each(range, take)),
            UnitBytes::Fill { fill, elements } => {
                let size = fill.element_size();
                let len = elements.saturating_mul(size);
                let done = (range.start <= range.end && range.end <= len)
                    .then(|| fill.hand_over(range.len() / size.max(1), take));
                (len, done)
            }
            UnitBytes::Failed(_) => match std::mem::replace(self, UnitBytes::EMPTY) {
                UnitBytes::Failed(error) => return Err(error),
                _ => (0, None),
            },
        };
        done.unwrap_or(Err(Error::Zarr(zarrdt_core::Error::ChunkLength {
            len,
            element_size,
        })))
    }
}

impl<'a, S: ?Sized + ReadableStorageTraits + 'static> Reader<'a, S> {
    /// The native bytes of the overlap of every unit of `slabs`, fetched and decoded in
    /// parallel, in order (a unit that fails is [`UnitBytes::Failed`]), with `beside` (the
    /// handing over of the window before) run meanwhile: the units first where their fetch
    /// decompresses them, `beside` first otherwise ([`each_beside`]).
    fn fetch_beside(
        &self,
        slabs: &[Slab],
        beside: &mut (dyn FnMut() + Send),
    ) -> Vec<UnitBytes<'a>> {
        let units: Vec<&Unit> = slabs.iter().flat_map(|slab| &slab.units).collect();
        fetch_each(
            &units,
            &|unit| self.fetch_unit(unit).unwrap_or_else(UnitBytes::Failed),
            beside,
            self.first,
        )
    }

    /// The native bytes of the overlap of `unit`, fetched and decoded.
    fn fetch_unit(&self, unit: &Unit) -> Result<UnitBytes<'a>, Error> {
        // A whole chunk (shard) in one read of its object, so that a writer replacing
        // it in the meantime is never seen half; part of one through zarrs' partial
        // decoders (a shard's index and its inner chunks are read apart). A shard read whole
        // has its index checked in the bytes read; one not stored is the fill value (not asked
        // for again through zarrs, which would trust the index of one stored meanwhile).
        if let Some(shards) = self.whole_shards.filter(|_| unit.whole) {
            return Ok(
                match shards.read(self.array, &unit.indices, &self.options)? {
                    Some(shard) => UnitBytes::Shard(shard),
                    None => self.fill(unit),
                },
            );
        }
        // Any other shard is read by zarrs, which trusts its index: checked first, in the
        // unit's turn (its fault is the read's if no unit before it fails). Part of a chunk
        // is read by zarrs as byte ranges where its size is fixed: its stored size checked
        // first.
        if let Some(sharding) = &self.sharding {
            sharding.read_index(self.array, &unit.indices)?;
        } else if !unit.whole {
            crate::stored_size::check(self.array, &unit.indices)?;
        }
        if unit.whole
            && let Some((codecs, order)) = &self.stored_order
        {
            return Ok(match self.whole_in_stored_order(codecs, order, unit)? {
                Some(bytes) => UnitBytes::Whole(bytes, order.endian()),
                None => self.fill(unit),
            });
        }
        let read: Result<Option<ArrayBytes<'static>>, ArrayError> = if unit.whole {
            self.array
                .retrieve_chunk_if_exists_opt(&unit.indices, &self.options)
        } else {
            self.array
                .retrieve_array_subset_sharded_opt(&self.cache, &unit.overlap, &self.options)
                .map(Some)
        };
        let Some(bytes) = read.map_err(|error| {
            crate::culprit::in_chunk(
                self.array,
                &unit.indices,
                &unit.overlap,
                &self.options,
                error,
            )
        })?
        else {
            return Ok(self.fill(unit));
        };
        Ok(UnitBytes::Whole(
            bytes.into_fixed().map_err(ArrayError::from)?,
            Endian::NATIVE,
        ))
    }

    /// The fill value of the whole chunk of `unit`, which is not stored.
    fn fill(&self, unit: &Unit) -> UnitBytes<'a> {
        let elements = usize::try_from(unit.region.num_elements()).unwrap_or(usize::MAX);
        let fill = self.fill.get_or_init(|| {
            Arc::new(FillPiece::new(
                self.array.fill_value().as_ne_bytes(),
                elements,
            ))
        });
        UnitBytes::Fill {
            fill: Arc::clone(fill),
            elements,
        }
    }

    /// The chunk of `unit`, read in one read and decoded to its records in the stored order;
    /// `None` if it is not stored (zarrs then gives the fill value).
    fn whole_in_stored_order(
        &self,
        codecs: &CodecChain,
        order: &StoredOrder,
        unit: &Unit,
    ) -> Result<Option<Cow<'static, [u8]>>, Error> {
        let in_chunk = |error| Error::in_chunk(self.array, &unit.indices, error);
        let Some(encoded) = self
            .array
            .retrieve_encoded_chunk(&unit.indices)
            .map_err(|error| in_chunk(ArrayError::StorageError(error)))?
        else {
            return Ok(None);
        };
        let shape = self.array.chunk_shape(&unit.indices)?;
        order
            .decode(
                codecs,
                Cow::Owned(encoded),
                &shape,
                &self.options,
                &self.spare,
            )
            .map(Some)
            .map_err(in_chunk)
    }
}

/// [`each_beside`] for the units of a read, the closures behind references: one instance,
/// compiled in this crate, whatever the storage and the sink. (Generic over them, it had every
/// program that reads records instantiate rayon's machinery anew for each storage and record
/// type it reads.)
fn fetch_each<'a>(
    units: &[&Unit],
    fetch: &(dyn Fn(&Unit) -> UnitBytes<'a> + Sync),
    beside: &mut (dyn FnMut() + Send),
    first: First,
) -> Vec<UnitBytes<'a>> {
    each_beside(units, |unit: &&Unit| fetch(unit), beside, first)
}

/// Hands `sink` the runs of `slabs` in C order, from their units' `bytes` (in the order
/// [`Reader::fetch_beside`] gives them), giving `spare` each unit's buffer once it is handed
/// over.
fn decode(
    plan: &Plan,
    slabs: &[Slab],
    bytes: &mut [UnitBytes<'_>],
    element_size: usize,
    sink: &mut dyn Sink,
    spare: &SpareBuffers,
) -> Result<(), Error> {
    let mut first_unit = 0;
    for slab in slabs {
        let units = &mut bytes[first_unit..first_unit + slab.units.len()];
        hand_over_slab(&plan.runs(slab), units, element_size, sink)?;
        for unit in units {
            if let UnitBytes::Whole(Cow::Owned(buffer), _) =
                std::mem::replace(unit, UnitBytes::EMPTY)
            {
                spare.give(buffer);
            }
        }
        first_unit += slab.units.len();
    }
    Ok(())
}

/// Runs of a slab whose shards' inner chunks are decoded together: the runs, and the rows of
/// inner chunks they come to in every shard read whole (see [`SplitShard::to_decode`]).
struct Band {
    runs: Vec<Run>,
    rows: Range<usize>,
}

/// The runs of a slab in bands, each of enough rows of inner chunks (in all its shards read
/// whole together) for one inner chunk a thread; a run through several bands (along the first
/// dimension, the only one in a one-dimensional array) is cut where they meet.
fn bands(runs: &[Run], units: &[UnitBytes<'_>]) -> Vec<Band> {
    let per_row: usize = units
        .iter()
        .filter_map(UnitBytes::shard)
        .map(SplitShard::chunks_per_row)
        .sum();
    let rows_per_band = rayon::current_num_threads().max(1).div_ceil(per_row.max(1));
    let mut bands = Vec::new();
    let mut band = Band {
        runs: Vec::new(),
        rows: 0..0,
    };
    for run in runs {
        // Runs in units that are not shards read whole belong to the band they come in.
        let Some(row_len) = units[run.unit].shard().map(SplitShard::row_len) else {
            band.runs.push(run.clone());
            continue;
        };
        // The shards read whole in a slab all start at its first row: a run's row of inner
        // chunks is the same in all of them.
        let mut at = run.elements.start;
        while at < run.elements.end {
            let row = at / row_len;
            if !band.rows.contains(&row) {
                let rows = row..row.saturating_add(rows_per_band);
                let done = std::mem::replace(
                    &mut band,
                    Band {
                        runs: Vec::new(),
                        rows,
                    },
                );
                if !done.runs.is_empty() {
                    bands.push(done);
                }
            }
            let end = run.elements.end.min(band.rows.end.saturating_mul(row_len));
            band.runs.push(Run {
                unit: run.unit,
                elements: at..end,
            });
            at = end;
        }
    }
    if !band.runs.is_empty() {
        bands.push(band);
    }
    bands
}

/// Hands `sink` the runs of one slab in order, from its units' bytes: a band at a time, its
/// inner chunks decoded before it is handed over (on all threads; beside the handing over of
/// the band before, where that is one thread's work) and let go after.
fn hand_over_slab(
    runs: &[Run],
    units: &mut [UnitBytes<'_>],
    element_size: usize,
    sink: &mut dyn Sink,
) -> Result<(), Error> {
    let bands = bands(runs, units);
    let mut decoded = bands
        .first()
        .map(|band| decode_chunks(to_decode(units, band)))
        .unwrap_or_default();
    for (number, band) in bands.iter().enumerate() {
        for (unit, chunk, piece) in decoded.drain(..) {
            if let UnitBytes::Shard(shard) = &mut units[unit] {
                shard.settle(chunk, piece);
            }
        }
        let band_runs = &band.runs;
        let next = bands.get(number + 1);
        // Runs shorter than `PARALLEL_BYTES` are handed over by one thread: the other threads
        // decode the next band meanwhile.
        let one_thread = band_runs
            .iter()
            .all(|run| run.elements.len().saturating_mul(element_size) < PARALLEL_BYTES);
        if let Some(next) = next.filter(|_| one_thread) {
            let next = to_decode(units, next);
            let (ahead, handed) = rayon::join(
                || decode_chunks(next),
                || hand_over(band_runs, units, element_size, sink),
            );
            handed?;
            let_go(units, band);
            decoded = ahead;
        } else {
            hand_over(band_runs, units, element_size, sink)?;
            // This band let go before the next one is decoded: one band in memory.
            let_go(units, band);
            if let Some(next) = next {
                decoded = decode_chunks(to_decode(units, next));
            }
        }
    }
    Ok(())
}

/// Lets the inner chunks of `band` go in every shard of `units`: they are handed over.
fn let_go(units: &mut [UnitBytes<'_>], band: &Band) {
    for unit in units {
        if let UnitBytes::Shard(shard) = unit {
            shard.let_go(band.rows.clone());
        }
    }
}

/// The inner chunks of `band` still to be decoded in every shard of `units`, with their unit's
/// number.
fn to_decode<'a>(units: &[UnitBytes<'a>], band: &Band) -> Vec<(usize, ToDecode<'a>)> {
    units
        .iter()
        .enumerate()
        .filter_map(|(unit, bytes)| Some((unit, bytes.shard()?)))
        .flat_map(|(unit, shard)| {
            shard
                .to_decode(band.rows.clone())
                .into_iter()
                .map(move |chunk| (unit, chunk))
        })
        .collect()
}

/// `chunks` decoded on all threads: (unit, inner chunk, piece).
fn decode_chunks(chunks: Vec<(usize, ToDecode<'_>)>) -> Vec<(usize, usize, Piece)> {
    chunks
        .into_par_iter()
        .map(|(unit, chunk)| {
            let (chunk, piece) = chunk.decode();
            (unit, chunk, piece)
        })
        .collect()
}

/// Hands `sink` the bytes of `runs`, from `units`.
fn hand_over(
    runs: &[Run],
    units: &mut [UnitBytes<'_>],
    element_size: usize,
    sink: &mut dyn Sink,
) -> Result<(), Error> {
    for run in runs {
        let range = run.elements.start * element_size..run.elements.end * element_size;
        let unit = &mut units[run.unit];
        let endian = unit.endian();
        unit.for_each(range, element_size, &mut |run_bytes| {
            Ok(match run_bytes {
                RunBytes::Elements(bytes) => sink.take(bytes, endian),
                RunBytes::Projected(bytes) => sink.take_projected(bytes, endian),
            }?)
        })?;
    }
    Ok(())
}

/// Records of a Rust type, appended to a vector.
pub(crate) struct Records<'a, T> {
    pub(crate) out: &'a mut Vec<T>,
    /// The length of `out` before the read, to give element indices in the output.
    pub(crate) start: usize,
}

impl<T: ZarrType + Send> Sink for Records<'_, T> {
    fn reserve(&mut self, elements: usize) -> Result<(), Error> {
        reserve(self.out, elements)
    }

    fn take(&mut self, bytes: &[u8], endian: Endian) -> Result<(), zarrdt_core::Error> {
        let before = self.out.len() - self.start;
        let decoded = if (T::NATIVE_LAYOUT && endian == Endian::NATIVE)
            || bytes.len() < PARALLEL_BYTES
            || rayon::current_num_threads() == 1
        {
            T::decode_slice_into(bytes, endian, self.out)
        } else {
            match endian {
                Endian::Little => decode_records::<T, LittleEndian>(bytes, self.out),
                Endian::Big => decode_records::<T, BigEndian>(bytes, self.out),
            }
        };
        decoded.map_err(|error| error.shifted(before, T::SIZE))
    }

    /// Records keep every byte: no shard projects them.
    fn take_projected(&mut self, bytes: &[u8], _: Endian) -> Result<(), zarrdt_core::Error> {
        Err(zarrdt_core::Error::ChunkLength {
            len: bytes.len(),
            element_size: T::SIZE,
        })
    }
}

/// The records of `bytes` (packed, in the order `E`) appended to `out` by all threads; `out`
/// unchanged on error.
fn decode_records<T: ZarrType + Send, E: StaticEndian>(
    bytes: &[u8],
    out: &mut Vec<T>,
) -> Result<(), zarrdt_core::Error> {
    if T::SIZE == 0 || !bytes.len().is_multiple_of(T::SIZE) {
        return Err(zarrdt_core::Error::ChunkLength {
            len: bytes.len(),
            element_size: T::SIZE,
        });
    }
    let start = out.len();
    let first_invalid = AtomicUsize::new(usize::MAX);
    out.par_extend(
        bytes
            .par_chunks_exact(T::SIZE)
            .enumerate()
            .map(|(index, record)| {
                if T::HAS_INVALID_BYTES && !T::packed_is_valid::<E>(record) {
                    first_invalid.fetch_min(index, Ordering::Relaxed);
                }
                T::read_packed::<E>(record)
            }),
    );
    let invalid = first_invalid.into_inner();
    if invalid != usize::MAX {
        out.truncate(start);
        let record = &bytes[invalid * T::SIZE..(invalid + 1) * T::SIZE];
        T::check_packed::<E>(record).map_err(|error| error.at(invalid, T::SIZE))?;
    }
    Ok(())
}

/// One field of every record, of a Rust type, appended to a vector.
pub(crate) struct Field<'a, F> {
    pub(crate) out: &'a mut Vec<F>,
    pub(crate) start: usize,
    /// The record's size and the field's offset in it.
    pub(crate) record: usize,
    pub(crate) offset: usize,
    /// The field's path, for errors.
    pub(crate) path: Vec<String>,
}

impl<F: ZarrType + Send> Field<'_, F> {
    /// The field at `path` of records of `layout` (native), read as `F`, appended to `out`;
    /// an error names the path if there is no such field or `F` is not its type.
    pub(crate) fn new<'a>(
        layout: &Layout,
        path: &[&str],
        out: &'a mut Vec<F>,
    ) -> Result<Field<'a, F>, zarrdt_core::Error> {
        let (offset, field) = layout.find_field(path)?;
        F::layout(Endian::NATIVE)
            .check_matches(field)
            .map_err(|error| {
                path.iter().rev().fold(error, |error, name| {
                    error.within(zarrdt_core::PathSegment::Field((*name).to_owned()))
                })
            })?;
        Ok(Field {
            start: out.len(),
            out,
            record: layout.size(),
            offset,
            path: path.iter().map(|&name| name.to_owned()).collect(),
        })
    }
}

impl<F: ZarrType + Send> Sink for Field<'_, F> {
    fn reserve(&mut self, elements: usize) -> Result<(), Error> {
        reserve(self.out, elements)
    }

    fn take(&mut self, bytes: &[u8], endian: Endian) -> Result<(), zarrdt_core::Error> {
        let (record, offset) = (self.record, self.offset);
        match endian {
            Endian::Little => self.take_in::<LittleEndian>(bytes, record, offset),
            Endian::Big => self.take_in::<BigEndian>(bytes, record, offset),
        }
    }

    fn projection(&self) -> Option<Projection> {
        Some(Projection {
            offset: self.offset,
            size: F::SIZE,
        })
    }

    fn take_projected(&mut self, bytes: &[u8], endian: Endian) -> Result<(), zarrdt_core::Error> {
        match endian {
            Endian::Little => self.take_in::<LittleEndian>(bytes, F::SIZE, 0),
            Endian::Big => self.take_in::<BigEndian>(bytes, F::SIZE, 0),
        }
    }
}

impl<F: ZarrType + Send> Field<'_, F> {
    /// The field of each element of `bytes` (`stride` bytes each, the field at `offset` in
    /// each: whole records, or the field alone) in the order `E`, appended; a fault is named
    /// in the record's terms either way.
    fn take_in<E: StaticEndian>(
        &mut self,
        bytes: &[u8],
        stride: usize,
        offset: usize,
    ) -> Result<(), zarrdt_core::Error> {
        if stride == 0 || offset + F::SIZE > stride || !bytes.len().is_multiple_of(stride) {
            return Err(zarrdt_core::Error::ChunkLength {
                len: bytes.len(),
                element_size: stride,
            });
        }
        let before = self.out.len() - self.start;
        let start = self.out.len();
        let first_invalid = AtomicUsize::new(usize::MAX);
        let field = |(index, element): (usize, &[u8])| {
            let bytes = &element[offset..offset + F::SIZE];
            if F::HAS_INVALID_BYTES && !F::packed_is_valid::<E>(bytes) {
                first_invalid.fetch_min(index, Ordering::Relaxed);
            }
            F::read_packed::<E>(bytes)
        };
        if bytes.len() < PARALLEL_BYTES || rayon::current_num_threads() == 1 {
            self.out
                .extend(bytes.chunks_exact(stride).enumerate().map(field));
        } else {
            self.out
                .par_extend(bytes.par_chunks_exact(stride).enumerate().map(field));
        }
        let invalid = first_invalid.into_inner();
        if invalid != usize::MAX {
            self.out.truncate(start);
            let element = &bytes[invalid * stride..(invalid + 1) * stride];
            if let Err(fault) = F::check_packed::<E>(&element[offset..offset + F::SIZE]) {
                // The fault inside the field, seen from the record: the path's names and
                // the field's offset.
                let names: Vec<&str> = self.path.iter().map(String::as_str).collect();
                let (outer, inner) = names.split_first().unwrap_or((&"", &[]));
                let fault = inner
                    .iter()
                    .rev()
                    .fold(fault, |fault, name| fault.in_field(name, 0))
                    .in_field(outer, self.offset);
                return Err(fault.at(before + invalid, self.record));
            }
        }
        Ok(())
    }
}

/// Records of a type known only at run time, as values.
pub(crate) struct Values<'a> {
    /// The records' layout in memory (native).
    pub(crate) layout: &'a Layout,
    pub(crate) out: &'a mut Vec<Value>,
    pub(crate) start: usize,
    /// The layout in the other byte order, made when records first come in it.
    pub(crate) swapped: Option<Layout>,
}

impl Sink for Values<'_> {
    fn reserve(&mut self, elements: usize) -> Result<(), Error> {
        reserve(self.out, elements)
    }

    fn take(&mut self, bytes: &[u8], endian: Endian) -> Result<(), zarrdt_core::Error> {
        let before = self.out.len() - self.start;
        let layout = if endian == Endian::NATIVE {
            self.layout
        } else {
            self.swapped
                .get_or_insert_with(|| self.layout.with_endian(endian))
        };
        let values = layout
            .decode_values(bytes)
            .map_err(|error| error.shifted(before, self.layout.size()))?;
        self.out.extend(values);
        Ok(())
    }

    /// Values keep every byte: no shard projects them.
    fn take_projected(&mut self, bytes: &[u8], _: Endian) -> Result<(), zarrdt_core::Error> {
        Err(zarrdt_core::Error::ChunkLength {
            len: bytes.len(),
            element_size: self.layout.size(),
        })
    }
}
