//! Arrays written by zarrdt for real zarr-python to read.
//!
//! Every case is written as a filesystem array (metadata document and chunk files) with the
//! values zarr-python must read back, in the fixtures' typed JSON (see `tests/interop/`). The
//! test itself re-reads every array with zarrdt; `.ci/run` then has zarr-python 3.4, 3.1 and
//! 2.18 read them (`tests/interop/generate.py --check-zarrdt`), each the cases it supports.
//!
//! Output: `$ZARRDT_INTEROP_OUT` if set, else a directory under Cargo's target tmpdir.

#![allow(clippy::unwrap_used)]

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use half::f16;
use num_complex::Complex;
use serde_json::{Value as Json, json};
use zarrdt::{
    ArrayMetadataV2, ArrayMetadataV3, BytesCodec, DataType, Element, Endian, Layout, Record,
    ScalarType, TimeConfig, TimeUnit, Value, ZarrStruct,
};

use common::records::{AllScalars, Grid, Particle};
use common::{chunk_targets, grid_positions, hex_encode, typed};

#[derive(ZarrStruct, Clone, Debug)]
struct Tagged(
    #[zarr(rename = "foo.mask")] u8,
    #[zarr(rename = "température")] f64,
    i32,
);

#[derive(ZarrStruct, Clone, Debug)]
struct SingleBytes {
    flag: bool,
    small: i8,
    level: u8,
}

#[derive(ZarrStruct, Clone, Debug)]
struct Inner {
    x: f32,
    y: i16,
}

#[derive(ZarrStruct, Clone, Debug)]
struct Outer {
    inner: Inner,
    flag: bool,
    weight: f64,
}

/// One array to write, and what a reader must see.
struct Case {
    name: &'static str,
    description: &'static str,
    /// zarr-python series that must read it ("3.4", "3.1", "2.18").
    readers: &'static [&'static str],
    zarr_format: u8,
    shape: Vec<u64>,
    chunks: Vec<u64>,
    /// The metadata document.
    metadata: Json,
    /// The metadata file name: `zarr.json` or `.zarray`.
    metadata_file: &'static str,
    /// How a reader's NumPy sees one element (v3: packed little-endian; v2: as stored).
    reader_layout: Layout,
    /// The layout the chunks are stored in.
    stored_layout: Layout,
    fill: Option<Value>,
    /// Every element in C order, as a reader sees it (the fill where no chunk is stored).
    values: Vec<Value>,
    /// Chunk key and bytes of every stored chunk.
    stored: Vec<(String, Vec<u8>)>,
}

/// Stored chunks (grid position and elements) and the values a reader sees.
type Split<T> = (Vec<(Vec<u64>, Vec<T>)>, Vec<T>);

/// The chunks of `values` (C order, `shape`) on a regular grid, skipping the chunk indices in
/// `skip`; edge chunks are padded with `fill`. Returns the stored chunk contents (by grid
/// position) and the values a reader sees.
fn split<T: Clone>(
    shape: &[u64],
    chunks: &[u64],
    values: &[T],
    fill: &T,
    skip: &[usize],
) -> Split<T> {
    let mut seen = values.to_vec();
    let mut stored = Vec::new();
    for (index, position) in grid_positions(shape, chunks).into_iter().enumerate() {
        let targets = chunk_targets(shape, chunks, &position);
        if skip.contains(&index) {
            for flat in targets.into_iter().flatten() {
                seen[flat] = fill.clone();
            }
            continue;
        }
        let chunk = targets
            .iter()
            .map(|target| target.map_or_else(|| fill.clone(), |flat| values[flat].clone()))
            .collect();
        stored.push((position, chunk));
    }
    (stored, seen)
}

