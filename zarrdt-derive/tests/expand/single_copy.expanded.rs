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
    impl ::zarrdt::__private::ZarrType for Native {
        const TYPE: ::zarrdt::__private::TypeDescriptor = ::zarrdt::__private::TypeDescriptor::structure(
            &[
                ::zarrdt::__private::FieldDescriptor::new(
                    "x",
                    <f64 as ::zarrdt::__private::ZarrType>::TYPE,
                ),
                ::zarrdt::__private::FieldDescriptor::new(
                    "n",
                    <u32 as ::zarrdt::__private::ZarrType>::TYPE,
                ),
                ::zarrdt::__private::FieldDescriptor::new(
                    "tag",
                    <[u8; 4] as ::zarrdt::__private::ZarrType>::TYPE,
                ),
            ],
        );
        const NATIVE_LAYOUT: ::zarrdt::__private::bool = ::zarrdt::__private::size_of::<
            Self,
        >() == <Self as ::zarrdt::__private::ZarrType>::SIZE
            && ::zarrdt::__private::all(
                &[
                    ::zarrdt::__private::offset_of!(Self, x)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]
                        && <f64 as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                    ::zarrdt::__private::offset_of!(Self, n)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]
                        && <u32 as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                    ::zarrdt::__private::offset_of!(Self, tag)
                        == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]
                        && <[u8; 4] as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                ],
            );
        #[inline]
        fn write_packed<__E: ::zarrdt::__private::StaticEndian>(
            &self,
            __out: &mut [::zarrdt::__private::u8],
        ) {
            let __out = &mut __out[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            <f64 as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.x,
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
            );
            <u32 as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.n,
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
            );
            <[u8; 4] as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.tag,
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]..],
            );
        }
        const HAS_INVALID_BYTES: ::zarrdt::__private::bool = ::zarrdt::__private::any(
            &[
                <f64 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
                <u32 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
                <[u8; 4] as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
            ],
        );
        #[inline]
        fn check_packed<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
        ) -> ::zarrdt::__private::Result<(), ::zarrdt::__private::DecodeError> {
            let __bytes = &__bytes[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            if <f64 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <f64 as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "x",
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
                                "n",
                                <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize],
                            )
                    })?;
            }
            if <[u8; 4] as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <[u8; 4] as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "tag",
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
                x: <f64 as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                ),
                n: <u32 as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
                ),
                tag: <[u8; 4] as ::zarrdt::__private::ZarrType>::read_packed::<
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
                x: <f64 as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                    __valid,
                ),
                n: <u32 as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
                    __valid,
                ),
                tag: <[u8; 4] as ::zarrdt::__private::ZarrType>::read_packed_validated::<
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
            if <f64 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <f64 as ::zarrdt::__private::ZarrType>::packed_is_valid::<
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
            if <[u8; 4] as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <[u8; 4] as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[2usize]..],
                    );
            }
            __valid
        }
        fn to_value(&self) -> ::zarrdt::__private::Value {
            ::zarrdt::__private::record([
                ("x", <f64 as ::zarrdt::__private::ZarrType>::to_value(&self.x)),
                ("n", <u32 as ::zarrdt::__private::ZarrType>::to_value(&self.n)),
                ("tag", <[u8; 4] as ::zarrdt::__private::ZarrType>::to_value(&self.tag)),
            ])
        }
        fn from_value(
            __value: &::zarrdt::__private::Value,
        ) -> ::zarrdt::__private::Result<Self, ::zarrdt::__private::Error> {
            let [__field0, __field1, __field2] = ::zarrdt::__private::record_fields(
                __value,
                ["x", "n", "tag"],
                "Native",
            )?;
            ::zarrdt::__private::Ok(Self {
                x: <f64 as ::zarrdt::__private::ZarrType>::from_value(__field0)
                    .map_err(|__error| ::zarrdt::__private::within_field(__error, "x"))?,
                n: <u32 as ::zarrdt::__private::ZarrType>::from_value(__field1)
                    .map_err(|__error| ::zarrdt::__private::within_field(__error, "n"))?,
                tag: <[u8; 4] as ::zarrdt::__private::ZarrType>::from_value(__field2)
                    .map_err(|__error| ::zarrdt::__private::within_field(
                        __error,
                        "tag",
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
    impl ::zarrdt::__private::ZarrStruct for Native {
        const OFFSETS: &'static [::zarrdt::__private::usize] = &<Self as ::zarrdt::__private::ZarrType>::TYPE
            .offsets::<3usize>();
    }
    #[automatically_derived]
    impl Native {
        #[doc(hidden)]
        const __ZARRDT_SINGLE_COPY: () = {
            let __offsets = <Native as ::zarrdt::__private::ZarrType>::TYPE
                .offsets::<3usize>();
            ::zarrdt::__private::assert!(
                ::zarrdt::__private::size_of:: < Native > () == < Native as
                ::zarrdt::__private::ZarrType > ::TYPE.size(),
                "#[zarr(single_copy)]: `Native` is larger in memory than its packed record: it has padding or skipped fields (use #[repr(C)] with fields that leave no gaps)"
            );
            ::zarrdt::__private::assert!(
                ::zarrdt::__private::offset_of!(Native, x) == __offsets[0usize],
                "#[zarr(single_copy)]: field `x` of `Native` is not at its packed offset in memory (use #[repr(C)] and declare the fields in record order)"
            );
            ::zarrdt::__private::assert!(
                < f64 as ::zarrdt::__private::ZarrType > ::NATIVE_LAYOUT,
                "#[zarr(single_copy)]: the type of field `x` of `Native` is not stored as its own packed bytes in memory"
            );
            ::zarrdt::__private::assert!(
                ::zarrdt::__private::offset_of!(Native, n) == __offsets[1usize],
                "#[zarr(single_copy)]: field `n` of `Native` is not at its packed offset in memory (use #[repr(C)] and declare the fields in record order)"
            );
            ::zarrdt::__private::assert!(
                < u32 as ::zarrdt::__private::ZarrType > ::NATIVE_LAYOUT,
                "#[zarr(single_copy)]: the type of field `n` of `Native` is not stored as its own packed bytes in memory"
            );
            ::zarrdt::__private::assert!(
                ::zarrdt::__private::offset_of!(Native, tag) == __offsets[2usize],
                "#[zarr(single_copy)]: field `tag` of `Native` is not at its packed offset in memory (use #[repr(C)] and declare the fields in record order)"
            );
            ::zarrdt::__private::assert!(
                < [u8; 4] as ::zarrdt::__private::ZarrType > ::NATIVE_LAYOUT,
                "#[zarr(single_copy)]: the type of field `tag` of `Native` is not stored as its own packed bytes in memory"
            );
        };
    }
    const _: () = ::zarrdt::__private::assert_single_copy::<Native>();
    const _: () = <Native>::__ZARRDT_SINGLE_COPY;
    ::zarrdt::__private::zarrs_element! {
        impl [] Native where [] lifetimes['__a, '__zarrdt]
    }
};
