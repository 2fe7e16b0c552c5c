//! Conformance of the `bytes` codec (seed 002): exact bytes of every type in both byte orders,
//! the `endian` rules, bool validation, chunk lengths, the codec's JSON, and round trips of
//! every Rust element type through the typed (`ZarrType`, `BytesCodec::encode`) and dynamic
//! (`BytesCodec::encode_values`) paths, which must give identical bytes.
//!
//! Every table row cites its rule.

#![allow(clippy::unwrap_used)]

use crate::common;

use common::rows::run_rows;

use std::fmt::Debug;

use half::f16;
use num_complex::Complex;
use proptest::prelude::*;
use serde_json::{Value as Json, json};
use zarrdt::advanced::ElementFault;
use zarrdt::metadata::BytesCodec;
use zarrdt::types::{DataType, ScalarType};
use zarrdt::value::Value;
use zarrdt::{Endian, Error, ZarrType};

const ENDIANS: [Endian; 2] = [Endian::Little, Endian::Big];

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn data_type(name: &str) -> DataType {
    DataType::from_v3_json(&json!(name)).unwrap()
}

/// `"00 3c ff"` as bytes.
fn hex(text: &str) -> Vec<u8> {
    text.split_whitespace()
        .map(|byte| u8::from_str_radix(byte, 16).unwrap())
        .collect()
}

/// Values through the codec's byte order for writing `T` and `ZarrType::encode_slice`.
fn codec_encode<T: ZarrType>(codec: BytesCodec, values: &[Value]) -> Result<Vec<u8>, Error> {
    let typed: Vec<T> = values.iter().map(T::from_value).collect::<Result<_, _>>()?;
    Ok(T::encode_slice(
        &typed,
        codec.write_endian(&T::data_type())?,
    ))
}

/// Bytes through the codec's byte order for reading and `ZarrType::decode_slice`, as values.
fn codec_decode<T: ZarrType>(codec: BytesCodec, bytes: &[u8]) -> Result<Vec<Value>, Error> {
    Ok(T::decode_slice(bytes, codec.read_endian())?
        .iter()
        .map(T::to_value)
        .collect())
}

/// Values through `ZarrType::encode_slice`.
fn slice_encode<T: ZarrType>(endian: Endian, values: &[Value]) -> Vec<u8> {
    let typed: Vec<T> = values.iter().map(|v| T::from_value(v).unwrap()).collect();
    T::encode_slice(&typed, endian)
}

/// Bytes through `ZarrType::decode_slice`, as values.
fn slice_decode<T: ZarrType>(endian: Endian, bytes: &[u8]) -> Result<Vec<Value>, Error> {
    Ok(T::decode_slice(bytes, endian)?
        .iter()
        .map(T::to_value)
        .collect())
}

/// Calls `$f::<T>(args…)` with the Rust element type of a scalar type; `None` for types without
/// one (raw bits).
macro_rules! with_rust_type {
    ($scalar:expr, $f:ident($($arg:expr),*)) => {
        match $scalar {
            ScalarType::Bool => Some($f::<bool>($($arg),*)),
            ScalarType::Int8 => Some($f::<i8>($($arg),*)),
            ScalarType::Int16 => Some($f::<i16>($($arg),*)),
            ScalarType::Int32 => Some($f::<i32>($($arg),*)),
            ScalarType::Int64 => Some($f::<i64>($($arg),*)),
            ScalarType::UInt8 => Some($f::<u8>($($arg),*)),
            ScalarType::UInt16 => Some($f::<u16>($($arg),*)),
            ScalarType::UInt32 => Some($f::<u32>($($arg),*)),
            ScalarType::UInt64 => Some($f::<u64>($($arg),*)),
            ScalarType::Float16 => Some($f::<f16>($($arg),*)),
            ScalarType::Float32 => Some($f::<f32>($($arg),*)),
            ScalarType::Float64 => Some($f::<f64>($($arg),*)),
            ScalarType::Complex64 => Some($f::<Complex<f32>>($($arg),*)),
            ScalarType::Complex128 => Some($f::<Complex<f64>>($($arg),*)),
            _ => None,
        }
    };
}

fn scalar_of(dt: &DataType) -> ScalarType {
    dt.as_scalar().unwrap()
}

fn f16v(bits: u16) -> Value {
    Value::Float16(f16::from_bits(bits))
}
fn f32v(bits: u32) -> Value {
    Value::Float32(f32::from_bits(bits))
}
fn f64v(bits: u64) -> Value {
    Value::Float64(f64::from_bits(bits))
}
fn c64(re: f32, im: f32) -> Value {
    Value::Complex64(Complex::new(re, im))
}
fn c128(re: f64, im: f64) -> Value {
    Value::Complex128(Complex::new(re, im))
}
fn raw(bytes: &[u8]) -> Value {
    Value::Bytes(bytes.to_vec())
}

// ---------------------------------------------------------------------------------------------
// Exact bytes of every type in both orders
// ---------------------------------------------------------------------------------------------

