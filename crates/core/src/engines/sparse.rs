//! Grundy values of take-and-break games (octal and hexadecimal codes, Grundy's game) by the
//! sparse-space method (Winning Ways, ch. 4, "Sparse space spells speed"; A. Flammenkamp,
//! "Sparse- and common-positions of Sprague–Grundy values of octal games").
//!
//! Fix a mask m and call a position x *rare* when parity(g(x) & m) = 0 (the *range* type),
//! or when parity(g(x) & m) = (x & 1) (the *domain* type). For a split of s = a + b into
//! two heaps, the value class parity(g(a) ^ g(b) & m) of the option is
//! class(a) ^ class(b) (^ s & 1 for the domain type), so option values of the *scarce*
//! class come only from pairs with exactly one rare part: they are listed exactly by
//! walking the rare positions, O(#rare) per position. Values of the other class are
//! abundant; one of them is taken as present only once a witness pair is found. The mex is
//! then almost always a scarce value found without any search; a full scan happens only
//! when the answer is an abundant-class value — which makes that position rare.
//!
//! The mask is chosen from the data: the first positions are computed by the plain XOR scan,
//! and the mask (and type) leaving the fewest rare positions wins. Where no mask makes the
//! rare positions sparse, the plain scan continues (split across threads for long heaps).
//! Results never depend on the mask; only the speed does.
//!
//! With a mask, positions are decided in blocks of 64 (see `Blocks`): the option pairs that
//! only read values decided before the previous block (rare parts and the first sweep parts
//! of at least 128) are made in bulk, one part for all 64 lanes at a time, by helper threads
//! while the previous block's lanes are finished in order. Measured on 2 cores against
//! `ogsolve -m rc2` (scripts/bench-grundy.sh): .6 to 10^6 2.3x faster.

use super::crew::{helpers_here, Accumulators, Crew};
use crate::mex::ValueSet;
use crate::moves::breaker::{guy_smith_bound, pair_top, Breaker};
use crate::observe::{Stopped, Watch};
use rayon::prelude::*;

/// Values of every single-heap option and every two-heap split of position n, marked in
/// `seen` by the plain scan (O(n) per split digit).
fn plain_options(br: &Breaker, g: &[u32], n: u64, seen: &mut ValueSet, three: &mut ThreeHeaps) {
    for d in &br.digits {
        let Some(s) = d.leave_at_most_one(n, |x| g[x as usize], |v| seen.insert(v)) else {
            continue;
        };
        if d.two && s >= 2 {
            let r = 1..=pair_top(s, d.unequal);
            if s >= 1 << 16 && rayon::current_num_threads() > 1 {
                let part: Vec<u64> = (*r.start()..*r.end() + 1)
                    .into_par_iter()
                    .fold(Vec::new, |mut acc: Vec<u64>, a| {
                        let v = g[a as usize] ^ g[(s - a) as usize];
                        let w = (v >> 6) as usize;
                        if w >= acc.len() {
                            acc.resize(w + 1, 0);
                        }
                        acc[w] |= 1 << (v & 63);
                        acc
                    })
                    .reduce(Vec::new, |mut a, b| {
                        if a.len() < b.len() {
                            a.resize(b.len(), 0);
                        }
                        a.iter_mut().zip(&b).for_each(|(x, y)| *x |= y);
                        a
                    });
                for (w, bits) in part.iter().enumerate() {
                    let mut b = *bits;
                    while b != 0 {
                        seen.insert(w as u32 * 64 + b.trailing_zeros());
                        b &= b - 1;
                    }
                }
            } else {
                for a in r {
                    seen.insert(g[a as usize] ^ g[(s - a) as usize]);
                }
            }
        }
        if d.three && s >= 3 {
            three.mark(g, s, seen);
        }
    }
}

/// Three-heap splits through the two-heap XOR sets X2(s) = {g(a) ^ g(s - a)}: the values of
/// splitting s into three are ∪_a g(a) ^ X2(s - a).
#[derive(Default)]
struct ThreeHeaps {
    x2: Vec<Vec<u64>>,
}

impl ThreeHeaps {
    fn x2(&mut self, g: &[u32], s: u64) -> &[u64] {
        while (self.x2.len() as u64) <= s {
            let t = self.x2.len() as u64;
            let mut set = ValueSet::default();
            for a in 1..t {
                set.insert(g[a as usize] ^ g[(t - a) as usize]);
            }
            self.x2.push(set.words().to_vec());
        }
        &self.x2[s as usize]
    }

    fn mark(&mut self, g: &[u32], s: u64, seen: &mut ValueSet) {
        for a in 1..=s - 2 {
            let ga = g[a as usize];
            let bits = self.x2(g, s - a).to_vec();
            for (w, &word) in bits.iter().enumerate() {
                let mut b = word;
                while b != 0 {
                    seen.insert(ga ^ (w as u32 * 64 + b.trailing_zeros()));
                    b &= b - 1;
                }
            }
        }
    }
}

/// A classification of positions into rare and common.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Mask {
    /// The value bits looked at.
    pub bits: u32,
    /// Domain type: the class also depends on the parity of the position.
    pub domain: bool,
    /// The class (0 or 1) of the rare positions.
    pub rare: u32,
}

impl Mask {
    /// Class of a value at position x (the parity of its masked bits, plus the position's
    /// parity for the domain type); position 0's class is the value class.
    #[inline]
    fn class(self, x: u64, v: u32) -> u32 {
        ((v & self.bits).count_ones() & 1) ^ if self.domain { (x & 1) as u32 } else { 0 }
    }
    /// Is the position rare?
    #[inline]
    pub(crate) fn is_rare(self, x: u64, v: u32) -> bool {
        self.class(x, v) == self.rare
    }
    /// The rare positions n >= 1 of the values `g` = g(0..), with their values, increasing:
    /// the one listing of them (the engine's lists, record runs, summaries).
    pub(crate) fn rare_in(self, g: &[u32]) -> impl Iterator<Item = (u64, u32)> + '_ {
        (1u64..)
            .zip(g.iter().skip(1))
            .filter(move |&(x, &v)| self.is_rare(x, v))
            .map(|(x, &v)| (x, v))
    }
    /// Value class (parity under the mask) of a two-heap option of a split of s whose two
    /// parts are common (equal classes cancel): the abundant class for that s.
    #[inline]
    fn abundant(self, s: u64) -> u32 {
        if self.domain {
            (s & 1) as u32
        } else {
            0
        }
    }
}

impl std::fmt::Display for Mask {
    /// `range mask 0x6, rare class 0` (or `domain mask …`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} mask {:#x}, rare class {}",
            if self.domain { "domain" } else { "range" },
            self.bits,
            self.rare
        )
    }
}

/// The rare positions of a table of Grundy values: the mask, how many positions n >= 1 are
/// rare under it, and the last of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RareSummary {
    /// The mask leaving the fewest rare positions over the whole table.
    pub mask: Mask,
    /// Rare positions n >= 1.
    pub count: u64,
    /// The largest rare position.
    pub last: Option<u64>,
}

/// The sparse-space classification of `g`, the Grundy values 0..=N of `game`: the mask
/// (bits, range or domain type, rare class) leaving the fewest rare positions over the
/// second half of the table, among those the engine may pick (Flammenkamp's sparse-space
/// method: range type with rare class 0; domain type only when every splitting move
/// removes tokens of one parity t, with rare class t mod 2). None when `game` is not a
/// take-and-break game that splits heaps in two (and never in three), when no mask leaves
/// fewer than a quarter of the positions rare, or when the values are all 0.
pub fn rare_summary_of(br: &Breaker, g: &[u32]) -> Option<RareSummary> {
    if !sparse_applies(br) {
        return None;
    }
    let (mask, _) = choose_mask(g, g.len() / 2, br.domain_rare())?;
    let (count, last) = mask
        .rare_in(g)
        .fold((0, None), |(c, _), (x, _)| (c + 1, Some(x)));
    Some(RareSummary { mask, count, last })
}

/// Statistics of one evaluation, for reports and benchmarks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OctalStats {
    /// The mask used (None: plain scan throughout).
    pub mask: Option<Mask>,
    /// Rare positions found.
    pub rare: u64,
    /// Positions computed by the plain scan.
    pub plain: u64,
    /// (preperiod, period) proven by Guy–Smith, after which values were copied.
    pub period: Option<(u64, u64)>,
    /// Times the mask was re-chosen.
    pub rebuilds: u64,
}

