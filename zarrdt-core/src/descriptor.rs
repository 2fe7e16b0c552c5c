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
use crate::{DataType, Endian, EnumDescriptor, MAX_ELEMENT_SIZE, MAX_NESTING_DEPTH, ScalarType};

/// The Zarr type of a Rust type, as a constant: usable at compile time, allocation-free.
///
/// Arrays (`[T; N]`) are described as arrays: Zarr v2 stores them as subarray fields, and in
/// Zarr v3 they are written as structs of fields `"0"`…`"N-1"` ([`DataType::Subarray`]).
///
/// ```
/// use zarrdt::advanced::{FieldDescriptor, TypeDescriptor};
/// use zarrdt::types::ScalarType;
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
/// use zarrdt::advanced::{FieldDescriptor, TypeDescriptor};
/// use zarrdt::types::ScalarType;
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
    /// The enum whose values a scalar (integer) type holds, if it is one.
    enumeration: Option<&'static EnumDescriptor>,
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
            enumeration: None,
        }
    }

    /// A fieldless enum, stored as its integer type: a scalar type whose values are named
    /// (see [`EnumDescriptor`]). Its data type and layout are the integer's.
    pub const fn enumeration(enumeration: &'static EnumDescriptor) -> Self {
        let mut descriptor = TypeDescriptor::scalar(enumeration.integer());
        descriptor.enumeration = Some(enumeration);
        descriptor
    }

    /// The enum this type stores, if it is one ([`TypeDescriptor::enumeration`]).
    pub const fn as_enum(&self) -> Option<&'static EnumDescriptor> {
        self.enumeration
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
            enumeration: None,
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
            hashes[index] = (crate::unique::name_hash(field.name), index);
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
            enumeration: None,
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

impl TypeDescriptor {
    /// Every enum in this type with the path of its value: struct fields by name, the items
    /// of an array under the array's own path (so an array of enums has one entry), in field
    /// order.
    pub fn enum_fields(&self) -> Vec<(crate::FieldPath, &'static EnumDescriptor)> {
        fn walk(
            ty: &TypeDescriptor,
            path: &crate::FieldPath,
            out: &mut Vec<(crate::FieldPath, &'static EnumDescriptor)>,
        ) {
            if let Some(enumeration) = ty.as_enum() {
                out.push((path.clone(), enumeration));
            }
            match ty.kind() {
                DescriptorKind::Struct(fields) => {
                    for field in fields {
                        walk(&field.ty(), &path.field(field.name()), out);
                    }
                }
                DescriptorKind::Subarray { element, .. } => walk(element, path, out),
                _ => {}
            }
        }
        let mut out = Vec::new();
        walk(self, &crate::FieldPath::root(), &mut out);
        out
    }

    /// The value of the [`ENUMS_ATTRIBUTE`](crate::ENUMS_ATTRIBUTE) for arrays of this type: each enum field's path
    /// (`""` for the element itself) mapped to its variants; `None` if the type has no enum.
    ///
    /// ```
    /// use zarrdt::advanced::{EnumDescriptor, EnumVariant, FieldDescriptor, TypeDescriptor};
    /// use zarrdt::types::ScalarType;
    ///
    /// const KIND: EnumDescriptor = EnumDescriptor::new(
    ///     "Kind", ScalarType::Int8, &[EnumVariant::new("Small", -1), EnumVariant::new("Large", 1)]);
    /// const KINDS: TypeDescriptor = TypeDescriptor::enumeration(&KIND);
    /// const RECORD: TypeDescriptor = TypeDescriptor::structure(&[
    ///     FieldDescriptor::new("id", TypeDescriptor::scalar(ScalarType::UInt32)),
    ///     FieldDescriptor::new("kinds", TypeDescriptor::subarray(&KINDS, 2)),
    /// ]);
    /// assert_eq!(
    ///     RECORD.enums_attribute().unwrap().to_string(),
    ///     r#"{"kinds":{"Small":-1,"Large":1}}"#
    /// );
    /// assert!(TypeDescriptor::scalar(ScalarType::UInt8).enums_attribute().is_none());
    /// ```
    pub fn enums_attribute(&self) -> Option<serde_json::Value> {
        let fields = self.enum_fields();
        if fields.is_empty() {
            return None;
        }
        let mut out = serde_json::Map::new();
        for (path, enumeration) in fields {
            out.insert(
                crate::enum_attribute_key(&path),
                enumeration.variants_json(),
            );
        }
        Some(serde_json::Value::Object(out))
    }
}

/// Whether two of `fields` share a name: sorts `(hash, index)` pairs (heapsort, as constant
/// evaluation allows no allocation) and compares the names of equal hashes.
const fn has_duplicate(fields: &[FieldDescriptor], hashes: &mut [(u64, usize)]) -> bool {
    crate::unique::sort_keys(hashes);
    let len = hashes.len();
    let mut index = 1;
    while index < len {
        let mut earlier = index;
        while earlier > 0 && hashes[earlier - 1].0 == hashes[index].0 {
            earlier -= 1;
            if crate::unique::same_name(
                fields[hashes[earlier].1].name,
                fields[hashes[index].1].name,
            ) {
                return true;
            }
        }
        index += 1;
    }
    false
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
            hashes[index] = (crate::unique::name_hash(field.name), index);
        }
        assert!(!has_duplicate(&fields, &mut hashes.clone()));
        fields[321] = FieldDescriptor::new("field_17", F4);
        hashes[321] = (crate::unique::name_hash("field_17"), 321);
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
