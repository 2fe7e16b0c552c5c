//! Zarr v3 data types: [`DataType`], a checked view of a [`Layout`] that is packed and leaves
//! its byte order to the `bytes` codec.
//!
//! There is one model of how an element lies in bytes, the [`Layout`]; a `DataType` holds one
//! (with every byte order left open) and guarantees what Zarr v3 requires of it: structs are
//! packed, and there are no per-field byte orders. [`Layout::from_data_type`] fixes the byte
//! order of a data type; [`Layout::to_v3`] finds the data type of a stored layout, where one
//! exists.

mod compare;
mod v3;

use std::fmt;

use crate::layout::{Layout, LayoutField, Leaf, ScalarLayout, StructLayout, SubarrayLayout};
use crate::{Endian, Error, FieldPath, ScalarType};

/// A Zarr data type: a [`ScalarType`], a [`StructType`] of named fields, or an [`SubarrayType`]
/// (a Rust array `[T; N]`).
///
/// Parse one from v3 metadata with [`DataType::from_v3_json`], write it with
/// [`DataType::to_v3_json`]. Its `Display` is its compact v3 JSON. Its fill values (written
/// with the other fill-value code, in the fill-value module) are read with
/// [`fill_value_from_v3_json`](DataType::fill_value_from_v3_json) and written with
/// [`fill_value_to_v3_json`](DataType::fill_value_to_v3_json).
///
/// Zarr v3 struct fields have no shape, so an [`SubarrayType`] is written in v3 as a struct of
/// fields `"0"`, `"1"`, … (see the crate documentation). Equality follows the v3 form: an
/// array type equals the struct type it is written as.
///
/// ```
/// use zarrdt::types::DataType;
/// use serde_json::json;
///
/// let dt = DataType::from_v3_json(&json!({
///     "name": "struct",
///     "configuration": {"fields": [
///         {"name": "x", "data_type": "float32"},
///         {"name": "y", "data_type": "float32"}
///     ]}
/// })).unwrap();
/// assert_eq!(dt.size(), 8);
/// assert!(dt.has_endianness());
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum DataType {
    /// A scalar type.
    Scalar(ScalarType),
    /// A struct (record) type.
    Struct(StructType),
    /// A fixed-size array of one element type (a Rust `[T; N]`); a struct of fields `"0"`…
    /// `"N-1"` in Zarr v3 JSON.
    Subarray(SubarrayType),
}

/// A Zarr struct data type: an ordered, non-empty list of uniquely named fields.
///
/// The layout is **packed**, as both the struct spec ("sum over the size of the dtypes") and
/// the registered v3 `struct` type require: each field's offset is the sum of the sizes before
/// it, and the struct's size is the sum of all of them. Fields may be structs themselves, to
/// any depth (up to [`MAX_NESTING_DEPTH`](crate::MAX_NESTING_DEPTH)).
///
/// ```
/// use zarrdt::types::{DataType, ScalarType, StructType};
///
/// let point = StructType::new([("x", ScalarType::Float32.into()), ("y", ScalarType::Float32.into())])?;
/// let record = StructType::new([
///     ("id", DataType::from(ScalarType::Int32)),
///     ("flags", ScalarType::UInt8.into()),
///     ("point", point.into()),
/// ])?;
/// assert_eq!(record.size(), 13);
/// let offsets: Vec<_> = record.fields().iter().map(|f| f.offset()).collect();
/// assert_eq!(offsets, [0, 4, 5]);
/// let leaves: Vec<_> = record.leaves().iter().map(|l| (l.path().to_string(), l.offset())).collect();
/// assert_eq!(leaves[3], ("point.y".to_string(), 9));
/// # Ok::<(), zarrdt::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct StructType(StructLayout);

