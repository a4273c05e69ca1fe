//! The segmented parallel P-position sieve for subtraction games with an infinite set
//! (squares, cubes, primes, unions, …).
//!
//! Every P-position p makes p + s an N-position for each move s (Golomb 1966; the "sieve
//! forward from each cold position" of Eppstein, FUN 2018). Positions are decided in
//! cache-sized segments of `seg_bits` positions, one bit each, in two phases:
//!
//! 1. **old marks** (parallel). The loop is transposed: for each move s, the P-positions
//!    that reach the segment through s are exactly a window [lo - s, hi - s) of the sorted
//!    P-position list, so one visit per move per segment makes hundreds of marks, reading the
//!    list sequentially and writing the segment left to right. Each move keeps a cursor where
//!    its last window ended, so no P-position is read twice. rayon splits the moves; each
//!    worker marks into a private copy of the segment (no atomics, no shared cache lines in
//!    the hot loop), and the copies are OR-ed together over disjoint word ranges
//!    (`par_chunks_mut` over the raw words). Splitting the segment itself instead would cost
//!    a search per move per sub-range to skip the other sub-ranges' P-positions.
//! 2. **discovery** (sequential). The segment is scanned for clear bits; each is a new
//!    P-position and marks its moves inside the segment at once.
//!
//! For the squares, the old marks skip what can only land on marked positions: mod 5 a
//! square is 0, 1 or 4, and from some height on the positions ≡ 1 or 3 are all
//! N-positions, marked from P-positions near them; once a segment's first moves have marked
//! all of them, the other moves skip the P-positions whose marks would land there (about
//! half the marks at 10^11; see [`SetSieve::skip_residues`]).
//!
//! The phases are pipelined: while one thread discovers segment i, the others already make
//! the old marks of segment i + 1 (every P-position below segment i); the discovering thread
//! then marks segment i + 1 from the new P-positions of segment i (into a buffer of its own,
//! OR-ed in afterwards), so no mark is made outside the parallel part.
//!
//! Memory: 8 bytes per P-position (about 12 for the squares, whose residue lists hold
//! another copy of half of them), 16 bytes per move (32 for the squares), two segments and
//! one private copy per worker: it grows with the answer (and with √N for squares), never
//! with N. The saved state is just (lo, P-positions below lo).

use crate::num::{isqrt, isqrt_ceil};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::Mutex;

/// Default segment length in positions (bits): 2^19 bits = 64 KiB.
pub const DEFAULT_SEGMENT_BITS: u64 = 1 << 19;

/// Moves marked together (sharing the reads of their common window core) by the old-marks
/// kernel.
const LANES: usize = 8;

/// Old marks run on the calling thread below this many P-positions.
const PARALLEL_MIN: usize = 2048;

/// The largest N the sieve accepts (positions plus moves stay below 2^63).
pub const MAX_SIEVE_N: u64 = (1 << 62) - 1;

/// Sets bit `o` of `words`.
///
/// # Safety
/// `o < 64 * words.len()`.
#[inline(always)]
unsafe fn set_bit(words: &mut [u64], o: u64) {
    // SAFETY: o / 64 < words.len() (the caller's bound).
    unsafe { *words.get_unchecked_mut((o >> 6) as usize) |= 1u64 << (o & 63) };
}

/// The moves of the sieve, increasing: `get(0) < get(1) < … < get(count() - 1)`.
///
/// # Safety
/// The sieve writes its bit segments unchecked, trusting this contract: `get(i)` for
/// `i < count()` is positive and strictly increasing in i, and an overriding
/// [`Moves::mark_range`] sets only the bits its documentation allows.
pub unsafe trait Moves: Sync + Send {
    /// Number of moves.
    fn count(&self) -> usize;
    /// The i-th move (0-based), `i < count()`.
    fn get(&self, i: usize) -> u64;

    /// True when the moves are the squares, `get(i) = (i + 1)²`: the sieve may then skip
    /// the old marks that can only land on positions already marked (see
    /// [`SetSieve::skip_residues`]). Only the answer's speed depends on it, never its bounds.
    fn are_squares(&self) -> bool {
        false
    }

