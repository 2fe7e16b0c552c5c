//! Stored layouts: the one model of how an element lies in bytes, with every leaf's offset and
//! byte order, padding gaps and subarray fields.
//!
//! A Zarr v2 `dtype` (a NumPy typestr or `descr` list) describes exactly this, field by field
//! (see [`Layout::from_v2_json`]). A Zarr v3 [`DataType`](crate::DataType) is a checked view
//! of a layout: packed, and with its byte order left to the `bytes` codec
//! ([`Layout::from_data_type`]). The record codec works on layouts, so v2 and v3 chunks share
//! one implementation.
//!
//! Layouts are built only through checking constructors ([`StructLayout::new`],
//! [`StructLayout::packed`], [`SubarrayLayout::new`], [`ScalarLayout::new`]), so every layout
//! has unique, non-empty field names, fields inside their record, a size within
//! [`MAX_ELEMENT_SIZE`] and a nesting depth within [`MAX_NESTING_DEPTH`]. Nodes are shared
//! (`Arc`), so cloning a layout is cheap, and no walk over a layout expands a subarray into
//! its items.

mod compare;
mod leaves;
pub(crate) mod struct_form;
mod v2;

use std::collections::HashSet;
use std::sync::Arc;

pub(crate) use compare::first_difference;
pub use leaves::{Leaf, Repeat};

use crate::{Endian, Error, FieldPath, MAX_ELEMENT_SIZE, MAX_NESTING_DEPTH, ScalarType};

/// How one element is laid out in stored bytes.
///
/// # Operations, by concept
///
/// The methods of `Layout` live with the module that owns their concept; all of them are
/// listed here.
///
/// * **Structure** (this module): [`size`](Layout::size), [`depth`](Layout::depth),
///   [`has_padding`](Layout::has_padding), [`packed`](Layout::packed),
///   [`field_at`](Layout::field_at),
///   [`leaves`](Layout::leaves), and comparison of two layouts,
///   [`check_matches`](Layout::check_matches).
/// * **Byte order** (this module): [`has_endianness`](Layout::has_endianness),
///   [`uniform_endian`](Layout::uniform_endian), [`with_endian`](Layout::with_endian).
/// * **Zarr v2 `dtype`** (this module): [`from_v2_json`](Layout::from_v2_json),
///   [`to_v2_json`](Layout::to_v2_json).
/// * **Zarr v3 data type** (the data type module): [`from_data_type`](Layout::from_data_type),
///   [`to_v3`](Layout::to_v3).
/// * **Codec**, bytes to [`Value`](crate::Value)s and back (the codec module):
///   [`decode_value`](Layout::decode_value), [`encode_value`](Layout::encode_value),
///   [`decode_values`](Layout::decode_values), [`encode_values`](Layout::encode_values),
///   [`zero_value`](Layout::zero_value), and the in-place byte swap
///   [`convert_byte_order`](Layout::convert_byte_order) (see also
///   [`ByteOrderConversion`](crate::ByteOrderConversion)).
/// * **Elements**, one field read as a Rust type [`ZarrType`](crate::ZarrType) (the element
///   module): [`decode_field`](Layout::decode_field),
///   [`decode_field_into`](Layout::decode_field_into).
/// * **Fill values and JSON values** (the fill value module):
///   [`fill_value_from_v2_json`](Layout::fill_value_from_v2_json),
///   [`fill_value_to_v2_json`](Layout::fill_value_to_v2_json),
///   [`value_to_json`](Layout::value_to_json), [`value_from_json`](Layout::value_from_json).
///
/// ```
/// use zarrdt::layout::Layout;
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
/// # Ok::<(), zarrdt::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Layout {
    /// A scalar in one byte order.
    Scalar(ScalarLayout),
    /// A record of named fields at given offsets, possibly with padding between them.
    Struct(StructLayout),
    /// A subarray: a fixed-shape block of one element layout (a Rust array `[T; N]`, a NumPy
    /// subarray field).
    Subarray(SubarrayLayout),
}

