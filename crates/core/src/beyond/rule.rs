//! `pair{PRED}`: a two-heap game of your own. From (a, b) a move takes x tokens from the
//! first heap and y from the second — 0 ≤ x ≤ a, 0 ≤ y ≤ b, not both 0 — when the
//! predicate over a, b, x, y holds: Wythoff's game is `pair{x = 0 OR y = 0 OR x = y}`.
//! The language is the one of `rule{…}` (SQL's nulls: a null predicate is no move).
//!
//! Grundy values by the definition, anti-diagonal by anti-diagonal (a cell's options lie
//! on earlier anti-diagonals, so the cells of one are computed in parallel). A predicate
//! that names neither a nor b is the same at every position: it is evaluated once per
//! (x, y) into a table, and each cell reads that table; otherwise it is evaluated for
//! every (a, b, x, y). Either way the work grows as N⁴/4 for a square [0, N]², which
//! bounds these games to small squares ([`MAX_EVALS`], [`MAX_LOOKUPS`]).

use super::BeyondError;
use crate::expr::ast::Expr;
use crate::expr::eval::{Env, Val};
use crate::expr::parse::{parse_predicate, Dialect};
use crate::expr::ParseError;
use crate::observe::Observer;
use rayon::prelude::*;
use std::ops::ControlFlow;

/// Most predicate evaluations of one table of a rule that names a or b (2^31: about a
/// minute on two cores; a square to about 300).
pub const MAX_EVALS: u128 = 1 << 31;
/// Most option look-ups of one table of a rule that names neither a nor b (2^35: about
/// a minute on two cores; a square to about 600).
pub const MAX_LOOKUPS: u128 = 1 << 35;

/// A two-heap rule (`pair{PRED}`); equal when their canonical texts are equal.
#[derive(Debug, Clone)]
pub struct PairRule {
    expr: Expr,
    text: String,
    /// The predicate names a or b (else it is the same at every position).
    positional: bool,
}

impl PartialEq for PairRule {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}
impl Eq for PairRule {}

/// The variables of a two-heap rule: a, b, x, y.
struct PairVars([i128; 4]);

impl Env for PairVars {
    #[inline]
    fn var(&self, e: &Expr) -> Val {
        // the dialect admits the lower-case names a, b, x, y only
        match e {
            Expr::Name(s) => match s.as_bytes().first() {
                Some(b'a') => Val::Int(self.0[0]),
                Some(b'b') => Val::Int(self.0[1]),
                Some(b'x') => Val::Int(self.0[2]),
                Some(b'y') => Val::Int(self.0[3]),
                _ => Val::Null,
            },
            _ => Val::Null,
        }
    }
}

impl PairRule {
    /// Reads a predicate over a, b (the heaps) and x, y (what a move takes from each).
    ///
    /// # Errors
    /// [`ParseError`] with the 1-based position of the first problem: an unknown name
    /// (`n` and `k` are one-heap names here), a missing operand, a predicate that is not
    /// true/false, an empty text.
    pub fn parse(text: &str) -> Result<PairRule, ParseError> {
        let expr = parse_predicate(
            text,
            Dialect::PAIR,
            "empty rule: write a predicate over a, b, x, y, e.g. x = 0 OR y = 0 OR x = y",
            "a two-heap rule is true or false for each move: compare, e.g. x = y",
        )?;
        Ok(PairRule {
            text: expr.to_string(),
            positional: expr.mentions("a") || expr.mentions("b"),
            expr,
        })
    }

    /// The canonical text (parses back to the same rule).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the predicate names a or b (else the same moves apply at every position).
    pub fn positional(&self) -> bool {
        self.positional
    }

    /// Whether the move taking (x, y) from (a, b) is allowed: 0 ≤ x ≤ a, 0 ≤ y ≤ b, not
    /// both 0, and the predicate true (a null predicate is no move).
    pub fn allows(&self, a: u64, b: u64, x: u64, y: u64) -> bool {
        x <= a
            && y <= b
            && (x, y) != (0, 0)
            && self.expr.eval_in(&PairVars([
                i128::from(a),
                i128::from(b),
                i128::from(x),
                i128::from(y),
            ])) == Val::Bool(true)
    }