/// Positions computed by the plain scan before a mask is chosen.
pub(crate) const PREFIX: u64 = 3000;

/// Grundy values 0..=max of a take-and-break rule.
///
/// For octal rules (two heaps at most, no "unequal" constraint), the sequence is checked
/// for periodicity at n = 2^12, 2^13, …; once a period p with preperiod n0 is proven by the
/// Guy–Smith theorem (values known to n >= 2·n0 + 2p + t, t the last code digit; Guy and
/// Smith 1956, "The G-values of various games"), every later value is copied from the
/// period instead of computed.
///
/// # Errors
/// [`Stopped`] when the observer behind `watch` stops the run.
pub(crate) fn take_break_grundy(
    br: &Breaker,
    max: u64,
    watch: &mut Watch,
) -> Result<(Vec<u32>, OctalStats), Stopped> {
    take_break_grundy_from(br, max, PREFIX, None, watch)
}

/// [`take_break_grundy`] continuing `g`, the values 0..g.len() of the same rule (as an
/// earlier run left them): positions g.len()..=max are computed, with the same checks
/// (mask, period) at the same powers of two as an uninterrupted run. The values are those
/// of an uninterrupted run whatever `g` holds only when `g` is right: the caller checks it.
///
/// # Errors
/// [`Stopped`] when the observer behind `watch` stops the run.
pub(crate) fn take_break_grundy_continue(
    br: &Breaker,
    g: Vec<u32>,
    max: u64,
    watch: &mut Watch,
) -> Result<(Vec<u32>, OctalStats), Stopped> {
    take_break_grundy_with(br, g, max, PREFIX, None, watch)
}

/// [`take_break_grundy`] with the plain-scan prefix given (tests use short ones so the
/// sparse-space path runs on small heaps too) and the block engine's helper threads (None:
/// [`helpers_here`]).
pub(crate) fn take_break_grundy_from(
    br: &Breaker,
    max: u64,
    prefix: u64,
    helpers: Option<usize>,
    watch: &mut Watch,
) -> Result<(Vec<u32>, OctalStats), Stopped> {
    take_break_grundy_with(br, Vec::new(), max, prefix, helpers, watch)
}

/// The engine behind [`take_break_grundy_from`] and [`take_break_grundy_continue`]: values
/// g.len()..=max after the given ones (none beyond max).
fn take_break_grundy_with(
    br: &Breaker,
    mut g: Vec<u32>,
    max: u64,
    prefix: u64,
    helpers: Option<usize>,
    watch: &mut Watch,
) -> Result<(Vec<u32>, OctalStats), Stopped> {
    g.truncate(max.saturating_add(1) as usize);
    g.reserve((max as usize + 1).saturating_sub(g.len()));
    let mut stats = OctalStats::default();
    let mut seen = ValueSet::default();
    let mut three = ThreeHeaps::default();
    let prefix = max.min(prefix);
    for n in g.len() as u64..=prefix {
        watch.at(n)?;
        seen.clear();
        plain_options(br, &g, n, &mut seen, &mut three);
        g.push(seen.mex());
        stats.plain += 1;
    }
    if g.len() as u64 > max {
        return Ok((g, stats));
    }
    let sparse_ok = sparse_applies(br);
    let mut mask = if sparse_ok {
        choose_mask(&g, g.len() / 2, br.domain_rare()).map(|m| m.0)
    } else {
        None
    };
    let mut rare: Vec<u64> = Vec::new();
    let mut rare_v: Vec<u32> = Vec::new();
    let classify = |m: Mask, g: &[u32], rare: &mut Vec<u64>, rare_v: &mut Vec<u32>| {
        (*rare, *rare_v) = m.rare_in(g).unzip();
    };
    if let Some(m) = mask {
        classify(m, &g, &mut rare, &mut rare_v);
    }
    let mut st = Stamps::default();
    let mut maxv = g.iter().copied().max().unwrap_or(0);
    // Guy–Smith applies to octal rules: at most two heaps, any pair of parts allowed.
    let (t, octal) = (br.last_take(), br.is_octal());
    // (the powers of two at which an uninterrupted run checks, after the values so far)
    let mut next_check = (g.len() as u64).next_power_of_two().max(1 << 12);
    let mut blocks = Blocks {
        helpers,
        ..Blocks::default()
    };
    let mut n = g.len() as u64;
    // a check scheduled where a period seen would be proven
    let mut proof_at = u64::MAX;
    while n <= max {
        // Positions n..=to with the same mask; checks come after `to`.
        let to = next_check.min(max).min(proof_at);
        match mask {
            Some(m) => {
                let mut rl = RareList {
                    pos: &mut rare,
                    val: &mut rare_v,
                };
                g.resize(to as usize + 1, 0);
                let tab = Table {
                    ptr: g.as_mut_ptr(),
                    len: g.len(),
                };
                let cut = blocks.run(
                    br,
                    tab,
                    u64::MAX,
                    m,
                    &mut rl,
                    &mut maxv,
                    n,
                    to,
                    &mut st,
                    watch,
                )?;
                debug_assert!(cut.is_none(), "no limit, no cut");
            }
            None => {
                for x in n..=to {
                    watch.at(x)?;
                    seen.clear();
                    plain_options(br, &g, x, &mut seen, &mut three);
                    stats.plain += 1;
                    let v = seen.mex();
                    g.push(v);
                    maxv = maxv.max(v);
                }
            }
        }
        n = to + 1;
        let checks = to == next_check || to == proof_at;
        if to == next_check {
            next_check *= 2;
            // Re-choose the mask on the recent half (the sequence's structure may only show
            // later), and switch when it leaves clearly fewer rare positions.
            if sparse_ok {
                let from = g.len() / 2;
                if let Some((m, count)) = choose_mask(&g, from, br.domain_rare()) {
                    let now = match mask {
                        Some(cur) => (from..g.len())
                            .filter(|&x| cur.is_rare(x as u64, g[x]))
                            .count(),
                        None => usize::MAX,
                    };
                    if count * 2 < now {
                        mask = Some(m);
                        classify(m, &g, &mut rare, &mut rare_v);
                        stats.rebuilds += 1;
                    }
                }
            }
        }
        if checks && octal {
            // The least period p of the last values, from the least n0 the data allow:
            // proven (Guy–Smith) once the values reach 2·n0 + 2p + t. Not yet: the next
            // check comes when they would, if that is before the next power of two.
            proof_at = u64::MAX;
            // (the last half finds long periods, the last eighth periods that began late)
            let seen: Vec<(u64, u64)> = [2, 8]
                .into_iter()
                .filter_map(|part| crate::period::tail_period(&g, g.len() / part))
                .collect();
            let proven = seen
                .iter()
                .find(|&&(n0, p)| to >= guy_smith_bound(n0, p, t));
            if proven.is_none() {
                let first = seen.iter().map(|&(n0, p)| guy_smith_bound(n0, p, t)).min();
                if let Some(proof) = first.filter(|&b| b < next_check) {
                    proof_at = proof;
                }
            }
            if let Some(&(n0, p)) = proven {
                {
                    stats.period = Some((n0, p));
                    // the rest by the period, a block of 2^20 at a time between looks at
                    // the observer
                    let mut m = to + 1;
                    while m <= max {
                        watch.at(m)?;
                        let end = max.min(m + (1 << 20) - 1);
                        for x in m..=end {
                            let src = n0 + (x - n0) % p;
                            g.push(g[src as usize]);
                        }
                        m = end + 1;
                    }
                    break;
                }
            }
        }
    }
    stats.rare = rare.len() as u64;
    stats.mask = mask;
    Ok((g, stats))
}

/// The sparse-space method needs two-heap splits and no three-heap ones.
pub(crate) fn sparse_applies(br: &Breaker) -> bool {
    !br.has_three() && br.digits.iter().any(|d| d.two)
}