const ORDER: &str =
    "002: each element encoded in the endian variant; elements in lexicographical order";

struct BytesRow {
    rule: &'static str,
    data_type: &'static str,
    values: Vec<Value>,
    little: &'static str,
    big: &'static str,
}

#[rustfmt::skip]
fn bytes_rows() -> Vec<BytesRow> {
    let row = |rule, data_type, values, little, big| BytesRow { rule, data_type, values, little, big };
    vec![
        row("002 bool: single byte, false \\x00 and true \\x01; does not depend on endian", "bool",
            vec![Value::Bool(true), Value::Bool(false), Value::Bool(true)], "01 00 01", "01 00 01"),
        row("002 int8: 1 byte two's complement; does not depend on endian", "int8",
            vec![Value::Int8(-1), Value::Int8(1), Value::Int8(i8::MIN)], "ff 01 80", "ff 01 80"),
        row("002 uint8: 1 byte; does not depend on endian", "uint8",
            vec![Value::UInt8(0), Value::UInt8(0xab), Value::UInt8(0xff)], "00 ab ff", "00 ab ff"),
        row("002 int16: 2-byte two's complement", "int16",
            vec![Value::Int16(1), Value::Int16(-2)], "01 00 fe ff", "00 01 ff fe"),
        row(ORDER, "uint16",
            vec![Value::UInt16(1), Value::UInt16(2), Value::UInt16(3)], "01 00 02 00 03 00", "00 01 00 02 00 03"),
        row(ORDER, "float32",
            vec![Value::Float32(1.0), Value::Float32(2.0)], "00 00 80 3f 00 00 00 40", "3f 80 00 00 40 00 00 00"),
        row("002 uint16: 2-byte", "uint16",
            vec![Value::UInt16(0x1234), Value::UInt16(0xff00)], "34 12 00 ff", "12 34 ff 00"),
        row("002: with endian big, int32 is a 4-byte big endian two's complement integer (1 = 00 00 00 01)", "int32",
            vec![Value::Int32(1)], "01 00 00 00", "00 00 00 01"),
        row("002 int32: 4-byte two's complement", "int32",
            vec![Value::Int32(-2), Value::Int32(i32::MIN)], "fe ff ff ff 00 00 00 80", "ff ff ff fe 80 00 00 00"),
        row("002 uint32: 4-byte", "uint32",
            vec![Value::UInt32(0xdead_beef)], "ef be ad de", "de ad be ef"),
        row("002 int64: 8-byte two's complement", "int64",
            vec![Value::Int64(1), Value::Int64(-1)],
            "01 00 00 00 00 00 00 00 ff ff ff ff ff ff ff ff",
            "00 00 00 00 00 00 00 01 ff ff ff ff ff ff ff ff"),
        row("002 uint64: 8-byte", "uint64",
            vec![Value::UInt64(0x0102_0304_0506_0708)],
            "08 07 06 05 04 03 02 01", "01 02 03 04 05 06 07 08"),
        row("002 float16: 2-byte IEEE 754 binary16", "float16",
            vec![f16v(0x3c00), f16v(0xc000), f16v(0x7e00)], "00 3c 00 c0 00 7e", "3c 00 c0 00 7e 00"),
        row("002 float16: NaN payloads are bits like any other", "float16",
            vec![f16v(0x7e01), f16v(0x8000)], "01 7e 00 80", "7e 01 80 00"),
        row("002 float32: 4-byte IEEE 754 binary32", "float32",
            vec![Value::Float32(1.0), Value::Float32(-0.0)], "00 00 80 3f 00 00 00 80", "3f 80 00 00 80 00 00 00"),
        row("002 float32: NaN payloads are bits like any other", "float32",
            vec![f32v(0x7fc0_0001)], "01 00 c0 7f", "7f c0 00 01"),
        row("002 float64: 8-byte IEEE 754 binary64", "float64",
            vec![Value::Float64(1.0), Value::Float64(-0.0)],
            "00 00 00 00 00 00 f0 3f 00 00 00 00 00 00 00 80",
            "3f f0 00 00 00 00 00 00 80 00 00 00 00 00 00 00"),
        row("002 float64: NaN payloads are bits like any other", "float64",
            vec![f64v(0xfff8_0000_0000_0001)],
            "01 00 00 00 00 00 f8 ff", "ff f8 00 00 00 00 00 01"),
        row("002 complex64: 2 consecutive 4-byte binary32 (real followed by imaginary)", "complex64",
            vec![c64(1.0, 2.0)], "00 00 80 3f 00 00 00 40", "3f 80 00 00 40 00 00 00"),
        row("002: complex128 is two consecutive 8-byte big endian binary64 values (real, then imaginary)", "complex128",
            vec![c128(1.0, 2.0)],
            "00 00 00 00 00 00 f0 3f 00 00 00 00 00 00 00 40",
            "3f f0 00 00 00 00 00 00 40 00 00 00 00 00 00 00"),
        row("002 complex128: each half in the order, NaN payload and -0.0 kept", "complex128",
            vec![c128(-0.0, f64::from_bits(0x7ff8_0000_0000_00ab))],
            "00 00 00 00 00 00 00 80 ab 00 00 00 00 00 f8 7f",
            "80 00 00 00 00 00 00 00 7f f8 00 00 00 00 00 ab"),
        row("002 r*: number of bits, a multiple of 8; bytes as they are", "r8",
            vec![raw(&[0xff]), raw(&[0x00])], "ff 00", "ff 00"),
        row("002 r*: raw bytes are not swapped (r24 is 3 bytes)", "r24",
            vec![raw(&[1, 2, 3]), raw(&[4, 5, 6])], "01 02 03 04 05 06", "01 02 03 04 05 06"),
        row("002 r*: raw bytes are not swapped", "r32",
            vec![raw(&[0xde, 0xad, 0xbe, 0xef])], "de ad be ef", "de ad be ef"),
    ]
}

