//! [`StructDataType`]: zarrdt's one zarrs data type for records, the Zarr v3 `struct` data
//! type (alias `structured`) and a Zarr v2 NumPy structured dtype, delegating to
//! [`zarrdt_core`].

use std::any::Any;
use std::borrow::Cow;
use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Value as Json, json};
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
use zarrs::plugin::{ExtensionName, PluginCreateError, ZarrVersion};

use crate::Error;
use crate::convert::{endian_of, fill_metadata};

/// The name a Zarr v2 structured dtype has in the (in-memory only) v3 metadata zarrdt gives
/// zarrs for a Zarr v2 record array. It is never written to a store.
pub(crate) const STORED_STRUCT_NAME: &str = "zarrdt.v2_structured";

/// The Zarr v3 name of a struct data type.
const STRUCT_NAME: &str = "struct";

/// A record data type as a zarrs data type: a record of named fields of any of the types
/// [`zarrdt_core`] knows, nested.
///
/// * A Zarr v3 `struct` (read also under its legacy name `structured`), packed: zarrs creates
///   it from an array's metadata when the array is opened, so arrays written by anyone open
///   without a Rust type. The `bytes` codec's `endian` decides the stored order of every
///   multi-byte field.
/// * A Zarr v2 NumPy structured dtype ([`StructDataType::from_v2_json`]): the record exactly
///   as stored, each field in its own byte order, with padding and subarray fields, which
///   zarrs cannot open by itself. [`open_array`](crate::open_array) uses it to open Zarr v2
///   record arrays through zarrs (any codec zarrs supports: Blosc, zstd, gzip…; `C` or `F`
///   order); the `bytes` codec's `endian` is not used, since each field has its own.
///
/// In memory (between the codecs and the element types) a record is its bytes (packed, or
/// the v2 dtype's layout) with every multi-byte value in the machine's byte order.
///
/// ```
/// use zarrdt::array::StructDataType;
/// use zarrdt::types::DataType;
/// use serde_json::json;
///
/// let record = DataType::from_v3_json(&json!({"name": "struct", "configuration": {"fields": [
///     {"name": "id", "data_type": "uint32"}, {"name": "x", "data_type": "float64"}]}}))?;
/// let data_type = StructDataType::new(record)?.into_data_type();
/// assert_eq!(data_type.fixed_size(), Some(12));
///
/// let v2 = StructDataType::from_v2_json(&json!([["id", ">u4"], ["", "|V4"], ["x", "<f8"]]))?;
/// assert_eq!(v2.stored_layout().map(|layout| layout.size()), Some(16));
/// # Ok::<(), zarrdt::array::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct StructDataType {
    /// Which metadata the type comes from, and what that fixes.
    form: Form,
    /// The element as held in memory: every multi-byte value in native order.
    native: Layout,
    /// Between memory and storage, planned once (its own inverse): for a v3 struct, between
    /// the native and the other byte order; for a v2 dtype, between the native order and each
    /// field's own.
    swap: ByteOrderConversion,
}

/// The metadata a [`StructDataType`] comes from.
#[derive(Debug, Clone)]
enum Form {
    /// A Zarr v3 `struct`: packed, stored in the `bytes` codec's byte order.
    V3(ZarrDataType),
    /// A Zarr v2 structured dtype: stored as it says.
    V2 {
        /// The `dtype` as the `.zarray` wrote it.
        dtype: Json,
        /// The stored layout.
        stored: Layout,
        /// Its Zarr v3 data type, if it has one (none with padding, subarrays or mixed byte
        /// order).
        data_type: Option<ZarrDataType>,
        /// Whether the `.zarray` has no fill value (`"fill_value": null`): reads give the zero
        /// record where nothing is stored, as NumPy fills; writes store every chunk (see
        /// [`StructDataType::has_fill_value`]).
        no_fill_value: bool,
    },
}

