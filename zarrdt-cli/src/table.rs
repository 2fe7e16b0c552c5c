//! `zarrdt export` and `zarrdt import`: record arrays to Parquet and Arrow IPC files and back,
//! streamed through `zarrdt::arrow` (a block of chunks and a batch in memory at a time, plus
//! one Parquet row group), with a progress line on long runs.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use clap::Args;
use clap::builder::TypedValueParser as _;
use zarrdt::array::{ArrayOptions, Compression, OpenOptions, open_store};
use zarrdt::arrow::{BatchReader, ReadOptions, Sizes, TableType, TableWriter};
use zarrdt::types::ScalarType;
use zarrdt::zarrs::node::{NodePath, meta_key_v2_array, meta_key_v3};
use zarrdt::zarrs::storage::{ListableStorageTraits, StorePrefix, WritableStorageTraits};

use crate::Failure;
use crate::fields::prune;
use crate::open::{one_line, open};
use crate::progress::Progress;
use crate::select::SelectionSpec;
use crate::table_files::{Format, ParquetCodec, Sink, format_of, read_table};

/// Bytes of records per chunk of an imported array, unless `--chunks` says.
const CHUNK_BYTES: u64 = 1 << 20;

/// Bytes of records per batch `import` reads from a Parquet file, at most (fewer rows than
/// `--batch-rows` where records are large): a few kilobytes of compressed text can be
/// hundreds of megabytes of rows.
const BATCH_BYTES: u64 = 16 << 20;

/// The arguments of `zarrdt export`.
#[derive(Args)]
pub struct ExportArgs {
    /// The array: its directory (holding zarr.json or .zarray), or s3://bucket/prefix
    /// (with the `s3` feature).
    pub path: String,
    /// The table file to write: .parquet (or .pq) for Parquet, .arrow (or .feather) for
    /// the Arrow IPC file format, .arrows for the Arrow IPC stream format.
    pub out: PathBuf,
    /// Index ranges per dimension, as in `dump` (rows are the elements in C order).
    #[arg(long, value_name = "RANGES", value_parser = crate::select::parse_selection, allow_hyphen_values = true)]
    pub select: Option<SelectionSpec>,
    /// Only these fields (dotted paths such as `a,b.c`; a struct field means all of it; a name
    /// with a comma or dot quoted as `inspect` shows it, `["x,y"]`; any name may be quoted).
    #[arg(long, value_name = "PATHS", allow_hyphen_values = true)]
    pub fields: Vec<String>,
    /// Rows per record batch.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BATCH_ROWS,
          value_parser = clap::value_parser!(u64).range(1..).map(|n| n as usize))]
    pub batch_rows: usize,
    /// Compression of Parquet pages.
    #[arg(long = "parquet-compression", value_enum, default_value_t = ParquetCodec::Snappy)]
    pub parquet_compression: ParquetCodec,
    /// Show a progress line on stderr (by default only on a terminal, after a second).
    #[arg(long)]
    pub progress: bool,
}

/// The arguments of `zarrdt import`.
#[derive(Args)]
pub struct ImportArgs {
    /// The table file: .parquet (or .pq), or .arrow (or .feather, .arrows).
    pub input: PathBuf,
    /// The array to create: a directory that does not exist yet, or s3://bucket/prefix.
    pub out: String,
    /// Chunk shape, one extent per dimension (default: about 1 MiB of records; with
    /// `--shards`, a chunk shape that divides the shard shape).
    #[arg(long, value_name = "EXTENTS", value_parser = parse_extents)]
    pub chunks: Option<Extents>,
    /// Shard shape (a multiple of the chunk shape): chunks stored together, one object per
    /// shard.
    #[arg(long, value_name = "EXTENTS", value_parser = parse_extents)]
    pub shards: Option<Extents>,
    /// Chunk compression: none, zstd, gzip, blosc, zlib, bz2, lz4 or lzma, each but none and
    /// lz4 optionally with `:LEVEL` (zstd:3; zstd levels -131072 to 22, 0 its default, negative
    /// ones faster).
    #[arg(long, value_name = "CODEC", default_value = "zstd:3", value_parser = parse_compression)]
    pub compression: Compression,
    /// Rows per record batch read from the table (from Parquet, fewer where they would hold
    /// more than about 16 MiB of records).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BATCH_ROWS,
          value_parser = clap::value_parser!(u64).range(1..).map(|n| n as usize))]
    pub batch_rows: usize,
    /// Show a progress line on stderr (by default only on a terminal, after a second).
    #[arg(long)]
    pub progress: bool,
}

