//! The syn input turned into our model of an enum to derive for.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Generics, Ident};

use crate::attr::{self, EnumAttrs};
use crate::ctxt::Errors;

/// An enum with `#[derive(ZarrEnum)]`.
pub(crate) struct EnumInput<'a> {
    /// The enum's name.
    pub(crate) ident: &'a Ident,
    /// Its generics, as written (refused: see `valid`).
    pub(crate) generics: &'a Generics,
    /// `#[zarr(...)]` on the enum.
    pub(crate) attrs: EnumAttrs,
    /// The integer type of `#[repr(...)]`, if one is given.
    pub(crate) repr: Option<Repr>,
    /// What `#[repr(...)]` gives instead of one of the eight integers, for the error.
    pub(crate) bad_repr: Option<(Span, String)>,
    /// The variants in declaration order.
    pub(crate) variants: Vec<&'a syn::Variant>,
    /// Where "the enum" is, for errors about it as a whole.
    pub(crate) span: Span,
}

/// An integer `repr` of a fieldless enum: a Rust integer type and its Zarr scalar type.
#[derive(Clone, Copy)]
pub(crate) struct Repr {
    /// `u8`, `i64`…
    pub(crate) rust: &'static str,
    /// `UInt8`, `Int64`… (the `ScalarType` variant).
    pub(crate) scalar: &'static str,
    /// The `repr` token, for spans.
    pub(crate) span: Span,
}

/// The integer `repr`s an enum can be stored as.
const INTEGERS: [(&str, &str); 8] = [
    ("u8", "UInt8"),
    ("i8", "Int8"),
    ("u16", "UInt16"),
    ("i16", "Int16"),
    ("u32", "UInt32"),
    ("i32", "Int32"),
    ("u64", "UInt64"),
    ("i64", "Int64"),
];

impl<'a> EnumInput<'a> {
    /// Our model of `input`; `None` (with an error recorded) for structs and unions.
    pub(crate) fn from_syn(input: &'a DeriveInput, errors: &mut Errors) -> Option<Self> {
        let attrs = attr::enumeration(&input.attrs, errors);
        let data = match &input.data {
            Data::Enum(data) => data,
            Data::Struct(data) => {
                errors.spanned(
                    data.struct_token,
                    "ZarrEnum is derived for fieldless enums; use #[derive(ZarrStruct)] for a struct",
                );
                return None;
            }
            Data::Union(data) => {
                errors.spanned(
                    data.union_token,
                    "ZarrEnum is derived for fieldless enums; the fields of a union overlap",
                );
                return None;
            }
        };
        for variant in &data.variants {
            attr::variant(&variant.attrs, errors);
        }
        let (repr, bad_repr) = repr(input);
        Some(EnumInput {
            ident: &input.ident,
            generics: &input.generics,
            attrs,
            repr,
            bad_repr,
            variants: data.variants.iter().collect(),
            span: input.ident.span(),
        })
    }
}

/// The integer of `#[repr(...)]`, or what was given instead (`usize`, `C`) with its span.
fn repr(input: &DeriveInput) -> (Option<Repr>, Option<(Span, String)>) {
    let mut found = None;
    let mut other = None;
    for attr in input
        .attrs
        .iter()
        .filter(|attr| attr.path().is_ident("repr"))
    {
        // A malformed repr is rustc's to report; we only look for the integer.
        let _ = attr.parse_nested_meta(|meta| {
            let name = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            match INTEGERS.iter().find(|(rust, _)| *rust == name) {
                Some((rust, scalar)) => {
                    found = Some(Repr {
                        rust,
                        scalar,
                        span: meta.path.span(),
                    });
                }
                None if !matches!(name.as_str(), "align") => {
                    other.get_or_insert((meta.path.span(), name));
                }
                None => {}
            }
            if meta.input.peek(syn::token::Paren) {
                let content;
                syn::parenthesized!(content in meta.input);
                content.parse::<proc_macro2::TokenStream>()?;
            }
            Ok(())
        });
    }
    (found, other)
}
