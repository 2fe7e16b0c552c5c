#![allow(clippy::unwrap_used)]
//! Struct (record) data types end to end: the model, v3 and v2 metadata, struct fill values and
//! the record codec.
//!
//! Every table row cites the rule it checks:
//! * "001" — seed 001, the struct data types draft ("list of (<name>, <type>) tuples", "sum over
//!   the size of the dtypes");
//! * "003" — seed 003, zarr-python's data type guide (structured dtypes as nested lists of
//!   pairs, per-field byte order in v2, no byte order in v3);
//! * "ref §N" — /work/shared/reference/zarr_struct_spec.md, section N;
//! * "issue" — the task statement this suite was written for (field paths, error contents).
//!
//! Every rejection is checked for its error variant, its field path and that its message shows
//! the offending JSON (or, for byte-level errors, the record, path, offset and bad value).

use crate::common;
use proptest::prelude::*;
use serde_json::{Value as Json, json};
use zarrdt::advanced::ElementFault;
use zarrdt::half::f16;
use zarrdt::layout::Layout;
use zarrdt::metadata::BytesCodec;
use zarrdt::num_complex::Complex;
use zarrdt::types::{DataType, ScalarType, StructType, TimeConfig, TimeUnit};
use zarrdt::value::{SubarrayValue, Value};
use zarrdt::{Endian, Error, ZarrStruct};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// A core type by its v3 name.
fn core(name: &str) -> DataType {
    DataType::from_v3_json(&json!(name)).unwrap()
}

fn scalar(name: &str) -> ScalarType {
    core(name).as_scalar().unwrap()
}

/// A struct data type of the given fields (built through the Rust API, not JSON).
fn structure(fields: Vec<(&str, DataType)>) -> DataType {
    StructType::new(fields).unwrap().into()
}

fn time(unit: TimeUnit, scale: u32) -> TimeConfig {
    TimeConfig::new(unit, scale).unwrap()
}

fn dt64(unit: TimeUnit, scale: u32) -> ScalarType {
    ScalarType::DateTime64(time(unit, scale))
}

fn td64(unit: TimeUnit, scale: u32) -> ScalarType {
    ScalarType::TimeDelta64(time(unit, scale))
}

fn utf32(chars: usize) -> ScalarType {
    ScalarType::fixed_length_utf32(chars).unwrap()
}

fn raw_bytes(size: usize) -> ScalarType {
    ScalarType::raw_bytes(size).unwrap()
}

fn ntb(size: usize) -> ScalarType {
    ScalarType::null_terminated_bytes(size).unwrap()
}

fn raw(bits: usize) -> ScalarType {
    ScalarType::raw_bits(bits).unwrap()
}

fn dt(scalar: ScalarType) -> DataType {
    scalar.into()
}

/// A record value of the given fields, in order.
fn rec(fields: Vec<(&str, Value)>) -> Value {
    Value::Record(fields.into_iter().collect())
}

/// A one-dimensional array value.
fn arr(items: Vec<Value>) -> Value {
    Value::Subarray(SubarrayValue::from(items))
}

/// Bytes from hex, ignoring spaces and `|` separators.
fn hex(text: &str) -> Vec<u8> {
    hex::decode(text.replace([' ', '|'], "")).unwrap()
}

/// Standard base64 with padding (written here so the expected strings do not come from the
/// library under test).
fn b64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
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

fn v2(descr: Json) -> Layout {
    Layout::from_v2_json(&descr).unwrap_or_else(|e| panic!("{descr} rejected: {e}"))
}

/// The variant of an error, by name.
fn kind(error: &Error) -> &'static str {
    match error {
        Error::InvalidDataType { .. } => "InvalidDataType",
        Error::InvalidStruct { .. } => "InvalidStruct",
        Error::InvalidDtype { .. } => "InvalidDtype",
        Error::InvalidFillValue { .. } => "InvalidFillValue",
        Error::Unrepresentable { .. } => "Unrepresentable",
        Error::InvalidCodec { .. } => "InvalidCodec",
        Error::MissingEndian { .. } => "MissingEndian",
        Error::ChunkLength { .. } => "ChunkLength",
        Error::BufferLength { .. } => "BufferLength",
        Error::InvalidElement { .. } => "InvalidElement",
        Error::ValueMismatch { .. } => "ValueMismatch",
        Error::TypeMismatch { .. } => "TypeMismatch",
        Error::NoV3Equivalent { .. } => "NoV3Equivalent",
        Error::InvalidMetadata { .. } => "InvalidMetadata",
        Error::Json(_) => "Json",
        _ => "unknown",
    }
}

/// The field path an error carries, as displayed (`<root>` for the whole element).
fn path_of(error: &Error) -> Option<String> {
    error.path().map(ToString::to_string)
}

/// Checks variant, path and that the message contains each of `shows` (the offending JSON and
/// the path as the message spells it).
#[track_caller]
fn check_error(rule: &str, error: &Error, expected_kind: &str, path: &str, shows: &[String]) {
    assert_eq!(kind(error), expected_kind, "[{rule}] variant of {error:?}");
    assert_eq!(
        path_of(error).as_deref(),
        Some(path),
        "[{rule}] path of {error:?}"
    );
    let message = error.to_string();
    if path != "<root>" {
        assert!(
            message.contains(&format!("`{path}`")),
            "[{rule}] message {message:?} does not name the path {path}"
        );
    }
    for shown in shows {
        assert!(
            message.contains(shown.as_str()),
            "[{rule}] message {message:?} does not show {shown}"
        );
    }
}

/// A leaf as the tables write it: `(path, offset, scalar, byte order, repeats)`, where the
/// repeats are the `(count, stride)` of each enclosing subarray, outermost first.
type LeafInfo = (
    String,
    usize,
    ScalarType,
    Option<Endian>,
    Vec<(usize, usize)>,
);

/// Every leaf of a layout: one per scalar, a subarray's leaves once with their repeats.
fn layout_leaves(layout: &Layout) -> Vec<LeafInfo> {
    layout
        .leaves()
        .into_iter()
        .map(|leaf| {
            (
                leaf.path().to_string(),
                leaf.offset(),
                leaf.layout().scalar(),
                leaf.layout().endian(),
                leaf.repeats()
                    .iter()
                    .map(|r| (r.count(), r.stride()))
                    .collect(),
            )
        })
        .collect()
}

/// `(name, offset)` of the top-level fields of a struct layout.
fn layout_fields(layout: &Layout) -> Vec<(String, usize)> {
    match layout {
        Layout::Struct(record) => record
            .fields()
            .iter()
            .map(|f| (f.name().to_owned(), f.offset()))
            .collect(),
        other => panic!("not a struct layout: {other:?}"),
    }
}

fn owned(items: &[(&str, usize)]) -> Vec<(String, usize)> {
    items.iter().map(|(n, o)| ((*n).to_owned(), *o)).collect()
}

// ---------------------------------------------------------------------------------------------
// Model
// ---------------------------------------------------------------------------------------------

/// One field type a struct may hold: its size and its exact registered v3 JSON.
struct FieldTypeRow {
    rule: &'static str,
    name: &'static str,
    data_type: DataType,
    size: usize,
    v3: Json,
}

#[rustfmt::skip]
fn field_type_rows() -> Vec<FieldTypeRow> {
    let row = |rule, name, data_type, size, v3| FieldTypeRow { rule, name, data_type, size, v3 };
    let point = structure(vec![("x", core("float32")), ("y", core("float32"))]);
    vec![
        row("001/ref §6: core bool as a field, 1 byte, bare string", "f_bool", core("bool"), 1, json!("bool")),
        row("001/ref §6: core int8", "f_i8", core("int8"), 1, json!("int8")),
        row("001/ref §6: core int16", "f_i16", core("int16"), 2, json!("int16")),
        row("001/ref §6: core int32", "f_i32", core("int32"), 4, json!("int32")),
        row("001/ref §6: core int64", "f_i64", core("int64"), 8, json!("int64")),
        row("001/ref §6: core uint8", "f_u8", core("uint8"), 1, json!("uint8")),
        row("001/ref §6: core uint16", "f_u16", core("uint16"), 2, json!("uint16")),
        row("001/ref §6: core uint32", "f_u32", core("uint32"), 4, json!("uint32")),
        row("001/ref §6: core uint64", "f_u64", core("uint64"), 8, json!("uint64")),
        row("001/ref §6: core float16", "f_f16", core("float16"), 2, json!("float16")),
        row("001/ref §6: core float32", "f_f32", core("float32"), 4, json!("float32")),
        row("001/ref §6: core float64", "f_f64", core("float64"), 8, json!("float64")),
        row("001/ref §6: core complex64", "f_c64", core("complex64"), 8, json!("complex64")),
        row("001/ref §6: core complex128", "f_c128", core("complex128"), 16, json!("complex128")),
        row("ref §5: raw r8 is 1 byte, bare string", "f_r8", dt(raw(8)), 1, json!("r8")),
        row("ref §5: raw r24 is 3 bytes, bare string", "f_r24", dt(raw(24)), 3, json!("r24")),
        row("ref §6: numpy.datetime64 {unit, scale_factor}, int64 storage", "f_dt", dt(dt64(TimeUnit::Second, 10)), 8,
            json!({"name": "numpy.datetime64", "configuration": {"unit": "s", "scale_factor": 10}})),
        row("ref §6: numpy.timedelta64 {unit, scale_factor}", "f_td", dt(td64(TimeUnit::Millisecond, 1)), 8,
            json!({"name": "numpy.timedelta64", "configuration": {"unit": "ms", "scale_factor": 1}})),
        row("ref §6: fixed_length_utf32 {length_bytes: 16} = 4 code units", "f_u32s", dt(utf32(4)), 16,
            json!({"name": "fixed_length_utf32", "configuration": {"length_bytes": 16}})),
        row("ref §5: raw_bytes {length_bytes}, zarr-python's V<n>", "f_raw", dt(raw_bytes(3)), 3,
            json!({"name": "raw_bytes", "configuration": {"length_bytes": 3}})),
        row("ref §5: null_terminated_bytes {length_bytes}, zarr-python's S<n>", "f_ntb", dt(ntb(5)), 5,
            json!({"name": "null_terminated_bytes", "configuration": {"length_bytes": 5}})),
        row("ref §3.1: nested struct field, object form", "f_point", point, 8,
            json!({"name": "struct", "configuration": {"fields": [
                {"name": "x", "data_type": "float32"}, {"name": "y", "data_type": "float32"}]}})),
    ]
}

#[test]
fn model_every_field_type_packed_at_prefix_sums() {
    let rows = field_type_rows();
    let all = StructType::new(rows.iter().map(|r| (r.name, r.data_type.clone()))).unwrap();
    let mut offset = 0;
    for (row, field) in rows.iter().zip(all.fields()) {
        let rule = row.rule;
        assert_eq!(field.name(), row.name, "[{rule}] field order is kept");
        assert_eq!(field.data_type(), row.data_type, "[{rule}] field type");
        assert_eq!(field.size(), row.size, "[{rule}] size");
        assert_eq!(row.data_type.size(), row.size, "[{rule}] DataType::size");
        assert_eq!(
            field.offset(),
            offset,
            "[{rule}; 001: packed, offset = sum of earlier sizes]"
        );
        assert_eq!(
            all.field(row.name).unwrap().offset(),
            offset,
            "[{rule}] lookup"
        );
        offset += row.size;
    }
    assert_eq!(all.fields().len(), rows.len());
    assert_eq!(offset, 121, "hand sum of the row sizes");
    assert_eq!(all.size(), 121, "[001: sum over the size of the dtypes]");
    assert_eq!(DataType::from(all).size(), 121);
}

#[test]
fn model_struct_readme_example_id_flags_value() {
    // ref §3.1: "id:int32, flags:uint8, value:float64 takes 13 bytes, at offsets 0, 4 and 5".
    let st = StructType::new([
        ("id", core("int32")),
        ("flags", core("uint8")),
        ("value", core("float64")),
    ])
    .unwrap();
    let offsets: Vec<usize> = st.fields().iter().map(|f| f.offset()).collect();
    assert_eq!(offsets, [0, 4, 5]);
    assert_eq!(st.size(), 13);
}

#[test]
fn model_nests_to_any_depth() {
    // issue: "nesting to any depth (build 4+ levels)".
    let l5 = structure(vec![("x", core("int16")), ("y", dt(utf32(1)))]);
    let l4 = structure(vec![("pre", core("uint8")), ("l5", l5)]);
    let l3 = structure(vec![("l4", l4), ("post", core("float64"))]);
    let l2 = structure(vec![("a", core("bool")), ("l3", l3)]);
    let top = StructType::new([("id", core("int32")), ("l2", l2), ("tail", core("int8"))]).unwrap();
    assert_eq!(top.size(), 4 + (1 + (1 + 2 + 4) + 8) + 1);
    #[rustfmt::skip]
    let expected: Vec<(&str, usize, ScalarType)> = vec![
        ("id", 0, scalar("int32")),
        ("l2.a", 4, scalar("bool")),
        ("l2.l3.l4.pre", 5, scalar("uint8")),
        ("l2.l3.l4.l5.x", 6, scalar("int16")),
        ("l2.l3.l4.l5.y", 8, utf32(1)),
        ("l2.l3.post", 12, scalar("float64")),
        ("tail", 20, scalar("int8")),
    ];
    let leaves: Vec<(String, usize, ScalarType)> = top
        .leaves()
        .iter()
        .map(|l| (l.path().to_string(), l.offset(), l.scalar()))
        .collect();
    let expected: Vec<(String, usize, ScalarType)> = expected
        .into_iter()
        .map(|(p, o, s)| (p.to_owned(), o, s))
        .collect();
    assert_eq!(
        leaves, expected,
        "[issue: flat leaves with absolute offsets]"
    );
    // The v3 JSON round-trips at every depth.
    let data_type = DataType::from(top);
    assert_eq!(
        DataType::from_v3_json(&data_type.to_v3_json()).unwrap(),
        data_type
    );
    assert_eq!(
        data_type.to_v3_json()["configuration"]["fields"][1]["data_type"]["configuration"]["fields"]
            [1]["data_type"]["configuration"]["fields"][0]["data_type"]["configuration"]["fields"]
            [1]["data_type"]["configuration"]["fields"][0],
        json!({"name": "x", "data_type": "int16"}),
        "[ref §3.1: nesting is allowed] the fifth level is written as a struct too"
    );
}

