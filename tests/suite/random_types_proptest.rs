//! Property tests on random data types (issue 12): every field kind (each core scalar,
//! float16 and complex included, `r<N>`, `numpy.datetime64`, `numpy.timedelta64`,
//! `fixed_length_utf32`, `raw_bytes`, `null_terminated_bytes`, arrays), nested up to four
//! levels, with random field names.
//!
//! * a data type → its v3 JSON (as text too) → the same data type, and the same JSON;
//! * its layout in either byte order → the v2 `dtype` → the same layout, and back to the same
//!   v3 data type where it has one (a type with arrays becomes NumPy subarrays in v2, which
//!   have no v3 form: they stay layouts; `r<N>` is `|V<n>` in v2, read back as `raw_bytes`);
//! * random values (floats as random bit patterns: NaN payloads, -0.0, extremes) → bytes in
//!   either byte order, through the layout, the `bytes` codec and the v2 layout → the same
//!   values, bit for bit; the two byte orders differ exactly by the byte-order conversion;
//! * the same values → fill value JSON (v3, and v2 base64 for structs) → the same values, and
//!   through the value JSON every dump and fill uses.

#![allow(clippy::unwrap_used)]

use crate::common;

use common::random::{config, data_type, depth, typed_values};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::Value as Json;
use zarrdt::layout::{Layout, ScalarLayout};
use zarrdt::metadata::BytesCodec;
use zarrdt::types::{DataType, ScalarType, TimeUnit};
use zarrdt::value::Value;
use zarrdt::{Endian, Error};

const ENDIANS: [Endian; 2] = [Endian::Little, Endian::Big];

/// Whether the data type holds an array type anywhere.
fn has_array(data_type: &DataType) -> bool {
    match data_type {
        DataType::Subarray(_) => true,
        DataType::Struct(structure) => structure
            .fields()
            .iter()
            .any(|field| has_array(&field.data_type())),
        _ => false,
    }
}

fn v3_round_trip(data_type: &DataType) -> Result<(), TestCaseError> {
    let json = data_type.to_v3_json();
    let back = DataType::from_v3_json(&json).unwrap();
    prop_assert_eq!(&back, data_type);
    prop_assert_eq!(back.to_v3_json(), json.clone(), "the same JSON");
    prop_assert_eq!(back.size(), data_type.size());
    // Through the text of a zarr.json.
    let text = serde_json::to_string(&json).unwrap();
    let parsed: Json = serde_json::from_str(&text).unwrap();
    prop_assert_eq!(&DataType::from_v3_json(&parsed).unwrap(), data_type);
    Ok(())
}

/// Whether the data type holds a datetime or timedelta of the generic unit with a scale
/// factor, which Zarr v3 allows and NumPy typestrs cannot say.
fn has_scaled_generic(data_type: &DataType) -> bool {
    data_type.leaves().iter().any(|leaf| match leaf.scalar() {
        ScalarType::DateTime64(time) | ScalarType::TimeDelta64(time) => {
            time.unit() == TimeUnit::Generic && time.scale_factor() > 1
        }
        _ => false,
    })
}

/// Whether the data type holds an `r<N>` leaf, which Zarr v2 writes as `|V<n>`, read back as
/// `raw_bytes` (as zarr-python 3 reads it): the same bytes, another type.
fn has_raw_bits(data_type: &DataType) -> bool {
    data_type
        .leaves()
        .iter()
        .any(|leaf| matches!(leaf.scalar(), ScalarType::Raw { .. }))
}

/// The leaves of a layout (path, offset, repeats, scalar layout) with `r<N>` as `raw_bytes`.
fn leaves_as_v2(layout: &Layout) -> Vec<String> {
    layout
        .leaves()
        .iter()
        .map(|leaf| {
            let mut scalar = leaf.layout();
            if let ScalarType::Raw { size } = scalar.scalar() {
                scalar =
                    ScalarLayout::new(ScalarType::raw_bytes(size.get()).unwrap(), None).unwrap();
            }
            format!(
                "{} @{} {:?} {:?}",
                leaf.path(),
                leaf.offset(),
                leaf.repeats(),
                scalar
            )
        })
        .collect()
}

