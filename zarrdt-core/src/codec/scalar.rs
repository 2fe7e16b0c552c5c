//! One scalar leaf between its stored bytes and a [`Value`].

use half::f16;
use num_complex::Complex;

use crate::layout::ScalarLayout;
use crate::{DecodeError, ElementFault, Endian, Error, FieldPath, ScalarType, Value};

/// Reads `N` bytes at `at` in `endian`, as native-order bytes of a number.
fn take<const N: usize>(bytes: &[u8], at: usize, endian: Endian) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(&bytes[at..at + N]);
    if !endian.is_native() {
        out.reverse();
    }
    out
}

/// Writes the native-order bytes of a number at `at` in `endian`.
fn put<const N: usize>(out: &mut [u8], at: usize, mut native: [u8; N], endian: Endian) {
    if !endian.is_native() {
        native.reverse();
    }
    out[at..at + N].copy_from_slice(&native);
}

/// The byte of a `bool`, checked to be 0 or 1.
pub(crate) fn bool_from_byte(byte: u8) -> Result<bool, ElementFault> {
    match byte {
        0 => Ok(false),
        1 => Ok(true),
        other => Err(ElementFault::InvalidBool(other)),
    }
}

/// Decodes UTF-32 code units in `endian`, dropping trailing NULs as NumPy does.
pub(crate) fn utf32_from_bytes(bytes: &[u8], endian: Endian) -> Result<String, DecodeError> {
    let mut text = String::with_capacity(bytes.len() / 4);
    for (index, unit) in bytes.chunks_exact(4).enumerate() {
        let unit = u32::from_ne_bytes(take::<4>(unit, 0, endian));
        let c = char::from_u32(unit)
            .ok_or_else(|| DecodeError::at_offset(ElementFault::InvalidUtf32(unit), index * 4))?;
        text.push(c);
    }
    let kept = text.trim_end_matches('\0').len();
    text.truncate(kept);
    Ok(text)
}

/// Encodes `text` as zero-padded UTF-32 in `endian`; `None` if it has too many characters.
pub(crate) fn utf32_to_bytes(text: &str, out: &mut [u8], endian: Endian) -> Option<()> {
    if text.chars().count() > out.len() / 4 {
        return None;
    }
    out.fill(0);
    for (index, c) in text.chars().enumerate() {
        put(out, index * 4, u32::from(c).to_ne_bytes(), endian);
    }
    Some(())
}

/// Decodes one scalar from exactly `layout.scalar().size()` bytes.
pub(crate) fn decode(layout: ScalarLayout, bytes: &[u8]) -> Result<Value, DecodeError> {
    // Single-byte types ignore the order; any value works.
    let e = layout.endian().unwrap_or(Endian::Little);
    Ok(match layout.scalar() {
        ScalarType::Bool => Value::Bool(bool_from_byte(bytes[0]).map_err(DecodeError::new)?),
        ScalarType::Int8 => Value::Int8(i8::from_ne_bytes(take(bytes, 0, e))),
        ScalarType::Int16 => Value::Int16(i16::from_ne_bytes(take(bytes, 0, e))),
        ScalarType::Int32 => Value::Int32(i32::from_ne_bytes(take(bytes, 0, e))),
        ScalarType::Int64 => Value::Int64(i64::from_ne_bytes(take(bytes, 0, e))),
        ScalarType::UInt8 => Value::UInt8(bytes[0]),
        ScalarType::UInt16 => Value::UInt16(u16::from_ne_bytes(take(bytes, 0, e))),
        ScalarType::UInt32 => Value::UInt32(u32::from_ne_bytes(take(bytes, 0, e))),
        ScalarType::UInt64 => Value::UInt64(u64::from_ne_bytes(take(bytes, 0, e))),
        ScalarType::Float16 => Value::Float16(f16::from_ne_bytes(take(bytes, 0, e))),
        ScalarType::Float32 => Value::Float32(f32::from_ne_bytes(take(bytes, 0, e))),
        ScalarType::Float64 => Value::Float64(f64::from_ne_bytes(take(bytes, 0, e))),
        ScalarType::Complex64 => Value::Complex64(Complex::new(
            f32::from_ne_bytes(take(bytes, 0, e)),
            f32::from_ne_bytes(take(bytes, 4, e)),
        )),
        ScalarType::Complex128 => Value::Complex128(Complex::new(
            f64::from_ne_bytes(take(bytes, 0, e)),
            f64::from_ne_bytes(take(bytes, 8, e)),
        )),
        ScalarType::Raw { size }
        | ScalarType::RawBytes { size }
        | ScalarType::NullTerminatedBytes { size } => Value::Bytes(bytes[..size.get()].to_vec()),
        ScalarType::DateTime64(_) => Value::DateTime64(i64::from_ne_bytes(take(bytes, 0, e))),
        ScalarType::TimeDelta64(_) => Value::TimeDelta64(i64::from_ne_bytes(take(bytes, 0, e))),
        ScalarType::FixedLengthUtf32 { chars } => {
            Value::String(utf32_from_bytes(&bytes[..chars.get() * 4], e)?)
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
    let e = layout.endian().unwrap_or(Endian::Little);
    let scalar = layout.scalar();
    let mismatch = |reason: String| Error::ValueMismatch {
        path: path.clone(),
        data_type: scalar.name(),
        reason,
    };
    match (scalar, value) {
        (ScalarType::Bool, Value::Bool(v)) => out[0] = u8::from(*v),
        (ScalarType::Int8, Value::Int8(v)) => put(out, 0, v.to_ne_bytes(), e),
        (ScalarType::Int16, Value::Int16(v)) => put(out, 0, v.to_ne_bytes(), e),
        (ScalarType::Int32, Value::Int32(v)) => put(out, 0, v.to_ne_bytes(), e),
        (ScalarType::Int64, Value::Int64(v))
        | (ScalarType::DateTime64(_), Value::DateTime64(v))
        | (ScalarType::TimeDelta64(_), Value::TimeDelta64(v)) => put(out, 0, v.to_ne_bytes(), e),
        (ScalarType::UInt8, Value::UInt8(v)) => out[0] = *v,
        (ScalarType::UInt16, Value::UInt16(v)) => put(out, 0, v.to_ne_bytes(), e),
        (ScalarType::UInt32, Value::UInt32(v)) => put(out, 0, v.to_ne_bytes(), e),
        (ScalarType::UInt64, Value::UInt64(v)) => put(out, 0, v.to_ne_bytes(), e),
        (ScalarType::Float16, Value::Float16(v)) => put(out, 0, v.to_ne_bytes(), e),
        (ScalarType::Float32, Value::Float32(v)) => put(out, 0, v.to_ne_bytes(), e),
        (ScalarType::Float64, Value::Float64(v)) => put(out, 0, v.to_ne_bytes(), e),
        (ScalarType::Complex64, Value::Complex64(v)) => {
            put(out, 0, v.re.to_ne_bytes(), e);
            put(out, 4, v.im.to_ne_bytes(), e);
        }
        (ScalarType::Complex128, Value::Complex128(v)) => {
            put(out, 0, v.re.to_ne_bytes(), e);
            put(out, 8, v.im.to_ne_bytes(), e);
        }
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
            utf32_to_bytes(text, &mut out[..chars.get() * 4], e).ok_or_else(|| {
                mismatch(format!(
                    "a string of {} characters does not fit in {chars}",
                    text.chars().count()
                ))
            })?;
        }
        (_, other) => return Err(mismatch(format!("found a {} value", other.kind()))),
    }
    Ok(())
}
