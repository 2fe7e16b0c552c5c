//! Fixed-width numbers read from and written to record bytes, in the machine's byte order or
//! swapped, and gathered into (or scattered from) a column in one tight loop.

use zarrdt_core::half::f16;

use crate::positions::Positions;

/// A number Arrow keeps in a column, read and written as bytes.
pub(crate) trait Native: Copy + Default + Send + Sync + 'static {
    /// Reads one from the start of `bytes` (which holds at least `WIDTH` bytes).
    fn read<const SWAP: bool>(bytes: &[u8]) -> Self;
    /// Writes it at the start of `out` (which holds at least `WIDTH` bytes).
    fn write<const SWAP: bool>(self, out: &mut [u8]);

    /// Reads one at byte `at` of `record`.
    #[inline(always)]
    fn read_at<const SWAP: bool>(record: &[u8], at: usize) -> Self {
        match record.get(at..at + size_of::<Self>()) {
            Some(bytes) => Self::read::<SWAP>(bytes),
            None => Self::default(),
        }
    }
}

macro_rules! native_int {
    ($($t:ty),*) => {$(
        impl Native for $t {
            #[inline(always)]
            fn read<const SWAP: bool>(bytes: &[u8]) -> Self {
                let value = match bytes.first_chunk() {
                    Some(chunk) => <$t>::from_ne_bytes(*chunk),
                    None => 0,
                };
                if SWAP { value.swap_bytes() } else { value }
            }
            #[inline(always)]
            fn write<const SWAP: bool>(self, out: &mut [u8]) {
                let value = if SWAP { self.swap_bytes() } else { self };
                if let Some(chunk) = out.first_chunk_mut() {
                    *chunk = value.to_ne_bytes();
                }
            }
        }
    )*};
}

native_int!(u8, u16, u32, u64, i8, i16, i32, i64);

macro_rules! native_float {
    ($($t:ty => $bits:ty),*) => {$(
        impl Native for $t {
            #[inline(always)]
            fn read<const SWAP: bool>(bytes: &[u8]) -> Self {
                <$t>::from_bits(<$bits>::read::<SWAP>(bytes))
            }
            #[inline(always)]
            fn write<const SWAP: bool>(self, out: &mut [u8]) {
                self.to_bits().write::<SWAP>(out);
            }
        }
    )*};
}

native_float!(f16 => u16, f32 => u32, f64 => u64);

/// The values of a leaf at `offset` at every one of `positions` in `bytes`.
#[cfg(test)]
pub(crate) fn gather<T: Native>(
    bytes: &[u8],
    offset: usize,
    positions: &Positions,
    swap: bool,
) -> Vec<T> {
    let mut out = Vec::new();
    gather_into(&mut out, bytes, offset, positions, swap);
    out
}

/// Appends to `out` the values of a leaf at `offset` at every one of `positions` in `bytes`.
pub(crate) fn gather_into<T: Native>(
    out: &mut Vec<T>,
    bytes: &[u8],
    offset: usize,
    positions: &Positions,
    swap: bool,
) {
    if swap {
        gather_in::<T, true>(out, bytes, offset, positions);
    } else {
        gather_in::<T, false>(out, bytes, offset, positions);
    }
}

fn gather_in<T: Native, const SWAP: bool>(
    out: &mut Vec<T>,
    bytes: &[u8],
    offset: usize,
    positions: &Positions,
) {
    let count = positions.len();
    out.reserve(count);
    if let Some((first, stride)) = positions.simple(offset) {
        // Whole records, each holding the value at the same place.
        out.extend(
            bytes
                .chunks_exact(stride)
                .take(count)
                .map(|record| T::read_at::<SWAP>(record, first)),
        );
    } else if let Some((first, stride, items, step)) = positions.nested(offset) {
        // A subarray of scalars in each record: its items one after another.
        // The last record's run starts `first` bytes into it: it may end before the record
        // does, so only the bytes up to its last value are taken.
        let span = run_span::<T>(items, step);
        let from = bytes.get(first..).unwrap_or_default();
        for record in from.chunks(stride).take(count / items.max(1)) {
            let run = record.get(..span).unwrap_or_default();
            out.extend(run.chunks(step).map(|item| T::read::<SWAP>(item)));
        }
    } else {
        positions.for_each(offset, &mut |at| {
            out.push(T::read::<SWAP>(bytes.get(at..).unwrap_or_default()));
        });
    }
}

