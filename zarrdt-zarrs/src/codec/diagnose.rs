//! Which codec of an array zarrs could not create, and what would read it: when opening an
//! array fails, its metadata's codecs are created one by one (inside `sharding_indexed` too),
//! and the first that fails is named with its configuration, the array's path, and the
//! zarrdt codec or feature that reads it, or why none does. And the codecs zarrs creates but
//! decodes differently from zarr-python ([`misread_v3`], [`misread_v2`]), refused before the
//! array opens.

use serde_json::Value as Json;
use zarrs::array::codec::api::Codec;
use zarrs::metadata::v2::MetadataV2;
use zarrs::metadata::v3::MetadataV3;
use zarrs::plugin::PluginCreateError;

use crate::Error;

/// The error of the first compressor or filter of the v2 metadata `document` (of the array
/// at `path`) that zarrs cannot create, if one cannot be.
pub(crate) fn v2(path: &str, document: &Json) -> Option<Error> {
    for codec in v2_codecs(document) {
        let id = codec["id"].as_str().unwrap_or_default();
        // zarrs converts these by their ids, not through a codec plugin; blosc through the
        // data type (its type size), so that made alone it always fails, whatever the reason
        // the array did not open.
        if matches!(id, "vlen-utf8" | "vlen-bytes" | "vlen-array" | "blosc") {
            continue;
        }
        let Ok(metadata) = serde_json::from_value::<MetadataV2>(codec.clone()) else {
            continue;
        };
        if let Err(error) = Codec::from_metadata(&metadata) {
            return Some(refusal(path, id, codec, &error));
        }
    }
    None
}

/// Why zarrs would decode the codec `name` (a v3 name or v2 id) to values other than
/// zarr-python's, if it would.
///
/// `fixedscaleoffset`: numcodecs decodes `enc / scale + offset` in `float64` (in the encoded
/// type where that is a float) and casts the result to the array's type; zarrs 0.23 keeps
/// `scale` and `offset` as `float32` and takes every value through `float32`, so that an
/// `<f8` array of 479683.123 reads as 479683.136.
fn misread(name: &str) -> Option<&'static str> {
    match name.strip_prefix("numcodecs.").unwrap_or(name) {
        "fixedscaleoffset" => Some(
            "zarrs decodes fixedscaleoffset with its scale and offset rounded to float32 and \
             every value taken through float32, where numcodecs (zarr-python) computes in \
             float64: the values would differ from zarr-python's, so zarrdt does not read it",
        ),
        _ => None,
    }
}

/// The error of the first codec of the v3 metadata `document` (of the array at `path`,
/// inside `sharding_indexed` too) that zarrs would decode to other values than
/// zarr-python's, if there is one.
pub(crate) fn misread_v3(path: &str, document: &Json) -> Option<Error> {
    first_in_v3(&document["codecs"], &mut |codec| {
        let name = codec.as_str().or_else(|| codec["name"].as_str())?;
        misread(name).map(|reason| misread_error(path, codec, reason))
    })
}

/// The error of the first v2 filter or compressor of `document` (of the array at `path`)
/// that zarrs would decode to other values than zarr-python's, if there is one.
pub(crate) fn misread_v2(path: &str, document: &Json) -> Option<Error> {
    v2_codecs(document).find_map(|codec| {
        let id = codec["id"].as_str()?;
        misread(id).map(|reason| misread_error(path, codec, reason))
    })
}

/// The filters, then the compressor, of the v2 metadata `document`.
fn v2_codecs(document: &Json) -> impl Iterator<Item = &Json> {
    let filters = document["filters"].as_array().into_iter().flatten();
    let compressor = Some(&document["compressor"]).filter(|c| !c.is_null());
    filters.chain(compressor)
}

/// The first error `check` finds in the v3 codec list `codecs`: a `sharding_indexed` codec's
/// inner codecs and index codecs before the codec itself.
fn first_in_v3<'a>(
    codecs: &'a Json,
    check: &mut dyn FnMut(&'a Json) -> Option<Error>,
) -> Option<Error> {
    for codec in codecs.as_array()? {
        if codec["name"].as_str() == Some("sharding_indexed") {
            let configuration = &codec["configuration"];
            if let Some(error) = first_in_v3(&configuration["codecs"], check)
                .or_else(|| first_in_v3(&configuration["index_codecs"], check))
            {
                return Some(error);
            }
        }
        if let Some(error) = check(codec) {
            return Some(error);
        }
    }
    None
}

/// The error for `codec` of the array at `path`, which zarrs would misread for `reason`.
fn misread_error(path: &str, codec: &Json, reason: &str) -> Error {
    Error::Codec {
        path: path.to_owned(),
        codec: codec.to_string(),
        reason: reason.to_owned(),
    }
}

/// The error of the first codec of the v3 `codecs` list (of the array at `path`) that zarrs
/// cannot create, if one cannot be.
pub(crate) fn v3(path: &str, codecs: &Json) -> Option<Error> {
    first_in_v3(codecs, &mut |codec| {
        let metadata = serde_json::from_value::<MetadataV3>(codec.clone()).ok()?;
        Codec::from_metadata(&metadata)
            .err()
            .map(|error| refusal(path, metadata.name(), codec, &error))
    })
}

