//! numcodecs' `crc32` codec (Zarr v2 id `crc32`, Zarr v3 name `numcodecs.crc32`): the CRC-32
//! of zlib (`zlib.crc32`, what numcodecs computes), before the chunk's bytes by default
//! (`{"location": "start"}`) or after them (`"end"`), through `crc32fast`.

use serde_json::{Map, Value as Json};
use zarrs::array::codec::api::CodecError;
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

whole_chunk_codec!(Crc32Codec, v3: "numcodecs.crc32", v2: "crc32");

impl Crc32Codec {
    /// The codec with its checksum at `location`.
    pub(crate) fn new(location: Location) -> Self {
        Crc32Codec { location }
    }
}

impl WholeChunkCodec for Crc32Codec {
    /// The codec of `{}` (the checksum first, numcodecs' default) or `{"location": "end"}`.
    fn from_configuration(configuration: &Map<String, Json>) -> Result<Self, PluginCreateError> {
        let mut settings = Settings::new("crc32", configuration);
        let location = Location::read(&mut settings, Location::Start)?;
        settings.finish()?;
        Ok(Crc32Codec::new(location))
    }

    fn configuration(&self) -> Map<String, Json> {
        let mut configuration = Map::new();
        configuration.insert("location".into(), self.location.name().into());
        configuration
    }

    fn encoded_bound(&self, size: u64) -> u64 {
        size + 4
    }

    fn encode_chunk(&self, decoded: &[u8]) -> Result<Vec<u8>, CodecError> {
        Ok(frame(decoded, crc32fast::hash(decoded), self.location))
    }

    fn decode_chunk(&self, encoded: &[u8], expected: DecodedSize) -> Result<Vec<u8>, CodecError> {
        unframe("crc32", encoded, self.location, expected, crc32fast::hash)
    }
}

#[cfg(test)]
mod tests {
    use zarrs::array::BytesRepresentation;

    use super::*;

    #[test]
    fn frames_as_numcodecs_does() {
        let exact = DecodedSize::of(&BytesRepresentation::FixedSize(9));
        // numcodecs.CRC32(location="end").encode(b"123456789")[-4:] is 2639f4cb: zlib's
        // CRC-32 of the nine digits, 0xcbf43926, little-endian.
        let end = Crc32Codec::new(Location::End);
        let encoded = end.encode_chunk(b"123456789").unwrap();
        assert_eq!(encoded[9..], [0x26, 0x39, 0xf4, 0xcb]);
        assert_eq!(end.decode_chunk(&encoded, exact).unwrap(), b"123456789");
        let start = Crc32Codec::from_configuration(&Map::new()).unwrap();
        let encoded = start.encode_chunk(b"123456789").unwrap();
        assert_eq!(encoded[..4], [0x26, 0x39, 0xf4, 0xcb]);
        let mut damaged = encoded.clone();
        damaged[5] ^= 1;
        let error = start.decode_chunk(&damaged, exact).unwrap_err().to_string();
        assert!(
            error.contains("crc32: the checksum stored at the start"),
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
        }
    }
}