    /// Marks p + s for every move s with a <= p + s < b, at bit p + s - base of `words`.
    ///
    /// # Panics
    /// Unless p < a, base <= a <= b and b - base <= 64 · `words.len()` (checked once per
    /// call).
    fn mark_range(&self, p: u64, a: u64, b: u64, base: u64, words: &mut [u64]) {
        check_range(p, a, b, base, words);
        let n = self.count();
        // first move >= a - p, by binary search over the indices
        let (mut lo, mut hi) = (0usize, n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if p.saturating_add(self.get(mid)) < a {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for j in lo..n {
            // (p + s beyond 2^64 is beyond b too)
            let t = p.saturating_add(self.get(j));
            if t >= b {
                break;
            }
            // SAFETY: base <= a <= t (moves increase, so every move from index lo on
            // reaches a) and t < b <= base + 64 * words.len() (checked above).
            unsafe { set_bit(words, t - base) };
        }
    }
}

/// The bounds [`Moves::mark_range`] writes within: p < a, base <= a <= b and
/// b - base <= 64 · `words.len()`.
///
/// # Panics
/// When they do not hold.
#[inline]
fn check_range(p: u64, a: u64, b: u64, base: u64, words: &[u64]) {
    assert!(
        p < a && base <= a && a <= b && b - base <= 64 * words.len() as u64,
        "mark_range({p}, {a}, {b}, {base}) on {} words",
        words.len()
    );
}

/// Squares 1, 4, 9, … up to N, computed on the fly (no list in memory).
#[derive(Debug, Clone)]
pub struct SquareMoves {
    count: usize,
}

impl SquareMoves {
    /// The squares up to `max`.
    pub fn new(max: u64) -> SquareMoves {
        SquareMoves {
            count: isqrt(max) as usize,
        }
    }
}

// SAFETY: k² for k = 1, 2, … is positive and increasing, and `mark_range` sets bits in
// [a - base, b - base) only.
unsafe impl Moves for SquareMoves {
    #[inline(always)]
    fn count(&self) -> usize {
        self.count
    }
    #[inline(always)]
    fn get(&self, i: usize) -> u64 {
        let k = i as u64 + 1;
        k * k
    }

    fn are_squares(&self) -> bool {
        true
    }

    /// Successive squares differ by 2k + 1: one add per mark, two marks per round.
    fn mark_range(&self, p: u64, a: u64, b: u64, base: u64, words: &mut [u64]) {
        check_range(p, a, b, base, words);
        let k = isqrt_ceil(a - p).max(1);
        let len = b - base;
        // p + k² >= a >= base: the first square reaching a (none before b when it passes
        // 2^64)
        let Some(t) = k.checked_mul(k).and_then(|q| p.checked_add(q)) else {
            return;
        };
        let mut o = t - base;
        let mut d = 2 * k + 1;
        while o + d < len {
            // SAFETY: o < o + d < len <= 64 * words.len().
            unsafe {
                set_bit(words, o);
                set_bit(words, o + d);
            }
            o += 2 * d + 2;
            d += 4;
        }
        if o < len {
            // SAFETY: o < len.
            unsafe { set_bit(words, o) };
        }
    }
}

/// Any increasing list of positive moves.
#[derive(Debug, Clone)]
pub struct ListMoves {
    v: Vec<u64>,
}

impl ListMoves {
    /// From an increasing list of positive moves.
    ///
    /// # Panics
    /// When the list holds 0 or a move beyond [`MAX_SIEVE_N`], or is not strictly
    /// increasing.
    pub fn new(v: Vec<u64>) -> ListMoves {
        assert!(
            v.first() != Some(&0)
                && v.last().is_none_or(|&s| s <= MAX_SIEVE_N)
                && v.windows(2).all(|w| w[0] < w[1]),
            "moves must be positive, at most 2^62 - 1 and strictly increasing"
        );
        ListMoves { v }
    }
}

// SAFETY: `ListMoves::new` checks the list is positive and strictly increasing.
unsafe impl Moves for ListMoves {
    #[inline(always)]
    fn count(&self) -> usize {
        self.v.len()
    }
    #[inline(always)]
    fn get(&self, i: usize) -> u64 {
        self.v[i]
    }
}

/// Saved state of a [`SetSieve`]: enough to resume exactly where it stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SieveState {
    /// Every position below `lo` is decided.
    pub lo: u64,
    /// The P-positions below `lo`, increasing.
    pub ps: Vec<u64>,
}

/// First index `j >= from` with `ps[j] >= target` (galloping from `from`), or `ps.len()`.
#[inline]
fn gallop(ps: &[u64], from: usize, target: u64) -> usize {
    if from >= ps.len() || ps[from] >= target {
        return from;
    }
    // ps[from] < target: find a bracket (lo, hi] with ps[lo] < target <= ps[hi].
    let mut lo = from;
    let mut step = 1;
    let mut hi = from + 1;
    while hi < ps.len() && ps[hi] < target {
        lo = hi;
        hi += step;
        step *= 2;
    }
    let hi = hi.min(ps.len());
    lo + 1 + ps[lo + 1..hi].partition_point(|&p| p < target)
}

/// Marks the window of one move: p + s for the old P-positions `ps[i0..i1]`, at bit
/// p + off of `words` (off = s - lo).
#[inline(always)]
fn mark_window(ps: &[u64], i0: usize, i1: usize, off: u64, words: &mut [u64]) {
    for &p in &ps[i0..i1] {
        let o = p.wrapping_add(off);
        // SAFETY: callers pass windows whose targets lie in the segment.
        unsafe { set_bit(words, o) };
    }
}

/// Old marks for the moves `js` (indices, increasing): marks p + s_j for every old P-position
/// p (the slice `ps`) with lo <= p + s_j < hi into `words` (bit p + s_j - lo).
///
/// `cursor[j]` is where the move's last window ended (a lower bound of its next window) and
/// `len[j]` that window's size; both carry over to the next segment, so no P-position is
/// looked at twice.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn mark_moves<M: Moves>(
    moves: &M,
    js: std::ops::Range<usize>,
    ps: &[u64],
    cursor: &mut [usize],
    len: &mut [usize],
    lo: u64,
    hi: u64,
    words: &mut [u64],
) {
    // Window [i0, i1) of move j: lo - s <= p < hi - s; i0 is the cursor.
    let window = |j: usize, cursor: &mut [usize], len: &mut [usize]| -> (u64, usize, usize) {
        let s = moves.get(j);
        // The cursor is exact unless the last segment's new P-positions follow it: those
        // already marked inside that segment are skipped here (usually one comparison).
        let i0 = gallop(ps, cursor[j], lo.saturating_sub(s));
        let lim = hi - s;
        // Guess the end from the last window's size, then gallop from the guess.
        let guess = i0 + len[j].saturating_sub(16);
        let i1 = if guess > i0 && guess < ps.len() && ps[guess] < lim {
            gallop(ps, guess + 1, lim)
        } else {
            gallop(ps, i0, lim)
        };
        cursor[j] = i1;
        len[j] = i1 - i0;
        // p + s - lo computed as p + (s - lo) modulo 2^64 (s may be below lo).
        (s.wrapping_sub(lo), i0, i1)
    };
    let mut j = js.start;
    // Moves in groups of LANES. For increasing moves both window ends move left, so the
    // windows share a core [a_first, b_last) where every P-position reaches the segment
    // through every move of the group: it is read once and makes LANES marks (far apart, so
    // no two of them touch the same word). What lies outside the core is marked move by move.
    while j + LANES <= js.end {
        let w: [(u64, usize, usize); LANES] = std::array::from_fn(|q| window(j + q, cursor, len));
        let (core_lo, core_hi) = (w[0].1, w[LANES - 1].2);
        if core_lo < core_hi {
            let offs: [u64; LANES] = std::array::from_fn(|q| w[q].0);
            for &p in &ps[core_lo..core_hi] {
                for &off in &offs {
                    // SAFETY: p is inside every window of the group.
                    unsafe { set_bit(words, p.wrapping_add(off)) };
                }
            }
            for &(off, i0, i1) in &w {
                mark_window(ps, i0, core_lo.max(i0).min(i1), off, words);
                mark_window(ps, core_hi.max(i0).min(i1), i1, off, words);
            }
        } else {
            for &(off, i0, i1) in &w {
                mark_window(ps, i0, i1, off, words);
            }
        }
        j += LANES;
    }
    while j < js.end {
        let (off, i0, i1) = window(j, cursor, len);
        mark_window(ps, i0, i1, off, words);
        j += 1;
    }
}

