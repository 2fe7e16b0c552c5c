//! Quickstart: a plain Rust struct becomes a Zarr struct data type with one derive, and a
//! million of them become a chunked, zstd-compressed, sharded Zarr v3 array on disk that
//! zarr-python (3.2 and later) opens.
//!
//! Run with `cargo run --all-features --example quickstart [PATH]` (the default features are
//! enough; with all of them it shares the test command's build); the array goes to `PATH`, or under the
//! system's temporary directory.

use std::error::Error;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use zarrdt::half::f16;
use zarrdt::layout::Leaf;
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::{ArrayOptions, Compression};
use zarrdt::{Endian, ZarrStruct, ZarrType};
use zarrdt::{ReadRecords, WriteRecords};

/// A particle's velocity: a nested record.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Velocity {
    vx: f32,
    vy: f32,
    vz: f32,
}

/// One simulated particle: an id, a position (a fixed-size array), a nested velocity, a mass,
/// a half-precision charge and a flag.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Particle {
    id: u64,
    pos: [f32; 3],
    velocity: Velocity,
    mass: f64,
    charge: f16,
    alive: bool,
}

const RECORDS: u64 = 1_000_000;
const CHUNK: u64 = 10_000;
const SHARD: u64 = 100_000;

/// The particle with number `i`: every field depends on it, so a slice read back can be
/// checked record by record.
fn particle(i: u64) -> Particle {
    let t = i as f32 * 1e-3;
    Particle {
        id: 1_000_000_000 + i,
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
    let path = match std::env::args_os().nth(1) {
        Some(path) => PathBuf::from(path),
        None => std::env::temp_dir()
            .join("zarrdt-quickstart")
            .join("particles.zarr"),
    };
    prepare(&path)?;

    // 1. The record, known at compile time: packed offsets, whatever Rust's own layout is.
    println!("Particle: {} bytes per record (packed)", Particle::SIZE);
    println!(
        "  {:<14} {:<10} {:>6} {:>5}",
        "field", "type", "offset", "size"
    );
    for leaf in Particle::data_type().leaves() {
        print_leaf(&leaf);
    }

    // 2. An array of a million particles: chunks of 10 000 records, 10 chunks to a shard,
    //    zstd, little-endian; a missing record reads as the fill value.
    let fill = Particle {
        id: u64::MAX,
        pos: [f32::NAN; 3],
        velocity: Velocity {
            vx: 0.0,
            vy: 0.0,
            vz: 0.0,
        },
        mass: f64::NAN,
        charge: f16::ZERO,
        alive: false,
    };
    let store = Arc::new(FilesystemStore::new(&path)?);
    let array = ArrayOptions::new(vec![RECORDS], vec![CHUNK])
        .shards(vec![SHARD])
        .compression(Compression::Zstd { level: 3 })
        .endian(Endian::Little)
        .dimension_names(["particle"])
        .create(store, "/", &fill)?;

    // 3. Written one shard at a time (zarrs encodes its chunks in parallel), with progress.
    println!(
        "\nwriting {RECORDS} particles to {} (shards of {SHARD}, chunks of {CHUNK}, zstd)",
        path.display()
    );
    let start = Instant::now();
    for shard in 0..RECORDS.div_ceil(SHARD) {
        let range = shard * SHARD..((shard + 1) * SHARD).min(RECORDS);
        let particles: Vec<Particle> = range.clone().map(particle).collect();
        array.store_records(&[range.start..range.end], &particles)?;
        print!(
            "\r  written {:>9} / {RECORDS} records ({:>3}%)",
            range.end,
            range.end * 100 / RECORDS
        );
        std::io::stdout().flush()?;
    }
    println!("  in {:.2?}", start.elapsed());

    // 4. A slice across a shard boundary, read back and checked record by record; and one
    //    field of every record, without building the records.
    let slice = 99_990..100_010u64;
    let read: Vec<Particle> = array.retrieve_records(&[slice.start..slice.end])?;
    let expected: Vec<Particle> = slice.clone().map(particle).collect();
    if read != expected {
        return Err("the slice read back differs from what was written".into());
    }
    println!(
        "read back particles {}..{}: all {} equal what was written",
        slice.start,
        slice.end,
        read.len()
    );
    let mass: Vec<f64> = array.retrieve_field(&[0..RECORDS], &["mass"])?;
    let total: f64 = mass.iter().sum();
    println!(
        "mean mass of all {} particles: {:.4}",
        mass.len(),
        total / mass.len() as f64
    );

    // 5. What is on disk.
    let zarr_json = std::fs::read_to_string(path.join("zarr.json"))?;
    println!("\n{}/zarr.json:\n{zarr_json}", path.display());
    let shards = std::fs::read_dir(path.join("c"))?.count();
    println!("{shards} shard files under {}", path.join("c").display());
    println!(
        "\nopen it in Python (zarr-python 3.2 or later):\n  python -c \"import zarr; a = zarr.open_array('{}'); print(a.dtype); print(a[99_998:100_002])\"",
        path.display()
    );
    Ok(())
}

/// One row of the layout table: a leaf of the record.
fn print_leaf(leaf: &Leaf) {
    let scalar = leaf.scalar();
    let count = leaf.count();
    let size = scalar.size() * count;
    let kind = if count > 1 {
        format!("{}[{count}]", scalar.name())
    } else {
        scalar.name()
    };
    println!(
        "  {:<14} {:<10} {:>6} {:>5}",
        leaf.path().to_string(),
        kind,
        leaf.offset(),
        size
    );
}

/// Makes sure `path` can take the array: a new directory, or an earlier quickstart array,
/// which is replaced; anything else is left alone and is an error.
fn prepare(path: &Path) -> Result<(), Box<dyn Error>> {
    if path.exists() {
        if !path.join("zarr.json").exists() && std::fs::read_dir(path)?.next().is_some() {
            return Err(format!(
                "{} exists and is not a Zarr array; give another path",
                path.display()
            )
            .into());
        }
        std::fs::remove_dir_all(path)?;
    }
    std::fs::create_dir_all(path)?;
    Ok(())
}
