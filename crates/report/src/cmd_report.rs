//! `heaplab report`: one folder with the tables, the P-positions, plots and a summary (the
//! folder's rules: [`crate::report_dir`]).

use crate::cli::ReportArgs;
use crate::output::{print_json, secs, write_table, Format, LoserRows};
use crate::plots::draw_all;
use crate::report_dir::{
    index_html, paths_in, report_dest, summary_md, write_folder, CSV_TABLE_MAX,
};
use anyhow::{Context, Result};
use heaplab_analysis::{analyze, check_analysis, AnalysisData};
use heaplab_core::{Budget, Sequence, Silent};
use serde_json::json;
use std::fs::File;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// Runs `f` as the report step `name` (timed, with a spinner; its errors name the step).
pub(crate) fn step<T>(
    timings: &mut Vec<(String, f64)>,
    name: &str,
    f: impl FnOnce() -> Result<T>,
) -> Result<T> {
    let t = Instant::now();
    let _s = crate::progress::Spinner::new(format!("report: {name}"));
    // the step names the file it writes, so a full disk says which one
    let r = f().with_context(|| name.to_string())?;
    timings.push((name.to_string(), secs(t)));
    Ok(r)
}

/// Runs the command.
pub fn run(a: ReportArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let (game, max) = (a.gm.played()?, a.gm.max);
    let dest = report_dest(a.output.as_deref(), &format!("{}-{}", game.slug(), max));
    check_analysis(&game, max, Sequence::Grundy, &crate::machine::budget())?;
    let (an, files) = write_folder(&dest, |dir| {
        let mut timings = vec![];
        // Grundy values, P-positions and the analysis in one pass over the game.
        let an = step(&mut timings, "Grundy values and analysis", || {
            Ok(analyze(
                &game,
                max,
                Sequence::Grundy,
                &Budget::unlimited(),
                &Silent,
            )?)
        })?;
        let mut files = write_tables(&an, dir, &mut timings)?;
        let plots = step(&mut timings, "plots", || draw_all(&game, &an, dir))?;
        files.extend(plots.drawn.iter().map(|p| p.0.clone()));
        let page = index_html(
            &format!("{game}, 0 ≤ n ≤ {max}"),
            &an.analysis.text(),
            &timings,
            &plots,
            &files,
        );
        std::fs::write(dir.join("index.html"), page)?;
        let md = summary_md(&game, max, &an.analysis, &timings, secs(t0), &files, &plots);
        std::fs::write(dir.join("summary.md"), md)?;
        files.push("summary.md".into());
        files.push("index.html".into());
        Ok((an, files))
    })?;
    print_summary(&a, &game, max, &an, &files, &dest, secs(t0))?;
    Ok(ExitCode::SUCCESS)
}

/// What the report holds, for the user: JSON, or one line.
fn print_summary(
    a: &ReportArgs,
    game: &heaplab_core::Game,
    max: u64,
    an: &AnalysisData,
    files: &[String],
    dest: &Path,
    seconds: f64,
) -> Result<()> {
    let (p, max_g) = (
        &an.analysis.p_positions,
        an.analysis.grundy.as_ref().map_or(0, |g| g.max),
    );
    if a.json {
        let paths = paths_in(dest, files);
        print_json(&json!({
            "game": game.to_string(),
            "max": max,
            "p_positions": p.count,
            "periodicity": serde_json::to_value(&an.analysis.periodicity)?,
            "largest_p": p.largest,
            "max_grundy": max_g,
            "files": paths,
            "dir": dest.display().to_string(),
            "seconds": seconds,
        }));
    } else {
        // (games with outcomes only have no Grundy value to state)
        let largest = match &an.grundy {
            Some(_) => format!(", largest Grundy value {max_g}"),
            None => String::new(),
        };
        let line = format!(
            "{game}: {} P-positions in 0..={max}{largest}; report in {} ({seconds:.2} s)",
            p.count,
            dest.display(),
        );
        println!("{}", crate::plot::in_play(&line, game.play()));
    }
    Ok(())
}

/// `table.parquet`, `table.csv` (N up to [`CSV_TABLE_MAX`]) and `losers.csv` in `dir`.
fn write_tables(
    an: &AnalysisData,
    dir: &Path,
    timings: &mut Vec<(String, f64)>,
) -> Result<Vec<String>> {
    // a Grundy table, or the outcomes alone (games without Grundy values: seed( ))
    let (out, g) = match (&an.table, &an.outcomes) {
        (Some(g), _) => (g.outcomes(), Some(g)),
        (None, Some(o)) => (o.clone(), None),
        (None, None) => anyhow::bail!("the analysis of {} kept no table", an.analysis.game),
    };
    let mut files = vec![];
    let mut tables = vec![("table.parquet", Format::Parquet)];
    if an.analysis.max <= CSV_TABLE_MAX {
        tables.push(("table.csv", Format::Csv));
    }
    for (name, format) in tables {
        step(timings, name, || {
            write_table(
                File::create(dir.join(name))?,
                format,
                &out,
                g,
                an.genus.as_ref(),
                &[],
                0,
            )
        })?;
        files.push(name.to_string());
    }
    step(timings, "losers.csv", || {
        let f = File::create(dir.join("losers.csv"))?;
        let mut rows = LoserRows::new(f, Format::Csv, 0, None, true, Default::default())?;
        rows.push(&an.ps)?;
        rows.finish()
    })?;
    files.push("losers.csv".into());
    Ok(files)
}
