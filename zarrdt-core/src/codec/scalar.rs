//! One scalar leaf between its stored bytes and a [`Value`].

use super::primitive::Primitive;
use crate::endian::{BigEndian, LittleEndian, StaticEndian};
use crate::numeric::numeric_kinds;
use crate::{DecodeError, ElementFault, Endian, Error, FieldPath, ScalarType, Value};

/// The byte of a `bool`, checked to be 0 or 1.
pub(crate) fn bool_from_byte(byte: u8) -> Result<bool, ElementFault> {
    match byte {
        0 => Ok(false),
        1 => Ok(true),
        other => Err(ElementFault::InvalidBool(other)),
    }
}

/// `bytes` without its trailing zero bytes: a `null_terminated_bytes` value as NumPy reads it.
pub(crate) fn without_trailing_zeros(bytes: &[u8]) -> &[u8] {
    let end = bytes
        .iter()
        .rposition(|&byte| byte != 0)
        .map_or(0, |last| last + 1);
    &bytes[..end]
}

/// Decodes UTF-32 code units in byte order `E`, dropping trailing NULs as NumPy does.
fn utf32_from_bytes<E: StaticEndian>(bytes: &[u8]) -> Result<String, DecodeError> {
    let mut text = String::with_capacity(bytes.len() / 4);
    for (index, unit) in bytes.chunks_exact(4).enumerate() {
        let unit = u32::read::<E>(unit);
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
        u32::from(c).write::<E>(unit);
    }
    Some(())
}

/// Whether every pattern of `scalar.size()` bytes decodes ([`decode`] fails only on a `bool`
/// byte other than 0 and 1, and on a UTF-32 code unit that is no character).
pub(crate) fn decodes_any_bytes(scalar: ScalarType) -> bool {
    !matches!(
        scalar,
        ScalarType::Bool | ScalarType::FixedLengthUtf32 { .. }
    )
}

/// Decodes one scalar of type `scalar` from the first `scalar.size()` bytes, in `endian`.
pub(crate) fn decode(
    scalar: ScalarType,
    endian: Endian,
    bytes: &[u8],
) -> Result<Value, DecodeError> {
    match endian {
        Endian::Little => decode_in::<LittleEndian>(scalar, bytes),
        Endian::Big => decode_in::<BigEndian>(scalar, bytes),
    }
}

fn decode_in<E: StaticEndian>(scalar: ScalarType, bytes: &[u8]) -> Result<Value, DecodeError> {
    macro_rules! decode {
        ($($ty:ty => $variant:ident $name:literal;)*) => {
            match scalar {
                ScalarType::Bool => {
                    Value::Bool(bool_from_byte(bytes[0]).map_err(DecodeError::new)?)
                }
                $(ScalarType::$variant => Value::$variant(<$ty>::read::<E>(bytes)),)*
                ScalarType::Raw { size } | ScalarType::RawBytes { size } => {
                    Value::Bytes(bytes[..size.get()].to_vec())
                }
                ScalarType::NullTerminatedBytes { size } => {
                    Value::Bytes(without_trailing_zeros(&bytes[..size.get()]).to_vec())
                }
                ScalarType::DateTime64(_) => Value::DateTime64(i64::read::<E>(bytes)),
                ScalarType::TimeDelta64(_) => Value::TimeDelta64(i64::read::<E>(bytes)),
                ScalarType::FixedLengthUtf32 { chars } => {
                    Value::String(utf32_from_bytes::<E>(&bytes[..chars.length_bytes()])?)
                }
            }
        };
    }
    Ok(numeric_kinds!(decode! {}))
}

/// Encodes `value` into the first `scalar.size()` bytes of `out`, in `endian`; an error (at
/// the root path) if the value is not of this type or does not fit.
pub(crate) fn encode(
    scalar: ScalarType,
    endian: Endian,
    value: &Value,
    out: &mut [u8],
) -> Result<(), Error> {
    match endian {
        Endian::Little => encode_in::<LittleEndian>(scalar, value, out),
        Endian::Big => encode_in::<BigEndian>(scalar, value, out),
    }
}

fn encode_in<E: StaticEndian>(
    scalar: ScalarType,
    value: &Value,
    out: &mut [u8],
) -> Result<(), Error> {
    let mismatch = |reason: String| Error::ValueMismatch {
        path: FieldPath::root(),
        data_type: scalar.name(),
        reason,
    };
    macro_rules! encode {
        ($($ty:ty => $variant:ident $name:literal;)*) => {
            match (scalar, value) {
                (ScalarType::Bool, Value::Bool(v)) => out[0] = u8::from(*v),
                $((ScalarType::$variant, Value::$variant(v)) => v.write::<E>(out),)*
                (ScalarType::DateTime64(_), Value::DateTime64(v))
                | (ScalarType::TimeDelta64(_), Value::TimeDelta64(v)) => v.write::<E>(out),
                (ScalarType::Raw { size } | ScalarType::RawBytes { size }, Value::Bytes(bytes)) => {
                    if bytes.len() != size.get() {
                        return Err(mismatch(format!("{} bytes instead of {size}", bytes.len())));
                    }
                    out[..size.get()].copy_from_slice(bytes);
                }
                (ScalarType::NullTerminatedBytes { size }, Value::Bytes(bytes)) => {
                    if bytes.len() > size.get() {
                        return Err(mismatch(format!("{} bytes, more than {size}", bytes.len())));
                    }
                    out[..bytes.len()].copy_from_slice(bytes);
                    out[bytes.len()..size.get()].fill(0);
                }
                (ScalarType::FixedLengthUtf32 { chars }, Value::String(text)) => {
                    utf32_to_bytes::<E>(text, &mut out[..chars.length_bytes()]).ok_or_else(|| {
                        mismatch(format!(
                            "a string of {} characters does not fit in {chars}",
                            text.chars().count()
                        ))
                    })?;
                }
                (_, other) => return Err(mismatch(other.found())),
            }
        };
    }
    numeric_kinds!(encode! {});
    Ok(())
}

/// The value all-zero bytes of `scalar` decode to.
pub(crate) fn zero(scalar: ScalarType) -> Value {
    // Every number type's `Default` is its zero.
    macro_rules! zero {
        ($($ty:ty => $variant:ident $name:literal;)*) => {
            match scalar {
                ScalarType::Bool => Value::Bool(false),
                $(ScalarType::$variant => Value::$variant(<$ty>::default()),)*
                ScalarType::Raw { size } | ScalarType::RawBytes { size } => {
                    Value::Bytes(vec![0; size.get()])
                }
                ScalarType::NullTerminatedBytes { .. } => Value::Bytes(Vec::new()),
                ScalarType::DateTime64(_) => Value::DateTime64(0),
                ScalarType::TimeDelta64(_) => Value::TimeDelta64(0),
                ScalarType::FixedLengthUtf32 { .. } => Value::String(String::new()),
            }
        };
    }
    numeric_kinds!(zero! {})
}
