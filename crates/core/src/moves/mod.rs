//! What moves are, described by their structure ([`Moves`]): the description every engine
//! is picked from and runs on. Families (`games/`) say what their moves are in these terms
//! (`Game::structure`); unions and `rule{…}` keep the structure of their parts where it
//! exists (a union of intervals and finite sets is an interval with extra amounts). Nothing
//! here knows a family.
//!
//! | structure | moves from a heap of n | engines |
//! |---|---|---|
//! | [`Moves::Finite`] | s in a finite set | window sieve, plain mex |
//! | [`Moves::Set`] | s in an infinite (named) set | segmented sieve, blocked mex, layers |
//! | [`Moves::AllBut`] | any s but finitely many | all-but candidates and counts |
//! | [`Moves::Interval`] | 1..=reach(n), plus extra amounts | jump-ahead, sliding-window mex |
//! | [`Moves::Divisors`] | a proper divisor | divisor pull, divisor mex |
//! | [`Moves::Listed`], [`Moves::Union`] | amounts listed heap by heap | option pull, option mex |
//! | [`Moves::Split`] | code digits: remove, then leave 0–3 heaps | sparse space |
//! | [`Moves::Options`] | any option list (extended codes, coin turning, sink) | knapsack |
//! | [`Moves::Seeded`] | prescribed outcomes, then the inner moves | option pull |

pub mod bound;
pub mod breaker;
pub mod interval;
pub mod listed;

use crate::moves::breaker::Breaker;
use crate::moves::interval::{Reach, ReachBound};
use crate::observe::Watch;
use crate::sets::{MoveSet, NamedSet};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::ControlFlow;
use std::sync::Arc;

/// Normal play (the last player to move wins) or misère play (the last player to move
/// loses).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Play {
    /// The last player to move wins.
    #[default]
    Normal,
    /// The last player to move loses.
    Misere,
}

/// Amounts a rule lists heap by heap, where no engine can see a structure (a `rule{…}`
/// predicate in general, `nondivisors`).
pub(crate) trait AmountRule: Send + Sync + fmt::Debug {
    /// Appends the amounts s (1 <= s <= n) that may be removed from a heap of n,
    /// increasing.
    fn amounts(&self, n: u64, out: &mut Vec<u64>);
    /// Is removing s from n a move?
    fn allows(&self, n: u64, s: u64) -> bool;
    /// About how many amounts are tried from a heap of n (for cost estimates).
    fn tried(&self, n: u64) -> f64;
    /// The least heap with a move, when the heaps without one are exactly those below it.
    fn first_move(&self) -> Option<u64> {
        None
    }
}

