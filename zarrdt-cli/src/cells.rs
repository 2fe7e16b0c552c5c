//! One cell per leaf: the columns of `dump --format csv` and `--format table`, and the text of
//! each leaf value in them, made from the JSON the library writes for it
//! ([`JsonWriter::for_each_leaf`](zarrdt::value::JsonWriter::for_each_leaf)).

use zarrdt::layout::{Layout, ScalarLayout, SubarrayLayout};
use zarrdt::types::ScalarType;

use crate::walk::{At, Below, Visit, walk};

/// The column names of `layout`'s leaves, in field order: field paths as `FieldPath` shows
/// them (`point.x`, `["foo.mask"]`), with one column per subarray item (`pos[0]`, `z[1][0]`);
/// `value` for a scalar element.
pub(crate) fn column_names(layout: &Layout) -> Vec<String> {
    let mut columns = Columns(Vec::new());
    walk(layout, &mut columns);
    columns.0
}

/// The leaves a walk meets, every subarray item on its own.
struct Columns(Vec<String>);

impl Visit for Columns {
    fn subarray(&mut self, _at: &At<'_>, _array: &SubarrayLayout) -> Below {
        Below::EachItem
    }

    fn scalar(&mut self, at: &At<'_>, _scalar: ScalarLayout) {
        self.0.push(at.label());
    }
}

/// The text of one leaf in a cell, from the leaf's type, its bytes and its JSON (the Zarr v3
/// fill value form): numbers as in JSON, `true`/`false`, floats as [`float_text`] says,
/// complex numbers as Python writes them (`1.5-2j`, `nan+infj`), strings as they are,
/// `null_terminated_bytes` (NumPy's `S<n>`) as [`byte_text`] says, other bytes in base64,
/// times as their int64 count.
pub(crate) fn cell(leaf: ScalarLayout, bytes: &[u8], json: &str) -> String {
    match leaf.scalar() {
        ScalarType::Float16 | ScalarType::Float32 | ScalarType::Float64 => float_text(json),
        ScalarType::Complex64 | ScalarType::Complex128 => complex_text(json),
        ScalarType::NullTerminatedBytes { .. } => byte_text(bytes),
        _ if json.starts_with('"') => serde_json::from_str(json).unwrap_or_else(|_| json.into()),
        _ => json.to_owned(),
    }
}

/// A float leaf's cell from its JSON: the number, `NaN` for every NaN, `inf` and `-inf`.
fn float_text(json: &str) -> String {
    match json {
        "\"Infinity\"" => "inf".into(),
        "\"-Infinity\"" => "-inf".into(),
        // "NaN", or the hex bits of a NaN with a payload.
        text if text.starts_with('"') => "NaN".into(),
        number => number.to_owned(),
    }
}

/// A complex leaf's cell from its JSON `[re,im]` (numbers or the strings of
/// [`float_text`], none holding a comma): as Python writes it, `1.5-2j`, `nan+infj`.
fn complex_text(json: &str) -> String {
    let parts = json
        .strip_prefix('[')
        .and_then(|inner| inner.strip_suffix(']'))
        .and_then(|inner| inner.split_once(','));
    let Some((re, im)) = parts else {
        return json.to_owned();
    };
    let python = |part: &str| match float_text(part).as_str() {
        "NaN" => "nan".to_owned(),
        other => other.to_owned(),
    };
    let (re, im) = (python(re), python(im));
    if im.starts_with('-') {
        format!("{re}{im}j")
    } else {
        format!("{re}+{im}j")
    }
}

/// A byte string (`S<n>`) as text, the bytes NumPy reads (without the trailing zeros): printable
/// ASCII as it is, and the rest escaped as Python writes bytes (`b'c\x00d'` shows as
/// `c\x00d`): `\\`, `\t`, `\n`, `\r`, `\xNN`.
pub(crate) fn byte_text(bytes: &[u8]) -> String {
    let end = bytes
        .iter()
        .rposition(|&byte| byte != 0)
        .map_or(0, |last| last + 1);
    let mut text = String::with_capacity(end);
    for &byte in &bytes[..end] {
        match byte {
            b'\\' => text.push_str("\\\\"),
            b'\t' => text.push_str("\\t"),
            b'\n' => text.push_str("\\n"),
            b'\r' => text.push_str("\\r"),
            b' '..=b'~' => text.push(char::from(byte)),
            other => text.push_str(&format!("\\x{other:02x}")),
        }
    }
    text
}

