//! P-positions (count, density, gaps, residues, growth) and Grundy values (first
//! occurrences, frequencies, runs): plain structs for summaries and polars DataFrames for
//! the tables.

#[cfg(feature = "polars")]
use polars::prelude::*;
use serde::{Deserialize, Serialize};

/// Summary of the P-positions of 0..=N.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PSummary {
    /// Number of P-positions in 0..=N.
    pub count: u64,
    /// count / (N + 1).
    pub density: f64,
    /// The largest P-position.
    pub largest: Option<u64>,
    /// Growth exponent α of the fit count(<= n) ≈ c·n^α (None with too few points).
    pub alpha: Option<f64>,
    /// Constant c of that fit.
    pub c: Option<f64>,
    /// The largest gap between consecutive P-positions.
    pub max_gap: Option<u64>,
    /// The P-position that ends the largest gap (the first such).
    pub max_gap_at: Option<u64>,
}

/// Summary of the P-positions `ps` (increasing) of 0..=max.
pub fn p_summary(ps: &[u64], max: u64) -> PSummary {
    let fit = growth_fit(ps, max);
    let mut max_gap: Option<(u64, u64)> = None;
    for w in ps.windows(2) {
        let g = w[1] - w[0];
        if max_gap.is_none_or(|(m, _)| g > m) {
            max_gap = Some((g, w[1]));
        }
    }
    PSummary {
        count: ps.len() as u64,
        density: ps.len() as f64 / (max as f64 + 1.0),
        largest: ps.last().copied(),
        alpha: fit.map(|f| f.1),
        c: fit.map(|f| f.0),
        max_gap: max_gap.map(|m| m.0),
        max_gap_at: max_gap.map(|m| m.1),
    }
}

/// Whether the P-positions, the largest of them being `largest`, stop well before N: none
/// in the last seven eighths of 0..=N (three doublings with no new P-position), where a
/// power law is no description.
pub fn stops_early(largest: Option<u64>, max: u64) -> bool {
    largest.is_some_and(|p| p < max / 8)
}

/// Least-squares fit of ln count(<= n) = ln c + α ln n over 200 log-spaced n from 100 (or
/// the 10th P-position, whichever is larger) to N: `(c, α)`. None when the range is too
/// short (fewer than 10 P-positions, or N below 1000) or the P-positions stop early
/// ([`stops_early`]).
pub fn growth_fit(ps: &[u64], max: u64) -> Option<(f64, f64)> {
    if ps.len() < 10 || max < 1000 || stops_early(ps.last().copied(), max) {
        return None;
    }
    let lo = (ps[9].max(100)) as f64;
    let hi = max as f64;
    if hi <= lo * 2.0 {
        return None;
    }
    let k = 200;
    let (mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0);
    for j in 0..k {
        let n = (lo.ln() + (hi.ln() - lo.ln()) * j as f64 / (k - 1) as f64).exp();
        let n = n.floor() as u64;
        let count = ps.partition_point(|&p| p <= n) as f64;
        let (x, y) = ((n as f64).ln(), count.ln());
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    let kf = k as f64;
    let alpha = (kf * sxy - sx * sy) / (kf * sxx - sx * sx);
    let c = ((sy - alpha * sx) / kf).exp();
    Some((c, alpha))
}

#[cfg(feature = "polars")]
/// Gap records: the P-positions whose gap to the previous one exceeds every earlier gap.
/// Columns `k` (index), `p`, `gap`.
pub fn gap_records(ps: &[u64]) -> PolarsResult<DataFrame> {
    let (mut k, mut p, mut gap) = (vec![], vec![], vec![]);
    let mut best = 0u64;
    for (i, w) in ps.windows(2).enumerate() {
        let g = w[1] - w[0];
        if g > best {
            best = g;
            k.push(i as u64 + 1);
            p.push(w[1]);
            gap.push(g);
        }
    }
    df!("k" => k, "p" => p, "gap" => gap)
}

#[cfg(feature = "polars")]
/// How often each gap occurs. Columns `gap`, `count`, increasing gap.
pub fn gap_histogram(ps: &[u64]) -> PolarsResult<DataFrame> {
    let mut h = std::collections::BTreeMap::<u64, u64>::new();
    for w in ps.windows(2) {
        *h.entry(w[1] - w[0]).or_default() += 1;
    }
    df!("gap" => h.keys().copied().collect::<Vec<_>>(), "count" => h.values().copied().collect::<Vec<_>>())
}

#[cfg(feature = "polars")]
/// P-positions by residue mod m for each m in `moduli`. Columns `m`, `residue`, `count`.
pub fn residues(ps: &[u64], moduli: std::ops::RangeInclusive<u64>) -> PolarsResult<DataFrame> {
    let (mut ms, mut rs, mut cs) = (vec![], vec![], vec![]);
    for m in moduli {
        let mut c = vec![0u64; m as usize];
        for &p in ps {
            c[(p % m) as usize] += 1;
        }
        for (r, &n) in c.iter().enumerate() {
            ms.push(m);
            rs.push(r as u64);
            cs.push(n);
        }
    }
    df!("m" => ms, "residue" => rs, "count" => cs)
}

/// Summary of Grundy values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GrundySummary {
    /// The largest value.
    pub max: u32,
    /// For each value v (the index), the first position with g = v (None if it never
    /// occurs below the largest value).
    pub first_occurrence: Vec<Option<u64>>,
    /// For each value, how many positions have it.
    pub frequency: Vec<u64>,
}

