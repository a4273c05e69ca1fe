//! `heaplab report` for games beyond one heap: one folder with the table, the
//! P-positions, the plots and a summary, built and put in place as a one-heap report is
//! ([`crate::report_dir::write_folder`]). The table, plots and rows are those of `table`,
//! `plot` and `losers` ([`crate::cmd_beyond`]).

use crate::beyond_out::{
    draw, rows_fit_on_disk, table_frame, too_many_rows, write_losers, write_rows,
};
use crate::cmd_report::step;
use crate::output::{print_json, secs};
use crate::plots::Plots;
use crate::progress::Progress;
use crate::report_dir::{index_html, paths_in, report_dest, write_folder};
use anyhow::Result;
use heaplab_analysis::{check_beyond, guess_beyond};
use heaplab_core::BeyondGame;
use polars::prelude::*;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// `heaplab report` on a game beyond one heap (its arguments).
#[derive(clap::Args, Debug)]
pub struct BeyondReportArgs {
    /// The game: wythoff, wythoff{a}, vectors{(x,y),…}, pair{…}, fibonacci-nim,
    /// takeaway{r}, put-or-take{squares|triangular}, add-or-divide (see `heaplab games`).
    #[arg(long, short = 'g', value_parser = crate::beyond_out::game_arg, allow_hyphen_values = true)]
    pub game: BeyondGame,
    /// Largest coordinate N (the square and its plots to 4000).
    #[arg(long, short = 'n', value_parser = crate::beyond_out::count_arg, allow_hyphen_values = true)]
    pub max: u64,
    /// Output folder (default `reports/<game>-<N>/`).
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Print one JSON summary on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Largest N whose square (two heaps) or values by state (move memory) a report tabulates
/// and draws: 4001² cells, a pixel a cell.
pub const REPORT_SQUARE_MAX: u64 = 4000;

/// Runs `heaplab report --game G --max N` for a game beyond one heap.
pub fn run(a: BeyondReportArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let (g, max) = (&a.game, a.max);
    let dest = report_dest(a.output.as_deref(), &format!("{}-{max}", g.slug()));
    too_many_rows(g, max)?;
    rows_fit_on_disk(g, max, &dest)?;
    let (facts, files) = write_folder(&dest, |dir| fill(g, max, dir, t0))?;
    if a.json {
        let paths = paths_in(&dest, &files);
        print_json(&json!({
            "game": g.to_string(),
            "structure": g.structure(),
            "max": max,
            "p_positions": facts.losers,
            "max_grundy": facts.max_grundy,
            "summary": facts.lines,
            "files": paths,
            "dir": dest.display().to_string(),
            "seconds": secs(t0),
        }));
    } else {
        println!(
            "{g}: {} P-positions to {max}; report in {} ({:.2} s)",
            facts.losers,
            dest.display(),
            secs(t0)
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// What the report found, for its pages and the closing line.
struct Facts {
    losers: u64,
    max_grundy: Option<u32>,
    lines: Vec<String>,
}

/// Writes the report's files into `dir`.
fn fill(g: &BeyondGame, max: u64, dir: &Path, t0: Instant) -> Result<(Facts, Vec<String>)> {
    let mut timings = vec![];
    let mut files: Vec<String> = vec![];
    let mut plots = Plots {
        drawn: vec![],
        skipped: vec![],
    };
    let mut lines = vec![format!("{g}: {}, to {max}", g.structure())];
    let progress = Progress::new(&format!("report: {g} to {max}"), 0);
    // the table: the square, values by state, or loopy outcomes
    let squared = g.has_grundy_values();
    let mut max_grundy = None;
    if !squared || max <= REPORT_SQUARE_MAX {
        let (df, statement) = step(&mut timings, "table.parquet", || {
            let (df, statement) = table_frame(g, max, None, &progress)?;
            let schema = df.schema().as_ref().clone();
            write_rows(Some(&dir.join("table.parquet")), &schema, &mut |put| {
                put(df.clone())
            })?;
            Ok((df, statement))
        })?;
        files.push("table.parquet".into());
        if let Ok(c) = df.column("grundy") {
            max_grundy = c.u32()?.max();
            if let Some(m) = max_grundy {
                lines.push(format!("largest Grundy value on the table: {m}"));
            }
        }
        if let Ok(c) = df.column("outcome") {
            let names = c.str()?;
            for what in ["win", "loss", "draw", "undecided"] {
                let n = names.iter().filter(|o| *o == Some(what)).count();
                lines.push(format!("{what}: {n} positions"));
            }
        }
        if let Some(s) = statement {
            lines.push(s);
        }
    } else {
        plots.skipped.push(format!(
            "table and heat map: a report tabulates to N = {REPORT_SQUARE_MAX}{}",
            if g.is_two_heap() {
                format!(" (for a long row: `heaplab table --game '{g}' --max {max} --row R`)")
            } else {
                String::new()
            }
        ));
    }
    // the P-positions
    let losers = step(&mut timings, "losers.csv", || {
        write_losers(g, max, Some(&dir.join("losers.csv")), &progress)
    })?;
    files.push("losers.csv".into());
    lines.push(format!("P-positions: {losers} ({})", g.losers_kind()));
    // a Beatty form for the pairs, checked on every row
    if g.is_two_heap() {
        let found = step(&mut timings, "Beatty form", || {
            Ok(match guess_beyond(g, max, &progress)? {
                Some(c) => Some((check_beyond(g, max, &c, &progress)?, c)),
                None => None,
            })
        })?;
        lines.push(match found {
            Some((r, c)) if r.holds() => format!("Beatty form: {c} (holds on all {} rows)", r.rows),
            Some((r, c)) => format!(
                "no Beatty form: the best guess {c} fails on {} of {} rows",
                r.failures, r.rows
            ),
            None => "no Beatty form (b - a = c k, a = floor(k alpha))".into(),
        });
    }
    // plots
    let mut plot = |name: &str, kind: &str, caption: String| -> Result<()> {
        step(&mut timings, name, || {
            draw(g, kind, max, &dir.join(name), &progress)
        })?;
        plots.drawn.push((name.to_string(), caption));
        Ok(())
    };
    if !g.has_grundy_values() {
        plots
            .skipped
            .push("no plots for loopy games: the table holds win, loss, draw".into());
    } else if max <= REPORT_SQUARE_MAX {
        let caption = if g.is_two_heap() {
            "Grundy values of (a, b), P-positions black"
        } else {
            "Grundy values by (heap, allowance), P black"
        };
        plot("square.png", "grundy", caption.into())?;
    }
    if g.is_two_heap() && (g.beatty().is_some() || max <= REPORT_SQUARE_MAX) {
        plot("pairs.png", "pairs", "the P-positions (a, b)".into())?;
    }
    progress.finish();
    files.extend(plots.drawn.iter().map(|p| p.0.clone()));
    let text = lines.join("\n");
    let title = format!("{g}, 0 ≤ n ≤ {max}");
    std::fs::write(
        dir.join("index.html"),
        index_html(&title, &text, &timings, &plots, &files),
    )?;
    let mut md = format!("# heaplab report: {g}\n\n```\n{text}\n```\n\n## Files\n\n");
    for f in &files {
        md.push_str(&format!("- `{f}`\n"));
    }
    for s in &plots.skipped {
        md.push_str(&format!("\n{s}\n"));
    }
    md.push_str("\n## Timings\n\n| step | seconds |\n|---|---|\n");
    for (name, s) in &timings {
        md.push_str(&format!("| {name} | {s:.3} |\n"));
    }
    md.push_str(&format!("| total | {:.3} |\n", secs(t0)));
    std::fs::write(dir.join("summary.md"), md)?;
    files.push("summary.md".into());
    files.push("index.html".into());
    Ok((
        Facts {
            losers,
            max_grundy,
            lines,
        },
        files,
    ))
}
