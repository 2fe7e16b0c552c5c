//! `#[derive(ZarrStruct)]`: the procedural macro of the [`zarrdt`](https://docs.rs/zarrdt) crate.
//! Use it through `zarrdt`, which documents it; this crate is an implementation detail.
//!
//! The pipeline follows thiserror-impl and serde_derive: `ast` turns the syn input into our
//! model (parsing `#[zarr(...)]` with `attr`), `valid` checks it, collecting every error,
//! `expand` generates the impls, and on any error `fallback` emits the errors together
//! with stub impls so that the user sees only the real mistakes.

mod ast;
mod attr;
mod bound;
mod ctxt;
mod expand;
mod fallback;
mod types;
mod valid;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `zarrdt::Element` and `zarrdt::ZarrStruct` for a struct; see the `zarrdt` crate.
#[proc_macro_derive(ZarrStruct, attributes(zarr))]
pub fn derive_zarr_struct(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(&input).into()
}

fn derive(input: &DeriveInput) -> proc_macro2::TokenStream {
    let mut errors = ctxt::Errors::default();
    let parsed = ast::Input::from_syn(input, &mut errors);
    if let Some(parsed) = &parsed {
        parsed.validate(&mut errors);
    }
    match (parsed, errors.finish()) {
        (Some(parsed), Ok(())) => expand::expand(&parsed),
        (_, Err(error)) => fallback::expand(input, &error),
        // `from_syn` only returns `None` after recording an error.
        (None, Ok(())) => fallback::expand(
            input,
            &syn::Error::new(
                proc_macro2::Span::call_site(),
                "ZarrStruct: unsupported input",
            ),
        ),
    }
}
