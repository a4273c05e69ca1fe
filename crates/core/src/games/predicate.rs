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

use crate::functions::{ClaimFunction, ClaimValue};
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

/// Why a predicate could not be read: the 1-based character position in it and the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PredicateError {
    /// 1-based position in the predicate text.
    pub pos: usize,
    /// What is wrong there.
    pub message: String,
}

#[derive(Debug, Clone, PartialEq)]
enum Expr {
    Int(i128),
    Bool(bool),
    N,
    K,
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Bin(Op, Box<Expr>, Box<Expr>),
    Call(ClaimFunction, Vec<Expr>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
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
    fn text(self) -> &'static str {
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
    fn level(self) -> u8 {
        match self {
            Op::Or => 1,
            Op::And => 2,
            Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge => 4,
            Op::Add | Op::Sub => 5,
            Op::Mul | Op::Div | Op::Rem => 6,
        }
    }
}

/// A column of values over a batch of k (null = `None`).
enum Col {
    Int(Vec<Option<i128>>),
    Bool(Vec<Option<bool>>),
}

/// Amounts k evaluated together by [`Expr::eval_col`].
const BATCH: usize = 512;

/// A value: an integer, true/false, or null.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Val {
    Int(i128),
    Bool(bool),
    Null,
}

impl Expr {
    fn uses_k(&self) -> bool {
        match self {
            Expr::K => true,
            Expr::Int(_) | Expr::Bool(_) | Expr::N => false,
            Expr::Neg(e) | Expr::Not(e) => e.uses_k(),
            Expr::Bin(_, a, b) => a.uses_k() || b.uses_k(),
            Expr::Call(_, args) => args.iter().any(Expr::uses_k),
        }
    }

