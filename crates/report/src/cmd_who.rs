//! `heaplab who`: the outcome of one position and one winning move, by the fastest path the
//! family has.

use crate::util::{check_memory, secs};
use crate::{print_json, WhoArgs};
use anyhow::{bail, Result};
use heaplab_core::engine::{all_but_p_positions, finite_outcome_period, p_stream};
use heaplab_core::interval::IntervalGame;
use heaplab_core::{Game, MoveSet, Rule};
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

/// The answer for one position.
pub struct Answer {
    /// N-position?
    pub win: bool,
    /// One winning move.
    pub winning_move: Option<Move>,
    /// How it was found.
    pub method: String,
    /// g(n) when it was computed on the way.
    pub grundy: Option<u32>,
}

/// A move: tokens removed and the heaps left (none when the heap is taken whole; two or
/// three for a take-and-break move that splits it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    /// Tokens removed.
    pub removed: u64,
    /// Non-empty heaps left.
    pub leaves: Vec<u64>,
}

impl Move {
    /// Removing `s` from a heap of `n` (s <= n).
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

/// Positions a table-based answer may walk through.
const WALK_LIMIT: u64 = 200_000_000_000;

/// Heaps below this are answered from the table itself.
const DIRECT_LIMIT: u64 = 1 << 22;

/// A Grundy sequence proven periodic: its first values and the period (finite subtraction
/// sets: k values repeat; octal codes with two heaps at most: Guy–Smith). Tries tables of
/// 2^12 … 2^22 positions.
fn proven_grundy(game: &Game) -> Option<(heaplab_analysis::Periodicity, Vec<i64>)> {
    let ctx = crate::analyze::cert_context(game, crate::analyze::Values::Grundy);
    if ctx == heaplab_analysis::CertContext::None {
        return None;
    }
    let mut len = 1u64 << 12;
    while len <= DIRECT_LIMIT {
        let g = crate::progress::grundy_table(game, len).ok()?;
        let head: Vec<i64> = (0..=len).map(|n| g.get(n) as i64).collect();
        if let Some(p) = heaplab_analysis::periodicity(&head, ctx) {
            if p.certified {
                return Some((p, head));
            }
        }
        len *= 4;
    }
    None
}

/// Decides position n of a subtraction game by sieving every position up to it.
fn by_sieve(game: &Game, set: &MoveSet, leave1: bool, n: u64) -> Result<Answer> {
    let most = crate::util::feasible_max(game, false, WALK_LIMIT);
    if n > most {
        bail!("{game} has no shortcut: deciding n = {n} means sieving every position up to it; use n <= {most}");
    }
    check_memory(
        "the sieve up to n",
        heaplab_core::engine::stream_memory_estimate(game, n),
    )?;
    crate::util::check_work(game, n, false)?;
    let mut s = p_stream(game, n, None)?;
    let mut ps = Vec::new();
    let mut progress = crate::progress::Progress::new("sieve", n.saturating_add(1));
    while s.advance(&mut ps) {
        progress.set(s.done().min(n.saturating_add(1)));
    }
    progress.finish();
    let win = ps.last() != Some(&n);
    let mv = ps
        .iter()
        .rev()
        .filter(|&&q| q < n && (!leave1 || q >= 1))
        .map(|&q| n - q)
        .find(|&s| set.contains(s));
    Ok(Answer {
        win,
        winning_move: Move::winning(win, n, mv),
        method: s.method().into(),
        grundy: None,
    })
}

/// Decides position n of `game`.
pub fn who(game: &Game, n: u64) -> Result<Answer> {
    match game {
        Game::Interval { bound, leave1 } => {
            let ig = IntervalGame {
                bound: *bound,
                leave1: *leave1,
            };
            // jump-ahead (half) takes log2(n) steps; closed forms none
            let (win, last_p) = ig.outcome(n);
            Ok(Answer {
                win,
                winning_move: win.then(|| Move::take(n, n - last_p)),
                method: ig.closed_form().unwrap_or("jump-ahead").into(),
                grundy: None,
            })
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
            Ok(Answer {
                win,
                winning_move: Move::winning(win, n, mv),
                method: "all-but candidates".into(),
                grundy: None,
            })
        }
        Game::Subtraction { set, leave1 } if set.is_finite() => {
            let moves = set.elements_upto(u64::MAX);
            let Some(per) = finite_outcome_period(&moves, *leave1, 1 << 27) else {
                // no period within reach (a move near n, or a long period): sieve up to n
                return by_sieve(game, set, *leave1, n);
            };
            let win = per.is_win(n);
            let top = if *leave1 { n.saturating_sub(1) } else { n };
            let mv = moves
                .iter()
                .copied()
                .filter(|&s| s <= top)
                .find(|&s| !per.is_win(n - s));
            let grundy = proven_grundy(game)
                .and_then(|(p, head)| p.value_at(&head, n))
                .map(|v| v as u32);
            Ok(Answer {
                win,
                winning_move: Move::winning(win, n, mv),
                method: format!(
                    "outcomes proven periodic (period {} from {})",
                    per.period, per.start
                ),
                grundy,
            })
        }
        Game::Subtraction { set, leave1 } => by_sieve(game, set, *leave1, n),
        Game::Divisors { nontrivial: false } if n > DIRECT_LIMIT => {
            // Parity: an odd heap has only odd divisors, so every move leaves an even heap;
            // an even heap moves to an odd one by taking 1. Hence the P-positions are 0 and
            // the odd heaps, and 1 is always a winning move from an even heap.
            let win = n.is_multiple_of(2);
            Ok(Answer {
                win,
                winning_move: win.then(|| Move::take(n, 1)),
                method: "parity (odd heaps have only odd divisors)".into(),
                grundy: None,
            })
        }
        Game::Divisors { nontrivial } => {
            // one bit per position and the divisor lists of a segment
            let room = crate::util::memory_budget();
            let most = WALK_LIMIT.min(room.saturating_sub(1 << 26).saturating_mul(8));
            if n > most {
                bail!("deciding n = {n} for {game} means a table up to n; use n <= {most}");
            }
            check_memory("the table up to n", n / 8 + (1 << 26))?;
            crate::util::check_work(game, n, false)?;
            let t = crate::progress::outcome_table(game, n)?;
            let win = t.is_win(n);
            let lo = if *nontrivial { 2 } else { 1 };
            let mv = (lo..n).find(|&d| n.is_multiple_of(d) && !t.is_win(n - d));
            Ok(Answer {
                win,
                winning_move: Move::winning(win, n, mv),
                method: "divisor pull".into(),
                grundy: None,
            })
        }
        Game::TakeBreak(code) if n > DIRECT_LIMIT && code.max_heaps_left() <= 2 => {
            let Some((p, head)) = proven_grundy(game) else {
                bail!("{game} shows no proven period within 2^22 positions, and n = {n} is too far for a table");
            };
            let at = |x: u64| p.value_at(&head, x).unwrap_or(-1);
            let gn = at(n);
            let mut mv = None;
            if gn != 0 {
                // Options: remove i, leave nothing / one heap / two heaps a + b. For two heaps,
                // a below n0 + 2p covers every pair of residues, so the search stops there.
                'search: for (i, &d) in code.digits.iter().enumerate() {
                    let i = i as u64;
                    if i > n {
                        break;
                    }
                    let rest = n - i;
                    if i > 0 && d & 1 != 0 && rest == 0 {
                        mv = Some(Move {
                            removed: i,
                            leaves: vec![],
                        });
                        break;
                    }
                    if i > 0 && d & 2 != 0 && rest >= 1 && at(rest) == 0 {
                        mv = Some(Move {
                            removed: i,
                            leaves: vec![rest],
                        });
                        break;
                    }
                    if d & 4 != 0 && rest >= 2 {
                        for a in 1..=(rest / 2).min(p.preperiod + 2 * p.period) {
                            if at(a) == at(rest - a) {
                                mv = Some(Move {
                                    removed: i,
                                    leaves: vec![a, rest - a],
                                });
                                break 'search;
                            }
                        }
                    }
                }
            }
            Ok(Answer {
                win: gn != 0,
                winning_move: mv,
                method: format!(
                    "Grundy values proven periodic (period {} from {}; {})",
                    p.period, p.preperiod, p.certificate
                ),
                grundy: Some(gn as u32),
            })
        }
        Game::TakeBreak(_) | Game::GrundyGame => {
            let most = crate::util::feasible_max(game, true, 1 << 32);
            if n > most {
                bail!("deciding n = {n} for {game} needs a Grundy table up to n; use n <= {most}");
            }
            check_memory(
                "the Grundy table up to n",
                heaplab_core::grundy::grundy_memory_estimate(game, n),
            )?;
            let g = crate::progress::grundy_table(game, n)?;
            let gn = g.get(n);
            let mut mv = None;
            if gn != 0 {
                game.for_each_option(n, &mut |heaps| {
                    if mv.is_none() && heaps.iter().fold(0, |x, &h| x ^ g.get(h)) == 0 {
                        mv = Some(Move {
                            removed: n - heaps.iter().sum::<u64>(),
                            leaves: heaps.to_vec(),
                        });
                    }
                });
            }
            Ok(Answer {
                win: gn != 0,
                winning_move: mv,
                method: "grundy table".into(),
                grundy: Some(gn),
            })
        }
    }
}

/// Runs the command.
pub fn run(a: WhoArgs, _quiet: bool) -> Result<ExitCode> {
    let t0 = Instant::now();
    let ans = who(&a.game, a.n)?;
    if a.json {
        let mut v = json!({
            "game": a.game.to_string(),
            "n": a.n,
            "win": ans.win,
            "winning_move": ans.winning_move.as_ref().map(|m| m.removed),
            "leaves": ans.winning_move.as_ref().map(|m| &m.leaves),
            "method": ans.method,
            "seconds": secs(t0),
        });
        if let Some(g) = ans.grundy {
            v["grundy"] = json!(g);
        }
        print_json(&v);
    } else {
        let verdict = if ans.win {
            "win (N-position)"
        } else {
            "lose (P-position)"
        };
        let mv = ans
            .winning_move
            .as_ref()
            .map_or(String::new(), |m| format!("; winning move: {m}"));
        let g = ans
            .grundy
            .map_or(String::new(), |g| format!(", Grundy value {g}"));
        println!(
            "{} at n = {}: {verdict}{g}{mv} [{}]",
            a.game, a.n, ans.method
        );
    }
    Ok(ExitCode::SUCCESS)
}
