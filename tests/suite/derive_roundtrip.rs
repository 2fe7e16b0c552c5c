#![allow(clippy::unwrap_used)]
//! `#[derive(ZarrStruct)]` end to end: bit-exact round trips of every field kind in both byte
//! orders (one value and slices), exact encoded bytes, `FIELDS` and `SIZE`, the zerocopy fast
//! path against the field-by-field codec, decode validation with exact error locations,
//! `to_value` / `from_value`, and `check_data_type` / `check_layout`, including against
//! zarr-python fixtures.

use crate::common;

use common::records::{AllScalars, Grid, Particle};

use std::fmt::Debug;
use std::fs;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use half::f16;
use num_complex::Complex;
use serde_json::{Value as Json, json};
use zarrdt::advanced::ElementFault;
use zarrdt::layout::{FieldPath, Layout, PathSegment};
use zarrdt::types::{DataType, ScalarType};
use zarrdt::value::{Record, SubarrayValue, Value};
use zarrdt::{Endian, Error, ZarrStruct, ZarrType};

const ENDIANS: [Endian; 2] = [Endian::Little, Endian::Big];

// =============================================================================================
// The structs under test
// =============================================================================================

/// Depth 3: `Top` > `Mid` > `Leaf3`, directly and inside arrays.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Leaf3 {
    flag: bool,
    code: u16,
}

#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Mid {
    scale: f32,
    leaf: Leaf3,
    leaves: [Leaf3; 2],
}

#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Top {
    id: i32,
    mid: Mid,
    mids: [Mid; 2],
    tail: i8,
}

/// A nested bool at a known offset, for the decode validation tests.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Inner {
    value: f64,
    flag: bool,
}

#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Outer {
    id: u32,
    inner: Inner,
}

/// Tuple structs: fields `"0"`, `"1"`, ….
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Pair(i16, f32);

#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Wrapped(Pair, [u8; 2], Inner);

/// Generic, with a marker that is not stored.
#[derive(ZarrStruct, Clone, Debug, Default)]
struct Generic<T, U> {
    first: T,
    pair: [T; 2],
    count: u16,
    marker: PhantomData<U>,
}

/// `#[repr(C, packed)]`: Rust's layout is the packed layout.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
#[repr(C, packed)]
struct Packed {
    a: u8,
    b: u32,
    c: f64,
    d: [i16; 2],
}

/// Renamed fields: a dot, non-ASCII names, a raw identifier.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Renamed {
    #[zarr(rename = "foo.mask")]
    mask: u8,
    #[zarr(rename = "température")]
    temperature: f64,
}

#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct RenamedFlags {
    #[zarr(rename = "foo.mask")]
    mask: [bool; 2],
    #[zarr(rename = "日本語")]
    text: [u8; 3],
    r#type: i16,
}

#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct RenamedOuter {
    id: u16,
    #[zarr(rename = "ünïcode")]
    flags: RenamedFlags,
}

#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Cube {
    v: [[[u8; 2]; 2]; 2],
    w: [[f64; 2]; 1],
    flags: [[bool; 3]; 2],
}

/// Arrays of half floats and complex numbers.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Spectrum {
    h: [f16; 3],
    z: [Complex<f32>; 2],
    zz: Complex<f64>,
}

/// The two fields of the v2_mixed_order and v2_flat fixtures.
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Flat {
    a: i32,
    b: f64,
}

/// The fields of the v2_aligned fixture, packed (the fixture is padded).
#[derive(ZarrStruct, Clone, Copy, Debug, Default)]
struct Aligned {
    a: u8,
    b: i32,
}

// ---- zerocopy: memory layout equals the packed layout -----------------------------------------

#[derive(
    ZarrStruct,
    zerocopy::IntoBytes,
    zerocopy::FromBytes,
    zerocopy::Immutable,
    zerocopy::KnownLayout,
    Clone,
    Copy,
    Debug,
    Default,
)]
#[repr(C)]
struct ZcPoint {
    x: f64,
    y: f64,
    id: u32,
    tag: [u8; 4],
    h: [f16; 4],
}

#[derive(
    ZarrStruct,
    zerocopy::IntoBytes,
    zerocopy::FromBytes,
    zerocopy::Immutable,
    zerocopy::KnownLayout,
    Clone,
    Copy,
    Debug,
    Default,
)]
#[repr(C)]
struct ZcCell {
    a: i16,
    b: [u8; 2],
}

#[derive(
    ZarrStruct,
    zerocopy::IntoBytes,
    zerocopy::FromBytes,
    zerocopy::Immutable,
    zerocopy::KnownLayout,
    Clone,
    Copy,
    Debug,
    Default,
)]
#[repr(C)]
struct ZcNested {
    head: u32,
    cells: [ZcCell; 3],
    tail: [i32; 2],
}

/// With bools: only `TryFromBytes`, so decoding validates.
#[derive(
    ZarrStruct,
    zerocopy::IntoBytes,
    zerocopy::TryFromBytes,
    zerocopy::Immutable,
    zerocopy::KnownLayout,
    Clone,
    Copy,
    Debug,
    Default,
)]
#[repr(C)]
struct ZcFlag {
    code: u16,
    flag: bool,
    level: u8,
}

#[derive(
    ZarrStruct,
    zerocopy::IntoBytes,
    zerocopy::TryFromBytes,
    zerocopy::Immutable,
    zerocopy::KnownLayout,
    Clone,
    Copy,
    Debug,
    Default,
)]
#[repr(C)]
struct ZcFlagged {
    value: u32,
    inner: ZcFlag,
    flags: [bool; 4],
}

#[derive(
    ZarrStruct,
    zerocopy::IntoBytes,
    zerocopy::FromBytes,
    zerocopy::Immutable,
    zerocopy::KnownLayout,
    Clone,
    Copy,
    Debug,
    Default,
)]
#[repr(C, packed)]
struct ZcPacked {
    a: u8,
    b: u64,
    c: [u16; 3],
}

// ---- zerocopy, but Rust's layout differs from the packed one --------------------------------

/// `#[repr(C)]` with 3 padding bytes after `a` (so no `IntoBytes`).
#[derive(
    ZarrStruct,
    zerocopy::FromBytes,
    zerocopy::Immutable,
    zerocopy::KnownLayout,
    Clone,
    Copy,
    Debug,
    Default,
)]
#[repr(C)]
struct ZcPadded {
    a: u8,
    b: u32,
}

/// `#[repr(C)]` with padding and a bool, `TryFromBytes`.
#[derive(
    ZarrStruct,
    zerocopy::TryFromBytes,
    zerocopy::Immutable,
    zerocopy::KnownLayout,
    Clone,
    Copy,
    Debug,
    Default,
)]
#[repr(C)]
struct ZcPaddedFlag {
    flag: bool,
    b: u32,
}

/// `#[repr(C)]` with the fields at their packed offsets but 3 bytes of trailing padding.
#[derive(
    ZarrStruct,
    zerocopy::FromBytes,
    zerocopy::Immutable,
    zerocopy::KnownLayout,
    Clone,
    Copy,
    Debug,
    Default,
)]
#[repr(C)]
struct ZcTrailing {
    a: u32,
    b: u8,
}

/// No `repr(C)`: Rust may reorder and pads to 8 bytes, the record has 6.
#[derive(
    ZarrStruct,
    zerocopy::FromBytes,
    zerocopy::Immutable,
    zerocopy::KnownLayout,
    Clone,
    Copy,
    Debug,
    Default,
)]
struct ZcReordered {
    a: u8,
    b: u32,
    c: u8,
}

// =============================================================================================
// Special values
// =============================================================================================

/// f32 bit patterns: NaN payloads (quiet, negative, signalling), signed zeros, infinities,
/// subnormals, extremes.
const F32_BITS: [u32; 10] = [
    0x7fc0_0001,
    0xffc0_0000,
    0x7f80_0001,
    0x8000_0000,
    0x0000_0000,
    0x7f80_0000,
    0xff80_0000,
    0x0000_0001,
    0x7f7f_ffff,
    0x3f80_0000,
];

const F64_BITS: [u64; 10] = [
    0xfff8_0000_0000_0000,
    0x7ff8_0000_0000_0001,
    0x7ff0_0000_0000_0001,
    0x8000_0000_0000_0000,
    0x0000_0000_0000_0000,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x0000_0000_0000_0001,
    0xffef_ffff_ffff_ffff,
    0x4009_21fb_5444_2d18,
];

const F16_BITS: [u16; 10] = [
    0x7e01, 0xfe00, 0x7c01, 0x8000, 0x0000, 0x7c00, 0xfc00, 0x0001, 0x7bff, 0x3c00,
];

fn f32b(i: usize) -> f32 {
    f32::from_bits(F32_BITS[i % F32_BITS.len()])
}

fn f64b(i: usize) -> f64 {
    f64::from_bits(F64_BITS[i % F64_BITS.len()])
}

fn f16b(i: usize) -> f16 {
    f16::from_bits(F16_BITS[i % F16_BITS.len()])
}

fn c64b(i: usize) -> Complex<f32> {
    Complex::new(f32b(i), f32b(i + 3))
}

fn c128b(i: usize) -> Complex<f64> {
    Complex::new(f64b(i), f64b(i + 7))
}

/// Integers at and around the extremes.
fn pick<T: Copy>(table: &[T], i: usize) -> T {
    table[i % table.len()]
}

const I8S: [i8; 5] = [i8::MIN, -1, 0, 1, i8::MAX];
const I16S: [i16; 5] = [i16::MIN, -1, 0, 0x0102, i16::MAX];
const I32S: [i32; 5] = [i32::MIN, -1, 0, 0x0102_0304, i32::MAX];
const I64S: [i64; 5] = [i64::MIN, -1, 0, 0x0102_0304_0506_0708, i64::MAX];
const U8S: [u8; 4] = [0, 1, 0x80, u8::MAX];
const U16S: [u16; 4] = [0, 1, 0xbeef, u16::MAX];
const U32S: [u32; 4] = [0, 1, 0xdead_beef, u32::MAX];
const U64S: [u64; 4] = [0, 1, 0x0102_0304_0506_0708, u64::MAX];

// ---- value tables, `n` values each, cycling through the special values ----------------------

fn particles(n: usize) -> Vec<Particle> {
    (0..n)
        .map(|i| Particle {
            id: pick(&U64S, i),
            pos: [f32b(i), f32b(i + 1), f32b(i + 2)],
            mass: f64b(i),
            alive: i.is_multiple_of(3),
        })
        .collect()
}

