//! Buffers a read lets go of, for its next decodes: a chunk (or inner chunk) is decoded into
//! the buffer of one handed over before it, not into fresh memory, which the kernel faults in
//! 4 KiB at a time (a 21 MB chunk: 5 100 faults, each zeroing its page). Kept only while the
//! read runs, and only in place of buffers taken: a read that decodes nothing into them (its
//! chunks uncompressed, or decoded by zarrs) keeps none, and one that does keeps no more than
//! it had taken at once, so its memory stays what it decodes at once.

use std::sync::{Mutex, PoisonError};

/// Buffers let go by one read, for its later decodes.
pub(crate) struct SpareBuffers {
    kept: Mutex<Kept>,
    /// The most buffers kept at once; any more are freed.
    most: usize,
}

/// The buffers kept, and how many taken are not given back yet.
#[derive(Default)]
struct Kept {
    buffers: Vec<Vec<u8>>,
    taken: usize,
}

impl SpareBuffers {
    /// Room for `most` buffers.
    pub(crate) fn new(most: usize) -> Self {
        SpareBuffers {
            kept: Mutex::new(Kept::default()),
            most,
        }
    }

    /// A buffer let go before (its bytes whatever they were), or a new empty one.
    pub(crate) fn take(&self) -> Vec<u8> {
        let mut kept = self.lock();
        kept.taken += 1;
        kept.buffers.pop().unwrap_or_default()
    }

    /// Keeps `buffer` for a later decode in place of one taken, unless none taken is
    /// outstanding or as many as the most are kept already (then it is freed).
    pub(crate) fn give(&self, buffer: Vec<u8>) {
        let mut kept = self.lock();
        if kept.taken == 0 {
            return;
        }
        kept.taken -= 1;
        if buffer.capacity() > 0 && kept.buffers.len() < self.most {
            kept.buffers.push(buffer);
        }
    }

    /// The buffers kept (a thread that panicked holding them left them as they are: a
    /// buffer's bytes are never trusted anyway).
    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_at_most_the_most_and_hands_them_back() {
        let spare = SpareBuffers::new(2);
        for _ in 0..3 {
            assert_eq!(spare.take().capacity(), 0);
        }
        spare.give(Vec::new());
        for first in [1, 2, 3] {
            spare.give(vec![first; 8]);
        }
        let kept: Vec<Option<u8>> = (0..3).map(|_| spare.take().first().copied()).collect();
        assert_eq!(
            kept,
            [Some(2), Some(1), None],
            "an empty buffer and the third were not kept"
        );
    }

    #[test]
    fn keeps_nothing_in_place_of_nothing_taken() {
        let spare = SpareBuffers::new(4);
        spare.give(vec![1; 8]);
        assert_eq!(spare.take().capacity(), 0);
        spare.give(vec![2; 8]);
        spare.give(vec![3; 8]);
        assert_eq!(spare.take().first(), Some(&2), "one taken, one kept");
        assert_eq!(spare.take().capacity(), 0);
    }
}
