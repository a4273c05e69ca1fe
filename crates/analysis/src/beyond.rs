//! Claims and guesses over games beyond one heap: the P-positions of a two-heap game as
//! rows (k, a, b), of a move-memory game as (k, n), the outcomes of a loopy game as
//! (n, outcome) — checked in chunks through the same claim machinery as one-heap tables,
//! with `floor_phi(k)`, `floor_phi2(k)` and `floor_sqrt_mul(k, d)` exact on 64 bits.

use crate::check::{observe, CheckReport, Tally};
use crate::claim::Claim;
use crate::Error;
use heaplab_core::beyond::loopy::loopy_outcomes;
use heaplab_core::beyond::memory::least_winning_moves;
use heaplab_core::beyond::pairs::p_pairs_by_table;
use heaplab_core::{BeyondGame, Observer};
use polars::prelude::*;

/// Rows per chunk handed to polars.
const CHUNK: usize = 1 << 20;

/// The columns of a game's rows: `k, a, b` (two heaps), `k, n` (move memory: start heaps
/// that are P-positions), `n, outcome` (loopy: `win`, `loss`, `draw`, `undecided`).
pub fn beyond_schema(game: &BeyondGame) -> Schema {
    let cols: Vec<(&str, DataType)> = match game {
        BeyondGame::Pair(_) => vec![
            ("k", DataType::UInt64),
            ("a", DataType::UInt64),
            ("b", DataType::UInt64),
        ],
        BeyondGame::Memory(_) => vec![("k", DataType::UInt64), ("n", DataType::UInt64)],
        BeyondGame::Loopy(_) => vec![("n", DataType::UInt64), ("outcome", DataType::String)],
    };
    Schema::from_iter(cols.into_iter().map(|(n, t)| Field::new(n.into(), t)))
}

/// The rows of `game` up to `max` (pairs with b ≤ max; start heaps ≤ max; positions ≤ max),
/// handed to `each` in frames of at most 2^20 rows. Two-heap games with Beatty pairs
/// stream them (any max); other games compute their table first.
///
/// # Errors
/// The core's limits and cancellation; polars errors; whatever `each` returns.
pub fn beyond_frames(
    game: &BeyondGame,
    max: u64,
    obs: &dyn Observer,
    each: &mut dyn FnMut(DataFrame) -> Result<(), Error>,
) -> Result<(), Error> {
    match game {
        BeyondGame::Pair(g) => {
            if let Some(b) = g.beatty() {
                let mut rows = b.pairs().take_while(|&(_, _, bb)| bb <= max as u128);
                loop {
                    let chunk: Vec<(u64, u128, u128)> = rows.by_ref().take(CHUNK).collect();
                    if chunk.is_empty() {
                        return Ok(());
                    }
                    let done = chunk[chunk.len() - 1].2 as u64;
                    each(pairs_frame(
                        chunk.iter().map(|&(k, a, b)| (k, a as u64, b as u64)),
                    )?)?;
                    observe(obs, done, max)?;
                }
            }
            let pairs = p_pairs_by_table(g, max, obs)?;
            for (i, chunk) in pairs.chunks(CHUNK).enumerate() {
                let k0 = (i * CHUNK) as u64;
                each(pairs_frame(
                    chunk
                        .iter()
                        .enumerate()
                        .map(|(j, &(a, b))| (k0 + j as u64, a, b)),
                )?)?;
            }
            Ok(())
        }
        BeyondGame::Memory(g) => {
            let w = least_winning_moves(*g, max, obs)?;
            let p: Vec<u64> = (1..=max).filter(|&h| w[h as usize] as u64 == h).collect();
            let k: Vec<u64> = (1..=p.len() as u64).collect();
            each(df!("k" => k, "n" => p)?)
        }
        BeyondGame::Loopy(g) => {
            let t = loopy_outcomes(*g, max, u64::MAX, obs)?;
            let first = g.first();
            let n: Vec<u64> = (first..=max).collect();
            let o: Vec<&str> = n
                .iter()
                .map(|&i| match t.outcomes[i as usize] {
                    heaplab_core::beyond::loopy::Loopy::Unknown => "undecided",
                    other => other.name(),
                })
                .collect();
            each(df!("n" => n, "outcome" => o)?)
        }
    }
}

fn pairs_frame(rows: impl Iterator<Item = (u64, u64, u64)>) -> Result<DataFrame, Error> {
    let (mut k, mut a, mut b) = (vec![], vec![], vec![]);
    for (x, y, z) in rows {
        k.push(x);
        a.push(y);
        b.push(z);
    }
    Ok(df!("k" => k, "a" => a, "b" => b)?)
}

