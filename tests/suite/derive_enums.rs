//! `#[derive(ZarrEnum)]` and `char` fields end to end (issue 22): fieldless enums of every
//! integer `repr` with explicit and implicit discriminants, alone, in nested structs and in
//! arrays; `char` as `U1`. Round trips of one value and of slices in both byte orders, against
//! the run-time codec and hand-computed bytes; decoding refuses every integer that is no variant
//! (checked exhaustively for the 8-bit types) and every code unit that is no `char`, with the
//! record, the field path, the byte offset, the value and the type; fill values; arrays created
//! in Zarr v3 and v2 name the variants in the `zarrdt:enums` attribute.

#![allow(clippy::unwrap_used)]

use std::fmt::Debug;
use std::sync::Arc;

use serde_json::json;
use zarrdt::advanced::{ENUMS_ATTRIBUTE, ElementFault};
use zarrdt::array::{ArrayOptions, Compression, RecordType, open_array};
use zarrdt::layout::{FieldPath, Layout};
use zarrdt::types::{DataType, ScalarType};
use zarrdt::value::Value;
use zarrdt::zarrs::array::ArraySubset;
use zarrdt::zarrs::storage::store::MemoryStore;
use zarrdt::{Endian, Error, ZarrEnum, ZarrStruct, ZarrType};
use zerocopy::{Immutable, IntoBytes, KnownLayout, TryFromBytes};

const ENDIANS: [Endian; 2] = [Endian::Little, Endian::Big];

// =============================================================================================
// The types under test
// =============================================================================================

/// Implicit and explicit discriminants, not contiguous.
#[derive(ZarrEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(u8)]
enum Status {
    #[default]
    Ok,
    Warn,
    Fail = 7,
    Lost,
}

#[derive(ZarrEnum, Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i8)]
enum Sign {
    Negative = -1,
    Zero,
    Positive,
}

#[derive(ZarrEnum, Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u16)]
enum Port {
    Http = 80,
    Https = 443,
    Top = u16::MAX,
}

#[derive(ZarrEnum, Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i16)]
enum Level {
    Low = -300,
    High = 300,
}

#[derive(ZarrEnum, Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
enum Magic {
    Zarr = 0x5a41_5252,
    Zero = 0,
}

#[derive(ZarrEnum, Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
enum Offset {
    Min = i32::MIN,
    Max = i32::MAX,
}

/// Discriminants from constant expressions, up to the largest `u64`.
#[derive(ZarrEnum, Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u64)]
enum Big {
    Small = 1,
    Shifted = 1 << 40,
    Largest = u64::MAX,
}

#[derive(ZarrEnum, Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i64)]
enum Kind {
    Min = i64::MIN,
    MinusOne = -1,
    Next,
}

#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Inner {
    kind: Kind,
    weight: f32,
}

/// Every enum, nested and in arrays, and `char` fields.
#[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
struct Event {
    id: u32,
    status: Status,
    history: [Status; 3],
    sign: Sign,
    port: Port,
    level: Level,
    magic: Magic,
    offset: Offset,
    big: Big,
    inner: Inner,
    grade: char,
    initials: [char; 2],
}

/// A single-copy record with an enum: the enum derives zerocopy's traits too.
#[derive(
    ZarrEnum, IntoBytes, TryFromBytes, Immutable, KnownLayout, Clone, Copy, Debug, PartialEq,
)]
#[repr(u8)]
enum Flag {
    Off = 0,
    On = 1,
    Unknown = 9,
}

#[derive(
    ZarrStruct, IntoBytes, TryFromBytes, Immutable, KnownLayout, Clone, Copy, Debug, PartialEq,
)]
#[zarr(single_copy)]
#[repr(C)]
struct Sample {
    value: f32,
    letter: char,
    flags: [Flag; 4],
}

// =============================================================================================
// Values
// =============================================================================================

