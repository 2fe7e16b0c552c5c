//! The Arrow form of a layout, compiled once: for every node its Arrow type, and for every
//! scalar leaf where its values lie in a record and how they convert. Both directions (records
//! to columns, columns to records) walk this tree.

use std::sync::Arc;

use arrow_schema::{DataType as ArrowType, Field, FieldRef, Fields};
use zarrdt_core::{Endian, FieldPath, Layout, ScalarType, StructLayout};

use crate::Error;
use crate::time::{TimeMap, time_map};

/// The name of the one column of a table whose records are not structs.
pub const VALUE_COLUMN: &str = "value";

/// The name of the items of a list (Arrow's convention, and pyarrow's).
const ITEM: &str = "item";

/// What a scalar leaf holds and how it becomes Arrow values.
#[derive(Clone, Debug)]
pub(crate) enum Kind {
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Float16,
    Float32,
    Float64,
    /// Real and imaginary parts of `half` bytes each.
    Complex {
        half: usize,
    },
    /// `r<N>` and `raw_bytes`: `FixedSizeBinary`.
    FixedBinary(usize),
    /// `null_terminated_bytes`: `Binary`, trailing NULs removed.
    Bytes(usize),
    /// `fixed_length_utf32` of this many code units: `Utf8`, trailing NULs removed.
    Utf32(usize),
    /// `numpy.datetime64` (`true`) or `numpy.timedelta64`: an `int64` count, NaT as null.
    Time(TimeMap, bool),
}

/// A compiled node: a leaf, a struct or a subarray.
#[derive(Clone, Debug)]
pub(crate) enum Node {
    /// A scalar at `offset` from the start of the element.
    Scalar {
        /// Offset in the element.
        offset: usize,
        /// The type.
        kind: Kind,
        /// The scalar type, for messages.
        scalar: ScalarType,
        /// Whether its bytes are in the other byte order than the machine's.
        swap: bool,
        /// The field path, for messages.
        path: Arc<str>,
    },
    /// A struct whose fields are the children.
    Struct {
        /// The Arrow fields.
        fields: Fields,
        /// The children, in field order.
        children: Vec<Node>,
        /// For the Zarr v3 form of a Rust array (fields `"0"`, `"1"`, … of one type, one after
        /// another): the size of one item, so that a list column can fill it.
        items: Option<usize>,
        /// The field path, for messages.
        path: Arc<str>,
    },
    /// A subarray: `shape` items of `element`, `stride` bytes apart, from the element's start
    /// (the element's own offsets include the subarray's).
    List {
        /// The shape, outermost first.
        shape: Vec<usize>,
        /// The size of one item of the innermost dimension.
        stride: usize,
        /// The item field of each level, outermost first.
        items: Vec<FieldRef>,
        /// The element.
        element: Box<Node>,
        /// The field path, for messages.
        path: Arc<str>,
    },
}

impl Node {
    /// The field path of the node, as messages show it.
    pub(crate) fn path(&self) -> &str {
        match self {
            Node::Scalar { path, .. } | Node::Struct { path, .. } | Node::List { path, .. } => path,
        }
    }
}

/// A layout compiled: its Arrow type, whether its values can be null, and its node.
pub(crate) struct Compiled {
    pub(crate) arrow: ArrowType,
    pub(crate) nullable: bool,
    pub(crate) node: Node,
}

/// Compiles `layout`, which starts at `base` in the element, at `path`.
pub(crate) fn compile(layout: &Layout, base: usize, path: &FieldPath) -> Result<Compiled, Error> {
    let shown: Arc<str> = shown_path(path).into();
    match layout {
        Layout::Scalar(scalar) => {
            let swap = scalar
                .endian()
                .is_some_and(|endian| endian != Endian::NATIVE);
            let (kind, arrow, nullable) = scalar_kind(scalar.scalar(), path)?;
            Ok(Compiled {
                arrow,
                nullable,
                node: Node::Scalar {
                    offset: base,
                    kind,
                    scalar: scalar.scalar(),
                    swap,
                    path: shown,
                },
            })
        }
        Layout::Struct(structure) => {
            let mut fields = Vec::with_capacity(structure.fields().len());
            let mut children = Vec::with_capacity(structure.fields().len());
            for field in structure.fields() {
                let compiled = compile(
                    field.layout(),
                    base + field.offset(),
                    &path.field(field.name()),
                )?;
                fields.push(Field::new(field.name(), compiled.arrow, compiled.nullable));
                children.push(compiled.node);
            }
            let fields = Fields::from(fields);
            Ok(Compiled {
                arrow: ArrowType::Struct(fields.clone()),
                nullable: false,
                node: Node::Struct {
                    fields,
                    children,
                    items: item_size(structure),
                    path: shown,
                },
            })
        }
        Layout::Subarray(array) => {
            let element = compile(array.element(), base, path)?;
            let shape = array.shape().to_vec();
            // Innermost first: each level is a fixed-size list of the level inside it.
            let mut items = Vec::with_capacity(shape.len());
            let mut arrow = element.arrow;
            let mut nullable = element.nullable;
            for &extent in shape.iter().rev() {
                let item = Arc::new(Field::new(ITEM, arrow, nullable));
                items.push(item.clone());
                arrow = ArrowType::FixedSizeList(item, list_size(extent, path)?);
                nullable = false;
            }
            items.reverse();
            Ok(Compiled {
                arrow,
                nullable: false,
                node: Node::List {
                    shape,
                    stride: array.element().size(),
                    items,
                    element: Box::new(element.node),
                    path: shown,
                },
            })
        }
        other => Err(Error::Unsupported {
            path: shown_path(path),
            reason: format!("a layout of a kind this version does not know: {other:?}"),
        }),
    }
}

