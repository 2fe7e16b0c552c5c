//! A Zarr v3 `data_type` JSON: parsed, and if it parses, written and parsed again to the same
//! data type (and its layouts, v2 dtype and zero value with it).

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value as Json;
use zarrdt::Endian;
use zarrdt::layout::Layout;
use zarrdt::types::DataType;

fuzz_target!(|data: &[u8]| {
    let Ok(json) = serde_json::from_slice::<Json>(data) else {
        return;
    };
    let data_type = match DataType::from_v3_json(&json) {
        Ok(data_type) => data_type,
        Err(error) => return zarrdt_fuzz::check_error(&error, data.len()),
    };
    zarrdt_fuzz::check_v3_identity(&data_type);
    // The zero element is materialised (a `Vec` of its bytes for raw types, and ~70 bytes of
    // JSON per byte when written): only for elements of at most 64 KiB, so that the 256 MB
    // limit measures the library, not this check.
    if data_type.size() > 64 << 10 {
        return;
    }
    // The all-zero element is a value of the type, written and read back as itself.
    let layout = Layout::from_data_type(&data_type, Some(Endian::Little)).expect("layout");
    let zero = layout.zero_value();
    let fill = data_type
        .fill_value_to_v3_json(&zero)
        .unwrap_or_else(|e| panic!("zero value of {json} not written: {e}"));
    let back = data_type
        .fill_value_from_v3_json(&fill, None)
        .unwrap_or_else(|e| panic!("fill {fill} of {json} does not read: {e}"));
    assert_eq!(back, zero, "fill {fill} of {json} reads as another value");
    zarrdt_fuzz::check_value_json(&layout, &zero);
});
