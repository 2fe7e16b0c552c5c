//! The writer and checker of the crash test (`tests/crash/check.sh`, issue 12): a writer that
//! is killed with SIGKILL at random moments, and a check that the array it leaves opens and
//! that every chunk holds the whole records of one write.
//!
//! ```text
//! crash_writer init  DIR            # an array of 16 chunks of 16384 records, generation 0
//! crash_writer write DIR MODE GEN   # rewrite every chunk with generation GEN, GEN + 1, ... forever
//! crash_writer check DIR            # one line: chunks whole, torn, left-over temporary files
//! ```
//!
//! `MODE` is the store: `plain`, zarrs' `FilesystemStore` as is (it truncates a chunk's file,
//! then writes it), or `atomic`, the same under zarrs' `AtomicWriteStorageAdapter` (each chunk
//! written to `KEY.tmp`, then renamed over `KEY`). An interrupted atomic write leaves its
//! `.tmp` file, which the adapter refuses to overwrite: `write` removes such files first, as
//! any writer restarting after a crash must.
//!
//! `check` exits with 0 when every chunk is whole, 3 when one is torn and cannot be read (the
//! error names it), 5 when one reads without error but holds records of other writes or places
//! (a silent tear), 4 when the array does not open.

use std::process::ExitCode;
use std::sync::Arc;

use zarrdt::ZarrStruct;
use zarrdt::array::{ArrayOptions, Compression, open_array};
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::zarrs::storage::storage_adapter::atomic_write::AtomicWriteStorageAdapter;
use zarrdt::zarrs::storage::{ListableStorageTraits, WritableStorageTraits};
use zarrdt::{ReadRecords, WriteRecords};

/// A record that says which write put it where.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq, Default)]
struct Entry {
    chunk: u32,
    generation: u32,
    index: u32,
    value: f64,
}

const CHUNKS: u64 = 16;
const CHUNK: u64 = 16_384;

/// The records generation `generation` writes to `chunk` (values hashed, so that they do not
/// compress to nothing).
fn records(chunk: u64, generation: u32) -> Vec<Entry> {
    (0..CHUNK)
        .map(|index| {
            let mut h = (chunk << 40) ^ (u64::from(generation) << 20) ^ index;
            h = h.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            h ^= h >> 29;
            Entry {
                chunk: chunk as u32,
                generation,
                index: index as u32,
                value: (h >> 11) as f64,
            }
        })
        .collect()
}

type Failure = Box<dyn std::error::Error>;

fn init(dir: &str) -> Result<(), Failure> {
    let _ = std::fs::remove_dir_all(dir);
    let store = Arc::new(FilesystemStore::new(dir)?);
    let array = ArrayOptions::new(vec![CHUNKS * CHUNK], vec![CHUNK])
        .compression(Compression::Zstd { level: 1 })
        .create(store, "/", &Entry::default())?;
    let all: Vec<Entry> = (0..CHUNKS).flat_map(|chunk| records(chunk, 0)).collect();
    array.store_records(&[0..CHUNKS * CHUNK], &all)?;
    Ok(())
}

/// Rewrites the whole array, generation after generation, several chunks at a time, until
/// killed.
fn write(dir: &str, mode: &str, first: u32) -> Result<(), Failure> {
    let filesystem = Arc::new(FilesystemStore::new(dir)?);
    match mode {
        "plain" => write_forever(filesystem, first),
        "atomic" => {
            // The temporary files of writes a crash interrupted: the chunks themselves were
            // never touched.
            for key in filesystem.list()? {
                if key.as_str().ends_with(".tmp") {
                    filesystem.erase(&key)?;
                }
            }
            write_forever(Arc::new(AtomicWriteStorageAdapter::new(filesystem)), first)
        }
        other => Err(format!("unknown mode {other} (plain or atomic)").into()),
    }
}

fn write_forever<S>(store: Arc<S>, first: u32) -> Result<(), Failure>
where
    S: zarrdt::zarrs::storage::ReadableWritableStorageTraits + ?Sized + 'static,
{
    let array = open_array(store, "/")?;
    for generation in first.. {
        let all: Vec<Entry> = (0..CHUNKS)
            .flat_map(|chunk| records(chunk, generation))
            .collect();
        array.store_records(&[0..CHUNKS * CHUNK], &all)?;
    }
    Ok(())
}

/// Reads every chunk on its own: whole (one write's records, in place), or torn.
fn check(dir: &str) -> Result<ExitCode, Failure> {
    let filesystem = Arc::new(FilesystemStore::new(dir)?);
    let temporary = filesystem
        .list()?
        .iter()
        .filter(|key| key.as_str().ends_with(".tmp"))
        .count();
    let array = match open_array(filesystem, "/") {
        Ok(array) => array,
        Err(error) => {
            println!("the array does not open: {error}");
            return Ok(ExitCode::from(4));
        }
    };
    let (mut whole, mut torn, mut silent) = (0, Vec::new(), false);
    let mut generations = std::collections::BTreeSet::new();
    for chunk in 0..CHUNKS {
        let read: Result<Vec<Entry>, _> =
            array.retrieve_records(&[chunk * CHUNK..(chunk + 1) * CHUNK]);
        match read {
            Ok(read) if read == records(chunk, read[0].generation) => {
                whole += 1;
                generations.insert(read[0].generation);
            }
            Ok(read) => {
                silent = true;
                torn.push(format!(
                    "c/{chunk}: records of other writes ({:?})",
                    read[0]
                ));
            }
            // The error names the chunk.
            Err(error) => torn.push(error.to_string()),
        }
    }
    println!(
        "whole {whole} torn {} tmp {temporary} generations {:?}{}",
        torn.len(),
        generations,
        if torn.is_empty() {
            String::new()
        } else {
            format!(" first torn: {}", torn[0])
        }
    );
    Ok(ExitCode::from(match (torn.is_empty(), silent) {
        (true, _) => 0,
        (false, false) => 3,
        (false, true) => 5,
    }))
}

fn main() -> Result<ExitCode, Failure> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args[..] {
        ["init", dir] => init(dir).map(|()| ExitCode::SUCCESS),
        ["write", dir, mode, first] => write(dir, mode, first.parse()?).map(|()| ExitCode::SUCCESS),
        ["check", dir] => check(dir),
        _ => Err("usage: crash_writer init DIR | write DIR plain|atomic GEN | check DIR".into()),
    }
}
