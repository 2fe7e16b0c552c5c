//! Conformance of fill values: the permitted JSON forms of seed 000 ("Permitted fill values"),
//! the v2 forms (reference §2), writing rules, and bit-exact round trips through JSON and
//! through the bytes of the `bytes` codec (seed 002).
//!
//! Inputs are JSON *text*, parsed with `serde_json::from_str`, so that the exact textual form
//! (`1` vs `1.0` vs `1e3`, `-0`) is what is tested. Every table row cites its rule.

#![allow(clippy::unwrap_used)]

use crate::common;

use common::rows::run_rows;

use half::f16;
use num_complex::Complex;
use proptest::prelude::*;
use serde_json::{Value as Json, json};
use zarrdt::layout::Layout;
use zarrdt::metadata::{ArrayMetadataV3, BytesCodec};
use zarrdt::types::DataType;
use zarrdt::value::Value;
use zarrdt::{Endian, Error, ZarrType};

const ENDIANS: [Endian; 2] = [Endian::Little, Endian::Big];

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn data_type(name: &str) -> DataType {
    DataType::from_v3_json(&json!(name)).unwrap()
}

fn parse(text: &str) -> Json {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("test bug: bad JSON text {text}: {e}"))
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
fn c64v(re: u32, im: u32) -> Value {
    Value::Complex64(Complex::new(f32::from_bits(re), f32::from_bits(im)))
}
fn c128v(re: u64, im: u64) -> Value {
    Value::Complex128(Complex::new(f64::from_bits(re), f64::from_bits(im)))
}
fn bytes(b: &[u8]) -> Value {
    Value::Bytes(b.to_vec())
}

/// A value with its floats shown as bit patterns, for failure messages (`Debug` shows every
/// NaN as `NaN`).
fn show(value: &Value) -> String {
    match value {
        Value::Float16(v) => format!("Float16({v} = 0x{:04x})", v.to_bits()),
        Value::Float32(v) => format!("Float32({v} = 0x{:08x})", v.to_bits()),
        Value::Float64(v) => format!("Float64({v} = 0x{:016x})", v.to_bits()),
        Value::Complex64(c) => format!(
            "Complex64(0x{:08x}, 0x{:08x})",
            c.re.to_bits(),
            c.im.to_bits()
        ),
        Value::Complex128(c) => format!(
            "Complex128(0x{:016x}, 0x{:016x})",
            c.re.to_bits(),
            c.im.to_bits()
        ),
        other => format!("{other:?}"),
    }
}

fn assert_same(found: &Value, expected: &Value, context: &str) {
    assert!(
        found == expected,
        "{context}: got {}, expected {}",
        show(found),
        show(expected)
    );
}

/// The bytes of one value through the typed [`ZarrType`] path, and the value read back from
/// them; `None` for values with no Rust element type (raw bytes).
fn via_element(value: &Value, endian: Endian) -> Option<(Vec<u8>, Value)> {
    fn go<T: ZarrType>(value: &Value, endian: Endian) -> (Vec<u8>, Value) {
        let encoded = T::from_value(value).unwrap().encode(endian);
        let decoded = T::decode(&encoded, endian).unwrap().to_value();
        (encoded, decoded)
    }
    Some(match value {
        Value::Bool(_) => go::<bool>(value, endian),
        Value::Int8(_) => go::<i8>(value, endian),
        Value::Int16(_) => go::<i16>(value, endian),
        Value::Int32(_) => go::<i32>(value, endian),
        Value::Int64(_) => go::<i64>(value, endian),
        Value::UInt8(_) => go::<u8>(value, endian),
        Value::UInt16(_) => go::<u16>(value, endian),
        Value::UInt32(_) => go::<u32>(value, endian),
        Value::UInt64(_) => go::<u64>(value, endian),
        Value::Float16(_) => go::<f16>(value, endian),
        Value::Float32(_) => go::<f32>(value, endian),
        Value::Float64(_) => go::<f64>(value, endian),
        Value::Complex64(_) => go::<Complex<f32>>(value, endian),
        Value::Complex128(_) => go::<Complex<f64>>(value, endian),
        _ => return None,
    })
}

/// Rule "every fill value round-trips bit-exactly … value -> bytes -> value": through
/// `Layout::encode_value`, `BytesCodec::encode_values` and `ZarrType`, in both byte orders, all
/// three giving the same bytes.
fn assert_bytes_round_trip(data_type: &DataType, value: &Value, rule: &str) {
    for endian in ENDIANS {
        let context = format!("[{rule}] {data_type} {endian}");
        let layout = Layout::from_data_type(data_type, Some(endian)).unwrap();
        let encoded = layout.encode_value(value).unwrap();
        assert_eq!(encoded.len(), data_type.size(), "{context}: size");
        assert_same(&layout.decode_value(&encoded).unwrap(), value, &context);

        let codec = BytesCodec::new(Some(endian));
        let chunk = codec
            .encode_values(data_type, std::slice::from_ref(value))
            .unwrap();
        assert_eq!(
            chunk, encoded,
            "{context}: BytesCodec and Layout bytes differ"
        );
        let decoded = codec.decode_values(data_type, &chunk).unwrap();
        assert_eq!(decoded.len(), 1, "{context}");
        assert_same(&decoded[0], value, &context);

        if let Some((typed, back)) = via_element(value, endian) {
            assert_eq!(
                typed, encoded,
                "{context}: ZarrType and Layout bytes differ"
            );
            assert_same(&back, value, &context);
        }
    }
}

/// Rule "JSON -> value -> JSON": the value written as v3 JSON text reads back to the same bits.
fn assert_v3_text_round_trip(data_type: &DataType, value: &Value, rule: &str) -> String {
    let written = data_type.fill_value_to_v3_json(value).unwrap();
    // Directly, without text…
    let back = data_type.fill_value_from_v3_json(&written, None).unwrap();
    assert_same(&back, value, &format!("[{rule}] {data_type} via {written}"));
    // …and through JSON text, which is how metadata is stored.
    let text = serde_json::to_string(&written).unwrap();
    let back = data_type
        .fill_value_from_v3_json(&parse(&text), None)
        .unwrap_or_else(|e| panic!("[{rule}] {data_type}: written {text} does not read back: {e}"));
    assert_same(
        &back,
        value,
        &format!("[{rule}] {data_type} via text {text}"),
    );
    text
}

/// Rule "error messages show the offending JSON and what was expected".
fn assert_fill_error(error: &Error, input: &Json, data_type: &str, rule: &str) {
    assert!(
        matches!(error, Error::InvalidFillValue { .. }),
        "[{rule}] {data_type} {input}: wrong error {error:?}"
    );
    let message = error.to_string();
    let shown = input.to_string();
    assert!(
        message.contains(&shown),
        "[{rule}] message {message:?} does not show the JSON {shown}"
    );
    assert!(
        message.contains(data_type),
        "[{rule}] message {message:?} does not name the data type {data_type}"
    );
    let expected = message.split_once("expected ").map(|(_, rest)| rest.trim());
    assert!(
        expected.is_some_and(|rest| !rest.is_empty()),
        "[{rule}] message {message:?} does not say what was expected"
    );
}

// ---------------------------------------------------------------------------------------------
// v3 fill values: reading (valid and invalid) and writing
// ---------------------------------------------------------------------------------------------