/// A rule that lists every option of a heap (the heaps each leaves) and computes its own
/// Grundy values: extended codes, coin-turning games, `sink( )`.
pub(crate) trait OptionRule: Send + Sync + fmt::Debug {
    /// Calls `visit` with the heaps each option of a heap of `n` leaves; stops when
    /// `visit` breaks.
    fn for_each_option(
        &self,
        n: u64,
        visit: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> ControlFlow<()>;
    /// Grundy values 0..=max; `room`: the most bytes its value bit sets may take.
    ///
    /// # Errors
    /// When stopped, or when its bit sets do not fit.
    fn grundy(&self, max: u64, room: u64, watch: &mut Watch) -> Result<Vec<u32>, crate::Error>;
    /// Bit-set rows per heap size the engine keeps (for its cost).
    fn rows(&self) -> usize {
        0
    }
    /// How many bit sets (each as wide as the values) the engine holds at N = `max`.
    fn bitsets(&self, _max: u64) -> f64 {
        0.0
    }
    /// About how many rows the engine unites for heap n.
    fn unions_at(&self, _n: f64) -> f64 {
        0.0
    }
    /// About how many single values the engine adds for heap n.
    fn singles_at(&self, n: f64) -> f64;
    /// Every option leaves at most one heap (no pilot run is needed for its cost).
    fn one_heap(&self) -> bool {
        false
    }
    /// The tokens an option that leaves `heaps` removes from n (for moves shown to users).
    fn removed(&self, n: u64, heaps: &[u64]) -> u64 {
        n.saturating_sub(heaps.iter().sum::<u64>())
    }
    /// Moves turn coins (coin-turning games): an option lists the other coins turned.
    fn turns_coins(&self) -> bool {
        false
    }
}

/// What the moves of a game are, as the engines see them.
#[derive(Debug, Clone)]
pub(crate) enum Moves {
    /// Remove s for s in a finite set (`moves` increasing, no 0).
    Finite {
        /// The set.
        moves: Vec<u64>,
        /// A move may not take the whole heap.
        leave1: bool,
    },
    /// Remove s for s in an infinite set (named sets, maybe with finitely many more).
    Set {
        /// The set.
        set: MoveSet,
        /// A move may not take the whole heap.
        leave1: bool,
    },
    /// Remove any positive amount except finitely many.
    AllBut {
        /// The amounts not allowed, increasing.
        excluded: Vec<u64>,
        /// A move may not take the whole heap.
        leave1: bool,
    },
    /// Remove 1..=reach(n), or one of finitely many extra amounts.
    Interval(Reach),
    /// Remove a proper divisor d of n (d >= 2 when `nontrivial`).
    Divisors {
        /// Exclude d = 1.
        nontrivial: bool,
    },
    /// Amounts listed heap by heap by a rule.
    Listed(Arc<dyn AmountRule>),
    /// A move of any of these parts (one-heap structures that do not merge into one).
    Union(Vec<Moves>),
    /// Code digits that remove tokens and leave 0 to 3 heaps.
    Split(Breaker),
    /// Options listed by a rule with its own engine.
    Options(Arc<dyn OptionRule>),
    /// Prescribed outcomes of heaps 0..start.len(), then the inner one-heap moves
    /// (outcomes only).
    Seeded {
        /// `start[n]`: heap n is an N-position.
        start: Vec<bool>,
        /// The moves.
        inner: Box<Moves>,
    },
}

/// A game's moves and how it is played: what every engine is chosen from.
#[derive(Debug, Clone)]
pub(crate) struct Structure {
    /// The moves.
    pub moves: Moves,
    /// Normal or misère play.
    pub play: Play,
}

impl Moves {
    /// The name of the structure (docs/engines.md, `heaplab games`).
    pub fn kind(&self) -> &'static str {
        match self {
            Moves::Finite { .. } => "finite set",
            Moves::Set { .. } => "named set",
            Moves::AllBut { .. } => "all-but set",
            Moves::Interval(r) if r.extra.is_empty() => "interval",
            Moves::Interval(_) => "interval with extra moves",
            Moves::Divisors { .. } => "divisors",
            Moves::Listed(_) | Moves::Union(_) => "listed moves",
            Moves::Split(_) => "code digits",
            Moves::Options(_) => "option list",
            Moves::Seeded { .. } => "seeded outcomes",
        }
    }

    /// True when every move leaves one heap (or none): the structures whose amounts are
    /// listed by [`Moves::amounts`].
    pub fn is_one_heap(&self) -> bool {
        !matches!(self, Moves::Split(_) | Moves::Options(_))
    }

    /// Appends the amounts that may be removed from a heap of n, increasing (nothing for
    /// the structures whose moves split heaps).
    pub fn amounts(&self, n: u64, out: &mut Vec<u64>) {
        let from = out.len();
        let top = |leave1: bool| if leave1 { n.saturating_sub(1) } else { n };
        match self {
            Moves::Finite { moves, leave1 } => {
                let t = top(*leave1);
                out.extend(moves.iter().copied().take_while(|&s| s <= t));
            }
            Moves::Set { set, leave1 } => set_amounts(set, top(*leave1), out),
            Moves::AllBut { excluded, leave1 } => {
                out.extend((1..=top(*leave1)).filter(|s| excluded.binary_search(s).is_err()))
            }
            Moves::Interval(r) => r.amounts(n, out),
            Moves::Divisors { nontrivial } => {
                // pairs d·(n/d) = n with d <= sqrt(n)
                let lo = if *nontrivial { 2 } else { 1 };
                for d in (1..=crate::num::isqrt(n)).filter(|d| n.is_multiple_of(*d)) {
                    out.extend([d, n / d].into_iter().filter(|&x| x >= lo && x < n));
                }
                sort_dedup_from(out, from);
            }
            Moves::Listed(rule) => rule.amounts(n, out),
            Moves::Union(parts) => {
                for m in parts {
                    m.amounts(n, out);
                }
                sort_dedup_from(out, from);
            }
            Moves::Seeded { inner, .. } => inner.amounts(n, out),
            Moves::Split(_) | Moves::Options(_) => {}
        }
    }

