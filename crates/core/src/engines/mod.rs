//! The algorithms, one module each, shared by the families that use them:
//!
//! | module | algorithm |
//! |---|---|
//! | `sieve` | the segmented, parallel P-position sieve (every P-position p marks p + s) |
//! | `window` | the window sieve of finite sets |
//! | `pull` | divisor games: each position reads its options from per-segment lists |
//! | `mex` | the plain mex, position by position |
//! | `remote` | remoteness and birthday: one walk over every option of every heap |
//! | `blocked` | the blocked, transposed mex (and its AVX-512 marks) |
//! | `sparse` | the sparse-space method for take-and-break codes |
//! | `layers` | dense subtraction sets layer by layer, by online FFT convolution |
//! | `stream` | the P-position engines' common shape and its saved state |
//! | `crew` | helper threads and the block pipeline the blocked engines share |
//! | `mem` | huge-page advice for large tables |
//!
//! Which engine runs for which game is decided in [`crate::plan()`] (the module `plan`); the items public here
//! are for benchmarks and experiments that drive one engine directly.

pub(crate) mod blocked;
pub(crate) mod crew;
pub(crate) mod interval;
pub(crate) mod knapsack;
pub(crate) mod layers;
pub(crate) mod mem;
pub(crate) mod mex;
pub(crate) mod pull;
pub(crate) mod remote;
pub(crate) mod sieve;
pub(crate) mod sparse;
pub(crate) mod stream;
pub(crate) mod window;

pub use sieve::{
    p_positions, ListMoves, Moves, SetSieve, SieveState, SquareMoves, DEFAULT_SEGMENT_BITS,
    MAX_SIEVE_N,
};
pub use sparse::{Mask, OctalStats, RareSummary};
pub use stream::StreamState;

use crate::game::Game;
use crate::moves::breaker::Breaker;
use crate::observe::{Observer, Watch};

/// The sparse-space classification of `g`, the Grundy values 0..=N of `game`: the mask
/// (bits, range or domain type, rare class) leaving the fewest rare positions over the
/// second half of the table, among those the engine may pick (Flammenkamp's sparse-space
/// method: range type with rare class 0; domain type only when every splitting move
/// removes tokens of one parity t, with rare class t mod 2). None when `game` is not a
/// take-and-break game that splits heaps in two (and never in three), when no mask leaves
/// fewer than a quarter of the positions rare, or when the values are all 0.
pub fn rare_summary(game: &Game, g: &[u32]) -> Option<RareSummary> {
    sparse::rare_summary_of(&Breaker::of(game)?, g)
}

/// Grundy values 0..=max of a take-and-break rule by the sparse-space engine, with its
/// statistics (the mask, rare positions, a period proven by Guy–Smith).
///
/// # Errors
/// [`crate::Error::Cancelled`] when `obs` stops the run.
pub fn sparse_space(
    br: &Breaker,
    max: u64,
    obs: &dyn Observer,
) -> Result<(Vec<u32>, OctalStats), crate::Error> {
    let mut watch = Watch::start(obs, max.saturating_add(1))?;
    Ok(sparse::take_break_grundy(br, max, &mut watch)?)
}

/// Grundy values 0..=max of the subtraction game with the increasing move list `moves` by
/// the engine named, whatever the size (for benchmarks that set the layer engine against
/// the blocked mex): [`crate::Engine::LayeredMex`] (`layers`: one online FFT convolution
/// per value) or [`crate::Engine::BlockedMex`] (`blocked`). None when a value would reach
/// 65535.
///
/// # Errors
/// [`crate::Error::Unsupported`] for another engine; [`crate::Error::Cancelled`] when `obs`
/// stops the run.
pub fn dense_subtraction(
    engine: crate::Engine,
    moves: &[u64],
    leave1: bool,
    max: u64,
    obs: &dyn Observer,
) -> Result<Option<Vec<u16>>, crate::Error> {
    let mut watch = Watch::start(obs, max.saturating_add(1))?;
    Ok(match engine {
        crate::Engine::LayeredMex => layers::layered_grundy(moves, leave1, max, &mut watch)?,
        crate::Engine::BlockedMex => blocked::blocked_mex_grundy(moves, leave1, max, &mut watch)?,
        other => {
            return Err(crate::Error::Unsupported {
                what: format!("the {} engine on a move list", other.name()),
            })
        }
    })
}
