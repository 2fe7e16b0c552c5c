//! Records to columns, never through per-value trees: every leaf column of a batch takes its
//! values from the record bytes by a strided copy (a transpose), a tile of records at a time,
//! and the leaves are then assembled into the Arrow arrays of the columns.
//!
//! A tile is a few kilobytes of records: it stays in the core's cache while each leaf takes its
//! values from it, so the batch is read from memory once, however many leaves its records have
//! (a column after another read it once per leaf).

use std::sync::Arc;

use arrow_array::types::{
    DurationMicrosecondType, DurationMillisecondType, DurationNanosecondType, DurationSecondType,
    Float16Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type,
    TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
    TimestampSecondType, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{
    ArrayRef, ArrowPrimitiveType, BinaryArray, BooleanArray, FixedSizeBinaryArray,
    FixedSizeListArray, PrimitiveArray, StringArray, StructArray,
};
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::TimeUnit as ArrowUnit;
use rayon::prelude::*;

use crate::Error;
use crate::native::{Native, gather_into};
use crate::plan::{Kind, Node};
use crate::positions::Positions;
use crate::time::{TimeMap, unit_name};

/// Bytes of records in one tile: well within a core's L1 data cache.
const TILE_BYTES: usize = 16 << 10;

/// Rows below which the leaves of a batch are filled on one thread.
const PARALLEL_ROWS: usize = 1 << 14;

/// The Arrow arrays of the columns `nodes` for the `rows` records of `size` bytes in `bytes`.
///
/// The leaves are filled tile by tile; with enough rows, the leaves are shared out among
/// rayon's threads, each reading the tiles for its own leaves.
pub(crate) fn columns(
    nodes: &[Node],
    bytes: &[u8],
    size: usize,
    rows: usize,
) -> Result<Vec<ArrayRef>, Error> {
    let mut leaves = Vec::new();
    for node in nodes {
        collect_leaves(node, &mut Vec::new(), &mut leaves);
    }
    let threads = rayon::current_num_threads().max(1);
    let filled: Vec<ArrayRef> = if rows >= PARALLEL_ROWS && leaves.len() > 1 && threads > 1 {
        let per_group = leaves.len().div_ceil(threads);
        let groups: Vec<Vec<ArrayRef>> = leaves
            .par_chunks(per_group)
            .map(|group| fill(group, bytes, size, rows))
            .collect::<Result<_, _>>()?;
        groups.into_iter().flatten().collect()
    } else {
        fill(&leaves, bytes, size, rows)?
    };
    let mut filled = filled.into_iter();
    nodes
        .iter()
        .map(|node| assemble(node, &mut filled))
        .collect()
}

/// A scalar leaf of a column: the node, and the (count, stride) loops of the subarrays it sits
/// in, outermost first.
struct Leaf<'n> {
    offset: usize,
    kind: &'n Kind,
    swap: bool,
    path: &'n str,
    inner: Vec<(usize, usize)>,
}

impl Leaf<'_> {
    /// Values per record.
    fn per_record(&self) -> usize {
        self.inner.iter().map(|&(count, _)| count).product()
    }

    /// Where its values lie in `rows` records of `size` bytes.
    fn positions(&self, rows: usize, size: usize) -> Positions {
        self.inner.iter().fold(
            Positions::records(rows, size),
            |positions, &(count, stride)| positions.within(count, stride),
        )
    }
}

/// The leaves of `node`, in the order [`assemble`] takes them.
fn collect_leaves<'n>(node: &'n Node, inner: &mut Vec<(usize, usize)>, out: &mut Vec<Leaf<'n>>) {
    match node {
        Node::Scalar {
            offset,
            kind,
            swap,
            path,
            ..
        } => out.push(Leaf {
            offset: *offset,
            kind,
            swap: *swap,
            path,
            inner: inner.clone(),
        }),
        Node::Struct { children, .. } => {
            for child in children {
                collect_leaves(child, inner, out);
            }
        }
        Node::List {
            shape,
            stride,
            element,
            ..
        } => {
            inner.push((shape.iter().product(), *stride));
            collect_leaves(element, inner, out);
            inner.pop();
        }
    }
}

