//! Interval games: from n remove 1..=f(n) tokens, f non-decreasing (`sqrt`, `upto{k}`,
//! `half`, optionally `leave1(..)`). The options of n are the contiguous range
//! [low(n), n - 1], and low(n) is non-decreasing, which gives
//!
//! * P-positions by jump-ahead: after a P-position p the next one is the least L > p with
//!   low(L) > p (no P-position in L's option range) — O(1) per P-position here;
//! * Grundy values by a sliding window: g(n) = mex of the window [low(n), n - 1], kept as a
//!   count per value plus a two-level bitmap of present values (amortized O(1) per position
//!   for the window moves, O(V/4096) for a mex over V values; `engines::interval`).
//!
//! A [`Reach`] is the general form: the largest of several such bounds (unions such as
//! `sqrt|upto{5}`, or a rule's bound `rule{k <= n // 3}`), plus finitely many extra amounts
//! (`half|sub{1}`: remove 1, or up to half). Its options are still an interval [low(n), n)
//! plus the extra amounts that reach below it, so the same two engines serve it.

use crate::moves::bound::Bound;
use crate::num::isqrt;
use std::fmt;
use std::sync::Arc;

/// An interval game: bound f and the leave-one rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntervalGame {
    /// f.
    pub bound: Bound,
    /// A move may not take the whole heap.
    pub leave1: bool,
}

impl IntervalGame {
    /// The number of legal amounts from n: min(f(n), n - leave1), never below 0.
    pub fn reach(&self, n: u64) -> u64 {
        let top = if self.leave1 { n.saturating_sub(1) } else { n };
        self.bound.f(n).min(top)
    }

    /// low(n) = n - reach(n): the smallest option of n (options are low(n)..n, exclusive of
    /// n; the range is empty when low(n) = n).
    pub fn low(&self, n: u64) -> u64 {
        n - self.reach(n)
    }

    /// The least L > p with low(L) > p: the P-position after the P-position p. `None` when it
    /// would exceed `u64::MAX`.
    pub fn next_p(&self, p: u64) -> Option<u64> {
        let t = p.checked_add(1)?;
        let guess = match self.bound {
            // low(L) = max(L - k, 0 or 1) > p  <=>  L >= p + k + 1 (or L = 1 when p = 0 and
            // leave1 makes heap 1 terminal).
            Bound::Upto(k) => {
                if self.leave1 && p == 0 {
                    1
                } else {
                    t.checked_add(k)?
                }
            }
            // low(L) = ceil(L / 2) > p  <=>  L >= 2p + 1.
            Bound::Half => p.checked_mul(2)?.checked_add(1)?,
            // L - isqrt(L) >= t: start from t + isqrt(t) and correct.
            Bound::Sqrt => t.checked_add(isqrt(t))?,
        };
        // Exact correction (a few steps at most for sqrt; none for the others).
        let mut l = guess;
        while l > t && self.low(l - 1) > p {
            l -= 1;
        }
        while self.low(l) <= p {
            l = l.checked_add(1)?;
        }
        Some(l)
    }

    /// Binary-search version of [`IntervalGame::next_p`], for any monotone `low`; used to
    /// cross-check the closed forms.
    pub fn next_p_search(&self, p: u64) -> Option<u64> {
        least_low_above(p, |l| self.low(l))
    }

    /// The P-positions of `upto{k}` in closed form, as (first, step): 0 and then every
    /// position congruent to `first` modulo `step` = k + 1 (first = 0; with leave-one, 0 and
    /// then 1, k + 2, 2k + 3, …, so first = 1). `None` for other bounds.
    fn arithmetic(&self) -> Option<(u64, u64)> {
        match self.bound {
            Bound::Upto(k) => Some((u64::from(self.leave1), k.checked_add(1)?)),
            Bound::Sqrt | Bound::Half => None,
        }
    }

    /// For `sqrt`: the first "single" range (see [`IntervalGame::sqrt_range`]): 1, or 2
    /// with leave-one. `None` for other bounds.
    fn sqrt_first_single(&self) -> Option<u128> {
        matches!(self.bound, Bound::Sqrt).then_some(if self.leave1 { 2 } else { 1 })
    }

