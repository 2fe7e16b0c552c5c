//! The byte map of one record: each field a box along its offsets, padding hatched.
//!
//! ```text
//!   0               8                       20              28
//!   +---------------+-----------------------+---------------+-+
//!   |id             |pos[3]                 |mass           |a|
//!   +---------------+-----------------------+---------------+-+
//! ```

use zarrdt::layout::{Layout, ScalarLayout, SubarrayLayout};

use crate::walk::{At, Below, Visit, walk};

/// One box: a scalar field, a whole subarray, or padding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unit {
    pub(crate) offset: usize,
    pub(crate) size: usize,
    pub(crate) label: String,
    pub(crate) padding: bool,
}

/// The boxes of `layout`: scalar fields, subarrays as one box each (`pos[3]`, `z[2,2]`), and
/// the gaps between them.
pub(crate) fn units(layout: &Layout) -> Vec<Unit> {
    let mut found = Boxes(Vec::new());
    walk(layout, &mut found);
    let mut found = found.0;
    found.sort_by_key(|unit| unit.offset);
    let mut units = Vec::with_capacity(found.len());
    let mut end = 0;
    for unit in found {
        if unit.offset > end {
            units.push(padding(end, unit.offset));
        }
        end = end.max(unit.offset + unit.size);
        units.push(unit);
    }
    if layout.size() > end {
        units.push(padding(end, layout.size()));
    }
    units
}

fn padding(from: usize, to: usize) -> Unit {
    Unit {
        offset: from,
        size: to - from,
        label: String::new(),
        padding: true,
    }
}

/// The boxes of the scalars and subarrays a walk meets.
struct Boxes(Vec<Unit>);

impl Visit for Boxes {
    fn subarray(&mut self, at: &At<'_>, array: &SubarrayLayout) -> Below {
        let shape: Vec<String> = array.shape().iter().map(usize::to_string).collect();
        self.0.push(Unit {
            offset: at.offset,
            size: array.size(),
            label: format!("{}[{}]", at.label(), shape.join(",")),
            padding: false,
        });
        Below::Skip
    }

    fn scalar(&mut self, at: &At<'_>, scalar: ScalarLayout) {
        self.0.push(Unit {
            offset: at.offset,
            size: scalar.scalar().size(),
            label: at.label(),
            padding: false,
        });
    }
}

/// Characters a line of the map holds at most.
const WIDTH: usize = 72;
/// Rows of the map at most; larger records are drawn with several bytes to a character.
const MAX_ROWS: usize = 8;

/// The lines of the byte map of a record of `itemsize` bytes made of `units`, each prefixed by
/// `indent`; then a legend of the labels that did not fit their box.
///
/// The scale is 1 to 4 characters per byte, whichever leaves the fewest labels cut and rows
/// (a record wider than a line is drawn in rows); a record too large for [`MAX_ROWS`] rows
/// gets several bytes to a character.
pub(crate) fn render(units: &[Unit], itemsize: usize, indent: &str) -> Vec<String> {
    if itemsize == 0 {
        return Vec::new();
    }
    if itemsize > WIDTH * MAX_ROWS {
        let per_char = itemsize.div_ceil(WIDTH * MAX_ROWS);
        let mut lines = draw(units, itemsize, 1, per_char, indent).0;
        lines.push(format!("{indent}(one character is {per_char} bytes)"));
        return lines;
    }
    // (score, rows, lines): on equal scores, the larger scale with no more rows.
    let mut best: Option<(usize, usize, Vec<String>)> = None;
    for per_byte in 1..=4 {
        let (lines, cut, rows) = draw(units, itemsize, per_byte, 1, indent);
        if rows > MAX_ROWS {
            continue;
        }
        let score = cut + rows;
        let better = best
            .as_ref()
            .is_none_or(|(s, r, _)| score < *s || (score == *s && rows <= *r));
        if better {
            best = Some((score, rows, lines));
        }
    }
    best.map(|(_, _, lines)| lines).unwrap_or_default()
}

