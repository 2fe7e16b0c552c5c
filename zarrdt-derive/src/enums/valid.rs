//! Semantic checks of a parsed enum. Every problem is recorded, spanned on its own token.

use syn::Fields;

use super::ast::EnumInput;
use crate::ctxt::Errors;

impl EnumInput<'_> {
    /// Records every reason this enum cannot be stored as an integer.
    pub(crate) fn validate(&self, errors: &mut Errors) {
        if self.repr.is_none() {
            let message = match &self.bad_repr {
                Some((_, name)) if matches!(name.as_str(), "usize" | "isize") => format!(
                    "ZarrEnum: `repr({name})` has a platform-dependent size; use a fixed-size integer: #[repr(u8)], i8, u16, i16, u32, i32, u64 or i64"
                ),
                Some((_, name)) if matches!(name.as_str(), "u128" | "i128") => format!(
                    "ZarrEnum: `repr({name})` has no Zarr data type (the widest integers are 64-bit); use #[repr(u64)] or #[repr(i64)]"
                ),
                _ => "ZarrEnum needs an integer representation, such as #[repr(u8)] (or i8, u16, i16, u32, i32, u64, i64): it is the integer type the enum is stored as, fixed in the array's data type".to_owned(),
            };
            let span = self.bad_repr.as_ref().map_or(self.span, |(span, _)| *span);
            errors.push(syn::Error::new(span, message));
        }
        if self.variants.is_empty() {
            errors.push(syn::Error::new(
                self.span,
                "ZarrEnum: an enum without variants has no values to store",
            ));
        }
        if let Some(param) = self.generics.params.first() {
            errors.spanned(
                param,
                "ZarrEnum: a fieldless enum stored as an integer cannot be generic",
            );
        }
        for variant in &self.variants {
            let kind = match &variant.fields {
                Fields::Unit => continue,
                Fields::Named(_) => "fields",
                Fields::Unnamed(_) => "data",
            };
            errors.spanned(
                &variant.fields,
                format!(
                    "ZarrEnum: variant `{}` carries {kind}, but an enum is stored as one integer, so every variant must be fieldless (`{0}` or `{0} = 3`); keep the data in a #[derive(ZarrStruct)] struct with the enum as one of its fields",
                    variant.ident
                ),
            );
        }
    }
}