    /// The P-positions of `sqrt` in range q, the positions q(q-1) <= p < q(q+1) (q >= 1),
    /// ascending: one or two.
    ///
    /// Closed form, derived from the jump-ahead: after a P-position p in range q the next is
    /// p + q + 1 (the least L with L - isqrt(L) > p; the gap of `heaplab check`'s README
    /// example, `floor((1 + isqrt(1 + 4p)) / 2) + 1`). Writing p = q(q-1) + r and
    /// t = r - (q - 1), one step goes to range q + 1 with t - q when t >= 0, and otherwise
    /// makes a second P-position in range q and then goes to range q + 1 with t + 1. So t
    /// is 0 exactly at the
    /// *single* ranges s, 2s + 1, 4s + 3, … (s = 1; s = 2 with leave-one, whose heaps 0 and
    /// 1 are both terminal), each holding the one P-position q² - 1; any other range q holds
    /// q² + q - 2 - 2m and q² + 2q - 1 - 2m, m the last single range below q. (P-positions
    /// 0, 2, 5, 8, 12, 17, 22, 28, … as in `../shared/reference`; the tests check the form
    /// against the jump-ahead.)
    fn sqrt_range(&self, q: u128) -> (u128, Option<u128>) {
        let s = self.sqrt_first_single().expect("sqrt");
        if q < s {
            // leave-one: range 1 holds the terminal heaps 0 and 1
            return (0, Some(1));
        }
        let m = ((s + 1) << ((q + 1) / (s + 1)).ilog2()) - 1;
        if m == q {
            (q * q - 1, None)
        } else {
            (q * q + q - 2 - 2 * m, Some(q * q + 2 * q - 1 - 2 * m))
        }
    }

    /// The range q of n for `sqrt`: q(q-1) <= n < q(q+1).
    fn sqrt_range_of(n: u64) -> u128 {
        let q = u128::from(isqrt(n)) + 1;
        if q * (q - 1) > u128::from(n) {
            q - 1
        } else {
            q
        }
    }

