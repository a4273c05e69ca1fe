//! `heaplab sweep`: one analysis row per value of a parameter in the game spec
//! ([`heaplab_analysis::sweep`]).

use crate::cli::SweepArgs;
use crate::output::{print_json, secs, write_frame};
use anyhow::{Context, Result};
use heaplab_analysis::{sweep, sweep_frame, SweepRow};
use heaplab_core::{Silent, Space};
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

/// Runs the command.
pub fn run(a: SweepArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let space = Space::parse(&a.game, &a.param)?;
    // Every spec is parsed and every game planned before any work.
    space.games()?;
    if let Some(p) = &a.output {
        crate::output::frame_format(p)?;
        crate::files::AtomicFile::check(p)?;
    }
    let spinner = crate::progress::Spinner::new(format!("sweep of {} games", space.values.len()));
    let rows = sweep(&space, a.max, &crate::machine::budget(), &Silent)?;
    drop(spinner);
    let mut files = vec![];
    if let Some(p) = &a.output {
        let mut df = sweep_frame(&rows, &space.name)?;
        let written = write_frame(&mut df, p).context("writing the sweep")?;
        files.push(written.display().to_string());
    }
    if a.json {
        print_json(&json!({
            "game": space.template,
            "param": space.name,
            "max": a.max,
            "rows": rows.iter().map(|r| row_json(r, &space.name)).collect::<Vec<_>>(),
            "files": files,
            "seconds": secs(t0),
        }));
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{:>8} {:<24} {:>9} {:>7} {:>6} {:>9} {:>11} {:>10}",
        space.name,
        "game",
        "preperiod",
        "period",
        "saltus",
        "certified",
        "P-positions",
        "max_grundy"
    );
    let opt = |x: Option<String>| x.unwrap_or_else(|| "-".into());
    for r in &rows {
        println!(
            "{:>8} {:<24} {:>9} {:>7} {:>6} {:>9} {:>11} {:>10}",
            r.value,
            r.game,
            opt(r.preperiod.map(|x| x.to_string())),
            opt(r.period.map(|x| x.to_string())),
            opt(r.saltus.map(|x| x.to_string())),
            r.certified,
            r.p_positions,
            opt(r.max_grundy.map(|x| x.to_string()))
        );
    }
    if !files.is_empty() {
        println!("wrote {}", files.join(", "));
    }
    Ok(ExitCode::SUCCESS)
}

/// A row as JSON, its value under the parameter's name.
fn row_json(r: &SweepRow, name: &str) -> serde_json::Value {
    let mut v = serde_json::to_value(r).expect("a row serialises");
    let map = v.as_object_mut().expect("a row is an object");
    let value = map.remove("value").expect("a row has its value");
    map.insert(name.to_string(), value);
    v
}
