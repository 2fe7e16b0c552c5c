#![allow(clippy::unwrap_used)]
//! Property tests of `#[derive(ZarrStruct)]` against the runtime struct codec, on random
//! instances whose floats are random bit patterns (NaN payloads, signalling NaNs, -0.0,
//! infinities and subnormals included):
//!
//! (a) the derived `encode_slice` equals the runtime codec's encoding of the `to_value`s;
//! (b) `decode(encode(x))` is `x`, bit for bit (one value and slices);
//! (c) the runtime codec decodes the derived bytes into values that `from_value` turns back into
//!     the same bytes;
//! (d) each value's fill value JSON (v3 object, v2 base64) reads back as the same bits.
//!
//! The structs cover every field kind the derive takes: all core scalars, float16 and complex,
//! arrays, text, bytes and time types, and four levels of nesting.
//!
//! Each property is checked in both byte orders.

use crate::common;

use common::random::{c64_any, c128_any, f16_any, f32_any, f64_any};
use common::records::AllScalars;

use std::fmt::Debug;

use half::f16;
use num_complex::Complex;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use zarrdt::layout::Layout;
use zarrdt::time::{Milliseconds, Seconds};
use zarrdt::value::Value;
use zarrdt::{
    ByteString, DateTime64, Endian, FixedString, RawBytes, TimeDelta64, ZarrStruct, ZarrType,
};

// =============================================================================================
// The structs
// =============================================================================================

/// Flat scalars of mixed sizes.
#[derive(ZarrStruct, Clone, Copy, Debug)]
struct Flat {
    a: i32,
    b: f64,
    c: u8,
    d: f32,
    e: i16,
}

#[derive(ZarrStruct, Clone, Copy, Debug)]
struct InnerRecord {
    flag: bool,
    x: f32,
    z: Complex<f32>,
}

/// Nested structs, arrays of structs, nested arrays and bools.
#[derive(ZarrStruct, Clone, Copy, Debug)]
struct Nested {
    id: u16,
    inner: [InnerRecord; 2],
    flags: [bool; 3],
    grid: [[f16; 2]; 2],
    #[zarr(rename = "tail.z")]
    tail: Complex<f64>,
    last: InnerRecord,
}

/// The zerocopy fast path (memory layout = packed layout), with a float that may be any bits.
#[derive(
    ZarrStruct,
    zerocopy::IntoBytes,
    zerocopy::FromBytes,
    zerocopy::Immutable,
    zerocopy::KnownLayout,
    Clone,
    Copy,
    Debug,
)]
#[repr(C)]
struct Native {
    x: f64,
    n: u32,
    tag: [u8; 2],
    h: f16,
}

/// The validating zerocopy fast path (`TryFromBytes`: bools).
#[derive(
    ZarrStruct,
    zerocopy::IntoBytes,
    zerocopy::TryFromBytes,
    zerocopy::Immutable,
    zerocopy::KnownLayout,
    Clone,
    Copy,
    Debug,
)]
#[repr(C)]
struct NativeFlags {
    n: u16,
    flags: [bool; 2],
    x: f32,
}

/// The text, bytes and time field types.
#[derive(ZarrStruct, Clone, Copy, Debug)]
struct Texts {
    name: FixedString<3>,
    code: ByteString<4>,
    raw: RawBytes<3>,
    at: DateTime64<Milliseconds>,
    span: TimeDelta64<Seconds, 10>,
}

/// Four levels of nesting below `Deep`: `Deep.l1.l2.inner[i].texts`.
#[derive(ZarrStruct, Clone, Copy, Debug)]
struct Level3 {
    texts: Texts,
    halves: [f16; 2],
}

#[derive(ZarrStruct, Clone, Copy, Debug)]
struct Level2 {
    inner: [Level3; 2],
    c: Complex<f64>,
}

#[derive(ZarrStruct, Clone, Copy, Debug)]
struct Level1 {
    l2: Level2,
    flag: bool,
}

#[derive(ZarrStruct, Clone, Copy, Debug)]
struct Deep {
    id: i64,
    l1: Level1,
}

// =============================================================================================
// Strategies
// =============================================================================================

fn flat() -> impl Strategy<Value = Flat> {
    (
        any::<i32>(),
        f64_any(),
        any::<u8>(),
        f32_any(),
        any::<i16>(),
    )
        .prop_map(|(a, b, c, d, e)| Flat { a, b, c, d, e })
}

