//! The clock of the `timing_` tests: each timed case is recorded, and the test reports its
//! slowest case against the limit, so that a CI log shows the margin, not only a pass.

use std::sync::Mutex;
use std::time::Duration;

/// The slowest case recorded in this process: its time and name.
static SLOWEST: Mutex<Option<(Duration, String)>> = Mutex::new(None);

/// Records that `name` took `took`.
pub(crate) fn record(name: &str, took: Duration) {
    let mut slowest = SLOWEST.lock().unwrap_or_else(|poison| poison.into_inner());
    if slowest.as_ref().is_none_or(|(time, _)| took > *time) {
        *slowest = Some((took, name.to_owned()));
    }
}

/// Prints the slowest case recorded and the limit it was held to (seen with `--nocapture`).
pub(crate) fn report(limit: Duration) {
    let slowest = SLOWEST.lock().unwrap_or_else(|poison| poison.into_inner());
    match &*slowest {
        Some((time, name)) => eprintln!("slowest case: {name}, {time:?} (limit {limit:?})"),
        None => eprintln!("no case was timed"),
    }
}
