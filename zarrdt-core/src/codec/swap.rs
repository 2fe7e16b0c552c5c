//! Re-ordering the bytes of stored elements in place: a layout-aware byte swap, planned once
//! per layout ([`ByteOrderConversion`]) and applied to whole chunks.

use crate::layout::Repeat;
use crate::{Endian, Error, Layout};

/// The most runs a plan lists one by one; a layout with more (a subarray of thousands of
/// records) is walked per element instead, so that a plan never grows with a count read from
/// metadata.
const MAX_RUNS: usize = 4096;

/// Runs of at least this many values are swapped element by element (a vectorised loop over
/// contiguous values); shorter ones value by value across a block of elements.
const CONTIGUOUS_RUN: usize = 8;

/// Bytes of elements converted together, each run across the block before the next: small
/// enough to stay in the first-level cache.
const BLOCK_BYTES: usize = 16 << 10;

/// A byte-order conversion of the elements of one layout, planned once and applied to any
/// number of chunks: every multi-byte value whose byte order is not the target's is reversed,
/// in place.
///
/// The plan lists the runs of values to reverse in an element (adjacent values of one size
/// merged). A chunk is converted block by block, each run across all the elements of a block
/// in one tight loop, with no allocation and no per-element dispatch; when every byte of an
/// element belongs to values of one size (a record of `float32`s), the chunk is one run.
/// Converting between two orders is its own inverse, so the plan from the native order to
/// the stored one also converts stored chunks back.
///
/// ```
/// use zarrdt::Endian;
/// use zarrdt::layout::{ByteOrderConversion, Layout};
/// use serde_json::json;
///
/// let layout = Layout::from_v2_json(&json!([["id", "<u2"], ["flag", "|b1"]]))?;
/// let to_big = ByteOrderConversion::new(&layout, Endian::Big);
/// let mut chunk = vec![1, 0, 1, 2, 0, 0];
/// to_big.apply(&mut chunk)?;
/// assert_eq!(chunk, [0, 1, 1, 0, 2, 0]);
/// assert!(to_big.apply(&mut [0; 4]).is_err()); // not whole elements
/// # Ok::<(), zarrdt::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByteOrderConversion {
    size: usize,
    kernel: Kernel,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Kernel {
    /// Nothing to reverse.
    Nothing,
    /// Every byte of an element is in values of this size: the chunk is one run.
    Uniform(usize),
    /// Runs at fixed offsets in every element, sorted by offset.
    Runs(Vec<Run>),
    /// Too many runs to list: the leaves and the subarrays they repeat in, walked per element.
    Walk(Vec<Swap>),
}

/// `count` adjacent values of `unit` bytes, from `offset` in every element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    offset: usize,
    unit: usize,
    count: usize,
}

/// One leaf to reverse, with the subarrays it repeats in.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Swap {
    run: Run,
    repeats: Vec<Repeat>,
}

impl ByteOrderConversion {
    /// The conversion of elements of `layout` to `target` order: the values already in it, and
    /// those without a byte order, are left alone. Planning takes time and memory linear in
    /// the number of leaves of the layout.
    pub fn new(layout: &Layout, target: Endian) -> Self {
        let mut swaps = Vec::new();
        layout.for_each_scalar(&mut |offset, leaf, repeats| {
            let scalar = leaf.scalar();
            let unit = scalar.swap_unit();
            if leaf.endian().is_some_and(|endian| endian != target) && unit > 1 {
                swaps.push(Swap {
                    run: Run {
                        offset,
                        unit,
                        count: scalar.size() / unit,
                    },
                    repeats: repeats.to_vec(),
                });
            }
            true
        });
        let size = layout.size();
        let kernel = if swaps.is_empty() {
            Kernel::Nothing
        } else {
            match runs(&swaps) {
                Some(runs) => match runs.as_slice() {
                    [run] if run.offset == 0 && run.unit.checked_mul(run.count) == Some(size) => {
                        Kernel::Uniform(run.unit)
                    }
                    _ => Kernel::Runs(runs),
                },
                None => Kernel::Walk(swaps),
            }
        };
        ByteOrderConversion { size, kernel }
    }

    /// Whether the conversion changes nothing (every value already in the target order).
    pub fn is_identity(&self) -> bool {
        self.kernel == Kernel::Nothing
    }

