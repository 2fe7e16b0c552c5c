//! Stored layouts: the bytes of one element exactly as they lie in a chunk, with every leaf's
//! offset and byte order, padding gaps and subarray fields.
//!
//! A Zarr v2 `dtype` (a NumPy typestr or `descr` list) describes exactly this, field by field
//! (see [`Layout::from_v2_json`]). A Zarr v3 data type plus the `bytes` codec's `endian`
//! lowers to one ([`Layout::from_data_type`]): packed, one byte order for every leaf. The
//! record codec ([`Layout::decode_values`]) works on layouts, so v2 and v3 chunks share one
//! implementation.

mod compare;
mod descr;
mod v3;

use std::collections::HashSet;

use crate::{DataType, Endian, Error, FieldPath, MAX_ELEMENT_SIZE, ScalarType};

/// The byte-order character of a NumPy typestr.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ByteOrder {
    /// `<`
    Little,
    /// `>`
    Big,
    /// `|`: byte order does not apply (single-byte and opaque types).
    NotApplicable,
}

impl ByteOrder {
    /// The typestr character: `<`, `>` or `|`.
    pub const fn as_char(self) -> char {
        match self {
            ByteOrder::Little => '<',
            ByteOrder::Big => '>',
            ByteOrder::NotApplicable => '|',
        }
    }

    /// The byte order as an [`Endian`], if it applies.
    pub const fn endian(self) -> Option<Endian> {
        match self {
            ByteOrder::Little => Some(Endian::Little),
            ByteOrder::Big => Some(Endian::Big),
            ByteOrder::NotApplicable => None,
        }
    }
}

impl From<Endian> for ByteOrder {
    fn from(endian: Endian) -> Self {
        match endian {
            Endian::Little => ByteOrder::Little,
            Endian::Big => ByteOrder::Big,
        }
    }
}

/// How one element is laid out in stored bytes.
///
/// ```
/// use zarrdt_core::{Endian, Layout};
/// use serde_json::json;
///
/// // A record with mixed byte order, as zarr-python 2 writes it.
/// let layout = Layout::from_v2_json(&json!([["a", "<i4"], ["b", ">f8"]]))?;
/// assert_eq!(layout.size(), 12);
/// let bytes = [1, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0];
/// let value = layout.decode_value(&bytes)?;
/// assert_eq!(layout.encode_value(&value)?, bytes);
/// // One v3 array has one endian for all fields, so this record has no v3 form.
/// assert!(layout.to_v3().is_err());
/// # Ok::<(), zarrdt_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Layout {
    /// A scalar in one byte order.
    Scalar(ScalarLayout),
    /// A record of named fields at given offsets, possibly with padding between them.
    Struct(StructLayout),
    /// A subarray: a fixed-shape block of one element layout (only as a struct field in v2).
    Array(ArrayLayout),
}

/// A scalar type and its byte order (none for single-byte types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScalarLayout {
    scalar: ScalarType,
    endian: Option<Endian>,
}

impl ScalarLayout {
    /// `scalar` in the given order; multi-byte types need [`ByteOrder::Little`] or
    /// [`ByteOrder::Big`], single-byte ones [`ByteOrder::NotApplicable`].
    pub fn new(scalar: ScalarType, order: ByteOrder) -> Result<Self, Error> {
        match (scalar.has_endianness(), order.endian()) {
            (true, Some(endian)) => Ok(ScalarLayout {
                scalar,
                endian: Some(endian),
            }),
            (false, None) => Ok(ScalarLayout {
                scalar,
                endian: None,
            }),
            (true, None) => Err(Error::InvalidDtype {
                path: FieldPath::root(),
                json: scalar.to_v3_json().to_string(),
                reason: "a multi-byte type needs byte order '<' or '>'".into(),
            }),
            (false, Some(_)) => Err(Error::InvalidDtype {
                path: FieldPath::root(),
                json: scalar.to_v3_json().to_string(),
                reason: "byte order does not apply to a single-byte type".into(),
            }),
        }
    }

    /// `scalar` in `endian`, which is dropped where byte order does not apply.
    pub fn with_endian(scalar: ScalarType, endian: Endian) -> Self {
        ScalarLayout {
            scalar,
            endian: scalar.has_endianness().then_some(endian),
        }
    }

    /// The type.
    pub fn scalar(self) -> ScalarType {
        self.scalar
    }

    /// The byte order, `None` for single-byte types.
    pub fn endian(self) -> Option<Endian> {
        self.endian
    }

    /// The typestr byte order.
    pub fn byte_order(self) -> ByteOrder {
        self.endian
            .map_or(ByteOrder::NotApplicable, ByteOrder::from)
    }
}

/// A record: named fields at increasing, non-overlapping offsets, and a total size that may
/// include padding between and after them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructLayout {
    fields: Vec<LayoutField>,
    size: usize,
}

