//! Whole elements and chunks of any [`Layout`] between stored bytes and [`Value`]s: the runtime
//! struct codec.
//!
//! Every function here takes a `default` byte order for leaves whose order is left open (the
//! leaves of a v3 data type, whose order is the `bytes` codec's); the leaves of a [`Layout`]
//! have their own and ignore it.

use std::borrow::Cow;

use half::f16;
use num_complex::Complex;

use super::primitive::Primitive;
use super::scalar;
use crate::endian::{BigEndian, LittleEndian, StaticEndian};
use crate::layout::{StructLayout, SubarrayLayout, struct_form};
use crate::value::{FieldsMismatch, Items, StoredItems};
use crate::{
    DecodeError, Endian, Error, FieldPath, Layout, PathSegment, Record, ScalarType, SubarrayValue,
    Value,
};

impl Layout {
    /// Decodes one element from exactly [`Layout::size`] bytes.
    ///
    /// Padding bytes are ignored (zarr-python 2 leaves garbage there); bool bytes other than
    /// 0/1 and invalid UTF-32 are [`Error::InvalidElement`] naming the field and offset.
    pub fn decode_value(&self, bytes: &[u8]) -> Result<Value, Error> {
        check_length(bytes.len(), self.size())?;
        decode(self, bytes, Endian::Little).map_err(|error| error.at(0, self.size()))
    }

    /// Encodes one element; padding bytes are written as zeros.
    ///
    /// A subarray takes an [`SubarrayValue`] of its shape, or (as Zarr v3 writes it) a record of
    /// fields `"0"`, `"1"`, … holding its items.
    pub fn encode_value(&self, value: &Value) -> Result<Vec<u8>, Error> {
        let mut out = vec![0; self.size()];
        encode(self, value, &mut out, Endian::Little)?;
        Ok(out)
    }

    /// Decodes a chunk: as many elements as `bytes` holds, which must be a whole number.
    pub fn decode_values(&self, bytes: &[u8]) -> Result<Vec<Value>, Error> {
        decode_values(self, bytes, Endian::Little)
    }

    /// Encodes a chunk of elements, one after the other; padding bytes are zeros.
    pub fn encode_values(&self, values: &[Value]) -> Result<Vec<u8>, Error> {
        encode_values(self, values, Endian::Little)
    }

    /// The value of an element whose bytes are all zero: what NumPy's zero fill is. Subarrays
    /// hold their zero item once, so the value takes memory in proportion to the layout, not
    /// to its size in bytes.
    pub fn zero_value(&self) -> Value {
        match self {
            Layout::Scalar(leaf) => scalar::zero(leaf.scalar()),
            Layout::Struct(structure) => Value::Record(Record::from_fields(
                structure
                    .fields()
                    .iter()
                    .map(|field| (field.shared_name().clone(), field.layout().zero_value()))
                    .collect(),
            )),
            Layout::Subarray(array) => Value::Subarray(SubarrayValue::from_items(
                array.shape().to_vec(),
                Items::Repeated(Box::new(array.element().zero_value())),
            )),
        }
    }
}

fn check_length(found: usize, expected: usize) -> Result<(), Error> {
    if found == expected {
        Ok(())
    } else {
        Err(Error::BufferLength { expected, found })
    }
}

/// Decodes a chunk of elements of `layout`.
pub(crate) fn decode_values(
    layout: &Layout,
    bytes: &[u8],
    default: Endian,
) -> Result<Vec<Value>, Error> {
    let size = layout.size();
    if size == 0 || !bytes.len().is_multiple_of(size) {
        return Err(Error::ChunkLength {
            len: bytes.len(),
            element_size: size,
        });
    }
    bytes
        .chunks_exact(size)
        .enumerate()
        .map(|(index, element)| {
            decode(layout, element, default).map_err(|error| error.at(index, size))
        })
        .collect()
}

