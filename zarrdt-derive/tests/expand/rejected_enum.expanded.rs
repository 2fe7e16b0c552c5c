::core::compile_error! {
    "ZarrStruct can only be derived for structs: a Zarr struct data type has a fixed list of fields, which an enum does not; a fieldless enum with an integer #[repr(u8)] (or i8..i64, u16..u64) is stored as that integer with #[derive(ZarrEnum)]"
}
