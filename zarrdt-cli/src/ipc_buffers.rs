//! The uncompressed sizes that compressed Arrow IPC buffers declare, checked before arrow-rs
//! reads them.
//!
//! Each buffer of a compressed record or dictionary batch starts with its uncompressed length,
//! which arrow-rs 60 allocates before it decompresses (`Vec::with_capacity` for LZ4, the zstd
//! frame's own size or that length for zstd). A damaged or hostile file that declares more
//! than can be allocated would abort the process, which no panic guard catches: a 392-byte
//! stream declaring 32 GiB did. Each such length is therefore checked first, and one that
//! fails is an error naming the batch and the buffer:
//!
//! * against what its codec can make of its compressed bytes at most: 255 bytes a byte for an
//!   LZ4 frame (a match's length grows by 255 a byte), 32 KiB every 4 bytes for zstd (a block
//!   of one repeated byte, 128 KiB from 4 bytes), so that the bound is the file's size;
//! * against what the allocator grants (asked, then given back: not touched).
//!
//! A buffer's compressed bytes are those the file holds, not the length its metadata claims.
//! In an IPC file, the footer and every block it lists must lie within the file (arrow-rs
//! allocates, and zeroes, each one's claimed length before reading it), and each block's
//! message is read as arrow-rs reads it: from the whole block, metadata and body, since a
//! message whose flatbuffer runs past its length prefix is still one to arrow-rs. A block whose
//! message cannot be read at all is an error here too. Otherwise only sizes are checked:
//! anything else wrong with the framing is left for arrow-rs to report (a stream's scan stops
//! where its bytes stop making sense, as arrow-rs' does).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

use arrow_ipc::{CompressionType, MessageHeader, root_as_footer, root_as_message};

/// The continuation marker before each message's length (since Arrow 0.15).
const CONTINUATION: u32 = 0xFFFF_FFFF;

/// The size of the trailer of an IPC file: the footer's length and the magic `ARROW1`.
const TRAILER: u64 = 10;

/// Checks the compressed buffers of every batch of an Arrow IPC stream, from the start of
/// `file`.
pub(crate) fn check_stream(file: &mut File) -> Result<(), String> {
    let end = file.metadata().map_err(|e| e.to_string())?.len();
    let mut position = 0u64;
    let mut counts = [0usize; 2];
    while let Some(message) = read_message(file, position, end) {
        let Some(body_end) = message.body_start.checked_add(message.body_length) else {
            return Ok(());
        };
        if let Some(kind) = message.batch {
            let count = &mut counts[kind as usize];
            check_buffers(file, end, &message, kind, *count)?;
            *count += 1;
        }
        position = body_end;
    }
    Ok(())
}

/// Checks the footer of an Arrow IPC file, the blocks it lists, and the compressed buffers of
/// every batch in them.
pub(crate) fn check_file(file: &mut File) -> Result<(), String> {
    let end = file.metadata().map_err(|e| e.to_string())?.len();
    let Some(trailer_at) = end.checked_sub(TRAILER) else {
        return Ok(());
    };
    let mut trailer = [0u8; TRAILER as usize];
    // Without its magic at the end, arrow-rs refuses the file before reading anything more.
    if read_at(file, trailer_at, &mut trailer).is_err() || &trailer[4..] != b"ARROW1" {
        return Ok(());
    }
    let footer_length = u64::from(u32::from_le_bytes([
        trailer[0], trailer[1], trailer[2], trailer[3],
    ]));
    let Some(footer_at) = trailer_at.checked_sub(footer_length) else {
        return Err(format!(
            "its footer says it is {footer_length} bytes, more than the {trailer_at} bytes \
             before the file's trailer"
        ));
    };
    let mut footer = vec![0u8; footer_length as usize];
    if read_at(file, footer_at, &mut footer).is_err() {
        return Ok(());
    }
    let Ok(footer) = root_as_footer(&footer) else {
        return Ok(());
    };
    let dictionaries = footer.dictionaries().into_iter().flatten();
    let records = footer.recordBatches().into_iter().flatten();
    let blocks = (dictionaries
        .enumerate()
        .map(|(n, b)| (BatchKind::Dictionary, n, b)))
    .chain(records.enumerate().map(|(n, b)| (BatchKind::Record, n, b)));
    for (listed, number, block) in blocks {
        let named = || format!("{} {number}", listed.name());
        // Where arrow-rs reads the block: all of it, before the footer.
        let span = (
            u64::try_from(block.offset()),
            u64::try_from(block.metaDataLength()),
            u64::try_from(block.bodyLength()),
        );
        let (Ok(at), Ok(metadata_length), Ok(body_length)) = span else {
            return Err(format!(
                "{}: its block has a negative offset or length",
                named()
            ));
        };
        let stop = at
            .checked_add(metadata_length)
            .and_then(|start| start.checked_add(body_length));
        if stop.is_none_or(|stop| stop > footer_at) {
            return Err(format!(
                "{}: its block (at byte {at}, {metadata_length} bytes of metadata and \
                 {body_length} of body) runs past the {footer_at} bytes before the footer",
                named()
            ));
        }
        let Some(mut message) = read_block_message(file, at, metadata_length, body_length) else {
            return Err(format!(
                "{}: its block (at byte {at}) holds no readable message",
                named()
            ));
        };
        // The block says where the body is.
        message.body_start = at + metadata_length;
        message.body_length = body_length;
        if let Some(kind) = message.batch {
            check_buffers(file, end, &message, kind, number)?;
        }
    }
    Ok(())
}

