//! The analysis of one game: [`analyze`] computes the sequence with the core engines and
//! returns an [`Analysis`] record — periodicity with its certificate, P-position
//! statistics, gaps, Grundy statistics — that serialises (JSON, Python, a cluster's result
//! rows) and prints ([`Analysis::text`]), with the data it was drawn from
//! ([`AnalysisData`]).

use crate::periodicity::{periodicity, Periodicity};
use crate::stats::{self, GrundySummary};
use crate::Error;
use heaplab_core::{
    grundy_table, outcome_table, plan, Budget, CertRule, Game, GrundyTable, Observer, OutcomeTable,
    Plan, Sequence, Task,
};
use serde::{Deserialize, Serialize};

/// The P-positions of 0..=N in numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PStats {
    /// How many.
    pub count: u64,
    /// The largest.
    pub largest: Option<u64>,
    /// count / (N + 1).
    pub density: f64,
    /// Growth exponent α of the fit count(<= n) ≈ c·n^α.
    pub alpha: Option<f64>,
    /// The constant c of that fit.
    pub c: Option<f64>,
}

/// The largest gap between consecutive P-positions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gaps {
    /// Its length.
    pub max: Option<u64>,
    /// The P-position that ends it (the first such).
    pub max_at: Option<u64>,
}

/// Grundy values in numbers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrundyStats {
    /// The largest value.
    pub max: u32,
    /// The first position of each value (index = value).
    pub first_occurrence: Vec<Option<u64>>,
}

/// The analysis record of one game over 0..=N (the object `heaplab analyze --json` prints).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// The game's canonical spec.
    pub game: String,
    /// N.
    pub max: u64,
    /// The sequence whose periodicity is analysed.
    pub values: Sequence,
    /// Its periodicity, with certificate, if any.
    pub periodicity: Option<Periodicity>,
    /// The P-positions.
    pub p_positions: PStats,
    /// Their largest gap.
    pub gaps: Gaps,
    /// Grundy values (when `values` is `grundy`).
    pub grundy: Option<GrundyStats>,
}

/// An [`Analysis`] with the data it was drawn from.
#[derive(Debug, Clone)]
pub struct AnalysisData {
    /// The record.
    pub analysis: Analysis,
    /// The P-positions, increasing.
    pub ps: Vec<u64>,
    /// The Grundy table (when `values` is `grundy`).
    pub table: Option<GrundyTable>,
    /// The outcome table (when `values` is `outcome`).
    pub outcomes: Option<OutcomeTable>,
    /// First occurrences and frequencies of the Grundy values (when `values` is `grundy`).
    pub grundy: Option<GrundySummary>,
}

/// Largest N analysed in memory.
pub const ANALYSIS_MAX: u64 = (1 << 36) - 1;

