//! The text of a claim, checked before any engine runs or polars sees it (no polars here,
//! so every front end refuses the same claims in the same words), read with the tokens of
//! heaplab's one expression language ([`heaplab_core::tokens`]): one expression with
//! balanced parentheses and closed strings, at most 2000 operators (polars parses a chain
//! of them recursively), no aggregates, windows or subqueries (claims are checked row by
//! row, in chunks), and our functions called with their number of arguments.

use crate::ClaimFunction;
use heaplab_core::{
    p_count_estimate, plan, proven_period, tokens, Budget, Estimate, Game, Observer, Task,
    TokenKind,
};
use serde::{Deserialize, Serialize};

/// Checks the text of a claim as above. Returns the 1-based columns where string literals
/// start (a front end refuses them where no column holds strings).
///
/// # Errors
/// A one-line message naming the problem and its column in the claim.
pub fn precheck_claim(expr: &str) -> Result<Vec<usize>, String> {
    let literals = balanced(expr)?;
    row_by_row(expr)?;
    check_arity(expr)?;
    Ok(literals)
}

/// Rows a second a claim is evaluated on, for time estimates (measured: 5e7 a second for
/// `win = (n % 4 <> 0)`, 8e6 with `isqrt`, 5e6 with `is_prime`; the slow end is taken).
const CLAIM_ROWS_PER_SECOND: f64 = 5e6;

/// The rows a claim is checked on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum On {
    /// Every position: columns `n`, `win`, `grundy`.
    Table,
    /// The P-positions: columns `k`, `p`, `gap`, `prev` (gap and prev are null for k = 0).
    Losers,
}

/// Largest N of a table check (a table in memory).
pub const TABLE_CHECK_MAX: u64 = (1 << 40) - 1;

