//! `heaplab who`: the outcome of one position and one winning move
//! ([`heaplab_core::decide`]).

use crate::cli::WhoArgs;
use crate::output::{print_json, secs};
use crate::progress::Progress;
use anyhow::Result;
use heaplab_core::decide;
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

/// Runs the command.
pub fn run(a: WhoArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let progress = Progress::new(&format!("{} at n = {}", a.game, a.n), a.n.saturating_add(1));
    let d = decide(&a.game, a.n, &crate::machine::budget(), &progress)?;
    progress.finish();
    if a.json {
        let mut v = json!({
            "game": a.game.to_string(),
            "n": a.n,
            "win": d.win,
            "winning_move": d.winning_move.as_ref().map(|m| m.removed),
            "leaves": d.winning_move.as_ref().map(|m| &m.leaves),
            "method": d.method,
            "seconds": secs(t0),
        });
        if let Some(g) = d.grundy {
            v["grundy"] = json!(g);
        }
        print_json(&v);
    } else {
        println!("{} at n = {}: {d}", a.game, a.n);
    }
    Ok(ExitCode::SUCCESS)
}