/// The array of `node` from the filled leaves, taken in order.
fn assemble(node: &Node, filled: &mut impl Iterator<Item = ArrayRef>) -> Result<ArrayRef, Error> {
    match node {
        Node::Scalar { path, .. } => filled.next().ok_or_else(|| missing_leaf(path)),
        Node::Struct {
            fields, children, ..
        } => {
            let arrays = children
                .iter()
                .map(|child| assemble(child, filled))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Arc::new(StructArray::try_new(
                fields.clone(),
                arrays,
                None,
            )?))
        }
        Node::List {
            shape,
            items,
            element,
            ..
        } => {
            let mut array = assemble(element, filled)?;
            for (extent, item) in shape.iter().zip(items).rev() {
                let size = i32::try_from(*extent).unwrap_or(i32::MAX);
                array = Arc::new(FixedSizeListArray::try_new(
                    item.clone(),
                    size,
                    array,
                    None,
                )?);
            }
            Ok(array)
        }
    }
}

fn missing_leaf(path: &str) -> Error {
    Error::Value {
        path: path.to_owned(),
        record: 0,
        reason: "no values were gathered for this field".into(),
    }
}

/// The arrays of `leaves`, each filled from the records in `bytes` one tile after another.
fn fill(
    leaves: &[Leaf<'_>],
    bytes: &[u8],
    size: usize,
    rows: usize,
) -> Result<Vec<ArrayRef>, Error> {
    let size = size.max(1);
    let tile_rows = (TILE_BYTES / size).max(1);
    let mut sinks: Vec<Box<dyn Sink + '_>> = leaves
        .iter()
        .map(|leaf| sink(leaf, rows * leaf.per_record()))
        .collect();
    let whole_tile: Vec<Positions> = leaves
        .iter()
        .map(|leaf| leaf.positions(tile_rows, size))
        .collect();
    for tile in bytes[..rows * size].chunks(tile_rows * size) {
        let tile_rows_here = tile.len() / size;
        // The last tile may hold fewer records.
        let partial: Vec<Positions> = if tile_rows_here == tile_rows {
            Vec::new()
        } else {
            leaves
                .iter()
                .map(|leaf| leaf.positions(tile_rows_here, size))
                .collect()
        };
        let positions = if partial.is_empty() {
            &whole_tile
        } else {
            &partial
        };
        for (sink, positions) in sinks.iter_mut().zip(positions) {
            sink.append(tile, positions)?;
        }
    }
    sinks.into_iter().map(|sink| sink.finish()).collect()
}

/// Where one leaf's values go, tile by tile, and the array they make. Errors name the record
/// of the value they are about, counted over all the tiles.
trait Sink {
    /// Appends the values at `positions` in `tile`.
    fn append(&mut self, tile: &[u8], positions: &Positions) -> Result<(), Error>;

    /// The array of the values appended.
    fn finish(self: Box<Self>) -> Result<ArrayRef, Error>;
}

/// What a leaf's errors need: its path and how many values each record holds.
#[derive(Clone, Copy)]
struct Context<'n> {
    path: &'n str,
    per_record: usize,
}

impl Context<'_> {
    /// The error about the `index`-th value of the leaf.
    fn error(self, index: usize, reason: String) -> Error {
        Error::Value {
            path: self.path.to_owned(),
            record: (index / self.per_record.max(1)) as u64,
            reason,
        }
    }

    fn too_big(self, index: usize) -> Error {
        self.error(
            index,
            "the batch holds more than 2 GiB of text or bytes in this column; read fewer rows \
             per batch"
                .into(),
        )
    }
}

