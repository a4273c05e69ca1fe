//! Eventual (arithmetic) periodicity of an integer sequence a(0..=N), in O(N).
//!
//! a has preperiod n0, period p and saltus s when a(n + p) = a(n) + s for every
//! n0 <= n <= N - p. That holds exactly when the difference sequence b(n) = a(n+1) - a(n) is
//! periodic with period p from n0 (then s is the sum of b over one period). Periodicity of b
//! from n0 is a long common prefix of the *reversed* b with itself shifted by p, which the
//! Z-function gives for every p at once (Gusfield, "Algorithms on Strings, Trees and
//! Sequences", §1.4): with z\[p\] = lcp(rev b, rev b shifted by p), the smallest preperiod for
//! period p is n0 = N - p - z\[p\].
//!
//! A period is accepted only when the data outlasts twice the preperiod plus twice the period,
//! N + 1 >= 2·n0 + 2p (the rule of the Guy–Smith bound and CGSuite's checker; with a saltus
//! allowed any two values would otherwise pass as "period 1"). In Z terms that is simply
//! z\[p\] >= (N + 1) / 2, so the least such p is the answer.

/// A detected period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    /// Number of leading values before the periodic part (the last exception is n0 - 1).
    pub preperiod: u64,
    /// The period.
    pub period: u64,
    /// a(n + p) - a(n) on the periodic part (0 for ordinary periodicity).
    pub saltus: i64,
    /// N + 1: the number of values examined.
    pub len: u64,
}

impl Period {
    /// Full periods seen after the preperiod: floor((N + 1 - n0) / p).
    pub fn periods_seen(&self) -> u64 {
        (self.len - self.preperiod) / self.period
    }

    /// a(n) for any n >= 0 from the first n0 + p values (`head`), extending by the period
    /// and saltus. None if the value would leave i64 (never with saltus 0), or `head` is
    /// shorter than n0 + p.
    pub fn extend(&self, head: &[i64], n: u64) -> Option<i64> {
        let (n0, p) = (self.preperiod, self.period);
        if n < n0 + p {
            return head.get(n as usize).copied();
        }
        let k = (n - n0) / p;
        let r = n0 + (n - n0) % p;
        let base = *head.get(r as usize)?;
        if self.saltus == 0 {
            return Some(base);
        }
        let k = i64::try_from(k).ok()?;
        base.checked_add(k.checked_mul(self.saltus)?)
    }
}

/// Z-function: z\[i\] = length of the longest common prefix of `s` and `s[i..]` (z\[0\] = len).
pub fn z_function<T: PartialEq>(s: &[T]) -> Vec<usize> {
    let n = s.len();
    let mut z = vec![0usize; n];
    if n == 0 {
        return z;
    }
    z[0] = n;
    let (mut l, mut r) = (0usize, 0usize);
    for i in 1..n {
        let mut k = if i < r { z[i - l].min(r - i) } else { 0 };
        while i + k < n && s[k] == s[i + k] {
            k += 1;
        }
        z[i] = k;
        if i + k > r {
            l = i;
            r = i + k;
        }
    }
    z
}

/// The sequence the periods are read from, reversed, and its Z-function: a itself for
/// plain periodicity, its differences b(n) = a(n+1) - a(n) (wrapping: only equality
/// matters) when a saltus is allowed. With z\[p\] = lcp(rev, rev shifted by p), the smallest
/// preperiod for period p is rev.len() - p - z\[p\] in both cases.
fn reversed_z(a: &[i64], allow_saltus: bool) -> Vec<usize> {
    let rev: Vec<i64> = if allow_saltus {
        a.windows(2)
            .rev()
            .map(|w| w[1].wrapping_sub(w[0]))
            .collect()
    } else {
        a.iter().rev().copied().collect()
    };
    z_function(&rev)
}

