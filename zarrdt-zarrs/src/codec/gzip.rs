//! `gzip`: zarrs' codec, decoded within the chunk's size.
//!
//! zarrs 0.23.14 decodes a gzip member with `read_to_end`, so a chunk of a megabyte can
//! decode to a gigabyte (deflate expands up to about 1 000 times) before zarrs compares the
//! result with the chunk's size. This codec is zarrs' own, made from the same metadata
//! (configuration, encoding and names are zarrs'), decoded through the same crate (`flate2`)
//! into at most the size zarrs expects for the chunk, every member of the stream, as Python's
//! `gzip` reads them (zarrs reads the first alone). It is
//! registered with zarrs at run time ([`register`]), under the v3 name and v2 id `gzip`, which
//! puts it before zarrs' own.

use std::io::{ErrorKind, Read};
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

/// Decodes gzip members into exactly (or at most) `expected` bytes, into `out`.
fn decode(encoded: &[u8], expected: DecodedSize, out: &mut Vec<u8>) -> Result<(), CodecError> {
    read_bounded_into("gzip", Members::new(encoded), expected, encoded.len(), out)
}

/// The members of a gzip stream one after another, as Python's `gzip` (and so zarr-python)
/// reads them: after a member, zeros to the end are padding, another member is read on, and
/// anything else is an error naming where it begins (a damaged or foreign tail is not read as
/// nothing). Each member takes at least its header and trailer, so the steps are bounded by
/// the encoded bytes.
struct Members<'a> {
    /// All of the encoded bytes (for errors).
    encoded: &'a [u8],
    /// The member being read, over the bytes from its start.
    member: flate2::bufread::GzDecoder<&'a [u8]>,
}

impl<'a> Members<'a> {
    /// gzip's magic bytes, which begin every member.
    const MAGIC: [u8; 2] = [0x1f, 0x8b];

    fn new(encoded: &'a [u8]) -> Self {
        Members {
            encoded,
            member: flate2::bufread::GzDecoder::new(encoded),
        }
    }
}

impl Read for Members<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let count = self.member.read(buf)?;
            if count > 0 || buf.is_empty() {
                return Ok(count);
            }
            let rest = *self.member.get_ref();
            if rest.iter().all(|&byte| byte == 0) {
                return Ok(0);
            }
            if !rest.starts_with(&Self::MAGIC) {
                return Err(std::io::Error::new(
                    ErrorKind::InvalidData,
                    format!(
                        "{} bytes follow the end of the member (at byte {} of {})",
                        rest.len(),
                        self.encoded.len() - rest.len(),
                        self.encoded.len()
                    ),
                ));
            }
            self.member = flate2::bufread::GzDecoder::new(rest);
        }
    }
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

    /// Members one after another (as `cat a.gz b.gz` makes, and Python's `gzip` reads) are one
    /// chunk, zero padding after the last one too; it was refused as "decodes to 40 bytes"
    /// (the first member's). Anything after a member that is no member is an error naming
    /// where it begins, and the chunk's size bounds them all.
    #[test]
    fn members_one_after_another_are_one_chunk() {
        let codec = wrap(Arc::new(GzipCodec::new(5).unwrap()));
        let options = CodecOptions::default();
        let data: Vec<u8> = (0..96u32).map(|i| (i * 7 % 251) as u8).collect();
        let member = |bytes: &[u8]| {
            codec
                .encode(Cow::Borrowed(bytes), &options)
                .unwrap()
                .into_owned()
        };
        let (first, empty, second) = (member(&data[..40]), member(&[]), member(&data[40..]));
        let exact = BytesRepresentation::FixedSize(96);
        for encoded in [
            [first.as_slice(), &second].concat(),
            [first.as_slice(), &empty, &second, &[0; 8]].concat(),
        ] {
            let decoded = codec.decode(Cow::Owned(encoded), &exact, &options).unwrap();
            assert_eq!(decoded.as_ref(), data.as_slice());
        }
        let tail = [first.as_slice(), &second, b"junk"].concat();
        let error = codec
            .decode(Cow::Owned(tail.clone()), &exact, &options)
            .unwrap_err()
            .to_string();
        let at = format!(
            "4 bytes follow the end of the member (at byte {} of",
            tail.len() - 4
        );
        assert!(error.contains(&at), "{error}");
        let three = [first.as_slice(), &second, &first].concat();
        let error = codec
            .decode(Cow::Owned(three), &exact, &options)
            .unwrap_err()
            .to_string();
        assert!(error.contains("more than 96"), "{error}");
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
