//! The plot kinds of `heaplab plot` and `heaplab report`, drawn from tables.

use crate::plot::{
    bars_png, density_png, fold_png, growth_png, heat_png, quantiles_png, series_png, ChartSpec,
};
use anyhow::{bail, Result};
use heaplab_analysis::{gap_counts, run_length_histogram, AnalysisData, GrowthFit};
use heaplab_core::{Game, GrundyTable, OutcomeTable};
use std::path::{Path, PathBuf};

/// Plot kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// g(n) against n, each pixel column shaded by the share of its positions at each value.
    Grundy,
    /// The largest Grundy value in 0..=n against n, log-log.
    Growth,
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
    /// g(n) divided by the fitted growth of the largest value: quantiles per pixel column.
    Envelope,
    /// How many gaps between consecutive P-positions have each length (log count).
    GapLengths,
}

impl Kind {
    /// File stem used by reports.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Grundy => "grundy",
            Kind::Growth => "growth",
            Kind::Fold => "fold",
            Kind::Gaps => "gaps",
            Kind::Density => "density",
            Kind::Runs => "runs",
            Kind::Values => "values",
            Kind::Envelope => "envelope",
            Kind::GapLengths => "gap-lengths",
        }
    }
    /// Whether the plot needs Grundy values.
    pub fn needs_grundy(self) -> bool {
        matches!(
            self,
            Kind::Grundy | Kind::Growth | Kind::Runs | Kind::Values | Kind::Envelope
        )
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
    /// Its preperiod (a fold at the period shows it and a few periods after it).
    pub preperiod: Option<u64>,
    /// Its saltus.
    pub saltus: Option<i64>,
    /// The growth fit of the P-position count.
    pub count_fit: Option<&'a GrowthFit>,
    /// The growth fit of the largest Grundy value.
    pub value_fit: Option<&'a GrowthFit>,
    /// How many positions have each Grundy value (index = value), when computed.
    pub frequency: Option<&'a [u64]>,
    /// The run-length histogram of the Grundy values, when already computed.
    pub runs: Option<Vec<(u64, u64)>>,
}

impl<'a> Data<'a> {
    /// What an analysis offers a plot.
    pub fn of(game: &'a Game, an: &'a AnalysisData) -> Data<'a> {
        let per = an.analysis.periodicity.as_ref();
        Data {
            game,
            max: an.analysis.max,
            grundy: an.table.as_ref(),
            outcome: an.outcomes.as_ref(),
            ps: &an.ps,
            period: per.map(|p| p.period),
            preperiod: per.map(|p| p.preperiod),
            saltus: per.map(|p| p.saltus),
            count_fit: an.analysis.p_positions.growth.as_ref(),
            value_fit: an.analysis.grundy.as_ref().and_then(|g| g.growth.as_ref()),
            frequency: an.grundy.as_ref().map(|g| &g.frequency[..]),
            runs: None,
        }
    }
}

/// Runs longer than one that make a runs plot worth drawing.
const RUNS_MIN: u64 = 10;

/// Positions the Grundy plot of a periodic game shows (one pixel column each at the
/// default size).
const GRUNDY_FIRST: u64 = 1000;

