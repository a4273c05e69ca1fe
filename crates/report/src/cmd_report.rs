//! `heaplab report`: one folder with the tables, the P-positions, plots and a summary.
//!
//! The folder is built under a temporary name beside the destination and renamed into place
//! when complete, so an interrupted run never leaves a half-written report.

use crate::frames::{write_table, LoserRows};
use crate::plots::{draw, Data, Kind};
use crate::util::{check_memory, secs, Format};
use crate::{print_json, ReportArgs};
use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use heaplab_core::grundy::grundy_memory_estimate;
use serde_json::json;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// `table.csv` is written only up to this N (it is large and slow beyond).
pub const CSV_TABLE_MAX: u64 = 10_000_000;

fn step<T>(
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

/// Whether `name` is a file a report writes.
fn is_report_file(name: &str) -> bool {
    [
        "table.parquet",
        "table.csv",
        "losers.csv",
        "summary.md",
        "index.html",
    ]
    .contains(&name)
        || Kind::value_variants()
            .iter()
            .any(|k| name.strip_suffix(".png") == Some(k.name()))
}

/// Fails unless `dest` may become the report: missing, empty, or an earlier report (a
/// folder holding `summary.md`) with nothing in it that a report does not write — never any
/// other folder or a file, and never a report folder someone added files to (the new
/// report replaces the folder whole). Checked before the work and again when the report is
/// put in place.
fn check_replaceable(dest: &Path) -> Result<()> {
    if dest.exists() {
        let is_report = dest.join("summary.md").exists();
        let names = dest
            .read_dir()
            .and_then(|d| {
                d.map(|e| e.map(|e| e.file_name()))
                    .collect::<Result<Vec<_>, _>>()
            })
            .with_context(|| format!("cannot read `{}`", dest.display()))?;
        if !is_report && !names.is_empty() {
            bail!(
                "`{}` exists and is not a heaplab report; choose another -o folder",
                dest.display()
            );
        }
        for name in &names {
            let name = name.to_string_lossy();
            if !is_report_file(&name) {
                bail!(
                    "`{}` holds `{name}`, which is not part of a report and would be lost \
                     when the report is replaced; move it away or choose another -o folder",
                    dest.display()
                );
            }
        }
    }
    Ok(())
}

/// Moves the finished temporary folder to `dest`, replacing an earlier report there (see
/// [`check_replaceable`]); a replaced folder's permissions carry over.
fn install(tmp: tempfile::TempDir, dest: &Path) -> Result<()> {
    check_replaceable(dest)?;
    #[cfg(unix)]
    let mode = std::fs::metadata(dest).ok().map(|m| m.permissions());
    if dest.exists() {
        std::fs::remove_dir_all(dest)
            .with_context(|| format!("cannot replace `{}`", dest.display()))?;
    }
    let path = tmp.keep();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(
            &path,
            mode.unwrap_or_else(|| std::fs::Permissions::from_mode(0o755)),
        );
        for entry in std::fs::read_dir(&path)?.flatten() {
            let _ = std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o644));
        }
    }
    std::fs::rename(&path, dest).with_context(|| {
        let _ = std::fs::remove_dir_all(&path);
        format!("cannot write `{}`", dest.display())
    })?;
    Ok(())
}

