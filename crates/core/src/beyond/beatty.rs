//! Exact Beatty arithmetic for the P-positions of Fraenkel's a-Wythoff games: no floating
//! point anywhere a value is decided, so pairs near 2^64 are exact.
//!
//! Fraenkel ("How to beat your Wythoff games' opponent on three fronts", Amer. Math.
//! Monthly 89 (1982) 353–361) proved that the P-positions of a-Wythoff (remove any
//! positive amount from one heap, or x ≥ 1 and y ≥ 1 from both with |x − y| < a) are the
//! pairs (A_n, B_n) with A_n = ⌊nα⌋, B_n = A_n + a·n = ⌊nβ⌋, where α = (2 − a + √(a²+4))/2
//! and β = α + a; {A_n : n ≥ 1} and {B_n : n ≥ 1} partition the positive integers
//! (Beatty's theorem). a = 1 is Wythoff's game (Wythoff 1907): α = φ, β = φ².
//!
//! Since a² + 4 is never a square for a ≥ 1, n√(a²+4) is irrational for n ≥ 1 and
//! A_n = ⌊(n(2 − a) + ⌊n√(a²+4)⌋) / 2⌋ exactly (the fractional part of n√(a²+4) cannot
//! carry the halving across an integer).

/// The 256-bit product of two u128 values, as (high, low) halves.
pub(crate) fn mul_wide(x: u128, y: u128) -> (u128, u128) {
    let mask = u64::MAX as u128;
    let (x1, x0) = (x >> 64, x & mask);
    let (y1, y0) = (y >> 64, y & mask);
    let p00 = x0 * y0;
    let p01 = x0 * y1;
    let p10 = x1 * y0;
    let p11 = x1 * y1;
    let mid = (p00 >> 64) + (p01 & mask) + (p10 & mask);
    let lo = (p00 & mask) | (mid << 64);
    let hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    (hi, lo)
}

/// m² ≤ n²·d, exactly.
fn square_at_most(m: u128, n: u64, d: u64) -> bool {
    let lhs = mul_wide(m, m);
    let rhs = mul_wide(n as u128 * n as u128, d as u128);
    lhs <= rhs
}

/// ⌊n·√d⌋, exactly, for any n and d (d ≥ 1).
pub fn floor_n_sqrt(n: u64, d: u64) -> u128 {
    if n == 0 {
        return 0;
    }
    // a float estimate, then an exact bisection in a window around it that is checked to
    // contain the answer (widened until it does)
    let est = (n as f64) * (d as f64).sqrt();
    let est = if est.is_finite() && est < 1e38 {
        est as u128
    } else {
        u128::MAX >> 1
    };
    let mut width: u128 = 1 << 20;
    loop {
        let lo = est.saturating_sub(width);
        let hi = est.saturating_add(width);
        if square_at_most(lo, n, d) && !square_at_most(hi, n, d) {
            let (mut lo, mut hi) = (lo, hi);
            // invariant: lo² ≤ n²d < hi²
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if square_at_most(mid, n, d) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
        width = width.saturating_mul(16);
    }
}

/// The P-positions of a-Wythoff by index: A_n, B_n and their inverses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Beatty {
    /// a ≥ 1 (1: Wythoff's game).
    pub a: u64,
}

impl Beatty {
    /// a² + 4, the number under the root.
    fn d(self) -> u64 {
        self.a.saturating_mul(self.a).saturating_add(4)
    }

    /// A_n = ⌊nα⌋, exactly (as u128: B_n may pass 2^64 for large n).
    pub fn lower(self, n: u64) -> u128 {
        let m = floor_n_sqrt(n, self.d()) as i128;
        let lin = n as i128 * (2 - self.a as i128);
        (lin + m).div_euclid(2) as u128
    }

    /// B_n = A_n + a·n, exactly.
    pub fn upper(self, n: u64) -> u128 {
        self.lower(n) + self.a as u128 * n as u128
    }

    /// The n with A_n = p, if p is a lower number (0 = A_0).
    pub fn lower_index(self, p: u64) -> Option<u64> {
        // A_n ≥ n: the last n in [0, p] with A_n ≤ p
        let n = last_at_most(p, p, |n| self.lower(n));
        (self.lower(n) == p as u128).then_some(n)
    }

