use zarrdt::ZarrStruct;

#[derive(ZarrStruct)]
#[zarr(rename_all = "Title Case")]
struct UnknownRule {
    a: f32,
}

#[derive(ZarrStruct)]
#[zarr(rename_all = "camelCase", rename_all = "snake_case")]
struct Twice {
    a: f32,
}

#[derive(ZarrStruct)]
#[zarr(rename_all = "UPPERCASE")]
struct Tuple(f32, f32);

// `pos_x` becomes `posX`, which a renamed field already has.
#[derive(ZarrStruct)]
#[zarr(rename_all = "camelCase")]
struct Collision {
    #[zarr(rename = "posX")]
    x: f32,
    pos_x: f32,
}

// `__` has no letters for camelCase to keep: its name would be empty.
#[derive(ZarrStruct)]
#[zarr(rename_all = "camelCase")]
struct Emptied {
    __: u8,
    b: u8,
}

fn main() {}
