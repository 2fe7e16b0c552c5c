//! Fill values: the JSON of one element in array metadata, read and written exactly as the
//! Zarr specs say, bit for bit; and the same per-leaf JSON for any value of any layout.
//!
//! * v3 ([`DataType::fill_value_from_v3_json`]): per seed 000 for scalars; for structs an object
//!   keyed by field name in field order (the registered `struct` spec), or a base64 string of
//!   the packed record (the legacy `structured` spec); array types as objects keyed `"0"`,
//!   `"1"`, … (their v3 struct form).
//! * v2 ([`Layout::fill_value_from_v2_json`]): numbers, `"NaN"`, `"Infinity"`, `"-Infinity"`,
//!   base64 for raw, bytes and structured types, and `null` for no fill value.
//! * Any layout, v2-only ones included ([`Layout::value_to_json`]): every leaf in its v3 fill
//!   value form, structs as objects in field order, subarrays as nested JSON arrays.
//!
//! Objects are always written in field order (this crate builds `serde_json` with
//! `preserve_order`), since field order is part of a record.

mod float;
mod narrow;
mod scalar;
mod shortest;
mod tree;
mod writer;

pub use writer::{JsonWriteError, JsonWriter};

use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use serde_json::Value as Json;

use crate::{DataType, Endian, Error, FieldPath, Layout, ScalarType, Value};
use tree::Form;

/// Standard base64 alphabet; padding written, and optional when read.
pub(crate) const BASE64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

impl DataType {
    /// Reads a Zarr v3 `fill_value` for this type.
    ///
    /// Base64 struct fills (legacy `structured` arrays) are read as little-endian; use
    /// [`DataType::fill_value_from_v3_json`] with an `endian` to follow the array's `bytes` codec.
    ///
    /// ```
    /// use zarrdt::types::{DataType, ScalarType};
    /// use zarrdt::value::Value;
    /// use serde_json::json;
    ///
    /// let f32_type = DataType::from(ScalarType::Float32);
    /// let nan = f32_type.fill_value_from_v3_json(&json!("0x7fc00001"), None)?;
    /// assert_eq!(nan, Value::Float32(f32::from_bits(0x7fc00001)));
    /// assert_eq!(f32_type.fill_value_to_v3_json(&nan)?, json!("0x7fc00001"));
    /// assert!(DataType::from(ScalarType::UInt8).fill_value_from_v3_json(&json!(256), None).is_err());
    /// # Ok::<(), zarrdt::Error>(())
    /// ```
    ///
    /// A base64 struct fill (legacy `structured`) is decoded in `endian`: pass the byte order
    /// of the array's `bytes` codec (`None` where it has none, or for other fills).
    ///
    /// This follows the `structured` extension spec and tensorstore: the base64 record is in
    /// the codec's byte order, little-endian when the codec has none (`None`). zarr-python
    /// 3.4.1+ instead always reads it as little-endian (zarr-python #4435); to read as it does,
    /// pass `Some(Endian::Little)`. The two differ only for hand-written metadata: zarr-python
    /// 3.1, the only writer of base64 struct fills in v3, never wrote an `endian`.
    pub fn fill_value_from_v3_json(
        &self,
        json: &Json,
        endian: Option<Endian>,
    ) -> Result<Value, Error> {
        tree::read(
            &self.open_layout(),
            json,
            Form::V3Fill,
            endian.unwrap_or(Endian::Little),
            &FieldPath::root(),
        )
    }

    /// Writes the Zarr v3 `fill_value` of `value`: the registered forms only (a full object
    /// for structs, in field order; `"NaN"` only for the canonical NaN, other NaNs as hex).
    pub fn fill_value_to_v3_json(&self, value: &Value) -> Result<Json, Error> {
        tree::write(&self.open_layout(), value, Form::V3Fill)
    }
}

impl ScalarType {
    /// Writes the Zarr v3 `fill_value` of `value`, a value of this type: the JSON each leaf
    /// takes in [`DataType::fill_value_to_v3_json`] and [`Layout::value_to_json`], without
    /// building a data type or layout around it.
    ///
    /// ```
    /// use zarrdt::types::ScalarType;
    /// use zarrdt::value::Value;
    /// use serde_json::json;
    ///
    /// assert_eq!(ScalarType::Float32.fill_value_to_v3_json(&Value::Float32(0.1))?, json!(0.1));
    /// assert_eq!(ScalarType::Float32.fill_value_to_v3_json(&Value::Float32(f32::NAN))?, json!("NaN"));
    /// assert!(ScalarType::Int8.fill_value_to_v3_json(&Value::Float32(1.0)).is_err());
    /// # Ok::<(), zarrdt::Error>(())
    /// ```
    pub fn fill_value_to_v3_json(self, value: &Value) -> Result<Json, Error> {
        scalar::to_json(self, value, scalar::Format::V3, &FieldPath::root())
    }
}