/// `zarrdt export PATH OUT`: the selected records of the array as a Parquet or Arrow file.
pub(crate) fn export(
    options: &ExportArgs,
    limits: &OpenOptions,
    report: &mut impl std::io::Write,
) -> Result<(), Failure> {
    let (path, out) = (options.path.as_str(), options.out.as_path());
    let format =
        format_of(out).map_err(|problem| Failure::at(&out.display().to_string(), problem))?;
    let opened = open(path, limits)?;
    let mut read = ReadOptions::default().batch_rows(options.batch_rows);
    if let Some(selection) = &options.select {
        let shape = opened.array.shape().to_vec();
        read = read.select(selection.resolve(&shape).map_err(|e| opened.fail(e))?);
    }
    if !options.fields.is_empty() {
        read = read.element(prune(&opened.native, &options.fields).map_err(|e| opened.fail(e))?);
    }
    let reader = BatchReader::new(&opened.array, &read).map_err(|e| opened.fail(one_line(&e)))?;
    let schema = reader.schema();
    let total = reader.rows();
    let shown = out.display().to_string();
    let fail_out = |e: &dyn std::fmt::Display| Failure::at(&shown, one_line(e));
    // Written beside OUT and renamed to it once whole: a file already at OUT is replaced only
    // by a finished table, never lost to a failed one.
    let partial = partial_path(out);
    let file = File::create(&partial).map_err(|e| fail_out(&e))?;
    let mut progress = Progress::new(options.progress, "exported", Some(total));
    let result = (|| -> Result<u64, Failure> {
        let mut sink = Sink::new(
            format,
            BufWriter::with_capacity(1 << 20, file),
            &schema,
            options.parquet_compression,
        )
        .map_err(|e| fail_out(&e))?;
        let mut rows = 0u64;
        for batch in reader {
            let batch = batch.map_err(|e| opened.fail(one_line(&e)))?;
            sink.write(&batch).map_err(|e| fail_out(&e))?;
            rows += batch.num_rows() as u64;
            progress.update(rows);
        }
        sink.close().map_err(|e| fail_out(&e))?;
        std::fs::rename(&partial, out).map_err(|e| fail_out(&e))?;
        Ok(rows)
    })();
    progress.finish();
    match result {
        Ok(rows) => {
            writeln!(
                report,
                "exported {rows} records of {path} to {shown} ({})",
                match format {
                    Format::Parquet => "Parquet",
                    Format::Ipc => "Arrow IPC",
                    Format::IpcStream => "Arrow IPC stream",
                }
            )?;
            Ok(())
        }
        Err(failure) => {
            // No half-written table is left behind.
            let _ = std::fs::remove_file(&partial);
            Err(failure)
        }
    }
}

/// Where `export` writes the table until it is whole: beside `out`, hidden, named for the
/// process (`.NAME.PID.partial`).
fn partial_path(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    out.with_file_name(format!(".{name}.{}.partial", std::process::id()))
}

