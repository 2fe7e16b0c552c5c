//! The dynamic value tree: one element of any data type, with floats kept bit for bit.

use std::any::Any;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use half::f16;
use num_complex::Complex;

use crate::Error;

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
            Value::Subarray(_) => "array",
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
            (Value::Float16(a), Value::Float16(b)) => a.same_bits(b),
            (Value::Float32(a), Value::Float32(b)) => a.same_bits(b),
            (Value::Float64(a), Value::Float64(b)) => a.same_bits(b),
            (Value::Complex64(a), Value::Complex64(b)) => a.same_bits(b),
            (Value::Complex128(a), Value::Complex128(b)) => a.same_bits(b),
            (Value::Bytes(a), Value::Bytes(b)) => a == b,
            (Value::DateTime64(a), Value::DateTime64(b))
            | (Value::TimeDelta64(a), Value::TimeDelta64(b)) => a == b,
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Record(a), Value::Record(b)) => a == b,
            (Value::Subarray(a), Value::Subarray(b)) => a == b,
            (Value::Subarray(array), Value::Record(record))
            | (Value::Record(record), Value::Subarray(array)) => array.equals_struct_form(record),
            _ => false,
        }
    }
}

impl Eq for Value {}

/// The value of a struct: its fields' names and values, in order.
///
/// A record is a plain list; whoever reads it against a type ([`Layout::encode_value`](
/// crate::Layout::encode_value), the fill value writers) checks that it has every field of
/// the type once and no others, and says which is wrong.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    fields: Vec<(Arc<str>, Value)>,
}

/// Why a [`Record`] does not have exactly the fields of a struct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum FieldsMismatch {
    /// The record has no value for this field.
    Missing(Arc<str>),
    /// The struct has no field of this name.
    Unknown(Arc<str>),
    /// The record names this field more than once.
    Duplicate(Arc<str>),
}

impl FieldsMismatch {
    /// The field named, and what is wrong with it.
    pub(crate) fn describe(&self) -> (&str, &'static str) {
        match self {
            FieldsMismatch::Missing(name) => (name, "the record has no value for this field"),
            FieldsMismatch::Unknown(name) => (name, "the struct has no field of this name"),
            FieldsMismatch::Duplicate(name) => (name, "the record has this field more than once"),
        }
    }
}

impl Record {
    /// An empty record, to be filled with [`Record::push`].
    pub fn new() -> Self {
        Record::default()
    }

    /// A record of `fields`, in order.
    pub(crate) fn from_fields(fields: Vec<(Arc<str>, Value)>) -> Self {
        Record { fields }
    }

    /// Appends a field.
    pub fn push(&mut self, name: impl Into<Arc<str>>, value: Value) {
        self.fields.push((name.into(), value));
    }

    /// The value of the field called `name`, if any.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.fields
            .iter()
            .find(|(field, _)| &**field == name)
            .map(|(_, value)| value)
    }

    /// The fields in order.
    pub fn fields(&self) -> &[(Arc<str>, Value)] {
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
    pub fn into_fields(self) -> Vec<(Arc<str>, Value)> {
        self.fields
    }

    /// The values of the fields `names` (the fields of a struct, unique), in that order:
    /// every one exactly once and no others. Linear time: a record in field order is matched
    /// directly, any other through one index of its names. Problems are reported in the
    /// order: a repeated field, a field the struct does not have, a missing field.
    pub(crate) fn values_for<'r, 'n>(
        &'r self,
        names: impl ExactSizeIterator<Item = &'n str> + Clone,
    ) -> Result<Vec<&'r Value>, FieldsMismatch> {
        if self.fields.len() == names.len()
            && self
                .fields
                .iter()
                .zip(names.clone())
                .all(|((name, _), expected)| &**name == expected)
        {
            return Ok(self.fields.iter().map(|(_, value)| value).collect());
        }
        let mut index: HashMap<&str, &Value> = HashMap::with_capacity(self.fields.len());
        for (name, value) in &self.fields {
            if index.insert(name, value).is_some() {
                return Err(FieldsMismatch::Duplicate(name.clone()));
            }
        }
        if self.fields.len() > names.len() || !names.clone().all(|name| index.contains_key(name)) {
            let known: HashMap<&str, ()> = names.clone().map(|name| (name, ())).collect();
            if let Some((unknown, _)) = self
                .fields
                .iter()
                .find(|(name, _)| !known.contains_key(&**name))
            {
                return Err(FieldsMismatch::Unknown(unknown.clone()));
            }
        }
        let mut values = Vec::with_capacity(names.len());
        for name in names {
            values.push(
                *index
                    .get(name)
                    .ok_or_else(|| FieldsMismatch::Missing(name.into()))?,
            );
        }
        Ok(values)
    }
}

