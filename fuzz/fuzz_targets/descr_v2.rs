//! A Zarr v2 `dtype` (NumPy `descr`) JSON: parsed, and if it parses, written and parsed again to
//! the same layout (and through its v3 view, if it has one).

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value as Json;
use zarrdt::layout::Layout;

fuzz_target!(|data: &[u8]| {
    let Ok(json) = serde_json::from_slice::<Json>(data) else {
        return;
    };
    let layout = match Layout::from_v2_json(&json) {
        Ok(layout) => layout,
        Err(error) => return zarrdt_fuzz::check_error(&error, data.len()),
    };
    zarrdt_fuzz::check_v2_identity(&layout);
    // The zero element is materialised (a `Vec` of its bytes for raw types, and ~70 bytes of
    // JSON per byte when written): only for elements of at most 64 KiB, so that the 256 MB
    // limit measures the library, not this check.
    if layout.size() > 64 << 10 {
        return;
    }
    let zero = layout.zero_value();
    let fill = layout
        .fill_value_to_v2_json(Some(&zero))
        .unwrap_or_else(|e| panic!("zero value of {json} not written: {e}"));
    let back = layout
        .fill_value_from_v2_json(&fill)
        .unwrap_or_else(|e| panic!("fill {fill} of {json} does not read: {e}"));
    assert_eq!(
        back.as_ref(),
        Some(&zero),
        "fill {fill} of {json} reads as another value"
    );
    zarrdt_fuzz::check_value_json(&layout, &zero);
});
