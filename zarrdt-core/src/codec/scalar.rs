//! One scalar leaf between its stored bytes and a [`Value`], through the [`Element`] codecs of
//! the Rust type of each scalar.

use half::f16;
use num_complex::Complex;

use crate::endian::{BigEndian, LittleEndian, StaticEndian};
use crate::layout::ScalarLayout;
use crate::{DecodeError, Element, ElementFault, Endian, Error, FieldPath, ScalarType, Value};

/// The byte of a `bool`, checked to be 0 or 1.
pub(crate) fn bool_from_byte(byte: u8) -> Result<bool, ElementFault> {
    match byte {
        0 => Ok(false),
        1 => Ok(true),
        other => Err(ElementFault::InvalidBool(other)),
    }
}

/// Decodes UTF-32 code units in byte order `E`, dropping trailing NULs as NumPy does.
fn utf32_from_bytes<E: StaticEndian>(bytes: &[u8]) -> Result<String, DecodeError> {
    let mut text = String::with_capacity(bytes.len() / 4);
    for (index, unit) in bytes.chunks_exact(4).enumerate() {
        let unit = u32::read_packed::<E>(unit);
        let c = char::from_u32(unit)
            .ok_or_else(|| DecodeError::at_offset(ElementFault::InvalidUtf32(unit), index * 4))?;
        text.push(c);
    }
    let kept = text.trim_end_matches('\0').len();
    text.truncate(kept);
    Ok(text)
}

/// Encodes `text` as zero-padded UTF-32 in byte order `E`; `None` if it has too many
/// characters.
fn utf32_to_bytes<E: StaticEndian>(text: &str, out: &mut [u8]) -> Option<()> {
    if text.chars().count() > out.len() / 4 {
        return None;
    }
    out.fill(0);
    for (c, unit) in text.chars().zip(out.chunks_exact_mut(4)) {
        u32::from(c).write_packed::<E>(unit);
    }
    Some(())
}

/// Decodes one scalar from exactly `layout.scalar().size()` bytes.
pub(crate) fn decode(layout: ScalarLayout, bytes: &[u8]) -> Result<Value, DecodeError> {
    // Single-byte types have no byte order; either reads them the same.
    match layout.endian().unwrap_or(Endian::Little) {
        Endian::Little => decode_in::<LittleEndian>(layout.scalar(), bytes),
        Endian::Big => decode_in::<BigEndian>(layout.scalar(), bytes),
    }
}

fn decode_in<E: StaticEndian>(scalar: ScalarType, bytes: &[u8]) -> Result<Value, DecodeError> {
    Ok(match scalar {
        ScalarType::Bool => {
            bool::check_packed::<E>(bytes)?;
            Value::Bool(bool::read_packed::<E>(bytes))
        }
        ScalarType::Int8 => Value::Int8(i8::read_packed::<E>(bytes)),
        ScalarType::Int16 => Value::Int16(i16::read_packed::<E>(bytes)),
        ScalarType::Int32 => Value::Int32(i32::read_packed::<E>(bytes)),
        ScalarType::Int64 => Value::Int64(i64::read_packed::<E>(bytes)),
        ScalarType::UInt8 => Value::UInt8(u8::read_packed::<E>(bytes)),
        ScalarType::UInt16 => Value::UInt16(u16::read_packed::<E>(bytes)),
        ScalarType::UInt32 => Value::UInt32(u32::read_packed::<E>(bytes)),
        ScalarType::UInt64 => Value::UInt64(u64::read_packed::<E>(bytes)),
        ScalarType::Float16 => Value::Float16(f16::read_packed::<E>(bytes)),
        ScalarType::Float32 => Value::Float32(f32::read_packed::<E>(bytes)),
        ScalarType::Float64 => Value::Float64(f64::read_packed::<E>(bytes)),
        ScalarType::Complex64 => Value::Complex64(Complex::<f32>::read_packed::<E>(bytes)),
        ScalarType::Complex128 => Value::Complex128(Complex::<f64>::read_packed::<E>(bytes)),
        ScalarType::Raw { size }
        | ScalarType::RawBytes { size }
        | ScalarType::NullTerminatedBytes { size } => Value::Bytes(bytes[..size.get()].to_vec()),
        ScalarType::DateTime64(_) => Value::DateTime64(i64::read_packed::<E>(bytes)),
        ScalarType::TimeDelta64(_) => Value::TimeDelta64(i64::read_packed::<E>(bytes)),
        ScalarType::FixedLengthUtf32 { chars } => {
            Value::String(utf32_from_bytes::<E>(&bytes[..chars.get() * 4])?)
        }
    })
}

