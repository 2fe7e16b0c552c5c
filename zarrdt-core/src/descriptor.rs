//! Static type descriptions: what an [`Element`](crate::Element) type is, as constants the
//! compiler can evaluate.

use crate::{
    ArrayLayout, DataType, Endian, Layout, LayoutField, ScalarLayout, ScalarType, StructLayout,
    StructType,
};

/// The Zarr type of a Rust type, as a constant: usable at compile time, allocation-free.
///
/// Arrays (`[T; N]`) are described as arrays, because Zarr v2 stores them as subarray fields.
/// In Zarr v3, which has no subarrays, they become structs of fields `"0"`…`"N-1"`
/// ([`TypeDescriptor::data_type`]); see the crate documentation.
#[derive(Clone, Copy, Debug)]
pub enum TypeDescriptor {
    /// A scalar type.
    Scalar(ScalarType),
    /// A struct: its fields in order, with their packed offsets.
    Struct(&'static [FieldDescriptor]),
    /// `len` elements of one type.
    Array {
        /// The element type.
        element: &'static TypeDescriptor,
        /// Number of elements, at least 1.
        len: usize,
    },
}

/// One field of a [`TypeDescriptor::Struct`].
///
/// Field names must be non-empty and unique within their struct, and offsets must be the
/// packed prefix sums of the field sizes; `#[derive(ZarrStruct)]` checks both at compile time.
#[derive(Clone, Copy, Debug)]
pub struct FieldDescriptor {
    name: &'static str,
    offset: usize,
    ty: TypeDescriptor,
}

impl FieldDescriptor {
    /// A field called `name` at packed `offset`, of type `ty`.
    pub const fn new(name: &'static str, offset: usize, ty: TypeDescriptor) -> Self {
        FieldDescriptor { name, offset, ty }
    }

    /// The field's record name.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// Packed byte offset within the struct.
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// The field's type.
    pub const fn ty(&self) -> TypeDescriptor {
        self.ty
    }

    /// Size of the field in bytes.
    pub const fn size(&self) -> usize {
        self.ty.size()
    }
}

impl TypeDescriptor {
    /// The packed size in bytes.
    pub const fn size(&self) -> usize {
        match self {
            TypeDescriptor::Scalar(scalar) => scalar.size(),
            TypeDescriptor::Struct(fields) => {
                let mut size = 0;
                let mut i = 0;
                while i < fields.len() {
                    size += fields[i].ty.size();
                    i += 1;
                }
                size
            }
            TypeDescriptor::Array { element, len } => element.size() * *len,
        }
    }

    /// Whether any leaf has a byte order, so that the `bytes` codec needs `endian`.
    pub const fn has_endianness(&self) -> bool {
        match self {
            TypeDescriptor::Scalar(scalar) => scalar.has_endianness(),
            TypeDescriptor::Struct(fields) => {
                let mut i = 0;
                while i < fields.len() {
                    if fields[i].ty.has_endianness() {
                        return true;
                    }
                    i += 1;
                }
                false
            }
            TypeDescriptor::Array { element, .. } => element.has_endianness(),
        }
    }

    /// The Zarr v3 data type: arrays become structs with fields `"0"`…`"N-1"`.
    pub fn data_type(&self) -> DataType {
        match self {
            TypeDescriptor::Scalar(scalar) => DataType::Scalar(*scalar),
            TypeDescriptor::Struct(fields) => DataType::Struct(StructType::from_trusted_fields(
                fields
                    .iter()
                    .map(|field| (field.name.to_owned(), field.ty.data_type())),
            )),
            TypeDescriptor::Array { element, len } => {
                let element = element.data_type();
                DataType::Struct(StructType::from_trusted_fields(
                    (0..*len).map(|index| (index.to_string(), element.clone())),
                ))
            }
        }
    }

    /// The stored layout in `endian`: packed, arrays as subarrays (the Zarr v2 form).
    pub fn layout(&self, endian: Endian) -> Layout {
        match self {
            TypeDescriptor::Scalar(scalar) => {
                Layout::Scalar(ScalarLayout::with_endian(*scalar, endian))
            }
            TypeDescriptor::Struct(fields) => Layout::Struct(StructLayout::from_trusted_fields(
                fields.iter().map(|field| {
                    LayoutField::new(field.name, field.offset, field.ty.layout(endian))
                }),
                self.size(),
            )),
            TypeDescriptor::Array { element, len } => Layout::Array(
                ArrayLayout::from_trusted_parts(element.layout(endian), vec![*len]),
            ),
        }
    }
}