/// The sink of `leaf`, room made for `capacity` values.
fn sink<'n>(leaf: &Leaf<'n>, capacity: usize) -> Box<dyn Sink + 'n> {
    let context = Context {
        path: leaf.path,
        per_record: leaf.per_record(),
    };
    let (offset, swap) = (leaf.offset, leaf.swap);
    match leaf.kind {
        Kind::Bool => Box::new(BoolSink {
            raw: Vec::with_capacity(capacity),
            offset,
            context,
        }),
        Kind::Int8 => primitive::<Int8Type>(offset, swap, capacity),
        Kind::Int16 => primitive::<Int16Type>(offset, swap, capacity),
        Kind::Int32 => primitive::<Int32Type>(offset, swap, capacity),
        Kind::Int64 => primitive::<Int64Type>(offset, swap, capacity),
        Kind::UInt8 => primitive::<UInt8Type>(offset, swap, capacity),
        Kind::UInt16 => primitive::<UInt16Type>(offset, swap, capacity),
        Kind::UInt32 => primitive::<UInt32Type>(offset, swap, capacity),
        Kind::UInt64 => primitive::<UInt64Type>(offset, swap, capacity),
        Kind::Float16 => primitive::<Float16Type>(offset, swap, capacity),
        Kind::Float32 => primitive::<Float32Type>(offset, swap, capacity),
        Kind::Float64 => primitive::<Float64Type>(offset, swap, capacity),
        Kind::Complex { half } => {
            if *half == 4 {
                complex::<Float32Type>(offset, 4, swap, capacity)
            } else {
                complex::<Float64Type>(offset, 8, swap, capacity)
            }
        }
        Kind::FixedBinary(size) => Box::new(FixedBinarySink {
            values: Vec::with_capacity(capacity * size),
            offset,
            size: *size,
        }),
        Kind::Bytes(size) => Box::new(BytesSink {
            values: Vec::with_capacity(capacity * size),
            offsets: offsets_with_capacity(capacity),
            offset,
            size: *size,
            context,
        }),
        Kind::Utf32(chars) => Box::new(Utf32Sink {
            text: String::with_capacity(capacity * chars),
            offsets: offsets_with_capacity(capacity),
            offset,
            chars: *chars,
            swap,
            context,
        }),
        Kind::Time(map, is_datetime) => Box::new(TimeSink {
            values: Vec::with_capacity(capacity),
            offset,
            swap,
            map,
            is_datetime: *is_datetime,
            context,
        }),
    }
}

fn offsets_with_capacity(capacity: usize) -> Vec<i32> {
    let mut offsets = Vec::with_capacity(capacity + 1);
    offsets.push(0);
    offsets
}

/// Numbers Arrow keeps as they are.
struct PrimitiveSink<T: ArrowPrimitiveType> {
    values: Vec<T::Native>,
    offset: usize,
    swap: bool,
}

fn primitive<'n, T: ArrowPrimitiveType>(
    offset: usize,
    swap: bool,
    capacity: usize,
) -> Box<dyn Sink + 'n>
where
    T::Native: Native,
{
    Box::new(PrimitiveSink::<T> {
        values: Vec::with_capacity(capacity),
        offset,
        swap,
    })
}

impl<T: ArrowPrimitiveType> Sink for PrimitiveSink<T>
where
    T::Native: Native,
{
    fn append(&mut self, tile: &[u8], positions: &Positions) -> Result<(), Error> {
        gather_into(&mut self.values, tile, self.offset, positions, self.swap);
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<ArrayRef, Error> {
        Ok(Arc::new(PrimitiveArray::<T>::new(
            ScalarBuffer::from(self.values),
            None,
        )))
    }
}

/// Complex numbers: a struct of their real and imaginary parts, `half` bytes each.
struct ComplexSink<T: ArrowPrimitiveType> {
    re: PrimitiveSink<T>,
    im: PrimitiveSink<T>,
}

fn complex<'n, T: ArrowPrimitiveType>(
    offset: usize,
    half: usize,
    swap: bool,
    capacity: usize,
) -> Box<dyn Sink + 'n>
where
    T::Native: Native,
{
    let part = |offset| PrimitiveSink::<T> {
        values: Vec::with_capacity(capacity),
        offset,
        swap,
    };
    Box::new(ComplexSink {
        re: part(offset),
        im: part(offset + half),
    })
}

