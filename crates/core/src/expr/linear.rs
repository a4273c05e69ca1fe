//! Linear forms over named parameters (Σ c·name + constant), for census constraints: a
//! chain of comparisons of such forms (`1 <= a < b <= 20, a + b != c`) is what a space's
//! bounds are propagated through.

use crate::expr::ast::{Expr, Op};

/// Σ coef·name + constant over named parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lin {
    /// (coefficient, name), each name once, no zero coefficient.
    pub terms: Vec<(i128, String)>,
    /// The constant.
    pub constant: i128,
}

impl Lin {
    fn constant(c: i128) -> Lin {
        Lin {
            terms: vec![],
            constant: c,
        }
    }

    fn scaled(mut self, c: i128) -> Option<Lin> {
        for t in &mut self.terms {
            t.0 = t.0.checked_mul(c)?;
        }
        self.constant = self.constant.checked_mul(c)?;
        Some(self.merged())
    }

    fn plus(mut self, other: Lin) -> Option<Lin> {
        self.terms.extend(other.terms);
        self.constant = self.constant.checked_add(other.constant)?;
        Some(self.merged())
    }

    /// Repeated names added up, zero terms dropped.
    fn merged(self) -> Lin {
        let mut terms: Vec<(i128, String)> = vec![];
        for (c, n) in self.terms {
            match terms.iter_mut().find(|(_, m)| *m == n) {
                Some(t) => t.0 += c,
                None => terms.push((c, n)),
            }
        }
        terms.retain(|(c, _)| *c != 0);
        Lin {
            terms,
            constant: self.constant,
        }
    }
}

impl Expr {
    /// The expression as a linear form, when it is one: numbers, names, `+`, `-` and
    /// products with a number.
    pub(crate) fn linear(&self) -> Option<Lin> {
        match self {
            Expr::Int(c) => Some(Lin::constant(*c)),
            Expr::Name(n) => Some(Lin {
                terms: vec![(1, n.clone())],
                constant: 0,
            }),
            Expr::Neg(e) => e.linear()?.scaled(-1),
            Expr::Bin(Op::Add, a, b) => a.linear()?.plus(b.linear()?),
            Expr::Bin(Op::Sub, a, b) => a.linear()?.plus(b.linear()?.scaled(-1)?),
            Expr::Bin(Op::Mul, a, b) => {
                let (x, y) = (a.linear()?, b.linear()?);
                match (x.terms.is_empty(), y.terms.is_empty()) {
                    (true, _) => y.scaled(x.constant),
                    (_, true) => x.scaled(y.constant),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// The comparisons a constraint holds (joined by AND, as chains read), each side a linear
/// form: (left, operator, right). `None` when a conjunct is no comparison or a side is not
/// linear.
pub(crate) fn relations(e: &Expr) -> Option<Vec<(Lin, Op, Lin)>> {
    match e {
        Expr::Bin(Op::And, a, b) => {
            let mut v = relations(a)?;
            v.extend(relations(b)?);
            Some(v)
        }
        Expr::Bin(op @ (Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge), a, b) => {
            Some(vec![(a.linear()?, *op, b.linear()?)])
        }
        _ => None,
    }
}
