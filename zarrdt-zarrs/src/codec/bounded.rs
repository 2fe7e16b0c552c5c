//! One of zarrs' own bytes-to-bytes codecs with its decoder replaced by one bounded by the
//! chunk's size ([`super::bound`]), or kept behind a check of the size the encoded bytes
//! declare: encoding, configuration, names and representations stay zarrs'. `zlib`, `bz2`,
//! `gzip` and `zstd` are decoded by zarrdt; `blosc` by zarrs, its header checked first.

use std::borrow::Cow;
use std::sync::Arc;

use zarrs::array::codec::api::{
    BytesToBytesCodecTraits, Codec, CodecError, CodecMetadataOptions, CodecOptions,
    CodecRuntimePluginV2, CodecRuntimePluginV3, CodecTraits, CodecTraitsV2, CodecTraitsV3,
    PartialDecoderCapability, PartialEncoderCapability, RecommendedConcurrency, register_codec_v2,
    register_codec_v3,
};
use zarrs::array::{ArrayBytesRaw, BytesPartialDecoderTraits, BytesRepresentation};
use zarrs::metadata::Configuration;
use zarrs::plugin::{ExtensionName, ZarrVersion};
use zarrs::storage::StorageError;
use zarrs::storage::byte_range::{ByteRange, ByteRangeIterator, extract_byte_ranges};

use super::bound::DecodedSize;

/// A decoder of encoded bytes into exactly (or at most) the expected size, into a vector
/// (whatever it held: its capacity is reused).
pub(crate) type BoundedDecode = fn(&[u8], DecodedSize, &mut Vec<u8>) -> Result<(), CodecError>;

/// A check that the decoded size encoded bytes declare (which zarrs' decoder allocates) is the
/// expected one.
pub(crate) type DeclaredSizeCheck = fn(&[u8], DecodedSize) -> Result<(), CodecError>;

/// How a [`BoundedCodec`] decodes.
#[derive(Clone, Copy, Debug)]
enum Decoder {
    /// By its own decoder.
    Bounded(BoundedDecode),
    /// By zarrs' decoder, once the check has passed.
    Checked(DeclaredSizeCheck),
}

/// zarrs' codec `inner`, decoded within the chunk's size.
#[derive(Debug)]
pub(crate) struct BoundedCodec {
    /// zarrs' codec: encoding, configuration and representation are its.
    inner: Arc<dyn BytesToBytesCodecTraits>,
    /// The decoder, which never allocates more than the chunk's decoded size.
    decoder: Decoder,
}

impl BoundedCodec {
    /// `inner`, decoded by `decode`.
    pub(crate) fn new(inner: Arc<dyn BytesToBytesCodecTraits>, decode: BoundedDecode) -> Self {
        BoundedCodec {
            inner,
            decoder: Decoder::Bounded(decode),
        }
    }

    /// `inner`, decoded by its own decoder once `check` finds the size the encoded bytes
    /// declare (the size that decoder allocates) within the chunk's.
    pub(crate) fn checked(
        inner: Arc<dyn BytesToBytesCodecTraits>,
        check: DeclaredSizeCheck,
    ) -> Self {
        BoundedCodec {
            inner,
            decoder: Decoder::Checked(check),
        }
    }

    /// `encoded` decoded to `expected` bytes into `out` (whatever it held: its capacity is
    /// reused), where zarrdt decodes; `None` where zarrs' own decoder does (it allocates).
    pub(crate) fn decode_into(
        &self,
        encoded: &[u8],
        expected: DecodedSize,
        out: &mut Vec<u8>,
    ) -> Option<Result<(), CodecError>> {
        match self.decoder {
            Decoder::Bounded(decode) => Some(decode(encoded, expected, out)),
            Decoder::Checked(_) => None,
        }
    }
}

/// Registers zarrs' codec `C` under the v3 name and v2 id `name`, ahead of zarrs' own: made
/// from the same metadata by zarrs, then made a [`BoundedCodec`] by `wrap`.
pub(crate) fn register_bounded<C: CodecTraitsV3 + CodecTraitsV2>(
    name: &'static str,
    wrap: fn(Arc<dyn BytesToBytesCodecTraits>) -> BoundedCodec,
) {
    let _v3 = register_codec_v3(CodecRuntimePluginV3::new(
        move |candidate| candidate == name,
        move |metadata| Ok(bounded(<C as CodecTraitsV3>::create(metadata)?, wrap)),
    ));
    let _v2 = register_codec_v2(CodecRuntimePluginV2::new(
        move |candidate| candidate == name,
        move |metadata| Ok(bounded(<C as CodecTraitsV2>::create(metadata)?, wrap)),
    ));
}

