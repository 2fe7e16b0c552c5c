//! Equality of stored data, floats compared by their bits.

use half::f16;
use num_complex::Complex;

/// Equality of stored data: floats by their bits.
pub(super) trait SameBits {
    fn same_bits(&self, other: &Self) -> bool;
}

macro_rules! same_bits_by_eq {
    ($($ty:ty),*) => {$(
        impl SameBits for $ty {
            fn same_bits(&self, other: &Self) -> bool {
                self == other
            }
        }
    )*};
}

same_bits_by_eq!(bool, i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! same_bits_of_float {
    ($($ty:ty),*) => {$(
        impl SameBits for $ty {
            fn same_bits(&self, other: &Self) -> bool {
                self.to_bits() == other.to_bits()
            }
        }
    )*};
}

same_bits_of_float!(f16, f32, f64);

impl<T: SameBits> SameBits for Complex<T> {
    fn same_bits(&self, other: &Self) -> bool {
        self.re.same_bits(&other.re) && self.im.same_bits(&other.im)
    }
}
