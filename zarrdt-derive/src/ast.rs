//! The syn input turned into our model of a struct to derive for.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Generics, Ident, LitStr, Member, Type};

use crate::attr::{self, ContainerAttrs};
use crate::ctxt::Errors;
use crate::types;

/// A struct with `#[derive(ZarrStruct)]`.
pub(crate) struct Input<'a> {
    /// The struct's name.
    pub(crate) ident: &'a Ident,
    /// Its generics, as written.
    pub(crate) generics: &'a Generics,
    /// `#[zarr(...)]` on the struct.
    pub(crate) attrs: ContainerAttrs,
    /// Every field in declaration order, stored ones and `PhantomData` alike.
    pub(crate) fields: Vec<Field<'a>>,
    /// Whether the struct is `#[repr(packed)]`, so fields must be copied before use.
    pub(crate) packed: bool,
    /// Where "the struct" is, for errors about it as a whole.
    pub(crate) span: Span,
}

/// One field of the struct.
pub(crate) struct Field<'a> {
    /// `self.name` or `self.0`.
    pub(crate) member: Member,
    /// The field's type.
    pub(crate) ty: &'a Type,
    /// `#[zarr(rename = "...")]`, if given.
    pub(crate) rename: Option<LitStr>,
    /// `#[zarr(skip)]`, if given: the field is not part of the record.
    pub(crate) skip: Option<syn::Path>,
    /// The field's name in the record: the rename, else the identifier (without `r#`) in the
    /// struct's `rename_all` case, else the tuple index.
    pub(crate) name: String,
    /// Whether this is a `PhantomData` field, which is not part of the record.
    pub(crate) phantom: bool,
    /// The field as written, for spans.
    pub(crate) original: &'a syn::Field,
}

impl Field<'_> {
    /// The field's name in the record.
    pub(crate) fn record_name(&self) -> String {
        self.name.clone()
    }

    /// Whether the field is part of the record (neither `PhantomData` nor skipped).
    pub(crate) fn stored(&self) -> bool {
        !self.phantom && self.skip.is_none()
    }

    /// The token a mistake about the record name points at: the rename or the field.
    pub(crate) fn name_span(&self) -> Span {
        match (&self.rename, &self.original.ident) {
            (Some(rename), _) => rename.span(),
            (None, Some(ident)) => ident.span(),
            (None, None) => self.original.ty.span(),
        }
    }
}

impl<'a> Input<'a> {
    /// Our model of `input`; `None` (with an error recorded) for enums and unions.
    pub(crate) fn from_syn(input: &'a DeriveInput, errors: &mut Errors) -> Option<Self> {
        let attrs = attr::container(&input.attrs, errors);
        let fields = match &input.data {
            Data::Struct(data) => &data.fields,
            Data::Enum(data) => {
                errors.spanned(
                    data.enum_token,
                    "ZarrStruct can only be derived for structs: a Zarr struct data type has a fixed list of fields, which an enum does not; a fieldless enum with an integer #[repr(u8)] (or i8..i64, u16..u64) is stored as that integer with #[derive(ZarrEnum)]",
                );
                return None;
            }
            Data::Union(data) => {
                errors.spanned(
                    data.union_token,
                    "ZarrStruct can only be derived for structs: the fields of a union overlap",
                );
                return None;
            }
        };
        let fields = match fields {
            Fields::Named(named) => named.named.iter().collect::<Vec<_>>(),
            Fields::Unnamed(unnamed) => unnamed.unnamed.iter().collect(),
            Fields::Unit => Vec::new(),
        };
        let fields = fields
            .into_iter()
            .enumerate()
            .map(|(index, field)| {
                let field_attrs = attr::field(&field.attrs, errors);
                let name = match (&field_attrs.rename, &field.ident, &attrs.rename_all) {
                    (Some(rename), _, _) => rename.value(),
                    (None, Some(ident), Some((rule, _))) => {
                        let name = rule.apply(&ident.unraw().to_string());
                        if name.is_empty() {
                            errors.spanned(
                                ident,
                                format_args!(
                                    "`rename_all` makes the name of `{ident}` empty: Zarr field \
                                     names are non-empty; give it #[zarr(rename = \"...\")]"
                                ),
                            );
                        }
                        name
                    }
                    (None, Some(ident), None) => ident.unraw().to_string(),
                    (None, None, _) => index.to_string(),
                };
                Field {
                    member: field.ident.clone().map_or_else(
                        || {
                            Member::Unnamed(syn::Index {
                                index: u32::try_from(index).unwrap_or(u32::MAX),
                                span: field.ty.span(),
                            })
                        },
                        Member::Named,
                    ),
                    ty: &field.ty,
                    rename: field_attrs.rename,
                    skip: field_attrs.skip,
                    name,
                    phantom: types::is_phantom(&field.ty),
                    original: field,
                }
            })
            .collect();
        Some(Input {
            ident: &input.ident,
            generics: &input.generics,
            attrs,
            fields,
            packed: is_packed(input),
            span: input.ident.span(),
        })
    }

    /// The fields that are part of the record (all but `PhantomData` and skipped ones).
    pub(crate) fn stored_fields(&self) -> impl Iterator<Item = &Field<'a>> {
        self.fields.iter().filter(|field| field.stored())
    }

    /// Whether the struct has named fields (not a tuple struct).
    pub(crate) fn named(&self) -> bool {
        self.fields
            .first()
            .is_none_or(|field| matches!(field.member, Member::Named(_)))
    }
}

fn is_packed(input: &DeriveInput) -> bool {
    input
        .attrs
        .iter()
        .filter(|attr| attr.path().is_ident("repr"))
        .any(|attr| {
            let mut packed = false;
            // A malformed repr is rustc's to report; we only look for `packed`.
            let _ = attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("packed") {
                    packed = true;
                }
                if meta.input.peek(syn::token::Paren) {
                    let content;
                    syn::parenthesized!(content in meta.input);
                    content.parse::<proc_macro2::TokenStream>()?;
                }
                Ok(())
            });
            packed
        })
}