impl<T: ArrowPrimitiveType> Sink for ComplexSink<T>
where
    T::Native: Native,
{
    fn append(&mut self, tile: &[u8], positions: &Positions) -> Result<(), Error> {
        self.re.append(tile, positions)?;
        self.im.append(tile, positions)
    }

    fn finish(self: Box<Self>) -> Result<ArrayRef, Error> {
        let re = Box::new(self.re).finish()?;
        let im = Box::new(self.im).finish()?;
        let fields = crate::plan::complex_fields(re.data_type().clone());
        Ok(Arc::new(StructArray::try_new(fields, vec![re, im], None)?))
    }
}

/// `bool`s: bytes 0 or 1, checked when the array is made.
struct BoolSink<'n> {
    raw: Vec<u8>,
    offset: usize,
    context: Context<'n>,
}

impl Sink for BoolSink<'_> {
    fn append(&mut self, tile: &[u8], positions: &Positions) -> Result<(), Error> {
        gather_into(&mut self.raw, tile, self.offset, positions, false);
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<ArrayRef, Error> {
        let raw = self.raw;
        if let Some(index) = raw.iter().position(|&byte| byte > 1) {
            return Err(self.context.error(
                index,
                format!("bool byte {:#04x} is neither 0 nor 1", raw[index]),
            ));
        }
        let values = BooleanBuffer::collect_bool(raw.len(), |index| raw[index] != 0);
        Ok(Arc::new(BooleanArray::new(values, None)))
    }
}

/// `r<N>` and `raw_bytes`: `FixedSizeBinary`.
struct FixedBinarySink {
    values: Vec<u8>,
    offset: usize,
    size: usize,
}

impl Sink for FixedBinarySink {
    fn append(&mut self, tile: &[u8], positions: &Positions) -> Result<(), Error> {
        let size = self.size;
        positions.for_each(self.offset, &mut |at| {
            self.values
                .extend_from_slice(tile.get(at..at + size).unwrap_or_default());
        });
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<ArrayRef, Error> {
        let width = i32::try_from(self.size).unwrap_or(i32::MAX);
        Ok(Arc::new(FixedSizeBinaryArray::try_new(
            width,
            Buffer::from_vec(self.values),
            None,
        )?))
    }
}

/// `null_terminated_bytes`: `Binary`, trailing NULs removed.
struct BytesSink<'n> {
    values: Vec<u8>,
    offsets: Vec<i32>,
    offset: usize,
    size: usize,
    context: Context<'n>,
}

impl Sink for BytesSink<'_> {
    fn append(&mut self, tile: &[u8], positions: &Positions) -> Result<(), Error> {
        let size = self.size;
        let mut overflow = None;
        positions.for_each(self.offset, &mut |at| {
            let value = tile.get(at..at + size).unwrap_or_default();
            let end = value
                .iter()
                .rposition(|&byte| byte != 0)
                .map_or(0, |i| i + 1);
            self.values.extend_from_slice(&value[..end]);
            match i32::try_from(self.values.len()) {
                Ok(end) => self.offsets.push(end),
                Err(_) => {
                    overflow.get_or_insert(self.offsets.len() - 1);
                    self.offsets.push(0);
                }
            }
        });
        match overflow {
            Some(index) => Err(self.context.too_big(index)),
            None => Ok(()),
        }
    }

    fn finish(self: Box<Self>) -> Result<ArrayRef, Error> {
        Ok(Arc::new(BinaryArray::try_new(
            OffsetBuffer::new(ScalarBuffer::from(self.offsets)),
            Buffer::from_vec(self.values),
            None,
        )?))
    }
}

/// `fixed_length_utf32` values as UTF-8 strings, trailing NULs removed (as NumPy reads them).
struct Utf32Sink<'n> {
    text: String,
    offsets: Vec<i32>,
    offset: usize,
    chars: usize,
    swap: bool,
    context: Context<'n>,
}

