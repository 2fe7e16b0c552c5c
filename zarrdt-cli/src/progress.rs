//! A progress line on stderr for long runs of `export` and `import`.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// The least wait between two progress lines.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);
/// How long a run goes before it shows progress on a terminal unasked.
const PROGRESS_AFTER: Duration = Duration::from_secs(1);

/// A progress line on stderr: `\r  exported 123456 / 1000000 records (12 %)`, at most four
/// times a second; on a terminal after the first second unasked, always with `--progress`.
pub(crate) struct Progress {
    verb: &'static str,
    total: Option<u64>,
    forced: bool,
    terminal: bool,
    start: Instant,
    last: Option<Instant>,
    done: u64,
}

impl Progress {
    pub(crate) fn new(forced: bool, verb: &'static str, total: Option<u64>) -> Self {
        Progress {
            verb,
            total,
            forced,
            terminal: std::io::stderr().is_terminal(),
            start: Instant::now(),
            last: None,
            done: 0,
        }
    }

    pub(crate) fn update(&mut self, done: u64) {
        self.done = done;
        let now = Instant::now();
        let due = self.last.is_none_or(|last| now - last >= PROGRESS_EVERY);
        let wanted = self.forced || (self.terminal && now - self.start >= PROGRESS_AFTER);
        if due && wanted {
            self.show();
            self.last = Some(now);
        }
    }

    fn show(&self) {
        let line = match self.total {
            Some(total) if total > 0 => format!(
                "  {} {} / {total} records ({} %)",
                self.verb,
                self.done,
                self.done * 100 / total
            ),
            _ => format!("  {} {} records", self.verb, self.done),
        };
        eprint!("\r{line}");
    }

    /// Ends the line, if one was shown.
    pub(crate) fn finish(&mut self) {
        if self.last.is_some() {
            self.show();
            eprintln!();
        }
    }
}
