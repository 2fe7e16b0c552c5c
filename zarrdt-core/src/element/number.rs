//! [`ZarrType`] for `bool`, the integers, the floats and the complex numbers.

use half::f16;
use num_complex::Complex;
use zerocopy::IntoBytes;

use super::{ZarrType, write_each};
use crate::codec::primitive::Primitive;
use crate::codec::scalar::bool_from_byte;
use crate::endian::StaticEndian;
use crate::{DecodeError, Error, FieldPath, ScalarType, TypeDescriptor, Value};

/// The error for a [`Value`] of the wrong kind.
fn value_mismatch(expected: ScalarType, found: &Value) -> Error {
    Error::ValueMismatch {
        path: FieldPath::root(),
        data_type: expected.name(),
        reason: found.found(),
    }
}

/// Numbers: one `memcpy` per slice in native order, a byte-swapping loop otherwise.
macro_rules! number {
    ($($ty:ty => $scalar:ident;)*) => {$(
        impl ZarrType for $ty {
            const TYPE: TypeDescriptor = TypeDescriptor::scalar(ScalarType::$scalar);
            const NATIVE_LAYOUT: bool = true;

            #[inline]
            fn write_packed<E: StaticEndian>(&self, out: &mut [u8]) {
                Primitive::write::<E>(*self, out);
            }

            #[inline]
            fn read_packed<E: StaticEndian>(bytes: &[u8]) -> Self {
                <$ty as Primitive>::read::<E>(bytes)
            }

            fn to_value(&self) -> Value {
                Value::$scalar(*self)
            }

            fn from_value(value: &Value) -> Result<Self, Error> {
                match value {
                    Value::$scalar(v) => Ok(*v),
                    other => Err(value_mismatch(ScalarType::$scalar, other)),
                }
            }

            fn write_packed_slice<E: StaticEndian>(values: &[Self], out: &mut [u8]) {
                if E::IS_NATIVE {
                    out.copy_from_slice(values.as_bytes());
                } else {
                    write_each::<Self, E>(values, out);
                }
            }

            fn read_packed_slice<E: StaticEndian>(bytes: &[u8], out: &mut Vec<Self>) -> Result<(), Error> {
                let start = out.len();
                out.resize(start + bytes.len() / <Self as ZarrType>::SIZE, <$ty>::default());
                let target = &mut out[start..];
                if E::IS_NATIVE {
                    target.as_mut_bytes().copy_from_slice(bytes);
                } else {
                    for (value, chunk) in target.iter_mut().zip(bytes.chunks_exact(<Self as ZarrType>::SIZE)) {
                        *value = <$ty as Primitive>::read::<E>(chunk);
                    }
                }
                Ok(())
            }
        }
    )*};
}

number! {
    i8 => Int8;
    i16 => Int16;
    i32 => Int32;
    i64 => Int64;
    u8 => UInt8;
    u16 => UInt16;
    u32 => UInt32;
    u64 => UInt64;
    f16 => Float16;
    f32 => Float32;
    f64 => Float64;
}

impl ZarrType for bool {
    const TYPE: TypeDescriptor = TypeDescriptor::scalar(ScalarType::Bool);
    const NATIVE_LAYOUT: bool = true;

    #[inline]
    fn write_packed<E: StaticEndian>(&self, out: &mut [u8]) {
        out[0] = u8::from(*self);
    }

    const HAS_INVALID_BYTES: bool = true;

    #[inline]
    fn check_packed<E: StaticEndian>(bytes: &[u8]) -> Result<(), DecodeError> {
        bool_from_byte(bytes[0]).map(drop).map_err(DecodeError::new)
    }

    #[inline]
    fn read_packed<E: StaticEndian>(bytes: &[u8]) -> Self {
        bytes[0] != 0
    }

    #[inline]
    fn packed_is_valid<E: StaticEndian>(bytes: &[u8]) -> bool {
        bytes[0] <= 1
    }

    #[inline]
    fn read_packed_validated<E: StaticEndian>(bytes: &[u8], valid: &mut bool) -> Self {
        // One match for the value and its validity, as the enum derive writes it; compare
        // `decode_native` of record A in `benches/codec.rs` before changing it.
        let value = match bytes[0] {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        };
        *valid &= value.is_some();
        value.unwrap_or(false)
    }

    fn to_value(&self) -> Value {
        Value::Bool(*self)
    }

    fn from_value(value: &Value) -> Result<Self, Error> {
        match value {
            Value::Bool(v) => Ok(*v),
            other => Err(value_mismatch(ScalarType::Bool, other)),
        }
    }

    fn write_packed_slice<E: StaticEndian>(values: &[Self], out: &mut [u8]) {
        out.copy_from_slice(values.as_bytes());
    }

    fn read_packed_slice<E: StaticEndian>(bytes: &[u8], out: &mut Vec<Self>) -> Result<(), Error> {
        if let Some(index) = bytes.iter().position(|&byte| byte > 1) {
            return Err(
                DecodeError::new(crate::ElementFault::InvalidBool(bytes[index])).at(index, 1),
            );
        }
        out.extend(bytes.iter().map(|&byte| byte == 1));
        Ok(())
    }
}

/// Complex numbers: real part, then imaginary part, each in the byte order.
macro_rules! complex {
    ($($part:ty => $scalar:ident;)*) => {$(
        impl ZarrType for Complex<$part> {
            const TYPE: TypeDescriptor = TypeDescriptor::scalar(ScalarType::$scalar);
            // num-complex makes `Complex` `#[repr(C)]` { re, im } with no padding.
            const NATIVE_LAYOUT: bool = true;

            #[inline]
            fn write_packed<E: StaticEndian>(&self, out: &mut [u8]) {
                Primitive::write::<E>(*self, out);
            }

            #[inline]
            fn read_packed<E: StaticEndian>(bytes: &[u8]) -> Self {
                <Complex<$part> as Primitive>::read::<E>(bytes)
            }

            fn to_value(&self) -> Value {
                Value::$scalar(*self)
            }

            fn from_value(value: &Value) -> Result<Self, Error> {
                match value {
                    Value::$scalar(v) => Ok(*v),
                    other => Err(value_mismatch(ScalarType::$scalar, other)),
                }
            }
        }
    )*};
}

complex! {
    f32 => Complex64;
    f64 => Complex128;
}
