//! Pull engines for one-heap moves listed a segment at a time (divisors by a sieve over the
//! segment, any other structure heap by heap: `moves::listed`): each position reads the
//! outcomes or values of its options.

use crate::engines::stream::{PStream, StreamState};
use crate::mex::ValueSet;
use crate::moves::listed::segment_lists;
use crate::moves::Moves;
use crate::observe::{Stopped, Watch};
use bitvec::prelude::*;

/// P-positions of one-heap moves: n is an N-position iff n − s is a P-position for some
/// amount s of n (in misère play also when n has no move). One outcome bit per position is
/// kept (N / 8 bytes).
pub(crate) struct PullStream {
    moves: Moves,
    /// Misère play: a heap without a move is an N-position.
    misere: bool,
    max: u64,
    lo: u64,
    win: BitVec<u64, Lsb0>,
    count: u64,
}

impl PullStream {
    /// A stream over 0..=max of `moves` (one-heap), or one resumed from `(lo, outcome
    /// words, count)`; in misère play when `misere`.
    pub fn new(moves: Moves, misere: bool, max: u64, resume: Option<(u64, Vec<u64>, u64)>) -> Self {
        let (lo, win, count) = match resume {
            None => (0, BitVec::new(), 0),
            Some((lo, words, count)) => {
                let mut bits = BitVec::<u64, Lsb0>::from_vec(words);
                bits.truncate(lo as usize);
                (lo, bits, count)
            }
        };
        PullStream {
            moves,
            misere,
            max,
            lo,
            win,
            count,
        }
    }
}

impl PStream for PullStream {
    fn done(&self) -> u64 {
        self.lo
    }
    fn advance(&mut self, out: &mut Vec<u64>) -> bool {
        if self.lo > self.max {
            return false;
        }
        let lo = self.lo;
        let lists = segment_lists(&self.moves, lo, self.max);
        let hi = lists.hi();
        for n in lo..hi {
            let ds = lists.of(n);
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
        match self.moves {
            Moves::Divisors { .. } => "divisor pull",
            _ => "option pull",
        }
    }
}

/// Values 0..=max of one-heap moves: the mex of the options' values, `empty` at a heap
/// without a move (0: normal play's Grundy values; 1: misère nim-values, Winning Ways ch.
/// 13). One step per (heap, amount).
///
/// # Errors
/// When stopped.
pub(crate) fn lists_mex(
    moves: &Moves,
    empty: u32,
    max: u64,
    watch: &mut Watch,
) -> Result<Vec<u32>, Stopped> {
    let mut g: Vec<u32> = Vec::with_capacity(max as usize + 1);
    let mut lo = 0u64;
    let mut seen = ValueSet::default();
    while lo <= max {
        let lists = segment_lists(moves, lo, max);
        let hi = lists.hi();
        for n in lo..hi {
            watch.at(n)?;
            let ds = lists.of(n);
            if ds.is_empty() {
                g.push(empty);
                continue;
            }
            seen.clear();
            for &d in ds {
                seen.insert(g[(n - d) as usize]);
            }
            g.push(seen.mex());
        }
        lo = hi;
    }
    Ok(g)
}

/// Outcomes 0..=max (true: N-position) of a seeded start: the prescribed outcomes of heaps
/// 0..start.len(), then by the inner one-heap moves (an N-position has a move to a
/// P-position). One step per (heap, amount).
///
/// # Errors
/// When stopped.
pub(crate) fn seeded_outcomes(
    start: &[bool],
    inner: &Moves,
    max: u64,
    watch: &mut Watch,
) -> Result<Vec<bool>, Stopped> {
    let mut win: Vec<bool> = Vec::with_capacity(max as usize + 1);
    let mut lo = 0u64;
    while lo <= max {
        let lists = segment_lists(inner, lo, max);
        let hi = lists.hi();
        for n in lo..hi {
            watch.at(n)?;
            let w = match start.get(n as usize) {
                Some(&w) => w,
                None => lists.of(n).iter().any(|&s| !win[(n - s) as usize]),
            };
            win.push(w);
        }
        lo = hi;
    }
    Ok(win)
}
