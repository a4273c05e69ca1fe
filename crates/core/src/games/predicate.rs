//! `rule{…}`: a one-heap game given by a move predicate over the heap `n` and the amount
//! `k` removed — a move takes k tokens (1 <= k <= n) when the predicate is true, e.g.
//! `rule{k <= isqrt(n) AND k % 2 = 1}` or `rule{n % k <> 0}`.
//!
//! The language is the one of `check` claims, on integers: numbers, `n`, `k`, `+ - *`,
//! `//` (integer division) and `%` (remainder), comparisons `= == <> != < <= > >=`,
//! `AND OR NOT`, `TRUE FALSE`, parentheses and the functions of
//! [`crate::functions::ClaimFunction`] (`isqrt`, `v2`, `popcount`, `is_square`,
//! `is_prime`, `xor`). As in SQL, a division by zero or a function of a negative number is
//! null, null propagates, `TRUE OR NULL` is true, and a move whose predicate is null is no
//! move.
//!
//! The predicate is parsed once into a tree. The parts that do not depend on k are evaluated
//! once per heap, and the amounts tried are bounded by the conjuncts `k <= E`, `k < E`
//! (and their mirror images) whose E does not depend on k: `rule{k <= isqrt(n)}` tries
//! √n amounts per heap, not n.

use crate::expr::ast::{Expr, Op};
use crate::expr::eval::{Col, Val, BATCH};
use crate::expr::growth::Growth;
use crate::expr::parse::{parse_predicate, Dialect};
use crate::moves::bound::Bound;
use crate::moves::interval::{Reach, ReachBound};
use crate::moves::{interval_or_finite, Moves};
use std::fmt;
use std::sync::Arc;

/// A parsed move predicate; equal when their canonical texts are equal.
#[derive(Debug, Clone)]
pub struct MovePredicate {
    expr: Expr,
    /// The canonical text (parses back to the same predicate).
    text: String,
    /// Upper bounds on k from the top-level conjuncts: k <= bound(n) for each.
    bounds: Vec<Expr>,
}

/// Why a predicate could not be read: the 1-based character position in it and the problem
/// (the expression language's [`crate::expr::ParseError`]).
pub type PredicateError = crate::expr::ParseError;

/// The upper bounds on k that the top-level conjuncts of `e` give.
fn bounds_of(e: &Expr, out: &mut Vec<Expr>) {
    let minus1 = |x: &Expr| Expr::Bin(Op::Sub, Box::new(x.clone()), Box::new(Expr::Int(1)));
    match e {
        Expr::Bin(Op::And, a, b) => {
            bounds_of(a, out);
            bounds_of(b, out);
        }
        Expr::Bin(op, a, b) => match (op, &**a, &**b) {
            (Op::Le | Op::Eq, Expr::K, x) | (Op::Ge | Op::Eq, x, Expr::K) if !x.uses_k() => {
                out.push(x.clone())
            }
            (Op::Lt, Expr::K, x) | (Op::Gt, x, Expr::K) if !x.uses_k() => out.push(minus1(x)),
            _ => {}
        },
        _ => {}
    }
}

impl MovePredicate {
    /// Reads a predicate (the text inside `rule{…}`).
    ///
    /// # Errors
    /// [`PredicateError`] with the position of the first problem: an unknown name, a
    /// missing operand or parenthesis, `/` (write `//`), a wrong number of arguments, a
    /// predicate that is not true/false.
    pub fn parse(text: &str) -> Result<MovePredicate, PredicateError> {
        let expr = parse_predicate(
            text,
            Dialect::RULE,
            "empty rule: write a predicate over n and k, e.g. k <= isqrt(n)",
            "a rule is true or false for each move: compare, e.g. k <= isqrt(n)",
        )?;
        let mut bounds = vec![];
        bounds_of(&expr, &mut bounds);
        Ok(MovePredicate {
            text: expr.to_string(),
            expr,
            bounds,
        })
    }