    /// Converts every element of `bytes` in place; an error, before anything changes, unless
    /// `bytes` is a whole number of elements.
    pub fn apply(&self, bytes: &mut [u8]) -> Result<(), Error> {
        if self.size == 0 || !bytes.len().is_multiple_of(self.size) {
            return Err(Error::ChunkLength {
                len: bytes.len(),
                element_size: self.size,
            });
        }
        match &self.kernel {
            Kernel::Nothing => {}
            Kernel::Uniform(unit) => reverse_values(bytes, *unit),
            Kernel::Runs(runs) => {
                let block = (BLOCK_BYTES / self.size).max(1) * self.size;
                for block in bytes.chunks_mut(block) {
                    for run in runs {
                        reverse_run(block, self.size, *run);
                    }
                }
            }
            Kernel::Walk(swaps) => {
                for element in bytes.chunks_exact_mut(self.size) {
                    for swap in swaps {
                        walk(element, swap.run, &swap.repeats);
                    }
                }
            }
        }
        Ok(())
    }
}

/// The runs of `swaps` with their subarrays unrolled, sorted and merged; `None` if they are
/// more than [`MAX_RUNS`].
fn runs(swaps: &[Swap]) -> Option<Vec<Run>> {
    let mut runs = Vec::new();
    for swap in swaps {
        let copies = swap
            .repeats
            .iter()
            .try_fold(1usize, |copies, repeat| copies.checked_mul(repeat.count()))?;
        if copies > MAX_RUNS - runs.len() {
            return None;
        }
        unroll(swap.run, &swap.repeats, &mut runs);
    }
    runs.sort_unstable_by_key(|run| run.offset);
    let mut merged: Vec<Run> = Vec::with_capacity(runs.len());
    for run in runs {
        match merged.last_mut() {
            Some(last)
                if last.unit == run.unit && last.offset + last.unit * last.count == run.offset =>
            {
                last.count += run.count;
            }
            _ => merged.push(run),
        }
    }
    Some(merged)
}

fn unroll(run: Run, repeats: &[Repeat], out: &mut Vec<Run>) {
    match repeats.split_first() {
        None => out.push(run),
        Some((repeat, inner)) => {
            for item in 0..repeat.count() {
                let offset = run.offset + item * repeat.stride();
                unroll(Run { offset, ..run }, inner, out);
            }
        }
    }
}

/// Reverses every `unit`-byte value of `bytes`, a whole number of them.
fn reverse_values(bytes: &mut [u8], unit: usize) {
    match unit {
        2 => reverse_each::<2>(bytes),
        4 => reverse_each::<4>(bytes),
        8 => reverse_each::<8>(bytes),
        _ => bytes.chunks_exact_mut(unit).for_each(<[u8]>::reverse),
    }
}

fn reverse_each<const N: usize>(bytes: &mut [u8]) {
    let (values, _) = bytes.as_chunks_mut::<N>();
    for value in values {
        value.reverse();
    }
}

/// Reverses the values of `run` in every `size`-byte element of `block`.
fn reverse_run(block: &mut [u8], size: usize, run: Run) {
    let span = run.unit * run.count;
    if run.count >= CONTIGUOUS_RUN {
        for element in block.chunks_exact_mut(size) {
            if let Some(values) = element.get_mut(run.offset..run.offset + span) {
                reverse_values(values, run.unit);
            }
        }
        return;
    }
    for value in 0..run.count {
        let offset = run.offset + value * run.unit;
        match run.unit {
            2 => reverse_strided::<2>(block, size, offset),
            4 => reverse_strided::<4>(block, size, offset),
            8 => reverse_strided::<8>(block, size, offset),
            unit => {
                for element in block.chunks_exact_mut(size) {
                    if let Some(value) = element.get_mut(offset..offset + unit) {
                        value.reverse();
                    }
                }
            }
        }
    }
}

/// Reverses the `N`-byte value at `offset` of every `size`-byte element of `block`.
fn reverse_strided<const N: usize>(block: &mut [u8], size: usize, offset: usize) {
    for element in block.chunks_exact_mut(size) {
        if let Some(value) = element
            .get_mut(offset..offset + N)
            .and_then(|value| <&mut [u8; N]>::try_from(value).ok())
        {
            value.reverse();
        }
    }
}

