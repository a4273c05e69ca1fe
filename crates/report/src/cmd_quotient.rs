//! `heaplab quotient`: the misère quotient of a take-and-break game's heaps 0..=N
//! ([`heaplab_core::misere::quotient`]): order, generators, relations, P-portion, the heap
//! map Φ and its period, as text, JSON, and CSV or Parquet.

use crate::cli::QuotientArgs;
use crate::output::{print_json, secs, write_frame};
use crate::progress::Progress;
use anyhow::{bail, Result};
use heaplab_core::misere::quotient::{
    quotient_rule, GrowthLimit, MisereQuotient, Presentation, QuotientSolver, SUMMARY_PRODUCTS,
};
use polars::prelude::*;
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

/// Quotients up to this order print their multiplication table (`--json` carries it to
/// order [`SUMMARY_PRODUCTS`]).
const TABLE_ORDER: usize = 24;

/// Heaps of Φ printed in the text answer.
const SHOWN_HEAPS: usize = 48;

/// Heaps the heap-map file (`-o`) may hold.
const MAX_ROWS: u64 = 10_000_000;

/// Runs the command.
pub fn run(a: QuotientArgs) -> Result<ExitCode> {
    if a.gm.play == Some(crate::cli::PlayArg::Normal) {
        bail!("a misère quotient is of misère play: leave out --play normal");
    }
    let br = quotient_rule(&a.gm.game)?;
    let game = a.gm.game.under_normal_play().normalized().into_owned();
    let t0 = Instant::now();
    let progress = Progress::new(
        &format!("misère quotient of {game}"),
        a.gm.max.saturating_add(1),
    );
    if a.output.is_some() && a.gm.max > MAX_ROWS {
        bail!("-o writes the heap map of at most {MAX_ROWS} heaps; use --max {MAX_ROWS} or less");
    }
    let mut s = QuotientSolver::new(&br);
    // (a --grow-to below the quick limit's heap never makes the limit stricter)
    s.limit_growth(a.grow_to.map_or(GrowthLimit::QUICK, |h| {
        GrowthLimit::to_heap(h.max(GrowthLimit::QUICK.heap))
    }));
    // once Φ's period is proved, the quotient covers every heap: no need to go on
    let solved = s.solve_until_proved(a.gm.max, &progress);
    progress.finish();
    if let (Err(e), Some(h)) = (&solved, s.growth_refused()) {
        bail!("{e}; pass --grow-to {h} (or more) to learn it, which can take minutes or more");
    }
    solved?;
    let q = s.quotient();
    let pr = q.presentation();
    if let Some(out) = &a.output {
        let mut df = heap_frame(&q, &pr, a.gm.max)?;
        let path = write_frame(&mut df, out)?;
        if !crate::progress::quiet() {
            eprintln!("wrote {}", path.display());
        }
    }
    if a.json {
        print_json(&answer_json(&game.to_string(), &q, a.gm.max, secs(t0)));
    } else {
        print_text(&game.to_string(), &q, &pr, a.gm.max, secs(t0));
    }
    Ok(ExitCode::SUCCESS)
}

/// One row per heap: heap, element (id), its normal form, and whether a heap alone is a
/// misère P-position.
/// Heaps 0..=`max`, through the proved period beyond the quotient's own heaps.
fn heap_frame(q: &MisereQuotient, pr: &Presentation, max: u64) -> Result<DataFrame> {
    let phi: Vec<u32> = (0..=max).map_while(|n| q.heap_element(n)).collect();
    let heap: Vec<u64> = (0..phi.len() as u64).collect();
    let elem: Vec<u32> = phi.clone();
    let word: Vec<String> = phi.iter().map(|&e| pr.element(e)).collect();
    let p: Vec<bool> = phi.iter().map(|&e| q.is_p(e)).collect();
    Ok(df!("heap" => heap, "element" => elem, "word" => word, "p" => p)?)
}

