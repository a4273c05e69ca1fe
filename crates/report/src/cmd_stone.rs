//! `heaplab stone` and `heaplab stone-check`: score games on a row of piles.

use crate::util::{count_arg, secs};
use crate::{print_json, StoneArgs, StoneCheckArgs};
use anyhow::{bail, Result};
use heaplab_analysis::claim::Claim;
use heaplab_core::stone::{pile_cap, solve, Variant};
use polars::prelude::*;
use rayon::prelude::*;
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
pub fn run(a: StoneArgs, _quiet: bool) -> Result<ExitCode> {
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

/// A tiny deterministic generator (SplitMix64) for `--random`.
struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Rows per chunk.
const CHUNK: usize = 1 << 18;

/// `heaplab stone-check`.
pub fn check(a: StoneCheckArgs, _quiet: bool) -> Result<ExitCode> {
    let t0 = Instant::now();
    let v = variant(a.variant)?;
    let (l0, l1) = range(&a.len, "--len")?;
    let (v0, v1) = range(&a.values, "--values")?;
    // Sums of a million piles must stay far inside i64.
    const VMAX: i64 = 1 << 40;
    if v0 < -VMAX || v1 > VMAX {
        bail!("--values must lie within -2^40..2^40");
    }
    if l0 < 1 {
        bail!("--len must be at least 1");
    }
    let (l0, l1) = (l0 as usize, l1 as usize);
    let base = (v1 - v0 + 1) as u64;
    let mut s = Schema::default();
    for (name, dt) in [
        ("len", DataType::UInt64),
        ("sum", DataType::Int64),
        ("margin", DataType::Int64),
        ("winner", DataType::String),
        ("first_total", DataType::Int64),
    ] {
        s.insert(name.into(), dt);
    }
    let claim = Claim::new(&a.claim, &s)?;
    // The rows, in order: every row of length l0 in lexicographic order of values, then
    // l0 + 1, … (so the first failure is the smallest counterexample); or random rows.
    let total: u64 = if let Some(n) = a.random {
        n
    } else {
        let mut t: u64 = 0;
        for len in l0..=l1 {
            let c = base
                .checked_pow(len as u32)
                .filter(|&c| c <= 1 << 34)
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "{base}^{len} rows are too many to enumerate; use --random COUNT"
                    )
                })?;
            t += c;
        }
        t
    };
    // Work up front: rows times the solver's steps for the longest row (I: n^2/2, II:
    // n^3/12, III: n); refuse what would take more than about a day.
    let steps_per_row = match v {
        Variant::I => (l1 as f64).powi(2) / 2.0,
        Variant::II => (l1 as f64).powi(3) / 12.0,
        Variant::III => l1 as f64,
    } + 1000.0; // measured: about 270 ns a row of a few piles (row, frame, claim)
    let work = total as f64 * steps_per_row;
    if work > heaplab_core::engine::WORK_LIMIT {
        bail!(
            "{total} rows of up to {l1} piles need about {work:.1e} solver steps (more than a day); use fewer rows or shorter ones"
        );
    }
    if let Some((cap, _)) = pile_cap(v, false).filter(|&(cap, _)| l1 > cap) {
        bail!(
            "--len reaches {l1}, but Stone Game {} takes at most {cap} piles here",
            v.number()
        );
    }
    let row_at = |idx: u64| -> Vec<i64> {
        if a.random.is_some() {
            let mut g = SplitMix(a.seed ^ idx.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let len = l0 + g.below((l1 - l0 + 1) as u64) as usize;
            (0..len).map(|_| v0 + g.below(base) as i64).collect()
        } else {
            let mut i = idx;
            let mut len = l0;
            loop {
                let c = base.pow(len as u32);
                if i < c {
                    break;
                }
                i -= c;
                len += 1;
            }
            let mut row = vec![v0; len];
            for slot in row.iter_mut().rev() {
                *slot = v0 + (i % base) as i64;
                i /= base;
            }
            row
        }
    };
    let (mut failures, mut first_fail): (u64, Option<(u64, serde_json::Value)>) = (0, None);
    let mut lo = 0u64;
    while lo < total {
        let hi = (lo + CHUNK as u64).min(total);
        let solved: Vec<(u64, i64, i64, &'static str, i64)> = (lo..hi)
            .into_par_iter()
            .map(|i| {
                let row = row_at(i);
                let (r, _) = solve(v, &row, false).expect("non-empty rows");
                (
                    row.len() as u64,
                    r.first_total + r.second_total,
                    r.margin,
                    r.winner.name(),
                    r.first_total,
                )
            })
            .collect();
        let df = DataFrame::new(
            solved.len(),
            vec![
                Column::new("i".into(), (lo..hi).collect::<Vec<u64>>()),
                Column::new("len".into(), solved.iter().map(|x| x.0).collect::<Vec<_>>()),
                Column::new("sum".into(), solved.iter().map(|x| x.1).collect::<Vec<_>>()),
                Column::new(
                    "margin".into(),
                    solved.iter().map(|x| x.2).collect::<Vec<_>>(),
                ),
                Column::new(
                    "winner".into(),
                    solved.iter().map(|x| x.3).collect::<Vec<_>>(),
                ),
                Column::new(
                    "first_total".into(),
                    solved.iter().map(|x| x.4).collect::<Vec<_>>(),
                ),
            ],
        )?;
        let f = claim.failures(df)?;
        failures += f.height() as u64;
        if f.height() > 0 {
            // the smallest failing row of this chunk (random rows: shortest, then least)
            let idx = f.column("i")?.u64()?;
            let best = (0..f.height())
                .filter_map(|k| idx.get(k))
                .map(|i| (row_at(i), i))
                .min_by(|x, y| x.0.len().cmp(&y.0.len()).then(x.0.cmp(&y.0)));
            if let Some((row, i)) = best {
                let (r, _) = solve(v, &row, false)?;
                let cand = json!({
                    "piles": row, "len": row.len(), "sum": r.first_total + r.second_total,
                    "margin": r.margin, "winner": r.winner.name(), "first_total": r.first_total,
                });
                let better = match &first_fail {
                    None => true,
                    Some((_, old)) => {
                        let o: Vec<i64> =
                            serde_json::from_value(old["piles"].clone()).unwrap_or_default();
                        (row.len(), &row) < (o.len(), &o)
                    }
                };
                if better {
                    first_fail = Some((i, cand));
                }
            }
        }
        lo = hi;
    }
    let holds = failures == 0;
    if a.json {
        print_json(&json!({
            "variant": v.number(),
            "claim": a.claim,
            "holds": holds,
            "rows": total,
            "failures": failures,
            "counterexample": first_fail.as_ref().map(|x| x.1.clone()),
            "seconds": secs(t0),
        }));
    } else if holds {
        println!(
            "holds for all {total} rows (Stone Game {}, lengths {l0}..{l1}, values {v0}..{v1})",
            v.number()
        );
    } else {
        let (_, ex) = first_fail.unwrap();
        println!("fails for {failures} of {total} rows; smallest counterexample: {ex}");
    }
    Ok(if holds {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
