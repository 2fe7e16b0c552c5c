//! Support for the code `#[derive(ZarrStruct)]` generates. Not public API: it changes without
//! notice, in lockstep with the derive (the facade pins both to the same version).

pub use core::default::Default;
pub use core::marker::PhantomData;
pub use core::mem::{offset_of, size_of};
pub use core::option::Option::{self, None, Some};
pub use core::primitive::{bool, i8, i16, i32, i64, i128, u8, u16, u32, u64, usize};
pub use core::result::Result::{self, Err, Ok};
pub use core::{assert, unreachable};
pub use std::vec::Vec;
pub use zerocopy;

pub use crate::element::{read_each, write_each};
pub use crate::endian::StaticEndian;
pub use crate::{
    DecodeError, EnumDescriptor, EnumVariant, Error, FieldDescriptor, ScalarType, TypeDescriptor,
    Value, ZarrStruct, ZarrType,
};

use zerocopy::{FromBytes, Immutable, IntoBytes, TryFromBytes};

/// Where the zarrs integration implements zarrs' element traits for a derived type; without
/// it (this crate alone, or `zarrdt` without its `zarrs` feature), nothing.
#[doc(hidden)]
#[macro_export]
macro_rules! __no_zarrs_element {
    ($($tokens:tt)*) => {};
}

pub use crate::__no_zarrs_element as zarrs_element;

/// What `#[zarr(single_copy)]` asks of a struct on top of its layout checks: zerocopy's word
/// that a slice of it is plain bytes, read and written in one copy.
#[diagnostic::on_unimplemented(
    message = "#[zarr(single_copy)]: `{Self}` is not plain bytes to zerocopy",
    label = "a single-copy record needs zerocopy's IntoBytes, TryFromBytes and Immutable",
    note = "add #[repr(C)] and #[derive(zerocopy::IntoBytes, zerocopy::TryFromBytes, zerocopy::Immutable)] (or FromBytes when every bit pattern is valid)"
)]
///
/// Its supertraits let the code generated for a generic single-copy struct, which requires
/// `Self: SingleCopy`, take the one-copy paths (the probes below) in generic code.
pub trait SingleCopy: IntoBytes + TryFromBytes + Immutable {}

impl<T: IntoBytes + TryFromBytes + Immutable> SingleCopy for T {}

/// Compiles only if `T` is [`SingleCopy`]: the check of a single-copy struct whose layout is
/// known where it is defined (an error there naming `T`, with the message above).
pub const fn assert_single_copy<T: SingleCopy>() {}

/// Whether every one of `conditions` holds (a loop, so that a struct of thousands of fields
/// does not become an expression thousands of operators deep).
pub const fn all(conditions: &[bool]) -> bool {
    let mut index = 0;
    while index < conditions.len() {
        if !conditions[index] {
            return false;
        }
        index += 1;
    }
    true
}

/// Whether any of `conditions` holds.
pub const fn any(conditions: &[bool]) -> bool {
    let mut index = 0;
    while index < conditions.len() {
        if conditions[index] {
            return true;
        }
        index += 1;
    }
    false
}

