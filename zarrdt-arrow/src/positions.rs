//! Where the values of one column lie in a block of records: nested loops of (count, stride),
//! the records outermost, then the subarrays the column sits in.
//!
//! The values of a column are the leaves at `offset + Σ iₖ·strideₖ` in row-major order of the
//! loops, which is also the order of the values in the Arrow array (a fixed-size list's values
//! are its items one after another).

/// Nested (count, stride) loops, outermost first, and a shift added to every offset.
#[derive(Clone, Debug)]
pub(crate) struct Positions {
    dims: Vec<(usize, usize)>,
    shift: usize,
}

impl Positions {
    /// `rows` records of `size` bytes each.
    pub(crate) fn records(rows: usize, size: usize) -> Self {
        Positions {
            dims: vec![(rows, size.max(1))],
            shift: 0,
        }
    }

    /// The same positions with an inner loop of `count` items `stride` bytes apart.
    pub(crate) fn within(&self, count: usize, stride: usize) -> Self {
        let mut dims = self.dims.clone();
        dims.push((count, stride));
        Positions {
            dims,
            shift: self.shift,
        }
    }

    /// The same positions moved by `bytes`.
    pub(crate) fn shifted(&self, bytes: usize) -> Self {
        Positions {
            dims: self.dims.clone(),
            shift: self.shift + bytes,
        }
    }

    /// The number of values.
    pub(crate) fn len(&self) -> usize {
        self.dims.iter().map(|&(count, _)| count).product()
    }

    /// Values per record (the product of the inner loops).
    pub(crate) fn per_record(&self) -> usize {
        self.dims[1..].iter().map(|&(count, _)| count).product()
    }

    /// The record the `index`-th value belongs to.
    pub(crate) fn record_of(&self, index: usize) -> u64 {
        (index / self.per_record().max(1)) as u64
    }

    /// When the values are one per record: the first one's offset (with `offset` added) and
    /// the record size.
    pub(crate) fn simple(&self, offset: usize) -> Option<(usize, usize)> {
        match self.dims.as_slice() {
            [(_, stride)] => Some((self.shift + offset, *stride)),
            _ => None,
        }
    }

    /// When the values are `count` to a record, `step` bytes apart: the first one's offset
    /// (with `offset` added), the record size, `count` and `step`.
    pub(crate) fn nested(&self, offset: usize) -> Option<(usize, usize, usize, usize)> {
        match self.dims.as_slice() {
            [(_, stride), (count, step)] => Some((self.shift + offset, *stride, *count, *step)),
            _ => None,
        }
    }

    /// Calls `visit` with the offset of every value of a leaf at `offset`, in order.
    #[inline]
    pub(crate) fn for_each(&self, offset: usize, visit: &mut impl FnMut(usize)) {
        walk(&self.dims, self.shift + offset, visit);
    }
}

fn walk(dims: &[(usize, usize)], base: usize, visit: &mut impl FnMut(usize)) {
    match dims {
        [] => visit(base),
        [(count, stride)] => {
            for index in 0..*count {
                visit(base + index * stride);
            }
        }
        [(count, stride), inner @ ..] => {
            for index in 0..*count {
                walk(inner, base + index * stride, visit);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_offsets_in_order() {
        let positions = Positions::records(2, 20).within(3, 4).shifted(1);
        let mut offsets = Vec::new();
        positions.for_each(2, &mut |offset| offsets.push(offset));
        assert_eq!(offsets, [3, 7, 11, 23, 27, 31]);
        assert_eq!(positions.len(), 6);
        assert_eq!(positions.record_of(4), 1);
        assert_eq!(positions.simple(0), None);
        assert_eq!(Positions::records(5, 8).simple(2), Some((2, 8)));
    }
}
