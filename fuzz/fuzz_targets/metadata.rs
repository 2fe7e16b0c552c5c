//! A whole `zarr.json` or `.zarray` document: parsed by both readers, and what parses is
//! written and parsed again to the same metadata.

#![no_main]

use libfuzzer_sys::fuzz_target;
use zarrdt::metadata::{ArrayMetadataV2, ArrayMetadataV3};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let v3 = ArrayMetadataV3::from_json_str(text);
    if let Err(error) = &v3 {
        zarrdt_fuzz::check_error(error, data.len());
    }
    if let Ok(meta) = v3 {
        // Writing the fill value back takes memory in proportion to the element (a v2 fill is
        // base64 of it): checked for elements of at most 64 KiB.
        if meta.data_type.size() > 64 << 10 {
            return;
        }
        let written = meta
            .to_json()
            .unwrap_or_else(|e| panic!("parsed zarr.json not written: {e}"));
        let back = ArrayMetadataV3::from_json(&written)
            .unwrap_or_else(|e| panic!("written zarr.json {written} does not parse: {e}"));
        // Writing normalises the legacy `structured` form and a missing `endian`; after that,
        // everything is kept.
        assert_eq!(back.shape, meta.shape);
        assert_eq!(back.chunk_shape, meta.chunk_shape);
        assert_eq!(back.data_type, meta.data_type);
        assert_eq!(
            back.fill_value, meta.fill_value,
            "fill value changed through {written}"
        );
        assert_eq!(back.separator, meta.separator);
        assert_eq!(back.v2_chunk_keys, meta.v2_chunk_keys);
        assert_eq!(back.attributes, meta.attributes);
        assert_eq!(back.dimension_names, meta.dimension_names);
        // The byte order chunks are read in (written only for types that have one).
        if meta.data_type.has_endianness() {
            assert_eq!(
                back.bytes_codec.map(|c| c.read_endian()),
                meta.bytes_codec.map(|c| c.read_endian())
            );
        }
        let again = back.to_json().expect("written twice");
        assert_eq!(again, written, "zarr.json not stable");
        let _ = meta.layout();
    }
    let v2 = ArrayMetadataV2::from_json_str(text);
    if let Err(error) = &v2 {
        zarrdt_fuzz::check_error(error, data.len());
    }
    if let Ok(meta) = v2 {
        if meta.layout.size() > 64 << 10 {
            return;
        }
        // A fill value v2 cannot write (a NaN other than the canonical one) is an error.
        let Ok(written) = meta.to_json() else {
            return;
        };
        let back = ArrayMetadataV2::from_json(&written)
            .unwrap_or_else(|e| panic!("written .zarray {written} does not parse: {e}"));
        assert_eq!(
            back, meta,
            "written .zarray {written} reads as other metadata"
        );
        assert_eq!(
            back.to_json().expect("written twice"),
            written,
            ".zarray not stable"
        );
    }
});