#[test]
fn exact_bytes_in_both_orders() {
    run_rows(
        bytes_rows(),
        |row| format!("[{}] {}", row.rule, row.data_type),
        |row| {
            let BytesRow {
                rule,
                data_type: name,
                values,
                little,
                big,
            } = row;
            let dt = data_type(name);
            let scalar = scalar_of(&dt);
            for (endian, expected) in [(Endian::Little, hex(little)), (Endian::Big, hex(big))] {
                let context = format!("[{rule}] {name} {endian}");
                let codec = BytesCodec::new(Some(endian));
                // Dynamic path.
                assert_eq!(
                    codec.encode_values(&dt, values).unwrap(),
                    expected,
                    "{context}: encode_values"
                );
                assert_eq!(
                    &codec.decode_values(&dt, &expected).unwrap(),
                    values,
                    "{context}: decode_values"
                );
                // Typed paths, where the type has a Rust element type.
                if let Some(encoded) = with_rust_type!(scalar, codec_encode(codec, values)) {
                    assert_eq!(encoded.unwrap(), expected, "{context}: BytesCodec::encode");
                }
                if let Some(decoded) = with_rust_type!(scalar, codec_decode(codec, &expected)) {
                    assert_eq!(&decoded.unwrap(), values, "{context}: BytesCodec::decode");
                }
                if let Some(encoded) = with_rust_type!(scalar, slice_encode(endian, values)) {
                    assert_eq!(encoded, expected, "{context}: ZarrType::encode_slice");
                }
                if let Some(decoded) = with_rust_type!(scalar, slice_decode(endian, &expected)) {
                    assert_eq!(
                        &decoded.unwrap(),
                        values,
                        "{context}: ZarrType::decode_slice"
                    );
                }
            }
            // Rule "decoding with a missing endian reads little-endian".
            let context = format!("[decoding without endian reads little-endian] {name}");
            let unconfigured = BytesCodec::new(None);
            assert_eq!(unconfigured.read_endian(), Endian::Little, "{context}");
            assert_eq!(
                &unconfigured.decode_values(&dt, &hex(little)).unwrap(),
                values,
                "{context}"
            );
            if let Some(decoded) = with_rust_type!(scalar, codec_decode(unconfigured, &hex(little)))
            {
                assert_eq!(&decoded.unwrap(), values, "{context}: typed");
            }
        },
    );
}

/// Rule "decoding with a missing endian reads little-endian", on values whose two orders differ.
#[test]
#[rustfmt::skip]
fn decoding_without_endian_reads_little_endian() {
    const RULE: &str = "issue: decoding with a missing endian reads little-endian";
    let rows: Vec<(&str, &str, Value)> = vec![
        ("int32", "01 00 00 00", Value::Int32(1)),
        ("uint16", "34 12", Value::UInt16(0x1234)),
        ("int64", "fe ff ff ff ff ff ff ff", Value::Int64(-2)),
        ("float16", "00 3c", f16v(0x3c00)),
        ("float32", "00 00 80 3f", Value::Float32(1.0)),
        ("float64", "00 00 00 00 00 00 f0 3f", Value::Float64(1.0)),
        ("complex64", "00 00 80 3f 00 00 00 40", c64(1.0, 2.0)),
    ];
    run_rows(rows, |(name, ..)| format!("[{RULE}] {name}"), |(name, bytes, value)| {
        let dt = data_type(name);
        let decoded = BytesCodec::new(None).decode_values(&dt, &hex(bytes)).unwrap();
        assert_eq!(decoded, std::slice::from_ref(value), "[{RULE}] {name}");
        let typed = with_rust_type!(scalar_of(&dt), codec_decode(BytesCodec::new(None), &hex(bytes))).unwrap();
        assert_eq!(typed.unwrap(), std::slice::from_ref(value), "[{RULE}] {name} typed");
    });
}

// ---------------------------------------------------------------------------------------------
// `endian` is required for multi-byte types
// ---------------------------------------------------------------------------------------------