/// Writes `values` to a leaf at `offset` at every one of `positions` in `out`.
/// The bytes from a subarray's first value to the end of its last: `items` values of `T`,
/// `step` bytes apart (less than `items * step` when a value is smaller than the step, as a
/// field inside a struct item is).
fn run_span<T>(items: usize, step: usize) -> usize {
    match items {
        0 => 0,
        _ => (items - 1) * step + size_of::<T>(),
    }
}

pub(crate) fn scatter<T: Native>(
    values: &[T],
    out: &mut [u8],
    offset: usize,
    positions: &Positions,
    swap: bool,
) {
    if swap {
        scatter_in::<T, true>(values, out, offset, positions);
    } else {
        scatter_in::<T, false>(values, out, offset, positions);
    }
}

fn scatter_in<T: Native, const SWAP: bool>(
    values: &[T],
    out: &mut [u8],
    offset: usize,
    positions: &Positions,
) {
    if let Some((first, stride)) = positions.simple(offset) {
        let Some(to) = out.get_mut(first..) else {
            return;
        };
        for (record, value) in to.chunks_mut(stride).zip(values) {
            value.write::<SWAP>(record);
        }
    } else if let Some((first, stride, items, step)) = positions.nested(offset) {
        let Some(to) = out.get_mut(first..) else {
            return;
        };
        let span = run_span::<T>(items, step);
        for (record, values) in to.chunks_mut(stride).zip(values.chunks(items.max(1))) {
            let run = record.get_mut(..span).unwrap_or_default();
            for (item, value) in run.chunks_mut(step).zip(values) {
                value.write::<SWAP>(item);
            }
        }
    } else {
        let mut values = values.iter();
        positions.for_each(offset, &mut |at| {
            if let (Some(value), Some(to)) = (values.next(), out.get_mut(at..)) {
                value.write::<SWAP>(to);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gathers_and_scatters_both_orders() {
        let bytes: Vec<u8> = (0u8..24).collect();
        let positions = Positions::records(3, 8);
        let plain: Vec<u16> = gather(&bytes, 2, &positions, false);
        assert_eq!(
            plain,
            [
                u16::from_ne_bytes([2, 3]),
                u16::from_ne_bytes([10, 11]),
                u16::from_ne_bytes([18, 19])
            ]
        );
        let swapped: Vec<u16> = gather(&bytes, 2, &positions, true);
        assert_eq!(swapped[1], u16::from_ne_bytes([11, 10]));
        let mut out = vec![0u8; 24];
        scatter(&swapped, &mut out, 2, &positions, true);
        assert_eq!(&out[10..12], &[10, 11]);
        let nested = positions.within(2, 2);
        let items: Vec<u8> = gather(&bytes, 0, &nested, false);
        assert_eq!(items, [0, 2, 8, 10, 16, 18]);
        let pairs: Vec<u16> = gather(&bytes, 4, &nested, true);
        assert_eq!(pairs[3], u16::from_ne_bytes([15, 14]));
        let mut out = vec![0u8; 24];
        scatter(&pairs, &mut out, 4, &nested, true);
        assert_eq!(&out[12..16], &bytes[12..16]);
        assert_eq!(&out[8..12], &[0; 4]);
        // Three levels: each record holds 2 x 2 items.
        let deep = positions.within(2, 4).within(2, 1);
        let bytes_of: Vec<u8> = gather(&bytes, 0, &deep, false);
        assert_eq!(bytes_of, [0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21]);
    }

    #[test]
    fn a_field_of_struct_items_reaches_the_last_record() {
        // Records of 8 bytes: a subarray of 2 items of 4 bytes, each item {a: u16, b: u16};
        // `b` sits 2 bytes into each item, so the last record's run ends before the record.
        let bytes: Vec<u8> = (0u8..24).collect();
        let b_of_items = Positions::records(3, 8).within(2, 4);
        let b: Vec<u16> = gather(&bytes, 2, &b_of_items, false);
        let expected: Vec<u16> = [2u8, 6, 10, 14, 18, 22]
            .iter()
            .map(|&at| u16::from_ne_bytes([at, at + 1]))
            .collect();
        assert_eq!(b, expected);
        let mut out = vec![0u8; 24];
        scatter(&b, &mut out, 2, &b_of_items, false);
        for record in 0..3 {
            for item in 0..2 {
                let at = record * 8 + item * 4;
                assert_eq!(&out[at..at + 2], &[0, 0]);
                assert_eq!(&out[at + 2..at + 4], &bytes[at + 2..at + 4]);
            }
        }
    }
}
