//! `zarrdt dump`: every element of a selection, read a block of whole chunks (or a shard's
//! inner chunks) at a time through zarrdt's `BlockReader` (shard indexes checked, failed chunks
//! named), written as JSON, CSV or a table as it is read.

use std::io::Write;
use std::ops::Range;

use serde_json::Value as Json;
use unicode_width::UnicodeWidthStr;
use zarrdt::Error;
use zarrdt::array::{BlockReader, DEFAULT_BLOCK_BYTES};
use zarrdt::layout::Layout;
use zarrdt::value::{JsonWriteError, JsonWriter};
use zarrdt::zarrs::array::ArraySubset;

use crate::cells::{cell, column_names, write_csv_row};
use crate::enums::{EnumNames, Variants, column_variants};
use crate::fields::{numpy_descr, prune};
use crate::open::{Opened, one_line};
use crate::select::SelectionSpec;
use crate::{Failure, Format};

/// What to dump and how.
pub(crate) struct Options {
    /// `--select`.
    pub(crate) selection: Option<SelectionSpec>,
    /// `--limit`.
    pub(crate) limit: Option<u64>,
    /// `--fields`.
    pub(crate) fields: Vec<String>,
    /// `--format`.
    pub(crate) format: Format,
}

/// The element type being dumped: all of it, or the fields `--fields` names.
struct Element {
    /// Decodes the bytes zarrs hands over (native byte order, the array's itemsize).
    native: Layout,
    /// The same fields as stored, for the data type.
    stored: Layout,
}

pub(crate) fn dump(
    opened: &Opened,
    options: &Options,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let shape = opened.array.shape().to_vec();
    let ranges: Vec<Range<u64>> = match &options.selection {
        Some(selection) => selection.resolve(&shape).map_err(|e| opened.fail(e))?,
        None => shape.iter().map(|&extent| 0..extent).collect(),
    };
    let element = element(opened, &options.fields)?;
    let selection = ArraySubset::new_with_ranges(&ranges);
    let selected = selection.num_elements();
    let count = options.limit.map_or(selected, |limit| limit.min(selected));

    let mut sink: Box<dyn Sink<_>> = match options.format {
        Format::Json => {
            let header = json_header(opened, &element)?;
            Box::new(JsonSink::new(
                header,
                opened,
                element.native.clone(),
                &selection,
                count,
                options.limit,
            ))
        }
        Format::Csv => Box::new(CsvSink {
            columns: column_names(&element.native),
        }),
        Format::Table => Box::new(TableSink::new(
            &element.native,
            ranges.len(),
            &EnumNames::from_attributes(opened.array.attributes()),
        )),
    };
    sink.begin(out)?;

    let mut written = 0u64;
    let itemsize = opened.native.size();
    let writer = JsonWriter::new(&element.native);
    let wants_json = options.format == Format::Json;
    let mut json = Vec::new();
    let mut cells = Vec::new();
    if count > 0 {
        // Through the library: each shard's index checked once, a chunk that cannot be read named.
        let mut reader = BlockReader::new(&opened.array).map_err(|e| opened.fail(one_line(&e)))?;
        'blocks: for block in reader.blocks(&ranges, DEFAULT_BLOCK_BYTES).limit(count) {
            let bytes = reader.read(&block).map_err(|e| opened.fail(one_line(&e)))?;
            // The block's bytes are its elements in C order, as zarrs iterates its indices.
            let elements = block.indices();
            for (index, record) in elements.iter().zip(bytes.chunks_exact(itemsize.max(1))) {
                if written == count {
                    break 'blocks;
                }
                json.clear();
                cells.clear();
                let rendered = if wants_json {
                    writer.write(record, &mut json)
                } else {
                    writer
                        .for_each_leaf(record, |leaf, raw, text| {
                            cells.push(cell(leaf, raw, text));
                        })
                        .map_err(JsonWriteError::Invalid)
                };
                rendered.map_err(|e| opened.fail(element_fault(&index, &e)))?;
                sink.element(out, &index, &json, &mut cells)?;
                written += 1;
            }
        }
    }
    sink.end(out)?;
    Ok(())
}

