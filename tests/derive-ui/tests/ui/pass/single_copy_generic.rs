//! `#[zarr(single_copy)]` on generic structs whose instantiations have the layout: a type, a
//! lifetime and a const parameter. Each encodes as its own bytes and decodes back.

use std::marker::PhantomData;

use zarrdt::{Endian, ZarrStruct, ZarrType};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

#[derive(ZarrStruct, IntoBytes, FromBytes, Immutable, KnownLayout, Clone, Copy, Debug, PartialEq)]
#[zarr(single_copy)]
#[repr(transparent)]
struct Wrap<T: ZarrType> {
    inner: T,
}

#[derive(ZarrStruct, IntoBytes, FromBytes, Immutable, KnownLayout, Clone, Copy, Debug, PartialEq)]
#[zarr(single_copy)]
#[repr(C, packed)]
struct Padded<T: ZarrType + Copy> {
    flag: u8,
    value: T,
}

#[derive(ZarrStruct, IntoBytes, FromBytes, Immutable, KnownLayout, Debug, PartialEq)]
#[zarr(single_copy)]
#[repr(transparent)]
struct Borrowing<'a> {
    value: u32,
    source: PhantomData<&'a ()>,
}

#[derive(ZarrStruct, IntoBytes, FromBytes, Immutable, KnownLayout, Debug, PartialEq)]
#[zarr(single_copy)]
#[repr(C)]
struct Block<const N: usize> {
    data: [u8; N],
}

fn round_trip<T: ZarrType + IntoBytes + Immutable + PartialEq + std::fmt::Debug>(values: &[T]) {
    let bytes = T::encode_slice(values, Endian::NATIVE);
    assert_eq!(bytes, values.as_bytes());
    assert_eq!(T::decode_slice(&bytes, Endian::NATIVE).unwrap(), values);
}

fn main() {
    round_trip(&[Wrap { inner: 7u64 }, Wrap { inner: 9 }]);
    round_trip(&[Wrap { inner: [1.5f32, -2.0] }]);
    round_trip(&[Padded { flag: 1, value: 0x0102_0304u32 }]);
    round_trip(&[Borrowing { value: 3, source: PhantomData }]);
    round_trip(&[Block { data: [1u8, 2, 3] }]);
    assert_eq!(Padded::<u32>::SIZE, 5);
}
