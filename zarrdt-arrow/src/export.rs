//! Records to columns: each column's buffer built straight from the record bytes by a strided
//! copy (a transpose), never through per-value trees.

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

use crate::Error;
use crate::native::{Native, gather};
use crate::plan::{Kind, Node};
use crate::positions::Positions;
use crate::time::{TimeMap, unit_name};

/// The Arrow array of `node` for the values at `positions` in `bytes`.
pub(crate) fn column(node: &Node, bytes: &[u8], positions: &Positions) -> Result<ArrayRef, Error> {
    match node {
        Node::Scalar {
            offset,
            kind,
            swap,
            path,
            ..
        } => scalar(kind, bytes, *offset, positions, *swap, path),
        Node::Struct {
            fields, children, ..
        } => {
            let arrays = children
                .iter()
                .map(|child| column(child, bytes, positions))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Arc::new(StructArray::try_new(
                fields.clone(),
                arrays,
                None,
            )?))
        }
        Node::List {
            shape,
            stride,
            items,
            element,
            ..
        } => {
            let count = shape.iter().product();
            let mut array = column(element, bytes, &positions.within(count, *stride))?;
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

fn primitive<T: ArrowPrimitiveType>(
    bytes: &[u8],
    offset: usize,
    positions: &Positions,
    swap: bool,
) -> ArrayRef
where
    T::Native: Native,
{
    let values: Vec<T::Native> = gather(bytes, offset, positions, swap);
    Arc::new(PrimitiveArray::<T>::new(ScalarBuffer::from(values), None))
}

fn scalar(
    kind: &Kind,
    bytes: &[u8],
    offset: usize,
    positions: &Positions,
    swap: bool,
    path: &str,
) -> Result<ArrayRef, Error> {
    let value_error = |index: usize, reason: String| Error::Value {
        path: path.to_owned(),
        record: positions.record_of(index),
        reason,
    };
    Ok(match kind {
        Kind::Bool => {
            let raw: Vec<u8> = gather(bytes, offset, positions, false);
            if let Some(index) = raw.iter().position(|&byte| byte > 1) {
                return Err(value_error(
                    index,
                    format!("bool byte {:#04x} is neither 0 nor 1", raw[index]),
                ));
            }
            let values = BooleanBuffer::collect_bool(raw.len(), |index| raw[index] != 0);
            Arc::new(BooleanArray::new(values, None))
        }
        Kind::Int8 => primitive::<Int8Type>(bytes, offset, positions, swap),
        Kind::Int16 => primitive::<Int16Type>(bytes, offset, positions, swap),
        Kind::Int32 => primitive::<Int32Type>(bytes, offset, positions, swap),
        Kind::Int64 => primitive::<Int64Type>(bytes, offset, positions, swap),
        Kind::UInt8 => primitive::<UInt8Type>(bytes, offset, positions, swap),
        Kind::UInt16 => primitive::<UInt16Type>(bytes, offset, positions, swap),
        Kind::UInt32 => primitive::<UInt32Type>(bytes, offset, positions, swap),
        Kind::UInt64 => primitive::<UInt64Type>(bytes, offset, positions, swap),
        Kind::Float16 => primitive::<Float16Type>(bytes, offset, positions, swap),
        Kind::Float32 => primitive::<Float32Type>(bytes, offset, positions, swap),
        Kind::Float64 => primitive::<Float64Type>(bytes, offset, positions, swap),
        Kind::Complex { half } => {
            let (re, im) = if *half == 4 {
                (
                    primitive::<Float32Type>(bytes, offset, positions, swap),
                    primitive::<Float32Type>(bytes, offset + 4, positions, swap),
                )
            } else {
                (
                    primitive::<Float64Type>(bytes, offset, positions, swap),
                    primitive::<Float64Type>(bytes, offset + 8, positions, swap),
                )
            };
            let fields = crate::plan::complex_fields(re.data_type().clone());
            Arc::new(StructArray::try_new(fields, vec![re, im], None)?)
        }
        Kind::FixedBinary(size) => {
            let mut values = Vec::with_capacity(positions.len() * size);
            positions.for_each(offset, &mut |at| {
                values.extend_from_slice(bytes.get(at..at + size).unwrap_or_default());
            });
            let width = i32::try_from(*size).unwrap_or(i32::MAX);
            Arc::new(FixedSizeBinaryArray::try_new(
                width,
                Buffer::from_vec(values),
                None,
            )?)
        }
        Kind::Bytes(size) => {
            let mut values = Vec::with_capacity(positions.len() * size);
            let mut offsets = Vec::with_capacity(positions.len() + 1);
            offsets.push(0i32);
            let mut overflow = None;
            positions.for_each(offset, &mut |at| {
                let value = bytes.get(at..at + size).unwrap_or_default();
                let end = value
                    .iter()
                    .rposition(|&byte| byte != 0)
                    .map_or(0, |i| i + 1);
                values.extend_from_slice(&value[..end]);
                match i32::try_from(values.len()) {
                    Ok(end) => offsets.push(end),
                    Err(_) => {
                        overflow.get_or_insert(offsets.len() - 1);
                        offsets.push(0);
                    }
                }
            });
            if let Some(index) = overflow {
                return Err(too_big(value_error, index));
            }
            Arc::new(BinaryArray::try_new(
                OffsetBuffer::new(ScalarBuffer::from(offsets)),
                Buffer::from_vec(values),
                None,
            )?)
        }
        Kind::Utf32(chars) => utf32(bytes, offset, *chars, positions, swap, &value_error)?,
        Kind::Time(map, is_datetime) => time(
            bytes,
            offset,
            positions,
            swap,
            map,
            *is_datetime,
            &value_error,
        )?,
    })
}

fn too_big(value_error: impl Fn(usize, String) -> Error, index: usize) -> Error {
    value_error(
        index,
        "the batch holds more than 2 GiB of text or bytes in this column; read fewer rows per batch"
            .into(),
    )
}

/// `fixed_length_utf32` values as UTF-8 strings, trailing NULs removed (as NumPy reads them).
fn utf32(
    bytes: &[u8],
    offset: usize,
    chars: usize,
    positions: &Positions,
    swap: bool,
    value_error: &impl Fn(usize, String) -> Error,
) -> Result<ArrayRef, Error> {
    let mut text = String::with_capacity(positions.len() * chars);
    let mut offsets = Vec::with_capacity(positions.len() + 1);
    offsets.push(0i32);
    let mut failure = None;
    let mut index = 0;
    positions.for_each(offset, &mut |at| {
        if failure.is_some() {
            return;
        }
        let value = bytes.get(at..at + 4 * chars).unwrap_or_default();
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
                Some(c) => text.push(c),
                None => {
                    failure = Some(value_error(
                        index,
                        format!(
                            "UTF-32 code unit {unit:#x} (character {position}) is not a character"
                        ),
                    ));
                    return;
                }
            }
        }
        match i32::try_from(text.len()) {
            Ok(end) => offsets.push(end),
            Err(_) => failure = Some(too_big(value_error, index)),
        }
        index += 1;
    });
    if let Some(error) = failure {
        return Err(error);
    }
    Ok(Arc::new(StringArray::try_new(
        OffsetBuffer::new(ScalarBuffer::from(offsets)),
        Buffer::from_vec(text.into_bytes()),
        None,
    )?))
}

/// `datetime64` / `timedelta64` counts as Arrow values of the map's unit; NaT as null.
fn time(
    bytes: &[u8],
    offset: usize,
    positions: &Positions,
    swap: bool,
    map: &TimeMap,
    is_datetime: bool,
    value_error: &impl Fn(usize, String) -> Error,
) -> Result<ArrayRef, Error> {
    let mut values: Vec<i64> = gather(bytes, offset, positions, swap);
    let valid = BooleanBuffer::collect_bool(values.len(), |index| values[index] != i64::MIN);
    let nulls = (valid.count_set_bits() != values.len()).then(|| NullBuffer::new(valid));
    if map.scale != crate::time::Scale::Factor(1) {
        for (index, value) in values.iter_mut().enumerate() {
            if *value == i64::MIN {
                *value = 0;
                continue;
            }
            *value = map.arrow_value(*value).ok_or_else(|| {
                value_error(
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
        (true, ArrowUnit::Nanosecond) => Arc::new(PrimitiveArray::<TimestampNanosecondType>::new(
            values, nulls,
        )),
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
