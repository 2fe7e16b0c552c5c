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
//! Only the sizes are checked here; anything else wrong with the framing is left for arrow-rs
//! to report (the scan stops where the bytes stop making sense).

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
            check_buffers(file, &message, kind, *count)?;
            *count += 1;
        }
        position = body_end;
    }
    Ok(())
}

/// Checks the compressed buffers of every batch the footer of an Arrow IPC file lists.
pub(crate) fn check_file(file: &mut File) -> Result<(), String> {
    let end = file.metadata().map_err(|e| e.to_string())?.len();
    let Some(trailer_at) = end.checked_sub(TRAILER) else {
        return Ok(());
    };
    let mut trailer = [0u8; TRAILER as usize];
    if read_at(file, trailer_at, &mut trailer).is_err() {
        return Ok(());
    }
    let footer_length = u64::from(u32::from_le_bytes([
        trailer[0], trailer[1], trailer[2], trailer[3],
    ]));
    let Some(footer_at) = trailer_at.checked_sub(footer_length) else {
        return Ok(());
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
    let blocks = (dictionaries.enumerate()).chain(records.enumerate());
    for (number, block) in blocks {
        let (Ok(at), Ok(metadata_length)) = (
            u64::try_from(block.offset()),
            u64::try_from(block.metaDataLength()),
        ) else {
            continue;
        };
        let Some(mut message) = read_message(file, at, end) else {
            continue;
        };
        // The block says where the body starts; the message says how long it is.
        message.body_start = at.saturating_add(metadata_length);
        if let Some(kind) = message.batch {
            check_buffers(file, &message, kind, number)?;
        }
    }
    Ok(())
}

/// The two kinds of messages with buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BatchKind {
    Record,
    Dictionary,
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
    let message = root_as_message(&metadata).ok()?;
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
        body_start: metadata_at + length,
        body_length: u64::try_from(message.bodyLength()).ok()?,
    })
}

/// An error if a compressed buffer of `message` (the `number`th batch of its kind, from 0)
/// declares an uncompressed length the allocator refuses.
fn check_buffers(
    file: &mut File,
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
        // An empty buffer has no length before it.
        if length < 8 || offset.saturating_add(8) > message.body_length {
            continue;
        }
        let mut prefix = [0u8; 8];
        if read_at(file, message.body_start.saturating_add(offset), &mut prefix).is_err() {
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
        let kind = match kind {
            BatchKind::Record => "record batch",
            BatchKind::Dictionary => "dictionary batch",
        };
        return Err(format!(
            "{kind} {number}, buffer {index}: the compressed buffer says it holds {declared} \
             bytes uncompressed, {problem}"
        ));
    }
    Ok(())
}

/// Fills `out` from `file` at `position`.
fn read_at(file: &mut File, position: u64, out: &mut [u8]) -> std::io::Result<()> {
    file.seek(SeekFrom::Start(position))?;
    file.read_exact(out)
}
