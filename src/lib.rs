//! Make a plain Rust struct a Zarr struct (record) data type with one line, and store and read
//! arrays of such records that zarr-python, tensorstore and other Zarr implementations read.
//!
//! ```
//! use zarrdt::{Endian, ZarrStruct, ZarrType};
//!
//! #[derive(ZarrStruct, Debug, Clone, PartialEq)]
//! struct Particle {
//!     id: u64,
//!     pos: [f32; 3],
//!     mass: f64,
//!     alive: bool,
//! }
//!
//! // The packed record, at compile time.
//! assert_eq!(Particle::SIZE, 29);
//! assert_eq!(Particle::FIELDS[2].name(), "mass");
//! assert_eq!(Particle::OFFSETS[2], 20);
//!
//! // Zarr v3 and v2 metadata.
//! let data_type = Particle::data_type();
//! assert_eq!(data_type.to_v3_json()["name"], "struct");
//! assert_eq!(
//!     Particle::layout(Endian::Little).to_v2_json()?.to_string(),
//!     r#"[["id","<u8"],["pos","<f4",[3]],["mass","<f8"],["alive","|b1"]]"#
//! );
//!
//! // Chunks, in either byte order.
//! let particles = vec![Particle { id: 1, pos: [0.5, 1.5, 2.5], mass: 1e3, alive: true }];
//! let bytes = Particle::encode_slice(&particles, Endian::Big);
//! assert_eq!(Particle::decode_slice(&bytes, Endian::Big)?, particles);
//! # Ok::<(), zarrdt::Error>(())
//! ```
//!
//! This crate re-exports [`zarrdt_core`] (the runtime model: every Zarr core data type, fill
//! values, the `bytes` codec, struct types in v3 `struct`, legacy `structured` and v2 NumPy
//! `descr` form) and the derive.
//!
//! # `#[derive(ZarrStruct)]`
//!
//! Implements [`ZarrType`] and [`ZarrStruct`] for a struct with named fields or a tuple struct
//! (fields named `"0"`, `"1"`, …).
//!
//! **Field types**: `bool`, `i8`…`i64`, `u8`…`u64`, [`half::f16`], `f32`, `f64`,
//! [`num_complex::Complex<f32>`] (`complex64`), [`num_complex::Complex<f64>`] (`complex128`),
//! the text, bytes and time types of NumPy records ([`FixedString<N>`](FixedString) `U<N>`,
//! [`ByteString<N>`](ByteString) `S<N>`, [`RawBytes<N>`](RawBytes) `V<N>`,
//! [`DateTime64<Unit, SCALE>`](DateTime64) and [`TimeDelta64<Unit, SCALE>`](TimeDelta64)),
//! `char` (NumPy `U1`), fieldless enums with [`#[derive(ZarrEnum)]`](#derivezarrenum), other
//! `#[derive(ZarrStruct)]` structs (nested to any depth) and arrays `[T; N]` of any of these,
//! nested arrays included. `PhantomData` fields are not part of the record (a type of your own
//! named `PhantomData` is stored when written with its module path, `units::PhantomData<T>`;
//! written bare, it is a compile error on the field, since the derive sees only the name).
//! Types that can never be elements (references, `usize`, tuples, `std::string::String`,
//! `[T; 0]`, …) are compile errors on the field, each saying what to use instead; any other
//! type is left to the trait bound, whose error names `zarrdt::ZarrType` and lists the field
//! types. A zero-length array made by a const parameter (`[f32; N]` with `N = 0`) is an error
//! where the program uses that instantiation.
//!
//! **The record is packed**: each field's offset is the sum of the packed sizes before it, in
//! declaration order, and the record's size is their sum, as the Zarr struct specs require.
//! No `#[repr(C)]` is needed, and Rust's own field order and padding never leak into the
//! record.
//!
//! **Attributes**:
//! * `#[zarr(rename = "name")]` on a field: the field's name in the record (any non-empty
//!   string, such as `"foo.mask"` or `"température"`).
//! * `#[zarr(skip)]` on a field: not part of the record; decoding fills it with its
//!   `Default`.
//! * `#[zarr(rename_all = "camelCase")]` on the struct: the record names of the fields not
//!   renamed one by one, in serde's case conventions (`lowercase`, `UPPERCASE`, `PascalCase`,
//!   `camelCase`, `snake_case`, `SCREAMING_SNAKE_CASE`, `kebab-case`,
//!   `SCREAMING-KEBAB-CASE`).
//! * `#[zarr(single_copy)]` on the struct: a compile error, naming the reason, unless slices
//!   of it are encoded and decoded in one copy (see "Speed" below).
//! * `#[zarr(crate = "path")]` on the struct: where to find this crate if it is renamed or
//!   re-exported (`#[zarr(crate = "my_zarr")]`).
//! * `#[zarr(bound = "T: ZarrType")]` on the struct: the where-clause predicates of the
//!   generated impls, replacing the inferred ones. By default every field type that mentions a
//!   type parameter gets a `FieldType: ZarrType` bound.
//!
//! Unknown or duplicate keys, empty names (given, or made by `rename_all`) and duplicate
//! record names are compile errors pointing at the offending token; all such mistakes in a
//! struct are reported at once. A field type only the trait bound can refuse (a plain
//! `String`, `Vec` or `Box`, which may be the user's own types) is reported once the struct
//! has no other mistake.
//!
//! **Generated**: the field list ([`ZarrStruct::FIELDS`]: names, packed offsets, types) and
//! [`ZarrType::SIZE`] as constants; the v3 data type ([`ZarrType::data_type`]) and v2 layout
//! ([`ZarrType::layout`]); encoding and decoding of one record or a slice of records in a runtime
//! [`Endian`], into a caller's buffer without per-record allocation; conversion to and from
//! the dynamic [`Value`](value::Value) tree ([`ZarrType::to_value`], [`ZarrType::from_value`]), so any instance
//! serves as a fill value; and checks that a data type read from metadata is this struct
//! ([`ZarrStruct::check_data_type`], [`ZarrStruct::check_layout`]), naming the first field
//! that differs.
//!
//! Decoding validates: a `bool` byte other than 0 or 1, a UTF-32 code unit that is no `char`
//! and an integer that is no variant of its enum are an [`Error::InvalidElement`] naming the
//! record index, the field path and the byte offset (and the value and the enum); read from an
//! array, [`array::Error::InvalidElement`] adds the chunk's key and the element's indices in
//! the array.
//!
//! # `#[derive(ZarrEnum)]`
//!
//! Implements [`ZarrType`] for a fieldless enum with an integer `#[repr(u8)]` (or `i8`, `u16`,
//! `i16`, `u32`, `i32`, `u64`, `i64`), with explicit or implicit discriminants: it is stored as
//! that integer type, in Zarr v3 and v2 alike, and is a field type like any other (in nested
//! structs, in arrays `[E; N]`, or the element of an array itself).
//!
//! ```
//! use zarrdt::{Endian, ZarrEnum, ZarrStruct, ZarrType};
//! use zarrdt::value::Value;
//!
//! #[derive(ZarrEnum, Clone, Copy, Debug, PartialEq)]
//! #[repr(i16)]
//! enum Channel {
//!     Left = -1,
//!     Right = 1,
//!     Both, // 2
//! }
//!
//! #[derive(ZarrStruct, Clone, Debug, PartialEq)]
//! struct Sample {
//!     channel: Channel,
//!     value: f32,
//! }
//!
//! assert_eq!(Channel::data_type(), i16::data_type());
//! assert_eq!(Channel::Both.encode(Endian::Big), [0, 2]);
//! assert_eq!(Channel::Left.to_value(), Value::Int16(-1)); // the fill value of a variant
//! assert!(Channel::from_value(&Value::Int16(0)).is_err()); // 0 is no variant
//!
//! let bytes = [0u8, 7, 0, 0, 0, 0];
//! let error = Sample::decode(&bytes, Endian::Big).unwrap_err();
//! assert_eq!(
//!     error.to_string(),
//!     "element 0 at field `channel`, byte offset 0: 7 is no variant of enum `Channel` \
//!      (int16: Left = -1, Right = 1, Both = 2)"
//! );
//! ```
//!
//! Encoding writes the discriminant; decoding refuses an integer that is no variant. Arrays
//! created for a type with enum fields name the variants in their attributes under
//! [`advanced::ENUMS_ATTRIBUTE`] (`"zarrdt:enums"`), which `zarrdt inspect` and
//! `zarrdt dump --format table` show; readers that do not know it see integers. An enum with
//! data, without an integer `repr`, or generic is a compile error that says why;
//! `#[zarr(crate = "path")]` is its one attribute. Enums can be single-copy fields: derive
//! zerocopy's `IntoBytes`, `TryFromBytes` and `Immutable` on the enum too.
//!
//! # Rust arrays in Zarr v3 and v2
//!
//! Zarr v3 struct fields have no shape, so a `[T; N]` field is stored as a **nested struct with
//! fields `"0"`, `"1"`, …, `"N-1"`** (and `[[T; N]; M]` as a struct of such structs). The bytes
//! are exactly the array's, and zarr-python 3.2+ reads it as a nested structured dtype
//! (`pos.0`, `pos.1`, …). In Zarr v2 the same field is a NumPy subarray,
//! `["pos", "<f4", [3]]`, which zarr-python 2 reads as `pos` of shape `(3,)`.
//!
//! # Speed
//!
//! The generated codecs write each field at a constant offset, with the byte order fixed per
//! chunk (monomorphised), so there is no per-field dispatch. When the struct is `#[repr(C)]`,
//! also derives zerocopy's `IntoBytes`, `TryFromBytes` (or `FromBytes`, which implies it) and
//! `Immutable`, its memory layout equals the packed record, and the byte order is the
//! machine's, a slice is encoded or decoded with one copy (validating `bool`, `char` and enum
//! fields on decode), through zerocopy and without `unsafe` in this crate. zerocopy's derives
//! find the crate by its name: depend on `zerocopy` 0.8, or use zarrdt's re-export with
//! `#[zerocopy(crate = "zarrdt::zerocopy")]` on the struct, as here:
//!
//! ```
//! use zarrdt::zerocopy::{FromBytes, Immutable, IntoBytes};
//! use zarrdt::{Endian, ZarrStruct, ZarrType};
//!
//! #[derive(ZarrStruct, IntoBytes, FromBytes, Immutable, Clone, Copy)]
//! #[zerocopy(crate = "zarrdt::zerocopy")]
//! #[repr(C)]
//! struct Sample {
//!     time: f64,
//!     value: f32,
//!     channel: u32,
//! }
//!
//! let samples = vec![Sample { time: 0.5, value: 1.0, channel: 3 }; 1000];
//! let bytes = Sample::encode_slice(&samples, Endian::NATIVE); // one memcpy
//! assert_eq!(Sample::decode_slice(&bytes, Endian::NATIVE)?.len(), 1000);
//! # Ok::<(), zarrdt::Error>(())
//! ```
//!
//! `#[zarr(single_copy)]` turns this into a guarantee: the struct does not compile unless it
//! has that layout, and the error says why not (not zerocopy plain bytes, padding or skipped
//! fields, a field off its packed offset, a field type that is not single-copy). A struct
//! generic over types or constants is checked for every instantiation the program uses: the
//! impls require zerocopy's traits of `Padded<u32>` where it is used, and its layout is
//! checked when the program is built (`cargo build`; `cargo check` does not evaluate it), the
//! error naming the instantiation. A struct with lifetime parameters only is checked where it
//! is defined.
//!
//! `cargo bench --bench codec` measures both paths against a `memcpy` of the same bytes.
//!
//! # Arrays of records
//!
//! With the `zarrs` feature, zarrdt creates, opens, reads and writes Zarr arrays of records
//! through [zarrs](https://docs.rs/zarrs) on any store it supports, compressed and sharded:
//! [`ArrayOptions`] creates one for a record type in one call, [`open_array`] opens any record
//! array (v3, or v2 with NumPy structured dtypes, its metadata checked first), and methods on
//! zarrs' `Array` move records: [`WriteRecords::store_records`],
//! [`ReadRecords::retrieve_records`], and [`ReadRecords::retrieve_field`] for one field of
//! every record (each subset and shard index checked, chunk by chunk on all threads);
//! [`open_store`] gives the store of a directory or (feature `s3`) an `s3://` URL; the rest of
//! the zarrs integration is in [`array`](mod@array). See the README's "Arrays of records" and
//! `examples/quickstart.rs`.
//!
//! A subset is one `Range<u64>` per dimension (`&[0..10]`, `&[0..10, 5..7]`, a `Vec` of them,
//! or zarrs' `ArraySubset`). Array operations return [`array::Error`] (into which this
//! crate's [`Error`] converts): a type that is not the array's names the first field that
//! differs, a damaged chunk its store key, a subset beyond the array its shape.
//!
//! ```
//! use std::sync::Arc;
//! use zarrdt::zarrs::storage::store::MemoryStore;
//! use zarrdt::{ArrayOptions, ReadRecords, WriteRecords, ZarrStruct, array};
//!
//! #[derive(ZarrStruct, Clone, Copy, Debug, PartialEq, Default)]
//! struct Reading {
//!     time: f64,
//!     kelvin: f32,
//! }
//!
//! fn main() -> Result<(), array::Error> {
//!     let store = Arc::new(MemoryStore::new()); // or open_store("readings.zarr")?
//!     let array = ArrayOptions::new(vec![100, 4], vec![10, 4])
//!         .create(store.clone(), "/", &Reading::default())?;
//!     let readings = vec![Reading { time: 1.0, kelvin: 300.0 }; 20];
//!     array.store_records(&[10..15, 0..4], &readings)?;
//!
//!     let back: Vec<Reading> = array.retrieve_records(&[10..15, 0..4])?;
//!     assert_eq!(back, readings);
//!     let kelvin: Vec<f32> = array.retrieve_field(&[0..100, 0..1], &["kelvin"])?;
//!     assert_eq!((kelvin[10], kelvin[0]), (300.0, 0.0)); // the fill value where nothing is
//!
//!     // Mistakes are errors that say what: here, an array is at "/" already.
//!     let again = ArrayOptions::new(vec![5], vec![5]).create(store, "/", &0u8);
//!     assert!(matches!(again, Err(array::Error::NodeExists { .. })));
//!     Ok(())
//! }
//! ```
//!
//! # Cargo features
//!
//! * `derive` (default): `#[derive(ZarrStruct)]`.
//! * `chrono`: conversions of [`DateTime64`] and [`TimeDelta64`] to and from `chrono` times.
//! * `zarrs` (default): arrays of records through zarrs 0.23 ([`array`](mod@array), [`zarrs`](mod@zarrs)); needs
//!   Rust 1.91 and a C compiler (zstd, Blosc). Without it, the pure type crates.
//! * `arrow`: record arrays as Apache Arrow tables ([`arrow`](mod@arrow)): the Arrow schema of
//!   any record type (`T::arrow_schema()` through [`arrow::ArrowRecords`]), records to
//!   `RecordBatch` columns and back at memory speed, any selection of an array streamed as
//!   batches ([`arrow::BatchReader`]) and batches written into arrays
//!   ([`arrow::TableWriter`]). arrow-rs 60 or 59 (DataFusion 55's).
//! * `s3`: record arrays on S3 and S3-compatible servers: [`array::open_store`] takes
//!   `s3://bucket/prefix` (credentials and endpoint from the `AWS_*` environment) as well as a
//!   directory; `examples/s3.rs` writes a million records that way.

