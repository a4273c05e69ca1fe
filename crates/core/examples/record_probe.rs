//! A record run from the library alone: `record_probe CODE N KEEP` prints the prefix kept,
//! the rare positions, the largest value, the seconds and the peak memory (for trying
//! prefixes before a long `heaplab record` run).
use heaplab_core::record::{record_run, RecordHooks, RecordState};
use heaplab_core::{parse_count, Game, Silent};
use std::time::Instant;

struct Quiet;
impl RecordHooks for Quiet {
    fn passed(&mut self, k: u32, freq: &[u64]) -> Result<(), String> {
        eprintln!("2^{k}: largest value {}", freq.len() - 1);
        Ok(())
    }
    fn save(&mut self, _: &RecordState) -> Result<(), String> {
        Ok(())
    }
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let game = Game::parse(&a[1]).unwrap();
    let n = parse_count(&a[2]).unwrap();
    let keep = parse_count(&a[3]).unwrap();
    let t = Instant::now();
    match record_run(&game, n, keep, None, 1e9, &Silent, &mut Quiet) {
        Ok(r) => println!(
            "{} N={n} keep={} rare={} last_rare={:?} largest={} at {} tail={:?} period={:?} seconds={:.2}",
            a[1],
            r.keep,
            r.rare.len(),
            r.rare.last(),
            r.largest,
            r.largest_at,
            r.tail,
            r.period,
            t.elapsed().as_secs_f64()
        ),
        Err(e) => println!("{} N={n}: {e} seconds={:.2}", a[1], t.elapsed().as_secs_f64()),
    }
}
