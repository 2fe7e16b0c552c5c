//! Zarr v2 / NumPy typestrs of scalar types: `|b1`, `<i4`, `>f8`, `<c16`, `|V3`, `|S5`, `<U4`,
//! `<M8[10s]`…

use super::{ByteSize, CharCount, ScalarType, TimeConfig, TimeUnit};
use crate::{Endian, Error, FieldPath};

impl ScalarType {
    /// Parses a NumPy typestr as Zarr v2 writes it, returning the type and its byte order
    /// (`None` for `|`, where byte order does not apply).
    ///
    /// Multi-byte types need `<` or `>`; single-byte types and opaque bytes (`b1`, `i1`, `u1`,
    /// `V`, `S`) need `|`. `V<n>` is read as `raw_bytes` of `n` bytes, as zarr-python 3 reads
    /// it (and writes it in v3).
    ///
    /// ```
    /// use zarrdt::Endian;
    /// use zarrdt::types::ScalarType;
    ///
    /// assert_eq!(ScalarType::from_typestr(">i2").unwrap(), (ScalarType::Int16, Some(Endian::Big)));
    /// assert_eq!(ScalarType::from_typestr("|V3").unwrap(), (ScalarType::raw_bytes(3).unwrap(), None));
    /// assert!(ScalarType::from_typestr(">b1").is_err());
    /// assert!(ScalarType::from_typestr("<f3").is_err());
    /// ```
    pub fn from_typestr(typestr: &str) -> Result<(ScalarType, Option<Endian>), Error> {
        parse(typestr).map_err(|reason| Error::InvalidDtype {
            path: FieldPath::root(),
            json: serde_json::Value::from(typestr).to_string(),
            reason,
        })
    }

    /// The NumPy typestr of this type in the given byte order (ignored for single-byte types,
    /// which get `|`).
    ///
    /// Errors only for a `generic` time unit with a scale factor other than 1, which NumPy
    /// cannot express.
    pub fn typestr(self, endian: Endian) -> Result<String, Error> {
        let order = match (self.has_endianness(), endian) {
            (false, _) => '|',
            (true, Endian::Little) => '<',
            (true, Endian::Big) => '>',
        };
        Ok(match self {
            ScalarType::Bool => format!("{order}b1"),
            ScalarType::Int8 => format!("{order}i1"),
            ScalarType::Int16 => format!("{order}i2"),
            ScalarType::Int32 => format!("{order}i4"),
            ScalarType::Int64 => format!("{order}i8"),
            ScalarType::UInt8 => format!("{order}u1"),
            ScalarType::UInt16 => format!("{order}u2"),
            ScalarType::UInt32 => format!("{order}u4"),
            ScalarType::UInt64 => format!("{order}u8"),
            ScalarType::Float16 => format!("{order}f2"),
            ScalarType::Float32 => format!("{order}f4"),
            ScalarType::Float64 => format!("{order}f8"),
            ScalarType::Complex64 => format!("{order}c8"),
            ScalarType::Complex128 => format!("{order}c16"),
            ScalarType::Raw { size } | ScalarType::RawBytes { size } => format!("{order}V{size}"),
            ScalarType::NullTerminatedBytes { size } => format!("{order}S{size}"),
            ScalarType::FixedLengthUtf32 { chars } => format!("{order}U{chars}"),
            ScalarType::DateTime64(config) => format!("{order}M8{}", time_suffix(config)?),
            ScalarType::TimeDelta64(config) => format!("{order}m8{}", time_suffix(config)?),
        })
    }
}

fn time_suffix(config: TimeConfig) -> Result<String, Error> {
    match (config.unit(), config.scale_factor()) {
        (TimeUnit::Generic, 1) => Ok(String::new()),
        (TimeUnit::Generic, _) => Err(Error::Unrepresentable {
            path: FieldPath::root(),
            format: "a NumPy typestr",
            reason: "a generic time unit cannot have a scale factor".into(),
        }),
        (unit, 1) => Ok(format!("[{unit}]")),
        (unit, scale) => Ok(format!("[{scale}{unit}]")),
    }
}

/// A positive decimal count without sign or leading zeros.
fn count(digits: &str) -> Option<usize> {
    if digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<usize>().ok()
}

fn byte_size(digits: &str) -> Option<ByteSize> {
    count(digits).and_then(ByteSize::new)
}

