//! A Parquet file whose columns are encoded on all threads.
//!
//! parquet-rs' `ArrowWriter` encodes (and compresses) one column after another on the calling
//! thread. This writer makes the same file (the same row groups of at most
//! `max_row_group_row_count` rows and, where set, about `max_row_group_bytes` encoded bytes, the
//! same schema and metadata, the same encodings) through
//! the lower-level API parquet-rs documents for parallel writing: one `ArrowColumnWriter` per
//! leaf column, each fed that column's leaves of every batch, all of them at once on rayon's
//! threads; a full row group's column chunks are then appended to the file in order. Memory is
//! that of `ArrowWriter`: the encoded pages of one row group.

use std::io::Write;

use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_writer::{
    ArrowColumnChunk, ArrowColumnWriter, ArrowRowGroupWriterFactory, compute_leaves,
};
use parquet::errors::{ParquetError, Result};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use rayon::prelude::*;
use zarrdt::arrow::arrow_array::RecordBatch;
use zarrdt::arrow::arrow_schema::SchemaRef;

/// A Parquet file being written, its columns encoded in parallel.
pub(crate) struct ParallelParquetWriter<W: Write + Send> {
    file: SerializedFileWriter<W>,
    factory: ArrowRowGroupWriterFactory,
    schema: SchemaRef,
    /// The writers of the row group in progress, one per leaf column.
    columns: Vec<ArrowColumnWriter>,
    /// Rows in the row group in progress.
    buffered: usize,
    /// Rows in a full row group.
    max_rows: usize,
    /// Estimated encoded bytes at which a row group is full, if any.
    max_bytes: Option<usize>,
    /// Row groups written.
    row_groups: usize,
}

impl<W: Write + Send> ParallelParquetWriter<W> {
    /// A writer of `schema`'s batches to `out`, with `properties`.
    pub(crate) fn try_new(out: W, schema: SchemaRef, properties: WriterProperties) -> Result<Self> {
        let max_rows = properties
            .max_row_group_row_count()
            .unwrap_or(usize::MAX)
            .max(1);
        let max_bytes = properties.max_row_group_bytes();
        // `ArrowWriter` writes the file's header and puts the Arrow schema in its metadata.
        let (file, factory) = ArrowWriter::try_new(out, schema.clone(), Some(properties))?
            .into_serialized_writer()?;
        let columns = factory.create_column_writers(0)?;
        Ok(ParallelParquetWriter {
            file,
            factory,
            schema,
            columns,
            buffered: 0,
            max_rows,
            max_bytes,
            row_groups: 0,
        })
    }

