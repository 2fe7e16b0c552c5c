//! The one walk over a record's layout that the views listing its parts share: the byte map's
//! boxes, the field paths `--fields` resolves, the columns of CSV and tables.
//!
//! [`walk`] goes through the layout in field order, with each part's field path and byte
//! offset; a [`Visit`] sees the parts it cares about and says how to go on below a subarray:
//! not at all, through its element once, or through each item (with its index in the path).

use zarrdt::layout::{FieldPath, Layout, LayoutField, ScalarLayout, SubarrayLayout};
use zarrdt::zarrs::array::ArraySubset;

/// Where the walk is.
pub(crate) struct At<'a> {
    /// The fields on the way (and the item indices, below a subarray walked item by item).
    pub(crate) path: &'a FieldPath,
    /// Byte offset from the start of the element.
    pub(crate) offset: usize,
}

impl At<'_> {
    /// The path as the tool shows it: `value` for the element itself.
    pub(crate) fn label(&self) -> String {
        if self.path.is_root() {
            "value".to_owned()
        } else {
            self.path.to_string()
        }
    }
}

/// How the walk goes on below a subarray.
pub(crate) enum Below {
    /// Not at all.
    Skip,
    /// Through its element once, at the subarray's offset and path.
    Element,
    /// Through every item, in C order, each at its offset with its index in the path.
    EachItem,
}

/// What a walk calls: each method sees one kind of part, and does nothing unless implemented.
pub(crate) trait Visit {
    /// A struct field (of any layout), before the walk goes into it; `at` is the field's.
    fn field(&mut self, _at: &At<'_>, _field: &LayoutField) {}

    /// A subarray: how the walk goes on below it.
    fn subarray(&mut self, _at: &At<'_>, _array: &SubarrayLayout) -> Below {
        Below::Element
    }

    /// A scalar leaf.
    fn scalar(&mut self, _at: &At<'_>, _scalar: ScalarLayout) {}
}

/// Walks `layout` (an element at offset 0, at the root path), calling `visit`.
pub(crate) fn walk(layout: &Layout, visit: &mut impl Visit) {
    go(
        layout,
        &At {
            path: &FieldPath::root(),
            offset: 0,
        },
        visit,
    );
}

fn go(layout: &Layout, at: &At<'_>, visit: &mut impl Visit) {
    match layout {
        Layout::Scalar(scalar) => visit.scalar(at, *scalar),
        Layout::Struct(structure) => {
            for field in structure.fields() {
                let path = at.path.field(field.name());
                let inner = At {
                    path: &path,
                    offset: at.offset + field.offset(),
                };
                visit.field(&inner, field);
                go(field.layout(), &inner, visit);
            }
        }
        Layout::Subarray(array) => match visit.subarray(at, array) {
            Below::Skip => {}
            Below::Element => go(array.element(), at, visit),
            Below::EachItem => {
                // The items in C order, as zarrs iterates the elements of an array subset.
                let stride = array.element().size();
                let shape = array.shape().iter().map(|&extent| extent as u64).collect();
                let items = ArraySubset::new_with_shape(shape).indices();
                for (flat, index) in items.into_iter().enumerate() {
                    let path = index
                        .iter()
                        .fold(at.path.clone(), |path, &i| path.index(i as usize));
                    let item = At {
                        path: &path,
                        offset: at.offset + flat * stride,
                    };
                    go(array.element(), &item, visit);
                }
            }
        },
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use serde_json::json;

    use super::*;

    /// Records what it sees.
    struct Seen(Vec<String>, Below);

    impl Visit for Seen {
        fn field(&mut self, at: &At<'_>, field: &LayoutField) {
            self.0.push(format!(
                "field {} {} at {}",
                field.name(),
                at.label(),
                at.offset
            ));
        }

        fn subarray(&mut self, at: &At<'_>, array: &SubarrayLayout) -> Below {
            self.0
                .push(format!("subarray {} {:?}", at.label(), array.shape()));
            std::mem::replace(&mut self.1, Below::Skip)
        }

        fn scalar(&mut self, at: &At<'_>, scalar: ScalarLayout) {
            self.0.push(format!(
                "scalar {} at {} {}",
                at.label(),
                at.offset,
                scalar.scalar()
            ));
        }
    }

    #[test]
    fn walks_in_field_order_with_paths_and_offsets() {
        let layout = Layout::from_v2_json(&json!([
            ["a", "|u1"],
            ["", "|V1"],
            ["p", [["x", "<i2"]], [2, 2]]
        ]))
        .unwrap();
        let seen = |below| {
            let mut seen = Seen(Vec::new(), below);
            walk(&layout, &mut seen);
            seen.0
        };
        assert_eq!(
            seen(Below::EachItem),
            [
                "field a a at 0",
                "scalar a at 0 uint8",
                "field p p at 2",
                "subarray p [2, 2]",
                "field x p[0][0].x at 2",
                "scalar p[0][0].x at 2 int16",
                "field x p[0][1].x at 4",
                "scalar p[0][1].x at 4 int16",
                "field x p[1][0].x at 6",
                "scalar p[1][0].x at 6 int16",
                "field x p[1][1].x at 8",
                "scalar p[1][1].x at 8 int16",
            ]
        );
        assert_eq!(
            seen(Below::Element)[4..],
            ["field x p.x at 2", "scalar p.x at 2 int16"]
        );
        assert_eq!(seen(Below::Skip).len(), 4);
        let scalar = Layout::from_v2_json(&json!("<f8")).unwrap();
        let mut seen = Seen(Vec::new(), Below::Skip);
        walk(&scalar, &mut seen);
        assert_eq!(seen.0, ["scalar value at 0 float64"]);
    }
}