#![forbid(unsafe_code)]

// ---- The root: what a user of the derive and of record arrays writes. No name here is also a
// name in `zarrs::array`, so `use zarrdt::*;` beside `use zarrdt::zarrs::array::*;` compiles and
// every name means one thing.

pub use zarrdt_core::{
    ByteString, DateTime64, Endian, Error, FixedString, RawBytes, TextError, TimeDelta64,
    ZarrStruct, ZarrType,
};

/// Re-exported so that users (and generated code) name the same versions zarrdt uses.
pub use zarrdt_core::{half, num_complex, serde_json, zerocopy};

#[cfg(feature = "zarrs")]
pub use zarrdt_zarrs::{
    ArrayOptions, Compression, OpenOptions, ReadRecords, WriteRecords, open_array, open_store,
};

/// Derives [`ZarrType`] and [`ZarrStruct`] for a struct; see the [crate documentation](crate).
#[cfg(feature = "derive")]
pub use zarrdt_derive::ZarrStruct;

/// Derives [`ZarrType`] for a fieldless enum with an integer `#[repr]`, stored as that
/// integer; see [the crate documentation](crate#derivezarrenum).
#[cfg(feature = "derive")]
pub use zarrdt_derive::ZarrEnum;

// ---- Named modules: the models and the support for implementing the traits by hand.