/// A Zarr v3 array of Rust elements. The chunks are those of the runtime codec of the
/// element's data type, and the element's own (derived) codec must encode every one of them
/// to the same bytes.
#[allow(clippy::too_many_arguments)]
fn v3_case<T: Element + Clone>(
    name: &'static str,
    description: &'static str,
    readers: &'static [&'static str],
    shape: &[u64],
    chunks: &[u64],
    values: &[T],
    fill: &T,
    endian: Endian,
    skip: &[usize],
) -> Case {
    let dynamic: Vec<Value> = values.iter().map(Element::to_value).collect();
    let case = v3_dynamic_case(
        name,
        description,
        readers,
        shape,
        chunks,
        T::data_type(),
        &dynamic,
        &fill.to_value(),
        endian,
        skip,
    );
    let codec = BytesCodec::for_data_type(&T::data_type(), endian);
    let (typed_chunks, _) = split(shape, chunks, values, fill, skip);
    assert_eq!(typed_chunks.len(), case.stored.len(), "{name}: chunk count");
    for ((_, chunk), (key, bytes)) in typed_chunks.iter().zip(&case.stored) {
        assert_eq!(
            &codec.encode(chunk).unwrap(),
            bytes,
            "{name}: derived and runtime codecs disagree on chunk {key}"
        );
    }
    case
}

/// A Zarr v3 array of dynamic values of `data_type`, skipping the chunks numbered in `skip`.
#[allow(clippy::too_many_arguments)]
fn v3_dynamic_case(
    name: &'static str,
    description: &'static str,
    readers: &'static [&'static str],
    shape: &[u64],
    chunks: &[u64],
    data_type: DataType,
    values: &[Value],
    fill: &Value,
    endian: Endian,
    skip: &[usize],
) -> Case {
    let meta = ArrayMetadataV3::new(
        shape.to_vec(),
        chunks.to_vec(),
        data_type,
        fill.clone(),
        endian,
    );
    let codec: BytesCodec = meta.bytes_codec.unwrap();
    let (chunk_values, seen) = split(shape, chunks, values, fill, skip);
    let stored = chunk_values
        .into_iter()
        .map(|(position, chunk)| {
            (
                meta.chunk_key(&position),
                codec.encode_values(&meta.data_type, &chunk).unwrap(),
            )
        })
        .collect();
    Case {
        name,
        description,
        readers,
        zarr_format: 3,
        shape: shape.to_vec(),
        chunks: chunks.to_vec(),
        metadata: meta.to_json().unwrap(),
        metadata_file: "zarr.json",
        // A reader sees the data type as `zarr.json` writes it: Rust arrays in their v3 struct
        // form (fields "0", "1", ...).
        reader_layout: Layout::from_data_type(
            &DataType::from_v3_json(&meta.to_json().unwrap()["data_type"]).unwrap(),
            Some(Endian::Little),
        )
        .unwrap(),
        stored_layout: meta.layout().unwrap(),
        fill: Some(fill.clone()),
        values: seen,
        stored,
    }
}

/// A Zarr v2 array of values stored in `layout` (per-field byte order, subarrays).
#[allow(clippy::too_many_arguments)]
fn v2_case(
    name: &'static str,
    description: &'static str,
    readers: &'static [&'static str],
    shape: &[u64],
    chunks: &[u64],
    layout: Layout,
    values: &[Value],
    fill: Option<&Value>,
    skip: &[usize],
) -> Case {
    let meta = ArrayMetadataV2::new(
        shape.to_vec(),
        chunks.to_vec(),
        layout.clone(),
        fill.cloned(),
    );
    let padding = fill
        .cloned()
        .unwrap_or_else(|| layout.decode_value(&vec![0; layout.size()]).unwrap());
    let (chunk_values, seen) = split(shape, chunks, values, &padding, skip);
    let stored = chunk_values
        .into_iter()
        .map(|(position, chunk)| {
            (
                meta.chunk_key(&position),
                layout.encode_values(&chunk).unwrap(),
            )
        })
        .collect();
    Case {
        name,
        description,
        readers,
        zarr_format: 2,
        shape: shape.to_vec(),
        chunks: chunks.to_vec(),
        metadata: meta.to_json().unwrap(),
        metadata_file: ".zarray",
        reader_layout: layout.clone(),
        stored_layout: layout,
        fill: fill.cloned(),
        values: seen,
        stored,
    }
}

fn f32_bits(bits: u32) -> f32 {
    f32::from_bits(bits)
}

