//! `zarrdt inspect`: what an array is, at a glance (or as JSON).

use std::io::Write;

use serde_json::{Value as Json, json};
use unicode_width::UnicodeWidthStr;
use zarrdt::Endian;
use zarrdt::advanced::ENUMS_ATTRIBUTE;
use zarrdt::array::ShardIndex;
use zarrdt::layout::{Layout, Leaf};
use zarrdt::types::ScalarType;
use zarrdt::zarrs::array::{ArrayShardedExt, ArraySubset};
use zarrdt::zarrs::storage::ReadableStorageTraits;

use crate::Failure;
use crate::bytemap;
use crate::enums::{EnumNames, Variants};
use crate::open::{Metadata, Opened, one_line};
use crate::units::bytes;

/// Chunks (or inner chunks) counted at most; larger grids are not counted.
const MAX_COUNTED: u64 = 1_000_000;

/// Written and missing chunks of a grid.
struct Counts {
    total: u64,
    /// `None` when the grid is too large to count, or its chunks cannot be counted.
    written: Option<u64>,
    /// Why the written chunks are not counted, when the grid is not too large.
    not_counted: Option<String>,
}

impl Counts {
    fn json(&self) -> Json {
        let mut counts = json!({
            "total": self.total,
            "written": self.written,
            "missing": self.written.map(|w| self.total - w),
        });
        if let Some(why) = &self.not_counted {
            counts["not_counted"] = Json::from(why.clone());
        }
        counts
    }

    fn text(&self, what: &str) -> String {
        match self.written {
            Some(written) => format!(
                "{written} of {} {what} written, {} missing",
                self.total,
                self.total - written
            ),
            None => format!(
                "{} {what} ({})",
                self.total,
                self.not_counted.as_deref().unwrap_or("too many to count")
            ),
        }
    }
}

/// What `inspect` shows.
struct Info {
    shape: Vec<u64>,
    /// The names of the dimensions (v3 `dimension_names`), where written.
    dimension_names: Option<Vec<Option<String>>>,
    chunks: Vec<u64>,
    shards: Option<Vec<u64>>,
    /// How shards are read (sharded arrays).
    shard_reads: Option<String>,
    chunk_keys: String,
    codecs: String,
    byte_order: String,
    type_summary: String,
    elements: u64,
    uncompressed: u64,
    stored: Option<u64>,
    grid: Counts,
    inner: Option<Counts>,
    leaves: Vec<Leaf>,
    /// The variants of each leaf that holds an enum (the `zarrdt:enums` attribute).
    variants: Vec<Option<Variants>>,
}

pub(crate) fn inspect(opened: &Opened, as_json: bool, out: &mut impl Write) -> Result<(), Failure> {
    let info = gather(opened)?;
    if as_json {
        write_json(opened, &to_json(opened, &info)?, out)?;
    } else {
        write_text(opened, &info, out)?;
    }
    Ok(())
}

fn gather(opened: &Opened) -> Result<Info, Failure> {
    let array = &opened.array;
    let shape = array.shape().to_vec();
    let elements: u64 = shape.iter().product();
    let itemsize = opened.stored.size() as u64;
    let sharded = array.is_sharded();
    let shards = sharded.then(|| opened.grid_chunk_shape());
    let (grid, stored, written_shards) = count_chunks(opened)?;
    let inner = if sharded {
        Some(count_inner(opened, &written_shards)?)
    } else {
        None
    };
    Ok(Info {
        chunks: opened.read_chunk_shape(),
        shard_reads: sharded.then(|| shard_reads(opened)),
        shards,
        chunk_keys: chunk_keys(opened),
        codecs: codecs(opened),
        byte_order: byte_order(opened),
        type_summary: type_summary(&opened.stored),
        elements,
        uncompressed: elements.saturating_mul(itemsize),
        stored,
        grid,
        inner,
        variants: {
            let enums = EnumNames::from_attributes(array.attributes());
            let leaves = opened.stored.leaves();
            leaves
                .iter()
                .map(|leaf| enums.of(&opened.stored, leaf.path()).cloned())
                .collect()
        },
        leaves: opened.stored.leaves(),
        dimension_names: array.dimension_names().clone(),
        shape,
    })
}

