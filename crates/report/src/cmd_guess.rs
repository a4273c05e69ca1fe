//! `heaplab guess`: conjectures found in a game's table, each printed as a claim in
//! `check`'s language, and with `--verify N2` checked to a larger N
//! ([`heaplab_analysis::guess`], [`heaplab_analysis::verify_guess`],
//! [`heaplab_analysis::guess_sweep`]).

use crate::cli::{game_arg, GuessArgs};
use crate::output::{print_json, rows_json, secs};
use crate::progress::Progress;
use anyhow::{anyhow, bail, Result};
use heaplab_analysis::{
    guess, guess_multi, guess_sweep, sweep, sweep_guess_failures, verify_guess, ClaimOn, Guess,
    Target,
};
use heaplab_core::census::games::{game_census, GameCensusOptions, GameRow};
use heaplab_core::census::window::WINDOW_LIMIT;
use heaplab_core::{Silent, Space};
use serde_json::{json, Value};
use std::process::ExitCode;
use std::time::Instant;

/// How a column's value is read off a per-game row.
type ColumnOf = fn(&GameRow) -> Option<u64>;

/// A guess's verdict at the larger N.
struct Verdict {
    holds: bool,
    rows: u64,
    failures: u64,
    first: Option<Value>,
}

/// Guesses, their title and their verdicts at `--verify`.
type Found = (String, Vec<Guess>, Vec<Option<Verdict>>);

/// Runs the command.
pub fn run(a: GuessArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    if let Some(v) = a.verify {
        if v < a.max {
            bail!(
                "--verify {v} is below --max {}: verify on a larger table than the guesses \
                 were found on",
                a.max
            );
        }
    }
    if a.param.len() >= 2 || !a.constraints.is_empty() {
        return multi_guesses(&a, t0);
    }
    let (title, guesses, verdicts) = match a.param.first() {
        Some(param) => sweep_guesses(&a, param)?,
        None => table_guesses(&a)?,
    };
    if a.json {
        print_json(&json!({
            "game": a.game,
            "param": a.param.first(),
            "max": a.max,
            "verify": a.verify,
            "guesses": guesses.iter().zip(&verdicts).map(|(g, v)| {
                let mut j = serde_json::to_value(g).unwrap_or(Value::Null);
                j["verified"] = v.as_ref().map_or(Value::Null, |v| json!({
                    "max": a.verify,
                    "holds": v.holds,
                    "rows": v.rows,
                    "failures": v.failures,
                    "first_counterexample": v.first,
                }));
                j
            }).collect::<Vec<_>>(),
            "seconds": secs(t0),
        }));
        return Ok(ExitCode::SUCCESS);
    }
    print!(
        "{}",
        text(&title, &guesses, &verdicts, a.verify, !a.param.is_empty())
    );
    Ok(ExitCode::SUCCESS)
}

