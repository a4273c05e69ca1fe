//! `heaplab stone` and `heaplab stone-check`: score games on a row of piles
//! ([`heaplab_core::solve`], [`heaplab_analysis::stone_check`]).

use crate::cli::{parse_piles, range, variant, StoneArgs, StoneCheckArgs};
use crate::output::{print_json, secs};
use anyhow::{bail, Result};
use heaplab_analysis::stone_check;
use heaplab_core::{score_strategy, solve, Silent, StoneMove, StoneRows, Strategy, Variant};
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

/// `heaplab stone`.
pub fn run(a: StoneArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let v = variant(a.variant)?;
    let piles = parse_piles(&a.piles)?;
    if let Some(name) = &a.strategy {
        return scored(a.line, a.json, v, &piles, name, t0);
    }
    let (r, line) = solve(v, &piles, a.line)?;
    if a.json {
        let mut out = json!({
            "variant": v.number(),
            "piles": piles,
            "first_total": r.first_total,
            "second_total": r.second_total,
            "margin": r.margin,
            "winner": r.winner.name(),
            "seconds": secs(t0),
        });
        if a.line {
            out["line"] = json!(line);
        }
        print_json(&out);
    } else {
        println!(
            "Stone Game {}: {} — first player {}, second player {} (margin {})",
            v.roman(),
            match r.winner.name() {
                "tie" => "tie",
                "first" => "the first player wins",
                _ => "the second player wins",
            },
            r.first_total,
            r.second_total,
            r.margin
        );
        print_line(v, &line);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_line(v: Variant, line: &[StoneMove]) {
    for m in line {
        let vals: Vec<String> = m.values.iter().map(|x| x.to_string()).collect();
        let what = match v {
            Variant::I => format!("the {} pile", m.took),
            _ => format!("{} pile(s) from the front", m.took),
        };
        println!("  player {} takes {what}: {}", m.player, vals.join(", "));
    }
}

/// `--strategy`: the first player's strategy against the best reply, beside best play.
fn scored(
    line: bool,
    as_json: bool,
    v: Variant,
    piles: &[i64],
    name: &str,
    t0: Instant,
) -> Result<ExitCode> {
    let Some(strategy) = Strategy::from_name(name) else {
        bail!("unknown strategy `{name}` (known: greedy)");
    };
    let (g, moves) = score_strategy(v, piles, strategy, line)?;
    let (best, _) = solve(v, piles, false)?;
    let outcome = |w: &str| match w {
        "tie" => "a tie",
        "first" => "the first player wins",
        _ => "the second player wins",
    };
    if as_json {
        let mut out = json!({
            "variant": v.number(),
            "piles": piles,
            "strategy": name,
            "rule": strategy.rule(v),
            "strategy_result": {
                "first_total": g.first_total,
                "second_total": g.second_total,
                "margin": g.margin,
                "winner": g.winner.name(),
            },
            "optimal_result": {
                "first_total": best.first_total,
                "second_total": best.second_total,
                "margin": best.margin,
                "winner": best.winner.name(),
            },
            "given_away": best.margin - g.margin,
            "seconds": secs(t0),
        });
        if line {
            out["line"] = json!(moves);
        }
        print_json(&out);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "Stone Game {}, first player {name} ({}) against the best reply: first player {}, \
         second player {} (margin {}): {}",
        v.roman(),
        strategy.rule(v),
        g.first_total,
        g.second_total,
        g.margin,
        outcome(g.winner.name())
    );
    println!(
        "best play on both sides: first player {}, second player {} (margin {}): {}; \
         {name} gives away {}",
        best.first_total,
        best.second_total,
        best.margin,
        outcome(best.winner.name()),
        best.margin - g.margin
    );
    print_line(v, &moves);
    Ok(ExitCode::SUCCESS)
}

/// `heaplab stone-check`.
pub fn check(a: StoneCheckArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let v = variant(a.variant)?;
    let (l0, l1) = range(&a.len, "--len")?;
    let (v0, v1) = range(&a.values, "--values")?;
    if l0 < 1 {
        bail!("--len must be at least 1");
    }
    let lens = (l0 as usize, l1 as usize);
    // Every row of those lengths in lexicographic order of values, shortest first (so the
    // first failure is the smallest counterexample), or random rows.
    let rows = match a.random {
        Some(n) => StoneRows::random(n, a.seed, lens, (v0, v1))?,
        None => StoneRows::all(lens, (v0, v1))?,
    };
    let r = stone_check(v, &rows, &a.claim, &crate::machine::budget(), &Silent)?;
    let example = r.smallest.as_ref().map(|(row, s)| {
        json!({
            "piles": row, "len": row.len(), "sum": s.first_total + s.second_total,
            "margin": s.margin, "winner": s.winner.name(), "first_total": s.first_total,
        })
    });
    let holds = r.failures == 0;
    if a.json {
        print_json(&json!({
            "variant": v.number(),
            "claim": a.claim,
            "holds": holds,
            "rows": r.rows,
            "failures": r.failures,
            "counterexample": example,
            "seconds": secs(t0),
        }));
    } else if holds {
        println!(
            "holds for all {} rows (Stone Game {}, lengths {l0}..{l1}, values {v0}..{v1})",
            r.rows,
            v.number()
        );
    } else {
        println!(
            "fails for {} of {} rows; smallest counterexample: {}",
            r.failures,
            r.rows,
            example.unwrap_or_default()
        );
    }
    Ok(if holds {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
