//! What a run is asked to compute ([`Task`]), which engine computes it ([`Engine`]), what
//! it is estimated to cost ([`Estimate`]), and what the caller allows ([`Budget`]). Plain
//! data: the planner (`plan`) fills them in.

use crate::error::Refusal;
use serde::{Deserialize, Serialize};

/// Seconds a run may take by default before it is refused up front: a day.
pub const TIME_LIMIT: f64 = 86_400.0;

/// What a caller allows a run to use. Every check is made before any work.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// Bytes of memory the run may plan to use.
    pub memory: u64,
    /// Seconds the run may take on this machine, as [`crate::time_estimate`] estimates them.
    pub seconds: f64,
    /// Free bytes where an output file goes (`None`: not checked).
    pub disk: Option<u64>,
}

impl Budget {
    /// `memory` bytes, [`TIME_LIMIT`] (a day), disk unchecked.
    pub fn new(memory: u64) -> Budget {
        Budget {
            memory,
            seconds: TIME_LIMIT,
            disk: None,
        }
    }

    /// No limit at all (tests, and callers that check by other means).
    pub fn unlimited() -> Budget {
        Budget {
            memory: u64::MAX,
            seconds: f64::INFINITY,
            disk: None,
        }
    }

    /// The same budget with `free` bytes at the output's destination.
    pub fn with_disk(self, free: Option<u64>) -> Budget {
        Budget { disk: free, ..self }
    }

    /// Refuses `needed` bytes of memory beyond the budget; `what` names what needs them.
    ///
    /// # Errors
    /// [`Refusal::Memory`].
    pub fn check_memory(&self, what: impl FnOnce() -> String, needed: u64) -> Result<(), Refusal> {
        if needed > self.memory {
            return Err(Refusal::Memory {
                what: what(),
                needed,
                budget: self.memory,
                most: None,
            });
        }
        Ok(())
    }

    /// Refuses a run estimated at more than the budget's seconds.
    ///
    /// # Errors
    /// [`Refusal::Time`].
    pub fn check_time(&self, what: impl FnOnce() -> String, seconds: f64) -> Result<(), Refusal> {
        if seconds > self.seconds {
            return Err(Refusal::Time {
                what: what(),
                seconds,
                limit: self.seconds,
                most: None,
            });
        }
        Ok(())
    }

    /// Refuses an output of `needed` bytes larger than the free space (when known).
    ///
    /// # Errors
    /// [`Refusal::Disk`].
    pub fn check_disk(&self, what: impl FnOnce() -> String, needed: f64) -> Result<(), Refusal> {
        match self.disk {
            Some(free) if needed > free as f64 => Err(Refusal::Disk {
                what: what(),
                needed: needed.min(u64::MAX as f64) as u64,
                free,
            }),
            _ => Ok(()),
        }
    }
}

/// What is computed over 0..=N.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Task {
    /// The outcome of every position, one bit each ([`crate::outcome_table`]).
    Outcomes,
    /// The Grundy value of every position ([`crate::grundy_table`]).
    Grundy,
    /// The P-positions in increasing order, streamed ([`crate::open_stream`]).
    PPositions,
    /// Smith's remoteness of every position in the game's play ([`crate::remoteness_table`]).
    Remoteness,
    /// The formal birthday (the length of the longest play) of every position
    /// ([`crate::birthday_table`]).
    Birthday,
}

/// The engines, by the names reports give them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Engine {
    /// Finite sets' P-positions: marks over a window of the largest move.
    WindowSieve,
    /// Infinite sets' P-positions: the segmented, parallel sieve.
    SegmentedSieve,
    /// All-but sets' P-positions: the finite list of candidates.
    AllButCandidates,
    /// Divisor games' P-positions: one bit per position, pulled from divisor lists.
    DivisorPull,
    /// Interval games' P-positions: one step per P-position.
    JumpAhead,
    /// P-positions as the zeros of a Grundy table.
    GrundyTable,
    /// Grundy values by a mex over the moves, position by position.
    PlainMex,
    /// Grundy values by the blocked, transposed mex.
    BlockedMex,
    /// Grundy values of dense subtraction sets layer by layer (one online FFT convolution per
    /// value: Eppstein, FUN 2018), when its cost, growing with the largest value, beats the
    /// blocked mex's, growing with the number of moves.
    LayeredMex,
    /// All-but sets' Grundy values from counts of the values so far.
    AllButCounts,
    /// Divisor games' Grundy values: a mex over each position's divisor list.
    DivisorMex,
    /// Interval games' Grundy values: a mex over a sliding window.
    SlidingWindow,
    /// Take-and-break Grundy values by the sparse-space method.
    SparseSpace,
    /// Misère nim-values of one-heap games: a mex over the moves, 1 at heaps without one.
    MisereMex,
    /// Grundy values of games listed heap by heap (unions of families, `nondivisors`): a
    /// mex over each heap's moves.
    OptionMex,
    /// P-positions of games listed heap by heap: one bit per position, pulled from each
    /// heap's moves.
    OptionPull,
    /// Misère play of take-and-break games: canonical misère forms of the heaps.
    CanonicalForms,
    /// Misère outcomes of take-and-break heaps whose misère quotient has a period proved
    /// quickly ([`crate::misere::quotient::proved_quotient`]): a heap is a P-position when
    /// its element lies in the P-portion.
    MisereQuotient,
    /// Extended codes and coin-turning games: the XOR values each move reaches, kept by a
    /// knapsack over part sizes (see [`crate::games::code::code_grundy`]).
    Knapsack,
    /// Remoteness and birthday: one walk over every option of every heap, in increasing n.
    OptionWalk,
}

impl Engine {
    /// The name reports print (`segmented sieve`, `blocked mex`, …).
    pub fn name(self) -> &'static str {
        match self {
            Engine::WindowSieve => "window sieve",
            Engine::SegmentedSieve => "segmented sieve",
            Engine::AllButCandidates => "all-but candidates",
            Engine::DivisorPull => "divisor pull",
            Engine::JumpAhead => "jump-ahead",
            Engine::GrundyTable => "grundy table",
            Engine::PlainMex => "plain mex",
            Engine::BlockedMex => "blocked mex",
            Engine::LayeredMex => "layer convolution",
            Engine::AllButCounts => "all-but counts",
            Engine::DivisorMex => "divisor mex",
            Engine::SlidingWindow => "sliding-window mex",
            Engine::SparseSpace => "sparse space",
            Engine::MisereMex => "misère mex",
            Engine::OptionMex => "option mex",
            Engine::OptionPull => "option pull",
            Engine::CanonicalForms => "canonical misère forms",
            Engine::MisereQuotient => "misère quotient",
            Engine::Knapsack => "knapsack",
            Engine::OptionWalk => "option walk",
        }
    }
}

/// What a run will do and cost: the engine, the peak memory and the time on this machine,
/// as [`crate::plan()`] estimated them (a [`crate::Plan`] dereferences to its estimate).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    /// What is computed.
    pub task: Task,
    /// N.
    pub max: u64,
    /// The engine.
    pub engine: Engine,
    /// Estimated bytes of memory at the peak.
    pub memory: u64,
    /// Estimated seconds on this machine ([`crate::time_estimate`]).
    pub seconds: f64,
    /// How the cost of positions 0..n grows near N: about n^growth (1 for a cost linear in
    /// n; for the engines whose cost per position grows — the blocked mex, the layer
    /// engine, the sieve, canonical misère forms — from the estimate at N and at N/2,
    /// at most 3, and at most 16 for the forms). The time left of a run at n
    /// is then its elapsed time times (N^growth − n^growth) / n^growth.
    pub growth: f64,
}