/// The error for `codec` (named `name`) of the array at `path`, which zarrs refused with
/// `error`.
fn refusal(path: &str, name: &str, codec: &Json, error: &PluginCreateError) -> Error {
    let reason = match error {
        PluginCreateError::Unsupported(_) => format!("not a codec zarrdt reads: {}", remedy(name)),
        other => format!("its configuration is not one zarrdt reads: {other}"),
    };
    Error::Codec {
        path: path.to_owned(),
        codec: codec.to_string(),
        reason,
    }
}

/// What reads the codec `name` (a v3 name or v2 id), or why nothing in zarrdt does.
pub(crate) fn remedy(name: &str) -> String {
    match name.strip_prefix("numcodecs.").unwrap_or(name) {
        "pcodec" | "zfpy" | "zfp" => "an array-to-bytes codec for numbers (zarrs' pcodec and zfp \
             features, which zarrdt does not enable): it cannot encode records, whose codec is \
             bytes"
            .into(),
        "astype" => "a filter converting numbers from one type to another, which zarrdt does \
             not read, in any array (one whose two types are the same changes nothing and is \
             read as if it were not there: zarr-python 2.18 writes it for records, and zarr-python \
             3's `zarr migrate v3` carries it over as `numcodecs.astype`)"
            .into(),
        "bitround" | "fixedscaleoffset" | "quantize" | "delta" | "packbits" | "categorize"
        | "scale_offset" | "cast_value" => "a filter for numbers, which zarrdt does not read, \
             in any array (its arrays are records, to which zarr-python cannot apply it either)"
            .into(),
        "zarrs.gdeflate" => "zarrs' gdeflate feature (a C library) is not enabled in zarrdt; \
             zarr-python does not write it"
            .into(),
        _ => "no codec of this name is registered with zarrs in this program; a zarrs codec \
             plugin for it (inventory::submit! of a zarrs CodecPluginV3 or CodecPluginV2, or \
             zarrs' register_codec_v3 / register_codec_v2) would read it"
            .into(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn unknown_codecs_are_named_with_their_configuration_and_a_remedy() {
        let document = json!({"codecs": [
            {"name": "bytes", "configuration": {"endian": "little"}},
            {"name": "numcodecs.jenkins_lookup2", "configuration": {"initval": 0}},
        ]});
        let error = v3("/a/b", &document["codecs"]).unwrap().to_string();
        assert!(error.contains("array /a/b"), "{error}");
        assert!(error.contains("numcodecs.jenkins_lookup2"), "{error}");
        assert!(error.contains("\"initval\":0"), "{error}");
        assert!(error.contains("a zarrs codec plugin for it"), "{error}");
    }

    #[test]
    fn codecs_inside_shards_are_looked_at() {
        let document = json!({"codecs": [{"name": "sharding_indexed", "configuration": {
            "chunk_shape": [2],
            "codecs": [{"name": "bytes"}, {"name": "numcodecs.zfpy", "configuration": {"mode": 4}}],
            "index_codecs": [{"name": "bytes"}],
        }}]});
        let error = v3("/", &document["codecs"]).unwrap().to_string();
        assert!(error.contains("numcodecs.zfpy"), "{error}");
        assert!(
            error.contains("an array-to-bytes codec for numbers"),
            "{error}"
        );
    }

    #[test]
    fn fixedscaleoffset_is_refused_where_zarrs_would_misread_it() {
        let filter = json!({"id": "fixedscaleoffset", "offset": 0, "scale": 1000,
            "dtype": "<f8", "astype": "<i8"});
        let document = json!({"compressor": null, "filters": [filter]});
        let error = misread_v2("/a", &document).unwrap().to_string();
        assert!(error.contains("array /a"), "{error}");
        assert!(error.contains("\"scale\":1000"), "{error}");
        assert!(error.contains("through float32"), "{error}");
        let sharded = json!({"codecs": [{"name": "sharding_indexed", "configuration": {
            "chunk_shape": [2],
            "codecs": [{"name": "numcodecs.fixedscaleoffset",
                "configuration": {"offset": 0.5, "scale": 10, "dtype": "<f4", "astype": "<u2"}},
                {"name": "bytes"}],
            "index_codecs": [{"name": "bytes"}],
        }}]});
        let error = misread_v3("/", &sharded).unwrap().to_string();
        assert!(error.contains("numcodecs.fixedscaleoffset"), "{error}");
        let fine = json!({"codecs": [{"name": "bytes"}, {"name": "zstd"}]});
        assert!(misread_v3("/", &fine).is_none());
        let fine = json!({"compressor": {"id": "zlib", "level": 1}, "filters": [{"id": "lz4"}]});
        assert!(misread_v2("/", &fine).is_none());
    }

    #[test]
    fn v2_compressors_and_filters_and_bad_configurations() {
        let document = json!({"compressor": {"id": "pickle"}, "filters": null});
        let error = v2("/", &document).unwrap().to_string();
        assert!(error.contains("pickle"), "{error}");
        let document = json!({"compressor": {"id": "lzma", "format": 9}, "filters": null});
        let error = v2("/", &document).unwrap().to_string();
        assert!(
            error.contains("configuration is not one zarrdt reads"),
            "{error}"
        );
        assert!(error.contains("format 9"), "{error}");
        let fine = json!({"compressor": {"id": "zlib", "level": 1}, "filters": [{"id": "lz4"}]});
        assert!(v2("/", &fine).is_none());
        // zarr-python 2.18's default compressor is no reason an array does not open.
        let blosc = json!({"compressor": {"id": "blosc", "cname": "lz4", "clevel": 5,
            "shuffle": 1, "blocksize": 0}, "filters": null});
        assert!(v2("/", &blosc).is_none());
    }
}
