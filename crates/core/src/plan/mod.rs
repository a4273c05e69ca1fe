//! The planner: for a task over 0..=N, the engine (chosen from the structure of the
//! game's moves, `plan::choose`), what it costs (`plan::cost`, `plan::pilots`), whether a
//! caller's [`Budget`] allows it, and the run itself: [`plan`]`(game, task, n, &budget)?`
//! [`.run(observer)`](Plan::run) runs exactly the engine that was estimated.
//!
//! | structure | P-positions (outcomes) | Grundy values |
//! |---|---|---|
//! | finite set, largest move k | window sieve: O(k + segment) bits | plain mex, one word |
//! | named sets, unions of sets | segmented sieve | blocked mex or layers |
//! | all-but sets | the finite list of candidates | counts of values |
//! | divisors | divisor pull: one bit per position | mex over divisor lists |
//! | intervals (with extra amounts) | jump-ahead: O(1) per P-position | sliding-window mex |
//! | listed moves (rules, unions) | option pull | option mex |
//! | code digits (take-and-break) | zeros of the Grundy table | sparse space |
//! | option lists (extended codes, coin turning, sink) | zeros of the Grundy table | knapsack |
//!
//! [`grundy_table`], [`outcome_table`] and [`open_stream`] run a plan without a budget;
//! [`tables`] plans and runs a whole table.

pub(crate) mod choose;
pub(crate) mod cost;
pub(crate) mod count;
pub(crate) mod lengths;
pub(crate) mod pilots;
pub(crate) mod planned;
pub(crate) mod run;
pub(crate) mod stream;

use crate::budget::{Budget, Engine, Task};
use crate::error::{Error, Refusal};
use crate::game::Game;
use crate::moves::Moves;
use crate::observe::Observer;
use crate::plan::choose::engine_for;
use crate::plan::cost::Priced;
pub use crate::plan::planned::Plan;
pub(crate) use crate::plan::planned::{task_name, what, GRUNDY_MAX};
use crate::plan::stream::PPositionStream;
use crate::table::{GrundyTable, OutcomeTable};

/// What a plan's run gives.
#[derive(Debug)]
pub enum Output {
    /// An outcome table ([`Task::Outcomes`]).
    Outcomes(OutcomeTable),
    /// A Grundy table ([`Task::Grundy`]).
    Grundy(GrundyTable),
    /// A P-position stream, opened ([`Task::PPositions`]).
    Stream(PPositionStream),
    /// A remoteness or birthday table ([`Task::Remoteness`], [`Task::Birthday`]), in the
    /// narrowest unsigned type that holds its values.
    Lengths(GrundyTable),
}

impl Plan {
    /// The plan of `task` for `game` over 0..=max, estimated in full but checked against
    /// no budget.
    ///
    /// # Errors
    /// [`Error::TooLarge`] beyond what the engine can address at all.
    pub fn new(game: &Game, task: Task, max: u64) -> Result<Plan, Error> {
        Plan::make(game, task, max, true)
    }

    /// Runs the engine this plan names, observed by `obs` (progress, cancellation).
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] when the estimated memory cannot be allocated; the engine's
    /// errors; [`Error::Cancelled`] when `obs` stops it.
    pub fn run(&self, obs: &dyn Observer) -> Result<Output, Error> {
        Ok(match self.task {
            Task::Grundy => Output::Grundy(self.grundy(obs)?),
            Task::Outcomes => Output::Outcomes(self.outcomes(obs)?),
            Task::PPositions => Output::Stream(self.stream(obs)?),
            Task::Remoteness | Task::Birthday => Output::Lengths(self.lengths(obs)?),
        })
    }

    /// [`Plan::run`] for a Grundy plan: the table.
    ///
    /// # Errors
    /// As [`Plan::run`]; [`Error::Unsupported`] for a plan of another task.
    pub fn grundy(&self, obs: &dyn Observer) -> Result<GrundyTable, Error> {
        self.expect(Task::Grundy)?;
        run::grundy(self, None, obs)
    }

    /// [`Plan::run`] for an outcome plan: the table (bit set = N-position).
    ///
    /// # Errors
    /// As [`Plan::run`]; [`Error::Unsupported`] for a plan of another task.
    pub fn outcomes(&self, obs: &dyn Observer) -> Result<OutcomeTable, Error> {
        self.expect(Task::Outcomes)?;
        stream::outcomes(self, obs)
    }

    /// [`Plan::run`] for a P-position plan: the stream, opened (families whose P-positions
    /// come from a Grundy table build it here).
    ///
    /// # Errors
    /// As [`Plan::run`]; [`Error::Unsupported`] for a plan of another task.
    pub fn stream(&self, obs: &dyn Observer) -> Result<PPositionStream, Error> {
        self.expect(Task::PPositions)?;
        stream::open(self, None, obs)
    }

    /// Whether this P-position plan's stream lists its P-positions only once a whole table
    /// of 0..=max is built (take-and-break codes and rules listed by their options, from a
    /// Grundy or canonical-forms table; a prescribed start): then nothing can be saved to
    /// a checkpoint before the table is done. False for the streams that go as they find
    /// (sieves, interval rules, finite sets, a proved misère quotient) and for other tasks.
    pub fn lists_after_table(&self) -> bool {
        self.task == Task::PPositions
            && match self.moves() {
                Moves::Seeded { .. } | Moves::Options(_) => true,
                Moves::Split(_) => self.engine != Engine::MisereQuotient,
                _ => false,
            }
    }

    pub(crate) fn expect(&self, task: Task) -> Result<(), Error> {
        if self.task == task {
            return Ok(());
        }
        Err(Error::Unsupported {
            what: format!(
                "running a plan of {} as {}",
                task_name(self.task),
                task_name(task)
            ),
        })
    }
}

