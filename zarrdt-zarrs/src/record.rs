//! [`RecordType`]: what the elements of an array opened through zarrs are, in zarrdt's model,
//! whichever zarrs data type holds them.

use serde_json::{Value as Json, json};
use zarrdt_core::{DataType as ZarrDataType, Endian, Layout, ZarrType};
use zarrs::array::DataType;

use crate::{Error, StructDataType};

/// The element type of an array in zarrdt's terms: its Zarr v3 data type (if it has one) and
/// the layout of one element as zarrs hands it over (packed, or as a v2 array stores it, in
/// the machine's byte order).
#[derive(Clone, Debug)]
pub struct RecordType {
    data_type: Option<ZarrDataType>,
    native: Layout,
}

impl RecordType {
    /// The element type of an array whose zarrs data type is `data_type`: a struct
    /// or a Zarr v2 structured dtype ([`StructDataType`]), or any
    /// of zarrs' own fixed-size data types zarrdt knows (the core scalar types).
    pub fn of(data_type: &DataType) -> Result<Self, Error> {
        if let Some(record) = data_type.downcast_ref::<StructDataType>() {
            return Ok(RecordType {
                data_type: record.data_type().cloned(),
                native: record.native_layout().clone(),
            });
        }
        let name = data_type.name_v3().map(|name| name.into_owned());
        let configuration = data_type.configuration_v3();
        let json = match (&name, configuration.is_empty()) {
            (Some(name), true) => Json::from(name.as_str()),
            (Some(name), false) => {
                json!({"name": name, "configuration": Json::Object(configuration.into())})
            }
            (None, _) => {
                return Err(Error::UnsupportedDataType {
                    data_type: data_type.to_string(),
                });
            }
        };
        let zarr = ZarrDataType::from_v3_json(&json).map_err(|_| Error::UnsupportedDataType {
            data_type: data_type.to_string(),
        })?;
        Ok(RecordType {
            native: Layout::from_data_type(&zarr, Some(Endian::NATIVE))?,
            data_type: Some(zarr),
        })
    }

    /// The Zarr v3 data type, if the element type has one (a Zarr v2 dtype with padding,
    /// subarrays or mixed byte order has none).
    pub fn data_type(&self) -> Option<&ZarrDataType> {
        self.data_type.as_ref()
    }

    /// The layout of one element as zarrs hands it over: every multi-byte value in the
    /// machine's byte order.
    pub fn native_layout(&self) -> &Layout {
        &self.native
    }
}

/// That `T` is the element type of an array whose zarrs data type is `data_type`: same fields,
/// names, types and offsets (a Zarr v2 array's byte orders may be any), or the error naming
/// the first field that differs. Every typed read and write checks this.
pub(crate) fn check_type<T: ZarrType>(data_type: &DataType) -> Result<(), Error> {
    let record = RecordType::of(data_type)?;
    T::layout(Endian::NATIVE).check_matches(record.native_layout())?;
    Ok(())
}
