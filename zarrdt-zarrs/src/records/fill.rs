//! The elements of a chunk (or a shard's inner chunk) that is not stored: its fill value,
//! handed to a read a piece at a time from a few MiB of copies made once, never a whole chunk
//! of them (a chunk's size is a number from the metadata; one field of it may be all a read
//! keeps); and whether a write leaves a chunk of nothing but the fill value unstored
//! ([`write_options`]).

use zarrs::array::{Array, ArrayMetadata, CodecOptions};

use super::run::RunBytes;
use crate::{Error, StructDataType};

/// The codec options of a write into `array`: a chunk (shard) of nothing but the fill value is
/// erased, as zarrs and zarr-python do, but in a Zarr v2 array with no fill value
/// (`"fill_value": null`), where every chunk is stored: zarr-python 2.18 reads a missing chunk
/// of such an array as uninitialised memory (zarrdt and zarr-python 3 read the zero record
/// there, which is the "fill" such a chunk would hold).
pub(super) fn write_options<S: ?Sized>(array: &Array<S>) -> CodecOptions {
    let no_fill_value = match array.metadata() {
        ArrayMetadata::V2(metadata) => metadata.fill_value.is_null(),
        ArrayMetadata::V3(_) => array
            .data_type()
            .downcast_ref::<StructDataType>()
            .is_some_and(|record| !record.has_fill_value()),
    };
    CodecOptions::default().with_store_empty_chunks(no_fill_value)
}

/// The most bytes of fill values made at once: enough for a piece to be decoded by all threads.
const FILL_BYTES: usize = 4 << 20;

/// Copies of one element's fill value, as many as fit in `FILL_BYTES` (one at least).
pub(super) struct FillPiece {
    bytes: Vec<u8>,
    element_size: usize,
}

impl FillPiece {
    /// Copies of `element` (its bytes, in the order the read hands elements over), at most
    /// `most` of them (the elements of a chunk: no more are ever needed at once).
    pub(super) fn new(element: &[u8], most: usize) -> Self {
        let element_size = element.len();
        let copies = (FILL_BYTES / element_size.max(1)).clamp(1, most.max(1));
        FillPiece {
            bytes: element.repeat(copies),
            element_size,
        }
    }

    /// The size of one element.
    pub(super) fn element_size(&self) -> usize {
        self.element_size
    }

    /// Hands `take` `count` elements of the fill value, a piece at a time.
    pub(super) fn hand_over(
        &self,
        count: usize,
        take: &mut dyn FnMut(RunBytes<'_>) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let per_piece = (self.bytes.len() / self.element_size.max(1)).max(1);
        let mut left = count;
        while left > 0 {
            let elements = left.min(per_piece);
            take(RunBytes::Elements(
                &self.bytes[..elements * self.element_size],
            ))?;
            left -= elements;
        }
        Ok(())
    }
}

/// `elements` (whole elements) as copies of `fill`.
pub(super) fn fill_elements(elements: &mut [u8], fill: &[u8]) {
    if fill.iter().all(|&byte| byte == 0) {
        elements.fill(0);
    } else {
        for element in elements.chunks_exact_mut(fill.len().max(1)) {
            element.copy_from_slice(fill);
        }
    }
}
