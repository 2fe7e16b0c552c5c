//! How large a decoded chunk may be, and reading a decoder's output within that.
//!
//! zarrs hands a bytes-to-bytes codec the representation its output must have: a fixed size
//! (a chunk of a fixed-size data type through `bytes`), a bound (a shard of compressed inner
//! chunks), or nothing. A decoder that trusts a size read from the chunk, or reads until the
//! stream ends, lets a corrupt or hostile chunk of a few bytes ask for gigabytes; these
//! decoders grow their output only as the stream produces bytes and stop one byte past the
//! limit.

use std::io::{ErrorKind, Read};

use zarrs::array::BytesRepresentation;
use zarrs::array::codec::api::CodecError;

/// The limit of a representation zarrs does not bound: 1 GiB (record arrays never meet it:
/// their chunks have fixed sizes, their shards bounded ones).
pub(crate) const UNBOUNDED_LIMIT: u64 = 1 << 30;

/// The first allocation of an output whose size is not known exactly.
const FIRST_ALLOCATION: usize = 64 << 10;

/// Decoded bytes per encoded byte that a first allocation of an exact size assumes at most:
/// deflate's largest ratio (gzip, zlib), 1032. A stream too short to make the size at that
/// ratio (a few bytes for a chunk of gigabytes, the size being a number from the metadata) gets
/// that much room, grown as it makes bytes; bz2 and lzma streams that do go beyond it grow too.
const FIRST_RATIO: usize = 1032;

/// The decoded size a codec must produce: exactly `size`, or at most `size`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DecodedSize {
    /// The size, or the largest size.
    pub(crate) size: u64,
    /// Whether the size is exact.
    pub(crate) exact: bool,
}

impl DecodedSize {
    /// The decoded size zarrs expects for `representation`.
    pub(crate) fn of(representation: &BytesRepresentation) -> Self {
        match representation {
            BytesRepresentation::FixedSize(size) => DecodedSize {
                size: *size,
                exact: true,
            },
            BytesRepresentation::BoundedSize(size) => DecodedSize {
                size: *size,
                exact: false,
            },
            BytesRepresentation::UnboundedSize => DecodedSize {
                size: UNBOUNDED_LIMIT,
                exact: false,
            },
        }
    }

    /// Exactly `size` bytes (what a chunk of a fixed size decodes to), for tests.
    #[cfg(test)]
    pub(crate) fn exact(size: u64) -> Self {
        DecodedSize { size, exact: true }
    }

    /// Whether `length` decoded bytes agree with this size.
    pub(crate) fn admits(&self, length: u64) -> bool {
        if self.exact {
            length == self.size
        } else {
            length <= self.size
        }
    }

    /// The error for a stream of `codec` that decodes to `length` bytes (or, with
    /// `at_least`, to more than `length`).
    pub(crate) fn mismatch(&self, codec: &str, length: u64, at_least: bool) -> CodecError {
        let got = if at_least {
            format!("more than {length}")
        } else {
            length.to_string()
        };
        let expected = if self.exact {
            format!("the {} bytes of the chunk", self.size)
        } else {
            format!("at most {} bytes", self.size)
        };
        CodecError::Other(format!(
            "{codec}: the stream decodes to {got} bytes, expected {expected}"
        ))
    }

    /// The first allocation for the output of a stream of `encoded` bytes: the size itself
    /// when exact (no larger than the decoded chunk) and the stream can make it at
    /// [`FIRST_RATIO`], else a guess grown as bytes come.
    fn first_allocation(&self, encoded: usize) -> usize {
        let cap = usize::try_from(self.size).unwrap_or(usize::MAX);
        if self.exact {
            // One byte more, to see a stream that goes on.
            cap.saturating_add(1)
                .min(encoded.saturating_mul(FIRST_RATIO).max(FIRST_ALLOCATION))
        } else {
            encoded
                .saturating_mul(4)
                .max(FIRST_ALLOCATION)
                .min(cap.saturating_add(1))
        }
    }
}

/// `out` made `len` bytes long (zeros after what it holds), or an error if that cannot be
/// allocated: the size is the chunk's, a number from the metadata.
fn grow(codec: &str, out: &mut Vec<u8>, len: usize) -> Result<(), CodecError> {
    out.try_reserve_exact(len.saturating_sub(out.len()))
        .map_err(|_| cannot_allocate(codec, len))?;
    out.resize(len, 0);
    Ok(())
}

/// The error of a chunk whose decoded bytes (`size` of them, room for) cannot be allocated.
pub(crate) fn cannot_allocate(codec: &str, size: usize) -> CodecError {
    CodecError::Other(format!(
        "{codec}: {size} bytes for the decoded chunk cannot be allocated"
    ))
}

