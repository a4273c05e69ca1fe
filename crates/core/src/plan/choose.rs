//! The engine for a task, chosen from the structure of the moves (never from a family's
//! name): see the table in `moves`. The only size-dependent choice is between the blocked
//! mex and the layer engine for the Grundy values of an infinite set, by their estimates.

use crate::budget::{Engine, Task};
use crate::game::Game;
use crate::misere::quotient::proved_quotient;
use crate::moves::{Moves, Play, Structure};
use crate::plan::pilots::dense_seconds;

/// The engine that computes `task` for these moves in normal play (for most sizes).
fn normal_engine(moves: &Moves, task: Task) -> Engine {
    let grundy = task == Task::Grundy;
    match moves {
        Moves::Finite { .. } if grundy => Engine::PlainMex,
        Moves::Finite { .. } => Engine::WindowSieve,
        Moves::Set { .. } if grundy => Engine::BlockedMex,
        Moves::Set { .. } => Engine::SegmentedSieve,
        Moves::AllBut { .. } if grundy => Engine::AllButCounts,
        Moves::AllBut { .. } => Engine::AllButCandidates,
        Moves::Interval(_) if grundy => Engine::SlidingWindow,
        Moves::Interval(_) => Engine::JumpAhead,
        Moves::Divisors { .. } if grundy => Engine::DivisorMex,
        Moves::Divisors { .. } => Engine::DivisorPull,
        Moves::Listed(_) | Moves::Union(_) if grundy => Engine::OptionMex,
        Moves::Listed(_) | Moves::Union(_) => Engine::OptionPull,
        Moves::Split(_) if grundy => Engine::SparseSpace,
        Moves::Options(_) | Moves::Seeded { .. } if grundy => Engine::Knapsack,
        Moves::Split(_) | Moves::Options(_) => Engine::GrundyTable,
        Moves::Seeded { .. } => Engine::OptionPull,
    }
}

/// The engine that computes `task` for a structure (for most sizes: see [`engine_for`]).
pub(crate) fn engine_of(s: &Structure, task: Task) -> Engine {
    match (s.play, &s.moves, task) {
        // remoteness and birthday: every option of every heap, whatever the structure
        (_, _, Task::Remoteness | Task::Birthday) => Engine::OptionWalk,
        (Play::Normal, m, t) => normal_engine(m, t),
        // misère play: canonical forms for the moves that split (their options are sums);
        // the misère mex for the values of one-heap moves; the normal-play streams with
        // another base case for their P-positions
        (Play::Misere, Moves::Split(_), _) => Engine::CanonicalForms,
        (Play::Misere, _, Task::Grundy) => Engine::MisereMex,
        (Play::Misere, m, t) => normal_engine(m, t),
    }
}

/// The engine that computes `task` for a structure over 0..=max: [`engine_of`], except that
/// the Grundy values of an infinite set go to the layer engine when it is estimated faster
/// (a pilot table to 2^16 gives the values' growth; see [`dense_seconds`]), and misère
/// outcomes of take-and-break heaps go to the misère quotient when its period is proved
/// within a fraction of a second ([`proved_quotient`]: Kayles, 0.75, 0.31, …).
pub(crate) fn engine_for(s: &Structure, task: Task, max: u64) -> Engine {
    let engine = engine_of(s, task);
    match (&s.moves, engine) {
        (Moves::Split(br), Engine::CanonicalForms)
            if s.play == Play::Misere && task != Task::Grundy && proved_quotient(br).is_some() =>
        {
            Engine::MisereQuotient
        }
        (Moves::Set { set, leave1 }, Engine::BlockedMex) => {
            let (layered, blocked) = dense_seconds(set, *leave1, max);
            if layered < blocked {
                Engine::LayeredMex
            } else {
                Engine::BlockedMex
            }
        }
        _ => engine,
    }
}

impl Engine {
    /// The engine that computes `task` for `game` over 0..=max: [`Engine::of`], except that
    /// Grundy tables of subtraction games with an infinite move set go to the layer engine
    /// when it is estimated faster (a pilot table to 2^16 gives the values' growth).
    pub fn for_size(game: &Game, task: Task, max: u64) -> Engine {
        engine_for(&game.structure(), task, max)
    }

    /// The engine that computes `task` for `game` (for most sizes: see [`Engine::for_size`]),
    /// chosen from the structure of its moves.
    pub fn of(game: &Game, task: Task) -> Engine {
        engine_of(&game.structure(), task)
    }
}
