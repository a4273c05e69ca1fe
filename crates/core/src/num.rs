//! Exact integer helpers: roots, primality, valuations, and the count syntax used on the
//! command line (`1000000`, `1e6`, `10^6`, `1_000_000`).
//!
//! Everything here is exact on 64 bits: no floating-point result is trusted without an
//! integer correction step.

use thiserror::Error;

/// The largest n in `lo..hi` with `ok(n)`, by bisection, for an `ok` that holds up to some
/// point and fails after it (`ok(lo)` assumed, `ok(hi)` taken as false): the largest size
/// that fits a budget when the cost grows with the size.
pub(crate) fn last_ok(mut lo: u64, mut hi: u64, ok: impl Fn(u64) -> bool) -> u64 {
    while hi > lo + 1 {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// `floor(sqrt(n))`, exact for every `u64` (a float estimate corrected by integer steps).
pub fn isqrt(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let mut r = (n as f64).sqrt() as u64;
    // Correct the float estimate in both directions; at most a couple of steps.
    while r.checked_mul(r).is_none_or(|sq| sq > n) {
        r -= 1;
    }
    while (r + 1).checked_mul(r + 1).is_some_and(|sq| sq <= n) {
        r += 1;
    }
    r
}

/// `ceil(sqrt(n))`, exact for every `u64`.
pub fn isqrt_ceil(n: u64) -> u64 {
    let r = isqrt(n);
    if r * r == n {
        r
    } else {
        r + 1
    }
}

/// `floor(cbrt(n))`, exact for every `u64`.
pub fn icbrt(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let mut r = (n as f64).cbrt() as u64;
    let cube = |x: u64| x.checked_mul(x).and_then(|y| y.checked_mul(x));
    while cube(r).is_none_or(|c| c > n) {
        r -= 1;
    }
    while cube(r + 1).is_some_and(|c| c <= n) {
        r += 1;
    }
    r
}

/// True when `n` is a perfect square (0 and 1 included).
pub fn is_square(n: u64) -> bool {
    let r = isqrt(n);
    r * r == n
}

/// 2-adic valuation: the exponent of 2 in `n`; `v2(0)` is defined as 0 here (callers that
/// care treat 0 separately).
pub fn v2(n: u64) -> u32 {
    if n == 0 {
        0
    } else {
        n.trailing_zeros()
    }
}

fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    ((a as u128 * b as u128) % m as u128) as u64
}

fn pow_mod(mut b: u64, mut e: u64, m: u64) -> u64 {
    let mut r = 1 % m;
    b %= m;
    while e > 0 {
        if e & 1 == 1 {
            r = mul_mod(r, b, m);
        }
        b = mul_mod(b, b, m);
        e >>= 1;
    }
    r
}

/// Deterministic primality test for every `u64` (Miller–Rabin with the first twelve prime
/// bases, which is exact below 3.3e24; see Sorenson and Webster, Math. Comp. 86 (2017)).
pub fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    for &p in &BASES {
        if n.is_multiple_of(p) {
            return n == p;
        }
    }
    let mut d = n - 1;
    let s = d.trailing_zeros();
    d >>= s;
    'witness: for &a in &BASES {
        let mut x = pow_mod(a, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mul_mod(x, x, n);
            if x == n - 1 {
                continue 'witness;
            }
        }
        return false;
    }
    true
}

/// Primes `p <= limit` in increasing order (sieve of Eratosthenes over odd numbers;
/// memory `limit / 16` bytes).
pub fn primes_upto(limit: u64) -> Vec<u64> {
    let mut out = Vec::new();
    if limit < 2 {
        return out;
    }
    out.push(2);
    // index i stands for 2i+1
    let len = (limit as usize).div_ceil(2);
    let mut composite = vec![false; len];
    let mut i = 1usize;
    while (2 * i + 1) * (2 * i + 1) <= limit as usize {
        if !composite[i] {
            let p = 2 * i + 1;
            let mut j = p * p / 2;
            while j < len {
                composite[j] = true;
                j += p;
            }
        }
        i += 1;
    }
    for (i, &c) in composite.iter().enumerate().skip(1) {
        let v = 2 * i as u64 + 1;
        if !c && v <= limit {
            out.push(v);
        }
    }
    out
}

/// Prime factorisation of `n >= 1` by trial division, as `(prime, exponent)` pairs in
/// increasing prime order. Meant for single values (membership tests), not for sieves.
pub fn factorize(mut n: u64) -> Vec<(u64, u32)> {
    let mut out = Vec::new();
    let mut p = 2u64;
    while p.saturating_mul(p) <= n {
        if n.is_multiple_of(p) {
            let mut e = 0;
            while n.is_multiple_of(p) {
                n /= p;
                e += 1;
            }
            out.push((p, e));
        }
        p += if p == 2 { 1 } else { 2 };
    }
    if n > 1 {
        out.push((n, 1));
    }
    out
}

