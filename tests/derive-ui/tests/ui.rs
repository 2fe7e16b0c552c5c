//! Compile-time behaviour of `#[derive(ZarrStruct)]`: every rejection is a spanned error
//! (`tests/ui/*.rs` with their `.stderr`, recorded with the toolchain `rust-toolchain.toml`
//! pins; `TRYBUILD=overwrite` records them again). The cases need only the derive and the core
//! (`zarrdt` without its default features), so trybuild's project builds in seconds. That the
//! generated code compiles in hostile settings, and what it does, is tested in the `zarrdt`
//! suite (`tests/suite/generated_code`) and by the expansion snapshots
//! (`zarrdt-derive/tests/expand`).

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
    // One case that must build (not only check), so that errors raised while constants are
    // evaluated (`zero_length_array`) are reached, and the derive is seen to work without zarrs.
    cases.pass("tests/ui/pass/*.rs");
}
