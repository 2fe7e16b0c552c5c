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
}
