//! numcodecs' `crc32` and `crc32c` codecs (Zarr v2 ids `crc32`, `crc32c`; Zarr v3 names
//! `numcodecs.crc32`, `numcodecs.crc32c`): zlib's CRC-32 (`zlib.crc32`, through `crc32fast`)
//! and the Castagnoli CRC-32C (through `crc32c`, the crate zarrs' core `crc32c` codec uses),
//! before the chunk's bytes (`{"location": "start"}`, crc32's default) or after them
//! (`"end"`, crc32c's default).
//!
//! zarrs 0.23.14 registers its crc32c codec under the Zarr v3 core name alone, so Zarr v2
//! arrays with numcodecs' `crc32c` filter, and zarr-python 3's `numcodecs.crc32c`, read here.

use serde_json::{Map, Value as Json};
use zarrs::array::codec::api::{CodecError, CodecOptions};
use zarrs::plugin::PluginCreateError;

use super::{Location, frame, unframe};
use crate::codec::bound::DecodedSize;
use crate::codec::configuration::Settings;
use crate::codec::whole_chunk::{WholeChunkCodec, whole_chunk_codec};

/// numcodecs' CRC-32 checksum codec.
#[derive(Clone, Debug)]
pub(crate) struct Crc32Codec {
    location: Location,
}

/// numcodecs' CRC-32C checksum codec.
#[derive(Clone, Debug)]
pub(crate) struct Crc32cCodec {
    location: Location,
}

whole_chunk_codec!(Crc32Codec, v3: "numcodecs.crc32", v2: "crc32");
whole_chunk_codec!(Crc32cCodec, v3: "numcodecs.crc32c", v2: "crc32c");

/// The `location` of the configuration of `codec` (its only key), `default` where absent.
fn location(
    codec: &'static str,
    configuration: &Map<String, Json>,
    default: Location,
) -> Result<Location, PluginCreateError> {
    let mut settings = Settings::new(codec, configuration);
    let location = Location::read(&mut settings, default)?;
    settings.finish()?;
    Ok(location)
}

/// The configuration numcodecs writes for a checksum at `location`.
fn configuration(location: Location) -> Map<String, Json> {
    let mut configuration = Map::new();
    configuration.insert("location".into(), location.name().into());
    configuration
}

impl WholeChunkCodec for Crc32Codec {
    /// The codec of `{}` (the checksum first, numcodecs' default) or `{"location": "end"}`.
    fn from_configuration(configuration: &Map<String, Json>) -> Result<Self, PluginCreateError> {
        let location = location("crc32", configuration, Location::Start)?;
        Ok(Crc32Codec { location })
    }

    fn configuration(&self) -> Map<String, Json> {
        configuration(self.location)
    }

    fn encoded_bound(&self, size: u64) -> u64 {
        size + 4
    }

    fn encode_chunk(&self, decoded: &[u8]) -> Result<Vec<u8>, CodecError> {
        Ok(frame(decoded, crc32fast::hash(decoded), self.location))
    }

    fn decode_chunk(
        &self,
        encoded: &[u8],
        expected: DecodedSize,
        options: &CodecOptions,
    ) -> Result<Vec<u8>, CodecError> {
        unframe(
            "crc32",
            encoded,
            self.location,
            expected,
            options,
            crc32fast::hash,
        )
    }
}

impl WholeChunkCodec for Crc32cCodec {
    /// The codec of `{}` (the checksum last, numcodecs' default) or `{"location": "start"}`.
    fn from_configuration(configuration: &Map<String, Json>) -> Result<Self, PluginCreateError> {
        let location = location("crc32c", configuration, Location::End)?;
        Ok(Crc32cCodec { location })
    }

    fn configuration(&self) -> Map<String, Json> {
        configuration(self.location)
    }

    fn encoded_bound(&self, size: u64) -> u64 {
        size + 4
    }