fn inner_record() -> impl Strategy<Value = InnerRecord> {
    (any::<bool>(), f32_any(), c64_any()).prop_map(|(flag, x, z)| InnerRecord { flag, x, z })
}

fn nested() -> impl Strategy<Value = Nested> {
    (
        any::<u16>(),
        [inner_record(), inner_record()],
        any::<[bool; 3]>(),
        [[f16_any(), f16_any()], [f16_any(), f16_any()]],
        c128_any(),
        inner_record(),
    )
        .prop_map(|(id, inner, flags, grid, tail, last)| Nested {
            id,
            inner,
            flags,
            grid,
            tail,
            last,
        })
}

fn all_scalars() -> impl Strategy<Value = AllScalars> {
    let integers = (
        any::<bool>(),
        any::<i8>(),
        any::<i16>(),
        any::<i32>(),
        any::<i64>(),
        any::<u8>(),
        any::<u16>(),
        any::<u32>(),
        any::<u64>(),
    );
    let floats = (f16_any(), f32_any(), f64_any(), c64_any(), c128_any());
    (integers, floats).prop_map(
        |((b, i8, i16, i32, i64, u8, u16, u32, u64), (f16, f32, f64, c64, c128))| AllScalars {
            b,
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
            c64,
            c128,
        },
    )
}

fn native() -> impl Strategy<Value = Native> {
    (f64_any(), any::<u32>(), any::<[u8; 2]>(), f16_any()).prop_map(|(x, n, tag, h)| Native {
        x,
        n,
        tag,
        h,
    })
}

fn native_flags() -> impl Strategy<Value = NativeFlags> {
    (any::<u16>(), any::<[bool; 2]>(), f32_any()).prop_map(|(n, flags, x)| NativeFlags {
        n,
        flags,
        x,
    })
}

fn texts() -> impl Strategy<Value = Texts> {
    (
        prop::collection::vec(any::<char>(), 0..=3),
        prop::collection::vec(any::<u8>(), 0..=4),
        any::<[u8; 3]>(),
        any::<i64>(),
        prop_oneof![Just(i64::MIN), any::<i64>()],
    )
        .prop_map(|(name, code, raw, at, span)| Texts {
            name: FixedString::new(&name.into_iter().collect::<String>()).unwrap(),
            code: ByteString::new(&code).unwrap(),
            raw: RawBytes::new(raw),
            at: DateTime64::new(at),
            span: TimeDelta64::new(span),
        })
}

fn level3() -> impl Strategy<Value = Level3> {
    (texts(), [f16_any(), f16_any()]).prop_map(|(texts, halves)| Level3 { texts, halves })
}

fn deep() -> impl Strategy<Value = Deep> {
    (
        any::<i64>(),
        [level3(), level3()],
        c128_any(),
        any::<bool>(),
    )
        .prop_map(|(id, inner, c, flag)| Deep {
            id,
            l1: Level1 {
                l2: Level2 { inner, c },
                flag,
            },
        })
}

/// Chunks of 0 to 40 elements.
fn chunk<T: Debug>(element: impl Strategy<Value = T>) -> impl Strategy<Value = Vec<T>> {
    prop::collection::vec(element, 0..40)
}

// =============================================================================================
// The properties
// =============================================================================================

const ENDIANS: [Endian; 2] = [Endian::Little, Endian::Big];

fn runtime_layout<T: ZarrType>(endian: Endian) -> Layout {
    Layout::from_data_type(&T::data_type(), Some(endian)).unwrap()
}

/// (a) The derived encoding is the runtime struct codec's.
fn encodes_like_runtime_codec<T: ZarrType>(values: &[T]) -> Result<(), TestCaseError> {
    let dynamic: Vec<Value> = values.iter().map(ZarrType::to_value).collect();
    for endian in ENDIANS {
        let derived = T::encode_slice(values, endian);
        prop_assert_eq!(derived.len(), values.len() * T::SIZE);
        let runtime = runtime_layout::<T>(endian).encode_values(&dynamic).unwrap();
        prop_assert_eq!(&derived, &runtime, "{} endian", endian);
        // And the v2 layout (arrays as subarrays) encodes the same bytes.
        let v2 = T::layout(endian).encode_values(&dynamic).unwrap();
        prop_assert_eq!(&derived, &v2, "{} endian, v2 layout", endian);
    }
    Ok(())
}

