//! Grundy values of an extended code by a knapsack over part sizes ([`code_grundy`]), on
//! the bit-set rows of `engines::knapsack`.

use crate::engines::knapsack::{bits_mex, bitsets_fit, or_xored_rows, table_len};
use crate::games::code::{Code, CodeDigit, Constraint, Shape};
use crate::observe::Watch;
use std::ops::ControlFlow;

/// One bit per XOR value, for every heap size 0..=N and every layer of part counts.
struct Rows {
    words: usize,
    data: Vec<u64>,
}

impl Rows {
    fn row(&self, t: usize) -> &[u64] {
        &self.data[t * self.words..(t + 1) * self.words]
    }
}

/// Layers of reachable XOR values by number of parts: `exact[j - 2]` for j = 2..=e parts,
/// `open` for more than e parts.
struct Layers {
    exact: Vec<Rows>,
    open: Option<Rows>,
}

/// Grundy values 0..=max of an extended code. Per heap n the mex is taken over the XOR
/// values its moves reach: for each removal i, the heaps left s = n − i split into j
/// parts. The reachable values of s into j parts are kept as bit sets by a knapsack over
/// part sizes a = 1, 2, …, extended when g(a) becomes known, layered by the number of
/// parts (exact up to the largest listed count, then one layer for "more"):
///
/// - plain digits: any number of copies of a (increasing t, in place);
/// - `!`: at most one copy (decreasing t);
/// - `?`: partitions with two or more distinct part sizes. Copies of a join such a
///   partition, or an all-equal one of a smaller size b (whose value is g(b) or 0 by the
///   parity of its count, read off the divisors b of t − a): so no subtraction of sets;
/// - `=` needs no layers: s = j·b gives g(b) for odd j, 0 for even j.
///
/// Work about N²·V/128 word operations per layer (V: the values' bit width rounded to a
/// power of two, at least 64); memory (N + 1)·V/8 bytes per layer.
///
/// # Errors
/// [`crate::Error::Stopped`] when the observer stops it; [`crate::Error::OutOfMemory`]
/// when the layers outgrow what can be allocated.
pub(crate) fn code_grundy(
    code: &Code,
    max: u64,
    room: u64,
    watch: &mut Watch,
) -> Result<Vec<u32>, crate::Error> {
    let len = table_len(max)?;
    // moves that add up to T tokens read the knapsack rows up to max + T
    let rows_len = len + code.adds.len();
    let shapes = code.shapes();
    let mut words = 1usize;
    let new_rows = |words: usize| -> Result<Rows, crate::Error> {
        let n = rows_len
            .checked_mul(words)
            .ok_or(crate::Error::OutOfMemory {
                what: "the knapsack layers",
                bytes: u64::MAX,
                most: None,
            })?;
        let mut data = Vec::new();
        // (probed first: the binary's allocator ends the process when one fails)
        crate::engines::mem::can_allocate((n as u64).saturating_mul(8))
            .then_some(())
            .and_then(|()| data.try_reserve_exact(n).ok())
            .ok_or(())
            .map_err(|_| crate::Error::OutOfMemory {
                what: "the knapsack layers",
                bytes: (n as u64).saturating_mul(8),
                most: None,
            })?;
        data.resize(n, 0);
        Ok(Rows { words, data })
    };
    let make = |shape: Shape, words: usize| -> Result<Layers, crate::Error> {
        let Some((e, open)) = shape else {
            return Ok(Layers {
                exact: vec![],
                open: None,
            });
        };
        let exact = (2..=e)
            .map(|_| new_rows(words))
            .collect::<Result<Vec<_>, _>>()?;
        let open = if open { Some(new_rows(words)?) } else { None };
        Ok(Layers { exact, open })
    };
    // [plain, `!`, `?`]
    let mut layers = [
        make(shapes[0], words)?,
        make(shapes[1], words)?,
        make(shapes[2], words)?,
    ];
    // the divisors of every t (for `?`: the all-equal partitions of t)
    let divisors: Vec<Vec<u32>> = if shapes[2].is_some() {
        let mut d = vec![vec![]; rows_len];
        for b in 1..rows_len {
            for t in (b..rows_len).step_by(b) {
                d[t].push(b as u32);
            }
        }
        d
    } else {
        vec![]
    };
    let mut g: Vec<u32> = Vec::with_capacity(len);
    let mut acc: Vec<u64> = vec![0; words];
    for n in 0..len {
        acc.iter_mut().for_each(|w| *w = 0);
        let set = |acc: &mut [u64], v: u32| acc[(v >> 6) as usize] |= 1 << (v & 63);
        let last = code.max_take().map_or(n, |t| (t as usize).min(n));
        for i in 0..=last {
            let d = code.digit(i as u64);
            if d.is_zero() {
                continue;
            }
            let s = n - i;
            if s == 0 {
                if i > 0 && d.allows(0) {
                    set(&mut acc, 0);
                }
                continue;
            }
            if d.allows(1) {
                set(&mut acc, g[s]);
            }
            if d.splits() && s >= 2 {
                splits_of(&mut acc, d, s, &layers, &g);
            }
        }
        // moves that add t tokens: n + t into j >= t + 2 heaps, every part below n, so the
        // rows (parts 1..n - 1 so far) hold exactly these options
        for (k, d) in code.adds.iter().enumerate() {
            if d.is_zero() || n == 0 {
                continue;
            }
            // (the digit allows no count below t + 2: Code::checked_adds)
            splits_of(&mut acc, d, n + k + 1, &layers, &g);
        }
        let v = bits_mex(&acc, n as u64)?;
        g.push(v);
        // widen every bit set until v fits
        while (v as usize) >= words * 64 {
            let wider = words * 2;
            let rows: usize = layers
                .iter()
                .map(|l| l.exact.len() + l.open.iter().len())
                .sum();
            bitsets_fit(
                (rows as u64 * rows_len as u64 + 1).saturating_mul(wider as u64 * 8),
                room,
            )?;
            for l in layers.iter_mut() {
                for r in l.exact.iter_mut().chain(l.open.iter_mut()) {
                    let mut nr = new_rows(wider)?;
                    for t in 0..rows_len {
                        nr.data[t * wider..t * wider + words].copy_from_slice(r.row(t));
                    }
                    *r = nr;
                }
            }
            words = wider;
            acc = vec![0; words];
        }
        if n > 0 {
            let [plain, dist, nae] = &mut layers;
            add_part(plain, &g, n, rows_len, false);
            add_part(dist, &g, n, rows_len, true);
            add_part_nae(nae, &g, n, rows_len, &divisors);
        }
        watch.at(n as u64 + 1)?;
    }
    Ok(g)
}

