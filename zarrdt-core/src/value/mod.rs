//! The dynamic value tree: one element of any data type, with floats kept bit for bit.
//!
//! One file per kind of value: [`Value`] here, [`Record`] in `record`, [`SubarrayValue`]
//! (and how its items are held) in `subarray`; `same_bits` is the bit-for-bit equality of
//! floats they share.

mod record;
mod same_bits;
mod subarray;

pub(crate) use record::FieldsMismatch;
pub use record::Record;
use same_bits::SameBits;
pub(crate) use subarray::{Items, StoredItems};
pub use subarray::{SubarrayItem, SubarrayValue};

use half::f16;
use num_complex::Complex;

use crate::numeric::numeric_kinds;

/// One element of any data type, when the type is only known at run time.
///
/// Scalars keep their exact bits (NaN payloads, `-0.0`); records keep their fields in order;
/// arrays (Rust `[T; N]` fields, NumPy subarrays) are [`SubarrayValue`]s in every format, which
/// hold numbers compactly.
///
/// Equality is the equality of stored data, which is what round trips are checked with:
/// floats compare **by bit pattern** (`NaN == NaN` when the payloads match, and
/// `0.0 != -0.0`), and an array equals the record of fields `"0"`, `"1"`, … holding its items,
/// since that is how Zarr v3 stores it (a v3 array read without its Rust type has structs
/// where the Rust type has arrays).
///
/// A value's JSON in fill-value form is written and read by
/// [`DataType::fill_value_to_v3_json`](crate::DataType::fill_value_to_v3_json) and
/// [`DataType::fill_value_from_v3_json`](crate::DataType::fill_value_from_v3_json).
///
/// ```
/// use zarrdt::value::{Record, Value};
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
    /// The bytes of an `r<N>` or `raw_bytes` value (all of them), or of a
    /// `null_terminated_bytes` value (without its trailing zero bytes, as NumPy reads them).
    Bytes(Vec<u8>),
    /// A `numpy.datetime64` count; `i64::MIN` is NaT.
    DateTime64(i64),
    /// A `numpy.timedelta64` count; `i64::MIN` is NaT.
    TimeDelta64(i64),
    /// A `fixed_length_utf32` string, trailing NULs removed.
    String(String),
    /// A struct value: named fields in order.
    Record(Record),
    /// An array value: a Rust array `[T; N]` or a NumPy subarray, in every format.
    Subarray(SubarrayValue),
}

impl Value {
    /// A short name of the kind of value, for messages: `"int32"`, `"record"`…
    pub fn kind(&self) -> &'static str {
        macro_rules! kind {
            ($($ty:ty => $variant:ident $name:literal;)*) => {
                match self {
                    $(Value::$variant(_) => $name,)*
                    Value::Bytes(_) => "bytes",
                    Value::DateTime64(_) => "numpy.datetime64",
                    Value::TimeDelta64(_) => "numpy.timedelta64",
                    Value::String(_) => "string",
                    Value::Record(_) => "record",
                    Value::Subarray(_) => "array",
                }
            };
        }
        numeric_kinds!(kind! { bool => Bool "bool"; })
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

    /// The record, if this is one.
    pub fn as_record(&self) -> Option<&Record> {
        match self {
            Value::Record(record) => Some(record),
            _ => None,
        }
    }

    /// The array, if this is one.
    pub fn as_subarray(&self) -> Option<&SubarrayValue> {
        match self {
            Value::Subarray(array) => Some(array),
            _ => None,
        }
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        // Numbers and bools by `SameBits`: `==` for integers and bools, bits for floats.
        macro_rules! eq {
            ($($ty:ty => $variant:ident $name:literal;)*) => {
                match (self, other) {
                    $((Value::$variant(a), Value::$variant(b)) => a.same_bits(b),)*
                    (Value::Bytes(a), Value::Bytes(b)) => a == b,
                    (Value::DateTime64(a), Value::DateTime64(b))
                    | (Value::TimeDelta64(a), Value::TimeDelta64(b)) => a == b,
                    (Value::String(a), Value::String(b)) => a == b,
                    (Value::Record(a), Value::Record(b)) => a == b,
                    (Value::Subarray(a), Value::Subarray(b)) => a == b,
                    (Value::Subarray(array), Value::Record(record))
                    | (Value::Record(record), Value::Subarray(array)) => {
                        array.equals_struct_form(record)
                    }
                    _ => false,
                }
            };
        }
        numeric_kinds!(eq! { bool => Bool "bool"; })
    }
}

impl Eq for Value {}