/// The budget checks of a claim check, before any engine runs: N within
/// [`TABLE_CHECK_MAX`] for a table, the engine's plan for the columns the claim names
/// (`uses_grundy`, `uses_win`; the P-position list for [`On::Losers`]) and the time of the
/// engine plus the claim's rows, reported to `obs`. Returns the engine's task (None when the
/// claim names only `n`).
///
/// # Errors
/// [`heaplab_core::Error::TooLarge`] past the table limit; the plan's refusals.
pub fn plan_check(
    game: &Game,
    max: u64,
    on: On,
    uses_grundy: bool,
    uses_win: bool,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<Option<Task>, heaplab_core::Error> {
    let (task, rows) = match on {
        On::Table => {
            if max > TABLE_CHECK_MAX {
                return Err(heaplab_core::Error::TooLarge {
                    what: "a table in memory (check the P-positions instead)",
                    n: max,
                    limit: TABLE_CHECK_MAX,
                });
            }
            let task = match (uses_grundy, uses_win) {
                (true, _) => Some(Task::Grundy),
                (false, true) => Some(Task::Outcomes),
                (false, false) => None,
            };
            (task, max as f64 + 1.0)
        }
        On::Losers => (
            Some(Task::PPositions),
            p_count_estimate(game, max).unwrap_or(0.0),
        ),
    };
    let engine = task.map(|t| plan(game, t, max, budget)).transpose()?;
    let total = engine.as_ref().map_or(0.0, |p| p.seconds) + rows / CLAIM_ROWS_PER_SECOND;
    budget.check_time(
        || format!("checking the claim on {game} to N = {max}"),
        total,
    )?;
    if let Some(p) = engine {
        obs.planned(&Estimate {
            seconds: total,
            ..p.estimate()
        });
    }
    Ok(task)
}

/// Identifier tokens of an expression outside string literals, lowercased (to see which
/// columns a claim uses, so only those are computed).
pub fn identifiers(expr: &str) -> Vec<String> {
    words(expr)
        .into_iter()
        .map(|w| w.text.to_ascii_lowercase())
        .collect()
}

/// A name in a claim (a [`TokenKind::Word`] of the expression language: outside string
/// literals, not starting with a digit), with its 0-based character position and whether a
/// `(` follows it (a call).
pub(crate) struct Word {
    pub(crate) text: String,
    pub(crate) start: usize,
    /// Index in the claim's [`tokens`] of the `(` after the name, if it is a call.
    pub(crate) open: Option<usize>,
}

/// The [`Word`]s of a claim, in order.
pub(crate) fn words(expr: &str) -> Vec<Word> {
    let ts = tokens(expr);
    ts.iter()
        .enumerate()
        .filter(|(_, t)| t.kind == TokenKind::Word)
        .map(|(i, t)| Word {
            text: t.text.clone(),
            start: t.start,
            open: ts.get(i + 1).filter(|u| u.is_sym("(")).map(|_| i + 1),
        })
        .collect()
}

/// The claim is wrapped in a query, so it must be one expression on its own: not empty, its
/// parentheses balanced and its string literals closed (else `n = 1) OR (n = 2` would reach
/// into the wrapper). Returns the 1-based columns where string literals start; errors name
/// the 1-based column in the claim.
fn balanced(expr: &str) -> Result<Vec<usize>, String> {
    if expr.trim().is_empty() {
        return Err(
            "the claim is empty; give a true/false expression such as `win = (n % 4 <> 0)`".into(),
        );
    }
    let mut open: Vec<usize> = vec![];
    let mut literals: Vec<usize> = vec![];
    for t in tokens(expr) {
        let col = t.start + 1;
        match t.kind {
            TokenKind::Str => literals.push(col),
            TokenKind::OpenStr => {
                return Err(format!(
                    "unclosed string literal from column {col} of the claim"
                ))
            }
            _ if t.is_sym("(") => open.push(col),
            _ if t.is_sym(")") && open.pop().is_none() => {
                return Err(format!("unmatched `)` at column {col} of the claim"));
            }
            _ if t.is_sym(";") => {
                return Err(format!("`;` at column {col}: the claim is one expression"))
            }
            _ => {}
        }
    }
    if let Some(col) = open.pop() {
        return Err(format!("unclosed `(` at column {col} of the claim"));
    }
    // polars parses and plans a chain of operators recursively (see [`deep_stack`]): keep
    // the chain well inside the stack
    let ops = operators(expr);
    if ops > MAX_OPERATORS {
        return Err(format!(
            "the claim has {ops} operators, more than {MAX_OPERATORS}; shorten it (a long OR of \
             values is `n IN (1, 2, ...)`)"
        ));
    }
    Ok(literals)
}

/// Functions over many rows, which a claim checked chunk by chunk would evaluate per chunk
/// (`min(n)`, `lag(n) OVER (...)` gave wrong answers past the first chunk).
const AGGREGATES: &[&str] = &[
    "count",
    "sum",
    "min",
    "max",
    "avg",
    "mean",
    "median",
    "stddev",
    "stdev",
    "variance",
    "var",
    "first",
    "last",
    "lag",
    "lead",
    "row_number",
    "rank",
    "dense_rank",
    "array_agg",
    "string_agg",
    "quantile_cont",
    "quantile_disc",
    "percentile_cont",
    "percentile_disc",
    "ntile",
    "cume_dist",
    "percent_rank",
    "corr",
    "covar",
    "covar_pop",
    "covar_samp",
    "bool_and",
    "bool_or",
    "any_value",
    "nth_value",
    "first_value",
    "last_value",
    "stddev_pop",
    "stddev_samp",
    "var_pop",
    "var_samp",
    "bit_and",
    "bit_or",
    "bit_xor",
    "approx_count_distinct",
];

/// A claim is about each row on its own: aggregates, window functions (`OVER`) and
/// subqueries (`SELECT`, `EXISTS`) are refused.
fn row_by_row(expr: &str) -> Result<(), String> {
    for w in words(expr) {
        let word = w.text.to_ascii_lowercase();
        let why = match word.as_str() {
            "over" => "window functions (OVER)",
            "select" | "exists" => "subqueries",
            a if w.open.is_some() && AGGREGATES.contains(&a) => "aggregate and window functions",
            _ => continue,
        };
        return Err(format!(
            "`{}` at column {}: a claim is checked row by row, in chunks, so {why} are not \
             supported (use the columns of one row: `prev` and `gap` for neighbours)",
            w.text,
            w.start + 1
        ));
    }
    Ok(())
}

/// Each of our functions called with its number of arguments (polars' own message for
/// `isqrt()` is "expression: '' didn't get any inputs"). `expr` must be balanced.
pub(crate) fn check_arity(expr: &str) -> Result<(), String> {
    let ts = tokens(expr);
    for w in words(expr) {
        let arity = match (
            ClaimFunction::from_name(&w.text),
            Lookup::from_name(&w.text),
        ) {
            (Some(f), _) => f.arity(),
            (None, Some(_)) => 1,
            _ => continue,
        };
        let Some(open) = w.open else {
            continue;
        };
        // count the arguments up to the matching `)`
        let (mut depth, mut commas, mut empty) = (0usize, 0usize, true);
        for t in &ts[open + 1..] {
            match () {
                _ if t.is_sym(")") && depth == 0 => break,
                _ if t.is_sym(")") => depth -= 1,
                _ if t.is_sym("(") => (depth, empty) = (depth + 1, false),
                _ if t.is_sym(",") && depth == 0 => commas += 1,
                _ => empty = false,
            }
        }
        let given = if empty && commas == 0 { 0 } else { commas + 1 };
        if given != arity {
            return Err(format!(
                "`{}` takes {} argument{}, given {given} (column {} of the claim)",
                w.text,
                arity,
                if arity == 1 { "" } else { "s" },
                w.start + 1
            ));
        }
    }
    Ok(())
}

/// Operators a claim may chain (see [`balanced`]).
const MAX_OPERATORS: usize = 2000;

/// Binary operators of an expression outside string literals: `AND`, `OR` and runs of
/// operator symbols (`+-*/%=<>!|&^`) written without a space between them.
pub(crate) fn operators(expr: &str) -> usize {
    let ts = tokens(expr);
    ts.iter()
        .enumerate()
        .filter(|&(i, t)| {
            t.is_word("and")
                || t.is_word("or")
                || (t.is_operator()
                    && !i
                        .checked_sub(1)
                        .is_some_and(|j| ts[j].is_operator() && ts[j].end == t.start))
        })
        .count()
}

/// For a claim that held on the table 0..=max: when it depends on n only through n mod m
/// and the values at n, …, n - lag ([`residue_shape`]) and the game's Grundy values are
/// proven periodic (period p from n0, [`proven_period`]), its truth at n is
/// the same at n + L, L = lcm(m, p), for every n >= n0 + lag; so the rows 0..=max prove it
/// for every n once they reach n0 + lag + L - 1 (and the comparisons' `from`). Returns
/// the argument, or the N it needs (both None when the claim or the game has no such
/// shape).
///
/// # Errors
/// A cancellation from `obs` while the period is proven.
pub fn prove_for_all(
    game: &Game,
    max: u64,
    claim: &str,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<(Option<String>, Option<u64>), heaplab_core::Error> {
    let Some(shape) = residue_shape(claim) else {
        return Ok((None, None));
    };
    let Some(per) = proven_period(game, budget, obs)? else {
        return Ok((None, None));
    };
    let gcd = {
        let (mut a, mut b) = (shape.modulus, per.period);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let Some(cycle) = (shape.modulus / gcd).checked_mul(per.period) else {
        return Ok((None, None));
    };
    let start = per.preperiod.saturating_add(shape.lag).max(shape.from);
    let need = start.saturating_add(cycle).saturating_sub(1);
    if max < need {
        return Ok((None, Some(need)));
    }
    let mut parts = vec![];
    if shape.modulus > 1 {
        parts.push(format!("n mod {}", shape.modulus));
    }
    if shape.from > 0 {
        parts.push(format!(
            "comparisons of n that are constant from {}",
            shape.from
        ));
    }
    parts.push(if shape.lag > 0 {
        format!("the values at n, …, n - {}", shape.lag)
    } else {
        "the values at n".into()
    });
    Ok((
        Some(format!(
            "period {} proven: the claim depends only on {}, the {} \
             repeat with period {} from n0 = {} ({}), so the claim's truth repeats with period \
             {cycle} from n = {}, and 0..={max} covers that whole cycle",
            per.period,
            parts.join(", "),
            match game.play() {
                heaplab_core::Play::Normal => "Grundy values",
                heaplab_core::Play::Misere => "misère nim-values",
            },
            per.period,
            per.preperiod,
            per.certificate,
            start
        )),
        None,
    ))
}

/// A look-up of the table at another row: `grundy_at(x)` is g(x) and `win_at(x)` the
/// outcome of x (true for an N-position), null when x is negative or past N — so
/// `g(n) = g(n - 12)` is `n < 12 OR grundy = grundy_at(n - 12)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// `grundy_at(x)`.
    Grundy,
    /// `win_at(x)`.
    Win,
}

impl Lookup {
    /// The look-up of a name (any case).
    pub fn from_name(name: &str) -> Option<Lookup> {
        match name.to_ascii_lowercase().as_str() {
            "grundy_at" => Some(Lookup::Grundy),
            "win_at" => Some(Lookup::Win),
            _ => None,
        }
    }

    /// Its name in claims.
    pub fn name(self) -> &'static str {
        match self {
            Lookup::Grundy => "grundy_at",
            Lookup::Win => "win_at",
        }
    }
}

/// How a claim on the table depends on n, when it depends on n only through residues:
/// every `n` in it is `n % m` (m a literal), a comparison `n < c` (`<=`, `>`, `>=`, `=`,
/// `<>`; c a literal, the comparison standing alone between AND/OR/NOT/WHEN or
/// parentheses) or the argument of `grundy_at(n - K)` / `win_at(n - K)` (K a literal), and
/// every other name is a column of the row (`grundy`, `win`), a function or a keyword.
/// Then from n = `from` on, the claim's truth at n is a function of n mod `modulus` and the
/// values at n, n - 1, …, n - `lag`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResidueShape {
    /// The least common multiple of the moduli m (1 when n does not appear).
    pub modulus: u64,
    /// The largest K of the look-ups (0 without any).
    pub lag: u64,
    /// Comparisons of n with a literal (`n < 83`, `n = 0`) are constant from this n on
    /// (0 without any).
    pub from: u64,
}