/// Adds to `acc` the values of splitting s tokens into the counts of heaps `d` allows
/// (two or more), from the knapsack rows of parts known so far (`=`: from g directly).
fn splits_of(acc: &mut [u64], d: &CodeDigit, s: usize, layers: &[Layers; 3], g: &[u32]) {
    let l = match d.constraint {
        Constraint::AllEqual => {
            for j in 2..=s {
                if s.is_multiple_of(j) && d.allows(j as u64) {
                    let v = if j % 2 == 1 { g[s / j] } else { 0 };
                    acc[(v >> 6) as usize] |= 1 << (v & 63);
                }
            }
            return;
        }
        Constraint::Any => &layers[0],
        Constraint::Unequal => &layers[1],
        Constraint::NotAllEqual => &layers[2],
    };
    for (k, rows) in l.exact.iter().enumerate() {
        let j = k + 2;
        if j <= s && d.allows(j as u64) {
            acc.iter_mut().zip(rows.row(s)).for_each(|(a, x)| *a |= x);
        }
    }
    if d.more {
        if let Some(o) = &l.open {
            acc.iter_mut().zip(o.row(s)).for_each(|(a, x)| *a |= x);
        }
    }
}

/// Extends the layers by the part size `a` (its value `g[a]` now known): any number of
/// copies (in place, increasing t) or, for `distinct`, at most one (decreasing t).
fn add_part(l: &mut Layers, g: &[u32], a: usize, len: usize, distinct: bool) {
    if l.exact.is_empty() || a >= len {
        return;
    }
    let c = g[a];
    let words = l.exact[0].words;
    // Blocks of a heap sizes: the rows of a block read only the block a below it, which
    // is done (any number of copies: increasing blocks) or not yet touched (one copy:
    // decreasing blocks); the rows inside a block are independent.
    let mut starts: Vec<usize> = (a..len).step_by(a).collect();
    if distinct {
        starts.reverse();
    }
    // parts processed before this one, and (unbounded) this one: is {g(u)} a layer-1 row?
    let single = |u: usize| u >= 1 && if distinct { u < a } else { u <= a };
    for b0 in starts {
        let b1 = (b0 + a).min(len);
        one_more_part(l, b0, b1, a, c);
        // two parts: the new one and one part u
        for t in b0..b1 {
            let u = t - a;
            if !single(u) {
                continue;
            }
            let v = c ^ g[u];
            l.exact[0].data[t * words + (v >> 6) as usize] |= 1 << (v & 63);
        }
    }
}

