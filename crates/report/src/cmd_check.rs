//! `heaplab check`: a conjectured closed form, checked row by row, in chunks, over the
//! position table or the P-position list.

use crate::progress::Progress;
use crate::util::{check_memory, secs};
use crate::{print_json, CheckArgs};
use anyhow::{bail, Result};
use heaplab_analysis::claim::{identifiers, Claim};
use heaplab_core::{p_stream, GrundyTable, OutcomeTable};
use polars::prelude::*;
use serde_json::{json, Map, Value};
use std::process::ExitCode;
use std::time::Instant;

/// Rows per chunk handed to polars.
const CHUNK: usize = 1 << 20;

/// What the claim is checked on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum On {
    /// Every position: columns `n`, `win`, `grundy`.
    Table,
    /// The P-positions: columns `k`, `p`, `gap`, `prev` (gap and prev are null for k = 0).
    Losers,
}

fn any_to_json(v: AnyValue) -> Value {
    match v {
        AnyValue::Null => Value::Null,
        AnyValue::Boolean(b) => json!(b),
        AnyValue::UInt32(x) => json!(x),
        AnyValue::UInt64(x) => json!(x),
        AnyValue::Int32(x) => json!(x),
        AnyValue::Int64(x) => json!(x),
        AnyValue::Float64(x) => json!(x),
        other => json!(other.to_string()),
    }
}

fn row_json(df: &DataFrame, i: usize) -> Value {
    let mut m = Map::new();
    for c in df.columns() {
        m.insert(
            c.name().to_string(),
            any_to_json(c.get(i).unwrap_or(AnyValue::Null)),
        );
    }
    Value::Object(m)
}

/// Failures found so far.
struct Tally {
    rows: u64,
    failures: u64,
    examples: Vec<Value>,
}

impl Tally {
    fn add(&mut self, claim: &Claim, df: DataFrame) -> Result<()> {
        self.rows += df.height() as u64;
        let f = claim.failures(df)?;
        self.failures += f.height() as u64;
        for i in 0..f.height() {
            if self.examples.len() >= 10 {
                break;
            }
            self.examples.push(row_json(&f, i));
        }
        Ok(())
    }
}

fn schema(on: On) -> Schema {
    let mut s = Schema::default();
    match on {
        On::Table => {
            s.insert("n".into(), DataType::UInt64);
            s.insert("win".into(), DataType::Boolean);
            s.insert("grundy".into(), DataType::UInt32);
        }
        On::Losers => {
            s.insert("k".into(), DataType::UInt64);
            s.insert("p".into(), DataType::UInt64);
            s.insert("gap".into(), DataType::UInt64);
            s.insert("prev".into(), DataType::UInt64);
        }
    }
    s
}

