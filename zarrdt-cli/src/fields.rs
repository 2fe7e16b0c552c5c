//! `--fields`: the record with only some of its fields, at their original offsets, so that the
//! same bytes decode into just those fields; and the Zarr v2 `dtype` of a record as NumPy
//! writes it, for the data type the tool shows of records with no v3 form.

use std::collections::BTreeSet;

use serde_json::{Value as Json, json};
use zarrdt::layout::{FieldPath, Layout, LayoutField, PathSegment, StructLayout, SubarrayLayout};

use crate::walk::{At, Visit, walk};

/// Every field (at any depth; through subarrays of records too) with its path, found by the
/// walk.
struct FieldPaths(Vec<FieldPath>);

impl Visit for FieldPaths {
    fn field(&mut self, at: &At<'_>, _field: &LayoutField) {
        self.0.push(at.path.clone());
    }
}

/// The names on the way to a field.
fn names(path: &FieldPath) -> Vec<String> {
    path.segments()
        .iter()
        .filter_map(|segment| match segment {
            PathSegment::Field(name) => Some(name.clone()),
            _ => None,
        })
        .collect()
}

/// The paths of one `--fields` argument (`a,b.c`, `["x,y"],z`): split at the commas outside
/// quoted names and brackets.
fn split_paths(argument: &str) -> Vec<&str> {
    let mut paths = Vec::new();
    let (mut start, mut depth, mut quoted, mut escaped) = (0, 0usize, false, false);
    for (at, character) in argument.char_indices() {
        match character {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '[' if !quoted => depth += 1,
            ']' if !quoted => depth = depth.saturating_sub(1),
            ',' if !quoted && depth == 0 => {
                paths.push(&argument[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    paths.push(&argument[start..]);
    paths
}

/// The names of a path written with `["name"]` segments, which may quote any name (`["a"]`,
/// `a["b c"]`, `["a"]["b"]`, `["x"].y`), not only those `inspect` shows quoted; `None` if it
/// has no such segment or is not of that form.
fn bracketed_names(path: &str) -> Option<Vec<String>> {
    if !path.contains("[\"") {
        return None;
    }
    let mut names = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(inner) = rest.strip_prefix('[') {
            let mut strings = serde_json::Deserializer::from_str(inner).into_iter::<String>();
            let name = strings.next()?.ok()?;
            rest = inner[strings.byte_offset()..]
                .trim_start()
                .strip_prefix(']')?;
            names.push(name);
        } else {
            let end = rest.find(['.', '[']).unwrap_or(rest.len());
            if end == 0 {
                return None;
            }
            names.push(rest[..end].to_owned());
            rest = &rest[end..];
        }
        if let Some(after) = rest.strip_prefix('.') {
            if after.is_empty() {
                return None;
            }
            rest = after;
        }
    }
    Some(names)
}

/// The paths named by `wanted` (arguments of comma-separated paths, each either a path as
/// displayed, names in `["name"]` segments, or the names joined by `.`; the displayed form
/// first, so that `a.b`, the field `b` of the struct `a`, is not taken for a field named
/// `a.b`, shown as `["a.b"]`).
fn resolve(layout: &Layout, wanted: &[String]) -> Result<BTreeSet<Vec<String>>, String> {
    let mut all = FieldPaths(Vec::new());
    walk(layout, &mut all);
    let all: Vec<(String, Vec<String>)> = all
        .0
        .iter()
        .map(|path| (path.to_string(), names(path)))
        .collect();
    if all.is_empty() {
        return Err("--fields needs a struct data type; this array's elements are scalars".into());
    }
    let mut chosen = BTreeSet::new();
    for name in wanted.iter().flat_map(|argument| split_paths(argument)) {
        let name = name.trim();
        let as_shown: Vec<&(String, Vec<String>)> =
            all.iter().filter(|(shown, _)| shown == name).collect();
        let found: Vec<&(String, Vec<String>)> = if as_shown.len() == 1 {
            as_shown
        } else if let Some(bracketed) = bracketed_names(name) {
            all.iter()
                .filter(|(_, names)| *names == bracketed)
                .collect()
        } else {
            all.iter()
                .filter(|(shown, names)| shown == name || names.join(".") == name)
                .collect()
        };
        match found.as_slice() {
            [] => {
                let top: Vec<&str> = all
                    .iter()
                    .filter(|(_, names)| names.len() == 1)
                    .map(|(shown, _)| shown.as_str())
                    .collect();
                return Err(format!(
                    "--fields: the record has no field {name:?} (its fields: {})",
                    top.join(", ")
                ));
            }
            [(_, names)] => {
                chosen.insert(names.clone());
            }
            _ => {
                return Err(format!(
                    "--fields: {name:?} is ambiguous; write it as {}",
                    found
                        .iter()
                        .map(|(shown, _)| shown.as_str())
                        .collect::<Vec<_>>()
                        .join(" or ")
                ));
            }
        }
    }
    Ok(chosen)
}

/// `layout` with only the fields `wanted` names (and the structs holding them), each at its
/// original offset, in a record of the original size.
pub(crate) fn prune(layout: &Layout, wanted: &[String]) -> Result<Layout, String> {
    let chosen = resolve(layout, wanted)?;
    keep(layout, &[], &chosen)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| "--fields selects nothing".to_owned())
}

fn keep(
    layout: &Layout,
    path: &[String],
    chosen: &BTreeSet<Vec<String>>,
) -> Result<Option<Layout>, zarrdt::Error> {
    if !path.is_empty() && chosen.contains(path) {
        return Ok(Some(layout.clone()));
    }
    match layout {
        Layout::Struct(structure) => {
            let mut fields = Vec::new();
            for field in structure.fields() {
                let mut inner = path.to_vec();
                inner.push(field.name().to_owned());
                if let Some(kept) = keep(field.layout(), &inner, chosen)? {
                    fields.push(LayoutField::new(field.name(), field.offset(), kept));
                }
            }
            if fields.is_empty() {
                return Ok(None);
            }
            Ok(Some(Layout::Struct(StructLayout::new(
                fields,
                structure.size(),
            )?)))
        }
        Layout::Subarray(array) => match keep(array.element(), path, chosen)? {
            Some(element) => Ok(Some(Layout::Subarray(SubarrayLayout::new(
                element,
                array.shape().to_vec(),
            )?))),
            None => Ok(None),
        },
        _ => Ok(None),
    }
}

/// The Zarr v2 `dtype` of `layout` as NumPy writes it (`dtype.descr`): a typestr, or a list
/// of `[name, dtype]` and `[name, dtype, shape]` entries with each gap of padding an unnamed
/// `["", "|V<n>"]` entry (as zarr-python 2 writes aligned and offset records).
pub(crate) fn numpy_descr(layout: &Layout) -> Result<Json, zarrdt::Error> {
    match layout {
        Layout::Struct(structure) => {
            let gap = |from: usize, to: usize| json!(["", format!("|V{}", to - from)]);
            let mut entries = Vec::with_capacity(structure.fields().len());
            let mut end = 0;
            for field in structure.fields() {
                if field.offset() > end {
                    entries.push(gap(end, field.offset()));
                }
                entries.push(match field.layout() {
                    Layout::Subarray(array) => {
                        json!([field.name(), numpy_descr(array.element())?, array.shape()])
                    }
                    other => json!([field.name(), numpy_descr(other)?]),
                });
                end = field.offset() + field.layout().size();
            }
            if structure.size() > end {
                entries.push(gap(end, structure.size()));
            }
            Ok(Json::Array(entries))
        }
        // A subarray outside a struct has no dtype of its own: the core says so.
        _ => layout.to_v2_json(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn prunes_keeping_offsets() {
        let layout = Layout::from_v2_json(&json!([
            ["a", "<i4"],
            ["b", [["c", "<f8"], ["d", "|u1"]]],
            ["foo.mask", "|b1"]
        ]))
        .unwrap();
        let pruned = prune(&layout, &["b.c".into(), "foo.mask".into()]).unwrap();
        assert_eq!(pruned.size(), layout.size());
        let Layout::Struct(structure) = &pruned else {
            panic!("{pruned:?}")
        };
        let kept: Vec<(&str, usize)> = structure
            .fields()
            .iter()
            .map(|f| (f.name(), f.offset()))
            .collect();
        assert_eq!(kept, [("b", 4), ("foo.mask", 13)]);
        let packed = pruned.packed().unwrap();
        assert_eq!(
            packed.to_v2_json().unwrap(),
            json!([["b", [["c", "<f8"]]], ["foo.mask", "|b1"]])
        );
        let err = prune(&layout, &["x".into()]).unwrap_err();
        assert!(err.contains("no field \"x\""), "{err}");
        assert!(err.contains("[\"foo.mask\"]"), "{err}");
        assert_eq!(
            prune(&layout, &["[\"foo.mask\"]".into()]).unwrap().size(),
            14
        );
    }

    /// The names of the top-level fields `prune` kept of `layout` for `wanted`.
    fn kept(layout: &Layout, wanted: &[&str]) -> Result<Vec<String>, String> {
        let wanted: Vec<String> = wanted.iter().map(|&w| w.to_owned()).collect();
        let Layout::Struct(structure) = prune(layout, &wanted)? else {
            panic!("a struct")
        };
        Ok(structure
            .fields()
            .iter()
            .map(|f| format!("{}@{}", f.name(), f.offset()))
            .collect())
    }

    /// Names with commas are chosen quoted, as `inspect` shows them, in one argument with
    /// others; `a.b`, as shown, is the nested field, `["a.b"]` the top-level one; a name
    /// beginning with `-` is a name (clap takes it as the value).
    #[test]
    fn quoted_names_with_commas_and_dots_are_chosen() {
        assert_eq!(split_paths("a,b.c"), ["a", "b.c"]);
        assert_eq!(split_paths(r#"["x,y"],z"#), [r#"["x,y"]"#, "z"]);
        assert_eq!(
            split_paths(r#"["q\",]"],["r"]"#),
            [r#"["q\",]"]"#, r#"["r"]"#]
        );
        let layout = Layout::from_v2_json(&json!([
            ["comma,x", "<i4"],
            ["a.b", "|u1"],
            ["a", [["b", "<i2"], ["c", "|u1"]]],
            ["-dash", "|u1"],
            ["q\",]", "|u1"]
        ]))
        .unwrap();
        assert_eq!(
            kept(&layout, &[r#"["comma,x"],-dash"#]).unwrap(),
            ["comma,x@0", "-dash@8"]
        );
        assert_eq!(kept(&layout, &["a.b"]).unwrap(), ["a@5"]);
        assert_eq!(kept(&layout, &[r#"["a.b"]"#]).unwrap(), ["a.b@4"]);
        assert_eq!(kept(&layout, &[r#"["q\",]"]"#]).unwrap(), ["q\",]@9"]);
        let err = kept(&layout, &["comma"]).unwrap_err();
        assert!(err.contains(r#"["comma,x"]"#), "{err}");
        // Any name may be quoted, at any depth, not only those shown quoted.
        assert_eq!(kept(&layout, &[r#"["-dash"]"#]).unwrap(), ["-dash@8"]);
        for whole_a in [r#"["a"]"#, r#"["a"]["b"],a["c"]"#] {
            assert_eq!(kept(&layout, &[whole_a]).unwrap(), ["a@5"], "{whole_a}");
        }
        assert_eq!(kept(&layout, &[r#"["a"].b"#]).unwrap(), ["a@5"]);
        assert_eq!(bracketed_names(r#"["a"]["b"]"#).unwrap(), ["a", "b"]);
        assert_eq!(bracketed_names(r#"x["y z"].w"#).unwrap(), ["x", "y z", "w"]);
        for not_a_path in ["a.b", r#"["a""#, r#"["a"]."#, r#"[0]["a"]"#] {
            assert_eq!(bracketed_names(not_a_path), None, "{not_a_path}");
        }
        let err = kept(&layout, &[r#"["a"]["z"]"#]).unwrap_err();
        assert!(err.contains("no field"), "{err}");
    }

    #[test]
    fn numpy_descr_as_numpy_writes_it() {
        for dtype in [
            json!([["a", "|u1"], ["", "|V3"], ["b", "<i4"]]),
            json!([["a", "<i4"], ["", "|V4"], ["b", "<i4"], ["", "|V4"]]),
            json!([
                ["p", [["x", ">f8"], ["y", "|u1"], ["", "|V7"]], [2, 3]],
                ["q", "<U2"]
            ]),
            json!("<c16"),
        ] {
            let layout = Layout::from_v2_json(&dtype).unwrap();
            assert_eq!(numpy_descr(&layout).unwrap(), dtype);
        }
    }
}
