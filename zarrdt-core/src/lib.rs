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
//! * [`ScalarType`]: every Zarr core type, `r<N>` and the fixed-size extension types.
//! * [`Layout`]: **the** model of how one element lies in stored bytes: scalars with their
//!   byte order, structs with field offsets (padding allowed), subarrays. A Zarr v2 `dtype` is
//!   exactly a layout ([`Layout::from_v2_json`]). Layouts are built only through checking
//!   constructors, share their nodes, and no walk over one expands a subarray into its items
//!   (a subarray's [`Leaf`]s carry [`Repeat`]s).
//! * [`DataType`]: a Zarr v3 data type, a checked view of a layout that is packed and leaves
//!   its byte order to the `bytes` codec ([`Layout::from_data_type`] fixes it,
//!   [`Layout::to_v3`] finds the view of a stored layout). [`StructType`] and [`SubarrayType`]
//!   (a Rust array, written in v3 as a struct of fields `"0"`, `"1"`, …) are views too.
//! * [`TypeDescriptor`]: the same, as constants a derive generates, checked at compile time;
//!   it holds no offsets, which are the prefix sums of the field sizes.
//! * [`Value`]: one element of any type, floats bit-exact; records keep field order; arrays
//!   are [`SubarrayValue`]s that hold numbers compactly. Fill values are values
//!   ([`DataType::fill_value_from_v3_json`], [`Layout::fill_value_from_v2_json`]), and
//!   [`Layout::value_to_json`] writes any value of any layout; [`JsonWriter`] writes the same
//!   JSON straight from an element's bytes, streamed, without building a value.
//! * [`BytesCodec`]: chunks of Rust [`ZarrType`]s or dynamic [`Value`]s to bytes and back.
//! * [`ZarrType`]: Rust types that are Zarr types (primitives, `half::f16`,
//!   `num_complex::Complex`, arrays, and derived structs).
//!
//! Modules depend on each other one way: scalar types and layouts, then data types and
//! descriptors, values, codecs, fill values, and last the [`ZarrType`] trait.
//!
//! # Bounded by the input
//!
//! Parsing a data type, a fill value or a chunk takes memory and time in proportion to the
//! input: nothing is allocated from a size read from the input before it is checked against
//! the bytes that exist, nesting is limited to [`MAX_NESTING_DEPTH`] levels and elements to
//! [`MAX_ELEMENT_SIZE`] bytes, and the work is linear in the number of fields.
//!
//! # Example
//!
//! ```
//! use zarrdt::metadata::{ArrayMetadataV3, BytesCodec};
//! use zarrdt::value::Value;
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
//! # Ok::<(), zarrdt::Error>(())
//! ```
//!
//! # Rust arrays in Zarr v3
//!
//! Zarr v3 struct fields have no shape. A Rust array `[T; N]` ([`SubarrayType`]) is therefore
//! written in v3 as a **struct with fields `"0"`, `"1"`, …, `"N-1"`** of type `T` (nested
//! arrays nest), which has exactly the bytes of the array and which zarr-python 3.2+ reads as a
//! nested structured dtype. In Zarr v2 it is a NumPy subarray field, `["pos", "<f4", [3]]`.
//!
//! Its value is one [`Value::Subarray`] in every format. A v3 array read without its Rust type
//! has the struct form, a record of fields `"0"`, `"1"`, …; the two compare equal, and
//! [`ZarrType::from_value`] takes either.
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
mod enumeration;
mod error;
mod fill_value;
mod layout;
mod metadata;
mod numeric;
mod path;
mod scalar;
mod unique;
mod value;
mod zarr_struct;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use codec::{ByteOrderConversion, BytesCodec};
pub use data_type::{DataType, Field, Fields, StructType, SubarrayType};
pub use descriptor::{DescriptorKind, FieldDescriptor, TypeDescriptor};
pub use element::{
    Attoseconds, ByteString, DateTime64, Days, Femtoseconds, FixedDuration, FixedString, Generic,
    Hours, Microseconds, Milliseconds, Minutes, Months, Nanoseconds, Picoseconds, RawBytes,
    Seconds, TextError, TimeDelta64, Unit, Weeks, Years, ZarrType,
};
pub use endian::{BigEndian, Endian, LittleEndian, StaticEndian};
pub use enumeration::{ENUMS_ATTRIBUTE, EnumDescriptor, EnumVariant, enum_attribute_key};
pub use error::{DecodeError, ElementFault, Error};
pub use fill_value::{JsonWriteError, JsonWriter};
pub use layout::{Layout, LayoutField, Leaf, Repeat, ScalarLayout, StructLayout, SubarrayLayout};
pub use metadata::{ArrayMetadataV2, ArrayMetadataV3, MAX_METADATA_DEPTH, parse_metadata_json};
pub use path::{FieldPath, PathSegment};
pub use scalar::{
    ByteSize, CharCount, MAX_ELEMENT_SIZE, MAX_NESTING_DEPTH, ScalarType, TimeConfig, TimeUnit,
    UnknownTimeUnit,
};
pub use value::{Record, SubarrayItem, SubarrayValue, Value};
pub use zarr_struct::ZarrStruct;

/// Re-exported so that users (and generated code) name the same versions this crate uses.
pub use half;
/// Re-exported so that users (and generated code) name the same versions this crate uses.
pub use num_complex;
/// Re-exported so that users (and generated code) name the same versions this crate uses.
pub use serde_json;
/// Re-exported so that users (and generated code) name the same versions this crate uses.
pub use zerocopy;