/// The rows of heap sizes b0..b1 of every layer of three or more parts take one more part
/// of value `c` (size `a`) on the rows a below: j parts from j − 1, "more than e" from e
/// and from more than e. The two-part layer is the caller's (it starts from single parts).
fn one_more_part(l: &mut Layers, b0: usize, b1: usize, a: usize, c: u32) {
    let e = l.exact.len() + 1;
    let words = l.exact[0].words;
    let (u0, u1) = (b0 - a, b1 - a);
    if let Some(o) = l.open.as_mut() {
        let (lo, hi) = o.data.split_at_mut(b0 * words);
        let dst = &mut hi[..(b1 - b0) * words];
        or_xored_rows(dst, &lo[u0 * words..u1 * words], words, c);
        or_xored_rows(dst, &l.exact[e - 2].data[u0 * words..u1 * words], words, c);
    }
    for k in (1..e - 1).rev() {
        let (below, rest) = l.exact.split_at_mut(k);
        let src = &below[k - 1].data[u0 * words..u1 * words];
        let dst = &mut rest[0].data[b0 * words..b1 * words];
        or_xored_rows(dst, src, words, c);
    }
}

/// Extends the `?` layers (partitions of two or more distinct part sizes) by the part size
/// `a`: copies of a join such a partition (rows, as in [`add_part`]) or an all-equal
/// partition of a smaller size b, j·b = t − a, whose value is g(b) for odd j and 0 for
/// even j (single bits, from the divisors of t − a). Increasing t, in place: any number
/// of copies.
fn add_part_nae(l: &mut Layers, g: &[u32], a: usize, len: usize, divisors: &[Vec<u32>]) {
    if l.exact.is_empty() || a >= len {
        return;
    }
    let c = g[a];
    let e = l.exact.len() + 1;
    let words = l.exact[0].words;
    let bit = |rows: &mut Rows, t: usize, v: u32| {
        rows.data[t * words + (v >> 6) as usize] |= 1 << (v & 63);
    };
    for b0 in (a..len).step_by(a) {
        let b1 = (b0 + a).min(len);
        one_more_part(l, b0, b1, a, c);
        // all-equal partitions of u into m parts of size b < a, then copies of a
        for t in b0..b1 {
            let u = t - a;
            for &b in divisors[u].iter().take_while(|&&b| (b as usize) < a) {
                let m = u / b as usize;
                let v = c ^ if m % 2 == 1 { g[b as usize] } else { 0 };
                if m < e {
                    bit(&mut l.exact[m - 1], t, v);
                } else if let Some(o) = l.open.as_mut() {
                    bit(o, t, v);
                }
            }
        }
    }
}

impl crate::moves::OptionRule for Code {
    fn for_each_option(
        &self,
        n: u64,
        visit: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        Code::for_each_option(self, n, visit)
    }
    fn grundy(&self, max: u64, room: u64, watch: &mut Watch) -> Result<Vec<u32>, crate::Error> {
        code_grundy(self, max, room, watch)
    }
    fn rows(&self) -> usize {
        Code::rows(self)
    }
    fn bitsets(&self, max: u64) -> f64 {
        Code::rows(self) as f64 * (max as f64 + 1.0)
    }
    fn unions_at(&self, n: f64) -> f64 {
        Code::unions_at(self, n).0
    }
    fn singles_at(&self, n: f64) -> f64 {
        Code::unions_at(self, n).1
    }
}
