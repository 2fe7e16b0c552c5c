//! The memory and the number of allocations a piece of work takes, counted by the suite's
//! global allocator: bounds on work that hold on any machine under any load, where a time
//! limit would not (timings live in `benches/` and in the `timing_` tests `.ci/run` runs on
//! purpose).
//!
//! The counters are the process's, so a test that reads them must be alone in its process:
//! write it inside `rusty_fork::rusty_fork_test! { ... }`, which runs it in a child process of
//! the test binary (with `cargo test` as with `cargo nextest`). Allocations on every thread
//! count, zarrs' parallel chunk work included.

use peak_alloc::PeakAlloc;
use stats_alloc::StatsAlloc;

/// The suite's global allocator: the system's, counting allocations and their bytes
/// (`stats_alloc`) and the peak of live bytes (`peak_alloc`); the `unsafe` lives in those two
/// crates.
pub(crate) type Counting = StatsAlloc<PeakAlloc>;

/// The allocator.
pub(crate) const fn counting() -> Counting {
    StatsAlloc::new(PeakAlloc)
}

/// What a piece of work allocated.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Usage {
    /// The most bytes live at once beyond those live when the work began.
    pub(crate) peak_bytes: usize,
    /// Allocations and reallocations.
    pub(crate) allocations: usize,
    /// Bytes asked for by those allocations, in all.
    pub(crate) allocated_bytes: usize,
}

/// Runs `work` and counts what it allocates (see the module's docs: the calling test must run
/// in its own process).
pub(crate) fn measure<T>(work: impl FnOnce() -> T) -> (T, Usage) {
    let allocator = &crate::ALLOCATOR;
    let before = allocator.stats();
    let live = PeakAlloc.current_usage();
    PeakAlloc.reset_peak_usage();
    let result = work();
    let after = allocator.stats();
    let usage = Usage {
        peak_bytes: PeakAlloc.peak_usage().saturating_sub(live),
        allocations: (after.allocations + after.reallocations)
            - (before.allocations + before.reallocations),
        allocated_bytes: after.bytes_allocated - before.bytes_allocated,
    };
    (result, usage)
}
