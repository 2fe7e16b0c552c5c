//! Encoding elements into chunk bytes and back: the `bytes` codec for Rust [`Element`]s and
//! dynamic [`Value`](crate::Value)s, and the layout-driven record codec underneath.
//!
//! [`Element`]: crate::Element

mod bytes;
mod record;
pub(crate) mod scalar;

pub use bytes::BytesCodec;
