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
//! the whole array in one `retrieve_records`, for contrast; `field`, the whole array's `id`s in
//! one `retrieve_field`. An array of more than one dimension (`big_array PATH RECORDS tiles`)
//! is read in steps along its first dimension, each step every element of the others.

use std::error::Error;
use std::sync::Arc;
use std::time::{Duration, Instant};

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
        return Err("usage: bounded_read PATH zarrs|records|values|shards|whole|field".into());
    };
    let array = open_array(Arc::new(FilesystemStore::new(path)?), "/")?;
    let shape = array.shape().to_vec();
    let length = shape[0];
    // Elements per index along the first dimension.
    let row: u64 = shape[1..].iter().product();
    let origin = vec![0; shape.len()];
    let inner = array
        .subchunk_shape()
        .map_or(array.chunk_shape(&origin)?.to_array_shape()[0], |shape| {
            shape[0].get()
        });
    let step = match mode.as_str() {
        "shards" => array.chunk_shape(&origin)?.to_array_shape()[0],
        "whole" | "field" => length,
        _ => inner,
    };
    let mut start = 0;
    let mut reads = 0;
    // The time in the library's reads, not in the checks.
    let mut reading = Duration::ZERO;
    while start < length {
        let end = (start + step).min(length);
        let mut subset = vec![start..end];
        subset.extend(shape[1..].iter().map(|&extent| 0..extent));
        let first = start * row;
        let started = Instant::now();
        match mode.as_str() {
            "zarrs" => {
                let read = array.retrieve_array_subset::<Vec<Particle>>(&subset)?;
                reading += started.elapsed();
                check(first, &read)?;
            }
            "records" | "shards" | "whole" => {
                let read = array.retrieve_records::<Particle>(&subset)?;
                reading += started.elapsed();
                check(first, &read)?;
            }
            "values" => {
                let values = array.retrieve_values(&subset)?;
                reading += started.elapsed();
                let read: Vec<Particle> = values
                    .iter()
                    .map(Particle::from_value)
                    .collect::<Result<_, _>>()?;
                check(first, &read)?;
            }
            "field" => {
                let ids: Vec<u64> = array.retrieve_field(&subset, &["id"])?;
                reading += started.elapsed();
                if let Some((offset, id)) = ids
                    .iter()
                    .enumerate()
                    .find(|&(offset, &id)| id != particle(first + offset as u64).id)
                {
                    return Err(format!("record {}: id {id}", first + offset as u64).into());
                }
            }
            other => return Err(format!("unknown mode {other}").into()),
        }
        reads += 1;
        start = end;
    }
    println!(
        "{} particles ({} bytes) read and checked in {reads} reads of up to {} ({mode}); the \
         reads took {:.3} s",
        length * row,
        length * row * 43,
        step.min(length) * row,
        reading.as_secs_f64()
    );
    Ok(())
}
