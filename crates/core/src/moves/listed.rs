//! The amounts of one-heap moves listed a segment of heaps at a time, as CSR lists: the
//! amounts of heap n are `amounts[start[n - lo]..start[n - lo + 1]]`. Divisors are found
//! by pairs (a sieve over the segment), every other structure heap by heap.

use crate::moves::Moves;
use crate::num::isqrt;

/// The amounts of every heap in [lo, hi) of a one-heap structure, as CSR lists.
pub fn segment_lists(moves: &Moves, lo: u64, hi: u64) -> (Vec<u32>, Vec<u64>) {
    if let Moves::Divisors { nontrivial } = moves {
        return divisor_lists(lo, hi, *nontrivial);
    }
    let mut start = vec![0u32];
    let mut amounts = vec![];
    for n in lo..hi {
        moves.amounts(n, &mut amounts);
        start.push(u32::try_from(amounts.len()).unwrap_or(u32::MAX));
    }
    (start, amounts)
}

/// Proper divisors of every n in [lo, hi) (d >= 2 when `nontrivial`), as CSR lists: the
/// divisors of n are `divs[start[n - lo]..start[n - lo + 1]]`, unordered. Found by pairs
/// d·m = n with d <= sqrt(n), so a segment of S positions costs O(S log hi + sqrt hi).
pub fn divisor_lists(lo: u64, hi: u64, nontrivial: bool) -> (Vec<u32>, Vec<u64>) {
    let len = hi.saturating_sub(lo) as usize;
    let mut start = vec![0u32; len + 1];
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
    let mut divs = vec![0u64; start[len] as usize];
    each(&mut |i, d| {
        divs[fill[i] as usize] = d;
        fill[i] += 1;
    });
    (start, divs)
}