/// The time units of [`DateTime64`] and [`TimeDelta64`] (`DateTime64<time::Milliseconds>`),
/// and the traits they implement.
pub mod time {
    pub use zarrdt_core::{
        Attoseconds, Days, Femtoseconds, FixedDuration, Generic, Hours, Microseconds, Milliseconds,
        Minutes, Months, Nanoseconds, Picoseconds, Seconds, Unit, Weeks, Years,
    };
}

/// Zarr data types at run time: the v3 [`DataType`](types::DataType) (scalars, structs, Rust
/// arrays as subarrays), the scalar types and their parameters.
pub mod types {
    pub use zarrdt_core::{
        ByteSize, CharCount, DataType, Field, Fields, MAX_ELEMENT_SIZE, MAX_NESTING_DEPTH,
        ScalarType, StructType, SubarrayType, TimeConfig, TimeUnit, UnknownTimeUnit,
    };
}

/// How one element lies in bytes: [`Layout`](layout::Layout) (the one model, of which data
/// types are views), its fields, leaves and paths, and byte-order conversion.
pub mod layout {
    pub use zarrdt_core::{
        ByteOrderConversion, FieldPath, Layout, LayoutField, Leaf, PathSegment, Repeat,
        ScalarLayout, StructLayout, SubarrayLayout,
    };
}