/// Encodes a chunk of elements of `layout`; an error names the element index.
pub(crate) fn encode_values(
    layout: &Layout,
    values: &[Value],
    default: Endian,
) -> Result<Vec<u8>, Error> {
    let size = layout.size();
    let total = size
        .checked_mul(values.len())
        .ok_or_else(|| Error::Unrepresentable {
            path: FieldPath::root(),
            format: "one buffer",
            reason: format!(
                "{} elements of {size} bytes exceed the address space",
                values.len()
            ),
        })?;
    let mut out = vec![0; total];
    for (value, element) in values.iter().zip(out.chunks_exact_mut(size)) {
        encode(layout, value, element, default)?;
    }
    Ok(out)
}

/// Decodes one element of `layout` from its bytes (exactly `layout.size()` of them).
pub(crate) fn decode(layout: &Layout, bytes: &[u8], default: Endian) -> Result<Value, DecodeError> {
    match layout {
        Layout::Scalar(leaf) => scalar::decode(leaf.scalar(), leaf.endian_or(default), bytes),
        Layout::Struct(structure) => decode_struct(structure, bytes, default),
        Layout::Subarray(array) => decode_array(array, bytes, default),
    }
}

fn decode_struct(
    structure: &StructLayout,
    bytes: &[u8],
    default: Endian,
) -> Result<Value, DecodeError> {
    let mut fields = Vec::with_capacity(structure.fields().len());
    for field in structure.fields() {
        let value = decode(field.layout(), &bytes[field.range()], default)
            .map_err(|error| error.in_field(field.name(), field.offset()))?;
        fields.push((field.shared_name().clone(), value));
    }
    Ok(Value::Record(Record::from_fields(fields)))
}

/// Decodes a subarray into an [`SubarrayValue`]: numbers in one typed vector, other items as
/// their bytes, each decoded once here to check it where some bytes would not decode (a
/// `bool` or text in it); errors carry the item's index along each dimension.
fn decode_array(
    array: &SubarrayLayout,
    bytes: &[u8],
    default: Endian,
) -> Result<Value, DecodeError> {
    let bytes = &bytes[..array.size()];
    let items = match array.element() {
        Layout::Scalar(leaf) => match leaf.endian_or(default) {
            Endian::Little => decode_scalars::<LittleEndian>(leaf.scalar(), bytes, array.shape()),
            Endian::Big => decode_scalars::<BigEndian>(leaf.scalar(), bytes, array.shape()),
        },
        _ => None,
    };
    let items = match items {
        Some(items) => items?,
        None => {
            let stride = array.element().size();
            if !decodes_any_bytes(array.element()) {
                for (index, item) in bytes.chunks_exact(stride.max(1)).enumerate() {
                    decode(array.element(), item, default)
                        .map_err(|error| error.in_item(index, array.shape(), stride))?;
                }
            }
            Items::Stored(Box::new(StoredItems {
                layout: array.clone(),
                default,
                bytes: bytes.to_vec(),
                decode,
            }))
        }
    };
    Ok(Value::Subarray(SubarrayValue::from_items(
        array.shape().to_vec(),
        items,
    )))
}

/// Whether every pattern of `layout.size()` bytes decodes as an element of `layout`.
fn decodes_any_bytes(layout: &Layout) -> bool {
    match layout {
        Layout::Scalar(leaf) => scalar::decodes_any_bytes(leaf.scalar()),
        Layout::Struct(structure) => structure
            .fields()
            .iter()
            .all(|field| decodes_any_bytes(field.layout())),
        Layout::Subarray(array) => decodes_any_bytes(array.element()),
    }
}