impl Sink for Utf32Sink<'_> {
    fn append(&mut self, tile: &[u8], positions: &Positions) -> Result<(), Error> {
        let (chars, swap, context) = (self.chars, self.swap, self.context);
        let mut failure = None;
        positions.for_each(self.offset, &mut |at| {
            if failure.is_some() {
                return;
            }
            // The index of this value among all the leaf's values.
            let index = self.offsets.len() - 1;
            let value = tile.get(at..at + 4 * chars).unwrap_or_default();
            let units = value.chunks_exact(4).map(|unit| {
                if swap {
                    u32::read::<true>(unit)
                } else {
                    u32::read::<false>(unit)
                }
            });
            let length = units
                .clone()
                .rposition(|unit| unit != 0)
                .map_or(0, |i| i + 1);
            for (position, unit) in units.take(length).enumerate() {
                match char::from_u32(unit) {
                    Some(c) => self.text.push(c),
                    None => {
                        failure = Some(context.error(
                            index,
                            format!(
                                "UTF-32 code unit {unit:#x} (character {position}) is not a \
                                 character"
                            ),
                        ));
                        return;
                    }
                }
            }
            match i32::try_from(self.text.len()) {
                Ok(end) => self.offsets.push(end),
                Err(_) => failure = Some(context.too_big(index)),
            }
        });
        match failure {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    fn finish(self: Box<Self>) -> Result<ArrayRef, Error> {
        Ok(Arc::new(StringArray::try_new(
            OffsetBuffer::new(ScalarBuffer::from(self.offsets)),
            Buffer::from_vec(self.text.into_bytes()),
            None,
        )?))
    }
}

/// `datetime64` / `timedelta64` counts as Arrow values of the map's unit; NaT as null.
struct TimeSink<'n> {
    values: Vec<i64>,
    offset: usize,
    swap: bool,
    map: &'n TimeMap,
    is_datetime: bool,
    context: Context<'n>,
}

impl Sink for TimeSink<'_> {
    fn append(&mut self, tile: &[u8], positions: &Positions) -> Result<(), Error> {
        gather_into(&mut self.values, tile, self.offset, positions, self.swap);
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<ArrayRef, Error> {
        let TimeSink {
            mut values,
            map,
            is_datetime,
            context,
            ..
        } = *self;
        let valid = BooleanBuffer::collect_bool(values.len(), |index| values[index] != i64::MIN);
        let nulls = (valid.count_set_bits() != values.len()).then(|| NullBuffer::new(valid));
        if map.scale != crate::time::Scale::Factor(1) {
            for (index, value) in values.iter_mut().enumerate() {
                if *value == i64::MIN {
                    *value = 0;
                    continue;
                }
                *value = map.arrow_value(*value).ok_or_else(|| {
                    context.error(
                        index,
                        format!(
                            "{value} is beyond the range of Arrow's {} in {}",
                            if is_datetime {
                                "timestamps"
                            } else {
                                "durations"
                            },
                            unit_name(map.unit)
                        ),
                    )
                })?;
            }
        } else if nulls.is_some() {
            // NaT becomes null; its slot holds 0, as Arrow writers leave null slots.
            for value in &mut values {
                if *value == i64::MIN {
                    *value = 0;
                }
            }
        }
        let values = ScalarBuffer::from(values);
        Ok(match (is_datetime, map.unit) {
            (true, ArrowUnit::Second) => {
                Arc::new(PrimitiveArray::<TimestampSecondType>::new(values, nulls))
            }
            (true, ArrowUnit::Millisecond) => Arc::new(
                PrimitiveArray::<TimestampMillisecondType>::new(values, nulls),
            ),
            (true, ArrowUnit::Microsecond) => Arc::new(
                PrimitiveArray::<TimestampMicrosecondType>::new(values, nulls),
            ),
            (true, ArrowUnit::Nanosecond) => Arc::new(
                PrimitiveArray::<TimestampNanosecondType>::new(values, nulls),
            ),
            (false, ArrowUnit::Second) => {
                Arc::new(PrimitiveArray::<DurationSecondType>::new(values, nulls))
            }
            (false, ArrowUnit::Millisecond) => Arc::new(
                PrimitiveArray::<DurationMillisecondType>::new(values, nulls),
            ),
            (false, ArrowUnit::Microsecond) => Arc::new(
                PrimitiveArray::<DurationMicrosecondType>::new(values, nulls),
            ),
            (false, ArrowUnit::Nanosecond) => {
                Arc::new(PrimitiveArray::<DurationNanosecondType>::new(values, nulls))
            }
        })
    }
}
