// `#[zarr(single_copy)]` on generic structs: the impls require `Self: SingleCopy`, and `SIZE`
// and `NATIVE_LAYOUT` evaluate the layout checks for each instantiation.
#[derive(ZarrStruct, IntoBytes, TryFromBytes, Immutable, KnownLayout)]
#[repr(C, packed)]
#[zarr(single_copy)]
struct Padded<T: ZarrType + Copy> {
    flag: u8,
    value: T,
}

// A lifetime and a const parameter, no type parameter.
#[derive(ZarrStruct)]
#[repr(C)]
#[zarr(single_copy)]
struct Window<'a, const N: usize> {
    values: [f32; N],
    source: PhantomData<&'a ()>,
}