/// The [`ResidueShape`] of a claim on the table, or None when n appears otherwise (as in
/// `isqrt(n)`, `n // 4`, `5 % n`) or the claim names a column other than `n`, `grundy` and
/// `win`. Conservative: a claim it refuses may still be periodic.
pub fn residue_shape(expr: &str) -> Option<ResidueShape> {
    let ts = tokens(expr);
    // a literal: digits only
    let literal = |i: usize| -> Option<u64> {
        let t = ts.get(i).filter(|t| t.kind == TokenKind::Number)?;
        t.text.parse().ok()
    };
    let word_in =
        |i: usize, set: &[&str]| ts.get(i).is_some_and(|t| set.iter().any(|w| t.is_word(w)));
    // what stands before token i opens a condition: the start, `(`, or a word that begins one
    let opens_condition = |i: usize| match i.checked_sub(1) {
        None => true,
        Some(j) => ts[j].is_sym("(") || word_in(j, &["and", "or", "not", "when", "then", "else"]),
    };
    // token i closes a condition: the end, `)`, or a word that follows one
    let ends = |i: usize| {
        i >= ts.len()
            || ts[i].is_sym(")")
            || word_in(i, &["and", "or", "then", "when", "else", "end"])
    };
    let (mut modulus, mut lag, mut from) = (1u64, 0u64, 0u64);
    let mut inside_lookup: Vec<(usize, usize)> = vec![]; // tokens covered by a look-up
    for (w, t) in ts.iter().enumerate() {
        if t.kind != TokenKind::Word {
            continue;
        }
        let name = t.text.to_ascii_lowercase();
        if Lookup::from_name(&name).is_some() && ts.get(w + 1).is_some_and(|u| u.is_sym("(")) {
            // exactly `n - K` (or `n`) up to the closing parenthesis
            if !ts.get(w + 2).is_some_and(|u| u.is_word("n")) {
                return None;
            }
            let (mut j, mut k) = (w + 3, 0);
            if ts.get(j).is_some_and(|u| u.is_sym("-")) {
                k = literal(j + 1)?;
                j += 2;
            }
            if !ts.get(j).is_some_and(|u| u.is_sym(")")) {
                return None;
            }
            lag = lag.max(k);
            inside_lookup.push((w + 2, j));
            continue;
        }
        match name.as_str() {
            "grundy" | "win" => continue,
            "n" => {}
            other if ClaimFunction::from_name(other).is_some() || is_keyword(other) => continue,
            _ => return None,
        }
        if inside_lookup.iter().any(|&(a, b)| a <= w && w < b) {
            continue;
        }
        // `n % m`, with nothing binding tighter on either side
        if let Some(p) = w.checked_sub(1).map(|j| &ts[j]) {
            let last = p.text.chars().last().unwrap_or(' ');
            if (p.kind == TokenKind::Sym && "*/%^&|.:".contains(last))
                || (p.kind == TokenKind::Number && p.end == t.start)
            {
                return None;
            }
        }
        let next = ts.get(w + 1);
        if !next.is_some_and(|u| u.is_sym("%")) {
            // `n < c`: constant once n passes c
            let op = next.filter(|u| {
                ["<", "<=", ">", ">=", "=", "<>", "!="]
                    .iter()
                    .any(|s| u.is_sym(s))
            });
            if op.is_none() || !opens_condition(w) {
                return None;
            }
            let c = literal(w + 2)?;
            if !ends(w + 3) {
                return None;
            }
            from = from.max(c.checked_add(1)?);
            continue;
        }
        let m = literal(w + 2)?;
        let after = ts.get(w + 3);
        if m == 0
            || after.is_some_and(|u| {
                u.kind == TokenKind::Sym && ["^", ".", ":", "::", "("].contains(&u.text.as_str())
            })
        {
            return None;
        }
        modulus = lcm(modulus, m)?;
    }
    Some(ResidueShape { modulus, lag, from })
}

