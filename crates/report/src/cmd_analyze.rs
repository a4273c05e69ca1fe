//! `heaplab analyze`: periodicity, P-positions, gaps, Grundy values and runs of one game.

use crate::analyze;
use crate::frames::stage_frame;
use crate::util::{check_memory, secs};
use crate::{print_json, AnalyzeArgs};
use anyhow::{bail, Context, Result};
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
    // A link, even a dangling one, stands for the folder it names.
    let out = a.output.as_deref().map(crate::util::resolve_links);
    if let Some(dir) = out.as_ref().filter(|d| d.exists() && !d.is_dir()) {
        bail!("`{}` exists and is not a folder", dir.display());
    }
    // Folders made by this run go again if the run fails or is interrupted.
    let made = out
        .as_ref()
        .map(|dir| {
            crate::cleanup::make_dirs(dir)
                .with_context(|| format!("cannot create `{}`", dir.display()))
        })
        .transpose()?;
    let an = analyze::run(&game, max, a.values)?;
    let mut files = vec![];
    if let Some(dir) = &out {
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
        // All tables or none: each is written in full under a temporary name first, and
        // only then are they renamed into place (a failure leaves the folder as it was).
        let mut staged = vec![];
        for (name, mut df) in tables {
            for ext in ["csv", "parquet"] {
                staged.push(stage_frame(&mut df, &dir.join(format!("{name}.{ext}")))?);
            }
        }
        for f in staged {
            files.push(f.commit()?.display().to_string());
        }
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
