//! Per-game censuses ([`heaplab_core::census::games`]) as data: the columns of their rows,
//! their identity, and what researchers read off them — the distribution of periods and
//! preperiods, and published conjectures checked over every row with their counterexamples.
//!
//! **Conjectures checked** (three-move sets {a, b, c}, a < b < c, primitive: gcd 1), as
//! A. Flammenkamp states them in *Lange Perioden in Subtraktions-Spielen* (Dissertation,
//! Bielefeld, 1997), quoted by Bhagat, Larsson, Manabe and Yamashita, *Additive sink
//! subtraction* (arXiv 2601.18715, 2026), and by Larsson and Saha, *A brief conversation about
//! subtraction games* (arXiv 2405.20054, 2024):
//! - **non-additive** sets (c ≠ a + b) have a linear outcome period, the sum of two moves:
//!   a + b, a + c or b + c;
//! - **additive** sets {a, b, a + b} have purely periodic outcomes (preperiod 0), with a
//!   period linear or quadratic in c (the census states the largest period / c²).
//!
//! The first claim is checked in two readings: the *least* period is a sum of two moves
//! (it fails on small periods such as {1,6,9}'s 5), and a sum of two moves *is a period*
//! (the least period divides a + b, a + c or b + c: the outcomes repeat with that sum from
//! the same preperiod on). The strict reading is also checked without the sets {1, b, c}
//! with b and c odd: their outcome period is 2 (every move changes the parity and 1 is
//! always a move, so the even heaps are the P-positions; with all moves odd but without 1,
//! as {3,5,7} with period 10, nothing of the kind holds). The claims are about normal play:
//! a misère tally states none.

use crate::census::CensusColumn;
use heaplab_core::census::games::{GameCensusOptions, GameRow, SpaceCount};
use heaplab_core::census::window::WindowPeriod;
use heaplab_core::{CensusSpace, Play};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Most counterexamples a claim lists (all are counted).
pub const COUNTEREXAMPLES_LISTED: usize = 20;

/// Most moves given columns of their own (`s1`, `s2`, …).
pub const MOVE_COLUMNS: usize = 6;

/// The identity of a per-game census: heaplab's version, the space, the play, what is
/// computed and the chunking (a resume or a merge needs all of them equal).
pub fn game_census_id(space: &CensusSpace, opts: &GameCensusOptions) -> String {
    format!(
        "heaplab {} | per game | {} | {} play{} | limit {} | chunk {}",
        env!("CARGO_PKG_VERSION"),
        space.describe(),
        match opts.play {
            Play::Normal => "normal",
            Play::Misere => "misère",
        },
        if opts.grundy { ", Grundy" } else { "" },
        opts.limit,
        opts.chunk
    )
}

/// The parameter columns of a space: every template's parameters in order of first
/// appearance across templates (`?1` is written `d1`), and for each template where each of
/// its parameters goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamColumns {
    /// Column names.
    pub names: Vec<String>,
    /// For template t, the column of its i-th parameter.
    pub of_template: Vec<Vec<usize>>,
}

impl ParamColumns {
    /// The columns of `space`.
    pub fn of(space: &CensusSpace) -> ParamColumns {
        let mut names: Vec<String> = vec![];
        let mut of_template = vec![];
        for t in space.parameter_names() {
            let mut at = vec![];
            for n in t {
                let n = match n.strip_prefix('?') {
                    Some(d) => format!("d{d}"),
                    None => n,
                };
                let i = match names.iter().position(|m| *m == n) {
                    Some(i) => i,
                    None => {
                        names.push(n);
                        names.len() - 1
                    }
                };
                at.push(i);
            }
            of_template.push(at);
        }
        ParamColumns { names, of_template }
    }

    /// The value of column `col` in `row` (None when its template has no such parameter).
    pub fn value(&self, row: &GameRow, col: usize) -> Option<u64> {
        self.value_of(row.template, &row.values, col)
    }

    /// The value of column `col` for an item of template `template` whose parameters have
    /// `values` (None when the template has no such parameter).
    pub fn value_of(&self, template: usize, values: &[u64], col: usize) -> Option<u64> {
        self.of_template
            .get(template)?
            .iter()
            .position(|&c| c == col)
            .and_then(|i| values.get(i).copied())
    }
}

