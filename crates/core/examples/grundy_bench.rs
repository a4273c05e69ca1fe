//! Times a Grundy table: `grundy_bench SPEC N`. Prints N, the largest value, the number of
//! P-positions and seconds. Used by scripts/bench-grundy.sh.
use heaplab_core::{grundy_table, parse_count, Game, Silent};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let spec = args.get(1).map_or("squares", |s| s.as_str());
    let n = parse_count(args.get(2).map_or("1e6", |s| s.as_str())).unwrap();
    let g = Game::parse(spec).unwrap();
    let t = Instant::now();
    let table = grundy_table(&g, n, &Silent).unwrap();
    let secs = t.elapsed().as_secs_f64();
    let zeros = table.outcomes().count_p();
    println!(
        "{spec} N={n} max_grundy={} p_positions={zeros} seconds={secs:.3}",
        table.max_value()
    );
}
