//! The one reader of heaplab's expression language, for `rule{…}` predicates, census
//! constraints, spec templates (and the claims' analyses): numbers, names, `+ - * // %`,
//! comparisons `= == <> != < <= > >=`, `AND OR NOT`, `TRUE FALSE`, parentheses and the
//! functions of [`ClaimFunction`], each operand's type checked as it is read. A
//! [`Dialect`] says which names it knows and whether comparisons chain (`1 <= a < b`).

use crate::expr::ast::{Expr, Op, Ty};
use crate::expr::ParseError;
use crate::functions::ClaimFunction;

/// What a text may hold beyond the common language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Names {
    /// A rule: the names `n` and `k` only.
    Rule,
    /// Parameters: any other name is a variable.
    Params,
}

/// The variant of the language a text is read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Dialect {
    /// Which names are variables.
    pub names: Names,
    /// `a < b <= c` reads as `a < b AND b <= c` (census constraints).
    pub chains: bool,
    /// Numbers are counts (`1e6`, `10^6`, `1_000`), as census constraints write them.
    pub counts: bool,
}

impl Dialect {
    /// `rule{…}`: n, k, plain numbers, no chains.
    pub(crate) const RULE: Dialect = Dialect {
        names: Names::Rule,
        chains: false,
        counts: false,
    };
    /// Census constraints: parameters, chains, counts.
    pub(crate) const CONSTRAINT: Dialect = Dialect {
        names: Names::Params,
        chains: true,
        counts: true,
    };
    /// Spec templates' arithmetic on parameters (`b + 3`).
    pub(crate) const TEMPLATE: Dialect = Dialect {
        names: Names::Params,
        chains: false,
        counts: false,
    };
}

/// Reads `text` in `dialect`: the expression, or the first problem and its position.
///
/// # Errors
/// [`ParseError`] with the 1-based position of the problem.
pub(crate) fn parse(text: &str, dialect: Dialect) -> Result<Expr, ParseError> {
    let mut r = Reader {
        chars: text.chars().collect(),
        i: 0,
        ops: 0,
        dialect,
    };
    r.ws();
    if r.i >= r.chars.len() {
        return r.err(0, "empty expression");
    }
    let e = r.or(0)?;
    r.ws();
    if let Some(c) = r.chars.get(r.i) {
        return r.err(r.i, format!("unexpected '{}'", c.escape_default()));
    }
    Ok(e)
}

/// Most operators a predicate may hold (longer ones are refused, not evaluated).
pub(crate) const OPERATORS_MAX: usize = 2000;

/// The reader of the predicate language.
struct Reader {
    chars: Vec<char>,
    i: usize,
    /// Operators read so far.
    ops: usize,
    dialect: Dialect,
}

type Parsed<T> = Result<T, ParseError>;

impl Reader {
    fn err<T>(&self, at: usize, message: impl Into<String>) -> Parsed<T> {
        Err(ParseError {
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
                let rel = self.join(op, a, b.clone(), at)?;
                // `a < b <= c` is `a < b AND b <= c` where comparisons chain
                return match self.dialect.chains && self.at_comparison() {
                    true => {
                        let at = self.i;
                        let rest = self.chain_from(b, depth)?;
                        self.join(Op::And, rel, rest, at)
                    }
                    false => Ok(rel),
                };
            }
        }
        Ok(a)
    }

    /// Whether a comparison operator is next.
    fn at_comparison(&mut self) -> bool {
        ["<>", "!=", "<=", ">=", "==", "=", "<", ">"]
            .iter()
            .any(|s| self.peek_str(s))
    }

    /// The rest of a chain after its operand `a`: `op b [op c …]`.
    fn chain_from(&mut self, a: Expr, depth: usize) -> Parsed<Expr> {
        let start = self.i;
        let rest = self.comparison_after(a, depth)?;
        if self.i == start {
            return self.err(start, "expected a comparison");
        }
        Ok(rest)
    }

    /// `a op b …` with `a` already read.
    fn comparison_after(&mut self, a: Expr, depth: usize) -> Parsed<Expr> {
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
                let rel = self.join(op, a, b.clone(), at)?;
                if self.at_comparison() {
                    let at = self.i;
                    let rest = self.comparison_after(b, depth)?;
                    return self.join(Op::And, rel, rest, at);
                }
                return Ok(rel);
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
        if c.is_ascii_digit() && self.dialect.counts {
            // a count: `1e6`, `10^6`, `1_000`
            let mut j = self.i;
            while self
                .chars
                .get(j)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '^')
            {
                j += 1;
            }
            let text: String = self.chars[self.i..j].iter().collect();
            self.i = j;
            return match crate::num::parse_count(&text) {
                Ok(x) => Ok(Expr::Int(i128::from(x))),
                Err(e) => self.err(at, e.to_string()),
            };
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
            let rule = self.dialect.names == Names::Rule;
            return match lower.as_str() {
                "n" if rule => Ok(Expr::N),
                "k" if rule => Ok(Expr::K),
                "true" => Ok(Expr::Bool(true)),
                "false" => Ok(Expr::Bool(false)),
                _ => match ClaimFunction::from_name(&lower) {
                    Some(f) => self.call(f, at, depth),
                    None if !rule => Ok(Expr::Name(word)),
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
