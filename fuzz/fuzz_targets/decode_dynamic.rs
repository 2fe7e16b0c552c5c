//! Chunks of arbitrary bytes decoded as a fuzzed data type, the dynamic path. The input is
//! `TYPE NUL CHUNK`: `TYPE` (JSON) is read as a v3 data type (stored little- and big-endian)
//! and as a v2 `dtype`, and `CHUNK` decoded as elements of each:
//!
//! * `Layout::decode_values`, and for v3 `BytesCodec::decode_values` in both byte orders;
//! * what decodes encodes back to the same bytes (padding aside) and each element's JSON reads
//!   back as itself;
//! * `ByteOrderConversion::apply` to either order: its own inverse, and the converted chunk
//!   decodes (in the converted layout) to the same values;
//! * `Layout::decode_field` of every leaf outside subarrays equals that field of the decoded
//!   records.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value as Json;
use zarrdt::Endian;
use zarrdt::layout::ByteOrderConversion;
use zarrdt::metadata::BytesCodec;

fuzz_target!(|data: &[u8]| {
    let (text, chunk) = zarrdt_fuzz::split_nul(data);
    let Ok(type_json) = serde_json::from_slice::<Json>(text) else {
        return;
    };
    let parsed = zarrdt_fuzz::parse_type(&type_json);
    if let Some(data_type) = &parsed.v3 {
        for endian in [Endian::Little, Endian::Big] {
            let codec = BytesCodec::new(Some(endian));
            if let Ok(values) = codec.decode_values(data_type, chunk) {
                let bytes = codec
                    .encode_values(data_type, &values)
                    .unwrap_or_else(|e| panic!("decoded {type_json} chunk not encoded: {e}"));
                // A v3 type is packed: every byte is a value's.
                assert_eq!(
                    bytes, chunk,
                    "{type_json} chunk changed through values ({endian:?})"
                );
            }
        }
    }
    for layout in &parsed.layouts {
        let decoded = layout.decode_values(chunk);
        if let Err(error) = &decoded {
            zarrdt_fuzz::check_error(error, data.len());
        }
        if let Ok(values) = &decoded {
            let bytes = layout
                .encode_values(values)
                .unwrap_or_else(|e| panic!("decoded {type_json} chunk not encoded: {e}"));
            assert_eq!(bytes.len(), chunk.len());
            if !layout.has_padding() {
                assert_eq!(bytes, chunk, "{type_json} chunk changed through values");
            }
            for value in values.iter().take(4) {
                zarrdt_fuzz::check_value_json(layout, value);
            }
        }
        for target in [Endian::Little, Endian::Big] {
            let conversion = ByteOrderConversion::new(layout, target);
            let mut converted = chunk.to_vec();
            match conversion.apply(&mut converted) {
                Err(_) => {
                    assert!(
                        decoded.is_err(),
                        "{type_json}: chunk decodes but does not convert"
                    );
                    assert_eq!(converted, chunk, "a failed conversion changed the chunk");
                    continue;
                }
                Ok(()) => {}
            }
            let target_layout = layout.with_endian(target);
            match (&decoded, target_layout.decode_values(&converted)) {
                (Ok(values), Ok(again)) => {
                    assert_eq!(
                        values, &again,
                        "{type_json}: converted to {target:?}, other values"
                    )
                }
                (Err(_), Err(_)) => {}
                (a, b) => panic!(
                    "{type_json}: decode {:?} but converted decode {:?}",
                    a.as_ref().err(),
                    b.err()
                ),
            }
            let mut back = converted.clone();
            conversion.apply(&mut back).expect("converts back");
            if conversion.is_identity() {
                assert_eq!(converted, chunk);
            }
            let mut again = chunk.to_vec();
            layout
                .convert_byte_order(&mut again, target)
                .expect("converts as the planned conversion does");
            assert_eq!(
                again, converted,
                "{type_json}: convert_byte_order differs from the plan"
            );
            assert_eq!(
                back, chunk,
                "{type_json}: conversion to {target:?} is not its own inverse"
            );
        }
        for leaf in layout.leaves().iter().take(16) {
            if !leaf.repeats().is_empty() {
                continue;
            }
            if let Some(path) = zarrdt_fuzz::field_names(leaf.path()) {
                zarrdt_fuzz::check_field(layout, chunk, &path, leaf.scalar());
            }
        }
    }
});
