//! Code digits that remove and split: a take-and-break rule prepared for evaluation.
//!
//! A [`Breaker`] holds the non-zero digits of a code (octal or hexadecimal in CGSuite's
//! notation, or Grundy's game), each saying what may be left after removing `take` tokens.
//! It enumerates a heap's options ([`Breaker::options`], the one enumerator every caller
//! uses), and [`guy_smith_bound`] says when a period of an octal game is proven (Winning
//! Ways, ch. 4). The families that make breakers (codes, Grundy's game) live in
//! `games::takebreak`; the engines that run them (`engines::sparse`, `misere::canon`) read
//! only this.

use std::ops::ControlFlow;

/// How one digit breaks a heap: after removing `take` tokens, leave nothing, one heap, two
/// heaps or three heaps (all non-empty).
#[derive(Debug, Clone, Copy)]
pub struct Digit {
    /// Tokens removed.
    pub take: u64,
    /// May leave nothing (the heap was exactly `take`).
    pub nothing: bool,
    /// May leave one heap.
    pub one: bool,
    /// May leave two heaps.
    pub two: bool,
    /// May leave three heaps.
    pub three: bool,
    /// The two heaps must be unequal (Grundy's game).
    pub unequal: bool,
}

impl Digit {
    /// For this digit at position n: the heap s = n - take the move breaks (None when
    /// take > n), after handing `set` the values of the options that leave no heap or one
    /// (`g` gives a heap's value).
    #[inline(always)]
    pub fn leave_at_most_one(
        &self,
        n: u64,
        g: impl Fn(u64) -> u32,
        mut set: impl FnMut(u32),
    ) -> Option<u64> {
        let s = n.checked_sub(self.take)?;
        if self.nothing && s == 0 {
            set(0);
        }
        if self.one && s >= 1 {
            set(g(s));
        }
        Some(s)
    }
}

/// The last part a of a split of s into two non-empty heaps a + (s - a) with a <= s - a
/// (a < s - a when the heaps must be unequal).
#[inline]
pub fn pair_top(s: u64, unequal: bool) -> u64 {
    if unequal {
        s.saturating_sub(1) / 2
    } else {
        s / 2
    }
}

/// A take-and-break rule prepared for evaluation.
#[derive(Debug, Clone)]
pub struct Breaker {
    pub(crate) digits: Vec<Digit>,
    /// The largest heap played as the game: a code whose digits repeat for ever, cut after
    /// the digit that removes this many tokens (`Breaker::from_ext_code_to`); `u64::MAX`
    /// for a rule with finitely many digits.
    pub(crate) exact_to: u64,
}

impl Breaker {
    /// The largest heap this rule plays as its game: `u64::MAX`, but for a code whose
    /// digits repeat for ever cut at a heap (`Breaker::from_ext_code_to`).
    pub fn exact_to(&self) -> u64 {
        self.exact_to
    }

    /// True when a period of the misère quotient's heap map can be proved for this rule:
    /// its moves leave at most two heaps and its digits do not repeat for ever (a cut
    /// rule's last take grows with the cut, so no bound counted past it is ever reached).
    pub fn offers_proof(&self) -> bool {
        !self.has_three() && self.exact_to == u64::MAX
    }

    /// True when some move may leave three heaps (hexadecimal codes with bit 8).
    pub fn has_three(&self) -> bool {
        self.digits.iter().any(|d| d.three)
    }

    /// Options visited when every heap 0..=`max` enumerates its options: a heap of s
    /// tokens after a digit's take has one option leaving at most one heap, about s/2
    /// splits in two and s²/12 in three, so the sum over heaps is about
    /// Σ (s + 1 + s²/4 + s³/36) over the digits (s = max − take).
    pub fn option_visits(&self, max: u64) -> f64 {
        let mut visits = 0.0;
        for d in &self.digits {
            let Some(top) = max.checked_sub(d.take) else {
                continue;
            };
            let s = top as f64;
            visits += s + 1.0;
            if d.two {
                visits += s * s / 4.0;
            }
            if d.three {
                visits += s * s * s / 36.0;
            }
        }
        visits
    }

    /// True for an octal rule in the sense of Guy and Smith: moves leave at most two heaps
    /// and any two parts are allowed (so [`guy_smith_bound`] applies).
    pub fn is_octal(&self) -> bool {
        !self.has_three() && self.digits.iter().all(|d| !d.unequal)
    }

    /// The rare class a domain-type sparse-space mask must have (see
    /// [`crate::engines::rare_summary`]): t mod 2 when every move that splits a heap in
    /// two removes t tokens of one parity; None when the parities differ or nothing splits.
    pub fn domain_rare(&self) -> Option<u32> {
        let mut parity = None;
        for d in self.digits.iter().filter(|d| d.two) {
            let p = (d.take & 1) as u32;
            if parity.is_some_and(|q| q != p) {
                return None;
            }
            parity = Some(p);
        }
        parity
    }

    /// t: the most tokens a move removes (the position of the code's last non-zero digit).
    pub fn last_take(&self) -> u64 {
        self.digits.iter().map(|d| d.take).max().unwrap_or(0)
    }

    /// Calls `visit(removed, heaps)` for every option of a heap of `n` — the non-empty
    /// heaps it leaves (none to three, in increasing size) and the tokens removed — digit
    /// by digit in increasing `take`, and for each: nothing, one heap, two heaps a + b
    /// (increasing a), three heaps a + b + c (a <= b <= c, increasing). Two-heap splits
    /// with a > `a_max` are skipped (a heap near 10^18 has that many). Stops when `visit`
    /// breaks.
    pub fn options(
        &self,
        n: u64,
        a_max: u64,
        visit: &mut dyn FnMut(u64, &[u64]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for d in &self.digits {
            let Some(s) = n.checked_sub(d.take) else {
                break;
            };
            if d.nothing && s == 0 {
                visit(d.take, &[])?;
            }
            if d.one && s >= 1 {
                visit(d.take, &[s])?;
            }
            if d.two && s >= 2 {
                for a in 1..=pair_top(s, d.unequal).min(a_max) {
                    visit(d.take, &[a, s - a])?;
                }
            }
            if d.three && s >= 3 {
                for a in 1..=s / 3 {
                    for b in a..=(s - a) / 2 {
                        visit(d.take, &[a, b, s - a - b])?;
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// The Guy–Smith bound: a Grundy sequence of an octal game whose moves remove at most `t`
/// tokens, periodic with preperiod n0 and period p on 0..=N, is periodic for ever once
/// N >= 2·n0 + 2p + t (R. K. Guy and C. A. B. Smith, "The G-values of various games",
/// Proc. Cambridge Philos. Soc. 52 (1956); Winning Ways, ch. 4). Saturates instead of
/// wrapping.
pub fn guy_smith_bound(preperiod: u64, period: u64, t: u64) -> u64 {
    preperiod
        .saturating_mul(2)
        .saturating_add(period.saturating_mul(2))
        .saturating_add(t)
}
