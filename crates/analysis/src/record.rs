//! The analysis of one game: [`analyze`] computes the sequence with the core engines and
//! returns an [`Analysis`] record — periodicity with its certificate, P-position
//! statistics, gaps, Grundy statistics — that serialises (JSON, Python, a cluster's result
//! rows) and prints ([`Analysis::text`]), with the data it was drawn from
//! ([`AnalysisData`]).

use crate::periodicity::{candidate, periodicity, Candidate, Periodicity};
use crate::stats::{self, GrowthFit, GrundySummary, Law};
use crate::Error;
use heaplab_core::{
    grundy_table, outcome_table, plan, Budget, CertRule, Game, GrundyTable, Observer, OutcomeTable,
    Plan, Play, Sequence, Task,
};
use serde::{Deserialize, Serialize};

/// The P-positions of 0..=N in numbers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PStats {
    /// How many.
    pub count: u64,
    /// The largest.
    pub largest: Option<u64>,
    /// count / (N + 1).
    pub density: f64,
    /// Growth exponent α of count(<= n) ≈ c·n^α, when that power law fits best (see
    /// `growth`).
    pub alpha: Option<f64>,
    /// The constant c of that power law.
    pub c: Option<f64>,
    /// The growth of count(<= n): a power law or a logarithmic one (the P-positions
    /// growing exponentially), both fitted, the best chosen by [`GrowthFit`]'s criterion;
    /// None for a periodic sequence (the density is exact), with too few P-positions, or
    /// when they stop early.
    #[serde(default)]
    pub growth: Option<GrowthFit>,
    /// For a periodic sequence (saltus 0): the P-positions in one period of the periodic
    /// part and the period, `[count, period]` (the fit is then left out).
    #[serde(default)]
    pub per_period: Option<[u64; 2]>,
    /// That density as a reduced fraction `[numerator, denominator]` (Dawson's Kayles:
    /// `[5, 34]`); exact for every n when the period is proven.
    #[serde(default)]
    pub exact_density: Option<[u64; 2]>,
}

/// The largest gap between consecutive P-positions.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gaps {
    /// Its length.
    pub max: Option<u64>,
    /// The P-position that ends it (the first such).
    pub max_at: Option<u64>,
}

/// Grundy values in numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GrundyStats {
    /// The largest value.
    pub max: u32,
    /// The first position of each value (index = value).
    pub first_occurrence: Vec<Option<u64>>,
    /// The growth of the largest value up to n ([`crate::value_growth`]): a power law or a
    /// logarithmic one, the best chosen by [`GrowthFit`]'s criterion; None for a sequence
    /// periodic with saltus 0, with too few new largest values, or when they stop early.
    #[serde(default)]
    pub growth: Option<GrowthFit>,
}

/// The genera of a one-heap game's heaps in misère play ([`heaplab_core::misere`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GenusStats {
    /// Periodicity of the sequence of genera (each heap's whole genus g^{γ1γ2…}), with a
    /// certificate where the family's theorem applies (finite subtraction sets: the genus
    /// of n is a function of the genera of n − s, so the window argument holds).
    pub periodicity: Option<Periodicity>,
    /// Heaps by phylum: tame, restive, restless, wild.
    pub phyla: [u64; 4],
    /// The first heap that is not tame.
    pub first_not_tame: Option<u64>,
    /// The genera of heaps 0, 1, 2, … (the first 16).
    pub first: Vec<String>,
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
    /// When no period is accepted: the best candidate seen and the N that would accept or
    /// prove it.
    #[serde(default)]
    pub candidate: Option<Candidate>,
    /// The P-positions.
    pub p_positions: PStats,
    /// Their largest gap.
    pub gaps: Gaps,
    /// Grundy values (when `values` is `grundy`; misère nim-values in misère play).
    pub grundy: Option<GrundyStats>,
    /// Misère play of a one-heap game (with `values` `grundy`): the genera.
    #[serde(default)]
    pub genus: Option<GenusStats>,
    /// Octal take-and-break codes: the sparse-space classification of the Grundy values.
    #[serde(default)]
    pub rare: Option<RareStats>,
    /// Take-and-break codes in normal play with no period accepted: the eventual periods
    /// the P-positions rule out ([`heaplab_core::excluded_periods`], whose doc comment
    /// states and proves the condition).
    #[serde(default)]
    pub excluded_periods: Option<heaplab_core::ExcludedPeriods>,
    /// Misère play of a take-and-break code (either `values`): its misère quotient
    /// ([`heaplab_core::misere::quotient`]).
    #[serde(default)]
    pub quotient: Option<QuotientStats>,
}