    /// The amounts of n as a new list.
    pub fn amounts_of(&self, n: u64) -> Vec<u64> {
        let mut v = vec![];
        self.amounts(n, &mut v);
        v
    }

    /// Is removing s tokens from n a move that leaves one heap of n − s? False for the
    /// structures whose moves split heaps, and for s = 0 or s > n.
    pub fn allows(&self, n: u64, s: u64) -> bool {
        if s == 0 || s > n {
            return false;
        }
        match self {
            Moves::Finite { moves, leave1 } => {
                !(*leave1 && s == n) && moves.binary_search(&s).is_ok()
            }
            Moves::Set { set, leave1 } => !(*leave1 && s == n) && set.contains(s),
            Moves::AllBut { excluded, leave1 } => {
                !(*leave1 && s == n) && excluded.binary_search(&s).is_err()
            }
            Moves::Interval(r) => r.allows(n, s),
            Moves::Divisors { nontrivial } => {
                s < n && n.is_multiple_of(s) && (!nontrivial || s >= 2)
            }
            Moves::Listed(rule) => rule.allows(n, s),
            Moves::Union(parts) => parts.iter().any(|m| m.allows(n, s)),
            Moves::Seeded { inner, .. } => inner.allows(n, s),
            Moves::Split(_) | Moves::Options(_) => false,
        }
    }

    /// Calls `visit` with the heaps each option of a heap of `n` leaves (every option,
    /// listed: for the definitions, sums and small heaps).
    pub fn for_each_option(&self, n: u64, visit: &mut dyn FnMut(&[u64])) {
        match self {
            Moves::Split(br) => {
                let _ = br.options(n, u64::MAX, &mut |_, heaps| {
                    visit(heaps);
                    ControlFlow::Continue(())
                });
            }
            Moves::Options(rule) => {
                let _ = rule.for_each_option(n, &mut |heaps| {
                    visit(heaps);
                    ControlFlow::Continue(())
                });
            }
            one_heap => {
                for s in one_heap.amounts_of(n) {
                    visit(&[n - s]);
                }
            }
        }
    }

    /// The least heap with a move, for the structures whose heaps without a move are
    /// exactly those below it: subtraction and all-but sets (the least move, plus one under
    /// `leave1`), intervals, `divisors`, `nondivisors`, and unions of these. `u64::MAX`
    /// when no heap has a move (an empty set). `None` for the others (`divisors-nontrivial`:
    /// 1, 2, 3 and every prime have no move; take-and-break games).
    pub fn first_move(&self) -> Option<u64> {
        let plus = |m: Option<u64>, leave1: bool| match m {
            Some(m) => m.saturating_add(u64::from(leave1)),
            None => u64::MAX,
        };
        match self {
            Moves::Finite { moves, leave1 } => Some(plus(moves.first().copied(), *leave1)),
            Moves::Set { set, leave1 } => Some(plus(least_move(set), *leave1)),
            Moves::AllBut { excluded, leave1 } => {
                let set = MoveSet::AllBut {
                    excluded: excluded.clone(),
                };
                Some(plus(least_move(&set), *leave1))
            }
            Moves::Interval(r) => Some(r.first_move()),
            Moves::Divisors { nontrivial: false } => Some(2),
            Moves::Listed(rule) => rule.first_move(),
            // a union's heaps without a move are those of every part
            Moves::Union(parts) => parts
                .iter()
                .map(Moves::first_move)
                .try_fold(u64::MAX, |m, f| f.map(|f| m.min(f))),
            Moves::Divisors { nontrivial: true }
            | Moves::Split(_)
            | Moves::Options(_)
            | Moves::Seeded { .. } => None,
        }
    }

