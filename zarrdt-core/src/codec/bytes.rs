//! The Zarr v3 `bytes` codec (seed 002): elements in lexicographical order, multi-byte values
//! in the configured `endian`.

use serde_json::{Value as Json, json};

use super::record;
use crate::error::show;
use crate::{DataType, Endian, Error, Value};

/// The `bytes` array-to-bytes codec: `{"name": "bytes", "configuration": {"endian": …}}`.
///
/// `endian` is required for data types with multi-byte values: encoding without one is
/// [`Error::MissingEndian`]. Decoding without one reads little-endian, as zarr-python does for
/// arrays it wrote without `endian` (3.1.x struct arrays), and as the legacy `structured`
/// spec requires.
///
/// ```
/// use zarrdt::{Endian, ZarrType};
/// use zarrdt::metadata::BytesCodec;
/// use serde_json::json;
///
/// let codec = BytesCodec::from_json(&json!({"name": "bytes", "configuration": {"endian": "big"}}))?;
/// assert_eq!(codec.endian(), Some(Endian::Big));
/// let endian = codec.write_endian(&i32::data_type())?;
/// assert_eq!(i32::encode_slice(&[1, -2], endian), [0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe]);
/// assert_eq!(i32::decode_slice(&[0, 0, 0, 7], codec.read_endian())?, [7]);
///
/// let unconfigured = BytesCodec::new(None);
/// assert!(unconfigured.write_endian(&i32::data_type()).is_err()); // int32 needs an endian
/// assert!(unconfigured.write_endian(&bool::data_type()).is_ok()); // bool does not
/// # Ok::<(), zarrdt::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BytesCodec {
    endian: Option<Endian>,
}

impl BytesCodec {
    /// A codec with the given `endian`, or none.
    pub const fn new(endian: Option<Endian>) -> Self {
        BytesCodec { endian }
    }

    /// The codec for storing `data_type` in `endian`: without `endian` when no value has a
    /// byte order (what zarr-python writes for, e.g., `uint8` or a struct of single bytes).
    pub fn for_data_type(data_type: &DataType, endian: Endian) -> Self {
        BytesCodec {
            endian: data_type.has_endianness().then_some(endian),
        }
    }

    /// The configured `endian`, if any.
    pub const fn endian(self) -> Option<Endian> {
        self.endian
    }

    /// The byte order chunks are read in: the configured one, or little-endian.
    pub fn read_endian(self) -> Endian {
        self.endian.unwrap_or(Endian::Little)
    }

    /// Parses the codec's JSON object (name `"bytes"`; configuration optional, with an
    /// optional `endian` of `"little"` or `"big"`). Unknown members are errors.
    pub fn from_json(json: &Json) -> Result<Self, Error> {
        let invalid = |reason: &str| Error::InvalidCodec {
            json: show(json),
            reason: reason.into(),
        };
        let Json::Object(object) = json else {
            return Err(invalid("a codec is an object with \"name\""));
        };
        if object.get("name") != Some(&Json::from("bytes")) {
            return Err(invalid("the codec name must be \"bytes\""));
        }
        if let Some(key) = object
            .keys()
            .find(|key| !matches!(key.as_str(), "name" | "configuration"))
        {
            return Err(invalid(&format!("unexpected member {key:?}")));
        }
        let endian = match object.get("configuration") {
            None => None,
            Some(Json::Object(configuration)) => {
                if let Some(key) = configuration.keys().find(|key| *key != "endian") {
                    return Err(invalid(&format!(
                        "unexpected configuration member {key:?} (only \"endian\")"
                    )));
                }
                match configuration.get("endian") {
                    None => None,
                    Some(Json::String(text)) => Some(
                        text.parse()
                            .map_err(|_| invalid("endian must be \"little\" or \"big\""))?,
                    ),
                    Some(_) => return Err(invalid("endian must be \"little\" or \"big\"")),
                }
            }
            Some(_) => return Err(invalid("the configuration must be an object")),
        };
        Ok(BytesCodec { endian })
    }

    /// The codec's JSON: `{"name": "bytes"}`, with `{"endian": …}` configuration if set.
    pub fn to_json(self) -> Json {
        match self.endian {
            Some(endian) => json!({"name": "bytes", "configuration": {"endian": endian.as_str()}}),
            None => json!({"name": "bytes"}),
        }
    }

    /// The byte order this codec writes `data_type` in: its `endian`, or, where it has none,
    /// [`Error::MissingEndian`] if the type has multi-byte values (any order otherwise, as
    /// all give the same bytes). Encode Rust elements with it:
    /// `T::encode_slice(&records, codec.write_endian(&T::data_type())?)`; decode them with
    /// [`BytesCodec::read_endian`]: `T::decode_slice(&bytes, codec.read_endian())`.
    pub fn write_endian(self, data_type: &DataType) -> Result<Endian, Error> {
        match (self.endian, data_type.has_endianness()) {
            (Some(endian), _) => Ok(endian),
            // Byte order is irrelevant; any choice encodes the same bytes.
            (None, false) => Ok(Endian::Little),
            (None, true) => Err(Error::MissingEndian {
                data_type: data_type.to_string(),
            }),
        }
    }

    /// Encodes a chunk of dynamic values of `data_type`.
    pub fn encode_values(self, data_type: &DataType, values: &[Value]) -> Result<Vec<u8>, Error> {
        let endian = self.write_endian(data_type)?;
        record::encode_values(&data_type.open_layout(), values, endian)
    }

    /// Decodes a chunk into dynamic values of `data_type`.
    pub fn decode_values(self, data_type: &DataType, bytes: &[u8]) -> Result<Vec<Value>, Error> {
        record::decode_values(&data_type.open_layout(), bytes, self.read_endian())
    }
}
