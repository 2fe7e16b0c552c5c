//! The table files `export` writes and `import` reads: Parquet, and the Arrow IPC file and
//! stream formats.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom};
use std::path::Path;

use arrow_ipc::reader::{FileReader, StreamReader};
use arrow_ipc::writer::{FileWriter, StreamWriter};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::{Compression as ParquetCompression, ZstdLevel};
use parquet::file::properties::WriterProperties;
use std::sync::Arc;

use clap::ValueEnum;
use zarrdt::arrow::arrow_array::cast::AsArray;
use zarrdt::arrow::arrow_array::types::TimestampSecondType;
use zarrdt::arrow::arrow_array::{
    Array, ArrayRef, FixedSizeListArray, RecordBatch, StructArray, TimestampMillisecondArray,
};
use zarrdt::arrow::arrow_schema::{
    ArrowError, DataType, Field, Fields, Schema, SchemaRef, TimeUnit,
};

use crate::damaged::{Guarded, guarded};
use crate::ipc_buffers;
use crate::parquet_writer::ParallelParquetWriter;

/// Compression of the Parquet files `export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ParquetCodec {
    /// Not compressed.
    None,
    /// Snappy (pyarrow's default).
    Snappy,
    /// Zstandard, level 3.
    Zstd,
    /// LZ4 (raw).
    Lz4,
}

/// The most leaf columns a Parquet file `export` writes: parquet-rs' column writers (their
/// dictionary encoders above all) take about 40 KB each, whatever the rows, so that a record
/// of 200 000 one-byte fields (a 3.9 MB `.zarray`) took 8.5 GB; at this limit, about 430 MB.
const MAX_PARQUET_COLUMNS: usize = 10_000;

/// The estimated encoded size at which a Parquet row group is closed (as Java's
/// `parquet.block.size`), beside parquet-rs' limit of 1 Mi rows: the writer holds a row group's
/// pages until it closes it, so records of megabytes (a subarray field of millions of items)
/// would otherwise hold the whole table.
const PARQUET_ROW_GROUP_BYTES: usize = 128 << 20;

/// The leaf columns of `fields` in Parquet: one per primitive field, inside structs and
/// lists (a list is one repeated column of its item).
fn leaf_columns(fields: &Fields) -> usize {
    fields
        .iter()
        .map(|field| leaves_of(field.data_type()))
        .fold(0, usize::saturating_add)
}

/// [`leaf_columns`] of one field's type.
fn leaves_of(data_type: &DataType) -> usize {
    match data_type {
        DataType::Struct(fields) => leaf_columns(fields),
        DataType::List(item)
        | DataType::LargeList(item)
        | DataType::FixedSizeList(item, _)
        | DataType::ListView(item)
        | DataType::LargeListView(item) => leaves_of(item.data_type()),
        _ => 1,
    }
}

/// The table file formats, by extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Parquet,
    /// The Arrow IPC file format (`.arrow`, `.feather`, `.ipc`).
    Ipc,
    /// The Arrow IPC stream format (`.arrows`).
    IpcStream,
}

pub(crate) fn format_of(path: &Path) -> Result<Format, String> {
    if let Some((scheme, _)) = path.to_str().and_then(|path| path.split_once("://")) {
        // A table is a local file: `s3://bucket/t.parquet` would otherwise be the path of a
        // directory `s3:`, and fail as "No such file or directory".
        return Err(format!(
            "table files are local files; `{scheme}://` is not read or written here (copy the \
             table to or from a local file, or give a Zarr array's location as PATH)"
        ));
    }
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("parquet" | "pq") => Ok(Format::Parquet),
        Some("arrow" | "feather" | "ipc") => Ok(Format::Ipc),
        Some("arrows") => Ok(Format::IpcStream),
        _ => Err(
            "unknown table format: name the file .parquet or .pq (Parquet), .arrow, .feather \
             or .ipc (Arrow IPC file), or .arrows (Arrow IPC stream)"
                .into(),
        ),
    }
}

/// A table file being written.
pub(crate) enum Sink {
    /// A Parquet writer (its columns encoded on all threads), the schema it was given
    /// (timestamps of seconds in milliseconds), and the rows written so far.
    Parquet(Box<ParallelParquetWriter<BufWriter<File>>>, SchemaRef, u64),
    Ipc(Box<FileWriter<BufWriter<File>>>),
    IpcStream(Box<StreamWriter<BufWriter<File>>>),
}

