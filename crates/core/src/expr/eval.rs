//! Evaluating an expression with SQL's three-valued logic: at one point ([`Expr::eval`]),
//! over a batch of amounts column by column ([`Expr::eval_col`]), or partly, at one heap
//! ([`Expr::at_heap`]).

use crate::expr::ast::{floor_div, Expr, Op};
use crate::functions::{ClaimFunction, ClaimValue};

/// A column of values over a batch of k (null = `None`).
pub(crate) enum Col {
    Int(Vec<Option<i128>>),
    Bool(Vec<Option<bool>>),
}

/// Amounts k evaluated together by [`Expr::eval_col`].
pub(crate) const BATCH: usize = 512;

/// Where an evaluation reads its variables: `n`, `k` and other names ([`Expr::eval_in`]).
pub(crate) trait Env {
    /// The value of the variable `e` (an [`Expr::N`], [`Expr::K`] or [`Expr::Name`]).
    fn var(&self, e: &Expr) -> Val;
}

/// The heap n and the amount k of a rule; other names are null.
struct HeapAmount(i128, i128);

impl Env for HeapAmount {
    #[inline]
    fn var(&self, e: &Expr) -> Val {
        match e {
            Expr::N => Val::Int(self.0),
            Expr::K => Val::Int(self.1),
            _ => Val::Null,
        }
    }
}

/// A value: an integer, true/false, or null.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Val {
    Int(i128),
    Bool(bool),
    Null,
}

impl Expr {
    /// The value at heap `n` and amount `k` (SQL's nulls: a null operand gives null,
    /// `TRUE OR NULL` is true, `FALSE AND NULL` false; a division by 0 or a function of a
    /// negative number is null). Other names are null.
    pub(crate) fn eval(&self, n: i128, k: i128) -> Val {
        self.eval_in(&HeapAmount(n, k))
    }

    /// The value where `env` gives the variables (`n`, `k` and the other names) — the one
    /// evaluator behind [`Expr::eval`] and the two-heap rules' `a, b, x, y`.
    pub(crate) fn eval_in<E: Env>(&self, env: &E) -> Val {
        match self {
            Expr::Int(x) => Val::Int(*x),
            Expr::Bool(b) => Val::Bool(*b),
            Expr::N | Expr::K | Expr::Name(_) => env.var(self),
            Expr::Neg(e) => match e.eval_in(env) {
                Val::Int(x) => x.checked_neg().map_or(Val::Null, Val::Int),
                _ => Val::Null,
            },
            Expr::Not(e) => match e.eval_in(env) {
                Val::Bool(b) => Val::Bool(!b),
                _ => Val::Null,
            },
            Expr::Bin(Op::And, a, b) => match (a.eval_in(env), b.eval_in(env)) {
                (Val::Bool(false), _) | (_, Val::Bool(false)) => Val::Bool(false),
                (Val::Bool(true), Val::Bool(true)) => Val::Bool(true),
                _ => Val::Null,
            },
            Expr::Bin(Op::Or, a, b) => match (a.eval_in(env), b.eval_in(env)) {
                (Val::Bool(true), _) | (_, Val::Bool(true)) => Val::Bool(true),
                (Val::Bool(false), Val::Bool(false)) => Val::Bool(false),
                _ => Val::Null,
            },
            Expr::Bin(op, a, b) => {
                let (x, y) = match (a.eval_in(env), b.eval_in(env)) {
                    (Val::Int(x), Val::Int(y)) => (x, y),
                    (Val::Bool(x), Val::Bool(y)) if matches!(op, Op::Eq | Op::Ne) => {
                        return Val::Bool((x == y) == (*op == Op::Eq))
                    }
                    _ => return Val::Null,
                };
                let int = |v: Option<i128>| v.map_or(Val::Null, Val::Int);
                match op {
                    Op::Eq => Val::Bool(x == y),
                    Op::Ne => Val::Bool(x != y),
                    Op::Lt => Val::Bool(x < y),
                    Op::Le => Val::Bool(x <= y),
                    Op::Gt => Val::Bool(x > y),
                    Op::Ge => Val::Bool(x >= y),
                    Op::Add => int(x.checked_add(y)),
                    Op::Sub => int(x.checked_sub(y)),
                    Op::Mul => int(x.checked_mul(y)),
                    // floor division and its remainder, which takes the divisor's sign, as in
                    // claims (both null for a zero divisor)
                    Op::Div => int(floor_div(x, y)),
                    Op::Rem => int(floor_div(x, y).map(|q| x - q * y)),
                    Op::And | Op::Or => Val::Null,
                }
            }
            // xor is signed, as in claims (polars' xor): no null for negative numbers
            Expr::Call(ClaimFunction::Xor, args) => {
                match (args[0].eval_in(env), args[1].eval_in(env)) {
                    (Val::Int(x), Val::Int(y)) => Val::Int(x ^ y),
                    _ => Val::Null,
                }
            }
            Expr::Call(f, args) => {
                let vals: Vec<Option<u64>> = args
                    .iter()
                    .map(|a| match a.eval_in(env) {
                        Val::Int(x) => u64::try_from(x).ok(),
                        _ => None,
                    })
                    .collect();
                match f.apply(&vals) {
                    Some(ClaimValue::Int(x)) => Val::Int(i128::from(x)),
                    Some(ClaimValue::Bool(b)) => Val::Bool(b),
                    None => Val::Null,
                }
            }
        }
    }

