//! What the commands on games beyond one heap write: rows to a file or stdout, the table of
//! `table` and the plots of `plot` — shared by those commands ([`crate::cmd_beyond`]) and
//! their report ([`crate::cmd_beyond_report`]).

use crate::output::{resolve_format, Format, RowWriter};
use crate::progress::Progress;
use anyhow::{bail, Result};
use heaplab_analysis::{beyond_frames, rows_frame};
use heaplab_core::beyond::{for_each_rows, grundy_grid, Rows};
use heaplab_core::BeyondGame;
use polars::prelude::*;
use std::path::{Path, PathBuf};

/// A `--game` argument naming a game beyond one heap.
pub(crate) fn game_arg(s: &str) -> Result<BeyondGame, String> {
    BeyondGame::parse(s).map_err(|e| e.to_string())
}

/// A count argument (`1e6`, `10^6`, `1_000`).
pub(crate) fn count_arg(s: &str) -> Result<u64, String> {
    heaplab_core::parse_count(s).map_err(|e| e.to_string())
}

/// Something that takes frames to write.
pub(crate) type Put<'a> = &'a mut dyn FnMut(DataFrame) -> Result<()>;

/// The format of the rows `table` and `losers` write to `output` (CSV on stdout).
///
/// # Errors
/// A name that tells no format, or a b-file (these rows are not one sequence).
fn rows_format(output: Option<&Path>) -> Result<Format> {
    let refuse = || {
        anyhow::anyhow!(
            "`{}`: these rows are written as .csv or .parquet",
            output.map_or("-".into(), |p| p.display().to_string())
        )
    };
    match resolve_format(None, output) {
        Ok(Format::Bfile) | Err(_) => Err(refuse()),
        Ok(format) => Ok(format),
    }
}

/// Fails before any work when the rows cannot go to `output`: a name that tells no
/// format (or a b-file's), or a file that cannot be created there.
pub(crate) fn check_rows_output(output: Option<&Path>) -> Result<()> {
    rows_format(output)?;
    match output {
        Some(p) if !crate::files::is_stdout(p) => crate::files::AtomicFile::check(p),
        _ => Ok(()),
    }
}

/// Writes frames to `-o` (atomically) or stdout as CSV/Parquet.
pub(crate) fn write_rows(
    output: Option<&Path>,
    schema: &Schema,
    fill: &mut dyn FnMut(Put<'_>) -> Result<()>,
) -> Result<u64> {
    let format = rows_format(output)?;
    let mut rows = 0u64;
    match output {
        Some(p) if !crate::files::is_stdout(p) => {
            let file = crate::files::AtomicFile::create(p)?;
            // unbuffered: the batched writer buffers each batch and every write error reaches us
            let mut w = RowWriter::new(file.file()?, format, schema, true)?;
            fill(&mut |df| {
                rows += df.height() as u64;
                w.write(&df)
            })?;
            w.finish()?;
            file.commit()?;
        }
        _ => {
            if format == Format::Parquet {
                crate::output::refuse_binary_terminal()?;
            }
            let out = std::io::stdout();
            let mut w = RowWriter::new(out, format, schema, true)?;
            fill(&mut |df| {
                rows += df.height() as u64;
                w.write(&df)
            })?;
            w.finish()?;
        }
    }
    Ok(rows)
}

/// The table of `table` (and of a report): the Grundy square [0, N]² or rows 0..=R of a
/// two-heap game, values by (heap, allowance) of a move-memory game, or a loopy game's
/// outcomes with the window's statement.
pub(crate) fn table_frame(
    g: &BeyondGame,
    max: u64,
    row: Option<u64>,
    progress: &Progress,
) -> Result<(DataFrame, Option<String>)> {
    if row.is_some() && !g.is_two_heap() {
        bail!("--row is for two-heap games");
    }
    let mut statement = None;
    let df = if g.has_grundy_values() {
        let side = max as u128 + 1;
        memory_for_cells(g, side.saturating_mul(row.map_or(side, |r| r as u128 + 1)))?;
        let grid = grundy_grid(g, max, row, progress)?;
        let t = &grid.rect;
        // `--row r` writes row r alone; sides are at most 20,000: u32 coordinates
        let (mut r, mut c, mut v) = (vec![], vec![], vec![]);
        for x in row.unwrap_or(0)..t.rows {
            for y in (0..t.cols).filter(|&y| grid.is_state(x, y)) {
                r.push(x as u32);
                c.push(y as u32);
                v.push(t.get(x, y));
            }
        }
        df!(grid.row_name => r, grid.col_name => c, "grundy" => v)?
    } else {
        // loopy: one analysis, its rows, and the window's argument on stderr
        let mut all: Option<DataFrame> = None;
        for_each_rows(g, max, false, progress, &mut |rows: Rows<'_>| {
            if let Rows::Outcomes { statement: s, .. } = &rows {
                statement = Some(format!("{g}: {s}"));
            }
            all = Some(rows_frame(rows)?);
            Ok::<(), heaplab_analysis::Error>(())
        })?;
        all.unwrap_or_default()
    };
    Ok((df, statement))
}

