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
    impl<T: ZarrType + Copy> ::zarrdt::__private::ZarrType for Padded<T>
    where
        T: ::zarrdt::__private::ZarrType,
        Padded<T>: ::zarrdt::__private::SingleCopy,
    {
        const TYPE: ::zarrdt::__private::TypeDescriptor = ::zarrdt::__private::TypeDescriptor::structure(
            &[
                ::zarrdt::__private::FieldDescriptor::new(
                    "flag",
                    <u8 as ::zarrdt::__private::ZarrType>::TYPE,
                ),
                ::zarrdt::__private::FieldDescriptor::new(
                    "value",
                    <T as ::zarrdt::__private::ZarrType>::TYPE,
                ),
            ],
        );
        const SIZE: ::zarrdt::__private::usize = {
            let () = Self::__ZARRDT_SINGLE_COPY;
            <Self as ::zarrdt::__private::ZarrType>::TYPE.size()
        };
        const NATIVE_LAYOUT: ::zarrdt::__private::bool = {
            let () = Self::__ZARRDT_SINGLE_COPY;
            ::zarrdt::__private::size_of::<Self>()
                == <Self as ::zarrdt::__private::ZarrType>::SIZE
                && ::zarrdt::__private::all(
                    &[
                        ::zarrdt::__private::offset_of!(Self, flag)
                            == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]
                            && <u8 as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                        ::zarrdt::__private::offset_of!(Self, value)
                            == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]
                            && <T as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                    ],
                )
        };
        #[inline]
        fn write_packed<__E: ::zarrdt::__private::StaticEndian>(
            &self,
            __out: &mut [::zarrdt::__private::u8],
        ) {
            let __out = &mut __out[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            <u8 as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &{ self.flag },
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
            );
            <T as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &{ self.value },
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
            );
        }
        const HAS_INVALID_BYTES: ::zarrdt::__private::bool = ::zarrdt::__private::any(
            &[
                <u8 as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
                <T as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES,
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
                                "flag",
                                <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize],
                            )
                    })?;
            }
            if <T as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <T as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "value",
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
                flag: <u8 as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                ),
                value: <T as ::zarrdt::__private::ZarrType>::read_packed::<
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
                flag: <u8 as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                    __valid,
                ),
                value: <T as ::zarrdt::__private::ZarrType>::read_packed_validated::<
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
            if <T as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <T as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[1usize]..],
                    );
            }
            __valid
        }
        fn to_value(&self) -> ::zarrdt::__private::Value {
            ::zarrdt::__private::record([
                (
                    "flag",
                    <u8 as ::zarrdt::__private::ZarrType>::to_value(&{ self.flag }),
                ),
                (
                    "value",
                    <T as ::zarrdt::__private::ZarrType>::to_value(&{ self.value }),
                ),
            ])
        }
        fn from_value(
            __value: &::zarrdt::__private::Value,
        ) -> ::zarrdt::__private::Result<Self, ::zarrdt::__private::Error> {
            let [__field0, __field1] = ::zarrdt::__private::record_fields(
                __value,
                ["flag", "value"],
                "Padded",
            )?;
            ::zarrdt::__private::Ok(Self {
                flag: <u8 as ::zarrdt::__private::ZarrType>::from_value(__field0)
                    .map_err(|__error| ::zarrdt::__private::within_field(
                        __error,
                        "flag",
                    ))?,
                value: <T as ::zarrdt::__private::ZarrType>::from_value(__field1)
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
    impl<T: ZarrType + Copy> ::zarrdt::__private::ZarrStruct for Padded<T>
    where
        T: ::zarrdt::__private::ZarrType,
        Padded<T>: ::zarrdt::__private::SingleCopy,
    {
        const OFFSETS: &'static [::zarrdt::__private::usize] = &<Self as ::zarrdt::__private::ZarrType>::TYPE
            .offsets::<2usize>();
    }
    #[automatically_derived]
    impl<T: ZarrType + Copy> Padded<T>
    where
        T: ::zarrdt::__private::ZarrType,
        Padded<T>: ::zarrdt::__private::SingleCopy,
    {
        #[doc(hidden)]
        const __ZARRDT_SINGLE_COPY: () = {
            let __offsets = <Padded<T> as ::zarrdt::__private::ZarrType>::TYPE
                .offsets::<2usize>();
            ::zarrdt::__private::assert!(
                ::zarrdt::__private::size_of:: < Padded < T > > () == < Padded < T > as
                ::zarrdt::__private::ZarrType > ::TYPE.size(),
                "#[zarr(single_copy)]: this instantiation of `Padded` is larger in memory than its packed record: it has padding or skipped fields (use #[repr(C)] with fields that leave no gaps)"
            );
            ::zarrdt::__private::assert!(
                ::zarrdt::__private::offset_of!(Padded < T >, flag) == __offsets[0usize],
                "#[zarr(single_copy)]: field `flag` of this instantiation of `Padded` is not at its packed offset in memory (use #[repr(C)] and declare the fields in record order)"
            );
            ::zarrdt::__private::assert!(
                < u8 as ::zarrdt::__private::ZarrType > ::NATIVE_LAYOUT,
                "#[zarr(single_copy)]: the type of field `flag` of this instantiation of `Padded` is not stored as its own packed bytes in memory"
            );
            ::zarrdt::__private::assert!(
                ::zarrdt::__private::offset_of!(Padded < T >, value) ==
                __offsets[1usize],
                "#[zarr(single_copy)]: field `value` of this instantiation of `Padded` is not at its packed offset in memory (use #[repr(C)] and declare the fields in record order)"
            );
            ::zarrdt::__private::assert!(
                < T as ::zarrdt::__private::ZarrType > ::NATIVE_LAYOUT,
                "#[zarr(single_copy)]: the type of field `value` of this instantiation of `Padded` is not stored as its own packed bytes in memory"
            );
        };
    }
    ::zarrdt::__private::zarrs_element! {
        impl [< T : ZarrType + Copy >] Padded < T > where [T :
        ::zarrdt::__private::ZarrType, Padded < T > : ::zarrdt::__private::SingleCopy]
        lifetimes['__a, '__zarrdt]
    }
};
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
    impl<'a, const N: usize> ::zarrdt::__private::ZarrType for Window<'a, N>
    where
        Window<'a, N>: ::zarrdt::__private::SingleCopy,
    {
        const TYPE: ::zarrdt::__private::TypeDescriptor = ::zarrdt::__private::TypeDescriptor::structure(
            &[
                ::zarrdt::__private::FieldDescriptor::new(
                    "values",
                    <[f32; N] as ::zarrdt::__private::ZarrType>::TYPE,
                ),
            ],
        );
        const SIZE: ::zarrdt::__private::usize = {
            let () = Self::__ZARRDT_SINGLE_COPY;
            <Self as ::zarrdt::__private::ZarrType>::TYPE.size()
        };
        const NATIVE_LAYOUT: ::zarrdt::__private::bool = {
            let () = Self::__ZARRDT_SINGLE_COPY;
            ::zarrdt::__private::size_of::<Self>()
                == <Self as ::zarrdt::__private::ZarrType>::SIZE
                && ::zarrdt::__private::all(
                    &[
                        ::zarrdt::__private::offset_of!(Self, values)
                            == <Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]
                            && <[f32; N] as ::zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                    ],
                )
        };
        #[inline]
        fn write_packed<__E: ::zarrdt::__private::StaticEndian>(
            &self,
            __out: &mut [::zarrdt::__private::u8],
        ) {
            let __out = &mut __out[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            <[f32; N] as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.values,
                &mut __out[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
            );
        }
        const HAS_INVALID_BYTES: ::zarrdt::__private::bool = ::zarrdt::__private::any(
            &[<[f32; N] as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES],
        );
        #[inline]
        fn check_packed<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
        ) -> ::zarrdt::__private::Result<(), ::zarrdt::__private::DecodeError> {
            let __bytes = &__bytes[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            if <[f32; N] as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <[f32; N] as ::zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(&__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..])
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "values",
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
                values: <[f32; N] as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                ),
                source: <PhantomData<
                    &'a (),
                > as ::zarrdt::__private::PhantomMarker>::MARKER,
            }
        }
        #[inline]
        fn read_packed_validated<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
            __valid: &mut ::zarrdt::__private::bool,
        ) -> Self {
            let __bytes = &__bytes[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            Self {
                values: <[f32; N] as ::zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                    __valid,
                ),
                source: <PhantomData<
                    &'a (),
                > as ::zarrdt::__private::PhantomMarker>::MARKER,
            }
        }
        #[inline]
        fn packed_is_valid<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
        ) -> ::zarrdt::__private::bool {
            let __bytes = &__bytes[..<Self as ::zarrdt::__private::ZarrType>::SIZE];
            let mut __valid = true;
            if <[f32; N] as ::zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <[f32; N] as ::zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as ::zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                    );
            }
            __valid
        }
        fn to_value(&self) -> ::zarrdt::__private::Value {
            ::zarrdt::__private::record([
                (
                    "values",
                    <[f32; N] as ::zarrdt::__private::ZarrType>::to_value(&self.values),
                ),
            ])
        }
        fn from_value(
            __value: &::zarrdt::__private::Value,
        ) -> ::zarrdt::__private::Result<Self, ::zarrdt::__private::Error> {
            let [__field0] = ::zarrdt::__private::record_fields(
                __value,
                ["values"],
                "Window",
            )?;
            ::zarrdt::__private::Ok(Self {
                values: <[f32; N] as ::zarrdt::__private::ZarrType>::from_value(__field0)
                    .map_err(|__error| ::zarrdt::__private::within_field(
                        __error,
                        "values",
                    ))?,
                source: <PhantomData<
                    &'a (),
                > as ::zarrdt::__private::PhantomMarker>::MARKER,
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
    impl<'a, const N: usize> ::zarrdt::__private::ZarrStruct for Window<'a, N>
    where
        Window<'a, N>: ::zarrdt::__private::SingleCopy,
    {
        const OFFSETS: &'static [::zarrdt::__private::usize] = &<Self as ::zarrdt::__private::ZarrType>::TYPE
            .offsets::<1usize>();
    }
    #[automatically_derived]
    impl<'a, const N: usize> Window<'a, N>
    where
        Window<'a, N>: ::zarrdt::__private::SingleCopy,
    {
        #[doc(hidden)]
        const __ZARRDT_SINGLE_COPY: () = {
            let __offsets = <Window<'a, N> as ::zarrdt::__private::ZarrType>::TYPE
                .offsets::<1usize>();
            ::zarrdt::__private::assert!(
                ::zarrdt::__private::size_of:: < Window < 'a, N > > () == < Window < 'a,
                N > as ::zarrdt::__private::ZarrType > ::TYPE.size(),
                "#[zarr(single_copy)]: this instantiation of `Window` is larger in memory than its packed record: it has padding or skipped fields (use #[repr(C)] with fields that leave no gaps)"
            );
            ::zarrdt::__private::assert!(
                ::zarrdt::__private::offset_of!(Window < 'a, N >, values) ==
                __offsets[0usize],
                "#[zarr(single_copy)]: field `values` of this instantiation of `Window` is not at its packed offset in memory (use #[repr(C)] and declare the fields in record order)"
            );
            ::zarrdt::__private::assert!(
                < [f32; N] as ::zarrdt::__private::ZarrType > ::NATIVE_LAYOUT,
                "#[zarr(single_copy)]: the type of field `values` of this instantiation of `Window` is not stored as its own packed bytes in memory"
            );
        };
    }
    ::zarrdt::__private::zarrs_element! {
        impl [< 'a, const N : usize >] Window < 'a, N > where [Window < 'a, N > :
        ::zarrdt::__private::SingleCopy] lifetimes['__a, '__zarrdt]
    }
};
