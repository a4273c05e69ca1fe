//! `heaplab table`: outcome (and Grundy value) of every position.

use crate::frames::write_table;
use crate::util::{check_memory, secs, AtomicFile, Format};
use crate::{print_json, TableArgs};
use anyhow::{bail, Context, Result};
use heaplab_core::{grundy, Game, GrundyTable, OutcomeTable};
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

/// Builds the outcome table and, when asked (or when the family needs it anyway), the Grundy
/// table, after checking that they fit in memory.
pub fn build(
    game: &Game,
    max: u64,
    want_grundy: bool,
) -> Result<(OutcomeTable, Option<GrundyTable>)> {
    let via_grundy = want_grundy || matches!(game, Game::TakeBreak(_) | Game::GrundyGame);
    let bits = max / 8 + 1;
    let need = if via_grundy {
        grundy::grundy_memory_estimate(game, max) + bits
    } else {
        bits + heaplab_core::engine::stream_memory_estimate(game, max)
    };
    if max >= (1u64 << 40) {
        bail!("N = {max} is too large for a table in memory; `heaplab losers` streams P-positions without one");
    }
    check_memory(&format!("a table of {} positions", max as u128 + 1), need)?;
    crate::util::check_work(game, max, via_grundy)?;
    if via_grundy {
        let g = crate::progress::grundy_table(game, max)?;
        let o = g.outcomes();
        Ok((o, want_grundy.then_some(g)))
    } else {
        Ok((crate::progress::outcome_table(game, max)?, None))
    }
}

/// Runs the command.
pub fn run(a: TableArgs, _quiet: bool) -> Result<ExitCode> {
    let t0 = Instant::now();
    let (game, max) = (a.gm.game, a.gm.max);
    // The format (from --format, else the file name, else CSV on stdout), and the
    // destination opened first: a bad path or format fails before any work.
    let format = crate::util::resolve_format(a.format, a.output.as_deref())?;
    if format == Format::Bfile {
        bail!("a b-file holds one sequence; write the table as csv or parquet (b-files of P-positions: `heaplab losers -o FILE.txt`)");
    }
    if format == Format::Parquet && a.output.is_none() && !a.json {
        crate::util::refuse_binary_terminal()?;
    }
    let dest = match &a.output {
        Some(p) => Some((AtomicFile::create(p)?, format)),
        None => None,
    };
    let (out, g) = build(&game, max, a.grundy)?;
    let mut files = vec![];
    match dest {
        Some((file, f)) => {
            write_table(file.file()?, f, &out, g.as_ref()).with_context(|| {
                format!("cannot write `{}`", a.output.as_ref().unwrap().display())
            })?;
            files.push(file.commit()?.display().to_string());
        }
        None if !a.json => {
            write_table(std::io::stdout(), format, &out, g.as_ref())
                .context("cannot write to stdout")?;
        }
        None => {}
    }
    let count = out.count_p();
    let largest = out.p_positions().last();
    let max_g = g.as_ref().map(|g| g.max_value());
    if a.json {
        print_json(&json!({
            "game": game.to_string(),
            "max": max,
            "p_positions": count,
            "largest_p": largest,
            "max_grundy": max_g,
            "files": files,
            "seconds": secs(t0),
        }));
    } else if !files.is_empty() {
        println!(
            "{game}: {count} P-positions in 0..={max} (largest {}){}; wrote {} in {:.2} s",
            largest.map_or("none".into(), |p| p.to_string()),
            max_g.map_or(String::new(), |m| format!(", largest Grundy value {m}")),
            files.join(", "),
            secs(t0)
        );
    }
    Ok(ExitCode::SUCCESS)
}
