//! The Rust side of the end-to-end benchmark (`benches/e2e.sh` runs it with the Python side):
//! record A (`{id: u32, t: f64, x: f32, y: f32, flag: bool}`, 21 bytes packed) written and
//! read through zarrs as a whole array, in the cases zarr-python and tensorstore are timed on,
//! plus memcpy and the derived codec on the same bytes.
//!
//! ```sh
//! cargo bench --bench e2e -- RECORDS.bin OUT_DIR [REPEATS]
//! ```
//!
//! `RECORDS.bin` holds the packed little-endian records (written by `benches/e2e.py`, so both
//! sides store the same data); each case prints one JSON line
//! `{"tool", "op", "case", "seconds": [...], "bytes"}` (every repeat, for medians).

#![allow(clippy::unwrap_used, clippy::cast_precision_loss)]

use std::error::Error;
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use zarrdt::array::{ArrayOptions, Compression, open_array, retrieve_records, store_records};
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::{Endian, ZarrStruct, ZarrType};

/// Record A, as in `benches/codec.rs` and `benches/e2e.py`.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq, Default)]
struct A {
    id: u32,
    t: f64,
    x: f32,
    y: f32,
    flag: bool,
}

/// Records per chunk; a shard holds four chunks (as in `e2e.py`).
const CHUNK: u64 = 1_000_000;

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with("--"))
        .collect();
    let [input, out, rest @ ..] = args.as_slice() else {
        return Err("usage: cargo bench --bench e2e -- RECORDS.bin OUT_DIR [REPEATS]".into());
    };
    let repeats: usize = rest.first().map_or(Ok(3), |text| text.parse())?;
    let bytes = std::fs::read(input)?;
    let records = A::decode_slice(&bytes, Endian::Little)?;
    let n = records.len() as u64;
    let report = |tool: &str, op: &str, case: &str, seconds: &[f64]| {
        println!(
            "{{\"tool\": \"{tool}\", \"op\": \"{op}\", \"case\": \"{case}\", \"seconds\": {seconds:?}, \"bytes\": {}}}",
            bytes.len()
        );
    };

    // The same bytes copied, and encoded and decoded by the derived codec.
    let mut target = vec![0u8; bytes.len()];
    report(
        "zarrdt",
        "memcpy",
        "",
        &time(repeats, || target.copy_from_slice(black_box(&bytes))),
    );
    for (label, endian) in [("native", Endian::NATIVE), ("swapped", swapped())] {
        report(
            "zarrdt",
            "encode",
            label,
            &time(repeats, || {
                A::encode_slice_into(black_box(&records), &mut target, endian).unwrap();
            }),
        );
        let encoded = A::encode_slice(&records, endian);
        let mut decoded = Vec::with_capacity(records.len());
        report(
            "zarrdt",
            "decode",
            label,
            &time(repeats, || {
                decoded.clear();
                A::decode_slice_into(black_box(&encoded), endian, &mut decoded).unwrap();
            }),
        );
    }

    let cases = [
        ("uncompressed", ArrayOptions::new(vec![n], vec![CHUNK])),
        (
            "uncompressed_big",
            ArrayOptions::new(vec![n], vec![CHUNK]).endian(Endian::Big),
        ),
        (
            "zstd",
            ArrayOptions::new(vec![n], vec![CHUNK]).compression(Compression::Zstd { level: 3 }),
        ),
        (
            "sharded_uncompressed",
            ArrayOptions::new(vec![n], vec![CHUNK]).shards(vec![4 * CHUNK]),
        ),
        (
            "sharded_zstd",
            ArrayOptions::new(vec![n], vec![CHUNK])
                .shards(vec![4 * CHUNK])
                .compression(Compression::Zstd { level: 3 }),
        ),
    ];
    for (case, options) in cases {
        let options = match case {
            "zstd" | "sharded_zstd" => options,
            _ => options.compression(Compression::None),
        };
        let dir = Path::new(out).join(format!("zarrdt_{case}"));
        // zarrdt's chunk-by-chunk transfer (`store_records`, `retrieve_records`), then zarrs'
        // own element API (`store_array_subset`, `retrieve_array_subset`) on the same array.
        for (tool, chunked) in [("zarrdt", true), ("zarrdt (zarrs element API)", false)] {
            let mut seconds = Vec::new();
            for _ in 0..repeats {
                let _ = std::fs::remove_dir_all(&dir);
                let start = Instant::now();
                let store = Arc::new(FilesystemStore::new(&dir)?);
                let array = options.create(store, "/", &A::default())?;
                if chunked {
                    store_records(&array, &[0..n], &records)?;
                } else {
                    array.store_array_subset(&[0..n], &records)?;
                }
                seconds.push(start.elapsed().as_secs_f64());
            }
            report(tool, "write", case, &seconds);
            let read = || -> Result<Vec<A>, Box<dyn Error>> {
                let array = open_array(Arc::new(FilesystemStore::new(&dir)?), "/")?;
                Ok(if chunked {
                    retrieve_records(&array, &[0..n])?
                } else {
                    array.retrieve_array_subset(&[0..n])?
                })
            };
            if read()? != records {
                return Err(format!("{tool} {case}: the records read back differ").into());
            }
            let mut seconds = Vec::new();
            for _ in 0..repeats {
                let start = Instant::now();
                black_box(read()?);
                seconds.push(start.elapsed().as_secs_f64());
            }
            report(tool, "read", case, &seconds);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(())
}

fn swapped() -> Endian {
    match Endian::NATIVE {
        Endian::Little => Endian::Big,
        Endian::Big => Endian::Little,
    }
}

/// The seconds of each of `repeats` runs of `run`, after one untimed warm-up.
fn time(repeats: usize, mut run: impl FnMut()) -> Vec<f64> {
    run();
    (0..repeats)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed().as_secs_f64()
        })
        .collect()
}
