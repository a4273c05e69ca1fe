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
    /// The growth of count(≤ n) ([`growth_fit`]; None with too few points).
    pub growth: Option<GrowthFit>,
    /// The largest gap between consecutive P-positions.
    pub max_gap: Option<u64>,
    /// The P-position that ends the largest gap (the first such).
    pub max_gap_at: Option<u64>,
}

/// Summary of the P-positions `ps` (increasing) of 0..=max.
pub fn p_summary(ps: &[u64], max: u64) -> PSummary {
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
        growth: growth_fit(ps, max),
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

/// A law of growth for a non-decreasing count y(n) (the P-positions up to n, the largest
/// Grundy value up to n).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Law {
    /// y ≈ c·n^α.
    Power,
    /// y ≈ a + b·ln n: y grows by 1 each time n grows by the factor r = e^(1/b). For the
    /// count of P-positions this is exponential growth of the P-positions themselves: the
    /// k-th P-position (k from 0) ≈ C·r^k with C = e^((1 − a)/b).
    Logarithmic,
}

impl Law {
    /// `power` or `logarithmic`.
    pub fn name(self) -> &'static str {
        match self {
            Law::Power => "power",
            Law::Logarithmic => "logarithmic",
        }
    }
}

/// Both growth laws fitted to one curve, and the one that fits best.
///
/// Each law is fitted by least squares in the coordinates that make it a straight line —
/// (ln n, ln y) for the power law, (ln n, y) for the logarithmic law — on the curve's
/// corners (where it rises, so that the staircase of a count adds no error) at up to 200
/// log-spaced n from `from` to N. Each is then scored by its *error*: the root mean square
/// of ln(fit(n) / y(n)) over the points in the upper half of the range on a log scale
/// (n ≥ √(from·N)) — about the typical relative error where the data are furthest from
/// their start. The law with the smaller error is [`law`](GrowthFit::law) (the power law on
/// a tie).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GrowthFit {
    /// The law with the smaller error.
    pub law: Law,
    /// Power law y ≈ c·n^α: c.
    pub c: f64,
    /// Power law: α.
    pub alpha: f64,
    /// Its error (see above; 0.01 is about 1%).
    pub power_error: f64,
    /// Logarithmic law y ≈ a + b·ln n: a (None when the least-squares slope b is not
    /// positive, or the fit is not positive over the upper half).
    pub a: Option<f64>,
    /// Logarithmic law: b.
    pub b: Option<f64>,
    /// Its error.
    pub log_error: Option<f64>,
    /// The smallest n fitted.
    pub from: u64,
    /// The largest n of the range fitted (N).
    pub to: u64,
    /// How many points were fitted.
    pub points: u64,
}

/// An error below which a growth law is said to fit closely (5%).
pub const CLOSE_FIT: f64 = 0.05;

impl GrowthFit {
    /// The best law's value at n (n > 0).
    pub fn at(&self, n: f64) -> f64 {
        match (self.law, self.a, self.b) {
            (Law::Logarithmic, Some(a), Some(b)) => a + b * n.ln(),
            _ => self.c * n.powf(self.alpha),
        }
    }

    /// The best law's error.
    pub fn error(&self) -> f64 {
        match self.law {
            Law::Logarithmic => self.log_error.unwrap_or(f64::INFINITY),
            Law::Power => self.power_error,
        }
    }

    /// Whether the best law's error is below [`CLOSE_FIT`].
    pub fn close(&self) -> bool {
        self.error() < CLOSE_FIT
    }

    /// The logarithmic law's factor r = e^(1/b): y grows by 1 each time n is multiplied by r.
    pub fn ratio(&self) -> Option<f64> {
        self.b.map(|b| (1.0 / b).exp())
    }

    /// For a count of P-positions under the logarithmic law: (C, r) with the k-th
    /// P-position (k from 0) ≈ C·r^k.
    pub fn exponential(&self) -> Option<(f64, f64)> {
        let (a, b) = (self.a?, self.b?);
        Some((((1.0 - a) / b).exp(), (1.0 / b).exp()))
    }

    /// The best law as a formula in n (`0.9715·n^0.6915`, `0.4174 + 1.4425·ln n`).
    pub fn formula(&self) -> String {
        match (self.law, self.a, self.b) {
            (Law::Logarithmic, Some(a), Some(b)) if a < 0.0 => {
                format!("{b:.4}·ln n − {:.4}", -a)
            }
            (Law::Logarithmic, Some(a), Some(b)) => format!("{a:.4} + {b:.4}·ln n"),
            _ => format!("{:.4}·n^{:.4}", self.c, self.alpha),
        }
    }

