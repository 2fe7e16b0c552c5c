//! `#[derive(ZarrEnum)]`: a fieldless enum with an integer `repr` as a Zarr type, stored as
//! that integer. The same pipeline as the struct derive: `ast` builds the model (with
//! `crate::attr` for `#[zarr(...)]`), `valid` records every mistake, `expand` generates the
//! impl, and on any mistake `crate::fallback` emits the errors and a stub impl.

mod ast;
mod expand;
mod valid;

use syn::DeriveInput;

use crate::{ctxt, fallback};

/// The expansion of `#[derive(ZarrEnum)]` on `input`.
pub(crate) fn derive(input: &DeriveInput) -> proc_macro2::TokenStream {
    let mut errors = ctxt::Errors::default();
    let parsed = ast::EnumInput::from_syn(input, &mut errors);
    if let Some(parsed) = &parsed {
        parsed.validate(&mut errors);
    }
    match (parsed, errors.finish()) {
        (Some(parsed), Ok(())) => expand::expand(&parsed),
        (_, Err(error)) => fallback::expand(input, &error, fallback::Stubs::Enum),
        // `from_syn` only returns `None` after recording an error.
        (None, Ok(())) => fallback::expand(
            input,
            &syn::Error::new(
                proc_macro2::Span::call_site(),
                "ZarrEnum: unsupported input",
            ),
            fallback::Stubs::Enum,
        ),
    }
}
