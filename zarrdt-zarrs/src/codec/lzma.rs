//! numcodecs' `lzma` codec (Zarr v2 id `lzma`, Zarr v3 name `numcodecs.lzma`): Python's
//! `lzma.compress` and `lzma.decompress` with numcodecs' `format`, `check`, `preset` and
//! `filters`, through liblzma (the library Python's `lzma` module is built on), so every
//! container and filter chain numcodecs writes decodes:
//!
//! * `format` 1 (`FORMAT_XZ`, the default), 2 (`FORMAT_ALONE`, `.lzma`), 3 (`FORMAT_RAW`, a
//!   bare filter chain, given by `filters`); 0 (`FORMAT_AUTO`) decodes xz or `.lzma` but, as in
//!   Python, cannot encode;
//! * `check` (xz only): -1 (CRC64), 0 (none), 1 (CRC32), 4 (CRC64), 10 (SHA-256);
//! * `preset` 0 to 9, optionally with `PRESET_EXTREME` (2³¹); 6 when absent;
//! * `filters`: Python's filter specifications, `{"id": 33, "preset": 1}` (LZMA2),
//!   `{"id": 4611686018427387905, "dict_size": …, "lc": …, "lp": …, "pb": …, "mode": …,
//!   "nice_len": …, "mf": …, "depth": …}` (LZMA1), `{"id": 3, "dist": 4}` (delta), and the BCJ
//!   filters 4 to 9 with `start_offset`.
//!
//! Decoding is bounded: the output grows only as the stream produces bytes, up to the size
//! zarrs expects for the chunk; liblzma's decoder memory (its dictionary, whose size a stream
//! declares) is limited to the larger of that size and 64 MiB (the dictionary of preset 9, the
//! largest numcodecs writes without custom filters), plus 1 MiB.

use std::io::Read;

use liblzma::bufread::{XzDecoder, XzEncoder};
use liblzma::stream::{
    CONCATENATED, Check, Filters, LzmaOptions, MatchFinder, Mode, PRESET_EXTREME, Stream,
};
use serde_json::{Map, Value as Json, json};
use zarrs::array::codec::api::{CodecError, CodecOptions};
use zarrs::plugin::PluginCreateError;

use super::bound::{DecodedSize, read_bounded};
use super::configuration::{Settings, invalid};
use super::whole_chunk::{WholeChunkCodec, whole_chunk_codec};

/// The dictionary of preset 9 (and 9e), the largest of any preset.
const LARGEST_PRESET_DICTIONARY: u64 = 64 << 20;
/// liblzma's decoder memory besides the dictionary, with room to spare.
const DECODER_OVERHEAD: u64 = 1 << 20;

/// Python's `lzma.FILTER_*` ids.
const FILTER_LZMA1: u64 = 0x4000_0000_0000_0001;
const FILTER_LZMA2: u64 = 0x21;
const FILTER_DELTA: u64 = 0x03;

/// numcodecs' LZMA codec.
#[derive(Clone, Debug)]
pub(crate) struct LzmaCodec {
    format: Format,
    /// numcodecs' `check`: -1 is the format's default.
    check: i64,
    /// numcodecs' `preset`, if given.
    preset: Option<u32>,
    /// numcodecs' `filters`, if given.
    filters: Option<Vec<FilterSpec>>,
    /// The `filters` as written, for the metadata.
    filters_json: Json,
}

/// Python's `lzma.FORMAT_*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Auto = 0,
    Xz = 1,
    Alone = 2,
    Raw = 3,
}

/// One filter of a chain, as Python's `lzma` reads a filter specification.
#[derive(Clone, Debug)]
enum FilterSpec {
    Lzma1(LzmaSpec),
    Lzma2(LzmaSpec),
    /// Delta, with its distance (1 to 256).
    Delta(u32),
    /// A branch/call/jump filter (`FILTER_X86` … `FILTER_SPARC`), with its start offset.
    Bcj {
        id: u64,
        start_offset: u32,
    },
}