fn f64_bits(bits: u64) -> f64 {
    f64::from_bits(bits)
}

fn particles() -> Vec<Particle> {
    (0..7u8)
        .map(|i| Particle {
            id: u64::from(i) * 1_000_000_007,
            pos: [
                f32::from(i),
                -f32::from(i) / 4.0,
                f32_bits(0x7fc0_0000 + u32::from(i)),
            ],
            mass: [
                0.5,
                -0.0,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64_bits(0x7ff8_dead_beef_0001),
                1e-310,
                f64::MAX,
            ][usize::from(i)],
            alive: i % 2 == 0,
        })
        .collect()
}

fn particle_fill() -> Particle {
    Particle {
        id: u64::MAX,
        pos: [f32_bits(0x7fc0_0001), -0.0, f32::INFINITY],
        mass: f64::NEG_INFINITY,
        alive: true,
    }
}

fn all_scalars() -> Vec<AllScalars> {
    let extremes = [
        (
            true,
            i8::MIN,
            i16::MIN,
            i32::MIN,
            i64::MIN,
            0u8,
            0u16,
            0u32,
            0u64,
        ),
        (
            false,
            i8::MAX,
            i16::MAX,
            i32::MAX,
            i64::MAX,
            u8::MAX,
            u16::MAX,
            u32::MAX,
            u64::MAX,
        ),
        (true, -1, -1, -1, -1, 1, 1, 1, 1),
        (false, 0, 0, 0, 0, 0, 0, 0, 0),
    ];
    let f16s = [
        f16::from_bits(0x0001),
        f16::from_bits(0x7e00),
        f16::NEG_INFINITY,
        f16::from_f32(-0.0),
    ];
    let f32s = [f32_bits(0x7fc0_0001), f32::MIN_POSITIVE, -0.0, 3.5];
    let f64s = [f64_bits(0xfff8_0000_0000_0000), 0.1, f64::MIN, -0.0];
    extremes
        .iter()
        .enumerate()
        .map(
            |(i, &(b, i8v, i16v, i32v, i64v, u8v, u16v, u32v, u64v))| AllScalars {
                b,
                i8: i8v,
                i16: i16v,
                i32: i32v,
                i64: i64v,
                u8: u8v,
                u16: u16v,
                u32: u32v,
                u64: u64v,
                f16: f16s[i],
                f32: f32s[i],
                f64: f64s[i],
                c64: Complex::new(f32s[(i + 1) % 4], f32s[i]),
                c128: Complex::new(f64s[(i + 2) % 4], f64s[i]),
            },
        )
        .collect()
}

fn outers() -> [Outer; 3] {
    [
        Outer {
            inner: Inner { x: 1.5, y: -2 },
            flag: true,
            weight: 3.25,
        },
        Outer {
            inner: Inner {
                x: -0.0,
                y: i16::MAX,
            },
            flag: false,
            weight: f64::NAN,
        },
        Outer {
            inner: Inner {
                x: f32::INFINITY,
                y: 0,
            },
            flag: true,
            weight: -1e300,
        },
    ]
}

fn record(fields: Vec<(&str, Value)>) -> Value {
    Value::Record(fields.into_iter().collect::<Record>())
}

