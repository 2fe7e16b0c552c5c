//! Writing elements straight from the bytes zarrs hands over, exactly as
//! [`Layout::value_to_json`] writes them (the dump contract's element encoding), without
//! building a value tree per element.
//!
//! A [`Renderer`] compiles a layout once into a plan: records with their JSON keys, subarrays
//! with their strides, and numeric leaves read in place. `bool`, the integers, `float32`,
//! `float64` and the complex types are written here (`float16`, text, bytes and time leaves go
//! through the library, one leaf at a time); anything the plan cannot write as the library
//! does (a `bool` byte other than 0 or 1) goes through the library for the whole element,
//! which reports the error. The unit tests hold the plan to the library's output.
//! Floats are written by the library's own fill value writer, value by value, so that the
//! plan and the library cannot disagree on the shortest number.

use std::io::Write as _;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

use serde_json::Value as Json;
use zarrdt::Endian;
use zarrdt::layout::{Layout, ScalarLayout};
use zarrdt::types::ScalarType;
use zarrdt::value::Value;

use crate::cells;

/// One element type, ready to write many elements.
pub(crate) struct Renderer {
    layout: Layout,
    plan: Node,
}

enum Node {
    Leaf(usize, Leaf),
    /// Fields with their JSON-quoted names.
    Struct(Vec<(String, Node)>),
    /// A subarray: its shape, the size of one item, the item.
    Array(Vec<usize>, usize, Box<Node>),
}

enum Leaf {
    Bool,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
    C64,
    C128,
    /// `r<N>` (the type): its `N / 8` bytes, written as a list of numbers.
    RawBits(ScalarType),
    /// `raw_bytes` or `null_terminated_bytes` (the type): base64 of its bytes (without the
    /// trailing zeros of `null_terminated_bytes`).
    Base64(ScalarType),
    /// Written by the library: the leaf's layout (native byte order) and type.
    Library(Layout, ScalarType),
}

/// The plan cannot write this element as the library does.
struct Fallback;

impl Renderer {
    /// A renderer for elements of `layout` (native byte order).
    pub(crate) fn new(layout: &Layout) -> Self {
        Renderer {
            layout: layout.clone(),
            plan: compile(layout, 0),
        }
    }

    /// The element's JSON, appended to `out`; an error message if its bytes are not a value.
    pub(crate) fn json(&self, bytes: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
        let start = out.len();
        if write_json(&self.plan, bytes, 0, out).is_ok() {
            return Ok(());
        }
        out.truncate(start);
        let json = self.library_json(bytes)?;
        serde_json::to_writer(out, &json).map_err(|e| e.to_string())
    }

    /// The element's JSON, written to `out` as it is made (no copy of it in memory, however
    /// large the element); an error message if its bytes are not a value, in which case part
    /// of it may have been written.
    pub(crate) fn json_to(
        &self,
        bytes: &[u8],
        out: &mut impl std::io::Write,
    ) -> Result<(), String> {
        let mut sink = Streamed { out, error: None };
        match write_json(&self.plan, bytes, 0, &mut sink) {
            Ok(()) => Ok(()),
            Err(Fallback) => Err(match sink.error {
                Some(error) => error.to_string(),
                None => match self.library_json(bytes) {
                    Err(message) => message,
                    Ok(_) => "the value cannot be written".to_owned(),
                },
            }),
        }
    }

    /// The element's cells (one per leaf item, as [`cells::cells`] makes them), appended to
    /// `out`.
    pub(crate) fn cells(&self, bytes: &[u8], out: &mut Vec<String>) -> Result<(), String> {
        let start = out.len();
        if write_cells(&self.plan, bytes, 0, out).is_ok() {
            return Ok(());
        }
        out.truncate(start);
        let json = self.library_json(bytes)?;
        cells::cells(&self.layout, &json, out);
        Ok(())
    }

    fn library_json(&self, bytes: &[u8]) -> Result<Json, String> {
        let value = self.layout.decode_value(bytes).map_err(|e| e.to_string())?;
        self.layout.value_to_json(&value).map_err(|e| e.to_string())
    }
}

fn compile(layout: &Layout, offset: usize) -> Node {
    match layout {
        Layout::Struct(structure) => Node::Struct(
            structure
                .fields()
                .iter()
                .map(|field| {
                    (
                        Json::from(field.name()).to_string(),
                        compile(field.layout(), offset + field.offset()),
                    )
                })
                .collect(),
        ),
        Layout::Subarray(array) => Node::Array(
            array.shape().to_vec(),
            array.element().size(),
            Box::new(compile(array.element(), offset)),
        ),
        Layout::Scalar(scalar) => Node::Leaf(offset, leaf(*scalar)),
        other => Node::Leaf(offset, Leaf::Library(other.clone(), ScalarType::UInt8)),
    }
}