impl<S: Into<Arc<str>>> FromIterator<(S, Value)> for Record {
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

/// The value of a subarray or Rust array: `shape` (row-major) items.
///
/// Numbers and `bool`s are held in one vector of their type (a million `u8` items take a
/// megabyte), other items as [`Value`]s; an array of one repeated item (an all-zero fill
/// value) holds it once. Equality compares the shape and the items, whatever the storage.
///
/// ```
/// use zarrdt_core::{SubarrayValue, Value};
///
/// let pos = SubarrayValue::from_vec(vec![3], vec![1.0f32, 2.0, 3.0])?;
/// assert_eq!(pos.as_slice::<f32>(), Some(&[1.0, 2.0, 3.0][..]));
/// let same = SubarrayValue::new(vec![3], vec![Value::Float32(1.0), Value::Float32(2.0), Value::Float32(3.0)])?;
/// assert_eq!(pos, same);
/// assert_eq!(pos.get(2).as_deref(), Some(&Value::Float32(3.0)));
/// # Ok::<(), zarrdt_core::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct SubarrayValue {
    shape: Vec<usize>,
    items: Items,
}

/// How the items of an [`SubarrayValue`] are held.
#[derive(Clone, Debug)]
pub(crate) enum Items {
    Bool(Vec<bool>),
    Int8(Vec<i8>),
    Int16(Vec<i16>),
    Int32(Vec<i32>),
    Int64(Vec<i64>),
    UInt8(Vec<u8>),
    UInt16(Vec<u16>),
    UInt32(Vec<u32>),
    UInt64(Vec<u64>),
    Float16(Vec<f16>),
    Float32(Vec<f32>),
    Float64(Vec<f64>),
    Complex64(Vec<Complex<f32>>),
    Complex128(Vec<Complex<f64>>),
    /// Any values, one per item.
    Values(Vec<Value>),
    /// One value for every item.
    Repeated(Box<Value>),
}

/// Runs `$body` with `$items` bound to the vector of whichever typed variant `$storage` is,
/// and `$variant` to the matching [`Value`] constructor; `$other` for the untyped ones.
macro_rules! typed_items {
    ($storage:expr, |$items:ident, $variant:ident| $body:expr, $other:pat => $otherwise:expr) => {
        match $storage {
            Items::Bool($items) => {
                let $variant = Value::Bool;
                $body
            }
            Items::Int8($items) => {
                let $variant = Value::Int8;
                $body
            }
            Items::Int16($items) => {
                let $variant = Value::Int16;
                $body
            }
            Items::Int32($items) => {
                let $variant = Value::Int32;
                $body
            }
            Items::Int64($items) => {
                let $variant = Value::Int64;
                $body
            }
            Items::UInt8($items) => {
                let $variant = Value::UInt8;
                $body
            }
            Items::UInt16($items) => {
                let $variant = Value::UInt16;
                $body
            }
            Items::UInt32($items) => {
                let $variant = Value::UInt32;
                $body
            }
            Items::UInt64($items) => {
                let $variant = Value::UInt64;
                $body
            }
            Items::Float16($items) => {
                let $variant = Value::Float16;
                $body
            }
            Items::Float32($items) => {
                let $variant = Value::Float32;
                $body
            }
            Items::Float64($items) => {
                let $variant = Value::Float64;
                $body
            }
            Items::Complex64($items) => {
                let $variant = Value::Complex64;
                $body
            }
            Items::Complex128($items) => {
                let $variant = Value::Complex128;
                $body
            }
            $other => $otherwise,
        }
    };
}

