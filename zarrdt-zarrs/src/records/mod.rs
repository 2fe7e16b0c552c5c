//! Records read and written through methods on zarrs' [`Array`]: [`ReadRecords`] and
//! [`WriteRecords`], the checked and fast path for every array of records (and of scalars).
//!
//! Every read checks that its subset lies within the array and each shard index it will use
//! (zarrs 0.23.14 trusts both), then moves the elements unit by unit (chunks, or a sharded
//! array's inner chunks), several units at a time on all threads, each decoded from zarrs'
//! codecs straight into the caller's output; every write encodes each chunk (shard) once into
//! a buffer its thread reuses. zarrs' own `retrieve_array_subset` and `store_array_subset`
//! remain for arrays from sources you trust: they check nothing of the above, and build an
//! array-sized byte buffer besides the records.

mod beside;
mod blocks;
mod fill;
mod plan;
pub(crate) mod read;
mod run;
mod spare;
mod stored_order;
mod streamed;
mod update;
mod whole_shard;
mod write;

pub use blocks::{BlockReader, Blocks, DEFAULT_BLOCK_BYTES};

use zarrdt_core::{Value, ZarrType};
use zarrs::array::{Array, ArraySubsetTraits};
use zarrs::storage::{ReadableStorageTraits, ReadableWritableStorageTraits};

use crate::record::check_type;
use crate::subset::check_subset;
use crate::{Error, RecordType};

/// Reading records from a zarrs [`Array`]: `use zarrdt::ReadRecords;` and call them on any
/// array zarrdt opened or created (or any zarrs array of a type zarrdt knows).
///
/// ```
/// use std::sync::Arc;
/// use zarrdt::array::{ArrayOptions, ReadRecords, WriteRecords};
/// use zarrdt::zarrs::storage::store::MemoryStore;
///
/// let array = ArrayOptions::new(vec![10], vec![4]).create(Arc::new(MemoryStore::new()), "/", &0u32)?;
/// array.store_records(&[0..10], &(0..10u32).collect::<Vec<_>>())?;
/// let some: Vec<u32> = array.retrieve_records(&[3..9])?; // parts of three chunks
/// assert_eq!(some, [3, 4, 5, 6, 7, 8]);
/// # Ok::<(), zarrdt::array::Error>(())
/// ```
pub trait ReadRecords {
    /// The records of `subset`, in C order, as `T`s (missing chunks give the fill value).
    ///
    /// `T` must be the array's element type: a struct of the same fields, names, types and
    /// offsets (a Zarr v2 array's byte orders may be any), or the error names the first field
    /// that differs. A subset beyond the array, or a corrupt shard index, is an error before
    /// anything is read; a chunk that cannot be decoded is an error naming its key, and an
    /// invalid element (a `bool` byte 2) is [`Error::InvalidElement`], naming its chunk's key,
    /// its indices in the array, and its index in the output, its field and its byte offset.
    fn retrieve_records<T: ZarrType + Send>(
        &self,
        subset: &dyn ArraySubsetTraits,
    ) -> Result<Vec<T>, Error> {
        let mut records = Vec::new();
        self.retrieve_records_into(subset, &mut records)?;
        Ok(records)
    }

    /// [`retrieve_records`](ReadRecords::retrieve_records), appending to `out` (so that its
    /// allocation can be reused from read to read). On error, `out` holds what it held and
    /// possibly some of the records.
    ///
    /// A large read into a new vector spends much of its time in the kernel handing over the
    /// vector's memory, 4 KiB at a time on Linux; one kept from read to read (`clear()`ed)
    /// has its memory already: in the end-to-end benchmark (BENCHMARKS.md) the same reads of
    /// 10M records ran 1.4–2.4× faster.
    fn retrieve_records_into<T: ZarrType + Send>(
        &self,
        subset: &dyn ArraySubsetTraits,
        out: &mut Vec<T>,
    ) -> Result<(), Error>;

