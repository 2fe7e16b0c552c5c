//! Record batches of a Parquet file sized by what they hold, not only by their rows: a few
//! kilobytes of Parquet (dictionary-encoded or compressed text) can decode to rows of
//! hundreds of kilobytes each, so a fixed number of rows a batch is no bound on memory.
//!
//! parquet-rs reads a fixed number of rows a batch, so the reader is built again, at the row
//! where the last batch ended, whenever the rows seen say another number fits the budget: the
//! first batch is one row, the next as many rows as the budget holds of rows that size (at
//! most the number asked), and fewer again as soon as rows grow. A batch holds about the
//! budget at most (twice, while the growth of Arrow's buffers is being learnt), unless its
//! rows grew within it: a batch of small rows followed by large ones is as large as before.

use std::fs::File;

use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder,
};
use zarrdt::arrow::arrow_array::RecordBatch;
use zarrdt::arrow::arrow_schema::ArrowError;

/// Bytes of Arrow data a batch read from a Parquet file holds, at most (about): fewer rows
/// than `--batch-rows` where rows are large.
pub(crate) const BATCH_BYTES: usize = 16 << 20;

/// The batches of one pass over a Parquet file, each about [`BATCH_BYTES`] at most.
pub(crate) struct ParquetBatches {
    file: File,
    metadata: ArrowReaderMetadata,
    /// The reader of the current batch size; `None` once it must be built again.
    reader: Option<ParquetRecordBatchReader>,
    /// Rows read so far: where a reader built again starts.
    offset: usize,
    /// Rows a batch of the current reader.
    rows: usize,
    /// Rows a batch at most (`--batch-rows`).
    asked: usize,
    /// Bytes a batch at most, about.
    budget: usize,
    /// Whether the pass is over (an error ends it).
    done: bool,
}

impl ParquetBatches {
    /// The batches of the Parquet `file` (whose metadata is `metadata`), at most `asked` rows
    /// and about `budget` bytes each.
    pub(crate) fn new(
        file: File,
        metadata: ArrowReaderMetadata,
        asked: usize,
        budget: usize,
    ) -> Self {
        ParquetBatches {
            file,
            metadata,
            reader: None,
            offset: 0,
            rows: 1,
            asked: asked.max(1),
            budget: budget.max(1),
            done: false,
        }
    }

    /// A reader of `self.rows` rows a batch from row `self.offset` on.
    fn build(&self) -> Result<ParquetRecordBatchReader, ArrowError> {
        let file = self.file.try_clone()?;
        ParquetRecordBatchReaderBuilder::new_with_metadata(file, self.metadata.clone())
            .with_batch_size(self.rows)
            .with_offset(self.offset)
            .build()
            .map_err(ArrowError::from)
    }

    /// After `batch`: the rows a batch that fit the budget, for rows of its size.
    fn resize(&mut self, batch: &RecordBatch) {
        let per_row = batch
            .get_array_memory_size()
            .div_ceil(batch.num_rows().max(1))
            .max(1);
        let fit = (self.budget / per_row).clamp(1, self.asked);
        // Built again to shrink at once, and to grow when it at least doubles the batch (a
        // rebuild skips to its offset, so it is not done for small gains).
        if fit < self.rows || fit >= self.rows.saturating_mul(2) {
            self.rows = fit;
            self.reader = None;
        }
    }
}

impl Iterator for ParquetBatches {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if self.reader.is_none() {
            match self.build() {
                Ok(reader) => self.reader = Some(reader),
                Err(error) => {
                    self.done = true;
                    return Some(Err(error));
                }
            }
        }
        let batch = match self.reader.as_mut()?.next()? {
            Ok(batch) => batch,
            Err(error) => {
                self.done = true;
                return Some(Err(error));
            }
        };
        self.offset += batch.num_rows();
        self.resize(&batch);
        Some(Ok(batch))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::path::PathBuf;
    use std::sync::Arc;