fn event(i: usize) -> Event {
    let statuses = [Status::Ok, Status::Warn, Status::Fail, Status::Lost];
    let pick = |k: usize| statuses[(i + k) % statuses.len()];
    let letters = ['a', 'é', '𝄞', '\0', '\u{10ffff}', 'Z'];
    Event {
        id: u32::try_from(i).unwrap() * 1_000_003,
        status: pick(0),
        history: [pick(1), pick(2), pick(3)],
        sign: [Sign::Negative, Sign::Zero, Sign::Positive][i % 3],
        port: [Port::Http, Port::Https, Port::Top][i % 3],
        level: [Level::Low, Level::High][i % 2],
        magic: [Magic::Zarr, Magic::Zero][i % 2],
        offset: [Offset::Min, Offset::Max][i % 2],
        big: [Big::Small, Big::Shifted, Big::Largest][i % 3],
        inner: Inner {
            kind: [Kind::Min, Kind::MinusOne, Kind::Next][i % 3],
            weight: f32::from_bits(0x3f80_0000 + u32::try_from(i).unwrap()),
        },
        grade: letters[i % letters.len()],
        initials: [
            letters[(i + 1) % letters.len()],
            letters[(i + 2) % letters.len()],
        ],
    }
}

fn events(n: usize) -> Vec<Event> {
    (0..n).map(event).collect()
}

/// The packed offsets of `Event`'s fields, as the record lays them out.
const STATUS_AT: usize = 4;
const HISTORY_AT: usize = 5;
const GRADE_AT: usize = 4 + 1 + 3 + 1 + 2 + 2 + 4 + 4 + 8 + 8 + 4;

// =============================================================================================
// Helpers
// =============================================================================================

/// Every round trip of one value and of slices in both byte orders, checked against the
/// run-time codec (v3 data type and v2 layout) and through dynamic values.
fn check_roundtrip<T: ZarrType + Debug + PartialEq>(values: &[T]) {
    let name = std::any::type_name::<T>();
    let mut encoded = Vec::new();
    for endian in ENDIANS {
        let context = format!("{name} in {endian} endian");
        let bytes = T::encode_slice(values, endian);
        assert_eq!(bytes.len(), values.len() * T::SIZE, "{context}");
        for (index, value) in values.iter().enumerate() {
            let one = value.encode(endian);
            assert_eq!(
                one,
                bytes[index * T::SIZE..][..T::SIZE],
                "{context}: {index}"
            );
            assert_eq!(
                &T::decode(&one, endian).unwrap(),
                value,
                "{context}: {index}"
            );
        }
        assert_eq!(
            T::decode_slice(&bytes, endian).unwrap(),
            values,
            "{context}"
        );
        let dynamic: Vec<Value> = values.iter().map(ZarrType::to_value).collect();
        let v3 = Layout::from_data_type(&T::data_type(), Some(endian)).unwrap();
        assert_eq!(
            v3.encode_values(&dynamic).unwrap(),
            bytes,
            "{context}: v3 codec"
        );
        assert_eq!(
            T::layout(endian).encode_values(&dynamic).unwrap(),
            bytes,
            "{context}: v2 codec"
        );
        assert_eq!(
            v3.decode_values(&bytes).unwrap(),
            dynamic,
            "{context}: decode"
        );
        let rebuilt: Vec<T> = dynamic.iter().map(|v| T::from_value(v).unwrap()).collect();
        assert_eq!(rebuilt, values, "{context}: from_value(to_value)");
        encoded.push(bytes);
    }
    let mut swapped = encoded[0].clone();
    T::layout(Endian::Little)
        .convert_byte_order(&mut swapped, Endian::Big)
        .unwrap();
    assert_eq!(swapped, encoded[1], "{name}: the byte orders");
}

/// `error` is an `InvalidElement` at `index`, `path` and `offset` with `fault`, and reads as
/// `display`.
fn assert_invalid(
    error: &Error,
    index: usize,
    path: &FieldPath,
    offset: usize,
    fault: &ElementFault,
    display: &str,
) {
    match error {
        Error::InvalidElement {
            index: i,
            path: p,
            offset: o,
            fault: f,
        } => {
            assert_eq!((i, p, o, f), (&index, path, &offset, fault), "{error}");
        }
        other => panic!("expected Error::InvalidElement, got {other:?}"),
    }
    assert_eq!(error.to_string(), display);
}

