//! [`BatchReader`]: the records of an array (any selection, all fields or some) as a stream of
//! [`RecordBatch`]es of a bounded number of rows, read a block of whole chunks at a time.

use std::collections::HashMap;
use std::ops::Range;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use zarrdt_core::{JsonWriteError, JsonWriter, Layout, LayoutField, StructLayout};
use zarrdt_zarrs::zarrs::array::Array;
use zarrdt_zarrs::zarrs::storage::ReadableStorageTraits;
use zarrdt_zarrs::{BlockReader, Blocks, DEFAULT_BLOCK_BYTES, RecordType, StructDataType};

use crate::metadata::{ATTRIBUTES, DTYPE, FILL_VALUE, Form, SHAPE};
use crate::{Error, RecordConverter};

/// Rows per batch unless [`ReadOptions::batch_rows`] says otherwise.
pub const DEFAULT_BATCH_ROWS: usize = 1 << 16;

/// The most bytes of records a batch holds: wider records make batches of fewer rows.
const MAX_BATCH_BYTES: usize = 16 << 20;

/// What [`BatchReader`] reads: which elements, which fields, how many rows per batch.
#[derive(Clone, Debug)]
pub struct ReadOptions {
    selection: Option<Vec<Range<u64>>>,
    batch_rows: usize,
    fields: Option<Vec<String>>,
    element: Option<Layout>,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            selection: None,
            batch_rows: DEFAULT_BATCH_ROWS,
            fields: None,
            element: None,
        }
    }
}

impl ReadOptions {
    /// The elements in these index ranges, one per dimension (the whole array by default);
    /// rows are the elements in C order.
    #[must_use]
    pub fn select(mut self, ranges: Vec<Range<u64>>) -> Self {
        self.selection = Some(ranges);
        self
    }

    /// At most this many rows per batch (65536 by default; at least 1), and at most 16 MiB
    /// of records: a batch of records wider than 256 bytes has fewer rows (one at least), so
    /// that the width an array's metadata gives its records never makes a batch too large
    /// to hold.
    #[must_use]
    pub fn batch_rows(mut self, rows: usize) -> Self {
        self.batch_rows = rows.max(1);
        self
    }

    /// Only these top-level fields of the record, in the record's order.
    #[must_use]
    pub fn fields<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.fields = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Only the fields of `element`: the array's record in the machine's byte order with some
    /// fields left out (nested ones too), each at its offset, of the record's size (what
    /// `zarrdt export --fields` builds). Checked against the array's record.
    #[must_use]
    pub fn element(mut self, element: Layout) -> Self {
        self.element = Some(element);
        self
    }
}

/// The records of an array as Arrow [`RecordBatch`]es, streamed: blocks of whole chunks (or a
/// shard's inner chunks) are read one after another through zarrdt-zarrs' [`BlockReader`]
/// (each shard's index checked once, a chunk that cannot be read named) and transposed into
/// columns, so memory holds one block (at least 8 MiB, else the batch's bytes, and at least a
/// row of chunks) and one batch, whatever the size of the array.
///
/// Each batch holds at most [`ReadOptions::batch_rows`] rows (fewer at the end of a block).
/// The schema's metadata keeps the Zarr data type, the fill value and the shape of the
/// selection, so that a table written back with [`TableWriter`](crate::TableWriter) gives the
/// same records, bit for bit.
///
/// ```
/// use std::sync::Arc;
/// use zarrdt::arrow::{BatchReader, ReadOptions};
/// use zarrdt::array::{ArrayOptions, WriteRecords};
/// use zarrdt::zarrs::storage::store::MemoryStore;
///
/// let array = ArrayOptions::new(vec![100], vec![16]).create(Arc::new(MemoryStore::new()), "/", &0u32)?;
/// array.store_records(&[0..100], &(0..100u32).collect::<Vec<_>>())?;
/// let reader = BatchReader::new(&array, &ReadOptions::default().select(vec![10..90]).batch_rows(32))?;
/// let mut rows = 0;
/// for batch in reader {
///     rows += batch?.num_rows();
/// }
/// assert_eq!(rows, 80);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// It is an iterator of `Result<RecordBatch, Error>`; for an Arrow
/// [`RecordBatchReader`](arrow_array::RecordBatchReader), wrap it:
/// `RecordBatchIterator::new(reader.map(|b| b.map_err(Into::into)), schema)`.
pub struct BatchReader<S: ?Sized> {
    /// Reads the blocks: shard indexes checked once, failed chunks named.
    reader: BlockReader<S>,
    converter: RecordConverter,
    size: usize,
    batch_rows: usize,
    blocks: Blocks,
    block: Vec<u8>,
    cursor: usize,
    emitted: u64,
    rows: u64,
    failed: bool,
}

