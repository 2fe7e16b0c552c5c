//! Encoding elements into chunk bytes and back: the layout-driven record codec for dynamic
//! [`Value`](crate::Value)s, byte-order conversion of stored chunks, and the `bytes` codec.

mod bytes;
pub(crate) mod primitive;
pub(crate) mod record;
pub(crate) mod scalar;
mod swap;

pub use bytes::BytesCodec;
pub use swap::ByteOrderConversion;