/// `codec`, one zarrs made from metadata, with its bytes-to-bytes codec made a
/// [`BoundedCodec`] by `wrap` (any other kind of codec as it is).
fn bounded(codec: Codec, wrap: fn(Arc<dyn BytesToBytesCodecTraits>) -> BoundedCodec) -> Codec {
    match codec {
        Codec::BytesToBytes(inner) => Codec::BytesToBytes(Arc::new(wrap(inner))),
        other => other,
    }
}

impl ExtensionName for BoundedCodec {
    fn name(&self, version: ZarrVersion) -> Option<Cow<'static, str>> {
        self.inner.name(version)
    }
}

impl CodecTraits for BoundedCodec {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn configuration(
        &self,
        version: ZarrVersion,
        options: &CodecMetadataOptions,
    ) -> Option<Configuration> {
        self.inner.configuration(version, options)
    }

    fn partial_decoder_capability(&self) -> PartialDecoderCapability {
        self.inner.partial_decoder_capability()
    }

    fn partial_encoder_capability(&self) -> PartialEncoderCapability {
        self.inner.partial_encoder_capability()
    }
}

impl BytesToBytesCodecTraits for BoundedCodec {
    fn into_dyn(self: Arc<Self>) -> Arc<dyn BytesToBytesCodecTraits> {
        self
    }

    fn recommended_concurrency(
        &self,
        decoded_representation: &BytesRepresentation,
    ) -> Result<RecommendedConcurrency, CodecError> {
        self.inner.recommended_concurrency(decoded_representation)
    }

    fn encoded_representation(
        &self,
        decoded_representation: &BytesRepresentation,
    ) -> BytesRepresentation {
        self.inner.encoded_representation(decoded_representation)
    }

    fn encode<'a>(
        &self,
        decoded_value: ArrayBytesRaw<'a>,
        options: &CodecOptions,
    ) -> Result<ArrayBytesRaw<'a>, CodecError> {
        self.inner.encode(decoded_value, options)
    }

    /// The whole chunk decoded (as [`decode`](Self::decode) decodes it) for every request,
    /// as zarrs' default partial decoder does, but the whole of it handed over as decoded (see
    /// [`WholeDecode`]).
    fn partial_decoder(
        self: Arc<Self>,
        input_handle: Arc<dyn BytesPartialDecoderTraits>,
        decoded_representation: &BytesRepresentation,
        _options: &CodecOptions,
    ) -> Result<Arc<dyn BytesPartialDecoderTraits>, CodecError> {
        Ok(Arc::new(WholeDecode {
            input: input_handle,
            representation: *decoded_representation,
            codec: self,
        }))
    }

    fn decode<'a>(
        &self,
        encoded_value: ArrayBytesRaw<'a>,
        decoded_representation: &BytesRepresentation,
        options: &CodecOptions,
    ) -> Result<ArrayBytesRaw<'a>, CodecError> {
        let expected = DecodedSize::of(decoded_representation);
        match self.decoder {
            Decoder::Bounded(decode) => {
                let mut out = Vec::new();
                decode(&encoded_value, expected, &mut out)?;
                Ok(Cow::Owned(out))
            }
            Decoder::Checked(check) => {
                check(&encoded_value, expected)?;
                self.inner
                    .decode(encoded_value, decoded_representation, options)
            }
        }
    }
}

/// A [`BoundedCodec`]'s partial decoder: the whole chunk decoded, then the byte ranges asked
/// for copied out of it, but a request for the whole chunk (what zarrs' cache of a decoded
/// chunk asks for, once, when a chunk is read in parts) handed the decoded bytes themselves.
/// zarrs' default partial decoder copies every range out, the whole one too, so that a chunk
/// read in parts was held twice at once (1 GiB for a 512 MiB chunk).
struct WholeDecode {
    input: Arc<dyn BytesPartialDecoderTraits>,
    representation: BytesRepresentation,
    codec: Arc<BoundedCodec>,
}

impl BytesPartialDecoderTraits for WholeDecode {
    fn exists(&self) -> Result<bool, StorageError> {
        self.input.exists()
    }

    fn size_held(&self) -> usize {
        self.input.size_held()
    }

    fn partial_decode_many(
        &self,
        decoded_regions: ByteRangeIterator,
        options: &CodecOptions,
    ) -> Result<Option<Vec<ArrayBytesRaw<'_>>>, CodecError> {
        let Some(encoded) = self.input.decode(options)? else {
            return Ok(None);
        };
        let decoded = self
            .codec
            .decode(encoded, &self.representation, options)?
            .into_owned();
        let regions: Vec<ByteRange> = decoded_regions.collect();
        if let [ByteRange::FromStart(0, None)] = regions[..] {
            return Ok(Some(vec![Cow::Owned(decoded)]));
        }
        let ranges = extract_byte_ranges(&decoded, regions.into_iter())
            .map_err(CodecError::InvalidByteRangeError)?;
        Ok(Some(ranges.into_iter().map(Cow::Owned).collect()))
    }

    fn supports_partial_decode(&self) -> bool {
        false
    }
}