    /// The amounts a (1 ≤ a ≤ `most`) a loopy rule adds to a heap of n: those where the
    /// predicate holds at k = −a (`loopy{C; PRED}`), evaluated in one batch.
    pub fn added(&self, n: u64, most: u64) -> Vec<u64> {
        let n128 = i128::from(n);
        let ks: Vec<i128> = (1..=most as i128).map(|a| -a).collect();
        match self.expr.eval_col(n128, &ks) {
            Col::Bool(v) => v
                .iter()
                .zip(1..=most)
                .filter(|(b, _)| **b == Some(true))
                .map(|(_, a)| a)
                .collect(),
            _ => vec![],
        }
    }

    /// The canonical text (parses back to the same predicate).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The amounts k (increasing, 1 <= k <= n) the predicate allows from a heap of n.
    pub fn moves(&self, n: u64) -> Vec<u64> {
        let n128 = i128::from(n);
        let mut top = n128;
        for b in &self.bounds {
            match b.eval(n128, 0) {
                Val::Int(x) => top = top.min(x),
                // a null bound makes that conjunct null for every k: no move
                _ => return vec![],
            }
        }
        if top < 1 {
            return vec![];
        }
        let e = self.expr.at_heap(n128);
        match e {
            Expr::Bool(false) => vec![],
            Expr::Bool(true) => (1..=top as u64).collect(),
            e => {
                // the k in batches, each evaluated column by column
                let mut out = vec![];
                let mut ks: Vec<i128> = Vec::with_capacity(BATCH);
                let mut k = 1u64;
                while k <= top as u64 {
                    ks.clear();
                    let end = (k + BATCH as u64 - 1).min(top as u64);
                    ks.extend((k..=end).map(i128::from));
                    if let Col::Bool(v) = e.eval_col(n128, &ks) {
                        out.extend(
                            v.iter()
                                .zip(k..=end)
                                .filter(|(b, _)| **b == Some(true))
                                .map(|(_, k)| k),
                        );
                    }
                    k = end + 1;
                }
                out
            }
        }
    }

    /// Is removing k from a heap of n a move (1 <= k <= n and the predicate true)?
    pub fn allows(&self, n: u64, k: u64) -> bool {
        k >= 1 && k <= n && self.expr.eval(i128::from(n), i128::from(k)) == Val::Bool(true)
    }

    /// An upper estimate of the amounts tried from a heap of n (the bound, or n).
    pub fn tried(&self, n: u64) -> u64 {
        let n128 = i128::from(n);
        self.bounds
            .iter()
            .filter_map(|b| match b.eval(n128, 0) {
                Val::Int(x) => Some(x.clamp(0, n128) as u64),
                _ => None,
            })
            .min()
            .unwrap_or(n)
    }
}

impl PartialEq for MovePredicate {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for MovePredicate {}

impl std::hash::Hash for MovePredicate {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.text.hash(h)
    }
}

impl fmt::Display for MovePredicate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl serde::Serialize for MovePredicate {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> serde::Deserialize<'de> for MovePredicate {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        MovePredicate::parse(&text).map_err(|e| serde::de::Error::custom(e.message))
    }
}

/// What one OR-term of a rule allows, when its structure shows: the amounts 1..=min of
/// upper bounds over n, or one constant amount.
enum TermShape {
    /// `k <= E` (`k < E` is `k <= E - 1`), several joined by AND: k up to the least.
    Upto(Vec<Expr>),
    /// `k = c`.
    Amount(i128),
}