fn leaf(scalar: ScalarLayout) -> Leaf {
    match scalar.scalar() {
        ScalarType::Bool => Leaf::Bool,
        ScalarType::Int8 => Leaf::I8,
        ScalarType::Int16 => Leaf::I16,
        ScalarType::Int32 => Leaf::I32,
        ScalarType::Int64 => Leaf::I64,
        ScalarType::UInt8 => Leaf::U8,
        ScalarType::UInt16 => Leaf::U16,
        ScalarType::UInt32 => Leaf::U32,
        ScalarType::UInt64 => Leaf::U64,
        ScalarType::Float32 => Leaf::F32,
        ScalarType::Float64 => Leaf::F64,
        ScalarType::Complex64 => Leaf::C64,
        ScalarType::Complex128 => Leaf::C128,
        raw @ ScalarType::Raw { .. } => Leaf::RawBits(raw),
        bytes @ (ScalarType::RawBytes { .. } | ScalarType::NullTerminatedBytes { .. }) => {
            Leaf::Base64(bytes)
        }
        other => Leaf::Library(
            Layout::Scalar(ScalarLayout::with_endian(other, Endian::NATIVE)),
            other,
        ),
    }
}

/// The bytes of a `raw_bytes` or `null_terminated_bytes` value that its base64 holds: all of
/// them, or those before the trailing zeros (as NumPy reads `S<n>`).
fn base64_content(scalar: ScalarType, raw: &[u8]) -> &[u8] {
    match scalar {
        ScalarType::NullTerminatedBytes { .. } => {
            let end = raw
                .iter()
                .rposition(|&byte| byte != 0)
                .map_or(0, |last| last + 1);
            &raw[..end]
        }
        _ => raw,
    }
}

/// The decimal digits of a byte, without allocating.
struct Digits {
    buffer: [u8; 3],
    start: usize,
}

impl Digits {
    fn text(&mut self) -> &[u8] {
        &self.buffer[self.start..]
    }
}

fn itoa_u8(mut value: u8) -> Digits {
    let mut buffer = [0u8; 3];
    let mut start = 3;
    loop {
        start -= 1;
        buffer[start] = b'0' + value % 10;
        value /= 10;
        if value == 0 {
            return Digits { buffer, start };
        }
    }
}

fn take<const N: usize>(bytes: &[u8], at: usize) -> Result<[u8; N], Fallback> {
    bytes
        .get(at..at + N)
        .and_then(|b| b.try_into().ok())
        .ok_or(Fallback)
}

/// Calls `visit` with the base offset of every item of a subarray, in C order, with the
/// nesting: `open(depth)` before a dimension's items, `close` after, `separate` between.
fn for_each_item(
    shape: &[usize],
    stride: usize,
    base: usize,
    visit: &mut dyn FnMut(Item) -> Result<(), Fallback>,
) -> Result<(), Fallback> {
    fn go(
        shape: &[usize],
        stride: usize,
        base: &mut usize,
        visit: &mut dyn FnMut(Item) -> Result<(), Fallback>,
    ) -> Result<(), Fallback> {
        let Some((&extent, rest)) = shape.split_first() else {
            visit(Item::At(*base))?;
            *base += stride;
            return Ok(());
        };
        visit(Item::Open)?;
        for i in 0..extent {
            if i > 0 {
                visit(Item::Separate)?;
            }
            go(rest, stride, base, visit)?;
        }
        visit(Item::Close)
    }
    let mut at = base;
    go(shape, stride, &mut at, visit)
}

enum Item {
    Open,
    Separate,
    Close,
    At(usize),
}

/// Where element JSON goes: a buffer, or a stream (whose first error is kept).
trait JsonOut {
    fn put(&mut self, bytes: &[u8]) -> Result<(), Fallback>;
}

impl JsonOut for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) -> Result<(), Fallback> {
        self.extend_from_slice(bytes);
        Ok(())
    }
}

/// A stream being written, with the error that stopped it.
struct Streamed<'a, W> {
    out: &'a mut W,
    error: Option<std::io::Error>,
}

impl<W: std::io::Write> JsonOut for Streamed<'_, W> {
    fn put(&mut self, bytes: &[u8]) -> Result<(), Fallback> {
        self.out.write_all(bytes).map_err(|error| {
            self.error = Some(error);
            Fallback
        })
    }
}