/// The chunk grid's counts, the bytes stored in its chunks, and which chunks are written.
#[allow(clippy::type_complexity)]
fn count_chunks(opened: &Opened) -> Result<(Counts, Option<u64>, Vec<Vec<u64>>), Failure> {
    let array = &opened.array;
    let grid_shape = array.chunk_grid_shape().to_vec();
    let total: u64 = grid_shape.iter().product();
    if total > MAX_COUNTED {
        return Ok((
            Counts {
                total,
                written: None,
                not_counted: None,
            },
            None,
            Vec::new(),
        ));
    }
    let mut written = Vec::new();
    let mut stored = 0u64;
    for indices in &ArraySubset::new_with_shape(grid_shape).indices() {
        let key = array.chunk_key(&indices);
        if let Some(size) = opened
            .store
            .size_key(&key)
            .map_err(|e| opened.fail(format!("chunk {key}: {e}")))?
        {
            stored += size;
            written.push(indices.to_vec());
        }
    }
    Ok((
        Counts {
            total,
            written: Some(written.len() as u64),
            not_counted: None,
        },
        Some(stored),
        written,
    ))
}

/// The inner chunks of a sharded array: how many there are, and how many the written shards
/// hold, from their indexes as the library reads and checks them (`ShardIndex`: the index
/// decoded through its codecs, a `crc32c` verified). Shards that codecs after
/// `sharding_indexed` encode whole are not read (their index is inside the encoded shard), and
/// an index of no fixed size leaves the count out.
fn count_inner(opened: &Opened, written_shards: &[Vec<u64>]) -> Result<Counts, Failure> {
    let array = &opened.array;
    let total: u64 = array.subchunk_grid().grid_shape().iter().product();
    let mut not_counted = Counts {
        total,
        written: None,
        not_counted: None,
    };
    let encoders = whole_shard_codecs(opened);
    if !encoders.is_empty() {
        not_counted.not_counted = Some(format!(
            "not counted: each shard's index is inside the {}-encoded shard",
            encoders.join("+")
        ));
        return Ok(not_counted);
    }
    if total > MAX_COUNTED {
        return Ok(not_counted);
    }
    let mut written = 0;
    for shard in written_shards {
        match ShardIndex::read(array, shard).map_err(|e| opened.fail(one_line(&e)))? {
            Some(index) => written += index.written() as u64,
            None => return Ok(not_counted),
        }
    }
    Ok(Counts {
        total,
        written: Some(written),
        not_counted: None,
    })
}

/// The names of the bytes-to-bytes codecs after `sharding_indexed` in a v3 array's codecs:
/// they encode each whole shard, whose index is then inside the encoded shard, and no part of
/// a shard can be read without reading and decoding all of it.
fn whole_shard_codecs(opened: &Opened) -> Vec<String> {
    let Metadata::V3(v3) = &opened.metadata else {
        return Vec::new();
    };
    let names: Vec<String> = v3.codecs.iter().map(codec_name).collect();
    names
        .iter()
        .position(|name| name == "sharding_indexed")
        .map(|at| names[at + 1..].to_vec())
        .unwrap_or_default()
}

/// A codec's name as its metadata writes it (`"zstd"` or `{"name": "zstd", …}`).
fn codec_name(codec: &Json) -> String {
    codec
        .as_str()
        .or_else(|| codec.get("name").and_then(Json::as_str))
        .unwrap_or("?")
        .to_owned()
}

