//! placeholder
pub use zarrdt_core::*;