fn enum_fault<T: ZarrType>(value: i128) -> ElementFault {
    ElementFault::InvalidEnum {
        value,
        enumeration: T::TYPE.as_enum().unwrap().to_string(),
    }
}

// =============================================================================================
// Types and bytes
// =============================================================================================

#[test]
fn enums_are_their_integer_types_in_v3_and_v2() {
    let cases: [(DataType, DataType, &str); 8] = [
        (Status::data_type(), u8::data_type(), "|u1"),
        (Sign::data_type(), i8::data_type(), "|i1"),
        (Port::data_type(), u16::data_type(), ">u2"),
        (Level::data_type(), i16::data_type(), ">i2"),
        (Magic::data_type(), u32::data_type(), ">u4"),
        (Offset::data_type(), i32::data_type(), ">i4"),
        (Big::data_type(), u64::data_type(), ">u8"),
        (Kind::data_type(), i64::data_type(), ">i8"),
    ];
    for (found, integer, typestr) in cases {
        assert_eq!(found, integer);
        assert_eq!(found.to_v3_json(), integer.to_v3_json());
        let layout = Layout::from_data_type(&found, Some(Endian::Big)).unwrap();
        assert_eq!(layout.to_v2_json().unwrap(), json!(typestr));
    }
    assert_eq!(
        Big::layout(Endian::Little).to_v2_json().unwrap(),
        json!("<u8")
    );
    assert_eq!(
        char::data_type().to_v3_json(),
        json!({"name": "fixed_length_utf32", "configuration": {"length_bytes": 4}})
    );
    assert_eq!(
        char::layout(Endian::Little).to_v2_json().unwrap(),
        json!("<U1")
    );
    assert_eq!(
        char::layout(Endian::Big).to_v2_json().unwrap(),
        json!(">U1")
    );

    let inner = Inner::data_type();
    let inner = inner.as_struct().unwrap();
    assert_eq!(
        inner.fields().into_iter().next().unwrap().data_type(),
        DataType::from_v3_json(&json!("int64")).unwrap()
    );
    assert_eq!(
        Event::layout(Endian::Little).to_v2_json().unwrap(),
        json!([
            ["id", "<u4"],
            ["status", "|u1"],
            ["history", "|u1", [3]],
            ["sign", "|i1"],
            ["port", "<u2"],
            ["level", "<i2"],
            ["magic", "<u4"],
            ["offset", "<i4"],
            ["big", "<u8"],
            ["inner", [["kind", "<i8"], ["weight", "<f4"]]],
            ["grade", "<U1"],
            ["initials", "<U1", [2]]
        ])
    );
    assert_eq!(Event::SIZE, GRADE_AT + 4 + 8);
    assert_eq!(<Event as ZarrStruct>::OFFSETS[1], STATUS_AT);
    assert_eq!(<Event as ZarrStruct>::OFFSETS[2], HISTORY_AT);
    assert_eq!(<Event as ZarrStruct>::OFFSETS[10], GRADE_AT);
}