fn cases() -> Vec<Case> {
    let v3_readers: &'static [&'static str] = &["3.4"];
    let mut cases = vec![
        v3_case(
            "rust_v3_particle",
            "derived Particle{id,pos:[f32;3],mass,alive}, little endian, NaN payload fill, missing middle chunk",
            v3_readers,
            &[7],
            &[3],
            &particles(),
            &particle_fill(),
            Endian::Little,
            &[1],
        ),
        v3_case(
            "rust_v3_particle_big",
            "derived Particle, big endian",
            v3_readers,
            &[7],
            &[3],
            &particles(),
            &particle_fill(),
            Endian::Big,
            &[],
        ),
        v3_case(
            "rust_v3_all_scalars",
            "derived struct of every core scalar type, extremes and special floats",
            v3_readers,
            &[4],
            &[3],
            &all_scalars(),
            &all_scalars()[0],
            Endian::Little,
            &[],
        ),
        v3_case(
            "rust_v3_grid_2d",
            "derived Grid{cells:[[i16;2];3]} as nested structs, 2-D array",
            v3_readers,
            &[3, 4],
            &[2, 3],
            &(0..12i16)
                .map(|i| Grid {
                    cells: [[i, -i], [i * 100, i16::MIN + i], [i16::MAX - i, 7]],
                })
                .collect::<Vec<_>>(),
            &Grid {
                cells: [[-1, -2], [-3, -4], [-5, -6]],
            },
            Endian::Big,
            &[3],
        ),
        v3_case(
            "rust_v3_tuple_renamed",
            "derived tuple struct with renamed fields \"foo.mask\" and \"température\" and field \"2\"",
            v3_readers,
            &[3],
            &[2],
            &[
                Tagged(1, 2.5, -3),
                Tagged(255, -0.0, i32::MAX),
                Tagged(0, f64::NAN, 0),
            ],
            &Tagged(9, 1.0, 1),
            Endian::Little,
            &[],
        ),
        v3_case(
            "rust_v3_single_bytes",
            "derived struct of bool, i8, u8 only: the bytes codec has no endian",
            v3_readers,
            &[4],
            &[4],
            &[
                SingleBytes {
                    flag: true,
                    small: -128,
                    level: 255,
                },
                SingleBytes {
                    flag: false,
                    small: 127,
                    level: 0,
                },
                SingleBytes {
                    flag: true,
                    small: 0,
                    level: 1,
                },
                SingleBytes {
                    flag: false,
                    small: -1,
                    level: 128,
                },
            ],
            &SingleBytes {
                flag: true,
                small: 5,
                level: 6,
            },
            Endian::Big,
            &[],
        ),
        v3_case(
            "rust_v3_nested",
            "derived Outer{inner:Inner{x,y},flag,weight}",
            v3_readers,
            &[3],
            &[2],
            &outers(),
            &Outer {
                inner: Inner { x: f32::NAN, y: 1 },
                flag: false,
                weight: 2.0,
            },
            Endian::Little,
            &[],
        ),
        v3_dynamic_case(
            "rust_v3_extension_fields",
            "runtime struct of numpy.datetime64 (10 s), numpy.timedelta64 (ms), fixed_length_utf32, raw_bytes, null_terminated_bytes",
            v3_readers,
            &[3],
            &[2],
            extension_struct(),
            &extension_values(),
            &extension_fill(),
            Endian::Little,
            &[],
        ),
        v2_case(
            "rust_v2_particle",
            "derived Particle as v2 dtype with a subarray field pos <f4 (3,)",
            &["2.18"],
            &[7],
            &[3],
            Particle::layout(Endian::Little),
            &particles()
                .iter()
                .map(Element::to_value)
                .collect::<Vec<_>>(),
            Some(&particle_fill().to_value()),
            &[2],
        ),
        v2_case(
            "rust_v2_particle_big",
            "derived Particle as v2 dtype, every field big-endian",
            &["2.18"],
            &[7],
            &[4],
            Particle::layout(Endian::Big),
            &particles()
                .iter()
                .map(Element::to_value)
                .collect::<Vec<_>>(),
            None,
            &[],
        ),
        v2_case(
            "rust_v2_mixed_order",
            "runtime v2 layout [a <i4, b >f8]: one byte order per field",
            &["2.18", "3.4", "3.1"],
            &[5],
            &[2],
            Layout::from_v2_json(&json!([["a", "<i4"], ["b", ">f8"]])).unwrap(),
            &[
                record(vec![
                    ("a", Value::Int32(i32::MIN)),
                    ("b", Value::Float64(f64::NAN)),
                ]),
                record(vec![("a", Value::Int32(1)), ("b", Value::Float64(-0.0))]),
                record(vec![
                    ("a", Value::Int32(-7)),
                    ("b", Value::Float64(f64::INFINITY)),
                ]),
                record(vec![
                    ("a", Value::Int32(i32::MAX)),
                    ("b", Value::Float64(2.5)),
                ]),
                record(vec![
                    ("a", Value::Int32(0)),
                    ("b", Value::Float64(f64::MIN_POSITIVE)),
                ]),
            ],
            Some(&record(vec![
                ("a", Value::Int32(1)),
                ("b", Value::Float64(2.0)),
            ])),
            &[1],
        ),
        v2_case(
            "rust_v2_nested",
            "derived Outer{inner:Inner{x,y},flag,weight} as a nested v2 dtype",
            &["2.18", "3.4"],
            &[3],
            &[2],
            Outer::layout(Endian::Little),
            &outers().iter().map(Element::to_value).collect::<Vec<_>>(),
            Some(
                &Outer {
                    inner: Inner { x: 0.0, y: 1 },
                    flag: false,
                    weight: 2.0,
                }
                .to_value(),
            ),
            &[],
        ),
    ];
    cases.extend(scalar_cases());
    cases
}