/// [`mark_moves`] for the moves `from..to`, with cursor slices that start at move `from`.
#[allow(clippy::too_many_arguments)]
fn mark_moves_at<M: Moves>(
    moves: &M,
    from: usize,
    to: usize,
    ps: &[u64],
    cursor: &mut [usize],
    len: &mut [usize],
    lo: u64,
    hi: u64,
    words: &mut [u64],
) {
    struct From<'a, M: Moves>(&'a M, usize);
    // SAFETY: the moves of `M` from index `from` on, still positive and increasing.
    unsafe impl<M: Moves> Moves for From<'_, M> {
        #[inline(always)]
        fn count(&self) -> usize {
            self.0.count() - self.1
        }
        #[inline(always)]
        fn get(&self, i: usize) -> u64 {
            self.0.get(self.1 + i)
        }
    }
    mark_moves(
        &From(moves, from),
        0..to - from,
        ps,
        cursor,
        len,
        lo,
        hi,
        words,
    );
}

/// Per-move cursors of the old-marks phase.
struct Cursors {
    /// Moves 0..active can reach the segments seen so far.
    active: usize,
    /// Where each active move's last window ended.
    cursor: Vec<usize>,
    /// The size of that window (a guess for the next).
    len: Vec<usize>,
    /// Squares with residue skipping: the moves 0..full of the last segment were marked in
    /// full (a guess for the next segment's).
    full: usize,
    /// Squares with residue skipping: the segments where some moves skipped.
    skipping: u64,
    /// Squares with residue skipping: cursors of the moves beyond `full`, by class of k mod
    /// 5 ([`ClassMoves`]), into their lists: class 0 all P-positions, class 1
    /// [`ResidueLists::b`], class 2 [`ResidueLists::a`].
    classes: [ClassCursors; 3],
}