/// A CSV field: quoted when it holds a comma, a quote, a line break or surrounding spaces.
fn csv_field(text: &str) -> std::borrow::Cow<'_, str> {
    let needs_quotes =
        text.contains([',', '"', '\n', '\r']) || text.starts_with(' ') || text.ends_with(' ');
    if needs_quotes {
        format!("\"{}\"", text.replace('"', "\"\"")).into()
    } else {
        text.into()
    }
}

/// Writes a CSV row of `fields` and its line break: [`csv_field`]s joined by commas, a row of
/// one empty field written as `""` (as Python's `csv` writes it), since an empty line is no
/// row to CSV readers (pandas skips it, Python's `csv` reads it as a row of no fields).
pub(crate) fn write_csv_row<S: AsRef<str>>(
    out: &mut impl std::io::Write,
    fields: &[S],
) -> std::io::Result<()> {
    if let [only] = fields
        && only.as_ref().is_empty()
    {
        return out.write_all(b"\"\"\n");
    }
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        out.write_all(csv_field(field.as_ref()).as_bytes())?;
    }
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;
    use zarrdt::value::JsonWriter;

    #[test]
    fn a_row_of_one_empty_field_is_no_empty_line() {
        let row = |fields: &[&str]| {
            let mut out = Vec::new();
            write_csv_row(&mut out, fields).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(row(&[""]), "\"\"\n");
        assert_eq!(row(&["", ""]), ",\n");
        assert_eq!(row(&["a", "b,c", " d"]), "a,\"b,c\",\" d\"\n");
        assert_eq!(row(&["x"]), "x\n");
    }

    /// The cells of one element of `layout` whose bytes are `bytes`.
    fn cells(layout: &Layout, bytes: &[u8]) -> Vec<String> {
        let mut out = Vec::new();
        JsonWriter::new(layout)
            .for_each_leaf(bytes, |leaf, raw, json| out.push(cell(leaf, raw, json)))
            .unwrap();
        out
    }

    #[test]
    fn columns_and_cells() {
        let layout = Layout::from_v2_json(&json!([
            ["id", "<u4"],
            ["z", "<f4", [2, 2]],
            ["c", "<c8"],
            ["s", "<U3"],
            ["foo.mask", "|b1"],
            ["b", "|S6"],
            ["v", "|V2"]
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
                "[\"foo.mask\"]",
                "b",
                "v"
            ]
        );
        let mut bytes = 7u32.to_le_bytes().to_vec();
        for bits in [1.5f32.to_bits(), 0x7fc0_0000, 0x7f80_0000, 0x7fc0_0001] {
            bytes.extend(bits.to_le_bytes());
        }
        bytes.extend((-0.0f32).to_le_bytes());
        bytes.extend(f32::NEG_INFINITY.to_le_bytes());
        for c in ['a', ',', 'b'] {
            bytes.extend(u32::from(c).to_le_bytes());
        }
        bytes.push(1);
        bytes.extend(b"c\x00\\\n\xff\x00");
        bytes.extend([0xfb, 0xff]);
        assert_eq!(
            cells(&layout, &bytes),
            [
                "7",
                "1.5",
                "NaN",
                "inf",
                "NaN",
                "-0.0-infj",
                "a,b",
                "true",
                "c\\x00\\\\\\n\\xff",
                "+/8="
            ]
        );
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
        let scalar = Layout::from_v2_json(&json!("<i8")).unwrap();
        assert_eq!(column_names(&scalar), ["value"]);
    }

    #[test]
    fn byte_strings_as_numpy_prints_them() {
        assert_eq!(byte_text(b"c000"), "c000");
        assert_eq!(byte_text(b"c000\0\0"), "c000");
        assert_eq!(byte_text(b""), "");
        assert_eq!(byte_text(b"a\tb\rc\x7f\x01 ~"), "a\\tb\\rc\\x7f\\x01 ~");
        assert_eq!(complex_text("[1.5,-2.0]"), "1.5-2.0j");
        assert_eq!(complex_text("[\"NaN\",\"Infinity\"]"), "nan+infj");
    }
}
