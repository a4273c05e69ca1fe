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
//! Codes with more than one digit before the point (moves that add tokens) are loopy and
//! refused. A constraint concerns moves that leave two or more heaps (zero or one heap is
//! always allowed when the digit allows it). Examples: Grundy's game is `4!.0`; "split a
//! heap into any number of unequal heaps" is `{2+}!.0`; Kayles is `0.77`.
//!
//! Grundy values come from a knapsack over part sizes ([`code_grundy`]): the mex needs only
//! the set of XOR values a move can reach, never the partitions themselves.

use crate::observe::Watch;
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

const BASE32: &[u8; 32] = b"0123456789ABCDEFGHIJKLMNOPQRSTUV";

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
        Ok(Code { digits, period })
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
type Shape = Option<(u32, bool)>;

impl Code {
    /// The layers [`code_grundy`] keeps for the digits `pick` selects: one row per exact
    /// count 2..=e and one for "more".
    fn layer_shape(&self, pick: impl Fn(&CodeDigit) -> bool) -> Shape {
        let mut e = 0;
        let mut open = false;
        let mut any = false;
        for d in self.digits.iter().filter(|d| pick(d) && d.splits()) {
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

/// Reads a code from `chars` at `start` (a digit, `{`, `&` or `*`), to the first character
/// that cannot continue it. Returns the code and the index after it.
///
/// # Errors
/// The 0-based character index of the problem and a message.
pub(crate) fn parse_code(chars: &[char], start: usize) -> Result<(Code, usize), (usize, String)> {
    let mut i = start;
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut point = None;
    let mut period_start = None;
    let mut closed = false;
    let mut digit_at = vec![];
    while let Some(&c) = chars.get(i) {
        if closed {
            if c.is_ascii_alphanumeric() || "{}&*[].!?=".contains(c) {
                return Err((
                    i,
                    "nothing may follow the repeating part ']' of a code".into(),
                ));
            }
            break;
        }
        let at = i;
        let d = match c {
            '.' => {
                if point.is_some() {
                    return Err((i, "a second '.' in a code".into()));
                }
                point = Some(i);
                i += 1;
                continue;
            }
            '[' => {
                if point.is_none() {
                    return Err((i, "'[' may only come after the '.' of a code".into()));
                }
                if period_start.is_some() {
                    return Err((i, "a second '[' in a code".into()));
                }
                period_start = Some(after.len());
                i += 1;
                continue;
            }
            ']' => {
                match period_start {
                    None => return Err((i, "']' without '['".into())),
                    Some(p) if p == after.len() => {
                        return Err((i, "expected a digit between '[' and ']'".into()))
                    }
                    Some(_) => {}
                }
                closed = true;
                i += 1;
                continue;
            }
            '*' => {
                i += 1;
                CodeDigit {
                    counts: 1,
                    more: true,
                    constraint: Constraint::Any,
                }
            }
            '&' => {
                let end = (i + 1..chars.len()).find(|&k| !chars[k].is_ascii_digit());
                let Some(end) = end.filter(|&e| chars.get(e) == Some(&';') && e > i + 1) else {
                    return Err((i, "expected `&n;` with a number n, as in &96;".into()));
                };
                let text: String = chars[i + 1..end].iter().collect();
                let counts: u64 = text
                    .parse()
                    .map_err(|_| (i + 1, "digit `&n;` too large for 64 bits".to_string()))?;
                i = end + 1;
                CodeDigit {
                    counts,
                    more: false,
                    constraint: Constraint::Any,
                }
            }
            '{' => {
                let (d, end) = braces(chars, i)?;
                i = end;
                d
            }
            c if c.is_ascii_alphanumeric() => {
                let v = BASE32
                    .iter()
                    .position(|&b| b as char == c.to_ascii_uppercase())
                    .ok_or_else(|| {
                        (
                            i,
                            format!("unexpected '{c}' in code (digits are 0-9 and A-V)"),
                        )
                    })?;
                i += 1;
                CodeDigit {
                    counts: v as u64,
                    more: false,
                    constraint: Constraint::Any,
                }
            }
            _ => break,
        };
        let constraint = match chars.get(i) {
            Some('!') => Some(Constraint::Unequal),
            Some('?') => Some(Constraint::NotAllEqual),
            Some('=') => Some(Constraint::AllEqual),
            _ => None,
        };
        let mut d = d;
        if let Some(cn) = constraint {
            d.constraint = cn;
            i += 1;
        }
        if point.is_none() {
            before.push(d);
        } else {
            after.push(d);
        }
        digit_at.push(at);
    }
    if let Some(p) = period_start {
        if !closed {
            return Err((i, "expected ']' to close the repeating part".into()));
        }
        let _ = p;
    }
    if before.len() > 1 {
        return Err((
            start,
            "loopy code: digits before '.' beyond the last one add tokens, and heaplab \
             computes loopfree games only (write one digit before the point, as in 4.07)"
                .into(),
        ));
    }
    if point.is_some() && after.is_empty() {
        return Err(match chars.get(i) {
            Some(&c) if !c.is_whitespace() && !")|".contains(c) => (
                i,
                // (control characters are shown escaped by the error's display)
                format!("unexpected '{c}' after '.' (digits are 0-9 and A-V)"),
            ),
            _ => (i, "expected at least one digit after '.'".into()),
        });
    }
    let d0 = before.pop().unwrap_or(CodeDigit::ZERO);
    let period = period_start.map_or(0, |p| after.len() - p);
    let mut digits = vec![d0];
    digits.extend(after);
    match Code::new(digits, period) {
        Ok(code) => Ok((code, i)),
        Err(e) => {
            // the digit's place: index 0 before the point, then one per digit
            let k = if point.is_some() && chars[start] == '.' {
                e.digit.saturating_sub(1)
            } else {
                e.digit
            };
            Err((digit_at.get(k).copied().unwrap_or(start), e.message))
        }
    }
}

/// `{a,b,…}` or `{a,…,k+}` at `chars[start] == '{'`: the digit and the index after `}`.
fn braces(chars: &[char], start: usize) -> Result<(CodeDigit, usize), (usize, String)> {
    let mut i = start + 1;
    let mut counts = 0u64;
    let mut more = false;
    loop {
        while chars.get(i).is_some_and(|c| c.is_whitespace()) {
            i += 1;
        }
        let from = i;
        while chars.get(i).is_some_and(char::is_ascii_digit) {
            i += 1;
        }
        if i == from {
            return Err((i, "expected a number of heaps in { }".into()));
        }
        let text: String = chars[from..i].iter().collect();
        let j: u32 = text
            .parse()
            .ok()
            .filter(|&j| j <= 63)
            .ok_or_else(|| (from, "heap counts in { } go up to 63".to_string()))?;
        counts |= 1 << j;
        while chars.get(i).is_some_and(|c| c.is_whitespace()) {
            i += 1;
        }
        match chars.get(i) {
            Some('+') => {
                more = true;
                i += 1;
                while chars.get(i).is_some_and(|c| c.is_whitespace()) {
                    i += 1;
                }
                if chars.get(i) != Some(&'}') {
                    return Err((i, "`+` ends the list: expected '}'".into()));
                }
                if 1u64 << j != 1u64 << (63 - counts.leading_zeros()) {
                    return Err((from, "the count before `+` must be the largest".into()));
                }
                return Ok((
                    CodeDigit {
                        counts,
                        more,
                        constraint: Constraint::Any,
                    },
                    i + 1,
                ));
            }
            Some(',') => i += 1,
            Some('}') => {
                return Ok((
                    CodeDigit {
                        counts,
                        more,
                        constraint: Constraint::Any,
                    },
                    i + 1,
                ))
            }
            Some('!' | '?' | '=') => {
                return Err((
                    i,
                    "one constraint per digit, written after the braces, as in {2,3}!".into(),
                ))
            }
            Some(c) => return Err((i, format!("unexpected '{c}' in {{ }}"))),
            None => return Err((i, "expected '}' to close the heap counts".into())),
        }
    }
}

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

/// The bit masks that swap neighbouring blocks of 1, 2, 4, 8, 16, 32 bits.
const SWAP: [u64; 6] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0F0F_0F0F_0F0F_0F0F,
    0x00FF_00FF_00FF_00FF,
    0x0000_FFFF_0000_FFFF,
    0x0000_0000_FFFF_FFFF,
];

/// The word whose bit p is bit p ^ lo of `x` (lo < 64): XOR by `lo` inside a word.
#[inline(always)]
pub(crate) fn xor_in_word(mut x: u64, lo: u32) -> u64 {
    for (b, m) in SWAP.iter().enumerate() {
        if lo >> b & 1 == 1 {
            let s = 1u32 << b;
            x = ((x & m) << s) | ((x >> s) & m);
        }
    }
    x
}

/// `dst |= {x ^ c : x in src}` over whole words (one row).
#[inline]
fn or_xored(dst: &mut [u64], src: &[u64], c: u32) {
    let hi = (c >> 6) as usize;
    let lo = c & 63;
    for (w, d) in dst.iter_mut().enumerate() {
        *d |= xor_in_word(src[w ^ hi], lo);
    }
}

/// [`or_xored`] with c mod 64 = `LO` known when compiled (so only its swaps remain) and
/// `hi` = c / 64: XOR by `hi` maps aligned blocks of `lowbit(hi)` words onto each other, so
/// the loop runs over contiguous slices.
#[inline(always)]
fn or_xored_lo<const LO: u32>(dst: &mut [u64], src: &[u64], hi: usize) {
    let words = dst.len();
    let b = if hi == 0 {
        words
    } else {
        (1usize << hi.trailing_zeros()).min(words)
    };
    let mut start = 0;
    while start < words {
        let s = &src[start ^ hi..(start ^ hi) + b];
        for (d, &x) in dst[start..start + b].iter_mut().zip(s) {
            *d |= xor_in_word(x, LO);
        }
        start += b;
    }
}

/// Words of rows from which a block goes to the thread pool (small in tests, so that they
/// run the parallel path).
const PAR_WORDS: usize = if cfg!(test) { 256 } else { 1 << 14 };

/// Rows of `words` words: `dst[r] |= c ^ src[r]` for every row r, the rows in parallel
/// when there are many words.
pub(crate) fn or_xored_rows(dst: &mut [u64], src: &[u64], words: usize, c: u32) {
    use rayon::prelude::*;
    fn rows(dst: &mut [u64], src: &[u64], words: usize, f: impl Fn(&mut [u64], &[u64]) + Sync) {
        if dst.len() >= PAR_WORDS {
            dst.par_chunks_mut(words)
                .zip(src.par_chunks(words))
                .for_each(|(d, s)| f(d, s));
        } else {
            dst.chunks_mut(words)
                .zip(src.chunks(words))
                .for_each(|(d, s)| f(d, s));
        }
    }
    let hi = (c >> 6) as usize;
    macro_rules! by_lo {
        ($($lo:literal)*) => {
            match c & 63 {
                $($lo => rows(dst, src, words, |d, s| or_xored_lo::<$lo>(d, s, hi)),)*
                _ => rows(dst, src, words, |d, s| or_xored(d, s, c)),
            }
        };
    }
    by_lo!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63)
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
    let shapes = code.shapes();
    let mut words = 1usize;
    let new_rows = |words: usize| -> Result<Rows, crate::Error> {
        let n = len.checked_mul(words).ok_or(crate::Error::OutOfMemory {
            what: "the knapsack layers",
            bytes: u64::MAX,
        })?;
        let mut data = Vec::new();
        data.try_reserve_exact(n)
            .map_err(|_| crate::Error::OutOfMemory {
                what: "the knapsack layers",
                bytes: (n as u64).saturating_mul(8),
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
        let mut d = vec![vec![]; len];
        for b in 1..len {
            for t in (b..len).step_by(b) {
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
            if !d.splits() || s < 2 {
                continue;
            }
            let l = match d.constraint {
                Constraint::AllEqual => {
                    for j in 2..=s {
                        if s % j == 0 && d.allows(j as u64) {
                            set(&mut acc, if j % 2 == 1 { g[s / j] } else { 0 });
                        }
                    }
                    continue;
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
                (rows as u64 * len as u64 + 1).saturating_mul(wider as u64 * 8),
                room,
            )?;
            for l in layers.iter_mut() {
                for r in l.exact.iter_mut().chain(l.open.iter_mut()) {
                    let mut nr = new_rows(wider)?;
                    for t in 0..len {
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
            add_part(plain, &g, n, len, false);
            add_part(dist, &g, n, len, true);
            add_part_nae(nae, &g, n, len, &divisors);
        }
        watch.at(n as u64 + 1)?;
    }
    Ok(g)
}

/// The length of a table of 0..=max (`max` + 1), refused where it cannot be addressed.
pub(crate) fn table_len(max: u64) -> Result<usize, crate::Error> {
    usize::try_from(max)
        .ok()
        .and_then(|m| m.checked_add(1))
        .ok_or(crate::Error::TooLarge {
            what: "a Grundy table",
            n: max,
            limit: usize::MAX as u64 - 1,
        })
}

/// The mex of a set of values given as bits (bit v of word v / 64) at heap n: the first
/// clear bit, or the set's width when every bit is set.
///
/// # Errors
/// [`crate::Error::Unsupported`] past u32.
pub(crate) fn bits_mex(acc: &[u64], n: u64) -> Result<u32, crate::Error> {
    let mex = acc
        .iter()
        .enumerate()
        .find(|(_, &w)| w != u64::MAX)
        .map_or(acc.len() as u64 * 64, |(k, w)| {
            k as u64 * 64 + u64::from(w.trailing_ones())
        });
    u32::try_from(mex).map_err(|_| crate::Error::Unsupported {
        what: format!(
            "heap {n} has a Grundy value of 2^32 or more, past the 32 bits values are kept in"
        ),
    })
}

/// Whether bit sets of `bytes` in all fit in `room` and can be allocated now.
///
/// # Errors
/// [`crate::Error::OutOfMemory`] when they do not.
pub(crate) fn bitsets_fit(bytes: u64, room: u64) -> Result<(), crate::Error> {
    if bytes > room || !crate::engines::mem::can_allocate(bytes) {
        return Err(crate::Error::OutOfMemory {
            what: "the bit sets of the values reached (the values grow too fast)",
            bytes,
        });
    }
    Ok(())
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

#[cfg(test)]
mod tests;
