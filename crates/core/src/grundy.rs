//! Grundy tables: g(n) for 0 <= n <= N with each family's engine. [`grundy_table`] picks
//! the engine; values come back in the narrowest unsigned type ([`GrundyTable`]).

use crate::engine::divisor_lists;
use crate::interval::{IntervalGame, MexCounter};
use crate::sets::MoveSet;
use crate::spec::Game;
use crate::table::GrundyTable;
use rayon::prelude::*;
use thiserror::Error;

/// Why a table or stream could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BuildError {
    /// The request exceeds what can be addressed or held; the message has an estimate.
    #[error("{0}")]
    TooLarge(String),
    /// A saved state that does not belong to this engine.
    #[error("{0}")]
    BadState(String),
}

/// Upper estimate of the memory (bytes) a Grundy table of 0..=max needs while it is built
/// (the working table in `u32` plus the family's side structures).
pub fn grundy_memory_estimate(game: &Game, max: u64) -> u64 {
    let n = max.saturating_add(1);
    let table = n.saturating_mul(4).saturating_add(n); // u32 work table + narrowed copy
    let extra = match game {
        Game::Subtraction { set, .. } => set.count_upto_estimate(max).saturating_mul(8),
        Game::Divisors { .. } => 1 << 26,
        _ => 0,
    };
    table.saturating_add(extra)
}

/// g(0..=max) for `game`.
///
/// Engines: finite sets — mex over the set (bitmask); all-but sets — counts of every value
/// so far minus the excluded options (O(|E|²) per position); divisors — divisor lists per
/// segment; interval games — sliding-window mex; other sets — mex over the move list;
/// take-and-break codes — see [`crate::octal`].
///
/// # Errors
/// [`BuildError::TooLarge`] when the table cannot be addressed on this machine.
pub fn grundy_table(game: &Game, max: u64) -> Result<GrundyTable, BuildError> {
    if max >= (isize::MAX as u64) / 8 {
        return Err(BuildError::TooLarge(format!(
            "N = {max} is too large for a Grundy table"
        )));
    }
    let g = match game {
        Game::Subtraction { set, leave1 } => match set {
            MoveSet::AllBut { excluded } => all_but_grundy(excluded, *leave1, max),
            _ => {
                let moves = set.elements_upto(max);
                if set.is_finite() {
                    finite_set_grundy(&moves, *leave1, max)
                } else if let Some(g) = blocked_mex_grundy(&moves, *leave1, max) {
                    return Ok(GrundyTable::from_u16(g));
                } else {
                    list_mex_grundy(&moves, *leave1, max)
                }
            }
        },
        Game::Divisors { nontrivial } => divisor_grundy(*nontrivial, max),
        Game::Interval { bound, leave1 } => IntervalGame {
            bound: *bound,
            leave1: *leave1,
        }
        .grundy(max),
        Game::TakeBreak(code) => {
            crate::octal::take_break_grundy(&crate::octal::Breaker::from_code(code), max).0
        }
        Game::GrundyGame => {
            crate::octal::take_break_grundy(&crate::octal::Breaker::grundy_game(), max).0
        }
    };
    Ok(GrundyTable::from_u32(g))
}

/// Finite set S (increasing): g(n) = mex{g(n - s) : s in S, s <= n - leave1}; values are at
/// most |S|, so the mex is one bitmask scan when |S| < 64.
pub fn finite_set_grundy(moves: &[u64], leave1: bool, max: u64) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(max as usize + 1);
    let small = moves.len() < 64;
    let mut stamp = vec![u64::MAX; moves.len() + 2];
    for n in 0..=max {
        let top = if leave1 { n.saturating_sub(1) } else { n };
        let v = if small {
            let mut seen = 0u64;
            for &s in moves {
                if s > top {
                    break;
                }
                seen |= 1 << g[(n - s) as usize];
            }
            (!seen).trailing_zeros()
        } else {
            for &s in moves {
                if s > top {
                    break;
                }
                stamp[g[(n - s) as usize] as usize] = n;
            }
            (0..).find(|&v| stamp[v as usize] != n).unwrap()
        };
        g.push(v);
    }
    g
}

/// Any increasing move list: g(n) = mex over g(n - s) with a stamp array (each value seen
/// for n is stamped n + 1). O(number of moves <= n) per position.
pub fn list_mex_grundy(moves: &[u64], leave1: bool, max: u64) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(max as usize + 1);
    let mut stamp: Vec<u64> = vec![0; 64];
    for n in 0..=max {
        let top = if leave1 { n.saturating_sub(1) } else { n };
        for &s in moves {
            if s > top {
                break;
            }
            let v = g[(n - s) as usize] as usize;
            if v >= stamp.len() {
                stamp.resize(2 * v + 1, 0);
            }
            stamp[v] = n + 1;
        }
        let v = stamp
            .iter()
            .position(|&t| t != n + 1)
            .unwrap_or(stamp.len());
        g.push(v as u32);
    }
    g
}

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