fn v2_round_trip(data_type: &DataType) -> Result<(), TestCaseError> {
    for endian in ENDIANS {
        let layout = Layout::from_data_type(data_type, Some(endian)).unwrap();
        let descr = match layout.to_v2_json() {
            Ok(descr) => descr,
            // A bare array has no v2 dtype (a subarray is only a field).
            Err(Error::Unrepresentable { .. }) if matches!(data_type, DataType::Subarray(_)) => {
                continue;
            }
            // NumPy has no scaled generic time unit (`m8[2generic]`).
            Err(Error::Unrepresentable { reason, .. }) if has_scaled_generic(data_type) => {
                prop_assert!(reason.contains("generic"), "{}", reason);
                continue;
            }
            Err(error) => return Err(TestCaseError::fail(format!("{data_type}: {error}"))),
        };
        let back = Layout::from_v2_json(&descr).unwrap();
        if has_raw_bits(data_type) {
            prop_assert_eq!(leaves_as_v2(&back), leaves_as_v2(&layout), "{}", descr);
        } else {
            prop_assert_eq!(&back, &layout, "{} endian: {}", endian, descr);
        }
        prop_assert_eq!(back.to_v2_json().unwrap(), descr.clone());
        if !has_array(data_type) && !has_raw_bits(data_type) {
            let (v3, read_endian) = back.to_v3().unwrap();
            prop_assert_eq!(&v3, data_type, "{}", descr);
            if data_type.has_endianness() {
                prop_assert_eq!(read_endian, Some(endian));
            }
        }
    }
    Ok(())
}

fn bytes_round_trip(data_type: &DataType, values: &[Value]) -> Result<(), TestCaseError> {
    let mut encoded = Vec::new();
    for endian in ENDIANS {
        let layout = Layout::from_data_type(data_type, Some(endian)).unwrap();
        let bytes = layout.encode_values(values).unwrap();
        prop_assert_eq!(bytes.len(), values.len() * data_type.size());
        let decoded = layout.decode_values(&bytes).unwrap();
        prop_assert_eq!(&decoded, values, "{} endian", endian);
        prop_assert_eq!(&layout.encode_values(&decoded).unwrap(), &bytes);
        // The bytes codec of the v3 array.
        let codec = BytesCodec::new(Some(endian));
        prop_assert_eq!(&codec.encode_values(data_type, values).unwrap(), &bytes);
        prop_assert_eq!(&codec.decode_values(data_type, &bytes).unwrap(), values);
        // One at a time.
        for (index, value) in values.iter().enumerate() {
            let size = data_type.size();
            let one = layout.encode_value(value).unwrap();
            prop_assert_eq!(&one[..], &bytes[index * size..(index + 1) * size]);
            prop_assert_eq!(&layout.decode_value(&one).unwrap(), value);
        }
        // The v2 layout reads the same bytes as the same values.
        if let Ok(descr) = layout.to_v2_json() {
            let v2 = Layout::from_v2_json(&descr).unwrap();
            prop_assert_eq!(&v2.decode_values(&bytes).unwrap(), values);
            prop_assert_eq!(&v2.encode_values(values).unwrap(), &bytes);
        }
        encoded.push((layout, bytes));
    }
    // The two byte orders differ by the byte-order conversion, both ways.
    let (little_layout, little) = &encoded[0];
    let (big_layout, big) = &encoded[1];
    let mut converted = little.clone();
    little_layout
        .convert_byte_order(&mut converted, Endian::Big)
        .unwrap();
    prop_assert_eq!(&converted, big);
    big_layout
        .convert_byte_order(&mut converted, Endian::Little)
        .unwrap();
    prop_assert_eq!(&converted, little);
    if !data_type.has_endianness() {
        prop_assert_eq!(little, big);
    }
    Ok(())
}

