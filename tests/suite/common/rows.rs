//! Table-driven checks: every row runs, and the failures are listed together.

use std::panic::{AssertUnwindSafe, catch_unwind};

/// Runs `check` on every row, so that one failing row does not hide the others, then fails
/// listing every row that failed (each row's own message is printed as it fails).
pub(crate) fn run_rows<R>(
    rows: impl IntoIterator<Item = R>,
    label: impl Fn(&R) -> String,
    check: impl Fn(&R),
) {
    let mut failed = Vec::new();
    let mut count = 0;
    for row in rows {
        count += 1;
        if catch_unwind(AssertUnwindSafe(|| check(&row))).is_err() {
            failed.push(label(&row));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {count} rows failed:\n  {}",
        failed.len(),
        failed.join("\n  ")
    );
}
