//! What a read keeps of each element it is handed: the whole element, or one field of it (a
//! [`Projection`]); and the bytes of a run of elements as they are handed over ([`RunBytes`]).

/// The part of each element a read keeps: a field, `size` bytes at `offset` in the element.
/// A read of one field projects each inner chunk it decodes to the field as it is decoded, so
/// that its decoded inner chunks hold the field's bytes, not whole records.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Projection {
    pub(crate) offset: usize,
    pub(crate) size: usize,
}

/// The bytes of a run of elements handed to a read: decoded by a shard, or fill values.
pub(crate) enum RunBytes<'b> {
    /// Whole elements, packed.
    Elements(&'b [u8]),
    /// The [`Projection`] of each element, packed.
    Projected(&'b [u8]),
}
