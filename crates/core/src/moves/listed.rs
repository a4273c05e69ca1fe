//! The amounts of one-heap moves listed a segment of heaps at a time, as CSR lists: the
//! amounts of heap n are `amounts[start[n - lo]..start[n - lo + 1]]`. Divisors are found
//! by pairs (a sieve over the segment), every other structure heap by heap.

use crate::moves::Moves;
use crate::num::isqrt;

/// Most amounts one segment lists (2 MiB of them, so the lists stay in cache) before it
/// ends early: a rule with n / 2 amounts a heap lists a few heaps at a time, not 2^16 (which
/// took 24 GiB at heap 10^5). (2^22 amounts, 32 MiB, made `divisors|squares` to 10^5 take
/// twice as long as listing a heap at a time.)
pub const LIST_AMOUNTS_MAX: usize = 1 << 18;

/// The amounts of the heaps lo, lo + 1, … below `hi` of a one-heap structure, as CSR lists:
/// at least heap lo, and further heaps while fewer than [`LIST_AMOUNTS_MAX`] amounts are
/// listed, so the lists cover [lo, lo + start.len() - 1). `lo < hi` is required.
pub fn segment_lists(moves: &Moves, lo: u64, hi: u64) -> (Vec<usize>, Vec<u64>) {
    if let Moves::Divisors { nontrivial } = moves {
        return divisor_lists(lo, hi, *nontrivial);
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
    (start, amounts)
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