/// One counterexample to a claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counterexample {
    /// Its index in the space.
    pub item: u64,
    /// The game.
    pub game: String,
    /// Its preperiod and period.
    pub preperiod: u64,
    /// Its period.
    pub period: u64,
    /// Why the period is proven.
    pub certificate: String,
}

/// A claim over the rows: how many rows it applies to, how many break it, and the first
/// counterexamples in the space's order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimTally {
    /// The claim in words, with its source.
    pub claim: String,
    /// Rows it applies to (certified ones).
    pub rows: u64,
    /// Rows that break it.
    pub fails: u64,
    /// The first [`COUNTEREXAMPLES_LISTED`] of them in the space's order.
    pub counterexamples: Vec<Counterexample>,
}

impl ClaimTally {
    fn new(claim: &str) -> ClaimTally {
        ClaimTally {
            claim: claim.to_string(),
            rows: 0,
            fails: 0,
            counterexamples: vec![],
        }
    }
    fn add(&mut self, holds: bool, row: &GameRow, w: &WindowPeriod) {
        self.rows += 1;
        if holds {
            return;
        }
        self.fails += 1;
        let full = self.counterexamples.len() >= COUNTEREXAMPLES_LISTED;
        if full
            && self
                .counterexamples
                .last()
                .is_some_and(|x| x.item < row.item)
        {
            return;
        }
        self.counterexamples.push(Counterexample {
            item: row.item,
            game: row.spec(),
            preperiod: w.preperiod,
            period: w.period,
            certificate: w.certificate(*row.moves.last().unwrap_or(&0)),
        });
        // the first in the space's order, whatever order chunks come in
        self.counterexamples.sort_by_key(|x| x.item);
        self.counterexamples.truncate(COUNTEREXAMPLES_LISTED);
    }
    /// Adds the tally of the same claim over other rows.
    fn merge(&mut self, other: &ClaimTally) {
        self.rows += other.rows;
        self.fails += other.fails;
        self.counterexamples
            .extend(other.counterexamples.iter().cloned());
        self.counterexamples.sort_by_key(|x| x.item);
        self.counterexamples.dedup_by_key(|x| x.item);
        self.counterexamples.truncate(COUNTEREXAMPLES_LISTED);
    }

    /// Whether the claim holds on every row it applies to.
    pub fn holds(&self) -> bool {
        self.fails == 0
    }
}

/// The largest of something, and the first game that has it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Extreme {
    /// The value.
    pub value: f64,
    /// The first item (in the space's order) that has it.
    pub item: u64,
    /// The game.
    pub game: String,
}

/// What a per-game census found, accumulated chunk by chunk ([`GameTally::add`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameTally {
    /// The census's play: `normal` or `misere`.
    pub play: String,
    /// Rows seen.
    pub rows: u64,
    /// Rows whose set is primitive (common factor 1): each its own class.
    pub primitive: u64,
    /// Rows with a proven outcome period.
    pub certified: u64,
    /// Rows without one within the limit.
    pub none: u64,
    /// Rows with a proven Grundy period (when asked).
    pub grundy_certified: u64,
    /// How many games have each outcome period.
    pub periods: BTreeMap<u64, u64>,
    /// How many games have a preperiod in each range: `0`, `1-9`, `10-99`, …
    pub preperiods: BTreeMap<u64, u64>,
    /// The longest outcome period.
    pub longest_period: Option<Extreme>,
    /// The longest preperiod.
    pub longest_preperiod: Option<Extreme>,
    /// Three-move primitive sets: the conjectures checked (empty for other spaces).
    pub claims: Vec<ClaimTally>,
    /// Additive primitive three-move sets: the largest period / c².
    pub additive_period_over_c2: Option<Extreme>,
    /// Non-additive primitive three-move sets: the largest period / c.
    pub non_additive_period_over_c: Option<Extreme>,
    /// How many games have each (largest move, outcome period) (for plots).
    #[serde(skip)]
    pub period_by_c: BTreeMap<(u64, u64), u64>,
    /// How many games have each outcome preperiod (for plots).
    #[serde(skip)]
    pub preperiod_counts: BTreeMap<u64, u64>,
}

