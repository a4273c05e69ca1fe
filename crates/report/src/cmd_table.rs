//! `heaplab table`: outcome (and Grundy value) of every position
//! ([`heaplab_core::tables`]).

use crate::cli::TableArgs;
use crate::output::{print_json, secs, write_table, AtomicFile, Format};
use crate::progress::Progress;
use anyhow::{bail, Context, Result};
use heaplab_core::{tables, Play};
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

/// Runs the command.
pub fn run(a: TableArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let (game, shown_max) = (a.gm.played()?, a.gm.max);
    let max = crate::output::unshift("--max", shown_max, a.shift)?;
    // The format (from --format, else the file name, else CSV on stdout), and the
    // destination opened first: a bad path or format fails before any work.
    let format = crate::output::resolve_format(a.format.map(Format::from), a.output.as_deref())?;
    if format == Format::Bfile {
        bail!("a b-file holds one sequence; write the table as csv or parquet (b-files of P-positions: `heaplab losers -o FILE.txt`)");
    }
    if a.output.is_none() && !a.json {
        crate::files::check_stdout()?;
        if format == Format::Parquet {
            crate::output::refuse_binary_terminal()?;
        }
    }
    let dest = a.output.as_deref().map(AtomicFile::create).transpose()?;
    let progress = Progress::new(&format!("{game} to {max}"), max.saturating_add(1));
    let budget = crate::machine::budget();
    let (out, g) = tables(&game, max, a.grundy, &budget, &progress)?;
    // misère play of a one-heap game: the genus and phylum of every heap with the values
    let genus = match (game.play(), a.grundy) {
        (Play::Misere, true) => heaplab_core::misere::genera(&game, max, &budget, &progress)?,
        _ => None,
    };
    progress.finish();
    let mut files = vec![];
    match dest {
        Some(file) => {
            write_table(
                file.file()?,
                format,
                &out,
                g.as_ref(),
                genus.as_ref(),
                a.shift,
            )
            .with_context(|| format!("cannot write `{}`", a.output.as_ref().unwrap().display()))?;
            files.push(file.commit()?.display().to_string());
        }
        None if !a.json => {
            write_table(
                std::io::stdout(),
                format,
                &out,
                g.as_ref(),
                genus.as_ref(),
                a.shift,
            )
            .context("cannot write to stdout")?;
        }
        None => {}
    }
    let count = out.count_p();
    let largest = out.last_p().map(|p| p + a.shift);
    let max_g = g.as_ref().map(|g| g.max_value());
    if a.json {
        print_json(&json!({
            "game": game.to_string(),
            "max": shown_max,
            "shift": a.shift,
            "p_positions": count,
            "largest_p": largest,
            "max_grundy": max_g,
            "files": files,
            "seconds": secs(t0),
        }));
    } else if !files.is_empty() {
        let line = format!(
            "{game}: {count} P-positions in {}..={shown_max} (largest {}){}; wrote {} in {:.2} s",
            a.shift,
            largest.map_or("none".into(), |p| p.to_string()),
            max_g.map_or(String::new(), |m| {
                crate::plot::in_play(&format!(", largest Grundy value {m}"), game.play())
            }),
            files.join(", "),
            secs(t0)
        );
        // rows on stdout: the summary goes to stderr
        match a.output.as_deref().is_some_and(crate::files::is_stdout) {
            true if !crate::progress::quiet() => eprintln!("{line}"),
            true => {}
            false => println!("{line}"),
        }
    }
    Ok(ExitCode::SUCCESS)
}