/// How a sharded array's shards are read: in part (an inner chunk through the index) or only
/// whole (when codecs encode each whole shard).
fn shard_reads(opened: &Opened) -> String {
    let encoders = whole_shard_codecs(opened);
    if encoders.is_empty() {
        return "in part: an inner chunk through the shard's index".into();
    }
    format!(
        "whole shards only: {} encode{} each whole shard after sharding_indexed, so its index \
         is inside the encoded shard and no part of it is read without decoding all of it",
        encoders.join(" and "),
        if encoders.len() == 1 { "s" } else { "" }
    )
}

fn chunk_keys(opened: &Opened) -> String {
    let (name, separator) = match &opened.metadata {
        Metadata::V2(v2) => ("v2", v2.dimension_separator),
        Metadata::V3(v3) if v3.v2_chunk_keys => ("v2", v3.separator),
        Metadata::V3(v3) => ("default", v3.separator),
    };
    format!("{name}, separator {:?}", separator.to_string())
}

/// A codec as `name(key=value, …)`, nested codec lists in brackets.
fn codec_text(codec: &Json) -> String {
    let (name, configuration) = match codec {
        Json::String(name) => (name.clone(), None),
        _ => (
            codec["name"]
                .as_str()
                .or_else(|| codec["id"].as_str())
                .unwrap_or("?")
                .to_owned(),
            codec
                .get("configuration")
                .and_then(Json::as_object)
                .cloned()
                .or_else(|| {
                    // v2: the object itself, without its id.
                    codec.get("id")?;
                    let mut object = codec.as_object()?.clone();
                    object.remove("id");
                    Some(object)
                }),
        ),
    };
    let Some(configuration) = configuration.filter(|c| !c.is_empty()) else {
        return name;
    };
    let settings: Vec<String> = configuration
        .iter()
        .map(|(key, value)| {
            let text = match value {
                Json::Array(items)
                    if items.iter().all(|i| i.is_object() || i.is_string())
                        && key.contains("codecs") =>
                {
                    format!(
                        "[{}]",
                        items.iter().map(codec_text).collect::<Vec<_>>().join(", ")
                    )
                }
                Json::String(text) => text.clone(),
                other => other.to_string(),
            };
            format!("{key}={text}")
        })
        .collect();
    format!("{name}({})", settings.join(", "))
}

fn codecs(opened: &Opened) -> String {
    match &opened.metadata {
        Metadata::V2(v2) => {
            let mut parts = Vec::new();
            if let Some(filters) = v2.filters.as_array() {
                parts.extend(filters.iter().map(|f| format!("filter {}", codec_text(f))));
            }
            parts.push(match &v2.compressor {
                Json::Null => "no compressor".to_owned(),
                compressor => format!("compressor {}", codec_text(compressor)),
            });
            parts.push(format!("order {}", v2.order));
            parts.join(", ")
        }
        Metadata::V3(v3) => v3
            .codecs
            .iter()
            .map(codec_text)
            .collect::<Vec<_>>()
            .join(" -> "),
    }
}

fn byte_order(opened: &Opened) -> String {
    if opened.zarr_format() == 2 {
        return match opened.stored.uniform_endian() {
            Ok(Some(endian)) => format!("{endian} (the dtype's)"),
            Ok(None) => "none (single-byte values only)".into(),
            Err(_) => "mixed: each field its own (see the leaves)".into(),
        };
    }
    match (opened.codec_endian(), opened.stored.has_endianness()) {
        (_, false) => "none (single-byte values only)".into(),
        (Some(endian), true) => format!("{endian} (the bytes codec's endian)"),
        (None, true) => "little (the bytes codec has no endian; read as little-endian)".into(),
    }
}

fn type_summary(layout: &Layout) -> String {
    match layout {
        Layout::Struct(structure) => {
            let leaves = layout.leaves().len();
            format!(
                "struct of {} field{}, {leaves} lea{}",
                structure.fields().len(),
                if structure.fields().len() == 1 {
                    ""
                } else {
                    "s"
                },
                if leaves == 1 { "f" } else { "ves" }
            )
        }
        Layout::Subarray(array) => format!("subarray of shape {:?}", array.shape()),
        _ => zarr_type(
            layout
                .leaves()
                .first()
                .map_or(ScalarType::UInt8, Leaf::scalar),
        ),
    }
}

