//! Columns to records: each column's values written to their places in the record bytes,
//! checking that the column is of the field's type and that every value fits.

use arrow_array::cast::AsArray;
use arrow_array::types::{
    DurationMicrosecondType, DurationMillisecondType, DurationNanosecondType, DurationSecondType,
    Float16Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type,
    TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
    TimestampSecondType, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef, ArrowPrimitiveType, GenericListArray, OffsetSizeTrait};
use arrow_schema::{DataType as ArrowType, TimeUnit as ArrowUnit};
use zarrdt_core::ScalarType;

use crate::Error;
use crate::native::{Native, scatter};
use crate::plan::{Kind, Node};
use crate::positions::Positions;
use crate::time::TimeMap;

/// Writes the values of `column` for `node` at `positions` in `out`.
pub(crate) fn write(
    node: &Node,
    column: &dyn Array,
    out: &mut [u8],
    positions: &Positions,
) -> Result<(), Error> {
    match node {
        Node::Scalar {
            offset,
            kind,
            scalar,
            swap,
            path,
        } => write_scalar(kind, *scalar, column, out, *offset, positions, *swap, path),
        Node::Struct {
            fields,
            children,
            items,
            path,
        } => {
            if let Some(array) = column.as_struct_opt() {
                no_nulls(column, path, positions)?;
                for (field, child) in fields.iter().zip(children) {
                    let Some(values) = array.column_by_name(field.name()) else {
                        return Err(mismatch(child.path(), "the batch has no such column"));
                    };
                    write(child, values, out, positions)?;
                }
                if let Some(extra) = array
                    .fields()
                    .iter()
                    .find(|found| fields.find(found.name()).is_none())
                {
                    return Err(mismatch(
                        &format!("{path}.{}", extra.name()),
                        "the record has no such field",
                    ));
                }
                return Ok(());
            }
            if let (Some(size), Some(first)) = (items, children.first())
                && let Some(values) = list_values(column, children.len(), path, positions)?
            {
                return write(
                    first,
                    &values,
                    out,
                    &positions.within(children.len(), *size),
                );
            }
            Err(mismatch(
                path,
                &format!(
                    "a struct needs a Struct column, found {}",
                    column.data_type()
                ),
            ))
        }
        Node::List {
            shape,
            stride,
            element,
            path,
            ..
        } => write_list(shape, *stride, element, column, out, positions, path),
    }
}

/// Writes a subarray of `shape` from a fixed-size list column (or a list column whose lists
/// all have the outermost extent, or the struct form of fields `"0"`, `"1"`, …).
fn write_list(
    shape: &[usize],
    stride: usize,
    element: &Node,
    column: &dyn Array,
    out: &mut [u8],
    positions: &Positions,
    path: &str,
) -> Result<(), Error> {
    let [extent, inner @ ..] = shape else {
        return write(element, column, out, positions);
    };
    let item = stride * inner.iter().product::<usize>();
    if let Some(values) = list_values(column, *extent, path, positions)? {
        return write_list(
            inner,
            stride,
            element,
            &values,
            out,
            &positions.within(*extent, item),
            path,
        );
    }
    if let Some(array) = column.as_struct_opt() {
        let names = (0..*extent).map(|index| index.to_string());
        if array.num_columns() == *extent
            && array
                .fields()
                .iter()
                .zip(names)
                .all(|(f, n)| *f.name() == n)
        {
            no_nulls(column, path, positions)?;
            for (index, values) in array.columns().iter().enumerate() {
                write_list(
                    inner,
                    stride,
                    element,
                    values,
                    out,
                    &positions.shifted(index * item),
                    path,
                )?;
            }
            return Ok(());
        }
    }
    Err(mismatch(
        path,
        &format!(
            "a subarray of {extent} items needs a FixedSizeList({extent}) column, found {}",
            column.data_type()
        ),
    ))
}

/// The items of a list column whose lists all hold `extent` items, one list after another;
/// `None` if the column is not a list.
fn list_values(
    column: &dyn Array,
    extent: usize,
    path: &str,
    positions: &Positions,
) -> Result<Option<ArrayRef>, Error> {
    if let Some(list) = column.as_fixed_size_list_opt() {
        if list.value_length() as usize != extent {
            return Err(mismatch(
                path,
                &format!(
                    "a subarray of {extent} items needs a FixedSizeList({extent}) column, found {}",
                    column.data_type()
                ),
            ));
        }
        no_nulls(column, path, positions)?;
        return Ok(Some(list.values().clone()));
    }
    if let Some(list) = column.as_list_opt::<i32>() {
        no_nulls(column, path, positions)?;
        return equal_lists(list, extent, path, positions).map(Some);
    }
    if let Some(list) = column.as_list_opt::<i64>() {
        no_nulls(column, path, positions)?;
        return equal_lists(list, extent, path, positions).map(Some);
    }
    Ok(None)
}

