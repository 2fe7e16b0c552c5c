//! numcodecs' `fletcher32` codec (Zarr v2 id `fletcher32`, Zarr v3 name
//! `numcodecs.fletcher32`): HDF5's Fletcher-32 (`H5_checksum_fletcher32`, which numcodecs
//! computes), after the chunk's bytes.
//!
//! zarrs 0.23.14 has a codec of these names (its `fletcher32` feature) that leaves out the last
//! byte of a chunk of odd length, so it calls numcodecs' checksums of such chunks invalid and
//! writes ones numcodecs refuses; this one is registered at run time ([`register`]), ahead of
//! zarrs' own should a dependency enable it. No maintained crate computes HDF5's variant (big-
//! endian 16-bit words, the odd last byte as the high byte of a word, sums folded every 360
//! words), so it is written here, checked against numcodecs' values.

use serde_json::{Map, Value as Json};
use zarrs::array::codec::api::{
    CodecError, CodecOptions, CodecRuntimePluginV2, CodecRuntimePluginV3, CodecTraitsV2,
    CodecTraitsV3, register_codec_v2, register_codec_v3,
};
use zarrs::plugin::PluginCreateError;

use super::{Location, frame, unframe};
use crate::codec::bound::DecodedSize;
use crate::codec::configuration::Settings;
use crate::codec::whole_chunk::{WholeChunkCodec, whole_chunk_codec};

/// The words summed between two foldings of the sums (HDF5's choice).
const WORDS_PER_FOLD: usize = 360;

/// numcodecs' Fletcher-32 checksum codec.
#[derive(Clone, Debug)]
pub(crate) struct Fletcher32Codec;

whole_chunk_codec!(Fletcher32Codec, v3: "numcodecs.fletcher32", v2: "fletcher32");

/// Registers the codec with zarrs, by its v3 name and v2 id, ahead of zarrs' own.
pub(crate) fn register() {
    let _v3 = register_codec_v3(CodecRuntimePluginV3::new(
        |name| name == "numcodecs.fletcher32",
        <Fletcher32Codec as CodecTraitsV3>::create,
    ));
    let _v2 = register_codec_v2(CodecRuntimePluginV2::new(
        |name| name == "fletcher32",
        <Fletcher32Codec as CodecTraitsV2>::create,
    ));
}

impl WholeChunkCodec for Fletcher32Codec {
    /// The codec of `{}`, its only configuration.
    fn from_configuration(configuration: &Map<String, Json>) -> Result<Self, PluginCreateError> {
        Settings::new("fletcher32", configuration).finish()?;
        Ok(Fletcher32Codec)
    }

    fn configuration(&self) -> Map<String, Json> {
        Map::new()
    }

    fn encoded_bound(&self, size: u64) -> u64 {
        size + 4
    }

    fn encode_chunk(&self, decoded: &[u8]) -> Result<Vec<u8>, CodecError> {
        Ok(frame(decoded, fletcher32(decoded), Location::End))
    }

    fn decode_chunk(
        &self,
        encoded: &[u8],
        expected: DecodedSize,
        options: &CodecOptions,
    ) -> Result<Vec<u8>, CodecError> {
        unframe(
            "fletcher32",
            encoded,
            Location::End,
            expected,
            options,
            fletcher32,
        )
    }
}

