//! Sums of heaps: several heaps, each of its own game, played together (a move is a move
//! in one heap). By the Sprague–Grundy theorem a sum is a P-position exactly when the XOR
//! of its heaps' Grundy values is 0 (Sprague 1935, Grundy 1939; Winning Ways, ch. 3).
//!
//! - [`Sum::parse`] reads `squares:5 + 0.77:12 + sub{1,2}:7` (each term a game spec, a colon
//!   and a heap size, terms joined by `+`); [`decide_sum`] gives every heap's Grundy value,
//!   the sum's, the outcome and one winning move.
//! - [`count_sums`] counts the k-heap positions of one game with heaps in a range whose
//!   XOR is 0: from the histogram of Grundy values, by a Walsh–Hadamard transform for
//!   ordered heaps and by the cycle index of the symmetric group (Pólya) for multisets.
//!
//! Each heap's Grundy value comes from the family's fastest path ([`grundy_value`]): a
//! closed form (`divisors`: the 2-adic valuation v2(n); `upto{k}`: n mod (k + 1); `nim`:
//! n), a proven period (finite subtraction sets, octal codes by Guy–Smith), or a table up to
//! the heap within the budget.

use crate::decide::{options_of_value, proven_grundy, reachable, splits_cut, Move, Proven};
use crate::error::Error;
use crate::game::Game;
use crate::game::Play;
use crate::moves::bound::Bound;
use crate::moves::breaker::Breaker;
use crate::num::{parse_count, CountError};
use crate::observe::Observer;
use crate::plan::{grundy_table, plan, run_stream, Budget, Task};
use crate::sets::MoveSet;
use crate::spec::cursor::SpecError;
use crate::table::GrundyTable;
use num_bigint::{BigInt, BigUint};
use serde::Serialize;
use thiserror::Error;

/// Why a sum cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SumError {
    /// Nothing to add up.
    #[error("the sum is empty: write heaps as `squares:5 + 0.77:12`")]
    Empty,
    /// A term without `:HEAP`.
    #[error("term {term} (`{text}`) has no heap: write it as SPEC:HEAP, e.g. `squares:5`")]
    NoHeap {
        /// 1-based term number.
        term: usize,
        /// The term.
        text: String,
    },
    /// A term with more than one `:HEAP`.
    #[error(
        "term {term} (`{text}`) has more than one `:HEAP`: write one term per heap, e.g. \
         `sub{{1,2}}:7 + sub{{1,2}}:3`"
    )]
    SeveralHeaps {
        /// 1-based term number.
        term: usize,
        /// The term.
        text: String,
    },
    /// A heap size that is no count.
    #[error("term {term}: the heap {source}")]
    Heap {
        /// 1-based term number.
        term: usize,
        /// Why.
        source: CountError,
    },
    /// A spec that does not parse.
    #[error("term {term}: {source}")]
    Spec {
        /// 1-based term number.
        term: usize,
        /// Why.
        source: SpecError,
    },
}

/// A sum of heaps: (game, heap size) terms, played together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sum {
    /// The terms, in order.
    pub heaps: Vec<(Game, u64)>,
}

impl Sum {
    /// Several heaps of one game.
    pub fn of_heaps(game: &Game, heaps: &[u64]) -> Sum {
        Sum {
            heaps: heaps.iter().map(|&n| (game.clone(), n)).collect(),
        }
    }

    /// Reads `SPEC:HEAP + SPEC:HEAP + …` (whitespace allowed; heaps in any count form such
    /// as `1e18`). A `+` or `:` inside braces or parentheses belongs to the spec.
    ///
    /// # Errors
    /// [`SumError`] naming the term and the problem.
    pub fn parse(text: &str) -> Result<Sum, SumError> {
        let terms = split_top(text, '+');
        if terms.iter().all(|t| t.trim().is_empty()) {
            return Err(SumError::Empty);
        }
        let heaps = terms
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let term = i + 1;
                let parts = split_top(t, ':');
                let text = || t.trim().chars().take(60).collect();
                let (spec, heap) = match parts.len() {
                    2 if parts[1].trim().is_empty() => {
                        return Err(SumError::NoHeap { term, text: text() })
                    }
                    2 => (parts[0].trim(), parts[1].trim()),
                    1 => return Err(SumError::NoHeap { term, text: text() }),
                    _ => return Err(SumError::SeveralHeaps { term, text: text() }),
                };
                let game = Game::parse(spec).map_err(|source| SumError::Spec { term, source })?;
                let n = parse_count(heap).map_err(|source| SumError::Heap { term, source })?;
                Ok((game, n))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Sum { heaps })
    }
}

impl std::fmt::Display for Sum {
    /// `squares:5 + 0.77:12` (canonical specs).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, (g, n)) in self.heaps.iter().enumerate() {
            if i > 0 {
                f.write_str(" + ")?;
            }
            write!(f, "{g}:{n}")?;
        }
        Ok(())
    }
}

