//! Record arrays on S3, both directions with zarr-python 3.4 (issue 13). These tests need a
//! running S3-compatible server and a bucket named by `ZARRDT_S3_BUCKET`, with the endpoint and
//! credentials in the usual `AWS_*` variables: `tests/s3/check.sh` starts a local server, has
//! zarr-python write its arrays, runs these tests (`--ignored`), and has zarr-python read
//! what they wrote. The formulas of every value are the same as in `tests/s3/zarr_side.py`.

#![allow(clippy::unwrap_used)]

use serde_json::json;
use zarrdt::array::{ArrayOptions, Compression, open_array, open_store};
use zarrdt::half::f16;
use zarrdt::layout::Layout;
use zarrdt::time::{Microseconds, Nanoseconds};
use zarrdt::{
    ByteString, DateTime64, Endian, FixedString, RawBytes, TimeDelta64, ZarrStruct, ZarrType,
};

fn bucket() -> String {
    std::env::var("ZARRDT_S3_BUCKET")
        .expect("ZARRDT_S3_BUCKET names the bucket; run tests/s3/check.sh, which sets it")
}

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Velocity {
    vx: f64,
    vy: f64,
}

/// What the Rust side writes to `rust/v3.zarr`: nested records, an array field, `float16`,
/// text, bytes and times (NumPy `U6`, `S4`, `V3`, `M8[ns]`, `m8[us]`).
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Sample {
    id: u64,
    pos: [f32; 3],
    vel: Velocity,
    charge: f16,
    label: FixedString<6>,
    code: ByteString<4>,
    raw: RawBytes<3>,
    at: DateTime64<Nanoseconds>,
    span: TimeDelta64<Microseconds>,
    ok: bool,
}

/// What the Rust side writes to `rust/v2.zarr`, a Zarr v2 array with a big-endian id.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Tag {
    id: u64,
    label: FixedString<6>,
    code: ByteString<4>,
    raw: RawBytes<3>,
    at: DateTime64<Nanoseconds>,
    span: TimeDelta64<Microseconds>,
    ok: bool,
}

/// What the Rust side writes to `rust/flat.zarr`: core scalar types only, which tensorstore
/// reads too (it opens struct arrays field by field, and only flat ones of core types).
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Flat {
    id: u64,
    x: f32,
    y: f64,
    n: i16,
    ok: bool,
}

const RUST_RECORDS: u64 = 100_003;
const RUST_WRITTEN: u64 = 95_000;

fn sample(i: u64) -> Sample {
    let f = i as f32;
    Sample {
        id: i * 1_000_003,
        pos: [f, -f, f * 0.25],
        vel: Velocity {
            vx: i as f64 * 0.5,
            vy: -(i as f64),
        },
        charge: f16::from_f32((i % 2048) as f32 - 1024.0),
        label: FixedString::new(&format!("s{}", i % 100_000)).unwrap(),
        code: ByteString::new(format!("c{}", i % 1000).as_bytes()).unwrap(),
        raw: RawBytes::new([i as u8, (i >> 8) as u8, 7]),
        at: DateTime64::new(1_700_000_000_000_000_000 + i as i64 * 1_000_000_007),
        span: TimeDelta64::new(-3 * i as i64),
        ok: !i.is_multiple_of(5),
    }
}

fn sample_fill() -> Sample {
    Sample {
        id: u64::MAX,
        pos: [f32::NAN, -0.0, f32::NEG_INFINITY],
        vel: Velocity { vx: -1.0, vy: 0.0 },
        charge: f16::NAN,
        label: FixedString::default(),
        code: ByteString::default(),
        raw: RawBytes::new([0xff, 0, 1]),
        at: DateTime64::NAT,
        span: TimeDelta64::NAT,
        ok: false,
    }
}

fn flat(i: u64) -> Flat {
    Flat {
        id: i * 3,
        x: i as f32 * 0.5,
        y: -(i as f64) / 3.0,
        n: (i % 30_000) as i16 - 15_000,
        ok: !i.is_multiple_of(7),
    }
}

fn flat_fill() -> Flat {
    Flat {
        id: u64::MAX,
        x: f32::NAN,
        y: f64::INFINITY,
        n: -1,
        ok: true,
    }
}

fn tag(i: u64) -> Tag {
    let s = sample(i);
    Tag {
        id: s.id,
        label: s.label,
        code: s.code,
        raw: s.raw,
        at: s.at,
        span: s.span,
        ok: s.ok,
    }
}