/// A fixed-size array type: `shape` (row-major) items of one element type, packed. The type of
/// a Rust array `[T; N]` (`[[T; N]; M]` has shape `[M, N]`).
///
/// ```
/// use zarrdt::types::{DataType, ScalarType, SubarrayType};
///
/// let pos = SubarrayType::new(ScalarType::Float32.into(), vec![3])?;
/// assert_eq!(pos.size(), 12);
/// // In Zarr v3 it is a struct of fields "0", "1", "2".
/// assert_eq!(
///     DataType::from(pos).to_string(),
///     r#"{"name":"struct","configuration":{"fields":[{"name":"0","data_type":"float32"},{"name":"1","data_type":"float32"},{"name":"2","data_type":"float32"}]}}"#
/// );
/// # Ok::<(), zarrdt::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct SubarrayType(SubarrayLayout);

/// One field of a [`StructType`]: its name, data type and packed offset.
#[derive(Clone, Copy, Debug)]
pub struct Field<'a>(&'a LayoutField);

impl<'a> Field<'a> {
    /// The field's name (non-empty, unique within its struct).
    pub fn name(self) -> &'a str {
        self.0.name()
    }

    /// The field's data type.
    pub fn data_type(self) -> DataType {
        DataType::view(self.0.layout())
    }

    /// Byte offset of the field from the start of its struct, in the packed layout.
    pub fn offset(self) -> usize {
        self.0.offset()
    }

    /// Size of the field in bytes.
    pub fn size(self) -> usize {
        self.0.layout().size()
    }
}

/// The fields of a [`StructType`], in order.
#[derive(Clone, Copy, Debug)]
pub struct Fields<'a>(&'a [LayoutField]);

impl<'a> Fields<'a> {
    /// Number of fields.
    pub fn len(self) -> usize {
        self.0.len()
    }

    /// Whether there are none (never true for a struct).
    pub fn is_empty(self) -> bool {
        self.0.is_empty()
    }

    /// The field at `index`, if any.
    pub fn get(self, index: usize) -> Option<Field<'a>> {
        self.0.get(index).map(Field)
    }

    /// The fields in order.
    pub fn iter(self) -> impl ExactSizeIterator<Item = Field<'a>> + DoubleEndedIterator {
        self.0.iter().map(Field)
    }
}

impl<'a> IntoIterator for Fields<'a> {
    type Item = Field<'a>;
    type IntoIter =
        std::iter::Map<std::slice::Iter<'a, LayoutField>, fn(&'a LayoutField) -> Field<'a>>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(Field as fn(&'a LayoutField) -> Field<'a>)
    }
}

impl StructType {
    /// A struct of the given `(name, data type)` fields, in order.
    ///
    /// Errors ([`Error::InvalidStruct`]) on an empty field list, an empty name, a duplicate
    /// name, a total size beyond [`MAX_ELEMENT_SIZE`](crate::MAX_ELEMENT_SIZE) or nesting
    /// beyond [`MAX_NESTING_DEPTH`](crate::MAX_NESTING_DEPTH); the error names the field.
    pub fn new<I, S>(fields: I) -> Result<Self, Error>
    where
        I: IntoIterator<Item = (S, DataType)>,
        S: Into<std::sync::Arc<str>>,
    {
        StructLayout::packed(
            fields
                .into_iter()
                .map(|(name, data_type)| (name, data_type.open_layout())),
        )
        .map(StructType)
    }

    /// The fields, in order.
    pub fn fields(&self) -> Fields<'_> {
        Fields(self.0.fields())
    }

    /// The field called `name`, if any.
    pub fn field(&self, name: &str) -> Option<Field<'_>> {
        self.0.field(name).map(Field)
    }

    /// The packed size (itemsize) in bytes: the sum of the field sizes.
    pub fn size(&self) -> usize {
        self.0.size()
    }

    /// Every scalar leaf, depth-first in field order, with its path and absolute offset (an
    /// array field's leaves once, with their [`Repeat`](crate::Repeat)s).
    pub fn leaves(&self) -> Vec<Leaf> {
        Layout::Struct(self.0.clone()).leaves()
    }
}

impl SubarrayType {
    /// An array of `shape` items of `element`; arrays of arrays merge into one shape.
    ///
    /// Errors if the shape is empty or has a zero extent, or the size or nesting exceeds the
    /// limits.
    pub fn new(element: DataType, shape: impl Into<Vec<usize>>) -> Result<Self, Error> {
        SubarrayLayout::new(element.open_layout(), shape).map(SubarrayType)
    }

