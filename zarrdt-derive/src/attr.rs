//! `#[zarr(...)]` attributes: `crate`, `bound`, `rename_all` and `single_copy` on the struct,
//! `rename` and `skip` on fields; `crate` on an enum (`#[derive(ZarrEnum)]`), nothing on its
//! variants. Unknown and duplicate keys are errors on the offending token.

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
    /// `#[zarr(rename_all = "...")]`: the case convention of the record names, and the literal.
    pub(crate) rename_all: Option<(RenameRule, LitStr)>,
    /// `#[zarr(single_copy)]`: the struct must have the single-copy layout (its token).
    pub(crate) single_copy: Option<Path>,
}

/// Attributes of an enum (`#[derive(ZarrEnum)]`).
#[derive(Default)]
pub(crate) struct EnumAttrs {
    /// `#[zarr(crate = "...")]`: the path of the runtime crate, and the literal for spans.
    pub(crate) krate: Option<(Path, LitStr)>,
}

/// Attributes of one field.
#[derive(Default)]
pub(crate) struct FieldAttrs {
    /// `#[zarr(rename = "...")]`: the record name of the field.
    pub(crate) rename: Option<LitStr>,
    /// `#[zarr(skip)]`: the field is not stored (its token).
    pub(crate) skip: Option<Path>,
}

/// A case convention of `rename_all`, as serde names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RenameRule {
    /// `lowercase`
    Lower,
    /// `UPPERCASE`
    Upper,
    /// `PascalCase`
    Pascal,
    /// `camelCase`
    Camel,
    /// `snake_case`
    Snake,
    /// `SCREAMING_SNAKE_CASE`
    ScreamingSnake,
    /// `kebab-case`
    Kebab,
    /// `SCREAMING-KEBAB-CASE`
    ScreamingKebab,
}

impl RenameRule {
    const ALL: [(&'static str, RenameRule); 8] = [
        ("lowercase", RenameRule::Lower),
        ("UPPERCASE", RenameRule::Upper),
        ("PascalCase", RenameRule::Pascal),
        ("camelCase", RenameRule::Camel),
        ("snake_case", RenameRule::Snake),
        ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
        ("kebab-case", RenameRule::Kebab),
        ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
    ];

    fn parse(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .find(|(spelling, _)| *spelling == name)
            .map(|(_, rule)| *rule)
    }

    /// The record name of a field whose Rust name is `field`, as serde renames fields: it
    /// takes the name to be snake_case, as Rust fields are, so `lowercase` and `snake_case`
    /// keep it, the upper-case rules change ASCII letters only, and `PascalCase`/`camelCase`
    /// capitalize (ASCII) the letter after each `_` and drop the `_`s.
    pub(crate) fn apply(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
            RenameRule::Pascal => pascal_case(field),
            RenameRule::Camel => {
                let pascal = pascal_case(field);
                let mut chars = pascal.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => pascal,
                }
            }
        }
    }
}

/// `field` with the (ASCII) letter at its start and after each `_` capitalized, the `_`s
/// dropped.
fn pascal_case(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut capitalize = true;
    for c in field.chars() {
        if c == '_' {
            capitalize = true;
        } else if capitalize {
            out.push(c.to_ascii_uppercase());
            capitalize = false;
        } else {
            out.push(c);
        }
    }
    out
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
                        format!("invalid `bound`: {error}; expected where-clause predicates such as \"T: zarrdt::ZarrType\""),
                    ),
                }
            }
        } else if meta.path.is_ident("rename_all") {
            let lit: LitStr = meta.value()?.parse()?;
            if parsed.rename_all.is_some() {
                errors.spanned(&meta.path, "duplicate zarr attribute `rename_all`");
            } else if !lit.suffix().is_empty() {
                errors.spanned(&lit, suffix_error("rename_all", &lit));
            } else if let Some(rule) = RenameRule::parse(&lit.value()) {
                parsed.rename_all = Some((rule, lit));
            } else {
                let names: Vec<String> = RenameRule::ALL
                    .iter()
                    .map(|(name, _)| format!("{name:?}"))
                    .collect();
                errors.spanned(
                    &lit,
                    format!(
                        "unknown `rename_all` rule; expected one of {}",
                        names.join(", ")
                    ),
                );
            }
        } else if meta.path.is_ident("single_copy") {
            if parsed.single_copy.is_some() {
                errors.spanned(&meta.path, "duplicate zarr attribute `single_copy`");
            } else {
                parsed.single_copy = Some(meta.path.clone());
            }
            no_value(meta, errors)?;
        } else {
            let hint = if meta.path.is_ident("rename") || meta.path.is_ident("skip") {
                "; `rename` and `skip` go on fields"
            } else {
                ""
            };
            unknown_key(
                meta,
                errors,
                "a struct",
                "`crate`, `bound`, `rename_all` or `single_copy`",
                hint,
            )?;
        }
        Ok(())
    });
    parsed
}

/// Parses the `#[zarr(...)]` attributes of an enum: only `crate`.
pub(crate) fn enumeration(attrs: &[Attribute], errors: &mut Errors) -> EnumAttrs {
    let mut parsed = EnumAttrs::default();
    each_key(attrs, errors, |meta, errors| {
        if meta.path.is_ident("crate") {
            let lit: LitStr = meta.value()?.parse()?;
            if parsed.krate.is_some() {
                errors.spanned(&meta.path, "duplicate zarr attribute `crate`");
            } else if let Some(path) = crate_path(&lit, errors) {
                parsed.krate = Some((path, lit));
            }
            Ok(())
        } else {
            unknown_key(meta, errors, "an enum", "`crate`", "")
        }
    });
    parsed
}

