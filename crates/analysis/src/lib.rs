//! # heaplab-analysis
//!
//! Analyses of game sequences and the records heaplab's front ends print: periodicity with
//! saltus and certificate ([`periodicity()`]), P-position counts, gaps, residues and growth
//! fits, Grundy first occurrences, frequencies and runs, the [`Analysis`] record of a game
//! ([`analyze`]), sweep rows over a family ([`sweep()`]), the frames tables are written from
//! ([`table_frame`], [`losers_frame`]), and claims checked with polars SQL ([`Claim`],
//! [`check_claim`], [`stone_check()`]).
//!
//! ```
//! use heaplab_analysis::analyze;
//! use heaplab_core::{Budget, Game, Sequence, Silent};
//!
//! // Kayles (0.77): Grundy values periodic with period 12 after 71 exceptions, proven by
//! // Guy–Smith from 300 values.
//! let kayles = Game::parse("0.77").unwrap();
//! let a = analyze(&kayles, 300, Sequence::Grundy, &Budget::new(1 << 30), &Silent).unwrap();
//! let p = a.analysis.periodicity.unwrap();
//! assert_eq!((p.preperiod, p.period, p.certified), (71, 12, true));
//! ```

#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

#[cfg(feature = "polars")]
mod beyond;
mod census;
#[cfg(feature = "polars")]
mod check;
#[cfg(feature = "polars")]
mod claim;
mod claim_text;
mod compare;
#[cfg(feature = "polars")]
mod frames;
mod functions;
mod game_census;
mod guess;
mod guess_multi;
mod journal;
mod known;
mod members;
mod periodicity;
mod record;
mod stats;
#[cfg(feature = "polars")]
mod stone_check;
mod sweep;

#[cfg(feature = "polars")]
pub use beyond::{beyond_frames, beyond_schema, check_beyond, guess_beyond, rows_frame};
pub use census::{
    census, census_columns, census_id, census_row, failed_row, link_same_values,
    merge as merge_census, CensusBudget, CensusColumn, CensusPart, CensusRow, MergeError,
};
#[cfg(feature = "polars")]
pub use census::{census_frame, census_from_frame, columns_frame};
#[cfg(feature = "polars")]
pub use check::{check_claim, claim_schema, verify_guess, CheckReport};
#[cfg(feature = "polars")]
pub use claim::{Claim, ClaimError, LookupTables};
pub use claim_text::{
    claim_with_values, identifiers, plan_check, precheck_claim, prove_for_all, residue_shape,
    Lookup, On, ResidueShape, TABLE_CHECK_MAX,
};
pub use compare::{compare, Comparison, Difference, DIFFERENCES_LISTED};
#[cfg(feature = "polars")]
pub use frames::{
    genus_columns, grundy_dtype, losers_frame, losers_schema, table_frame, table_schema,
    value_column, LoserColumns,
};
pub use functions::{ClaimFunction, ClaimValue};
pub use game_census::{
    decade, game_census_id, game_columns, ClaimTally, Counterexample, Extreme, GameTally,
    ParamColumns, COUNTEREXAMPLES_LISTED, MOVE_COLUMNS,
};
#[cfg(feature = "polars")]
pub use game_census::{game_frame, game_rows_from_frame};
pub use guess::{
    fit_quasi_polynomial, guess, guess_grundy, guess_losers, guess_outcomes, guess_sweep,
    sweep_guess_failures, ClaimOn, Family, Guess, QuasiPolynomial, SweepFailure, Target,
};
pub use guess_multi::{guess_multi, Condition, MultiGuess};
pub use journal::{journal_header, journal_line, read_journal, resume_rows};
pub use known::{check_known, known_checks, Known, KnownCheck, KNOWN};
pub use members::member_columns;
pub use periodicity::{candidate, periodicity, Candidate, Periodicity, EXCEPTIONS_LISTED};
pub use record::{
    analyze, analyze_table, check as check_analysis, count_growth, value_growth_text, Analysis,
    AnalysisData, Gaps, GrundyStats, PStats, ANALYSIS_MAX,
};
pub use stats::{
    gap_counts, growth_fit, grundy_summary, log_bins, min_max_bins, p_summary,
    run_length_histogram, run_list, value_growth, GrowthFit, GrundySummary, Law, PSummary, Run,
    CLOSE_FIT,
};
#[cfg(feature = "polars")]
pub use stats::{gap_histogram, gap_records, residues, runs};
#[cfg(feature = "polars")]
pub use stone_check::{stone_check, stone_schema, StoneCheck};
#[cfg(feature = "polars")]
pub use sweep::sweep_frame;
pub use sweep::{sweep, sweep_row, SweepRow};

use thiserror::Error;

/// Why an analysis could not be made.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// From the engines: a refusal, an address limit, a cancellation.
    #[error(transparent)]
    Core(#[from] heaplab_core::Error),
    /// A claim that does not compile or evaluate.
    #[cfg(feature = "polars")]
    #[error(transparent)]
    Claim(#[from] ClaimError),
    /// A family of games that cannot be enumerated.
    #[error(transparent)]
    Space(#[from] heaplab_core::SpaceError),
    /// Stone-game rows that cannot be enumerated.
    #[error(transparent)]
    Rows(#[from] heaplab_core::RowsError),
    /// A game beyond one heap: a limit or a cancellation.
    #[error(transparent)]
    Beyond(#[from] heaplab_core::beyond::BeyondError),
    /// A stone-game row the solver refuses.
    #[error(transparent)]
    Stone(#[from] heaplab_core::StoneError),
    /// polars, while building or filtering a frame.
    #[cfg(feature = "polars")]
    #[error("{0}")]
    Polars(String),
}

#[cfg(feature = "polars")]
impl From<polars::prelude::PolarsError> for Error {
    fn from(e: polars::prelude::PolarsError) -> Error {
        Error::Polars(e.to_string().lines().next().unwrap_or("").to_string())
    }
}
