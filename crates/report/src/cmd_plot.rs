//! `heaplab plot`: one PNG of one kind.

use crate::analyze::{self, Values};
use crate::plots::{draw, Data, Kind};
use crate::util::{check_memory, secs};
use crate::{print_json, PlotArgs};
use anyhow::{bail, Result};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// `WxH`.
pub fn parse_size(s: &str) -> Result<(u32, u32)> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| anyhow::anyhow!("--size must look like 1200x600, not `{s}`"))?;
    let p = |x: &str| {
        x.trim()
            .parse::<u32>()
            .map_err(|_| anyhow::anyhow!("--size must look like 1200x600, not `{s}`"))
    };
    Ok((p(w)?, p(h)?))
}

/// Runs the command.
pub fn run(a: PlotArgs, _quiet: bool) -> Result<ExitCode> {
    let t0 = Instant::now();
    let (game, max) = (a.gm.game.clone(), a.gm.max);
    let size = a.size.as_deref().map(parse_size).transpose()?;
    if a.width == Some(0) {
        bail!("--width must be at least 1");
    }
    // options that only some kinds use
    let kind = a.kind.name();
    if a.width.is_some() && a.kind != Kind::Fold {
        bail!("--width sets the rows of a fold map; a {kind} plot has none");
    }
    if a.values.is_some() && a.kind != Kind::Fold {
        bail!("--values colours a fold map; a {kind} plot does not take it");
    }
    if a.log && !matches!(a.kind, Kind::Gaps | Kind::Values) {
        bail!("--log applies to the gaps and values plots, not to a {kind} plot");
    }
    let dest = a
        .output
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}-{}-{}.png", game.slug(), max, a.kind.name())));
    if !dest
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("png"))
    {
        bail!(
            "plots are PNG files: `{}` should end in .png",
            dest.display()
        );
    }
    crate::util::AtomicFile::check(&dest)?; // a bad path fails before any work
    if max >= 1 << 36 {
        bail!("N = {max} is too large to plot from a table in memory");
    }
    // gaps and density need only the P-positions
    let values = match a.kind {
        k if k.needs_grundy() => Values::Grundy,
        Kind::Fold => a.values.unwrap_or(Values::Grundy),
        _ => Values::Outcome,
    };
    check_memory(
        &format!("the table of {} positions", max + 1),
        heaplab_core::grundy::grundy_memory_estimate(&game, max) + max * 32,
    )?;
    crate::util::check_work(&game, max, true)?;
    let an = analyze::run(&game, max, values)?;
    let outcome = if an.table.is_none() {
        Some(crate::progress::outcome_table(&game, max)?)
    } else {
        None
    };
    let data = Data {
        game: &game,
        max,
        grundy: an.table.as_ref(),
        outcome: outcome.as_ref(),
        ps: &an.ps,
        period: an.periodicity.as_ref().map(|p| p.period),
        fit: an.p.c.zip(an.p.alpha),
    };
    let t1 = Instant::now();
    let width = a.width.map(|w| usize::try_from(w).unwrap_or(usize::MAX));
    let path = draw(a.kind, &data, &dest, width, size, a.log)?;
    let draw_secs = secs(t1);
    if a.json {
        print_json(&json!({
            "game": game.to_string(),
            "max": max,
            "kind": a.kind.name(),
            "files": [path.display().to_string()],
            "draw_seconds": draw_secs,
            "seconds": secs(t0),
        }));
    } else {
        println!(
            "wrote {} ({:.2} s, drawing {:.2} s)",
            path.display(),
            secs(t0),
            draw_secs
        );
    }
    Ok(ExitCode::SUCCESS)
}
