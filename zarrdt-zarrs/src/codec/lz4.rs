//! numcodecs' `lz4` codec (Zarr v2 id `lz4`, Zarr v3 name `numcodecs.lz4`): an LZ4 block after
//! a 4-byte little-endian count of the decoded bytes, as `numcodecs.lz4.compress` writes it.
//!
//! Decoding checks the count against the size zarrs expects for the chunk (and against the
//! most an LZ4 block of this length can decode to) before allocating anything, then decodes
//! into exactly that many bytes with `lz4_flex`'s safe decoder.

use serde_json::{Map, Value as Json};
use zarrs::array::codec::api::{CodecError, CodecOptions};
use zarrs::plugin::PluginCreateError;

use super::bound::DecodedSize;
use super::configuration::Settings;
use super::whole_chunk::{WholeChunkCodec, whole_chunk_codec};

/// The largest input `LZ4_compress_fast` takes (`LZ4_MAX_INPUT_SIZE`): numcodecs cannot
/// decode a larger chunk, so none is written.
const MAX_INPUT: usize = 0x7E00_0000;

/// The most bytes one byte of an LZ4 block decodes to (a match length continues in bytes of
/// 255), with room for the smallest blocks.
const MAX_RATIO: u64 = 255;
const SMALL_BLOCK_SLACK: u64 = 64;

/// numcodecs' LZ4 codec.
#[derive(Clone, Debug)]
pub(crate) struct Lz4Codec {
    /// numcodecs' `acceleration`, kept for the metadata: `lz4_flex` compresses at one speed.
    acceleration: i64,
}

whole_chunk_codec!(Lz4Codec, v3: "numcodecs.lz4", v2: "lz4");

impl Lz4Codec {
    /// The codec at numcodecs' `acceleration` (1 by default).
    pub(crate) fn new(acceleration: i64) -> Self {
        Lz4Codec { acceleration }
    }
}

impl WholeChunkCodec for Lz4Codec {
    /// The codec of a configuration as numcodecs writes it (`{"acceleration": 1}`, or `{}` as
    /// zarr-python 3 writes the default).
    fn from_configuration(configuration: &Map<String, Json>) -> Result<Self, PluginCreateError> {
        let mut settings = Settings::new("lz4", configuration);
        let acceleration = settings.integer("acceleration")?.unwrap_or(1);
        settings.finish()?;
        Ok(Lz4Codec::new(acceleration))
    }

    fn configuration(&self) -> Map<String, Json> {
        let mut configuration = Map::new();
        configuration.insert("acceleration".into(), Json::from(self.acceleration));
        configuration
    }

    fn encoded_bound(&self, size: u64) -> u64 {
        // The 4-byte count, then LZ4_compressBound: size + size / 255 + 16.
        4 + size + size / 255 + 16
    }

