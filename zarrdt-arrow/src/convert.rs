//! [`RecordConverter`]: a record layout as an Arrow table, compiled once; record bytes to a
//! [`RecordBatch`] and back.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, RecordBatch, RecordBatchOptions, StructArray};
use arrow_schema::{Field, Schema, SchemaRef};
use zarrdt_core::{FieldPath, Layout};

use crate::Error;
use crate::export::columns;
use crate::import::write;
use crate::metadata;
use crate::plan::{Node, VALUE_COLUMN, compile};
use crate::positions::Positions;

/// A record layout as an Arrow table: its [`Schema`], and conversions of record bytes (records
/// one after another, each laid out as the layout says) to [`RecordBatch`]es and back.
///
/// A struct record becomes one column per field; any other element one column named
/// `"value"`. The types:
///
/// | Zarr | Arrow |
/// |---|---|
/// | `bool`, `int8`…`uint64`, `float16`…`float64` | `Boolean`, `Int8`…`UInt64`, `Float16`…`Float64` |
/// | `complex64`, `complex128` | `Struct(re, im)` of `Float32`, `Float64` |
/// | `r<N>`, `raw_bytes` (NumPy `V`) | `FixedSizeBinary` |
/// | `null_terminated_bytes` (NumPy `S`) | `Binary`, trailing NULs removed |
/// | `fixed_length_utf32` (NumPy `U`) | `Utf8`, trailing NULs removed |
/// | `numpy.datetime64`, `numpy.timedelta64` | `Timestamp`, `Duration` (NaT is null) |
/// | struct | `Struct` |
/// | subarray (v2 `(T, (n, m))`, Rust `[[T; m]; n]`) | `FixedSizeList(n)` of `FixedSizeList(m)` |
///
/// Times take the nearest Arrow unit (`s`, `ms`, `us`, `ns`; minutes to weeks in seconds;
/// `ps`, `fs`, `as` in nanoseconds when the scale makes whole ones) with the count multiplied
/// exactly; `datetime64` of years and months become the second their period starts. A unit
/// with no exact Arrow form (NumPy's generic unit, `timedelta64` of years or months, `[7ps]`)
/// is an [`Error::Unsupported`] naming the field.
///
/// ```
/// use zarrdt::arrow::RecordConverter;
/// use zarrdt::arrow::arrow_schema::DataType;
/// use zarrdt::layout::Layout;
/// use serde_json::json;
///
/// let layout = Layout::from_v2_json(&json!([["id", "<u4"], ["pos", "<f4", [2]]]))?;
/// let converter = RecordConverter::new(&layout)?;
/// let mut bytes = Vec::new();
/// for (id, x, y) in [(1u32, 0.5f32, 1.5f32), (2, 2.5, 3.5)] {
///     bytes.extend(id.to_le_bytes());
///     bytes.extend(x.to_le_bytes());
///     bytes.extend(y.to_le_bytes());
/// }
/// let batch = converter.to_record_batch(&bytes)?;
/// assert_eq!(batch.num_rows(), 2);
/// assert!(matches!(batch.schema().field(1).data_type(), DataType::FixedSizeList(_, 2)));
/// assert_eq!(converter.from_record_batch(&batch)?, bytes);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct RecordConverter {
    schema: SchemaRef,
    /// One node per column.
    columns: Vec<Node>,
    size: usize,
    /// Whether the records are structs (one column per field), not one `"value"` column.
    is_struct: bool,
}

impl RecordConverter {
    /// The converter of records laid out as `layout` (with every multi-byte value in the byte
    /// order the layout says). Its schema's metadata names the Zarr type: `zarr.data_type`,
    /// the v3 JSON, where the layout has neither padding nor subarray fields; else
    /// `zarr.dtype`, the v2 JSON (unless the layout is padded), so that a table of it makes a
    /// Zarr v2 array again. A layout says nothing of where it came from: for a Rust type
    /// whose array fields are structs of fields `"0"`, `"1"`, … in Zarr v3, take its schema
    /// from [`ArrowRecords::arrow_schema`](crate::ArrowRecords::arrow_schema), which names
    /// its v3 data type.
    pub fn new(layout: &Layout) -> Result<Self, Error> {
        Self::with_metadata(layout, metadata::of_layout(layout))
    }

    /// The converter of `layout` with `metadata` as its schema's metadata.
    pub(crate) fn with_metadata(
        layout: &Layout,
        metadata: HashMap<String, String>,
    ) -> Result<Self, Error> {
        let (fields, columns) = match layout {
            Layout::Struct(structure) => {
                let mut fields = Vec::with_capacity(structure.fields().len());
                let mut columns = Vec::with_capacity(structure.fields().len());
                for field in structure.fields() {
                    let compiled = compile(
                        field.layout(),
                        field.offset(),
                        &FieldPath::root().field(field.name()),
                    )?;
                    let arrow = Field::new(field.name(), compiled.arrow, compiled.nullable)
                        .with_metadata(metadata::of_field(field.layout()));
                    fields.push(arrow);
                    columns.push(compiled.node);
                }
                (fields, columns)
            }
            other => {
                let compiled = compile(other, 0, &FieldPath::root())?;
                let field = Field::new(VALUE_COLUMN, compiled.arrow, compiled.nullable)
                    .with_metadata(metadata::of_field(other));
                (vec![field], vec![compiled.node])
            }
        };
        Ok(RecordConverter {
            schema: Arc::new(Schema::new_with_metadata(fields, metadata)),
            columns,
            size: layout.size(),
            is_struct: matches!(layout, Layout::Struct(_)),
        })
    }

