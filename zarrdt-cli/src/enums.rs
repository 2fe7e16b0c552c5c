//! The names of enum values, from the array's `zarrdt:enums` attribute (written by zarrdt for
//! `#[derive(ZarrEnum)]` fields): which leaves hold enums, and the variant of each value.
//!
//! The attribute maps a field path (arrays skipped: an array of enums has one entry) to the
//! variants, name to integer. The paths of leaves and columns are found in it exactly, or
//! with the items of arrays left out: subarray indices (`flags[1]`), and the fields `"0"`,
//! `"1"`, … of the structs that Zarr v3 writes Rust arrays as (`flags.1`). The attribute is
//! input like any other: entries that are not objects of distinct integers are ignored, and so
//! are entries for a leaf that is no integer or whose type does not hold every value (no
//! `#[derive(ZarrEnum)]` enum could stand for it).

use std::collections::HashMap;

use serde_json::{Map, Value as Json};
use zarrdt::advanced::{ENUMS_ATTRIBUTE, enum_attribute_key};
use zarrdt::layout::{FieldPath, Layout, PathSegment};

/// Most ways of reading a path that are tried (one per subset of its array items).
const MAX_CANDIDATES: usize = 64;

/// The variants of one enum: value (as its decimal text) to name, and the list in the
/// attribute's order.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Variants {
    by_value: HashMap<String, String>,
    listed: Vec<(String, String)>,
}

impl Variants {
    /// The name of the variant whose value is written `value` (an integer as decimal text).
    pub(crate) fn name(&self, value: &str) -> Option<&str> {
        self.by_value.get(value).map(String::as_str)
    }

