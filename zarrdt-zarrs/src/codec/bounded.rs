//! One of zarrs' own bytes-to-bytes codecs with its decoder replaced by one bounded by the
//! chunk's size ([`super::bound`]): encoding, configuration, names and representations stay
//! zarrs'. `zlib`, `bz2` and `zstd` are such codecs.

use std::borrow::Cow;
use std::sync::Arc;

use zarrs::array::codec::api::{
    BytesToBytesCodecTraits, CodecError, CodecMetadataOptions, CodecOptions, CodecTraits,
    PartialDecoderCapability, PartialEncoderCapability, RecommendedConcurrency,
};
use zarrs::array::{ArrayBytesRaw, BytesRepresentation};
use zarrs::metadata::Configuration;
use zarrs::plugin::{ExtensionName, ZarrVersion};

use super::bound::DecodedSize;

/// A decoder of encoded bytes into exactly (or at most) the expected size.
pub(crate) type BoundedDecode = fn(&[u8], DecodedSize) -> Result<Vec<u8>, CodecError>;

/// zarrs' codec `inner`, decoded by `decode`.
#[derive(Debug)]
pub(crate) struct BoundedCodec {
    /// zarrs' codec: encoding, configuration and representation are its.
    inner: Arc<dyn BytesToBytesCodecTraits>,
    /// The decoder, which never allocates more than the chunk's decoded size.
    decode: BoundedDecode,
}

impl BoundedCodec {
    /// `inner`, decoded by `decode`.
    pub(crate) fn new(inner: Arc<dyn BytesToBytesCodecTraits>, decode: BoundedDecode) -> Self {
        BoundedCodec { inner, decode }
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

    fn decode<'a>(
        &self,
        encoded_value: ArrayBytesRaw<'a>,
        decoded_representation: &BytesRepresentation,
        _options: &CodecOptions,
    ) -> Result<ArrayBytesRaw<'a>, CodecError> {
        (self.decode)(&encoded_value, DecodedSize::of(decoded_representation)).map(Cow::Owned)
    }
}
