//! Readers of untrusted table bytes that may panic: arrow-rs 60's IPC readers slice buffers at
//! offsets the file gives without checking some of them (a damaged `.arrow` file panicked in
//! `Buffer::slice`). Their calls run here with the panic caught and reported as an error that
//! names the damage; the program's panic hook stays quiet for them ([`panics_are_caught`]).

use std::any::Any;
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};

thread_local! {
    /// Whether this thread is inside a call of [`guarded`].
    static CATCHING: Cell<bool> = const { Cell::new(false) };
}

/// Whether a panic on this thread now is one the command catches, inside a reader of
/// untrusted table bytes (the program's panic hook then says nothing: the panic becomes the
/// command's error, naming the damaged input).
pub fn panics_are_caught() -> bool {
    CATCHING.with(Cell::get)
}

/// `call`'s result, or, if it panics, what it said as an error (`what` is damaged: …).
pub(crate) fn guarded<T>(what: &str, call: impl FnOnce() -> T) -> Result<T, String> {
    let before = CATCHING.with(|catching| catching.replace(true));
    let result = catch_unwind(AssertUnwindSafe(call));
    CATCHING.with(|catching| catching.set(before));
    result.map_err(|payload| format!("{what} is damaged: {}", said(&*payload)))
}

/// A panic's message.
fn said(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a reader failed on it".to_owned())
}

/// The items of `inner`, each read [`guarded`]: a panic is the last item, an error made by
/// `error` from what it said.
pub(crate) struct Guarded<I, E> {
    inner: Option<I>,
    what: &'static str,
    error: fn(String) -> E,
}

impl<I, E> Guarded<I, E> {
    /// `inner`'s items, read guarded; `what` names the input in the error.
    pub(crate) fn new(inner: I, what: &'static str, error: fn(String) -> E) -> Self {
        Guarded {
            inner: Some(inner),
            what,
            error,
        }
    }
}

impl<T, E, I> Iterator for Guarded<I, E>
where
    I: Iterator<Item = Result<T, E>>,
{
    type Item = Result<T, E>;

    fn next(&mut self) -> Option<Self::Item> {
        let inner = self.inner.as_mut()?;
        match guarded(self.what, || inner.next()) {
            Ok(item) => item,
            Err(damage) => {
                // A reader that panicked is in no state to go on.
                self.inner = None;
                Some(Err((self.error)(damage)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_panic_is_the_last_item_an_error() {
        let items = (0..5).map(|i| {
            assert!(i < 2, "offset {i} beyond the buffer");
            Ok::<i32, String>(i)
        });
        let read: Vec<Result<i32, String>> =
            Guarded::new(items, "the file", |damage| damage).collect();
        assert_eq!(
            read,
            [
                Ok(0),
                Ok(1),
                Err("the file is damaged: offset 2 beyond the buffer".to_owned())
            ]
        );
        assert!(!panics_are_caught());
    }
}