/// The message for the element at `index` (in the array) that `error` refused: the element
/// by its index, the field and the byte offset within the element (the writer sees one
/// element, which its own message calls element 0).
fn element_fault(index: &[u64], error: &JsonWriteError) -> String {
    match error {
        JsonWriteError::Invalid(Error::InvalidElement {
            path,
            offset,
            fault,
            ..
        }) => {
            let field = if path.is_root() {
                String::new()
            } else {
                format!(" at field `{path}`")
            };
            format!("element {index:?}{field}, byte offset {offset} in the element: {fault}")
        }
        other => format!("element {index:?}: {other}"),
    }
}

/// The element to dump: the whole record, or the fields named, at their offsets.
fn element(opened: &Opened, fields: &[String]) -> Result<Element, Failure> {
    if fields.is_empty() {
        return Ok(Element {
            native: opened.native.clone(),
            stored: opened.stored.clone(),
        });
    }
    let native = prune(&opened.native, fields).map_err(|e| opened.fail(e))?;
    let stored = prune(&opened.stored, fields).map_err(|e| opened.fail(e))?;
    Ok(Element { native, stored })
}

/// The members of the JSON document before `fill_value`, each as JSON text.
fn json_header(opened: &Opened, element: &Element) -> Result<Vec<(&'static str, String)>, Failure> {
    let data_type = if element.stored == opened.stored {
        opened.data_type_json()?
    } else {
        // Only some fields: the record of just those, packed, in the same form.
        let packed = element.stored.packed().map_err(|e| opened.fail(e))?;
        match packed.to_v3() {
            Ok((data_type, _)) => data_type.to_v3_json(),
            Err(_) => numpy_descr(&packed).map_err(|e| opened.fail(e))?,
        }
    };
    Ok(vec![
        ("zarr_format", Json::from(opened.zarr_format()).to_string()),
        ("shape", Json::from(opened.array.shape()).to_string()),
        ("chunks", Json::from(opened.read_chunk_shape()).to_string()),
        ("data_type", data_type.to_string()),
    ])
}

// ------------------------------------------------------------------------------------------
// Output
// ------------------------------------------------------------------------------------------

/// Where the elements go, one at a time.
trait Sink<W: Write> {
    fn begin(&mut self, out: &mut W) -> Result<(), Failure>;
    /// One element at `index` (absolute): its JSON for the JSON sink, else its cells.
    fn element(
        &mut self,
        out: &mut W,
        index: &[u64],
        json: &[u8],
        cells: &mut Vec<String>,
    ) -> Result<(), Failure>;
    fn end(&mut self, out: &mut W) -> Result<(), Failure>;
}

/// The `dump --format json` document: the header's members, then `values` nested like the
/// selection, one element per line.
struct JsonSink<'a> {
    /// The members before `fill_value`, as JSON text.
    header: Vec<(&'static str, String)>,
    /// The array, whose fill value is written from its bytes (it may be megabytes of JSON).
    opened: &'a Opened,
    /// The record (of the fields dumped).
    native: Layout,
    /// Where the selection starts.
    start: Vec<u64>,
    /// The selection's shape.
    shape: Vec<u64>,
    /// Elements that will be written (the limit).
    count: u64,
    /// Lists an empty selection is written with at most, inside `values` (`--limit`).
    empty_lists: u64,
    written: u64,
    /// Brackets open inside `values` (dimensions 1.. of the selection).
    open: usize,
}