fn write_json(
    node: &Node,
    bytes: &[u8],
    base: usize,
    out: &mut impl JsonOut,
) -> Result<(), Fallback> {
    match node {
        Node::Struct(fields) => {
            out.put(b"{")?;
            for (i, (name, field)) in fields.iter().enumerate() {
                if i > 0 {
                    out.put(b",")?;
                }
                out.put(name.as_bytes())?;
                out.put(b":")?;
                write_json(field, bytes, base, out)?;
            }
            out.put(b"}")
        }
        Node::Array(shape, stride, item) => {
            for_each_item(shape, *stride, base, &mut |step| match step {
                Item::Open => out.put(b"["),
                Item::Separate => out.put(b","),
                Item::Close => out.put(b"]"),
                Item::At(at) => write_json(item, bytes, at, out),
            })
        }
        Node::Leaf(offset, leaf) => {
            // One leaf's JSON is small, except raw bytes, written byte by byte.
            if let Leaf::RawBits(scalar) = leaf {
                let at = base + offset;
                let raw = bytes.get(at..at + scalar.size()).ok_or(Fallback)?;
                out.put(b"[")?;
                for (i, byte) in raw.iter().enumerate() {
                    if i > 0 {
                        out.put(b",")?;
                    }
                    let mut digits = itoa_u8(*byte);
                    out.put(digits.text())?;
                }
                return out.put(b"]");
            }
            if let Leaf::Base64(scalar) = leaf {
                let at = base + offset;
                let raw =
                    base64_content(*scalar, bytes.get(at..at + scalar.size()).ok_or(Fallback)?);
                out.put(b"\"")?;
                // Whole groups of three bytes encode on their own: the text is the same.
                let mut text = [0u8; 4096];
                for part in raw.chunks(3 * 1024) {
                    let written = BASE64.encode_slice(part, &mut text).map_err(|_| Fallback)?;
                    out.put(&text[..written])?;
                }
                return out.put(b"\"");
            }
            let mut text = Vec::new();
            write_leaf(leaf, bytes, base + offset, &mut text)?;
            out.put(&text)
        }
    }
}

fn write_cells(
    node: &Node,
    bytes: &[u8],
    base: usize,
    out: &mut Vec<String>,
) -> Result<(), Fallback> {
    match node {
        Node::Struct(fields) => fields
            .iter()
            .try_for_each(|(_, field)| write_cells(field, bytes, base, out)),
        Node::Array(shape, stride, item) => for_each_item(shape, *stride, base, &mut |step| {
            if let Item::At(at) = step {
                write_cells(item, bytes, at, out)?;
            }
            Ok(())
        }),
        Node::Leaf(offset, leaf) => {
            let at = base + offset;
            // Floats: the number, `NaN` for every NaN, `inf`, `-inf`.
            let float_cell = |wide: f64, number: &dyn Fn(&mut Vec<u8>) -> Result<(), Fallback>| {
                Ok(if wide.is_nan() {
                    "NaN".to_owned()
                } else if wide.is_infinite() {
                    if wide > 0.0 { "inf" } else { "-inf" }.to_owned()
                } else {
                    let mut text = Vec::new();
                    number(&mut text)?;
                    String::from_utf8(text).map_err(|_| Fallback)?
                })
            };
            match leaf {
                Leaf::F32 => {
                    let value = f32::from_ne_bytes(take(bytes, at)?);
                    out.push(float_cell(f64::from(value), &|text| {
                        write_f32(value, text)
                    })?);
                    return Ok(());
                }
                Leaf::F64 => {
                    let value = f64::from_ne_bytes(take(bytes, at)?);
                    out.push(float_cell(value, &|text| write_f64(value, text))?);
                    return Ok(());
                }
                _ => {}
            }
            let mut text = Vec::new();
            write_leaf(leaf, bytes, at, &mut text)?;
            let scalar = match leaf {
                Leaf::C64 => ScalarType::Complex64,
                Leaf::C128 => ScalarType::Complex128,
                Leaf::Library(_, scalar) | Leaf::RawBits(scalar) | Leaf::Base64(scalar) => *scalar,
                // Numbers and `true`/`false`: the cell is the JSON text.
                _ => {
                    out.push(String::from_utf8(text).map_err(|_| Fallback)?);
                    return Ok(());
                }
            };
            let json: Json = serde_json::from_slice(&text).map_err(|_| Fallback)?;
            out.push(cells::scalar_text(scalar, &json));
            Ok(())
        }
    }
}