#[test]
fn discriminants_explicit_and_implicit_are_the_stored_values() {
    assert_eq!(
        [Status::Ok, Status::Warn, Status::Fail, Status::Lost].map(|s| s.encode(Endian::Little)),
        [[0], [1], [7], [8]]
    );
    assert_eq!(Sign::Positive.encode(Endian::Big), [1]);
    assert_eq!(Sign::Negative.encode(Endian::Big), [0xff]);
    assert_eq!(Port::Https.encode(Endian::Big), [0x01, 0xbb]);
    assert_eq!(Port::Https.encode(Endian::Little), [0xbb, 0x01]);
    assert_eq!(Level::Low.encode(Endian::Big), (-300i16).to_be_bytes());
    assert_eq!(Magic::Zarr.encode(Endian::Big), *b"ZARR");
    assert_eq!(Big::Largest.encode(Endian::Little), [0xff; 8]);
    assert_eq!(Big::Shifted.encode(Endian::Big), (1u64 << 40).to_be_bytes());
    assert_eq!(Kind::Next.encode(Endian::Little), [0; 8]);
    assert_eq!(Kind::Min.encode(Endian::Big), i64::MIN.to_be_bytes());

    // The descriptor holds the variants in declaration order with their values.
    let variants: Vec<(&str, i128)> = Status::TYPE
        .as_enum()
        .unwrap()
        .variants()
        .iter()
        .map(|v| (v.name(), v.value()))
        .collect();
    assert_eq!(variants, [("Ok", 0), ("Warn", 1), ("Fail", 7), ("Lost", 8)]);
    assert_eq!(
        Big::TYPE
            .as_enum()
            .unwrap()
            .variant(u64::MAX.into())
            .unwrap()
            .name(),
        "Largest"
    );
    assert_eq!(Kind::TYPE.as_enum().unwrap().integer(), ScalarType::Int64);
}

#[test]
fn one_record_encodes_to_hand_computed_bytes() {
    let record = Event {
        id: 0x0102_0304,
        status: Status::Fail,
        history: [Status::Ok, Status::Lost, Status::Warn],
        sign: Sign::Negative,
        port: Port::Http,
        level: Level::High,
        magic: Magic::Zarr,
        offset: Offset::Min,
        big: Big::Shifted,
        inner: Inner {
            kind: Kind::MinusOne,
            weight: 1.5,
        },
        grade: 'é',
        initials: ['𝄞', 'A'],
    };
    let mut expected = Vec::new();
    expected.extend(0x0102_0304u32.to_be_bytes());
    expected.extend([7, 0, 8, 1, 0xff]);
    expected.extend(80u16.to_be_bytes());
    expected.extend(300i16.to_be_bytes());
    expected.extend(*b"ZARR");
    expected.extend(i32::MIN.to_be_bytes());
    expected.extend((1u64 << 40).to_be_bytes());
    expected.extend((-1i64).to_be_bytes());
    expected.extend(1.5f32.to_be_bytes());
    expected.extend(0xe9u32.to_be_bytes());
    expected.extend(0x1d11eu32.to_be_bytes());
    expected.extend(0x41u32.to_be_bytes());
    assert_eq!(record.encode(Endian::Big), expected);
    assert_eq!(Event::decode(&expected, Endian::Big).unwrap(), record);
}

#[test]
fn round_trips_in_both_byte_orders() {
    check_roundtrip(&events(37));
    check_roundtrip(&[Status::Ok, Status::Lost, Status::Fail, Status::Warn]);
    check_roundtrip(&[Kind::Min, Kind::Next, Kind::MinusOne]);
    check_roundtrip(&[Big::Largest, Big::Small]);
    check_roundtrip(&[[Port::Top, Port::Http], [Port::Https, Port::Https]]);
    check_roundtrip(&['\0', 'x', 'ß', '\u{10ffff}', '\u{d7ff}', '\u{e000}']);
    check_roundtrip(
        &[Sample {
            value: -0.0,
            letter: '∂',
            flags: [Flag::On, Flag::Off, Flag::Unknown, Flag::On],
        }; 5],
    );
}

// =============================================================================================
// Decoding refuses what is no value
// =============================================================================================

