//! Checking a claim — a conjectured closed form written in polars SQL ([`crate::Claim`]) —
//! on every position of a game, or on every P-position, in chunks of rows so any N streams
//! through bounded memory.

use crate::claim::{Claim, ClaimError, LookupTables};
use crate::claim_text::{identifiers, plan_check, prove_for_all, Lookup, On};
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
    /// When the claim holds on 0..=N and that proves it for every n: the argument (a claim
    /// on the table that depends on n only through residues, [`crate::residue_shape`], on
    /// a game whose Grundy values are proven periodic, checked over a whole cycle).
    pub for_all: Option<String>,
    /// When it holds and has that shape but N is too small for the argument: the N from
    /// which the check would prove it.
    pub for_all_from: Option<u64>,
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
    let mut for_all = (None, None);
    match on {
        On::Table => {
            let (grundy, win) = (
                uses("grundy") || uses("grundy_at"),
                uses("win") || uses("win_at"),
            );
            let task = plan_check(game, max, on, grundy, win, budget, obs)?;
            let (g, o): (Option<GrundyTable>, Option<OutcomeTable>) = match task {
                Some(Task::Grundy) => {
                    let g = grundy_table(game, max, obs)?;
                    let o = uses("win").then(|| g.outcomes());
                    (Some(g), o)
                }
                Some(_) => (None, Some(outcome_table(game, max, obs)?)),
                None => (None, None),
            };
            // the look-ups read the same tables the rows are made from
            let tables = std::sync::Arc::new(LookupTables { grundy: g, win: o });
            let compiled = compiled.with_tables(tables.clone());
            let len = max as usize + 1;
            let mut lo = 0usize;
            while lo < len {
                let hi = (lo + CHUNK).min(len);
                let frame = table_frame(tables.win.as_ref(), tables.grundy.as_ref(), lo, hi)?;
                tally.add(&compiled, frame)?;
                observe(obs, hi as u64, max)?;
                lo = hi;
            }
            if tally.failures == 0 {
                for_all = prove_for_all(game, max, claim, budget, obs)?;
            }
        }
        On::Losers => {
            if let Some(w) = used.iter().find(|u| Lookup::from_name(u).is_some()) {
                return Err(ClaimError::Invalid(format!(
                    "`{w}` reads the table of every position: check the claim on the table"
                ))
                .into());
            }
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
        for_all: for_all.0,
        for_all_from: for_all.1,
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
pub(crate) struct Tally {
    pub(crate) rows: u64,
    pub(crate) failures: u64,
    pub(crate) examples: Option<DataFrame>,
}

impl Tally {
    pub(crate) fn add(&mut self, claim: &Claim, df: DataFrame) -> Result<(), Error> {
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

    #[test]
    fn look_ups_and_proofs_for_every_n() {
        let b = Budget::new(1 << 30);
        // sub{1,4,5}: 0, 1, 0, 1, 2, 3, 2, 3 repeating (period 8 proven)
        let g = Game::parse("sub{1,4,5}").unwrap();
        let claim = "grundy = CASE WHEN n % 8 IN (0, 2) THEN 0 WHEN n % 8 IN (1, 3) THEN 1 \
                     WHEN n % 8 IN (4, 6) THEN 2 ELSE 3 END";
        let r = check_claim(&g, 1000, claim, On::Table, &b, &Silent).unwrap();
        assert!(r.holds());
        assert!(r.for_all.as_deref().unwrap().starts_with("period 8 proven"));
        let short = check_claim(&g, 5, claim, On::Table, &b, &Silent).unwrap();
        assert_eq!((short.for_all, short.for_all_from), (None, Some(7)));
        // a wrong residue claim fails, and no proof is offered for an n-dependent claim
        let wrong = check_claim(&g, 100, "grundy = n % 4", On::Table, &b, &Silent).unwrap();
        assert!(!wrong.holds() && wrong.for_all.is_none());
        let sq = check_claim(&g, 100, "grundy <= isqrt(n) + 3", On::Table, &b, &Silent).unwrap();
        assert!(sq.holds() && sq.for_all.is_none() && sq.for_all_from.is_none());
        // Kayles: g(n) = g(n - 12) from 83 on (preperiod 71), proven; not from 82
        let k = Game::parse("0.77").unwrap();
        let lag = "n < 83 OR grundy = grundy_at(n - 12)";
        let r = check_claim(&k, 1000, lag, On::Table, &b, &Silent).unwrap();
        assert!(r.holds() && r.for_all.is_some(), "{:?}", r.for_all_from);
        let r = check_claim(
            &k,
            1000,
            "n < 82 OR grundy = grundy_at(n - 12)",
            On::Table,
            &b,
            &Silent,
        )
        .unwrap();
        assert_eq!(r.failures, 1);
        // win_at against the definition; past the table a look-up is null
        let r = check_claim(
            &g,
            50,
            "win_at(n + 1000) IS NULL AND win = win_at(n)",
            On::Table,
            &b,
            &Silent,
        )
        .unwrap();
        assert!(r.holds());
        assert!(matches!(
            check_claim(&g, 50, "grundy_at(p) = 0", On::Losers, &b, &Silent),
            Err(Error::Claim(_))
        ));
    }
}
