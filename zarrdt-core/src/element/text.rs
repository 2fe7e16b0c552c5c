//! Fixed-size text and bytes fields, as NumPy records carry them: [`FixedString`] (`U<N>`,
//! `fixed_length_utf32`), [`ByteString`] (`S<N>`, `null_terminated_bytes`) and [`RawBytes`]
//! (`V<N>`, `raw_bytes`).

use std::fmt;

use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, TryFromBytes};

use super::ZarrType;
use crate::codec::primitive::Primitive;
use crate::codec::scalar::without_trailing_zeros;
use crate::endian::StaticEndian;
use crate::{DecodeError, ElementFault, Error, FieldPath, ScalarType, TypeDescriptor, Value};

/// Why a string or byte string does not fit its fixed-size type.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TextError {
    /// More characters (or bytes) than the type holds.
    #[error("{found} {unit} do not fit in {capacity}")]
    TooLong {
        /// What was counted: `"characters"` or `"bytes"`.
        unit: &'static str,
        /// How many there are.
        found: usize,
        /// How many the type holds.
        capacity: usize,
    },
}

fn too_long(unit: &'static str, found: usize, capacity: usize) -> TextError {
    TextError::TooLong {
        unit,
        found,
        capacity,
    }
}

/// The error a value of the wrong kind, or too long, gives.
fn mismatch(scalar: ScalarType, reason: String) -> Error {
    Error::ValueMismatch {
        path: FieldPath::root(),
        data_type: scalar.name(),
        reason,
    }
}

/// The scalar type of a sized text type; a compile error if `size` is out of range.
const fn sized(scalar: Option<ScalarType>) -> ScalarType {
    match scalar {
        Some(scalar) => scalar,
        None => panic!("a fixed-size text or bytes field holds 1 to 2^31 - 1 bytes"),
    }
}

// ---------------------------------------------------------------------------------------------
// FixedString
// ---------------------------------------------------------------------------------------------

/// A string of at most `N` characters, stored as `N` UTF-32 code units, zero-padded: NumPy's
/// `U<N>`, Zarr's `fixed_length_utf32` (`length_bytes` `4 × N`).
///
/// As in NumPy, trailing NUL characters are padding, not part of the string.
///
/// ```
/// use zarrdt::{Endian, FixedString, ZarrType};
///
/// let name = FixedString::<8>::new("héllo").unwrap();
/// assert_eq!(name, "héllo");
/// assert_eq!(name.to_string(), "héllo");
/// assert_eq!(FixedString::<8>::SIZE, 32);
/// assert!(FixedString::<4>::new("héllo").is_err());
/// let bytes = name.encode(Endian::Little);
/// assert_eq!(&bytes[..8], [b'h', 0, 0, 0, 0xe9, 0, 0, 0]);
/// assert_eq!(FixedString::<8>::decode(&bytes, Endian::Little)?, name);
/// // A code unit that is no character is an error naming the offset.
/// assert!(FixedString::<1>::decode(&[0, 0xd8, 0, 0], Endian::Little).is_err());
/// # Ok::<(), zarrdt::Error>(())
/// ```
#[derive(
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    TryFromBytes,
    IntoBytes,
    Immutable,
    KnownLayout,
)]
#[repr(transparent)]
pub struct FixedString<const N: usize>([char; N]);

impl<const N: usize> FixedString<N> {
    /// The empty string.
    pub const EMPTY: Self = FixedString(['\0'; N]);

    /// `text`, if it has at most `N` characters.
    pub fn new(text: &str) -> Result<Self, TextError> {
        let count = text.chars().count();
        if count > N {
            return Err(too_long("characters", count, N));
        }
        let mut chars = ['\0'; N];
        for (slot, c) in chars.iter_mut().zip(text.chars()) {
            *slot = c;
        }
        Ok(FixedString(chars))
    }

    /// The characters, trailing NULs (padding) removed.
    pub fn chars(&self) -> &[char] {
        let end = self
            .0
            .iter()
            .rposition(|&c| c != '\0')
            .map_or(0, |last| last + 1);
        &self.0[..end]
    }

    /// Number of characters (trailing NULs not counted).
    pub fn len(&self) -> usize {
        self.chars().len()
    }

    /// Whether the string is empty.
    pub fn is_empty(&self) -> bool {
        self.chars().is_empty()
    }
}