/// `zarrdt import IN OUT`: the table as a new record array at `out`.
pub(crate) fn import(
    options: &ImportArgs,
    limits: &OpenOptions,
    report: &mut impl std::io::Write,
) -> Result<(), Failure> {
    let (input, out) = (options.input.as_path(), options.out.as_str());
    let shown = input.display().to_string();
    let fail_in = |e: &dyn std::fmt::Display| Failure::at(&shown, one_line(e));
    let fail_out = |e: &dyn std::fmt::Display| Failure::at(out, one_line(e));
    let mut source = read_table(input, options.batch_rows).map_err(|e| fail_in(&e))?;
    let mut rows = source.rows;
    // The Zarr type: from the schema; text, bytes and list widths measured in a first pass
    // where the schema does not say, and where its metadata gives text or bytes a width (the
    // values of a table edited since its export may have grown past it: such columns are
    // typed from their values).
    let zarr = match TableType::from_schema_within(&source.schema, None, limits) {
        Ok(zarr) if !has_text_or_bytes(&zarr) => zarr,
        Ok(_) | Err(zarrdt::arrow::Error::SizesNeeded { .. }) => {
            let pass = read_table(input, options.batch_rows).map_err(|e| fail_in(&e))?;
            let mut sizes = Sizes::default();
            let mut counted = 0u64;
            let mut progress = Progress::new(options.progress, "measured", rows);
            for batch in pass.batches {
                let batch = batch.map_err(|e| fail_in(&e))?;
                sizes.measure(&batch).map_err(|e| fail_in(&e))?;
                counted += batch.num_rows() as u64;
                progress.update(counted);
            }
            progress.finish();
            rows = Some(counted);
            TableType::from_schema_within(&source.schema, Some(&sizes), limits)
                .map_err(|e| fail_in(&e))?
        }
        Err(error) => return Err(fail_in(&error)),
    };
    // Arrow IPC files do not say how many rows they hold: count them when the table's shape
    // has other than one dimension, else let the array grow.
    if rows.is_none() && zarr.shape().is_some_and(|shape| shape.len() != 1) {
        let pass = read_table(input, options.batch_rows).map_err(|e| fail_in(&e))?;
        let mut counted = 0u64;
        for batch in pass.batches {
            counted += batch.map_err(|e| fail_in(&e))?.num_rows() as u64;
        }
        rows = Some(counted);
    }
    let shape = match (zarr.shape(), rows) {
        // Within 64 bits however multiplied (the table type checks it).
        (Some(shape), Some(rows)) if shape.iter().product::<u64>() == rows => shape.to_vec(),
        (_, Some(rows)) => vec![rows],
        (_, None) => vec![0],
    };
    let itemsize = zarr.native_layout().map_err(|e| fail_in(&e))?.size() as u64;
    // An Arrow row is at most its record's bytes (text of 4 bytes a character at most, as
    // Zarr's; bytes and lists of the record's widths), so these batches hold at most about
    // `BATCH_BYTES` (an Arrow IPC batch is read as written, whatever is asked).
    let batch_rows = bounded_batch_rows(options.batch_rows, itemsize);
    if batch_rows < options.batch_rows {
        source = read_table(input, batch_rows).map_err(|e| fail_in(&e))?;
    }
    for (option, extents) in [("--chunks", &options.chunks), ("--shards", &options.shards)] {
        if let Some(Extents(extents)) = extents
            && extents.len() != shape.len()
        {
            // An Arrow IPC table's rows are counted as it is read: its shape is not known yet.
            let dimensions = match (shape.len(), rows) {
                (1, None) => "1 dimension, the table's rows".to_owned(),
                (1, Some(_)) => format!("1 dimension ({shape:?})"),
                (count, _) => format!("{count} dimensions ({shape:?})"),
            };
            return Err(fail_out(&format!(
                "{option} has {} extents; the array has {dimensions}",
                extents.len(),
            )));
        }
    }
    let shards = options
        .shards
        .as_ref()
        .map(|Extents(shards)| shards.as_slice());
    let chunks = match &options.chunks {
        Some(chunks) => chunks.0.clone(),
        None => default_chunks(&shape, shards, itemsize),
    };
    // Made within the limits it was asked to be read with: shards of an index over the
    // default are made if `--max-shard-index-size` allows them.
    let mut array_options = ArrayOptions::new(shape.clone(), chunks.clone())
        .compression(options.compression.clone())
        .within(limits.clone());
    if let Some(shards) = &options.shards {
        array_options = array_options.shards(shards.0.clone());
    }
    let local = !out.contains("://");
    if local {
        if Path::new(out).exists() {
            return Err(fail_out(&"already exists; import creates a new array"));
        }
        std::fs::create_dir_all(out).map_err(|e| fail_out(&e))?;
    }
    let (store, node) = match open_store(out) {
        Ok(opened) => opened,
        Err(error) => {
            abandon(out, local, None);
            return Err(fail_out(&error));
        }
    };
    if !local {
        // As a directory must not exist: a prefix that holds anything (other arrays, whose
        // parent the new one would be) is no place for a new array.
        let prefix = match node.trim_matches('/') {
            "" => String::new(),
            inner => format!("{inner}/"),
        };
        let listed = StorePrefix::new(prefix)
            .ok()
            .map(|prefix| store.list_dir(&prefix))
            .transpose()
            .map_err(|e| fail_out(&e))?;
        if let Some(listed) = listed {
            let first = listed.keys().first().map(ToString::to_string);
            if let Some(first) =
                first.or_else(|| listed.prefixes().first().map(ToString::to_string))
            {
                return Err(fail_out(&format!(
                    "already exists (it holds {first}); import creates a new array"
                )));
            }
        }
    }
    let mut writer = match TableWriter::create(store.clone(), &node, &zarr, &array_options) {
        Ok(writer) => writer,
        Err(error) => {
            // Never an array that was there before.
            let existed = matches!(
                error,
                zarrdt::arrow::Error::Array(zarrdt::array::Error::NodeExists { .. })
            );
            abandon(out, local, (!existed).then_some((&*store, node.as_str())));
            if existed {
                // The same words as for a directory that exists (above), not the library's
                // advice to call `open_array`.
                return Err(fail_out(&"already exists; import creates a new array"));
            }
            // The chunk grid the options make (shards that do not fit the chunks, chunks too
            // large) is the options' fault, not that of a `zarr.json` never written.
            if let zarrdt::arrow::Error::Array(zarrdt::array::Error::Metadata {
                member: Some(member),
                reason,
                ..
            }) = &error
                && member == "chunk_grid"
            {
                // Options not given are not blamed: the default chunks are named instead.
                let given = match (&options.chunks, &options.shards) {
                    (Some(_), Some(_)) => "--chunks, --shards".to_owned(),
                    (Some(_), None) => "--chunks".to_owned(),
                    (None, Some(_)) => format!("--shards (with the default chunks {chunks:?})"),
                    (None, None) => format!("the default chunks {chunks:?}"),
                };
                return Err(fail_out(&format!("{given}: {reason}")));
            }
            return Err(fail_out(&error));
        }
    };
    let mut progress = Progress::new(options.progress, "imported", rows);
    let mut written = 0u64;
    let result = (|| -> Result<Vec<u64>, Failure> {
        for batch in source.batches {
            let batch = batch.map_err(|e| fail_in(&e))?;
            // The array's store or codecs failing is the output's fault; a value that does
            // not fit, the table's.
            writer.write(&batch).map_err(|e| match e {
                zarrdt::arrow::Error::Region { .. } | zarrdt::arrow::Error::Array(_) => {
                    fail_out(&e)
                }
                _ => fail_in(&e),
            })?;
            written += batch.num_rows() as u64;
            progress.update(written);
        }
        let array = writer.finish().map_err(|e| fail_out(&e))?;
        Ok(array.shape().to_vec())
    })();
    progress.finish();
    match result {
        Ok(shape) => {
            writeln!(
                report,
                "imported {written} records of {shown} into {out} (shape {shape:?})"
            )?;
            Ok(())
        }
        Err(failure) => {
            abandon(out, local, Some((&*store, node.as_str())));
            Err(failure)
        }
    }
}

