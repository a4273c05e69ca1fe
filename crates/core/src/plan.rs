//! The one place that maps a game to an engine: which engine computes the outcomes, the
//! Grundy values or the P-positions of a game (a `match` on every family), what that costs
//! (memory in bytes, work in elementary steps), and whether a caller's [`Budget`] allows it.
//!
//! | family | P-positions (outcomes) | Grundy values |
//! |---|---|---|
//! | finite set, largest move k | window sieve: O(k + segment) bits | plain mex, one word |
//! | squares | segmented sieve, moves computed on the fly | blocked mex |
//! | other infinite sets, unions | segmented sieve over the move list | blocked mex |
//! | all-but sets | the finite list of candidates | counts of values |
//! | divisors | divisor pull: one bit per position | mex over divisor lists |
//! | interval games | jump-ahead: O(1) per P-position | sliding-window mex |
//! | take-and-break | zeros of the Grundy table | sparse space |
//!
//! [`grundy_table`], [`outcome_table`] and [`open_stream`] run the engine; [`plan`] says
//! beforehand which one it is and refuses what the budget does not allow; [`tables`] does
//! both for a whole table.

use crate::engines::blocked::{blocked_mex_grundy, blocked_mex_grundy_after};
use crate::engines::layers::{layered_grundy, FFT_MAX as LAYER_FFT_MAX};
use crate::engines::mex::{
    finite_set_grundy, finite_set_grundy_after, list_mex_grundy, list_mex_grundy_after,
};
use crate::engines::pull::{divisor_grundy, DivisorStream};
use crate::engines::sieve::{
    p_positions, ListMoves, SetSieve, SquareMoves, DEFAULT_SEGMENT_BITS, MAX_SIEVE_N,
};
use crate::engines::sparse::{take_break_grundy, take_break_grundy_continue};
use crate::engines::stream::{JumpStream, ListStream, PStream, SieveStream, StreamState};
use crate::engines::window::WindowStream;
use crate::error::{Error, Refusal};
use crate::game::Game;
use crate::games::allbut::{all_but_grundy, all_but_p_positions_played};
use crate::games::finite::finite_p_count_played;
use crate::games::interval::IntervalGame;
use crate::moves::breaker::Breaker;
use crate::observe::{Observer, Watch};
use crate::sets::{MoveSet, NamedSet};
use crate::table::PCount;
use crate::table::{GrundyTable, OutcomeTable};
use bitvec::prelude::*;
use serde::{Deserialize, Serialize};

/// Seconds a run may take by default before it is refused up front: a day.
pub const TIME_LIMIT: f64 = 86_400.0;

/// What a caller allows a run to use. Every check is made before any work.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// Bytes of memory the run may plan to use.
    pub memory: u64,
    /// Seconds the run may take on this machine, as [`time_estimate`] estimates them.
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
    /// The outcome of every position, one bit each ([`outcome_table`]).
    Outcomes,
    /// The Grundy value of every position ([`grundy_table`]).
    Grundy,
    /// The P-positions in increasing order, streamed ([`open_stream`]).
    PPositions,
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
    /// Extended codes and coin-turning games: the XOR values each move reaches, kept by a
    /// knapsack over part sizes (see [`crate::games::code::code_grundy`]).
    Knapsack,
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
            Engine::Knapsack => "knapsack",
        }
    }

    /// The engine that computes `task` for `game` over 0..=max: [`Engine::of`], except that
    /// Grundy tables of subtraction games with an infinite move set go to the layer engine
    /// when it is estimated faster (a pilot table to 2^16 gives the values' growth; see
    /// [`time_estimate`]).
    pub fn for_size(game: &Game, task: Task, max: u64) -> Engine {
        let game = &*game.normalized();
        match (task, game) {
            (Task::Grundy, Game::Subtraction { set, leave1 })
                if Engine::of(game, task) == Engine::BlockedMex =>
            {
                let (layered, blocked) = dense_seconds(set, *leave1, max);
                if layered < blocked {
                    Engine::LayeredMex
                } else {
                    Engine::BlockedMex
                }
            }
            _ => Engine::of(game, task),
        }
    }

    /// The engine that computes `task` for `game` (for most sizes: see [`Engine::for_size`]).
    pub fn of(game: &Game, task: Task) -> Engine {
        if let Game::Misere(inner) = game {
            return match (&**inner, task) {
                (Game::TakeBreak(_) | Game::GrundyGame, _) => Engine::CanonicalForms,
                (_, Task::Grundy) => Engine::MisereMex,
                (inner, task) => Engine::of(inner, task),
            };
        }
        let grundy = match game {
            Game::Subtraction {
                set: MoveSet::AllBut { .. },
                ..
            } => Engine::AllButCounts,
            Game::Subtraction { set, .. } if set.is_finite() => Engine::PlainMex,
            Game::Subtraction { .. } => Engine::BlockedMex,
            Game::Divisors { .. } => Engine::DivisorMex,
            Game::Interval { .. } => Engine::SlidingWindow,
            Game::TakeBreak(_) | Game::GrundyGame => Engine::SparseSpace,
            Game::NonDivisors | Game::Rule(_) | Game::Union(_) => Engine::OptionMex,
            Game::Misere(_) => Engine::MisereMex,
            Game::Ruleset(_) => Engine::Knapsack,
        };
        if let Game::Ruleset(crate::game::Ruleset::Seed(_)) = game {
            return match task {
                Task::Grundy => Engine::Knapsack,
                Task::Outcomes | Task::PPositions => Engine::OptionPull,
            };
        }
        let outcomes = match game {
            Game::Subtraction {
                set: MoveSet::AllBut { .. },
                ..
            } => Engine::AllButCandidates,
            Game::Subtraction { set, .. } if set.is_finite() => Engine::WindowSieve,
            Game::Subtraction { .. } => Engine::SegmentedSieve,
            Game::Divisors { .. } => Engine::DivisorPull,
            Game::Interval { .. } => Engine::JumpAhead,
            Game::TakeBreak(_) | Game::GrundyGame | Game::Ruleset(_) => Engine::GrundyTable,
            Game::NonDivisors | Game::Rule(_) | Game::Union(_) => Engine::OptionPull,
            Game::Misere(_) => Engine::CanonicalForms,
        };
        match task {
            Task::Grundy => grundy,
            Task::Outcomes | Task::PPositions => outcomes,
        }
    }
}

/// What a run will do and cost, as [`plan`] found it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Plan {
    /// What is computed.
    pub task: Task,
    /// N.
    pub max: u64,
    /// The engine.
    pub engine: Engine,
    /// Estimated bytes of memory at the peak.
    pub memory: u64,
    /// Estimated seconds on this machine ([`time_estimate`]).
    pub seconds: f64,
}

/// The engine for `task` of `game` over 0..=max, its cost, and whether `budget` allows it.
///
/// # Errors
/// [`Error::TooLarge`] beyond what the engine can address at all; [`Error::Refused`] with
/// the memory or time refusal, naming the largest N that fits, when the budget does not
/// allow the run.
pub fn plan(game: &Game, task: Task, max: u64, budget: &Budget) -> Result<Plan, Error> {
    match check(game, task, max, budget) {
        Err(Error::Refused(mut r)) => {
            let m = Some(feasible_max(game, task, budget, max));
            match &mut r {
                Refusal::Memory { most, .. } | Refusal::Time { most, .. } => *most = m,
                Refusal::Disk { .. } | Refusal::TooFar { .. } => {}
            }
            Err(Error::Refused(r))
        }
        r => r,
    }
}

/// [`plan`] without the largest N that fits.
fn check(game: &Game, task: Task, max: u64, budget: &Budget) -> Result<Plan, Error> {
    let game = &*game.normalized();
    let limit = match task {
        _ if Engine::of(game, task) == Engine::CanonicalForms => CANONICAL_MAX,
        Task::Grundy => GRUNDY_MAX,
        Task::Outcomes => BITS_MAX,
        Task::PPositions => u64::MAX,
    };
    let what = match Engine::of(game, task) {
        Engine::CanonicalForms => "canonical misère forms",
        _ => task_name(task),
    };
    if max > limit {
        return Err(Error::TooLarge {
            what,
            n: max,
            limit,
        });
    }
    let p = Plan {
        task,
        max,
        engine: Engine::for_size(game, task, max),
        memory: memory_estimate(game, task, max),
        seconds: time_estimate(game, task, max),
    };
    budget.check_memory(|| format!("{what} of {game} to N = {max}"), p.memory)?;
    budget.check_time(|| format!("{game} to N = {max}"), p.seconds)?;
    Ok(p)
}

fn task_name(task: Task) -> &'static str {
    match task {
        Task::Outcomes => "an outcome table",
        Task::Grundy => "a Grundy table",
        Task::PPositions => "the P-position engine",
    }
}

