//! zarrdt's own bytes-to-bytes codecs (numcodecs' `lz4` and `lzma`) as zarrs codecs.
//!
//! Each encodes and decodes a whole chunk at once, one chunk per thread, with no partial reads
//! or writes: what a codec must say is only [`WholeChunkCodec`]; [`whole_chunk_codec!`] then
//! implements zarrs' codec traits for it and registers it with zarrs for Zarr v3 and v2 (at
//! link time, through `inventory`, as zarrs registers its own codecs). zarrs' traits are
//! foreign to this crate, so one blanket impl is not allowed: the macro writes the same impls
//! for each codec type.

use serde_json::{Map, Value as Json};
use zarrs::array::codec::api::{CodecError, CodecOptions};
use zarrs::plugin::PluginCreateError;

use super::bound::DecodedSize;

/// A codec that encodes and decodes whole chunks.
pub(crate) trait WholeChunkCodec: Clone + std::fmt::Debug + Send + Sync + 'static {
    /// The codec of a configuration as numcodecs writes it.
    fn from_configuration(configuration: &Map<String, Json>) -> Result<Self, PluginCreateError>;

    /// Its configuration, as numcodecs writes it.
    fn configuration(&self) -> Map<String, Json>;

    /// The most bytes a chunk of `size` bytes encodes to.
    fn encoded_bound(&self, size: u64) -> u64;

    /// `decoded`, encoded.
    fn encode_chunk(&self, decoded: &[u8]) -> Result<Vec<u8>, CodecError>;

    /// `encoded`, decoded: `expected` bytes (or at most that many), never more; a checksum
    /// checked unless `options` say not to (zarrs' `validate_checksums`).
    fn decode_chunk(
        &self,
        encoded: &[u8],
        expected: DecodedSize,
        options: &CodecOptions,
    ) -> Result<Vec<u8>, CodecError>;
}

/// Implements zarrs' codec traits for the [`WholeChunkCodec`] `$codec` and registers it under
/// the Zarr v3 name `$v3` and the Zarr v2 id `$v2`.
macro_rules! whole_chunk_codec {
    ($codec:ident, v3: $v3:literal, v2: $v2:literal) => {
        zarrs::plugin::impl_extension_aliases!($codec, v3: $v3, [], v2: $v2, []);

        inventory::submit! {
            zarrs::array::codec::api::CodecPluginV3::new::<$codec>()
        }

        inventory::submit! {
            zarrs::array::codec::api::CodecPluginV2::new::<$codec>()
        }

        impl zarrs::array::codec::api::CodecTraitsV3 for $codec {
            fn create(
                metadata: &zarrs::metadata::v3::MetadataV3,
            ) -> Result<zarrs::array::codec::api::Codec, zarrs::plugin::PluginCreateError> {
                let configuration = $crate::codec::configuration::of_v3(metadata);
                let codec = <$codec as $crate::codec::whole_chunk::WholeChunkCodec>::from_configuration(
                    &configuration,
                )?;
                Ok(zarrs::array::codec::api::Codec::BytesToBytes(std::sync::Arc::new(codec)))
            }
        }

        impl zarrs::array::codec::api::CodecTraitsV2 for $codec {
            fn create(
                metadata: &zarrs::metadata::v2::MetadataV2,
            ) -> Result<zarrs::array::codec::api::Codec, zarrs::plugin::PluginCreateError> {
                let codec = <$codec as $crate::codec::whole_chunk::WholeChunkCodec>::from_configuration(
                    metadata.configuration(),
                )?;
                Ok(zarrs::array::codec::api::Codec::BytesToBytes(std::sync::Arc::new(codec)))
            }
        }

        impl zarrs::array::codec::api::CodecTraits for $codec {
            fn as_any(&self) -> &dyn std::any::Any {
                self
            }

            fn configuration(
                &self,
                _version: zarrs::plugin::ZarrVersion,
                _options: &zarrs::array::codec::api::CodecMetadataOptions,
            ) -> Option<zarrs::metadata::Configuration> {
                Some($crate::codec::whole_chunk::WholeChunkCodec::configuration(self).into())
            }

            fn partial_decoder_capability(
                &self,
            ) -> zarrs::array::codec::api::PartialDecoderCapability {
                zarrs::array::codec::api::PartialDecoderCapability {
                    partial_read: false,
                    partial_decode: false,
                }
            }

            fn partial_encoder_capability(
                &self,
            ) -> zarrs::array::codec::api::PartialEncoderCapability {
                zarrs::array::codec::api::PartialEncoderCapability {
                    partial_encode: false,
                }
            }
        }

        impl zarrs::array::codec::api::BytesToBytesCodecTraits for $codec {
            fn into_dyn(
                self: std::sync::Arc<Self>,
            ) -> std::sync::Arc<dyn zarrs::array::codec::api::BytesToBytesCodecTraits> {
                self
            }

            fn recommended_concurrency(
                &self,
                _decoded_representation: &zarrs::array::BytesRepresentation,
            ) -> Result<
                zarrs::array::codec::api::RecommendedConcurrency,
                zarrs::array::codec::api::CodecError,
            > {
                Ok(zarrs::array::codec::api::RecommendedConcurrency::new_maximum(1))
            }

            fn encoded_representation(
                &self,
                decoded_representation: &zarrs::array::BytesRepresentation,
            ) -> zarrs::array::BytesRepresentation {
                decoded_representation.size().map_or(
                    zarrs::array::BytesRepresentation::UnboundedSize,
                    |size| {
                        zarrs::array::BytesRepresentation::BoundedSize(
                            $crate::codec::whole_chunk::WholeChunkCodec::encoded_bound(self, size),
                        )
                    },
                )
            }

            fn encode<'a>(
                &self,
                decoded_value: zarrs::array::ArrayBytesRaw<'a>,
                _options: &zarrs::array::codec::api::CodecOptions,
            ) -> Result<zarrs::array::ArrayBytesRaw<'a>, zarrs::array::codec::api::CodecError>
            {
                $crate::codec::whole_chunk::WholeChunkCodec::encode_chunk(self, &decoded_value)
                    .map(std::borrow::Cow::Owned)
            }

            fn decode<'a>(
                &self,
                encoded_value: zarrs::array::ArrayBytesRaw<'a>,
                decoded_representation: &zarrs::array::BytesRepresentation,
                options: &zarrs::array::codec::api::CodecOptions,
            ) -> Result<zarrs::array::ArrayBytesRaw<'a>, zarrs::array::codec::api::CodecError>
            {
                let expected = $crate::codec::bound::DecodedSize::of(decoded_representation);
                $crate::codec::whole_chunk::WholeChunkCodec::decode_chunk(
                    self,
                    &encoded_value,
                    expected,
                    options,
                )
                .map(std::borrow::Cow::Owned)
            }
        }
    };
}

pub(crate) use whole_chunk_codec;
