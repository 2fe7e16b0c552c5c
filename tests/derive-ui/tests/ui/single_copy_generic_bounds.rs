// `#[zarr(single_copy)]` on generic structs (a type, a const parameter): each instantiation
// the program uses must be plain bytes to zerocopy, and the error names it. (Lifetime
// parameters are checked where the struct is defined: single_copy_lifetime.rs.)
use zarrdt::{Endian, ZarrStruct, ZarrType};

// The example: 5 bytes packed, 8 in memory, and not zerocopy plain bytes.
#[derive(ZarrStruct, Clone, Copy)]
#[zarr(single_copy)]
#[repr(C)]
struct Padded<T: ZarrType + Copy> {
    flag: u8,
    value: T,
}

#[derive(ZarrStruct)]
#[zarr(single_copy)]
#[repr(C)]
struct Block<const N: usize> {
    tag: u8,
    values: [u32; N],
}

fn main() {
    let padded = [Padded { flag: 1, value: 2u32 }];
    let _ = Padded::<u32>::encode_slice(&padded, Endian::NATIVE);
    let _ = Block::<2>::decode_slice(&[0; 9], Endian::NATIVE);
}