#[test]
fn every_8_bit_value_decodes_exactly_when_it_is_a_variant() {
    for byte in 0..=u8::MAX {
        let variant = Status::decode(&[byte], Endian::Little);
        match byte {
            0 => assert_eq!(variant.unwrap(), Status::Ok),
            1 => assert_eq!(variant.unwrap(), Status::Warn),
            7 => assert_eq!(variant.unwrap(), Status::Fail),
            8 => assert_eq!(variant.unwrap(), Status::Lost),
            _ => assert_invalid(
                &variant.unwrap_err(),
                0,
                &FieldPath::root(),
                0,
                &enum_fault::<Status>(byte.into()),
                &format!(
                    "element 0, byte offset 0: {byte} is no variant of enum `Status` (uint8: Ok = 0, Warn = 1, Fail = 7, Lost = 8)"
                ),
            ),
        }
        let signed = i8::from_ne_bytes([byte]);
        let chunk = [0, byte, 1];
        let decoded = Sign::decode_slice(&chunk, Endian::Big);
        if (-1..=1).contains(&signed) {
            assert_eq!(decoded.unwrap().len(), 3);
        } else {
            assert_invalid(
                &decoded.unwrap_err(),
                1,
                &FieldPath::root(),
                1,
                &enum_fault::<Sign>(signed.into()),
                &format!(
                    "element 1, byte offset 1: {signed} is no variant of enum `Sign` (int8: Negative = -1, Zero = 0, Positive = 1)"
                ),
            );
        }
    }
}

#[test]
fn a_bad_enum_value_in_a_chunk_names_record_field_offset_value_and_type() {
    let records = events(40);
    for endian in ENDIANS {
        // A nested 64-bit enum, in record 33.
        let mut bytes = Event::encode_slice(&records, endian);
        let kind_at = 33 * Event::SIZE + <Event as ZarrStruct>::OFFSETS[9];
        let bad: i64 = 5;
        bytes[kind_at..kind_at + 8].copy_from_slice(&match endian {
            Endian::Little => bad.to_le_bytes(),
            Endian::Big => bad.to_be_bytes(),
        });
        let error = Event::decode_slice(&bytes, endian).unwrap_err();
        assert_invalid(
            &error,
            33,
            &FieldPath::root().field("inner").field("kind"),
            kind_at,
            &enum_fault::<Kind>(5),
            &format!(
                "element 33 at field `inner.kind`, byte offset {kind_at}: 5 is no variant of enum `Kind` (int64: Min = -9223372036854775808, MinusOne = -1, Next = 0)"
            ),
        );

        // An item of an array of enums, in record 2 (the first bad one is named).
        let mut bytes = Event::encode_slice(&records, endian);
        bytes[2 * Event::SIZE + HISTORY_AT + 1] = 2;
        bytes[20 * Event::SIZE + STATUS_AT] = 200;
        let mut out = vec![event(99)];
        let error = Event::decode_slice_into(&bytes, endian, &mut out).unwrap_err();
        assert_invalid(
            &error,
            2,
            &FieldPath::root().field("history").index(1),
            2 * Event::SIZE + HISTORY_AT + 1,
            &enum_fault::<Status>(2),
            &format!(
                "element 2 at field `history[1]`, byte offset {}: 2 is no variant of enum `Status` (uint8: Ok = 0, Warn = 1, Fail = 7, Lost = 8)",
                2 * Event::SIZE + HISTORY_AT + 1
            ),
        );
        assert_eq!(out, [event(99)], "the records before the call are kept");
    }
}

#[test]
fn a_code_unit_that_is_no_char_is_a_decode_error_naming_the_field() {
    let records = events(6);
    for (unit, endian) in [(0xd800u32, Endian::Little), (0x0011_0000, Endian::Big)] {
        let mut bytes = Event::encode_slice(&records, endian);
        let at = 4 * Event::SIZE + GRADE_AT;
        bytes[at..at + 4].copy_from_slice(&match endian {
            Endian::Little => unit.to_le_bytes(),
            Endian::Big => unit.to_be_bytes(),
        });
        assert_invalid(
            &Event::decode_slice(&bytes, endian).unwrap_err(),
            4,
            &FieldPath::root().field("grade"),
            at,
            &ElementFault::InvalidUtf32(unit),
            &format!(
                "element 4 at field `grade`, byte offset {at}: invalid UTF-32 code unit 0x{unit:08x} (not a Unicode scalar value)"
            ),
        );
        // One field of every record, read in place, names the record and the field too.
        let layout = Event::layout(endian);
        let error = layout.decode_field::<char>(&bytes, &["grade"]).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "element 4 at field `grade`, byte offset {at}: invalid UTF-32 code unit 0x{unit:08x} (not a Unicode scalar value)"
            )
        );
    }
    // A surrogate in an array of chars.
    let mut bytes = Event::encode_slice(&records, Endian::Little);
    let at = Event::SIZE + GRADE_AT + 4 + 4;
    bytes[at..at + 4].copy_from_slice(&0xdfffu32.to_le_bytes());
    let error = Event::decode_slice(&bytes, Endian::Little).unwrap_err();
    assert_eq!(
        error.path(),
        Some(&FieldPath::root().field("initials").index(1))
    );
}