/// `text` split at each `sep` outside braces and parentheses.
fn split_top(text: &str, sep: char) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (vec![], 0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '{' | '(' | '[' => depth += 1,
            '}' | ')' | ']' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// How the Grundy values of a game are known up to some heap.
pub(crate) enum Values {
    /// g(n) = v2(n) (`divisors`; g(0) = 0): an odd heap has only odd divisors, and from
    /// n = 2^a·m the moves reach every valuation below a and none equal to it.
    V2,
    /// g(n) = (n - shift) mod m for n >= shift, 0 below (`upto{k}`: m = k + 1, shift 0;
    /// `leave1(upto{k})`: shift 1).
    Mod { m: u64, shift: u64 },
    /// g(n) = n - shift for n >= shift, 0 below (`nim`: shift 0; `leave1(nim)`: shift 1).
    Nim { shift: u64 },
    /// g(2m) = m, g(2m + 1) = g(m) (`half`, A025480: the options of n are the heaps
    /// ceil(n/2)..n - 1; L. Levine, "Fractal sequences and restricted Nim", Ars
    /// Combinatoria 80 (2006)).
    Half,
    /// A proven period.
    Periodic(Proven),
    /// A table up to some heap.
    Table(GrundyTable),
}

impl Values {
    /// g(x) (x within the table for [`Values::Table`]).
    pub(crate) fn at(&self, x: u64) -> u64 {
        match self {
            Values::V2 => u64::from(if x == 0 { 0 } else { x.trailing_zeros() }),
            Values::Mod { m, shift } => x.checked_sub(*shift).map_or(0, |y| y % m),
            Values::Nim { shift } => x.saturating_sub(*shift),
            Values::Half => x.checked_shr(x.trailing_ones() + 1).unwrap_or(0),
            Values::Periodic(p) => u64::from(p.at(x)),
            Values::Table(t) => u64::from(t.get(x)),
        }
    }

    /// How the values are known, for reports.
    fn method(&self) -> String {
        match self {
            Values::V2 => "closed form (g = v2(n))".into(),
            Values::Mod { .. } => "closed form (n mod (k + 1))".into(),
            Values::Nim { .. } => "closed form (g = n)".into(),
            Values::Half => "closed form (g(2m) = m, g(2m + 1) = g(m))".into(),
            Values::Periodic(p) => format!(
                "proven period {} from {} ({})",
                p.period.period, p.period.preperiod, p.certificate
            ),
            Values::Table(_) => "grundy table".into(),
        }
    }
}

/// The Grundy values of a family with a closed form (`divisors`: v2(n); `upto{k}`:
/// n mod (k + 1); `half`; all-but with nothing excluded: nim), whatever the heap.
pub(crate) fn closed_values(game: &Game) -> Option<Values> {
    match game {
        Game::Divisors { nontrivial: false } => Some(Values::V2),
        // upto{2^64 - 1} takes any amount from any heap: it is nim
        Game::Interval {
            bound: Bound::Upto(k),
            leave1,
        } => Some(match k.checked_add(1) {
            Some(m) => Values::Mod {
                m,
                shift: u64::from(*leave1),
            },
            None => Values::Nim {
                shift: u64::from(*leave1),
            },
        }),
        // leave1 changes nothing: half never takes a whole heap
        Game::Interval {
            bound: Bound::Half, ..
        } => Some(Values::Half),
        Game::Subtraction {
            set: MoveSet::AllBut { excluded },
            leave1,
        } if excluded.is_empty() => Some(Values::Nim {
            shift: u64::from(*leave1),
        }),
        Game::Subtraction { .. }
        | Game::Divisors { .. }
        | Game::Interval { .. }
        | Game::TakeBreak(_)
        | Game::GrundyGame
        | Game::Ruleset(_)
        | Game::NonDivisors
        | Game::Rule(_)
        | Game::Union(_)
        | Game::Misere(_) => None,
    }
}

/// The Grundy values of `game` up to heap `n` by the fastest known path: a closed form, a
/// proven period, or a table up to n within `budget`.
fn values_upto(game: &Game, n: u64, budget: &Budget, obs: &dyn Observer) -> Result<Values, Error> {
    match known_values(game, n, budget, obs)? {
        Some(v) => Ok(v),
        None => table_values(game, n, budget, obs),
    }
}

/// The Grundy values of `game` up to heap `n` without a table up to n: a closed form, or
/// (for n past 2^22, where a table would be large) a proven period. `None` when neither.
fn known_values(
    game: &Game,
    n: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<Option<Values>, Error> {
    if let Some(v) = closed_values(game) {
        return Ok(Some(v));
    }
    // small heaps straight from a table; beyond, a proven period first
    if n > 1 << 22 {
        if let Some(p) = proven_grundy(game, budget, obs)? {
            return Ok(Some(Values::Periodic(p)));
        }
    }
    Ok(None)
}

/// A Grundy table up to heap `n`, within `budget`.
fn table_values(game: &Game, n: u64, budget: &Budget, obs: &dyn Observer) -> Result<Values, Error> {
    let p = reachable(game, Task::Grundy, n, u64::MAX, budget, || {
        format!("has no known Grundy value at n = {n} short of a table up to it")
    })?;
    obs.planned(&p);
    Ok(Values::Table(grundy_table(game, n, obs)?))
}

/// One heap's Grundy value and how it was found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeapValue {
    /// The game's canonical spec.
    pub game: String,
    /// The heap size.
    pub n: u64,
    /// g(n); `None` only for a lone heap whose outcome was decided without its value
    /// (a P-position sieve).
    pub grundy: Option<u64>,
    /// How it was found.
    pub method: String,
}

/// The Grundy value of a heap of `n` of `game`, by the fastest known path.
///
/// # Errors
/// [`crate::Refusal::TooFar`] (as [`Error::Refused`]) when only a table up to n would tell and
/// the budget does not allow it; [`Error::Cancelled`] when `obs` stops a table.
pub fn grundy_value(
    game: &Game,
    n: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<HeapValue, Error> {
    let game = &*game.normalized();
    let v = values_upto(game, n, budget, obs)?;
    Ok(HeapValue {
        game: game.to_string(),
        n,
        grundy: Some(v.at(n)),
        method: v.method(),
    })
}

/// A winning move in a sum: the heap it is made in, the move in that heap's own terms, and
/// the sum it leaves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SumMove {
    /// 0-based index of the heap moved in.
    pub heap: usize,
    /// The move: tokens removed and the heaps that one heap leaves.
    #[serde(flatten)]
    pub step: Move,
    /// The sum after the move (that heap replaced by what it leaves), as (spec, heap) pairs.
    pub result: Vec<(String, u64)>,
}

/// Who wins a sum.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SumDecision {
    /// Every heap's Grundy value.
    pub heaps: Vec<HeapValue>,
    /// The XOR of the heaps' values: the sum's Grundy value (`None` only as for
    /// [`HeapValue::grundy`]).
    pub grundy: Option<u64>,
    /// True for an N-position (the player to move wins): the XOR is not 0.
    pub win: bool,
    /// One winning move, when the sum wins.
    pub winning_move: Option<SumMove>,
}

/// Decides a sum: every heap's Grundy value (by [`grundy_value`]), their XOR, the outcome,
/// and one winning move — in a heap whose value v has v ^ X < v (X the XOR), to an option
/// of value v ^ X. A sum of one heap is decided as that heap ([`crate::decide()`]), so it
/// answers wherever a single heap does, even without its Grundy value.
///
/// # Errors
/// As [`grundy_value`] for each heap; [`crate::decide()`] for one heap.
pub fn decide_sum(sum: &Sum, budget: &Budget, obs: &dyn Observer) -> Result<SumDecision, Error> {
    Ok(sum_winning_moves(sum, 1, budget, obs)?.decision)
}

