//! Fill values of scalar types, in the v3 and v2 forms (seed 000 "Permitted fill values";
//! Zarr v2 "Fill value encoding").

use std::io::{self, Write};

use base64::Engine;
use num_complex::Complex;
use serde_json::Value as Json;

use super::BASE64;
use super::float::{self, Float, V2_FLOAT_FORMS, V3_FLOAT_FORMS};
use crate::codec::scalar::without_trailing_zeros;
use crate::error::show;
use crate::{Error, FieldPath, ScalarType, Value};

/// Which metadata format's rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// Zarr v3 `fill_value`.
    V3,
    /// Zarr v2 `fill_value`.
    V2,
}

/// Parses the fill value of `scalar` at `path`.
pub(crate) fn parse(
    scalar: ScalarType,
    json: &Json,
    format: Format,
    path: &FieldPath,
) -> Result<Value, Error> {
    parse_inner(scalar, json, format).ok_or_else(|| Error::InvalidFillValue {
        path: path.clone(),
        data_type: scalar.name(),
        json: show(json),
        expected: expected(scalar, format),
    })
}

fn parse_inner(scalar: ScalarType, json: &Json, format: Format) -> Option<Value> {
    Some(match scalar {
        ScalarType::Bool => Value::Bool(json.as_bool()?),
        ScalarType::Int8 => Value::Int8(integer(json)?),
        ScalarType::Int16 => Value::Int16(integer(json)?),
        ScalarType::Int32 => Value::Int32(integer(json)?),
        ScalarType::Int64 => Value::Int64(integer(json)?),
        ScalarType::UInt8 => Value::UInt8(integer(json)?),
        ScalarType::UInt16 => Value::UInt16(integer(json)?),
        ScalarType::UInt32 => Value::UInt32(integer(json)?),
        ScalarType::UInt64 => Value::UInt64(integer(json)?),
        ScalarType::Float16 => Value::Float16(parse_float(json, format)?),
        ScalarType::Float32 => Value::Float32(parse_float(json, format)?),
        ScalarType::Float64 => Value::Float64(parse_float(json, format)?),
        ScalarType::Complex64 => Value::Complex64(parse_complex(json, format)?),
        ScalarType::Complex128 => Value::Complex128(parse_complex(json, format)?),
        ScalarType::Raw { size } | ScalarType::RawBytes { size } => {
            Value::Bytes(bytes(json).filter(|b| b.len() == size.get())?)
        }
        ScalarType::NullTerminatedBytes { size } => {
            // Base64 of the bytes, trailing zeros stripped (zarr-extensions PR #60) or not:
            // the value is the bytes without them, as NumPy reads `S<n>`.
            let content = bytes(json).filter(|b| b.len() <= size.get())?;
            Value::Bytes(without_trailing_zeros(&content).to_vec())
        }
        ScalarType::DateTime64(_) => Value::DateTime64(time_count(json)?),
        ScalarType::TimeDelta64(_) => Value::TimeDelta64(time_count(json)?),
        ScalarType::FixedLengthUtf32 { chars } => {
            let text = json.as_str()?;
            if text.chars().count() > chars.get() {
                return None;
            }
            Value::String(text.trim_end_matches('\0').to_owned())
        }
    })
}

fn expected(scalar: ScalarType, format: Format) -> String {
    let float_forms = match format {
        Format::V3 => V3_FLOAT_FORMS,
        Format::V2 => V2_FLOAT_FORMS,
    };
    match scalar {
        ScalarType::Bool => "a JSON boolean (true or false)".into(),
        ScalarType::Int8 => integer_range(i8::MIN, i8::MAX),
        ScalarType::Int16 => integer_range(i16::MIN, i16::MAX),
        ScalarType::Int32 => integer_range(i32::MIN, i32::MAX),
        ScalarType::Int64 => integer_range(i64::MIN, i64::MAX),
        ScalarType::UInt8 => integer_range(u8::MIN, u8::MAX),
        ScalarType::UInt16 => integer_range(u16::MIN, u16::MAX),
        ScalarType::UInt32 => integer_range(u32::MIN, u32::MAX),
        ScalarType::UInt64 => integer_range(u64::MIN, u64::MAX),
        ScalarType::Float16 | ScalarType::Float32 | ScalarType::Float64 => float_forms.into(),
        ScalarType::Complex64 | ScalarType::Complex128 => {
            format!("a two-element array [real, imaginary], each {float_forms}")
        }
        ScalarType::Raw { size } | ScalarType::RawBytes { size } => {
            format!("an array of {size} integers in 0..=255 or a base64 string of {size} bytes")
        }
        ScalarType::NullTerminatedBytes { size } => {
            format!("a base64 string (or an array of integers in 0..=255) of at most {size} bytes")
        }
        ScalarType::DateTime64(_) | ScalarType::TimeDelta64(_) => {
            "an integer in [-9223372036854775808, 9223372036854775807] or \"NaT\"".into()
        }
        ScalarType::FixedLengthUtf32 { chars } => {
            format!("a string of at most {chars} characters")
        }
    }
}