/// Reads `decoder` (the decoding stream of `codec`) to its end into a vector, allocating
/// only as bytes come and never more than the limit and one byte: a stream that decodes to
/// more, or (for an exact size) to less, is an error naming the sizes.
pub(crate) fn read_bounded(
    codec: &str,
    decoder: impl Read,
    expected: DecodedSize,
    encoded: usize,
) -> Result<Vec<u8>, CodecError> {
    let mut out = Vec::new();
    read_bounded_into(codec, decoder, expected, encoded, &mut out)?;
    Ok(out)
}

/// [`read_bounded`] into `out` (whatever it held), whose capacity is reused.
pub(crate) fn read_bounded_into(
    codec: &str,
    mut decoder: impl Read,
    expected: DecodedSize,
    encoded: usize,
    out: &mut Vec<u8>,
) -> Result<(), CodecError> {
    let limit = usize::try_from(expected.size)
        .unwrap_or(usize::MAX)
        .saturating_add(1);
    out.clear();
    grow(codec, out, expected.first_allocation(encoded))?;
    let mut filled = 0;
    loop {
        if filled == out.len() {
            if out.len() >= limit {
                return Err(expected.mismatch(codec, expected.size, true));
            }
            let grown = out.len().saturating_mul(2).clamp(1, limit);
            grow(codec, out, grown)?;
        }
        match decoder.read(&mut out[filled..]) {
            Ok(0) => break,
            Ok(count) => filled += count,
            Err(error) if error.kind() == ErrorKind::Interrupted => {}
            Err(error) => {
                return Err(CodecError::Other(format!(
                    "{codec}: the stream is corrupt: {error}"
                )));
            }
        }
    }
    out.truncate(filled);
    if !expected.admits(filled as u64) {
        return Err(expected.mismatch(codec, filled as u64, false));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream of `length` zero bytes.
    fn zeros(length: u64) -> impl Read {
        std::io::repeat(0).take(length)
    }

    #[test]
    fn exact_sizes_read_whole_and_refuse_others() {
        let exact = DecodedSize::of(&BytesRepresentation::FixedSize(100));
        assert_eq!(read_bounded("t", zeros(100), exact, 10).unwrap().len(), 100);
        let short = read_bounded("t", zeros(99), exact, 10).unwrap_err();
        assert!(short.to_string().contains("decodes to 99 bytes"), "{short}");
        let long = read_bounded("t", zeros(1 << 40), exact, 10).unwrap_err();
        assert!(long.to_string().contains("more than 100"), "{long}");
    }

    /// A chunk size no allocation can hold (1 PiB, from the metadata, for a stream long
    /// enough to make it) is an error, not an abort, before anything is read.
    #[test]
    fn a_size_that_cannot_be_allocated_is_an_error() {
        let exact = DecodedSize::of(&BytesRepresentation::FixedSize(1 << 50));
        let error = read_bounded("t", zeros(10), exact, 1 << 40).unwrap_err();
        assert_eq!(
            error.to_string(),
            "t: 1125899906842625 bytes for the decoded chunk cannot be allocated"
        );
    }

    /// A stream too short to make an exact size at deflate's largest ratio is not given the
    /// size before it makes it: 10 bytes for 1 GiB get 64 KiB, and the error says what they
    /// made.
    #[test]
    fn a_short_stream_is_not_given_the_whole_size() {
        let exact = DecodedSize::of(&BytesRepresentation::FixedSize(1 << 30));
        assert_eq!(exact.first_allocation(10), 64 << 10);
        assert_eq!(exact.first_allocation(1 << 20), (1 << 30) + 1);
        let mut out = Vec::new();
        let error = read_bounded_into("t", zeros(100), exact, 10, &mut out).unwrap_err();
        assert!(
            error.to_string().contains("decodes to 100 bytes"),
            "{error}"
        );
        assert!(out.capacity() < 1 << 20, "{}", out.capacity());
    }

    #[test]
    fn bounds_stop_one_byte_past_them() {
        let bounded = DecodedSize::of(&BytesRepresentation::BoundedSize(300_000));
        assert_eq!(
            read_bounded("t", zeros(200_000), bounded, 10)
                .unwrap()
                .len(),
            200_000
        );
        let error = read_bounded("t", zeros(1 << 40), bounded, 10).unwrap_err();
        assert!(error.to_string().contains("at most 300000"), "{error}");
    }

    #[test]
    fn unbounded_representations_get_the_cap() {
        let unbounded = DecodedSize::of(&BytesRepresentation::UnboundedSize);
        assert_eq!(unbounded.size, UNBOUNDED_LIMIT);
        assert!(!unbounded.exact);
    }
}