/// Picks the mask (bits, type, rare class) leaving the fewest rare positions among
/// `g[from..]`, by a histogram of (value, position parity); with it, how many that is.
/// None when even the best leaves a quarter of them rare.
fn choose_mask(g: &[u32], from: usize, domain_rare: Option<u32>) -> Option<(Mask, usize)> {
    let window = &g[from..];
    let maxv = window.iter().copied().max().unwrap_or(0);
    let bits = (32 - maxv.leading_zeros()).min(12);
    if bits == 0 || window.is_empty() {
        return None;
    }
    let mut hist = vec![[0usize; 2]; 1 << bits];
    for (i, &v) in window.iter().enumerate() {
        hist[(v as usize) & ((1 << bits) - 1)][(from + i) & 1] += 1;
    }
    let mut best: Option<(usize, Mask)> = None;
    for m in 1..(1u32 << bits) {
        // counts of value class 0 / 1 at even / odd positions
        let mut c = [[0usize; 2]; 2];
        for (v, h) in hist.iter().enumerate() {
            let cls = ((v as u32 & m).count_ones() & 1) as usize;
            c[cls][0] += h[0];
            c[cls][1] += h[1];
        }
        for domain in [false, true] {
            for rare in [0u32, 1] {
                // Only a consistent structure speeds anything up: the mex of a common
                // position must be a scarce-class value (listed exactly), not an abundant
                // one (common ^ common), or every position needs a full sweep.
                let consistent = if domain {
                    domain_rare == Some(rare)
                } else {
                    rare == 0
                };
                if !consistent {
                    continue;
                }
                let mask = Mask {
                    bits: m,
                    domain,
                    rare,
                };
                // positions whose class equals `rare`
                let count: usize = (0..2)
                    .flat_map(|cls| (0..2).map(move |par| (cls, par)))
                    .filter(|&(cls, par)| {
                        let class = cls as u32 ^ if domain { par as u32 } else { 0 };
                        class == rare
                    })
                    .map(|(cls, par)| c[cls][par])
                    .sum();
                if best.is_none_or(|(b, _)| count < b) {
                    best = Some((count, mask));
                }
            }
        }
    }
    let (count, mask) = best?;
    (count * 4 < window.len()).then_some((mask, count))
}

/// Marks of the option values of one position: value v is present when `at[v] == gen`.
/// Marking is a plain store (no read-modify-write, so successive marks never wait on each
/// other); a new position only bumps `gen`.
#[derive(Default)]
pub(crate) struct Stamps {
    at: Vec<u32>,
    gen: u32,
}

impl Stamps {
    /// Starts a position whose option values are all below `cap` (a power of two).
    fn start(&mut self, cap: u32) {
        if self.at.len() < cap as usize {
            self.at.resize(cap as usize, 0);
        }
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.at.iter_mut().for_each(|x| *x = 0);
            self.gen = 1;
        }
    }
    #[inline(always)]
    fn set(&mut self, v: u32) {
        debug_assert!((v as usize) < self.at.len());
        // SAFETY: callers keep v below cap, the length ensured by `start`.
        unsafe { *self.at.get_unchecked_mut(v as usize) = self.gen };
    }
    #[inline(always)]
    fn has(&self, v: u32) -> bool {
        self.at[v as usize] == self.gen
    }
}

/// Marks g(a) ^ g(s - a) for a in `a0..a1` (a < s - a), four pairs per round.
#[inline(always)]
fn sweep_pairs(g: &[u32], s: u64, a0: u64, a1: u64, st: &mut Stamps) {
    let (a0, a1, s) = (a0 as usize, a1 as usize, s as usize);
    debug_assert!(a1 <= s.div_ceil(2) + 1 && s < g.len() + 1);
    let mut a = a0;
    while a + 4 <= a1 {
        // SAFETY: 1 <= a < a1 <= s/2 + 1 and s - a <= s - 1 < g.len().
        unsafe {
            let x0 = *g.get_unchecked(a) ^ *g.get_unchecked(s - a);
            let x1 = *g.get_unchecked(a + 1) ^ *g.get_unchecked(s - a - 1);
            let x2 = *g.get_unchecked(a + 2) ^ *g.get_unchecked(s - a - 2);
            let x3 = *g.get_unchecked(a + 3) ^ *g.get_unchecked(s - a - 3);
            st.set(x0);
            st.set(x1);
            st.set(x2);
            st.set(x3);
        }
        a += 4;
    }
    while a < a1 {
        st.set(g[a] ^ g[s - a]);
        a += 1;
    }
}

/// The least value c below `cap` that is neither `present` nor abundant for one of the
/// `splits` (s, last part, abundant class of s) — `cap` at the latest, as no option value
/// reaches it — so c is surely absent; the abundant values below c that are not present yet
/// go to `missing` (pairs of two common parts may still produce them).
fn surely_absent(
    cap: u32,
    m: Mask,
    splits: &[(u64, u64, u32)],
    present: impl Fn(u32) -> bool,
    missing: &mut Vec<u32>,
) -> u32 {
    let abundant = |v: u32| {
        let c = m.class(0, v);
        splits.iter().any(|x| x.2 == c)
    };
    missing.clear();
    let mut c = 0;
    loop {
        while c < cap && present(c) {
            c += 1;
        }
        if c >= cap || !abundant(c) {
            return c;
        }
        missing.push(c);
        c += 1;
    }
}

/// g(n) by the sparse-space method (see the module documentation).
///
/// `rare` and `rare_v` are the rare positions below n (increasing) and their values; every
/// value so far is below `cap` = 2^bits, so every option value is too.
#[allow(clippy::too_many_arguments)]
fn sparse_value(
    br: &Breaker,
    g: &[u32],
    cap: u32,
    rare: &[u64],
    rare_v: &[u32],
    mask: Mask,
    n: u64,
    limit: u64,
    st: &mut Stamps,
) -> u32 {
    st.start(cap);
    for d in &br.digits {
        let Some(s) = d.leave_at_most_one(n, |x| g[x as usize], |v| st.set(v)) else {
            continue;
        };
        if d.two && s >= 2 {
            // Every pair with a rare part: a rare, b = s - a.
            let k = rare.partition_point(|&r| r < s);
            for (&r, &rv) in rare[..k].iter().zip(&rare_v[..k]) {
                let b = s - r;
                if d.unequal && r == b {
                    continue;
                }
                // SAFETY: b < s <= n - 1 < g.len() + 1 ... b <= s - 1 < g.len().
                st.set(rv ^ unsafe { *g.get_unchecked(b as usize) });
            }
        }
    }
    // Values of the abundant class for some split may still come from pairs of two common
    // parts; every other value is listed completely above. The answer is the least value
    // not produced: find the least value c that is surely absent (not listed and never
    // abundant), then collect abundant values below c by sweeping the splits in order until
    // every one of them has turned up — or the sweep ends and the least missing one wins.
    let mut splits: [(u64, u64, u32); 16] = [(0, 0, 0); 16];
    let mut k = 0;
    for d in &br.digits {
        if d.two && d.take <= n && n - d.take >= 2 && k < splits.len() {
            let s = n - d.take;
            splits[k] = (s, pair_top(s, d.unequal), mask.abundant(s));
            k += 1;
        }
    }
    let splits = &splits[..k];
    let mut missing: Vec<u32> = Vec::new();
    let c = surely_absent(cap, mask, splits, |v| st.has(v), &mut missing);
    if missing.is_empty() {
        return c;
    }
    // The sweep marks every pair (pairs with a rare part again too: harmless, they are
    // options) in chunks, and the list of missing values is checked between chunks.
    // Chunks grow from 16 pairs (many sweeps end early) to 512.
    let mut chunk: u64 = 16;
    let full = splits.iter().map(|x| x.1).max().unwrap_or(0);
    let longest = full.min(limit - 1);
    let mut a0 = 1;
    while a0 <= longest && !missing.is_empty() {
        let a1 = (a0 + chunk).min(longest + 1);
        chunk = (chunk * 2).min(512);
        for &(s, top, _) in splits {
            sweep_pairs(g, s, a0.min(top + 1), a1.min(top + 1), st);
        }
        missing.retain(|&v| !st.has(v));
        a0 = a1;
    }
    match missing.first() {
        // (parts from `limit` on were not read: the answer is not known)
        Some(_) if longest < full => CUT,
        Some(&v) => v,
        None => c,
    }
}

