//! numcodecs' 32-bit checksum codecs that zarrs lacks, registers under other names or gets
//! wrong: `crc32` and `crc32c` ([`crc32`]), `fletcher32` ([`fletcher32`]) and
//! `jenkins_lookup3` ([`lookup3`]), each a whole-chunk codec under numcodecs' Zarr v2 id and
//! zarr-python 3's `numcodecs.*` Zarr v3 name.
//!
//! Each frames a chunk as numcodecs does: the chunk's bytes with a 4-byte little-endian
//! checksum of them before (numcodecs' `location="start"`) or after (`"end"`). Decoding
//! checks the checksum (unless zarrs' `CodecOptions::validate_checksums` is off, as for zarrs'
//! own checksums) and hands over the bytes without it, or fails naming what was stored and
//! what the bytes sum to; nothing is allocated beyond the chunk's own bytes.

pub(crate) mod crc32;
pub(crate) mod fletcher32;
pub(crate) mod lookup3;

use serde_json::Value as Json;
use zarrs::array::codec::api::{CodecError, CodecOptions};
use zarrs::plugin::PluginCreateError;

use super::bound::DecodedSize;
use super::configuration::{Settings, invalid};

/// The bytes of a checksum.
const CHECKSUM: usize = 4;

/// Where a chunk's checksum is: numcodecs' `location`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Location {
    /// Before the chunk's bytes.
    Start,
    /// After them.
    End,
}

impl Location {
    /// The `location` of a configuration, `default` where it has none.
    fn read(settings: &mut Settings<'_>, default: Location) -> Result<Self, PluginCreateError> {
        match settings.get("location") {
            None => Ok(default),
            Some(Json::String(location)) if location == "start" => Ok(Location::Start),
            Some(Json::String(location)) if location == "end" => Ok(Location::End),
            Some(other) => Err(invalid(
                settings.codec(),
                format!("location {other} is not \"start\" or \"end\""),
            )),
        }
    }

    /// numcodecs' name of the location.
    fn name(self) -> &'static str {
        match self {
            Location::Start => "start",
            Location::End => "end",
        }
    }
}

/// `decoded` framed with its checksum `sum` at `location`.
fn frame(decoded: &[u8], sum: u32, location: Location) -> Vec<u8> {
    let mut encoded = Vec::with_capacity(decoded.len() + CHECKSUM);
    match location {
        Location::Start => {
            encoded.extend_from_slice(&sum.to_le_bytes());
            encoded.extend_from_slice(decoded);
        }
        Location::End => {
            encoded.extend_from_slice(decoded);
            encoded.extend_from_slice(&sum.to_le_bytes());
        }
    }
    encoded
}