/// Why a count such as `--max` could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CountError {
    /// Empty input.
    #[error("empty number")]
    Empty,
    /// A leading minus sign.
    #[error("`{0}` is negative; expected a non-negative integer")]
    Negative(String),
    /// Does not follow any of the accepted forms.
    #[error("`{0}` is not a number (use forms like 1000000, 1e6, 10^6 or 1_000_000)")]
    Malformed(String),
    /// `1.5e0` and the like.
    #[error("`{0}` is not a whole number")]
    NotInteger(String),
    /// Beyond `u64::MAX`.
    #[error("`{0}` is too large (the limit is 2^64 - 1 = 18446744073709551615)")]
    TooLarge(String),
}

fn parse_plain(digits: &str, whole: &str) -> Result<u64, CountError> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CountError::Malformed(whole.to_string()));
    }
    digits
        .parse::<u64>()
        .map_err(|_| CountError::TooLarge(whole.to_string()))
}

/// Parses a non-negative count written as `1000000`, `1e6`, `1.5e6`, `10^6`, `2^30` or
/// `1_000_000` (underscores between two digits). The value must be a whole number that
/// fits in `u64`.
///
/// # Errors
/// [`CountError`] naming the problem: empty, negative, malformed, not whole, too large.
pub fn parse_count(text: &str) -> Result<u64, CountError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(CountError::Empty);
    }
    // `-5`, `-1e3`, `-.5`: negative numbers; `--` or `-x` are malformed (below).
    if t.strip_prefix('-')
        .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit() || c == '.'))
    {
        return Err(CountError::Negative(t.to_string()));
    }
    // Underscores only between two digits (`1_000`, not `1_000_` or `_1`).
    let b = t.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        if c == b'_' {
            let digit = |j: Option<usize>| j.and_then(|j| b.get(j)).is_some_and(u8::is_ascii_digit);
            if !digit(i.checked_sub(1)) || !digit(Some(i + 1)) {
                return Err(CountError::Malformed(t.to_string()));
            }
        }
    }
    let s: String = t.chars().filter(|&c| c != '_').collect();
    let s = s.strip_prefix('+').unwrap_or(&s);
    if let Some((base, exp)) = s.split_once('^') {
        let b = parse_plain(base, t)?;
        let e = parse_plain(exp, t)?;
        let e = u32::try_from(e).map_err(|_| CountError::TooLarge(t.to_string()))?;
        return b
            .checked_pow(e)
            .ok_or_else(|| CountError::TooLarge(t.to_string()));
    }
    if let Some((mant, exp)) = s.split_once(['e', 'E']) {
        let e = parse_plain(exp.strip_prefix('+').unwrap_or(exp), t)?;
        let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
        if int.is_empty() && frac.is_empty() {
            return Err(CountError::Malformed(t.to_string()));
        }
        if !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return Err(CountError::Malformed(t.to_string()));
        }
        // value = int.frac * 10^e: shift the decimal point, then require a whole number.
        let frac = frac.trim_end_matches('0');
        let e = usize::try_from(e).map_err(|_| CountError::TooLarge(t.to_string()))?;
        if frac.len() > e {
            return Err(CountError::NotInteger(t.to_string()));
        }
        let digits = format!("{int}{frac}");
        let digits = digits.trim_start_matches('0');
        if digits.is_empty() {
            return Ok(0);
        }
        let zeros = e - frac.len();
        if digits.len() + zeros > 20 {
            return Err(CountError::TooLarge(t.to_string()));
        }
        let full = format!("{digits}{}", "0".repeat(zeros));
        return full
            .parse::<u64>()
            .map_err(|_| CountError::TooLarge(t.to_string()));
    }
    if s.contains('.') {
        let (int, frac) = s.split_once('.').unwrap_or((s, ""));
        if frac.bytes().all(|b| b == b'0') && !int.is_empty() {
            return parse_plain(int, t);
        }
        if frac.bytes().all(|b| b.is_ascii_digit()) && int.bytes().all(|b| b.is_ascii_digit()) {
            return Err(CountError::NotInteger(t.to_string()));
        }
        return Err(CountError::Malformed(t.to_string()));
    }
    parse_plain(s, t)
}

/// A xorshift64 generator from `seed` (non-zero): cheap repeatable pseudo-random numbers for
/// the tests of this crate (Marsaglia, "Xorshift RNGs", J. Stat. Softw. 8, 2003).
/// Every divisor of an odd `m` (1 and m included), increasing, by trial division up to
/// √m: about √m / 2 divisions (0.1 s for m near 10^16 here). `obs` sees the progress as
/// (trial divisor, √m) and may cancel.
///
/// # Errors
/// [`crate::Error::Cancelled`] when `obs` stops it.
pub fn divisors_by_trial(
    m: u64,
    obs: &dyn crate::observe::Observer,
) -> Result<Vec<u64>, crate::Error> {
    if m == 0 {
        return Ok(vec![]);
    }
    let root = isqrt(m);
    let (mut low, mut high) = (vec![], vec![]);
    let mut d = 1;
    while d <= root {
        if m.is_multiple_of(d) {
            low.push(d);
            if d != m / d {
                high.push(m / d);
            }
        }
        if d % (1 << 24) == 1 && obs.observe(d, root).is_break() {
            return Err(crate::Error::Cancelled { done: d });
        }
        d += if m.is_multiple_of(2) { 1 } else { 2 };
    }
    low.extend(high.into_iter().rev());
    Ok(low)
}

