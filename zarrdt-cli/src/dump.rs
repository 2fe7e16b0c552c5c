//! `zarrdt dump`: every element of a selection, read one chunk (or a shard's inner chunk) at a
//! time through zarrdt's `BlockReader` (shard indexes checked, failed chunks named), written
//! as JSON, CSV or a table as it is read.

use std::io::Write;
use std::ops::Range;

use serde_json::Value as Json;
use zarrdt::array::BlockReader;
use zarrdt::layout::Layout;
use zarrdt::value::JsonWriter;
use zarrdt::zarrs::array::{ArrayShardedExt, ArraySubset, ChunkGrid};

use crate::cells::{cell, column_names, csv_field};
use crate::enums::{EnumNames, Variants, column_variants};
use crate::fields::{numpy_descr, prune};
use crate::open::{Opened, one_line};
use crate::select::SelectionSpec;
use crate::{Failure, Format};

/// Decoded bytes one read may bring in: a band of chunks is read in thinner slabs beyond it.
const BLOCK_BYTES: u64 = 8 << 20;

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
        for_each_block(
            &opened.array.subchunk_grid(),
            &ranges,
            itemsize as u64,
            count,
            BLOCK_BYTES,
            &mut |block| {
                let bytes = reader.read(&block).map_err(|e| opened.fail(one_line(&e)))?;
                // The block's bytes are its elements in C order, as zarrs iterates its indices.
                let elements = block.indices();
                for (index, record) in elements.iter().zip(bytes.chunks_exact(itemsize.max(1))) {
                    if written == count {
                        return Ok(false);
                    }
                    json.clear();
                    cells.clear();
                    let rendered = if wants_json {
                        writer.write(record, &mut json).map_err(|e| e.to_string())
                    } else {
                        writer
                            .for_each_leaf(record, |leaf, raw, text| {
                                cells.push(cell(leaf, raw, text));
                            })
                            .map_err(|e| e.to_string())
                    };
                    rendered.map_err(|e| opened.fail(format!("element {index:?}: {e}")))?;
                    sink.element(out, &index, &json, &mut cells)?;
                    written += 1;
                }
                Ok(written < count)
            },
        )?;
    }
    sink.end(out)?;
    Ok(())
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
// Reading
// ------------------------------------------------------------------------------------------