fn write_leaf(leaf: &Leaf, bytes: &[u8], at: usize, out: &mut Vec<u8>) -> Result<(), Fallback> {
    // Writing to a Vec cannot fail.
    let _ = match leaf {
        Leaf::Bool => match take::<1>(bytes, at)? {
            [0] => out.write_all(b"false"),
            [1] => out.write_all(b"true"),
            _ => return Err(Fallback),
        },
        Leaf::I8 => write!(out, "{}", i8::from_ne_bytes(take(bytes, at)?)),
        Leaf::I16 => write!(out, "{}", i16::from_ne_bytes(take(bytes, at)?)),
        Leaf::I32 => write!(out, "{}", i32::from_ne_bytes(take(bytes, at)?)),
        Leaf::I64 => write!(out, "{}", i64::from_ne_bytes(take(bytes, at)?)),
        Leaf::U8 => write!(out, "{}", take::<1>(bytes, at)?[0]),
        Leaf::U16 => write!(out, "{}", u16::from_ne_bytes(take(bytes, at)?)),
        Leaf::U32 => write!(out, "{}", u32::from_ne_bytes(take(bytes, at)?)),
        Leaf::U64 => write!(out, "{}", u64::from_ne_bytes(take(bytes, at)?)),
        Leaf::F32 => return write_f32(f32::from_ne_bytes(take(bytes, at)?), out),
        Leaf::F64 => return write_f64(f64::from_ne_bytes(take(bytes, at)?), out),
        Leaf::C64 => {
            out.push(b'[');
            write_f32(f32::from_ne_bytes(take(bytes, at)?), out)?;
            out.push(b',');
            write_f32(f32::from_ne_bytes(take(bytes, at + 4)?), out)?;
            out.push(b']');
            Ok(())
        }
        Leaf::C128 => {
            out.push(b'[');
            write_f64(f64::from_ne_bytes(take(bytes, at)?), out)?;
            out.push(b',');
            write_f64(f64::from_ne_bytes(take(bytes, at + 8)?), out)?;
            out.push(b']');
            Ok(())
        }
        Leaf::RawBits(scalar) => {
            let raw = bytes.get(at..at + scalar.size()).ok_or(Fallback)?;
            serde_json::to_writer(&mut *out, raw).map_err(|_| Fallback)?;
            Ok(())
        }
        Leaf::Base64(scalar) => {
            let raw = bytes.get(at..at + scalar.size()).ok_or(Fallback)?;
            let text = BASE64.encode(base64_content(*scalar, raw));
            serde_json::to_writer(&mut *out, &text).map_err(|_| Fallback)?;
            Ok(())
        }
        Leaf::Library(layout, _) => {
            let slice = bytes.get(at..at + layout.size()).ok_or(Fallback)?;
            let value = layout.decode_value(slice).map_err(|_| Fallback)?;
            let json = layout.value_to_json(&value).map_err(|_| Fallback)?;
            serde_json::to_writer(&mut *out, &json).map_err(|_| Fallback)?;
            Ok(())
        }
    };
    Ok(())
}

/// A `float32` as the library writes it (its Zarr v3 fill value form: the shortest number
/// that reads back, `"NaN"`, `"0x…"` for other NaNs, `"Infinity"`, `"-Infinity"`).
fn write_f32(value: f32, out: &mut Vec<u8>) -> Result<(), Fallback> {
    write_scalar(ScalarType::Float32, &Value::Float32(value), out)
}

/// A `float64` as the library writes it.
fn write_f64(value: f64, out: &mut Vec<u8>) -> Result<(), Fallback> {
    write_scalar(ScalarType::Float64, &Value::Float64(value), out)
}