/// Checks `claim` on every row of `game` up to `max` ([`beyond_frames`]).
///
/// # Errors
/// A claim that does not compile against the columns; as [`beyond_frames`].
pub fn check_beyond(
    game: &BeyondGame,
    max: u64,
    claim: &str,
    obs: &dyn Observer,
) -> Result<CheckReport, Error> {
    let compiled = Claim::new(claim, &beyond_schema(game))?;
    let mut tally = Tally::default();
    beyond_frames(game, max, obs, &mut |df| tally.add(&compiled, df))?;
    Ok(CheckReport {
        rows: tally.rows,
        failures: tally.failures,
        counterexamples: tally.examples.unwrap_or_default(),
        for_all: None,
        for_all_from: None,
    })
}

/// A Beatty form for the P-pairs of a two-heap game, when its first rows have one:
/// b − a = c·k on every row, and a = ⌊kα⌋ with α = (2 − c + √(c²+4))/2 (Fraenkel's
/// a-Wythoff form; φ for c = 1). Returns the claim, which the caller checks on every row
/// to `max` with [`check_beyond`]. `None` when the rows have no such form.
///
/// # Errors
/// As [`beyond_frames`].
pub fn guess_beyond(
    game: &BeyondGame,
    max: u64,
    obs: &dyn Observer,
) -> Result<Option<String>, Error> {
    if !matches!(game, BeyondGame::Pair(_)) {
        return Ok(None);
    }
    let mut first: Option<DataFrame> = None;
    beyond_frames(game, max.min(1 << 16), obs, &mut |df| {
        if first.is_none() {
            first = Some(df);
        }
        Ok(())
    })?;
    let Some(df) = first else { return Ok(None) };
    let col = |n: &str| -> Result<Vec<u64>, Error> {
        Ok(df.column(n)?.u64()?.into_no_null_iter().collect())
    };
    let (k, a, b) = (col("k")?, col("a")?, col("b")?);
    if k.len() < 3 || k[1] == 0 {
        return Ok(None);
    }
    let c = (b[1] - a[1]) / k[1];
    if c == 0 || (0..k.len()).any(|i| b[i] != a[i] + c * k[i]) {
        return Ok(None);
    }
    Ok(Some(if c == 1 {
        "a = floor_phi(k) AND b = floor_phi2(k)".to_string()
    } else {
        let d = c * c + 4;
        match c {
            2 => format!("a = floor_sqrt_mul(k, {d}) // 2 AND b = a + 2 * k"),
            _ => format!(
                "a = (floor_sqrt_mul(k, {d}) - {} * k) // 2 AND b = a + {c} * k",
                c - 2
            ),
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use heaplab_core::Silent;

    #[test]
    fn beatty_claims_hold_exactly_and_wrong_ones_fail() {
        let w = BeyondGame::parse("wythoff").unwrap();
        let r = check_beyond(
            &w,
            10_000_000,
            "a = floor_phi(k) AND b = floor_phi2(k)",
            &Silent,
        )
        .unwrap();
        assert!(r.holds());
        assert_eq!(r.rows, 3_819_661); // ⌊10^7 / φ²⌋ + 1 (k = 0 too)
        let r = check_beyond(&w, 10_000, "a = k * 1618 // 1000", &Silent).unwrap();
        assert!(!r.holds());
        assert_eq!(
            guess_beyond(&w, 1000, &Silent).unwrap().unwrap(),
            "a = floor_phi(k) AND b = floor_phi2(k)"
        );
        let w2 = BeyondGame::parse("wythoff{2}").unwrap();
        let claim = guess_beyond(&w2, 1000, &Silent).unwrap().unwrap();
        assert!(
            check_beyond(&w2, 1_000_000, &claim, &Silent)
                .unwrap()
                .holds(),
            "{claim}"
        );
        // no Beatty form for a vector game
        let v = BeyondGame::parse("vectors{(1,0),(0,1),(1,1),(2,2)}").unwrap();
        assert!(guess_beyond(&v, 200, &Silent).unwrap().is_none());
        let f = BeyondGame::parse("fibonacci-nim").unwrap();
        let r = check_beyond(&f, 100_000, "n = floor_phi2(0) + n AND k >= 1", &Silent).unwrap();
        assert!(r.holds() && r.rows == 24);
    }
}
