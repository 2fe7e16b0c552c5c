//! Records to Arrow columns (`zarrdt::arrow`, issue 21) against `memcpy` of the same bytes,
//! in the same run: 10M records of A (`{id: u32, t: f64, x: f32, y: f32, flag: bool}`, 21
//! bytes) and of the quickstart's particle (`{id: u64, pos: [f32; 3], velocity: {vx, vy, vz:
//! f32}, mass: f64, charge: f16, alive: bool}`, 43 bytes).
//!
//! ```sh
//! cargo bench --features arrow --bench arrow           # every case (about 2 minutes here)
//! cargo bench --features arrow --bench arrow -- A/     # one record
//! ```
//!
//! For each record:
//!
//! * `memcpy`: a copy of the packed records, the yardstick (the target: export >= 0.5x it);
//! * `export/one_batch`: `RecordConverter::to_record_batch` of all 10M records (one transpose
//!   of the whole buffer into columns);
//! * `export/batches_64k`: the same in batches of 65 536 rows, as `BatchReader` and
//!   `zarrdt export` make them;
//! * `import/one_batch`: `RecordConverter::from_record_batch` back to records (informative).

#![allow(clippy::unwrap_used, clippy::cast_possible_truncation)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use zarrdt::arrow::{DEFAULT_BATCH_ROWS, RecordConverter};
use zarrdt::half::f16;
use zarrdt::{Endian, ZarrStruct, ZarrType};

/// Record A, as in `benches/codec.rs` and `benches/e2e.rs`.
#[derive(ZarrStruct, Clone, Copy)]
struct A {
    id: u32,
    t: f64,
    x: f32,
    y: f32,
    flag: bool,
}

/// The quickstart's velocity.
#[derive(ZarrStruct, Clone, Copy)]
struct Velocity {
    vx: f32,
    vy: f32,
    vz: f32,
}

/// The quickstart's particle (`examples/quickstart.rs`).
#[derive(ZarrStruct, Clone, Copy)]
struct Particle {
    id: u64,
    pos: [f32; 3],
    velocity: Velocity,
    mass: f64,
    charge: f16,
    alive: bool,
}

const RECORDS: usize = 10_000_000;

fn a(i: usize) -> A {
    A {
        id: i as u32,
        t: i as f64 * 1e-3,
        x: (i % 1000) as f32 * 0.5,
        y: -(i as f32),
        flag: i.is_multiple_of(7),
    }
}

fn particle(i: usize) -> Particle {
    Particle {
        id: i as u64,
        pos: [i as f32, 0.5, -1.0],
        velocity: Velocity {
            vx: 1.0,
            vy: i as f32,
            vz: -2.5,
        },
        mass: i as f64 * 0.25,
        charge: f16::from_f32((i % 100) as f32),
        alive: i.is_multiple_of(3),
    }
}

fn bench<T: ZarrType>(c: &mut Criterion, name: &str, make: fn(usize) -> T) {
    let records: Vec<T> = (0..RECORDS).map(make).collect();
    let bytes = T::encode_slice(&records, Endian::NATIVE);
    drop(records);
    let converter = RecordConverter::new(&T::layout(Endian::NATIVE)).unwrap();
    let mut group = c.benchmark_group(name);
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8))
        .throughput(Throughput::Bytes(bytes.len() as u64));
    let mut target = vec![0u8; bytes.len()];
    group.bench_function("memcpy", |b| {
        b.iter(|| target.copy_from_slice(black_box(&bytes)));
    });
    drop(target);
    group.bench_function("export/one_batch", |b| {
        b.iter(|| black_box(converter.to_record_batch(black_box(&bytes)).unwrap()));
    });
    let batch_bytes = DEFAULT_BATCH_ROWS * T::SIZE;
    group.bench_function("export/batches_64k", |b| {
        b.iter(|| {
            for part in bytes.chunks(batch_bytes) {
                black_box(converter.to_record_batch(black_box(part)).unwrap());
            }
        });
    });
    let batch = converter.to_record_batch(&bytes).unwrap();
    group.bench_function("import/one_batch", |b| {
        b.iter(|| black_box(converter.from_record_batch(black_box(&batch)).unwrap()));
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench(c, "A", a);
    bench(c, "particle", particle);
}

criterion_group!(arrow, benches);
criterion_main!(arrow);
