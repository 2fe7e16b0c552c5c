//! [`ZarrStruct`]: what `#[derive(ZarrStruct)]` implements.

use crate::{DataType, Error, FieldDescriptor, Layout, ZarrType};

/// A Rust struct that is a Zarr struct data type. Implement it with
/// `#[derive(ZarrStruct)]` (from the `zarrdt` crate), which also implements [`ZarrType`].
///
/// The record is **packed**: field offsets are the prefix sums of the fields' packed sizes, in
/// declaration order, whatever Rust's own layout of the struct is.
pub trait ZarrStruct: ZarrType {
    /// The record's fields in order: names and types, as constants.
    const FIELDS: &'static [FieldDescriptor] = <Self as ZarrType>::TYPE.fields();

    /// The packed offset of each field, in order: computed from [`ZarrStruct::FIELDS`] (the
    /// prefix sums of the field sizes), never stored beside it.
    const OFFSETS: &'static [usize];

    /// Checks that `found`, for example the data type in an array's `zarr.json`, is this
    /// struct's Zarr v3 data type; [`Error::TypeMismatch`] names the first field that differs
    /// (its name, type, position or the number of fields).
    fn check_data_type(found: &DataType) -> Result<(), Error> {
        Self::data_type().check_matches(found)
    }

    /// Checks that `found`, for example the `dtype` in an array's `.zarray`, stores this struct:
    /// same fields, types, offsets and subarray shapes (byte orders may differ).
    fn check_layout(found: &Layout) -> Result<(), Error> {
        Self::layout(crate::Endian::NATIVE).check_matches(found)
    }
}
