//! Re-ordering the bytes of stored elements in place: a layout-aware byte swap, planned once
//! per layout.

use crate::layout::Repeat;
use crate::{Endian, Error, Layout};

/// One leaf whose units must be reversed: where it is, its unit size, how many units one copy
/// has, and the subarrays it repeats in.
#[derive(Clone, Debug)]
struct Swap {
    offset: usize,
    unit: usize,
    units: usize,
    repeats: Vec<Repeat>,
}

/// What to reverse in each element to bring it into one byte order.
#[derive(Clone, Debug)]
pub(crate) struct SwapPlan {
    size: usize,
    swaps: Vec<Swap>,
}

impl SwapPlan {
    /// The plan for elements of `layout` to reach `target` (leaves already in it, or without a
    /// byte order, are left alone). Its size is linear in the number of leaves.
    pub(crate) fn new(layout: &Layout, target: Endian) -> SwapPlan {
        let mut swaps = Vec::new();
        layout.for_each_scalar(&mut |offset, leaf, repeats| {
            let scalar = leaf.scalar();
            if leaf.endian().is_some_and(|endian| endian != target) && scalar.swap_unit() > 1 {
                swaps.push(Swap {
                    offset,
                    unit: scalar.swap_unit(),
                    units: scalar.size() / scalar.swap_unit(),
                    repeats: repeats.to_vec(),
                });
            }
            true
        });
        SwapPlan {
            size: layout.size(),
            swaps,
        }
    }

    /// Applies the plan to every element of `bytes`, a whole number of elements.
    pub(crate) fn apply(&self, bytes: &mut [u8]) -> Result<(), Error> {
        if self.size == 0 || !bytes.len().is_multiple_of(self.size) {
            return Err(Error::ChunkLength {
                len: bytes.len(),
                element_size: self.size,
            });
        }
        if self.swaps.is_empty() {
            return Ok(());
        }
        for element in bytes.chunks_exact_mut(self.size) {
            for swap in &self.swaps {
                reverse_repeated(element, swap.offset, swap, &swap.repeats);
            }
        }
        Ok(())
    }
}

fn reverse_repeated(element: &mut [u8], offset: usize, swap: &Swap, repeats: &[Repeat]) {
    match repeats.split_first() {
        None => {
            let end = offset + swap.unit * swap.units;
            for unit in element[offset..end].chunks_exact_mut(swap.unit) {
                unit.reverse();
            }
        }
        Some((repeat, inner)) => {
            for item in 0..repeat.count() {
                reverse_repeated(element, offset + item * repeat.stride(), swap, inner);
            }
        }
    }
}

impl Layout {
    /// Rewrites a chunk stored in this layout so that every multi-byte value is in `target`
    /// order (a layout-aware byte swap, in place). Errors if `bytes` is not a whole number of
    /// elements.
    pub fn convert_byte_order(&self, bytes: &mut [u8], target: Endian) -> Result<(), Error> {
        SwapPlan::new(self, target).apply(bytes)
    }
}
