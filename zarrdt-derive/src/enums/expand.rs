//! Code generation for a valid enum: `impl ZarrType` (and, through the runtime crate, zarrs'
//! element traits), wrapped as the struct derive wraps its impls (`crate::expand::wrap`), every
//! path through the runtime crate's `__private` module.
//!
//! The enum is stored as its `repr` integer. Its variants' values are constants (the
//! discriminants, as rustc computes them, explicit or implicit), and one `match` on them turns
//! an integer into a variant, so decoding compiles to a range check where the values are
//! contiguous and needs no `unsafe`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::ext::IdentExt;

use super::ast::EnumInput;
use crate::expand::{runtime, wrap};
use crate::fresh;

/// The generated code for `input`, which `validate` accepted (so it has an integer `repr`).
pub(crate) fn expand(input: &EnumInput<'_>) -> TokenStream {
    let Some(repr) = input.repr else {
        return TokenStream::new();
    };
    let krate = runtime(input.attrs.krate.as_ref());
    let private = quote!(#krate::__private);
    let element = quote!(#private::ZarrType);
    // Enums have no generic parameters (`valid` refuses them), so these are the usual names.
    let endian = fresh::type_param(input.generics, "__E");
    let bytes_lifetime = fresh::lifetime(input.generics, "__a");
    let clone_lifetime = fresh::lifetime(input.generics, "__zarrdt");
    let ident = input.ident;
    let int_ident = proc_macro2::Ident::new(repr.rust, repr.span);
    let int = quote!(#private::#int_ident);
    let scalar = proc_macro2::Ident::new(repr.scalar, repr.span);
    let variants: Vec<&syn::Ident> = input
        .variants
        .iter()
        .map(|variant| &variant.ident)
        .collect();
    // `r#in` is the variant `in` to everyone else (the `zarrdt:enums` attribute, messages).
    let names: Vec<String> = variants
        .iter()
        .map(|variant| variant.unraw().to_string())
        .collect();
    let consts: Vec<syn::Ident> = (0..variants.len())
        .map(|index| format_ident!("__ZARRDT_VARIANT_{}", index))
        .collect();
    let first = variants[0];
    let type_name = ident.unraw().to_string();

    let items = quote! {
        /// The enum's variants and integer type, checked when it is built.
        const __ZARRDT_ENUM: #private::EnumDescriptor = #private::rust_enum(
            #type_name,
            #private::ScalarType::#scalar,
            &[ #( #private::EnumVariant::new(#names, #ident::#variants as #private::i128), )* ],
        );

        /// The variant whose value is `raw`, if any.
        #[inline]
        fn __zarrdt_variant(__raw: #int) -> #private::Option<#ident> {
            #( const #consts: #int = #ident::#variants as #int; )*
            match __raw {
                #( #consts => #private::Some(#ident::#variants), )*
                _ => #private::None,
            }
        }

        /// The value of `variant`.
        #[inline]
        fn __zarrdt_value(__variant: &#ident) -> #int {
            match __variant {
                #( #ident::#variants => #ident::#variants as #int, )*
            }
        }

        #[automatically_derived]
        impl #element for #ident {
            const TYPE: #private::TypeDescriptor =
                #private::TypeDescriptor::enumeration(&__ZARRDT_ENUM);

            // A fieldless enum with an integer `repr` is that integer in memory.
            const NATIVE_LAYOUT: #private::bool = true;

            const HAS_INVALID_BYTES: #private::bool = true;

            #[inline]
            fn write_packed<#endian: #private::StaticEndian>(&self, __out: &mut [#private::u8]) {
                <#int as #element>::write_packed::<#endian>(&__zarrdt_value(self), __out);
            }

            #[inline]
            fn check_packed<#endian: #private::StaticEndian>(
                __bytes: &[#private::u8],
            ) -> #private::Result<(), #private::DecodeError> {
                let __raw = <#int as #element>::read_packed::<#endian>(__bytes);
                match __zarrdt_variant(__raw) {
                    #private::Some(_) => #private::Ok(()),
                    #private::None => #private::Err(#private::invalid_variant(__raw, &__ZARRDT_ENUM)),
                }
            }

            #[inline]
            fn read_packed<#endian: #private::StaticEndian>(__bytes: &[#private::u8]) -> Self {
                match __zarrdt_variant(<#int as #element>::read_packed::<#endian>(__bytes)) {
                    #private::Some(__variant) => __variant,
                    #private::None => #ident::#first,
                }
            }

            #[inline]
            fn packed_is_valid<#endian: #private::StaticEndian>(__bytes: &[#private::u8]) -> #private::bool {
                __zarrdt_variant(<#int as #element>::read_packed::<#endian>(__bytes)).is_some()
            }

            #[inline]
            fn read_packed_validated<#endian: #private::StaticEndian>(
                __bytes: &[#private::u8],
                __valid: &mut #private::bool,
            ) -> Self {
                let __variant = __zarrdt_variant(<#int as #element>::read_packed::<#endian>(__bytes));
                *__valid &= __variant.is_some();
                match __variant {
                    #private::Some(__variant) => __variant,
                    #private::None => #ident::#first,
                }
            }

            fn to_value(&self) -> #private::Value {
                <#int as #element>::to_value(&__zarrdt_value(self))
            }

            fn from_value(__value: &#private::Value) -> #private::Result<Self, #private::Error> {
                let __raw = <#int as #element>::from_value(__value)?;
                match __zarrdt_variant(__raw) {
                    #private::Some(__variant) => #private::Ok(__variant),
                    #private::None => #private::Err(#private::variant_mismatch(__raw, &__ZARRDT_ENUM)),
                }
            }
        }

        #private::zarrs_element! {
            impl [] #ident where []
            lifetimes [#bytes_lifetime, #clone_lifetime]
        }
    };
    wrap(&items)
}