#[test]
fn single_copy_records_with_enums_validate_in_the_one_copy_path() {
    let samples = vec![
        Sample {
            value: 2.5,
            letter: 'q',
            flags: [Flag::Off, Flag::On, Flag::Unknown, Flag::Off],
        };
        100
    ];
    let mut bytes = Sample::encode_slice(&samples, Endian::NATIVE);
    assert_eq!(
        bytes,
        samples.as_bytes(),
        "one copy: the memory is the record"
    );
    assert_eq!(
        Sample::decode_slice(&bytes, Endian::NATIVE).unwrap(),
        samples
    );
    bytes[61 * Sample::SIZE + 8 + 3] = 2;
    assert_invalid(
        &Sample::decode_slice(&bytes, Endian::NATIVE).unwrap_err(),
        61,
        &FieldPath::root().field("flags").index(3),
        61 * Sample::SIZE + 11,
        &enum_fault::<Flag>(2),
        &format!(
            "element 61 at field `flags[3]`, byte offset {}: 2 is no variant of enum `Flag` (uint8: Off = 0, On = 1, Unknown = 9)",
            61 * Sample::SIZE + 11
        ),
    );
}

// =============================================================================================
// Values and fill values
// =============================================================================================

#[test]
fn values_are_integers_and_a_non_variant_is_refused() {
    assert_eq!(Status::Fail.to_value(), Value::UInt8(7));
    assert_eq!(Kind::Min.to_value(), Value::Int64(i64::MIN));
    assert_eq!(Big::Largest.to_value(), Value::UInt64(u64::MAX));
    assert_eq!(Status::from_value(&Value::UInt8(8)).unwrap(), Status::Lost);
    let error = Status::from_value(&Value::UInt8(3)).unwrap_err();
    assert_eq!(
        error.to_string(),
        "value does not fit uint8: 3 is no variant of enum `Status` (uint8: Ok = 0, Warn = 1, Fail = 7, Lost = 8)"
    );
    // A value of another integer type is no value of the enum either.
    assert!(Status::from_value(&Value::UInt16(1)).is_err());
    // Inside a record, the error names the field.
    let data_type = Event::data_type();
    let mut json = data_type
        .fill_value_to_v3_json(&event(0).to_value())
        .unwrap();
    json["inner"]["kind"] = json!(42);
    let value = data_type.fill_value_from_v3_json(&json, None).unwrap();
    let error = Event::from_value(&value).unwrap_err();
    assert_eq!(
        error.path(),
        Some(&FieldPath::root().field("inner").field("kind"))
    );
    assert!(
        error
            .to_string()
            .contains("42 is no variant of enum `Kind`"),
        "{error}"
    );

    assert_eq!('\0'.to_value(), Value::String(String::new()));
    assert_eq!(char::from_value(&Value::String("ü".into())).unwrap(), 'ü');
    assert_eq!(
        char::from_value(&Value::String("üx".into()))
            .unwrap_err()
            .to_string(),
        "value does not fit fixed_length_utf32: 2 characters do not fit in 1"
    );
}

