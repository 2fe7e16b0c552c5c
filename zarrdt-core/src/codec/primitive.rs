//! Numbers between native values and their bytes in a byte order known at compile time: the one
//! implementation both the static ([`ZarrType`](crate::ZarrType)) and the dynamic codecs use.

use half::f16;
use num_complex::Complex;

use crate::Endian;
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

/// The first `N` bytes of `bytes`.
#[inline(always)]
fn front<const N: usize>(bytes: &[u8]) -> [u8; N] {
    let mut front = [0u8; N];
    front.copy_from_slice(&bytes[..N]);
    front
}

// The standard `from_le_bytes`/`to_be_bytes`… are what the compiler knows best: single loads
// and stores with a byte swap, vectorised in loops.
macro_rules! numbers {
    ($($ty:ty),*) => {$(
        impl Primitive for $ty {
            const SIZE: usize = size_of::<$ty>();

            #[inline(always)]
            fn read<E: StaticEndian>(bytes: &[u8]) -> Self {
                let bytes = front::<{ size_of::<$ty>() }>(bytes);
                match E::ENDIAN {
                    Endian::Little => <$ty>::from_le_bytes(bytes),
                    Endian::Big => <$ty>::from_be_bytes(bytes),
                }
            }

            #[inline(always)]
            fn write<E: StaticEndian>(self, out: &mut [u8]) {
                let bytes = match E::ENDIAN {
                    Endian::Little => self.to_le_bytes(),
                    Endian::Big => self.to_be_bytes(),
                };
                out[..size_of::<$ty>()].copy_from_slice(&bytes);
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
