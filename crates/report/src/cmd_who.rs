//! `heaplab who`: the outcome of one position and one winning move, by the fastest path the
//! family has.

use crate::util::{check_memory, secs};
use crate::{print_json, WhoArgs};
use anyhow::{bail, Result};
use heaplab_core::engine::{all_but_p_positions, finite_outcome_period, p_stream};
use heaplab_core::interval::IntervalGame;
use heaplab_core::{Game, MoveSet, Rule};
use serde_json::{json, Value};
use std::process::ExitCode;
use std::time::Instant;

/// The answer for one position.
pub struct Answer {
    /// N-position?
    pub win: bool,
    /// One winning move (tokens removed, or a description for take-and-break games).
    pub winning_move: Option<Value>,
    /// How it was found.
    pub method: String,
    /// g(n) when it was computed on the way.
    pub grundy: Option<u32>,
}

/// Positions a table-based answer may walk through.
const WALK_LIMIT: u64 = 200_000_000_000;

/// Decides position n of `game`.
pub fn who(game: &Game, n: u64) -> Result<Answer> {
    match game {
        Game::Interval { bound, leave1 } => {
            let ig = IntervalGame {
                bound: *bound,
                leave1: *leave1,
            };
            let (win, last_p) = ig.outcome(n);
            Ok(Answer {
                win,
                winning_move: win.then(|| json!(n - last_p)),
                method: "jump-ahead".into(),
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
                winning_move: if win { mv.map(|s| json!(s)) } else { None },
                method: "all-but candidates".into(),
                grundy: None,
            })
        }
        Game::Subtraction { set, leave1 } if set.is_finite() => {
            let moves = set.elements_upto(u64::MAX);
            let per = finite_outcome_period(&moves, *leave1, 1 << 27).ok_or_else(|| {
                anyhow::anyhow!(
                    "no period of the outcomes within 2^27 positions; try `heaplab losers`"
                )
            })?;
            let win = per.is_win(n);
            let top = if *leave1 { n.saturating_sub(1) } else { n };
            let mv = moves
                .iter()
                .copied()
                .filter(|&s| s <= top)
                .find(|&s| !per.is_win(n - s));
            Ok(Answer {
                win,
                winning_move: if win { mv.map(|s| json!(s)) } else { None },
                method: format!("period {} from {}", per.period, per.start),
                grundy: None,
            })
        }
        Game::Subtraction { set, leave1 } => {
            if n > WALK_LIMIT {
                bail!("{game} has no shortcut: deciding n = {n} means sieving every position up to it; use n <= {WALK_LIMIT}");
            }
            check_memory(
                "the sieve up to n",
                heaplab_core::engine::stream_memory_estimate(game, n),
            )?;
            let mut s = p_stream(game, n, None)?;
            let mut ps = Vec::new();
            while s.advance(&mut ps) {}
            let win = ps.last() != Some(&n);
            let mv = ps
                .iter()
                .rev()
                .filter(|&&q| q < n && (!leave1 || q >= 1))
                .map(|&q| n - q)
                .find(|&s| set.contains(s));
            Ok(Answer {
                win,
                winning_move: if win { mv.map(|s| json!(s)) } else { None },
                method: s.method().into(),
                grundy: None,
            })
        }
        Game::Divisors { nontrivial } => {
            if n > WALK_LIMIT {
                bail!("deciding n = {n} for {game} means a table up to n; use n <= {WALK_LIMIT}");
            }
            check_memory("the table up to n", n / 8 + (1 << 26))?;
            let t = heaplab_core::outcome_table(game, n)?;
            let win = t.is_win(n);
            let lo = if *nontrivial { 2 } else { 1 };
            let mv = (lo..n).find(|&d| n.is_multiple_of(d) && !t.is_win(n - d));
            Ok(Answer {
                win,
                winning_move: if win { mv.map(|s| json!(s)) } else { None },
                method: "divisor pull".into(),
                grundy: None,
            })
        }
        Game::TakeBreak(_) | Game::GrundyGame => {
            if n > 1 << 32 {
                bail!("deciding n = {n} for {game} needs a Grundy table up to n; use n <= 2^32");
            }
            check_memory(
                "the Grundy table up to n",
                heaplab_core::grundy::grundy_memory_estimate(game, n),
            )?;
            let g = heaplab_core::grundy_table(game, n)?;
            let gn = g.get(n);
            let mut mv = None;
            if gn != 0 {
                game.for_each_option(n, &mut |heaps| {
                    if mv.is_none() && heaps.iter().fold(0, |x, &h| x ^ g.get(h)) == 0 {
                        let removed = n - heaps.iter().sum::<u64>();
                        let left = if heaps.is_empty() {
                            "nothing".to_string()
                        } else {
                            heaps
                                .iter()
                                .map(|h| h.to_string())
                                .collect::<Vec<_>>()
                                .join("+")
                        };
                        mv = Some(json!(format!("remove {removed}, leave {left}")));
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
            "winning_move": ans.winning_move,
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
        let mv = match &ans.winning_move {
            Some(Value::String(s)) => format!("; winning move: {s}"),
            Some(v) => format!("; winning move: remove {v}"),
            None => String::new(),
        };
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
