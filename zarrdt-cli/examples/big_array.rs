//! Writes a large zstd-compressed Zarr v3 array of 43-byte particles (sharded, unless asked
//! for `chunks`), to measure `zarrdt dump` and reads on it: `cargo run --release -p
//! zarrdt-cli --example big_array -- PATH [RECORDS] [tiles|chunks]` (25 000 000 records by
//! default: 1.075 GB uncompressed). One dimension, in shards of 1 000 000 and inner chunks of
//! 100 000; with `tiles`, two: rows of 3 000 (RECORDS a multiple of 3 000), in shards of
//! 1 000 × 1 000 and inner chunks of 250 × 250, particle `i` at row `i / 3000`, column
//! `i % 3000`; with `chunks`, one dimension in zstd chunks of 1 000 000 and no shards.

use std::error::Error;
use std::sync::Arc;

use zarrdt::array::{ArrayOptions, Compression};
use zarrdt::half::f16;
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::{WriteRecords, ZarrStruct};

/// A particle's velocity.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Velocity {
    vx: f32,
    vy: f32,
    vz: f32,
}

/// The quickstart's particle: 43 bytes.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Particle {
    id: u64,
    pos: [f32; 3],
    velocity: Velocity,
    mass: f64,
    charge: f16,
    alive: bool,
}

fn particle(i: u64) -> Particle {
    let t = i as f32 * 1e-3;
    Particle {
        id: i,
        pos: [t.sin(), t.cos(), t],
        velocity: Velocity {
            vx: -t,
            vy: 0.5 * t,
            vz: 1.0,
        },
        mass: 1.0 + (i % 97) as f64 * 0.25,
        charge: f16::from_f32(if i.is_multiple_of(2) { 1.0 } else { -1.0 }),
        alive: !i.is_multiple_of(10),
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: big_array PATH [RECORDS] [tiles|chunks]";
    let path = args.next().ok_or(usage)?;
    let records: u64 = args.next().map_or(Ok(25_000_000), |n| n.parse())?;
    const WIDTH: u64 = 3_000;
    // The array's shape, its chunks (inner chunks, if sharded) and its shards, if any.
    let (shape, chunks, shards) = match args.next().as_deref() {
        None => (vec![records], vec![100_000], Some(vec![1_000_000])),
        Some("tiles") if records.is_multiple_of(WIDTH) => (
            vec![records / WIDTH, WIDTH],
            vec![250, 250],
            Some(vec![1_000, 1_000]),
        ),
        Some("tiles") => {
            return Err(format!("with tiles, RECORDS is a multiple of {WIDTH}").into());
        }
        Some("chunks") => (vec![records], vec![1_000_000], None),
        Some(_) => return Err(usage.into()),
    };
    if std::path::Path::new(&path).exists() {
        std::fs::remove_dir_all(&path)?;
    }
    let store = Arc::new(FilesystemStore::new(&path)?);
    let fill = particle(0);
    // Written a row of shards (of chunks, unsharded) at a time.
    let step = shards.as_deref().unwrap_or(&chunks)[0];
    let mut options = ArrayOptions::new(shape.clone(), chunks.clone());
    if let Some(shards) = shards {
        options = options.shards(shards);
    }
    let array = options
        .compression(Compression::Zstd { level: 1 })
        .create(store, "/", &fill)?;
    // The second dimension, if any, whole.
    let mut start = 0;
    while start < shape[0] {
        let end = (start + step).min(shape[0]);
        let mut subset = vec![start..end];
        subset.extend(shape[1..].iter().map(|&extent| 0..extent));
        let row: u64 = shape[1..].iter().product();
        let batch: Vec<Particle> = (start * row..end * row).map(particle).collect();
        array.store_records(&subset, &batch)?;
        start = end;
    }
    println!(
        "{records} particles of 43 bytes ({} bytes) in {path}, shape {shape:?}",
        records * 43
    );
    Ok(())
}
