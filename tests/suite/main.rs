//! The integration tests of `zarrdt`, one test binary (so that the stack links once), one
//! module per concern.
//!
//! Tests that bound memory or work by counting allocations run in a process of their own
//! (`rusty_fork_test!`, see [`common::meter`]), so that no other test allocates while they
//! count; the allocator below counts for them and costs the others two atomic additions per
//! allocation.

#![allow(clippy::unwrap_used)]

mod common;

#[cfg(feature = "arrow")]
mod arrow_tables;
mod bounded_inputs;
mod codecs;
mod concurrency;
mod conformance_bytes_codec;
mod conformance_data_types;
mod conformance_fill_values;
mod derive_enums;
mod derive_field_types;
mod derive_metadata;
mod derive_proptest;
mod derive_roundtrip;
mod error_detail;
mod fast_path;
pub mod generated_code;
mod interop_fixtures;
mod interop_write;
mod json_writer;
mod module_graph;
mod no_panics;
mod no_unsafe;
mod random_types_proptest;
mod record_paths;
#[cfg(feature = "s3")]
mod s3_interop;
mod shard_index;
mod struct_types;
mod untrusted_arrays;
mod user_mistakes;
mod zarrs_arrays;

#[global_allocator]
static ALLOCATOR: common::meter::Counting = common::meter::counting();
