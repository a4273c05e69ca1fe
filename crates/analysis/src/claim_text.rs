//! The text of a claim, checked before any engine runs or polars sees it (no polars here,
//! so every front end refuses the same claims in the same words): one expression with
//! balanced parentheses and closed strings, at most 2000 operators (polars parses a chain
//! of them recursively), no aggregates, windows or subqueries (claims are checked row by
//! row, in chunks), and our functions called with their number of arguments.

use crate::ClaimFunction;
use heaplab_core::{p_count_estimate, plan, Budget, Game, Observer, Plan, Task};
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
    let total = engine.map_or(0.0, |p| p.seconds) + rows / CLAIM_ROWS_PER_SECOND;
    budget.check_time(
        || format!("checking the claim on {game} to N = {max}"),
        total,
    )?;
    if let Some(p) = engine {
        obs.planned(&Plan {
            seconds: total,
            ..p
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

/// A name in a claim: a run of ASCII letters, digits and `_` outside string literals that
/// does not start with a digit, with its 0-based character position and whether a `(`
/// follows it (a call).
pub(crate) struct Word {
    pub(crate) text: String,
    pub(crate) start: usize,
    /// Character index of the `(` after the name, if it is a call.
    pub(crate) open: Option<usize>,
}

/// The [`Word`]s of a claim, in order.
pub(crate) fn words(expr: &str) -> Vec<Word> {
    let chars: Vec<char> = expr.chars().collect();
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let (mut i, mut in_str) = (0, false);
    while i < chars.len() {
        let c = chars[i];
        if in_str || c == '\'' {
            in_str = if in_str { c != '\'' } else { true };
            i += 1;
            continue;
        }
        if !is_word(c) {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && is_word(chars[i]) {
            i += 1;
        }
        if c.is_ascii_digit() {
            continue;
        }
        let next = (i..chars.len()).find(|&k| !chars[k].is_whitespace());
        out.push(Word {
            text: chars[start..i].iter().collect(),
            start,
            open: next.filter(|&k| chars[k] == '('),
        });
    }
    out
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
    let mut quote: Option<usize> = None;
    for (i, c) in expr.chars().enumerate() {
        let col = i + 1;
        match (quote, c) {
            (Some(_), '\'') => quote = None,
            (Some(_), _) => {}
            (None, '\'') => {
                quote = Some(col);
                literals.push(col);
            }
            (None, '(') => open.push(col),
            (None, ')') if open.pop().is_none() => {
                return Err(format!("unmatched `)` at column {col} of the claim"));
            }
            (None, ';') => return Err(format!("`;` at column {col}: the claim is one expression")),
            _ => {}
        }
    }
    if let Some(col) = quote {
        return Err(format!(
            "unclosed string literal from column {col} of the claim"
        ));
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
    let chars: Vec<char> = expr.chars().collect();
    for w in words(expr) {
        let (Some(f), Some(open)) = (ClaimFunction::from_name(&w.text), w.open) else {
            continue;
        };
        // count the arguments up to the matching `)`
        let (mut depth, mut commas, mut empty, mut quoted) = (0usize, 0usize, true, false);
        for &d in &chars[open + 1..] {
            if quoted {
                quoted = d != '\'';
                continue;
            }
            match d {
                '\'' => (quoted, empty) = (true, false),
                '(' => (depth, empty) = (depth + 1, false),
                ')' if depth == 0 => break,
                ')' => depth -= 1,
                ',' if depth == 0 => commas += 1,
                d if !d.is_whitespace() => empty = false,
                _ => {}
            }
        }
        let given = if empty && commas == 0 { 0 } else { commas + 1 };
        if given != f.arity() {
            return Err(format!(
                "`{}` takes {} argument{}, given {given} (column {} of the claim)",
                w.text,
                f.arity(),
                if f.arity() == 1 { "" } else { "s" },
                w.start + 1
            ));
        }
    }
    Ok(())
}

/// Operators a claim may chain (see [`balanced`]).
const MAX_OPERATORS: usize = 2000;

/// Binary operators of an expression outside string literals: `AND`, `OR` and runs of
/// `+-*/%=<>!|&^`.
pub(crate) fn operators(expr: &str) -> usize {
    let mut n = 0;
    let mut in_str = false;
    let mut prev_sym = false;
    let mut word = String::new();
    for c in expr.chars().chain(std::iter::once(' ')) {
        if in_str {
            in_str = c != '\'';
            continue;
        }
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            if word.eq_ignore_ascii_case("and") || word.eq_ignore_ascii_case("or") {
                n += 1;
            }
            word.clear();
        }
        let sym = "+-*/%=<>!|&^".contains(c);
        if sym && !prev_sym {
            n += 1;
        }
        prev_sym = sym;
        in_str = c == '\'';
    }
    n
}