impl<'a> JsonSink<'a> {
    fn new(
        header: Vec<(&'static str, String)>,
        opened: &'a Opened,
        native: Layout,
        selection: &ArraySubset,
        count: u64,
        limit: Option<u64>,
    ) -> Self {
        JsonSink {
            header,
            opened,
            native,
            start: selection.start().to_vec(),
            shape: selection.shape().to_vec(),
            count,
            empty_lists: limit.unwrap_or(u64::MAX),
            written: 0,
            open: 0,
        }
    }

    fn newline(out: &mut impl Write, depth: usize) -> std::io::Result<()> {
        out.write_all(b"\n")?;
        for _ in 0..depth + 2 {
            out.write_all(b"  ")?;
        }
        Ok(())
    }

    /// `[]` nested like numpy prints an empty array of `shape` (`[[], []]` for `(2, 0)`),
    /// with at most `left` lists inside the outer one (`--limit` counts them, as it counts
    /// elements: a shape of `(2**61, 0)` is not 2**61 lists unless asked for).
    fn empty(out: &mut impl Write, shape: &[u64], left: &mut u64) -> std::io::Result<()> {
        out.write_all(b"[")?;
        if let Some((&extent, rest)) = shape.split_first()
            && !rest.is_empty()
        {
            for i in 0..extent {
                if *left == 0 {
                    break;
                }
                *left -= 1;
                if i > 0 {
                    out.write_all(b", ")?;
                }
                Self::empty(out, rest, left)?;
            }
        }
        out.write_all(b"]")
    }
}

impl<W: Write> Sink<W> for JsonSink<'_> {
    fn begin(&mut self, out: &mut W) -> Result<(), Failure> {
        out.write_all(b"{")?;
        for (name, value) in &self.header {
            write!(out, "\n  \"{name}\": {value},")?;
        }
        out.write_all(b"\n  \"fill_value\": ")?;
        self.opened.write_fill_json(&self.native, out)?;
        out.write_all(b",")?;
        out.write_all(b"\n  \"values\": ")?;
        if self.shape.is_empty() {
            if self.count == 0 {
                out.write_all(b"null")?;
            }
            return Ok(());
        }
        if self.count == 0 {
            if self.shape.contains(&0) {
                let mut left = self.empty_lists;
                Self::empty(out, &self.shape, &mut left)?;
            } else {
                out.write_all(b"[]")?;
            }
            return Ok(());
        }
        out.write_all(b"[")?;
        Ok(())
    }

    fn element(
        &mut self,
        out: &mut W,
        index: &[u64],
        json: &[u8],
        _cells: &mut Vec<String>,
    ) -> Result<(), Failure> {
        let n = self.shape.len();
        // The position in the selection.
        let at = |d: usize| index[d] - self.start[d];
        if n == 0 {
            out.write_all(json)?;
            self.written += 1;
            return Ok(());
        }
        if self.written > 0 {
            out.write_all(b",")?;
        }
        // Open the brackets of the inner dimensions whose index restarts here.
        let opens = (1..n).rev().take_while(|&d| at(d) == 0).count();
        for _ in 0..opens {
            Self::newline(out, self.open)?;
            out.write_all(b"[")?;
            self.open += 1;
        }
        Self::newline(out, self.open)?;
        out.write_all(json)?;
        self.written += 1;
        // Close those whose index ends here, and move on.
        let closes = (1..n)
            .rev()
            .take_while(|&d| at(d) + 1 == self.shape[d])
            .count();
        for _ in 0..closes {
            self.open -= 1;
            Self::newline(out, self.open)?;
            out.write_all(b"]")?;
        }
        Ok(())
    }

    fn end(&mut self, out: &mut W) -> Result<(), Failure> {
        if !self.shape.is_empty() && self.count > 0 {
            // A limit may stop inside rows: close what is open.
            while self.open > 0 {
                self.open -= 1;
                Self::newline(out, self.open)?;
                out.write_all(b"]")?;
            }
            out.write_all(b"\n  ]")?;
        }
        out.write_all(b"\n}\n")?;
        Ok(())
    }
}

/// CSV: a header of leaf paths, then one row per element.
struct CsvSink {
    columns: Vec<String>,
}

impl<W: Write> Sink<W> for CsvSink {
    fn begin(&mut self, out: &mut W) -> Result<(), Failure> {
        write_csv_row(out, &self.columns)?;
        Ok(())
    }

