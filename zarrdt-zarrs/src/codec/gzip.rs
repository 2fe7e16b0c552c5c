//! `gzip`: zarrs' codec, decoded within the chunk's size.
//!
//! zarrs 0.23.14 decodes a gzip member with `read_to_end`, so a chunk of a megabyte can
//! decode to a gigabyte (deflate expands up to about 1 000 times) before zarrs compares the
//! result with the chunk's size. This codec is zarrs' own, made from the same metadata
//! (configuration, encoding and names are zarrs'), decoded through the same crate (`flate2`,
//! one member, as zarrs reads it) into at most the size zarrs expects for the chunk. It is
//! registered with zarrs at run time ([`register`]), under the v3 name and v2 id `gzip`, which
//! puts it before zarrs' own.

use std::sync::Arc;

use zarrs::array::codec::GzipCodec;
use zarrs::array::codec::api::{BytesToBytesCodecTraits, CodecError};

use super::bound::{DecodedSize, read_bounded_into};
use super::bounded::{BoundedCodec, register_bounded};

/// Registers the codec with zarrs, by its v3 name and v2 id, ahead of zarrs' own.
pub(crate) fn register() {
    register_bounded::<GzipCodec>("gzip", wrap);
}

/// zarrs' gzip codec `inner`, decoded within bounds.
pub(crate) fn wrap(inner: Arc<dyn BytesToBytesCodecTraits>) -> BoundedCodec {
    BoundedCodec::new(inner, decode)
}

/// Decodes a gzip member into exactly (or at most) `expected` bytes, into `out`. Bytes after
/// the member are an error unless they are zeros (padding, which Python's `gzip`, and so
/// zarr-python, skips too): a damaged or foreign tail is not read as nothing.
fn decode(encoded: &[u8], expected: DecodedSize, out: &mut Vec<u8>) -> Result<(), CodecError> {
    let mut decoder = flate2::bufread::GzDecoder::new(encoded);
    read_bounded_into("gzip", &mut decoder, expected, encoded.len(), out)?;
    let rest = *decoder.get_ref();
    if rest.iter().any(|&byte| byte != 0) {
        return Err(CodecError::Other(format!(
            "gzip: {} bytes follow the end of the member (at byte {} of {})",
            rest.len(),
            encoded.len() - rest.len(),
            encoded.len()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use zarrs::array::BytesRepresentation;
    use zarrs::array::codec::api::{BytesToBytesCodecTraits, CodecOptions};

    use super::*;

    #[test]
    fn bytes_after_the_member_are_an_error_but_zero_padding() {
        let codec = wrap(Arc::new(GzipCodec::new(5).unwrap()));
        let options = CodecOptions::default();
        let data: Vec<u8> = (0..1000u32).map(|i| (i % 7) as u8).collect();
        let encoded = codec.encode(Cow::Borrowed(&data), &options).unwrap();
        let exact = BytesRepresentation::FixedSize(data.len() as u64);
        let with = |tail: &[u8]| {
            let mut bytes = encoded.to_vec();
            bytes.extend_from_slice(tail);
            codec.decode(Cow::Owned(bytes), &exact, &options)
        };
        assert_eq!(with(&[0; 16]).unwrap().as_ref(), data.as_slice());
        let error = with(b"garbage").unwrap_err().to_string();
        assert!(
            error.contains("7 bytes follow the end of the member"),
            "{error}"
        );
    }

    #[test]
    fn round_trips_and_a_bomb_stops_at_the_chunk_size() {
        let codec = wrap(Arc::new(GzipCodec::new(9).unwrap()));
        let options = CodecOptions::default();
        let data: Vec<u8> = (0..20_000u32).map(|i| (i % 97) as u8).collect();
        let encoded = codec.encode(Cow::Borrowed(&data), &options).unwrap();
        let exact = BytesRepresentation::FixedSize(data.len() as u64);
        let decoded = codec.decode(encoded, &exact, &options).unwrap();
        assert_eq!(decoded.as_ref(), data.as_slice());
        // 8 MiB of zeros in a few kilobytes, read as a chunk of 4 KiB.
        let zeros = vec![0u8; 8 << 20];
        let bomb = codec.encode(Cow::Borrowed(&zeros), &options).unwrap();
        assert!(bomb.len() < 64 << 10, "{}", bomb.len());
        let error = codec
            .decode(bomb, &BytesRepresentation::FixedSize(4096), &options)
            .unwrap_err()
            .to_string();
        assert!(error.contains("more than 4096"), "{error}");
    }
}