/// A scalar type and its byte order.
///
/// In a [`Layout`] every multi-byte scalar has a byte order and single-byte ones have none.
/// Inside a v3 [`DataType`](crate::DataType) (whose byte order is the `bytes` codec's) the
/// multi-byte ones have none either; such layouts are never handed out as a `Layout`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScalarLayout {
    scalar: ScalarType,
    endian: Option<Endian>,
}

impl ScalarLayout {
    /// `scalar` in byte order `endian`: `Some` for multi-byte types, `None` for single-byte
    /// ones (a typestr's `<`/`>` and `|`).
    pub fn new(scalar: ScalarType, endian: Option<Endian>) -> Result<Self, Error> {
        let invalid = |reason: &str| Error::InvalidDtype {
            path: FieldPath::root(),
            json: scalar.to_v3_json().to_string(),
            reason: reason.into(),
        };
        match (scalar.has_endianness(), endian) {
            (true, None) => Err(invalid("a multi-byte type needs byte order '<' or '>'")),
            (false, Some(_)) => Err(invalid("byte order does not apply to a single-byte type")),
            _ => Ok(ScalarLayout { scalar, endian }),
        }
    }

    /// `scalar` in `endian`, which is dropped where byte order does not apply.
    pub const fn with_endian(scalar: ScalarType, endian: Endian) -> Self {
        ScalarLayout {
            scalar,
            endian: if scalar.has_endianness() {
                Some(endian)
            } else {
                None
            },
        }
    }

    /// `scalar` with its byte order left open: the leaves of a v3 data type.
    pub(crate) const fn open(scalar: ScalarType) -> Self {
        ScalarLayout {
            scalar,
            endian: None,
        }
    }

    /// The type.
    pub const fn scalar(self) -> ScalarType {
        self.scalar
    }

    /// The byte order: `None` for single-byte types.
    pub const fn endian(self) -> Option<Endian> {
        self.endian
    }

    /// The byte order values are read and written in: this leaf's own, else `default` (the
    /// `bytes` codec's, for the leaves of a v3 data type; irrelevant for single-byte types).
    pub(crate) fn endian_or(self, default: Endian) -> Endian {
        self.endian.unwrap_or(default)
    }
}

/// A record: named fields at increasing, non-overlapping offsets, and a total size that may
/// include padding between and after them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructLayout(Arc<StructNode>);

#[derive(Debug, PartialEq, Eq, Hash)]
struct StructNode {
    fields: Box<[LayoutField]>,
    size: usize,
    depth: usize,
}

/// One named field of a [`StructLayout`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LayoutField {
    name: Arc<str>,
    offset: usize,
    layout: Layout,
}

