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
    impl ::zarrdt::__private::ZarrType for Event {
        const TYPE: ::zarrdt::__private::TypeDescriptor = ::zarrdt::__private::TypeDescriptor::structure(
            &[
                ::zarrdt::__private::FieldDescriptor::new(
                    "id",
                    <u32 as ::zarrdt::__private::ZarrType>::TYPE,
                ),
                ::zarrdt::__private::FieldDescriptor::new(
                    "status",
                    <Status as ::zarrdt::__private::ZarrType>::TYPE,
                ),
                ::zarrdt::__private::FieldDescriptor::new(
                    "history",
                    <[Status; 3] as ::zarrdt::__private::ZarrType>::TYPE,
                ),
                ::zarrdt::__private::FieldDescriptor::new(
                    "grade",
                    <char as ::zarrdt::__private::ZarrType>::TYPE,
                ),
            ],
        );
        const NATIVE_LAYOUT: ::zarrdt::__private::bool = ::zarrdt::__private::size_of::<
            Self,
        >() == <Self as ::zarrdt::__private::ZarrType>::SIZE
            && ::zarrdt::__private::all(
                &[
                    ::zarrdt::__private::offset_of!(Self, id)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]
                        && <u32 as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                    ::zarrdt::__private::offset_of!(Self, status)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]
                        && <Status as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                    ::zarrdt::__private::offset_of!(Self, history)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]
                        && <[Status; 3] as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                    ::zarrdt::__private::offset_of!(Self, grade)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[3usize]
                        && <char as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                ],
            );
        #[inline]
        fn write_packed<__E: ::zarrdt::__private::StaticEndian>(
            &self,
            __out: &mut [::zarrdt::__private::u8],
        ) {
            let __out = &mut __out[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            <u32 as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.id,
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
            );
            <Status as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.status,
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
            );
            <[Status; 3] as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.history,
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]..],
            );
            <char as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.grade,
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[3usize]..],
            );
        }
        const HAS_INVALID_BYTES: ::zarrdt::__private::bool = ::zarrdt::__private::any(
            &[
                <u32 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
                <Status as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
                <[Status; 3] as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
                <char as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
            ],
        );
        #[inline]
        fn check_packed<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
        ) -> ::zarrdt::__private::Result<(), ::zarrdt::__private::DecodeError> {
            let __bytes = &__bytes[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            if <u32 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <u32 as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "id",
                                <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize],
                            )
                    })?;
            }
            if <Status as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <Status as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "status",
                                <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize],
                            )
                    })?;
            }
            if <[Status; 3] as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <[Status; 3] as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "history",
                                <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize],
                            )
                    })?;
            }
            if <char as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <char as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[3usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "grade",
                                <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[3usize],
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
                id: <u32 as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                ),
                status: <Status as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
                ),
                history: <[Status; 3] as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]..],
                ),
                grade: <char as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[3usize]..]),
            }
        }
        #[inline]
        fn read_packed_validated<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
            __valid: &mut ::zarrdt::__private::bool,
        ) -> Self {
            let __bytes = &__bytes[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            Self {
                id: <u32 as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                    __valid,
                ),
                status: <Status as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
                    __valid,
                ),
                history: <[Status; 3] as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]..],
                    __valid,
                ),
                grade: <char as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[3usize]..],
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
            if <u32 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <u32 as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                    );
            }
            if <Status as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <Status as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
                    );
            }
            if <[Status; 3] as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <[Status; 3] as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]..],
                    );
            }
            if <char as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <char as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[3usize]..],
                    );
            }
            __valid
        }
        fn to_value(&self) -> ::zarrdt::__private::Value {
            ::zarrdt::__private::record([
                ("id", <u32 as ::zarrdt::__private::ZarrType>::to_value(&self.id)),
                (
                    "status",
                    <Status as ::zarrdt::__private::ZarrType>::to_value(&self.status),
                ),
                (
                    "history",
                    <[Status; 3] as ::zarrdt::__private::ZarrType>::to_value(
                        &self.history,
                    ),
                ),
                ("grade", <char as ::zarrdt::__private::ZarrType>::to_value(&self.grade)),
            ])
        }
        fn from_value(
            __value: &::zarrdt::__private::Value,
        ) -> ::zarrdt::__private::Result<Self, ::zarrdt::__private::Error> {
            let [__field0, __field1, __field2, __field3] = ::zarrdt::__private::record_fields(
                __value,
                ["id", "status", "history", "grade"],
                "Event",
            )?;
            ::zarrdt::__private::Ok(Self {
                id: <u32 as ::zarrdt::__private::ZarrType>::from_value(__field0)
                    .map_err(|__error| ::zarrdt::__private::within_field(
                        __error,
                        "id",
                    ))?,
                status: <Status as ::zarrdt::__private::ZarrType>::from_value(__field1)
                    .map_err(|__error| ::zarrdt::__private::within_field(
                        __error,
                        "status",
                    ))?,
                history: <[Status; 3] as ::zarrdt::__private::ZarrType>::from_value(
                        __field2,
                    )
                    .map_err(|__error| ::zarrdt::__private::within_field(
                        __error,
                        "history",
                    ))?,
                grade: <char as ::zarrdt::__private::ZarrType>::from_value(__field3)
                    .map_err(|__error| ::zarrdt::__private::within_field(
                        __error,
                        "grade",
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
    impl ::zarrdt::__private::ZarrStruct for Event {
        const OFFSETS: &'static [::zarrdt::__private::usize] = &<Self as ::zarrdt::__private::ZarrType>::TYPE
            .offsets::<4usize>();
    }
    ::zarrdt::__private::zarrs_element! {
        impl [] Event where [] lifetimes['__a, '__zarrdt]
    }
};
