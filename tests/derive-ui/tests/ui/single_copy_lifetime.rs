// `#[zarr(single_copy)]` on a struct with lifetime parameters only: lifetimes change no layout,
// so the struct is checked where it is defined, as its `'static` instantiation.
use std::marker::PhantomData;

use zarrdt::ZarrStruct;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

// Not plain bytes to zerocopy.
#[derive(ZarrStruct)]
#[zarr(single_copy)]
#[repr(C)]
struct NotZerocopy<'a> {
    value: u32,
    source: PhantomData<&'a ()>,
}

// Plain bytes, but a skipped field makes it larger than its record.
#[derive(ZarrStruct, IntoBytes, FromBytes, Immutable, KnownLayout)]
#[zarr(single_copy)]
#[repr(C)]
struct Skipping<'a, 'b> {
    value: [u8; 4],
    #[zarr(skip)]
    cached: [u8; 4],
    source: PhantomData<(&'a (), &'b ())>,
}

fn main() {}