    fn element(
        &mut self,
        out: &mut W,
        _index: &[u64],
        _json: &[u8],
        cells: &mut Vec<String>,
    ) -> Result<(), Failure> {
        write_csv_row(out, cells)?;
        Ok(())
    }

    fn end(&mut self, _out: &mut W) -> Result<(), Failure> {
        Ok(())
    }
}

/// A cell's text with its control characters escaped as Python escapes them in a string's
/// repr (`\n`, `\r`, `\t`, `\x07`, `\x85`): a text field's line break would break the
/// table's row.
fn control_escaped(cell: &str) -> String {
    let mut text = String::with_capacity(cell.len() + 8);
    for c in cell.chars() {
        match c {
            '\n' => text.push_str("\\n"),
            '\r' => text.push_str("\\r"),
            '\t' => text.push_str("\\t"),
            c if c.is_control() => text.push_str(&format!("\\x{:02x}", u32::from(c))),
            c => text.push(c),
        }
    }
    text
}

/// Rows buffered to size the table's columns before the first is printed.
const TABLE_SAMPLE: usize = 200;

/// A table for people: the index, then one column per leaf, aligned on the first rows; the
/// values of enum fields (named in the `zarrdt:enums` attribute) by their variant names.
struct TableSink {
    header: Vec<String>,
    /// Per column, the names of the values of an enum field.
    names: Vec<Option<Variants>>,
    widths: Vec<usize>,
    /// Rows held until the widths are known.
    pending: Option<Vec<Vec<String>>>,
}

impl TableSink {
    fn new(layout: &Layout, dimensions: usize, enums: &EnumNames) -> Self {
        let mut header = vec![if dimensions == 1 {
            "index".to_owned()
        } else {
            "indices".to_owned()
        }];
        header.extend(column_names(layout));
        let names = column_variants(enums, layout);
        TableSink {
            names,
            widths: header.iter().map(|h| h.width()).collect(),
            header,
            pending: Some(Vec::new()),
        }
    }

    fn row(&self, out: &mut impl Write, row: &[String]) -> std::io::Result<()> {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            line.push_str(cell);
            if i + 1 < row.len() {
                let width = self.widths.get(i).copied().unwrap_or(0);
                let pad = width.saturating_sub(cell.width());
                line.extend(std::iter::repeat_n(' ', pad));
            }
        }
        writeln!(out, "{}", line.trim_end())
    }

    fn flush_pending(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        if let Some(rows) = self.pending.take() {
            for row in &rows {
                for (width, cell) in self.widths.iter_mut().zip(row) {
                    *width = (*width).max(cell.width());
                }
            }
            self.row(out, &self.header.clone())?;
            let rule: Vec<String> = self.widths.iter().map(|&w| "-".repeat(w)).collect();
            self.row(out, &rule)?;
            for row in &rows {
                self.row(out, row)?;
            }
        }
        Ok(())
    }
}

impl<W: Write> Sink<W> for TableSink {
    fn begin(&mut self, _out: &mut W) -> Result<(), Failure> {
        Ok(())
    }

    fn element(
        &mut self,
        out: &mut W,
        index: &[u64],
        _json: &[u8],
        cells: &mut Vec<String>,
    ) -> Result<(), Failure> {
        for (cell, names) in cells.iter_mut().zip(&self.names) {
            if let Some(name) = names.as_ref().and_then(|names| names.name(cell)) {
                *cell = name.to_owned();
            }
        }
        for cell in cells
            .iter_mut()
            .filter(|cell| cell.contains(char::is_control))
        {
            *cell = control_escaped(cell);
        }
        let position: Vec<String> = index.iter().map(u64::to_string).collect();
        cells.insert(0, position.join(","));
        match &mut self.pending {
            Some(rows) => {
                rows.push(std::mem::take(cells));
                if rows.len() >= TABLE_SAMPLE {
                    self.flush_pending(out)?;
                }
            }
            None => self.row(out, cells)?,
        }
        Ok(())
    }

    fn end(&mut self, out: &mut W) -> Result<(), Failure> {
        self.flush_pending(out)?;
        Ok(())
    }
}
