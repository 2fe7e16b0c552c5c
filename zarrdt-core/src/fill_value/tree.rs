//! The walk between values of any layout and their JSON, in each of the three forms: v3 fill
//! values, v2 fill values, and per-leaf JSON of any layout.

use std::borrow::Cow;
use std::collections::HashSet;

use base64::Engine;
use serde_json::{Map, Value as Json};

use super::BASE64;
use super::scalar::{self, Format};
use crate::codec::record::{self, outer_items};
use crate::error::show;
use crate::layout::{StructLayout, SubarrayLayout, struct_form};
use crate::{DataType, Endian, Error, FieldPath, Layout, PathSegment, SubarrayValue, Value};

/// Which JSON form is read or written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Form {
    /// A Zarr v3 `fill_value`: subarrays in their struct form (objects keyed `"0"`, …).
    V3Fill,
    /// A Zarr v2 `fill_value`: structs as base64 of the record.
    V2Fill,
    /// Any value of any layout: v3 scalar forms, subarrays as nested JSON arrays.
    Leaves,
}

impl Form {
    fn scalars(self) -> Format {
        match self {
            Form::V2Fill => Format::V2,
            Form::V3Fill | Form::Leaves => Format::V3,
        }
    }
}

/// What the type is called in messages: the v3 JSON of an open layout, `"a structured dtype"`
/// for a v2 one.
fn type_name(layout: &Layout, form: Form) -> String {
    match (layout, form) {
        (Layout::Scalar(leaf), _) => leaf.scalar().name(),
        (_, Form::V3Fill) => DataType::view(layout).to_string(),
        (Layout::Struct(structure), _) => {
            format!("a structured dtype of {} fields", structure.fields().len())
        }
        (Layout::Subarray(array), _) => format!("a subarray of shape {:?}", array.shape()),
    }
}

fn invalid(
    layout: &Layout,
    form: Form,
    json: &Json,
    path: &FieldPath,
    expected: impl Into<String>,
) -> Error {
    Error::InvalidFillValue {
        path: path.clone(),
        data_type: type_name(layout, form),
        json: show(json),
        expected: expected.into(),
    }
}

/// Reads the value of `layout` that `json` is in `form`; base64 records are decoded with
/// `legacy` as the byte order of leaves that have none of their own.
pub(super) fn read(
    layout: &Layout,
    json: &Json,
    form: Form,
    legacy: Endian,
    path: &FieldPath,
) -> Result<Value, Error> {
    match (layout, json) {
        (Layout::Scalar(leaf), _) => scalar::parse(leaf.scalar(), json, form.scalars(), path),
        (Layout::Struct(structure), Json::Object(members)) => {
            read_members(layout, structure, members, json, form, legacy, path)
        }
        (Layout::Subarray(array), Json::Object(members)) => {
            read_items_object(layout, array, members, json, form, legacy, path)
        }
        (Layout::Subarray(array), Json::Array(items)) => {
            read_items_list(layout, array, items, json, form, legacy, path)
        }
        (_, Json::String(_) | Json::Array(_)) if form != Form::Leaves => {
            read_record_bytes(layout, json, form, legacy, path)
        }
        _ => Err(invalid(
            layout,
            form,
            json,
            path,
            match (layout, form) {
                (Layout::Subarray(_), Form::Leaves) => "a JSON array of the items",
                (Layout::Subarray(_), _) => "an object with a member \"0\", \"1\", … per item",
                (_, Form::Leaves) => "an object with a member for every field",
                _ => {
                    "an object with a member for every field (or, legacy, a base64 string of the packed record)"
                }
            },
        )),
    }
}

/// A struct from an object with a member for every field and no others. Linear time.
fn read_members(
    layout: &Layout,
    structure: &StructLayout,
    members: &Map<String, Json>,
    json: &Json,
    form: Form,
    legacy: Endian,
    path: &FieldPath,
) -> Result<Value, Error> {
    let unknown_member = || {
        let known: HashSet<&str> = structure.fields().iter().map(|f| f.name()).collect();
        members
            .keys()
            .find(|name| !known.contains(name.as_str()))
            .map(|unknown| {
                invalid(
                    layout,
                    form,
                    json,
                    &path.field(unknown),
                    "members named after the struct's fields only; this one names no field",
                )
            })
    };
    let mut fields = Vec::with_capacity(structure.fields().len());
    for field in structure.fields() {
        let field_path = path.field(field.name());
        let Some(member) = members.get(field.name()) else {
            // A misspelt member is more likely than a forgotten one: name it first.
            return Err(unknown_member().unwrap_or_else(|| {
                invalid(
                    layout,
                    form,
                    json,
                    &field_path,
                    "a member for every field; this field has none",
                )
            }));
        };
        let value = read(field.layout(), member, form, legacy, &field_path)?;
        fields.push((field.shared_name().clone(), value));
    }
    if members.len() != fields.len()
        && let Some(error) = unknown_member()
    {
        return Err(error);
    }
    Ok(Value::Record(crate::Record::from_fields(fields)))
}