/// Runs the command.
pub fn run(a: ReportArgs, _quiet: bool) -> Result<ExitCode> {
    let t0 = Instant::now();
    let (game, max) = (a.gm.game.clone(), a.gm.max);
    // a link to a folder (or a dangling one) stands for the folder it names; a trailing
    // `/` is dropped
    let dest = a
        .output
        .as_ref()
        .map(|p| crate::util::resolve_links(&p.components().collect::<PathBuf>()))
        .unwrap_or_else(|| PathBuf::from("reports").join(format!("{}-{}", game.slug(), max)));
    if max >= 1 << 36 {
        bail!(
            "N = {max} is too large for a report (it holds every position); use `heaplab losers`"
        );
    }
    check_memory(
        &format!("a report over {} positions", max + 1),
        grundy_memory_estimate(&game, max) + max / 8 + (64 << 20),
    )?;
    crate::util::check_work(&game, max, true)?;
    check_replaceable(&dest)?;
    let parent = crate::util::folder_of(&dest);
    // Folders made for the report go again if it fails or is interrupted.
    let made = crate::cleanup::make_dirs(&parent)
        .with_context(|| format!("cannot create `{}`", parent.display()))?;
    let tmp = tempfile::Builder::new()
        .prefix(&format!(
            ".{}.",
            dest.file_name()
                .map_or("report".into(), |n| n.to_string_lossy())
        ))
        .tempdir_in(&parent)
        .with_context(|| format!("cannot write in `{}`", parent.display()))?;
    let dir = tmp.path().to_path_buf();
    let _pending = crate::cleanup::Pending::new(dir.clone());

    let mut timings = vec![];
    // Grundy values, P-positions and the analysis in one pass over the game.
    let an = step(&mut timings, "Grundy values and analysis", || {
        crate::analyze::run(&game, max, crate::analyze::Values::Grundy)
    })?;
    let g = an.table.as_ref().expect("Grundy analysis keeps its table");
    let out = g.outcomes();
    let ps = &an.ps;
    let max_g = g.max_value();
    let mut files: Vec<String> = vec![];

    step(&mut timings, "table.parquet", || {
        write_table(
            File::create(dir.join("table.parquet"))?,
            Format::Parquet,
            &out,
            Some(g),
        )
    })?;
    files.push("table.parquet".into());
    if max <= CSV_TABLE_MAX {
        step(&mut timings, "table.csv", || {
            write_table(
                File::create(dir.join("table.csv"))?,
                Format::Csv,
                &out,
                Some(g),
            )
        })?;
        files.push("table.csv".into());
    }
    step(&mut timings, "losers.csv", || {
        let mut rows = LoserRows::new(
            File::create(dir.join("losers.csv"))?,
            Format::Csv,
            0,
            None,
            true,
        )?;
        rows.push(ps)?;
        rows.finish()
    })?;
    files.push("losers.csv".into());

    // Every plot that applies.
    let data = Data {
        game: &game,
        max,
        grundy: Some(g),
        outcome: None,
        ps,
        period: an.periodicity.as_ref().map(|p| p.period),
        fit: an.p.c.zip(an.p.alpha),
    };
    let mut plots = vec![];
    // plots left out, with the reason (said in summary.md and index.html)
    let mut skipped: Vec<String> = vec![];
    step(&mut timings, "plots", || {
        // every kind, in the order declared
        for &kind in Kind::value_variants() {
            // (as `heaplab plot` refuses it; the count of P-positions is drawn from one on)
            if kind == Kind::Gaps && ps.len() < 2 {
                skipped.push(format!(
                    "gaps.png: not drawn, there {} in 0..=N (a gap needs two)",
                    if ps.len() == 1 {
                        "is one P-position"
                    } else {
                        "are no P-positions"
                    }
                ));
                continue;
            }
            let name = format!("{}.png", kind.name());
            draw(kind, &data, &dir.join(&name), None, None, false)?;
            plots.push(name);
        }
        Ok(())
    })?;
    files.extend(plots.iter().cloned());

    let largest = ps.last().copied();
    let mut md = String::new();
    md.push_str(&format!("# {game}, 0 ≤ n ≤ {max}\n\n"));
    md.push_str("| quantity | value |\n|---|---|\n");
    md.push_str(&format!("| game (canonical spec) | `{game}` |\n"));
    md.push_str(&format!("| N | {max} |\n"));
    md.push_str(&format!("| P-positions in 0..=N | {} |\n", ps.len()));
    md.push_str(&format!(
        "| largest P-position | {} |\n",
        largest.map_or("none".into(), |p| p.to_string())
    ));
    md.push_str(&format!("| largest Grundy value | {max_g} |\n\n"));
    md.push_str("## Analysis\n\n```text\n");
    md.push_str(&an.text());
    md.push_str("```\n\n");
    md.push_str("## Timings\n\n| step | seconds |\n|---|---|\n");
    for (name, s) in &timings {
        md.push_str(&format!("| {name} | {s:.3} |\n"));
    }
    md.push_str(&format!("| total | {:.3} |\n\n", secs(t0)));
    md.push_str("## Files\n\n");
    for f in files.iter().chain(["index.html".to_string()].iter()) {
        md.push_str(&format!("- [{f}]({f})\n"));
    }
    for s in &skipped {
        md.push_str(&format!("- {s}\n"));
    }
    std::fs::write(
        dir.join("index.html"),
        index_html(&game, max, &an.text(), &timings, &plots, &skipped, &files),
    )?;
    std::fs::write(dir.join("summary.md"), md)?;
    files.push("summary.md".into());
    files.push("index.html".into());

    let tmp_path = tmp.path().to_path_buf();
    let done: Vec<&Path> = std::iter::once(tmp_path.as_path())
        .chain(made.top())
        .collect();
    crate::cleanup::finishing(&done, || install(tmp, &dest))?;
    made.keep();
    let paths: Vec<String> = files
        .iter()
        .map(|f| dest.join(f).display().to_string())
        .collect();
    if a.json {
        print_json(&json!({
            "game": game.to_string(),
            "max": max,
            "p_positions": ps.len(),
            "periodicity": an.json()["periodicity"],
            "largest_p": largest,
            "max_grundy": max_g,
            "files": paths,
            "dir": dest.display().to_string(),
            "seconds": secs(t0),
        }));
    } else {
        println!(
            "{game}: {} P-positions in 0..={max}, largest Grundy value {max_g}; report in {} ({:.2} s)",
            ps.len(),
            dest.display(),
            secs(t0)
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The report as a page: summary, the plots by relative path, links to the data files.
fn index_html(
    game: &heaplab_core::Game,
    max: u64,
    analysis: &str,
    timings: &[(String, f64)],
    plots: &[String],
    skipped: &[String],
    files: &[String],
) -> String {
    let title = escape(&format!("{game}, 0 ≤ n ≤ {max}"));
    let mut h = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>heaplab: {title}</title>\n\
         <style>body{{font-family:sans-serif;max-width:1250px;margin:2em auto}}img{{max-width:100%;border:1px solid #ddd}}pre{{background:#f6f6f6;padding:1em}}</style>\n\
         </head><body>\n<h1>{title}</h1>\n<h2>Analysis</h2>\n<pre>{}</pre>\n",
        escape(analysis)
    );
    h.push_str("<h2>Plots</h2>\n");
    for p in plots {
        h.push_str(&format!(
            "<figure><img src=\"{p}\" alt=\"{p}\"><figcaption>{p}</figcaption></figure>\n"
        ));
    }
    for s in skipped {
        h.push_str(&format!("<p>{}</p>\n", escape(s)));
    }
    h.push_str("<h2>Data</h2>\n<ul>\n");
    for f in files.iter().filter(|f| !f.ends_with(".png")) {
        h.push_str(&format!("<li><a href=\"{f}\">{f}</a></li>\n"));
    }
    h.push_str(
        "<li><a href=\"summary.md\">summary.md</a></li>\n</ul>\n<h2>Timings</h2>\n<table>\n",
    );
    for (name, s) in timings {
        h.push_str(&format!(
            "<tr><td>{}</td><td>{s:.3} s</td></tr>\n",
            escape(name)
        ));
    }
    h.push_str("</table>\n</body></html>\n");
    h
}