    use parquet::arrow::ArrowWriter;
    use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions};
    use zarrdt::arrow::arrow_array::{Array, ArrayRef, RecordBatch, StringArray, UInt32Array};
    use zarrdt::arrow::arrow_schema::{DataType, Field, Schema};

    use super::ParquetBatches;

    /// A Parquet file of `texts` (one row each, numbered), written in batches of 500 rows;
    /// repeated texts are dictionary-encoded, so the file is far smaller than its rows.
    fn parquet(name: &str, texts: &[String]) -> PathBuf {
        let path = std::env::temp_dir().join(format!(
            "zarrdt-parquet-batches-{}-{name}.parquet",
            std::process::id()
        ));
        let schema = Arc::new(Schema::new(vec![
            Field::new("n", DataType::UInt32, false),
            Field::new("text", DataType::Utf8, false),
        ]));
        let file = std::fs::File::create(&path).unwrap();
        let mut writer = ArrowWriter::try_new(file, schema.clone(), None).unwrap();
        for (start, part) in (0u32..).step_by(500).zip(texts.chunks(500)) {
            let numbers = UInt32Array::from_iter_values(start..start + part.len() as u32);
            let texts = StringArray::from_iter_values(part);
            let columns: Vec<ArrayRef> = vec![Arc::new(numbers), Arc::new(texts)];
            writer
                .write(&RecordBatch::try_new(schema.clone(), columns).unwrap())
                .unwrap();
        }
        writer.close().unwrap();
        path
    }

    /// Every batch of `path` read with `asked` rows and `budget` bytes at most: their rows and
    /// memory sizes, after checking that together they are every row, in order.
    fn read(path: &PathBuf, asked: usize, budget: usize, rows: usize) -> Vec<(usize, usize)> {
        let file = std::fs::File::open(path).unwrap();
        let metadata = ArrowReaderMetadata::load(&file, ArrowReaderOptions::default()).unwrap();
        let mut next = 0u32;
        let mut seen = Vec::new();
        for batch in ParquetBatches::new(file, metadata, asked, budget) {
            let batch = batch.unwrap();
            let numbers = batch
                .column(0)
                .as_any()
                .downcast_ref::<UInt32Array>()
                .unwrap();
            for number in numbers.values() {
                assert_eq!(*number, next);
                next += 1;
            }
            seen.push((batch.num_rows(), batch.get_array_memory_size()));
        }
        assert_eq!(next as usize, rows);
        seen
    }

    #[test]
    fn batches_of_large_rows_hold_about_the_budget() {
        // 2000 rows of the same 200 000-character text: a small file, 400 MB of rows.
        let path = parquet("large", &vec!["x".repeat(200_000); 2000]);
        assert!(std::fs::metadata(&path).unwrap().len() < 1 << 20);
        let budget = 16 << 20;
        let batches = read(&path, 65_536, budget, 2000);
        // One row first, then as many as 16 MiB holds: 83 rows of 200 kB, whose text buffer
        // grows (by doubling) to 25.6 MB; then as many as fit with that growth counted.
        assert_eq!(batches[0].0, 1);
        assert!(
            batches[1..].iter().all(|&(rows, _)| rows <= 84),
            "{batches:?}"
        );
        let largest = batches.iter().map(|&(_, bytes)| bytes).max().unwrap();
        assert!(
            largest <= 2 * budget,
            "{largest} bytes in a batch: {batches:?}"
        );
        let last = batches[batches.len() - 2].1;
        assert!(
            last <= budget + 400_000,
            "{last} bytes in a batch: {batches:?}"
        );
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn small_rows_come_as_many_as_asked_and_batches_shrink_when_rows_grow() {
        // 3000 short rows, then 1000 of 100 000 characters.
        let mut texts: Vec<String> = (0..3000).map(|i| format!("r{i}")).collect();
        texts.extend(std::iter::repeat_n("y".repeat(100_000), 1000));
        let path = parquet("growing", &texts);
        let batches = read(&path, 1024, 4 << 20, 4000);
        assert_eq!(batches[0].0, 1);
        assert_eq!(batches[1].0, 1024, "{batches:?}");
        // Once the large rows are seen, batches of at most 4 MiB of them (41 rows or fewer).
        let last = batches[batches.len() - 2];
        assert!(last.0 <= 42 && last.1 <= (4 << 20) + 100_000, "{batches:?}");
        std::fs::remove_file(&path).unwrap();
    }
}