/// Calls `visit` with blocks covering the selection `ranges` in C order, each made of whole
/// read chunks where it can: one chunk (or one band of chunks along the leading dimension,
/// when it is within `budget` bytes), else thinner slabs that keep C order. Stops when
/// `visit` returns `false` or `count` elements have been covered.
fn for_each_block(
    grid: &ChunkGrid,
    ranges: &[Range<u64>],
    itemsize: u64,
    count: u64,
    budget: u64,
    visit: &mut dyn FnMut(ArraySubset) -> Result<bool, Failure>,
) -> Result<(), Failure> {
    let n = ranges.len();
    if n == 0 {
        visit(ArraySubset::new_with_ranges(&[]))?;
        return Ok(());
    }
    let extents: Vec<u64> = ranges.iter().map(|r| r.end - r.start).collect();
    if extents.contains(&0) {
        return Ok(());
    }
    // The typical chunk: the one at the selection's start.
    let start: Vec<u64> = ranges.iter().map(|r| r.start).collect();
    let chunk: Vec<u64> = grid
        .chunk_indices(&start)
        .ok()
        .flatten()
        .and_then(|indices| grid.chunk_shape_u64(&indices).ok().flatten())
        .unwrap_or_else(|| extents.clone());
    // The outermost dimension at which a slab one chunk thick, whole in the dimensions after
    // it, fits the budget: dimensions before it are read one index at a time.
    let split = (0..n)
        .find(|&d| {
            let rest: u64 = extents[d + 1..].iter().product();
            chunk[d]
                .min(extents[d])
                .saturating_mul(rest)
                .saturating_mul(itemsize)
                <= budget
        })
        .unwrap_or(n - 1);
    let rest: u64 = extents[split + 1..].iter().product();

    // The dimensions before `split`, one index at a time in C order (zarrs' iteration of the
    // subset they span; one empty index when there are none).
    let outer = ArraySubset::new_with_ranges(&ranges[..split]);
    let mut covered = 0u64;
    for outer in &outer.indices() {
        // Along `split`: chunk by chunk.
        let mut x = ranges[split].start;
        while x < ranges[split].end {
            let mut point = start.clone();
            point[..split].copy_from_slice(&outer);
            point[split] = x;
            let chunk_end = grid
                .chunk_indices(&point)
                .ok()
                .flatten()
                .and_then(|indices| grid.subset(&indices).ok().flatten())
                .map_or(ranges[split].end, |subset| subset.end_exc()[split]);
            let mut end = chunk_end.clamp(x + 1, ranges[split].end);
            // The last block of a limited dump: no more than needed, where that is a box.
            if split == n - 1 {
                end = end.min(x.saturating_add(count - covered));
            }
            let mut block: Vec<Range<u64>> = outer.iter().map(|&i| i..i + 1).collect();
            block.push(x..end);
            block.extend(ranges[split + 1..].iter().cloned());
            if !visit(ArraySubset::new_with_ranges(&block))? {
                return Ok(());
            }
            covered = covered.saturating_add((end - x).saturating_mul(rest));
            if covered >= count {
                return Ok(());
            }
            x = end;
        }
    }
    Ok(())
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
    ) -> Self {
        JsonSink {
            header,
            opened,
            native,
            start: selection.start().to_vec(),
            shape: selection.shape().to_vec(),
            count,
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

    /// `[]` nested like numpy prints an empty array of `shape` (`[[], []]` for `(2, 0)`).
    fn empty(out: &mut impl Write, shape: &[u64]) -> std::io::Result<()> {
        out.write_all(b"[")?;
        if let Some((&extent, rest)) = shape.split_first()
            && !rest.is_empty()
        {
            for i in 0..extent {
                if i > 0 {
                    out.write_all(b", ")?;
                }
                Self::empty(out, rest)?;
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
                Self::empty(out, &self.shape)?;
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
        let header: Vec<_> = self.columns.iter().map(|c| csv_field(c)).collect();
        writeln!(out, "{}", header.join(","))?;
        Ok(())
    }

    fn element(
        &mut self,
        out: &mut W,
        _index: &[u64],
        _json: &[u8],
        cells: &mut Vec<String>,
    ) -> Result<(), Failure> {
        for (i, cell) in cells.iter().enumerate() {
            if i > 0 {
                out.write_all(b",")?;
            }
            out.write_all(csv_field(cell).as_bytes())?;
        }
        out.write_all(b"\n")?;
        Ok(())
    }

    fn end(&mut self, _out: &mut W) -> Result<(), Failure> {
        Ok(())
    }
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
            widths: header.iter().map(|h| h.chars().count()).collect(),
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
                let pad = width.saturating_sub(cell.chars().count());
                line.extend(std::iter::repeat_n(' ', pad));
            }
        }
        writeln!(out, "{}", line.trim_end())
    }

    fn flush_pending(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        if let Some(rows) = self.pending.take() {
            for row in &rows {
                for (width, cell) in self.widths.iter_mut().zip(row) {
                    *width = (*width).max(cell.chars().count());
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::num::NonZeroU64;

    use zarrdt::zarrs::array::chunk_grid::RegularChunkGrid;

    use super::*;

    /// The blocks of a selection, as index ranges.
    fn blocks(
        shape: &[u64],
        chunks: &[u64],
        ranges: &[Range<u64>],
        count: u64,
        budget: u64,
    ) -> Vec<Vec<Range<u64>>> {
        let chunk_shape = chunks
            .iter()
            .map(|&c| NonZeroU64::new(c).unwrap())
            .collect();
        let grid = ChunkGrid::new(RegularChunkGrid::new(shape.to_vec(), chunk_shape).unwrap());
        let mut seen = Vec::new();
        for_each_block(&grid, ranges, 1, count, budget, &mut |block| {
            seen.push(block.to_ranges());
            Ok(true)
        })
        .unwrap();
        seen
    }

    /// The elements of blocks in the order they come, each in C order.
    fn elements(blocks: &[Vec<Range<u64>>]) -> Vec<Vec<u64>> {
        let mut all = Vec::new();
        for block in blocks {
            let subset = ArraySubset::new_with_ranges(block);
            all.extend(subset.indices().into_iter().map(|i| i.to_vec()));
        }
        all
    }

    #[test]
    fn blocks_are_chunks_in_c_order() {
        // One dimension: chunk by chunk, cut to the selection.
        assert_eq!(
            blocks(&[10], &[4], &[3..10], 7, 100),
            [vec![3..4], vec![4..8], vec![8..10]]
        );
        // A limit trims the last block.
        assert_eq!(
            blocks(&[10], &[4], &[0..10], 5, 100),
            [vec![0..4], vec![4..5]]
        );
        // Two dimensions, within the budget: bands of chunk rows.
        assert_eq!(
            blocks(&[5, 6], &[2, 4], &[0..5, 1..6], 25, 100),
            [vec![0..2, 1..6], vec![2..4, 1..6], vec![4..5, 1..6]]
        );
        // Over the budget: rows one at a time, chunk by chunk along the last dimension.
        let thin = blocks(&[3, 6], &[2, 4], &[0..3, 0..6], 18, 5);
        assert_eq!(thin[0], [0..1, 0..4]);
        assert_eq!(thin[1], [0..1, 4..6]);
        assert_eq!(thin.len(), 6);
    }

    #[test]
    fn blocks_cover_the_selection_in_c_order() {
        // (shape, chunks, selection)
        type Case<'a> = (&'a [u64], &'a [u64], &'a [Range<u64>]);
        let cases: [Case<'_>; 4] = [
            (&[7, 5, 3], &[3, 2, 2], &[1..7, 0..5, 1..3]),
            (&[4, 4, 4, 4], &[3, 1, 2, 3], &[0..4, 1..3, 0..4, 2..4]),
            (&[9], &[2], &[0..9]),
            (&[6, 1], &[4, 1], &[2..6, 0..1]),
        ];
        for (shape, chunks, ranges) in cases {
            let want: Vec<Vec<u64>> = ArraySubset::new_with_ranges(ranges)
                .indices()
                .into_iter()
                .map(|i| i.to_vec())
                .collect();
            for budget in [1, 3, 8, 20, 1000] {
                let got = elements(&blocks(shape, chunks, ranges, u64::MAX, budget));
                assert_eq!(got, want, "{shape:?} {chunks:?} {ranges:?} budget {budget}");
            }
        }
    }
}
