//! Throughput of the derived codecs against a `memcpy` of the same bytes, in one run.
//!
//! `cargo bench --bench codec` (criterion; add `-- --quick` for a shorter run). Each group
//! encodes or decodes 1 Mi records; the `memcpy` row copies a buffer of the same size.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use zarrdt::{Element, Endian, ZarrStruct};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, TryFromBytes};

const RECORDS: usize = 1 << 20;

/// `#[repr(C)]`, padding-free, zerocopy: the one-copy path in native order.
#[derive(ZarrStruct, IntoBytes, FromBytes, Immutable, KnownLayout, Clone, Copy)]
#[repr(C)]
struct Sample {
    time: f64,
    value: f32,
    channel: u32,
}

/// The same fields without zerocopy: the field-by-field path.
#[derive(ZarrStruct, Clone, Copy)]
struct SampleFieldwise {
    time: f64,
    value: f32,
    channel: u32,
}

/// `#[repr(C)]` with a bool: the validated zerocopy path.
#[derive(ZarrStruct, IntoBytes, TryFromBytes, Immutable, KnownLayout, Clone, Copy)]
#[repr(C)]
struct Flagged {
    time: f64,
    value: f32,
    channel: u16,
    valid: bool,
    kind: u8,
}

/// A packed record whose memory layout differs from the record (29 bytes, an array, a bool).
#[derive(ZarrStruct, Clone, Copy)]
struct Particle {
    id: u64,
    pos: [f32; 3],
    mass: f64,
    alive: bool,
}

fn memcpy_baseline(c: &mut Criterion, group_name: &str, bytes: usize) {
    let source = vec![0xa5u8; bytes];
    let mut target = vec![0u8; bytes];
    let mut group = c.benchmark_group(group_name);
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("memcpy", |b| {
        b.iter(|| target.copy_from_slice(black_box(&source)));
    });
    group.finish();
}

fn codec<T: Element + Copy>(c: &mut Criterion, name: &str, make: impl Fn(usize) -> T) {
    let values: Vec<T> = (0..RECORDS).map(make).collect();
    let bytes = RECORDS * T::SIZE;
    memcpy_baseline(c, name, bytes);
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(bytes as u64));
    let mut out = vec![0u8; bytes];
    for endian in [Endian::NATIVE, swapped(Endian::NATIVE)] {
        group.bench_with_input(BenchmarkId::new("encode", endian), &endian, |b, &endian| {
            b.iter(|| T::encode_slice_into(black_box(&values), &mut out, endian));
        });
        let encoded = T::encode_slice(&values, endian);
        let mut decoded = Vec::with_capacity(RECORDS);
        group.bench_with_input(BenchmarkId::new("decode", endian), &endian, |b, &endian| {
            b.iter(|| {
                decoded.clear();
                T::decode_slice_into(black_box(&encoded), endian, &mut decoded)
            });
        });
    }
    group.finish();
}

fn swapped(endian: Endian) -> Endian {
    match endian {
        Endian::Little => Endian::Big,
        Endian::Big => Endian::Little,
    }
}

#[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
fn benches(c: &mut Criterion) {
    codec(c, "sample_zerocopy", |i| Sample {
        time: i as f64,
        value: i as f32,
        channel: i as u32,
    });
    codec(c, "sample_fieldwise", |i| SampleFieldwise {
        time: i as f64,
        value: i as f32,
        channel: i as u32,
    });
    codec(c, "flagged_validated", |i| Flagged {
        time: i as f64,
        value: i as f32,
        channel: i as u16,
        valid: i % 3 == 0,
        kind: i as u8,
    });
    codec(c, "particle_packed", |i| Particle {
        id: i as u64,
        pos: [i as f32, 1.0, 2.0],
        mass: i as f64,
        alive: i % 2 == 0,
    });
}

criterion_group!(codecs, benches);
criterion_main!(codecs);
