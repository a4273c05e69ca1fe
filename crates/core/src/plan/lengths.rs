//! How long a game lasts: Smith's remoteness ([`remoteness_table`]) and the formal birthday
//! ([`birthday_table`]) of every heap 0..=N, planned and budgeted like any other table
//! ([`Task::Remoteness`], [`Task::Birthday`]; the engine is `engines::remote`).

use crate::budget::{Budget, Engine, Task};
use crate::error::Error;
use crate::game::Game;
use crate::observe::{Observer, Watch};
use crate::plan::{plan, Plan};
use crate::table::GrundyTable;

impl Plan {
    /// [`Plan::run`] for a remoteness or birthday plan: the table, in the narrowest unsigned
    /// type that holds its values.
    ///
    /// # Errors
    /// As [`Plan::run`]; [`Error::Unsupported`] for a plan of another task.
    pub fn lengths(&self, obs: &dyn Observer) -> Result<GrundyTable, Error> {
        if self.task != Task::Birthday {
            self.expect(Task::Remoteness)?;
        }
        debug_assert_eq!(self.engine, Engine::OptionWalk);
        if !crate::engines::mem::can_allocate(self.memory) {
            return Err(self.out_of_memory(crate::engines::remote::table_name(self.task)));
        }
        let watch = &mut Watch::start(obs, self.max.saturating_add(1))?;
        let t = crate::engines::remote::lengths(
            self.structure(),
            self.task,
            self.max,
            &self.game,
            watch,
        )?;
        Ok(GrundyTable::from_u32(t))
    }
}

/// Plans `task` (remoteness or birthday) of `game` over 0..=max within `budget`, tells
/// `obs`, and runs it.
fn planned_lengths(
    game: &Game,
    task: Task,
    max: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<GrundyTable, Error> {
    let p = plan(game, task, max, budget)?;
    obs.planned(&p);
    p.lengths(obs)
}

/// Smith's remoteness R(n) of every heap 0 <= n <= max, in the game's play (C. A. B.
/// Smith, "Graphs and composite games", J. Combin. Theory 1 (1966) 51–81; Winning Ways,
/// ch. 9): the number of moves the game lasts when the winner hurries and the loser delays.
///
/// - **Normal play** (the last player to move wins): R(n) = 0 when n has no option; else,
///   if some option has even remoteness, R(n) = 1 + the least even R(option); else (every
///   option odd) R(n) = 1 + the largest R(option). n is a P-position exactly when R(n) is
///   even.
/// - **Misère play** (`misere( )`: the player who cannot move wins): the same recursion
///   with the end reversed. R(n) = 0 when n has no option (an N-position: the player to
///   move cannot move, and so wins); else, if some option has odd remoteness (a misère P-position),
///   R(n) = 1 + the least odd R(option); else R(n) = 1 + the largest R(option). n is a
///   misère P-position exactly when R(n) is odd; R(n) still counts the moves to the end of
///   a play in which the winner hurries and the loser delays.
///
/// Every move leaves one heap: the remoteness of a sum of heaps is not a function of the
/// heaps' remoteness, so games whose moves split a heap (take-and-break codes, extended codes) are refused, and so are
/// coin-turning and `seed( )` games. One walk over every option of every heap: the
/// options of one-heap moves as the misère mex lists them, so interval games with about
/// n / 2 options a heap (`half`) cost about N² / 4 steps. Values come in the narrowest
/// unsigned type that holds them ([`GrundyTable`] is heaplab's table of small values per
/// heap).
///
/// # Errors
/// [`Error::Unsupported`] for the games above (one sentence with the reason);
/// [`Error::TooLarge`] past 2^31 − 2; [`Error::Refused`] when `budget` does not allow the
/// run's memory (8 bytes a heap, plus one segment's move lists) or time, naming the largest
/// N that fits; [`Error::OutOfMemory`]; [`Error::Cancelled`] when `obs` stops it.
pub fn remoteness_table(
    game: &Game,
    max: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<GrundyTable, Error> {
    planned_lengths(game, Task::Remoteness, max, budget, obs)
}

/// The formal birthday B(n) of every heap 0 <= n <= max: the height of the game tree,
/// B(n) = 0 when n has no option, else 1 + the largest B(option) — the number of moves in
/// the longest play from n. It does not depend on the play (normal or misère). For a move
/// that leaves a sum of heaps the option's birthday is the sum of the heaps' birthdays (the
/// longest play of a disjunctive sum plays each part to its end), so take-and-break and
/// extended codes are computed too; coin-turning and `seed( )` games are refused.
///
/// The canonical (normal-play) birthday of an impartial position — the birthday of its
/// simplest equal game — is its Grundy value (the position equals the nimber *g, whose
/// options are *0 … *(g − 1), born on day g; A. N. Siegel, *Combinatorial Game Theory*,
/// AMS 2013, ch. II), so this table gives the formal one, which is never smaller. One walk over every option of every heap: a
/// take-and-break code visits every split, about N² / 4 steps per digit that may leave two
/// heaps and N³ / 36 per digit that may leave three. Values come in the narrowest unsigned
/// type that holds them.
///
/// # Errors
/// [`Error::Unsupported`] for coin-turning and `seed( )` games; [`Error::TooLarge`] past
/// 2^31 − 2; [`Error::Refused`] when `budget` does not allow the run, naming the largest N
/// that fits; [`Error::OutOfMemory`]; [`Error::Cancelled`] when `obs` stops it.
pub fn birthday_table(
    game: &Game,
    max: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<GrundyTable, Error> {
    planned_lengths(game, Task::Birthday, max, budget, obs)
}