/// The shape of a conjunction of comparisons of k: upper bounds on k (and the lower bound
/// k >= 1 that every move has), or k equal to a constant. `None` for anything else.
fn term_shape(e: &Expr) -> Option<TermShape> {
    let mut conjuncts = vec![];
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        match x {
            Expr::Bin(Op::And, a, b) => {
                stack.push(a);
                stack.push(b);
            }
            other => conjuncts.push(other),
        }
    }
    let minus1 = |x: &Expr| Expr::Bin(Op::Sub, Box::new(x.clone()), Box::new(Expr::Int(1)));
    let mut uppers = vec![];
    let mut amount = None;
    for c in conjuncts {
        let Expr::Bin(op, a, b) = c else {
            return None;
        };
        let (a, b) = (&**a, &**b);
        match (op, a, b) {
            (Op::Le, Expr::K, x) | (Op::Ge, x, Expr::K) if !x.uses_k() => uppers.push(x.clone()),
            (Op::Lt, Expr::K, x) | (Op::Gt, x, Expr::K) if !x.uses_k() => uppers.push(minus1(x)),
            // k >= 1 (or k > 0, k >= 0): every amount is
            (Op::Ge, Expr::K, Expr::Int(0 | 1))
            | (Op::Le, Expr::Int(0 | 1), Expr::K)
            | (Op::Gt, Expr::K, Expr::Int(0))
            | (Op::Lt, Expr::Int(0), Expr::K) => {}
            (Op::Eq, Expr::K, x) | (Op::Eq, x, Expr::K) if amount.is_none() => {
                amount = Some(match x.growth()? {
                    Growth { step: 0, least } => least,
                    _ => return None,
                })
            }
            _ => return None,
        }
    }
    match (amount, uppers.is_empty()) {
        (Some(c), true) => Some(TermShape::Amount(c)),
        (None, false) => Some(TermShape::Upto(uppers)),
        _ => None,
    }
}

impl MovePredicate {
    /// The structure of the amounts this predicate allows. A rule that is an OR of terms,
    /// each either upper bounds on k (`k <= E`, `k < E`, joined by AND, E over n alone and
    /// proven non-decreasing with steps of at most 1 and never null: see
    /// `Expr::growth`) or one constant amount (`k = 3`), is an interval with extra amounts
    /// — `rule{k <= n // 2 OR k = 1}` is `half|sub{1}` — and runs on the interval engines
    /// (a finite set when every bound is a constant). Any other rule is listed heap by heap.
    pub(crate) fn moves_structure(&self) -> Moves {
        self.interval_structure()
            .unwrap_or_else(|| Moves::Listed(Arc::new(self.clone())))
    }

    fn interval_structure(&self) -> Option<Moves> {
        let mut terms = vec![];
        let mut stack = vec![&self.expr];
        while let Some(x) = stack.pop() {
            match x {
                Expr::Bin(Op::Or, a, b) => {
                    stack.push(a);
                    stack.push(b);
                }
                other => terms.push(other),
            }
        }
        let mut bounds = vec![];
        let mut extra = vec![];
        for t in terms {
            match term_shape(t)? {
                TermShape::Amount(c) => {
                    // k = 0 or less is no move
                    if c >= 1 {
                        extra.push(u64::try_from(c).ok()?);
                    }
                }
                TermShape::Upto(uppers) => {
                    let mut named = None;
                    for e in &uppers {
                        let g = e.growth()?;
                        if g.step > 1 {
                            return None;
                        }
                        if g.step == 0 {
                            named = Some(named.map_or(g.least, |m: i128| m.min(g.least)));
                        }
                    }
                    let bound = match (
                        named,
                        uppers
                            .iter()
                            .all(|e| e.growth().is_some_and(|g| g.step == 0)),
                    ) {
                        // constants only: upto{c}
                        (Some(c), true) => {
                            ReachBound::Named(Bound::Upto(u64::try_from(c.max(0)).ok()?))
                        }
                        _ => {
                            let text = uppers
                                .iter()
                                .map(|e| e.to_string())
                                .collect::<Vec<_>>()
                                .join(", ");
                            ReachBound::Expr {
                                text: format!("min({text})"),
                                f: Arc::new(move |n| {
                                    let n128 = i128::from(n);
                                    uppers
                                        .iter()
                                        .map(|e| match e.eval(n128, 0) {
                                            Val::Int(x) => x.clamp(0, n128) as u64,
                                            // (never: the growth proves no null)
                                            _ => 0,
                                        })
                                        .min()
                                        .unwrap_or(0)
                                }),
                            }
                        }
                    };
                    bounds.push((bound, false));
                }
            }
        }
        extra.sort_unstable();
        extra.dedup();
        if bounds.is_empty() {
            return Some(Moves::Finite {
                moves: extra,
                leave1: false,
            });
        }
        Some(interval_or_finite(Reach {
            bounds,
            extra,
            extra_leave1: false,
        }))
    }
}

