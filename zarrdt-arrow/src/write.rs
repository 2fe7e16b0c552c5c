//! [`TableWriter`]: a stream of [`RecordBatch`]es written into a new or existing record array,
//! one band of whole chunks (or shards) at a time.

use std::sync::Arc;

use arrow_array::RecordBatch;
use serde_json::Value as Json;
use zarrdt_core::Layout;
use zarrdt_zarrs::zarrs::array::{Array, ArraySubset};
use zarrdt_zarrs::zarrs::node::{NodePath, meta_key_v2_array, meta_key_v3};
use zarrdt_zarrs::zarrs::storage::{ReadableWritableStorageTraits, StoreKey};
use zarrdt_zarrs::{ArrayOptions, RecordType};

use crate::{Error, RecordConverter, TableType, region};

/// The most bytes of records a batch is converted into at once: a longer batch goes in parts.
const PART_BYTES: usize = 8 << 20;

/// Writes batches of records into an array, in C order from a starting element.
///
/// Rows are gathered into one band of whole chunks along the first dimension (a shard, for a
/// sharded array) and each full band is stored through zarrs as one region, so memory holds
/// one band and 8 MiB of a batch's records at most (a longer batch is converted in parts),
/// whatever the number of rows or the width of the records. A one-dimensional array grows as rows
/// come; an array of more dimensions must be filled exactly (rows are its elements in C order).
///
/// Each batch must hold the record's fields (see
/// [`RecordConverter::from_record_batch`]): a batch that does not fit is an
/// [`Error::Column`] naming the column, and nothing of it is written.
///
/// ```
/// use std::sync::Arc;
/// use arrow_array::{Float64Array, RecordBatch, UInt32Array};
/// use zarrdt::arrow::{Sizes, TableType, TableWriter};
/// use zarrdt::array::{ArrayOptions, ReadRecords};
/// use zarrdt::zarrs::storage::store::MemoryStore;
///
/// let batch = RecordBatch::try_from_iter([
///     ("id", Arc::new(UInt32Array::from(vec![1, 2, 3])) as _),
///     ("mass", Arc::new(Float64Array::from(vec![0.5, 1.5, 2.5])) as _),
/// ])?;
/// let zarr = TableType::from_schema(&batch.schema(), None)?;
/// let options = ArrayOptions::new(vec![0], vec![1000]);
/// let mut writer = TableWriter::create(Arc::new(MemoryStore::new()), "/", &zarr, &options)?;
/// writer.write(&batch)?;
/// writer.write(&batch)?;
/// let array = writer.finish()?;
/// assert_eq!(array.shape(), [6]);
/// assert_eq!(array.retrieve_values(&[0..6])?.len(), 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct TableWriter<S: ?Sized> {
    array: Array<S>,
    converter: RecordConverter,
    size: usize,
    /// Records from `band_start` on, not yet stored.
    band: Vec<u8>,
    band_start: u64,
    /// Elements per index of the first dimension.
    inner: u64,
    /// Indices of the first dimension per band.
    band_extent: u64,
    /// Whether the array was created by this writer (a one-dimensional one then ends at the
    /// last row written).
    created: bool,
    /// Whether the shape changed, so that the metadata document must be rewritten.
    reshaped: bool,
}

