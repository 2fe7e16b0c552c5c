//! Structural comparison of data types, reporting the first difference by field path.

use super::DataType;
use crate::{Error, FieldPath, StructType};

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
        match first_difference(self, found, &FieldPath::root()) {
            None => Ok(()),
            Some((path, difference)) => Err(Error::TypeMismatch { path, difference }),
        }
    }
}

fn describe(data_type: &DataType) -> String {
    match data_type {
        DataType::Scalar(_) => data_type.to_string(),
        DataType::Struct(structure) => format!("a struct of {} fields", structure.fields().len()),
    }
}

fn first_difference(
    expected: &DataType,
    found: &DataType,
    path: &FieldPath,
) -> Option<(FieldPath, String)> {
    match (expected, found) {
        (DataType::Scalar(a), DataType::Scalar(b)) if a == b => None,
        (DataType::Struct(a), DataType::Struct(b)) => struct_difference(a, b, path),
        _ => Some((
            path.clone(),
            format!("expected {}, found {}", describe(expected), describe(found)),
        )),
    }
}

fn struct_difference(
    expected: &StructType,
    found: &StructType,
    path: &FieldPath,
) -> Option<(FieldPath, String)> {
    let (ours, theirs) = (expected.fields(), found.fields());
    for position in 0..ours.len().max(theirs.len()) {
        match (ours.get(position), theirs.get(position)) {
            (Some(a), Some(b)) if a.name() == b.name() => {
                let inner = first_difference(a.data_type(), b.data_type(), &path.field(a.name()));
                if inner.is_some() {
                    return inner;
                }
            }
            (Some(a), Some(b)) => {
                let why = if found.field(a.name()).is_some() {
                    "the field order differs"
                } else {
                    "the names differ"
                };
                return Some((
                    path.field(a.name()),
                    format!(
                        "expected field {:?} at position {position}, found {:?} ({why})",
                        a.name(),
                        b.name()
                    ),
                ));
            }
            (Some(a), None) => {
                return Some((
                    path.field(a.name()),
                    format!(
                        "missing field: expected {} fields, found {}",
                        ours.len(),
                        theirs.len()
                    ),
                ));
            }
            (None, Some(b)) => {
                return Some((
                    path.field(b.name()),
                    format!(
                        "unexpected field: expected {} fields, found {}",
                        ours.len(),
                        theirs.len()
                    ),
                ));
            }
            (None, None) => break,
        }
    }
    None
}
