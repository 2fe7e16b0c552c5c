//! The value of a subarray or Rust array: [`SubarrayValue`], its items held compactly.

use std::any::Any;
use std::borrow::Cow;

use half::f16;
use num_complex::Complex;

use super::same_bits::SameBits;
use super::{Record, Value};
use crate::layout::SubarrayLayout;
use crate::numeric::numeric_kinds;
use crate::{DecodeError, Endian, Error, Layout};

/// The value of a subarray or Rust array: `shape` (row-major) items.
///
/// Numbers and `bool`s are held in one vector of their type (a million `u8` items take a
/// megabyte). Other items read from a chunk (records, text, times, raw bytes) are held as the
/// bytes the chunk stores them in, each decoded when asked for ([`get`](Self::get) and
/// [`iter`](Self::iter) give them as owned values): a million one-byte records take a megabyte
/// too. Items made from [`Value`]s are held as those values; an array of one repeated item (an
/// all-zero fill value) holds it once. Equality compares the shape and the items, whatever the
/// storage.
///
/// ```
/// use zarrdt::value::{SubarrayValue, Value};
///
/// let pos = SubarrayValue::from_vec(vec![3], vec![1.0f32, 2.0, 3.0])?;
/// assert_eq!(pos.as_slice::<f32>(), Some(&[1.0, 2.0, 3.0][..]));
/// let same = SubarrayValue::new(vec![3], vec![Value::Float32(1.0), Value::Float32(2.0), Value::Float32(3.0)])?;
/// assert_eq!(pos, same);
/// assert_eq!(pos.get(2).as_deref(), Some(&Value::Float32(3.0)));
/// # Ok::<(), zarrdt::Error>(())
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
    /// Items that are not numbers, read from a chunk: their stored bytes (boxed, so that a
    /// [`Value`] stays 56 bytes).
    Stored(Box<StoredItems>),
    /// Any values, one per item.
    Values(Vec<Value>),
    /// One value for every item.
    Repeated(Box<Value>),
}

/// How one item of [`StoredItems`] decodes: the element's layout, the item's bytes and the
/// byte order of the scalars that have none of their own (the codec's function, which made the
/// items and checked that each decodes).
pub(crate) type DecodeItem = fn(&Layout, &[u8], Endian) -> Result<Value, DecodeError>;

/// The items of a subarray read from a chunk that are not numbers (records, text, times, raw
/// bytes): the bytes the chunk stores them in, each item decoded when asked for, so that they
/// take the memory of their bytes rather than a [`Value`] each (up to 160 bytes).
#[derive(Clone)]
pub(crate) struct StoredItems {
    /// The subarray's layout: its element is each item's.
    pub(crate) layout: SubarrayLayout,
    /// The byte order of the element's scalars that have none of their own.
    pub(crate) default: Endian,
    /// Every item's bytes, in row-major order, each checked to decode when they were read.
    pub(crate) bytes: Vec<u8>,
    /// How an item decodes.
    pub(crate) decode: DecodeItem,
}

impl std::fmt::Debug for StoredItems {
    /// The items, as the values they are.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let count = self.layout.len();
        f.debug_list()
            .entries((0..count).map_while(|index| self.get(index)))
            .finish()
    }
}

impl StoredItems {
    /// The value of item `index`; `None` past the last item.
    pub(crate) fn get(&self, index: usize) -> Option<Value> {
        let element = self.layout.element();
        let stride = element.size();
        let start = index.checked_mul(stride)?;
        let item = self.bytes.get(start..start.checked_add(stride)?)?;
        // Each item decoded when the items were read.
        (self.decode)(element, item, self.default).ok()
    }
}

/// Item types an [`SubarrayValue`] holds in a vector of their own: `bool`, the integers,
/// [`half::f16`], `f32`, `f64` and the complex types.
pub trait SubarrayItem: Copy + Any + sealed::Sealed {}

mod sealed {
    pub trait Sealed {}
}

macro_rules! array_items {
    ($($ty:ty => $variant:ident $name:literal;)*) => {
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
                Items::Stored(_) | Items::Values(_) | Items::Repeated(_) => return None,
            };
            vector.downcast_ref::<Vec<T>>().map(Vec::as_slice)
        }
    };
}

numeric_kinds!(array_items! { bool => Bool "bool"; });

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

/// Checks that `shape` has exactly `found` items.
fn check_count(shape: &[usize], found: usize) -> Result<(), Error> {
    let count = item_count(shape)?;
    if found != count {
        return Err(Error::ValueMismatch {
            path: crate::FieldPath::root(),
            data_type: format!("an array of shape {shape:?}"),
            reason: format!("{found} items instead of {count}"),
        });
    }
    Ok(())
}

impl SubarrayValue {
    /// An array of `shape` holding `items` in row-major order; numbers of one kind are stored
    /// compactly. Errors unless there are exactly as many items as the shape has.
    pub fn new(shape: Vec<usize>, items: Vec<Value>) -> Result<Self, Error> {
        check_count(&shape, items.len())?;
        Ok(SubarrayValue {
            shape,
            items: pack(items),
        })
    }

    /// An array of `shape` holding the numbers (or `bool`s) `items` in row-major order.
    pub fn from_vec<T: SubarrayItem>(shape: Vec<usize>, items: Vec<T>) -> Result<Self, Error> {
        check_count(&shape, items.len())?;
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
        macro_rules! get {
            ($($ty:ty => $variant:ident $name:literal;)*) => {
                match &self.items {
                    $(Items::$variant(items) => {
                        items.get(index).map(|item| Cow::Owned(Value::$variant(*item)))
                    })*
                    Items::Stored(stored) => stored.get(index).map(Cow::Owned),
                    Items::Values(values) => values.get(index).map(Cow::Borrowed),
                    Items::Repeated(item) => Some(Cow::Borrowed(&**item)),
                }
            };
        }
        numeric_kinds!(get! { bool => Bool "bool"; })
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
    pub(super) fn equals_struct_form(&self, record: &Record) -> bool {
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
        ($($ty:ty => $variant:ident $name:literal;)*) => {
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
    numeric_kinds!(try_pack! { bool => Bool "bool"; })
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
        ($($ty:ty => $variant:ident $name:literal;)*) => {
            match (a, b) {
                $((Items::$variant(a), Items::$variant(b)) => {
                    Some(a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_bits(y)))
                })*
                _ => None,
            }
        };
    }
    numeric_kinds!(same! { bool => Bool "bool"; })
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

#[cfg(test)]
mod tests {
    use super::*;

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

    /// Items held as their stored bytes are boxed: a `Value` (each field of every record a
    /// value read holds is one) stays 56 bytes on 64-bit targets (72 with the items inline).
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn a_value_stays_56_bytes() {
        assert_eq!(std::mem::size_of::<Value>(), 56);
    }

    #[test]
    fn a_huge_repeated_array_is_one_item() {
        let huge = SubarrayValue::filled(vec![2_147_483_647], Value::UInt8(0)).unwrap();
        assert_eq!(huge.len(), 2_147_483_647);
        assert_eq!(huge.get(2_147_483_646).as_deref(), Some(&Value::UInt8(0)));
        assert_eq!(huge.get(2_147_483_647), None);
    }
}
