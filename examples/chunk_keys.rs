//! What a directory store keeps per chunk: zarrs' `FilesystemStore` (0.3.14) holds a lock for
//! every key it has read or written, for as long as the store lives, so a long-lived store's
//! memory grows with the number of distinct chunks it has touched, even where each read is one
//! chunk (BENCHMARKS.md, "Library read memory").
//!
//! ```text
//! cargo build --release --example chunk_keys
//! target/release/examples/chunk_keys write /tmp/keys.zarr 200000   # 200 000 chunks of one u32
//! target/release/examples/chunk_keys read /tmp/keys.zarr 200000    # three passes, 1000 records a read
//! ```
//!
//! `read` prints the process's resident memory (`VmRSS`, `VmHWM` of `/proc/self/status`, Linux)
//! before the first pass and after each: the first pass adds the store's per-key locks, the
//! others nothing (the same keys).

use std::error::Error;
use std::sync::Arc;

use zarrdt::array::{ArrayOptions, open_array};
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::{ReadRecords, WriteRecords};

/// Records read at a time: a thousand chunks.
const STEP: u64 = 1000;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, mode, path, chunks] = args.as_slice() else {
        return Err("usage: chunk_keys write|read PATH CHUNKS".into());
    };
    let chunks: u64 = chunks.parse()?;
    let store = Arc::new(FilesystemStore::new(path)?);
    match mode.as_str() {
        "write" => {
            let array = ArrayOptions::new(vec![chunks], vec![1]).create(store, "/", &0u32)?;
            let records: Vec<u32> = (0..u32::try_from(chunks)?).collect();
            array.store_records(&[0..chunks], &records)?;
        }
        "read" => {
            let array = open_array(store, "/")?;
            println!("before: {}", resident_memory()?);
            for pass in 1..=3 {
                for start in (0..chunks).step_by(STEP as usize) {
                    let end = (start + STEP).min(chunks);
                    let records = array.retrieve_records::<u32>(&[start..end])?;
                    if records
                        .iter()
                        .zip(start..)
                        .any(|(&got, want)| u64::from(got) != want)
                    {
                        return Err(
                            format!("records {start}..{end} are not the written ones").into()
                        );
                    }
                }
                println!("after pass {pass}: {}", resident_memory()?);
            }
        }
        other => return Err(format!("unknown mode {other:?}: write or read").into()),
    }
    Ok(())
}

/// The `VmRSS` and `VmHWM` lines of `/proc/self/status`.
fn resident_memory() -> Result<String, Box<dyn Error>> {
    let status = std::fs::read_to_string("/proc/self/status")?;
    let lines: Vec<String> = status
        .lines()
        .filter(|line| line.starts_with("VmRSS") || line.starts_with("VmHWM"))
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    Ok(lines.join(", "))
}