/// Cursors of one [`ClassMoves`] class: index i is the class's i-th move.
#[derive(Default)]
struct ClassCursors {
    cursor: Vec<usize>,
    len: Vec<usize>,
}

/// The squares k² whose k falls in one class mod 5: class 0 is k ≡ 0 (k² ≡ 0), class 1
/// k ≡ ±1 (k² ≡ 1) and class 2 k ≡ ±2 (k² ≡ 4), each increasing.
struct ClassMoves {
    class: u8,
    count: usize,
}

impl ClassMoves {
    /// The class's k for class index i.
    #[inline(always)]
    fn k(class: u8, i: usize) -> u64 {
        let (q, odd) = ((i / 2) as u64, i % 2 == 1);
        match class {
            0 => 5 * (i as u64 + 1),
            1 => 5 * q + if odd { 4 } else { 1 },
            _ => 5 * q + if odd { 3 } else { 2 },
        }
    }

    /// How many k in 1..=kmax the class holds (the first class index beyond kmax).
    fn upto(class: u8, kmax: usize) -> usize {
        let (q, r) = (kmax / 5, kmax % 5);
        match class {
            0 => q,
            1 => 2 * q + usize::from(r >= 1) + usize::from(r >= 4),
            _ => 2 * q + usize::from(r >= 2) + usize::from(r >= 3),
        }
    }
}

// SAFETY: for a fixed class, k increases with the index (k ≥ 1), so k² is positive and
// increasing.
unsafe impl Moves for ClassMoves {
    #[inline(always)]
    fn count(&self) -> usize {
        self.count
    }
    #[inline(always)]
    fn get(&self, i: usize) -> u64 {
        let k = ClassMoves::k(self.class, i);
        k * k
    }
}

/// The P-positions sorted by residue mod 5, for squares with residue skipping.
#[derive(Default)]
struct ResidueLists {
    /// Those ≡ 0, 1 or 3: the only ones whose marks through k² ≡ 4 can land off the
    /// residues 1 and 3.
    a: Vec<u64>,
    /// Those ≡ 1, 3 or 4: the same for k² ≡ 1.
    b: Vec<u64>,
}

impl ResidueLists {
    fn extend(&mut self, ps: &[u64]) {
        for &p in ps {
            match p % 5 {
                0 => self.a.push(p),
                4 => self.b.push(p),
                1 | 3 => {
                    self.a.push(p);
                    self.b.push(p);
                }
                _ => {}
            }
        }
    }
}

/// Bit i of `masks(set)[r]` is set when r + i mod 5 is in `set`: the positions of a word
/// starting at a position ≡ r that a stage of residue skipping needs marked.
const fn masks(set: [bool; 5]) -> [u64; 5] {
    let mut m = [0u64; 5];
    let mut r = 0;
    while r < 5 {
        let mut i = 0;
        while i < 64 {
            if set[(r + i) % 5] {
                m[r] |= 1 << i;
            }
            i += 1;
        }
        r += 1;
    }
    m
}

/// The positions ≡ 1 or 3 (mod 5), by a word's first residue.
const ONE_THREE: [u64; 5] = masks([false, true, false, true, false]);

/// Marks the moves `range` (of `moves`, with cursors `cursor[range]`, `len[range]`) for the
/// P-positions `ps`: serially into `seg`, or parallel over chunks of moves into the
/// workers' private copies (OR-ed into the segment by [`merge`]).
#[allow(clippy::too_many_arguments)]
fn marks_into<M: Moves>(
    moves: &M,
    range: std::ops::Range<usize>,
    ps: &[u64],
    cursor: &mut [usize],
    len: &mut [usize],
    workers: Option<&[Mutex<Vec<u64>>]>,
    lo: u64,
    hi: u64,
    seg: &mut [u64],
) {
    if range.is_empty() || ps.is_empty() {
        return;
    }
    let (from, to) = (range.start, range.end);
    let (cs, ls) = (&mut cursor[from..to], &mut len[from..to]);
    let Some(workers) = workers else {
        mark_moves_at(moves, from, to, ps, cs, ls, lo, hi, seg);
        return;
    };
    let threads = workers.len();
    let chunk = ((to - from) / (8 * threads)).max(16);
    cs.par_chunks_mut(chunk)
        .zip(ls.par_chunks_mut(chunk))
        .enumerate()
        .for_each(|(c, (cs, ls))| {
            let t = rayon::current_thread_index().unwrap_or(0) % threads;
            let mut b = workers[t].lock().unwrap_or_else(|e| e.into_inner());
            let base = from + c * chunk;
            // The chunk's slices are indexed from `base`.
            mark_moves_at(moves, base, base + cs.len(), ps, cs, ls, lo, hi, &mut b);
        });
}