impl StructDataType {
    /// The zarrs data type of the Zarr v3 struct (or Rust array) type `data_type`; a scalar
    /// type is [`Error::NotAStruct`], as zarrs has its own data types for those.
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
        Ok(StructDataType {
            form: Form::V3(data_type),
            swap: ByteOrderConversion::new(&native, other),
            native,
        })
    }

    /// The zarrs data type of a Zarr v2 structured `dtype` (per-field byte order, padding,
    /// subarrays).
    pub fn from_v2_json(dtype: &Json) -> Result<Self, zarrdt_core::Error> {
        let stored = Layout::from_v2_json(dtype)?;
        Ok(StructDataType {
            native: stored.with_endian(Endian::NATIVE),
            swap: ByteOrderConversion::new(&stored, Endian::NATIVE),
            form: Form::V2 {
                dtype: dtype.clone(),
                data_type: stored.to_v3().ok().map(|(data_type, _)| data_type),
                stored,
                no_fill_value: false,
            },
        })
    }

    /// As a zarrs [`DataType`].
    pub fn into_data_type(self) -> DataType {
        DataType::from(Arc::new(self))
    }

    /// The Zarr v3 data type, if the type has one (a Zarr v2 dtype with padding, subarrays or
    /// mixed byte order has none).
    pub fn data_type(&self) -> Option<&ZarrDataType> {
        match &self.form {
            Form::V3(data_type) => Some(data_type),
            Form::V2 { data_type, .. } => data_type.as_ref(),
        }
    }

    /// This v2 dtype of an array whose `.zarray` has no fill value (`"fill_value": null`).
    pub(crate) fn without_fill_value(mut self) -> Self {
        if let Form::V2 { no_fill_value, .. } = &mut self.form {
            *no_fill_value = true;
        }
        self
    }

    /// Whether the array has a fill value: `false` for a Zarr v2 dtype whose `.zarray` says
    /// `"fill_value": null`, where zarr-python 2.18 reads a missing chunk as uninitialised
    /// memory (so writes store chunks of nothing but the zero record zarrdt reads there).
    pub(crate) fn has_fill_value(&self) -> bool {
        !matches!(
            self.form,
            Form::V2 {
                no_fill_value: true,
                ..
            }
        )
    }

    /// The layout of one element as stored, for a Zarr v2 dtype (each field in its own byte
    /// order); `None` for a v3 struct, whose byte order is the `bytes` codec's.
    pub fn stored_layout(&self) -> Option<&Layout> {
        match &self.form {
            Form::V3(_) => None,
            Form::V2 { stored, .. } => Some(stored),
        }
    }

    /// The order every multi-byte value is stored in when the `bytes` codec's `endian` is
    /// `endian`, where one order serves the whole record: a v3 struct's (little-endian when
    /// the codec has none, as it is read); `None` for a v2 dtype, which has one per field.
    pub(crate) fn stored_endian(&self, endian: Option<Endian>) -> Option<Endian> {
        match self.form {
            Form::V3(_) => Some(endian.unwrap_or(Endian::Little)),
            Form::V2 { .. } => None,
        }
    }

    /// The layout of one element in memory: every multi-byte value in native order.
    pub fn native_layout(&self) -> &Layout {
        &self.native
    }

    /// The v3 metadata of this data type: a struct's own, or a v2 dtype under a private name
    /// (for zarrs in memory only).
    pub(crate) fn metadata(&self) -> MetadataV3 {
        let name = self.name(ZarrVersion::V3).unwrap_or_default();
        MetadataV3::new_with_configuration(name, self.configuration(ZarrVersion::V3))
    }

    /// The fill value metadata of the native record `bytes` of a v2 dtype (base64 of them:
    /// in memory only, one string whatever the record's size).
    pub(crate) fn v2_fill_metadata(bytes: &[u8]) -> FillValueMetadata {
        FillValueMetadata::from(BASE64.encode(bytes))
    }

    /// The fill value of `metadata`, or zarrdt's error naming the field and the JSON: a
    /// struct's fill value JSON (an object of every field or, legacy `structured`, base64 of
    /// the packed record, read as little-endian, as zarr-python 3.4.1+ reads it; arrays opened
    /// with [`open_array`](crate::open_array) read it in their `bytes` codec's byte order), or
    /// a v2 dtype's as zarrdt hands it to zarrs (base64 of the native record).
    pub(crate) fn fill_value_of(
        &self,
        metadata: &FillValueMetadata,
    ) -> Result<FillValue, zarrdt_core::Error> {
        let json = serde_json::to_value(metadata)?;
        let bytes = match &self.form {
            Form::V3(data_type) => self
                .native
                .encode_value(&data_type.fill_value_from_v3_json(&json, None)?)?,
            Form::V2 { .. } => json
                .as_str()
                .and_then(|text| BASE64.decode(text).ok())
                .filter(|bytes| bytes.len() == self.native.size())
                .ok_or_else(|| zarrdt_core::Error::InvalidMetadata {
                    member: "fill_value".into(),
                    reason: format!(
                        "{json} is not base64 of a native {}-byte record",
                        self.native.size()
                    ),
                })?,
        };
        Ok(FillValue::new(bytes))
    }

    /// The fill value metadata of `fill_value`, or zarrdt's error naming the field.
    pub(crate) fn fill_value_metadata_of(
        &self,
        fill_value: &FillValue,
    ) -> Result<FillValueMetadata, zarrdt_core::Error> {
        let bytes = fill_value.as_ne_bytes();
        match &self.form {
            Form::V3(data_type) => {
                let json = data_type.fill_value_to_v3_json(&self.native.decode_value(bytes)?)?;
                Ok(fill_metadata(json))
            }
            Form::V2 { .. } if bytes.len() != self.native.size() => {
                Err(zarrdt_core::Error::BufferLength {
                    expected: self.native.size(),
                    found: bytes.len(),
                })
            }
            Form::V2 { .. } => Ok(Self::v2_fill_metadata(bytes)),
        }
    }

    /// The conversion between memory and storage under the `bytes` codec's `endianness`
    /// (`None` when the bytes are the same in both). A v3 struct read without an `endian` is
    /// read as little-endian (the legacy `structured` rule, and zarr-python's); one written
    /// without one is an error if it has multi-byte values. A v2 dtype has its own orders.
    fn conversion(
        &self,
        endianness: Option<Endianness>,
        reading: bool,
    ) -> Result<Option<&ByteOrderConversion>, BytesCodecEndiannessMissingError> {
        let differs = match (&self.form, endianness) {
            (Form::V2 { .. }, _) => true,
            (Form::V3(_), Some(endianness)) => endian_of(endianness) != Endian::NATIVE,
            (Form::V3(_), None) if reading => Endian::Little != Endian::NATIVE,
            (Form::V3(data_type), None) if data_type.has_endianness() => {
                return Err(BytesCodecEndiannessMissingError);
            }
            (Form::V3(_), None) => false,
        };
        Ok((differs && !self.swap.is_identity()).then_some(&self.swap))
    }

    /// Records between memory and storage (either way: the conversion is its own inverse).
    /// Bytes that are not a whole number of records are handed back as they are, for zarrs'
    /// own check of the chunk's length to report (zarrs calls this before it checks).
    fn convert<'a>(
        &self,
        bytes: Cow<'a, [u8]>,
        endianness: Option<Endianness>,
        reading: bool,
    ) -> Result<Cow<'a, [u8]>, BytesCodecEndiannessMissingError> {
        let Some(conversion) = self.conversion(endianness, reading)? else {
            return Ok(bytes);
        };
        if self.native.size() == 0 || !bytes.len().is_multiple_of(self.native.size()) {
            return Ok(bytes);
        }
        let mut owned = bytes.into_owned();
        // A whole number of elements, checked above: the conversion cannot fail.
        if conversion.apply(&mut owned).is_err() {
            return Err(BytesCodecEndiannessMissingError);
        }
        Ok(Cow::Owned(owned))
    }
}

