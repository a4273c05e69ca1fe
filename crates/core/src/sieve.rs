//! The segmented parallel P-position sieve for subtraction games with a sparse infinite set
//! (squares, cubes, primes, unions, …).
//!
//! Every P-position p makes p + s an N-position for each move s (Golomb 1966; the "sieve
//! forward from each cold position" of Eppstein, FUN 2018). Positions are processed in
//! segments of `seg_bits` positions (cache-sized, one bit each):
//!
//! 1. **old marks** — every P-position found before the segment marks its moves that land in
//!    the segment, resuming from its saved state (the index of its next move), so no mark is
//!    ever computed twice. This phase is parallel: rayon splits the P-position list, each
//!    worker marks into its own private segment buffer (no atomics, no shared cache lines in
//!    the hot loop), and the buffers are OR-merged word by word over disjoint word ranges.
//!    Private buffers avoid what splitting the segment itself would cost: a root or search
//!    per P-position per sub-range to find where its moves enter that sub-range.
//! 2. **discovery** — one thread scans the segment for clear bits; each is a new P-position,
//!    which marks its moves inside the segment at once and saves its state for later segments.
//!
//! Memory: 12 bytes per P-position (position and state) plus one segment buffer per worker —
//! it grows with the answer, never with N.

use crate::num::isqrt;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Default segment length in positions (bits): 2^21 bits = 256 KiB, inside a 1 MiB L2.
pub const DEFAULT_SEGMENT_BITS: u64 = 1 << 21;

/// Old P-positions below this count are marked on the calling thread (the parallel split
/// would cost more than it saves).
const PARALLEL_MIN: usize = 4096;

/// The moves of the sieve, increasing: `get(0) < get(1) < …`, and `get(count())` is a
/// sentinel larger than any position.
pub trait Moves: Sync + Send {
    /// Number of real moves.
    fn count(&self) -> u32;
    /// The i-th move (0-based); the sentinel at `count()`.
    fn get(&self, i: u32) -> u64;
}

/// The sentinel move: no position reaches it (positions are capped at 2^62).
pub const SENTINEL: u64 = 1 << 62;

/// The largest N the sieve accepts (positions plus moves stay below 2^63).
pub const MAX_SIEVE_N: u64 = (1 << 62) - 1;

/// Squares 1, 4, 9, … computed on the fly (no list in memory).
#[derive(Debug, Clone)]
pub struct SquareMoves {
    count: u32,
}

impl SquareMoves {
    /// The squares up to `max`.
    pub fn new(max: u64) -> SquareMoves {
        SquareMoves {
            count: isqrt(max) as u32,
        }
    }
}

impl Moves for SquareMoves {
    #[inline(always)]
    fn count(&self) -> u32 {
        self.count
    }
    #[inline(always)]
    fn get(&self, i: u32) -> u64 {
        if i >= self.count {
            SENTINEL
        } else {
            let k = i as u64 + 1;
            k * k
        }
    }
}

/// Any increasing list of moves.
#[derive(Debug, Clone)]
pub struct ListMoves {
    v: Vec<u64>,
}

impl ListMoves {
    /// From an increasing list of positive moves.
    ///
    /// # Panics
    /// If the list holds 2^32 or more moves.
    pub fn new(mut v: Vec<u64>) -> ListMoves {
        assert!(v.len() < u32::MAX as usize, "too many moves for the sieve");
        v.push(SENTINEL);
        ListMoves { v }
    }
}

impl Moves for ListMoves {
    #[inline(always)]
    fn count(&self) -> u32 {
        (self.v.len() - 1) as u32
    }
    #[inline(always)]
    fn get(&self, i: u32) -> u64 {
        // SAFETY: every state index is <= count(), and v[count()] is the sentinel.
        debug_assert!((i as usize) < self.v.len());
        unsafe { *self.v.get_unchecked(i as usize) }
    }
}

/// Marks p + get(i), p + get(i+1), … while below `hi`, into `buf` (bit t - lo). Returns the
/// index of the first move not applied. Requires p + get(i) >= lo.
#[inline(always)]
fn mark_run<M: Moves>(moves: &M, p: u64, mut i: u32, lo: u64, hi: u64, buf: &mut [u64]) -> u32 {
    debug_assert!(hi - lo <= buf.len() as u64 * 64);
    loop {
        let t = p + moves.get(i);
        if t >= hi {
            return i;
        }
        debug_assert!(t >= lo);
        let o = (t - lo) as usize;
        // SAFETY: lo <= t < hi and hi - lo <= 64 * buf.len().
        unsafe {
            *buf.get_unchecked_mut(o >> 6) |= 1u64 << (o & 63);
        }
        i += 1;
    }
}

