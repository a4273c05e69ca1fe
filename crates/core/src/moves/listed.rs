//! The amounts of one-heap moves listed a segment of heaps at a time, as CSR lists: the
//! amounts of heap n are `amounts[start[n - lo]..start[n - lo + 1]]`. Divisors are found
//! by pairs (a sieve over the segment), every other structure heap by heap.

use crate::moves::Moves;
use crate::num::isqrt;
use crate::observe::{Stopped, Watch};

/// Most amounts one segment lists (2 MiB of them, so the lists stay in cache) before it
/// ends early: a rule with n / 2 amounts a heap lists a few heaps at a time, not 2^16 (which
/// took 24 GiB at heap 10^5). (2^22 amounts, 32 MiB, made `divisors|squares` to 10^5 take
/// twice as long as listing a heap at a time.)
pub const LIST_AMOUNTS_MAX: usize = 1 << 18;

/// Most heaps one segment lists.
pub const SEGMENT_HEAPS: u64 = 1 << 16;

/// One segment's lists: the heaps `lo..hi()`, each with its amounts.
#[derive(Debug)]
pub struct Lists {
    lo: u64,
    start: Vec<usize>,
    amounts: Vec<u64>,
}

impl Lists {
    /// The first heap after the segment (the next segment's `lo`).
    pub fn hi(&self) -> u64 {
        self.lo + self.start.len() as u64 - 1
    }

    /// The amounts of heap `n`, `lo <= n < hi()` (unordered for divisors).
    pub fn of(&self, n: u64) -> &[u64] {
        let i = (n - self.lo) as usize;
        &self.amounts[self.start[i]..self.start[i + 1]]
    }
}

/// The amounts of the heaps lo, lo + 1, … (at most [`SEGMENT_HEAPS`] of them, none above
/// `max`) of a one-heap structure: at least heap lo, and further heaps while fewer than
/// [`LIST_AMOUNTS_MAX`] amounts are listed. `lo <= max` is required.
pub fn segment_lists(moves: &Moves, lo: u64, max: u64) -> Lists {
    let hi = lo.saturating_add(SEGMENT_HEAPS).min(max.saturating_add(1));
    if let Moves::Divisors { nontrivial } = moves {
        let (start, amounts) = divisor_lists(lo, hi, *nontrivial);
        return Lists { lo, start, amounts };
    }
    let mut start = vec![0usize];
    let mut amounts = vec![];
    for n in lo..hi {
        if n > lo && amounts.len() >= LIST_AMOUNTS_MAX {
            break;
        }
        moves.amounts(n, &mut amounts);
        start.push(amounts.len());
    }
    Lists { lo, start, amounts }
}

/// Calls `each(n, options of n)` for n = 0..=max in order, with the heaps each amount of a
/// one-heap structure leaves (listed a segment at a time by [`segment_lists`]); `watch`
/// sees every heap and may stop the walk.
pub(crate) fn walk_options(
    moves: &Moves,
    max: u64,
    watch: &mut Watch,
    mut each: impl FnMut(u64, &[u64]),
) -> Result<(), Stopped> {
    let mut opts: Vec<u64> = Vec::new();
    let mut lo = 0u64;
    while lo <= max {
        let lists = segment_lists(moves, lo, max);
        let hi = lists.hi();
        for n in lo..hi {
            watch.at(n)?;
            opts.clear();
            opts.extend(lists.of(n).iter().map(|&d| n - d));
            each(n, &opts);
        }
        if hi > max {
            break;
        }
        lo = hi;
    }
    Ok(())
}

/// Proper divisors of every n in [lo, hi) (d >= 2 when `nontrivial`), as CSR lists: the
/// divisors of n are `divs[start[n - lo]..start[n - lo + 1]]`, unordered. Found by pairs
/// d·m = n with d <= sqrt(n), so a segment of S positions costs O(S log hi + sqrt hi).
pub fn divisor_lists(lo: u64, hi: u64, nontrivial: bool) -> (Vec<usize>, Vec<u64>) {
    let len = hi.saturating_sub(lo) as usize;
    let mut start = vec![0usize; len + 1];
    if hi <= 1 || len == 0 {
        return (start, Vec::new());
    }
    let top = isqrt(hi - 1);
    let first_d = if nontrivial { 2 } else { 1 };
    let each = |f: &mut dyn FnMut(usize, u64)| {
        for d in 1..=top {
            // multiples n = m·d with m >= d (so d <= sqrt n), n in [lo, hi)
            let Some(mut n) = lo.div_ceil(d).max(d).checked_mul(d) else {
                continue;
            };
            while n < hi {
                let i = (n - lo) as usize;
                let m = n / d;
                if d >= first_d && d < n {
                    f(i, d);
                }
                if m != d && m >= first_d && m < n {
                    f(i, m);
                }
                let Some(next) = n.checked_add(d) else { break };
                n = next;
            }
        }
    };
    each(&mut |i, _| start[i + 1] += 1);
    for i in 0..len {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut divs = vec![0u64; start[len]];
    each(&mut |i, d| {
        divs[fill[i]] = d;
        fill[i] += 1;
    });
    (start, divs)
}