/// Elements of types known only at run time: [`Value`](value::Value), records and subarrays;
/// and [`JsonWriter`](value::JsonWriter), which writes elements as JSON straight from their
/// bytes (the form of `Layout::value_to_json`, streamed).
pub mod value {
    pub use zarrdt_core::{JsonWriteError, JsonWriter, Record, SubarrayItem, SubarrayValue, Value};
}

/// Array metadata documents (`zarr.json`, `.zarray`) and the `bytes` codec, as zarrdt reads
/// and writes them without zarrs.
pub mod metadata {
    pub use zarrdt_core::{
        ArrayMetadataV2, ArrayMetadataV3, BytesCodec, MAX_METADATA_DEPTH, parse_metadata_json,
    };
}

/// For implementing [`ZarrType`] by hand and for what `#[derive(ZarrStruct)]` generates: the
/// compile-time type descriptions, the static byte orders the codecs are monomorphised on, and
/// the parts of [`Error`] that say what was wrong with an element.
pub mod advanced {
    pub use zarrdt_core::{
        BigEndian, DecodeError, DescriptorKind, ENUMS_ATTRIBUTE, ElementFault, EnumDescriptor,
        EnumVariant, FieldDescriptor, LittleEndian, StaticEndian, TypeDescriptor,
        enum_attribute_key,
    };
}

/// Arrays of records through zarrs: creating ([`array::ArrayOptions`]), opening
/// ([`array::open_array`]), reading records, dynamic values and single fields, stores.
#[cfg(feature = "zarrs")]
pub use zarrdt_zarrs as array;

/// Record arrays as Apache Arrow tables (feature `arrow`): the Arrow schema of any record
/// type, records to `RecordBatch` columns and back, batches streamed from and into arrays.
#[cfg(feature = "arrow")]
pub use zarrdt_arrow as arrow;

/// The zarrs crate zarrdt is built with (stores, codecs, `Array`): name it through here, so
/// that the versions agree.
#[cfg(feature = "zarrs")]
pub use zarrdt_zarrs::zarrs;

/// Support for generated code; not public API.
#[doc(hidden)]
pub mod __private {
    pub use zarrdt_core::__private::*;

    #[cfg(feature = "zarrs")]
    pub use zarrdt_zarrs::__impl_zarrs_element as zarrs_element;
}

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
