//! numcodecs' `jenkins_lookup3` codec (Zarr v2 id `jenkins_lookup3`, Zarr v3 name
//! `numcodecs.jenkins_lookup3`): Bob Jenkins' lookup3 hash of the chunk's bytes (`hashlittle`
//! as HDF5's `H5_checksum_lookup3` computes it, byte by byte, so the same on any machine),
//! seeded with `initval`, after the chunk's bytes.
//!
//! numcodecs also takes a `prefix`, bytes hashed before the chunk's, but cannot write one to
//! an array's metadata (zarr-python fails to serialize it), so only `"prefix": null` is read.
//! No maintained crate computes lookup3, so it is written here from the algorithm's
//! description, checked against numcodecs' values and the ones Bob Jenkins' `lookup3.c` gives.

use serde_json::{Map, Value as Json};
use zarrs::array::codec::api::{CodecError, CodecOptions};
use zarrs::plugin::PluginCreateError;

use super::{Location, frame, unframe};
use crate::codec::bound::DecodedSize;
use crate::codec::configuration::{Settings, invalid};
use crate::codec::whole_chunk::{WholeChunkCodec, whole_chunk_codec};

/// numcodecs' lookup3 checksum codec.
#[derive(Clone, Debug)]
pub(crate) struct JenkinsLookup3Codec {
    /// The hash's seed.
    initval: u32,
}

whole_chunk_codec!(JenkinsLookup3Codec, v3: "numcodecs.jenkins_lookup3", v2: "jenkins_lookup3");

impl WholeChunkCodec for JenkinsLookup3Codec {
    /// The codec of `{"initval": 0, "prefix": null}` (each key optional), as numcodecs writes
    /// it.
    fn from_configuration(configuration: &Map<String, Json>) -> Result<Self, PluginCreateError> {
        let mut settings = Settings::new("jenkins_lookup3", configuration);
        let initval = settings.integer("initval")?.unwrap_or(0);
        let initval = u32::try_from(initval).map_err(|_| {
            invalid(
                "jenkins_lookup3",
                format!("initval {initval} is not a 32-bit unsigned integer"),
            )
        })?;
        if let Some(prefix) = settings.get("prefix") {
            return Err(invalid(
                "jenkins_lookup3",
                format!(
                    "prefix {prefix}: zarrdt reads only a null prefix, the only one zarr-python \
                     can write to an array's metadata"
                ),
            ));
        }
        settings.finish()?;
        Ok(JenkinsLookup3Codec { initval })
    }

    fn configuration(&self) -> Map<String, Json> {
        let mut configuration = Map::new();
        configuration.insert("initval".into(), self.initval.into());
        configuration.insert("prefix".into(), Json::Null);
        configuration
    }

    fn encoded_bound(&self, size: u64) -> u64 {
        size + 4
    }

    fn encode_chunk(&self, decoded: &[u8]) -> Result<Vec<u8>, CodecError> {
        Ok(frame(
            decoded,
            lookup3(decoded, self.initval),
            Location::End,
        ))
    }

    fn decode_chunk(
        &self,
        encoded: &[u8],
        expected: DecodedSize,
        options: &CodecOptions,
    ) -> Result<Vec<u8>, CodecError> {
        unframe(
            "jenkins_lookup3",
            encoded,
            Location::End,
            expected,
            options,
            |bytes| lookup3(bytes, self.initval),
        )
    }
}

/// Three words of lookup3's state.
struct State {
    a: u32,
    b: u32,
    c: u32,
}

impl State {
    /// Adds the three little-endian words of `block` to the state.
    fn add(&mut self, block: &[u8; 12]) {
        let word = |at: usize| {
            u32::from_le_bytes([block[at], block[at + 1], block[at + 2], block[at + 3]])
        };
        self.a = self.a.wrapping_add(word(0));
        self.b = self.b.wrapping_add(word(4));
        self.c = self.c.wrapping_add(word(8));
    }

    /// lookup3's `mix`, between blocks.
    fn mix(&mut self) {
        let State { a, b, c } = self;
        *a = a.wrapping_sub(*c);
        *a ^= c.rotate_left(4);
        *c = c.wrapping_add(*b);
        *b = b.wrapping_sub(*a);
        *b ^= a.rotate_left(6);
        *a = a.wrapping_add(*c);
        *c = c.wrapping_sub(*b);
        *c ^= b.rotate_left(8);
        *b = b.wrapping_add(*a);
        *a = a.wrapping_sub(*c);
        *a ^= c.rotate_left(16);
        *c = c.wrapping_add(*b);
        *b = b.wrapping_sub(*a);
        *b ^= a.rotate_left(19);
        *a = a.wrapping_add(*c);
        *c = c.wrapping_sub(*b);
        *c ^= b.rotate_left(4);
        *b = b.wrapping_add(*a);
    }

    /// lookup3's `final`, after the last block.
    fn finish(&mut self) {
        let State { a, b, c } = self;
        *c ^= *b;
        *c = c.wrapping_sub(b.rotate_left(14));
        *a ^= *c;
        *a = a.wrapping_sub(c.rotate_left(11));
        *b ^= *a;
        *b = b.wrapping_sub(a.rotate_left(25));
        *c ^= *b;
        *c = c.wrapping_sub(b.rotate_left(16));
        *a ^= *c;
        *a = a.wrapping_sub(c.rotate_left(4));
        *b ^= *a;
        *b = b.wrapping_sub(a.rotate_left(14));
        *c ^= *b;
        *c = c.wrapping_sub(b.rotate_left(24));
    }
}