/// What a row's input must give.
enum Expect {
    /// Reads as this value, which is written back as exactly this JSON text.
    Fill(Value, &'static str),
    /// Is rejected.
    Invalid,
}

struct Row {
    rule: &'static str,
    data_type: &'static str,
    input: &'static str,
    expect: Expect,
}

fn ok(
    rule: &'static str,
    data_type: &'static str,
    input: &'static str,
    value: Value,
    written: &'static str,
) -> Row {
    Row {
        rule,
        data_type,
        input,
        expect: Expect::Fill(value, written),
    }
}

fn bad(rule: &'static str, data_type: &'static str, input: &'static str) -> Row {
    Row {
        rule,
        data_type,
        input,
        expect: Expect::Invalid,
    }
}

fn check_v3(rows: &[Row]) {
    run_rows(
        rows,
        |row| format!("[{}] {} {}", row.rule, row.data_type, row.input),
        |row| {
            let Row {
                rule,
                data_type: name,
                input,
                expect,
            } = row;
            let dt = data_type(name);
            let json = parse(input);
            let read = dt.fill_value_from_v3_json(&json, None);
            match (expect, read) {
                (Expect::Fill(value, written), Ok(read)) => {
                    assert_same(&read, value, &format!("[{rule}] {name} {input}"));
                    let text = assert_v3_text_round_trip(&dt, value, rule);
                    assert_eq!(&text, written, "[{rule}] {name}: {input} written back");
                    assert_bytes_round_trip(&dt, value, rule);
                }
                (Expect::Fill(value, _), Err(error)) => {
                    panic!(
                        "[{rule}] {name} {input}: rejected ({error}); expected {}",
                        show(value)
                    )
                }
                (Expect::Invalid, Ok(read)) => {
                    panic!("[{rule}] {name} {input}: accepted as {}", show(&read))
                }
                (Expect::Invalid, Err(error)) => assert_fill_error(&error, &json, name, rule),
            }
        },
    );
}

const BOOL: &str = "000 bool: the value must be a JSON boolean (false or true)";
const INT: &str = "000 integers: a JSON number with no fraction or exponent part";
const INT_RANGE: &str = "000 integers: within the representable range of the data type";
const INT_FROM_JSON_VALUE: &str = "000 integers: no fraction or exponent part, as far as a parsed serde_json value can tell (-0 parses as -0.0)";

#[test]
#[rustfmt::skip]
fn v3_bool() {
    check_v3(&[
        ok(BOOL, "bool", "true", Value::Bool(true), "true"),
        ok(BOOL, "bool", "false", Value::Bool(false), "false"),
        bad(BOOL, "bool", "1"),
        bad(BOOL, "bool", "0"),
        bad(BOOL, "bool", "\"true\""),
        bad(BOOL, "bool", "\"false\""),
        bad(BOOL, "bool", "null"),
        bad(BOOL, "bool", "[true]"),
        bad(BOOL, "bool", "{}"),
        bad(BOOL, "bool", "1.0"),
    ]);
}

#[test]
#[rustfmt::skip]
fn v3_integers() {
    check_v3(&[
        ok(INT, "int8", "1", Value::Int8(1), "1"),
        ok(INT_RANGE, "int8", "127", Value::Int8(127), "127"),
        ok(INT_RANGE, "int8", "-128", Value::Int8(-128), "-128"),
        bad(INT_RANGE, "int8", "128"),
        bad(INT_RANGE, "int8", "-129"),
        bad(INT, "int8", "1.0"),
        bad(INT, "int8", "1e3"),
        bad(INT, "int8", "1e0"),
        bad(INT, "int8", "1E1"),
        bad(INT, "int8", "\"1\""),
        bad(INT, "int8", "null"),
        bad(INT, "int8", "true"),
        bad(INT, "int8", "[1]"),
        ok(INT_RANGE, "uint8", "0", Value::UInt8(0), "0"),
        ok(INT_RANGE, "uint8", "255", Value::UInt8(255), "255"),
        bad(INT_RANGE, "uint8", "256"),
        bad(INT_RANGE, "uint8", "-1"),
        bad(INT, "uint8", "2.5"),
        bad(INT, "uint8", "\"0x01\""),
        ok(INT_RANGE, "int16", "32767", Value::Int16(i16::MAX), "32767"),
        ok(INT_RANGE, "int16", "-32768", Value::Int16(i16::MIN), "-32768"),
        bad(INT_RANGE, "int16", "32768"),
        bad(INT_RANGE, "int16", "-32769"),
        ok(INT_RANGE, "uint16", "65535", Value::UInt16(u16::MAX), "65535"),
        bad(INT_RANGE, "uint16", "65536"),
        bad(INT_RANGE, "uint16", "-1"),
        ok(INT_RANGE, "int32", "2147483647", Value::Int32(i32::MAX), "2147483647"),
        ok(INT_RANGE, "int32", "-2147483648", Value::Int32(i32::MIN), "-2147483648"),
        bad(INT_RANGE, "int32", "2147483648"),
        bad(INT_RANGE, "int32", "-2147483649"),
        bad(INT, "int32", "2.5"),
        bad(INT, "int32", "2.0"),
        ok(INT_RANGE, "uint32", "4294967295", Value::UInt32(u32::MAX), "4294967295"),
        bad(INT_RANGE, "uint32", "4294967296"),
        ok("issue: i64::MIN is exact", "int64", "-9223372036854775808", Value::Int64(i64::MIN), "-9223372036854775808"),
        ok(INT_RANGE, "int64", "9223372036854775807", Value::Int64(i64::MAX), "9223372036854775807"),
        bad(INT_RANGE, "int64", "9223372036854775808"),
        bad(INT_RANGE, "int64", "-9223372036854775809"),
        ok("issue: u64::MAX is exact", "uint64", "18446744073709551615", Value::UInt64(u64::MAX), "18446744073709551615"),
        ok(INT_RANGE, "uint64", "9007199254740993", Value::UInt64(9_007_199_254_740_993), "9007199254740993"),
        bad("issue: u64::MAX+1 is an error", "uint64", "18446744073709551616"),
        bad(INT_RANGE, "uint64", "-1"),
        bad(INT, "uint64", "1.8446744073709552e+19"),
        // `-0` has no fraction or exponent part and is within range: it is the integer 0.
        // serde_json reads `-0` as the float -0.0, the same value as `-0.0`, so the two cannot
        // be told apart; both are rejected rather than accepting the fraction form.
        bad(INT_FROM_JSON_VALUE, "int32", "-0"),
        bad(INT, "int32", "-0.0"),
    ]);
}

const FLOAT_NUMBER: &str =
    "000 floats: a JSON number, that will be rounded to the nearest representable value";
const FLOAT_NUMBER_VIA_F64: &str = "000 floats: a JSON number rounded to the nearest value, read (as every implementation does) through the nearest f64";
const TIES_TO_EVEN: &str = "issue/§4: rounded to nearest, ties to even";
const OVERFLOW: &str =
    "issue: ties to even including overflow to infinity (65520 -> inf, 65519 -> 65504)";
const INFINITY: &str = "000 floats: \"Infinity\" / \"-Infinity\" denote ±infinity";
const NAN: &str = "000 floats: \"NaN\" is sign 0, mantissa MSB 1, other mantissa bits 0";
const HEX: &str = "000 floats: \"0xYYYYYYYY\" is the byte representation as an unsigned integer";
const HEX_CASE: &str = "issue: hex either case on read, written lowercase";
const HEX_DIGITS: &str = "issue: hex with exactly 2×size digits";
const NOT_A_FORM: &str = "000 floats: only a number or one of the listed strings";
const NEG_ZERO: &str = "issue: -0.0 kept as -0.0";
const SHORTEST: &str = "issue: finite floats written as the shortest decimal that round-trips";

#[test]
#[rustfmt::skip]
fn v3_float16() {
    check_v3(&[
        ok(FLOAT_NUMBER, "float16", "1", f16v(0x3c00), "1.0"),
        ok(FLOAT_NUMBER, "float16", "1.0", f16v(0x3c00), "1.0"),
        ok(SHORTEST, "float16", "0.1", f16v(0x2e66), "0.1"),
        ok(FLOAT_NUMBER, "float16", "-2.5", f16v(0xc100), "-2.5"),
        ok(FLOAT_NUMBER, "float16", "65504", f16v(0x7bff), "65500.0"),
        ok(OVERFLOW, "float16", "65519", f16v(0x7bff), "65500.0"),
        ok(OVERFLOW, "float16", "65519.99", f16v(0x7bff), "65500.0"),
        ok(OVERFLOW, "float16", "65520", f16v(0x7c00), "\"Infinity\""),
        ok(OVERFLOW, "float16", "-65520", f16v(0xfc00), "\"-Infinity\""),
        ok(OVERFLOW, "float16", "65520.0", f16v(0x7c00), "\"Infinity\""),
        ok(OVERFLOW, "float16", "1e10", f16v(0x7c00), "\"Infinity\""),
        ok(TIES_TO_EVEN, "float16", "1.00048828125", f16v(0x3c00), "1.0"),
        ok(TIES_TO_EVEN, "float16", "1.00146484375", f16v(0x3c02), "1.002"),
        ok(TIES_TO_EVEN, "float16", "2049", f16v(0x6800), "2048.0"),
        ok(TIES_TO_EVEN, "float16", "2051", f16v(0x6802), "2052.0"),
        // Just above the 1.0 / 1.0009765625 tie: the nearest float16 is the upper one.
        // JSON numbers are read as the nearest f64 (as zarr-python, zarrs and tensorstore do),
        // then rounded: 1.00048828125000001 is 1 + 2^-11 (a float16 tie) as an f64, so ties to
        // even give 1.0. Decimals far enough from a tie round as their text says:
        ok(FLOAT_NUMBER_VIA_F64, "float16", "1.00048828125000001", f16v(0x3c00), "1.0"),
        ok(FLOAT_NUMBER, "float16", "1.0004883", f16v(0x3c01), "1.001"),
        ok(FLOAT_NUMBER, "float16", "5.960464477539063e-8", f16v(0x0001), "6e-8"),
        ok(NEG_ZERO, "float16", "-0.0", f16v(0x8000), "-0.0"),
        ok(NEG_ZERO, "float16", "-0", f16v(0x8000), "-0.0"),
        ok(FLOAT_NUMBER, "float16", "0", f16v(0x0000), "0.0"),
        ok(INFINITY, "float16", "\"Infinity\"", f16v(0x7c00), "\"Infinity\""),
        ok(INFINITY, "float16", "\"-Infinity\"", f16v(0xfc00), "\"-Infinity\""),
        ok(NAN, "float16", "\"NaN\"", f16v(0x7e00), "\"NaN\""),
        ok(HEX, "float16", "\"0x7e00\"", f16v(0x7e00), "\"NaN\""),
        ok(HEX, "float16", "\"0x7e01\"", f16v(0x7e01), "\"0x7e01\""),
        ok(HEX, "float16", "\"0x7c01\"", f16v(0x7c01), "\"0x7c01\""),
        ok(HEX, "float16", "\"0xfe00\"", f16v(0xfe00), "\"0xfe00\""),
        ok(HEX, "float16", "\"0x3c00\"", f16v(0x3c00), "1.0"),
        ok(HEX, "float16", "\"0x8000\"", f16v(0x8000), "-0.0"),
        ok(HEX, "float16", "\"0x0001\"", f16v(0x0001), "6e-8"),
        ok(HEX, "float16", "\"0x7c00\"", f16v(0x7c00), "\"Infinity\""),
        ok(HEX_CASE, "float16", "\"0x7E01\"", f16v(0x7e01), "\"0x7e01\""),
        ok(HEX_CASE, "float16", "\"0xFe0A\"", f16v(0xfe0a), "\"0xfe0a\""),
        bad(HEX_DIGITS, "float16", "\"0x7e0\""),
        bad(HEX_DIGITS, "float16", "\"0x07e00\""),
        bad(HEX_DIGITS, "float16", "\"0x7fc00000\""),
        bad(HEX_DIGITS, "float16", "\"0x\""),
        bad(HEX_DIGITS, "float16", "\"0x7g00\""),
        bad(HEX_DIGITS, "float16", "\"0x 7e0\""),
        bad(HEX, "float16", "\"7e00\""),
        bad(NOT_A_FORM, "float16", "\"nan\""),
        bad(NOT_A_FORM, "float16", "\"inf\""),
        bad(NOT_A_FORM, "float16", "\"1.5\""),
        bad(NOT_A_FORM, "float16", "\"infinity\""),
        bad(NOT_A_FORM, "float16", "\"+Infinity\""),
        bad(NOT_A_FORM, "float16", "\"-NaN\""),
        bad(NOT_A_FORM, "float16", "\" NaN\""),
        bad(NOT_A_FORM, "float16", "null"),
        bad(NOT_A_FORM, "float16", "true"),
        bad(NOT_A_FORM, "float16", "[1.0]"),
    ]);
}

#[test]
#[rustfmt::skip]
fn v3_float32() {
    check_v3(&[
        ok(SHORTEST, "float32", "0.1", f32v(0x3dcc_cccd), "0.1"),
        ok(FLOAT_NUMBER, "float32", "0.10000000149011612", f32v(0x3dcc_cccd), "0.1"),
        ok(FLOAT_NUMBER, "float32", "1", f32v(0x3f80_0000), "1.0"),
        ok(FLOAT_NUMBER, "float32", "-1.5e-3", f32v(0xbac4_9ba6), "-0.0015"),
        ok(TIES_TO_EVEN, "float32", "16777217", f32v(0x4b80_0000), "16777216.0"),
        ok(TIES_TO_EVEN, "float32", "16777219", f32v(0x4b80_0002), "16777220.0"),
        ok(TIES_TO_EVEN, "float32", "1.000000059604644775390625", f32v(0x3f80_0000), "1.0"),
        // Just above that tie: the nearest float32 is 1 + 2^-23.
        // As for float16: the nearest f64 of this decimal is exactly the tie 1 + 2^-24.
        ok(FLOAT_NUMBER_VIA_F64, "float32", "1.0000000596046448", f32v(0x3f80_0000), "1.0"),
        ok(FLOAT_NUMBER, "float32", "1.0000000596046483", f32v(0x3f80_0001), "1.0000001"),
        // An integer just above the tie between 2^60 and 2^60 + 2^37: nearest is the upper.
        ok(FLOAT_NUMBER, "float32", "1152921573326323713", f32v(0x5d80_0001), "1.1529216e+18"),
        ok(FLOAT_NUMBER, "float32", "-1152921573326323713", f32v(0xdd80_0001), "-1.1529216e+18"),
        ok(FLOAT_NUMBER, "float32", "3.4028234663852886e38", f32v(0x7f7f_ffff), "3.4028235e+38"),
        ok(FLOAT_NUMBER, "float32", "1e39", f32v(0x7f80_0000), "\"Infinity\""),
        ok(FLOAT_NUMBER, "float32", "-1e39", f32v(0xff80_0000), "\"-Infinity\""),
        ok(FLOAT_NUMBER, "float32", "1e-46", f32v(0x0000_0000), "0.0"),
        ok(FLOAT_NUMBER, "float32", "1.401298464324817e-45", f32v(0x0000_0001), "1e-45"),
        ok(NEG_ZERO, "float32", "-0.0", f32v(0x8000_0000), "-0.0"),
        ok(INFINITY, "float32", "\"Infinity\"", f32v(0x7f80_0000), "\"Infinity\""),
        ok(INFINITY, "float32", "\"-Infinity\"", f32v(0xff80_0000), "\"-Infinity\""),
        ok(NAN, "float32", "\"NaN\"", f32v(0x7fc0_0000), "\"NaN\""),
        ok("000: for float32, \"NaN\" is equivalent to \"0x7fc00000\"", "float32", "\"0x7fc00000\"", f32v(0x7fc0_0000), "\"NaN\""),
        ok(HEX, "float32", "\"0x7fc00001\"", f32v(0x7fc0_0001), "\"0x7fc00001\""),
        ok(HEX, "float32", "\"0x7f800001\"", f32v(0x7f80_0001), "\"0x7f800001\""),
        ok(HEX, "float32", "\"0xffc00000\"", f32v(0xffc0_0000), "\"0xffc00000\""),
        ok(HEX, "float32", "\"0x3f800000\"", f32v(0x3f80_0000), "1.0"),
        ok(HEX, "float32", "\"0x00000001\"", f32v(0x0000_0001), "1e-45"),
        ok(HEX, "float32", "\"0x80000000\"", f32v(0x8000_0000), "-0.0"),
        ok(HEX_CASE, "float32", "\"0x7FC00001\"", f32v(0x7fc0_0001), "\"0x7fc00001\""),
        ok(HEX_CASE, "float32", "\"0xFFFFFFFF\"", f32v(0xffff_ffff), "\"0xffffffff\""),
        bad(HEX_DIGITS, "float32", "\"0x7fc0\""),
        bad(HEX_DIGITS, "float32", "\"0x7fc0000\""),
        bad(HEX_DIGITS, "float32", "\"0x7fc000000\""),
        bad(HEX_DIGITS, "float32", "\"0x7ff8000000000000\""),
        bad(HEX_DIGITS, "float32", "\"0x7fc0000g\""),
        bad(HEX_DIGITS, "float32", "\"0x+fc00000\""),
        bad(HEX_DIGITS, "float32", "\"0x-7c00000\""),
        bad(NOT_A_FORM, "float32", "\"nan\""),
        bad(NOT_A_FORM, "float32", "\"NAN\""),
        bad(NOT_A_FORM, "float32", "\"inf\""),
        bad(NOT_A_FORM, "float32", "\"-inf\""),
        bad(NOT_A_FORM, "float32", "\"1.5\""),
        bad(NOT_A_FORM, "float32", "\"1e400\""),
        bad(NOT_A_FORM, "float32", "\"\""),
        bad(NOT_A_FORM, "float32", "null"),
        bad(NOT_A_FORM, "float32", "false"),
        bad(NOT_A_FORM, "float32", "{}"),
    ]);
}

#[test]
#[rustfmt::skip]
fn v3_float64() {
    check_v3(&[
        ok(SHORTEST, "float64", "0.1", f64v(0x3fb9_9999_9999_999a), "0.1"),
        ok(FLOAT_NUMBER, "float64", "1", f64v(0x3ff0_0000_0000_0000), "1.0"),
        ok(FLOAT_NUMBER, "float64", "-1e300", f64v((-1e300f64).to_bits()), "-1e+300"),
        ok(FLOAT_NUMBER, "float64", "1.7976931348623157e308", f64v(0x7fef_ffff_ffff_ffff), "1.7976931348623157e+308"),
        ok(FLOAT_NUMBER, "float64", "5e-324", f64v(0x0000_0000_0000_0001), "5e-324"),
        ok(TIES_TO_EVEN, "float64", "9007199254740993", f64v(0x4340_0000_0000_0000), "9007199254740992.0"),
        ok(TIES_TO_EVEN, "float64", "9007199254740995", f64v(0x4340_0000_0000_0002), "9007199254740996.0"),
        ok(FLOAT_NUMBER, "float64", "18446744073709551615", f64v(0x43f0_0000_0000_0000), "1.8446744073709552e+19"),
        ok(FLOAT_NUMBER, "float64", "-9223372036854775808", f64v(0xc3e0_0000_0000_0000), "-9.223372036854776e+18"),
        ok(NEG_ZERO, "float64", "-0.0", f64v(0x8000_0000_0000_0000), "-0.0"),
        ok(INFINITY, "float64", "\"Infinity\"", f64v(0x7ff0_0000_0000_0000), "\"Infinity\""),
        ok(INFINITY, "float64", "\"-Infinity\"", f64v(0xfff0_0000_0000_0000), "\"-Infinity\""),
        ok(NAN, "float64", "\"NaN\"", f64v(0x7ff8_0000_0000_0000), "\"NaN\""),
        ok(HEX, "float64", "\"0x7ff8000000000000\"", f64v(0x7ff8_0000_0000_0000), "\"NaN\""),
        ok(HEX, "float64", "\"0x7ff8000000000001\"", f64v(0x7ff8_0000_0000_0001), "\"0x7ff8000000000001\""),
        ok(HEX, "float64", "\"0x7ff0000000000001\"", f64v(0x7ff0_0000_0000_0001), "\"0x7ff0000000000001\""),
        ok(HEX, "float64", "\"0xfff8000000000000\"", f64v(0xfff8_0000_0000_0000), "\"0xfff8000000000000\""),
        ok(HEX, "float64", "\"0x3ff0000000000000\"", f64v(0x3ff0_0000_0000_0000), "1.0"),
        ok(HEX, "float64", "\"0x8000000000000000\"", f64v(0x8000_0000_0000_0000), "-0.0"),
        ok(HEX_CASE, "float64", "\"0x7FF800000000ABCD\"", f64v(0x7ff8_0000_0000_abcd), "\"0x7ff800000000abcd\""),
        bad(HEX_DIGITS, "float64", "\"0x7ff800000000000\""),
        bad(HEX_DIGITS, "float64", "\"0x7ff80000000000000\""),
        bad(HEX_DIGITS, "float64", "\"0x7fc00000\""),
        bad(HEX_DIGITS, "float64", "\"0x7e00\""),
        bad(HEX_DIGITS, "float64", "\"0x7ff800000000000z\""),
        bad(NOT_A_FORM, "float64", "\"nan\""),
        bad(NOT_A_FORM, "float64", "\"inf\""),
        bad(NOT_A_FORM, "float64", "\"Inf\""),
        bad(NOT_A_FORM, "float64", "\"1.5\""),
        bad(NOT_A_FORM, "float64", "\"0\""),
        bad(NOT_A_FORM, "float64", "null"),
        bad(NOT_A_FORM, "float64", "[0.0, 0.0]"),
    ]);
}

const COMPLEX: &str = "000 complex: a two-element array [real, imaginary], each a float form";

#[test]
#[rustfmt::skip]
fn v3_complex() {
    check_v3(&[
        ok("000: [1, 2] indicates 1 + 2i", "complex64", "[1, 2]", c64v(0x3f80_0000, 0x4000_0000), "[1.0,2.0]"),
        ok("000: [\"-Infinity\", \"NaN\"] is -inf + NaN·i", "complex64", "[\"-Infinity\", \"NaN\"]", c64v(0xff80_0000, 0x7fc0_0000), "[\"-Infinity\",\"NaN\"]"),
        ok(COMPLEX, "complex64", "[0.1, -0.0]", c64v(0x3dcc_cccd, 0x8000_0000), "[0.1,-0.0]"),
        ok(COMPLEX, "complex64", "[\"0x7fc00001\", \"0xFFC00000\"]", c64v(0x7fc0_0001, 0xffc0_0000), "[\"0x7fc00001\",\"0xffc00000\"]"),
        ok(COMPLEX, "complex64", "[\"Infinity\", 1e39]", c64v(0x7f80_0000, 0x7f80_0000), "[\"Infinity\",\"Infinity\"]"),
        ok("000: [1, 2] indicates 1 + 2i", "complex128", "[1, 2]", c128v(0x3ff0_0000_0000_0000, 0x4000_0000_0000_0000), "[1.0,2.0]"),
        ok(COMPLEX, "complex128", "[\"NaN\", \"0x7ff0000000000001\"]", c128v(0x7ff8_0000_0000_0000, 0x7ff0_0000_0000_0001), "[\"NaN\",\"0x7ff0000000000001\"]"),
        ok(COMPLEX, "complex128", "[\"0x7ff8000000000000\", \"0xfff8000000000000\"]", c128v(0x7ff8_0000_0000_0000, 0xfff8_0000_0000_0000), "[\"NaN\",\"0xfff8000000000000\"]"),
        ok(COMPLEX, "complex128", "[0.1, -1e300]", c128v(0x3fb9_9999_9999_999a, (-1e300f64).to_bits()), "[0.1,-1e+300]"),
        bad("issue: complex 1-element array rejected", "complex64", "[1]"),
        bad("issue: complex 3-element array rejected", "complex64", "[1, 2, 3]"),
        bad("issue: complex object rejected", "complex64", "{\"real\": 1, \"imag\": 2}"),
        bad(COMPLEX, "complex64", "[]"),
        bad(COMPLEX, "complex64", "1"),
        bad(COMPLEX, "complex64", "\"NaN\""),
        bad(COMPLEX, "complex64", "null"),
        bad(COMPLEX, "complex64", "[null, 1]"),
        bad(COMPLEX, "complex64", "[1, \"nan\"]"),
        bad("issue: hex of each component has 2×size digits (float32: 8)", "complex64", "[\"0x7ff8000000000000\", 0]"),
        bad("issue: complex 1-element array rejected", "complex128", "[1]"),
        bad("issue: complex 3-element array rejected", "complex128", "[1, 2, 3]"),
        bad("issue: complex object rejected", "complex128", "{\"re\": 1, \"im\": 2}"),
        bad("issue: hex of each component has 2×size digits (float64: 16)", "complex128", "[\"0x7fc00000\", 0]"),
        bad(COMPLEX, "complex128", "[[1, 2]]"),
    ]);
}

const RAW: &str = "000/§4 r<N>: an array of N/8 integers, each in [0, 255]";
const RAW_BASE64: &str = "issue/§5: also accept a base64 string on read; written as an int array";

#[test]
#[rustfmt::skip]
fn v3_raw() {
    check_v3(&[
        ok(RAW, "r8", "[0]", bytes(&[0]), "[0]"),
        ok(RAW, "r8", "[255]", bytes(&[255]), "[255]"),
        ok(RAW, "r24", "[1, 2, 3]", bytes(&[1, 2, 3]), "[1,2,3]"),
        ok(RAW, "r16", "[255, 0]", bytes(&[255, 0]), "[255,0]"),
        ok(RAW, "r64", "[1, 2, 3, 4, 5, 6, 7, 8]", bytes(&[1, 2, 3, 4, 5, 6, 7, 8]), "[1,2,3,4,5,6,7,8]"),
        ok(RAW_BASE64, "r24", "\"AQID\"", bytes(&[1, 2, 3]), "[1,2,3]"),
        ok(RAW_BASE64, "r16", "\"AAE=\"", bytes(&[0, 1]), "[0,1]"),
        ok(RAW_BASE64, "r8", "\"/w==\"", bytes(&[255]), "[255]"),
        bad("issue: raw wrong length rejected (too short)", "r24", "[1, 2]"),
        bad("issue: raw wrong length rejected (too long)", "r24", "[1, 2, 3, 4]"),
        bad("issue: raw wrong length rejected (r<N> is N/8 bytes, not N)", "r8", "[0, 0, 0, 0, 0, 0, 0, 0]"),
        bad("issue: raw wrong length rejected (empty)", "r8", "[]"),
        bad("issue: raw integers 0..255, 256 rejected", "r24", "[1, 2, 256]"),
        bad("issue: raw integers 0..255, 256 rejected", "r8", "[256]"),
        bad(RAW, "r8", "[-1]"),
        bad(RAW, "r8", "[1.0]"),
        bad(RAW, "r8", "[\"1\"]"),
        bad(RAW, "r8", "[true]"),
        bad(RAW, "r8", "[null]"),
        bad(RAW, "r8", "1"),
        bad(RAW, "r8", "null"),
        bad(RAW, "r8", "{}"),
        bad("issue: base64 of the wrong length rejected (2 bytes for r24)", "r24", "\"AQI=\""),
        bad("issue: base64 of the wrong length rejected (4 bytes for r24)", "r24", "\"AQIDBA==\""),
        bad("issue: base64 of the wrong length rejected (0 bytes)", "r8", "\"\""),
        bad(RAW_BASE64, "r24", "\"!!!!\""),
        bad(RAW_BASE64, "r24", "\"AQID!\""),
    ]);
}

/// Rule group "writing v3": values that no input above produces in this exact form.
#[test]
#[rustfmt::skip]
fn v3_writing() {
    let rows: Vec<(&str, &str, Value, &str)> = vec![
        ("issue: canonical NaN written as \"NaN\"", "float16", Value::Float16(f16::NAN), "\"NaN\""),
        ("issue: canonical NaN written as \"NaN\"", "float32", f32v(0x7fc0_0000), "\"NaN\""),
        ("issue: canonical NaN written as \"NaN\"", "float64", f64v(0x7ff8_0000_0000_0000), "\"NaN\""),
        ("issue: NaN with payload written as lowercase zero-padded hex", "float16", f16v(0x7dff), "\"0x7dff\""),
        ("issue: negative NaN written as hex", "float16", f16v(0xfe00), "\"0xfe00\""),
        ("issue: NaN with payload written as lowercase zero-padded hex", "float32", f32v(0x7fab_cdef), "\"0x7fabcdef\""),
        ("issue: negative NaN written as hex", "float32", f32v(0xffc0_0000), "\"0xffc00000\""),
        ("issue: signalling NaN written as hex", "float32", f32v(0x7f80_0001), "\"0x7f800001\""),
        ("issue: NaN with payload written as lowercase zero-padded hex", "float64", f64v(0x7ff0_0000_0000_00ab), "\"0x7ff00000000000ab\""),
        ("issue: negative NaN written as hex", "float64", f64v(0xfff8_0000_0000_0000), "\"0xfff8000000000000\""),
        ("issue: ±inf written as strings", "float16", Value::Float16(f16::NEG_INFINITY), "\"-Infinity\""),
        ("issue: ±inf written as strings", "float32", Value::Float32(f32::INFINITY), "\"Infinity\""),
        ("issue: ±inf written as strings", "float64", Value::Float64(f64::NEG_INFINITY), "\"-Infinity\""),
        (NEG_ZERO, "float16", Value::Float16(f16::NEG_ZERO), "-0.0"),
        (NEG_ZERO, "float32", Value::Float32(-0.0), "-0.0"),
        (NEG_ZERO, "float64", Value::Float64(-0.0), "-0.0"),
        ("issue: 0.1f32 -> 0.1", "float32", Value::Float32(0.1), "0.1"),
        (SHORTEST, "float32", Value::Float32(1.0 / 3.0), "0.33333334"),
        (SHORTEST, "float32", Value::Float32(f32::MAX), "3.4028235e+38"),
        (SHORTEST, "float32", Value::Float32(f32::MIN_POSITIVE), "1.1754944e-38"),
        (SHORTEST, "float16", Value::Float16(f16::from_f32(0.333)), "0.333"),
        (SHORTEST, "float16", Value::Float16(f16::MIN_POSITIVE), "0.00006104"),
        (SHORTEST, "float64", Value::Float64(0.1 + 0.2), "0.30000000000000004"),
        (SHORTEST, "float64", Value::Float64(1.0 / 3.0), "0.3333333333333333"),
        ("issue: complex components written as floats", "complex64", c64v(0x7fc0_0001, 0x8000_0000), "[\"0x7fc00001\",-0.0]"),
        ("issue: complex components written as floats", "complex128", c128v(0x7ff8_0000_0000_0000, 0xfff0_0000_0000_0000), "[\"NaN\",\"-Infinity\"]"),
        ("§5: r<N> written as an int array", "r24", bytes(&[0, 128, 255]), "[0,128,255]"),
    ];
    run_rows(rows, |(rule, name, value, _)| format!("[{rule}] {name} {}", show(value)), |(rule, name, value, written)| {
        let dt = data_type(name);
        let text = assert_v3_text_round_trip(&dt, value, rule);
        assert_eq!(&text, written, "[{rule}] {name} {}", show(value));
        assert_bytes_round_trip(&dt, value, rule);
    });
}

/// Writing a value that is not of the data type is an error, not a wrong fill value.
#[test]
#[rustfmt::skip]
fn v3_writing_rejects_values_of_another_type() {
    let rows: Vec<(&str, &str, Value)> = vec![
        ("fill value must be of the array's data type", "float32", Value::Int32(1)),
        ("fill value must be of the array's data type", "float32", Value::Float64(1.0)),
        ("fill value must be of the array's data type", "int8", Value::UInt8(1)),
        ("fill value must be of the array's data type", "bool", Value::UInt8(1)),
        ("fill value must be of the array's data type", "complex64", Value::Complex128(Complex::new(1.0, 2.0))),
        ("r<N> fill is exactly N/8 bytes", "r24", bytes(&[1, 2])),
        ("r<N> fill is exactly N/8 bytes", "r8", bytes(&[1, 2])),
    ];
    run_rows(rows, |(rule, name, value)| format!("[{rule}] {name} {}", show(value)), |(rule, name, value)| {
        let error = data_type(name).fill_value_to_v3_json(value).unwrap_err();
        assert!(matches!(error, Error::ValueMismatch { .. }), "[{rule}] {name} {}: {error:?}", show(value));
        assert!(error.to_string().contains(name), "[{rule}] {error}");
    });
}

/// Rule "error messages show the offending JSON and what was expected": the integer messages
/// give the range, the others the permitted forms.
#[test]
#[rustfmt::skip]
fn v3_error_messages_say_what_was_expected() {
    let rows: [(&str, &str, &[&str]); 9] = [
        ("uint8", "256", &["256", "0", "255"]),
        ("int8", "-129", &["-129", "-128", "127"]),
        ("int64", "1.5", &["1.5", "-9223372036854775808", "9223372036854775807"]),
        ("uint64", "18446744073709551616", &["18446744073709551615"]),
        ("bool", "1", &["1", "true", "false"]),
        ("float32", "\"nan\"", &["\"nan\"", "\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "0x"]),
        ("float16", "\"0x7e0\"", &["\"0x7e0\"", "0x"]),
        ("complex128", "[1]", &["[1]", "two"]),
        ("r24", "[1,2]", &["[1,2]", "3", "255"]),
    ];
    run_rows(rows, |(name, input, _)| format!("{name} {input}"), |(name, input, needles)| {
        let message = data_type(name).fill_value_from_v3_json(&parse(input), None).unwrap_err().to_string();
        for needle in *needles {
            assert!(message.contains(needle), "{name} {input}: {message:?} lacks {needle:?}");
        }
    });
}

// ---------------------------------------------------------------------------------------------
// v2 fill values
// ---------------------------------------------------------------------------------------------

const V2_FLOAT: &str = "§2 v2: NaN/+inf/-inf MUST be written \"NaN\", \"Infinity\", \"-Infinity\"";
const V2_NUMBER: &str = "§2 v2: numbers as JSON numbers";
const V2_NULL: &str = "§2 v2: null means no fill value";
const V2_BASE64: &str = "§2 v2: raw |V fill is a base64 string";

enum V2Expect {
    /// Reads as this (None: no fill value) and is written back as exactly this JSON text.
    Fill(Option<Value>, &'static str),
    Invalid,
}

#[test]
#[rustfmt::skip]
fn v2_fill_values() {
    use V2Expect::{Fill, Invalid};
    let rows: Vec<(&str, &str, &str, V2Expect)> = vec![
        (V2_FLOAT, "<f8", "\"NaN\"", Fill(Some(f64v(0x7ff8_0000_0000_0000)), "\"NaN\"")),
        (V2_FLOAT, ">f4", "\"NaN\"", Fill(Some(f32v(0x7fc0_0000)), "\"NaN\"")),
        (V2_FLOAT, "<f2", "\"NaN\"", Fill(Some(f16v(0x7e00)), "\"NaN\"")),
        (V2_FLOAT, "<f4", "\"-Infinity\"", Fill(Some(f32v(0xff80_0000)), "\"-Infinity\"")),
        (V2_FLOAT, ">f8", "\"Infinity\"", Fill(Some(f64v(0x7ff0_0000_0000_0000)), "\"Infinity\"")),
        (V2_NUMBER, "<f4", "0.1", Fill(Some(f32v(0x3dcc_cccd)), "0.1")),
        (V2_NUMBER, "<f8", "1.5", Fill(Some(Value::Float64(1.5)), "1.5")),
        (V2_NUMBER, ">f2", "65520", Fill(Some(f16v(0x7c00)), "\"Infinity\"")),
        ("§2: 3.x writes -0.0", "<f8", "-0.0", Fill(Some(f64v(0x8000_0000_0000_0000)), "-0.0")),
        ("§2: <c16 1+NaN·j is [1.0, \"NaN\"]", "<c16", "[1.0, \"NaN\"]", Fill(Some(c128v(0x3ff0_0000_0000_0000, 0x7ff8_0000_0000_0000)), "[1.0,\"NaN\"]")),
        (V2_FLOAT, ">c8", "[\"-Infinity\", 2]", Fill(Some(c64v(0xff80_0000, 0x4000_0000)), "[\"-Infinity\",2.0]")),
        ("§2: |b1 fill is true", "|b1", "true", Fill(Some(Value::Bool(true)), "true")),
        (V2_NUMBER, "<i4", "-7", Fill(Some(Value::Int32(-7)), "-7")),
        (V2_NUMBER, ">i8", "-9223372036854775808", Fill(Some(Value::Int64(i64::MIN)), "-9223372036854775808")),
        (V2_NUMBER, "<u8", "18446744073709551615", Fill(Some(Value::UInt64(u64::MAX)), "18446744073709551615")),
        (V2_NUMBER, "|u1", "255", Fill(Some(Value::UInt8(255)), "255")),
        (V2_NUMBER, "|i1", "-128", Fill(Some(Value::Int8(-128)), "-128")),
        ("§2: |V3 fill is \"AQID\"", "|V3", "\"AQID\"", Fill(Some(bytes(&[1, 2, 3])), "\"AQID\"")),
        (V2_BASE64, "|V1", "\"/w==\"", Fill(Some(bytes(&[255])), "\"/w==\"")),
        ("§2: the legacy 0 of |V is zero bytes, as NumPy reads it", "|V3", "0", Fill(Some(bytes(&[0, 0, 0])), "\"AAAA\"")),
        ("§2: the legacy 0 of <U is the empty text, as NumPy reads it", "<U2", "0", Fill(Some(Value::String(String::new())), "\"\"")),
        (V2_NULL, "<f8", "null", Fill(None, "null")),
        (V2_NULL, "<i4", "null", Fill(None, "null")),
        (V2_NULL, "|b1", "null", Fill(None, "null")),
        (V2_NULL, "|V3", "null", Fill(None, "null")),
        (V2_FLOAT, "<f4", "\"nan\"", Invalid),
        (V2_FLOAT, "<f4", "\"inf\"", Invalid),
        (V2_FLOAT, "<f4", "\"1.5\"", Invalid),
        (V2_FLOAT, "<f8", "\"0x7ff8000000000000\"", Invalid),
        (V2_FLOAT, "<f8", "true", Invalid),
        (V2_NUMBER, "<i4", "1.5", Invalid),
        (V2_NUMBER, "|u1", "256", Invalid),
        (V2_NUMBER, "|u1", "-1", Invalid),
        (V2_NUMBER, "<i2", "\"1\"", Invalid),
        ("§2: bool is a JSON boolean", "|b1", "1", Invalid),
        (V2_BASE64, "|V3", "\"AQI=\"", Invalid),
        (V2_BASE64, "|V3", "\"!!!!\"", Invalid),
        (V2_BASE64, "|V3", "3", Invalid),
        ("§2: complex is a two-element array", "<c8", "[1]", Invalid),
        ("§2: complex is a two-element array", "<c16", "[1, 2, 3]", Invalid),
    ];
    run_rows(rows, |(rule, typestr, input, _)| format!("[{rule}] {typestr} {input}"), |(rule, typestr, input, expect)| {
        let layout = Layout::from_v2_json(&json!(typestr)).unwrap();
        let json = parse(input);
        match (expect, layout.fill_value_from_v2_json(&json)) {
            (Fill(value, written), Ok(read)) => {
                let context = format!("[{rule}] {typestr} {input}");
                match (&read, &value) {
                    (Some(read), Some(value)) => assert_same(read, value, &context),
                    (None, None) => {}
                    _ => panic!("{context}: got {read:?}, expected {value:?}"),
                }
                let out = layout.fill_value_to_v2_json(value.as_ref()).unwrap();
                assert_eq!(serde_json::to_string(&out).unwrap(), *written, "{context}: written");
                let back = layout.fill_value_from_v2_json(&parse(written)).unwrap();
                assert_eq!(back.is_some(), value.is_some(), "{context}: re-read");
                if let (Some(back), Some(value)) = (back, &value) {
                    assert_same(&back, value, &format!("{context}: re-read"));
                    // Bytes in the typestr's own byte order, as the typed path writes them.
                    let encoded = layout.encode_value(value).unwrap();
                    assert_same(&layout.decode_value(&encoded).unwrap(), value, &context);
                    let endian = if typestr.starts_with('>') { Endian::Big } else { Endian::Little };
                    if let Some((typed, _)) = via_element(value, endian) {
                        assert_eq!(typed, encoded, "{context}: ZarrType and Layout bytes differ");
                    }
                }
            }
            (Fill(value, _), Err(error)) => panic!("[{rule}] {typestr} {input}: rejected ({error}); expected {value:?}"),
            (Invalid, Ok(read)) => panic!("[{rule}] {typestr} {input}: accepted as {read:?}"),
            (Invalid, Err(error)) => {
                let Layout::Scalar(leaf) = layout else { unreachable!() };
                assert_fill_error(&error, &json, &leaf.scalar().name(), rule);
            }
        }
    });
}

/// Rule "v2 writing a NaN with payload for a scalar is an error (Error::Unrepresentable)".
#[test]
#[rustfmt::skip]
fn v2_writing_a_nan_payload_is_unrepresentable() {
    const RULE: &str = "issue: v2 only knows \"NaN\": a NaN with payload is Error::Unrepresentable";
    let rows: Vec<(&str, Value, &str)> = vec![
        ("<f2", f16v(0x7e01), "0x7e01"),
        (">f2", f16v(0xfe00), "0xfe00"),
        ("<f4", f32v(0x7fc0_0001), "0x7fc00001"),
        ("<f4", f32v(0xffc0_0000), "0xffc00000"),
        (">f4", f32v(0x7f80_0001), "0x7f800001"),
        ("<f8", f64v(0x7ff8_0000_0000_0001), "0x7ff8000000000001"),
        (">f8", f64v(0xfff8_0000_0000_0000), "0xfff8000000000000"),
        ("<c8", c64v(0x3f80_0000, 0x7fc0_0002), "0x7fc00002"),
        (">c16", c128v(0xfff8_0000_0000_0000, 0), "0xfff8000000000000"),
    ];
    run_rows(rows, |(typestr, value, _)| format!("[{RULE}] {typestr} {}", show(value)), |(typestr, value, bits)| {
        let layout = Layout::from_v2_json(&json!(typestr)).unwrap();
        let error = layout.fill_value_to_v2_json(Some(value)).unwrap_err();
        assert!(matches!(error, Error::Unrepresentable { .. }), "[{RULE}] {typestr} {}: {error:?}", show(value));
        assert!(error.to_string().contains(bits), "[{RULE}] {typestr}: {error} does not show {bits}");
    });
}

// ---------------------------------------------------------------------------------------------
// Bit-exact round trips of random bit patterns (proptest) and of every float16
// ---------------------------------------------------------------------------------------------

/// The JSON form a float must be written in (issue "Writing v3").
fn assert_float_form(
    written: &Json,
    bits: u64,
    size: usize,
    canonical_nan: u64,
    is_nan: bool,
    is_inf: bool,
) {
    if is_nan {
        if bits == canonical_nan {
            assert_eq!(written, &json!("NaN"), "canonical NaN 0x{bits:x}");
        } else {
            let hex = format!("0x{bits:0width$x}", width = 2 * size);
            assert_eq!(
                written,
                &json!(hex),
                "NaN 0x{bits:x} as lowercase zero-padded hex"
            );
        }
    } else if is_inf {
        let sign = if bits >> (8 * size - 1) == 1 { "-" } else { "" };
        assert_eq!(
            written,
            &json!(format!("{sign}Infinity")),
            "infinity 0x{bits:x}"
        );
    } else {
        assert!(
            written.is_number(),
            "finite 0x{bits:x} written as {written}, not a number"
        );
    }
}

/// Every bit pattern of a float type: v3 JSON (directly and as text, in both hex cases) and
/// bytes (Layout, BytesCodec, ZarrType; both orders) all give back the same bits.
fn float_round_trip(name: &str, value: &Value) {
    const RULE: &str =
        "issue: every fill value round-trips bit-exactly, NaN payloads and -0.0 included";
    let dt = data_type(name);
    let written = dt.fill_value_to_v3_json(value).unwrap();
    match value {
        Value::Float16(v) => assert_float_form(
            &written,
            u64::from(v.to_bits()),
            2,
            0x7e00,
            v.is_nan(),
            v.is_infinite(),
        ),
        Value::Float32(v) => assert_float_form(
            &written,
            u64::from(v.to_bits()),
            4,
            0x7fc0_0000,
            v.is_nan(),
            v.is_infinite(),
        ),
        Value::Float64(v) => assert_float_form(
            &written,
            v.to_bits(),
            8,
            0x7ff8_0000_0000_0000,
            v.is_nan(),
            v.is_infinite(),
        ),
        _ => {}
    }
    assert_v3_text_round_trip(&dt, value, RULE);
    if let Some(hex) = written.as_str().filter(|s| s.starts_with("0x")) {
        let upper = format!("0x{}", hex[2..].to_uppercase());
        let back = dt.fill_value_from_v3_json(&json!(upper), None).unwrap();
        assert_same(&back, value, &format!("[{HEX_CASE}] {upper}"));
    }
    assert_bytes_round_trip(&dt, value, RULE);
}

fn zarr_json_round_trip(name: &str, value: &Value) {
    let meta = ArrayMetadataV3::new(
        vec![4],
        vec![2],
        data_type(name),
        value.clone(),
        Endian::Little,
    );
    let text = serde_json::to_string(&meta.to_json().unwrap()).unwrap();
    let back = ArrayMetadataV3::from_json_str(&text).unwrap();
    let fill = meta.to_json().unwrap()["fill_value"].to_string();
    assert_same(
        &back.fill_value,
        value,
        &format!("[issue: round-trips bit-exactly] zarr.json fill_value {fill}"),
    );
}

#[test]
fn every_float16_round_trips() {
    for bits in 0..=u16::MAX {
        float_round_trip("float16", &f16v(bits));
    }
}

proptest! {
    // No regression files: this suite may only write its own three test files.
    #![proptest_config(crate::common::random::config_of(256))]

    #[test]
    fn float16_bits_round_trip(bits: u16) {
        float_round_trip("float16", &f16v(bits));
    }

    #[test]
    fn float32_bits_round_trip(bits: u32) {
        float_round_trip("float32", &f32v(bits));
    }

    #[test]
    fn float64_bits_round_trip(bits: u64) {
        float_round_trip("float64", &f64v(bits));
    }

    #[test]
    fn complex64_bits_round_trip(re: u32, im: u32) {
        float_round_trip("complex64", &c64v(re, im));
    }

    #[test]
    fn complex128_bits_round_trip(re: u64, im: u64) {
        float_round_trip("complex128", &c128v(re, im));
    }

    /// The library's own text path: `zarr.json` written by `ArrayMetadataV3::to_json` and read by
    /// `ArrayMetadataV3::from_json_str` keeps the fill value's bits.
    #[test]
    fn float64_fill_survives_zarr_json_text(bits: u64) {
        zarr_json_round_trip("float64", &f64v(bits));
    }

    #[test]
    fn float32_fill_survives_zarr_json_text(bits: u32) {
        zarr_json_round_trip("float32", &f32v(bits));
    }

    /// Float values that are NaN-heavy: random payloads and signs with an all-ones exponent.
    #[test]
    fn float32_nan_payloads_round_trip(sign: bool, mantissa in 1u32..(1 << 23)) {
        let bits = (u32::from(sign) << 31) | 0x7f80_0000 | mantissa;
        float_round_trip("float32", &f32v(bits));
    }

    #[test]
    fn float64_nan_payloads_round_trip(sign: bool, mantissa in 1u64..(1 << 52)) {
        let bits = (u64::from(sign) << 63) | 0x7ff0_0000_0000_0000 | mantissa;
        float_round_trip("float64", &f64v(bits));
    }

    /// v2: every float but a NaN with payload round-trips; those are Unrepresentable.
    #[test]
    fn float64_bits_round_trip_v2(bits: u64, big: bool) {
        let typestr = if big { ">f8" } else { "<f8" };
        let layout = Layout::from_v2_json(&json!(typestr)).unwrap();
        let value = f64v(bits);
        let written = layout.fill_value_to_v2_json(Some(&value));
        if f64::from_bits(bits).is_nan() && bits != 0x7ff8_0000_0000_0000 {
            prop_assert!(matches!(written, Err(Error::Unrepresentable { .. })), "payload NaN must be Unrepresentable");
        } else {
            let text = serde_json::to_string(&written.unwrap()).unwrap();
            let back = layout.fill_value_from_v2_json(&parse(&text)).unwrap().unwrap();
            assert_same(&back, &value, &format!("[v2 round trip] {typestr} via {text}"));
        }
    }

    #[test]
    fn float32_bits_round_trip_v2(bits: u32, big: bool) {
        let typestr = if big { ">f4" } else { "<f4" };
        let layout = Layout::from_v2_json(&json!(typestr)).unwrap();
        let value = f32v(bits);
        let written = layout.fill_value_to_v2_json(Some(&value));
        if f32::from_bits(bits).is_nan() && bits != 0x7fc0_0000 {
            prop_assert!(matches!(written, Err(Error::Unrepresentable { .. })), "payload NaN must be Unrepresentable");
        } else {
            let text = serde_json::to_string(&written.unwrap()).unwrap();
            let back = layout.fill_value_from_v2_json(&parse(&text)).unwrap().unwrap();
            assert_same(&back, &value, &format!("[v2 round trip] {typestr} via {text}"));
        }
    }

    /// Integers: every value is written as a JSON integer and reads back.
    #[test]
    fn integers_round_trip(a: i64, b: u64, c: i8, d: u16) {
        for (name, value) in [
            ("int64", Value::Int64(a)),
            ("uint64", Value::UInt64(b)),
            ("int8", Value::Int8(c)),
            ("uint16", Value::UInt16(d)),
        ] {
            let dt = data_type(name);
            let text = assert_v3_text_round_trip(&dt, &value, INT);
            prop_assert!(!text.contains(['.', 'e', 'E']), "{} written as {}", name, text);
            assert_bytes_round_trip(&dt, &value, INT);
        }
    }

    /// Raw: any bytes round-trip, written as an int array, also read from base64.
    #[test]
    fn raw_round_trip(content in proptest::collection::vec(any::<u8>(), 1..40)) {
        let name = format!("r{}", content.len() * 8);
        let dt = data_type(&name);
        let value = Value::Bytes(content.clone());
        let text = assert_v3_text_round_trip(&dt, &value, RAW);
        prop_assert_eq!(parse(&text), json!(content));
        let b64 = base64_encode(&content);
        assert_same(&dt.fill_value_from_v3_json(&json!(b64), None).unwrap(), &value, RAW_BASE64);
        assert_bytes_round_trip(&dt, &value, RAW);
    }
}

/// Standard base64 with padding (the test's own encoder, independent of the library's).
fn base64_encode(data: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &b)| acc | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}
