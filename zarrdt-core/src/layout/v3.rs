//! From a stored layout to the Zarr v3 data type and `endian` that describe the same bytes,
//! where one exists.

use super::{Layout, StructLayout};
use crate::{DataType, Endian, Error, FieldPath, StructType};

impl Layout {
    /// The Zarr v3 data type and `bytes`-codec endian that store exactly these bytes.
    ///
    /// A v3 struct is packed and has one byte order for all fields, and its fields have no
    /// shape, so this is an [`Error::NoV3Equivalent`] naming the field for: subarray fields,
    /// padding, and leaves whose byte orders differ. The endian is `None` when no leaf has a
    /// byte order.
    pub fn to_v3(&self) -> Result<(DataType, Option<Endian>), Error> {
        let endian = self.uniform_endian().map_err(|path| Error::NoV3Equivalent {
            path,
            reason: "its byte order differs from earlier fields, and a v3 array has one `endian` for every field".into(),
        })?;
        Ok((to_data_type(self, &FieldPath::root())?, endian))
    }
}

fn to_data_type(layout: &Layout, path: &FieldPath) -> Result<DataType, Error> {
    match layout {
        Layout::Scalar(scalar) => Ok(scalar.scalar().into()),
        Layout::Array(array) => Err(Error::NoV3Equivalent {
            path: path.clone(),
            reason: format!(
                "a subarray of shape {:?}; v3 struct fields have no shape",
                array.shape()
            ),
        }),
        Layout::Struct(structure) => struct_type(structure, path).map(DataType::Struct),
    }
}

fn struct_type(structure: &StructLayout, path: &FieldPath) -> Result<StructType, Error> {
    let mut end = 0;
    let mut fields = Vec::with_capacity(structure.fields().len());
    for field in structure.fields() {
        let field_path = path.field(field.name());
        if field.offset() != end {
            return Err(padding(&field_path, end, field.offset()));
        }
        fields.push((
            field.name().to_owned(),
            to_data_type(field.layout(), &field_path)?,
        ));
        end = field.offset() + field.layout().size();
    }
    if end != structure.size() {
        return Err(padding(path, end, structure.size()));
    }
    StructType::new(fields)
}

fn padding(path: &FieldPath, from: usize, to: usize) -> Error {
    Error::NoV3Equivalent {
        path: path.clone(),
        reason: format!(
            "{} bytes of padding at offsets {from}..{to}; v3 structs are packed",
            to - from
        ),
    }
}
