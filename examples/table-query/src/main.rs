//! A Zarr record array queried with SQL: zarrdt streams the records as Arrow batches
//! (`zarrdt::arrow::BatchReader`), DataFusion runs the query on them as they come.
//!
//! ```sh
//! cd examples/table-query
//! cargo run --release                     # writes 1 000 000 particles to a temporary array
//! cargo run --release -- PATH/TO/ARRAY    # any record array: its table is `records`
//! cargo run --release -- PATH "SELECT …"  # and any query
//! ```

#![forbid(unsafe_code)]

use std::error::Error;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use datafusion::arrow::datatypes::SchemaRef;
use datafusion::catalog::streaming::StreamingTable;
use datafusion::error::DataFusionError;
use datafusion::execution::{SendableRecordBatchStream, TaskContext};
use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
use datafusion::physical_plan::streaming::PartitionStream;
use datafusion::prelude::SessionContext;
use zarrdt::{ArrayOptions, WriteRecords, ZarrStruct, open_array};
use zarrdt::arrow::{BatchReader, ReadOptions};
use zarrdt::zarrs::filesystem::FilesystemStore;

/// The quickstart's record.
#[derive(ZarrStruct, Clone, Copy, Debug, Default, PartialEq)]
struct Particle {
    id: u64,
    pos: [f32; 3],
    mass: f64,
    alive: bool,
}

/// The records of the array at a path, read afresh each time DataFusion runs the table: one
/// stream of batches, a block of chunks in memory at a time.
#[derive(Debug)]
struct ZarrRecords {
    path: PathBuf,
    schema: SchemaRef,
}

impl ZarrRecords {
    fn open(path: &Path) -> Result<Self, Box<dyn Error>> {
        let array = open_array(Arc::new(FilesystemStore::new(path)?), "/")?;
        let schema = BatchReader::new(&array, &ReadOptions::default())?.schema();
        Ok(ZarrRecords {
            path: path.to_owned(),
            schema,
        })
    }

    fn reader(&self) -> Result<BatchReader<FilesystemStore>, Box<dyn Error + Send + Sync>> {
        let array = open_array(Arc::new(FilesystemStore::new(&self.path)?), "/")?;
        Ok(BatchReader::new(&array, &ReadOptions::default())?)
    }
}

impl PartitionStream for ZarrRecords {
    fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    fn execute(&self, _context: Arc<TaskContext>) -> SendableRecordBatchStream {
        // zarrdt's reader is blocking (zarrs reads chunks on its own threads); each batch is
        // handed to DataFusion as it is made.
        let batches: Box<dyn Iterator<Item = _> + Send> = match self.reader() {
            Ok(reader) => {
                Box::new(reader.map(|batch| batch.map_err(|e| DataFusionError::External(e.into()))))
            }
            Err(error) => Box::new(std::iter::once(Err(DataFusionError::External(error)))),
        };
        Box::pin(RecordBatchStreamAdapter::new(
            self.schema.clone(),
            futures::stream::iter(batches),
        ))
    }
}

/// Writes `n` particles into a new array at `path`.
fn write_particles(path: &Path, n: u64) -> Result<(), Box<dyn Error>> {
    let array = ArrayOptions::new(vec![n], vec![100_000]).create(
        Arc::new(FilesystemStore::new(path)?),
        "/",
        &Particle::default(),
    )?;
    let particles: Vec<Particle> = (0..n)
        .map(|i| Particle {
            id: i,
            pos: [(i % 1000) as f32, (i % 7) as f32, -1.0],
            mass: (i % 10_000) as f64 * 0.1,
            alive: i % 3 != 0,
        })
        .collect();
    array.store_records(&[0..n], &particles)?;
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let temporary = std::env::temp_dir().join(format!("zarrdt-table-query-{}", std::process::id()));
    let path = match args.first() {
        Some(path) => PathBuf::from(path),
        None => {
            write_particles(&temporary, 1_000_000)?;
            println!("wrote 1000000 particles to {}", temporary.display());
            temporary.clone()
        }
    };
    let query = args.get(1).cloned().unwrap_or_else(|| {
        // `pos` is a struct of fields "0", "1", "2" (how Zarr v3 stores a Rust array).
        "SELECT alive, count(*) AS particles, avg(mass) AS mean_mass, max(pos['0']) AS max_x \
         FROM records WHERE mass > 500 GROUP BY alive ORDER BY alive"
            .to_owned()
    });

    let records = Arc::new(ZarrRecords::open(&path)?);
    let context = SessionContext::new();
    context.register_table(
        "records",
        Arc::new(StreamingTable::try_new(records.schema.clone(), vec![records])?),
    )?;
    println!("{query}");
    context.sql(&query).await?.show().await?;

    if args.is_empty() {
        std::fs::remove_dir_all(&temporary)?;
    }
    Ok(())
}