    /// How outcomes and counts come in closed form, not by walking: `upto{k}` (an
    /// arithmetic progression) and `sqrt` (one or two P-positions per range, see
    /// `IntervalGame::sqrt_range`); `None` for `half`.
    pub fn closed_form(&self) -> Option<&'static str> {
        if self.arithmetic().is_some() {
            Some("arithmetic progression")
        } else if self.sqrt_first_single().is_some() {
            Some("closed form")
        } else {
            None
        }
    }

    /// Outcome of one position: (is N-position, last P-position <= n). O(1) for `upto{k}`
    /// and `sqrt` (closed forms); for `half` by jump-ahead from 0, in O(log2 n).
    pub fn outcome(&self, n: u64) -> (bool, u64) {
        if let Some((first, step)) = self.arithmetic() {
            let p = if n < first { 0 } else { n - (n - first) % step };
            return (p != n, p);
        }
        if self.sqrt_first_single().is_some() {
            let q = Self::sqrt_range_of(n);
            let n128 = u128::from(n);
            let (a, b) = self.sqrt_range(q);
            let p = match b {
                Some(b) if b <= n128 => b,
                _ if a <= n128 => a,
                // before range q's first: the last of range q - 1 (range 1 holds 0)
                _ => {
                    let (a, b) = self.sqrt_range(q - 1);
                    b.unwrap_or(a)
                }
            };
            // p <= n, so it fits
            let p = p as u64;
            return (p != n, p);
        }
        let mut p = 0;
        while let Some(q) = self.next_p(p).filter(|&q| q <= n) {
            p = q;
        }
        (p != n, p)
    }

    /// The number of P-positions in 0..=max and the largest of them, in O(1) for `upto{k}`
    /// and `sqrt`; `None` for `half` (stream them instead: O(1) each).
    pub fn count_upto(&self, max: u64) -> Option<(u64, u64)> {
        let last = self.outcome(max).1;
        if let Some((first, step)) = self.arithmetic() {
            if max < first {
                return Some((1, 0));
            }
            let count = (max - first) / step + 1 + u64::from(first > 0);
            return Some((count, last));
        }
        let s = self.sqrt_first_single()?;
        // ranges 1..q-1 whole: two P-positions each but one in each single range
        let q = Self::sqrt_range_of(max);
        let whole = q - 1;
        let singles = if whole >= s {
            u128::from(((whole + 1) / (s + 1)).ilog2()) + 1
        } else {
            0
        };
        let (a, b) = self.sqrt_range(q);
        let here = [Some(a), b]
            .iter()
            .flatten()
            .filter(|&&p| p <= u128::from(max))
            .count() as u128;
        Some(((2 * whole - singles + here) as u64, last))
    }

    /// The number of misère P-positions in 0..=max and the largest of them, for `upto{k}`
    /// (k >= 1) in O(1); `None` for other bounds and `upto{0}`. The heaps below r = 1 (r = 2
    /// with leave-one: heap 1 cannot move) have no move, so they are misère N-positions;
    /// heap n >= r is a P-position exactly when n ≡ r (mod k + 1): from such a heap every
    /// move (1..=k tokens, leaving at least r - 1) reaches a heap not ≡ r, and from any
    /// other heap n > r one move reaches the largest heap ≡ r below it (the misère Bash
    /// game; Winning Ways ch. 13) — normal play's progression ([`IntervalGame::arithmetic`])
    /// moved up by one, without heap 0. For k = 2^64 - 1 (misère Nim of one heap) only
    /// heap r is lost.
    pub fn misere_count_upto(&self, max: u64) -> Option<(u64, Option<u64>)> {
        let Bound::Upto(k) = self.bound else {
            return None;
        };
        if k == 0 {
            return None;
        }
        let r = 1 + u64::from(self.leave1);
        Some(match self.arithmetic() {
            _ if max < r => (0, None),
            Some((_, m)) => ((max - r) / m + 1, Some(max - (max - r) % m)),
            None => (1, Some(r)),
        })
    }

    /// Estimated number of P-positions in 0..=max (for work estimates): max / (k + 1) for
    /// `upto{k}`, 2·sqrt(max) for `sqrt` (the gaps grow like sqrt(p)), log2(max) for `half`.
    pub fn p_count_estimate(&self, max: u64) -> f64 {
        let m = max as f64;
        match self.bound {
            Bound::Upto(k) => m / (k as f64 + 1.0) + 2.0,
            Bound::Sqrt => 2.0 * m.sqrt() + 2.0,
            Bound::Half => m.max(1.0).log2() + 2.0,
        }
    }
}

/// One bound of a [`Reach`]: an interval game's named bound, or one computed from a rule's
/// expression.
#[derive(Clone)]
pub enum ReachBound {
    /// `sqrt`, `upto{k}`, `half`.
    Named(Bound),
    /// f(n) = clamp(E(n), 0, n) for an expression E over n that is proven non-decreasing
    /// with steps of at most 1 (`games::predicate`'s structure analysis), so that n - f(n)
    /// is non-decreasing too; `text` is E as the rule writes it.
    Expr {
        /// E, as written.
        text: String,
        /// f.
        f: Arc<dyn Fn(u64) -> u64 + Send + Sync>,
    },
}

impl fmt::Debug for ReachBound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReachBound::Named(b) => write!(f, "{b:?}"),
            ReachBound::Expr { text, .. } => write!(f, "Expr({text})"),
        }
    }
}

impl ReachBound {
    /// f(n) (before the leave-one rule).
    pub fn f(&self, n: u64) -> u64 {
        match self {
            ReachBound::Named(b) => b.f(n),
            ReachBound::Expr { f, .. } => f(n).min(n),
        }
    }

    /// The k of `upto{k}`, when the bound is that constant.
    pub fn constant(&self) -> Option<u64> {
        match self {
            ReachBound::Named(Bound::Upto(k)) => Some(*k),
            ReachBound::Named(_) | ReachBound::Expr { .. } => None,
        }
    }
}

