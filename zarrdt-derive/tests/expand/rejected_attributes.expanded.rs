::core::compile_error! {
    "unknown `rename_all` rule; expected one of \"lowercase\", \"UPPERCASE\", \"PascalCase\", \"camelCase\", \"snake_case\", \"SCREAMING_SNAKE_CASE\", \"kebab-case\", \"SCREAMING-KEBAB-CASE\""
}
::core::compile_error! {
    "unknown zarr attribute `colour` on a field; expected `rename` or `skip`"
}
::core::compile_error! {
    "duplicate Zarr field name \"b\": field `a` already has this name"
}
#[doc(hidden)]
#[allow(
    non_upper_case_globals,
    unused_attributes,
    unused_qualifications,
    clippy::all,
    clippy::pedantic
)]
const _: () = {
    #[automatically_derived]
    impl ::zarrdt::__private::ZarrType for Bad {
        const TYPE: ::zarrdt::__private::TypeDescriptor = ::zarrdt::__private::TypeDescriptor::scalar(
            ::zarrdt::__private::ScalarType::UInt8,
        );
        fn write_packed<__E: ::zarrdt::__private::StaticEndian>(
            &self,
            _: &mut [::zarrdt::__private::u8],
        ) {
            ::zarrdt::__private::unreachable!()
        }
        fn read_packed<__E: ::zarrdt::__private::StaticEndian>(
            _: &[::zarrdt::__private::u8],
        ) -> Self {
            ::zarrdt::__private::unreachable!()
        }
        fn to_value(&self) -> ::zarrdt::__private::Value {
            ::zarrdt::__private::unreachable!()
        }
        fn from_value(
            _: &::zarrdt::__private::Value,
        ) -> ::zarrdt::__private::Result<Self, ::zarrdt::__private::Error> {
            ::zarrdt::__private::unreachable!()
        }
    }
    #[automatically_derived]
    impl ::zarrdt::__private::ZarrStruct for Bad {
        const OFFSETS: &'static [::zarrdt::__private::usize] = &[];
    }
};
