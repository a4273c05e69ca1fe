//! `heaplab analyze`: periodicity, P-positions, gaps, Grundy values and runs of one game
//! ([`heaplab_analysis::analyze`]), and with `-o` their tables.

use crate::cli::AnalyzeArgs;
use crate::output::{print_json, secs, stage_frame};
use crate::progress::Progress;
use anyhow::{bail, Context, Result};
use heaplab_analysis::{analyze, gap_histogram, gap_records, residues, runs, AnalysisData};
use polars::prelude::{df, DataFrame};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// Runs the command.
pub fn run(a: AnalyzeArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let (game, max) = (a.gm.played()?, a.gm.max);
    heaplab_analysis::check_analysis(&game, max, a.values.into(), &crate::machine::budget())?;
    // A link, even a dangling one, stands for the folder it names.
    let out = a.output.as_deref().map(crate::files::resolve_links);
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
    let progress = Progress::new(&format!("{game} to {max}"), max.saturating_add(1));
    let data = analyze(
        &game,
        max,
        a.values.into(),
        &heaplab_core::Budget::unlimited(),
        &progress,
    )?;
    progress.finish();
    let mut files = vec![];
    if let Some(dir) = &out {
        files = write_tables(&data, dir)?;
        made.into_iter().for_each(crate::cleanup::MadeDirs::keep);
    }
    if a.json {
        let mut v = serde_json::to_value(&data.analysis)?;
        v["files"] = serde_json::json!(files);
        v["seconds"] = serde_json::json!(secs(t0));
        print_json(&v);
    } else {
        print!("{}", data.analysis.text());
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

/// Every table of the analysis as CSV and Parquet in `dir`: all of them or, on a failure,
/// none (each is written in full under a temporary name first, and only then are they
/// renamed into place).
fn write_tables(data: &AnalysisData, dir: &Path) -> Result<Vec<String>> {
    let mut tables: Vec<(&str, DataFrame)> = vec![
        ("gap_records", gap_records(&data.ps)?),
        ("gap_histogram", gap_histogram(&data.ps)?),
        ("residues", residues(&data.ps, 2..=12)?),
    ];
    if data.analysis.periodicity.is_some() {
        // every exception of the preperiod (the record lists the first 1000)
        tables.push(("exceptions", df!("n" => data.all_exceptions())?));
    }
    if let (Some(g), Some(t)) = (&data.grundy, &data.table) {
        tables.push(("grundy_values", g.frame()?));
        let (hist, longest) = runs(&t.to_u32_vec(), 20)?;
        tables.push(("run_lengths", hist));
        tables.push(("longest_runs", longest));
    }
    let mut staged = vec![];
    for (name, mut df) in tables {
        for ext in ["csv", "parquet"] {
            staged.push(stage_frame(&mut df, &dir.join(format!("{name}.{ext}")))?);
        }
    }
    staged
        .into_iter()
        .map(|f| Ok(f.commit()?.display().to_string()))
        .collect()
}