/// The options of an LZMA1 or LZMA2 filter: a preset, then the keys given.
#[derive(Clone, Debug, Default)]
struct LzmaSpec {
    preset: u32,
    dict_size: Option<u32>,
    lc: Option<u32>,
    lp: Option<u32>,
    pb: Option<u32>,
    mode: Option<u32>,
    nice_len: Option<u32>,
    mf: Option<u32>,
    depth: Option<u32>,
}

whole_chunk_codec!(LzmaCodec, v3: "numcodecs.lzma", v2: "lzma");

impl LzmaCodec {
    /// The xz codec at `preset` with a CRC64 check: numcodecs' `LZMA(preset=preset)`.
    pub(crate) fn xz(preset: u32) -> Result<Self, PluginCreateError> {
        LzmaCodec::from_configuration(&json_map(json!({
            "format": 1, "check": -1, "preset": preset, "filters": null
        })))
    }

    /// The filter chain, built for liblzma.
    fn chain(&self) -> Result<Option<Filters>, CodecError> {
        let Some(specs) = &self.filters else {
            return Ok(None);
        };
        let mut filters = Filters::new();
        for spec in specs {
            spec.push(&mut filters)?;
        }
        Ok(Some(filters))
    }

    fn preset(&self) -> u32 {
        self.preset.unwrap_or(6)
    }

    /// An encoder for this configuration, as `lzma.compress` makes it.
    fn encoder(&self) -> Result<Stream, CodecError> {
        let failed = |e: liblzma::stream::Error| CodecError::Other(format!("lzma: {e}"));
        match self.format {
            Format::Auto => Err(CodecError::Other(
                "lzma: format 0 (auto) only decodes; numcodecs cannot encode it either".into(),
            )),
            Format::Xz => {
                let check = match self.check {
                    0 => Check::None,
                    1 => Check::Crc32,
                    10 => Check::Sha256,
                    _ => Check::Crc64,
                };
                match self.chain()? {
                    None => Stream::new_easy_encoder(self.preset(), check).map_err(failed),
                    Some(filters) => Stream::new_stream_encoder(&filters, check).map_err(failed),
                }
            }
            Format::Alone => {
                let options = match self.filters.as_deref() {
                    Some([FilterSpec::Lzma1(spec)]) => spec.options()?,
                    _ => LzmaOptions::new_preset(self.preset()).map_err(failed)?,
                };
                Stream::new_lzma_encoder(&options).map_err(failed)
            }
            Format::Raw => {
                let filters = self.chain()?.unwrap_or_else(Filters::new);
                Stream::new_raw_encoder(&filters).map_err(failed)
            }
        }
    }

    /// A decoder for this configuration whose memory stays within `memory` bytes.
    fn decoder(&self, memory: u64) -> Result<Stream, CodecError> {
        let failed = |e: liblzma::stream::Error| CodecError::Other(format!("lzma: {e}"));
        match self.format {
            Format::Auto => Stream::new_auto_decoder(memory, CONCATENATED).map_err(failed),
            Format::Xz => Stream::new_stream_decoder(memory, CONCATENATED).map_err(failed),
            Format::Alone => Stream::new_lzma_decoder(memory).map_err(failed),
            Format::Raw => {
                // The raw decoder takes no memory limit: its dictionaries are the
                // configuration's, checked here.
                for spec in self.filters.iter().flatten() {
                    if let FilterSpec::Lzma1(options) | FilterSpec::Lzma2(options) = spec
                        && let Some(size) = options.dict_size
                        && u64::from(size) > memory
                    {
                        return Err(CodecError::Other(format!(
                            "lzma: a dictionary of {size} bytes is more than the {memory} \
                             bytes zarrdt allows for decoding this chunk"
                        )));
                    }
                }
                let filters = self.chain()?.unwrap_or_else(Filters::new);
                Stream::new_raw_decoder(&filters).map_err(failed)
            }
        }
    }
}

/// A numcodecs preset: a level 0 to 9, optionally with `PRESET_EXTREME`.
fn preset_of(preset: i64) -> Result<u32, PluginCreateError> {
    let bad = || {
        invalid(
            "lzma",
            format!("preset {preset} is not 0 to 9 (optionally | PRESET_EXTREME, 2147483648)"),
        )
    };
    let preset = u32::try_from(preset).map_err(|_| bad())?;
    if preset & !PRESET_EXTREME > 9 {
        return Err(bad());
    }
    Ok(preset)
}