fn parse(typestr: &str) -> Result<(ScalarType, Option<Endian>), String> {
    let mut chars = typestr.chars();
    let order = match chars.next() {
        Some('<') => Some(Endian::Little),
        Some('>') => Some(Endian::Big),
        Some('|') => None,
        Some(_)
            if typestr
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_') =>
        {
            return Err(
                "a type name (such as tensorstore's \"bfloat16\"), not a NumPy \
                 typestr, and no type zarrdt knows (a typestr starts with a byte order, '<', '>' \
                 or '|', then a type code and size: \"<f4\")"
                    .into(),
            );
        }
        Some(_) => return Err("a typestr starts with a byte order: '<', '>' or '|'".into()),
        None => return Err("empty typestr".into()),
    };
    let body = chars.as_str();
    let kind = body.chars().next().ok_or("the type code is missing")?;
    let rest = &body[kind.len_utf8()..];
    let scalar = match (kind, rest) {
        ('b', "1") => ScalarType::Bool,
        ('i', "1") => ScalarType::Int8,
        ('i', "2") => ScalarType::Int16,
        ('i', "4") => ScalarType::Int32,
        ('i', "8") => ScalarType::Int64,
        ('u', "1") => ScalarType::UInt8,
        ('u', "2") => ScalarType::UInt16,
        ('u', "4") => ScalarType::UInt32,
        ('u', "8") => ScalarType::UInt64,
        ('f', "2") => ScalarType::Float16,
        ('f', "4") => ScalarType::Float32,
        ('f', "8") => ScalarType::Float64,
        ('c', "8") => ScalarType::Complex64,
        ('c', "16") => ScalarType::Complex128,
        ('V', n) => ScalarType::RawBytes {
            size: byte_size(n).ok_or("V needs a byte count in 1..=2147483647, e.g. |V3")?,
        },
        ('S', n) => ScalarType::NullTerminatedBytes {
            size: byte_size(n).ok_or("S needs a byte count in 1..=2147483647, e.g. |S5")?,
        },
        ('U', n) => ScalarType::FixedLengthUtf32 {
            chars: count(n)
                .and_then(CharCount::new)
                .ok_or("U needs a character count in 1..=536870911, e.g. <U4")?,
        },
        ('M', time) => ScalarType::DateTime64(parse_time(time)?),
        ('m', time) => ScalarType::TimeDelta64(parse_time(time)?),
        // NumPy's long double and its complex, at the itemsizes NumPy gives them (12 and 16
        // bytes: x87 extended precision padded on x86, IEEE binary128 on aarch64 Linux,
        // double-double on POWER): no Zarr data type, and no one layout across platforms.
        ('f', "12" | "16") | ('c', "24" | "32") => {
            let (what, instead) = match kind {
                'f' => ("long double (np.longdouble)", ScalarType::Float64),
                _ => (
                    "complex long double (np.clongdouble)",
                    ScalarType::Complex128,
                ),
            };
            // In the byte order of the typestr given.
            let instead = format!(
                "{instead} ({})",
                instead
                    .typestr(order.unwrap_or(Endian::Little))
                    .map_err(|error| error.to_string())?
            );
            let float16 = if rest == "16" { "; float16 is f2" } else { "" };
            return Err(format!(
                "{kind}{rest} is NumPy's {what}, the platform's extended precision, which no \
                 Zarr data type holds: store it as {instead}{float16}"
            ));
        }
        ('b' | 'i' | 'u' | 'f' | 'c', _) => {
            return Err(format!(
                "no {kind}{rest} type: {kind} comes in {}",
                match kind {
                    'b' => "size 1",
                    'i' | 'u' => "sizes 1, 2, 4 and 8",
                    'f' => "sizes 2, 4 and 8",
                    _ => "sizes 8 and 16",
                }
            ));
        }
        _ => return Err(format!("unknown or unsupported type code {kind:?}")),
    };
    let single_byte = !scalar.has_endianness();
    match (order, single_byte) {
        (None, false) => Err(format!(
            "{} is multi-byte, so the byte order must be '<' or '>', not '|'",
            scalar.name()
        )),
        (Some(_), true) => Err(format!(
            "byte order does not apply to {}: write '|'",
            scalar.name()
        )),
        _ => Ok((scalar, order)),
    }
}

/// `8`, `8[s]`, `8[10s]`: the part of a datetime typestr after the type code.
fn parse_time(time: &str) -> Result<TimeConfig, String> {
    let bad = || {
        format!(
            "datetime typestrs are M8, M8[unit] or M8[<scale><unit>], not {time:?} after the type code"
        )
    };
    let rest = time.strip_prefix('8').ok_or_else(bad)?;
    if rest.is_empty() {
        return TimeConfig::new(TimeUnit::Generic, 1).ok_or_else(bad);
    }
    let inner = rest
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .ok_or_else(bad)?;
    let split = inner.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
    let (digits, unit) = inner.split_at(split);
    let scale = if digits.is_empty() {
        1
    } else {
        count(digits)
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(bad)?
    };
    let unit: TimeUnit = unit.parse().map_err(|e| format!("{e}"))?;
    if unit == TimeUnit::Generic {
        return Err(bad());
    }
    TimeConfig::new(unit, scale).ok_or_else(bad)
}
