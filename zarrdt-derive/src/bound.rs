//! The where-clause of the generated impls: the struct's own, plus `FieldType: ZarrType` for every
//! stored field whose type mentions a type parameter (`FieldType: Default` for a skipped one),
//! or the user's `#[zarr(bound = "...")]` instead of the inferred ones.

use std::collections::HashSet;

use proc_macro2::TokenStream;
use syn::spanned::Spanned;
use syn::{WhereClause, parse_quote, parse_quote_spanned};

use crate::ast::Input;
use crate::types;

/// The where-clause for `impl ZarrType` and `impl ZarrStruct`; `private` names the runtime's
/// `__private` module.
pub(crate) fn where_clause(input: &Input<'_>, private: &TokenStream) -> WhereClause {
    let mut clause = input
        .generics
        .where_clause
        .clone()
        .unwrap_or_else(|| parse_quote!(where));
    if let Some(bound) = &input.attrs.bound {
        clause.predicates.extend(bound.iter().cloned());
        return clause;
    }
    let params: HashSet<_> = input
        .generics
        .type_params()
        .map(|param| &param.ident)
        .collect();
    if params.is_empty() {
        return clause;
    }
    for field in &input.fields {
        if field.phantom || !types::mentions(field.ty, &params) {
            continue;
        }
        let ty = field.ty;
        // Spanned on the field type, so an unmet bound points at the field. A skipped field
        // is not stored; decoding fills it with its default.
        clause.predicates.push(if field.stored() {
            parse_quote_spanned!(ty.span()=> #ty: #private::ZarrType)
        } else {
            parse_quote_spanned!(ty.span()=> #ty: #private::Default)
        });
    }
    clause
}
