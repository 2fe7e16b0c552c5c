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
    impl my_zarrdt::__private::ZarrType for Renamed {
        const TYPE: my_zarrdt::__private::TypeDescriptor = my_zarrdt::__private::TypeDescriptor::structure(
            &[
                my_zarrdt::__private::FieldDescriptor::new(
                    "x",
                    <f64 as my_zarrdt::__private::ZarrType>::TYPE,
                ),
            ],
        );
        const NATIVE_LAYOUT: my_zarrdt::__private::bool = my_zarrdt::__private::size_of::<
            Self,
        >() == <Self as my_zarrdt::__private::ZarrType>::SIZE
            && my_zarrdt::__private::all(
                &[
                    my_zarrdt::__private::offset_of!(Self, x)
                        == <Self as my_zarrdt::__private::ZarrStruct>::OFFSETS[0usize]
                        && <f64 as my_zarrdt::__private::ZarrType>::NATIVE_LAYOUT,
                ],
            );
        #[inline]
        fn write_packed<__E: my_zarrdt::__private::StaticEndian>(
            &self,
            __out: &mut [my_zarrdt::__private::u8],
        ) {
            let __out = &mut __out[..<Self as my_zarrdt::__private::ZarrType>::SIZE];
            <f64 as my_zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(
                &self.x,
                &mut __out[<Self as my_zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
            );
        }
        const HAS_INVALID_BYTES: my_zarrdt::__private::bool = my_zarrdt::__private::any(
            &[<f64 as my_zarrdt::__private::ZarrType>::HAS_INVALID_BYTES],
        );
        #[inline]
        fn check_packed<__E: my_zarrdt::__private::StaticEndian>(
            __bytes: &[my_zarrdt::__private::u8],
        ) -> my_zarrdt::__private::Result<(), my_zarrdt::__private::DecodeError> {
            let __bytes = &__bytes[..<Self as my_zarrdt::__private::ZarrType>::SIZE];
            if <f64 as my_zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                <f64 as my_zarrdt::__private::ZarrType>::check_packed::<
                    __E,
                >(
                        &__bytes[<Self as my_zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                    )
                    .map_err(|__error| {
                        __error
                            .in_field(
                                "x",
                                <Self as my_zarrdt::__private::ZarrStruct>::OFFSETS[0usize],
                            )
                    })?;
            }
            my_zarrdt::__private::Ok(())
        }
        #[inline]
        fn read_packed<__E: my_zarrdt::__private::StaticEndian>(
            __bytes: &[my_zarrdt::__private::u8],
        ) -> Self {
            let __bytes = &__bytes[..<Self as my_zarrdt::__private::ZarrType>::SIZE];
            Self {
                x: <f64 as my_zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(
                    &__bytes[<Self as my_zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                ),
            }
        }
        #[inline]
        fn read_packed_validated<__E: my_zarrdt::__private::StaticEndian>(
            __bytes: &[my_zarrdt::__private::u8],
            __valid: &mut my_zarrdt::__private::bool,
        ) -> Self {
            let __bytes = &__bytes[..<Self as my_zarrdt::__private::ZarrType>::SIZE];
            Self {
                x: <f64 as my_zarrdt::__private::ZarrType>::read_packed_validated::<
                    __E,
                >(
                    &__bytes[<Self as my_zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                    __valid,
                ),
            }
        }
        #[inline]
        fn packed_is_valid<__E: my_zarrdt::__private::StaticEndian>(
            __bytes: &[my_zarrdt::__private::u8],
        ) -> my_zarrdt::__private::bool {
            let __bytes = &__bytes[..<Self as my_zarrdt::__private::ZarrType>::SIZE];
            let mut __valid = true;
            if <f64 as my_zarrdt::__private::ZarrType>::HAS_INVALID_BYTES {
                __valid
                    &= <f64 as my_zarrdt::__private::ZarrType>::packed_is_valid::<
                        __E,
                    >(
                        &__bytes[<Self as my_zarrdt::__private::ZarrStruct>::OFFSETS[0usize]..],
                    );
            }
            __valid
        }
        fn to_value(&self) -> my_zarrdt::__private::Value {
            my_zarrdt::__private::record([
                ("x", <f64 as my_zarrdt::__private::ZarrType>::to_value(&self.x)),
            ])
        }
        fn from_value(
            __value: &my_zarrdt::__private::Value,
        ) -> my_zarrdt::__private::Result<Self, my_zarrdt::__private::Error> {
            let [__field0] = my_zarrdt::__private::record_fields(
                __value,
                ["x"],
                "Renamed",
            )?;
            my_zarrdt::__private::Ok(Self {
                x: <f64 as my_zarrdt::__private::ZarrType>::from_value(__field0)
                    .map_err(|__error| my_zarrdt::__private::within_field(__error, "x"))?,
            })
        }
        #[inline]
        fn write_packed_slice<__E: my_zarrdt::__private::StaticEndian>(
            __values: &[Self],
            __out: &mut [my_zarrdt::__private::u8],
        ) {
            #[allow(unused_imports)]
            use my_zarrdt::__private::{EncodeBytes as _, EncodeFallback as _};
            let __copied = <Self as my_zarrdt::__private::ZarrType>::NATIVE_LAYOUT
                && <__E as my_zarrdt::__private::StaticEndian>::IS_NATIVE
                && (&my_zarrdt::__private::Probe::<Self>::NEW)
                    .write_native(__values, __out);
            if !__copied {
                my_zarrdt::__private::write_each::<Self, __E>(__values, __out);
            }
        }
        #[inline]
        fn read_packed_slice<__E: my_zarrdt::__private::StaticEndian>(
            __bytes: &[my_zarrdt::__private::u8],
            __out: &mut my_zarrdt::__private::Vec<Self>,
        ) -> my_zarrdt::__private::Result<(), my_zarrdt::__private::Error> {
            #[allow(unused_imports)]
            use my_zarrdt::__private::{
                DecodeBytes as _, DecodeCopy as _, DecodeFallback as _,
                DecodeValidated as _,
            };
            if <Self as my_zarrdt::__private::ZarrType>::NATIVE_LAYOUT
                && <__E as my_zarrdt::__private::StaticEndian>::IS_NATIVE
                && (&&&my_zarrdt::__private::Probe::<Self>::NEW)
                    .read_native(__bytes, __out)
            {
                return my_zarrdt::__private::Ok(());
            }
            my_zarrdt::__private::read_each::<Self, __E>(__bytes, __out)
        }
    }
    #[automatically_derived]
    impl my_zarrdt::__private::ZarrStruct for Renamed {
        const OFFSETS: &'static [my_zarrdt::__private::usize] = &<Self as my_zarrdt::__private::ZarrType>::TYPE
            .offsets::<1usize>();
    }
    my_zarrdt::__private::zarrs_element! {
        impl [] Renamed where [] lifetimes['__a, '__zarrdt]
    }
};