/// A scalar type's name, with its parameters: `numpy.datetime64[10s]`, `raw_bytes[3]`.
fn zarr_type(scalar: ScalarType) -> String {
    match scalar {
        ScalarType::DateTime64(config) | ScalarType::TimeDelta64(config) => {
            let scale = match config.scale_factor() {
                1 => String::new(),
                scale => scale.to_string(),
            };
            format!("{}[{scale}{}]", scalar.name(), config.unit())
        }
        ScalarType::FixedLengthUtf32 { chars } => format!("{}[{chars}]", scalar.name()),
        ScalarType::RawBytes { size } | ScalarType::NullTerminatedBytes { size } => {
            format!("{}[{size}]", scalar.name())
        }
        other => other.name(),
    }
}

/// A leaf's path for the table: `value` for a scalar element.
fn leaf_path(leaf: &Leaf) -> String {
    if leaf.path().is_root() {
        "value".into()
    } else {
        leaf.path().to_string()
    }
}

fn typestr(leaf: &Leaf) -> String {
    leaf.scalar()
        .typestr(leaf.layout().endian().unwrap_or(Endian::Little))
        .unwrap_or_else(|_| "-".into())
}

fn leaf_order(leaf: &Leaf) -> String {
    leaf.layout()
        .endian()
        .map_or_else(|| "-".into(), |endian| endian.to_string())
}

