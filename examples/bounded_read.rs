//! Reads a large array of records chunk by chunk through the library, to measure that the
//! zarrs read path streams (issue 12, BENCHMARKS.md "Bounded memory"): each read is one inner
//! chunk, checked against the records written, then dropped.
//!
//! ```text
//! cargo run --release -p zarrdt-cli --example big_array -- /tmp/big.zarr
//! cargo build --release --example bounded_read
//! /usr/bin/time -v target/release/examples/bounded_read /tmp/big.zarr zarrs
//! ```
//!
//! Modes: `zarrs` (zarrs' `retrieve_array_subset` into `Vec<Particle>`), `records`
//! (`retrieve_records`), `values` (`retrieve_values`, records of a type known only at run
//! time), one inner chunk at a time; `shards`, `retrieve_records` a shard at a time; `whole`,
//! the whole array in one `retrieve_records`, for contrast.

use std::error::Error;
use std::sync::Arc;

use zarrdt::ReadRecords;
use zarrdt::array::open_array;
use zarrdt::half::f16;
use zarrdt::zarrs::array::{ArrayShardedExt, ChunkShapeTraits};
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::{Endian, ZarrStruct, ZarrType};

/// A particle's velocity (as `zarrdt-cli/examples/big_array.rs` writes it).
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

/// Particle `i` as `big_array` writes it.
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

/// That `read` holds particles `start..`, bit for bit.
fn check(start: u64, read: &[Particle]) -> Result<(), Box<dyn Error>> {
    for (offset, record) in read.iter().enumerate() {
        let i = start + offset as u64;
        if record.encode(Endian::Little) != particle(i).encode(Endian::Little) {
            return Err(format!("record {i}: {record:?}").into());
        }
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path, mode] = &args[..] else {
        return Err("usage: bounded_read PATH zarrs|records|values|shards|whole".into());
    };
    let array = open_array(Arc::new(FilesystemStore::new(path)?), "/")?;
    let length = array.shape()[0];
    let inner = array
        .subchunk_shape()
        .map_or(array.chunk_shape(&[0])?.to_array_shape()[0], |shape| {
            shape[0].get()
        });
    let step = match mode.as_str() {
        "shards" => array.chunk_shape(&[0])?.to_array_shape()[0],
        "whole" => length,
        _ => inner,
    };
    let mut start = 0;
    let mut reads = 0;
    while start < length {
        let end = (start + step).min(length);
        let range = [start..end];
        match mode.as_str() {
            "zarrs" => check(
                start,
                &array.retrieve_array_subset::<Vec<Particle>>(&range)?,
            )?,
            "records" | "shards" | "whole" => {
                check(start, &array.retrieve_records::<Particle>(&range)?)?;
            }
            "values" => {
                let values = array.retrieve_values(&range)?;
                let read: Vec<Particle> = values
                    .iter()
                    .map(Particle::from_value)
                    .collect::<Result<_, _>>()?;
                check(start, &read)?;
            }
            other => return Err(format!("unknown mode {other}").into()),
        }
        reads += 1;
        start = end;
    }
    println!(
        "{length} particles ({} bytes) read and checked in {reads} reads of up to {step} ({mode})",
        length * 43
    );
    Ok(())
}
