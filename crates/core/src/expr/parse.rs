//! The one reader of heaplab's expression language, for `rule{…}` predicates, census
//! constraints and spec templates, over the [`tokens`] claims are checked by: numbers, names, `+ - * // %`,
//! comparisons `= == <> != < <= > >=`, `AND OR NOT`, `TRUE FALSE`, parentheses and the
//! functions of [`ClaimFunction`], each operand's type checked as it is read. A
//! [`Dialect`] says which names it knows and whether comparisons chain (`1 <= a < b`).

use crate::expr::ast::{Expr, Op, Ty};
use crate::expr::lex::{tokens, Token, TokenKind};
use crate::expr::ParseError;
use crate::functions::ClaimFunction;

/// What a text may hold beyond the common language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Names {
    /// A rule: the names `n` and `k` only.
    Rule,
    /// Parameters: any other name is a variable.
    Params,
    /// A two-heap rule: the position (a, b) and the amounts (x, y) taken, lower-case.
    Pair,
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

/// The comparison operators and their spellings.
const RELATIONS: [(&str, Op); 8] = [
    ("<>", Op::Ne),
    ("!=", Op::Ne),
    ("<=", Op::Le),
    (">=", Op::Ge),
    ("==", Op::Eq),
    ("=", Op::Eq),
    ("<", Op::Lt),
    (">", Op::Gt),
];

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
    /// `pair{…}`: a, b, x, y, plain numbers, no chains.
    pub(crate) const PAIR: Dialect = Dialect {
        names: Names::Pair,
        chains: false,
        counts: false,
    };
    /// Spec templates' arithmetic on parameters (`b + 3`).
    pub(crate) const TEMPLATE: Dialect = Dialect {
        names: Names::Params,
        chains: false,
        counts: false,
    };
}

/// Reads a move predicate (`rule{…}`, `pair{…}`) in `dialect`: a true/false expression;
/// `empty` is the message for a blank text, `not_bool` the one for a number.
///
/// # Errors
/// [`ParseError`] with the 1-based position of the problem (1 for the two messages).
pub(crate) fn parse_predicate(
    text: &str,
    dialect: Dialect,
    empty: &str,
    not_bool: &str,
) -> Result<Expr, ParseError> {
    let at_start = |message: &str| ParseError {
        pos: 1,
        message: message.into(),
    };
    if text.trim().is_empty() {
        return Err(at_start(empty));
    }
    let expr = parse(text, dialect)?;
    if expr.ty() != Ty::Bool {
        return Err(at_start(not_bool));
    }
    Ok(expr)
}

/// Reads `text` in `dialect`: the expression, or the first problem and its position.
///
/// # Errors
/// [`ParseError`] with the 1-based position of the problem.
pub(crate) fn parse(text: &str, dialect: Dialect) -> Result<Expr, ParseError> {
    let mut r = Reader {
        toks: tokens(text),
        len: text.chars().count(),
        i: 0,
        ops: 0,
        dialect,
    };
    if r.toks.is_empty() {
        return r.err(0, "empty expression");
    }
    let e = r.or(0)?;
    if let Some(t) = r.toks.get(r.i) {
        return r.err(t.start, unexpected(t));
    }
    Ok(e)
}

/// "unexpected 'c'", c the token's first character.
fn unexpected(t: &Token) -> String {
    let c = t.text.chars().next().unwrap_or(' ');
    format!("unexpected '{}'", c.escape_default())
}

/// Most operators a predicate may hold (longer ones are refused, not evaluated).
pub(crate) const OPERATORS_MAX: usize = 2000;

/// The reader of the predicate language, over the [`tokens`] of the text.
struct Reader {
    toks: Vec<Token>,
    /// Characters in the text (the position of its end).
    len: usize,
    /// The next token.
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

    /// The character position of the next token (the end of the text after the last).
    fn here(&self) -> usize {
        self.toks.get(self.i).map_or(self.len, |t| t.start)
    }

    /// Whether the next token is the symbol `s`.
    fn peek_str(&self, s: &str) -> bool {
        self.toks.get(self.i).is_some_and(|t| t.is_sym(s))
    }

