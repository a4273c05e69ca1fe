//! Checking a claim — a conjectured closed form written in polars SQL ([`crate::Claim`]) —
//! on every position of a game, or on every P-position, in chunks of rows so any N streams
//! through bounded memory.

use crate::claim::Claim;
use crate::claim_text::{identifiers, plan_check, On};
use crate::frames::{losers_frame, losers_schema, table_frame, table_schema, LoserColumns};
use crate::Error;
use heaplab_core::{
    grundy_table, open_stream, outcome_table, Budget, ControlFlow, Game, GrundyTable, Observer,
    OutcomeTable, Task,
};
use polars::prelude::*;

/// Rows per chunk handed to polars.
const CHUNK: usize = 1 << 20;

/// Counterexamples kept.
const EXAMPLES: usize = 10;

/// The columns a claim may name on these rows.
pub fn claim_schema(on: On) -> Schema {
    match on {
        On::Table => table_schema(Some(DataType::UInt32)),
        On::Losers => losers_schema(LOSER_COLUMNS),
    }
}

const LOSER_COLUMNS: LoserColumns = LoserColumns {
    gap: true,
    prev: true,
};

/// The outcome of a check.
#[derive(Debug, Clone)]
pub struct CheckReport {
    /// Rows checked.
    pub rows: u64,
    /// Rows where the claim is not true (false or null).
    pub failures: u64,
    /// The first failing rows (at most ten), with the columns computed.
    pub counterexamples: DataFrame,
}

impl CheckReport {
    /// True when no row fails.
    pub fn holds(&self) -> bool {
        self.failures == 0
    }
}

/// Checks a guess's claim ([`crate::guess()`]) on every row to `max`: the table or the
/// P-position list, as [`check_claim`]. `None` for a guess about a sweep, whose rows
/// [`crate::sweep_guess_holds`] checks.
///
/// # Errors
/// As [`check_claim`].
pub fn verify_guess(
    game: &Game,
    guess: &crate::Guess,
    max: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<Option<CheckReport>, Error> {
    let on = match guess.on {
        crate::ClaimOn::Table => On::Table,
        crate::ClaimOn::Losers => On::Losers,
        crate::ClaimOn::Sweep => return Ok(None),
    };
    check_claim(game, max, &guess.claim, on, budget, obs).map(Some)
}

/// Checks `claim` on every row of `on` for `game` over 0..=max. Only the columns the claim
/// names are computed (a claim on `n` alone needs no engine).
///
/// # Errors
/// [`Error::Claim`] for a claim that does not compile against the columns; the core's
/// refusals and cancellation; polars errors while evaluating.
pub fn check_claim(
    game: &Game,
    max: u64,
    claim: &str,
    on: On,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<CheckReport, Error> {
    let compiled = Claim::new(claim, &claim_schema(on))?;
    let used = identifiers(claim);
    let uses = |c: &str| used.iter().any(|u| u == c);
    let mut tally = Tally::default();
    match on {
        On::Table => {
            let task = plan_check(game, max, on, uses("grundy"), uses("win"), budget, obs)?;
            let (g, o): (Option<GrundyTable>, Option<OutcomeTable>) = match task {
                Some(Task::Grundy) => {
                    let g = grundy_table(game, max, obs)?;
                    let o = uses("win").then(|| g.outcomes());
                    (Some(g), o)
                }
                Some(_) => (None, Some(outcome_table(game, max, obs)?)),
                None => (None, None),
            };
            let len = max as usize + 1;
            let mut lo = 0usize;
            while lo < len {
                let hi = (lo + CHUNK).min(len);
                tally.add(&compiled, table_frame(o.as_ref(), g.as_ref(), lo, hi)?)?;
                observe(obs, hi as u64, max)?;
                lo = hi;
            }
        }
        On::Losers => {
            plan_check(game, max, on, false, false, budget, obs)?;
            let mut stream = open_stream(game, max, obs)?;
            let (mut buf, mut out) = (Vec::new(), Vec::new());
            let (mut k0, mut prev) = (0u64, None);
            let mut flush = |buf: &mut Vec<u64>, tally: &mut Tally| -> Result<(), Error> {
                if !buf.is_empty() {
                    tally.add(&compiled, losers_frame(k0, prev, buf, LOSER_COLUMNS)?)?;
                    k0 += buf.len() as u64;
                    prev = buf.last().copied();
                    buf.clear();
                }
                Ok(())
            };
            while stream.advance(&mut out) {
                buf.append(&mut out);
                if buf.len() >= CHUNK {
                    flush(&mut buf, &mut tally)?;
                }
                observe(obs, stream.done(), max)?;
            }
            flush(&mut buf, &mut tally)?;
        }
    }
    Ok(CheckReport {
        rows: tally.rows,
        failures: tally.failures,
        counterexamples: tally.examples.unwrap_or_default(),
    })
}

/// `done` of 0..=max checked: tells the observer, and stops when it says so.
pub(crate) fn observe(obs: &dyn Observer, done: u64, max: u64) -> Result<(), Error> {
    match obs.observe(done.min(max.saturating_add(1)), max.saturating_add(1)) {
        ControlFlow::Continue(()) => Ok(()),
        ControlFlow::Break(()) => Err(heaplab_core::Error::Cancelled { done }.into()),
    }
}

/// Failures found so far.
#[derive(Default)]
struct Tally {
    rows: u64,
    failures: u64,
    examples: Option<DataFrame>,
}

impl Tally {
    fn add(&mut self, claim: &Claim, df: DataFrame) -> Result<(), Error> {
        self.rows += df.height() as u64;
        let f = claim.failures(df)?;
        self.failures += f.height() as u64;
        let have = self.examples.as_ref().map_or(0, DataFrame::height);
        if have < EXAMPLES && f.height() > 0 {
            let more = f.head(Some(EXAMPLES - have));
            self.examples = Some(match self.examples.take() {
                Some(mut e) => {
                    e.vstack_mut(&more)?;
                    e
                }
                None => more,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use heaplab_core::Silent;

    #[test]
    fn claims_hold_or_fail_at_the_first_counterexample() {
        let b = Budget::new(1 << 30);
        let g = Game::parse("sub{1,2,3}").unwrap();
        let r = check_claim(&g, 100_000, "win = (n % 4 <> 0)", On::Table, &b, &Silent).unwrap();
        assert!(r.holds() && r.rows == 100_001);
        let sq = Game::parse("squares").unwrap();
        let r = check_claim(
            &sq,
            1000,
            "n = 0 OR win = is_square(n)",
            On::Table,
            &b,
            &Silent,
        );
        let r = r.unwrap();
        assert!(!r.holds());
        let first = r.counterexamples.column("n").unwrap().u64().unwrap().get(0);
        assert_eq!(first, Some(3));
        assert_eq!(r.counterexamples.height(), 10);
        let sqrt = Game::parse("sqrt").unwrap();
        let gap = "k = 0 OR gap = floor((1 + isqrt(1 + 4 * prev)) / 2) + 1";
        let r = check_claim(&sqrt, 1_000_000, gap, On::Losers, &b, &Silent).unwrap();
        assert!(r.holds() && r.rows > 1000);
        assert!(matches!(
            check_claim(&g, 10, "nope = 1", On::Table, &b, &Silent),
            Err(Error::Claim(_))
        ));
    }
}