/// The items of a subarray of `shape` of numbers or bools, in one typed vector; `None` for
/// the types held as their stored bytes (raw bytes, text, null-terminated bytes, times).
fn decode_scalars<E: StaticEndian>(
    scalar: ScalarType,
    bytes: &[u8],
    shape: &[usize],
) -> Option<Result<Items, DecodeError>> {
    fn numbers<T: Primitive, E: StaticEndian>(bytes: &[u8]) -> Vec<T> {
        bytes.chunks_exact(T::SIZE).map(T::read::<E>).collect()
    }
    Some(Ok(match scalar {
        ScalarType::Bool => {
            if let Some(index) = bytes.iter().position(|&byte| byte > 1) {
                return Some(Err(DecodeError::new(crate::ElementFault::InvalidBool(
                    bytes[index],
                ))
                .in_item(index, shape, 1)));
            }
            Items::Bool(bytes.iter().map(|&byte| byte == 1).collect())
        }
        ScalarType::Int8 => Items::Int8(numbers::<i8, E>(bytes)),
        ScalarType::Int16 => Items::Int16(numbers::<i16, E>(bytes)),
        ScalarType::Int32 => Items::Int32(numbers::<i32, E>(bytes)),
        ScalarType::Int64 => Items::Int64(numbers::<i64, E>(bytes)),
        ScalarType::UInt8 => Items::UInt8(bytes.to_vec()),
        ScalarType::UInt16 => Items::UInt16(numbers::<u16, E>(bytes)),
        ScalarType::UInt32 => Items::UInt32(numbers::<u32, E>(bytes)),
        ScalarType::UInt64 => Items::UInt64(numbers::<u64, E>(bytes)),
        ScalarType::Float16 => Items::Float16(numbers::<f16, E>(bytes)),
        ScalarType::Float32 => Items::Float32(numbers::<f32, E>(bytes)),
        ScalarType::Float64 => Items::Float64(numbers::<f64, E>(bytes)),
        ScalarType::Complex64 => Items::Complex64(numbers::<Complex<f32>, E>(bytes)),
        ScalarType::Complex128 => Items::Complex128(numbers::<Complex<f64>, E>(bytes)),
        _ => return None,
    }))
}

fn mismatch(expected: String, reason: String) -> Error {
    Error::ValueMismatch {
        path: FieldPath::root(),
        data_type: expected,
        reason,
    }
}

/// Encodes `value` as one element of `layout` into `out` (exactly `layout.size()` bytes).
pub(crate) fn encode(
    layout: &Layout,
    value: &Value,
    out: &mut [u8],
    default: Endian,
) -> Result<(), Error> {
    match layout {
        Layout::Scalar(leaf) => scalar::encode(leaf.scalar(), leaf.endian_or(default), value, out),
        Layout::Struct(structure) => encode_struct(structure, value, out, default),
        Layout::Subarray(array) => encode_array(array, value, out, default),
    }
}

fn encode_struct(
    structure: &StructLayout,
    value: &Value,
    out: &mut [u8],
    default: Endian,
) -> Result<(), Error> {
    let members = struct_members(structure, value)?;
    for (field, member) in structure.fields().iter().zip(members) {
        encode(field.layout(), &member, &mut out[field.range()], default)
            .map_err(|error| error.within(PathSegment::Field(field.name().to_owned())))?;
    }
    Ok(())
}

/// The value of each field of `structure` in `value`, in field order: from a record with
/// every field once and no others, or, for a struct of fields `"0"`, `"1"`, … (the v3 form
/// of an array), from an [`SubarrayValue`] of as many outermost items.
pub(crate) fn struct_members<'v>(
    structure: &StructLayout,
    value: &'v Value,
) -> Result<Vec<Cow<'v, Value>>, Error> {
    match value {
        Value::Record(record) => {
            let names = structure.fields().iter().map(|field| field.name());
            let members = record
                .values_for(names)
                .map_err(|problem| fields_mismatch(&problem))?;
            Ok(members.into_iter().map(Cow::Borrowed).collect())
        }
        Value::Subarray(array)
            if array.shape().first() == Some(&structure.fields().len())
                && structure
                    .fields()
                    .iter()
                    .enumerate()
                    .all(|(index, field)| struct_form::is_item_name(field.name(), index)) =>
        {
            Ok((0..structure.fields().len())
                .map_while(|index| array.outer_item(index))
                .collect())
        }
        other => Err(mismatch("a struct".into(), other.found())),
    }
}

