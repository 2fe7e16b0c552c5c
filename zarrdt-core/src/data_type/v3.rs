//! Zarr v3 JSON of data types: core types as bare strings, configured types as objects, the
//! registered `struct` form and the legacy `structured` form.

use std::num::NonZeroUsize;

use serde_json::{Map, Value as Json, json};

use super::{DataType, MAX_ELEMENT_SIZE, ScalarType, TimeConfig, TimeUnit};
use crate::error::show;
use crate::{Error, FieldPath, StructType};

/// Names of variable-length types, which have no fixed size and so cannot be used here.
const VARIABLE_LENGTH: [&str; 4] = [
    "string",
    "bytes",
    "variable_length_utf8",
    "variable_length_bytes",
];

impl DataType {
    /// Parses a Zarr v3 `data_type`: a core type name (`"int32"`, `"r24"`), an object
    /// `{"name": …, "configuration": …}` (configuration optional for types that take none),
    /// a registered `struct` or a legacy `structured` type, nested to any depth.
    ///
    /// Rejects, naming the field path: unknown types, variable-length types, duplicate or empty
    /// field names, empty field lists and configurations with missing or extra keys.
    pub fn from_v3_json(json: &Json) -> Result<Self, Error> {
        parse(json, &FieldPath::root())
    }

    /// The Zarr v3 JSON of this type, in the registered form: core types as bare strings,
    /// configured types as objects, structs as `{"name": "struct", …}` with object fields.
    pub fn to_v3_json(&self) -> Json {
        match self {
            DataType::Scalar(scalar) => scalar.to_v3_json(),
            DataType::Struct(structure) => {
                let fields: Vec<Json> = structure
                    .fields()
                    .iter()
                    .map(|field| json!({"name": field.name(), "data_type": field.data_type().to_v3_json()}))
                    .collect();
                json!({"name": "struct", "configuration": {"fields": fields}})
            }
        }
    }
}

impl ScalarType {
    /// The Zarr v3 JSON of this type: a bare string for core types, an object with
    /// `configuration` for the extension types.
    pub fn to_v3_json(self) -> Json {
        let name = self.name();
        match self {
            ScalarType::DateTime64(config) | ScalarType::TimeDelta64(config) => json!({
                "name": name,
                "configuration": {"unit": config.unit().as_str(), "scale_factor": config.scale_factor()}
            }),
            ScalarType::FixedLengthUtf32 { .. }
            | ScalarType::RawBytes { .. }
            | ScalarType::NullTerminatedBytes { .. } => json!({
                "name": name,
                "configuration": {"length_bytes": self.size()}
            }),
            _ => Json::String(name),
        }
    }
}

fn invalid(path: &FieldPath, json: &Json, reason: impl Into<String>) -> Error {
    Error::InvalidDataType {
        path: path.clone(),
        json: show(json),
        reason: reason.into(),
    }
}

fn parse(json: &Json, path: &FieldPath) -> Result<DataType, Error> {
    match json {
        Json::String(name) => parse_named(name, None, json, path),
        Json::Object(object) => {
            if let Some(key) = object
                .keys()
                .find(|key| !matches!(key.as_str(), "name" | "configuration"))
            {
                return Err(invalid(
                    path,
                    json,
                    format!(
                        "unexpected member {key:?} (a data type object has only \"name\" and \"configuration\")"
                    ),
                ));
            }
            let Some(Json::String(name)) = object.get("name") else {
                return Err(invalid(path, json, "\"name\" must be a string"));
            };
            let configuration = match object.get("configuration") {
                None => None,
                Some(Json::Object(configuration)) => Some(configuration),
                Some(_) => return Err(invalid(path, json, "\"configuration\" must be an object")),
            };
            parse_named(name, configuration, json, path)
        }
        _ => Err(invalid(
            path,
            json,
            "a data type is a name string or an object with \"name\"",
        )),
    }
}