/// The misère quotient of a take-and-break game's heaps, as an analysis reports it: built
/// heap by heap to N, or until Φ's period is proved, letting the quotient grow only at
/// heaps up to [`heaplab_core::misere::quotient::QUICK_GROWTH`] within
/// [`ANALYSIS_QUOTIENT_WORK`] search steps (learning is the costly step).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuotientStats {
    /// The largest heap the quotient covers.
    pub heaps: u64,
    /// Its order.
    pub order: usize,
    /// The size of its P-portion.
    pub p_portion: usize,
    /// Φ's period on those heaps.
    pub period: Option<heaplab_core::misere::quotient::QuotientPeriod>,
    /// The quotient is misère Nim's (a tame game).
    pub tame: bool,
    /// Why the quotient stops short of N, when it does.
    pub stopped: Option<String>,
}

/// Certifies the misère outcomes' period seen in the data when the misère quotient's heap
/// map Φ is periodic from n0 with period q, proved: a heap's outcome is its element's
/// P-portion membership, so o(n) = o(n − q) for n ≥ n0 + q. If the data 0..=N show
/// o(n) = o(n − p) for n0' + p ≤ n ≤ N, then for n > N take m = n − k·q in (N − q, N]:
/// o(n) = o(m) = o(m − p) = o(n − p) whenever N − q + 1 − p ≥ n0 and N − q + 1 ≥ n0' + p,
/// so the period (n0', p) holds for every n.
fn certify_by_quotient(a: &mut crate::Analysis, max: u64) {
    let Some(qp) = a
        .quotient
        .as_ref()
        .and_then(|q| q.period)
        .filter(|p| p.proved)
    else {
        return;
    };
    let Some(per) = a
        .periodicity
        .as_mut()
        .filter(|p| !p.certified && p.saltus == 0)
    else {
        return;
    };
    let (n0, q) = (qp.preperiod, qp.period);
    let need = (n0 + q + per.period - 1).max(per.preperiod + per.period + q - 1);
    if max >= need {
        per.certified = true;
        per.certificate = format!(
            "proved by the misère quotient (Φ periodic from heap {n0} with period {q}, \
             proved), with the data to N = {max} >= {need}"
        );
    }
}

/// Search steps the quotient line of an analysis may spend learning growth: an eighth of
/// a quick run's ([`heaplab_core::misere::quotient::QUICK_WORK`]), a few seconds here, so
/// that `analyze --play misere` answers in seconds (0.07's growth at heap 25 spends the
/// quick run's 8·10^6 steps in about 50 s before it is refused); `heaplab quotient
/// --grow-to` goes further.
pub const ANALYSIS_QUOTIENT_WORK: u64 = heaplab_core::misere::quotient::QUICK_WORK / 8;

/// The quotient record of a misère take-and-break game to `max` (None for other games).
fn quotient_stats(
    game: &Game,
    max: u64,
    obs: &dyn Observer,
) -> Result<Option<QuotientStats>, heaplab_core::Error> {
    use heaplab_core::misere::quotient::{quotient_rule, GrowthLimit, QuotientSolver};
    let Ok(br) = quotient_rule(game) else {
        return Ok(None);
    };
    let mut s = QuotientSolver::new(&br);
    s.limit_growth(GrowthLimit {
        work: ANALYSIS_QUOTIENT_WORK,
        ..GrowthLimit::QUICK
    });
    let stopped = match s.solve_until_proved(max, obs) {
        Ok(()) => None,
        Err(heaplab_core::Error::Unsupported { what }) => Some(what),
        Err(e) => return Err(e),
    };
    let q = s.quotient();
    Ok(Some(QuotientStats {
        heaps: q.max(),
        order: q.order(),
        p_portion: q.p_portion().len(),
        period: q.period(),
        tame: q.is_tame(),
        stopped,
    }))
}