fn walk(element: &mut [u8], run: Run, repeats: &[Repeat]) {
    match repeats.split_first() {
        None => {
            if let Some(values) = element.get_mut(run.offset..run.offset + run.unit * run.count) {
                reverse_values(values, run.unit);
            }
        }
        Some((repeat, inner)) => {
            for item in 0..repeat.count() {
                let offset = run.offset + item * repeat.stride();
                walk(element, Run { offset, ..run }, inner);
            }
        }
    }
}

impl Layout {
    /// Rewrites a chunk stored in this layout so that every multi-byte value is in `target`
    /// order (a layout-aware byte swap, in place). Errors if `bytes` is not a whole number of
    /// elements. To convert many chunks, plan once with [`ByteOrderConversion::new`].
    pub fn convert_byte_order(&self, bytes: &mut [u8], target: Endian) -> Result<(), Error> {
        ByteOrderConversion::new(self, target).apply(bytes)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Reverses every multi-byte value of `element` by walking `layout` (the oracle).
    fn reverse_by_hand(layout: &Layout, element: &mut [u8]) {
        match layout {
            Layout::Scalar(scalar) => {
                let unit = scalar.scalar().swap_unit();
                if scalar.endian().is_some() && unit > 1 {
                    element.chunks_exact_mut(unit).for_each(<[u8]>::reverse);
                }
            }
            Layout::Struct(structure) => {
                for field in structure.fields() {
                    reverse_by_hand(field.layout(), &mut element[field.range()]);
                }
            }
            Layout::Subarray(array) => {
                let size = array.element().size();
                for item in element.chunks_exact_mut(size) {
                    reverse_by_hand(array.element(), item);
                }
            }
        }
    }

    /// Every kernel gives what reversing each value by hand gives.
    #[test]
    fn every_kernel_agrees_with_reversing_each_value() {
        let record = json!([
            ["a", "<u4"],
            ["b", "<f8"],
            ["c", "|b1"],
            ["d", "<f2"],
            ["e", "<c8"]
        ]);
        let cases = [
            (json!([["x", "<f4"], ["y", "<i4"]]), "Uniform"),
            (json!([["v", "<i8", [20]]]), "Uniform"),
            (record.clone(), "Runs"),
            (
                json!([["pad", "|u1"], ["v", "<u2", [9]], ["w", "<f8", [2]]]),
                "Runs",
            ),
            (json!([["many", record, [3000]]]), "Walk"),
            (json!([["c", "|u1"], ["s", "|S3"]]), "Nothing"),
        ];
        for (descr, kernel) in cases {
            let layout = Layout::from_v2_json(&descr).unwrap();
            let conversion = ByteOrderConversion::new(&layout, Endian::Big);
            assert!(
                format!("{:?}", conversion.kernel).starts_with(kernel),
                "{descr}: {conversion:?}"
            );
            assert_eq!(conversion.is_identity(), kernel == "Nothing");
            let size = layout.size();
            // Enough elements for several blocks.
            let count = 2 * BLOCK_BYTES / size + 3;
            let mut bytes: Vec<u8> = (0..size * count).map(|i| (i * 7 + i / 251) as u8).collect();
            let mut expected = bytes.clone();
            for element in expected.chunks_exact_mut(size) {
                reverse_by_hand(&layout, element);
            }
            conversion.apply(&mut bytes).unwrap();
            assert_eq!(bytes, expected, "{descr}");
            // Converting back is the same conversion.
            ByteOrderConversion::new(&layout.with_endian(Endian::Big), Endian::Little)
                .apply(&mut bytes)
                .unwrap();
            expected = (0..size * count).map(|i| (i * 7 + i / 251) as u8).collect();
            assert_eq!(bytes, expected, "{descr}: back");
        }
    }

    #[test]
    fn plans_stay_small_whatever_the_counts() {
        let huge =
            Layout::from_v2_json(&json!([["v", [["a", "<u2"], ["b", "|u1"]], [1 << 20]]])).unwrap();
        let conversion = ByteOrderConversion::new(&huge, Endian::Big);
        assert!(matches!(&conversion.kernel, Kernel::Walk(swaps) if swaps.len() == 1));
        assert!(conversion.apply(&mut [0; 5]).is_err());
    }
}