/// The plugin zarrs creates every [`StructDataType`] through, under every name it has.
struct Plugin;

zarrs::plugin::impl_extension_aliases!(Plugin, v3: "struct", ["structured", "zarrdt.v2_structured"]);

inventory::submit! {
    DataTypePluginV3::new::<Plugin>()
}

impl DataTypeTraitsV3 for Plugin {
    fn create(metadata: &MetadataV3) -> Result<DataType, PluginCreateError> {
        StructDataType::create(metadata)
    }
}

impl DataTypeTraitsV3 for StructDataType {
    fn create(metadata: &MetadataV3) -> Result<DataType, PluginCreateError> {
        let data_type = if metadata.name() == STORED_STRUCT_NAME {
            let dtype = metadata
                .configuration()
                .and_then(|configuration| configuration.get("dtype"))
                .ok_or_else(|| PluginCreateError::from("zarrdt.v2_structured needs a dtype"))?;
            let data_type =
                StructDataType::from_v2_json(dtype).map_err(|error| error.to_string())?;
            let no_fill_value = metadata
                .configuration()
                .and_then(|configuration| configuration.get("no_fill_value"))
                == Some(&Json::Bool(true));
            if no_fill_value {
                data_type.without_fill_value()
            } else {
                data_type
            }
        } else {
            let json = serde_json::to_value(metadata).map_err(|error| error.to_string())?;
            let data_type = ZarrDataType::from_v3_json(&json).map_err(|error| error.to_string())?;
            StructDataType::new(data_type).map_err(|error| error.to_string())?
        };
        Ok(data_type.into_data_type())
    }
}

