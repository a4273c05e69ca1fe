//! # heaplab-core
//!
//! Rules and table builders for impartial games on one heap: game specs ([`spec`]), the
//! subtraction sets they use ([`sets`]), the rule abstraction and the by-definition reference
//! evaluators ([`rule`]), P-position engines ([`engine`], [`sieve`], [`interval`]) and
//! Grundy engines ([`grundy`], [`octal`], with helper threads from [`crew`]). No file I/O
//! and no terminal output here: the `heaplab` binary (crate `heaplab-report`) does that.
//!
//! Conventions: positions are heap sizes n with 0 <= n <= N inclusive; a P-position is one
//! the previous player wins (g(n) = 0); "win" means N-position.

pub mod crew;
pub mod engine;
pub mod grundy;
pub mod interval;
pub mod mem;
pub mod num;
pub mod octal;
pub mod period;
pub mod rule;
pub mod sets;
pub mod sieve;
pub mod spec;
pub mod stone;
pub mod table;

pub use engine::{outcome_table, p_stream, PStream, StreamState};
pub use grundy::{grundy_table, BuildError};
pub use rule::{Rule, SubtractionRule};
pub use sets::{MoveSet, NamedSet};
pub use spec::{Bound, Game, SpecError, TakeBreak};
pub use table::{GrundyTable, OutcomeTable};
