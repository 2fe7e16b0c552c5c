//! Generic parameters named as the generated code's own (`__E`, `'__a`, `'__zarrdt`): the
//! derive names its parameters apart from them, so these compile, encode and decode, and are
//! zarrs elements.

use std::marker::PhantomData;

use std::sync::Arc;

use zarrdt::zarrs::array::{Element, ElementOwned};
use zarrdt::zarrs::storage::store::MemoryStore;
use zarrdt::{ArrayOptions, Endian, ZarrStruct, ZarrType};

/// A type parameter named as the codec methods' byte order parameter.
#[derive(ZarrStruct, Debug, Clone, Copy, PartialEq)]
struct ByteOrderName<__E> {
    value: __E,
}

/// Lifetimes named as the zarrs element impls' own, and the next names the derive would pick.
#[derive(ZarrStruct, Debug, Clone, Copy, PartialEq)]
struct LifetimeNames<'__a, '__zarrdt, '__a1> {
    value: u16,
    marker: PhantomData<(&'__a (), &'__zarrdt (), &'__a1 ())>,
}

/// A const parameter named `__E`, and a type parameter `__E1`.
#[derive(ZarrStruct, Debug, Clone, Copy, PartialEq)]
struct ConstName<__E1, const __E: usize> {
    items: [__E1; __E],
}

/// `records` encoded in both byte orders decode to themselves, and pass through zarrs' element
/// traits.
fn round_trip<T>(records: &[T])
where
    T: ZarrType + Element + ElementOwned + Clone + PartialEq + std::fmt::Debug,
{
    for endian in [Endian::Little, Endian::Big] {
        let bytes = T::encode_slice(records, endian);
        assert_eq!(T::decode_slice(&bytes, endian).unwrap(), records);
    }
    let len = records.len() as u64;
    let array = ArrayOptions::new(vec![len], vec![len])
        .create(Arc::new(MemoryStore::new()), "/", &records[0])
        .unwrap();
    array.store_array_subset(&[0..len], records).unwrap();
    let back: Vec<T> = array.retrieve_array_subset(&[0..len]).unwrap();
    assert_eq!(back, records);
}

#[test]
fn parameters_named_as_the_generated_ones_work() {
    round_trip(&[
        ByteOrderName { value: 1.5f64 },
        ByteOrderName { value: -2.0 },
    ]);
    round_trip(&[LifetimeNames {
        value: 7,
        marker: PhantomData,
    }]);
    round_trip(&[ConstName { items: [1u8, 2, 3] }]);
}