/// Periods a fold at the period shows after the preperiod (at least 24 rows in all).
const FOLD_PERIODS: u64 = 8;

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
            // a game periodic with saltus 0 repeats itself: its first positions, one pixel
            // column each, show the values themselves
            let (len, title) = match (d.period, d.preperiod, d.saltus) {
                (Some(p), Some(n0), Some(0)) if max >= GRUNDY_FIRST => (
                    GRUNDY_FIRST as usize,
                    format!(
                        "Grundy values of {game}, 0 ≤ n < {GRUNDY_FIRST} (period {p} from {n0} \
                         on, to N = {max})"
                    ),
                ),
                _ => (
                    max as usize + 1,
                    format!("Grundy values of {game}, {range}"),
                ),
            };
            let spec = ChartSpec::new(
                title,
                "n (heap size)",
                "Grundy value g(n) (shade: share of the column's positions)",
            )
            .sized(size)
            .played(game.play());
            let value = |i: usize| u64::from(g.get(i as u64));
            heat_png(dest, &spec, 0.0, len, &value, u64::from(g.max_value()))
        }
        Kind::Growth => {
            let Some(g) = d.grundy else {
                bail!("the growth plot needs Grundy values")
            };
            let spec = ChartSpec::new(
                format!("Largest Grundy value of {game}, {range} (log-log)"),
                "n",
                "largest g(m) for m ≤ n",
            )
            .sized(size)
            .played(game.play());
            growth_png(
                dest,
                &spec,
                max as usize + 1,
                &|i| g.get(i as u64),
                d.value_fit,
            )
        }
        Kind::Fold => {
            let w = width.or(d.period.map(|p| p as usize)).unwrap_or(64);
            let mut len = max as usize + 1;
            let how = match (width, d.period, d.preperiod) {
                (Some(_), _, _) => String::new(),
                (None, Some(p), Some(n0)) => {
                    // the preperiod and a few periods, in cells large enough to read
                    let rows = (n0.div_ceil(p) + FOLD_PERIODS).max(24);
                    let shown = rows.saturating_mul(p).min(max + 1);
                    len = shown as usize;
                    match (shown <= max, n0) {
                        (true, 0) => format!(
                            " (the period; positions 0..{}, periodic from the start)",
                            shown - 1
                        ),
                        (true, _) => format!(
                            " (the period; positions 0..{}: the preperiod, n0 = {n0}, and after)",
                            shown - 1
                        ),
                        (false, _) => " (the period)".into(),
                    }
                }
                _ => " (no period found)".into(),
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
            .sized(size)
            .played(game.play());
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
            .sized(size)
            .played(game.play());
            if log {
                let gap = |i: usize| (ps[i + 1] - ps[i]) as f64;
                return series_png(dest, &spec, 1.0, ps.len() - 1, &gap, true);
            }
            let gap = |i: usize| ps[i + 1] - ps[i];
            let top = ps.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
            let mut spec = spec;
            spec.y_label = "gap p(k) − p(k−1) (shade: share of the column)".into();
            heat_png(dest, &spec, 1.0, ps.len() - 1, &gap, top)
        }
        Kind::Density => {
            let spec = ChartSpec::new(
                format!("P-positions of {game}, {range} (log-log)"),
                "n",
                "number of P-positions ≤ n",
            )
            .sized(size)
            .played(game.play());
            density_png(dest, &spec, d.ps, max, d.count_fit)
        }
        Kind::Envelope => {
            let (Some(g), Some(f)) = (d.grundy, d.value_fit) else {
                bail!(
                    "the envelope plot needs Grundy values whose largest value keeps growing \
                     (a growth fit needs N >= 1000 and ten new largest values, the last in \
                     the last seven eighths of 0..=N); {game} to {max} has none"
                )
            };
            // from the first n fitted, where the fitted curve is at least 1
            let from = (f.from..=max)
                .find(|&n| f.at(n as f64) >= 1.0)
                .unwrap_or(max);
            let len = (max - from + 1) as usize;
            let ratio = |i: usize| {
                let n = from + i as u64;
                f64::from(g.get(n)) / f.at(n as f64)
            };
            let spec = ChartSpec::new(
                format!("Grundy values of {game} over their fitted envelope, {from} ≤ n ≤ {max}"),
                "n (heap size)",
                "g(n) / fitted largest value",
            )
            .sized(size)
            .played(game.play());
            let guide = format!("1: the fitted largest value {}", f.formula());
            quantiles_png(
                dest,
                &spec,
                from as f64,
                len,
                &ratio,
                (1.0, crate::plot::in_play(&guide, game.play())),
            )
        }
        Kind::GapLengths => {
            let ps = d.ps;
            if ps.len() < 2 {
                bail!("{game} has fewer than two P-positions in {range}: no gaps to count");
            }
            let spec = ChartSpec::new(
                format!("P-position gap lengths of {game}, {range}"),
                "gap p(k) − p(k−1)",
                "number of gaps (log)",
            )
            .sized(size)
            .played(game.play());
            bars_png(dest, &spec, &gap_counts(ps), true)
        }
        Kind::Runs => {
            let Some(g) = d.grundy else {
                bail!("the runs plot needs Grundy values")
            };
            let bars = match &d.runs {
                Some(runs) => runs.clone(),
                None => run_length_histogram(&g.to_u32_vec()),
            };
            let spec = ChartSpec::new(
                format!("Runs of equal Grundy values of {game}, {range}"),
                "run length",
                "number of runs (log)",
            )
            .sized(size)
            .played(game.play());
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
            .sized(size)
            .played(game.play());
            bars_png(dest, &spec, &bars, log)
        }
    }
}