impl<const N: usize> Default for FixedString<N> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const N: usize> fmt::Display for FixedString<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.chars()
            .iter()
            .try_for_each(|c| fmt::Write::write_char(f, *c))
    }
}

impl<const N: usize> fmt::Debug for FixedString<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FixedString<{N}>({:?})", self.to_string())
    }
}

impl<const N: usize> TryFrom<&str> for FixedString<N> {
    type Error = TextError;
    fn try_from(text: &str) -> Result<Self, TextError> {
        Self::new(text)
    }
}

impl<const N: usize> TryFrom<String> for FixedString<N> {
    type Error = TextError;
    fn try_from(text: String) -> Result<Self, TextError> {
        Self::new(&text)
    }
}

impl<const N: usize> From<FixedString<N>> for String {
    fn from(text: FixedString<N>) -> String {
        text.to_string()
    }
}

impl<const N: usize> PartialEq<str> for FixedString<N> {
    fn eq(&self, other: &str) -> bool {
        self.chars().iter().copied().eq(other.chars())
    }
}

impl<const N: usize> PartialEq<&str> for FixedString<N> {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

/// The first `N` UTF-32 code units of `bytes`, in byte order `E`.
#[inline]
fn code_units<const N: usize, E: StaticEndian>(bytes: &[u8]) -> [u32; N] {
    let mut codes = [0u32; N];
    for (code, unit) in codes.iter_mut().zip(bytes[..4 * N].chunks_exact(4)) {
        *code = u32::read::<E>(unit);
    }
    codes
}

/// Whether `code` is a Unicode scalar value (one `char::from_u32` accepts: below U+110000 and
/// not a surrogate), as one comparison, which the compiler vectorizes over a string's units
/// (`char::from_u32(code).is_some()` in [`all_chars`]' fold it does not).
#[inline]
fn is_char(code: u32) -> bool {
    (code ^ 0xD800).wrapping_sub(0x800) < 0x10_F800
}

/// Whether every code unit is a Unicode scalar value, as one fold without a branch.
#[inline]
fn all_chars(codes: &[u32]) -> bool {
    codes.iter().fold(true, |all, &code| all & is_char(code))
}

/// The character of a code unit, or U+FFFD for one that is none.
#[inline]
fn char_or_replacement(code: u32) -> char {
    char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
}

impl<const N: usize> ZarrType for FixedString<N> {
    const TYPE: TypeDescriptor = TypeDescriptor::scalar(sized(ScalarType::fixed_length_utf32(N)));
    // `char` is a UTF-32 code unit in native order; some bit patterns are not characters.
    const NATIVE_LAYOUT: bool = true;
    const HAS_INVALID_BYTES: bool = true;

    #[inline]
    fn write_packed<E: StaticEndian>(&self, out: &mut [u8]) {
        for (c, unit) in self.0.iter().zip(out.chunks_exact_mut(4)) {
            u32::from(*c).write::<E>(unit);
        }
    }

    #[inline]
    fn check_packed<E: StaticEndian>(bytes: &[u8]) -> Result<(), DecodeError> {
        for (index, unit) in bytes[..4 * N].chunks_exact(4).enumerate() {
            let code = u32::read::<E>(unit);
            if char::from_u32(code).is_none() {
                return Err(DecodeError::at_offset(
                    ElementFault::InvalidUtf32(code),
                    4 * index,
                ));
            }
        }
        Ok(())
    }

    #[inline]
    fn read_packed<E: StaticEndian>(bytes: &[u8]) -> Self {
        FixedString(code_units::<N, E>(bytes).map(char_or_replacement))
    }

    #[inline]
    fn packed_is_valid<E: StaticEndian>(bytes: &[u8]) -> bool {
        all_chars(&code_units::<N, E>(bytes))
    }

    // The code units are read first, then checked and converted: loops of the same few
    // operations on every unit, which the compiler vectorizes (a conversion and check per unit
    // in one loop decoded byte-swapped strings at 0.8x memcpy, these at 0.9x: BENCHMARKS.md).
    #[inline]
    fn read_packed_validated<E: StaticEndian>(bytes: &[u8], valid: &mut bool) -> Self {
        let codes = code_units::<N, E>(bytes);
        *valid &= all_chars(&codes);
        FixedString(codes.map(char_or_replacement))
    }

    fn to_value(&self) -> Value {
        Value::String(self.to_string())
    }

