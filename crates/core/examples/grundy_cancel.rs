//! A Grundy table with a progress observer that cancels: `cargo run --example grundy_cancel`.
//!
//! Subtract-a-square to 10^9 would take minutes; the observer prints the progress it is
//! told and stops the build after half a second, and the engine returns
//! `Error::Cancelled` with the positions it had decided. A Python Ctrl-C check or a cluster
//! task's time limit is an observer of the same kind.
use heaplab_core::{grundy_table, ControlFlow, Error, Game};
use std::time::{Duration, Instant};

fn main() {
    let squares = Game::parse("squares").expect("a valid spec");
    let start = Instant::now();
    let observer = |done: u64, total: u64| {
        eprintln!("{done} of {total} positions");
        if start.elapsed() > Duration::from_millis(500) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    match grundy_table(&squares, 1_000_000_000, &observer) {
        Err(Error::Cancelled { done }) => println!("cancelled after {done} positions"),
        Err(e) => println!("error: {e}"),
        Ok(t) => println!("finished: largest value {}", t.max_value()),
    }
}