/// Index in [`GameTally::claims`]: non-additive, the least period is a sum of two moves.
const LEAST_IS_SUM: usize = 0;
/// Index: non-additive, a sum of two moves is a period.
const SUM_IS_PERIOD: usize = 1;
/// Index: the strict reading without the sets {1, b, c} of odd moves.
const LEAST_IS_SUM_NOT_ODD: usize = 2;
/// Index: additive sets are purely periodic.
const ADDITIVE_PURE: usize = 3;

impl GameTally {
    /// An empty tally of a census in `play`: Flammenkamp's claims (about normal play) are
    /// checked in normal play only.
    pub fn new(play: Play) -> GameTally {
        let claims = if play == Play::Normal {
            vec![
                ClaimTally::new(
                    "non-additive {a,b,c} (c != a+b, gcd 1): the least outcome period is a+b, \
                     a+c or b+c (Flammenkamp 1997, read strictly)",
                ),
                ClaimTally::new(
                    "non-additive {a,b,c} (c != a+b, gcd 1): a+b, a+c or b+c is an outcome \
                     period (the least period divides one of them)",
                ),
                ClaimTally::new(
                    "the strict reading without the sets {1,b,c} of odd moves (whose outcome \
                     period is 2: even heaps lose)",
                ),
                ClaimTally::new(
                    "additive {a,b,a+b} (gcd 1): the outcomes are purely periodic, preperiod 0 \
                     (Flammenkamp 1997)",
                ),
            ]
        } else {
            vec![]
        };
        GameTally {
            play: play_name(play).to_string(),
            rows: 0,
            primitive: 0,
            certified: 0,
            none: 0,
            grundy_certified: 0,
            periods: BTreeMap::new(),
            preperiods: BTreeMap::new(),
            longest_period: None,
            longest_preperiod: None,
            claims,
            additive_period_over_c2: None,
            non_additive_period_over_c: None,
            period_by_c: BTreeMap::new(),
            preperiod_counts: BTreeMap::new(),
        }
    }
}

/// `normal` or `misere`, as the tally names the play.
fn play_name(play: Play) -> &'static str {
    match play {
        Play::Normal => "normal",
        Play::Misere => "misere",
    }
}

/// The preperiod range bucket of `x`: 0 for 0, else the power of ten below it.
pub fn decade(x: u64) -> u64 {
    if x == 0 {
        0
    } else {
        10u64.pow(x.ilog10())
    }
}

/// `slot` raised to `other` when that is larger (ties: the first item).
fn raise_to(slot: &mut Option<Extreme>, other: &Option<Extreme>) {
    if let Some(e) = other {
        if slot
            .as_ref()
            .is_none_or(|s| e.value > s.value || (e.value == s.value && e.item < s.item))
        {
            *slot = Some(e.clone());
        }
    }
}

fn raise(slot: &mut Option<Extreme>, value: f64, row: &GameRow) {
    // ties go to the first item, whatever order chunks come in
    if slot
        .as_ref()
        .is_none_or(|e| value > e.value || (value == e.value && row.item < e.item))
    {
        *slot = Some(Extreme {
            value,
            item: row.item,
            game: row.spec(),
        });
    }
}

