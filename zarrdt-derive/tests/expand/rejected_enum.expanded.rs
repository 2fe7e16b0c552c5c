::core::compile_error! {
    "ZarrStruct can only be derived for structs: a Zarr struct data type has a fixed list of fields, which an enum does not; a fieldless enum with an integer #[repr(u8)] (or i8..i64, u16..u64) is stored as that integer with #[derive(ZarrEnum)]"
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
    impl ::zarrdt::__private::ZarrType for Kind {
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
    impl ::zarrdt::__private::ZarrStruct for Kind {
        const OFFSETS: &'static [::zarrdt::__private::usize] = &[];
    }
};
