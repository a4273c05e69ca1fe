//! Divisor games: remove a proper divisor d of n (1 <= d < n; `divisors-nontrivial`:
//! 1 < d < n).
//!
//! With d = 1 allowed the outcome has a closed form (the parity theorem,
//! [`parity_outcome`]); the Grundy value is v2(n), the 2-adic valuation, for n >= 1 (checked
//! against the tables in the tests). Tables are built from the divisor lists of a segment
//! at a time (`moves::listed::divisor_lists`).

/// The outcome of heap n in the divisor game with d = 1 allowed, in closed form, and a
/// winning move: an odd heap has only odd divisors, so every move from it leaves an even
/// heap; an even heap moves to an odd one by taking 1. Hence the P-positions are 0 and the
/// odd heaps, and taking 1 wins from every even heap n >= 2. Returns (N-position?, the
/// winning amount when it is one).
pub fn parity_outcome(n: u64) -> (bool, Option<u64>) {
    let win = n >= 2 && n.is_multiple_of(2);
    (win, win.then_some(1))
}

/// `nondivisors`: remove d with 1 <= d < n that does not divide n (OEIS A365533), listed
/// heap by heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NonDivisors;

impl crate::moves::AmountRule for NonDivisors {
    fn amounts(&self, n: u64, out: &mut Vec<u64>) {
        out.extend((1..n).filter(|d| !n.is_multiple_of(*d)));
    }
    fn allows(&self, n: u64, s: u64) -> bool {
        s >= 1 && s < n && !n.is_multiple_of(s)
    }
    fn tried(&self, n: u64) -> f64 {
        n as f64
    }
    /// 3 is the least heap with a non-divisor below it (2).
    fn first_move(&self) -> Option<u64> {
        Some(3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::moves::listed::divisor_lists;
    use crate::rule::outcome_by_definition;

    #[test]
    fn divisor_lists_and_parity_match_the_definition() {
        let (start, divs) = divisor_lists(10, 13, false);
        let of = |i: usize| {
            let mut v = divs[start[i]..start[i + 1]].to_vec();
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
