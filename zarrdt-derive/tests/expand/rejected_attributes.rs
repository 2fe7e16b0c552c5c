// Rejected attributes: every error at once, each on its token.
#[derive(ZarrStruct)]
#[zarr(rename_all = "SHOUTING")]
struct Bad {
    #[zarr(rename = "b")]
    a: u8,
    b: u8,
    #[zarr(colour = "red")]
    c: u8,
}