#[test]
fn model_struct_type_rejections() {
    struct Row {
        rule: &'static str,
        fields: Vec<(&'static str, DataType)>,
        path: &'static str,
        shows: Vec<String>,
    }
    #[rustfmt::skip]
    let rows = vec![
        Row { rule: "ref §3.1: at least one field", fields: vec![], path: "<root>",
              shows: vec!["at least one field".into()] },
        Row { rule: "ref §3.1: names are non-empty strings", fields: vec![("a", core("int8")), ("", core("int8"))],
              path: "[1]", shows: vec!["must not be empty".into()] },
        Row { rule: "ref §3.1: names unique, implementations MUST reject duplicates",
              fields: vec![("a", core("int8")), ("b", core("int8")), ("a", core("int16"))],
              path: "a", shows: vec![json!("a").to_string(), "more than once".into()] },
    ];
    for Row {
        rule,
        fields,
        path,
        shows,
    } in rows
    {
        let error = StructType::new(fields).unwrap_err();
        check_error(rule, &error, "InvalidStruct", path, &shows);
    }
}

/// `StructType::leaves` and `Layout::leaves` of the packed layout agree.
#[test]
fn model_packed_leaves_agree_with_layout_leaves() {
    // 003: `[('field_a', '>i2'), ('field_b', [('subfield_c', '>f4'), ('subfield_d', 'i2')])]`.
    let seed = structure(vec![
        ("field_a", core("int16")),
        (
            "field_b",
            structure(vec![
                ("subfield_c", core("float32")),
                ("subfield_d", core("int16")),
            ]),
        ),
    ]);
    let mixed = structure(vec![
        ("flag", core("bool")),
        ("c", core("complex64")),
        (
            "inner",
            structure(vec![
                ("t", dt(dt64(TimeUnit::Nanosecond, 1))),
                ("s", dt(utf32(2))),
            ]),
        ),
        ("r", dt(raw(24))),
        ("u", core("uint64")),
    ]);
    struct Row {
        rule: &'static str,
        data_type: DataType,
        leaves: Vec<(&'static str, usize)>,
    }
    #[rustfmt::skip]
    let rows = vec![
        Row { rule: "003: field paths like field_b.subfield_c", data_type: seed,
              leaves: vec![("field_a", 0), ("field_b.subfield_c", 2), ("field_b.subfield_d", 6)] },
        Row { rule: "ref §8.1: packed, offset = sum of earlier sizes, depth-first", data_type: mixed,
              leaves: vec![("flag", 0), ("c", 1), ("inner.t", 9), ("inner.s", 17), ("r", 25), ("u", 28)] },
    ];
    for Row {
        rule,
        data_type,
        leaves,
    } in rows
    {
        let st = data_type.as_struct().unwrap();
        let model: Vec<(String, usize)> = st
            .leaves()
            .iter()
            .map(|l| (l.path().to_string(), l.offset()))
            .collect();
        assert_eq!(model, owned(&leaves), "[{rule}] StructType::leaves");
        for endian in [Endian::Little, Endian::Big] {
            let layout = Layout::from_data_type(&data_type, Some(endian)).unwrap();
            assert_eq!(layout.size(), st.size(), "[{rule}] size");
            assert!(!layout.has_padding(), "[{rule}] packed");
            let stored: Vec<(String, usize)> = layout
                .leaves()
                .iter()
                .map(|l| (l.path().to_string(), l.offset()))
                .collect();
            assert_eq!(
                stored, model,
                "[{rule}] Layout::leaves == StructType::leaves"
            );
            for (leaf, model_leaf) in layout.leaves().iter().zip(st.leaves()) {
                assert_eq!(leaf.layout().scalar(), model_leaf.scalar(), "[{rule}]");
                let expected = model_leaf.scalar().has_endianness().then_some(endian);
                assert_eq!(
                    leaf.layout().endian(),
                    expected,
                    "[{rule}; ref §3.1: one endian for every multi-byte leaf] {}",
                    leaf.path()
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Model: the dynamic value tree round-trips bytes exactly
// ---------------------------------------------------------------------------------------------

/// A struct whose leaves have no invalid encodings.
fn numeric_struct() -> DataType {
    structure(vec![
        ("i8", core("int8")),
        ("u16", core("uint16")),
        ("i32", core("int32")),
        ("u64", core("uint64")),
        ("h", core("float16")),
        ("f", core("float32")),
        ("d", core("float64")),
        ("c", core("complex64")),
        ("z", core("complex128")),
        ("r", dt(raw(24))),
        ("t", dt(dt64(TimeUnit::Second, 10))),
        ("dt", dt(td64(TimeUnit::Microsecond, 1))),
        ("rb", dt(raw_bytes(3))),
        ("nb", dt(ntb(4))),
        (
            "nested",
            structure(vec![
                ("x", core("float32")),
                ("n", core("int64")),
                (
                    "deeper",
                    structure(vec![("b", core("uint8")), ("y", core("float64"))]),
                ),
            ]),
        ),
    ])
}

/// The same leaves as a v2 descr with mixed byte order (packed).
fn numeric_mixed_descr() -> Json {
    json!([
        ["i8", "|i1"],
        ["u16", ">u2"],
        ["i32", "<i4"],
        ["u64", ">u8"],
        ["h", "<f2"],
        ["f", ">f4"],
        ["d", "<f8"],
        ["c", ">c8"],
        ["z", "<c16"],
        ["r", "|V3"],
        ["t", ">M8[10s]"],
        ["dt", "<m8[us]"],
        ["rb", "|V3"],
        ["nb", "|S4"],
        [
            "nested",
            [
                ["x", "<f4"],
                ["n", ">i8"],
                ["deeper", [["b", "|u1"], ["y", ">f8"]]]
            ]
        ]
    ])
}

/// A struct with bool and UTF-32 leaves: 22 bytes, leaves at flag 0, s 1..13, n.x 13, n.ok 17,
/// n.c 18.
fn checked_struct() -> DataType {
    structure(vec![
        ("flag", core("bool")),
        ("s", dt(utf32(3))),
        (
            "n",
            structure(vec![
                ("x", core("int32")),
                ("ok", core("bool")),
                ("c", dt(utf32(1))),
            ]),
        ),
    ])
}

fn put_unit(out: &mut Vec<u8>, unit: u32, endian: Endian) {
    match endian {
        Endian::Little => out.extend_from_slice(&unit.to_le_bytes()),
        Endian::Big => out.extend_from_slice(&unit.to_be_bytes()),
    }
}

fn endian_of(big: bool) -> Endian {
    if big { Endian::Big } else { Endian::Little }
}

/// The first invalid leaf of a chunk of `checked_struct` records, by hand:
/// `(record, path, chunk offset, fault)`.
fn first_invalid(bytes: &[u8], endian: Endian) -> Option<(usize, String, usize, ElementFault)> {
    let unit = |at: usize| {
        let b: [u8; 4] = bytes[at..at + 4].try_into().unwrap();
        match endian {
            Endian::Little => u32::from_le_bytes(b),
            Endian::Big => u32::from_be_bytes(b),
        }
    };
    let valid_unit = |u: u32| u < 0xd800 || (0xe000..=0x10_ffff).contains(&u);
    for record in 0..bytes.len() / 22 {
        let base = record * 22;
        let checks: [(&str, usize, bool); 6] = [
            ("flag", 0, true),
            ("s", 1, false),
            ("s", 5, false),
            ("s", 9, false),
            ("n.ok", 17, true),
            ("n.c", 18, false),
        ];
        for (path, offset, is_bool) in checks {
            let at = base + offset;
            if is_bool {
                if bytes[at] > 1 {
                    return Some((
                        record,
                        path.into(),
                        at,
                        ElementFault::InvalidBool(bytes[at]),
                    ));
                }
            } else if !valid_unit(unit(at)) {
                return Some((
                    record,
                    path.into(),
                    at,
                    ElementFault::InvalidUtf32(unit(at)),
                ));
            }
        }
    }
    None
}

fn numeric_chunk() -> impl Strategy<Value = (Vec<u8>, bool)> {
    let size = numeric_struct().size();
    (0usize..4, any::<bool>())
        .prop_flat_map(move |(n, big)| (prop::collection::vec(any::<u8>(), n * size), Just(big)))
}

/// One valid `checked_struct` record: bool bytes 0/1 and any `char`s as code units.
fn checked_record() -> impl Strategy<Value = (u8, [char; 3], i32, u8, char)> {
    (
        0u8..=1,
        any::<[char; 3]>(),
        any::<i32>(),
        0u8..=1,
        any::<char>(),
    )
}

fn biased_byte() -> impl Strategy<Value = u8> {
    prop_oneof![4 => Just(0u8), 1 => Just(1u8), 2 => any::<u8>()]
}

proptest! {
    #![proptest_config(crate::common::random::config_of(256))]

    /// issue: "decode then encode == input" for random bytes of a struct whose leaves have no
    /// invalid encodings; through the v3 codec (one endian) and a v2 mixed-order layout.
    #[test]
    fn numeric_records_round_trip_bit_exactly((bytes, big) in numeric_chunk()) {
        let data_type = numeric_struct();
        let endian = endian_of(big);
        let codec = BytesCodec::new(Some(endian));
        let values = codec.decode_values(&data_type, &bytes).unwrap();
        prop_assert_eq!(values.len(), bytes.len() / data_type.size());
        prop_assert_eq!(&codec.encode_values(&data_type, &values).unwrap(), &bytes);
        let layout = Layout::from_data_type(&data_type, Some(endian)).unwrap();
        prop_assert_eq!(&layout.decode_values(&bytes).unwrap(), &values);
        prop_assert_eq!(&layout.encode_values(&values).unwrap(), &bytes);
        for (index, value) in values.iter().enumerate() {
            let record = &bytes[index * layout.size()..(index + 1) * layout.size()];
            prop_assert_eq!(&layout.encode_value(value).unwrap(), record);
            // Struct fill values (ref §8.2 v3 object, ref §2 v2 base64) round-trip bit-exactly.
            let v3_fill = data_type.fill_value_to_v3_json(value).unwrap();
            prop_assert_eq!(&data_type.fill_value_from_v3_json(&v3_fill, None).unwrap(), value);
            let v2_fill = layout.fill_value_to_v2_json(Some(value)).unwrap();
            prop_assert_eq!(v2_fill.clone(), json!(b64(record)));
            let v2_read = layout.fill_value_from_v2_json(&v2_fill).unwrap();
            prop_assert_eq!(v2_read.as_ref(), Some(value));
        }
        // ref §1: v2 per-field byte order; any bytes decode and encode back unchanged.
        let mixed = v2(numeric_mixed_descr());
        prop_assert_eq!(mixed.size(), data_type.size());
        let decoded = mixed.decode_values(&bytes).unwrap();
        prop_assert_eq!(&mixed.encode_values(&decoded).unwrap(), &bytes);
    }

    /// issue: "for a struct with bool/utf32 leaves only valid bytes" round-trip.
    #[test]
    fn valid_bool_and_utf32_records_round_trip(
        records in prop::collection::vec(checked_record(), 0..4),
        big in any::<bool>(),
    ) {
        let endian = endian_of(big);
        let mut bytes = Vec::new();
        for (flag, s, x, ok, c) in &records {
            bytes.push(*flag);
            for ch in s {
                put_unit(&mut bytes, u32::from(*ch), endian);
            }
            match endian {
                Endian::Little => bytes.extend_from_slice(&x.to_le_bytes()),
                Endian::Big => bytes.extend_from_slice(&x.to_be_bytes()),
            }
            bytes.push(*ok);
            put_unit(&mut bytes, u32::from(*c), endian);
        }
        let data_type = checked_struct();
        let codec = BytesCodec::new(Some(endian));
        let values = codec.decode_values(&data_type, &bytes).unwrap();
        prop_assert_eq!(&codec.encode_values(&data_type, &values).unwrap(), &bytes);
        for (value, (flag, s, x, ok, c)) in values.iter().zip(&records) {
            let expected_s: String = s.iter().collect();
            let expected = rec(vec![
                ("flag", Value::Bool(*flag == 1)),
                ("s", Value::String(expected_s.trim_end_matches('\0').to_owned())),
                ("n", rec(vec![
                    ("x", Value::Int32(*x)),
                    ("ok", Value::Bool(*ok == 1)),
                    ("c", Value::String(c.to_string().trim_end_matches('\0').to_owned())),
                ])),
            ]);
            prop_assert_eq!(value, &expected);
        }
    }

    /// Arbitrary bytes of a bool/utf32 struct: decoding fails exactly at the first invalid leaf
    /// (record, path, chunk offset, fault computed by hand), and otherwise round-trips.
    #[test]
    fn arbitrary_bytes_fail_at_the_first_invalid_leaf(
        bytes in (0usize..4).prop_flat_map(|n| prop::collection::vec(biased_byte(), n * 22)),
        big in any::<bool>(),
    ) {
        let endian = endian_of(big);
        let data_type = checked_struct();
        let layout = Layout::from_data_type(&data_type, Some(endian)).unwrap();
        match (layout.decode_values(&bytes), first_invalid(&bytes, endian)) {
            (Ok(values), None) => {
                prop_assert_eq!(layout.encode_values(&values).unwrap(), bytes);
            }
            (Err(Error::InvalidElement { index, path, offset, fault }), Some(expected)) => {
                prop_assert_eq!((index, path.to_string(), offset, fault), expected);
            }
            (got, expected) => prop_assert!(false, "decoded {:?}, expected {:?}", got, expected),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// v3 metadata
// ---------------------------------------------------------------------------------------------

#[test]
fn v3_writes_the_registered_struct_form() {
    struct Row {
        rule: &'static str,
        data_type: DataType,
        json: Json,
    }
    let rows_all = field_type_rows();
    let all = structure(
        rows_all
            .iter()
            .map(|r| (r.name, r.data_type.clone()))
            .collect(),
    );
    let all_json = json!({"name": "struct", "configuration": {"fields":
        rows_all.iter().map(|r| json!({"name": r.name, "data_type": r.v3})).collect::<Vec<_>>()}});
    #[rustfmt::skip]
    let rows = vec![
        Row { rule: "ref §3.1 example: fields x, y float32",
              data_type: structure(vec![("x", core("float32")), ("y", core("float32"))]),
              json: json!({"name": "struct", "configuration": {"fields": [
                  {"name": "x", "data_type": "float32"}, {"name": "y", "data_type": "float32"}]}}) },
        Row { rule: "ref §3.3: 3.4.2 output, nested struct point + value",
              data_type: structure(vec![
                  ("point", structure(vec![("x", core("float32")), ("y", core("float32"))])),
                  ("value", core("float64"))]),
              json: json!({"name": "struct", "configuration": {"fields": [
                  {"name": "point", "data_type": {"name": "struct", "configuration": {"fields": [
                      {"name": "x", "data_type": "float32"}, {"name": "y", "data_type": "float32"}]}}},
                  {"name": "value", "data_type": "float64"}]}}) },
        Row { rule: "ref §3.3: 3.4.2 output, configured extension types as objects",
              data_type: structure(vec![
                  ("t", dt(dt64(TimeUnit::Second, 1))), ("s", dt(utf32(4))),
                  ("raw", dt(raw_bytes(3))), ("bs", dt(ntb(3)))]),
              json: json!({"name": "struct", "configuration": {"fields": [
                  {"name": "t", "data_type": {"name": "numpy.datetime64", "configuration": {"unit": "s", "scale_factor": 1}}},
                  {"name": "s", "data_type": {"name": "fixed_length_utf32", "configuration": {"length_bytes": 16}}},
                  {"name": "raw", "data_type": {"name": "raw_bytes", "configuration": {"length_bytes": 3}}},
                  {"name": "bs", "data_type": {"name": "null_terminated_bytes", "configuration": {"length_bytes": 3}}}]}}) },
        Row { rule: "ref §3.1: core types MUST be strings (r<N> included)",
              data_type: structure(vec![("r", dt(raw(16))), ("c", core("complex128"))]),
              json: json!({"name": "struct", "configuration": {"fields": [
                  {"name": "r", "data_type": "r16"}, {"name": "c", "data_type": "complex128"}]}}) },
        Row { rule: "ref §3.1/§6: every field type at once, in order", data_type: all, json: all_json },
    ];
    for Row {
        rule,
        data_type,
        json,
    } in rows
    {
        assert_eq!(data_type.to_v3_json(), json, "[{rule}] exact JSON");
        assert_eq!(
            serde_json::to_string(&data_type.to_v3_json()).unwrap(),
            serde_json::to_string(&json).unwrap(),
            "[{rule}] same text"
        );
        assert_eq!(
            DataType::from_v3_json(&json).unwrap(),
            data_type,
            "[{rule}] reads back"
        );
        // Field order in the written JSON is the declaration order (not sorted).
        let written: Vec<String> = data_type.to_v3_json()["configuration"]["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap().to_owned())
            .collect();
        let declared: Vec<String> = data_type
            .as_struct()
            .unwrap()
            .fields()
            .iter()
            .map(|f| f.name().to_owned())
            .collect();
        assert_eq!(
            written, declared,
            "[{rule}; ref §3.1: ordered array of fields]"
        );
    }
}

#[test]
fn v3_reads_struct_and_legacy_structured_forms_alike() {
    let expected = structure(vec![
        ("a", core("int32")),
        ("t", dt(dt64(TimeUnit::Second, 1))),
        (
            "inner",
            structure(vec![("x", core("float32")), ("s", dt(utf32(2)))]),
        ),
    ]);
    let dt_json =
        json!({"name": "numpy.datetime64", "configuration": {"unit": "s", "scale_factor": 1}});
    let s_json = json!({"name": "fixed_length_utf32", "configuration": {"length_bytes": 8}});
    let canonical = json!({"name": "struct", "configuration": {"fields": [
        {"name": "a", "data_type": "int32"},
        {"name": "t", "data_type": dt_json},
        {"name": "inner", "data_type": {"name": "struct", "configuration": {"fields": [
            {"name": "x", "data_type": "float32"}, {"name": "s", "data_type": s_json}]}}}]}});
    #[rustfmt::skip]
    let rows: Vec<(&str, Json)> = vec![
        ("ref §3.1: registered form, core types as strings", canonical.clone()),
        ("ref §3.1 (#63): core types as {\"name\"} objects without configuration",
         json!({"name": "struct", "configuration": {"fields": [
             {"name": "a", "data_type": {"name": "int32"}},
             {"name": "t", "data_type": dt_json},
             {"name": "inner", "data_type": {"name": "struct", "configuration": {"fields": [
                 {"name": "x", "data_type": {"name": "float32"}}, {"name": "s", "data_type": s_json}]}}}]}})),
        ("ref §3.2: legacy structured, [name, data_type] pairs, nested structured (3.1.x)",
         json!({"name": "structured", "configuration": {"fields": [
             ["a", "int32"], ["t", dt_json],
             ["inner", {"name": "structured", "configuration": {"fields": [["x", "float32"], ["s", s_json]]}}]]}})),
        ("ref §3.2: legacy pairs with object data types",
         json!({"name": "structured", "configuration": {"fields": [
             ["a", {"name": "int32"}], ["t", dt_json],
             ["inner", {"name": "structured", "configuration": {"fields": [["x", {"name": "float32"}], ["s", s_json]]}}]]}})),
        ("ref §3.3: struct nested in structured",
         json!({"name": "structured", "configuration": {"fields": [
             ["a", "int32"], ["t", dt_json],
             ["inner", {"name": "struct", "configuration": {"fields": [
                 {"name": "x", "data_type": "float32"}, {"name": "s", "data_type": s_json}]}}]]}})),
        ("ref §3.3: structured nested in struct",
         json!({"name": "struct", "configuration": {"fields": [
             {"name": "a", "data_type": "int32"}, {"name": "t", "data_type": dt_json},
             {"name": "inner", "data_type": {"name": "structured", "configuration": {"fields": [["x", "float32"], ["s", s_json]]}}}]}})),
        ("ref §3.3 (3.4.2 reads): structured name with object fields",
         json!({"name": "structured", "configuration": {"fields": [
             {"name": "a", "data_type": "int32"}, {"name": "t", "data_type": dt_json},
             {"name": "inner", "data_type": {"name": "structured", "configuration": {"fields": [
                 {"name": "x", "data_type": "float32"}, {"name": "s", "data_type": s_json}]}}}]}})),
        ("ref §3.3 (3.4.2 reads): struct name with tuple fields",
         json!({"name": "struct", "configuration": {"fields": [
             ["a", "int32"], ["t", dt_json],
             ["inner", {"name": "struct", "configuration": {"fields": [["x", "float32"], ["s", s_json]]}}]]}})),
    ];
    for (rule, input) in rows {
        let parsed = DataType::from_v3_json(&input).unwrap_or_else(|e| panic!("[{rule}] {e}"));
        assert_eq!(parsed, expected, "[{rule}] same DataType");
        assert_eq!(parsed.size(), 4 + 8 + 4 + 8, "[{rule}] size");
        assert_eq!(
            parsed.to_v3_json(),
            canonical,
            "[{rule}; ref §3.2: MUST NOT write structured] written in the registered form"
        );
    }
}

#[test]
fn v3_legacy_pairs_name_unnamed_fields_as_numpy_does() {
    // zarr-python 3.1 writes a NumPy dtype's unnamed fields as "" in legacy pairs, and reads
    // them back as NumPy names them: `f` and the field's index (checked with zarr-python
    // 3.1.6 and 3.4.2 reading an array 3.1.6 wrote).
    let legacy = |fields: Json| json!({"name": "structured", "configuration": {"fields": fields}});
    let parsed = DataType::from_v3_json(&legacy(json!([
        ["", "int32"],
        ["x", "uint8"],
        ["", legacy(json!([["", "float32"]]))]
    ])))
    .unwrap();
    let expected = structure(vec![
        ("f0", core("int32")),
        ("x", core("uint8")),
        ("f2", structure(vec![("f0", core("float32"))])),
    ]);
    assert_eq!(parsed, expected);
    // Written in the registered form, with the names it was read with.
    assert_eq!(
        parsed.to_v3_json()["configuration"]["fields"][0]["name"],
        "f0"
    );
}

#[test]
fn v3_rejections_name_the_field_path_and_json() {
    struct Row {
        rule: &'static str,
        input: Json,
        path: &'static str,
        shown: Json,
    }
    let f = |fields: Json| json!({"name": "struct", "configuration": {"fields": fields}});
    let legacy = |fields: Json| json!({"name": "structured", "configuration": {"fields": fields}});
    let inner_empty = json!({"name": "struct", "configuration": {"fields": []}});
    let inner_extra = json!({"name": "struct", "configuration": {"fields": [{"name": "x", "data_type": "int8"}], "extra": 1}});
    let dt_extra = json!({"name": "numpy.datetime64", "configuration": {"unit": "s", "scale_factor": 1, "calendar": "proleptic"}});
    let s_extra = json!({"name": "fixed_length_utf32", "configuration": {"length_bytes": 8, "encoding": "utf-32"}});
    let rb_extra = json!({"name": "raw_bytes", "configuration": {"length_bytes": 3, "x": 0}});
    #[rustfmt::skip]
    let rows = vec![
        Row { rule: "ref §3.1: duplicate names MUST be rejected",
              input: f(json!([{"name": "a", "data_type": "int8"}, {"name": "a", "data_type": "int16"}])),
              path: "a", shown: json!({"name": "a", "data_type": "int16"}) },
        Row { rule: "ref §3.1: duplicates in a nested struct, path outer.dup",
              input: f(json!([{"name": "outer", "data_type": f(json!([
                  {"name": "dup", "data_type": "int8"}, {"name": "x", "data_type": "int8"}, {"name": "dup", "data_type": "uint8"}]))}])),
              path: "outer.dup", shown: json!({"name": "dup", "data_type": "uint8"}) },
        Row { rule: "ref §3.2/§3.3: duplicates in legacy pairs (3.4.2: occurs more than once)",
              input: legacy(json!([["dup", "int8"], ["dup", "int8"]])),
              path: "dup", shown: json!(["dup", "int8"]) },
        Row { rule: "ref §3.1: duplicates in structured nested in struct",
              input: f(json!([{"name": "outer", "data_type": legacy(json!([["b", "int8"], ["dup", "int8"], ["dup", "int32"]]))}])),
              path: "outer.dup", shown: json!(["dup", "int32"]) },
        Row { rule: "ref §3.1: names are non-empty",
              input: f(json!([{"name": "a", "data_type": "int8"}, {"name": "", "data_type": "int8"}])),
              path: "[1]", shown: json!({"name": "", "data_type": "int8"}) },
        Row { rule: "ref §3.1: non-empty names, an object field nested in legacy structured",
              input: f(json!([{"name": "outer", "data_type": legacy(json!([{"name": "", "data_type": "int8"}]))}])),
              path: "outer[0]", shown: json!({"name": "", "data_type": "int8"}) },
        Row { rule: "NumPy: a legacy pair's f<index> taken by another",
              input: legacy(json!([["", "int8"], ["f0", "int8"]])),
              path: "f0", shown: json!(["f0", "int8"]) },
        Row { rule: "ref §3.1: at least one field (3.4.2 rejects empty fields)",
              input: f(json!([])), path: "<root>", shown: f(json!([])) },
        Row { rule: "ref §3.1: at least one field, nested",
              input: f(json!([{"name": "a", "data_type": "int8"}, {"name": "inner", "data_type": inner_empty}])),
              path: "inner", shown: inner_empty.clone() },
        Row { rule: "ref §3.1/§6: variable-length string MUST NOT be used",
              input: f(json!([{"name": "a", "data_type": "int8"}, {"name": "s", "data_type": "string"}])),
              path: "s", shown: json!("string") },
        Row { rule: "ref §6: variable-length bytes forbidden, nested",
              input: f(json!([{"name": "outer", "data_type": f(json!([{"name": "b", "data_type": "bytes"}]))}])),
              path: "outer.b", shown: json!("bytes") },
        Row { rule: "ref §6: variable-length string in object form, legacy",
              input: legacy(json!([["s", {"name": "string"}]])),
              path: "s", shown: json!({"name": "string"}) },
        Row { rule: "issue: unknown types are rejected",
              input: f(json!([{"name": "x", "data_type": "int128"}])),
              path: "x", shown: json!("int128") },
        Row { rule: "issue: unknown configured type, nested",
              input: f(json!([{"name": "o", "data_type": f(json!([{"name": "y", "data_type": {"name": "foo.bar", "configuration": {}}}]))}])),
              path: "o.y", shown: json!({"name": "foo.bar", "configuration": {}}) },
        Row { rule: "ref §3.3: the configuration must have exactly one key, fields",
              input: json!({"name": "struct", "configuration": {"fields": [{"name": "x", "data_type": "int8"}], "extra": 1}}),
              path: "<root>", shown: json!({"name": "struct", "configuration": {"fields": [{"name": "x", "data_type": "int8"}], "extra": 1}}) },
        Row { rule: "ref §3.3: extra struct configuration key, nested",
              input: f(json!([{"name": "inner", "data_type": inner_extra}])),
              path: "inner", shown: inner_extra.clone() },
        Row { rule: "ref §3.1 schema: a field object has name and data_type only",
              input: f(json!([{"name": "a", "data_type": "int8", "offset": 0}])),
              path: "a", shown: json!({"name": "a", "data_type": "int8", "offset": 0}) },
        Row { rule: "ref §6: datetime configuration has no other keys",
              input: f(json!([{"name": "t", "data_type": dt_extra}])),
              path: "t", shown: dt_extra.clone() },
        Row { rule: "ref §6: fixed_length_utf32 configuration has no other keys",
              input: f(json!([{"name": "a", "data_type": "int8"}, {"name": "s", "data_type": s_extra}])),
              path: "s", shown: s_extra.clone() },
        Row { rule: "ref §5: raw_bytes configuration has no other keys, legacy nested",
              input: legacy(json!([["o", legacy(json!([["r", rb_extra]]))]])),
              path: "o.r", shown: rb_extra.clone() },
        Row { rule: "ref §6: datetime configuration is required",
              input: f(json!([{"name": "t", "data_type": {"name": "numpy.datetime64"}}])),
              path: "t", shown: json!({"name": "numpy.datetime64"}) },
        Row { rule: "ref §6: unit and scale_factor both required",
              input: f(json!([{"name": "t", "data_type": {"name": "numpy.timedelta64", "configuration": {"unit": "s"}}}])),
              path: "t", shown: json!({"name": "numpy.timedelta64", "configuration": {"unit": "s"}}) },
        Row { rule: "ref §6: fixed_length_utf32 needs a configuration",
              input: legacy(json!([["s", {"name": "fixed_length_utf32"}]])),
              path: "s", shown: json!({"name": "fixed_length_utf32"}) },
        Row { rule: "ref §6: fixed_length_utf32 length_bytes is a multiple of 4",
              input: f(json!([{"name": "s", "data_type": {"name": "fixed_length_utf32", "configuration": {"length_bytes": 6}}}])),
              path: "s", shown: json!({"name": "fixed_length_utf32", "configuration": {"length_bytes": 6}}) },
        Row { rule: "ref §3.1: a nested struct needs its configuration",
              input: f(json!([{"name": "inner", "data_type": {"name": "struct"}}])),
              path: "inner", shown: json!({"name": "struct"}) },
        Row { rule: "ref §3.2: a legacy field is a [name, data_type] pair, not 3 items",
              input: legacy(json!([["a", "int32", [2]]])),
              path: "[0]", shown: json!(["a", "int32", [2]]) },
        Row { rule: "ref §3.2: a legacy field pair has 2 items, not 1",
              input: legacy(json!([["a", "int8"], ["b"]])),
              path: "[1]", shown: json!(["b"]) },
        Row { rule: "ref §3.2: the pair's name is a string",
              input: legacy(json!([[1, "int32"]])),
              path: "[0]", shown: json!([1, "int32"]) },
        Row { rule: "ref §3.1: the field object's name is a string",
              input: f(json!([{"name": 5, "data_type": "int8"}])),
              path: "[0]", shown: json!({"name": 5, "data_type": "int8"}) },
        Row { rule: "ref §3.1: a field object has a data_type",
              input: f(json!([{"name": "a"}])),
              path: "a", shown: json!({"name": "a"}) },
        Row { rule: "ref §3.1: a field is an object or a pair, not a string",
              input: f(json!(["a"])),
              path: "[0]", shown: json!("a") },
        Row { rule: "ref §3.1: fields is an array",
              input: json!({"name": "struct", "configuration": {"fields": {"a": "int8"}}}),
              path: "<root>", shown: json!({"name": "struct", "configuration": {"fields": {"a": "int8"}}}) },
        Row { rule: "issue: a data type object has only name and configuration",
              input: f(json!([{"name": "x", "data_type": {"name": "int32", "endian": "little"}}])),
              path: "x", shown: json!({"name": "int32", "endian": "little"}) },
        Row { rule: "seed 000 via ref §6: core types take no configuration",
              input: f(json!([{"name": "x", "data_type": {"name": "int32", "configuration": {"endian": "big"}}}])),
              path: "x", shown: json!({"name": "int32", "configuration": {"endian": "big"}}) },
    ];
    let huge = json!({"name": "raw_bytes", "configuration": {"length_bytes": 2147483647}});
    let overflow = f(json!([{"name": "a", "data_type": huge}, {"name": "b", "data_type": "int8"}]));
    #[rustfmt::skip]
    let more = vec![
        Row { rule: "issue: names that are not identifiers are quoted in the path",
              input: f(json!([{"name": "foo.mask", "data_type": "int8"}, {"name": "foo.mask", "data_type": "int8"}])),
              path: "[\"foo.mask\"]", shown: json!({"name": "foo.mask", "data_type": "int8"}) },
        Row { rule: "lib.rs MAX_ELEMENT_SIZE: packed size beyond 2^31-1 bytes names the field",
              input: overflow.clone(), path: "b", shown: overflow },
        Row { rule: "ref §3.1: configuration.fields is required",
              input: json!({"name": "struct", "configuration": {}}), path: "<root>",
              shown: json!({"name": "struct", "configuration": {}}) },
        Row { rule: "ref §3.1: a field's data_type is a string or an object, not null",
              input: f(json!([{"name": "a", "data_type": "int8"}, {"name": "n", "data_type": null}])),
              path: "n", shown: json!(null) },
    ];
    let rows: Vec<Row> = rows.into_iter().chain(more).collect();
    for Row {
        rule,
        input,
        path,
        shown,
    } in rows
    {
        let error = DataType::from_v3_json(&input).expect_err(rule);
        check_error(rule, &error, "InvalidDataType", path, &[shown.to_string()]);
    }
}

// ---------------------------------------------------------------------------------------------
// v2 metadata (NumPy descr)
// ---------------------------------------------------------------------------------------------

type LeafRow = (
    &'static str,
    usize,
    ScalarType,
    Option<Endian>,
    &'static [(usize, usize)],
);

/// The result of decoding a chunk (or one record, as a one-element chunk).
type Decoded = Result<Vec<Value>, Error>;

/// The result of reading a fill value (`None`: v2 `null`).
type FillRead = Result<Option<Value>, Error>;

#[test]
fn v2_reads_every_descr_form() {
    const L: Option<Endian> = Some(Endian::Little);
    const B: Option<Endian> = Some(Endian::Big);
    const N: Option<Endian> = None;
    struct Row {
        rule: &'static str,
        descr: Json,
        size: usize,
        fields: Vec<(&'static str, usize)>,
        leaves: Vec<LeafRow>,
    }
    let (u1, i2, i4, i8_, f4, f8, b1, u2, c8) = (
        scalar("uint8"),
        scalar("int16"),
        scalar("int32"),
        scalar("int64"),
        scalar("float32"),
        scalar("float64"),
        scalar("bool"),
        scalar("uint16"),
        scalar("complex64"),
    );
    #[rustfmt::skip]
    let rows = vec![
        Row { rule: "ref §1 spec example: [name, typestr] rgb",
              descr: json!([["r", "|u1"], ["g", "|u1"], ["b", "|u1"]]), size: 3,
              fields: vec![("r", 0), ("g", 1), ("b", 2)],
              leaves: vec![("r", 0, u1, N, &[]), ("g", 1, u1, N, &[]), ("b", 2, u1, N, &[])] },
        Row { rule: "ref §1 spec example: [name, typestr, shape] subarray field",
              descr: json!([["x", "<f4"], ["y", "<f4"], ["z", "<f4", [2, 2]]]), size: 24,
              fields: vec![("x", 0), ("y", 4), ("z", 8)],
              leaves: vec![("x", 0, f4, L, &[]), ("y", 4, f4, L, &[]), ("z", 8, f4, L, &[(4, 4)])] },
        Row { rule: "ref §1 spec example: nested lists",
              descr: json!([["foo", "<f4"], ["bar", [["baz", "<f4"], ["qux", "<i4"]]]]), size: 12,
              fields: vec![("foo", 0), ("bar", 4)],
              leaves: vec![("foo", 0, f4, L, &[]), ("bar.baz", 4, f4, L, &[]), ("bar.qux", 8, i4, L, &[])] },
        Row { rule: "003: per-field byte order in a nested record",
              descr: json!([["field_a", ">i2"], ["field_b", [["subfield_c", ">f4"], ["subfield_d", "<i2"]]]]), size: 8,
              fields: vec![("field_a", 0), ("field_b", 2)],
              leaves: vec![("field_a", 0, i2, B, &[]), ("field_b.subfield_c", 2, f4, B, &[]), ("field_b.subfield_d", 6, i2, L, &[])] },
        Row { rule: "ref §1: byte order per field (<, >, |) mixed in one record",
              descr: json!([["a", "<i4"], ["b", ">f8"], ["c", "|b1"], ["d", ">u2"], ["e", "<c8"]]), size: 23,
              fields: vec![("a", 0), ("b", 4), ("c", 12), ("d", 13), ("e", 15)],
              leaves: vec![("a", 0, i4, L, &[]), ("b", 4, f8, B, &[]), ("c", 12, b1, N, &[]), ("d", 13, u2, B, &[]), ("e", 15, c8, L, &[])] },
        Row { rule: "ref §1: align=True padding entry [\"\", \"|V3\"] is a gap, not a field",
              descr: json!([["a", "|u1"], ["", "|V3"], ["b", "<i4"]]), size: 8,
              fields: vec![("a", 0), ("b", 4)],
              leaves: vec![("a", 0, u1, N, &[]), ("b", 4, i4, L, &[])] },
        Row { rule: "ref §1: offsets dtype, padding between and trailing padding",
              descr: json!([["a", "<i4"], ["", "|V4"], ["b", "<i4"], ["", "|V4"]]), size: 16,
              fields: vec![("a", 0), ("b", 8)],
              leaves: vec![("a", 0, i4, L, &[]), ("b", 8, i4, L, &[])] },
        Row { rule: "ref §8.4: leading padding",
              descr: json!([["", "|V2"], ["a", ">i2"]]), size: 4,
              fields: vec![("a", 2)], leaves: vec![("a", 2, i2, B, &[])] },
        Row { rule: "ref §8.4: padding inside a nested record",
              descr: json!([["o", [["a", "|u1"], ["", "|V1"], ["b", "<i2"], ["", "|V2"]]], ["c", "|u1"]]), size: 7,
              fields: vec![("o", 0), ("c", 6)],
              leaves: vec![("o.a", 0, u1, N, &[]), ("o.b", 2, i2, L, &[]), ("c", 6, u1, N, &[])] },
        Row { rule: "ref §1: a field with a title, [[title, name], typestr]",
              descr: json!([[["Title A", "a"], "<i4"], ["b", "|u1"]]), size: 5,
              fields: vec![("a", 0), ("b", 4)], leaves: vec![("a", 0, i4, L, &[]), ("b", 4, u1, N, &[])] },
        Row { rule: "ref §8.4: shape [] means a scalar field",
              descr: json!([["a", "<i4", []], ["b", "|u1"]]), size: 5,
              fields: vec![("a", 0), ("b", 4)], leaves: vec![("a", 0, i4, L, &[]), ("b", 4, u1, N, &[])] },
        Row { rule: "ref §8.4: 2-D subarray, row-major flat leaf indices",
              descr: json!([["m", ">i2", [2, 3]]]), size: 12, fields: vec![("m", 0)],
              leaves: vec![("m", 0, i2, B, &[(6, 2)])] },
        Row { rule: "ref §8.4: subarray of a nested record",
              descr: json!([["p", [["x", "<f4"], ["y", ">f4"]], [2]], ["n", "|u1"]]), size: 17,
              fields: vec![("p", 0), ("n", 16)],
              leaves: vec![("p.x", 0, f4, L, &[(2, 8)]), ("p.y", 4, f4, B, &[(2, 8)]), ("n", 16, u1, N, &[])] },
        Row { rule: "ref §8.4: nested shapes, a subarray field inside a subarray of records",
              descr: json!([["g", [["v", "<i2", [3]], ["w", "|u1"]], [2]]]), size: 14, fields: vec![("g", 0)],
              leaves: vec![("g.v", 0, i2, L, &[(2, 7), (3, 2)]), ("g.w", 6, u1, N, &[(2, 7)])] },
        Row { rule: "ref §2 table: extension typestrs <M8[10s], <m8[ms], <U4, |S5, |V3",
              descr: json!([["t", "<M8[10s]"], ["d", "<m8[ms]"], ["u", "<U4"], ["s", "|S5"], ["v", "|V3"]]), size: 40,
              fields: vec![("t", 0), ("d", 8), ("u", 16), ("s", 32), ("v", 37)],
              leaves: vec![("t", 0, dt64(TimeUnit::Second, 10), L, &[]), ("d", 8, td64(TimeUnit::Millisecond, 1), L, &[]),
                           ("u", 16, utf32(4), L, &[]), ("s", 32, ntb(5), N, &[]), ("v", 37, raw_bytes(3), N, &[])] },
        Row { rule: "NumPy: an unnamed field that is no padding is named f<its index> (zarr-python 2.18 and 3.1 write them)",
              descr: json!([["", "<i4"], ["x", "|u1"], ["", "|V2"], ["", ">i2", [2]]]), size: 11,
              fields: vec![("f0", 0), ("x", 4), ("f3", 7)],
              leaves: vec![("f0", 0, i4, L, &[]), ("x", 4, u1, N, &[]), ("f3", 7, i2, B, &[(2, 2)])] },
        Row { rule: "NumPy: unnamed fields in a nested record are numbered within it",
              descr: json!([["o", [["", "|S3"], ["a", "|u1"]]]]), size: 4,
              fields: vec![("o", 0)],
              leaves: vec![("o.f0", 0, ntb(3), N, &[]), ("o.a", 3, u1, N, &[])] },
        Row { rule: "ref §1: big-endian extension typestrs",
              descr: json!([["t", ">M8[us]"], ["u", ">U2"], ["n", ">i8"]]), size: 24,
              fields: vec![("t", 0), ("u", 8), ("n", 16)],
              leaves: vec![("t", 0, dt64(TimeUnit::Microsecond, 1), B, &[]), ("u", 8, utf32(2), B, &[]), ("n", 16, i8_, B, &[])] },
    ];
    for Row {
        rule,
        descr,
        size,
        fields,
        leaves,
    } in rows
    {
        let layout = Layout::from_v2_json(&descr).unwrap_or_else(|e| panic!("[{rule}] {e}"));
        assert_eq!(layout.size(), size, "[{rule}] itemsize");
        assert_eq!(
            layout_fields(&layout),
            owned(&fields),
            "[{rule}] named fields and offsets"
        );
        let expected: Vec<LeafInfo> = leaves
            .into_iter()
            .map(|(p, o, s, b, r)| (p.to_owned(), o, s, b, r.to_vec()))
            .collect();
        assert_eq!(layout_leaves(&layout), expected, "[{rule}] leaves");
    }
}

#[test]
fn v2_writes_packed_descr_with_named_fields_only() {
    struct Row {
        rule: &'static str,
        input: Json,
        written: Json,
    }
    #[rustfmt::skip]
    let rows = vec![
        Row { rule: "ref §1: packed flat descr round-trips",
              input: json!([["r", "|u1"], ["g", "|u1"], ["b", "|u1"]]),
              written: json!([["r", "|u1"], ["g", "|u1"], ["b", "|u1"]]) },
        Row { rule: "ref §1: mixed byte order kept per field",
              input: json!([["a", "<i4"], ["b", ">f8"], ["c", "|b1"]]),
              written: json!([["a", "<i4"], ["b", ">f8"], ["c", "|b1"]]) },
        Row { rule: "ref §1: subarray fields written as [name, typestr, shape]",
              input: json!([["x", "<f4"], ["z", "<f4", [2, 2]]]),
              written: json!([["x", "<f4"], ["z", "<f4", [2, 2]]]) },
        Row { rule: "ref §1: nested lists round-trip",
              input: json!([["field_a", ">i2"], ["field_b", [["subfield_c", ">f4"], ["subfield_d", "<i2"]]]]),
              written: json!([["field_a", ">i2"], ["field_b", [["subfield_c", ">f4"], ["subfield_d", "<i2"]]]]) },
        Row { rule: "ref §1: subarray of records round-trips",
              input: json!([["p", [["x", "<f4"], ["v", "<i2", [3]]], [2]]]),
              written: json!([["p", [["x", "<f4"], ["v", "<i2", [3]]], [2]]]) },
        Row { rule: "ref §2 table: extension typestrs round-trip",
              input: json!([["t", "<M8[10s]"], ["d", ">m8[ms]"], ["u", "<U4"], ["s", "|S5"], ["v", "|V3"]]),
              written: json!([["t", "<M8[10s]"], ["d", ">m8[ms]"], ["u", "<U4"], ["s", "|S5"], ["v", "|V3"]]) },
        Row { rule: "ref §1 recommendation: write named fields only (title dropped)",
              input: json!([[["Title", "a"], "<i4"]]), written: json!([["a", "<i4"]]) },
        Row { rule: "ref §8.4: shape [] is a scalar, written as a pair",
              input: json!([["a", "<i4", []]]), written: json!([["a", "<i4"]]) },
    ];
    for Row {
        rule,
        input,
        written,
    } in rows
    {
        let layout = v2(input);
        assert_eq!(layout.to_v2_json().unwrap(), written, "[{rule}]");
        assert_eq!(
            v2(written),
            layout,
            "[{rule}] reads back to the same layout"
        );
    }
    // A v3 type lowered with an endian writes that endian on every multi-byte leaf.
    let data_type = structure(vec![
        ("a", core("int32")),
        ("f", core("bool")),
        (
            "in",
            structure(vec![
                ("t", dt(dt64(TimeUnit::Second, 10))),
                ("s", dt(utf32(2))),
            ]),
        ),
        ("r", dt(raw(24))),
        ("b", dt(ntb(3))),
        ("v", dt(raw_bytes(2))),
    ]);
    #[rustfmt::skip]
    let expected = [
        (Endian::Little, json!([["a", "<i4"], ["f", "|b1"], ["in", [["t", "<M8[10s]"], ["s", "<U2"]]], ["r", "|V3"], ["b", "|S3"], ["v", "|V2"]])),
        (Endian::Big, json!([["a", ">i4"], ["f", "|b1"], ["in", [["t", ">M8[10s]"], ["s", ">U2"]]], ["r", "|V3"], ["b", "|S3"], ["v", "|V2"]])),
    ];
    for (endian, descr) in expected {
        let layout = Layout::from_data_type(&data_type, Some(endian)).unwrap();
        assert_eq!(
            layout.to_v2_json().unwrap(),
            descr,
            "[ref §8.4: write packed descr in one byte order] {endian}"
        );
    }
}

#[test]
fn v2_padded_layouts_are_unrepresentable() {
    #[rustfmt::skip]
    let rows: Vec<(&str, Json, &str, &str)> = vec![
        ("ref §1: never write \"\" entries; gap before b", json!([["a", "|u1"], ["", "|V3"], ["b", "<i4"]]), "b", "3 bytes of padding"),
        ("ref §1: trailing padding names the record", json!([["a", "<i4"], ["", "|V4"]]), "<root>", "4 bytes of padding"),
        ("ref §1: gap in a nested record", json!([["o", [["a", "|u1"], ["", "|V1"], ["b", "<i2"]]], ["c", "|u1"]]), "o.b", "1 bytes of padding"),
        ("ref §1: trailing padding in a nested record", json!([["c", "|u1"], ["o", [["a", "<i2"], ["", "|V2"]]]]), "o", "2 bytes of padding"),
        ("ref §1: padding inside a subarray of records", json!([["p", [["a", "|u1"], ["", "|V1"]], [2]]]), "p", "1 bytes of padding"),
    ];
    for (rule, descr, path, reason) in rows {
        let layout = v2(descr);
        assert!(layout.has_padding(), "[{rule}] has_padding");
        let error = layout.to_v2_json().unwrap_err();
        check_error(rule, &error, "Unrepresentable", path, &[reason.to_owned()]);
    }
}

#[test]
fn v2_to_v3_where_an_equivalent_exists() {
    struct Row {
        rule: &'static str,
        descr: Json,
        expected: Result<(Json, Option<Endian>), (&'static str, &'static str)>,
    }
    let f = |fields: Json| json!({"name": "struct", "configuration": {"fields": fields}});
    #[rustfmt::skip]
    let rows = vec![
        Row { rule: "ref §3.3: packed little-endian record", descr: json!([["a", "<i4"], ["b", "<f8"]]),
              expected: Ok((f(json!([{"name": "a", "data_type": "int32"}, {"name": "b", "data_type": "float64"}])), Some(Endian::Little))) },
        Row { rule: "ref §3.1: packed big-endian record, single-byte fields ignored",
              descr: json!([["a", ">i4"], ["f", "|b1"], ["o", [["x", ">f4"], ["n", "|u1"]]]]),
              expected: Ok((f(json!([{"name": "a", "data_type": "int32"}, {"name": "f", "data_type": "bool"},
                  {"name": "o", "data_type": f(json!([{"name": "x", "data_type": "float32"}, {"name": "n", "data_type": "uint8"}]))}])),
                  Some(Endian::Big))) },
        Row { rule: "ref §3.1: single-byte only, no endian; issue 7: |V2 is raw_bytes, as zarr-python 3 reads it",
              descr: json!([["a", "|u1"], ["b", "|b1"], ["v", "|V2"]]),
              expected: Ok((f(json!([{"name": "a", "data_type": "uint8"}, {"name": "b", "data_type": "bool"},
                  {"name": "v", "data_type": {"name": "raw_bytes", "configuration": {"length_bytes": 2}}}])), None)) },
        Row { rule: "ref §6: extension typestrs map to their v3 types",
              descr: json!([["t", "<M8[10s]"], ["d", "<m8[ms]"], ["u", "<U4"], ["s", "|S5"]]),
              expected: Ok((f(json!([
                  {"name": "t", "data_type": {"name": "numpy.datetime64", "configuration": {"unit": "s", "scale_factor": 10}}},
                  {"name": "d", "data_type": {"name": "numpy.timedelta64", "configuration": {"unit": "ms", "scale_factor": 1}}},
                  {"name": "u", "data_type": {"name": "fixed_length_utf32", "configuration": {"length_bytes": 16}}},
                  {"name": "s", "data_type": {"name": "null_terminated_bytes", "configuration": {"length_bytes": 5}}}])),
                  Some(Endian::Little))) },
        Row { rule: "ref §3.1: subarray fields have no v3 equivalent", descr: json!([["x", "<f4"], ["z", "<f4", [2]]]),
              expected: Err(("z", "subarray")) },
        Row { rule: "ref §3.1: subarray in a nested record", descr: json!([["o", [["a", "<i2"], ["z", "<i2", [3]]]]]),
              expected: Err(("o.z", "subarray")) },
        Row { rule: "ref §3.1: one endian for all fields; mixed byte order has none", descr: json!([["a", "<i4"], ["f", "|b1"], ["b", ">f8"]]),
              expected: Err(("b", "byte order")) },
        Row { rule: "ref §3.1: mixed byte order in a nested record", descr: json!([["a", ">i4"], ["o", [["x", ">f4"], ["y", "<f4"]]]]),
              expected: Err(("o.y", "byte order")) },
        Row { rule: "ref §3.1: no padding bytes are inserted", descr: json!([["a", "|u1"], ["", "|V3"], ["b", "<i4"]]),
              expected: Err(("b", "padding")) },
        Row { rule: "ref §3.1: trailing padding", descr: json!([["a", "<i4"], ["", "|V4"]]),
              expected: Err(("<root>", "padding")) },
        Row { rule: "ref §3.1: padding in a nested record", descr: json!([["a", "<i4"], ["o", [["x", "<i2"], ["", "|V2"]]]]),
              expected: Err(("o", "padding")) },
    ];
    for Row {
        rule,
        descr,
        expected,
    } in rows
    {
        let layout = v2(descr);
        match (layout.to_v3(), expected) {
            (Ok((data_type, endian)), Ok((json, expected_endian))) => {
                assert_eq!(data_type.to_v3_json(), json, "[{rule}] data type");
                assert_eq!(endian, expected_endian, "[{rule}] endian");
                assert_eq!(
                    Layout::from_data_type(&data_type, endian).unwrap(),
                    layout,
                    "[{rule}] lowers back to the same layout"
                );
            }
            (Err(error), Err((path, reason))) => {
                check_error(rule, &error, "NoV3Equivalent", path, &[reason.to_owned()]);
            }
            (got, expected) => panic!("[{rule}] got {got:?}, expected {expected:?}"),
        }
    }
}

#[test]
fn v2_rejections_name_the_field_path_and_json() {
    #[rustfmt::skip]
    let rows: Vec<(&str, Json, &str, Json)> = vec![
        ("ref §1: a structured dtype has at least one entry", json!([]), "<root>", json!([])),
        ("ref §1: an entry has 2 or 3 items, not 1", json!([["a", "<i4"], ["b"]]), "[1]", json!(["b"])),
        ("ref §1: an entry has 2 or 3 items, not 4", json!([["a", "<i4", [2], "x"]]), "[0]", json!(["a", "<i4", [2], "x"])),
        ("ref §1: shape extents are positive, not [0]", json!([["a", "<i4", [0]]]), "a", json!(["a", "<i4", [0]])),
        ("ref §1: shape extents are positive, not [-1]", json!([["a", "<i4", [-1]]]), "a", json!(["a", "<i4", [-1]])),
        ("ref §1: shape is a list, not a string", json!([["a", "<i4", "3"]]), "a", json!(["a", "<i4", "3"])),
        ("ref §1: shape with a zero extent, nested", json!([["o", [["m", "<i2", [2, 0]]]]]), "o.m", json!(["m", "<i2", [2, 0]])),
        ("ref §1/NumPy: duplicate field names", json!([["a", "<i4"], ["a", "<f8"]]), "a", json!([["a", "<i4"], ["a", "<f8"]])),
        ("NumPy: an unnamed field's f<index> taken by another (\"field 'f0' occurs more than once\")",
         json!([["", "<i4"], ["f0", "|u1"]]), "f0", json!([["", "<i4"], ["f0", "|u1"]])),
        ("ref §1/NumPy: duplicate names in a nested record", json!([["o", [["a", "<i4"], ["a", "<f8"]]]]), "o.a", json!([["a", "<i4"], ["a", "<f8"]])),
        ("ref §1: bad typestr inside a nested entry names the nested field", json!([["o", [["x", "<i3"]]]]), "o.x", json!("<i3")),
        ("ref §1: bad typestr two levels down", json!([["o", [["p", [["q", "|i4"]]]]]]), "o.p.q", json!("|i4")),
        ("ref §1: multi-byte typestr needs < or >", json!([["a", "|f8"]]), "a", json!("|f8")),
        ("ref §1: single-byte typestr needs |", json!([["a", "<b1"]]), "a", json!("<b1")),
        ("ref §1: bad datetime unit", json!([["t", "<M8[10x]"]]), "t", json!("<M8[10x]")),
        ("ref §1: an entry is a list", json!([["a", "<i4"], "b"]), "[1]", json!("b")),
        ("ref §1: a field name is a string or [title, name]", json!([[1, "<i4"]]), "[0]", json!([1, "<i4"])),
        ("ref §1: an empty nested list", json!([["o", []]]), "o", json!([])),
        ("NumPy: a titled field needs a name (it is no padding)", json!([[["T", ""], "|V3"]]), "[0]", json!([["T", ""], "|V3"])),
        ("ref §1: only padding is no field", json!([["", "|V4"]]), "<root>", json!([["", "|V4"]])),
        ("ref §1: a dtype is a typestr or a list", json!([["a", 5]]), "a", json!(5)),
        ("lib.rs MAX_ELEMENT_SIZE: itemsize beyond 2^31-1 names the field", json!([["a", "|V2147483647"], ["b", "|u1"]]), "b",
         json!([["a", "|V2147483647"], ["b", "|u1"]])),
        ("lib.rs MAX_ELEMENT_SIZE: subarray size overflow names the field", json!([["a", "<f8", [1000000000, 1000]]]), "a",
         json!(["a", "<f8", [1000000000, 1000]])),
    ];
    for (rule, descr, path, shown) in rows {
        let error = Layout::from_v2_json(&descr).expect_err(rule);
        check_error(rule, &error, "InvalidDtype", path, &[shown.to_string()]);
    }
}

// ---------------------------------------------------------------------------------------------
// Struct fill values
// ---------------------------------------------------------------------------------------------

fn point_value() -> DataType {
    structure(vec![
        (
            "point",
            structure(vec![("x", core("float32")), ("y", core("float32"))]),
        ),
        ("value", core("float64")),
    ])
}

#[test]
#[allow(clippy::approx_constant)] // 3.14 is the reference's example value, not π
fn v3_struct_fill_values_read_write_and_round_trip() {
    struct Row {
        rule: &'static str,
        data_type: DataType,
        input: Json,
        value: Value,
        written: Json,
    }
    let xy = structure(vec![("x", core("float32")), ("y", core("float32"))]);
    let ext = structure(vec![
        ("t", dt(dt64(TimeUnit::Second, 1))),
        ("s", dt(utf32(4))),
        ("raw", dt(raw_bytes(3))),
        ("bs", dt(ntb(3))),
    ]);
    let floats = structure(vec![
        ("x", core("float32")),
        ("c", core("complex64")),
        ("b", core("bool")),
    ]);
    let special = structure(vec![
        ("p", core("float32")),
        ("h", core("float16")),
        ("d", core("float64")),
        ("z", core("complex128")),
        ("m", core("float32")),
    ]);
    let time_raw = structure(vec![
        ("t", dt(dt64(TimeUnit::Nanosecond, 1))),
        ("d", dt(td64(TimeUnit::Second, 5))),
        ("r", dt(raw(24))),
        ("r2", dt(raw(16))),
    ]);
    let ints = structure(vec![
        ("u", core("uint64")),
        ("i", core("int64")),
        (
            "n",
            structure(vec![("deep", structure(vec![("k", core("int8"))]))]),
        ),
    ]);
    #[rustfmt::skip]
    let rows = vec![
        Row { rule: "ref §3.1 example: {\"x\": 0.0, \"y\": 0.0}", data_type: xy,
              input: json!({"x": 0.0, "y": 0.0}),
              value: rec(vec![("x", Value::Float32(0.0)), ("y", Value::Float32(0.0))]),
              written: json!({"x": 0.0, "y": 0.0}) },
        Row { rule: "ref §3.1/§3.3: nested objects {point: {x, y}, value}", data_type: point_value(),
              input: json!({"point": {"x": 1.0, "y": 2.0}, "value": 3.14}),
              value: rec(vec![("point", rec(vec![("x", Value::Float32(1.0)), ("y", Value::Float32(2.0))])),
                              ("value", Value::Float64(3.14))]),
              written: json!({"point": {"x": 1.0, "y": 2.0}, "value": 3.14}) },
        Row { rule: "ref §3.3: 3.4.2 extension fills: int NaT, string, base64 raw_bytes and S",
              data_type: ext.clone(),
              input: json!({"t": -9223372036854775808i64, "s": "hi", "raw": "AQID", "bs": "YWI="}),
              value: rec(vec![("t", Value::DateTime64(i64::MIN)), ("s", Value::String("hi".into())),
                              ("raw", Value::Bytes(vec![1, 2, 3])), ("bs", Value::Bytes(vec![b'a', b'b']))]),
              written: json!({"t": -9223372036854775808i64, "s": "hi", "raw": "AQID", "bs": "YWI="}) },
        Row { rule: "ref §3.3: 3.4.2 fill {x: NaN, c: [1.0, -Infinity], b: true}", data_type: floats,
              input: json!({"x": "NaN", "c": [1.0, "-Infinity"], "b": true}),
              value: rec(vec![("x", Value::Float32(f32::from_bits(0x7fc0_0000))),
                              ("c", Value::Complex64(Complex::new(1.0, f32::NEG_INFINITY))),
                              ("b", Value::Bool(true))]),
              written: json!({"x": "NaN", "c": [1.0, "-Infinity"], "b": true}) },
        Row { rule: "ref §4: hex NaN payload, f16 NaN, Infinity, complex [NaN, -0.0], -0.0 kept",
              data_type: special,
              input: json!({"p": "0x7fc00001", "h": "NaN", "d": "Infinity", "z": ["NaN", -0.0], "m": -0.0}),
              value: rec(vec![("p", Value::Float32(f32::from_bits(0x7fc0_0001))),
                              ("h", Value::Float16(f16::from_bits(0x7e00))),
                              ("d", Value::Float64(f64::INFINITY)),
                              ("z", Value::Complex128(Complex::new(f64::from_bits(0x7ff8_0000_0000_0000), -0.0))),
                              ("m", Value::Float32(-0.0))]),
              written: json!({"p": "0x7fc00001", "h": "NaN", "d": "Infinity", "z": ["NaN", -0.0], "m": -0.0}) },
        Row { rule: "ref §4/§6: uppercase hex read; \"NaT\" read, written as int; r<N> as int array (base64 read)",
              data_type: time_raw,
              input: json!({"t": "NaT", "d": 7, "r": [1, 2, 255], "r2": "AQI="}),
              value: rec(vec![("t", Value::DateTime64(i64::MIN)), ("d", Value::TimeDelta64(7)),
                              ("r", Value::Bytes(vec![1, 2, 255])), ("r2", Value::Bytes(vec![1, 2]))]),
              written: json!({"t": -9223372036854775808i64, "d": 7, "r": [1, 2, 255], "r2": [1, 2]}) },
        Row { rule: "ref §4: integers at their range ends, deep nesting", data_type: ints,
              input: json!({"u": 18446744073709551615u64, "i": -9223372036854775808i64, "n": {"deep": {"k": -128}}}),
              value: rec(vec![("u", Value::UInt64(u64::MAX)), ("i", Value::Int64(i64::MIN)),
                              ("n", rec(vec![("deep", rec(vec![("k", Value::Int8(-128))]))]))]),
              written: json!({"u": 18446744073709551615u64, "i": -9223372036854775808i64, "n": {"deep": {"k": -128}}}) },
        Row { rule: "ref §6: utf32 fill is at most k/4 code points; non-ASCII", data_type: ext,
              input: json!({"t": 0, "s": "h€𝄞!", "raw": [0, 0, 1], "bs": ""}),
              value: rec(vec![("t", Value::DateTime64(0)), ("s", Value::String("h€𝄞!".into())),
                              ("raw", Value::Bytes(vec![0, 0, 1])), ("bs", Value::Bytes(vec![]))]),
              written: json!({"t": 0, "s": "h€𝄞!", "raw": "AAAB", "bs": ""}) },
    ];
    for Row {
        rule,
        data_type,
        input,
        value,
        written,
    } in rows
    {
        let read = data_type
            .fill_value_from_v3_json(&input, None)
            .unwrap_or_else(|e| panic!("[{rule}] {e}"));
        assert_eq!(read, value, "[{rule}] read");
        assert_eq!(
            data_type.fill_value_to_v3_json(&value).unwrap(),
            written,
            "[{rule}] written"
        );
        let again = data_type.fill_value_from_v3_json(&written, None).unwrap();
        assert_eq!(again, value, "[{rule}] written form reads back bit-exactly");
        for endian in [Endian::Little, Endian::Big] {
            let layout = Layout::from_data_type(&data_type, Some(endian)).unwrap();
            let bytes = layout.encode_value(&value).unwrap();
            assert_eq!(
                layout.decode_value(&bytes).unwrap(),
                value,
                "[{rule}] bytes {endian}"
            );
        }
    }
}

#[test]
fn v3_struct_fill_rejections_name_the_member() {
    struct Row {
        rule: &'static str,
        data_type: DataType,
        input: Json,
        path: &'static str,
        shown: Json,
    }
    let xy = || structure(vec![("x", core("float32")), ("y", core("float32"))]);
    let ext = structure(vec![
        ("s", dt(utf32(2))),
        ("raw", dt(raw_bytes(3))),
        ("t", dt(dt64(TimeUnit::Second, 1))),
    ]);
    let i = structure(vec![("a", core("int32")), ("b", core("uint8"))]);
    #[rustfmt::skip]
    let rows = vec![
        Row { rule: "ref §3.1: every field MUST have an entry", data_type: xy(),
              input: json!({"x": 1.0}), path: "y", shown: json!({"x": 1.0}) },
        Row { rule: "ref §3.1: members name fields; unknown member", data_type: xy(),
              input: json!({"x": 1.0, "y": 2.0, "z": 3.0}), path: "z", shown: json!({"x": 1.0, "y": 2.0, "z": 3.0}) },
        Row { rule: "ref §3.1: missing member of a nested object", data_type: point_value(),
              input: json!({"point": {"x": 1.0}, "value": 0.0}), path: "point.y", shown: json!({"x": 1.0}) },
        Row { rule: "ref §3.1: unknown member of a nested object", data_type: point_value(),
              input: json!({"point": {"x": 1.0, "y": 2.0, "w": 0}, "value": 0.0}), path: "point.w",
              shown: json!({"x": 1.0, "y": 2.0, "w": 0}) },
        Row { rule: "ref §3.1: missing nested object entirely", data_type: point_value(),
              input: json!({"value": 0.0}), path: "point", shown: json!({"value": 0.0}) },
        Row { rule: "ref §3.1: each member in its own type's fill form (float)", data_type: xy(),
              input: json!({"x": "abc", "y": 0.0}), path: "x", shown: json!("abc") },
        Row { rule: "ref §3.1: nested member of the wrong form", data_type: point_value(),
              input: json!({"point": {"x": 1.5, "y": true}, "value": 0.0}), path: "point.y", shown: json!(true) },
        Row { rule: "ref §4: integers in range", data_type: i.clone(),
              input: json!({"a": 1, "b": 256}), path: "b", shown: json!(256) },
        Row { rule: "ref §4: integers have no fraction", data_type: i.clone(),
              input: json!({"a": 1.5, "b": 0}), path: "a", shown: json!(1.5) },
        Row { rule: "ref §6: utf32 at most k/4 code points", data_type: ext.clone(),
              input: json!({"s": "abc", "raw": "AQID", "t": 0}), path: "s", shown: json!("abc") },
        Row { rule: "ref §5: raw_bytes base64 of exactly length_bytes", data_type: ext.clone(),
              input: json!({"s": "", "raw": "AQI=", "t": 0}), path: "raw", shown: json!("AQI=") },
        Row { rule: "ref §6: datetime fill is an int or \"NaT\"", data_type: ext,
              input: json!({"s": "", "raw": "AQID", "t": "nat"}), path: "t", shown: json!("nat") },
        Row { rule: "ref §3.3: 0 is no struct fill", data_type: i.clone(),
              input: json!(0), path: "<root>", shown: json!(0) },
        Row { rule: "ref §3.2: legacy base64 of exactly the packed size (5 bytes)", data_type: i.clone(),
              input: json!("AAAAAA=="), path: "<root>", shown: json!("AAAAAA==") },
        Row { rule: "ref §3.2: legacy base64 must be base64", data_type: i,
              input: json!("not base64!"), path: "<root>", shown: json!("not base64!") },
    ];
    for Row {
        rule,
        data_type,
        input,
        path,
        shown,
    } in rows
    {
        let error = data_type
            .fill_value_from_v3_json(&input, None)
            .expect_err(rule);
        check_error(rule, &error, "InvalidFillValue", path, &[shown.to_string()]);
    }
}

#[test]
#[allow(clippy::approx_constant)] // 3.14 is the reference's example value, not π
fn v3_legacy_base64_fill_follows_the_codec_endian() {
    struct Row {
        rule: &'static str,
        data_type: DataType,
        fill: &'static str,
        endian: Option<Endian>,
        value: Value,
    }
    let ab = || structure(vec![("a", core("int32")), ("b", core("uint8"))]);
    let af = || structure(vec![("a", core("int32")), ("b", core("float64"))]);
    #[rustfmt::skip]
    let rows = vec![
        Row { rule: "ref §3.3: 3.1.6 output, nested point/value, no endian = little",
              data_type: point_value(), fill: "AACAPwAAAEAfhetRuB4JQA==", endian: None,
              value: rec(vec![("point", rec(vec![("x", Value::Float32(1.0)), ("y", Value::Float32(2.0))])),
                              ("value", Value::Float64(3.14))]) },
        Row { rule: "ref §3.3: 3.1.x base64 of (1, 2.0), no endian = little",
              data_type: af(), fill: "AQAAAAAAAAAAAABA", endian: None,
              value: rec(vec![("a", Value::Int32(1)), ("b", Value::Float64(2.0))]) },
        Row { rule: "ref §3.2: explicit little", data_type: af(), fill: "AQAAAAAAAAAAAABA", endian: Some(Endian::Little),
              value: rec(vec![("a", Value::Int32(1)), ("b", Value::Float64(2.0))]) },
        Row { rule: "ref §3.2: byte order follows the bytes codec endian (big)",
              data_type: af(), fill: "AAAAAUAAAAAAAAAA", endian: Some(Endian::Big),
              value: rec(vec![("a", Value::Int32(1)), ("b", Value::Float64(2.0))]) },
        Row { rule: "ref §3.3: \"AAAAAQI=\" read little gives a=16777216",
              data_type: ab(), fill: "AAAAAQI=", endian: None,
              value: rec(vec![("a", Value::Int32(16_777_216)), ("b", Value::UInt8(2))]) },
        Row { rule: "ref §3.2 (tensorstore; not 3.4.2): \"AAAAAQI=\" under endian big gives a=1",
              data_type: ab(), fill: "AAAAAQI=", endian: Some(Endian::Big),
              value: rec(vec![("a", Value::Int32(1)), ("b", Value::UInt8(2))]) },
        Row { rule: "ref §3.2: unpadded base64 read too",
              data_type: ab(), fill: "AAAAAQI", endian: Some(Endian::Big),
              value: rec(vec![("a", Value::Int32(1)), ("b", Value::UInt8(2))]) },
    ];
    for Row {
        rule,
        data_type,
        fill,
        endian,
        value,
    } in rows
    {
        let read = data_type
            .fill_value_from_v3_json(&json!(fill), endian)
            .unwrap_or_else(|e| panic!("[{rule}] {e}"));
        assert_eq!(read, value, "[{rule}]");
        if endian.is_none() {
            assert_eq!(
                data_type
                    .fill_value_from_v3_json(&json!(fill), None)
                    .unwrap(),
                value,
                "[{rule}]"
            );
        }
        // Bit-exact: re-encoding in the same order gives the same base64.
        let layout =
            Layout::from_data_type(&data_type, Some(endian.unwrap_or(Endian::Little))).unwrap();
        let bytes = layout.encode_value(&read).unwrap();
        assert_eq!(
            b64(&bytes).trim_end_matches('='),
            fill.trim_end_matches('='),
            "[{rule}] bytes"
        );
        // ref §3.2: readers MUST NOT write the legacy form: the fill is written as an object.
        let written = data_type.fill_value_to_v3_json(&read).unwrap();
        assert!(
            written.is_object(),
            "[{rule}] written as an object: {written}"
        );
        assert_eq!(
            data_type.fill_value_from_v3_json(&written, None).unwrap(),
            value,
            "[{rule}]"
        );
    }
}

#[test]
fn v2_struct_fill_values() {
    struct Row {
        rule: &'static str,
        descr: Json,
        fill: Json,
        value: Option<Value>,
        written: Json,
    }
    let ab = || rec(vec![("a", Value::Int32(1)), ("b", Value::Float64(2.0))]);
    // align=True record with garbage in the 3 padding bytes.
    let padded = hex("07 aabbcc 01000000");
    #[rustfmt::skip]
    let rows = vec![
        Row { rule: "ref §2: mixed <i4/>f8 (1, 2.0) is \"AQAAAEAAAAAAAAAA\" in every version",
              descr: json!([["a", "<i4"], ["b", ">f8"]]), fill: json!("AQAAAEAAAAAAAAAA"),
              value: Some(ab()), written: json!("AQAAAEAAAAAAAAAA") },
        Row { rule: "ref §2: each field in its own declared byte order (all big)",
              descr: json!([["a", ">i4"], ["b", ">f8"]]), fill: json!(b64(&hex("00000001 4000000000000000"))),
              value: Some(ab()), written: json!(b64(&hex("00000001 4000000000000000"))) },
        Row { rule: "ref §2: padding bytes included and ignored; written as zeros",
              descr: json!([["a", "|u1"], ["", "|V3"], ["b", "<i4"]]), fill: json!(b64(&padded)),
              value: Some(rec(vec![("a", Value::UInt8(7)), ("b", Value::Int32(1))])),
              written: json!(b64(&hex("07 000000 01000000"))) },
        Row { rule: "ref §2: 2.18.7 garbage padding \"AQAAACyzzoECAAAAjFUAAA==\"",
              descr: json!([["a", "<i4"], ["", "|V4"], ["b", "<i4"], ["", "|V4"]]), fill: json!("AQAAACyzzoECAAAAjFUAAA=="),
              value: Some(rec(vec![("a", Value::Int32(1)), ("b", Value::Int32(2))])),
              written: json!("AQAAAAAAAAACAAAAAAAAAA==") },
        Row { rule: "ref §2: null means no fill value", descr: json!([["a", "<i4"], ["b", ">f8"]]),
              fill: Json::Null, value: None, written: Json::Null },
        Row { rule: "ref §2 (#275): legacy integer 0 reads as all-zero bytes",
              descr: json!([["a", "<i4"], ["b", ">f8"], ["c", "|b1"]]), fill: json!(0),
              value: Some(rec(vec![("a", Value::Int32(0)), ("b", Value::Float64(0.0)), ("c", Value::Bool(false))])),
              written: json!("AAAAAAAAAAAAAAAAAA==") },
        Row { rule: "ref §2: default all-zero fill",
              descr: json!([["a", "<i4"], ["b", ">f8"]]), fill: json!("AAAAAAAAAAAAAAAA"),
              value: Some(rec(vec![("a", Value::Int32(0)), ("b", Value::Float64(0.0))])), written: json!("AAAAAAAAAAAAAAAA") },
        Row { rule: "ref §2: nested record and subarray, per-field order",
              descr: json!([["o", [["x", ">u2"], ["", "|V1"]]], ["z", "<i2", [2]]]), fill: json!(b64(&hex("0102 ff 0300 0400"))),
              value: Some(rec(vec![("o", rec(vec![("x", Value::UInt16(0x0102))])),
                                   ("z", arr(vec![Value::Int16(3), Value::Int16(4)]))])),
              written: json!(b64(&hex("0102 00 0300 0400"))) },
        Row { rule: "ref §2: NaN payload survives inside a struct (bytes travel as is)",
              descr: json!([["f", ">f4"]]), fill: json!(b64(&hex("7fc00001"))),
              value: Some(rec(vec![("f", Value::Float32(f32::from_bits(0x7fc0_0001)))])),
              written: json!(b64(&hex("7fc00001"))) },
        Row { rule: "ref §2 (3.x accepts a dict): object fill read, base64 written",
              descr: json!([["a", "<i4"], ["b", ">f8"]]), fill: json!({"a": 1, "b": 2.0}),
              value: Some(ab()), written: json!("AQAAAEAAAAAAAAAA") },
        Row { rule: "ref §2: extension types inside the record",
              descr: json!([["t", "<M8[s]"], ["u", ">U1"], ["s", "|S2"]]), fill: json!(b64(&hex("0000000000000080 00000041 6100"))),
              value: Some(rec(vec![("t", Value::DateTime64(i64::MIN)), ("u", Value::String("A".into())),
                                   ("s", Value::Bytes(vec![b'a']))])),
              written: json!(b64(&hex("0000000000000080 00000041 6100"))) },
    ];
    for Row {
        rule,
        descr,
        fill,
        value,
        written,
    } in rows
    {
        let layout = v2(descr);
        let read = layout
            .fill_value_from_v2_json(&fill)
            .unwrap_or_else(|e| panic!("[{rule}] {e}"));
        assert_eq!(read, value, "[{rule}] read");
        assert_eq!(
            layout.fill_value_to_v2_json(value.as_ref()).unwrap(),
            written,
            "[{rule}] written"
        );
        assert_eq!(
            layout.fill_value_from_v2_json(&written).unwrap(),
            value,
            "[{rule}] round trip"
        );
    }
}

#[test]
fn v2_struct_fill_rejections() {
    #[rustfmt::skip]
    let rows: Vec<(&str, Json, Json, &str)> = vec![
        ("ref §2: base64 of exactly the itemsize (too short)", json!([["a", "<i4"], ["b", ">f8"]]), json!("AQAAAEAAAAAAAAA="), "<root>"),
        ("ref §2: base64 of exactly the itemsize (too long)", json!([["a", "<i4"], ["b", ">f8"]]), json!("AQAAAEAAAAAAAAAAAA=="), "<root>"),
        ("ref §2: itemsize includes padding", json!([["a", "|u1"], ["", "|V3"], ["b", "<i4"]]), json!(b64(&hex("07 01000000"))), "<root>"),
        ("ref §2: not base64", json!([["a", "<i4"]]), json!("AQ$A"), "<root>"),
        ("ref §2: only 0 is the legacy integer fill", json!([["a", "<i4"]]), json!(1), "<root>"),
        ("ref §2: a bool is no struct fill", json!([["a", "<i4"]]), json!(true), "<root>"),
        ("ref §2: object fill must name every field", json!([["a", "<i4"], ["b", ">f8"]]), json!({"a": 1}), "b"),
        ("ref §2: object fill member in the field's form", json!([["a", "<i4"], ["o", [["x", ">f8"]]]]), json!({"a": 1, "o": {"x": "big"}}), "o.x"),
    ];
    for (rule, descr, fill, path) in rows {
        let error = v2(descr).fill_value_from_v2_json(&fill).expect_err(rule);
        let shown = match path {
            "o.x" => json!("big").to_string(),
            _ => fill.to_string(),
        };
        check_error(rule, &error, "InvalidFillValue", path, &[shown]);
    }
}

// ---------------------------------------------------------------------------------------------
// Struct codec
// ---------------------------------------------------------------------------------------------

/// A record with every kind of multi-byte leaf: 45 bytes.
fn codec_struct() -> DataType {
    structure(vec![
        ("a", core("int16")),
        (
            "inner",
            structure(vec![("c", core("complex64")), ("s", dt(utf32(2)))]),
        ),
        ("t", dt(dt64(TimeUnit::Second, 1))),
        ("flag", core("bool")),
        ("r", dt(raw(16))),
        ("z", core("complex128")),
    ])
}

fn codec_records() -> Vec<Value> {
    vec![
        rec(vec![
            ("a", Value::Int16(0x0102)),
            (
                "inner",
                rec(vec![
                    ("c", Value::Complex64(Complex::new(1.0, -2.0))),
                    ("s", Value::String("A€".into())),
                ]),
            ),
            ("t", Value::DateTime64(1)),
            ("flag", Value::Bool(true)),
            ("r", Value::Bytes(vec![0xaa, 0xbb])),
            ("z", Value::Complex128(Complex::new(1.0, 2.0))),
        ]),
        rec(vec![
            ("a", Value::Int16(-1)),
            (
                "inner",
                rec(vec![
                    ("c", Value::Complex64(Complex::new(0.0, 0.0))),
                    ("s", Value::String(String::new())),
                ]),
            ),
            ("t", Value::DateTime64(-1)),
            ("flag", Value::Bool(false)),
            ("r", Value::Bytes(vec![0x00, 0x01])),
            ("z", Value::Complex128(Complex::new(-0.0, f64::INFINITY))),
        ]),
    ]
}

#[test]
fn v3_codec_applies_one_endian_to_every_leaf() {
    // ref §3.1: "All multi-byte fields MUST use the byte order specified by the endian
    // parameter"; both halves of complex, datetime counts and UTF-32 code units included;
    // raw bytes and bool are not reordered. Bytes written out by hand.
    #[rustfmt::skip]
    let rows = [
        ("ref §3.1/§3.3: endian little", Endian::Little, hex(concat!(
            "0201 | 0000803f 000000c0 | 41000000 ac200000 | 0100000000000000 | 01 | aabb | 000000000000f03f 0000000000000040",
            "ffff | 00000000 00000000 | 00000000 00000000 | ffffffffffffffff | 00 | 0001 | 0000000000000080 000000000000f07f"))),
        ("ref §3.1/§3.3: endian big (dtype.newbyteorder)", Endian::Big, hex(concat!(
            "0102 | 3f800000 c0000000 | 00000041 000020ac | 0000000000000001 | 01 | aabb | 3ff0000000000000 4000000000000000",
            "ffff | 00000000 00000000 | 00000000 00000000 | ffffffffffffffff | 00 | 0001 | 8000000000000000 7ff0000000000000"))),
    ];
    let data_type = codec_struct();
    assert_eq!(data_type.size(), 45);
    let values = codec_records();
    for (rule, endian, bytes) in rows {
        assert_eq!(bytes.len(), 90, "[{rule}] hand bytes");
        let codec = BytesCodec::new(Some(endian));
        assert_eq!(
            codec.encode_values(&data_type, &values).unwrap(),
            bytes,
            "[{rule}] encode"
        );
        assert_eq!(
            codec.decode_values(&data_type, &bytes).unwrap(),
            values,
            "[{rule}] decode"
        );
        let layout = Layout::from_data_type(&data_type, Some(endian)).unwrap();
        assert_eq!(
            layout.encode_value(&values[0]).unwrap(),
            bytes[..45].to_vec(),
            "[{rule}] one record"
        );
        assert_eq!(
            layout.decode_value(&bytes[45..]).unwrap(),
            values[1],
            "[{rule}] one record"
        );
    }
    // ref §3.3 chunk: a:int32=1, b:float64=2.0 plus one zero record.
    let ab = structure(vec![("a", core("int32")), ("b", core("float64"))]);
    let chunk = vec![
        rec(vec![("a", Value::Int32(1)), ("b", Value::Float64(2.0))]),
        rec(vec![("a", Value::Int32(0)), ("b", Value::Float64(0.0))]),
    ];
    let zeros = "000000000000000000000000";
    for (endian, first) in [
        (Endian::Little, "010000000000000000000040"),
        (Endian::Big, "000000014000000000000000"),
    ] {
        let expected = hex(&format!("{first}{zeros}"));
        let codec = BytesCodec::new(Some(endian));
        assert_eq!(
            codec.encode_values(&ab, &chunk).unwrap(),
            expected,
            "[ref §3.3: chunk bytes {endian}]"
        );
        assert_eq!(codec.decode_values(&ab, &expected).unwrap(), chunk);
    }
}

#[test]
fn v2_codec_uses_each_fields_byte_order() {
    #[rustfmt::skip]
    let rows = vec![
        ("ref §1/§2: <i4, >f8, >u2, |u1, <c8, >c8, >U1, <U1 in one record",
         json!([["a", "<i4"], ["b", ">f8"], ["c", ">u2"], ["d", "|u1"], ["e", "<c8"], ["f", ">c8"], ["s", ">U1"], ["g", "<U1"]]),
         hex("01000000 | 4000000000000000 | 0102 | 07 | 0000803f000000c0 | 3f800000c0000000 | 00000041 | 41000000"),
         rec(vec![("a", Value::Int32(1)), ("b", Value::Float64(2.0)), ("c", Value::UInt16(0x0102)), ("d", Value::UInt8(7)),
                  ("e", Value::Complex64(Complex::new(1.0, -2.0))), ("f", Value::Complex64(Complex::new(1.0, -2.0))),
                  ("s", Value::String("A".into())), ("g", Value::String("A".into()))])),
        ("003: [('field_a', '>i2'), ('field_b', [('subfield_c', '>f4'), ('subfield_d', '<i2')])]",
         json!([["field_a", ">i2"], ["field_b", [["subfield_c", ">f4"], ["subfield_d", "<i2"]]]]),
         hex("fffe | 3fc00000 | 0300"),
         rec(vec![("field_a", Value::Int16(-2)),
                  ("field_b", rec(vec![("subfield_c", Value::Float32(1.5)), ("subfield_d", Value::Int16(3))]))])),
        ("ref §1: subarray elements in the field's order, padding written as zeros",
         json!([["m", ">i2", [2]], ["", "|V1"], ["t", "<m8[s]"]]),
         hex("0001 fffe | 00 | 0500000000000000"),
         rec(vec![("m", arr(vec![Value::Int16(1), Value::Int16(-2)])), ("t", Value::TimeDelta64(5))])),
        ("ref §1: a 2-D subarray is nested one level per dimension, row-major",
         json!([["m", "<i2", [2, 3]], ["b", ">u2"]]),
         hex("0100 0200 0300 0400 0500 0600 | abcd"),
         rec(vec![("m", arr(vec![arr(vec![Value::Int16(1), Value::Int16(2), Value::Int16(3)]),
                                 arr(vec![Value::Int16(4), Value::Int16(5), Value::Int16(6)])])),
                  ("b", Value::UInt16(0xabcd))])),
    ];
    for (rule, descr, bytes, value) in rows {
        let layout = v2(descr);
        assert_eq!(
            layout.encode_value(&value).unwrap(),
            bytes,
            "[{rule}] encode"
        );
        assert_eq!(
            layout.decode_value(&bytes).unwrap(),
            value,
            "[{rule}] decode"
        );
        let two = [bytes.clone(), bytes.clone()].concat();
        assert_eq!(
            layout
                .encode_values(&[value.clone(), value.clone()])
                .unwrap(),
            two,
            "[{rule}] chunk"
        );
        assert_eq!(
            layout.decode_values(&two).unwrap(),
            vec![value.clone(), value],
            "[{rule}]"
        );
    }
}

#[test]
fn endian_is_required_to_write_multi_byte_structs_only() {
    #[rustfmt::skip]
    let rows: Vec<(&str, DataType, bool)> = vec![
        ("ref §3.1: multi-byte numeric field needs endian", structure(vec![("a", core("uint8")), ("b", core("int16"))]), true),
        ("ref §3.1: a multi-byte leaf deep in a nested struct",
         structure(vec![("a", core("bool")), ("o", structure(vec![("p", structure(vec![("q", core("float32"))]))]))]), true),
        ("ref §6: datetime counts are int64", structure(vec![("t", dt(dt64(TimeUnit::Day, 1)))]), true),
        ("ref §6: UTF-32 code units are 4 bytes", structure(vec![("s", dt(utf32(1)))]), true),
        ("ref §3.1: complex64 halves", structure(vec![("c", core("complex64"))]), true),
        ("ref §3.1: structs of single-byte fields MAY omit endian",
         structure(vec![("b", core("bool")), ("i", core("int8")), ("u", core("uint8"))]), false),
        ("ref §5: raw r<N>, raw_bytes and null_terminated_bytes have no byte order",
         structure(vec![("r", dt(raw(64))), ("v", dt(raw_bytes(4))), ("s", dt(ntb(8)))]), false),
        ("ref §3.3: 3.4.2 writes plain bytes when every field is 1 byte (nested)",
         structure(vec![("o", structure(vec![("a", core("uint8")), ("r", dt(raw(24)))]))]), false),
    ];
    for (rule, data_type, needs) in rows {
        let size = data_type.size();
        let values = BytesCodec::new(Some(Endian::Little))
            .decode_values(
                &data_type,
                &(0..2 * size)
                    .map(|i| u8::from(i % 4 == 1))
                    .collect::<Vec<_>>(),
            )
            .unwrap();
        let unconfigured = BytesCodec::new(None);
        assert_eq!(data_type.has_endianness(), needs, "[{rule}] has_endianness");
        let little = BytesCodec::new(Some(Endian::Little))
            .encode_values(&data_type, &values)
            .unwrap();
        if needs {
            let error = unconfigured.encode_values(&data_type, &values).unwrap_err();
            assert_eq!(kind(&error), "MissingEndian", "[{rule}] {error:?}");
            let Error::MissingEndian { data_type: named } = &error else {
                unreachable!()
            };
            assert_eq!(
                named,
                &data_type.to_string(),
                "[{rule}] names the data type"
            );
            assert!(
                error
                    .to_string()
                    .contains(&data_type.to_v3_json().to_string()),
                "[{rule}] message {error} shows the type's JSON"
            );
            let error = Layout::from_data_type(&data_type, None).unwrap_err();
            assert_eq!(
                kind(&error),
                "MissingEndian",
                "[{rule}] Layout::from_data_type"
            );
            assert_eq!(
                BytesCodec::for_data_type(&data_type, Endian::Big).endian(),
                Some(Endian::Big),
                "[{rule}] for_data_type keeps the endian"
            );
        } else {
            assert_eq!(
                unconfigured.encode_values(&data_type, &values).unwrap(),
                little,
                "[{rule}]"
            );
            let big = BytesCodec::new(Some(Endian::Big))
                .encode_values(&data_type, &values)
                .unwrap();
            assert_eq!(big, little, "[{rule}] byte order is irrelevant");
            assert_eq!(
                BytesCodec::for_data_type(&data_type, Endian::Big).endian(),
                None,
                "[{rule}]"
            );
            assert_eq!(
                BytesCodec::for_data_type(&data_type, Endian::Big).to_json(),
                json!({"name": "bytes"}),
                "[{rule}] written without configuration"
            );
        }
        // ref §3.2/§3.3: on read a missing endian is little-endian.
        let from_json = BytesCodec::from_json(&json!({"name": "bytes"})).unwrap();
        assert_eq!(from_json.endian(), None);
        assert_eq!(
            from_json.decode_values(&data_type, &little).unwrap(),
            values,
            "[{rule}] read LE"
        );
    }
}

/// How a validation row's bytes are decoded.
enum Source {
    /// v3: a data type and the codec's endian (`None`: unconfigured, read as little).
    V3(DataType, Option<Endian>),
    /// v2: a descr.
    V2(Json),
}

fn validation_struct() -> DataType {
    // 13 bytes: a 0..4, inner.flag 4, inner.s 5..13.
    structure(vec![
        ("a", core("int32")),
        (
            "inner",
            structure(vec![("flag", core("bool")), ("s", dt(utf32(2)))]),
        ),
    ])
}

fn with_bytes(mut bytes: Vec<u8>, at: usize, patch: &[u8]) -> Vec<u8> {
    bytes[at..at + patch.len()].copy_from_slice(patch);
    bytes
}

#[test]
fn validation_errors_name_record_field_and_offset() {
    struct Row {
        rule: &'static str,
        source: Source,
        bytes: Vec<u8>,
        index: usize,
        path: &'static str,
        offset: usize,
        fault: ElementFault,
        shows: &'static str,
    }
    let zeros = |n: usize| vec![0u8; n];
    let v3 = |endian| Source::V3(validation_struct(), endian);
    #[rustfmt::skip]
    let rows = vec![
        Row { rule: "issue: bool not 0/1; record 2, inner.flag at 2*13+4",
              source: v3(Some(Endian::Little)), bytes: with_bytes(zeros(39), 30, &[2]),
              index: 2, path: "inner.flag", offset: 30, fault: ElementFault::InvalidBool(2), shows: "0x02" },
        Row { rule: "issue: UTF-32 0xD800; record 2, inner.s 2nd unit at 26+5+4",
              source: v3(Some(Endian::Little)), bytes: with_bytes(zeros(39), 35, &[0x00, 0xd8, 0x00, 0x00]),
              index: 2, path: "inner.s", offset: 35, fault: ElementFault::InvalidUtf32(0xd800), shows: "0x0000d800" },
        Row { rule: "issue: UTF-32 0x110000; record 1, inner.s at 13+5",
              source: v3(Some(Endian::Little)), bytes: with_bytes(zeros(39), 18, &[0x00, 0x00, 0x11, 0x00]),
              index: 1, path: "inner.s", offset: 18, fault: ElementFault::InvalidUtf32(0x11_0000), shows: "0x00110000" },
        Row { rule: "ref §3.2: no endian reads little; same 0xD800 error",
              source: v3(None), bytes: with_bytes(zeros(39), 35, &[0x00, 0xd8, 0x00, 0x00]),
              index: 2, path: "inner.s", offset: 35, fault: ElementFault::InvalidUtf32(0xd800), shows: "0x0000d800" },
        Row { rule: "ref §3.1: UTF-32 units in the codec's endian: big 0xDFFF at record 0, offset 5",
              source: v3(Some(Endian::Big)), bytes: with_bytes(zeros(26), 5, &[0x00, 0x00, 0xdf, 0xff]),
              index: 0, path: "inner.s", offset: 5, fault: ElementFault::InvalidUtf32(0xdfff), shows: "0x0000dfff" },
        Row { rule: "ref §3.1: little 0xD800 bytes read big are 0x00D80000 (> U+10FFFF)",
              source: v3(Some(Endian::Big)), bytes: with_bytes(zeros(39), 35, &[0x00, 0xd8, 0x00, 0x00]),
              index: 2, path: "inner.s", offset: 35, fault: ElementFault::InvalidUtf32(0x00d8_0000), shows: "0x00d80000" },
        Row { rule: "issue: the first bad record is reported (record 1 before record 2)",
              source: v3(Some(Endian::Little)),
              bytes: with_bytes(with_bytes(zeros(39), 30, &[9]), 17, &[0xff]),
              index: 1, path: "inner.flag", offset: 17, fault: ElementFault::InvalidBool(0xff), shows: "0xff" },
        Row { rule: "issue: subarray element paths z[3]; padding garbage ignored; record 1 at 9+4+3",
              source: Source::V2(json!([["a", "|u1"], ["", "|V3"], ["z", "|b1", [5]]])),
              bytes: with_bytes(with_bytes(zeros(27), 1, &[0xee, 0xee, 0xee]), 16, &[0xff]),
              index: 1, path: "z[3]", offset: 16, fault: ElementFault::InvalidBool(0xff), shows: "0xff" },
        Row { rule: "issue: 2-D subarray of >U1 in a nested record; item 3 (row-major) of [2, 2], m.u[1][1], at 2*18+2+12",
              source: Source::V2(json!([["h", "<i2"], ["m", [["u", ">U1", [2, 2]]]]])),
              bytes: with_bytes(zeros(54), 50, &[0x00, 0x00, 0xd8, 0x00]),
              index: 2, path: "m.u[1][1]", offset: 50, fault: ElementFault::InvalidUtf32(0xd800), shows: "0x0000d800" },
        Row { rule: "issue: subarray of records, p[1].ok at 0*6 + 3 + 2",
              source: Source::V2(json!([["n", "|u1"], ["", "|V2"], ["p", [["x", "<i2"], ["ok", "|b1"]], [2]]])),
              bytes: with_bytes(zeros(9), 8, &[3]),
              index: 0, path: "p[1].ok", offset: 8, fault: ElementFault::InvalidBool(3), shows: "0x03" },
    ];
    for Row {
        rule,
        source,
        bytes,
        index,
        path,
        offset,
        fault,
        shows,
    } in rows
    {
        let (layout, codec) = match &source {
            Source::V3(data_type, endian) => (
                Layout::from_data_type(data_type, Some(endian.unwrap_or(Endian::Little))).unwrap(),
                Some((data_type, BytesCodec::new(*endian))),
            ),
            Source::V2(descr) => (v2(descr.clone()), None),
        };
        let mut errors = vec![(
            "Layout::decode_values",
            layout.decode_values(&bytes).unwrap_err(),
        )];
        if let Some((data_type, codec)) = codec {
            errors.push((
                "BytesCodec::decode_values",
                codec.decode_values(data_type, &bytes).unwrap_err(),
            ));
        }
        if index == 0 {
            let one = &bytes[..layout.size()];
            errors.push((
                "Layout::decode_value",
                layout.decode_value(one).unwrap_err(),
            ));
        }
        for (via, error) in errors {
            let Error::InvalidElement {
                index: i,
                path: p,
                offset: o,
                fault: f,
            } = &error
            else {
                panic!("[{rule}] {via}: expected InvalidElement, got {error:?}");
            };
            assert_eq!(
                (*i, p.to_string(), *o, f),
                (index, path.to_owned(), offset, &fault),
                "[{rule}] {via}"
            );
            check_error(
                rule,
                &error,
                "InvalidElement",
                path,
                &[
                    format!("element {index}"),
                    format!("byte offset {offset}"),
                    shows.to_owned(),
                ],
            );
        }
    }
}

#[test]
fn wrong_buffer_lengths_are_errors() {
    let data_type = validation_struct(); // 13 bytes
    let layout = Layout::from_data_type(&data_type, Some(Endian::Little)).unwrap();
    let padded = v2(json!([["a", "|u1"], ["", "|V3"], ["z", "|b1", [5]]])); // 9 bytes
    let codec = BytesCodec::new(Some(Endian::Little));
    #[rustfmt::skip]
    let rows: Vec<(&str, Decoded, &str, usize, usize)> = vec![
        ("ref §3.1/seed 002: chunk is a whole number of records (14 of 13)", layout.decode_values(&[0; 14]), "ChunkLength", 14, 13),
        ("seed 002: 12 bytes is not one 13-byte record", codec.decode_values(&data_type, &[0; 12]), "ChunkLength", 12, 13),
        ("ref §1: v2 itemsize includes padding (10 of 9)", padded.decode_values(&[0; 10]), "ChunkLength", 10, 9),
        ("issue: decode_value needs exactly one record (12)", layout.decode_value(&[0; 12]).map(|v| vec![v]), "BufferLength", 13, 12),
        ("issue: decode_value needs exactly one record (26)", layout.decode_value(&[0; 26]).map(|v| vec![v]), "BufferLength", 13, 26),
        ("issue: decode_value of a padded record needs the padding (8)", padded.decode_value(&[0; 8]).map(|v| vec![v]), "BufferLength", 9, 8),
    ];
    for (rule, result, expected_kind, a, b) in rows {
        let error = result.expect_err(rule);
        assert_eq!(kind(&error), expected_kind, "[{rule}] {error:?}");
        match error {
            Error::ChunkLength { len, element_size } => {
                assert_eq!((len, element_size), (a, b), "[{rule}]");
                let message = Error::ChunkLength { len, element_size }.to_string();
                assert!(
                    message.contains(&format!("{len} bytes")),
                    "[{rule}] {message}"
                );
                assert!(
                    message.contains(&format!("{element_size}-byte")),
                    "[{rule}] {message}"
                );
            }
            Error::BufferLength { expected, found } => {
                assert_eq!((expected, found), (a, b), "[{rule}]");
            }
            other => panic!("[{rule}] {other:?}"),
        }
    }
    // An empty chunk is zero records.
    assert_eq!(layout.decode_values(&[]).unwrap(), Vec::<Value>::new());
}

#[test]
fn bytes_are_read_as_the_metadata_says() {
    // ref §3.3: "Every reader … decodes those as LE garbage (16777216)": the metadata wins.
    let one = hex("00000001");
    let a = |n: i32| vec![rec(vec![("a", Value::Int32(n))])];
    let int32 = structure(vec![("a", core("int32"))]);
    #[rustfmt::skip]
    let rows: Vec<(&str, Decoded, Vec<Value>)> = vec![
        ("ref §3.3: v3 endian little reads 00 00 00 01 as 16777216",
         BytesCodec::new(Some(Endian::Little)).decode_values(&int32, &one), a(16_777_216)),
        ("ref §3.3: v3 without endian (3.1.x) reads little: 16777216",
         BytesCodec::new(None).decode_values(&int32, &one), a(16_777_216)),
        ("ref §3.1: v3 endian big reads 1", BytesCodec::new(Some(Endian::Big)).decode_values(&int32, &one), a(1)),
        ("ref §1: v2 <i4 reads 16777216", v2(json!([["a", "<i4"]])).decode_values(&one), a(16_777_216)),
        ("ref §1: v2 >i4 reads 1", v2(json!([["a", ">i4"]])).decode_values(&one), a(1)),
        ("ref §3.3: base64 fill \"AAAAAQ==\" without endian reads 16777216",
         int32.fill_value_from_v3_json(&json!("AAAAAQ=="), None).map(|v| vec![v]), a(16_777_216)),
        ("ref §2: v2 base64 fill under <i4 reads 16777216",
         v2(json!([["a", "<i4"]])).fill_value_from_v2_json(&json!("AAAAAQ==")).map(|v| vec![v.unwrap()]), a(16_777_216)),
    ];
    for (rule, result, expected) in rows {
        assert_eq!(
            result.unwrap_or_else(|e| panic!("[{rule}] {e}")),
            expected,
            "[{rule}]"
        );
    }
}

/// The mixed-order record of `convert_byte_order`: 34 bytes, a 0, b 4, c 12, pad 13, d 14,
/// u 22, z 30.
fn mixed_descr(order: [&str; 5]) -> Json {
    let [a, b, d, u, z] = order;
    json!([
        ["a", format!("{a}i4")],
        ["b", format!("{b}f8")],
        ["c", "|u1"],
        ["", "|V1"],
        ["d", format!("{d}c8")],
        ["u", format!("{u}U2")],
        ["z", format!("{z}i2"), [2]]
    ])
}

#[test]
fn convert_byte_order_on_mixed_layouts() {
    let mixed = v2(mixed_descr(["<", ">", ">", "<", ">"]));
    assert_eq!(mixed.size(), 34);
    #[rustfmt::skip]
    let stored = hex(concat!(
        "01000000 4000000000000000 07 ee 3f800000c0000000 41000000ac200000 0001fffe",
        "04030201 4000000000000000 07 55 3f800000c0000000 41000000ac200000 0001fffe"));
    #[rustfmt::skip]
    let rows = [
        ("ref §8.4: every leaf little; complex halves and UTF-32 units swapped separately; padding untouched",
         Endian::Little, ["<", "<", "<", "<", "<"], hex(concat!(
            "01000000 0000000000000040 07 ee 0000803f000000c0 41000000ac200000 0100feff",
            "04030201 0000000000000040 07 55 0000803f000000c0 41000000ac200000 0100feff"))),
        ("ref §8.4: every leaf big", Endian::Big, [">", ">", ">", ">", ">"], hex(concat!(
            "00000001 4000000000000000 07 ee 3f800000c0000000 00000041000020ac 0001fffe",
            "01020304 4000000000000000 07 55 3f800000c0000000 00000041000020ac 0001fffe"))),
    ];
    let original = mixed.decode_values(&stored).unwrap();
    assert_eq!(
        original[0],
        rec(vec![
            ("a", Value::Int32(1)),
            ("b", Value::Float64(2.0)),
            ("c", Value::UInt8(7)),
            ("d", Value::Complex64(Complex::new(1.0, -2.0))),
            ("u", Value::String("A€".into())),
            ("z", arr(vec![Value::Int16(1), Value::Int16(-2)])),
        ]),
        "[ref §1] the mixed record decodes field by field"
    );
    assert_eq!(
        original[1].as_record().unwrap().get("a"),
        Some(&Value::Int32(0x0102_0304))
    );
    for (rule, target, order, expected) in rows {
        let mut bytes = stored.clone();
        mixed.convert_byte_order(&mut bytes, target).unwrap();
        assert_eq!(hex::encode(&bytes), hex::encode(&expected), "[{rule}]");
        let uniform = v2(mixed_descr(order));
        assert_eq!(uniform.uniform_endian(), Ok(Some(target)), "[{rule}]");
        assert_eq!(
            uniform.decode_values(&bytes).unwrap(),
            original,
            "[{rule}] same values"
        );
        // Converting a uniform chunk to its own order changes nothing.
        let mut again = bytes.clone();
        uniform.convert_byte_order(&mut again, target).unwrap();
        assert_eq!(again, bytes, "[{rule}] idempotent");
    }
    let error = mixed
        .convert_byte_order(&mut [0; 33], Endian::Little)
        .unwrap_err();
    assert!(
        matches!(
            error,
            Error::ChunkLength {
                len: 33,
                element_size: 34
            }
        ),
        "[seed 002: whole records only] {error:?}"
    );
}

#[derive(ZarrStruct, Debug, Clone, PartialEq)]
struct Inner {
    x: f32,
    y: i64,
}

#[derive(ZarrStruct, Debug, Clone, PartialEq)]
struct Mixed {
    a: i32,
    b: f64,
    c: u8,
    d: [u16; 2],
    inner: Inner,
}

#[test]
fn decode_elements_on_mixed_order_layouts() {
    let expected = Mixed {
        a: -2,
        b: 0.5,
        c: 9,
        d: [0x0102, 0x0304],
        inner: Inner { x: 1.5, y: -3 },
    };
    #[rustfmt::skip]
    let rows = vec![
        ("ref §1: per-field byte order decoded into a Rust struct",
         json!([["a", "<i4"], ["b", ">f8"], ["c", "|u1"], ["d", ">u2", [2]], ["inner", [["x", ">f4"], ["y", "<i8"]]]]),
         hex("feffffff 3fe0000000000000 09 01020304 3fc00000 fdffffffffffffff")),
        ("ref §1: uniform big-endian layout",
         json!([["a", ">i4"], ["b", ">f8"], ["c", "|u1"], ["d", ">u2", [2]], ["inner", [["x", ">f4"], ["y", ">i8"]]]]),
         hex("fffffffe 3fe0000000000000 09 01020304 3fc00000 fffffffffffffffd")),
        ("ref §1: uniform little-endian layout",
         json!([["a", "<i4"], ["b", "<f8"], ["c", "|u1"], ["d", "<u2", [2]], ["inner", [["x", "<f4"], ["y", "<i8"]]]]),
         hex("feffffff 000000000000e03f 09 02010403 0000c03f fdffffffffffffff")),
    ];
    for (rule, descr, record) in rows {
        let layout = v2(descr);
        assert_eq!(layout.size(), 29, "[{rule}]");
        let chunk = [record.clone(), record.clone()].concat();
        let decoded: Vec<Mixed> = common::decode_stored(&layout, &chunk).unwrap();
        assert_eq!(
            decoded,
            vec![expected.clone(), expected.clone()],
            "[{rule}]"
        );
        let error = common::decode_stored::<Mixed>(&layout, &chunk[..28]).unwrap_err();
        assert_eq!(kind(&error), "ChunkLength", "[{rule}] {error:?}");
    }
    #[rustfmt::skip]
    let mismatches: Vec<(&str, Json, &str)> = vec![
        ("issue: layout must be the struct's; different type of b",
         json!([["a", "<i4"], ["b", ">f4"], ["c", "|u1"], ["d", ">u2", [2]], ["inner", [["x", ">f4"], ["y", "<i8"]]]]), "b"),
        ("ref §1: padding shifts b",
         json!([["a", "<i4"], ["", "|V4"], ["b", ">f8"], ["c", "|u1"], ["d", ">u2", [2]], ["inner", [["x", ">f4"], ["y", "<i8"]]]]), "b"),
        ("issue: nested field type differs",
         json!([["a", "<i4"], ["b", ">f8"], ["c", "|u1"], ["d", ">u2", [2]], ["inner", [["x", ">f4"], ["y", "<u8"]]]]), "inner.y"),
    ];
    for (rule, descr, path) in mismatches {
        let layout = v2(descr);
        let error = common::decode_stored::<Mixed>(&layout, &vec![0; layout.size()]).unwrap_err();
        check_error(rule, &error, "TypeMismatch", path, &[]);
    }
}

#[test]
fn encoding_values_that_do_not_fit_names_the_field() {
    let data_type = structure(vec![
        ("a", core("int32")),
        (
            "inner",
            structure(vec![("s", dt(utf32(2))), ("r", dt(raw(24)))]),
        ),
    ]);
    let layout = Layout::from_data_type(&data_type, Some(Endian::Little)).unwrap();
    let sub = v2(json!([["z", "<i2", [3]]]));
    let inner =
        |s: &str, r: Vec<u8>| rec(vec![("s", Value::String(s.into())), ("r", Value::Bytes(r))]);
    #[rustfmt::skip]
    let rows: Vec<(&str, &Layout, Value, &str, &str)> = vec![
        ("ref §3.1: every field needs a value", &layout,
         rec(vec![("inner", inner("", vec![0, 0, 0]))]), "a", "no value for this field"),
        ("ref §3.1: no value for a field that does not exist", &layout,
         rec(vec![("a", Value::Int32(1)), ("inner", inner("", vec![0, 0, 0])), ("x", Value::Int8(0))]), "x", "no field of this name"),
        ("issue: the nested path of a value of the wrong kind", &layout,
         rec(vec![("a", Value::Int32(1)), ("inner", rec(vec![("s", Value::Int8(1)), ("r", Value::Bytes(vec![0, 0, 0]))]))]), "inner.s", "int8"),
        ("ref §6: at most k/4 code points", &layout,
         rec(vec![("a", Value::Int32(1)), ("inner", inner("abc", vec![0, 0, 0]))]), "inner.s", "3 characters"),
        ("ref §5: r24 is exactly 3 bytes", &layout,
         rec(vec![("a", Value::Int32(1)), ("inner", inner("", vec![0, 0]))]), "inner.r", "2 bytes"),
        ("ref §3.1: a struct value is a record", &layout, Value::Int32(1), "<root>", "int32 value"),
        ("ref §1: a subarray value has shape items", &sub,
         rec(vec![("z", arr(vec![Value::Int16(1), Value::Int16(2)]))]), "z", "an array of shape [2]"),
        ("ref §1: subarray element of the wrong kind names z[2]", &sub,
         rec(vec![("z", arr(vec![Value::Int16(1), Value::Int16(2), Value::Int32(3)]))]), "z[2]", "int32"),
    ];
    for (rule, layout, value, path, shows) in rows {
        let error = layout.encode_value(&value).unwrap_err();
        check_error(rule, &error, "ValueMismatch", path, &[shows.to_owned()]);
        let error = layout
            .encode_values(std::slice::from_ref(&value))
            .unwrap_err();
        check_error(rule, &error, "ValueMismatch", path, &[shows.to_owned()]);
    }
}

#[test]
fn fill_bytes_that_are_no_valid_record_are_fill_value_errors() {
    // A base64 fill (legacy v3 `structured`, ref §3.2; v2, ref §2) whose bytes are not a valid
    // record is a fill value in no permitted form: Error::InvalidFillValue ("A fill value whose
    // JSON is not a permitted form for its data type", error.rs) naming the field and — like
    // every rejection (issue; error.rs: "Each variant carries the offending input") — showing
    // the offending JSON.
    let v3_type = structure(vec![("a", core("int32")), ("b", core("bool"))]);
    let bad_bool = json!(b64(&hex("01000000 02")));
    let v2_layout = v2(json!([["a", "<i4"], ["o", [["s", ">U1"]]]]));
    let bad_unit = json!(b64(&hex("01000000 0000d800")));
    let nested_type = structure(vec![
        ("a", core("int8")),
        (
            "o",
            structure(vec![("x", core("int8")), ("b", core("bool"))]),
        ),
    ]);
    let nested_fill = json!({"a": 1, "o": "AQI="});
    let nested_member = json!("AQI=");
    #[rustfmt::skip]
    let rows: Vec<(&str, FillRead, &str, &Json)> = vec![
        ("ref §3.2: legacy v3 base64 with bool byte 0x02",
         v3_type.fill_value_from_v3_json(&bad_bool, None).map(Some), "b", &bad_bool),
        ("ref §2: v2 base64 with UTF-32 unit 0xD800",
         v2_layout.fill_value_from_v2_json(&bad_unit), "o.s", &bad_unit),
        ("ref §3.1/§3.2: a nested member given as legacy base64 keeps its full path o.b",
         nested_type.fill_value_from_v3_json(&nested_fill, None).map(Some), "o.b", &nested_member),
    ];
    // Every row is checked and every failure reported together.
    let failures: Vec<String> = rows
        .into_iter()
        .filter_map(|(rule, result, path, shown)| {
            let error = result.expect_err(rule);
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                check_error(rule, &error, "InvalidFillValue", path, &[shown.to_string()]);
            }))
            .err()
            .map(|_| format!("[{rule}] got {error:?}: {error}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
