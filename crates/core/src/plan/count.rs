//! P-positions counted without listing them, where the structure allows: an interval
//! game's closed forms, a finite set's outcome period; and estimated counts for the cost
//! of lists.

use crate::game::Game;
use crate::games::finite::finite_p_count_played;
use crate::moves::{Moves, Play};
use crate::table::PCount;

/// The number of P-positions in 0..=max and the largest, without listing them, where the
/// structure has a way: `upto{k}` (an arithmetic progression) and `sqrt` (closed form),
/// O(1) both, misère `upto{k}` (closed form:
/// [`crate::moves::interval::IntervalGame::misere_count_upto`]), and finite
/// subtraction sets (either play) with an outcome period found within 2^24 positions.
/// `None` for every other game.
pub fn count_p_positions(game: &Game, max: u64) -> Option<PCount> {
    let s = game.structure();
    match (&s.moves, s.play) {
        (Moves::Finite { moves, leave1 }, play) if !moves.is_empty() => {
            finite_p_count_played(moves, *leave1, play == Play::Misere, max)
        }
        (Moves::Interval(r), Play::Misere) => {
            let ig = r.pure()?;
            let (count, largest) = ig.misere_count_upto(max)?;
            let first = 1 + u8::from(ig.leave1);
            Some(PCount {
                count,
                largest,
                method: format!("closed form (misère: n ≡ {first} mod (k + 1))"),
            })
        }
        (Moves::Interval(r), Play::Normal) => {
            let ig = r.pure()?;
            let (count, largest) = ig.count_upto(max)?;
            Some(PCount {
                count,
                largest: Some(largest),
                method: ig.closed_form().unwrap_or_default().into(),
            })
        }
        _ => None,
    }
}

/// The number of P-positions in 0..=max, exact where [`count_p_positions`] knows it, else
/// estimated for intervals (misère P-positions: about as many as in normal play); `None`
/// where it cannot be told in advance (sieve games are bounded by their work instead).
pub fn p_count_estimate(game: &Game, max: u64) -> Option<f64> {
    if let Some(c) = count_p_positions(game, max) {
        return Some(c.count as f64);
    }
    match game.structure().moves {
        Moves::Interval(r) => Some(r.p_count_estimate(max)),
        _ => None,
    }
}
