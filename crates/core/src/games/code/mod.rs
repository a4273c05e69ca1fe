//! CGSuite's extended take-and-break codes (A. N. Siegel, *Combinatorial Game Theory*, AMS
//! 2013, ch. IV; CGSuite's `TakeAndBreak`): a digit per number of tokens removed, each
//! saying how many heaps may be left, and how they may be related.
//!
//! | written | meaning |
//! |---|---|
//! | `0-9`, `A-V` | base 32: bit j set = the move may leave j heaps (`7` = 0, 1 or 2) |
//! | `&n;` | the same with any 64-bit n (`&96;` = 5 or 6 heaps) |
//! | `{2,5}`, `{2+}` | the heap counts listed; `+`: and every count above the last |
//! | `*` | any number of heaps (`{0+}`) |
//! | `!` after a digit | the heaps left are pairwise unequal |
//! | `?` after a digit | the heaps left are not all equal |
//! | `=` after a digit | the heaps left are all equal |
//! | `[…]` at the end | these digits repeat for ever (`0.[3]` is Nim) |
//!
//! The digit before the point removes nothing: it may only split (leave two or more heaps).
//! Digits further left add tokens (CGSuite's `80.0`: add one token, then leave three
//! heaps): the t-th digit left of the point adds t tokens. Such a code is accepted when
//! every option is made of heaps smaller than the heap moved from — every count j the
//! digit allows is at least t + 2, so no part of n + t tokens in j non-empty heaps reaches
//! n — and refused as loopy otherwise (`4.0` would split n + 1 into n and 1). A constraint concerns moves that leave two or more heaps (zero or one heap is
//! always allowed when the digit allows it). Examples: Grundy's game is `4!.0`; "split a
//! heap into any number of unequal heaps" is `{2+}!.0`; Kayles is `0.77`.
//!
//! Grundy values come from a knapsack over part sizes ([`code_grundy`]): the mex needs only
//! the set of XOR values a move can reach, never the partitions themselves.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::ControlFlow;

/// How the heaps a move leaves must be related (moves that leave two or more heaps).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Constraint {
    /// Any sizes.
    #[default]
    Any,
    /// `!`: pairwise unequal.
    Unequal,
    /// `?`: not all equal.
    NotAllEqual,
    /// `=`: all equal.
    AllEqual,
}

impl Constraint {
    fn suffix(self) -> &'static str {
        match self {
            Constraint::Any => "",
            Constraint::Unequal => "!",
            Constraint::NotAllEqual => "?",
            Constraint::AllEqual => "=",
        }
    }
}

/// One digit of a code: which numbers of heaps a move may leave.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct CodeDigit {
    /// Bit j set: the move may leave j heaps (j <= 63).
    pub counts: u64,
    /// Every count above the highest bit of `counts` is allowed too.
    pub more: bool,
    /// How the heaps left must be related.
    pub constraint: Constraint,
}

pub(crate) const BASE32: &[u8; 32] = b"0123456789ABCDEFGHIJKLMNOPQRSTUV";

impl CodeDigit {
    /// The digit that allows nothing.
    pub const ZERO: CodeDigit = CodeDigit {
        counts: 0,
        more: false,
        constraint: Constraint::Any,
    };

    /// The highest listed count (0 for the zero digit).
    pub fn top(&self) -> u32 {
        63 - self.counts.max(1).leading_zeros()
    }

    /// May a move leave `j` heaps?
    pub fn allows(&self, j: u64) -> bool {
        (j < 64 && self.counts >> j & 1 == 1) || (self.more && j >= u64::from(self.top()))
    }

    /// True for the digit that allows nothing.
    pub fn is_zero(&self) -> bool {
        self.counts == 0
    }

    /// May some move leave two or more heaps?
    pub fn splits(&self) -> bool {
        self.more || self.counts >> 2 != 0
    }

    /// The same digit in normal form: `{2,3+}` is `{2+}`; a constraint on a digit that
    /// never leaves two heaps is dropped.
    pub fn normalized(mut self) -> CodeDigit {
        if self.more {
            let mut top = self.top();
            while top >= 1 && self.counts >> (top - 1) & 1 == 1 {
                self.counts &= !(1u64 << top);
                top -= 1;
            }
        }
        if !self.splits() {
            self.constraint = Constraint::Any;
        }
        self
    }
}

