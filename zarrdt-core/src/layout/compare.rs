//! Structural comparison of layouts, ignoring byte order, reporting the first difference by
//! field path.
//!
//! A subarray of `n` items and a struct of fields `"0"` … `"n-1"` holding those items are the
//! same bytes (the Zarr v3 form of a Rust array is such a struct), so they compare equal. The
//! comparison never expands a subarray: it walks the struct side and compares each field with
//! the subarray's one item layout, so its time is linear in the size of the two layouts.

use super::{Layout, StructLayout, SubarrayLayout, struct_form};
use crate::{Error, FieldPath};

impl Layout {
    /// Checks that `found` stores the same fields as `self` at the same offsets, with the same
    /// types and subarray shapes and the same itemsize; byte orders may differ (they are a
    /// property of the stored bytes, which the decoders handle).
    ///
    /// [`Error::TypeMismatch`] names the first field that differs.
    pub fn check_matches(&self, found: &Layout) -> Result<(), Error> {
        match first_difference(self, found) {
            None => Ok(()),
            Some((path, difference)) => Err(Error::TypeMismatch { path, difference }),
        }
    }
}

/// The first place where `expected` and `found` differ, and how; `None` if they store the same
/// thing.
pub(crate) fn first_difference(expected: &Layout, found: &Layout) -> Option<(FieldPath, String)> {
    difference(expected, found).map(|(mut segments, why)| {
        segments.reverse();
        let mut path = FieldPath::root();
        for segment in segments {
            path = path.field(&segment);
        }
        (path, why)
    })
}

/// The path is collected innermost first, so that nothing is allocated on the way down.
type Difference = (Vec<String>, String);

fn mismatch(expected: &Layout, found: &Layout) -> Option<Difference> {
    Some((
        Vec::new(),
        format!(
            "expected {}, found {}",
            expected.describe(),
            found.describe()
        ),
    ))
}

fn within(name: &str, inner: Option<Difference>) -> Option<Difference> {
    inner.map(|(mut path, why)| {
        path.push(name.to_owned());
        (path, why)
    })
}

fn difference(expected: &Layout, found: &Layout) -> Option<Difference> {
    match (expected, found) {
        (Layout::Scalar(a), Layout::Scalar(b)) if a.scalar() == b.scalar() => None,
        (Layout::Struct(a), Layout::Struct(b)) => struct_difference(a, b),
        (Layout::Subarray(a), Layout::Subarray(b)) if a.shape() == b.shape() => {
            difference(a.element(), b.element())
        }
        (Layout::Subarray(a), Layout::Struct(b)) => indexed_difference(a, b, true),
        (Layout::Struct(a), Layout::Subarray(b)) => indexed_difference(b, a, false),
        _ => mismatch(expected, found),
    }
}

fn struct_difference(expected: &StructLayout, found: &StructLayout) -> Option<Difference> {
    let (ours, theirs) = (expected.fields(), found.fields());
    for (position, (a, b)) in ours.iter().zip(theirs).enumerate() {
        if a.name() != b.name() {
            let why = if theirs.iter().any(|field| field.name() == a.name()) {
                "the field order differs"
            } else {
                "the names differ"
            };
            return Some((
                vec![a.name().to_owned()],
                format!(
                    "expected field {:?} at position {position}, found {:?} ({why})",
                    a.name(),
                    b.name()
                ),
            ));
        }
        if let Some(difference) = offset_difference(a.name(), a.offset(), b.offset()) {
            return Some(difference);
        }
        if let Some(inner) = within(a.name(), difference(a.layout(), b.layout())) {
            return Some(inner);
        }
    }
    count_difference(
        ours.len(),
        theirs.len(),
        ours.get(theirs.len()).map(|f| f.name()),
        theirs.get(ours.len()).map(|f| f.name()),
    )
    .or_else(|| size_difference(expected.size(), found.size()))
}

/// A subarray against a struct that may be its v3 form: fields `"0"`, `"1"`, … holding one
/// item each. `array_expected` says which side the subarray is, for the messages.
fn indexed_difference(
    array: &SubarrayLayout,
    structure: &StructLayout,
    array_expected: bool,
) -> Option<Difference> {
    let outer = array.shape()[0];
    let item = array.item();
    let stride = item.size();
    let fields = structure.fields();
    for (index, field) in fields.iter().take(outer).enumerate() {
        let name = struct_form::item_name(index);
        if !struct_form::is_item_name(field.name(), index) {
            let (expected, found) = if array_expected {
                (name.as_str(), field.name())
            } else {
                (field.name(), name.as_str())
            };
            return Some((
                vec![expected.to_owned()],
                format!(
                    "expected field {expected:?} at position {index}, found {found:?} (the names differ)"
                ),
            ));
        }
        let (expected_offset, found_offset) = if array_expected {
            (index * stride, field.offset())
        } else {
            (field.offset(), index * stride)
        };
        if let Some(difference) = offset_difference(&name, expected_offset, found_offset) {
            return Some(difference);
        }
        let inner = if array_expected {
            difference(&item, field.layout())
        } else {
            difference(field.layout(), &item)
        };
        if let Some(inner) = within(&name, inner) {
            return Some(inner);
        }
    }
    let extra = fields.get(outer).map(|f| f.name().to_owned());
    let missing = (fields.len() < outer).then(|| fields.len().to_string());
    let (expected_len, found_len) = if array_expected {
        (outer, fields.len())
    } else {
        (fields.len(), outer)
    };
    let (expected_extra, found_extra) = if array_expected {
        (missing.as_deref(), extra.as_deref())
    } else {
        (extra.as_deref(), missing.as_deref())
    };
    count_difference(expected_len, found_len, expected_extra, found_extra).or_else(|| {
        let (a, b) = if array_expected {
            (array.size(), structure.size())
        } else {
            (structure.size(), array.size())
        };
        size_difference(a, b)
    })
}

