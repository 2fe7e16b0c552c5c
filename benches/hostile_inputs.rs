//! How long hostile inputs take: the test suite's bad inputs (`bounded_inputs`) and untrusted
//! arrays through every entry point (`untrusted_arrays`), the same cases the tests run, here
//! timed in a release build and reported against their targets. The tests bound each case's
//! memory and allocations; its time is measured here, never asserted (a loaded machine would
//! fail a timed test).
//!
//! ```sh
//! cargo bench --bench hostile_inputs      # about a minute
//! ```
//!
//! Targets: each bad input within 10 ms (best of three); each untrusted array within a second
//! through each entry point (one run); 100 times the fields of a struct within 1000 times the
//! time (ten times below quadratic; best of three). Work proportional to a size read from the
//! input (up to 2^31 bytes) would take far longer than any of them.

#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

#[path = "../tests/suite/common/mod.rs"]
mod common;

// The test modules, whose tests compile only into the test suite: here their case runners.
#[allow(dead_code, unused_imports)]
#[path = "../tests/suite/bounded_inputs.rs"]
mod bounded_inputs;
#[allow(dead_code, unused_imports)]
#[path = "../tests/suite/untrusted_arrays.rs"]
mod untrusted_arrays;

use common::clock;

#[global_allocator]
static ALLOCATOR: common::meter::Counting = common::meter::counting();

/// The slowest cases a group shows.
const SHOWN: usize = 5;

fn main() {
    clock::start();
    bounded_inputs::bad_input_cases();
    report("bad inputs (best of three)", Duration::from_millis(10));
    untrusted_arrays::run_cases();
    report(
        "untrusted arrays through each entry point",
        Duration::from_secs(1),
    );

    let small = best_of_three(&bounded_inputs::field_count_work(1_000));
    let large = best_of_three(&bounded_inputs::field_count_work(100_000));
    let ratio = large.as_secs_f64() / small.as_secs_f64().max(1e-9);
    println!(
        "\nfields of a struct (parse, fill, encode, decode; best of three): 1k {small:?}, \
         100k {large:?}, ratio {ratio:.0} (target: under 1000) {}",
        verdict(ratio < 1000.0)
    );
}

/// Prints the group's case count, its slowest cases and how many are over `target`.
fn report(group: &str, target: Duration) {
    let times = clock::take();
    let over = times.iter().filter(|(_, took)| *took > target).count();
    println!(
        "\n{group}: {} cases timed, {over} over the target of {target:?} {}",
        times.len(),
        verdict(over == 0)
    );
    for (name, took) in times.iter().take(SHOWN) {
        println!("  {took:>12.3?}  {name}");
    }
}

fn verdict(met: bool) -> &'static str {
    if met { "(met)" } else { "(MISSED)" }
}

/// The time of the best of three runs of `work`.
fn best_of_three(work: &dyn Fn()) -> Duration {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed()
        })
        .min()
        .unwrap()
}
