::core::compile_error! {
    "unknown zarr attribute `rename` on an enum variant; expected none (a variant is stored as its value, under its own name)"
}
::core::compile_error! {
    "ZarrEnum needs an integer representation, such as #[repr(u8)] (or i8, u16, i16, u32, i32, u64, i64): it is the integer type the enum is stored as, fixed in the array's data type"
}
::core::compile_error! {
    "ZarrEnum: variant `Circle` carries data, but an enum is stored as one integer, so every variant must be fieldless (`Circle` or `Circle = 3`); keep the data in a #[derive(ZarrStruct)] struct with the enum as one of its fields"
}
::core::compile_error! {
    "ZarrEnum: variant `Square` carries fields, but an enum is stored as one integer, so every variant must be fieldless (`Square` or `Square = 3`); keep the data in a #[derive(ZarrStruct)] struct with the enum as one of its fields"
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
    impl ::zarrdt::__private::ZarrType for Shape {
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
};