fn offset_difference(name: &str, expected: usize, found: usize) -> Option<Difference> {
    (expected != found).then(|| {
        (
            vec![name.to_owned()],
            format!(
                "expected offset {expected}, found {found} (the stored record has padding or a different field size before it)"
            ),
        )
    })
}

/// Different field counts, once the common fields agree: `first_missing` is the first field
/// only `expected` has, `first_extra` the first only `found` has.
fn count_difference(
    expected: usize,
    found: usize,
    first_missing: Option<&str>,
    first_extra: Option<&str>,
) -> Option<Difference> {
    if let Some(name) = first_missing.filter(|_| found < expected) {
        return Some((
            vec![name.to_owned()],
            format!("missing field: expected {expected} fields, found {found}"),
        ));
    }
    if let Some(name) = first_extra.filter(|_| found > expected) {
        return Some((
            vec![name.to_owned()],
            format!("unexpected field: expected {expected} fields, found {found}"),
        ));
    }
    None
}

fn size_difference(expected: usize, found: usize) -> Option<Difference> {
    (expected != found).then(|| {
        (
            Vec::new(),
            format!("expected itemsize {expected}, found {found} (trailing padding)"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Endian, ScalarLayout, ScalarType, TimeConfig, TimeUnit};

    fn i2() -> Layout {
        Layout::Scalar(ScalarLayout::with_endian(ScalarType::Int16, Endian::Little))
    }

    fn packed(fields: Vec<(&str, Layout)>) -> Layout {
        Layout::Struct(StructLayout::packed(fields).unwrap())
    }

    #[test]
    fn arrays_match_their_struct_form() {
        let grid = Layout::Subarray(SubarrayLayout::new(i2(), vec![3, 2]).unwrap());
        let pair = || packed(vec![("0", i2()), ("1", i2())]);
        let v3 = packed(vec![("0", pair()), ("1", pair()), ("2", pair())]);
        grid.check_matches(&v3).unwrap();
        v3.check_matches(&grid).unwrap();
        let short = packed(vec![("0", pair()), ("1", pair())]);
        let err = grid.check_matches(&short).unwrap_err().to_string();
        assert!(err.contains("missing field"), "{err}");
        let err = short.check_matches(&grid).unwrap_err().to_string();
        assert!(err.contains("unexpected field"), "{err}");
        let renamed = packed(vec![("0", pair()), ("x", pair()), ("2", pair())]);
        let err = grid.check_matches(&renamed).unwrap_err().to_string();
        assert_eq!(
            err,
            "data type mismatch at field `1`: expected field \"1\" at position 1, found \"x\" (the names differ)"
        );
    }

    #[test]
    fn types_of_one_name_are_told_apart_by_their_configuration() {
        let leaf = |scalar: Option<ScalarType>| {
            packed(vec![(
                "s",
                Layout::Scalar(ScalarLayout::with_endian(scalar.unwrap(), Endian::Little)),
            )])
        };
        let text = |chars| leaf(ScalarType::fixed_length_utf32(chars));
        let err = text(8).check_matches(&text(4)).unwrap_err().to_string();
        assert_eq!(
            err,
            "data type mismatch at field `s`: expected fixed_length_utf32 (length_bytes 32), \
             found fixed_length_utf32 (length_bytes 16)"
        );
        let time = |unit, scale| leaf(TimeConfig::new(unit, scale).map(ScalarType::DateTime64));
        let err = time(TimeUnit::Second, 10)
            .check_matches(&time(TimeUnit::Millisecond, 1))
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "data type mismatch at field `s`: expected numpy.datetime64 (unit \"s\", \
             scale_factor 10), found numpy.datetime64 (unit \"ms\", scale_factor 1)"
        );
        let bytes = leaf(ScalarType::null_terminated_bytes(5));
        let err = bytes
            .check_matches(&leaf(ScalarType::raw_bytes(5)))
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "data type mismatch at field `s`: expected null_terminated_bytes (length_bytes 5), \
             found raw_bytes (length_bytes 5)"
        );
        // Types without a configuration are named as before.
        let err = leaf(Some(ScalarType::Int32))
            .check_matches(&leaf(Some(ScalarType::Float32)))
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "data type mismatch at field `s`: expected int32, found float32"
        );
    }

    #[test]
    fn a_huge_subarray_against_a_small_struct_is_one_step() {
        let huge = Layout::Subarray(
            SubarrayLayout::new(
                Layout::Scalar(ScalarLayout::new(ScalarType::UInt8, None).unwrap()),
                vec![2_000_000_000],
            )
            .unwrap(),
        );
        let inner = packed(vec![(
            "x",
            Layout::Scalar(ScalarLayout::new(ScalarType::UInt8, None).unwrap()),
        )]);
        let err = inner.check_matches(&huge).unwrap_err().to_string();
        assert!(err.contains("expected field \"x\" at position 0"), "{err}");
    }
}