/// The items of `list` (`List` or `LargeList`), each of whose lists must hold `extent` items,
/// one list after another.
fn equal_lists<O: OffsetSizeTrait>(
    list: &GenericListArray<O>,
    extent: usize,
    path: &str,
    positions: &Positions,
) -> Result<ArrayRef, Error> {
    let offsets = list.value_offsets();
    for (index, pair) in offsets.windows(2).enumerate() {
        let length = (pair[1] - pair[0]).as_usize();
        if length != extent {
            return Err(Error::Value {
                path: path.to_owned(),
                record: positions.record_of(index),
                reason: format!("a list of {length} items, where the subarray has {extent}"),
            });
        }
    }
    let start = offsets.first().map_or(0, |first| first.as_usize());
    Ok(list.values().slice(start, list.len() * extent))
}

/// A column that does not fit its field.
fn mismatch(column: &str, reason: &str) -> Error {
    Error::Column {
        column: column.to_owned(),
        reason: reason.to_owned(),
    }
}

/// An error unless `column` has no nulls.
fn no_nulls(column: &dyn Array, path: &str, positions: &Positions) -> Result<(), Error> {
    let Some(nulls) = column.logical_nulls() else {
        return Ok(());
    };
    match nulls.iter().position(|valid| !valid) {
        None => Ok(()),
        Some(index) => Err(Error::null_value(path, positions.record_of(index))),
    }
}

/// The Arrow types a scalar field takes, for messages.
fn expected(kind: &Kind) -> &'static str {
    match kind {
        Kind::Bool => "Boolean",
        Kind::Int8 => "Int8",
        Kind::Int16 => "Int16",
        Kind::Int32 => "Int32",
        Kind::Int64 => "Int64",
        Kind::UInt8 => "UInt8",
        Kind::UInt16 => "UInt16",
        Kind::UInt32 => "UInt32",
        Kind::UInt64 => "UInt64",
        Kind::Float16 => "Float16",
        Kind::Float32 => "Float32",
        Kind::Float64 => "Float64",
        Kind::Complex { half: 4 } => "Struct(re: Float32, im: Float32)",
        Kind::Complex { .. } => "Struct(re: Float64, im: Float64)",
        Kind::FixedBinary(_) => "FixedSizeBinary of its size",
        Kind::Bytes(_) => "Binary, LargeBinary or BinaryView",
        Kind::Utf32(_) => "Utf8, LargeUtf8 or Utf8View",
        Kind::Time(_, true) => "Timestamp, Date32 or Date64",
        Kind::Time(_, false) => "Duration",
    }
}

fn primitive<T: ArrowPrimitiveType>(
    column: &dyn Array,
    out: &mut [u8],
    offset: usize,
    positions: &Positions,
    swap: bool,
) -> bool
where
    T::Native: Native,
{
    match column.as_primitive_opt::<T>() {
        Some(array) => {
            scatter(array.values(), out, offset, positions, swap);
            true
        }
        None => false,
    }
}

