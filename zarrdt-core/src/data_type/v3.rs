//! Zarr v3 JSON of data types: core types as bare strings, configured types as objects, the
//! registered `struct` form and the legacy `structured` form.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{Map, Value as Json};

use super::{DataType, StructType};
use crate::error::show;
use crate::layout::{Layout, struct_form};
use crate::scalar::{check_keys, parse_v3_scalar};
use crate::{Error, FieldPath, MAX_NESTING_DEPTH, PathSegment};

impl DataType {
    /// Parses a Zarr v3 `data_type`: a core type name (`"int32"`, `"r24"`), an object
    /// `{"name": …, "configuration": …}` (configuration optional for types that take none),
    /// a registered `struct` or a legacy `structured` type, nested to any depth up to
    /// [`MAX_NESTING_DEPTH`].
    ///
    /// Rejects, naming the field path: unknown types, variable-length types, duplicate or empty
    /// field names, empty field lists and configurations with missing or extra keys. Time and
    /// memory are linear in the size of the JSON.
    pub fn from_v3_json(json: &Json) -> Result<Self, Error> {
        parse(json, 0)
    }

    /// The Zarr v3 JSON of this type, in the registered form: core types as bare strings,
    /// configured types as objects, structs as `{"name": "struct", …}` with object fields, and
    /// array types as structs of fields `"0"`, `"1"`, ….
    pub fn to_v3_json(&self) -> Json {
        write(&self.open_layout())
    }
}

fn write(layout: &Layout) -> Json {
    match layout {
        Layout::Scalar(scalar) => scalar.scalar().to_v3_json(),
        Layout::Struct(structure_layout) => structure(
            structure_layout
                .fields()
                .iter()
                .map(|field| field_entry(field.name().to_owned(), write(field.layout())))
                .collect(),
        ),
        Layout::Subarray(array) => {
            let item = write(&array.item());
            structure(
                (0..array.shape()[0])
                    .map(|index| field_entry(struct_form::item_name(index), item.clone()))
                    .collect(),
            )
        }
    }
}

// The JSON is built by moving each part into place: `json!` would copy every value it is given
// (through `serde_json::to_value`), the whole list of fields among them, which for a subarray
// of many items made the JSON twice over.

/// A struct of `fields`: `{"name": "struct", "configuration": {"fields": [...]}}`.
fn structure(fields: Vec<Json>) -> Json {
    let mut configuration = Map::with_capacity(1);
    configuration.insert("fields".to_owned(), Json::Array(fields));
    let mut object = Map::with_capacity(2);
    object.insert("name".to_owned(), Json::String("struct".to_owned()));
    object.insert("configuration".to_owned(), Json::Object(configuration));
    Json::Object(object)
}

/// A field of a struct: `{"name": name, "data_type": data_type}`.
fn field_entry(name: String, data_type: Json) -> Json {
    let mut entry = Map::with_capacity(2);
    entry.insert("name".to_owned(), Json::String(name));
    entry.insert("data_type".to_owned(), data_type);
    Json::Object(entry)
}

// Errors name their field path relative to the type being parsed; each enclosing struct puts
// its field in front as the error travels out (`Error::within`), so that no path is made for a
// type that parses.

fn invalid(path: &FieldPath, json: &Json, reason: impl Into<String>) -> Error {
    Error::InvalidDataType {
        path: path.clone(),
        json: show(json),
        reason: reason.into(),
    }
}

/// [`invalid`] about the type being parsed itself.
fn invalid_here(json: &Json, reason: impl Into<String>) -> Error {
    invalid(&FieldPath::root(), json, reason)
}

