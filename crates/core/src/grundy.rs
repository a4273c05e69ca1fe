//! Grundy tables: g(n) for 0 <= n <= N with each family's engine. [`grundy_table`] picks
//! the engine; values come back in the narrowest unsigned type ([`GrundyTable`]).

use crate::engine::divisor_lists;
use crate::interval::{IntervalGame, MexCounter};
use crate::rule::grundy_by_definition;
use crate::sets::MoveSet;
use crate::spec::Game;
use crate::table::GrundyTable;
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
        Game::TakeBreak(_) | Game::GrundyGame => grundy_by_definition(game, max),
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
