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
    impl ::zarrdt::__private::ZarrType for Packed {
        const TYPE: ::zarrdt::__private::TypeDescriptor = ::zarrdt::__private::TypeDescriptor::structure(
            &[
                ::zarrdt::__private::FieldDescriptor::new(
                    "a",
                    <u8 as ::zarrdt::__private::ZarrType>::TYPE,
                ),
                ::zarrdt::__private::FieldDescriptor::new(
                    "b",
                    <u32 as ::zarrdt::__private::ZarrType>::TYPE,
                ),
            ],
        );
        const NATIVE_LAYOUT: ::zarrdt::__private::bool = ::zarrdt::__private::size_of::<
            Self,
        >() == <Self as ::zarrdt::__private::ZarrType>::SIZE
            && ::zarrdt::__private::all(
                &[
                    ::zarrdt::__private::offset_of!(Self, a)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]
                        && <u8 as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                    ::zarrdt::__private::offset_of!(Self, b)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]
                        && <u32 as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                ],
            );
        #[inline]
        fn write_packed<__E: ::zarrdt::__private::StaticEndian>(
            &self,
            __out: &mut [::zarrdt::__private::u8],
        ) {
            let __out = &mut __out[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            <u8 as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &{ self.a },
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
            );
            <u32 as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &{ self.b },
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
            );
        }
        const HAS_INVALID_BYTES: ::zarrdt::__private::bool = ::zarrdt::__private::any(
            &[
                <u8 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
                <u32 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
            ],
        );
        #[inline]
        fn check_packed<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
        ) -> ::zarrdt::__private::Result<(), ::zarrdt::__private::DecodeError> {
            let __bytes = &__bytes[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            if <u8 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <u8 as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "a",
                                <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize],
                            )
                    })?;
            }
            if <u32 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <u32 as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "b",
                                <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize],
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
                a: <u8 as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                ),
                b: <u32 as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..]),
            }
        }
        #[inline]
        fn read_packed_validated<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
            __valid: &mut ::zarrdt::__private::bool,
        ) -> Self {
            let __bytes = &__bytes[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            Self {
                a: <u8 as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                    __valid,
                ),
                b: <u32 as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
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
            if <u8 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <u8 as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                    );
            }
            if <u32 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <u32 as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
                    );
            }
            __valid
        }
        fn to_value(&self) -> ::zarrdt::__private::Value {
            ::zarrdt::__private::record([
                ("a", <u8 as ::zarrdt::__private::ZarrType>::to_value(&{ self.a })),
                ("b", <u32 as ::zarrdt::__private::ZarrType>::to_value(&{ self.b })),
            ])
        }
        fn from_value(
            __value: &::zarrdt::__private::Value,
        ) -> ::zarrdt::__private::Result<Self, ::zarrdt::__private::Error> {
            let [__field0, __field1] = ::zarrdt::__private::record_fields(
                __value,
                ["a", "b"],
                "Packed",
            )?;
            ::zarrdt::__private::Ok(Self {
                a: <u8 as ::zarrdt::__private::ZarrType>::from_value(__field0)
                    .map_err(|__error| ::zarrdt::__private::within_field(__error, "a"))?,
                b: <u32 as ::zarrdt::__private::ZarrType>::from_value(__field1)
                    .map_err(|__error| ::zarrdt::__private::within_field(__error, "b"))?,
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
    impl ::zarrdt::__private::ZarrStruct for Packed {
        const OFFSETS: &'static [::zarrdt::__private::usize] = &<Self as ::zarrdt::__private::ZarrType>::TYPE
            .offsets::<2usize>();
    }
    ::zarrdt::__private::zarrs_element! {
        impl [] Packed where [] lifetimes['__a, '__zarrdt]
    }
};
