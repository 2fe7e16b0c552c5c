//! [`StoredStructDataType`]: a Zarr v2 structured dtype (per-field byte order, padding,
//! subarrays) as a zarrs data type, for reading and writing Zarr v2 record arrays through
//! zarrs, which has no structured v2 data type of its own.

use std::any::Any;
use std::borrow::Cow;
use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Value as Json, json};
use zarrdt_core::{ByteOrderConversion, Endian, Layout};
use zarrs::array::data_type::api::codec_traits::bytes::{
    BytesCodecEndiannessMissingError, BytesDataTypeTraits,
};
use zarrs::array::data_type::api::{
    DataTypeFillValueError, DataTypeFillValueMetadataError, DataTypePluginV3, DataTypeTraitsV3,
};
use zarrs::array::{
    DataType, DataTypeSize, DataTypeTraits, Endianness, FillValue, FillValueMetadata,
};
use zarrs::metadata::Configuration;
use zarrs::metadata::v3::MetadataV3;
use zarrs::plugin::{PluginCreateError, ZarrVersion};

use crate::convert::fill_json;

/// The name this data type has in the (in-memory only) v3 metadata zarrdt gives zarrs for a
/// Zarr v2 structured array. It is never written to a store.
pub(crate) const STORED_STRUCT_NAME: &str = "zarrdt.v2_structured";

/// A Zarr v2 structured dtype as a zarrs data type: the record exactly as stored, each field
/// in its own byte order, with padding and subarray fields.
///
/// [`open_array`](crate::open_array) uses it to open Zarr v2 record arrays through zarrs (any
/// codec zarrs supports: Blosc, zstd, gzip…; `C` or `F` order). In memory a record is its
/// stored layout with every multi-byte value in the machine's byte order; the `bytes` codec's
/// `endian` is not used, since each field has its own.
#[derive(Debug, Clone)]
pub struct StoredStructDataType {
    /// The `dtype` as the `.zarray` wrote it.
    dtype: Json,
    /// The stored layout.
    stored: Layout,
    /// The layout in memory: the stored one in native byte order.
    native: Layout,
    /// Between the stored and the native order (either way), planned once.
    to_native: ByteOrderConversion,
}

impl StoredStructDataType {
    /// The data type of a Zarr v2 `dtype`.
    pub fn from_v2_json(dtype: &Json) -> Result<Self, zarrdt_core::Error> {
        let stored = Layout::from_v2_json(dtype)?;
        Ok(StoredStructDataType {
            dtype: dtype.clone(),
            native: stored.with_endian(Endian::NATIVE),
            to_native: ByteOrderConversion::new(&stored, Endian::NATIVE),
            stored,
        })
    }

    /// As a zarrs [`DataType`].
    pub fn into_data_type(self) -> DataType {
        DataType::from(Arc::new(self))
    }

    /// The layout of one element as stored.
    pub fn stored_layout(&self) -> &Layout {
        &self.stored
    }

    /// The layout of one element in memory: the stored one, native byte order.
    pub fn native_layout(&self) -> &Layout {
        &self.native
    }

    /// The fill value metadata of the native record `bytes` (base64 of them: in memory only).
    pub(crate) fn fill_metadata(bytes: &[u8]) -> FillValueMetadata {
        FillValueMetadata::from(BASE64.encode(bytes))
    }

    /// The v3 metadata of this data type (a private name, for zarrs in memory only).
    pub(crate) fn metadata(&self) -> MetadataV3 {
        MetadataV3::new_with_configuration(
            STORED_STRUCT_NAME,
            Configuration::from(
                json!({"dtype": self.dtype})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
            ),
        )
    }
}

zarrs::plugin::impl_extension_aliases!(StoredStructDataType, v3: "zarrdt.v2_structured");

inventory::submit! {
    DataTypePluginV3::new::<StoredStructDataType>()
}

impl DataTypeTraitsV3 for StoredStructDataType {
    fn create(metadata: &MetadataV3) -> Result<DataType, PluginCreateError> {
        let dtype = metadata
            .configuration()
            .and_then(|configuration| configuration.get("dtype"))
            .ok_or_else(|| PluginCreateError::from("zarrdt.v2_structured needs a dtype"))?;
        let data_type = StoredStructDataType::from_v2_json(dtype).map_err(|e| e.to_string())?;
        Ok(data_type.into_data_type())
    }
}

impl DataTypeTraits for StoredStructDataType {
    fn configuration(&self, _version: ZarrVersion) -> Configuration {
        self.metadata().configuration().cloned().unwrap_or_default()
    }

    fn size(&self) -> DataTypeSize {
        DataTypeSize::Fixed(self.stored.size())
    }

    /// The fill value as zarrdt hands it to zarrs (`StoredStructDataType::fill_metadata`): base64 of the
    /// native record, which is how [`open_array`](crate::open_array) hands it over (one
    /// string, not a JSON tree per leaf, whatever the record's size).
    fn fill_value(
        &self,
        fill_value_metadata: &FillValueMetadata,
        _version: ZarrVersion,
    ) -> Result<FillValue, DataTypeFillValueMetadataError> {
        let json = fill_json(fill_value_metadata)?;
        let bytes = json
            .as_str()
            .and_then(|text| BASE64.decode(text).ok())
            .filter(|bytes| bytes.len() == self.native.size())
            .ok_or(DataTypeFillValueMetadataError)?;
        Ok(FillValue::new(bytes))
    }

    fn metadata_fill_value(
        &self,
        fill_value: &FillValue,
    ) -> Result<FillValueMetadata, DataTypeFillValueError> {
        let bytes = fill_value.as_ne_bytes();
        if bytes.len() != self.native.size() {
            return Err(DataTypeFillValueError);
        }
        Ok(Self::fill_metadata(bytes))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

zarrs::array::data_type::api::register_data_type_extension_codec!(
    StoredStructDataType,
    zarrs::array::data_type::api::codec_traits::bytes::BytesDataTypePlugin,
    zarrs::array::data_type::api::codec_traits::bytes::BytesDataTypeTraits
);

impl BytesDataTypeTraits for StoredStructDataType {
    /// Native records to records stored in each field's own byte order; `endianness` is
    /// ignored.
    fn encode<'a>(
        &self,
        bytes: Cow<'a, [u8]>,
        _endianness: Option<Endianness>,
    ) -> Result<Cow<'a, [u8]>, BytesCodecEndiannessMissingError> {
        self.swap(bytes)
    }

    /// Stored records to native ones; `endianness` is ignored.
    fn decode<'a>(
        &self,
        bytes: Cow<'a, [u8]>,
        _endianness: Option<Endianness>,
    ) -> Result<Cow<'a, [u8]>, BytesCodecEndiannessMissingError> {
        self.swap(bytes)
    }
}

impl StoredStructDataType {
    /// Swaps every field whose stored order is not the native one (its own inverse).
    fn swap<'a>(
        &self,
        bytes: Cow<'a, [u8]>,
    ) -> Result<Cow<'a, [u8]>, BytesCodecEndiannessMissingError> {
        if self.to_native.is_identity() {
            return Ok(bytes);
        }
        let mut owned = bytes.into_owned();
        self.to_native
            .apply(&mut owned)
            .map_err(|_| BytesCodecEndiannessMissingError)?;
        Ok(Cow::Owned(owned))
    }
}