/// The smallest period p accepted on the Z-function `z` of [`reversed_z`] (N + 1 >=
/// 2·n0 + 2p), with its preperiod n0.
fn accepted(z: &[usize], len: usize, allow_saltus: bool) -> Option<(usize, usize)> {
    let nb = z.len();
    if allow_saltus {
        // n0 = N - p - z[p]; accept when N + 1 >= 2 n0 + 2 p  <=>  2 z[p] >= N - 1
        let zp = |p: usize| if p < nb { z[p] } else { 0 };
        let p = (1..=nb).find(|&p| 2 * zp(p) + 1 >= nb)?;
        Some((p, nb - p - zp(p)))
    } else {
        let need = len.div_ceil(2);
        let p = (1..nb).find(|&p| z[p] >= need)?;
        Some((p, nb - p - z[p]))
    }
}

/// The least period p of the last `window` values of `a` (saltus 0) with the least
/// preperiod n0 for which all of `a` from n0 repeats with period p, as (n0, p), in memory
/// for `window` `u32`s and no copy of `a` (the take-and-break engine checks tables of 2^31
/// values this way). p is found by the Knuth–Morris–Pratt failure function of the window
/// read backwards, n0 by comparing a(n) with a(n + p) backwards from the end. None when
/// the window is shorter than 2. A candidate, not a proof: the caller applies its theorem
/// (Guy–Smith: n0, p and the values to 2·n0 + 2p + t).
pub(crate) fn tail_period(a: &[u32], window: usize) -> Option<(u64, u64)> {
    let len = a.len();
    let need = window.min(len);
    if need < 2 || len > u32::MAX as usize {
        return None;
    }
    // w[i] = a[len - 1 - i], i < need; fail[i] = longest proper border of w[..=i]
    let w = |i: usize| a[len - 1 - i];
    let mut fail = vec![0u32; need];
    for i in 1..need {
        let mut k = fail[i - 1] as usize;
        while k > 0 && w(i) != w(k) {
            k = fail[k - 1] as usize;
        }
        if w(i) == w(k) {
            k += 1;
        }
        fail[i] = k as u32;
    }
    let p = need - fail[need - 1] as usize;
    drop(fail);
    // how far the reversed sequence agrees with itself shifted by p
    let z = (0..len - p).take_while(|&i| w(i) == w(i + p)).count();
    Some(((len - p - z) as u64, p as u64))
}

/// The period [`find_period`] accepts for `a` (saltus 0) when it is the least period of
/// the last half of `a` (the take-and-break engine's check before [`tail_period`]; kept
/// to test that one against `find_period`).
#[cfg(test)]
fn last_half_period(a: &[u32]) -> Option<(u64, u64)> {
    let len = a.len();
    let need = len.div_ceil(2);
    let (n0, p) = tail_period(a, need)?;
    (len as u64 - n0 - p >= need as u64).then_some((n0, p))
}

/// The [`Period`] p from n0 of `a`, its saltus read off the values.
fn period_at(a: &[i64], n0: usize, p: usize, allow_saltus: bool) -> Period {
    let saltus = if allow_saltus {
        a[n0 + p].wrapping_sub(a[n0])
    } else {
        0
    };
    Period {
        preperiod: n0 as u64,
        period: p as u64,
        saltus,
        len: a.len() as u64,
    }
}

/// The smallest period (then the smallest preperiod for it, with its saltus) of
/// `a(0..=N)`, accepted only when N + 1 >= 2·n0 + 2p. `None` when no period is seen.
/// Set `allow_saltus` to false to accept ordinary periodicity only (saltus 0).
pub fn find_period(a: &[i64], allow_saltus: bool) -> Option<Period> {
    if a.len() < 2 {
        return None;
    }
    let z = reversed_z(a, allow_saltus);
    let (p, n0) = accepted(&z, a.len(), allow_saltus)?;
    Some(period_at(a, n0, p, allow_saltus))
}

