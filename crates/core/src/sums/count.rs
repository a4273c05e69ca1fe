//! Counts of the k-heap positions of one game by outcome ([`count_sums`]), exact.

use crate::budget::{Budget, Task};
use crate::error::Error;
use crate::game::Game;
use crate::game::Play;
use crate::known::{known_values, table_values, Values};
use crate::observe::Observer;
use crate::plan::plan;
use crate::plan::stream::run_plan;
use crate::table::PCount;
use num_bigint::{BigInt, BigUint};
use serde::Serialize;

/// Counts of the k-heap positions of one game (serialised as decimal strings: they pass
/// 2^64).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SumCount {
    /// Positions counted: ordered k-tuples, or multisets with `sorted`.
    #[serde(serialize_with = "decimal")]
    pub total: BigUint,
    /// Those with XOR 0 (P-positions).
    #[serde(serialize_with = "decimal")]
    pub p_positions: BigUint,
    /// The others (N-positions).
    #[serde(serialize_with = "decimal")]
    pub n_positions: BigUint,
    /// How the Grundy values were found.
    pub method: String,
    /// The largest Grundy value among the heap sizes; `None` when no value was needed
    /// (no heap sizes, or one heap counted from its P-positions).
    pub max_grundy: Option<u64>,
}

/// A big count as its decimal digits.
fn decimal<S: serde::Serializer>(x: &BigUint, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&x.to_string())
}

/// The most distinct Grundy values a count handles (its transform has one entry each).
const MAX_VALUES: u64 = 1 << 22;