/// What the value functions answer when the sweep for a witness would have to read parts
/// from the caller's `limit` on (values the record mode no longer keeps): not a value.
pub(crate) const CUT: u32 = u32::MAX;

/// The rare positions (increasing) and their values.
pub(crate) struct RareList<'a> {
    pub(crate) pos: &'a mut Vec<u64>,
    pub(crate) val: &'a mut Vec<u32>,
}

/// Positions per block of the block engine.
const BLOCK: usize = 64;

/// Parts below this (2·BLOCK) are paired lane by lane; the bulk's parts are at least this.
const SMALL: u64 = 2 * BLOCK as u64;

/// Rare parts from this one (below [`SMALL`]) read only values before a block from every
/// lane: with narrow rows they are marked for the whole block when it starts.
const MID: u64 = BLOCK as u64;

/// Largest value range (a power of two) the block engine keeps a bit row for, per lane.
const BLOCK_CAP: u32 = 1 << 16;

/// The block engine of the sparse-space method.
///
/// Positions go in blocks of [`BLOCK`] lanes. Most option pairs of a block only read values
/// decided long before it: the pairs with a rare part r >= [`SMALL`], and the first pairs of
/// the sweep, (a, s - a) with SMALL <= a < `reach`. For a fixed r (or a) the other parts of
/// the block's lanes are one contiguous run of the table, so these pairs are made *in bulk*,
/// part by part over all lanes, into one bit row per lane (consecutive marks go to different
/// rows, so none waits for another). The bulk of block k + 1 reads only values before block
/// k, so it runs on the other thread while block k's lanes are finished one by one
/// (`rayon::join`): the pairs with a small or recent rare part, the mex, and the rest of the
/// sweep when it is still needed. `reach` follows how far the sweeps of the last block went.
#[derive(Default)]
pub(crate) struct Blocks {
    /// Bit rows of the block being finished and of the next one.
    rows: Vec<u64>,
    next: Vec<u64>,
    /// Sweep ends of the last block (0 when a lane needed no sweep).
    ends: Vec<u64>,
    /// Helper threads (None: [`helpers_here`]).
    helpers: Option<usize>,
    /// The bulk's sweep reach for the last block.
    last_reach: u64,
}

/// What the bulk of one block covered.
#[derive(Clone, Copy)]
struct Bulk {
    /// First position of the block.
    n0: u64,
    /// Lanes.
    lanes: usize,
    /// Values below this were decided when the bulk ran, and every lane's split is larger;
    /// the bulk's rare parts are the rare positions in [SMALL, known).
    known: u64,
    /// Its sweep pairs have SMALL <= a < reach.
    reach: u64,
    /// Words per row (the row holds values below 64·words).
    words: usize,
}

/// The two-heap digits as (take, unequal).
fn two_heap_digits(br: &Breaker) -> Vec<(u64, bool)> {
    br.digits
        .iter()
        .filter(|d| d.two)
        .map(|d| (d.take, d.unequal))
        .collect()
}

/// ORs into `rows` (word j of lane i at j·lanes + i: see [`mark_lanes`]) the bulk pairs of a block (see
/// [`Blocks`]) with parts in share `part` of `parts`: each two-heap digit's parts (its rare
/// parts, then its sweep parts) are cut into `parts` equal runs. Reads only
/// `known` = g[..bk.known].
#[allow(clippy::too_many_arguments)]
fn bulk_rows(
    twos: &[(u64, bool)],
    known: &[u32],
    rare: &[u64],
    rare_v: &[u32],
    bk: Bulk,
    part: usize,
    parts: usize,
    rows: &mut [u64],
) {
    let w = bk.words;
    let lanes = bk.lanes;
    let n0 = bk.n0;
    let lo = rare.partition_point(|&r| r < SMALL);
    let hi = rare.partition_point(|&r| r < bk.known);
    // Marks xor ^ src[k] in the rows of lanes i0 + k (every value in the bulk is below
    // the rows' range 64·w: the caller sizes them for twice the values so far).
    let mark = |rows: &mut [u64], i0: usize, xor: u32, src: &[u32]| {
        mark_lanes(rows, lanes, w, i0, xor, src)
    };
    let sweep = bk.reach.saturating_sub(SMALL) as usize;
    let total = hi - lo + sweep;
    let (p0, p1) = (total * part / parts, total * (part + 1) / parts);
    // (xor, base) of the pairs made for every lane: see `mark_full`
    let mut full: Vec<(u32, usize)> = Vec::new();
    for &(t, unequal) in twos {
        // Lane i splits s = n0 + i - t; the part b = s - r is known[base + i], base = n0 - t - r.
        let (r0, r1) = (lo + p0.min(hi - lo), lo + p1.min(hi - lo));
        for (&r, &rv) in rare[r0..r1].iter().zip(&rare_v[r0..r1]) {
            let base = (n0 - t - r) as usize;
            let src = &known[base..base + lanes];
            // Under `unequal` the lane splitting r + r has no such option.
            match (r as usize)
                .checked_sub(base)
                .filter(|&i| unequal && i < lanes)
            {
                Some(skip) => {
                    mark(rows, 0, rv, &src[..skip]);
                    mark(rows, skip + 1, rv, &src[skip + 1..]);
                }
                None => full.push((rv, base)),
            }
        }
        let (a0, a1) = (p0.saturating_sub(hi - lo), p1.saturating_sub(hi - lo));
        sweep_lanes(
            (t, unequal),
            known,
            (n0, lanes, w),
            SMALL + a0 as u64..SMALL + a1 as u64,
            rows,
            &mut full,
        );
    }
    mark_full(rows, lanes, w, known, &full);
}

/// ORs into `rows` (as [`bulk_rows`]) the sweep pairs (a, s - a) with a in `parts` of the
/// two-heap digit `(take, unequal)` for the lanes of the block `(n0, lanes, words)` whose
/// splits s reach part a. Every pair must read values in `known` only (a >= [`SMALL`] for
/// the block after the one being finished).
/// The pairs that reach every lane are not marked but added to `full` as (value of a,
/// base of the window), for [`mark_full`].
fn sweep_lanes(
    (t, unequal): (u64, bool),
    known: &[u32],
    (n0, lanes, w): (u64, usize, usize),
    parts: std::ops::Range<u64>,
    rows: &mut [u64],
    full: &mut Vec<(u32, usize)>,
) {
    for a in parts {
        // lanes whose splits reach part a: s >= 2a (+1 when unequal)
        let need = 2 * a + u64::from(unequal) + t;
        let i0 = need.saturating_sub(n0) as usize;
        if i0 >= lanes {
            break;
        }
        let base = (n0 - t - a) as usize;
        if i0 == 0 {
            full.push((known[a as usize], base));
        } else {
            mark_lanes(
                rows,
                lanes,
                w,
                i0,
                known[a as usize],
                &known[base + i0..base + lanes],
            );
        }
    }
}

/// For every (xor, base) in `items` and every lane k < `lanes`, sets bit
/// xor ^ known\[base + k\] in lane k's row (the layout of [`mark_lanes`]). With narrow rows,
/// sixteen lanes' words stay in registers while every item is marked into them (vector
/// shifts, AVX2 where the CPU has it), and are written once.
///
/// # Panics
/// When a window base..base + lanes leaves `known` or `rows` is short.
fn mark_full(rows: &mut [u64], lanes: usize, w: usize, known: &[u32], items: &[(u32, usize)]) {
    if w > VECTOR_WORDS {
        for &(x, b) in items {
            mark_lanes(rows, lanes, w, 0, x, &known[b..b + lanes]);
        }
        return;
    }
    assert!(rows.len() >= w * lanes, "rows for every lane");
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        for &(_, b) in items {
            assert!(b + lanes <= known.len(), "windows inside the table");
        }
        // SAFETY: the CPU has AVX-512 F; every window base..base + lanes is in `known`
        // (asserted) and `rows` holds w·lanes words.
        return unsafe { mark_full_avx512(rows, lanes, w, known, items) };
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { mark_full_avx2(rows, lanes, w, known, items) };
    }
    mark_full_any(rows, lanes, w, known, items)
}