/// Positions per block of [`blocked_mex_grundy`].
const BLOCK: usize = 256;

/// Any increasing move list, by blocks of [`BLOCK`] positions with the loop transposed: for
/// each move s, the options of the whole block, g(n0 - s .. n0 + B - s), are one contiguous
/// run of the table, read in order, and each lane records the values it has seen as bytes in
/// its own row of a presence table (a store, no read-modify-write). Options inside the block
/// (s <= lane) are added lane by lane before that lane's mex is read off its row. The lanes
/// are split between threads by rows (no shared cache lines); blocks follow one another.
///
/// Same values as [`list_mex_grundy`] — every (position, option) pair is still visited —
/// at a fraction of the time per pair. Values must stay below 65535; beyond, the caller falls
/// back to [`list_mex_grundy`] (`None`).
pub fn blocked_mex_grundy(moves: &[u64], leave1: bool, max: u64) -> Option<Vec<u16>> {
    let first = u64::from(leave1); // least position that can be an option
    let len = max as usize + 1;
    let mut g: Vec<u16> = Vec::with_capacity(len);
    let mut maxv: u32 = 0;
    let mut pres: Vec<u64> = Vec::new();
    let threads = rayon::current_num_threads().max(1);
    let mut n0 = 0usize;
    while n0 < len {
        let b = BLOCK.min(len - n0);
        // Row width: every value seen so far is below it (new values inside the block are
        // checked in the lane pass).
        let w = ((maxv as usize + 2).div_ceil(64)) * 64;
        let ww = w / 64; // words per row
        pres.clear();
        pres.resize(b * ww, 0);
        let top = (n0 + b - 1) as u64; // largest position of the block
                                       // Moves whose options fall before the block for some lane: s > lane.
        let outside: &[u64] = &moves[..moves.partition_point(|&s| s + first <= top)];
        let gref = &g[..];
        let fill = |rows: &mut [u64], lane0: usize| {
            let lanes = rows.len() / ww;
            for (q, &s) in outside.iter().enumerate() {
                // The windows of the next moves are far apart in the table: fetch ahead.
                if let Some(&s2) = outside.get(q + PREFETCH) {
                    let at = (n0 + lane0).saturating_sub(s2 as usize);
                    prefetch(&gref[at.min(gref.len().saturating_sub(1))..], lanes * 2);
                }
                let s = s as usize;
                // lane i (position n0 + i) has option n0 + i - s when s > i, and it must be
                // at least `first`.
                let lo_lane = (s + first as usize).saturating_sub(n0).max(lane0);
                let hi_lane = (lane0 + lanes).min(s); // lanes i < s have outside options
                if lo_lane >= hi_lane {
                    continue;
                }
                let src = &gref[n0 + lo_lane - s..n0 + hi_lane - s];
                let mut row = (lo_lane - lane0) * ww;
                for &v in src {
                    // SAFETY: v <= maxv < w, row + v / 64 < rows.len().
                    unsafe { *rows.get_unchecked_mut(row + (v >> 6) as usize) |= 1u64 << (v & 63) };
                    row += ww;
                }
            }
        };
        if threads > 1 && outside.len() >= 256 && b == BLOCK {
            let per = b.div_ceil(threads);
            pres.par_chunks_mut(per * ww)
                .enumerate()
                .for_each(|(t, rows)| fill(rows, t * per));
        } else {
            fill(&mut pres, 0);
        }
        // Lanes in order: options inside the block, then the mex.
        for i in 0..b {
            let n = (n0 + i) as u64;
            let row = &mut pres[i * ww..(i + 1) * ww];
            let mut big: Vec<u16> = Vec::new();
            for &s in moves {
                if s as usize > i || n < s + first {
                    break;
                }
                let v = g[(n - s) as usize];
                if (v as usize) < w {
                    row[(v >> 6) as usize] |= 1u64 << (v & 63);
                } else {
                    big.push(v);
                }
            }
            let v = match row.iter().position(|&x| x != u64::MAX) {
                Some(j) => j as u32 * 64 + (!row[j]).trailing_zeros(),
                None => {
                    // Every tracked value is present: continue past the row.
                    big.sort_unstable();
                    big.dedup();
                    let mut m = w as u32;
                    for &x in &big {
                        if x as u32 == m {
                            m += 1;
                        } else if x as u32 > m {
                            break;
                        }
                    }
                    m
                }
            };
            if v >= u16::MAX as u32 {
                return None;
            }
            maxv = maxv.max(v);
            g.push(v as u16);
        }
        n0 += b;
    }
    Some(g)
}