/// `×3`, `×3 every 8 bytes` for a leaf in subarrays (outermost first).
fn repeats(leaf: &Leaf) -> String {
    leaf.repeats()
        .iter()
        .map(|repeat| {
            if repeat.stride() == leaf.scalar().size() {
                format!("x{}", repeat.count())
            } else {
                format!("x{} every {} B", repeat.count(), repeat.stride())
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes the `--json` document: `members` (pretty-printed) with the fill value after
/// `itemsize`, written from its bytes as it is made (it may be megabytes of JSON).
fn write_json(
    opened: &Opened,
    members: &[(&'static str, Json)],
    out: &mut impl Write,
) -> Result<(), Failure> {
    out.write_all(b"{")?;
    for (index, (name, value)) in members.iter().enumerate() {
        if index > 0 {
            out.write_all(b",")?;
        }
        let value = serde_json::to_string_pretty(value)
            .map_err(|e| opened.fail(e))?
            .replace('\n', "\n  ");
        write!(out, "\n  \"{name}\": {value}")?;
        if *name == "itemsize" {
            out.write_all(b",\n  \"fill_value\": ")?;
            opened.write_fill_json(&opened.native, out)?;
        }
    }
    out.write_all(b"\n}\n")?;
    Ok(())
}

fn to_json(opened: &Opened, info: &Info) -> Result<Vec<(&'static str, Json)>, Failure> {
    let leaves: Vec<Json> = info
        .leaves
        .iter()
        .zip(&info.variants)
        .map(|(leaf, variants)| {
            let mut leaf = json!({
                "path": leaf_path(leaf),
                "zarr_type": zarr_type(leaf.scalar()),
                "numpy_typestr": typestr(leaf),
                "offset": leaf.offset(),
                "size": leaf.scalar().size(),
                "byte_order": leaf.layout().endian().map(|e| e.to_string()),
                "repeats": leaf.repeats().iter().map(|r| json!({"count": r.count(), "stride": r.stride()})).collect::<Vec<_>>(),
            });
            if let Some(variants) = variants {
                leaf["variants"] = variants.json();
            }
            leaf
        })
        .collect();
    let units = bytemap::units(&opened.stored);
    let padding: Vec<Json> = units
        .iter()
        .filter(|unit| unit.padding)
        .map(|unit| json!({"offset": unit.offset, "size": unit.size}))
        .collect();
    let codecs = match &opened.metadata {
        Metadata::V2(v2) => json!({
            "compressor": v2.compressor,
            "filters": v2.filters,
            "order": v2.order.to_string(),
        }),
        Metadata::V3(v3) => json!(v3.codecs),
    };
    Ok(vec![
        ("path", json!(opened.path.clone())),
        ("zarr_format", json!(opened.zarr_format())),
        ("shape", json!(info.shape)),
        ("dimension_names", json!(info.dimension_names)),
        ("chunks", json!(info.chunks)),
        ("shards", json!(info.shards)),
        ("shard_reads", json!(info.shard_reads)),
        (
            "whole_shard_codecs",
            json!(info.shards.as_ref().map(|_| whole_shard_codecs(opened))),
        ),
        ("chunk_keys", json!(info.chunk_keys)),
        ("codecs", json!(codecs)),
        ("codecs_text", json!(info.codecs)),
        ("byte_order", json!(info.byte_order)),
        ("data_type", opened.data_type_json()?),
        ("itemsize", json!(opened.stored.size())),
        ("elements", json!(info.elements)),
        ("uncompressed_bytes", json!(info.uncompressed)),
        ("stored_bytes", json!(info.stored)),
        ("chunk_count", json!(info.grid.json())),
        (
            "inner_chunk_count",
            json!(info.inner.as_ref().map(Counts::json)),
        ),
        ("leaves", json!(leaves)),
        ("padding", json!(padding)),
    ])
}

fn write_text(opened: &Opened, info: &Info, out: &mut impl Write) -> Result<(), Failure> {
    let what = match &opened.stored {
        Layout::Struct(_) => "records",
        _ => "scalars",
    };
    writeln!(
        out,
        "{}: Zarr v{} array of {what}",
        opened.path,
        opened.zarr_format()
    )?;
    let mut line = |name: &str, text: String| writeln!(out, "  {name:<14}{text}");
    let list = |extents: &[u64]| {
        format!(
            "[{}]",
            extents
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    line("shape", list(&info.shape))?;
    if let Some(names) = &info.dimension_names {
        // As `--json` writes them: each name a JSON string (control characters escaped), an
        // unnamed dimension `null`.
        let names: Vec<String> = names.iter().map(|name| json!(name).to_string()).collect();
        line("dimensions", format!("[{}]", names.join(", ")))?;
    }
    match &info.shards {
        Some(shards) => line(
            "chunks",
            format!(
                "{} (inner), in shards of {}",
                list(&info.chunks),
                list(shards)
            ),
        )?,
        None => line("chunks", list(&info.chunks))?,
    }
    if let Some(reads) = &info.shard_reads {
        line("shard reads", reads.clone())?;
    }
    line("chunk keys", info.chunk_keys.clone())?;
    line("codecs", info.codecs.clone())?;
    line("byte order", info.byte_order.clone())?;
    line("data type", info.type_summary.clone())?;
    let itemsize = opened.stored.size();
    let packing = if opened.stored.has_padding() {
        "with padding"
    } else {
        "packed"
    };
    line("itemsize", format!("{itemsize} bytes ({packing})"))?;
    let mut fill = Head::default();
    opened.write_fill_json(&opened.native, &mut fill)?;
    line("fill value", fill.elided())?;
    line(
        "size",
        format!(
            "{} elements, {} uncompressed{}",
            info.elements,
            bytes(info.uncompressed),
            match info.stored {
                Some(stored) if stored > 0 => {
                    #[allow(clippy::cast_precision_loss)] // a ratio to one decimal
                    let ratio = info.uncompressed as f64 / stored as f64;
                    format!(", {} stored (ratio {ratio:.1})", bytes(stored))
                }
                Some(_) => ", nothing stored".to_owned(),
                None => String::new(),
            }
        ),
    )?;
    match &info.inner {
        Some(inner) => {
            line("shards", info.grid.text("shards"))?;
            line("inner chunks", inner.text("inner chunks"))?;
        }
        None => line("chunk count", info.grid.text("chunks"))?,
    }

    // The leaves.
    let header = [
        "leaf",
        "Zarr type",
        "NumPy",
        "offset",
        "size",
        "byte order",
        "repeat",
    ];
    let rows: Vec<[String; 7]> = info
        .leaves
        .iter()
        .map(|leaf| {
            [
                leaf_path(leaf),
                zarr_type(leaf.scalar()),
                typestr(leaf),
                leaf.offset().to_string(),
                leaf.scalar().size().to_string(),
                leaf_order(leaf),
                repeats(leaf),
            ]
        })
        .collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.width());
        }
    }
    let show_repeat = rows.iter().any(|row| !row[6].is_empty());
    let columns = if show_repeat { 7 } else { 6 };
    let format_row = |cells: &[String]| {
        let mut text = String::from("  ");
        for (i, cell) in cells.iter().take(columns).enumerate() {
            let pad = widths[i].saturating_sub(cell.width());
            // Offsets and sizes right-aligned.
            if i == 3 || i == 4 {
                text.push_str(&" ".repeat(pad));
                text.push_str(cell);
            } else {
                text.push_str(cell);
                text.push_str(&" ".repeat(pad));
            }
            text.push_str("  ");
        }
        text.trim_end().to_owned()
    };
    writeln!(out)?;
    let header: Vec<String> = header.iter().map(|h| (*h).to_owned()).collect();
    writeln!(out, "{}", format_row(&header))?;
    for row in &rows {
        writeln!(out, "{}", format_row(row))?;
    }

    // The variants of enum leaves, as the `zarrdt:enums` attribute names them.
    let enums: Vec<(String, &Variants)> = info
        .leaves
        .iter()
        .zip(&info.variants)
        .filter_map(|(leaf, variants)| Some((leaf_path(leaf), variants.as_ref()?)))
        .collect();
    if !enums.is_empty() {
        writeln!(out)?;
        writeln!(out, "  enum variants (attribute \"{ENUMS_ATTRIBUTE}\")")?;
        let width = enums.iter().map(|(path, _)| path.width()).max();
        for (path, variants) in &enums {
            let pad = width.unwrap_or(0).saturating_sub(path.width());
            writeln!(out, "  {path}{}  {}", " ".repeat(pad), variants.describe())?;
        }
    }

    // The byte map.
    writeln!(out)?;
    writeln!(
        out,
        "  byte map of one record ({itemsize} byte{})",
        if itemsize == 1 { "" } else { "s" }
    )?;
    for map_line in bytemap::render(&bytemap::units(&opened.stored), itemsize, "  ") {
        writeln!(out, "{map_line}")?;
    }
    Ok(())
}

/// The most of a fill value's JSON the text form shows.
const FILL_SHOWN: usize = 400;

/// The first [`FILL_SHOWN`] bytes written to it, and how many there were in all.
#[derive(Default)]
struct Head {
    kept: Vec<u8>,
    total: usize,
}

impl Write for Head {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let room = FILL_SHOWN.saturating_sub(self.kept.len());
        self.kept.extend_from_slice(&bytes[..room.min(bytes.len())]);
        self.total += bytes.len();
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Head {
    /// The text, cut after [`FILL_SHOWN`] bytes with its full length said (the `--json` form
    /// has all of it).
    fn elided(&self) -> String {
        if self.total <= FILL_SHOWN {
            return String::from_utf8_lossy(&self.kept).into_owned();
        }
        let mut end = self.kept.len();
        // Cut at a character boundary of the UTF-8 text.
        while end > 0 && end < self.kept.len() && (self.kept[end] & 0xC0) == 0x80 {
            end -= 1;
        }
        format!(
            "{}… ({} bytes of JSON; --json shows all of it)",
            String::from_utf8_lossy(&self.kept[..end]),
            self.total
        )
    }
}
