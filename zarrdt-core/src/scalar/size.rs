//! The checked sizes that sized scalar types carry.

use std::fmt;
use std::num::NonZeroUsize;

use super::MAX_ELEMENT_SIZE;

/// The length in bytes of `r<N>`, `raw_bytes` or `null_terminated_bytes`: at least 1 and at
/// most [`MAX_ELEMENT_SIZE`].
///
/// ```
/// use zarrdt::types::ByteSize;
///
/// assert_eq!(ByteSize::new(3).map(ByteSize::get), Some(3));
/// assert!(ByteSize::new(0).is_none());
/// assert!(ByteSize::new(usize::MAX).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ByteSize(NonZeroUsize);

impl ByteSize {
    /// `bytes`, if it is in `1..=MAX_ELEMENT_SIZE`.
    pub const fn new(bytes: usize) -> Option<Self> {
        if bytes > MAX_ELEMENT_SIZE {
            return None;
        }
        match NonZeroUsize::new(bytes) {
            Some(bytes) => Some(ByteSize(bytes)),
            None => None,
        }
    }

    /// The number of bytes.
    pub const fn get(self) -> usize {
        self.0.get()
    }
}

impl fmt::Display for ByteSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The number of UTF-32 code units of `fixed_length_utf32`: at least 1, and at most a quarter
/// of [`MAX_ELEMENT_SIZE`], so that the type's size in bytes is within it.
///
/// ```
/// use zarrdt::types::CharCount;
///
/// assert_eq!(CharCount::new(4).map(CharCount::length_bytes), Some(16));
/// assert!(CharCount::new(0).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CharCount(NonZeroUsize);

impl CharCount {
    /// `chars`, if it is in `1..=MAX_ELEMENT_SIZE / 4`.
    pub const fn new(chars: usize) -> Option<Self> {
        if chars > MAX_ELEMENT_SIZE / 4 {
            return None;
        }
        match NonZeroUsize::new(chars) {
            Some(chars) => Some(CharCount(chars)),
            None => None,
        }
    }

    /// The number of code units.
    pub const fn get(self) -> usize {
        self.0.get()
    }

    /// The size in bytes: four per code unit.
    pub const fn length_bytes(self) -> usize {
        self.0.get() * 4
    }
}

impl fmt::Display for CharCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
