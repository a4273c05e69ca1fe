//! The game families, one module each: what the moves are, the closed forms, and which
//! theorem proves a period ([`CertRule`]).
//!
//! | family (spec) | module |
//! |---|---|
//! | finite subtraction sets `sub{..}` | [`finite`]: the outcome period by cycle detection |
//! | named sets and unions (`squares`, `primes\|sub{1}`) | [`crate::sets`] (membership), engines: the sieve and the blocked mex |
//! | all-but sets `allbut{..}`, `nim` | [`allbut`]: finitely many P-positions, Grundy values by counts |
//! | `divisors`, `divisors-nontrivial` | [`divisors`]: divisor lists, the parity theorem |
//! | `sqrt`, `upto{k}`, `half` | [`interval`]: jump-ahead, closed forms, sliding-window mex |
//! | take-and-break codes, `grundy-game` | [`takebreak`]: the option enumerator, Guy–Smith |
//!
//! Which engine runs a family is decided in one place, the module `plan` ([`crate::plan()`]).

pub mod allbut;
pub mod code;
pub mod divisors;
pub mod finite;
pub mod interval;
pub mod predicate;
pub mod takebreak;
pub mod terminal;
pub mod turning;
#[cfg(test)]
mod union_tests;

use crate::period::Period;
use crate::rule::{Rule, SubtractionRule};
use crate::sets::{MoveSet, NamedSet};
use crate::spec::{Bound, Game};
use serde::{Deserialize, Serialize};
use std::ops::ControlFlow;
use takebreak::Breaker;

/// Games whose moves may leave any number of heaps, computed by their own engines: the
/// extended CGSuite codes ([`code`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ruleset {
    /// An extended take-and-break code (`4!.0`, `{2+}!.0`, `0.[3]`).
    Code(code::Code),
    /// A coin-turning game (`turning{1-3}`, `ruler`).
    Turning(turning::Turning),
    /// `sink(S)`: a move may take more than the heap, and a move to a non-positive heap
    /// wins (see [`terminal`]).
    Sink(MoveSet),
    /// `seed(SPEC; PN…)`: prescribed outcomes of the first heaps (outcomes only).
    Seed(terminal::Seed),
}

impl Ruleset {
    /// Calls `visit` with the heaps each option of a heap of `n` leaves (every option,
    /// listed: for tests, sums and small heaps).
    /// Stops when `visit` breaks.
    pub fn for_each_option(
        &self,
        n: u64,
        visit: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        match self {
            Ruleset::Code(c) => c.for_each_option(n, visit),
            Ruleset::Turning(t) => t.for_each_option(n, visit),
            Ruleset::Sink(set) => terminal::sink_options(set, n, visit),
            // the moves (the prescribed heaps' outcomes do not follow from them)
            Ruleset::Seed(s) => {
                for m in s.game.moves_of(n).unwrap_or_default() {
                    visit(&[n - m])?;
                }
                ControlFlow::Continue(())
            }
        }
    }

    /// Grundy values 0..=max from the ruleset's engine (the public call is
    /// [`crate::grundy_table`]).
    /// `room`: the most bytes the value bit sets may take.
    pub(crate) fn grundy(
        &self,
        max: u64,
        room: u64,
        watch: &mut crate::observe::Watch,
    ) -> Result<Vec<u32>, crate::Error> {
        match self {
            Ruleset::Code(c) => code::code_grundy(c, max, room, watch),
            Ruleset::Turning(t) => turning::turning_grundy(t, max, room, watch),
            Ruleset::Sink(set) => terminal::sink_grundy(set, max, watch),
            Ruleset::Seed(s) => Err(crate::Error::Unsupported {
                what: format!(
                    "Grundy values of {s}, whose prescribed start gives outcomes only (ask for \
                     outcomes or P-positions)"
                ),
            }),
        }
    }

    /// Bit-set rows per heap size the engine keeps (for its cost).
    pub(crate) fn rows(&self) -> usize {
        match self {
            Ruleset::Code(c) => c.rows(),
            Ruleset::Turning(_) | Ruleset::Sink(_) | Ruleset::Seed(_) => 0,
        }
    }

