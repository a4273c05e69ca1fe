//! P-positions counted without listing them, where the structure allows: an interval
//! game's closed forms, a finite set's outcome period; and estimated counts for the cost
//! of lists.

use crate::game::Game;
use crate::games::finite::finite_p_count_played;
use crate::moves::bound::Bound;
use crate::moves::interval::IntervalGame;
use crate::moves::{Moves, Play};
use crate::table::PCount;

/// The number of P-positions in 0..=max and the largest, without listing them, where the
/// structure has a way: `upto{k}` (an arithmetic progression) and `sqrt` (closed form),
/// O(1) both, misère `upto{k}` (closed form: [`misere_upto_count`]), and finite
/// subtraction sets (either play) with an outcome period found within 2^24 positions.
/// `None` for every other game.
pub fn count_p_positions(game: &Game, max: u64) -> Option<PCount> {
    let s = game.structure();
    match (&s.moves, s.play) {
        (Moves::Finite { moves, leave1 }, play) if !moves.is_empty() => {
            finite_p_count_played(moves, *leave1, play == Play::Misere, max)
        }
        (Moves::Interval(r), Play::Misere) => match r.pure()? {
            IntervalGame {
                bound: Bound::Upto(k),
                leave1,
            } if k >= 1 => Some(misere_upto_count(k, leave1, max)),
            _ => None,
        },
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

/// [`PCount`] of misère `upto{k}` (k >= 1; `leave1`: a move may not take the whole heap)
/// over 0..=max. The heaps below r = 1 (r = 2 with leave1: heap 1 cannot move) have no
/// move, so they are misère N-positions; heap n >= r is a P-position exactly when
/// n ≡ r (mod k + 1): from such a heap every move (1..=k tokens, leaving at least r - 1)
/// reaches a heap not ≡ r, and from any other heap n > r one move reaches the largest heap
/// ≡ r below it (the misère Bash game; Winning Ways ch. 13). For k = 2^64 - 1 (misère Nim
/// of one heap) only heap r is lost.
pub fn misere_upto_count(k: u64, leave1: bool, max: u64) -> PCount {
    let r = 1 + u64::from(leave1);
    let method = format!("closed form (misère: n ≡ {r} mod (k + 1))");
    let (count, largest) = match k.checked_add(1) {
        _ if max < r => (0, None),
        Some(m) => ((max - r) / m + 1, Some(max - (max - r) % m)),
        None => (1, Some(r)),
    };
    PCount {
        count,
        largest,
        method,
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