impl<S: ?Sized + ReadableWritableStorageTraits + 'static> TableWriter<S> {
    /// Creates an array at `path` of `zarr`'s type and fill value (zero where it has none)
    /// with the chunking, sharding and compression of `options`, and a writer of it from
    /// element 0. A one-dimensional array ends at the last row written, whatever the shape in
    /// `options`; for more dimensions the rows must fill the shape exactly.
    ///
    /// The array is Zarr v3, or Zarr v2 for a `zarr.dtype` with subarray fields (which v3
    /// readers would see as structs; sharding is then an error). A padded record is packed
    /// first ([`TableType::for_new_array`]): the values are the same. Its attributes are the
    /// table's ([`TableType::attributes`]) and those `options` sets, which win where both
    /// have a key.
    pub fn create(
        store: Arc<S>,
        path: &str,
        zarr: &TableType,
        options: &ArrayOptions,
    ) -> Result<Self, Error> {
        let zarr = zarr.for_new_array()?;
        // The table's attributes, then those of `options` over them.
        let mut attributes = zarr.attributes().clone();
        attributes.extend(options.user_attributes().clone());
        let options = &options.clone().attributes(attributes);
        let array = match (zarr.data_type(), zarr.v2_layout()) {
            (Some(data_type), _) => {
                let layout = zarr.native_layout()?;
                let fill = zarr
                    .fill_value()
                    .cloned()
                    .unwrap_or_else(|| layout.zero_value());
                options.create_with(store, path, data_type, &fill)?
            }
            (None, Some(layout)) => options.create_v2(store, path, layout, zarr.fill_value())?,
            (None, None) => {
                return Err(Error::Unsupported {
                    path: path.into(),
                    reason: "no Zarr type".into(),
                });
            }
        };
        Self::start(array, 0, true)
    }

    /// A writer into `array`, an existing record array, from element `start` (in C order): a
    /// one-dimensional array grows if the rows go past its end; for more dimensions `start`
    /// must begin a row of the trailing dimensions. The index of each stored shard the rows
    /// reach is checked before it is written ([`check_shards`](zarrdt_zarrs::check_shards)):
    /// a damaged one is an error, not a panic in zarrs' decode.
    pub fn open(array: Array<S>, start: u64) -> Result<Self, Error> {
        Self::start(array, start, false)
    }

    fn start(array: Array<S>, start: u64, created: bool) -> Result<Self, Error> {
        let record = RecordType::of(array.data_type())?;
        let layout: Layout = record.native_layout().clone();
        let converter = RecordConverter::new(&layout)?;
        let shape = array.shape().to_vec();
        // A zero-dimensional array is one row of one element.
        let trailing = shape
            .split_first()
            .map_or(&[][..], |(_, trailing)| trailing);
        let inner: u64 = trailing.iter().product();
        // With a trailing extent of 0 there are no rows: only element 0 begins one (and no
        // record can be written, `write` says).
        if shape.len() > 1 && !start.is_multiple_of(inner) {
            return Err(Error::Shape(format!(
                "element {start} does not begin a row of the trailing dimensions {trailing:?}"
            )));
        }
        let origin = vec![0; shape.len()];
        let band_extent = array
            .chunk_grid()
            .chunk_shape_u64(&origin)
            .ok()
            .flatten()
            .and_then(|chunk| chunk.first().copied())
            .unwrap_or(1)
            .max(1);
        Ok(TableWriter {
            size: layout.size(),
            array,
            converter,
            band: Vec::new(),
            band_start: start,
            inner: inner.max(1),
            band_extent,
            created,
            reshaped: false,
        })
    }

    /// The number of the next element to be written (C order).
    pub fn position(&self) -> u64 {
        self.band_start + (self.band.len() / self.size.max(1)) as u64
    }

    /// Writes the rows of `batch` after those written before.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), Error> {
        let first = self.position();
        let rows = batch.num_rows() as u64;
        let end = first + rows;
        let shape = self.array.shape().to_vec();
        if shape.len() != 1 && end > shape.iter().product::<u64>() {
            return Err(Error::Shape(format!(
                "rows {first}..{end} go past the end of the array of shape {shape:?}"
            )));
        }
        // A batch of more than `PART_BYTES` of records (wide records: long strings measured
        // into a fixed width) goes in parts of at most that, so that memory holds one part,
        // whatever the batch's rows times its records' width; checked in full first, so that
        // a batch that does not fit writes nothing.
        let rows = batch.num_rows();
        let part_rows = (PART_BYTES / self.size.max(1)).max(1);
        let parts = || {
            (0..rows)
                .step_by(part_rows)
                .map(|at| (at, part_rows.min(rows - at)))
        };
        if rows > part_rows {
            let mut checked = Vec::new();
            for (at, len) in parts() {
                checked.clear();
                self.converter
                    .append_records(&batch.slice(at, len), &mut checked)
                    .map_err(|error| error.shifted(first + at as u64))?;
            }
        }
        for (at, len) in parts() {
            self.converter
                .append_records(&batch.slice(at, len), &mut self.band)
                .map_err(|error| error.shifted(first + at as u64))?;
            // Grown once the batch is known to fit (its first part converted, or all checked).
            if at == 0 && shape.len() == 1 && end > shape[0] {
                self.array
                    .set_shape(vec![end])
                    .map_err(|e| Error::Array(e.into()))?;
                self.reshaped = true;
            }
            self.flush(false)?;
        }
        Ok(())
    }

    /// Stores the whole bands gathered (and, if `all`, the rest), each from the records held,
    /// which then let go of them at once (not moved down once per band).
    fn flush(&mut self, all: bool) -> Result<(), Error> {
        let mut stored = 0;
        let result = loop {
            let held = ((self.band.len() - stored) / self.size.max(1)) as u64;
            if held == 0 {
                break Ok(());
            }
            let band_rows = self.inner * self.band_extent;
            // The end of the band the first held element is in.
            let band_end = (self.band_start / band_rows + 1) * band_rows;
            let rows = if self.band_start + held >= band_end {
                band_end - self.band_start
            } else if all {
                held
            } else {
                break Ok(());
            };
            let bytes = (rows as usize) * self.size;
            let written = self.region(self.band_start, rows).and_then(|region| {
                region::write(&self.array, &region, &self.band[stored..stored + bytes])
            });
            if let Err(error) = written {
                break Err(error);
            }
            stored += bytes;
            self.band_start += rows;
        };
        self.band.drain(..stored);
        result
    }

    /// The region of `rows` elements from element `first` (whole rows of the trailing
    /// dimensions for arrays of more than one).
    fn region(&self, first: u64, rows: u64) -> Result<ArraySubset, Error> {
        let shape = self.array.shape();
        if shape.len() == 1 {
            return Ok(ArraySubset::new_with_ranges(&[first..first + rows]));
        }
        if shape.is_empty() {
            // The one element (`write` let no more rows in).
            return Ok(ArraySubset::new_with_ranges(&[]));
        }
        if !rows.is_multiple_of(self.inner) {
            return Err(Error::Shape(format!(
                "rows {first}..{} do not fill whole rows of the trailing dimensions {:?} of \
                 the array of shape {shape:?}",
                first + rows,
                &shape[1..]
            )));
        }
        let start = first / self.inner;
        let mut ranges = vec![start..start + rows / self.inner];
        ranges.extend(shape[1..].iter().map(|&extent| 0..extent));
        Ok(ArraySubset::new_with_ranges(&ranges))
    }

    /// Stores the rows still held, fixes the shape (a created one-dimensional array ends at
    /// the last row; one that grew is rewritten in its metadata), and returns the array.
    ///
    /// Errors if a created array of more dimensions was not filled exactly.
    pub fn finish(mut self) -> Result<Array<S>, Error> {
        self.flush(true)?;
        let end = self.band_start;
        let shape = self.array.shape().to_vec();
        if shape.len() == 1 {
            if self.created && end != shape[0] {
                self.array
                    .set_shape(vec![end])
                    .map_err(|e| Error::Array(e.into()))?;
                self.reshaped = true;
            }
        } else if self.created && end != shape.iter().product::<u64>() {
            return Err(Error::Shape(format!(
                "{end} rows do not fill the array of shape {shape:?}"
            )));
        }
        if self.reshaped {
            rewrite_shape(&self.array)?;
        }
        Ok(self.array)
    }
}

