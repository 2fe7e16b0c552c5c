//! `zarrdt import` of a fuzzed table file, in-process through the CLI's library
//! (`zarrdt_cli::run`): parquet-rs' and arrow-rs' readers (Parquet pages and their codecs, the
//! Arrow IPC file and stream formats with LZ4 and zstd buffers), the CLI's pre-check of
//! compressed IPC buffer lengths, zarrdt's typing of Arrow schemas and its `TableWriter`, then
//! `zarrdt dump` of the array made.
//!
//! The input is `OPTIONS TABLE`: `TABLE` is written to a fresh file on tmpfs
//! (`/dev/shm/zarrdt-fuzz-import-PID/in.EXT`) and imported into a new array beside it. The
//! byte `OPTIONS` chooses, by its bits:
//!
//! * 0-1: the extension, so the format: `.parquet`, `.arrow` (IPC file), `.arrows` (IPC
//!   stream), `.feather` (IPC file; bytes without the `ARROW1` magic are read as a stream);
//! * 2-3: `--compression`: `none`, `lz4`, `zstd:1`, `blosc:1`;
//! * 4-5: `--chunks` / `--shards`: neither, `--chunks 3`, `--shards 6` (default chunks that
//!   tile it), both (`--chunks 2 --shards 4`); one extent each, so a table of other than one
//!   dimension must be refused for it, in one line;
//! * 6-7: `--batch-rows`: 65536 (the default), 1, 7, 1000.
//!
//! What must hold: no panic outside the readers the CLI guards (`panics_are_caught`: their
//! panics are the import's error, as in `zarrdt`'s own panic hook), no abort, no allocation or
//! RSS beyond libFuzzer's limits; a failure is one line; a failed import leaves no array (the
//! CLI's README: "the directory made for it is removed"); a successful import's array dumps
//! (`zarrdt dump --limit 64`) without error and the dump is one JSON document.

#![no_main]

use std::path::{Path, PathBuf};
use std::sync::Once;

use libfuzzer_sys::fuzz_target;
use serde_json::Value as Json;
use zarrdt::array::Compression;
use zarrdt_cli::{Cli, Command, Extents, Format, ImportArgs};

fn work_dir() -> PathBuf {
    let base = if Path::new("/dev/shm").is_dir() {
        PathBuf::from("/dev/shm")
    } else {
        std::env::temp_dir()
    };
    base.join(format!("zarrdt-fuzz-import-{}", std::process::id()))
}

/// libFuzzer's panic hook aborts, before any `catch_unwind` could catch the panic: a panic
/// the CLI catches (inside a guarded reader of table bytes) passes it by, as `zarrdt`'s own
/// hook does, so that it becomes the import's error; any other still aborts.
fn quiet_caught_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let fuzzer_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if zarrdt_cli::panics_are_caught() {
                return;
            }
            fuzzer_hook(info);
        }));
    });
}

/// The tool's errors are one line.
fn one_line(what: &str, result: &Result<(), zarrdt_cli::Failure>) {
    if let Err(failure) = result {
        assert!(
            !failure.message().contains('\n'),
            "{what}: error of more than one line: {}",
            failure.message()
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&options, table)) = data.split_first() else {
        return;
    };
    quiet_caught_panics();
    let extension = ["parquet", "arrow", "arrows", "feather"][usize::from(options & 3)];
    let compression = match (options >> 2) & 3 {
        0 => Compression::None,
        1 => Compression::Lz4,
        2 => Compression::Zstd { level: 1 },
        _ => Compression::BloscLz4 { level: 1 },
    };
    let (chunks, shards) = match (options >> 4) & 3 {
        0 => (None, None),
        1 => (Some(Extents(vec![3])), None),
        2 => (None, Some(Extents(vec![6]))),
        _ => (Some(Extents(vec![2])), Some(Extents(vec![4]))),
    };
    let batch_rows = [65_536, 1, 7, 1000][usize::from(options >> 6)];

    let root = work_dir();
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).expect("work directory");
    let input = root.join(format!("in.{extension}"));
    std::fs::write(&input, table).expect("table written");
    let array = root.join("out.zarr");
    let out = array.to_str().expect("UTF-8 work directory").to_owned();

    let mut report = Vec::new();
    let imported = zarrdt_cli::run(
        Cli::new(Command::Import(ImportArgs {
            input,
            out: out.clone(),
            chunks,
            shards,
            compression,
            batch_rows,
            progress: false,
        })),
        &mut report,
    );
    one_line("import", &imported);
    if imported.is_err() {
        // The CLI's README: "A failed import leaves no array: the directory made for it is
        // removed".
        assert!(
            !array.exists(),
            "a failed import left {out} behind ({})",
            imported.as_ref().err().map(|f| f.message()).unwrap_or("")
        );
        return;
    }
    let mut dumped_json = Vec::new();
    let dumped = zarrdt_cli::run(
        Cli::new(Command::Dump {
            path: out,
            select: None,
            limit: Some(64),
            fields: Vec::new(),
            format: Format::Json,
        }),
        &mut dumped_json,
    );
    one_line("dump", &dumped);
    // An array import has just made reads back.
    if let Err(failure) = &dumped {
        panic!("the imported array does not dump: {}", failure.message());
    }
    if let Err(e) = serde_json::from_slice::<Json>(&dumped_json) {
        panic!(
            "dump wrote invalid JSON ({e}): {}",
            String::from_utf8_lossy(&dumped_json)
        );
    }
});
