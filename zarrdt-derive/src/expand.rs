//! Code generation for a valid struct: `impl Element` and `impl ZarrStruct`, wrapped in
//! `const _: () = { ... };`, every path through the runtime crate's hidden `__private` module
//! so that the code works in `#[no_implicit_prelude]` modules and with a renamed dependency.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{Field, Input};
use crate::bound;

/// The import that names the runtime crate `_zarrdt` inside the generated block.
pub(crate) fn import_runtime(input_crate: Option<&(syn::Path, syn::LitStr)>) -> TokenStream {
    match input_crate {
        Some((path, lit)) => quote_spanned!(lit.span()=> use #path as _zarrdt;),
        None => quote!(
            extern crate zarrdt as _zarrdt;
        ),
    }
}

/// Wraps generated impls in an anonymous const with the runtime imported.
pub(crate) fn wrap(import: &TokenStream, impls: &TokenStream) -> TokenStream {
    quote! {
        #[doc(hidden)]
        #[allow(
            non_upper_case_globals,
            unused_attributes,
            unused_qualifications,
            unused_extern_crates,
            clippy::all,
            clippy::pedantic
        )]
        const _: () = {
            #[allow(unused_extern_crates, clippy::useless_attribute)]
            #import
            #impls
        };
    }
}

/// The generated code for `input`.
pub(crate) fn expand(input: &Input<'_>) -> TokenStream {
    let private = quote!(_zarrdt::__private);
    let element = quote!(#private::Element);
    let ident = input.ident;
    let (impl_generics, ty_generics, _) = input.generics.split_for_impl();
    let where_clause = bound::where_clause(input, &private);
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
    let type_name = ident.to_string();
    let phantoms: Vec<_> = input
        .fields
        .iter()
        .filter(|field| field.phantom)
        .map(|field| &field.member)
        .collect();

    quote! {
        #[automatically_derived]
        impl #impl_generics #element for #ident #ty_generics #where_clause {
            const TYPE: #private::TypeDescriptor = #private::TypeDescriptor::structure(&[
                #( #private::FieldDescriptor::new(#names, #element_of::TYPE), )*
            ]);

            const NATIVE_LAYOUT: #private::bool =
                #private::size_of::<Self>() == <Self as #element>::SIZE
                #( && #private::offset_of!(Self, #members) == #offsets && #element_of::NATIVE_LAYOUT )*;

            #[inline]
            fn write_packed<__E: #private::StaticEndian>(&self, __out: &mut [#private::u8]) {
                let __out = &mut __out[..<Self as #element>::SIZE];
                #( #element_of::write_packed::<__E>(#field_refs, &mut __out[#offsets..]); )*
            }

            const HAS_INVALID_BYTES: #private::bool =
                false #( || #element_of::HAS_INVALID_BYTES )*;

            #[inline]
            fn check_packed<__E: #private::StaticEndian>(
                __bytes: &[#private::u8],
            ) -> #private::Result<(), #private::DecodeError> {
                let __bytes = &__bytes[..<Self as #element>::SIZE];
                #(
                    if #element_of::HAS_INVALID_BYTES {
                        #element_of::check_packed::<__E>(&__bytes[#offsets..])
                            .map_err(|__error| __error.in_field(#names, #offsets))?;
                    }
                )*
                #private::Ok(())
            }

            #[inline]
            fn read_packed<__E: #private::StaticEndian>(__bytes: &[#private::u8]) -> Self {
                let __bytes = &__bytes[..<Self as #element>::SIZE];
                Self {
                    #( #members: #element_of::read_packed::<__E>(&__bytes[#offsets..]), )*
                    #( #phantoms: #private::PhantomData, )*
                }
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
                    #( #phantoms: #private::PhantomData, )*
                })
            }

            #[inline]
            fn write_packed_slice<__E: #private::StaticEndian>(
                __values: &[Self],
                __out: &mut [#private::u8],
            ) {
                #[allow(unused_imports)]
                use #private::{EncodeBytes as _, EncodeFallback as _};
                let __copied = <Self as #element>::NATIVE_LAYOUT
                    && <__E as #private::StaticEndian>::IS_NATIVE
                    && (&#private::Probe::<Self>::NEW).write_native(__values, __out);
                if !__copied {
                    #private::write_each::<Self, __E>(__values, __out);
                }
            }

            #[inline]
            fn read_packed_slice<__E: #private::StaticEndian>(
                __bytes: &[#private::u8],
                __out: &mut #private::Vec<Self>,
            ) -> #private::Result<(), #private::Error> {
                #[allow(unused_imports)]
                use #private::{DecodeBytes as _, DecodeFallback as _, DecodeValidated as _};
                if <Self as #element>::NATIVE_LAYOUT
                    && <__E as #private::StaticEndian>::IS_NATIVE
                    && (&&#private::Probe::<Self>::NEW).read_native(__bytes, __out)
                {
                    return #private::Ok(());
                }
                #private::read_each::<Self, __E>(__bytes, __out)
            }
        }

        #[automatically_derived]
        impl #impl_generics #private::ZarrStruct for #ident #ty_generics #where_clause {
            const OFFSETS: &'static [#private::usize] =
                &<Self as #element>::TYPE.offsets::<#count>();
        }

        #private::zarrs_element! {
            impl [#impl_generics] #ident #ty_generics where [#predicates]
        }
    }
}
