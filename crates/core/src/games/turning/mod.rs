//! Coin-turning games (Winning Ways, ch. 14 "Turn and Turn About"; CGSuite's `Spawning`
//! codes). Coins stand in a row at positions 1, 2, 3, …; a move turns over some coins, the
//! rightmost of which must go from heads to tails. A position with heads at c1, c2, … is
//! the sum of heaps c1, c2, …, and heap n is a single head at n: its options are the sets
//! of other coins turned, each a heap. So g(n) is the mex of the XOR of g over the other
//! coins of each move.
//!
//! A code is one or more elements separated by commas, each a range of coins turned (the
//! rightmost included) with modifiers:
//!
//! | written | meaning |
//! |---|---|
//! | `3`, `1-3`, `2+` | exactly 3, 1 to 3, 2 or more coins |
//! | `C` | consecutive coins |
//! | `E` | equally spaced coins |
//! | `S` | coins placed symmetrically (c_i + c_(j+1-i) the same for all i) |
//! | `F` | the leftmost coin turned is coin 1 |
//! | `C(m)` | all coins within a span of m consecutive positions |
//!
//! Named games (Winning Ways, ch. 14; the values of heap n with coins numbered from 1):
//! `turning-turtles` = `turning{1-2}` (Nim: g(n) = n), `mock-turtles` = `turning{1-3}` (g(n)
//! is the n-th odious number, OEIS A000069), `moebius` = `turning{1-5}`, `mogul` =
//! `turning{1-7}`, `ruler` = `turning{1+C}` (g(n) is the largest power of 2 dividing n),
//! `twins` = `turning{2}` (g(n) = n − 1), `triplets` = `turning{3}`, `turnips` =
//! `turning{3E}`, `grunt` = `turning{4SF}` (g(n) is the value of Grundy's game at n − 1).

use crate::observe::Watch;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::ControlFlow;

/// How the coins of a move must be placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Spacing {
    /// Anywhere.
    Any,
    /// `C`: consecutive.
    Consecutive,
    /// `E`: equally spaced.
    Equal,
    /// `S`: symmetric about their centre.
    Symmetric,
}

/// One element of a coin-turning code: how many coins a move turns and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Element {
    /// Fewest coins turned (at least 1, the rightmost included).
    pub min: u64,
    /// Most coins turned (`None`: no limit).
    pub max: Option<u64>,
    /// Where the coins go.
    pub spacing: Spacing,
    /// `F`: the leftmost coin turned is coin 1.
    pub first: bool,
    /// `C(m)`: every coin turned lies within m consecutive positions.
    pub span: Option<u64>,
}

/// A coin-turning game: the moves of any of its elements.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Turning {
    /// The elements, in the order written.
    pub elements: Vec<Element>,
}

/// The named coin-turning games of Winning Ways and their codes.
pub const NAMED: &[(&str, &str)] = &[
    ("turning-turtles", "1-2"),
    ("mock-turtles", "1-3"),
    ("moebius", "1-5"),
    ("mogul", "1-7"),
    ("ruler", "1+C"),
    ("twins", "2"),
    ("triplets", "3"),
    ("turnips", "3E"),
    ("grunt", "4SF"),
];

impl Element {
    /// The most coins turned from heap n (the limit, the span and n itself).
    fn top(&self, n: u64) -> u64 {
        let mut t = self.max.unwrap_or(u64::MAX).min(n);
        if let Some(m) = self.span {
            t = t.min(m);
        }
        t
    }
}

impl fmt::Display for Element {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.max {
            Some(m) if m == self.min => write!(f, "{m}")?,
            Some(m) => write!(f, "{}-{m}", self.min)?,
            None => write!(f, "{}+", self.min)?,
        }
        f.write_str(match self.spacing {
            Spacing::Any => "",
            Spacing::Consecutive => "C",
            Spacing::Equal => "E",
            Spacing::Symmetric => "S",
        })?;
        if self.first {
            f.write_str("F")?;
        }
        if let Some(m) = self.span {
            write!(f, "C({m})")?;
        }
        Ok(())
    }
}

impl fmt::Display for Turning {
    /// `turning{1-3}`, `turning{1+C}`, `turning{2,4SF}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("turning{")?;
        for (i, e) in self.elements.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{e}")?;
        }
        f.write_str("}")
    }
}