fn write_scalar(scalar: ScalarType, value: &Value, out: &mut Vec<u8>) -> Result<(), Fallback> {
    let json = scalar.fill_value_to_v3_json(value).map_err(|_| Fallback)?;
    serde_json::to_writer(out, &json).map_err(|_| Fallback)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;
    use zarrdt::value::Value;

    /// The library's JSON of one `value` of `layout`, as text.
    fn library_text(layout: &Layout, value: &Value) -> String {
        layout.value_to_json(value).unwrap().to_string()
    }

    /// A small deterministic generator (xorshift).
    struct Bits(u64);

    impl Bits {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    fn f32_text(value: f32) -> String {
        let mut out = Vec::new();
        write_f32(value, &mut out).unwrap_or_else(|_| panic!("{value}"));
        String::from_utf8(out).unwrap()
    }

    fn f64_text(value: f64) -> String {
        let mut out = Vec::new();
        write_f64(value, &mut out).unwrap_or_else(|_| panic!("{value}"));
        String::from_utf8(out).unwrap()
    }

    fn scalar(s: ScalarType) -> Layout {
        Layout::Scalar(ScalarLayout::with_endian(s, Endian::NATIVE))
    }

    /// The plan writes floats through the library's own writer (the shortest number itself is
    /// tested in zarrdt-core): here, that the leaf writers hand it the right type and value.
    #[test]
    fn floats_as_the_library_writes_them() {
        let f32_layout = scalar(ScalarType::Float32);
        let f64_layout = scalar(ScalarType::Float64);
        let special32 = [
            0.0,
            -0.0,
            0.1,
            1e-45,
            f32::MAX,
            f32::NAN,
            -f32::NAN,
            f32::from_bits(0x7fc0_0001),
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        for value in special32 {
            assert_eq!(
                f32_text(value),
                library_text(&f32_layout, &Value::Float32(value)),
                "{value:e} ({:#x})",
                value.to_bits()
            );
        }
        let special64 = [
            0.0,
            -0.0,
            0.1,
            1e300,
            5e-324,
            f64::MAX,
            f64::NAN,
            f64::from_bits(0x7ff8_0000_0000_0001),
            f64::NEG_INFINITY,
        ];
        for value in special64 {
            assert_eq!(
                f64_text(value),
                library_text(&f64_layout, &Value::Float64(value)),
                "{value:e}"
            );
        }
        assert_eq!(f32_text(0.1), "0.1");
        assert_eq!(
            f64_text(f64::from_bits(0x7ff8_0000_0000_0001)),
            "\"0x7ff8000000000001\""
        );
    }

    /// Elements of a layout with every kind of leaf, from random bytes (with valid `bool`s):
    /// the plan writes what the library writes, JSON and cells.
    #[test]
    fn elements_as_the_library_writes_them() {
        let layout = Layout::from_v2_json(&json!([
            ["b", "|b1"],
            [
                "i",
                [["a", "|i1"], ["b", "<i2"], ["c", ">i4"], ["d", "<i8"]]
            ],
            [
                "u",
                [["a", "|u1"], ["b", ">u2"], ["c", "<u4"], ["d", ">u8"]]
            ],
            ["h", "<f2"],
            ["f", ">f4", [2, 3]],
            ["d", "<f8"],
            ["c", "<c8"],
            ["z", ">c16"],
            ["t", "<M8[10s]"],
            ["dt", ">m8[ns]"],
            ["s", "<U3"],
            ["raw", "|V2"],
            ["bs", "|S3"],
            ["rec", [["x", "<f4"], ["ok", "|b1"]], [2]]
        ]))
        .unwrap()
        .with_endian(Endian::NATIVE);
        let renderer = Renderer::new(&layout);
        let mut bits = Bits(12345);
        let size = layout.size();
        let mut checked = 0;
        for _ in 0..3000 {
            let mut bytes: Vec<u8> = (0..size).map(|_| bits.next() as u8).collect();
            // Valid bools and UTF-32 code points (ASCII, or an `é`).
            for leaf in layout.leaves() {
                let copies = leaf.count();
                let stride = leaf.repeats().last().map_or(0, |r| r.stride());
                for copy in 0..copies {
                    let at = leaf.offset() + copy * stride;
                    match leaf.scalar() {
                        ScalarType::Bool => bytes[at] &= 1,
                        ScalarType::FixedLengthUtf32 { chars } => {
                            for c in 0..chars.get() {
                                let code = [0u32, 0x61, 0xe9, 0x7a][bits.next() as usize % 4];
                                bytes[at + 4 * c..at + 4 * c + 4]
                                    .copy_from_slice(&code.to_ne_bytes());
                            }
                        }
                        _ => {}
                    }
                }
            }
            let value = layout.decode_value(&bytes).unwrap();
            let mut json = Vec::new();
            renderer.json(&bytes, &mut json).unwrap();
            let library = layout.value_to_json(&value).unwrap();
            assert_eq!(String::from_utf8(json).unwrap(), library.to_string());
            let mut fast = Vec::new();
            renderer.cells(&bytes, &mut fast).unwrap();
            let mut slow = Vec::new();
            cells::cells(&layout, &library, &mut slow);
            assert_eq!(fast, slow);
            checked += 1;
        }
        assert_eq!(checked, 3000);
        // A bad bool: the library's error.
        let mut bytes = vec![0u8; size];
        bytes[0] = 2;
        let error = renderer.json(&bytes, &mut Vec::new()).unwrap_err();
        assert!(error.contains("bool"), "{error}");
    }
}
