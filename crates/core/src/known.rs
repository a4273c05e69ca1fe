//! What is known about a position on the way to an answer: a move ([`Move`]), a Grundy
//! sequence proven periodic ([`Proven`]), the closed forms of Grundy values
//! ([`Values`]), the options of a heap of a given value, and the refusal of a position
//! beyond reach. Shared by one heap (`decide`) and sums of heaps (`sums`).

use crate::budget::{Budget, Task};
use crate::cert::{CertRule, Sequence};
use crate::error::{Error, Refusal};
use crate::game::{Game, Play};
use crate::moves::bound::Bound;
use crate::moves::interval::IntervalGame;
use crate::moves::Moves;
use crate::observe::Observer;
use crate::period::{find_period, Period};
use crate::plan::Plan;
use crate::plan::{feasible_max, grundy_table, plan};
use crate::table::GrundyTable;
use serde::Serialize;
use std::ops::ControlFlow;

/// Heaps below this are answered from a table itself.
pub(crate) const DIRECT_LIMIT: u64 = 1 << 22;

/// Seconds the tables of the search for a proven period may be estimated at, together.
const PERIOD_SEARCH_SECONDS: f64 = 60.0;

/// A move: the tokens removed and the non-empty heaps left (none when the heap is taken
/// whole; two or three for a take-and-break move that splits it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Move {
    /// Tokens removed.
    pub removed: u64,
    /// Tokens added (an extended code whose digits left of the point add tokens, such as
    /// `80.0`); 0 otherwise, and then not written in JSON.
    #[serde(skip_serializing_if = "is_zero")]
    pub added: u64,
    /// The non-empty heaps left, increasing.
    pub leaves: Vec<u64>,
    /// In a coin-turning game, the coins turned, increasing (the heap's own coin last):
    /// then `removed` is 0 and `leaves` the other coins, now heads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turned: Option<Vec<u64>>,
}

/// For serde: a zero count is not written.
fn is_zero(x: &u64) -> bool {
    *x == 0
}

impl Move {
    /// Removing `s` tokens from a heap of `n` (s <= n).
    pub(crate) fn take(n: u64, s: u64) -> Move {
        Move {
            removed: s,
            added: 0,
            leaves: if s < n { vec![n - s] } else { vec![] },
            turned: None,
        }
    }
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let left: Vec<String> = self.leaves.iter().map(|h| h.to_string()).collect();
        let left = if left.is_empty() {
            "nothing".to_string()
        } else {
            left.join(" + ")
        };
        match &self.turned {
            Some(coins) if self.leaves.is_empty() => {
                write!(
                    f,
                    "turn coin {}, leaving no head",
                    coins.last().unwrap_or(&0)
                )
            }
            Some(coins) => {
                let coins: Vec<String> = coins.iter().map(|c| c.to_string()).collect();
                let heads: Vec<String> = self.leaves.iter().map(|c| c.to_string()).collect();
                write!(
                    f,
                    "turn coins {}, leaving heads at {}",
                    coins.join(", "),
                    heads.join(", ")
                )
            }
            None if self.added > 0 => write!(f, "add {}, leave {left}", self.added),
            None => write!(f, "remove {}, leave {left}", self.removed),
        }
    }
}

/// Refuses n beyond `limit` or beyond what [`plan`] accepts for `task` within the budget,
/// naming the largest n that is accepted (found by bisection only then).
pub(crate) fn reachable(
    game: &Game,
    task: Task,
    n: u64,
    limit: u64,
    budget: &Budget,
    why: impl FnOnce() -> String,
) -> Result<Plan, Error> {
    if n <= limit {
        if let Ok(p) = plan(game, task, n, budget) {
            return Ok(p);
        }
    }
    Err(Error::Refused(Refusal::TooFar {
        game: game.to_string(),
        n,
        most: Some(feasible_max(game, task, budget, limit)),
        why: why(),
    }))
}