/// (b) Decoding the encoding gives the values back, bit for bit.
fn decodes_to_the_same_bits<T: ZarrType>(values: &[T]) -> Result<(), TestCaseError> {
    let dynamic: Vec<Value> = values.iter().map(ZarrType::to_value).collect();
    for endian in ENDIANS {
        let bytes = T::encode_slice(values, endian);
        let back = T::decode_slice(&bytes, endian).unwrap();
        let back_dynamic: Vec<Value> = back.iter().map(ZarrType::to_value).collect();
        prop_assert_eq!(&back_dynamic, &dynamic, "{} endian", endian);
        prop_assert_eq!(&T::encode_slice(&back, endian), &bytes, "{} endian", endian);
        for (index, value) in values.iter().enumerate() {
            let one = value.encode(endian);
            prop_assert_eq!(&one[..], &bytes[index * T::SIZE..(index + 1) * T::SIZE]);
            let decoded = T::decode(&one, endian).unwrap();
            prop_assert_eq!(decoded.to_value(), value.to_value(), "{} endian", endian);
            prop_assert_eq!(decoded.encode(endian), one, "{} endian", endian);
        }
    }
    Ok(())
}

/// (c) The runtime codec reads the derived bytes into values that are the Rust values.
fn runtime_decode_round_trips<T: ZarrType>(values: &[T]) -> Result<(), TestCaseError> {
    for endian in ENDIANS {
        let bytes = T::encode_slice(values, endian);
        let decoded = runtime_layout::<T>(endian).decode_values(&bytes).unwrap();
        prop_assert_eq!(decoded.len(), values.len());
        let rebuilt: Vec<T> = decoded.iter().map(|v| T::from_value(v).unwrap()).collect();
        prop_assert_eq!(
            &T::encode_slice(&rebuilt, endian),
            &bytes,
            "{} endian",
            endian
        );
        for (value, dynamic) in values.iter().zip(&decoded) {
            prop_assert_eq!(&value.to_value(), dynamic, "{} endian", endian);
        }
        // The v2 layout decodes arrays as Value::Subarray, which from_value takes too.
        let v2 = T::layout(endian).decode_values(&bytes).unwrap();
        let rebuilt: Vec<T> = v2.iter().map(|v| T::from_value(v).unwrap()).collect();
        prop_assert_eq!(
            &T::encode_slice(&rebuilt, endian),
            &bytes,
            "{} endian, v2",
            endian
        );
    }
    Ok(())
}

/// (d) Each value is a fill value: its v3 JSON (and the v2 base64 of the record) reads back
/// as the same bits (the first four values of a chunk, to keep the run short).
fn fill_values_round_trip<T: ZarrType>(values: &[T]) -> Result<(), TestCaseError> {
    let data_type = T::data_type();
    for value in values.iter().take(4) {
        let dynamic = value.to_value();
        let json = data_type.fill_value_to_v3_json(&dynamic).unwrap();
        let back = T::from_value(&data_type.fill_value_from_v3_json(&json, None).unwrap()).unwrap();
        prop_assert_eq!(
            back.encode(Endian::Little),
            value.encode(Endian::Little),
            "{}",
            json
        );
        for endian in ENDIANS {
            let layout = T::layout(endian);
            let json = layout.fill_value_to_v2_json(Some(&dynamic)).unwrap();
            let back = layout.fill_value_from_v2_json(&json).unwrap().unwrap();
            prop_assert_eq!(
                T::from_value(&back).unwrap().encode(endian),
                value.encode(endian)
            );
        }
    }
    Ok(())
}

fn all_properties<T: ZarrType>(values: &[T]) -> Result<(), TestCaseError> {
    encodes_like_runtime_codec(values)?;
    decodes_to_the_same_bits(values)?;
    runtime_decode_round_trips(values)?;
    fill_values_round_trip(values)
}