    /// The element type (never itself an array).
    pub fn element(&self) -> DataType {
        DataType::view(self.0.element())
    }

    /// The shape, outermost dimension first.
    pub fn shape(&self) -> &[usize] {
        self.0.shape()
    }

    /// Number of items (the product of the shape).
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no items (never true).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Size in bytes.
    pub fn size(&self) -> usize {
        self.0.size()
    }
}

impl DataType {
    /// The data type that `layout`, a layout with its byte orders left open, is a view of.
    pub(crate) fn view(layout: &Layout) -> DataType {
        match layout {
            Layout::Scalar(scalar) => DataType::Scalar(scalar.scalar()),
            Layout::Struct(structure) => DataType::Struct(StructType(structure.clone())),
            Layout::Subarray(array) => DataType::Subarray(SubarrayType(array.clone())),
        }
    }

    /// The layout this data type is a view of, with every byte order left open (the bytes
    /// codec's `endian` decides it).
    pub(crate) fn open_layout(&self) -> Layout {
        match self {
            DataType::Scalar(scalar) => Layout::Scalar(ScalarLayout::open(*scalar)),
            DataType::Struct(structure) => Layout::Struct(structure.0.clone()),
            DataType::Subarray(array) => Layout::Subarray(array.0.clone()),
        }
    }

    /// The size of one encoded element in bytes (a struct's packed itemsize).
    pub fn size(&self) -> usize {
        match self {
            DataType::Scalar(scalar) => scalar.size(),
            DataType::Struct(structure) => structure.size(),
            DataType::Subarray(array) => array.size(),
        }
    }

    /// Whether any part of the encoding depends on byte order, so that the `bytes` codec needs
    /// an `endian`.
    pub fn has_endianness(&self) -> bool {
        self.open_layout().has_endianness()
    }

    /// The scalar type, if this is one.
    pub fn as_scalar(&self) -> Option<ScalarType> {
        match self {
            DataType::Scalar(scalar) => Some(*scalar),
            _ => None,
        }
    }

    /// The struct type, if this is one.
    pub fn as_struct(&self) -> Option<&StructType> {
        match self {
            DataType::Struct(structure) => Some(structure),
            _ => None,
        }
    }

    /// The array type, if this is one.
    pub fn as_subarray(&self) -> Option<&SubarrayType> {
        match self {
            DataType::Subarray(array) => Some(array),
            _ => None,
        }
    }

    /// Every scalar leaf with its path and absolute offset (one leaf for a scalar type).
    pub fn leaves(&self) -> Vec<Leaf> {
        self.open_layout().leaves()
    }
}

impl Layout {
    /// The layout of `data_type` stored by a `bytes` codec with `endian`: packed, every
    /// multi-byte leaf in that order.
    ///
    /// `endian` may be `None` only if no leaf has a byte order ([`Error::MissingEndian`]
    /// otherwise).
    pub fn from_data_type(data_type: &DataType, endian: Option<Endian>) -> Result<Self, Error> {
        let open = data_type.open_layout();
        match endian {
            Some(endian) => Ok(open.with_endian(endian)),
            None if !open.has_endianness() => Ok(open),
            None => Err(Error::MissingEndian {
                data_type: data_type.to_string(),
            }),
        }
    }

    /// The Zarr v3 data type and `bytes`-codec endian that store exactly these bytes.
    ///
    /// A v3 struct is packed and has one byte order for all fields, and its fields have no
    /// shape, so this is an [`Error::NoV3Equivalent`] naming the field for: subarray fields
    /// (NumPy readers would see a struct of fields `"0"`, `"1"`, … in v3, not the subarray),
    /// padding, and leaves whose byte orders differ. The endian is `None` when no leaf has a
    /// byte order. Time is linear in the size of the layout.
    pub fn to_v3(&self) -> Result<(DataType, Option<Endian>), Error> {
        check_v3(self, &FieldPath::root())?;
        let endian = self.uniform_endian().map_err(|path| Error::NoV3Equivalent {
            path,
            reason: "its byte order differs from earlier fields, and a v3 array has one `endian` for every field".into(),
        })?;
        Ok((DataType::view(&self.with_open_endian()), endian))
    }
}

