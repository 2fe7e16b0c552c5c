//! Elements written as JSON straight from their bytes, streamed: every leaf in its Zarr v3
//! fill value form, as the fill value module writes a scalar ([`scalar::write`], which the
//! value trees of [`Layout::value_to_json`] and the fill values parse), decoded by the codec.

use std::io::{self, Write};
use std::sync::Arc;

use serde_json::Value as Json;

use super::scalar::{self, Format, WriteError};
use crate::codec::scalar as codec_scalar;
use crate::{DecodeError, Endian, Error, FieldPath, Layout, ScalarLayout, ScalarType};

/// Writes elements of one [`Layout`] as JSON, straight from their bytes to any
/// [`io::Write`], without building a value: the form of
/// [`Layout::value_to_json`](crate::Layout::value_to_json) (every leaf in its Zarr v3 fill
/// value form, structs as objects in field order, subarrays as nested lists), as compact text.
///
/// The layout is compiled once; each [`write`](JsonWriter::write) then takes time in
/// proportion to the element and memory in proportion to one leaf at most (its value as the
/// codec decodes it), however large the element: no text is held, `raw_bytes` leaves are
/// written as base64 piece by piece. Each leaf is read in its own byte order. Bytes that are no value of their type (a `bool` byte other than
/// 0 or 1, a UTF-32 code unit that is no character) are an [`Error::InvalidElement`] naming the
/// leaf's field path and byte offset.
///
/// ```
/// use zarrdt::layout::Layout;
/// use zarrdt::value::JsonWriter;
/// use serde_json::json;
///
/// let layout = Layout::from_v2_json(&json!([["b", ">f4"], ["pos", "<i2", [2]], ["ok", "|b1"]]))?;
/// let writer = JsonWriter::new(&layout);
/// let mut out = Vec::new();
/// writer.write(&[0x7f, 0xc0, 0, 0, 1, 0, 2, 0, 1], &mut out)?;
/// assert_eq!(String::from_utf8(out)?, r#"{"b":"NaN","pos":[1,2],"ok":true}"#);
///
/// // A bool byte of 2: the error names the field and the byte.
/// let error = writer.write(&[0, 0, 0, 0, 0, 0, 0, 0, 2], &mut Vec::new()).unwrap_err();
/// assert_eq!(error.to_string(), "element 0 at field `ok`, byte offset 8: invalid bool byte 0x02 (must be 0x00 or 0x01)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct JsonWriter {
    root: Node,
    size: usize,
}