impl Turning {
    /// Reads the code between the braces of `turning{…}` (`chars[start..]`, up to `}`).
    /// Returns the game and the index of the `}`.
    ///
    /// # Errors
    /// The 0-based character index of the problem and a message.
    pub(crate) fn parse(chars: &[char], start: usize) -> Result<(Turning, usize), (usize, String)> {
        let mut i = start;
        let mut elements = vec![];
        let skip = |i: &mut usize| {
            while chars.get(*i).is_some_and(|c| c.is_whitespace()) {
                *i += 1;
            }
        };
        let number = |i: &mut usize| -> Result<u64, (usize, String)> {
            let from = *i;
            while chars.get(*i).is_some_and(char::is_ascii_digit) {
                *i += 1;
            }
            if *i == from {
                return Err((from, "expected a number of coins".into()));
            }
            let text: String = chars[from..*i].iter().collect();
            let v: u64 = text
                .parse()
                .map_err(|_| (from, "number too large for 64 bits".to_string()))?;
            if v == 0 {
                return Err((from, "a move turns at least one coin".into()));
            }
            Ok(v)
        };
        loop {
            skip(&mut i);
            let at = i;
            let min = number(&mut i)?;
            let max = match chars.get(i) {
                Some('-') => {
                    i += 1;
                    let m = number(&mut i)?;
                    if m < min {
                        return Err((at, format!("empty range {min}-{m}")));
                    }
                    Some(m)
                }
                Some('+') => {
                    i += 1;
                    None
                }
                _ => Some(min),
            };
            let mut e = Element {
                min,
                max,
                spacing: Spacing::Any,
                first: false,
                span: None,
            };
            loop {
                let set = |e: &mut Element, s: Spacing, at: usize| {
                    if e.spacing != Spacing::Any {
                        return Err((at, "one of C, E, S per element".to_string()));
                    }
                    e.spacing = s;
                    Ok(())
                };
                match chars.get(i).map(|c| c.to_ascii_uppercase()) {
                    Some('C') if chars.get(i + 1) == Some(&'(') => {
                        i += 2;
                        if chars.get(i) == Some(&'0') {
                            return Err((i, "a span C(m) needs m >= 1".into()));
                        }
                        let m = number(&mut i)?;
                        if chars.get(i) != Some(&')') {
                            return Err((i, "expected ')' after C(m".into()));
                        }
                        i += 1;
                        if e.span.replace(m).is_some() {
                            return Err((at, "one C(m) per element".into()));
                        }
                    }
                    Some('C') => {
                        set(&mut e, Spacing::Consecutive, i)?;
                        i += 1;
                    }
                    Some('E') => {
                        set(&mut e, Spacing::Equal, i)?;
                        i += 1;
                    }
                    Some('S') => {
                        set(&mut e, Spacing::Symmetric, i)?;
                        i += 1;
                    }
                    Some('F') => {
                        if e.first {
                            return Err((i, "F twice".into()));
                        }
                        e.first = true;
                        i += 1;
                    }
                    _ => break,
                }
            }
            elements.push(e);
            skip(&mut i);
            match chars.get(i) {
                Some(',') => i += 1,
                Some('}') => break,
                Some(c) => {
                    return Err((
                        i,
                        format!("unexpected '{c}' in a coin-turning code (ranges 1-3, 2+ and C, E, S, F, C(m))"),
                    ))
                }
                None => return Err((i, "expected '}' to close turning{".into())),
            }
        }
        // the same element twice is the same moves once
        let mut seen = vec![];
        elements.retain(|e| {
            let fresh = !seen.contains(e);
            seen.push(*e);
            fresh
        });
        Ok((Turning { elements }, i))
    }

    /// Calls `visit` with the other coins (increasing) of every move from a single head at
    /// n. Lists every move: for tests, sums and small heaps only.
    pub fn for_each_option(
        &self,
        n: u64,
        visit: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut coins = Vec::new();
        for e in &self.elements {
            for j in e.min..=e.top(n) {
                coins.clear();
                others(e, n, j, &mut coins, visit)?;
            }
        }
        ControlFlow::Continue(())
    }
}

