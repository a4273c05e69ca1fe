//! `heaplab count`: how many positions of k heaps of one game are lost (XOR of the Grundy
//! values 0) and how many are won ([`heaplab_core::count_sums`]).

use crate::cli::CountArgs;
use crate::output::{print_json, secs};
use crate::progress::Progress;
use anyhow::Result;
use heaplab_core::count_sums;
use num_bigint::BigUint;
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

/// Runs the command.
pub fn run(a: CountArgs) -> Result<ExitCode> {
    if a.min > a.max {
        anyhow::bail!(
            "--min {} is above --max {}: no heap sizes to count",
            a.min,
            a.max
        );
    }
    let t0 = Instant::now();
    let plural = if a.heaps == 1 { "heap" } else { "heaps" };
    let what = format!("{} {plural} of {} up to {}", a.heaps, a.game, a.max);
    let progress = Progress::new(&what, a.max.saturating_add(1));
    let c = count_sums(
        &a.game,
        a.heaps,
        a.min,
        a.max,
        a.sorted,
        &crate::machine::budget(),
        &progress,
    )?;
    progress.finish();
    let shown = |x: &BigUint| match a.modulus {
        Some(m) => (x % m).to_string(),
        None => x.to_string(),
    };
    let (p, n, total) = (
        shown(&c.p_positions),
        shown(&c.n_positions),
        shown(&c.total),
    );
    if a.json {
        print_json(&json!({
            "game": a.game.to_string(),
            "heaps": a.heaps,
            "min": a.min,
            "max": a.max,
            "sorted": a.sorted,
            "modulus": a.modulus,
            "p_positions": p,
            "n_positions": n,
            "total": total,
            "max_grundy": c.max_grundy,
            "method": c.method,
            "seconds": secs(t0),
        }));
        return Ok(ExitCode::SUCCESS);
    }
    let kind = if a.heaps == 1 {
        "single heaps".to_string()
    } else if a.sorted {
        format!("multisets of {} heaps", a.heaps)
    } else {
        format!("ordered {}-tuples of heaps", a.heaps)
    };
    let modulo = a.modulus.map(|m| format!(" (mod {m})")).unwrap_or_default();
    let (first, second) = if a.n_positions {
        (
            format!("N-positions (won) {n}"),
            format!("P-positions (lost) {p}"),
        )
    } else {
        (
            format!("P-positions (lost) {p}"),
            format!("N-positions (won) {n}"),
        )
    };
    println!(
        "{}, {kind} from {} to {}: {first}, {second}, of {total}{modulo} [{}]",
        a.game, a.min, a.max, c.method
    );
    Ok(ExitCode::SUCCESS)
}