/// lookup3's `hashlittle` of `bytes`, seeded with `initval`: blocks of 12 bytes mixed in, the
/// last (1 to 12 bytes, zero-padded) finished; no bytes at all leave the seeded state as it is.
fn lookup3(bytes: &[u8], initval: u32) -> u32 {
    // lookup3 adds the length as a 32-bit number (it wraps for 4 GiB and more, as in C).
    let seed = 0xdead_beef_u32
        .wrapping_add(bytes.len() as u32)
        .wrapping_add(initval);
    let mut state = State {
        a: seed,
        b: seed,
        c: seed,
    };
    if bytes.is_empty() {
        return state.c;
    }
    // Every block but the last is mixed in; the last, 12 bytes or fewer, zero-padded, is
    // finished.
    let (blocks, last) = bytes.split_at((bytes.len() - 1) / 12 * 12);
    for block in blocks.as_chunks::<12>().0 {
        state.add(block);
        state.mix();
    }
    let mut padded = [0u8; 12];
    padded[..last.len()].copy_from_slice(last);
    state.add(&padded);
    state.finish();
    state.c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::checksum::tests::pattern;

    #[test]
    fn hashes_as_lookup3_and_numcodecs_do() {
        // lookup3.c's own checks of hashlittle.
        assert_eq!(lookup3(b"", 0), 0xdead_beef);
        assert_eq!(lookup3(b"", 0xdead_beef), 0xbd5b_7dde);
        assert_eq!(lookup3(b"Four score and seven years ago", 0), 0x1777_0551);
        assert_eq!(lookup3(b"Four score and seven years ago", 1), 0xcd62_8161);
        // numcodecs 0.17.1's jenkins_lookup3(pattern(n), initval) for n from 0 to 26: every
        // length of a last block, and blocks before it.
        let seeded_0: [u32; 27] = [
            0xdead_beef,
            0xb9c0_f036,
            0x76cc_dd71,
            0xa710_25c3,
            0x44e1_a72e,
            0xcd53_084d,
            0x1605_5da4,
            0x4f96_845f,
            0x39c6_0a25,
            0xa68c_01f8,
            0x98b8_e7c6,
            0x37d9_d710,
            0x3879_58f9,
            0x0d54_3670,
            0xc230_82d0,
            0x3eb3_94f6,
            0x7f4b_8ae7,
            0xe92a_9ccf,
            0xdd3c_dd0e,
            0xa781_88f7,
            0xc84f_b716,
            0xd711_5f5f,
            0x8252_ac1a,
            0x63d5_873f,
            0x2d97_23a7,
            0x43bd_1aa6,
            0x11c1_9254,
        ];
        let seeded: [u32; 27] = [
            0xf0e2_1567,
            0x8ca0_3486,
            0x23e0_21fd,
            0x4259_03dd,
            0x9c55_f910,
            0x0711_2ee0,
            0x6241_b470,
            0x8935_21fb,
            0xbc46_521b,
            0xbdaf_57d4,
            0x5f18_bebe,
            0x02f8_0256,
            0x2131_3dc9,
            0x4724_ca03,
            0xb10c_5638,
            0xfabc_a516,
            0x708c_93d2,
            0xf10a_04d8,
            0x1471_7b98,
            0xea97_7d1c,
            0xb15d_913b,
            0xfaf0_587c,
            0xc877_d133,
            0xbd70_4a33,
            0x7357_dc70,
            0x1f8f_284b,
            0x316b_0b24,
        ];
        for len in 0..27 {
            assert_eq!(lookup3(&pattern(len), 0), seeded_0[len], "{len} bytes");
            assert_eq!(
                lookup3(&pattern(len), 0x1234_5678),
                seeded[len],
                "{len} bytes, seeded"
            );
        }
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(lookup3(&all, 0), 0xe20e_0833);
        assert_eq!(lookup3(b"abc", 7), 0xbf24_ce9b);
    }

    #[test]
    fn frames_at_the_end_and_refuses_a_damaged_chunk() {
        let codec = JenkinsLookup3Codec { initval: 7 };
        let encoded = codec.encode_chunk(b"abc").unwrap();
        assert_eq!(encoded, [b'a', b'b', b'c', 0x9b, 0xce, 0x24, 0xbf]);
        let exact = DecodedSize::exact(3);
        assert_eq!(
            codec
                .decode_chunk(&encoded, exact, &CodecOptions::default())
                .unwrap(),
            b"abc"
        );
        let error = JenkinsLookup3Codec { initval: 0 }
            .decode_chunk(&encoded, exact, &CodecOptions::default())
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("jenkins_lookup3: the checksum stored at the end"),
            "{error}"
        );
    }

    #[test]
    fn configurations_as_numcodecs_writes_them() {
        let json: Map<String, Json> =
            serde_json::from_str(r#"{"initval": 5, "prefix": null}"#).unwrap();
        let codec = JenkinsLookup3Codec::from_configuration(&json).unwrap();
        assert_eq!(codec.initval, 5);
        assert_eq!(Json::Object(codec.configuration()), Json::Object(json));
        assert_eq!(
            JenkinsLookup3Codec::from_configuration(&Map::new())
                .unwrap()
                .initval,
            0
        );
        for (bad, why) in [
            (
                r#"{"initval": -1}"#,
                "initval -1 is not a 32-bit unsigned integer",
            ),
            (
                r#"{"initval": 4294967296}"#,
                "not a 32-bit unsigned integer",
            ),
            (
                r#"{"prefix": [97, 98]}"#,
                "prefix [97,98]: zarrdt reads only a null prefix",
            ),
            (r#"{"seed": 1}"#, "unknown key \"seed\""),
        ] {
            let json: Map<String, Json> = serde_json::from_str(bad).unwrap();
            let error = JenkinsLookup3Codec::from_configuration(&json)
                .unwrap_err()
                .to_string();
            assert!(error.contains(why), "{bad}: {error}");
        }
    }
}