#[test]
#[rustfmt::skip]
fn endian_is_required_on_write_for_multi_byte_types_only() {
    const NEEDED: &str = "002 endian: required for data types for which endianness is applicable (multi-byte)";
    const NOT_NEEDED: &str = "002 endian: not for single-byte data types, such as uint8 or bool";
    let rows: Vec<(&str, &str, Value, bool)> = vec![
        (NOT_NEEDED, "bool", Value::Bool(true), false),
        (NOT_NEEDED, "int8", Value::Int8(-1), false),
        (NOT_NEEDED, "uint8", Value::UInt8(7), false),
        (NOT_NEEDED, "r8", raw(&[1]), false),
        (NOT_NEEDED, "r24", raw(&[1, 2, 3]), false),
        (NEEDED, "int16", Value::Int16(1), true),
        (NEEDED, "int32", Value::Int32(1), true),
        (NEEDED, "int64", Value::Int64(1), true),
        (NEEDED, "uint16", Value::UInt16(1), true),
        (NEEDED, "uint32", Value::UInt32(1), true),
        (NEEDED, "uint64", Value::UInt64(1), true),
        (NEEDED, "float16", f16v(0x3c00), true),
        (NEEDED, "float32", Value::Float32(1.0), true),
        (NEEDED, "float64", Value::Float64(1.0), true),
        (NEEDED, "complex64", c64(1.0, 2.0), true),
        (NEEDED, "complex128", c128(1.0, 2.0), true),
    ];
    run_rows(rows, |(rule, name, ..)| format!("[{rule}] {name}"), |(rule, name, value, needed)| {
        let dt = data_type(name);
        let values = std::slice::from_ref(value);
        let unconfigured = BytesCodec::new(None);
        let dynamic = unconfigured.encode_values(&dt, values);
        let typed = with_rust_type!(scalar_of(&dt), codec_encode(unconfigured, values));
        for (path, result) in [("encode_values", Some(dynamic)), ("encode", typed)] {
            let Some(result) = result else { continue };
            if *needed {
                let error = result.expect_err(&format!("[{rule}] {name}: {path} without endian"));
                assert!(matches!(&error, Error::MissingEndian { data_type } if data_type == name), "[{rule}] {name} {path}: {error:?}");
                assert!(error.to_string().contains(name), "[{rule}] {name}: {error}");
            } else {
                let bytes = result.unwrap_or_else(|e| panic!("[{rule}] {name}: {path} without endian: {e}"));
                for endian in ENDIANS {
                    let configured = BytesCodec::new(Some(endian)).encode_values(&dt, values).unwrap();
                    assert_eq!(bytes, configured, "[{rule}] {name}: same bytes as with {endian}");
                }
            }
        }
        assert_eq!(dt.has_endianness(), *needed, "[{rule}] {name}");
        // The codec zarr-python would write for the type has an endian exactly when needed.
        assert_eq!(BytesCodec::for_data_type(&dt, Endian::Big).endian().is_some(), *needed, "[{rule}] {name}");
    });
}

/// Arrays `[T; N]` (v3 structs of fields "0"…"N-1") need an endian exactly when `T` does.
#[test]
fn arrays_need_an_endian_exactly_when_their_elements_do() {
    const RULE: &str = "002 endian: required exactly when some value is multi-byte";
    fn check<T: ZarrType + Clone>(values: &[T], needed: bool) {
        let name = std::any::type_name::<T>();
        let typed = BytesCodec::new(None)
            .write_endian(&T::data_type())
            .map(|endian| T::encode_slice(values, endian));
        let dynamic: Vec<Value> = values.iter().map(T::to_value).collect();
        let dynamic = BytesCodec::new(None).encode_values(&T::data_type(), &dynamic);
        for result in [typed, dynamic] {
            match (needed, result) {
                (true, Err(Error::MissingEndian { .. })) => {}
                (false, Ok(bytes)) => assert_eq!(
                    bytes,
                    T::encode_slice(values, Endian::Big),
                    "[{RULE}] {name}"
                ),
                (_, other) => panic!("[{RULE}] {name}: {other:?}"),
            }
        }
    }
    check(&[[1u8, 2, 3]], false);
    check(&[[true, false]], false);
    check(&[[[-1i8; 2]; 3]], false);
    check(&[[1i32, 2]], true);
    check(&[[f16::ONE; 3]], true);
    check(&[[[1u16; 2]; 2]], true);
    check(&[[Complex::new(1.0f64, 2.0)]], true);
}

// ---------------------------------------------------------------------------------------------
// bool bytes other than 0x00 and 0x01
// ---------------------------------------------------------------------------------------------

fn assert_invalid_bool(
    result: Result<Vec<Value>, Error>,
    index: usize,
    byte: u8,
    offset: usize,
    context: &str,
) {
    match result {
        Err(error @ Error::InvalidElement { .. }) => {
            let Error::InvalidElement {
                index: found,
                fault,
                offset: found_offset,
                ..
            } = &error
            else {
                unreachable!()
            };
            assert_eq!(*found, index, "{context}: index");
            assert_eq!(*found_offset, offset, "{context}: byte offset");
            assert_eq!(fault, &ElementFault::InvalidBool(byte), "{context}: fault");
            let message = error.to_string();
            for needle in [format!("element {index}"), format!("0x{byte:02x}")] {
                assert!(
                    message.contains(&needle),
                    "{context}: {message:?} does not name {needle}"
                );
            }
        }
        other => panic!("{context}: expected InvalidElement, got {other:?}"),
    }
}

