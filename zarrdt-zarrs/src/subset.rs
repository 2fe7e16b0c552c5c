//! Subsets checked before zarrs reads or writes them: zarrs 0.23.14 does not check that a subset
//! lies within the array (a subset beyond an empty array's end reads the stored chunk there),
//! and computes its size in bytes without checking for overflow.

use zarrs::array::{Array, ArrayError, ArraySubsetTraits};

use crate::Error;

/// Checks that `subset` lies within `array` (the same number of dimensions, every range
/// inside the shape; else zarrs' [`ArrayError::InvalidArraySubset`]) and that its elements,
/// `element_size` bytes each, fit in memory (else [`Error::OutputTooLarge`]).
pub(crate) fn check_subset<S: ?Sized>(
    array: &Array<S>,
    subset: &dyn ArraySubsetTraits,
    element_size: usize,
) -> Result<(), Error> {
    let (start, shape) = (subset.start(), subset.shape());
    let inside =
        start.len() == array.shape().len()
            && shape.len() == start.len()
            && start.iter().zip(shape.iter()).zip(array.shape()).all(
                |((&start, &count), &extent)| {
                    start.checked_add(count).is_some_and(|end| end <= extent)
                },
            );
    let fits = element_count(&shape)
        .and_then(|elements| elements.checked_mul(element_size.max(1) as u64))
        .is_some_and(|bytes| bytes <= isize::MAX as u64);
    if !inside {
        return Err(Error::Array(ArrayError::InvalidArraySubset(
            subset.to_array_subset(),
            array.shape().to_vec(),
        )));
    }
    if !fits {
        return Err(Error::OutputTooLarge {
            elements: element_count(&shape)
                .and_then(|elements| usize::try_from(elements).ok())
                .unwrap_or(usize::MAX),
            element_size,
        });
    }
    Ok(())
}

/// The number of elements of a subset of `shape`: 0 where an extent is 0, whatever the others
/// are; `None` if it does not fit in `u64`. (zarrs' `num_elements` multiplies in order, so
/// `[2^40, 2^40, 0]` overflows before it reaches the 0.)
pub(crate) fn element_count(shape: &[u64]) -> Option<u64> {
    if shape.contains(&0) {
        return Some(0);
    }
    shape
        .iter()
        .try_fold(1u64, |count, &extent| count.checked_mul(extent))
}