fn parse_named(
    name: &str,
    configuration: Option<&Map<String, Json>>,
    json: &Json,
    path: &FieldPath,
) -> Result<DataType, Error> {
    if let Some(scalar) = parse_unconfigured(name) {
        return match configuration {
            Some(configuration) if !configuration.is_empty() => Err(invalid(
                path,
                json,
                format!("{name} takes no configuration"),
            )),
            _ => Ok(scalar.into()),
        };
    }
    if name.starts_with('r') && name[1..].bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid(
            path,
            json,
            "raw types are r<N> with N a positive multiple of 8 (no leading zeros)",
        ));
    }
    if VARIABLE_LENGTH.contains(&name) {
        return Err(invalid(
            path,
            json,
            format!("{name} is a variable-length type; only fixed-size types are supported"),
        ));
    }
    let needs_configuration = || invalid(path, json, format!("{name} needs a \"configuration\""));
    match name {
        "struct" | "structured" => {
            let configuration = configuration.ok_or_else(needs_configuration)?;
            parse_struct(configuration, json, path).map(DataType::Struct)
        }
        "numpy.datetime64" | "numpy.timedelta64" => {
            let configuration = configuration.ok_or_else(needs_configuration)?;
            let config = parse_time_config(configuration, json, path)?;
            Ok(if name == "numpy.datetime64" {
                ScalarType::DateTime64(config)
            } else {
                ScalarType::TimeDelta64(config)
            }
            .into())
        }
        "fixed_length_utf32" | "raw_bytes" | "null_terminated_bytes" => {
            let configuration = configuration.ok_or_else(needs_configuration)?;
            let length = parse_length_bytes(configuration, json, path)?;
            let scalar = if name == "fixed_length_utf32" {
                if length.get() % 4 != 0 {
                    return Err(invalid(
                        path,
                        json,
                        "length_bytes of fixed_length_utf32 must be a multiple of 4",
                    ));
                }
                let chars = NonZeroUsize::new(length.get() / 4).unwrap_or(NonZeroUsize::MIN);
                ScalarType::FixedLengthUtf32 { chars }
            } else if name == "raw_bytes" {
                ScalarType::RawBytes { size: length }
            } else {
                ScalarType::NullTerminatedBytes { size: length }
            };
            Ok(scalar.into())
        }
        _ => Err(invalid(path, json, "unknown or unsupported data type")),
    }
}

/// Core types and `r<N>`: the types named by a bare string.
fn parse_unconfigured(name: &str) -> Option<ScalarType> {
    Some(match name {
        "bool" => ScalarType::Bool,
        "int8" => ScalarType::Int8,
        "int16" => ScalarType::Int16,
        "int32" => ScalarType::Int32,
        "int64" => ScalarType::Int64,
        "uint8" => ScalarType::UInt8,
        "uint16" => ScalarType::UInt16,
        "uint32" => ScalarType::UInt32,
        "uint64" => ScalarType::UInt64,
        "float16" => ScalarType::Float16,
        "float32" => ScalarType::Float32,
        "float64" => ScalarType::Float64,
        "complex64" => ScalarType::Complex64,
        "complex128" => ScalarType::Complex128,
        _ => {
            let digits = name.strip_prefix('r')?;
            if digits.is_empty()
                || digits.starts_with('0')
                || !digits.bytes().all(|b| b.is_ascii_digit())
            {
                return None;
            }
            return ScalarType::raw_bits(digits.parse().ok()?);
        }
    })
}

fn check_keys(
    configuration: &Map<String, Json>,
    allowed: &[&str],
    json: &Json,
    path: &FieldPath,
) -> Result<(), Error> {
    if let Some(key) = configuration
        .keys()
        .find(|key| !allowed.contains(&key.as_str()))
    {
        return Err(invalid(
            path,
            json,
            format!("unexpected configuration member {key:?} (allowed: {allowed:?})"),
        ));
    }
    for key in allowed {
        if !configuration.contains_key(*key) {
            return Err(invalid(
                path,
                json,
                format!("configuration member {key:?} is missing"),
            ));
        }
    }
    Ok(())
}