/// Why an element was not written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JsonWriteError {
    /// The bytes are not an element of the layout: [`Error::InvalidElement`] (naming the field
    /// path and byte offset) or [`Error::BufferLength`].
    #[error(transparent)]
    Invalid(#[from] Error),
    /// The output refused the text.
    #[error("writing the JSON: {0}")]
    Output(#[from] io::Error),
}

/// The compiled layout.
#[derive(Clone, Debug)]
enum Node {
    /// A leaf: its type and the byte order it is read in.
    Scalar(ScalarLayout, Endian),
    /// A record's fields, each at its offset in the record.
    Struct(Box<[Member]>),
    /// A subarray: its shape, the size of one item, the item.
    Subarray {
        shape: Box<[usize]>,
        stride: usize,
        item: Box<Node>,
    },
}

#[derive(Clone, Debug)]
struct Member {
    name: Arc<str>,
    /// The name as a JSON string, followed by `:`.
    key: Box<[u8]>,
    offset: usize,
    node: Node,
}

/// What stopped a write inside the element.
enum Fault {
    Invalid(DecodeError),
    Output(io::Error),
}

impl From<io::Error> for Fault {
    fn from(error: io::Error) -> Self {
        Fault::Output(error)
    }
}

impl From<DecodeError> for Fault {
    fn from(error: DecodeError) -> Self {
        Fault::Invalid(error)
    }
}

impl Fault {
    fn in_field(self, member: &Member) -> Self {
        match self {
            Fault::Invalid(error) => Fault::Invalid(error.in_field(&member.name, member.offset)),
            output => output,
        }
    }

    fn in_item(self, index: usize, shape: &[usize], stride: usize) -> Self {
        match self {
            Fault::Invalid(error) => Fault::Invalid(error.in_item(index, shape, stride)),
            output => output,
        }
    }

    fn at_element(self, size: usize) -> JsonWriteError {
        match self {
            Fault::Invalid(error) => JsonWriteError::Invalid(error.at(0, size)),
            Fault::Output(error) => JsonWriteError::Output(error),
        }
    }
}

impl JsonWriter {
    /// A writer of elements of `layout`.
    pub fn new(layout: &Layout) -> Self {
        JsonWriter {
            root: compile(layout),
            size: layout.size(),
        }
    }

    /// The size of one element in bytes.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Writes the element whose bytes are `bytes` (exactly [`size`](JsonWriter::size) of them)
    /// to `out`, as it is made. On an error part of the element may have been written.
    pub fn write(&self, bytes: &[u8], out: &mut impl Write) -> Result<(), JsonWriteError> {
        self.check_length(bytes)?;
        write_node(&self.root, bytes, out).map_err(|fault| fault.at_element(self.size))
    }

    /// Calls `visit` with each leaf of the element whose bytes are `bytes`, every item of a
    /// subarray on its own, in the order [`write`](JsonWriter::write) writes them: the leaf's
    /// type and byte order, its bytes, and its JSON text. A table of the leaves, one column
    /// each, is made this way.
    ///
    /// ```
    /// use zarrdt::layout::Layout;
    /// use zarrdt::value::JsonWriter;
    /// use serde_json::json;
    ///
    /// let layout = Layout::from_v2_json(&json!([["id", "<u2"], ["pos", "<f4", [2]]]))?;
    /// let mut cells = Vec::new();
    /// JsonWriter::new(&layout).for_each_leaf(&[7, 0, 0, 0, 0xc0, 0x7f, 0, 0, 0x20, 0x41], |_, _, json| {
    ///     cells.push(json.to_owned());
    /// })?;
    /// assert_eq!(cells, ["7", "\"NaN\"", "10.0"]);
    /// # Ok::<(), zarrdt::Error>(())
    /// ```
    pub fn for_each_leaf(
        &self,
        bytes: &[u8],
        mut visit: impl FnMut(ScalarLayout, &[u8], &str),
    ) -> Result<(), Error> {
        self.check_length(bytes)?;
        let mut text = Vec::new();
        visit_leaves(&self.root, bytes, &mut text, &mut visit).map_err(|fault| {
            match fault.at_element(self.size) {
                JsonWriteError::Invalid(error) => error,
                // Text is written to a vector, which takes it all.
                JsonWriteError::Output(error) => Error::Unrepresentable {
                    path: FieldPath::root(),
                    format: "JSON text",
                    reason: error.to_string(),
                },
            }
        })
    }

    fn check_length(&self, bytes: &[u8]) -> Result<(), Error> {
        if bytes.len() == self.size {
            Ok(())
        } else {
            Err(Error::BufferLength {
                expected: self.size,
                found: bytes.len(),
            })
        }
    }
}

fn compile(layout: &Layout) -> Node {
    match layout {
        // Leaves of a layout have a byte order, or are single bytes.
        Layout::Scalar(leaf) => Node::Scalar(*leaf, leaf.endian_or(Endian::Little)),
        Layout::Struct(structure) => Node::Struct(
            structure
                .fields()
                .iter()
                .map(|field| {
                    let mut key = Json::from(field.name()).to_string().into_bytes();
                    key.push(b':');
                    Member {
                        name: field.shared_name().clone(),
                        key: key.into(),
                        offset: field.offset(),
                        node: compile(field.layout()),
                    }
                })
                .collect(),
        ),
        Layout::Subarray(array) => Node::Subarray {
            shape: array.shape().into(),
            stride: array.element().size(),
            item: Box::new(compile(array.element())),
        },
    }
}

fn write_node<W: Write>(node: &Node, bytes: &[u8], out: &mut W) -> Result<(), Fault> {
    match node {
        Node::Scalar(leaf, endian) => write_scalar(leaf.scalar(), *endian, bytes, out),
        Node::Struct(members) => {
            out.write_all(b"{")?;
            for (index, member) in members.iter().enumerate() {
                if index > 0 {
                    out.write_all(b",")?;
                }
                out.write_all(&member.key)?;
                write_node(&member.node, &bytes[member.offset..], out)
                    .map_err(|fault| fault.in_field(member))?;
            }
            out.write_all(b"}")?;
            Ok(())
        }
        Node::Subarray {
            shape,
            stride,
            item,
        } => write_items(shape, &mut 0, out, &mut |index, out| {
            write_node(item, &bytes[index * stride..], out)
                .map_err(|fault| fault.in_item(index, shape, *stride))
        }),
    }
}

/// Writes the nested lists of a subarray of `shape`, calling `item` with the flat (row-major)
/// index of each item where it goes; `next` is the index of the next item.
fn write_items<W: Write>(
    shape: &[usize],
    next: &mut usize,
    out: &mut W,
    item: &mut dyn FnMut(usize, &mut W) -> Result<(), Fault>,
) -> Result<(), Fault> {
    let Some((&extent, rest)) = shape.split_first() else {
        let index = *next;
        *next += 1;
        return item(index, out);
    };
    out.write_all(b"[")?;
    for position in 0..extent {
        if position > 0 {
            out.write_all(b",")?;
        }
        write_items(rest, next, out, item)?;
    }
    out.write_all(b"]")?;
    Ok(())
}

fn visit_leaves(
    node: &Node,
    bytes: &[u8],
    text: &mut Vec<u8>,
    visit: &mut dyn FnMut(ScalarLayout, &[u8], &str),
) -> Result<(), Fault> {
    match node {
        Node::Scalar(leaf, endian) => {
            text.clear();
            write_scalar(leaf.scalar(), *endian, bytes, text)?;
            let json = std::str::from_utf8(text).map_err(io::Error::other)?;
            visit(*leaf, &bytes[..leaf.scalar().size()], json);
            Ok(())
        }
        Node::Struct(members) => members.iter().try_for_each(|member| {
            visit_leaves(&member.node, &bytes[member.offset..], text, visit)
                .map_err(|fault| fault.in_field(member))
        }),
        Node::Subarray {
            shape,
            stride,
            item,
        } => {
            let count: usize = shape.iter().product();
            (0..count).try_for_each(|index| {
                visit_leaves(item, &bytes[index * stride..], text, visit)
                    .map_err(|fault| fault.in_item(index, shape, *stride))
            })
        }
    }
}

/// Writes the scalar of type `scalar` stored in `endian` at the start of `bytes`: the value the
/// codec decodes from them (which checks them), as the fill value module writes it.
fn write_scalar<W: Write>(
    scalar: ScalarType,
    endian: Endian,
    bytes: &[u8],
    out: &mut W,
) -> Result<(), Fault> {
    let value = codec_scalar::decode(scalar, endian, bytes)?;
    match scalar::write(scalar, &value, Format::V3, &FieldPath::root(), out) {
        Ok(()) => Ok(()),
        Err(WriteError::Output(error)) => Err(Fault::Output(error)),
        // A decoded value is one of its type: this is not reached.
        Err(WriteError::Value(error)) => Err(Fault::Output(io::Error::other(error))),
    }
}

#[cfg(test)]
mod tests {
    use base64::Engine;
    use serde_json::json;

    use super::super::BASE64;
    use super::*;

    fn layout(dtype: Json) -> Layout {
        Layout::from_v2_json(&dtype).unwrap()
    }

    fn text(layout: &Layout, bytes: &[u8]) -> String {
        let mut out = Vec::new();
        JsonWriter::new(layout).write(bytes, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_leaf_kind_in_its_fill_value_form() {
        let layout = layout(json!([
            ["t", "|b1"],
            ["i", ">i2"],
            ["u", "<u8"],
            ["h", "<f2"],
            ["c", ">c8"],
            ["r", "|V3"],
            ["s", "|S4"],
            ["w", "<U2"],
            ["m", ">M8[10s]"],
            ["g", [["x", "|i1"]], [2]]
        ]));
        let mut bytes = vec![1, 0xff, 0xfe];
        bytes.extend(u64::MAX.to_le_bytes());
        bytes.extend(half::f16::from_f32(0.1).to_le_bytes());
        bytes.extend([0x7f, 0x80, 0, 0, 0x7f, 0xc0, 0, 1]);
        bytes.extend([0, 1, 255]);
        bytes.extend(b"ab\0\0");
        bytes.extend([0xe9, 0, 0, 0, 0, 0, 0, 0]);
        bytes.extend(i64::MIN.to_be_bytes());
        bytes.extend([0xff, 7]);
        assert_eq!(
            text(&layout, &bytes),
            concat!(
                r#"{"t":true,"i":-2,"u":18446744073709551615,"h":0.1,"#,
                r#""c":["Infinity","0x7fc00001"],"r":"AAH/","s":"YWI=","w":"é","#,
                r#""m":-9223372036854775808,"g":[{"x":-1},{"x":7}]}"#
            )
        );
    }

    #[test]
    fn raw_bits_are_numbers_and_large_bytes_one_base64_string() {
        let bits = Layout::Scalar(ScalarLayout::with_endian(
            ScalarType::raw_bits(24).unwrap(),
            Endian::Little,
        ));
        assert_eq!(text(&bits, &[0, 99, 255]), "[0,99,255]");
        // Across the pieces it is written in: the same text as in one go.
        let bytes: Vec<u8> = (0..10_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let raw = Layout::Scalar(ScalarLayout::with_endian(
            ScalarType::raw_bytes(bytes.len()).unwrap(),
            Endian::Little,
        ));
        assert_eq!(text(&raw, &bytes), format!("\"{}\"", BASE64.encode(&bytes)));
        let long_bits = Layout::Scalar(ScalarLayout::with_endian(
            ScalarType::raw_bits(8 * bytes.len()).unwrap(),
            Endian::Little,
        ));
        assert_eq!(
            serde_json::from_str::<Vec<u8>>(&text(&long_bits, &bytes)).unwrap(),
            bytes
        );
    }

    #[test]
    fn invalid_bytes_name_the_leaf_and_the_byte() {
        let layout = layout(json!([
            ["a", "<i4"],
            ["inner", [["pad", "|u1"], ["flags", "|b1", [2, 2]]]],
            ["items", [["w", ">U1"], ["v", "|u1"]], [3]]
        ]));
        let writer = JsonWriter::new(&layout);
        let mut bytes = vec![0u8; layout.size()];
        bytes[4 + 1 + 3] = 2; // flags, item 3 (row-major): [1][1]
        let error = writer.write(&bytes, &mut Vec::new()).unwrap_err();
        let JsonWriteError::Invalid(Error::InvalidElement {
            path,
            offset,
            fault,
            ..
        }) = error
        else {
            panic!("{error:?}")
        };
        assert_eq!(path.to_string(), "inner.flags[1][1]");
        assert_eq!(offset, 8);
        assert_eq!(fault, crate::ElementFault::InvalidBool(2));

        let mut bytes = vec![0u8; layout.size()];
        bytes[9 + 5..9 + 9].copy_from_slice(&0xd800u32.to_be_bytes()); // items[1].w
        let error = writer
            .for_each_leaf(&bytes, |_, _, _| {})
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("items[1].w") && error.contains("byte offset 14"),
            "{error}"
        );
        assert!(error.contains("0x0000d800"), "{error}");
        assert!(matches!(
            writer.write(&bytes[1..], &mut Vec::new()),
            Err(JsonWriteError::Invalid(Error::BufferLength { .. }))
        ));
    }

    #[test]
    fn leaves_one_by_one_in_the_order_written() {
        let layout = layout(json!([
            ["a", "<u2"],
            ["b", [["c", ">f4"]], [2]],
            ["s", "|S3"]
        ]));
        let bytes = [1, 0, 0x3f, 0x80, 0, 0, 0xff, 0x80, 0, 0, b'x', 0, 0];
        let mut leaves = Vec::new();
        JsonWriter::new(&layout)
            .for_each_leaf(&bytes, |leaf, raw, json| {
                leaves.push((leaf.scalar().size(), raw.to_vec(), json.to_owned()));
            })
            .unwrap();
        assert_eq!(
            leaves,
            [
                (2, vec![1, 0], "1".to_owned()),
                (4, vec![0x3f, 0x80, 0, 0], "1.0".to_owned()),
                (4, vec![0xff, 0x80, 0, 0], "\"-Infinity\"".to_owned()),
                (3, vec![b'x', 0, 0], "\"eA==\"".to_owned()),
            ]
        );
        assert_eq!(
            text(&layout, &bytes),
            r#"{"a":1,"b":[{"c":1.0},{"c":"-Infinity"}],"s":"eA=="}"#
        );
    }

    /// An output that takes `room` bytes, then fails.
    struct Full {
        room: usize,
    }

    impl Write for Full {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"));
            }
            let taken = bytes.len().min(self.room);
            self.room -= taken;
            Ok(taken)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn output_errors_are_output_errors() {
        let layout = layout(json!([["a", "<f8", [100]], ["s", "|V5000"]]));
        let bytes = vec![0u8; layout.size()];
        for room in [0, 1, 50, 400, 1000] {
            let error = JsonWriter::new(&layout)
                .write(&bytes, &mut Full { room })
                .unwrap_err();
            assert!(
                matches!(&error, JsonWriteError::Output(e) if e.kind() == io::ErrorKind::BrokenPipe),
                "{error:?}"
            );
        }
    }
}
