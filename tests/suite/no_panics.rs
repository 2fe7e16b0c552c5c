//! No input makes the parsers or decoders panic: arbitrary JSON (built from the words the
//! formats use, so that it gets deep into the parsers) and arbitrary bytes give errors or
//! values, never a panic.

#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use serde_json::{Map, Value as Json};
use zarrdt::Endian;
use zarrdt::layout::Layout;
use zarrdt::metadata::{ArrayMetadataV2, ArrayMetadataV3, BytesCodec};
use zarrdt::types::{DataType, ScalarType};

const WORDS: &[&str] = &[
    "struct",
    "structured",
    "fields",
    "name",
    "data_type",
    "configuration",
    "endian",
    "little",
    "big",
    "bytes",
    "int32",
    "uint8",
    "bool",
    "float16",
    "float64",
    "complex64",
    "r8",
    "r24",
    "r0",
    "r7",
    "numpy.datetime64",
    "numpy.timedelta64",
    "unit",
    "scale_factor",
    "s",
    "ms",
    "generic",
    "fixed_length_utf32",
    "raw_bytes",
    "null_terminated_bytes",
    "length_bytes",
    "string",
    "<i4",
    ">f8",
    "|b1",
    "|V3",
    "<U2",
    "|S2",
    "<M8[10s]",
    "<c16",
    "",
    "a",
    "b",
    "NaN",
    "Infinity",
    "-Infinity",
    "0x7fc00000",
    "0x3c00",
    "NaT",
    "AQID",
    "AAAAAA==",
    "zarr_format",
    "node_type",
    "array",
    "shape",
    "chunk_grid",
    "regular",
    "chunk_shape",
    "chunk_key_encoding",
    "default",
    "v2",
    "separator",
    "/",
    ".",
    "fill_value",
    "codecs",
    "dtype",
    "chunks",
    "order",
    "C",
    "compressor",
    "filters",
    "dimension_separator",
];

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(WORDS).prop_map(str::to_owned),
        1 => "[a-z0-9<>|\\[\\]]{0,6}",
    ]
}

fn json() -> impl Strategy<Value = Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::from),
        (-300i64..300).prop_map(Json::from),
        any::<u64>().prop_map(Json::from),
        any::<i64>().prop_map(Json::from),
        any::<f64>()
            .prop_filter("finite", |x| x.is_finite())
            .prop_map(Json::from),
        word().prop_map(Json::from),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Json::Array),
            prop::collection::vec((word(), inner), 0..5)
                .prop_map(|members| Json::Object(members.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn every_parser(json: &Json) {
    let _ = DataType::from_v3_json(json);
    let _ = Layout::from_v2_json(json);
    let _ = BytesCodec::from_json(json);
    let _ = ArrayMetadataV3::from_json(json);
    let _ = ArrayMetadataV2::from_json(json);
    if let Some(text) = json.as_str() {
        let _ = ScalarType::from_typestr(text);
    }
    for scalar in [
        ScalarType::Bool,
        ScalarType::UInt8,
        ScalarType::Int64,
        ScalarType::Float16,
        ScalarType::Complex128,
        ScalarType::raw_bits(24).unwrap(),
    ] {
        let data_type = DataType::from(scalar);
        if let Ok(value) = data_type.fill_value_from_v3_json(json, None) {
            data_type.fill_value_to_v3_json(&value).unwrap();
        }
    }
}

proptest! {
    #![proptest_config(crate::common::random::config_of(2000))]

    #[test]
    fn arbitrary_json_is_an_error_or_a_value(json in json()) {
        every_parser(&json);
        // As a data type, its fill values and chunks too.
        if let Ok(data_type) = DataType::from_v3_json(&json) {
            let _ = data_type.fill_value_from_v3_json(&json, None);
            let _ = data_type.fill_value_from_v3_json(&Json::from("AAAAAAAAAAAAAAAA"), Some(Endian::Big));
        }
        if let Ok(layout) = Layout::from_v2_json(&json) {
            let _ = layout.fill_value_from_v2_json(&json);
            let _ = layout.to_v3();
            let _ = layout.to_v2_json();
        }
    }

    #[test]
    fn arbitrary_bytes_decode_to_an_error_or_values(
        descr in prop::sample::select(vec![
            r#"[["a","<i4"],["f","|b1"],["s","<U2"],["", "|V1"],["z","<f2",[2,2]],["n",[["c",">c8"],["t",">M8[s]"]]]]"#,
            r#"[["b","|b1"]]"#,
            r#""<U3""#,
        ]),
        bytes in prop::collection::vec(any::<u8>(), 0..200),
    ) {
        let layout = Layout::from_v2_json(&serde_json::from_str(descr).unwrap()).unwrap();
        if let Ok(values) = layout.decode_values(&bytes) {
            let encoded = layout.encode_values(&values).unwrap();
            prop_assert_eq!(layout.decode_values(&encoded).unwrap(), values);
        }
        let _ = layout.decode_value(&bytes);
        let mut copy = bytes.clone();
        let _ = layout.convert_byte_order(&mut copy, Endian::Big);
    }
}