    /// The values at heap n for every k in `ks`, column by column: each node is one loop
    /// over the whole batch (the vectorised form of [`Expr::eval`], same results).
    pub(crate) fn eval_col(&self, n: i128, ks: &[i128]) -> Col {
        let len = ks.len();
        let ints = |c: Col| match c {
            Col::Int(v) => v,
            Col::Bool(_) => vec![None; len],
        };
        let bools = |c: Col| match c {
            Col::Bool(v) => v,
            Col::Int(_) => vec![None; len],
        };
        match self {
            Expr::Int(x) => Col::Int(vec![Some(*x); len]),
            Expr::Bool(b) => Col::Bool(vec![Some(*b); len]),
            Expr::N => Col::Int(vec![Some(n); len]),
            Expr::Name(_) => Col::Int(vec![None; len]),
            Expr::K => Col::Int(ks.iter().map(|&k| Some(k)).collect()),
            Expr::Neg(e) => {
                let mut v = ints(e.eval_col(n, ks));
                v.iter_mut()
                    .for_each(|x| *x = x.and_then(i128::checked_neg));
                Col::Int(v)
            }
            Expr::Not(e) => {
                let mut v = bools(e.eval_col(n, ks));
                v.iter_mut().for_each(|x| *x = x.map(|b| !b));
                Col::Bool(v)
            }
            Expr::Bin(op @ (Op::And | Op::Or), a, b) => {
                let (mut x, y) = (bools(a.eval_col(n, ks)), bools(b.eval_col(n, ks)));
                let dominant = *op == Op::Or;
                for (p, q) in x.iter_mut().zip(&y) {
                    *p = match (*p, *q) {
                        (Some(u), _) | (_, Some(u)) if u == dominant => Some(dominant),
                        (Some(_), Some(_)) => Some(!dominant),
                        _ => None,
                    };
                }
                Col::Bool(x)
            }
            Expr::Bin(op, a, b) => match (a.eval_col(n, ks), b.eval_col(n, ks)) {
                (Col::Int(x), Col::Int(y)) => {
                    fn cmp(
                        x: &[Option<i128>],
                        y: &[Option<i128>],
                        f: impl Fn(i128, i128) -> bool,
                    ) -> Col {
                        Col::Bool(
                            x.iter()
                                .zip(y)
                                .map(|(p, q)| Some(f((*p)?, (*q)?)))
                                .collect(),
                        )
                    }
                    fn arith(
                        mut x: Vec<Option<i128>>,
                        y: &[Option<i128>],
                        f: impl Fn(i128, i128) -> Option<i128>,
                    ) -> Col {
                        for (p, q) in x.iter_mut().zip(y) {
                            *p = match (*p, *q) {
                                (Some(a), Some(b)) => f(a, b),
                                _ => None,
                            };
                        }
                        Col::Int(x)
                    }
                    match op {
                        Op::Eq => cmp(&x, &y, |a, b| a == b),
                        Op::Ne => cmp(&x, &y, |a, b| a != b),
                        Op::Lt => cmp(&x, &y, |a, b| a < b),
                        Op::Le => cmp(&x, &y, |a, b| a <= b),
                        Op::Gt => cmp(&x, &y, |a, b| a > b),
                        Op::Ge => cmp(&x, &y, |a, b| a >= b),
                        Op::Add => arith(x, &y, i128::checked_add),
                        Op::Sub => arith(x, &y, i128::checked_sub),
                        Op::Mul => arith(x, &y, i128::checked_mul),
                        Op::Div => arith(x, &y, floor_div),
                        Op::Rem => arith(x, &y, |a, b| floor_div(a, b).map(|q| a - q * b)),
                        Op::And | Op::Or => Col::Bool(vec![None; len]),
                    }
                }
                (Col::Bool(x), Col::Bool(y)) if matches!(op, Op::Eq | Op::Ne) => {
                    let eq = *op == Op::Eq;
                    Col::Bool(
                        x.iter()
                            .zip(&y)
                            .map(|(p, q)| Some(((*p)? == (*q)?) == eq))
                            .collect(),
                    )
                }
                _ => Col::Bool(vec![None; len]),
            },
            Expr::Call(ClaimFunction::Xor, args) => {
                let (mut x, y) = (ints(args[0].eval_col(n, ks)), ints(args[1].eval_col(n, ks)));
                for (p, q) in x.iter_mut().zip(&y) {
                    *p = match (*p, *q) {
                        (Some(a), Some(b)) => Some(a ^ b),
                        _ => None,
                    };
                }
                Col::Int(x)
            }
            Expr::Call(f, args) => {
                let cols: Vec<Vec<Option<u64>>> = args
                    .iter()
                    .map(|a| {
                        ints(a.eval_col(n, ks))
                            .into_iter()
                            .map(|x| x.and_then(|x| u64::try_from(x).ok()))
                            .collect()
                    })
                    .collect();
                let mut vals: Vec<Option<u64>> = vec![None; cols.len()];
                let mut ints_out = vec![];
                let mut bools_out = vec![];
                for i in 0..len {
                    for (v, c) in vals.iter_mut().zip(&cols) {
                        *v = c[i];
                    }
                    match f.apply(&vals) {
                        Some(ClaimValue::Int(x)) => ints_out.push(Some(i128::from(x))),
                        Some(ClaimValue::Bool(b)) => bools_out.push(Some(b)),
                        None => {
                            ints_out.push(None);
                            bools_out.push(None);
                        }
                    }
                }
                // a function's type does not change with its arguments
                if bools_out.len() == len && ints_out.iter().all(Option::is_none) {
                    Col::Bool(bools_out)
                } else {
                    ints_out.resize(len, None);
                    Col::Int(ints_out)
                }
            }
        }
    }

    /// The same tree with every maximal subtree that does not use k replaced by its value
    /// at heap n.
    pub(crate) fn at_heap(&self, n: i128) -> Expr {
        if !self.uses_k() {
            return match self.eval(n, 0) {
                Val::Int(x) => Expr::Int(x),
                Val::Bool(b) => Expr::Bool(b),
                // null: an expression that is null whatever k is
                Val::Null => Expr::Bin(Op::Div, Box::new(Expr::Int(0)), Box::new(Expr::Int(0))),
            };
        }
        match self {
            Expr::Neg(e) => Expr::Neg(Box::new(e.at_heap(n))),
            Expr::Not(e) => Expr::Not(Box::new(e.at_heap(n))),
            Expr::Bin(op, a, b) => Expr::Bin(*op, Box::new(a.at_heap(n)), Box::new(b.at_heap(n))),
            Expr::Call(f, args) => Expr::Call(*f, args.iter().map(|a| a.at_heap(n)).collect()),
            e => e.clone(),
        }
    }
}
