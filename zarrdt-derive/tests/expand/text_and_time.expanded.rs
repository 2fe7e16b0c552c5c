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
                    "name",
                    <FixedString<4> as ::zarrdt::__private::ZarrType>::TYPE,
                ),
                ::zarrdt::__private::FieldDescriptor::new(
                    "code",
                    <ByteString<3> as ::zarrdt::__private::ZarrType>::TYPE,
                ),
                ::zarrdt::__private::FieldDescriptor::new(
                    "raw",
                    <RawBytes<2> as ::zarrdt::__private::ZarrType>::TYPE,
                ),
                ::zarrdt::__private::FieldDescriptor::new(
                    "at",
                    <DateTime64<Seconds, 10> as ::zarrdt::__private::ZarrType>::TYPE,
                ),
                ::zarrdt::__private::FieldDescriptor::new(
                    "took",
                    <TimeDelta64<Milliseconds> as ::zarrdt::__private::ZarrType>::TYPE,
                ),
                ::zarrdt::__private::FieldDescriptor::new(
                    "z",
                    <num_complex::Complex<f32> as ::zarrdt::__private::ZarrType>::TYPE,
                ),
                ::zarrdt::__private::FieldDescriptor::new(
                    "h",
                    <half::f16 as ::zarrdt::__private::ZarrType>::TYPE,
                ),
            ],
        );
        const NATIVE_LAYOUT: ::zarrdt::__private::bool = ::zarrdt::__private::size_of::<
            Self,
        >() == <Self as ::zarrdt::__private::ZarrType>::SIZE
            && ::zarrdt::__private::all(
                &[
                    ::zarrdt::__private::offset_of!(Self, name)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]
                        && <FixedString<
                            4,
                        > as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                    ::zarrdt::__private::offset_of!(Self, code)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]
                        && <ByteString<
                            3,
                        > as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                    ::zarrdt::__private::offset_of!(Self, raw)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]
                        && <RawBytes<2> as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                    ::zarrdt::__private::offset_of!(Self, at)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[3usize]
                        && <DateTime64<
                            Seconds,
                            10,
                        > as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                    ::zarrdt::__private::offset_of!(Self, took)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[4usize]
                        && <TimeDelta64<
                            Milliseconds,
                        > as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                    ::zarrdt::__private::offset_of!(Self, z)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[5usize]
                        && <num_complex::Complex<
                            f32,
                        > as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                    ::zarrdt::__private::offset_of!(Self, h)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[6usize]
                        && <half::f16 as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                ],
            );
        #[inline]
        fn write_packed<__E: ::zarrdt::__private::StaticEndian>(
            &self,
            __out: &mut [::zarrdt::__private::u8],
        ) {
            let __out = &mut __out[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            <FixedString<
                4,
            > as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.name,
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
            );
            <ByteString<
                3,
            > as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.code,
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
            );
            <RawBytes<
                2,
            > as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.raw,
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]..],
            );
            <DateTime64<
                Seconds,
                10,
            > as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.at,
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[3usize]..],
            );
            <TimeDelta64<
                Milliseconds,
            > as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.took,
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[4usize]..],
            );
            <num_complex::Complex<
                f32,
            > as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.z,
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[5usize]..],
            );
            <half::f16 as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.h,
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[6usize]..],
            );
        }
        const HAS_INVALID_BYTES: ::zarrdt::__private::bool = ::zarrdt::__private::any(
            &[
                <FixedString<4> as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
                <ByteString<3> as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
                <RawBytes<2> as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
                <DateTime64<
                    Seconds,
                    10,
                > as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
                <TimeDelta64<
                    Milliseconds,
                > as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
                <num_complex::Complex<
                    f32,
                > as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
                <half::f16 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
            ],
        );
        #[inline]
        fn check_packed<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
        ) -> ::zarrdt::__private::Result<(), ::zarrdt::__private::DecodeError> {
            let __bytes = &__bytes[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            if <FixedString<4> as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <FixedString<
                    4,
                > as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "name",
                                <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize],
                            )
                    })?;
            }
            if <ByteString<3> as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <ByteString<
                    3,
                > as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "code",
                                <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize],
                            )
                    })?;
            }
            if <RawBytes<2> as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <RawBytes<
                    2,
                > as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "raw",
                                <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize],
                            )
                    })?;
            }
            if <DateTime64<
                Seconds,
                10,
            > as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <DateTime64<
                    Seconds,
                    10,
                > as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[3usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "at",
                                <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[3usize],
                            )
                    })?;
            }
            if <TimeDelta64<
                Milliseconds,
            > as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <TimeDelta64<
                    Milliseconds,
                > as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[4usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "took",
                                <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[4usize],
                            )
                    })?;
            }
            if <num_complex::Complex<
                f32,
            > as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <num_complex::Complex<
                    f32,
                > as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[5usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "z",
                                <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[5usize],
                            )
                    })?;
            }
            if <half::f16 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <half::f16 as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[6usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "h",
                                <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[6usize],
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
                name: <FixedString<
                    4,
                > as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                ),
                code: <ByteString<
                    3,
                > as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
                ),
                raw: <RawBytes<
                    2,
                > as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]..],
                ),
                at: <DateTime64<
                    Seconds,
                    10,
                > as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[3usize]..],
                ),
                took: <TimeDelta64<
                    Milliseconds,
                > as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[4usize]..],
                ),
                z: <num_complex::Complex<
                    f32,
                > as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[5usize]..],
                ),
                h: <half::f16 as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[6usize]..]),
            }
        }
        #[inline]
        fn read_packed_validated<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
            __valid: &mut ::zarrdt::__private::bool,
        ) -> Self {
            let __bytes = &__bytes[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            Self {
                name: <FixedString<
                    4,
                > as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                    __valid,
                ),
                code: <ByteString<
                    3,
                > as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
                    __valid,
                ),
                raw: <RawBytes<
                    2,
                > as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]..],
                    __valid,
                ),
                at: <DateTime64<
                    Seconds,
                    10,
                > as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[3usize]..],
                    __valid,
                ),
                took: <TimeDelta64<
                    Milliseconds,
                > as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[4usize]..],
                    __valid,
                ),
                z: <num_complex::Complex<
                    f32,
                > as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[5usize]..],
                    __valid,
                ),
                h: <half::f16 as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[6usize]..],
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
            if <FixedString<4> as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <FixedString<
                        4,
                    > as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                    );
            }
            if <ByteString<3> as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <ByteString<
                        3,
                    > as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
                    );
            }
            if <RawBytes<2> as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <RawBytes<
                        2,
                    > as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]..],
                    );
            }
            if <DateTime64<
                Seconds,
                10,
            > as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <DateTime64<
                        Seconds,
                        10,
                    > as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[3usize]..],
                    );
            }
            if <TimeDelta64<
                Milliseconds,
            > as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <TimeDelta64<
                        Milliseconds,
                    > as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[4usize]..],
                    );
            }
            if <num_complex::Complex<
                f32,
            > as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <num_complex::Complex<
                        f32,
                    > as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[5usize]..],
                    );
            }
            if <half::f16 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <half::f16 as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[6usize]..],
                    );
            }
            __valid
        }
        fn to_value(&self) -> ::zarrdt::__private::Value {
            ::zarrdt::__private::record([
                (
                    "name",
                    <FixedString<
                        4,
                    > as ::zarrdt::__private::ZarrType>::to_value(&self.name),
                ),
                (
                    "code",
                    <ByteString<
                        3,
                    > as ::zarrdt::__private::ZarrType>::to_value(&self.code),
                ),
                (
                    "raw",
                    <RawBytes<2> as ::zarrdt::__private::ZarrType>::to_value(&self.raw),
                ),
                (
                    "at",
                    <DateTime64<
                        Seconds,
                        10,
                    > as ::zarrdt::__private::ZarrType>::to_value(&self.at),
                ),
                (
                    "took",
                    <TimeDelta64<
                        Milliseconds,
                    > as ::zarrdt::__private::ZarrType>::to_value(&self.took),
                ),
                (
                    "z",
                    <num_complex::Complex<
                        f32,
                    > as ::zarrdt::__private::ZarrType>::to_value(&self.z),
                ),
                ("h", <half::f16 as ::zarrdt::__private::ZarrType>::to_value(&self.h)),
            ])
        }
        fn from_value(
            __value: &::zarrdt::__private::Value,
        ) -> ::zarrdt::__private::Result<Self, ::zarrdt::__private::Error> {
            let [__field0, __field1, __field2, __field3, __field4, __field5, __field6] = ::zarrdt::__private::record_fields(
                __value,
                ["name", "code", "raw", "at", "took", "z", "h"],
                "Event",
            )?;
            ::zarrdt::__private::Ok(Self {
                name: <FixedString<
                    4,
                > as ::zarrdt::__private::ZarrType>::from_value(__field0)
                    .map_err(|__error| ::zarrdt::__private::within_field(
                        __error,
                        "name",
                    ))?,
                code: <ByteString<
                    3,
                > as ::zarrdt::__private::ZarrType>::from_value(__field1)
                    .map_err(|__error| ::zarrdt::__private::within_field(
                        __error,
                        "code",
                    ))?,
                raw: <RawBytes<2> as ::zarrdt::__private::ZarrType>::from_value(__field2)
                    .map_err(|__error| ::zarrdt::__private::within_field(
                        __error,
                        "raw",
                    ))?,
                at: <DateTime64<
                    Seconds,
                    10,
                > as ::zarrdt::__private::ZarrType>::from_value(__field3)
                    .map_err(|__error| ::zarrdt::__private::within_field(
                        __error,
                        "at",
                    ))?,
                took: <TimeDelta64<
                    Milliseconds,
                > as ::zarrdt::__private::ZarrType>::from_value(__field4)
                    .map_err(|__error| ::zarrdt::__private::within_field(
                        __error,
                        "took",
                    ))?,
                z: <num_complex::Complex<
                    f32,
                > as ::zarrdt::__private::ZarrType>::from_value(__field5)
                    .map_err(|__error| ::zarrdt::__private::within_field(__error, "z"))?,
                h: <half::f16 as ::zarrdt::__private::ZarrType>::from_value(__field6)
                    .map_err(|__error| ::zarrdt::__private::within_field(__error, "h"))?,
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
            .offsets::<7usize>();
    }
    ::zarrdt::__private::zarrs_element! {
        impl [] Event where [] lifetimes['__a, '__zarrdt]
    }
};
