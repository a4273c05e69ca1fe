//! `heaplab who`: the outcome of one position or of a sum of heaps, and one winning move
//! ([`heaplab_core::decide`], [`heaplab_core::decide_sum`]).

use crate::cli::WhoArgs;
use crate::output::{print_json, secs};
use crate::progress::Progress;
use anyhow::{anyhow, bail, Result};
use heaplab_core::misere::misere_sum;
use heaplab_core::{
    decide, decide_sum, parse_count, sum_winning_moves, Game, Play, Sum, SumDecision, SumMove,
};
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

/// Runs the command.
pub fn run(a: WhoArgs) -> Result<ExitCode> {
    let sum = match &a.game {
        Some(game) => {
            let heaps = a
                .heaps
                .iter()
                .enumerate()
                .map(|(i, h)| {
                    let n = parse_count(h)
                        .map_err(|e| anyhow!("heap {} (`{}`): {e}", i + 1, short(h)))?;
                    crate::output::unshift(&format!("heap {}", i + 1), n, a.shift)
                })
                .collect::<Result<Vec<u64>>>()?;
            Sum::of_heaps(game, &heaps)
        }
        None if a.shift > 0 => bail!("--shift applies to heaps of --game, not to a sum"),
        None => parse_sum(&a.heaps)?,
    };
    // --play applies to every heap
    let sum = match a.play {
        Some(p) => Sum {
            heaps: sum
                .heaps
                .iter()
                .map(|(g, n)| Ok((crate::cli::played(g, Some(p))?, *n)))
                .collect::<Result<_>>()?,
        },
        None => sum,
    };
    if a.shift > 0 && sum.heaps.len() > 1 {
        bail!("--shift applies to one heap at a time");
    }
    if a.shift > 0 && sum.heaps[0].0.moves_of(0).is_none() {
        bail!("--shift applies to games whose moves leave one heap, not to a take-and-break game");
    }
    let limit = usize::try_from(a.limit).unwrap_or(usize::MAX);
    if sum.heaps.len() > 1 && sum.heaps.iter().any(|(g, _)| g.play() == Play::Misere) {
        return misere(&sum, if a.all { limit } else { 1 }, a.all, a.json);
    }
    if a.all {
        return all_moves(&sum, limit, a.shift, a.json);
    }
    match &sum.heaps[..] {
        [(game, n)] => one_heap(game, *n, a.shift, a.json),
        _ => several(&sum, a.json),
    }
}