    /// Every option of (p, q), by the definition.
    pub fn options(&self, p: u64, q: u64) -> Vec<(u64, u64)> {
        let mut out = vec![];
        for x in 0..=p {
            for y in 0..=q {
                if self.allows(p, q, x, y) {
                    out.push((p - x, q - y));
                }
            }
        }
        out
    }

    /// The work of a table of [0, rows) × [0, cols): Σ (p + 1)(q + 1) over its cells.
    fn work(rows: u64, cols: u64) -> u128 {
        let (r, c) = (rows as u128, cols as u128);
        r * (r + 1) / 2 * (c * (c + 1) / 2)
    }

    /// Refuses a table beyond [`MAX_EVALS`] / [`MAX_LOOKUPS`].
    pub(crate) fn check_size(&self, rows: u64, cols: u64) -> Result<(), BeyondError> {
        let (limit, what) = if self.positional {
            (MAX_EVALS, "evaluations of a rule that names a or b")
        } else {
            (MAX_LOOKUPS, "option look-ups")
        };
        let work = Self::work(rows, cols);
        if work > limit {
            return Err(BeyondError::TooLarge(format!(
                "pair{{{}}} on {rows} × {cols} cells: {work} {what}, at most {limit} (every \
                 cell tries every (x, y): a square to about {})",
                self.text,
                if self.positional { 300 } else { 600 }
            )));
        }
        Ok(())
    }
}

/// Grundy values of [0, rows) × [0, cols) of a two-heap rule, row-major, written into
/// `values` (rows · cols cells, checked by the caller).
pub(crate) fn rule_rect(
    rule: &PairRule,
    rows: u64,
    cols: u64,
    values: &mut [u32],
    obs: &dyn Observer,
) -> Result<(), BeyondError> {
    rule.check_size(rows, cols)?;
    let (r, c) = (rows as usize, cols as usize);
    // a rule the same everywhere: its moves (x, y) once, as a table over [0, r) × [0, c)
    let moves: Option<Vec<bool>> = (!rule.positional).then(|| {
        (0..r * c)
            .into_par_iter()
            .map(|i| rule.allows(u64::MAX, u64::MAX, (i / c) as u64, (i % c) as u64))
            .collect()
    });
    let mut cells: Vec<(usize, usize)> = vec![];
    let mut found: Vec<u32> = vec![];
    for d in 0..r + c - 1 {
        cells.clear();
        cells.extend((d.saturating_sub(c - 1)..=d.min(r - 1)).map(|p| (p, d - p)));
        let done: &[u32] = values;
        cells
            .par_iter()
            .map_init(Vec::<u32>::new, |stamp, &(p, q)| {
                // the least value no option has: stamps of this cell's options
                stamp.clear();
                stamp.resize((p + 1) * (q + 1) + 1, 0);
                let mut mark = |v: u32| {
                    if let Some(s) = stamp.get_mut(v as usize) {
                        *s = 1;
                    }
                };
                for x in 0..=p {
                    for y in 0..=q {
                        let ok = match &moves {
                            Some(m) => (x, y) != (0, 0) && m[x * c + y],
                            None => rule.allows(p as u64, q as u64, x as u64, y as u64),
                        };
                        if ok {
                            mark(done[(p - x) * c + q - y]);
                        }
                    }
                }
                stamp.iter().position(|&s| s == 0).unwrap_or(stamp.len()) as u32
            })
            .collect_into_vec(&mut found);
        for (&(p, q), &g) in cells.iter().zip(&found) {
            values[p * c + q] = g;
        }
        if let ControlFlow::Break(()) = obs.observe(d as u64 + 1, (r + c - 1) as u64) {
            return Err(BeyondError::Cancelled);
        }
    }
    Ok(())
}
