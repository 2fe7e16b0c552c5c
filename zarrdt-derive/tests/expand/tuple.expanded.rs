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
    impl ::zarrdt::__private::ZarrType for Sample {
        const TYPE: ::zarrdt::__private::TypeDescriptor = ::zarrdt::__private::TypeDescriptor::structure(
            &[
                ::zarrdt::__private::FieldDescriptor::new(
                    "0",
                    <u16 as ::zarrdt::__private::ZarrType>::TYPE,
                ),
                ::zarrdt::__private::FieldDescriptor::new(
                    "1",
                    <Point as ::zarrdt::__private::ZarrType>::TYPE,
                ),
                ::zarrdt::__private::FieldDescriptor::new(
                    "2",
                    <[[f32; 3]; 2] as ::zarrdt::__private::ZarrType>::TYPE,
                ),
            ],
        );
        const NATIVE_LAYOUT: ::zarrdt::__private::bool = ::zarrdt::__private::size_of::<
            Self,
        >() == <Self as ::zarrdt::__private::ZarrType>::SIZE
            && ::zarrdt::__private::all(
                &[
                    ::zarrdt::__private::offset_of!(Self, 0)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]
                        && <u16 as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                    ::zarrdt::__private::offset_of!(Self, 1)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]
                        && <Point as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                    ::zarrdt::__private::offset_of!(Self, 2)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]
                        && <[[f32; 3]; 2] as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                ],
            );
        #[inline]
        fn write_packed<__E: ::zarrdt::__private::StaticEndian>(
            &self,
            __out: &mut [::zarrdt::__private::u8],
        ) {
            let __out = &mut __out[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            <u16 as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.0,
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
            );
            <Point as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.1,
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
            );
            <[[f32; 3]; 2] as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.2,
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]..],
            );
        }
        const HAS_INVALID_BYTES: ::zarrdt::__private::bool = ::zarrdt::__private::any(
            &[
                <u16 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
                <Point as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
                <[[f32; 3]; 2] as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
            ],
        );
        #[inline]
        fn check_packed<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
        ) -> ::zarrdt::__private::Result<(), ::zarrdt::__private::DecodeError> {
            let __bytes = &__bytes[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            if <u16 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <u16 as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "0",
                                <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize],
                            )
                    })?;
            }
            if <Point as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <Point as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "1",
                                <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize],
                            )
                    })?;
            }
            if <[[f32; 3]; 2] as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <[[f32; 3]; 2] as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "2",
                                <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize],
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
                0: <u16 as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                ),
                1: <Point as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
                ),
                2: <[[f32; 3]; 2] as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]..]),
            }
        }
        #[inline]
        fn read_packed_validated<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
            __valid: &mut ::zarrdt::__private::bool,
        ) -> Self {
            let __bytes = &__bytes[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            Self {
                0: <u16 as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                    __valid,
                ),
                1: <Point as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
                    __valid,
                ),
                2: <[[f32; 3]; 2] as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]..],
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
            if <u16 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <u16 as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                    );
            }
            if <Point as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <Point as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
                    );
            }
            if <[[f32; 3]; 2] as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <[[f32; 3]; 2] as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]..],
                    );
            }
            __valid
        }
        fn to_value(&self) -> ::zarrdt::__private::Value {
            ::zarrdt::__private::record([
                ("0", <u16 as ::zarrdt::__private::ZarrType>::to_value(&self.0)),
                ("1", <Point as ::zarrdt::__private::ZarrType>::to_value(&self.1)),
                (
                    "2",
                    <[[f32; 3]; 2] as ::zarrdt::__private::ZarrType>::to_value(&self.2),
                ),
            ])
        }
        fn from_value(
            __value: &::zarrdt::__private::Value,
        ) -> ::zarrdt::__private::Result<Self, ::zarrdt::__private::Error> {
            let [__field0, __field1, __field2] = ::zarrdt::__private::record_fields(
                __value,
                ["0", "1", "2"],
                "Sample",
            )?;
            ::zarrdt::__private::Ok(Self {
                0: <u16 as ::zarrdt::__private::ZarrType>::from_value(__field0)
                    .map_err(|__error| ::zarrdt::__private::within_field(__error, "0"))?,
                1: <Point as ::zarrdt::__private::ZarrType>::from_value(__field1)
                    .map_err(|__error| ::zarrdt::__private::within_field(__error, "1"))?,
                2: <[[f32; 3]; 2] as ::zarrdt::__private::ZarrType>::from_value(__field2)
                    .map_err(|__error| ::zarrdt::__private::within_field(__error, "2"))?,
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
    impl ::zarrdt::__private::ZarrStruct for Sample {
        const OFFSETS: &'static [::zarrdt::__private::usize] = &<Self as ::zarrdt::__private::ZarrType>::TYPE
            .offsets::<3usize>();
    }
    ::zarrdt::__private::zarrs_element! {
        impl [] Sample where [] lifetimes['__a, '__zarrdt]
    }
};
