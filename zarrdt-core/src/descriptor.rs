//! Static type descriptions: what an [`ZarrType`](crate::ZarrType) type is, as constants the
//! compiler evaluates and checks.
//!
//! A descriptor holds no offsets: a struct's fields are packed in order, so their offsets are
//! the prefix sums of their sizes ([`TypeDescriptor::offsets`]), computed from the field list
//! and never stored beside it. Descriptors are checked when they are built (in constant
//! evaluation, so a bad one is a compile error), and lower to the runtime model
//! ([`TypeDescriptor::layout`], [`TypeDescriptor::data_type`]) without further checks
//! failing.

use crate::layout::{Layout, ScalarLayout, StructLayout, SubarrayLayout};
use crate::{DataType, Endian, MAX_ELEMENT_SIZE, MAX_NESTING_DEPTH, ScalarType};

/// The Zarr type of a Rust type, as a constant: usable at compile time, allocation-free.
///
/// Arrays (`[T; N]`) are described as arrays: Zarr v2 stores them as subarray fields, and in
/// Zarr v3 they are written as structs of fields `"0"`…`"N-1"` ([`DataType::Subarray`]).
///
/// ```
/// use zarrdt_core::{FieldDescriptor, ScalarType, TypeDescriptor};
///
/// const POINT: TypeDescriptor = TypeDescriptor::structure(&[
///     FieldDescriptor::new("x", TypeDescriptor::scalar(ScalarType::Float32)),
///     FieldDescriptor::new("y", TypeDescriptor::scalar(ScalarType::Float32)),
/// ]);
/// assert_eq!(POINT.size(), 8);
/// assert_eq!(POINT.offsets::<2>(), [0, 4]);
/// ```
///
/// A struct with duplicate or empty field names, no fields, or a size beyond
/// [`MAX_ELEMENT_SIZE`] does not compile:
///
/// ```compile_fail
/// use zarrdt_core::{FieldDescriptor, ScalarType, TypeDescriptor};
///
/// const BAD: TypeDescriptor = TypeDescriptor::structure(&[
///     FieldDescriptor::new("x", TypeDescriptor::scalar(ScalarType::Float32)),
///     FieldDescriptor::new("x", TypeDescriptor::scalar(ScalarType::Int8)),
/// ]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct TypeDescriptor {
    kind: DescriptorKind,
    size: usize,
    depth: usize,
    endianness: bool,
}

/// What a [`TypeDescriptor`] describes.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum DescriptorKind {
    /// A scalar type.
    Scalar(ScalarType),
    /// A struct: its fields in order, packed.
    Struct(&'static [FieldDescriptor]),
    /// `len` elements of one type.
    Subarray {
        /// The element type.
        element: &'static TypeDescriptor,
        /// Number of elements, at least 1.
        len: usize,
    },
}

/// One field of a struct [`TypeDescriptor`]: its name and type.
#[derive(Clone, Copy, Debug)]
pub struct FieldDescriptor {
    name: &'static str,
    ty: TypeDescriptor,
}

impl FieldDescriptor {
    /// A field called `name` of type `ty`; its offset follows from its position.
    pub const fn new(name: &'static str, ty: TypeDescriptor) -> Self {
        FieldDescriptor { name, ty }
    }

    /// The field's record name.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The field's type.
    pub const fn ty(&self) -> TypeDescriptor {
        self.ty
    }

    /// Size of the field in bytes.
    pub const fn size(&self) -> usize {
        self.ty.size
    }
}

impl TypeDescriptor {
    /// A scalar type.
    pub const fn scalar(scalar: ScalarType) -> Self {
        TypeDescriptor {
            kind: DescriptorKind::Scalar(scalar),
            size: scalar.size(),
            depth: 0,
            endianness: scalar.has_endianness(),
        }
    }

    /// `len` elements of `element` (a Rust `[T; len]`).
    ///
    /// # Panics
    ///
    /// In constant evaluation (a compile error): if `len` is 0, the size exceeds
    /// [`MAX_ELEMENT_SIZE`], or the nesting exceeds [`MAX_NESTING_DEPTH`].
    pub const fn subarray(element: &'static TypeDescriptor, len: usize) -> Self {
        assert!(len > 0, "zero-length arrays have no Zarr type");
        let size = match element.size.checked_mul(len) {
            Some(size) if size <= MAX_ELEMENT_SIZE => size,
            _ => panic!("array too large for a Zarr element (2^31 - 1 bytes)"),
        };
        // Arrays of arrays merge into one multi-dimensional array.
        let depth = match element.kind {
            DescriptorKind::Subarray { .. } => element.depth,
            _ => element.depth + 1,
        };
        assert!(
            depth <= MAX_NESTING_DEPTH,
            "nested deeper than 64 levels of structs and arrays"
        );
        TypeDescriptor {
            kind: DescriptorKind::Subarray { element, len },
            size,
            depth,
            endianness: element.endianness,
        }
    }

