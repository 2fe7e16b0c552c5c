//! Compile-time behaviour of `#[derive(ZarrStruct)]`: every rejection is a spanned error
//! (`tests/ui/*.rs` with their `.stderr`), and generated code compiles in hostile settings
//! (`tests/ui/pass/*.rs`).

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
    cases.pass("tests/ui/pass/*.rs");
}
