//! Zarr v2 `dtype` JSON: a NumPy typestr, or a `descr` list of `[name, type]` and
//! `[name, type, shape]` entries, nested, with `["", "|V<n>"]` padding entries.

use serde_json::Value as Json;

use super::{ArrayLayout, Layout, LayoutField, ScalarLayout, StructLayout};
use crate::error::show;
use crate::{Error, FieldPath, ScalarType};

impl Layout {
    /// Parses a Zarr v2 `dtype`: a typestr such as `"<f8"`, or a structured `descr` list.
    ///
    /// Reads everything zarr-python and NumPy write: per-field byte order (`<`, `>`, `|`, mixed
    /// in one record), `[name, typestr, shape]` subarray fields, nested lists, `[title, name]`
    /// field names, and the unnamed `["", "|V3"]` entries NumPy emits for padding, which
    /// become gaps at the right offsets rather than fields.
    ///
    /// ```
    /// use zarrdt_core::Layout;
    /// use serde_json::json;
    ///
    /// // np.dtype([('a', 'u1'), ('b', '<i4')], align=True), as zarr-python 2.18 writes it.
    /// let layout = Layout::from_v2_json(&json!([["a", "|u1"], ["", "|V3"], ["b", "<i4"]]))?;
    /// assert_eq!(layout.size(), 8);
    /// let Layout::Struct(record) = &layout else { unreachable!() };
    /// assert_eq!(record.fields()[1].name(), "b");
    /// assert_eq!(record.fields()[1].offset(), 4);
    /// # Ok::<(), zarrdt_core::Error>(())
    /// ```
    pub fn from_v2_json(json: &Json) -> Result<Self, Error> {
        parse(json, &FieldPath::root())
    }

    /// The Zarr v2 `dtype` of this layout: a typestr for scalars, a packed `descr` list of named
    /// fields for structs (subarray fields as `[name, typestr, shape]`).
    ///
    /// Padded layouts are an error rather than a descr with unnamed entries (zarr-python 3
    /// would read those as fields); a bare subarray outside a struct has no v2 form either.
    pub fn to_v2_json(&self) -> Result<Json, Error> {
        match self {
            Layout::Array(_) => Err(Error::Unrepresentable {
                path: FieldPath::root(),
                format: "a Zarr v2 dtype",
                reason: "a subarray is only allowed as a struct field".into(),
            }),
            other => write(other, &FieldPath::root()),
        }
    }
}

fn invalid(path: &FieldPath, json: &Json, reason: impl Into<String>) -> Error {
    Error::InvalidDtype {
        path: path.clone(),
        json: show(json),
        reason: reason.into(),
    }
}

fn parse(json: &Json, path: &FieldPath) -> Result<Layout, Error> {
    match json {
        Json::String(typestr) => {
            let (scalar, order) =
                ScalarType::from_typestr(typestr).map_err(|error| match error {
                    Error::InvalidDtype { reason, .. } => invalid(path, json, reason),
                    other => other,
                })?;
            Ok(Layout::Scalar(ScalarLayout::new(scalar, order)?))
        }
        Json::Array(entries) => parse_struct(entries, json, path).map(Layout::Struct),
        _ => Err(invalid(
            path,
            json,
            "a v2 dtype is a typestr or a list of [name, dtype] or [name, dtype, shape] entries",
        )),
    }
}