    /// How many bit sets (each as wide as the values) the engine holds at N = `max`.
    pub(crate) fn bitsets(&self, max: u64) -> f64 {
        match self {
            Ruleset::Code(c) => c.rows() as f64 * (max as f64 + 1.0),
            Ruleset::Turning(t) => t.unions_at(max as f64).0 + 2.0,
            Ruleset::Sink(_) | Ruleset::Seed(_) => 0.0,
        }
    }

    /// About how many rows the engine unites for heap n (for its cost).
    pub(crate) fn unions_at(&self, n: f64) -> f64 {
        match self {
            Ruleset::Code(c) => c.unions_at(n).0,
            Ruleset::Turning(t) => t.unions_at(n).0,
            Ruleset::Sink(_) | Ruleset::Seed(_) => 0.0,
        }
    }

    /// About how many single values the engine adds for heap n (for its cost).
    pub(crate) fn singles_at(&self, n: f64) -> f64 {
        match self {
            Ruleset::Code(c) => c.unions_at(n).1,
            Ruleset::Turning(t) => t.unions_at(n).1,
            Ruleset::Sink(set) => set.count_upto_estimate(n as u64) as f64,
            Ruleset::Seed(s) => s.game.moves_of(n as u64).map_or(1.0, |m| m.len() as f64),
        }
    }
}

impl std::fmt::Display for Ruleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ruleset::Code(c) => write!(f, "{c}"),
            Ruleset::Turning(t) => write!(f, "{t}"),
            Ruleset::Sink(set) => write!(f, "sink({set})"),
            Ruleset::Seed(s) => write!(f, "{s}"),
        }
    }
}

impl Game {
    /// The amounts that may be removed from a heap of `n` for the families whose every move
    /// leaves one heap (subtraction sets, divisors, interval games), increasing; `None` for
    /// take-and-break games.
    pub fn moves_of(&self, n: u64) -> Option<Vec<u64>> {
        let mut v = Vec::new();
        match self {
            Game::Misere(g) => return g.moves_of(n),
            Game::NonDivisors => v.extend((1..n).filter(|d| !n.is_multiple_of(*d))),
            Game::Rule(p) => v.extend(p.moves(n)),
            Game::Union(parts) => {
                for g in parts {
                    v.extend(g.moves_of(n).unwrap_or_default());
                }
                v.sort_unstable();
                v.dedup();
            }
            Game::Subtraction { set, leave1 } => {
                let top = if *leave1 { n.saturating_sub(1) } else { n };
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
                        v.sort_unstable();
                        v.dedup();
                    }
                    MoveSet::AllBut { excluded } => {
                        v.extend((1..=top).filter(|s| excluded.binary_search(s).is_err()))
                    }
                }
            }
            Game::Divisors { nontrivial } => {
                // pairs d·(n/d) = n with d <= sqrt(n)
                let lo = if *nontrivial { 2 } else { 1 };
                for d in (1..=crate::num::isqrt(n)).filter(|d| n.is_multiple_of(*d)) {
                    v.extend([d, n / d].into_iter().filter(|&x| x >= lo && x < n));
                }
                v.sort_unstable();
                v.dedup();
            }
            Game::Interval { bound, leave1 } => {
                let top = if *leave1 { n.saturating_sub(1) } else { n };
                v.extend(1..=bound.f(n).min(top));
            }
            Game::Ruleset(crate::games::Ruleset::Seed(s)) => return s.game.moves_of(n),
            Game::TakeBreak(_) | Game::GrundyGame | Game::Ruleset(_) => return None,
        }
        Some(v)
    }
}