/// Remove 1..=reach(n) tokens, where reach(n) is the largest of several interval bounds
/// (each under its own leave-one rule), or one of finitely many extra amounts s (s <= n,
/// or s < n under `extra_leave1`). Every bound is non-decreasing with n - f(n)
/// non-decreasing, so low(n) = n - reach(n) is non-decreasing: the options of n are the
/// interval [low(n), n) plus the extra amounts that reach below low(n).
#[derive(Debug, Clone)]
pub struct Reach {
    /// The bounds and their leave-one rules (at least one).
    pub bounds: Vec<(ReachBound, bool)>,
    /// Extra amounts, increasing, none 0.
    pub extra: Vec<u64>,
    /// The extra amounts may not take the whole heap.
    pub extra_leave1: bool,
}

impl From<IntervalGame> for Reach {
    fn from(ig: IntervalGame) -> Reach {
        Reach {
            bounds: vec![(ReachBound::Named(ig.bound), ig.leave1)],
            extra: vec![],
            extra_leave1: false,
        }
    }
}

impl Reach {
    /// The interval game this is, when it is one bound and no extra amount.
    pub fn pure(&self) -> Option<IntervalGame> {
        match (&self.bounds[..], self.extra.is_empty()) {
            ([(ReachBound::Named(bound), leave1)], true) => Some(IntervalGame {
                bound: *bound,
                leave1: *leave1,
            }),
            _ => None,
        }
    }

    /// The largest k of the bounds when every bound is a constant `upto{k}` (the moves are
    /// then a finite set).
    pub fn constant(&self) -> Option<u64> {
        self.bounds
            .iter()
            .map(|(b, _)| b.constant())
            .try_fold(0u64, |m, k| k.map(|k| m.max(k)))
    }

    /// reach(n): the largest of min(f(n), n - leave1) over the bounds.
    pub fn reach(&self, n: u64) -> u64 {
        self.bounds
            .iter()
            .map(|(b, leave1)| {
                let top = if *leave1 { n.saturating_sub(1) } else { n };
                b.f(n).min(top)
            })
            .max()
            .unwrap_or(0)
    }

    /// low(n) = n - reach(n): the options of n in the interval are low(n)..n.
    pub fn low(&self, n: u64) -> u64 {
        n - self.reach(n)
    }

    /// The extra amounts of n beyond the interval (reach(n) < s, legal at n), increasing.
    pub fn extra_beyond(&self, n: u64) -> impl Iterator<Item = u64> + '_ {
        let r = self.reach(n);
        let top = if self.extra_leave1 {
            n.saturating_sub(1)
        } else {
            n
        };
        self.extra
            .iter()
            .copied()
            .filter(move |&s| s > r && s <= top)
    }

    /// The amounts that may be removed from n, increasing.
    pub fn amounts(&self, n: u64, out: &mut Vec<u64>) {
        out.extend(1..=self.reach(n));
        out.extend(self.extra_beyond(n));
    }

    /// Is removing s from n a move?
    pub fn allows(&self, n: u64, s: u64) -> bool {
        let top = if self.extra_leave1 {
            n.saturating_sub(1)
        } else {
            n
        };
        s >= 1
            && s <= n
            && (s <= self.reach(n) || (s <= top && self.extra.binary_search(&s).is_ok()))
    }

    /// The least L > p with low(L) > p (no position of [p, L) is an option of L in the
    /// interval): the next candidate for a P-position after the P-position p. O(1) for an
    /// interval game, O(log) by a galloping search otherwise; `None` past `u64::MAX`.
    pub fn next_low_above(&self, p: u64) -> Option<u64> {
        if let Some(ig) = self.pure() {
            return ig.next_p(p);
        }
        least_low_above(p, |l| self.low(l))
    }

    /// The least heap with a move (`u64::MAX` when none has one): the heaps without a move
    /// are exactly those below it, since reach(n) and the legal extra amounts only grow.
    pub fn first_move(&self) -> u64 {
        let by_extra = self.extra.first().map_or(u64::MAX, |&s| {
            s.saturating_add(u64::from(self.extra_leave1))
        });
        // reach(n) >= 1 from some n on, or never (upto{0}); found by galloping
        if self.reach(u64::MAX) == 0 {
            return by_extra;
        }
        let (mut lo, mut hi) = (0u64, 1u64);
        while self.reach(hi) == 0 {
            lo = hi;
            hi = hi.saturating_mul(2);
        }
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.reach(mid) >= 1 {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo.min(by_extra)
    }

    /// About how many P-positions 0..=max holds (for cost estimates): exact laws for an
    /// interval game, else ∫ dx / (reach(x) + 1) over 64 log-spaced pieces (the gap after
    /// a P-position p is about reach(p) + 1).
    pub fn p_count_estimate(&self, max: u64) -> f64 {
        if let Some(ig) = self.pure() {
            return ig.p_count_estimate(max);
        }
        let m = max as f64;
        if m < 64.0 {
            return m + 1.0;
        }
        let mut total = 0.0;
        let mut a = 1.0f64;
        let ratio = m.powf(1.0 / 64.0);
        for _ in 0..64 {
            let b = (a * ratio).min(m);
            total += (b - a) / (self.reach(((a + b) / 2.0) as u64) as f64 + 1.0);
            a = b;
        }
        total + 2.0
    }
}

