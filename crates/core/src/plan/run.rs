//! Running a plan's engine for a Grundy table: the values by the engine the plan chose,
//! continuing a saved prefix where the engine can.

use crate::budget::{Engine, Task};
use crate::engines::blocked::{blocked_mex_grundy, blocked_mex_grundy_after};
use crate::engines::interval::window_grundy;
use crate::engines::layers::layered_grundy;
use crate::engines::mex::{
    finite_set_grundy, finite_set_grundy_after, list_mex_grundy, list_mex_grundy_after,
};
use crate::engines::pull::lists_mex;
use crate::engines::sparse::{take_break_grundy, take_break_grundy_continue};
use crate::error::Error;
use crate::game::Game;
use crate::games::allbut::all_but_grundy;
use crate::moves::{Moves, Play};
use crate::observe::{Observer, Watch};
use crate::plan::planned::{Plan, CANONICAL_MAX, GRUNDY_MAX};
use crate::table::GrundyTable;

/// The Grundy table of a Grundy plan, continuing `after` (its values 0..after.len()) when
/// given and the engine extends a table (see [`grundy_table_after`]).
pub(crate) fn grundy(
    p: &Plan,
    after: Option<GrundyTable>,
    obs: &dyn Observer,
) -> Result<GrundyTable, Error> {
    if !crate::engines::mem::can_allocate(p.memory) {
        return Err(p.out_of_memory("a Grundy table"));
    }
    // (positions are reported as they are numbered: a continued run looks like one from 0)
    let watch = &mut Watch::start(obs, p.max + 1)?;
    let max = p.max;
    let g = match (p.engine, p.moves()) {
        (Engine::AllButCounts, Moves::AllBut { excluded, leave1 }) => {
            all_but_grundy(excluded, *leave1, max, watch)?
        }
        (Engine::PlainMex, Moves::Finite { moves, leave1 }) => {
            let moves: Vec<u64> = moves.iter().copied().filter(|&s| s <= max).collect();
            match after {
                Some(done) => {
                    finite_set_grundy_after(&moves, *leave1, done.to_u32_vec(), max, watch)?
                }
                None => finite_set_grundy(&moves, *leave1, max, watch)?,
            }
        }
        (Engine::LayeredMex | Engine::BlockedMex, Moves::Set { set, leave1 }) => {
            let moves = set.elements_upto(max);
            return dense(p.engine, &moves, *leave1, after, max, watch);
        }
        (Engine::SlidingWindow, Moves::Interval(r)) => window_grundy(r, 0, max, watch)?,
        (Engine::DivisorMex | Engine::OptionMex, m) => lists_mex(m, 0, max, watch)?,
        (Engine::MisereMex, m) => lists_mex(m, 1, max, watch)?,
        (Engine::SparseSpace, Moves::Split(br)) => match after {
            Some(done) => {
                // (the saved table goes before the engine grows the working one)
                let prefix = done.to_u32_vec();
                drop(done);
                take_break_grundy_continue(br, prefix, max, watch)?.0
            }
            None => take_break_grundy(br, max, watch)?.0,
        },
        (Engine::CanonicalForms, Moves::Split(br)) => {
            if max > CANONICAL_MAX {
                return Err(Error::TooLarge {
                    what: "canonical misère forms",
                    n: max,
                    limit: CANONICAL_MAX,
                });
            }
            let (_, heaps) = crate::misere::canon::take_break_misere(br, max, obs)?;
            heaps.iter().map(|h| h.misere_value).collect()
        }
        (Engine::Knapsack, Moves::Options(rule)) => rule.grundy(max, u64::MAX, watch)?,
        (Engine::Knapsack, Moves::Seeded { .. }) => {
            return Err(Error::Unsupported {
                what: format!(
                    "Grundy values of {}, whose prescribed start gives outcomes only (ask \
                     for outcomes or P-positions)",
                    p.game()
                ),
            })
        }
        (engine, _) => {
            return Err(Error::Unsupported {
                what: format!("a Grundy table of {} by the {}", p.game(), engine.name()),
            })
        }
    };
    Ok(GrundyTable::from_u32(g))
}

/// The Grundy values of an infinite set by the blocked mex (continuing `after`) or the
/// layer engine (from 0 whatever is saved), falling back to the plain mex when a value
/// reaches 65535.
fn dense(
    engine: Engine,
    moves: &[u64],
    leave1: bool,
    after: Option<GrundyTable>,
    max: u64,
    watch: &mut Watch,
) -> Result<GrundyTable, Error> {
    if engine == Engine::LayeredMex {
        if let Some(g) = layered_grundy(moves, leave1, max, watch)? {
            return Ok(GrundyTable::from_u16(g));
        }
    } else {
        let narrow: Option<Vec<u16>> = match &after {
            None => Some(vec![]),
            Some(GrundyTable::U8(v)) => Some(v.iter().map(|&x| u16::from(x)).collect()),
            Some(GrundyTable::U16(v)) => Some(v.clone()),
            Some(GrundyTable::U32(_)) => None,
        };
        let fast = match narrow {
            Some(v) if v.is_empty() => blocked_mex_grundy(moves, leave1, max, watch)?,
            Some(v) => blocked_mex_grundy_after(moves, leave1, &v, max, watch)?,
            None => None,
        };
        if let Some(g) = fast {
            return Ok(GrundyTable::from_u16(g));
        }
    }
    // a value reached 65535: the plain mex has no such limit
    let g = match after {
        Some(done) if engine != Engine::LayeredMex => {
            list_mex_grundy_after(moves, leave1, done.to_u32_vec(), max, watch)?
        }
        _ => list_mex_grundy(moves, leave1, max, watch)?,
    };
    Ok(GrundyTable::from_u32(g))
}

/// Can [`grundy_table_after`] continue a Grundy table of `game`? True for take-and-break
/// codes, Grundy's game and subtraction games with a finite or named (not all-but) move
/// set, in normal play: the structures whose engines extend a table of values.
pub fn grundy_resumable(game: &Game) -> bool {
    let s = game.structure();
    s.play == Play::Normal
        && matches!(
            s.moves,
            Moves::Split(_) | Moves::Finite { .. } | Moves::Set { .. }
        )
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
/// earlier [`crate::grundy_table`] or [`grundy_table_after`] left them (a long run computed
/// in segments, saved between them, resumed after a restart). Equal to
/// [`crate::grundy_table`] when `done` is right; the caller vouches for it (a saved table
/// it checked).
///
/// # Errors
/// [`Error::Unsupported`] when `game` is not [`grundy_resumable`]; the errors of
/// [`crate::grundy_table`] (size, memory, a stop by `obs`).
pub fn grundy_table_after(
    game: &Game,
    done: GrundyTable,
    max: u64,
    obs: &dyn Observer,
) -> Result<GrundyTable, Error> {
    let game = &*game.normalized();
    if !grundy_resumable(game) {
        return Err(Error::Unsupported {
            what: format!(
                "continuing a saved Grundy table of {game} (take-and-break and subtraction \
                 games can)"
            ),
        });
    }
    if max > GRUNDY_MAX {
        return Err(Error::TooLarge {
            what: "a Grundy table",
            n: max,
            limit: GRUNDY_MAX,
        });
    }
    grundy(
        &Plan::make(game, Task::Grundy, max, false)?,
        Some(done),
        obs,
    )
}
