//! [`ZarrType`]: Rust types that are Zarr data types, with their packed encoding.

mod array;
mod field;
mod number;
mod text;
mod time;

pub use text::{ByteString, FixedString, RawBytes, TextError};
pub use time::{
    Attoseconds, DateTime64, Days, Femtoseconds, FixedDuration, Generic, Hours, Microseconds,
    Milliseconds, Minutes, Months, Nanoseconds, Picoseconds, Seconds, TimeDelta64, Unit, Weeks,
    Years,
};

use crate::endian::{BigEndian, LittleEndian, StaticEndian};
use crate::{DataType, DecodeError, Endian, Error, Layout, TypeDescriptor, Value};

/// A Rust type that is a Zarr data type: it knows its packed size and type, and encodes and
/// decodes itself in either byte order.
///
/// Implemented for `bool`, `i8`…`i64`, `u8`…`u64`, [`half::f16`], `f32`, `f64`,
/// [`Complex<f32>`](num_complex::Complex) (`complex64`),
/// [`Complex<f64>`](num_complex::Complex) (`complex128`), `char` (NumPy `U1`), the text,
/// bytes and time types of NumPy records ([`FixedString`], [`ByteString`], [`RawBytes`],
/// [`DateTime64`], [`TimeDelta64`]), arrays `[T; N]` of elements, by `#[derive(ZarrStruct)]`
/// for structs and by `#[derive(ZarrEnum)]` for fieldless enums (stored as their integer
/// `repr`).
///
/// The required methods work on one value with a compile-time byte order and exact-size
/// buffers; the provided methods are the checked API most callers want:
///
/// ```
/// use zarrdt::{Endian, ZarrType};
///
/// let values = [1u16, 2, 0xff00];
/// let bytes = u16::encode_slice(&values, Endian::Big);
/// assert_eq!(bytes, [0, 1, 0, 2, 0xff, 0]);
/// assert_eq!(u16::decode_slice(&bytes, Endian::Big)?, values);
/// assert!(u16::decode_slice(&bytes[1..], Endian::Big).is_err()); // not whole elements
/// assert!(bool::decode_slice(&[0, 1, 2], Endian::Little).is_err()); // 2 is no bool
/// # Ok::<(), zarrdt::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a Zarr element type",
    label = "no Zarr data type for `{Self}`",
    note = "Zarr element types are bool, i8..i64, u8..u64, half::f16, f32, f64, num_complex::Complex<f32|f64>, char, zarrdt::FixedString<N>, zarrdt::ByteString<N>, zarrdt::RawBytes<N>, zarrdt::DateTime64<Unit>, zarrdt::TimeDelta64<Unit>, arrays [T; N] of them, structs with #[derive(ZarrStruct)] and fieldless enums with #[derive(ZarrEnum)]; String, Vec, Option and Box have no fixed size"
)]
pub trait ZarrType: Sized {
    /// The Zarr type, as a constant (checked when it is built).
    const TYPE: TypeDescriptor;

    /// Size of one encoded value in bytes (the packed size; for structs, the itemsize).
    const SIZE: usize = Self::TYPE.size();

    /// Whether the in-memory representation of `Self` is exactly its packed encoding in native
    /// byte order (true for the primitives and arrays of them; `#[derive(ZarrStruct)]` computes
    /// it for `#[repr(C)]` structs). It lets slices be copied in one `memcpy`.
    #[doc(hidden)]
    const NATIVE_LAYOUT: bool = false;

    /// Writes the packed encoding in byte order `E` into `out[..Self::SIZE]`.
    ///
    /// Low-level: `out` must hold at least `SIZE` bytes, or this panics. The checked
    /// [`ZarrType::encode_into`] is the safe entry point.
    fn write_packed<E: StaticEndian>(&self, out: &mut [u8]);

    /// Whether some byte patterns are not values of `Self` (a `bool` byte other than 0 or 1),
    /// so that decoding must [check](ZarrType::check_packed) before it
    /// [reads](ZarrType::read_packed).
    const HAS_INVALID_BYTES: bool = false;

    /// Checks that `bytes[..Self::SIZE]` is a valid encoding in byte order `E`: a
    /// [`DecodeError`] names the field and offset within the value otherwise.
    ///
    /// Low-level: `bytes` must hold at least `SIZE` bytes, or this panics.
    #[inline]
    fn check_packed<E: StaticEndian>(bytes: &[u8]) -> Result<(), DecodeError> {
        let _ = bytes;
        Ok(())
    }

    /// Reads a value from the packed encoding in byte order `E` in `bytes[..Self::SIZE]`,
    /// which [`ZarrType::check_packed`] has accepted; unchecked invalid bytes give some value
    /// (never undefined behaviour).
    ///
    /// Low-level: `bytes` must hold at least `SIZE` bytes, or this panics. The checked
    /// [`ZarrType::decode`] is the safe entry point.
    fn read_packed<E: StaticEndian>(bytes: &[u8]) -> Self;