/// When no period is accepted: the period that the data come closest to accepting, i.e. the
/// `p` whose smallest preperiod n0 (for the pattern seen at the end of the data) needs the
/// least N to be accepted (N + 1 >= 2·n0 + 2p), among those seen repeated in full at least
/// twice at the end (z\[p\] >= p); ties go to the smaller period. `None` when a period is
/// accepted already ([`find_period`]) or no pattern repeats twice.
pub fn best_candidate(a: &[i64], allow_saltus: bool) -> Option<Period> {
    if a.len() < 3 {
        return None;
    }
    // one Z-function for both questions: is a period accepted, and which comes closest
    let z = reversed_z(a, allow_saltus);
    if accepted(&z, a.len(), allow_saltus).is_some() {
        return None;
    }
    let nb = z.len();
    let n0 = |p: usize| nb - p - z[p];
    let p = (1..nb)
        .filter(|&p| z[p] >= p)
        .min_by_key(|&p| (2 * n0(p) + 2 * p, p))?;
    Some(period_at(a, n0(p), p, allow_saltus))
}

/// Every n < n0 whose value differs from the periodic continuation of `per` backwards
/// (c(n) = c(n + p) - s, with c(m) = a(m) for m >= n0), increasing: the exceptions of the
/// preperiod (n0 - 1, the last exception, is always one). At most `limit` are listed; the
/// second value is how many there are.
pub fn exceptions(a: &[i64], per: &Period, limit: usize) -> (Vec<u64>, u64) {
    let (n0, p) = (per.preperiod as usize, per.period as usize);
    if n0 == 0 || a.len() < n0 + p {
        return (vec![], 0);
    }
    let mut c = a[..n0 + p].to_vec();
    let mut found = vec![];
    for n in (0..n0).rev() {
        c[n] = c[n + p].wrapping_sub(per.saltus);
        if c[n] != a[n] {
            found.push(n as u64);
        }
    }
    let count = found.len() as u64;
    found.reverse();
    found.truncate(limit);
    (found, count)
}

