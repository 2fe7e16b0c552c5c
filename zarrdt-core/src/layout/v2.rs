//! Zarr v2 `dtype` JSON: a NumPy typestr, or a `descr` list of `[name, type]` and
//! `[name, type, shape]` entries, nested, with `["", "|V<n>"]` padding entries.

use serde_json::Value as Json;

use super::{Layout, LayoutField, ScalarLayout, StructLayout, SubarrayLayout};
use crate::error::show;
use crate::{Endian, Error, FieldPath, MAX_NESTING_DEPTH, ScalarType};

impl Layout {
    /// Parses a Zarr v2 `dtype`: a typestr such as `"<f8"`, or a structured `descr` list.
    ///
    /// Reads everything zarr-python and NumPy write: per-field byte order (`<`, `>`, `|`, mixed
    /// in one record), `[name, typestr, shape]` subarray fields, nested lists, `[title, name]`
    /// field names, and the unnamed `["", "|V3"]` entries NumPy emits for padding, which
    /// become gaps at the right offsets rather than fields. A `|V<n>` field is `raw_bytes`,
    /// as zarr-python 3 reads it.
    ///
    /// Time and memory are linear in the size of the JSON: a subarray's shape is checked, not
    /// expanded.
    ///
    /// ```
    /// use zarrdt::layout::Layout;
    /// use serde_json::json;
    ///
    /// // np.dtype([('a', 'u1'), ('b', '<i4')], align=True), as zarr-python 2.18 writes it.
    /// let layout = Layout::from_v2_json(&json!([["a", "|u1"], ["", "|V3"], ["b", "<i4"]]))?;
    /// assert_eq!(layout.size(), 8);
    /// let Layout::Struct(record) = &layout else { unreachable!() };
    /// assert_eq!(record.fields()[1].name(), "b");
    /// assert_eq!(record.fields()[1].offset(), 4);
    /// # Ok::<(), zarrdt::Error>(())
    /// ```
    pub fn from_v2_json(json: &Json) -> Result<Self, Error> {
        parse(json, &FieldPath::root(), 0)
    }

    /// The Zarr v2 `dtype` of this layout: a typestr for scalars, a packed `descr` list of named
    /// fields for structs (subarray fields as `[name, typestr, shape]`).
    ///
    /// Padded layouts are an error rather than a descr with unnamed entries (zarr-python 3
    /// would read those as fields); a bare subarray outside a struct has no v2 form either.
    pub fn to_v2_json(&self) -> Result<Json, Error> {
        match self {
            Layout::Subarray(_) => Err(Error::Unrepresentable {
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

fn parse(json: &Json, path: &FieldPath, depth: usize) -> Result<Layout, Error> {
    match json {
        Json::String(typestr) => {
            let (scalar, order) =
                ScalarType::from_typestr(typestr).map_err(|error| match error {
                    Error::InvalidDtype { reason, .. } => invalid(path, json, reason),
                    other => other,
                })?;
            ScalarLayout::new(scalar, order)
                .map(Layout::Scalar)
                .map_err(|error| relocate(error, path, json))
        }
        Json::Array(_) if depth >= MAX_NESTING_DEPTH => Err(invalid(
            path,
            json,
            format!("nested deeper than {MAX_NESTING_DEPTH} levels"),
        )),
        Json::Array(entries) => parse_struct(entries, json, path, depth).map(Layout::Struct),
        _ => Err(invalid(
            path,
            json,
            "a v2 dtype is a typestr or a list of [name, dtype] or [name, dtype, shape] entries",
        )),
    }
}

fn parse_struct(
    entries: &[Json],
    json: &Json,
    path: &FieldPath,
    depth: usize,
) -> Result<StructLayout, Error> {
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
        let entry_path = || path.index(index);
        let items = match entry {
            Json::Array(items) if (2..=3).contains(&items.len()) => items,
            _ => {
                return Err(invalid(
                    &entry_path(),
                    entry,
                    "a descr entry is [name, dtype] or [name, dtype, shape]",
                ));
            }
        };
        let (name, titled) = field_name(&items[0]).ok_or_else(|| {
            invalid(
                &entry_path(),
                entry,
                "a field name is a string or a [title, name] pair of strings",
            )
        })?;
        if titled && name.is_empty() {
            return Err(invalid(
                &entry_path(),
                entry,
                "a titled field needs a non-empty name",
            ));
        }
        // NumPy's padding entry (`descr` writes the gaps of an aligned or offset dtype so): a
        // gap, not a field.
        if name.is_empty()
            && let Some(gap) = padding_size(items)
        {
            offset = offset.saturating_add(gap);
            continue;
        }
        // Any other unnamed field is named as NumPy names it: `f` and its index in the list.
        let numbered;
        let name = if name.is_empty() {
            numbered = format!("f{index}");
            numbered.as_str()
        } else {
            name
        };
        let field_path = path.field(name);
        let mut layout = parse(&items[1], &field_path, depth + 1)?;
        if let Some(shape) = items.get(2) {
            let shape = parse_shape(shape).ok_or_else(|| {
                invalid(
                    &field_path,
                    entry,
                    "a subarray shape is a list of positive integers",
                )
            })?;
            if !shape.is_empty() {
                layout = Layout::Subarray(
                    SubarrayLayout::new(layout, shape)
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
        Error::InvalidStruct { reason, .. } | Error::InvalidDtype { reason, .. } => {
            invalid(path, entry, reason)
        }
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
        (ScalarType::RawBytes { size }, _) => Some(size.get()),
        _ => None,
    }
}

/// A subarray shape: a list of positive integers (the list may be long; it is checked, and
/// the subarray's size is checked against the limit, before anything depends on it).
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
            let endian = scalar.endian().unwrap_or(Endian::Little);
            Ok(Json::from(scalar.scalar().typestr(endian)?))
        }
        Layout::Subarray(_) => Err(Error::Unrepresentable {
            path: path.clone(),
            format: "a Zarr v2 dtype",
            reason: "a subarray is only allowed as a struct field".into(),
        }),
        Layout::Struct(structure) => {
            if let Some((from, to, next)) = structure.first_gap() {
                let (at, place) = match next {
                    Some(field) => (path.field(field.name()), "before this field"),
                    None => (path.clone(), "at the end"),
                };
                return Err(Error::Unrepresentable {
                    path: at,
                    format: "a packed Zarr v2 dtype",
                    reason: format!(
                        "{} bytes of padding {place}; repack the record first",
                        to - from
                    ),
                });
            }
            let mut entries = Vec::with_capacity(structure.fields().len());
            for field in structure.fields() {
                let field_path = path.field(field.name());
                let entry = match field.layout() {
                    Layout::Subarray(array) => Json::Array(vec![
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
