//! A user crate with strict lints: the generated code adds no warnings and no unsafe (`forbid`,
//! so that not even an `#[allow(unsafe_code)]` in the expansion would pass).
#![forbid(unsafe_code)]
#![deny(missing_docs, warnings)]

use std::marker::PhantomData;

use zarrdt::{Endian, ZarrEnum, ZarrStruct, ZarrType};

/// A documented record.
#[derive(ZarrStruct, Debug, Clone, Copy, PartialEq)]
pub struct Reading {
    /// When.
    pub time: i64,
    /// What.
    pub value: f32,
    /// Whether it is valid.
    pub valid: bool,
}

/// A generic record with a marker.
#[derive(ZarrStruct)]
pub struct Wrapper<T, U> {
    /// The payload.
    pub inner: [T; 2],
    /// Not stored.
    pub marker: PhantomData<U>,
}

/// A generic record whose bounds are given explicitly.
#[derive(ZarrStruct)]
#[zarr(bound = "T: ZarrType + Copy")]
pub struct Explicit<T> {
    /// The payload.
    pub value: T,
}

/// Packed and `#[repr(C)]`.
#[derive(ZarrStruct, Clone, Copy)]
#[repr(C, packed)]
pub struct Packed {
    /// A byte.
    pub a: u8,
    /// A word.
    pub b: u32,
}

/// With a raw identifier.
#[derive(ZarrStruct)]
pub struct Raw {
    /// Named `type` in the record.
    pub r#type: u8,
}

/// A documented enum.
#[derive(ZarrEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
pub enum Quality {
    /// Good.
    Good,
    /// Bad.
    Bad = 4,
}

/// A record with an enum and a `char`.
#[derive(ZarrStruct, Debug, Clone, Copy, PartialEq)]
pub struct Graded {
    /// The quality.
    pub quality: Quality,
    /// A letter.
    pub grade: char,
}

/// A generic single-copy record (checked per instantiation).
#[derive(
    ZarrStruct, zerocopy::IntoBytes, zerocopy::FromBytes, zerocopy::Immutable, Clone, Copy,
)]
#[zarr(single_copy)]
#[repr(transparent)]
pub struct Single<T: ZarrType> {
    /// The payload.
    pub value: T,
}

/// A single-copy record with a lifetime (checked once, as `'static`).
#[derive(ZarrStruct, zerocopy::IntoBytes, zerocopy::FromBytes, zerocopy::Immutable)]
#[zarr(single_copy)]
#[repr(transparent)]
pub struct Borrowed<'a> {
    /// The payload.
    pub value: u64,
    /// Not stored.
    pub marker: PhantomData<&'a ()>,
}

#[test]
fn compiles_and_runs() {
    let graded = Graded {
        quality: Quality::Bad,
        grade: 'g',
    };
    assert_eq!(graded.encode(Endian::Little), [4, b'g', 0, 0, 0]);
    assert_eq!(
        Single::<u32>::encode_slice(&[Single { value: 1 }], Endian::Big),
        [0, 0, 0, 1]
    );
    let borrowed = Borrowed {
        value: 2,
        marker: PhantomData,
    };
    assert_eq!(borrowed.encode(Endian::Little)[0], 2);
    let reading = Reading {
        time: 1,
        value: 2.5,
        valid: true,
    };
    let back = Reading::decode(&reading.encode(Endian::Big), Endian::Big).unwrap();
    assert_eq!(back, reading);
    let wrapper: Wrapper<i16, String> = Wrapper {
        inner: [1, 2],
        marker: PhantomData,
    };
    assert_eq!(wrapper.encode(Endian::Little), [1, 0, 2, 0]);
    assert_eq!(Explicit { value: 3u8 }.encode(Endian::Little), [3]);
    assert_eq!(Packed { a: 1, b: 2 }.encode(Endian::Big), [1, 0, 0, 0, 2]);
    assert_eq!(<Raw as ZarrStruct>::FIELDS[0].name(), "type");
}