    /// The n ≥ 1 with B_n = p, if p is an upper number.
    pub fn upper_index(self, p: u64) -> Option<u64> {
        let n = last_at_most(p / self.a.max(1), p, |n| self.upper(n));
        (n >= 1 && self.upper(n) == p as u128).then_some(n)
    }

    /// How many pairs have B_n ≤ max (n = 0, 1, …): the pairs of the square [0, max]²
    /// with a ≤ b, counted by bisection.
    pub fn count_upto(self, max: u64) -> u64 {
        last_at_most(max / self.a.max(1), max, |n| self.upper(n)) + 1
    }

    /// The pairs (n, A_n, B_n) for n = 0, 1, … in order, computed incrementally with exact
    /// integer steps (a few u128 operations a pair): ⌊(n+1)√d⌋ − ⌊n√d⌋ is ⌊√d⌋ or ⌊√d⌋ + 1.
    pub fn pairs(self) -> BeattyPairs {
        let d = self.d();
        BeattyPairs {
            a: self.a,
            d,
            step: crate::num::isqrt(d) as u128,
            n: 0,
            m: 0,
        }
    }
}

/// The last n in [0, hi] with f(n) ≤ p, for f increasing with f(0) = 0 (bisection).
fn last_at_most(hi: u64, p: u64, f: impl Fn(u64) -> u128) -> u64 {
    let (mut lo, mut hi) = (0u64, hi);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if f(mid) <= p as u128 {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// The iterator of [`Beatty::pairs`].
#[derive(Debug, Clone)]
pub struct BeattyPairs {
    a: u64,
    d: u64,
    step: u128,
    n: u64,
    /// ⌊n√d⌋.
    m: u128,
}

impl Iterator for BeattyPairs {
    type Item = (u64, u128, u128);

    fn next(&mut self) -> Option<(u64, u128, u128)> {
        let n = self.n;
        let lin = n as i128 * (2 - self.a as i128);
        let lower = (lin + self.m as i128).div_euclid(2) as u128;
        let upper = lower + self.a as u128 * n as u128;
        // advance: ⌊(n+1)√d⌋ is m + step or m + step + 1
        let next = n.checked_add(1)?;
        let cand = self.m + self.step + 1;
        self.m = if square_at_most(cand, next, self.d) {
            cand
        } else {
            cand - 1
        };
        self.n = next;
        Some((n, lower, upper))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_products_and_roots_are_exact() {
        assert_eq!(mul_wide(u128::MAX, u128::MAX), (u128::MAX - 1, 1));
        assert_eq!(mul_wide(1 << 64, 1 << 64), (1, 0));
        assert_eq!(floor_n_sqrt(1, 5), 2);
        assert_eq!(floor_n_sqrt(10, 5), 22);
        // ⌊10^18 √5⌋ = 2236067977499789696 (√5 = 2.2360679774997896964…)
        assert_eq!(
            floor_n_sqrt(1_000_000_000_000_000_000, 5),
            2_236_067_977_499_789_696
        );
        let big = floor_n_sqrt(u64::MAX, 5);
        assert!(square_at_most(big, u64::MAX, 5) && !square_at_most(big + 1, u64::MAX, 5));
    }

    #[test]
    fn wythoff_pairs_by_formula_and_by_steps_agree() {
        // OEIS A000201 (⌊nφ⌋) and A001950 (⌊nφ²⌋)
        let w = Beatty { a: 1 };
        let a: Vec<u128> = (1..=10).map(|n| w.lower(n)).collect();
        assert_eq!(a, [1, 3, 4, 6, 8, 9, 11, 12, 14, 16]);
        let b: Vec<u128> = (1..=10).map(|n| w.upper(n)).collect();
        assert_eq!(b, [2, 5, 7, 10, 13, 15, 18, 20, 23, 26]);
        for a in 1..=6 {
            let be = Beatty { a };
            for (n, lo, up) in be.pairs().take(3000) {
                assert_eq!((lo, up), (be.lower(n), be.upper(n)), "a = {a}, n = {n}");
            }
        }
        // near 10^18: ⌊nφ⌋ = (n + ⌊n√5⌋) / 2
        let n = 1_000_000_000_000_000_000u64;
        assert_eq!(w.lower(n), (n as u128 + 2_236_067_977_499_789_696) / 2);
        assert_eq!(w.lower_index(w.lower(n) as u64), Some(n));
        assert_eq!(w.upper_index(w.upper(n) as u64), Some(n));
        assert_eq!(w.lower_index(w.upper(n) as u64), None);
    }
}