/// ORs the workers' private copies into the segment, over disjoint word ranges.
fn merge(seg: &mut [u64], workers: &[Mutex<Vec<u64>>]) {
    let bufs: Vec<_> = workers
        .iter()
        .map(|w| w.lock().unwrap_or_else(|e| e.into_inner()))
        .collect();
    seg.par_chunks_mut(1024).enumerate().for_each(|(c, dst)| {
        let base = c * 1024;
        let n = dst.len();
        for b in &bufs {
            for (x, y) in dst.iter_mut().zip(&b[base..base + n]) {
                *x |= y;
            }
        }
    });
}

/// True when every position of segment [lo, hi) in the residues of `masks` is marked.
fn covered(seg: &[u64], lo: u64, hi: u64, masks: &[u64; 5]) -> bool {
    let len = hi - lo;
    seg.iter().enumerate().all(|(w, &x)| {
        let start = lo + 64 * w as u64;
        let mut m = masks[(start % 5) as usize];
        let left = len - 64 * w as u64;
        if left < 64 {
            m &= (1u64 << left) - 1;
        }
        m & !x == 0
    })
}

/// The old marks of segment [lo, hi): every P-position in `ps` (all below lo), parallel
/// over moves into private copies, merged into the returned segment.
///
/// With `lists` (squares only), the marks that can only land on positions ≡ 1 or 3 (mod 5)
/// are skipped once those positions are all marked (see [`SetSieve::skip_residues`]).
#[allow(clippy::too_many_arguments)]
fn old_marks<M: Moves>(
    moves: &M,
    ps: &[u64],
    first_p: usize,
    cur: &mut Cursors,
    workers: &[Mutex<Vec<u64>>],
    lo: u64,
    hi: u64,
    lists: Option<&ResidueLists>,
) -> Vec<u64> {
    let words = (hi - lo).div_ceil(64) as usize;
    let mut seg = vec![0u64; words];
    // Activate the moves that now reach a segment: the first window starts at the first
    // P-position >= lo - s (never at position 0 under leave1).
    while cur.active < moves.count() && moves.get(cur.active) < hi {
        let s = moves.get(cur.active);
        let from = first_p.min(ps.len());
        let i0 = from + ps[from..].partition_point(|&p| p < lo.saturating_sub(s));
        cur.cursor.push(i0);
        cur.len.push(0);
        cur.active += 1;
    }
    let active = cur.active;
    if ps.len() <= first_p || active == 0 {
        return seg;
    }
    let threads = workers.len();
    let serial = ps.len() < PARALLEL_MIN || threads == 1 || active < 64;
    let pool = if serial {
        None
    } else {
        for w in workers {
            let mut b = w.lock().unwrap_or_else(|e| e.into_inner());
            b.clear();
            b.resize(words, 0);
        }
        Some(workers)
    };
    let Some(lists) = lists else {
        marks_into(
            moves,
            0..active,
            ps,
            &mut cur.cursor,
            &mut cur.len,
            pool,
            lo,
            hi,
            &mut seg,
        );
        if let Some(w) = pool {
            merge(&mut seg, w);
        }
        return seg;
    };
    // Squares with residue skipping. A P-position p reaches p + k², whose residue mod 5 is
    // p's plus k²'s (0, 1 or 4). First the moves k <= full mark in full, `full` growing
    // until every position ≡ 1 or 3 of the segment is marked (`covered`); then the other
    // moves mark only through the P-positions that can land off those residues (class 0
    // all, class 1 those ≡ 1, 3 or 4, class 2 those ≡ 0, 1 or 3). What they skip lands on
    // positions the check found marked.
    let mut done = 0;
    let mut full = (cur.full - cur.full / 16).clamp(256.min(active), active);
    loop {
        marks_into(
            moves,
            done..full,
            ps,
            &mut cur.cursor,
            &mut cur.len,
            pool,
            lo,
            hi,
            &mut seg,
        );
        done = full;
        if let Some(w) = pool {
            merge(&mut seg, w);
        }
        if done == active || covered(&seg, lo, hi, &ONE_THREE) {
            break;
        }
        full = (full + (full / 8).max(256)).min(active);
    }
    cur.full = full;
    if full < active {
        cur.skipping += 1;
    }
    let rest = &ps[first_p.min(ps.len())..];
    let plan = [(0, rest), (1, &lists.b[..]), (2, &lists.a[..])];
    class_marks(
        &mut cur.classes,
        &plan,
        full,
        active,
        pool,
        lo,
        hi,
        &mut seg,
    );
    if let Some(w) = pool {
        merge(&mut seg, w);
    }
    seg
}

