//! The plan itself: the game, the structure of its moves, the engine chosen for a task
//! and its estimated cost ([`Plan`]), and the sizes engines can address at all. The runs
//! are in `plan` (`Plan::run`).

use crate::budget::{Engine, Estimate, Task};
use crate::error::Error;
use crate::game::Game;
use crate::moves::{Moves, Structure};
use crate::plan::choose::{engine_for, engine_of};
use crate::plan::cost::Priced;

/// Runs estimated at fewer seconds than this keep a linear cost ([`Estimate::growth`] 1):
/// their time left matters little.
const GROWTH_AFTER: f64 = 10.0;

/// The steepest [`Estimate::growth`] a plan states (canonical misère forms, whose cost to
/// heap n grows about geometrically: the power law fitted between N/2 and N).
const MAX_GROWTH: f64 = 16.0;

/// Largest heap of a take-and-break game in misère play (canonical forms grow fast; see
/// [`crate::misere::canon`]).
pub const CANONICAL_MAX: u64 = 100_000;

/// Largest N of a Grundy table (its values are addressed by `usize` with room to spare).
pub(crate) const GRUNDY_MAX: u64 = (isize::MAX as u64) / 8 - 1;

/// Largest N of an outcome table (one bit per position).
pub(crate) const BITS_MAX: u64 = (usize::MAX as u64) / 2 - 1;

/// A run of `task` of a game over 0..=N with the engine chosen for it and what that costs:
/// made by [`plan`] (within a budget) or [`Plan::new`] (no budget), run by
/// [`Plan::run`]. Dereferences to its [`Estimate`] (`p.engine`, `p.memory`, `p.seconds`).
#[derive(Debug, Clone)]
pub struct Plan {
    pub(crate) estimate: Estimate,
    pub(crate) game: Game,
    pub(crate) structure: Structure,
}

/// Upper estimate of the memory (bytes) `task` of `game` over 0..=max needs at its peak
/// (the engine [`engine_for`] chooses, priced by [`Priced::memory`]).
pub(crate) fn memory_at(game: &Game, task: Task, max: u64) -> u64 {
    let s = game.structure();
    let key = game.under_normal_play().to_string();
    Priced { key: &key, s: &s }.memory(task, engine_for(&s, task, max), max)
}

impl std::ops::Deref for Plan {
    type Target = Estimate;
    fn deref(&self) -> &Estimate {
        &self.estimate
    }
}

impl serde::Serialize for Plan {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.estimate.serialize(s)
    }
}

impl Plan {
    /// [`Error::OutOfMemory`] for this plan, `what` needing its memory: with the largest N
    /// whose estimated memory can be allocated here (found by bisection over the estimate
    /// and an allocation probe), none when not even N = 0 can.
    pub(crate) fn out_of_memory(&self, what: &'static str) -> Error {
        let fits = |n: u64| crate::engines::mem::can_allocate(memory_at(&self.game, self.task, n));
        let most = fits(0).then(|| crate::num::last_ok(0, self.max, fits));
        Error::OutOfMemory {
            what,
            bytes: self.memory,
            most,
        }
    }

    /// The plan of `task` for `game` over 0..=max with no budget: the engine, its memory
    /// estimate and (when `timed`) its time estimate (pilot runs included; untimed plans
    /// have 0 seconds).
    ///
    /// # Errors
    /// [`Error::TooLarge`] beyond what the engine can address at all.
    pub(crate) fn make(game: &Game, task: Task, max: u64, timed: bool) -> Result<Plan, Error> {
        let game = game.normalized().into_owned();
        let structure = game.structure();
        let mut engine = engine_of(&structure, task);
        if engine == Engine::CanonicalForms {
            // (a proved misère quotient has no such limit)
            engine = engine_for(&structure, task, max);
        }
        if let Some(why) = crate::engines::remote::unsupported(&structure, task, &game) {
            return Err(Error::Unsupported { what: why });
        }
        let limit = match task {
            _ if engine == Engine::CanonicalForms => CANONICAL_MAX,
            Task::Remoteness | Task::Birthday => crate::engines::remote::LENGTHS_MAX,
            Task::Grundy => GRUNDY_MAX,
            Task::Outcomes => BITS_MAX,
            Task::PPositions => u64::MAX,
        };
        if max > limit {
            return Err(Error::TooLarge {
                what: what(engine, task),
                n: max,
                limit,
            });
        }
        let key = game.under_normal_play().to_string();
        let priced = Priced {
            key: &key,
            s: &structure,
        };
        let engine = engine_for(&structure, task, max);
        let seconds = if timed {
            priced.seconds(task, engine, max)
        } else {
            0.0
        };
        // the cost's growth near N, for the time left of a long run: the blocked mex to
        // 10^9 of squares (about n^1.75) spends 80% of its time past half-way, where a rate
        // since the start tells 35% of the time left
        // (canonical misère forms grow about geometrically with the heap: 4.7 to heap 66
        // told "12 s left" at 60 s with a linear cost, and ran past 120 s)
        let steepest = match engine {
            Engine::BlockedMex | Engine::LayeredMex | Engine::SegmentedSieve => 3.0,
            Engine::CanonicalForms => MAX_GROWTH,
            _ => 1.0,
        };
        let growth = if steepest > 1.0 && seconds >= GROWTH_AFTER {
            let half = priced.seconds(task, engine, max / 2);
            if half > 0.0 {
                (seconds / half).log2().clamp(1.0, steepest)
            } else {
                steepest
            }
        } else {
            1.0
        };
        let estimate = Estimate {
            task,
            max,
            engine,
            memory: priced.memory(task, engine, max),
            seconds,
            growth,
        };
        Ok(Plan {
            estimate,
            game,
            structure,
        })
    }

    /// The estimate.
    pub fn estimate(&self) -> Estimate {
        self.estimate
    }

    /// The game (normalised).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The structure of its moves, which chose the engine.
    pub(crate) fn structure(&self) -> &Structure {
        &self.structure
    }

    /// The moves.
    pub(crate) fn moves(&self) -> &Moves {
        &self.structure.moves
    }
}

/// What a run of `task` by `engine` makes, for messages.
pub(crate) fn what(engine: Engine, task: Task) -> &'static str {
    match engine {
        Engine::CanonicalForms => "canonical misère forms",
        _ => task_name(task),
    }
}

/// A task for messages: `an outcome table`, `a Grundy table`, `the P-position engine`.
pub(crate) fn task_name(task: Task) -> &'static str {
    match task {
        Task::Outcomes => "an outcome table",
        Task::Grundy => "a Grundy table",
        Task::PPositions => "the P-position engine",
        Task::Remoteness | Task::Birthday => crate::engines::remote::table_name(task),
    }
}
