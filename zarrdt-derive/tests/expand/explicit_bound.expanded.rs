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
    impl<T> ::zarrdt::__private::ZarrType for Explicit<T>
    where
        T: ZarrType + Copy,
    {
        const TYPE: ::zarrdt::__private::TypeDescriptor = ::zarrdt::__private::TypeDescriptor::structure(
            &[
                ::zarrdt::__private::FieldDescriptor::new(
                    "value",
                    <T as ::zarrdt::__private::ZarrType>::TYPE,
                ),
            ],
        );
        const NATIVE_LAYOUT: ::zarrdt::__private::bool = ::zarrdt::__private::size_of::<
            Self,
        >() == <Self as ::zarrdt::__private::ZarrType>::SIZE
            && ::zarrdt::__private::all(
                &[
                    ::zarrdt::__private::offset_of!(Self, value)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]
                        && <T as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                ],
            );
        #[inline]
        fn write_packed<__E: ::zarrdt::__private::StaticEndian>(
            &self,
            __out: &mut [::zarrdt::__private::u8],
        ) {
            let __out = &mut __out[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            <T as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.value,
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
            );
        }
        const HAS_INVALID_BYTES: ::zarrdt::__private::bool = ::zarrdt::__private::any(
            &[<T as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES],
        );
        #[inline]
        fn check_packed<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
        ) -> ::zarrdt::__private::Result<(), ::zarrdt::__private::DecodeError> {
            let __bytes = &__bytes[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            if <T as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <T as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "value",
                                <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize],
                            )
                    })?;
            }
            ::zarrdt::__private::Ok(())
        }
        #[inline]
        fn read_packed<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
        ) -> Self {
            let __bytes = &__bytes[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            Self {
                value: <T as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..]),
            }
        }
        #[inline]
        fn read_packed_validated<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
            __valid: &mut ::zarrdt::__private::bool,
        ) -> Self {
            let __bytes = &__bytes[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            Self {
                value: <T as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                    __valid,
                ),
            }
        }
        #[inline]
        fn packed_is_valid<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
        ) -> ::zarrdt::__private::bool {
            let __bytes = &__bytes[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            let mut __valid = true;
            if <T as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <T as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                    );
            }
            __valid
        }
        fn to_value(&self) -> ::zarrdt::__private::Value {
            ::zarrdt::__private::record([
                ("value", <T as ::zarrdt::__private::ZarrType>::to_value(&self.value)),
            ])
        }
        fn from_value(
            __value: &::zarrdt::__private::Value,
        ) -> ::zarrdt::__private::Result<Self, ::zarrdt::__private::Error> {
            let [__field0] = ::zarrdt::__private::record_fields(
                __value,
                ["value"],
                "Explicit",
            )?;
            ::zarrdt::__private::Ok(Self {
                value: <T as ::zarrdt::__private::ZarrType>::from_value(__field0)
                    .map_err(|__error| ::zarrdt::__private::within_field(
                        __error,
                        "value",
                    ))?,
            })
        }
        #[inline]
        fn write_packed_slice<__E: ::zarrdt::__private::StaticEndian>(
            __values: &[Self],
            __out: &mut [::zarrdt::__private::u8],
        ) {
            #[allow(unused_imports)]
            use ::zarrdt::__private::{EncodeBytes as _, EncodeFallback as _};
            let __copied = <Self as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT
                && <__E as ::zarrdt::__private::StaticEndian>::IS_NATIVE
                && (&::zarrdt::__private::Probe::<Self>::NEW)
                    .write_native(__values, __out);
            if !__copied {
                ::zarrdt::__private::write_each::<Self, __E>(__values, __out);
            }
        }
        #[inline]
        fn read_packed_slice<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
            __out: &mut ::zarrdt::__private::Vec<Self>,
        ) -> ::zarrdt::__private::Result<(), ::zarrdt::__private::Error> {
            #[allow(unused_imports)]
            use ::zarrdt::__private::{
                DecodeBytes as _, DecodeCopy as _, DecodeFallback as _,
                DecodeValidated as _,
            };
            if <Self as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT
                && <__E as ::zarrdt::__private::StaticEndian>::IS_NATIVE
                && (&&&::zarrdt::__private::Probe::<Self>::NEW)
                    .read_native(__bytes, __out)
            {
                return ::zarrdt::__private::Ok(());
            }
            ::zarrdt::__private::read_each::<Self, __E>(__bytes, __out)
        }
    }
    #[automatically_derived]
    impl<T> ::zarrdt::__private::ZarrStruct for Explicit<T>
    where
        T: ZarrType + Copy,
    {
        const OFFSETS: &'static [::zarrdt::__private::usize] = &<Self as ::zarrdt::__private::ZarrType>::TYPE
            .offsets::<1usize>();
    }
    ::zarrdt::__private::zarrs_element! {
        impl [< T >] Explicit < T > where [T : ZarrType + Copy] lifetimes['__a,
        '__zarrdt]
    }
};