    /// Takes the next token when it is the keyword `word` (any case).
    fn keyword(&mut self, word: &str) -> bool {
        let yes = self.toks.get(self.i).is_some_and(|t| t.is_word(word));
        self.i += usize::from(yes);
        yes
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
            let at = self.here();
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
            let at = self.here();
            if !self.keyword("AND") {
                return Ok(a);
            }
            let b = self.not(depth)?;
            a = self.join(Op::And, a, b, at)?;
        }
    }

    fn not(&mut self, depth: usize) -> Parsed<Expr> {
        let at = self.here();
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
        self.relation(a, depth)
    }

    /// `a op b` with `a` already read (`a` alone when no comparison follows); where the
    /// dialect's comparisons chain, `a < b <= c` is `a < b AND b <= c`.
    fn relation(&mut self, a: Expr, depth: usize) -> Parsed<Expr> {
        let Some(&(_, op)) = RELATIONS.iter().find(|(s, _)| self.peek_str(s)) else {
            return Ok(a);
        };
        let at = self.here();
        self.i += 1;
        let b = self.sum(depth)?;
        let rel = self.join(op, a, b.clone(), at)?;
        if self.dialect.chains && self.at_comparison() {
            let at = self.here();
            let rest = self.relation(b, depth)?;
            return self.join(Op::And, rel, rest, at);
        }
        Ok(rel)
    }

    /// Whether a comparison operator is next.
    fn at_comparison(&self) -> bool {
        RELATIONS.iter().any(|(s, _)| self.peek_str(s))
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
            let at = self.here();
            self.i += 1;
            let b = self.product(depth)?;
            a = self.join(op, a, b, at)?;
        }
    }

    fn product(&mut self, depth: usize) -> Parsed<Expr> {
        let mut a = self.unary(depth)?;
        loop {
            let op = if self.peek_str("//") {
                Op::Div
            } else if self.peek_str("/") {
                return self.err(self.here(), "`/` is not integer division here: write `//`");
            } else if self.peek_str("*") {
                Op::Mul
            } else if self.peek_str("%") {
                Op::Rem
            } else {
                return Ok(a);
            };
            let at = self.here();
            self.i += 1;
            let b = self.unary(depth)?;
            a = self.join(op, a, b, at)?;
        }
    }

    fn unary(&mut self, depth: usize) -> Parsed<Expr> {
        if depth > 64 {
            return self.err(self.here(), "nested more than 64 deep");
        }
        if self.peek_str("-") {
            let at = self.here();
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
        let at = self.here();
        let Some(t) = self.toks.get(self.i).cloned() else {
            return self.err(at, "expected a value, found the end");
        };
        self.i += 1;
        match t.kind {
            _ if t.is_sym("(") => {
                let e = self.or(depth + 1)?;
                if !self.peek_str(")") {
                    return self.err(self.here(), "expected ')'");
                }
                self.i += 1;
                Ok(e)
            }
            TokenKind::Number if self.dialect.counts => {
                // a count: `1e6`, `10^6`, `1_000`, its tokens written without spaces
                let mut text = t.text;
                let mut end = t.end;
                while let Some(u) = self
                    .toks
                    .get(self.i)
                    .filter(|u| u.start == end && (u.kind != TokenKind::Sym || u.text == "^"))
                {
                    text.push_str(&u.text);
                    end = u.end;
                    self.i += 1;
                }
                match crate::num::parse_count(&text) {
                    Ok(x) => Ok(Expr::Int(i128::from(x))),
                    Err(e) => self.err(at, e.to_string()),
                }
            }
            TokenKind::Number => {
                let digits: String = t.text.chars().filter(|c| *c != '_').collect();
                match digits.parse::<u64>() {
                    Ok(x) => Ok(Expr::Int(i128::from(x))),
                    Err(_) => self.err(at, "a number beyond 2^64 - 1"),
                }
            }
            TokenKind::Word => self.name(t.text, at, depth),
            _ => self.err(at, unexpected(&t)),
        }
    }

    /// A name read at `at`: n, k, a truth value, a function call or a parameter.
    fn name(&mut self, word: String, at: usize, depth: usize) -> Parsed<Expr> {
        let lower = word.to_ascii_lowercase();
        let rule = self.dialect.names == Names::Rule;
        match lower.as_str() {
            "n" if rule => Ok(Expr::N),
            "k" if rule => Ok(Expr::K),
            "true" => Ok(Expr::Bool(true)),
            "false" => Ok(Expr::Bool(false)),
            "a" | "b" | "x" | "y" if self.dialect.names == Names::Pair => Ok(Expr::Name(lower)),
            _ => match ClaimFunction::from_name(&lower) {
                Some(f) => self.call(f, at, depth),
                None if self.dialect.names == Names::Pair => self.err(
                    at,
                    format!(
                        "unknown name `{}` (a two-heap rule knows a, b (the heaps), x, y (what \
                         a move takes from each), TRUE, FALSE and the functions isqrt, v2, \
                         popcount, is_square, is_prime, xor)",
                        word.chars().take(30).collect::<String>()
                    ),
                ),
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
        }
    }

    fn call(&mut self, f: ClaimFunction, at: usize, depth: usize) -> Parsed<Expr> {
        if !self.peek_str("(") {
            return self.err(self.here(), format!("expected '(' after {}", f.name()));
        }
        self.i += 1;
        let mut args = vec![self.or(depth + 1)?];
        loop {
            if self.peek_str(",") {
                self.i += 1;
                args.push(self.or(depth + 1)?);
            } else if self.peek_str(")") {
                self.i += 1;
                break;
            } else {
                return self.err(self.here(), "expected ',' or ')'");
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