    /// The Arrow schema of the records.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// The size of one record in bytes.
    pub fn record_size(&self) -> usize {
        self.size
    }

    /// The records in `bytes` (a whole number of records) as one batch.
    ///
    /// Each column is built straight from the bytes. Errors name the field and the record: a
    /// `bool` byte other than 0 or 1, a UTF-32 code unit that is no character, a time
    /// beyond Arrow's range.
    pub fn to_record_batch(&self, bytes: &[u8]) -> Result<RecordBatch, Error> {
        let size = self.size.max(1);
        if !bytes.len().is_multiple_of(size) {
            return Err(Error::Zarr(zarrdt_core::Error::BufferLength {
                expected: bytes.len() / size * size,
                found: bytes.len(),
            }));
        }
        let rows = bytes.len() / size;
        let columns: Vec<ArrayRef> = columns(&self.columns, bytes, size, rows)?;
        let options = RecordBatchOptions::new().with_row_count(Some(rows));
        Ok(RecordBatch::try_new_with_options(
            self.schema.clone(),
            columns,
            &options,
        )?)
    }

    /// The records of `batch` as bytes: each column written to its field, padding zero.
    ///
    /// The batch's columns must be the record's fields (by name; in any order), each of the
    /// field's type or one that holds it exactly (`LargeUtf8` and `Utf8View` for text, any
    /// timestamp unit for a `datetime64`, a `List` whose lists all have the subarray's
    /// length, …): otherwise an [`Error::Column`] names the column. A value that does not fit
    /// (a null outside a time field, a string longer than the field, a time that is not a
    /// whole number of the field's unit) is an [`Error::Value`] naming the column and record.
    pub fn from_record_batch(&self, batch: &RecordBatch) -> Result<Vec<u8>, Error> {
        let mut bytes = Vec::new();
        self.append_records(batch, &mut bytes)?;
        Ok(bytes)
    }

    /// Appends the records of `batch` to `bytes`, as [`RecordConverter::from_record_batch`]
    /// makes them; on error, `bytes` is left as it was. Records that cannot be allocated
    /// (wide records in a long batch) are an [`Error::BatchTooLarge`], not an abort.
    pub fn append_records(&self, batch: &RecordBatch, bytes: &mut Vec<u8>) -> Result<(), Error> {
        let rows = batch.num_rows();
        let start = bytes.len();
        let too_large = || Error::BatchTooLarge {
            rows,
            record_size: self.size,
        };
        let added = rows.checked_mul(self.size).ok_or_else(too_large)?;
        bytes.try_reserve_exact(added).map_err(|_| too_large())?;
        bytes.resize(start + added, 0);
        let result = self.write_columns(batch, &mut bytes[start..], rows);
        if result.is_err() {
            bytes.truncate(start);
        }
        result
    }

    fn write_columns(&self, batch: &RecordBatch, out: &mut [u8], rows: usize) -> Result<(), Error> {
        let positions = Positions::records(rows, self.size);
        let schema = batch.schema();
        // A name twice would leave one of its columns unread.
        let mut names = HashSet::with_capacity(schema.fields().len());
        if let Some(twice) = schema.fields().iter().find(|f| !names.insert(f.name())) {
            return Err(Error::Column {
                column: twice.name().clone(),
                reason: "the batch has more than one column of this name".into(),
            });
        }
        if !self.is_struct {
            let Some(node) = self.columns.first() else {
                return Ok(());
            };
            // One column, "value", or whatever the one column of the batch is called; for an
            // element that is a Rust array, also the columns "0", "1", … of its Zarr v3 form
            // (a struct of those fields: what `BatchReader` reads of such an array).
            let items;
            let column: &dyn Array = match batch.column_by_name(VALUE_COLUMN) {
                Some(column) if batch.num_columns() == 1 => column.as_ref(),
                Some(_) => {
                    let extra = schema.fields().iter().find(|f| f.name() != VALUE_COLUMN);
                    return Err(Error::Column {
                        column: extra.map_or(VALUE_COLUMN, |f| f.name()).to_owned(),
                        reason: "the records are one column, \"value\"".into(),
                    });
                }
                None if batch.num_columns() == 1 => batch.column(0).as_ref(),
                None if matches!(node, Node::List { .. }) && batch.num_columns() > 1 => {
                    items = StructArray::from(batch.clone());
                    &items
                }
                None => return Err(missing(VALUE_COLUMN)),
            };
            return write(node, column, out, &positions);
        }
        for (field, node) in self.schema.fields().iter().zip(&self.columns) {
            let column = batch
                .column_by_name(field.name())
                .ok_or_else(|| missing(field.name()))?;
            write(node, column.as_ref(), out, &positions)?;
        }
        if let Some(extra) = schema
            .fields()
            .iter()
            .find(|found| self.schema.field_with_name(found.name()).is_err())
        {
            return Err(Error::Column {
                column: extra.name().clone(),
                reason: "the record has no such field".into(),
            });
        }
        Ok(())
    }
}

fn missing(name: &str) -> Error {
    Error::Column {
        column: name.to_owned(),
        reason: "the batch has no such column".into(),
    }
}
