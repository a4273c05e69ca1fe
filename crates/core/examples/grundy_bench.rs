//! Times a Grundy table: `grundy_bench SPEC N`. Prints N, the largest value, the number of
//! P-positions and seconds. Used by scripts/bench-grundy.sh.
use heaplab_core::{grundy_table, Game};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let spec = args.get(1).map_or("squares", |s| s.as_str());
    let n = heaplab_core::num::parse_count(args.get(2).map_or("1e6", |s| s.as_str())).unwrap();
    let g = Game::parse(spec).unwrap();
    let t = Instant::now();
    let table = grundy_table(&g, n).unwrap();
    let secs = t.elapsed().as_secs_f64();
    let zeros = (0..=n).filter(|&i| table.get(i) == 0).count();
    println!(
        "{spec} N={n} max_grundy={} p_positions={zeros} seconds={secs:.3}",
        table.max_value()
    );
}
