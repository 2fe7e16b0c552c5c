//! The dynamic value tree: one element of any data type, with floats kept bit for bit.

use half::f16;
use num_complex::Complex;

/// One element of any data type, when the type is only known at run time.
///
/// Scalars keep their exact bits (NaN payloads, `-0.0`); records keep their fields in order.
/// Equality compares floats **by bit pattern**: `NaN == NaN` when the payloads match, and
/// `0.0 != -0.0`. This is the equality of stored data, which is what round trips are checked
/// with.
///
/// A record's JSON in fill-value form is written and read by
/// [`DataType::fill_value_to_json`](crate::DataType::fill_value_to_json) and
/// [`DataType::fill_value_from_json`](crate::DataType::fill_value_from_json).
///
/// ```
/// use zarrdt_core::{Record, Value};
///
/// let a = Value::Float32(f32::from_bits(0x7fc0_0001));
/// assert_eq!(a, Value::Float32(f32::from_bits(0x7fc0_0001)));
/// assert_ne!(Value::Float64(0.0), Value::Float64(-0.0));
/// let record: Record = [("x", Value::Int32(1)), ("y", Value::Bool(true))].into_iter().collect();
/// assert_eq!(record.get("y"), Some(&Value::Bool(true)));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Value {
    /// A `bool`.
    Bool(bool),
    /// An `int8`.
    Int8(i8),
    /// An `int16`.
    Int16(i16),
    /// An `int32`.
    Int32(i32),
    /// An `int64`.
    Int64(i64),
    /// A `uint8`.
    UInt8(u8),
    /// A `uint16`.
    UInt16(u16),
    /// A `uint32`.
    UInt32(u32),
    /// A `uint64`.
    UInt64(u64),
    /// A `float16`.
    Float16(f16),
    /// A `float32`.
    Float32(f32),
    /// A `float64`.
    Float64(f64),
    /// A `complex64`.
    Complex64(Complex<f32>),
    /// A `complex128`.
    Complex128(Complex<f64>),
    /// The bytes of an `r<N>`, `raw_bytes` or `null_terminated_bytes` value, all of them
    /// (padding zeros included).
    Bytes(Vec<u8>),
    /// A `numpy.datetime64` count; `i64::MIN` is NaT.
    DateTime64(i64),
    /// A `numpy.timedelta64` count; `i64::MIN` is NaT.
    TimeDelta64(i64),
    /// A `fixed_length_utf32` string, trailing NULs removed.
    String(String),
    /// A struct value: named fields in order.
    Record(Record),
    /// The elements of a v2 subarray field, row-major, nested one level per dimension.
    Array(Vec<Value>),
}

impl Value {
    /// A short name of the kind of value, for messages: `"int32"`, `"record"`…
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Bool(_) => "bool",
            Value::Int8(_) => "int8",
            Value::Int16(_) => "int16",
            Value::Int32(_) => "int32",
            Value::Int64(_) => "int64",
            Value::UInt8(_) => "uint8",
            Value::UInt16(_) => "uint16",
            Value::UInt32(_) => "uint32",
            Value::UInt64(_) => "uint64",
            Value::Float16(_) => "float16",
            Value::Float32(_) => "float32",
            Value::Float64(_) => "float64",
            Value::Complex64(_) => "complex64",
            Value::Complex128(_) => "complex128",
            Value::Bytes(_) => "bytes",
            Value::DateTime64(_) => "numpy.datetime64",
            Value::TimeDelta64(_) => "numpy.timedelta64",
            Value::String(_) => "string",
            Value::Record(_) => "record",
            Value::Array(_) => "array",
        }
    }

    /// "found a float32 value", "found an int8 value": what mismatch errors say was found.
    pub(crate) fn found(&self) -> String {
        let kind = self.kind();
        let article = if kind.starts_with(['a', 'e', 'i', 'o']) {
            "an"
        } else {
            "a"
        };
        format!("found {article} {kind} value")
    }

    /// The items of a sequence: a [`Value::Array`], or a record whose fields are named `"0"`,
    /// `"1"`, … in order (how Rust arrays appear in Zarr v3).
    pub fn as_sequence(&self) -> Option<Vec<&Value>> {
        match self {
            Value::Array(items) => Some(items.iter().collect()),
            Value::Record(record) => record
                .fields()
                .iter()
                .enumerate()
                .map(|(index, (name, item))| (name.parse() == Ok(index)).then_some(item))
                .collect(),
            _ => None,
        }
    }

    /// The record, if this is one.
    pub fn as_record(&self) -> Option<&Record> {
        match self {
            Value::Record(record) => Some(record),
            _ => None,
        }
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int8(a), Value::Int8(b)) => a == b,
            (Value::Int16(a), Value::Int16(b)) => a == b,
            (Value::Int32(a), Value::Int32(b)) => a == b,
            (Value::Int64(a), Value::Int64(b)) => a == b,
            (Value::UInt8(a), Value::UInt8(b)) => a == b,
            (Value::UInt16(a), Value::UInt16(b)) => a == b,
            (Value::UInt32(a), Value::UInt32(b)) => a == b,
            (Value::UInt64(a), Value::UInt64(b)) => a == b,
            (Value::Float16(a), Value::Float16(b)) => a.to_bits() == b.to_bits(),
            (Value::Float32(a), Value::Float32(b)) => a.to_bits() == b.to_bits(),
            (Value::Float64(a), Value::Float64(b)) => a.to_bits() == b.to_bits(),
            (Value::Complex64(a), Value::Complex64(b)) => {
                a.re.to_bits() == b.re.to_bits() && a.im.to_bits() == b.im.to_bits()
            }
            (Value::Complex128(a), Value::Complex128(b)) => {
                a.re.to_bits() == b.re.to_bits() && a.im.to_bits() == b.im.to_bits()
            }
            (Value::Bytes(a), Value::Bytes(b)) => a == b,
            (Value::DateTime64(a), Value::DateTime64(b))
            | (Value::TimeDelta64(a), Value::TimeDelta64(b)) => a == b,
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Record(a), Value::Record(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Value {}

/// The value of a struct: its fields' names and values, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    fields: Vec<(String, Value)>,
}

impl Record {
    /// An empty record, to be filled with [`Record::push`].
    pub fn new() -> Self {
        Record::default()
    }

    /// Appends a field.
    pub fn push(&mut self, name: impl Into<String>, value: Value) {
        self.fields.push((name.into(), value));
    }

    /// The value of the field called `name`, if any.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.fields
            .iter()
            .find(|(field, _)| field == name)
            .map(|(_, value)| value)
    }

    /// The fields in order.
    pub fn fields(&self) -> &[(String, Value)] {
        &self.fields
    }

    /// Number of fields.
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// Whether the record has no fields.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// The fields, by value.
    pub fn into_fields(self) -> Vec<(String, Value)> {
        self.fields
    }
}

impl<S: Into<String>> FromIterator<(S, Value)> for Record {
    fn from_iter<I: IntoIterator<Item = (S, Value)>>(iter: I) -> Self {
        Record {
            fields: iter
                .into_iter()
                .map(|(name, value)| (name.into(), value))
                .collect(),
        }
    }
}

impl From<Record> for Value {
    fn from(record: Record) -> Self {
        Value::Record(record)
    }
}
