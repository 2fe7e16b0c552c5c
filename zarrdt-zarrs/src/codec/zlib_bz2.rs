//! numcodecs' `zlib` and `bz2` codecs: zarrs' own (its `zlib` and `bz2` features), given the
//! configurations zarr-python writes and decoded within the chunk's size.
//!
//! zarrs 0.23.14 needs a `level` where zarr-python 3 writes `{}` for the default, and decodes
//! with `read_to_end`, so a chunk of a few hundred bytes can decode to gigabytes (bzip2's
//! ratio has no practical bound). These codecs take numcodecs' default level (1) when none is
//! written, encode through zarrs' codec, and decode through the same crates (`flate2`,
//! `bzip2`) into at most the size zarrs expects for the chunk. They are registered with zarrs
//! at run time ([`register`]), which puts them before zarrs' own codecs of the same names.

use std::sync::Arc;

use serde_json::{Map, Value as Json};
use zarrs::array::codec::api::{
    Codec, CodecError, CodecRuntimePluginV2, CodecRuntimePluginV3, register_codec_v2,
    register_codec_v3,
};
use zarrs::array::codec::{Bz2Codec, Bz2CompressionLevel, ZlibCodec, ZlibCompressionLevel};
use zarrs::plugin::PluginCreateError;

use super::bound::{DecodedSize, read_bounded_into};
use super::bounded::BoundedCodec;
use super::configuration::{Settings, invalid, of_v3};

/// Which of the two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// zlib (RFC 1950) streams, numcodecs' `Zlib`.
    Zlib,
    /// bzip2 streams, numcodecs' `BZ2`.
    Bz2,
}

impl Kind {
    fn id(self) -> &'static str {
        match self {
            Kind::Zlib => "zlib",
            Kind::Bz2 => "bz2",
        }
    }

    /// The compression levels numcodecs and the compression crate take.
    fn levels(self) -> std::ops::RangeInclusive<u32> {
        match self {
            Kind::Zlib => 0..=9,
            Kind::Bz2 => 1..=9,
        }
    }

    /// The error of a `level` outside [`Kind::levels`].
    fn bad_level(self, level: impl std::fmt::Display) -> PluginCreateError {
        let levels = self.levels();
        invalid(
            self.id(),
            format!(
                "level {level} is not {} to {}",
                levels.start(),
                levels.end()
            ),
        )
    }
}

impl Kind {
    /// zarrs' codec of this kind at compression `level` (0 to 9 for zlib, 1 to 9 for bz2),
    /// decoded within bounds.
    pub(crate) fn codec(self, level: u32) -> Result<BoundedCodec, PluginCreateError> {
        // zarrs 0.23.14 takes a bz2 level of 0 and then panics making the codec (the bzip2
        // crate's levels are 1 to 9, as numcodecs' are), so the range is checked here first.
        let bad = || self.bad_level(level);
        if !self.levels().contains(&level) {
            return Err(bad());
        }
        Ok(match self {
            Kind::Zlib => BoundedCodec::new(
                Arc::new(ZlibCodec::new(
                    ZlibCompressionLevel::try_from(level).map_err(|_| bad())?,
                )),
                |encoded, expected, out| decode(Kind::Zlib, encoded, expected, out),
            ),
            Kind::Bz2 => BoundedCodec::new(
                Arc::new(Bz2Codec::new(
                    Bz2CompressionLevel::try_from(level).map_err(|_| bad())?,
                )),
                |encoded, expected, out| decode(Kind::Bz2, encoded, expected, out),
            ),
        })
    }

    /// The codec of a numcodecs configuration (`{"level": 5}`, or `{}` for level 1).
    fn codec_of(
        self,
        configuration: &Map<String, Json>,
    ) -> Result<BoundedCodec, PluginCreateError> {
        let mut settings = Settings::new(self.id(), configuration);
        let level = settings.integer("level")?.unwrap_or(1);
        settings.finish()?;
        let level = u32::try_from(level).map_err(|_| self.bad_level(level))?;
        self.codec(level)
    }
}

/// Checks a Zarr v2 compressor or filter `codec` (its JSON object, `id` included) of either
/// kind by making its codec (others pass): zarrs' conversion of Zarr v2 metadata makes a codec
/// of its own from it first, which panics on a bz2 level of 0 (zarrs 0.23.14).
pub(crate) fn check_v2(codec: &Map<String, Json>) -> Result<(), PluginCreateError> {
    let kind = match codec.get("id").and_then(Json::as_str) {
        Some("zlib") => Kind::Zlib,
        Some("bz2") => Kind::Bz2,
        _ => return Ok(()),
    };
    let mut configuration = codec.clone();
    configuration.remove("id");
    kind.codec_of(&configuration).map(|_| ())
}

/// Registers both codecs with zarrs, by their v3 names and v2 ids, ahead of zarrs' own.
pub(crate) fn register() {
    for kind in [Kind::Zlib, Kind::Bz2] {
        let v3_name = format!("numcodecs.{}", kind.id());
        let _v3 = register_codec_v3(CodecRuntimePluginV3::new(
            move |name| name == v3_name,
            move |metadata| {
                let codec = kind.codec_of(&of_v3(metadata))?;
                Ok(Codec::BytesToBytes(Arc::new(codec)))
            },
        ));
        let _v2 = register_codec_v2(CodecRuntimePluginV2::new(
            move |name| name == kind.id(),
            move |metadata| {
                let codec = kind.codec_of(metadata.configuration())?;
                Ok(Codec::BytesToBytes(Arc::new(codec)))
            },
        ));
    }
}