/// The largest N <= `limit` for which [`plan`] accepts `task` of `game` within `budget`
/// (memory and work both grow with N; found by bisection), 0 when none is.
pub fn feasible_max(game: &Game, task: Task, budget: &Budget, limit: u64) -> u64 {
    let ok = |n: u64| check(game, task, n, budget).is_ok();
    if ok(limit) {
        return limit;
    }
    let (mut lo, mut hi) = (0u64, limit); // ok(lo) assumed, !ok(hi)
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Largest heap of a take-and-break game in misère play (canonical forms grow fast; see
/// [`crate::misere::canon`]).
pub const CANONICAL_MAX: u64 = 100_000;

/// Largest N of a Grundy table (its values are addressed by `usize` with room to spare).
const GRUNDY_MAX: u64 = (isize::MAX as u64) / 8 - 1;

/// Largest N of an outcome table (one bit per position).
const BITS_MAX: u64 = (usize::MAX as u64) / 2 - 1;

/// Upper estimate of the memory (bytes) `task` of `game` over 0..=max needs at its peak.
pub fn memory_estimate(game: &Game, task: Task, max: u64) -> u64 {
    let game = &*game.normalized();
    if let Game::Misere(inner) = game {
        let n = max.saturating_add(1);
        return match Engine::of(game, task) {
            // the forms and the memoized sums grow with the work: measured here about 8 to
            // 12 MB a second of it (Kayles to 75: 0.94 GB in 118 s; 0.07 to 128: 0.97 GB in
            // 79 s), so 16 MB a second of the estimate
            Engine::CanonicalForms => {
                let bytes = canonical_seconds(inner, max) * 16e6 + 32e6;
                if bytes >= u64::MAX as f64 {
                    u64::MAX
                } else {
                    (bytes as u64).max(n)
                }
            }
            // the u32 table, its copy, and the moves
            Engine::MisereMex => grundy_memory_estimate(inner, max).saturating_add(n * 4),
            _ => memory_estimate(inner, task, max),
        };
    }
    match task {
        Task::Grundy => grundy_memory_estimate(game, max),
        Task::PPositions => stream_memory_estimate(game, max),
        Task::Outcomes => (max / 8 + 1).saturating_add(match game {
            Game::TakeBreak(_) | Game::GrundyGame | Game::Misere(_) | Game::Ruleset(_) => {
                grundy_memory_estimate(game, max)
            }
            Game::Subtraction { .. }
            | Game::Divisors { .. }
            | Game::Interval { .. }
            | Game::NonDivisors
            | Game::Rule(_)
            | Game::Union(_) => stream_memory_estimate(game, max),
        }),
    }
}

/// Upper estimate of the memory (bytes) a Grundy table of 0..=max needs while it is built
/// (the working table in `u32` plus the narrowed copy and the family's side structures).
fn grundy_memory_estimate(game: &Game, max: u64) -> u64 {
    let n = max.saturating_add(1);
    let table = n.saturating_mul(4).saturating_add(n);
    let moves = |set: &MoveSet| set.count_upto_estimate(max).saturating_mul(8);
    if let Game::Subtraction { set, .. } = game {
        if Engine::for_size(game, Task::Grundy, max) == Engine::LayeredMex {
            // (the layer engine's own table, not the u32 working one)
            return layered_memory(max).saturating_add(moves(set));
        }
    }
    let extra = match game {
        Game::Subtraction { set, .. } => moves(set),
        Game::Divisors { .. } => 1 << 26,
        Game::Ruleset(r) => ruleset_cost(r, max).1,
        // (listed games: one heap's moves at a time)
        Game::Interval { .. }
        | Game::TakeBreak(_)
        | Game::GrundyGame
        | Game::Misere(_)
        | Game::NonDivisors
        | Game::Rule(_)
        | Game::Union(_) => 0,
    };
    table.saturating_add(extra)
}

/// Upper estimate of the memory (bytes) a P-position stream over 0..=max needs.
fn stream_memory_estimate(game: &Game, max: u64) -> u64 {
    let seg = DEFAULT_SEGMENT_BITS / 8 * (rayon::current_num_threads() as u64 + 2);
    match game {
        Game::Subtraction { set, .. } => match set {
            // the window: a segment plus the largest move (up to max) ahead
            MoveSet::Union { named, finite } if named.is_empty() => {
                let k = finite.last().copied().unwrap_or(0).min(max);
                seg * 2 + k / 8 * 2
            }
            MoveSet::AllBut { excluded } => (excluded.len() as u64 + 2) * 16,
            MoveSet::Union { named, .. } => {
                let squares = named == &[NamedSet::Squares];
                let moves = if squares {
                    0
                } else {
                    set.count_upto_estimate(max) * 8
                };
                // P-positions: squares ~0.9 n^0.7 (Eppstein 2018); other sets are not known
                // in advance, so take the same law with a wide margin.
                let ps = 1.5 * 0.9 * (max.max(1) as f64).powf(0.7);
                let ps = if squares { ps } else { ps * 4.0 };
                seg + moves + (ps * 12.0) as u64
            }
        },
        Game::Divisors { .. } => max / 8 + seg + (1 << 20) * 24,
        // the outcome bits and one segment's move lists
        Game::NonDivisors | Game::Rule(_) | Game::Union(_) => {
            max / 8 + (1 << 16) * 8 * (moves_per_heap(game, max) as u64 + 1)
        }
        Game::Interval { .. } => 1 << 16,
        Game::TakeBreak(_) | Game::GrundyGame | Game::Misere(_) | Game::Ruleset(_) => {
            grundy_memory_estimate(game, max)
        }
    }
}

/// Estimated seconds to compute `task` of `game` over 0..=max on this machine (2 cores),
/// from a cost model per engine whose rates were measured here (release build, 2024-12):
///
/// | engine | cost | measured |
/// |---|---|---|
/// | window sieve | N / 5e8 | `sub{1,2,3}` to 1e10: 16 s |
/// | segmented sieve | marks / 3e9 (squares), / 6e8 (other sets) | squares to 1e9: 8 s; primes to 3e6: 56 s |
/// | divisor pull | N ln N / 2.8e8 | 1e9: 74 s |
/// | jump-ahead | P-positions / 4e7 | `sqrt` to 1e14: 0.5 s |
/// | plain mex | N / 6e7 + N·\|S\| / 1e9 | `sub{1,2,3}` to 1e9: 15 s |
/// | blocked mex | N·#moves / 2 / 2e9, times V / 1600 past 1600 values (`dense_seconds`) | squares to 1e7: 2.6 s, to 3e7: 60 s; primes to 3e6: 17 s; practical to 2^19: 38.6 s |
/// | layer convolution | layers · N · log²(top) · 2e-10 (`dense_seconds`) | primes to 1e7: 13.5 s, to 1e8: 120 s |
/// | sliding window, all-but counts | N / 3.7e7 + N·V / 2.6e5 / 1e9 (V: values) | `sqrt` to 1e9: 27 s |
/// | divisor mex | N ln N / 5.8e7 | 1e8: 31 s |
/// | sparse space | measured: a pilot run, extrapolated (`sparse_seconds`) | `.6` to 1e7: 15 s |
///
/// The number of P-positions of a sieve game is not known in advance (except for squares,
/// about 0.9·n^0.7, Eppstein 2018): a pilot sieve to min(max, 2^16) fits a power law to
/// the counts at 2^15 and 2^16, and the marks are about #P(max) · #moves(max) / 2.
/// Take-and-break codes that may leave three heaps visit every three-way split: about
/// N^3 / 36 steps per digit that may leave three heaps, at 1.5e9 a second (0.3F to 6000:
/// 4 s).
pub fn time_estimate(game: &Game, task: Task, max: u64) -> f64 {
    let game = &*game.normalized();
    let m = max as f64;
    let ln = m.max(2.0).ln();
    if let Game::Misere(inner) = game {
        if crate::misere::first_move(inner) == Some(u64::MAX) {
            // no heap has a move: no P-position at all, found at once
            return 0.0;
        }
        return match Engine::of(game, task) {
            Engine::CanonicalForms => canonical_seconds(inner, max),
            Engine::MisereMex => misere_mex_seconds(inner, max),
            _ => time_estimate(inner, task, max),
        };
    }
    match (task, game) {
        (_, Game::TakeBreak(code)) if code.max_heaps_left() == 3 => {
            // every digit with bit 8 visits the three-way splits of what it leaves
            let threes = code.digits.iter().filter(|&&d| d & 8 != 0).count().max(1) as f64;
            (threes * m * m * m / 36.0 / 1.5e9).max(m / 1e8)
        }
        (_, Game::TakeBreak(_) | Game::GrundyGame) => sparse_seconds(game, max),
        (Task::Grundy, Game::Subtraction { set, leave1 }) => match set {
            MoveSet::AllBut { excluded } => {
                let e = excluded.len() as f64;
                m / 3.7e7 + m * e * e / 1e8 + m * (m / 262_144.0) / 1e9
            }
            MoveSet::Union { .. } if set.is_finite() => {
                m / 6e7 + m * set.count_upto_estimate(max) as f64 / 1e9
            }
            MoveSet::Union { .. } => {
                let (layered, blocked) = dense_seconds(set, *leave1, max);
                layered.min(blocked)
            }
        },
        (Task::Grundy, Game::Divisors { .. }) => m * ln / 5.8e7,
        (Task::Grundy, Game::Interval { bound, .. }) => {
            let values = bound.f(max).min(max) as f64;
            m / 3.7e7 + m * (values / 262_144.0) / 1e9
        }
        (Task::Outcomes | Task::PPositions, Game::Subtraction { set, leave1 }) => match set {
            // finitely many P-positions, found among the excluded sums
            MoveSet::AllBut { excluded } => ((excluded.len() + 2) as f64).powi(2) / 1e9,
            MoveSet::Union { .. } if set.is_finite() => m / 5e8,
            MoveSet::Union { named, .. } => {
                let moves = set.count_upto_estimate(max) as f64;
                let squares = named == &[NamedSet::Squares];
                let ps = if squares {
                    0.9 * (max.max(1) as f64).powf(0.7)
                } else {
                    pilot_p_count(set, *leave1, max)
                };
                let rate = if squares { 3e9 } else { 6e8 };
                ps * moves / 2.0 / rate + m / 2e9
            }
        },
        (Task::Outcomes | Task::PPositions, Game::Divisors { .. }) => m * ln / 2.8e8,
        (Task::Outcomes | Task::PPositions, Game::Interval { bound, leave1 }) => {
            let ig = IntervalGame {
                bound: *bound,
                leave1: *leave1,
            };
            let tables = if task == Task::Outcomes { m / 2e9 } else { 0.0 };
            ig.p_count_estimate(max) / 4e7 + tables
        }
        // every heap's moves listed and visited: about 5e7 a second (divisors|squares to
        // 10^6: 10.4 s; half|sub{1} to 10^5: 30 s)
        (_, Game::NonDivisors | Game::Rule(_) | Game::Union(_)) => {
            m * moves_per_heap(game, max) / 5e7 + m / 5e7
        }
        (_, Game::Ruleset(r)) => ruleset_cost(r, max).0,
        // (answered above)
        (_, Game::Misere(inner)) => time_estimate(inner, task, max),
    }
}

/// Seconds and bytes of the knapsack engine for a ruleset over 0..=max. The work is about
/// rows · Σ_a (N − a)·W(a) word operations for the knapsack passes of a code, plus
/// Σ_n (unions(n)·W(n) + listed moves(n)), W(n) the words of a bit set when the values up
/// to n fit (at least one); the memory is the bit sets held, each W(N) words. The values'
/// growth comes from pilot runs to 2^7, 2^8, … 2^11 for at most half a second (a power
/// law through the last two, exponent between 0 and 4: Moebius's values grow like n^3),
/// once per game and process; the rate, 1e9 word operations a second, was measured here
/// (`{2+}.0` to 10^4: 8 s).
fn ruleset_cost(r: &crate::game::Ruleset, max: u64) -> (f64, u64) {
    static PILOTS: Pilots<(f64, f64, f64)> = std::sync::Mutex::new(Vec::new());
    let game = Game::Ruleset(r.clone());
    let one_heap = matches!(
        r,
        crate::game::Ruleset::Sink(_) | crate::game::Ruleset::Seed(_)
    );
    // the pilot's own work to 2^11, by the same model with one word a set: a game whose
    // moves are listed one by one (a wide span, symmetric coins without a limit) may list
    // more than can ever be done within one heap, where no deadline can stop it
    let per_heap = |n: f64| r.rows() as f64 * n + r.unions_at(n) + 20.0 * r.singles_at(n);
    let pilot_work: f64 = (1..=16)
        .map(|k| per_heap(128.0 * f64::from(k)) * 128.0)
        .sum();
    // (one-heap rulesets keep no bit sets: no pilot)
    let (n2, m2, alpha) = if one_heap {
        (1.0, 0.0, 0.0)
    } else if pilot_work.is_nan() || pilot_work >= 5e8 {
        // values taken to grow like n
        (64.0, 64.0, 1.0)
    } else {
        pilot_once(&PILOTS, &game, || {
            let start = std::time::Instant::now();
            let deadline = |_: u64, _: u64| {
                if start.elapsed().as_secs_f64() > 0.5 {
                    std::ops::ControlFlow::Break(())
                } else {
                    std::ops::ControlFlow::Continue(())
                }
            };
            let mut runs: Vec<(f64, f64)> = vec![];
            for n in [128u64, 256, 512, 1024, 2048] {
                let g = Watch::start(&deadline, n + 1)
                    .ok()
                    .and_then(|mut w| r.grundy(n, 1 << 28, &mut w).ok());
                match g {
                    Some(g) => runs.push((n as f64, f64::from(g.into_iter().max().unwrap_or(0)))),
                    None => break,
                }
            }
            // (a pilot cut short, by time or by the values' bit sets, means fast growth)
            let fast = runs.len() < 5;
            match runs[..] {
                [.., (_, m1), (n2, m2)] if m1 >= 1.0 => (n2, m2, (m2 / m1).log2().clamp(0.0, 4.0)),
                [.., (n2, m2)] if fast => (n2, m2, 4.0),
                [.., (n2, m2)] => (n2, m2, 1.0),
                // not even 128 heaps in half a second
                [] => (64.0, 1e6, 4.0),
            }
        })
    };
    let words = |n: f64| -> f64 {
        let v = if n <= n2 {
            m2
        } else {
            m2 * (n / n2).powf(alpha)
        };
        ((v + 1.0).log2().ceil().exp2() / 64.0).max(1.0)
    };
    let m = max as f64;
    // Σ by 64 slices of 0..=N
    let mut work = 0.0;
    for k in 0..64 {
        let a = m * (k as f64 + 0.5) / 64.0;
        let w = words(a);
        // a move listed one by one costs about 20 word operations (5e7 a second here, as
        // for the listed one-heap games)
        work += m / 64.0
            * ((m - a) * r.rows() as f64 * w + r.unions_at(a) * w + 20.0 * r.singles_at(a) + w);
    }
    let bytes = (r.bitsets(max) * words(m) * 8.0 + (m + 1.0) * 8.0).min(u64::MAX as f64);
    (work / 1e9, bytes as u64)
}

/// Pilot results by game, kept for the life of the process.
type Pilots<T> = std::sync::Mutex<Vec<(String, T)>>;

/// The pilot result of `game` in `cache`, made by `run` the first time it is asked for.
fn pilot_once<T: Clone>(cache: &Pilots<T>, game: &Game, run: impl FnOnce() -> T) -> T {
    let key = game.to_string();
    let known = cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(k, _)| *k == key)
        .map(|p| p.1.clone());
    known.unwrap_or_else(|| {
        let t = run();
        cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((key, t.clone()));
        t
    })
}

/// Seconds of (the layer engine, the blocked mex) for the Grundy values of a subtraction
/// game with an infinite move set over 0..=max. The blocked mex costs N·#moves / 4e9, times
/// V / 1600 when the largest value V passes 1600 (its marks cover the values 32 at a time:
/// `practical` to 2^17, 2^18, 2^19 took 0.83 s, 5.35 s, 38.6 s here, values 3023, 5222,
/// 9051, against 0.48 s, 1.8 s, 6.8 s for N·#moves / 4e9 alone). The
/// layer engine costs about 2e-10 s per position, layer and level² (the online convolution
/// has log2(top) levels, top the power of two above N; measured here: primes to 10^7,
/// 12 layers, 13.5 s; to 10^8, 120 s), times the extra work of the levels cut into pieces
/// beyond its largest FFT; the layers are the largest value plus one, extrapolated from a
/// pilot table to 2^16 (values at 2^12 and 2^16, a power law with exponent 0 to 1; run
/// once per game and process, and only when the blocked mex would take a second or more).
fn dense_seconds(set: &MoveSet, leave1: bool, max: u64) -> (f64, f64) {
    let m = max as f64;
    let blocked = m * set.count_upto_estimate(max) as f64 / 4e9;
    if blocked < 1.0 {
        return (f64::INFINITY, blocked);
    }
    static PILOTS: Pilots<(u32, u32)> = std::sync::Mutex::new(Vec::new());
    let game = Game::Subtraction {
        set: set.clone(),
        leave1,
    };
    let (v12, v16) = pilot_once(&PILOTS, &game, || {
        let pilot = 1u64 << 16;
        let moves = set.elements_upto(pilot);
        let mut watch = Watch::start(&crate::observe::Silent, pilot + 1).expect("never stops");
        let g: Vec<u32> = match blocked_mex_grundy(&moves, leave1, pilot, &mut watch) {
            Ok(Some(g)) => g.into_iter().map(u32::from).collect(),
            _ => list_mex_grundy(&moves, leave1, pilot, &mut watch).expect("never stops"),
        };
        let top = |k: usize| g[..=k].iter().copied().max().unwrap_or(0);
        (top(1 << 12), top(1 << 16))
    });
    let (l12, l16) = (f64::from(v12) + 1.0, f64::from(v16) + 1.0);
    let a = ((l16 / l12).log2() / 4.0).clamp(0.0, 1.0);
    let layers = l16 * (m / 65536.0).max(1.0).powf(a);
    // the blocked mex's marks cover the values seen, 32 at a time: large values slow it
    let blocked = blocked * (layers / 1600.0).max(1.0);
    if layers >= f64::from(u16::MAX) {
        return (f64::INFINITY, blocked);
    }
    let top = (max + 1).next_power_of_two().max(1 << 12);
    let lg = f64::from(top.trailing_zeros());
    // a level whose blocks are 2^j times the largest product's half costs 2^j levels
    let cut = top
        .trailing_zeros()
        .saturating_sub(LAYER_FFT_MAX.trailing_zeros());
    let extra: f64 = (1..=cut).map(|j| f64::from((1u32 << j) - 1)).sum();
    let layered = layers * m * lg * (lg + extra) * 2e-10;
    (layered, blocked)
}

/// Bytes of the layer engine over 0..=max at its peak (measured here: primes to 10^8,
/// 7.5 GB): the u16 table and its narrowed copy, bit sets over the top block (three per
/// worker and two more), the move set's spectra (16 bytes a point, all sizes) and per worker
/// FFT buffers and plans (about 48 bytes a point of the largest product).
fn layered_memory(max: u64) -> u64 {
    let n = max.saturating_add(1);
    let top = n
        .checked_next_power_of_two()
        .unwrap_or(u64::MAX)
        .max(1 << 12);
    let workers = rayon::current_num_threads() as u64;
    let fft = top.min(LAYER_FFT_MAX as u64);
    n.saturating_mul(3)
        .saturating_add((top / 8).saturating_mul(3 * workers + 2))
        .saturating_add(fft * 16)
        .saturating_add(fft.saturating_mul(48 * workers))
}

/// Seconds for the misère nim-values of a one-heap game over 0..=max: one walk over every
/// option, about 3e8 options a second here (`sub{1,2,3}` to 1e8: 1.5 s; squares to 1e6:
/// 2.5 s), plus the option lists' building, N / 5e7.
fn misere_mex_seconds(game: &Game, max: u64) -> f64 {
    let m = max as f64;
    m * moves_per_heap(game, max) / 3e8 + m / 5e7
}

/// The average number of moves from a heap of 0..=max (an estimate, for the cost of walks
/// over every option).
fn moves_per_heap(game: &Game, max: u64) -> f64 {
    let m = max as f64;
    match game {
        Game::Subtraction {
            set: MoveSet::AllBut { excluded },
            ..
        } => (m / 2.0 - excluded.len() as f64).max(1.0),
        Game::Subtraction { set, .. } if set.is_finite() => set.count_upto_estimate(max) as f64,
        Game::Subtraction { set, .. } => set.count_upto_estimate(max) as f64 / 2.0,
        Game::Divisors { .. } => m.max(2.0).ln(),
        Game::Interval { bound, .. } => bound.f(max).min(max) as f64 / 2.0,
        Game::NonDivisors => m / 2.0,
        Game::Rule(p) => p.tried(max) as f64 / 2.0,
        Game::Union(parts) => parts.iter().map(|g| moves_per_heap(g, max)).sum(),
        Game::Misere(g) => moves_per_heap(g, max),
        Game::TakeBreak(_) | Game::GrundyGame | Game::Ruleset(_) => m,
    }
}

/// Seconds for the canonical misère forms of a take-and-break game's heaps 0..=max. The
/// forms of a heap are sums of the smaller heaps' forms, whose number grows about
/// geometrically with the heap once the game is wild (Kayles: heap 40 in 0.06 s, 50 in
/// 0.23 s, 60 in 1.9 s, 75 in a minute; Dawson's Kayles and Grundy's game reach about 130 in
/// a minute). So a pilot run of the engine itself, stopped after 0.3 s, times every heap it
/// finishes; beyond it, each heap's time is extrapolated geometrically from a least-squares
/// fit of the logarithms of the last 16 heaps' times (a ratio kept between 1 and 3 a heap).
/// Pilots are run once per game and process. The estimate moves with the machine's load.
fn canonical_seconds(game: &Game, max: u64) -> f64 {
    static PILOTS: Pilots<Vec<f64>> = std::sync::Mutex::new(Vec::new());
    let done = pilot_once(&PILOTS, game, || canonical_pilot(game));
    // done[i]: seconds when heap i was finished
    let Some(&last) = done.last() else {
        return f64::INFINITY;
    };
    let n = done.len() as u64;
    if max < n {
        return done[max as usize];
    }
    // each heap's own time, and the growth of the last ones by a least-squares line through
    // their logarithms (one heap's time is noisy; the trend is not)
    let cost: Vec<f64> = (0..done.len())
        .map(|i| (done[i] - if i == 0 { 0.0 } else { done[i - 1] }).max(1e-6))
        .collect();
    let tail = &cost[cost.len().saturating_sub(16)..];
    let k = tail.len() as f64;
    let (ratio, base) = if tail.len() < 3 {
        (2.0, *tail.last().unwrap_or(&1e-6))
    } else {
        let xm = (k - 1.0) / 2.0;
        let ym = tail.iter().map(|c| c.ln()).sum::<f64>() / k;
        let (mut sxy, mut sxx) = (0.0, 0.0);
        for (x, c) in tail.iter().enumerate() {
            sxy += (x as f64 - xm) * (c.ln() - ym);
            sxx += (x as f64 - xm).powi(2);
        }
        let slope = sxy / sxx;
        (
            slope.exp().clamp(1.0, 3.0),
            (ym + slope * (k - 1.0 - xm)).exp(),
        )
    };
    let more = (max - n + 1) as f64;
    let rest = if ratio <= 1.0 + 1e-9 {
        base * more
    } else {
        base * ratio * (ratio.powf(more) - 1.0) / (ratio - 1.0)
    };
    last + rest
}

/// The pilot run of [`canonical_seconds`]: the time at which each heap was finished, until
/// 0.3 s have passed (or heap 2^16).
fn canonical_pilot(game: &Game) -> Vec<f64> {
    let Some(br) = Breaker::of(game) else {
        return vec![0.0];
    };
    let start = std::time::Instant::now();
    let times = std::sync::Mutex::new(Vec::<f64>::new());
    let watch = |done: u64, _total: u64| {
        let t = start.elapsed().as_secs_f64();
        let mut v = times.lock().unwrap_or_else(|e| e.into_inner());
        while (v.len() as u64) < done {
            v.push(t);
        }
        if t > 0.3 {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    };
    let _ = crate::misere::canon::take_break_misere(&br, 1 << 16, &watch);
    let v = times.into_inner().unwrap_or_else(|e| e.into_inner());
    if v.is_empty() {
        vec![start.elapsed().as_secs_f64()]
    } else {
        v
    }
}

/// The P-positions of the subtraction set `set` in 0..=max, estimated: the count to
/// min(max, 2^16) by the sieve, extended by the power law of the counts at half of that
/// and all of it (exponent kept between 0 and 1).
fn pilot_p_count(set: &MoveSet, leave1: bool, max: u64) -> f64 {
    let pilot = max.min(1 << 16);
    let p = p_positions(ListMoves::new(set.elements_upto(pilot)), pilot, leave1);
    if pilot < 1 << 12 {
        return p.len() as f64 * (max as f64 / pilot.max(1) as f64);
    }
    let half = p.partition_point(|&x| x <= pilot / 2).max(1) as f64;
    let full = p.len().max(1) as f64;
    let a = (full / half).log2().clamp(0.0, 1.0);
    full * (max as f64 / pilot as f64).powf(a)
}

/// A pilot run of the sparse-space engine: the largest size run, its seconds, the growth
/// exponent of the time between the last two sizes, and whether a period was proven.
#[derive(Debug, Clone, Copy)]
struct Pilot {
    n: u64,
    secs: f64,
    alpha: f64,
    periodic: bool,
}

/// Estimated seconds for the Grundy values of a take-and-break game over 0..=max, from
/// pilot runs of the engine itself at 1024, 2048, … positions until one takes 0.25 s (or
/// the next would pass a second, or 2^20 is reached): the last run's time, extrapolated as n^α. The exponent is the smaller of
/// the growth of the last two runs' times and what the engine's structure says — a
/// position costs O(#rare positions) with a mask and O(n) without one (the plain scan),
/// and one more factor n^β where the values grow like n^β (the rows of value bits grow
/// with them; counted when the values reach n/16), #rare and the values compared between
/// the last two runs — kept between 1 and 3. Once a pilot proves a period (Guy–Smith) the rest is copied, about 2 ns a
/// position. Pilots are run once per game and process.
fn sparse_seconds(game: &Game, max: u64) -> f64 {
    // small tables need no pilot: the plain scan's worst case, n²/2 pairs for each digit
    // that splits (two heaps; three heaps cost a factor n more), at 1e9 pairs a second
    if max <= SPARSE_NO_PILOT {
        let (splits, three) = match game {
            Game::TakeBreak(code) => (
                code.digits.iter().filter(|&&d| d & 12 != 0).count(),
                code.digits.iter().any(|&d| d & 8 != 0),
            ),
            _ => (1, false),
        };
        let m = max as f64;
        let pairs = m * m / 2.0 * (splits.max(1) as f64) * if three { m / 6.0 } else { 1.0 };
        return pairs * 1e-9;
    }
    static PILOTS: Pilots<Pilot> = std::sync::Mutex::new(Vec::new());
    let p = pilot_once(&PILOTS, game, || sparse_pilot(game));
    let ratio = max as f64 / p.n as f64;
    if p.periodic {
        p.secs + max as f64 * 2e-9
    } else if ratio <= 1.0 {
        p.secs * ratio
    } else {
        p.secs * ratio.powf(p.alpha)
    }
}

/// Tables of take-and-break games up to this N are estimated without a pilot run.
const SPARSE_NO_PILOT: u64 = 1 << 14;

/// The pilot runs of [`sparse_seconds`].
fn sparse_pilot(game: &Game) -> Pilot {
    let br = match game {
        Game::TakeBreak(code) => Breaker::from_code(code),
        Game::GrundyGame => Breaker::grundy_game(),
        Game::Subtraction { .. }
        | Game::Divisors { .. }
        | Game::Interval { .. }
        | Game::NonDivisors
        | Game::Rule(_)
        | Game::Union(_)
        | Game::Misere(_)
        | Game::Ruleset(_) => {
            return Pilot {
                n: 1,
                secs: 0.0,
                alpha: 1.0,
                periodic: true,
            }
        }
    };
    // (n, seconds, rare positions, largest value, mask in use)
    let mut prev: Option<(u64, f64, u64, u32, bool)> = None;
    let mut n = 1024u64;
    loop {
        let t = std::time::Instant::now();
        let mut watch = Watch::start(&crate::observe::Silent, n + 1).expect("never stops");
        let (g, stats) = take_break_grundy(&br, n, &mut watch).expect("never stops");
        let secs = t.elapsed().as_secs_f64().max(1e-6);
        if stats.period.is_some() {
            return Pilot {
                n,
                secs,
                alpha: 1.0,
                periodic: true,
            };
        }
        let maxv = g.iter().copied().max().unwrap_or(0);
        let now = (n, secs, stats.rare, maxv, stats.mask.is_some());
        // the next run would take about secs² / (the previous run's): stop before it
        // passes a second
        let next = prev.map_or(0.0, |p| secs * secs / p.1);
        if secs >= 0.25 || next > 1.0 || n >= 1 << 20 {
            let alpha = prev.map_or(1.0, |(pn, ps, pr, pv, _)| {
                let grow = |a: f64, b: f64| {
                    ((b.max(1.0) / a.max(1.0)).ln() / (n as f64 / pn as f64).ln()).clamp(0.0, 1.0)
                };
                // values far below n (most games: a few hundred) cost nothing that grows
                let values = if u64::from(maxv) >= n / 16 {
                    grow(f64::from(pv), f64::from(maxv))
                } else {
                    0.0
                };
                let per_position = if now.4 {
                    grow(pr as f64, now.2 as f64)
                } else {
                    1.0
                };
                // each alone can overstate the growth (the timings in a transient, the
                // structure where the bulk pipeline absorbs it): the smaller one counts
                let timed = (secs / ps).ln() / (n as f64 / pn as f64).ln();
                // the plain scan (no mask) reads about n/2 pairs a position: quadratic
                // at least, whatever small runs' overheads suggest
                let floor = if now.4 { 1.0 } else { 2.0 };
                timed.min(1.0 + per_position + values).clamp(floor, 3.0)
            });
            return Pilot {
                n,
                secs,
                alpha,
                periodic: false,
            };
        }
        prev = Some(now);
        n *= 2;
    }
}

/// Segment length (bits) of the squares sieve up to `max`: about 128·√max rounded up to a
/// power of two, between 2^19 and 2^22. Eight successive squares near max span 16·√max, so
/// the old-marks kernel's groups of moves keep a shared window core (one read, eight marks)
/// when the segment is several spans long; beyond 2^22 bits the segment and the workers'
/// copies leave L2. Measured on 2 cores at N = 1e9: 25.1 s with 2^19, 22.6 s with 2^21,
/// 20.4 s with 2^22, 22.1 s with 2^23.
pub fn square_segment_bits(max: u64) -> u64 {
    (128 * crate::num::isqrt(max))
        .next_power_of_two()
        .clamp(DEFAULT_SEGMENT_BITS, 1 << 22)
}

/// The number of P-positions in 0..=max and the largest, without listing them, where the
/// family has a way: `upto{k}` (an arithmetic progression) and `sqrt` (closed form), O(1)
/// both, and finite subtraction sets with an outcome period found within 2^24 positions.
/// `None` for every other game.
pub fn count_p_positions(game: &Game, max: u64) -> Option<PCount> {
    let game = &*game.normalized();
    match game {
        Game::Misere(inner) => match &**inner {
            Game::Subtraction {
                set: MoveSet::Union { named, finite },
                leave1,
            } if named.is_empty() && !finite.is_empty() => {
                finite_p_count_played(finite, *leave1, true, max)
            }
            _ => None,
        },
        Game::Interval { bound, leave1 } => {
            let ig = IntervalGame {
                bound: *bound,
                leave1: *leave1,
            };
            let (count, largest) = ig.count_upto(max)?;
            Some(PCount {
                count,
                largest: Some(largest),
                method: ig.closed_form().unwrap_or_default().into(),
            })
        }
        Game::Subtraction {
            set: MoveSet::Union { named, finite },
            leave1,
        } if named.is_empty() && !finite.is_empty() => {
            finite_p_count_played(finite, *leave1, false, max)
        }
        Game::Subtraction { .. }
        | Game::Divisors { .. }
        | Game::TakeBreak(_)
        | Game::GrundyGame
        | Game::NonDivisors
        | Game::Rule(_)
        | Game::Union(_)
        | Game::Ruleset(_) => None,
    }
}

/// The number of P-positions in 0..=max, exact where [`count_p_positions`] knows it, else
/// estimated for interval games; `None` where it cannot be told in advance (sieve games are
/// bounded by their work instead).
pub fn p_count_estimate(game: &Game, max: u64) -> Option<f64> {
    let game = &*game.normalized();
    if let Some(c) = count_p_positions(game, max) {
        return Some(c.count as f64);
    }
    match game {
        // misère P-positions: about as many as in normal play
        Game::Misere(inner) => p_count_estimate(inner, max),
        Game::Interval { bound, leave1 } => Some(
            IntervalGame {
                bound: *bound,
                leave1: *leave1,
            }
            .p_count_estimate(max),
        ),
        Game::Subtraction { .. }
        | Game::Divisors { .. }
        | Game::TakeBreak(_)
        | Game::GrundyGame
        | Game::NonDivisors
        | Game::Rule(_)
        | Game::Union(_)
        | Game::Ruleset(_) => None,
    }
}

/// g(0..=max) for `game`, by the engine [`Engine::of`] names, in the narrowest unsigned type
/// that holds the values. No budget check (see [`plan`]).
///
/// # Errors
/// [`Error::TooLarge`] when the table cannot be addressed; [`Error::OutOfMemory`] when its
/// memory cannot be allocated; [`Error::Cancelled`] when `obs` stops the run.
pub fn grundy_table(game: &Game, max: u64, obs: &dyn Observer) -> Result<GrundyTable, Error> {
    let game = &*game.normalized();
    grundy_fits(game, max)?;
    let watch = &mut Watch::start(obs, max + 1)?;
    let g = match game {
        Game::Subtraction {
            set: MoveSet::AllBut { excluded },
            leave1,
        } => all_but_grundy(excluded, *leave1, max, watch)?,
        Game::Subtraction { set, leave1 } => {
            let moves = set.elements_upto(max);
            if set.is_finite() {
                finite_set_grundy(&moves, *leave1, max, watch)?
            } else if let Some(g) = match Engine::for_size(game, Task::Grundy, max) {
                Engine::LayeredMex => layered_grundy(&moves, *leave1, max, watch)?,
                _ => blocked_mex_grundy(&moves, *leave1, max, watch)?,
            } {
                return Ok(GrundyTable::from_u16(g));
            } else {
                // a value reached 65535: the plain mex has no such limit
                list_mex_grundy(&moves, *leave1, max, watch)?
            }
        }
        Game::Divisors { nontrivial } => divisor_grundy(*nontrivial, max, watch)?,
        Game::Interval { bound, leave1 } => IntervalGame {
            bound: *bound,
            leave1: *leave1,
        }
        .grundy(max, watch)?,
        Game::TakeBreak(code) => take_break_grundy(&Breaker::from_code(code), max, watch)?.0,
        Game::GrundyGame => take_break_grundy(&Breaker::grundy_game(), max, watch)?.0,
        Game::Ruleset(r) => r.grundy(max, u64::MAX, watch)?,
        Game::NonDivisors | Game::Rule(_) | Game::Union(_) => {
            crate::misere::option_mex(game, false, max, watch)?.ok_or_else(|| {
                Error::Unsupported {
                    what: format!("a Grundy table of {game}"),
                }
            })?
        }
        Game::Misere(inner) => match crate::misere::option_mex(inner, true, max, watch)? {
            Some(v) => v,
            None => {
                let br = Breaker::of(inner).ok_or_else(|| Error::Unsupported {
                    what: format!("misère play of {inner}"),
                })?;
                if max > CANONICAL_MAX {
                    return Err(Error::TooLarge {
                        what: "canonical misère forms",
                        n: max,
                        limit: CANONICAL_MAX,
                    });
                }
                let (_, heaps) = crate::misere::canon::take_break_misere(&br, max, obs)?;
                heaps.iter().map(|h| h.misere_value).collect()
            }
        },
    };
    Ok(GrundyTable::from_u32(g))
}

/// Can a Grundy table of `game` over 0..=max be addressed ([`Error::TooLarge`]) and its
/// estimated memory allocated ([`Error::OutOfMemory`])?
fn grundy_fits(game: &Game, max: u64) -> Result<(), Error> {
    if max > GRUNDY_MAX {
        return Err(Error::TooLarge {
            what: "a Grundy table",
            n: max,
            limit: GRUNDY_MAX,
        });
    }
    let bytes = memory_estimate(game, Task::Grundy, max);
    if !crate::engines::mem::can_allocate(bytes) {
        return Err(Error::OutOfMemory {
            what: "a Grundy table",
            bytes,
        });
    }
    Ok(())
}

/// Can [`grundy_table_after`] continue a Grundy table of `game`? True for take-and-break
/// codes, Grundy's game and subtraction games with a finite or named (not all-but) move
/// set, in normal play: the games whose engines extend a table of values.
pub fn grundy_resumable(game: &Game) -> bool {
    match &*game.normalized() {
        Game::TakeBreak(_) | Game::GrundyGame => true,
        Game::Subtraction { set, .. } => !matches!(set, MoveSet::AllBut { .. }),
        _ => false,
    }
}

/// Does [`grundy_table_after`] extend a saved table of `game` to `max` at the cost of the
/// new positions only? False when the engine for that size ([`Engine::for_size`]) is the
/// layer engine, which makes the whole table again (a caller saving a long run then saves
/// at powers of two only, so the work at most doubles); also false when `game` is not
/// [`grundy_resumable`] at all.
pub fn grundy_continues(game: &Game, max: u64) -> bool {
    grundy_resumable(game) && Engine::for_size(game, Task::Grundy, max) != Engine::LayeredMex
}

/// The Grundy table 0..=max of `game` continuing `done`, its values 0..done.len() as an
/// earlier [`grundy_table`] or [`grundy_table_after`] left them (a long run computed in
/// segments, saved between them, resumed after a restart). Equal to [`grundy_table`]
/// when `done` is right; the caller vouches for it (a saved table it checked).
///
/// # Errors
/// [`Error::Unsupported`] when `game` is not [`grundy_resumable`]; the errors of
/// [`grundy_table`] (size, memory, a stop by `obs`).
pub fn grundy_table_after(
    game: &Game,
    done: GrundyTable,
    max: u64,
    obs: &dyn Observer,
) -> Result<GrundyTable, Error> {
    let game = &*game.normalized();
    if !grundy_resumable(game) {
        return Err(Error::Unsupported {
            what: format!("continuing a saved Grundy table of {game} (take-and-break and subtraction games can)"),
        });
    }
    grundy_fits(game, max)?;
    // (positions are reported as they are numbered: the run looks like one from 0)
    let watch = &mut Watch::start(obs, max + 1)?;
    let g = match game {
        Game::TakeBreak(code) => {
            // (the saved table goes before the engine grows the working one)
            let prefix = done.to_u32_vec();
            drop(done);
            take_break_grundy_continue(&Breaker::from_code(code), prefix, max, watch)?.0
        }
        Game::GrundyGame => {
            let prefix = done.to_u32_vec();
            drop(done);
            take_break_grundy_continue(&Breaker::grundy_game(), prefix, max, watch)?.0
        }
        Game::Subtraction { set, leave1 } => {
            let moves = set.elements_upto(max);
            if set.is_finite() {
                finite_set_grundy_after(&moves, *leave1, done.to_u32_vec(), max, watch)?
            } else if let Some(g) = match grundy_continues(game, max) {
                // (the layer engine starts from 0: the saved values are made again)
                false => layered_grundy(&moves, *leave1, max, watch)?,
                true => None,
            } {
                return Ok(GrundyTable::from_u16(g));
            } else {
                let narrow: Option<Vec<u16>> = match &done {
                    GrundyTable::U8(v) => Some(v.iter().map(|&x| u16::from(x)).collect()),
                    GrundyTable::U16(v) => Some(v.clone()),
                    GrundyTable::U32(_) => None,
                };
                let fast = match narrow {
                    Some(v) => blocked_mex_grundy_after(&moves, *leave1, &v, max, watch)?,
                    None => None,
                };
                match fast {
                    Some(g) => return Ok(GrundyTable::from_u16(g)),
                    None => list_mex_grundy_after(&moves, *leave1, done.to_u32_vec(), max, watch)?,
                }
            }
        }
        _ => unreachable!("checked by grundy_resumable"),
    };
    Ok(GrundyTable::from_u32(g))
}

/// The outcome table 0..=max (bit set = N-position) from the family's P-position stream.
/// No budget check (see [`plan`]).
///
/// # Errors
/// As [`open_stream`].
pub fn outcome_table(game: &Game, max: u64, obs: &dyn Observer) -> Result<OutcomeTable, Error> {
    let game = &*game.normalized();
    if max > BITS_MAX {
        return Err(Error::TooLarge {
            what: "an outcome table",
            n: max,
            limit: BITS_MAX,
        });
    }
    // P-positions are marked in a zeroed table (its pages are only touched where marked),
    // then every bit is flipped: set = N-position.
    let bytes = memory_estimate(game, Task::Outcomes, max);
    if !crate::engines::mem::can_allocate(bytes) {
        return Err(Error::OutOfMemory {
            what: "an outcome table",
            bytes,
        });
    }
    let len = max as usize + 1;
    let mut lose: BitVec<u64, Lsb0> = BitVec::from_vec(vec![0u64; len.div_ceil(64)]);
    lose.truncate(len);
    let mut s = open_stream(game, max, obs)?;
    let watch = &mut Watch::start(obs, max + 1)?;
    let mut out = Vec::new();
    while s.advance(&mut out) {
        for &p in &out {
            lose.set(p as usize, true);
        }
        out.clear();
        watch.at(s.done())?;
    }
    Ok(OutcomeTable::from_bits(!lose))
}

/// The outcome table and, when asked (or when the family computes outcomes through it
/// anyway), the Grundy table of 0..=max, after [`plan`] has accepted them within `budget`.
/// N is at most 2^40 - 1 (a table in memory).
///
/// # Errors
/// As [`plan`], [`grundy_table`] and [`outcome_table`].
pub fn tables(
    game: &Game,
    max: u64,
    want_grundy: bool,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<(OutcomeTable, Option<GrundyTable>), Error> {
    let game = &*game.normalized();
    const LIMIT: u64 = (1 << 40) - 1;
    if max > LIMIT {
        return Err(Error::TooLarge {
            what: "a table in memory (P-position streams need none)",
            n: max,
            limit: LIMIT,
        });
    }
    let via_grundy = want_grundy
        || matches!(
            Engine::of(game, Task::Outcomes),
            Engine::GrundyTable | Engine::CanonicalForms
        );
    if via_grundy {
        let p = plan(game, Task::Grundy, max, budget)?;
        budget.check_memory(
            || format!("a table of {} positions", max as u128 + 1),
            p.memory.saturating_add(max / 8 + 1),
        )?;
        obs.planned(&p);
        let g = grundy_table(game, max, obs)?;
        let o = g.outcomes();
        Ok((o, want_grundy.then_some(g)))
    } else {
        let p = plan(game, Task::Outcomes, max, budget)?;
        obs.planned(&p);
        Ok((outcome_table(game, max, obs)?, None))
    }
}

/// Everything needed to resume a P-position stream: the game and N it was opened for, the
/// P-positions emitted so far (how many, and the last) and the engine's state.
/// Serialisable; the caller stores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The game's canonical spec.
    pub game: String,
    /// N.
    pub max: u64,
    /// P-positions emitted so far.
    pub count: u64,
    /// The last of them.
    pub last: Option<u64>,
    /// The engine's state.
    pub state: StreamState,
}

/// The P-positions of a game over 0..=N in increasing order, a segment at a time, by the
/// family's fastest engine, resumable from a [`Checkpoint`].
pub struct PPositionStream {
    game: Game,
    max: u64,
    engine: Box<dyn PStream>,
    last: Option<u64>,
}

impl PPositionStream {
    /// Decides the next segment, appending its P-positions (increasing) to `out`. Returns
    /// false once every position up to N is decided (and then appends nothing).
    pub fn advance(&mut self, out: &mut Vec<u64>) -> bool {
        let before = out.len();
        let more = self.engine.advance(out);
        if out.len() > before {
            self.last = out.last().copied();
        }
        more
    }

    /// Every position below this is decided (N + 1 at the end).
    pub fn done(&self) -> u64 {
        self.engine.done()
    }

    /// P-positions emitted so far.
    pub fn count(&self) -> u64 {
        self.engine.count()
    }

    /// The last P-position emitted.
    pub fn last(&self) -> Option<u64> {
        self.last
    }

    /// N.
    pub fn max(&self) -> u64 {
        self.max
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The engine's name for reports (`segmented sieve`, `jump-ahead`, …).
    pub fn method(&self) -> &'static str {
        self.engine.method()
    }

    /// The state to save, to resume with [`resume_stream`].
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            game: self.game.to_string(),
            max: self.max,
            count: self.count(),
            last: self.last,
            state: self.engine.state(),
        }
    }
}

