//! Numbers between native values and their bytes in a byte order known at compile time: the one
//! implementation both the static ([`Element`](crate::Element)) and the dynamic codecs use.

use half::f16;
use num_complex::Complex;

use crate::endian::StaticEndian;

/// A fixed-size number whose bytes are reversed between byte orders (complex numbers: each
/// half separately).
pub(crate) trait Primitive: Copy + Default {
    /// Size in bytes.
    const SIZE: usize;

    /// Reads the value from the first `SIZE` bytes, in byte order `E`.
    fn read<E: StaticEndian>(bytes: &[u8]) -> Self;

    /// Writes the value into the first `SIZE` bytes of `out`, in byte order `E`.
    fn write<E: StaticEndian>(self, out: &mut [u8]);
}

/// Reads `N` bytes from the front of `bytes` in byte order `E`, as native-order bytes.
#[inline(always)]
fn read_ordered<E: StaticEndian, const N: usize>(bytes: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(&bytes[..N]);
    if !E::IS_NATIVE {
        out.reverse();
    }
    out
}

/// Writes native-order bytes to the front of `out` in byte order `E`.
#[inline(always)]
fn write_ordered<E: StaticEndian, const N: usize>(mut native: [u8; N], out: &mut [u8]) {
    if !E::IS_NATIVE {
        native.reverse();
    }
    out[..N].copy_from_slice(&native);
}

macro_rules! numbers {
    ($($ty:ty),*) => {$(
        impl Primitive for $ty {
            const SIZE: usize = size_of::<$ty>();

            #[inline(always)]
            fn read<E: StaticEndian>(bytes: &[u8]) -> Self {
                <$ty>::from_ne_bytes(read_ordered::<E, { size_of::<$ty>() }>(bytes))
            }

            #[inline(always)]
            fn write<E: StaticEndian>(self, out: &mut [u8]) {
                write_ordered::<E, { size_of::<$ty>() }>(self.to_ne_bytes(), out);
            }
        }
    )*};
}

numbers!(i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64);

impl<T: Primitive> Primitive for Complex<T> {
    const SIZE: usize = 2 * T::SIZE;

    #[inline(always)]
    fn read<E: StaticEndian>(bytes: &[u8]) -> Self {
        Complex::new(T::read::<E>(bytes), T::read::<E>(&bytes[T::SIZE..]))
    }

    #[inline(always)]
    fn write<E: StaticEndian>(self, out: &mut [u8]) {
        self.re.write::<E>(out);
        self.im.write::<E>(&mut out[T::SIZE..]);
    }
}