/// [`mark_full`] with AVX-512 F: sixteen lanes' words in two registers, eight pairs an
/// instruction (`vpsllvq` leaves 0 for a value outside the word, so no test is needed).
///
/// # Safety
/// The CPU must have AVX-512 F; for every item, base..base + lanes must lie in `known`,
/// and `rows` must hold w·lanes words.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn mark_full_avx512(
    rows: &mut [u64],
    lanes: usize,
    w: usize,
    known: &[u32],
    items: &[(u32, usize)],
) {
    use std::arch::x86_64::*;
    let ones = _mm512_set1_epi64(1);
    let kp = known.as_ptr();
    for j in 0..w {
        let from = _mm256_set1_epi32(64 * j as i32);
        let row = &mut rows[j * lanes..(j + 1) * lanes];
        let mut c = 0;
        while c + 16 <= lanes {
            let (mut lo, mut hi) = (_mm512_setzero_si512(), _mm512_setzero_si512());
            for &(xor, b) in items {
                let x = _mm256_set1_epi32(xor as i32);
                // SAFETY: b + c + 16 <= b + lanes <= known.len() (the caller's bounds).
                let (v0, v1) = unsafe {
                    (
                        _mm256_loadu_si256(kp.add(b + c) as *const __m256i),
                        _mm256_loadu_si256(kp.add(b + c + 8) as *const __m256i),
                    )
                };
                let s0 = _mm512_cvtepu32_epi64(_mm256_sub_epi32(_mm256_xor_si256(v0, x), from));
                let s1 = _mm512_cvtepu32_epi64(_mm256_sub_epi32(_mm256_xor_si256(v1, x), from));
                lo = _mm512_or_si512(lo, _mm512_sllv_epi64(ones, s0));
                hi = _mm512_or_si512(hi, _mm512_sllv_epi64(ones, s1));
            }
            let mut acc = [0u64; 16];
            // SAFETY: acc holds 16 words.
            unsafe {
                _mm512_storeu_si512(acc.as_mut_ptr() as *mut __m512i, lo);
                _mm512_storeu_si512(acc.as_mut_ptr().add(8) as *mut __m512i, hi);
            }
            for (r, a) in row[c..c + 16].iter_mut().zip(acc) {
                *r |= a;
            }
            c += 16;
        }
        let from = 64 * j as u32;
        for (k, r) in row.iter_mut().enumerate().skip(c) {
            for &(xor, b) in items {
                let x = (xor ^ known[b + k]).wrapping_sub(from);
                *r |= if x < 64 { 1u64 << x } else { 0 };
            }
        }
    }
}

/// [`mark_full`] compiled for AVX2.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn mark_full_avx2(
    rows: &mut [u64],
    lanes: usize,
    w: usize,
    known: &[u32],
    items: &[(u32, usize)],
) {
    mark_full_any(rows, lanes, w, known, items)
}

/// The body of [`mark_full`] for narrow rows.
#[inline(always)]
fn mark_full_any(rows: &mut [u64], lanes: usize, w: usize, known: &[u32], items: &[(u32, usize)]) {
    const C: usize = 16;
    let bit = |xor: u32, y: u32, from: u32| {
        let x = (xor ^ y).wrapping_sub(from);
        if x < 64 {
            1u64 << x
        } else {
            0
        }
    };
    for j in 0..w {
        let from = 64 * j as u32;
        let row = &mut rows[j * lanes..(j + 1) * lanes];
        let mut c = 0;
        while c + C <= lanes {
            let mut acc = [0u64; C];
            for &(xor, b) in items {
                let src: &[u32; C] = known[b + c..b + c + C].try_into().expect("C values");
                for k in 0..C {
                    acc[k] |= bit(xor, src[k], from);
                }
            }
            for (r, a) in row[c..c + C].iter_mut().zip(acc) {
                *r |= a;
            }
            c += C;
        }
        for (k, r) in row.iter_mut().enumerate().skip(c) {
            for &(xor, b) in items {
                *r |= bit(xor, known[b + k], from);
            }
        }
    }
}

/// Rows of at most this many words are marked word by word with vector shifts.
const VECTOR_WORDS: usize = 4;

/// Sets bit xor ^ src\[k\] in the row of lane i0 + k, for every k. The rows of a block's
/// `lanes` lanes hold `w` words each, word-major: word j of lane i is rows\[j·lanes + i\],
/// so one word of consecutive lanes is contiguous and a run is marked `w` times over, with
/// vector shifts (a value outside word j shifts its bit out: AVX2's `vpsllvq`, where the
/// CPU has it) when w <= [`VECTOR_WORDS`], one bit at a time beyond. Values from 64·w on
/// are not marked (callers size the rows above them).
///
/// # Panics
/// When `rows` holds fewer than w·lanes words or i0 + src.len() > lanes.
fn mark_lanes(rows: &mut [u64], lanes: usize, w: usize, i0: usize, xor: u32, src: &[u32]) {
    assert!(
        rows.len() >= w * lanes && i0 + src.len() <= lanes,
        "rows for every lane"
    );
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { mark_lanes_avx2(rows, lanes, w, i0, xor, src) };
    }
    mark_lanes_any(rows, lanes, w, i0, xor, src)
}

/// [`mark_lanes`] compiled for AVX2.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn mark_lanes_avx2(
    rows: &mut [u64],
    lanes: usize,
    w: usize,
    i0: usize,
    xor: u32,
    src: &[u32],
) {
    mark_lanes_any(rows, lanes, w, i0, xor, src)
}

/// The body of [`mark_lanes`].
#[inline(always)]
fn mark_lanes_any(rows: &mut [u64], lanes: usize, w: usize, i0: usize, xor: u32, src: &[u32]) {
    if w > VECTOR_WORDS {
        // wide rows: one bit set a pair
        let rows = &mut rows[..w * lanes];
        for (k, &y) in src.iter().enumerate() {
            let x = xor ^ y;
            if let Some(r) = rows.get_mut((x >> 6) as usize * lanes + i0 + k) {
                *r |= 1u64 << (x & 63);
            }
        }
        return;
    }
    for j in 0..w {
        let row = &mut rows[j * lanes + i0..j * lanes + i0 + src.len()];
        let base = 64 * j as u32;
        for (r, &y) in row.iter_mut().zip(src) {
            let x = (xor ^ y).wrapping_sub(base);
            *r |= if x < 64 { 1u64 << x } else { 0 };
        }
    }
}

/// Value range (a power of two) holding every option value when values so far are <= maxv.
fn cap_of(maxv: u32) -> u32 {
    1u32 << (32 - (maxv + 1).leading_zeros())
}

/// Row words for a block when values so far are <= maxv: room for values to double.
fn row_words(maxv: u32) -> usize {
    (2 * cap_of(maxv) as usize).div_ceil(64)
}

/// The value table while a block is finished: its lanes write their own positions
/// [n0, n0 + lanes) and read everything below, while the next block's bulk reads below n0
/// through a shared slice. The two never touch the same element mutably.
#[derive(Clone, Copy)]
pub(crate) struct Table {
    pub(crate) ptr: *mut u32,
    pub(crate) len: usize,
}

// SAFETY: the table is only used as described above (disjoint writes, reads of decided
// values), by the two tasks of one `rayon::join`, while the Vec behind it is not touched.
unsafe impl Send for Table {}
// SAFETY: as for Send: shared use is those disjoint writes and reads of decided values.
unsafe impl Sync for Table {}

impl Table {
    #[inline(always)]
    fn get(self, y: u64) -> u32 {
        debug_assert!((y as usize) < self.len);
        // SAFETY: y < len (callers read decided positions of the table).
        unsafe { *self.ptr.add(y as usize) }
    }
    #[inline(always)]
    fn set(self, y: u64, v: u32) {
        assert!((y as usize) < self.len);
        // SAFETY: in bounds; only the lane task writes, and only its own positions.
        unsafe { *self.ptr.add(y as usize) = v }
    }
    /// The decided values 0..n as a slice.
    ///
    /// # Safety
    /// Nobody writes below n while the slice lives.
    unsafe fn prefix<'a>(self, n: u64) -> &'a [u32] {
        assert!(n as usize <= self.len);
        // SAFETY: in bounds; the caller guarantees no writer below n.
        unsafe { std::slice::from_raw_parts(self.ptr, n as usize) }
    }
}

