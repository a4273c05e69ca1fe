//! Who wins one heap, by the fastest path each family has: `cargo run --example decide`.
//!
//! Prints, for a few games and heaps up to 10^18, the outcome, one winning move, the
//! Grundy value when it is known on the way, and how it was found.
use heaplab_core::{decide, Budget, Game, Silent};

fn main() {
    // Let the run plan up to 1 GiB of memory and the default day of work.
    let budget = Budget::new(1 << 30);
    for (spec, n) in [
        ("squares", 100_000u64),                 // sieve up to n
        ("sub{1,3,4}", 1_000_000_000_000),       // proven outcome period
        ("0.77", 1_000_000_000_000_000_000),     // Kayles: Guy–Smith period
        ("sqrt", 1_000_000_000_000_000_000),     // closed form
        ("divisors", 1_000_000_000_000_000_001), // parity argument
        ("grundy-game", 1000),                   // Grundy table up to n
    ] {
        let game = Game::parse(spec).expect("a valid spec");
        match decide(&game, n, &budget, &Silent) {
            Ok(d) => println!("{game} at n = {n}: {d}"),
            Err(e) => println!("{game} at n = {n}: {e}"),
        }
    }
}
