//! What the derive can tell about a field type from its syntax alone: `PhantomData`, types that
//! can never be Zarr elements, and mentions of generic parameters.

use std::collections::HashSet;

use syn::{Expr, ExprLit, GenericArgument, Ident, Lit, PathArguments, Type, TypePath};

/// Whether `ty` is `PhantomData<...>`, which the record skips: written as `PhantomData`,
/// `marker::PhantomData` or `std::marker::PhantomData` (`core::`, `::core::` too), not a type
/// of another module that has its name (`units::PhantomData`).
pub(crate) fn is_phantom(ty: &Type) -> bool {
    match ty {
        Type::Path(TypePath { qself: None, path }) => {
            let names: Vec<String> = path
                .segments
                .iter()
                .map(|segment| segment.ident.to_string())
                .collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            matches!(
                names.as_slice(),
                ["PhantomData"]
                    | ["marker", "PhantomData"]
                    | ["std" | "core", "marker", "PhantomData"]
            )
        }
        Type::Group(group) => is_phantom(&group.elem),
        Type::Paren(paren) => is_phantom(&paren.elem),
        _ => false,
    }
}

/// Whether `ty` is written as a dynamically sized type (`dyn Trait`, `[T]`, `str`).
pub(crate) fn is_unsized(ty: &Type) -> bool {
    match ty {
        Type::TraitObject(_) | Type::Slice(_) => true,
        Type::Path(TypePath { qself: None, path }) => path.is_ident("str"),
        Type::Group(group) => is_unsized(&group.elem),
        Type::Paren(paren) => is_unsized(&paren.elem),
        _ => false,
    }
}

/// The part of `ty` that can never be a Zarr element, and why; `None` if `ty` may be one
/// (whether it is, the trait system decides).
pub(crate) fn unsupported(ty: &Type) -> Option<(&Type, String)> {
    let reason: &str = match ty {
        Type::Array(array) if is_zero(&array.len) => {
            "a zero-length array has no bytes to store, so it has no Zarr data type; remove the field, or use `PhantomData` for a marker"
        }
        Type::Array(array) => return unsupported(&array.elem),
        Type::Group(group) => return unsupported(&group.elem),
        Type::Paren(paren) => return unsupported(&paren.elem),
        Type::Path(path) => return unsupported_path(path).map(|reason| (ty, reason)),
        Type::Reference(_) => {
            "references cannot be stored in a Zarr record; store the value itself"
        }
        Type::Ptr(_) => "raw pointers cannot be stored in a Zarr record",
        Type::TraitObject(_) | Type::ImplTrait(_) => {
            "trait objects have no fixed size, so they cannot be Zarr elements"
        }
        Type::Slice(_) => "slices have no fixed size; use an array `[T; N]`",
        Type::Tuple(tuple) if tuple.elems.is_empty() => {
            "`()` has no bytes to store; use `PhantomData` for marker fields"
        }
        Type::Tuple(_) => {
            "tuples are not Zarr elements; use an array `[T; N]` or a `#[derive(ZarrStruct)]` tuple struct"
        }
        Type::BareFn(_) => "function pointers cannot be stored in a Zarr record",
        Type::Never(_) => "`!` has no values to store",
        Type::Infer(_) => "the field type must be written out",
        _ => return None,
    };
    Some((ty, reason.to_owned()))
}

/// Whether `len` is written as the literal `0` (an array length the derive can see is zero;
/// one from a constant is left to the element type's own check).
fn is_zero(len: &Expr) -> bool {
    match len {
        Expr::Lit(ExprLit {
            lit: Lit::Int(int), ..
        }) => int.base10_parse::<u64>().is_ok_and(|value| value == 0),
        Expr::Group(group) => is_zero(&group.expr),
        Expr::Paren(paren) => is_zero(&paren.expr),
        _ => false,
    }
}

/// The reason a type path certainly names a type that is no Zarr element: a primitive type,
/// or a standard library type by its `std::`, `core::` or `alloc::` path. A plain name such as
/// `Cell`, `Box` or `String` may be the user's own type, so it is left to the trait bound
/// (whose error lists what can be a field).
fn unsupported_path(path: &TypePath) -> Option<String> {
    if path.qself.is_some() {
        return None;
    }
    let segments = &path.path.segments;
    let first = segments.first()?.ident.to_string();
    let primitive = segments.len() == 1
        && path.path.leading_colon.is_none()
        && matches!(first.as_str(), "usize" | "isize" | "i128" | "u128" | "str");
    let from_std = segments.len() > 1 && matches!(first.as_str(), "std" | "core" | "alloc");
    if !primitive && !from_std {
        return None;
    }
    let last = segments.last()?.ident.to_string();
    let reason = match last.as_str() {
        "usize" | "isize" => {
            format!("`{last}` has a platform-dependent size; use a fixed-size integer such as `u64` or `i64`")
        }
        "i128" | "u128" => format!("`{last}` has no Zarr data type; the widest integers are 64-bit"),
        "str" | "String" => format!(
            "`{last}` is variable-length and a Zarr struct field has a fixed size; use `zarrdt::FixedString<N>` (NumPy `U<N>`) or `zarrdt::ByteString<N>` (NumPy `S<N>`)"
        ),
        "Vec" | "VecDeque" | "HashMap" | "BTreeMap" | "HashSet" | "BTreeSet" | "Box" | "Rc"
        | "Arc" | "Cow" => format!(
            "`{last}` is not a fixed-size value and cannot be a Zarr struct field; use an array `[T; N]`"
        ),
        "Option" => "`Option` has no Zarr representation; store the value and mark missing entries with a sentinel or the fill value".to_owned(),
        "Cell" | "RefCell" => format!("`{last}` cannot be a Zarr struct field; store the value itself"),
        _ => return None,
    };
    Some(reason)
}

/// Whether `ty` mentions any of `params` (so the impl needs a bound on it).
pub(crate) fn mentions(ty: &Type, params: &HashSet<&Ident>) -> bool {
    match ty {
        Type::Path(path) => {
            if let Some(qself) = &path.qself
                && mentions(&qself.ty, params)
            {
                return true;
            }
            path.path.segments.iter().any(|segment| {
                params.contains(&segment.ident)
                    || match &segment.arguments {
                        PathArguments::AngleBracketed(arguments) => {
                            arguments.args.iter().any(|argument| match argument {
                                GenericArgument::Type(inner) => mentions(inner, params),
                                _ => false,
                            })
                        }
                        _ => false,
                    }
            })
        }
        Type::Array(array) => mentions(&array.elem, params),
        Type::Group(group) => mentions(&group.elem, params),
        Type::Paren(paren) => mentions(&paren.elem, params),
        _ => false,
    }
}
