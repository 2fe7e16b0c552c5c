// `#[zarr(bound = "...")]` replaces the inferred bounds.
#[derive(ZarrStruct)]
#[zarr(bound = "T: ZarrType + Copy")]
struct Explicit<T> {
    value: T,
}