/// The error for a record whose fields are not the struct's.
pub(crate) fn fields_mismatch(problem: &FieldsMismatch) -> Error {
    let (name, reason) = problem.describe();
    Error::ValueMismatch {
        path: FieldPath::root().field(name),
        data_type: "a struct".into(),
        reason: reason.into(),
    }
}

/// Encodes a subarray from an [`SubarrayValue`] of its shape, or from its outermost items
/// ([`outer_items`]).
fn encode_array(
    array: &SubarrayLayout,
    value: &Value,
    out: &mut [u8],
    default: Endian,
) -> Result<(), Error> {
    let out = &mut out[..array.size()];
    if let Value::Subarray(items) = value
        && items.shape() == array.shape()
    {
        return encode_items(array.element(), array.shape(), items.items(), out, default);
    }
    let item = array.item();
    let stride = item.size();
    for (index, (value, target)) in outer_items(array, value)?
        .iter()
        .zip(out.chunks_exact_mut(stride))
        .enumerate()
    {
        encode(&item, value, target, default)
            .map_err(|error| error.within(PathSegment::Index(index)))?;
    }
    Ok(())
}

/// The items of the outermost dimension of `value`, a value of the subarray `array`, each a
/// value of [`SubarrayLayout::item`]. `value` may be an [`SubarrayValue`] of the subarray's shape, an
/// [`SubarrayValue`] of its outermost items, or a record of fields `"0"`, `"1"`, … (the v3 struct
/// form).
pub(crate) fn outer_items<'v>(
    array: &SubarrayLayout,
    value: &'v Value,
) -> Result<Vec<Cow<'v, Value>>, Error> {
    let outer = array.shape()[0];
    let expected = || format!("a subarray of shape {:?}", array.shape());
    match value {
        Value::Subarray(items) if items.shape() == array.shape() && array.shape().len() > 1 => {
            let inner = &array.shape()[1..];
            let per_item: usize = inner.iter().product();
            let mut flat = items.iter();
            (0..outer)
                .map(|_| {
                    let group = flat.by_ref().take(per_item).map(Cow::into_owned).collect();
                    SubarrayValue::new(inner.to_vec(), group)
                        .map(|a| Cow::Owned(Value::Subarray(a)))
                })
                .collect()
        }
        Value::Subarray(items) if items.shape() == [outer] => Ok(items.iter().collect()),
        Value::Subarray(items) => Err(mismatch(
            expected(),
            format!("an array of shape {:?}", items.shape()),
        )),
        Value::Record(record) => {
            if record.len() != outer {
                return Err(mismatch(
                    expected(),
                    format!(
                        "a record of {} fields instead of {outer} items",
                        record.len()
                    ),
                ));
            }
            if let Some((index, (name, _))) = record
                .fields()
                .iter()
                .enumerate()
                .find(|(index, (name, _))| !struct_form::is_item_name(name, *index))
            {
                return Err(mismatch(
                    expected(),
                    format!(
                        "a record whose field {index} is named {name:?}, not \"{}\"",
                        struct_form::item_name(index)
                    ),
                ));
            }
            Ok(record
                .fields()
                .iter()
                .map(|(_, item)| Cow::Borrowed(item))
                .collect())
        }
        other => Err(mismatch(expected(), other.found())),
    }
}