    /// Whether `bytes[..Self::SIZE]` is a valid encoding in byte order `E`: what
    /// [`ZarrType::check_packed`] decides, without saying where, computed without branches so
    /// that a whole block of elements is checked in one tight loop before it is read. Types
    /// with invalid encodings override it.
    #[doc(hidden)]
    #[inline]
    fn packed_is_valid<E: StaticEndian>(bytes: &[u8]) -> bool {
        !Self::HAS_INVALID_BYTES || Self::check_packed::<E>(bytes).is_ok()
    }

    /// [`ZarrType::read_packed`] and [`ZarrType::packed_is_valid`] in one pass: reads a value
    /// from `bytes[..Self::SIZE]`, and clears `valid` unless the bytes are a valid encoding.
    /// Decoding a chunk reads every element this way and looks for the invalid one (with
    /// [`ZarrType::check_packed`]) only if one was seen. Types with invalid encodings
    /// override it when one pass can do both (a struct, field by field).
    #[doc(hidden)]
    #[inline]
    fn read_packed_validated<E: StaticEndian>(bytes: &[u8], valid: &mut bool) -> Self {
        if Self::HAS_INVALID_BYTES {
            *valid &= Self::packed_is_valid::<E>(bytes);
        }
        Self::read_packed::<E>(bytes)
    }

    /// The value as a dynamic [`Value`]: the value [`ZarrType::layout`] decodes from its bytes
    /// (a [`Value::Record`] for structs, a [`Value::Subarray`] for arrays).
    fn to_value(&self) -> Value;

    /// The Rust value of a dynamic [`Value`]; [`Error::ValueMismatch`] naming the field if it
    /// does not fit.
    ///
    /// Takes every value [`ZarrType::layout`] encodes: for arrays also the v3 form, a record of
    /// fields `"0"`, `"1"`, …. The provided implementation encodes `value` with the layout
    /// and decodes the bytes, so it checks the value completely, in time linear in its size.
    fn from_value(value: &Value) -> Result<Self, Error> {
        let bytes = Self::layout(Endian::NATIVE).encode_value(value)?;
        Self::decode(&bytes, Endian::NATIVE)
    }

    /// Encodes `values` one after another into `out`, which holds exactly
    /// `values.len() * SIZE` bytes. Types override this with faster bulk code.
    #[doc(hidden)]
    fn write_packed_slice<E: StaticEndian>(values: &[Self], out: &mut [u8]) {
        write_each::<Self, E>(values, out);
    }

    /// Decodes every element of `bytes`, a whole number of `SIZE`-byte elements, appending to
    /// `out`. Types override this with faster bulk code.
    #[doc(hidden)]
    fn read_packed_slice<E: StaticEndian>(bytes: &[u8], out: &mut Vec<Self>) -> Result<(), Error> {
        read_each::<Self, E>(bytes, out)
    }

    /// The Zarr v3 data type of `Self`.
    fn data_type() -> DataType {
        Self::TYPE.data_type()
    }

    /// The stored layout of `Self` in `endian`: the Zarr v2 dtype (arrays as subarrays).
    fn layout(endian: Endian) -> Layout {
        Self::TYPE.layout(endian)
    }

    /// The packed encoding of one value.
    fn encode(&self, endian: Endian) -> Vec<u8> {
        let mut out = vec![0; Self::SIZE];
        match endian {
            Endian::Little => self.write_packed::<LittleEndian>(&mut out),
            Endian::Big => self.write_packed::<BigEndian>(&mut out),
        }
        out
    }

    /// Encodes one value into `out`, which must be exactly `SIZE` bytes.
    fn encode_into(&self, out: &mut [u8], endian: Endian) -> Result<(), Error> {
        check_length(out.len(), Self::SIZE)?;
        match endian {
            Endian::Little => self.write_packed::<LittleEndian>(out),
            Endian::Big => self.write_packed::<BigEndian>(out),
        }
        Ok(())
    }

    /// Decodes one value from exactly `SIZE` bytes.
    fn decode(bytes: &[u8], endian: Endian) -> Result<Self, Error> {
        check_length(bytes.len(), Self::SIZE)?;
        fn read<T: ZarrType, E: StaticEndian>(bytes: &[u8]) -> Result<T, Error> {
            T::check_packed::<E>(bytes).map_err(|error| error.at(0, T::SIZE))?;
            Ok(T::read_packed::<E>(bytes))
        }
        match endian {
            Endian::Little => read::<Self, LittleEndian>(bytes),
            Endian::Big => read::<Self, BigEndian>(bytes),
        }
    }

    /// Encodes a slice of values, one after another.
    fn encode_slice(values: &[Self], endian: Endian) -> Vec<u8> {
        let mut out = vec![0; values.len().saturating_mul(Self::SIZE)];
        match endian {
            Endian::Little => Self::write_packed_slice::<LittleEndian>(values, &mut out),
            Endian::Big => Self::write_packed_slice::<BigEndian>(values, &mut out),
        }
        out
    }