fn integer_range(min: impl std::fmt::Display, max: impl std::fmt::Display) -> String {
    format!("a JSON integer (no fraction or exponent) in [{min}, {max}]")
}

/// A JSON number written without fraction or exponent, in range for `T`.
///
/// serde_json keeps such numbers as integers and everything else (`1.0`, `1e3`) as `f64`, so
/// the form is told apart exactly.
fn integer<T: TryFrom<u64> + TryFrom<i64>>(json: &Json) -> Option<T> {
    let Json::Number(number) = json else {
        return None;
    };
    if let Some(unsigned) = number.as_u64() {
        T::try_from(unsigned).ok()
    } else {
        T::try_from(number.as_i64()?).ok()
    }
}

fn parse_float<F: Float>(json: &Json, format: Format) -> Option<F> {
    match format {
        Format::V3 => float::parse_v3(json),
        Format::V2 => float::parse_v2(json),
    }
}

fn parse_complex<F: Float>(json: &Json, format: Format) -> Option<Complex<F>> {
    match json.as_array()?.as_slice() {
        [re, im] => Some(Complex::new(
            parse_float(re, format)?,
            parse_float(im, format)?,
        )),
        _ => None,
    }
}

/// Bytes written as a base64 string or an array of integers 0..=255.
pub(super) fn bytes(json: &Json) -> Option<Vec<u8>> {
    match json {
        Json::String(text) => BASE64.decode(text).ok(),
        Json::Array(items) => items.iter().map(integer::<u8>).collect(),
        _ => None,
    }
}

fn time_count(json: &Json) -> Option<i64> {
    match json {
        Json::String(text) if text == "NaT" => Some(i64::MIN),
        other => integer(other),
    }
}

/// Why a scalar was not written.
pub(crate) enum WriteError {
    /// The value is not one of the type (or, in v2, a NaN v2 cannot write).
    Value(Error),
    /// The output refused the text.
    Output(io::Error),
}

impl From<io::Error> for WriteError {
    fn from(error: io::Error) -> Self {
        WriteError::Output(error)
    }
}

impl From<serde_json::Error> for WriteError {
    fn from(error: serde_json::Error) -> Self {
        WriteError::Output(error.into())
    }
}

/// Writes the fill value of `scalar` whose value is `value` as JSON text to `out` (long byte
/// strings piece by piece): the one place that says how a scalar looks in JSON. [`to_json`]
/// parses the text; [`JsonWriter`](super::JsonWriter) streams it for values it decodes from
/// bytes. `path` is where the value is, for errors.
pub(crate) fn write<W: Write>(
    scalar: ScalarType,
    value: &Value,
    format: Format,
    path: &FieldPath,
    out: &mut W,
) -> Result<(), WriteError> {
    let mismatch = |reason: String| {
        WriteError::Value(Error::ValueMismatch {
            path: path.clone(),
            data_type: scalar.name(),
            reason,
        })
    };
    if format == Format::V2
        && let Some(bits) = nan_with_payload(value)
    {
        return Err(WriteError::Value(Error::Unrepresentable {
            path: path.clone(),
            format: "a Zarr v2 fill_value",
            reason: format!(
                "the NaN with bits 0x{bits:x}: v2 only knows \"NaN\", so the payload would be lost"
            ),
        }));
    }
    match (scalar, value) {
        (ScalarType::Bool, Value::Bool(v)) => out.write_all(if *v { b"true" } else { b"false" })?,
        (ScalarType::Int8, Value::Int8(v)) => serde_json::to_writer(out, v)?,
        (ScalarType::Int16, Value::Int16(v)) => serde_json::to_writer(out, v)?,
        (ScalarType::Int32, Value::Int32(v)) => serde_json::to_writer(out, v)?,
        (ScalarType::Int64, Value::Int64(v))
        | (ScalarType::DateTime64(_), Value::DateTime64(v))
        | (ScalarType::TimeDelta64(_), Value::TimeDelta64(v)) => serde_json::to_writer(out, v)?,
        (ScalarType::UInt8, Value::UInt8(v)) => serde_json::to_writer(out, v)?,
        (ScalarType::UInt16, Value::UInt16(v)) => serde_json::to_writer(out, v)?,
        (ScalarType::UInt32, Value::UInt32(v)) => serde_json::to_writer(out, v)?,
        (ScalarType::UInt64, Value::UInt64(v)) => serde_json::to_writer(out, v)?,
        (ScalarType::Float16, Value::Float16(v)) => write_float(*v, out)?,
        (ScalarType::Float32, Value::Float32(v)) => write_float(*v, out)?,
        (ScalarType::Float64, Value::Float64(v)) => write_float(*v, out)?,
        (ScalarType::Complex64, Value::Complex64(v)) => write_complex(*v, out)?,
        (ScalarType::Complex128, Value::Complex128(v)) => write_complex(*v, out)?,
        (ScalarType::Raw { size }, Value::Bytes(b)) if b.len() == size.get() => match format {
            Format::V3 => write_byte_list(b, out)?,
            Format::V2 => write_base64(b, out)?,
        },
        (ScalarType::RawBytes { size }, Value::Bytes(b)) if b.len() == size.get() => {
            write_base64(b, out)?;
        }
        (ScalarType::NullTerminatedBytes { size }, Value::Bytes(b)) if b.len() <= size.get() => {
            write_base64(without_trailing_zeros(b), out)?;
        }
        (ScalarType::FixedLengthUtf32 { chars }, Value::String(text)) => {
            if text.chars().count() > chars.get() {
                return Err(mismatch(format!(
                    "a string of {} characters does not fit in {chars}",
                    text.chars().count()
                )));
            }
            serde_json::to_writer(out, text.trim_end_matches('\0'))?;
        }
        (ScalarType::Raw { .. } | ScalarType::RawBytes { .. }, Value::Bytes(b)) => {
            return Err(mismatch(format!(
                "{} bytes instead of {}",
                b.len(),
                scalar.size()
            )));
        }
        (ScalarType::NullTerminatedBytes { .. }, Value::Bytes(b)) => {
            return Err(mismatch(format!(
                "{} bytes, more than {}",
                b.len(),
                scalar.size()
            )));
        }
        (_, other) => return Err(mismatch(other.found())),
    }
    Ok(())
}

