//! Sparse-space statistics of a take-and-break code: `octal_stats CODE N`.
use heaplab_core::octal::{take_break_grundy, Breaker};
use heaplab_core::Game;
use std::time::Instant;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let n = heaplab_core::num::parse_count(&a[2]).unwrap();
    let br = match Game::parse(&a[1]).unwrap() {
        Game::TakeBreak(c) => Breaker::from_code(&c),
        _ => Breaker::grundy_game(),
    };
    let t = Instant::now();
    let (g, st) = take_break_grundy(&br, n);
    println!(
        "{} N={n} max={} {:?} seconds={:.3}",
        a[1],
        g.iter().max().unwrap(),
        st,
        t.elapsed().as_secs_f64()
    );
}
