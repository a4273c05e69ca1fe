//! `heaplab quotient`: the misère quotient of a take-and-break game's heaps 0..=N
//! ([`heaplab_core::misere::quotient`]): order, generators, relations, P-portion, the heap
//! map Φ and its period, as text, JSON, and CSV or Parquet.

use crate::cli::QuotientArgs;
use crate::output::{print_json, secs, write_frame};
use crate::progress::Progress;
use anyhow::{bail, Result};
use heaplab_core::misere::quotient::{
    check_quotient_time, joined_names, joint_last, joint_rules, quotient_rule_to, GrowthLimit,
    MisereQuotient, Presentation, QuotientPeriod, QuotientSolver, SUMMARY_PRODUCTS,
};
use heaplab_core::Game;
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
    if !a.with.is_empty() {
        return joint(a);
    }
    let br = quotient_rule_to(&a.gm.game, a.gm.max)?;
    check_quotient_time(
        std::slice::from_ref(&br),
        a.gm.max,
        &crate::machine::budget(),
    )?;
    let game = a.gm.game.under_normal_play().normalized().into_owned();
    let t0 = Instant::now();
    let progress = Progress::counting(
        &format!("misère quotient of {game}"),
        a.gm.max.saturating_add(1),
        "heaps",
    );
    check_map_output(a.output.as_deref(), a.gm.max)?;
    let mut s = QuotientSolver::new(&br);
    limit(&mut s, a.grow_to);
    // once Φ's period is proved, the quotient covers every heap: no need to go on
    let solved = s.solve_until_proved(a.gm.max, &progress);
    progress.finish();
    if let (Err(e), Some(h)) = (&solved, s.growth_refused()) {
        // growth is learned; a heap whose proof walk ran out is proved (the same option)
        let what = if s.proof_refused() {
            "prove it"
        } else {
            "learn it"
        };
        bail!("{e}; pass --grow-to {h} (or more) to {what}, which can take minutes or more");
    }
    solved?;
    let q = s.quotient();
    let pr = q.presentation();
    if let Some(out) = &a.output {
        write_map(heap_frame(&q, &pr, a.gm.max)?, out)?;
    }
    if a.json {
        print_json(&answer_json(&game.to_string(), &q, a.gm.max, secs(t0)));
    } else {
        print_text(&game.to_string(), &q, &pr, a.gm.max, secs(t0));
    }
    Ok(ExitCode::SUCCESS)
}

/// The growth limit of `--grow-to H` ([`GrowthLimit::up_to`]).
fn limit(s: &mut QuotientSolver, grow_to: Option<u64>) {
    s.limit_growth(GrowthLimit::up_to(grow_to));
}

/// `--with`: the joint quotient of `--game` and the `--with` games on heaps 0..=N of each.
fn joint(a: QuotientArgs) -> Result<ExitCode> {
    let games: Vec<Game> = std::iter::once(&a.gm.game)
        .chain(&a.with)
        .cloned()
        .collect();
    let (names, rules) = joint_rules(&games)?;
    let k = rules.len() as u64;
    let last = joint_last(rules.len(), a.gm.max)?;
    check_quotient_time(&rules, a.gm.max, &crate::machine::budget())?;
    check_map_output(a.output.as_deref(), a.gm.max)?;
    let t0 = Instant::now();
    let together = joined_names(&names);
    let progress = Progress::new(&format!("joint misère quotient of {together}"), last + 1);
    let mut s = QuotientSolver::joint(&rules)?;
    limit(&mut s, a.grow_to);
    let solved = s.solve_until_proved(last, &progress);
    progress.finish();
    if let (Err(_), Some(i)) = (&solved, s.growth_refused()) {
        let (j, n) = ((i % k) as usize, i / k);
        bail!(
            "the joint misère quotient of {together} (order {}) grows at heap {n} of {}, \
             beyond what this run learns; pass --grow-to {n} (or more) to learn it, which can \
             take minutes or more",
            s.order(),
            names[j]
        );
    }
    solved?;
    let q = s.quotient();
    let sm = q.joint_summary(&names);
    if let Some(out) = &a.output {
        write_map(joint_frame(&q, &names, a.gm.max)?, out)?;
    }
    if a.json {
        let mut v = json!(sm);
        v["asked"] = json!(a.gm.max);
        v["seconds"] = json!(secs(t0));
        print_json(&v);
        return Ok(ExitCode::SUCCESS);
    }
    let proved = sm.periods.iter().all(|p| p.is_some_and(|p| p.proved));
    if proved && sm.max < a.gm.max {
        println!(
            "joint misère quotient of {together}, heaps 0..={} of each ({:.2} s): every \
             game's period is proved there, so it is the quotient of every heap, {} included",
            sm.max,
            secs(t0),
            a.gm.max
        );
    } else {
        println!(
            "joint misère quotient of {together}, heaps 0..={} of each (proved for every sum \
             of these heaps, {:.2} s)",
            sm.max,
            secs(t0)
        );
    }
    print_order(sm.order, &sm.p_portion);
    let gens: Vec<String> = sm
        .generators
        .iter()
        .map(|g| format!("{} = {}:{}", g.name, g.game, g.heap))
        .collect();
    println!("generators: {}", listed(&gens, "none"));
    println!("relations: {}", listed(&sm.relations, "none"));
    let growth: Vec<String> = sm
        .growth
        .iter()
        .map(|g| format!("{}:{} (order {})", g.game, g.heap, g.order))
        .collect();
    println!("order grew at: {}", listed(&growth, "never"));
    for (j, game) in names.iter().enumerate() {
        let phi: Vec<String> = sm.heap_words[j]
            .iter()
            .take(SHOWN_HEAPS)
            .enumerate()
            .map(|(n, e)| format!("{n}:{e}"))
            .collect();
        let more = if sm.heap_words[j].len() > SHOWN_HEAPS {
            " …"
        } else {
            ""
        };
        println!("Φ of {game}: {}{more}", phi.join(" "));
        println!("{game}: {}", period_words(sm.periods[j], game));
    }
    print_products(&q, &q.presentation());
    Ok(ExitCode::SUCCESS)
}

