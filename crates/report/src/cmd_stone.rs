//! `heaplab stone` and `heaplab stone-check`: score games on a row of piles
//! ([`heaplab_core::solve`], [`heaplab_analysis::stone_check`]).

use crate::cli::{count_arg, StoneArgs, StoneCheckArgs};
use crate::output::{print_json, secs};
use anyhow::{bail, Result};
use heaplab_analysis::stone_check;
use heaplab_core::{solve, Silent, StoneRows, Variant};
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

/// Parses `5,3,4,5` (integers, any sign), or `@FILE` holding such a list (commas or
/// whitespace between values) for rows too long for a command line.
pub fn parse_piles(s: &str) -> Result<Vec<i64>> {
    if let Some(path) = s.strip_prefix('@') {
        // at most 64 MiB of text (millions of piles): `@/dev/zero` must not fill memory
        const LIMIT: u64 = 64 << 20;
        let mut text = String::new();
        std::fs::File::open(path)
            .and_then(|f| {
                std::io::Read::read_to_string(&mut std::io::Read::take(f, LIMIT + 1), &mut text)
            })
            .map_err(|e| anyhow::anyhow!("cannot read piles from `{path}`: {e}"))?;
        if text.len() as u64 > LIMIT {
            bail!("`{path}` holds more than 64 MiB of piles");
        }
        let joined = text.split_whitespace().collect::<Vec<_>>().join(",");
        let joined = joined.replace(",,", ",");
        return parse_piles(joined.trim_matches(','));
    }
    if s.trim().is_empty() {
        bail!("--piles is empty: give the piles as a comma-separated list such as 5,3,4,5");
    }
    s.split(',')
        .enumerate()
        .map(|(i, x)| {
            let x = x.trim();
            if x.is_empty() {
                bail!("--piles has an empty value at position {}", i + 1);
            }
            x.parse::<i64>().map_err(|e| {
                use std::num::IntErrorKind::{NegOverflow, PosOverflow};
                let why = match e.kind() {
                    PosOverflow | NegOverflow => "is beyond 64 bits",
                    _ => "is not an integer",
                };
                anyhow::anyhow!("--piles value {} (`{x}`) {why}", i + 1)
            })
        })
        .collect()
}

fn variant(v: u8) -> Result<Variant> {
    Variant::from_number(v).ok_or_else(|| anyhow::anyhow!("--variant must be 1, 2 or 3, not {v}"))
}

/// `heaplab stone`.
pub fn run(a: StoneArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let v = variant(a.variant)?;
    let piles = parse_piles(&a.piles)?;
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
        for m in &line {
            let vals: Vec<String> = m.values.iter().map(|x| x.to_string()).collect();
            let what = match v {
                Variant::I => format!("the {} pile", m.took),
                _ => format!("{} pile(s) from the front", m.took),
            };
            println!("  player {} takes {what}: {}", m.player, vals.join(", "));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `A..B` inclusive (or a single number).
fn range(s: &str, what: &str) -> Result<(i64, i64)> {
    let parse = |x: &str| -> Result<i64> {
        let x = x.trim();
        let (neg, digits) = match x.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, x),
        };
        let v = count_arg(digits).map_err(anyhow::Error::msg)?;
        if v > 1 << 40 {
            bail!("{what}: `{x}` is out of range (at most 2^40 in size)");
        }
        Ok(if neg { -(v as i64) } else { v as i64 })
    };
    let (a, b) = match s.split_once("..") {
        Some((a, b)) => (parse(a)?, parse(b)?),
        None => {
            let x = parse(s)?;
            (x, x)
        }
    };
    if a > b {
        bail!("{what} range {s} is empty");
    }
    Ok((a, b))
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