/// Residue skipping: marks, for each (class, list) of `plan`, the class's moves with k in
/// kfrom < k <= kto through the list's P-positions.
#[allow(clippy::too_many_arguments)]
fn class_marks(
    classes: &mut [ClassCursors; 3],
    plan: &[(u8, &[u64]); 3],
    kfrom: usize,
    kto: usize,
    pool: Option<&[Mutex<Vec<u64>>]>,
    lo: u64,
    hi: u64,
    seg: &mut [u64],
) {
    for &(class, list) in plan {
        let (from, to) = (ClassMoves::upto(class, kfrom), ClassMoves::upto(class, kto));
        let cc = &mut classes[class as usize];
        if cc.cursor.len() < to {
            // a move's first cursor is the list's start; its first gallop finds the window
            cc.cursor.resize(to, 0);
            cc.len.resize(to, 0);
        }
        let cm = ClassMoves { class, count: to };
        marks_into(
            &cm,
            from..to,
            list,
            &mut cc.cursor,
            &mut cc.len,
            pool,
            lo,
            hi,
            seg,
        );
    }
}

/// Discovery of segment [lo, hi) whose marks from every earlier P-position are in `seg`:
/// returns its P-positions, each having marked its moves inside the segment.
fn discover<M: Moves>(moves: &M, leave1: bool, seg: &mut [u64], lo: u64, hi: u64) -> Vec<u64> {
    let mut fresh = Vec::new();
    let len = (hi - lo) as usize;
    let words = seg.len();
    let mut pos = 0usize;
    while pos < len {
        let wi = pos >> 6;
        let mut free = !seg[wi] & (u64::MAX << (pos & 63));
        if wi == words - 1 && !len.is_multiple_of(64) {
            free &= (1u64 << (len % 64)) - 1;
        }
        if free == 0 {
            pos = (wi + 1) << 6;
            continue;
        }
        let b = (wi << 6) + free.trailing_zeros() as usize;
        let p = lo + b as u64;
        fresh.push(p);
        if !(leave1 && p == 0) {
            moves.mark_range(p, p + 1, hi, lo, seg);
        }
        pos = b + 1;
    }
    fresh
}

/// A segment whose old marks are done.
struct Prepared {
    seg: Vec<u64>,
    hi: u64,
    /// The marks of `ps[..old]` are in `seg`.
    old: usize,
}

/// The segmented parallel sieve over positions 0..=max.
pub struct SetSieve<M: Moves> {
    moves: M,
    max: u64,
    leave1: bool,
    /// Positions below this have no move and are N-positions (misère play); 0 in normal
    /// play.
    terminal: u64,
    seg_bits: u64,
    state: SieveState,
    next: Option<Prepared>,
    cursors: Cursors,
    workers: Vec<Mutex<Vec<u64>>>,
    /// Residue skipping allowed (squares only).
    skip: bool,
    /// The P-positions by residue, for residue skipping (built at the first segment).
    lists: Option<ResidueLists>,
}

impl<M: Moves> SetSieve<M> {
    /// A sieve for positions 0..=max (max <= [`MAX_SIEVE_N`]); `leave1` forbids taking the
    /// whole heap (so position 0 is never an option). `seg_bits` is kept between 64 and
    /// 2^36 and rounded up to a multiple of 64.
    ///
    /// # Panics
    /// When max exceeds [`MAX_SIEVE_N`].
    pub fn new(moves: M, max: u64, leave1: bool, seg_bits: u64) -> SetSieve<M> {
        assert!(max <= MAX_SIEVE_N);
        let seg_bits = seg_bits.clamp(64, 1 << 36).div_ceil(64) * 64;
        SetSieve {
            moves,
            max,
            leave1,
            terminal: 0,
            seg_bits,
            state: SieveState {
                lo: 0,
                ps: Vec::new(),
            },
            next: None,
            cursors: Cursors {
                active: 0,
                cursor: Vec::new(),
                len: Vec::new(),
                full: 0,
                skipping: 0,
                classes: Default::default(),
            },
            workers: Vec::new(),
            skip: true,
            lists: None,
        }
    }

    /// Resumes from a saved state (cursors are rebuilt by binary search).
    ///
    /// # Errors
    /// [`crate::Error::BadState`] unless the state's P-positions are strictly increasing
    /// and below its `lo`, and `lo` is at most max + 1 (the sieve relies on both).
    pub fn resume(
        moves: M,
        max: u64,
        leave1: bool,
        seg_bits: u64,
        state: SieveState,
    ) -> Result<Self, crate::Error> {
        let sorted = state.ps.windows(2).all(|w| w[0] < w[1]);
        if !sorted
            || state.ps.last().is_some_and(|&p| p >= state.lo)
            || state.lo > max.saturating_add(1)
        {
            return Err(crate::Error::BadState {
                reason: "is not a sieve state for this N: its P-positions are not increasing \
                         below its first undecided position"
                    .into(),
            });
        }
        let mut s = SetSieve::new(moves, max, leave1, seg_bits);
        s.state = state;
        Ok(s)
    }

