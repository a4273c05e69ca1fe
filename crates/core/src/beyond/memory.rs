//! Games with move memory: one heap and the amount the previous move took. Take-Away(r)
//! (Schwenk, "Take-away games", Fibonacci Quarterly 8 (1970) 225–234; CGSuite's
//! `TakeAway(r)`): remove j with 1 ≤ j ≤ r·k tokens, k being what the previous move took;
//! the first move from a heap of n may take 1..=n − 1. Fibonacci Nim (Whinihan,
//! "Fibonacci Nim", Fibonacci Quarterly 1 (1963) 9–13) is r = 2: its P-positions are the
//! Fibonacci numbers, and a winning first move takes the smallest term of n's Zeckendorf
//! representation.
//!
//! A state is (heap n, allowance m): the next move may take 1..=min(m, n). CGSuite's
//! coordinates (n, k) — k the previous move — are the state (n, ⌊r·k⌋).

use super::BeyondError;
use crate::observe::Observer;
use std::ops::ControlFlow;

/// Take-Away(p/q): a move may take at most p/q times the previous move (p, q ≥ 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TakeAway {
    /// Numerator of r.
    pub p: u64,
    /// Denominator of r.
    pub q: u64,
}

/// Most heaps of a least-winning-move table (4·10^8 u32: 1.6 GB).
pub const MAX_HEAPS: u64 = 400_000_000;
/// Largest heap of a table of Grundy values by state (triangular: N²/2 values).
pub const MAX_STATE_HEAP: u64 = 20_000;

impl TakeAway {
    /// Fibonacci Nim.
    pub const FIBONACCI: TakeAway = TakeAway { p: 2, q: 1 };

    /// The spec, as `heaplab` prints it.
    pub fn spec(self) -> String {
        match (self.p, self.q) {
            (2, 1) => "fibonacci-nim".into(),
            (p, 1) => format!("takeaway{{{p}}}"),
            (p, q) => format!("takeaway{{{p}/{q}}}"),
        }
    }

    /// The allowance after a move that took j: ⌊r·j⌋.
    pub fn allowance(self, j: u64) -> u64 {
        (j as u128 * self.p as u128 / self.q as u128).min(u64::MAX as u128) as u64
    }

    /// The options of state (n, m): (n − j, ⌊r·j⌋) for 1 ≤ j ≤ min(m, n).
    pub fn options(self, n: u64, m: u64) -> impl Iterator<Item = (u64, u64)> {
        (1..=m.min(n)).map(move |j| (n - j, self.allowance(j)))
    }
}

/// w(n) for 0 ≤ n ≤ N: the least j such that taking j from a heap of n wins
/// (u32::MAX for n = 0, which has no move). State (n, m) is won exactly when
/// w(n) ≤ m — its moves are those of (n, m − 1) and one more — so w(n) is the least j
/// with w(n − j) > ⌊r·j⌋. Work: the sum of w(n), about N·log N for Fibonacci Nim.
///
/// # Errors
/// [`BeyondError::TooLarge`] beyond [`MAX_HEAPS`]; [`BeyondError::Cancelled`].
pub fn least_winning_moves(
    game: TakeAway,
    n: u64,
    obs: &dyn Observer,
) -> Result<Vec<u32>, BeyondError> {
    if n >= MAX_HEAPS {
        return Err(BeyondError::TooLarge(format!(
            "{} to heap {n}: the table of least winning moves takes heaps below {MAX_HEAPS}",
            game.spec()
        )));
    }
    let mut w = vec![u32::MAX; n as usize + 1];
    for h in 1..=n as usize {
        let mut j = 1usize;
        // j = h always wins (it empties the heap)
        while j < h && (w[h - j] as u64) <= game.allowance(j as u64) {
            j += 1;
        }
        w[h] = j as u32;
        if h % (1 << 16) == 0 {
            if let ControlFlow::Break(()) = obs.observe(h as u64, n) {
                return Err(BeyondError::Cancelled);
            }
        }
    }
    Ok(w)
}

/// The smallest term of n's Zeckendorf representation (n ≥ 1): Fibonacci Nim's least
/// winning move from a heap of n with an unlimited allowance (Whinihan 1963).
pub fn zeckendorf_smallest(mut n: u64) -> u64 {
    let mut fib = vec![1u64, 2];
    while let Some(next) = fib[fib.len() - 1].checked_add(fib[fib.len() - 2]) {
        if next > n {
            break;
        }
        fib.push(next);
    }
    let mut last = n;
    for &f in fib.iter().rev() {
        if f <= n {
            n -= f;
            last = f;
        }
    }
    last
}

/// Whether n ≥ 1 is a Fibonacci number.
pub fn is_fibonacci(n: u64) -> bool {
    zeckendorf_smallest(n) == n
}

/// Grundy values by state: `g[n][m]` for 0 ≤ m ≤ n ≤ N (an allowance beyond n is n).
/// Row n is computed with m growing, one option joining at a time.
///
/// # Errors
/// [`BeyondError::TooLarge`] beyond [`MAX_STATE_HEAP`]; [`BeyondError::Cancelled`].
pub fn state_grundy(
    game: TakeAway,
    n: u64,
    obs: &dyn Observer,
) -> Result<Vec<Vec<u32>>, BeyondError> {
    if n > MAX_STATE_HEAP {
        return Err(BeyondError::TooLarge(format!(
            "Grundy values by state of {} to heap {n}: at most {MAX_STATE_HEAP} (N²/2 states)",
            game.spec()
        )));
    }
    let mut g: Vec<Vec<u32>> = Vec::with_capacity(n as usize + 1);
    let mut count = vec![0u32; n as usize + 2];
    for h in 0..=n as usize {
        let mut row = vec![0u32; h + 1];
        let mut mex = 0usize;
        for j in 1..=h {
            let to = h - j;
            let v = g[to][(game.allowance(j as u64) as usize).min(to)] as usize;
            count[v] += 1;
            while count[mex] > 0 {
                mex += 1;
            }
            row[j] = mex as u32;
        }
        // clear the counts for the next heap
        for j in 1..=h {
            let to = h - j;
            count[g[to][(game.allowance(j as u64) as usize).min(to)] as usize] = 0;
        }
        g.push(row);
        if h % 256 == 0 {
            if let ControlFlow::Break(()) = obs.observe(h as u64, n) {
                return Err(BeyondError::Cancelled);
            }
        }
    }
    Ok(g)
}

/// The Grundy value of state (n, m) by the definition (recursive, memoised; small n).
pub fn state_grundy_by_definition(game: TakeAway, n: u64, m: u64) -> u32 {
    fn go(
        game: TakeAway,
        n: u64,
        m: u64,
        memo: &mut std::collections::HashMap<(u64, u64), u32>,
    ) -> u32 {
        let m = m.min(n);
        if let Some(&v) = memo.get(&(n, m)) {
            return v;
        }
        let mut vals: Vec<u32> = game
            .options(n, m)
            .map(|(x, k)| go(game, x, k, memo))
            .collect();
        vals.sort_unstable();
        vals.dedup();
        let v = vals
            .iter()
            .enumerate()
            .find(|(i, v)| **v != *i as u32)
            .map_or(vals.len(), |(i, _)| i) as u32;
        memo.insert((n, m), v);
        v
    }
    go(game, n, m, &mut Default::default())
}