/// The items joined by commas, or `none` when there are none.
fn listed(items: &[String], none: &str) -> String {
    if items.is_empty() {
        none.into()
    } else {
        items.join(", ")
    }
}

fn period_text(q: &MisereQuotient, game: &str) -> String {
    match q.period() {
        None => "Φ shows no period on these heaps".into(),
        Some(p) if p.proved => format!(
            "Φ is periodic from heap {} with period {}, proved (the proof needs heaps to {}): \
             this is the quotient of every heap of {game}",
            p.preperiod,
            p.period,
            p.proof_needs.unwrap_or(0)
        ),
        Some(p) => format!(
            "Φ looks periodic from heap {} with period {} (observed; {})",
            p.preperiod,
            p.period,
            match p.proof_needs {
                Some(m) => format!("the proof needs the quotient to heap {m}"),
                None => "no proof is offered for moves that leave three heaps".into(),
            }
        ),
    }
}

fn print_text(game: &str, q: &MisereQuotient, pr: &Presentation, asked: u64, seconds: f64) {
    if q.max() < asked {
        println!(
            "misère quotient of {game}, heaps 0..={} ({seconds:.2} s): its period is proved \
             there, so it is the quotient of every heap, {asked} included",
            q.max()
        );
    } else {
        println!(
            "misère quotient of {game}, heaps 0..={} (proved for every sum of these heaps, {seconds:.2} s)",
            q.max()
        );
    }
    let ps: Vec<String> = q.p_portion().iter().map(|&e| pr.element(e)).collect();
    println!(
        "order {}, P-portion of {}: {{{}}}",
        q.order(),
        ps.len(),
        ps.join(", ")
    );
    let gens: Vec<String> = pr
        .generators
        .iter()
        .enumerate()
        .map(|(i, (_, h))| format!("{} = heap {h}", Presentation::name(i)))
        .collect();
    println!("generators: {}", listed(&gens, "none"));
    let rels = pr.relation_texts();
    println!("relations: {}", listed(&rels, "none"));
    let growth: Vec<String> = q
        .growth()
        .iter()
        .map(|(h, o)| format!("heap {h} (order {o})"))
        .collect();
    println!("order grew at: {}", listed(&growth, "never"));
    let phi: Vec<String> = q
        .heap_elements()
        .iter()
        .take(SHOWN_HEAPS)
        .enumerate()
        .map(|(n, &e)| format!("{n}:{}", pr.element(e)))
        .collect();
    let more = if q.heap_elements().len() > SHOWN_HEAPS {
        " …"
    } else {
        ""
    };
    println!("Φ: {}{more}", phi.join(" "));
    println!("{}", period_text(q, game));
    if q.order() > TABLE_ORDER {
        println!(
            "multiplication table omitted (order {} > {TABLE_ORDER}; the relations present it, \
             and --json carries it to order {SUMMARY_PRODUCTS})",
            q.order()
        );
    } else {
        let names: Vec<String> = (0..q.order() as u32).map(|e| pr.element(e)).collect();
        let w = names.iter().map(|n| n.chars().count()).max().unwrap_or(1);
        println!("multiplication table (P-portion marked *):");
        print!("  {:>w$} |", "");
        for n in &names {
            print!(" {n:>w$} ");
        }
        println!();
        for (x, nx) in names.iter().enumerate() {
            print!("  {nx:>w$} |");
            for y in 0..q.order() as u32 {
                let e = q.mul(x as u32, y);
                let mark = if q.is_p(e) { "*" } else { " " };
                print!(" {:>w$}{mark}", names[e as usize]);
            }
            println!();
        }
    }
}

fn answer_json(game: &str, q: &MisereQuotient, asked: u64, seconds: f64) -> serde_json::Value {
    let mut v = json!(q.summary(game));
    v["asked"] = json!(asked);
    v["seconds"] = json!(seconds);
    v
}