    fn encode_chunk(&self, decoded: &[u8]) -> Result<Vec<u8>, CodecError> {
        Ok(frame(decoded, crc32c::crc32c(decoded), self.location))
    }

    fn decode_chunk(
        &self,
        encoded: &[u8],
        expected: DecodedSize,
        options: &CodecOptions,
    ) -> Result<Vec<u8>, CodecError> {
        unframe(
            "crc32c",
            encoded,
            self.location,
            expected,
            options,
            crc32c::crc32c,
        )
    }
}

#[cfg(test)]
mod tests {
    use zarrs::array::BytesRepresentation;

    use super::*;

    fn exact() -> DecodedSize {
        DecodedSize::of(&BytesRepresentation::FixedSize(9))
    }

    #[test]
    fn frames_as_numcodecs_does() {
        // numcodecs.CRC32(location="end").encode(b"123456789")[-4:] is 2639f4cb: zlib's
        // CRC-32 of the nine digits, 0xcbf43926, little-endian.
        let end = Crc32Codec {
            location: Location::End,
        };
        let encoded = end.encode_chunk(b"123456789").unwrap();
        assert_eq!(encoded[9..], [0x26, 0x39, 0xf4, 0xcb]);
        assert_eq!(
            end.decode_chunk(&encoded, exact(), &CodecOptions::default())
                .unwrap(),
            b"123456789"
        );
        let start = Crc32Codec::from_configuration(&Map::new()).unwrap();
        let encoded = start.encode_chunk(b"123456789").unwrap();
        assert_eq!(encoded[..4], [0x26, 0x39, 0xf4, 0xcb]);
        let mut damaged = encoded.clone();
        damaged[5] ^= 1;
        let error = start
            .decode_chunk(&damaged, exact(), &CodecOptions::default())
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("crc32: the checksum stored at the start"),
            "{error}"
        );
        // CRC-32C of the nine digits is 0xe3069283: last by default, first if asked.
        let end = Crc32cCodec::from_configuration(&Map::new()).unwrap();
        let encoded = end.encode_chunk(b"123456789").unwrap();
        assert_eq!(encoded[9..], [0x83, 0x92, 0x06, 0xe3]);
        assert_eq!(
            end.decode_chunk(&encoded, exact(), &CodecOptions::default())
                .unwrap(),
            b"123456789"
        );
        let json: Map<String, Json> = serde_json::from_str(r#"{"location": "start"}"#).unwrap();
        let start = Crc32cCodec::from_configuration(&json).unwrap();
        let encoded = start.encode_chunk(b"123456789").unwrap();
        assert_eq!(encoded[..4], [0x83, 0x92, 0x06, 0xe3]);
        let error = end
            .decode_chunk(&encoded, exact(), &CodecOptions::default())
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("crc32c: the checksum stored at the end"),
            "{error}"
        );
    }

    #[test]
    fn configurations_as_numcodecs_writes_them() {
        let json: Map<String, Json> = serde_json::from_str(r#"{"location": "end"}"#).unwrap();
        let codec = Crc32Codec::from_configuration(&json).unwrap();
        assert_eq!(codec.location, Location::End);
        assert_eq!(
            Json::Object(codec.configuration()),
            serde_json::json!({"location": "end"})
        );
        for bad in [
            r#"{"location": "middle"}"#,
            r#"{"location": 1}"#,
            r#"{"level": 1}"#,
        ] {
            let json: Map<String, Json> = serde_json::from_str(bad).unwrap();
            let error = Crc32Codec::from_configuration(&json)
                .unwrap_err()
                .to_string();
            assert!(
                error.contains("crc32: invalid configuration"),
                "{bad}: {error}"
            );
            let error = Crc32cCodec::from_configuration(&json)
                .unwrap_err()
                .to_string();
            assert!(
                error.contains("crc32c: invalid configuration"),
                "{bad}: {error}"
            );
        }
    }
}