/// HDF5's Fletcher-32 of `bytes`: their big-endian 16-bit words (an odd last byte the high
/// byte of one more), the two sums folded to 16 bits every 360 words and at the end, with
/// HDF5's 32-bit wrapping arithmetic.
fn fletcher32(bytes: &[u8]) -> u32 {
    let fold = |sum: u32| (sum & 0xffff) + (sum >> 16);
    let (mut sum1, mut sum2) = (0u32, 0u32);
    let words = bytes.chunks_exact(2);
    let odd = words.remainder().first().copied();
    let mut in_fold = 0;
    for word in words {
        sum1 = sum1.wrapping_add(u32::from(u16::from_be_bytes([word[0], word[1]])));
        sum2 = sum2.wrapping_add(sum1);
        in_fold += 1;
        if in_fold == WORDS_PER_FOLD {
            (sum1, sum2) = (fold(sum1), fold(sum2));
            in_fold = 0;
        }
    }
    if in_fold > 0 {
        (sum1, sum2) = (fold(sum1), fold(sum2));
    }
    if let Some(last) = odd {
        sum1 = sum1.wrapping_add(u32::from(last) << 8);
        sum2 = sum2.wrapping_add(sum1);
        (sum1, sum2) = (fold(sum1), fold(sum2));
    }
    (sum1, sum2) = (fold(sum1), fold(sum2));
    (sum2 << 16) | sum1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::checksum::tests::pattern;

    #[test]
    fn sums_as_numcodecs_does() {
        // numcodecs 0.17.1's Fletcher32().encode(pattern(n))[-4:], as a little-endian u32, for
        // n from 1 to 26.
        let expected: [u32; 26] = [
            0x0b00_0b00,
            0x0b30_0b30,
            0x6b60_6030,
            0x6bda_60aa,
            0x6b85_ffaa,
            0x6c49_006f,
            0x55b9_e96f,
            0x55c7_e97d,
            0x7245_1c7e,
            0x729d_1cd6,
            0x0c74_99d6,
            0x0d16_9a78,
            0x6e8f_6179,
            0x6f7b_6265,
            0xe2e0_7365,
            0xe316_739b,
            0xb1b2_ce9b,
            0xb232_cf1b,
            0x264f_741c,
            0x2719_74e6,
            0x8b00_63e7,
            0x8b14_63fb,
            0x2810_9cfb,
            0x286e_9d59,
            0x48c8_205a,
            0x4970_2102,
        ];
        for (len, expected) in (1..).zip(expected) {
            assert_eq!(fletcher32(&pattern(len)), expected, "{len} bytes");
        }
        // Around the foldings every 360 words (720 bytes), where the sums wrap, and long ones:
        // (length, all 0xff, the pattern).
        for (len, ones, patterned) in [
            (719, 0xff00_ff00, 0x2949_6276),
            (720, 0xffff_ffff, 0x2a3f_636c),
            (721, 0xff00_ff00, 0xa8ab_7e6c),
            (722, 0xffff_ffff, 0xa8eb_7eac),
            (1441, 0xff00_ff00, 0xb1ff_7159),
            (100_001, 0xff00_ff00, 0xebc5_5179),
            (1 << 20, 0xffff_ffff, 0xf5d6_03fc),
        ] {
            assert_eq!(fletcher32(&vec![0xff; len]), ones, "{len} bytes of 0xff");
            assert_eq!(fletcher32(&pattern(len)), patterned, "{len} bytes");
        }
    }

    #[test]
    fn an_odd_chunk_round_trips_and_a_damaged_one_is_refused() {
        let data = pattern(21);
        let encoded = Fletcher32Codec.encode_chunk(&data).unwrap();
        assert_eq!(encoded[21..], fletcher32(&data).to_le_bytes());
        let exact = DecodedSize::exact(21);
        assert_eq!(
            Fletcher32Codec
                .decode_chunk(&encoded, exact, &CodecOptions::default())
                .unwrap(),
            data
        );
        let mut damaged = encoded;
        damaged[20] ^= 0x80;
        let error = Fletcher32Codec
            .decode_chunk(&damaged, exact, &CodecOptions::default())
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("fletcher32: the checksum stored at the end"),
            "{error}"
        );
    }

    #[test]
    fn only_the_empty_configuration() {
        assert!(Fletcher32Codec::from_configuration(&Map::new()).is_ok());
        let json: Map<String, Json> = serde_json::from_str(r#"{"location": "end"}"#).unwrap();
        assert!(Fletcher32Codec::from_configuration(&json).is_err());
    }
}
