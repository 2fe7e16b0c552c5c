//! The Rust side of the end-to-end benchmark (`benches/e2e.sh` runs it with the Python side):
//! record A (`{id: u32, t: f64, x: f32, y: f32, flag: bool}`, 21 bytes packed) written and
//! read through zarrs as a whole array, in the cases zarr-python and tensorstore are timed on
//! (and one field, `t`, of every record), plus memcpy and the derived codec on the same bytes,
//! and the floor: the same chunks' bytes written to and read from files of the same sizes on
//! the same file system with plain `std::fs` (tool `raw std::fs`), and the reads of records and
//! of one field into a vector kept from read to read (`zarrdt, output reused`). Run with
//! `RAYON_NUM_THREADS=1`, the tool is `zarrdt 1 thread` (and only the compressed cases run);
//! with `GLIBC_TUNABLES=glibc.malloc.hugetlb=1`, `zarrdt, huge pages` (every case, zarrdt's
//! path only).
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
use std::io::Read as _;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use zarrdt::array::{ArrayOptions, Compression, open_array};
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::{Endian, ZarrStruct, ZarrType};
use zarrdt::{ReadRecords, WriteRecords};

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

    let one_thread = rayon::current_num_threads() == 1;
    // Run with `GLIBC_TUNABLES=glibc.malloc.hugetlb=1`, glibc asks the kernel for transparent
    // huge pages for its large allocations (as NumPy does for its arrays): a fresh buffer then
    // faults in 2 MiB at a time instead of 4 KiB.
    let huge_pages = std::env::var("GLIBC_TUNABLES")
        .is_ok_and(|tunables| tunables.contains("glibc.malloc.hugetlb=1"));
    let zarrdt = if one_thread {
        "zarrdt 1 thread"
    } else if huge_pages {
        "zarrdt, huge pages"
    } else {
        "zarrdt"
    };
    // The pass with every tool: the floor, the codec, zarrs' own API, the reused output.
    let main_pass = !one_thread && !huge_pages;
    // ZARRDT_E2E_CASES=zstd,sharded_zstd runs only those cases, ZARRDT_E2E_OPS=read only those
    // operations (write, read, field) of zarrdt's own path (an array read is written once,
    // untimed): for profiling one of them.
    let cases_only = std::env::var("ZARRDT_E2E_CASES").ok();
    let ops_only = std::env::var("ZARRDT_E2E_OPS").ok();
    let timed = |op: &str| {
        ops_only
            .as_deref()
            .is_none_or(|ops| ops.split(',').any(|name| name == op))
    };
    let everything = main_pass && cases_only.is_none() && ops_only.is_none();
    if everything {
        raw(&bytes, Path::new(out), repeats, &report)?;
    }

    // The same bytes copied, and encoded and decoded by the derived codec.
    let mut target = vec![0u8; bytes.len()];
    if main_pass && ops_only.is_none() {
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
        if one_thread && !case.contains("zstd") {
            continue;
        }
        if cases_only
            .as_deref()
            .is_some_and(|only| !only.split(',').any(|name| name == case))
        {
            continue;
        }
        let options = match case {
            "zstd" | "sharded_zstd" => options,
            _ => options.compression(Compression::None),
        };
        let dir = Path::new(out).join(format!("zarrdt_{case}"));
        // zarrdt's chunk-by-chunk transfer (`store_records`, `retrieve_records`), then zarrs'
        // own element API (`store_array_subset`, `retrieve_array_subset`) on the same array.
        let tools = if !main_pass || ops_only.is_some() {
            vec![(zarrdt, true)]
        } else {
            vec![(zarrdt, true), ("zarrdt (zarrs element API)", false)]
        };
        for (tool, chunked) in tools {
            let mut seconds = Vec::new();
            for _ in 0..if timed("write") { repeats } else { 1 } {
                let _ = std::fs::remove_dir_all(&dir);
                let start = Instant::now();
                let store = Arc::new(FilesystemStore::new(&dir)?);
                let array = options.create(store, "/", &A::default())?;
                if chunked {
                    array.store_records(&[0..n], &records)?;
                } else {
                    array.store_array_subset(&[0..n], &records)?;
                }
                seconds.push(start.elapsed().as_secs_f64());
            }
            if timed("write") {
                report(tool, "write", case, &seconds);
            }
            if !timed("read") {
                continue;
            }
            let read = || -> Result<Vec<A>, Box<dyn Error>> {
                let array = open_array(Arc::new(FilesystemStore::new(&dir)?), "/")?;
                Ok(if chunked {
                    array.retrieve_records(&[0..n])?
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
        if main_pass && ops_only.is_none() {
            // The same read into one vector kept from read to read (`retrieve_records_into`):
            // its memory is faulted in once, not on every read.
            let array = open_array(Arc::new(FilesystemStore::new(&dir)?), "/")?;
            let mut kept: Vec<A> = Vec::new();
            let seconds = time_result(repeats, || {
                kept.clear();
                array.retrieve_records_into(&[0..n], &mut kept)?;
                black_box(&kept);
                Ok(())
            })?;
            if kept != records {
                return Err(format!("{case}: the records read into a kept vector differ").into());
            }
            report("zarrdt, output reused", "read", case, &seconds);
        }
        if !timed("field") {
            let _ = std::fs::remove_dir_all(&dir);
            continue;
        }
        // One field of every record.
        let field = || -> Result<Vec<f64>, Box<dyn Error>> {
            let array = open_array(Arc::new(FilesystemStore::new(&dir)?), "/")?;
            Ok(array.retrieve_field(&[0..n], &["t"])?)
        };
        if field()? != records.iter().map(|record| record.t).collect::<Vec<_>>() {
            return Err(format!("{case}: the field read back differs").into());
        }
        let mut seconds = Vec::new();
        for _ in 0..repeats {
            let start = Instant::now();
            black_box(field()?);
            seconds.push(start.elapsed().as_secs_f64());
        }
        report(zarrdt, "read field t", case, &seconds);
        if main_pass && ops_only.is_none() {
            // The same field into one vector kept from read to read (`retrieve_field_into`).
            let array = open_array(Arc::new(FilesystemStore::new(&dir)?), "/")?;
            let mut kept: Vec<f64> = Vec::new();
            let seconds = time_result(repeats, || {
                kept.clear();
                array.retrieve_field_into(&[0..n], &["t"], &mut kept)?;
                black_box(&kept);
                Ok(())
            })?;
            if kept != records.iter().map(|record| record.t).collect::<Vec<_>>() {
                return Err(format!("{case}: the field read into a kept vector differs").into());
            }
            report("zarrdt, output reused", "read field t", case, &seconds);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(())
}

/// How a timing is printed: tool, op, case, the seconds of every repeat.
type Report<'a> = dyn Fn(&str, &str, &str, &[f64]) + 'a;

/// The floor: the chunks' bytes (1M records each, as the arrays' chunks) written to files of
/// their own with `std::fs::write`, and read back into one buffer of the result's size (as a
/// read's result is new memory), file by file with `read_exact`.
fn raw(
    bytes: &[u8],
    out: &Path,
    repeats: usize,
    report: &Report<'_>,
) -> Result<(), Box<dyn Error>> {
    let dir = out.join("raw");
    let chunk = CHUNK as usize * A::SIZE;
    let files = bytes.len().div_ceil(chunk);
    let path = |index: usize| dir.join(format!("c{index}"));
    let mut seconds = Vec::new();
    for _ in 0..=repeats {
        let _ = std::fs::remove_dir_all(&dir);
        let start = Instant::now();
        std::fs::create_dir_all(&dir)?;
        for (index, part) in bytes.chunks(chunk).enumerate() {
            std::fs::write(path(index), part)?;
        }
        seconds.push(start.elapsed().as_secs_f64());
    }
    seconds.remove(0);
    report("raw std::fs", "write", "uncompressed", &seconds);
    let read = || -> Result<Vec<u8>, Box<dyn Error>> {
        let mut result = vec![0u8; bytes.len()];
        for (index, part) in result.chunks_mut(chunk).enumerate().take(files) {
            std::fs::File::open(path(index))?.read_exact(part)?;
        }
        Ok(result)
    };
    if read()? != bytes {
        return Err("raw: the bytes read back differ".into());
    }
    let seconds = time_result(repeats, || black_box(read()).map(drop))?;
    report("raw std::fs", "read", "uncompressed", &seconds);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// The seconds of each of `repeats` runs of `run`, after one untimed warm-up.
fn time_result(
    repeats: usize,
    mut run: impl FnMut() -> Result<(), Box<dyn Error>>,
) -> Result<Vec<f64>, Box<dyn Error>> {
    run()?;
    let mut seconds = Vec::new();
    for _ in 0..repeats {
        let start = Instant::now();
        run()?;
        seconds.push(start.elapsed().as_secs_f64());
    }
    Ok(seconds)
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