/// Whether records of `zarr` hold text or bytes of a fixed width.
fn has_text_or_bytes(zarr: &TableType) -> bool {
    zarr.native_layout().is_ok_and(|layout| {
        layout.leaves().iter().any(|leaf| {
            matches!(
                leaf.scalar(),
                ScalarType::FixedLengthUtf32 { .. } | ScalarType::NullTerminatedBytes { .. }
            )
        })
    })
}

/// Takes away what a failed import made, so that no half-imported array is left: the
/// directory made for it at `out` (`local`), or else the metadata it may have written at
/// `node` of an object store (its chunks stay: other objects may share the prefix, which only a
/// listing of it could tell apart). As far as it can: a store that fails here has failed the
/// import already, which is the error reported.
fn abandon(out: &str, local: bool, written: Option<(&dyn WritableStorageTraits, &str)>) {
    if local {
        let _ = std::fs::remove_dir_all(out);
        return;
    }
    let Some((store, node)) = written else {
        return;
    };
    if let Ok(node) = NodePath::new(node) {
        for key in [meta_key_v3(&node), meta_key_v2_array(&node)] {
            let _ = store.erase(&key);
        }
    }
}

/// The rows of a batch of records of `itemsize` bytes: `asked`, or fewer, so that a batch
/// holds at most about [`BATCH_BYTES`] (one row at least).
fn bounded_batch_rows(asked: usize, itemsize: u64) -> usize {
    let fit = (BATCH_BYTES / itemsize.max(1)).max(1);
    asked.min(usize::try_from(fit).unwrap_or(usize::MAX))
}