/// Writes the fill value of `scalar`; errors if `value` is not a value of that type or cannot be
/// written in `format`. The JSON is the text [`write()`] writes, parsed.
pub(crate) fn to_json(
    scalar: ScalarType,
    value: &Value,
    format: Format,
    path: &FieldPath,
) -> Result<Json, Error> {
    let mut text = Vec::new();
    match write(scalar, value, format, path, &mut text) {
        Ok(()) => Ok(serde_json::from_slice(&text)?),
        Err(WriteError::Value(error)) => Err(error),
        // Text is written to a vector, which takes all of it.
        Err(WriteError::Output(error)) => Err(Error::Unrepresentable {
            path: path.clone(),
            format: "JSON text",
            reason: error.to_string(),
        }),
    }
}

/// The bits of the first NaN of `value` (a float or complex value) other than the canonical
/// one, which Zarr v2 cannot write.
fn nan_with_payload(value: &Value) -> Option<u64> {
    fn lost<F: Float>(value: F) -> Option<u64> {
        float::to_v2(value).is_none().then(|| value.to_bits_u64())
    }
    match value {
        Value::Float16(v) => lost(*v),
        Value::Float32(v) => lost(*v),
        Value::Float64(v) => lost(*v),
        Value::Complex64(v) => lost(v.re).or_else(|| lost(v.im)),
        Value::Complex128(v) => lost(v.re).or_else(|| lost(v.im)),
        _ => None,
    }
}

fn write_float<F: Float, W: Write>(value: F, out: &mut W) -> Result<(), WriteError> {
    Ok(serde_json::to_writer(out, &float::to_v3(value))?)
}

fn write_complex<F: Float, W: Write>(value: Complex<F>, out: &mut W) -> Result<(), WriteError> {
    out.write_all(b"[")?;
    write_float(value.re, out)?;
    out.write_all(b",")?;
    write_float(value.im, out)?;
    out.write_all(b"]")?;
    Ok(())
}

/// Text written to the output at most this many bytes at a time.
const PIECE: usize = 4096;

/// `r<N>` in v3: the bytes as a list of numbers.
fn write_byte_list<W: Write>(bytes: &[u8], out: &mut W) -> io::Result<()> {
    let mut piece = Vec::with_capacity(PIECE.min(4 * bytes.len() + 2));
    piece.push(b'[');
    for (index, &byte) in bytes.iter().enumerate() {
        if index > 0 {
            piece.push(b',');
        }
        if byte >= 100 {
            piece.push(b'0' + byte / 100);
        }
        if byte >= 10 {
            piece.push(b'0' + byte / 10 % 10);
        }
        piece.push(b'0' + byte % 10);
        if piece.len() + 4 > PIECE {
            out.write_all(&piece)?;
            piece.clear();
        }
    }
    piece.push(b']');
    out.write_all(&piece)
}

/// A base64 string, written piece by piece (whole groups of three bytes encode on their own,
/// so the text is the same).
fn write_base64<W: Write>(bytes: &[u8], out: &mut W) -> io::Result<()> {
    out.write_all(b"\"")?;
    let mut text = [0u8; PIECE];
    for part in bytes.chunks(3 * PIECE / 4) {
        let written = BASE64
            .encode_slice(part, &mut text)
            .map_err(io::Error::other)?;
        out.write_all(&text[..written])?;
    }
    out.write_all(b"\"")
}
