//! Records read in the byte order they are stored in: the chunk's codecs run with a raw-bits
//! data type of the record's size, which the `bytes` codec passes through as it is, and the
//! records are decoded from the stored order by the sink (the derived decoders read either
//! order at the speed of a copy). zarrs' own decode converts every chunk to the native order
//! first (a copy and a swap of every value) and only then hands it over, to be decoded again.
//! A compressor zarrdt decodes ([`BoundedCodec`]) decodes into a buffer the read let go of
//! ([`SpareBuffers`]), in either order, not into fresh memory as zarrs' decode does.
//!
//! Only for a Zarr v3 `struct` (one byte order for every value, the `bytes` codec's; a Zarr v2
//! dtype has one per field) read through a chain of `bytes` and bytes-to-bytes codecs (an
//! array-to-array codec before `bytes` sees elements of the data type it is given).

use std::borrow::Cow;
use std::num::NonZeroU64;

use zarrdt_core::Endian;
use zarrs::array::codec::api::{ArrayToBytesCodecTraits, CodecMetadataOptions, CodecOptions};
use zarrs::array::codec::{BytesCodec, BytesCodecConfiguration, CodecChain};
use zarrs::array::data_type::api::codec_traits::bytes::BytesDataTypeTraits;
use zarrs::array::data_type::raw_bits;
use zarrs::array::{ArrayError, BytesRepresentation, DataType, FillValue};
use zarrs::plugin::ZarrVersion;

use super::spare::SpareBuffers;
use crate::StructDataType;
use crate::codec::bound::DecodedSize;
use crate::codec::bounded::BoundedCodec;
use crate::convert::{endian_of, endianness_of};

/// How chunks of one array's records are decoded to their stored byte order.
#[derive(Clone, Debug)]
pub(crate) struct StoredOrder {
    /// The order every multi-byte value is stored in.
    endian: Endian,
    /// The size of one record.
    size: u64,
    /// Raw bits of the record's size: what the codecs are told the elements are.
    raw: DataType,
    /// The fill value as stored.
    fill_value: FillValue,
}

impl StoredOrder {
    /// How chunks decoded by `codecs` (elements of `data_type`, fill value `fill_value`, both
    /// in memory) are decoded to their stored order; `None` where they are not records this
    /// module reads (see its docs).
    pub(crate) fn of(
        codecs: &CodecChain,
        data_type: &DataType,
        fill_value: &FillValue,
    ) -> Option<StoredOrder> {
        if !codecs.array_to_array_codecs().is_empty() {
            return None;
        }
        let bytes = codecs.array_to_bytes_codec();
        bytes.as_any().downcast_ref::<BytesCodec>()?;
        let configuration =
            bytes.configuration(ZarrVersion::V3, &CodecMetadataOptions::default())?;
        let Ok(BytesCodecConfiguration::V1(configuration)) = configuration.to_typed() else {
            return None;
        };
        let record = data_type.downcast_ref::<StructDataType>()?;
        let endian = record.stored_endian(configuration.endian.map(endian_of))?;
        let size = record.native_layout().size();
        let native = fill_value.as_ne_bytes();
        if size == 0 || native.len() != size {
            return None;
        }
        let stored = record
            .encode(Cow::Borrowed(native), Some(endianness_of(endian)))
            .ok()?;
        Some(StoredOrder {
            endian,
            size: size as u64,
            raw: raw_bits(size),
            fill_value: FillValue::new(stored.into_owned()),
        })
    }

    /// The order the decoded records are in.
    pub(crate) fn endian(&self) -> Endian {
        self.endian
    }

    /// One record of the fill value, as stored.
    pub(crate) fn fill_record(&self) -> &[u8] {
        self.fill_value.as_ne_bytes()
    }

    /// `encoded`, a chunk of `shape` as `codecs` (the chain [`StoredOrder::of`] was given)
    /// stored it, decoded to its records in the stored order; its length checked as zarrs
    /// checks it. No copy where the codecs change nothing; into a buffer of `spare` where
    /// they are one compressor zarrdt decodes (the buffer back in `spare` if that fails).
    pub(crate) fn decode<'a>(
        &self,
        codecs: &CodecChain,
        encoded: Cow<'a, [u8]>,
        shape: &[NonZeroU64],
        options: &CodecOptions,
        spare: &SpareBuffers,
    ) -> Result<Cow<'a, [u8]>, ArrayError> {
        if let [codec] = codecs.bytes_to_bytes_codecs()
            && let Some(codec) = codec.as_any().downcast_ref::<BoundedCodec>()
            && let Some(size) = shape
                .iter()
                .try_fold(self.size, |size, extent| size.checked_mul(extent.get()))
        {
            let expected = DecodedSize::of(&BytesRepresentation::FixedSize(size));
            let mut out = spare.take();
            match codec.decode_into(&encoded, expected, &mut out) {
                Some(Ok(())) => return Ok(Cow::Owned(out)),
                Some(Err(error)) => {
                    spare.give(out);
                    return Err(ArrayError::CodecError(error));
                }
                None => spare.give(out),
            }
        }
        let decoded = codecs.decode(encoded, shape, &self.raw, &self.fill_value, options)?;
        Ok(decoded.into_fixed()?)
    }
}