/// Writes the array's shape into its metadata document (`zarr.json` or `.zarray`), leaving
/// the rest of the document as it is.
fn rewrite_shape<S: ?Sized + ReadableWritableStorageTraits + 'static>(
    array: &Array<S>,
) -> Result<(), Error> {
    let node = NodePath::new(array.path().as_str()).map_err(|e| Error::Metadata {
        key: array.path().to_string(),
        reason: e.to_string(),
    })?;
    let storage = array.storage();
    for key in [meta_key_v3(&node), meta_key_v2_array(&node)] {
        if let Some(bytes) = storage.get(&key).map_err(|e| Error::Array(e.into()))? {
            let mut document =
                zarrdt_core::parse_metadata_json(&bytes).map_err(|e| invalid(&key, e))?;
            document["shape"] = Json::from(array.shape().to_vec());
            let text = serde_json::to_vec_pretty(&document).map_err(|e| invalid(&key, e))?;
            storage
                .set(&key, text.into())
                .map_err(|e| Error::Array(e.into()))?;
            return Ok(());
        }
    }
    Err(Error::Metadata {
        key: array.path().to_string(),
        reason: "no zarr.json or .zarray to write the shape in".into(),
    })
}

fn invalid(key: &StoreKey, error: impl ToString) -> Error {
    Error::Metadata {
        key: key.to_string(),
        reason: error.to_string(),
    }
}