/// The least L > p with `low(L) > p`, for a non-decreasing `low`: a galloping search (steps
/// 1, 2, 4, … until `low` passes p) and then a binary search, O(log(L - p)) calls of `low`.
/// `None` when no such L fits in a u64.
fn least_low_above(p: u64, low: impl Fn(u64) -> u64) -> Option<u64> {
    let mut lo = p.checked_add(1)?;
    let mut step = 1u64;
    let mut hi = lo;
    while low(hi) <= p {
        lo = hi.checked_add(1)?;
        hi = hi.checked_add(step)?;
        step = step.saturating_mul(2);
    }
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if low(mid) > p {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(lo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::observe::Watch;
    use crate::rule::{grundy_by_definition, outcome_by_definition};

    fn games() -> Vec<(IntervalGame, Game)> {
        let mut v = vec![];
        for bound in [
            Bound::Sqrt,
            Bound::Half,
            Bound::Upto(1),
            Bound::Upto(3),
            Bound::Upto(7),
        ] {
            for leave1 in [false, true] {
                v.push((
                    IntervalGame { bound, leave1 },
                    Game::Interval { bound, leave1 },
                ));
            }
        }
        v
    }

    #[test]
    fn jump_ahead_equals_the_definition() {
        for (ig, game) in games() {
            let win = outcome_by_definition(&game, 3000);
            let mut p = 0u64;
            let mut ps = vec![0u64];
            while let Some(q) = ig.next_p(p) {
                if q > 3000 {
                    break;
                }
                assert_eq!(ig.next_p_search(p), Some(q), "{game}");
                ps.push(q);
                p = q;
            }
            let expect: Vec<u64> = (0..=3000u64).filter(|&n| !win[n as usize]).collect();
            assert_eq!(ps, expect, "{game}");
        }
    }

    #[test]
    fn jump_ahead_equals_a_brute_force_table_below_a_million() {
        // n is a P-position iff its option window [low(n), n) holds no P-position, counted
        // with a running prefix sum of P-positions.
        for bound in [Bound::Sqrt, Bound::Half, Bound::Upto(5)] {
            let ig = IntervalGame {
                bound,
                leave1: false,
            };
            let max = 1_000_000usize;
            let mut prefix = vec![0u32; max + 2]; // prefix[i] = number of P-positions < i
            let mut table = vec![];
            for n in 0..=max {
                let lo = ig.low(n as u64) as usize;
                let is_p = prefix[n] - prefix[lo] == 0;
                if is_p {
                    table.push(n as u64);
                }
                prefix[n + 1] = prefix[n] + u32::from(is_p);
            }
            let mut jumped = vec![0u64];
            while let Some(q) = ig.next_p(*jumped.last().unwrap()) {
                if q > max as u64 {
                    break;
                }
                jumped.push(q);
            }
            assert_eq!(jumped, table, "{bound:?}");
        }
    }

    #[test]
    fn closed_forms_equal_the_jump_ahead() {
        for (ig, game) in games() {
            let mut ps = vec![0u64];
            while let Some(q) = ig.next_p(*ps.last().unwrap()) {
                if q > 2000 {
                    break;
                }
                ps.push(q);
            }
            for n in 0..=2000u64 {
                let below = ps.partition_point(|&p| p <= n);
                let last = ps[below - 1];
                assert_eq!(ig.outcome(n), (last != n, last), "{game} n = {n}");
                if let Some(c) = ig.count_upto(n) {
                    assert_eq!(c, (below as u64, last), "{game} n = {n}");
                }
            }
        }
        // upto{3} to 10^12 at once: multiples of 4
        let ig = IntervalGame {
            bound: Bound::Upto(3),
            leave1: false,
        };
        assert_eq!(
            ig.count_upto(1_000_000_000_001),
            Some((250_000_000_001, 1_000_000_000_000))
        );
        assert_eq!(ig.outcome(1_000_000_000_003), (true, 1_000_000_000_000));
        let ig = IntervalGame {
            bound: Bound::Upto(u64::MAX),
            leave1: false,
        };
        assert_eq!(ig.outcome(u64::MAX), (true, 0));
    }

    #[test]
    fn sqrt_closed_form_equals_the_jump_ahead_far_out() {
        for leave1 in [false, true] {
            let ig = IntervalGame {
                bound: Bound::Sqrt,
                leave1,
            };
            // every P-position to 10^11 (about 630 000 of them), and the positions beside
            let mut count = 1u64;
            let mut p = 0u64;
            while let Some(q) = ig.next_p(p).filter(|&q| q <= 100_000_000_000) {
                let prev = p;
                p = q;
                count += 1;
                assert_eq!(ig.outcome(p), (false, p), "leave1 {leave1}");
                assert_eq!(ig.outcome(p - 1), (p - 1 != prev, prev), "leave1 {leave1}");
                assert_eq!(ig.count_upto(p), Some((count, p)), "leave1 {leave1}");
                assert_eq!(ig.count_upto(p - 1), Some((count - 1, prev)));
            }
            // near 2^64: the last P-position follows from its predecessor, and has no
            // successor in range
            let (_, last) = ig.outcome(u64::MAX);
            let (_, before) = ig.outcome(last - 1);
            assert_eq!(ig.next_p(before), Some(last));
            assert_eq!(ig.next_p(last), None);
        }
        // 10^18 at once: about 2·10^9 P-positions
        let ig = IntervalGame {
            bound: Bound::Sqrt,
            leave1: false,
        };
        let (c, last) = ig.count_upto(1_000_000_000_000_000_000).unwrap();
        assert!((1_999_000_000..2_000_000_000).contains(&c), "{c}");
        let (_, before) = ig.outcome(last - 1);
        assert_eq!(ig.next_p(before), Some(last));
    }

    #[test]
    fn sliding_window_equals_the_definition() {
        for (ig, game) in games() {
            assert_eq!(
                ig.grundy(1500, &mut Watch::quiet()).unwrap(),
                grundy_by_definition(&game, 1500),
                "{game}"
            );
        }
    }

    #[test]
    fn sqrt_game_reference_values() {
        // ../shared/reference/README.md: P-positions 0,2,5,8,12,17,22,28,34,41,48,56,65,74,84
        let ig = IntervalGame {
            bound: Bound::Sqrt,
            leave1: false,
        };
        let mut ps = vec![0];
        while ps.len() < 15 {
            ps.push(ig.next_p(*ps.last().unwrap()).unwrap());
        }
        assert_eq!(
            ps,
            vec![0, 2, 5, 8, 12, 17, 22, 28, 34, 41, 48, 56, 65, 74, 84]
        );
        assert_eq!(
            &ig.grundy(4, &mut Watch::quiet()).unwrap(),
            &[0, 1, 0, 1, 2]
        );
        assert_eq!(ig.outcome(3), (true, 2));
        assert_eq!(ig.outcome(5), (false, 5));
        assert_eq!(ig.count_upto(100), Some((16, 94)));
        // exact near the top of u64: no float rounding in the jump
        let p = (1u64 << 62) + 12345;
        let q = ig.next_p(p).unwrap();
        assert_eq!(Some(q), ig.next_p_search(p));
        assert!(ig.low(q) > p && ig.low(q - 1) <= p);
    }
}