impl Blocks {
    /// Values of positions from..=to (g holds 0..from) with mask `m`.
    ///
    /// `tab` holds at least to + 1 values (0..from decided). Sweeps read parts below `limit`
    /// only (u64::MAX: every part); the first position whose value would need a part from
    /// `limit` on is returned, undecided, and the run ends before it.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run(
        &mut self,
        br: &Breaker,
        tab: Table,
        limit: u64,
        m: Mask,
        rare: &mut RareList,
        maxv: &mut u32,
        from: u64,
        to: u64,
        st: &mut Stamps,
        watch: &mut Watch,
    ) -> Result<Option<u64>, Stopped> {
        assert!(
            tab.len as u64 > to && limit > SMALL,
            "a table to `to`, a limit past SMALL"
        );
        let twos = two_heap_digits(br);
        let twos_ref = &twos[..];
        // Every lane's splits must exceed the bulk's rare parts: those stay below n0 - take.
        let tmax = twos.iter().map(|d| d.0).max().unwrap_or(0);
        let mut x = from;
        let mut pending: Option<Bulk> = None;
        let helpers = self.helpers.unwrap_or_else(helpers_here);
        let threads = helpers + 1;
        // One set of rows per worker of the crew; its shares of a bulk OR into it.
        let copies = Accumulators::new(threads);
        Crew::run(helpers, |crew| {
            while x <= to {
                watch.at(x)?;
                let lanes = BLOCK.min((to - x + 1) as usize);
                if x < 4 * SMALL + tmax
                    || cap_of(*maxv) > BLOCK_CAP
                    || twos.is_empty()
                    || lanes < BLOCK
                {
                    // One position by itself (early heaps, huge values, the last lanes).
                    // SAFETY: nothing else uses the table here.
                    let gx = unsafe { tab.prefix(x) };
                    let v =
                        sparse_value(br, gx, cap_of(*maxv), rare.pos, rare.val, m, x, limit, st);
                    if v == CUT {
                        return Ok(Some(x));
                    }
                    tab.set(x, v);
                    *maxv = (*maxv).max(v);
                    if m.is_rare(x, v) {
                        rare.pos.push(x);
                        rare.val.push(v);
                    }
                    pending = None;
                    x += 1;
                    continue;
                }
                let reach = self.reach(row_words(*maxv)).min(limit);
                let bk = match pending.take() {
                    Some(b) => b,
                    None => {
                        // No bulk prepared (first block, or after single positions).
                        let bk = Bulk {
                            n0: x,
                            lanes,
                            known: x - tmax,
                            reach,
                            words: row_words(*maxv),
                        };
                        self.rows.clear();
                        self.rows.resize(lanes * bk.words, 0);
                        // SAFETY: nothing writes the table meanwhile.
                        let known = unsafe { tab.prefix(x) };
                        let (rp, rv) = (&rare.pos[..], &rare.val[..]);
                        bulk_rows(&twos, known, rp, rv, bk, 0, 1, &mut self.rows);
                        bk
                    }
                };
                debug_assert_eq!(bk.n0, x);
                // The next block's bulk reads values before x only.
                let nx = x + BLOCK as u64;
                let next = (nx + BLOCK as u64 <= to + 1).then(|| Bulk {
                    n0: nx,
                    lanes: BLOCK,
                    known: x.min(nx - tmax),
                    reach,
                    words: row_words(*maxv),
                });
                // SAFETY: until the block is done the lanes write at x and above only.
                let known: &[u32] = unsafe { tab.prefix(x) };
                let (rp, rv): (&[u64], &[u32]) = (rare.pos, rare.val);
                let big = next.is_some_and(|nb| {
                    // (a heuristic: saturating, as a block may end below SMALL)
                    let parts = rp
                        .partition_point(|&r| r < nb.known)
                        .saturating_sub(rp.partition_point(|&r| r < SMALL));
                    (parts as u64 + nb.reach)
                        .saturating_sub(SMALL)
                        .saturating_mul(twos.len() as u64)
                        >= 256
                });
                let mut finish = || {
                    finish_block(
                        br,
                        tab,
                        bk,
                        &mut self.rows,
                        rp,
                        rv,
                        m,
                        maxv,
                        st,
                        &mut self.ends,
                        limit,
                    )
                };
                let fresh = match next {
                    Some(nb) => {
                        // The crew makes the next block's bulk while this one is finished
                        // (on this thread first when the bulk is small).
                        let shares = if big && helpers > 0 { CREW_SHARES } else { 1 };
                        let bulk = |share: usize, rows: &mut [u64]| {
                            bulk_rows(twos_ref, known, rp, rv, nb, share, shares, rows)
                        };
                        let len = nb.lanes * nb.words;
                        crew.bulk_while(&copies, len, shares, &bulk, finish, &mut self.next)
                    }
                    None => finish(),
                };
                let (fresh, cut) = fresh;
                for (p, v) in fresh {
                    rare.pos.push(p);
                    rare.val.push(v);
                }
                if cut.is_some() {
                    return Ok(cut);
                }
                if next.is_some() {
                    std::mem::swap(&mut self.rows, &mut self.next);
                }
                pending = next;
                x = nx;
            }
            Ok(None)
        })
    }

    /// Sweep pairs to make in bulk: a little past most of the last block's sweep ends.
    fn reach(&mut self, words: usize) -> u64 {
        // Aim at a share of the lanes sweeping past the bulk: a sixteenth when the rows are
        // narrow (the bulk marks with vector shifts, far cheaper than a lane's sweep), a
        // quarter when they are wide (one bit set a pair either way). When more swept, the
        // reach goes a quarter past the quantile of the sweep ends that leaves that share
        // (lanes that did not sweep count as 0); when fewer, it falls back by a sixteenth.
        if words > VECTOR_WORDS {
            self.last_reach = SMALL;
            return SMALL;
        }
        let share = 16;
        let k = self.ends.len();
        let sweeps = self.ends.iter().filter(|&&e| e > 0).count();
        if k > 0 && sweeps * share > k {
            let mut e = self.ends.clone();
            e.sort_unstable();
            let q = e[k - k / share - 1];
            self.last_reach = (q + q / 4).div_ceil(64) * 64;
        } else {
            self.last_reach -= self.last_reach / 16;
        }
        self.last_reach = self.last_reach.max(SMALL);
        self.last_reach
    }
}

/// Shares of one block's bulk handed to the crew ([`Crew`]).
const CREW_SHARES: usize = 8;

