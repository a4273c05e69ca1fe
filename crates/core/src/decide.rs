//! Who wins one heap: [`decide`] answers the outcome of a single position n, with one
//! winning move and the Grundy value when it is known on the way, by the fastest path the
//! family has — a closed form, a proven period, a parity argument, or a table or sieve up
//! to n when nothing shorter is known.

use crate::budget::{Budget, Task};
use crate::cert::{CertRule, Sequence};
use crate::error::Error;
use crate::game::{Game, Play};
use crate::games::allbut::{all_but_p_positions, all_but_p_positions_played};
use crate::games::divisors::parity_outcome;
use crate::games::finite::{finite_outcome_period, finite_outcome_period_played};
use crate::known::{
    closed_values, options_of_value, proven_grundy, reachable, splits_cut, Move, Proven,
    DIRECT_LIMIT,
};
use crate::misere::sums::misere_sum;
use crate::moves::Moves;
use crate::observe::Observer;
use crate::plan::stream::run_plan;
use crate::sums::sum::Sum;
use serde::Serialize;

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
    /// Misère play: `win` is the misère outcome and `grundy` the misère nim-value.
    pub misere: bool,
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
            let what = if self.misere {
                "misère nim-value"
            } else {
                "Grundy value"
            };
            write!(f, ", {what} {g}")?;
        }
        if let Some(m) = &self.winning_move {
            write!(f, "; winning move: {m}")?;
        }
        write!(f, " [{}]", self.method)
    }
}

/// Positions a table- or sieve-based answer may walk through.
const WALK_LIMIT: u64 = 200_000_000_000;

/// Decides position `n` of `game`: outcome, one winning move, the Grundy value when it is
/// known on the way, and the method. Closed forms and proven periods answer heaps up to
/// 2^64 - 1 at once; otherwise every position up to n is decided, within `budget`.
///
/// # Errors
/// [`Refusal::TooFar`] (as [`Error::Refused`]) when n is beyond what the family's method
/// can reach within the budget, naming the largest n it can; [`Error::Cancelled`] when
/// `obs` stops a table or sieve.
pub fn decide(game: &Game, n: u64, budget: &Budget, obs: &dyn Observer) -> Result<Decision, Error> {
    Ok(winning_moves(game, n, 1, budget, obs)?.decision)
}

/// Every winning move from heap n (the moves to a P-position), found by the same method
/// as [`decide`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WinningMoves {
    /// The decision (its `winning_move` is the first of `moves`).
    pub decision: Decision,
    /// The winning moves, in the order the method meets them (by amount removed for
    /// one-heap moves), at most the limit asked for; empty when n loses.
    pub moves: Vec<Move>,
    /// Whether `moves` is every winning move.
    pub complete: bool,
    /// When it is not: which moves are listed and how the others follow from them.
    pub note: Option<String>,
}

