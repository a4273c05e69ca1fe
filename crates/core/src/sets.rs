//! Subtraction sets: the named infinite families, finite sets, all-but (co-finite) sets and
//! their unions, in one normalised representation.

use crate::num::{factorize, icbrt, is_prime, is_square, isqrt, primes_upto};
use serde::{Deserialize, Serialize};

/// A named infinite subtraction set. The order of the variants is the order used in
/// canonical specs (`squares|cubes`, never `cubes|squares`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum NamedSet {
    /// 1, 4, 9, 16, … (OEIS A000290 without 0).
    Squares,
    /// 1, 8, 27, 64, … (A000578 without 0).
    Cubes,
    /// 1, 3, 6, 10, … (A000217 without 0).
    Triangular,
    /// Distinct Fibonacci numbers 1, 2, 3, 5, 8, … (A000045 from F(2)).
    Fibonacci,
    /// 2, 3, 5, 7, … (A000040).
    Primes,
    /// 1, 2, 4, 8, … (A000079).
    Powers2,
    /// 1, 2, 6, 24, … (A000142 from 1!).
    Factorials,
    /// Practical numbers 1, 2, 4, 6, 8, 12, … (A005153): every m < n is a sum of distinct
    /// divisors of n.
    Practical,
}

impl NamedSet {
    /// Every named set, in canonical order.
    pub const ALL: [NamedSet; 8] = [
        NamedSet::Squares,
        NamedSet::Cubes,
        NamedSet::Triangular,
        NamedSet::Fibonacci,
        NamedSet::Primes,
        NamedSet::Powers2,
        NamedSet::Factorials,
        NamedSet::Practical,
    ];

    /// The spec keyword (`squares`, `primes`, …).
    pub fn name(self) -> &'static str {
        match self {
            NamedSet::Squares => "squares",
            NamedSet::Cubes => "cubes",
            NamedSet::Triangular => "triangular",
            NamedSet::Fibonacci => "fibonacci",
            NamedSet::Primes => "primes",
            NamedSet::Powers2 => "powers2",
            NamedSet::Factorials => "factorials",
            NamedSet::Practical => "practical",
        }
    }

    /// Looks a keyword up.
    pub fn from_name(name: &str) -> Option<NamedSet> {
        NamedSet::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Membership of one positive integer `s` (0 is never a move).
    pub fn contains(self, s: u64) -> bool {
        if s == 0 {
            return false;
        }
        match self {
            NamedSet::Squares => is_square(s),
            NamedSet::Cubes => {
                let c = icbrt(s);
                c * c * c == s
            }
            NamedSet::Triangular => s
                .checked_mul(8)
                .and_then(|x| x.checked_add(1))
                .map_or_else(|| tri_index(s).is_some(), is_square),
            NamedSet::Fibonacci => fib_iter().take_while(|&f| f <= s).any(|f| f == s),
            NamedSet::Primes => is_prime(s),
            NamedSet::Powers2 => s.is_power_of_two(),
            NamedSet::Factorials => factorial_iter().take_while(|&f| f <= s).any(|f| f == s),
            NamedSet::Practical => is_practical(s),
        }
    }

    /// Members `<= limit`, increasing. Memory is one `u64` per member (for `primes` and
    /// `practical` about `limit / ln(limit)` members).
    pub fn elements_upto(self, limit: u64) -> Vec<u64> {
        match self {
            NamedSet::Squares => (1..=isqrt(limit)).map(|k| k * k).collect(),
            NamedSet::Cubes => (1..=icbrt(limit)).map(|k| k * k * k).collect(),
            NamedSet::Triangular => (1u64..)
                .map(|k| k * (k + 1) / 2)
                .take_while(|&t| t <= limit)
                .collect(),
            NamedSet::Fibonacci => fib_iter().take_while(|&f| f <= limit).collect(),
            NamedSet::Primes => primes_upto(limit),
            NamedSet::Powers2 => (0..64)
                .map(|i| 1u64 << i)
                .take_while(|&p| p <= limit)
                .collect(),
            NamedSet::Factorials => factorial_iter().take_while(|&f| f <= limit).collect(),
            NamedSet::Practical => practical_upto(limit),
        }
    }

    /// Number of members `<= limit` without listing them when that is cheap (used to plan
    /// memory); `primes` and `practical` are estimated from above.
    pub fn count_upto_estimate(self, limit: u64) -> u64 {
        match self {
            NamedSet::Squares => isqrt(limit),
            NamedSet::Cubes => icbrt(limit),
            NamedSet::Triangular => isqrt(limit.saturating_mul(2)),
            NamedSet::Fibonacci => 93,
            NamedSet::Powers2 => 64,
            NamedSet::Factorials => 21,
            // pi(x) < x / (ln x - 1.1) for x >= 60184 (Dusart 2010); practical numbers
            // number about 1.341 x / ln x (Weingartner 2015): take 1.5 x / ln x.
            NamedSet::Primes => {
                let l = (limit.max(3) as f64).ln();
                ((limit as f64) / (l - 1.1).max(0.5)).ceil() as u64 + 100
            }
            NamedSet::Practical => {
                let l = (limit.max(3) as f64).ln();
                (1.5 * (limit as f64) / l).ceil() as u64 + 100
            }
        }
    }
}

