//! `blosc`: zarrs' codec, its header checked against the chunk's size before zarrs decodes.
//!
//! zarrs 0.23.14 decompresses a blosc buffer into an allocation of the size its header
//! declares (`nbytes`, up to 2 GiB), so a corrupt chunk of a hundred bytes asks for a gigabyte
//! (and, where memory is not overcommitted, aborts the process). This codec is zarrs' own, made
//! from the same metadata, decoded by zarrs once the header's `nbytes` is the size zarrs
//! expects for the chunk (at most that size, for a bounded one). It is registered with zarrs
//! at run time ([`register`]), under the v3 name and v2 id `blosc`, which puts it before zarrs'
//! own.

use std::sync::Arc;

use zarrs::array::codec::BloscCodec;
use zarrs::array::codec::api::{BytesToBytesCodecTraits, CodecError};

use super::bound::DecodedSize;
use super::bounded::{BoundedCodec, register_bounded};

/// The length of a blosc header (blosc 1): version, compressor version, flags, type size, then
/// `nbytes`, `blocksize` and `cbytes` as little-endian `u32`s.
const HEADER: usize = 16;

/// Registers the codec with zarrs, by its v3 name and v2 id, ahead of zarrs' own.
pub(crate) fn register() {
    register_bounded::<BloscCodec>("blosc", wrap);
}

/// zarrs' blosc codec `inner`, its header checked before it decodes.
pub(crate) fn wrap(inner: Arc<dyn BytesToBytesCodecTraits>) -> BoundedCodec {
    BoundedCodec::checked(inner, check)
}

/// The largest type size c-blosc shuffles by (`BLOSC_MAX_TYPESIZE`).
const MAX_TYPESIZE: usize = 255;

/// The `typesize` a blosc codec of records of `record_size` bytes is written with: the record's
/// size, or 1 above 255, which is what c-blosc takes such a type size as (so the chunks are the
/// same bytes), and what tensorstore accepts (1 to 255; it refused arrays of larger records).
pub(crate) fn typesize(record_size: usize) -> usize {
    if record_size > MAX_TYPESIZE {
        1
    } else {
        record_size
    }
}

/// Checks that the blosc buffer `encoded` declares a decoded size `expected` admits.
fn check(encoded: &[u8], expected: DecodedSize) -> Result<(), CodecError> {
    let Some(header) = encoded.get(..HEADER) else {
        return Err(CodecError::Other(format!(
            "blosc: {} bytes, shorter than the {HEADER}-byte header",
            encoded.len()
        )));
    };
    let nbytes = u32::from_le_bytes([header[4], header[5], header[6], header[7]]);
    if !expected.admits(u64::from(nbytes)) {
        return Err(expected.mismatch("blosc", u64::from(nbytes), false));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use zarrs::array::BytesRepresentation;
    use zarrs::array::codec::api::CodecOptions;
    use zarrs::array::codec::{BloscCompressionLevel, BloscCompressor, BloscShuffleMode};

    use super::*;

    #[test]
    fn round_trips_and_a_header_larger_than_the_chunk_is_refused_unread() {
        let codec = wrap(Arc::new(
            BloscCodec::new(
                BloscCompressor::LZ4,
                BloscCompressionLevel::try_from(5).unwrap(),
                None,
                BloscShuffleMode::Shuffle,
                Some(4),
            )
            .unwrap(),
        ));
        let options = CodecOptions::default();
        let data: Vec<u8> = (0..20_000u32).map(|i| (i % 97) as u8).collect();
        let exact = BytesRepresentation::FixedSize(data.len() as u64);
        let encoded = codec.encode(Cow::Borrowed(&data), &options).unwrap();
        let decoded = codec.decode(encoded.clone(), &exact, &options).unwrap();
        assert_eq!(decoded.as_ref(), data.as_slice());
        // The header says 800 MB: refused before zarrs allocates them.
        let mut lying = encoded.into_owned();
        lying[4..8].copy_from_slice(&800_000_000u32.to_le_bytes());
        let error = codec
            .decode(Cow::Owned(lying), &exact, &options)
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("decodes to 800000000 bytes, expected the 20000 bytes"),
            "{error}"
        );
        let short = codec
            .decode(Cow::Borrowed(&[2, 1, 0][..]), &exact, &options)
            .unwrap_err()
            .to_string();
        assert!(short.contains("shorter than the 16-byte header"), "{short}");
    }

    /// c-blosc takes a type size above 255 as 1: chunks written with `typesize` 320 and with
    /// the 1 `typesize` writes for records of 320 bytes are the same bytes.
    #[test]
    fn records_larger_than_255_bytes_are_written_with_typesize_1() {
        assert_eq!(typesize(255), 255);
        assert_eq!(typesize(320), 1);
        let data: Vec<u8> = (0..32_000u32).map(|i| (i * 31 % 251) as u8).collect();
        let options = CodecOptions::default();
        let encode = |typesize: usize| {
            BloscCodec::new(
                BloscCompressor::LZ4,
                BloscCompressionLevel::try_from(5).unwrap(),
                None,
                BloscShuffleMode::Shuffle,
                Some(typesize),
            )
            .unwrap()
            .encode(Cow::Borrowed(&data), &options)
            .unwrap()
            .into_owned()
        };
        assert_eq!(encode(320), encode(super::typesize(320)));
        assert_ne!(encode(4), encode(1), "a shuffle by 4 differs from none");
    }
}
