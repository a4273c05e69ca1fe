//! The syntax tree of heaplab's expression language, its types and its canonical text
//! (`Display`: upper-case keywords, single spaces, parentheses only where the binding
//! strengths need them, so the text parses back to the same tree).

use crate::functions::ClaimFunction;
use std::fmt;

/// An expression of heaplab's language: integers, true/false, variables, the arithmetic
/// `+ - * // %`, comparisons, `AND OR NOT` and the functions of [`ClaimFunction`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expr {
    /// An integer literal.
    Int(i128),
    /// `TRUE` or `FALSE`.
    Bool(bool),
    /// The heap `n` (rules, claims).
    N,
    /// The amount `k` (rules).
    K,
    /// Any other name: a parameter (constraints, templates) or a column (claims).
    Name(String),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Bin(Op, Box<Expr>, Box<Expr>),
    Call(ClaimFunction, Vec<Expr>),
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl Op {
    pub(crate) fn text(self) -> &'static str {
        match self {
            Op::Or => "OR",
            Op::And => "AND",
            Op::Eq => "=",
            Op::Ne => "<>",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Div => "//",
            Op::Rem => "%",
        }
    }

    /// Binding strength: OR 1, AND 2, comparisons 4, + - 5, * // % 6 (NOT is 3).
    pub(crate) fn level(self) -> u8 {
        match self {
            Op::Or => 1,
            Op::And => 2,
            Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge => 4,
            Op::Add | Op::Sub => 5,
            Op::Mul | Op::Div | Op::Rem => 6,
        }
    }
}

/// What an expression is: a number or true/false.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ty {
    Int,
    Bool,
}

impl Expr {
    /// Its type (numbers and comparisons are checked when it is read).
    pub(crate) fn ty(&self) -> Ty {
        match self {
            Expr::Int(_) | Expr::N | Expr::K | Expr::Name(_) | Expr::Neg(_) => Ty::Int,
            Expr::Bool(_) | Expr::Not(_) => Ty::Bool,
            Expr::Bin(op, _, _) if op.level() >= 5 => Ty::Int,
            Expr::Bin(..) => Ty::Bool,
            Expr::Call(f, _) if f.is_boolean() => Ty::Bool,
            Expr::Call(..) => Ty::Int,
        }
    }
}

impl Expr {
    /// Whether a comparison occurs in it.
    pub(crate) fn has_comparison(&self) -> bool {
        match self {
            Expr::Bin(op, a, b) => op.level() == 4 || a.has_comparison() || b.has_comparison(),
            Expr::Neg(e) | Expr::Not(e) => e.has_comparison(),
            Expr::Call(_, args) => args.iter().any(Expr::has_comparison),
            Expr::Int(_) | Expr::Bool(_) | Expr::N | Expr::K | Expr::Name(_) => false,
        }
    }

    /// Whether some variable node (`n`, `k` or a name) for which `hit` holds occurs in it:
    /// the one walk behind [`Expr::mentions`], [`Expr::uses_n`] and [`Expr::uses_k`].
    fn has_var(&self, hit: &dyn Fn(&Expr) -> bool) -> bool {
        match self {
            Expr::N | Expr::K | Expr::Name(_) => hit(self),
            Expr::Int(_) | Expr::Bool(_) => false,
            Expr::Neg(e) | Expr::Not(e) => e.has_var(hit),
            Expr::Bin(_, a, b) => a.has_var(hit) || b.has_var(hit),
            Expr::Call(_, args) => args.iter().any(|e| e.has_var(hit)),
        }
    }

    /// Whether the name `name` (an [`Expr::Name`]) occurs in it.
    pub(crate) fn mentions(&self, name: &str) -> bool {
        self.has_var(&|e| matches!(e, Expr::Name(s) if s == name))
    }

    /// Whether `n` occurs in it.
    pub(crate) fn uses_n(&self) -> bool {
        self.has_var(&|e| *e == Expr::N)
    }

    /// Whether `k` occurs in it.
    pub(crate) fn uses_k(&self) -> bool {
        self.has_var(&|e| *e == Expr::K)
    }
}

impl Expr {
    /// Writes the expression, parenthesised where the binding strengths need it.
    fn write(&self, f: &mut fmt::Formatter<'_>, outer: u8) -> fmt::Result {
        match self {
            Expr::Int(x) => write!(f, "{x}"),
            Expr::Bool(b) => f.write_str(if *b { "TRUE" } else { "FALSE" }),
            Expr::N => f.write_str("n"),
            Expr::Name(s) => f.write_str(s),
            Expr::K => f.write_str("k"),
            Expr::Neg(e) => {
                f.write_str("-")?;
                e.write(f, 7)
            }
            Expr::Not(e) => {
                let paren = outer > 3;
                f.write_str(if paren { "(NOT " } else { "NOT " })?;
                e.write(f, 3)?;
                f.write_str(if paren { ")" } else { "" })
            }
            Expr::Bin(op, a, b) => {
                let l = op.level();
                let paren = outer > l;
                if paren {
                    f.write_str("(")?;
                }
                // comparisons do not chain: an operand that is a comparison (or weaker)
                // keeps its parentheses; other operators are left-associative, so only a
                // right operand of the same strength needs them
                let (left, right) = if l == 4 { (5, 5) } else { (l, l + 1) };
                a.write(f, left)?;
                write!(f, " {} ", op.text())?;
                b.write(f, right)?;
                if paren {
                    f.write_str(")")?;
                }
                Ok(())
            }
            Expr::Call(func, args) => {
                write!(f, "{}(", func.name())?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    a.write(f, 0)?;
                }
                f.write_str(")")
            }
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, 0)
    }
}

/// x // y rounded towards minus infinity; `None` for y = 0 or an overflow.
#[inline]
pub(crate) fn floor_div(x: i128, y: i128) -> Option<i128> {
    // 64-bit division where both fit (a hardware divide, not a 128-bit library call)
    if let (Ok(a), Ok(b)) = (i64::try_from(x), i64::try_from(y)) {
        if b == 0 {
            return None;
        }
        if let Some(q) = a.checked_div(b) {
            let q = if a % b != 0 && ((a < 0) != (b < 0)) {
                q - 1
            } else {
                q
            };
            return Some(i128::from(q));
        }
    }
    let q = x.checked_div(y)?;
    Some(if x % y != 0 && ((x < 0) != (y < 0)) {
        q - 1
    } else {
        q
    })
}
