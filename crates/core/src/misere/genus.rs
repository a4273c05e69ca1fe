//! Misère play of one-heap games, as calls on games: the least heap with a move, the
//! misère nim-values, the genus table (the engines are in `misere::oneheap`).

use crate::budget::Task;
use crate::game::Game;
use crate::misere::oneheap::{genus_layers, walkable, GenusTable};
use crate::plan::{grundy_table, plan};

/// The least heap with a move, for the games whose heaps without a move are exactly those
/// below it: subtraction and all-but sets (the least move, plus one under `leave1`),
/// interval games, `divisors`, `nondivisors` and unions of these. `u64::MAX` when no heap
/// has a move (an empty set). `None` for `divisors-nontrivial` (1, 2, 3 and every prime
/// have no move) and for take-and-break games; `misere( )` is looked through.
pub fn first_move(game: &Game) -> Option<u64> {
    game.structure().moves.first_move()
}

/// Misère nim-values G⁻(0..=max) of a one-heap game (`misere( )` looked through): 1 at a
/// heap without a move, else the mex of G⁻ over its options (Winning Ways, ch. 13), one
/// walk over every option; `None` for take-and-break games (see [`crate::misere::canon`]).
pub fn misere_values(game: &Game, max: u64) -> Option<Vec<u32>> {
    let moves = game.under_normal_play().structure().moves;
    if !walkable(&moves) {
        return None;
    }
    let mut w =
        crate::observe::Watch::start(&crate::observe::Silent, max.saturating_add(1)).ok()?;
    crate::engines::pull::lists_mex(&moves, 1, max, &mut w).ok()
}

/// The genus and phylum of every heap 0..=max of a one-heap game (`misere( )` looked
/// through): γ0 from `normal` (the game's normal-play Grundy values, which the caller
/// computes with the fast engines), γ1 as [`misere_values`] does, and each later layer by the
/// recursion in the [module documentation](crate::misere), until a layer equals the one two
/// before it — from then on every layer repeats, since each layer is the same function of
/// the one before. Each layer costs one walk over every option. `None` for take-and-break
/// games.
///
/// # Errors
/// [`crate::Error::Cancelled`] when `obs` stops the run; [`crate::Error::BadState`] if
/// `normal` does not hold max + 1 values or the layers do not repeat within
/// [`crate::misere::GENUS_LAYERS`] (never seen).
pub fn genus_table(
    game: &Game,
    normal: &[u32],
    max: u64,
    obs: &dyn crate::Observer,
) -> Result<Option<GenusTable>, crate::Error> {
    genus_layers(
        &game.under_normal_play().structure().moves,
        normal,
        max,
        obs,
    )
}

/// The genus table of heaps 0..=max of a one-heap game (`misere( )` looked through), with
/// its normal-play Grundy table built first by the family's fast engine, after [`crate::plan()`]
/// accepts both within `budget` (the genus costs about four walks over every option, each
/// like the misère nim-values'). `None` for take-and-break games.
///
/// # Errors
/// As [`crate::plan()`] and [`genus_table`].
pub fn genera(
    game: &Game,
    max: u64,
    budget: &crate::Budget,
    obs: &dyn crate::Observer,
) -> Result<Option<GenusTable>, crate::Error> {
    let inner = game.under_normal_play();
    if !walkable(&inner.structure().moves) {
        return Ok(None);
    }
    let misere = inner.with_play(crate::game::Play::Misere);
    let p = plan(&misere, Task::Grundy, max, budget)?;
    obs.planned(&p);
    let layers = 4.0;
    budget.check_time(
        || format!("the genus of {inner} to N = {max}"),
        p.seconds * layers,
    )?;
    budget.check_memory(
        || format!("the genus of {inner} to N = {max}"),
        (max.saturating_add(1)).saturating_mul(4 * 6),
    )?;
    let normal = grundy_table(inner, max, obs)?.to_u32_vec();
    genus_table(inner, &normal, max, obs)
}