#[allow(clippy::too_many_arguments)]
fn write_scalar(
    kind: &Kind,
    scalar: ScalarType,
    column: &dyn Array,
    out: &mut [u8],
    offset: usize,
    positions: &Positions,
    swap: bool,
    path: &str,
) -> Result<(), Error> {
    if !matches!(kind, Kind::Time(..)) {
        no_nulls(column, path, positions)?;
    }
    let value_error = |index: usize, reason: String| Error::Value {
        path: path.to_owned(),
        record: positions.record_of(index),
        reason,
    };
    let done = match kind {
        Kind::Bool => match column.as_boolean_opt() {
            Some(array) => {
                let bytes: Vec<u8> = array.values().iter().map(u8::from).collect();
                scatter(&bytes, out, offset, positions, false);
                true
            }
            None => false,
        },
        Kind::Int8 => primitive::<Int8Type>(column, out, offset, positions, swap),
        Kind::Int16 => primitive::<Int16Type>(column, out, offset, positions, swap),
        Kind::Int32 => primitive::<Int32Type>(column, out, offset, positions, swap),
        Kind::Int64 => primitive::<Int64Type>(column, out, offset, positions, swap),
        Kind::UInt8 => primitive::<UInt8Type>(column, out, offset, positions, swap),
        Kind::UInt16 => primitive::<UInt16Type>(column, out, offset, positions, swap),
        Kind::UInt32 => primitive::<UInt32Type>(column, out, offset, positions, swap),
        Kind::UInt64 => primitive::<UInt64Type>(column, out, offset, positions, swap),
        Kind::Float16 => primitive::<Float16Type>(column, out, offset, positions, swap),
        Kind::Float32 => primitive::<Float32Type>(column, out, offset, positions, swap),
        Kind::Float64 => primitive::<Float64Type>(column, out, offset, positions, swap),
        Kind::Complex { half } => match column.as_struct_opt() {
            Some(array) => match (array.column_by_name("re"), array.column_by_name("im")) {
                (Some(re), Some(im)) if array.num_columns() == 2 => {
                    no_nulls(re, path, positions)?;
                    no_nulls(im, path, positions)?;
                    if *half == 4 {
                        primitive::<Float32Type>(re, out, offset, positions, swap)
                            && primitive::<Float32Type>(im, out, offset + 4, positions, swap)
                    } else {
                        primitive::<Float64Type>(re, out, offset, positions, swap)
                            && primitive::<Float64Type>(im, out, offset + 8, positions, swap)
                    }
                }
                _ => false,
            },
            None => false,
        },
        Kind::FixedBinary(size) => match column.as_fixed_size_binary_opt() {
            Some(array) if array.value_length() as usize == *size => {
                let mut values = array.iter();
                positions.for_each(offset, &mut |at| {
                    if let (Some(Some(value)), Some(to)) =
                        (values.next(), out.get_mut(at..at + size))
                    {
                        to.copy_from_slice(value);
                    }
                });
                true
            }
            _ => false,
        },
        Kind::Bytes(size) => match byte_values(column) {
            Some(values) => {
                write_bytes(values, *size, out, offset, positions, &value_error)?;
                true
            }
            None => false,
        },
        Kind::Utf32(chars) => match text_values(column) {
            Some(values) => {
                write_utf32(values, *chars, out, offset, positions, swap, &value_error)?;
                true
            }
            None => false,
        },
        Kind::Time(map, is_datetime) => write_time(
            map,
            *is_datetime,
            column,
            out,
            offset,
            positions,
            swap,
            &value_error,
        )?,
    };
    if done {
        Ok(())
    } else {
        Err(mismatch(
            path,
            &format!(
                "{scalar} needs {}, found {}",
                expected(kind),
                column.data_type()
            ),
        ))
    }
}

type Values<'a, T> = Box<dyn Iterator<Item = Option<&'a T>> + 'a>;

/// The values of a binary column of any kind.
fn byte_values(column: &dyn Array) -> Option<Values<'_, [u8]>> {
    if let Some(array) = column.as_binary_opt::<i32>() {
        return Some(Box::new(array.iter()));
    }
    if let Some(array) = column.as_binary_opt::<i64>() {
        return Some(Box::new(array.iter()));
    }
    if let Some(array) = column.as_binary_view_opt() {
        return Some(Box::new(array.iter()));
    }
    None
}

/// The values of a string column of any kind.
fn text_values(column: &dyn Array) -> Option<Values<'_, str>> {
    if let Some(array) = column.as_string_opt::<i32>() {
        return Some(Box::new(array.iter()));
    }
    if let Some(array) = column.as_string_opt::<i64>() {
        return Some(Box::new(array.iter()));
    }
    if let Some(array) = column.as_string_view_opt() {
        return Some(Box::new(array.iter()));
    }
    None
}

fn write_bytes(
    mut values: Values<'_, [u8]>,
    size: usize,
    out: &mut [u8],
    offset: usize,
    positions: &Positions,
    value_error: &impl Fn(usize, String) -> Error,
) -> Result<(), Error> {
    let mut failure = None;
    let mut index = 0;
    positions.for_each(offset, &mut |at| {
        let value = values.next().flatten().unwrap_or_default();
        if value.len() > size {
            failure.get_or_insert_with(|| {
                value_error(
                    index,
                    format!(
                        "{} bytes do not fit null_terminated_bytes of {size}",
                        value.len()
                    ),
                )
            });
        } else if let Some(to) = out.get_mut(at..at + value.len()) {
            to.copy_from_slice(value);
        }
        index += 1;
    });
    failure.map_or(Ok(()), Err)
}

