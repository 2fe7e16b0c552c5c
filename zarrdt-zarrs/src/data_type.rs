//! [`StructDataType`]: the Zarr v3 `struct` data type (alias `structured`) as a zarrs data
//! type, delegating to [`zarrdt_core::DataType`].

use std::any::Any;
use std::borrow::Cow;
use std::sync::Arc;

use serde_json::Value as Json;
use zarrdt_core::{ByteOrderConversion, DataType as ZarrDataType, Endian, Layout};
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

use crate::Error;
use crate::convert::{endian_of, fill_json, fill_metadata};

/// The Zarr `struct` data type (read also under its legacy name `structured`) as a zarrs data
/// type: a record of named fields, packed, any of the types [`zarrdt_core`] knows, nested.
///
/// zarrs creates it from an array's metadata when the array is opened, so arrays written by
/// anyone open without a Rust type. In memory (between the codecs and the element types) a
/// record is its packed bytes in the machine's byte order; the `bytes` codec's `endian`
/// decides the stored order of every multi-byte field.
///
/// ```
/// use zarrdt_zarrs::StructDataType;
/// use zarrdt_core::DataType;
/// use serde_json::json;
///
/// let record = DataType::from_v3_json(&json!({"name": "struct", "configuration": {"fields": [
///     {"name": "id", "data_type": "uint32"}, {"name": "x", "data_type": "float64"}]}}))?;
/// let data_type = StructDataType::new(record)?.into_data_type();
/// assert_eq!(data_type.fixed_size(), Some(12));
/// # Ok::<(), zarrdt_zarrs::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct StructDataType {
    data_type: ZarrDataType,
    /// The element as held in memory: packed, every multi-byte field in native order.
    native: Layout,
    /// Between the native and the other byte order (either way), planned once.
    swap: ByteOrderConversion,
}

impl StructDataType {
    /// The zarrs data type of the struct (or Rust array) type `data_type`; a scalar type is
    /// [`Error::NotAStruct`], as zarrs has its own data types for those.
    pub fn new(data_type: ZarrDataType) -> Result<Self, Error> {
        if let ZarrDataType::Scalar(scalar) = data_type {
            return Err(Error::NotAStruct {
                data_type: scalar.to_string(),
            });
        }
        let native = Layout::from_data_type(&data_type, Some(Endian::NATIVE))?;
        let other = match Endian::NATIVE {
            Endian::Little => Endian::Big,
            Endian::Big => Endian::Little,
        };
        let swap = ByteOrderConversion::new(&native, other);
        Ok(StructDataType {
            data_type,
            native,
            swap,
        })
    }

    /// As a zarrs [`DataType`].
    pub fn into_data_type(self) -> DataType {
        DataType::from(Arc::new(self))
    }

    /// The Zarr data type.
    pub fn data_type(&self) -> &ZarrDataType {
        &self.data_type
    }

    /// The layout of one element in memory: packed, native byte order.
    pub fn native_layout(&self) -> &Layout {
        &self.native
    }
}

zarrs::plugin::impl_extension_aliases!(StructDataType, v3: "struct", ["structured"]);

inventory::submit! {
    DataTypePluginV3::new::<StructDataType>()
}

impl DataTypeTraitsV3 for StructDataType {
    fn create(metadata: &MetadataV3) -> Result<DataType, PluginCreateError> {
        let json = serde_json::to_value(metadata).map_err(|error| error.to_string())?;
        let data_type = ZarrDataType::from_v3_json(&json).map_err(|error| error.to_string())?;
        Ok(StructDataType::new(data_type)
            .map_err(|error| error.to_string())?
            .into_data_type())
    }
}

impl DataTypeTraits for StructDataType {
    fn configuration(&self, _version: ZarrVersion) -> Configuration {
        match self.data_type.to_v3_json() {
            Json::Object(mut object) => match object.remove("configuration") {
                Some(Json::Object(configuration)) => configuration.into(),
                _ => Configuration::default(),
            },
            _ => Configuration::default(),
        }
    }

    fn size(&self) -> DataTypeSize {
        DataTypeSize::Fixed(self.data_type.size())
    }

    /// A struct fill value: an object of every field (or, legacy `structured`, base64 of the
    /// packed record, read as little-endian, as zarr-python 3.4.1+ reads it; arrays opened
    /// with [`open_array`](crate::open_array) read it in their `bytes` codec's byte order).
    fn fill_value(
        &self,
        fill_value_metadata: &FillValueMetadata,
        _version: ZarrVersion,
    ) -> Result<FillValue, DataTypeFillValueMetadataError> {
        let json = fill_json(fill_value_metadata)?;
        let value = self
            .data_type
            .fill_value_from_v3_json(&json, None)
            .map_err(|_| DataTypeFillValueMetadataError)?;
        let bytes = self
            .native
            .encode_value(&value)
            .map_err(|_| DataTypeFillValueMetadataError)?;
        Ok(FillValue::new(bytes))
    }

    fn metadata_fill_value(
        &self,
        fill_value: &FillValue,
    ) -> Result<FillValueMetadata, DataTypeFillValueError> {
        let value = self
            .native
            .decode_value(fill_value.as_ne_bytes())
            .map_err(|_| DataTypeFillValueError)?;
        let json = self
            .data_type
            .fill_value_to_v3_json(&value)
            .map_err(|_| DataTypeFillValueError)?;
        fill_metadata(json).map_err(|_| DataTypeFillValueError)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

zarrs::array::data_type::api::register_data_type_extension_codec!(
    StructDataType,
    zarrs::array::data_type::api::codec_traits::bytes::BytesDataTypePlugin,
    zarrs::array::data_type::api::codec_traits::bytes::BytesDataTypeTraits
);

impl BytesDataTypeTraits for StructDataType {
    /// Native packed records to records stored in `endianness`.
    fn encode<'a>(
        &self,
        bytes: Cow<'a, [u8]>,
        endianness: Option<Endianness>,
    ) -> Result<Cow<'a, [u8]>, BytesCodecEndiannessMissingError> {
        convert(
            &self.swap,
            bytes,
            endianness,
            self.data_type.has_endianness(),
        )
    }

    /// Records stored in `endianness` to native packed records; without an `endian` they are
    /// read as little-endian (the legacy `structured` rule, and zarr-python's).
    fn decode<'a>(
        &self,
        bytes: Cow<'a, [u8]>,
        endianness: Option<Endianness>,
    ) -> Result<Cow<'a, [u8]>, BytesCodecEndiannessMissingError> {
        let endianness = endianness.or(Some(Endianness::Little));
        convert(&self.swap, bytes, endianness, false)
    }
}

/// Swaps every multi-byte value of records (`swap`, the conversion between the native order
/// and the other) between the native order and
/// `endianness` (the swap is its own inverse); an error if the type needs an order and none
/// is given.
fn convert<'a>(
    swap: &ByteOrderConversion,
    bytes: Cow<'a, [u8]>,
    endianness: Option<Endianness>,
    needs_endianness: bool,
) -> Result<Cow<'a, [u8]>, BytesCodecEndiannessMissingError> {
    let target = match endianness {
        Some(endianness) => endian_of(endianness),
        None if needs_endianness => return Err(BytesCodecEndiannessMissingError),
        None => return Ok(bytes),
    };
    if target == Endian::NATIVE {
        return Ok(bytes);
    }
    let mut owned = bytes.into_owned();
    // zarrs hands the hook whole elements; anything else cannot be converted.
    swap.apply(&mut owned)
        .map_err(|_| BytesCodecEndiannessMissingError)?;
    Ok(Cow::Owned(owned))
}
