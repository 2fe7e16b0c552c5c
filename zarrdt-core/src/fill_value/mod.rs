//! Fill values: the JSON of one element in array metadata, read and written exactly as the
//! Zarr specs say, bit for bit.
//!
//! * v3 ([`DataType::fill_value_from_json`]): per seed 000 for scalars; for structs an object
//!   keyed by field name (the registered `struct` spec), or a base64 string of the packed
//!   record in the `bytes` codec's byte order (the legacy `structured` spec).
//! * v2 ([`Layout::fill_value_from_json`]): numbers, `"NaN"`, `"Infinity"`, `"-Infinity"`,
//!   base64 for raw, bytes and structured types, and `null` for no fill value.

mod float;
mod scalar;

use base64::Engine;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use serde_json::{Map, Value as Json};

use crate::error::show;
use crate::{DataType, Endian, Error, FieldPath, Layout, Record, StructType, Value};
use scalar::Format;

/// Standard base64 alphabet; padding written, and optional when read.
pub(crate) const BASE64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

impl DataType {
    /// Reads a Zarr v3 `fill_value` for this type.
    ///
    /// Base64 struct fills (legacy `structured` arrays) are read as little-endian; use
    /// [`DataType::fill_value_from_json_with_endian`] to follow the array's `bytes` codec.
    ///
    /// ```
    /// use zarrdt_core::{DataType, ScalarType, Value};
    /// use serde_json::json;
    ///
    /// let f32_type = DataType::from(ScalarType::Float32);
    /// let nan = f32_type.fill_value_from_json(&json!("0x7fc00001"))?;
    /// assert_eq!(nan, Value::Float32(f32::from_bits(0x7fc00001)));
    /// assert_eq!(f32_type.fill_value_to_json(&nan)?, json!("0x7fc00001"));
    /// assert!(DataType::from(ScalarType::UInt8).fill_value_from_json(&json!(256)).is_err());
    /// # Ok::<(), zarrdt_core::Error>(())
    /// ```
    pub fn fill_value_from_json(&self, json: &Json) -> Result<Value, Error> {
        self.fill_value_from_json_with_endian(json, None)
    }

    /// Reads a Zarr v3 `fill_value`, decoding a base64 struct fill in `endian`, the byte order of
    /// the array's `bytes` codec (little-endian when `None`, as the `structured` spec says).
    pub fn fill_value_from_json_with_endian(
        &self,
        json: &Json,
        endian: Option<Endian>,
    ) -> Result<Value, Error> {
        parse_v3(
            self,
            json,
            endian.unwrap_or(Endian::Little),
            &FieldPath::root(),
        )
    }

    /// Writes the Zarr v3 `fill_value` of `value`: the registered forms only (a full object
    /// for structs, recursively; `"NaN"` only for the canonical NaN, other NaNs as hex).
    pub fn fill_value_to_json(&self, value: &Value) -> Result<Json, Error> {
        write_v3(self, value, &FieldPath::root())
    }
}

fn parse_v3(
    data_type: &DataType,
    json: &Json,
    endian: Endian,
    path: &FieldPath,
) -> Result<Value, Error> {
    match data_type {
        DataType::Scalar(scalar_type) => scalar::parse(*scalar_type, json, Format::V3, path),
        DataType::Struct(structure) => match json {
            Json::Object(members) => {
                let names: Vec<&str> = structure.fields().iter().map(|f| f.name()).collect();
                parse_members(
                    &names,
                    &data_type.to_string(),
                    members,
                    json,
                    path,
                    |i, member, path| {
                        parse_v3(structure.fields()[i].data_type(), member, endian, path)
                    },
                )
            }
            Json::String(_) | Json::Array(_) => {
                let layout = Layout::from_data_type(data_type, Some(endian))?;
                parse_record_bytes(&layout, json, path)
            }
            _ => Err(struct_fill_error(
                data_type,
                json,
                path,
                "an object with a member for every field (or, legacy, a base64 string of the packed record)",
            )),
        },
    }
}

fn struct_fill_error(data_type: &DataType, json: &Json, path: &FieldPath, expected: &str) -> Error {
    Error::InvalidFillValue {
        path: path.clone(),
        data_type: data_type.to_string(),
        json: show(json),
        expected: expected.into(),
    }
}

/// Reads a struct fill object: a member for every one of `names`, no others. `parse_field`
/// reads the member of field number `i`.
fn parse_members(
    names: &[&str],
    data_type: &str,
    members: &Map<String, Json>,
    json: &Json,
    path: &FieldPath,
    mut parse_field: impl FnMut(usize, &Json, &FieldPath) -> Result<Value, Error>,
) -> Result<Value, Error> {
    let error = |path: FieldPath, expected: &str| Error::InvalidFillValue {
        path,
        data_type: data_type.to_owned(),
        json: show(json),
        expected: expected.into(),
    };
    if let Some(unknown) = members.keys().find(|name| !names.contains(&name.as_str())) {
        return Err(error(
            path.field(unknown),
            "members named after the struct's fields only; this one names no field",
        ));
    }
    let mut record = Record::new();
    for (index, name) in names.iter().enumerate() {
        let field_path = path.field(name);
        let member = members.get(*name).ok_or_else(|| {
            error(
                field_path.clone(),
                "a member for every field; this field has none",
            )
        })?;
        record.push(*name, parse_field(index, member, &field_path)?);
    }
    Ok(Value::Record(record))
}

