//! Semantic checks of a parsed struct. Every problem is recorded, spanned on its own token.

use std::collections::HashMap;

use crate::ast::Input;
use crate::ctxt::Errors;
use crate::types;

impl Input<'_> {
    /// Records every reason this struct cannot be a Zarr struct.
    pub(crate) fn validate(&self, errors: &mut Errors) {
        if self.stored_fields().next().is_none() {
            errors.push(syn::Error::new(
                self.span,
                "a Zarr struct needs at least one field to store (PhantomData and skipped fields are not stored)",
            ));
        }
        if let Some((_, lit)) = &self.attrs.rename_all
            && !self.named()
        {
            errors.spanned(
                lit,
                "`rename_all` has no effect on a tuple struct: its fields are named \"0\", \"1\", …; rename them one by one",
            );
        }
        let mut names: HashMap<String, String> = HashMap::new();
        for field in &self.fields {
            if field.phantom {
                if let Some(rename) = &field.rename {
                    errors.spanned(
                        rename,
                        "`rename` on a PhantomData field has no effect: PhantomData is not stored",
                    );
                }
                if let Some(skip) = &field.skip {
                    errors.spanned(
                        skip,
                        "`skip` on a PhantomData field is not needed: PhantomData is never stored",
                    );
                }
                continue;
            }
            if field.skip.is_some() {
                if let Some(rename) = &field.rename {
                    errors.spanned(
                        rename,
                        "`rename` on a skipped field has no effect: the field is not stored",
                    );
                }
                continue;
            }
            if let Some((ty, reason)) = types::unsupported(field.ty) {
                errors.spanned(ty, reason);
            }
            let name = field.record_name();
            let member = match &field.member {
                syn::Member::Named(ident) => ident.to_string(),
                syn::Member::Unnamed(index) => index.index.to_string(),
            };
            if let Some(previous) = names.insert(name.clone(), member) {
                errors.push(syn::Error::new(
                    field.name_span(),
                    format!(
                        "duplicate Zarr field name {name:?}: field `{previous}` already has this name"
                    ),
                ));
            }
        }
    }
}