/// A record from `(name, value)` pairs.
pub fn record<const N: usize>(fields: [(&'static str, Value); N]) -> Value {
    Value::Record(fields.into_iter().collect())
}

/// The values of the fields `names` of `value`, a record of the struct `type_name`: each once,
/// no others (checked in linear time), or the error naming the field that is missing, unknown
/// or repeated.
pub fn record_fields<'v, const N: usize>(
    value: &'v Value,
    names: [&'static str; N],
    type_name: &str,
) -> Result<[&'v Value; N], Error> {
    let Value::Record(record) = value else {
        return Err(Error::ValueMismatch {
            path: crate::FieldPath::root(),
            data_type: type_name.to_owned(),
            reason: value.found(),
        });
    };
    let values = record
        .values_for(names.iter().copied())
        .map_err(|problem| {
            let (name, reason) = problem.describe();
            Error::ValueMismatch {
                path: crate::FieldPath::root().field(name),
                data_type: type_name.to_owned(),
                reason: reason.into(),
            }
        })?;
    let count = values.len();
    values
        .try_into()
        .map_err(|_| unreachable!("values_for gives one value per name, {count} for {N}"))
}

/// The descriptor of a Rust enum (`#[derive(ZarrEnum)]`): [`EnumDescriptor::new`] without
/// the check for repeated values, which rustc makes itself (an error of its own is enough).
pub const fn rust_enum<const N: usize>(
    name: &'static str,
    integer: ScalarType,
    variants: &'static [EnumVariant; N],
) -> EnumDescriptor {
    EnumDescriptor::build(name, integer, variants, false)
}

/// The decoding error for `value`, an integer that is no variant of `enumeration`.
#[cold]
pub fn invalid_variant(
    value: impl Into<i128>,
    enumeration: &'static EnumDescriptor,
) -> DecodeError {
    DecodeError::new(crate::ElementFault::InvalidEnum {
        value: value.into(),
        enumeration: enumeration.to_string(),
    })
}

/// The error of `from_value` for `value`, an integer that is no variant of `enumeration`.
#[cold]
pub fn variant_mismatch(value: impl Into<i128>, enumeration: &'static EnumDescriptor) -> Error {
    Error::ValueMismatch {
        path: crate::FieldPath::root(),
        data_type: enumeration.integer().name(),
        reason: format!("{} is no variant of enum {enumeration}", value.into()),
    }
}

/// The value of a field the derive leaves out of the record because its type is written
/// `PhantomData<..>`: implemented only by `core::marker::PhantomData`, so that a type of the
/// user's own with that name, imported by `use`, is an error on the field's type rather than a
/// field silently not stored.
#[diagnostic::on_unimplemented(
    message = "the field type `{Self}` is written `PhantomData` but is not `core::marker::PhantomData`",
    label = "`#[derive(ZarrStruct)]` leaves fields written `PhantomData` out of the record",
    note = "to store a type of your own named `PhantomData`, write it with a module path, such as `self::PhantomData<..>`"
)]
pub trait PhantomMarker {
    /// The marker.
    const MARKER: Self;
}

impl<T: ?Sized> PhantomMarker for PhantomData<T> {
    const MARKER: Self = PhantomData;
}

/// `error` seen from the struct holding field `name`.
pub fn within_field(error: Error, name: &str) -> Error {
    error.within(crate::PathSegment::Field(name.to_owned()))
}

/// Chooses, at compile time and for concrete types, the fastest way to copy records whose
/// memory layout is their native-order packed encoding: by which of the traits below applies
/// to `&Probe<T>`, `&&Probe<T>`… ("autoref specialisation"). In generic code the fallback is
/// always chosen.
pub struct Probe<T>(PhantomData<T>);

impl<T> Probe<T> {
    /// The probe for `T`.
    pub const NEW: Self = Probe(PhantomData);
}

/// Tier 1 of encoding: `T` is plain bytes (`IntoBytes`), so a slice of it is copied at once.
///
/// Method lookup on `&Probe<T>` tries impls for `Probe<T>` first, then `&Probe<T>`.
pub trait EncodeBytes<T> {
    /// Copies `values` into `out`; `true` if done.
    fn write_native(&self, values: &[T], out: &mut [u8]) -> bool;
}

impl<T: IntoBytes + Immutable> EncodeBytes<T> for Probe<T> {
    #[inline]
    fn write_native(&self, values: &[T], out: &mut [u8]) -> bool {
        out.copy_from_slice(values.as_bytes());
        true
    }
}

/// Fallback of encoding: nothing to do fast.
pub trait EncodeFallback<T> {
    /// Always `false`.
    fn write_native(&self, values: &[T], out: &mut [u8]) -> bool;
}

