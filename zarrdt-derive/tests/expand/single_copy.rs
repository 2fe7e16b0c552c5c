// `#[zarr(single_copy)]`: compile-time checks that slices are their packed records.
#[derive(ZarrStruct, IntoBytes, FromBytes, Immutable, KnownLayout)]
#[repr(C)]
#[zarr(single_copy)]
struct Native {
    x: f64,
    n: u32,
    tag: [u8; 4],
}