/// A subarray from its struct form: an object keyed `"0"`, `"1"`, ….
fn read_items_object(
    layout: &Layout,
    array: &SubarrayLayout,
    members: &Map<String, Json>,
    json: &Json,
    form: Form,
    legacy: Endian,
    path: &FieldPath,
) -> Result<Value, Error> {
    let outer = array.shape()[0];
    if members.len() != outer {
        return Err(invalid(
            layout,
            form,
            json,
            path,
            format!(
                "an object with the {outer} members \"0\" to \"{}\"",
                outer - 1
            ),
        ));
    }
    let mut items = Vec::with_capacity(outer);
    for index in 0..outer {
        let name = struct_form::item_name(index);
        let member = members.get(&name).ok_or_else(|| {
            invalid(
                layout,
                form,
                json,
                &path.field(&name),
                "a member for every item; this item has none",
            )
        })?;
        items.push(member);
    }
    read_items(array, items.into_iter(), form, legacy, path)
}

/// A subarray from a JSON list of its outermost items.
fn read_items_list(
    layout: &Layout,
    array: &SubarrayLayout,
    items: &[Json],
    json: &Json,
    form: Form,
    legacy: Endian,
    path: &FieldPath,
) -> Result<Value, Error> {
    let outer = array.shape()[0];
    if items.len() != outer {
        return Err(invalid(
            layout,
            form,
            json,
            path,
            format!("a JSON array of {outer} items"),
        ));
    }
    read_items(array, items.iter(), form, legacy, path)
}

/// Reads the outermost items of a subarray and joins them into one [`SubarrayValue`].
fn read_items<'j>(
    array: &SubarrayLayout,
    items: impl Iterator<Item = &'j Json>,
    form: Form,
    legacy: Endian,
    path: &FieldPath,
) -> Result<Value, Error> {
    let item_layout = array.item();
    let mut flat = Vec::with_capacity(array.shape()[0]);
    for (index, item) in items.enumerate() {
        let value = read(&item_layout, item, form, legacy, &path.index(index))?;
        match (&item_layout, value) {
            (Layout::Subarray(_), Value::Subarray(inner)) => {
                flat.extend(inner.iter().map(Cow::into_owned));
            }
            (_, value) => flat.push(value),
        }
    }
    SubarrayValue::new(array.shape().to_vec(), flat).map(Value::Subarray)
}

/// A record given as its bytes: a base64 string or an array of byte values.
fn read_record_bytes(
    layout: &Layout,
    json: &Json,
    form: Form,
    legacy: Endian,
    path: &FieldPath,
) -> Result<Value, Error> {
    let size = layout.size();
    let bytes = scalar::bytes(json)
        .filter(|bytes| bytes.len() == size)
        .ok_or_else(|| {
            invalid(
                layout,
                form,
                json,
                path,
                format!(
                    "a base64 string of exactly {size} bytes (or an array of {size} integers in 0..=255)"
                ),
            )
        })?;
    record::decode(layout, &bytes, legacy).map_err(|error| {
        let error = error.at(0, size);
        match error {
            Error::InvalidElement {
                path: inner,
                offset,
                fault,
                ..
            } => invalid(
                layout,
                form,
                json,
                &path.join(&inner),
                format!("the bytes of a valid record (byte offset {offset}: {fault})"),
            ),
            other => other,
        }
    })
}

/// Writes `value` of `layout` as JSON in `form`.
pub(super) fn write(layout: &Layout, value: &Value, form: Form) -> Result<Json, Error> {
    match (layout, form) {
        (Layout::Struct(_) | Layout::Subarray(_), Form::V2Fill) => {
            let mut bytes = vec![0; layout.size()];
            record::encode(layout, value, &mut bytes, Endian::Little)?;
            Ok(Json::from(BASE64.encode(bytes)))
        }
        _ => write_tree(layout, value, form),
    }
}

fn write_tree(layout: &Layout, value: &Value, form: Form) -> Result<Json, Error> {
    match layout {
        Layout::Scalar(leaf) => {
            scalar::to_json(leaf.scalar(), value, form.scalars(), &FieldPath::root())
        }
        Layout::Struct(structure) => {
            let members = record::struct_members(structure, value)?;
            let mut object = Map::with_capacity(members.len());
            for (field, member) in structure.fields().iter().zip(members) {
                let json = write_tree(field.layout(), &member, form)
                    .map_err(|error| error.within(PathSegment::Field(field.name().to_owned())))?;
                object.insert(field.name().to_owned(), json);
            }
            Ok(Json::Object(object))
        }
        Layout::Subarray(array) => {
            let item_layout = array.item();
            let items = outer_items(array, value)?;
            let mut written = Vec::with_capacity(items.len());
            for (index, item) in items.iter().enumerate() {
                written.push(
                    write_tree(&item_layout, item, form)
                        .map_err(|error| error.within(PathSegment::Index(index)))?,
                );
            }
            Ok(match form {
                Form::Leaves | Form::V2Fill => Json::Array(written),
                Form::V3Fill => Json::Object(
                    written
                        .into_iter()
                        .enumerate()
                        .map(|(index, json)| (struct_form::item_name(index), json))
                        .collect(),
                ),
            })
        }
    }
}