    fn from_value(value: &Value) -> Result<Self, Error> {
        let scalar = sized(ScalarType::fixed_length_utf32(N));
        match value {
            Value::String(text) => Self::new(text).map_err(|e| mismatch(scalar, e.to_string())),
            other => Err(mismatch(scalar, other.found())),
        }
    }
}

/// `char`: one UTF-32 code unit, NumPy's `U1` (`fixed_length_utf32` of 4 bytes). Its value is
/// a string of at most one character: as in NumPy, `'\0'` is padding, the empty string.
///
/// ```
/// use zarrdt::{Endian, ZarrType};
/// use zarrdt::value::Value;
///
/// assert_eq!(char::data_type().to_string(), r#"{"name":"fixed_length_utf32","configuration":{"length_bytes":4}}"#);
/// assert_eq!('é'.encode(Endian::Big), [0, 0, 0, 0xe9]);
/// assert_eq!('é'.to_value(), Value::String("é".into()));
/// assert_eq!(char::from_value(&Value::String(String::new()))?, '\0');
/// assert!(char::from_value(&Value::String("ab".into())).is_err());
/// // A surrogate is no character.
/// assert!(char::decode(&[0, 0xd8, 0, 0], Endian::Little).is_err());
/// # Ok::<(), zarrdt::Error>(())
/// ```
impl ZarrType for char {
    const TYPE: TypeDescriptor = TypeDescriptor::scalar(sized(ScalarType::fixed_length_utf32(1)));
    // A `char` is its code point as a `u32` in memory: its native-order code unit.
    const NATIVE_LAYOUT: bool = true;
    const HAS_INVALID_BYTES: bool = true;

    #[inline]
    fn write_packed<E: StaticEndian>(&self, out: &mut [u8]) {
        u32::from(*self).write::<E>(out);
    }

    #[inline]
    fn check_packed<E: StaticEndian>(bytes: &[u8]) -> Result<(), DecodeError> {
        let code = u32::read::<E>(bytes);
        match char::from_u32(code) {
            Some(_) => Ok(()),
            None => Err(DecodeError::new(ElementFault::InvalidUtf32(code))),
        }
    }

    #[inline]
    fn read_packed<E: StaticEndian>(bytes: &[u8]) -> Self {
        char_or_replacement(u32::read::<E>(bytes))
    }

    #[inline]
    fn packed_is_valid<E: StaticEndian>(bytes: &[u8]) -> bool {
        is_char(u32::read::<E>(bytes))
    }

    #[inline]
    fn read_packed_validated<E: StaticEndian>(bytes: &[u8], valid: &mut bool) -> Self {
        let code = u32::read::<E>(bytes);
        *valid &= is_char(code);
        char_or_replacement(code)
    }

    fn to_value(&self) -> Value {
        Value::String(if *self == '\0' {
            String::new()
        } else {
            self.to_string()
        })
    }

    fn from_value(value: &Value) -> Result<Self, Error> {
        let scalar = sized(ScalarType::fixed_length_utf32(1));
        match value {
            Value::String(text) => {
                let mut chars = text.chars();
                match (chars.next(), chars.next()) {
                    (None, _) => Ok('\0'),
                    (Some(c), None) => Ok(c),
                    (Some(_), Some(_)) => Err(mismatch(
                        scalar,
                        too_long("characters", text.chars().count(), 1).to_string(),
                    )),
                }
            }
            other => Err(mismatch(scalar, other.found())),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// ByteString
// ---------------------------------------------------------------------------------------------

/// At most `N` bytes, zero-padded: NumPy's `S<N>`, Zarr's `null_terminated_bytes`.
///
/// As in NumPy, trailing zero bytes are padding, not part of the value.
///
/// ```
/// use zarrdt::{ByteString, Endian, ZarrType};
///
/// let code = ByteString::<5>::new(b"ab").unwrap();
/// assert_eq!(code.as_bytes(), b"ab");
/// assert_eq!(code.to_str(), Ok("ab"));
/// assert_eq!(code.encode(Endian::Big), b"ab\0\0\0");
/// assert!(ByteString::<2>::new(b"abc").is_err());
/// ```
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, FromBytes, IntoBytes, Immutable, KnownLayout,
)]
#[repr(transparent)]
pub struct ByteString<const N: usize>([u8; N]);

impl<const N: usize> ByteString<N> {
    /// The empty byte string.
    pub const EMPTY: Self = ByteString([0; N]);

