//! How an expression over n grows ([`Growth`]): the structure of its tree proves it
//! non-decreasing, never null, and growing by at most so much from one heap to the next —
//! what lets a rule's bound `k <= E` run on the interval engines.

use crate::expr::ast::{floor_div, Expr, Op};
use crate::functions::ClaimFunction;

/// How an integer expression over n grows, when it is known to be non-decreasing in n
/// and never null for n >= 0: the most it can grow from n to n + 1, and its value at
/// n = 0 (its least value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Growth {
    /// The most it grows from n to n + 1.
    pub step: i128,
    /// Its value at n = 0.
    pub least: i128,
}

impl Expr {
    /// The growth of an integer expression over n alone, when the structure of the tree
    /// proves it non-decreasing and never null for n >= 0: constants; n; sums; differences
    /// and products with a constant (a non-negative factor); floor division by a positive
    /// constant (step ⌈s / c⌉); `isqrt` of a non-negative expression (step 1 when the
    /// argument's step is at most 3, as no two positive squares lie within 3 of each other
    /// past 1, else ⌊√s⌋ + 1). `None` for anything else.
    pub(crate) fn growth(&self) -> Option<Growth> {
        let constant = |e: &Expr| match e.growth() {
            Some(Growth { step: 0, least }) => Some(least),
            _ => None,
        };
        let g = match self {
            Expr::Int(x) => Growth { step: 0, least: *x },
            Expr::N => Growth { step: 1, least: 0 },
            Expr::Neg(e) => Growth {
                step: 0,
                least: constant(e)?.checked_neg()?,
            },
            Expr::Bin(Op::Add, a, b) => {
                let (a, b) = (a.growth()?, b.growth()?);
                Growth {
                    step: a.step.checked_add(b.step)?,
                    least: a.least.checked_add(b.least)?,
                }
            }
            Expr::Bin(Op::Sub, a, b) => {
                let (a, c) = (a.growth()?, constant(b)?);
                Growth {
                    step: a.step,
                    least: a.least.checked_sub(c)?,
                }
            }
            Expr::Bin(Op::Mul, a, b) => {
                let (x, c) = match (constant(a), constant(b)) {
                    (Some(c), _) => (b.growth()?, c),
                    (_, Some(c)) => (a.growth()?, c),
                    _ => return None,
                };
                if c < 0 {
                    return None;
                }
                Growth {
                    step: x.step.checked_mul(c)?,
                    least: x.least.checked_mul(c)?,
                }
            }
            Expr::Bin(Op::Div, a, b) => {
                let (x, c) = (a.growth()?, constant(b)?);
                if c <= 0 {
                    return None;
                }
                Growth {
                    step: (x.step + c - 1) / c,
                    least: floor_div(x.least, c)?,
                }
            }
            Expr::Call(ClaimFunction::Isqrt, args) => {
                let x = args[0].growth()?;
                if x.least < 0 {
                    return None;
                }
                let root = |v: i128| crate::num::isqrt(u64::try_from(v).unwrap_or(u64::MAX));
                Growth {
                    step: if x.step <= 3 {
                        x.step.min(1)
                    } else {
                        i128::from(root(x.step)) + 1
                    },
                    least: i128::from(root(x.least)),
                }
            }
            _ => return None,
        };
        Some(g)
    }
}
