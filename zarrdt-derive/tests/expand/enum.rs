// `#[derive(ZarrEnum)]`: a fieldless enum stored as its `repr` integer, with implicit and
// explicit discriminants.
#[derive(ZarrEnum, Clone, Copy)]
#[repr(u8)]
enum Status {
    Ok,
    Warn = 3,
    Fail,
}

// Signed and 64-bit, discriminants from constant expressions, the runtime crate renamed.
#[derive(ZarrEnum)]
#[repr(i64)]
#[zarr(crate = "my_zarrdt")]
enum Level {
    Low = -5,
    High = 1 << 40,
}
