//! Structural comparison of stored layouts, ignoring byte order, and re-ordering stored bytes.

use super::{Layout, StructLayout};
use crate::{Element, Endian, Error, FieldPath};

impl Layout {
    /// Checks that `found` stores the same fields as `self` at the same offsets, with the same
    /// types and subarray shapes and the same itemsize; byte orders may differ (they are a
    /// property of the stored bytes, which [`Layout::decode_elements`] handles).
    ///
    /// [`Error::TypeMismatch`] names the first field that differs.
    pub fn check_matches(&self, found: &Layout) -> Result<(), Error> {
        match first_difference(self, found, &FieldPath::root()) {
            None => Ok(()),
            Some((path, difference)) => Err(Error::TypeMismatch { path, difference }),
        }
    }

    /// Decodes a chunk stored in this layout into Rust values of `T`, whatever the byte order of
    /// each field (Zarr v2 allows one per field), after checking that the layout is `T`'s.
    pub fn decode_elements<T: Element>(&self, bytes: &[u8]) -> Result<Vec<T>, Error> {
        T::layout(Endian::NATIVE).check_matches(self)?;
        match self.uniform_endian() {
            Ok(endian) => T::decode_slice(bytes, endian.unwrap_or(Endian::NATIVE)),
            Err(_) => {
                let mut native = bytes.to_vec();
                self.convert_byte_order(&mut native, Endian::NATIVE)?;
                T::decode_slice(&native, Endian::NATIVE)
            }
        }
    }

    /// Rewrites a chunk stored in this layout so that every multi-byte value is in `target`
    /// order (a layout-aware byte swap, in place).
    pub fn convert_byte_order(&self, bytes: &mut [u8], target: Endian) -> Result<(), Error> {
        let size = self.size();
        if size == 0 || !bytes.len().is_multiple_of(size) {
            return Err(Error::ChunkLength {
                len: bytes.len(),
                element_size: size,
            });
        }
        let swaps: Vec<(usize, usize, usize)> = self
            .leaves()
            .into_iter()
            .filter(|leaf| leaf.layout().endian().is_some_and(|e| e != target))
            .map(|leaf| {
                let scalar = leaf.layout().scalar();
                (leaf.offset(), scalar.size(), scalar.swap_unit())
            })
            .collect();
        if swaps.is_empty() {
            return Ok(());
        }
        for element in bytes.chunks_exact_mut(size) {
            for &(offset, len, unit) in &swaps {
                for value in element[offset..offset + len].chunks_exact_mut(unit) {
                    value.reverse();
                }
            }
        }
        Ok(())
    }
}

fn describe(layout: &Layout) -> String {
    match layout {
        Layout::Scalar(scalar) => scalar.scalar().to_string(),
        Layout::Struct(structure) => format!("a struct of {} fields", structure.fields().len()),
        Layout::Array(array) => format!("a subarray of shape {:?}", array.shape()),
    }
}

fn first_difference(
    expected: &Layout,
    found: &Layout,
    path: &FieldPath,
) -> Option<(FieldPath, String)> {
    match (expected, found) {
        (Layout::Scalar(a), Layout::Scalar(b)) if a.scalar() == b.scalar() => None,
        (Layout::Struct(a), Layout::Struct(b)) => struct_difference(a, b, path),
        (Layout::Array(a), Layout::Array(b)) if a.shape() == b.shape() => {
            first_difference(a.element(), b.element(), path)
        }
        // A Rust array is a subarray in v2 and a struct of fields "0", "1", … in v3 (see
        // the crate docs): the same bytes, so the two forms match.
        (Layout::Array(a), Layout::Struct(b)) => struct_difference(&a.as_struct(), b, path),
        (Layout::Struct(a), Layout::Array(b)) => struct_difference(a, &b.as_struct(), path),
        _ => Some((
            path.clone(),
            format!("expected {}, found {}", describe(expected), describe(found)),
        )),
    }
}

fn struct_difference(
    expected: &StructLayout,
    found: &StructLayout,
    path: &FieldPath,
) -> Option<(FieldPath, String)> {
    let (ours, theirs) = (expected.fields(), found.fields());
    for position in 0..ours.len().max(theirs.len()) {
        match (ours.get(position), theirs.get(position)) {
            (Some(a), Some(b)) if a.name() == b.name() => {
                let field_path = path.field(a.name());
                if a.offset() != b.offset() {
                    return Some((
                        field_path,
                        format!(
                            "expected offset {}, found {} (the stored record has padding or a different field size before it)",
                            a.offset(),
                            b.offset()
                        ),
                    ));
                }
                if let Some(inner) = first_difference(a.layout(), b.layout(), &field_path) {
                    return Some(inner);
                }
            }
            (Some(a), Some(b)) => {
                let why = if theirs.iter().any(|field| field.name() == a.name()) {
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
    (expected.size() != found.size()).then(|| {
        (
            path.clone(),
            format!(
                "expected itemsize {}, found {} (trailing padding)",
                expected.size(),
                found.size()
            ),
        )
    })
}