fn tri_index(s: u64) -> Option<u64> {
    // k(k+1)/2 = s for huge s, without overflow: k ≈ sqrt(2s) < 2^33, so the float
    // estimate is within one of the truth and the exact test runs in u128.
    let k = (2.0 * s as f64).sqrt() as u64;
    (k.saturating_sub(2)..k + 3).find(|&k| k as u128 * (k as u128 + 1) / 2 == s as u128)
}

fn fib_iter() -> impl Iterator<Item = u64> {
    // 1, 2, 3, 5, 8, … (distinct values), stopping before overflow.
    let mut a: u64 = 1;
    let mut b: u64 = 2;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let out = a;
        match a.checked_add(b) {
            Some(c) => {
                a = b;
                b = c;
            }
            None => {
                if a == b {
                    done = true;
                } else {
                    a = b;
                }
            }
        }
        Some(out)
    })
}

fn factorial_iter() -> impl Iterator<Item = u64> {
    let mut f: Option<u64> = Some(1);
    let mut k = 1u64;
    std::iter::from_fn(move || {
        let out = f?;
        k += 1;
        f = out.checked_mul(k);
        Some(out)
    })
}

fn sigma_of(factors: &[(u64, u32)]) -> u128 {
    factors
        .iter()
        .map(|&(p, e)| (0..=e).map(|i| (p as u128).pow(i)).sum::<u128>())
        .product()
}

/// Stewart–Sierpiński criterion: n = p1^a1 … pk^ak (p1 < … < pk) is practical iff n = 1, or
/// p1 = 2 and every p_{i+1} <= 1 + sigma(p1^a1 … pi^ai).
fn is_practical(n: u64) -> bool {
    if n == 1 {
        return true;
    }
    if n % 2 == 1 {
        return false;
    }
    let f = factorize(n);
    for i in 1..f.len() {
        if f[i].0 as u128 > 1 + sigma_of(&f[..i]) {
            return false;
        }
    }
    true
}

/// All practical numbers `<= limit`, generated from the Stewart–Sierpiński criterion as a
/// tree: from a practical n with largest prime q and divisor sum σ, append a prime
/// p >= q with p <= σ + 1 (p = q raises q's exponent).
fn practical_upto(limit: u64) -> Vec<u64> {
    if limit == 0 {
        return Vec::new();
    }
    let primes = primes_upto((limit / 2).max(2));
    let mut out = vec![1u64];
    // Each node: n, the index of its largest prime q, sigma of the part of n below q's
    // power, and 1 + q + … + q^e, so sigma(n) = sigma_rest * pp_sum.
    struct Node {
        n: u64,
        pi: usize,
        sigma_rest: u128,
        pp_sum: u128,
    }
    let mut stack = vec![];
    // n = 2^e for e >= 1 (2 is the only allowed first prime).
    {
        let mut n = 2u64;
        let mut pp_sum: u128 = 3;
        let mut q_pow: u128 = 2;
        while n <= limit {
            stack.push(Node {
                n,
                pi: 0,
                sigma_rest: 1,
                pp_sum,
            });
            match n.checked_mul(2) {
                Some(m) => n = m,
                None => break,
            }
            q_pow *= 2;
            pp_sum += q_pow;
        }
    }
    while let Some(node) = stack.pop() {
        out.push(node.n);
        let sigma = node.sigma_rest * node.pp_sum;
        // Append a new larger prime p (index > pi) with p <= sigma + 1, any exponent.
        for &p in &primes[node.pi + 1..] {
            if p as u128 > sigma + 1 {
                break;
            }
            let Some(mut m) = node.n.checked_mul(p) else {
                break;
            };
            if m > limit {
                break;
            }
            let pi = primes.binary_search(&p).unwrap_or(0);
            let mut q_pow = p as u128;
            let mut pp_sum = 1 + p as u128;
            loop {
                stack.push(Node {
                    n: m,
                    pi,
                    sigma_rest: sigma,
                    pp_sum,
                });
                match m.checked_mul(p) {
                    Some(x) if x <= limit => m = x,
                    _ => break,
                }
                q_pow *= p as u128;
                pp_sum += q_pow;
            }
        }
    }
    out.sort_unstable();
    out
}

