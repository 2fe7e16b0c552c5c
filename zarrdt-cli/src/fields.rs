//! `--fields`: the record with only some of its fields, at their original offsets, so that the
//! same bytes decode into just those fields.

use std::collections::BTreeSet;

use zarrdt::layout::{FieldPath, Layout, LayoutField, StructLayout, SubarrayLayout};

/// Every field (at any depth; through subarrays of records too) with its path: the names on
/// the way.
fn field_paths(layout: &Layout, prefix: &[String], out: &mut Vec<Vec<String>>) {
    match layout {
        Layout::Struct(structure) => {
            for field in structure.fields() {
                let mut path = prefix.to_vec();
                path.push(field.name().to_owned());
                out.push(path.clone());
                field_paths(field.layout(), &path, out);
            }
        }
        Layout::Subarray(array) => field_paths(array.element(), prefix, out),
        _ => {}
    }
}

/// How a path is written: `FieldPath`'s display (`a.b`, `["foo.mask"].b`).
pub(crate) fn display_path(names: &[String]) -> String {
    names
        .iter()
        .fold(FieldPath::root(), |path, name| path.field(name))
        .to_string()
}

/// The paths named by `wanted` (each either a path as displayed, or the names joined by `.`).
fn resolve(layout: &Layout, wanted: &[String]) -> Result<BTreeSet<Vec<String>>, String> {
    let mut all = Vec::new();
    field_paths(layout, &[], &mut all);
    if all.is_empty() {
        return Err("--fields needs a struct data type; this array's elements are scalars".into());
    }
    let mut chosen = BTreeSet::new();
    for name in wanted {
        let name = name.trim();
        let found: Vec<&Vec<String>> = all
            .iter()
            .filter(|path| display_path(path) == name || path.join(".") == name)
            .collect();
        match found.as_slice() {
            [] => {
                let top: Vec<String> = all
                    .iter()
                    .filter(|path| path.len() == 1)
                    .map(|path| display_path(path))
                    .collect();
                return Err(format!(
                    "--fields: the record has no field {name:?} (its fields: {})",
                    top.join(", ")
                ));
            }
            [path] => {
                chosen.insert((*path).clone());
            }
            _ => {
                return Err(format!(
                    "--fields: {name:?} is ambiguous; write it as {}",
                    found
                        .iter()
                        .map(|path| display_path(path))
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

/// `layout` without padding: every record's fields packed one after another.
pub(crate) fn packed(layout: &Layout) -> Result<Layout, zarrdt::Error> {
    Ok(match layout {
        Layout::Struct(structure) => {
            let mut fields = Vec::with_capacity(structure.fields().len());
            for field in structure.fields() {
                fields.push((field.name().to_owned(), packed(field.layout())?));
            }
            Layout::Struct(StructLayout::packed(fields)?)
        }
        Layout::Subarray(array) => Layout::Subarray(SubarrayLayout::new(
            packed(array.element())?,
            array.shape().to_vec(),
        )?),
        other => other.clone(),
    })
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
        let packed = packed(&pruned).unwrap();
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
}