/// Decodes a `kind` stream into exactly (or at most) `expected` bytes, into `out`.
pub(crate) fn decode(
    kind: Kind,
    encoded: &[u8],
    expected: DecodedSize,
    out: &mut Vec<u8>,
) -> Result<(), CodecError> {
    match kind {
        Kind::Zlib => {
            let mut decoder = flate2::bufread::ZlibDecoder::new(encoded);
            read_bounded_into("zlib", &mut decoder, expected, encoded.len(), out)?;
            trailing("zlib", decoder.get_ref().len())
        }
        Kind::Bz2 => {
            // Every stream, one after another, as Python's `bz2.decompress` (and so
            // zarr-python) reads them; bytes after the last that begin no stream are an error.
            let mut decoder = bzip2::bufread::MultiBzDecoder::new(encoded);
            read_bounded_into("bz2", &mut decoder, expected, encoded.len(), out)?;
            trailing("bz2", decoder.get_ref().len())
        }
    }
}

/// Fails when `rest` bytes follow the end of the stream.
fn trailing(codec: &str, rest: usize) -> Result<(), CodecError> {
    if rest > 0 {
        return Err(CodecError::Other(format!(
            "{codec}: {rest} bytes follow the end of the stream"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use zarrs::array::BytesRepresentation;
    use zarrs::array::codec::api::{BytesToBytesCodecTraits, CodecOptions};

    use super::*;

    fn round_trip(kind: Kind, level: u32) {
        let codec = kind.codec(level).unwrap();
        let data: Vec<u8> = (0..20_000u32).map(|i| (i % 97) as u8).collect();
        let options = CodecOptions::default();
        let encoded = codec.encode(Cow::Borrowed(&data), &options).unwrap();
        let representation = BytesRepresentation::FixedSize(data.len() as u64);
        let decoded = codec.decode(encoded, &representation, &options).unwrap();
        assert_eq!(decoded.as_ref(), data.as_slice());
    }

    #[test]
    fn both_round_trip() {
        round_trip(Kind::Zlib, 1);
        round_trip(Kind::Zlib, 9);
        round_trip(Kind::Bz2, 1);
        round_trip(Kind::Bz2, 9);
    }

    #[test]
    fn a_bomb_stops_at_the_chunk_size() {
        for kind in [Kind::Zlib, Kind::Bz2] {
            let codec = kind.codec(9).unwrap();
            let zeros = vec![0u8; 8 << 20];
            let options = CodecOptions::default();
            let encoded = codec.encode(Cow::Borrowed(&zeros), &options).unwrap();
            assert!(encoded.len() < 64 << 10, "{kind:?}: {}", encoded.len());
            let representation = BytesRepresentation::FixedSize(4096);
            let error = codec
                .decode(encoded, &representation, &options)
                .unwrap_err()
                .to_string();
            assert!(error.contains("more than 4096"), "{kind:?}: {error}");
        }
    }

    /// bzip2 streams one after another (as `cat a.bz2 b.bz2` makes, and Python's `bz2` reads)
    /// are one chunk; it was refused as "decodes to 40 bytes" (the first stream's).
    #[test]
    fn bz2_streams_one_after_another_are_one_chunk() {
        let codec = Kind::Bz2.codec(9).unwrap();
        let options = CodecOptions::default();
        let data: Vec<u8> = (0..96u32).map(|i| (i * 7 % 251) as u8).collect();
        let stream = |bytes: &[u8]| {
            codec
                .encode(Cow::Borrowed(bytes), &options)
                .unwrap()
                .into_owned()
        };
        let encoded: Vec<u8> = [stream(&data[..40]), stream(&data[40..])].concat();
        let exact = BytesRepresentation::FixedSize(96);
        let decoded = codec
            .decode(Cow::Owned(encoded.clone()), &exact, &options)
            .unwrap();
        assert_eq!(decoded.as_ref(), data.as_slice());
        let tail = [encoded.as_slice(), b"junk"].concat();
        assert!(codec.decode(Cow::Owned(tail), &exact, &options).is_err());
    }

    #[test]
    fn configurations_as_zarr_python_writes_them() {
        let empty = Map::new();
        assert!(Kind::Zlib.codec_of(&empty).is_ok());
        let level: Map<String, Json> =
            serde_json::from_str(r#"{"id": "bz2", "level": 9}"#).unwrap();
        assert!(Kind::Bz2.codec_of(&level).is_ok());
        let bad: Map<String, Json> = serde_json::from_str(r#"{"level": 12}"#).unwrap();
        let error = Kind::Zlib.codec_of(&bad).unwrap_err().to_string();
        assert!(error.contains("level 12"), "{error}");
    }

    /// Levels outside numcodecs' ranges are errors, never zarrs' panic (a bz2 level of 0,
    /// which zarrs 0.23.14 takes and then panics on).
    #[test]
    fn levels_out_of_range_are_errors() {
        for (kind, level, message) in [
            (Kind::Bz2, 0, "level 0 is not 1 to 9"),
            (Kind::Bz2, 10, "level 10 is not 1 to 9"),
            (Kind::Bz2, -1, "level -1 is not 1 to 9"),
            (Kind::Zlib, 10, "level 10 is not 0 to 9"),
            (Kind::Zlib, -1, "level -1 is not 0 to 9"),
            (Kind::Zlib, 1i64 << 40, "level 1099511627776 is not 0 to 9"),
        ] {
            let configuration: Map<String, Json> =
                serde_json::from_value(serde_json::json!({"level": level})).unwrap();
            let error = kind.codec_of(&configuration).unwrap_err().to_string();
            assert!(error.contains(message), "{error}");
        }
        for (kind, level) in [
            (Kind::Bz2, 1),
            (Kind::Bz2, 9),
            (Kind::Zlib, 0),
            (Kind::Zlib, 9),
        ] {
            assert!(kind.codec(level).is_ok(), "{kind:?} {level}");
        }
    }
}