/// A normalised subtraction set: a union of named sets and a finite set, or a co-finite set
/// ("all-but"). Unions absorb: a finite member of a named set is dropped, and a union with
/// an all-but set is again an all-but set.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MoveSet {
    /// `named ∪ finite`, with `named` sorted and deduplicated and `finite` sorted,
    /// deduplicated, positive and disjoint from every named set listed.
    Union {
        /// Named infinite sets.
        named: Vec<NamedSet>,
        /// Extra finite members.
        finite: Vec<u64>,
    },
    /// Every positive integer except `excluded` (sorted, deduplicated, positive). With
    /// nothing excluded this is one-heap Nim (`nim`).
    AllBut {
        /// The missing moves.
        excluded: Vec<u64>,
    },
}

impl MoveSet {
    /// A finite set (sorted, deduplicated; zero must already be rejected by the caller).
    pub fn finite(mut v: Vec<u64>) -> MoveSet {
        v.sort_unstable();
        v.dedup();
        MoveSet::Union {
            named: vec![],
            finite: v,
        }
    }

    /// One named set.
    pub fn named(s: NamedSet) -> MoveSet {
        MoveSet::Union {
            named: vec![s],
            finite: vec![],
        }
    }

    /// `allbut{excluded}`.
    pub fn all_but(mut excluded: Vec<u64>) -> MoveSet {
        excluded.sort_unstable();
        excluded.dedup();
        MoveSet::AllBut { excluded }
    }

    /// The union of two sets, normalised.
    pub fn union(self, other: MoveSet) -> MoveSet {
        match (self, other) {
            (MoveSet::AllBut { excluded: a }, MoveSet::AllBut { excluded: b }) => MoveSet::all_but(
                a.into_iter()
                    .filter(|x| b.binary_search(x).is_ok())
                    .collect(),
            ),
            (MoveSet::AllBut { excluded }, other) | (other, MoveSet::AllBut { excluded }) => {
                MoveSet::all_but(
                    excluded
                        .into_iter()
                        .filter(|&x| !other.contains(x))
                        .collect(),
                )
            }
            (
                MoveSet::Union {
                    named: mut n1,
                    finite: mut f1,
                },
                MoveSet::Union {
                    named: n2,
                    finite: f2,
                },
            ) => {
                n1.extend(n2);
                n1.sort_unstable();
                n1.dedup();
                f1.extend(f2);
                f1.sort_unstable();
                f1.dedup();
                f1.retain(|&x| !n1.iter().any(|s| s.contains(x)));
                MoveSet::Union {
                    named: n1,
                    finite: f1,
                }
            }
        }
    }

    /// The same set in normal form: positive moves, sorted and without repeats, no finite
    /// move that a named set already holds (what the constructors and [`MoveSet::union`]
    /// give; a set built by hand may not be).
    pub fn normalized(&self) -> MoveSet {
        let positive = |v: &[u64]| v.iter().copied().filter(|&x| x > 0).collect::<Vec<_>>();
        match self {
            MoveSet::Union { named, finite } => named
                .iter()
                .fold(MoveSet::finite(positive(finite)), |acc, &n| {
                    acc.union(MoveSet::named(n))
                }),
            MoveSet::AllBut { excluded } => MoveSet::all_but(positive(excluded)),
        }
    }

    /// Is `s` a move?
    pub fn contains(&self, s: u64) -> bool {
        match self {
            MoveSet::Union { named, finite } => {
                finite.binary_search(&s).is_ok() || named.iter().any(|n| n.contains(s))
            }
            MoveSet::AllBut { excluded } => s > 0 && excluded.binary_search(&s).is_err(),
        }
    }

    /// The largest move when the set is finite.
    pub fn max_finite(&self) -> Option<u64> {
        match self {
            MoveSet::Union { named, finite } if named.is_empty() => finite.iter().max().copied(),
            MoveSet::Union { .. } | MoveSet::AllBut { .. } => None,
        }
    }

    /// True for a finite set.
    pub fn is_finite(&self) -> bool {
        self.max_finite().is_some()
    }