    /// The same sieve in misère play: the positions below `terminal` (the heaps without a
    /// move) are N-positions, which mark nothing; every later position is a P-position iff
    /// no P-position marks it, as in normal play. Call before the first
    /// [`SetSieve::advance`].
    pub fn misere(mut self, terminal: u64) -> SetSieve<M> {
        self.terminal = terminal;
        self
    }

    /// Turns residue skipping on (the default) or off. It applies to the squares only.
    ///
    /// Mod 5, squares are 0, 1 or 4, so a P-position p reaches through k² only positions
    /// ≡ p, p + 1 or p + 4. And only 44 P-positions of subtract-a-square are ≡ 1 or 3, the
    /// last 3,687,288 (counted in the 10^11 b-file, 42,985,762 P-positions): above, every
    /// position ≡ 1 or 3 is an N-position. So in each segment the moves k = 1, 2, … first
    /// mark in full until every position ≡ 1 or 3 of the segment is marked (checked, never
    /// assumed); the remaining moves then skip the P-positions whose marks through them
    /// would land on those residues. The marks they skip are on marked positions, so the
    /// segment ends exactly as with every mark (its test compares both). Where the check
    /// never passes (a P-position ≡ 1 or 3 in the segment, misère play, `leave1`), every
    /// move marks in full. At 9·10^10 the full part ends near k = 8·10^4 of 3·10^5 and
    /// about half the marks are skipped: 40 segments took 6.4–7.4 s against 10.3–10.7 s.
    pub fn skip_residues(mut self, on: bool) -> SetSieve<M> {
        self.skip = on;
        self
    }

    /// The moves.
    pub fn moves(&self) -> &M {
        &self.moves
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
        let threads = rayon::current_num_threads();
        if self.workers.len() != threads {
            self.workers = (0..threads).map(|_| Mutex::new(Vec::new())).collect();
        }
        // Under leave1, position 0 (always the first P-position in normal play) is never an
        // option; in misère play 0 is no P-position.
        let first_p = usize::from(self.leave1 && self.terminal == 0);
        if self.skip && self.lists.is_none() && self.moves.are_squares() {
            let mut l = ResidueLists::default();
            l.extend(&self.state.ps[first_p.min(self.state.ps.len())..]);
            self.lists = Some(l);
        }
        let lists = self.lists.as_ref();
        let hi = (lo + self.seg_bits).min(self.max + 1);
        let (moves, leave1, workers) = (&self.moves, self.leave1, &self.workers[..]);
        let cur = match self.next.take() {
            Some(p) => p,
            None => {
                let old = self.state.ps.len();
                let seg = old_marks(
                    moves,
                    &self.state.ps,
                    first_p,
                    &mut self.cursors,
                    workers,
                    lo,
                    hi,
                    lists,
                );
                Prepared { seg, hi, old }
            }
        };
        let Prepared { mut seg, hi, old } = cur;
        // Misère play: the heaps without a move are N-positions.
        for x in lo..self.terminal.min(hi) {
            let o = (x - lo) as usize;
            seg[o >> 6] |= 1 << (o & 63);
        }
        // P-positions found after this segment's old marks were made mark it now.
        let ps_len = self.state.ps.len();
        for &p in &self.state.ps[old.max(first_p).min(ps_len)..] {
            moves.mark_range(p, lo, hi, lo, &mut seg);
        }
        // Discover this segment while the next one gets its old marks.
        let ps = &self.state.ps[..];
        let next_hi = (hi + self.seg_bits).min(self.max + 1);
        let cursors = &mut self.cursors;
        let (fresh, next) = if hi <= self.max {
            // The discovering thread also makes the marks of its new P-positions in the next
            // segment (into a buffer of its own), so nothing runs outside the pipeline.
            let ((f, late), mut n) = rayon::join(
                || {
                    let f = discover(moves, leave1, &mut seg, lo, hi);
                    let mut late = vec![0u64; (next_hi - hi).div_ceil(64) as usize];
                    for &p in &f {
                        if !(leave1 && p == 0) {
                            moves.mark_range(p, hi, next_hi, hi, &mut late);
                        }
                    }
                    (f, late)
                },
                || old_marks(moves, ps, first_p, cursors, workers, hi, next_hi, lists),
            );
            for (x, y) in n.iter_mut().zip(&late) {
                *x |= y;
            }
            let old = ps.len() + f.len();
            (
                f,
                Some(Prepared {
                    seg: n,
                    hi: next_hi,
                    old,
                }),
            )
        } else {
            (discover(moves, leave1, &mut seg, lo, hi), None)
        };
        out.extend_from_slice(&fresh);
        if let Some(l) = &mut self.lists {
            // under leave1, position 0 (the first P-position) never marks
            let skip0 = usize::from(first_p > 0 && self.state.ps.is_empty());
            l.extend(&fresh[skip0.min(fresh.len())..]);
        }
        self.state.ps.extend_from_slice(&fresh);
        self.next = next;
        self.state.lo = hi;
        true
    }
}

