//! zarrs' element traits for Rust record types: what the impls `#[derive(ZarrStruct)]`
//! generates call, and the macro that generates them.

use std::borrow::Cow;

use zarrdt_core::{Endian, ZarrType};
use zarrs::array::{ArrayBytes, DataType, ElementError};

use crate::record::check_type;

/// Checks that `data_type`, an array's, stores `T`: same fields, names, types and offsets (a
/// Zarr v2 array's byte orders may be any); the error names the first field that differs.
pub fn validate<T: ZarrType>(data_type: &DataType) -> Result<(), ElementError> {
    check_type::<T>(data_type).map_err(|error| ElementError::Other(error.to_string()))
}

/// The array bytes of `elements`: packed, native byte order, as zarrs' codecs take them.
pub fn to_array_bytes<T: ZarrType>(
    data_type: &DataType,
    elements: &[T],
) -> Result<ArrayBytes<'static>, ElementError> {
    validate::<T>(data_type)?;
    Ok(ArrayBytes::new_flen(T::encode_slice(
        elements,
        Endian::NATIVE,
    )))
}

/// The records of `bytes`, array bytes of `data_type` in native byte order.
pub fn from_array_bytes<T: ZarrType>(
    data_type: &DataType,
    bytes: ArrayBytes<'_>,
) -> Result<Vec<T>, ElementError> {
    validate::<T>(data_type)?;
    let bytes: Cow<'_, [u8]> = bytes.into_fixed()?;
    T::decode_slice(&bytes, Endian::NATIVE).map_err(|error| ElementError::Other(error.to_string()))
}

/// Implements zarrs' `Element` and `ElementOwned` for a `#[derive(ZarrStruct)]` type, so that
/// `array.store_array_subset(&subset, &records)` and
/// `array.retrieve_array_subset::<Vec<T>>(&subset)` work. The derive calls it through
/// `zarrdt::__private`; zarrs requires `Clone`, so the impls apply when the type is `Clone`.
/// Its two lifetimes are given by the derive, named apart from the type's own parameters.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_zarrs_element {
    (
        impl [$($generics:tt)*] $ty:ty where [$($bounds:tt)*]
        lifetimes [$bytes:lifetime, $clone:lifetime]
    ) => {
        #[automatically_derived]
        impl $($generics)* $crate::zarrs::array::Element for $ty
        where
            for<$clone> $ty: ::core::clone::Clone,
            $($bounds)*
        {
            fn validate_data_type(
                data_type: &$crate::zarrs::array::DataType,
            ) -> ::core::result::Result<(), $crate::zarrs::array::ElementError> {
                $crate::element::validate::<Self>(data_type)
            }

            fn to_array_bytes<$bytes>(
                data_type: &$crate::zarrs::array::DataType,
                elements: &$bytes [Self],
            ) -> ::core::result::Result<
                $crate::zarrs::array::ArrayBytes<$bytes>,
                $crate::zarrs::array::ElementError,
            > {
                $crate::element::to_array_bytes(data_type, elements)
            }

            fn into_array_bytes(
                data_type: &$crate::zarrs::array::DataType,
                elements: ::std::vec::Vec<Self>,
            ) -> ::core::result::Result<
                $crate::zarrs::array::ArrayBytes<'static>,
                $crate::zarrs::array::ElementError,
            > {
                $crate::element::to_array_bytes(data_type, &elements)
            }
        }

        #[automatically_derived]
        impl $($generics)* $crate::zarrs::array::ElementOwned for $ty
        where
            for<$clone> $ty: ::core::clone::Clone,
            $($bounds)*
        {
            fn from_array_bytes(
                data_type: &$crate::zarrs::array::DataType,
                bytes: $crate::zarrs::array::ArrayBytes<'_>,
            ) -> ::core::result::Result<::std::vec::Vec<Self>, $crate::zarrs::array::ElementError>
            {
                $crate::element::from_array_bytes(data_type, bytes)
            }
        }
    };
}