fn all_scalars(n: usize) -> Vec<AllScalars> {
    (0..n)
        .map(|i| AllScalars {
            b: i % 2 == 1,
            i8: pick(&I8S, i),
            i16: pick(&I16S, i + 1),
            i32: pick(&I32S, i + 2),
            i64: pick(&I64S, i),
            u8: pick(&U8S, i),
            u16: pick(&U16S, i + 1),
            u32: pick(&U32S, i + 2),
            u64: pick(&U64S, i + 3),
            f16: f16b(i),
            f32: f32b(i),
            f64: f64b(i),
            c64: c64b(i),
            c128: c128b(i),
        })
        .collect()
}

fn leaf3(i: usize) -> Leaf3 {
    Leaf3 {
        flag: i.is_multiple_of(2),
        code: pick(&U16S, i),
    }
}

fn mid(i: usize) -> Mid {
    Mid {
        scale: f32b(i),
        leaf: leaf3(i),
        leaves: [leaf3(i + 1), leaf3(i + 2)],
    }
}

fn tops(n: usize) -> Vec<Top> {
    (0..n)
        .map(|i| Top {
            id: pick(&I32S, i),
            mid: mid(i),
            mids: [mid(i + 1), mid(i + 2)],
            tail: pick(&I8S, i),
        })
        .collect()
}

fn outers(n: usize) -> Vec<Outer> {
    (0..n)
        .map(|i| Outer {
            id: pick(&U32S, i),
            inner: Inner {
                value: f64b(i),
                flag: i.is_multiple_of(2),
            },
        })
        .collect()
}

fn pairs(n: usize) -> Vec<Pair> {
    (0..n).map(|i| Pair(pick(&I16S, i), f32b(i))).collect()
}

fn wrappeds(n: usize) -> Vec<Wrapped> {
    (0..n)
        .map(|i| {
            Wrapped(
                Pair(pick(&I16S, i + 2), f32b(i + 4)),
                [pick(&U8S, i), pick(&U8S, i + 1)],
                Inner {
                    value: f64b(i + 1),
                    flag: i % 3 == 1,
                },
            )
        })
        .collect()
}

fn generics_f32(n: usize) -> Vec<Generic<f32, String>> {
    (0..n)
        .map(|i| Generic {
            first: f32b(i),
            pair: [f32b(i + 1), f32b(i + 2)],
            count: pick(&U16S, i),
            marker: PhantomData,
        })
        .collect()
}

fn generics_particle(n: usize) -> Vec<Generic<Particle, ()>> {
    let p = particles(n + 2);
    (0..n)
        .map(|i| Generic {
            first: p[i],
            pair: [p[i + 1], p[i + 2]],
            count: pick(&U16S, i + 3),
            marker: PhantomData,
        })
        .collect()
}

fn packeds(n: usize) -> Vec<Packed> {
    (0..n)
        .map(|i| Packed {
            a: pick(&U8S, i),
            b: pick(&U32S, i + 1),
            c: f64b(i),
            d: [pick(&I16S, i), pick(&I16S, i + 2)],
        })
        .collect()
}

fn renameds(n: usize) -> Vec<Renamed> {
    (0..n)
        .map(|i| Renamed {
            mask: pick(&U8S, i),
            temperature: f64b(i),
        })
        .collect()
}

fn renamed_outers(n: usize) -> Vec<RenamedOuter> {
    (0..n)
        .map(|i| RenamedOuter {
            id: pick(&U16S, i),
            flags: RenamedFlags {
                mask: [i.is_multiple_of(2), i.is_multiple_of(3)],
                text: [pick(&U8S, i), pick(&U8S, i + 1), pick(&U8S, i + 2)],
                r#type: pick(&I16S, i),
            },
        })
        .collect()
}

fn grids(n: usize) -> Vec<Grid> {
    (0..n)
        .map(|i| Grid {
            cells: [
                [pick(&I16S, i), pick(&I16S, i + 1)],
                [pick(&I16S, i + 2), pick(&I16S, i + 3)],
                [pick(&I16S, i + 4), pick(&I16S, i + 5)],
            ],
        })
        .collect()
}

fn cubes(n: usize) -> Vec<Cube> {
    (0..n)
        .map(|i| Cube {
            v: [
                [[pick(&U8S, i), pick(&U8S, i + 1)], [pick(&U8S, i + 2), 7]],
                [[8, pick(&U8S, i + 3)], [9, 10]],
            ],
            w: [[f64b(i), f64b(i + 1)]],
            flags: [
                [i.is_multiple_of(2), true, false],
                [false, i.is_multiple_of(3), true],
            ],
        })
        .collect()
}

fn spectra(n: usize) -> Vec<Spectrum> {
    (0..n)
        .map(|i| Spectrum {
            h: [f16b(i), f16b(i + 1), f16b(i + 2)],
            z: [c64b(i), c64b(i + 5)],
            zz: c128b(i),
        })
        .collect()
}

fn zc_points(n: usize) -> Vec<ZcPoint> {
    (0..n)
        .map(|i| ZcPoint {
            x: f64b(i),
            y: f64b(i + 3),
            id: pick(&U32S, i),
            tag: [pick(&U8S, i), 1, 2, pick(&U8S, i + 1)],
            h: [f16b(i), f16b(i + 1), f16b(i + 2), f16b(i + 3)],
        })
        .collect()
}

fn zc_nesteds(n: usize) -> Vec<ZcNested> {
    let cell = |i: usize| ZcCell {
        a: pick(&I16S, i),
        b: [pick(&U8S, i), pick(&U8S, i + 1)],
    };
    (0..n)
        .map(|i| ZcNested {
            head: pick(&U32S, i),
            cells: [cell(i), cell(i + 1), cell(i + 2)],
            tail: [pick(&I32S, i), pick(&I32S, i + 3)],
        })
        .collect()
}

fn zc_flaggeds(n: usize) -> Vec<ZcFlagged> {
    (0..n)
        .map(|i| ZcFlagged {
            value: pick(&U32S, i),
            inner: ZcFlag {
                code: pick(&U16S, i),
                flag: i % 2 == 1,
                level: pick(&U8S, i),
            },
            flags: [i.is_multiple_of(2), true, false, i.is_multiple_of(3)],
        })
        .collect()
}

fn zc_packeds(n: usize) -> Vec<ZcPacked> {
    (0..n)
        .map(|i| ZcPacked {
            a: pick(&U8S, i),
            b: pick(&U64S, i + 1),
            c: [pick(&U16S, i), pick(&U16S, i + 1), pick(&U16S, i + 2)],
        })
        .collect()
}

fn zc_paddeds(n: usize) -> Vec<ZcPadded> {
    (0..n)
        .map(|i| ZcPadded {
            a: pick(&U8S, i),
            b: pick(&U32S, i + 1),
        })
        .collect()
}

fn zc_padded_flags(n: usize) -> Vec<ZcPaddedFlag> {
    (0..n)
        .map(|i| ZcPaddedFlag {
            flag: i.is_multiple_of(2),
            b: pick(&U32S, i),
        })
        .collect()
}

fn zc_trailings(n: usize) -> Vec<ZcTrailing> {
    (0..n)
        .map(|i| ZcTrailing {
            a: pick(&U32S, i + 1),
            b: pick(&U8S, i),
        })
        .collect()
}

fn zc_reordereds(n: usize) -> Vec<ZcReordered> {
    (0..n)
        .map(|i| ZcReordered {
            a: pick(&U8S, i),
            b: pick(&U32S, i + 1),
            c: pick(&U8S, i + 2),
        })
        .collect()
}

// =============================================================================================
// Helpers
// =============================================================================================

/// Bitwise equality of two slices of elements: by [`Value`] (whose float equality is by bits)
/// and by encoded bytes.
fn assert_bitwise_eq<T: ZarrType + Debug>(found: &[T], expected: &[T], context: &str) {
    assert_eq!(found.len(), expected.len(), "{context}: number of elements");
    for (index, (f, e)) in found.iter().zip(expected).enumerate() {
        assert_eq!(
            f.to_value(),
            e.to_value(),
            "{context}: element {index} differs: {f:?} vs {e:?}"
        );
        assert_eq!(
            f.encode(Endian::Little),
            e.encode(Endian::Little),
            "{context}: element {index} encodes differently: {f:?} vs {e:?}"
        );
    }
}

fn values_of<T: ZarrType>(values: &[T]) -> Vec<Value> {
    values.iter().map(ZarrType::to_value).collect()
}

/// The runtime (field-by-field) codec's encoding of `values` as `T`'s v3 data type.
fn runtime_encode<T: ZarrType>(values: &[T], endian: Endian) -> Vec<u8> {
    Layout::from_data_type(&T::data_type(), Some(endian))
        .unwrap()
        .encode_values(&values_of(values))
        .unwrap()
}

/// Every round trip of one value and of slices, in both byte orders, checked against the
/// runtime struct codec (v3 data type and v2 layout).
fn check_roundtrip<T: ZarrType + Debug>(values: &[T]) {
    let name = std::any::type_name::<T>();
    assert!(!values.is_empty(), "test bug: no values for {name}");
    let size = T::SIZE;
    let mut encoded = Vec::new();
    for endian in ENDIANS {
        let context = format!("{name} in {endian} endian");
        let bytes = T::encode_slice(values, endian);
        assert_eq!(bytes.len(), values.len() * size, "{context}: length");

        // One value at a time.
        for (index, value) in values.iter().enumerate() {
            let one = value.encode(endian);
            assert_eq!(
                one,
                bytes[index * size..(index + 1) * size],
                "{context}: encode of element {index} differs from encode_slice"
            );
            let mut buffer = vec![0xa5; size];
            value.encode_into(&mut buffer, endian).unwrap();
            assert_eq!(buffer, one, "{context}: encode_into of element {index}");
            let back = T::decode(&one, endian).unwrap();
            assert_bitwise_eq(
                std::slice::from_ref(&back),
                std::slice::from_ref(value),
                &format!("{context}: decode of element {index}"),
            );
        }

        // Slices.
        let back = T::decode_slice(&bytes, endian).unwrap();
        assert_bitwise_eq(&back, values, &format!("{context}: decode_slice"));
        let mut buffer = vec![0x5a; bytes.len()];
        T::encode_slice_into(values, &mut buffer, endian).unwrap();
        assert_eq!(buffer, bytes, "{context}: encode_slice_into");
        let mut appended = T::decode_slice(&bytes[..size], endian).unwrap();
        T::decode_slice_into(&bytes, endian, &mut appended).unwrap();
        assert_eq!(appended.len(), values.len() + 1, "{context}: appended");
        assert_bitwise_eq(&appended[..1], &values[..1], &context);
        assert_bitwise_eq(&appended[1..], values, &format!("{context}: appended"));

        // Against the runtime codec, both ways.
        let dynamic = values_of(values);
        let v3 = Layout::from_data_type(&T::data_type(), Some(endian)).unwrap();
        assert_eq!(
            v3.encode_values(&dynamic).unwrap(),
            bytes,
            "{context}: runtime codec (v3 type) encodes differently"
        );
        assert_eq!(
            T::layout(endian).encode_values(&dynamic).unwrap(),
            bytes,
            "{context}: runtime codec (v2 layout) encodes differently"
        );
        assert_eq!(
            v3.decode_values(&bytes).unwrap(),
            dynamic,
            "{context}: runtime codec decodes differently"
        );

        // Through dynamic values.
        let rebuilt: Vec<T> = dynamic.iter().map(|v| T::from_value(v).unwrap()).collect();
        assert_bitwise_eq(
            &rebuilt,
            values,
            &format!("{context}: from_value(to_value)"),
        );
        encoded.push(bytes);
    }

    // The byte orders differ exactly by reversing every multi-byte leaf.
    let mut swapped = encoded[0].clone();
    T::layout(Endian::Little)
        .convert_byte_order(&mut swapped, Endian::Big)
        .unwrap();
    assert_eq!(swapped, encoded[1], "{name}: little vs big endian bytes");

    // Empty slices.
    for endian in ENDIANS {
        assert!(T::encode_slice(&[], endian).is_empty());
        assert!(T::decode_slice(&[], endian).unwrap().is_empty());
    }
}

