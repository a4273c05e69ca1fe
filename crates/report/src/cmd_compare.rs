//! `heaplab compare`: two games' Grundy values or outcomes on 0..=N side by side
//! ([`heaplab_analysis::compare`]).

use crate::cli::CompareArgs;
use crate::output::{print_json, secs};
use crate::progress::Progress;
use anyhow::{bail, Result};
use heaplab_analysis::compare;
use std::process::ExitCode;
use std::time::Instant;

/// Runs the command: exit 0 whether or not the games agree (the answer is the output).
pub fn run(a: CompareArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let [x, y] = &a.game[..] else {
        bail!(
            "compare takes exactly two games (`--game A --game B`), not {}",
            a.game.len()
        );
    };
    let budget = crate::machine::budget();
    let progress = Progress::new(
        &format!("{x} and {y} to {}", a.max),
        a.max.saturating_add(1).saturating_mul(2),
    );
    let c = compare(x, y, a.max, a.values.into(), &budget, &progress)?;
    progress.finish();
    if a.json {
        let mut v = serde_json::to_value(&c)?;
        v["seconds"] = serde_json::json!(secs(t0));
        print_json(&v);
    } else {
        print!("{}", c.text());
    }
    Ok(ExitCode::SUCCESS)
}