proptest! {
    #![proptest_config(crate::common::random::config_of(256))]

    #[test]
    fn flat_struct(values in chunk(flat())) {
        all_properties(&values)?;
    }

    #[test]
    fn nested_struct(values in chunk(nested())) {
        all_properties(&values)?;
    }

    #[test]
    fn all_scalars_struct(values in chunk(all_scalars())) {
        all_properties(&values)?;
    }

    #[test]
    fn text_bytes_and_time_fields(values in chunk(texts())) {
        all_properties(&values)?;
    }

    #[test]
    fn four_levels_of_nesting(values in chunk(deep())) {
        all_properties(&values)?;
    }

    /// Corrupted chunks of text fields (UTF-32 code units) decode like the runtime codec.
    #[test]
    fn corrupted_text_chunks(values in chunk(texts()), corruption in corruption()) {
        corrupted_bytes_decode_like_runtime_codec(&values, corruption)?;
    }

    #[test]
    fn zerocopy_struct(values in chunk(native())) {
        all_properties(&values)?;
    }

    #[test]
    fn zerocopy_struct_with_bools(values in chunk(native_flags())) {
        all_properties(&values)?;
    }

    /// Corrupted chunks decode like the runtime codec decodes them.
    #[test]
    fn corrupted_nested_chunks(values in chunk(nested()), corruption in corruption()) {
        corrupted_bytes_decode_like_runtime_codec(&values, corruption)?;
    }

    /// The same through the validating zerocopy fast path.
    #[test]
    fn corrupted_native_flag_chunks(values in chunk(native_flags()), corruption in corruption()) {
        corrupted_bytes_decode_like_runtime_codec(&values, corruption)?;
    }
}

/// A byte to overwrite somewhere in a chunk, or none.
fn corruption() -> impl Strategy<Value = Option<(prop::sample::Index, u8)>> {
    prop::option::weighted(
        0.7,
        (
            any::<prop::sample::Index>(),
            prop_oneof![Just(0u8), Just(1), Just(2), any::<u8>()],
        ),
    )
}

/// Encodes `values`, overwrites one byte, and decodes: whatever decodes re-encodes to the same
/// bytes and is what the runtime codec reads; what fails (a bool byte other than 0/1 is the
/// only invalid content) fails in the runtime codec too, with the same error: the same text
/// as the v2 layout's (arrays indexed `[i]`), and the same element, offset and fault as the v3
/// type's (where arrays are structs of fields "0", "1", ...).
fn corrupted_bytes_decode_like_runtime_codec<T: ZarrType>(
    values: &[T],
    corruption: Option<(prop::sample::Index, u8)>,
) -> Result<(), TestCaseError> {
    for endian in ENDIANS {
        let mut bytes = T::encode_slice(values, endian);
        if let Some((at, byte)) = corruption
            && !bytes.is_empty()
        {
            let at = at.index(bytes.len());
            bytes[at] = byte;
        }
        let derived = T::decode_slice(&bytes, endian);
        let v3 = runtime_layout::<T>(endian).decode_values(&bytes);
        let v2 = T::layout(endian).decode_values(&bytes);
        match (derived, v3, v2) {
            (Ok(decoded), Ok(dynamic), Ok(_)) => {
                prop_assert_eq!(&T::encode_slice(&decoded, endian), &bytes);
                let from_derived: Vec<Value> = decoded.iter().map(ZarrType::to_value).collect();
                prop_assert_eq!(from_derived, dynamic);
            }
            (Err(derived), Err(v3), Err(v2)) => {
                prop_assert_eq!(derived.to_string(), v2.to_string());
                prop_assert!(location(&derived).is_some(), "{}", derived);
                prop_assert_eq!(location(&derived), location(&v3));
            }
            (a, b, c) => {
                return Err(TestCaseError::fail(format!(
                    "derived {:?} vs runtime {:?} / {:?}",
                    a.err(),
                    b.err(),
                    c.err()
                )));
            }
        }
    }
    Ok(())
}

/// ZarrType index, byte offset and fault of an invalid-element error.
fn location(error: &zarrdt::Error) -> Option<(usize, usize, zarrdt::advanced::ElementFault)> {
    match error {
        zarrdt::Error::InvalidElement {
            index,
            offset,
            fault,
            ..
        } => Some((*index, *offset, fault.clone())),
        _ => None,
    }
}

/// The strategies do produce the special values the properties are about.
#[test]
fn strategies_produce_special_floats() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut negative_zero, mut nan_payload, mut negative_nan) = (false, false, false);
    for _ in 0..2000 {
        let x = f64_any().new_tree(&mut runner).unwrap().current();
        negative_zero |= x.to_bits() == 0x8000_0000_0000_0000;
        nan_payload |= x.is_nan() && x.to_bits() & 0x0007_ffff_ffff_ffff != 0;
        negative_nan |= x.is_nan() && x.is_sign_negative();
    }
    assert!(negative_zero && nan_payload && negative_nan);
    let mut payload16 = false;
    for _ in 0..2000 {
        let h = f16_any().new_tree(&mut runner).unwrap().current();
        payload16 |= h.is_nan() && h.to_bits() & 0x01ff != 0;
    }
    assert!(payload16);
}
