#[doc(hidden)]
#[allow(
    non_upper_case_globals,
    unused_attributes,
    unused_qualifications,
    clippy::all,
    clippy::pedantic
)]
const _: () = {
    /// The enum's variants and integer type, checked when it is built.
    const __ZARRDT_ENUM: ::zarrdt::__private::EnumDescriptor = ::zarrdt::__private::rust_enum(
        "Status",
        ::zarrdt::__private::ScalarType::UInt8,
        &[
            ::zarrdt::__private::EnumVariant::new(
                "Ok",
                Status::Ok as ::zarrdt::__private::i128,
            ),
            ::zarrdt::__private::EnumVariant::new(
                "Warn",
                Status::Warn as ::zarrdt::__private::i128,
            ),
            ::zarrdt::__private::EnumVariant::new(
                "Fail",
                Status::Fail as ::zarrdt::__private::i128,
            ),
        ],
    );
    /// The variant whose value is `raw`, if any.
    #[inline]
    fn __zarrdt_variant(
        __raw: ::zarrdt::__private::u8,
    ) -> ::zarrdt::__private::Option<Status> {
        const __ZARRDT_VARIANT_0: ::zarrdt::__private::u8 = Status::Ok
            as ::zarrdt::__private::u8;
        const __ZARRDT_VARIANT_1: ::zarrdt::__private::u8 = Status::Warn
            as ::zarrdt::__private::u8;
        const __ZARRDT_VARIANT_2: ::zarrdt::__private::u8 = Status::Fail
            as ::zarrdt::__private::u8;
        match __raw {
            __ZARRDT_VARIANT_0 => ::zarrdt::__private::Some(Status::Ok),
            __ZARRDT_VARIANT_1 => ::zarrdt::__private::Some(Status::Warn),
            __ZARRDT_VARIANT_2 => ::zarrdt::__private::Some(Status::Fail),
            _ => ::zarrdt::__private::None,
        }
    }
    /// The value of `variant`.
    #[inline]
    fn __zarrdt_value(__variant: &Status) -> ::zarrdt::__private::u8 {
        match __variant {
            Status::Ok => Status::Ok as ::zarrdt::__private::u8,
            Status::Warn => Status::Warn as ::zarrdt::__private::u8,
            Status::Fail => Status::Fail as ::zarrdt::__private::u8,
        }
    }
    #[automatically_derived]
    impl ::zarrdt::__private::ZarrType for Status {
        const TYPE: ::zarrdt::__private::TypeDescriptor = ::zarrdt::__private::TypeDescriptor::enumeration(
            &__ZARRDT_ENUM,
        );
        const NATIVE_LAYOUT: ::zarrdt::__private::bool = true;
        const HAS_INVALID_BYTES: ::zarrdt::__private::bool = true;
        #[inline]
        fn write_packed<__E: ::zarrdt::__private::StaticEndian>(
            &self,
            __out: &mut [::zarrdt::__private::u8],
        ) {
            <::zarrdt::__private::u8 as ::zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(&__zarrdt_value(self), __out);
        }
        #[inline]
        fn check_packed<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
        ) -> ::zarrdt::__private::Result<(), ::zarrdt::__private::DecodeError> {
            let __raw = <::zarrdt::__private::u8 as ::zarrdt::__private::ZarrType>::read_packed::<
                __E,
            >(__bytes);
            match __zarrdt_variant(__raw) {
                ::zarrdt::__private::Some(_) => ::zarrdt::__private::Ok(()),
                ::zarrdt::__private::None => {
                    ::zarrdt::__private::Err(
                        ::zarrdt::__private::invalid_variant(__raw, &__ZARRDT_ENUM),
                    )
                }
            }
        }
        #[inline]
        fn read_packed<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
        ) -> Self {
            match __zarrdt_variant(
                <::zarrdt::__private::u8 as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(__bytes),
            ) {
                ::zarrdt::__private::Some(__variant) => __variant,
                ::zarrdt::__private::None => Status::Ok,
            }
        }
        #[inline]
        fn packed_is_valid<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
        ) -> ::zarrdt::__private::bool {
            __zarrdt_variant(
                    <::zarrdt::__private::u8 as ::zarrdt::__private::ZarrType>::read_packed::<
                        __E,
                    >(__bytes),
                )
                .is_some()
        }
        #[inline]
        fn read_packed_validated<__E: ::zarrdt::__private::StaticEndian>(
            __bytes: &[::zarrdt::__private::u8],
            __valid: &mut ::zarrdt::__private::bool,
        ) -> Self {
            let __variant = __zarrdt_variant(
                <::zarrdt::__private::u8 as ::zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(__bytes),
            );
            *__valid &= __variant.is_some();
            match __variant {
                ::zarrdt::__private::Some(__variant) => __variant,
                ::zarrdt::__private::None => Status::Ok,
            }
        }
        fn to_value(&self) -> ::zarrdt::__private::Value {
            <::zarrdt::__private::u8 as ::zarrdt::__private::ZarrType>::to_value(
                &__zarrdt_value(self),
            )
        }
        fn from_value(
            __value: &::zarrdt::__private::Value,
        ) -> ::zarrdt::__private::Result<Self, ::zarrdt::__private::Error> {
            let __raw = <::zarrdt::__private::u8 as ::zarrdt::__private::ZarrType>::from_value(
                __value,
            )?;
            match __zarrdt_variant(__raw) {
                ::zarrdt::__private::Some(__variant) => {
                    ::zarrdt::__private::Ok(__variant)
                }
                ::zarrdt::__private::None => {
                    ::zarrdt::__private::Err(
                        ::zarrdt::__private::variant_mismatch(__raw, &__ZARRDT_ENUM),
                    )
                }
            }
        }
    }
    ::zarrdt::__private::zarrs_element! {
        impl [] Status where [] lifetimes['__a, '__zarrdt]
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
    /// The enum's variants and integer type, checked when it is built.
    const __ZARRDT_ENUM: my_zarrdt::__private::EnumDescriptor = my_zarrdt::__private::rust_enum(
        "Level",
        my_zarrdt::__private::ScalarType::Int64,
        &[
            my_zarrdt::__private::EnumVariant::new(
                "Low",
                Level::Low as my_zarrdt::__private::i128,
            ),
            my_zarrdt::__private::EnumVariant::new(
                "High",
                Level::High as my_zarrdt::__private::i128,
            ),
        ],
    );
    /// The variant whose value is `raw`, if any.
    #[inline]
    fn __zarrdt_variant(
        __raw: my_zarrdt::__private::i64,
    ) -> my_zarrdt::__private::Option<Level> {
        const __ZARRDT_VARIANT_0: my_zarrdt::__private::i64 = Level::Low
            as my_zarrdt::__private::i64;
        const __ZARRDT_VARIANT_1: my_zarrdt::__private::i64 = Level::High
            as my_zarrdt::__private::i64;
        match __raw {
            __ZARRDT_VARIANT_0 => my_zarrdt::__private::Some(Level::Low),
            __ZARRDT_VARIANT_1 => my_zarrdt::__private::Some(Level::High),
            _ => my_zarrdt::__private::None,
        }
    }
    /// The value of `variant`.
    #[inline]
    fn __zarrdt_value(__variant: &Level) -> my_zarrdt::__private::i64 {
        match __variant {
            Level::Low => Level::Low as my_zarrdt::__private::i64,
            Level::High => Level::High as my_zarrdt::__private::i64,
        }
    }
    #[automatically_derived]
    impl my_zarrdt::__private::ZarrType for Level {
        const TYPE: my_zarrdt::__private::TypeDescriptor = my_zarrdt::__private::TypeDescriptor::enumeration(
            &__ZARRDT_ENUM,
        );
        const NATIVE_LAYOUT: my_zarrdt::__private::bool = true;
        const HAS_INVALID_BYTES: my_zarrdt::__private::bool = true;
        #[inline]
        fn write_packed<__E: my_zarrdt::__private::StaticEndian>(
            &self,
            __out: &mut [my_zarrdt::__private::u8],
        ) {
            <my_zarrdt::__private::i64 as my_zarrdt::__private::ZarrType>::write_packed::<
                __E,
            >(&__zarrdt_value(self), __out);
        }
        #[inline]
        fn check_packed<__E: my_zarrdt::__private::StaticEndian>(
            __bytes: &[my_zarrdt::__private::u8],
        ) -> my_zarrdt::__private::Result<(), my_zarrdt::__private::DecodeError> {
            let __raw = <my_zarrdt::__private::i64 as my_zarrdt::__private::ZarrType>::read_packed::<
                __E,
            >(__bytes);
            match __zarrdt_variant(__raw) {
                my_zarrdt::__private::Some(_) => my_zarrdt::__private::Ok(()),
                my_zarrdt::__private::None => {
                    my_zarrdt::__private::Err(
                        my_zarrdt::__private::invalid_variant(__raw, &__ZARRDT_ENUM),
                    )
                }
            }
        }
        #[inline]
        fn read_packed<__E: my_zarrdt::__private::StaticEndian>(
            __bytes: &[my_zarrdt::__private::u8],
        ) -> Self {
            match __zarrdt_variant(
                <my_zarrdt::__private::i64 as my_zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(__bytes),
            ) {
                my_zarrdt::__private::Some(__variant) => __variant,
                my_zarrdt::__private::None => Level::Low,
            }
        }
        #[inline]
        fn packed_is_valid<__E: my_zarrdt::__private::StaticEndian>(
            __bytes: &[my_zarrdt::__private::u8],
        ) -> my_zarrdt::__private::bool {
            __zarrdt_variant(
                    <my_zarrdt::__private::i64 as my_zarrdt::__private::ZarrType>::read_packed::<
                        __E,
                    >(__bytes),
                )
                .is_some()
        }
        #[inline]
        fn read_packed_validated<__E: my_zarrdt::__private::StaticEndian>(
            __bytes: &[my_zarrdt::__private::u8],
            __valid: &mut my_zarrdt::__private::bool,
        ) -> Self {
            let __variant = __zarrdt_variant(
                <my_zarrdt::__private::i64 as my_zarrdt::__private::ZarrType>::read_packed::<
                    __E,
                >(__bytes),
            );
            *__valid &= __variant.is_some();
            match __variant {
                my_zarrdt::__private::Some(__variant) => __variant,
                my_zarrdt::__private::None => Level::Low,
            }
        }
        fn to_value(&self) -> my_zarrdt::__private::Value {
            <my_zarrdt::__private::i64 as my_zarrdt::__private::ZarrType>::to_value(
                &__zarrdt_value(self),
            )
        }
        fn from_value(
            __value: &my_zarrdt::__private::Value,
        ) -> my_zarrdt::__private::Result<Self, my_zarrdt::__private::Error> {
            let __raw = <my_zarrdt::__private::i64 as my_zarrdt::__private::ZarrType>::from_value(
                __value,
            )?;
            match __zarrdt_variant(__raw) {
                my_zarrdt::__private::Some(__variant) => {
                    my_zarrdt::__private::Ok(__variant)
                }
                my_zarrdt::__private::None => {
                    my_zarrdt::__private::Err(
                        my_zarrdt::__private::variant_mismatch(__raw, &__ZARRDT_ENUM),
                    )
                }
            }
        }
    }
    my_zarrdt::__private::zarrs_element! {
        impl [] Level where [] lifetimes['__a, '__zarrdt]
    }
};