/// Every P-position of `game` in 0..=max, increasing, in memory: the fastest stream
/// ([`open_stream`]) collected, after [`plan`] has accepted the run within `budget` and,
/// where their number can be told in advance ([`p_count_estimate`]), the list's 8 bytes a
/// P-position fit in its memory.
///
/// # Errors
/// As [`plan`] and [`open_stream`]; [`Error::Cancelled`] when `obs` stops the run.
pub fn p_position_list(
    game: &Game,
    max: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<Vec<u64>, Error> {
    let game = &*game.normalized();
    let p = plan(game, Task::PPositions, max, budget)?;
    if let Some(count) = p_count_estimate(game, max) {
        let bytes = (count * 8.0).min(u64::MAX as f64) as u64;
        budget.check_memory(
            || format!("a list of {count:.0} P-positions"),
            p.memory.saturating_add(bytes),
        )?;
    }
    obs.planned(&p);
    let mut out = Vec::new();
    run_stream(game, max, obs, |segment| out.append(segment))?;
    Ok(out)
}

/// Runs the fastest P-position stream of `game` over 0..=max to its end, observed by `obs`
/// (progress, cancellation), handing each segment's P-positions (increasing) to `each`,
/// which may take them. Returns the stream's method (`segmented sieve`, …).
///
/// # Errors
/// As [`open_stream`]; [`Error::Cancelled`] when `obs` stops the run.
pub(crate) fn run_stream(
    game: &Game,
    max: u64,
    obs: &dyn Observer,
    mut each: impl FnMut(&mut Vec<u64>),
) -> Result<&'static str, Error> {
    let mut s = open_stream(game, max, obs)?;
    let watch = &mut Watch::start(obs, max.saturating_add(1))?;
    let mut segment = Vec::new();
    loop {
        let more = s.advance(&mut segment);
        each(&mut segment);
        segment.clear();
        if !more {
            return Ok(s.method());
        }
        watch.at(s.done())?;
    }
}

