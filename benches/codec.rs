//! Throughput of the record codecs against `memcpy` of the same bytes, in the same run.
//!
//! ```sh
//! cargo bench --bench codec                  # every case (about 3 minutes on 2 cores)
//! cargo bench --bench codec -- chunk         # chunk-sized buffers only
//! cargo bench --bench codec -- 'A/chunk'     # one record at one size
//! ```
//!
//! Four records (see BENCHMARKS.md), each at two sizes: `chunk`, 1 MiB of packed records (a
//! typical chunk, which stays in cache), and `large`, 256 MiB (far beyond cache). For each:
//!
//! * `memcpy`: a copy of the packed bytes, the yardstick;
//! * `store_loop`: the same bytes read a `u64` at a time, each changed (XOR with a constant)
//!   and stored: what any transform of the bytes costs with the ordinary stores a loop
//!   compiles to. Beyond cache it can be far below `memcpy`, which glibc does with
//!   non-temporal stores above `glibc.cpu.x86_non_temporal_threshold` (set from the shared
//!   cache's size: 99 MiB on a 2-core Xeon with a 260 MiB L3, where `store_loop` runs at
//!   0.56× `memcpy`, and `memcpy` itself at the same speed with that threshold raised);
//! * `encode`/`decode` `native`/`swapped`: the derived codec (`ZarrType::encode_slice_into`,
//!   `decode_slice_into` into a reused vector), in the machine's byte order and the other;
//! * `swap`: the run-time codec's byte-order conversion of the chunk in place
//!   (`ByteOrderConversion::apply`, planned once per data type, as zarrs does per array);
//! * `values` (chunk only): the run-time codec decoding the chunk to dynamic [`Value`]s, as
//!   every array opened without a Rust type does (throughput in records);
//! * `field` and `memcpy_field`: one `f32`/`f64` field of every record (`Layout::decode_field_into`,
//!   into a reused vector)
//!   and a copy of as many bytes as that field has in all records.
//!
//! Record `A` is decoded twice more: `decode_u8_flag` is the same record with a `u8` in place
//! of the `bool`, to price the validation of `bool` bytes. And `decode_enum_kind` decodes it
//! with a `#[derive(ZarrEnum)]` field of four variants in place of the `bool` (every value
//! checked to be a variant), against `decode_u8_kind`, the same bytes as a `u8`.
//!
//! ```sh
//! cargo bench --bench codec -- '_kind'       # the enum against the plain integer
//! ```

#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss,
    clippy::cast_possible_wrap
)]

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use num_complex::Complex;
use zarrdt::half::f16;
use zarrdt::layout::ByteOrderConversion;
use zarrdt::time::Nanoseconds;
use zarrdt::{DateTime64, Endian, FixedString, ZarrEnum, ZarrStruct, ZarrType};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

/// Record A: five scalars, 21 bytes packed; Rust pads it to 24 in memory.
#[derive(ZarrStruct, Clone, Copy)]
struct A {
    id: u32,
    t: f64,
    x: f32,
    y: f32,
    flag: bool,
}

/// Record A with a `u8` flag: the same bytes, nothing to validate.
#[derive(ZarrStruct, Clone, Copy)]
struct AU8 {
    id: u32,
    t: f64,
    x: f32,
    y: f32,
    flag: u8,
}

/// Four kinds, stored as a `u8`.
#[derive(ZarrEnum, Clone, Copy)]
#[repr(u8)]
enum Kind {
    Idle,
    Running,
    Done,
    Failed,
}

/// Record A with a fieldless enum in place of the `bool`: each value checked to be a variant.
#[derive(ZarrStruct, Clone, Copy)]
struct AEnum {
    id: u32,
    t: f64,
    x: f32,
    y: f32,
    kind: Kind,
}

#[derive(ZarrStruct, Clone, Copy)]
struct Velocity {
    vx: f32,
    vy: f32,
}

/// Record B: nested, with an array, a complex and a half-precision field (38 bytes packed).
#[derive(ZarrStruct, Clone, Copy)]
struct B {
    id: u64,
    pos: [f32; 3],
    vel: Velocity,
    z: Complex<f32>,
    charge: f16,
}