impl ExtensionName for StructDataType {
    /// `struct` for a v3 struct, the private name of the in-memory metadata of a v2 dtype.
    fn name(&self, version: ZarrVersion) -> Option<Cow<'static, str>> {
        match (version, &self.form) {
            (ZarrVersion::V3, Form::V3(_)) => Some(Cow::Borrowed(STRUCT_NAME)),
            (ZarrVersion::V3, Form::V2 { .. }) => Some(Cow::Borrowed(STORED_STRUCT_NAME)),
            (ZarrVersion::V2, _) => None,
        }
    }
}

impl DataTypeTraits for StructDataType {
    fn configuration(&self, _version: ZarrVersion) -> Configuration {
        let configuration = match &self.form {
            Form::V3(data_type) => match data_type.to_v3_json() {
                Json::Object(mut object) => object.remove("configuration"),
                _ => None,
            },
            Form::V2 {
                dtype,
                no_fill_value,
                ..
            } => Some(if *no_fill_value {
                json!({ "dtype": dtype, "no_fill_value": true })
            } else {
                json!({ "dtype": dtype })
            }),
        };
        match configuration {
            Some(Json::Object(configuration)) => configuration.into(),
            _ => Configuration::default(),
        }
    }

    fn size(&self) -> DataTypeSize {
        DataTypeSize::Fixed(self.native.size())
    }

    /// A struct's fill value JSON, or a v2 dtype's as zarrdt hands it to zarrs (base64 of the
    /// native record). zarrs' error type has no room for zarrdt's, which names the field and
    /// the value: [`open_array`](crate::open_array) and
    /// [`ArrayOptions`](crate::ArrayOptions) check the fill value with zarrdt first, so that
    /// theirs is the error the user sees.
    fn fill_value(
        &self,
        fill_value_metadata: &FillValueMetadata,
        _version: ZarrVersion,
    ) -> Result<FillValue, DataTypeFillValueMetadataError> {
        self.fill_value_of(fill_value_metadata)
            .map_err(|_| DataTypeFillValueMetadataError)
    }

    fn metadata_fill_value(
        &self,
        fill_value: &FillValue,
    ) -> Result<FillValueMetadata, DataTypeFillValueError> {
        self.fill_value_metadata_of(fill_value)
            .map_err(|_| DataTypeFillValueError)
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
    /// Native records to records as stored (in `endianness`, for a v3 struct).
    fn encode<'a>(
        &self,
        bytes: Cow<'a, [u8]>,
        endianness: Option<Endianness>,
    ) -> Result<Cow<'a, [u8]>, BytesCodecEndiannessMissingError> {
        self.convert(bytes, endianness, false)
    }

    /// Records as stored to native records.
    fn decode<'a>(
        &self,
        bytes: Cow<'a, [u8]>,
        endianness: Option<Endianness>,
    ) -> Result<Cow<'a, [u8]>, BytesCodecEndiannessMissingError> {
        self.convert(bytes, endianness, true)
    }
}
