// `#[zarr(crate = "...")]`: the runtime crate under another name.
#[derive(ZarrStruct)]
#[zarr(crate = "my_zarrdt")]
struct Renamed {
    x: f64,
}