    /// Encodes `batch`, closing each row group that it fills: where `ArrowWriter` closes them,
    /// at the row limit or, with a byte limit, where the rows buffered so far (at their average
    /// estimated size) would pass it.
    pub(crate) fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        let mut start = 0;
        while start < batch.num_rows() {
            let mut rows = (self.max_rows - self.buffered).min(batch.num_rows() - start);
            if let Some(max_bytes) = self.max_bytes
                && self.buffered > 0
            {
                let bytes = self.estimated_bytes();
                if bytes >= max_bytes {
                    self.flush()?;
                    continue;
                }
                if let Some(fit) = (max_bytes - bytes).checked_div(bytes / self.buffered)
                    && rows > fit
                {
                    if fit == 0 {
                        self.flush()?;
                        continue;
                    }
                    rows = fit;
                }
            }
            self.encode(&batch.slice(start, rows))?;
            start += rows;
            let full_bytes = self
                .max_bytes
                .is_some_and(|max_bytes| self.estimated_bytes() >= max_bytes);
            if self.buffered >= self.max_rows || full_bytes {
                self.flush()?;
            }
        }
        Ok(())
    }

    /// The estimated encoded size of the row group in progress.
    fn estimated_bytes(&self) -> usize {
        self.columns
            .iter()
            .map(ArrowColumnWriter::get_estimated_total_bytes)
            .sum()
    }

    /// Encodes `batch` (which fits in the row group in progress), every column at once.
    fn encode(&mut self, batch: &RecordBatch) -> Result<()> {
        let mut leaves = Vec::with_capacity(self.columns.len());
        for (field, column) in self.schema.fields().iter().zip(batch.columns()) {
            leaves.extend(compute_leaves(field, column)?);
        }
        if leaves.len() != self.columns.len() {
            return Err(ParquetError::General(format!(
                "a batch of {} leaf columns for a file of {}",
                leaves.len(),
                self.columns.len()
            )));
        }
        self.columns
            .par_iter_mut()
            .zip(leaves.into_par_iter())
            .try_for_each(|(column, leaf)| column.write(&leaf))?;
        self.buffered += batch.num_rows();
        Ok(())
    }

    /// Closes the row group in progress (its columns at once) and appends it to the file.
    fn flush(&mut self) -> Result<()> {
        if self.buffered == 0 {
            return Ok(());
        }
        self.row_groups += 1;
        let next = self.factory.create_column_writers(self.row_groups)?;
        let columns = std::mem::replace(&mut self.columns, next);
        let chunks = columns
            .into_par_iter()
            .map(ArrowColumnWriter::close)
            .collect::<Result<Vec<ArrowColumnChunk>>>()?;
        let mut row_group = self.file.next_row_group()?;
        for chunk in chunks {
            chunk.append_to_row_group(&mut row_group)?;
        }
        row_group.close()?;
        self.buffered = 0;
        Ok(())
    }

    /// Writes the last row group and the file's footer.
    pub(crate) fn close(mut self) -> Result<()> {
        self.flush()?;
        self.file.close()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use parquet::arrow::ArrowWriter;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::file::properties::WriterProperties;
    use zarrdt::arrow::arrow_array::{
        Array, ArrayRef, BooleanArray, FixedSizeListArray, Float32Array, RecordBatch, StringArray,
        StructArray, UInt64Array,
    };
    use zarrdt::arrow::arrow_schema::{DataType, Field, Fields, Schema};

    use super::ParallelParquetWriter;

    /// `rows` rows from `start`: a number, a string, a struct of a float and a bool, and a
    /// fixed-size list of three floats.
    fn batch(start: u64, rows: u64) -> RecordBatch {
        let ids = UInt64Array::from_iter_values(start..start + rows);
        let names = StringArray::from_iter_values((start..start + rows).map(|i| format!("n{i}")));
        let inner = Fields::from(vec![
            Field::new("x", DataType::Float32, false),
            Field::new("ok", DataType::Boolean, false),
        ]);
        let nested = StructArray::new(
            inner,
            vec![
                Arc::new(Float32Array::from_iter_values(
                    (start..start + rows).map(|i| i as f32 * 0.5),
                )) as ArrayRef,
                Arc::new(BooleanArray::from_iter(
                    (start..start + rows).map(|i| Some(i % 3 == 0)),
                )),
            ],
            None,
        );
        let item = Arc::new(Field::new("item", DataType::Float32, false));
        let values = Float32Array::from_iter_values((0..3 * rows).map(|i| i as f32));
        let list = FixedSizeListArray::new(item, 3, Arc::new(values), None);
        let schema = Schema::new(vec![
            Field::new("id", DataType::UInt64, false),
            Field::new("name", DataType::Utf8, false),
            Field::new("nested", nested.data_type().clone(), false),
            Field::new("list", list.data_type().clone(), false),
        ]);
        RecordBatch::try_new(
            Arc::new(schema),
            vec![
                Arc::new(ids),
                Arc::new(names),
                Arc::new(nested),
                Arc::new(list),
            ],
        )
        .unwrap()
    }

    /// The file each writer makes of `batches`, in row groups of at most 1000 rows: parquet-rs'
    /// `ArrowWriter`'s, then this module's.
    fn both_files(batches: &[RecordBatch]) -> (Vec<u8>, Vec<u8>) {
        both_files_with(batches, None)
    }

    /// [`both_files`] with row groups of at most `max_bytes` estimated bytes too.
    fn both_files_with(batches: &[RecordBatch], max_bytes: Option<usize>) -> (Vec<u8>, Vec<u8>) {
        let properties = || {
            WriterProperties::builder()
                .set_max_row_group_row_count(Some(1000))
                .set_max_row_group_bytes(max_bytes)
                .build()
        };
        let schema = batch(0, 1).schema();
        let mut expected = Vec::new();
        let mut writer =
            ArrowWriter::try_new(&mut expected, schema.clone(), Some(properties())).unwrap();
        for batch in batches {
            writer.write(batch).unwrap();
        }
        writer.close().unwrap();
        let mut written = Vec::new();
        let mut writer =
            ParallelParquetWriter::try_new(&mut written, schema.clone(), properties()).unwrap();
        for batch in batches {
            writer.write(batch).unwrap();
        }
        writer.close().unwrap();
        (expected, written)
    }

    #[test]
    fn writes_the_file_arrow_writer_writes() {
        // Batches of 300 rows: batches split across row groups, and a last row group that is
        // not full.
        let batches: Vec<RecordBatch> = (0..11).map(|i| batch(i * 300, 300)).collect();
        let (expected, written) = both_files(&batches);
        assert!(written == expected, "the files differ");
        let reader = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(written)).unwrap();
        assert_eq!(reader.metadata().num_row_groups(), 4);
        let rows: usize = reader.build().unwrap().map(|b| b.unwrap().num_rows()).sum();
        assert_eq!(rows, 3300);
    }

    /// With a byte limit, row groups close where `ArrowWriter` closes them: before the rows of
    /// a batch that would pass it, and within a batch.
    #[test]
    fn row_groups_of_a_byte_limit_are_arrow_writers() {
        let batches: Vec<RecordBatch> = (0..11).map(|i| batch(i * 300, 300)).collect();
        for max_bytes in [1, 4 << 10, 20 << 10, 1 << 30] {
            let (expected, written) = both_files_with(&batches, Some(max_bytes));
            assert!(written == expected, "the files differ at {max_bytes} bytes");
            let reader =
                ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(written)).unwrap();
            let groups = reader.metadata().num_row_groups();
            if max_bytes < 1 << 30 {
                assert!(groups > 4, "{groups} row groups at {max_bytes} bytes");
            }
            let rows: usize = reader.build().unwrap().map(|b| b.unwrap().num_rows()).sum();
            assert_eq!(rows, 3300);
        }
    }

    #[test]
    fn no_rows_and_whole_row_groups_make_the_same_file() {
        // No batch at all, an empty batch, and batches that end exactly on a row group.
        for batches in [
            vec![],
            vec![batch(0, 0)],
            vec![batch(0, 500), batch(500, 500), batch(1000, 1000)],
        ] {
            let (expected, written) = both_files(&batches);
            assert!(
                written == expected,
                "the files differ for {} batches",
                batches.len()
            );
        }
    }

    #[test]
    fn a_batch_of_another_schema_is_an_error() {
        let schema = batch(0, 1).schema();
        let mut writer =
            ParallelParquetWriter::try_new(Vec::new(), schema, WriterProperties::default())
                .unwrap();
        let other = RecordBatch::try_new(
            Arc::new(Schema::new(vec![Field::new("id", DataType::UInt64, false)])),
            vec![Arc::new(UInt64Array::from_iter_values(0..4))],
        )
        .unwrap();
        let error = writer.write(&other).unwrap_err().to_string();
        assert!(error.contains("1 leaf columns for a file of 5"), "{error}");
    }
}
