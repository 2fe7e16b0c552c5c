//! `zarr.json` of a Zarr v3 array.

use serde_json::{Value as Json, json};

use super::{invalid, member, shape};
use crate::{BytesCodec, DataType, Endian, Error, Layout, Value};

/// What a Zarr v3 array's `zarr.json` says about its elements and chunks.
///
/// ```
/// use zarrdt::Endian;
/// use zarrdt::metadata::ArrayMetadataV3;
/// use zarrdt::types::{DataType, ScalarType};
/// use zarrdt::value::Value;
///
/// let meta = ArrayMetadataV3::new(vec![10], vec![4], ScalarType::Float32.into(), Value::Float32(f32::NAN), Endian::Little);
/// let json = meta.to_json()?;
/// assert_eq!(json["fill_value"], "NaN");
/// let back = ArrayMetadataV3::from_json(&json)?;
/// assert_eq!(back, meta);
/// # Ok::<(), zarrdt::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ArrayMetadataV3 {
    /// Array shape.
    pub shape: Vec<u64>,
    /// Shape of every chunk of the regular chunk grid.
    pub chunk_shape: Vec<u64>,
    /// The element type.
    pub data_type: DataType,
    /// The fill value, as a value of `data_type`.
    pub fill_value: Value,
    /// The array's `bytes` codec, if it has one: at the top level of `codecs`, or inside a
    /// `sharding_indexed` codec (the codec that encodes the inner chunks).
    pub bytes_codec: Option<BytesCodec>,
    /// The whole codec chain, as written.
    pub codecs: Vec<Json>,
    /// The separator of the chunk key encoding: `/` for `default`, `.` (or `/`) for `v2`.
    pub separator: char,
    /// Whether the chunk key encoding is `v2` (no `c` prefix).
    pub v2_chunk_keys: bool,
    /// Whether `data_type` was written in the legacy `structured` form (zarr-python 3.1).
    pub legacy_structured: bool,
    /// The `dimension_names` list, if present.
    pub dimension_names: Option<Json>,
    /// The `attributes` object (empty if absent).
    pub attributes: serde_json::Map<String, Json>,
}

impl ArrayMetadataV3 {
    /// Metadata of an array stored uncompressed through a `bytes` codec in `endian` (written
    /// only if the type has multi-byte values), with the default chunk key encoding.
    pub fn new(
        shape: Vec<u64>,
        chunk_shape: Vec<u64>,
        data_type: DataType,
        fill_value: Value,
        endian: Endian,
    ) -> Self {
        let bytes_codec = BytesCodec::for_data_type(&data_type, endian);
        ArrayMetadataV3 {
            shape,
            chunk_shape,
            data_type,
            fill_value,
            bytes_codec: Some(bytes_codec),
            codecs: vec![bytes_codec.to_json()],
            separator: '/',
            v2_chunk_keys: false,
            legacy_structured: false,
            dimension_names: None,
            attributes: serde_json::Map::new(),
        }
    }

    /// Parses a `zarr.json` document.
    pub fn from_json_str(text: &str) -> Result<Self, Error> {
        Self::from_json(&super::parse_metadata_json(text.as_bytes())?)
    }

    /// Parses the JSON of a `zarr.json` document.
    pub fn from_json(json: &Json) -> Result<Self, Error> {
        let object = json
            .as_object()
            .ok_or_else(|| invalid("<document>", "must be a JSON object"))?;
        if member(object, "zarr_format")?.as_u64() != Some(3) {
            return Err(invalid("zarr_format", "must be 3"));
        }
        if member(object, "node_type")?.as_str() != Some("array") {
            return Err(invalid("node_type", "must be \"array\""));
        }
        let shape = shape(object, "shape")?;
        let grid = member(object, "chunk_grid")?;
        if grid.get("name").and_then(Json::as_str) != Some("regular") {
            return Err(invalid(
                "chunk_grid",
                "only the regular chunk grid is supported",
            ));
        }
        let chunk_shape = grid
            .get("configuration")
            .and_then(Json::as_object)
            .ok_or_else(|| invalid("chunk_grid", "needs a configuration"))
            .and_then(|configuration| super::shape(configuration, "chunk_shape"))?;
        let (separator, v2_chunk_keys) = chunk_key_encoding(object.get("chunk_key_encoding"))?;
        let codecs = member(object, "codecs")?
            .as_array()
            .cloned()
            .ok_or_else(|| invalid("codecs", "must be a list"))?;
        let bytes_codec = find_bytes_codec(&codecs)
            .map(BytesCodec::from_json)
            .transpose()?;
        let data_type_json = member(object, "data_type")?;
        let data_type = DataType::from_v3_json(data_type_json)?;
        let legacy_structured =
            data_type_json.get("name").and_then(Json::as_str) == Some("structured");
        let fill_value = data_type.fill_value_from_v3_json(
            member(object, "fill_value")?,
            bytes_codec.and_then(BytesCodec::endian),
        )?;
        match object.get("storage_transformers") {
            None => {}
            Some(Json::Array(transformers)) if transformers.is_empty() => {}
            Some(_) => {
                return Err(invalid(
                    "storage_transformers",
                    "storage transformers are not supported",
                ));
            }
        }
        let attributes = match object.get("attributes") {
            None => serde_json::Map::new(),
            Some(Json::Object(attributes)) => attributes.clone(),
            Some(_) => return Err(invalid("attributes", "must be an object")),
        };
        Ok(ArrayMetadataV3 {
            shape,
            chunk_shape,
            data_type,
            fill_value,
            bytes_codec,
            codecs,
            separator,
            v2_chunk_keys,
            legacy_structured,
            dimension_names: object.get("dimension_names").cloned(),
            attributes,
        })
    }

