//! Scalar data types: every Zarr v3 core type, raw bits `r<N>`, and the fixed-size extension
//! types real struct arrays carry; their v3 names and NumPy typestrs.
//!
//! Zarr v3 data types carry no byte order; that belongs to the `bytes` codec, or, in Zarr v2,
//! to each field's typestr (see [`Layout`](crate::Layout)).

mod size;
mod time;
mod typestr;
mod v3;

use std::fmt;

use crate::numeric::numeric_kinds;

pub use size::{ByteSize, CharCount};
pub use time::{TimeConfig, TimeUnit, UnknownTimeUnit};
pub(crate) use v3::{check_keys, parse as parse_v3_scalar};

/// The largest element size this crate accepts, in bytes: NumPy's own limit (2³¹ − 1).
///
/// Larger types are rejected when they are parsed or built, so that no metadata document can
/// make the crate allocate absurd buffers.
pub const MAX_ELEMENT_SIZE: usize = i32::MAX as usize;

/// The deepest nesting of structs and subarrays this crate accepts (64 levels).
///
/// Deeper types are rejected when they are parsed or built, so that every walk over a type
/// stays within a bounded stack, whatever the input.
pub const MAX_NESTING_DEPTH: usize = 64;

/// A fixed-size data type that is not a struct: every Zarr v3 core type, raw bits `r<N>`, and
/// the registered extension types real struct arrays carry.
///
/// The sizes the variants carry ([`ByteSize`], [`CharCount`]) are checked when they are made,
/// so every scalar type has a size within [`MAX_ELEMENT_SIZE`]. A scalar value's v3 fill JSON
/// is [`fill_value_to_v3_json`](ScalarType::fill_value_to_v3_json) (written with the other
/// fill-value code, in the fill-value module).
///
/// ```
/// use zarrdt::types::ScalarType;
///
/// assert_eq!(ScalarType::Complex64.size(), 8);
/// assert_eq!(ScalarType::Complex64.swap_unit(), 4);
/// assert_eq!(ScalarType::raw_bits(24).unwrap().name(), "r24");
/// assert_eq!(ScalarType::fixed_length_utf32(3).unwrap().size(), 12);
/// assert!(ScalarType::raw_bytes(0).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ScalarType {
    /// `bool`: one byte, `0x00` or `0x01`.
    Bool,
    /// `int8`.
    Int8,
    /// `int16`.
    Int16,
    /// `int32`.
    Int32,
    /// `int64`.
    Int64,
    /// `uint8`.
    UInt8,
    /// `uint16`.
    UInt16,
    /// `uint32`.
    UInt32,
    /// `uint64`.
    UInt64,
    /// `float16`: IEEE 754 binary16 ([`half::f16`]).
    Float16,
    /// `float32`.
    Float32,
    /// `float64`.
    Float64,
    /// `complex64`: two `float32`, real then imaginary.
    Complex64,
    /// `complex128`: two `float64`, real then imaginary.
    Complex128,
    /// `r<N>`: `N` raw bits, `N` a positive multiple of 8; `size` is `N / 8` bytes.
    Raw {
        /// Size in bytes.
        size: ByteSize,
    },
    /// `numpy.datetime64`: an `int64` count of `scale_factor × unit` since the epoch.
    DateTime64(TimeConfig),
    /// `numpy.timedelta64`: an `int64` count of `scale_factor × unit`.
    TimeDelta64(TimeConfig),
    /// `fixed_length_utf32`: `chars` UTF-32 code units, zero-padded (NumPy `<U{chars}`).
    FixedLengthUtf32 {
        /// Number of code units; `length_bytes` is four times this.
        chars: CharCount,
    },
    /// zarr-python's `raw_bytes` (NumPy `|V{size}`): opaque bytes.
    RawBytes {
        /// Size in bytes.
        size: ByteSize,
    },
    /// zarr-python's `null_terminated_bytes` (NumPy `|S{size}`): bytes, zero-padded.
    NullTerminatedBytes {
        /// Size in bytes.
        size: ByteSize,
    },
}

impl ScalarType {
    /// `r<bits>`, if `bits` is a positive multiple of 8 (and within [`MAX_ELEMENT_SIZE`]).
    pub const fn raw_bits(bits: usize) -> Option<Self> {
        if !bits.is_multiple_of(8) {
            return None;
        }
        match ByteSize::new(bits / 8) {
            Some(size) => Some(ScalarType::Raw { size }),
            None => None,
        }
    }

    /// `raw_bytes` of `size` bytes (NumPy `|V{size}`), if `size` is in `1..=MAX_ELEMENT_SIZE`.
    pub const fn raw_bytes(size: usize) -> Option<Self> {
        match ByteSize::new(size) {
            Some(size) => Some(ScalarType::RawBytes { size }),
            None => None,
        }
    }

    /// `null_terminated_bytes` of `size` bytes (NumPy `|S{size}`), if `size` is in
    /// `1..=MAX_ELEMENT_SIZE`.
    pub const fn null_terminated_bytes(size: usize) -> Option<Self> {
        match ByteSize::new(size) {
            Some(size) => Some(ScalarType::NullTerminatedBytes { size }),
            None => None,
        }
    }