impl GameTally {
    /// Adds rows (in any order: the tally is the same).
    pub fn add(&mut self, rows: &[GameRow]) {
        for r in rows {
            self.rows += 1;
            if r.scale == 1 {
                self.primitive += 1;
            }
            if r.grundy.is_some() {
                self.grundy_certified += 1;
            }
            let Some(w) = &r.outcome else {
                self.none += 1;
                continue;
            };
            self.certified += 1;
            *self.periods.entry(w.period).or_default() += 1;
            *self.preperiods.entry(decade(w.preperiod)).or_default() += 1;
            let c = r.moves.last().copied().unwrap_or(0);
            *self.period_by_c.entry((c, w.period)).or_default() += 1;
            *self.preperiod_counts.entry(w.preperiod).or_default() += 1;
            raise(&mut self.longest_period, w.period as f64, r);
            raise(&mut self.longest_preperiod, w.preperiod as f64, r);
            if let [a, b, c] = r.moves[..] {
                if r.scale != 1 || self.claims.is_empty() {
                    continue;
                }
                if c == a + b {
                    self.claims[ADDITIVE_PURE].add(w.preperiod == 0, r, w);
                    raise(
                        &mut self.additive_period_over_c2,
                        w.period as f64 / (c * c) as f64,
                        r,
                    );
                } else {
                    let p = w.period;
                    let holds = p == a + b || p == a + c || p == b + c;
                    self.claims[LEAST_IS_SUM].add(holds, r, w);
                    let divides = (a + b) % p == 0 || (a + c) % p == 0 || (b + c) % p == 0;
                    self.claims[SUM_IS_PERIOD].add(divides, r, w);
                    // {1, b, c} with b, c odd: every move changes the parity and 1 is
                    // always there, so the even heaps are exactly the P-positions
                    if !(a == 1 && b % 2 == 1 && c % 2 == 1) {
                        self.claims[LEAST_IS_SUM_NOT_ODD].add(holds, r, w);
                    }
                    raise(&mut self.non_additive_period_over_c, p as f64 / c as f64, r);
                }
            }
        }
    }

    /// Adds the tally of other rows of the same census (another shard or chunk): the
    /// result is the tally of all the rows, whatever order tallies are merged in.
    ///
    /// # Errors
    /// Tallies of different plays (their claims differ).
    pub fn merge(&mut self, other: &GameTally) -> Result<(), String> {
        if self.play != other.play || self.claims.len() != other.claims.len() {
            return Err(format!(
                "tallies of {} and {} play do not merge",
                self.play, other.play
            ));
        }
        self.rows += other.rows;
        self.primitive += other.primitive;
        self.certified += other.certified;
        self.none += other.none;
        self.grundy_certified += other.grundy_certified;
        for (map, from) in [
            (&mut self.periods, &other.periods),
            (&mut self.preperiods, &other.preperiods),
            (&mut self.preperiod_counts, &other.preperiod_counts),
        ] {
            for (k, v) in from {
                *map.entry(*k).or_default() += v;
            }
        }
        for (k, v) in &other.period_by_c {
            *self.period_by_c.entry(*k).or_default() += v;
        }
        raise_to(&mut self.longest_period, &other.longest_period);
        raise_to(&mut self.longest_preperiod, &other.longest_preperiod);
        raise_to(
            &mut self.additive_period_over_c2,
            &other.additive_period_over_c2,
        );
        raise_to(
            &mut self.non_additive_period_over_c,
            &other.non_additive_period_over_c,
        );
        for (c, o) in self.claims.iter_mut().zip(&other.claims) {
            c.merge(o);
        }
        Ok(())
    }

    /// Whether any row was a primitive three-move set (the claims apply).
    pub fn has_claims(&self) -> bool {
        self.claims.iter().any(|c| c.rows > 0)
    }

    /// The most common periods, most common first (ties: smaller period first).
    pub fn common_periods(&self, k: usize) -> Vec<(u64, u64)> {
        let mut v: Vec<(u64, u64)> = self.periods.iter().map(|(&p, &n)| (p, n)).collect();
        v.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
        v.truncate(k);
        v
    }
}

