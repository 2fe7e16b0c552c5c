//! `zarrdt`: look inside Zarr arrays of records without writing code, and get the Rust struct
//! that reads them.
//!
//! * `zarrdt inspect PATH`: format, shape, chunks and shards, codecs and byte order, sizes and
//!   chunk counts, the record as a table of leaves and a byte map (`--json` for JSON);
//! * `zarrdt dump PATH`: every element, as JSON (a stable contract), CSV or a table, streamed
//!   one chunk at a time (`--select`, `--limit`, `--fields`);
//! * `zarrdt rust PATH`: the `#[derive(ZarrStruct)]` definitions of the array's records;
//! * `zarrdt export PATH OUT.parquet|OUT.arrow` and `zarrdt import IN.parquet|IN.arrow OUT`:
//!   records as tables, streamed, with the Zarr type and fill value kept in the table's schema.
//!
//! Errors are one line on stderr naming the path and the problem, with exit code 1 (2 for
//! usage errors).
//!
//! This library is the tool itself: `src/main.rs` parses the command line ([`Cli`]) and calls
//! [`run`]; the fuzz targets (`fuzz/`) call [`run`] in-process.

#![forbid(unsafe_code)]

mod bytemap;
mod cells;
mod damaged;
mod dump;
mod enums;
mod fields;
mod inspect;
mod ipc_buffers;
mod open;
mod parquet_writer;
mod progress;
mod rust;
mod select;
mod table;
mod table_files;
mod units;
mod walk;

use std::fmt;
use std::io::{self, Write};

use clap::{Parser, Subcommand, ValueEnum};
use zarrdt::array::{DEFAULT_MAX_ELEMENT_SIZE, DEFAULT_MAX_SHARD_INDEX_SIZE, OpenOptions};

pub use crate::damaged::panics_are_caught;
pub use crate::open::one_line;
pub use crate::select::SelectionSpec;
pub use crate::table::{ExportArgs, Extents, ImportArgs};
pub use crate::table_files::ParquetCodec;

/// Inspect, dump and generate the Rust struct of Zarr arrays of records (v2 and v3, any codec
/// zarrs reads).
#[derive(Parser)]
#[command(name = "zarrdt", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// Refuse arrays (and tables to import) whose element (record) is larger than this many
    /// bytes, before anything of that size is allocated (opening an array allocates one
    /// element for its fill value).
    #[arg(long, global = true, value_name = "BYTES", default_value_t = DEFAULT_MAX_ELEMENT_SIZE)]
    pub max_element_size: usize,
    /// Refuse arrays whose shards have an index of more than this many bytes (16 per inner
    /// chunk), and make none (import): a write into a shard holds and stores its whole index, a
    /// read of a stored shard reads it.
    #[arg(long, global = true, value_name = "BYTES", default_value_t = DEFAULT_MAX_SHARD_INDEX_SIZE)]
    pub max_shard_index_size: u64,
}

impl Cli {
    /// The tool with `command` and the default limits.
    pub fn new(command: Command) -> Self {
        Cli {
            command,
            max_element_size: DEFAULT_MAX_ELEMENT_SIZE,
            max_shard_index_size: DEFAULT_MAX_SHARD_INDEX_SIZE,
        }
    }
}

/// The subcommands.
#[derive(Subcommand)]
pub enum Command {
    /// Format, shape, chunks and shards, codecs and byte order, sizes, chunk counts, and the
    /// record: its leaves and a byte map.
    Inspect {
        /// The array: its directory (holding zarr.json or .zarray), or s3://bucket/prefix
        /// (with the `s3` feature).
        path: String,
        /// Print the same as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print the elements, one chunk at a time.
    Dump {
        /// The array: its directory (holding zarr.json or .zarray), or s3://bucket/prefix
        /// (with the `s3` feature).
        path: String,
        /// Index ranges per dimension, `start:stop` (Python slices with a step of 1 or none:
        /// `2:5,0:3`, `:10`, `-5:`, `7`); dimensions left out are whole. A range beyond the
        /// shape is an error, not clipped.
        #[arg(long, value_name = "RANGES", value_parser = select::parse_selection, allow_hyphen_values = true)]
        select: Option<SelectionSpec>,
        /// At most this many elements (the first ones in C order).
        #[arg(long, value_name = "N")]
        limit: Option<u64>,
        /// Only these fields (dotted paths such as `a,b.c`; a struct field means all of it; a name
        /// with a comma or dot quoted as `inspect` shows it, `["x,y"]`; any name may be quoted).
        #[arg(long, value_name = "PATHS", allow_hyphen_values = true)]
        fields: Vec<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Json)]
        format: Format,
    },
    /// Print Rust struct definitions (`#[derive(ZarrStruct)]`) whose data type is the array's.
    Rust {
        /// The array: its directory (holding zarr.json or .zarray), or s3://bucket/prefix
        /// (with the `s3` feature).
        path: String,
        /// The name of the top-level struct, in upper camel case (`Particle`, `Sample3`).
        #[arg(long, default_value = "Record", value_parser = rust::parse_type_name)]
        name: String,
    },
    /// Write the records as a table: Parquet (OUT.parquet) or the Arrow IPC file format
    /// (OUT.arrow), streamed, with the Zarr data type, fill value and shape in the schema's
    /// metadata (so `import` gives back the same records).
    Export(table::ExportArgs),
    /// Create a record array from a table: Parquet or Arrow IPC (a file or stream), streamed.
    /// A table `export` wrote gives back its Zarr type, fill value and shape; any other gets
    /// a type made from its Arrow types (strings as fixed_length_utf32 of the longest value,
    /// bytes as null_terminated_bytes, fixed-size lists as subarrays, timestamps as
    /// datetime64, nulls only in time columns, as NaT).
    Import(table::ImportArgs),
}

