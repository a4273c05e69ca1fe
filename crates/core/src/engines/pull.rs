//! Pull engines for games whose options are listed per segment (the divisor games): each
//! position reads the values of its options, found as CSR lists a segment at a time
//! ([`crate::games::divisors::divisor_lists`]).

use super::stream::{PStream, StreamState};
use crate::games::divisors::divisor_lists;
use crate::mex::ValueSet;
use crate::observe::{Stopped, Watch};
use bitvec::prelude::*;

/// Positions per segment of the divisor lists.
const SEGMENT: u64 = 1 << 16;

/// Divisor games' P-positions: n is an N-position iff n - d is a P-position for some
/// proper divisor d of n (d >= 2 for the non-trivial variant). One outcome bit per
/// position is kept (N / 8 bytes).
pub(crate) struct DivisorStream {
    nontrivial: bool,
    /// Instead of divisors, the moves of this one-heap game listed heap by heap (unions of
    /// families, `nondivisors`): the same pull with another option list.
    listed: Option<crate::game::Game>,
    /// Misère play: a heap without a move is an N-position.
    misere: bool,
    max: u64,
    lo: u64,
    win: BitVec<u64, Lsb0>,
    count: u64,
}

impl DivisorStream {
    /// A stream over 0..=max, or one resumed from `(lo, outcome words, count)`; in misère
    /// play when `misere`.
    pub fn new(
        nontrivial: bool,
        misere: bool,
        max: u64,
        resume: Option<(u64, Vec<u64>, u64)>,
    ) -> Self {
        let (lo, win, count) = match resume {
            None => (0, BitVec::new(), 0),
            Some((lo, words, count)) => {
                let mut bits = BitVec::<u64, Lsb0>::from_vec(words);
                bits.truncate(lo as usize);
                (lo, bits, count)
            }
        };
        DivisorStream {
            nontrivial,
            listed: None,
            misere,
            max,
            lo,
            win,
            count,
        }
    }
}

impl DivisorStream {
    /// The pull over the moves of `game` (listed by [`crate::Game::moves_of`]) instead of
    /// divisors.
    pub fn listed(mut self, game: crate::game::Game) -> Self {
        self.listed = Some(game);
        self
    }
}

impl PStream for DivisorStream {
    fn done(&self) -> u64 {
        self.lo
    }
    fn advance(&mut self, out: &mut Vec<u64>) -> bool {
        if self.lo > self.max {
            return false;
        }
        let lo = self.lo;
        let hi = (lo + SEGMENT).min(self.max + 1);
        let (start, divs) = match &self.listed {
            Some(g) => listed_moves(g, lo, hi),
            None => divisor_lists(lo, hi, self.nontrivial),
        };
        for n in lo..hi {
            let i = (n - lo) as usize;
            let ds = &divs[start[i] as usize..start[i + 1] as usize];
            let w =
                (self.misere && ds.is_empty()) || ds.iter().any(|&d| !self.win[(n - d) as usize]);
            self.win.push(w);
            if !w {
                out.push(n);
                self.count += 1;
            }
        }
        self.lo = hi;
        true
    }
    fn state(&self) -> StreamState {
        StreamState::Divisors {
            lo: self.lo,
            win: self.win.as_raw_slice().to_vec(),
            count: self.count,
        }
    }
    fn count(&self) -> u64 {
        self.count
    }
    fn method(&self) -> &'static str {
        match self.listed {
            Some(_) => "option pull",
            None => "divisor pull",
        }
    }
}

/// The moves of every heap in [lo, hi) of a one-heap game as CSR lists, like
/// [`divisor_lists`]: the moves of n are `moves[start[n - lo]..start[n - lo + 1]]`.
pub(crate) fn listed_moves(game: &crate::game::Game, lo: u64, hi: u64) -> (Vec<u32>, Vec<u64>) {
    let mut start = vec![0u32];
    let mut moves = vec![];
    for n in lo..hi {
        moves.extend(game.moves_of(n).unwrap_or_default());
        start.push(u32::try_from(moves.len()).unwrap_or(u32::MAX));
    }
    (start, moves)
}

/// Grundy values 0..=max of a divisor game: g(n) = mex{g(n - d) : d a proper divisor of n
/// (d >= 2 if nontrivial)}.
pub(crate) fn divisor_grundy(
    nontrivial: bool,
    max: u64,
    watch: &mut Watch,
) -> Result<Vec<u32>, Stopped> {
    let mut g: Vec<u32> = Vec::with_capacity(max as usize + 1);
    let mut lo = 0u64;
    let mut seen = ValueSet::default();
    while lo <= max {
        watch.at(lo)?;
        let hi = (lo + SEGMENT).min(max + 1);
        let (start, divs) = divisor_lists(lo, hi, nontrivial);
        for n in lo..hi {
            let i = (n - lo) as usize;
            seen.clear();
            for &d in &divs[start[i] as usize..start[i + 1] as usize] {
                seen.insert(g[(n - d) as usize]);
            }
            g.push(seen.mex());
        }
        lo = hi;
    }
    Ok(g)
}
