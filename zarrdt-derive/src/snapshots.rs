//! Snapshots of what the derive generates: each `tests/expand/NAME.rs` holds the input a user
//! writes, and `tests/expand/NAME.expanded.rs` the code the derive generates for it, printed
//! as Rust. A change to the generated code shows as a readable diff, tested in milliseconds;
//! `ZARRDT_BLESS=1 cargo test -p zarrdt-derive snapshots` writes the snapshots again.
//! What must not compile, and where the errors point, is `tests/derive-ui` (trybuild).

use std::fs;
use std::path::{Path, PathBuf};

use quote::ToTokens as _;

/// The inputs, in name order.
fn inputs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expand");
    let mut inputs: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<Result<_, _>>()
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()));
    inputs.retain(|path| {
        let name = path.to_string_lossy();
        name.ends_with(".rs") && !name.ends_with(".expanded.rs")
    });
    inputs.sort();
    inputs
}

/// The derive's output for every struct, enum or union of the source `text`, as Rust:
/// `ZarrEnum`'s for items that derive it, `ZarrStruct`'s for the others.
fn expand(text: &str) -> Result<String, syn::Error> {
    let file = syn::parse_file(text)?;
    let mut generated = proc_macro2::TokenStream::new();
    for item in file.items {
        if matches!(
            item,
            syn::Item::Struct(_) | syn::Item::Enum(_) | syn::Item::Union(_)
        ) {
            let input: syn::DeriveInput = syn::parse2(item.into_token_stream())?;
            if derives_zarr_enum(&input) {
                generated.extend(crate::enums::derive(&input));
            } else {
                generated.extend(crate::derive(&input));
            }
        }
    }
    Ok(prettyplease::unparse(&syn::parse2(generated)?))
}

/// Whether `input` asks for `#[derive(ZarrEnum)]` (else it is expanded as `ZarrStruct`).
fn derives_zarr_enum(input: &syn::DeriveInput) -> bool {
    input
        .attrs
        .iter()
        .filter(|attr| attr.path().is_ident("derive"))
        .any(|attr| {
            attr.parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            )
            .is_ok_and(|paths| paths.iter().any(|path| path.is_ident("ZarrEnum")))
        })
}

#[test]
fn expansions_match_their_snapshots() {
    let bless = std::env::var_os("ZARRDT_BLESS").is_some();
    let mut stale = Vec::new();
    let inputs = inputs();
    assert!(!inputs.is_empty(), "no inputs in tests/expand");
    for input in &inputs {
        let text = fs::read_to_string(input)
            .unwrap_or_else(|error| panic!("{}: {error}", input.display()));
        let expanded = expand(&text).unwrap_or_else(|error| panic!("{}: {error}", input.display()));
        let snapshot = input.with_extension("expanded.rs");
        if bless {
            fs::write(&snapshot, &expanded)
                .unwrap_or_else(|error| panic!("{}: {error}", snapshot.display()));
        }
        if fs::read_to_string(&snapshot).ok().as_deref() != Some(expanded.as_str()) {
            stale.push(snapshot.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "the derive generates other code than these snapshots hold (if that is meant, write \
         them again with ZARRDT_BLESS=1 and review the diff):\n{}",
        stale.join("\n")
    );
}