/// Chunks of about 1 MiB of records: whole rows of the trailing dimensions, as many as fit
/// along the first (at most the array's first extent).
///
/// With `shards` (as many extents as `shape`, checked by the caller) the chunks tile a shard:
/// whole rows of the shard's trailing extents, and along the first the divisor of the shard's
/// first extent nearest to that row count, within about 1 MiB, so that every shard holds
/// whole chunks.
fn default_chunks(shape: &[u64], shards: Option<&[u64]>, itemsize: u64) -> Vec<u64> {
    let rows_of = shards.unwrap_or(shape);
    let mut chunks: Vec<u64> = rows_of.iter().map(|&extent| extent.max(1)).collect();
    let Some(&first_extent) = shape.first() else {
        return chunks;
    };
    // A shard's extents are the user's and may multiply past 64 bits; a shape's cannot (a
    // table's metadata is checked so), but the itemsize may take it there.
    let row_elements = rows_of.iter().skip(1).fold(1u64, |product, &extent| {
        product.saturating_mul(extent.max(1))
    });
    let rows = (CHUNK_BYTES / row_elements.saturating_mul(itemsize.max(1))).max(1);
    let wanted = match first_extent {
        0 => rows,
        extent => rows.min(extent),
    };
    chunks[0] = match shards {
        None => wanted,
        Some(shards) => nearest_divisor(shards[0], wanted, rows),
    };
    chunks
}

/// The divisor of `extent` nearest to `wanted` (the smaller of two as near), not above
/// `most`; `wanted` is at most `most`. At most `2 * most` steps.
fn nearest_divisor(extent: u64, wanted: u64, most: u64) -> u64 {
    let divides = |candidate: &u64| extent.is_multiple_of(*candidate);
    // 1 divides every extent.
    let below = (1..=wanted.min(extent)).rev().find(divides).unwrap_or(1);
    let above = (wanted..=most.min(extent)).find(divides);
    match above {
        Some(above) if above - wanted < wanted - below => above,
        _ => below,
    }
}

/// A shape given on the command line (`--chunks`, `--shards`): extents separated by commas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extents(pub Vec<u64>);