    /// `fixed_length_utf32` of `chars` code units (NumPy `<U{chars}`), if `chars` is positive
    /// and `4 × chars` is within [`MAX_ELEMENT_SIZE`].
    pub const fn fixed_length_utf32(chars: usize) -> Option<Self> {
        match CharCount::new(chars) {
            Some(chars) => Some(ScalarType::FixedLengthUtf32 { chars }),
            None => None,
        }
    }

    /// The size of one encoded value in bytes.
    pub const fn size(self) -> usize {
        match self {
            ScalarType::Bool | ScalarType::Int8 | ScalarType::UInt8 => 1,
            ScalarType::Int16 | ScalarType::UInt16 | ScalarType::Float16 => 2,
            ScalarType::Int32 | ScalarType::UInt32 | ScalarType::Float32 => 4,
            ScalarType::Int64
            | ScalarType::UInt64
            | ScalarType::Float64
            | ScalarType::Complex64
            | ScalarType::DateTime64(_)
            | ScalarType::TimeDelta64(_) => 8,
            ScalarType::Complex128 => 16,
            ScalarType::Raw { size }
            | ScalarType::RawBytes { size }
            | ScalarType::NullTerminatedBytes { size } => size.get(),
            ScalarType::FixedLengthUtf32 { chars } => chars.length_bytes(),
        }
    }

    /// The size of the units whose bytes the `endian` setting reverses: 8 for `complex128`
    /// (each half separately), 4 for UTF-32 code units, 1 where byte order does not apply.
    pub const fn swap_unit(self) -> usize {
        match self {
            ScalarType::Bool
            | ScalarType::Int8
            | ScalarType::UInt8
            | ScalarType::Raw { .. }
            | ScalarType::RawBytes { .. }
            | ScalarType::NullTerminatedBytes { .. } => 1,
            ScalarType::Int16 | ScalarType::UInt16 | ScalarType::Float16 => 2,
            ScalarType::Int32
            | ScalarType::UInt32
            | ScalarType::Float32
            | ScalarType::Complex64
            | ScalarType::FixedLengthUtf32 { .. } => 4,
            ScalarType::Int64
            | ScalarType::UInt64
            | ScalarType::Float64
            | ScalarType::Complex128
            | ScalarType::DateTime64(_)
            | ScalarType::TimeDelta64(_) => 8,
        }
    }

    /// Whether the encoding depends on byte order (the type has multi-byte units).
    pub const fn has_endianness(self) -> bool {
        self.swap_unit() > 1
    }

    /// The Zarr v3 name: `"int32"`, `"r24"`, `"numpy.datetime64"`…
    pub fn name(self) -> String {
        match self {
            ScalarType::Raw { size } => format!("r{}", size.get() * 8),
            other => other.static_name().unwrap_or_default().to_owned(),
        }
    }

    /// The v3 name of types whose name is a constant.
    const fn static_name(self) -> Option<&'static str> {
        macro_rules! static_name {
            ($($ty:ty => $variant:ident $name:literal;)*) => {
                match self {
                    $(ScalarType::$variant => $name,)*
                    ScalarType::Raw { .. } => return None,
                    ScalarType::DateTime64(_) => "numpy.datetime64",
                    ScalarType::TimeDelta64(_) => "numpy.timedelta64",
                    ScalarType::FixedLengthUtf32 { .. } => "fixed_length_utf32",
                    ScalarType::RawBytes { .. } => "raw_bytes",
                    ScalarType::NullTerminatedBytes { .. } => "null_terminated_bytes",
                }
            };
        }
        Some(numeric_kinds!(static_name! { bool => Bool "bool"; }))
    }

    /// Whether this is one of the core data types of the Zarr v3 specification (including
    /// `r<N>`), which v3 metadata writes as a bare string.
    pub const fn is_core(self) -> bool {
        !matches!(
            self,
            ScalarType::DateTime64(_)
                | ScalarType::TimeDelta64(_)
                | ScalarType::FixedLengthUtf32 { .. }
                | ScalarType::RawBytes { .. }
                | ScalarType::NullTerminatedBytes { .. }
        )
    }

    /// Whether this is a floating-point type (`float16`, `float32`, `float64`).
    pub const fn is_float(self) -> bool {
        matches!(
            self,
            ScalarType::Float16 | ScalarType::Float32 | ScalarType::Float64
        )
    }

    /// The smallest and largest value of an integer type (`int8` … `uint64`), `None` for
    /// other types: the values an enum stored as this type may have.
    ///
    /// ```
    /// use zarrdt::types::ScalarType;
    ///
    /// assert_eq!(ScalarType::UInt16.integer_range(), Some((0, 65_535)));
    /// assert_eq!(ScalarType::Int8.integer_range(), Some((-128, 127)));
    /// assert_eq!(ScalarType::Float64.integer_range(), None);
    /// ```
    pub const fn integer_range(self) -> Option<(i128, i128)> {
        Some(match self {
            ScalarType::Int8 => (i8::MIN as i128, i8::MAX as i128),
            ScalarType::Int16 => (i16::MIN as i128, i16::MAX as i128),
            ScalarType::Int32 => (i32::MIN as i128, i32::MAX as i128),
            ScalarType::Int64 => (i64::MIN as i128, i64::MAX as i128),
            ScalarType::UInt8 => (0, u8::MAX as i128),
            ScalarType::UInt16 => (0, u16::MAX as i128),
            ScalarType::UInt32 => (0, u32::MAX as i128),
            ScalarType::UInt64 => (0, u64::MAX as i128),
            _ => return None,
        })
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}
