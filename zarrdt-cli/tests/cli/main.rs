//! The integration tests of the `zarrdt` command, one test binary: it runs the built binary on
//! committed fixtures and on arrays written here.

#![allow(clippy::unwrap_used)]

mod common;

mod arrays;
mod enums;
mod errors;
mod fixtures;
mod rust_codegen;
mod tables;