impl fmt::Display for CodeDigit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.more {
            if self.counts == 1 {
                f.write_str("*")?;
            } else {
                f.write_str("{")?;
                let mut first = true;
                for j in 0..64 {
                    if self.counts >> j & 1 == 1 {
                        if !first {
                            f.write_str(",")?;
                        }
                        first = false;
                        write!(f, "{j}")?;
                    }
                }
                f.write_str("+}")?;
            }
        } else if self.counts < 32 {
            write!(f, "{}", BASE32[self.counts as usize] as char)?;
        } else {
            write!(f, "&{};", self.counts)?;
        }
        f.write_str(self.constraint.suffix())
    }
}

/// An extended take-and-break code: `digits[i]` rules moves that remove i tokens
/// (`digits[0]`, before the point, splits without removing); the last `period` digits
/// repeat for ever. Build with [`Code::new`], which puts it in normal form (so two codes of
/// the same game compare equal in most cases, and [`fmt::Display`] gives the canonical
/// spelling, which parses back to the same code).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Code {
    /// The digits, `digits[0]` before the point; never empty.
    pub digits: Vec<CodeDigit>,
    /// How many trailing digits repeat (0: none; then the code has no trailing zero digit).
    pub period: usize,
    /// The digits left of the one before the point: `adds[t - 1]` rules moves that add t
    /// tokens (then split; every count at least t + 2). Empty for most codes; no trailing
    /// zero digit.
    #[serde(default)]
    pub adds: Vec<CodeDigit>,
}

/// A code that cannot be played: a message and the 0-based index of the digit at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeError {
    /// The digit at fault (0 = before the point).
    pub digit: usize,
    /// What is wrong.
    pub message: String,
}

impl Code {
    /// The code of `digits` (with the last `period` repeating), in normal form: the
    /// repeating tail as short as it can be and started as early as it can be, trailing
    /// zero digits dropped, digits normalised ([`CodeDigit::normalized`]).
    ///
    /// # Errors
    /// When the digit before the point may leave zero or one heap (one heap is the heap
    /// unchanged: a loopy game).
    pub fn new(digits: Vec<CodeDigit>, period: usize) -> Result<Code, CodeError> {
        let mut digits: Vec<CodeDigit> = digits.into_iter().map(CodeDigit::normalized).collect();
        if digits.is_empty() {
            digits.push(CodeDigit::ZERO);
        }
        if digits[0].allows(0) || digits[0].allows(1) {
            return Err(CodeError {
                digit: 0,
                message: "the digit before '.' removes nothing, so it may only split into two \
                          or more heaps (leaving one heap would leave it unchanged: a loopy game)"
                    .into(),
            });
        }
        let mut period = period.min(digits.len() - 1);
        if digits[digits.len() - period..]
            .iter()
            .all(CodeDigit::is_zero)
        {
            digits.truncate(digits.len() - period);
            period = 0;
        }
        if period > 0 {
            // the shortest repeating unit
            let tail = digits.len() - period;
            let unit = (1..=period)
                .find(|&p| {
                    period.is_multiple_of(p)
                        && (tail + p..digits.len()).all(|i| digits[i] == digits[i - p])
                })
                .unwrap_or(period);
            digits.truncate(tail + unit);
            period = unit;
            // start the repetition as early as it goes: a last digit before it equal to
            // the last repeating digit joins the repetition
            while digits.len() - period > 1
                && digits[digits.len() - period - 1] == digits[digits.len() - 1]
            {
                digits.pop();
            }
        } else {
            while digits.len() > 1 && digits.last().is_some_and(CodeDigit::is_zero) {
                digits.pop();
            }
        }
        Ok(Code {
            digits,
            period,
            adds: vec![],
        })
    }

    /// The same code with moves that add tokens: `adds[t - 1]` adds t tokens, then splits.
    ///
    /// # Errors
    /// When a digit allows a count below t + 2 (a heap as large as the one moved from
    /// could be left: a loopy game); `digit` is then t (counted leftwards from the point).
    pub fn with_adds(mut self, adds: Vec<CodeDigit>) -> Result<Code, CodeError> {
        self.adds = Code::checked_adds(adds)?;
        Ok(self)
    }

