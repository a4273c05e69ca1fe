//! The blocked, transposed mex for subtraction games with many moves (squares, primes,
//! unions of named sets): Grundy values g(n) = mex{g(n - s)} for every n, with the loop
//! over positions and moves turned around so each move reads one contiguous window of the
//! table for a whole block of positions (see [`blocked_mex_grundy`]). The next block's bulk
//! marks run on a [`Crew`] while the current block is finished ([`Crew::bulk_while`]).

use super::crew::{Accumulators, Crew};
use crate::mex::{first_gap, ValueSet};
use crate::observe::{Stopped, Watch};

/// Moves ahead whose table windows [`blocked_mex_grundy`] prefetches.
const PREFETCH: usize = 8;

/// Hints the CPU to load `bytes` bytes from the start of `v` into cache.
#[inline(always)]
fn prefetch<T>(v: &[T], bytes: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        let p = v.as_ptr() as *const i8;
        let mut off = 0;
        while off < bytes {
            // SAFETY: prefetching is only a hint; it never faults, even past the slice.
            unsafe {
                std::arch::x86_64::_mm_prefetch(p.wrapping_add(off), std::arch::x86_64::_MM_HINT_T0)
            };
            off += 64;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (v, bytes);
}

/// Row words the lane pass of [`blocked_mex_grundy`] accumulates near marks in (values
/// below 512; larger ones go to the row directly).
const ACC_WORDS: usize = 8;

/// Positions per block of [`blocked_mex_grundy`].
const BLOCK: usize = 512;

/// Any increasing move list, by blocks of `BLOCK` (512) positions with the loop transposed: for
/// each move s >= 2·BLOCK, the options of the whole block, g(n0 - s .. n0 + B - s), are one
/// contiguous run of the table, read in order, and each lane records the values it has seen
/// in its own bit row (consecutive marks go to different rows, so none waits for another).
/// These *bulk* marks of block k + 1 read only values before block k, so they run — the
/// moves split between the helper threads of a [`Crew`] and the caller, each
/// into its own rows, OR-ed after — while the caller finishes block k lane by lane: the
/// moves below 2·BLOCK, then the mex read off the row.
///
/// Same values as [`super::mex::list_mex_grundy`] — every (position, option) pair is still visited —
/// at a fraction of the time per pair: where the CPU has AVX-512 the bulk marks run 32
/// lanes at a time with the rows in vector registers (`mark_far_avx512`, about 0.28 ns per
/// pair on one core), else one bit set per pair (about 0.4 ns), with the table on huge
/// pages ([`super::mem::huge_zeroed`]) so the scattered windows do not miss the TLB.
/// Values must stay below 65535; beyond, the caller falls back to [`super::mex::list_mex_grundy`]
/// (`None`).
///
/// # Errors
/// [`Stopped`] when the observer behind `watch` stops the run (checked once per block).
pub(crate) fn blocked_mex_grundy(
    moves: &[u64],
    leave1: bool,
    max: u64,
    watch: &mut Watch,
) -> Result<Option<Vec<u16>>, Stopped> {
    blocked_mex_with(moves, leave1, &[], max, super::crew::helpers_here(), watch)
}

/// [`blocked_mex_grundy`] after the values `prefix` of positions 0..prefix.len() (as an
/// earlier run left them): the table 0..=max with them at its start. None as there.
///
/// # Errors
/// As [`blocked_mex_grundy`].
pub(crate) fn blocked_mex_grundy_after(
    moves: &[u64],
    leave1: bool,
    prefix: &[u16],
    max: u64,
    watch: &mut Watch,
) -> Result<Option<Vec<u16>>, Stopped> {
    blocked_mex_with(
        moves,
        leave1,
        prefix,
        max,
        super::crew::helpers_here(),
        watch,
    )
}

/// [`blocked_mex_grundy`] with `helpers` helper threads.
fn blocked_mex_with(
    moves: &[u64],
    leave1: bool,
    prefix: &[u16],
    max: u64,
    helpers: usize,
    watch: &mut Watch,
) -> Result<Option<Vec<u16>>, Stopped> {
    Crew::run(helpers, |crew| {
        blocked_mex_crew(crew, helpers + 1, moves, leave1, prefix, max, watch)
    })
}

/// Marks, for the lanes of a block at n0 (rows of `ww` words), the values of the options
/// through the moves `ms` that lie before the block (lane i < s for move s), each window
/// read in order. `g` must hold every position these options reach.
///
/// # Safety
/// Every value these options read must be below 64·ww (the rows are written unchecked).
///
/// # Panics
/// When `g` lacks a position an option reaches, or `rows` holds fewer than `lanes` rows.
unsafe fn mark_outside(
    g: &[u16],
    ms: &[u64],
    first: u64,
    n0: usize,
    lanes: usize,
    ww: usize,
    rows: &mut [u64],
) {
    #[cfg(target_arch = "x86_64")]
    if lanes >= 32 && std::arch::is_x86_feature_detected!("avx512f") {
        // The moves whose window lies wholly before the block (every lane's option exists
        // and precedes it) go to the vector loop, 32 lanes at a time; the others, and the
        // lanes past the last whole group of 32, to the scalar one.
        let a = ms.partition_point(|&s| (s as usize) < lanes);
        let b = ms.partition_point(|&s| s + first <= n0 as u64);
        let groups = lanes / 32;
        let tail = 32 * groups;
        // The vector loop reads unchecked: its windows, from n0 - ms[b - 1] >= first up to
        // n0 + 32·groups - ms[a], must lie in g (else the scalar loop, which checks). (The
        // first test makes a < b, so ms[a] exists.)
        if b >= a + VECTOR_MIN_MOVES && n0 + tail <= g.len() + ms[a] as usize {
            // SAFETY: the same options as the caller's, so the same values.
            unsafe { mark_outside(g, &ms[..a], first, n0, lanes, ww, rows) };
            // SAFETY: as the line above.
            unsafe { mark_outside(g, &ms[b..], first, n0, lanes, ww, rows) };
            // SAFETY: the CPU has AVX-512 F; every move in ms[a..b] is at least
            // `lanes` and at most n0 - first, so the windows g[n0 + i - s] (i < 32·groups)
            // start at `first` or later and end within g (checked above); the values are
            // the caller's.
            unsafe { mark_far_avx512(g, &ms[a..b], n0, groups, ww, rows) };
            if tail < lanes {
                // Moves of at least `lanes` reach before the block from any lane, so the
                // tail is a block of its own for them.
                let rows = &mut rows[tail * ww..];
                // SAFETY: the same options as the caller's.
                unsafe { mark_outside(g, &ms[a..b], first, n0 + tail, lanes - tail, ww, rows) };
            }
            return;
        }
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: the CPU has BMI2; the values are the caller's.
        return unsafe { mark_outside_bmi2(g, ms, first, n0, lanes, ww, rows) };
    }
    // SAFETY: the values are the caller's.
    unsafe { mark_outside_any(g, ms, first, n0, lanes, ww, rows) }
}

/// Fewest whole-window moves [`mark_outside`] gives the vector loop: each group of 32 lanes
/// costs it a fixed unpacking of the registers into rows (about as much as 30 moves of
/// marks), so fewer moves are marked by the scalar loop.
#[cfg(target_arch = "x86_64")]
const VECTOR_MIN_MOVES: usize = 48;

/// Moves [`mark_far_avx512`] takes at a time (their windows of a whole block: 512 KiB).
#[cfg(target_arch = "x86_64")]
const MOVE_TILE: usize = 512;

/// Row words [`mark_far_avx512`] fills per pass over the moves (values 64·w0 .. 64·w0 + 384):
/// 24 of the 32 vector registers hold them for a group of 32 lanes.
#[cfg(target_arch = "x86_64")]
const PASS_WORDS: usize = 6;

/// The vector form of [`mark_outside`] for moves whose windows lie wholly before the block,
/// for lanes `0..32·groups`. Each group of 32 lanes keeps its rows in registers as sub-bands
/// of 32 values, one 512-bit register (16 lanes × 32 bits) per half-group and sub-band: a
/// value v sets bit v mod 32 (a rotate of 1) of its lane in sub-band v / 32 (a compare into
/// a mask and a masked OR). About 28 vector operations per move and 16 lanes, stores none —
/// against a read-modify-write of a row word per (lane, option) pair in the scalar loop —
/// so the pair costs about 0.28 ns instead of 0.4 ns on one core here (subtract-a-square
/// to 10^7). Rows wider than six words take a pass over the moves per six words.
///
/// # Safety
/// The CPU must support AVX-512 F; for every s in `ms`, `g` must hold the positions
/// `n0 - s .. n0 + 32·groups - s`, and `rows` must hold `32·groups` rows of `ww` words.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn mark_far_avx512(
    g: &[u16],
    ms: &[u64],
    n0: usize,
    groups: usize,
    ww: usize,
    rows: &mut [u64],
) {
    // Moves a tile at a time: a tile's windows (MOVE_TILE · 64 bytes per group) stay in
    // the core's cache while every group and pass reads them, where one pass over all the
    // moves of a large table (10^4 windows at 10^8) fetched them again for every group.
    for ms in ms.chunks(MOVE_TILE) {
        for w0 in (0..ww).step_by(PASS_WORDS) {
            // SAFETY: (every arm) as for this function, with w0 + WORDS <= ww.
            unsafe {
                match ww - w0 {
                    1 => mark_far_pass::<1>(g, ms, n0, groups, ww, w0, rows),
                    2 => mark_far_pass::<2>(g, ms, n0, groups, ww, w0, rows),
                    3 => mark_far_pass::<3>(g, ms, n0, groups, ww, w0, rows),
                    4 => mark_far_pass::<4>(g, ms, n0, groups, ww, w0, rows),
                    5 => mark_far_pass::<5>(g, ms, n0, groups, ww, w0, rows),
                    _ => mark_far_pass::<PASS_WORDS>(g, ms, n0, groups, ww, w0, rows),
                }
            }
        }
    }
}

