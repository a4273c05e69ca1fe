//! `heaplab analyze`: periodicity, P-positions, gaps, Grundy values and runs of one game.

use crate::analyze;
use crate::frames::write_frame;
use crate::util::{check_memory, secs};
use crate::{print_json, AnalyzeArgs};
use anyhow::{Context, Result};
use heaplab_analysis::stats;
use std::process::ExitCode;
use std::time::Instant;

/// Runs the command.
pub fn run(a: AnalyzeArgs, _quiet: bool) -> Result<ExitCode> {
    let t0 = Instant::now();
    let (game, max) = (a.gm.game.clone(), a.gm.max);
    if max >= 1 << 36 {
        anyhow::bail!(
            "N = {max} is too large to analyse in memory; use `heaplab losers` for P-positions"
        );
    }
    check_memory(
        &format!("the analysis of {} positions", max + 1),
        // the table, its i64 copy, differences and the Z-function
        heaplab_core::grundy::grundy_memory_estimate(&game, max) + max * 32,
    )?;
    crate::util::check_work(&game, max, true)?;
    // A folder made by this run goes again if the run fails or is interrupted.
    let made = a
        .output
        .as_ref()
        .map(|dir| {
            crate::cleanup::make_dirs(dir)
                .with_context(|| format!("cannot create `{}`", dir.display()))
        })
        .transpose()?;
    let an = analyze::run(&game, max, a.values)?;
    let mut files = vec![];
    if let Some(dir) = &a.output {
        let mut tables = vec![
            ("gap_records", stats::gap_records(&an.ps)?),
            ("gap_histogram", stats::gap_histogram(&an.ps)?),
            ("residues", stats::residues(&an.ps, 2..=12)?),
        ];
        if let (Some(g), Some(t)) = (&an.grundy, &an.table) {
            tables.push(("grundy_values", g.frame()?));
            let (hist, longest) = stats::runs(&t.to_u32_vec(), 20)?;
            tables.push(("run_lengths", hist));
            tables.push(("longest_runs", longest));
        }
        let mut written = vec![];
        let all = tables.into_iter().try_for_each(|(name, mut df)| {
            for ext in ["csv", "parquet"] {
                written.push(write_frame(&mut df, &dir.join(format!("{name}.{ext}")))?);
            }
            anyhow::Ok(())
        });
        if let Err(e) = all {
            // all tables or none: remove what this run wrote (and the folder it made)
            for p in &written {
                let _ = std::fs::remove_file(p);
            }
            return Err(e);
        }
        files.extend(written.iter().map(|p| p.display().to_string()));
        made.into_iter().for_each(crate::cleanup::MadeDirs::keep);
    }
    if a.json {
        let mut v = an.json();
        v["files"] = serde_json::json!(files);
        v["seconds"] = serde_json::json!(secs(t0));
        print_json(&v);
    } else {
        print!("{}", an.text());
        if !files.is_empty() {
            println!(
                "  wrote {} tables to {}",
                files.len(),
                a.output.unwrap().display()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
