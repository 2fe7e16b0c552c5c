//! numcodecs' `base64` codec (Zarr v2 id `base64`; Zarr v3 name `numcodecs.base64`, which
//! zarr-python 3 has no adapter for): a chunk's bytes as standard base64 text with padding
//! (`base64.standard_b64encode`), through the `base64` crate.
//!
//! Decoding reads the text strictly (Python's decoder also skips characters outside the
//! alphabet, which numcodecs never writes): its decoded length, given by its length and
//! padding, is checked against the chunk's size before anything is allocated.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value as Json};
use zarrs::array::codec::api::{CodecError, CodecOptions};
use zarrs::plugin::PluginCreateError;

use super::bound::DecodedSize;
use super::configuration::Settings;
use super::whole_chunk::{WholeChunkCodec, whole_chunk_codec};

/// numcodecs' base64 codec.
#[derive(Clone, Debug)]
pub(crate) struct Base64Codec;

whole_chunk_codec!(Base64Codec, v3: "numcodecs.base64", v2: "base64");

impl WholeChunkCodec for Base64Codec {
    /// The codec of `{}`, its only configuration.
    fn from_configuration(configuration: &Map<String, Json>) -> Result<Self, PluginCreateError> {
        Settings::new("base64", configuration).finish()?;
        Ok(Base64Codec)
    }

    fn configuration(&self) -> Map<String, Json> {
        Map::new()
    }

    fn encoded_bound(&self, size: u64) -> u64 {
        size.div_ceil(3).saturating_mul(4)
    }

    fn encode_chunk(&self, decoded: &[u8]) -> Result<Vec<u8>, CodecError> {
        Ok(STANDARD.encode(decoded).into_bytes())
    }

    fn decode_chunk(
        &self,
        encoded: &[u8],
        expected: DecodedSize,
        _options: &CodecOptions,
    ) -> Result<Vec<u8>, CodecError> {
        decode(encoded, expected)
    }
}

/// The bytes of the base64 text `encoded`, which must be `expected`.
fn decode(encoded: &[u8], expected: DecodedSize) -> Result<Vec<u8>, CodecError> {
    if !encoded.len().is_multiple_of(4) {
        return Err(CodecError::Other(format!(
            "base64: a chunk of {} bytes is not base64 text with padding (a multiple of 4 \
             characters)",
            encoded.len()
        )));
    }
    let padding = encoded.iter().rev().take(2).filter(|&&c| c == b'=').count();
    let length = (encoded.len() / 4 * 3).saturating_sub(padding) as u64;
    if !expected.admits(length) {
        return Err(expected.mismatch("base64", length, false));
    }
    STANDARD.decode(encoded).map_err(|error| {
        CodecError::Other(format!("base64: the chunk is not base64 text: {error}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_as_numcodecs_does_and_back() {
        // numcodecs' Base64 of a chunk zarr-python 2.18 wrote: 3 records of [a <i4, c |u1],
        // a = 0, 1, 2 and c = 0.
        let records = [0u8, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0];
        let encoded = Base64Codec.encode_chunk(&records).unwrap();
        assert_eq!(encoded, b"AAAAAAABAAAAAAIAAAAA");
        assert_eq!(
            Base64Codec
                .decode_chunk(&encoded, DecodedSize::exact(15), &CodecOptions::default())
                .unwrap(),
            records
        );
        for len in 0..8 {
            let data: Vec<u8> = (0..len).map(|i| i as u8 * 41).collect();
            let encoded = Base64Codec.encode_chunk(&data).unwrap();
            assert!(encoded.len() as u64 <= Base64Codec.encoded_bound(len as u64));
            assert_eq!(
                Base64Codec
                    .decode_chunk(
                        &encoded,
                        DecodedSize::exact(len as u64),
                        &CodecOptions::default()
                    )
                    .unwrap(),
                data
            );
        }
    }

    #[test]
    fn text_of_another_size_or_not_base64_is_an_error() {
        let error = decode(b"AAAAAAABAAAAAAIAAAAA", DecodedSize::exact(12))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("decodes to 15 bytes, expected the 12 bytes"),
            "{error}"
        );
        let error = decode(b"AAAAAAA", DecodedSize::exact(5))
            .unwrap_err()
            .to_string();
        assert!(error.contains("not base64 text with padding"), "{error}");
        let error = decode(b"AA*A", DecodedSize::exact(3))
            .unwrap_err()
            .to_string();
        assert!(error.contains("not base64 text"), "{error}");
    }
}