/// The rare positions of an octal game's Grundy values under the sparse-space mask that
/// leaves the fewest of them over the second half of the table (Flammenkamp's sparse-space
/// method; [`heaplab_core::engines::rare_summary`]): position n >= 1 is rare when
/// popcount(g(n) & mask) is even (rare class 0) or odd (class 1), the domain type adding the
/// parity of n.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RareStats {
    /// The mask: `range mask 0x…, rare class c` or `domain mask …`.
    pub mask: String,
    /// Rare positions n >= 1 in 0..=N.
    pub count: u64,
    /// The last of them.
    pub last: Option<u64>,
    /// Its Grundy value.
    pub last_value: Option<u32>,
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
    /// The genus table (misère play of a one-heap game, `values` `grundy`).
    pub genus: Option<heaplab_core::misere::GenusTable>,
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
    let p = check(game, max, values, budget)?;
    obs.planned(&p);
    Ok(analyze_unchecked(game, max, values, obs)?)
}

/// The budget checks of [`analyze`] alone: memory and time of the table and the analysis;
/// the table's plan.
///
/// # Errors
/// As [`analyze`].
pub fn check(game: &Game, max: u64, values: Sequence, budget: &Budget) -> Result<Plan, Error> {
    let values = sequence_of(game, values);
    within_limit(max)?;
    let task = match values {
        Sequence::Grundy => Task::Grundy,
        Sequence::Outcome => Task::Outcomes,
    };
    // the table's plan and the analysis' own 32 bytes a position, together in memory
    let fits = |p: &Plan| {
        budget.check_memory(
            || format!("the analysis of {} positions", max + 1),
            p.memory.saturating_add(max.saturating_mul(32)),
        )
    };
    let p = match plan(game, task, max, budget) {
        // misère values beyond the forms' reach, while the outcomes fit (the quotient's)
        Err(e)
            if task == Task::Grundy
                && game.play() == Play::Misere
                && plan(game, Task::Outcomes, max, budget).is_ok_and(|op| fits(&op).is_ok()) =>
        {
            return Err(heaplab_core::Error::Unsupported {
                what: format!(
                    "{e}; `--values outcome` analyses this game's misère outcomes to \
                     N = {max}"
                ),
            }
            .into())
        }
        r => r?,
    };
    fits(&p).map_err(heaplab_core::Error::from)?;
    Ok(p)
}

/// N within [`ANALYSIS_MAX`], or the refusal.
fn within_limit(max: u64) -> Result<(), Error> {
    if max > ANALYSIS_MAX {
        return Err(heaplab_core::Error::TooLarge {
            what: "an analysis in memory (`losers` streams P-positions without one)",
            n: max,
            limit: ANALYSIS_MAX,
        }
        .into());
    }
    Ok(())
}

/// The sequence analysed: `values`, except that games with outcomes only (`seed( )`) are
/// analysed by their outcomes.
fn sequence_of(game: &Game, values: Sequence) -> Sequence {
    if game.has_grundy_values() {
        values
    } else {
        Sequence::Outcome
    }
}

pub(crate) fn analyze_unchecked(
    game: &Game,
    max: u64,
    values: Sequence,
    obs: &dyn Observer,
) -> Result<AnalysisData, heaplab_core::Error> {
    let values = sequence_of(game, values);
    let mut data = AnalysisData::empty(game.to_string(), max, values);
    match values {
        Sequence::Grundy => {
            let g = grundy_table(game, max, obs)?;
            data.ps = g.outcomes().p_positions().collect();
            data.table = Some(g);
        }
        Sequence::Outcome => {
            let o = outcome_table(game, max, obs)?;
            data.ps = o.p_positions().collect();
            data.outcomes = Some(o);
        }
    }
    summarise(&mut data, CertRule::of(game, values), Some(game));
    if game.play() == Play::Misere {
        if values == Sequence::Grundy {
            data.genus = heaplab_core::misere::genera(game, max, &Budget::unlimited(), obs)?;
            data.analysis.genus = data.genus.as_ref().map(|t| genus_stats(game, t));
        }
        if game.moves_of(0).is_none() {
            data.analysis.quotient = quotient_stats(game, max, obs)?;
            if values == Sequence::Outcome {
                certify_by_quotient(&mut data.analysis, max);
            }
        }
    }
    Ok(data)
}

