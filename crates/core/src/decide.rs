//! Who wins one heap: [`decide`] answers the outcome of a single position n, with one
//! winning move and the Grundy value when it is known on the way, by the fastest path the
//! family has — a closed form, a proven period, a parity argument, or a table or sieve up
//! to n when nothing shorter is known.

use crate::error::{Error, Refusal};
use crate::games::allbut::all_but_p_positions;
use crate::games::divisors::parity_outcome;
use crate::games::finite::finite_outcome_period;
use crate::games::interval::IntervalGame;
use crate::games::takebreak::Breaker;
use crate::games::{CertRule, Sequence};
use crate::observe::Observer;
use crate::period::{find_period, Period};
use crate::plan::{
    feasible_max, grundy_table, outcome_table, plan, run_stream, Budget, Plan, Task,
};
use crate::sets::MoveSet;
use crate::spec::Game;
use crate::sums::closed_values;
use serde::Serialize;
use std::ops::ControlFlow;

/// A move: the tokens removed and the non-empty heaps left (none when the heap is taken
/// whole; two or three for a take-and-break move that splits it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Move {
    /// Tokens removed.
    pub removed: u64,
    /// The non-empty heaps left, increasing.
    pub leaves: Vec<u64>,
}

impl Move {
    /// Removing `s` tokens from a heap of `n` (s <= n).
    fn take(n: u64, s: u64) -> Move {
        Move {
            removed: s,
            leaves: if s < n { vec![n - s] } else { vec![] },
        }
    }

    /// Removing `s` from a heap of `n` when the position wins (a move found from a losing
    /// position is not a winning one).
    fn winning(win: bool, n: u64, s: Option<u64>) -> Option<Move> {
        s.filter(|_| win).map(|s| Move::take(n, s))
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
        write!(f, "remove {}, leave {left}", self.removed)
    }
}

/// The answer for one position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// The position (heap size).
    pub n: u64,
    /// True for an N-position (the player to move wins).
    pub win: bool,
    /// One winning move, when the position wins.
    pub winning_move: Option<Move>,
    /// g(n), when the method computed it, the family has a closed form for it, or n is a
    /// P-position (0).
    pub grundy: Option<u64>,
    /// How the answer was found ("closed form", "outcomes proven periodic (period 4 from
    /// 0)", "segmented sieve", …).
    pub method: String,
}

impl std::fmt::Display for Decision {
    /// `win (N-position), Grundy value 3; winning move: remove 1, leave 5 [method]`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.win {
            "win (N-position)"
        } else {
            "lose (P-position)"
        })?;
        if let Some(g) = self.grundy {
            write!(f, ", Grundy value {g}")?;
        }
        if let Some(m) = &self.winning_move {
            write!(f, "; winning move: {m}")?;
        }
        write!(f, " [{}]", self.method)
    }
}

/// Positions a table- or sieve-based answer may walk through.
const WALK_LIMIT: u64 = 200_000_000_000;

/// Heaps below this are answered from a table itself.
const DIRECT_LIMIT: u64 = 1 << 22;

/// Seconds the tables of the search for a proven period may be estimated at, together.
const PERIOD_SEARCH_SECONDS: f64 = 60.0;

/// Decides position `n` of `game`: outcome, one winning move, the Grundy value when it is
/// known on the way, and the method. Closed forms and proven periods answer heaps up to
/// 2^64 - 1 at once; otherwise every position up to n is decided, within `budget`.
///
/// # Errors
/// [`Refusal::TooFar`] (as [`Error::Refused`]) when n is beyond what the family's method
/// can reach within the budget, naming the largest n it can; [`Error::Cancelled`] when
/// `obs` stops a table or sieve.
pub fn decide(game: &Game, n: u64, budget: &Budget, obs: &dyn Observer) -> Result<Decision, Error> {
    let game = &*game.normalized();
    let mut d = decide_by_method(game, n, budget, obs)?;
    // g(n) whatever the method for the outcome: from a closed form, or 0 at a P-position
    d.grundy = d
        .grundy
        .or_else(|| closed_values(game).map(|v| v.at(n)))
        .or((!d.win).then_some(0));
    Ok(d)
}