/// Finishes the lanes of a block in order: pairs the bulk left out, the mex, the sweep.
/// Values below bk.n0 are decided; the lanes write theirs into the table. Returns the
/// block's new rare positions with their values.
#[allow(clippy::too_many_arguments)]
fn finish_block(
    br: &Breaker,
    tab: Table,
    bk: Bulk,
    rows: &mut [u64],
    rare: &[u64],
    rare_v: &[u32],
    m: Mask,
    maxv: &mut u32,
    st: &mut Stamps,
    ends: &mut Vec<u64>,
    limit: u64,
) -> (Vec<(u64, u32)>, Option<u64>) {
    let w = bk.words;
    let gv = |y: u64| tab.get(y);
    // Rare parts the bulk left out, increasing: below SMALL, from `known` on, and the new
    // ones of this block (appended as they are found).
    let lo = rare.partition_point(|&r| r < SMALL);
    let recent = rare.partition_point(|&r| r < bk.known);
    let mut extra: Vec<(u64, u32)> = rare[..lo]
        .iter()
        .zip(&rare_v[..lo])
        .chain(rare[recent..].iter().zip(&rare_v[recent..]))
        .map(|(&r, &v)| (r, v))
        .collect();
    let first_fresh = extra.len();
    let mut missing: Vec<u32> = Vec::new();
    ends.clear();
    let odd: [u64; VECTOR_WORDS] = std::array::from_fn(|j| class_words(m, 64 * j as u32));
    // With narrow rows, the pairs with a rare part in [MID, SMALL) read only values before
    // the block: made for every lane at once (not for "unequal" digits), here.
    if w <= VECTOR_WORDS {
        let mut items = vec![];
        for d in br.digits.iter().filter(|d| d.two && !d.unequal) {
            for (&r, &rv) in rare[..lo].iter().zip(&rare_v[..lo]) {
                if r >= MID {
                    items.push((rv, (bk.n0 - d.take - r) as usize));
                }
            }
        }
        // SAFETY: positions below n0 are decided; the bulk only reads the table.
        let known = unsafe { tab.prefix(bk.n0) };
        mark_full(rows, bk.lanes, w, known, &items);
    }
    for i in 0..bk.lanes {
        let n = bk.n0 + i as u64;
        let capn = cap_of(*maxv);
        if capn as usize >= 64 * w {
            // Values outgrew the rows: this lane from scratch.
            let mut all: Vec<u64> = rare.to_vec();
            let mut vals: Vec<u32> = rare_v.to_vec();
            for &(p, v) in &extra[first_fresh..] {
                all.push(p);
                vals.push(v);
            }
            // SAFETY: positions below n are decided; the bulk only reads.
            let g = unsafe { tab.prefix(n) };
            let v = sparse_value(br, g, capn, &all, &vals, m, n, limit, st);
            if v == CUT {
                return (extra.split_off(first_fresh), Some(n));
            }
            tab.set(n, v);
            *maxv = (*maxv).max(v);
            if m.is_rare(n, v) {
                extra.push((n, v));
            }
            ends.push(0);
            continue;
        }
        let lanes = bk.lanes;
        if w <= VECTOR_WORDS {
            let lane = Lane {
                br,
                tab,
                bk,
                row: (rows, i),
                m,
                cap: capn,
                extra: &extra,
                odd: &odd,
                limit,
            };
            // (own words for the values below cap: the rows have room for twice as many)
            let (v, end) = match capn {
                0..=64 => lane.value::<1>(n),
                65..=128 => lane.value::<2>(n),
                _ => lane.value::<4>(n),
            };
            if v == CUT {
                return (extra.split_off(first_fresh), Some(n));
            }
            ends.push(end);
            tab.set(n, v);
            *maxv = (*maxv).max(v);
            if m.is_rare(n, v) {
                extra.push((n, v));
            }
            continue;
        }
        // This lane's own marks are stamps (plain stores); present = row bit or stamp.
        st.start(capn);
        let mut splits: [(u64, u64, u32); 16] = [(0, 0, 0); 16];
        let mut k = 0;
        for d in &br.digits {
            let Some(s) = d.leave_at_most_one(n, gv, |v| st.set(v)) else {
                continue;
            };
            if d.two && s >= 2 {
                for &(r, rv) in &extra {
                    if r >= s {
                        break;
                    }
                    if !(d.unequal && 2 * r == s) {
                        st.set(rv ^ gv(s - r));
                    }
                }
                if k < splits.len() {
                    splits[k] = (s, pair_top(s, d.unequal), m.abundant(s));
                    k += 1;
                }
            }
        }
        let splits = &splits[..k];
        let present =
            |v: u32| (rows[(v >> 6) as usize * lanes + i] >> (v & 63)) & 1 == 1 || st.has(v);
        let c = surely_absent(capn, m, splits, present, &mut missing);
        let mut end = 0;
        if !missing.is_empty() {
            // Sweep the pairs the bulk did not make: a < SMALL, then a >= reach.
            let full = splits.iter().map(|x| x.1).max().unwrap_or(0);
            let longest = full.min(limit - 1);
            let mut chunk: u64 = 16;
            let mut a0 = 1;
            while a0 <= longest && !missing.is_empty() {
                if (SMALL..bk.reach).contains(&a0) {
                    a0 = bk.reach;
                    continue;
                }
                let lim = if a0 < SMALL { SMALL } else { longest + 1 };
                let a1 = (a0 + chunk).min(lim).min(longest + 1);
                chunk = (chunk * 2).min(512);
                // SAFETY: positions below n are decided; the bulk only reads the table.
                let g = unsafe { tab.prefix(n) };
                for &(s, top, _) in splits {
                    sweep_pairs(g, s, a0, a1.min(top + 1), st);
                }
                missing.retain(|&v| !st.has(v));
                a0 = a1;
            }
            // how far the pairs were swept: a jump to `reach` past the longest split
            // sweeps nothing (ends feed the next reach, which must not grow without end)
            end = a0.min(longest + 1);
            if !missing.is_empty() && longest < full {
                return (extra.split_off(first_fresh), Some(n));
            }
        }
        ends.push(end);
        let v = missing.first().copied().unwrap_or(c);
        tab.set(n, v);
        *maxv = (*maxv).max(v);
        if m.is_rare(n, v) {
            extra.push((n, v));
        }
    }
    (extra.split_off(first_fresh), None)
}

/// One lane of a block with narrow rows (values below 64·W, W <= [`VECTOR_WORDS`]): its
/// own marks are W words in registers, and the mex, the surely absent value and the
/// missing abundant ones are word operations (the same answer as the stamps and
/// [`surely_absent`] of the wide path).
struct Lane<'a> {
    br: &'a Breaker,
    tab: Table,
    bk: Bulk,
    /// The block's rows (the layout of [`mark_lanes`]) and this lane's index.
    row: (&'a [u64], usize),
    m: Mask,
    /// Every option value is below this power of two.
    cap: u32,
    /// Rare parts the bulk left out (see `finish_block`).
    extra: &'a [(u64, u32)],
    /// [`class_words`] of the words 0..VECTOR_WORDS.
    odd: &'a [u64; VECTOR_WORDS],
    /// Sweeps read parts below this only ([`CUT`] when a witness lies beyond).
    limit: u64,
}

/// Sets bit v of the W words `own` (v < 64·W) with no memory access: each word takes the
/// bit only when v falls in it.
#[inline(always)]
fn own_set<const W: usize>(own: &mut [u64; W], v: u32) {
    let bit = 1u64 << (v & 63);
    let word = (v >> 6) as usize;
    for (j, o) in own.iter_mut().enumerate() {
        *o |= if word == j { bit } else { 0 };
    }
}