/// The engine for `task` of `game` over 0..=max, its cost, and whether `budget` allows it.
///
/// # Errors
/// [`Error::TooLarge`] beyond what the engine can address at all (its `limit` the largest
/// N the engine takes and the budget allows); [`Error::Refused`] with the memory or time
/// refusal, naming the largest N that fits, when the budget does not allow the run.
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
        // beyond what the engine addresses: the largest N it takes *here* is what to name
        // (naming a larger one the budget then refuses would send the user round twice)
        Err(Error::TooLarge { what, n, limit }) => Err(Error::TooLarge {
            what,
            n,
            limit: feasible_max(game, task, budget, limit),
        }),
        r => r,
    }
}

/// [`plan`] without the largest N that fits.
fn check(game: &Game, task: Task, max: u64, budget: &Budget) -> Result<Plan, Error> {
    let p = Plan::new(game, task, max)?;
    let what = what(p.engine, task);
    let game = &p.game;
    budget.check_memory(|| format!("{what} of {game} to N = {max}"), p.memory)?;
    budget.check_time(
        || match task {
            Task::Remoteness | Task::Birthday => format!("{what} of {game} to N = {max}"),
            _ => format!("{game} to N = {max}"),
        },
        p.seconds,
    )?;
    Ok(p)
}

/// The largest N <= `limit` for which [`plan`] accepts `task` of `game` within 95% of
/// `budget` (memory and work both grow with N; found by bisection), 0 when none is. (The
/// margin keeps a size named in a refusal accepted when it is run next, though the memory
/// available changes a little from run to run.)
pub fn feasible_max(game: &Game, task: Task, budget: &Budget, limit: u64) -> u64 {
    let budget = &Budget {
        memory: budget.memory / 20 * 19,
        seconds: budget.seconds * 0.95,
        disk: budget.disk.map(|d| d / 20 * 19),
    };
    let ok = |n: u64| check(game, task, n, budget).is_ok();
    if ok(limit) {
        return limit;
    }
    crate::num::last_ok(0, limit, ok)
}

/// Upper estimate of the memory (bytes) `task` of `game` over 0..=max needs at its peak.
pub fn memory_estimate(game: &Game, task: Task, max: u64) -> u64 {
    planned::memory_at(game, task, max)
}

/// Estimated seconds to compute `task` of `game` over 0..=max on this machine (2 cores),
/// from a cost model per engine whose rates were measured here (see `plan::cost`).
pub fn time_estimate(game: &Game, task: Task, max: u64) -> f64 {
    let s = game.structure();
    let key = game.under_normal_play().to_string();
    Priced { key: &key, s: &s }.seconds(task, engine_for(&s, task, max), max)
}

/// g(0..=max) for `game`, by the engine its plan names, in the narrowest unsigned type
/// that holds the values. No budget check (see [`plan`]).
///
/// # Errors
/// [`Error::TooLarge`] when the table cannot be addressed; [`Error::OutOfMemory`] when its
/// memory cannot be allocated; [`Error::Cancelled`] when `obs` stops the run.
pub fn grundy_table(game: &Game, max: u64, obs: &dyn Observer) -> Result<GrundyTable, Error> {
    if max > GRUNDY_MAX {
        return Err(Error::TooLarge {
            what: "a Grundy table",
            n: max,
            limit: GRUNDY_MAX,
        });
    }
    Plan::make(game, Task::Grundy, max, false)?.grundy(obs)
}