fn write_utf32(
    mut values: Values<'_, str>,
    chars: usize,
    out: &mut [u8],
    offset: usize,
    positions: &Positions,
    swap: bool,
    value_error: &impl Fn(usize, String) -> Error,
) -> Result<(), Error> {
    let mut failure = None;
    let mut index = 0;
    positions.for_each(offset, &mut |at| {
        let value = values.next().flatten().unwrap_or_default();
        for (written, c) in value.chars().enumerate() {
            if written == chars {
                failure.get_or_insert_with(|| {
                    value_error(
                        index,
                        format!(
                            "{} characters do not fit fixed_length_utf32 of {chars}",
                            value.chars().count()
                        ),
                    )
                });
                break;
            }
            if let Some(to) = out.get_mut(at + 4 * written..) {
                if swap {
                    u32::from(c).write::<true>(to);
                } else {
                    u32::from(c).write::<false>(to);
                }
            }
        }
        index += 1;
    });
    failure.map_or(Ok(()), Err)
}

/// The `i64` values of a time column, its unit, and its nulls; `None` if it is not of the
/// kind (`datetime64`: a timestamp or date; `timedelta64`: a duration).
fn time_values(column: &dyn Array, is_datetime: bool) -> Option<(Vec<i64>, ArrowUnit)> {
    fn values<T: ArrowPrimitiveType<Native = i64>>(column: &dyn Array) -> Option<Vec<i64>> {
        column.as_primitive_opt::<T>().map(|a| a.values().to_vec())
    }
    let unit = match (is_datetime, column.data_type()) {
        (true, ArrowType::Timestamp(unit, _)) | (false, ArrowType::Duration(unit)) => *unit,
        (true, ArrowType::Date32) => {
            let days = column.as_primitive_opt::<arrow_array::types::Date32Type>()?;
            let seconds = days.values().iter().map(|&d| i64::from(d) * 86_400);
            return Some((seconds.collect(), ArrowUnit::Second));
        }
        (true, ArrowType::Date64) => {
            return Some((
                values::<arrow_array::types::Date64Type>(column)?,
                ArrowUnit::Millisecond,
            ));
        }
        _ => return None,
    };
    let values = match (is_datetime, unit) {
        (true, ArrowUnit::Second) => values::<TimestampSecondType>(column),
        (true, ArrowUnit::Millisecond) => values::<TimestampMillisecondType>(column),
        (true, ArrowUnit::Microsecond) => values::<TimestampMicrosecondType>(column),
        (true, ArrowUnit::Nanosecond) => values::<TimestampNanosecondType>(column),
        (false, ArrowUnit::Second) => values::<DurationSecondType>(column),
        (false, ArrowUnit::Millisecond) => values::<DurationMillisecondType>(column),
        (false, ArrowUnit::Microsecond) => values::<DurationMicrosecondType>(column),
        (false, ArrowUnit::Nanosecond) => values::<DurationNanosecondType>(column),
    }?;
    Some((values, unit))
}

/// Writes a time column: nulls as NaT, other values converted exactly to the field's unit.
#[allow(clippy::too_many_arguments)]
fn write_time(
    map: &TimeMap,
    is_datetime: bool,
    column: &dyn Array,
    out: &mut [u8],
    offset: usize,
    positions: &Positions,
    swap: bool,
    value_error: &impl Fn(usize, String) -> Error,
) -> Result<bool, Error> {
    let Some((mut values, unit)) = time_values(column, is_datetime) else {
        return Ok(false);
    };
    let nulls = column.logical_nulls();
    let identity = unit == map.unit && map.scale == crate::time::Scale::Factor(1);
    for (index, value) in values.iter_mut().enumerate() {
        if nulls.as_ref().is_some_and(|nulls| nulls.is_null(index)) {
            *value = i64::MIN;
            continue;
        }
        if !identity {
            *value = map
                .count_of(unit, *value)
                .map_err(|reason| value_error(index, reason))?;
        }
        if *value == i64::MIN {
            return Err(value_error(
                index,
                "-9223372036854775808 is NumPy's NaT (write a null for NaT)".into(),
            ));
        }
    }
    scatter(&values, out, offset, positions, swap);
    Ok(true)
}