fn parse(json: &Json, depth: usize) -> Result<DataType, Error> {
    let (name, configuration) = match json {
        Json::String(name) => (name, None),
        Json::Object(object) => {
            if let Some(key) = object
                .keys()
                .find(|key| !matches!(key.as_str(), "name" | "configuration"))
            {
                return Err(invalid_here(
                    json,
                    format!(
                        "unexpected member {key:?} (a data type object has only \"name\" and \"configuration\")"
                    ),
                ));
            }
            let Some(Json::String(name)) = object.get("name") else {
                return Err(invalid_here(json, "\"name\" must be a string"));
            };
            match object.get("configuration") {
                None => (name, None),
                Some(Json::Object(configuration)) => (name, Some(configuration)),
                Some(_) => return Err(invalid_here(json, "\"configuration\" must be an object")),
            }
        }
        _ => {
            return Err(invalid_here(
                json,
                "a data type is a name string or an object with \"name\"",
            ));
        }
    };
    if let Some(scalar) =
        parse_v3_scalar(name, configuration).map_err(|reason| invalid_here(json, reason))?
    {
        return Ok(scalar.into());
    }
    match name.as_str() {
        "struct" | "structured" => {
            let configuration = configuration
                .ok_or_else(|| invalid_here(json, format!("{name} needs a \"configuration\"")))?;
            if depth >= MAX_NESTING_DEPTH {
                return Err(invalid_here(
                    json,
                    format!("nested deeper than {MAX_NESTING_DEPTH} levels"),
                ));
            }
            parse_struct(configuration, json, depth).map(DataType::Struct)
        }
        _ => Err(invalid_here(json, "unknown or unsupported data type")),
    }
}

fn parse_struct(
    configuration: &Map<String, Json>,
    json: &Json,
    depth: usize,
) -> Result<StructType, Error> {
    check_keys(configuration, &["fields"]).map_err(|reason| invalid_here(json, reason))?;
    let Json::Array(entries) = &configuration["fields"] else {
        return Err(invalid_here(json, "\"fields\" must be an array"));
    };
    if entries.is_empty() {
        return Err(invalid_here(json, "a struct needs at least one field"));
    }
    let field_at = |name: &str| FieldPath::root().field(name);
    let entry_at = |index: usize| FieldPath::root().index(index);
    let mut seen = HashSet::with_capacity(entries.len());
    let mut fields = Vec::with_capacity(entries.len());
    for (index, entry) in entries.iter().enumerate() {
        let (name, data_type) = match entry {
            Json::Object(object) => {
                if let Some(key) = object
                    .keys()
                    .find(|key| !matches!(key.as_str(), "name" | "data_type"))
                {
                    let at = match object.get("name") {
                        Some(Json::String(name)) if !name.is_empty() => field_at(name),
                        _ => entry_at(index),
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
                    &entry_at(index),
                    entry,
                    "a field is {\"name\": …, \"data_type\": …} or a [name, data_type] pair",
                ));
            }
        };
        let Some(Json::String(name)) = name else {
            return Err(invalid(
                &entry_at(index),
                entry,
                "the field name must be a string",
            ));
        };
        // The legacy `[name, data_type]` pairs come from NumPy dtypes, whose unnamed fields
        // zarr-python 3.1 writes as "": named as NumPy names them, `f` and the index.
        let name: Arc<str> = match (name.is_empty(), entry) {
            (false, _) => Arc::from(name.as_str()),
            (true, Json::Array(_)) => Arc::from(format!("f{index}")),
            (true, _) => {
                return Err(invalid(
                    &entry_at(index),
                    entry,
                    "field names must not be empty",
                ));
            }
        };
        if !seen.insert(Arc::clone(&name)) {
            return Err(invalid(
                &field_at(&name),
                entry,
                format!(
                    "field name {} occurs more than once",
                    show(&Json::from(&*name))
                ),
            ));
        }
        let Some(data_type) = data_type else {
            return Err(invalid(
                &field_at(&name),
                entry,
                "the field has no data_type",
            ));
        };
        let data_type = parse(data_type, depth + 1)
            .map_err(|error| error.within(PathSegment::Field(name.to_string())))?;
        fields.push((name, data_type));
    }
    StructType::new(fields).map_err(|error| match error {
        Error::InvalidStruct { path, reason } => invalid(&path, json, reason),
        other => other,
    })
}
