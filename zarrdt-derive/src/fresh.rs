//! Names the generated code introduces beside the input's own generic parameters: the byte
//! order parameter of the codec methods (`__E`) and the lifetimes of zarrs' element impls.
//! Each is its usual spelling unless the input already declares a parameter of that name
//! (`struct S<__E>`), in which case a numbered one it does not declare (`__E1`, `'__a2`), since
//! a method's parameter may not shadow its impl's (E0403, E0496).

use proc_macro2::Span;
use syn::{GenericParam, Generics, Ident, Lifetime};

/// A type parameter named `base` (or `base1`, `base2`…) that none of `generics`' type or const
/// parameters is named.
pub(crate) fn type_param(generics: &Generics, base: &str) -> Ident {
    let taken: Vec<String> = generics
        .params
        .iter()
        .filter_map(|param| match param {
            GenericParam::Type(param) => Some(param.ident.to_string()),
            GenericParam::Const(param) => Some(param.ident.to_string()),
            GenericParam::Lifetime(_) => None,
        })
        .collect();
    Ident::new(&unused(base, &taken), Span::call_site())
}

/// A lifetime `'base` (or `'base1`, `'base2`…) that none of `generics`' lifetimes is named.
pub(crate) fn lifetime(generics: &Generics, base: &str) -> Lifetime {
    let taken: Vec<String> = generics
        .lifetimes()
        .map(|param| param.lifetime.ident.to_string())
        .collect();
    Lifetime::new(&format!("'{}", unused(base, &taken)), Span::call_site())
}

/// `base`, or `base` with the smallest number appended that makes it none of `taken`.
fn unused(base: &str, taken: &[String]) -> String {
    std::iter::once(base.to_owned())
        .chain((1..).map(|number| format!("{base}{number}")))
        .find(|name| !taken.contains(name))
        .unwrap_or_else(|| unreachable!("`taken` is finite"))
}

#[cfg(test)]
mod tests {
    use syn::parse_quote;

    #[test]
    fn names_are_the_usual_ones_unless_declared() {
        let plain: syn::Generics = parse_quote!(<'a, T, const N: usize>);
        assert_eq!(super::type_param(&plain, "__E"), "__E");
        assert_eq!(super::lifetime(&plain, "__a").to_string(), "'__a");
        let taken: syn::Generics = parse_quote!(<'__a, '__a1, __E, const __E1: usize>);
        assert_eq!(super::type_param(&taken, "__E"), "__E2");
        assert_eq!(super::lifetime(&taken, "__a").to_string(), "'__a2");
        // A lifetime does not take a type parameter's name, nor the other way round.
        let lifetimes: syn::Generics = parse_quote!(<'__E, __a>);
        assert_eq!(super::type_param(&lifetimes, "__E"), "__E");
        assert_eq!(super::lifetime(&lifetimes, "__a").to_string(), "'__a");
    }
}