/// Item types an [`SubarrayValue`] holds in a vector of their own: `bool`, the integers,
/// [`half::f16`], `f32`, `f64` and the complex types.
pub trait SubarrayItem: Copy + Any + sealed::Sealed {}

mod sealed {
    pub trait Sealed {}
}

macro_rules! array_items {
    ($($ty:ty => $variant:ident,)*) => {
        $(
            impl sealed::Sealed for $ty {}
            impl SubarrayItem for $ty {}
        )*

        /// The storage of a vector of one of the [`SubarrayItem`] types.
        fn wrap<T: SubarrayItem>(items: Vec<T>) -> Items {
            let items: Box<dyn Any> = Box::new(items);
            $(
                let items = match items.downcast::<Vec<$ty>>() {
                    Ok(items) => return Items::$variant(*items),
                    Err(other) => other,
                };
            )*
            // `SubarrayItem` is sealed to the types above.
            unreachable!("{:?} is not an SubarrayItem type", items.type_id())
        }

        /// The items as a slice of `T`, if they are held as one.
        fn slice<T: SubarrayItem>(items: &Items) -> Option<&[T]> {
            let vector: &dyn Any = match items {
                $(Items::$variant(items) => items,)*
                Items::Values(_) | Items::Repeated(_) => return None,
            };
            vector.downcast_ref::<Vec<T>>().map(Vec::as_slice)
        }
    };
}

array_items! {
    bool => Bool,
    i8 => Int8,
    i16 => Int16,
    i32 => Int32,
    i64 => Int64,
    u8 => UInt8,
    u16 => UInt16,
    u32 => UInt32,
    u64 => UInt64,
    f16 => Float16,
    f32 => Float32,
    f64 => Float64,
    Complex<f32> => Complex64,
    Complex<f64> => Complex128,
}

fn item_count(shape: &[usize]) -> Result<usize, Error> {
    shape
        .iter()
        .try_fold(1usize, |count, &extent| count.checked_mul(extent))
        .ok_or_else(|| Error::ValueMismatch {
            path: crate::FieldPath::root(),
            data_type: "an array".into(),
            reason: format!("the shape {shape:?} has more items than fit in memory"),
        })
}

fn count_mismatch(shape: &[usize], count: usize, found: usize) -> Error {
    Error::ValueMismatch {
        path: crate::FieldPath::root(),
        data_type: format!("an array of shape {shape:?}"),
        reason: format!("{found} items instead of {count}"),
    }
}

impl SubarrayValue {
    /// An array of `shape` holding `items` in row-major order; numbers of one kind are stored
    /// compactly. Errors unless there are exactly as many items as the shape has.
    pub fn new(shape: Vec<usize>, items: Vec<Value>) -> Result<Self, Error> {
        let count = item_count(&shape)?;
        if items.len() != count {
            return Err(count_mismatch(&shape, count, items.len()));
        }
        Ok(SubarrayValue {
            shape,
            items: pack(items),
        })
    }

    /// An array of `shape` holding the numbers (or `bool`s) `items` in row-major order.
    pub fn from_vec<T: SubarrayItem>(shape: Vec<usize>, items: Vec<T>) -> Result<Self, Error> {
        let count = item_count(&shape)?;
        if items.len() != count {
            return Err(count_mismatch(&shape, count, items.len()));
        }
        Ok(SubarrayValue {
            shape,
            items: wrap(items),
        })
    }

    /// An array of `shape` whose items are all `item`, held once.
    pub fn filled(shape: Vec<usize>, item: Value) -> Result<Self, Error> {
        item_count(&shape)?;
        Ok(SubarrayValue {
            shape,
            items: Items::Repeated(Box::new(item)),
        })
    }

    /// An array made by the codecs, whose item count matches `shape`.
    pub(crate) fn from_items(shape: Vec<usize>, items: Items) -> Self {
        SubarrayValue { shape, items }
    }