    /// How well the best law fits, against the other: `fits within 1.0% (rms over n ≥
    /// 31623; a + b·ln n: 72%)`.
    pub fn quality(&self) -> String {
        let pct = |e: f64| {
            let p = 100.0 * e;
            if p >= 10.0 {
                format!("{p:.0}%")
            } else if p >= 0.1 {
                format!("{p:.1}%")
            } else {
                format!("{p:.3}%")
            }
        };
        let other = match (self.law, self.log_error) {
            (Law::Power, Some(e)) => format!("; a + b·ln n: {}", pct(e)),
            (Law::Power, None) => "; a + b·ln n does not fit".into(),
            (Law::Logarithmic, _) => format!("; c·n^α: {}", pct(self.power_error)),
        };
        let upper = ((self.from.max(1) as f64) * self.to as f64).sqrt();
        format!(
            "{} within {} (rms relative error over n ≥ {:.0}{other}){}",
            if self.close() { "fits" } else { "fits only" },
            pct(self.error()),
            upper.ceil(),
            if self.close() {
                ""
            } else {
                "; neither law describes it closely"
            }
        )
    }
}
/// The growth of the P-position count, count(≤ n), for the P-positions `ps` (increasing)
/// of 0..=max: both laws of [`GrowthFit`] fitted on the P-positions from the 10th (and at
/// least 100) to N, where count(≤ p_k) = k + 1. None when the range is too short (fewer
/// than 10 P-positions, N below 1000, fewer than 8 P-positions in the range or 3 in its
/// upper half) or the P-positions stop early ([`stops_early`]).
pub fn growth_fit(ps: &[u64], max: u64) -> Option<GrowthFit> {
    if ps.len() < 10 || stops_early(ps.last().copied(), max) {
        return None;
    }
    let lo = ps[9].max(100);
    let corners = ps.iter().enumerate().map(|(k, &p)| (p, k as u64 + 1));
    fit_corners(corners, lo, max)
}

/// The growth of the largest value up to n, max{g(m) : m ≤ n}, of `values` (g(0), g(1), …,
/// g(N)): both laws of [`GrowthFit`] fitted on the records (where a new largest value
/// first appears) from the 10th (and n at least 100) to N. None as for [`growth_fit`]: too
/// few records, N below 1000, or no new largest value in the last seven eighths of 0..=N
/// (the values stop growing). Two passes over `values`, no copy of them.
pub fn value_growth(values: &[u32]) -> Option<GrowthFit> {
    let records = || {
        let mut best = 0u32;
        values
            .iter()
            .enumerate()
            .filter(move |&(_, &v)| {
                let record = v > best;
                best = best.max(v);
                record
            })
            .map(|(n, &v)| (n as u64, u64::from(v)))
    };
    let max = values.len().checked_sub(1)? as u64;
    let (mut count, mut tenth, mut last) = (0usize, None, None);
    for r in records() {
        count += 1;
        if count == 10 {
            tenth = Some(r.0);
        }
        last = Some(r.0);
    }
    if count < 10 || stops_early(last, max) {
        return None;
    }
    fit_corners(records(), tenth?.max(100), max)
}

