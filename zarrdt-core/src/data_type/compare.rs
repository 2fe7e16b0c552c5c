//! Structural comparison of data types, reporting the first difference by field path.

use super::DataType;
use crate::{Endian, Error, Layout};

impl DataType {
    /// Checks that `found` (for example a data type read from an array's metadata) is the same
    /// type as `self` (the one a Rust type expects).
    ///
    /// On a difference, [`Error::TypeMismatch`] names the first field at which they differ
    /// (depth-first, in field order) and how: a different type, a different name at a
    /// position, fields in a different order, or a different number of fields.
    ///
    /// ```
    /// use zarrdt_core::DataType;
    /// use serde_json::json;
    ///
    /// let ours = DataType::from_v3_json(&json!({"name": "struct", "configuration": {"fields": [
    ///     {"name": "a", "data_type": "int32"}, {"name": "b", "data_type": "float64"}]}}))?;
    /// let theirs = DataType::from_v3_json(&json!({"name": "struct", "configuration": {"fields": [
    ///     {"name": "a", "data_type": "int32"}, {"name": "b", "data_type": "float32"}]}}))?;
    /// let err = ours.check_matches(&theirs).unwrap_err();
    /// assert_eq!(err.to_string(), "data type mismatch at field `b`: expected float64, found float32");
    /// # Ok::<(), zarrdt_core::Error>(())
    /// ```
    pub fn check_matches(&self, found: &DataType) -> Result<(), Error> {
        // Packed layouts in one byte order differ exactly where the types differ, and the
        // layout comparison reports the first difference by path.
        let layout = |data_type| Layout::from_data_type(data_type, Some(Endian::Little));
        layout(self)?.check_matches(&layout(found)?)
    }
}