/// One sentence on how to read each plot (index.html and summary.md print it under the
/// plot).
pub fn caption(kind: Kind, d: &Data) -> String {
    crate::plot::in_play(&caption_normal(kind, d), d.game.play())
}

/// [`caption`] in normal play's words.
fn caption_normal(kind: Kind, d: &Data) -> String {
    match kind {
        Kind::Fold => match (d.period, d.preperiod) {
            (Some(p), _) if d.saltus.is_some_and(|s| s != 0) => format!(
                "Fold map at the period {p}: row r holds the positions r·{p} to r·{p} + {}, \
                 coloured by Grundy value; with saltus {}, each row's values are the row \
                 above's plus {}, so colours shift from row to row.",
                p - 1,
                d.saltus.unwrap_or(0),
                d.saltus.unwrap_or(0)
            ),
            (Some(p), Some(0)) => format!(
                "Fold map at the period {p}: row r holds the positions r·{p} to r·{p} + {}, \
                 coloured by Grundy value. The values are periodic from n = 0 (no \
                 exceptions), so every column keeps one colour.",
                p - 1
            ),
            (Some(p), Some(n0)) => format!(
                "Fold map at the period {p}: row r holds the positions r·{p} to r·{p} + {}, \
                 coloured by Grundy value. The preperiod (n < {n0}) is in the first rows; from \
                 n0 on every column keeps one colour, and a cell in the first rows that \
                 breaks its column's colour is an exception.",
                p - 1
            ),
            _ => "Fold map: positions in rows of a fixed width, coloured by value.".into(),
        },
        Kind::Grundy if d.saltus == Some(0) && d.max >= GRUNDY_FIRST => format!(
            "Grundy values of the first {GRUNDY_FIRST} heaps, one pixel column each: the \
             preperiod and then the period repeating (the fold map shows the same at the \
             period's width)."
        ),
        Kind::Grundy => "Grundy values: n across, the value up; each pixel column is shaded by \
                         the share of its positions holding each value (light: a few, dark: \
                         all), so bands are values that keep coming back."
            .into(),
        Kind::Growth => match d.value_fit {
            Some(f) => format!(
                "The largest Grundy value in 0..=n, on log-log axes; each dot is where a new \
                 largest value first appears. The orange line is the law that fits best, the \
                 largest value ≈ {} ({}); {}.",
                f.formula(),
                law_words(f, false),
                f.quality()
            ),
            None => "The largest Grundy value in 0..=n, on log-log axes: a straight line is a \
                     power law; each dot is where a new largest value first appears (no law is \
                     fitted: too few new largest values, or they stop early)."
                .into(),
        },
        Kind::Density => match d.count_fit {
            Some(f) => format!(
                "How many P-positions there are up to n, on log-log axes. The orange line is \
                 the law that fits best, count(≤ n) ≈ {} ({}); {}.",
                f.formula(),
                law_words(f, true),
                f.quality()
            ),
            None => "How many P-positions there are up to n, on log-log axes (no law is \
                     fitted: too few P-positions, or they stop early)."
                .into(),
        },
        Kind::Envelope => format!(
            "Grundy values divided by the fitted growth of the largest value{}, n across: in \
             each pixel column, the value below which 10%, 25%, half, 75% and 90% of its \
             positions lie, and its largest. Level lines mean the values fill the area under \
             their envelope in the same proportions at every n (the median line is where \
             half of them lie); lines that drift show the proportions changing.",
            d.value_fit
                .map_or(String::new(), |f| format!(" ({})", f.formula()))
        ),
        Kind::GapLengths => "How many gaps between consecutive P-positions have each length, on \
                             a log scale: spikes are lengths that recur, regular spacing \
                             between spikes is a residue the P-positions prefer."
            .into(),
        Kind::Gaps => "Gaps between consecutive P-positions against their index k, shaded as \
                       the Grundy plot: bands are gap lengths that recur, spikes are long \
                       stretches without a P-position."
            .into(),
        Kind::Runs => "How many runs of equal consecutive Grundy values have each length \
                       (log scale)."
            .into(),
        Kind::Values => "How many positions have each Grundy value.".into(),
    }
}

