//! The report folder: what may be replaced by a new report, putting a finished report in
//! place, and its pages (`summary.md`, `index.html`).
//!
//! The folder is built under a temporary name beside the destination and renamed into
//! place when complete, so an interrupted run never leaves a half-written report.

use crate::plots::{Kind, Plots};
use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use std::path::Path;

/// `table.csv` is written only up to this N (it is large and slow beyond).
pub const CSV_TABLE_MAX: u64 = 10_000_000;

/// Whether `name` is a file a report writes.
fn is_report_file(name: &str) -> bool {
    [
        "table.parquet",
        "table.csv",
        "losers.csv",
        "square.png",
        "pairs.png",
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
pub fn check_replaceable(dest: &Path) -> Result<()> {
    if dest.exists() {
        let is_report = dest.join("summary.md").is_file();
        // (name, is a plain file)
        let names = dest
            .read_dir()
            .and_then(|d| {
                d.map(|e| {
                    let e = e?;
                    Ok((e.file_name(), e.file_type()?.is_file()))
                })
                .collect::<Result<Vec<_>, std::io::Error>>()
            })
            .with_context(|| format!("cannot read `{}`", dest.display()))?;
        if !is_report && !names.is_empty() {
            bail!(
                "`{}` exists and is not a heaplab report; choose another -o folder",
                dest.display()
            );
        }
        for (name, file) in &names {
            let name = name.to_string_lossy();
            // a report's name that is a folder (or a link) may hold anything
            if !file || !is_report_file(&name) {
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
/// [`check_replaceable`]); a replaced folder's permissions carry over, a new one gets the
/// umask's.
pub fn install(tmp: tempfile::TempDir, dest: &Path) -> Result<()> {
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
        // (its files were made under the umask; only the temporary folder is private)
        let _ = std::fs::set_permissions(
            &path,
            mode.unwrap_or_else(|| std::fs::Permissions::from_mode(crate::files::new_dir_mode())),
        );
    }
    std::fs::rename(&path, dest).with_context(|| {
        let _ = std::fs::remove_dir_all(&path);
        format!("cannot write `{}`", dest.display())
    })?;
    Ok(())
}

/// The folder a report goes to: `-o DIR` (a link to a folder, or a dangling one, stands
/// for the folder it names; a trailing `/` is dropped), else `reports/<default>`.
pub fn report_dest(output: Option<&Path>, default: &str) -> std::path::PathBuf {
    output
        .map(|p| crate::files::resolve_links(&p.components().collect::<std::path::PathBuf>()))
        .unwrap_or_else(|| std::path::PathBuf::from("reports").join(default))
}

/// The report's files as paths under `dest`, for the JSON summary.
pub fn paths_in(dest: &Path, files: &[String]) -> Vec<String> {
    files
        .iter()
        .map(|f| dest.join(f).display().to_string())
        .collect()
}

/// Builds a report folder: `fill` writes the files into a temporary folder beside `dest`
/// (made with any missing parent folders, all removed again if `fill` fails or the run is
/// interrupted), which then replaces `dest` whole ([`install`]). `dest` must be replaceable
/// ([`check_replaceable`]), checked before any work.
///
/// # Errors
/// `dest` not replaceable or a file; a folder that cannot be made; `fill`'s error.
pub fn write_folder<T>(dest: &Path, fill: impl FnOnce(&Path) -> Result<T>) -> Result<T> {
    if dest.exists() && !dest.is_dir() {
        bail!("`{}` exists and is not a folder", dest.display());
    }
    check_replaceable(dest)?;
    let parent = crate::files::folder_of(dest);
    // Folders made for the report go again if it fails or is interrupted.
    let made = crate::cleanup::make_dirs(&parent)
        .with_context(|| format!("cannot create `{}`", parent.display()))?;
    let tmp = tempfile::Builder::new()
        .prefix(&format!(
            ".{}.",
            crate::files::temp_stem(
                &dest
                    .file_name()
                    .map_or("report".into(), |n| n.to_string_lossy())
            )
        ))
        .tempdir_in(&parent)
        .with_context(|| format!("cannot write in `{}`", parent.display()))?;
    let dir = tmp.path().to_path_buf();
    let _pending = crate::cleanup::Pending::new(dir.clone());
    let out = fill(&dir)?;
    let done: Vec<&Path> = std::iter::once(dir.as_path()).chain(made.top()).collect();
    crate::cleanup::finishing(&done, || install(tmp, dest))?;
    made.keep();
    Ok(out)
}

/// The report's summary page in Markdown: the numbers, the analysis, the timings and the
/// files (with the plots left out and why).
pub fn summary_md(
    game: &heaplab_core::Game,
    max: u64,
    an: &heaplab_analysis::Analysis,
    timings: &[(String, f64)],
    total: f64,
    files: &[String],
    plots: &Plots,
) -> String {
    let skipped = &plots.skipped;
    let p = &an.p_positions;
    let max_g = an.grundy.as_ref().map_or(0, |g| g.max);
    let mut md = String::new();
    md.push_str(&format!("# {game}, 0 ≤ n ≤ {max}\n\n"));
    md.push_str("| quantity | value |\n|---|---|\n");
    md.push_str(&format!("| game (canonical spec) | `{game}` |\n"));
    md.push_str(&format!("| N | {max} |\n"));
    md.push_str(&format!("| P-positions in 0..=N | {} |\n", p.count));
    md.push_str(&format!(
        "| largest P-position | {} |\n",
        p.largest.map_or("none".into(), |p| p.to_string())
    ));
    if an.grundy.is_some() {
        md.push_str(&crate::plot::in_play(
            &format!("| largest Grundy value | {max_g} |\n\n"),
            game.play(),
        ));
    } else {
        md.push('\n');
    }
    md.push_str("## Analysis\n\n```text\n");
    md.push_str(&an.text());
    md.push_str("```\n\n");
    if !plots.drawn.is_empty() {
        md.push_str("## Plots\n\n");
        for (file, caption) in &plots.drawn {
            md.push_str(&format!("![{file}]({file})\n\n{caption}\n\n"));
        }
    }
    md.push_str("## Timings\n\n| step | seconds |\n|---|---|\n");
    for (name, s) in timings {
        md.push_str(&format!("| {name} | {s:.3} |\n"));
    }
    md.push_str(&format!("| total | {total:.3} |\n\n"));
    md.push_str("## Files\n\n");
    for f in files.iter().chain(["index.html".to_string()].iter()) {
        md.push_str(&format!("- [{f}]({f})\n"));
    }
    for s in skipped {
        md.push_str(&format!("- {s}\n"));
    }
    md
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The report as a page: summary, the plots by relative path, links to the data files.
pub fn index_html(
    title: &str,
    analysis: &str,
    timings: &[(String, f64)],
    plots: &Plots,
    files: &[String],
) -> String {
    let skipped = &plots.skipped;
    let title = escape(title);
    let mut h = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>heaplab: {title}</title>\n\
         <style>body{{font-family:sans-serif;max-width:1250px;margin:2em auto}}img{{max-width:100%;border:1px solid #ddd}}pre{{background:#f6f6f6;padding:1em;white-space:pre-wrap;overflow-wrap:anywhere}}figcaption{{margin:.3em 0 1.5em;color:#333}}</style>\n\
         </head><body>\n<h1>{title}</h1>\n<h2>Analysis</h2>\n<pre>{}</pre>\n",
        escape(analysis)
    );
    h.push_str("<h2>Plots</h2>\n");
    for (p, caption) in &plots.drawn {
        h.push_str(&format!(
            "<figure><img src=\"{p}\" alt=\"{p}\"><figcaption><b>{p}</b>: {}</figcaption></figure>\n",
            escape(caption)
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
