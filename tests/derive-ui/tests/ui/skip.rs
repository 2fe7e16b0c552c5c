use std::marker::PhantomData;
use zarrdt::ZarrStruct;

#[derive(ZarrStruct)]
struct SkipWithValue {
    #[zarr(skip = true)]
    cache: f32,
    x: f32,
}

#[derive(ZarrStruct)]
struct SkipAndRename {
    #[zarr(skip, rename = "c")]
    cache: f32,
    x: f32,
}

#[derive(ZarrStruct)]
struct SkipPhantom<T> {
    #[zarr(skip)]
    marker: PhantomData<T>,
    x: f32,
}

#[derive(ZarrStruct)]
struct OnlySkipped {
    #[zarr(skip)]
    cache: f32,
}

struct NoDefault;

// A skipped field is filled with its default when a record is decoded.
#[derive(ZarrStruct)]
struct SkippedWithoutDefault {
    #[zarr(skip)]
    handle: NoDefault,
    x: f32,
}

fn main() {}
