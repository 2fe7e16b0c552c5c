//! `zstd`: zarrs' codec (zarr-python 3's default compressor), decoded within the chunk's size.
//!
//! zarrs 0.23.14 decompresses into a buffer of the content size the frame itself declares
//! (`zstd::bulk::decompress(data, upper_bound)`), so a chunk of a few bytes declaring a
//! terabyte makes it allocate a terabyte and abort the process. This codec encodes through
//! zarrs' codec and decodes into a buffer of the size zarrs expects for the chunk (a frame that
//! decodes to more is an error, allocating nothing more), with a decompression context each
//! thread keeps from chunk to chunk. It is registered with zarrs at run time ([`register`]),
//! under the v3 name and v2 id `zstd`, which puts it before zarrs' own.

use std::cell::RefCell;
use std::sync::Arc;

use zarrs::array::codec::ZstdCodec;
use zarrs::array::codec::api::{
    Codec, CodecError, CodecRuntimePluginV2, CodecRuntimePluginV3, register_codec_v2,
    register_codec_v3,
};
use zarrs::plugin::PluginCreateError;

use super::bound::{DecodedSize, cannot_allocate, read_bounded_into};
use super::bounded::BoundedCodec;
use super::configuration::{Settings, invalid, of_v3};

/// The most a zstd block decodes to (`ZSTD_BLOCKSIZE_MAX`).
const MAX_BLOCK: u64 = 128 << 10;

thread_local! {
    /// This thread's decompression context, kept from chunk to chunk.
    static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        const { RefCell::new(None) };
}

/// zarrs' zstd codec of a configuration: v3 `{"level": 3, "checksum": false}`, or numcodecs'
/// v2 `{"id": "zstd", "level": 3, "checksum": false}` (each member may be missing).
fn from_configuration(
    configuration: &serde_json::Map<String, serde_json::Value>,
) -> Result<BoundedCodec, PluginCreateError> {
    let mut settings = Settings::new("zstd", configuration);
    let level = settings.integer("level")?.unwrap_or(0);
    let checksum = match settings.get("checksum") {
        None => false,
        Some(value) => value
            .as_bool()
            .ok_or_else(|| invalid("zstd", format!("checksum {value} is not true or false")))?,
    };
    settings.finish()?;
    let level = i32::try_from(level)
        .map_err(|_| invalid("zstd", format!("level {level} is out of range")))?;
    Ok(codec(level, checksum))
}

/// zarrs' zstd codec at `level`, with or without a checksum, decoded within bounds.
pub(crate) fn codec(level: i32, checksum: bool) -> BoundedCodec {
    BoundedCodec::new(Arc::new(ZstdCodec::new(level, checksum)), decode)
}

/// Registers the codec with zarrs, by its v3 name and v2 id, ahead of zarrs' own.
pub(crate) fn register() {
    let _v3 = register_codec_v3(CodecRuntimePluginV3::new(
        |name| name == "zstd",
        |metadata| {
            let codec = from_configuration(&of_v3(metadata))?;
            Ok(Codec::BytesToBytes(Arc::new(codec)))
        },
    ));
    let _v2 = register_codec_v2(CodecRuntimePluginV2::new(
        |name| name == "zstd",
        |metadata| {
            let codec = from_configuration(metadata.configuration())?;
            Ok(Codec::BytesToBytes(Arc::new(codec)))
        },
    ));
}

