//! The compile-error cases of `#[derive(ZarrStruct)]` and `#[derive(ZarrEnum)]`, run by
//! trybuild from `tests/ui.rs`; this library is empty.
