//! A fill value for a fuzzed data type. The input is one JSON document `[TYPE, FILL]`; `TYPE`
//! is read as a v3 data type and as a v2 `dtype`, and `FILL` as each one's fill value (v3:
//! plain and with either codec endian; v2) and as an element value (`Layout::value_from_json`).
//! What reads is written and read back as itself.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value as Json;
use zarrdt::Endian;

fuzz_target!(|data: &[u8]| {
    let Ok(Json::Array(parts)) = serde_json::from_slice::<Json>(data) else {
        return;
    };
    let [type_json, fill] = parts.as_slice() else {
        return;
    };
    let parsed = zarrdt_fuzz::parse_type(type_json);
    if let Some(data_type) = &parsed.v3 {
        for endian in [None, Some(Endian::Little), Some(Endian::Big)] {
            let value = match data_type.fill_value_from_v3_json(fill, endian) {
                Ok(value) => value,
                Err(error) => {
                    zarrdt_fuzz::check_error(&error, data.len());
                    continue;
                }
            };
            let written = data_type
                .fill_value_to_v3_json(&value)
                .unwrap_or_else(|e| panic!("fill {fill} of {type_json} read but not written: {e}"));
            let back = data_type
                .fill_value_from_v3_json(&written, endian)
                .unwrap_or_else(|e| {
                    panic!("written fill {written} of {type_json} does not read: {e}")
                });
            assert_eq!(
                back, value,
                "fill {fill} of {type_json} written as {written} reads as another"
            );
        }
    }
    for layout in &parsed.layouts {
        let element = layout.value_from_json(fill);
        if let Err(error) = &element {
            zarrdt_fuzz::check_error(error, data.len());
        }
        if let Ok(value) = element {
            zarrdt_fuzz::check_value_json(layout, &value);
            // The value encodes to one element, which decodes to the value (for elements of at
            // most 64 KiB: the harness's buffer is the element's size, whatever the input's).
            if layout.size() > 64 << 10 {
                continue;
            }
            let bytes = layout
                .encode_value(&value)
                .unwrap_or_else(|e| panic!("value {fill} of {type_json} not encoded: {e}"));
            assert_eq!(bytes.len(), layout.size());
            let decoded = layout.decode_value(&bytes).expect("encoded value decodes");
            assert_eq!(decoded, value, "value {fill} of {type_json} through bytes");
        }
        if let Ok(Some(value)) = layout.fill_value_from_v2_json(fill) {
            // v2 writes only the canonical NaN of a scalar type; anything else it writes reads back.
            if let Ok(written) = layout.fill_value_to_v2_json(Some(&value)) {
                let back = layout.fill_value_from_v2_json(&written).unwrap_or_else(|e| {
                    panic!("written v2 fill {written} of {type_json} does not read: {e}")
                });
                assert_eq!(
                    back.as_ref(),
                    Some(&value),
                    "v2 fill {fill} of {type_json} written as {written}"
                );
            }
        }
    }
});