/// [`decide`] by the family's method for the outcome (`game` normalised), with g(n) where
/// that method finds it.
fn decide_by_method(
    game: &Game,
    n: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<Decision, Error> {
    let decision = |win: bool, winning_move: Option<Move>, grundy, method: String| Decision {
        n,
        win,
        winning_move,
        grundy,
        method,
    };
    match game {
        Game::Interval { bound, leave1 } => {
            let ig = IntervalGame {
                bound: *bound,
                leave1: *leave1,
            };
            // closed forms at once; jump-ahead (half) in log2(n) steps
            let (win, last_p) = ig.outcome(n);
            let mv = win.then(|| Move::take(n, n - last_p));
            Ok(decision(
                win,
                mv,
                None,
                ig.closed_form().unwrap_or("jump-ahead").into(),
            ))
        }
        Game::Subtraction {
            set: MoveSet::AllBut { excluded },
            leave1,
        } => {
            let ps = all_but_p_positions(excluded, *leave1);
            let win = !ps.contains(&n);
            let mv = ps
                .iter()
                .rev()
                .filter(|&&q| q < n && (!leave1 || q >= 1))
                .map(|&q| n - q)
                .find(|s| excluded.binary_search(s).is_err());
            let mv = Move::winning(win, n, mv);
            Ok(decision(win, mv, None, "all-but candidates".into()))
        }
        Game::Subtraction { set, leave1 } if set.is_finite() => {
            let moves = set.elements_upto(u64::MAX);
            let Some(per) = finite_outcome_period(&moves, *leave1, 1 << 27) else {
                // no period within reach (a move near n, or a long period): sieve up to n
                return by_sieve(game, set, *leave1, n, budget, obs);
            };
            let win = per.is_win(n);
            let top = if *leave1 { n.saturating_sub(1) } else { n };
            let mv = moves
                .iter()
                .copied()
                .filter(|&s| s <= top)
                .find(|&s| !per.is_win(n - s));
            let grundy = proven_grundy(game, budget, obs)?.map(|p| u64::from(p.at(n)));
            let method = format!(
                "outcomes proven periodic (period {} from {})",
                per.period, per.start
            );
            Ok(decision(win, Move::winning(win, n, mv), grundy, method))
        }
        Game::Subtraction { set, leave1 } => by_sieve(game, set, *leave1, n, budget, obs),
        Game::Divisors { nontrivial: false } if n > DIRECT_LIMIT => {
            let (win, s) = parity_outcome(n);
            let method = "parity (odd heaps have only odd divisors)".into();
            Ok(decision(win, Move::winning(win, n, s), None, method))
        }
        Game::Divisors { nontrivial } => {
            // one bit per position and the divisor lists of a segment
            let room = budget.memory.saturating_sub(1 << 26).saturating_mul(8);
            reachable(
                game,
                Task::Outcomes,
                n,
                WALK_LIMIT.min(room),
                budget,
                || format!("needs a table up to n = {n}"),
            )?;
            let t = outcome_table(game, n, obs)?;
            let win = t.is_win(n);
            let lo = if *nontrivial { 2 } else { 1 };
            let mv = (lo..n).find(|&d| n.is_multiple_of(d) && !t.is_win(n - d));
            Ok(decision(
                win,
                Move::winning(win, n, mv),
                None,
                "divisor pull".into(),
            ))
        }
        Game::TakeBreak(code) if n > DIRECT_LIMIT && code.max_heaps_left() <= 2 => {
            match proven_grundy(game, budget, obs)? {
                Some(p) => Ok(by_period(game, n, &p)),
                // no period proven within 2^22 positions: a table up to n, where it fits
                None => by_table(game, n, budget, obs),
            }
        }
        Game::TakeBreak(_) | Game::GrundyGame => by_table(game, n, budget, obs),
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
        most: feasible_max(game, task, budget, limit),
        why: why(),
    }))
}