/// All-but sets: the options of n are every m in [leave1, n) except n - e (e excluded).
/// A value v is missing iff all its occurrences so far are at excluded options, so the mex is
/// the least of: the mex of all values so far, and any value of an excluded option whose
/// total count equals its count among the excluded options.
pub fn all_but_grundy(excluded: &[u64], leave1: bool, max: u64) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(max as usize + 1);
    let mut all = MexCounter::default();
    let mut count: Vec<u64> = Vec::new();
    let first = u64::from(leave1);
    let mut xs: Vec<u32> = Vec::new();
    for n in 0..=max {
        if n >= 1 && n > first {
            let v = g[(n - 1) as usize];
            all.add(v);
            if v as usize >= count.len() {
                count.resize(v as usize + 1, 0);
            }
            count[v as usize] += 1;
        }
        xs.clear();
        for &e in excluded {
            if e <= n && n - e >= first {
                xs.push(g[(n - e) as usize]);
            }
        }
        let mut best = all.mex();
        for &v in &xs {
            if v < best {
                let in_x = xs.iter().filter(|&&x| x == v).count() as u64;
                if count[v as usize] == in_x {
                    best = v;
                }
            }
        }
        g.push(best);
    }
    g
}

/// Divisor games: g(n) = mex{g(n - d) : d a proper divisor of n (d >= 2 if nontrivial)}.
pub fn divisor_grundy(nontrivial: bool, max: u64) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(max as usize + 1);
    let seg = 1u64 << 16;
    let mut lo = 0u64;
    let mut seen: Vec<u64> = vec![0; 64];
    while lo <= max {
        let hi = (lo + seg).min(max + 1);
        let (start, divs) = divisor_lists(lo, hi, nontrivial);
        for n in lo..hi {
            let i = (n - lo) as usize;
            for &d in &divs[start[i] as usize..start[i + 1] as usize] {
                let v = g[(n - d) as usize] as usize;
                if v >= seen.len() {
                    seen.resize(2 * v + 1, 0);
                }
                seen[v] = n + 1;
            }
            let v = seen.iter().position(|&t| t != n + 1).unwrap_or(seen.len());
            g.push(v as u32);
        }
        lo = hi;
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::grundy_by_definition;

    #[test]
    fn every_family_matches_the_definition() {
        for spec in [
            "sub{1,2,3}",
            "sub{1,3,4}",
            "sub{2,5,7}",
            "leave1(sub{1,3})",
            "squares",
            "cubes",
            "divisors",
            "divisors-nontrivial",
            "sqrt",
            "half",
            "upto{3}",
            "allbut{2,3,7}",
            "leave1(allbut{1,4})",
            "allbut{1}",
            "nim",
            "primes",
            "leave1(primes|sub{1})",
            "0.77",
            "4.07",
            "0.3F",
            "grundy-game",
        ] {
            let g = Game::parse(spec).unwrap();
            let t = grundy_table(&g, 600).unwrap();
            assert_eq!(t.to_u32_vec(), grundy_by_definition(&g, 600), "{spec}");
        }
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
            let fast: Vec<u32> = blocked_mex_grundy(&m, leave1, 20_000)
                .unwrap()
                .into_iter()
                .map(u32::from)
                .collect();
            assert_eq!(fast, list_mex_grundy(&m, leave1, 20_000), "{spec}");
        }
    }

    #[test]
    fn seed_values() {
        // sqrt game: g(0..4) = 0,1,0,1,2.
        let t = grundy_table(&Game::parse("sqrt").unwrap(), 4).unwrap();
        assert_eq!(t.to_u32_vec(), vec![0, 1, 0, 1, 2]);
        // Divisor game: g(n) = v2(n) for n >= 1.
        let t = grundy_table(&Game::parse("divisors").unwrap(), 100_000).unwrap();
        for n in 1..=100_000u64 {
            assert_eq!(t.get(n), n.trailing_zeros(), "{n}");
        }
        // sub{1,3,4}: 0,1,0,1,2,3,2 repeating.
        let t = grundy_table(&Game::parse("sub{1,3,4}").unwrap(), 700).unwrap();
        for n in 0..=700u64 {
            assert_eq!(t.get(n), [0, 1, 0, 1, 2, 3, 2][(n % 7) as usize]);
        }
    }
}