/// Parses `--chunks` and `--shards`: extents separated by commas.
pub(crate) fn parse_extents(text: &str) -> Result<Extents, String> {
    text.split(',')
        .map(|part| match part.trim().parse::<u64>() {
            Ok(0) => Err(format!("{part:?} is not a positive extent (in {text:?})")),
            Ok(extent) => Ok(extent),
            Err(error) if *error.kind() == std::num::IntErrorKind::PosOverflow => Err(format!(
                "{part:?} is more than the largest extent, {} (in {text:?})",
                u64::MAX
            )),
            Err(_) => Err(format!("{part:?} is not a positive extent (in {text:?})")),
        })
        .collect::<Result<Vec<u64>, String>>()
        .map(Extents)
}

/// Parses `--compression`: `none`, `lz4`, or `zstd`, `gzip`, `blosc`, `zlib`, `bz2`, `lzma`
/// each with an optional `:LEVEL`.
pub(crate) fn parse_compression(text: &str) -> Result<Compression, String> {
    let (name, given) = match text.split_once(':') {
        Some((name, level)) => (name, Some(level)),
        None => (text, None),
    };
    Ok(match name {
        "none" if given.is_none() => Compression::None,
        "lz4" if given.is_none() => Compression::Lz4,
        "zstd" => Compression::Zstd {
            level: level::<i32>(name, given, 3, Compression::zstd_levels())?,
        },
        "gzip" => Compression::Gzip {
            level: level::<u32>(name, given, 5, 0..=9)?,
        },
        "blosc" => Compression::BloscLz4 {
            level: level::<u8>(name, given, 5, 0..=9)?,
        },
        "zlib" => Compression::Zlib {
            level: level::<u32>(name, given, 5, 0..=9)?,
        },
        "bz2" => Compression::Bz2 {
            level: level::<u32>(name, given, 9, 1..=9)?,
        },
        "lzma" => Compression::Lzma {
            preset: level::<u32>(name, given, 6, 0..=9)?,
        },
        _ => {
            return Err(format!(
                "{text:?}: write none, lz4, or zstd, gzip, blosc, zlib, bz2 or lzma with an optional :LEVEL"
            ));
        }
    })
}