impl LayoutField {
    /// A field called `name` at byte `offset` from the start of its record; checked when it is
    /// put into a record by [`StructLayout::new`].
    pub fn new(name: impl Into<Arc<str>>, offset: usize, layout: Layout) -> Self {
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

    /// The field's name, shared (records decoded from chunks share it too).
    pub fn shared_name(&self) -> &Arc<str> {
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

    /// The byte range of the field within its record.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.offset..self.offset + self.layout.size()
    }
}

fn invalid_struct(path: FieldPath, reason: String) -> Error {
    Error::InvalidStruct { path, reason }
}

fn too_deep(path: FieldPath) -> Error {
    invalid_struct(
        path,
        format!("nested deeper than {MAX_NESTING_DEPTH} levels of structs and subarrays"),
    )
}

impl StructLayout {
    /// A record of `fields` and total `size` in bytes.
    ///
    /// Errors ([`Error::InvalidStruct`], naming the field) unless there is at least one field,
    /// names are non-empty and unique, offsets increase without overlap, `size` covers the
    /// last field and stays within [`MAX_ELEMENT_SIZE`], and the nesting stays within
    /// [`MAX_NESTING_DEPTH`].
    pub fn new(fields: impl IntoIterator<Item = LayoutField>, size: usize) -> Result<Self, Error> {
        let fields: Box<[LayoutField]> = fields.into_iter().collect();
        if fields.is_empty() {
            return Err(invalid_struct(
                FieldPath::root(),
                "a struct needs at least one field".into(),
            ));
        }
        let mut seen = HashSet::with_capacity(fields.len());
        let mut end = 0usize;
        let mut depth = 0;
        for (index, field) in fields.iter().enumerate() {
            if field.name.is_empty() {
                return Err(invalid_struct(
                    FieldPath::root().index(index),
                    "field names must not be empty".into(),
                ));
            }
            let path = || FieldPath::root().field(&field.name);
            if !seen.insert(&*field.name) {
                return Err(invalid_struct(
                    path(),
                    format!(
                        "field name {} occurs more than once",
                        serde_json::Value::from(&*field.name)
                    ),
                ));
            }
            if field.offset < end {
                return Err(invalid_struct(
                    path(),
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
                    invalid_struct(path(), format!("size exceeds {MAX_ELEMENT_SIZE} bytes"))
                })?;
            depth = depth.max(field.layout.depth());
        }
        if size < end || size > MAX_ELEMENT_SIZE {
            return Err(invalid_struct(
                FieldPath::root(),
                format!("itemsize {size} does not cover the fields, which end at {end}"),
            ));
        }
        if depth >= MAX_NESTING_DEPTH {
            return Err(too_deep(FieldPath::root()));
        }
        Ok(StructLayout(Arc::new(StructNode {
            fields,
            size,
            depth: depth + 1,
        })))
    }

    /// A record of `(name, layout)` fields packed one after another, without padding.
    ///
    /// Errors as [`StructLayout::new`] does.
    pub fn packed<I, S>(fields: I) -> Result<Self, Error>
    where
        I: IntoIterator<Item = (S, Layout)>,
        S: Into<Arc<str>>,
    {
        let mut offset = 0usize;
        let mut built = Vec::new();
        for (name, layout) in fields {
            let size = layout.size();
            built.push(LayoutField::new(name, offset, layout));
            offset = offset.saturating_add(size);
        }
        if offset > MAX_ELEMENT_SIZE {
            let last = built.last().map(|field| field.name.clone());
            return Err(invalid_struct(
                last.map_or_else(FieldPath::root, |name| FieldPath::root().field(&name)),
                format!("packed size exceeds {MAX_ELEMENT_SIZE} bytes"),
            ));
        }
        StructLayout::new(built, offset)
    }

    /// The named fields, in offset order.
    pub fn fields(&self) -> &[LayoutField] {
        &self.0.fields
    }

    /// The field called `name`, if any.
    pub fn field(&self, name: &str) -> Option<&LayoutField> {
        self.0.fields.iter().find(|field| &*field.name == name)
    }

    /// Total size including padding (NumPy's itemsize).
    pub fn size(&self) -> usize {
        self.0.size
    }

    /// Whether there are bytes that belong to no field (at any depth).
    pub fn has_padding(&self) -> bool {
        self.first_gap().is_some() || self.fields().iter().any(|f| f.layout.has_padding())
    }

    /// The first gap at this level (not inside fields): where it starts and ends, and the
    /// field after it (`None` for trailing padding); `None` if the fields lie one after
    /// another from offset 0 to the end.
    pub(crate) fn first_gap(&self) -> Option<(usize, usize, Option<&LayoutField>)> {
        let mut end = 0;
        for field in self.fields() {
            if field.offset != end {
                return Some((end, field.offset, Some(field)));
            }
            end = field.offset + field.layout.size();
        }
        (end != self.size()).then_some((end, self.size(), None))
    }
}

/// A subarray: `shape` (row-major) of one element layout, which is not itself an array.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SubarrayLayout(Arc<ArrayNode>);

#[derive(Debug, PartialEq, Eq, Hash)]
struct ArrayNode {
    element: Layout,
    shape: Box<[usize]>,
    len: usize,
    size: usize,
    depth: usize,
}

impl SubarrayLayout {
    /// A subarray of `shape` elements of `element`; nested subarrays are merged into one shape
    /// (NumPy's `(T, (2,))` of `(T, (3,))` is `(T, (3, 2))`).
    ///
    /// Errors if the shape is empty, has a zero extent, the size exceeds
    /// [`MAX_ELEMENT_SIZE`], or the nesting exceeds [`MAX_NESTING_DEPTH`].
    pub fn new(element: Layout, shape: impl Into<Vec<usize>>) -> Result<Self, Error> {
        let mut shape = shape.into();
        let invalid = |reason: &str| invalid_struct(FieldPath::root(), reason.into());
        if shape.is_empty() || shape.contains(&0) {
            return Err(invalid(
                "a subarray shape needs at least one dimension, none of them zero",
            ));
        }
        let element = match element {
            Layout::Subarray(inner) => {
                shape.extend_from_slice(&inner.0.shape);
                inner.0.element.clone()
            }
            other => other,
        };
        let len = shape
            .iter()
            .try_fold(1usize, |acc, &extent| acc.checked_mul(extent));
        let size = len.and_then(|len| len.checked_mul(element.size()));
        let (Some(len), Some(size)) = (len, size.filter(|&size| size <= MAX_ELEMENT_SIZE)) else {
            return Err(invalid("subarray size exceeds 2147483647 bytes"));
        };
        if element.depth() >= MAX_NESTING_DEPTH {
            return Err(too_deep(FieldPath::root()));
        }
        Ok(SubarrayLayout(Arc::new(ArrayNode {
            depth: element.depth() + 1,
            element,
            shape: shape.into(),
            len,
            size,
        })))
    }