/// Several `--param` (and `--where`): formulas for the Grundy and outcome periods and
/// preperiods of a family of finite subtraction sets over every game of the space, each
/// proven by the window engine, every formula exact on every game.
fn multi_guesses(a: &GuessArgs, t0: Instant) -> Result<ExitCode> {
    if !a.target.is_empty() || a.verify.is_some() {
        bail!(
            "--target and --verify do not apply with several --param: every game's period is \
             proven, and each formula is checked on every game"
        );
    }
    let space =
        heaplab_core::CensusSpace::parse(std::slice::from_ref(&a.game), &a.param, &a.constraints)?;
    let names = space.parameter_names().remove(0);
    let opts = GameCensusOptions {
        grundy: true,
        limit: a.max.clamp(1, WINDOW_LIMIT),
        ..GameCensusOptions::default()
    };
    // counted first, stopping at the cap: a huge space is refused at once
    const MOST: u64 = 1_000_000;
    let mut n = 0u64;
    space.walk(&mut |_| {
        n += 1;
        if n > MOST {
            return Err(heaplab_core::CensusError::Syntax(format!(
                "the space has more than {MOST} games: narrow the ranges of --param or --where"
            )));
        }
        Ok(())
    })?;
    let mut rows = vec![];
    game_census(&space, &opts, &|_| true, &mut |_, r| {
        rows.extend(r);
        Ok(())
    })?;
    let columns: [(&str, ColumnOf); 4] = [
        ("period", |r| r.grundy.map(|w| w.period)),
        ("preperiod", |r| r.grundy.map(|w| w.preperiod)),
        ("outcome_period", |r| r.outcome.map(|w| w.period)),
        ("outcome_preperiod", |r| r.outcome.map(|w| w.preperiod)),
    ];
    let mut found = vec![];
    let mut missing = 0;
    for (col, f) in columns {
        let ys: Option<Vec<(Vec<u64>, i64)>> = rows
            .iter()
            .map(|r| Some((r.values.clone(), i64::try_from(f(r)?).ok()?)))
            .collect();
        match ys {
            Some(ys) => found.extend(guess_multi(&names, col, &ys)),
            None => missing += 1,
        }
    }
    let mut over = a.param.clone();
    if !a.constraints.is_empty() {
        over.push(format!("where {}", a.constraints));
    }
    let title = format!("{} over {} games ({})", a.game, rows.len(), over.join(", "));
    if a.json {
        print_json(&json!({
            "game": a.game,
            "param": a.param,
            "where": a.constraints,
            "games": rows.len(),
            "guesses": found,
            "seconds": secs(t0),
        }));
        return Ok(ExitCode::SUCCESS);
    }
    if found.is_empty() {
        println!(
            "{title}: no guess fits (no polynomial of degree <= 2 in the parameters, nor one per \
             residue class or per side of a comparison, describes a period or preperiod){}",
            if missing > 0 {
                format!(
                    "; {missing} columns have games without a period by N = {}",
                    opts.limit
                )
            } else {
                String::new()
            }
        );
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{title}: {} guess{}",
        found.len(),
        if found.len() == 1 { "" } else { "es" }
    );
    for g in &found {
        println!("- {}", g.law);
        println!("  claim: {}", g.claim);
        println!(
            "  holds on all {} games (each period proven by a repeated window)",
            g.rows
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `--param`: formulas for the period and preperiod over a family of games, from a sweep,
/// checked on a second sweep to `--verify`.
fn sweep_guesses(a: &GuessArgs, param: &str) -> Result<Found> {
    if !a.target.is_empty() {
        bail!(
            "--target does not apply with --param: the sweep form guesses the period and preperiod"
        );
    }
    let budget = crate::machine::budget();
    let space = Space::parse(&a.game, param)?;
    if space.values.windows(2).any(|w| w[1] != w[0] + 1) || space.values.len() < 8 {
        bail!(
            "--param {param}: the sweep form needs at least 8 consecutive values, e.g. {}=3..40",
            space.name
        );
    }
    let spinner = crate::progress::Spinner::new(format!(
        "sweep of {} games to {}",
        space.values.len(),
        a.max
    ));
    let rows = sweep(&space, a.max, &budget, &Silent)?;
    let guesses = guess_sweep(&rows, &space.name);
    let verdicts = match a.verify {
        Some(n2) => {
            let rows2 = sweep(&space, n2, &budget, &Silent)?;
            guesses
                .iter()
                .map(|g| {
                    let (col, bad) = sweep_guess_failures(g, &rows2).unwrap_or(("period", vec![]));
                    let first = bad
                        .first()
                        .map(|&(v, got)| json!({ space.name.as_str(): v, col: got }));
                    Some(Verdict {
                        holds: bad.is_empty(),
                        rows: rows2.len() as u64,
                        failures: bad.len() as u64,
                        first,
                    })
                })
                .collect()
        }
        None => guesses.iter().map(|_| None).collect(),
    };
    drop(spinner);
    let unproven = rows.iter().filter(|r| !r.certified).count();
    let title = format!(
        "{} for {}={}..{}, Grundy values of 0 <= n <= {}{}",
        a.game,
        space.name,
        space.values[0],
        space.values[space.values.len() - 1],
        a.max,
        if unproven > 0 {
            format!(
                " ({unproven} of {} rows have no proven period at this N, and sweep guesses \
                 need every row's: raise --max)",
                rows.len()
            )
        } else {
            String::new()
        }
    );
    Ok((title, guesses, verdicts))
}

/// Guesses of one game's table, each verified on a table to `--verify`.
fn table_guesses(a: &GuessArgs) -> Result<Found> {
    let budget = crate::machine::budget();
    let game = game_arg(&a.game).map_err(|e| anyhow!(e))?;
    let targets: Vec<Target> = if a.target.is_empty() {
        Target::ALL.to_vec()
    } else {
        a.target.iter().map(|&t| t.into()).collect()
    };
    let progress = Progress::new(
        &format!("{game} to {} for guesses", a.max),
        a.max.saturating_add(1),
    );
    let guesses = guess(&game, a.max, &targets, &budget, &progress)?;
    progress.finish();
    let mut verdicts = vec![];
    for g in &guesses {
        verdicts.push(match a.verify {
            Some(n2) => {
                let progress = Progress::new(
                    &format!("verifying {} to {n2}", g.target.name()),
                    n2.saturating_add(1),
                );
                let r = verify_guess(&game, g, n2, &budget, &progress)?;
                progress.finish();
                r.map(|r| Verdict {
                    holds: r.holds(),
                    rows: r.rows,
                    failures: r.failures,
                    first: rows_json(&r.counterexamples).into_iter().next(),
                })
            }
            None => None,
        });
    }
    Ok((format!("{game}, 0 <= n <= {}", a.max), guesses, verdicts))
}

/// The text report: one block per guess, simplest first within each target.
fn text(
    title: &str,
    guesses: &[Guess],
    verdicts: &[Option<Verdict>],
    n2: Option<u64>,
    sweep: bool,
) -> String {
    if guesses.is_empty() {
        let families = if sweep {
            "no quasi-polynomial in the parameter, up to degree 2 and period 6, describes the \
             periods or preperiods"
        } else {
            "none of residues, formulas, quasi-polynomials, recurrences, Beatty sequences or \
             gap recurrences describes all the rows"
        };
        return format!("{title}: no guess fits ({families})\n");
    }
    let mut s = format!(
        "{title}: {} guess{}\n",
        guesses.len(),
        if guesses.len() == 1 { "" } else { "es" }
    );
    for (g, v) in guesses.iter().zip(verdicts) {
        let what = match g.on {
            ClaimOn::Table => g.target.name().to_string(),
            ClaimOn::Losers => "losers (check --on losers)".into(),
            ClaimOn::Sweep => "sweep rows".into(),
        };
        s += &format!("\n{what}, {}:\n  {}\n", g.family.name(), g.claim);
        let exceptions = match g.exceptions {
            0 => String::new(),
            1 => ", 1 exception written out".into(),
            e => format!(", {e} exceptions written out"),
        };
        s += &format!("  {}; fits all {} rows{exceptions}\n", g.law, g.rows);
        if let (Some(v), Some(n2)) = (v, n2) {
            if v.holds {
                s += &format!("  verified: holds to N = {n2} ({} rows)\n", v.rows);
            } else {
                let at = v
                    .first
                    .as_ref()
                    .map_or(String::new(), |f| format!(" at {f}"));
                s += &format!(
                    "  verified: FAILS{at}: {} failing rows of {} to N = {n2}\n",
                    v.failures, v.rows
                );
            }
        }
    }
    s
}