/// Opens the fastest P-position stream for `game` over 0..=max. Families whose
/// P-positions come from a Grundy table build it here (observed by `obs`).
///
/// # Errors
/// [`Error::TooLarge`] when max is beyond what the family's engine can address;
/// [`Error::Cancelled`] when `obs` stops a table build.
pub fn open_stream(game: &Game, max: u64, obs: &dyn Observer) -> Result<PPositionStream, Error> {
    stream_from(game, max, None, obs)
}

/// Reopens the stream a [`Checkpoint`] was taken from, where it stopped.
///
/// # Errors
/// [`Error::BadState`] for a checkpoint whose game does not parse or whose state belongs
/// to another engine; as [`open_stream`].
pub fn resume_stream(cp: Checkpoint, obs: &dyn Observer) -> Result<PPositionStream, Error> {
    let game = Game::parse(&cp.game).map_err(|e| Error::BadState {
        reason: format!("names no game: {e}"),
    })?;
    let last = cp.last;
    let mut s = stream_from(&game, cp.max, Some(&cp), obs)?;
    s.last = last;
    Ok(s)
}

fn stream_from(
    game: &Game,
    max: u64,
    resume: Option<&Checkpoint>,
    obs: &dyn Observer,
) -> Result<PPositionStream, Error> {
    let game = &*game.normalized();
    let engine = engine_stream(game, max, resume, obs)?;
    Ok(PPositionStream {
        game: game.clone(),
        max,
        engine,
        last: None,
    })
}