/// One pass of [`mark_far_avx512`]: row words `w0 .. w0 + WORDS` of every group's lanes.
///
/// # Safety
/// As for [`mark_far_avx512`], with `w0 + WORDS <= ww` and `WORDS <= PASS_WORDS`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn mark_far_pass<const WORDS: usize>(
    g: &[u16],
    ms: &[u64],
    n0: usize,
    groups: usize,
    ww: usize,
    w0: usize,
    rows: &mut [u64],
) {
    use std::arch::x86_64::*;
    const SUB: usize = 2 * PASS_WORDS; // sub-bands of 32 values per pass at most
    assert!(WORDS <= PASS_WORDS && w0 + WORDS <= ww && rows.len() >= 32 * groups * ww);
    let ones = _mm512_set1_epi32(1);
    // Sub-band k holds the values v with v / 32 = 2·w0 + k.
    let mut keys = [_mm512_setzero_si512(); SUB];
    for (k, key) in keys.iter_mut().enumerate() {
        *key = _mm512_set1_epi32((2 * w0 + k) as i32);
    }
    for gi in 0..groups {
        let base = n0 + 32 * gi;
        // Sub-bands at 2·WORDS and above are never touched: WORDS is a constant, so every
        // `k < 2 * WORDS` below folds away and the arrays live in registers.
        let mut acc = [[_mm512_setzero_si512(); SUB]; 2];
        for (q, &s) in ms.iter().enumerate() {
            // The windows of the next moves are far apart in the table: fetch ahead.
            if let Some(&s2) = ms.get(q + PREFETCH) {
                // The group's 64 bytes, on at most two lines.
                prefetch(&g[base - s2 as usize..], 128);
            }
            for (h, acc) in acc.iter_mut().enumerate() {
                // SAFETY: g[base - s .. base - s + 32] lies within g (the caller's bounds).
                let v = _mm512_cvtepu16_epi32(unsafe {
                    _mm256_loadu_si256(g.as_ptr().add(base - s as usize + 16 * h).cast())
                });
                // 1 << (v mod 32): a rotate takes its count modulo 32.
                let bit = _mm512_rolv_epi32(ones, v);
                let band = _mm512_srli_epi32::<5>(v);
                macro_rules! mark {
                    ($($k:literal)*) => {$(
                        if $k < 2 * WORDS {
                            let m = _mm512_cmpeq_epi32_mask(band, keys[$k]);
                            acc[$k] = _mm512_mask_or_epi32(acc[$k], m, acc[$k], bit);
                        }
                    )*};
                }
                mark!(0 1 2 3 4 5 6 7 8 9 10 11);
            }
        }
        let mut sub = [[[0u32; 16]; SUB]; 2];
        for (dst, src) in sub.iter_mut().zip(&acc) {
            for (d, a) in dst.iter_mut().zip(&src[..2 * WORDS]) {
                // SAFETY: d holds 64 bytes.
                unsafe { _mm512_storeu_si512(d.as_mut_ptr().cast(), *a) };
            }
        }
        for l in 0..32 {
            let (h, e) = (l / 16, l % 16);
            let row = &mut rows[(32 * gi + l) * ww + w0..][..WORDS];
            for (j, x) in row.iter_mut().enumerate() {
                *x |= u64::from(sub[h][2 * j][e]) | u64::from(sub[h][2 * j + 1][e]) << 32;
            }
        }
    }
}