    fn eval(&self, n: i128, k: i128) -> Val {
        match self {
            Expr::Int(x) => Val::Int(*x),
            Expr::Bool(b) => Val::Bool(*b),
            Expr::N => Val::Int(n),
            Expr::K => Val::Int(k),
            Expr::Neg(e) => match e.eval(n, k) {
                Val::Int(x) => x.checked_neg().map_or(Val::Null, Val::Int),
                _ => Val::Null,
            },
            Expr::Not(e) => match e.eval(n, k) {
                Val::Bool(b) => Val::Bool(!b),
                _ => Val::Null,
            },
            Expr::Bin(Op::And, a, b) => match (a.eval(n, k), b.eval(n, k)) {
                (Val::Bool(false), _) | (_, Val::Bool(false)) => Val::Bool(false),
                (Val::Bool(true), Val::Bool(true)) => Val::Bool(true),
                _ => Val::Null,
            },
            Expr::Bin(Op::Or, a, b) => match (a.eval(n, k), b.eval(n, k)) {
                (Val::Bool(true), _) | (_, Val::Bool(true)) => Val::Bool(true),
                (Val::Bool(false), Val::Bool(false)) => Val::Bool(false),
                _ => Val::Null,
            },
            Expr::Bin(op, a, b) => {
                let (x, y) = match (a.eval(n, k), b.eval(n, k)) {
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
                match (args[0].eval(n, k), args[1].eval(n, k)) {
                    (Val::Int(x), Val::Int(y)) => Val::Int(x ^ y),
                    _ => Val::Null,
                }
            }
            Expr::Call(f, args) => {
                let vals: Vec<Option<u64>> = args
                    .iter()
                    .map(|a| match a.eval(n, k) {
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
    fn eval_col(&self, n: i128, ks: &[i128]) -> Col {
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
    fn at_heap(&self, n: i128) -> Expr {
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

    /// Writes the expression, parenthesised where the binding strengths need it.
    fn write(&self, f: &mut fmt::Formatter<'_>, outer: u8) -> fmt::Result {
        match self {
            Expr::Int(x) => write!(f, "{x}"),
            Expr::Bool(b) => f.write_str(if *b { "TRUE" } else { "FALSE" }),
            Expr::N => f.write_str("n"),
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
fn floor_div(x: i128, y: i128) -> Option<i128> {
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

/// Most operators a predicate may hold (longer ones are refused, not evaluated).
const OPERATORS_MAX: usize = 2000;

/// What an expression is: a number or true/false.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ty {
    Int,
    Bool,
}

impl Expr {
    fn ty(&self) -> Ty {
        match self {
            Expr::Int(_) | Expr::N | Expr::K | Expr::Neg(_) => Ty::Int,
            Expr::Bool(_) | Expr::Not(_) => Ty::Bool,
            Expr::Bin(op, _, _) if op.level() >= 5 => Ty::Int,
            Expr::Bin(..) => Ty::Bool,
            Expr::Call(f, _) if f.is_boolean() => Ty::Bool,
            Expr::Call(..) => Ty::Int,
        }
    }
}

/// The reader of the predicate language.
struct Reader<'a> {
    chars: Vec<char>,
    i: usize,
    _text: &'a str,
    /// Operators read so far.
    ops: usize,
}

type Parsed<T> = Result<T, PredicateError>;

impl Reader<'_> {
    fn err<T>(&self, at: usize, message: impl Into<String>) -> Parsed<T> {
        Err(PredicateError {
            pos: at + 1,
            message: message.into(),
        })
    }

    fn ws(&mut self) {
        while self.chars.get(self.i).is_some_and(|c| c.is_whitespace()) {
            self.i += 1;
        }
    }

    fn peek_str(&mut self, s: &str) -> bool {
        self.ws();
        let n = s.chars().count();
        self.i + n <= self.chars.len()
            && self.chars[self.i..self.i + n].iter().copied().eq(s.chars())
    }

    /// A keyword (any case) at the cursor, not followed by a word character.
    fn keyword(&mut self, word: &str) -> bool {
        self.ws();
        let n = word.len();
        if self.i + n > self.chars.len() {
            return false;
        }
        let here: String = self.chars[self.i..self.i + n].iter().collect();
        let after = self.chars.get(self.i + n);
        if here.eq_ignore_ascii_case(word)
            && !after.is_some_and(|c| c.is_alphanumeric() || *c == '_')
        {
            self.i += n;
            true
        } else {
            false
        }
    }

    /// Joins `a op b` after checking the operand types, `at` the operator's position.
    fn join(&mut self, op: Op, a: Expr, b: Expr, at: usize) -> Parsed<Expr> {
        self.ops += 1;
        if self.ops > OPERATORS_MAX {
            return self.err(at, format!("more than {OPERATORS_MAX} operators"));
        }
        let (ta, tb) = (a.ty(), b.ty());
        let ok = match op {
            Op::Or | Op::And => ta == Ty::Bool && tb == Ty::Bool,
            Op::Eq | Op::Ne => ta == tb,
            Op::Lt | Op::Le | Op::Gt | Op::Ge => ta == Ty::Int && tb == Ty::Int,
            Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Rem => ta == Ty::Int && tb == Ty::Int,
        };
        if !ok {
            let want = match op {
                Op::Or | Op::And => "true/false on both sides",
                Op::Eq | Op::Ne => "two numbers or two true/false values",
                _ => "numbers on both sides",
            };
            return self.err(at, format!("`{}` needs {want}", op.text()));
        }
        Ok(Expr::Bin(op, Box::new(a), Box::new(b)))
    }

    fn or(&mut self, depth: usize) -> Parsed<Expr> {
        let mut a = self.and(depth)?;
        loop {
            self.ws();
            let at = self.i;
            if !self.keyword("OR") {
                return Ok(a);
            }
            let b = self.and(depth)?;
            a = self.join(Op::Or, a, b, at)?;
        }
    }

    fn and(&mut self, depth: usize) -> Parsed<Expr> {
        let mut a = self.not(depth)?;
        loop {
            self.ws();
            let at = self.i;
            if !self.keyword("AND") {
                return Ok(a);
            }
            let b = self.not(depth)?;
            a = self.join(Op::And, a, b, at)?;
        }
    }

    fn not(&mut self, depth: usize) -> Parsed<Expr> {
        self.ws();
        let at = self.i;
        if self.keyword("NOT") {
            if depth > 64 {
                return self.err(at, "nested more than 64 deep");
            }
            let e = self.not(depth + 1)?;
            if e.ty() != Ty::Bool {
                return self.err(at, "`NOT` needs true/false");
            }
            return Ok(Expr::Not(Box::new(e)));
        }
        self.comparison(depth)
    }

    fn comparison(&mut self, depth: usize) -> Parsed<Expr> {
        let a = self.sum(depth)?;
        self.ws();
        for (s, op) in [
            ("<>", Op::Ne),
            ("!=", Op::Ne),
            ("<=", Op::Le),
            (">=", Op::Ge),
            ("==", Op::Eq),
            ("=", Op::Eq),
            ("<", Op::Lt),
            (">", Op::Gt),
        ] {
            if self.peek_str(s) {
                let at = self.i;
                self.i += s.len();
                let b = self.sum(depth)?;
                return self.join(op, a, b, at);
            }
        }
        Ok(a)
    }

    fn sum(&mut self, depth: usize) -> Parsed<Expr> {
        let mut a = self.product(depth)?;
        loop {
            let op = if self.peek_str("+") {
                Op::Add
            } else if self.peek_str("-") {
                Op::Sub
            } else {
                return Ok(a);
            };
            let at = self.i;
            self.i += 1;
            let b = self.product(depth)?;
            a = self.join(op, a, b, at)?;
        }
    }

    fn product(&mut self, depth: usize) -> Parsed<Expr> {
        let mut a = self.unary(depth)?;
        loop {
            let (op, len) = if self.peek_str("//") {
                (Op::Div, 2)
            } else if self.peek_str("/") {
                return self.err(self.i, "`/` is not integer division here: write `//`");
            } else if self.peek_str("*") {
                (Op::Mul, 1)
            } else if self.peek_str("%") {
                (Op::Rem, 1)
            } else {
                return Ok(a);
            };
            let at = self.i;
            self.i += len;
            let b = self.unary(depth)?;
            a = self.join(op, a, b, at)?;
        }
    }

    fn unary(&mut self, depth: usize) -> Parsed<Expr> {
        if depth > 64 {
            return self.err(self.i, "nested more than 64 deep");
        }
        if self.peek_str("-") {
            let at = self.i;
            self.i += 1;
            let e = self.unary(depth + 1)?;
            if e.ty() != Ty::Int {
                return self.err(at, "`-` needs a number");
            }
            return Ok(Expr::Neg(Box::new(e)));
        }
        self.primary(depth)
    }

    fn primary(&mut self, depth: usize) -> Parsed<Expr> {
        self.ws();
        let at = self.i;
        let Some(&c) = self.chars.get(self.i) else {
            return self.err(at, "expected a value, found the end");
        };
        if c == '(' {
            self.i += 1;
            let e = self.or(depth + 1)?;
            self.ws();
            if self.chars.get(self.i) != Some(&')') {
                return self.err(self.i, "expected ')'");
            }
            self.i += 1;
            return Ok(e);
        }
        if c.is_ascii_digit() {
            let mut j = self.i;
            while self
                .chars
                .get(j)
                .is_some_and(|c| c.is_ascii_digit() || *c == '_')
            {
                j += 1;
            }
            let digits: String = self.chars[self.i..j]
                .iter()
                .filter(|c| **c != '_')
                .collect();
            self.i = j;
            return match digits.parse::<u64>() {
                Ok(x) => Ok(Expr::Int(i128::from(x))),
                Err(_) => self.err(at, "a number beyond 2^64 - 1"),
            };
        }
        if c.is_alphabetic() || c == '_' {
            let mut j = self.i;
            while self
                .chars
                .get(j)
                .is_some_and(|c| c.is_alphanumeric() || *c == '_')
            {
                j += 1;
            }
            let word: String = self.chars[self.i..j].iter().collect();
            self.i = j;
            let lower = word.to_ascii_lowercase();
            return match lower.as_str() {
                "n" => Ok(Expr::N),
                "k" => Ok(Expr::K),
                "true" => Ok(Expr::Bool(true)),
                "false" => Ok(Expr::Bool(false)),
                _ => match ClaimFunction::from_name(&lower) {
                    Some(f) => self.call(f, at, depth),
                    None => self.err(
                        at,
                        format!(
                            "unknown name `{}` (a rule knows n, k, TRUE, FALSE and the functions \
                             isqrt, v2, popcount, is_square, is_prime, xor)",
                            word.chars().take(30).collect::<String>()
                        ),
                    ),
                },
            };
        }
        self.err(at, format!("unexpected '{}'", c.escape_default()))
    }

    fn call(&mut self, f: ClaimFunction, at: usize, depth: usize) -> Parsed<Expr> {
        self.ws();
        if self.chars.get(self.i) != Some(&'(') {
            return self.err(self.i, format!("expected '(' after {}", f.name()));
        }
        self.i += 1;
        let mut args = vec![self.or(depth + 1)?];
        loop {
            self.ws();
            match self.chars.get(self.i) {
                Some(',') => {
                    self.i += 1;
                    args.push(self.or(depth + 1)?);
                }
                Some(')') => {
                    self.i += 1;
                    break;
                }
                _ => return self.err(self.i, "expected ',' or ')'"),
            }
        }
        if args.len() != f.arity() {
            return self.err(
                at,
                format!(
                    "{} takes {} argument(s), not {}",
                    f.name(),
                    f.arity(),
                    args.len()
                ),
            );
        }
        if args.iter().any(|a| a.ty() != Ty::Int) {
            return self.err(at, format!("{} takes numbers", f.name()));
        }
        Ok(Expr::Call(f, args))
    }
}

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
        let mut r = Reader {
            chars: text.chars().collect(),
            i: 0,
            _text: text,
            ops: 0,
        };
        r.ws();
        if r.i >= r.chars.len() {
            return r.err(
                0,
                "empty rule: write a predicate over n and k, e.g. k <= isqrt(n)",
            );
        }
        let expr = r.or(0)?;
        r.ws();
        if let Some(c) = r.chars.get(r.i) {
            return r.err(r.i, format!("unexpected '{}'", c.escape_default()));
        }
        if expr.ty() != Ty::Bool {
            return r.err(
                0,
                "a rule is true or false for each move: compare, e.g. k <= isqrt(n)",
            );
        }
        let mut bounds = vec![];
        bounds_of(&expr, &mut bounds);
        Ok(MovePredicate {
            text: expr.to_string(),
            expr,
            bounds,
        })
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

/// How an integer expression over n grows, when it is known to be non-decreasing in n
/// and never null for n >= 0: the most it can grow from n to n + 1, and its value at
/// n = 0 (its least value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Growth {
    step: i128,
    least: i128,
}

impl Expr {
    /// The growth of an integer expression over n alone, when the structure of the tree
    /// proves it non-decreasing and never null for n >= 0: constants; n; sums; differences
    /// and products with a constant (a non-negative factor); floor division by a positive
    /// constant (step ⌈s / c⌉); `isqrt` of a non-negative expression (step 1 when the
    /// argument's step is at most 3, as no two positive squares lie within 3 of each other
    /// past 1, else ⌊√s⌋ + 1). `None` for anything else.
    fn growth(&self) -> Option<Growth> {
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
