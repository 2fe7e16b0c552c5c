//! One field of every record: what NumPy users do with `a["mass"]`, without materialising
//! the records.

use zarrdt_core::ZarrType;
use zarrs::array::{Array, ArrayBytes, ArraySubsetTraits};
use zarrs::storage::ReadableStorageTraits;

use crate::subset::check_subset;
use crate::{Error, RecordType};

/// The field at `path` (field names from the top of the record, such as `["pos"]` or
/// `["point", "x"]`) of every record in `subset` of `array`, row-major, as `T`s.
///
/// `T` must be the field's type (an `f64` for a `float64` field, a `[f32; 3]` for a subarray
/// or a struct of fields `"0"`, `"1"`, `"2"`, a derived struct for a nested record); the
/// error names the first difference, and a path that names no field is
/// [`zarrdt_core::Error::NoSuchField`]. The records' bytes are decoded by zarrs' codecs, and
/// the field is read out of them where it lies ([`Layout::decode_field`]): no record is built.
///
/// [`Layout::decode_field`]: zarrdt_core::Layout::decode_field
///
/// ```no_run
/// # use std::sync::Arc;
/// # use zarrdt_zarrs::{open_array, retrieve_field};
/// # use zarrdt_zarrs::zarrs::filesystem::FilesystemStore;
/// # let array = open_array(Arc::new(FilesystemStore::new("particles.zarr")?), "/")?;
/// let mass: Vec<f64> = retrieve_field(&array, &[0..1_000_000], &["mass"])?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn retrieve_field<T: ZarrType, S: ?Sized + ReadableStorageTraits + 'static>(
    array: &Array<S>,
    subset: &dyn ArraySubsetTraits,
    path: &[&str],
) -> Result<Vec<T>, Error> {
    let record = RecordType::of(array.data_type())?;
    check_subset(array, subset, record.native_layout().size())?;
    crate::check_shards(array, subset)?;
    let bytes: ArrayBytes<'static> = array
        .retrieve_array_subset(subset)
        .map_err(|error| Error::in_subset(array, subset, error))?;
    let bytes = bytes.into_fixed().map_err(zarrs::array::ArrayError::from)?;
    Ok(record.native_layout().decode_field(&bytes, path)?)
}