impl<T> EncodeFallback<T> for &Probe<T> {
    #[inline]
    fn write_native(&self, _: &[T], _: &mut [u8]) -> bool {
        false
    }
}

/// Tier 1 of decoding: any bytes are a valid `T` (`FromBytes`) and `T` is `Copy`, so the
/// records of an aligned chunk are appended with one bulk copy (`memcpy`, which beyond the
/// cache writes without reading the destination first, as a copy per record cannot).
///
/// Method lookup on `&&&Probe<T>` tries impls for `&&Probe<T>` first, then `&&&Probe<T>`,
/// then `&Probe<T>`, then `Probe<T>`, so the tiers are implemented for those, in that order.
pub trait DecodeCopy<T> {
    /// Appends the records of `bytes` to `out`; `true` if done.
    fn read_native(&self, bytes: &[u8], out: &mut Vec<T>) -> bool;
}

impl<T: FromBytes + IntoBytes + Immutable + Copy> DecodeCopy<T> for &&Probe<T> {
    #[inline]
    fn read_native(&self, bytes: &[u8], out: &mut Vec<T>) -> bool {
        match <[T]>::ref_from_bytes(bytes) {
            Ok(records) => {
                out.extend_from_slice(records);
                true
            }
            // Bytes not aligned for `T`: a copy per record.
            Err(_) => {
                copy_each(bytes, out);
                true
            }
        }
    }
}

/// Tier 2 of decoding: any bytes are a valid `T` (`FromBytes`), so each record of a chunk is
/// copied without checks.
pub trait DecodeBytes<T> {
    /// Appends the records of `bytes` to `out`; `true` if done.
    fn read_native(&self, bytes: &[u8], out: &mut Vec<T>) -> bool;
}

impl<T: FromBytes + IntoBytes> DecodeBytes<T> for &&&Probe<T> {
    #[inline]
    fn read_native(&self, bytes: &[u8], out: &mut Vec<T>) -> bool {
        copy_each(bytes, out);
        true
    }
}

/// Appends the records of `bytes` to `out`, each copied straight into the vector's spare
/// capacity (no zeroing first); the zero value stands in only for a short read, which whole
/// chunks never have.
#[inline]
fn copy_each<T: FromBytes>(bytes: &[u8], out: &mut Vec<T>) {
    out.extend(
        bytes
            .chunks_exact(size_of::<T>().max(1))
            .map(|record| T::read_from_bytes(record).unwrap_or_else(|_| T::new_zeroed())),
    );
}

/// Tier 3 of decoding: some bytes are invalid (`bool` fields), so each record is validated
/// and copied by zerocopy; on an invalid record the caller's field-by-field path reports it.
pub trait DecodeValidated<T> {
    /// Appends the records of `bytes` to `out`; `false` (and `out` unchanged) if one is
    /// invalid.
    fn read_native(&self, bytes: &[u8], out: &mut Vec<T>) -> bool;
}

impl<T: TryFromBytes + Immutable> DecodeValidated<T> for &Probe<T> {
    #[inline]
    fn read_native(&self, bytes: &[u8], out: &mut Vec<T>) -> bool {
        let start = out.len();
        let size = size_of::<T>().max(1);
        out.reserve(bytes.len() / size);
        for chunk in bytes.chunks_exact(size) {
            match T::try_read_from_bytes(chunk) {
                Ok(value) => out.push(value),
                Err(_) => {
                    out.truncate(start);
                    return false;
                }
            }
        }
        true
    }
}

/// Fallback of decoding: nothing to do fast.
pub trait DecodeFallback<T> {
    /// Always `false`.
    fn read_native(&self, bytes: &[u8], out: &mut Vec<T>) -> bool;
}

impl<T> DecodeFallback<T> for Probe<T> {
    #[inline]
    fn read_native(&self, _: &[u8], _: &mut Vec<T>) -> bool {
        false
    }
}
