//! Zarr data types at run time: every core scalar type, fill values exactly as the specs
//! say, the `bytes` codec, and struct (record) types in the v3 `struct`, legacy `structured`
//! and v2 NumPy `descr` forms.
//!
//! This is the runtime half of [`zarrdt`](https://docs.rs/zarrdt); most users depend on that
//! crate and `#[derive(ZarrStruct)]`. Use this one directly to work with arrays whose types are
//! only known when they are opened.
//!
//! # The model
//!
//! * [`ScalarType`] and [`DataType`]: what an element is. Zarr v3 JSON via
//!   [`DataType::from_v3_json`] / [`DataType::to_v3_json`].
//! * [`StructType`]: ordered, uniquely named fields with a **packed** layout (offsets are
//!   prefix sums of the field sizes; no padding), nested to any depth.
//! * [`Layout`]: how one element lies in stored bytes, byte order per leaf, padding and
//!   subarrays included. A Zarr v2 `dtype` is exactly a layout
//!   ([`Layout::from_v2_json`]); a v3 type plus the `bytes` codec's endian lowers to one
//!   ([`Layout::from_data_type`]).
//! * [`Value`]: one element of any type, floats bit-exact; fill values are values
//!   ([`DataType::fill_value_from_json`], [`Layout::fill_value_from_json`]).
//! * [`BytesCodec`]: chunks of Rust [`Element`]s or dynamic [`Value`]s to bytes and back.
//! * [`Element`]: Rust types that are Zarr types (primitives, `half::f16`,
//!   `num_complex::Complex`, arrays, and derived structs).
//!
//! # Example
//!
//! ```
//! use zarrdt_core::{ArrayMetadataV3, BytesCodec, Value};
//!
//! // A struct array written by zarr-python 3.4.
//! let meta = ArrayMetadataV3::from_json_str(r#"{
//!     "zarr_format": 3, "node_type": "array", "shape": [2],
//!     "data_type": {"name": "struct", "configuration": {"fields": [
//!         {"name": "a", "data_type": "int32"}, {"name": "b", "data_type": "float64"}]}},
//!     "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
//!     "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
//!     "fill_value": {"a": 1, "b": 2.0},
//!     "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]
//! }"#)?;
//! let chunk = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f];
//! let records = meta.bytes_codec.unwrap().decode_values(&meta.data_type, &chunk)?;
//! assert_eq!(records[0], meta.fill_value);
//! assert_eq!(records[1].as_record().unwrap().get("b"), Some(&Value::Float64(1.0)));
//! # Ok::<(), zarrdt_core::Error>(())
//! ```
//!
//! # Rust arrays in Zarr v3
//!
//! Zarr v3 struct fields have no shape. A Rust array `[T; N]` is therefore a **struct with
//! fields `"0"`, `"1"`, …, `"N-1"`** of type `T` in v3 (nested arrays nest), which has exactly
//! the bytes of the array and which zarr-python 3.2+ reads as a nested structured dtype. In
//! Zarr v2 it is a NumPy subarray field, `["pos", "<f4", [3]]`.
//!
//! # Errors and panics
//!
//! Every fallible function returns [`Error`], whose variants name the offending JSON or bytes
//! and where they are (field path, element index, byte offset). No input makes this crate
//! panic.

#![forbid(unsafe_code)]

mod codec;
mod data_type;
mod descriptor;
mod element;
mod endian;
mod error;
mod fill_value;
mod layout;
mod metadata;
mod path;
mod scalar;
mod value;
mod zarr_struct;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use codec::BytesCodec;
pub use data_type::{ArrayType, DataType, Field, Fields, StructType};
pub use descriptor::{DescriptorKind, FieldDescriptor, TypeDescriptor};
pub use element::Element;
pub use endian::{BigEndian, Endian, LittleEndian, StaticEndian};
pub use error::{DecodeError, ElementFault, Error};
pub use layout::{ArrayLayout, Layout, LayoutField, Leaf, Repeat, ScalarLayout, StructLayout};
pub use metadata::{ArrayMetadataV2, ArrayMetadataV3};
pub use path::{FieldPath, PathSegment};
pub use scalar::{
    ByteSize, CharCount, MAX_ELEMENT_SIZE, MAX_NESTING_DEPTH, ScalarType, TimeConfig, TimeUnit,
    UnknownTimeUnit,
};
pub use value::{ArrayItem, ArrayValue, Record, Value};
pub use zarr_struct::ZarrStruct;

/// Re-exported so that users (and generated code) name the same versions this crate uses.
pub use half;
/// Re-exported so that users (and generated code) name the same versions this crate uses.
pub use num_complex;
/// Re-exported so that users (and generated code) name the same versions this crate uses.
pub use serde_json;
/// Re-exported so that users (and generated code) name the same versions this crate uses.
pub use zerocopy;