/// Runs the command.
pub fn run(a: CheckArgs, _quiet: bool) -> Result<ExitCode> {
    let t0 = Instant::now();
    let (game, max) = (a.gm.game.clone(), a.gm.max);
    let claim = Claim::new(&a.claim, &schema(a.on))?;
    let used = identifiers(&a.claim);
    let uses = |c: &str| used.iter().any(|u| u == c);
    let mut tally = Tally {
        rows: 0,
        failures: 0,
        examples: vec![],
    };
    match a.on {
        On::Table => {
            if max >= 1 << 40 {
                bail!("N = {max} is too large for the table; check P-positions with --on losers");
            }
            // Only the columns the claim uses are computed.
            let (g, o): (Option<GrundyTable>, Option<OutcomeTable>) = if uses("grundy") {
                check_memory(
                    "the Grundy table",
                    heaplab_core::grundy::grundy_memory_estimate(&game, max),
                )?;
                crate::util::check_work(&game, max, true)?;
                let g = crate::progress::grundy_table(&game, max)?;
                let o = uses("win").then(|| g.outcomes());
                (Some(g), o)
            } else if uses("win") {
                check_memory(
                    "the outcome table",
                    max / 8 + heaplab_core::engine::stream_memory_estimate(&game, max),
                )?;
                crate::util::check_work(&game, max, false)?;
                (None, Some(crate::progress::outcome_table(&game, max)?))
            } else {
                (None, None)
            };
            let mut progress = Progress::new("checking", max.saturating_add(1));
            let len = max as usize + 1;
            let mut lo = 0usize;
            while lo < len {
                let hi = (lo + CHUNK).min(len);
                let mut cols = vec![Column::new(
                    "n".into(),
                    (lo as u64..hi as u64).collect::<Vec<u64>>(),
                )];
                if let Some(o) = &o {
                    cols.push(Column::new(
                        "win".into(),
                        o.bits()[lo..hi].iter().by_vals().collect::<Vec<bool>>(),
                    ));
                }
                if let Some(g) = &g {
                    cols.push(Column::new("grundy".into(), g.slice_u32(lo, hi)));
                }
                tally.add(&claim, DataFrame::new(hi - lo, cols)?)?;
                progress.set(hi as u64);
                lo = hi;
            }
            progress.finish();
        }
        On::Losers => {
            check_memory(
                "the P-position engine",
                heaplab_core::engine::stream_memory_estimate(&game, max),
            )?;
            crate::util::check_work(&game, max, false)?;
            let mut stream = p_stream(&game, max, None)?;
            let mut progress = Progress::new("checking", max.saturating_add(1));
            let mut buf: Vec<u64> = Vec::new();
            let mut k0 = 0u64;
            let mut prev: Option<u64> = None;
            let mut flush = |buf: &mut Vec<u64>, tally: &mut Tally| -> Result<()> {
                if buf.is_empty() {
                    return Ok(());
                }
                let n = buf.len();
                let ks: Vec<u64> = (k0..k0 + n as u64).collect();
                let mut prevs: Vec<Option<u64>> = Vec::with_capacity(n);
                let mut gaps: Vec<Option<u64>> = Vec::with_capacity(n);
                for &p in buf.iter() {
                    prevs.push(prev);
                    gaps.push(prev.map(|q| p - q));
                    prev = Some(p);
                }
                let df = DataFrame::new(
                    n,
                    vec![
                        Column::new("k".into(), ks),
                        Column::new("p".into(), std::mem::take(buf)),
                        Column::new("gap".into(), gaps),
                        Column::new("prev".into(), prevs),
                    ],
                )?;
                k0 += n as u64;
                tally.add(&claim, df)
            };
            let mut out = Vec::new();
            while stream.advance(&mut out) {
                buf.append(&mut out);
                if buf.len() >= CHUNK {
                    flush(&mut buf, &mut tally)?;
                }
                progress.set(stream.done().min(max.saturating_add(1)));
            }
            flush(&mut buf, &mut tally)?;
            progress.finish();
        }
    }
    let holds = tally.failures == 0;
    if a.json {
        print_json(&json!({
            "game": game.to_string(),
            "max": max,
            "claim": a.claim,
            "on": match a.on { On::Table => "table", On::Losers => "losers" },
            "holds": holds,
            "rows": tally.rows,
            "failures": tally.failures,
            "counterexamples": tally.examples,
            "seconds": secs(t0),
        }));
    } else if holds {
        match a.on {
            On::Table => println!(
                "holds for all 0 <= n <= {max} ({} rows) [{game}]",
                tally.rows
            ),
            On::Losers => println!(
                "holds for all {} P-positions in 0..={max} [{game}]",
                tally.rows
            ),
        }
    } else {
        let first = &tally.examples[0];
        let at = match a.on {
            On::Table => format!("n = {}", first["n"]),
            On::Losers => format!("k = {} (p = {})", first["k"], first["p"]),
        };
        println!(
            "fails at {at}: {first}; {} failing rows of {} [{game}]",
            tally.failures, tally.rows
        );
        println!("first counterexamples:");
        for e in &tally.examples {
            println!("  {e}");
        }
    }
    Ok(if holds {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
