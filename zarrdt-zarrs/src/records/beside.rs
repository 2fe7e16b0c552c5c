//! The work of every item of a list, and one task more, on all threads: a read's fetch of the
//! next window of units beside the handing over of the window before.
//!
//! Which is queued first decides how the threads share them. An item's work is one thread's
//! from start to end, the task (the handing over) splits itself over whichever threads are
//! free. Where each item is long (a chunk's fetch that decompresses it), the items go first and
//! the threads take up the task as they come free; had the task gone first, one thread would
//! have taken it up, then an item after it, which the others would wait for at the end. Where
//! the items are short (reads of uncompressed chunks or of whole shards), the task goes first
//! and the items run beside it, which was faster there (BENCHMARKS.md, "Units before the
//! handing over"). Items first hold what both windows decoded at once (the two windows a read's
//! memory is bounded by): with the task first, a window's last unit often began only once the
//! window before was handed over, in a buffer it had let go.

use rayon::prelude::*;

/// Which of the items and the task a thread takes up first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum First {
    /// Every item before the task.
    Items,
    /// The task, the items beside it.
    Task,
}

/// `work` on every item of `items`, in parallel, its outputs in the items' order, with `task`
/// run meanwhile, `first` queued first.
pub(crate) fn each_beside<I, O, W, T>(items: &[I], work: W, task: T, first: First) -> Vec<O>
where
    I: Sync,
    O: Send + Default,
    W: Fn(&I) -> O + Sync,
    T: FnOnce() + Send,
{
    match first {
        First::Task => {
            let (outputs, ()) = rayon::join(|| items.par_iter().map(&work).collect(), task);
            outputs
        }
        First::Items => {
            let mut outputs: Vec<O> = items.iter().map(|_| O::default()).collect();
            // A FIFO scope: whichever thread comes free takes the task queued longest.
            rayon::scope_fifo(|scope| {
                for (output, item) in outputs.iter_mut().zip(items) {
                    let work = &work;
                    scope.spawn_fifo(move |_| *output = work(item));
                }
                scope.spawn_fifo(move |_| task());
            });
            outputs
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    use super::*;

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }

    #[test]
    fn outputs_come_in_the_items_order_and_the_task_runs_once() {
        for first in [First::Items, First::Task] {
            for threads in [1, 2, 3] {
                let runs = AtomicUsize::new(0);
                let items: Vec<u64> = (0..37).collect();
                let outputs = pool(threads).install(|| {
                    each_beside(
                        &items,
                        |item| item * item,
                        || {
                            runs.fetch_add(1, Ordering::SeqCst);
                        },
                        first,
                    )
                });
                let squares: Vec<u64> = items.iter().map(|item| item * item).collect();
                assert_eq!(outputs, squares, "{first:?} on {threads} threads");
                assert_eq!(runs.into_inner(), 1, "{first:?} on {threads} threads");
            }
        }
    }

    /// Items first: the task starts only once every item has started. Each item waits for the
    /// other to start (or for the task: had the task gone first, as `rayon::join` has it, the
    /// second thread would have taken it up while the first waited, and it would have seen one
    /// item started).
    #[test]
    fn items_first_are_all_taken_up_before_the_task() {
        let items = [0, 1];
        let started = AtomicUsize::new(0);
        let task_started = AtomicBool::new(false);
        let seen_by_task = AtomicUsize::new(usize::MAX);
        pool(2).install(|| {
            each_beside(
                &items,
                |_| {
                    started.fetch_add(1, Ordering::SeqCst);
                    while !task_started.load(Ordering::SeqCst)
                        && started.load(Ordering::SeqCst) < items.len()
                    {
                        std::hint::spin_loop();
                    }
                },
                || {
                    task_started.store(true, Ordering::SeqCst);
                    seen_by_task.store(started.load(Ordering::SeqCst), Ordering::SeqCst);
                },
                First::Items,
            )
        });
        assert_eq!(seen_by_task.into_inner(), items.len());
    }
}
