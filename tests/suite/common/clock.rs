//! The clock of the hostile-input benchmark (`cargo bench --bench hostile_inputs`): the cases
//! of `bounded_inputs` and `untrusted_arrays` record how long each took, and the benchmark,
//! which includes those modules, reports the times against its targets. The tests themselves
//! bound memory and allocations; a time is never asserted in a test (a loaded machine would
//! fail it), and in the test suite the clock is never started, so nothing is kept.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Whether times are kept: set by the benchmark.
static RUNNING: AtomicBool = AtomicBool::new(false);
/// Every case's time, in the order they ran.
static TIMES: Mutex<Vec<(String, Duration)>> = Mutex::new(Vec::new());

/// Starts keeping the times recorded from now on.
pub(crate) fn start() {
    RUNNING.store(true, Ordering::Relaxed);
}

/// Records that `name` took `took` (kept only once the clock is started).
pub(crate) fn record(name: &str, took: Duration) {
    if RUNNING.load(Ordering::Relaxed) {
        let mut times = TIMES.lock().unwrap_or_else(|poison| poison.into_inner());
        times.push((name.to_owned(), took));
    }
}

/// The times recorded since the last call, slowest first.
pub(crate) fn take() -> Vec<(String, Duration)> {
    let mut times = TIMES.lock().unwrap_or_else(|poison| poison.into_inner());
    let mut taken = std::mem::take(&mut *times);
    taken.sort_by_key(|(_, took)| std::cmp::Reverse(*took));
    taken
}
