// Rejected attributes: every error at once, each on its token, and the stub impls (a broken
// `rename_all` leaves the runtime's path known), so that code using `Bad` sees no more errors.
#[derive(ZarrStruct)]
#[zarr(rename_all = "SHOUTING")]
struct Bad {
    #[zarr(rename = "b")]
    a: u8,
    b: u8,
    #[zarr(colour = "red")]
    c: u8,
}