/// [`mark_outside`] compiled with BMI2 (shifts by a register without the CL constraint):
/// about 10% faster per pair on x86-64.
///
/// # Safety
/// The CPU must support BMI2; as for [`mark_outside`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn mark_outside_bmi2(
    g: &[u16],
    ms: &[u64],
    first: u64,
    n0: usize,
    lanes: usize,
    ww: usize,
    rows: &mut [u64],
) {
    // SAFETY: as for this function.
    unsafe { mark_outside_any(g, ms, first, n0, lanes, ww, rows) }
}

/// The scalar loop of [`mark_outside`].
///
/// # Safety
/// As for [`mark_outside`].
#[inline(always)]
unsafe fn mark_outside_any(
    g: &[u16],
    ms: &[u64],
    first: u64,
    n0: usize,
    lanes: usize,
    ww: usize,
    rows: &mut [u64],
) {
    for (q, &s) in ms.iter().enumerate() {
        // The windows of the next moves are far apart in the table: fetch ahead.
        if let Some(&s2) = ms.get(q + PREFETCH) {
            let at = n0.saturating_sub(s2 as usize);
            prefetch(&g[at.min(g.len().saturating_sub(1))..], lanes * 2);
        }
        let s = s as usize;
        // lane i (position n0 + i) has option n0 + i - s, which must be at least `first`;
        // only lanes i < s have it before the block.
        let lo_lane = (s + first as usize).saturating_sub(n0);
        let hi_lane = lanes.min(s);
        if lo_lane >= hi_lane {
            continue;
        }
        let src = &g[n0 + lo_lane - s..n0 + hi_lane - s];
        debug_assert!(lanes * ww <= rows.len());
        let row0 = &mut rows[lo_lane * ww..];
        // Row widths the tables reach in practice get their own copy of the loop, where
        // every lane's row is a fixed displacement from one pointer.
        // SAFETY: (every arm) W = ww, and every value is below 64·ww (this function's
        // contract); mark_window checks the rows it is given.
        unsafe {
            match ww {
                1 => mark_window::<1>(src, row0),
                2 => mark_window::<2>(src, row0),
                3 => mark_window::<3>(src, row0),
                4 => mark_window::<4>(src, row0),
                5 => mark_window::<5>(src, row0),
                6 => mark_window::<6>(src, row0),
                7 => mark_window::<7>(src, row0),
                8 => mark_window::<8>(src, row0),
                _ => {
                    for (&v, row) in src.iter().zip(row0.chunks_exact_mut(ww)) {
                        row[(v >> 6) as usize] |= 1u64 << (v & 63);
                    }
                }
            }
        }
    }
}

