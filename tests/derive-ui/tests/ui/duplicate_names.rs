use zarrdt::ZarrStruct;

#[derive(ZarrStruct)]
struct Clash {
    x: f32,
    #[zarr(rename = "x")]
    y: f32,
}

#[derive(ZarrStruct)]
struct TupleClash(u8, #[zarr(rename = "0")] u8);

fn main() {}