/// The message of the block at `at` of an IPC file, parsed as arrow-rs parses it: after its
/// length prefix, from the rest of the block (metadata and body), so that a flatbuffer that
/// runs past the prefix is read as arrow-rs reads it. The metadata alone is tried first; the
/// whole block (which lies within the file) only where that fails.
fn read_block_message(
    file: &mut File,
    at: u64,
    metadata_length: u64,
    body_length: u64,
) -> Option<Message> {
    let mut word = [0u8; 4];
    read_at(file, at, &mut word).ok()?;
    let prefix = if u32::from_le_bytes(word) == CONTINUATION {
        8
    } else {
        4
    };
    for length in [metadata_length, metadata_length + body_length] {
        let mut bytes = vec![0u8; usize::try_from(length).ok()?];
        read_at(file, at, &mut bytes).ok()?;
        if let Some(message) = bytes.get(prefix..).and_then(parse_message) {
            return Some(message);
        }
    }
    None
}

/// The two kinds of messages with buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BatchKind {
    Record,
    Dictionary,
}

impl BatchKind {
    /// How errors name a batch of this kind.
    fn name(self) -> &'static str {
        match self {
            BatchKind::Record => "record batch",
            BatchKind::Dictionary => "dictionary batch",
        }
    }
}

/// What a message's metadata says of its body.
struct Message {
    /// The kind of batch it is, if it is one.
    batch: Option<BatchKind>,
    /// The codec of its buffers, if they are compressed.
    codec: Option<CompressionType>,
    /// The offset and length of each buffer in the body.
    buffers: Vec<(u64, u64)>,
    /// Where the body starts in the file.
    body_start: u64,
    /// The body's length.
    body_length: u64,
}

/// The message at `position`, or `None` at the end of the stream or where the bytes are no
/// message (arrow-rs reports those).
fn read_message(file: &mut File, position: u64, end: u64) -> Option<Message> {
    let mut word = [0u8; 4];
    read_at(file, position, &mut word).ok()?;
    let (length, metadata_at) = match u32::from_le_bytes(word) {
        CONTINUATION => {
            read_at(file, position + 4, &mut word).ok()?;
            (u32::from_le_bytes(word), position + 8)
        }
        // Before Arrow 0.15: the length alone.
        length => (length, position + 4),
    };
    let length = u64::from(length);
    if length == 0 || length > end.saturating_sub(metadata_at) {
        return None;
    }
    let mut metadata = vec![0u8; length as usize];
    read_at(file, metadata_at, &mut metadata).ok()?;
    let mut message = parse_message(&metadata)?;
    message.body_start = metadata_at + length;
    Some(message)
}

/// What the message flatbuffer `bytes` says of its body (its start is the caller's to set).
fn parse_message(bytes: &[u8]) -> Option<Message> {
    let message = root_as_message(bytes).ok()?;
    let (kind, batch) = match message.header_type() {
        MessageHeader::RecordBatch => (BatchKind::Record, message.header_as_record_batch()),
        MessageHeader::DictionaryBatch => (
            BatchKind::Dictionary,
            message
                .header_as_dictionary_batch()
                .and_then(|dictionary| dictionary.data()),
        ),
        _ => (BatchKind::Record, None),
    };
    let buffers = batch
        .and_then(|batch| batch.buffers())
        .map(|buffers| {
            buffers
                .iter()
                .filter_map(|buffer| {
                    Some((
                        u64::try_from(buffer.offset()).ok()?,
                        u64::try_from(buffer.length()).ok()?,
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    Some(Message {
        batch: batch.map(|_| kind),
        codec: batch
            .and_then(|batch| batch.compression())
            .map(|compression| compression.codec()),
        buffers,
        body_start: 0,
        body_length: u64::try_from(message.bodyLength()).ok()?,
    })
}

/// An error if a compressed buffer of `message` (the `number`th batch of its kind, from 0)
/// declares an uncompressed length the allocator refuses.
fn check_buffers(
    file: &mut File,
    end: u64,
    message: &Message,
    kind: BatchKind,
    number: usize,
) -> Result<(), String> {
    let Some(codec) = message.codec else {
        return Ok(());
    };
    // Uncompressed bytes a compressed byte can make, at most.
    let (name, ratio) = match codec {
        CompressionType::LZ4_FRAME => ("LZ4", 255),
        CompressionType::ZSTD => ("zstd", (128 << 10) / 4),
        // A codec arrow-rs does not know: it says so itself.
        _ => return Ok(()),
    };
    for (index, &(offset, length)) in message.buffers.iter().enumerate() {
        // The buffer's bytes: those of its claimed length that its body and the file hold.
        let at = message.body_start.saturating_add(offset);
        let length = length
            .min(message.body_length.saturating_sub(offset))
            .min(end.saturating_sub(at));
        // An empty buffer has no length before it.
        if length < 8 {
            continue;
        }
        let mut prefix = [0u8; 8];
        if read_at(file, at, &mut prefix).is_err() {
            continue;
        }
        let declared = i64::from_le_bytes(prefix);
        let Ok(declared) = usize::try_from(declared) else {
            // -1: stored uncompressed; other negative lengths arrow-rs refuses itself.
            continue;
        };
        let compressed = length - 8;
        let most = compressed.saturating_mul(ratio);
        let problem = if declared as u64 > most {
            format!("more than {name} makes of {compressed} bytes")
        } else if Vec::<u8>::new().try_reserve_exact(declared).is_err() {
            "more than can be allocated".to_owned()
        } else {
            continue;
        };
        return Err(format!(
            "{} {number}, buffer {index}: the compressed buffer says it holds {declared} \
             bytes uncompressed, {problem}",
            kind.name()
        ));
    }
    Ok(())
}

/// Fills `out` from `file` at `position`.
fn read_at(file: &mut File, position: u64, out: &mut [u8]) -> std::io::Result<()> {
    file.seek(SeekFrom::Start(position))?;
    file.read_exact(out)
}
