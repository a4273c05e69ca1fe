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

use crate::spec::TakeBreak;
use rayon::prelude::*;

/// How one digit breaks a heap: after removing `take` tokens, leave one, two or three heaps.
#[derive(Debug, Clone, Copy)]
struct Digit {
    take: u64,
    nothing: bool,
    one: bool,
    two: bool,
    three: bool,
    /// Two heaps must be unequal (Grundy's game).
    unequal: bool,
}

/// A take-and-break rule prepared for evaluation.
#[derive(Debug, Clone)]
pub struct Breaker {
    digits: Vec<Digit>,
}

impl Breaker {
    /// From a code.
    pub fn from_code(code: &TakeBreak) -> Breaker {
        let digits = code
            .digits
            .iter()
            .enumerate()
            .filter(|(_, &d)| d != 0)
            .map(|(i, &d)| Digit {
                take: i as u64,
                nothing: i > 0 && d & 1 != 0,
                one: i > 0 && d & 2 != 0,
                two: d & 4 != 0,
                three: d & 8 != 0,
                unequal: false,
            })
            .collect();
        Breaker { digits }
    }

    /// Grundy's game: split a heap into two unequal non-empty heaps.
    pub fn grundy_game() -> Breaker {
        Breaker {
            digits: vec![Digit {
                take: 0,
                nothing: false,
                one: false,
                two: true,
                three: false,
                unequal: true,
            }],
        }
    }

    fn has_three(&self) -> bool {
        self.digits.iter().any(|d| d.three)
    }
}

/// A growable bitset of small values.
#[derive(Default)]
struct Seen(Vec<u64>);

impl Seen {
    #[inline]
    fn set(&mut self, v: u32) {
        let w = (v >> 6) as usize;
        if w >= self.0.len() {
            self.0.resize(w + 1, 0);
        }
        self.0[w] |= 1 << (v & 63);
    }
    /// Room for every value below 2^bits.
    fn ensure(&mut self, bits: u32) {
        let words = (1usize << bits).div_ceil(64);
        if self.0.len() < words {
            self.0.resize(words, 0);
        }
    }
    /// `set` for values below the capacity given to [`Seen::ensure`].
    #[inline(always)]
    fn set_fast(&mut self, v: u32) {
        debug_assert!(((v >> 6) as usize) < self.0.len());
        // SAFETY: callers keep v below the ensured capacity.
        unsafe { *self.0.get_unchecked_mut((v >> 6) as usize) |= 1 << (v & 63) };
    }
    #[inline(always)]
    fn get_fast(&self, v: u32) -> bool {
        debug_assert!(((v >> 6) as usize) < self.0.len());
        // SAFETY: as for set_fast.
        unsafe { *self.0.get_unchecked((v >> 6) as usize) >> (v & 63) & 1 == 1 }
    }
    fn clear(&mut self) {
        self.0.iter_mut().for_each(|w| *w = 0);
    }
    /// Least value not set, at least `from`.
    fn next_free(&self, from: u32) -> u32 {
        let mut v = from;
        loop {
            let w = (v >> 6) as usize;
            if w >= self.0.len() {
                return v;
            }
            let free = !self.0[w] & (u64::MAX << (v & 63));
            if free != 0 {
                return (w as u32) * 64 + free.trailing_zeros();
            }
            v = (w as u32 + 1) * 64;
        }
    }
}

/// The pairs (a, s - a) a split of s into two heaps may leave: a = 1..=s/2 (a < s - a when
/// `unequal`).
#[inline]
fn pair_range(s: u64, unequal: bool) -> std::ops::RangeInclusive<u64> {
    let top = if unequal { (s - 1) / 2 } else { s / 2 };
    1..=top
}

/// Values of every single-heap option and every two-heap split of position n, marked in
/// `seen` by the plain scan (O(n) per split digit).
fn plain_options(br: &Breaker, g: &[u32], n: u64, seen: &mut Seen, three: &mut ThreeHeaps) {
    for d in &br.digits {
        if d.take > n {
            continue;
        }
        let s = n - d.take;
        if d.nothing && s == 0 {
            seen.set(0);
        }
        if d.one && s >= 1 {
            seen.set(g[s as usize]);
        }
        if d.two && s >= 2 {
            let r = pair_range(s, d.unequal);
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
                        seen.set(w as u32 * 64 + b.trailing_zeros());
                        b &= b - 1;
                    }
                }
            } else {
                for a in r {
                    seen.set(g[a as usize] ^ g[(s - a) as usize]);
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
            let mut set = Seen::default();
            for a in 1..t {
                set.set(g[a as usize] ^ g[(t - a) as usize]);
            }
            self.x2.push(set.0);
        }
        &self.x2[s as usize]
    }

    fn mark(&mut self, g: &[u32], s: u64, seen: &mut Seen) {
        for a in 1..=s - 2 {
            let ga = g[a as usize];
            let bits = self.x2(g, s - a).to_vec();
            for (w, &word) in bits.iter().enumerate() {
                let mut b = word;
                while b != 0 {
                    seen.set(ga ^ (w as u32 * 64 + b.trailing_zeros()));
                    b &= b - 1;
                }
            }
        }
    }
}