impl<S: ?Sized + ReadableStorageTraits + 'static> BatchReader<S> {
    /// A reader of `array` (which it keeps its own handle of) as `options` say.
    pub fn new(array: &Array<S>, options: &ReadOptions) -> Result<Self, Error> {
        let record = RecordType::of(array.data_type())?;
        let native = record.native_layout().clone();
        let stored = array
            .data_type()
            .downcast_ref::<StructDataType>()
            .and_then(|data_type| data_type.stored_layout().cloned());
        // The v2 `dtype` as the `.zarray` wrote it (padding included).
        let dtype = stored
            .as_ref()
            .and_then(|_| array.data_type().configuration_v3().get("dtype").cloned());
        let shape = array.shape().to_vec();
        let ranges = match &options.selection {
            Some(ranges) => check_selection(ranges, &shape)?,
            None => shape.iter().map(|&extent| 0..extent).collect(),
        };
        let element = match (&options.element, &options.fields) {
            (Some(element), _) => {
                check_view(element, &native)?;
                element.clone()
            }
            (None, Some(names)) => top_fields(&native, names)?,
            (None, None) => native.clone(),
        };
        // The Zarr type of the rows: the array's, or the fields kept, packed.
        let form = if element == native {
            match (record.data_type(), &stored) {
                (Some(data_type), None) => Form::V3(data_type.clone()),
                (_, Some(stored)) => Form::of_layout(stored),
                (None, None) => Form::of_layout(&native),
            }
        } else {
            let like = stored.as_ref().unwrap_or(&native);
            Form::of_layout(&project(like, &element)?.packed()?)
        };
        let mut metadata: HashMap<String, String> = match (&form, dtype) {
            (Form::V2(_), Some(dtype)) if element == native => {
                HashMap::from([(DTYPE.to_owned(), dtype.to_string())])
            }
            _ => form.entry().into_iter().collect(),
        };
        // Written straight from its bytes: a value and a JSON tree of a subarray of a million
        // items took 150 bytes an item beside its text.
        let mut fill = Vec::new();
        JsonWriter::new(&element)
            .write(array.fill_value().as_ne_bytes(), &mut fill)
            .map_err(|error| match error {
                JsonWriteError::Invalid(error) => Error::Zarr(error),
                // Not from writing into memory, which does not fail.
                other => Error::Metadata {
                    key: FILL_VALUE.into(),
                    reason: other.to_string(),
                },
            })?;
        // JSON text, so UTF-8.
        metadata.insert(
            FILL_VALUE.into(),
            String::from_utf8_lossy(&fill).into_owned(),
        );
        let extents: Vec<u64> = ranges.iter().map(|r| r.end - r.start).collect();
        metadata.insert(
            SHAPE.into(),
            serde_json::Value::from(extents.clone()).to_string(),
        );
        if !array.attributes().is_empty() {
            metadata.insert(
                ATTRIBUTES.into(),
                serde_json::Value::Object(array.attributes().clone()).to_string(),
            );
        }
        let converter = RecordConverter::with_metadata(&element, metadata)?;
        let size = native.size();
        let batch_rows = options
            .batch_rows
            .min((MAX_BATCH_BYTES / size.max(1)).max(1));
        // At least the batch, so that a batch is never split across two reads.
        let budget = batch_rows.saturating_mul(size).max(DEFAULT_BLOCK_BYTES);
        let reader = BlockReader::new(array)?;
        Ok(BatchReader {
            blocks: reader.blocks(&ranges, budget),
            rows: extents.iter().product(),
            reader,
            converter,
            size,
            batch_rows,
            block: Vec::new(),
            cursor: 0,
            emitted: 0,
            failed: false,
        })
    }

    /// The Arrow schema of the batches.
    pub fn schema(&self) -> SchemaRef {
        self.converter.schema()
    }

    /// The number of rows the reader gives in all (the elements of the selection).
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The number of rows given so far.
    pub fn rows_read(&self) -> u64 {
        self.emitted
    }

    fn next_batch(&mut self) -> Result<Option<RecordBatch>, Error> {
        loop {
            let left = self.block.len() / self.size.max(1) - self.cursor;
            if left > 0 {
                let take = left.min(self.batch_rows);
                let from = self.cursor * self.size;
                let bytes = &self.block[from..from + take * self.size];
                let batch = self
                    .converter
                    .to_record_batch(bytes)
                    .map_err(|error| error.shifted(self.emitted))?;
                self.cursor += take;
                self.emitted += take as u64;
                return Ok(Some(batch));
            }
            let Some(region) = self.blocks.next() else {
                return Ok(None);
            };
            self.block = Vec::new();
            self.block = self.reader.read(&region)?;
            self.cursor = 0;
        }
    }
}