/// `--all`: the outcome and every winning move (up to `limit`), each with what it leaves.
fn all_moves(sum: &Sum, limit: usize, shift: u64, as_json: bool) -> Result<ExitCode> {
    let t0 = Instant::now();
    let top = sum.heaps.iter().map(|(_, n)| *n).max().unwrap_or(0);
    let progress = Progress::new(&format!("{sum}"), top.saturating_add(1));
    let mut w = sum_winning_moves(sum, limit, &crate::machine::budget(), &progress)?;
    progress.finish();
    // heaps as the user counts them (one heap: --shift)
    for h in &mut w.decision.heaps {
        h.n += shift;
    }
    if shift > 0 {
        for m in &mut w.moves {
            shift_leaves(&mut m.step.leaves, shift);
            let game = sum.heaps[0].0.to_string();
            m.result = m.step.leaves.iter().map(|&h| (game.clone(), h)).collect();
        }
    }
    let one = sum.heaps.len() == 1;
    let shown = if one {
        format!("{}:{}", sum.heaps[0].0, sum.heaps[0].1 + shift)
    } else {
        sum.to_string()
    };
    if as_json {
        print_json(&json!({
            "sum": shown,
            "heaps": w.decision.heaps,
            "grundy": w.decision.grundy,
            "win": w.decision.win,
            "winning_moves": w.moves.iter().map(move_json).collect::<Vec<_>>(),
            "complete": w.complete,
            "note": w.note,
            "seconds": secs(t0),
        }));
        return Ok(ExitCode::SUCCESS);
    }
    let d = &w.decision;
    if one {
        let h = &d.heaps[0];
        // a misère heap's value is its misère nim-value, not a Grundy value
        let label = match sum.heaps[0].0.play() {
            Play::Misere => "misère nim-value",
            Play::Normal => "Grundy value",
        };
        let g = h.grundy.map_or(String::new(), |g| format!(", {label} {g}"));
        println!(
            "{}:{}{}: {}{g}{} [{}]",
            h.game,
            h.n,
            if shift > 0 {
                format!(" (heaps shifted by {shift})")
            } else {
                String::new()
            },
            if d.win {
                "win (N-position)"
            } else {
                "lose (P-position)"
            },
            if d.win {
                ""
            } else {
                ": every move leaves a win"
            },
            h.method
        );
    } else {
        let mut text = sum_report(sum, d);
        // the one winning move line is replaced by the list
        if let Some(i) = text.find("winning move: ") {
            text.truncate(i);
        }
        print!("{text}");
    }
    if d.win {
        println!(
            "{} winning move{}{}:",
            w.moves.len(),
            if w.moves.len() == 1 { "" } else { "s" },
            if w.complete {
                ""
            } else {
                " listed (there may be more)"
            }
        );
        for m in &w.moves {
            if one {
                println!("  {}", m.step);
            } else {
                println!(
                    "  heap {}: {}; the sum becomes {}",
                    m.heap + 1,
                    m.step,
                    sum_text(&m.result)
                );
            }
        }
        if let Some(note) = &w.note {
            println!("({note})");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The positional words as a sum: joined with ` + ` when each is a term of its own
/// (`squares:5 0.77:3`), else as written (`'squares:5 + 0.77:3'` or `squares:5 + 0.77:3`).
/// A game followed by bare heaps (`squares 5 7`) gets a hint towards `--game`.
fn parse_sum(words: &[String]) -> Result<Sum> {
    let separate = words.len() > 1 && words.iter().all(|w| w.contains(':') && !w.contains('+'));
    let text = words.join(if separate { " + " } else { " " });
    Sum::parse(&text).map_err(|e| {
        let game_then_heaps = words.len() > 1
            && !text.contains(':')
            && Game::parse(&words[0]).is_ok()
            && words[1..].iter().all(|h| parse_count(h).is_ok());
        if game_then_heaps {
            anyhow!(
                "`{}` is a game and heaps: write `heaplab who --game {} {}`, or a sum as \
                 `{}:{}`",
                short(&text),
                short(&words[0]),
                words[1..]
                    .iter()
                    .map(|h| short(h))
                    .collect::<Vec<_>>()
                    .join(" "),
                short(&words[0]),
                short(&words[1])
            )
        } else {
            anyhow!("{e}")
        }
    })
}

/// At most 40 characters of a user's text.
fn short(s: &str) -> String {
    s.chars().take(40).flat_map(char::escape_default).collect()
}

/// One heap: the decision as today's `who` prints it.
fn one_heap(game: &Game, n: u64, shift: u64, as_json: bool) -> Result<ExitCode> {
    let t0 = Instant::now();
    let progress = Progress::new(&format!("{game} at n = {n}"), n.saturating_add(1));
    let mut d = decide(game, n, &crate::machine::budget(), &progress)?;
    progress.finish();
    // heaps as the user counts them
    d.n += shift;
    if let Some(m) = d.winning_move.as_mut() {
        shift_leaves(&mut m.leaves, shift);
    }
    let n = d.n;
    if as_json {
        let mut v = json!({
            "game": game.to_string(),
            "n": n,
            "shift": shift,
            "win": d.win,
            "winning_move": d.winning_move.as_ref().map(|m| m.removed),
            "leaves": d.winning_move.as_ref().map(|m| &m.leaves),
            "method": d.method,
            "seconds": secs(t0),
        });
        if let Some(g) = d.grundy {
            v["grundy"] = json!(g);
        }
        print_json(&v);
    } else {
        let shifted = if shift > 0 {
            format!(" (heaps shifted by {shift})")
        } else {
            String::new()
        };
        println!("{game} at n = {n}{shifted}: {d}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The heaps a move leaves as the user counts them under `--shift S`: each plus S, and
/// the terminal heap S when the move takes the whole heap.
fn shift_leaves(leaves: &mut Vec<u64>, shift: u64) {
    if shift > 0 && leaves.is_empty() {
        leaves.push(0);
    }
    leaves.iter_mut().for_each(|h| *h += shift);
}

/// A winning move of a sum as JSON: `heap`, `removed`, `leaves`, `result`.
fn move_json(m: &SumMove) -> serde_json::Value {
    let mut v = json!({
        "heap": m.heap,
        "removed": m.step.removed,
        "leaves": m.step.leaves,
        "result": m.result.iter().map(|(g, n)| json!({"game": g, "n": n})).collect::<Vec<_>>(),
    });
    // a move of a code that adds tokens (`80.0`)
    if m.step.added > 0 {
        v["added"] = json!(m.step.added);
    }
    v
}

/// `spec:n + spec:n …`, or "nothing" for no heaps.
fn sum_text(heaps: &[(String, u64)]) -> String {
    if heaps.is_empty() {
        return "nothing".into();
    }
    let terms: Vec<String> = heaps.iter().map(|(g, n)| format!("{g}:{n}")).collect();
    terms.join(" + ")
}

/// Several heaps: each heap's value, their XOR, the outcome and one winning move.
fn several(sum: &Sum, as_json: bool) -> Result<ExitCode> {
    let t0 = Instant::now();
    let top = sum.heaps.iter().map(|(_, n)| *n).max().unwrap_or(0);
    let progress = Progress::new(&format!("{sum}"), top.saturating_add(1));
    let d = decide_sum(sum, &crate::machine::budget(), &progress)?;
    progress.finish();
    let grundy = |v: Option<u64>| v.expect("a sum of several heaps knows every value");
    if as_json {
        print_json(&json!({
            "sum": sum.to_string(),
            "heaps": d.heaps,
            "grundy": grundy(d.grundy),
            "win": d.win,
            "winning_move": d.winning_move.as_ref().map(move_json),
            "seconds": secs(t0),
        }));
        return Ok(ExitCode::SUCCESS);
    }
    print!("{}", sum_report(sum, &d));
    Ok(ExitCode::SUCCESS)
}

/// The text report of a decided sum.
fn sum_report(sum: &Sum, d: &SumDecision) -> String {
    let terms: Vec<String> = d
        .heaps
        .iter()
        .map(|h| format!("{}:{}", h.game, h.n))
        .collect();
    let width = terms.iter().map(|t| t.chars().count()).max().unwrap_or(0);
    let mut out = format!("{sum}\n");
    let mut values = vec![];
    for (i, (h, t)) in d.heaps.iter().zip(&terms).enumerate() {
        let g = h.grundy.unwrap_or_default();
        values.push(g.to_string());
        out += &format!(
            "  heap {:<3} {t:<width$}  Grundy value {g}  [{}]\n",
            i + 1,
            h.method
        );
    }
    let x = d.grundy.unwrap_or_default();
    out += &format!(
        "sum: Grundy value {} = {x}: {}\n",
        values.join(" xor "),
        if d.win {
            "win (N-position)"
        } else {
            "lose (P-position): every move leaves a win"
        }
    );
    if let Some(m) = &d.winning_move {
        out += &format!(
            "winning move: heap {} ({}): {}; the sum becomes {}\n",
            m.heap + 1,
            terms[m.heap],
            m.step,
            sum_text(&m.result)
        );
    }
    out
}

/// A sum of several heaps in misère play ([`misere_sum`]): each heap's misère nim-value,
/// genus and phylum, the outcome, and one winning move (every one, up to `limit`, with
/// `--all`).
fn misere(sum: &Sum, limit: usize, all: bool, as_json: bool) -> Result<ExitCode> {
    let t0 = Instant::now();
    let top = sum.heaps.iter().map(|(_, n)| *n).max().unwrap_or(0);
    let progress = Progress::new(&format!("{sum}"), top.saturating_add(1));
    let m = misere_sum(sum, limit, &crate::machine::budget(), &progress)?;
    progress.finish();
    if as_json {
        let mut v = json!({
            "sum": sum.to_string(),
            "play": "misere",
            "heaps": m.heaps,
            "win": m.win,
            "method": m.method,
            "seconds": secs(t0),
        });
        if all {
            v["winning_moves"] = json!(m.moves.iter().map(move_json).collect::<Vec<_>>());
            v["complete"] = json!(m.complete);
        } else {
            v["winning_move"] = json!(m.moves.first().map(move_json));
        }
        print_json(&v);
        return Ok(ExitCode::SUCCESS);
    }
    println!("{sum} (misère play: the last player to move loses)");
    let terms: Vec<String> = m
        .heaps
        .iter()
        .map(|h| format!("{}:{}", h.game, h.n))
        .collect();
    let width = terms.iter().map(|t| t.chars().count()).max().unwrap_or(0);
    for (i, (h, t)) in m.heaps.iter().zip(&terms).enumerate() {
        let genus = match (&h.genus, h.phylum) {
            (Some(g), Some(p)) => format!(", genus {g}, {}", p.name()),
            _ => String::new(),
        };
        let value = match (&h.misere_value, &h.element) {
            (Some(v), _) => format!("misère nim-value {v}"),
            (None, Some(e)) => format!("quotient element {e}"),
            (None, None) => String::new(),
        };
        println!("  heap {:<3} {t:<width$}  {value}{genus}", i + 1);
    }
    println!(
        "sum: {} [{}]",
        if m.win {
            "win (N-position)"
        } else {
            "lose (P-position): every move leaves a win"
        },
        m.method
    );
    if m.win && !m.moves.is_empty() {
        if all {
            let n = m.moves.len();
            let s = if n == 1 { "" } else { "s" };
            let more = if m.complete {
                ""
            } else {
                "; there may be more"
            };
            println!("{n} winning move{s} listed (at most {limit}{more}):");
        }
        for mv in &m.moves {
            println!(
                "{}heap {} ({}): {}; the sum becomes {}",
                if all { "  " } else { "winning move: " },
                mv.heap + 1,
                terms[mv.heap],
                mv.step,
                sum_text(&mv.result)
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