impl Game {
    /// Is removing `s` tokens from a heap of `n` a move that leaves one heap of n − s, in a
    /// one-heap family? False for take-and-break games and for s = 0 or s > n.
    pub fn is_move(&self, n: u64, s: u64) -> bool {
        if s == 0 || s > n {
            return false;
        }
        match self {
            Game::Misere(g) => g.is_move(n, s),
            Game::Subtraction { set, leave1 } => !(*leave1 && s == n) && set.contains(s),
            Game::Divisors { nontrivial } => {
                s < n && n.is_multiple_of(s) && (!nontrivial || s >= 2)
            }
            Game::Interval { bound, leave1 } => !(*leave1 && s == n) && s <= bound.f(n),
            Game::NonDivisors => s < n && !n.is_multiple_of(s),
            Game::Rule(p) => p.allows(n, s),
            Game::Union(parts) => parts.iter().any(|g| g.is_move(n, s)),
            Game::Ruleset(crate::games::Ruleset::Seed(sd)) => sd.game.is_move(n, s),
            Game::TakeBreak(_) | Game::GrundyGame | Game::Ruleset(_) => false,
        }
    }
}

impl Rule for Game {
    fn for_each_option(&self, n: u64, visit: &mut dyn FnMut(&[u64])) {
        if let Game::Ruleset(r) = self.under_normal_play() {
            let _ = r.for_each_option(n, &mut |heaps| {
                visit(heaps);
                ControlFlow::Continue(())
            });
            return;
        }
        match Breaker::of(self) {
            Some(br) => {
                let _ = br.options(n, u64::MAX, &mut |_, heaps| {
                    visit(heaps);
                    ControlFlow::Continue(())
                });
            }
            None => {
                for s in self.moves_of(n).unwrap_or_default() {
                    visit(&[n - s]);
                }
            }
        }
    }
}

impl SubtractionRule for Game {
    fn for_each_move(&self, n: u64, visit: &mut dyn FnMut(u64)) {
        for s in self.moves_of(n).unwrap_or_default() {
            visit(s);
        }
    }
}

/// The number of P-positions in 0..=N and the largest, found without listing them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PCount {
    /// P-positions in 0..=N.
    pub count: u64,
    /// The largest of them (None when there is none).
    pub largest: Option<u64>,
    /// How they were counted, for reports ("closed form", "outcomes proven periodic …").
    pub method: String,
}

/// The sequence of a game an analysis looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sequence {
    /// Grundy values g(n).
    Grundy,
    /// Outcomes: 1 for an N-position, 0 for a P-position.
    Outcome,
}

/// Which theorem, if any, proves that a period seen in a game's sequence holds for ever.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum CertRule {
    /// A finite subtraction set with largest move k: every value depends only on the k
    /// values before it, so a period (saltus 0) with preperiod n0 seen on 0..=N is proven
    /// once N >= n0 + p + k.
    FiniteSubtraction {
        /// The largest move.
        largest_move: u64,
    },
    /// An octal code whose moves leave at most two heaps and remove at most t tokens: a
    /// Grundy period (saltus 0) is proven once N >= 2·n0 + 2p + t (Guy and Smith 1956, see
    /// [`takebreak::guy_smith_bound`]).
    Octal {
        /// t: the position of the code's last non-zero digit.
        last_digit: u64,
    },
    /// No theorem applies: periods are only observed.
    None,
}

impl CertRule {
    /// The rule for `seq` of `game`.
    pub fn of(game: &Game, seq: Sequence) -> CertRule {
        match game {
            // The window argument holds in misère play too (every move is legal, and no heap
            // is without a move, from the largest move on); Guy–Smith does not.
            Game::Misere(inner) => match CertRule::of(inner, seq) {
                r @ CertRule::FiniteSubtraction { .. } => r,
                CertRule::Octal { .. } | CertRule::None => CertRule::None,
            },
            Game::Subtraction { set, .. } => match set.max_finite() {
                Some(k) => CertRule::FiniteSubtraction { largest_move: k },
                None => CertRule::None,
            },
            Game::TakeBreak(code) if seq == Sequence::Grundy && code.max_heaps_left() <= 2 => {
                CertRule::Octal {
                    last_digit: code.last_digit() as u64,
                }
            }
            // upto{k} is sub{1..k}: the same window argument proves its period
            Game::Interval {
                bound: Bound::Upto(k),
                ..
            } => CertRule::FiniteSubtraction { largest_move: *k },
            // extended codes and coin-turning games: Guy–Smith's argument needs every split
            // of the heaps left to be allowed, so no constraint, and at most two heaps
            Game::TakeBreak(_)
            | Game::GrundyGame
            | Game::Ruleset(_)
            | Game::Divisors { .. }
            | Game::Interval { .. }
            | Game::NonDivisors
            | Game::Rule(_)
            | Game::Union(_) => CertRule::None,
        }
    }

