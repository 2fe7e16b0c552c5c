//! `#[zarr(...)]` attributes: `crate` and `bound` on the struct, `rename` on fields. Unknown and
//! duplicate keys are errors on the offending token.

use proc_macro2::TokenStream;
use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;
use syn::{Attribute, LitStr, Path, PathArguments, Token, WherePredicate};

use crate::ctxt::Errors;

/// Attributes of the struct itself.
#[derive(Default)]
pub(crate) struct ContainerAttrs {
    /// `#[zarr(crate = "...")]`: the path of the runtime crate, and the literal for spans.
    pub(crate) krate: Option<(Path, LitStr)>,
    /// `#[zarr(bound = "...")]`: where-predicates replacing the inferred ones.
    pub(crate) bound: Option<Vec<WherePredicate>>,
}

/// Attributes of one field.
#[derive(Default)]
pub(crate) struct FieldAttrs {
    /// `#[zarr(rename = "...")]`: the record name of the field.
    pub(crate) rename: Option<LitStr>,
}

/// Parses the `#[zarr(...)]` attributes of the struct.
pub(crate) fn container(attrs: &[Attribute], errors: &mut Errors) -> ContainerAttrs {
    let mut parsed = ContainerAttrs::default();
    each_key(attrs, errors, |meta, errors| {
        if meta.path.is_ident("crate") {
            let lit: LitStr = meta.value()?.parse()?;
            if parsed.krate.is_some() {
                errors.spanned(&meta.path, "duplicate zarr attribute `crate`");
            } else if let Some(path) = crate_path(&lit, errors) {
                parsed.krate = Some((path, lit));
            }
        } else if meta.path.is_ident("bound") {
            let lit: LitStr = meta.value()?.parse()?;
            if parsed.bound.is_some() {
                errors.spanned(&meta.path, "duplicate zarr attribute `bound`");
            } else {
                match lit.parse_with(Punctuated::<WherePredicate, Token![,]>::parse_terminated) {
                    Ok(predicates) => parsed.bound = Some(predicates.into_iter().collect()),
                    Err(error) => errors.spanned(
                        &lit,
                        format!("invalid `bound`: {error}; expected where-clause predicates such as \"T: zarrdt::Element\""),
                    ),
                }
            }
        } else {
            let hint = if meta.path.is_ident("rename") {
                "; `rename` goes on fields"
            } else {
                ""
            };
            unknown_key(meta, errors, "a struct", "`crate` or `bound`", hint)?;
        }
        Ok(())
    });
    parsed
}

/// Parses the `#[zarr(...)]` attributes of a field.
pub(crate) fn field(attrs: &[Attribute], errors: &mut Errors) -> FieldAttrs {
    let mut parsed = FieldAttrs::default();
    each_key(attrs, errors, |meta, errors| {
        if meta.path.is_ident("rename") {
            let lit: LitStr = meta.value()?.parse()?;
            if parsed.rename.is_some() {
                errors.spanned(&meta.path, "duplicate zarr attribute `rename`");
            } else if lit.value().is_empty() {
                errors.spanned(
                    &lit,
                    "`rename` must not be empty: Zarr field names are non-empty",
                );
            } else {
                parsed.rename = Some(lit);
            }
        } else {
            let hint = if meta.path.is_ident("crate") || meta.path.is_ident("bound") {
                "; `crate` and `bound` go on the struct"
            } else {
                ""
            };
            unknown_key(meta, errors, "a field", "`rename`", hint)?;
        }
        Ok(())
    });
    parsed
}

/// Runs `parse` on every key of every `#[zarr(...)]` attribute, recording the syntax errors
/// syn reports (a bare `#[zarr]`, a missing `=`…) next to the ones `parse` records.
fn each_key(
    attrs: &[Attribute],
    errors: &mut Errors,
    mut parse: impl FnMut(&ParseNestedMeta<'_>, &mut Errors) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("zarr")) {
        if let Err(error) = attr.parse_nested_meta(|meta| parse(&meta, errors)) {
            errors.push(error);
        }
    }
}

/// Records an unknown key on `place` and skips its value.
fn unknown_key(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
    place: &str,
    expected: &str,
    hint: &str,
) -> syn::Result<()> {
    errors.spanned(
        &meta.path,
        format!(
            "unknown zarr attribute `{}` on {place}; expected {expected}{hint}",
            path_text(&meta.path)
        ),
    );
    skip_value(meta)
}

/// Consumes the value of an unknown key (`= value` or `(...)`) so parsing can go on and report
/// later mistakes too.
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        content.parse::<TokenStream>()?;
    }
    Ok(())
}

fn path_text(path: &Path) -> String {
    path.segments
        .iter()
        .map(|segment| segment.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}

/// Parses and checks the path given to `#[zarr(crate = "...")]`: a plain module path, with
/// `crate`, `self` or `super` only at the front and no `Self` or generic arguments.
fn crate_path(lit: &LitStr, errors: &mut Errors) -> Option<Path> {
    let path: Path = match lit.parse() {
        Ok(path) => path,
        Err(error) => {
            errors.spanned(lit, format!("invalid `crate` path: {error}"));
            return None;
        }
    };
    let mut keywords_allowed = path.leading_colon.is_none();
    for segment in &path.segments {
        let ident = segment.ident.to_string();
        let problem = if !matches!(segment.arguments, PathArguments::None) {
            Some("generic arguments are not allowed")
        } else if ident == "Self" {
            Some("`Self` is not a crate path")
        } else if matches!(ident.as_str(), "crate" | "self" | "super") && !keywords_allowed {
            Some("`crate`, `self` and `super` may only start the path")
        } else {
            None
        };
        if let Some(problem) = problem {
            errors.spanned(lit, format!("invalid `crate` path: {problem}"));
            return None;
        }
        keywords_allowed = ident == "super";
    }
    Some(path)
}