    /// The `zarr.json` document, in the current spec forms: a legacy `structured` type is
    /// written as `struct`, and a `bytes` codec without `endian` for a type that needs one
    /// (as zarr-python 3.1 wrote them) gets the little-endian order it was read with.
    pub fn to_json(&self) -> Result<Json, Error> {
        let encoding = if self.v2_chunk_keys { "v2" } else { "default" };
        let endian = self
            .bytes_codec
            .filter(|_| self.data_type.has_endianness())
            .map(BytesCodec::read_endian);
        let codecs = with_bytes_endian(&self.codecs, endian);
        let mut document = json!({
            "zarr_format": 3,
            "node_type": "array",
            "shape": self.shape,
            "data_type": self.data_type.to_v3_json(),
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": self.chunk_shape}},
            "chunk_key_encoding": {"name": encoding, "configuration": {"separator": self.separator.to_string()}},
            "fill_value": self.data_type.fill_value_to_v3_json(&self.fill_value)?,
            "codecs": codecs,
            "attributes": self.attributes,
        });
        if let Some(names) = &self.dimension_names {
            document["dimension_names"] = names.clone();
        }
        Ok(document)
    }

    /// The stored layout of one element, as the chunks are read: in the `bytes` codec's
    /// `endian` (little-endian if it has none).
    pub fn layout(&self) -> Result<Layout, Error> {
        let endian = self.bytes_codec.unwrap_or_default().read_endian();
        Layout::from_data_type(&self.data_type, Some(endian))
    }
}

fn chunk_key_encoding(json: Option<&Json>) -> Result<(char, bool), Error> {
    let Some(json) = json else {
        return Ok(('/', false));
    };
    let name = json.get("name").and_then(Json::as_str);
    let separator = json
        .get("configuration")
        .and_then(|configuration| configuration.get("separator"))
        .and_then(Json::as_str);
    match (name, separator) {
        (Some("default"), None | Some("/")) => Ok(('/', false)),
        (Some("default"), Some(".")) => Ok(('.', false)),
        (Some("v2"), None | Some(".")) => Ok(('.', true)),
        (Some("v2"), Some("/")) => Ok(('/', true)),
        _ => Err(invalid(
            "chunk_key_encoding",
            "must be \"default\" or \"v2\" with separator \"/\" or \".\"",
        )),
    }
}

/// The array-to-bytes `bytes` codec of a codec chain: at the top level, or (for sharded
/// arrays) inside `sharding_indexed`'s own `codecs`, which encode the inner chunks.
fn find_bytes_codec(codecs: &[Json]) -> Option<&Json> {
    codecs
        .iter()
        .find_map(|codec| match codec.get("name").and_then(Json::as_str) {
            Some("bytes") => Some(codec),
            Some("sharding_indexed") => codec
                .get("configuration")
                .and_then(|configuration| configuration.get("codecs"))
                .and_then(Json::as_array)
                .and_then(|inner| find_bytes_codec(inner)),
            _ => None,
        })
}

/// `codecs` with every `bytes` codec (nested in sharding too) written with `endian`, the
/// current spec form: an `endian` exactly when the data type has multi-byte values.
fn with_bytes_endian(codecs: &[Json], endian: Option<crate::Endian>) -> Vec<Json> {
    codecs
        .iter()
        .map(|codec| match codec.get("name").and_then(Json::as_str) {
            Some("bytes") => BytesCodec::new(endian).to_json(),
            Some("sharding_indexed") => {
                let mut codec = codec.clone();
                if let Some(Json::Array(inner)) = codec
                    .get_mut("configuration")
                    .and_then(|configuration| configuration.get_mut("codecs"))
                {
                    *inner = with_bytes_endian(inner, endian);
                }
                codec
            }
            _ => codec.clone(),
        })
        .collect()
}
