//! `zarrdt dump` (and `inspect`) on a fuzzed array directory, in-process through the CLI's
//! library (`zarrdt_cli::run`): zarrs' store, codecs and sharding, zarrdt's data type
//! integration, and the CLI's reader and renderers, on metadata and chunk bytes from the input.
//!
//! The input is `METADATA NUL` and then files, each `NAME NUL LEN BYTES` (`LEN` two bytes,
//! little-endian): `METADATA` is written as `zarr.json`, or as `.zarray` if its `zarr_format`
//! is 2, and each file at its relative path (components of `[A-Za-z0-9._-]`, at most 4 deep, at
//! most 64 files) in a fresh directory on tmpfs (`/dev/shm`). The dump is limited to 64 elements
//! and its format (JSON, CSV, table) chosen by the input's length.
//!
//! Arrays whose chunks (or shards, or inner chunks) declare more than 16 MiB of decoded
//! elements are skipped: zarrs decodes a whole chunk to read from it, so such an array needs the
//! memory it declares, which is no finding.

#![no_main]

use std::path::{Path, PathBuf};

use libfuzzer_sys::fuzz_target;
use serde_json::Value as Json;
use zarrdt::layout::Layout;
use zarrdt::types::DataType;
use zarrdt_cli::{Cli, Command, Format};

const MAX_DECLARED_BYTES: u128 = 16 << 20;

fn work_dir() -> PathBuf {
    let base = if Path::new("/dev/shm").is_dir() {
        PathBuf::from("/dev/shm")
    } else {
        std::env::temp_dir()
    };
    base.join(format!("zarrdt-fuzz-{}", std::process::id()))
}

/// The largest product of any `chunk_shape`, `chunks` or `shape`-like list of a chunk grid or
/// codec in the document (1 if there is none).
fn largest_chunk(json: &Json) -> u128 {
    let mut largest = 1u128;
    match json {
        Json::Object(object) => {
            for (key, value) in object {
                if key == "chunk_shape" || key == "chunks" {
                    if let Some(extents) = value.as_array() {
                        let product = extents.iter().fold(1u128, |product, extent| {
                            product.saturating_mul(u128::from(extent.as_u64().unwrap_or(1)))
                        });
                        largest = largest.max(product);
                    }
                }
                largest = largest.max(largest_chunk(value));
            }
        }
        Json::Array(items) => {
            for item in items {
                largest = largest.max(largest_chunk(item));
            }
        }
        _ => {}
    }
    largest
}

fn itemsize(meta: &Json) -> u128 {
    let v3 = meta
        .get("data_type")
        .and_then(|t| DataType::from_v3_json(t).ok());
    let v2 = meta.get("dtype").and_then(|t| Layout::from_v2_json(t).ok());
    let size = v3.map(|t| t.size()).or(v2.map(|l| l.size())).unwrap_or(1);
    size.max(1) as u128
}

fn safe_name(name: &[u8]) -> Option<&str> {
    let name = std::str::from_utf8(name).ok()?;
    let parts: Vec<&str> = name.split('/').collect();
    let ok = !name.is_empty()
        && name.len() <= 100
        && parts.len() <= 4
        && parts.iter().all(|part| {
            !part.is_empty()
                && *part != "."
                && *part != ".."
                && part
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || b == b'-')
        });
    ok.then_some(name)
}

/// The tool's errors are one line.
fn one_line(result: &Result<(), zarrdt_cli::Failure>) {
    if let Err(failure) = result {
        assert!(
            !failure.message().contains('\n'),
            "error of more than one line: {}",
            failure.message()
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let (meta, mut rest) = zarrdt_fuzz::split_nul(data);
    let Ok(meta_json) = serde_json::from_slice::<Json>(meta) else {
        return;
    };
    if largest_chunk(&meta_json).saturating_mul(itemsize(&meta_json)) > MAX_DECLARED_BYTES {
        return;
    }
    let meta_name = match meta_json.get("zarr_format").and_then(Json::as_u64) {
        Some(2) => ".zarray",
        _ => "zarr.json",
    };
    let root = work_dir();
    let _ = std::fs::remove_dir_all(&root);
    let array = root.join("a.zarr");
    std::fs::create_dir_all(&array).expect("work directory");
    std::fs::write(array.join(meta_name), meta).expect("metadata written");
    let mut files = 0;
    while files < 64 {
        let (name, after) = zarrdt_fuzz::split_nul(rest);
        if after.len() < 2 {
            break;
        }
        let len = usize::from(u16::from_le_bytes([after[0], after[1]])).min(after.len() - 2);
        let bytes = &after[2..2 + len];
        rest = &after[2 + len..];
        files += 1;
        let Some(name) = safe_name(name) else {
            continue;
        };
        if name == meta_name {
            continue;
        }
        let path = array.join(name);
        if let Some(parent) = path.parent() {
            if std::fs::create_dir_all(parent).is_err() {
                continue;
            }
        }
        // A name that is already a directory (or under a file) is skipped.
        let _ = std::fs::write(&path, bytes);
    }
    let path = array.to_str().expect("UTF-8 work directory").to_owned();
    let format = match data.len() % 3 {
        0 => Format::Json,
        1 => Format::Csv,
        _ => Format::Table,
    };
    let mut out = Vec::new();
    let dumped = zarrdt_cli::run(
        Cli::new(Command::Dump {
            path: path.clone(),
            select: None,
            limit: Some(64),
            fields: Vec::new(),
            format,
        }),
        &mut out,
    );
    one_line(&dumped);
    if dumped.is_ok() && format == Format::Json {
        // The dump contract: one JSON document.
        if let Err(e) = serde_json::from_slice::<Json>(&out) {
            panic!(
                "dump wrote invalid JSON ({e}): {}",
                String::from_utf8_lossy(&out)
            );
        }
    }
    let json = data.len() % 2 == 0;
    out.clear();
    let inspected = zarrdt_cli::run(
        Cli::new(Command::Inspect {
            path: path.clone(),
            json,
        }),
        &mut out,
    );
    one_line(&inspected);
    if inspected.is_ok() && json {
        if let Err(e) = serde_json::from_slice::<Json>(&out) {
            panic!(
                "inspect --json wrote invalid JSON ({e}): {}",
                String::from_utf8_lossy(&out)
            );
        }
    }
    out.clear();
    let generated = zarrdt_cli::run(
        Cli::new(Command::Rust {
            path,
            name: "Record".into(),
        }),
        &mut out,
    );
    one_line(&generated);
});