fn extension_struct() -> DataType {
    let config = |unit, scale| TimeConfig::new(unit, scale).unwrap();
    DataType::from_v3_json(&json!({"name": "struct", "configuration": {"fields": [
        {"name": "t", "data_type": ScalarType::DateTime64(config(TimeUnit::Second, 10)).to_v3_json()},
        {"name": "d", "data_type": ScalarType::TimeDelta64(config(TimeUnit::Millisecond, 1)).to_v3_json()},
        {"name": "s", "data_type": {"name": "fixed_length_utf32", "configuration": {"length_bytes": 16}}},
        {"name": "raw", "data_type": {"name": "raw_bytes", "configuration": {"length_bytes": 3}}},
        {"name": "bs", "data_type": {"name": "null_terminated_bytes", "configuration": {"length_bytes": 5}}}
    ]}}))
    .unwrap()
}

fn extension_record(t: i64, d: i64, s: &str, raw: [u8; 3], bs: &[u8]) -> Value {
    let mut padded = bs.to_vec();
    padded.resize(5, 0);
    record(vec![
        ("t", Value::DateTime64(t)),
        ("d", Value::TimeDelta64(d)),
        ("s", Value::String(s.into())),
        ("raw", Value::Bytes(raw.to_vec())),
        ("bs", Value::Bytes(padded)),
    ])
}

fn extension_values() -> Vec<Value> {
    vec![
        extension_record(0, 1, "héé", [1, 2, 3], b"ab"),
        extension_record(i64::MIN, i64::MIN, "", [0, 0, 255], b"hello"),
        extension_record(-5, 86_400_000, "𝄞z", [9, 8, 7], b""),
    ]
}

fn extension_fill() -> Value {
    extension_record(i64::MIN, -1, "fill", [4, 5, 6], b"xy")
}