/// One named field of a [`StructLayout`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LayoutField {
    name: String,
    offset: usize,
    layout: Layout,
}

impl LayoutField {
    /// A field called `name` at byte `offset` from the start of its record.
    pub fn new(name: impl Into<String>, offset: usize, layout: Layout) -> Self {
        LayoutField {
            name: name.into(),
            offset,
            layout,
        }
    }

    /// The field's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Byte offset from the start of the record.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The field's own layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
}

impl StructLayout {
    /// A record of `fields` and total `size` in bytes.
    ///
    /// Errors ([`Error::InvalidStruct`]) unless there is at least one field, names are
    /// non-empty and unique, offsets increase without overlap, and `size` covers the last field
    /// and stays within [`MAX_ELEMENT_SIZE`].
    pub fn new(fields: Vec<LayoutField>, size: usize) -> Result<Self, Error> {
        let invalid = |path: FieldPath, reason: String| Error::InvalidStruct { path, reason };
        if fields.is_empty() {
            return Err(invalid(
                FieldPath::root(),
                "a struct needs at least one field".into(),
            ));
        }
        let mut seen = HashSet::new();
        let mut end = 0usize;
        for (index, field) in fields.iter().enumerate() {
            if field.name.is_empty() {
                return Err(invalid(
                    FieldPath::root().index(index),
                    "field names must not be empty".into(),
                ));
            }
            let path = FieldPath::root().field(&field.name);
            if !seen.insert(field.name.as_str()) {
                return Err(invalid(
                    path,
                    format!(
                        "field name {} occurs more than once",
                        serde_json::Value::from(field.name.as_str())
                    ),
                ));
            }
            if field.offset < end {
                return Err(invalid(
                    path,
                    format!(
                        "offset {} overlaps the previous field, which ends at {end}",
                        field.offset
                    ),
                ));
            }
            end = field
                .offset
                .checked_add(field.layout.size())
                .filter(|&e| e <= MAX_ELEMENT_SIZE)
                .ok_or_else(|| {
                    invalid(
                        path.clone(),
                        format!("size exceeds {MAX_ELEMENT_SIZE} bytes"),
                    )
                })?;
        }
        if size < end || size > MAX_ELEMENT_SIZE {
            return Err(invalid(
                FieldPath::root(),
                format!("itemsize {size} does not cover the fields, which end at {end}"),
            ));
        }
        Ok(StructLayout { fields, size })
    }

    /// A record of `(name, layout)` fields packed one after another, without padding.
    pub fn packed<I, S>(fields: I) -> Result<Self, Error>
    where
        I: IntoIterator<Item = (S, Layout)>,
        S: Into<String>,
    {
        let mut offset = 0usize;
        let mut built = Vec::new();
        for (name, layout) in fields {
            let size = layout.size();
            built.push(LayoutField::new(name, offset, layout));
            offset = offset.saturating_add(size);
        }
        StructLayout::new(built, offset)
    }

    /// A layout from fields already known to be valid (static descriptors).
    pub(crate) fn from_trusted_fields(
        fields: impl Iterator<Item = LayoutField>,
        size: usize,
    ) -> Self {
        StructLayout {
            fields: fields.collect(),
            size,
        }
    }

    /// The named fields, in offset order.
    pub fn fields(&self) -> &[LayoutField] {
        &self.fields
    }

    /// Total size including padding (NumPy's itemsize).
    pub fn size(&self) -> usize {
        self.size
    }

    /// Whether there are bytes that belong to no field (at any depth).
    pub fn has_padding(&self) -> bool {
        let mut end = 0;
        for field in &self.fields {
            if field.offset != end || field.layout.has_padding() {
                return true;
            }
            end = field.offset + field.layout.size();
        }
        end != self.size
    }
}

/// A subarray: `shape` (row-major) of one element layout, which is not itself an array.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArrayLayout {
    element: Box<Layout>,
    shape: Vec<usize>,
    size: usize,
}

impl ArrayLayout {
    /// A subarray of `shape` elements of `element`; nested subarrays are merged into one shape
    /// (NumPy's `(T, (2,))` of `(T, (3,))` is `(T, (3, 2))`).
    ///
    /// Errors if the shape is empty, has a zero extent, or the size overflows
    /// [`MAX_ELEMENT_SIZE`].
    pub fn new(element: Layout, shape: Vec<usize>) -> Result<Self, Error> {
        let invalid = |reason: &str| Error::InvalidStruct {
            path: FieldPath::root(),
            reason: reason.into(),
        };
        if shape.is_empty() || shape.contains(&0) {
            return Err(invalid(
                "a subarray shape needs at least one dimension, none of them zero",
            ));
        }
        let array = ArrayLayout::from_trusted_parts(element, shape);
        let exact = array
            .shape
            .iter()
            .try_fold(array.element.size(), |acc, &extent| acc.checked_mul(extent));
        if exact.is_none_or(|size| size > MAX_ELEMENT_SIZE) {
            return Err(invalid("subarray size overflows"));
        }
        Ok(array)
    }