/// A classification of positions into rare and common.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    fn is_rare(self, x: u64, v: u32) -> bool {
        self.class(x, v) == self.rare
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
const PREFIX: u64 = 3000;

/// Grundy values 0..=max of a take-and-break rule.
///
/// For octal rules (two heaps at most, no "unequal" constraint), the sequence is checked
/// for periodicity at n = 2^12, 2^13, …; once a period p with preperiod n0 is proven by the
/// Guy–Smith theorem (values known to n >= 2·n0 + 2p + t, t the last code digit; Guy and
/// Smith 1956, "The G-values of various games"), every later value is copied from the
/// period instead of computed.
pub fn take_break_grundy(br: &Breaker, max: u64) -> (Vec<u32>, OctalStats) {
    take_break_grundy_from(br, max, PREFIX)
}

/// [`take_break_grundy`] with the plain-scan prefix given (tests use short ones so the
/// sparse-space path runs on small heaps too).
pub(crate) fn take_break_grundy_from(
    br: &Breaker,
    max: u64,
    prefix: u64,
) -> (Vec<u32>, OctalStats) {
    let mut g: Vec<u32> = Vec::with_capacity(max as usize + 1);
    let mut stats = OctalStats::default();
    let mut seen = Seen::default();
    let mut three = ThreeHeaps::default();
    let prefix = max.min(prefix);
    for n in 0..=prefix {
        seen.clear();
        plain_options(br, &g, n, &mut seen, &mut three);
        g.push(seen.next_free(0));
    }
    stats.plain = prefix + 1;
    if prefix == max {
        return (g, stats);
    }
    let has_two = br.digits.iter().any(|d| d.two);
    let sparse_ok = !br.has_three() && has_two;
    let mut mask = if sparse_ok {
        choose_mask(&g, g.len() / 2).map(|m| m.0)
    } else {
        None
    };
    let mut rare: Vec<u64> = Vec::new();
    let mut common: Vec<u8> = Vec::new();
    let classify = |m: Mask, g: &[u32], rare: &mut Vec<u64>, common: &mut Vec<u8>| {
        rare.clear();
        common.clear();
        for (x, &v) in g.iter().enumerate() {
            let r = x > 0 && m.is_rare(x as u64, v);
            if r {
                rare.push(x as u64);
            }
            common.push(u8::from(!r && x > 0));
        }
    };
    if let Some(m) = mask {
        classify(m, &g, &mut rare, &mut common);
    }
    let mut maxv = g.iter().copied().max().unwrap_or(0);
    // Guy–Smith applies to octal rules: at most two heaps, any pair of parts allowed.
    let t = br.digits.iter().map(|d| d.take).max().unwrap_or(0);
    let octal = !br.has_three() && br.digits.iter().all(|d| !d.unequal);
    let mut next_check = (prefix + 1).next_power_of_two().max(1 << 12);
    for n in prefix + 1..=max {
        let v = match mask {
            Some(m) => {
                let bits = 32 - (maxv + 1).leading_zeros();
                let v = sparse_value(br, &g, &common, bits, &rare, m, n, &mut seen);
                let r = m.is_rare(n, v);
                if r {
                    rare.push(n);
                }
                common.push(u8::from(!r));
                v
            }
            None => {
                seen.clear();
                plain_options(br, &g, n, &mut seen, &mut three);
                stats.plain += 1;
                seen.next_free(0)
            }
        };
        g.push(v);
        maxv = maxv.max(v);
        if n == next_check {
            next_check *= 2;
            // Re-choose the mask on the recent half (the sequence's structure may only show
            // later), and switch when it leaves clearly fewer rare positions.
            if sparse_ok {
                let from = g.len() / 2;
                if let Some((m, count)) = choose_mask(&g, from) {
                    let now = match mask {
                        Some(cur) => (from..g.len())
                            .filter(|&x| cur.is_rare(x as u64, g[x]))
                            .count(),
                        None => usize::MAX,
                    };
                    if count * 2 < now {
                        mask = Some(m);
                        classify(m, &g, &mut rare, &mut common);
                        stats.rebuilds += 1;
                    }
                }
            }
            if octal {
                let a: Vec<i64> = g.iter().map(|&x| x as i64).collect();
                if let Some(per) = crate::period::find_period(&a, false) {
                    if n >= 2 * per.preperiod + 2 * per.period + t {
                        stats.period = Some((per.preperiod, per.period));
                        for m in n + 1..=max {
                            let src = per.preperiod + (m - per.preperiod) % per.period;
                            g.push(g[src as usize]);
                        }
                        break;
                    }
                }
            }
        }
    }
    stats.rare = rare.len() as u64;
    stats.mask = mask;
    (g, stats)
}