    /// A packed struct of `fields`, in order.
    ///
    /// # Panics
    ///
    /// In constant evaluation (a compile error): if there are no fields, a name is empty or
    /// occurs twice, the packed size exceeds [`MAX_ELEMENT_SIZE`], or the nesting exceeds
    /// [`MAX_NESTING_DEPTH`]. The checks take time `O(N log N)`.
    pub const fn structure<const N: usize>(fields: &'static [FieldDescriptor; N]) -> Self {
        assert!(N > 0, "a Zarr struct needs at least one field");
        let mut size = 0usize;
        let mut depth = 0;
        let mut endianness = false;
        let mut hashes = [(0u64, 0usize); N];
        let mut index = 0;
        while index < N {
            let field = &fields[index];
            assert!(!field.name.is_empty(), "Zarr field names must not be empty");
            size = match size.checked_add(field.ty.size) {
                Some(size) if size <= MAX_ELEMENT_SIZE => size,
                _ => panic!("struct too large for a Zarr element (2^31 - 1 bytes)"),
            };
            if field.ty.depth > depth {
                depth = field.ty.depth;
            }
            endianness |= field.ty.endianness;
            hashes[index] = (name_hash(field.name), index);
            index += 1;
        }
        assert!(
            depth < MAX_NESTING_DEPTH,
            "nested deeper than 64 levels of structs and arrays"
        );
        assert!(
            !has_duplicate(fields, &mut hashes),
            "a Zarr struct's field names must be unique"
        );
        TypeDescriptor {
            kind: DescriptorKind::Struct(fields),
            size,
            depth: depth + 1,
            endianness,
        }
    }

    /// What this describes.
    pub const fn kind(&self) -> DescriptorKind {
        self.kind
    }

    /// The fields of a struct, in order; empty for other types.
    pub const fn fields(&self) -> &'static [FieldDescriptor] {
        match self.kind {
            DescriptorKind::Struct(fields) => fields,
            _ => &[],
        }
    }

    /// The packed offset of each of the `N` fields of a struct: the prefix sums of their sizes.
    ///
    /// # Panics
    ///
    /// In constant evaluation (a compile error) if this is not a struct of `N` fields.
    pub const fn offsets<const N: usize>(&self) -> [usize; N] {
        let fields = self.fields();
        assert!(
            fields.len() == N,
            "offsets::<N> of a struct of another field count"
        );
        let mut offsets = [0; N];
        let mut index = 1;
        while index < N {
            offsets[index] = offsets[index - 1] + fields[index - 1].ty.size;
            index += 1;
        }
        offsets
    }

    /// The packed size in bytes.
    pub const fn size(&self) -> usize {
        self.size
    }

    /// Whether any leaf has a byte order, so that the `bytes` codec needs `endian`.
    pub const fn has_endianness(&self) -> bool {
        self.endianness
    }

    /// The Zarr v3 data type: arrays are [`DataType::Subarray`]s, which v3 JSON writes as
    /// structs of fields `"0"`…`"N-1"`.
    pub fn data_type(&self) -> DataType {
        DataType::view(&self.lower(&ScalarLayout::open))
    }

    /// The stored layout in `endian`: packed, arrays as subarrays (the Zarr v2 form).
    pub fn layout(&self, endian: Endian) -> Layout {
        self.lower(&|scalar| ScalarLayout::with_endian(scalar, endian))
    }

    /// The layout this describes, with `leaf` giving each scalar its byte order.
    fn lower(&self, leaf: &impl Fn(ScalarType) -> ScalarLayout) -> Layout {
        // The constructors checked every rule the layout constructors check (sizes, names,
        // nesting), so these cannot fail.
        let checked = "TypeDescriptor's constructors check what the layout's constructors check";
        match self.kind {
            DescriptorKind::Scalar(scalar) => Layout::Scalar(leaf(scalar)),
            DescriptorKind::Struct(fields) => Layout::Struct(
                StructLayout::packed(
                    fields
                        .iter()
                        .map(|field| (field.name, field.ty.lower(leaf))),
                )
                .unwrap_or_else(|error| unreachable!("{checked}: {error}")),
            ),
            DescriptorKind::Subarray { element, len } => Layout::Subarray(
                SubarrayLayout::new(element.lower(leaf), vec![len])
                    .unwrap_or_else(|error| unreachable!("{checked}: {error}")),
            ),
        }
    }
}