impl crate::moves::AmountRule for MovePredicate {
    fn amounts(&self, n: u64, out: &mut Vec<u64>) {
        out.extend(self.moves(n));
    }
    fn allows(&self, n: u64, s: u64) -> bool {
        MovePredicate::allows(self, n, s)
    }
    fn tried(&self, n: u64) -> f64 {
        MovePredicate::tried(self, n) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predicates_read_evaluate_and_print_back() {
        let p = MovePredicate::parse("k <= isqrt(n) and k % 2 = 1").unwrap();
        assert_eq!(p.text(), "k <= isqrt(n) AND k % 2 = 1");
        assert_eq!(p.moves(30), [1, 3, 5]);
        assert_eq!(p.tried(30), 5);
        let d = MovePredicate::parse("n % k = 0 AND k < n").unwrap();
        assert_eq!(d.moves(12), [1, 2, 3, 4, 6]);
        assert_eq!(d.tried(12), 11);
        let q = MovePredicate::parse("NOT (n % k <> 0) OR k = 1").unwrap();
        assert_eq!(MovePredicate::parse(q.text()).unwrap(), q);
        // SQL nulls: a zero divisor or a negative argument is null, and null is no move
        let z = MovePredicate::parse("n // (k - 1) >= 0").unwrap();
        assert_eq!(z.moves(4), [2, 3, 4]);
        // n = 4: k = 2 leaves 0, a square; k = 3 gives is_square(-2), null, and no move;
        // k = 4 gives NULL OR TRUE, true
        let neg = MovePredicate::parse("is_square(n - 2 * k) OR k = 4").unwrap();
        assert_eq!(neg.moves(4), [2, 4]);
        // precedence and printing: a - (b - c) keeps its parentheses
        let s = MovePredicate::parse("k = n - (n - 1)").unwrap();
        assert_eq!(s.text(), "k = n - (n - 1)");
        assert_eq!(s.moves(9), [1]);
        // comparisons of comparisons print with their parentheses, and parse back
        for t in [
            "(k = 1) = (n = 2)",
            "(n > k) = TRUE",
            "NOT (k = 1) = (n = 2)",
            "(k < 3) <> (n < 5)",
        ] {
            let p = MovePredicate::parse(t).unwrap();
            let back = MovePredicate::parse(p.text()).unwrap();
            assert_eq!(back, p, "{t} -> {}", p.text());
            for n in 0..8 {
                assert_eq!(back.moves(n), p.moves(n));
            }
        }
        // floor division and a remainder with the divisor's sign, as in claims; signed xor
        let f =
            MovePredicate::parse("k = n AND n % (0 - 4) = 0 - 3 AND n // (0 - 2) = 0 - 3").unwrap();
        assert_eq!(f.moves(5), [5]);
        assert_eq!(
            MovePredicate::parse("k = n AND xor(n, 0 - 1) = 0 - 2")
                .unwrap()
                .moves(1),
            [1]
        );
        // a long flat chain is refused, not evaluated
        let long = format!("k < {}", vec!["1"; 3000].join("+"));
        assert!(MovePredicate::parse(&long)
            .unwrap_err()
            .message
            .contains("operators"));
        for (t, pos, msg) in [
            ("TRUE AND 5", 6, "`AND` needs true/false"),
            ("NOT 5", 1, "`NOT` needs true/false"),
            ("is_prime(k = 1)", 1, "takes numbers"),
            ("k = TRUE", 3, "two numbers or two true/false"),
            ("(k = 1) + 1 = 2", 9, "numbers on both sides"),
            ("", 1, "empty rule"),
            ("k <= sqrt(n)", 6, "unknown name `sqrt`"),
            ("k / 2 = 1", 3, "write `//`"),
            ("k <= isqrt(n, 2)", 6, "isqrt takes 1 argument"),
            ("k + 1", 1, "true or false"),
            ("(k < n", 7, "expected ')'"),
            ("k < n )", 7, "unexpected ')'"),
        ] {
            let e = MovePredicate::parse(t).unwrap_err();
            assert_eq!(e.pos, pos, "{t}: {e:?}");
            assert!(e.message.contains(msg), "{t}: {e:?}");
        }
    }
}

#[cfg(test)]
mod columns {
    use super::*;