/// The bytes of the chunk `encoded` (of `codec`, its checksum at `location`), once `sum` of
/// them is the checksum stored, unless `options` say not to check it (zarrs'
/// `validate_checksums`, on by default, as it is for zarrs' own checksums); they must be
/// `expected` bytes.
fn unframe(
    codec: &str,
    encoded: &[u8],
    location: Location,
    expected: DecodedSize,
    options: &CodecOptions,
    sum: impl FnOnce(&[u8]) -> u32,
) -> Result<Vec<u8>, CodecError> {
    let split = match location {
        Location::Start => encoded
            .split_first_chunk::<CHECKSUM>()
            .map(|(stored, bytes)| (*stored, bytes)),
        Location::End => encoded
            .split_last_chunk::<CHECKSUM>()
            .map(|(bytes, stored)| (*stored, bytes)),
    };
    let Some((stored, bytes)) = split else {
        return Err(CodecError::Other(format!(
            "{codec}: a chunk of {} bytes has no room for its {CHECKSUM}-byte checksum",
            encoded.len()
        )));
    };
    if !expected.admits(bytes.len() as u64) {
        return Err(expected.mismatch(codec, bytes.len() as u64, false));
    }
    let stored = u32::from_le_bytes(stored);
    if !options.validate_checksums() {
        return Ok(bytes.to_vec());
    }
    let computed = sum(bytes);
    if stored != computed {
        return Err(CodecError::Other(format!(
            "{codec}: the checksum stored at the {} of the chunk, {stored:#010x}, is not that of \
             its {} bytes, {computed:#010x}: the chunk is damaged",
            location.name(),
            bytes.len()
        )));
    }
    Ok(bytes.to_vec())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The bytes `(37 i + 11) mod 256` for `i` below `len`: the input the checksums'
    /// expected values were computed from with numcodecs.
    pub(crate) fn pattern(len: usize) -> Vec<u8> {
        (0..len).map(|i| ((i * 37 + 11) & 0xff) as u8).collect()
    }

    fn sum(bytes: &[u8]) -> u32 {
        bytes.iter().map(|&byte| u32::from(byte)).sum()
    }

    #[test]
    fn frames_at_either_end_and_checks_on_the_way_back() {
        let data = [1u8, 2, 3];
        let start = frame(&data, 6, Location::Start);
        assert_eq!(start, [6, 0, 0, 0, 1, 2, 3]);
        let end = frame(&data, 6, Location::End);
        assert_eq!(end, [1, 2, 3, 6, 0, 0, 0]);
        assert_eq!(
            unframe(
                "t",
                &start,
                Location::Start,
                DecodedSize::exact(3),
                &CodecOptions::default(),
                sum
            )
            .unwrap(),
            data
        );
        assert_eq!(
            unframe(
                "t",
                &end,
                Location::End,
                DecodedSize::exact(3),
                &CodecOptions::default(),
                sum
            )
            .unwrap(),
            data
        );
        // The other location reads a checksum that is not the bytes' own.
        let error = unframe(
            "t",
            &end,
            Location::Start,
            DecodedSize::exact(3),
            &CodecOptions::default(),
            sum,
        )
        .unwrap_err()
        .to_string();
        assert!(
            error.contains("t: the checksum stored at the start of the chunk, 0x06030201"),
            "{error}"
        );
        assert!(error.contains("its 3 bytes, 0x00000000"), "{error}");
    }

    #[test]
    fn a_checksum_is_not_checked_where_the_options_say_so() {
        // As zarrs' own checksums: `validate_checksums` off hands over the bytes as stored.
        let framed = frame(&[1, 2, 3], 7, Location::End);
        let unchecked = CodecOptions::default().with_validate_checksums(false);
        assert_eq!(
            unframe(
                "t",
                &framed,
                Location::End,
                DecodedSize::exact(3),
                &unchecked,
                sum
            )
            .unwrap(),
            [1, 2, 3]
        );
        let error = unframe(
            "t",
            &framed,
            Location::End,
            DecodedSize::exact(3),
            &CodecOptions::default(),
            sum,
        )
        .unwrap_err()
        .to_string();
        assert!(error.contains("the chunk is damaged"), "{error}");
    }

    #[test]
    fn short_chunks_and_chunks_of_another_size_are_errors() {
        let error = unframe(
            "t",
            &[1, 2, 3],
            Location::End,
            DecodedSize::exact(0),
            &CodecOptions::default(),
            sum,
        )
        .unwrap_err()
        .to_string();
        assert!(
            error.contains("a chunk of 3 bytes has no room for its 4-byte checksum"),
            "{error}"
        );
        let framed = frame(&[1, 2, 3], 6, Location::End);
        let error = unframe(
            "t",
            &framed,
            Location::End,
            DecodedSize::exact(4),
            &CodecOptions::default(),
            sum,
        )
        .unwrap_err()
        .to_string();
        assert!(
            error.contains("expected the 4 bytes of the chunk"),
            "{error}"
        );
        // An empty chunk is its checksum alone.
        assert_eq!(
            unframe(
                "t",
                &[0; 4],
                Location::Start,
                DecodedSize::exact(0),
                &CodecOptions::default(),
                sum
            )
            .unwrap(),
            Vec::<u8>::new()
        );
    }
}