    /// The element layout (never itself a subarray).
    pub fn element(&self) -> &Layout {
        &self.0.element
    }

    /// The shape, outermost dimension first.
    pub fn shape(&self) -> &[usize] {
        &self.0.shape
    }

    /// Number of elements (the product of the shape).
    pub fn len(&self) -> usize {
        self.0.len
    }

    /// Whether there are no elements (never true: shapes have no zero extents).
    pub fn is_empty(&self) -> bool {
        self.0.len == 0
    }

    /// Total size in bytes.
    pub fn size(&self) -> usize {
        self.0.size
    }

    /// The layout of one item of the outermost dimension: the element for a one-dimensional
    /// subarray, else a subarray of the remaining dimensions.
    pub fn item(&self) -> Layout {
        match self.shape() {
            [] | [_] => self.element().clone(),
            [_, inner @ ..] => Layout::Subarray(SubarrayLayout(Arc::new(ArrayNode {
                element: self.0.element.clone(),
                shape: inner.into(),
                len: inner.iter().product(),
                size: inner.iter().product::<usize>() * self.0.element.size(),
                depth: self.0.depth,
            }))),
        }
    }
}

impl Layout {
    /// The size of one element in bytes, padding included.
    pub fn size(&self) -> usize {
        match self {
            Layout::Scalar(scalar) => scalar.scalar.size(),
            Layout::Struct(structure) => structure.0.size,
            Layout::Subarray(array) => array.0.size,
        }
    }

    /// Levels of structs and subarrays: 0 for a scalar.
    pub fn depth(&self) -> usize {
        match self {
            Layout::Scalar(_) => 0,
            Layout::Struct(structure) => structure.0.depth,
            Layout::Subarray(array) => array.0.depth,
        }
    }

    /// Whether there are bytes that belong to no field (at any depth).
    pub fn has_padding(&self) -> bool {
        match self {
            Layout::Scalar(_) => false,
            Layout::Struct(structure) => structure.has_padding(),
            Layout::Subarray(array) => array.element().has_padding(),
        }
    }

    /// The same fields without padding: every struct's fields packed one after another, at
    /// every depth (the layout itself if it has none).
    ///
    /// # Errors
    ///
    /// Those of [`StructLayout::packed`] and [`SubarrayLayout::new`], which a layout that
    /// already exists with padding does not meet.
    pub fn packed(&self) -> Result<Layout, Error> {
        Ok(match self {
            Layout::Struct(structure) => {
                let mut fields = Vec::with_capacity(structure.fields().len());
                for field in structure.fields() {
                    fields.push((field.name().to_owned(), field.layout().packed()?));
                }
                Layout::Struct(StructLayout::packed(fields)?)
            }
            Layout::Subarray(array) => Layout::Subarray(SubarrayLayout::new(
                array.element().packed()?,
                array.shape().to_vec(),
            )?),
            Layout::Scalar(_) => self.clone(),
        })
    }