/// First occurrence and frequency of every value.
pub fn grundy_summary(values: &[u32]) -> GrundySummary {
    let max = values.iter().copied().max().unwrap_or(0);
    let mut first = vec![None; max as usize + 1];
    let mut freq = vec![0u64; max as usize + 1];
    for (n, &v) in values.iter().enumerate() {
        let v = v as usize;
        if first[v].is_none() {
            first[v] = Some(n as u64);
        }
        freq[v] += 1;
    }
    GrundySummary {
        max,
        first_occurrence: first,
        frequency: freq,
    }
}

impl GrundySummary {
    #[cfg(feature = "polars")]
    /// Columns `value`, `first`, `frequency`.
    pub fn frame(&self) -> PolarsResult<DataFrame> {
        let values: Vec<u32> = (0..=self.max).collect();
        df!(
            "value" => values,
            "first" => self.first_occurrence.clone(),
            "frequency" => self.frequency.clone()
        )
    }
}

/// A maximal block of equal consecutive values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Run {
    /// First position.
    pub start: u64,
    /// Number of positions.
    pub length: u64,
    /// The value.
    pub value: u32,
}

/// The maximal runs of equal consecutive values, in order.
pub fn run_list(values: &[u32]) -> Vec<Run> {
    let mut all: Vec<Run> = Vec::new();
    let mut i = 0;
    while i < values.len() {
        let mut j = i + 1;
        while j < values.len() && values[j] == values[i] {
            j += 1;
        }
        all.push(Run {
            start: i as u64,
            length: (j - i) as u64,
            value: values[i],
        });
        i = j;
    }
    all
}

/// How many runs of equal consecutive values have each length: (length, count), by
/// increasing length.
pub fn run_length_histogram(values: &[u32]) -> Vec<(u64, u64)> {
    // streamed: no list of every run (24 bytes each) is kept
    let mut h = std::collections::BTreeMap::<u64, u64>::new();
    let mut i = 0;
    while i < values.len() {
        let j = i + values[i..].iter().take_while(|&&v| v == values[i]).count();
        *h.entry((j - i) as u64).or_default() += 1;
        i = j;
    }
    h.into_iter().collect()
}

#[cfg(feature = "polars")]
/// Runs of equal consecutive values: the histogram of run lengths (columns `length`,
/// `count`) and the `top` longest runs (columns `start`, `length`, `value`; longest first,
/// then earliest).
pub fn runs(values: &[u32], top: usize) -> PolarsResult<(DataFrame, DataFrame)> {
    let hist = run_length_histogram(values);
    let mut all = run_list(values);
    all.sort_by(|a, b| b.length.cmp(&a.length).then(a.start.cmp(&b.start)));
    all.truncate(top);
    let hist = df!(
        "length" => hist.iter().map(|h| h.0).collect::<Vec<_>>(),
        "count" => hist.iter().map(|h| h.1).collect::<Vec<_>>()
    )?;
    let longest = df!(
        "start" => all.iter().map(|r| r.start).collect::<Vec<_>>(),
        "length" => all.iter().map(|r| r.length).collect::<Vec<_>>(),
        "value" => all.iter().map(|r| r.value).collect::<Vec<_>>()
    )?;
    Ok((hist, longest))
}

