//! zarr-python 3's Zarr v3 names of the numcodecs compressors zarrs knows by their Zarr v2
//! ids alone: `numcodecs.zstd`, `numcodecs.gzip` and `numcodecs.blosc`, what
//! `numcodecs.zarr3` writes for `compressors=[numcodecs.zarr3.Zstd()]` and the like
//! (`numcodecs.crc32c`: [`super::checksum::crc32`]).
//!
//! Such a codec's bytes are those of numcodecs' codec of the same id, and its configuration is
//! that codec's without the `id`, holding only the arguments it was given (`{}` for the
//! defaults). Each is made as the Zarr v2 codec of that id, from numcodecs' defaults overlaid
//! with the configuration: so it decodes as that v2 codec does, within the chunk's size (zstd,
//! gzip, blosc: [`super::bounded`]). zarrs makes blosc only with an array's metadata, so it is
//! made here from numcodecs' configuration, and writes its chunks unshuffled (below).

use std::sync::Arc;

use serde_json::{Map, Value as Json, json};
use zarrs::array::codec::BloscCodec;
use zarrs::array::codec::api::{Codec, CodecRuntimePluginV3, register_codec_v3};
use zarrs::metadata::v2::MetadataV2;
use zarrs::metadata::v3::MetadataV3;
use zarrs::metadata_ext::codec::blosc::{
    BloscCodecConfigurationNumcodecs, codec_blosc_v2_numcodecs_to_v3,
};
use zarrs::plugin::PluginCreateError;

use super::configuration::of_v3;

/// The Zarr v2 id of the codec zarr-python 3 names `name`, if it is one of these.
fn v2_id(name: &str) -> Option<&'static str> {
    match name {
        "numcodecs.zstd" => Some("zstd"),
        "numcodecs.gzip" => Some("gzip"),
        "numcodecs.blosc" => Some("blosc"),
        _ => None,
    }
}

/// numcodecs' defaults of the arguments of the codec `id` that zarrs requires (numcodecs
/// 0.17: `Zstd()`, `GZip()` and `Blosc()`).
fn numcodecs_defaults(id: &str) -> Map<String, Json> {
    let defaults = match id {
        "zstd" => json!({"level": 0, "checksum": false}),
        "gzip" => json!({"level": 1}),
        "blosc" => json!({"cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0}),
        _ => json!({}),
    };
    defaults.as_object().cloned().unwrap_or_default()
}

/// Registers the names with zarrs, ahead of any zarrs has.
pub(crate) fn register() {
    let _v3 = register_codec_v3(CodecRuntimePluginV3::new(
        |name| v2_id(name).is_some(),
        create,
    ));
}

/// The codec of the v3 `metadata` of one of these names: the v2 codec of its id.
fn create(metadata: &MetadataV3) -> Result<Codec, PluginCreateError> {
    let name = metadata.name();
    let Some(id) = v2_id(name) else {
        return Err(PluginCreateError::Other(format!(
            "{name} is not a numcodecs codec zarrdt reads by its v2 id"
        )));
    };
    let mut configuration = numcodecs_defaults(id);
    configuration.extend(of_v3(metadata));
    let made = match id {
        "blosc" => blosc(&configuration),
        _ => v2_codec(id, &configuration),
    };
    made.map_err(|error| {
        PluginCreateError::Other(format!(
            "{name}: as numcodecs' {id} codec ({}): {error}",
            Json::Object(configuration)
        ))
    })
}

/// The v2 codec `id` of numcodecs' `configuration`, as zarrs (and zarrdt's plugins ahead of
/// zarrs' own) make it.
fn v2_codec(id: &str, configuration: &Map<String, Json>) -> Result<Codec, String> {
    let mut v2 = configuration.clone();
    v2.insert("id".into(), id.into());
    let metadata: MetadataV2 =
        serde_json::from_value(Json::Object(v2)).map_err(|error| error.to_string())?;
    Codec::from_metadata(&metadata).map_err(|error| error.to_string())
}

/// zarrs' blosc codec of numcodecs' `configuration`, its header checked before it decodes
/// ([`super::blosc`]). zarrs makes a v2 blosc codec only with the array's data type, for the
/// shuffle's element size, which a codec's metadata does not give: the codec writes unshuffled
/// (reading, a blosc header says how its chunk was shuffled).
fn blosc(configuration: &Map<String, Json>) -> Result<Codec, String> {
    let numcodecs: BloscCodecConfigurationNumcodecs =
        serde_json::from_value(Json::Object(configuration.clone())).map_err(|e| e.to_string())?;
    let codec =
        BloscCodec::new_with_configuration(&codec_blosc_v2_numcodecs_to_v3(&numcodecs, None))
            .map_err(|error| error.to_string())?;
    Ok(Codec::BytesToBytes(Arc::new(super::blosc::wrap(Arc::new(
        codec,
    )))))
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use zarrs::array::BytesRepresentation;
    use zarrs::array::codec::api::CodecOptions;

    use super::*;

    fn codec(name: &str, configuration: Json) -> Result<Codec, PluginCreateError> {
        crate::open::register();
        let metadata: MetadataV3 =
            serde_json::from_value(json!({"name": name, "configuration": configuration})).unwrap();
        Codec::from_metadata(&metadata)
    }

    #[test]
    fn each_name_round_trips_as_its_v2_codec() {
        let data: Vec<u8> = (0..20_000u32).map(|i| (i % 97) as u8).collect();
        let exact = BytesRepresentation::FixedSize(data.len() as u64);
        let options = CodecOptions::default();
        for (name, configuration) in [
            ("numcodecs.zstd", json!({})),
            ("numcodecs.zstd", json!({"level": 5, "checksum": true})),
            ("numcodecs.gzip", json!({"level": 5})),
            ("numcodecs.blosc", json!({})),
            (
                "numcodecs.blosc",
                json!({"cname": "zstd", "clevel": 3, "shuffle": 2, "blocksize": 0}),
            ),
        ] {
            let Codec::BytesToBytes(codec) = codec(name, configuration.clone()).unwrap() else {
                panic!("{name}: not a bytes-to-bytes codec");
            };
            let encoded = codec.encode(Cow::Borrowed(&data), &options).unwrap();
            let decoded = codec.decode(encoded, &exact, &options).unwrap();
            assert_eq!(decoded.as_ref(), data.as_slice(), "{name} {configuration}");
        }
    }

    #[test]
    fn decoding_stays_bounded_and_bad_configurations_are_named() {
        // zstd through zarrdt's bounded decoder: a frame of more than the chunk is an error.
        let Codec::BytesToBytes(zstd) = codec("numcodecs.zstd", json!({})).unwrap() else {
            panic!("not a bytes-to-bytes codec");
        };
        let options = CodecOptions::default();
        let encoded = zstd
            .encode(Cow::Owned(vec![0u8; 1 << 20]), &options)
            .unwrap();
        let error = zstd
            .decode(encoded, &BytesRepresentation::FixedSize(4096), &options)
            .unwrap_err()
            .to_string();
        assert!(error.contains("4096"), "{error}");
        let error = codec("numcodecs.gzip", json!({"level": "high"}))
            .err()
            .unwrap()
            .to_string();
        assert!(error.contains("numcodecs.gzip"), "{error}");
        assert!(error.contains("\"level\":\"high\""), "{error}");
    }
}