/// Picks the mask (bits, type, rare class) leaving the fewest rare positions among
/// `g[from..]`, by a histogram of (value, position parity); with it, how many that is.
/// None when even the best leaves a quarter of them rare.
fn choose_mask(g: &[u32], from: usize) -> Option<(Mask, usize)> {
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

/// g(n) by the sparse-space method (see the module documentation).
#[allow(clippy::too_many_arguments)]
fn sparse_value(
    br: &Breaker,
    g: &[u32],
    common: &[u8],
    bits: u32,
    rare: &[u64],
    mask: Mask,
    n: u64,
    seen: &mut Seen,
) -> u32 {
    seen.clear();
    seen.ensure(bits);
    for d in &br.digits {
        if d.take > n {
            continue;
        }
        let s = n - d.take;
        if d.nothing && s == 0 {
            seen.set(0);
        }
        if d.one && s >= 1 {
            seen.set(g[s as usize]);
        }
        if d.two && s >= 2 {
            // Every pair with a rare part: a rare, b = s - a.
            for &r in rare {
                if r >= s {
                    break;
                }
                let b = s - r;
                if d.unequal && r == b {
                    continue;
                }
                // XOR of two values below 2^bits stays below it.
                seen.set_fast(g[r as usize] ^ g[b as usize]);
            }
        }
    }
    // Values of the abundant class for some split may still come from pairs of two common
    // parts; every other value is listed completely above. The answer is the least value
    // not produced: find the least value c that is surely absent (not listed and never
    // abundant), then collect abundant values below c from common pairs in one sweep until
    // every one of them has turned up — or the sweep ends and the least missing one wins.
    let mut splits: [(u64, u64, u32); 16] = [(0, 0, 0); 16];
    let mut k = 0;
    for d in &br.digits {
        if d.two && d.take <= n && n - d.take >= 2 && k < splits.len() {
            let s = n - d.take;
            splits[k] = (s, *pair_range(s, d.unequal).end(), mask.abundant(s));
            k += 1;
        }
    }
    let splits = &splits[..k];
    let abundant = |v: u32| {
        let c = mask.class(0, v);
        splits.iter().any(|x| x.2 == c)
    };
    let mut c = 0;
    let mut missing: Vec<u32> = Vec::new();
    // No option value reaches 2^bits, so that one is surely absent.
    let cap = 1u32 << bits;
    loop {
        c = seen.next_free(c);
        if c >= cap || !abundant(c) {
            break;
        }
        missing.push(c);
        c += 1;
    }
    if missing.is_empty() {
        return c;
    }
    // The sweep runs in branch-free chunks (every value of a common-common pair is set),
    // and the list of missing values is checked between chunks.
    // Chunks grow from 16 pairs (most sweeps end early) to 512.
    let mut chunk: u64 = 16;
    let longest = splits.iter().map(|x| x.1).max().unwrap_or(0);
    let mut a0 = 1;
    while a0 <= longest && !missing.is_empty() {
        let a1 = (a0 + chunk).min(longest + 1);
        chunk = (chunk * 2).min(512);
        for &(s, top, _) in splits {
            for a in a0..a1.min(top + 1) {
                let b = s - a;
                // SAFETY: 1 <= a < b <= s <= n - 1 < g.len() == common.len(), and the XOR
                // of two values below 2^bits is below the ensured capacity.
                unsafe {
                    let both =
                        *common.get_unchecked(a as usize) & *common.get_unchecked(b as usize);
                    let x = *g.get_unchecked(a as usize) ^ *g.get_unchecked(b as usize);
                    *seen.0.get_unchecked_mut((x >> 6) as usize) |= u64::from(both) << (x & 63);
                }
            }
        }
        missing.retain(|&v| !seen.get_fast(v));
        a0 = a1;
    }
    missing.first().copied().unwrap_or(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::grundy_by_definition;
    use crate::spec::Game;

    fn by_engine(spec: &str, max: u64) -> Vec<u32> {
        let g = Game::parse(spec).unwrap();
        let br = match &g {
            Game::TakeBreak(c) => Breaker::from_code(c),
            Game::GrundyGame => Breaker::grundy_game(),
            _ => unreachable!(),
        };
        take_break_grundy(&br, max).0
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
            let code = crate::spec::TakeBreak::new(digits);
            let game = Game::TakeBreak(code.clone());
            let br = Breaker::from_code(&code);
            let (fast, _) = take_break_grundy_from(&br, 700, 60);
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
            let g = Game::parse(spec).unwrap();
            let br = match &g {
                Game::TakeBreak(c) => Breaker::from_code(c),
                _ => Breaker::grundy_game(),
            };
            let (fast, _) = take_break_grundy(&br, 7000);
            // plain reference for the same range
            let mut seen = Seen::default();
            let mut three = ThreeHeaps::default();
            let mut plain: Vec<u32> = vec![];
            for n in 0..=7000u64 {
                seen.clear();
                plain_options(&br, &plain, n, &mut seen, &mut three);
                plain.push(seen.next_free(0));
            }
            assert_eq!(fast, plain, "{spec}");
        }
    }
}