    /// Encodes a slice of values into `out`, which must be exactly `values.len() * SIZE` bytes.
    fn encode_slice_into(values: &[Self], out: &mut [u8], endian: Endian) -> Result<(), Error> {
        check_length(out.len(), values.len().saturating_mul(Self::SIZE))?;
        match endian {
            Endian::Little => Self::write_packed_slice::<LittleEndian>(values, out),
            Endian::Big => Self::write_packed_slice::<BigEndian>(values, out),
        }
        Ok(())
    }

    /// Decodes a chunk: every element of `bytes`, which must be a whole number of elements.
    fn decode_slice(bytes: &[u8], endian: Endian) -> Result<Vec<Self>, Error> {
        let mut out = Vec::new();
        Self::decode_slice_into(bytes, endian, &mut out)?;
        Ok(out)
    }

    /// Decodes a chunk, appending to `out` (so that its allocation can be reused). On error,
    /// `out` may hold the elements decoded before the bad one.
    fn decode_slice_into(bytes: &[u8], endian: Endian, out: &mut Vec<Self>) -> Result<(), Error> {
        if Self::SIZE == 0 || !bytes.len().is_multiple_of(Self::SIZE) {
            return Err(Error::ChunkLength {
                len: bytes.len(),
                element_size: Self::SIZE,
            });
        }
        match endian {
            Endian::Little => Self::read_packed_slice::<LittleEndian>(bytes, out),
            Endian::Big => Self::read_packed_slice::<BigEndian>(bytes, out),
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

/// Encodes `values` one by one (the path every type supports).
#[inline]
pub fn write_each<T: ZarrType, E: StaticEndian>(values: &[T], out: &mut [u8]) {
    for (value, chunk) in values.iter().zip(out.chunks_exact_mut(T::SIZE)) {
        value.write_packed::<E>(chunk);
    }
}

/// Decodes every element of `bytes` one by one, appending to `out`. Elements of types with
/// invalid encodings are validated as they are read (one pass, no branch per element); if one
/// was invalid, `out` is put back as it was and the first invalid element is found and named.
#[inline]
pub fn read_each<T: ZarrType, E: StaticEndian>(
    bytes: &[u8],
    out: &mut Vec<T>,
) -> Result<(), Error> {
    let elements = bytes.chunks_exact(T::SIZE);
    if !T::HAS_INVALID_BYTES {
        out.extend(elements.map(T::read_packed::<E>));
        return Ok(());
    }
    let start = out.len();
    let mut valid = true;
    out.extend(
        elements
            .clone()
            .map(|element| T::read_packed_validated::<E>(element, &mut valid)),
    );
    if valid {
        return Ok(());
    }
    out.truncate(start);
    for (index, element) in elements.clone().enumerate() {
        T::check_packed::<E>(element).map_err(|error| error.at(index, T::SIZE))?;
    }
    // `check_packed` is the authority: a type whose quick check refused what it accepts
    // decodes as it says.
    out.extend(elements.map(T::read_packed::<E>));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_types() {
        assert_eq!(<num_complex::Complex<f64> as ZarrType>::SIZE, 16);
        assert_eq!(<[[i16; 2]; 3]>::SIZE, 12);
        assert_eq!(
            <[f32; 3]>::data_type().to_string(),
            r#"{"name":"struct","configuration":{"fields":[{"name":"0","data_type":"float32"},{"name":"1","data_type":"float32"},{"name":"2","data_type":"float32"}]}}"#
        );
    }

    #[test]
    fn arrays_report_the_bad_index() {
        let err = <[bool; 3]>::decode(&[1, 0, 7], Endian::Little).unwrap_err();
        assert_eq!(
            err.to_string(),
            "element 0 at field `[2]`, byte offset 2: invalid bool byte 0x07 (must be 0x00 or 0x01)"
        );
    }

    #[test]
    fn an_array_has_one_value_shape_in_every_format() {
        let grid = [[1i16, 2], [3, 4], [5, 6]];
        let value = grid.to_value();
        let array = value.as_subarray().unwrap();
        assert_eq!(array.shape(), [3, 2]);
        assert_eq!(array.as_slice::<i16>(), Some(&[1, 2, 3, 4, 5, 6][..]));
        let stored = <[[i16; 2]; 3]>::layout(Endian::Big);
        assert_eq!(
            stored.decode_value(&grid.encode(Endian::Big)).unwrap(),
            value
        );
        let v3 = <[[i16; 2]; 3]>::data_type();
        let json = v3.fill_value_to_v3_json(&value).unwrap();
        assert_eq!(
            json.to_string(),
            r#"{"0":{"0":1,"1":2},"1":{"0":3,"1":4},"2":{"0":5,"1":6}}"#
        );
        assert_eq!(v3.fill_value_from_v3_json(&json, None).unwrap(), value);
        assert_eq!(<[[i16; 2]; 3]>::from_value(&value).unwrap(), grid);
        let v2 = stored.fill_value_to_v2_json(Some(&value)).unwrap();
        assert_eq!(stored.fill_value_from_v2_json(&v2).unwrap(), Some(value));
    }
}