    /// Whether any leaf has multi-byte values, whose bytes depend on byte order.
    pub fn has_endianness(&self) -> bool {
        match self {
            Layout::Scalar(scalar) => scalar.scalar.has_endianness(),
            Layout::Struct(structure) => {
                structure.fields().iter().any(|f| f.layout.has_endianness())
            }
            Layout::Subarray(array) => array.element().has_endianness(),
        }
    }

    /// The field at `path` (field names from the top of the element, such as `["pos"]` or
    /// `["point", "x"]`): its byte offset in the element and its layout; `None` if there is
    /// no such field.
    pub fn field_at(&self, path: &[&str]) -> Option<(usize, &Layout)> {
        let mut offset = 0;
        let mut current = self;
        for name in path {
            let Layout::Struct(structure) = current else {
                return None;
            };
            let field = structure.field(name)?;
            offset += field.offset();
            current = field.layout();
        }
        Some((offset, current))
    }

    /// [`Layout::field_at`], or [`Error::NoSuchField`] saying why there is none: the fields of
    /// the struct where the path leaves the record, or the type that is no struct.
    pub fn find_field(&self, path: &[&str]) -> Result<(usize, &Layout), Error> {
        if let Some(found) = self.field_at(path) {
            return Ok(found);
        }
        // Where the path leaves the record, and what is there.
        let mut current = self;
        let mut at = FieldPath::root();
        let mut hint = String::new();
        for name in path {
            let Layout::Struct(structure) = current else {
                hint = format!("`{at}` is {}, not a struct", current.describe());
                break;
            };
            let Some(field) = structure.field(name) else {
                const SHOWN: usize = 16;
                let fields = structure.fields();
                let mut names: Vec<String> = fields
                    .iter()
                    .take(SHOWN)
                    .map(|field| format!("`{}`", field.name()))
                    .collect();
                if fields.len() > SHOWN {
                    names.push(format!("and {} more", fields.len() - SHOWN));
                }
                let whose = if at.is_root() {
                    "the record's".to_owned()
                } else {
                    format!("`{at}`'s")
                };
                hint = format!("{whose} fields are {}", names.join(", "));
                break;
            };
            current = field.layout();
            at = at.field(name);
        }
        Err(Error::NoSuchField {
            path: path
                .iter()
                .fold(FieldPath::root(), |path, name| path.field(name)),
            hint,
        })
    }

    /// A short description for messages: `"float32"`, `"a struct of 3 fields"`…
    pub(crate) fn describe(&self) -> String {
        match self {
            Layout::Scalar(scalar) => scalar.scalar().describe(),
            Layout::Struct(structure) => {
                format!("a struct of {} fields", structure.fields().len())
            }
            Layout::Subarray(array) => format!("a subarray of shape {:?}", array.shape()),
        }
    }

    /// The same layout with every multi-byte leaf in `endian` (leaves already in it, and
    /// single-byte ones, are kept).
    pub fn with_endian(&self, endian: Endian) -> Layout {
        self.map_scalars(&|scalar| ScalarLayout::with_endian(scalar.scalar, endian))
    }

    /// The same layout with every leaf's byte order left open (the form of a v3 data type).
    pub(crate) fn with_open_endian(&self) -> Layout {
        self.map_scalars(&|scalar| ScalarLayout::open(scalar.scalar))
    }

    /// The same structure with `map` applied to every scalar leaf; unchanged subtrees are
    /// shared rather than copied.
    fn map_scalars(&self, map: &impl Fn(ScalarLayout) -> ScalarLayout) -> Layout {
        match self {
            Layout::Scalar(scalar) => Layout::Scalar(map(*scalar)),
            Layout::Struct(structure) => {
                let fields: Box<[LayoutField]> = structure
                    .fields()
                    .iter()
                    .map(|field| LayoutField {
                        name: field.name.clone(),
                        offset: field.offset,
                        layout: field.layout.map_scalars(map),
                    })
                    .collect();
                if fields.iter().zip(structure.fields()).all(|(a, b)| a == b) {
                    return self.clone();
                }
                Layout::Struct(StructLayout(Arc::new(StructNode {
                    fields,
                    size: structure.0.size,
                    depth: structure.0.depth,
                })))
            }
            Layout::Subarray(array) => {
                let element = array.element().map_scalars(map);
                if &element == array.element() {
                    return self.clone();
                }
                Layout::Subarray(SubarrayLayout(Arc::new(ArrayNode {
                    element,
                    shape: array.0.shape.clone(),
                    len: array.0.len,
                    size: array.0.size,
                    depth: array.0.depth,
                })))
            }
        }
    }