/// Decides heap n of `game` as [`decide`] does and lists its winning moves, at most `limit`
/// of them (`limit` 0 is taken as 1). The families list every winning move, except: a
/// take-and-break heap answered from a proven period lists the splits whose smaller part
/// is at most n0 + 2p (every other winning split is one of these with its smaller part
/// moved up and its larger part down by a multiple of the period p); `divisors` past
/// 2^22, answered by parity, lists the odd divisors of n for n up to 10^16 (found by trial
/// division) and only the move 1 beyond.
///
/// # Errors
/// As [`decide`].
pub fn winning_moves(
    game: &Game,
    n: u64,
    limit: usize,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<WinningMoves, Error> {
    let game = &*game.normalized();
    let limit = limit.max(1);
    let (mut d, mut moves, note) = decide_by_method(game, n, limit, budget, obs)?;
    d.misere = game.play() == Play::Misere;
    // g(n) whatever the method for the outcome: from a closed form, or 0 at a P-position
    d.grundy = d
        .grundy
        .or_else(|| closed_values(game).map(|v| v.at(n)).filter(|_| !d.misere))
        .or((!d.win).then_some(0));
    if !d.win {
        moves.clear();
    }
    // (the method was asked for one more than the limit)
    let complete = note.is_none() && moves.len() <= limit;
    moves.truncate(limit);
    d.winning_move = moves.first().cloned();
    let win = d.win;
    Ok(WinningMoves {
        decision: d,
        moves,
        complete: complete || !win,
        note: note.filter(|_| win),
    })
}

/// Found by a family's method: the decision (its move is set from the list), the winning
/// moves (up to `limit`, or one past it when there are more), and a note when the list
/// is partial by construction.
type Found = (Decision, Vec<Move>, Option<String>);

/// [`winning_moves`] by the method its structure has for the outcome (`game` normalised),
/// with g(n) where that method finds it.
fn decide_by_method(
    game: &Game,
    n: u64,
    limit: usize,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<Found, Error> {
    // one more than asked, so a full list can be told from a cut one
    let take = limit.saturating_add(1);
    let decision = |win: bool, moves: Vec<Move>, grundy, method: String| {
        (
            Decision {
                n,
                win,
                winning_move: None,
                grundy,
                method,
                misere: false,
            },
            moves,
            None,
        )
    };
    let takes = |amounts: &mut dyn Iterator<Item = u64>| -> Vec<Move> {
        amounts.take(take).map(|s| Move::take(n, s)).collect()
    };
    let s = game.structure();
    if s.play == Play::Misere {
        return by_misere(game, &s.moves, n, take, budget, obs);
    }
    match &s.moves {
        // closed forms at once; jump-ahead (half) in log2(n) steps
        Moves::Interval(r) if r.pure().is_some() => {
            let ig = r.pure().expect("pure");
            let (win, last_p) = ig.outcome(n);
            let lowest = ig.low(n);
            // the P-positions in reach, walking back from the last one below n
            let mut ps = vec![];
            let mut q = last_p;
            while win && q >= lowest && ps.len() < take {
                ps.push(q);
                match q.checked_sub(1) {
                    Some(x) => q = ig.outcome(x).1,
                    None => break,
                }
                if q >= ps[ps.len() - 1] {
                    break;
                }
            }
            let moves = takes(&mut ps.iter().map(|&q| n - q));
            Ok(decision(
                win,
                moves,
                None,
                ig.closed_form().unwrap_or("jump-ahead").into(),
            ))
        }
        Moves::AllBut { excluded, leave1 } => {
            let ps = all_but_p_positions(excluded, *leave1);
            let win = !ps.contains(&n);
            let moves = takes(
                &mut ps
                    .iter()
                    .rev()
                    .filter(|&&q| q < n && (!leave1 || q >= 1))
                    .map(|&q| n - q)
                    .filter(|s| excluded.binary_search(s).is_err()),
            );
            Ok(decision(win, moves, None, "all-but candidates".into()))
        }
        Moves::Finite { moves, leave1 } => {
            let Some(per) = finite_outcome_period(moves, *leave1, 1 << 27) else {
                // no period within reach (a move near n, or a long period): sieve up to n
                return by_stream(game, &s.moves, n, take, budget, obs);
            };
            let win = per.is_win(n);
            let top = if *leave1 { n.saturating_sub(1) } else { n };
            let found = takes(
                &mut moves
                    .iter()
                    .copied()
                    .filter(|&s| s <= top && !per.is_win(n - s)),
            );
            let grundy = proven_grundy(game, budget, obs)?.map(|p| u64::from(p.at(n)));
            let method = format!(
                "outcomes proven periodic (period {} from {})",
                per.period, per.start
            );
            Ok(decision(win, found, grundy, method))
        }
        Moves::Divisors { nontrivial: false } if n > DIRECT_LIMIT => {
            let (win, s) = parity_outcome(n);
            let method = "parity (odd heaps have only odd divisors)".into();
            // the winning moves are the odd divisors (they leave an odd heap)
            if limit == 1 || !win {
                return Ok(decision(win, takes(&mut s.into_iter()), None, method));
            }
            if n > ODD_DIVISORS_MAX {
                let mut d = decision(win, takes(&mut s.into_iter()), None, method);
                d.2 = Some(format!(
                    "the winning moves are the odd divisors of n; only 1 is listed past \
                     n = {ODD_DIVISORS_MAX} (they are found by trial division)"
                ));
                return Ok(d);
            }
            let odd = n >> n.trailing_zeros();
            let mut divs = crate::num::divisors_by_trial(odd, obs)?;
            divs.truncate(take);
            Ok(decision(win, takes(&mut divs.into_iter()), None, method))
        }
        Moves::Divisors { nontrivial } => {
            // one bit per position and the divisor lists of a segment
            let room = budget.memory.saturating_sub(1 << 26).saturating_mul(8);
            let p = reachable(
                game,
                Task::Outcomes,
                n,
                WALK_LIMIT.min(room),
                budget,
                || format!("needs a table up to n = {n}"),
            )?;
            let t = p.outcomes(obs)?;
            let win = t.is_win(n);
            let lo = if *nontrivial { 2 } else { 1 };
            let moves = takes(&mut (lo..n).filter(|&d| n.is_multiple_of(d) && !t.is_win(n - d)));
            Ok(decision(win, moves, None, "divisor pull".into()))
        }
        Moves::Split(br) if n > DIRECT_LIMIT && br.is_octal() => {
            match proven_grundy(game, budget, obs)? {
                Some(p) => Ok(by_period(&s.moves, n, &p, take)),
                // no period proven within 2^22 positions: a table up to n, where it fits
                None => by_table(game, &s.moves, n, take, budget, obs),
            }
        }
        Moves::Split(_) | Moves::Options(_) => by_table(game, &s.moves, n, take, budget, obs),
        // one-heap moves without a shortcut (sets, intervals with extra amounts, listed
        // moves, a seeded start's outcomes): the stream up to n
        Moves::Set { .. }
        | Moves::Interval(_)
        | Moves::Listed(_)
        | Moves::Union(_)
        | Moves::Seeded { .. } => by_stream(game, &s.moves, n, take, budget, obs),
    }
}

/// Decides heap n of `game` in misère play (its moves `moves`): a finite set (or
/// `upto{k}`) from its misère outcome period, an all-but set from its finitely many misère
/// P-positions, a take-and-break heap by canonical misère forms, any other one-heap game by
/// its misère P-position stream up to n.
fn by_misere(
    game: &Game,
    moves: &Moves,
    n: u64,
    take: usize,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<Found, Error> {
    let found = |win: bool, amounts: Vec<u64>, method: String| {
        let d = Decision {
            n,
            win,
            winning_move: None,
            grundy: None,
            method,
            misere: false,
        };
        let moves = amounts
            .into_iter()
            .take(take)
            .map(|s| Move::take(n, s))
            .collect();
        (d, moves, None)
    };
    let legal = |s: u64| moves.allows(n, s);
    if moves.first_move() == Some(u64::MAX) {
        // no heap has a move: whoever is to move has already won
        return Ok(found(true, vec![], "no heap has a move (misère)".into()));
    }
    match (moves, CertRule::of(game, Sequence::Outcome)) {
        (Moves::AllBut { excluded, leave1 }, _) => {
            let ps = all_but_p_positions_played(excluded, *leave1, true);
            let win = !ps.contains(&n);
            let amounts = ps
                .iter()
                .rev()
                .filter(|&&q| q < n)
                .map(|&q| n - q)
                .filter(|&s| legal(s));
            Ok(found(
                win,
                amounts.take(take).collect(),
                "all-but candidates (misère)".into(),
            ))
        }
        // a finite set (or upto{k}) with a small largest move: its misère outcome period
        (_, CertRule::FiniteSubtraction { largest_move: k }) if k <= 1 << 20 => {
            let (amounts, leave1): (Vec<u64>, bool) = match moves {
                Moves::Finite { moves, leave1 } => (moves.clone(), *leave1),
                // upto{k}
                Moves::Interval(r) => ((1..=k).collect(), r.bounds[0].1),
                _ => return by_stream(game, moves, n, take, budget, obs),
            };
            match finite_outcome_period_played(&amounts, leave1, true, 1 << 27) {
                Some(per) => {
                    let winning = amounts
                        .iter()
                        .copied()
                        .filter(|&s| legal(s) && !per.is_win(n - s))
                        .collect();
                    let method = format!(
                        "misère outcomes proven periodic (period {} from {})",
                        per.period, per.start
                    );
                    Ok(found(per.is_win(n), winning, method))
                }
                None => by_stream(game, moves, n, take, budget, obs),
            }
        }
        (Moves::Split(_), _) => {
            let sum = Sum::of_heaps(game, &[n]);
            let m = misere_sum(&sum, take, budget, obs)?;
            let d = Decision {
                n,
                win: m.win,
                winning_move: None,
                grundy: m.heaps[0].misere_value,
                method: m.method,
                misere: false,
            };
            Ok((d, m.moves.into_iter().map(|mv| mv.step).collect(), None))
        }
        _ => by_stream(game, moves, n, take, budget, obs),
    }
}

/// Decides heap n of a one-heap game (in either play; its moves `moves`) by its
/// P-position stream up to n — the sieve for subtraction sets, the jump-ahead for
/// intervals: n wins iff it is not the last P-position, and the winning moves are the
/// moves to the P-positions below it.
fn by_stream(
    game: &Game,
    moves: &Moves,
    n: u64,
    take: usize,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<Found, Error> {
    let misere = game.play() == Play::Misere;
    // (the jump-ahead never walks the positions: its time estimate bounds it)
    let walk = match moves {
        Moves::Interval(_) => u64::MAX,
        _ => WALK_LIMIT,
    };
    let p = reachable(game, Task::PPositions, n, walk, budget, || match misere {
        true => format!(
            "has no shortcut in misère play: deciding n = {n} means every position up to it"
        ),
        false => {
            format!("has no shortcut: deciding n = {n} means sieving every position up to it")
        }
    })?;
    obs.planned(&p);
    let mut ps = Vec::new();
    let method = run_plan(&p, obs, |segment| ps.append(segment))?;
    let win = ps.last() != Some(&n);
    let found = ps
        .iter()
        .rev()
        .filter(|&&q| q < n)
        .map(|&q| n - q)
        .filter(|&s| moves.allows(n, s))
        .take(take)
        .map(|s| Move::take(n, s))
        .collect();
    let d = Decision {
        n,
        win,
        winning_move: None,
        grundy: None,
        method: match misere {
            true => format!("{method} (misère)"),
            false => method.into(),
        },
        misere: false,
    };
    Ok((d, found, None))
}

/// Decides position n of a game whose moves split heaps (or list options) from its Grundy
/// table up to n.
fn by_table(
    game: &Game,
    moves: &Moves,
    n: u64,
    take: usize,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<Found, Error> {
    let p = reachable(game, Task::Grundy, n, 1 << 32, budget, || {
        format!("needs a Grundy table up to n = {n}")
    })?;
    obs.planned(&p);
    let g = p.grundy(obs)?;
    let gn = g.get(n);
    let found = options_of_value(moves, n, u64::MAX, take, |h| u64::from(g.get(h)), 0);
    let d = Decision {
        n,
        win: gn != 0,
        winning_move: None,
        grundy: Some(u64::from(gn)),
        method: "grundy table".into(),
        misere: false,
    };
    Ok((d, found, None))
}

/// A game's Grundy values proven periodic (saltus 0) by its family's theorem.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProvenPeriod {
    /// n0: g(n + p) = g(n) for every n >= n0.
    pub preperiod: u64,
    /// p.
    pub period: u64,
    /// Why it is proven (the theorem and the table it rests on).
    pub certificate: String,
}

/// The proven period of `game`'s Grundy values, when its family has a theorem for one
/// (finite subtraction sets and `upto{k}`: each value depends on the k before it; octal
/// codes: Guy and Smith 1956) and tables of up to 2^22 positions, within `budget` and a
/// minute, reach its bound; `None` otherwise.
///
/// # Errors
/// [`Error::Cancelled`] when `obs` stops a table.
pub fn proven_period(
    game: &Game,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<Option<ProvenPeriod>, Error> {
    let game = &*game.normalized();
    Ok(proven_grundy(game, budget, obs)?.map(|p| ProvenPeriod {
        preperiod: p.period.preperiod,
        period: p.period.period,
        certificate: p.certificate,
    }))
}

/// Decides position n of an octal game whose Grundy values are proven periodic: the
/// options are searched with splits a + b only for a at most n0 + 2p, which covers every pair
/// of residues.
fn by_period(moves: &Moves, n: u64, p: &Proven, take: usize) -> Found {
    let gn = p.at(n);
    let (n0, per) = (p.period.preperiod, p.period.period);
    let a_max = n0 + 2 * per;
    let found = options_of_value(moves, n, a_max, take, |h| u64::from(p.at(h)), 0);
    let d = Decision {
        n,
        win: gn != 0,
        winning_move: None,
        grundy: Some(u64::from(gn)),
        method: format!(
            "Grundy values proven periodic (period {per} from {n0}; {})",
            p.certificate
        ),
        misere: false,
    };
    let note = splits_cut(n, a_max).then(|| {
        format!(
            "splits whose smaller heap is at most {a_max} (= n0 + 2p) are listed; every other \
             winning split is one of them with p = {per} moved, a multiple at a time, from \
             the larger heap to the smaller"
        )
    });
    (d, found, note)
}

/// Odd divisors are listed for heaps up to this (trial division to its square root).
const ODD_DIVISORS_MAX: u64 = 10_000_000_000_000_000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Refusal;
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

    /// A game of every family (and `leave1` forms) for the checks against the definition.
    const SPECS: [&str; 12] = [
        "sub{1,2,3}",
        "leave1(sub{1,3})",
        "squares",
        "leave1(primes|sub{1})",
        "allbut{2,3,7}",
        "divisors",
        "sqrt",
        "half",
        "leave1(upto{3})",
        "0.77",
        "4.07",
        "grundy-game",
    ];

    #[test]
    fn decisions_agree_with_the_definition_and_their_moves_win() {
        for spec in SPECS.iter().chain(&["divisors-nontrivial", "0.3F"]) {
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
    fn every_winning_move_is_listed() {
        use crate::rule::Rule;
        for spec in SPECS {
            let g = Game::parse(spec).unwrap();
            let gv = grundy_by_definition(&g, 200);
            for n in 0..=200u64 {
                // by the definition: every option whose heaps XOR to 0
                let mut want = vec![];
                g.for_each_option(n, &mut |heaps| {
                    if heaps.iter().fold(0, |x, &h| x ^ gv[h as usize]) == 0 {
                        let mut v = heaps.to_vec();
                        v.sort_unstable();
                        v.retain(|&h| h > 0);
                        want.push(v);
                    }
                });
                want.sort();
                want.dedup();
                let w = winning_moves(&g, n, 10_000, &Budget::new(8 << 30), &Silent).unwrap();
                let mut got: Vec<Vec<u64>> = w.moves.iter().map(|m| m.leaves.clone()).collect();
                got.sort();
                assert_eq!(got, want, "{spec} {n}");
                assert!(w.complete, "{spec} {n}");
                assert_eq!(w.decision.winning_move, w.moves.first().cloned());
            }
        }
        // a limit cuts the list and says so
        let w = winning_moves(
            &Game::parse("0.77").unwrap(),
            30,
            3,
            &Budget::new(8 << 30),
            &Silent,
        )
        .unwrap();
        assert_eq!((w.moves.len(), w.complete), (3, false));
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
            matches!(&e, Error::Refused(Refusal::TooFar { most: Some(most), .. }) if *most < 1_000_000_000),
            "{e}"
        );
        assert!(e.to_string().contains("no shortcut") && e.to_string().contains("use n <="));
    }
}