/// Output formats of `dump`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One JSON object: metadata and the values, nested like the array (the stable contract).
    Json,
    /// One row per element, one column per leaf path (for spreadsheets and pandas).
    Csv,
    /// An aligned table for people, with each element's index.
    Table,
}

/// What went wrong: one line, naming the path.
#[derive(Debug)]
pub struct Failure {
    message: String,
    /// Writing stdout failed because the reader went away (`| head`): not an error.
    closed_output: bool,
}

/// Said after a failed request to the EC2 instance metadata service (object_store's last
/// source of credentials, asked where the environment and the AWS CLI's files have none), which
/// off EC2 reads as a refused or timed-out request to an unknown address.
const NO_CREDENTIALS: &str = "; no AWS credentials were found in the environment \
     (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) or a profile of the AWS CLI's files, so the EC2 \
     instance metadata service was asked: give credentials, or AWS_SKIP_SIGNATURE=true for a \
     public bucket";

impl Failure {
    /// `problem` about the file or array at `path`.
    pub(crate) fn at(path: &str, problem: impl fmt::Display) -> Self {
        let mut message = format!("{path}: {}", open::one_line(&problem));
        if path.starts_with("s3://") && message.contains("//169.254.169.254/") {
            message.push_str(NO_CREDENTIALS);
        }
        Failure {
            message,
            closed_output: false,
        }
    }

    /// Writing the output failed.
    pub(crate) fn output(error: &io::Error) -> Self {
        Failure {
            message: format!("writing the output: {error}"),
            closed_output: error.kind() == io::ErrorKind::BrokenPipe,
        }
    }

    /// The message, one line naming the path and the problem.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether this is only the reader of the output having gone away (`| head`), which is not
    /// an error.
    pub fn closed_output(&self) -> bool {
        self.closed_output
    }
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Self {
        Failure::output(&error)
    }
}

/// Runs the tool, writing its output to `out`.
pub fn run(cli: Cli, out: &mut impl Write) -> Result<(), Failure> {
    let limits = OpenOptions::new()
        .max_element_size(cli.max_element_size)
        .max_shard_index_size(cli.max_shard_index_size);
    match cli.command {
        Command::Inspect { path, json } => {
            let opened = open::open(&path, &limits)?;
            inspect::inspect(&opened, json, out)
        }
        Command::Dump {
            path,
            select,
            limit,
            fields,
            format,
        } => {
            let opened = open::open(&path, &limits)?;
            let options = dump::Options {
                selection: select,
                limit,
                fields,
                format,
            };
            dump::dump(&opened, &options, out)
        }
        Command::Rust { path, name } => {
            let opened = open::open(&path, &limits)?;
            let code = rust::generate(&opened, &name)?;
            out.write_all(code.as_bytes())?;
            Ok(())
        }
        Command::Export(args) => table::export(&args, &limits, out),
        Command::Import(args) => table::import(&args, &limits, out),
    }
}

#[cfg(test)]
mod tests {
    use super::Failure;

    /// A request to the instance metadata service that failed (as object_store words it) is
    /// explained on S3 locations alone.
    #[test]
    fn a_failed_instance_metadata_request_says_no_credentials_were_found() {
        let refused = "cannot read the metadata document a/zarr.json: Generic S3 error: Error \
             performing PUT http://169.254.169.254/latest/api/token in 1.5ms - Server returned \
             non-2xx status code: 403 Forbidden";
        let failure = Failure::at("s3://bucket/a", refused);
        assert!(failure.message().starts_with("s3://bucket/a: cannot read"));
        assert!(
            failure
                .message()
                .ends_with("or AWS_SKIP_SIGNATURE=true for a public bucket"),
            "{}",
            failure.message()
        );
        let failure = Failure::at("local/a", refused);
        assert!(!failure.message().contains("AWS_SKIP_SIGNATURE"));
        let failure = Failure::at("s3://bucket/a", "no Zarr array at \"/a\"");
        assert!(!failure.message().contains("AWS_SKIP_SIGNATURE"));
    }
}