#[test]
#[rustfmt::skip]
fn bool_decodes_only_0x00_and_0x01() {
    const RULE: &str = "002 bool: false encoded as \\x00 and true as \\x01 — any other byte is an error naming index and byte";
    // (chunk, index of the first bad element, its byte)
    let rows: Vec<(&str, usize, u8)> = vec![
        ("02", 0, 0x02),
        ("00 01 02", 2, 0x02),
        ("01 ff 00", 1, 0xff),
        ("00 00 00 80", 3, 0x80),
        ("01 01 10 20", 2, 0x10),
        ("7f", 0, 0x7f),
    ];
    run_rows(rows, |(bytes, ..)| format!("[{RULE}] {bytes}"), |(bytes, index, byte)| {
        let chunk = hex(bytes);
        let dt = data_type("bool");
        for codec in [BytesCodec::new(None), BytesCodec::new(Some(Endian::Little)), BytesCodec::new(Some(Endian::Big))] {
            let context = format!("[{RULE}] {bytes} {codec:?}");
            assert_invalid_bool(codec.decode_values(&dt, &chunk), *index, *byte, *index, &format!("{context} decode_values"));
            assert_invalid_bool(codec_decode::<bool>(codec, &chunk), *index, *byte, *index, &format!("{context} decode"));
        }
        for endian in ENDIANS {
            let context = format!("[{RULE}] {bytes} {endian} ZarrType::decode_slice");
            assert_invalid_bool(slice_decode::<bool>(endian, &chunk), *index, *byte, *index, &context);
        }
    });
    // The same bytes are fine as uint8.
    let endian = BytesCodec::new(None).read_endian();
    assert_eq!(u8::decode_slice(&[0, 1, 2], endian).unwrap(), [0, 1, 2]);
}

#[test]
fn bool_inside_arrays_names_the_element_and_offset() {
    const RULE: &str =
        "issue: an invalid bool byte is an error naming the element index and the byte";
    // [[bool; 3]]: the bad byte 0x05 is in element 1 (of 3 bytes), at chunk offset 3 + 2.
    let chunk = [1, 0, 1, 0, 1, 5, 0, 0, 0];
    for codec in [BytesCodec::new(None), BytesCodec::new(Some(Endian::Big))] {
        let typed = <[bool; 3]>::decode_slice(&chunk, codec.read_endian())
            .map(|v| v.iter().map(ZarrType::to_value).collect());
        assert_invalid_bool(typed, 1, 5, 5, &format!("[{RULE}] [bool; 3] typed"));
        let dynamic = codec.decode_values(&<[bool; 3]>::data_type(), &chunk);
        assert_invalid_bool(dynamic, 1, 5, 5, &format!("[{RULE}] [bool; 3] dynamic"));
    }
}

// ---------------------------------------------------------------------------------------------
// Chunk lengths
// ---------------------------------------------------------------------------------------------

#[test]
#[rustfmt::skip]
fn chunk_length_must_be_a_whole_number_of_elements() {
    const RULE: &str = "002: a chunk is a sequence of whole encoded elements — other lengths are Error::ChunkLength";
    let rows: Vec<(&str, usize)> = vec![
        ("int16", 1), ("int16", 3), ("uint16", 5),
        ("int32", 3), ("int32", 5), ("uint32", 6), ("float32", 2),
        ("int64", 7), ("uint64", 9), ("float64", 12),
        ("float16", 1), ("float16", 7),
        ("complex64", 4), ("complex64", 12),
        ("complex128", 8), ("complex128", 24), ("complex128", 15),
        ("r24", 4), ("r24", 5), ("r16", 3),
    ];
    run_rows(rows, |(name, len)| format!("[{RULE}] {name} {len} bytes"), |(name, len)| {
        let dt = data_type(name);
        let size = dt.size();
        let chunk = vec![0u8; *len];
        let check = |result: Result<Vec<Value>, Error>, path: &str| match result {
            Err(error @ Error::ChunkLength { .. }) => {
                let Error::ChunkLength { len: found_len, element_size } = &error else { unreachable!() };
                assert_eq!((*found_len, *element_size), (*len, size), "[{RULE}] {name} {path}");
                let message = error.to_string();
                assert!(message.contains(&len.to_string()) && message.contains(&size.to_string()), "[{RULE}] {message}");
            }
            other => panic!("[{RULE}] {name} {len} bytes {path}: {other:?}"),
        };
        for codec in [BytesCodec::new(None), BytesCodec::new(Some(Endian::Little)), BytesCodec::new(Some(Endian::Big))] {
            check(codec.decode_values(&dt, &chunk), "decode_values");
            if let Some(result) = with_rust_type!(scalar_of(&dt), codec_decode(codec, &chunk)) {
                check(result, "decode");
            }
        }
        for endian in ENDIANS {
            if let Some(result) = with_rust_type!(scalar_of(&dt), slice_decode(endian, &chunk)) {
                check(result, "ZarrType::decode_slice");
            }
        }
        // Whole numbers of elements, the empty chunk included, are fine.
        for whole in [0, size, 3 * size] {
            let decoded = BytesCodec::new(Some(Endian::Big)).decode_values(&dt, &vec![0; whole]).unwrap();
            assert_eq!(decoded.len(), whole / size, "[{RULE}] {name} {whole} bytes");
        }
    });
    // Arrays: [i16; 3] is 6 bytes.
    assert!(matches!(
        <[i16; 3]>::decode_slice(&[0; 5], BytesCodec::new(None).read_endian()),
        Err(Error::ChunkLength { len: 5, element_size: 6 })
    ));
    // bool and uint8 chunks can have any length.
    let endian = BytesCodec::new(None).read_endian();
    assert_eq!(bool::decode_slice(&[0; 7], endian).unwrap().len(), 7);
}