/// The map of a JSON object (`{}` otherwise).
fn json_map(value: Json) -> Map<String, Json> {
    match value {
        Json::Object(map) => map,
        _ => Map::new(),
    }
}

impl FilterSpec {
    /// A filter specification as Python's `lzma` reads it.
    fn from_json(spec: &Json) -> Result<Self, PluginCreateError> {
        let Json::Object(map) = spec else {
            return Err(invalid("lzma", format!("filter {spec} is not an object")));
        };
        let mut settings = Settings::new("lzma filter", map);
        let id = map
            .get("id")
            .and_then(Json::as_u64)
            .ok_or_else(|| invalid("lzma", format!("filter {spec} has no integer id")))?;
        let mut small = |key: &'static str| -> Result<Option<u32>, PluginCreateError> {
            match settings.get(key) {
                None => Ok(None),
                Some(value) => value
                    .as_u64()
                    .and_then(|v| u32::try_from(v).ok())
                    .map_or_else(
                        || Err(invalid("lzma", format!("filter {spec}: {key} is {value}"))),
                        |v| Ok(Some(v)),
                    ),
            }
        };
        let filter = match id {
            FILTER_LZMA1 | FILTER_LZMA2 => {
                let preset = match small("preset")? {
                    None => 6,
                    Some(preset) => preset_of(i64::from(preset))?,
                };
                let options = LzmaSpec {
                    preset,
                    dict_size: small("dict_size")?,
                    lc: small("lc")?,
                    lp: small("lp")?,
                    pb: small("pb")?,
                    mode: small("mode")?,
                    nice_len: small("nice_len")?,
                    mf: small("mf")?,
                    depth: small("depth")?,
                };
                if id == FILTER_LZMA1 {
                    FilterSpec::Lzma1(options)
                } else {
                    FilterSpec::Lzma2(options)
                }
            }
            FILTER_DELTA => {
                let dist = small("dist")?.unwrap_or(1);
                if !(1..=256).contains(&dist) {
                    return Err(invalid(
                        "lzma",
                        format!("filter {spec}: dist is not 1 to 256"),
                    ));
                }
                FilterSpec::Delta(dist)
            }
            4..=9 => FilterSpec::Bcj {
                id,
                start_offset: small("start_offset")?.unwrap_or(0),
            },
            other => {
                return Err(invalid(
                    "lzma",
                    format!(
                        "filter id {other} is none of Python's FILTER_LZMA1, FILTER_LZMA2, \
                         FILTER_DELTA, FILTER_X86 … FILTER_SPARC"
                    ),
                ));
            }
        };
        settings.finish()?;
        Ok(filter)
    }

    /// Appends this filter to `filters`.
    fn push(&self, filters: &mut Filters) -> Result<(), CodecError> {
        let failed =
            |e: liblzma::stream::Error| CodecError::Other(format!("lzma: filter {self:?}: {e}"));
        match self {
            FilterSpec::Lzma1(spec) => {
                filters.lzma1(&spec.options()?);
            }
            FilterSpec::Lzma2(spec) => {
                filters.lzma2(&spec.options()?);
            }
            FilterSpec::Delta(dist) => {
                let distance = u8::try_from(dist - 1).unwrap_or(u8::MAX);
                filters.delta_properties(&[distance]).map_err(failed)?;
            }
            FilterSpec::Bcj { id, start_offset } => {
                let properties = start_offset.to_le_bytes();
                let properties: &[u8] = if *start_offset == 0 { &[] } else { &properties };
                match id {
                    4 => filters.x86_properties(properties),
                    5 => filters.powerpc_properties(properties),
                    6 => filters.ia64_properties(properties),
                    7 => filters.arm_properties(properties),
                    8 => filters.arm_thumb_properties(properties),
                    _ => filters.sparc_properties(properties),
                }
                .map_err(failed)?;
            }
        }
        Ok(())
    }
}

