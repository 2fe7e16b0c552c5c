//! Which copy tier the derive's zerocopy fast path picks, observed through the hidden support
//! module the generated code calls (the tiers give equal results, so only a type that one tier
//! accepts and another refuses tells them apart).

// The `&`s select the tier (autoref specialisation), as in the generated code.
#![allow(clippy::needless_borrow)]

use std::cell::UnsafeCell;

#[allow(unused_imports)]
use zarrdt::__private::{
    DecodeBytes as _, DecodeFallback as _, DecodeValidated as _, EncodeBytes as _,
    EncodeFallback as _, Probe,
};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, TryFromBytes};

/// Plain bytes, but not `Immutable`: only the bulk-copy decode tier accepts it.
#[derive(FromBytes, IntoBytes, KnownLayout)]
#[repr(transparent)]
struct Interior(UnsafeCell<u32>);

/// Has invalid bit patterns: only the validated tier accepts it.
#[derive(TryFromBytes, IntoBytes, Immutable, KnownLayout, Debug, PartialEq)]
#[repr(C)]
struct Flag {
    on: bool,
}

/// Not zerocopy at all: only the fallback.
struct Opaque(#[allow(dead_code)] u32);

#[test]
fn decode_picks_the_bulk_copy_for_from_bytes_types() {
    let mut out = Vec::new();
    assert!((&&Probe::<Interior>::NEW).read_native(&[1, 0, 0, 0, 2, 0, 0, 0], &mut out));
    assert_eq!(out.len(), 2);
}

#[test]
fn decode_picks_the_validated_copy_for_try_from_bytes_types() {
    let mut out = Vec::new();
    assert!((&&Probe::<Flag>::NEW).read_native(&[1, 0, 1], &mut out));
    assert_eq!(
        out,
        [Flag { on: true }, Flag { on: false }, Flag { on: true }]
    );
    // An invalid byte: nothing is kept, and the caller's exact decoder reports it.
    assert!(!(&&Probe::<Flag>::NEW).read_native(&[1, 2], &mut out));
    assert_eq!(out.len(), 3);
}

#[test]
fn decode_and_encode_fall_back_for_other_types() {
    let mut out = Vec::new();
    assert!(!(&&Probe::<Opaque>::NEW).read_native(&[0; 4], &mut out));
    assert!(!(&Probe::<Opaque>::NEW).write_native(&[Opaque(1)], &mut [0; 4]));
    let mut bytes = [0; 2];
    assert!(
        (&Probe::<Flag>::NEW).write_native(&[Flag { on: true }, Flag { on: false }], &mut bytes)
    );
    assert_eq!(bytes, [1, 0]);
}
