//! The window sieve for finite subtraction sets: each P-position p marks p + s for the
//! moves s in a buffer that covers the current segment plus the largest move ahead (Golomb
//! 1966), so memory is O(segment + largest move) bits whatever N is.

use super::sieve::DEFAULT_SEGMENT_BITS;
use super::stream::{PStream, StreamState};

/// Finite subtraction set: each P-position p marks p + s for s in S in a buffer that covers
/// the current segment plus the largest move ahead.
pub(crate) struct WindowStream {
    moves: Vec<u64>,
    leave1: bool,
    /// Positions below this have no move: misère N-positions, never marked as P (0 in
    /// normal play, where a heap without a move is a P-position).
    first: u64,
    max: u64,
    seg: u64,
    lo: u64,
    marks: Vec<u64>,
    count: u64,
}

impl WindowStream {
    /// A stream over 0..=max for the finite set `moves` (increasing), or one resumed from
    /// `(lo, marks, count)` of [`StreamState::Window`]. Positions below `first` are taken
    /// as N-positions that mark nothing (misère play: the heaps without a move; 0 in
    /// normal play).
    pub fn new(
        mut moves: Vec<u64>,
        leave1: bool,
        first: u64,
        max: u64,
        resume: Option<(u64, Vec<u64>, u64)>,
    ) -> WindowStream {
        // moves beyond max never apply (and would size the buffer)
        moves.retain(|&s| s <= max);
        let k = *moves.last().unwrap_or(&1);
        let seg = (DEFAULT_SEGMENT_BITS)
            .max(k.next_power_of_two())
            .min(1 << 26);
        let (lo, marks, count) = resume.unwrap_or((0, Vec::new(), 0));
        WindowStream {
            moves,
            leave1,
            first,
            max,
            seg,
            lo,
            marks,
            count,
        }
    }
}

impl PStream for WindowStream {
    fn done(&self) -> u64 {
        self.lo
    }
    fn advance(&mut self, out: &mut Vec<u64>) -> bool {
        if self.lo > self.max {
            return false;
        }
        let lo = self.lo;
        let hi = (lo + self.seg).min(self.max + 1);
        let k = self.moves.last().copied().unwrap_or(0);
        // buffer covers lo .. hi + k
        let words = ((hi - lo) + k).div_ceil(64) as usize + 1;
        if self.marks.len() < words {
            self.marks.resize(words, 0);
        }
        let marks = &mut self.marks;
        for off in 0..(hi - lo) as usize {
            if marks[off >> 6] >> (off & 63) & 1 == 0 {
                let p = lo + off as u64;
                if p < self.first {
                    continue;
                }
                out.push(p);
                self.count += 1;
                if self.leave1 && p == 0 {
                    continue;
                }
                for &s in &self.moves {
                    let o = off + s as usize;
                    marks[o >> 6] |= 1 << (o & 63);
                }
            }
        }
        // Shift the pending marks beyond hi to the front.
        let shift = (hi - lo) as usize;
        let (ws, bs) = (shift >> 6, shift & 63);
        let n = marks.len();
        for i in 0..n {
            let a = marks.get(i + ws).copied().unwrap_or(0);
            let b = marks.get(i + ws + 1).copied().unwrap_or(0);
            marks[i] = if bs == 0 {
                a
            } else {
                (a >> bs) | (b << (64 - bs))
            };
        }
        self.lo = hi;
        true
    }
    fn state(&self) -> StreamState {
        StreamState::Window {
            lo: self.lo,
            marks: self.marks.clone(),
            count: self.count,
        }
    }
    fn count(&self) -> u64 {
        self.count
    }
    fn method(&self) -> &'static str {
        "window sieve"
    }
}