    /// `bytes`, if there are at most `N` of them.
    pub fn new(bytes: &[u8]) -> Result<Self, TextError> {
        if bytes.len() > N {
            return Err(too_long("bytes", bytes.len(), N));
        }
        let mut stored = [0; N];
        stored[..bytes.len()].copy_from_slice(bytes);
        Ok(ByteString(stored))
    }

    /// The bytes, trailing zeros (padding) removed.
    pub fn as_bytes(&self) -> &[u8] {
        without_trailing_zeros(&self.0)
    }

    /// The bytes as UTF-8 text, if they are.
    pub fn to_str(&self) -> Result<&str, std::str::Utf8Error> {
        std::str::from_utf8(self.as_bytes())
    }
}

impl<const N: usize> Default for ByteString<N> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const N: usize> fmt::Debug for ByteString<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ByteString<{N}>(b\"{}\")",
            self.as_bytes().escape_ascii()
        )
    }
}

impl<const N: usize> TryFrom<&[u8]> for ByteString<N> {
    type Error = TextError;
    fn try_from(bytes: &[u8]) -> Result<Self, TextError> {
        Self::new(bytes)
    }
}

impl<const N: usize> TryFrom<&str> for ByteString<N> {
    type Error = TextError;
    fn try_from(text: &str) -> Result<Self, TextError> {
        Self::new(text.as_bytes())
    }
}

impl<const N: usize> PartialEq<[u8]> for ByteString<N> {
    fn eq(&self, other: &[u8]) -> bool {
        self.as_bytes() == without_trailing_zeros(other)
    }
}

impl<const N: usize> ZarrType for ByteString<N> {
    const TYPE: TypeDescriptor =
        TypeDescriptor::scalar(sized(ScalarType::null_terminated_bytes(N)));
    const NATIVE_LAYOUT: bool = true;

    #[inline]
    fn write_packed<E: StaticEndian>(&self, out: &mut [u8]) {
        out[..N].copy_from_slice(&self.0);
    }

    #[inline]
    fn read_packed<E: StaticEndian>(bytes: &[u8]) -> Self {
        let mut stored = [0; N];
        stored.copy_from_slice(&bytes[..N]);
        ByteString(stored)
    }

    fn to_value(&self) -> Value {
        Value::Bytes(self.as_bytes().to_vec())
    }

    fn from_value(value: &Value) -> Result<Self, Error> {
        let scalar = sized(ScalarType::null_terminated_bytes(N));
        match value {
            Value::Bytes(bytes) => Self::new(bytes).map_err(|e| mismatch(scalar, e.to_string())),
            other => Err(mismatch(scalar, other.found())),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// RawBytes
// ---------------------------------------------------------------------------------------------

/// `N` opaque bytes: NumPy's `V<N>`, Zarr's `raw_bytes` (all `N` bytes are the value).
///
/// ```
/// use zarrdt::{Endian, RawBytes, ZarrType};
///
/// let tag = RawBytes::new([1, 0, 2]);
/// assert_eq!(tag.as_bytes(), &[1, 0, 2]);
/// assert_eq!(tag.encode(Endian::Big), [1, 0, 2]);
/// ```
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, FromBytes, IntoBytes, Immutable, KnownLayout,
)]
#[repr(transparent)]
pub struct RawBytes<const N: usize>([u8; N]);

impl<const N: usize> RawBytes<N> {
    /// The bytes `bytes`.
    pub const fn new(bytes: [u8; N]) -> Self {
        RawBytes(bytes)
    }

    /// The bytes.
    pub const fn as_bytes(&self) -> &[u8; N] {
        &self.0
    }
}

impl<const N: usize> Default for RawBytes<N> {
    fn default() -> Self {
        RawBytes([0; N])
    }
}

impl<const N: usize> fmt::Debug for RawBytes<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RawBytes<{N}>({:02x?})", self.0)
    }
}

impl<const N: usize> From<[u8; N]> for RawBytes<N> {
    fn from(bytes: [u8; N]) -> Self {
        RawBytes(bytes)
    }
}

impl<const N: usize> From<RawBytes<N>> for [u8; N] {
    fn from(bytes: RawBytes<N>) -> Self {
        bytes.0
    }
}

impl<const N: usize> ZarrType for RawBytes<N> {
    const TYPE: TypeDescriptor = TypeDescriptor::scalar(sized(ScalarType::raw_bytes(N)));
    const NATIVE_LAYOUT: bool = true;