/// Writes the heap map `-o` asked for and says where.
/// Fails before any work when the heap map cannot go to `out` (more than [`MAX_ROWS`]
/// heaps, a name that tells no table format, a file that cannot be created there).
fn check_map_output(out: Option<&std::path::Path>, max: u64) -> Result<()> {
    let Some(out) = out else {
        return Ok(());
    };
    if max > MAX_ROWS {
        bail!("-o writes the heap map of at most {MAX_ROWS} heaps; use --max {MAX_ROWS} or less");
    }
    crate::output::frame_format(out)?;
    crate::files::AtomicFile::check(out)
}

fn write_map(mut df: DataFrame, out: &std::path::Path) -> Result<()> {
    let path = write_frame(&mut df, out)?;
    if !crate::progress::quiet() {
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

/// One row per game and heap 0..=`max` (through each game's proved period beyond the
/// quotient's own heaps): game, heap, element (id), its normal form, and whether the heap
/// alone is a misère P-position.
fn joint_frame(q: &MisereQuotient, names: &[String], max: u64) -> Result<DataFrame> {
    let pr = q.presentation();
    let (mut game, mut heap, mut elem, mut word, mut p) = (vec![], vec![], vec![], vec![], vec![]);
    for (j, name) in names.iter().enumerate() {
        for (n, e) in (0..=max).map_while(|n| q.heap_element_in(j, n).map(|e| (n, e))) {
            game.push(name.clone());
            heap.push(n);
            elem.push(e);
            word.push(pr.element(e));
            p.push(q.is_p(e));
        }
    }
    Ok(df!("game" => game, "heap" => heap, "element" => elem, "word" => word, "p" => p)?)
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
    period_words(q.period(), game)
}

/// What a heap map's period says: none seen, proved (then the quotient is the whole
/// game's), or observed with what its proof needs.
fn period_words(period: Option<QuotientPeriod>, game: &str) -> String {
    match period {
        None => "no period of Φ is accepted on these heaps yet (a period needs to be seen \
                 twice over; more heaps may show one)"
            .into(),
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
                None => "no proof is offered for moves that leave three heaps or digits that \
                         repeat for ever"
                    .into(),
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
    print_order(q.order(), &ps);
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
    print_products(q, pr);
}

/// The quotient's order and P-portion (its elements as words), one line.
fn print_order(order: usize, p_portion: &[String]) {
    println!(
        "order {order}, P-portion of {} element{}: {{{}}}",
        p_portion.len(),
        if p_portion.len() == 1 { "" } else { "s" },
        p_portion.join(", ")
    );
}

/// The multiplication table, P-portion marked, for quotients up to [`TABLE_ORDER`].
fn print_products(q: &MisereQuotient, pr: &Presentation) {
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