/// `(name, offset, size, v3 data type)` of each field, and the total size.
fn assert_fields<T: ZarrStruct>(expected: &[(&str, usize, usize, DataType)], size: usize) {
    let name = std::any::type_name::<T>();
    let found: Vec<(&str, usize, usize, DataType)> = T::FIELDS
        .iter()
        .zip(T::OFFSETS)
        .map(|(f, &offset)| (f.name(), offset, f.size(), f.ty().data_type()))
        .collect();
    assert_eq!(found, expected, "{name}: FIELDS");
    assert_eq!(T::SIZE, size, "{name}: SIZE");
    assert_eq!(T::TYPE.size(), size, "{name}: TYPE.size()");
    assert_eq!(T::data_type().size(), size, "{name}: data_type().size()");
    assert_eq!(T::layout(Endian::Big).size(), size, "{name}: layout size");
    // The v3 data type lists the same fields at the same offsets.
    let structure = T::data_type();
    let fields: Vec<(&str, usize)> = structure
        .as_struct()
        .unwrap()
        .fields()
        .iter()
        .map(|f| (f.name(), f.offset()))
        .collect();
    let names: Vec<(&str, usize)> = expected.iter().map(|(n, o, _, _)| (*n, *o)).collect();
    assert_eq!(fields, names, "{name}: data_type() fields");
}

fn scalar(scalar: ScalarType) -> DataType {
    DataType::Scalar(scalar)
}

fn path(segments: &[PathSegment]) -> FieldPath {
    segments.iter().fold(FieldPath::root(), |p, s| match s {
        PathSegment::Field(name) => p.field(name),
        PathSegment::Index(index) => p.index(*index),
    })
}

fn field(name: &str) -> PathSegment {
    PathSegment::Field(name.to_owned())
}

fn fixture(version: &str, relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(format!("zarr-python-{version}"))
        .join(relative)
}

