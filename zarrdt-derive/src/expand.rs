//! Code generation for a valid struct: `impl ZarrType` and `impl ZarrStruct` (and, through the
//! runtime crate, zarrs' element traits), wrapped in `const _: () = { ... };`, every path
//! through the runtime crate's hidden `__private` module, named from the root (`::zarrdt`, or
//! the user's `#[zarr(crate = "...")]`), so that the code works in `#[no_implicit_prelude]`
//! modules and with a renamed dependency, and errors name `zarrdt::ZarrType` as a user writes
//! it.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;

use crate::ast::{Field, Input};
use crate::{bound, fresh};

/// The path of the runtime crate: `::zarrdt`, or the user's `#[zarr(crate = "...")]`.
pub(crate) fn runtime(input_crate: Option<&(syn::Path, syn::LitStr)>) -> TokenStream {
    match input_crate {
        Some((path, lit)) => quote_spanned!(lit.span()=> #path),
        None => quote!(::zarrdt),
    }
}

/// Wraps generated items in an anonymous const.
pub(crate) fn wrap(items: &TokenStream) -> TokenStream {
    quote! {
        #[doc(hidden)]
        #[allow(
            non_upper_case_globals,
            unused_attributes,
            unused_qualifications,
            clippy::all,
            clippy::pedantic
        )]
        const _: () = {
            #items
        };
    }
}