/// The analysis of a Grundy table computed elsewhere — the values of a rule of your own
/// ([`heaplab_core::Rule`], [`heaplab_core::grundy_table_of`]) — under the name `name`:
/// periodicity (certified when `rule` proves it; [`CertRule::None`]: observed), P-positions,
/// gaps and Grundy statistics, as [`analyze`] gives them for a spec.
///
/// # Errors
/// [`Error::Core`] past [`ANALYSIS_MAX`].
pub fn analyze_table(
    name: &str,
    table: GrundyTable,
    rule: CertRule,
) -> Result<AnalysisData, Error> {
    let max = table.max();
    within_limit(max)?;
    let mut data = AnalysisData::empty(name.to_string(), max, Sequence::Grundy);
    data.ps = table.outcomes().p_positions().collect();
    data.table = Some(table);
    summarise(&mut data, rule, None);
    Ok(data)
}

/// Everything [`analyze`] derives from the sequence in `data` (its table or outcomes and
/// P-positions): periodicity under `rule`, P-position and gap statistics, Grundy summary.
fn summarise(data: &mut AnalysisData, rule: CertRule, game: Option<&Game>) {
    let max = data.analysis.max;
    let seq = data.values_i64();
    let per = periodicity(&seq, rule);
    let cand = match per {
        Some(_) => None,
        None => candidate(&seq, rule),
    };
    // P-positions per period: zeros (Grundy value 0, or outcome 0) in one period
    let per_period = per.as_ref().filter(|p| p.saltus == 0).map(|p| {
        let from = p.preperiod as usize;
        let zeros = seq[from..from + p.period as usize]
            .iter()
            .filter(|&&v| v == 0)
            .count() as u64;
        [zeros, p.period]
    });
    drop(seq);
    let p = stats::p_summary(&data.ps, max);
    let exact = per_period.map(|[c, q]| {
        let d = crate::stats::gcd(c.into(), q.into()).max(1) as u64;
        [c / d, q / d]
    });
    // the table's values, copied once for the Grundy summary and the rare values
    let g32 = data.table.as_ref().map(|t| t.to_u32_vec());
    data.grundy = g32.as_deref().map(stats::grundy_summary);
    let growth = p.growth.filter(|_| per_period.is_none());
    let value_growth = match &g32 {
        Some(g) if per_period.is_none() => stats::value_growth(g),
        _ => None,
    };
    let a = &mut data.analysis;
    a.periodicity = per;
    a.candidate = cand;
    a.p_positions = PStats {
        count: p.count,
        largest: p.largest,
        density: p.density,
        // a period gives the density exactly: no fit
        alpha: growth
            .as_ref()
            .filter(|f| f.law == Law::Power)
            .map(|f| f.alpha),
        c: growth.as_ref().filter(|f| f.law == Law::Power).map(|f| f.c),
        growth,
        per_period,
        exact_density: exact,
    };
    a.gaps = Gaps {
        max: p.max_gap,
        max_at: p.max_gap_at,
    };
    // (take-and-break games in normal play: octal codes, Grundy's game, unequal rules)
    let normal = game.filter(|g| g.play() == heaplab_core::Play::Normal);
    a.rare = match (&g32, normal) {
        (Some(g), Some(game)) => heaplab_core::engines::rare_summary(game, g).map(|r| RareStats {
            mask: r.mask.to_string(),
            count: r.count,
            last: r.last,
            last_value: r.last.map(|n| g[n as usize]),
        }),
        _ => None,
    };
    a.excluded_periods = match normal {
        Some(game) if a.periodicity.is_none() => heaplab_core::excluded_periods(game, &data.ps),
        _ => None,
    };
    a.grundy = data.grundy.as_ref().map(|g| GrundyStats {
        max: g.max,
        first_occurrence: g.first_occurrence.clone(),
        growth: value_growth,
    });
}

/// The growth of the P-position count in words: the law, its numbers, how well it fits.
pub fn count_growth(f: &GrowthFit) -> String {
    match (f.law, f.exponential()) {
        (Law::Logarithmic, Some((c, r))) => format!(
            "exponential, the k-th P-position ≈ {c:.4}·{r:.4}^k (count(≤ n) ≈ {}); {}",
            f.formula(),
            f.quality()
        ),
        _ => format!("count(≤ n) ≈ {}, a power law; {}", f.formula(), f.quality()),
    }
}

