// `#[zarr(bound = "...")]` replaces the inferred bounds.
#[derive(ZarrStruct)]
#[zarr(bound = "T: Element + Copy")]
struct Explicit<T> {
    value: T,
}
