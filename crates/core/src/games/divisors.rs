//! Divisor games: remove a proper divisor d of n (1 <= d < n; `divisors-nontrivial`:
//! 1 < d < n).
//!
//! With d = 1 allowed the outcome has a closed form (the parity theorem,
//! [`parity_outcome`]); the Grundy value is v2(n), the 2-adic valuation, for n >= 1 (checked
//! against the tables in the tests). Tables are built from the divisor lists of a segment
//! at a time ([`divisor_lists`]).

use crate::num::isqrt;

/// Proper divisors of every n in [lo, hi) (d >= 2 when `nontrivial`), as CSR lists: the
/// divisors of n are `divs[start[n - lo]..start[n - lo + 1]]`, unordered. Found by pairs
/// d·m = n with d <= sqrt(n), so a segment of S positions costs O(S log hi + sqrt hi).
pub(crate) fn divisor_lists(lo: u64, hi: u64, nontrivial: bool) -> (Vec<u32>, Vec<u64>) {
    let len = hi.saturating_sub(lo) as usize;
    let mut start = vec![0u32; len + 1];
    if hi <= 1 || len == 0 {
        return (start, Vec::new());
    }
    let top = isqrt(hi - 1);
    let first_d = if nontrivial { 2 } else { 1 };
    let each = |f: &mut dyn FnMut(usize, u64)| {
        for d in 1..=top {
            // multiples n = m·d with m >= d (so d <= sqrt n), n in [lo, hi)
            let Some(mut n) = lo.div_ceil(d).max(d).checked_mul(d) else {
                continue;
            };
            while n < hi {
                let i = (n - lo) as usize;
                let m = n / d;
                if d >= first_d && d < n {
                    f(i, d);
                }
                if m != d && m >= first_d && m < n {
                    f(i, m);
                }
                let Some(next) = n.checked_add(d) else { break };
                n = next;
            }
        }
    };
    each(&mut |i, _| start[i + 1] += 1);
    for i in 0..len {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut divs = vec![0u64; start[len] as usize];
    each(&mut |i, d| {
        divs[fill[i] as usize] = d;
        fill[i] += 1;
    });
    (start, divs)
}

/// The outcome of heap n in the divisor game with d = 1 allowed, in closed form, and a
/// winning move: an odd heap has only odd divisors, so every move from it leaves an even
/// heap; an even heap moves to an odd one by taking 1. Hence the P-positions are 0 and the
/// odd heaps, and taking 1 wins from every even heap n >= 2. Returns (N-position?, the
/// winning amount when it is one).
pub fn parity_outcome(n: u64) -> (bool, Option<u64>) {
    let win = n >= 2 && n.is_multiple_of(2);
    (win, win.then_some(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::rule::outcome_by_definition;

    #[test]
    fn divisor_lists_and_parity_match_the_definition() {
        let (start, divs) = divisor_lists(10, 13, false);
        let of = |i: usize| {
            let mut v = divs[start[i] as usize..start[i + 1] as usize].to_vec();
            v.sort_unstable();
            v
        };
        assert_eq!(
            (of(0), of(1), of(2)),
            (vec![1, 2, 5], vec![1], vec![1, 2, 3, 4, 6])
        );
        let win = outcome_by_definition(&Game::parse("divisors").unwrap(), 2000);
        for n in 0..=2000u64 {
            assert_eq!(parity_outcome(n).0, win[n as usize], "{n}");
        }
    }
}