fn parse_time_config(
    configuration: &Map<String, Json>,
    json: &Json,
    path: &FieldPath,
) -> Result<TimeConfig, Error> {
    check_keys(configuration, &["unit", "scale_factor"], json, path)?;
    let unit: TimeUnit = configuration["unit"]
        .as_str()
        .ok_or_else(|| invalid(path, json, "unit must be a string"))?
        .parse()
        .map_err(|e| invalid(path, json, format!("{e}")))?;
    let scale_factor = configuration["scale_factor"]
        .as_u64()
        .and_then(|scale| u32::try_from(scale).ok())
        .and_then(|scale| TimeConfig::new(unit, scale))
        .ok_or_else(|| {
            invalid(
                path,
                json,
                "scale_factor must be an integer in 1..=2147483647",
            )
        })?;
    Ok(scale_factor)
}

fn parse_length_bytes(
    configuration: &Map<String, Json>,
    json: &Json,
    path: &FieldPath,
) -> Result<NonZeroUsize, Error> {
    check_keys(configuration, &["length_bytes"], json, path)?;
    configuration["length_bytes"]
        .as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .filter(|&n| n <= MAX_ELEMENT_SIZE)
        .and_then(NonZeroUsize::new)
        .ok_or_else(|| {
            invalid(
                path,
                json,
                format!("length_bytes must be an integer in 1..={MAX_ELEMENT_SIZE}"),
            )
        })
}

fn parse_struct(
    configuration: &Map<String, Json>,
    json: &Json,
    path: &FieldPath,
) -> Result<StructType, Error> {
    check_keys(configuration, &["fields"], json, path)?;
    let Json::Array(entries) = &configuration["fields"] else {
        return Err(invalid(path, json, "\"fields\" must be an array"));
    };
    if entries.is_empty() {
        return Err(invalid(path, json, "a struct needs at least one field"));
    }
    let mut fields = Vec::with_capacity(entries.len());
    for (index, entry) in entries.iter().enumerate() {
        let (name, data_type) = match entry {
            Json::Object(object) => {
                if let Some(key) = object
                    .keys()
                    .find(|key| !matches!(key.as_str(), "name" | "data_type"))
                {
                    let at = match object.get("name") {
                        Some(Json::String(name)) if !name.is_empty() => path.field(name),
                        _ => path.index(index),
                    };
                    return Err(invalid(
                        &at,
                        entry,
                        format!(
                            "unexpected member {key:?} in a field (allowed: \"name\", \"data_type\")"
                        ),
                    ));
                }
                (object.get("name"), object.get("data_type"))
            }
            Json::Array(pair) if pair.len() == 2 => (pair.first(), pair.get(1)),
            _ => {
                return Err(invalid(
                    &path.index(index),
                    entry,
                    "a field is {\"name\": …, \"data_type\": …} or a [name, data_type] pair",
                ));
            }
        };
        let Some(Json::String(name)) = name else {
            return Err(invalid(
                &path.index(index),
                entry,
                "the field name must be a string",
            ));
        };
        let field_path = path.field(name);
        if name.is_empty() {
            return Err(invalid(
                &path.index(index),
                entry,
                "field names must not be empty",
            ));
        }
        if fields
            .iter()
            .any(|(seen, _): &(String, DataType)| seen == name)
        {
            return Err(invalid(
                &field_path,
                entry,
                format!(
                    "field name {} occurs more than once",
                    show(&Json::from(name.as_str()))
                ),
            ));
        }
        let Some(data_type) = data_type else {
            return Err(invalid(&field_path, entry, "the field has no data_type"));
        };
        fields.push((name.clone(), parse(data_type, &field_path)?));
    }
    StructType::new(fields).map_err(|error| match error {
        Error::InvalidStruct {
            path: inner,
            reason,
        } => invalid(&path.join(&inner), json, reason),
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_names() {
        assert_eq!(parse_unconfigured("r8"), ScalarType::raw_bits(8));
        assert_eq!(parse_unconfigured("r24"), ScalarType::raw_bits(24));
        for bad in ["r", "r0", "r7", "r08", "r+8", "r-8", "R8", "r8 "] {
            assert_eq!(parse_unconfigured(bad), None, "{bad}");
        }
    }
}
