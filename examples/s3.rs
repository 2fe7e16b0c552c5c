//! A million records on S3: the same code as on a directory, with the store opened from an
//! `s3://bucket/prefix` URL (credentials, region and endpoint from the usual `AWS_*`
//! environment variables), shards uploaded concurrently, read back and checked.
//!
//! ```sh
//! export AWS_ACCESS_KEY_ID=... AWS_SECRET_ACCESS_KEY=... AWS_REGION=...
//! # for an S3-compatible server: AWS_ENDPOINT_URL=http://127.0.0.1:9000 AWS_ALLOW_HTTP=true
//! cargo run --release --features s3 --example s3 -- s3://my-bucket/readings.zarr
//! ```
//!
//! It prints how long the write and a read of every record take. `ZARRDT_S3_TIMEOUT`
//! (seconds, default 30) bounds each request; a server that stops answering
//! is an error naming the object, and running the example again writes the array anew (it
//! replaces the array at the URL: `ArrayOptions::overwrite`). A
//! directory path in place of the URL writes the same array to disk.

use std::error::Error;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use zarrdt::array::{ArrayOptions, Compression, StoreOptions, open_store_with};
use zarrdt::time::Milliseconds;
use zarrdt::{DateTime64, ZarrStruct};
use zarrdt::{ReadRecords, WriteRecords};

/// One sensor reading.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Reading {
    sensor: u32,
    time: DateTime64<Milliseconds>,
    value: f32,
    ok: bool,
}

/// Records written (`ZARRDT_S3_RECORDS` to change it).
const RECORDS: u64 = 1_000_000;
const CHUNK: u64 = 10_000;
const SHARD: u64 = 50_000;
/// Shards uploaded at the same time.
const WORKERS: usize = 4;

/// Reading number `i`: every field depends on it, so anyone can check a value.
fn reading(i: u64) -> Reading {
    Reading {
        sensor: (i % 1000) as u32,
        time: DateTime64::new(1_700_000_000_000 + i as i64),
        value: (i % 977) as f32 * 0.5,
        ok: !i.is_multiple_of(13),
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let location = std::env::args()
        .nth(1)
        .ok_or("usage: s3 s3://bucket/prefix (or a directory)")?;
    let timeout = std::env::var("ZARRDT_S3_TIMEOUT")
        .ok()
        .map(|text| text.parse::<u64>())
        .transpose()?
        .unwrap_or(30);
    let records: u64 = std::env::var("ZARRDT_S3_RECORDS")
        .ok()
        .map(|text| text.parse())
        .transpose()?
        .unwrap_or(RECORDS);
    let options = StoreOptions {
        request_timeout: Duration::from_secs(timeout),
        retry_timeout: Duration::from_secs(2 * timeout),
        ..StoreOptions::default()
    };

    // The same three lines for a directory and for S3.
    let (store, path) = open_store_with(&location, &options)?;
    let fill = Reading {
        sensor: u32::MAX,
        time: DateTime64::NAT,
        value: f32::NAN,
        ok: false,
    };
    // A run again replaces what an earlier one wrote there (an interrupted run's shards too).
    let array = ArrayOptions::new(vec![records], vec![CHUNK])
        .shards(vec![SHARD])
        .compression(Compression::Zstd { level: 3 })
        .overwrite(true)
        .create(store, &path, &fill)?;

    // Shards are uploaded by `WORKERS` threads at once (zarrs encodes each shard's chunks in
    // parallel too); the first error stops the run and names what failed.
    println!("writing {records} readings to {location} ({WORKERS} shards at a time)");
    let start = Instant::now();
    let shards = records.div_ceil(SHARD);
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| {
                loop {
                    let shard = next.fetch_add(1, Ordering::Relaxed);
                    if shard >= shards || failure.lock().map_or(true, |f| f.is_some()) {
                        return;
                    }
                    let range = shard * SHARD..((shard + 1) * SHARD).min(records);
                    let readings: Vec<Reading> = range.clone().map(reading).collect();
                    if let Err(error) = array.store_records(&[range.start..range.end], &readings) {
                        if let Ok(mut failure) = failure.lock() {
                            failure.get_or_insert(format!(
                                "shard {shard} (records {range:?}): {error}"
                            ));
                        }
                        return;
                    }
                    let written = done.fetch_add(1, Ordering::Relaxed) + 1;
                    print!("\r  uploaded {written:>3} / {shards} shards");
                    let _ = std::io::stdout().flush();
                }
            });
        }
    });
    println!();
    if let Some(failure) = failure.into_inner().ok().flatten() {
        return Err(format!("writing failed at {failure}").into());
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "  {records} readings in {seconds:.2} s ({:.0} records/s)",
        records as f64 / seconds
    );

    // Read back: a slice across a shard boundary, and one field of every record.
    let slice = SHARD - 5..SHARD + 5;
    let read: Vec<Reading> = array.retrieve_records(&[slice.start..slice.end])?;
    if read != slice.clone().map(reading).collect::<Vec<_>>() {
        return Err("the readings read back differ from those written".into());
    }
    let ok: Vec<bool> = array.retrieve_field(&[0..records], &["ok"])?;
    let failed = ok.iter().filter(|&&ok| !ok).count();
    if failed as u64 != records.div_ceil(13) {
        return Err(format!(
            "{failed} readings not ok, expected {}",
            records.div_ceil(13)
        )
        .into());
    }
    println!("read back {slice:?} and the `ok` field of all {records}: as written");
    // All of them, timed: one request a shard, each shard read whole.
    let start = Instant::now();
    let all: Vec<Reading> = array.retrieve_records(&[0..records])?;
    let seconds = start.elapsed().as_secs_f64();
    if all.len() as u64 != records || all.iter().zip(0..).any(|(read, i)| *read != reading(i)) {
        return Err("the readings read back whole differ from those written".into());
    }
    println!("read all {records} readings back in {seconds:.3} s");
    if let Some(url) = location.strip_prefix("s3://") {
        println!(
            "open it in Python: zarr.open_array('s3://{url}', storage_options={{'endpoint_url': os.environ.get('AWS_ENDPOINT_URL')}})"
        );
    }
    Ok(())
}