/// Only the `#[zarr(crate = "...")]` of a struct or enum, for the stub impls that stand in for
/// a failed derive: `Some` with the path (or `None` where there is none) when the attributes
/// name the runtime unambiguously, whatever mistakes their other keys hold (those are reported
/// by [`container`] or [`enumeration`]); `None` when `crate` is itself broken, given twice, or
/// hidden behind a syntax error, where any path the stubs guessed could add an error of its own.
pub(crate) fn runtime_crate(attrs: &[Attribute]) -> Option<Option<(Path, LitStr)>> {
    let mut errors = Errors::default();
    let mut krate = None;
    let mut given = false;
    each_key(attrs, &mut errors, |meta, errors| {
        if meta.path.is_ident("crate") {
            let lit: LitStr = meta.value()?.parse()?;
            if given {
                errors.spanned(&meta.path, "duplicate zarr attribute `crate`");
            }
            given = true;
            krate = crate_path(&lit, errors).map(|path| (path, lit));
            Ok(())
        } else {
            skip_value(meta)
        }
    });
    let broken = errors.finish().is_err() || (given && krate.is_none());
    (!broken).then_some(krate)
}

/// Parses the `#[zarr(...)]` attributes of an enum variant: there are none.
pub(crate) fn variant(attrs: &[Attribute], errors: &mut Errors) {
    each_key(attrs, errors, |meta, errors| {
        unknown_key(
            meta,
            errors,
            "an enum variant",
            "none (a variant is stored as its value, under its own name)",
            "",
        )
    });
}

/// The error for a string literal with a suffix (`"x"suffix`) given to `key`.
fn suffix_error(key: &str, lit: &LitStr) -> String {
    format!(
        "invalid `{key}`: unexpected suffix `{}` on string literal",
        lit.suffix()
    )
}

/// Parses the `#[zarr(...)]` attributes of a field.
pub(crate) fn field(attrs: &[Attribute], errors: &mut Errors) -> FieldAttrs {
    let mut parsed = FieldAttrs::default();
    each_key(attrs, errors, |meta, errors| {
        if meta.path.is_ident("rename") {
            let lit: LitStr = meta.value()?.parse()?;
            if parsed.rename.is_some() {
                errors.spanned(&meta.path, "duplicate zarr attribute `rename`");
            } else if !lit.suffix().is_empty() {
                errors.spanned(&lit, suffix_error("rename", &lit));
            } else if lit.value().is_empty() {
                errors.spanned(
                    &lit,
                    "`rename` must not be empty: Zarr field names are non-empty",
                );
            } else {
                parsed.rename = Some(lit);
            }
        } else if meta.path.is_ident("skip") {
            if parsed.skip.is_some() {
                errors.spanned(&meta.path, "duplicate zarr attribute `skip`");
            } else {
                parsed.skip = Some(meta.path.clone());
            }
            no_value(meta, errors)?;
        } else {
            let on_struct = ["crate", "bound", "rename_all", "single_copy"];
            let hint = if on_struct.iter().any(|key| meta.path.is_ident(key)) {
                "; `crate`, `bound`, `rename_all` and `single_copy` go on the struct"
            } else {
                ""
            };
            unknown_key(meta, errors, "a field", "`rename` or `skip`", hint)?;
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

/// Records an error if a flag (`skip`, `single_copy`) was given a value, and skips it.
fn no_value(meta: &ParseNestedMeta<'_>, errors: &mut Errors) -> syn::Result<()> {
    if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
        errors.spanned(
            &meta.path,
            format!("`{}` takes no value", path_text(&meta.path)),
        );
    }
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

#[cfg(test)]
mod tests {
    use super::RenameRule;

    #[test]
    fn rename_rules_follow_serde() {
        let cases = [
            (RenameRule::Lower, "field_name"),
            (RenameRule::Upper, "FIELD_NAME"),
            (RenameRule::Pascal, "FieldName"),
            (RenameRule::Camel, "fieldName"),
            (RenameRule::Snake, "field_name"),
            (RenameRule::ScreamingSnake, "FIELD_NAME"),
            (RenameRule::Kebab, "field-name"),
            (RenameRule::ScreamingKebab, "FIELD-NAME"),
        ];
        for (rule, expected) in cases {
            assert_eq!(rule.apply("field_name"), expected, "{rule:?}");
        }
        assert_eq!(RenameRule::Camel.apply("x"), "x");
        assert_eq!(RenameRule::Pascal.apply("x"), "X");
        assert_eq!(RenameRule::Camel.apply("pos_3d_x"), "pos3dX");
        // Names that are not snake_case are taken as serde takes them.
        let cases = [
            (RenameRule::Lower, "aBc_d"),
            (RenameRule::Snake, "aBc_d"),
            (RenameRule::Upper, "ABC_D"),
            (RenameRule::Kebab, "aBc-d"),
            (RenameRule::ScreamingKebab, "ABC-D"),
            (RenameRule::Pascal, "ABcD"),
            (RenameRule::Camel, "aBcD"),
        ];
        for (rule, expected) in cases {
            assert_eq!(rule.apply("aBc_d"), expected, "{rule:?}");
        }
        assert_eq!(RenameRule::Camel.apply("_lead"), "lead");
        assert_eq!(RenameRule::Camel.apply("ABC_d"), "aBCD");
        // Only ASCII letters change case; a leading non-ASCII letter is kept.
        assert_eq!(RenameRule::Pascal.apply("größe_wert"), "GrößeWert");
        assert_eq!(RenameRule::Pascal.apply("ä_b"), "äB");
        assert_eq!(RenameRule::Camel.apply("ä_b"), "äB");
        assert_eq!(RenameRule::Upper.apply("größe"), "GRößE");
        assert_eq!(RenameRule::Camel.apply("_"), "");
    }
}