    /// The shape, outermost dimension first.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Number of items (the product of the shape).
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Whether there are no items.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The item at row-major `index`, if any.
    pub fn get(&self, index: usize) -> Option<Cow<'_, Value>> {
        if index >= self.len() {
            return None;
        }
        typed_items!(&self.items, |items, variant| items.get(index).map(|item| Cow::Owned(variant(*item))),
        other => match other {
            Items::Values(values) => values.get(index).map(Cow::Borrowed),
            Items::Repeated(item) => Some(Cow::Borrowed(&**item)),
            _ => None,
        })
    }

    /// The items in row-major order.
    pub fn iter(&self) -> impl Iterator<Item = Cow<'_, Value>> + '_ {
        (0..self.len()).map_while(|index| self.get(index))
    }

    /// The items, if they are numbers (or `bool`s) of type `T` held compactly.
    pub fn as_slice<T: SubarrayItem>(&self) -> Option<&[T]> {
        slice(&self.items)
    }

    /// How the items are held, for the codecs.
    pub(crate) fn items(&self) -> &Items {
        &self.items
    }

    /// Item `index` of the outermost dimension: an item for a one-dimensional array, else an
    /// array of the remaining dimensions.
    pub fn outer_item(&self, index: usize) -> Option<Cow<'_, Value>> {
        match self.shape.as_slice() {
            [] | [_] => self.get(index),
            [outer, inner @ ..] if index < *outer => {
                let per_item: usize = inner.iter().product();
                let items = (index * per_item..(index + 1) * per_item)
                    .map_while(|flat| self.get(flat).map(Cow::into_owned))
                    .collect();
                SubarrayValue::new(inner.to_vec(), items)
                    .ok()
                    .map(|array| Cow::Owned(Value::Subarray(array)))
            }
            _ => None,
        }
    }

    /// Whether `record` is this array in its struct form: fields `"0"`, `"1"`, … in order, one
    /// per outermost item, each equal to it.
    fn equals_struct_form(&self, record: &Record) -> bool {
        let outer = self.shape.first().copied().unwrap_or(0);
        record.len() == outer
            && record
                .fields()
                .iter()
                .enumerate()
                .all(|(index, (name, value))| {
                    crate::layout::struct_form::is_item_name(name, index)
                        && self.outer_item(index).is_some_and(|item| *item == *value)
                })
    }
}

/// `values` in a typed vector if they are all numbers (or `bool`s) of one kind.
fn pack(values: Vec<Value>) -> Items {
    macro_rules! try_pack {
        ($($variant:ident),*) => {
            match values.first() {
                $(Some(Value::$variant(_)) => {
                    let typed: Option<Vec<_>> = values
                        .iter()
                        .map(|value| match value {
                            Value::$variant(item) => Some(*item),
                            _ => None,
                        })
                        .collect();
                    match typed {
                        Some(typed) => Items::$variant(typed),
                        None => Items::Values(values),
                    }
                })*
                _ => Items::Values(values),
            }
        };
    }
    try_pack!(
        Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float16, Float32, Float64,
        Complex64, Complex128
    )
}

impl PartialEq for SubarrayValue {
    /// Same items in the same shape; an array of arrays equals the array of more dimensions
    /// it nests (as layouts merge them).
    fn eq(&self, other: &Self) -> bool {
        if self.shape != other.shape {
            let outer = self.shape.first();
            return outer.is_some()
                && outer == other.shape.first()
                && (self.shape.len() > 1 || other.shape.len() > 1)
                && (0..self.shape[0])
                    .all(|index| self.outer_item(index) == other.outer_item(index));
        }
        match (&self.items, &other.items) {
            (Items::Repeated(a), Items::Repeated(b)) => a == b,
            (Items::Values(a), Items::Values(b)) => a == b,
            (a, b) => {
                let same_storage = std::mem::discriminant(a) == std::mem::discriminant(b);
                if same_storage && let Some(equal) = typed_equal(a, b) {
                    return equal;
                }
                self.iter().zip(other.iter()).all(|(a, b)| a == b)
            }
        }
    }
}

impl Eq for SubarrayValue {}

/// Item-wise equality of two typed vectors of the same type, floats by bits; `None` for the
/// untyped storages.
fn typed_equal(a: &Items, b: &Items) -> Option<bool> {
    macro_rules! same {
        ($($variant:ident),*) => {
            match (a, b) {
                $((Items::$variant(a), Items::$variant(b)) => {
                    Some(a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_bits(y)))
                })*
                _ => None,
            }
        };
    }
    same!(
        Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float16, Float32, Float64,
        Complex64, Complex128
    )
}

