//! `heaplab sweep`: one analysis per value of a parameter in the game spec.

use crate::analyze::{self, Values};
use crate::frames::write_frame;
use crate::util::{check_memory, count_arg, secs};
use crate::{print_json, SweepArgs};
use anyhow::{bail, Context, Result};
use heaplab_core::spec::substitute_param;
use heaplab_core::Game;
use polars::prelude::*;
use rayon::prelude::*;
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

/// `NAME=A..B` (inclusive) or `NAME=a,b,c`.
pub fn parse_param(s: &str) -> Result<(String, Vec<u64>)> {
    let Some((name, range)) = s.split_once('=') else {
        bail!("--param must look like k=3..40 or k=3,5,8, not `{s}`");
    };
    let name = name.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        bail!("parameter name `{name}` must be letters, digits or _");
    }
    let values: Vec<u64> = if let Some((a, b)) = range.split_once("..") {
        let a = count_arg(a.trim()).map_err(anyhow::Error::msg)?;
        let b = count_arg(b.trim().trim_start_matches('=')).map_err(anyhow::Error::msg)?;
        if a > b {
            bail!("empty parameter range {a}..{b}");
        }
        if b - a > 100_000 {
            bail!("parameter range {a}..{b} has more than 100000 values");
        }
        (a..=b).collect()
    } else {
        range
            .split(',')
            .map(|x| count_arg(x.trim()).map_err(anyhow::Error::msg))
            .collect::<Result<_>>()?
    };
    Ok((name.to_string(), values))
}

/// Runs the command.
pub fn run(a: SweepArgs, _quiet: bool) -> Result<ExitCode> {
    let t0 = Instant::now();
    let (name, values) = parse_param(&a.param)?;
    let template = a.game.clone();
    if substitute_param(&template, &name, 0) == template {
        bail!("the game spec `{template}` does not mention the parameter `{name}`");
    }
    // Parse every spec first: a bad one fails before any work.
    let games: Vec<(u64, Game)> = values
        .iter()
        .map(|&v| {
            let spec = substitute_param(&template, &name, v);
            Game::parse(&spec)
                .map(|g| (v, g))
                .map_err(anyhow::Error::msg)
        })
        .collect::<Result<_>>()?;
    let max = a.max;
    let need = games
        .iter()
        .map(|(_, g)| heaplab_core::grundy::grundy_memory_estimate(g, max) + max * 32)
        .max()
        .unwrap_or(0);
    check_memory(
        "each analysis of the sweep",
        need * rayon::current_num_threads() as u64,
    )?;
    for (_, g) in &games {
        crate::util::check_work(g, max, true)?;
    }
    let total: f64 = games
        .iter()
        .map(|(_, g)| heaplab_core::engine::work_estimate(g, max, true))
        .sum();
    if total > heaplab_core::engine::WORK_LIMIT {
        bail!(
            "the sweep's {} games to N = {max} need about {total:.1e} option visits together (more than a day); sweep fewer values or a smaller N",
            games.len()
        );
    }
    let dest = match &a.output {
        Some(p) => Some(
            crate::frames::frame_format(p)
                .and_then(|_| crate::util::AtomicFile::check(p))
                .map(|_| p.clone())?,
        ),
        None => None,
    };
    let spinner = crate::progress::Spinner::new(format!("sweep of {} games", games.len()));
    let rows: Vec<(u64, Game, analyze::Analysis)> = games
        .into_par_iter()
        .map(|(v, g)| analyze::run(&g, max, Values::Grundy).map(|an| (v, g, an)))
        .collect::<Result<_>>()?;
    drop(spinner);

    let col = |f: &dyn Fn(&analyze::Analysis) -> Option<u64>| -> Vec<Option<u64>> {
        rows.iter().map(|r| f(&r.2)).collect()
    };
    let mut df = DataFrame::new(
        rows.len(),
        vec![
            Column::new(
                name.as_str().into(),
                rows.iter().map(|r| r.0).collect::<Vec<_>>(),
            ),
            Column::new(
                "game".into(),
                rows.iter().map(|r| r.1.to_string()).collect::<Vec<_>>(),
            ),
            Column::new(
                "preperiod".into(),
                col(&|an| an.periodicity.as_ref().map(|p| p.preperiod)),
            ),
            Column::new(
                "period".into(),
                col(&|an| an.periodicity.as_ref().map(|p| p.period)),
            ),
            Column::new(
                "saltus".into(),
                rows.iter()
                    .map(|r| r.2.periodicity.as_ref().map(|p| p.saltus))
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                "certified".into(),
                rows.iter()
                    .map(|r| r.2.periodicity.as_ref().is_some_and(|p| p.certified))
                    .collect::<Vec<_>>(),
            ),
            Column::new("p_positions".into(), col(&|an| Some(an.p.count))),
            Column::new(
                "max_grundy".into(),
                col(&|an| an.grundy.as_ref().map(|g| g.max as u64)),
            ),
        ],
    )?;
    let mut files = vec![];
    if let Some(p) = &dest {
        files.push(
            write_frame(&mut df, p)
                .context("writing the sweep")?
                .display()
                .to_string(),
        );
    }
    if a.json {
        let rows_json: Vec<_> = rows
            .iter()
            .map(|(v, g, an)| {
                let p = an.periodicity.as_ref();
                json!({
                    name.clone(): v,
                    "game": g.to_string(),
                    "preperiod": p.map(|p| p.preperiod),
                    "period": p.map(|p| p.period),
                    "saltus": p.map(|p| p.saltus),
                    "certified": p.is_some_and(|p| p.certified),
                    "p_positions": an.p.count,
                    "max_grundy": an.grundy.as_ref().map(|g| g.max),
                })
            })
            .collect();
        print_json(&json!({
            "game": template,
            "param": name,
            "max": max,
            "rows": rows_json,
            "files": files,
            "seconds": secs(t0),
        }));
    } else {
        println!(
            "{:>8} {:<24} {:>9} {:>7} {:>6} {:>9} {:>11} {:>10}",
            name, "game", "preperiod", "period", "saltus", "certified", "P-positions", "max_grundy"
        );
        for (v, g, an) in &rows {
            let p = an.periodicity.as_ref();
            let opt = |x: Option<String>| x.unwrap_or_else(|| "-".into());
            println!(
                "{:>8} {:<24} {:>9} {:>7} {:>6} {:>9} {:>11} {:>10}",
                v,
                g.to_string(),
                opt(p.map(|p| p.preperiod.to_string())),
                opt(p.map(|p| p.period.to_string())),
                opt(p.map(|p| p.saltus.to_string())),
                p.is_some_and(|p| p.certified),
                an.p.count,
                opt(an.grundy.as_ref().map(|g| g.max.to_string()))
            );
        }
        if !files.is_empty() {
            println!("wrote {}", files.join(", "));
        }
    }
    Ok(ExitCode::SUCCESS)
}