/// One array per core scalar type, through the Rust element codecs.
fn scalar_cases() -> Vec<Case> {
    let readers: &'static [&'static str] = &["3.4", "3.1"];
    macro_rules! scalar {
        ($name:literal, $values:expr, $fill:expr, $endian:expr) => {
            v3_case(
                $name,
                "Rust primitive elements",
                readers,
                &[5],
                &[2],
                &$values,
                &$fill,
                $endian,
                &[1],
            )
        };
    }
    vec![
        scalar!(
            "rust_v3_scalar_bool",
            [true, false, true, true, false],
            true,
            Endian::Little
        ),
        scalar!(
            "rust_v3_scalar_int8",
            [i8::MIN, -1, 0, 1, i8::MAX],
            -7i8,
            Endian::Little
        ),
        scalar!(
            "rust_v3_scalar_int16",
            [i16::MIN, -1, 0, 1, i16::MAX],
            -7i16,
            Endian::Big
        ),
        scalar!(
            "rust_v3_scalar_int32",
            [i32::MIN, -1, 0, 1, i32::MAX],
            -7i32,
            Endian::Little
        ),
        scalar!(
            "rust_v3_scalar_int64",
            [i64::MIN, -1, 0, 1, i64::MAX],
            i64::MIN,
            Endian::Big
        ),
        scalar!(
            "rust_v3_scalar_uint8",
            [0u8, 1, 127, 128, 255],
            255u8,
            Endian::Little
        ),
        scalar!(
            "rust_v3_scalar_uint16",
            [0u16, 1, 2, 3, u16::MAX],
            9u16,
            Endian::Little
        ),
        scalar!(
            "rust_v3_scalar_uint32",
            [0u32, 1, 2, 3, u32::MAX],
            9u32,
            Endian::Big
        ),
        scalar!(
            "rust_v3_scalar_uint64",
            [0u64, 1, 2, 3, u64::MAX],
            u64::MAX,
            Endian::Little
        ),
        scalar!(
            "rust_v3_scalar_float16",
            [
                f16::from_f32(0.1),
                f16::NEG_INFINITY,
                f16::from_bits(0x8000),
                f16::MAX,
                f16::from_bits(0x0001)
            ],
            f16::from_f32(-0.0),
            Endian::Little
        ),
        scalar!(
            "rust_v3_scalar_float32",
            [0.1f32, f32::NAN, -0.0, f32::INFINITY, f32_bits(0x7fc0_0001)],
            f32_bits(0x7fc0_0001),
            Endian::Big
        ),
        scalar!(
            "rust_v3_scalar_float64",
            [0.1f64, f64::NAN, -0.0, f64::NEG_INFINITY, 1e-310],
            -0.0f64,
            Endian::Little
        ),
        scalar!(
            "rust_v3_scalar_complex64",
            [
                Complex::new(1.0f32, -2.0),
                Complex::new(f32::NAN, 0.0),
                Complex::new(-0.0, f32::INFINITY),
                Complex::new(0.5, 0.25),
                Complex::new(3.0, 4.0)
            ],
            Complex::new(1.0f32, f32::NAN),
            Endian::Little
        ),
        scalar!(
            "rust_v3_scalar_complex128",
            [
                Complex::new(1.0f64, -2.0),
                Complex::new(f64::NAN, 0.0),
                Complex::new(-0.0, f64::INFINITY),
                Complex::new(0.5, 0.25),
                Complex::new(3.0, 4.0)
            ],
            Complex::new(f64::NEG_INFINITY, -0.0),
            Endian::Big
        ),
    ]
}

/// Writes `case` under `root` and returns its expected-values document.
fn write_case(root: &Path, case: &Case) -> Json {
    let dir = root.join(format!("{}.zarr", case.name));
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join(case.metadata_file),
        serde_json::to_string_pretty(&case.metadata).unwrap(),
    )
    .unwrap();
    let mut keys = Vec::new();
    for (key, bytes) in &case.stored {
        let path = dir.join(key);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, bytes).unwrap();
        keys.push(key.clone());
    }
    keys.sort();
    // What a reader sees: the values stored in our layout, viewed in NumPy's.
    let reader = &case.reader_layout;
    let seen: Vec<Value> = reader
        .decode_values(&reader.encode_values(&case.values).unwrap())
        .unwrap();
    let fill = case.fill.as_ref().map(|fill| {
        let bytes = reader.encode_value(fill).unwrap();
        (
            typed(&reader.decode_value(&bytes).unwrap(), reader),
            hex_encode(&bytes),
        )
    });
    json!({
        "case": case.name,
        "description": case.description,
        "writer": {"zarr": format!("zarrdt {}", env!("CARGO_PKG_VERSION"))},
        "zarr_format": case.zarr_format,
        "path": format!("{}.zarr", case.name),
        "shape": case.shape,
        "chunks": case.chunks,
        "dtype_descr": reader.to_v2_json().unwrap(),
        "itemsize": reader.size(),
        "padding_fields": [],
        "fill_value": fill.as_ref().map(|(typed, _)| typed.clone()),
        "fill_value_hex": fill.as_ref().map(|(_, hex)| hex.clone()),
        "values": seen.iter().map(|value| typed(value, reader)).collect::<Vec<_>>(),
        "values_hex": hex_encode(&reader.encode_values(&case.values).unwrap()),
        "stored_chunks": keys,
        "readers": case.readers,
    })
}