/// Marks value `src[i]` in the row of `W` words of lane i (rows back to back from `rows`),
/// eight lanes per step.
///
/// # Safety
/// Every value must be below `64·W`.
///
/// # Panics
/// When `rows` holds fewer than `src.len()` rows.
#[inline(always)]
unsafe fn mark_window<const W: usize>(src: &[u16], rows: &mut [u64]) {
    assert!(rows.len() >= src.len() * W);
    // SAFETY: lane i's row is rows[i·W..(i + 1)·W], inside `rows` (asserted), and the
    // caller keeps every value below 64·W, so v >> 6 < W.
    unsafe {
        let mut p = rows.as_mut_ptr();
        let mut c = src.chunks_exact(8);
        for q in &mut c {
            for (j, &v) in q.iter().enumerate() {
                *p.add(j * W + (v >> 6) as usize) |= 1u64 << (v & 63);
            }
            p = p.add(8 * W);
        }
        for &v in c.remainder() {
            *p.add((v >> 6) as usize) |= 1u64 << (v & 63);
            p = p.add(W);
        }
    }
}

/// Bit rows of one block: `ww` words per lane, values below `64·ww` tracked.
struct Rows {
    bits: Vec<u64>,
    ww: usize,
}

impl Rows {
    /// The same marks in rows of `ww` words (>= the current width).
    fn widen(&self, ww: usize) -> Rows {
        let lanes = self.bits.len() / self.ww;
        let mut bits = vec![0u64; lanes * ww];
        for (dst, src) in bits
            .chunks_exact_mut(ww)
            .zip(self.bits.chunks_exact(self.ww))
        {
            dst[..self.ww].copy_from_slice(src);
        }
        Rows { bits, ww }
    }
}