    /// The digits that add tokens in normal form (no trailing zero digit), or the error
    /// of [`Code::with_adds`].
    ///
    /// # Errors
    /// As [`Code::with_adds`].
    pub fn checked_adds(adds: Vec<CodeDigit>) -> Result<Vec<CodeDigit>, CodeError> {
        let mut adds: Vec<CodeDigit> = adds.into_iter().map(CodeDigit::normalized).collect();
        while adds.last().is_some_and(CodeDigit::is_zero) {
            adds.pop();
        }
        for (k, d) in adds.iter().enumerate() {
            let t = k as u64 + 1;
            if let Some(j) = (0..t + 2).find(|&j| d.allows(j)) {
                let why = if j == 0 {
                    "from an empty heap that is a move to itself"
                } else {
                    "so a heap as large as the one moved from can come back"
                };
                return Err(CodeError {
                    digit: k + 1,
                    message: format!(
                        "loopy code: the digit {t} left of the point adds {t} token(s) and may \
                         leave {j} heap(s), {why}; every count there must be at least {} \
                         (heaplab computes loopfree games only)",
                        t + 2
                    ),
                });
            }
        }
        Ok(adds)
    }

    /// The digit for removing `i` tokens.
    pub fn digit(&self, i: u64) -> &CodeDigit {
        let len = self.digits.len() as u64;
        if i < len {
            &self.digits[i as usize]
        } else if self.period > 0 {
            let start = len - self.period as u64;
            &self.digits[(start + (i - start) % self.period as u64) as usize]
        } else {
            &CodeDigit::ZERO
        }
    }

    /// The most tokens a move removes; `None` when the digits repeat (no bound).
    pub fn max_take(&self) -> Option<u64> {
        (self.period == 0).then(|| self.digits.len() as u64 - 1)
    }

    /// The most heaps a move may leave; `None` for an open count (`{k+}`, `*`).
    pub fn max_heaps(&self) -> Option<u32> {
        if self.digits.iter().any(|d| d.more) {
            None
        } else {
            Some(self.digits.iter().map(CodeDigit::top).max().unwrap_or(0))
        }
    }

    /// True for a plain octal or hexadecimal code (digits below 16, nothing else), which
    /// the parser writes as [`crate::games::takebreak::TakeBreak`].
    pub fn is_plain(&self) -> bool {
        self.period == 0
            && self.adds.is_empty()
            && self
                .digits
                .iter()
                .all(|d| !d.more && d.counts < 16 && d.constraint == Constraint::Any)
    }

    /// Calls `visit` with the heaps left by every option of a heap of `n` (in increasing
    /// size), removal by removal, then by the number of heaps, then in lexicographic
    /// order. Lists every partition: for tests and small heaps only (the engine is
    /// [`code_grundy`]).
    /// Stops when `visit` breaks.
    pub fn for_each_option(
        &self,
        n: u64,
        visit: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let last = self.max_take().unwrap_or(n).min(n);
        let mut parts = Vec::new();
        // moves that add t tokens: n + t into j >= t + 2 non-empty heaps, each below n
        for (k, d) in self.adds.iter().enumerate() {
            let s = n + k as u64 + 1;
            if d.is_zero() || n == 0 {
                continue;
            }
            for j in (k as u64 + 3)..=s {
                if d.allows(j) {
                    parts.clear();
                    partitions(s, j, 1, d.constraint, &mut parts, visit)?;
                }
            }
        }
        for i in 0..=last {
            let d = *self.digit(i);
            if d.is_zero() {
                continue;
            }
            let s = n - i;
            if s == 0 {
                if i > 0 && d.allows(0) {
                    visit(&[])?;
                }
                continue;
            }
            for j in 1..=s {
                if !d.allows(j) {
                    continue;
                }
                if j == 1 {
                    visit(&[s])?;
                    continue;
                }
                parts.clear();
                partitions(s, j, 1, d.constraint, &mut parts, visit)?;
            }
        }
        ControlFlow::Continue(())
    }
}

/// The knapsack layers of a class of digits: the largest exact count e (at least 2) and
/// whether a layer for "more than e" is kept; `None` when no digit of the class splits.
pub(crate) type Shape = Option<(u32, bool)>;