    /// `Ok = 0, Warn = 1`, in the attribute's order.
    pub(crate) fn describe(&self) -> String {
        self.listed
            .iter()
            .map(|(name, value)| format!("{name} = {value}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Whether `layout` is one integer whose type holds each variant's value, or items of one:
    /// a subarray, or a struct Zarr v3 writes a Rust array as. Any other struct is no enum.
    fn fit(&self, layout: &Layout) -> bool {
        match layout {
            Layout::Scalar(leaf) => leaf.scalar().integer_range().is_some_and(|(min, max)| {
                self.listed.iter().all(|(_, value)| {
                    value
                        .parse::<i128>()
                        .is_ok_and(|value| (min..=max).contains(&value))
                })
            }),
            Layout::Subarray(array) => self.fit(array.element()),
            Layout::Struct(structure) => {
                is_array_like(structure.fields().iter().map(|f| (f.name(), f.layout())))
                    && structure
                        .fields()
                        .first()
                        .is_some_and(|item| self.fit(item.layout()))
            }
            // A kind of layout added later holds no enum until this says it does.
            _ => false,
        }
    }

    /// `{"Ok": 0, "Warn": 1}`.
    pub(crate) fn json(&self) -> Json {
        Json::Object(
            self.listed
                .iter()
                .map(|(name, value)| {
                    let number = serde_json::from_str(value).unwrap_or(Json::Null);
                    (name.clone(), number)
                })
                .collect(),
        )
    }
}

/// The enums the attribute names, by attribute key.
#[derive(Debug, Default)]
pub(crate) struct EnumNames {
    by_key: HashMap<String, Variants>,
}

impl EnumNames {
    /// The enums of an array with `attributes` (none if it has no `zarrdt:enums`).
    pub(crate) fn from_attributes(attributes: &Map<String, Json>) -> Self {
        let Some(Json::Object(entries)) = attributes.get(ENUMS_ATTRIBUTE) else {
            return EnumNames::default();
        };
        let by_key = entries
            .iter()
            .filter_map(|(key, variants)| Some((key.clone(), variants_of(variants)?)))
            .collect();
        EnumNames { by_key }
    }

    /// Whether no enum is named.
    pub(crate) fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }

    /// The variants of the leaf at `path` of `layout` (a scalar leaf's path, or a column's,
    /// with indices, or a field whose items are such leaves), if the attribute names them and
    /// the leaf's integer type holds each of their values.
    pub(crate) fn of(&self, layout: &Layout, path: &FieldPath) -> Option<&Variants> {
        if self.is_empty() {
            return None;
        }
        // Every reading of `path`, exact first: each array item that is a field of an
        // array-like struct (Zarr v3) is kept, or left out; subarray indices are left out.
        let mut candidates = vec![FieldPath::root()];
        let mut current = Some(layout);
        let mut indices_left = 0;
        for segment in path.segments() {
            match segment {
                PathSegment::Index(_) => {
                    if indices_left == 0 {
                        // A subarray's items: one index per dimension, then its element.
                        (current, indices_left) = match current {
                            Some(Layout::Subarray(array)) => {
                                (Some(array.element()), array.shape().len())
                            }
                            _ => (None, 1),
                        };
                    }
                    indices_left -= 1;
                }
                PathSegment::Field(name) => {
                    indices_left = 0;
                    let (next, item) = match current {
                        Some(Layout::Struct(structure)) => (
                            structure.field(name).map(|field| field.layout()),
                            is_array_like(
                                structure.fields().iter().map(|f| (f.name(), f.layout())),
                            ),
                        ),
                        _ => (None, false),
                    };
                    let mut readings: Vec<FieldPath> =
                        candidates.iter().map(|path| path.field(name)).collect();
                    if item && readings.len() * 2 <= MAX_CANDIDATES {
                        readings.append(&mut candidates);
                    }
                    candidates = readings;
                    current = next;
                }
            }
        }
        let variants = candidates
            .iter()
            .find_map(|candidate| self.by_key.get(&enum_attribute_key(candidate)))?;
        current
            .is_some_and(|leaf| variants.fit(leaf))
            .then_some(variants)
    }
}

/// The variants of each column of `layout` (the leaves in field order, every subarray item
/// on its own, as `dump`'s CSV and table columns), `None` for columns that hold no named enum.
pub(crate) fn column_variants(enums: &EnumNames, layout: &Layout) -> Vec<Option<Variants>> {
    fn collect(
        enums: &EnumNames,
        root: &Layout,
        layout: &Layout,
        path: &FieldPath,
        out: &mut Vec<Option<Variants>>,
    ) {
        match layout {
            Layout::Struct(structure) => {
                for field in structure.fields() {
                    collect(enums, root, field.layout(), &path.field(field.name()), out);
                }
            }
            Layout::Subarray(array) => {
                // Every item has the variants of the first (the attribute has no indices).
                let first = array
                    .shape()
                    .iter()
                    .fold(path.clone(), |path, _| path.index(0));
                let mut item = Vec::new();
                collect(enums, root, array.element(), &first, &mut item);
                let items: usize = array.shape().iter().product();
                for _ in 0..items {
                    out.extend(item.iter().cloned());
                }
            }
            _ => out.push(enums.of(root, path).cloned()),
        }
    }
    let mut out = Vec::new();
    if !enums.is_empty() {
        collect(enums, layout, layout, &FieldPath::root(), &mut out);
    }
    out
}

/// Whether struct fields are those Zarr v3 writes a Rust array as: named `"0"`, `"1"`, … in
/// order, all of one layout.
fn is_array_like<'a>(mut fields: impl Iterator<Item = (&'a str, &'a Layout)>) -> bool {
    let Some((first_name, first)) = fields.next() else {
        return false;
    };
    first_name == "0"
        && fields
            .enumerate()
            .all(|(index, (name, layout))| name == (index + 1).to_string() && layout == first)
}

/// The variants in one entry of the attribute: an object of integers, no two the same.
fn variants_of(json: &Json) -> Option<Variants> {
    let Json::Object(entries) = json else {
        return None;
    };
    let mut variants = Variants::default();
    for (name, value) in entries {
        let value = match value {
            Json::Number(number) if number.is_i64() || number.is_u64() => number.to_string(),
            _ => return None,
        };
        if variants
            .by_value
            .insert(value.clone(), name.clone())
            .is_some()
        {
            return None;
        }
        variants.listed.push((name.clone(), value));
    }
    Some(variants)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use serde_json::json;

    use super::*;

    fn names(attribute: Json) -> EnumNames {
        let Json::Object(attributes) = json!({ ENUMS_ATTRIBUTE: attribute }) else {
            unreachable!()
        };
        EnumNames::from_attributes(&attributes)
    }

    #[test]
    fn paths_are_found_exactly_and_without_array_items() {
        let status = json!({"Ok": 0, "Fail": 7});
        let enums = names(json!({"status": status, "flags": status, "pair.0": status,
            "items.kind": status, "": status}));
        // Zarr v3: Rust arrays are structs of fields "0", "1", …; a tuple struct too.
        let v3 = Layout::from_v2_json(&json!([
            ["status", "|u1"],
            ["flags", [["0", "|u1"], ["1", "|u1"]]],
            ["pair", [["0", "|u1"], ["1", "<u2"]]],
            [
                "items",
                [["0", [["kind", "|u1"]]], ["1", [["kind", "|u1"]]]]
            ],
            ["other", [["0", "|u1"], ["x", "|u1"]]]
        ]))
        .unwrap();
        let path = |text: &[&str]| {
            text.iter()
                .fold(FieldPath::root(), |path, name| path.field(name))
        };
        let found = |layout: &Layout, p: &FieldPath| enums.of(layout, p).map(Variants::describe);
        let described = Some("Ok = 0, Fail = 7".to_owned());
        assert_eq!(found(&v3, &path(&["status"])), described);
        assert_eq!(found(&v3, &path(&["flags", "1"])), described);
        assert_eq!(found(&v3, &path(&["pair", "0"])), described);
        assert_eq!(found(&v3, &path(&["pair", "1"])), None);
        assert_eq!(found(&v3, &path(&["items", "1", "kind"])), described);
        assert_eq!(found(&v3, &path(&["other", "0"])), None);
        // Zarr v2: subarrays, columns with indices.
        let v2 =
            Layout::from_v2_json(&json!([["status", "|u1"], ["flags", "|u1", [2, 2]]])).unwrap();
        assert_eq!(found(&v2, &path(&["flags"]).index(1).index(0)), described);
        assert_eq!(found(&v2, &path(&["flags"])), described);
        // The element itself.
        let scalar = Layout::from_v2_json(&json!("|u1")).unwrap();
        assert_eq!(found(&scalar, &FieldPath::root()), described);
        let variants = enums.of(&scalar, &FieldPath::root()).unwrap();
        assert_eq!(variants.name("7"), Some("Fail"));
        assert_eq!(variants.name("3"), None);
        assert_eq!(variants.json(), json!({"Ok": 0, "Fail": 7}));
    }

    #[test]
    fn every_column_has_its_variants() {
        let status = json!({"Ok": 0, "Fail": 7});
        let enums = names(json!({"status": status, "flags": status, "pair.kind": status}));
        let layout = Layout::from_v2_json(&json!([
            ["status", "|u1"],
            ["value", "<f8"],
            ["flags", "|u1", [2, 2]],
            ["pair", [["0", [["kind", "|u1"]]], ["1", [["kind", "|u1"]]]]]
        ]))
        .unwrap();
        let columns = column_variants(&enums, &layout);
        assert_eq!(columns.len(), crate::cells::column_names(&layout).len());
        let described: Vec<Option<String>> = columns
            .iter()
            .map(|variants| variants.as_ref().map(Variants::describe))
            .collect();
        let named = Some("Ok = 0, Fail = 7".to_owned());
        let mut want = vec![named.clone(), None];
        want.extend(std::iter::repeat_n(named.clone(), 4));
        want.extend([named.clone(), named]);
        assert_eq!(described, want);
        assert!(column_variants(&EnumNames::default(), &layout).is_empty());
    }

    #[test]
    fn malformed_entries_are_ignored() {
        let enums = names(json!({"a": {"X": "1"}, "b": [1], "c": {"Y": 1.5}, "d": {"Z": -2}}));
        let layout = Layout::from_v2_json(&json!([["a", "|u1"], ["d", "|i1"]])).unwrap();
        assert!(enums.of(&layout, &FieldPath::root().field("a")).is_none());
        assert_eq!(
            enums
                .of(&layout, &FieldPath::root().field("d"))
                .unwrap()
                .describe(),
            "Z = -2"
        );
        assert!(names(json!("not an object")).is_empty());
    }

    /// Variants that no `#[derive(ZarrEnum)]` enum of the leaf's type could have are no enum:
    /// on a float, beyond the integer's range, two names of one value.
    #[test]
    fn variants_the_leaf_cannot_hold_are_ignored() {
        let enums = names(
            json!({"f": {"X": 0}, "u": {"Neg": -1, "Ok": 0}, "i": {"P": 0, "Q": 0},
            "big": {"Max": 255, "Over": 256}, "fine": {"Min": -128, "Max": 127},
            "items": {"A": 1}, "wide": {"A": 70000}}),
        );
        let layout = Layout::from_v2_json(&json!([
            ["f", "<f8"],
            ["u", "<u2"],
            ["i", "<i4"],
            ["big", "|u1"],
            ["fine", "|i1"],
            ["items", "|u1", [2, 3]],
            ["wide", "<u2", [4]]
        ]))
        .unwrap();
        let field = |name: &str| FieldPath::root().field(name);
        for name in ["f", "u", "i", "big", "wide"] {
            assert!(enums.of(&layout, &field(name)).is_none(), "{name}");
        }
        let fine = enums.of(&layout, &field("fine")).unwrap();
        assert_eq!(fine.describe(), "Min = -128, Max = 127");
        // A subarray of integers: the field, and each item.
        assert!(enums.of(&layout, &field("items")).is_some());
        assert!(
            enums
                .of(&layout, &field("items").index(1).index(2))
                .is_some()
        );
        assert!(enums.of(&layout, &field("wide").index(0)).is_none());
        // A struct of integers is no enum; a Rust array as Zarr v3 writes it (fields "0", "1")
        // is, as are its items.
        let enums = names(json!({"point": {"A": 1}, "flags": {"A": 1}}));
        let layout = Layout::from_v2_json(&json!([
            ["point", [["x", "<i4"], ["y", "<i4"]]],
            ["flags", [["0", "|u1"], ["1", "|u1"]]]
        ]))
        .unwrap();
        assert!(enums.of(&layout, &field("point")).is_none());
        assert!(enums.of(&layout, &field("point").field("x")).is_none());
        assert!(enums.of(&layout, &field("flags")).is_some());
        assert!(enums.of(&layout, &field("flags").field("1")).is_some());
    }
}