/// The columns of per-game rows of a space of `count` items, in order: `census`, `items`,
/// `item`, the parameter columns, `game`, `class`, `scale`, `moves` (how many) and `s1`…
/// (as many as the space's largest set, up to [`MOVE_COLUMNS`]: every chunk of a census
/// has the same columns), `status`, `preperiod`, `period`, `p_per_period`, `p_before`,
/// `repeat_at`, `computed`, and with `grundy` the Grundy columns (`grundy_status`,
/// `grundy_preperiod`, `grundy_period`, `grundy_max`, `grundy_p_per_period`). The same for
/// the command line's files and Python's Arrow tables.
pub fn game_columns(
    rows: &[GameRow],
    cols: &ParamColumns,
    id: &str,
    count: SpaceCount,
    grundy: bool,
) -> Vec<(String, CensusColumn)> {
    let items = count.items;
    use CensusColumn::{Str, U64};
    let u = |f: &dyn Fn(&GameRow) -> Option<u64>| U64(rows.iter().map(f).collect());
    let mut out: Vec<(String, CensusColumn)> = vec![
        ("census".into(), Str(vec![Some(id.to_string()); rows.len()])),
        ("items".into(), u(&|_| Some(items))),
        ("item".into(), u(&|r| Some(r.item))),
    ];
    for (i, name) in cols.names.iter().enumerate() {
        out.push((name.clone(), u(&|r| cols.value(r, i))));
    }
    out.push((
        "game".into(),
        Str(rows.iter().map(|r| Some(r.spec())).collect()),
    ));
    out.push((
        "class".into(),
        Str(rows.iter().map(|r| Some(r.class())).collect()),
    ));
    out.push(("scale".into(), u(&|r| Some(r.scale))));
    out.push(("moves".into(), u(&|r| Some(r.moves.len() as u64))));
    // as many as the space's largest set needs, whatever this chunk holds
    for j in 0..count.most_moves.min(MOVE_COLUMNS) {
        out.push((format!("s{}", j + 1), u(&|r| r.moves.get(j).copied())));
    }
    let status = |w: &dyn Fn(&GameRow) -> bool| {
        Str(rows
            .iter()
            .map(|r| Some(if w(r) { "certified" } else { "none" }.to_string()))
            .collect())
    };
    let o = |f: fn(&WindowPeriod) -> u64| move |r: &GameRow| r.outcome.as_ref().map(f);
    out.push(("status".into(), status(&|r| r.outcome.is_some())));
    out.push(("preperiod".into(), u(&o(|w| w.preperiod))));
    out.push(("period".into(), u(&o(|w| w.period))));
    out.push(("p_per_period".into(), u(&o(|w| w.p_per_period))));
    out.push(("p_before".into(), u(&o(|w| w.p_before))));
    out.push(("repeat_at".into(), u(&o(|w| w.repeat_at))));
    out.push(("computed".into(), u(&o(|w| w.computed))));
    if grundy {
        let g = |f: fn(&WindowPeriod) -> u64| move |r: &GameRow| r.grundy.as_ref().map(f);
        out.push(("grundy_status".into(), status(&|r| r.grundy.is_some())));
        out.push(("grundy_preperiod".into(), u(&g(|w| w.preperiod))));
        out.push(("grundy_period".into(), u(&g(|w| w.period))));
        out.push(("grundy_max".into(), u(&g(|w| u64::from(w.max_value)))));
        out.push(("grundy_p_per_period".into(), u(&g(|w| w.p_per_period))));
    }
    out
}

#[cfg(feature = "polars")]
pub use frame::{game_frame, game_rows_from_frame};

#[cfg(feature = "polars")]
mod frame {
    use super::{game_columns, ParamColumns};
    use heaplab_core::census::games::{GameRow, SpaceCount};
    use heaplab_core::census::window::WindowPeriod;
    use polars::prelude::*;

    /// The rows as a frame ([`game_columns`]).
    ///
    /// # Errors
    /// A polars error building the frame.
    pub fn game_frame(
        rows: &[GameRow],
        cols: &ParamColumns,
        id: &str,
        count: SpaceCount,
        grundy: bool,
    ) -> PolarsResult<DataFrame> {
        crate::census::columns_frame(game_columns(rows, cols, id, count, grundy), rows.len())
    }