// ---------------------------------------------------------------------------------------------
// The codec's JSON
// ---------------------------------------------------------------------------------------------

#[test]
#[rustfmt::skip]
fn codec_json_valid_forms() {
    const NAME: &str = "002 codec name: the value of the name member MUST be bytes";
    const ENDIAN: &str = "002 endian: if present, a string equal to either \"big\" or \"little\"";
    // (rule, input, endian, written)
    let rows: Vec<(&str, Json, Option<Endian>, Json)> = vec![
        (NAME, json!({"name": "bytes"}), None, json!({"name": "bytes"})),
        (ENDIAN, json!({"name": "bytes", "configuration": {"endian": "little"}}), Some(Endian::Little),
            json!({"name": "bytes", "configuration": {"endian": "little"}})),
        (ENDIAN, json!({"name": "bytes", "configuration": {"endian": "big"}}), Some(Endian::Big),
            json!({"name": "bytes", "configuration": {"endian": "big"}})),
        ("002 endian: optional (required only for multi-byte types)", json!({"name": "bytes", "configuration": {}}), None,
            json!({"name": "bytes"})),
    ];
    run_rows(rows, |(rule, input, ..)| format!("[{rule}] {input}"), |(rule, input, endian, written)| {
        let codec = BytesCodec::from_json(input).unwrap_or_else(|e| panic!("[{rule}] {input}: {e}"));
        assert_eq!(codec.endian(), *endian, "[{rule}] {input}");
        assert_eq!(codec, BytesCodec::new(*endian), "[{rule}] {input}");
        assert_eq!(&codec.to_json(), written, "[{rule}] {input}: to_json");
        assert_eq!(BytesCodec::from_json(&codec.to_json()).unwrap(), codec, "[{rule}] {input}: round trip");
    });
}

#[test]
#[rustfmt::skip]
fn codec_json_invalid_forms_are_errors_naming_the_json() {
    const NAME: &str = "002 codec name: the value of the name member MUST be bytes";
    const ENDIAN: &str = "002 endian: if present, MUST be a string equal to either \"big\" or \"little\"";
    const EXTRA: &str = "issue: extra keys rejected";
    let rows: Vec<(&str, Json)> = vec![
        (ENDIAN, json!({"name": "bytes", "configuration": {"endian": "middle"}})),
        (ENDIAN, json!({"name": "bytes", "configuration": {"endian": "Little"}})),
        (ENDIAN, json!({"name": "bytes", "configuration": {"endian": "BIG"}})),
        (ENDIAN, json!({"name": "bytes", "configuration": {"endian": ""}})),
        (ENDIAN, json!({"name": "bytes", "configuration": {"endian": "native"}})),
        (ENDIAN, json!({"name": "bytes", "configuration": {"endian": "<"}})),
        (ENDIAN, json!({"name": "bytes", "configuration": {"endian": 1}})),
        (ENDIAN, json!({"name": "bytes", "configuration": {"endian": null}})),
        (ENDIAN, json!({"name": "bytes", "configuration": {"endian": ["little"]}})),
        (EXTRA, json!({"name": "bytes", "configuration": {"endian": "little", "order": "C"}})),
        (EXTRA, json!({"name": "bytes", "configuration": {"byteorder": "little"}})),
        (EXTRA, json!({"name": "bytes", "configuration": {"endian": "big"}, "extra": 1})),
        (EXTRA, json!({"name": "bytes", "endian": "little"})),
        (NAME, json!({"name": "endian", "configuration": {"endian": "little"}})),
        (NAME, json!({"name": "Bytes"})),
        (NAME, json!({"name": "bytes "})),
        (NAME, json!({"name": "transpose"})),
        (NAME, json!({"name": 1})),
        (NAME, json!({"configuration": {"endian": "little"}})),
        (NAME, json!({})),
        ("a codec is a JSON object", json!("bytes")),
        ("a codec is a JSON object", json!(null)),
        ("a codec is a JSON object", json!([{"name": "bytes"}])),
        ("the configuration is an object", json!({"name": "bytes", "configuration": "little"})),
        ("the configuration is an object", json!({"name": "bytes", "configuration": null})),
        ("the configuration is an object", json!({"name": "bytes", "configuration": []})),
    ];
    run_rows(rows, |(rule, input)| format!("[{rule}] {input}"), |(rule, input)| {
        match BytesCodec::from_json(input) {
            Ok(codec) => panic!("[{rule}] {input}: accepted as {codec:?}"),
            Err(error) => {
                assert!(matches!(error, Error::InvalidCodec { .. }), "[{rule}] {input}: {error:?}");
                let message = error.to_string();
                assert!(message.contains(&input.to_string()), "[{rule}] {message:?} does not show {input}");
            }
        }
    });
}