/// The n in 0..=max with `is_p(n)`, and the largest, where `is_p` repeats with period `per`
/// from `n0` on (it is called on 0..n0 + per only): O(n0 + per) calls for any max.
///
/// # Errors
/// [`Error::TooLarge`] when the count passes 2^64 - 1 (every n of 0..=2^64 - 1).
pub(crate) fn periodic_count(
    n0: u64,
    per: u64,
    max: u64,
    is_p: impl Fn(u64) -> bool,
) -> Result<(u64, Option<u64>), crate::error::Error> {
    let per = per.max(1);
    let head = |to: u64| (0..to).filter(|&n| is_p(n)).count() as u128;
    let count: u128 = if max < n0 {
        head(max + 1)
    } else {
        let len = u128::from(max - n0) + 1;
        let full = len / u128::from(per);
        let rem = (len % u128::from(per)) as u64;
        let in_period = (0..per).filter(|&r| is_p(n0 + r)).count() as u128;
        let in_rem = (0..rem).filter(|&r| is_p(n0 + r)).count() as u128;
        head(n0) + full * in_period + in_rem
    };
    let count = u64::try_from(count).map_err(|_| crate::error::Error::TooLarge {
        what: "a count of P-positions",
        n: max,
        limit: u64::MAX - 1,
    })?;
    // the largest: back from max through one period (its residues repeat), then the head
    let at = |n: u64| if n < n0 + per { n } else { n0 + (n - n0) % per };
    let top = (0..per.min(max.saturating_sub(n0).saturating_add(1)))
        .map(|j| max - j)
        .filter(|&n| n >= n0)
        .find(|&n| is_p(at(n)));
    let largest = top.or_else(|| (0..n0.min(max.saturating_add(1))).rev().find(|&n| is_p(n)));
    Ok((count, largest))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        /// The periodic count and largest equal a scan of every n (a pattern repeated from
        /// n0 with period p).
        #[test]
        fn periodic_count_is_a_scan(
            head in proptest::collection::vec(any::<bool>(), 0..12),
            cycle in proptest::collection::vec(any::<bool>(), 1..9),
            max in 0u64..200,
        ) {
            let (n0, per) = (head.len() as u64, cycle.len() as u64);
            let is_p = |n: u64| if n < n0 { head[n as usize] } else { cycle[((n - n0) % per) as usize] };
            let scan: Vec<u64> = (0..=max).filter(|&n| is_p(n)).collect();
            let got = crate::period::periodic_count(n0, per, max, |n| {
                assert!(n < n0 + per, "called past the first period: {n}");
                is_p(n)
            })
            .unwrap();
            prop_assert_eq!(got, (scan.len() as u64, scan.last().copied()));
        }
    }

    #[test]
    fn periodic_counts_reach_every_heap_size() {
        // every n of 0..=2^64 - 1 is one more than a u64 holds
        assert!(matches!(
            crate::period::periodic_count(0, 1, u64::MAX, |_| true),
            Err(crate::error::Error::TooLarge { .. })
        ));
        assert_eq!(
            crate::period::periodic_count(0, 1, u64::MAX - 1, |_| true).unwrap(),
            (u64::MAX, Some(u64::MAX - 1))
        );
        // every third heap from 5 (5, 8, 11, ...): (2^64 - 1 - 5) / 3 + 1 of them
        let (c, l) =
            crate::period::periodic_count(5, 3, u64::MAX, |n| n >= 5 && (n - 5) % 3 == 0).unwrap();
        assert_eq!(
            (c, l),
            ((u64::MAX - 5) / 3 + 1, Some(u64::MAX - (u64::MAX - 5) % 3))
        );
    }

    use super::*;

    proptest::proptest! {
        /// The lean check of the take-and-break engine finds what `find_period` finds
        /// whenever it finds anything, and finds it on eventually periodic sequences.
        #[test]
        fn last_half_period_agrees_with_find_period(
            head in proptest::collection::vec(0u32..4, 0..40),
            cycle in proptest::collection::vec(0u32..3, 1..12),
            reps in 0usize..12,
            noise in proptest::collection::vec(0u32..3, 0..60),
        ) {
            let mut a = head.clone();
            for _ in 0..reps {
                a.extend(&cycle);
            }
            for a in [a.clone(), [a, noise].concat()] {
                let wide: Vec<i64> = a.iter().map(|&x| x as i64).collect();
                let full = find_period(&wide, false).map(|p| (p.preperiod, p.period));
                let lean = last_half_period(&a);
                if lean.is_some() {
                    proptest::prop_assert_eq!(lean, full);
                }
                // with a long periodic tail the least period of the last half is accepted
                if let Some((n0, p)) = full {
                    if p <= (a.len() as u64) / 4 {
                        proptest::prop_assert_eq!(lean, Some((n0, p)));
                    }
                }
            }
        }
    }

    #[test]
    fn last_half_period_of_kayles_tail() {
        // Kayles' period (12) behind 72 values off it: accepted once N + 1 >= 2·72 + 2·12.
        let cycle = [4u32, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7];
        let mut a: Vec<u32> = (0..72).map(|i| 100 + i).collect();
        while a.len() < 168 {
            a.push(cycle[a.len() % 12]);
        }
        assert_eq!(last_half_period(&a), Some((72, 12)));
        a.pop();
        assert_eq!(last_half_period(&a), None);
    }

    fn naive(a: &[i64], allow_saltus: bool) -> Option<Period> {
        let len = a.len() as u64;
        for p in 1..len {
            // smallest n0 for this p
            let s = if allow_saltus {
                a[a.len() - 1] - a[a.len() - 1 - p as usize]
            } else {
                0
            };
            let mut n0 = len - p;
            while n0 > 0 && a[(n0 - 1 + p) as usize] - a[(n0 - 1) as usize] == s {
                n0 -= 1;
            }
            if len >= 2 * n0 + 2 * p {
                return Some(Period {
                    preperiod: n0,
                    period: p,
                    saltus: s,
                    len,
                });
            }
        }
        None
    }

    #[test]
    fn planted_periods_are_recovered() {
        // Kayles-like: irregular head, then period 12.
        let mut a: Vec<i64> = (0..71).map(|i| (i * 7919 % 13) as i64).collect();
        let period = [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7];
        for i in 0..500 {
            a.push(period[i % 12]);
        }
        let got = find_period(&a, true).unwrap();
        assert_eq!((got.period, got.saltus), (12, 0));
        assert_eq!(got, naive(&a, true).unwrap());
        // arithmetic periodicity: period 4, saltus 2
        let a: Vec<i64> = (0..400)
            .map(|n| 2 * (n / 4) + [0, 1, 0, 1][(n % 4) as usize])
            .collect();
        let got = find_period(&a, true).unwrap();
        assert_eq!((got.preperiod, got.period, got.saltus), (0, 4, 2));
        assert!(find_period(&a, false).is_none());
        // a(n) = n: period 1, saltus 1
        let a: Vec<i64> = (0..50).collect();
        assert_eq!(find_period(&a, true).unwrap().period, 1);
    }

    #[test]
    fn agrees_with_the_quadratic_search() {
        let mut rnd = crate::num::xorshift(12345);
        for _ in 0..400 {
            let n0 = (rnd() % 20) as usize;
            let p = 1 + (rnd() % 9) as usize;
            let s = (rnd() % 3) as i64;
            let len = (rnd() % 80) as usize + 2;
            let head: Vec<i64> = (0..n0 + p).map(|_| (rnd() % 4) as i64).collect();
            let a: Vec<i64> = (0..len)
                .map(|n| {
                    if n < n0 + p {
                        head[n]
                    } else {
                        head[n0 + (n - n0) % p] + s * ((n - n0) / p) as i64
                    }
                })
                .collect();
            for allow in [true, false] {
                assert_eq!(find_period(&a, allow), naive(&a, allow), "{a:?} {allow}");
            }
        }
    }

    #[test]
    fn random_sequences_have_no_period() {
        let mut rnd = crate::num::xorshift(987654321);
        for len in [100usize, 1000, 10_000] {
            for _ in 0..20 {
                let a: Vec<i64> = (0..len).map(|_| (rnd() % 1_000_000) as i64).collect();
                assert_eq!(find_period(&a, true), None);
                assert_eq!(find_period(&a, false), None);
            }
        }
    }

    #[test]
    fn kayles_exceptions_and_candidates() {
        // Kayles 0.77, g(0..=83) (Winning Ways ch. 4; OEIS A002186): the 14 exceptions
        let g: Vec<i64> = vec![
            0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5,
            4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4,
            2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7,
        ];
        let mut a = g.clone();
        while a.len() < 400 {
            a.push(a[a.len() - 12]);
        }
        let per = find_period(&a, true).unwrap();
        assert_eq!((per.preperiod, per.period), (71, 12));
        let (ex, count) = exceptions(&a, &per, 100);
        assert_eq!(ex, [0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70]);
        assert_eq!(count, 14);
        assert_eq!(exceptions(&a, &per, 3), (vec![0, 3, 6], 14));
        // too short to accept period 12 from 71: the candidate names it and what it needs
        let short = &a[..150];
        assert!(find_period(short, true).is_none());
        let c = best_candidate(short, true).unwrap();
        assert_eq!((c.preperiod, c.period, c.saltus), (71, 12, 0));
        assert!(best_candidate(&a, true).is_none());
        let mut rnd = crate::num::xorshift(7);
        let noise: Vec<i64> = (0..1000).map(|_| (rnd() % 1_000_000) as i64).collect();
        assert!(best_candidate(&noise, true).is_none());
    }

    #[test]
    fn extension_follows_the_period() {
        let a: Vec<i64> = (0..100).map(|n| 3 * (n / 5) + (n % 5) * (n % 5)).collect();
        let per = find_period(&a, true).unwrap();
        assert_eq!((per.period, per.saltus), (5, 3));
        for n in 0..1000u64 {
            let expect = 3 * (n as i64 / 5) + ((n % 5) * (n % 5)) as i64;
            assert_eq!(per.extend(&a, n), Some(expect));
        }
        // saltus 0: every n, however far
        let b: Vec<i64> = (0..100).map(|n| n % 3).collect();
        let per = find_period(&b, true).unwrap();
        assert_eq!(per.extend(&b, u64::MAX), Some((u64::MAX % 3) as i64));
    }
}