    fn encode_chunk(&self, decoded: &[u8]) -> Result<Vec<u8>, CodecError> {
        encode(decoded)
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

/// `decoded` in numcodecs' framing: its length (4 bytes, little-endian), then an LZ4 block.
pub(crate) fn encode(decoded: &[u8]) -> Result<Vec<u8>, CodecError> {
    if decoded.len() > MAX_INPUT {
        return Err(CodecError::Other(format!(
            "lz4: a chunk of {} bytes is larger than numcodecs' lz4 takes ({MAX_INPUT} bytes)",
            decoded.len()
        )));
    }
    let count = u32::try_from(decoded.len())
        .unwrap_or(u32::MAX)
        .to_le_bytes();
    let mut out = vec![0u8; 4 + lz4_flex::block::get_maximum_output_size(decoded.len())];
    out[..4].copy_from_slice(&count);
    let written = lz4_flex::block::compress_into(decoded, &mut out[4..])
        .map_err(|e| CodecError::Other(format!("lz4: {e}")))?;
    out.truncate(4 + written);
    Ok(out)
}

/// The bytes of a numcodecs LZ4 chunk, which must decode to `expected`.
pub(crate) fn decode(encoded: &[u8], expected: DecodedSize) -> Result<Vec<u8>, CodecError> {
    let corrupt = |why: String| CodecError::Other(format!("lz4: {why}"));
    let Some((count, block)) = encoded.split_first_chunk::<4>() else {
        return Err(corrupt(format!(
            "a chunk of {} bytes has no 4-byte length before its LZ4 block",
            encoded.len()
        )));
    };
    let count = u64::from(u32::from_le_bytes(*count));
    if !expected.admits(count) {
        return Err(corrupt(format!(
            "the chunk's header says {count} decoded bytes, expected {}{}",
            if expected.exact { "" } else { "at most " },
            expected.size
        )));
    }
    let most = (block.len() as u64)
        .saturating_mul(MAX_RATIO)
        .saturating_add(SMALL_BLOCK_SLACK);
    if count > most {
        return Err(corrupt(format!(
            "the chunk's header says {count} decoded bytes, more than an LZ4 block of {} \
             bytes can hold",
            block.len()
        )));
    }
    let mut out = vec![0u8; usize::try_from(count).map_err(|e| corrupt(e.to_string()))?];
    let written = lz4_flex::block::decompress_into(block, &mut out)
        .map_err(|e| corrupt(format!("the LZ4 block is corrupt: {e}")))?;
    if written as u64 != count {
        return Err(corrupt(format!(
            "the LZ4 block decodes to {written} bytes, its header says {count}"
        )));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use zarrs::array::BytesRepresentation;

    use super::*;

    #[test]
    fn round_trips_in_numcodecs_framing() {
        let data: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        let encoded = encode(&data).unwrap();
        assert_eq!(encoded[..4], 10_000u32.to_le_bytes());
        assert!(encoded.len() < data.len());
        assert_eq!(decode(&encoded, DecodedSize::exact(10_000)).unwrap(), data);
    }

    #[test]
    fn a_length_other_than_the_chunk_is_refused_before_decoding() {
        let mut encoded = encode(&[7u8; 100]).unwrap();
        encoded[..4].copy_from_slice(&u32::MAX.to_le_bytes());
        let error = decode(&encoded, DecodedSize::exact(100))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("says 4294967295 decoded bytes, expected 100"),
            "{error}"
        );
        let error = decode(
            &encoded,
            DecodedSize::of(&BytesRepresentation::UnboundedSize),
        )
        .unwrap_err()
        .to_string();
        assert!(error.contains("expected at most 1073741824"), "{error}");
        // Within the bound, but more than this block can hold.
        encoded[..4].copy_from_slice(&1_000_000u32.to_le_bytes());
        let unbounded = DecodedSize::of(&BytesRepresentation::UnboundedSize);
        let error = decode(&encoded, unbounded).unwrap_err().to_string();
        assert!(error.contains("more than an LZ4 block"), "{error}");
    }

    #[test]
    fn short_and_corrupt_chunks_are_errors() {
        assert!(decode(&[1, 0], DecodedSize::exact(1)).is_err());
        let mut encoded = encode(&[7u8; 100]).unwrap();
        let last = encoded.len() - 1;
        encoded.truncate(last);
        let error = decode(&encoded, DecodedSize::exact(100))
            .unwrap_err()
            .to_string();
        assert!(error.contains("corrupt"), "{error}");
    }

    #[test]
    fn configurations_as_numcodecs_writes_them() {
        let empty = Lz4Codec::from_configuration(&Map::new()).unwrap();
        assert_eq!(empty.acceleration, 1);
        let json: Map<String, Json> = serde_json::from_str(r#"{"acceleration": 5}"#).unwrap();
        assert_eq!(Lz4Codec::from_configuration(&json).unwrap().acceleration, 5);
        let json: Map<String, Json> = serde_json::from_str(r#"{"level": 5}"#).unwrap();
        let error = Lz4Codec::from_configuration(&json).unwrap_err().to_string();
        assert!(error.contains("level"), "{error}");
    }
}