/// Record C: `#[repr(C)]`, padding-free, single-copy (16 bytes).
#[derive(ZarrStruct, IntoBytes, FromBytes, Immutable, KnownLayout, Clone, Copy)]
#[zarr(single_copy)]
#[repr(C)]
struct C {
    time: f64,
    value: f32,
    channel: u32,
}

/// Record D: a 16-character string and a datetime64 (80 bytes).
#[derive(ZarrStruct, Clone, Copy)]
struct D {
    name: FixedString<16>,
    at: DateTime64<Nanoseconds>,
    value: f64,
}

const CHUNK_BYTES: usize = 1 << 20;
const LARGE_BYTES: usize = 256 << 20;

fn record_a(i: usize) -> A {
    A {
        id: i as u32,
        t: i as f64 * 1e-3,
        x: i as f32,
        y: -(i as f32),
        flag: i.is_multiple_of(7),
    }
}

fn record_b(i: usize) -> B {
    let f = i as f32;
    B {
        id: i as u64,
        pos: [f, f + 1.0, f + 2.0],
        vel: Velocity { vx: f, vy: -f },
        z: Complex::new(f, 0.5),
        charge: f16::from_f32((i % 2048) as f32),
    }
}

fn record_c(i: usize) -> C {
    C {
        time: i as f64,
        value: i as f32,
        channel: i as u32,
    }
}

fn record_d(i: usize) -> D {
    let name = format!("sensor-{:09}", i % 1_000_000_000);
    D {
        name: FixedString::new(&name).unwrap_or_default(),
        at: DateTime64::new(1_700_000_000_000_000_000 + i as i64),
        value: i as f64,
    }
}

fn swapped(endian: Endian) -> Endian {
    match endian {
        Endian::Little => Endian::Big,
        Endian::Big => Endian::Little,
    }
}

/// Every case for records of `T` filling `bytes` bytes; `field` names an `F` field.
fn cases<T: ZarrType + Copy, F: ZarrType>(
    c: &mut Criterion,
    name: &str,
    size: &str,
    bytes: usize,
    make: impl Fn(usize) -> T,
    field: &str,
) {
    let records = bytes / T::SIZE;
    let bytes = records * T::SIZE;
    let values: Vec<T> = (0..records).map(make).collect();
    let mut group = c.benchmark_group(format!("{name}/{size}"));
    if bytes > CHUNK_BYTES {
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(2));
    }
    group.throughput(Throughput::Bytes(bytes as u64));
    memcpy(&mut group, "memcpy", bytes);
    store_loop(&mut group, bytes);

    let native = Endian::NATIVE;
    let mut out = vec![0u8; bytes];
    let mut decoded: Vec<T> = Vec::with_capacity(records);
    for (label, endian) in [("native", native), ("swapped", swapped(native))] {
        group.bench_function(format!("encode/{label}"), |bench| {
            bench.iter(|| T::encode_slice_into(black_box(&values), &mut out, endian).unwrap());
        });
        let encoded = T::encode_slice(&values, endian);
        group.bench_function(format!("decode/{label}"), |bench| {
            bench.iter(|| {
                decoded.clear();
                T::decode_slice_into(black_box(&encoded), endian, &mut decoded).unwrap();
            });
        });
    }
    drop(decoded);

    // The run-time codec on the same bytes: a whole chunk brought to the other byte order in
    // place, and (for chunks) decoded to dynamic values.
    let layout = T::layout(native);
    let mut chunk = T::encode_slice(&values, native);
    let to_swapped = ByteOrderConversion::new(&layout, swapped(native));
    let to_native = ByteOrderConversion::new(&layout.with_endian(swapped(native)), native);
    let mut is_native = true;
    group.bench_function("swap", |bench| {
        bench.iter(|| {
            let conversion = if is_native { &to_swapped } else { &to_native };
            conversion.apply(black_box(&mut chunk)).unwrap();
            is_native = !is_native;
        });
    });
    if !is_native {
        to_native.apply(&mut chunk).unwrap();
    }
    if bytes <= CHUNK_BYTES {
        group.throughput(Throughput::Elements(records as u64));
        group.bench_function("values", |bench| {
            bench.iter(|| layout.decode_values(black_box(&chunk)).unwrap());
        });
    }

    // One field of every record, against a copy of as many bytes.
    group.throughput(Throughput::Bytes((records * F::SIZE) as u64));
    memcpy(&mut group, "memcpy_field", records * F::SIZE);
    let mut values: Vec<F> = Vec::with_capacity(records);
    group.bench_function(format!("field/{field}"), |bench| {
        bench.iter(|| {
            values.clear();
            layout
                .decode_field_into(black_box(&chunk), &[field], &mut values)
                .unwrap();
        });
    });
    group.finish();
}