/// The positions of `heaps` heaps of `game`, each heap of size in `min..=max`, as ordered
/// tuples or (with `sorted`) as multisets a <= b <= …, counted by outcome: the P-positions
/// are those whose Grundy values XOR to 0.
///
/// Method: the histogram H of g(n) over the range — arithmetic for closed forms and proven
/// periods (so N = 10^18 answers at once), else from a table — and its Walsh–Hadamard
/// transform Ĥ (M = the values rounded up to a power of two): ordered tuples with XOR 0
/// number (1/M) Σ_w Ĥ(w)^k; multisets, by the cycle index of the symmetric group
/// (Burnside–Pólya: a cycle of odd length j contributes the heap's value once, of even
/// length not at all), (1/(M·k!)) Σ_λ (k!/z_λ) T^{e(λ)} Σ_w Ĥ(w)^{o(λ)}, over the
/// partitions λ of k with o(λ) odd and e(λ) even parts, T = max - min + 1 (grouped by
/// (o, e), so k = 64 costs milliseconds). Exact (arbitrary precision).
///
/// `min > max` counts nothing (every count 0). Misère play is counted for one heap only: by
/// the outcome period of a finite subtraction set ([`crate::count_p_positions`]) or a
/// proved period of its misère quotient ([`count_by_period`]), else from its P-positions'
/// stream (sums of several misère heaps do not follow the XOR of values).
///
/// # Errors
/// A refusal when the values are only known from a table the budget does not allow;
/// [`Error::TooLarge`] when there are more than 2^22 distinct values; cancellation by
/// `obs`. All 2^64 heap sizes (min 0, max 2^64 − 1) are counted like any other range.
pub fn count_sums(
    game: &Game,
    heaps: u32,
    min: u64,
    max: u64,
    sorted: bool,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<SumCount, Error> {
    let game = &*game.normalized();
    if game.play() == Play::Misere && heaps > 1 {
        return Err(Error::Unsupported {
            what: format!(
                "counting sums of {game}: misère sums do not follow the XOR of values \
                 (they need the misère quotient)"
            ),
        });
    }
    if min > max {
        // no heap sizes: no positions
        return Ok(SumCount {
            total: BigUint::from(0u32),
            p_positions: BigUint::from(0u32),
            n_positions: BigUint::from(0u32),
            method: "no heap sizes (min > max)".into(),
            max_grundy: None,
        });
    }
    if game.play() == Play::Misere {
        // one heap: a finite set's outcome period, a proved period of its misère
        // quotient, else its P-positions' stream
        let periodic = |n: u64| match crate::plan::count::count_p_positions(game, n) {
            Some(c) => Ok(Some(c)),
            None => count_by_period(game, n, budget, obs),
        };
        let by_period = match periodic(max)? {
            Some(hi) if min == 0 => Some((hi.count, hi.method)),
            Some(hi) => periodic(min - 1)?.map(|lo| (hi.count - lo.count, hi.method)),
            None => None,
        };
        let Some((p, method)) = by_period else {
            return count_p_positions(game, min, max, budget, obs);
        };
        let total = BigUint::from(max - min) + 1u32;
        let p = BigUint::from(p);
        return Ok(SumCount {
            n_positions: &total - &p,
            total,
            p_positions: p,
            method,
            max_grundy: None,
        });
    }
    let values = match known_values(game, max, budget, obs)? {
        Some(v) => v,
        // one heap: its P-positions by the fastest stream (a sieve needs no Grundy table)
        None if heaps == 1 => return count_p_positions(game, min, max, budget, obs),
        None => table_values(game, max, budget, obs)?,
    };
    let hist = histogram(&values, min, max)?;
    let m = hist.len();
    let max_grundy = hist.iter().rposition(|&c| c > 0).map(|g| g as u64);
    let t = BigUint::from(max - min) + 1u32;
    // Ĥ(w), exact in i128: |Ĥ(w)| <= T <= 2^64
    let mut h: Vec<i128> = hist.iter().map(|&c| c as i128).collect();
    walsh_hadamard(&mut h);
    // S_j = Σ_w Ĥ(w)^j for j = 0..=k
    let k = heaps as usize;
    // (ordered tuples need S_k alone)
    let mut s = vec![BigInt::from(0); k + 1];
    for &x in &h {
        let x = BigInt::from(x);
        if sorted {
            let mut p = BigInt::from(1);
            for sj in s.iter_mut() {
                *sj += &p;
                p *= &x;
            }
        } else {
            s[k] += x.pow(heaps);
        }
    }
    let mm = BigInt::from(m as u64);
    let (total, p) = if !sorted {
        (t.pow(heaps), &s[k] / &mm)
    } else {
        // k! Σ over cycle types: the number of permutations of each type times the fixed
        // positions' count
        let mut acc = BigInt::from(0);
        let t_int = BigInt::from(t.clone());
        for (odd, row) in cycle_parities(k).iter().enumerate() {
            for (even, perms) in row.iter().enumerate() {
                if perms.sign() != num_bigint::Sign::NoSign {
                    acc += perms * t_int.pow(even as u32) * &s[odd];
                }
            }
        }
        let fact: BigInt = (1..=k as u64).map(BigInt::from).product();
        (multisets(&t, heaps), acc / (mm * fact))
    };
    let p = p.to_biguint().expect("a count is not negative");
    Ok(SumCount {
        n_positions: &total - &p,
        total,
        p_positions: p,
        method: values.method(),
        max_grundy,
    })
}

/// The P-positions of one heap of `game` in 0..=max and the largest, counted at once for
/// any max from a period proved for its values:
/// - normal play: Grundy values proven periodic (octal codes by Guy and Smith 1956, finite
///   subtraction sets, from tables of up to 2^22 positions within `budget` and a minute:
///   [`crate::known::proven_grundy`]); P where the value is 0;
/// - misère play of a take-and-break rule: the map Φ of its misère quotient proved periodic
///   ([`crate::misere::quotient::proved_quotient`]; T. E. Plambeck and A. N. Siegel,
///   "Misère quotients for impartial games", JCTA 115 (2008)); heap n is a misère
///   P-position exactly when Φ(n) lies in the P-portion.
///
/// `None` when the game has no such period, or none is proved within those limits (then a
/// table or a stream has to count).
///
/// # Errors
/// [`Error::Cancelled`] when `obs` stops a table.
pub fn count_by_period(
    game: &Game,
    max: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<Option<PCount>, Error> {
    let game = &*game.normalized();
    if game.play() == Play::Misere {
        let Ok(br) = crate::misere::quotient::quotient_rule(game) else {
            return Ok(None);
        };
        let Some(q) = crate::misere::quotient::proved_quotient(&br) else {
            return Ok(None);
        };
        let Some(per) = q.period().filter(|p| p.proved) else {
            return Ok(None);
        };
        let is_p = |n: u64| q.heap_element(n).is_some_and(|e| q.is_p(e));
        let (count, largest) = crate::period::periodic_count(per.preperiod, per.period, max, is_p)?;
        return Ok(Some(PCount {
            count,
            largest,
            method: format!(
                "misère quotient of order {} (Φ periodic from heap {} with period {}, proved)",
                q.order(),
                per.preperiod,
                per.period
            ),
        }));
    }
    let Some(p) = crate::known::proven_grundy(game, budget, obs)? else {
        return Ok(None);
    };
    let (n0, per) = (p.period.preperiod, p.period.period);
    let (count, largest) = crate::period::periodic_count(n0, per, max, |n| p.at(n) == 0)?;
    Ok(Some(PCount {
        count,
        largest,
        method: format!(
            "Grundy values proven periodic (period {per} from {n0}; {})",
            p.certificate
        ),
    }))
}

/// The P-positions of one heap of `game` in min..=max, counted from the fastest
/// P-position stream ([`crate::open_stream`]) after [`plan`] has accepted it within `budget`.
fn count_p_positions(
    game: &Game,
    min: u64,
    max: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<SumCount, Error> {
    let plan = plan(game, Task::PPositions, max, budget)?;
    obs.planned(&plan);
    let mut p = 0u64;
    run_plan(&plan, obs, |segment| {
        p += segment.iter().filter(|&&x| x >= min).count() as u64;
    })?;
    let total = BigUint::from(max - min) + 1u32;
    let p = BigUint::from(p);
    Ok(SumCount {
        n_positions: &total - &p,
        total,
        p_positions: p,
        method: format!("P-positions by {}", plan.engine.name()),
        max_grundy: None,
    })
}

/// C(t + k - 1, k): multisets of size k from t items.
fn multisets(t: &BigUint, k: u32) -> BigUint {
    let mut num = BigUint::from(1u32);
    let mut den = BigUint::from(1u32);
    for i in 0..k {
        num *= t + BigUint::from(i);
        den *= BigUint::from(i + 1);
    }
    num / den
}

/// The cycle index of the symmetric group S_k with every odd cycle marked x and every even
/// cycle y, times k!: `w[o][e]` is the number of permutations of k items with o cycles of
/// odd length and e of even length. From the recurrence k·Z_k = Σ_j a_j Z_{k-j} (the
/// cycle through item k has length j; Stanley, *Enumerative Combinatorics* II, 5.1), as
/// W_m = Σ_{j=1}^{m} (m-1)!/(m-j)! · a_j · W_{m-j} with W_m = m!·Z_m: O(k^4) big-integer
/// steps, never the partitions of k one by one.
pub(crate) fn cycle_parities(k: usize) -> Vec<Vec<BigInt>> {
    let zero = || vec![vec![BigInt::from(0); k / 2 + 1]; k + 1];
    let mut w: Vec<Vec<Vec<BigInt>>> = Vec::with_capacity(k + 1);
    let mut w0 = zero();
    w0[0][0] = BigInt::from(1);
    w.push(w0);
    for m in 1..=k {
        let mut wm = zero();
        let mut fall = BigInt::from(1); // (m-1)!/(m-j)!
        for j in 1..=m {
            if j > 1 {
                fall *= (m - j + 1) as u64;
            }
            let (dodd, deven) = if j % 2 == 1 { (1, 0) } else { (0, 1) };
            for (o, row) in w[m - j].iter().enumerate() {
                for (e, c) in row.iter().enumerate() {
                    if c.sign() != num_bigint::Sign::NoSign {
                        wm[o + dodd][e + deven] += &fall * c;
                    }
                }
            }
        }
        w.push(wm);
    }
    w.pop().expect("w holds W_0..=W_k")
}

/// In-place Walsh–Hadamard transform (length a power of two): `a[w] = Σ_v a[v]·(-1)^popcount(v & w)`.
fn walsh_hadamard(a: &mut [i128]) {
    let mut len = 1;
    while len < a.len() {
        for block in a.chunks_mut(2 * len) {
            let (lo, hi) = block.split_at_mut(len);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let (u, v) = (*x, *y);
                *x = u + v;
                *y = u - v;
            }
        }
        len *= 2;
    }
}

/// The histogram of g(n) over min..=max (index = value), its length a power of two.
fn histogram(values: &Values, min: u64, max: u64) -> Result<Vec<u128>, Error> {
    // (u128: one value may have all 2^64 heaps of 0..=2^64 − 1)
    let mut h: Vec<u128> = Vec::new();
    let mut add = |v: u64, c: u128| -> Result<(), Error> {
        if v >= MAX_VALUES {
            return Err(Error::TooLarge {
                what: "a count of sums (Grundy values beyond 2^22)",
                n: max,
                limit: MAX_VALUES,
            });
        }
        if h.len() <= v as usize {
            h.resize(v as usize + 1, 0);
        }
        h[v as usize] += c;
        Ok(())
    };
    // the positions below `from` one by one, the rest by a rule
    let direct = |lo: u64, hi: u64, add: &mut dyn FnMut(u64, u128) -> Result<(), Error>| {
        for x in lo..=hi {
            add(values.at(x), 1)?;
        }
        Ok::<(), Error>(())
    };
    match values {
        Values::V2 => {
            if min == 0 {
                add(0, 1)?;
            }
            let lo = min.max(1);
            // n in [lo, max] with v2(n) = v: multiples of 2^v less multiples of 2^(v+1)
            let upto = |x: u64, v: u32| (x >> v) - x.checked_shr(v + 1).unwrap_or(0);
            for v in 0..64u32 {
                let c = upto(max, v) - upto(lo - 1, v);
                if c > 0 {
                    add(u64::from(v), u128::from(c))?;
                }
            }
        }
        Values::Mod { m, shift } => {
            let below = min..(*shift).min(max.saturating_add(1));
            for _ in below {
                add(0, 1)?;
            }
            let lo = min.max(*shift);
            if lo <= max {
                // x - shift over [lo - shift, max - shift], counted by residue
                count_residues(lo - shift, max - shift, *m, &mut add)?;
            }
        }
        Values::Nim { .. } | Values::Half => {
            if max.saturating_sub(min) >= MAX_VALUES {
                return Err(Error::TooLarge {
                    what: "a count of sums of nim or half heaps (values up to n)",
                    n: max,
                    limit: MAX_VALUES,
                });
            }
            direct(min, max, &mut add)?;
        }
        Values::Periodic(p) => {
            let (n0, per) = (p.period.preperiod, p.period.period);
            let head_end = (n0 + per).min(max.saturating_add(1));
            if min < head_end {
                direct(min, head_end - 1, &mut add)?;
            }
            let lo = min.max(n0 + per);
            if lo <= max {
                // positions lo..=max repeat n0..n0 + per: whole periods and a remainder
                let len = max - lo + 1;
                let (whole, rest) = (len / per, len % per);
                let start = (lo - n0) % per;
                for i in 0..per {
                    let r = (start + i) % per;
                    let c = whole + u64::from(i < rest);
                    if c > 0 {
                        add(u64::from(p.at(n0 + r)), u128::from(c))?;
                    }
                }
            }
        }
        Values::Table(_) => direct(min, max, &mut add)?,
    }
    let m = h.len().next_power_of_two().max(1);
    h.resize(m, 0);
    Ok(h)
}

/// Adds, for every residue r mod m, how many x in lo..=hi have x mod m = r (as value r).
fn count_residues(
    lo: u64,
    hi: u64,
    m: u64,
    add: &mut dyn FnMut(u64, u128) -> Result<(), Error>,
) -> Result<(), Error> {
    // (u128: 0..=2^64 - 1 holds 2^64 positions, all of one residue when m = 1)
    let len = u128::from(hi - lo) + 1;
    let (whole, rest) = (len / u128::from(m), (len % u128::from(m)) as u64);
    if m > MAX_VALUES {
        // more residues than values: count the few x there are (whole = 0)
        for x in lo..=hi {
            add(x % m, 1)?;
        }
        return Ok(());
    }
    for i in 0..m {
        let c = whole + u128::from(i < rest);
        if c > 0 {
            add((lo + i) % m, c)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observe::Silent;

    /// Counts by a proved period equal the P-positions' stream on 0..=3000 (Kayles, misère
    /// Kayles — whose single-heap misère P-positions are 1, 4, 9, 12 and 20 — 0.75's
    /// and 0.512's misère play, whose quotients are R8), and answer for every heap size.
    #[test]
    fn counts_by_proved_periods_equal_the_streams() {
        let b = Budget::new(1 << 30);
        for spec in [
            "0.77",
            "misere(0.77)",
            "misere(0.75)",
            "0.137",
            "misere(0.512)",
        ] {
            let g = Game::parse(spec).unwrap();
            let c = count_by_period(&g, 3000, &b, &Silent).unwrap();
            let c = c.unwrap_or_else(|| panic!("{spec}: no proved period"));
            let plan = crate::plan::plan(&g, Task::PPositions, 3000, &b).unwrap();
            let mut ps: Vec<u64> = vec![];
            run_plan(&plan, &Silent, |seg| ps.extend_from_slice(seg)).unwrap();
            assert_eq!(
                (c.count, c.largest),
                (ps.len() as u64, ps.last().copied()),
                "{spec}"
            );
        }
        let g = Game::parse("misere(0.77)").unwrap();
        let c = count_by_period(&g, u64::MAX, &b, &Silent).unwrap().unwrap();
        assert_eq!((c.count, c.largest), (5, Some(20)));
        assert!(c.method.contains("order 40"), "{}", c.method);
        // and through count_sums, for one misère heap in min..=max
        let s = count_sums(&g, 1, 4, 1 << 60, false, &b, &Silent).unwrap();
        // 4, 9, 12 and 20
        assert_eq!(s.p_positions, BigUint::from(4u32));
        // no period: None (a subtraction game's misère play has no quotient here)
        let sq = Game::parse("misere(squares)").unwrap();
        assert!(count_by_period(&sq, 1000, &b, &Silent).unwrap().is_none());
        // a finite set's misère outcomes are periodic: one heap of misère sub{1,2,3} is lost
        // at n ≡ 1 mod 4 (the count was refused, as the stream to 10^18 would take years)
        let f = Game::parse("misere(sub{1,2,3})").unwrap();
        let s = count_sums(&f, 1, 0, 1_000_000_000_000_000_000, false, &b, &Silent).unwrap();
        assert_eq!(s.p_positions, BigUint::from(250_000_000_000_000_000u64));
        let s = count_sums(&f, 1, 6, 1_000_000_000_000_000_000, false, &b, &Silent).unwrap();
        assert_eq!(s.p_positions, BigUint::from(249_999_999_999_999_998u64));
    }
}
