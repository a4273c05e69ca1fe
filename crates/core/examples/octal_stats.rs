//! Sparse-space statistics of a take-and-break code: `octal_stats CODE N` prints the
//! largest value, the mask, the rare positions and the seconds.
use heaplab_core::engines::sparse_space;
use heaplab_core::{parse_count, Breaker, Game, Silent};
use std::time::Instant;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let n = parse_count(&a[2]).unwrap();
    let game = Game::parse(&a[1]).unwrap();
    let br = Breaker::of(&game).expect("a take-and-break game");
    let t = Instant::now();
    let (g, st) = sparse_space(&br, n, &Silent).unwrap();
    println!(
        "{} N={n} max={} {:?} seconds={:.3}",
        a[1],
        g.iter().max().unwrap(),
        st,
        t.elapsed().as_secs_f64()
    );
}