/// Saved state of a [`SetSieve`]: enough to resume exactly where it stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SieveState {
    /// Every position below `lo` is decided.
    pub lo: u64,
    /// The P-positions below `lo`, increasing.
    pub ps: Vec<u64>,
    /// For each, the index of its next move not yet marked.
    pub next: Vec<u32>,
}

/// The segmented parallel sieve over positions 0..=max.
pub struct SetSieve<M: Moves> {
    moves: M,
    max: u64,
    leave1: bool,
    seg_bits: u64,
    state: SieveState,
    buf: Vec<u64>,
}

impl<M: Moves> SetSieve<M> {
    /// A sieve for positions 0..=max (max <= [`MAX_SIEVE_N`]); `leave1` forbids taking the
    /// whole heap (so position 0 is never an option). `seg_bits` is rounded up to a multiple
    /// of 64.
    pub fn new(moves: M, max: u64, leave1: bool, seg_bits: u64) -> SetSieve<M> {
        assert!(max <= MAX_SIEVE_N);
        let seg_bits = seg_bits.max(64).div_ceil(64) * 64;
        SetSieve {
            moves,
            max,
            leave1,
            seg_bits,
            state: SieveState {
                lo: 0,
                ps: Vec::new(),
                next: Vec::new(),
            },
            buf: Vec::new(),
        }
    }

    /// Resumes from a saved state.
    pub fn resume(moves: M, max: u64, leave1: bool, seg_bits: u64, state: SieveState) -> Self {
        let mut s = SetSieve::new(moves, max, leave1, seg_bits);
        s.state = state;
        s
    }

    /// Positions below this are decided.
    pub fn done(&self) -> u64 {
        self.state.lo
    }

    /// The state, for checkpoints.
    pub fn state(&self) -> &SieveState {
        &self.state
    }

    /// Number of P-positions found so far.
    pub fn count(&self) -> u64 {
        self.state.ps.len() as u64
    }

    /// Decides the next segment and appends its P-positions to `out`. Returns false once
    /// every position up to max is decided (and then does nothing).
    pub fn advance(&mut self, out: &mut Vec<u64>) -> bool {
        let lo = self.state.lo;
        if lo > self.max {
            return false;
        }
        let hi = (lo + self.seg_bits).min(self.max + 1);
        let words = (hi - lo).div_ceil(64) as usize;
        let old = self.state.ps.len();
        let moves = &self.moves;

        // Phase 1: marks of the P-positions found in earlier segments.
        let merged = if old >= PARALLEL_MIN && rayon::current_num_threads() > 1 {
            let chunk = (old / (8 * rayon::current_num_threads())).max(1024);
            let ps = &self.state.ps;
            let next = &mut self.state.next;
            ps.par_chunks(chunk)
                .zip(next.par_chunks_mut(chunk))
                .fold(
                    || vec![0u64; words],
                    |mut buf, (pc, nc)| {
                        for (&p, i) in pc.iter().zip(nc.iter_mut()) {
                            *i = mark_run(moves, p, *i, lo, hi, &mut buf);
                        }
                        buf
                    },
                )
                .reduce_with(|mut a, b| {
                    a.par_chunks_mut(4096)
                        .zip(b.par_chunks(4096))
                        .for_each(|(x, y)| x.iter_mut().zip(y).for_each(|(x, y)| *x |= y));
                    a
                })
        } else {
            None
        };
        let buf = match merged {
            Some(b) => {
                self.buf = b;
                &mut self.buf
            }
            None => {
                self.buf.clear();
                self.buf.resize(words, 0);
                for (&p, i) in self.state.ps.iter().zip(self.state.next.iter_mut()) {
                    *i = mark_run(moves, p, *i, lo, hi, &mut self.buf);
                }
                &mut self.buf
            }
        };

        // Phase 2: discovery in order; each new P-position marks inside the segment.
        let len = (hi - lo) as usize;
        let mut pos = 0usize;
        while pos < len {
            let wi = pos >> 6;
            let mut free = !buf[wi] & (u64::MAX << (pos & 63));
            if wi == words - 1 && !len.is_multiple_of(64) {
                free &= (1u64 << (len % 64)) - 1;
            }
            if free == 0 {
                pos = (wi + 1) << 6;
                continue;
            }
            let b = (wi << 6) + free.trailing_zeros() as usize;
            let p = lo + b as u64;
            out.push(p);
            self.state.ps.push(p);
            let i = if self.leave1 && p == 0 {
                // Position 0 is never an option when the whole heap may not be taken.
                moves.count()
            } else {
                mark_run(moves, p, 0, lo, hi, buf)
            };
            self.state.next.push(i);
            pos = b + 1;
        }
        self.state.lo = hi;
        true
    }
}

