//! Which read units (chunks, or the inner chunks of a sharded array) a subset covers, in the
//! order the subset's elements come in (C order): slabs along the first dimension, and in each
//! slab the runs of consecutive elements along the last, with the unit each run is in.

use std::ops::Range;

use zarrs::array::{ArrayError, ArraySubset, ArraySubsetTraits};

use crate::Error;

/// One chunk the subset touches: its indices in the chunk grid, the part of it that lies in the
/// subset (array coordinates), and the region its bytes are read as: the whole chunk (beyond
/// the array's end too) if the subset covers all of it that lies in the array and that is at
/// least half the chunk, else the overlap.
pub(crate) struct Unit {
    pub(crate) indices: Vec<u64>,
    pub(crate) overlap: ArraySubset,
    pub(crate) region: ArraySubset,
    /// Whether the region is the whole chunk.
    pub(crate) whole: bool,
}

impl Unit {
    /// The position, in the region's elements (C order), of the element at `coordinates`.
    fn position(&self, coordinates: &[u64]) -> usize {
        let mut position = 0u64;
        for ((&coordinate, &start), &extent) in coordinates
            .iter()
            .zip(self.region.start())
            .zip(self.region.shape())
        {
            position = position * extent + (coordinate - start);
        }
        usize::try_from(position).unwrap_or(usize::MAX)
    }
}

/// The units of one slab: those at one index along the first dimension of the read grid.
pub(crate) struct Slab {
    pub(crate) units: Vec<Unit>,
}

/// A run of consecutive elements of the subset (in C order) that lie in one unit: the unit's
/// number in its slab and the elements' positions in the unit's overlap.
#[derive(Clone)]
pub(crate) struct Run {
    pub(crate) unit: usize,
    pub(crate) elements: Range<usize>,
}

/// The read plan of a subset.
pub(crate) struct Plan {
    /// The read grid's chunk shape (inner chunks of a sharded array).
    unit_shape: Vec<u64>,
    /// The subset.
    subset: ArraySubset,
    /// The slabs, in order.
    pub(crate) slabs: Vec<Slab>,
}

impl Plan {
    /// The plan of reading `subset` of an array of `array_shape` (the subset within it; see
    /// `check_subset`) in its chunks of `unit_shape` (a regular chunk grid).
    pub(crate) fn new(
        subset: &dyn ArraySubsetTraits,
        unit_shape: Vec<u64>,
        array_shape: &[u64],
    ) -> Result<Self, Error> {
        let subset = subset.to_array_subset();
        if unit_shape.len() != subset.dimensionality() || unit_shape.contains(&0) {
            return Err(Error::Array(ArrayError::InvalidArraySubset(
                subset, unit_shape,
            )));
        }
        let mut slabs = Vec::new();
        if subset.num_elements() == 0 {
            return Ok(Plan {
                unit_shape,
                subset,
                slabs,
            });
        }
        if subset.dimensionality() == 0 {
            slabs.push(Slab {
                units: vec![Unit {
                    indices: Vec::new(),
                    overlap: subset.clone(),
                    region: subset.clone(),
                    whole: true,
                }],
            });
            return Ok(Plan {
                unit_shape,
                subset,
                slabs,
            });
        }
        // The units along each dimension: the range of unit indices the subset touches.
        let ranges: Vec<Range<u64>> = subset
            .start()
            .iter()
            .zip(subset.shape())
            .zip(&unit_shape)
            .map(|((&start, &extent), &unit)| start / unit..(start + extent).div_ceil(unit))
            .collect();
        for first in ranges[0].clone() {
            let mut units = Vec::new();
            let mut indices: Vec<u64> = ranges.iter().map(|range| range.start).collect();
            indices[0] = first;
            loop {
                units.push(unit(&subset, &indices, &unit_shape, array_shape)?);
                if !advance(&mut indices[1..], &ranges[1..]) {
                    break;
                }
            }
            slabs.push(Slab { units });
        }
        Ok(Plan {
            unit_shape,
            subset,
            slabs,
        })
    }

    /// The read grid's chunk shape.
    pub(crate) fn unit_shape(&self) -> &[u64] {
        &self.unit_shape
    }

