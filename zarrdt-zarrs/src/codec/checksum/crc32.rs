//! numcodecs' `crc32` and `crc32c` codecs (Zarr v2 ids `crc32`, `crc32c`; Zarr v3 names
//! `numcodecs.crc32`, `numcodecs.crc32c`): zlib's CRC-32 (`zlib.crc32`, through `crc32fast`)
//! and the Castagnoli CRC-32C (through `crc32c`, the crate zarrs' core `crc32c` codec uses),
//! before the chunk's bytes (`{"location": "start"}`, crc32's default) or after them
//! (`"end"`, crc32c's default).
//!
//! zarrs 0.23.14 registers its crc32c codec under the Zarr v3 core name alone, so Zarr v2
//! arrays with numcodecs' `crc32c` filter, and zarr-python 3's `numcodecs.crc32c`, read here.

use std::fmt::Debug;
use std::marker::PhantomData;

use serde_json::{Map, Value as Json};
use zarrs::array::codec::api::{CodecError, CodecOptions};
use zarrs::plugin::PluginCreateError;

use super::{Location, frame, unframe};
use crate::codec::bound::DecodedSize;
use crate::codec::configuration::Settings;
use crate::codec::whole_chunk::{WholeChunkCodec, whole_chunk_codec};

/// A CRC numcodecs frames chunks with.
pub(crate) trait Crc: Clone + Debug + Send + Sync + 'static {
    /// numcodecs' id of its codec.
    const ID: &'static str;
    /// Where numcodecs puts it unless told.
    const DEFAULT: Location;
    /// The CRC of `bytes`.
    fn sum(bytes: &[u8]) -> u32;
}

/// zlib's CRC-32 (numcodecs' `crc32`, first by default).
#[derive(Clone, Debug)]
pub(crate) struct Zlib;

/// The Castagnoli CRC-32C (numcodecs' `crc32c`, last by default).
#[derive(Clone, Debug)]
pub(crate) struct Castagnoli;

impl Crc for Zlib {
    const ID: &'static str = "crc32";
    const DEFAULT: Location = Location::Start;
    fn sum(bytes: &[u8]) -> u32 {
        crc32fast::hash(bytes)
    }
}

impl Crc for Castagnoli {
    const ID: &'static str = "crc32c";
    const DEFAULT: Location = Location::End;
    fn sum(bytes: &[u8]) -> u32 {
        crc32c::crc32c(bytes)
    }
}

/// numcodecs' checksum codec of the CRC `C`, its checksum at `location`.
#[derive(Clone, Debug)]
pub(crate) struct CrcCodec<C> {
    location: Location,
    crc: PhantomData<C>,
}

/// numcodecs' `crc32`.
pub(crate) type Crc32Codec = CrcCodec<Zlib>;
/// numcodecs' `crc32c`.
pub(crate) type Crc32cCodec = CrcCodec<Castagnoli>;

whole_chunk_codec!(Crc32Codec, v3: "numcodecs.crc32", v2: "crc32");
whole_chunk_codec!(Crc32cCodec, v3: "numcodecs.crc32c", v2: "crc32c");

impl<C> CrcCodec<C> {
    /// The codec with its checksum at `location`.
    pub(crate) fn at(location: Location) -> Self {
        CrcCodec {
            location,
            crc: PhantomData,
        }
    }
}

impl<C: Crc> WholeChunkCodec for CrcCodec<C> {
    /// The codec of `{}` (numcodecs' default location) or `{"location": "start"|"end"}`.
    fn from_configuration(configuration: &Map<String, Json>) -> Result<Self, PluginCreateError> {
        let mut settings = Settings::new(C::ID, configuration);
        let location = Location::read(&mut settings, C::DEFAULT)?;
        settings.finish()?;
        Ok(Self::at(location))
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
        Ok(frame(decoded, C::sum(decoded), self.location))
    }

    fn decode_chunk(
        &self,
        encoded: &[u8],
        expected: DecodedSize,
        options: &CodecOptions,
    ) -> Result<Vec<u8>, CodecError> {
        unframe(C::ID, encoded, self.location, expected, options, C::sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_as_numcodecs_does() {
        // numcodecs.CRC32(location="end").encode(b"123456789")[-4:] is 2639f4cb: zlib's
        // CRC-32 of the nine digits, 0xcbf43926, little-endian.
        let end = Crc32Codec::at(Location::End);
        let encoded = end.encode_chunk(b"123456789").unwrap();
        assert_eq!(encoded[9..], [0x26, 0x39, 0xf4, 0xcb]);
        assert_eq!(
            end.decode_chunk(&encoded, DecodedSize::exact(9), &CodecOptions::default())
                .unwrap(),
            b"123456789"
        );
        let start = Crc32Codec::from_configuration(&Map::new()).unwrap();
        let encoded = start.encode_chunk(b"123456789").unwrap();
        assert_eq!(encoded[..4], [0x26, 0x39, 0xf4, 0xcb]);
        let mut damaged = encoded.clone();
        damaged[5] ^= 1;
        let error = start
            .decode_chunk(&damaged, DecodedSize::exact(9), &CodecOptions::default())
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
            end.decode_chunk(&encoded, DecodedSize::exact(9), &CodecOptions::default())
                .unwrap(),
            b"123456789"
        );
        let json: Map<String, Json> = serde_json::from_str(r#"{"location": "start"}"#).unwrap();
        let start = Crc32cCodec::from_configuration(&json).unwrap();
        let encoded = start.encode_chunk(b"123456789").unwrap();
        assert_eq!(encoded[..4], [0x83, 0x92, 0x06, 0xe3]);
        let error = end
            .decode_chunk(&encoded, DecodedSize::exact(9), &CodecOptions::default())
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
