//! Games with move memory: one heap and the amount the previous move took. Take-Away(r)
//! (Schwenk, "Take-away games", Fibonacci Quarterly 8 (1970) 225–234; CGSuite's
//! `TakeAway(r)`): remove j with 1 ≤ j ≤ r·k tokens, k being what the previous move took;
//! the first move from a heap of n may take 1..=n − 1. Fibonacci Nim (Whinihan,
//! "Fibonacci Nim", Fibonacci Quarterly 1 (1963) 9–13) is r = 2: its P-positions are the
//! Fibonacci numbers, and a winning first move takes the smallest term of n's Zeckendorf
//! representation.
//!
//! Schwenk's take-away games with any allowance function f (`takeaway{2 * k + 1}`): after
//! a move of k the next may take 1..=f(k).
//!
//! A state is (heap n, allowance m): the next move may take 1..=min(m, n). CGSuite's
//! coordinates (n, k) — k the previous move — are the state (n, f(k)).

use super::BeyondError;
use crate::observe::Observer;
use std::ops::ControlFlow;

/// Take-Away games: a move may take at most f(k) tokens, k being what the previous move
/// took — Take-Away(p/q) with f(k) = ⌊p·k/q⌋, or a rule of your own f over k (Schwenk's
/// take-away games with any function; a value below 0 or null allows no move).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TakeAway {
    /// f(k) = ⌊p·k/q⌋ (p, q ≥ 1).
    Ratio {
        /// Numerator of r.
        p: u64,
        /// Denominator of r.
        q: u64,
    },
    /// f given as an expression over k (`takeaway{2 * k + 1}`).
    Rule(Allowance),
}

/// An allowance function f(k) of your own: an integer expression over k, the language of
/// `rule{…}`; equal when their canonical texts are equal.
#[derive(Debug, Clone)]
pub struct Allowance {
    expr: crate::expr::ast::Expr,
    text: String,
}

impl PartialEq for Allowance {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}
impl Eq for Allowance {}

impl Allowance {
    /// Reads f(k).
    ///
    /// # Errors
    /// [`crate::expr::ParseError`] with the 1-based position of the problem: an unknown
    /// name (`n` too: the allowance depends on the previous move only), a comparison (f is
    /// a number), a missing operand.
    pub fn parse(text: &str) -> Result<Allowance, crate::expr::ParseError> {
        use crate::expr::ast::Ty;
        let at_start = |message: &str| crate::expr::ParseError {
            pos: 1,
            message: message.into(),
        };
        let expr = crate::expr::parse::parse(text, crate::expr::parse::Dialect::RULE).map_err(
            |mut e| {
                // (the names f knows: k, not a rule's n)
                e.message = e.message.replace("a rule knows n, k,", "f knows k,");
                e
            },
        )?;
        if expr.ty() != Ty::Int {
            return Err(at_start(
                "takeaway{f}: f is the number of tokens the next move may take after a move of \
                 k, e.g. 2 * k + 1 (not a comparison)",
            ));
        }
        if expr.uses_n() {
            return Err(at_start(
                "takeaway{f}: f depends on the previous move k only (n is not known to it)",
            ));
        }
        Ok(Allowance {
            text: expr.to_string(),
            expr,
        })
    }

    /// The canonical text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// f(k): a value below 0 is 0 (no move), one beyond 2^64 − 1 is 2^64 − 1 (any move).
    ///
    /// # Errors
    /// [`BeyondError::Unsupported`] when f(k) is null (a division by 0, a function of a
    /// negative number, a value beyond ±2^127 on the way): no allowance is guessed.
    pub fn at(&self, k: u64) -> Result<u64, BeyondError> {
        match self.expr.eval(0, i128::from(k)) {
            crate::expr::eval::Val::Int(x) => Ok(x.clamp(0, u64::MAX as i128) as u64),
            _ => Err(BeyondError::Unsupported(format!(
                "takeaway{{{}}}: f(k) has no value at k = {k} (a division by 0, a function of a \
                 negative number, or a number beyond ±2^127 on the way): write f so it is a \
                 number for every k",
                self.text
            ))),
        }
    }
}

/// Most heaps of a least-winning-move table (4·10^8 u32: 1.6 GB).
pub const MAX_HEAPS: u64 = 400_000_000;
/// Largest heap of a table of Grundy values by state (triangular: N²/2 values).
pub const MAX_STATE_HEAP: u64 = 20_000;

impl TakeAway {
    /// Fibonacci Nim.
    pub const FIBONACCI: TakeAway = TakeAway::Ratio { p: 2, q: 1 };