/// Reads a fill given as the record's bytes (base64 string or byte array) in `layout`.
fn parse_record_bytes(layout: &Layout, json: &Json, path: &FieldPath) -> Result<Value, Error> {
    let size = layout.size();
    let data_type = || format!("a {size}-byte record");
    let bytes = scalar::bytes(json)
        .filter(|bytes| bytes.len() == size)
        .ok_or_else(|| Error::InvalidFillValue {
            path: path.clone(),
            data_type: data_type(),
            json: show(json),
            expected: format!(
                "a base64 string of exactly {size} bytes (or an array of {size} integers in 0..=255)"
            ),
        })?;
    layout.decode_value(&bytes).map_err(|error| match error {
        Error::InvalidElement {
            path: inner,
            offset,
            fault,
            ..
        } => Error::InvalidFillValue {
            path: path.join(&inner),
            data_type: data_type(),
            json: show(json),
            expected: format!("the bytes of a valid record (byte offset {offset}: {fault})"),
        },
        other => other,
    })
}

fn write_v3(data_type: &DataType, value: &Value, path: &FieldPath) -> Result<Json, Error> {
    match data_type {
        DataType::Scalar(scalar_type) => scalar::to_json(*scalar_type, value, Format::V3, path),
        DataType::Struct(structure) => {
            let record = record_for(structure, value, path)?;
            let mut members = Map::new();
            for field in structure.fields() {
                let field_path = path.field(field.name());
                let member = record
                    .get(field.name())
                    .ok_or_else(|| Error::ValueMismatch {
                        path: field_path.clone(),
                        data_type: field.data_type().to_string(),
                        reason: "the record has no value for this field".into(),
                    })?;
                members.insert(
                    field.name().to_owned(),
                    write_v3(field.data_type(), member, &field_path)?,
                );
            }
            Ok(Json::Object(members))
        }
    }
}

/// `value` as a record of `structure`'s fields and no others.
fn record_for<'v>(
    structure: &StructType,
    value: &'v Value,
    path: &FieldPath,
) -> Result<&'v Record, Error> {
    let Value::Record(record) = value else {
        return Err(Error::ValueMismatch {
            path: path.clone(),
            data_type: DataType::Struct(structure.clone()).to_string(),
            reason: value.found(),
        });
    };
    if let Some((unknown, _)) = record
        .fields()
        .iter()
        .find(|(name, _)| structure.field(name).is_none())
    {
        return Err(Error::ValueMismatch {
            path: path.field(unknown),
            data_type: DataType::Struct(structure.clone()).to_string(),
            reason: "the struct has no field of this name".into(),
        });
    }
    Ok(record)
}

impl Layout {
    /// Reads a Zarr v2 `fill_value` for elements of this layout; `null` is `None` (no fill).
    ///
    /// Structured fills are base64 of the record in each field's own byte order, padding
    /// included and ignored; the legacy integer `0` reads as all-zero bytes, and an object of
    /// fields (what zarr-python 3 accepts) is read too.
    ///
    /// ```
    /// use zarrdt_core::{Layout, Record, Value};
    /// use serde_json::json;
    ///
    /// let layout = Layout::from_v2_json(&json!([["a", "<i4"], ["b", ">f8"]]))?;
    /// let fill = layout.fill_value_from_json(&json!("AQAAAEAAAAAAAAAA"))?.unwrap();
    /// let expected: Record = [("a", Value::Int32(1)), ("b", Value::Float64(2.0))].into_iter().collect();
    /// assert_eq!(fill, Value::Record(expected));
    /// assert_eq!(layout.fill_value_to_json(Some(&fill))?, json!("AQAAAEAAAAAAAAAA"));
    /// # Ok::<(), zarrdt_core::Error>(())
    /// ```
    pub fn fill_value_from_json(&self, json: &Json) -> Result<Option<Value>, Error> {
        if json.is_null() {
            return Ok(None);
        }
        parse_v2(self, json, &FieldPath::root()).map(Some)
    }

    /// Writes the Zarr v2 `fill_value`: `null` for `None`, base64 of the record for structs.
    ///
    /// A NaN other than the canonical one is [`Error::Unrepresentable`] for scalar types, as
    /// v2 only knows `"NaN"`; inside a struct it is kept, since the record travels as bytes.
    pub fn fill_value_to_json(&self, value: Option<&Value>) -> Result<Json, Error> {
        let Some(value) = value else {
            return Ok(Json::Null);
        };
        match self {
            Layout::Scalar(scalar_layout) => scalar::to_json(
                scalar_layout.scalar(),
                value,
                Format::V2,
                &FieldPath::root(),
            ),
            Layout::Struct(_) | Layout::Array(_) => {
                Ok(Json::from(BASE64.encode(self.encode_value(value)?)))
            }
        }
    }
}

fn parse_v2(layout: &Layout, json: &Json, path: &FieldPath) -> Result<Value, Error> {
    match (layout, json) {
        (Layout::Scalar(scalar_layout), _) => {
            scalar::parse(scalar_layout.scalar(), json, Format::V2, path)
        }
        (Layout::Struct(structure), Json::Object(members)) => {
            let names: Vec<&str> = structure.fields().iter().map(|f| f.name()).collect();
            parse_members(
                &names,
                "a structured dtype",
                members,
                json,
                path,
                |i, member, path| parse_v2(structure.fields()[i].layout(), member, path),
            )
        }
        (Layout::Struct(_) | Layout::Array(_), Json::Number(number))
            if number.as_u64() == Some(0) =>
        {
            // Pre-2.2 zarr-python wrote 0 for "zeros"; read it as all-zero bytes.
            layout.decode_value(&vec![0; layout.size()])
        }
        (Layout::Struct(_) | Layout::Array(_), _) => parse_record_bytes(layout, json, path),
    }
}