    #[inline]
    fn write_packed<E: StaticEndian>(&self, out: &mut [u8]) {
        out[..N].copy_from_slice(&self.0);
    }

    #[inline]
    fn read_packed<E: StaticEndian>(bytes: &[u8]) -> Self {
        let mut stored = [0; N];
        stored.copy_from_slice(&bytes[..N]);
        RawBytes(stored)
    }

    fn to_value(&self) -> Value {
        Value::Bytes(self.0.to_vec())
    }

    fn from_value(value: &Value) -> Result<Self, Error> {
        let scalar = sized(ScalarType::raw_bytes(N));
        match value {
            Value::Bytes(bytes) => bytes
                .as_slice()
                .try_into()
                .map(RawBytes)
                .map_err(|_| mismatch(scalar, format!("{} bytes instead of {N}", bytes.len()))),
            other => Err(mismatch(scalar, other.found())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Endian;

    #[test]
    fn fixed_strings_keep_characters_and_drop_padding() {
        let text = FixedString::<4>::new("a\u{1d11e}").unwrap();
        assert_eq!(text.len(), 2);
        assert_eq!(text.to_value(), Value::String("a\u{1d11e}".into()));
        assert_eq!(
            FixedString::<4>::from_value(&text.to_value()).unwrap(),
            text
        );
        let big = text.encode(Endian::Big);
        assert_eq!(&big[4..8], [0, 1, 0xd1, 0x1e]);
        assert_eq!(FixedString::<4>::decode(&big, Endian::Big).unwrap(), text);
        let error = FixedString::<2>::from_value(&Value::String("abc".into())).unwrap_err();
        assert_eq!(
            error.to_string(),
            "value does not fit fixed_length_utf32: 3 characters do not fit in 2"
        );
        let error =
            FixedString::<2>::decode(&[b'a', 0, 0, 0, 0, 0xdc, 0, 0], Endian::Little).unwrap_err();
        assert_eq!(
            error.to_string(),
            "element 0, byte offset 4: invalid UTF-32 code unit 0x0000dc00 (not a Unicode scalar value)"
        );
    }

    #[test]
    fn the_quick_check_of_code_units_is_char_from_u32() {
        // Every code unit up to beyond the last character, alone and among characters.
        for code in 0..=0x12_0000 {
            let is_char = char::from_u32(code).is_some();
            assert_eq!(all_chars(&[code]), is_char, "{code:#x}");
            assert_eq!(all_chars(&[u32::from('a'), code, 0]), is_char, "{code:#x}");
        }
        // Through the decode in both byte orders: the edges, and a stride through all units.
        let edges = [
            0,
            0xd7ff,
            0xd800,
            0xdfff,
            0xe000,
            0x10_ffff,
            0x11_0000,
            u32::MAX,
        ];
        let stride = (0..=u32::MAX).step_by(65_521);
        for code in edges.into_iter().chain(stride) {
            let is_char = char::from_u32(code).is_some();
            assert_eq!(all_chars(&[code]), is_char, "{code:#x}");
            for endian in [Endian::Little, Endian::Big] {
                let unit = |code: u32| match endian {
                    Endian::Little => code.to_le_bytes(),
                    Endian::Big => code.to_be_bytes(),
                };
                let bytes = [unit(u32::from('a')), unit(code)].concat();
                let decoded = FixedString::<2>::decode(&bytes, endian);
                assert_eq!(decoded.is_ok(), is_char, "{code:#x} {endian:?}");
                if let Ok(text) = decoded {
                    assert_eq!(text.0, ['a', char::from_u32(code).unwrap()]);
                }
            }
        }
    }

    #[test]
    fn byte_strings_and_raw_bytes() {
        let code = ByteString::<4>::try_from("ab").unwrap();
        assert_eq!(code.to_value(), Value::Bytes(b"ab".to_vec()));
        assert_eq!(
            ByteString::<4>::from_value(&Value::Bytes(b"ab\0".to_vec())).unwrap(),
            code
        );
        assert!(ByteString::<1>::from_value(&Value::Bytes(b"ab".to_vec())).is_err());
        let raw = RawBytes::new([0, 1, 0]);
        assert_eq!(raw.to_value(), Value::Bytes(vec![0, 1, 0]));
        assert_eq!(RawBytes::<3>::from_value(&raw.to_value()).unwrap(), raw);
        assert!(RawBytes::<3>::from_value(&Value::Bytes(vec![1])).is_err());
    }
}