/// Every winning move of a sum, as [`decide_sum`] finds one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SumMoves {
    /// The decision (its `winning_move` is the first of `moves`).
    pub decision: SumDecision,
    /// The winning moves, heap by heap, at most the limit asked for.
    pub moves: Vec<SumMove>,
    /// Whether `moves` is every winning move (false when the limit, a scan of more than
    /// 10^7 candidate moves in one heap, or a proven period's split bound cut the list).
    pub complete: bool,
    /// For one heap: which moves are listed when the method lists only some by
    /// construction ([`crate::WinningMoves::note`]).
    pub note: Option<String>,
}

/// Decides a sum as [`decide_sum`] does and lists its winning moves, at most `limit` (0 is
/// taken as 1): in every heap whose value v has v ^ X < v, the moves to an option of value
/// v ^ X. A sum of one heap lists the heap's winning moves ([`crate::winning_moves`]).
///
/// # Errors
/// As [`decide_sum`].
pub fn sum_winning_moves(
    sum: &Sum,
    limit: usize,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<SumMoves, Error> {
    let limit = limit.max(1);
    if sum.heaps.len() > 1 && sum.heaps.iter().any(|(g, _)| g.play() == Play::Misere) {
        return Err(Error::Unsupported {
            what: "a misère sum is not decided by Grundy values: see \
                   heaplab_core::misere::misere_sum"
                .into(),
        });
    }
    if let [(game, n)] = &sum.heaps[..] {
        let w = crate::decide::winning_moves(game, *n, limit, budget, obs)?;
        let d = w.decision;
        let value = d.grundy;
        let moves: Vec<SumMove> = w
            .moves
            .into_iter()
            .map(|m| SumMove {
                heap: 0,
                result: m.leaves.iter().map(|&h| (game.to_string(), h)).collect(),
                step: m,
            })
            .collect();
        return Ok(SumMoves {
            decision: SumDecision {
                heaps: vec![HeapValue {
                    game: game.to_string(),
                    n: *n,
                    grundy: value,
                    method: d.method,
                }],
                grundy: value,
                win: d.win,
                winning_move: moves.first().cloned(),
            },
            moves,
            complete: w.complete,
            note: w.note,
        });
    }
    // one set of values per game, up to its largest heap
    let games: Vec<Game> = sum
        .heaps
        .iter()
        .map(|(g, _)| g.normalized().into_owned())
        .collect();
    let mut distinct: Vec<(&Game, u64)> = vec![];
    for (g, (_, n)) in games.iter().zip(&sum.heaps) {
        match distinct.iter_mut().find(|(d, _)| *d == g) {
            Some((_, top)) => *top = (*top).max(*n),
            None => distinct.push((g, *n)),
        }
    }
    let mut known = Vec::with_capacity(distinct.len());
    for &(g, top) in &distinct {
        known.push(values_upto(g, top, budget, obs)?);
    }
    let values: Vec<&Values> = games
        .iter()
        .map(|g| &known[distinct.iter().position(|(d, _)| *d == g).expect("listed")])
        .collect();
    let heaps: Vec<HeapValue> = games
        .iter()
        .zip(&sum.heaps)
        .zip(&values)
        .map(|((g, (_, n)), v)| HeapValue {
            game: g.to_string(),
            n: *n,
            grundy: Some(v.at(*n)),
            method: v.method(),
        })
        .collect();
    let value = |h: &HeapValue| h.grundy.expect("every heap of a sum has its value");
    let x = heaps.iter().fold(0, |a, h| a ^ value(h));
    let (mut moves, mut complete) = (vec![], true);
    if x != 0 {
        for (i, h) in heaps.iter().enumerate() {
            let target = value(h) ^ x;
            // one move is always found in a heap whose value drops; listing every move
            // also takes the moves that raise a heap's value to the target
            if target > value(h) && limit == 1 {
                continue;
            }
            if moves.len() == limit {
                complete = false;
                break;
            }
            let (steps, all) = moves_to(
                &games[i],
                h.n,
                value(h),
                target,
                values[i],
                limit - moves.len(),
            );
            complete &= all;
            for step in steps {
                let mut result: Vec<(String, u64)> = vec![];
                for (j, hv) in heaps.iter().enumerate() {
                    if j == i {
                        result.extend(step.leaves.iter().map(|&l| (hv.game.clone(), l)));
                    } else {
                        result.push((hv.game.clone(), hv.n));
                    }
                }
                moves.push(SumMove {
                    heap: i,
                    step,
                    result,
                });
            }
        }
    }
    Ok(SumMoves {
        decision: SumDecision {
            heaps,
            grundy: Some(x),
            win: x != 0,
            winning_move: moves.first().cloned(),
        },
        moves,
        complete,
        note: None,
    })
}

/// Candidate moves a scan looks at, per heap, before it gives up listing more.
const SCAN_MAX: u64 = 10_000_000;

/// Moves from a heap of `n` (value `g`) of `game` to an option of value `target` (one
/// exists when target < g, by the definition of g as a mex; `limit` 1 asks only that
/// case), at most `limit`, found by the family's
/// own means: the closed forms directly (the one move when the values increase with n),
/// finite sets and tables through the moves in increasing order, take-and-break codes
/// through their options (splits a + b with a at most n0 + 2p for a proven period, which
/// covers every pair of residues). The flag says whether the list is every such move
/// (false when the limit, the first [`SCAN_MAX`] candidates or the n0 + 2p bound cut it).
fn moves_to(
    game: &Game,
    n: u64,
    g: u64,
    target: u64,
    values: &Values,
    limit: usize,
) -> (Vec<Move>, bool) {
    let take = |s: u64| Move::take(n, s);
    // half: one option of the target value found directly, wherever it is
    let direct = match values {
        Values::Half => n
            .checked_sub(1)
            .and_then(|hi| half_option(n.div_ceil(2), hi, target))
            .map(|m| n - m),
        _ => None,
    };
    let top = match game {
        Game::Subtraction { leave1: true, .. } | Game::Interval { leave1: true, .. } => {
            n.saturating_sub(1)
        }
        _ => n,
    };
    match values {
        // values increase with n: only a smaller value is reached, by one move
        Values::Nim { .. } => {
            let s = g.checked_sub(target).filter(|&s| s >= 1);
            return (s.map(take).into_iter().collect(), true);
        }
        // the k options n - 1, …, n - k hold k different residues mod k + 1: one move
        // reaches each value other than g (when n leaves room for it)
        Values::Mod { m, .. } => {
            let s = (g % m + m - target % m) % m;
            let ok = s >= 1 && s <= top && values.at(n - s) == target;
            return (ok.then(|| take(s)).into_iter().collect(), true);
        }
        // 2^target divides n (target < v2(n)), and n - 2^target has valuation target
        Values::V2 if limit == 1 => return (vec![take(1 << target)], false),
        Values::Half if limit == 1 => return (direct.map(take).into_iter().collect(), false),
        Values::V2 | Values::Half | Values::Periodic(_) | Values::Table(_) => {}
    }
    if Breaker::of(game).is_some() || matches!(game, Game::Ruleset(_)) {
        let a_max = match values {
            Values::Periodic(p) => p.period.preperiod + 2 * p.period.period,
            _ => u64::MAX,
        };
        // one more than asked, so a full list can be told from a cut one
        let mut found = options_of_value(game, n, a_max, limit + 1, |h| values.at(h), target);
        let complete = found.len() <= limit && !splits_cut(n, a_max);
        found.truncate(limit);
        return (found, complete);
    }
    let leaves_value = |s: &u64| values.at(n - s) == target;
    let candidates: Box<dyn Iterator<Item = u64>> = match game {
        Game::Subtraction { set, .. } => match set {
            MoveSet::AllBut { excluded } => {
                Box::new((1..=top).filter(move |s| excluded.binary_search(s).is_err()))
            }
            MoveSet::Union { .. } => Box::new(set.elements_upto(top).into_iter()),
        },
        Game::Divisors { nontrivial } => {
            let lo = if *nontrivial { 2 } else { 1 };
            let mut ds: Vec<u64> = (1..=crate::num::isqrt(n))
                .filter(|d| n.is_multiple_of(*d))
                .flat_map(|d| [d, n / d])
                .filter(|&d| d >= lo && d < n)
                .collect();
            ds.sort_unstable();
            ds.dedup();
            Box::new(ds.into_iter())
        }
        Game::Interval { bound, .. } => Box::new(1..=bound.f(n).min(top)),
        Game::NonDivisors | Game::Rule(_) | Game::Union(_) => {
            Box::new(game.moves_of(n).unwrap_or_default().into_iter())
        }
        Game::TakeBreak(_) | Game::GrundyGame | Game::Ruleset(_) | Game::Misere(_) => {
            Box::new(std::iter::empty())
        }
    };
    let (mut found, mut scanned) = (vec![], 0u64);
    let mut complete = true;
    found.extend(direct.map(take));
    for s in candidates.filter(|&s| Some(s) != direct) {
        scanned += 1;
        if scanned > SCAN_MAX || found.len() == limit {
            complete = false;
            break;
        }
        if leaves_value(&s) {
            found.push(take(s));
        }
    }
    (found, complete)
}

/// A heap m in lo..=hi with g(m) = t in `half` (g(2m) = m, g(2m + 1) = g(m)): 2t when it
/// is in range, else an odd 2m' + 1 with g(m') = t, m' in the halved range; `None` when
/// the range holds no such heap (never for the options of a heap of larger value).
fn half_option(lo: u64, hi: u64, t: u64) -> Option<u64> {
    if lo > hi {
        return None;
    }
    if let Some(e) = t.checked_mul(2).filter(|e| (lo..=hi).contains(e)) {
        return Some(e);
    }
    // odd heaps 2m' + 1 in lo..=hi: m' from ceil((lo - 1)/2) to floor((hi - 1)/2)
    let hi2 = hi.checked_sub(1)? / 2;
    let lo2 = lo.saturating_sub(1).div_ceil(2);
    half_option(lo2, hi2, t).map(|m| 2 * m + 1)
}

/// Counts of the k-heap positions of one game (serialised as decimal strings: they pass
/// 2^64).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SumCount {
    /// Positions counted: ordered k-tuples, or multisets with `sorted`.
    #[serde(serialize_with = "decimal")]
    pub total: BigUint,
    /// Those with XOR 0 (P-positions).
    #[serde(serialize_with = "decimal")]
    pub p_positions: BigUint,
    /// The others (N-positions).
    #[serde(serialize_with = "decimal")]
    pub n_positions: BigUint,
    /// How the Grundy values were found.
    pub method: String,
    /// The largest Grundy value among the heap sizes; `None` when no value was needed
    /// (no heap sizes, or one heap counted from its P-positions).
    pub max_grundy: Option<u64>,
}