impl From<Vec<Value>> for SubarrayValue {
    /// A one-dimensional array of `items`.
    fn from(items: Vec<Value>) -> Self {
        SubarrayValue {
            shape: vec![items.len()],
            items: pack(items),
        }
    }
}

impl From<SubarrayValue> for Value {
    fn from(array: SubarrayValue) -> Self {
        Value::Subarray(array)
    }
}

/// Equality of stored data: floats by their bits.
trait SameBits {
    fn same_bits(&self, other: &Self) -> bool;
}

macro_rules! same_bits_by_eq {
    ($($ty:ty),*) => {$(
        impl SameBits for $ty {
            fn same_bits(&self, other: &Self) -> bool {
                self == other
            }
        }
    )*};
}

same_bits_by_eq!(bool, i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! same_bits_of_float {
    ($($ty:ty),*) => {$(
        impl SameBits for $ty {
            fn same_bits(&self, other: &Self) -> bool {
                self.to_bits() == other.to_bits()
            }
        }
    )*};
}

same_bits_of_float!(f16, f32, f64);

impl<T: SameBits> SameBits for Complex<T> {
    fn same_bits(&self, other: &Self) -> bool {
        self.re.same_bits(&other.re) && self.im.same_bits(&other.im)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names<'a>(names: &[&'a str]) -> Vec<&'a str> {
        names.to_vec()
    }

    #[test]
    fn records_are_matched_to_fields_in_linear_time_and_strictly() {
        let record: Record = [("a", Value::Int8(1)), ("b", Value::Int8(2))]
            .into_iter()
            .collect();
        let ab = names(&["a", "b"]);
        let ba = names(&["b", "a"]);
        assert_eq!(
            record.values_for(ab.iter().copied()).unwrap()[1],
            &Value::Int8(2)
        );
        assert_eq!(
            record.values_for(ba.iter().copied()).unwrap()[0],
            &Value::Int8(2)
        );
        let abc = names(&["a", "b", "c"]);
        assert_eq!(
            record.values_for(abc.iter().copied()),
            Err(FieldsMismatch::Missing("c".into()))
        );
        let a = names(&["a"]);
        assert_eq!(
            record.values_for(a.iter().copied()),
            Err(FieldsMismatch::Unknown("b".into()))
        );
        let twice: Record = [("a", Value::Int8(1)), ("a", Value::Int8(2))]
            .into_iter()
            .collect();
        assert_eq!(
            twice.values_for(ab.iter().copied()),
            Err(FieldsMismatch::Duplicate("a".into()))
        );
    }

    #[test]
    fn arrays_compare_by_items_whatever_the_storage() {
        let typed = SubarrayValue::from_vec(vec![2, 2], vec![0u8; 4]).unwrap();
        let filled = SubarrayValue::filled(vec![2, 2], Value::UInt8(0)).unwrap();
        let values = SubarrayValue::new(vec![2, 2], vec![Value::UInt8(0); 4]).unwrap();
        assert_eq!(typed, filled);
        assert_eq!(filled, values);
        assert_eq!(values.as_slice::<u8>(), Some(&[0u8; 4][..]));
        let flat = SubarrayValue::from(vec![Value::UInt8(0); 4]);
        assert_ne!(flat, typed);
        let nan = |bits| SubarrayValue::from_vec(vec![1], vec![f32::from_bits(bits)]).unwrap();
        assert_eq!(nan(0x7fc0_0001), nan(0x7fc0_0001));
        assert_ne!(nan(0x7fc0_0001), nan(0x7fc0_0000));
        assert!(SubarrayValue::new(vec![3], vec![Value::UInt8(0)]).is_err());
        assert!(SubarrayValue::filled(vec![usize::MAX, 2], Value::UInt8(0)).is_err());
    }

    #[test]
    fn a_huge_repeated_array_is_one_item() {
        let huge = SubarrayValue::filled(vec![2_147_483_647], Value::UInt8(0)).unwrap();
        assert_eq!(huge.len(), 2_147_483_647);
        assert_eq!(huge.get(2_147_483_646).as_deref(), Some(&Value::UInt8(0)));
        assert_eq!(huge.get(2_147_483_647), None);
    }
}
