//! Make a plain Rust struct a Zarr struct (record) data type with one line.
//!
//! (Crate documentation is completed together with the derive.)

#![forbid(unsafe_code)]

#[doc(inline)]
pub use zarrdt_core::*;

#[cfg(feature = "derive")]
#[doc(inline)]
pub use zarrdt_derive::ZarrStruct;