    /// The moves of a union of one-heap structures, keeping what structure there is:
    /// unions inside are flattened; intervals and finite sets merge into an interval with
    /// extra amounts (a finite set when every bound is a constant `upto{k}`); anything else
    /// is a [`Moves::Union`], listed heap by heap. A single part is itself.
    pub fn union(parts: Vec<Moves>) -> Moves {
        let mut flat = vec![];
        let mut stack = parts;
        while let Some(m) = stack.pop() {
            match m {
                Moves::Union(inner) => stack.extend(inner),
                other => flat.push(other),
            }
        }
        flat.reverse();
        if flat.len() == 1 {
            return flat.pop().expect("one part");
        }
        // the intervals' bounds, and the finite amounts that join them as extra amounts
        // (those of one leave-one rule: a union of sets under both rules stays apart)
        let mut bounds: Vec<(ReachBound, bool)> = vec![];
        let mut extra: Vec<u64> = vec![];
        let mut extra_leave1: Option<bool> = None;
        let mut rest = vec![];
        for m in flat {
            match m {
                Moves::Interval(r)
                    if r.extra.is_empty() || extra_leave1.is_none_or(|l| l == r.extra_leave1) =>
                {
                    if !r.extra.is_empty() {
                        extra_leave1 = Some(r.extra_leave1);
                    }
                    bounds.extend(r.bounds);
                    extra.extend(r.extra);
                }
                Moves::Finite { moves, leave1 } if extra_leave1.is_none_or(|l| l == leave1) => {
                    extra_leave1 = Some(leave1);
                    extra.extend(moves);
                }
                other => rest.push(other),
            }
        }
        extra.sort_unstable();
        extra.dedup();
        let extra_leave1 = extra_leave1.unwrap_or(false);
        let joined = if bounds.is_empty() {
            (!extra.is_empty()).then_some(Moves::Finite {
                moves: extra,
                leave1: extra_leave1,
            })
        } else {
            Some(interval_or_finite(Reach {
                bounds,
                extra,
                extra_leave1,
            }))
        };
        rest.splice(0..0, joined);
        match rest.len() {
            1 => rest.pop().expect("one part"),
            _ => Moves::Union(rest),
        }
    }
}

/// An interval with extra amounts, or the finite set it is when every bound is a constant
/// `upto{k}` (1..=k and the extra amounts, each under its leave-one rule where they agree).
pub(crate) fn interval_or_finite(r: Reach) -> Moves {
    if let (Some(k), false) = (r.constant(), r.pure().is_some()) {
        let leave1 = r.bounds[0].1;
        let agree = r.bounds.iter().all(|(_, l)| *l == leave1)
            && (r.extra.is_empty() || r.extra_leave1 == leave1);
        if agree {
            let mut moves: Vec<u64> = (1..=k).chain(r.extra.iter().copied()).collect();
            moves.sort_unstable();
            moves.dedup();
            return Moves::Finite { moves, leave1 };
        }
    }
    Moves::Interval(r)
}

/// Sorts `v[from..]` and drops its repeats (what comes before `from` is another heap's).
fn sort_dedup_from(v: &mut Vec<u64>, from: usize) {
    v[from..].sort_unstable();
    let mut tail = v.split_off(from);
    tail.dedup();
    v.extend(tail);
}

/// The amounts up to `top` of a subtraction set, increasing.
fn set_amounts(set: &MoveSet, top: u64, v: &mut Vec<u64>) {
    let from = v.len();
    match set {
        MoveSet::Union { named, finite } => {
            v.extend(finite.iter().copied().filter(|&s| s <= top));
            for &s in named {
                match s {
                    // cheaper to test each amount than to list the set
                    NamedSet::Primes | NamedSet::Practical => {
                        v.extend((1..=top).filter(|&x| s.contains(x)))
                    }
                    NamedSet::Squares
                    | NamedSet::Cubes
                    | NamedSet::Triangular
                    | NamedSet::Fibonacci
                    | NamedSet::Powers2
                    | NamedSet::Factorials => v.extend(s.elements_upto(top)),
                }
            }
            sort_dedup_from(v, from);
        }
        MoveSet::AllBut { excluded } => {
            v.extend((1..=top).filter(|s| excluded.binary_search(s).is_err()))
        }
    }
}

/// The least positive integer not in `excluded` (sorted increasing, without duplicates):
/// the least move of `allbut{excluded}`.
pub fn least_not_excluded(excluded: &[u64]) -> u64 {
    let mut m = 1u64;
    for &e in excluded {
        if e == m {
            m += 1;
        } else if e > m {
            break;
        }
    }
    m
}

/// The least element of a subtraction set (`None` for an empty one).
pub fn least_move(set: &MoveSet) -> Option<u64> {
    match set {
        MoveSet::AllBut { excluded } => Some(least_not_excluded(excluded)),
        MoveSet::Union { named, finite } => {
            // every named set holds 1 or 2 (primes)
            let named_min = named
                .iter()
                .map(|s| if s.contains(1) { 1 } else { 2 })
                .min();
            finite
                .iter()
                .copied()
                .filter(|&s| s > 0)
                .min()
                .into_iter()
                .chain(named_min)
                .min()
        }
    }
}
