//! Struct (record) types: ordered named fields and their packed layout.

use std::collections::HashSet;

use crate::{DataType, Error, FieldPath, MAX_ELEMENT_SIZE, ScalarType};

/// A Zarr struct data type: an ordered, non-empty list of uniquely named fields.
///
/// The layout is **packed**, as both the struct spec ("sum over the size of the dtypes") and the
/// registered v3 `struct` type require: each field's offset is the sum of the sizes before it,
/// and the struct's size is the sum of all of them. Fields may be structs themselves, to any
/// depth.
///
/// ```
/// use zarrdt_core::{DataType, ScalarType, StructType};
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
/// # Ok::<(), zarrdt_core::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructType {
    fields: Vec<Field>,
    size: usize,
}

/// One field of a [`StructType`]: its name, data type and packed offset.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    name: String,
    data_type: DataType,
    offset: usize,
}

impl Field {
    /// The field's name (non-empty, unique within its struct).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The field's data type.
    pub fn data_type(&self) -> &DataType {
        &self.data_type
    }

    /// Byte offset of the field from the start of its struct, in the packed layout.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Size of the field in bytes.
    pub fn size(&self) -> usize {
        self.data_type.size()
    }
}

/// A scalar at the bottom of a (nested) struct, with its full path and absolute offset.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Leaf {
    path: FieldPath,
    offset: usize,
    scalar: ScalarType,
}

impl Leaf {
    /// Path from the top of the record, such as `point.x`.
    pub fn path(&self) -> &FieldPath {
        &self.path
    }

    /// Byte offset from the start of the record.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The leaf's type.
    pub fn scalar(&self) -> ScalarType {
        self.scalar
    }
}

impl StructType {
    /// A struct of the given `(name, data type)` fields, in order.
    ///
    /// Errors ([`Error::InvalidStruct`]) on an empty field list, an empty name, a duplicate
    /// name, or a total size beyond [`MAX_ELEMENT_SIZE`]; the error names the field.
    pub fn new<I, S>(fields: I) -> Result<Self, Error>
    where
        I: IntoIterator<Item = (S, DataType)>,
        S: Into<String>,
    {
        let mut seen = HashSet::new();
        let mut offset = 0usize;
        let mut built = Vec::new();
        for (name, data_type) in fields {
            let name = name.into();
            let path = FieldPath::root().field(&name);
            if name.is_empty() {
                return Err(Error::InvalidStruct {
                    path: FieldPath::root().index(built.len()),
                    reason: "field names must not be empty".into(),
                });
            }
            if !seen.insert(name.clone()) {
                return Err(Error::InvalidStruct {
                    path,
                    reason: format!(
                        "field name {} occurs more than once",
                        serde_json::Value::from(name.as_str())
                    ),
                });
            }
            let size = data_type.size();
            built.push(Field {
                name,
                data_type,
                offset,
            });
            offset = match offset.checked_add(size) {
                Some(end) if end <= MAX_ELEMENT_SIZE => end,
                _ => {
                    return Err(Error::InvalidStruct {
                        path,
                        reason: format!("packed size exceeds {MAX_ELEMENT_SIZE} bytes"),
                    });
                }
            };
        }
        if built.is_empty() {
            return Err(Error::InvalidStruct {
                path: FieldPath::root(),
                reason: "a struct needs at least one field".into(),
            });
        }
        Ok(StructType {
            fields: built,
            size: offset,
        })
    }

    /// A struct from fields already known to be valid (static descriptors, whose names the
    /// derive checks at compile time): offsets are computed, nothing is re-checked.
    pub(crate) fn from_trusted_fields(fields: impl Iterator<Item = (String, DataType)>) -> Self {
        let mut offset = 0usize;
        let fields = fields
            .map(|(name, data_type)| {
                let field = Field {
                    name,
                    offset,
                    data_type,
                };
                offset = offset.saturating_add(field.size());
                field
            })
            .collect();
        StructType {
            fields,
            size: offset,
        }
    }

    /// The fields, in order.
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// The field called `name`, if any.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|field| field.name == name)
    }

    /// The packed size (itemsize) in bytes: the sum of the field sizes.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Every scalar leaf, depth-first in field order, with its path and absolute offset.
    pub fn leaves(&self) -> Vec<Leaf> {
        let mut leaves = Vec::new();
        self.collect_leaves(&FieldPath::root(), 0, &mut leaves);
        leaves
    }

    fn collect_leaves(&self, prefix: &FieldPath, base: usize, leaves: &mut Vec<Leaf>) {
        for field in &self.fields {
            let path = prefix.field(&field.name);
            let offset = base + field.offset;
            match &field.data_type {
                DataType::Scalar(scalar) => leaves.push(Leaf {
                    path,
                    offset,
                    scalar: *scalar,
                }),
                DataType::Struct(inner) => inner.collect_leaves(&path, offset, leaves),
            }
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
        let big = ScalarType::raw_bits(MAX_ELEMENT_SIZE * 8).unwrap();
        let err =
            StructType::new([("a", scalar(big)), ("b", scalar(ScalarType::Int8))]).unwrap_err();
        assert!(err.to_string().contains("exceeds"), "{err}");
    }
}
