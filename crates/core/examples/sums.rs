//! Sums of heaps: `cargo run --example sums`.
//!
//! Decides a sum of heaps of three different games (each heap's Grundy value, their XOR
//! and one winning move), then counts the losing triples a <= b <= c <= 29 of
//! subtract-a-square (Project Euler 310's example: 1160) and of `divisors` up to 10^14.
use heaplab_core::{count_sums, decide_sum, Budget, Game, Silent, Sum};

fn main() {
    let budget = Budget::new(1 << 30);
    let sum = Sum::parse("squares:5 + 0.77:12 + divisors:1e18").expect("a valid sum");
    let d = decide_sum(&sum, &budget, &Silent).expect("every heap has a value");
    for h in &d.heaps {
        let g = h.grundy.expect("a sum of several heaps knows every value");
        println!("{}:{}  Grundy value {g}  [{}]", h.game, h.n, h.method);
    }
    let x = d.grundy.expect("known with every heap's value");
    println!("XOR {x}: {}", if d.win { "win" } else { "lose" });
    if let Some(m) = &d.winning_move {
        println!(
            "winning move in heap {}: {}; leaves {:?}",
            m.heap + 1,
            m.step,
            m.result
        );
    }
    for (spec, max) in [("squares", 29u64), ("divisors", 100_000_000_000_000)] {
        let game = Game::parse(spec).expect("a valid spec");
        let c = count_sums(&game, 3, 0, max, true, &budget, &Silent).expect("a count");
        println!(
            "{spec}: {} of {} triples a <= b <= c <= {max} lose [{}]",
            c.p_positions, c.total, c.method
        );
    }
}