    /// The one byte order all multi-byte leaves share: `Ok(None)` if there are none,
    /// `Err(path)` naming the first leaf whose order differs from an earlier one.
    pub fn uniform_endian(&self) -> Result<Option<Endian>, FieldPath> {
        let mut seen: Option<Endian> = None;
        let mut odd = false;
        self.for_each_scalar(&mut |_, scalar, _| {
            match (seen, scalar.endian) {
                (_, None) => {}
                (None, Some(endian)) => seen = Some(endian),
                (Some(first), Some(endian)) => odd |= first != endian,
            }
            !odd
        });
        if !odd {
            return Ok(seen);
        }
        let first = seen;
        let leaves = self.leaves();
        let path = leaves
            .into_iter()
            .find(|leaf| leaf.layout().endian().is_some_and(|e| Some(e) != first))
            .map_or_else(FieldPath::root, |leaf| leaf.path().clone());
        Err(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(s: ScalarType, endian: Option<Endian>) -> Layout {
        Layout::Scalar(ScalarLayout::new(s, endian).unwrap())
    }

    #[test]
    fn scalar_layout_byte_order_rules() {
        assert!(ScalarLayout::new(ScalarType::Int32, None).is_err());
        assert!(ScalarLayout::new(ScalarType::Bool, Some(Endian::Big)).is_err());
        assert!(ScalarLayout::new(ScalarType::UInt8, None).is_ok());
        assert_eq!(
            ScalarLayout::with_endian(ScalarType::Int8, Endian::Big).endian(),
            None
        );
    }

    #[test]
    fn struct_layout_rules() {
        let i4 = || scalar(ScalarType::Int32, Some(Endian::Little));
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
        let far = StructLayout::new(vec![LayoutField::new("a", usize::MAX, i4())], 4);
        assert!(far.unwrap_err().to_string().contains("exceeds"));
    }

    #[test]
    fn arrays_merge_and_reject_bad_shapes() {
        let f4 = scalar(ScalarType::Float32, Some(Endian::Little));
        let inner = SubarrayLayout::new(f4.clone(), vec![2]).unwrap();
        let outer = SubarrayLayout::new(Layout::Subarray(inner), vec![3]).unwrap();
        assert_eq!(outer.shape(), [3, 2]);
        assert_eq!(outer.size(), 24);
        assert_eq!(outer.item().size(), 8);
        assert!(SubarrayLayout::new(f4.clone(), vec![]).is_err());
        assert!(SubarrayLayout::new(f4.clone(), vec![2, 0]).is_err());
        assert!(SubarrayLayout::new(f4, vec![usize::MAX, 2]).is_err());
    }

    #[test]
    fn nesting_is_bounded() {
        let mut layout = scalar(ScalarType::UInt8, None);
        for level in 1..=MAX_NESTING_DEPTH {
            layout = Layout::Struct(StructLayout::packed([("a", layout)]).unwrap());
            assert_eq!(layout.depth(), level);
        }
        let err = StructLayout::packed([("a", layout.clone())]).unwrap_err();
        assert!(err.to_string().contains("deeper than 64"), "{err}");
        assert!(SubarrayLayout::new(layout, vec![2]).is_err());
    }

    #[test]
    fn uniform_endian_names_the_first_odd_leaf() {
        let layout = Layout::Struct(
            StructLayout::packed([
                ("a", scalar(ScalarType::Int32, Some(Endian::Little))),
                ("flag", scalar(ScalarType::Bool, None)),
                ("b", scalar(ScalarType::Float64, Some(Endian::Big))),
            ])
            .unwrap(),
        );
        assert_eq!(layout.uniform_endian().unwrap_err().to_string(), "b");
        assert_eq!(
            layout.with_endian(Endian::Big).uniform_endian(),
            Ok(Some(Endian::Big))
        );
    }
}
