//! Rate of the per-game window census: `cargo run --release --example window_rate -- 150`
//! (every {a, b, c} with c <= C, normal play, outcomes only).
use heaplab_core::census::games::{game_census, GameCensusOptions};
use heaplab_core::CensusSpace;
use std::time::Instant;

fn main() {
    let c: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(150);
    let grundy = std::env::args().any(|a| a == "--grundy");
    let space = CensusSpace::parse(
        &["sub{a,b,c}".to_string()],
        &[],
        &format!("1 <= a < b < c <= {c}"),
    )
    .expect("a space");
    let t0 = Instant::now();
    let mut rows = 0u64;
    let mut longest = (0u64, vec![]);
    let opts = GameCensusOptions {
        grundy,
        ..GameCensusOptions::default()
    };
    let total = game_census(&space, &opts, &|_| true, &mut |_, r| {
        rows += r.len() as u64;
        for x in &r {
            if let Some(o) = x.outcome {
                if o.preperiod + o.period > longest.0 {
                    longest = (o.preperiod + o.period, x.moves.clone());
                }
            }
        }
        Ok(())
    })
    .expect("a census");
    let s = t0.elapsed().as_secs_f64();
    println!(
        "{total} items, {rows} rows in {s:.2} s ({:.0} games/s); longest {longest:?}",
        rows as f64 / s
    );
}