/// [`blocked_mex_grundy`] with its crew of helper threads (`threads` in all).
fn blocked_mex_crew(
    crew: &Crew,
    threads: usize,
    moves: &[u64],
    leave1: bool,
    prefix: &[u16],
    max: u64,
    watch: &mut Watch,
) -> Result<Option<Vec<u16>>, Stopped> {
    let first = u64::from(leave1); // least position that can be an option
    let len = max as usize + 1;
    let mut g: Vec<u16> = super::mem::huge_zeroed(len);
    let start = prefix.len().min(len);
    g[..start].copy_from_slice(&prefix[..start]);
    let mut maxv: u32 = prefix[..start].iter().copied().max().map_or(0, u32::from);
    // Moves below `near` are made lane by lane; the rest in bulk.
    let near = (2 * BLOCK) as u64;
    let split = moves.partition_point(|&s| s < near);
    let (near_moves, far_moves) = moves.split_at(split);
    // Rows per share: the far moves are split between them, the sets OR-ed after.
    let copies = Accumulators::new(threads);
    let ww_for = |maxv: u32| (maxv as usize + 2).div_ceil(64);
    // The first block's far moves (none at 0; after a prefix, made here).
    let mut n0 = start;
    let mut cur = Rows {
        bits: vec![0; BLOCK.min(len - n0.min(len)) * ww_for(maxv)],
        ww: ww_for(maxv),
    };
    if n0 < len {
        let b = BLOCK.min(len - n0);
        let top = (n0 + b - 1) as u64;
        let ms = &far_moves[..far_moves.partition_point(|&s| s + first <= top)];
        // SAFETY: every value so far is at most maxv, below 64·ww_for(maxv).
        unsafe { mark_outside(&g[..n0], ms, first, n0, b, cur.ww, &mut cur.bits) };
    }
    // The next block's rows, made while the current block is finished.
    let mut spare: Vec<u64> = Vec::new();
    while n0 < len {
        watch.at(n0 as u64)?;
        let b = BLOCK.min(len - n0);
        let nx = n0 + b;
        let nb = BLOCK.min(len - nx);
        let (known, rest) = g.split_at_mut(n0);
        let known: &[u16] = known;
        let wwn = ww_for(maxv);
        // The next block's bulk (on the crew) while this block's lanes are finished.
        let mut finish = || -> bool {
            // Near options before the block, in bulk (rows widened first if the previous
            // block's values outgrew them).
            let need = ww_for(maxv);
            if need > cur.ww {
                cur = cur.widen(need);
            }
            // SAFETY: every value so far is at most maxv, below 64·ww_for(maxv).
            unsafe { mark_outside(known, near_moves, first, n0, b, cur.ww, &mut cur.bits) };
            for i in 0..b {
                let n = (n0 + i) as u64;
                let ww = cur.ww;
                let w = 64 * ww;
                let row = &mut cur.bits[i * ww..(i + 1) * ww];
                let mut big: Vec<u16> = Vec::new();
                // The option n - 1 inside the block is the previous lane's value: it is left
                // out of the row and applied at the end (if it equals the row's mex, the
                // answer is the next gap), so lanes do not wait for each other.
                let defer = i >= 1 && near_moves.first() == Some(&1) && n > first;
                // Options inside the block (moves s <= i), marked into four accumulators in
                // turn (marks into one word would each wait for the previous), OR-ed into
                // the row after.
                let mut acc = [[0u64; ACC_WORDS]; 4];
                for (q, &s) in near_moves.iter().enumerate().skip(usize::from(defer)) {
                    if s as usize > i || n < s + first {
                        break;
                    }
                    let v = rest[i - s as usize];
                    let j = (v >> 6) as usize;
                    if j < ww.min(ACC_WORDS) {
                        acc[q & 3][j] |= 1u64 << (v & 63);
                    } else if (v as usize) < w {
                        row[j] |= 1u64 << (v & 63);
                    } else {
                        big.push(v);
                    }
                }
                for (j, x) in row.iter_mut().take(ACC_WORDS).enumerate() {
                    *x |= acc[0][j] | acc[1][j] | acc[2][j] | acc[3][j];
                }
                let quick = match first_gap(row, 0) {
                    Some(m1) if defer => {
                        let prev = u32::from(rest[i - 1]);
                        if prev != m1 {
                            Some(m1)
                        } else {
                            first_gap(row, m1 + 1)
                        }
                    }
                    m => m,
                };
                let v = match quick {
                    Some(v) => v,
                    None => {
                        // Every tracked value (but perhaps the deferred one) is present:
                        // continue past the row with the rest.
                        if defer {
                            let p = rest[i - 1];
                            if (p as usize) < w {
                                row[(p >> 6) as usize] |= 1u64 << (p & 63);
                            } else {
                                big.push(p);
                            }
                        }
                        match first_gap(row, 0) {
                            Some(v) => v,
                            None => {
                                // every value below the row's width is present: the least
                                // one past it among the rest
                                let mut past = ValueSet::default();
                                big.iter().for_each(|&x| past.insert(u32::from(x)));
                                past.next_absent(w as u32)
                            }
                        }
                    }
                };
                // A value past the row (only from lanes' own moves) is still exact: the
                // row then tracks every value below w, all present.
                if v >= u16::MAX as u32 {
                    return false;
                }
                maxv = maxv.max(v);
                rest[i] = v as u16;
            }
            true
        };
        let ok = if nb > 0 {
            let top = (nx + nb - 1) as u64;
            let ms = &far_moves[..far_moves.partition_point(|&s| s + first <= top)];
            // Shares of the far moves; each worker ORs its shares into its own rows. They
            // shrink towards the end (share t ends at 1 - (1 - (t+1)/T)² of the moves), so
            // the workers run out of work at nearly the same time.
            let shares = if threads > 1 && ms.len() >= 256 {
                4 * threads
            } else {
                1
            };
            let end = |t: usize| {
                let left = (shares - t) as f64 / shares as f64;
                ms.len() - (ms.len() as f64 * left * left) as usize
            };
            let bulk = |t: usize, rows: &mut [u64]| {
                let part = &ms[end(t)..end(t + 1)];
                // SAFETY: every value so far is at most maxv, below 64·wwn.
                unsafe { mark_outside(known, part, first, nx, nb, wwn, rows) };
            };
            let ok = crew.bulk_while(&copies, nb * wwn, shares, &bulk, finish, &mut spare);
            // the next block's rows become the current ones
            std::mem::swap(&mut cur.bits, &mut spare);
            cur.ww = wwn;
            ok
        } else {
            finish()
        };
        if !ok {
            return Ok(None);
        }
        n0 = nx;
    }
    Ok(Some(g))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    /// The plain mex engine's values (the reference for the blocked one).
    fn slow(moves: &[u64], leave1: bool, max: u64) -> Vec<u32> {
        super::super::mex::list_mex_grundy(moves, leave1, max, &mut Watch::quiet()).unwrap()
    }

    #[test]
    fn bulk_marks_equal_one_bit_per_option() {
        // Every row width, the eight-lane loops and the generic one (ww > 8), the vector
        // loop (one and two passes, groups of 32 lanes and a tail) against marking each
        // (lane, option) pair by hand.
        let mut next = crate::num::xorshift(0x9E37_79B9_7F4A_7C15);
        for ww in 1..=10usize {
            let g: Vec<u16> = (0..3000)
                .map(|_| (next() % (64 * ww as u64)) as u16)
                .collect();
            // Windows partly inside the block (s < lanes), whole ones (enough for the
            // vector loop, the last at n0 - first), and ones reaching below `first`.
            let moves: Vec<u64> = [1, 5, 37, 202]
                .into_iter()
                .chain((203..2100).step_by(31))
                .chain([2099, 2100, 2101])
                .collect();
            let (n0, lanes, first) = (2100, 203, 1);
            let mut rows = vec![0u64; lanes * ww];
            // SAFETY: every value is below 64·ww.
            unsafe { mark_outside(&g[..n0], &moves, first, n0, lanes, ww, &mut rows) };
            // The scalar loop alone (the vector one takes most moves where the CPU has it).
            let mut scalar = vec![0u64; lanes * ww];
            // SAFETY: every value is below 64·ww.
            unsafe { mark_outside_any(&g[..n0], &moves, first, n0, lanes, ww, &mut scalar) };
            let mut want = vec![0u64; lanes * ww];
            for i in 0..lanes {
                for &s in &moves {
                    let s = s as usize;
                    // Options before the block, at least `first`.
                    if i < s && n0 + i >= s + first as usize {
                        let v = g[n0 + i - s] as usize;
                        want[i * ww + v / 64] |= 1 << (v % 64);
                    }
                }
            }
            assert_eq!(rows, want, "ww = {ww}");
            assert_eq!(scalar, want, "scalar, ww = {ww}");
        }
    }

    /// A blocked-mex table (which must exist) as the stamp mex's u32 values.
    fn as_u32(g: Option<Vec<u16>>) -> Vec<u32> {
        g.expect("values below 65535")
            .into_iter()
            .map(u32::from)
            .collect()
    }

    #[test]
    fn blocked_mex_equals_the_stamp_mex() {
        for spec in [
            "squares",
            "cubes",
            "primes",
            "leave1(primes|sub{1})",
            "fibonacci",
            "squares|sub{2}",
        ] {
            let g = Game::parse(spec).unwrap();
            let (set, leave1) = match &g {
                Game::Subtraction { set, leave1 } => (set, *leave1),
                _ => unreachable!(),
            };
            let m = set.elements_upto(20_000);
            let fast = as_u32(blocked_mex_grundy(&m, leave1, 20_000, &mut Watch::quiet()).unwrap());
            assert_eq!(fast, slow(&m, leave1, 20_000), "{spec}");
        }
        // Values past 640 (rows of more than six words: two passes of the vector loop).
        let m: Vec<u64> = (1..=300).chain((1030..20_000).step_by(5)).collect();
        let fast = as_u32(blocked_mex_grundy(&m, false, 20_000, &mut Watch::quiet()).unwrap());
        assert!(fast.iter().any(|&v| v > 640));
        assert_eq!(
            fast,
            slow(&m, false, 20_000),
            "1..300 and every fifth from 1030"
        );
        // Long enough for the crew (more than 256 moves of at least 2·BLOCK), with 0 to 2
        // helper threads.
        let m = crate::sets::NamedSet::Squares.elements_upto(200_000);
        let slow = slow(&m, false, 200_000);
        for helpers in [0, 1, 2] {
            let fast = as_u32(
                blocked_mex_with(&m, false, &[], 200_000, helpers, &mut Watch::quiet()).unwrap(),
            );
            assert_eq!(fast, slow, "squares with {helpers} helper threads");
        }
    }
}
