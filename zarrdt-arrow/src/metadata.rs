//! What a table's schema metadata says about its Zarr origin, so that Zarr → Arrow → Zarr is
//! exact: the element type, the fill value and the shape.
//!
//! * `zarr.data_type`: the Zarr v3 data type JSON (on the schema for the whole record, and on
//!   each column for its field);
//! * `zarr.dtype`: instead, the Zarr v2 `dtype` JSON, for records with no v3 form (padding,
//!   subarray fields; a padded record is written back packed, with the same values);
//! * `zarr.fill_value`: the fill value, each leaf in its v3 fill value form (as
//!   [`Layout::value_to_json`] writes it);
//! * `zarr.shape`: the shape of the selection the rows were read from, as a JSON array;
//! * `zarr.attributes`: the array's user attributes, a JSON object (none if it has none),
//!   among them the variants of enum fields (`zarrdt:enums`).

use std::collections::HashMap;

use serde_json::Value as Json;
use zarrdt_core::{DataType, Layout, StructType, SubarrayType};

use crate::Error;

/// The key of the Zarr v3 data type.
pub const DATA_TYPE: &str = "zarr.data_type";
/// The key of the Zarr v2 `dtype`.
pub const DTYPE: &str = "zarr.dtype";
/// The key of the fill value.
pub const FILL_VALUE: &str = "zarr.fill_value";
/// The key of the shape.
pub const SHAPE: &str = "zarr.shape";
/// The key of the array's user attributes.
pub const ATTRIBUTES: &str = "zarr.attributes";

/// The element type a table came from: a Zarr v3 data type, or a Zarr v2 stored layout.
#[derive(Clone, Debug)]
pub(crate) enum Form {
    V3(DataType),
    V2(Layout),
}

impl Form {
    /// The form of a stored layout: v3 where it has one (no padding, no subarrays), else v2.
    pub(crate) fn of_layout(layout: &Layout) -> Self {
        match layout.to_v3() {
            Ok((data_type, _)) => Form::V3(data_type),
            Err(_) => Form::V2(layout.clone()),
        }
    }

    /// The metadata entry naming this type; `None` for a padded layout, which has no v2
    /// `dtype` zarrdt writes (the records are then what the columns say).
    pub(crate) fn entry(&self) -> Option<(String, String)> {
        match self {
            Form::V3(data_type) => Some((DATA_TYPE.into(), data_type.to_v3_json().to_string())),
            Form::V2(layout) => layout
                .to_v2_json()
                .ok()
                .map(|json| (DTYPE.into(), json.to_string())),
        }
    }

    /// The form an array of this type is created in: a v2 layout becomes a v3 data type unless
    /// it has subarray fields (which v3 readers would see as structs), padding packed first
    /// (Zarr v2 metadata zarrdt writes has none; the values are the same).
    pub(crate) fn to_create(&self) -> Result<Form, Error> {
        let Form::V2(layout) = self else {
            return Ok(self.clone());
        };
        let layout = if layout.has_padding() {
            layout.packed()?
        } else {
            layout.clone()
        };
        let subarrays = layout
            .leaves()
            .iter()
            .any(|leaf| !leaf.repeats().is_empty());
        match v3_of(&layout) {
            Some(data_type) if !subarrays => Ok(Form::V3(data_type)),
            _ => Ok(Form::V2(layout)),
        }
    }
}

/// The schema metadata of records of `layout`: its type, where it has a form zarrdt writes.
pub(crate) fn of_layout(layout: &Layout) -> HashMap<String, String> {
    Form::of_layout(layout).entry().into_iter().collect()
}

/// The most fields zarrdt writes into the Zarr v3 JSON of a data type it makes from a
/// subarray (a NumPy subarray field, an Arrow fixed-size list): that JSON lists every item as
/// a field (`[u8; 1000]` lists 1000), so a few bytes of a `.zarray` or a Parquet schema
/// (`[["x", "|u1", [4000000]]]`) would otherwise make gigabytes of JSON.
pub(crate) const MAX_V3_FIELDS: usize = 65_536;

/// The fields the Zarr v3 JSON of `layout` lists, at every depth (a subarray as a struct of
/// one field per item), saturating; counted without making the JSON.
pub(crate) fn v3_fields(layout: &Layout) -> usize {
    match layout {
        Layout::Scalar(_) => 0,
        Layout::Struct(structure) => structure.fields().iter().fold(0, |count, field| {
            count
                .saturating_add(1)
                .saturating_add(v3_fields(field.layout()))
        }),
        Layout::Subarray(array) => array
            .shape()
            .iter()
            .rev()
            .fold(v3_fields(array.element()), |inner, &extent| {
                extent.saturating_mul(inner.saturating_add(1))
            }),
        _ => usize::MAX,
    }
}

/// The metadata of a column of `layout`: its v3 data type, where it has one and its JSON
/// lists at most [`MAX_V3_FIELDS`] fields (else none: the column's Arrow type, a fixed-size
/// list, says the same but for the units of times inside it).
pub(crate) fn of_field(layout: &Layout) -> HashMap<String, String> {
    if v3_fields(layout) > MAX_V3_FIELDS {
        return HashMap::new();
    }
    v3_of(layout)
        .map(|data_type| {
            HashMap::from([(DATA_TYPE.to_owned(), data_type.to_v3_json().to_string())])
        })
        .unwrap_or_default()
}

/// The Zarr v3 data type of `layout`, a subarray as an [`SubarrayType`] (its v3 form is a struct
/// of fields `"0"`, `"1"`, …); `None` where a struct has padding.
pub(crate) fn v3_of(layout: &Layout) -> Option<DataType> {
    match layout {
        Layout::Scalar(scalar) => Some(DataType::from(scalar.scalar())),
        Layout::Subarray(array) => {
            let element = v3_of(array.element())?;
            SubarrayType::new(element, array.shape().to_vec())
                .ok()
                .map(DataType::from)
        }
        Layout::Struct(structure) => {
            let mut end = 0;
            let mut fields = Vec::with_capacity(structure.fields().len());
            for field in structure.fields() {
                if field.offset() != end {
                    return None;
                }
                end += field.layout().size();
                fields.push((field.name().to_owned(), v3_of(field.layout())?));
            }
            if end != structure.size() {
                return None;
            }
            StructType::new(fields).ok().map(DataType::from)
        }
        _ => None,
    }
}

/// Parses `text`, the metadata under `key`, as JSON.
pub(crate) fn json(text: Option<&String>, key: &str) -> Result<Option<Json>, Error> {
    text.map(|text| {
        zarrdt_core::parse_metadata_json(text.as_bytes()).map_err(|error| Error::Metadata {
            key: key.to_owned(),
            reason: error.to_string(),
        })
    })
    .transpose()
}
