//! One cell per leaf: the columns of `dump --format csv` and `--format table`, and the text of
//! each leaf value in them.

use serde_json::Value as Json;
use zarrdt::layout::{FieldPath, Layout};
use zarrdt::types::ScalarType;

/// The column names of `layout`'s leaves, in offset order: field paths as `FieldPath` shows
/// them (`point.x`, `["foo.mask"]`), with one column per subarray item (`pos[0]`, `z[1][0]`);
/// `value` for a scalar element.
pub(crate) fn column_names(layout: &Layout) -> Vec<String> {
    let mut names = Vec::new();
    collect_names(layout, &FieldPath::root(), &mut names);
    names
}

fn collect_names(layout: &Layout, path: &FieldPath, names: &mut Vec<String>) {
    match layout {
        Layout::Struct(structure) => {
            for field in structure.fields() {
                collect_names(field.layout(), &path.field(field.name()), names);
            }
        }
        Layout::Subarray(array) => {
            let element = array.element();
            for_each_index(array.shape(), &mut |index| {
                let item = index.iter().fold(path.clone(), |path, &i| path.index(i));
                collect_names(element, &item, names);
            });
        }
        _ if path.is_root() => names.push("value".into()),
        _ => names.push(path.to_string()),
    }
}

/// Calls `visit` with every index of `shape`, in C order.
fn for_each_index(shape: &[usize], visit: &mut impl FnMut(&[usize])) {
    fn go(shape: &[usize], index: &mut Vec<usize>, visit: &mut impl FnMut(&[usize])) {
        match shape.split_first() {
            None => visit(index),
            Some((&extent, rest)) => {
                for i in 0..extent {
                    index.push(i);
                    go(rest, index, visit);
                    index.pop();
                }
            }
        }
    }
    go(shape, &mut Vec::with_capacity(shape.len()), visit);
}

/// The cells of one element, `json` being its JSON ([`Layout::value_to_json`]), in the order
/// of [`column_names`].
pub(crate) fn cells(layout: &Layout, json: &Json, out: &mut Vec<String>) {
    match layout {
        Layout::Struct(structure) => {
            for field in structure.fields() {
                cells(
                    field.layout(),
                    json.get(field.name()).unwrap_or(&Json::Null),
                    out,
                );
            }
        }
        Layout::Subarray(array) => nested(array.shape(), array.element(), json, out),
        Layout::Scalar(scalar) => out.push(scalar_text(scalar.scalar(), json)),
        _ => out.push(json.to_string()),
    }
}

/// The items of a subarray, written as one nested JSON list per dimension.
fn nested(shape: &[usize], element: &Layout, json: &Json, out: &mut Vec<String>) {
    match shape.split_first() {
        None => cells(element, json, out),
        Some((&extent, rest)) => {
            for i in 0..extent {
                let item = json.get(i).unwrap_or(&Json::Null);
                nested(rest, element, item, out);
            }
        }
    }
}

/// A float leaf's cell: the number, `NaN` for every NaN, `inf` and `-inf`.
fn float_text(json: &Json) -> String {
    match json {
        Json::String(text) if text == "Infinity" => "inf".into(),
        Json::String(text) if text == "-Infinity" => "-inf".into(),
        // "NaN", or the hex bits of a NaN with a payload.
        Json::String(_) => "NaN".into(),
        other => other.to_string(),
    }
}

/// The text of one leaf value in a cell: numbers as in JSON, `true`/`false`, floats as
/// [`float_text`] says, complex numbers as Python writes them (`1.5-2j`, `nan+infj`), strings
/// as they are, bytes in base64, times as their int64 count.
pub(crate) fn scalar_text(scalar: ScalarType, json: &Json) -> String {
    match (scalar, json) {
        (ScalarType::Complex64 | ScalarType::Complex128, Json::Array(parts))
            if parts.len() == 2 =>
        {
            let python = |part: &Json| match float_text(part).as_str() {
                "NaN" => "nan".to_owned(),
                other => other.to_owned(),
            };
            let (re, im) = (python(&parts[0]), python(&parts[1]));
            if im.starts_with('-') {
                format!("{re}{im}j")
            } else {
                format!("{re}+{im}j")
            }
        }
        (scalar, json) if scalar.is_float() => float_text(json),
        (_, Json::String(text)) => text.clone(),
        (_, other) => other.to_string(),
    }
}

/// A CSV field: quoted when it holds a comma, a quote, a line break or surrounding spaces.
pub(crate) fn csv_field(text: &str) -> std::borrow::Cow<'_, str> {
    let needs_quotes =
        text.contains([',', '"', '\n', '\r']) || text.starts_with(' ') || text.ends_with(' ');
    if needs_quotes {
        format!("\"{}\"", text.replace('"', "\"\"")).into()
    } else {
        text.into()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn columns_and_cells() {
        let layout = Layout::from_v2_json(&json!([
            ["id", "<u4"],
            ["z", "<f4", [2, 2]],
            ["c", "<c8"],
            ["s", "<U3"],
            ["foo.mask", "|b1"]
        ]))
        .unwrap();
        assert_eq!(
            column_names(&layout),
            [
                "id",
                "z[0][0]",
                "z[0][1]",
                "z[1][0]",
                "z[1][1]",
                "c",
                "s",
                "[\"foo.mask\"]"
            ]
        );
        let value = json!({"id": 7, "z": [[1.5, "NaN"], ["Infinity", "0x7fc00001"]],
            "c": [-0.0, "-Infinity"], "s": "a,b", "foo.mask": true});
        let mut out = Vec::new();
        cells(&layout, &value, &mut out);
        assert_eq!(
            out,
            ["7", "1.5", "NaN", "inf", "NaN", "-0.0-infj", "a,b", "true"]
        );
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
        let scalar = Layout::from_v2_json(&json!("<i8")).unwrap();
        assert_eq!(column_names(&scalar), ["value"]);
    }
}