    /// The field at `path` (field names from the top of the record, such as `["pos"]` or
    /// `["point", "x"]`) of every record of `subset`, in C order, as `T`s: what NumPy users do
    /// with `a["mass"]`. `T` must be the field's type (an `f64` for a `float64` field, a
    /// `[f32; 3]` for a subarray or a struct of fields `"0"`, `"1"`, `"2"`, a derived struct
    /// for a nested record); the error names the first difference, and a path that names no
    /// field is [`zarrdt_core::Error::NoSuchField`], naming the fields there are. An empty path
    /// is the whole element (as [`retrieve_records`](ReadRecords::retrieve_records) reads
    /// it). Only the field is read out of each record: no record is built.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use zarrdt::layout::Layout;
    /// use zarrdt::types::DataType;
    /// use zarrdt::array::{ArrayOptions, ReadRecords, WriteRecords};
    /// use zarrdt::zarrs::storage::store::MemoryStore;
    /// use serde_json::json;
    ///
    /// let point = DataType::from_v3_json(&json!({"name": "struct", "configuration": {"fields": [
    ///     {"name": "x", "data_type": "float64"}, {"name": "n", "data_type": "uint16"}]}}))?;
    /// let fill = Layout::from_v2_json(&json!([["x", "<f8"], ["n", "<u2"]]))?
    ///     .decode_value(&[0; 10])?;
    /// let array = ArrayOptions::new(vec![4], vec![2])
    ///     .create_with(Arc::new(MemoryStore::new()), "/", &point, &fill)?;
    /// array.store_bytes(&[0..1], &[0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 7, 0])?; // x = 1.5, n = 7
    /// let n: Vec<u16> = array.retrieve_field(&[0..4], &["n"])?;
    /// assert_eq!(n, [7, 0, 0, 0]);
    /// let wrong = array.retrieve_field::<u16>(&[0..4], &["m"]).unwrap_err();
    /// assert!(wrong.to_string().contains("the record's fields are `x`, `n`"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn retrieve_field<T: ZarrType + Send>(
        &self,
        subset: &dyn ArraySubsetTraits,
        path: &[&str],
    ) -> Result<Vec<T>, Error> {
        let mut field = Vec::new();
        self.retrieve_field_into(subset, path, &mut field)?;
        Ok(field)
    }

    /// [`retrieve_field`](ReadRecords::retrieve_field), appending to `out` (so that its
    /// allocation can be reused from read to read, as with
    /// [`retrieve_records_into`](ReadRecords::retrieve_records_into)). On error, `out` holds
    /// what it held and possibly some of the field's values.
    ///
    /// A read of one field into a new vector spends much of its time, as a read of records
    /// does, in the kernel handing over the vector's memory: one kept from read to read
    /// (`clear()`ed) has its memory already (one field of 10M records 1.2–2.2× faster in the
    /// end-to-end benchmark).
    fn retrieve_field_into<T: ZarrType + Send>(
        &self,
        subset: &dyn ArraySubsetTraits,
        path: &[&str],
        out: &mut Vec<T>,
    ) -> Result<(), Error>;

    /// The records of `subset`, in C order, as dynamic [`Value`]s: for arrays whose type is
    /// known only at run time.
    fn retrieve_values(&self, subset: &dyn ArraySubsetTraits) -> Result<Vec<Value>, Error>;

    /// Checks the index of every stored shard `subset` touches (see
    /// [`check_shards`](crate::check_shards)); every read above checks each shard it reads
    /// the same way before zarrs reads it, or in the bytes it reads where it reads one whole.
    fn check_shards(&self, subset: &dyn ArraySubsetTraits) -> Result<(), Error>;

    /// The element type in zarrdt's terms.
    fn record_type(&self) -> Result<RecordType, Error>;
}

/// Writing records into a zarrs [`Array`]: `use zarrdt::WriteRecords;`.
pub trait WriteRecords {
    /// Stores `records` (C order) into `subset`; `T` must be the array's element type (the
    /// error names the first field that differs), and `records` exactly the subset's
    /// elements. A chunk (a shard, for a sharded array) the subset covers is encoded once and
    /// stored whole, several at a time; one it covers in part is read whole, updated and
    /// stored whole (a shard's index checked first, as [`check_shards`](crate::check_shards)
    /// checks it: a damaged one is an [`Error::Shard`], never a panic in zarrs' decode), which
    /// holds the whole chunk: one the machine cannot hold (its size is the metadata's) is an
    /// [`Error::ChunkTooLarge`] before anything is written. An error storing a chunk names its
    /// key.
    fn store_records<T: ZarrType + Sync>(
        &self,
        subset: &dyn ArraySubsetTraits,
        records: &[T],
    ) -> Result<(), Error>;