impl Layout {
    /// Reads a Zarr v2 `fill_value` for elements of this layout; `null` is `None` (no fill).
    ///
    /// Structured fills are base64 of the record in each field's own byte order, padding
    /// included and ignored; the legacy integer `0` reads as all-zero bytes
    /// ([`Layout::zero_value`]) for records, subarrays, raw bytes (`|V<n>`) and text (`<U<n>`),
    /// as NumPy reads it, and an object of fields (what zarr-python 3 accepts) is read
    /// too.
    ///
    /// ```
    /// use zarrdt::layout::Layout;
    /// use zarrdt::value::{Record, Value};
    /// use serde_json::json;
    ///
    /// let layout = Layout::from_v2_json(&json!([["a", "<i4"], ["b", ">f8"]]))?;
    /// let fill = layout.fill_value_from_v2_json(&json!("AQAAAEAAAAAAAAAA"))?.unwrap();
    /// let expected: Record = [("a", Value::Int32(1)), ("b", Value::Float64(2.0))].into_iter().collect();
    /// assert_eq!(fill, Value::Record(expected));
    /// assert_eq!(layout.fill_value_to_v2_json(Some(&fill))?, json!("AQAAAEAAAAAAAAAA"));
    /// # Ok::<(), zarrdt::Error>(())
    /// ```
    pub fn fill_value_from_v2_json(&self, json: &Json) -> Result<Option<Value>, Error> {
        match (self, json) {
            (_, Json::Null) => Ok(None),
            // Pre-2.2 zarr-python wrote 0 for "zeros"; read it as all-zero bytes.
            (Layout::Struct(_) | Layout::Subarray(_), Json::Number(number))
                if number.as_u64() == Some(0) =>
            {
                Ok(Some(self.zero_value()))
            }
            // The same legacy 0 for raw (`|V<n>`) and text (`<U<n>`) dtypes: NumPy's zeros.
            (Layout::Scalar(leaf), Json::Number(number))
                if number.as_u64() == Some(0)
                    && matches!(
                        leaf.scalar(),
                        ScalarType::RawBytes { .. } | ScalarType::FixedLengthUtf32 { .. }
                    ) =>
            {
                Ok(Some(self.zero_value()))
            }
            _ => tree::read(self, json, Form::V2Fill, Endian::Little, &FieldPath::root()).map(Some),
        }
    }

    /// Writes the Zarr v2 `fill_value`: `null` for `None`, base64 of the record for structs.
    ///
    /// A NaN other than the canonical one is [`Error::Unrepresentable`] for scalar types, as
    /// v2 only knows `"NaN"`; inside a struct it is kept, since the record travels as bytes.
    pub fn fill_value_to_v2_json(&self, value: Option<&Value>) -> Result<Json, Error> {
        match value {
            None => Ok(Json::Null),
            Some(value) => tree::write(self, value, Form::V2Fill),
        }
    }

    /// Writes `value`, an element of this layout, as JSON: every leaf in its Zarr v3 fill value
    /// form (`"NaN"`, `"0x…"`, `"Infinity"`, exact integers, `[re, im]`, base64 bytes),
    /// structs as objects in field order, subarrays as nested JSON arrays, one level per
    /// dimension.
    ///
    /// Works for every layout, including those with no v3 form (padding, mixed byte order,
    /// subarrays): this is the form tools print values in.
    ///
    /// ```
    /// use zarrdt::layout::Layout;
    /// use serde_json::json;
    ///
    /// let layout = Layout::from_v2_json(&json!([["b", ">f4"], ["pos", "<i2", [2]]]))?;
    /// let value = layout.decode_value(&[0x7f, 0xc0, 0, 0, 1, 0, 2, 0])?;
    /// let text = layout.value_to_json(&value)?.to_string();
    /// assert_eq!(text, r#"{"b":"NaN","pos":[1,2]}"#);
    /// assert_eq!(layout.value_from_json(&serde_json::from_str(&text)?)?, value);
    /// # Ok::<(), zarrdt::Error>(())
    /// ```
    pub fn value_to_json(&self, value: &Value) -> Result<Json, Error> {
        tree::write(self, value, Form::Leaves)
    }

    /// Reads an element of this layout from the JSON [`Layout::value_to_json`] writes (struct
    /// members may be in any order; each must be there once).
    pub fn value_from_json(&self, json: &Json) -> Result<Value, Error> {
        tree::read(self, json, Form::Leaves, Endian::Little, &FieldPath::root())
    }
}
