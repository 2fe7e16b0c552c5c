//! Output for a struct with mistakes: the errors, plus stub impls so that code using the struct
//! gets no follow-on "trait not implemented" errors (the approach of thiserror-impl).

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use crate::{attr, expand, fresh, types};

/// Which impls the derive would have made, so which stubs stand in for them.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stubs {
    /// `#[derive(ZarrStruct)]`: `ZarrType` and `ZarrStruct`.
    Struct,
    /// `#[derive(ZarrEnum)]`: `ZarrType`.
    Enum,
}

/// The compile errors of `error`, and stub impls of `ZarrType` (and `ZarrStruct` for
/// [`Stubs::Struct`]) for `input`.
pub(crate) fn expand(input: &DeriveInput, error: &syn::Error, stubs: Stubs) -> TokenStream {
    let errors = error.to_compile_error();
    // Name the runtime as the user asked; if that attribute is itself broken, emit no stub,
    // since any path we guessed could add an error of its own. Mistakes in the other keys
    // (`rename_all`, `bound`…) leave the stubs in place: they use none of them.
    let Some(krate) = attr::runtime_crate(&input.attrs) else {
        return errors;
    };
    // The derive on the other kind of item (`ZarrStruct` on an enum, `ZarrEnum` on a struct
    // or union): the impls may come from the other derive beside it, which a stub would
    // conflict with (E0119).
    let enum_input = matches!(input.data, syn::Data::Enum(_));
    if enum_input != (stubs == Stubs::Enum) {
        return errors;
    }
    // An unsized struct (a `dyn`, slice or `str` last field) cannot implement `ZarrType`, so
    // a stub would only add an error.
    if let syn::Data::Struct(data) = &input.data
        && data.fields.iter().any(|field| types::is_unsized(&field.ty))
    {
        return errors;
    }
    let krate = expand::runtime(krate.as_ref());
    let private = quote!(#krate::__private);
    let endian = fresh::type_param(&input.generics, "__E");
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let zarr_struct = (stubs == Stubs::Struct).then(|| {
        quote! {
            #[automatically_derived]
            impl #impl_generics #private::ZarrStruct for #ident #ty_generics #where_clause {
                const OFFSETS: &'static [#private::usize] = &[];
            }
        }
    });
    let stubs = quote! {
        #[automatically_derived]
        impl #impl_generics #private::ZarrType for #ident #ty_generics #where_clause {
            const TYPE: #private::TypeDescriptor =
                #private::TypeDescriptor::scalar(#private::ScalarType::UInt8);
            fn write_packed<#endian: #private::StaticEndian>(&self, _: &mut [#private::u8]) {
                #private::unreachable!()
            }
            fn read_packed<#endian: #private::StaticEndian>(_: &[#private::u8]) -> Self {
                #private::unreachable!()
            }
            fn to_value(&self) -> #private::Value {
                #private::unreachable!()
            }
            fn from_value(_: &#private::Value) -> #private::Result<Self, #private::Error> {
                #private::unreachable!()
            }
        }
        #zarr_struct
    };
    let wrapped = expand::wrap(&stubs);
    quote! {
        #errors
        #wrapped
    }
}
