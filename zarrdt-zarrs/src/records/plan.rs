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

/// The read (write) plan of a subset: its slabs, each made when it is asked for, so that the
/// plan of a subset of millions of small chunks takes no memory per chunk (a read or write
/// holds the slabs of a window or two at a time).
pub(crate) struct Plan {
    /// The read grid's chunk shape (inner chunks of a sharded array).
    unit_shape: Vec<u64>,
    /// The subset.
    subset: ArraySubset,
    /// The array's shape.
    array_shape: Vec<u64>,
    /// The indices of the units the subset touches along each dimension; none if the subset
    /// has no elements (a zero-dimensional subset has one unit, with no indices).
    ranges: Option<Vec<Range<u64>>>,
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
        let ranges = (!subset.shape().contains(&0)).then(|| {
            subset
                .start()
                .iter()
                .zip(subset.shape())
                .zip(&unit_shape)
                .map(|((&start, &extent), &unit)| start / unit..(start + extent).div_ceil(unit))
                .collect()
        });
        Ok(Plan {
            unit_shape,
            subset,
            array_shape: array_shape.to_vec(),
            ranges,
        })
    }

    /// The read grid's chunk shape.
    pub(crate) fn unit_shape(&self) -> &[u64] {
        &self.unit_shape
    }

    /// The number of slabs.
    pub(crate) fn slab_count(&self) -> usize {
        match &self.ranges {
            None => 0,
            Some(ranges) => ranges.first().map_or(1, |first| {
                usize::try_from(first.end - first.start).unwrap_or(usize::MAX)
            }),
        }
    }

    /// The number of units in each slab (the same in every one).
    pub(crate) fn units_per_slab(&self) -> usize {
        self.ranges.as_ref().map_or(0, |ranges| {
            ranges.iter().skip(1).fold(1usize, |units, range| {
                units.saturating_mul(usize::try_from(range.end - range.start).unwrap_or(usize::MAX))
            })
        })
    }

    /// The number of units the subset touches.
    pub(crate) fn unit_count(&self) -> usize {
        self.slab_count().saturating_mul(self.units_per_slab())
    }

    /// The slabs in windows, in order: each window whole slabs of at least `units` units (the
    /// last, what is left), as ranges of slab numbers.
    pub(crate) fn windows(&self, units: usize) -> impl Iterator<Item = Range<usize>> + use<> {
        let count = self.slab_count();
        let per_window = units.div_ceil(self.units_per_slab().max(1)).max(1);
        (0..count)
            .step_by(per_window)
            .map(move |first| first..first.saturating_add(per_window).min(count))
    }

    /// The slabs `numbers`, made.
    pub(crate) fn slabs(&self, numbers: Range<usize>) -> Result<Vec<Slab>, Error> {
        numbers.map(|number| self.slab(number)).collect()
    }

    /// Slab `number` (less than [`Plan::slab_count`]), made.
    fn slab(&self, number: usize) -> Result<Slab, Error> {
        let Some(ranges) = &self.ranges else {
            return Ok(Slab { units: Vec::new() });
        };
        let Some(first) = ranges.first() else {
            // A zero-dimensional subset: one unit, the whole of it.
            return Ok(Slab {
                units: vec![Unit {
                    indices: Vec::new(),
                    overlap: self.subset.clone(),
                    region: self.subset.clone(),
                    whole: true,
                }],
            });
        };
        let mut units = Vec::with_capacity(self.units_per_slab().min(1 << 16));
        let mut indices: Vec<u64> = ranges.iter().map(|range| range.start).collect();
        indices[0] = first.start + number as u64;
        loop {
            units.push(self.unit(&indices)?);
            if !advance(&mut indices[1..], &ranges[1..]) {
                break;
            }
        }
        Ok(Slab { units })
    }

    /// The unit at `indices`.
    fn unit(&self, indices: &[u64]) -> Result<Unit, Error> {
        unit_at(&self.subset, indices, &self.unit_shape, &self.array_shape)
    }

    /// Whether the subset covers some unit whole (within the array). Along each dimension the
    /// first unit that begins in the subset is the one to look at: if the subset does not
    /// cover it, it covers no later one (they end later), and none before it begins in the
    /// subset; of those it covers it is the longest within the array (only the array's last
    /// one is shorter). So the subset covers a unit whole if it covers that one.
    pub(crate) fn covers_a_unit(&self) -> bool {
        let Some(ranges) = &self.ranges else {
            return false;
        };
        let first_within: Option<Vec<u64>> = ranges
            .iter()
            .zip(self.subset.start())
            .zip(&self.unit_shape)
            .map(|((range, &start), &unit)| {
                let index = start.div_ceil(unit);
                (index < range.end).then_some(index)
            })
            .collect();
        first_within.is_some_and(|indices| self.unit(&indices).is_ok_and(|unit| unit.whole))
    }

    /// Whether the subset covers every unit it touches whole (within the array). Along each
    /// dimension the units between the first and the last are covered if any is, and the last
    /// is the shortest within the array: every unit is covered whole if the first and the last
    /// (along every dimension) are.
    pub(crate) fn covers_every_unit(&self) -> bool {
        let Some(ranges) = &self.ranges else {
            return true;
        };
        let firsts: Vec<u64> = ranges.iter().map(|range| range.start).collect();
        let lasts: Vec<u64> = ranges.iter().map(|range| range.end - 1).collect();
        [firsts, lasts]
            .iter()
            .all(|indices| self.unit(indices).is_ok_and(|unit| unit.whole))
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
fn unit_at(
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