    /// The N from which a period with this preperiod, period and saltus seen on 0..=N is
    /// proven; `None` when the rule proves nothing (no theorem, or a saltus).
    pub fn bound(&self, preperiod: u64, period: u64, saltus: i64) -> Option<u64> {
        if saltus != 0 {
            return None;
        }
        match *self {
            CertRule::FiniteSubtraction { largest_move } => Some(
                preperiod
                    .saturating_add(period)
                    .saturating_add(largest_move),
            ),
            CertRule::Octal { last_digit } => {
                Some(takebreak::guy_smith_bound(preperiod, period, last_digit))
            }
            CertRule::None => None,
        }
    }

    /// Whether the period `p` (found on `p.len` values, 0..=N) is proven by this rule, and
    /// the sentence reports print: why it is proven, or that it is only observed and what
    /// a proof would need.
    pub fn certify(&self, p: &Period) -> (bool, String) {
        let n = p.len - 1;
        let seen = p.periods_seen();
        let Some(need) = self.bound(p.preperiod, p.period, p.saltus) else {
            return (
                false,
                format!("observed ({seen} periods after the preperiod)"),
            );
        };
        let proven = n >= need;
        let text = match (*self, proven) {
            (CertRule::FiniteSubtraction { largest_move: k }, true) => format!(
                "proven: finite subtraction set with largest move {k}, and the data reach \
                 N = {n} >= n0 + p + k = {need}"
            ),
            (CertRule::FiniteSubtraction { .. }, false) => {
                format!("observed ({seen} periods); proof needs N >= n0 + p + k = {need}")
            }
            (CertRule::Octal { last_digit: t }, true) => format!(
                "proven (Guy–Smith 1956): octal code with last digit t = {t}, and N = {n} >= \
                 2·n0 + 2p + t = {need}"
            ),
            (CertRule::Octal { .. }, false) => {
                format!("observed ({seen} periods); Guy–Smith needs N >= 2·n0 + 2p + t = {need}")
            }
            (CertRule::None, _) => format!("observed ({seen} periods after the preperiod)"),
        };
        (proven, text)
    }
}

/// One game family: an example spec and what its moves are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Family {
    /// An example spec of the family.
    pub spec: &'static str,
    /// The moves, in a few words.
    pub description: &'static str,
}