impl Turning {
    /// About how many bit-set rows are united (and knapsack rows extended), and how many
    /// moves listed one by one, for heap n (for the engine's cost).
    pub(crate) fn unions_at(&self, n: f64) -> (f64, f64) {
        let (mut rows, mut singles) = (0.0, 0.0);
        // C(m, 0) + C(m, 1) + … + C(m, k), term by term (2^m when k >= m), stopping once
        // past any cost worth counting
        let choose_upto = |m: f64, k: f64| -> f64 {
            if k >= m {
                return m.exp2();
            }
            let (mut term, mut sum) = (1.0f64, 1.0f64);
            let mut i = 0.0;
            while i < k && sum < 1e30 {
                term *= (m - i) / (i + 1.0);
                sum += term;
                i += 1.0;
            }
            sum
        };
        for e in &self.elements {
            let hi = e.max.map_or(n, |m| (m as f64).min(n));
            match (e.spacing, e.span) {
                // the unions, the knapsack layers' updates and the XOR inside each word:
                // about 8 row passes per size (Moebius, turning{1-5}: to 1000 in 4.5 s, to
                // 2000 in 69 s measured here; 2 per size estimated 1.5 s and 14 s)
                (Spacing::Any, None) => rows += 8.0 * (hi - e.min as f64 + 2.0),
                (Spacing::Consecutive, None) if e.max.is_none() && !e.first => rows += 1.0,
                (Spacing::Consecutive, _) => singles += hi,
                (Spacing::Equal, _) => singles += n * (hi.max(2.0)).ln() + n,
                (Spacing::Any, Some(m)) => {
                    let m = (m as f64 - 1.0).min(n);
                    singles += choose_upto(m, hi);
                }
                (Spacing::Symmetric, _) => {
                    let pairs = ((hi - 2.0) / 2.0).max(0.0);
                    let fs = if e.first { 1.0 } else { n };
                    let per_f = if e.max.is_none() {
                        (n / 2.0).exp2()
                    } else {
                        choose_upto(n / 2.0, pairs)
                    };
                    singles += fs * per_f;
                }
            }
        }
        (rows, singles)
    }
}

/// The leftmost position a coin may take from heap n under `e`'s span.
fn lowest(e: &Element, n: u64) -> u64 {
    e.span.map_or(1, |m| (n + 1).saturating_sub(m).max(1))
}