/// The least-squares line y = slope·x + intercept through the points (n, y) taken to the
/// coordinates `xy(n, y)`: (slope, intercept).
fn least_squares(pts: &[(f64, f64)], xy: impl Fn(f64, f64) -> (f64, f64)) -> (f64, f64) {
    let m = pts.len() as f64;
    let (mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0);
    for &(n, y) in pts {
        let (x, y) = xy(n, y);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    let slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
    (slope, (sy - slope * sx) / m)
}

/// Both laws fitted to a non-decreasing step curve given by its corners (n, y) (n
/// increasing, y the curve's value from n on), on the last corner at or below each of 200
/// log-spaced n in lo..=hi (corners with y ≥ 1 and n ≥ lo).
fn fit_corners(corners: impl Iterator<Item = (u64, u64)>, lo: u64, hi: u64) -> Option<GrowthFit> {
    if hi < 1000 || hi / 2 <= lo {
        return None;
    }
    let (llo, lhi) = ((lo as f64).ln(), (hi as f64).ln());
    let k = 200;
    let mut corners = corners.peekable();
    let mut pts: Vec<(f64, f64)> = vec![];
    // the last corner at or below the current t, and whether it was taken
    let mut at: Option<(u64, u64)> = None;
    let mut taken = false;
    for j in 0..k {
        let t = (llo + (lhi - llo) * j as f64 / (k - 1) as f64)
            .exp()
            .floor() as u64;
        while let Some(c) = corners.next_if(|c| c.0 <= t) {
            at = Some(c);
            taken = false;
        }
        if let Some((n, y)) = at.filter(|c| !taken && c.0 >= lo && c.1 >= 1) {
            pts.push((n as f64, y as f64));
            taken = true;
        }
    }
    let split = 0.5 * (llo + lhi);
    let upper: Vec<(f64, f64)> = pts.iter().copied().filter(|p| p.0.ln() >= split).collect();
    if pts.len() < 8 || upper.len() < 3 {
        return None;
    }
    // rms of ln(fit / y) over the upper half; None where the fit is not positive
    let rms = |f: &dyn Fn(f64) -> f64| -> Option<f64> {
        let mut s = 0.0;
        for &(n, y) in &upper {
            let v = f(n);
            if !(v > 0.0 && v.is_finite()) {
                return None;
            }
            s += (v / y).ln().powi(2);
        }
        Some((s / upper.len() as f64).sqrt())
    };
    let (alpha, lnc) = least_squares(&pts, |n, y| (n.ln(), y.ln()));
    let c = lnc.exp();
    let power_error = rms(&|n| c * n.powf(alpha))?;
    let (b, a) = least_squares(&pts, |n, y| (n.ln(), y));
    let log_error = if b > 0.0 {
        rms(&|n| a + b * n.ln())
    } else {
        None
    };
    let (a, b) = match log_error {
        Some(_) => (Some(a), Some(b)),
        None => (None, None),
    };
    let law = match log_error {
        Some(e) if e < power_error => Law::Logarithmic,
        _ => Law::Power,
    };
    (alpha.is_finite() && c.is_finite()).then_some(GrowthFit {
        law,
        c,
        alpha,
        power_error,
        a,
        b,
        log_error,
        from: lo,
        to: hi,
        points: pts.len() as u64,
    })
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

/// How often each gap between consecutive P-positions `ps` (increasing) occurs: (gap,
/// count) by increasing gap.
pub fn gap_counts(ps: &[u64]) -> Vec<(u64, u64)> {
    let mut h = std::collections::BTreeMap::<u64, u64>::new();
    for w in ps.windows(2) {
        *h.entry(w[1] - w[0]).or_default() += 1;
    }
    h.into_iter().collect()
}

#[cfg(feature = "polars")]
/// How often each gap occurs. Columns `gap`, `count`, increasing gap.
pub fn gap_histogram(ps: &[u64]) -> PolarsResult<DataFrame> {
    let h = gap_counts(ps);
    df!("gap" => h.iter().map(|x| x.0).collect::<Vec<_>>(), "count" => h.iter().map(|x| x.1).collect::<Vec<_>>())
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
        assert_eq!(
            gap_counts(&ps),
            vec![(2, 5), (3, 4), (5, 2), (8, 1), (12, 1)]
        );
        let h = gap_histogram(&ps).unwrap();
        assert_eq!(h.column("gap").unwrap().u64().unwrap().get(0), Some(2));
        let res = residues(&ps, 2..=3).unwrap();
        assert_eq!(res.height(), 5);
        // exact power law: count(<= n) = floor(sqrt n) + 1 for squares as P-positions
        let sq: Vec<u64> = (0..=1000u64).map(|k| k * k).collect();
        let f = growth_fit(&sq, 1_000_000).unwrap();
        let (c, a) = (f.c, f.alpha);
        assert!((a - 0.5).abs() < 0.01 && (c - 1.0).abs() < 0.1, "{c} {a}");
        assert_eq!(f.law, Law::Power);
    }

    #[test]
    fn growth_laws_are_told_apart() {
        // P-positions 0 and 3·2^k − 1 (half|sub{1}): exponential, the k-th ≈ 1.5·2^k
        let ps: Vec<u64> = std::iter::once(0)
            .chain((0..30).map(|k| 3 * (1u64 << k) - 1))
            .take_while(|&p| p <= 1 << 30)
            .collect();
        let f = growth_fit(&ps, 1 << 30).unwrap();
        assert_eq!(f.law, Law::Logarithmic, "{f:?}");
        let (c, r) = f.exponential().unwrap();
        assert!((r - 2.0).abs() < 0.01 && (c - 1.5).abs() < 0.05, "{c} {r}");
        assert!(f.close() && f.log_error.unwrap() < 0.01 && f.power_error > 0.01);
        // the power law is kept for the record, though it lost
        assert!(f.alpha > 0.0 && f.alpha < 0.2);
        // values ⌊log2 n⌋: logarithmic with ratio 2, one more per doubling
        let v: Vec<u32> = (0..=1u32 << 20).map(|n| n.max(1).ilog2()).collect();
        let f = value_growth(&v).unwrap();
        assert_eq!(f.law, Law::Logarithmic);
        assert!((f.ratio().unwrap() - 2.0).abs() < 0.01, "{f:?}");
        assert!((f.at(1024.0) - 10.0).abs() < 0.1);
        // values ⌊√n⌋: a power law with exponent 1/2
        let v: Vec<u32> = (0..=1_000_000u64).map(|n| n.isqrt() as u32).collect();
        let f = value_growth(&v).unwrap();
        assert_eq!(f.law, Law::Power);
        assert!(
            (f.alpha - 0.5).abs() < 0.01 && (f.c - 1.0).abs() < 0.05,
            "{f:?}"
        );
        assert!(f.formula().starts_with("1.0") && f.formula().ends_with("·n^0.5000"));
        // values that stop growing, too few records, too short a range: no fit
        let v: Vec<u32> = (0..=100_000u32).map(|n| n.min(50)).collect();
        assert!(value_growth(&v).is_none());
        assert!(value_growth(&[0, 1, 2, 3]).is_none());
        assert!(value_growth(&[]).is_none());
        assert!(value_growth(&vec![0u32; 5000]).is_none());
        let v: Vec<u32> = (0..=999u32).collect();
        assert!(value_growth(&v).is_none());
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