// ---------------------------------------------------------------------------------------------
// Round trips of every Rust element type: typed and dynamic paths give identical bytes
// ---------------------------------------------------------------------------------------------

/// `bytes` with every `unit`-byte group reversed: the other byte order.
fn swap_units(bytes: &[u8], unit: usize) -> Vec<u8> {
    bytes
        .chunks(unit)
        .flat_map(|chunk| chunk.iter().rev().copied())
        .collect()
}

/// Rule "round-trip tests for every Rust type … in both byte orders, through
/// ZarrType::encode_slice/decode_slice and BytesCodec, and through the dynamic Value path — both
/// paths must give identical bytes". `unit` is the size of the units the byte order reverses.
fn round_trip<T: ZarrType + Clone + Debug>(values: &[T], unit: usize) {
    let name = std::any::type_name::<T>();
    let data_type = T::data_type();
    let dynamic: Vec<Value> = values.iter().map(T::to_value).collect();
    let mut per_order = Vec::new();
    for endian in ENDIANS {
        let context = format!("{name} {endian}");
        let codec = BytesCodec::new(Some(endian));
        let encoded = T::encode_slice(values, endian);
        assert_eq!(encoded.len(), values.len() * T::SIZE, "{context}: length");
        assert_eq!(
            codec.write_endian(&data_type).unwrap(),
            endian,
            "{context}: BytesCodec::write_endian"
        );
        let mut into = vec![0xaa; encoded.len()];
        T::encode_slice_into(values, &mut into, endian).unwrap();
        assert_eq!(into, encoded, "{context}: encode_slice_into");
        assert_eq!(
            codec.encode_values(&data_type, &dynamic).unwrap(),
            encoded,
            "{context}: encode_values"
        );

        let back: Vec<Value> = T::decode_slice(&encoded, endian)
            .unwrap()
            .iter()
            .map(T::to_value)
            .collect();
        assert_eq!(back, dynamic, "{context}: ZarrType::decode_slice");
        assert_eq!(
            codec.read_endian(),
            endian,
            "{context}: BytesCodec::read_endian"
        );
        let mut appended = Vec::new();
        T::decode_slice_into(&encoded, endian, &mut appended).unwrap();
        assert_eq!(appended.len(), values.len(), "{context}: decode_slice_into");
        assert_eq!(
            codec.decode_values(&data_type, &encoded).unwrap(),
            dynamic,
            "{context}: decode_values"
        );
        for (index, value) in values.iter().enumerate() {
            let one = value.encode(endian);
            assert_eq!(
                one,
                encoded[index * T::SIZE..(index + 1) * T::SIZE],
                "{context}: ZarrType::encode #{index}"
            );
            assert_eq!(
                T::decode(&one, endian).unwrap().to_value(),
                dynamic[index],
                "{context}: ZarrType::decode #{index}"
            );
        }
        per_order.push(encoded);
    }
    // The two orders differ exactly by reversing every unit (each half of a complex number).
    assert_eq!(
        swap_units(&per_order[0], unit),
        per_order[1],
        "{name}: big = little with each {unit}-byte unit reversed"
    );
}

/// Random chunks decode the same through the typed and the dynamic path (errors included).
fn decode_agrees<T: ZarrType>(bytes: &[u8]) {
    let name = std::any::type_name::<T>();
    for codec in [
        BytesCodec::new(None),
        BytesCodec::new(Some(Endian::Little)),
        BytesCodec::new(Some(Endian::Big)),
    ] {
        let typed = T::decode_slice(bytes, codec.read_endian())
            .map(|v| v.iter().map(T::to_value).collect::<Vec<_>>());
        let dynamic = codec.decode_values(&T::data_type(), bytes);
        match (typed, dynamic) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{name} {codec:?}"),
            (Err(a), Err(b)) => assert_eq!(
                std::mem::discriminant(&a),
                std::mem::discriminant(&b),
                "{name} {codec:?}: {a} vs {b}"
            ),
            (a, b) => panic!("{name} {codec:?}: typed {a:?} vs dynamic {b:?}"),
        }
    }
}