/// A big count as its decimal digits.
fn decimal<S: serde::Serializer>(x: &BigUint, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&x.to_string())
}

/// The most distinct Grundy values a count handles (its transform has one entry each).
const MAX_VALUES: u64 = 1 << 22;

/// The positions of `heaps` heaps of `game`, each heap of size in `min..=max`, as ordered
/// tuples or (with `sorted`) as multisets a <= b <= …, counted by outcome: the P-positions
/// are those whose Grundy values XOR to 0.
///
/// Method: the histogram H of g(n) over the range — arithmetic for closed forms and proven
/// periods (so N = 10^18 answers at once), else from a table — and its Walsh–Hadamard
/// transform Ĥ (M = the values rounded up to a power of two): ordered tuples with XOR 0
/// number (1/M) Σ_w Ĥ(w)^k; multisets, by the cycle index of the symmetric group
/// (Burnside–Pólya: a cycle of odd length j contributes the heap's value once, of even
/// length not at all), (1/(M·k!)) Σ_λ (k!/z_λ) T^{e(λ)} Σ_w Ĥ(w)^{o(λ)}, over the
/// partitions λ of k with o(λ) odd and e(λ) even parts, T = max - min + 1 (grouped by
/// (o, e), so k = 64 costs milliseconds). Exact (arbitrary precision).
///
/// `min > max` counts nothing (every count 0).
///
/// # Errors
/// A refusal when the values are only known from a table the budget does not allow;
/// [`Error::TooLarge`] when there are more than 2^22 distinct values, or for all 2^64 heap
/// sizes (min 0, max 2^64 - 1); cancellation by `obs`.
pub fn count_sums(
    game: &Game,
    heaps: u32,
    min: u64,
    max: u64,
    sorted: bool,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<SumCount, Error> {
    let game = &*game.normalized();
    if game.play() == Play::Misere {
        return Err(Error::Unsupported {
            what: format!(
                "counting sums of {game}: misère sums do not follow the XOR of values \
                 (they need the misère quotient)"
            ),
        });
    }
    if min > max {
        // no heap sizes: no positions
        return Ok(SumCount {
            total: BigUint::from(0u32),
            p_positions: BigUint::from(0u32),
            n_positions: BigUint::from(0u32),
            method: "no heap sizes (min > max)".into(),
            max_grundy: None,
        });
    }
    if max - min == u64::MAX {
        return Err(Error::TooLarge {
            what: "a count of sums from heap 0",
            n: max,
            limit: u64::MAX - 1,
        });
    }
    let values = match known_values(game, max, budget, obs)? {
        Some(v) => v,
        // one heap: its P-positions by the fastest stream (a sieve needs no Grundy table)
        None if heaps == 1 => return count_p_positions(game, min, max, budget, obs),
        None => table_values(game, max, budget, obs)?,
    };
    let hist = histogram(&values, min, max)?;
    let m = hist.len();
    let max_grundy = hist.iter().rposition(|&c| c > 0).map(|g| g as u64);
    let t = BigUint::from(max - min) + 1u32;
    // Ĥ(w), exact in i128: |Ĥ(w)| <= T <= 2^64
    let mut h: Vec<i128> = hist.iter().map(|&c| c as i128).collect();
    walsh_hadamard(&mut h);
    // S_j = Σ_w Ĥ(w)^j for j = 0..=k
    let k = heaps as usize;
    // (ordered tuples need S_k alone)
    let mut s = vec![BigInt::from(0); k + 1];
    for &x in &h {
        let x = BigInt::from(x);
        if sorted {
            let mut p = BigInt::from(1);
            for sj in s.iter_mut() {
                *sj += &p;
                p *= &x;
            }
        } else {
            s[k] += x.pow(heaps);
        }
    }
    let mm = BigInt::from(m as u64);
    let (total, p) = if !sorted {
        (t.pow(heaps), &s[k] / &mm)
    } else {
        // k! Σ over cycle types: the number of permutations of each type times the fixed
        // positions' count
        let mut acc = BigInt::from(0);
        let t_int = BigInt::from(t.clone());
        for (odd, row) in cycle_parities(k).iter().enumerate() {
            for (even, perms) in row.iter().enumerate() {
                if perms.sign() != num_bigint::Sign::NoSign {
                    acc += perms * t_int.pow(even as u32) * &s[odd];
                }
            }
        }
        let fact: BigInt = (1..=k as u64).map(BigInt::from).product();
        (multisets(&t, heaps), acc / (mm * fact))
    };
    let p = p.to_biguint().expect("a count is not negative");
    Ok(SumCount {
        n_positions: &total - &p,
        total,
        p_positions: p,
        method: values.method(),
        max_grundy,
    })
}

/// The P-positions of one heap of `game` in min..=max, counted from the fastest
/// P-position stream ([`open_stream`]) after [`plan`] has accepted it within `budget`.
fn count_p_positions(
    game: &Game,
    min: u64,
    max: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<SumCount, Error> {
    let plan = plan(game, Task::PPositions, max, budget)?;
    obs.planned(&plan);
    let mut p = 0u64;
    run_stream(game, max, obs, |segment| {
        p += segment.iter().filter(|&&x| x >= min).count() as u64;
    })?;
    let total = BigUint::from(max - min) + 1u32;
    let p = BigUint::from(p);
    Ok(SumCount {
        n_positions: &total - &p,
        total,
        p_positions: p,
        method: format!("P-positions by {}", plan.engine.name()),
        max_grundy: None,
    })
}

/// C(t + k - 1, k): multisets of size k from t items.
fn multisets(t: &BigUint, k: u32) -> BigUint {
    let mut num = BigUint::from(1u32);
    let mut den = BigUint::from(1u32);
    for i in 0..k {
        num *= t + BigUint::from(i);
        den *= BigUint::from(i + 1);
    }
    num / den
}

/// The cycle index of the symmetric group S_k with every odd cycle marked x and every even
/// cycle y, times k!: `w[o][e]` is the number of permutations of k items with o cycles of
/// odd length and e of even length. From the recurrence k·Z_k = Σ_j a_j Z_{k-j} (the
/// cycle through item k has length j; Stanley, *Enumerative Combinatorics* II, 5.1), as
/// W_m = Σ_{j=1}^{m} (m-1)!/(m-j)! · a_j · W_{m-j} with W_m = m!·Z_m: O(k^4) big-integer
/// steps, never the partitions of k one by one.
fn cycle_parities(k: usize) -> Vec<Vec<BigInt>> {
    let zero = || vec![vec![BigInt::from(0); k / 2 + 1]; k + 1];
    let mut w: Vec<Vec<Vec<BigInt>>> = Vec::with_capacity(k + 1);
    let mut w0 = zero();
    w0[0][0] = BigInt::from(1);
    w.push(w0);
    for m in 1..=k {
        let mut wm = zero();
        let mut fall = BigInt::from(1); // (m-1)!/(m-j)!
        for j in 1..=m {
            if j > 1 {
                fall *= (m - j + 1) as u64;
            }
            let (dodd, deven) = if j % 2 == 1 { (1, 0) } else { (0, 1) };
            for (o, row) in w[m - j].iter().enumerate() {
                for (e, c) in row.iter().enumerate() {
                    if c.sign() != num_bigint::Sign::NoSign {
                        wm[o + dodd][e + deven] += &fall * c;
                    }
                }
            }
        }
        w.push(wm);
    }
    w.pop().expect("w holds W_0..=W_k")
}

/// In-place Walsh–Hadamard transform (length a power of two): `a[w] = Σ_v a[v]·(-1)^popcount(v & w)`.
fn walsh_hadamard(a: &mut [i128]) {
    let mut len = 1;
    while len < a.len() {
        for block in a.chunks_mut(2 * len) {
            let (lo, hi) = block.split_at_mut(len);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let (u, v) = (*x, *y);
                *x = u + v;
                *y = u - v;
            }
        }
        len *= 2;
    }
}

/// The histogram of g(n) over min..=max (index = value), its length a power of two.
fn histogram(values: &Values, min: u64, max: u64) -> Result<Vec<u64>, Error> {
    let mut h: Vec<u64> = Vec::new();
    let mut add = |v: u64, c: u64| -> Result<(), Error> {
        if v >= MAX_VALUES {
            return Err(Error::TooLarge {
                what: "a count of sums (Grundy values beyond 2^22)",
                n: max,
                limit: MAX_VALUES,
            });
        }
        if h.len() <= v as usize {
            h.resize(v as usize + 1, 0);
        }
        h[v as usize] += c;
        Ok(())
    };
    // the positions below `from` one by one, the rest by a rule
    let direct = |lo: u64, hi: u64, add: &mut dyn FnMut(u64, u64) -> Result<(), Error>| {
        for x in lo..=hi {
            add(values.at(x), 1)?;
        }
        Ok::<(), Error>(())
    };
    match values {
        Values::V2 => {
            if min == 0 {
                add(0, 1)?;
            }
            let lo = min.max(1);
            // n in [lo, max] with v2(n) = v: multiples of 2^v less multiples of 2^(v+1)
            let upto = |x: u64, v: u32| (x >> v) - x.checked_shr(v + 1).unwrap_or(0);
            for v in 0..64u32 {
                let c = upto(max, v) - upto(lo - 1, v);
                if c > 0 {
                    add(u64::from(v), c)?;
                }
            }
        }
        Values::Mod { m, shift } => {
            let below = min..(*shift).min(max.saturating_add(1));
            for _ in below {
                add(0, 1)?;
            }
            let lo = min.max(*shift);
            if lo <= max {
                // x - shift over [lo - shift, max - shift], counted by residue
                count_residues(lo - shift, max - shift, *m, &mut add)?;
            }
        }
        Values::Nim { .. } | Values::Half => {
            if max.saturating_sub(min) >= MAX_VALUES {
                return Err(Error::TooLarge {
                    what: "a count of sums of nim or half heaps (values up to n)",
                    n: max,
                    limit: MAX_VALUES,
                });
            }
            direct(min, max, &mut add)?;
        }
        Values::Periodic(p) => {
            let (n0, per) = (p.period.preperiod, p.period.period);
            let head_end = (n0 + per).min(max.saturating_add(1));
            if min < head_end {
                direct(min, head_end - 1, &mut add)?;
            }
            let lo = min.max(n0 + per);
            if lo <= max {
                // positions lo..=max repeat n0..n0 + per: whole periods and a remainder
                let len = max - lo + 1;
                let (whole, rest) = (len / per, len % per);
                let start = (lo - n0) % per;
                for i in 0..per {
                    let r = (start + i) % per;
                    let c = whole + u64::from(i < rest);
                    if c > 0 {
                        add(u64::from(p.at(n0 + r)), c)?;
                    }
                }
            }
        }
        Values::Table(_) => direct(min, max, &mut add)?,
    }
    let m = h.len().next_power_of_two().max(1);
    h.resize(m, 0);
    Ok(h)
}

/// Adds, for every residue r mod m, how many x in lo..=hi have x mod m = r (as value r).
fn count_residues(
    lo: u64,
    hi: u64,
    m: u64,
    add: &mut dyn FnMut(u64, u64) -> Result<(), Error>,
) -> Result<(), Error> {
    // (u128: 0..=2^64 - 1 holds 2^64 positions)
    let len = u128::from(hi - lo) + 1;
    let (whole, rest) = ((len / u128::from(m)) as u64, (len % u128::from(m)) as u64);
    if m > MAX_VALUES {
        // more residues than values: count the few x there are (whole = 0)
        for x in lo..=hi {
            add(x % m, 1)?;
        }
        return Ok(());
    }
    for i in 0..m {
        let c = whole + u64::from(i < rest);
        if c > 0 {
            add((lo + i) % m, c)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// Permutations of k items by (odd cycles, even cycles), one partition at a time.
    fn cycle_parities_by_partitions(k: usize) -> Vec<Vec<BigInt>> {
        fn parts(k: usize, most: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            if k == 0 {
                out.push(cur.clone());
            }
            for j in (1..=most.min(k)).rev() {
                cur.push(j);
                parts(k - j, j, cur, out);
                cur.pop();
            }
        }
        let fact = |n: usize| -> BigInt { (1..=n as u64).map(BigInt::from).product() };
        let mut all = vec![];
        parts(k, k, &mut vec![], &mut all);
        let mut w = vec![vec![BigInt::from(0); k / 2 + 1]; k + 1];
        for p in all {
            // k!/z_λ with z_λ = Π_j j^{m_j} m_j!
            let mut z = BigInt::from(1);
            for len in 1..=k {
                let m = p.iter().filter(|&&x| x == len).count();
                z *= BigInt::from(len as u64).pow(m as u32) * fact(m);
            }
            let odd = p.iter().filter(|&&j| j % 2 == 1).count();
            w[odd][p.len() - odd] += fact(k) / z;
        }
        w
    }

    #[test]
    fn cycle_index_by_recurrence_is_by_partitions() {
        for k in 0..=12 {
            let w = cycle_parities(k);
            assert_eq!(w, cycle_parities_by_partitions(k), "k = {k}");
            let total: BigInt = w.iter().flatten().sum();
            assert_eq!(total, (1..=k as u64).map(BigInt::from).product::<BigInt>());
        }
        // S_3: the identity (3 odd cycles), 3 transpositions (1 odd + 1 even), 2 3-cycles
        let w = cycle_parities(3);
        assert_eq!(
            (&w[3][0], &w[1][1], &w[1][0]),
            (&BigInt::from(1), &BigInt::from(3), &BigInt::from(2))
        );
    }

    use super::*;
    use crate::decide::decide;
    use crate::observe::Silent;
    use crate::rule::grundy_by_definition;

    fn b() -> Budget {
        Budget::new(1 << 30)
    }

    fn count(spec: &str, k: u32, min: u64, max: u64, sorted: bool) -> SumCount {
        count_sums(
            &Game::parse(spec).unwrap(),
            k,
            min,
            max,
            sorted,
            &b(),
            &Silent,
        )
        .unwrap()
    }

    /// The counts by enumerating every tuple (or multiset) of heaps.
    fn brute(spec: &str, k: u32, min: u64, max: u64, sorted: bool) -> (u64, u64) {
        let g = grundy_by_definition(&Game::parse(spec).unwrap(), max);
        let (mut total, mut p) = (0, 0);
        let mut t = vec![min; k as usize];
        loop {
            if !sorted || t.windows(2).all(|w| w[0] <= w[1]) {
                total += 1;
                if t.iter().fold(0, |a, &h| a ^ g[h as usize]) == 0 {
                    p += 1;
                }
            }
            // next tuple
            let mut i = 0;
            loop {
                if i == t.len() {
                    return (total, p);
                }
                if t[i] < max {
                    t[i] += 1;
                    break;
                }
                t[i] = min;
                i += 1;
            }
        }
    }

    #[test]
    fn project_euler_310_and_306() {
        // PE 310 (Nim Square): 1160 losing triples 0 <= a <= b <= c <= 29
        let c = count("squares", 3, 0, 29, true);
        assert_eq!(c.p_positions, BigUint::from(1160u32));
        // PE 306 (the paper-strip game, Dawson's Kayles 0.07): the first player wins 3 of
        // the strips 1..=5 and 40 of 1..=50
        assert_eq!(
            count("0.07", 1, 1, 5, false).n_positions,
            BigUint::from(3u32)
        );
        assert_eq!(
            count("0.07", 1, 1, 50, false).n_positions,
            BigUint::from(40u32)
        );
        // one heap: its P-positions by the sieve, no Grundy table (A030193: 26 in 10..=147)
        let c = count("squares", 1, 10, 147, false);
        assert_eq!(c.p_positions, BigUint::from(26u32));
        assert!(c.method.contains("sieve") && c.max_grundy.is_none());
    }

    #[test]
    fn counts_equal_enumeration() {
        for spec in [
            "squares",
            "sub{1,3,4}",
            "0.77",
            "0.07",
            "divisors",
            "upto{3}",
            "leave1(upto{2})",
            "nim",
            "sqrt",
            "half",
            "leave1(half)",
            "leave1(primes|sub{1})",
        ] {
            for k in 1..=4 {
                for (min, max) in [(0, 9), (1, 12), (3, 7)] {
                    for sorted in [false, true] {
                        let c = count(spec, k, min, max, sorted);
                        let (total, p) = brute(spec, k, min, max, sorted);
                        assert_eq!(c.total, BigUint::from(total), "{spec} {k} {min} {max}");
                        assert_eq!(
                            c.p_positions,
                            BigUint::from(p),
                            "{spec} {k} {min}..{max} {sorted}"
                        );
                        assert_eq!(c.n_positions, BigUint::from(total - p));
                    }
                }
            }
        }
    }

    #[test]
    fn huge_ranges_from_closed_forms_and_periods() {
        // divisors: g = v2(n); a closed-form histogram to 10^14 (and to 200 it equals the
        // table's)
        let t = std::time::Instant::now();
        let c = count("divisors", 3, 1, 100_000_000_000_000, true);
        assert!(t.elapsed().as_secs() < 5);
        assert!(c.p_positions > BigUint::from(0u32) && c.p_positions < c.total);
        let (total, p) = brute("divisors", 3, 1, 200, true);
        let c = count("divisors", 3, 1, 200, true);
        assert_eq!(
            (c.total, c.p_positions),
            (BigUint::from(total), BigUint::from(p))
        );
        // sub{1,2,3}: g = n mod 4, so pairs (a, b) in 0..=N lose when a ≡ b (mod 4)
        let n = 1_000_000_000_000_000_000u64;
        let c = count("sub{1,2,3}", 2, 0, n, false);
        let per = BigUint::from(n / 4 + 1);
        let rest = BigUint::from(n / 4);
        let want = &per * &per + 3u32 * &rest * &rest;
        assert_eq!(c.p_positions, want);
        // counts past 2^64 are exact
        assert!(c.total > BigUint::from(u64::MAX));
        // Kayles: a proven period, huge N at once
        let c = count("0.77", 2, 0, 1_000_000_000_000, false);
        assert!(c.p_positions > BigUint::from(0u32));
        // the widest range: 2^64 - 1 sizes of upto{0} (no moves), every pair lost
        let c = count("upto{0}", 2, 1, u64::MAX, false);
        assert_eq!(c.p_positions, BigUint::from(u64::MAX).pow(2));
        let c = count("upto{1}", 1, 1, u64::MAX, false); // g = n mod 2: the even heaps
        assert_eq!(c.p_positions, BigUint::from(u64::MAX / 2));
        // all 2^64 sizes are refused; an empty range counts nothing
        let all = count_sums(
            &Game::parse("upto{0}").unwrap(),
            2,
            0,
            u64::MAX,
            false,
            &b(),
            &Silent,
        );
        assert!(matches!(all, Err(Error::TooLarge { .. })));
        let none = count("squares", 3, 7, 5, true);
        assert_eq!(
            (none.total, none.p_positions),
            (BigUint::from(0u32), BigUint::from(0u32))
        );
    }

    #[test]
    fn sums_are_decided_and_their_winning_moves_win() {
        let b = b();
        let specs = [
            "squares",
            "0.77",
            "sub{1,2}",
            "divisors",
            "upto{3}",
            "grundy-game",
            "nim",
            "0.137",
            "half",
        ];
        let tables: Vec<Vec<u32>> = specs
            .iter()
            .map(|s| grundy_by_definition(&Game::parse(s).unwrap(), 200))
            .collect();
        let mut next = crate::num::xorshift(77);
        for _ in 0..300 {
            let k = 2 + (next() % 3) as usize;
            let heaps: Vec<(usize, u64)> = (0..k)
                .map(|_| ((next() % specs.len() as u64) as usize, next() % 201))
                .collect();
            let sum = Sum {
                heaps: heaps
                    .iter()
                    .map(|&(i, n)| (Game::parse(specs[i]).unwrap(), n))
                    .collect(),
            };
            let d = decide_sum(&sum, &b, &Silent).unwrap();
            let x = heaps
                .iter()
                .fold(0u64, |a, &(i, n)| a ^ u64::from(tables[i][n as usize]));
            assert_eq!((d.grundy, d.win), (Some(x), x != 0), "{sum}");
            match &d.winning_move {
                None => assert!(!d.win, "{sum}: no move"),
                Some(m) => {
                    // the position it leaves has XOR 0
                    let after = m.result.iter().fold(0u64, |a, (g, n)| {
                        let i = specs
                            .iter()
                            .position(|s| Game::parse(s).unwrap().to_string() == *g)
                            .unwrap();
                        a ^ u64::from(tables[i][*n as usize])
                    });
                    assert_eq!(after, 0, "{sum}: {:?}", m);
                    let (g, n) = &sum.heaps[m.heap];
                    assert_eq!(n - m.step.removed, m.step.leaves.iter().sum::<u64>(), "{g}");
                }
            }
        }
        // one heap: as decide
        for (spec, n) in [
            ("squares", 1000u64),
            ("0.77", 1_000_000_000_000_000_000),
            ("sqrt", 1_000_000_000_000_000_000),
        ] {
            let g = Game::parse(spec).unwrap();
            let one = decide_sum(&Sum::of_heaps(&g, &[n]), &b, &Silent).unwrap();
            let d = decide(&g, n, &b, &Silent).unwrap();
            assert_eq!(one.win, d.win);
            assert_eq!(one.winning_move.map(|m| m.step), d.winning_move);
        }
        // far heaps by closed forms and periods
        let s = Sum::parse(
            "divisors:1000000000000000000 + upto{5}:999999999999999999 + 0.77:123456789012345",
        )
        .unwrap();
        let d = decide_sum(&s, &b, &Silent).unwrap();
        assert_eq!(d.heaps[0].grundy, Some(18)); // v2(10^18)
        assert_eq!(d.heaps[1].grundy, Some(999_999_999_999_999_999 % 6));
        assert!(d.win == (d.grundy != Some(0)));
    }

    #[test]
    fn half_by_its_closed_form() {
        let g = grundy_by_definition(&Game::parse("half").unwrap(), 3000);
        for n in 0..=3000u64 {
            assert_eq!(Values::Half.at(n), u64::from(g[n as usize]), "n = {n}");
            // every smaller value among the options ceil(n/2)..n - 1
            for t in 0..Values::Half.at(n) {
                let m = half_option(n.div_ceil(2), n - 1, t).unwrap();
                assert!(
                    (n.div_ceil(2)..n).contains(&m) && g[m as usize] as u64 == t,
                    "{n} {t}"
                );
            }
        }
        // far heaps: 2^64 - 1 (all ones) has value 0, 2^63 has 2^62
        assert_eq!(Values::Half.at(u64::MAX), 0);
        assert_eq!(Values::Half.at(1 << 63), 1 << 62);
        let n = 1_000_000_000_000_000_000u64;
        for t in [0, 1, 12345, Values::Half.at(n) - 1] {
            let m = half_option(n.div_ceil(2), n - 1, t).unwrap();
            assert!((n.div_ceil(2)..n).contains(&m) && Values::Half.at(m) == t);
        }
    }

    #[test]
    fn sums_parse_or_name_the_bad_term() {
        let s = Sum::parse(" squares:5 + 0.77:12+ sub{1,2}:7 ").unwrap();
        assert_eq!(s.to_string(), "squares:5 + 0.77:12 + sub{1,2}:7");
        let s = Sum::parse("leave1(primes|sub{1}):1e6").unwrap();
        assert_eq!(s.heaps[0].1, 1_000_000);
        for (bad, says) in [
            ("", "empty"),
            (" + ", "empty"),
            ("squares:5 +", "term 2 (``) has no heap"),
            ("squares", "no heap"),
            ("squares:x", "term 1: the heap"),
            ("squares:5 + foo:3", "term 2: invalid game spec"),
            ("squares:5:6", "more than one `:HEAP`"),
            ("squares:", "term 1 (`squares:`) has no heap"),
        ] {
            let e = Sum::parse(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn every_winning_move_of_small_sums_is_listed() {
        use crate::rule::Rule;
        let specs = [
            "squares",
            "0.77",
            "sub{1,2}",
            "divisors",
            "half",
            "nim",
            "upto{3}",
            "leave1(upto{4})",
            "leave1(nim)",
        ];
        let games: Vec<Game> = specs.iter().map(|s| Game::parse(s).unwrap()).collect();
        let gv: Vec<Vec<u32>> = games.iter().map(|g| grundy_by_definition(g, 12)).collect();
        let mut rnd = crate::num::xorshift(99);
        for _ in 0..300 {
            let k = 2 + (rnd() % 2) as usize;
            let heaps: Vec<(usize, u64)> = (0..k)
                .map(|_| ((rnd() % specs.len() as u64) as usize, rnd() % 13))
                .collect();
            let text: Vec<String> = heaps
                .iter()
                .map(|&(i, n)| format!("{}:{n}", specs[i]))
                .collect();
            let sum = Sum::parse(&text.join(" + ")).unwrap();
            let x = heaps.iter().fold(0, |a, &(i, n)| a ^ gv[i][n as usize]);
            let mut want = vec![];
            for (j, &(i, n)) in heaps.iter().enumerate() {
                games[i].for_each_option(n, &mut |hs| {
                    let v = hs.iter().fold(0, |a, &h| a ^ gv[i][h as usize]);
                    if x ^ gv[i][n as usize] ^ v == 0 {
                        let mut hs = hs.to_vec();
                        hs.retain(|&h| h > 0);
                        hs.sort_unstable();
                        want.push((j, hs));
                    }
                });
            }
            want.sort();
            want.dedup();
            let w = sum_winning_moves(&sum, 10_000, &Budget::new(1 << 30), &Silent).unwrap();
            let mut got: Vec<(usize, Vec<u64>)> = w
                .moves
                .iter()
                .map(|m| (m.heap, m.step.leaves.clone()))
                .collect();
            got.sort();
            assert_eq!(got, want, "{sum}");
            assert_eq!(w.decision.win, x != 0, "{sum}");
        }
    }

    #[test]
    fn extreme_heaps_of_closed_forms() {
        let b = Budget::new(1 << 30);
        // upto{2^64 - 1} is nim: g(2^64 - 1) = 2^64 - 1 (k + 1 would wrap to 0)
        let m = u64::MAX;
        let g = Game::parse(&format!("upto{{{m}}}")).unwrap();
        assert_eq!(grundy_value(&g, m, &b, &Silent).unwrap().grundy, Some(m));
        let s = Sum::parse(&format!("upto{{{m}}}:{m} + nim:{m}")).unwrap();
        assert!(!decide_sum(&s, &b, &Silent).unwrap().win);
        // a half heap of 0 has no move; the move in the other heap is found directly
        let s = Sum::parse("half:0 + half:1000000000000000000").unwrap();
        let w = sum_winning_moves(&s, 100, &b, &Silent).unwrap();
        assert!(w.decision.win && !w.moves.is_empty());
        assert!(w.moves.iter().all(|m| m.heap == 1));
    }
}