fn bad(what: &str) -> Error {
    Error::BadState {
        reason: format!("is not a {what} state"),
    }
}

/// The engine that streams `game`'s P-positions over 0..=max, resumed from `resume` after
/// its state is checked against the rule ([`crate::resume`]).
fn engine_stream(
    game: &Game,
    max: u64,
    resume: Option<&Checkpoint>,
    obs: &dyn Observer,
) -> Result<Box<dyn PStream>, Error> {
    let state = resume.map(|cp| &cp.state);
    // Misère play runs the same engines with another base case: the heaps without a move
    // (those below `terminal` where they form a prefix) are N-positions.
    let misere = matches!(game, Game::Misere(_));
    let whole = game;
    let game = game.under_normal_play();
    let terminal = if misere {
        crate::misere::first_move(game).unwrap_or(0)
    } else {
        0
    };
    match game {
        Game::Interval { bound, leave1 } => {
            let game = IntervalGame {
                bound: *bound,
                leave1: *leave1,
            };
            let (last, count) = match (state, resume) {
                (None, _) | (_, None) => (None, 0),
                (Some(StreamState::Jump { last, count }), Some(cp)) => {
                    crate::resume::jump(&game, terminal, *last, *count, cp)?;
                    (*last, *count)
                }
                (Some(_), _) => return Err(bad("jump-ahead")),
            };
            Ok(Box::new(JumpStream::new(game, terminal, max, last, count)))
        }
        Game::Subtraction {
            set: MoveSet::AllBut { excluded },
            leave1,
        } => {
            let list: Vec<u64> = all_but_p_positions_played(excluded, *leave1, misere)
                .into_iter()
                .filter(|&p| p <= max)
                .collect();
            list_stream(list, max, resume, "all-but candidates")
        }
        Game::Subtraction { set, leave1 } => {
            if max > MAX_SIEVE_N {
                return Err(Error::TooLarge {
                    what: "the sieve",
                    n: max,
                    limit: MAX_SIEVE_N,
                });
            }
            if let Some(k) = set.max_finite() {
                let moves: Vec<u64> = set.elements_upto(k.min(max));
                let resume = match (state, resume) {
                    (None, _) | (_, None) => None,
                    (Some(StreamState::Window { lo, marks, count }), Some(cp)) => {
                        crate::resume::window(&moves, *leave1, misere, *lo, marks, *count, cp)?;
                        Some((*lo, marks.clone(), *count))
                    }
                    (Some(_), _) => return Err(bad("window")),
                };
                return Ok(Box::new(WindowStream::new(
                    moves, *leave1, terminal, max, resume,
                )));
            }
            let saved = match (state, resume) {
                (None, _) | (_, None) => None,
                (Some(StreamState::Sieve(s)), Some(cp)) => Some((s, cp)),
                (Some(_), _) => return Err(bad("sieve")),
            };
            if *set == MoveSet::named(NamedSet::Squares) {
                let (m, seg) = (SquareMoves::new(max), square_segment_bits(max));
                return Ok(Box::new(SieveStream(match saved {
                    Some((s, cp)) => {
                        let sieve = SetSieve::resume(m, max, *leave1, seg, s.clone())?;
                        crate::resume::sieve(sieve.moves(), *leave1, terminal, s, cp)?;
                        sieve.misere(terminal)
                    }
                    None => SetSieve::new(m, max, *leave1, seg).misere(terminal),
                })));
            }
            let moves = set.elements_upto(max);
            if moves.len() >= u32::MAX as usize {
                return Err(Error::TooManyMoves {
                    count: moves.len() as u64,
                    n: max,
                    limit: u32::MAX as u64 - 1,
                });
            }
            let (m, seg) = (ListMoves::new(moves), DEFAULT_SEGMENT_BITS);
            Ok(Box::new(SieveStream(match saved {
                Some((s, cp)) => {
                    let sieve = SetSieve::resume(m, max, *leave1, seg, s.clone())?;
                    crate::resume::sieve(sieve.moves(), *leave1, terminal, s, cp)?;
                    sieve.misere(terminal)
                }
                None => SetSieve::new(m, max, *leave1, seg).misere(terminal),
            })))
        }
        g @ (Game::Divisors { .. } | Game::NonDivisors | Game::Rule(_) | Game::Union(_)) => {
            if max > BITS_MAX {
                return Err(Error::TooLarge {
                    what: "a bit table",
                    n: max,
                    limit: BITS_MAX,
                });
            }
            let resume = match (state, resume) {
                (None, _) | (_, None) => None,
                (Some(StreamState::Divisors { lo, win, count }), Some(cp)) => {
                    if *lo > max.saturating_add(1) || (win.len() as u64).saturating_mul(64) < *lo {
                        return Err(Error::BadState {
                            reason: "holds fewer outcome bits than it says".into(),
                        });
                    }
                    let moves = |x: u64| g.moves_of(x).unwrap_or_default();
                    crate::resume::pulled(moves, misere, *lo, win, *count, cp)?;
                    Some((*lo, win.clone(), *count))
                }
                (Some(_), _) => return Err(bad("pull")),
            };
            Ok(Box::new(match g {
                Game::Divisors { nontrivial } => {
                    DivisorStream::new(*nontrivial, misere, max, resume)
                }
                _ => DivisorStream::new(false, misere, max, resume).listed(g.clone()),
            }))
        }
        Game::Ruleset(crate::game::Ruleset::Seed(s)) => {
            let mut watch = Watch::start(obs, max + 1)?;
            let win = s.outcomes(max, |n| s.game.moves_of(n).unwrap_or_default(), &mut watch)?;
            let list: Vec<u64> = (0..=max).filter(|&n| !win[n as usize]).collect();
            list_stream(list, max, resume, "prescribed start, then the moves")
        }
        Game::TakeBreak(_) | Game::GrundyGame | Game::Misere(_) | Game::Ruleset(_) => {
            // the zeros of the (misère) value table
            let g = grundy_table(whole, max, obs)?;
            let list: Vec<u64> = g.outcomes().p_positions().collect();
            let method = if misere {
                "canonical misère forms"
            } else {
                "grundy table"
            };
            list_stream(list, max, resume, method)
        }
    }
}