    /// A subarray from parts already known to be valid (static descriptors); nested arrays
    /// are merged as in [`ArrayLayout::new`].
    pub(crate) fn from_trusted_parts(element: Layout, shape: Vec<usize>) -> Self {
        let (element, shape) = match element {
            Layout::Array(inner) => {
                let mut merged = shape;
                merged.extend_from_slice(&inner.shape);
                (inner.element, merged)
            }
            other => (Box::new(other), shape),
        };
        let size = shape
            .iter()
            .fold(element.size(), |acc, &n| acc.saturating_mul(n));
        ArrayLayout {
            element,
            shape,
            size,
        }
    }

    /// The same bytes as a struct of fields `"0"`, `"1"`, … (one per item of the outermost
    /// dimension), the Zarr v3 form of a Rust array.
    pub fn as_struct(&self) -> StructLayout {
        let (&outer, inner) = self.shape.split_first().unwrap_or((&1, &[]));
        let item = if inner.is_empty() {
            (*self.element).clone()
        } else {
            Layout::Array(ArrayLayout::from_trusted_parts(
                (*self.element).clone(),
                inner.to_vec(),
            ))
        };
        let stride = item.size();
        StructLayout {
            fields: (0..outer)
                .map(|index| LayoutField::new(index.to_string(), index * stride, item.clone()))
                .collect(),
            size: self.size,
        }
    }

    /// The element layout.
    pub fn element(&self) -> &Layout {
        &self.element
    }

    /// The shape, outermost dimension first.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Number of elements (the product of the shape).
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Whether there are no elements (never true: shapes have no zero extents).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Total size in bytes.
    pub fn size(&self) -> usize {
        self.size
    }
}

/// A scalar leaf of a [`Layout`]: its path (subarray elements by flat index), absolute offset
/// and byte order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LayoutLeaf {
    path: FieldPath,
    offset: usize,
    layout: ScalarLayout,
}

impl LayoutLeaf {
    /// Path from the top of the element.
    pub fn path(&self) -> &FieldPath {
        &self.path
    }

    /// Byte offset from the start of the element.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Type and byte order.
    pub fn layout(&self) -> ScalarLayout {
        self.layout
    }
}

impl Layout {
    /// The size of one element in bytes, padding included.
    pub fn size(&self) -> usize {
        match self {
            Layout::Scalar(scalar) => scalar.scalar.size(),
            Layout::Struct(structure) => structure.size,
            Layout::Array(array) => array.size,
        }
    }

    /// Whether there are bytes that belong to no field (at any depth).
    pub fn has_padding(&self) -> bool {
        match self {
            Layout::Scalar(_) => false,
            Layout::Struct(structure) => structure.has_padding(),
            Layout::Array(array) => array.element.has_padding(),
        }
    }

    /// The layout of `data_type` stored by a `bytes` codec with `endian`: packed, every
    /// multi-byte leaf in that order.
    ///
    /// `endian` may be `None` only if no leaf has a byte order ([`Error::MissingEndian`]
    /// otherwise).
    pub fn from_data_type(data_type: &DataType, endian: Option<Endian>) -> Result<Self, Error> {
        match endian {
            Some(endian) => Ok(Self::from_data_type_in(data_type, endian)),
            None if !data_type.has_endianness() => {
                Ok(Self::from_data_type_in(data_type, Endian::Little))
            }
            None => Err(Error::MissingEndian {
                data_type: data_type.to_string(),
            }),
        }
    }

    fn from_data_type_in(data_type: &DataType, endian: Endian) -> Self {
        match data_type {
            DataType::Scalar(scalar) => Layout::Scalar(ScalarLayout::with_endian(*scalar, endian)),
            DataType::Struct(structure) => Layout::Struct(StructLayout {
                fields: structure
                    .fields()
                    .iter()
                    .map(|field| {
                        LayoutField::new(
                            field.name(),
                            field.offset(),
                            Self::from_data_type_in(field.data_type(), endian),
                        )
                    })
                    .collect(),
                size: structure.size(),
            }),
        }
    }

    /// Every scalar leaf, in offset order, subarrays expanded element by element.
    pub fn leaves(&self) -> Vec<LayoutLeaf> {
        let mut leaves = Vec::new();
        self.collect_leaves(&FieldPath::root(), 0, &mut leaves);
        leaves
    }