/// A fitted law in a few words: `a power law, α = 0.3496`, `exponential P-positions, the
/// k-th ≈ 1.498·2.000^k`, `logarithmic, one more per factor 2.000 of n`.
fn law_words(f: &GrowthFit, count: bool) -> String {
    use heaplab_analysis::Law;
    match (f.law, f.exponential(), f.ratio()) {
        (Law::Logarithmic, Some((c, r)), _) if count => {
            format!("logarithmic: the P-positions grow exponentially, the k-th ≈ {c:.3}·{r:.4}^k")
        }
        (Law::Logarithmic, _, Some(r)) => {
            format!("logarithmic: one more each time n grows by a factor {r:.4}")
        }
        _ => format!("a power law, α = {:.4}", f.alpha),
    }
}

/// Largest Grundy values from which a game without a period shows its values over their
/// fitted envelope (below it the values are few enough to read as bands).
const ENVELOPE_MIN: u32 = 64;

/// Gaps from which a game without a period shows how often each gap length occurs rather
/// than the gaps against their index.
const GAP_LENGTHS_MIN: usize = 100;

/// The plots of a report in the order they are shown, chosen by what the game is, and the
/// plots left out with the reason. A game periodic with saltus 0 leads with the fold map
/// at its period and has no density or growth plot (both are flat: the density is exact
/// and the largest value stops growing); any other leads with the Grundy values, the growth
/// of the largest value and the density of P-positions, and is folded only at a period
/// with saltus. Gaps need two P-positions; runs are drawn only when some run is longer
/// than one (a move of 1 makes consecutive values differ).
///
/// `runs` is the run-length histogram of the Grundy values (None without them).
pub fn choose(an: &AnalysisData, runs: Option<&[(u64, u64)]>) -> (Vec<Kind>, Vec<String>) {
    let per = an.analysis.periodicity.as_ref();
    let flat = per.is_some_and(|p| p.saltus == 0);
    let mut kinds = if flat {
        vec![
            Kind::Fold,
            Kind::Grundy,
            Kind::Gaps,
            Kind::Values,
            Kind::Runs,
        ]
    } else {
        vec![
            Kind::Grundy,
            Kind::Growth,
            Kind::Density,
            Kind::Gaps,
            Kind::Values,
            Kind::Runs,
            Kind::Fold,
        ]
    };
    let mut skipped = vec![];
    if flat {
        let exact = an.analysis.p_positions.exact_density;
        let count = match exact {
            Some([0, _]) => "there are no P-positions in the periodic part".to_string(),
            Some([a, b]) => format!("the P-positions are exactly {a}/{b} of the positions"),
            None => "the count of P-positions grows in proportion to n".into(),
        };
        skipped.push(format!(
            "density.png and growth.png: not drawn, the Grundy values are periodic, so {count} \
             and the largest value stops growing (see the analysis)"
        ));
    }
    if an.analysis.max < 10 && !flat {
        kinds.retain(|&k| !matches!(k, Kind::Growth | Kind::Density));
        skipped.push("growth.png and density.png: not drawn, N is below 10".into());
    }
    if per.is_none() {
        kinds.retain(|&k| k != Kind::Fold);
        skipped.push(
            "fold.png: not drawn, no period was found to fold at (`heaplab plot --kind fold \
             --width W` folds at any width)"
                .into(),
        );
    }
    // without a period, a growing envelope or a long list of gaps hides the structure
    let swap = |kinds: &mut Vec<Kind>, from: Kind, to: Kind| {
        if let Some(k) = kinds.iter_mut().find(|k| **k == from) {
            *k = to;
        }
    };
    let envelope = an.analysis.grundy.as_ref().and_then(|g| {
        g.growth
            .as_ref()
            .filter(|f| f.close() && g.max >= ENVELOPE_MIN)
    });
    if let (None, Some(f), Some(_)) = (per, envelope, &an.table) {
        swap(&mut kinds, Kind::Grundy, Kind::Envelope);
        skipped.push(format!(
            "grundy.png: not drawn, there is no period and the values grow (the largest ≈ \
             {}): they fill the area under that curve as a near-uniform shade, so \
             envelope.png shows them divided by it instead (`heaplab plot --kind grundy` \
             draws them as they are)",
            f.formula()
        ));
    }
    let gaps = an.ps.len().saturating_sub(1);
    if per.is_none() && gaps >= GAP_LENGTHS_MIN {
        swap(&mut kinds, Kind::Gaps, Kind::GapLengths);
        skipped.push(format!(
            "gaps.png: not drawn, there is no period and {gaps} gaps, which against their \
             index are noise, so gap-lengths.png shows how often each gap length occurs \
             instead (`heaplab plot --kind gaps` draws them against their index)"
        ));
    }
    if an.ps.len() < 2 {
        kinds.retain(|&k| k != Kind::Gaps);
        skipped.push(format!(
            "gaps.png: not drawn, there {} in 0..=N (a gap needs two)",
            if an.ps.len() == 1 {
                "is one P-position"
            } else {
                "are no P-positions"
            }
        ));
    }
    if an.table.is_none() {
        kinds.retain(|k| !k.needs_grundy());
        skipped.push(
            "grundy.png, growth.png, values.png and runs.png: not drawn, the game has outcomes \
             only (no Grundy values)"
                .into(),
        );
    }
    // runs longer than one
    let long_runs = runs.map(|h| {
        h.iter()
            .filter(|&&(length, _)| length > 1)
            .map(|&(_, count)| count)
            .sum::<u64>()
    });
    if let Some(k) = long_runs.filter(|&k| k < RUNS_MIN) {
        kinds.retain(|&k| k != Kind::Runs);
        skipped.push(if k == 0 {
            "runs.png: not drawn, every run of equal Grundy values has length 1 (consecutive \
             positions never share a value)"
                .into()
        } else {
            format!(
                "runs.png: not drawn, only {k} run{} of equal Grundy values {} longer than 1 \
                 (`heaplab analyze -o DIR` lists them in longest_runs)",
                if k == 1 { "" } else { "s" },
                if k == 1 { "is" } else { "are" }
            )
        });
    }
    (kinds, skipped)
}