impl Sink {
    pub(crate) fn new(
        format: Format,
        file: BufWriter<File>,
        schema: &SchemaRef,
        parquet_compression: ParquetCodec,
    ) -> Result<Sink, Box<dyn std::error::Error>> {
        Ok(match format {
            Format::Parquet => {
                let columns = leaf_columns(schema.fields());
                if columns > MAX_PARQUET_COLUMNS {
                    return Err(format!(
                        "the records have {columns} leaf fields, each a Parquet column; \
                         parquet-rs keeps about 40 KB of writer state per column (8 GB for \
                         200 000), so zarrdt writes at most {MAX_PARQUET_COLUMNS}: choose \
                         fields with --fields, or write Arrow IPC (a .arrow file)"
                    )
                    .into());
                }
                let compression = match parquet_compression {
                    ParquetCodec::None => ParquetCompression::UNCOMPRESSED,
                    ParquetCodec::Snappy => ParquetCompression::SNAPPY,
                    ParquetCodec::Zstd => ParquetCompression::ZSTD(ZstdLevel::try_new(3)?),
                    ParquetCodec::Lz4 => ParquetCompression::LZ4_RAW,
                };
                let properties = WriterProperties::builder()
                    .set_compression(compression)
                    .set_max_row_group_bytes(Some(PARQUET_ROW_GROUP_BYTES))
                    .build();
                let schema = millis_schema(schema);
                let writer = ParallelParquetWriter::try_new(file, schema.clone(), properties)?;
                Sink::Parquet(Box::new(writer), schema, 0)
            }
            Format::Ipc => Sink::Ipc(Box::new(FileWriter::try_new(file, schema)?)),
            Format::IpcStream => Sink::IpcStream(Box::new(StreamWriter::try_new(file, schema)?)),
        })
    }

    pub(crate) fn write(&mut self, batch: &RecordBatch) -> Result<(), Box<dyn std::error::Error>> {
        match self {
            Sink::Parquet(writer, schema, rows) => {
                let columns = batch
                    .schema()
                    .fields()
                    .iter()
                    .zip(batch.columns())
                    .map(|(field, column)| to_millis(column, field.name(), *rows, 1))
                    .collect::<Result<Vec<_>, _>>()?;
                writer.write(&RecordBatch::try_new(schema.clone(), columns)?)?;
                *rows += batch.num_rows() as u64;
            }
            Sink::Ipc(writer) => writer.write(batch)?,
            Sink::IpcStream(writer) => writer.write(batch)?,
        }
        Ok(())
    }

    pub(crate) fn close(self) -> Result<(), Box<dyn std::error::Error>> {
        match self {
            Sink::Parquet(writer, ..) => {
                writer.close()?;
            }
            Sink::Ipc(mut writer) => {
                writer.finish()?;
                let mut file = writer.into_inner()?;
                std::io::Write::flush(&mut file)?;
            }
            Sink::IpcStream(mut writer) => {
                writer.finish()?;
                let mut file = writer.into_inner()?;
                std::io::Write::flush(&mut file)?;
            }
        }
        Ok(())
    }
}

/// A table file being read: its schema, its row count if the file says, and its batches.
pub(crate) struct Source {
    pub(crate) schema: SchemaRef,
    pub(crate) rows: Option<u64>,
    pub(crate) batches: Box<dyn Iterator<Item = Result<RecordBatch, ArrowError>>>,
}

/// Opens a table file for one pass over its batches.
pub(crate) fn read_table(
    path: &Path,
    batch_rows: usize,
) -> Result<Source, Box<dyn std::error::Error>> {
    let format = format_of(path)?;
    let file = File::open(path)?;
    match format {
        Format::Parquet => {
            // As the IPC readers below, guarded (no damaged Parquet file has made parquet-rs
            // panic yet: 80 tried).
            const WHAT: &str = "the Parquet file";
            let builder = guarded(WHAT, || ParquetRecordBatchReaderBuilder::try_new(file))??;
            let rows = u64::try_from(builder.metadata().file_metadata().num_rows()).ok();
            let schema = builder.schema().clone();
            let reader = guarded(WHAT, || builder.with_batch_size(batch_rows).build())??;
            Ok(Source {
                schema,
                rows,
                batches: Box::new(Guarded::new(reader, WHAT, ArrowError::ParquetError)),
            })
        }
        Format::Ipc | Format::IpcStream => {
            // The IPC file format starts with "ARROW1"; anything else is read as a stream.
            let mut file = file;
            let mut magic = [0u8; 6];
            let is_file = file.read_exact(&mut magic).is_ok() && &magic == b"ARROW1";
            // Feather V1 (pyarrow's `version=1`) is no Arrow IPC: said so, rather than its magic
            // read as a stream's length.
            if magic.starts_with(b"FEA1") {
                return Err(
                    "a Feather V1 file, which zarrdt does not read: write it again as \
                            Feather V2 (Arrow IPC), pyarrow's default"
                        .into(),
                );
            }
            // arrow-rs' IPC readers can panic on damaged bytes: their calls are guarded. An
            // allocation they would ask for and not get aborts instead: checked first.
            const WHAT: &str = "the Arrow IPC data";
            let sizes = guarded(WHAT, || match is_file {
                true => ipc_buffers::check_file(&mut file),
                false => ipc_buffers::check_stream(&mut file),
            })?;
            sizes.map_err(|error| format!("{WHAT} is damaged: {error}"))?;
            file.seek(SeekFrom::Start(0))?;
            let reader = BufReader::with_capacity(1 << 20, file);
            if is_file {
                let reader = guarded(WHAT, || FileReader::try_new(reader, None))??;
                Ok(Source {
                    schema: reader.schema(),
                    rows: None,
                    batches: Box::new(Guarded::new(reader, WHAT, ArrowError::IpcError)),
                })
            } else {
                let reader = guarded(WHAT, || StreamReader::try_new(reader, None))??;
                Ok(Source {
                    schema: reader.schema(),
                    rows: None,
                    batches: Box::new(Guarded::new(reader, WHAT, ArrowError::IpcError)),
                })
            }
        }
    }
}

