//! Times the P-position stream of one game: `sieve_bench SPEC N [SEGMENT_BITS]` (with
//! SEGMENT_BITS, the squares sieve with that segment length). Prints the count, the largest
//! P-position and seconds. Used by scripts/bench-losers.sh.
use heaplab_core::engines::{SetSieve, SquareMoves};
use heaplab_core::{open_stream, parse_count, Game, Silent};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let spec = args.get(1).map_or("squares", |s| s.as_str());
    let n = parse_count(args.get(2).map_or("1e8", |s| s.as_str())).unwrap();
    let t = Instant::now();
    let mut out = Vec::new();
    let (count, last) = if let Some(seg) = args.get(3) {
        let mut s = SetSieve::new(SquareMoves::new(n), n, false, parse_count(seg).unwrap());
        let mut last = None;
        while s.advance(&mut out) {
            last = out.last().copied().or(last);
            out.clear();
        }
        (s.count(), last)
    } else {
        let mut s = open_stream(&Game::parse(spec).unwrap(), n, &Silent).unwrap();
        while s.advance(&mut out) {
            out.clear();
        }
        (s.count(), s.last())
    };
    println!(
        "{spec} N={n} count={count} largest={} seconds={:.3}",
        last.unwrap_or(0),
        t.elapsed().as_secs_f64()
    );
}
