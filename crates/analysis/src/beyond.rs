//! Claims and guesses over games beyond one heap: the P-positions of a two-heap game as
//! rows (k, a, b), of a move-memory game as (k, n), the outcomes of a loopy game as
//! (n, outcome) — checked in chunks through the same claim machinery as one-heap tables,
//! with `floor_phi(k)`, `floor_phi2(k)` and `floor_sqrt_mul(k, d)` exact on 64 bits.

use crate::check::{CheckReport, Tally};
use crate::claim::Claim;
use crate::Error;
use heaplab_core::beyond::loopy::Loopy;
use heaplab_core::beyond::{for_each_rows, Rows};
use heaplab_core::{BeyondGame, Observer};
use polars::prelude::*;

/// The columns of a game's rows: `k, a, b` (two heaps), `k, n` (move memory: start heaps
/// that are P-positions; loopy games with `losers_only`: their losses), `n, outcome`
/// (loopy: `win`, `loss`, `draw`, `undecided`).
pub fn beyond_schema(game: &BeyondGame, losers_only: bool) -> Schema {
    let cols: Vec<(&str, DataType)> = match game {
        BeyondGame::Pair(_) => vec![
            ("k", DataType::UInt64),
            ("a", DataType::UInt64),
            ("b", DataType::UInt64),
        ],
        BeyondGame::Loopy(_) if !losers_only => {
            vec![("n", DataType::UInt64), ("outcome", DataType::String)]
        }
        BeyondGame::Memory(_) | BeyondGame::Loopy(_) => {
            vec![("k", DataType::UInt64), ("n", DataType::UInt64)]
        }
    };
    Schema::from_iter(cols.into_iter().map(|(n, t)| Field::new(n.into(), t)))
}

/// One chunk of rows as a frame of the columns of [`beyond_schema`].
///
/// # Errors
/// polars errors.
pub fn rows_frame(rows: Rows<'_>) -> Result<DataFrame, Error> {
    Ok(match rows {
        Rows::Pairs(p) => {
            let k: Vec<u64> = p.iter().map(|r| r.0).collect();
            let a: Vec<u64> = p.iter().map(|r| r.1).collect();
            let b: Vec<u64> = p.iter().map(|r| r.2).collect();
            df!("k" => k, "a" => a, "b" => b)?
        }
        Rows::Starts { k0, heaps } => {
            let k: Vec<u64> = (k0..k0 + heaps.len() as u64).collect();
            df!("k" => k, "n" => heaps)?
        }
        Rows::Outcomes {
            first, outcomes, ..
        } => {
            let n: Vec<u64> = (first..first + outcomes.len() as u64).collect();
            let o: Vec<&str> = outcomes
                .iter()
                .map(|&o| match o {
                    Loopy::Unknown => "undecided",
                    other => other.name(),
                })
                .collect();
            df!("n" => n, "outcome" => o)?
        }
    })
}

/// The rows of `game` up to `max` as frames of the columns of [`beyond_schema`]
/// ([`heaplab_core::beyond::for_each_rows`], the one enumeration).
///
/// # Errors
/// The core's limits and cancellation; polars errors; whatever `each` returns.
pub fn beyond_frames(
    game: &BeyondGame,
    max: u64,
    losers_only: bool,
    obs: &dyn Observer,
    each: &mut dyn FnMut(DataFrame) -> Result<(), Error>,
) -> Result<(), Error> {
    for_each_rows(game, max, losers_only, obs, &mut |rows: Rows<'_>| {
        each(rows_frame(rows)?)
    })
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
    let compiled = Claim::new(claim, &beyond_schema(game, false))?;
    let mut tally = Tally::default();
    beyond_frames(game, max, false, obs, &mut |df| tally.add(&compiled, df))?;
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
    // the first 2^16 rows (from the exact pairs when the game has them)
    let (k, a, b): (Vec<u64>, Vec<u64>, Vec<u64>) = match game {
        BeyondGame::Pair(p) if p.beatty().is_some() => {
            let bt = p.beatty().expect("checked");
            let rows: Vec<(u64, u128, u128)> = bt
                .pairs()
                .take_while(|r| r.2 <= max as u128)
                .take(1 << 16)
                .collect();
            (
                rows.iter().map(|r| r.0).collect(),
                rows.iter().map(|r| r.1 as u64).collect(),
                rows.iter().map(|r| r.2 as u64).collect(),
            )
        }
        _ => {
            let mut first: Option<DataFrame> = None;
            beyond_frames(game, max.min(1 << 16), false, obs, &mut |df| {
                if first.is_none() {
                    first = Some(df);
                }
                Ok(())
            })?;
            let Some(df) = first else { return Ok(None) };
            let col = |n: &str| -> Result<Vec<u64>, Error> {
                Ok(df.column(n)?.u64()?.into_no_null_iter().collect())
            };
            (col("k")?, col("a")?, col("b")?)
        }
    };
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