fn read_json(path: &Path) -> Json {
    let text =
        fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn record(fields: Vec<(&str, Value)>) -> Value {
    Value::Record(fields.into_iter().collect::<Record>())
}

/// `value` with the member at `names` (a path of field names, or item indices inside arrays)
/// replaced by `replace(old)`: `None` removes it; a member that does not exist is appended.
fn edit(value: &Value, names: &[&str], replace: &dyn Fn(Option<&Value>) -> Option<Value>) -> Value {
    let (first, rest) = names.split_first().expect("test bug: empty path");
    if let Value::Subarray(array) = value {
        // An array's outermost items, edited as a record of fields "0", "1", ...
        let items: Vec<(String, Value)> = (0..array.shape()[0])
            .map(|i| (i.to_string(), array.outer_item(i).unwrap().into_owned()))
            .collect();
        let as_record = Value::Record(items.into_iter().collect());
        let edited = edit(&as_record, names, replace);
        let items: Vec<Value> = edited
            .as_record()
            .unwrap()
            .fields()
            .iter()
            .map(|(_, v)| v.clone())
            .collect();
        return Value::Subarray(SubarrayValue::from(items));
    }
    let Value::Record(record) = value else {
        panic!("test bug: {first} is not inside a record");
    };
    let mut out = Record::new();
    let mut found = false;
    for (name, member) in record.fields() {
        if &**name == *first {
            found = true;
            let new = if rest.is_empty() {
                replace(Some(member))
            } else {
                Some(edit(member, rest, replace))
            };
            if let Some(new) = new {
                out.push(name.clone(), new);
            }
        } else {
            out.push(name.clone(), member.clone());
        }
    }
    if !found {
        assert!(rest.is_empty(), "test bug: no field {first}");
        if let Some(new) = replace(None) {
            out.push(*first, new);
        }
    }
    Value::Record(out)
}

fn assert_invalid_bool(
    error: &Error,
    index: usize,
    expected_path: &FieldPath,
    offset: usize,
    byte: u8,
    display: &str,
) {
    match error {
        Error::InvalidElement {
            index: found_index,
            path: found_path,
            offset: found_offset,
            fault,
        } => {
            assert_eq!(*found_index, index, "index of {error}");
            assert_eq!(found_path, expected_path, "path of {error}");
            assert_eq!(*found_offset, offset, "offset of {error}");
            assert_eq!(*fault, ElementFault::InvalidBool(byte), "fault of {error}");
        }
        other => panic!("expected Error::InvalidElement, got {other:?}"),
    }
    assert_eq!(error.to_string(), display);
}

fn assert_buffer_length(error: &Error, expected: usize, found: usize) {
    match error {
        Error::BufferLength {
            expected: e,
            found: f,
        } => assert_eq!((*e, *f), (expected, found), "{error}"),
        other => panic!("expected Error::BufferLength, got {other:?}"),
    }
    assert_eq!(
        error.to_string(),
        format!("buffer of {found} bytes, expected {expected} bytes")
    );
}

fn assert_chunk_length(error: &Error, len: usize, element_size: usize) {
    match error {
        Error::ChunkLength {
            len: l,
            element_size: s,
        } => assert_eq!((*l, *s), (len, element_size), "{error}"),
        other => panic!("expected Error::ChunkLength, got {other:?}"),
    }
    assert_eq!(
        error.to_string(),
        format!("{len} bytes is not a whole number of {element_size}-byte elements")
    );
}

fn assert_value_mismatch(error: &Error, expected_path: &FieldPath, data_type: &str, reason: &str) {
    match error {
        Error::ValueMismatch {
            path: p,
            data_type: d,
            reason: r,
        } => {
            assert_eq!(p, expected_path, "path of {error}");
            assert_eq!(d, data_type, "data type of {error}");
            assert_eq!(r, reason, "reason of {error}");
        }
        other => panic!("expected Error::ValueMismatch, got {other:?}"),
    }
    let at = if expected_path.is_root() {
        String::new()
    } else {
        format!(" at field `{expected_path}`")
    };
    assert_eq!(
        error.to_string(),
        format!("value{at} does not fit {data_type}: {reason}")
    );
}

fn assert_type_mismatch(error: &Error, expected_path: &FieldPath, difference: &str) {
    match error {
        Error::TypeMismatch {
            path: p,
            difference: d,
        } => {
            assert_eq!(p, expected_path, "path of {error}");
            assert_eq!(d, difference, "difference of {error}");
        }
        other => panic!("expected Error::TypeMismatch, got {other:?}"),
    }
    let at = if expected_path.is_root() {
        String::new()
    } else {
        format!(" at field `{expected_path}`")
    };
    assert_eq!(
        error.to_string(),
        format!("data type mismatch{at}: {difference}")
    );
}

// =============================================================================================
// Round trips
// =============================================================================================

#[test]
fn round_trip_flat_structs_with_special_values() {
    check_roundtrip(&particles(23));
    check_roundtrip(&all_scalars(31));
    check_roundtrip(&outers(9));
    check_roundtrip(&[Flat {
        a: i32::MIN,
        b: f64::from_bits(0xfff8_0000_0000_0000),
    }]);
    check_roundtrip(&[Aligned { a: 0xff, b: -1 }]);
}

#[test]
fn round_trip_nested_structs_depth_three() {
    check_roundtrip(&tops(17));
    check_roundtrip(&[mid(4), mid(5)]);
    check_roundtrip(&[leaf3(0), leaf3(1), leaf3(2)]);
}

#[test]
fn round_trip_tuple_structs() {
    check_roundtrip(&pairs(12));
    check_roundtrip(&wrappeds(12));
}

#[test]
fn round_trip_generic_structs_with_phantom_data() {
    check_roundtrip(&generics_f32(11));
    check_roundtrip(&generics_particle(7));
}

#[test]
fn round_trip_packed_struct() {
    check_roundtrip(&packeds(13));
}

#[test]
fn round_trip_renamed_fields() {
    check_roundtrip(&renameds(10));
    check_roundtrip(&renamed_outers(10));
}

#[test]
fn round_trip_arrays_and_nested_arrays() {
    check_roundtrip(&grids(10));
    check_roundtrip(&cubes(10));
    check_roundtrip(&spectra(12));
    // Arrays at top level are elements too.
    check_roundtrip(&[[f32b(0), f32b(1)], [f32b(2), f32b(3)]]);
    check_roundtrip(&[[[pick(&I64S, 0); 2]; 2], [[pick(&I64S, 4); 2]; 2]]);
}

#[test]
fn round_trip_zerocopy_structs() {
    check_roundtrip(&zc_points(1000));
    check_roundtrip(&zc_nesteds(333));
    check_roundtrip(&zc_flaggeds(500));
    check_roundtrip(&zc_packeds(257));
    check_roundtrip(&zc_paddeds(100));
    check_roundtrip(&zc_padded_flags(100));
    check_roundtrip(&zc_trailings(100));
    check_roundtrip(&zc_reordereds(100));
}

/// The special values really are in the tables (so the round trips above test them).
#[test]
fn value_tables_contain_the_special_values() {
    let all = all_scalars(31);
    let has_f32 = |bits: u32| all.iter().any(|v| v.f32.to_bits() == bits);
    let has_f64 = |bits: u64| all.iter().any(|v| v.f64.to_bits() == bits);
    let has_f16 = |bits: u16| all.iter().any(|v| v.f16.to_bits() == bits);
    assert!(has_f32(0x7fc0_0001) && has_f32(0x8000_0000) && has_f32(0x7f80_0000));
    assert!(has_f32(0xff80_0000));
    assert!(has_f64(0xfff8_0000_0000_0000) && has_f64(0x8000_0000_0000_0000));
    assert!(has_f64(0x7ff0_0000_0000_0000) && has_f64(0xfff0_0000_0000_0000));
    assert!(has_f16(0x7e01) && has_f16(0x8000));
    assert!(all.iter().any(|v| v.i64 == i64::MIN));
    assert!(all.iter().any(|v| v.u64 == u64::MAX));
    assert!(
        all.iter()
            .any(|v| v.c128.im.to_bits() == 0xfff8_0000_0000_0000)
    );
}

// =============================================================================================
// Exact bytes
// =============================================================================================

#[test]
fn particle_encodes_to_hand_computed_bytes() {
    let particle = Particle {
        id: 0x0102_0304_0506_0708,
        pos: [1.0, -2.0, f32::from_bits(0x7fc0_0001)],
        mass: -0.0,
        alive: true,
    };
    #[rustfmt::skip]
    let little: [u8; 29] = [
        0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, // id
        0x00, 0x00, 0x80, 0x3f, // pos[0] = 1.0
        0x00, 0x00, 0x00, 0xc0, // pos[1] = -2.0
        0x01, 0x00, 0xc0, 0x7f, // pos[2] = NaN with payload 1
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, // mass = -0.0
        0x01, // alive
    ];
    #[rustfmt::skip]
    let big: [u8; 29] = [
        0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
        0x3f, 0x80, 0x00, 0x00,
        0xc0, 0x00, 0x00, 0x00,
        0x7f, 0xc0, 0x00, 0x01,
        0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x01,
    ];
    for (endian, expected) in [(Endian::Little, little), (Endian::Big, big)] {
        assert_eq!(particle.encode(endian), expected, "{endian}");
        let two = Particle::encode_slice(&[particle, particle], endian);
        assert_eq!(two, [expected, expected].concat(), "{endian}");
        let back = Particle::decode(&expected, endian).unwrap();
        assert_eq!(back.id, 0x0102_0304_0506_0708);
        assert_eq!(
            back.pos.map(f32::to_bits),
            [0x3f80_0000, 0xc000_0000, 0x7fc0_0001]
        );
        assert_eq!(back.mass.to_bits(), 0x8000_0000_0000_0000);
        assert!(back.alive);
    }
}

#[test]
fn all_scalars_encode_to_hand_computed_bytes() {
    let value = AllScalars {
        b: true,
        i8: -2,
        i16: 0x0102,
        i32: 0x0102_0304,
        i64: i64::MIN,
        u8: 0xab,
        u16: 0xbeef,
        u32: 0xdead_beef,
        u64: u64::MAX,
        f16: f16::from_bits(0x7e01),
        f32: f32::from_bits(0x7fc0_0001),
        f64: f64::from_bits(0xfff8_0000_0000_0000),
        c64: Complex::new(1.0, -0.0),
        c128: Complex::new(f64::INFINITY, f64::from_bits(1)),
    };
    let little: Vec<u8> = [
        &[0x01][..],                                       // b
        &[0xfe],                                           // i8 = -2
        &[0x02, 0x01],                                     // i16
        &[0x04, 0x03, 0x02, 0x01],                         // i32
        &[0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80], // i64::MIN
        &[0xab],                                           // u8
        &[0xef, 0xbe],                                     // u16
        &[0xef, 0xbe, 0xad, 0xde],                         // u32
        &[0xff; 8],                                        // u64::MAX
        &[0x01, 0x7e],                                     // f16 NaN 0x7e01
        &[0x01, 0x00, 0xc0, 0x7f],                         // f32 NaN 0x7fc00001
        &[0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0xff], // f64 negative NaN
        &[0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x80], // c64 = 1 - 0i
        &[0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x7f], // c128.re = inf
        &[0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00], // c128.im = smallest subnormal
    ]
    .concat();
    let big: Vec<u8> = [
        &[0x01][..],
        &[0xfe],
        &[0x01, 0x02],
        &[0x01, 0x02, 0x03, 0x04],
        &[0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
        &[0xab],
        &[0xbe, 0xef],
        &[0xde, 0xad, 0xbe, 0xef],
        &[0xff; 8],
        &[0x7e, 0x01],
        &[0x7f, 0xc0, 0x00, 0x01],
        &[0xff, 0xf8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
        &[0x3f, 0x80, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00],
        &[0x7f, 0xf0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
        &[0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01],
    ]
    .concat();
    assert_eq!(little.len(), 69);
    assert_eq!(big.len(), 69);
    for (endian, expected) in [(Endian::Little, &little), (Endian::Big, &big)] {
        assert_eq!(&value.encode(endian), expected, "{endian}");
        let back = AllScalars::decode(expected, endian).unwrap();
        assert_eq!(back.f16.to_bits(), 0x7e01);
        assert_eq!(back.f32.to_bits(), 0x7fc0_0001);
        assert_eq!(back.f64.to_bits(), 0xfff8_0000_0000_0000);
        assert_eq!(back.c64.im.to_bits(), 0x8000_0000);
        assert_eq!(back.c128.im.to_bits(), 1);
        assert_eq!(
            (back.i64, back.u64, back.u32),
            (i64::MIN, u64::MAX, 0xdead_beef)
        );
        assert_bitwise_eq(&[back], &[value], &format!("AllScalars {endian}"));
    }
}

#[test]
fn nested_struct_and_nested_array_bytes() {
    let outer = Outer {
        id: 0xa1b2_c3d4,
        inner: Inner {
            value: 1.5,
            flag: true,
        },
    };
    #[rustfmt::skip]
    let little = [0xd4, 0xc3, 0xb2, 0xa1, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 0x01];
    #[rustfmt::skip]
    let big = [0xa1, 0xb2, 0xc3, 0xd4, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0, 0x01];
    assert_eq!(outer.encode(Endian::Little), little);
    assert_eq!(outer.encode(Endian::Big), big);

    // Row-major: cells[0][0], cells[0][1], cells[1][0], ...
    let grid = Grid {
        cells: [[1, 2], [3, 4], [5, -1]],
    };
    #[rustfmt::skip]
    let little = [1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 0xff, 0xff];
    #[rustfmt::skip]
    let big = [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0xff, 0xff];
    assert_eq!(grid.encode(Endian::Little), little);
    assert_eq!(grid.encode(Endian::Big), big);

    // Tuple struct and packed struct.
    assert_eq!(
        Pair(-2, 1.0).encode(Endian::Big),
        [0xff, 0xfe, 0x3f, 0x80, 0, 0]
    );
    let packed = Packed {
        a: 0x11,
        b: 0x2233_4455,
        c: -0.0,
        d: [0x0102, -2],
    };
    #[rustfmt::skip]
    let little = [
        0x11, 0x55, 0x44, 0x33, 0x22, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x02, 0x01, 0xfe, 0xff,
    ];
    assert_eq!(packed.encode(Endian::Little), little);

    // PhantomData stores nothing.
    let generic: Generic<u16, String> = Generic {
        first: 0x0102,
        pair: [0x0304, 0x0506],
        count: 0x0708,
        marker: PhantomData,
    };
    assert_eq!(generic.encode(Endian::Big), [1, 2, 3, 4, 5, 6, 7, 8]);
}

// =============================================================================================
// FIELDS and SIZE
// =============================================================================================

const PARTICLE_MASS_OFFSET: usize = Particle::OFFSETS[2];
const PARTICLE_SIZE: usize = <Particle as ZarrType>::SIZE;

#[test]
fn fields_are_constants() {
    assert_eq!(PARTICLE_MASS_OFFSET, 20);
    assert_eq!(PARTICLE_SIZE, 29);
    let buffer = [0u8; <Particle as ZarrType>::SIZE];
    assert_eq!(Particle::decode(&buffer, Endian::Big).unwrap().id, 0);
    assert_eq!(Particle::FIELDS.len(), 4);
    assert_eq!(Particle::FIELDS[1].name(), "pos");
}

#[test]
fn fields_of_flat_and_scalar_structs() {
    use ScalarType::*;
    assert_fields::<Particle>(
        &[
            ("id", 0, 8, scalar(UInt64)),
            ("pos", 8, 12, <[f32; 3]>::data_type()),
            ("mass", 20, 8, scalar(Float64)),
            ("alive", 28, 1, scalar(Bool)),
        ],
        29,
    );
    // Rust's own layout of Particle is not the packed one.
    assert!(size_of::<Particle>() >= 32);
    assert_fields::<AllScalars>(
        &[
            ("b", 0, 1, scalar(Bool)),
            ("i8", 1, 1, scalar(Int8)),
            ("i16", 2, 2, scalar(Int16)),
            ("i32", 4, 4, scalar(Int32)),
            ("i64", 8, 8, scalar(Int64)),
            ("u8", 16, 1, scalar(UInt8)),
            ("u16", 17, 2, scalar(UInt16)),
            ("u32", 19, 4, scalar(UInt32)),
            ("u64", 23, 8, scalar(UInt64)),
            ("f16", 31, 2, scalar(Float16)),
            ("f32", 33, 4, scalar(Float32)),
            ("f64", 37, 8, scalar(Float64)),
            ("c64", 45, 8, scalar(Complex64)),
            ("c128", 53, 16, scalar(Complex128)),
        ],
        69,
    );
    assert_fields::<Flat>(
        &[("a", 0, 4, scalar(Int32)), ("b", 4, 8, scalar(Float64))],
        12,
    );
    assert_fields::<Aligned>(&[("a", 0, 1, scalar(UInt8)), ("b", 1, 4, scalar(Int32))], 5);
}

#[test]
fn fields_of_nested_structs() {
    use ScalarType::*;
    assert_fields::<Leaf3>(
        &[("flag", 0, 1, scalar(Bool)), ("code", 1, 2, scalar(UInt16))],
        3,
    );
    assert_fields::<Mid>(
        &[
            ("scale", 0, 4, scalar(Float32)),
            ("leaf", 4, 3, Leaf3::data_type()),
            ("leaves", 7, 6, <[Leaf3; 2]>::data_type()),
        ],
        13,
    );
    assert_fields::<Top>(
        &[
            ("id", 0, 4, scalar(Int32)),
            ("mid", 4, 13, Mid::data_type()),
            ("mids", 17, 26, <[Mid; 2]>::data_type()),
            ("tail", 43, 1, scalar(Int8)),
        ],
        44,
    );
    assert_fields::<Inner>(
        &[
            ("value", 0, 8, scalar(Float64)),
            ("flag", 8, 1, scalar(Bool)),
        ],
        9,
    );
    assert_fields::<Outer>(
        &[
            ("id", 0, 4, scalar(UInt32)),
            ("inner", 4, 9, Inner::data_type()),
        ],
        13,
    );
    // A nested array field is an array type of the element struct, and its v3 form is a
    // struct of structs named "0", "1", ...
    let top = Top::data_type();
    let mids = top.as_struct().unwrap().field("mids").unwrap().data_type();
    assert_eq!(mids.as_subarray().unwrap().element(), Mid::data_type());
    let v3 = DataType::from_v3_json(&mids.to_v3_json()).unwrap();
    assert_eq!(v3, mids);
    let second = v3.as_struct().unwrap().field("1").unwrap();
    assert_eq!(second.offset(), 13);
    assert_eq!(second.data_type(), Mid::data_type());
}

#[test]
fn fields_of_tuple_generic_and_packed_structs() {
    use ScalarType::*;
    assert_fields::<Pair>(
        &[("0", 0, 2, scalar(Int16)), ("1", 2, 4, scalar(Float32))],
        6,
    );
    assert_fields::<Wrapped>(
        &[
            ("0", 0, 6, Pair::data_type()),
            ("1", 6, 2, <[u8; 2]>::data_type()),
            ("2", 8, 9, Inner::data_type()),
        ],
        17,
    );
    assert_fields::<Generic<f32, String>>(
        &[
            ("first", 0, 4, scalar(Float32)),
            ("pair", 4, 8, <[f32; 2]>::data_type()),
            ("count", 12, 2, scalar(UInt16)),
        ],
        14,
    );
    assert_fields::<Generic<Particle, ()>>(
        &[
            ("first", 0, 29, Particle::data_type()),
            ("pair", 29, 58, <[Particle; 2]>::data_type()),
            ("count", 87, 2, scalar(UInt16)),
        ],
        89,
    );
    assert_fields::<Packed>(
        &[
            ("a", 0, 1, scalar(UInt8)),
            ("b", 1, 4, scalar(UInt32)),
            ("c", 5, 8, scalar(Float64)),
            ("d", 13, 4, <[i16; 2]>::data_type()),
        ],
        17,
    );
    assert_eq!(size_of::<Packed>(), 17);
}

#[test]
fn fields_of_renamed_and_array_structs() {
    use ScalarType::*;
    assert_fields::<Renamed>(
        &[
            ("foo.mask", 0, 1, scalar(UInt8)),
            ("température", 1, 8, scalar(Float64)),
        ],
        9,
    );
    assert_fields::<RenamedFlags>(
        &[
            ("foo.mask", 0, 2, <[bool; 2]>::data_type()),
            ("日本語", 2, 3, <[u8; 3]>::data_type()),
            ("type", 5, 2, scalar(Int16)),
        ],
        7,
    );
    assert_fields::<RenamedOuter>(
        &[
            ("id", 0, 2, scalar(UInt16)),
            ("ünïcode", 2, 7, RenamedFlags::data_type()),
        ],
        9,
    );
    assert_fields::<Grid>(&[("cells", 0, 12, <[[i16; 2]; 3]>::data_type())], 12);
    assert_fields::<Cube>(
        &[
            ("v", 0, 8, <[[[u8; 2]; 2]; 2]>::data_type()),
            ("w", 8, 16, <[[f64; 2]; 1]>::data_type()),
            ("flags", 24, 6, <[[bool; 3]; 2]>::data_type()),
        ],
        30,
    );
    assert_fields::<Spectrum>(
        &[
            ("h", 0, 6, <[f16; 3]>::data_type()),
            ("z", 6, 16, <[Complex<f32>; 2]>::data_type()),
            ("zz", 22, 16, scalar(Complex128)),
        ],
        38,
    );
}

#[test]
fn fields_of_zerocopy_structs() {
    use ScalarType::*;
    assert_fields::<ZcPoint>(
        &[
            ("x", 0, 8, scalar(Float64)),
            ("y", 8, 8, scalar(Float64)),
            ("id", 16, 4, scalar(UInt32)),
            ("tag", 20, 4, <[u8; 4]>::data_type()),
            ("h", 24, 8, <[f16; 4]>::data_type()),
        ],
        32,
    );
    assert_fields::<ZcNested>(
        &[
            ("head", 0, 4, scalar(UInt32)),
            ("cells", 4, 12, <[ZcCell; 3]>::data_type()),
            ("tail", 16, 8, <[i32; 2]>::data_type()),
        ],
        24,
    );
    assert_fields::<ZcFlagged>(
        &[
            ("value", 0, 4, scalar(UInt32)),
            ("inner", 4, 4, ZcFlag::data_type()),
            ("flags", 8, 4, <[bool; 4]>::data_type()),
        ],
        12,
    );
    assert_fields::<ZcPacked>(
        &[
            ("a", 0, 1, scalar(UInt8)),
            ("b", 1, 8, scalar(UInt64)),
            ("c", 9, 6, <[u16; 3]>::data_type()),
        ],
        15,
    );
    assert_fields::<ZcPadded>(
        &[("a", 0, 1, scalar(UInt8)), ("b", 1, 4, scalar(UInt32))],
        5,
    );
    assert_eq!(size_of::<ZcPadded>(), 8);
    assert_fields::<ZcTrailing>(
        &[("a", 0, 4, scalar(UInt32)), ("b", 4, 1, scalar(UInt8))],
        5,
    );
    assert_eq!(size_of::<ZcTrailing>(), 8);
    assert_fields::<ZcReordered>(
        &[
            ("a", 0, 1, scalar(UInt8)),
            ("b", 1, 4, scalar(UInt32)),
            ("c", 5, 1, scalar(UInt8)),
        ],
        6,
    );
}

// =============================================================================================
// The zerocopy fast path
// =============================================================================================

fn native<T: ZarrType>() -> bool {
    T::NATIVE_LAYOUT
}

#[test]
fn native_layout_is_detected() {
    let found = [
        ("ZcPoint", native::<ZcPoint>()),
        ("ZcCell", native::<ZcCell>()),
        ("ZcNested", native::<ZcNested>()),
        ("ZcFlag", native::<ZcFlag>()),
        ("ZcFlagged", native::<ZcFlagged>()),
        ("ZcPacked", native::<ZcPacked>()),
        // Without zerocopy traits the layout may still match; it just cannot be used.
        ("Packed", native::<Packed>()),
    ];
    for (name, is_native) in found {
        assert!(is_native, "{name}: memory layout is the packed layout");
    }
}

#[test]
fn native_layout_mismatch_is_detected() {
    let found = [
        // Padding in Rust's layout.
        ("ZcPadded", native::<ZcPadded>()),
        ("ZcPaddedFlag", native::<ZcPaddedFlag>()),
        // Fields at their packed offsets, but trailing padding.
        ("ZcTrailing", native::<ZcTrailing>()),
        // Not repr(C): larger than the record.
        ("ZcReordered", native::<ZcReordered>()),
        ("Particle", native::<Particle>()),
        ("Pair", native::<Pair>()),
        ("Generic<f32, String>", native::<Generic<f32, String>>()),
        // A nested field without a native layout spoils the outer one.
        ("Top", native::<Top>()),
        ("[Particle; 2]", native::<[Particle; 2]>()),
    ];
    for (name, is_native) in found {
        assert!(!is_native, "{name}: memory layout is not the packed layout");
    }
}

/// Fast path or not, the derived codec gives what the field-by-field codec gives, and reads its
/// bytes back, for long slices, in both byte orders, also when appending.
fn check_against_field_codec<T: ZarrType + Debug>(values: &[T]) {
    let name = std::any::type_name::<T>();
    for endian in ENDIANS {
        let context = format!("{name} in {endian} endian");
        let expected = runtime_encode(values, endian);
        assert_eq!(T::encode_slice(values, endian), expected, "{context}");
        let mut buffer = vec![0xee; expected.len()];
        T::encode_slice_into(values, &mut buffer, endian).unwrap();
        assert_eq!(buffer, expected, "{context}: encode_slice_into");
        let decoded = T::decode_slice(&expected, endian).unwrap();
        assert_bitwise_eq(&decoded, values, &context);
        // Decoding appends after what is there.
        let mut out = T::decode_slice(&expected[..T::SIZE * 2], endian).unwrap();
        T::decode_slice_into(&expected, endian, &mut out).unwrap();
        assert_bitwise_eq(&out[..2], &values[..2], &context);
        assert_bitwise_eq(&out[2..], values, &context);
        // The runtime decoder agrees value by value.
        let layout = Layout::from_data_type(&T::data_type(), Some(endian)).unwrap();
        assert_eq!(
            layout.decode_values(&expected).unwrap(),
            values_of(&decoded),
            "{context}"
        );
    }
}

#[test]
fn fast_path_matches_field_codec() {
    check_against_field_codec(&zc_points(1024));
    check_against_field_codec(&zc_nesteds(100));
    check_against_field_codec(&zc_flaggeds(257));
    check_against_field_codec(&zc_packeds(99));
}

#[test]
fn mismatched_layouts_match_field_codec() {
    check_against_field_codec(&zc_paddeds(1024));
    check_against_field_codec(&zc_padded_flags(300));
    check_against_field_codec(&zc_trailings(300));
    check_against_field_codec(&zc_reordereds(300));
    check_against_field_codec(&particles(300));
}

// =============================================================================================
// Decode validation
// =============================================================================================

#[test]
fn invalid_bool_in_nested_field_names_record_path_and_offset() {
    let values = outers(5);
    for endian in ENDIANS {
        let mut bytes = Outer::encode_slice(&values, endian);
        // Record 3 starts at 3 * 13 = 39; inner.flag is at 4 + 8 = 12 within it.
        assert_eq!(bytes[51], u8::from(values[3].inner.flag));
        bytes[51] = 2;
        let expected_path = path(&[field("inner"), field("flag")]);
        let error = Outer::decode_slice(&bytes, endian).unwrap_err();
        assert_invalid_bool(
            &error,
            3,
            &expected_path,
            51,
            2,
            "element 3 at field `inner.flag`, byte offset 51: invalid bool byte 0x02 (must be 0x00 or 0x01)",
        );
        // The runtime codec reports the same place.
        let runtime = Outer::layout(endian).decode_values(&bytes).unwrap_err();
        assert_invalid_bool(&runtime, 3, &expected_path, 51, 2, &error.to_string());
        // One value: element 0, offset within the value.
        let error = Outer::decode(&bytes[39..52], endian).unwrap_err();
        assert_invalid_bool(
            &error,
            0,
            &expected_path,
            12,
            2,
            "element 0 at field `inner.flag`, byte offset 12: invalid bool byte 0x02 (must be 0x00 or 0x01)",
        );
        // The first bad record is the one reported.
        bytes[13 + 12] = 0x80;
        let error = Outer::decode_slice(&bytes, endian).unwrap_err();
        assert_invalid_bool(
            &error,
            1,
            &expected_path,
            25,
            0x80,
            "element 1 at field `inner.flag`, byte offset 25: invalid bool byte 0x80 (must be 0x00 or 0x01)",
        );
    }
}

#[test]
fn invalid_bool_in_an_array_of_arrays_has_one_index_per_dimension() {
    // `flags: [[bool; 3]; 2]` is the Zarr subarray of shape [2, 3]: its item 5 (row-major) is
    // `flags[1][2]`, as the Rust field indexes it, at every entry point.
    let values = cubes(3);
    let expected_path = path(&[field("flags"), PathSegment::Index(1), PathSegment::Index(2)]);
    for endian in ENDIANS {
        let mut bytes = Cube::encode_slice(&values, endian);
        // Record 2 at 2 * 30 = 60; flags at 24, its item [1][2] at 1 * 3 + 2 = 5.
        bytes[60 + 24 + 5] = 3;
        let display = "element 2 at field `flags[1][2]`, byte offset 89: invalid bool byte 0x03 (must be 0x00 or 0x01)";
        let derived = Cube::decode_slice(&bytes, endian).unwrap_err();
        assert_invalid_bool(&derived, 2, &expected_path, 89, 3, display);
        let runtime = Cube::layout(endian).decode_values(&bytes).unwrap_err();
        assert_invalid_bool(&runtime, 2, &expected_path, 89, 3, display);
        let writer = zarrdt::value::JsonWriter::new(&Cube::layout(endian));
        let Err(zarrdt::value::JsonWriteError::Invalid(written)) =
            writer.write(&bytes[60..90], &mut Vec::new())
        else {
            panic!("the JSON writer accepted an invalid bool");
        };
        let one = "element 0 at field `flags[1][2]`, byte offset 29: invalid bool byte 0x03 (must be 0x00 or 0x01)";
        assert_invalid_bool(&written, 0, &expected_path, 29, 3, one);
    }
}

#[test]
fn invalid_bool_deep_inside_arrays_of_structs() {
    let values = tops(4);
    for endian in ENDIANS {
        let mut bytes = Top::encode_slice(&values, endian);
        // Record 2 at 88; mids at 17, mids[1] at 17 + 13 = 30, leaves at +7 = 37, flag at +0.
        bytes[88 + 37] = 0xff;
        let expected_path = path(&[
            field("mids"),
            PathSegment::Index(1),
            field("leaves"),
            PathSegment::Index(0),
            field("flag"),
        ]);
        let display = "element 2 at field `mids[1].leaves[0].flag`, byte offset 125: invalid bool byte 0xff (must be 0x00 or 0x01)";
        let error = Top::decode_slice(&bytes, endian).unwrap_err();
        assert_invalid_bool(&error, 2, &expected_path, 125, 0xff, display);
        let runtime = Top::layout(endian).decode_values(&bytes).unwrap_err();
        assert_invalid_bool(&runtime, 2, &expected_path, 125, 0xff, display);
    }
}

#[test]
fn invalid_bool_behind_renamed_fields() {
    let values = renamed_outers(3);
    let mut bytes = RenamedOuter::encode_slice(&values, Endian::Big);
    // Record 1 at 9; the renamed struct at 2; "foo.mask"[1] at 1.
    bytes[9 + 2 + 1] = 7;
    let error = RenamedOuter::decode_slice(&bytes, Endian::Big).unwrap_err();
    assert_invalid_bool(
        &error,
        1,
        &path(&[field("ünïcode"), field("foo.mask"), PathSegment::Index(1)]),
        12,
        7,
        "element 1 at field `ünïcode[\"foo.mask\"][1]`, byte offset 12: invalid bool byte 0x07 (must be 0x00 or 0x01)",
    );
}

#[test]
fn invalid_bool_in_try_from_bytes_fast_path_struct() {
    let values = zc_flaggeds(6);
    for endian in ENDIANS {
        let good = ZcFlagged::encode_slice(&values, endian);
        let mut bytes = good.clone();
        // Record 3 at 36; inner at 4, inner.flag at 2 within it.
        bytes[36 + 4 + 2] = 2;
        let expected_path = path(&[field("inner"), field("flag")]);
        let display = "element 3 at field `inner.flag`, byte offset 42: invalid bool byte 0x02 (must be 0x00 or 0x01)";
        let error = ZcFlagged::decode_slice(&bytes, endian).unwrap_err();
        assert_invalid_bool(&error, 3, &expected_path, 42, 2, display);

        // Appending: what was in the vector before stays.
        let mut out = ZcFlagged::decode_slice(&good[..24], endian).unwrap();
        let error = ZcFlagged::decode_slice_into(&bytes, endian, &mut out).unwrap_err();
        assert_invalid_bool(&error, 3, &expected_path, 42, 2, display);
        assert!(out.len() >= 2);
        assert_bitwise_eq(&out[..2], &values[..2], "kept elements");

        // A bad bool in an array field of record 0.
        let mut bytes = good.clone();
        bytes[8 + 2] = 0x10;
        let error = ZcFlagged::decode_slice(&bytes, endian).unwrap_err();
        assert_invalid_bool(
            &error,
            0,
            &path(&[field("flags"), PathSegment::Index(2)]),
            10,
            0x10,
            "element 0 at field `flags[2]`, byte offset 10: invalid bool byte 0x10 (must be 0x00 or 0x01)",
        );

        // The valid chunk still decodes.
        let decoded = ZcFlagged::decode_slice(&good, endian).unwrap();
        assert_bitwise_eq(&decoded, &values, "valid chunk");
    }
}

#[test]
fn invalid_bool_in_padded_try_from_bytes_struct() {
    let values = zc_padded_flags(4);
    let mut bytes = ZcPaddedFlag::encode_slice(&values, Endian::Little);
    bytes[10] = 3;
    let error = ZcPaddedFlag::decode_slice(&bytes, Endian::Little).unwrap_err();
    assert_invalid_bool(
        &error,
        2,
        &path(&[field("flag")]),
        10,
        3,
        "element 2 at field `flag`, byte offset 10: invalid bool byte 0x03 (must be 0x00 or 0x01)",
    );
}

#[test]
fn decode_of_a_short_or_long_buffer_is_a_buffer_length_error() {
    let bytes = Particle::encode_slice(&particles(2), Endian::Little);
    for endian in ENDIANS {
        assert_buffer_length(&Particle::decode(&bytes[..28], endian).unwrap_err(), 29, 28);
        assert_buffer_length(&Particle::decode(&bytes[..30], endian).unwrap_err(), 29, 30);
        assert_buffer_length(&Particle::decode(&[], endian).unwrap_err(), 29, 0);
        assert_buffer_length(&ZcPoint::decode(&[0; 31], endian).unwrap_err(), 32, 31);
        assert_buffer_length(&ZcFlagged::decode(&[0; 13], endian).unwrap_err(), 12, 13);
    }
}

#[test]
fn ragged_slices_are_chunk_length_errors() {
    for endian in ENDIANS {
        let error = Particle::decode_slice(&[0; 59], endian).unwrap_err();
        assert_chunk_length(&error, 59, 29);
        let error = ZcPoint::decode_slice(&[0; 32 * 2 + 5], endian).unwrap_err();
        assert_chunk_length(&error, 69, 32);
        let error = ZcFlagged::decode_slice(&[0; 11], endian).unwrap_err();
        assert_chunk_length(&error, 11, 12);
        let mut out = zc_points(1);
        let error = ZcPoint::decode_slice_into(&[0; 33], endian, &mut out).unwrap_err();
        assert_chunk_length(&error, 33, 32);
        assert_eq!(out.len(), 1, "nothing appended on a ragged chunk");
    }
}

#[test]
fn encoding_into_a_wrong_size_buffer_is_a_buffer_length_error() {
    let values = particles(2);
    let points = zc_points(3);
    for endian in ENDIANS {
        for len in [0, 57, 59, 87] {
            let mut buffer = vec![0xcc; len];
            let error = Particle::encode_slice_into(&values, &mut buffer, endian).unwrap_err();
            assert_buffer_length(&error, 58, len);
            assert!(buffer.iter().all(|&b| b == 0xcc), "buffer untouched");
        }
        for len in [95, 97] {
            let mut buffer = vec![0; len];
            let error = ZcPoint::encode_slice_into(&points, &mut buffer, endian).unwrap_err();
            assert_buffer_length(&error, 96, len);
        }
        let mut buffer = [0u8; 28];
        let error = values[0].encode_into(&mut buffer, endian).unwrap_err();
        assert_buffer_length(&error, 29, 28);
        // Empty slice into an empty buffer is fine.
        Particle::encode_slice_into(&[], &mut [], endian).unwrap();
    }
}

// =============================================================================================
// to_value / from_value
// =============================================================================================

#[test]
fn to_value_is_a_record_with_arrays_as_numbered_fields() {
    let particle = particles(3)[2];
    let expected = record(vec![
        ("id", Value::UInt64(particle.id)),
        (
            "pos",
            record(vec![
                ("0", Value::Float32(particle.pos[0])),
                ("1", Value::Float32(particle.pos[1])),
                ("2", Value::Float32(particle.pos[2])),
            ]),
        ),
        ("mass", Value::Float64(particle.mass)),
        ("alive", Value::Bool(particle.alive)),
    ]);
    assert_eq!(particle.to_value(), expected);
    let pair = Pair(-7, 0.5);
    assert_eq!(
        pair.to_value(),
        record(vec![("0", Value::Int16(-7)), ("1", Value::Float32(0.5))])
    );
    let renamed = Renamed {
        mask: 3,
        temperature: -0.0,
    };
    assert_eq!(
        renamed.to_value(),
        record(vec![
            ("foo.mask", Value::UInt8(3)),
            ("température", Value::Float64(-0.0)),
        ])
    );
    // The runtime encoder of the v3 type takes these values.
    assert_eq!(
        runtime_encode(&[particle], Endian::Big),
        particle.encode(Endian::Big)
    );
}

#[test]
fn from_value_round_trips_bit_exactly() {
    fn check<T: ZarrType + Debug>(values: &[T]) {
        let rebuilt: Vec<T> = values
            .iter()
            .map(|v| T::from_value(&v.to_value()).unwrap())
            .collect();
        assert_bitwise_eq(&rebuilt, values, std::any::type_name::<T>());
    }
    check(&particles(20));
    check(&all_scalars(20));
    check(&tops(10));
    check(&wrappeds(10));
    check(&generics_particle(5));
    check(&packeds(10));
    check(&renamed_outers(10));
    check(&cubes(10));
    check(&spectra(10));
    check(&zc_flaggeds(10));
}

#[test]
fn from_value_names_a_wrong_kind_in_a_nested_field() {
    let value = outers(1)[0].to_value();
    let bad = edit(&value, &["inner", "flag"], &|_| Some(Value::Int32(1)));
    let error = Outer::from_value(&bad).unwrap_err();
    assert_value_mismatch(
        &error,
        &path(&[field("inner"), field("flag")]),
        "bool",
        "found an int32 value",
    );

    let value = tops(1)[0].to_value();
    let bad = edit(&value, &["mids", "1", "leaves", "0", "flag"], &|_| {
        Some(Value::UInt8(1))
    });
    let error = Top::from_value(&bad).unwrap_err();
    assert_value_mismatch(
        &error,
        &path(&[
            field("mids"),
            PathSegment::Index(1),
            field("leaves"),
            PathSegment::Index(0),
            field("flag"),
        ]),
        "bool",
        "found a uint8 value",
    );

    // A struct where a scalar should be, and a scalar where a struct should be.
    let bad = edit(&value, &["mid", "scale"], &|_| Some(leaf3(0).to_value()));
    let error = Top::from_value(&bad).unwrap_err();
    assert_value_mismatch(
        &error,
        &path(&[field("mid"), field("scale")]),
        "float32",
        "found a record value",
    );
    let bad = edit(&value, &["mid", "leaf"], &|_| Some(Value::Bool(true)));
    let error = Top::from_value(&bad).unwrap_err();
    assert_value_mismatch(
        &error,
        &path(&[field("mid"), field("leaf")]),
        "Leaf3",
        "found a bool value",
    );
    let error = Outer::from_value(&Value::Int32(3)).unwrap_err();
    assert_value_mismatch(&error, &FieldPath::root(), "Outer", "found an int32 value");
}

#[test]
fn from_value_names_a_missing_field() {
    let value = outers(1)[0].to_value();
    let bad = edit(&value, &["inner", "flag"], &|_| None);
    let error = Outer::from_value(&bad).unwrap_err();
    assert_value_mismatch(
        &error,
        &path(&[field("inner"), field("flag")]),
        "Inner",
        "the record has no value for this field",
    );
    let bad = edit(&value, &["id"], &|_| None);
    let error = Outer::from_value(&bad).unwrap_err();
    assert_value_mismatch(
        &error,
        &path(&[field("id")]),
        "Outer",
        "the record has no value for this field",
    );
    let renamed = renameds(1)[0].to_value();
    let bad = edit(&renamed, &["température"], &|_| None);
    let error = Renamed::from_value(&bad).unwrap_err();
    assert_value_mismatch(
        &error,
        &path(&[field("température")]),
        "Renamed",
        "the record has no value for this field",
    );
}

#[test]
fn from_value_names_an_unknown_extra_field() {
    let value = outers(1)[0].to_value();
    let bad = edit(&value, &["inner", "extra"], &|_| Some(Value::Bool(false)));
    let error = Outer::from_value(&bad).unwrap_err();
    assert_value_mismatch(
        &error,
        &path(&[field("inner"), field("extra")]),
        "Inner",
        "the struct has no field of this name",
    );
    // The record name of a renamed field is not its Rust name.
    let renamed = renameds(1)[0].to_value();
    let bad = edit(&renamed, &["foo.mask"], &|_| None);
    let bad = edit(&bad, &["mask"], &|_| Some(Value::UInt8(1)));
    let error = Renamed::from_value(&bad).unwrap_err();
    assert_value_mismatch(
        &error,
        &path(&[field("mask")]),
        "Renamed",
        "the struct has no field of this name",
    );
}

#[test]
fn from_value_accepts_arrays_as_records_or_arrays() {
    let particle = particles(4)[3];
    let floats: Vec<Value> = particle.pos.iter().map(|&x| Value::Float32(x)).collect();
    // One value shape: `to_value` gives an array as a `Value::Subarray`, as every layout decodes it.
    let as_array = particle.to_value();
    assert_eq!(
        as_array.as_record().unwrap().get("pos"),
        Some(&Value::Subarray(SubarrayValue::from(floats.clone())))
    );
    let back = Particle::from_value(&as_array).unwrap();
    assert_bitwise_eq(&[back], &[particle], "pos as Value::Subarray");
    // The v3 struct form (fields "0", "1", "2"), which a v3 array read without a Rust type
    // gives, is accepted too.
    let as_record = edit(&particle.to_value(), &["pos"], &|_| {
        Some(record(vec![
            ("0", floats[0].clone()),
            ("1", floats[1].clone()),
            ("2", floats[2].clone()),
        ]))
    });
    let back = Particle::from_value(&as_record).unwrap();
    assert_bitwise_eq(&[back], &[particle], "pos as Value::Record");

    // Nested arrays: one array of shape [3, 2], arrays of arrays, records of arrays.
    let grid = grids(1)[0];
    let row = |r: usize| {
        Value::Subarray(SubarrayValue::from(
            grid.cells[r]
                .iter()
                .map(|&x| Value::Int16(x))
                .collect::<Vec<_>>(),
        ))
    };
    let arrays = record(vec![(
        "cells",
        Value::Subarray(SubarrayValue::from(vec![row(0), row(1), row(2)])),
    )]);
    let back = Grid::from_value(&arrays).unwrap();
    assert_eq!(back.cells, grid.cells);
    let mixed = record(vec![(
        "cells",
        Value::Subarray(SubarrayValue::from(vec![
            grid.cells[0].to_value(),
            row(1),
            grid.cells[2].to_value(),
        ])),
    )]);
    assert_eq!(Grid::from_value(&mixed).unwrap().cells, grid.cells);
    let records_of_arrays = record(vec![(
        "cells",
        record(vec![("0", row(0)), ("1", row(1)), ("2", row(2))]),
    )]);
    assert_eq!(
        Grid::from_value(&records_of_arrays).unwrap().cells,
        grid.cells
    );
    // The runtime v2 layout decodes the field as one array of shape [3, 2], which is exactly
    // `to_value`'s, and which from_value takes.
    let bytes = grid.encode(Endian::Little);
    let dynamic = Grid::layout(Endian::Little).decode_value(&bytes).unwrap();
    assert_eq!(dynamic, grid.to_value());
    let cells = dynamic.as_record().unwrap().get("cells").unwrap();
    assert_eq!(cells.as_subarray().unwrap().shape(), [3, 2]);
    assert_eq!(Grid::from_value(&dynamic).unwrap().cells, grid.cells);
}

#[test]
fn from_value_rejects_malformed_arrays() {
    let particle = particles(1)[0];
    let value = particle.to_value();
    let short = edit(&value, &["pos"], &|_| {
        Some(Value::Subarray(SubarrayValue::from(vec![
            Value::Float32(1.0),
            Value::Float32(2.0),
        ])))
    });
    let error = Particle::from_value(&short).unwrap_err();
    assert_value_mismatch(
        &error,
        &path(&[field("pos")]),
        "a subarray of shape [3]",
        "an array of shape [2]",
    );

    let wrong_item = edit(&value, &["pos"], &|_| {
        Some(Value::Subarray(SubarrayValue::from(vec![
            Value::Float32(1.0),
            Value::Float64(2.0),
            Value::Float32(3.0),
        ])))
    });
    let error = Particle::from_value(&wrong_item).unwrap_err();
    assert_value_mismatch(
        &error,
        &path(&[field("pos"), PathSegment::Index(1)]),
        "float32",
        "found a float64 value",
    );

    // A record whose fields are not "0", "1", "2" in order is no array.
    let shuffled = edit(&value, &["pos"], &|_| {
        Some(record(vec![
            ("1", Value::Float32(1.0)),
            ("0", Value::Float32(0.0)),
            ("2", Value::Float32(2.0)),
        ]))
    });
    let error = Particle::from_value(&shuffled).unwrap_err();
    assert_value_mismatch(
        &error,
        &path(&[field("pos")]),
        "a subarray of shape [3]",
        "a record whose field 0 is named \"1\", not \"0\"",
    );
    // Nor is one whose names are not plain decimal indices.
    let signed = edit(&value, &["pos"], &|_| {
        Some(record(vec![
            ("+0", Value::Float32(0.0)),
            ("01", Value::Float32(1.0)),
            ("2", Value::Float32(2.0)),
        ]))
    });
    let error = Particle::from_value(&signed).unwrap_err();
    assert_value_mismatch(
        &error,
        &path(&[field("pos")]),
        "a subarray of shape [3]",
        "a record whose field 0 is named \"+0\", not \"0\"",
    );
    let scalar_pos = edit(&value, &["pos"], &|_| Some(Value::Float32(1.0)));
    let error = Particle::from_value(&scalar_pos).unwrap_err();
    assert_value_mismatch(
        &error,
        &path(&[field("pos")]),
        "a subarray of shape [3]",
        "found a float32 value",
    );
}

// =============================================================================================
// check_data_type / check_layout
// =============================================================================================

/// `Particle`'s v3 data type JSON with its field list edited.
fn particle_type_with(edit_fields: impl FnOnce(&mut Vec<Json>)) -> DataType {
    let mut json = Particle::data_type().to_v3_json();
    let fields = json["configuration"]["fields"].as_array_mut().unwrap();
    edit_fields(fields);
    DataType::from_v3_json(&json).unwrap()
}

#[test]
fn check_data_type_accepts_the_same_type() {
    Particle::check_data_type(&Particle::data_type()).unwrap();
    Top::check_data_type(&Top::data_type()).unwrap();
    // Written out by hand.
    let written = DataType::from_v3_json(&json!({"name": "struct", "configuration": {"fields": [
        {"name": "id", "data_type": "uint64"},
        {"name": "pos", "data_type": {"name": "struct", "configuration": {"fields": [
            {"name": "0", "data_type": "float32"},
            {"name": "1", "data_type": "float32"},
            {"name": "2", "data_type": "float32"}]}}},
        {"name": "mass", "data_type": "float64"},
        {"name": "alive", "data_type": "bool"}]}}))
    .unwrap();
    Particle::check_data_type(&written).unwrap();
    assert_eq!(written, Particle::data_type());
}

#[test]
fn check_data_type_accepts_the_fixture_types() {
    fn fixture_type(case: &str) -> DataType {
        let zarr = read_json(&fixture("3.4.2", &format!("{case}.zarr/zarr.json")));
        DataType::from_v3_json(&zarr["data_type"]).unwrap()
    }
    Particle::check_data_type(&fixture_type("v3_derive_particle")).unwrap();
    Pair::check_data_type(&fixture_type("v3_derive_tuple")).unwrap();
    Renamed::check_data_type(&fixture_type("v3_derive_renamed")).unwrap();
    Grid::check_data_type(&fixture_type("v3_derive_grid")).unwrap();
    AllScalars::check_data_type(&fixture_type("v3_derive_all_scalars")).unwrap();
    // And they are not interchangeable.
    assert!(Particle::check_data_type(&fixture_type("v3_derive_tuple")).is_err());
    assert!(Renamed::check_data_type(&fixture_type("v3_derive_tuple")).is_err());
}

#[test]
fn check_data_type_reports_a_different_leaf_type() {
    let found = particle_type_with(|fields| {
        fields[1]["data_type"]["configuration"]["fields"][1]["data_type"] = json!("float64");
    });
    let error = Particle::check_data_type(&found).unwrap_err();
    assert_type_mismatch(
        &error,
        &path(&[field("pos"), field("1")]),
        "expected float32, found float64",
    );
    assert_eq!(
        error.to_string(),
        "data type mismatch at field `pos.1`: expected float32, found float64"
    );

    // Deep inside nested structs and arrays.
    let mut json = Top::data_type().to_v3_json();
    json["configuration"]["fields"][2]["data_type"]["configuration"]["fields"][1]["data_type"]["configuration"]
        ["fields"][2]["data_type"]["configuration"]["fields"][0]["data_type"]["configuration"]["fields"]
        [1]["data_type"] = json!("int16");
    let error = Top::check_data_type(&DataType::from_v3_json(&json).unwrap()).unwrap_err();
    assert_type_mismatch(
        &error,
        &path(&[
            field("mids"),
            field("1"),
            field("leaves"),
            field("0"),
            field("code"),
        ]),
        "expected uint16, found int16",
    );

    // A scalar where the struct should be.
    let error = Particle::check_data_type(&scalar(ScalarType::UInt64)).unwrap_err();
    assert_type_mismatch(
        &error,
        &FieldPath::root(),
        "expected a struct of 4 fields, found uint64",
    );
}

#[test]
fn check_data_type_reports_a_renamed_field() {
    let found = particle_type_with(|fields| fields[2]["name"] = json!("weight"));
    let error = Particle::check_data_type(&found).unwrap_err();
    assert_type_mismatch(
        &error,
        &path(&[field("mass")]),
        "expected field \"mass\" at position 2, found \"weight\" (the names differ)",
    );
    // The Rust name of a renamed field is not its record name.
    let found = DataType::from_v3_json(&json!({"name": "struct", "configuration": {"fields": [
        {"name": "mask", "data_type": "uint8"},
        {"name": "température", "data_type": "float64"}]}}))
    .unwrap();
    let error = Renamed::check_data_type(&found).unwrap_err();
    assert_type_mismatch(
        &error,
        &path(&[field("foo.mask")]),
        "expected field \"foo.mask\" at position 0, found \"mask\" (the names differ)",
    );
    assert_eq!(
        error.to_string(),
        "data type mismatch at field `[\"foo.mask\"]`: expected field \"foo.mask\" at position 0, found \"mask\" (the names differ)"
    );
}

#[test]
fn check_data_type_reports_fields_in_a_different_order() {
    let found = particle_type_with(|fields| fields.swap(2, 3));
    let error = Particle::check_data_type(&found).unwrap_err();
    assert_type_mismatch(
        &error,
        &path(&[field("mass")]),
        "expected field \"mass\" at position 2, found \"alive\" (the field order differs)",
    );
}

#[test]
fn check_data_type_reports_a_missing_field() {
    let found = particle_type_with(|fields| {
        fields.pop();
    });
    let error = Particle::check_data_type(&found).unwrap_err();
    assert_type_mismatch(
        &error,
        &path(&[field("alive")]),
        "missing field: expected 4 fields, found 3",
    );
}

#[test]
fn check_data_type_reports_an_extra_field() {
    let found = particle_type_with(|fields| {
        fields.push(json!({"name": "extra", "data_type": "int8"}));
    });
    let error = Particle::check_data_type(&found).unwrap_err();
    assert_type_mismatch(
        &error,
        &path(&[field("extra")]),
        "unexpected field: expected 4 fields, found 5",
    );
}

#[test]
fn check_layout_accepts_the_same_layout_in_any_byte_order() {
    for endian in ENDIANS {
        Particle::check_layout(&Particle::layout(endian)).unwrap();
        Top::check_layout(&Top::layout(endian)).unwrap();
        Grid::check_layout(&Grid::layout(endian)).unwrap();
    }
    let v2 = |case: &str| {
        let zarray = read_json(&fixture("2.18.7", &format!("{case}.zarr/.zarray")));
        Layout::from_v2_json(&zarray["dtype"]).unwrap()
    };
    Particle::check_layout(&v2("v2_derive_particle")).unwrap();
    Grid::check_layout(&v2("v2_derive_grid")).unwrap();
    AllScalars::check_layout(&v2("v2_derive_all_scalars")).unwrap();
    Flat::check_layout(&v2("v2_mixed_order")).unwrap();
    Flat::check_layout(&v2("v2_flat")).unwrap();
    let big = Layout::from_v2_json(&json!([
        ["id", ">u8"],
        ["pos", ">f4", [3]],
        ["mass", ">f8"],
        ["alive", "|b1"]
    ]))
    .unwrap();
    Particle::check_layout(&big).unwrap();
}

#[test]
fn check_layout_reports_padding_as_an_offset_difference() {
    let zarray = read_json(&fixture("2.18.7", "v2_aligned.zarr/.zarray"));
    assert_eq!(
        zarray["dtype"],
        json!([["a", "|u1"], ["", "|V3"], ["b", "<i4"]])
    );
    let padded = Layout::from_v2_json(&zarray["dtype"]).unwrap();
    let error = Aligned::check_layout(&padded).unwrap_err();
    assert_type_mismatch(
        &error,
        &path(&[field("b")]),
        "expected offset 1, found 4 (the stored record has padding or a different field size before it)",
    );
    // Trailing padding.
    let trailing = Layout::from_v2_json(&json!([["a", "<i4"], ["b", "<f8"], ["", "|V4"]])).unwrap();
    let error = Flat::check_layout(&trailing).unwrap_err();
    assert_type_mismatch(
        &error,
        &FieldPath::root(),
        "expected itemsize 12, found 16 (trailing padding)",
    );
}

#[test]
fn check_layout_reports_type_name_order_and_shape_differences() {
    let layout = |json: Json| Layout::from_v2_json(&json).unwrap();
    let error = Particle::check_layout(&layout(json!([
        ["id", "<u8"],
        ["pos", "<f8", [3]],
        ["mass", "<f8"],
        ["alive", "|b1"]
    ])))
    .unwrap_err();
    assert_type_mismatch(
        &error,
        &path(&[field("pos")]),
        "expected float32, found float64",
    );
    let error = Particle::check_layout(&layout(json!([
        ["id", "<u8"],
        ["pos", "<f4", [4]],
        ["mass", "<f8"],
        ["alive", "|b1"]
    ])))
    .unwrap_err();
    assert_type_mismatch(
        &error,
        &path(&[field("pos")]),
        "expected a subarray of shape [3], found a subarray of shape [4]",
    );
    let error = Grid::check_layout(&layout(json!([["cells", "<i2", [2, 3]]]))).unwrap_err();
    assert_type_mismatch(
        &error,
        &path(&[field("cells")]),
        "expected a subarray of shape [3, 2], found a subarray of shape [2, 3]",
    );
    let error = Particle::check_layout(&layout(json!([
        ["id", "<u8"],
        ["pos", "<f4", [3]],
        ["alive", "|b1"],
        ["mass", "<f8"]
    ])))
    .unwrap_err();
    assert_type_mismatch(
        &error,
        &path(&[field("mass")]),
        "expected field \"mass\" at position 2, found \"alive\" (the field order differs)",
    );
    let error = Particle::check_layout(&layout(json!([
        ["id", "<u8"],
        ["pos", "<f4", [3]],
        ["mass", "<f8"]
    ])))
    .unwrap_err();
    assert_type_mismatch(
        &error,
        &path(&[field("alive")]),
        "missing field: expected 4 fields, found 3",
    );
    let error = Flat::check_layout(&layout(json!([["a", "<i4"], ["c", "<f8"]]))).unwrap_err();
    assert_type_mismatch(
        &error,
        &path(&[field("b")]),
        "expected field \"b\" at position 1, found \"c\" (the names differ)",
    );
}

#[test]
fn decode_elements_reads_mixed_byte_order_chunks() {
    let zarray = read_json(&fixture("2.18.7", "v2_mixed_order.zarr/.zarray"));
    let layout = Layout::from_v2_json(&zarray["dtype"]).unwrap();
    assert!(layout.uniform_endian().is_err(), "the fixture mixes orders");
    // From v2_mixed_order.json "values", then the fill (1, 2.0) in the rest of the last chunk.
    let expected = [
        Flat {
            a: i32::MIN,
            b: f64::from_bits(0x7ff8_0000_0000_0000),
        },
        Flat {
            a: i32::MAX,
            b: f64::from_bits(0x8000_0000_0000_0000),
        },
        Flat {
            a: 0,
            b: f64::INFINITY,
        },
        Flat {
            a: -1,
            b: f64::NEG_INFINITY,
        },
        Flat { a: 42, b: 1.5 },
        Flat { a: 1, b: 2.0 },
    ];
    let case = read_json(&fixture("2.18.7", "v2_mixed_order.json"));
    let listed: Vec<Flat> = case["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            let bits = u64::from_str_radix(v["b"].as_str().unwrap().trim_start_matches("0x"), 16);
            Flat {
                a: i32::try_from(v["a"].as_i64().unwrap()).unwrap(),
                b: f64::from_bits(bits.unwrap()),
            }
        })
        .collect();
    assert_bitwise_eq(&listed, &expected[..5], "fixture values");

    let mut all = Vec::new();
    for chunk in 0..3 {
        let bytes = fs::read(fixture("2.18.7", &format!("v2_mixed_order.zarr/{chunk}"))).unwrap();
        let decoded = common::decode_stored::<Flat>(&layout, &bytes).unwrap();
        assert_bitwise_eq(
            &decoded,
            &expected[chunk * 2..chunk * 2 + 2],
            &format!("chunk {chunk}"),
        );
        // The input is not modified and agrees with the runtime codec.
        let dynamic = layout.decode_values(&bytes).unwrap();
        assert_eq!(values_of(&decoded), dynamic);
        all.extend(bytes);
    }
    let decoded = common::decode_stored::<Flat>(&layout, &all).unwrap();
    assert_bitwise_eq(&decoded, &expected, "all chunks");
    // Re-encoded in the stored (mixed) order, the bytes are the file's.
    assert_eq!(layout.encode_values(&values_of(&decoded)).unwrap(), all);
    // A ragged chunk is still an error.
    let error = common::decode_stored::<Flat>(&layout, &all[..13]).unwrap_err();
    assert_chunk_length(&error, 13, 12);
}
