//! `heaplab plot`: one PNG of one kind, drawn from an analysis of the game.

use crate::cli::{PlotArgs, Values};
use crate::output::{print_json, secs};
use crate::plots::{draw, Data, Kind};
use crate::progress::Progress;
use anyhow::{bail, Result};
use heaplab_analysis::{analyze, check_analysis};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// `WxH`.
pub fn parse_size(s: &str) -> Result<(u32, u32)> {
    let bad = || anyhow::anyhow!("--size must look like 1200x600, not `{s}`");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let p = |x: &str| x.trim().parse::<u32>().map_err(|_| bad());
    Ok((p(w)?, p(h)?))
}

/// Runs the command.
pub fn run(a: PlotArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let (game, max) = (a.gm.played()?, a.gm.max);
    let size = a.size.as_deref().map(parse_size).transpose()?;
    check_options(&a)?;
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
    crate::files::AtomicFile::check(&dest)?; // a bad path fails before any work
                                             // gaps and density need only the P-positions
    let values = match a.kind {
        k if k.needs_grundy() => Values::Grundy,
        Kind::Fold => a.values.unwrap_or(Values::Grundy),
        _ => Values::Outcome,
    };
    check_analysis(&game, max, values.into(), &crate::machine::budget())?;
    let progress = Progress::new(&format!("{game} to {max}"), max.saturating_add(1));
    let an = analyze(
        &game,
        max,
        values.into(),
        &heaplab_core::Budget::unlimited(),
        &progress,
    )?;
    progress.finish();
    let data = Data::of(&game, &an);
    let t1 = Instant::now();
    // a fold wider than the table is one row of it
    let width = a
        .width
        .map(|w| usize::try_from(w.min(max.saturating_add(1))).unwrap_or(usize::MAX));
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

/// Options that only some kinds use are refused on the others.
fn check_options(a: &PlotArgs) -> Result<()> {
    let kind = a.kind.name();
    if a.width == Some(0) {
        bail!("--width must be at least 1");
    }
    if a.width.is_some() && a.kind != Kind::Fold {
        bail!("--width sets the rows of a fold map; a {kind} plot has none");
    }
    if a.values.is_some() && a.kind != Kind::Fold {
        bail!("--values colours a fold map; a {kind} plot does not take it");
    }
    if a.log && !matches!(a.kind, Kind::Gaps | Kind::Values) {
        bail!("--log applies to the gaps and values plots, not to a {kind} plot");
    }
    Ok(())
}