fn memcpy(group: &mut BenchmarkGroup<'_, WallTime>, label: &str, bytes: usize) {
    let source = vec![0xa5u8; bytes];
    let mut target = vec![0u8; bytes];
    group.bench_function(label, |bench| {
        bench.iter(|| target.copy_from_slice(black_box(&source)));
    });
}

/// `bytes` (rounded down to whole `u64`s) read, changed and stored by a loop: ordinary stores.
fn store_loop(group: &mut BenchmarkGroup<'_, WallTime>, bytes: usize) {
    let source: Vec<u64> = (0..bytes as u64 / 8).collect();
    let mut target = vec![0u64; source.len()];
    group.bench_function("store_loop", |bench| {
        bench.iter(|| {
            for (to, from) in target.iter_mut().zip(black_box(&source)) {
                *to = *from ^ 0x5a5a_5a5a_5a5a_5a5a;
            }
            black_box(&mut target);
        });
    });
}

/// Decoding record A with a `bool` against the same bytes with a `u8`: the price of checking
/// that every `bool` byte is 0 or 1.
fn validation(c: &mut Criterion, size: &str, bytes: usize) {
    let records = bytes / A::SIZE;
    let encoded = A::encode_slice(
        &(0..records).map(record_a).collect::<Vec<_>>(),
        Endian::NATIVE,
    );
    let mut group = c.benchmark_group(format!("A/{size}"));
    if bytes > CHUNK_BYTES {
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(2));
    }
    group.throughput(Throughput::Bytes(encoded.len() as u64));
    let mut decoded: Vec<AU8> = Vec::with_capacity(records);
    group.bench_function("decode_u8_flag/native", |bench| {
        bench.iter(|| {
            decoded.clear();
            AU8::decode_slice_into(black_box(&encoded), Endian::NATIVE, &mut decoded).unwrap();
        });
    });

    // The same records with kinds 0..=3 in the last byte: as a `u8`, and as an enum.
    let kinds: Vec<AU8> = (0..records)
        .map(|i| {
            let a = record_a(i);
            AU8 {
                id: a.id,
                t: a.t,
                x: a.x,
                y: a.y,
                flag: ((i * 7 + i / 3) % 4) as u8,
            }
        })
        .collect();
    let encoded = AU8::encode_slice(&kinds, Endian::NATIVE);
    group.bench_function("decode_u8_kind/native", |bench| {
        bench.iter(|| {
            decoded.clear();
            AU8::decode_slice_into(black_box(&encoded), Endian::NATIVE, &mut decoded).unwrap();
        });
    });
    drop(decoded);
    let mut decoded: Vec<AEnum> = Vec::with_capacity(records);
    group.bench_function("decode_enum_kind/native", |bench| {
        bench.iter(|| {
            decoded.clear();
            AEnum::decode_slice_into(black_box(&encoded), Endian::NATIVE, &mut decoded).unwrap();
        });
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    for (size, bytes) in [("chunk", CHUNK_BYTES), ("large", LARGE_BYTES)] {
        cases::<A, f32>(c, "A", size, bytes, record_a, "x");
        validation(c, size, bytes);
        cases::<B, u64>(c, "B", size, bytes, record_b, "id");
        cases::<C, f32>(c, "C", size, bytes, record_c, "value");
        cases::<D, f64>(c, "D", size, bytes, record_d, "value");
    }
}

criterion_group! {
    name = codecs;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_millis(1500));
    targets = benches
}
criterion_main!(codecs);