// Parquet has no timestamp unit of seconds: parquet-rs writes `timestamp[s]` as a bare int64,
// which pyarrow and Polars then read as integers. Such columns are written in milliseconds,
// as pyarrow writes them, every value checked.

/// `data_type` with timestamps of seconds (at any depth) in milliseconds.
fn millis_type(data_type: &DataType) -> DataType {
    match data_type {
        DataType::Timestamp(TimeUnit::Second, zone) => {
            DataType::Timestamp(TimeUnit::Millisecond, zone.clone())
        }
        DataType::Struct(fields) => DataType::Struct(
            fields
                .iter()
                .map(|field| millis_field(field))
                .collect::<Fields>(),
        ),
        DataType::FixedSizeList(item, size) => {
            DataType::FixedSizeList(Arc::new(millis_field(item)), *size)
        }
        other => other.clone(),
    }
}

fn millis_field(field: &Field) -> Field {
    field.clone().with_data_type(millis_type(field.data_type()))
}

/// The schema with timestamps of seconds in milliseconds.
fn millis_schema(schema: &SchemaRef) -> SchemaRef {
    let fields: Vec<Field> = schema.fields().iter().map(|f| millis_field(f)).collect();
    Arc::new(Schema::new_with_metadata(fields, schema.metadata().clone()))
}

/// `column` (at `path`, `per` values to a record, from record `first` on) with timestamps of
/// seconds in milliseconds; an error naming the column and record for a time beyond them.
fn to_millis(column: &ArrayRef, path: &str, first: u64, per: usize) -> Result<ArrayRef, String> {
    match column.data_type() {
        DataType::Timestamp(TimeUnit::Second, zone) => {
            let seconds = column.as_primitive::<TimestampSecondType>();
            let mut values = Vec::with_capacity(seconds.len());
            for (index, &value) in seconds.values().iter().enumerate() {
                if seconds.is_null(index) {
                    values.push(0);
                    continue;
                }
                values.push(value.checked_mul(1000).ok_or_else(|| {
                    format!(
                        "{path}, record {}: {value} s is beyond Parquet's timestamps, which \
                         are in milliseconds at most (write an .arrow file instead)",
                        first + (index / per.max(1)) as u64
                    )
                })?);
            }
            let millis = TimestampMillisecondArray::new(values.into(), seconds.nulls().cloned())
                .with_timezone_opt(zone.clone());
            Ok(Arc::new(millis))
        }
        DataType::Struct(fields) if millis_type(column.data_type()) != *column.data_type() => {
            let array = column.as_struct();
            let children = fields
                .iter()
                .zip(array.columns())
                .map(|(field, child)| {
                    to_millis(child, &format!("{path}.{}", field.name()), first, per)
                })
                .collect::<Result<Vec<_>, _>>()?;
            let fields: Fields = fields.iter().map(|f| millis_field(f)).collect();
            Ok(Arc::new(
                StructArray::try_new(fields, children, array.nulls().cloned())
                    .map_err(|e| e.to_string())?,
            ))
        }
        DataType::FixedSizeList(item, size)
            if millis_type(column.data_type()) != *column.data_type() =>
        {
            let array = column.as_fixed_size_list();
            let items = per * usize::try_from(*size).unwrap_or(1);
            let values = to_millis(array.values(), path, first, items)?;
            Ok(Arc::new(
                FixedSizeListArray::try_new(
                    Arc::new(millis_field(item)),
                    *size,
                    values,
                    array.nulls().cloned(),
                )
                .map_err(|e| e.to_string())?,
            ))
        }
        _ => Ok(column.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parquet_leaf_columns_count_struct_and_list_leaves() {
        let item = |data_type| Arc::new(Field::new("item", data_type, false));
        let point = DataType::Struct(Fields::from(vec![
            Field::new("x", DataType::Float64, false),
            Field::new(
                "y",
                DataType::FixedSizeList(item(DataType::Int32), 3),
                false,
            ),
        ]));
        let fields = Fields::from(vec![
            Field::new("id", DataType::UInt32, false),
            Field::new("p", point, false),
            Field::new("many", DataType::List(item(DataType::Utf8)), false),
        ]);
        assert_eq!(leaf_columns(&fields), 4);
    }
}