/// The Rust side writes a sharded, big-endian, zstd-compressed v3 array of nested records, a
/// sharded array of flat records and a gzip-compressed v2 array, each with its last records
/// left to the fill value; zarr-python, Dask and tensorstore check every value
/// (`zarr_side.py check`).
#[test]
#[ignore = "needs an S3 server: run tests/s3/check.sh"]
fn rust_writes_records_for_zarr_python() {
    let bucket = bucket();
    let (store, path) = open_store(&format!("s3://{bucket}/rust/v3.zarr")).unwrap();
    let array = ArrayOptions::new(vec![RUST_RECORDS], vec![1000])
        .shards(vec![10_000])
        .endian(Endian::Big)
        .compression(Compression::Zstd { level: 3 })
        .create(store, &path, &sample_fill())
        .unwrap();
    let samples: Vec<Sample> = (0..RUST_WRITTEN).map(sample).collect();
    array
        .store_array_subset(&[0..RUST_WRITTEN], samples.clone())
        .unwrap();
    let back: Vec<Sample> = array.retrieve_array_subset(&[0..RUST_WRITTEN]).unwrap();
    assert!(back == samples, "v3 records read back differ");

    let (store, path) = open_store(&format!("s3://{bucket}/rust/flat.zarr")).unwrap();
    let array = ArrayOptions::new(vec![RUST_RECORDS], vec![1000])
        .shards(vec![10_000])
        .create(store, &path, &flat_fill())
        .unwrap();
    let flats: Vec<Flat> = (0..RUST_WRITTEN).map(flat).collect();
    array.store_array_subset(&[0..RUST_WRITTEN], flats).unwrap();

    let (store, path) = open_store(&format!("s3://{bucket}/rust/v2.zarr")).unwrap();
    let layout = Layout::from_v2_json(&json!([
        ["id", ">u8"],
        ["label", "<U6"],
        ["code", "|S4"],
        ["raw", "|V3"],
        ["at", "<M8[ns]"],
        ["span", ">m8[us]"],
        ["ok", "|b1"]
    ]))
    .unwrap();
    let fill = Tag {
        id: u64::MAX,
        label: FixedString::default(),
        code: ByteString::default(),
        raw: RawBytes::new([0xff, 0, 1]),
        at: DateTime64::NAT,
        span: TimeDelta64::NAT,
        ok: false,
    };
    let array = ArrayOptions::new(vec![RUST_RECORDS], vec![7000])
        .compression(Compression::Gzip { level: 5 })
        .create_v2(store, &path, &layout, Some(&fill.to_value()))
        .unwrap();
    let tags: Vec<Tag> = (0..RUST_WRITTEN).map(tag).collect();
    array.store_array_subset(&[0..RUST_WRITTEN], tags).unwrap();
}

/// What zarr-python writes (`zarr_side.py write`), with `x` and the nested `inner`.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Inner {
    a: u8,
    b: i16,
}

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Row {
    id: i32,
    x: f64,
    name: FixedString<5>,
    code: ByteString<3>,
    raw: RawBytes<2>,
    at: DateTime64<Microseconds>,
    span: TimeDelta64<Nanoseconds>,
    flag: bool,
    inner: Inner,
}

const PY_RECORDS: u64 = 10_007;
const PY_WRITTEN: u64 = 9_000;

fn row(i: u64) -> Row {
    let n = i as i64;
    Row {
        id: (n * 7 - 3000) as i32,
        x: i as f64 / 4.0,
        name: FixedString::new(&format!("r{}", i % 10_000)).unwrap(),
        code: ByteString::new(format!("b{}", i % 100).as_bytes()).unwrap(),
        raw: RawBytes::new([(i % 251) as u8, 0]),
        at: DateTime64::new(1_600_000_000_000_000 + n * 1000),
        span: TimeDelta64::new(n * 1_000_003 - 5_000_000_000),
        flag: i.is_multiple_of(3),
        inner: Inner {
            a: (i % 256) as u8,
            b: (n % 65_536 - 32_768) as i16,
        },
    }
}

fn row_fill() -> Row {
    Row {
        id: -1,
        x: -0.5,
        name: FixedString::new("fill").unwrap(),
        code: ByteString::new(b"zz").unwrap(),
        raw: RawBytes::new([9, 8]),
        at: DateTime64::NAT,
        span: TimeDelta64::NAT,
        flag: true,
        inner: Inner { a: 255, b: -1 },
    }
}

/// zarr-python 3.4 wrote a sharded big-endian v3 array and a v2 array with big-endian fields
/// to the bucket; every record is read through zarrs and checked, the unwritten ones against
/// the fill value.
#[test]
#[ignore = "needs an S3 server: run tests/s3/check.sh"]
fn rust_reads_records_zarr_python_wrote() {
    let bucket = bucket();
    for name in ["v3.zarr", "v2.zarr"] {
        let location = format!("s3://{bucket}/python/{name}");
        let (store, path) = open_store(&location).unwrap();
        let array = open_array(store, &path).unwrap();
        assert_eq!(array.shape(), [PY_RECORDS], "{location}");
        let rows: Vec<Row> = array.retrieve_array_subset(&[0..PY_RECORDS]).unwrap();
        for (i, got) in rows.iter().enumerate() {
            let i = i as u64;
            let expected = if i < PY_WRITTEN { row(i) } else { row_fill() };
            assert_eq!(*got, expected, "{location}: record {i}");
        }
    }
}