#[test]
fn fill_values_are_variants_in_v3_and_v2_json() {
    let fill = event(2);
    let data_type = Event::data_type();
    let json = data_type.fill_value_to_v3_json(&fill.to_value()).unwrap();
    assert_eq!(json["status"], json!(7));
    assert_eq!(json["history"], json!({"0": 8, "1": 0, "2": 1}));
    assert_eq!(json["inner"]["kind"], json!(0));
    assert_eq!(json["big"], json!(u64::MAX));
    assert_eq!(json["grade"], json!("𝄞"));
    let back = Event::from_value(&data_type.fill_value_from_v3_json(&json, None).unwrap()).unwrap();
    assert_eq!(back, fill);
    // A fill value that is no variant is refused when it is made a Rust value.
    let mut bad = json.clone();
    bad["status"] = json!(2);
    let value = data_type.fill_value_from_v3_json(&bad, None).unwrap();
    assert!(Event::from_value(&value).is_err());

    let layout = Event::layout(Endian::Big);
    let v2 = layout
        .fill_value_to_v2_json(Some(&fill.to_value()))
        .unwrap();
    let back = layout.fill_value_from_v2_json(&v2).unwrap().unwrap();
    assert_eq!(Event::from_value(&back).unwrap(), fill);
}

// =============================================================================================
// Arrays: both formats, both byte orders, the attribute naming the variants
// =============================================================================================

fn event_enums_attribute() -> serde_json::Value {
    let status = json!({"Ok": 0, "Warn": 1, "Fail": 7, "Lost": 8});
    json!({
        "status": status,
        "history": status,
        "sign": {"Negative": -1, "Zero": 0, "Positive": 1},
        "port": {"Http": 80, "Https": 443, "Top": 65535},
        "level": {"Low": -300, "High": 300},
        "magic": {"Zarr": 0x5a41_5252, "Zero": 0},
        "offset": {"Min": i32::MIN, "Max": i32::MAX},
        "big": {"Small": 1, "Shifted": 1u64 << 40, "Largest": u64::MAX},
        "inner.kind": {"Min": i64::MIN, "MinusOne": -1, "Next": 0}
    })
}

/// Raw identifiers (`r#in`) are the names without `r#` wherever they are shown: variants in
/// the attribute and in messages, the enum's and the struct's type names.
#[test]
fn raw_identifiers_are_named_without_their_prefix() {
    #[allow(non_camel_case_types)]
    #[derive(ZarrEnum, Clone, Copy, Debug, PartialEq)]
    #[repr(u8)]
    enum r#enum {
        r#in,
        r#out,
        Both,
    }
    #[allow(non_camel_case_types)]
    #[derive(ZarrStruct, Clone, Copy, Debug, PartialEq)]
    struct r#struct {
        r#type: r#enum,
    }
    assert_eq!(
        r#struct::TYPE.enums_attribute().unwrap(),
        json!({"type": {"in": 0, "out": 1, "Both": 2}})
    );
    let error = r#struct::decode_slice(&[9], Endian::Little).unwrap_err();
    assert_eq!(
        error.to_string(),
        "element 0 at field `type`, byte offset 0: 9 is no variant of enum `enum` (uint8: in = \
         0, out = 1, Both = 2)"
    );
    let error = r#struct::from_value(&Value::Bool(true)).unwrap_err();
    assert!(
        error.to_string().contains("does not fit struct:"),
        "{error}"
    );
    let value = r#struct {
        r#type: r#enum::r#out,
    }
    .to_value();
    assert_eq!(
        value.as_record().unwrap().fields()[0].0.as_ref() as &str,
        "type"
    );
    assert_eq!(
        r#struct::from_value(&value).unwrap(),
        r#struct {
            r#type: r#enum::r#out
        }
    );
}

#[test]
fn the_attribute_names_every_enum_field_by_path() {
    assert_eq!(
        Event::TYPE.enums_attribute().unwrap(),
        event_enums_attribute()
    );
    assert_eq!(
        <[Status; 2]>::TYPE.enums_attribute().unwrap(),
        json!({"": {"Ok": 0, "Warn": 1, "Fail": 7, "Lost": 8}})
    );
    assert!(<[char; 2]>::TYPE.enums_attribute().is_none());
    assert!(Inner::TYPE.enums_attribute().is_some());
    assert_eq!(ENUMS_ATTRIBUTE, "zarrdt:enums");
}