/// The item size of a struct that is the v3 form of a Rust array: fields `"0"`, `"1"`, … of
/// one layout, one after another.
fn item_size(structure: &StructLayout) -> Option<usize> {
    let fields = structure.fields();
    let first = fields.first()?;
    let size = first.layout().size();
    fields
        .iter()
        .enumerate()
        .all(|(index, field)| {
            field.name() == index.to_string()
                && field.layout() == first.layout()
                && field.offset() == first.offset() + index * size
        })
        .then_some(size)
}

/// An extent as Arrow's `i32` list size.
fn list_size(extent: usize, path: &FieldPath) -> Result<i32, Error> {
    i32::try_from(extent).map_err(|_| Error::Unsupported {
        path: shown_path(path),
        reason: format!("a subarray of {extent} items is beyond Arrow's list size"),
    })
}

/// The path as messages show it: `point.x`, or `value` for the whole element.
pub(crate) fn shown_path(path: &FieldPath) -> String {
    if path.is_root() {
        VALUE_COLUMN.to_owned()
    } else {
        path.to_string()
    }
}

/// The kind, Arrow type and nullability of a scalar type.
fn scalar_kind(scalar: ScalarType, path: &FieldPath) -> Result<(Kind, ArrowType, bool), Error> {
    let plain = |kind, arrow| Ok((kind, arrow, false));
    match scalar {
        ScalarType::Bool => plain(Kind::Bool, ArrowType::Boolean),
        ScalarType::Int8 => plain(Kind::Int8, ArrowType::Int8),
        ScalarType::Int16 => plain(Kind::Int16, ArrowType::Int16),
        ScalarType::Int32 => plain(Kind::Int32, ArrowType::Int32),
        ScalarType::Int64 => plain(Kind::Int64, ArrowType::Int64),
        ScalarType::UInt8 => plain(Kind::UInt8, ArrowType::UInt8),
        ScalarType::UInt16 => plain(Kind::UInt16, ArrowType::UInt16),
        ScalarType::UInt32 => plain(Kind::UInt32, ArrowType::UInt32),
        ScalarType::UInt64 => plain(Kind::UInt64, ArrowType::UInt64),
        ScalarType::Float16 => plain(Kind::Float16, ArrowType::Float16),
        ScalarType::Float32 => plain(Kind::Float32, ArrowType::Float32),
        ScalarType::Float64 => plain(Kind::Float64, ArrowType::Float64),
        ScalarType::Complex64 => plain(Kind::Complex { half: 4 }, complex(ArrowType::Float32)),
        ScalarType::Complex128 => plain(Kind::Complex { half: 8 }, complex(ArrowType::Float64)),
        ScalarType::Raw { size } | ScalarType::RawBytes { size } => {
            let width = i32::try_from(size.get()).map_err(|_| Error::Unsupported {
                path: shown_path(path),
                reason: format!("{scalar} is wider than Arrow's fixed-size binary"),
            })?;
            plain(
                Kind::FixedBinary(size.get()),
                ArrowType::FixedSizeBinary(width),
            )
        }
        ScalarType::NullTerminatedBytes { size } => {
            plain(Kind::Bytes(size.get()), ArrowType::Binary)
        }
        ScalarType::FixedLengthUtf32 { chars } => plain(Kind::Utf32(chars.get()), ArrowType::Utf8),
        ScalarType::DateTime64(config) | ScalarType::TimeDelta64(config) => {
            let is_datetime = matches!(scalar, ScalarType::DateTime64(_));
            let map = time_map(config, is_datetime).map_err(|reason| Error::Unsupported {
                path: shown_path(path),
                reason,
            })?;
            let arrow = if is_datetime {
                ArrowType::Timestamp(map.unit, None)
            } else {
                ArrowType::Duration(map.unit)
            };
            Ok((Kind::Time(map, is_datetime), arrow, true))
        }
        other => Err(Error::Unsupported {
            path: shown_path(path),
            reason: format!("{other} has no Arrow form in this version"),
        }),
    }
}

/// The Arrow type of a complex number: a struct of its real and imaginary parts.
pub(crate) fn complex(part: ArrowType) -> ArrowType {
    ArrowType::Struct(complex_fields(part))
}

/// The fields of a complex number's struct: `re` and `im`, of type `part`.
pub(crate) fn complex_fields(part: ArrowType) -> Fields {
    Fields::from(vec![
        Field::new("re", part.clone(), false),
        Field::new("im", part, false),
    ])
}