    /// Take-Away(p/q).
    pub fn ratio(p: u64, q: u64) -> TakeAway {
        TakeAway::Ratio { p, q }
    }

    /// The spec, as `heaplab` prints it.
    pub fn spec(&self) -> String {
        match self {
            TakeAway::Ratio { p: 2, q: 1 } => "fibonacci-nim".into(),
            TakeAway::Ratio { p, q: 1 } => format!("takeaway{{{p}}}"),
            TakeAway::Ratio { p, q } => format!("takeaway{{{p}/{q}}}"),
            TakeAway::Rule(f) => format!("takeaway{{{}}}", f.text()),
        }
    }

    /// The allowance after a move that took j: f(j).
    ///
    /// # Errors
    /// As [`Allowance::at`] (a ratio always has one).
    pub fn allowance(&self, j: u64) -> Result<u64, BeyondError> {
        match self {
            TakeAway::Ratio { p, q } => {
                Ok((j as u128 * *p as u128 / *q as u128).min(u64::MAX as u128) as u64)
            }
            TakeAway::Rule(f) => f.at(j),
        }
    }

    /// The allowances f(1..=n) at indices 1..=n, as a table (a rule is evaluated once per
    /// amount; index 0 holds 0: no move takes nothing, so f(0) is never asked of the rule).
    fn allowances(&self, n: u64) -> Result<Vec<u64>, BeyondError> {
        (0..=n)
            .map(|j| if j == 0 { Ok(0) } else { self.allowance(j) })
            .collect()
    }

    /// The options of state (n, m): (n − j, f(j)) for 1 ≤ j ≤ min(m, n).
    ///
    /// # Errors
    /// As [`TakeAway::allowance`].
    pub fn options(&self, n: u64, m: u64) -> Result<Vec<(u64, u64)>, BeyondError> {
        (1..=m.min(n))
            .map(|j| Ok((n - j, self.allowance(j)?)))
            .collect()
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
    game: &TakeAway,
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
    // f(j) for the amounts tried so far (a least winning move is small: about log n); no
    // move takes 0, so f(0) is never asked of the rule
    let mut allow: Vec<u64> = vec![0];
    for h in 1..=n as usize {
        let mut j = 1usize;
        // j = h always wins (it empties the heap)
        while j < h && {
            while j >= allow.len() {
                allow.push(game.allowance(allow.len() as u64)?);
            }
            (w[h - j] as u64) <= allow[j]
        } {
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
    game: &TakeAway,
    n: u64,
    obs: &dyn Observer,
) -> Result<Vec<Vec<u32>>, BeyondError> {
    if n > MAX_STATE_HEAP {
        return Err(BeyondError::TooLarge(format!(
            "Grundy values by state of {} to heap {n}: at most {MAX_STATE_HEAP} (N²/2 states)",
            game.spec()
        )));
    }
    let allow = game.allowances(n)?;
    let mut g: Vec<Vec<u32>> = Vec::with_capacity(n as usize + 1);
    let mut count = vec![0u32; n as usize + 2];
    for h in 0..=n as usize {
        let mut row = vec![0u32; h + 1];
        let mut mex = 0usize;
        for j in 1..=h {
            let to = h - j;
            let v = g[to][(allow[j] as usize).min(to)] as usize;
            count[v] += 1;
            while count[mex] > 0 {
                mex += 1;
            }
            row[j] = mex as u32;
        }
        // clear the counts for the next heap
        for j in 1..=h {
            let to = h - j;
            count[g[to][(allow[j] as usize).min(to)] as usize] = 0;
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
///
/// # Errors
/// As [`TakeAway::allowance`].
pub fn state_grundy_by_definition(game: &TakeAway, n: u64, m: u64) -> Result<u32, BeyondError> {
    fn go(
        game: &TakeAway,
        n: u64,
        m: u64,
        memo: &mut std::collections::HashMap<(u64, u64), u32>,
    ) -> Result<u32, BeyondError> {
        let m = m.min(n);
        if let Some(&v) = memo.get(&(n, m)) {
            return Ok(v);
        }
        let mut vals: Vec<u32> = game
            .options(n, m)?
            .into_iter()
            .map(|(x, k)| go(game, x, k, memo))
            .collect::<Result<_, _>>()?;
        vals.sort_unstable();
        vals.dedup();
        let v = vals
            .iter()
            .enumerate()
            .find(|(i, v)| **v != *i as u32)
            .map_or(vals.len(), |(i, _)| i) as u32;
        memo.insert((n, m), v);
        Ok(v)
    }
    go(game, n, m, &mut Default::default())
}