/// Every plot [`choose`] picks for a report's analysis, into `dir` as `<kind>.png`: the
/// files drawn with their captions, and the plots left out with the reason (said in
/// summary.md and index.html).
pub fn draw_all(game: &heaplab_core::Game, an: &AnalysisData, dir: &Path) -> Result<Plots> {
    let mut data = Data::of(game, an);
    // one histogram serves the choice and the runs plot
    data.runs = an
        .table
        .as_ref()
        .map(|t| run_length_histogram(&t.to_u32_vec()));
    let (kinds, skipped) = choose(an, data.runs.as_deref());
    let mut drawn = vec![];
    // rare values (a few exceptions among a million) vanish on a linear axis
    let rare = data.frequency.is_some_and(|f| {
        let most = f.iter().copied().max().unwrap_or(0);
        f.iter().any(|&c| c > 0 && c.saturating_mul(100) < most)
    });
    for kind in kinds {
        let name = format!("{}.png", kind.name());
        let log = kind == Kind::Values && rare;
        draw(kind, &data, &dir.join(&name), None, None, log)?;
        drawn.push((name, caption(kind, &data)));
    }
    Ok(Plots { drawn, skipped })
}

/// The plots of a report.
pub struct Plots {
    /// The files drawn, in order, each with its caption.
    pub drawn: Vec<(String, String)>,
    /// The plots left out, each with the reason.
    pub skipped: Vec<String>,
}