/// Decodes zstd frames into exactly (or at most) `expected` bytes, into `out` (whatever it
/// held: a buffer of a previous chunk is reused, not faulted in anew).
pub(crate) fn decode(
    encoded: &[u8],
    expected: DecodedSize,
    out: &mut Vec<u8>,
) -> Result<(), CodecError> {
    if !expected.exact {
        let decoder = zstd::stream::read::Decoder::with_buffer(encoded)
            .map_err(|error| CodecError::Other(format!("zstd: {error}")))?;
        return read_bounded_into("zstd", decoder, expected, encoded.len(), out);
    }
    let size = usize::try_from(expected.size)
        .map_err(|_| expected.mismatch("zstd", expected.size, true))?;
    // The frames' own claim is only a check: the buffer is the chunk's size.
    if let Some(declared) = declared_size(encoded)
        && declared != expected.size
    {
        return Err(expected.mismatch("zstd", declared, false));
    }
    // Nor is the chunk's size, which the metadata sets: a block decodes to at most 128 KiB and
    // takes at least 4 bytes, so fewer bytes than that bound allows are refused unallocated.
    let most = (encoded.len() as u64 / 4 + 1).saturating_mul(MAX_BLOCK);
    if expected.size > most {
        return Err(CodecError::Other(format!(
            "zstd: {} bytes of frames decode to at most {most} bytes, not the chunk's {}",
            encoded.len(),
            expected.size
        )));
    }
    out.clear();
    // Room for the chunk, allocated only if the buffer has less: frames decoding to more than
    // the chunk fill at most the room a reused buffer already has, and are an error below.
    out.try_reserve_exact(size)
        .map_err(|_| cannot_allocate("zstd", size))?;
    DECOMPRESSOR.with(|decompressor| {
        let mut decompressor = decompressor.borrow_mut();
        if decompressor.is_none() {
            *decompressor = Some(
                zstd::bulk::Decompressor::new()
                    .map_err(|error| CodecError::Other(format!("zstd: {error}")))?,
            );
        }
        let decompressor = decompressor
            .as_mut()
            .ok_or_else(|| CodecError::Other("zstd: no decompression context".into()))?;
        decompressor
            .decompress_to_buffer(encoded, out)
            .map_err(|error| {
                CodecError::Other(format!(
                    "zstd: the frames do not decode to the chunk's {size} bytes: {error}"
                ))
            })
    })?;
    if !expected.admits(out.len() as u64) {
        return Err(expected.mismatch("zstd", out.len() as u64, false));
    }
    Ok(())
}