    /// Moves `<= limit`, increasing. For an all-but set this lists almost every integer up to
    /// `limit`: callers that can, treat all-but sets through [`MoveSet::AllBut`] directly.
    pub fn elements_upto(&self, limit: u64) -> Vec<u64> {
        match self {
            MoveSet::Union { named, finite } => {
                let mut v: Vec<u64> = finite.iter().copied().filter(|&x| x <= limit).collect();
                for n in named {
                    v.extend(n.elements_upto(limit));
                }
                v.sort_unstable();
                v.dedup();
                v
            }
            MoveSet::AllBut { excluded } => (1..=limit)
                .filter(|x| excluded.binary_search(x).is_err())
                .collect(),
        }
    }

    /// Upper estimate of the number of moves `<= limit` (for memory planning).
    pub fn count_upto_estimate(&self, limit: u64) -> u64 {
        match self {
            MoveSet::Union { named, finite } => {
                finite.len() as u64
                    + named
                        .iter()
                        .map(|n| n.count_upto_estimate(limit))
                        .sum::<u64>()
            }
            MoveSet::AllBut { .. } => limit,
        }
    }
}

impl std::fmt::Display for MoveSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |v: &[u64]| {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        match self {
            MoveSet::AllBut { excluded } if excluded.is_empty() => write!(f, "nim"),
            MoveSet::AllBut { excluded } => write!(f, "allbut{{{}}}", list(excluded)),
            MoveSet::Union { named, finite } => {
                let mut parts: Vec<String> = named.iter().map(|n| n.name().to_string()).collect();
                if !finite.is_empty() {
                    parts.push(format!("sub{{{}}}", list(finite)));
                }
                write!(f, "{}", parts.join("|"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_practical(n: u64) -> bool {
        // every m < n is a sum of distinct divisors: subset sums of the divisors
        let divs: Vec<u64> = (1..=n).filter(|d| n.is_multiple_of(*d)).collect();
        let mut reach = vec![false; (n as usize) + 1];
        reach[0] = true;
        for &d in &divs {
            for s in (d as usize..=n as usize).rev() {
                if reach[s - d as usize] {
                    reach[s] = true;
                }
            }
        }
        reach[..n as usize].iter().all(|&r| r)
    }

    #[test]
    fn practical_numbers_match_the_definition_and_a005153() {
        // A005153 begins 1, 2, 4, 6, 8, 12, 16, 18, 20, 24, 28, 30, 32, 36, 40, 42, 48.
        assert_eq!(
            NamedSet::Practical.elements_upto(48),
            vec![1, 2, 4, 6, 8, 12, 16, 18, 20, 24, 28, 30, 32, 36, 40, 42, 48]
        );
        let listed = NamedSet::Practical.elements_upto(600);
        for n in 1..=600u64 {
            let b = brute_practical(n);
            assert_eq!(NamedSet::Practical.contains(n), b, "{n}");
            assert_eq!(listed.binary_search(&n).is_ok(), b, "{n}");
        }
    }

    #[test]
    fn named_sets_list_what_they_contain() {
        for s in NamedSet::ALL {
            let listed = s.elements_upto(5000);
            for n in 0..=5000u64 {
                assert_eq!(s.contains(n), listed.binary_search(&n).is_ok(), "{s:?} {n}");
            }
            assert!(s.count_upto_estimate(5000) >= listed.len() as u64, "{s:?}");
        }
        assert_eq!(
            NamedSet::Fibonacci.elements_upto(21),
            vec![1, 2, 3, 5, 8, 13, 21]
        );
        assert_eq!(
            NamedSet::Factorials.elements_upto(720),
            vec![1, 2, 6, 24, 120, 720]
        );
        let k = 6_000_000_000u64; // k(k+1)/2 is above 2^63: the overflow-free path
        let t = k / 2 * (k + 1);
        assert!(NamedSet::Triangular.contains(t));
        assert!(!NamedSet::Triangular.contains(t + 1));
        assert!(NamedSet::Fibonacci.contains(12_200_160_415_121_876_738));
    }

    #[test]
    fn unions_normalise() {
        let u = MoveSet::named(NamedSet::Primes).union(MoveSet::finite(vec![1, 2, 9]));
        assert_eq!(u.to_string(), "primes|sub{1,9}");
        let u = MoveSet::named(NamedSet::Cubes).union(MoveSet::named(NamedSet::Squares));
        assert_eq!(u.to_string(), "squares|cubes");
        let u = MoveSet::all_but(vec![2, 3, 7]).union(MoveSet::finite(vec![3]));
        assert_eq!(u.to_string(), "allbut{2,7}");
        let u = MoveSet::all_but(vec![4]).union(MoveSet::named(NamedSet::Squares));
        assert_eq!(u.to_string(), "nim");
    }
}