fn any_f16() -> impl Strategy<Value = f16> {
    any::<u16>().prop_map(f16::from_bits)
}
fn any_f32() -> impl Strategy<Value = f32> {
    any::<u32>().prop_map(f32::from_bits)
}
fn any_f64() -> impl Strategy<Value = f64> {
    any::<u64>().prop_map(f64::from_bits)
}
fn any_c64() -> impl Strategy<Value = Complex<f32>> {
    (any_f32(), any_f32()).prop_map(|(re, im)| Complex::new(re, im))
}
fn any_c128() -> impl Strategy<Value = Complex<f64>> {
    (any_f64(), any_f64()).prop_map(|(re, im)| Complex::new(re, im))
}

fn chunk_of<T: Debug>(element: impl Strategy<Value = T>) -> impl Strategy<Value = Vec<T>> {
    proptest::collection::vec(element, 0..24)
}

proptest! {
    // No regression files: this suite may only write its own three test files.
    #![proptest_config(crate::common::random::config_of(256))]

    #[test] fn bool_round_trips(v in chunk_of(any::<bool>())) { round_trip(&v, 1); }
    #[test] fn i8_round_trips(v in chunk_of(any::<i8>())) { round_trip(&v, 1); }
    #[test] fn i16_round_trips(v in chunk_of(any::<i16>())) { round_trip(&v, 2); }
    #[test] fn i32_round_trips(v in chunk_of(any::<i32>())) { round_trip(&v, 4); }
    #[test] fn i64_round_trips(v in chunk_of(any::<i64>())) { round_trip(&v, 8); }
    #[test] fn u8_round_trips(v in chunk_of(any::<u8>())) { round_trip(&v, 1); }
    #[test] fn u16_round_trips(v in chunk_of(any::<u16>())) { round_trip(&v, 2); }
    #[test] fn u32_round_trips(v in chunk_of(any::<u32>())) { round_trip(&v, 4); }
    #[test] fn u64_round_trips(v in chunk_of(any::<u64>())) { round_trip(&v, 8); }
    #[test] fn f16_round_trips(v in chunk_of(any_f16())) { round_trip(&v, 2); }
    #[test] fn f32_round_trips(v in chunk_of(any_f32())) { round_trip(&v, 4); }
    #[test] fn f64_round_trips(v in chunk_of(any_f64())) { round_trip(&v, 8); }
    #[test] fn complex64_round_trips(v in chunk_of(any_c64())) { round_trip(&v, 4); }
    #[test] fn complex128_round_trips(v in chunk_of(any_c128())) { round_trip(&v, 8); }
    #[test] fn bool_array_round_trips(v in chunk_of(any::<[bool; 4]>())) { round_trip(&v, 1); }
    #[test] fn u8_array_round_trips(v in chunk_of(any::<[u8; 3]>())) { round_trip(&v, 1); }
    #[test] fn i32_array_round_trips(v in chunk_of(any::<[i32; 3]>())) { round_trip(&v, 4); }
    #[test] fn nested_u16_array_round_trips(v in chunk_of(any::<[[u16; 2]; 3]>())) { round_trip(&v, 2); }
    #[test] fn f16_array_round_trips(v in chunk_of(proptest::array::uniform3(any_f16()))) { round_trip(&v, 2); }
    #[test] fn f64_array_round_trips(v in chunk_of(proptest::array::uniform2(any_f64()))) { round_trip(&v, 8); }
    #[test] fn complex128_array_round_trips(v in chunk_of(proptest::array::uniform2(any_c128()))) { round_trip(&v, 8); }
    #[test] fn complex64_array_round_trips(v in chunk_of(proptest::array::uniform2(any_c64()))) { round_trip(&v, 4); }

    #[test]
    fn typed_and_dynamic_decoding_agree(bytes in proptest::collection::vec(any::<u8>(), 0..40)) {
        decode_agrees::<bool>(&bytes);
        decode_agrees::<i16>(&bytes);
        decode_agrees::<u32>(&bytes);
        decode_agrees::<f16>(&bytes);
        decode_agrees::<f64>(&bytes);
        decode_agrees::<Complex<f32>>(&bytes);
        decode_agrees::<[bool; 2]>(&bytes);
        decode_agrees::<[i16; 3]>(&bytes);
    }

    /// Raw r<N> has no Rust element type; its values round-trip through the dynamic path
    /// unchanged in both orders.
    #[test]
    fn raw_round_trips(size in 1usize..9, seed in proptest::collection::vec(any::<u8>(), 0..64)) {
        let dt = data_type(&format!("r{}", size * 8));
        let values: Vec<Value> = seed.chunks_exact(size).map(raw).collect();
        let flat: Vec<u8> = seed[..values.len() * size].to_vec();
        for codec in [BytesCodec::new(None), BytesCodec::new(Some(Endian::Little)), BytesCodec::new(Some(Endian::Big))] {
            prop_assert_eq!(codec.encode_values(&dt, &values).unwrap(), flat.clone());
            prop_assert_eq!(codec.decode_values(&dt, &flat).unwrap(), values.clone());
        }
    }
}
