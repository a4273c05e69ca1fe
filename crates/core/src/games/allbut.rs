//! All-but sets `allbut{E}` (remove any positive number not in the finite set E; `nim` is
//! E empty): co-finite subtraction sets, where the P-positions are finitely many and the
//! Grundy values follow from counts of the values so far.

use crate::mex::MexCounter;
use crate::moves::least_not_excluded;
use crate::observe::{Stopped, Watch};

/// The P-positions of `allbut{excluded}` (increasing): if q0 is the least reachable
/// P-position (0, or 1 with leave1), every larger P-position n has n - q0 excluded, so the
/// candidates are the finitely many q0 + e, each tested against the P-positions below it.
pub fn all_but_p_positions(excluded: &[u64], leave1: bool) -> Vec<u64> {
    all_but_p_positions_played(excluded, leave1, false)
}

/// [`all_but_p_positions`] in normal or (`misere`) misère play. In misère play the heaps
/// without a move (those below the least move m, or up to m under leave1) are N-positions
/// and the least heap with a move, q0, is the first P-position (its options are all
/// without a move); every later P-position n again has n - q0 excluded.
pub fn all_but_p_positions_played(excluded: &[u64], leave1: bool, misere: bool) -> Vec<u64> {
    let mut sorted = excluded.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let excluded = &sorted[..];
    let mut ps: Vec<u64> = vec![];
    let q0 = if misere {
        // the least heap with a move: the least amount not excluded (plus one under leave1)
        let q = least_not_excluded(excluded).saturating_add(u64::from(leave1));
        ps.push(q);
        q
    } else if leave1 {
        ps.extend([0, 1]);
        1
    } else {
        ps.push(0);
        0
    };
    let mut cands: Vec<u64> = excluded.iter().filter_map(|&e| e.checked_add(q0)).collect();
    cands.sort_unstable();
    cands.dedup();
    for n in cands {
        if n <= q0 {
            continue;
        }
        // n is P iff every P-position q < n that is an option (q >= leave1) has n - q excluded.
        let is_p = ps
            .iter()
            .filter(|&&q| q < n && (!leave1 || q >= 1))
            .all(|&q| excluded.binary_search(&(n - q)).is_ok());
        if is_p {
            ps.push(n);
        }
    }
    ps
}

/// Grundy values 0..=max of `allbut{excluded}`: the options of n are every m in
/// [leave1, n) except n - e (e excluded). A value v is missing iff all its occurrences so
/// far are at excluded options, so the mex is the least of: the mex of all values so far,
/// and any value of an excluded option whose total count equals its count among the
/// excluded options. O(|E|²) per position.
pub(crate) fn all_but_grundy(
    excluded: &[u64],
    leave1: bool,
    max: u64,
    watch: &mut Watch,
) -> Result<Vec<u32>, Stopped> {
    let mut g: Vec<u32> = Vec::with_capacity(max as usize + 1);
    let mut all = MexCounter::default();
    let first = u64::from(leave1);
    let mut xs: Vec<u32> = Vec::new();
    for n in 0..=max {
        watch.at(n)?;
        if n >= 1 && n > first {
            all.add(g[(n - 1) as usize]);
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
                let in_x = xs.iter().filter(|&&x| x == v).count() as u32;
                if all.count(v) == in_x {
                    best = v;
                }
            }
        }
        g.push(best);
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_but_sets_have_finitely_many_p_positions() {
        assert_eq!(all_but_p_positions(&[2, 3, 7], false), vec![0, 2]);
        assert_eq!(all_but_p_positions(&[], false), vec![0]);
        // in any order
        assert_eq!(all_but_p_positions(&[5, 3, 1], false), vec![0, 1]);
        assert_eq!(all_but_p_positions(&[u64::MAX], true), vec![0, 1]);
    }
}
