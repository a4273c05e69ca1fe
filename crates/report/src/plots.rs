//! The plot kinds of `heaplab plot` and `heaplab report`, drawn from tables.

use crate::plot::{bars_png, density_png, fold_png, series_png, ChartSpec};
use anyhow::{bail, Result};
use clap::ValueEnum;
use heaplab_analysis::{run_length_histogram, AnalysisData};
use heaplab_core::{Game, GrundyTable, OutcomeTable};
use std::path::{Path, PathBuf};

/// Plot kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// g(n) against n (per-pixel-column min and max).
    Grundy,
    /// Positions in rows of a width (default the detected period), coloured by value.
    Fold,
    /// P-position gap against index.
    Gaps,
    /// Count of P-positions <= n against n, log-log, with the fitted c·n^α.
    Density,
    /// Histogram of Grundy run lengths.
    Runs,
    /// Frequency of each Grundy value.
    Values,
}

impl Kind {
    /// File stem used by reports.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Grundy => "grundy",
            Kind::Fold => "fold",
            Kind::Gaps => "gaps",
            Kind::Density => "density",
            Kind::Runs => "runs",
            Kind::Values => "values",
        }
    }
    /// Whether the plot needs Grundy values.
    pub fn needs_grundy(self) -> bool {
        matches!(self, Kind::Grundy | Kind::Runs | Kind::Values)
    }
}

/// What a plot is drawn from.
pub struct Data<'a> {
    /// The game.
    pub game: &'a Game,
    /// N.
    pub max: u64,
    /// Grundy values, when computed.
    pub grundy: Option<&'a GrundyTable>,
    /// Outcomes, when no Grundy values are at hand.
    pub outcome: Option<&'a OutcomeTable>,
    /// P-positions.
    pub ps: &'a [u64],
    /// A detected period (fold width default).
    pub period: Option<u64>,
    /// The growth fit (c, α).
    pub fit: Option<(f64, f64)>,
    /// How many positions have each Grundy value (index = value), when computed.
    pub frequency: Option<&'a [u64]>,
}

/// Draws one plot kind into `dest`.
pub fn draw(
    kind: Kind,
    d: &Data,
    dest: &Path,
    width: Option<usize>,
    size: Option<(u32, u32)>,
    log: bool,
) -> Result<PathBuf> {
    let (game, max) = (d.game, d.max);
    let range = format!("0 ≤ n ≤ {max}");
    match kind {
        Kind::Grundy => {
            let Some(g) = d.grundy else {
                bail!("the grundy plot needs Grundy values")
            };
            let spec = ChartSpec::new(
                format!("Grundy values of {game}, {range}"),
                "n (heap size)",
                "Grundy value g(n)",
            )
            .sized(size);
            series_png(
                dest,
                &spec,
                0.0,
                max as usize + 1,
                &|i| g.get(i as u64) as f64,
                false,
            )
        }
        Kind::Fold => {
            let w = width.or(d.period.map(|p| p as usize)).unwrap_or(64);
            let how = if width.is_some() {
                ""
            } else if d.period.is_some() {
                " (the period)"
            } else {
                " (no period found)"
            };
            let spec = ChartSpec::new(
                format!("Fold map of {game}, {range}, rows of {w}{how}"),
                if d.grundy.is_some() {
                    "Grundy value"
                } else {
                    "outcome"
                },
                "n",
            )
            .sized(size);
            let len = max as usize + 1;
            match (d.grundy, d.outcome) {
                (Some(g), _) => {
                    let levels = g.max_value() + 1;
                    fold_png(dest, &spec, len, w, &|i| g.get(i as u64), levels, false)
                }
                (None, Some(o)) => {
                    let win = |i: usize| u32::from(o.is_win(i as u64));
                    fold_png(dest, &spec, len, w, &win, 2, true)
                }
                _ => bail!("the fold plot needs a table"),
            }
        }
        Kind::Gaps => {
            let ps = d.ps;
            if ps.len() < 2 {
                bail!("{game} has fewer than two P-positions in {range}: no gaps to plot");
            }
            let spec = ChartSpec::new(
                format!("P-position gaps of {game}, {range}"),
                "index k of the P-position",
                "gap p(k) − p(k−1)",
            )
            .sized(size);
            let gap = |i: usize| (ps[i + 1] - ps[i]) as f64;
            series_png(dest, &spec, 1.0, ps.len() - 1, &gap, log)
        }
        Kind::Density => {
            let spec = ChartSpec::new(
                format!("P-positions of {game}, {range} (log-log)"),
                "n",
                "number of P-positions ≤ n",
            )
            .sized(size);
            density_png(dest, &spec, d.ps, max, d.fit)
        }
        Kind::Runs => {
            let Some(g) = d.grundy else {
                bail!("the runs plot needs Grundy values")
            };
            let bars = run_length_histogram(&g.to_u32_vec());
            let spec = ChartSpec::new(
                format!("Runs of equal Grundy values of {game}, {range}"),
                "run length",
                "number of runs (log)",
            )
            .sized(size);
            bars_png(dest, &spec, &bars, true)
        }
        Kind::Values => {
            let Some(f) = d.frequency else {
                bail!("the values plot needs Grundy values")
            };
            let bars: Vec<(u64, u64)> = f.iter().enumerate().map(|(v, &c)| (v as u64, c)).collect();
            let spec = ChartSpec::new(
                format!("Frequency of each Grundy value of {game}, {range}"),
                "Grundy value",
                if log { "positions (log)" } else { "positions" },
            )
            .sized(size);
            bars_png(dest, &spec, &bars, log)
        }
    }
}

/// Every plot kind that applies to a report's analysis, into `dir` as `<kind>.png`, in the
/// order declared: the files drawn, and the plots left out with the reason (said in
/// summary.md and index.html).
pub fn draw_all(
    game: &heaplab_core::Game,
    an: &AnalysisData,
    dir: &Path,
) -> Result<(Vec<String>, Vec<String>)> {
    let data = Data {
        game,
        max: an.analysis.max,
        grundy: an.table.as_ref(),
        outcome: None,
        ps: &an.ps,
        period: an.analysis.periodicity.as_ref().map(|p| p.period),
        fit: an.analysis.p_positions.c.zip(an.analysis.p_positions.alpha),
        frequency: an.grundy.as_ref().map(|g| &g.frequency[..]),
    };
    let (mut plots, mut skipped) = (vec![], vec![]);
    for &kind in Kind::value_variants() {
        // (as `heaplab plot` refuses it; the count of P-positions is drawn from one on)
        if kind == Kind::Gaps && an.ps.len() < 2 {
            skipped.push(format!(
                "gaps.png: not drawn, there {} in 0..=N (a gap needs two)",
                if an.ps.len() == 1 {
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
    Ok((plots, skipped))
}