#[test]
fn arrays_with_enum_and_char_fields_round_trip_in_v3_and_v2() {
    let records = events(23);
    for endian in ENDIANS {
        // Zarr v3, created for the Rust type: the attribute is written with it.
        let store = Arc::new(MemoryStore::new());
        let array = ArrayOptions::new(vec![30], vec![8])
            .endian(endian)
            .compression(Compression::Gzip { level: 1 })
            .create(store.clone(), "/", &event(1))
            .unwrap();
        array
            .store_array_subset(&ArraySubset::new_with_ranges(&[0..23]), &records)
            .unwrap();
        let opened = open_array(store.clone(), "/").unwrap();
        assert_eq!(
            opened.attributes().get(ENUMS_ATTRIBUTE),
            Some(&event_enums_attribute())
        );
        let back: Vec<Event> = opened.retrieve_array_subset(&[0..30]).unwrap();
        assert_eq!(back[..23], records);
        assert!(
            back[23..].iter().all(|fill| *fill == event(1)),
            "the fill value"
        );

        // Zarr v2 in the same byte order, the attribute asked for.
        let store = Arc::new(MemoryStore::new());
        let array = ArrayOptions::new(vec![30], vec![8])
            .endian(endian)
            .compression(Compression::None)
            .enums_of::<Event>()
            .create_v2(
                store.clone(),
                "/",
                &Event::layout(endian),
                Some(&event(3).to_value()),
            )
            .unwrap();
        array
            .store_array_subset(&ArraySubset::new_with_ranges(&[0..23]), &records)
            .unwrap();
        let opened = open_array(store, "/").unwrap();
        assert_eq!(
            opened.attributes().get(ENUMS_ATTRIBUTE),
            Some(&event_enums_attribute())
        );
        let back: Vec<Event> = opened.retrieve_array_subset(&[0..30]).unwrap();
        assert_eq!(back[..23], records);
        assert!(back[23..].iter().all(|fill| *fill == event(3)));
    }
}

#[test]
fn an_array_of_enums_is_an_array_of_integers_with_named_variants() {
    let store = Arc::new(MemoryStore::new());
    let user = serde_json::Map::from_iter([("note".to_owned(), json!("kept"))]);
    let array = ArrayOptions::new(vec![6], vec![4])
        .attributes(user)
        .create(store.clone(), "/", &Port::Https)
        .unwrap();
    array
        .store_array_subset(
            &ArraySubset::new_with_ranges(&[0..3]),
            &[Port::Top, Port::Http, Port::Top],
        )
        .unwrap();
    let opened = open_array(store.clone(), "/").unwrap();
    let stored = RecordType::of(opened.data_type()).unwrap();
    assert_eq!(stored.data_type(), Some(&u16::data_type()));
    assert_eq!(opened.attributes()["note"], json!("kept"));
    assert_eq!(
        opened.attributes()[ENUMS_ATTRIBUTE],
        json!({"": {"Http": 80, "Https": 443, "Top": 65535}})
    );
    let back: Vec<Port> = opened.retrieve_array_subset(&[0..6]).unwrap();
    assert_eq!(
        back,
        [
            Port::Top,
            Port::Http,
            Port::Top,
            Port::Https,
            Port::Https,
            Port::Https
        ]
    );
    // As plain integers, for readers without the Rust type.
    let numbers: Vec<u16> = opened.retrieve_array_subset(&[0..6]).unwrap();
    assert_eq!(numbers, [65535, 80, 65535, 443, 443, 443]);
    // A stored integer that is no variant is an error, not a wrong value.
    opened
        .store_array_subset(&ArraySubset::new_with_ranges(&[4..5]), &[81u16])
        .unwrap();
    let error = opened
        .retrieve_array_subset::<Vec<Port>>(&[0..6])
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("element 4, byte offset 8: 81 is no variant of enum `Port`"),
        "{error}"
    );
}
