//! Error collection: every mistake in one struct is reported at once, each on its own token.

use std::fmt::Display;

use quote::ToTokens;

/// Collects spanned errors while parsing and validating.
#[derive(Default)]
pub(crate) struct Errors {
    errors: Vec<syn::Error>,
}

impl Errors {
    /// Records an error spanned on `tokens`.
    pub(crate) fn spanned(&mut self, tokens: impl ToTokens, message: impl Display) {
        self.errors.push(syn::Error::new_spanned(tokens, message));
    }

    /// Records an error syn produced.
    pub(crate) fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    /// All errors combined into one, or `Ok` if there were none.
    pub(crate) fn finish(self) -> syn::Result<()> {
        let mut errors = self.errors.into_iter();
        match errors.next() {
            None => Ok(()),
            Some(mut first) => {
                for error in errors {
                    first.combine(error);
                }
                Err(first)
            }
        }
    }
}