/// P-positions of the subtraction game with moves `moves` (no leave1) up to `max`, by the
/// sieve with the default segment; convenience for tests and small runs.
pub fn p_positions<M: Moves>(moves: M, max: u64, leave1: bool) -> Vec<u64> {
    let mut s = SetSieve::new(moves, max, leave1, DEFAULT_SEGMENT_BITS);
    let mut out = Vec::new();
    while s.advance(&mut out) {}
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::outcome_by_definition;
    use crate::spec::Game;

    #[test]
    fn squares_match_a030193_and_the_counts() {
        // OEIS A030193 (P-positions of subtract-a-square), first terms.
        let a030193 = [
            0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39, 44, 52, 57, 62, 65, 67, 72, 85, 95, 109,
            119, 124, 127, 130, 132, 137, 142, 147, 150, 170, 177, 180, 182, 187, 192, 197, 204,
            210, 215, 238, 243, 249, 255, 257, 260, 262, 267, 272, 275, 312, 317, 322, 327, 332,
            335, 340,
        ];
        let ps = p_positions(SquareMoves::new(340), 340, false);
        assert_eq!(ps, a030193);
        // Small segments and many segments give the same answer.
        for seg in [64, 128, 1000, 4096] {
            let mut s = SetSieve::new(SquareMoves::new(100_000), 100_000, false, seg);
            let mut out = vec![];
            while s.advance(&mut out) {}
            assert_eq!(out.len(), 2781, "seg {seg}");
        }
        let ps = p_positions(SquareMoves::new(1_000_000), 1_000_000, false);
        let count = |n: u64| ps.iter().filter(|&&p| p <= n).count();
        assert_eq!(
            [count(1000), count(10_000), count(100_000), count(1_000_000)],
            [115, 579, 2781, 13952]
        );
    }

    #[test]
    fn parallel_phase_equals_serial() {
        // Large enough that old marks run in parallel (more than PARALLEL_MIN P-positions).
        let n = 3_000_000;
        let par = p_positions(SquareMoves::new(n), n, false);
        let serial = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| p_positions(SquareMoves::new(n), n, false));
        assert!(par.len() > PARALLEL_MIN);
        assert_eq!(par, serial);
    }

    #[test]
    fn list_moves_equal_the_definition() {
        for spec in [
            "cubes",
            "primes|sub{1}",
            "fibonacci",
            "leave1(primes)",
            "squares|cubes",
        ] {
            let g = Game::parse(spec).unwrap();
            let (set, leave1) = match &g {
                Game::Subtraction { set, leave1 } => (set.clone(), *leave1),
                _ => unreachable!(),
            };
            let win = outcome_by_definition(&g, 2000);
            let expect: Vec<u64> = (0..=2000u64).filter(|&n| !win[n as usize]).collect();
            let mut s = SetSieve::new(ListMoves::new(set.elements_upto(2000)), 2000, leave1, 256);
            let mut got = vec![];
            while s.advance(&mut got) {}
            assert_eq!(got, expect, "{spec}");
        }
    }

    #[test]
    fn resume_continues_exactly() {
        let n = 200_000;
        let full = p_positions(SquareMoves::new(n), n, false);
        let mut s = SetSieve::new(SquareMoves::new(n), n, false, 4096);
        let mut out = vec![];
        for _ in 0..10 {
            s.advance(&mut out);
        }
        let st = s.state().clone();
        let mut r = SetSieve::resume(SquareMoves::new(n), n, false, 4096, st);
        while r.advance(&mut out) {}
        assert_eq!(out, full);
    }
}