#[cfg(test)]
pub(crate) fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_ok_finds_the_edge() {
        for edge in [0u64, 1, 2, 17, 999, 1000] {
            assert_eq!(last_ok(0, 1001, |n| n <= edge), edge.min(1000));
        }
        assert_eq!(last_ok(0, u64::MAX, |n| n < 1 << 40), (1 << 40) - 1);
        assert_eq!(last_ok(5, 5, |_| true), 5);
    }

    #[test]
    fn roots_are_exact_at_the_edges() {
        for n in 0..10_000u64 {
            let r = isqrt(n);
            assert!(r * r <= n && (r + 1) * (r + 1) > n, "isqrt({n})");
            let c = icbrt(n);
            assert!(
                c * c * c <= n && (c + 1) * (c + 1) * (c + 1) > n,
                "icbrt({n})"
            );
        }
        assert_eq!(isqrt(u64::MAX), 4_294_967_295);
        let big = 4_294_967_295u64 * 4_294_967_295;
        assert_eq!(isqrt(big), 4_294_967_295);
        assert_eq!(isqrt(big - 1), 4_294_967_294);
        // 10^18 - 1 is where f64 rounding goes wrong.
        assert_eq!(isqrt(999_999_999_999_999_999), 999_999_999);
        assert_eq!(isqrt(1_000_000_000_000_000_000), 1_000_000_000);
        assert_eq!(isqrt_ceil(10), 4);
        assert_eq!(isqrt_ceil(9), 3);
        assert_eq!(icbrt(u64::MAX), 2_642_245);
    }

    #[test]
    fn primality_matches_a_sieve() {
        let ps = primes_upto(100_000);
        assert_eq!(ps.len(), 9592);
        let mut it = ps.iter().peekable();
        for n in 0..=100_000u64 {
            let expect = it.peek() == Some(&&n);
            if expect {
                it.next();
            }
            assert_eq!(is_prime(n), expect, "{n}");
        }
        assert!(is_prime(18_446_744_073_709_551_557)); // largest 64-bit prime
        assert!(!is_prime(3_215_031_751)); // strong pseudoprime to bases 2, 3, 5, 7
    }

    #[test]
    fn factorize_and_v2() {
        assert_eq!(factorize(360), vec![(2, 3), (3, 2), (5, 1)]);
        assert_eq!(factorize(1), vec![]);
        assert_eq!(factorize(97), vec![(97, 1)]);
        assert_eq!(v2(96), 5);
        assert_eq!(v2(7), 0);
    }

    #[test]
    fn counts_in_every_accepted_form() {
        for s in [
            "1000000",
            "1e6",
            "10^6",
            "1_000_000",
            "1E6",
            "1.0e6",
            "+1e6",
            "1e+6",
        ] {
            assert_eq!(parse_count(s), Ok(1_000_000), "{s}");
        }
        assert_eq!(parse_count("2^30"), Ok(1 << 30));
        assert_eq!(parse_count("1.5e3"), Ok(1500));
        assert_eq!(parse_count("0"), Ok(0));
        assert_eq!(parse_count("18446744073709551615"), Ok(u64::MAX));
        assert!(matches!(parse_count("-5"), Err(CountError::Negative(_))));
        assert!(!matches!(
            parse_count("--"),
            Err(CountError::Negative(_)) | Ok(_)
        ));
        assert!(matches!(parse_count("1e40"), Err(CountError::TooLarge(_))));
        assert!(matches!(parse_count("10^20"), Err(CountError::TooLarge(_))));
        assert!(matches!(
            parse_count("18446744073709551616"),
            Err(CountError::TooLarge(_))
        ));
        assert!(matches!(parse_count("1.5"), Err(CountError::NotInteger(_))));
        assert!(matches!(
            parse_count("1.25e1"),
            Err(CountError::NotInteger(_))
        ));
        assert!(matches!(parse_count("abc"), Err(CountError::Malformed(_))));
        assert!(matches!(parse_count("1e"), Err(CountError::Malformed(_))));
        assert!(matches!(parse_count(""), Err(CountError::Empty)));
        for s in ["1_000_", "_1000", "1__000", "1_e6", "1e_6"] {
            assert!(
                matches!(parse_count(s), Err(CountError::Malformed(_))),
                "{s}"
            );
        }
    }
}
