//! Writes a large sharded, zstd-compressed Zarr v3 array of 43-byte particles, to measure
//! `zarrdt dump` on it: `cargo run --release -p zarrdt-cli --example big_array -- PATH [RECORDS]`
//! (25 000 000 records by default: 1.075 GB uncompressed).

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
    let path = args.next().ok_or("usage: big_array PATH [RECORDS]")?;
    let records: u64 = args.next().map_or(Ok(25_000_000), |n| n.parse())?;
    let (chunk, shard) = (100_000, 1_000_000);
    if std::path::Path::new(&path).exists() {
        std::fs::remove_dir_all(&path)?;
    }
    let store = Arc::new(FilesystemStore::new(&path)?);
    let fill = particle(0);
    let array = ArrayOptions::new(vec![records], vec![chunk])
        .shards(vec![shard])
        .compression(Compression::Zstd { level: 1 })
        .create(store, "/", &fill)?;
    let mut start = 0;
    while start < records {
        let end = (start + shard).min(records);
        let batch: Vec<Particle> = (start..end).map(particle).collect();
        array.store_records(&[start..end], &batch)?;
        start = end;
    }
    println!(
        "{records} particles of 43 bytes ({} bytes) in {path}",
        records * 43
    );
    Ok(())
}
