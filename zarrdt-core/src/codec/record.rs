//! Whole elements and chunks of any [`Layout`] between stored bytes and [`Value`]s: the runtime
//! struct codec.

use super::scalar;
use crate::layout::{ArrayLayout, StructLayout};
use crate::{DecodeError, Error, FieldPath, Layout, Record, Value};

impl Layout {
    /// Decodes one element from exactly [`Layout::size`] bytes.
    ///
    /// Padding bytes are ignored (zarr-python 2 leaves garbage there); bool bytes other than
    /// 0/1 and invalid UTF-32 are [`Error::InvalidElement`] naming the field and offset.
    pub fn decode_value(&self, bytes: &[u8]) -> Result<Value, Error> {
        check_length(bytes.len(), self.size())?;
        decode(self, bytes).map_err(|error| error.at(0, self.size()))
    }

    /// Encodes one element; padding bytes are written as zeros.
    pub fn encode_value(&self, value: &Value) -> Result<Vec<u8>, Error> {
        let mut out = vec![0; self.size()];
        encode(self, value, &mut out, &FieldPath::root())?;
        Ok(out)
    }

    /// Decodes a chunk: as many elements as `bytes` holds, which must be a whole number.
    pub fn decode_values(&self, bytes: &[u8]) -> Result<Vec<Value>, Error> {
        let size = self.size();
        if size == 0 || !bytes.len().is_multiple_of(size) {
            return Err(Error::ChunkLength {
                len: bytes.len(),
                element_size: size,
            });
        }
        bytes
            .chunks_exact(size)
            .enumerate()
            .map(|(index, element)| decode(self, element).map_err(|error| error.at(index, size)))
            .collect()
    }

    /// Encodes a chunk of elements, one after the other; padding bytes are zeros.
    pub fn encode_values(&self, values: &[Value]) -> Result<Vec<u8>, Error> {
        let size = self.size();
        let mut out = vec![0; size.saturating_mul(values.len())];
        for (value, element) in values.iter().zip(out.chunks_exact_mut(size.max(1))) {
            encode(self, value, element, &FieldPath::root())?;
        }
        Ok(out)
    }
}

fn check_length(found: usize, expected: usize) -> Result<(), Error> {
    if found == expected {
        Ok(())
    } else {
        Err(Error::BufferLength { expected, found })
    }
}

fn decode(layout: &Layout, bytes: &[u8]) -> Result<Value, DecodeError> {
    match layout {
        Layout::Scalar(scalar) => scalar::decode(*scalar, bytes),
        Layout::Struct(structure) => decode_struct(structure, bytes),
        Layout::Array(array) => decode_array(array, bytes),
    }
}

fn decode_struct(structure: &StructLayout, bytes: &[u8]) -> Result<Value, DecodeError> {
    let mut record = Record::new();
    for field in structure.fields() {
        let start = field.offset();
        let end = start + field.layout().size();
        let value = decode(field.layout(), &bytes[start..end])
            .map_err(|error| error.in_field(field.name(), start))?;
        record.push(field.name(), value);
    }
    Ok(Value::Record(record))
}

/// Decodes a subarray into nested [`Value::Array`]s, one level per dimension; errors carry the
/// flat (row-major) element index.
fn decode_array(array: &ArrayLayout, bytes: &[u8]) -> Result<Value, DecodeError> {
    let stride = array.element().size();
    let flat = (0..array.len())
        .map(|index| {
            decode(
                array.element(),
                &bytes[index * stride..(index + 1) * stride],
            )
            .map_err(|error| error.in_element(index, stride))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(nest(&mut flat.into_iter(), array.shape()))
}

/// Groups a flat row-major sequence into nested arrays of `shape`.
fn nest(items: &mut impl Iterator<Item = Value>, shape: &[usize]) -> Value {
    match shape {
        [] | [_] => Value::Array(items.take(shape.first().copied().unwrap_or(0)).collect()),
        [outer, inner @ ..] => Value::Array((0..*outer).map(|_| nest(items, inner)).collect()),
    }
}

fn encode(layout: &Layout, value: &Value, out: &mut [u8], path: &FieldPath) -> Result<(), Error> {
    match layout {
        Layout::Scalar(scalar) => scalar::encode(*scalar, value, out, path),
        Layout::Struct(structure) => encode_struct(structure, value, out, path),
        Layout::Array(array) => encode_array(array, array.shape(), value, out, path, 0),
    }
}

fn mismatch(path: &FieldPath, expected: &str, reason: String) -> Error {
    Error::ValueMismatch {
        path: path.clone(),
        data_type: expected.to_owned(),
        reason,
    }
}

fn encode_struct(
    structure: &StructLayout,
    value: &Value,
    out: &mut [u8],
    path: &FieldPath,
) -> Result<(), Error> {
    let Value::Record(record) = value else {
        return Err(mismatch(path, "a struct", value.found()));
    };
    if let Some((unknown, _)) = record
        .fields()
        .iter()
        .find(|(name, _)| !structure.fields().iter().any(|f| f.name() == name))
    {
        return Err(mismatch(
            &path.field(unknown),
            "a struct",
            "the struct has no field of this name".into(),
        ));
    }
    for field in structure.fields() {
        let field_path = path.field(field.name());
        let member = record.get(field.name()).ok_or_else(|| {
            mismatch(
                &field_path,
                "a struct",
                "the record has no value for this field".into(),
            )
        })?;
        let start = field.offset();
        let end = start + field.layout().size();
        encode(field.layout(), member, &mut out[start..end], &field_path)?;
    }
    Ok(())
}

fn encode_array(
    array: &ArrayLayout,
    shape: &[usize],
    value: &Value,
    out: &mut [u8],
    path: &FieldPath,
    flat_base: usize,
) -> Result<(), Error> {
    let Some((&outer, inner)) = shape.split_first() else {
        return encode(array.element(), value, out, &path.index(flat_base));
    };
    let items = value
        .as_sequence()
        .ok_or_else(|| mismatch(path, "a subarray", value.found()))?;
    if items.len() != outer {
        return Err(mismatch(
            path,
            "a subarray",
            format!("{} items instead of {outer}", items.len()),
        ));
    }
    let per_item: usize = inner.iter().product();
    let block = array.element().size() * per_item;
    for (index, item) in items.into_iter().enumerate() {
        encode_array(
            array,
            inner,
            item,
            &mut out[index * block..(index + 1) * block],
            path,
            flat_base + index * per_item,
        )?;
    }
    Ok(())
}