/// The generated code for `input`.
pub(crate) fn expand(input: &Input<'_>) -> TokenStream {
    let krate = runtime(input.attrs.krate.as_ref());
    let private = quote!(#krate::__private);
    let element = quote!(#private::ZarrType);
    let ident = input.ident;
    // The generated methods' byte order parameter and the element impls' lifetimes, named
    // apart from the struct's own parameters.
    let endian = fresh::type_param(input.generics, "__E");
    let bytes_lifetime = fresh::lifetime(input.generics, "__a");
    let clone_lifetime = fresh::lifetime(input.generics, "__zarrdt");
    let (impl_generics, ty_generics, _) = input.generics.split_for_impl();
    let mut where_clause = bound::where_clause(input, &private);
    // A single-copy struct generic over types or constants is checked per instantiation (see
    // `single_copy_checks`): zerocopy's traits by this bound, which also lets the generic code
    // take the one-copy paths, and the layout when `SIZE` is evaluated.
    let lazy_single_copy = input.attrs.single_copy.is_some() && checked_per_instantiation(input);
    if lazy_single_copy {
        let token = input.attrs.single_copy.as_ref().map(Spanned::span);
        let span = token.unwrap_or_else(proc_macro2::Span::call_site);
        where_clause
            .predicates
            .push(syn::parse_quote_spanned!(span=> #ident #ty_generics: #private::SingleCopy));
    }
    let predicates = &where_clause.predicates;

    let stored: Vec<&Field<'_>> = input.stored_fields().collect();
    let count = stored.len();
    let members: Vec<_> = stored.iter().map(|field| &field.member).collect();
    let names: Vec<String> = stored.iter().map(|field| field.record_name()).collect();
    let element_of: Vec<TokenStream> = stored
        .iter()
        .map(|field| {
            let ty = field.ty;
            quote_spanned!(ty.span()=> <#ty as #element>)
        })
        .collect();
    // Each field's packed offset, from the one table the descriptor computes: constant time
    // per field, so the generated code and its compile time grow linearly with the fields.
    let offsets: Vec<TokenStream> = (0..count)
        .map(|index| quote!(<Self as #private::ZarrStruct>::OFFSETS[#index]))
        .collect();
    // Packed structs cannot lend references to their fields; copy them out first, as the
    // standard library's derives do.
    let field_refs: Vec<TokenStream> = members
        .iter()
        .map(|member| {
            if input.packed {
                quote!(&{ self.#member })
            } else {
                quote!(&self.#member)
            }
        })
        .collect();
    let bindings: Vec<syn::Ident> = (0..count)
        .map(|index| quote::format_ident!("__field{}", index))
        .collect();
    let type_name = ident.unraw().to_string();
    // The fields that are not stored: PhantomData, and skipped fields, which decoding fills
    // with their default (an error on the field's type if it has none).
    let unstored: Vec<TokenStream> = input
        .fields
        .iter()
        .filter(|field| !field.stored())
        .map(|field| {
            let member = &field.member;
            let ty = field.ty;
            if field.phantom {
                // Through a trait only `core::marker::PhantomData` implements: a type of the
                // user's own written `PhantomData` is an error on the field's type.
                quote_spanned!(ty.span()=> #member: <#ty as #private::PhantomMarker>::MARKER)
            } else {
                quote_spanned!(ty.span()=> #member: <#ty as #private::Default>::default())
            }
        })
        .collect();
    let single_copy = input.attrs.single_copy.as_ref().map(|token| {
        single_copy_checks(input, token, &private, &where_clause, &members, &element_of)
    });
    // Where a generic single-copy struct's checks are forced: the constants every encoding
    // and decoding path evaluates for the instantiation it works on.
    let (size, native_check) = if lazy_single_copy {
        (
            Some(quote! {
                const SIZE: #private::usize = {
                    let () = Self::__ZARRDT_SINGLE_COPY;
                    <Self as #element>::TYPE.size()
                };
            }),
            Some(quote!(let () = Self::__ZARRDT_SINGLE_COPY;)),
        )
    } else {
        (None, None)
    };

    let native_layout = quote! {
        #private::size_of::<Self>() == <Self as #element>::SIZE
            && #private::all(&[ #(
                #private::offset_of!(Self, #members) == #offsets && #element_of::NATIVE_LAYOUT,
            )* ])
    };
    let native_layout = match native_check {
        Some(check) => quote!({ #check #native_layout }),
        None => native_layout,
    };

    let items = quote! {
        #[automatically_derived]
        impl #impl_generics #element for #ident #ty_generics #where_clause {
            const TYPE: #private::TypeDescriptor = #private::TypeDescriptor::structure(&[
                #( #private::FieldDescriptor::new(#names, #element_of::TYPE), )*
            ]);

            #size

            const NATIVE_LAYOUT: #private::bool = #native_layout;

            #[inline]
            fn write_packed<#endian: #private::StaticEndian>(&self, __out: &mut [#private::u8]) {
                let __out = &mut __out[..<Self as #element>::SIZE];
                #( #element_of::write_packed::<#endian>(#field_refs, &mut __out[#offsets..]); )*
            }

            const HAS_INVALID_BYTES: #private::bool =
                #private::any(&[ #( #element_of::HAS_INVALID_BYTES, )* ]);

            #[inline]
            fn check_packed<#endian: #private::StaticEndian>(
                __bytes: &[#private::u8],
            ) -> #private::Result<(), #private::DecodeError> {
                let __bytes = &__bytes[..<Self as #element>::SIZE];
                #(
                    if #element_of::HAS_INVALID_BYTES {
                        #element_of::check_packed::<#endian>(&__bytes[#offsets..])
                            .map_err(|__error| __error.in_field(#names, #offsets))?;
                    }
                )*
                #private::Ok(())
            }

            #[inline]
            fn read_packed<#endian: #private::StaticEndian>(__bytes: &[#private::u8]) -> Self {
                let __bytes = &__bytes[..<Self as #element>::SIZE];
                Self {
                    #( #members: #element_of::read_packed::<#endian>(&__bytes[#offsets..]), )*
                    #( #unstored, )*
                }
            }

            #[inline]
            fn read_packed_validated<#endian: #private::StaticEndian>(
                __bytes: &[#private::u8],
                __valid: &mut #private::bool,
            ) -> Self {
                let __bytes = &__bytes[..<Self as #element>::SIZE];
                Self {
                    #( #members: #element_of::read_packed_validated::<#endian>(&__bytes[#offsets..], __valid), )*
                    #( #unstored, )*
                }
            }

            #[inline]
            fn packed_is_valid<#endian: #private::StaticEndian>(__bytes: &[#private::u8]) -> #private::bool {
                let __bytes = &__bytes[..<Self as #element>::SIZE];
                let mut __valid = true;
                #(
                    if #element_of::HAS_INVALID_BYTES {
                        __valid &= #element_of::packed_is_valid::<#endian>(&__bytes[#offsets..]);
                    }
                )*
                __valid
            }

            fn to_value(&self) -> #private::Value {
                #private::record([ #( (#names, #element_of::to_value(#field_refs)), )* ])
            }

            fn from_value(__value: &#private::Value) -> #private::Result<Self, #private::Error> {
                let [ #( #bindings ),* ] =
                    #private::record_fields(__value, [ #( #names ),* ], #type_name)?;
                #private::Ok(Self {
                    #(
                        #members: #element_of::from_value(#bindings)
                            .map_err(|__error| #private::within_field(__error, #names))?,
                    )*
                    #( #unstored, )*
                })
            }

            #[inline]
            fn write_packed_slice<#endian: #private::StaticEndian>(
                __values: &[Self],
                __out: &mut [#private::u8],
            ) {
                #[allow(unused_imports)]
                use #private::{EncodeBytes as _, EncodeFallback as _};
                let __copied = <Self as #element>::NATIVE_LAYOUT
                    && <#endian as #private::StaticEndian>::IS_NATIVE
                    && (&#private::Probe::<Self>::NEW).write_native(__values, __out);
                if !__copied {
                    #private::write_each::<Self, #endian>(__values, __out);
                }
            }

            #[inline]
            fn read_packed_slice<#endian: #private::StaticEndian>(
                __bytes: &[#private::u8],
                __out: &mut #private::Vec<Self>,
            ) -> #private::Result<(), #private::Error> {
                #[allow(unused_imports)]
                use #private::{
                    DecodeBytes as _, DecodeCopy as _, DecodeFallback as _, DecodeValidated as _,
                };
                if <Self as #element>::NATIVE_LAYOUT
                    && <#endian as #private::StaticEndian>::IS_NATIVE
                    && (&&&#private::Probe::<Self>::NEW).read_native(__bytes, __out)
                {
                    return #private::Ok(());
                }
                #private::read_each::<Self, #endian>(__bytes, __out)
            }
        }

        #[automatically_derived]
        impl #impl_generics #private::ZarrStruct for #ident #ty_generics #where_clause {
            const OFFSETS: &'static [#private::usize] =
                &<Self as #element>::TYPE.offsets::<#count>();
        }

        #single_copy

        #private::zarrs_element! {
            impl [#impl_generics] #ident #ty_generics where [#predicates]
            lifetimes [#bytes_lifetime, #clone_lifetime]
        }
    };
    wrap(&items)
}

/// Whether the layout of `input` depends on its generic parameters (types or constants), so
/// that `#[zarr(single_copy)]` is checked for each instantiation rather than once.
fn checked_per_instantiation(input: &Input<'_>) -> bool {
    input.generics.type_params().next().is_some() || input.generics.const_params().next().is_some()
}

/// `#[zarr(single_copy)]`: compile errors, each naming its reason, unless a slice of the
/// struct is its packed records in native byte order (so encoding and decoding are one copy):
/// zerocopy's traits, no padding, fields in declaration order at their packed offsets, and
/// fields whose types are single-copy themselves.
///
/// * Without generic parameters, the struct is checked where it is defined.
/// * With lifetime parameters only, likewise, as the instantiation with `'static` lifetimes:
///   lifetimes change no layout, so that one stands for all.
/// * With type or const parameters, each instantiation the program uses is checked: its
///   impls require `Self: SingleCopy` (zerocopy's traits; an error naming the instantiation
///   where it is used), and its `SIZE` and `NATIVE_LAYOUT`, which every encoding and decoding
///   path evaluates, evaluate the layout checks first (an error when the program is built,
///   naming the instantiation: "evaluation of `<impl Padded<u32>>::__ZARRDT_SINGLE_COPY`
///   failed").
fn single_copy_checks(
    input: &Input<'_>,
    token: &syn::Path,
    private: &TokenStream,
    where_clause: &syn::WhereClause,
    members: &[&syn::Member],
    element_of: &[TokenStream],
) -> TokenStream {
    let ident = input.ident;
    let (impl_generics, ty_generics, _) = input.generics.split_for_impl();
    let this = quote!(#ident #ty_generics);
    let per_instantiation = checked_per_instantiation(input);
    let struct_name = if per_instantiation {
        format!("this instantiation of `{ident}`")
    } else {
        format!("`{ident}`")
    };
    let padding = format!(
        "#[zarr(single_copy)]: {struct_name} is larger in memory than its packed record: it has padding or skipped fields (use #[repr(C)] with fields that leave no gaps)"
    );
    let field_checks: Vec<TokenStream> = members
        .iter()
        .zip(element_of)
        .enumerate()
        .map(|(index, (member, of))| {
            let name = match member {
                syn::Member::Named(ident) => ident.to_string(),
                syn::Member::Unnamed(index) => index.index.to_string(),
            };
            let order = format!(
                "#[zarr(single_copy)]: field `{name}` of {struct_name} is not at its packed offset in memory (use #[repr(C)] and declare the fields in record order)"
            );
            let nested = format!(
                "#[zarr(single_copy)]: the type of field `{name}` of {struct_name} is not stored as its own packed bytes in memory"
            );
            quote! {
                #private::assert!(
                    #private::offset_of!(#this, #member) == __offsets[#index],
                    #order
                );
                #private::assert!(#of::NATIVE_LAYOUT, #nested);
            }
        })
        .collect();
    let count = members.len();
    // The checks use the descriptor, not `SIZE` or `OFFSETS`, which (for a generic struct)
    // evaluate these checks themselves.
    let constant = quote! {
        #[doc(hidden)]
        const __ZARRDT_SINGLE_COPY: () = {
            let __offsets = <#this as #private::ZarrType>::TYPE.offsets::<#count>();
            #private::assert!(
                #private::size_of::<#this>() == <#this as #private::ZarrType>::TYPE.size(),
                #padding
            );
            #( #field_checks )*
        };
    };
    let checks = if per_instantiation {
        quote_spanned! {token.span()=>
            #[automatically_derived]
            impl #impl_generics #this #where_clause {
                #constant
            }
        }
    } else {
        // No parameters, or lifetimes only: checked once, as the `'static` instantiation.
        let lifetimes: Vec<TokenStream> = input
            .generics
            .lifetimes()
            .map(|_| quote!('static))
            .collect();
        let checked = if lifetimes.is_empty() {
            quote!(#ident)
        } else {
            quote!(#ident<#( #lifetimes ),*>)
        };
        quote_spanned! {token.span()=>
            #[automatically_derived]
            impl #impl_generics #this #where_clause {
                #constant
            }

            const _: () = #private::assert_single_copy::<#checked>();
            const _: () = <#checked>::__ZARRDT_SINGLE_COPY;
        }
    };
    // Spanned on the attribute, so that each error points at it.
    respan(checks, token.span())
}

/// `tokens` with every span set to `span`.
fn respan(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tree| {
            if let proc_macro2::TokenTree::Group(group) = &tree {
                let mut respanned =
                    proc_macro2::Group::new(group.delimiter(), respan(group.stream(), span));
                respanned.set_span(span);
                tree = proc_macro2::TokenTree::Group(respanned);
            } else {
                tree.set_span(span);
            }
            tree
        })
        .collect()
}