impl LzmaSpec {
    /// liblzma's options: the preset's, then the keys given.
    fn options(&self) -> Result<LzmaOptions, CodecError> {
        let mut options = LzmaOptions::new_preset(self.preset)
            .map_err(|e| CodecError::Other(format!("lzma: preset {}: {e}", self.preset)))?;
        if let Some(size) = self.dict_size {
            options.dict_size(size);
        }
        if let Some(lc) = self.lc {
            options.literal_context_bits(lc);
        }
        if let Some(lp) = self.lp {
            options.literal_position_bits(lp);
        }
        if let Some(pb) = self.pb {
            options.position_bits(pb);
        }
        if let Some(mode) = self.mode {
            options.mode(match mode {
                1 => Mode::Fast,
                2 => Mode::Normal,
                other => {
                    return Err(CodecError::Other(format!(
                        "lzma: mode {other} is neither 1 (MODE_FAST) nor 2 (MODE_NORMAL)"
                    )));
                }
            });
        }
        if let Some(nice_len) = self.nice_len {
            options.nice_len(nice_len);
        }
        if let Some(mf) = self.mf {
            options.match_finder(match mf {
                0x03 => MatchFinder::HashChain3,
                0x04 => MatchFinder::HashChain4,
                0x12 => MatchFinder::BinaryTree2,
                0x13 => MatchFinder::BinaryTree3,
                0x14 => MatchFinder::BinaryTree4,
                other => {
                    return Err(CodecError::Other(format!(
                        "lzma: mf {other} is none of Python's MF_HC3, MF_HC4, MF_BT2, MF_BT3, \
                         MF_BT4"
                    )));
                }
            });
        }
        if let Some(depth) = self.depth {
            options.depth(depth);
        }
        Ok(options)
    }
}

impl WholeChunkCodec for LzmaCodec {
    /// The codec of a configuration as numcodecs writes it (`{}` for the defaults).
    fn from_configuration(configuration: &Map<String, Json>) -> Result<Self, PluginCreateError> {
        let mut settings = Settings::new("lzma", configuration);
        let format = match settings.integer("format")?.unwrap_or(1) {
            0 => Format::Auto,
            1 => Format::Xz,
            2 => Format::Alone,
            3 => Format::Raw,
            other => {
                return Err(invalid(
                    "lzma",
                    format!("format {other} is none of 0 (auto), 1 (xz), 2 (alone), 3 (raw)"),
                ));
            }
        };
        let check = settings.integer("check")?.unwrap_or(-1);
        if !matches!(check, -1 | 0 | 1 | 4 | 10) {
            return Err(invalid(
                "lzma",
                format!(
                    "check {check} is none of -1 (default), 0 (none), 1 (CRC32), 4 (CRC64), \
                     10 (SHA-256)"
                ),
            ));
        }
        if format != Format::Xz && !matches!(check, -1 | 0) {
            return Err(invalid(
                "lzma",
                format!("check {check}: only the xz format (1) has an integrity check"),
            ));
        }
        let preset = match settings.integer("preset")? {
            None => None,
            Some(preset) => Some(preset_of(preset)?),
        };
        let filters_json = settings.get("filters").cloned().unwrap_or(Json::Null);
        let filters = match &filters_json {
            Json::Null => None,
            Json::Array(specs) => Some(
                specs
                    .iter()
                    .map(FilterSpec::from_json)
                    .collect::<Result<Vec<_>, _>>()?,
            ),
            other => return Err(invalid("lzma", format!("filters is {other}, not a list"))),
        };
        settings.finish()?;
        if preset.is_some() && filters.is_some() {
            return Err(invalid(
                "lzma",
                "a preset and a filter chain cannot both be given",
            ));
        }
        match (&format, &filters) {
            (Format::Raw, None) => {
                return Err(invalid("lzma", "the raw format (3) needs a filter chain"));
            }
            (_, Some(filters)) if filters.is_empty() || filters.len() > 4 => {
                return Err(invalid("lzma", "a filter chain has 1 to 4 filters"));
            }
            (Format::Alone, Some(filters))
                if !matches!(filters.as_slice(), [FilterSpec::Lzma1(_)]) =>
            {
                return Err(invalid(
                    "lzma",
                    "the alone format (2) takes one LZMA1 filter",
                ));
            }
            _ => {}
        }
        Ok(LzmaCodec {
            format,
            check,
            preset,
            filters,
            filters_json,
        })
    }

