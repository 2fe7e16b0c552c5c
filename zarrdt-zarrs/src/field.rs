//! One field of every record: what NumPy users do with `a["mass"]`, without materialising
//! the records.

use zarrdt_core::{Element, Endian, Layout};
use zarrs::array::{Array, ArrayBytes, ArraySubsetTraits};
use zarrs::storage::ReadableStorageTraits;

use crate::{Error, RecordType};

/// The field at `path` (field names from the top of the record, such as `["pos"]` or
/// `["point", "x"]`) of every record in `subset` of `array`, row-major, as `T`s.
///
/// `T` must be the field's type (an `f64` for a `float64` field, a `[f32; 3]` for a subarray
/// or a struct of fields `"0"`, `"1"`, `"2"`, a derived struct for a nested record); the
/// error names the first difference. The records' bytes are decoded by zarrs' codecs, and
/// the field's bytes are picked out of them at its offset: no record is built.
///
/// ```no_run
/// # use std::sync::Arc;
/// # use zarrdt_zarrs::{open_array, retrieve_field};
/// # use zarrdt_zarrs::zarrs::filesystem::FilesystemStore;
/// # let array = open_array(Arc::new(FilesystemStore::new("particles.zarr")?), "/")?;
/// let mass: Vec<f64> = retrieve_field(&array, &[0..1_000_000], &["mass"])?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn retrieve_field<T: Element, S: ?Sized + ReadableStorageTraits + 'static>(
    array: &Array<S>,
    subset: &dyn ArraySubsetTraits,
    path: &[&str],
) -> Result<Vec<T>, Error> {
    let record = RecordType::of(array.data_type())?;
    let layout = record.native_layout();
    let (offset, field) = field_at(layout, path).ok_or_else(|| Error::NoSuchField {
        path: path.join("."),
    })?;
    T::layout(Endian::NATIVE).check_matches(field)?;
    let bytes: ArrayBytes<'static> = array.retrieve_array_subset(subset)?;
    let bytes = bytes.into_fixed().map_err(zarrs::array::ArrayError::from)?;
    let size = field.size();
    let mut gathered = Vec::with_capacity(bytes.len() / layout.size() * size);
    for record in bytes.chunks_exact(layout.size()) {
        gathered.extend_from_slice(&record[offset..offset + size]);
    }
    Ok(T::decode_slice(&gathered, Endian::NATIVE)?)
}

/// The offset and layout of the field at `path` inside `layout`.
fn field_at<'a>(layout: &'a Layout, path: &[&str]) -> Option<(usize, &'a Layout)> {
    let mut offset = 0;
    let mut current = layout;
    for name in path {
        let Layout::Struct(structure) = current else {
            return None;
        };
        let field = structure.field(name)?;
        offset += field.offset();
        current = field.layout();
    }
    Some((offset, current))
}