impl Code {
    /// The layers [`code_grundy`] keeps for the digits `pick` selects: one row per exact
    /// count 2..=e and one for "more".
    fn layer_shape(&self, pick: impl Fn(&CodeDigit) -> bool) -> Shape {
        let mut e = 0;
        let mut open = false;
        let mut any = false;
        for d in self
            .digits
            .iter()
            .chain(&self.adds)
            .filter(|d| pick(d) && d.splits())
        {
            any = true;
            e = e.max(d.top());
            open |= d.more;
        }
        any.then_some((e.max(2), open))
    }

    /// The layers of plain digits, of `!` digits and of `?` digits.
    fn shapes(&self) -> [Shape; 3] {
        [
            self.layer_shape(|d| d.constraint == Constraint::Any),
            self.layer_shape(|d| d.constraint == Constraint::Unequal),
            self.layer_shape(|d| d.constraint == Constraint::NotAllEqual),
        ]
    }

    /// Rows of bits per heap size the engine keeps.
    pub(crate) fn rows(&self) -> usize {
        self.shapes()
            .iter()
            .map(|l| l.map_or(0, |(e, open)| e as usize - 1 + usize::from(open)))
            .sum()
    }

    /// About how many rows are united, and how many single values added, for heap n:
    /// a splitting digit unites a row per count (`=` adds a value per count instead), any
    /// other adds one value.
    pub(crate) fn unions_at(&self, n: f64) -> (f64, f64) {
        let per = |d: &CodeDigit| -> (f64, f64) {
            let counts = if d.more {
                n.min(64.0)
            } else {
                f64::from(d.counts.count_ones())
            };
            match (d.splits(), d.constraint) {
                (false, _) => (0.0, 1.0),
                (true, Constraint::AllEqual) => (0.0, if d.more { n } else { counts }),
                (true, _) => (counts.min(f64::from(d.top().max(2))), 1.0),
            }
        };
        let sum = |ds: &[CodeDigit]| {
            ds.iter()
                .map(per)
                .fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y))
        };
        let (mut rows, mut singles) = sum(&self.digits);
        let (r, s) = sum(&self.adds);
        rows += r;
        singles += s;
        if self.period > 0 {
            let (r, s) = sum(&self.digits[self.digits.len() - self.period..]);
            rows += n * r / self.period as f64;
            singles += n * s / self.period as f64;
        }
        (rows, singles)
    }
}

/// Every partition of `s` into `j` parts of at least `min`, nondecreasing, meeting `c`.
fn partitions(
    s: u64,
    j: u64,
    min: u64,
    c: Constraint,
    parts: &mut Vec<u64>,
    visit: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if j == 1 {
        if s >= min {
            parts.push(s);
            let all_equal = parts.iter().all(|&p| p == parts[0]);
            let ok = match c {
                Constraint::Any => true,
                Constraint::Unequal => parts.windows(2).all(|w| w[0] < w[1]),
                Constraint::NotAllEqual => !all_equal,
                Constraint::AllEqual => all_equal,
            };
            let r = if ok {
                visit(parts)
            } else {
                ControlFlow::Continue(())
            };
            parts.pop();
            return r;
        }
        return ControlFlow::Continue(());
    }
    let mut a = min;
    while a.saturating_mul(j) <= s {
        parts.push(a);
        let r = partitions(s - a, j - 1, a, c, parts, visit);
        parts.pop();
        r?;
        a += 1;
    }
    ControlFlow::Continue(())
}

impl fmt::Display for Code {
    /// CGSuite's spelling: `4!.0`, `0.[3]`, `{2+}!.0`, `0.7&96;`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in self.adds.iter().rev() {
            write!(f, "{d}")?;
        }
        write!(f, "{}.", self.digits[0])?;
        let tail = self.digits.len() - self.period;
        if self.digits.len() == 1 {
            return f.write_str("0");
        }
        for d in &self.digits[1..tail] {
            write!(f, "{d}")?;
        }
        if self.period > 0 {
            f.write_str("[")?;
            for d in &self.digits[tail..] {
                write!(f, "{d}")?;
            }
            f.write_str("]")?;
        }
        Ok(())
    }
}

pub(crate) mod grundy;
pub(crate) mod parse;

#[cfg(test)]
mod tests;