/// Encodes `value` into exactly `layout.scalar().size()` bytes of `out`; errors if the value
/// is not of this type.
pub(crate) fn encode(
    layout: ScalarLayout,
    value: &Value,
    out: &mut [u8],
    path: &FieldPath,
) -> Result<(), Error> {
    match layout.endian().unwrap_or(Endian::Little) {
        Endian::Little => encode_in::<LittleEndian>(layout.scalar(), value, out, path),
        Endian::Big => encode_in::<BigEndian>(layout.scalar(), value, out, path),
    }
}

fn encode_in<E: StaticEndian>(
    scalar: ScalarType,
    value: &Value,
    out: &mut [u8],
    path: &FieldPath,
) -> Result<(), Error> {
    let mismatch = |reason: String| Error::ValueMismatch {
        path: path.clone(),
        data_type: scalar.name(),
        reason,
    };
    match (scalar, value) {
        (ScalarType::Bool, Value::Bool(v)) => v.write_packed::<E>(out),
        (ScalarType::Int8, Value::Int8(v)) => v.write_packed::<E>(out),
        (ScalarType::Int16, Value::Int16(v)) => v.write_packed::<E>(out),
        (ScalarType::Int32, Value::Int32(v)) => v.write_packed::<E>(out),
        (ScalarType::Int64, Value::Int64(v))
        | (ScalarType::DateTime64(_), Value::DateTime64(v))
        | (ScalarType::TimeDelta64(_), Value::TimeDelta64(v)) => v.write_packed::<E>(out),
        (ScalarType::UInt8, Value::UInt8(v)) => v.write_packed::<E>(out),
        (ScalarType::UInt16, Value::UInt16(v)) => v.write_packed::<E>(out),
        (ScalarType::UInt32, Value::UInt32(v)) => v.write_packed::<E>(out),
        (ScalarType::UInt64, Value::UInt64(v)) => v.write_packed::<E>(out),
        (ScalarType::Float16, Value::Float16(v)) => v.write_packed::<E>(out),
        (ScalarType::Float32, Value::Float32(v)) => v.write_packed::<E>(out),
        (ScalarType::Float64, Value::Float64(v)) => v.write_packed::<E>(out),
        (ScalarType::Complex64, Value::Complex64(v)) => v.write_packed::<E>(out),
        (ScalarType::Complex128, Value::Complex128(v)) => v.write_packed::<E>(out),
        (
            ScalarType::Raw { size }
            | ScalarType::RawBytes { size }
            | ScalarType::NullTerminatedBytes { size },
            Value::Bytes(bytes),
        ) => {
            if bytes.len() != size.get() {
                return Err(mismatch(format!("{} bytes instead of {size}", bytes.len())));
            }
            out[..size.get()].copy_from_slice(bytes);
        }
        (ScalarType::FixedLengthUtf32 { chars }, Value::String(text)) => {
            utf32_to_bytes::<E>(text, &mut out[..chars.get() * 4]).ok_or_else(|| {
                mismatch(format!(
                    "a string of {} characters does not fit in {chars}",
                    text.chars().count()
                ))
            })?;
        }
        (_, other) => return Err(mismatch(other.found())),
    }
    Ok(())
}
