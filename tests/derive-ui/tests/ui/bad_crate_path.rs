use zarrdt::ZarrStruct;

#[derive(ZarrStruct)]
#[zarr(crate = "not a path")]
struct Spaces {
    x: f32,
}

#[derive(ZarrStruct)]
#[zarr(crate = "Self")]
struct SelfPath {
    x: f32,
}

#[derive(ZarrStruct)]
#[zarr(crate = "zarrdt::super")]
struct SuperInside {
    x: f32,
}

#[derive(ZarrStruct)]
#[zarr(crate = "no_such_crate")]
struct Missing {
    x: f32,
}

fn main() {}
