//! `#[derive(ZarrStruct)]`: the procedural macro of the [`zarrdt`](https://docs.rs/zarrdt) crate.
//! Use it through `zarrdt`, which documents it; this crate is an implementation detail.
//!
//! The pipeline follows thiserror-impl and serde_derive: `ast` turns the syn input into our
//! model (parsing `#[zarr(...)]` with `attr`), `valid` checks it, collecting every error,
//! `expand` generates the impls, and on any error `fallback` emits the errors together
//! with stub impls so that the user sees only the real mistakes. `#[derive(ZarrEnum)]` (in
//! `enums`) follows the same pipeline for fieldless enums.

#![forbid(unsafe_code)]

mod ast;
mod attr;
mod bound;
mod ctxt;
mod enums;
mod expand;
mod fallback;
mod fresh;
mod types;
mod valid;

#[cfg(test)]
mod snapshots;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `zarrdt::ZarrType` and `zarrdt::ZarrStruct` for a struct; see the `zarrdt` crate.
#[proc_macro_derive(ZarrStruct, attributes(zarr))]
pub fn derive_zarr_struct(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(&input).into()
}

/// Derives `zarrdt::ZarrType` for a fieldless enum with an integer `#[repr]`, stored as that
/// integer; see the `zarrdt` crate.
#[proc_macro_derive(ZarrEnum, attributes(zarr))]
pub fn derive_zarr_enum(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    enums::derive(&input).into()
}

fn derive(input: &DeriveInput) -> proc_macro2::TokenStream {
    let mut errors = ctxt::Errors::default();
    let parsed = ast::Input::from_syn(input, &mut errors);
    if let Some(parsed) = &parsed {
        parsed.validate(&mut errors);
    }
    match (parsed, errors.finish()) {
        (Some(parsed), Ok(())) => expand::expand(&parsed),
        (_, Err(error)) => fallback::expand(input, &error, fallback::Stubs::Struct),
        // `from_syn` only returns `None` after recording an error.
        (None, Ok(())) => fallback::expand(
            input,
            &syn::Error::new(
                proc_macro2::Span::call_site(),
                "ZarrStruct: unsupported input",
            ),
            fallback::Stubs::Struct,
        ),
    }
}

#[cfg(test)]
mod tests {
    use proc_macro2::{TokenStream, TokenTree};
    use syn::parse_quote;

    /// Every identifier of `tokens`, groups included.
    fn identifiers(tokens: TokenStream, out: &mut Vec<String>) {
        for token in tokens {
            match token {
                TokenTree::Ident(ident) => out.push(ident.to_string()),
                TokenTree::Group(group) => identifiers(group.stream(), out),
                _ => {}
            }
        }
    }

    /// The derive emits no `unsafe` (and no `allow` of it) for structs of every kind and
    /// attribute, nor for rejected input (its errors and stub impls).
    #[test]
    fn the_derive_emits_no_unsafe() {
        let inputs: Vec<syn::DeriveInput> = vec![
            parse_quote! { struct Flat { a: u8, b: f64, c: bool } },
            parse_quote! {
                #[zarr(rename_all = "camelCase", crate = "::zarrdt")]
                pub struct Renamed { #[zarr(rename = "x.y")] first_field: [[f32; 2]; 3], #[zarr(skip)] note: String }
            },
            parse_quote! {
                #[derive(zerocopy::IntoBytes, zerocopy::FromBytes, zerocopy::Immutable, zerocopy::KnownLayout)]
                #[repr(C)]
                #[zarr(single_copy)]
                struct Native { x: f64, n: u32, tag: [u8; 4] }
            },
            parse_quote! { #[repr(C, packed)] struct Packed { a: u8, b: u32 } },
            parse_quote! {
                #[zarr(bound = "T: ZarrType + Copy")]
                struct Generic<'a, T, const N: usize> where T: Copy { v: [T; N], r: &'a () }
            },
            parse_quote! { struct Tuple(u8, i64, Inner); },
            parse_quote! {
                struct Text {
                    s: FixedString<4>, b: ByteString<3>, r: RawBytes<2>,
                    t: DateTime64<Seconds, 10>, d: TimeDelta64<Milliseconds>,
                    c: num_complex::Complex<f32>, h: half::f16,
                }
            },
            // Rejected: an enum, a union, bad attributes, duplicate names.
            parse_quote! { enum E { A, B } },
            parse_quote! { union U { a: u8, b: u16 } },
            parse_quote! { #[zarr(rename_all = "SHOUTING")] struct BadRule { a: u8 } },
            parse_quote! { struct Twice { #[zarr(rename = "b")] a: u8, b: u8 } },
            parse_quote! { struct Empty {} },
        ];
        let enums: Vec<syn::DeriveInput> = vec![
            parse_quote! { #[repr(u8)] enum Status { Ok, Warn = 3, Fail } },
            parse_quote! { #[repr(i64)] #[zarr(crate = "::zarrdt")] enum Wide { Low = -5, High = 1 << 40 } },
            // Rejected: data, no repr, a struct.
            parse_quote! { #[repr(u8)] enum Shape { Circle(f64), Square { side: f64 } } },
            parse_quote! { enum Bare { A, B } },
            parse_quote! { struct NotAnEnum { a: u8 } },
        ];
        let expansions = inputs
            .iter()
            .map(|input| (input, super::derive(input)))
            .chain(
                enums
                    .iter()
                    .map(|input| (input, super::enums::derive(input))),
            );
        for (input, expanded) in expansions {
            let mut words = Vec::new();
            identifiers(expanded.clone(), &mut words);
            assert!(
                words
                    .iter()
                    .any(|word| word == "impl" || word == "compile_error"),
                "{}: nothing generated",
                input.ident
            );
            for word in ["unsafe", "unsafe_code", "allow_internal_unsafe"] {
                assert!(
                    !words.iter().any(|w| w == word),
                    "{} emits `{word}`: {expanded}",
                    input.ident
                );
            }
        }
    }
}