/// The map at `per_byte` characters per byte (or one per `per_char` bytes): its lines, the
/// number of labels cut, and the number of rows.
fn draw(
    units: &[Unit],
    itemsize: usize,
    per_byte: usize,
    per_char: usize,
    indent: &str,
) -> (Vec<String>, usize, usize) {
    let col = |offset: usize| offset * per_byte / per_char;
    let total = col(itemsize);
    // Rows break at byte boundaries.
    let row_width = (WIDTH / per_byte) * per_byte;
    let mut lines = Vec::new();
    let mut hidden = Vec::new();
    let mut rows = 0;
    let mut row_start = 0;
    while row_start < total {
        rows += 1;
        let row_end = (row_start + row_width).min(total);
        let width = row_end - row_start + 1;
        let mut ruler = vec![' '; width + 12];
        let mut border = vec!['-'; width];
        let mut boxes = vec![' '; width];
        let mut ruler_free = 0;
        for unit in units {
            let (start, end) = (col(unit.offset), col(unit.offset + unit.size));
            if end <= row_start || start >= row_end || end == start {
                continue;
            }
            let (from, to) = (
                start.max(row_start) - row_start,
                end.min(row_end) - row_start,
            );
            if unit.padding {
                for cell in &mut boxes[from..to] {
                    *cell = ':';
                }
            }
            if start >= row_start {
                border[from] = '+';
                boxes[from] = '|';
                let number = unit.offset.to_string();
                if from >= ruler_free {
                    for (i, c) in number.chars().enumerate() {
                        ruler[from + i] = c;
                    }
                    ruler_free = from + number.len() + 1;
                }
                let room = to - from - 1;
                let label: Vec<char> = unit.label.chars().collect();
                if !unit.padding {
                    for (i, &c) in label.iter().take(room).enumerate() {
                        boxes[from + 1 + i] = c;
                    }
                    if label.len() > room {
                        hidden.push(unit);
                    }
                }
            }
        }
        // A box that ends where the row does is closed there.
        let closes_here = units
            .iter()
            .any(|unit| !unit.padding && col(unit.offset + unit.size) == row_end);
        if row_end == total || closes_here {
            border[width - 1] = '+';
            boxes[width - 1] = '|';
        }
        if row_end == total {
            let number = itemsize.to_string();
            if width > ruler_free {
                for (i, c) in number.chars().enumerate() {
                    ruler[width - 1 + i] = c;
                }
            }
        } else if !closes_here {
            border.truncate(width - 1);
            boxes.truncate(width - 1);
        }
        let text =
            |chars: &[char]| format!("{indent}{}", chars.iter().collect::<String>().trim_end());
        lines.push(text(&ruler));
        lines.push(text(&border));
        lines.push(text(&boxes));
        lines.push(text(&border));
        row_start = row_end;
    }
    if units.iter().any(|unit| unit.padding) {
        lines.push(format!("{indent}(::: is padding)"));
    }
    let cut = hidden.len();
    for unit in hidden {
        lines.push(format!(
            "{indent}{}: {} byte{} at {}",
            unit.label,
            unit.size,
            if unit.size == 1 { "" } else { "s" },
            unit.offset
        ));
    }
    (lines, cut, rows)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn particle() {
        let layout = Layout::from_v2_json(&json!([
            ["id", "<u8"],
            ["pos", "<f4", [3]],
            ["mass", "<f8"],
            ["alive", "|b1"]
        ]))
        .unwrap();
        let lines = render(&units(&layout), layout.size(), "");
        // 29 bytes at 2 characters per byte; `alive` does not fit its box.
        let expected = [
            "0               8                       20              28",
            "+---------------+-----------------------+---------------+-+",
            "|id             |pos[3]                 |mass           |a|",
            "+---------------+-----------------------+---------------+-+",
            "alive: 1 byte at 28",
        ];
        assert_eq!(lines, expected);
    }

    #[test]
    fn padding_and_large_records() {
        let layout = Layout::from_v2_json(&json!([
            ["a", "|u1"],
            ["", "|V3"],
            ["b", "<i4"],
            ["", "|V1"]
        ]))
        .unwrap();
        let units = units(&layout);
        assert_eq!(units.len(), 4);
        assert!(units[1].padding && units[3].padding);
        let lines = render(&units, 9, "  ");
        assert!(lines[2].contains("|:::"), "{lines:#?}");
        let big = Layout::from_v2_json(&json!([["a", "<f8", [1000]], ["b", "|u1"]])).unwrap();
        let lines = render(&super::units(&big), big.size(), "");
        assert!(lines.len() <= MAX_ROWS * 4 + 3, "{lines:#?}");
        assert!(lines.iter().any(|l| l.contains("bytes)")), "{lines:#?}");
    }
}