impl<S: ?Sized + ReadableStorageTraits + 'static> Iterator for BatchReader<S> {
    type Item = Result<RecordBatch, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match self.next_batch() {
            Ok(batch) => batch.map(Ok),
            Err(error) => {
                self.failed = true;
                Some(Err(error))
            }
        }
    }
}

/// The selection, checked against the array's shape.
fn check_selection(ranges: &[Range<u64>], shape: &[u64]) -> Result<Vec<Range<u64>>, Error> {
    if ranges.len() != shape.len() {
        return Err(Error::Shape(format!(
            "the selection has {} ranges; the array has {} dimensions",
            ranges.len(),
            shape.len()
        )));
    }
    for (dim, (range, &extent)) in ranges.iter().zip(shape).enumerate() {
        if range.start > range.end || range.end > extent {
            return Err(Error::Shape(format!(
                "the selection {}..{} is not within dimension {dim} of length {extent}",
                range.start, range.end
            )));
        }
    }
    Ok(ranges.to_vec())
}

/// The record with only the top-level fields `names`.
fn top_fields(native: &Layout, names: &[String]) -> Result<Layout, Error> {
    let Layout::Struct(structure) = native else {
        return Err(Error::Unsupported {
            path: "fields".into(),
            reason: "the array's elements are not records".into(),
        });
    };
    let mut fields = Vec::with_capacity(names.len());
    for field in structure.fields() {
        if names.iter().any(|name| name == field.name()) {
            fields.push(field.clone());
        }
    }
    if let Some(missing) = names.iter().find(|name| structure.field(name).is_none()) {
        return Err(Error::Column {
            column: missing.clone(),
            reason: "the record has no such field".into(),
        });
    }
    if fields.is_empty() {
        return Err(Error::Unsupported {
            path: "fields".into(),
            reason: "no field selected".into(),
        });
    }
    Ok(Layout::Struct(StructLayout::new(fields, structure.size())?))
}

/// Checks that `view` is `native` with some fields left out: the same size, and every leaf of
/// it a leaf of `native` (same place, type, byte order and subarrays).
fn check_view(view: &Layout, native: &Layout) -> Result<(), Error> {
    let problem = |reason: String| Error::Unsupported {
        path: "element".into(),
        reason,
    };
    if view.size() != native.size() {
        return Err(problem(format!(
            "{} bytes, where the array's records are {}",
            view.size(),
            native.size()
        )));
    }
    let leaves = native.leaves();
    for leaf in view.leaves() {
        if !leaves.contains(&leaf) {
            return Err(problem(format!(
                "{} is not a field of the array's record at offset {}",
                leaf.path(),
                leaf.offset()
            )));
        }
    }
    Ok(())
}

/// The fields of `like` (a layout of the same fields as `view`'s source, such as the stored
/// form) that `view` keeps.
fn project(like: &Layout, view: &Layout) -> Result<Layout, Error> {
    Ok(match (like, view) {
        (Layout::Struct(like), Layout::Struct(view)) => {
            let mut fields = Vec::with_capacity(view.fields().len());
            for kept in view.fields() {
                if let Some(field) = like.field(kept.name()) {
                    fields.push(LayoutField::new(
                        field.name(),
                        field.offset(),
                        project(field.layout(), kept.layout())?,
                    ));
                }
            }
            Layout::Struct(StructLayout::new(fields, like.size())?)
        }
        (Layout::Subarray(like), Layout::Subarray(view)) => {
            Layout::Subarray(zarrdt_core::SubarrayLayout::new(
                project(like.element(), view.element())?,
                like.shape(),
            )?)
        }
        (like, _) => like.clone(),
    })
}
