//! [`ZarrType`] for Rust arrays `[T; N]`.

use std::borrow::Cow;

use super::ZarrType;
use crate::endian::StaticEndian;
use crate::{DecodeError, SubarrayValue, TypeDescriptor, Value};

/// Refuses `[T; 0]` when the program is built, as evaluating its `TYPE` (and so `SIZE`) does:
/// called by the methods that reach neither, so that no use of a zero-length array compiles.
#[inline(always)]
const fn refuse_zero_length<const N: usize>() {
    const { assert!(N > 0, "zero-length arrays have no Zarr type") };
}

/// `[T; N]`: `N` elements one after another. In Zarr v2 a subarray field; in Zarr v3 a struct
/// with fields `"0"`…`"N-1"` (see the crate documentation). Its value is a [`Value::Subarray`]
/// in every format.
impl<T: ZarrType, const N: usize> ZarrType for [T; N] {
    const TYPE: TypeDescriptor = TypeDescriptor::subarray(&T::TYPE, N);
    const NATIVE_LAYOUT: bool = T::NATIVE_LAYOUT;
    const HAS_INVALID_BYTES: bool = T::HAS_INVALID_BYTES;

    #[inline]
    fn write_packed<E: StaticEndian>(&self, out: &mut [u8]) {
        T::write_packed_slice::<E>(self, &mut out[..Self::SIZE]);
    }

    #[inline]
    fn check_packed<E: StaticEndian>(bytes: &[u8]) -> Result<(), DecodeError> {
        refuse_zero_length::<N>();
        if T::HAS_INVALID_BYTES {
            for index in 0..N {
                T::check_packed::<E>(&bytes[index * T::SIZE..])
                    .map_err(|error| error.in_element(index, T::SIZE))?;
            }
        }
        Ok(())
    }

    #[inline]
    fn read_packed<E: StaticEndian>(bytes: &[u8]) -> Self {
        refuse_zero_length::<N>();
        std::array::from_fn(|index| T::read_packed::<E>(&bytes[index * T::SIZE..]))
    }

    #[inline]
    fn packed_is_valid<E: StaticEndian>(bytes: &[u8]) -> bool {
        refuse_zero_length::<N>();
        (0..N).fold(true, |valid, index| {
            valid & T::packed_is_valid::<E>(&bytes[index * T::SIZE..])
        })
    }

    #[inline]
    fn read_packed_validated<E: StaticEndian>(bytes: &[u8], valid: &mut bool) -> Self {
        refuse_zero_length::<N>();
        std::array::from_fn(|index| T::read_packed_validated::<E>(&bytes[index * T::SIZE..], valid))
    }

    fn to_value(&self) -> Value {
        refuse_zero_length::<N>();
        let mut shape = vec![N];
        let mut items = Vec::with_capacity(N);
        for item in self {
            match item.to_value() {
                // An array of arrays is one array of more dimensions, as in its layout.
                Value::Subarray(inner) => {
                    if shape.len() == 1 {
                        shape.extend_from_slice(inner.shape());
                    }
                    items.extend(inner.iter().map(Cow::into_owned));
                }
                other => items.push(other),
            }
        }
        let count = items.len();
        SubarrayValue::new(shape, items)
            .unwrap_or_else(|_| unreachable!("[T; N] has N items of one shape, {count} in all"))
            .into()
    }
}