    /// The batch (column) evaluation of `moves` equals the scalar one of `allows`, nulls,
    /// signs, overflows and three-valued logic included.
    #[test]
    fn columns_equal_the_scalar_evaluation() {
        for text in [
            "n % k <> 0",
            "k <= isqrt(n) AND k % 2 = 1",
            "NOT (k % 3 = 0) OR n // (k - 5) > 2",
            "(n - 3 * k) // (k - 4) >= -1",
            "xor(n, k) < k OR is_square(n - k)",
            "(popcount(k) = 1) = (v2(n) >= 1)",
            "isqrt(k - 10) * isqrt(k - 10) = k - 10",
            "-k + n * n * n * n * n * n * n * n * n * n * n * n * n * n * n > 0",
            "is_prime(k) OR k = 1 AND n % 2 = 0",
            "(k % 0 = 1) OR k = 2",
            "NOT (k // 0 = 1)",
            "k = n OR k * 2 = n",
        ] {
            let p = MovePredicate::parse(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            for n in 0..=1100u64 {
                let want: Vec<u64> = (1..=n).filter(|&k| p.allows(n, k)).collect();
                assert_eq!(p.moves(n), want, "{text} at n = {n}");
            }
        }
    }
}

#[cfg(test)]
mod structure {
    use super::*;

    /// Rules whose amounts form an interval (with extra amounts) run as one; the amounts
    /// are the predicate's own, heap by heap, and rules without such a shape are listed.
    #[test]
    fn interval_rules_keep_their_structure_and_their_amounts() {
        for (text, kind) in [
            ("k <= n // 2 OR k = 1", "interval with extra moves"),
            ("k <= isqrt(n)", "interval"),
            ("k < isqrt(n) + 2 AND k <= n // 3", "interval"),
            ("k <= 3", "interval"),
            ("k <= 3 OR k = 7", "finite set"),
            ("k = 2 OR k = 5", "finite set"),
            ("k <= n - 10 OR k = 4 OR k = 9", "interval with extra moves"),
            ("k <= (n + 1) // 2 AND k >= 1", "interval"),
            ("k <= 2 * n // 3", "interval"),
            ("k <= isqrt(isqrt(n)) OR k = 3", "interval with extra moves"),
            // not shown to be intervals: listed
            ("k <= n * 2 // 3 + n // 2", "listed moves"),
            ("k <= n // 2 AND k % 2 = 1", "listed moves"),
            ("n % k <> 0", "listed moves"),
            ("k <= isqrt(n - 3)", "listed moves"),
            ("k >= 2 AND k <= n // 2", "listed moves"),
        ] {
            let p = MovePredicate::parse(text).unwrap();
            let m = p.moves_structure();
            assert_eq!(m.kind(), kind, "{text}");
            for n in 0..=3000u64 {
                assert_eq!(m.amounts_of(n), p.moves(n), "{text} at n = {n}");
                for s in [1, 2, 3, 4, 7, 9, n / 2, n] {
                    assert_eq!(m.allows(n, s), p.allows(n, s), "{text}: {s} from {n}");
                }
            }
        }
    }
}