/// SQL keywords and polars' own functions (names a claim may use besides columns).
pub(crate) fn is_keyword(t: &str) -> bool {
    matches!(
        t,
        "and"
            | "or"
            | "not"
            | "is"
            | "null"
            | "true"
            | "false"
            | "case"
            | "when"
            | "then"
            | "else"
            | "end"
            | "in"
            | "between"
            | "like"
            | "div"
            | "mod"
            | "floor"
            | "ceil"
            | "abs"
            | "sqrt"
            | "cast"
            | "as"
            | "coalesce"
            | "power"
            | "pow"
            | "round"
            | "ln"
            | "log"
            | "exp"
            | "bigint"
            | "int"
            | "integer"
            | "double"
            | "float"
            | "boolean"
            | "sign"
            | "greatest"
            | "least"
            | "nullif"
            | "ceiling"
            | "log2"
            | "log10"
    )
}

/// lcm(a, b), None past 2^64.
fn lcm(a: u64, b: u64) -> Option<u64> {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    (a / x).checked_mul(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn residue_shapes() {
        let shape = |e: &str| residue_shape(e).map(|s| (s.modulus, s.lag));
        let from = |e: &str| residue_shape(e).map(|s| s.from);
        assert_eq!(from("n < 83 OR grundy = grundy_at(n - 12)"), Some(84));
        assert_eq!(from("(n = 0) OR win = (n % 4 <> 0)"), Some(1));
        assert_eq!(from("NOT n >= 5 AND n % 2 = 0"), Some(6));
        for e in [
            "5 - n < 0",
            "n < 8 + 1",
            "2 * n < 5",
            "n < 5 * 2",
            "xn < 3",
            "n < x",
        ] {
            assert_eq!(from(e), None, "{e}");
        }
        assert_eq!(
            shape(
                "grundy = CASE WHEN n % 8 IN (0, 2) THEN 0 WHEN n % 8 IN (1, 3) THEN 1 \
                 WHEN n % 8 IN (4, 6) THEN 2 ELSE 3 END"
            ),
            Some((8, 0))
        );
        assert_eq!(shape("win = (n % 4 <> 0)"), Some((4, 0)));
        assert_eq!(shape("n % 6 = 0 OR n % 4 = 1 OR win"), Some((12, 0)));
        assert_eq!(shape("grundy = grundy_at(n - 12)"), Some((1, 12)));
        assert_eq!(
            shape("NOT win_at(n-3) OR popcount(grundy) < 3"),
            Some((1, 3))
        );
        assert_eq!(shape("grundy < 5"), Some((1, 0)));
        for e in [
            "grundy = isqrt(n)",
            "grundy = n // 4",
            "5 % n = 0",
            "win = (2 * n % 8 = 0)",
            "grundy = grundy_at(n // 2)",
            "grundy = n % 0",
            "k = 0",
            "n % 8 = n",
        ] {
            assert_eq!(shape(e), None, "{e}");
        }
    }
}

/// The claim with every column it reads replaced by that column's value in `row` (a row
/// of the checked table as JSON: `{"n": 29, "grundy": 5}`), written `name=value`, so a
/// counterexample shows the arithmetic it fails on: `grundy < 5` at that row is
/// `grundy=5 < 5`. Words that are not columns of the row (functions, keywords) stay.
pub fn claim_with_values(claim: &str, row: &serde_json::Value) -> String {
    let chars: Vec<char> = claim.chars().collect();
    let mut out = String::new();
    let mut at = 0;
    for t in tokens(claim) {
        if t.kind != TokenKind::Word {
            continue;
        }
        let Some(v) = row.get(t.text.to_ascii_lowercase().as_str()) else {
            continue;
        };
        // (a word followed by `(` is a function call, not a column)
        let next = chars[t.end..].iter().find(|c| !c.is_whitespace());
        if next == Some(&'(') {
            continue;
        }
        out.extend(&chars[at..t.end]);
        out.push('=');
        out.push_str(&match v {
            serde_json::Value::Null => "null".to_string(),
            v => v.to_string(),
        });
        at = t.end;
    }
    out.extend(&chars[at..]);
    out
}

#[cfg(test)]
mod witness_tests {
    use super::claim_with_values;
    use serde_json::json;

    #[test]
    fn columns_read_are_shown_with_their_values() {
        let row = json!({"n": 29, "win": true, "grundy": 5});
        assert_eq!(claim_with_values("grundy < 5", &row), "grundy=5 < 5");
        assert_eq!(
            claim_with_values("win = (n % 4 <> 0) AND isqrt(n) > grundy", &row),
            "win=true = (n=29 % 4 <> 0) AND isqrt(n=29) > grundy=5"
        );
        let row = json!({"k": 0, "p": 0, "gap": null, "prev": null});
        assert_eq!(
            claim_with_values("gap = prev + 1", &row),
            "gap=null = prev=null + 1"
        );
    }
}