    /// Whether the subset covers some unit whole (within the array).
    pub(crate) fn covers_a_unit(&self) -> bool {
        self.slabs
            .iter()
            .any(|slab| slab.units.iter().any(|unit| unit.whole))
    }

    /// The runs of `slab`'s elements in the subset's C order.
    pub(crate) fn runs(&self, slab: &Slab) -> Vec<Run> {
        let dimensions = self.subset.dimensionality();
        let Some(first) = slab.units.first() else {
            return Vec::new();
        };
        if dimensions <= 1 {
            let start = first.position(first.overlap.start());
            let count = usize::try_from(first.overlap.num_elements()).unwrap_or(0);
            return vec![Run {
                unit: 0,
                elements: start..start + count,
            }];
        }
        // Rows: every index of the leading dimensions the slab covers; along the last, the
        // units in order.
        let last = dimensions - 1;
        let leading: Vec<Range<u64>> = (0..last)
            .map(|dimension| {
                if dimension == 0 {
                    let start = first.overlap.start()[0];
                    start..start + first.overlap.shape()[0]
                } else {
                    let start = self.subset.start()[dimension];
                    start..start + self.subset.shape()[dimension]
                }
            })
            .collect();
        let mut runs = Vec::new();
        let mut row: Vec<u64> = leading.iter().map(|range| range.start).collect();
        loop {
            // The units of this row, in order along the last dimension.
            for (number, unit) in slab.units.iter().enumerate() {
                let inside = row.iter().enumerate().skip(1).all(|(dimension, &index)| {
                    index / self.unit_shape[dimension] == unit.indices[dimension]
                });
                if !inside {
                    continue;
                }
                let mut coordinates = row.clone();
                coordinates.push(unit.overlap.start()[last]);
                let start = unit.position(&coordinates);
                let width = usize::try_from(unit.overlap.shape()[last]).unwrap_or(0);
                runs.push(Run {
                    unit: number,
                    elements: start..start + width,
                });
            }
            if !advance(&mut row, &leading) {
                break;
            }
        }
        runs
    }
}

/// The chunk at `indices` (of `unit_shape`) of an array of `array_shape`, and its part in
/// `subset`.
fn unit(
    subset: &ArraySubset,
    indices: &[u64],
    unit_shape: &[u64],
    array_shape: &[u64],
) -> Result<Unit, Error> {
    let start: Vec<u64> = indices
        .iter()
        .zip(unit_shape)
        .map(|(&index, &extent)| index * extent)
        .collect();
    let chunk = ArraySubset::new_with_start_shape(start.clone(), unit_shape.to_vec())
        .map_err(ArrayError::from)?;
    let overlap = chunk.overlap(subset).map_err(ArrayError::from)?;
    // The chunk within the array: if the subset covers that, the chunk is read whole.
    let bounded: Vec<u64> = start
        .iter()
        .zip(unit_shape)
        .zip(array_shape)
        .map(|((&start, &extent), &length)| extent.min(length.saturating_sub(start)))
        .collect();
    // An edge chunk mostly beyond the array is not read or written whole: that would decode,
    // fill or encode the whole chunk, whose size the metadata sets whatever the array's (a
    // chunk of 2³¹ elements for an array of two), where its part in the array is what is asked.
    let elements = |shape: &[u64]| shape.iter().fold(1u64, |n, &e| n.saturating_mul(e));
    let mostly_within = elements(unit_shape) <= elements(&bounded).saturating_mul(2);
    let whole = overlap.start() == start.as_slice()
        && overlap.shape() == bounded.as_slice()
        && mostly_within;
    Ok(Unit {
        indices: indices.to_vec(),
        region: if whole { chunk } else { overlap.clone() },
        overlap,
        whole,
    })
}

/// The next index of `ranges` in C order; `false` after the last.
fn advance(index: &mut [u64], ranges: &[Range<u64>]) -> bool {
    for dimension in (0..index.len()).rev() {
        index[dimension] += 1;
        if index[dimension] < ranges[dimension].end {
            return true;
        }
        index[dimension] = ranges[dimension].start;
    }
    false
}