/// Every game family with an example spec, in the order `heaplab games` lists them.
pub const FAMILIES: &[Family] = &[
    fam("sub{1,2,3}", "finite subtraction set: remove 1, 2 or 3"),
    fam("allbut{2,3,7}", "remove any number except those listed"),
    fam("squares", "remove a positive square (Stone Game IV)"),
    fam("cubes", "remove a positive cube"),
    fam("triangular", "remove a triangular number 1, 3, 6, 10, ..."),
    fam("fibonacci", "remove a Fibonacci number 1, 2, 3, 5, 8, ..."),
    fam("primes", "remove a prime"),
    fam("powers2", "remove a power of two 1, 2, 4, 8, ..."),
    fam("factorials", "remove a factorial 1, 2, 6, 24, ..."),
    fam(
        "practical",
        "remove a practical number 1, 2, 4, 6, 8, 12, ...",
    ),
    fam("nim", "remove any positive number (one-heap Nim)"),
    fam("primes|sub{1}", "union of sets: remove 1 or a prime"),
    fam(
        "leave1(primes|sub{1})",
        "same moves, but never take the whole heap",
    ),
    fam("divisors", "remove a proper divisor d of n (1 <= d < n)"),
    fam("divisors-nontrivial", "remove a divisor d with 1 < d < n"),
    fam("sqrt", "remove 1..floor(sqrt n)"),
    fam("upto{3}", "remove 1..k (the Bash game)"),
    fam("half", "remove 1..floor(n/2)"),
    fam(
        "0.77",
        "octal take-and-break code (Kayles); also .77, 4.07, 0.137",
    ),
    fam("0.3F", "hexadecimal code: digit bit 8 leaves three heaps"),
    fam("kayles", "alias of 0.77"),
    fam("dawson", "Dawson's Kayles, alias of 0.07"),
    fam(
        "grundy-game",
        "split one heap into two unequal non-empty heaps",
    ),
    fam(
        "4!.0",
        "extended code: ! pairwise unequal heaps (Grundy's game), ? not all equal, = all equal",
    ),
    fam(
        "{2+}!.0",
        "extended code: {2,3} or {k+} heap counts, * any number (split into unequal heaps)",
    ),
    fam(
        "0.[3]",
        "extended code: [..] repeats for ever (Nim); digits 0-9 A-V (up to 4 heaps), &n; any (&96;: 5 or 6)",
    ),
    fam(
        "turning{1-3}",
        "coin turning: turn 1 to 3 coins, the rightmost heads to tails (Mock Turtles); C E S F C(m)",
    ),
    fam(
        "ruler",
        "turning{1+C}; also mock-turtles, turning-turtles, moebius, mogul, twins, triplets, turnips, grunt",
    ),
    fam(
        "splittles{1,3}",
        "remove s in S, optionally split the rest in two (the code 0.707)",
    ),
    fam(
        "nondivisors",
        "remove d with 1 <= d < n that does not divide n",
    ),
    fam(
        "rule{k <= isqrt(n)}",
        "your own rule: remove k when the predicate over n, k holds (this one is sqrt)",
    ),
    fam(
        "half|sub{1}",
        "union of any one-heap games: a move of either (also sqrt|sub{5}, divisors|squares)",
    ),
    fam(
        "sink(sub{2,5})",
        "subtract any s in S, even past 0: a move to a non-positive heap wins",
    ),
    fam(
        "seed(sub{1,2}; NN)",
        "prescribed outcomes of heaps 0, 1, … (P or N), then the moves (outcomes only)",
    ),
    fam(
        "misere(sub{1,2,3})",
        "any game in misère play: the last player to move loses (also --play misere)",
    ),
];

const fn fam(spec: &'static str, description: &'static str) -> Family {
    Family { spec, description }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_example_parses_and_certificates_follow_the_family() {
        for f in FAMILIES {
            assert!(Game::parse(f.spec).is_ok(), "{}", f.spec);
        }
        let rule = |s: &str, q| CertRule::of(&Game::parse(s).unwrap(), q);
        assert_eq!(
            rule("leave1(sub{1,3})", Sequence::Outcome),
            CertRule::FiniteSubtraction { largest_move: 3 }
        );
        assert_eq!(
            rule("0.77", Sequence::Grundy),
            CertRule::Octal { last_digit: 2 }
        );
        assert_eq!(
            rule("upto{6}", Sequence::Grundy),
            CertRule::FiniteSubtraction { largest_move: 6 }
        );
        for (s, q) in [
            ("0.77", Sequence::Outcome),
            ("0.3F", Sequence::Grundy),
            ("squares", Sequence::Grundy),
            ("nim", Sequence::Grundy),
            ("grundy-game", Sequence::Grundy),
            ("sqrt", Sequence::Outcome),
        ] {
            assert_eq!(rule(s, q), CertRule::None, "{s}");
        }
        let fin = CertRule::FiniteSubtraction { largest_move: 4 };
        assert_eq!(fin.bound(0, 7, 0), Some(11));
        assert_eq!(fin.bound(0, 7, 1), None);
        assert_eq!(
            CertRule::Octal { last_digit: 2 }.bound(71, 12, 0),
            Some(168)
        );
        assert_eq!(CertRule::None.bound(0, 1, 0), None);
    }
}