/// P-positions of the subtraction game with moves `moves` up to `max` by the sieve with the
/// default segment; convenience for tests and small runs.
pub fn p_positions<M: Moves>(moves: M, max: u64, leave1: bool) -> Vec<u64> {
    let mut s = SetSieve::new(moves, max, leave1, DEFAULT_SEGMENT_BITS);
    let mut out = Vec::new();
    while s.advance(&mut out) {}
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::rule::outcome_by_definition;

    #[test]
    fn gallop_finds_lower_bounds() {
        let ps = [1u64, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21];
        for from in 0..ps.len() {
            for target in 0..25 {
                let expect = from + ps[from..].partition_point(|&p| p < target);
                assert_eq!(gallop(&ps, from, target), expect, "{from} {target}");
            }
        }
        assert_eq!(gallop(&ps, ps.len(), 3), ps.len());
    }

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
        for seg in [64, 128, 1000, 4096, 1 << 21] {
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
        let many = rayon::ThreadPoolBuilder::new()
            .num_threads(7)
            .build()
            .unwrap()
            .install(|| p_positions(SquareMoves::new(n), n, false));
        // Segments of 2^20 bits (what large N use): three of them, pipelined.
        let mut big = SetSieve::new(SquareMoves::new(n), n, false, 1 << 20);
        let mut wide = vec![];
        while big.advance(&mut wide) {}
        assert!(par.len() > PARALLEL_MIN);
        assert_eq!(par, serial);
        assert_eq!(many, serial);
        assert_eq!(wide, serial);
    }

    /// Residue skipping (squares) ends every segment exactly as marking every move does:
    /// the same P-positions with 1, 2 and 7 threads, small and large segments, resumed, in
    /// misère play and without the whole heap; and in normal play it does skip, in most
    /// segments from 2·10^7 on (where its first moves reach every position ≡ 1 or 3 before
    /// the last ones).
    #[test]
    fn residue_skipping_gives_what_every_mark_gives() {
        let (lo, n) = (20_000_000, 24_000_000);
        for (leave1, terminal) in [(false, 0), (true, 0), (false, 1)] {
            // the P-positions below lo, by the plain kernel
            let mut s = SetSieve::new(SquareMoves::new(n), lo - 1, leave1, 1 << 19)
                .misere(terminal)
                .skip_residues(false);
            let mut below = vec![];
            while s.advance(&mut below) {}
            let run = |seg: u64, skip: bool| {
                let st = SieveState {
                    lo,
                    ps: below.clone(),
                };
                let mut s = SetSieve::resume(SquareMoves::new(n), n, leave1, seg, st)
                    .unwrap()
                    .misere(terminal)
                    .skip_residues(skip);
                let (mut out, mut segs) = (vec![], 0);
                while s.advance(&mut out) {
                    segs += 1;
                }
                (out, s.cursors.skipping, segs)
            };
            // Without the whole heap, or in misère play, the P-positions keep no residues
            // mod 5 free: nothing is skipped, and the answer is the same.
            let normal = !leave1 && terminal == 0;
            let (threads, segs): (&[usize], &[u64]) = if normal {
                (&[1, 2, 7], &[1 << 12, 1 << 16, 1 << 19])
            } else {
                (&[2], &[1 << 16])
            };
            for &threads in threads {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                for &seg in segs {
                    let what = format!("{threads} threads, seg {seg}, {leave1} {terminal}");
                    let (got, skipping, segs) = pool.install(|| run(seg, true));
                    let (expect, none, _) = pool.install(|| run(seg, false));
                    assert_eq!(got, expect, "{what}");
                    assert!(got.len() > 1000, "{what}");
                    assert_eq!(none, 0);
                    if normal {
                        assert!(skipping * 4 >= segs * 3, "{what}: {skipping} of {segs}");
                    } else {
                        assert_eq!(skipping, 0, "{what}");
                    }
                }
            }
        }
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
            for seg in [64, 256, 1 << 18] {
                let mut s =
                    SetSieve::new(ListMoves::new(set.elements_upto(2000)), 2000, leave1, seg);
                let mut got = vec![];
                while s.advance(&mut got) {}
                assert_eq!(got, expect, "{spec} seg {seg}");
            }
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
        let mut r = SetSieve::resume(SquareMoves::new(n), n, false, 4096, st).unwrap();
        while r.advance(&mut out) {}
        assert_eq!(out, full);
    }
}