/// Decides position n of a subtraction game by sieving every position up to it.
fn by_sieve(
    game: &Game,
    set: &MoveSet,
    leave1: bool,
    n: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<Decision, Error> {
    let p = reachable(game, Task::PPositions, n, WALK_LIMIT, budget, || {
        format!("has no shortcut: deciding n = {n} means sieving every position up to it")
    })?;
    obs.planned(&p);
    let mut ps = Vec::new();
    let method = run_stream(game, n, obs, |segment| ps.append(segment))?;
    let win = ps.last() != Some(&n);
    let mv = ps
        .iter()
        .rev()
        .filter(|&&q| q < n && (!leave1 || q >= 1))
        .map(|&q| n - q)
        .find(|&s| set.contains(s));
    Ok(Decision {
        n,
        win,
        winning_move: Move::winning(win, n, mv),
        grundy: None,
        method: method.into(),
    })
}

/// Decides position n of a take-and-break game from its Grundy table up to n.
fn by_table(game: &Game, n: u64, budget: &Budget, obs: &dyn Observer) -> Result<Decision, Error> {
    let p = reachable(game, Task::Grundy, n, 1 << 32, budget, || {
        format!("needs a Grundy table up to n = {n}")
    })?;
    obs.planned(&p);
    let g = grundy_table(game, n, obs)?;
    let gn = g.get(n);
    let mut mv = None;
    if let (true, Some(br)) = (gn != 0, Breaker::of(game)) {
        let _ = br.options(n, u64::MAX, &mut |removed, heaps| {
            if heaps.iter().fold(0, |x, &h| x ^ g.get(h)) != 0 {
                return ControlFlow::Continue(());
            }
            mv = Some(Move {
                removed,
                leaves: heaps.to_vec(),
            });
            ControlFlow::Break(())
        });
    }
    Ok(Decision {
        n,
        win: gn != 0,
        winning_move: mv,
        grundy: Some(u64::from(gn)),
        method: "grundy table".into(),
    })
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
    let mut len = 1u64 << 12;
    while len <= DIRECT_LIMIT {
        let within = Budget {
            seconds: left,
            ..*budget
        };
        match plan(game, Task::Grundy, len, &within) {
            Ok(p) => left -= p.seconds,
            Err(_) => return Ok(None),
        }
        let g = grundy_table(game, len, obs)?;
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
        len *= 4;
    }
    Ok(None)
}

/// Decides position n of an octal game whose Grundy values are proven periodic: the
/// options are searched with splits a + b only for a below n0 + 2p, which covers every pair
/// of residues.
fn by_period(game: &Game, n: u64, p: &Proven) -> Decision {
    let at = |x: u64| p.at(x);
    let gn = at(n);
    let (n0, per) = (p.period.preperiod, p.period.period);
    let mut mv = None;
    if let (true, Some(br)) = (gn != 0, Breaker::of(game)) {
        let _ = br.options(n, n0 + 2 * per, &mut |removed, heaps| {
            if heaps.iter().fold(0, |x, &h| x ^ at(h)) != 0 {
                return ControlFlow::Continue(());
            }
            mv = Some(Move {
                removed,
                leaves: heaps.to_vec(),
            });
            ControlFlow::Break(())
        });
    }
    Decision {
        n,
        win: gn != 0,
        winning_move: mv,
        grundy: Some(u64::from(gn)),
        method: format!(
            "Grundy values proven periodic (period {per} from {n0}; {})",
            p.certificate
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observe::Silent;
    use crate::rule::{grundy_by_definition, outcome_by_definition};

    fn d(spec: &str, n: u64) -> Decision {
        decide(
            &Game::parse(spec).unwrap(),
            n,
            &Budget::new(8 << 30),
            &Silent,
        )
        .unwrap()
    }

    #[test]
    fn decisions_agree_with_the_definition_and_their_moves_win() {
        for spec in [
            "sub{1,2,3}",
            "leave1(sub{1,3})",
            "squares",
            "leave1(primes|sub{1})",
            "allbut{2,3,7}",
            "divisors",
            "divisors-nontrivial",
            "sqrt",
            "half",
            "leave1(upto{3})",
            "0.77",
            "4.07",
            "grundy-game",
            "0.3F",
        ] {
            let g = Game::parse(spec).unwrap();
            let gv = grundy_by_definition(&g, 300);
            for n in 0..=300u64 {
                let a = d(spec, n);
                assert_eq!(a.win, gv[n as usize] != 0, "{spec} {n}");
                if let Some(x) = a.grundy {
                    assert_eq!(x, u64::from(gv[n as usize]), "{spec} {n}");
                }
                match &a.winning_move {
                    None => assert!(!a.win, "{spec} {n}: no move"),
                    Some(m) => {
                        let left = m.leaves.iter().fold(0, |x, &h| x ^ gv[h as usize]);
                        assert_eq!(left, 0, "{spec} {n}: {m}");
                        assert_eq!(n - m.removed, m.leaves.iter().sum::<u64>(), "{spec} {n}");
                    }
                }
            }
        }
        let win = outcome_by_definition(&Game::parse("divisors").unwrap(), 10);
        assert!(win[4] && !win[5]);
    }

    #[test]
    fn far_heaps_by_closed_forms_periods_and_parity() {
        // sub{1,2,3}: multiples of 4 lose; Grundy value n mod 4
        let a = d("sub{1,2,3}", 1_000_000_000_000_000_001);
        assert!(a.win && a.grundy == Some(1));
        assert_eq!(a.winning_move.unwrap().removed, 1);
        // Kayles: period 12 from 71 (Guy–Smith)
        let a = d("0.77", 1_000_000_000_000_000_000);
        assert!(a.method.contains("proven") && a.grundy.is_some());
        let a = d("divisors", (1 << 40) + 1);
        assert!(!a.win && a.method.starts_with("parity") && a.grundy == Some(0));
        // a P-position found by the sieve: Grundy value 0; an N-position's stays unknown
        let a = d("squares", 5);
        assert_eq!((a.win, a.grundy), (false, Some(0)));
        assert_eq!(d("squares", 6).grundy, None);
        // closed forms give g(n) with any method: v2(n), g(2m) = m, n mod (k + 1)
        assert_eq!(d("divisors", 3 << 40).grundy, Some(40));
        assert_eq!(
            d("half", 1_000_000_000_000_000_000).grundy,
            Some(500_000_000_000_000_000)
        );
        assert_eq!(d("half", 23).grundy, Some(1)); // g(23) = g(11) = g(5) = g(2) = 1
        assert_eq!(d("upto{3}", 1_000_000_000_000_000_002).grundy, Some(2));
        let a = d("sqrt", 1_000_000_000_000_000_000);
        assert_eq!(a.method, "closed form");
        // beyond the budget: refused with the largest n that fits
        let e = decide(
            &Game::parse("primes").unwrap(),
            1_000_000_000,
            &Budget::new(8 << 30),
            &Silent,
        )
        .unwrap_err();
        assert!(
            matches!(&e, Error::Refused(Refusal::TooFar { most, .. }) if *most < 1_000_000_000),
            "{e}"
        );
        assert!(e.to_string().contains("no shortcut") && e.to_string().contains("use n <="));
    }
}
