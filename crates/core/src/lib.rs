//! # heaplab-core
//!
//! Impartial games on one heap: game specs, rules, and the engines that compute their
//! outcomes, Grundy values and P-positions to very large N. No file I/O and no terminal
//! here: front ends (the `heaplab` binary, the Python package) call these functions.
//!
//! Conventions: positions are heap sizes n with 0 <= n <= N inclusive; a P-position is one
//! the previous player wins (g(n) = 0); "win" means N-position.
//!
//! ```
//! use heaplab_core::{decide, grundy_table, Budget, Game, Silent};
//!
//! let kayles = Game::parse("0.77").unwrap();
//! // Grundy values of Kayles, OEIS A002186: 0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4
//! let g = grundy_table(&kayles, 12, &Silent).unwrap();
//! assert_eq!(g.to_u32_vec(), [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]);
//! // Who wins a heap of 10^18, from the proven period 12?
//! let d = decide(&kayles, 1_000_000_000_000_000_000, &Budget::new(1 << 30), &Silent).unwrap();
//! assert!(d.win && d.method.contains("proven"));
//! ```
//!
//! Layout: [`Game`] (`spec`) and the families' rules and closed forms in `games`, one
//! module each; the algorithms in `engines`; the one map from a game to its engine, with
//! cost estimates and refusals, in `plan`; [`decide()`] for a single position; misère
//! play (genus, tame sums, canonical misère forms) in [`misere`].

#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod beyond;
mod budget;
pub mod census;
mod cert;
mod decide;
pub mod engines;
mod error;
mod expr;
pub mod functions;
mod game;
mod games;
mod known;
mod mex;
pub mod misere;
mod moves;
mod num;
mod observe;
mod period;
mod plan;
pub mod record;
mod resume;
mod rule;
pub mod saved;
mod sets;
mod space;
mod spec;
mod stone;
mod sums;
mod table;
mod witness;

pub use beyond::BeyondGame;
pub use budget::{Budget, Engine, Estimate, Task, TIME_LIMIT};
pub use census::{CensusError, CensusSpace, Class, Member, Reduction};
pub use cert::{CertRule, Sequence};
pub use decide::{decide, proven_period, winning_moves, Decision, ProvenPeriod, WinningMoves};
pub use engines::stream::Checkpoint;
pub use engines::StreamState;
pub use error::{duration, Error, Refusal};
pub use expr::lex::{tokens, Token, TokenKind};
pub use game::{excluded_periods, Game, Ruleset, SLUG_MAX};
pub use games::allbut::{all_but_p_positions, all_but_p_positions_played};
pub use games::finite::{
    finite_outcome_period, finite_outcome_period_played, finite_p_count_played, PeriodicOutcomes,
};
pub use games::predicate::{MovePredicate, PredicateError};
pub use games::takebreak::{ExcludedPeriods, TakeBreak};
pub use games::{spec_table, Family, FAMILIES};
pub use known::Move;
pub use mex::{first_gap, mex, MexCounter, ValueSet};
pub use moves::bound::Bound;
pub use moves::breaker::{guy_smith_bound, Breaker};
pub use moves::interval::IntervalGame;
pub use moves::Play;
pub use num::{
    factorize, icbrt, is_prime, is_square, isqrt, isqrt_ceil, parse_count, primes_upto, v2,
    CountError,
};
pub use observe::{ControlFlow, Observer, Silent};
pub use period::{best_candidate, exceptions, find_period, z_function, Period};
pub use plan::cost::square_segment_bits;
pub use plan::count::{count_p_positions, p_count_estimate};
pub use plan::lengths::{birthday_table, remoteness_table};
pub use plan::run::{grundy_continues, grundy_resumable, grundy_table_after};
pub use plan::stream::{resume_stream, PPositionStream};
pub use plan::{
    feasible_max, grundy_table, memory_estimate, open_stream, outcome_table, p_position_list, plan,
    plan_list, plan_table, tables, time_estimate, Output, Plan,
};
pub use rule::{
    grundy_by_definition, grundy_table_of, outcome_by_definition, Rule, SubtractionRule,
};
pub use sets::{MoveSet, NamedSet};
pub use space::{Space, SpaceError, MAX_VALUES};
pub use spec::cursor::SpecError;
pub use spec::template::substitute_param;
pub use stone::{
    margin_by_minimax, pile_cap, score_strategy, solve, RowsError, StoneError, StoneMove,
    StoneResult, StoneRows, Strategy, Variant, Winner, MAX_PILES, STRATEGY_LINE_MAX,
};
pub use sums::count::{count_by_period, count_sums, SumCount};
pub use sums::sum::{HeapValue, Sum, SumDecision, SumError, SumMove, SumMoves};
pub use sums::{decide_sum, grundy_value, sum_winning_moves};
pub use table::{GrundyTable, OutcomeTable, PCount};
pub use witness::{value_proof, ValueProof, Witnessed};
