// Names: `rename_all`, a field's own `rename` and a raw identifier; fields that are not
// stored: `skip` (decoded as its `Default`) and `PhantomData`.
#[derive(ZarrStruct)]
#[zarr(rename_all = "camelCase")]
pub struct Observation<U> {
    station_name: FixedString<16>,
    #[zarr(rename = "foo.mask")]
    mask: bool,
    r#type: u8,
    #[zarr(skip)]
    note: String,
    unit: PhantomData<U>,
}