/// The decoded size the frames of `encoded` declare together, as `ZSTD_findDecompressedSize`
/// counts it (a chunk may be several frames, as parallel and streaming compressors write them,
/// and skippable frames, which decode to nothing): `None` if a frame does not declare its size
/// or the frames cannot be told apart (the decoder then says what is wrong). One step per
/// frame, each at least a frame header long.
fn declared_size(encoded: &[u8]) -> Option<u64> {
    let mut rest = encoded;
    let mut total = 0u64;
    while !rest.is_empty() {
        let frame = zstd::zstd_safe::find_frame_compressed_size(rest).ok()?;
        let (header, after) = rest.split_at_checked(frame).filter(|_| frame > 0)?;
        let size = zstd::zstd_safe::get_frame_content_size(header).ok()??;
        total = total.checked_add(size)?;
        rest = after;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use zarrs::array::BytesRepresentation;
    use zarrs::array::codec::api::{BytesToBytesCodecTraits, CodecOptions};

    use super::*;

    fn codec() -> BoundedCodec {
        super::codec(3, false)
    }

    #[test]
    fn round_trips() {
        let data: Vec<u8> = (0..50_000u32).map(|i| (i % 251) as u8).collect();
        let options = CodecOptions::default();
        let encoded = codec().encode(Cow::Borrowed(&data), &options).unwrap();
        let representation = BytesRepresentation::FixedSize(data.len() as u64);
        let decoded = codec()
            .decode(encoded.clone(), &representation, &options)
            .unwrap();
        assert_eq!(decoded.as_ref(), data.as_slice());
        let bounded = BytesRepresentation::BoundedSize(1 << 20);
        let decoded = codec().decode(encoded, &bounded, &options).unwrap();
        assert_eq!(decoded.as_ref(), data.as_slice());
    }

    /// A frame declaring (or holding) more than the chunk is an error, and nothing of the
    /// declared size is allocated (the frame of 8 MiB of zeros is a few hundred bytes).
    #[test]
    fn a_frame_larger_than_the_chunk_is_an_error() {
        let zeros = vec![0u8; 8 << 20];
        let options = CodecOptions::default();
        let encoded = codec().encode(Cow::Borrowed(&zeros), &options).unwrap();
        assert!(encoded.len() < 64 << 10, "{}", encoded.len());
        for representation in [
            BytesRepresentation::FixedSize(4096),
            BytesRepresentation::BoundedSize(4096),
        ] {
            let error = codec()
                .decode(encoded.clone(), &representation, &options)
                .unwrap_err()
                .to_string();
            assert!(error.contains("4096"), "{error}");
        }
    }

    /// A buffer of an earlier chunk is decoded into as it is (its old bytes overwritten, its
    /// allocation kept); frames holding more than the chunk (without declaring their size)
    /// are an error within that allocation.
    #[test]
    fn decodes_into_a_reused_buffer_within_its_room() {
        let chunk: Vec<u8> = (0..4096u32).map(|i| (i % 13) as u8).collect();
        let longer: Vec<u8> = (0..6000u32).map(|i| (i % 7) as u8).collect();
        let expected = DecodedSize::of(&BytesRepresentation::FixedSize(4096));
        let mut out = vec![0xee_u8; 8192];
        let room = out.capacity();
        let frames = zstd::stream::encode_all(chunk.as_slice(), 3).unwrap();
        decode(&frames, expected, &mut out).unwrap();
        assert_eq!(out, chunk);
        assert_eq!(out.capacity(), room);
        let frames = zstd::stream::encode_all(longer.as_slice(), 3).unwrap();
        assert!(
            matches!(zstd::zstd_safe::get_frame_content_size(&frames), Ok(None)),
            "a frame that does not declare its size"
        );
        let error = decode(&frames, expected, &mut out).unwrap_err().to_string();
        assert!(error.contains("4096"), "{error}");
        assert_eq!(out.capacity(), room);
    }

    /// A skippable frame: its magic number, its length, and that many bytes of its own.
    fn skippable(payload: &[u8]) -> Vec<u8> {
        let mut frame = 0x184D_2A50_u32.to_le_bytes().to_vec();
        frame.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        frame.extend_from_slice(payload);
        frame
    }

    /// A chunk of several frames, each declaring its own size, and skippable frames before,
    /// between and after them, decodes as zarr-python 3 reads it (it was refused as "decodes
    /// to 48 bytes", the first frame's size, or 0 with a skippable frame first); the sizes
    /// declared together are still checked against the chunk's.
    #[test]
    fn several_frames_and_skippable_frames_decode_whole() {
        let chunk: Vec<u8> = (0..96u32).map(|i| (i * 7 % 251) as u8).collect();
        let first = zstd::bulk::compress(&chunk[..48], 3).unwrap();
        let second = zstd::bulk::compress(&chunk[48..], 3).unwrap();
        let representation = BytesRepresentation::FixedSize(96);
        let options = CodecOptions::default();
        let layouts = [
            [first.clone(), second.clone()].concat(),
            [skippable(b"index"), first.clone(), second.clone()].concat(),
            [
                first.clone(),
                skippable(&[]),
                second.clone(),
                skippable(b"seek table"),
            ]
            .concat(),
        ];
        for encoded in layouts {
            assert_eq!(declared_size(&encoded), Some(96));
            let decoded = codec()
                .decode(Cow::Owned(encoded), &representation, &options)
                .unwrap();
            assert_eq!(decoded.as_ref(), chunk.as_slice());
        }
        let three = [first.clone(), second.clone(), first].concat();
        let error = codec()
            .decode(Cow::Owned(three), &representation, &options)
            .unwrap_err()
            .to_string();
        assert!(error.contains("144") && error.contains("96"), "{error}");
        // Bytes that are no frame leave the check to the decoder, which refuses them.
        assert_eq!(declared_size(&[second, vec![1, 2, 3]].concat()), None);
    }

    #[test]
    fn configurations_as_zarr_python_writes_them() {
        for text in [
            r#"{"level": 3, "checksum": false}"#,
            r#"{"id": "zstd", "level": 1}"#,
            r#"{}"#,
        ] {
            let configuration = serde_json::from_str(text).unwrap();
            assert!(from_configuration(&configuration).is_ok(), "{text}");
        }
        let bad = serde_json::from_str(r#"{"level": 3, "checksum": 1}"#).unwrap();
        assert!(from_configuration(&bad).is_err());
    }
}