impl Lane<'_> {
    /// g(n) and how far the sweep went (0: none needed).
    #[inline(always)]
    fn value<const W: usize>(&self, n: u64) -> (u32, u64) {
        let (rows, i) = self.row;
        let lanes = self.bk.lanes;
        let gv = |y: u64| self.tab.get(y);
        let mut own = [0u64; W];
        let mut splits: [(u64, u64); 16] = [(0, 0); 16];
        let mut k = 0;
        // abundant classes of this lane's splits (bit c: class c)
        let mut classes = 0u32;
        for d in &self.br.digits {
            let Some(s) = d.leave_at_most_one(n, gv, |v| own_set(&mut own, v)) else {
                continue;
            };
            if d.two && s >= 2 {
                for &(r, rv) in self.extra {
                    if r >= s {
                        break;
                    }
                    // (rare parts in [MID, SMALL) are in the rows, but for "unequal")
                    if (MID..SMALL).contains(&r) && !d.unequal {
                        continue;
                    }
                    if !(d.unequal && 2 * r == s) {
                        own_set(&mut own, rv ^ gv(s - r));
                    }
                }
                if k < splits.len() {
                    splits[k] = (s, pair_top(s, d.unequal));
                    classes |= 1 << self.m.abundant(s);
                    k += 1;
                }
            }
        }
        let splits = &splits[..k];
        // words of: values below cap, abundant values, absent values
        let mut absent = [0u64; W];
        let mut abundant = [0u64; W];
        for j in 0..W {
            let from = 64 * j as u32;
            let valid = match self.cap.saturating_sub(from) {
                0 => 0,
                b if b >= 64 => !0,
                b => (1u64 << b) - 1,
            };
            absent[j] = !(rows[j * lanes + i] | own[j]) & valid;
            let odd = self.odd[j] & valid;
            abundant[j] = match classes {
                0 => 0,
                1 => !odd & valid,
                2 => odd,
                _ => valid,
            };
        }
        // c: the least absent value that is not abundant (cap when none)
        let mut c = self.cap;
        for j in 0..W {
            let x = absent[j] & !abundant[j];
            if x != 0 {
                c = 64 * j as u32 + x.trailing_zeros();
                break;
            }
        }
        // missing: absent abundant values below c
        let mut missing = [0u64; W];
        let mut any = 0;
        for j in 0..W {
            let from = 64 * j as u32;
            let below = match c.saturating_sub(from) {
                0 => 0,
                b if b >= 64 => !0,
                b => (1u64 << b) - 1,
            };
            missing[j] = absent[j] & abundant[j] & below;
            any |= missing[j];
        }
        if any == 0 {
            return (c, 0);
        }
        // Sweep the pairs the bulk did not make (a < SMALL, then a >= reach), checking
        // between chunks of pairs whether every missing value has turned up.
        let full = splits.iter().map(|x| x.1).max().unwrap_or(0);
        let longest = full.min(self.limit - 1);
        // SAFETY: positions below n are decided; the bulk only reads the table.
        let g = unsafe { self.tab.prefix(n) };
        let mut chunk: u64 = 16;
        let mut a0 = 1;
        while a0 <= longest && any != 0 {
            if (SMALL..self.bk.reach).contains(&a0) {
                a0 = self.bk.reach;
                continue;
            }
            let lim = if a0 < SMALL { SMALL } else { longest + 1 };
            let a1 = (a0 + chunk).min(lim).min(longest + 1);
            chunk = (chunk * 2).min(512);
            for &(s, top) in splits {
                let (s, hi) = (s as usize, a1.min(top + 1) as usize);
                // four pairs a round into four sets of words (no set waits for another)
                assert!(
                    hi <= s.div_ceil(2) + 1 && s <= g.len(),
                    "parts inside the table"
                );
                let mut more = [[0u64; W]; 3];
                let mut a = a0 as usize;
                while a + 4 <= hi {
                    // SAFETY: 1 <= a < hi <= s/2 + 1 (asserted), so a + 3 < s and
                    // s - a <= s - 1 < g.len().
                    let x = unsafe {
                        [
                            *g.get_unchecked(a) ^ *g.get_unchecked(s - a),
                            *g.get_unchecked(a + 1) ^ *g.get_unchecked(s - a - 1),
                            *g.get_unchecked(a + 2) ^ *g.get_unchecked(s - a - 2),
                            *g.get_unchecked(a + 3) ^ *g.get_unchecked(s - a - 3),
                        ]
                    };
                    own_set(&mut own, x[0]);
                    own_set(&mut more[0], x[1]);
                    own_set(&mut more[1], x[2]);
                    own_set(&mut more[2], x[3]);
                    a += 4;
                }
                while a < hi {
                    own_set(&mut own, g[a] ^ g[s - a]);
                    a += 1;
                }
                for j in 0..W {
                    own[j] |= more[0][j] | more[1][j] | more[2][j];
                }
            }
            any = 0;
            for j in 0..W {
                missing[j] &= !own[j];
                any |= missing[j];
            }
            a0 = a1;
        }
        let end = a0.min(longest + 1);
        if any != 0 && longest < full {
            return (CUT, end);
        }
        for (j, &x) in missing.iter().enumerate() {
            if x != 0 {
                return (64 * j as u32 + x.trailing_zeros(), end);
            }
        }
        (c, end)
    }
}

/// The word of values from..from + 64 whose class under `m` (at position 0, as
/// [`Mask::abundant`] compares it) is 1.
#[inline(always)]
fn class_words(m: Mask, from: u32) -> u64 {
    let mut x = 0u64;
    for b in 0..64u32 {
        x |= u64::from(((from + b) & m.bits).count_ones() & 1) << b;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::rule::grundy_by_definition;

    fn by_engine(spec: &str, max: u64) -> Vec<u32> {
        let br = Breaker::of(&Game::parse(spec).unwrap()).unwrap();
        take_break_grundy(&br, max, &mut Watch::quiet()).unwrap().0
    }

    #[test]
    fn plain_scan_equals_the_definition() {
        for spec in [
            "0.77",
            "0.137",
            "4.07",
            "0.3F",
            "0.6",
            "0.16",
            "grundy-game",
            "0.8",
            "4.0",
        ] {
            let g = Game::parse(spec).unwrap();
            assert_eq!(
                by_engine(spec, 400),
                grundy_by_definition(&g, 400),
                "{spec}"
            );
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// Random octal codes of up to four digits, with the sparse path from heap 60 on,
        /// against the definition.
        #[test]
        fn random_octal_codes_equal_the_definition(
            d0 in proptest::prop_oneof![proptest::strategy::Just(0u8), proptest::strategy::Just(4u8)],
            ds in proptest::collection::vec(0u8..8, 1..5),
        ) {
            let mut digits = vec![d0];
            digits.extend(ds);
            let code = crate::games::takebreak::TakeBreak::new(digits);
            let game = Game::TakeBreak(code.clone());
            let br = Breaker::from_code(&code);
            let (fast, _) = take_break_grundy_from(&br, 700, 60, None, &mut Watch::quiet()).unwrap();
            proptest::prop_assert_eq!(fast, grundy_by_definition(&game, 700), "{}", code);
        }
    }

    #[test]
    fn sparse_space_equals_the_plain_scan() {
        // Past the prefix, with masks in use.
        for spec in [
            "0.6",
            "0.16",
            "0.56",
            "0.77",
            "0.07",
            "grundy-game",
            "4.07",
            "0.165",
        ] {
            let br = Breaker::of(&Game::parse(spec).unwrap()).unwrap();
            let (fast, _) = take_break_grundy(&br, 7000, &mut Watch::quiet()).unwrap();
            // plain reference for the same range
            let mut seen = ValueSet::default();
            let mut three = ThreeHeaps::default();
            let mut plain: Vec<u32> = vec![];
            for n in 0..=7000u64 {
                seen.clear();
                plain_options(&br, &plain, n, &mut seen, &mut three);
                plain.push(seen.mex());
            }
            assert_eq!(fast, plain, "{spec}");
        }
    }

    /// The mask leaves the mex a scarce value: 0.034's values are almost all below 256, and
    /// the mask of bit 8 alone (rare class 1) leaves only one rare position but makes every
    /// mex an abundant value, so it must not be chosen (it made 2^20 take 243 s, not 1 s).
    #[test]
    fn masks_are_consistent() {
        let br = Breaker::of(&Game::parse("0.034").unwrap()).unwrap();
        let (_, st) = take_break_grundy(&br, 20_000, &mut Watch::quiet()).unwrap();
        let m = st.mask.expect("0.034 has a sparse structure");
        assert_eq!((m.domain, m.rare), (false, 0), "{m}");
        assert!(st.rare < 2000, "{st:?}");
        // domain masks only where every split removes tokens of one parity
        assert_eq!(
            Breaker::of(&Game::parse("0.6").unwrap())
                .unwrap()
                .domain_rare(),
            Some(1)
        );
        assert_eq!(
            Breaker::of(&Game::parse("0.167").unwrap())
                .unwrap()
                .domain_rare(),
            None
        );
        assert_eq!(
            Breaker::of(&Game::parse("0.07").unwrap())
                .unwrap()
                .domain_rare(),
            Some(0)
        );
    }

    /// The block engine (bulk rows, the crew of helper threads, lanes whose values outgrow
    /// the rows) against the plain scan, with masks chosen early, with 0 to 2 helpers.
    #[test]
    fn block_engine_equals_the_plain_scan() {
        let n = 6000u64;
        for spec in [
            "0.6",
            "0.56",
            "0.16",
            "grundy-game",
            "0.165",
            "0.376",
            "0.36",
            "0.06",
            "4.6",
            // every lane's sweep jumped to `reach` and the reach grew 25% a block until it
            // overflowed (caught by the census of 0.?7)
            "0.67",
            "0.034",
            "0.167",
            "0.56",
        ] {
            let br = Breaker::of(&Game::parse(spec).unwrap()).unwrap();
            let mut seen = ValueSet::default();
            let mut three = ThreeHeaps::default();
            let mut plain: Vec<u32> = vec![];
            for x in 0..=n {
                seen.clear();
                plain_options(&br, &plain, x, &mut seen, &mut three);
                plain.push(seen.mex());
            }
            for helpers in [0, 1, 2] {
                let (fast, _) =
                    take_break_grundy_from(&br, n, 60, Some(helpers), &mut Watch::quiet()).unwrap();
                assert_eq!(fast, plain, "{spec} with {helpers} helper threads");
            }
        }
    }
}
