//! Arrays written through zarrs by zarrdt, for real readers to read.
//!
//! Every array is created by `zarrdt::array::ArrayOptions` (`create` for derived record types
//! and Rust primitives, `create_with` for types known only at run time, `create_v2` for Zarr
//! v2 layouts) and filled as users are told to fill them (`store_records` with records, a few
//! through zarrs' element API, `store_array_subset`, as well; `store_values` with dynamic
//! values; an array with chunks large enough to be written a piece at a time): the chunk
//! grid, the chunk keys, the codecs (zstd, gzip, Blosc, sharding
//! with a crc32c index; numcodecs' zlib, bz2, lz4 and lzma through zarrdt's codec plugins)
//! and the store are zarrs'. Most arrays have parts that are never
//! written: they must read as the fill value, and the chunks (or shards) wholly inside them
//! must not exist, which the test checks through zarrs.
//!
//! The test reads every array back with zarrdt (`open_array`, then the derived type or
//! primitive, dynamic values, and one field) and checks every value and the fill bit for bit.
//! Then it writes, per array, a manifest of what a NumPy reader must see (the fixtures' typed
//! JSON, see `tests/interop/generate.py`; for types with enum fields also the `zarrdt:enums`
//! attribute) and which readers must see it: `.ci/run` has
//! zarr-python 3.4, 3.1 and 2.18 (`generate.py --check-zarrdt`) and tensorstore
//! (`tests/interop/tensorstore_check.py`) read them: each reader must read exactly the cases
//! that list it, and must not read the others as written (so that no list is understated).
//!
//! Output: `$ZARRDT_INTEROP_OUT` if set, else a directory under Cargo's target tmpdir.

#![allow(clippy::unwrap_used)]

use crate::common;

use std::any::type_name;
use std::collections::BTreeSet;
use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use half::f16;
use num_complex::Complex;
use serde_json::{Value as Json, json};
use zarrdt::advanced::ENUMS_ATTRIBUTE;
use zarrdt::array::{ArrayOptions, Compression, RecordType, StructDataType, open_array};
use zarrdt::layout::{Layout, LayoutField};
use zarrdt::time::{Milliseconds, Nanoseconds};
use zarrdt::types::{DataType, ScalarType, TimeConfig, TimeUnit};
use zarrdt::value::{Record, Value};
use zarrdt::zarrs::array::{Array, ArraySubset, Element as ZarrsElement, ElementOwned};
use zarrdt::zarrs::filesystem::FilesystemStore;
use zarrdt::zarrs::storage::ListableStorageTraits;
use zarrdt::{
    ByteString, DateTime64, Endian, FixedString, RawBytes, TimeDelta64, ZarrEnum, ZarrStruct,
    ZarrType,
};
use zarrdt::{ReadRecords, WriteRecords};

use common::records::{AllScalars, Grid, Particle};
use common::{hex_encode, typed};

// ------------------------------------------------------------------------------------------
// Record types
// ------------------------------------------------------------------------------------------

/// A flat record of core scalar types: what tensorstore reads.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Flat {
    id: u64,
    x: f32,
    y: f64,
    n: i16,
    ok: bool,
}

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

/// Text, bytes and time fields (NumPy U6, M8[ms], m8[ns], V3, S4) next to a number.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Reading {
    station: FixedString<6>,
    at: DateTime64<Milliseconds>,
    took: TimeDelta64<Nanoseconds>,
    raw: RawBytes<3>,
    tag: ByteString<4>,
    value: f32,
}

/// Enum fields (`#[derive(ZarrEnum)]`, stored as their integer `repr`) and `char` fields
/// (`U1`), alone, nested and in arrays.
#[derive(ZarrEnum, Clone, Copy, Debug, PartialEq)]
#[repr(u8)]
enum Quality {
    Good,
    Suspect = 3,
    Bad,
}

#[derive(ZarrEnum, Clone, Copy, Debug, PartialEq)]
#[repr(i16)]
enum Channel {
    Left = -1,
    Right = 1,
    Both = 300,
}

#[derive(ZarrEnum, Clone, Copy, Debug, PartialEq)]
#[repr(u64)]
enum Scale {
    Unit = 1,
    Largest = u64::MAX,
}

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Probe {
    channel: Channel,
    scale: Scale,
}

/// Enums and chars everywhere: what zarr-python 3.4 reads in Zarr v3 and 2.18 in Zarr v2.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Observed {
    id: u32,
    quality: Quality,
    history: [Quality; 3],
    probe: Probe,
    grade: char,
    initials: [char; 2],
}

/// Enums and a char without arrays or nesting: a v2 dtype every zarr-python reads.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Graded {
    quality: Quality,
    channel: Channel,
    grade: char,
    value: f64,
}

// ------------------------------------------------------------------------------------------
// Cases
// ------------------------------------------------------------------------------------------

/// The zarr-python series that read Zarr v3 struct arrays (3.1 reads only the legacy
/// `structured` it wrote itself, and 2.18 no Zarr v3 at all).
const V3_STRUCT_READERS: &[&str] = &["3.4"];
/// The zarr-python series that read Zarr v3 arrays of core scalar types.
const V3_SCALAR_READERS: &[&str] = &["3.4", "3.1"];

/// One array to write: where, its grid, codecs and byte order, what is written.
#[derive(Clone)]
struct Spec {
    name: &'static str,
    description: &'static str,
    shape: Vec<u64>,
    /// The chunk shape (inside shards when sharded).
    chunks: Vec<u64>,
    shards: Option<Vec<u64>>,
    endian: Endian,
    compression: Compression,
    /// The regions written, each a range per dimension; the rest is never written.
    regions: Vec<Vec<Range<u64>>>,
    /// Records written through zarrs' element API (`store_array_subset`), not through
    /// `store_records`.
    via_zarrs: bool,
    /// Positions in the grid (of shards, when sharded) of the chunks never written: they
    /// must not exist, and every other one must.
    missing: Vec<Vec<u64>>,
    /// A numcodecs codec (its id and configuration) after the array's codecs, as zarr-python
    /// writes it (v3: `numcodecs.<id>` last in `codecs`; v2: the only filter), put in the
    /// metadata before anything is stored: an array zarrdt did not make, written into.
    numcodecs: Option<(&'static str, Json)>,
}

impl Spec {
    fn new(name: &'static str, description: &'static str, shape: &[u64], chunks: &[u64]) -> Self {
        Spec {
            name,
            description,
            shape: shape.to_vec(),
            chunks: chunks.to_vec(),
            shards: None,
            endian: Endian::Little,
            compression: Compression::None,
            regions: vec![shape.iter().map(|&extent| 0..extent).collect()],
            missing: Vec::new(),
            via_zarrs: false,
            numcodecs: None,
        }
    }

    /// Adds numcodecs' codec `id` with `configuration` after the array's codecs.
    fn numcodecs(mut self, id: &'static str, configuration: Json) -> Self {
        self.numcodecs = Some((id, configuration));
        self
    }

    /// Writes the records through zarrs' element API (`store_array_subset`), which works on
    /// the same arrays, rather than through `store_records`.
    fn via_zarrs(mut self) -> Self {
        self.via_zarrs = true;
        self
    }

    fn shards(mut self, shards: &[u64]) -> Self {
        self.shards = Some(shards.to_vec());
        self
    }

    fn big(mut self) -> Self {
        self.endian = Endian::Big;
        self
    }

    fn compression(mut self, compression: Compression) -> Self {
        self.compression = compression;
        self
    }

    /// Writes only `regions`; the chunks at `missing` are then never written.
    fn partial(mut self, regions: &[&[Range<u64>]], missing: &[&[u64]]) -> Self {
        self.regions = regions.iter().map(|region| region.to_vec()).collect();
        self.missing = missing.iter().map(|position| position.to_vec()).collect();
        self
    }

    fn options(&self) -> ArrayOptions {
        let options = ArrayOptions::new(self.shape.clone(), self.chunks.clone())
            .endian(self.endian)
            .compression(self.compression.clone());
        match &self.shards {
            Some(shards) => options.shards(shards.clone()),
            None => options,
        }
    }

    fn len(&self) -> usize {
        usize::try_from(self.shape.iter().product::<u64>()).unwrap()
    }

    /// The flat C-order indices of the elements of `region`, in C order.
    fn indices(&self, region: &[Range<u64>]) -> Vec<usize> {
        let mut flat = vec![0u64];
        for (range, extent) in region.iter().zip(&self.shape) {
            assert!(
                range.end <= *extent,
                "{}: region beyond the shape",
                self.name
            );
            flat = flat
                .iter()
                .flat_map(|&outer| range.clone().map(move |i| outer * extent + i))
                .collect();
        }
        flat.into_iter()
            .map(|i| usize::try_from(i).unwrap())
            .collect()
    }