/// Encodes every item of a subarray, row-major, from how an [`SubarrayValue`] holds them.
fn encode_items(
    element: &Layout,
    shape: &[usize],
    items: &Items,
    out: &mut [u8],
    default: Endian,
) -> Result<(), Error> {
    let stride = element.size();
    if let Layout::Scalar(leaf) = element {
        let written = match leaf.endian_or(default) {
            Endian::Little => encode_scalars::<LittleEndian>(leaf.scalar(), items, out),
            Endian::Big => encode_scalars::<BigEndian>(leaf.scalar(), items, out),
        };
        if written {
            return Ok(());
        }
    }
    match items {
        Items::Repeated(item) => {
            let (first, rest) = out.split_at_mut(stride);
            encode(element, item, first, default)?;
            for target in rest.chunks_exact_mut(stride) {
                target.copy_from_slice(first);
            }
            Ok(())
        }
        Items::Values(values) => {
            for (index, (value, target)) in
                values.iter().zip(out.chunks_exact_mut(stride)).enumerate()
            {
                encode(element, value, target, default)
                    .map_err(|error| error.within_item(index, shape))?;
            }
            Ok(())
        }
        Items::Stored(stored) => {
            if stored.layout.element() == element
                && stored.default == default
                && stored.bytes.len() == out.len()
            {
                out.copy_from_slice(&stored.bytes);
                return Ok(());
            }
            // Into another layout (raw items into text of the same size, records into a
            // layout of other offsets), item by item as the values they are.
            for (index, target) in out.chunks_exact_mut(stride.max(1)).enumerate() {
                let item = stored
                    .get(index)
                    .ok_or_else(|| mismatch(element.describe(), "too few items".into()))?;
                encode(element, &item, target, default)
                    .map_err(|error| error.within_item(index, shape))?;
            }
            Ok(())
        }
        typed => {
            // Numbers of another type than the element's: report the first.
            let found = SubarrayValue::from_items(vec![1], typed.clone())
                .get(0)
                .map_or_else(|| "an empty array".into(), |item| item.found());
            Err(mismatch(element.describe(), found).within_item(0, shape))
        }
    }
}

