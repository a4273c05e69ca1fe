//! The window engine against the definition: outcomes and Grundy values computed one heap
//! at a time, and the period read off by brute force.

use super::*;
use proptest::prelude::*;

/// Outcomes by the definition (true at P-positions), heaps 0..len.
fn slow_outcomes(moves: &[u64], play: Play, len: usize) -> Vec<u8> {
    let mut p = vec![0u8; len];
    for n in 0..len {
        let opts: Vec<usize> = moves
            .iter()
            .filter(|&&s| s as usize <= n)
            .map(|&s| n - s as usize)
            .collect();
        p[n] = if opts.is_empty() {
            u8::from(play == Play::Normal)
        } else {
            u8::from(opts.iter().all(|&o| p[o] == 0))
        };
    }
    p
}

fn slow_grundy(moves: &[u64], len: usize) -> Vec<u8> {
    let mut g = vec![0u8; len];
    for n in 0..len {
        let opts: Vec<u8> = moves
            .iter()
            .filter(|&&s| s as usize <= n)
            .map(|&s| g[n - s as usize])
            .collect();
        g[n] = (0..).find(|v| !opts.contains(v)).unwrap();
    }
    g
}

/// Checks a claimed (preperiod, period) against the values: the period holds from the
/// preperiod to the end, not one place earlier, and no shorter shift holds on the last half.
fn assert_least(x: &[u8], w: &WindowPeriod) {
    let (mu, p) = (w.preperiod as usize, w.period as usize);
    let n = x.len();
    assert!(mu + 2 * p < n / 2, "sample too short for {w:?}");
    assert!((mu..n - p).all(|i| x[i] == x[i + p]), "{w:?}");
    if mu > 0 {
        assert_ne!(x[mu - 1], x[mu - 1 + p], "{w:?}: preperiod not least");
    }
    for q in 1..p {
        assert!(
            (n / 2..n - q).any(|i| x[i] != x[i + q]),
            "{w:?}: {q} is a shorter period"
        );
    }
}

#[test]
fn published_and_hand_checked_periods() {
    // sub{1,2,3}: P-positions are the multiples of 4 (Winning Ways ch. 4)
    let w = outcome_period(&[1, 2, 3], Play::Normal, 1 << 20).unwrap();
    assert_eq!((w.preperiod, w.period, w.p_per_period), (0, 4, 1));
    // misère sub{1,2,3}: P-positions are n ≡ 1 (mod 4), purely periodic (heap 0 is an
    // N-position like 4, 8, …)
    let w = outcome_period(&[1, 2, 3], Play::Misere, 1 << 20).unwrap();
    assert_eq!(
        (w.preperiod, w.period, w.p_per_period, w.p_before),
        (0, 4, 1, 0)
    );
    // the Grundy period of sub{1,2,3} is 4, values 0,1,2,3
    let g = grundy_period(&[1, 2, 3], 1 << 20).unwrap();
    assert_eq!((g.preperiod, g.period, g.max_value), (0, 4, 3));
    // sub{1,4}: Grundy values 0,1,0,1,2 repeating (period 5)
    let g = grundy_period(&[1, 4], 1 << 20).unwrap();
    assert_eq!((g.preperiod, g.period, g.max_value), (0, 5, 2));
    // an additive set {a, b, a + b} with a quadratic outcome period: {3, 5, 8}
    let w = outcome_period(&[3, 5, 8], Play::Normal, 1 << 20).unwrap();
    let x = slow_outcomes(&[3, 5, 8], Play::Normal, 4096);
    assert_least(&x, &w);
}

#[test]
fn bad_sets_are_refused() {
    assert!(outcome_period(&[], Play::Normal, 1000).is_none());
    assert!(outcome_period(&[0, 2], Play::Normal, 1000).is_none());
    assert!(outcome_period(&[3, 2], Play::Normal, 1000).is_none());
    assert!(outcome_period(&[2, 2], Play::Normal, 1000).is_none());
    assert!(grundy_period(&[1 << 25], 1000).is_none());
}

#[test]
fn a_limit_too_small_finds_nothing() {
    // {1, 2, 3}'s window needs 4 + 3 values past the start; 3 positions cannot hold it
    assert!(outcome_period(&[1, 2, 3], Play::Normal, 3).is_none());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn outcome_periods_match_the_definition(
        mut moves in proptest::collection::vec(1u64..40, 1..5),
        misere in any::<bool>(),
    ) {
        moves.sort_unstable();
        moves.dedup();
        let play = if misere { Play::Misere } else { Play::Normal };
        let w = outcome_period(&moves, play, 1 << 22).unwrap();
        let len = (4 * (w.preperiod + 2 * w.period) as usize + 256).max(4096);
        let x = slow_outcomes(&moves, play, len);
        assert_least(&x, &w);
        let ones = |r: std::ops::Range<usize>| x[r].iter().filter(|&&v| v == 1).count() as u64;
        let (mu, p) = (w.preperiod as usize, w.period as usize);
        prop_assert_eq!(w.p_per_period, ones(mu..mu + p));
        prop_assert_eq!(w.p_before, ones(0..mu));
        let c = *moves.last().unwrap();
        // the window really repeats
        let q = w.repeat_at as usize;
        prop_assert!(w.repeat_at >= c && q + p <= w.computed as usize + 1);
        prop_assert_eq!(&x[q - c as usize..q], &x[q + p - c as usize..q + p]);
    }

    #[test]
    fn grundy_periods_match_the_definition(
        mut moves in proptest::collection::vec(1u64..30, 1..5),
    ) {
        moves.sort_unstable();
        moves.dedup();
        let w = grundy_period(&moves, 1 << 22).unwrap();
        let len = (4 * (w.preperiod + 2 * w.period) as usize + 256).max(4096);
        let x = slow_grundy(&moves, len);
        assert_least(&x, &w);
        let (mu, p) = (w.preperiod as usize, w.period as usize);
        prop_assert_eq!(u32::from(*x[..mu + p].iter().max().unwrap()), w.max_value);
        prop_assert_eq!(w.p_per_period, x[mu..mu + p].iter().filter(|&&v| v == 0).count() as u64);
    }
}