    /// Rows back from a frame [`game_frame`] wrote (the outcome and Grundy periods, the
    /// moves from `game`, the parameters from their columns), for a resumed run's tally.
    ///
    /// # Errors
    /// A missing or mistyped column, or a `game` that is not `sub{…}`.
    pub fn game_rows_from_frame(
        df: &DataFrame,
        cols: &ParamColumns,
    ) -> Result<Vec<GameRow>, String> {
        let u = |name: &str| -> Result<Vec<Option<u64>>, String> {
            let c = df
                .column(name)
                .map_err(|_| format!("no column `{name}`"))?
                .cast(&DataType::UInt64)
                .map_err(|e| format!("column `{name}`: {e}"))?;
            let ca = c.u64().map_err(|e| e.to_string())?;
            Ok((0..ca.len()).map(|i| ca.get(i)).collect())
        };
        let ca = df
            .column("game")
            .map_err(|_| "no column `game`".to_string())?
            .str()
            .map_err(|e| e.to_string())?;
        let games: Vec<String> = (0..ca.len())
            .map(|i| ca.get(i).unwrap_or_default().to_string())
            .collect();
        let item = u("item")?;
        let scale = u("scale")?;
        let params: Vec<Vec<Option<u64>>> =
            cols.names.iter().map(|n| u(n)).collect::<Result<_, _>>()?;
        let read = |prefix: &str, grundy: bool| -> Result<Vec<Option<WindowPeriod>>, String> {
            let pre = u(&format!("{prefix}preperiod"))?;
            let per = u(&format!("{prefix}period"))?;
            let ppp = u(&format!("{prefix}p_per_period"))?;
            let (pb, ra, cm, mx) = if grundy {
                let m = u(&format!("{prefix}max"))?;
                (
                    vec![Some(0); m.len()],
                    vec![Some(0); m.len()],
                    vec![Some(0); m.len()],
                    m,
                )
            } else {
                let pb = u("p_before")?;
                (
                    pb,
                    u("repeat_at")?,
                    u("computed")?,
                    vec![Some(1); pre.len()],
                )
            };
            Ok((0..pre.len())
                .map(|i| {
                    Some(WindowPeriod {
                        preperiod: pre[i]?,
                        period: per[i]?,
                        repeat_at: ra[i]?,
                        computed: cm[i]?,
                        p_per_period: ppp[i]?,
                        p_before: pb[i]?,
                        max_value: u32::try_from(mx[i]?).ok()?,
                    })
                })
                .collect())
        };
        let outcome = read("", false)?;
        let grundy = if df.column("grundy_period").is_ok() {
            Some(read("grundy_", true)?)
        } else {
            None
        };
        let mut rows = Vec::with_capacity(games.len());
        for (i, g) in games.iter().enumerate() {
            let moves: Vec<u64> = g
                .strip_prefix("sub{")
                .and_then(|s| s.strip_suffix('}'))
                .ok_or_else(|| format!("`{g}` is not a subtraction set"))?
                .split(',')
                .map(|s| s.parse::<u64>().map_err(|_| format!("`{g}`: bad move")))
                .collect::<Result<_, _>>()?;
            // the template: the first whose parameters all have values in this row
            let template = cols
                .of_template
                .iter()
                .position(|at| at.iter().all(|&c| params[c][i].is_some()))
                .unwrap_or(0);
            let values = cols.of_template.get(template).map_or(vec![], |at| {
                at.iter().map(|&c| params[c][i].unwrap_or(0)).collect()
            });
            rows.push(GameRow {
                item: item[i].ok_or("an item without index")?,
                template,
                values,
                moves,
                scale: scale[i].unwrap_or(1),
                outcome: outcome[i],
                grundy: grundy.as_ref().and_then(|g| g[i]),
            });
        }
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use heaplab_core::census::games::game_census;

    #[test]
    fn tally_counts_claims_and_decades() {
        assert_eq!(
            (decade(0), decade(1), decade(9), decade(10), decade(999)),
            (0, 1, 1, 10, 100)
        );
        let space =
            CensusSpace::parse(&["sub{a,b,c}".to_string()], &[], "1 <= a < b < c <= 20").unwrap();
        let mut t = GameTally::new(Play::Normal);
        game_census(
            &space,
            &GameCensusOptions::default(),
            &|_| true,
            &mut |_, rows| {
                t.add(&rows);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!((t.rows, t.certified, t.none), (1140, 1140, 0));
        assert!(t.has_claims());
        // every counterexample listed really breaks its claim
        let sums = |game: &str| -> [u64; 3] {
            let m: Vec<u64> = game[4..game.len() - 1]
                .split(',')
                .map(|s| s.parse().unwrap())
                .collect();
            [m[0] + m[1], m[0] + m[2], m[1] + m[2]]
        };
        assert!(t.claims[LEAST_IS_SUM].fails > 0);
        for cx in &t.claims[LEAST_IS_SUM].counterexamples {
            assert!(!sums(&cx.game).contains(&cx.period));
        }
        for cx in &t.claims[SUM_IS_PERIOD].counterexamples {
            assert!(sums(&cx.game).iter().all(|s| s % cx.period != 0));
        }
        // {1, 6, 9}: least period 5, not a sum of two moves, but it divides 1 + 9
        let x = &t.claims[LEAST_IS_SUM].counterexamples;
        assert!(x.iter().any(|c| c.game == "sub{1,6,9}" && c.period == 5));
        assert!(t.claims[SUM_IS_PERIOD].fails < t.claims[LEAST_IS_SUM].fails);
        // {1, b, c} with b, c odd: period 2 (the even heaps lose), left out of the third claim
        let one_odd = |g: &str| {
            let m: Vec<u64> = g[4..g.len() - 1]
                .split(',')
                .map(|s| s.parse().unwrap())
                .collect();
            m[0] == 1 && m[1] % 2 == 1 && m[2] % 2 == 1
        };
        for cx in &t.claims[LEAST_IS_SUM].counterexamples {
            assert!(!one_odd(&cx.game) || cx.period == 2, "{}", cx.game);
        }
        assert!(t.claims[LEAST_IS_SUM_NOT_ODD]
            .counterexamples
            .iter()
            .all(|cx| !one_odd(&cx.game)));
        // 1 < b < c <= 20, b and c odd: C(9, 2) = 36 sets, none additive
        assert_eq!(
            t.claims[LEAST_IS_SUM].rows - t.claims[LEAST_IS_SUM_NOT_ODD].rows,
            36
        );
        assert!(t.claims[LEAST_IS_SUM].rows > 500 && t.claims[ADDITIVE_PURE].rows > 50);
        assert_eq!(t.claims[LEAST_IS_SUM].rows, t.claims[SUM_IS_PERIOD].rows);
        assert!(!GameTally::new(Play::Misere).has_claims());
        // tallies of chunks, merged in any order, are the tally of all the rows
        let opts = GameCensusOptions {
            chunk: 100,
            ..GameCensusOptions::default()
        };
        let mut parts = vec![];
        game_census(&space, &opts, &|_| true, &mut |_, rows| {
            let mut p = GameTally::new(Play::Normal);
            p.add(&rows);
            parts.push(p);
            Ok(())
        })
        .unwrap();
        let mut merged = GameTally::new(Play::Normal);
        for p in parts.iter().rev() {
            merged.merge(p).unwrap();
        }
        assert_eq!(merged, t);
        let json = serde_json::to_string(&merged).unwrap();
        let mut back: GameTally = serde_json::from_str(&json).unwrap();
        back.period_by_c = t.period_by_c.clone();
        back.preperiod_counts = t.preperiod_counts.clone();
        assert_eq!(back, t);
        assert!(merged.merge(&GameTally::new(Play::Misere)).is_err());
        // {1, 2, 3}: period 4 = 1 + 3, so it counts for the first claim
        assert_eq!(t.periods.values().sum::<u64>(), 1140);
    }

    #[cfg(feature = "polars")]
    #[test]
    fn frames_round_trip() {
        let space = CensusSpace::parse(
            &["sub{a,b,a+b}".to_string(), "sub{1,k}".to_string()],
            &[],
            "1 <= a < b <= 9, 2 <= k <= 5",
        )
        .unwrap();
        let cols = ParamColumns::of(&space);
        assert_eq!(cols.names, ["a", "b", "k"]);
        let opts = GameCensusOptions {
            grundy: true,
            ..GameCensusOptions::default()
        };
        let mut all = vec![];
        game_census(&space, &opts, &|_| true, &mut |_, rows| {
            all.extend(rows);
            Ok(())
        })
        .unwrap();
        let count = SpaceCount {
            items: all.len() as u64,
            most_moves: 2,
        };
        let df = game_frame(&all, &cols, "id", count, true).unwrap();
        assert_eq!(df.height(), 36 + 4);
        let back = game_rows_from_frame(&df, &cols).unwrap();
        for (x, y) in all.iter().zip(&back) {
            assert_eq!(
                (x.item, &x.moves, x.scale, x.template),
                (y.item, &y.moves, y.scale, y.template)
            );
            assert_eq!(x.outcome, y.outcome);
            let (gx, gy) = (x.grundy.unwrap(), y.grundy.unwrap());
            assert_eq!(
                (gx.preperiod, gx.period, gx.max_value),
                (gy.preperiod, gy.period, gy.max_value)
            );
        }
    }
}