/// Per-bin minimum and maximum of `len` values read by `value(i)`, in `bins` equal bins of
/// consecutive indices: `(first index, last index, min, max)` per non-empty bin. With
/// `len <= bins` every value is its own bin. (A long sequence drawn one pixel column per
/// bin keeps every value visible.)
pub fn min_max_bins(
    len: usize,
    bins: usize,
    value: &dyn Fn(usize) -> f64,
) -> Vec<(usize, usize, f64, f64)> {
    let bins = bins.max(1);
    let mut out = Vec::with_capacity(bins.min(len));
    if len == 0 {
        return out;
    }
    let per = len.div_ceil(bins).max(1);
    let mut lo = 0;
    while lo < len {
        let hi = (lo + per).min(len);
        out.push(min_max(lo, hi, value));
        lo = hi;
    }
    out
}

/// `(lo, hi - 1, min, max)` of the values at lo..hi.
fn min_max(lo: usize, hi: usize, value: &dyn Fn(usize) -> f64) -> (usize, usize, f64, f64) {
    let (mut mn, mut mx) = (f64::INFINITY, f64::NEG_INFINITY);
    for i in lo..hi {
        let v = value(i);
        mn = mn.min(v);
        mx = mx.max(v);
    }
    (lo, hi - 1, mn, mx)
}

/// Min/max bins whose index ranges are equal on a log scale (for a log x axis): at most
/// `bins` of them, one index per bin while the bins are narrower than an index;
/// `(first index, last index, min, max)` per bin.
pub fn log_bins(
    len: usize,
    bins: usize,
    value: &dyn Fn(usize) -> f64,
) -> Vec<(usize, usize, f64, f64)> {
    let mut out = vec![];
    let top = (len.max(1) as f64).ln();
    let mut lo = 0usize;
    for b in 1..=bins {
        if lo >= len {
            break;
        }
        let hi = ((top * b as f64 / bins as f64).exp().floor() as usize).clamp(lo + 1, len);
        out.push(min_max(lo, hi, value));
        lo = hi;
    }
    out
}

/// The greatest common divisor of |a| and |b| (0 when both are 0).
pub(crate) fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_statistics() {
        let ps = [0u64, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39, 44, 52];
        let s = p_summary(&ps, 52);
        assert_eq!(
            (s.count, s.largest, s.max_gap, s.max_gap_at),
            (14, Some(52), Some(12), Some(34))
        );
        let r = gap_records(&ps).unwrap();
        assert_eq!(r.height(), 3); // gaps 2, 3, 12
        let h = gap_histogram(&ps).unwrap();
        assert_eq!(h.column("gap").unwrap().u64().unwrap().get(0), Some(2));
        let res = residues(&ps, 2..=3).unwrap();
        assert_eq!(res.height(), 5);
        // exact power law: count(<= n) = floor(sqrt n) + 1 for squares as P-positions
        let sq: Vec<u64> = (0..=1000u64).map(|k| k * k).collect();
        let (c, a) = growth_fit(&sq, 1_000_000).unwrap();
        assert!((a - 0.5).abs() < 0.01 && (c - 1.0).abs() < 0.1, "{c} {a}");
    }

    #[test]
    fn grundy_statistics() {
        let g = [0u32, 1, 1, 1, 0, 2, 2, 0];
        let s = grundy_summary(&g);
        assert_eq!(s.first_occurrence, vec![Some(0), Some(1), Some(5)]);
        assert_eq!(s.frequency, vec![3, 3, 2]);
        let (hist, longest) = runs(&g, 2).unwrap();
        assert_eq!(hist.height(), 3); // lengths 1, 2, 3
        assert_eq!(
            longest.column("length").unwrap().u64().unwrap().get(0),
            Some(3)
        );
        assert_eq!(
            longest.column("start").unwrap().u64().unwrap().get(0),
            Some(1)
        );
        assert_eq!(run_length_histogram(&g), vec![(1, 3), (2, 1), (3, 1)]);
        let bins = min_max_bins(8, 3, &|i| g[i] as f64);
        assert_eq!(
            bins,
            vec![(0, 2, 0.0, 1.0), (3, 5, 0.0, 2.0), (6, 7, 0.0, 2.0)]
        );
        let lb = log_bins(8, 100, &|i| g[i] as f64);
        assert_eq!(lb.iter().map(|b| b.1 - b.0 + 1).sum::<usize>(), 8);
    }
}
