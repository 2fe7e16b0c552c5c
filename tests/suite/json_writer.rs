//! [`JsonWriter`], the streaming writer `zarrdt dump` and the value trees share, on random
//! data types of every field kind (nested up to four levels) and random values (floats as
//! random bit patterns), with each record's bytes in either byte order:
//!
//! * the text it writes is, parsed, what [`Layout::value_to_json`] gives for the value, and
//!   the same whichever byte order the bytes are in;
//! * that text reads back, through the value JSON reader (the spec's forms, written
//!   independently of the writer), as the same value, bit for bit;
//! * [`JsonWriter::for_each_leaf`] gives each leaf's bytes and the text the whole element has
//!   for it, in order;
//! * bytes that are no value (a `bool` byte of 2, a UTF-32 surrogate) are errors naming the
//!   leaf's field path and byte offset, in both byte orders.

use crate::common;

use common::random::{config, typed_values};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde_json::Value as Json;
use zarrdt::layout::{Layout, Leaf};
use zarrdt::types::{DataType, ScalarType};
use zarrdt::value::{JsonWriteError, JsonWriter, Value};
use zarrdt::{Endian, Error};

const ENDIANS: [Endian; 2] = [Endian::Little, Endian::Big];

/// The leaves of `json`, the value JSON of an element of `layout`, in the order they are
/// written.
fn json_leaves<'j>(layout: &Layout, json: &'j Json, out: &mut Vec<&'j Json>) {
    match layout {
        Layout::Struct(structure) => {
            for field in structure.fields() {
                json_leaves(field.layout(), &json[field.name()], out);
            }
        }
        Layout::Subarray(array) => {
            let mut items = vec![json];
            for _ in array.shape() {
                items = items
                    .into_iter()
                    .flat_map(|item| item.as_array().unwrap())
                    .collect();
            }
            for item in items {
                json_leaves(array.element(), item, out);
            }
        }
        _ => out.push(json),
    }
}

fn written(data_type: &DataType, values: &[Value]) -> Result<(), TestCaseError> {
    let mut texts: Vec<String> = Vec::new();
    for endian in ENDIANS {
        let layout = Layout::from_data_type(data_type, Some(endian)).unwrap();
        let writer = JsonWriter::new(&layout);
        prop_assert_eq!(writer.size(), layout.size());
        for (index, value) in values.iter().enumerate() {
            let bytes = layout.encode_value(value).unwrap();
            let mut out = Vec::new();
            writer.write(&bytes, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            let parsed: Json = serde_json::from_str(&text).unwrap();
            prop_assert_eq!(&parsed, &layout.value_to_json(value).unwrap(), "{}", text);
            prop_assert_eq!(&layout.value_from_json(&parsed).unwrap(), value, "{}", text);
            // One leaf at a time: its bytes, and the text the element has for it.
            let mut expected = Vec::new();
            json_leaves(&layout, &parsed, &mut expected);
            let mut leaves = Vec::new();
            writer
                .for_each_leaf(&bytes, |leaf, raw, json| {
                    leaves.push((leaf, raw.to_vec(), json.to_owned()));
                })
                .unwrap();
            prop_assert_eq!(leaves.len(), expected.len());
            for ((leaf, raw, json), expected) in leaves.iter().zip(expected) {
                prop_assert_eq!(raw.len(), leaf.scalar().size());
                prop_assert_eq!(leaf.endian().unwrap_or(endian), endian);
                prop_assert_eq!(&serde_json::from_str::<Json>(json).unwrap(), expected);
            }
            match endian {
                Endian::Little => texts.push(text),
                Endian::Big => prop_assert_eq!(&text, &texts[index], "the same in both orders"),
            }
        }
    }
    Ok(())
}

/// The copies of `leaf` in an element: their byte offsets.
fn copies(leaf: &Leaf) -> Vec<usize> {
    let mut offsets = vec![leaf.offset()];
    for repeat in leaf.repeats() {
        offsets = offsets
            .iter()
            .flat_map(|&base| (0..repeat.count()).map(move |i| base + i * repeat.stride()))
            .collect();
    }
    offsets
}

/// Every copy of every `bool` and UTF-32 leaf, made invalid in turn, in the first value of
/// `data_type`: the error names that copy's path and offset, written whole or leaf by leaf.
fn invalid(data_type: &DataType, values: &[Value]) -> Result<(), TestCaseError> {
    let Some(value) = values.first() else {
        return Ok(());
    };
    for endian in ENDIANS {
        let layout = Layout::from_data_type(data_type, Some(endian)).unwrap();
        let writer = JsonWriter::new(&layout);
        let valid = layout.encode_value(value).unwrap();
        for leaf in layout.leaves() {
            let bad: Vec<u8> = match leaf.scalar() {
                ScalarType::Bool => vec![2],
                ScalarType::FixedLengthUtf32 { .. } => match endian {
                    Endian::Little => 0xd800u32.to_le_bytes().to_vec(),
                    Endian::Big => 0xd800u32.to_be_bytes().to_vec(),
                },
                _ => continue,
            };
            for at in copies(&leaf) {
                let mut bytes = valid.clone();
                bytes[at..at + bad.len()].copy_from_slice(&bad);
                // What the library's decoder says about the same bytes: the path and offset.
                let Err(Error::InvalidElement {
                    path: want_path,
                    offset: want_offset,
                    ..
                }) = layout.decode_value(&bytes)
                else {
                    return Err(TestCaseError::fail("the decoder takes the bad bytes"));
                };
                prop_assert_eq!(want_offset, at);
                let whole = writer.write(&bytes, &mut Vec::new()).unwrap_err();
                let JsonWriteError::Invalid(Error::InvalidElement { path, offset, .. }) = whole
                else {
                    return Err(TestCaseError::fail(format!("{whole:?}")));
                };
                prop_assert_eq!((&path, offset), (&want_path, at));
                let by_leaf = writer.for_each_leaf(&bytes, |_, _, _| {}).unwrap_err();
                let Error::InvalidElement { path, offset, .. } = by_leaf else {
                    return Err(TestCaseError::fail(format!("{by_leaf:?}")));
                };
                prop_assert_eq!((&path, offset), (&want_path, at));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_writer_writes_value_json_from_bytes_in_either_order((data_type, values) in typed_values()) {
        written(&data_type, &values)?;
    }

    #[test]
    fn invalid_bytes_are_errors_naming_the_leaf((data_type, values) in typed_values()) {
        invalid(&data_type, &values)?;
    }
}
