// `#[zarr(single_copy)]` on generic structs that are plain bytes to zerocopy: the layout of
// each instantiation the program uses is checked when the program is built, and the error
// names the instantiation ("evaluation of `<impl Wrap<Skipping>>::...` failed"). (Lifetime
// parameters are checked where the struct is defined: single_copy_lifetime.rs.)
use zarrdt::{Endian, ZarrStruct, ZarrType};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

// Plain bytes, but 8 bytes in memory for a 4-byte record (a skipped field).
#[derive(ZarrStruct, IntoBytes, FromBytes, Immutable, KnownLayout, Clone, Copy)]
#[repr(C)]
struct Skipping {
    a: u32,
    #[zarr(skip)]
    b: u32,
}

// A type parameter: fine for `u32`, not for `Skipping`.
#[derive(ZarrStruct, IntoBytes, FromBytes, Immutable, KnownLayout, Clone, Copy)]
#[zarr(single_copy)]
#[repr(transparent)]
struct Wrap<T: ZarrType> {
    inner: T,
}

// A const parameter: the record holds `data`, memory `data` and `spare`.
#[derive(ZarrStruct, IntoBytes, FromBytes, Immutable, KnownLayout)]
#[zarr(single_copy)]
#[repr(C)]
struct Block<const N: usize> {
    data: [u8; N],
    #[zarr(skip)]
    spare: u8,
}

fn main() {
    let _ = Wrap::<u32>::encode_slice(&[Wrap { inner: 1u32 }], Endian::NATIVE);
    let skipping = Wrap { inner: Skipping { a: 1, b: 2 } };
    let _ = Wrap::<Skipping>::encode_slice(&[skipping], Endian::NATIVE);
    let _ = Block::<3>::decode_slice(&[0; 3], Endian::NATIVE);
}