/// Every placement of j − 1 other coins below n under `e`.
fn others(
    e: &Element,
    n: u64,
    j: u64,
    coins: &mut Vec<u64>,
    visit: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let lo = lowest(e, n);
    let k = j - 1;
    if k == 0 {
        return if !e.first || n == 1 {
            visit(&[])
        } else {
            ControlFlow::Continue(())
        };
    }
    let ok_first = |c: &[u64]| !e.first || c.first() == Some(&1);
    match e.spacing {
        Spacing::Consecutive => {
            if n > k && n - k >= lo {
                let c: Vec<u64> = (n - k..n).collect();
                if ok_first(&c) {
                    visit(&c)?;
                }
            }
        }
        Spacing::Equal => {
            let mut d = 1;
            while k.saturating_mul(d) < n && n - k * d >= lo {
                let c: Vec<u64> = (1..=k).rev().map(|i| n - i * d).collect();
                if ok_first(&c) {
                    visit(&c)?;
                }
                d += 1;
            }
        }
        Spacing::Any => {
            // subsets of size k of lo..n-1, increasing
            fn pick(
                from: u64,
                n: u64,
                left: u64,
                first: bool,
                coins: &mut Vec<u64>,
                visit: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
            ) -> ControlFlow<()> {
                if left == 0 {
                    return visit(coins);
                }
                let top = if first && coins.is_empty() {
                    from.min(1)
                } else {
                    n - left
                };
                for c in from..=top {
                    coins.push(c);
                    let r = pick(c + 1, n, left - 1, first, coins, visit);
                    coins.pop();
                    r?;
                }
                ControlFlow::Continue(())
            }
            if n > k && n - k >= lo && (!e.first || lo == 1) {
                pick(lo, n, k, e.first, coins, visit)?;
            }
        }
        Spacing::Symmetric => {
            // the leftmost coin f, then k - 1 coins strictly between f and n, symmetric
            let f_top = if e.first { 1 } else { n.saturating_sub(k) };
            for f in lo..=f_top.min(n.saturating_sub(1)) {
                if n - f < k {
                    continue;
                }
                let inner = k - 1;
                let sum = f + n;
                let center = sum.is_multiple_of(2).then_some(sum / 2);
                let pairs_needed = inner / 2;
                let with_center = inner % 2 == 1;
                if with_center && center.is_none() {
                    continue;
                }
                // pairs (b, sum - b) with f < b < sum - b
                let b_top = (sum - 1) / 2;
                let mut chosen: Vec<u64> = Vec::new();
                fn pairs(
                    from: u64,
                    b_top: u64,
                    left: u64,
                    chosen: &mut Vec<u64>,
                    done: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
                ) -> ControlFlow<()> {
                    if left == 0 {
                        return done(chosen);
                    }
                    for b in from..=b_top {
                        chosen.push(b);
                        let r = pairs(b + 1, b_top, left - 1, chosen, done);
                        chosen.pop();
                        r?;
                    }
                    ControlFlow::Continue(())
                }
                pairs(f + 1, b_top, pairs_needed, &mut chosen, &mut |bs| {
                    if with_center && bs.contains(&center.unwrap_or(0)) {
                        return ControlFlow::Continue(());
                    }
                    let mut c = vec![f];
                    c.extend(bs.iter().copied());
                    c.extend(bs.iter().map(|b| sum - b));
                    if with_center {
                        c.extend(center);
                    }
                    c.sort_unstable();
                    visit(&c)
                })?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// Grundy values 0..=max of a coin-turning game (g(0) = 0: no coin). Per heap n the mex
/// over the XOR of g over the other coins of each move:
///
/// - coins anywhere (no span): every k-subset of the coins below n, as bit sets of XOR
///   values per k kept by a 0/1 knapsack over the coins (one more coin per heap), with one
///   set for "more than the largest k listed" — about (k + 1)·V/64 word operations a heap;
/// - consecutive coins: prefix XORs, P(n − 1) ^ P(n − j) (with no limit: a bit set of the
///   prefixes);
/// - everything else (equally spaced, symmetric, a span): each move listed.
///
/// # Errors
/// [`crate::Error::Stopped`] when the observer stops it.
pub(crate) fn turning_grundy(
    t: &Turning,
    max: u64,
    room: u64,
    watch: &mut Watch,
) -> Result<Vec<u32>, crate::Error> {
    let len = crate::engines::knapsack::table_len(max)?;
    let mut g: Vec<u32> = Vec::with_capacity(len);
    g.push(0);
    // knapsack layers over the coins for the "anywhere" elements: subsets of size k
    // (k = 0..=kmax; the last is "kmax or more" when some element has no limit)
    let free: Vec<&Element> = t
        .elements
        .iter()
        .filter(|e| e.spacing == Spacing::Any && e.span.is_none())
        .collect();
    let kmax = free
        .iter()
        .map(|e| e.max.map_or(e.min - 1, |m| m - 1))
        .max()
        .unwrap_or(0)
        // no move turns more coins than there are: sizes past N need no layer
        .min(max) as usize;
    let open = free.iter().any(|e| e.max.is_none_or(|m| m - 1 > max));
    let mut words = 1usize;
    // knapsack layers: subsets of size k = 0..=kmax exactly, and one of more than kmax
    struct Sack {
        exact: Vec<Vec<u64>>,
        more: Vec<u64>,
    }
    let new_sack = |words: usize| {
        let mut exact = vec![vec![0u64; words]; kmax + 1];
        exact[0][0] = 1;
        Sack {
            exact,
            more: vec![0; words],
        }
    };
    // coins 1..n-1, and coins 2..n-1 (for F: coin 1 then the rest)
    let mut plain = new_sack(words);
    let mut from2 = new_sack(words);
    // prefix XORs; for each consecutive element without a limit, the set of the prefixes
    // it may use so far and how many are in
    let mut prefix: Vec<u32> = vec![0];
    let mut psets: Vec<(Vec<u64>, u64)> =
        t.elements.iter().map(|_| (vec![0u64; words], 0)).collect();
    let any_first = free.iter().any(|e| e.first);
    let mut acc = vec![0u64; words];
    for n in 1..len as u64 {
        acc.iter_mut().for_each(|w| *w = 0);
        for (ei, e) in t.elements.iter().enumerate() {
            let top = e.top(n);
            if e.min > top {
                continue;
            }
            match (e.spacing, e.span) {
                (Spacing::Any, None) => {
                    // k other coins, k in min-1..=top-1
                    let (k_lo, k_hi) = ((e.min - 1) as usize, (top - 1) as usize);
                    if e.first {
                        if n == 1 {
                            if k_lo == 0 {
                                set_bit(&mut acc, 0);
                            }
                            continue;
                        }
                        // coin 1 and k - 1 coins of 2..n-1
                        let g1 = g[1];
                        for k in k_lo.max(1)..=k_hi.min(kmax + 1) {
                            or_xor_grow(&mut acc, &from2.exact[k - 1], g1);
                        }
                        if k_hi > kmax + 1 {
                            or_xor_grow(&mut acc, &from2.more, g1);
                        }
                    } else {
                        for k in k_lo..=k_hi.min(kmax) {
                            or_xor_grow(&mut acc, &plain.exact[k], 0);
                        }
                        if k_hi > kmax {
                            or_xor_grow(&mut acc, &plain.more, 0);
                        }
                    }
                }
                (Spacing::Consecutive, None) if e.max.is_none() && !e.first => {
                    // P(n-1) ^ P(i) for i = 0..=n-min: the prefixes so far, as a bit set
                    let (set, have) = &mut psets[ei];
                    while *have <= n - e.min {
                        set_bit(set, prefix[*have as usize]);
                        *have += 1;
                    }
                    or_xor_grow(&mut acc, set, prefix[n as usize - 1]);
                }
                _ => {
                    let gs = &g;
                    let _ = t_one(e, n, &mut |coins| {
                        set_bit(&mut acc, coins.iter().fold(0, |x, &c| x ^ gs[c as usize]));
                        ControlFlow::Continue(())
                    });
                }
            }
        }
        let v = crate::engines::knapsack::bits_mex(&acc, n)?;
        g.push(v);
        prefix.push(prefix[n as usize - 1] ^ v);
        while (v as usize) >= words * 64 {
            let sets = 2 * (kmax as u64 + 2) + psets.len() as u64 + 1;
            crate::engines::knapsack::bitsets_fit(sets.saturating_mul(words as u64 * 16), room)?;
            words *= 2;
            for sack in [&mut plain, &mut from2] {
                for l in sack.exact.iter_mut() {
                    l.resize(words, 0);
                }
                sack.more.resize(words, 0);
            }
            for (p, _) in psets.iter_mut() {
                p.resize(words, 0);
            }
            acc.resize(words, 0);
        }
        // coin n joins the knapsacks (at most once: the larger sizes first)
        let add = |sack: &mut Sack| {
            let last = sack.exact[kmax].clone();
            if open {
                let more = sack.more.clone();
                xor_or_into(&mut sack.more, &last, v);
                xor_or_into(&mut sack.more, &more, v);
            }
            for k in (1..=kmax).rev() {
                let (a, b) = sack.exact.split_at_mut(k);
                xor_or_into(&mut b[0], &a[k - 1], v);
            }
        };
        if !free.is_empty() {
            add(&mut plain);
            if n >= 2 && any_first {
                add(&mut from2);
            }
        }
        watch.at(n + 1)?;
    }
    Ok(g)
}

/// Sets bit v (below 64 · `acc.len()`).
fn set_bit(acc: &mut [u64], v: u32) {
    acc[(v >> 6) as usize] |= 1 << (v & 63);
}

/// `acc |= {x ^ c : x in src}`, both as long, c below 64 times their length.
fn or_xor_grow(acc: &mut [u64], src: &[u64], c: u32) {
    crate::engines::knapsack::or_xored_rows(acc, src, acc.len(), c);
}

/// `dst |= {x ^ c : x in src}`, both `words` long.
fn xor_or_into(dst: &mut [u64], src: &[u64], c: u32) {
    crate::engines::knapsack::or_xored_rows(dst, src, dst.len(), c);
}

/// Every move of element `e` from heap n (the other coins).
fn t_one(e: &Element, n: u64, visit: &mut dyn FnMut(&[u64]) -> ControlFlow<()>) -> ControlFlow<()> {
    let mut coins = Vec::new();
    for j in e.min..=e.top(n) {
        coins.clear();
        others(e, n, j, &mut coins, visit)?;
    }
    ControlFlow::Continue(())
}

impl crate::moves::OptionRule for Turning {
    fn for_each_option(
        &self,
        n: u64,
        visit: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        Turning::for_each_option(self, n, visit)
    }
    fn grundy(&self, max: u64, room: u64, watch: &mut Watch) -> Result<Vec<u32>, crate::Error> {
        turning_grundy(self, max, room, watch)
    }
    fn bitsets(&self, max: u64) -> f64 {
        Turning::unions_at(self, max as f64).0 + 2.0
    }
    fn unions_at(&self, n: f64) -> f64 {
        Turning::unions_at(self, n).0
    }
    fn singles_at(&self, n: f64) -> f64 {
        Turning::unions_at(self, n).1
    }
    fn removed(&self, _n: u64, _heaps: &[u64]) -> u64 {
        0
    }
    fn turns_coins(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod extremes;