/// Writes typed items of the scalar type's own kind in one pass; `false` if the storage is not
/// of that kind.
fn encode_scalars<E: StaticEndian>(scalar: ScalarType, items: &Items, out: &mut [u8]) -> bool {
    fn numbers<T: Primitive, E: StaticEndian>(items: &[T], out: &mut [u8]) -> bool {
        for (item, target) in items.iter().zip(out.chunks_exact_mut(T::SIZE)) {
            item.write::<E>(target);
        }
        true
    }
    match (scalar, items) {
        (ScalarType::Bool, Items::Bool(items)) => {
            for (item, target) in items.iter().zip(out.iter_mut()) {
                *target = u8::from(*item);
            }
            true
        }
        (ScalarType::Int8, Items::Int8(items)) => numbers::<_, E>(items, out),
        (ScalarType::Int16, Items::Int16(items)) => numbers::<_, E>(items, out),
        (ScalarType::Int32, Items::Int32(items)) => numbers::<_, E>(items, out),
        (ScalarType::Int64, Items::Int64(items)) => numbers::<_, E>(items, out),
        (ScalarType::UInt8, Items::UInt8(items)) => {
            out.copy_from_slice(items);
            true
        }
        (ScalarType::UInt16, Items::UInt16(items)) => numbers::<_, E>(items, out),
        (ScalarType::UInt32, Items::UInt32(items)) => numbers::<_, E>(items, out),
        (ScalarType::UInt64, Items::UInt64(items)) => numbers::<_, E>(items, out),
        (ScalarType::Float16, Items::Float16(items)) => numbers::<_, E>(items, out),
        (ScalarType::Float32, Items::Float32(items)) => numbers::<_, E>(items, out),
        (ScalarType::Float64, Items::Float64(items)) => numbers::<_, E>(items, out),
        (ScalarType::Complex64, Items::Complex64(items)) => numbers::<_, E>(items, out),
        (ScalarType::Complex128, Items::Complex128(items)) => numbers::<_, E>(items, out),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::value::SubarrayValue;

    /// The subarray of field `a` of `value`, a record.
    fn items_of_a(value: &Value) -> &SubarrayValue {
        let a = value.as_record().and_then(|record| record.get("a"));
        a.and_then(Value::as_subarray)
            .expect("a record with a subarray `a`")
    }

    /// Whether any bytes decode, as the codec says: all-ones bytes (a `bool` of 0xff, a UTF-32
    /// unit above U+10FFFF) decode exactly where the predicate says they do, for every kind,
    /// alone and as a field.
    #[test]
    fn the_layouts_whose_every_byte_pattern_decodes() {
        for dtype in [
            "|b1", "|u1", "<i8", "<f2", "<c16", "|V3", "|S3", "<U2", "<M8[s]", "<m8[ns]",
        ] {
            for json in [json!(dtype), json!([["x", "<u2"], ["y", dtype]])] {
                let layout = Layout::from_v2_json(&json).unwrap();
                let ones = vec![0xff; layout.size()];
                let decodes = decode(&layout, &ones, Endian::Little).is_ok();
                assert_eq!(decodes_any_bytes(&layout), decodes, "{json}");
                assert_eq!(decodes, !matches!(dtype, "|b1" | "<U2"), "{json}");
            }
        }
    }

    /// Raw items of a subarray are held in one buffer: they read as the `Bytes` values they
    /// are, equal the same items held one by one, and encode back to the same bytes, into the
    /// raw type and, item by item, into text of the same size.
    #[test]
    fn raw_items_are_one_buffer_and_read_as_bytes_values() {
        let raw = Layout::from_v2_json(&json!([["a", "|V2", [3]]])).unwrap();
        let bytes = [1u8, 2, 3, 4, 5, 6];
        let value = raw.decode_value(&bytes).unwrap();
        let items = items_of_a(&value);
        assert!(matches!(items.items(), Items::Stored(held) if held.bytes == bytes));
        assert_eq!(items.get(1).as_deref(), Some(&Value::Bytes(vec![3, 4])));
        assert_eq!(items.get(3), None);
        let one_by_one = SubarrayValue::new(
            vec![3],
            bytes
                .chunks(2)
                .map(|item| Value::Bytes(item.to_vec()))
                .collect(),
        )
        .unwrap();
        assert_eq!(*items, one_by_one);
        assert_eq!(raw.encode_value(&value).unwrap(), bytes);
        let text = Layout::from_v2_json(&json!([["a", "|S2", [3]]])).unwrap();
        assert_eq!(text.encode_value(&value).unwrap(), bytes);
    }

    /// Records as items of a subarray are held as their stored bytes and decoded when asked
    /// for: each reads as the record it is, the array equals the same records held one by one,
    /// encodes back in one copy into the same layout and item by item into another (the other
    /// byte order here); a bad item is an error naming it and its field when read.
    #[test]
    fn record_items_are_their_bytes_and_read_as_records() {
        let little = Layout::from_v2_json(&json!([["a", [["g", "<u2"], ["h", "|b1"]], [3]]]));
        let little = little.unwrap();
        let bytes = [1u8, 0, 1, 2, 0, 0, 3, 0, 1];
        let value = little.decode_value(&bytes).unwrap();
        let items = items_of_a(&value);
        assert!(matches!(items.items(), Items::Stored(held) if held.bytes == bytes));
        let record = |g: u16, h: bool| {
            let mut record = Record::new();
            record.push("g", Value::UInt16(g));
            record.push("h", Value::Bool(h));
            Value::Record(record)
        };
        assert_eq!(items.get(1).as_deref(), Some(&record(2, false)));
        assert_eq!(items.get(3), None);
        let one_by_one = SubarrayValue::new(
            vec![3],
            vec![record(1, true), record(2, false), record(3, true)],
        );
        assert_eq!(*items, one_by_one.unwrap());
        assert_eq!(little.encode_value(&value).unwrap(), bytes);
        let big = Layout::from_v2_json(&json!([["a", [["g", ">u2"], ["h", "|b1"]], [3]]]));
        assert_eq!(
            big.unwrap().encode_value(&value).unwrap(),
            [0, 1, 1, 0, 2, 0, 0, 3, 1]
        );
        let mut bad = bytes;
        bad[8] = 2;
        let error = little.decode_value(&bad).unwrap_err().to_string();
        assert!(
            error.contains("a[2].h") && error.contains("0x02"),
            "{error}"
        );
    }
}
