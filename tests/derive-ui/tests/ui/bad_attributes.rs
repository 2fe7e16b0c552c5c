use zarrdt::ZarrStruct;

#[derive(ZarrStruct)]
#[zarr(rename = "record", skip)]
struct OnStruct {
    x: f32,
}

#[derive(ZarrStruct)]
struct OnField {
    #[zarr(rename = "")]
    empty: f32,
    #[zarr(rename = "a", rename = "b")]
    twice: f32,
    #[zarr(skip, endian = "big")]
    unknown: f32,
    #[zarr(crate = "zarrdt")]
    misplaced: f32,
    #[zarr]
    bare: f32,
}

#[derive(ZarrStruct)]
#[zarr(bound = "T zarrdt::ZarrType")]
struct BadBound<T> {
    x: T,
}

#[derive(ZarrStruct)]
#[zarr(rename_all = "camelCase"q)]
struct SuffixedRule {
    #[zarr(rename = "x"suffix)]
    a_b: u8,
}

fn main() {}