/// The outcome table 0..=max (bit set = N-position) from the game's P-position stream.
/// No budget check (see [`plan`]).
///
/// # Errors
/// As [`open_stream`].
pub fn outcome_table(game: &Game, max: u64, obs: &dyn Observer) -> Result<OutcomeTable, Error> {
    Plan::make(game, Task::Outcomes, max, false)?.outcomes(obs)
}

/// The outcome table and, when asked (or when the game computes outcomes through it
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
    const LIMIT: u64 = (1 << 40) - 1;
    let via_grundy = want_grundy
        || matches!(
            Engine::for_size(game, Task::Outcomes, max),
            Engine::GrundyTable | Engine::CanonicalForms
        );
    if max > LIMIT {
        // (the largest N this budget allows, not only the largest a table addresses)
        let task = if via_grundy {
            Task::Grundy
        } else {
            Task::Outcomes
        };
        return Err(Error::TooLarge {
            what: "a table in memory (`losers` streams P-positions without one)",
            n: max,
            limit: feasible_max(game, task, budget, LIMIT),
        });
    }
    if via_grundy {
        let p = plan_table(game, max, budget)?;
        obs.planned(&p);
        let g = p.grundy(obs)?;
        let o = g.outcomes();
        Ok((o, want_grundy.then_some(g)))
    } else {
        let p = plan(game, Task::Outcomes, max, budget)?;
        obs.planned(&p);
        Ok((p.outcomes(obs)?, None))
    }
}

/// The plan of a Grundy table of 0..=max within `budget`, the outcome bits made from it
/// (N / 8 bytes) counted in.
///
/// # Errors
/// As [`plan`]; a memory refusal for the table and its outcomes together.
pub fn plan_table(game: &Game, max: u64, budget: &Budget) -> Result<Plan, Error> {
    let p = plan(game, Task::Grundy, max, budget)?;
    budget.check_memory(
        || format!("a table of {} positions", max as u128 + 1),
        p.memory.saturating_add(max / 8 + 1),
    )?;
    Ok(p)
}

/// The plan of every P-position of 0..=max kept in memory, within `budget`: the stream's
/// and, where their number can be told in advance ([`count::p_count_estimate`]), the list's
/// 8 bytes a P-position.
///
/// # Errors
/// As [`plan`]; a memory refusal for the stream and the list together.
pub fn plan_list(game: &Game, max: u64, budget: &Budget) -> Result<Plan, Error> {
    let p = plan(game, Task::PPositions, max, budget)?;
    if let Some(count) = count::p_count_estimate(game, max) {
        let bytes = (count * 8.0).min(u64::MAX as f64) as u64;
        budget.check_memory(
            || format!("a list of {count:.0} P-positions"),
            p.memory.saturating_add(bytes),
        )?;
    }
    Ok(p)
}

/// Opens the fastest P-position stream for `game` over 0..=max. Games whose P-positions
/// come from a Grundy table build it here (observed by `obs`).
///
/// # Errors
/// [`Error::TooLarge`] when max is beyond what the engine can address;
/// [`Error::Cancelled`] when `obs` stops a table build.
pub fn open_stream(game: &Game, max: u64, obs: &dyn Observer) -> Result<PPositionStream, Error> {
    Plan::make(game, Task::PPositions, max, false)?.stream(obs)
}

/// Every P-position of `game` in 0..=max, increasing, in memory: the fastest stream
/// ([`open_stream`]) collected, after [`plan`] has accepted the run within `budget` and,
/// where their number can be told in advance ([`count::p_count_estimate`]), the list's 8
/// bytes a P-position fit in its memory.
///
/// # Errors
/// As [`plan`] and [`open_stream`]; [`Error::Cancelled`] when `obs` stops the run.
pub fn p_position_list(
    game: &Game,
    max: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<Vec<u64>, Error> {
    let p = plan_list(game, max, budget)?;
    obs.planned(&p);
    let mut out = Vec::new();
    stream::run_plan(&p, obs, |segment| out.append(segment))?;
    Ok(out)
}

#[cfg(test)]
mod tests;
