//! `#[zarr(...)]` attributes: `crate` and `bound` on the struct, `rename` on fields. Unknown and
//! duplicate keys are errors on the offending token.

use proc_macro2::TokenStream;
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
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("zarr")) {
        let mut seen_crate = false;
        let mut seen_bound = false;
        let result = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                let lit: LitStr = meta.value()?.parse()?;
                if std::mem::replace(&mut seen_crate, true) || parsed.krate.is_some() {
                    errors.spanned(&meta.path, "duplicate zarr attribute `crate`");
                } else if let Some(path) = crate_path(&lit, errors) {
                    parsed.krate = Some((path, lit));
                }
            } else if meta.path.is_ident("bound") {
                let lit: LitStr = meta.value()?.parse()?;
                if std::mem::replace(&mut seen_bound, true) || parsed.bound.is_some() {
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
                errors.spanned(
                    &meta.path,
                    format!(
                        "unknown zarr attribute `{}` on a struct; expected `crate` or `bound`{hint}",
                        path_text(&meta.path)
                    ),
                );
                skip_value(&meta)?;
            }
            Ok(())
        });
        if let Err(error) = result {
            errors.push(error);
        }
    }
    parsed
}

/// Parses the `#[zarr(...)]` attributes of a field.
pub(crate) fn field(attrs: &[Attribute], errors: &mut Errors) -> FieldAttrs {
    let mut parsed = FieldAttrs::default();
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("zarr")) {
        let result = attr.parse_nested_meta(|meta| {
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
                errors.spanned(
                    &meta.path,
                    format!(
                        "unknown zarr attribute `{}` on a field; expected `rename`{hint}",
                        path_text(&meta.path)
                    ),
                );
                skip_value(&meta)?;
            }
            Ok(())
        });
        if let Err(error) = result {
            errors.push(error);
        }
    }
    parsed
}

/// Consumes the value of an unknown key (`= value` or `(...)`) so parsing can go on and report
/// later mistakes too.
fn skip_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()> {
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