fn fill_round_trip(data_type: &DataType, values: &[Value]) -> Result<(), TestCaseError> {
    let layout = Layout::from_data_type(data_type, Some(Endian::Little)).unwrap();
    for value in values {
        let json = data_type.fill_value_to_v3_json(value).unwrap();
        prop_assert_eq!(
            &data_type.fill_value_from_v3_json(&json, None).unwrap(),
            value,
            "{}",
            json
        );
        // Through the text of a zarr.json.
        let text = serde_json::to_string(&json).unwrap();
        let parsed: Json = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(
            &data_type.fill_value_from_v3_json(&parsed, None).unwrap(),
            value
        );
        // The value JSON of dumps and fills of every layout.
        let json = layout.value_to_json(value).unwrap();
        prop_assert_eq!(&layout.value_from_json(&json).unwrap(), value, "{}", json);
        // v2: a struct's fill is its record, base64, in the layout's byte orders.
        if matches!(data_type, DataType::Struct(_)) {
            for endian in ENDIANS {
                let layout = Layout::from_data_type(data_type, Some(endian)).unwrap();
                let json = layout.fill_value_to_v2_json(Some(value)).unwrap();
                prop_assert!(json.is_string(), "base64: {}", json);
                let back = layout.fill_value_from_v2_json(&json).unwrap();
                prop_assert_eq!(back.as_ref(), Some(value), "{}", json);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn data_types_round_trip_through_v3_and_v2_json(data_type in data_type()) {
        v3_round_trip(&data_type)?;
        v2_round_trip(&data_type)?;
    }

    #[test]
    fn values_round_trip_through_bytes_bit_exactly((data_type, values) in typed_values()) {
        bytes_round_trip(&data_type, &values)?;
    }

    #[test]
    fn values_round_trip_through_fill_value_json((data_type, values) in typed_values()) {
        fill_round_trip(&data_type, &values)?;
    }
}

/// The generator does produce what the properties are about: four levels of nesting, every
/// scalar kind, arrays, and special float bits in values.
#[test]
fn the_generator_covers_every_field_kind() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut deepest = 0;
    let mut names = std::collections::BTreeSet::new();
    let mut arrays = false;
    for _ in 0..2000 {
        let data_type = data_type().new_tree(&mut runner).unwrap().current();
        deepest = deepest.max(depth(&data_type));
        arrays |= has_array(&data_type);
        for leaf in data_type.leaves() {
            let name = leaf.scalar().name();
            let kind = match name.as_bytes() {
                [b'r', rest @ ..] if rest.iter().all(u8::is_ascii_digit) => "r<N>".to_owned(),
                _ => name,
            };
            names.insert(kind);
        }
    }
    assert!(deepest >= 5, "nested {deepest} deep (a scalar is 1)");
    assert!(arrays);
    let expected = [
        "bool",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float16",
        "float32",
        "float64",
        "complex64",
        "complex128",
        "r<N>",
        "numpy.datetime64",
        "numpy.timedelta64",
        "fixed_length_utf32",
        "raw_bytes",
        "null_terminated_bytes",
    ];
    for name in expected {
        assert!(names.contains(name), "{name} never generated: {names:?}");
    }
    // Values: a NaN with a payload and a negative zero among float64 leaves.
    let (mut payload, mut negative_zero) = (false, false);
    for _ in 0..3000 {
        let (_, values) = typed_values().new_tree(&mut runner).unwrap().current();
        let mut stack = values;
        while let Some(value) = stack.pop() {
            match value {
                Value::Float64(x) => {
                    payload |= x.is_nan() && x.to_bits() & 0x0007_ffff_ffff_ffff != 0;
                    negative_zero |= x.to_bits() == 0x8000_0000_0000_0000;
                }
                Value::Record(record) => {
                    stack.extend(record.into_fields().into_iter().map(|(_, v)| v));
                }
                Value::Subarray(array) => stack.extend(array.iter().map(|v| v.into_owned())),
                _ => {}
            }
        }
    }
    assert!(payload && negative_zero);
}