/// Checks that `layout` has a v3 form: no padding, no subarrays.
fn check_v3(layout: &Layout, path: &FieldPath) -> Result<(), Error> {
    match layout {
        Layout::Scalar(_) => Ok(()),
        Layout::Subarray(array) => Err(Error::NoV3Equivalent {
            path: path.clone(),
            reason: format!(
                "a subarray of shape {:?}; v3 struct fields have no shape",
                array.shape()
            ),
        }),
        Layout::Struct(structure) => {
            if let Some((from, to, next)) = structure.first_gap() {
                return Err(Error::NoV3Equivalent {
                    path: next.map_or_else(|| path.clone(), |field| path.field(field.name())),
                    reason: format!(
                        "{} bytes of padding at offsets {from}..{to}; v3 structs are packed",
                        to - from
                    ),
                });
            }
            structure
                .fields()
                .iter()
                .try_for_each(|field| check_v3(field.layout(), &path.field(field.name())))
        }
    }
}

impl From<ScalarType> for DataType {
    fn from(scalar: ScalarType) -> Self {
        DataType::Scalar(scalar)
    }
}

impl From<StructType> for DataType {
    fn from(structure: StructType) -> Self {
        DataType::Struct(structure)
    }
}

impl From<SubarrayType> for DataType {
    fn from(array: SubarrayType) -> Self {
        DataType::Subarray(array)
    }
}

impl fmt::Display for DataType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataType::Scalar(scalar) if scalar.is_core() => f.write_str(&scalar.name()),
            other => write!(f, "{}", other.to_v3_json()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(s: ScalarType) -> DataType {
        s.into()
    }

    #[test]
    fn packed_offsets_are_prefix_sums() {
        // Seed 001: "sum over the size of the dtypes"; struct README example id/flags/value.
        let st = StructType::new([
            ("id", scalar(ScalarType::Int32)),
            ("flags", scalar(ScalarType::UInt8)),
            ("value", scalar(ScalarType::Float64)),
        ])
        .unwrap();
        assert_eq!(st.size(), 13);
        assert_eq!(
            st.fields().iter().map(Field::offset).collect::<Vec<_>>(),
            [0, 4, 5]
        );
    }

    #[test]
    fn rejects_empty_duplicate_and_missing_fields() {
        let err = StructType::new(Vec::<(String, DataType)>::new()).unwrap_err();
        assert!(err.to_string().contains("at least one field"), "{err}");
        let err = StructType::new([("", scalar(ScalarType::Int8))]).unwrap_err();
        assert!(err.to_string().contains("must not be empty"), "{err}");
        let err = StructType::new([
            ("a", scalar(ScalarType::Int8)),
            ("a", scalar(ScalarType::Int16)),
        ])
        .unwrap_err();
        assert!(
            matches!(&err, Error::InvalidStruct { path, .. } if path.to_string() == "a"),
            "{err}"
        );
    }

    #[test]
    fn rejects_oversized_structs() {
        let big = ScalarType::raw_bits(crate::MAX_ELEMENT_SIZE * 8).unwrap();
        let err =
            StructType::new([("a", scalar(big)), ("b", scalar(ScalarType::Int8))]).unwrap_err();
        assert!(err.to_string().contains("exceeds"), "{err}");
    }

    #[test]
    fn fixed_and_open_byte_orders() {
        let record = DataType::from(
            StructType::new([
                ("a", scalar(ScalarType::Int32)),
                ("b", scalar(ScalarType::UInt8)),
            ])
            .unwrap(),
        );
        let big = Layout::from_data_type(&record, Some(Endian::Big)).unwrap();
        assert_eq!(big.uniform_endian(), Ok(Some(Endian::Big)));
        let (back, endian) = big.to_v3().unwrap();
        assert_eq!((back, endian), (record.clone(), Some(Endian::Big)));
        assert!(matches!(
            Layout::from_data_type(&record, None),
            Err(Error::MissingEndian { .. })
        ));
    }
}