/// Analyses positions 0..=max of `game`: computes `values` (Grundy values, or outcomes)
/// with the core engines, after checking the budget for the table plus the analysis's own
/// memory (an `i64` copy of the sequence, its differences and Z-function: 32 bytes a
/// position), and summarises them.
///
/// # Errors
/// [`Error::Core`] with the refusal or a cancellation; N beyond [`ANALYSIS_MAX`].
pub fn analyze(
    game: &Game,
    max: u64,
    values: Sequence,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<AnalysisData, Error> {
    obs.planned(&check(game, max, values, budget)?);
    Ok(analyze_unchecked(game, max, values, obs)?)
}

/// The budget checks of [`analyze`] alone: memory and time of the table and the analysis;
/// the table's plan.
///
/// # Errors
/// As [`analyze`].
pub fn check(game: &Game, max: u64, values: Sequence, budget: &Budget) -> Result<Plan, Error> {
    if max > ANALYSIS_MAX {
        return Err(heaplab_core::Error::TooLarge {
            what: "an analysis in memory (P-position streams need none)",
            n: max,
            limit: ANALYSIS_MAX,
        }
        .into());
    }
    let task = match values {
        Sequence::Grundy => Task::Grundy,
        Sequence::Outcome => Task::Outcomes,
    };
    let p = plan(game, task, max, budget)?;
    budget
        .check_memory(
            || format!("the analysis of {} positions", max + 1),
            p.memory.saturating_add(max.saturating_mul(32)),
        )
        .map_err(heaplab_core::Error::from)?;
    Ok(p)
}

pub(crate) fn analyze_unchecked(
    game: &Game,
    max: u64,
    values: Sequence,
    obs: &dyn Observer,
) -> Result<AnalysisData, heaplab_core::Error> {
    let (seq, ps, table, outcomes) = match values {
        Sequence::Grundy => {
            let g = grundy_table(game, max, obs)?;
            let seq: Vec<i64> = g.to_u32_vec().into_iter().map(i64::from).collect();
            let ps: Vec<u64> = g.outcomes().p_positions().collect();
            (seq, ps, Some(g), None)
        }
        Sequence::Outcome => {
            let o = outcome_table(game, max, obs)?;
            let seq: Vec<i64> = o.bits().iter().by_vals().map(i64::from).collect();
            (seq, o.p_positions().collect(), None, Some(o))
        }
    };
    let per = periodicity(&seq, CertRule::of(game, values));
    drop(seq);
    let p = stats::p_summary(&ps, max);
    let summary = table
        .as_ref()
        .map(|g| stats::grundy_summary(&g.to_u32_vec()));
    let analysis = Analysis {
        game: game.to_string(),
        max,
        values,
        periodicity: per,
        p_positions: PStats {
            count: p.count,
            largest: p.largest,
            density: p.density,
            alpha: p.alpha,
            c: p.c,
        },
        gaps: Gaps {
            max: p.max_gap,
            max_at: p.max_gap_at,
        },
        grundy: summary.as_ref().map(|g| GrundyStats {
            max: g.max,
            first_occurrence: g.first_occurrence.clone(),
        }),
    };
    Ok(AnalysisData {
        analysis,
        ps,
        table,
        outcomes,
        grundy: summary,
    })
}

impl Analysis {
    /// A readable summary (several lines, each ending in a newline).
    pub fn text(&self) -> String {
        let mut s = String::new();
        let what = match self.values {
            Sequence::Grundy => "Grundy values",
            Sequence::Outcome => "outcomes",
        };
        s.push_str(&format!("{} — {what} of 0 ≤ n ≤ {}\n", self.game, self.max));
        match &self.periodicity {
            Some(p) => s.push_str(&format!(
                "  periodicity: preperiod {} (last exception {}), period {}, saltus {}; {}\n",
                p.preperiod,
                p.last_exception.map_or("none".into(), |e| e.to_string()),
                p.period,
                p.saltus,
                p.certificate
            )),
            None => s.push_str("  periodicity: none found (data must reach 2·n0 + 2p)\n"),
        }
        let p = &self.p_positions;
        s.push_str(&format!(
            "  P-positions: {} (density {:.6}), largest {}\n",
            p.count,
            p.density,
            p.largest.map_or("none".into(), |x| x.to_string())
        ));
        if let (Some(a), Some(c)) = (p.alpha, p.c) {
            s.push_str(&format!("  growth: count(≤ n) ≈ {c:.4}·n^{a:.4}\n"));
        }
        if let (Some(g), Some(at)) = (self.gaps.max, self.gaps.max_at) {
            s.push_str(&format!("  largest gap: {g} (ending at P-position {at})\n"));
        }
        if let Some(g) = &self.grundy {
            let firsts: Vec<String> = g
                .first_occurrence
                .iter()
                .take(16)
                .map(|x| x.map_or("-".into(), |v| v.to_string()))
                .collect();
            s.push_str(&format!(
                "  Grundy values: largest {}; first occurrences of 0, 1, 2, …: {}{}\n",
                g.max,
                firsts.join(", "),
                if g.first_occurrence.len() > 16 {
                    ", …"
                } else {
                    ""
                }
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use heaplab_core::Silent;

    #[test]
    fn kayles_is_periodic_from_71_with_period_12() {
        let g = Game::parse("0.77").unwrap();
        let a = analyze(&g, 300, Sequence::Grundy, &Budget::new(1 << 30), &Silent).unwrap();
        let p = a.analysis.periodicity.as_ref().unwrap();
        assert_eq!(
            (p.preperiod, p.period, p.saltus, p.certified),
            (71, 12, 0, true)
        );
        assert_eq!(a.analysis.grundy.as_ref().unwrap().max, 8);
        assert_eq!(a.analysis.p_positions.count, a.ps.len() as u64);
        assert!(a.analysis.text().contains("period 12"));
        // refused, not started, beyond the budget
        let e = analyze(
            &g,
            100_000_000,
            Sequence::Grundy,
            &Budget::new(1 << 20),
            &Silent,
        );
        assert!(matches!(
            e,
            Err(Error::Core(heaplab_core::Error::Refused(_)))
        ));
    }
}
