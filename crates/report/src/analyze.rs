//! Running the analyses of `heaplab-analysis` on a game: `heaplab analyze`, `heaplab sweep`
//! and the summary of `heaplab report` share this.

use anyhow::Result;
use heaplab_analysis::stats::{self, GrundySummary, PSummary};
use heaplab_analysis::{periodicity, CertContext, Periodicity};
use heaplab_core::{Game, GrundyTable, MoveSet, OutcomeTable};
use serde_json::{json, Value};

/// Which sequence the periodicity analysis looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Values {
    /// Grundy values g(n).
    Grundy,
    /// Outcomes (1 for an N-position, 0 for a P-position).
    Outcome,
}

/// What the analysis may know of the rule, for certificates.
pub fn cert_context(game: &Game, values: Values) -> CertContext {
    match game {
        Game::Subtraction {
            set: set @ MoveSet::Union { .. },
            ..
        } => match set.max_finite() {
            Some(k) => CertContext::FiniteSubtraction { largest_move: k },
            None => CertContext::None,
        },
        Game::TakeBreak(code) if values == Values::Grundy && code.max_heaps_left() <= 2 => {
            CertContext::Octal {
                last_digit: code.last_digit() as u64,
            }
        }
        _ => CertContext::None,
    }
}

/// Results of one analysis.
pub struct Analysis {
    /// The game.
    pub game: Game,
    /// N.
    pub max: u64,
    /// The sequence analysed.
    pub values: Values,
    /// Its periodicity, if any.
    pub periodicity: Option<Periodicity>,
    /// P-positions.
    pub ps: Vec<u64>,
    /// Their summary.
    pub p: PSummary,
    /// Grundy summary (values = grundy).
    pub grundy: Option<GrundySummary>,
    /// The Grundy table (values = grundy).
    pub table: Option<GrundyTable>,
}

/// Analyses positions 0..=max of `game` (tables must already fit; callers check memory).
pub fn run(game: &Game, max: u64, values: Values) -> Result<Analysis> {
    let ctx = cert_context(game, values);
    let (seq, ps, table): (Vec<i64>, Vec<u64>, Option<GrundyTable>) = match values {
        Values::Grundy => {
            let g = crate::progress::grundy_table(game, max)?;
            let seq: Vec<i64> = (0..=max).map(|n| g.get(n) as i64).collect();
            let ps: Vec<u64> = (0..=max).filter(|&n| g.get(n) == 0).collect();
            (seq, ps, Some(g))
        }
        Values::Outcome => {
            let o: OutcomeTable = crate::progress::outcome_table(game, max)?;
            let seq: Vec<i64> = o.bits().iter().by_vals().map(i64::from).collect();
            let ps: Vec<u64> = o.p_positions().collect();
            (seq, ps, None)
        }
    };
    let per = periodicity(&seq, ctx);
    let p = stats::p_summary(&ps, max);
    let grundy = table
        .as_ref()
        .map(|g| stats::grundy_summary(&g.to_u32_vec()));
    Ok(Analysis {
        game: game.clone(),
        max,
        values,
        periodicity: per,
        ps,
        p,
        grundy,
        table,
    })
}

impl Analysis {
    /// The JSON object of `heaplab analyze --json` (without timing and files).
    pub fn json(&self) -> Value {
        let per = self.periodicity.as_ref().map(|p| {
            json!({
                "preperiod": p.preperiod,
                "last_exception": p.last_exception,
                "period": p.period,
                "saltus": p.saltus,
                "certified": p.certified,
                "certificate": p.certificate,
                "periods_seen": p.periods_seen,
            })
        });
        json!({
            "game": self.game.to_string(),
            "max": self.max,
            "values": match self.values { Values::Grundy => "grundy", Values::Outcome => "outcome" },
            "periodicity": per,
            "p_positions": {
                "count": self.p.count,
                "largest": self.p.largest,
                "density": self.p.density,
                "alpha": self.p.alpha,
                "c": self.p.c,
            },
            "gaps": { "max": self.p.max_gap, "max_at": self.p.max_gap_at },
            "grundy": self.grundy.as_ref().map(|g| json!({
                "max": g.max,
                "first_occurrence": g.first_occurrence,
            })),
        })
    }

    /// A readable summary (several lines).
    pub fn text(&self) -> String {
        let mut s = String::new();
        let what = match self.values {
            Values::Grundy => "Grundy values",
            Values::Outcome => "outcomes",
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
        s.push_str(&format!(
            "  P-positions: {} (density {:.6}), largest {}\n",
            self.p.count,
            self.p.density,
            self.p.largest.map_or("none".into(), |x| x.to_string())
        ));
        if let (Some(a), Some(c)) = (self.p.alpha, self.p.c) {
            s.push_str(&format!("  growth: count(≤ n) ≈ {c:.4}·n^{a:.4}\n"));
        }
        if let (Some(g), Some(at)) = (self.p.max_gap, self.p.max_gap_at) {
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