/// The growth of the largest value in words (after "the largest value up to n").
pub fn value_growth_text(f: &GrowthFit) -> String {
    match (f.law, f.ratio()) {
        (Law::Logarithmic, Some(r)) => format!(
            "≈ {}, logarithmic (one more each time n grows by a factor {r:.4}); {}",
            f.formula(),
            f.quality()
        ),
        _ => format!("≈ {}, a power law; {}", f.formula(), f.quality()),
    }
}

/// The genus record of a genus table: the genera interned in order of first appearance,
/// that sequence's periodicity, and the phyla counted.
fn genus_stats(game: &Game, t: &heaplab_core::misere::GenusTable) -> GenusStats {
    use heaplab_core::misere::Phylum;
    let mut ids: std::collections::HashMap<heaplab_core::misere::Genus, i64> = Default::default();
    let mut seq = Vec::with_capacity(t.max() as usize + 1);
    let mut phyla = [0u64; 4];
    let mut first_not_tame = None;
    for n in 0..=t.max() {
        let g = t.genus(n);
        let next = ids.len() as i64;
        seq.push(*ids.entry(g).or_insert(next));
        let p = t.phylum(n);
        phyla[p as usize] += 1;
        if p != Phylum::Tame && first_not_tame.is_none() {
            first_not_tame = Some(n);
        }
    }
    GenusStats {
        periodicity: periodicity(&seq, CertRule::of(game, Sequence::Grundy)),
        phyla,
        first_not_tame,
        first: (0..=t.max().min(15))
            .map(|n| t.genus(n).to_string())
            .collect(),
    }
}

impl AnalysisData {
    /// A record of `game` over 0..=max with nothing computed yet (no table, no
    /// P-positions, no statistics).
    fn empty(game: String, max: u64, values: Sequence) -> AnalysisData {
        AnalysisData {
            analysis: Analysis {
                game,
                max,
                values,
                periodicity: None,
                candidate: None,
                p_positions: PStats::default(),
                gaps: Gaps::default(),
                grundy: None,
                genus: None,
                rare: None,
                excluded_periods: None,
                quotient: None,
            },
            ps: vec![],
            table: None,
            outcomes: None,
            grundy: None,
            genus: None,
        }
    }

    /// The analysed sequence as `i64` (Grundy values, or outcomes: 1 for an N-position).
    pub fn values_i64(&self) -> Vec<i64> {
        match (&self.table, &self.outcomes) {
            (Some(t), _) => t.to_u32_vec().into_iter().map(i64::from).collect(),
            (None, Some(o)) => o.bits().iter().by_vals().map(i64::from).collect(),
            (None, None) => vec![],
        }
    }

    /// Every exception of the preperiod (the record lists at most
    /// [`crate::EXCEPTIONS_LISTED`]); empty without a period.
    pub fn all_exceptions(&self) -> Vec<u64> {
        let Some(p) = &self.analysis.periodicity else {
            return vec![];
        };
        let values = self.values_i64();
        let per = heaplab_core::Period {
            preperiod: p.preperiod,
            period: p.period,
            saltus: p.saltus,
            len: values.len() as u64,
        };
        heaplab_core::exceptions(&values, &per, usize::MAX).0
    }
}