    /// Every element as written: `value(i)` in the regions, `fill` elsewhere.
    fn expected<T: Clone>(&self, fill: &T, value: &impl Fn(usize) -> T) -> Vec<T> {
        let mut all = vec![fill.clone(); self.len()];
        for region in &self.regions {
            for i in self.indices(region) {
                all[i] = value(i);
            }
        }
        all
    }

    fn store(&self, root: &Path) -> Arc<FilesystemStore> {
        let dir = root.join(format!("{}.zarr", self.name));
        fs::create_dir_all(&dir).unwrap();
        Arc::new(FilesystemStore::new(&dir).unwrap())
    }

    /// `array`, just created under `root` and empty, with the [`Spec::numcodecs`] codec (if
    /// any) put in its metadata and opened again by zarrdt.
    fn with_numcodecs(
        &self,
        root: &Path,
        store: &Arc<FilesystemStore>,
        array: Array<FilesystemStore>,
    ) -> Array<FilesystemStore> {
        let Some((id, configuration)) = &self.numcodecs else {
            return array;
        };
        let dir = root.join(format!("{}.zarr", self.name));
        let (file, codec) = if dir.join("zarr.json").exists() {
            let codec = json!({"name": format!("numcodecs.{id}"), "configuration": configuration});
            ("zarr.json", codec)
        } else {
            let mut codec = configuration.clone();
            codec["id"] = json!(id);
            (".zarray", codec)
        };
        let path = dir.join(file);
        let mut metadata: Json = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        match file {
            "zarr.json" => metadata["codecs"].as_array_mut().unwrap().push(codec),
            _ => metadata["filters"] = json!([codec]),
        }
        fs::write(&path, serde_json::to_vec_pretty(&metadata).unwrap()).unwrap();
        open_array(store.clone(), "/")
            .unwrap_or_else(|e| panic!("{}: opening with {id}: {e}", self.name))
    }
}

/// An array written, and what it must read as.
struct Written {
    spec: Spec,
    zarr_format: u8,
    /// zarr-python series that must read it ("3.4", "3.1", "2.18"), and "tensorstore".
    readers: Vec<&'static str>,
    /// The layout `values` and `fill` are in: little-endian packed for Zarr v3, the stored
    /// layout for Zarr v2.
    layout: Layout,
    fill: Option<Value>,
    values: Vec<Value>,
    /// The Rust type the records were written as, if any.
    rust_type: Option<&'static str>,
    /// The attributes zarrdt wrote for the type (the variants of its enum fields), which
    /// the readers must see.
    attributes: Option<Json>,
}

impl Written {
    /// Takes `series` off the zarr-python readers: they do not read this array as written
    /// (which `generate.py --check-zarrdt` checks: they must not).
    fn not_read_by(mut self, series: &[&str]) -> Self {
        self.readers.retain(|reader| !series.contains(reader));
        self
    }
}

/// A Zarr v3 array of a derived record type or Rust primitive: `create::<T>`, records stored
/// with `store_records` (or zarrs' `store_array_subset`), read back as `T`s through
/// `open_array`.
fn typed_v3<T>(root: &Path, spec: Spec, fill: T, value: impl Fn(usize) -> T) -> Written
where
    T: ZarrType + ZarrsElement + ElementOwned + Clone + Sync,
{
    let store = spec.store(root);
    let array = spec.options().create(store.clone(), "/", &fill).unwrap();
    let array = spec.with_numcodecs(root, &store, array);
    store_typed(&array, &spec, &value);
    let expected = spec.expected(&fill, &value);
    check_typed(store, &spec, &expected);
    let readers = if T::data_type().as_struct().is_some() {
        V3_STRUCT_READERS
    } else {
        V3_SCALAR_READERS
    };
    Written {
        readers: readers.to_vec(),
        zarr_format: 3,
        layout: T::layout(Endian::Little),
        fill: Some(fill.to_value()),
        values: expected.iter().map(ZarrType::to_value).collect(),
        rust_type: Some(type_name::<T>()),
        attributes: enum_attributes::<T>(),
        spec,
    }
}

/// The attributes zarrdt writes for arrays of `T`: the `zarrdt:enums` of its enum fields.
fn enum_attributes<T: ZarrType>() -> Option<Json> {
    T::TYPE
        .enums_attribute()
        .map(|enums| json!({ ENUMS_ATTRIBUTE: enums }))
}

/// A Zarr v3 array of a type known at run time: `create_with`, values stored with
/// `store_values`.
fn dynamic_v3(
    root: &Path,
    spec: Spec,
    data_type: &DataType,
    fill: Value,
    value: impl Fn(usize) -> Value,
) -> Written {
    let store = spec.store(root);
    let array = spec
        .options()
        .create_with(store, "/", data_type, &fill)
        .unwrap();
    store_dynamic(&array, &spec, &value);
    let readers = if data_type.as_struct().is_some() {
        V3_STRUCT_READERS
    } else {
        V3_SCALAR_READERS
    };
    Written {
        readers: readers.to_vec(),
        zarr_format: 3,
        layout: Layout::from_data_type(data_type, Some(Endian::Little)).unwrap(),
        values: spec.expected(&fill, &value),
        fill: Some(fill),
        rust_type: None,
        attributes: None,
        spec,
    }
}

/// A Zarr v2 array of a derived record type in `spec.endian`: `create_v2` with
/// `T::layout(endian)`, records stored with `store_array_subset`, read back as `T`s.
fn typed_v2<T>(
    root: &Path,
    spec: Spec,
    readers: &[&'static str],
    fill: Option<T>,
    value: impl Fn(usize) -> T,
) -> Written
where
    T: ZarrType + ZarrsElement + ElementOwned + Clone + Sync,
{
    let store = spec.store(root);
    let layout = T::layout(spec.endian);
    let fill_value = fill.as_ref().map(ZarrType::to_value);
    let array = spec
        .options()
        .enums_of::<T>()
        .create_v2(store.clone(), "/", &layout, fill_value.as_ref())
        .unwrap();
    let array = spec.with_numcodecs(root, &store, array);
    store_typed(&array, &spec, &value);
    // A null fill reads as the zero record, as NumPy fills it.
    let padding = fill.clone().unwrap_or_else(|| {
        T::from_value(&layout.zero_value()).unwrap_or_else(|e| panic!("{}: {e}", spec.name))
    });
    let expected = spec.expected(&padding, &value);
    check_typed(store, &spec, &expected);
    Written {
        readers: readers.to_vec(),
        zarr_format: 2,
        layout,
        fill: fill_value,
        values: expected.iter().map(ZarrType::to_value).collect(),
        rust_type: Some(type_name::<T>()),
        attributes: enum_attributes::<T>(),
        spec,
    }
}

/// A Zarr v2 array of values stored in `layout` (per-field byte order, subarrays):
/// `create_v2`, values stored with `store_values`.
fn dynamic_v2(
    root: &Path,
    spec: Spec,
    readers: &[&'static str],
    layout: Layout,
    fill: Option<Value>,
    value: impl Fn(usize) -> Value,
) -> Written {
    let store = spec.store(root);
    let array = spec
        .options()
        .create_v2(store, "/", &layout, fill.as_ref())
        .unwrap();
    store_dynamic(&array, &spec, &value);
    let padding = fill.clone().unwrap_or_else(|| layout.zero_value());
    Written {
        readers: readers.to_vec(),
        zarr_format: 2,
        values: spec.expected(&padding, &value),
        layout,
        fill,
        rust_type: None,
        attributes: None,
        spec,
    }
}

fn store_typed<T: ZarrType + ZarrsElement + Sync>(
    array: &Array<FilesystemStore>,
    spec: &Spec,
    value: &impl Fn(usize) -> T,
) {
    for region in &spec.regions {
        let records: Vec<T> = spec.indices(region).into_iter().map(value).collect();
        let subset = ArraySubset::new_with_ranges(region);
        if spec.via_zarrs {
            array
                .store_array_subset(&subset, &records)
                .map_err(|e| e.to_string())
        } else {
            array
                .store_records(&subset, &records)
                .map_err(|e| e.to_string())
        }
        .unwrap_or_else(|e| panic!("{}: storing {region:?}: {e}", spec.name));
    }
}

fn store_dynamic(array: &Array<FilesystemStore>, spec: &Spec, value: &impl Fn(usize) -> Value) {
    for region in &spec.regions {
        let values: Vec<Value> = spec.indices(region).into_iter().map(value).collect();
        array
            .store_values(&ArraySubset::new_with_ranges(region), &values)
            .unwrap_or_else(|e| panic!("{}: storing {region:?}: {e}", spec.name));
    }
}

/// The array opened again by zarrdt reads as `expected` in `T`s, bit for bit.
fn check_typed<T>(store: Arc<FilesystemStore>, spec: &Spec, expected: &[T])
where
    T: ZarrType + ElementOwned,
{
    let opened = open_array(store, "/").unwrap();
    let back: Vec<T> = opened
        .retrieve_array_subset(&opened.subset_all())
        .unwrap_or_else(|e| panic!("{}: reading {}s: {e}", spec.name, type_name::<T>()));
    assert_eq!(
        T::encode_slice(&back, Endian::Little),
        T::encode_slice(expected, Endian::Little),
        "{}: the {}s read back",
        spec.name,
        type_name::<T>()
    );
}

// ------------------------------------------------------------------------------------------
// Values
// ------------------------------------------------------------------------------------------

/// Float32 bit patterns: 1, -0.0, ±inf, NaN, NaN with payloads (quiet, negative, signalling),
/// the smallest subnormal, the largest finite.
const F32_BITS: [u32; 10] = [
    0x3f80_0000,
    0x8000_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x7fc0_0abc,
    0xffc0_0001,
    0x7f80_0001,
    0x0000_0001,
    0x7f7f_ffff,
];
/// Float64 bit patterns, the same kinds.
const F64_BITS: [u64; 10] = [
    0x3ff8_0000_0000_0000,
    0x8000_0000_0000_0000,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x7ff8_0000_0000_0000,
    0x7ff8_dead_beef_0001,
    0xfff8_0000_0000_0bad,
    0x7ff0_0000_0000_0001,
    0x0000_0000_0000_0001,
    0x7fef_ffff_ffff_ffff,
];

fn f32_at(i: usize) -> f32 {
    f32::from_bits(F32_BITS[i % F32_BITS.len()])
}

fn f64_at(i: usize) -> f64 {
    f64::from_bits(F64_BITS[i % F64_BITS.len()])
}

fn small(i: usize) -> u64 {
    u64::try_from(i).unwrap()
}

fn flat(i: usize) -> Flat {
    let k = small(i);
    Flat {
        id: k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
        x: f32_at(i),
        y: f64_at(i + 3),
        n: [i16::MIN, -1, 0, 1, i16::MAX][i % 5],
        ok: i.is_multiple_of(3),
    }
}

/// A fill with a NaN payload, -inf and extremes.
fn flat_fill() -> Flat {
    Flat {
        id: u64::MAX,
        x: f32::from_bits(0x7fc0_0123),
        y: f64::NEG_INFINITY,
        n: i16::MIN,
        ok: true,
    }
}

/// A fill with -0.0 and a negative NaN with a payload.
fn flat_fill_negative() -> Flat {
    Flat {
        id: 0,
        x: -0.0,
        y: f64::from_bits(0xfff8_0000_0000_0bad),
        n: -1,
        ok: false,
    }
}

fn particle(i: usize) -> Particle {
    let k = u8::try_from(i % 200).unwrap();
    Particle {
        id: small(i) * 1_000_000_007,
        pos: [f32::from(k), -f32::from(k) / 4.0, f32_at(i + 1)],
        mass: f64_at(i),
        alive: i.is_multiple_of(2),
    }
}

fn particle_fill() -> Particle {
    Particle {
        id: u64::MAX,
        pos: [f32::from_bits(0x7fc0_0001), -0.0, f32::INFINITY],
        mass: f64::NEG_INFINITY,
        alive: true,
    }
}

fn all_scalars(i: usize) -> AllScalars {
    let extremes = [
        (true, i8::MIN, i16::MIN, i32::MIN, i64::MIN, 0, 0, 0, 0),
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
    let (b, i8v, i16v, i32v, i64v, u8v, u16v, u32v, u64v) = extremes[i % 4];
    let f16_bits = [0x0001, 0x7e01, 0xfc00, 0x8000, 0x3c00, 0x7bff];
    AllScalars {
        b,
        i8: i8v,
        i16: i16v,
        i32: i32v,
        i64: i64v,
        u8: u8v,
        u16: u16v,
        u32: u32v,
        u64: u64v,
        f16: f16::from_bits(f16_bits[i % f16_bits.len()]),
        f32: f32_at(i),
        f64: f64_at(i + 1),
        c64: Complex::new(f32_at(i + 2), f32_at(i + 5)),
        c128: Complex::new(f64_at(i + 4), f64_at(i + 7)),
    }
}

fn outer(i: usize) -> Outer {
    Outer {
        inner: Inner {
            x: f32_at(i),
            y: [-2, i16::MAX, 0, i16::MIN][i % 4],
        },
        flag: i % 2 == 1,
        weight: f64_at(i + 2),
    }
}

fn outer_fill() -> Outer {
    Outer {
        inner: Inner {
            x: f32::from_bits(0x7fc0_0042),
            y: 1,
        },
        flag: false,
        weight: -0.0,
    }
}

fn grid(i: usize) -> Grid {
    let k = i16::try_from(i).unwrap();
    Grid {
        cells: [[k, -k], [k * 100, i16::MIN + k], [i16::MAX - k, 7]],
    }
}

fn grid_fill() -> Grid {
    Grid {
        cells: [[-1, -2], [-3, -4], [-5, -6]],
    }
}

fn reading(i: usize) -> Reading {
    let stations = ["", "héllo", "𝄞z", "ABCDEF", "日本"];
    let tags: [&[u8]; 4] = [b"", b"ab", b"wxyz", b"\xff\x01"];
    let k = i64::try_from(i).unwrap();
    Reading {
        station: FixedString::new(stations[i % stations.len()]).unwrap(),
        at: DateTime64::new([0, i64::MIN, -1, 1_700_000_000_000 + k][i % 4]),
        took: TimeDelta64::new([i64::MIN, 0, k * 1_000_000_007, -5][i % 4]),
        raw: RawBytes::new([u8::try_from(i % 256).unwrap(), 0, 255]),
        tag: ByteString::new(tags[i % tags.len()]).unwrap(),
        value: f32_at(i),
    }
}

fn reading_fill() -> Reading {
    Reading {
        station: FixedString::new("fill").unwrap(),
        at: DateTime64::new(i64::MIN),
        took: TimeDelta64::new(-1),
        raw: RawBytes::new([4, 5, 6]),
        tag: ByteString::new(b"xy").unwrap(),
        value: f32::from_bits(0xffc0_0001),
    }
}

fn observed(i: usize) -> Observed {
    let qualities = [Quality::Good, Quality::Suspect, Quality::Bad];
    let quality = |k: usize| qualities[(i + k) % qualities.len()];
    let letters = ['a', 'é', '𝄞', '\0', '\u{10ffff}', 'Z', '日'];
    let letter = |k: usize| letters[(i + k) % letters.len()];
    Observed {
        id: u32::try_from(i).unwrap() * 7919,
        quality: quality(0),
        history: [quality(1), quality(2), quality(0)],
        probe: Probe {
            channel: [Channel::Left, Channel::Right, Channel::Both][i % 3],
            scale: [Scale::Unit, Scale::Largest][i % 2],
        },
        grade: letter(0),
        initials: [letter(1), letter(3)],
    }
}

fn observed_fill() -> Observed {
    Observed {
        id: u32::MAX,
        quality: Quality::Bad,
        history: [Quality::Suspect, Quality::Good, Quality::Bad],
        probe: Probe {
            channel: Channel::Both,
            scale: Scale::Largest,
        },
        grade: '∅',
        initials: ['\0', 'x'],
    }
}

fn graded(i: usize) -> Graded {
    Graded {
        quality: [Quality::Suspect, Quality::Good, Quality::Bad][i % 3],
        channel: [Channel::Both, Channel::Left, Channel::Right][i % 3],
        grade: ['ü', 'A', '\0', '🦀'][i % 4],
        value: f64_at(i),
    }
}

fn graded_fill() -> Graded {
    Graded {
        quality: Quality::Good,
        channel: Channel::Left,
        grade: 'z',
        value: -0.0,
    }
}

fn record(fields: Vec<(&str, Value)>) -> Value {
    Value::Record(fields.into_iter().collect::<Record>())
}

/// A struct of `numpy.datetime64` (10 s), `numpy.timedelta64` (ms), `fixed_length_utf32`,
/// `raw_bytes` and `null_terminated_bytes`, known only at run time.
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
    record(vec![
        ("t", Value::DateTime64(t)),
        ("d", Value::TimeDelta64(d)),
        ("s", Value::String(s.into())),
        ("raw", Value::Bytes(raw.to_vec())),
        ("bs", Value::Bytes(bs.to_vec())),
    ])
}

fn extension_value(i: usize) -> Value {
    let k = i64::try_from(i).unwrap();
    match i % 3 {
        0 => extension_record(k, 1, "héé", [1, 2, 3], b"ab"),
        1 => extension_record(i64::MIN, i64::MIN, "", [0, 0, 255], b"hello"),
        _ => extension_record(-5 * k, 86_400_000, "𝄞z", [9, 8, 7], b""),
    }
}

/// A struct of core types known only at run time: a time, a channel, a complex sample.
fn sample_struct() -> DataType {
    DataType::from_v3_json(&json!({"name": "struct", "configuration": {"fields": [
        {"name": "time", "data_type": "float64"},
        {"name": "channel", "data_type": "uint16"},
        {"name": "sample", "data_type": "complex128"},
        {"name": "level", "data_type": "int8"}
    ]}}))
    .unwrap()
}

fn sample_value(i: usize) -> Value {
    record(vec![
        ("time", Value::Float64(f64_at(i))),
        (
            "channel",
            Value::UInt16(u16::try_from(i * 4099 % 65536).unwrap()),
        ),
        (
            "sample",
            Value::Complex128(Complex::new(f64_at(i + 1), f64_at(i + 6))),
        ),
        ("level", Value::Int8([i8::MIN, -1, 0, i8::MAX][i % 4])),
    ])
}

fn sample_fill() -> Value {
    record(vec![
        (
            "time",
            Value::Float64(f64::from_bits(0x7ff8_0000_0000_0123)),
        ),
        ("channel", Value::UInt16(u16::MAX)),
        (
            "sample",
            Value::Complex128(Complex::new(f64::NEG_INFINITY, -0.0)),
        ),
        ("level", Value::Int8(-7)),
    ])
}

/// A v2 layout with one byte order per field and a subarray field:
/// `[a <i4, b >f8, c >c8 (2,), d |b1, e >u2]`.
fn mixed_layout() -> Layout {
    Layout::from_v2_json(&json!([
        ["a", "<i4"],
        ["b", ">f8"],
        ["c", ">c8", [2]],
        ["d", "|b1"],
        ["e", ">u2"]
    ]))
    .unwrap()
}

fn mixed_value(i: usize) -> Value {
    let complex = |j: usize| Value::Complex64(Complex::new(f32_at(j), f32_at(j + 3)));
    record(vec![
        ("a", Value::Int32([i32::MIN, 1, -7, i32::MAX, 0][i % 5])),
        ("b", Value::Float64(f64_at(i))),
        (
            "c",
            Value::Subarray(
                zarrdt::value::SubarrayValue::new(vec![2], vec![complex(i), complex(i + 1)])
                    .unwrap(),
            ),
        ),
        ("d", Value::Bool(i.is_multiple_of(2))),
        ("e", Value::UInt16(u16::try_from(i * 1000 % 65536).unwrap())),
    ])
}

fn mixed_fill() -> Value {
    record(vec![
        ("a", Value::Int32(1)),
        ("b", Value::Float64(f64::from_bits(0x7ff8_dead_beef_0001))),
        (
            "c",
            Value::Subarray(
                zarrdt::value::SubarrayValue::new(
                    vec![2],
                    vec![
                        Value::Complex64(Complex::new(f32::NAN, -0.0)),
                        Value::Complex64(Complex::new(f32::NEG_INFINITY, 1.0)),
                    ],
                )
                .unwrap(),
            ),
        ),
        ("d", Value::Bool(true)),
        ("e", Value::UInt16(9)),
    ])
}

// ------------------------------------------------------------------------------------------
// The case table
// ------------------------------------------------------------------------------------------

const ZSTD: Compression = Compression::Zstd { level: 3 };
const GZIP: Compression = Compression::Gzip { level: 5 };
const BLOSC: Compression = Compression::BloscLz4 { level: 5 };

/// A one-dimensional array of 12 in chunks of 3 whose chunk 2 is never written and whose
/// chunks 1 and 3 are written in part.
fn flat_spec(name: &'static str, description: &'static str) -> Spec {
    Spec::new(name, description, &[12], &[3]).partial(&[&[0..4], &[9..11]], &[&[2]])
}

/// Shards of 8 in chunks of 2 over 24 elements: shard 1 never written; in shard 0 one chunk
/// written in part and one not at all; shard 2 written in part.
fn sharded_spec(name: &'static str, description: &'static str) -> Spec {
    Spec::new(name, description, &[24], &[2])
        .shards(&[8])
        .partial(&[&[0..5], &[17..20]], &[&[1]])
}

#[allow(clippy::too_many_lines)]
fn write_cases(root: &Path) -> Vec<Written> {
    let mut cases =
        vec![
        // ---- flat records of core types (what tensorstore reads), every codec, both orders
        typed_v3(
            root,
            flat_spec(
                "rust_v3_flat",
                "derived Flat{id:u64,x:f32,y:f64,n:i16,ok:bool}, little endian, uncompressed, \
                 NaN-payload fill, chunk 2 never written, chunks 1 and 3 in part",
            ),
            flat_fill(),
            flat,
        ),
        typed_v3(
            root,
            flat_spec("rust_v3_flat_big_zstd", "derived Flat, big endian, zstd")
                .big()
                .compression(ZSTD),
            flat_fill_negative(),
            flat,
        ),
        typed_v3(
            root,
            flat_spec("rust_v3_flat_zstd", "derived Flat, little endian, zstd").compression(ZSTD),
            flat_fill(),
            flat,
        ),
        typed_v3(
            root,
            flat_spec(
                "rust_v3_flat_gzip_big",
                "derived Flat, big endian, gzip",
            )
            .big()
            .compression(GZIP)
            .via_zarrs(),
            flat_fill(),
            flat,
        ),
        typed_v3(
            root,
            flat_spec("rust_v3_flat_blosc", "derived Flat, little endian, Blosc LZ4 shuffle")
                .compression(BLOSC),
            flat_fill_negative(),
            flat,
        ),
        // ---- a chunk of 1 MiB and more, uncompressed: written a piece at a time
        typed_v3(
            root,
            Spec::new(
                "rust_v3_flat_large",
                "derived Flat, little endian, uncompressed chunks of 45 600 records (1.05 MB, \
                 written a piece of 512 KiB at a time), the first 25 000 records the fill \
                 value, an edge chunk",
                &[80_000],
                &[45_600],
            ),
            flat_fill(),
            |i| if i < 25_000 { flat_fill() } else { flat(i) },
        ),
        typed_v3(
            root,
            sharded_spec(
                "rust_v3_flat_sharded",
                "derived Flat, little endian, zstd inside shards of 8 chunks of 2 (crc32c index); \
                 shard 1 never written",
            )
            .compression(ZSTD),
            flat_fill(),
            flat,
        ),
        typed_v3(
            root,
            sharded_spec(
                "rust_v3_flat_sharded_big",
                "derived Flat, big endian, uncompressed shards (crc32c index); shard 1 never \
                 written",
            )
            .big(),
            flat_fill_negative(),
            flat,
        ),
        typed_v3(
            root,
            Spec::new(
                "rust_v3_flat_2d_sharded_big",
                "derived Flat, 2-D (6, 5) in shards (4, 4) of chunks (2, 2), big endian, gzip; \
                 shard (1, 1) never written",
                &[6, 5],
                &[2, 2],
            )
            .shards(&[4, 4])
            .big()
            .compression(GZIP)
            .partial(&[&[0..3, 0..5], &[5..6, 0..2]], &[&[1, 1]]),
            flat_fill(),
            flat,
        ),
        dynamic_v3(
            root,
            sharded_spec(
                "rust_v3_dynamic_sharded_big",
                "run-time struct {time:float64, channel:uint16, sample:complex128, level:int8} \
                 (create_with, store_values), big endian, Blosc inside shards",
            )
            .big()
            .compression(BLOSC),
            &sample_struct(),
            sample_fill(),
            sample_value,
        ),
        typed_v3(
            root,
            Spec::new(
                "rust_v3_all_scalars",
                "derived struct of every core scalar type (extremes, NaN payloads, subnormals), \
                 little endian, uncompressed",
                &[4],
                &[3],
            ),
            all_scalars(0),
            |i| all_scalars(i + 1),
        ),
        typed_v3(
            root,
            Spec::new(
                "rust_v3_all_scalars_big_blosc",
                "derived struct of every core scalar type, big endian, Blosc, chunk 2 never \
                 written",
                &[6],
                &[2],
            )
            .big()
            .compression(BLOSC)
            .partial(&[&[0..4]], &[&[2]]),
            all_scalars(3),
            all_scalars,
        ),
        typed_v3(
            root,
            Spec::new(
                "rust_v3_tuple_renamed",
                "derived tuple struct with renamed fields \"foo.mask\" and \"température\" and \
                 field \"2\", gzip",
                &[3],
                &[2],
            )
            .compression(GZIP),
            Tagged(9, 1.0, 1),
            |i| {
                [
                    Tagged(1, 2.5, -3),
                    Tagged(255, -0.0, i32::MAX),
                    Tagged(0, f64::NAN, 0),
                ][i]
                    .clone()
            },
        ),
        typed_v3(
            root,
            Spec::new(
                "rust_v3_single_bytes",
                "derived struct of bool, i8, u8 only: the bytes codec has no endian; zstd",
                &[4],
                &[4],
            )
            .compression(ZSTD),
            SingleBytes {
                flag: true,
                small: 5,
                level: 6,
            },
            |i| SingleBytes {
                flag: i % 2 == 0,
                small: [-128, 127, 0, -1][i],
                level: [255, 0, 1, 128][i],
            },
        ),
        // ---- records that are not flat: array fields, nested records
        typed_v3(
            root,
            Spec::new(
                "rust_v3_particle",
                "derived Particle{id,pos:[f32;3],mass,alive} (an array field: a struct of fields \
                 \"0\", \"1\", \"2\" in v3), little endian, zstd, NaN-payload fill, chunk 1 \
                 never written",
                &[7],
                &[3],
            )
            .compression(ZSTD)
            .partial(&[&[0..3], &[6..7]], &[&[1]]),
            particle_fill(),
            particle,
        ),
        typed_v3(
            root,
            Spec::new(
                "rust_v3_particle_big_gzip",
                "derived Particle, big endian, gzip",
                &[7],
                &[3],
            )
            .big()
            .compression(GZIP),
            particle_fill(),
            particle,
        ),
        typed_v3(
            root,
            sharded_spec(
                "rust_v3_particle_sharded",
                "derived Particle, little endian, Blosc inside shards (crc32c index), shard 1 \
                 never written",
            )
            .compression(BLOSC)
            .via_zarrs(),
            particle_fill(),
            particle,
        ),
        typed_v3(
            root,
            Spec::new(
                "rust_v3_grid_2d",
                "derived Grid{cells:[[i16;2];3]} (nested arrays: structs of structs in v3), 2-D \
                 (3, 4) in chunks (2, 3), big endian, zstd, chunk (1, 1) never written",
                &[3, 4],
                &[2, 3],
            )
            .big()
            .compression(ZSTD)
            .partial(&[&[0..2, 0..4], &[2..3, 0..3]], &[&[1, 1]]),
            grid_fill(),
            grid,
        ),
        typed_v3(
            root,
            Spec::new(
                "rust_v3_nested",
                "derived Outer{inner:Inner{x,y},flag,weight}, little endian, zstd",
                &[5],
                &[2],
            )
            .compression(ZSTD),
            outer_fill(),
            outer,
        ),
        typed_v3(
            root,
            sharded_spec(
                "rust_v3_nested_sharded_big",
                "derived Outer, big endian, gzip inside shards, shard 1 never written",
            )
            .big()
            .compression(GZIP),
            outer_fill(),
            outer,
        ),
        // ---- extension types
        typed_v3(
            root,
            Spec::new(
                "rust_v3_reading",
                "derived Reading{station:U6, at:M8[ms], took:m8[ns], raw:V3, tag:S4, value:f32} \
                 (fixed_length_utf32, numpy.datetime64/timedelta64 with NaT, raw_bytes, \
                 null_terminated_bytes), little endian, zstd, chunk 1 never written",
                &[7],
                &[3],
            )
            .compression(ZSTD)
            .partial(&[&[0..3], &[6..7]], &[&[1]]),
            reading_fill(),
            reading,
        ),
        typed_v3(
            root,
            Spec::new(
                "rust_v3_reading_big",
                "derived Reading, big endian, gzip",
                &[5],
                &[2],
            )
            .big()
            .compression(GZIP),
            reading_fill(),
            reading,
        ),
        dynamic_v3(
            root,
            Spec::new(
                "rust_v3_extension_fields",
                "run-time struct of numpy.datetime64 (10 s), numpy.timedelta64 (ms), \
                 fixed_length_utf32, raw_bytes, null_terminated_bytes (create_with, \
                 store_values), little endian, Blosc, chunk 1 never written",
                &[5],
                &[2],
            )
            .compression(BLOSC)
            .partial(&[&[0..2], &[4..5]], &[&[1]]),
            &extension_struct(),
            extension_record(i64::MIN, -1, "fill", [4, 5, 6], b"xy"),
            extension_value,
        ),
        // ---- numcodecs' zlib, bz2, lz4 and lzma (issue 19), in Zarr v3 as `numcodecs.*`
        typed_v3(
            root,
            flat_spec("rust_v3_flat_zlib", "derived Flat, little endian, numcodecs.zlib level 5")
                .compression(Compression::Zlib { level: 5 }),
            flat_fill(),
            flat,
        ),
        typed_v3(
            root,
            flat_spec(
                "rust_v3_nested_bz2_big",
                "derived Outer{inner:Inner{x,y},flag,weight}, big endian, numcodecs.bz2 level 9",
            )
            .big()
            .compression(Compression::Bz2 { level: 9 }),
            outer_fill(),
            outer,
        ),
        typed_v3(
            root,
            flat_spec(
                "rust_v3_reading_lz4",
                "derived Reading (text, time, bytes and a float), numcodecs.lz4",
            )
            .compression(Compression::Lz4),
            reading_fill(),
            reading,
        ),
        typed_v3(
            root,
            sharded_spec(
                "rust_v3_flat_lzma_sharded_big",
                "derived Flat, big endian, numcodecs.lzma (xz, preset 1) inside shards of 8 \
                 chunks of 2; shard 1 never written",
            )
            .big()
            .compression(Compression::Lzma { preset: 1 }),
            flat_fill_negative(),
            flat,
        ),
        // ---- numcodecs' checksums and base64, and zarr-python 3's `numcodecs.*` names of zstd,
        // gzip, blosc and crc32c, in arrays zarr-python made (the codec put in their metadata):
        // zarrdt writes their chunks, zarr-python checks and reads them. Flat records are 23
        // bytes, Outer 15: chunks of 3 are of odd length, where zarrs' fletcher32 errs.
        typed_v3(
            root,
            flat_spec("rust_v3_flat_crc32_end", "derived Flat, numcodecs.crc32 at the end")
                .numcodecs("crc32", json!({"location": "end"})),
            flat_fill(),
            flat,
        ),
        typed_v3(
            root,
            flat_spec(
                "rust_v3_nested_fletcher32_big",
                "derived Outer, big endian, numcodecs.fletcher32 (chunks of 45 bytes)",
            )
            .big()
            .numcodecs("fletcher32", json!({})),
            outer_fill(),
            outer,
        ),
        typed_v3(
            root,
            flat_spec(
                "rust_v3_flat_jenkins_lookup3",
                "derived Flat, numcodecs.jenkins_lookup3 seeded with 7",
            )
            .numcodecs("jenkins_lookup3", json!({"initval": 7, "prefix": null})),
            flat_fill(),
            flat,
        ),
        typed_v3(
            root,
            flat_spec("rust_v3_flat_numcodecs_zstd", "derived Flat, numcodecs.zstd level 3")
                .numcodecs("zstd", json!({"level": 3})),
            flat_fill(),
            flat,
        ),
        typed_v3(
            root,
            flat_spec("rust_v3_nested_numcodecs_gzip", "derived Outer, numcodecs.gzip {}")
                .numcodecs("gzip", json!({})),
            outer_fill(),
            outer,
        ),
        typed_v3(
            root,
            flat_spec("rust_v3_flat_numcodecs_blosc", "derived Flat, numcodecs.blosc {}")
                .numcodecs("blosc", json!({})),
            flat_fill(),
            flat,
        ),
        typed_v3(
            root,
            flat_spec(
                "rust_v3_flat_numcodecs_crc32c_start",
                "derived Flat, numcodecs.crc32c at the start",
            )
            .numcodecs("crc32c", json!({"location": "start"})),
            flat_fill(),
            flat,
        ),
        typed_v2(
            root,
            Spec::new(
                "rust_v2_nested_crc32",
                "derived Outer as a nested v2 dtype, the crc32 filter (checksum first)",
                &[7],
                &[3],
            )
            .numcodecs("crc32", json!({}))
            .partial(&[&[0..2], &[6..7]], &[&[1]]),
            &["2.18", "3.4"],
            Some(outer_fill()),
            outer,
        ),
        typed_v2(
            root,
            Spec::new(
                "rust_v2_flat_fletcher32",
                "derived Flat as a v2 dtype, the fletcher32 filter (chunks of 69 bytes)",
                &[7],
                &[3],
            )
            .numcodecs("fletcher32", json!({})),
            &["2.18", "3.4", "3.1"],
            Some(flat_fill()),
            flat,
        ),
        typed_v2(
            root,
            Spec::new(
                "rust_v2_flat_jenkins_lookup3",
                "derived Flat as a v2 dtype, the jenkins_lookup3 filter",
                &[7],
                &[3],
            )
            .numcodecs("jenkins_lookup3", json!({"initval": 0, "prefix": null})),
            &["2.18", "3.4", "3.1"],
            Some(flat_fill()),
            flat,
        ),
        typed_v2(
            root,
            Spec::new(
                "rust_v2_flat_crc32c_start",
                "derived Flat as a v2 dtype, the crc32c filter with its checksum first (numcodecs \
                 0.15, zarr-python 2.18's, has crc32c only with the crc32c module)",
                &[7],
                &[3],
            )
            .numcodecs("crc32c", json!({"location": "start"})),
            &["3.4", "3.1"],
            Some(flat_fill()),
            flat,
        ),
        typed_v2(
            root,
            Spec::new(
                "rust_v2_flat_base64",
                "derived Flat as a v2 dtype, the base64 filter",
                &[7],
                &[3],
            )
            .numcodecs("base64", json!({}))
            .partial(&[&[0..4]], &[&[2]]),
            &["2.18", "3.4", "3.1"],
            Some(flat_fill()),
            flat,
        ),
        // ---- Zarr v2
        dynamic_v2(
            root,
            Spec::new(
                "rust_v2_mixed_order_lz4",
                "run-time v2 layout [a <i4, b >f8] (one byte order per field), lz4, chunk 1 \
                 never written",
                &[5],
                &[2],
            )
            .compression(Compression::Lz4)
            .partial(&[&[0..2], &[4..5]], &[&[1]]),
            &["2.18", "3.4", "3.1"],
            Layout::from_v2_json(&json!([["a", "<i4"], ["b", ">f8"]])).unwrap(),
            Some(record(vec![
                ("a", Value::Int32(-9)),
                ("b", Value::Float64(f64::from_bits(0x7ff8_0000_0000_0003))),
            ])),
            |i| {
                record(vec![
                    ("a", Value::Int32([i32::MIN, 1, -7, i32::MAX, 0][i % 5])),
                    ("b", Value::Float64(f64_at(i))),
                ])
            },
        ),
        dynamic_v2(
            root,
            Spec::new(
                "rust_v2_mixed_order_lzma",
                "run-time v2 layout [a <i4, b >f8, c >c8 (2,), d |b1, e >u2], lzma (xz, \
                 preset 6), chunk 1 never written",
                &[5],
                &[2],
            )
            .compression(Compression::Lzma { preset: 6 })
            .partial(&[&[0..2], &[4..5]], &[&[1]]),
            &["2.18"],
            mixed_layout(),
            Some(mixed_fill()),
            mixed_value,
        ),
        typed_v2(
            root,
            Spec::new(
                "rust_v2_nested_zlib",
                "derived Outer{inner:Inner{x,y},flag,weight} as a nested v2 dtype, zlib level 1",
                &[3],
                &[2],
            )
            .compression(Compression::Zlib { level: 1 }),
            &["2.18", "3.4"],
            Some(outer_fill()),
            outer,
        ),
        typed_v2(
            root,
            Spec::new(
                "rust_v2_particle_big_bz2",
                "derived Particle as a v2 dtype (subarray field pos), every field big-endian, \
                 bz2 level 5, chunk 1 never written",
                &[7],
                &[3],
            )
            .big()
            .compression(Compression::Bz2 { level: 5 })
            .partial(&[&[0..3], &[6..7]], &[&[1]]),
            &["2.18"],
            Some(particle_fill()),
            particle,
        ),
        typed_v2(
            root,
            Spec::new(
                "rust_v2_particle_blosc",
                "derived Particle as a v2 dtype with a subarray field pos <f4 (3,), Blosc, \
                 NaN-payload fill, chunk 1 never written",
                &[7],
                &[3],
            )
            .compression(BLOSC)
            .partial(&[&[0..3], &[6..7]], &[&[1]]),
            &["2.18"],
            Some(particle_fill()),
            particle,
        ),
        typed_v2(
            root,
            Spec::new(
                "rust_v2_particle_big_zstd",
                "derived Particle as a v2 dtype, every field big-endian, fill_value null, zstd",
                &[8],
                &[4],
            )
            .big()
            .compression(ZSTD)
            .via_zarrs(),
            &["2.18"],
            None,
            particle,
        ),
        dynamic_v2(
            root,
            Spec::new(
                "rust_v2_mixed_order_blosc",
                "run-time v2 layout [a <i4, b >f8, c >c8 (2,), d |b1, e >u2]: one byte order \
                 per field and a subarray field; Blosc; chunk 1 never written",
                &[5],
                &[2],
            )
            .compression(BLOSC)
            .partial(&[&[0..2], &[4..5]], &[&[1]]),
            &["2.18"],
            mixed_layout(),
            Some(mixed_fill()),
            mixed_value,
        ),
        dynamic_v2(
            root,
            Spec::new(
                "rust_v2_mixed_order_flat",
                "run-time v2 layout [a <i4, b >f8] (one byte order per field), uncompressed, \
                 chunk 1 never written",
                &[5],
                &[2],
            )
            .partial(&[&[0..2], &[4..5]], &[&[1]]),
            &["2.18", "3.4", "3.1"],
            Layout::from_v2_json(&json!([["a", "<i4"], ["b", ">f8"]])).unwrap(),
            Some(record(vec![
                ("a", Value::Int32(1)),
                ("b", Value::Float64(-0.0)),
            ])),
            |i| {
                record(vec![
                    ("a", Value::Int32([i32::MIN, 1, -7, i32::MAX, 0][i % 5])),
                    ("b", Value::Float64(f64_at(i))),
                ])
            },
        ),
        typed_v2(
            root,
            Spec::new(
                "rust_v2_nested_gzip",
                "derived Outer{inner:Inner{x,y},flag,weight} as a nested v2 dtype, gzip",
                &[3],
                &[2],
            )
            .compression(GZIP),
            &["2.18", "3.4"],
            Some(outer_fill()),
            outer,
        ),
        typed_v2(
            root,
            Spec::new(
                "rust_v2_grid_2d_big_blosc",
                "derived Grid as a v2 dtype cells >i2 (3, 2), 2-D (3, 4) in chunks (2, 3), \
                 Blosc, chunk (1, 1) never written",
                &[3, 4],
                &[2, 3],
            )
            .big()
            .compression(BLOSC)
            .partial(&[&[0..2, 0..4], &[2..3, 0..3]], &[&[1, 1]]),
            &["2.18"],
            Some(grid_fill()),
            grid,
        ),
        typed_v2(
            root,
            Spec::new(
                "rust_v2_reading_zstd",
                "derived Reading as a v2 dtype [station <U6, at <M8[ms], took <m8[ns], raw |V3, \
                 tag |S4, value <f4], zstd",
                &[5],
                &[2],
            )
            .compression(ZSTD),
            &["2.18", "3.4", "3.1"],
            Some(reading_fill()),
            reading,
        ),
        typed_v2(
            root,
            flat_spec(
                "rust_v2_flat_big",
                "derived Flat as a v2 dtype, every field big-endian, uncompressed, chunk 2 never \
                 written",
            )
            .big(),
            &["2.18", "3.4", "3.1"],
            Some(flat_fill()),
            flat,
        ),
        // ---- enum fields (integers, their variants in the zarrdt:enums attribute) and char
        // fields (U1)
        typed_v3(
            root,
            Spec::new(
                "rust_v3_enums_chars",
                "derived Observed{id:u32, quality:u8 enum, history:[u8 enum;3], probe:{channel:\
                 i16 enum, scale:u64 enum}, grade:U1, initials:[U1;2]}, little endian, zstd, \
                 chunk 1 never written",
                &[9],
                &[3],
            )
            .compression(ZSTD)
            .partial(&[&[0..3], &[6..8]], &[&[1]]),
            observed_fill(),
            observed,
        ),
        typed_v3(
            root,
            Spec::new(
                "rust_v3_enums_chars_big_sharded",
                "derived Observed, big endian, shards of 2 chunks of 2, chunk 1 never written",
                &[8],
                &[2],
            )
            .shards(&[4])
            .big()
            .partial(&[&[0..2], &[4..7]], &[]),
            observed_fill(),
            observed,
        ),
        typed_v2(
            root,
            Spec::new(
                "rust_v2_enums_chars",
                "derived Observed as a v2 dtype (enums |u1, <i2, <u8; history |u1 (3,); grade \
                 <U1; initials <U1 (2,)), gzip",
                &[7],
                &[3],
            )
            .compression(GZIP),
            &["2.18"],
            Some(observed_fill()),
            observed,
        ),
        typed_v2(
            root,
            Spec::new(
                "rust_v2_enums_chars_big",
                "derived Observed as a v2 dtype, every field big-endian, chunk 1 never \
                 written",
                &[7],
                &[3],
            )
            .big()
            .partial(&[&[0..3], &[6..7]], &[&[1]]),
            &["2.18"],
            Some(observed(4)),
            observed,
        ),
        typed_v2(
            root,
            Spec::new(
                "rust_v2_graded_big",
                "derived Graded{quality:u8 enum, channel:i16 enum, grade:U1, value:f64} as a \
                 flat v2 dtype, big endian, Blosc",
                &[6],
                &[4],
            )
            .big()
            .compression(BLOSC),
            &["2.18", "3.4", "3.1"],
            Some(graded_fill()),
            graded,
        ),
    ];
    cases.extend(scalar_cases(root));
    cases
}

/// One array per core scalar type, through Rust primitives (`create::<T>`), plus one through
/// `create_with` / `store_values`; elements 0..3 of 5 written in chunks of 2, so chunk 1 is
/// written in part and chunk 2 never; codecs and byte orders vary.
fn scalar_cases(root: &Path) -> Vec<Written> {
    let spec = |name, compression, big: bool| {
        let spec = Spec::new(name, "Rust primitive elements", &[5], &[2])
            .compression(compression)
            .partial(&[&[0..3]], &[&[2]]);
        if big { spec.big() } else { spec }
    };
    let sharded = |name, compression, big: bool| {
        let spec = Spec::new(
            name,
            "Rust primitive elements in shards of 2 chunks of 1",
            &[5],
            &[1],
        )
        .shards(&[2])
        .compression(compression)
        .partial(&[&[0..3]], &[&[2]]);
        if big { spec.big() } else { spec }
    };
    macro_rules! scalar {
        ($spec:expr, $values:expr, $fill:expr) => {{
            let values = $values;
            typed_v3(root, $spec, $fill, move |i| values[i])
        }};
    }
    vec![
        scalar!(
            spec("rust_v3_scalar_bool", Compression::None, false),
            [false, true, false],
            true
        ),
        scalar!(
            spec("rust_v3_scalar_int8", ZSTD, false),
            [i8::MIN, -1, i8::MAX],
            -7i8
        ),
        scalar!(
            spec("rust_v3_scalar_int16", GZIP, true),
            [i16::MIN, -1, i16::MAX],
            -7i16
        ),
        scalar!(
            sharded("rust_v3_scalar_int32", ZSTD, true),
            [i32::MIN, -1, i32::MAX],
            -7i32
        ),
        scalar!(
            spec("rust_v3_scalar_int64", BLOSC, true),
            [i64::MIN, -1, i64::MAX],
            i64::MIN
        ),
        scalar!(
            spec("rust_v3_scalar_uint8", GZIP, false),
            [0u8, 255, 128],
            255u8
        ),
        scalar!(
            spec("rust_v3_scalar_uint16", Compression::None, true),
            [0u16, 1, u16::MAX],
            9u16
        ),
        scalar!(
            spec("rust_v3_scalar_uint32", ZSTD, true),
            [0u32, 1, u32::MAX],
            9u32
        ),
        scalar!(
            sharded("rust_v3_scalar_uint64", BLOSC, false),
            [0u64, u64::MAX, 1],
            u64::MAX
        ),
        scalar!(
            spec("rust_v3_scalar_float16", ZSTD, false),
            [
                f16::from_bits(0x7e01),
                f16::NEG_INFINITY,
                f16::from_bits(0x0001)
            ],
            f16::from_bits(0x8000)
        ),
        scalar!(
            spec("rust_v3_scalar_float32", GZIP, true),
            [f32_at(5), -0.0, f32::INFINITY],
            f32::from_bits(0x7fc0_0001)
        ),
        scalar!(
            sharded("rust_v3_scalar_float64", GZIP, true),
            [f64_at(5), f64::NEG_INFINITY, 1e-310],
            f64::from_bits(0xfff8_0000_0000_0bad)
        ),
        scalar!(
            spec("rust_v3_scalar_complex64", BLOSC, false),
            [
                Complex::new(1.0f32, -2.0),
                Complex::new(f32::NAN, 0.0),
                Complex::new(-0.0, f32::INFINITY)
            ],
            Complex::new(1.0f32, f32::NAN)
        ),
        scalar!(
            spec("rust_v3_scalar_complex128", ZSTD, true),
            [
                Complex::new(1.0f64, -2.0),
                Complex::new(f64_at(5), 0.0),
                Complex::new(-0.0, f64::INFINITY)
            ],
            Complex::new(f64::NEG_INFINITY, -0.0)
        ),
        // zarr-python 3 reads a float32 fill through a Python float (a float64) and so
        // quiets a signalling NaN: 0x7f800001 reads as 0x7fc00001 (float64 NaNs keep their
        // bits). The values in the chunks are read as stored.
        scalar!(
            spec("rust_v3_scalar_float32_signalling_nan_fill", ZSTD, false),
            [
                f32::from_bits(0x7f80_0001),
                f32::from_bits(0xff80_0002),
                1.5
            ],
            f32::from_bits(0x7f80_0001)
        )
        .not_read_by(&["3.4", "3.1"]),
        dynamic_v3(
            root,
            spec("rust_v3_scalar_int32_dynamic", GZIP, false),
            &DataType::from_v3_json(&json!("int32")).unwrap(),
            Value::Int32(-7),
            |i| Value::Int32([i32::MIN, 0, i32::MAX][i]),
        ),
    ]
}

// ------------------------------------------------------------------------------------------
// Checking an array and describing it for the readers
// ------------------------------------------------------------------------------------------

/// tensorstore (0.1.85+) reads a Zarr v3 array of a core scalar type, or of a struct whose
/// fields are all core scalar types (one field at a time); nothing else.
fn tensorstore_reads_v3(data_type: &DataType) -> bool {
    let core = |data_type: &DataType| data_type.as_scalar().is_some_and(ScalarType::is_core);
    match data_type.as_struct() {
        Some(structure) => structure
            .fields()
            .iter()
            .all(|field| core(&field.data_type())),
        None => core(data_type),
    }
}

/// tensorstore reads the codecs of `spec` in Zarr v3 (its `zarr3` driver: zstd, gzip, Blosc,
/// none of the `numcodecs.*` names) or v2 (its `zarr` driver: also zlib and bz2, not lz4 or
/// lzma, and no filters: "filters are not supported").
fn tensorstore_reads_codecs(zarr_format: u8, spec: &Spec) -> bool {
    spec.numcodecs.is_none()
        && match spec.compression {
            Compression::Zlib { .. } | Compression::Bz2 { .. } => zarr_format == 2,
            Compression::Lz4 | Compression::Lzma { .. } => false,
            _ => true,
        }
}

/// tensorstore's `zarr` driver reads a Zarr v2 structured dtype (one field at a time) whose
/// fields are core scalar types or subarrays of them, in any byte order; not nested records,
/// nor text, bytes or time fields.
fn tensorstore_reads_v2(layout: &Layout) -> bool {
    let core = |layout: &Layout| match layout {
        Layout::Scalar(leaf) => leaf.scalar().is_core(),
        _ => false,
    };
    match layout {
        Layout::Struct(structure) => structure.fields().iter().all(|field| match field.layout() {
            Layout::Subarray(array) => core(array.element()),
            other => core(other),
        }),
        other => core(other),
    }
}

/// Checks the array `written` describes, as zarrdt opens it from its directory, and returns
/// its manifest.
fn check_and_describe(root: &Path, written: &mut Written) -> Json {
    let spec = &written.spec;
    let name = spec.name;
    let dir = root.join(format!("{name}.zarr"));
    let store = Arc::new(FilesystemStore::new(&dir).unwrap());
    let opened = open_array(store.clone(), "/").unwrap_or_else(|e| panic!("{name}: open: {e}"));
    assert_eq!(opened.shape(), spec.shape, "{name}: shape");
    let record = RecordType::of(opened.data_type()).unwrap();
    let native = record.native_layout();

    // What a NumPy reader sees: zarr-python reads Zarr v3 into the packed little-endian dtype
    // of the data type in zarr.json (Rust arrays as structs of fields "0", "1", ...), and Zarr
    // v2 into the `.zarray` dtype itself.
    let reader = if written.zarr_format == 3 {
        let data_type = record.data_type().unwrap();
        if tensorstore_reads_v3(data_type) && tensorstore_reads_codecs(3, spec) {
            written.readers.push("tensorstore");
        }
        Layout::from_data_type(data_type, Some(Endian::Little)).unwrap()
    } else {
        let stored = opened
            .data_type()
            .downcast_ref::<StructDataType>()
            .and_then(StructDataType::stored_layout)
            .unwrap_or_else(|| panic!("{name}: not opened as a v2 structured array"));
        assert_eq!(stored, &written.layout, "{name}: v2 dtype");
        if tensorstore_reads_v2(&written.layout) && tensorstore_reads_codecs(2, spec) {
            written.readers.push("tensorstore");
        }
        written.layout.clone()
    };
    let view = |values: &[Value]| -> Vec<Value> {
        let bytes = written.layout.encode_values(values).unwrap();
        reader.decode_values(&bytes).unwrap()
    };
    let seen = view(&written.values);

    // Every value, read back as dynamic values, bit for bit (typed JSON has the bits of every
    // float and is independent of byte order).
    let read = opened.retrieve_values(&opened.subset_all()).unwrap();
    assert_eq!(read.len(), seen.len(), "{name}: number of elements");
    for (index, (got, want)) in read.iter().zip(&seen).enumerate() {
        assert_eq!(
            typed(got, native),
            typed(want, &reader),
            "{name}: element {index} (C order)"
        );
    }

    // The fill value zarrs holds (a null v2 fill is the zero record, as NumPy fills it).
    let fill = written
        .fill
        .as_ref()
        .map(|fill| view(std::slice::from_ref(fill)).remove(0));
    let zarrs_fill = native
        .decode_value(opened.fill_value().as_ne_bytes())
        .unwrap();
    let expected_fill = fill.clone().unwrap_or_else(|| reader.zero_value());
    assert_eq!(
        typed(&zarrs_fill, native),
        typed(&expected_fill, &reader),
        "{name}: fill value"
    );

    // One field of every record, where the first field is not itself a record or subarray.
    if let Layout::Struct(structure) = native {
        let first = &structure.fields()[0];
        if matches!(first.layout(), Layout::Scalar(_)) {
            check_first_field(&opened, first, &read, name);
        }
    }

    // The chunks (or shards) never written do not exist; all others do.
    let stored = stored_keys(&store);
    let mut existing = BTreeSet::new();
    for position in grid_positions(opened.chunk_grid_shape()) {
        let exists = opened.retrieve_encoded_chunk(&position).unwrap().is_some();
        assert_eq!(
            exists,
            !spec.missing.contains(&position),
            "{name}: chunk {position:?} exists"
        );
        if exists {
            existing.insert(opened.chunk_key(&position).to_string());
        }
    }
    assert_eq!(stored, existing, "{name}: the keys in the store");

    // The attributes zarrdt wrote for the type, as zarrs reads them.
    if let Some(Json::Object(attributes)) = &written.attributes {
        for (key, value) in attributes {
            assert_eq!(
                opened.attributes().get(key),
                Some(value),
                "{name}: attribute {key}"
            );
        }
    }

    let fill_bytes = fill.as_ref().map(|fill| reader.encode_value(fill).unwrap());
    let mut manifest = json!({
        "case": name,
        "description": spec.description,
        "writer": {"zarr": format!("zarrdt {}", env!("CARGO_PKG_VERSION")), "rust_type": written.rust_type},
        "zarr_format": written.zarr_format,
        "path": format!("{name}.zarr"),
        "shape": spec.shape,
        "chunks": spec.chunks,
        "shards": spec.shards,
        "dtype_descr": reader.to_v2_json().unwrap(),
        "itemsize": reader.size(),
        "padding_fields": [],
        "fill_value": fill.as_ref().map(|fill| typed(fill, &reader)),
        "fill_value_hex": fill_bytes.as_deref().map(hex_encode),
        "values": seen.iter().map(|value| typed(value, &reader)).collect::<Vec<_>>(),
        "values_hex": hex_encode(&reader.encode_values(&seen).unwrap()),
        "stored_chunks": stored,
        "readers": written.readers,
    });
    if let Some(attributes) = &written.attributes {
        manifest["attributes"] = attributes.clone();
    }
    manifest
}

/// `retrieve_field` gives the first field of every record, bit for bit as dynamic values
/// do; `field` is its layout.
fn check_first_field(
    opened: &Array<FilesystemStore>,
    field: &LayoutField,
    read: &[Value],
    name: &str,
) {
    let want: Vec<Json> = read
        .iter()
        .map(|value| typed(&value.as_record().unwrap().fields()[0].1, field.layout()))
        .collect();
    let path = [field.name()];
    macro_rules! field_as {
        ($($ty:ty),*) => {{
            $(
                if let Ok(values) = opened.retrieve_field::<$ty>(&opened.subset_all(), &path) {
                    let got: Vec<Json> = values
                        .iter()
                        .map(|value| typed(&ZarrType::to_value(value), field.layout()))
                        .collect();
                    assert_eq!(got, want, "{name}: field {path:?} as {}", stringify!($ty));
                    return;
                }
            )*
            panic!("{name}: field {path:?} read as none of the types tried");
        }};
    }
    field_as!(
        bool,
        i8,
        i16,
        i32,
        i64,
        u8,
        u16,
        u32,
        u64,
        f16,
        f32,
        f64,
        Complex<f32>,
        Complex<f64>,
        FixedString<6>,
        DateTime64<zarrdt::time::Seconds, 10>
    );
}

/// The keys of the store other than metadata documents, sorted.
fn stored_keys(store: &FilesystemStore) -> BTreeSet<String> {
    store
        .list()
        .unwrap()
        .into_iter()
        .map(|key| key.as_str().to_owned())
        .filter(|key| {
            let file = key.rsplit('/').next().unwrap();
            !matches!(file, "zarr.json" | ".zarray" | ".zattrs" | ".zgroup")
        })
        .collect()
}

/// Every position of a grid of `shape`, in C order.
fn grid_positions(shape: &[u64]) -> Vec<Vec<u64>> {
    shape.iter().fold(vec![vec![]], |positions, &extent| {
        positions
            .into_iter()
            .flat_map(|prefix| {
                (0..extent).map(move |i| {
                    let mut next = prefix.clone();
                    next.push(i);
                    next
                })
            })
            .collect()
    })
}

fn output_dir() -> PathBuf {
    std::env::var_os("ZARRDT_INTEROP_OUT").map_or_else(
        || PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("zarrdt-written"),
        PathBuf::from,
    )
}

#[test]
fn write_arrays_for_real_readers() {
    let root = output_dir();
    if root.exists() {
        fs::remove_dir_all(&root).unwrap();
    }
    fs::create_dir_all(&root).unwrap();
    let mut cases = write_cases(&root);
    let names: BTreeSet<&str> = cases.iter().map(|case| case.spec.name).collect();
    assert_eq!(names.len(), cases.len(), "duplicate case names");
    let mut index = Vec::new();
    for case in &mut cases {
        let manifest = check_and_describe(&root, case);
        fs::write(
            root.join(format!("{}.json", case.spec.name)),
            serde_json::to_string_pretty(&manifest).unwrap(),
        )
        .unwrap();
        index.push(json!({
            "name": case.spec.name,
            "zarr_format": case.zarr_format,
            "description": if case.spec.via_zarrs {
                format!("{}, through zarrs' element API", case.spec.description)
            } else {
                case.spec.description.to_string()
            },
            "readers": case.readers,
        }));
    }
    // What the table covers, so that an edit cannot drop a kind of array unnoticed.
    let count = |what: &dyn Fn(&Written) -> bool| cases.iter().filter(|case| what(case)).count();
    let compression = |c: Compression| move |case: &Written| case.spec.compression == c;
    assert!(count(&compression(Compression::None)) >= 5);
    assert!(count(&compression(ZSTD)) >= 5);
    assert!(count(&compression(GZIP)) >= 5);
    assert!(count(&compression(BLOSC)) >= 5);
    for numcodecs in [
        Compression::Zlib { level: 5 },
        Compression::Bz2 { level: 9 },
        Compression::Lz4,
        Compression::Lzma { preset: 1 },
    ] {
        let same_codec = |case: &Written| {
            std::mem::discriminant(&case.spec.compression) == std::mem::discriminant(&numcodecs)
        };
        assert!(count(&same_codec) >= 2, "{numcodecs:?}");
    }
    assert!(count(&|case| case.spec.shards.is_some()) >= 6);
    assert!(count(&|case| case.spec.endian == Endian::Big) >= 10);
    assert!(count(&|case| !case.spec.missing.is_empty()) >= 20);
    assert!(count(&|case| case.spec.shape.len() == 2) >= 3);
    assert!(count(&|case| case.zarr_format == 2) >= 6);
    assert!(count(&|case| case.readers.contains(&"tensorstore")) >= 20);
    // Records written both ways, and a chunk large enough to be written a piece at a time.
    assert!(count(&|case| case.spec.via_zarrs) >= 3);
    assert!(count(&|case| case.rust_type.is_some() && !case.spec.via_zarrs) >= 20);
    assert!(
        count(&|case| case.spec.compression == Compression::None
            && case.spec.shards.is_none()
            && case.spec.chunks.iter().product::<u64>() as usize * case.layout.size() >= 1 << 20)
            >= 1
    );
    // Enum fields with their attribute, in both formats.
    assert!(count(&|case| case.attributes.is_some() && case.zarr_format == 3) >= 2);
    assert!(count(&|case| case.attributes.is_some() && case.zarr_format == 2) >= 3);
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