fn parse_struct(entries: &[Json], json: &Json, path: &FieldPath) -> Result<StructLayout, Error> {
    if entries.is_empty() {
        return Err(invalid(
            path,
            json,
            "a structured dtype needs at least one field",
        ));
    }
    let mut offset = 0usize;
    let mut fields = Vec::with_capacity(entries.len());
    for (index, entry) in entries.iter().enumerate() {
        let entry_path = path.index(index);
        let items = match entry {
            Json::Array(items) if (2..=3).contains(&items.len()) => items,
            _ => {
                return Err(invalid(
                    &entry_path,
                    entry,
                    "a descr entry is [name, dtype] or [name, dtype, shape]",
                ));
            }
        };
        let (name, titled) = field_name(&items[0]).ok_or_else(|| {
            invalid(
                &entry_path,
                entry,
                "a field name is a string or a [title, name] pair of strings",
            )
        })?;
        if titled && name.is_empty() {
            return Err(invalid(
                &entry_path,
                entry,
                "a titled field needs a non-empty name",
            ));
        }
        if name.is_empty() {
            // NumPy's padding entry: a gap, not a field.
            let gap = padding_size(items).ok_or_else(|| {
                invalid(
                    &entry_path,
                    entry,
                    "an unnamed entry must be padding of the form [\"\", \"|V<n>\"]",
                )
            })?;
            offset = offset.saturating_add(gap);
            continue;
        }
        let field_path = path.field(name);
        let mut layout = parse(&items[1], &field_path)?;
        if let Some(shape) = items.get(2) {
            let shape = parse_shape(shape).ok_or_else(|| {
                invalid(
                    &field_path,
                    entry,
                    "a subarray shape is a list of positive integers",
                )
            })?;
            if !shape.is_empty() {
                layout = Layout::Array(
                    ArrayLayout::new(layout, shape)
                        .map_err(|error| relocate(error, &field_path, entry))?,
                );
            }
        }
        let size = layout.size();
        fields.push(LayoutField::new(name, offset, layout));
        offset = offset.saturating_add(size);
    }
    StructLayout::new(fields, offset).map_err(|error| match error {
        Error::InvalidStruct {
            path: inner,
            reason,
        } => invalid(&path.join(&inner), json, reason),
        other => other,
    })
}

fn relocate(error: Error, path: &FieldPath, entry: &Json) -> Error {
    match error {
        Error::InvalidStruct { reason, .. } => invalid(path, entry, reason),
        other => other,
    }
}

/// The field name of a descr entry, and whether it came with a title (`[title, name]`).
fn field_name(json: &Json) -> Option<(&str, bool)> {
    match json {
        Json::String(name) => Some((name, false)),
        Json::Array(pair) => match pair.as_slice() {
            [Json::String(_title), Json::String(name)] => Some((name, true)),
            _ => None,
        },
        _ => None,
    }
}

fn padding_size(items: &[Json]) -> Option<usize> {
    if items.len() != 2 {
        return None;
    }
    match ScalarType::from_typestr(items[1].as_str()?).ok()? {
        (ScalarType::Raw { size }, _) => Some(size.get()),
        _ => None,
    }
}

fn parse_shape(json: &Json) -> Option<Vec<usize>> {
    match json {
        Json::Array(extents) => extents
            .iter()
            .map(|extent| {
                extent
                    .as_u64()
                    .and_then(|n| usize::try_from(n).ok())
                    .filter(|&n| n > 0)
            })
            .collect(),
        // NumPy also accepts a bare integer for a one-dimensional shape.
        Json::Number(_) => json
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n > 0)
            .map(|n| vec![n]),
        _ => None,
    }
}

fn write(layout: &Layout, path: &FieldPath) -> Result<Json, Error> {
    match layout {
        Layout::Scalar(scalar) => {
            let endian = scalar.endian().unwrap_or(crate::Endian::Little);
            Ok(Json::from(scalar.scalar().typestr(endian)?))
        }
        Layout::Array(_) => Err(Error::Unrepresentable {
            path: path.clone(),
            format: "a Zarr v2 dtype",
            reason: "nested subarrays are merged into one field shape".into(),
        }),
        Layout::Struct(structure) => {
            if let Some((field_path, why)) = first_gap(structure, path) {
                return Err(Error::Unrepresentable {
                    path: field_path,
                    format: "a packed Zarr v2 dtype",
                    reason: why,
                });
            }
            let mut entries = Vec::with_capacity(structure.fields().len());
            for field in structure.fields() {
                let field_path = path.field(field.name());
                let entry = match field.layout() {
                    Layout::Array(array) => Json::Array(vec![
                        Json::from(field.name()),
                        write(array.element(), &field_path)?,
                        Json::from(array.shape().to_vec()),
                    ]),
                    other => {
                        Json::Array(vec![Json::from(field.name()), write(other, &field_path)?])
                    }
                };
                entries.push(entry);
            }
            Ok(Json::Array(entries))
        }
    }
}

fn first_gap(structure: &StructLayout, path: &FieldPath) -> Option<(FieldPath, String)> {
    let mut end = 0;
    for field in structure.fields() {
        if field.offset() != end {
            return Some((
                path.field(field.name()),
                format!(
                    "{} bytes of padding before this field; repack the record first",
                    field.offset() - end
                ),
            ));
        }
        end = field.offset() + field.layout().size();
    }
    (end != structure.size()).then(|| {
        (
            path.clone(),
            format!(
                "{} bytes of padding at the end; repack the record first",
                structure.size() - end
            ),
        )
    })
}