/// FNV-1a of a name, for the duplicate check.
const fn name_hash(name: &str) -> u64 {
    let bytes = name.as_bytes();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut index = 0;
    while index < bytes.len() {
        hash ^= bytes[index] as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        index += 1;
    }
    hash
}

const fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut index = 0;
    while index < a.len() {
        if a[index] != b[index] {
            return false;
        }
        index += 1;
    }
    true
}

/// Whether two of `fields` share a name: sorts `(hash, index)` pairs (heapsort, as constant
/// evaluation allows no allocation) and compares the names of equal hashes.
const fn has_duplicate(fields: &[FieldDescriptor], hashes: &mut [(u64, usize)]) -> bool {
    let len = hashes.len();
    let mut start = len / 2;
    while start > 0 {
        start -= 1;
        sift_down(hashes, start, len);
    }
    let mut end = len;
    while end > 1 {
        end -= 1;
        let top = hashes[0];
        hashes[0] = hashes[end];
        hashes[end] = top;
        sift_down(hashes, 0, end);
    }
    let mut index = 1;
    while index < len {
        let mut earlier = index;
        while earlier > 0 && hashes[earlier - 1].0 == hashes[index].0 {
            earlier -= 1;
            if same_name(fields[hashes[earlier].1].name, fields[hashes[index].1].name) {
                return true;
            }
        }
        index += 1;
    }
    false
}

const fn sift_down(heap: &mut [(u64, usize)], mut root: usize, end: usize) {
    loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && heap[child + 1].0 > heap[child].0 {
            child += 1;
        }
        if heap[root].0 >= heap[child].0 {
            return;
        }
        let parent = heap[root];
        heap[root] = heap[child];
        heap[child] = parent;
        root = child;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const F4: TypeDescriptor = TypeDescriptor::scalar(ScalarType::Float32);
    const POS: TypeDescriptor = TypeDescriptor::subarray(&F4, 3);
    const GRID: TypeDescriptor = TypeDescriptor::subarray(&POS, 2);
    const RECORD: TypeDescriptor = TypeDescriptor::structure(&[
        FieldDescriptor::new("id", TypeDescriptor::scalar(ScalarType::UInt64)),
        FieldDescriptor::new("pos", POS),
        FieldDescriptor::new("flag", TypeDescriptor::scalar(ScalarType::Bool)),
    ]);

    #[test]
    fn sizes_offsets_and_depth() {
        assert_eq!(RECORD.size(), 21);
        assert_eq!(RECORD.offsets::<3>(), [0, 8, 20]);
        assert_eq!(RECORD.depth, 2);
        assert_eq!(GRID.depth, 1);
        let Layout::Subarray(grid) = GRID.layout(Endian::Big) else {
            panic!("an array")
        };
        assert_eq!(grid.shape(), [2, 3]);
    }

    #[test]
    fn duplicates_are_found_among_many_names() {
        let names: Vec<&'static str> = (0..500)
            .map(|i| &*Box::leak(format!("field_{i}").into_boxed_str()))
            .collect();
        let mut fields: Vec<FieldDescriptor> =
            names.iter().map(|n| FieldDescriptor::new(n, F4)).collect();
        let mut hashes = vec![(0, 0); fields.len()];
        for (index, field) in fields.iter().enumerate() {
            hashes[index] = (name_hash(field.name), index);
        }
        assert!(!has_duplicate(&fields, &mut hashes.clone()));
        fields[321] = FieldDescriptor::new("field_17", F4);
        hashes[321] = (name_hash("field_17"), 321);
        assert!(has_duplicate(&fields, &mut hashes));
    }

    #[test]
    fn lowering_agrees_with_the_descriptor() {
        let layout = RECORD.layout(Endian::Little);
        assert_eq!(layout.size(), RECORD.size());
        let Layout::Struct(record) = &layout else {
            panic!("a struct")
        };
        let offsets: Vec<usize> = record.fields().iter().map(|f| f.offset()).collect();
        assert_eq!(offsets, RECORD.offsets::<3>());
        assert_eq!(RECORD.data_type().size(), 21);
    }
}
