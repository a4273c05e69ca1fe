//! Interval games (`sqrt`, `upto{k}`, `half`, and `leave1( )` of them): remove 1..=f(n)
//! tokens. Their moves are an interval ([`crate::moves::interval`]: jump-ahead, closed
//! forms of the P-positions of `sqrt` and `upto{k}`); here, the closed forms of their
//! Grundy values: g(n) = n mod (k + 1) for `upto{k}` (shifted by one under `leave1`), and
//! for `half` g(2m) = m, g(2m + 1) = g(m) (OEIS A025480; L. Levine, "Fractal sequences and
//! restricted Nim", Ars Combinatoria 80 (2006)).

/// g(x) of `half`: g(2m) = m, g(2m + 1) = g(m).
pub fn half_value(x: u64) -> u64 {
    x.checked_shr(x.trailing_ones() + 1).unwrap_or(0)
}

/// A heap m in lo..=hi with g(m) = t in `half` (g(2m) = m, g(2m + 1) = g(m)): 2t when it
/// is in range, else an odd 2m' + 1 with g(m') = t, m' in the halved range; `None` when
/// the range holds no such heap (never for the options of a heap of larger value).
pub fn half_option(lo: u64, hi: u64, t: u64) -> Option<u64> {
    if lo > hi {
        return None;
    }
    if let Some(e) = t.checked_mul(2).filter(|e| (lo..=hi).contains(e)) {
        return Some(e);
    }
    // odd heaps 2m' + 1 in lo..=hi: m' from ceil((lo - 1)/2) to floor((hi - 1)/2)
    let hi2 = hi.checked_sub(1)? / 2;
    let lo2 = lo.saturating_sub(1).div_ceil(2);
    half_option(lo2, hi2, t).map(|m| 2 * m + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_values_and_options() {
        // A025480: 0, 0, 1, 0, 2, 1, 3, 0, 4, 2, 5, 1, 6, 3, 7, 0
        let v: Vec<u64> = (0..16).map(half_value).collect();
        assert_eq!(v, [0, 0, 1, 0, 2, 1, 3, 0, 4, 2, 5, 1, 6, 3, 7, 0]);
        for lo in 0..40u64 {
            for hi in lo..60 {
                for t in 0..20 {
                    let want = (lo..=hi).any(|m| half_value(m) == t);
                    let got = half_option(lo, hi, t);
                    assert_eq!(got.is_some(), want, "{lo} {hi} {t}");
                    if let Some(m) = got {
                        assert!((lo..=hi).contains(&m) && half_value(m) == t);
                    }
                }
            }
        }
    }
}
