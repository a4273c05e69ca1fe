//! `heaplab check`: a conjectured closed form, checked row by row over the position table
//! or the P-position list ([`heaplab_analysis::check_claim`]).

use crate::cli::{CheckArgs, On};
use crate::output::{print_json, rows_json, secs};
use crate::progress::Progress;
use anyhow::Result;
use heaplab_analysis::check_claim;
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

/// Runs the command.
pub fn run(a: CheckArgs) -> Result<ExitCode> {
    let t0 = Instant::now();
    let (game, max) = (&a.gm.played()?, a.gm.max);
    let progress = Progress::new(&format!("checking {game} to {max}"), max.saturating_add(1));
    let budget = crate::machine::budget();
    let r = check_claim(game, max, &a.claim, a.on.into(), &budget, &progress)?;
    progress.finish();
    let examples = rows_json(&r.counterexamples);
    let witness = match (a.witness, examples.first()) {
        (true, Some(first)) => Some(witness(game, &a, first, &budget)),
        _ => None,
    };
    if a.json {
        print_json(&json!({
            "game": game.to_string(),
            "max": max,
            "claim": a.claim,
            "on": match a.on { On::Table => "table", On::Losers => "losers" },
            "holds": r.holds(),
            "rows": r.rows,
            "failures": r.failures,
            "counterexamples": examples,
            "for_all": r.for_all,
            "for_all_from": r.for_all_from,
            "witness": witness,
            "seconds": secs(t0),
        }));
    } else if r.holds() {
        match (a.on, &r.for_all) {
            (On::Table, Some(why)) => {
                let head = why.split(':').next().unwrap_or(why);
                println!("holds for all n ({head}) [{game}]");
                println!("  checked 0 <= n <= {max} ({} rows); {why}", r.rows);
            }
            (On::Table, None) => {
                println!("holds for all 0 <= n <= {max} ({} rows) [{game}]", r.rows);
                if let Some(from) = r.for_all_from {
                    println!(
                        "  the game's period is proven and the claim depends on n only through \
                         residues: checking to N = {from} would prove it for every n"
                    );
                }
            }
            (On::Losers, _) => {
                println!("holds for all {} P-positions in 0..={max} [{game}]", r.rows)
            }
        }
    } else {
        let first = &examples[0];
        let at = match a.on {
            On::Table => format!("n = {}", first["n"]),
            On::Losers => format!("k = {} (p = {})", first["k"], first["p"]),
        };
        println!(
            "fails at {at}: {first}; {} failing row{} of {} [{game}]",
            r.failures,
            if r.failures == 1 { "" } else { "s" },
            r.rows
        );
        if let Some(w) = &witness {
            println!("witness: {}", w["claim"].as_str().unwrap_or_default());
            println!("  {}", w["proof"].as_str().unwrap_or_default());
        }
        println!("first counterexamples:");
        for e in &examples {
            println!("  {e}");
        }
    }
    Ok(if r.holds() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The first counterexample as a proof: the claim with the values its row reads, and the
/// Grundy value of the row's heap (`n`, or the P-position `p`) from its options
/// ([`heaplab_core::value_proof`]), or why no such proof is given.
fn witness(
    game: &heaplab_core::Game,
    a: &CheckArgs,
    row: &serde_json::Value,
    budget: &heaplab_core::Budget,
) -> serde_json::Value {
    let shown = heaplab_analysis::claim_with_values(&a.claim, row);
    let mut claim = format!("`{}` at this row is `{shown}`, which is not true", a.claim);
    if row
        .as_object()
        .is_some_and(|r| r.values().any(|v| v.is_null()))
    {
        claim.push_str(" (a null value makes a row fail)");
    }
    if a.claim.to_ascii_lowercase().contains("_at") {
        claim.push_str(
            " (values read from other rows, grundy_at(…) or win_at(…), are not shown; one \
             past N is null and makes the row fail)",
        );
    }
    let heap = match a.on {
        On::Table => row["n"].as_u64(),
        On::Losers => row["p"].as_u64(),
    };
    let proof =
        match heap.map(|n| heaplab_core::value_proof(game, n, budget, &heaplab_core::Silent)) {
            Some(Ok(p)) => p.sentence(),
            Some(Err(e)) => format!("(no proof by options: {e})"),
            // (the proof of the row's heap: for --on losers, that p is a P-position)
            None => "(no heap in this row)".into(),
        };
    json!({"claim": claim, "proof": proof})
}
