//! The scalar leaves of a layout, found by a walk that recurses on (shape, element): a subarray
//! contributes one leaf per scalar of its element, with the count and stride of its items,
//! never one per item.

use super::{Layout, ScalarLayout};
use crate::FieldPath;

/// One enclosing subarray of a [`Leaf`]: how many items it repeats the leaf, and how many
/// bytes apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Repeat {
    count: usize,
    stride: usize,
}

impl Repeat {
    /// Number of items (the subarray's element count).
    pub const fn count(self) -> usize {
        self.count
    }

    /// Bytes from one item to the next (the subarray's element size).
    pub const fn stride(self) -> usize {
        self.stride
    }
}

/// A scalar at the bottom of a (nested) layout: its path, absolute offset, type and byte
/// order, and the subarrays it sits in.
///
/// A leaf inside subarrays stands for all of its copies: the first is at [`Leaf::offset`],
/// and each [`Repeat`] (outermost first) says how many copies there are and how far apart.
/// The path names the fields on the way; subarrays add no segment.
///
/// ```
/// use zarrdt::layout::Layout;
/// use serde_json::json;
///
/// let layout = Layout::from_v2_json(&json!([["id", "<u4"], ["pos", "<f4", [3]]]))?;
/// let leaves = layout.leaves();
/// assert_eq!(leaves[1].path().to_string(), "pos");
/// assert_eq!((leaves[1].offset(), leaves[1].count()), (4, 3));
/// assert_eq!(leaves[1].repeats()[0].stride(), 4);
/// # Ok::<(), zarrdt::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Leaf {
    path: FieldPath,
    offset: usize,
    layout: ScalarLayout,
    repeats: Vec<Repeat>,
}

impl Leaf {
    /// Path from the top of the element, such as `point.x`.
    pub fn path(&self) -> &FieldPath {
        &self.path
    }

    /// Byte offset of the (first copy of the) leaf from the start of the element.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Type and byte order.
    pub fn layout(&self) -> ScalarLayout {
        self.layout
    }

    /// The leaf's type.
    pub fn scalar(&self) -> crate::ScalarType {
        self.layout.scalar()
    }

    /// The subarrays the leaf sits in, outermost first (empty outside subarrays).
    pub fn repeats(&self) -> &[Repeat] {
        &self.repeats
    }

    /// How many copies of the leaf one element holds (1 outside subarrays).
    pub fn count(&self) -> usize {
        self.repeats.iter().map(|repeat| repeat.count).product()
    }
}

impl Layout {
    /// Every scalar leaf, in offset order; a subarray's leaves appear once, with their
    /// [`Repeat`]s.
    pub fn leaves(&self) -> Vec<Leaf> {
        let mut leaves = Vec::new();
        self.collect_leaves(&FieldPath::root(), 0, &mut Vec::new(), &mut leaves);
        leaves
    }

    fn collect_leaves(
        &self,
        path: &FieldPath,
        base: usize,
        repeats: &mut Vec<Repeat>,
        leaves: &mut Vec<Leaf>,
    ) {
        match self {
            Layout::Scalar(layout) => leaves.push(Leaf {
                path: path.clone(),
                offset: base,
                layout: *layout,
                repeats: repeats.clone(),
            }),
            Layout::Struct(structure) => {
                for field in structure.fields() {
                    field.layout().collect_leaves(
                        &path.field(field.name()),
                        base + field.offset(),
                        repeats,
                        leaves,
                    );
                }
            }
            Layout::Subarray(array) => {
                repeats.push(Repeat {
                    count: array.len(),
                    stride: array.element().size(),
                });
                array.element().collect_leaves(path, base, repeats, leaves);
                repeats.pop();
            }
        }
    }

    /// Calls `visit(offset, scalar, repeats)` for every scalar leaf in offset order, without
    /// building paths, until it returns `false`.
    pub(crate) fn for_each_scalar(
        &self,
        visit: &mut impl FnMut(usize, ScalarLayout, &[Repeat]) -> bool,
    ) {
        self.walk_scalars(0, &mut Vec::new(), visit);
    }

    fn walk_scalars(
        &self,
        base: usize,
        repeats: &mut Vec<Repeat>,
        visit: &mut impl FnMut(usize, ScalarLayout, &[Repeat]) -> bool,
    ) -> bool {
        match self {
            Layout::Scalar(layout) => visit(base, *layout, repeats),
            Layout::Struct(structure) => structure.fields().iter().all(|field| {
                field
                    .layout()
                    .walk_scalars(base + field.offset(), repeats, visit)
            }),
            Layout::Subarray(array) => {
                repeats.push(Repeat {
                    count: array.len(),
                    stride: array.element().size(),
                });
                let more = array.element().walk_scalars(base, repeats, visit);
                repeats.pop();
                more
            }
        }
    }
}