    fn collect_leaves(&self, path: &FieldPath, base: usize, leaves: &mut Vec<LayoutLeaf>) {
        match self {
            Layout::Scalar(layout) => leaves.push(LayoutLeaf {
                path: path.clone(),
                offset: base,
                layout: *layout,
            }),
            Layout::Struct(structure) => {
                for field in &structure.fields {
                    field.layout.collect_leaves(
                        &path.field(&field.name),
                        base + field.offset,
                        leaves,
                    );
                }
            }
            Layout::Array(array) => {
                let stride = array.element.size();
                for index in 0..array.len() {
                    array
                        .element
                        .collect_leaves(&path.index(index), base + index * stride, leaves);
                }
            }
        }
    }

    /// The one byte order all multi-byte leaves share: `Ok(None)` if there are none,
    /// `Err(path)` naming the first leaf whose order differs from an earlier one.
    pub fn uniform_endian(&self) -> Result<Option<Endian>, FieldPath> {
        let mut seen = None;
        for leaf in self.leaves() {
            match (seen, leaf.layout.endian) {
                (_, None) => {}
                (None, Some(endian)) => seen = Some(endian),
                (Some(first), Some(endian)) if first == endian => {}
                (Some(_), Some(_)) => return Err(leaf.path),
            }
        }
        Ok(seen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(s: ScalarType, order: ByteOrder) -> Layout {
        Layout::Scalar(ScalarLayout::new(s, order).unwrap())
    }

    #[test]
    fn scalar_layout_byte_order_rules() {
        assert!(ScalarLayout::new(ScalarType::Int32, ByteOrder::NotApplicable).is_err());
        assert!(ScalarLayout::new(ScalarType::Bool, ByteOrder::Big).is_err());
        assert!(ScalarLayout::new(ScalarType::UInt8, ByteOrder::NotApplicable).is_ok());
        assert_eq!(
            ScalarLayout::with_endian(ScalarType::Int8, Endian::Big).endian(),
            None
        );
    }

    #[test]
    fn struct_layout_rules() {
        let i4 = || scalar(ScalarType::Int32, ByteOrder::Little);
        let ok = StructLayout::new(
            vec![
                LayoutField::new("a", 0, i4()),
                LayoutField::new("b", 8, i4()),
            ],
            16,
        )
        .unwrap();
        assert!(ok.has_padding());
        let overlap = StructLayout::new(
            vec![
                LayoutField::new("a", 0, i4()),
                LayoutField::new("b", 2, i4()),
            ],
            8,
        );
        assert!(overlap.unwrap_err().to_string().contains("overlaps"));
        let short = StructLayout::new(vec![LayoutField::new("a", 0, i4())], 3);
        assert!(short.unwrap_err().to_string().contains("itemsize 3"));
        let dup = StructLayout::packed([("a", i4()), ("a", i4())]);
        assert!(dup.unwrap_err().to_string().contains("more than once"));
        assert!(!StructLayout::packed([("a", i4())]).unwrap().has_padding());
    }

    #[test]
    fn arrays_merge_and_reject_bad_shapes() {
        let f4 = scalar(ScalarType::Float32, ByteOrder::Little);
        let inner = ArrayLayout::new(f4.clone(), vec![2]).unwrap();
        let outer = ArrayLayout::new(Layout::Array(inner), vec![3]).unwrap();
        assert_eq!(outer.shape(), [3, 2]);
        assert_eq!(outer.size(), 24);
        assert!(ArrayLayout::new(f4.clone(), vec![]).is_err());
        assert!(ArrayLayout::new(f4.clone(), vec![2, 0]).is_err());
        assert!(ArrayLayout::new(f4, vec![usize::MAX, 2]).is_err());
    }

    #[test]
    fn arrays_match_their_struct_form() {
        let i2 = scalar(ScalarType::Int16, ByteOrder::Little);
        let grid = Layout::Array(ArrayLayout::new(i2.clone(), vec![3, 2]).unwrap());
        let pair = || {
            Layout::Struct(StructLayout::packed([("0", i2.clone()), ("1", i2.clone())]).unwrap())
        };
        let v3 = Layout::Struct(
            StructLayout::packed([("0", pair()), ("1", pair()), ("2", pair())]).unwrap(),
        );
        grid.check_matches(&v3).unwrap();
        v3.check_matches(&grid).unwrap();
        let short = Layout::Struct(StructLayout::packed([("0", pair()), ("1", pair())]).unwrap());
        let err = grid.check_matches(&short).unwrap_err().to_string();
        assert!(err.contains("missing field"), "{err}");
    }

    #[test]
    fn uniform_endian_names_the_first_odd_leaf() {
        let layout = Layout::Struct(
            StructLayout::packed([
                ("a", scalar(ScalarType::Int32, ByteOrder::Little)),
                ("flag", scalar(ScalarType::Bool, ByteOrder::NotApplicable)),
                ("b", scalar(ScalarType::Float64, ByteOrder::Big)),
            ])
            .unwrap(),
        );
        assert_eq!(layout.uniform_endian().unwrap_err().to_string(), "b");
    }
}