fn list_stream(
    list: Vec<u64>,
    max: u64,
    resume: Option<&Checkpoint>,
    method: &'static str,
) -> Result<Box<dyn PStream>, Error> {
    let next = match resume {
        None => 0,
        Some(cp) => match cp.state {
            StreamState::List { next } => {
                crate::resume::list(&list, next, cp)?;
                next
            }
            _ => return Err(bad("list")),
        },
    };
    Ok(Box::new(ListStream::new(list, max, next as usize, method)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observe::Silent;
    use crate::rule::{grundy_by_definition, outcome_by_definition};

    fn collect(game: &Game, max: u64) -> Vec<u64> {
        let mut s = open_stream(game, max, &Silent).unwrap();
        let mut out = vec![];
        while s.advance(&mut out) {}
        assert_eq!(s.count(), out.len() as u64);
        assert!(s.done() > max);
        assert_eq!(s.last(), out.last().copied());
        out
    }

    #[test]
    fn finite_counts_from_the_period_equal_the_stream() {
        for spec in [
            "sub{1,2,3}",
            "sub{2,5,7}",
            "sub{1,3,4}",
            "leave1(sub{1,2,6})",
            "sub{3,8,19,20}",
        ] {
            let g = Game::parse(spec).unwrap();
            let ps = collect(&g, 50_000);
            for max in [0u64, 1, 7, 100, 4321, 50_000] {
                let c = count_p_positions(&g, max).unwrap();
                let upto: Vec<u64> = ps.iter().copied().filter(|&p| p <= max).collect();
                assert_eq!(c.count, upto.len() as u64, "{spec} {max}");
                assert_eq!(c.largest, upto.last().copied(), "{spec} {max}");
            }
        }
        // sub{1,2,3}: the multiples of 4.
        let c = count_p_positions(&Game::parse("sub{1,2,3}").unwrap(), 1_000_000_000_000).unwrap();
        assert_eq!(
            (c.count, c.largest),
            (250_000_000_001, Some(1_000_000_000_000))
        );
        assert!(count_p_positions(&Game::parse("squares").unwrap(), 100).is_none());
        // a move beyond the search limit: no period search at all (was 10^12 bits of work)
        assert!(
            crate::games::finite::finite_outcome_period(&[1_000_000_000_000], false, 1 << 24)
                .is_none()
        );
        let c = count_p_positions(&Game::parse("leave1(upto{3})").unwrap(), 10).unwrap();
        assert_eq!((c.count, c.largest), (4, Some(9))); // 0, 1, 5, 9
        let c = count_p_positions(&Game::parse("sub{1,2,3}").unwrap(), 10).unwrap();
        assert_eq!((c.count, c.largest), (3, Some(8)));
        // sqrt: 0, 2, 5, 8 (closed form); half walks instead
        let c = count_p_positions(&Game::parse("sqrt").unwrap(), 10).unwrap();
        assert_eq!(
            (c.count, c.largest, c.method.as_str()),
            (4, Some(8), "closed form")
        );
        assert!(count_p_positions(&Game::parse("half").unwrap(), 10).is_none());
    }

    #[test]
    fn three_heap_estimates_count_every_digit_that_splits_in_three() {
        let one = time_estimate(&Game::parse("0.F").unwrap(), Task::Grundy, 10_000);
        let many = format!("0.{}", "F".repeat(40));
        let forty = time_estimate(&Game::parse(&many).unwrap(), Task::Grundy, 10_000);
        assert!(forty >= 39.0 * one && one > 0.0, "{one} {forty}");
    }

    #[test]
    fn time_estimates_refuse_only_hopeless_runs() {
        let g = |s: &str| Game::parse(s).unwrap();
        let t = |s: &str, task, n| time_estimate(&g(s), task, n);
        use Task::{Grundy, PPositions};
        // subtract-a-prime: about N / 6 P-positions, N / ln N moves: quadratic
        // (measured: to 3e6 in 56 s).
        assert!(t("primes", PPositions, 1_000_000_000) > TIME_LIMIT);
        let small = t("primes", PPositions, 3_000_000);
        assert!((10.0..300.0).contains(&small), "{small}");
        // squares: 0.9 n^0.7 P-positions times sqrt(n) moves (to 1e9 in 8 s).
        let sq = t("squares", PPositions, 1_000_000_000);
        assert!((2.0..40.0).contains(&sq), "{sq}");
        assert!(t("squares", PPositions, 10_000_000_000) < TIME_LIMIT);
        assert!(t("squares", Grundy, 10_000_000) < 60.0);
        // dense sets: the layer engine, its cost growing with the largest value (11 for the
        // primes to 10^8, measured 120 s; 3 with 1 added), not with the number of moves;
        // practical numbers' values grow about linearly (15231 at 10^6): no engine is fast
        let p8 = t("primes", Grundy, 100_000_000);
        assert!((30.0..600.0).contains(&p8), "{p8}");
        assert!(t("primes", Grundy, 1_000_000_000) < TIME_LIMIT);
        assert!(t("primes|sub{1}", Grundy, 1_000_000_000) < TIME_LIMIT);
        assert!(t("practical", Grundy, 1_000_000_000) > TIME_LIMIT);
        let engine = |s: &str, n| Engine::for_size(&g(s), Grundy, n);
        assert_eq!(engine("primes", 100_000_000), Engine::LayeredMex);
        assert_eq!(engine("primes|sub{1}", 1_000_000_000), Engine::LayeredMex);
        assert_eq!(engine("primes", 10_000), Engine::BlockedMex);
        assert_eq!(engine("squares", 100_000_000), Engine::BlockedMex);
        assert_eq!(engine("practical", 10_000_000), Engine::BlockedMex);
        let mem = memory_estimate(&g("primes"), Grundy, 1_000_000_000);
        assert!((4e9..20e9).contains(&(mem as f64)), "{mem}");
        // linear families
        assert!(t("sub{1,2,3}", PPositions, 10_000_000_000) < 100.0);
        // interval games: jump-ahead, one step per P-position
        assert!(t("sqrt", PPositions, 1_000_000_000_000_000) < 10.0);
        assert!(t("half", PPositions, u64::MAX) < 1.0);
        // half's Grundy values grow with n: the sliding window's mex is quadratic
        assert!(t("half", Grundy, 1_000_000_000) > 1000.0);
        // all-but sets: finitely many P-positions
        assert!(t("nim", PPositions, 1_000_000_000_000_000) < 1.0);
        // hexadecimal codes leaving three heaps are cubic
        assert!(t("0.3F", Grundy, 100_000_000) > TIME_LIMIT);
        assert!(t("0.3F", Grundy, 10_000) < 100.0);
        // take-and-break codes by pilot runs: Kayles is periodic (copied), a code of forty
        // sevens grows like n^3 (to 16384 in 31 s measured), Grundy's game about linearly
        assert!(t("0.77", Grundy, 1_000_000_000) < 60.0);
        let sevens = format!("0.{}", "7".repeat(40));
        assert!(t(&sevens, Grundy, 4_194_304) > TIME_LIMIT);
        assert!(t("grundy-game", Grundy, 1 << 20) < 600.0);
        // the plan refuses what the budget does not allow, naming the kind of limit and the
        // largest N that fits
        let b = Budget::new(1 << 30);
        match plan(&g("primes"), Task::PPositions, 1_000_000_000, &b) {
            Err(Error::Refused(Refusal::Time { most: Some(m), .. })) => {
                assert!(m < 1_000_000_000 && plan(&g("primes"), PPositions, m, &b).is_ok())
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            plan(&g("squares"), Task::Grundy, 1_000_000_000, &b),
            Err(Error::Refused(Refusal::Memory { most: Some(_), .. }))
        ));
        let p = plan(&g("squares"), Task::PPositions, 1_000_000, &b).unwrap();
        assert_eq!(p.engine, Engine::SegmentedSieve);
        let most = feasible_max(&g("squares"), Task::Grundy, &b, 1 << 40);
        assert!(plan(&g("squares"), Task::Grundy, most, &b).is_ok());
        assert!(plan(&g("squares"), Task::Grundy, most + 1, &b).is_err());
    }

    #[test]
    fn moves_beyond_max_cost_nothing() {
        // the window would be 10^12 bits if the move sized it
        let g = Game::parse("sub{1000000000000}").unwrap();
        assert_eq!(collect(&g, 10), (0..=10).collect::<Vec<_>>());
        assert!(memory_estimate(&g, Task::PPositions, 10) < 1 << 24);
        let g = Game::parse("sub{3,1000000000000}").unwrap();
        assert_eq!(collect(&g, 10), vec![0, 1, 2, 6, 7, 8]);
    }

    #[test]
    fn every_subtraction_family_matches_the_definition() {
        for spec in [
            "sub{1,2,3}",
            "sub{2,5,7}",
            "leave1(sub{1,3})",
            "sub{70,3}",
            "squares",
            "cubes",
            "divisors",
            "divisors-nontrivial",
            "sqrt",
            "leave1(sqrt)",
            "half",
            "upto{4}",
            "allbut{2,3,7}",
            "leave1(allbut{1,4})",
            "nim",
            "primes",
            "leave1(primes|sub{1})",
            "practical",
            "triangular|sub{2}",
        ] {
            let g = Game::parse(spec).unwrap();
            let win = outcome_by_definition(&g, 3000);
            let expect: Vec<u64> = (0..=3000u64).filter(|&n| !win[n as usize]).collect();
            assert_eq!(collect(&g, 3000), expect, "{spec}");
            // the engine the plan names is the one that ran
            let s = open_stream(&g, 10, &Silent).unwrap();
            assert_eq!(
                s.method(),
                Engine::of(&g, Task::PPositions).name(),
                "{spec}"
            );
        }
    }

    #[test]
    fn every_family_matches_the_definition() {
        for spec in [
            "sub{1,2,3}",
            "sub{1,3,4}",
            "sub{2,5,7}",
            "leave1(sub{1,3})",
            "squares",
            "cubes",
            "divisors",
            "divisors-nontrivial",
            "sqrt",
            "half",
            "upto{3}",
            "allbut{2,3,7}",
            "leave1(allbut{1,4})",
            "allbut{1}",
            "nim",
            "primes",
            "leave1(primes|sub{1})",
            "0.77",
            "4.07",
            "0.3F",
            "C.0",
            "grundy-game",
        ] {
            let g = Game::parse(spec).unwrap();
            let t = grundy_table(&g, 600, &Silent).unwrap();
            assert_eq!(t.to_u32_vec(), grundy_by_definition(&g, 600), "{spec}");
        }
    }

    #[test]
    fn seed_facts() {
        // Nim 1-3: loses iff n % 4 == 0 (to 10^5).
        let t = outcome_table(&Game::parse("sub{1,2,3}").unwrap(), 100_000, &Silent).unwrap();
        for n in 0..=100_000u64 {
            assert_eq!(t.is_win(n), n % 4 != 0, "{n}");
        }
        // Divisor game: P-positions are 0 and the odd n (to 10^5); 2 wins, 3 loses.
        let t = outcome_table(&Game::parse("divisors").unwrap(), 100_000, &Silent).unwrap();
        assert!(t.is_win(2) && !t.is_win(3));
        for n in 1..=100_000u64 {
            assert_eq!(t.is_win(n), n % 2 == 0, "{n}");
        }
        // sqrt game: 3 wins, 5 loses.
        let t = outcome_table(&Game::parse("sqrt").unwrap(), 100, &Silent).unwrap();
        assert!(t.is_win(3) && !t.is_win(5));
        // sqrt game: g(0..4) = 0,1,0,1,2.
        let t = grundy_table(&Game::parse("sqrt").unwrap(), 4, &Silent).unwrap();
        assert_eq!(t.to_u32_vec(), vec![0, 1, 0, 1, 2]);
        // Divisor game: g(n) = v2(n) for n >= 1.
        let t = grundy_table(&Game::parse("divisors").unwrap(), 100_000, &Silent).unwrap();
        for n in 1..=100_000u64 {
            assert_eq!(t.get(n), n.trailing_zeros(), "{n}");
        }
        // sub{1,3,4}: 0,1,0,1,2,3,2 repeating.
        let t = grundy_table(&Game::parse("sub{1,3,4}").unwrap(), 700, &Silent).unwrap();
        for n in 0..=700u64 {
            assert_eq!(t.get(n), [0, 1, 0, 1, 2, 3, 2][(n % 7) as usize]);
        }
    }

    #[test]
    fn streams_resume_from_their_checkpoint() {
        for spec in [
            "sub{1,3,4}",
            "squares",
            "divisors",
            "sqrt",
            "allbut{2,3,7}",
            "primes",
            "0.77",
        ] {
            let g = Game::parse(spec).unwrap();
            let max = 300_000;
            let full = collect(&g, max);
            let mut s = open_stream(&g, max, &Silent).unwrap();
            let mut out = vec![];
            s.advance(&mut out);
            let cp = s.checkpoint();
            assert_eq!((cp.count, cp.last), (out.len() as u64, out.last().copied()));
            let mut r = resume_stream(cp, &Silent).unwrap();
            while r.advance(&mut out) {}
            assert_eq!(out, full, "{spec}");
            assert_eq!(r.count(), full.len() as u64, "{spec}");
        }
        // a state of another engine is refused, not followed
        let sq = open_stream(&Game::parse("squares").unwrap(), 100, &Silent).unwrap();
        let mut cp = sq.checkpoint();
        cp.game = "sqrt".into();
        assert!(matches!(
            resume_stream(cp, &Silent),
            Err(Error::BadState { .. })
        ));
    }

    #[test]
    fn an_observer_stops_every_long_build() {
        let stop_later = |done: u64, _: u64| {
            if done == 0 {
                std::ops::ControlFlow::Continue(())
            } else {
                std::ops::ControlFlow::Break(())
            }
        };
        for spec in ["squares", "sub{1,2,3}", "0.6", "sqrt", "divisors", "nim"] {
            let g = Game::parse(spec).unwrap();
            let r = grundy_table(&g, 200_000_000, &stop_later);
            assert!(
                matches!(r, Err(Error::Cancelled { done }) if done > 0),
                "{spec}"
            );
        }
        let r = outcome_table(&Game::parse("squares").unwrap(), 1 << 34, &stop_later);
        assert!(matches!(r, Err(Error::Cancelled { .. })));
        let now = |_: u64, _: u64| std::ops::ControlFlow::Break(());
        let r = grundy_table(&Game::parse("0.77").unwrap(), 10, &now);
        assert_eq!(r, Err(Error::Cancelled { done: 0 }));
    }

    #[test]
    fn hostile_arguments_get_errors_or_right_answers_never_a_crash() {
        use crate::sets::MoveSet;
        // a table beyond memory: an error, not an abort
        let sq = Game::parse("squares").unwrap();
        assert!(matches!(
            grundy_table(&sq, GRUNDY_MAX, &Silent),
            Err(Error::OutOfMemory { .. })
        ));
        // a set built by hand, unsorted, with a 0 and a repeat: the same as the parsed one
        let hand = Game::Subtraction {
            set: MoveSet::Union {
                named: vec![],
                finite: vec![4, 0, 1, 3, 3],
            },
            leave1: false,
        };
        assert_eq!(
            collect(&hand, 5000),
            collect(&Game::parse("sub{1,3,4}").unwrap(), 5000)
        );
        assert_eq!(
            grundy_table(&hand, 100, &Silent).unwrap().to_u32_vec(),
            grundy_by_definition(&Game::parse("sub{1,3,4}").unwrap(), 100)
        );
        // a code of no moves decided at any heap: a P-position of value 0
        for (spec, n) in [("0.0", 1u64 << 63), ("0.1", u64::MAX), ("0.001", u64::MAX)] {
            let d = crate::decide(
                &Game::parse(spec).unwrap(),
                n,
                &Budget::new(1 << 30),
                &Silent,
            )
            .unwrap();
            let expect = spec == "0.1" && n == 1; // 0.1: only heap 1 has a move
            assert_eq!(
                (d.win, d.grundy),
                (expect, Some(u64::from(expect))),
                "{spec} {n}"
            );
        }
        // the sieve with a segment past any size: clamped, and it ends
        let mut s = crate::engines::SetSieve::new(
            crate::engines::SquareMoves::new(100),
            100,
            false,
            u64::MAX,
        );
        let mut out = vec![];
        while s.advance(&mut out) {}
        assert_eq!(out.len(), 21);
        assert!(crate::engines::SetSieve::resume(
            crate::engines::SquareMoves::new(100),
            100,
            false,
            64,
            crate::engines::SieveState {
                lo: u64::MAX,
                ps: vec![]
            }
        )
        .is_err());
        assert!(crate::finite_outcome_period(&[0], false, 100).is_none());
        assert!(crate::finite_outcome_period(&[3, 1], false, 100).is_none());
        let ig = IntervalGame {
            bound: crate::Bound::Half,
            leave1: false,
        };
        assert_eq!(ig.next_p_search(u64::MAX - 1), None);
    }

    #[test]
    fn marks_past_2_to_the_64_are_no_marks() {
        use crate::engines::{ListMoves, Moves, SquareMoves};
        let mut w = [0u64; 1];
        // p + s beyond 2^64 reaches nothing below b
        let m = ListMoves::new(vec![1, 2, (1 << 62) - 1]);
        m.mark_range(
            u64::MAX - 91,
            u64::MAX - 90,
            u64::MAX - 30,
            u64::MAX - 90,
            &mut w,
        );
        assert_eq!(w, [0b11]);
        let mut w = [0u64; 1];
        SquareMoves::new(u64::MAX).mark_range(1, u64::MAX - 64, u64::MAX, u64::MAX - 64, &mut w);
        assert_eq!(w, [0]);
        let r = std::panic::catch_unwind(|| ListMoves::new(vec![1, u64::MAX - 5]));
        assert!(r.is_err(), "moves past the sieve's range are refused");
    }
}