/// Reads `case` back with zarrdt and checks metadata, chunks and values.
fn read_back(root: &Path, case: &Case) {
    let dir = root.join(format!("{}.zarr", case.name));
    let text = fs::read_to_string(dir.join(case.metadata_file)).unwrap();
    let (layout, fill) = if case.zarr_format == 3 {
        let meta = ArrayMetadataV3::from_json_str(&text).unwrap();
        assert_eq!(
            meta.to_json().unwrap(),
            case.metadata,
            "{}: metadata round trip",
            case.name
        );
        (meta.layout().unwrap(), Some(meta.fill_value))
    } else {
        let meta = ArrayMetadataV2::from_json_str(&text).unwrap();
        assert_eq!(
            meta.to_json().unwrap(),
            case.metadata,
            "{}: metadata round trip",
            case.name
        );
        (meta.layout, meta.fill_value)
    };
    if case.zarr_format == 3 {
        // v3 JSON has no arrays: a Rust array field reads back in its struct form (fields
        // "0", "1", ...), the same bytes, which matches the stored layout both ways.
        layout
            .check_matches(&case.stored_layout)
            .and_then(|()| case.stored_layout.check_matches(&layout))
            .unwrap_or_else(|e| panic!("{}: layout: {e}", case.name));
        assert_eq!(
            layout.uniform_endian(),
            case.stored_layout.uniform_endian(),
            "{}: byte order",
            case.name
        );
    } else {
        assert_eq!(layout, case.stored_layout, "{}: layout", case.name);
    }
    let fill_bytes = fill.as_ref().map(|fill| layout.encode_value(fill).unwrap());
    assert_eq!(
        fill_bytes,
        case.fill
            .as_ref()
            .map(|fill| layout.encode_value(fill).unwrap()),
        "{}: fill value",
        case.name
    );
    for (key, bytes) in &case.stored {
        let on_disk = fs::read(dir.join(key)).unwrap();
        assert_eq!(&on_disk, bytes, "{}: chunk {key}", case.name);
        let decoded = layout.decode_values(&on_disk).unwrap();
        assert_eq!(
            layout.encode_values(&decoded).unwrap(),
            on_disk,
            "{}: chunk {key}",
            case.name
        );
    }
}

fn output_dir() -> PathBuf {
    std::env::var_os("ZARRDT_INTEROP_OUT").map_or_else(
        || PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zarrdt-written"),
        PathBuf::from,
    )
}

#[test]
fn write_arrays_for_zarr_python() {
    let root = output_dir();
    if root.exists() {
        fs::remove_dir_all(&root).unwrap();
    }
    fs::create_dir_all(&root).unwrap();
    let cases = cases();
    assert!(cases.len() >= 25, "only {} cases", cases.len());
    let mut index = Vec::new();
    for case in &cases {
        let expected = write_case(&root, case);
        fs::write(
            root.join(format!("{}.json", case.name)),
            serde_json::to_string_pretty(&expected).unwrap(),
        )
        .unwrap();
        read_back(&root, case);
        index.push(json!({
            "name": case.name,
            "zarr_format": case.zarr_format,
            "description": case.description,
            "readers": case.readers,
        }));
    }
    let index = json!({
        "writer": {"zarr": format!("zarrdt {}", env!("CARGO_PKG_VERSION"))},
        "cases": index,
        "skipped": [],
    });
    fs::write(
        root.join("index.json"),
        serde_json::to_string_pretty(&index).unwrap(),
    )
    .unwrap();
    eprintln!("wrote {} arrays to {}", cases.len(), root.display());
}

#[test]
fn derived_types_match_their_metadata() {
    // The data types written above are the derive's; check them against the runtime model.
    Particle::check_data_type(&Particle::data_type()).unwrap();
    let meta = ArrayMetadataV3::new(
        vec![1],
        vec![1],
        Particle::data_type(),
        particle_fill().to_value(),
        Endian::Little,
    );
    let parsed = ArrayMetadataV3::from_json(&meta.to_json().unwrap()).unwrap();
    Particle::check_data_type(&parsed.data_type).unwrap();
    assert_eq!(
        Particle::from_value(&parsed.fill_value)
            .unwrap()
            .encode(Endian::Little),
        particle_fill().encode(Endian::Little)
    );
}