    /// Stores `values` (C order) into `subset`; each must be a value of the array's data type,
    /// or the error names the field.
    fn store_values(&self, subset: &dyn ArraySubsetTraits, values: &[Value]) -> Result<(), Error>;

    /// Stores `bytes`, the records of `subset` already encoded, as
    /// [`store_records`](WriteRecords::store_records) stores records: for writers that encode
    /// records themselves (zarrdt-arrow's tables). Each record is in the native layout of the
    /// array's [`RecordType`] (every multi-byte value in the machine's byte order), the records
    /// in C order: what [`BlockReader`](crate::BlockReader) reads. `bytes` must be exactly the
    /// subset's records; they are stored as they are, unchecked (a `bool` byte 2 is stored).
    fn store_bytes(&self, subset: &dyn ArraySubsetTraits, bytes: &[u8]) -> Result<(), Error>;
}

impl<S: ?Sized + ReadableStorageTraits + 'static> ReadRecords for Array<S> {
    fn retrieve_records_into<T: ZarrType + Send>(
        &self,
        subset: &dyn ArraySubsetTraits,
        out: &mut Vec<T>,
    ) -> Result<(), Error> {
        check_type::<T>(self.data_type())?;
        let start = out.len();
        read::read(self, subset, T::SIZE, &mut read::Records { out, start })
    }

    fn retrieve_field_into<T: ZarrType + Send>(
        &self,
        subset: &dyn ArraySubsetTraits,
        path: &[&str],
        out: &mut Vec<T>,
    ) -> Result<(), Error> {
        let record = RecordType::of(self.data_type())?;
        let layout = record.native_layout();
        let mut field = read::Field::new(layout, path, out)?;
        read::read(self, subset, layout.size(), &mut field)
    }

    fn retrieve_values(&self, subset: &dyn ArraySubsetTraits) -> Result<Vec<Value>, Error> {
        let record = RecordType::of(self.data_type())?;
        let mut out = Vec::new();
        let layout = record.native_layout();
        let mut values = read::Values {
            layout,
            out: &mut out,
            start: 0,
            swapped: None,
        };
        read::read(self, subset, layout.size(), &mut values)?;
        Ok(out)
    }

    fn check_shards(&self, subset: &dyn ArraySubsetTraits) -> Result<(), Error> {
        crate::check_shards(self, subset)
    }

    fn record_type(&self) -> Result<RecordType, Error> {
        RecordType::of(self.data_type())
    }
}

impl<S: ?Sized + ReadableWritableStorageTraits + 'static> WriteRecords for Array<S> {
    fn store_records<T: ZarrType + Sync>(
        &self,
        subset: &dyn ArraySubsetTraits,
        records: &[T],
    ) -> Result<(), Error> {
        check_type::<T>(self.data_type())?;
        write::write(self, subset, &write::Records(records))
    }

    fn store_values(&self, subset: &dyn ArraySubsetTraits, values: &[Value]) -> Result<(), Error> {
        let record = RecordType::of(self.data_type())?;
        let size = record.native_layout().size();
        write::check_count(subset, values.len())?;
        check_subset(self, subset, size)?;
        let bytes = record.native_layout().encode_values(values)?;
        write::write(
            self,
            subset,
            &write::Encoded {
                bytes: &bytes,
                size,
            },
        )
    }

    fn store_bytes(&self, subset: &dyn ArraySubsetTraits, bytes: &[u8]) -> Result<(), Error> {
        let size = RecordType::of(self.data_type())?.native_layout().size();
        if size == 0 || !bytes.len().is_multiple_of(size) {
            return Err(Error::Zarr(zarrdt_core::Error::ChunkLength {
                len: bytes.len(),
                element_size: size,
            }));
        }
        write::write(self, subset, &write::Encoded { bytes, size })
    }
}