/// The options of heap n of moves that split or list options (splits with the smaller part up to
/// `a_max`) whose heaps XOR to `target` under `value`, at most `take`.
pub(crate) fn options_of_value(
    moves_of: &Moves,
    n: u64,
    a_max: u64,
    take: usize,
    value: impl Fn(u64) -> u64,
    target: u64,
) -> Vec<Move> {
    let mut moves = vec![];
    if let Moves::Options(r) = moves_of {
        // every option is listed (a split into many heaps has very many): give up after
        // RULESET_LISTED of them
        let mut seen = 0u64;
        let _ = r.for_each_option(n, &mut |heaps| {
            seen += 1;
            if heaps.iter().fold(0, |x, &h| x ^ value(h)) == target {
                let turning = r.turns_coins();
                let removed = r.removed(n, heaps);
                moves.push(Move {
                    removed,
                    added: heaps.iter().sum::<u64>().saturating_sub(n),
                    leaves: heaps.to_vec(),
                    turned: turning.then(|| heaps.iter().copied().chain([n]).collect()),
                });
            }
            if moves.len() >= take || seen >= RULESET_LISTED {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
    }
    if let Moves::Split(br) = moves_of {
        let _ = br.options(n, a_max, &mut |removed, heaps| {
            if heaps.iter().fold(0, |x, &h| x ^ value(h)) == target {
                moves.push(Move {
                    removed,
                    added: 0,
                    leaves: heaps.to_vec(),
                    turned: None,
                });
            }
            if moves.len() >= take {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
    }
    moves
}

/// The most options of a ruleset game (extended codes, coin turning) visited in search of
/// winning moves.
const RULESET_LISTED: u64 = 20_000_000;

/// Whether splits (a, b), a <= b, of a heap of n are left out by listing only a <= a_max.
pub(crate) fn splits_cut(n: u64, a_max: u64) -> bool {
    n / 2 > a_max
}

/// A Grundy sequence proven periodic: its first values, the period, and the sentence that
/// says why it is proven.
pub(crate) struct Proven {
    pub head: Vec<i64>,
    pub period: Period,
    pub certificate: String,
}

impl Proven {
    /// g(x) for any x (a proven period has saltus 0: the value repeats).
    pub fn at(&self, x: u64) -> u32 {
        let (n0, p) = (self.period.preperiod, self.period.period);
        let r = if x < n0 + p { x } else { n0 + (x - n0) % p };
        self.head[r as usize] as u32
    }
}

/// The Grundy sequence of `game` proven periodic ([`CertRule`]: finite subtraction sets,
/// octal codes by Guy–Smith), from tables of 2^12, 2^14, … 2^22 positions, within `budget`
/// and estimated at a minute together at most; `None` when no period is proven by then.
/// `obs` sees the tables as one pass: positions of every table so far, of all of them.
pub(crate) fn proven_grundy(
    game: &Game,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<Option<Proven>, Error> {
    let rule = CertRule::of(game, Sequence::Grundy);
    if rule == CertRule::None {
        return Ok(None);
    }
    let mut left = budget.seconds.min(PERIOD_SEARCH_SECONDS);
    let lens = || {
        (0..)
            .map(|k| 1u64 << (12 + 2 * k))
            .take_while(|&l| l <= DIRECT_LIMIT)
    };
    let all: u64 = lens().map(|l| l + 1).sum();
    let mut before = 0u64;
    for len in lens() {
        let within = Budget {
            seconds: left,
            ..*budget
        };
        match plan(game, Task::Grundy, len, &within) {
            Ok(p) => left -= p.seconds,
            Err(_) => return Ok(None),
        }
        let stage = |done: u64, _: u64| obs.observe(before + done.min(len + 1), all);
        let g = grundy_table(game, len, &stage)?;
        before += len + 1;
        let head: Vec<i64> = g.to_u32_vec().into_iter().map(i64::from).collect();
        if let Some(p) = find_period(&head, true) {
            if let (true, _) = rule.certify(&p) {
                // the table the proof rests on, and the bound it reaches
                let need = rule.bound(p.preperiod, p.period, p.saltus).unwrap_or(0);
                let certificate = format!(
                    "proven from the values to {len}, past the {need} the rule needs: {}",
                    match rule {
                        CertRule::Octal { .. } => "Guy–Smith 1956",
                        CertRule::FiniteSubtraction { .. } | CertRule::None => {
                            "each value depends on the largest move's worth before it"
                        }
                    }
                );
                return Ok(Some(Proven {
                    head,
                    period: p,
                    certificate,
                }));
            }
        }
    }
    Ok(None)
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
            Values::Half => crate::games::interval::half_value(x),
            Values::Periodic(p) => u64::from(p.at(x)),
            Values::Table(t) => u64::from(t.get(x)),
        }
    }

    /// How the values are known, for reports.
    pub(crate) fn method(&self) -> String {
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
    let s = game.structure();
    if s.play == Play::Misere {
        return None;
    }
    match &s.moves {
        Moves::Divisors { nontrivial: false } => Some(Values::V2),
        Moves::Interval(r) => match r.pure()? {
            // upto{2^64 - 1} takes any amount from any heap: it is nim
            IntervalGame {
                bound: Bound::Upto(k),
                leave1,
            } => Some(match k.checked_add(1) {
                Some(m) => Values::Mod {
                    m,
                    shift: u64::from(leave1),
                },
                None => Values::Nim {
                    shift: u64::from(leave1),
                },
            }),
            // leave1 changes nothing: half never takes a whole heap
            IntervalGame {
                bound: Bound::Half, ..
            } => Some(Values::Half),
            IntervalGame { .. } => None,
        },
        Moves::AllBut { excluded, leave1 } if excluded.is_empty() => Some(Values::Nim {
            shift: u64::from(*leave1),
        }),
        _ => None,
    }
}

/// The Grundy values of `game` up to heap `n` by the fastest known path: a closed form, a
/// proven period, or a table up to n within `budget`.
pub(crate) fn values_upto(
    game: &Game,
    n: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<Values, Error> {
    match known_values(game, n, budget, obs)? {
        Some(v) => Ok(v),
        None => table_values(game, n, budget, obs),
    }
}

/// The Grundy values of `game` up to heap `n` without a table up to n: a closed form, or
/// (for n past 2^22, where a table would be large) a proven period. `None` when neither.
pub(crate) fn known_values(
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
pub(crate) fn table_values(
    game: &Game,
    n: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<Values, Error> {
    let p = reachable(game, Task::Grundy, n, u64::MAX, budget, || {
        format!("has no known Grundy value at n = {n} short of a table up to it")
    })?;
    obs.planned(&p);
    Ok(Values::Table(grundy_table(game, n, obs)?))
}
