//! Comparing data types: by their v3 form, reporting the first difference by field path.

use std::hash::{Hash, Hasher};

use super::DataType;
use crate::Error;
use crate::layout::{Layout, first_difference, struct_form};

impl DataType {
    /// Checks that `found` (for example a data type read from an array's metadata) is the same
    /// type as `self` (the one a Rust type expects).
    ///
    /// On a difference, [`Error::TypeMismatch`] names the first field at which they differ
    /// (depth-first, in field order) and how: a different type, a different name at a
    /// position, fields in a different order, or a different number of fields. An array type
    /// matches the struct of fields `"0"`, `"1"`, … it is written as in v3. Time is linear in
    /// the size of the two types.
    ///
    /// ```
    /// use zarrdt::types::DataType;
    /// use serde_json::json;
    ///
    /// let ours = DataType::from_v3_json(&json!({"name": "struct", "configuration": {"fields": [
    ///     {"name": "a", "data_type": "int32"}, {"name": "b", "data_type": "float64"}]}}))?;
    /// let theirs = DataType::from_v3_json(&json!({"name": "struct", "configuration": {"fields": [
    ///     {"name": "a", "data_type": "int32"}, {"name": "b", "data_type": "float32"}]}}))?;
    /// let err = ours.check_matches(&theirs).unwrap_err();
    /// assert_eq!(err.to_string(), "data type mismatch at field `b`: expected float64, found float32");
    /// # Ok::<(), zarrdt::Error>(())
    /// ```
    pub fn check_matches(&self, found: &DataType) -> Result<(), Error> {
        self.open_layout().check_matches(&found.open_layout())
    }
}

/// Data types are equal when their v3 forms are: same fields, names, order and types.
impl PartialEq for DataType {
    fn eq(&self, other: &Self) -> bool {
        first_difference(&self.open_layout(), &other.open_layout()).is_none()
    }
}

impl Eq for DataType {}

/// Hashes the v3 form, so that an array type hashes as the struct it is written as.
impl Hash for DataType {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_v3(&self.open_layout(), state);
    }
}

fn hash_v3<H: Hasher>(layout: &Layout, state: &mut H) {
    match layout {
        Layout::Scalar(scalar) => {
            state.write_u8(0);
            scalar.scalar().hash(state);
        }
        Layout::Struct(structure) => {
            state.write_u8(1);
            state.write_usize(structure.fields().len());
            for field in structure.fields() {
                field.name().hash(state);
                hash_v3(field.layout(), state);
            }
        }
        Layout::Subarray(array) => {
            let item = array.item();
            let count = array.shape()[0];
            state.write_u8(1);
            state.write_usize(count);
            for index in 0..count {
                struct_form::item_name(index).as_str().hash(state);
                hash_v3(&item, state);
            }
        }
    }
}
