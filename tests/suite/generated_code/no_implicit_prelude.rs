//! Generated code in a module without the implicit prelude: every path it names is absolute.

#![no_implicit_prelude]

mod records {
    #[derive(::zarrdt::ZarrStruct)]
    pub(super) struct Point {
        pub x: f32,
        pub y: f32,
        pub tag: [u8; 4],
    }

    #[derive(::zarrdt::ZarrStruct)]
    pub(super) struct Tagged<T>(pub T, pub Point, pub ::core::marker::PhantomData<T>);

    #[derive(::zarrdt::ZarrEnum, ::core::clone::Clone, ::core::marker::Copy)]
    #[repr(i16)]
    pub(super) enum Level {
        Low = -1,
        High = 1,
    }

    #[derive(::zarrdt::ZarrStruct)]
    pub(super) struct Reading {
        pub level: Level,
        pub levels: [Level; 2],
        pub grade: char,
    }
}

#[test]
fn compiles_and_runs() {
    use ::zarrdt::ZarrType;
    let point = records::Point {
        x: 1.0,
        y: 2.0,
        tag: [1, 2, 3, 4],
    };
    let bytes = point.encode(::zarrdt::Endian::Little);
    ::std::assert_eq!(bytes.len(), 12);
    let tagged = records::Tagged(7u16, point, ::core::marker::PhantomData);
    ::std::assert_eq!(tagged.encode(::zarrdt::Endian::Big).len(), 14);
    let reading = records::Reading {
        level: records::Level::Low,
        levels: [records::Level::High, records::Level::Low],
        grade: 'x',
    };
    let bytes = reading.encode(::zarrdt::Endian::Big);
    ::std::assert_eq!(bytes, [0xff, 0xff, 0, 1, 0xff, 0xff, 0, 0, 0, 0x78]);
    ::std::assert!(records::Reading::decode(&bytes, ::zarrdt::Endian::Big).is_ok());
}