    fn configuration(&self) -> Map<String, Json> {
        json_map(json!({
            "format": self.format as i64,
            "check": self.check,
            "preset": self.preset,
            "filters": self.filters_json,
        }))
    }

    fn encoded_bound(&self, size: u64) -> u64 {
        // LZMA2 stores incompressible data in chunks of 64 KiB with 3-byte headers; LZMA1
        // (alone, raw) expands it by a few percent; the xz container adds a few hundred bytes
        // of headers, index and check.
        size + size / 16 + 4096
    }

    fn encode_chunk(&self, decoded: &[u8]) -> Result<Vec<u8>, CodecError> {
        let mut encoder = XzEncoder::new_stream(decoded, self.encoder()?);
        let mut out = Vec::with_capacity(decoded.len() / 2 + 64);
        encoder
            .read_to_end(&mut out)
            .map_err(|e| CodecError::Other(format!("lzma: {e}")))?;
        Ok(out)
    }

    fn decode_chunk(
        &self,
        encoded: &[u8],
        expected: DecodedSize,
        _options: &CodecOptions,
    ) -> Result<Vec<u8>, CodecError> {
        let memory = expected.size.max(LARGEST_PRESET_DICTIONARY) + DECODER_OVERHEAD;
        let mut decoder = XzDecoder::new_stream(encoded, self.decoder(memory)?);
        let out = read_bounded("lzma", &mut decoder, expected, encoded.len())?;
        let rest = decoder.get_ref().len();
        if rest > 0 {
            return Err(CodecError::Other(format!(
                "lzma: {rest} bytes follow the end of the stream"
            )));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use zarrs::array::BytesRepresentation;
    use zarrs::array::codec::api::{BytesToBytesCodecTraits, CodecOptions};

    use super::*;

    fn codec(configuration: Json) -> LzmaCodec {
        LzmaCodec::from_configuration(&json_map(configuration)).unwrap()
    }

    fn round_trip(codec: &LzmaCodec, data: &[u8]) -> Vec<u8> {
        let options = CodecOptions::default();
        let encoded = codec.encode(Cow::Borrowed(data), &options).unwrap();
        let representation = BytesRepresentation::FixedSize(data.len() as u64);
        codec
            .decode(encoded, &representation, &options)
            .unwrap()
            .into_owned()
    }

    fn sample() -> Vec<u8> {
        (0..50_000u32).map(|i| (i * 7 % 253) as u8).collect()
    }

    #[test]
    fn every_format_round_trips() {
        let data = sample();
        for configuration in [
            json!({}),
            json!({"preset": 1}),
            json!({"preset": 9 | PRESET_EXTREME, "check": 10}),
            json!({"check": 0}),
            json!({"format": 2}),
            json!({"format": 2, "filters": [{"id": FILTER_LZMA1, "preset": 2, "lc": 0}]}),
            json!({"format": 3, "filters": [{"id": 33, "preset": 1}]}),
            json!({"format": 3, "filters": [{"id": 3, "dist": 4}, {"id": 33, "dict_size": 65536}]}),
            json!({"format": 1, "filters": [{"id": 4}, {"id": 33, "mode": 1, "mf": 4}]}),
            json!({"format": 3, "filters": [{"id": FILTER_LZMA1, "pb": 0, "nice_len": 32, "depth": 4}]}),
        ] {
            let codec = codec(configuration.clone());
            assert_eq!(round_trip(&codec, &data), data, "{configuration}");
        }
    }

    #[test]
    fn the_auto_format_decodes_xz_and_alone_but_does_not_encode() {
        let data = sample();
        let auto = codec(json!({"format": 0}));
        let options = CodecOptions::default();
        let representation = BytesRepresentation::FixedSize(data.len() as u64);
        for source in [codec(json!({})), codec(json!({"format": 2}))] {
            let encoded = source.encode(Cow::Borrowed(&data), &options).unwrap();
            let decoded = auto.decode(encoded, &representation, &options).unwrap();
            assert_eq!(decoded.as_ref(), data.as_slice());
        }
        assert!(auto.encode(Cow::Borrowed(&data), &options).is_err());
    }

    #[test]
    fn decoding_stops_at_the_expected_size() {
        let codec = codec(json!({}));
        let options = CodecOptions::default();
        let zeros = vec![0u8; 1 << 20];
        let encoded = codec.encode(Cow::Borrowed(&zeros), &options).unwrap();
        for representation in [
            BytesRepresentation::FixedSize(1000),
            BytesRepresentation::BoundedSize(1000),
        ] {
            let error = codec
                .decode(Cow::Borrowed(&encoded), &representation, &options)
                .unwrap_err()
                .to_string();
            assert!(error.contains("decodes to more than 1000 bytes"), "{error}");
        }
        let short = BytesRepresentation::FixedSize(2 << 20);
        let error = codec
            .decode(Cow::Borrowed(&encoded), &short, &options)
            .unwrap_err()
            .to_string();
        assert!(error.contains("decodes to 1048576 bytes"), "{error}");
    }

    #[test]
    fn corrupt_and_trailing_bytes_are_errors() {
        let codec = codec(json!({}));
        let data = sample();
        let options = CodecOptions::default();
        let representation = BytesRepresentation::FixedSize(data.len() as u64);
        let encoded = codec
            .encode(Cow::Borrowed(&data), &options)
            .unwrap()
            .into_owned();
        let mut flipped = encoded.clone();
        let middle = flipped.len() / 2;
        flipped[middle] ^= 0x55;
        assert!(
            codec
                .decode(Cow::Owned(flipped), &representation, &options)
                .is_err()
        );
        let truncated = encoded[..encoded.len() - 1].to_vec();
        assert!(
            codec
                .decode(Cow::Owned(truncated), &representation, &options)
                .is_err()
        );
        let raw = self::codec(json!({"format": 3, "filters": [{"id": 33}]}));
        let mut trailing = raw
            .encode(Cow::Borrowed(&data), &options)
            .unwrap()
            .into_owned();
        trailing.extend_from_slice(b"junk");
        let error = raw
            .decode(Cow::Owned(trailing), &representation, &options)
            .unwrap_err()
            .to_string();
        assert!(error.contains("4 bytes follow"), "{error}");
    }

    #[test]
    fn invalid_configurations_say_what_is_wrong() {
        for (configuration, says) in [
            (json!({"format": 7}), "format 7"),
            (json!({"check": 3}), "check 3"),
            (json!({"format": 2, "check": 4}), "only the xz format"),
            (json!({"preset": 10}), "preset 10"),
            (json!({"format": 3}), "needs a filter chain"),
            (
                json!({"preset": 1, "filters": [{"id": 33}]}),
                "cannot both be given",
            ),
            (json!({"filters": [{"id": 99}]}), "filter id 99"),
            (json!({"filters": [{"id": 3, "dist": 0}]}), "dist"),
            (json!({"filters": [{"id": 33, "colour": 1}]}), "colour"),
            (
                json!({"format": 2, "filters": [{"id": 33}]}),
                "one LZMA1 filter",
            ),
            (json!({"level": 1}), "unknown key \"level\""),
        ] {
            let error = LzmaCodec::from_configuration(&json_map(configuration.clone()))
                .unwrap_err()
                .to_string();
            assert!(error.contains(says), "{configuration}: {error}");
        }
    }

    #[test]
    fn raw_dictionaries_beyond_the_limit_are_refused() {
        let codec =
            codec(json!({"format": 3, "filters": [{"id": 33, "dict_size": 1_000_000_000u32}]}));
        let representation = BytesRepresentation::FixedSize(10);
        let error = codec
            .decode(
                Cow::Borrowed(&[0u8; 8]),
                &representation,
                &CodecOptions::default(),
            )
            .unwrap_err()
            .to_string();
        assert!(error.contains("dictionary of 1000000000 bytes"), "{error}");
    }
}