/// The level `given` of the compression `name` (its `default` if none is given), in `range`
/// and of the compression's own type: `-5` is no gzip level, as it is no `u32`.
fn level<T: std::str::FromStr + PartialOrd + std::fmt::Debug>(
    name: &str,
    given: Option<&str>,
    default: T,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, String> {
    match given {
        None => Ok(default),
        Some(level) => level
            .parse::<T>()
            .ok()
            .filter(|l| range.contains(l))
            .ok_or_else(|| format!("level {level:?} of {name} is not in {range:?}")),
    }
}

/// The default rows per batch.
pub(crate) const DEFAULT_BATCH_ROWS: usize = zarrdt::arrow::DEFAULT_BATCH_ROWS;

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn parses_extents_and_compression() {
        assert_eq!(parse_extents("10,2").unwrap(), Extents(vec![10, 2]));
        assert!(parse_extents("10,0").is_err());
        assert!(parse_extents("x").is_err());
        let overflow = parse_extents("99999999999999999999").unwrap_err();
        assert!(
            overflow.contains("more than the largest extent"),
            "{overflow}"
        );
        assert_eq!(parse_compression("none").unwrap(), Compression::None);
        assert_eq!(
            parse_compression("zstd:7").unwrap(),
            Compression::Zstd { level: 7 }
        );
        assert_eq!(
            parse_compression("blosc").unwrap(),
            Compression::BloscLz4 { level: 5 }
        );
        assert!(parse_compression("gzip:12").is_err());
        assert!(parse_compression("gzip:-1").is_err());
        for (text, level) in [("zstd:0", 0), ("zstd:-5", -5), ("zstd:-131072", -131_072)] {
            assert_eq!(
                parse_compression(text).unwrap(),
                Compression::Zstd { level },
                "{text}"
            );
        }
        for text in ["zstd:23", "zstd:-131073", "zstd:x"] {
            let error = parse_compression(text).unwrap_err();
            assert!(error.contains("is not in -131072..=22"), "{text}: {error}");
        }
        assert_eq!(parse_compression("lz4").unwrap(), Compression::Lz4);
        assert!(parse_compression("lz4:3").is_err());
        assert_eq!(
            parse_compression("lzma").unwrap(),
            Compression::Lzma { preset: 6 }
        );
        assert_eq!(
            parse_compression("bz2:1").unwrap(),
            Compression::Bz2 { level: 1 }
        );
        assert!(parse_compression("bz2:0").is_err());
        assert!(parse_compression("brotli").is_err());
    }

    #[test]
    fn default_chunks_hold_about_a_mebibyte() {
        assert_eq!(default_chunks(&[10_000_000], None, 21), [49_932]);
        assert_eq!(default_chunks(&[100], None, 21), [100]);
        assert_eq!(default_chunks(&[0], None, 1 << 30), [1]);
        assert_eq!(default_chunks(&[50, 1000], None, 8), [50, 1000]);
        assert_eq!(default_chunks(&[500, 1000], None, 8), [131, 1000]);
        assert_eq!(default_chunks(&[], None, 8), Vec::<u64>::new());
    }

    #[test]
    fn batches_hold_at_most_sixteen_mebibytes_of_records() {
        assert_eq!(bounded_batch_rows(65_536, 21), 65_536);
        // 480 kB records (60 000 `f64`s): 34 a batch, not 65 536 (31 GB).
        assert_eq!(bounded_batch_rows(65_536, 480_000), 34);
        assert_eq!(bounded_batch_rows(10, 480_000), 10);
        assert_eq!(bounded_batch_rows(65_536, 1 << 40), 1);
        assert_eq!(bounded_batch_rows(65_536, 0), 65_536);
    }

    #[test]
    fn default_chunks_tile_the_shards() {
        // The divisor of the shard nearest to about 1 MiB or the array's extent, if less.
        assert_eq!(default_chunks(&[154], Some(&[1 << 20]), 21), [128]);
        assert_eq!(default_chunks(&[200], Some(&[1 << 20]), 21), [256]);
        assert_eq!(
            default_chunks(&[10_000_000], Some(&[1_000_000]), 21),
            [40_000]
        );
        assert_eq!(default_chunks(&[0], Some(&[1 << 20]), 21), [32_768]);
        // Never past about 1 MiB, however near (49 937 is prime).
        assert_eq!(default_chunks(&[49_937], Some(&[49_937]), 21), [1]);
        // A prime shard extent: chunks of one row, or the whole shard.
        assert_eq!(default_chunks(&[400], Some(&[997]), 21), [1]);
        assert_eq!(default_chunks(&[600], Some(&[997]), 21), [997]);
        assert_eq!(default_chunks(&[5], Some(&[7]), 21), [7]);
        // Whole rows of the shard's trailing extents, not of the array's.
        assert_eq!(
            default_chunks(&[500, 1000], Some(&[300, 100]), 8),
            [300, 100]
        );
        assert_eq!(
            default_chunks(&[5000, 1000], Some(&[3000, 100]), 8),
            [1000, 100]
        );
        // Trailing extents past 64 bits together: one row.
        assert_eq!(
            default_chunks(&[10, 1], Some(&[10, u64::MAX]), 8),
            [1, u64::MAX]
        );
        for (shape, shards, itemsize) in [
            (vec![154u64], vec![1u64 << 20], 21u64),
            (vec![7, 9, 11], vec![6, 4, 22], 3),
            (vec![1 << 40], vec![(1 << 40) - 1], 1),
        ] {
            let chunks = default_chunks(&shape, Some(&shards), itemsize);
            for (shard, chunk) in shards.iter().zip(&chunks) {
                assert!(shard.is_multiple_of(*chunk), "{chunks:?} tile {shards:?}");
            }
        }
    }
}