/// Draws `kind` (`grundy`: the heat map of the square or of values by state; `pairs`: the
/// P-positions) of `g` to `max` into the PNG `output`.
pub(crate) fn draw(
    g: &BeyondGame,
    kind: &str,
    max: u64,
    output: &Path,
    progress: &Progress,
) -> Result<PathBuf> {
    let spec =
        |t: &str, x: &str, y: &str| crate::plot::ChartSpec::new(t, x, y).sized(Some((900, 900)));
    if !g.has_grundy_values() {
        bail!("{g}: no plot for loopy games (use table: win, loss, draw)");
    }
    let written = if kind != "pairs" {
        if max > 4000 {
            bail!(
                "a heat map of Grundy values to {}: at most 4000 (a pixel a cell)",
                max
            );
        }
        let grid = grundy_grid(g, max, None, progress)?;
        let (rn, cn) = (grid.row_name, grid.col_name);
        crate::plot::square_png(
            output,
            &spec(
                &format!("{g}: Grundy values of ({rn}, {cn}), P-positions black"),
                cn,
                rn,
            ),
            grid.rect.rows,
            grid.rect.cols,
            // allowances beyond the heap are no states: left blank
            &|r, c| {
                if grid.is_state(r, c) {
                    grid.rect.get(r, c)
                } else {
                    crate::plot::NO_VALUE
                }
            },
        )?
    } else if !g.is_two_heap() {
        bail!("{g}: --kind pairs is for two-heap games")
    } else if g.beatty().is_none() {
        // every P-position of the square, as it is (no mirror: the game may not be
        // symmetric)
        let side = max.saturating_add(1);
        memory_for_cells(g, side as u128 * side as u128)?;
        let t = grundy_grid(g, max, None, progress)?.rect;
        let pts: Vec<(u64, u64)> = (0..side)
            .flat_map(|x| (0..side).map(move |y| (x, y)))
            .filter(|&(x, y)| t.get(x, y) == 0)
            .map(|(x, y)| (y, x))
            .collect();
        crate::plot::points_png(
            output,
            &spec(&format!("{g}: P-positions (a, b)"), "b", "a"),
            &pts,
            max,
        )?
    } else {
        if max > 100_000_000 {
            bail!(
                "a plot of the P-pairs to {}: at most 10^8 (about 10^8 points)",
                max
            );
        }
        let mut pts: Vec<(u64, u64)> = vec![];
        beyond_frames(g, max, true, progress, &mut |df| {
            let ca = df.column("a")?.u64()?.clone();
            let cb = df.column("b")?.u64()?.clone();
            // (x, y) = (b, a), as in the heat map
            for (x, y) in ca.into_no_null_iter().zip(cb.into_no_null_iter()) {
                pts.push((y, x));
                pts.push((x, y));
            }
            Ok(())
        })?;
        crate::plot::points_png(
            output,
            &spec(&format!("{g}: P-positions (a, b)"), "b", "a"),
            &pts,
            max,
        )?
    };
    Ok(written)
}

/// Refuses a Grundy table whose memory (about 32 bytes a cell with its output frame) is
/// beyond what this machine has free.
pub(crate) fn memory_for_cells(g: &BeyondGame, cells: u128) -> Result<()> {
    let need = cells.saturating_mul(32);
    let free = crate::machine::available_memory() as u128 / 10 * 8;
    if need > free {
        bail!(
            "{g}: {cells} cells need about {} MB, more than the {} MB free here",
            need >> 20,
            free >> 20
        );
    }
    Ok(())
}

/// Rows a listing or check may stream before it is refused up front (about an hour at the
/// 40 million rows a second measured here).
const MAX_ROWS: u128 = 100_000_000_000;

/// Refuses a two-heap listing or check of more than [`MAX_ROWS`] pairs before any work.
pub(crate) fn too_many_rows(g: &BeyondGame, max: u64) -> Result<()> {
    if let Some(rows) = g.pairs_estimate(max) {
        if rows as u128 > MAX_ROWS {
            bail!(
                "{g} to {max}: about {rows} pairs, more than the {MAX_ROWS} a run streams in \
                 about an hour here (`losers --count` counts them at once)"
            );
        }
    }
    Ok(())
}

/// Refuses, before any work, a listing of P-pairs to a file (`path`) whose CSV would not
/// fit in the free space of its file system (Beatty games, whose pair count is exact: a
/// row is its three numbers and their separators). Other games' listings come from tables
/// that bound them.
pub(crate) fn rows_fit_on_disk(g: &BeyondGame, max: u64, path: &Path) -> Result<()> {
    let (Some(b), Some(free)) = (g.beatty(), crate::machine::free_space(path)) else {
        return Ok(());
    };
    let rows = b.count_upto(max) as u128;
    let digits = |x: u128| x.max(1).ilog10() as u128 + 1;
    let bytes = rows * (digits(rows) + 2 * digits(max as u128) + 3);
    if bytes > free as u128 {
        bail!(
            "{g} to {max}: {rows} pairs take about {} MB as CSV, more than the {} MB free at \
             `{}`",
            bytes >> 20,
            free >> 20,
            path.display()
        );
    }
    Ok(())
}

/// Streams the P-positions of `g` to `max` (the rows of `losers`) to `output` or stdout;
/// the rows written.
pub(crate) fn write_losers(
    g: &BeyondGame,
    max: u64,
    output: Option<&Path>,
    progress: &Progress,
) -> Result<u64> {
    let schema = heaplab_analysis::beyond_schema(g, true);
    write_rows(output, &schema, &mut |put| {
        let mut err: Option<anyhow::Error> = None;
        beyond_frames(g, max, true, progress, &mut |df| {
            if let Err(e) = put(df) {
                err = Some(e);
                return Err(heaplab_analysis::Error::Polars("write failed".into()));
            }
            Ok(())
        })
        .map_err(|e| err.take().unwrap_or_else(|| anyhow::anyhow!(e)))
    })
}
