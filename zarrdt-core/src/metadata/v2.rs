//! `.zarray` of a Zarr v2 array.

use serde_json::{Value as Json, json};

use super::{invalid, member, shape};
use crate::{Error, Layout, Value};

/// What a Zarr v2 array's `.zarray` says about its elements and chunks.
///
/// ```
/// use zarrdt::metadata::ArrayMetadataV2;
///
/// let meta = ArrayMetadataV2::from_json_str(r#"{
///     "zarr_format": 2, "shape": [5], "chunks": [2], "order": "C",
///     "dtype": [["a", "<i4"], ["b", ">f8"]], "fill_value": "AQAAAEAAAAAAAAAA",
///     "compressor": null, "filters": null
/// }"#)?;
/// assert_eq!(meta.layout.size(), 12);
/// # Ok::<(), zarrdt::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ArrayMetadataV2 {
    /// Array shape.
    pub shape: Vec<u64>,
    /// Chunk shape.
    pub chunks: Vec<u64>,
    /// The element layout: the `dtype`, byte order per field.
    pub layout: Layout,
    /// The fill value; `None` for `null`.
    pub fill_value: Option<Value>,
    /// Memory order of the chunks: `'C'` (row-major) or `'F'`.
    pub order: char,
    /// The chunk key separator: `.` (default) or `/`.
    pub dimension_separator: char,
    /// The `compressor` object, or `null`.
    pub compressor: Json,
    /// The `filters` list, or `null`.
    pub filters: Json,
}

impl ArrayMetadataV2 {
    /// Metadata of an uncompressed, row-major array.
    pub fn new(
        shape: Vec<u64>,
        chunks: Vec<u64>,
        layout: Layout,
        fill_value: Option<Value>,
    ) -> Self {
        ArrayMetadataV2 {
            shape,
            chunks,
            layout,
            fill_value,
            order: 'C',
            dimension_separator: '.',
            compressor: Json::Null,
            filters: Json::Null,
        }
    }

    /// Parses a `.zarray` document.
    pub fn from_json_str(text: &str) -> Result<Self, Error> {
        Self::from_json(&super::parse_metadata_json(text.as_bytes())?)
    }

    /// Parses the JSON of a `.zarray` document.
    pub fn from_json(json: &Json) -> Result<Self, Error> {
        let object = json
            .as_object()
            .ok_or_else(|| invalid("<document>", "must be a JSON object"))?;
        if member(object, "zarr_format")?.as_u64() != Some(2) {
            return Err(invalid("zarr_format", "must be 2"));
        }
        let layout = Layout::from_v2_json(member(object, "dtype")?)?;
        let fill_value =
            layout.fill_value_from_v2_json(object.get("fill_value").unwrap_or(&Json::Null))?;
        let order = match object.get("order").and_then(Json::as_str) {
            None | Some("C") => 'C',
            Some("F") => 'F',
            Some(_) => return Err(invalid("order", "must be \"C\" or \"F\"")),
        };
        let dimension_separator = match object.get("dimension_separator").and_then(Json::as_str) {
            None | Some(".") => '.',
            Some("/") => '/',
            Some(_) => return Err(invalid("dimension_separator", "must be \".\" or \"/\"")),
        };
        Ok(ArrayMetadataV2 {
            shape: shape(object, "shape")?,
            chunks: shape(object, "chunks")?,
            layout,
            fill_value,
            order,
            dimension_separator,
            compressor: object.get("compressor").cloned().unwrap_or(Json::Null),
            filters: object.get("filters").cloned().unwrap_or(Json::Null),
        })
    }

    /// The `.zarray` document.
    pub fn to_json(&self) -> Result<Json, Error> {
        Ok(json!({
            "zarr_format": 2,
            "shape": self.shape,
            "chunks": self.chunks,
            "dtype": self.layout.to_v2_json()?,
            "fill_value": self.layout.fill_value_to_v2_json(self.fill_value.as_ref())?,
            "order": self.order.to_string(),
            "compressor": self.compressor,
            "filters": self.filters,
            "dimension_separator": self.dimension_separator.to_string(),
        }))
    }
}