impl Analysis {
    /// A readable summary (several lines, each ending in a newline).
    pub fn text(&self) -> String {
        let mut s = String::new();
        let misere = self.game.starts_with("misere(");
        let what = match (self.values, misere) {
            (Sequence::Grundy, false) => "Grundy values",
            (Sequence::Grundy, true) => "misère nim-values",
            (Sequence::Outcome, false) => "outcomes",
            (Sequence::Outcome, true) => "misère outcomes",
        };
        s.push_str(&format!("{} — {what} of 0 ≤ n ≤ {}\n", self.game, self.max));
        match &self.periodicity {
            Some(p) => {
                s.push_str(&format!(
                    "  periodicity: preperiod {} (last exception {}), period {}, saltus {}; {}\n",
                    p.preperiod,
                    p.last_exception.map_or("none".into(), |e| e.to_string()),
                    p.period,
                    p.saltus,
                    p.certificate
                ));
                if p.exception_count > 0 {
                    let shown: Vec<String> =
                        p.exceptions.iter().take(40).map(u64::to_string).collect();
                    let more = if p.exception_count > shown.len() as u64 {
                        ", … (all in --json and `analyze -o`)"
                    } else {
                        ""
                    };
                    s.push_str(&format!(
                        "  exceptions ({}: the n < {} whose value breaks the period): {}{more}\n",
                        p.exception_count,
                        p.preperiod,
                        shown.join(", ")
                    ));
                }
            }
            None => {
                s.push_str(
                    "  periodicity: none accepted (a period p from n0 needs N + 1 >= 2·n0 + 2p)\n",
                );
                if let Some(c) = &self.candidate {
                    s.push_str(&format!(
                        "  best candidate: period {}, saltus {}, from n0 = {} ({} periods seen); \
                         accepted at N >= {}{}, if the pattern goes on\n",
                        c.period,
                        c.saltus,
                        c.preperiod,
                        c.periods_seen,
                        c.accept_at,
                        c.prove_at
                            .map_or(", no theorem proves it".into(), |b| format!(
                                ", proven at N >= {b}"
                            ))
                    ));
                }
            }
        }
        let p = &self.p_positions;
        s.push_str(&format!(
            "  P-positions: {} (density {:.6}), largest {}\n",
            p.count,
            p.density,
            p.largest.map_or("none".into(), |x| x.to_string())
        ));
        if let (Some([c, q]), Some([a, b])) = (p.per_period, p.exact_density) {
            let sure = match &self.periodicity {
                Some(per) if per.certified => "for every n (the period is proven)",
                _ => "while the observed period holds",
            };
            let line = match c {
                0 => format!("  density: no P-positions in the periodic part, {sure}\n"),
                1 => format!(
                    "  density: 1 P-position in each period of {q}, so {a}/{b} exactly {sure}\n"
                ),
                _ => format!(
                    "  density: {c} P-positions in each period of {q}, so {a}/{b} exactly {sure}\n"
                ),
            };
            s.push_str(&line);
        }
        if let Some(last) = p
            .largest
            .filter(|_| p.per_period.is_none() && p.count >= 2)
            .filter(|&l| stats::stops_early(Some(l), self.max))
        {
            s.push_str(&format!(
                "  P-positions stop: none in {}..={} after the last, {last} (no growth law fitted)\n",
                last + 1,
                self.max
            ));
        }
        if let Some(f) = &p.growth {
            s.push_str(&format!("  growth: {}\n", count_growth(f)));
        }
        if let (Some(g), Some(at)) = (self.gaps.max, self.gaps.max_at) {
            s.push_str(&format!("  largest gap: {g} (ending at P-position {at})\n"));
        }
        if let Some(r) = &self.rare {
            s.push_str(&format!(
                "  rare values (sparse space): {}: {} rare positions in 1..={}{}\n",
                r.mask,
                r.count,
                self.max,
                match (r.last, r.last_value) {
                    (Some(n), Some(v)) => format!(", the last at n = {n} (value {v})"),
                    _ => String::new(),
                }
            ));
        }
        if let Some(q) = &self.quotient {
            let period = match &q.period {
                Some(p) if p.proved => format!(
                    "; Φ periodic from heap {} with period {}, proved at heap {}: the quotient of every heap",
                    p.preperiod,
                    p.period,
                    q.heaps
                ),
                Some(p) => format!(
                    "; Φ looks periodic from heap {} with period {} (observed)",
                    p.preperiod, p.period
                ),
                None => String::new(),
            };
            s.push_str(&format!(
                "  misère quotient: order {} on heaps 0..={}, P-portion of {} element{}{}{period}\n",
                q.order,
                q.heaps,
                q.p_portion,
                if q.p_portion == 1 { "" } else { "s" },
                match (q.tame, q.order) {
                    (true, 2) => " (tame: the quotient of misère Nim heaps *0 and *1)",
                    (true, _) => " (tame: the quotient of misère Nim heaps *0 to *3)",
                    _ => "",
                },
            ));
            if let Some(why) = &q.stopped {
                s.push_str(&format!("  misère quotient stopped: {why}\n"));
            }
        }
        if let Some(e) = &self.excluded_periods {
            let list = |v: &[u64]| {
                let mut s: Vec<String> = v.iter().take(12).map(|x| x.to_string()).collect();
                if v.len() > 12 {
                    s.push(format!("… ({} in all)", v.len()));
                }
                s.join(", ")
            };
            s.push_str(&format!(
                "  periods excluded: an eventual period whose preperiod is at most {} (the last P-position) divides none of b + t (P-positions b >= 1, {}): {}; so it is none of {}\n",
                e.preperiod_at_most,
                match (e.takes.is_empty(), e.unequal_takes.is_empty()) {
                    (false, true) => format!("split moves taking t = {}", list(&e.takes)),
                    (true, false) => format!(
                        "splits into unequal heaps taking t = {}, so b != {}",
                        list(&e.unequal_takes),
                        e.preperiod_at_most
                    ),
                    _ => format!(
                        "split moves taking t = {}, or t = {} with b != {} (unequal heaps)",
                        list(&e.takes),
                        list(&e.unequal_takes),
                        e.preperiod_at_most
                    ),
                },
                list(&e.sums),
                list(&e.periods)
            ));
        }
        if let Some(g) = &self.grundy {
            let firsts: Vec<String> = g
                .first_occurrence
                .iter()
                .take(16)
                .map(|x| x.map_or("-".into(), |v| v.to_string()))
                .collect();
            s.push_str(&format!(
                "  {}: largest {}; first occurrences of 0, 1, 2, …: {}{}\n",
                if misere {
                    "misère nim-values"
                } else {
                    "Grundy values"
                },
                g.max,
                firsts.join(", "),
                if g.first_occurrence.len() > 16 {
                    ", …"
                } else {
                    ""
                }
            ));
        }
        if let Some(f) = self.grundy.as_ref().and_then(|g| g.growth.as_ref()) {
            let what = if misere {
                "misère nim-value"
            } else {
                "Grundy value"
            };
            s.push_str(&format!(
                "  value growth: the largest {what} up to n {}\n",
                value_growth_text(f)
            ));
        }
        if let Some(g) = &self.genus {
            let per = match &g.periodicity {
                Some(p) => format!(
                    "period {} from {} ({})",
                    p.period, p.preperiod, p.certificate
                ),
                None => "no period accepted".into(),
            };
            s.push_str(&format!(
                "  genus: {}, …; {per}\n  phyla: {} tame, {} restive, {} restless, {} wild{}\n",
                g.first.join(", "),
                g.phyla[0],
                g.phyla[1],
                g.phyla[2],
                g.phyla[3],
                g.first_not_tame
                    .map_or("".into(), |n| format!(" (first not tame: heap {n})"))
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
        assert_eq!(
            p.exceptions,
            [0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70]
        );
        assert_eq!(a.analysis.p_positions.exact_density, Some([0, 1]));
        // Dawson's Kayles: 5 P-positions in each period of 34
        let d = analyze(
            &Game::parse("0.07").unwrap(),
            500,
            Sequence::Grundy,
            &Budget::new(1 << 30),
            &Silent,
        )
        .unwrap();
        assert_eq!(d.analysis.p_positions.per_period, Some([5, 34]));
        assert_eq!(d.analysis.p_positions.exact_density, Some([5, 34]));
        assert!(d.analysis.text().contains("5/34 exactly for every n"));
        assert_eq!(d.analysis.p_positions.alpha, None);
        // Kayles to 150 is too short to accept period 12: the candidate says what N would
        let short = analyze(&g, 150, Sequence::Grundy, &Budget::new(1 << 30), &Silent).unwrap();
        assert!(short.analysis.periodicity.is_none());
        let c = short.analysis.candidate.as_ref().unwrap();
        assert_eq!(
            (c.preperiod, c.period, c.accept_at, c.prove_at),
            (71, 12, 165, Some(168))
        );
        // upto{k} is proven as sub{1..k} is
        let u = analyze(
            &Game::parse("upto{5}").unwrap(),
            100,
            Sequence::Grundy,
            &Budget::new(1 << 30),
            &Silent,
        )
        .unwrap();
        assert!(u.analysis.periodicity.as_ref().unwrap().certified);
        // Grundy's game: the last P-position below 10^5 is 1222, so no power law
        let gg = analyze(
            &Game::parse("grundy-game").unwrap(),
            20_000,
            Sequence::Grundy,
            &Budget::new(1 << 30),
            &Silent,
        )
        .unwrap();
        assert_eq!(gg.analysis.p_positions.largest, Some(1222));
        assert_eq!(gg.analysis.p_positions.alpha, None);
        assert!(gg.analysis.text().contains("none in 1223..=20000"));
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

#[cfg(test)]
mod growth {
    use super::*;
    use heaplab_core::Silent;

    fn analysis(spec: &str, max: u64) -> Analysis {
        let g = Game::parse(spec).unwrap();
        analyze(&g, max, Sequence::Grundy, &Budget::new(1 << 30), &Silent)
            .unwrap()
            .analysis
    }

    #[test]
    fn squares_grow_by_two_power_laws() {
        let a = analysis("squares", 1_000_000);
        let p = a.p_positions.growth.as_ref().unwrap();
        assert_eq!(p.law, Law::Power);
        assert!((0.68..0.70).contains(&p.alpha), "{p:?}");
        assert_eq!(a.p_positions.alpha, Some(p.alpha));
        let v = a.grundy.as_ref().unwrap().growth.as_ref().unwrap();
        assert_eq!(v.law, Law::Power);
        assert!((0.34..0.36).contains(&v.alpha), "{v:?}");
        assert!(p.close() && v.close());
        let t = a.text();
        assert!(t.contains("growth: count(≤ n) ≈ 0.97"), "{t}");
        assert!(t.contains("·n^0.691"), "{t}");
        assert!(
            t.contains("value growth: the largest Grundy value up to n ≈ 1.3"),
            "{t}"
        );
        assert!(t.contains("·n^0.349"), "{t}");
    }

    #[test]
    fn half_sub_1_grows_exponentially() {
        // P-positions 0 and 3·2^k − 1: the k-th (from 0) is 1.5·2^k − 1 for k >= 1
        let a = analysis("half|sub{1}", 1_000_000);
        let p = a.p_positions.growth.as_ref().unwrap();
        assert_eq!(p.law, Law::Logarithmic);
        let (c, r) = p.exponential().unwrap();
        assert!((r - 2.0).abs() < 0.01 && (c - 1.5).abs() < 0.05, "{c} {r}");
        // no power-law exponent is reported for it
        assert_eq!((a.p_positions.alpha, a.p_positions.c), (None, None));
        let t = a.text();
        assert!(
            t.contains("growth: exponential, the k-th P-position ≈ 1.49"),
            "{t}"
        );
        assert!(t.contains("·2.000"), "{t}");
        // the largest value is about n/2: a power law of exponent 1
        let v = a.grundy.as_ref().unwrap().growth.as_ref().unwrap();
        assert_eq!(v.law, Law::Power);
        assert!((v.alpha - 1.0).abs() < 0.01 && (v.c - 0.5).abs() < 0.01);
        // a periodic game has neither fit
        let k = analysis("0.77", 2000);
        assert!(k.p_positions.growth.is_none());
        assert!(k.grundy.unwrap().growth.is_none());
    }
}

#[cfg(test)]
mod own_rule {
    use super::*;
    use heaplab_core::{grundy_table_of, Rule, Silent};

    /// Subtract 1, 2 or 3, written as a rule of one's own.
    struct Bash;
    impl Rule for Bash {
        fn for_each_option(&self, n: u64, visit: &mut dyn FnMut(&[u64])) {
            for s in 1..=n.min(3) {
                visit(&[n - s]);
            }
        }
    }

    #[test]
    fn a_rule_of_ones_own_is_analysed_like_a_spec() {
        let t = grundy_table_of(&Bash, 1000, &Silent).unwrap();
        let rule = CertRule::FiniteSubtraction { largest_move: 3 };
        let own = analyze_table("bash", t, rule).unwrap();
        let spec = analyze(
            &Game::parse("sub{1,2,3}").unwrap(),
            1000,
            Sequence::Grundy,
            &Budget::unlimited(),
            &Silent,
        )
        .unwrap();
        assert_eq!(own.analysis.game, "bash");
        let p = own.analysis.periodicity.clone().unwrap();
        assert_eq!((p.preperiod, p.period, p.saltus), (0, 4, 0));
        assert_eq!(own.analysis.periodicity, spec.analysis.periodicity);
        assert_eq!(own.analysis.p_positions, spec.analysis.p_positions);
        assert_eq!(own.analysis.grundy, spec.analysis.grundy);
        assert_eq!(own.ps, spec.ps);
    }
}
