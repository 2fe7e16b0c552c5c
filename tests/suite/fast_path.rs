//! Which copy tier the derive's zerocopy fast path picks, observed through the hidden support
//! module the generated code calls (the tiers give equal results, so only a type that one tier
//! accepts and another refuses tells them apart).

// The `&`s select the tier (autoref specialisation), as in the generated code.
#![allow(clippy::needless_borrow)]

use std::cell::UnsafeCell;

#[allow(unused_imports)]
use zarrdt::__private::{
    DecodeBytes as _, DecodeCopy as _, DecodeFallback as _, DecodeValidated as _, EncodeBytes as _,
    EncodeFallback as _, Probe,
};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, TryFromBytes};

/// Plain bytes, but not `Immutable` nor `Copy`: only the copy-per-record decode tier accepts
/// it.
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

/// Plain bytes, `Immutable` and `Copy`: the one-`memcpy` decode tier.
#[derive(FromBytes, IntoBytes, Immutable, KnownLayout, Clone, Copy, Debug, PartialEq)]
#[repr(C)]
struct Sample {
    time: f64,
    value: f32,
    channel: u32,
}

#[test]
fn decode_copies_plain_bytes_types_per_record() {
    let mut out = Vec::new();
    assert!((&&&Probe::<Interior>::NEW).read_native(&[1, 0, 0, 0, 2, 0, 0, 0], &mut out));
    assert_eq!(out.len(), 2);
}

#[test]
fn decode_copies_copy_types_at_once_aligned_or_not() {
    let records = [
        Sample {
            time: 1.5,
            value: -2.0,
            channel: 7,
        },
        Sample {
            time: f64::MAX,
            value: f32::MIN_POSITIVE,
            channel: u32::MAX,
        },
    ];
    let bytes = records.as_bytes();
    // Aligned: the records' own memory.
    let mut out = vec![records[1]];
    assert!((&&&Probe::<Sample>::NEW).read_native(bytes, &mut out));
    assert_eq!(out, [records[1], records[0], records[1]]);
    // One byte off the alignment: the same records, copied one by one.
    let mut shifted = vec![0u8; bytes.len() + 1];
    shifted[1..].copy_from_slice(bytes);
    let mut out = Vec::new();
    assert!((&&&Probe::<Sample>::NEW).read_native(&shifted[1..], &mut out));
    assert_eq!(out, records);
}

#[test]
fn decode_picks_the_validated_copy_for_try_from_bytes_types() {
    let mut out = Vec::new();
    assert!((&&&Probe::<Flag>::NEW).read_native(&[1, 0, 1], &mut out));
    assert_eq!(
        out,
        [Flag { on: true }, Flag { on: false }, Flag { on: true }]
    );
    // An invalid byte: nothing is kept, and the caller's exact decoder reports it.
    assert!(!(&&&Probe::<Flag>::NEW).read_native(&[1, 2], &mut out));
    assert_eq!(out.len(), 3);
}

#[test]
fn decode_and_encode_fall_back_for_other_types() {
    let mut out = Vec::new();
    assert!(!(&&&Probe::<Opaque>::NEW).read_native(&[0; 4], &mut out));
    assert!(!(&Probe::<Opaque>::NEW).write_native(&[Opaque(1)], &mut [0; 4]));
    let mut bytes = [0; 2];
    assert!(
        (&Probe::<Flag>::NEW).write_native(&[Flag { on: true }, Flag { on: false }], &mut bytes)
    );
    assert_eq!(bytes, [1, 0]);
}
