//! Claims: a boolean expression in the polars SQL dialect, checked row by row over chunks
//! of a table. Number-theory functions are registered as SQL functions, exact on 64 bits:
//! `isqrt(x)`, `v2(x)` (2-adic valuation; null for 0), `popcount(x)`, `is_square(x)`,
//! `is_prime(x)` (deterministic Miller–Rabin), `xor(a, b)`; each gives null for a negative
//! argument. Integer columns are signed 64-bit inside a claim; like polars, arithmetic that
//! leaves 64 bits wraps.
//!
//! polars SQL's `/` is float division; use `//` or `DIV` for integer division.

use crate::claim_text::{identifiers, is_keyword, precheck_claim, Lookup};
use crate::functions::{ClaimFunction, ClaimValue};
use heaplab_core::{GrundyTable, OutcomeTable};
use polars::prelude::*;
use polars::sql::FunctionRegistry;
use polars::sql::SQLContext;
use std::sync::Arc;
use thiserror::Error;

/// Why a claim cannot be checked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ClaimError {
    /// The expression names a column the table does not have.
    #[error("unknown column `{0}` in the claim (columns here: {1})")]
    UnknownColumn(String, String),
    /// The expression does not parse or cannot be evaluated.
    #[error("invalid claim: {0}")]
    Invalid(String),
    /// The expression is not true/false valued.
    #[error("the claim must be a true/false expression, but it gives {0}")]
    NotBoolean(String),
}

/// Our numeric functions ([`ClaimFunction`]) as polars column functions.
#[derive(Clone, Copy, Debug)]
struct Fun(ClaimFunction);

impl Fun {
    fn from_name(name: &str) -> Option<Fun> {
        ClaimFunction::from_name(name).map(Fun)
    }
    fn arity(self) -> usize {
        self.0.arity()
    }
    fn dtype(self) -> DataType {
        if self.0.is_boolean() {
            DataType::Boolean
        } else {
            DataType::Int64
        }
    }
}

/// A column's values as u64 for our functions: a negative value gives null (so a claim can
/// guard with `n < 3 OR isqrt(n - 3) ...`: SQL evaluates both sides on every row, and
/// `TRUE OR NULL` is true); a fractional value is an error.
fn as_u64(c: &Column) -> PolarsResult<Vec<Option<u64>>> {
    let s = c.as_materialized_series();
    // a column left unsigned (values at or above 2^63) is taken as it is
    if let Ok(u) = s.u64() {
        return Ok((0..u.len()).map(|k| u.get(k)).collect());
    }
    let f = s.cast(&DataType::Float64)?;
    let i = s.cast(&DataType::Int64)?;
    let ia = i.i64()?;
    let fa = f.f64()?;
    (0..ia.len())
        .map(|k| match (ia.get(k), fa.get(k)) {
            (Some(v), _) if v < 0 => Ok(None),
            (Some(v), Some(x)) if x.fract() == 0.0 || x.abs() > 9e15 => Ok(Some(v as u64)),
            (Some(_), Some(_)) => {
                polars_bail!(ComputeError: "isqrt, v2, popcount, is_square, is_prime, xor, grundy_at and win_at take integers")
            }
            _ => Ok(None),
        })
        .collect()
}

impl ColumnsUdf for Fun {
    fn call_udf(&self, s: &mut [Column]) -> PolarsResult<Column> {
        polars_ensure!(s.len() == self.arity(), ComputeError: "{} takes {} argument(s)", self.0.name(), self.arity());
        let name = s[0].name().clone();
        let args = s.iter().map(as_u64).collect::<PolarsResult<Vec<_>>>()?;
        // an empty column (the empty frame a claim compiles on) makes no rows, even beside
        // a literal's one value
        let len = if args.iter().any(Vec::is_empty) {
            0
        } else {
            args.iter().map(Vec::len).max().unwrap_or(0)
        };
        // a literal argument is one value for every row
        let pick = |v: &Vec<Option<u64>>, k: usize| if v.len() == 1 { v[0] } else { v[k] };
        let value = |k: usize| {
            let row: Vec<Option<u64>> = args.iter().map(|a| pick(a, k)).collect();
            self.0.apply(&row)
        };
        Ok(if self.0.is_boolean() {
            let out: Vec<Option<bool>> = (0..len)
                .map(|k| match value(k)? {
                    ClaimValue::Bool(b) => Some(b),
                    ClaimValue::Int(_) => None,
                })
                .collect();
            Column::new(name, out)
        } else {
            // Int64, as declared to the planner (a UInt64 column under an Int64 field
            // crashes polars' kernels, e.g. `isqrt(n) // 2`); a value past 2^63 is null
            let out: Vec<Option<i64>> = (0..len)
                .map(|k| match value(k)? {
                    ClaimValue::Int(x) => i64::try_from(x).ok(),
                    ClaimValue::Bool(_) => None,
                })
                .collect();
            Column::new(name, out)
        })
    }
}

impl AnonymousColumnsUdf for Fun {
    fn as_column_udf(self: Arc<Self>) -> Arc<dyn ColumnsUdf> {
        self
    }
    fn deep_clone(self: Arc<Self>) -> Arc<dyn AnonymousColumnsUdf> {
        Arc::new(*self)
    }
    fn get_field(&self, _schema: &Schema, fields: &[Field]) -> PolarsResult<Field> {
        let name = fields.first().map(|f| f.name().clone()).unwrap_or_default();
        Ok(Field::new(name, self.dtype()))
    }
}

/// The tables `grundy_at(x)` and `win_at(x)` read ([`Lookup`]); without them a look-up
/// is null.
#[derive(Debug, Default)]
pub struct LookupTables {
    /// The Grundy values of 0..=N.
    pub grundy: Option<GrundyTable>,
    /// The outcomes of 0..=N.
    pub win: Option<OutcomeTable>,
}

/// `grundy_at(x)` / `win_at(x)` as a polars column function.
#[derive(Clone, Debug)]
struct At {
    which: Lookup,
    tables: Arc<LookupTables>,
}

impl ColumnsUdf for At {
    fn call_udf(&self, s: &mut [Column]) -> PolarsResult<Column> {
        polars_ensure!(s.len() == 1, ComputeError: "{} takes 1 argument", self.which.name());
        let name = s[0].name().clone();
        let xs = as_u64(&s[0])?;
        Ok(match self.which {
            Lookup::Grundy => {
                let g = self.tables.grundy.as_ref();
                let v: Vec<Option<i64>> = xs
                    .iter()
                    .map(|x| {
                        let (x, g) = (x.as_ref()?, g?);
                        (*x <= g.max()).then(|| i64::from(g.get(*x)))
                    })
                    .collect();
                Column::new(name, v)
            }
            Lookup::Win => {
                let t = &self.tables;
                let v: Vec<Option<bool>> = xs
                    .iter()
                    .map(|x| {
                        let x = (*x)?;
                        match (&t.win, &t.grundy) {
                            (Some(o), _) if x <= o.max() => Some(o.is_win(x)),
                            (None, Some(g)) if x <= g.max() => Some(g.get(x) != 0),
                            _ => None,
                        }
                    })
                    .collect();
                Column::new(name, v)
            }
        })
    }
}

impl AnonymousColumnsUdf for At {
    fn as_column_udf(self: Arc<Self>) -> Arc<dyn ColumnsUdf> {
        self
    }
    fn deep_clone(self: Arc<Self>) -> Arc<dyn AnonymousColumnsUdf> {
        Arc::new((*self).clone())
    }
    fn get_field(&self, _schema: &Schema, fields: &[Field]) -> PolarsResult<Field> {
        let name = fields.first().map(|f| f.name().clone()).unwrap_or_default();
        Ok(Field::new(
            name,
            match self.which {
                Lookup::Grundy => DataType::Int64,
                Lookup::Win => DataType::Boolean,
            },
        ))
    }
}

/// The registry that makes our functions callable from SQL.
struct Registry {
    tables: Arc<LookupTables>,
}

impl FunctionRegistry for Registry {
    fn register(&mut self, _name: &str, _fun: UserDefinedFunction) -> PolarsResult<()> {
        polars_bail!(ComputeError: "functions cannot be registered here")
    }
    fn get_udf(&self, name: &str) -> PolarsResult<Option<UserDefinedFunction>> {
        if let Some(which) = Lookup::from_name(name) {
            let at = At {
                which,
                tables: self.tables.clone(),
            };
            return Ok(Some(UserDefinedFunction::new(name.into(), at)));
        }
        Ok(Fun::from_name(name).map(|f| UserDefinedFunction::new(name.into(), f)))
    }
    fn contains(&self, name: &str) -> bool {
        Fun::from_name(name).is_some() || Lookup::from_name(name).is_some()
    }
}

/// A claim compiled against a table schema.
#[derive(Debug, Clone)]
pub struct Claim {
    expr: String,
    tables: Arc<LookupTables>,
}

fn one_line(e: impl std::fmt::Display) -> String {
    e.to_string()
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .to_string()
}

/// The parser's "Line: L, Column: C" counts from the start of the wrapping query, whose
/// first line is the wrapper's: make it a position in the claim ("column C" on a one-line
/// claim, "line L, column C" on a longer one), and a token found past the claim's last line
/// (the wrapper's `)`) "the end of the claim".
fn claim_position(msg: &str, expr: &str) -> String {
    const KEY: &str = " at Line: ";
    let Some(at) = msg.find(KEY) else {
        return msg.to_string();
    };
    let rest = &msg[at + KEY.len()..];
    let num = |s: &str| -> Option<(usize, usize)> {
        let d = s.bytes().take_while(u8::is_ascii_digit).count();
        Some((s[..d].parse().ok()?, d))
    };
    let Some((line, d)) = num(rest) else {
        return msg.to_string();
    };
    let Some(after) = rest[d..].strip_prefix(", Column: ") else {
        return msg.to_string();
    };
    let Some((col, d2)) = num(after) else {
        return msg.to_string();
    };
    let tail = &after[d2..];
    let lines = expr.lines().count().max(1);
    let head = &msg[..at];
    if line > lines + 1 || line < 2 {
        // the wrapper's closing `)`: the claim ended too early
        let head = head
            .rsplit_once("found: ")
            .map_or(head.to_string(), |(h, _)| {
                format!("{h}found: the end of the claim")
            });
        return format!("{head}{tail}");
    }
    if lines == 1 {
        format!("{head} at column {col} of the claim{tail}")
    } else {
        format!(
            "{head} at line {}, column {col} of the claim{tail}",
            line - 1
        )
    }
}

/// The frame the claim sees: unsigned integer columns become `Int64`, so that `n - 5 < 100`
/// means what it says for n < 5 instead of wrapping around 2^64 — except in a chunk where a
/// column holds values at or above 2^63, where they all become `UInt64`.
fn context(df: DataFrame, tables: &Arc<LookupTables>) -> SQLContext {
    // Where some column holds values at or above 2^63 (heaps near 2^64), every unsigned
    // column becomes u64 instead: a claim mixing signed and unsigned columns would be
    // computed in floating point, inexactly. (Only u64 can hold such values.)
    let fits = |c: &Column| {
        c.as_materialized_series()
            .u64()
            .map_or(true, |a| a.max().is_none_or(|m| m <= i64::MAX as u64))
    };
    let to = if df.columns().iter().all(fits) {
        DataType::Int64
    } else {
        DataType::UInt64
    };
    let casts: Vec<Expr> = df
        .columns()
        .iter()
        .filter(|c| c.dtype().is_unsigned_integer())
        .map(|c| col(c.name().clone()).strict_cast(to.clone()))
        .collect();
    let ctx = SQLContext::new().with_function_registry(Arc::new(Registry {
        tables: tables.clone(),
    }));
    ctx.register("t", df.lazy().with_columns(casts));
    ctx
}

impl Claim {
    /// Compiles `expr` for tables with this schema: checks that it parses, that every
    /// column exists and that it is true/false valued (on an empty frame).
    ///
    /// # Errors
    /// [`ClaimError`] naming the problem.
    pub fn new(expr: &str, schema: &Schema) -> Result<Claim, ClaimError> {
        deep_stack(|| Claim::compile(expr, schema))
    }

    fn compile(expr: &str, schema: &Schema) -> Result<Claim, ClaimError> {
        let literals = precheck_claim(expr).map_err(ClaimError::Invalid)?;
        let names: Vec<String> = schema.iter_names().map(|n| n.to_string()).collect();
        // polars turns a string compared with a boolean into null without a word ('abc' is
        // neither true nor false), so `win <> 'abc'` would quietly hold or fail everywhere;
        // a string is only meaningful where some column holds strings.
        if let Some(col) = literals.first() {
            if !schema.iter_values().any(|t| t == &DataType::String) {
                return Err(ClaimError::Invalid(format!(
                    "string literal at column {col} of the claim, but the columns here ({}) \
                     hold numbers and true/false (write true or false without quotes)",
                    names.join(", ")
                )));
            }
        }
        let empty = DataFrame::empty_with_schema(schema);
        let tables = Arc::new(LookupTables::default());
        let mut ctx = context(empty, &tables);
        // the claim on lines of its own, so a `--` comment in it ends before the wrapper
        let q = format!("SELECT (\n{expr}\n) AS __claim FROM t");
        let out = ctx.execute(&q).and_then(|lf| lf.collect()).map_err(|e| {
            let msg = one_line(&e);
            let lower = msg.to_ascii_lowercase();
            if lower.contains("not found")
                || lower.contains("unable to find")
                || lower.contains("no column")
            {
                // polars names the column: `unable to find column "N"; valid columns: ...`
                let named = msg
                    .split_once("column \"")
                    .and_then(|(_, rest)| rest.split_once('"'))
                    .map(|(c, _)| c.to_string());
                let unknown = named
                    .or_else(|| {
                        identifiers(expr).into_iter().find(|t| {
                            !names.contains(t)
                                && Fun::from_name(t).is_none()
                                && Lookup::from_name(t).is_none()
                                && !is_keyword(t)
                        })
                    })
                    .unwrap_or_else(|| msg.clone());
                let mut known = names.join(", ");
                if let Some(c) = names.iter().find(|c| c.eq_ignore_ascii_case(&unknown)) {
                    known.push_str(&format!("; names are case-sensitive: `{c}`"));
                }
                ClaimError::UnknownColumn(unknown, known)
            } else {
                ClaimError::Invalid(claim_position(&msg, expr))
            }
        })?;
        let dtype = out
            .column("__claim")
            .map_err(|e| ClaimError::Invalid(one_line(e)))?
            .dtype()
            .clone();
        if dtype != DataType::Boolean {
            return Err(ClaimError::NotBoolean(dtype.to_string()));
        }
        Ok(Claim {
            expr: expr.to_string(),
            tables,
        })
    }

    /// The claim with the tables its `grundy_at(x)` and `win_at(x)` read.
    pub fn with_tables(self, tables: Arc<LookupTables>) -> Claim {
        Claim { tables, ..self }
    }

    /// The rows of `df` where the claim is not true (false or null), in order.
    ///
    /// # Errors
    /// Evaluation errors from polars, as one line.
    pub fn failures(&self, df: DataFrame) -> Result<DataFrame, ClaimError> {
        deep_stack(|| self.failures_here(df))
    }

    fn failures_here(&self, df: DataFrame) -> Result<DataFrame, ClaimError> {
        let mut ctx = context(df.clone(), &self.tables);
        let q = format!(
            "SELECT NOT COALESCE((\n{}\n), FALSE) AS __fail FROM t",
            self.expr
        );
        let mask = ctx
            .execute(&q)
            .and_then(|lf| lf.collect())
            .and_then(|m| m.column("__fail")?.bool().cloned())
            .map_err(|e| ClaimError::Invalid(one_line(e)))?;
        // the failing rows of the caller's frame, with its own column types
        df.filter(&mask)
            .map_err(|e| ClaimError::Invalid(one_line(e)))
    }
}

/// Runs `f` on a thread with a 256 MiB stack (reserved, touched only as deep as it goes):
/// polars parses and plans a claim recursively, and a long chain of operators overflows
/// the 2–8 MiB of an ordinary thread. When no such thread can be started (an address-space
/// limit such as `ulimit -v`), a 16 MiB one is tried, then the calling thread itself.
fn deep_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    let job = std::sync::Mutex::new(Some(f));
    let run = || {
        let f = job.lock().unwrap_or_else(|e| e.into_inner()).take();
        f.map(|f| f())
    };
    for stack in [256usize << 20, 16 << 20] {
        let done = std::thread::scope(|sc| {
            match std::thread::Builder::new()
                .name("claim".into())
                .stack_size(stack)
                .spawn_scoped(sc, run)
            {
                Ok(h) => Some(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))),
                Err(_) => None,
            }
        });
        if let Some(Some(r)) = done {
            return r;
        }
    }
    match run() {
        Some(r) => r,
        None => unreachable!("the claim ran on a thread that returned nothing"),
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn parse_errors_point_into_the_claim() {
        assert_eq!(
            claim_position(
                "sql parser error: Expected: an expression, found: * at Line: 2, Column: 4",
                "n +* 2 = 1"
            ),
            "sql parser error: Expected: an expression, found: * at column 4 of the claim"
        );
        assert_eq!(
            claim_position(
                "sql parser error: Expected: an expression, found: ) at Line: 3, Column: 1",
                "win ="
            ),
            "sql parser error: Expected: an expression, found: the end of the claim"
        );
        assert_eq!(
            claim_position("x at Line: 3, Column: 2", "n = 1 OR\nn = = 2"),
            "x at line 2, column 2 of the claim"
        );
        assert_eq!(claim_position("no position here", "n"), "no position here");
    }
    use super::*;
    use crate::claim_text::{check_arity, operators};

    fn table() -> DataFrame {
        let n: Vec<u64> = (0..=20).collect();
        let win: Vec<bool> = n.iter().map(|&x| x % 4 != 0).collect();
        let grundy: Vec<u32> = n.iter().map(|&x| (x % 4) as u32).collect();
        df!("n" => n, "win" => win, "grundy" => grundy).unwrap()
    }

    #[test]
    fn claims_hold_or_fail_with_the_right_rows() {
        let t = table();
        let c = Claim::new("win = (n % 4 <> 0)", t.schema()).unwrap();
        assert_eq!(c.failures(t.clone()).unwrap().height(), 0);
        let c = Claim::new("n = 0 OR win = is_square(n)", t.schema()).unwrap();
        let f = c.failures(t.clone()).unwrap();
        let first = f.column("n").unwrap().u64().unwrap().get(0);
        assert_eq!(first, Some(2)); // 2 wins here (2 % 4 != 0) but is not a square
        let c = Claim::new(
            "isqrt(n) * isqrt(n) <= n AND popcount(n) <= 5 AND xor(n, n) = 0",
            t.schema(),
        )
        .unwrap();
        assert_eq!(c.failures(t.clone()).unwrap().height(), 0);
        let c = Claim::new(
            "n = 0 OR grundy = v2(n) OR n % 2 = 1 OR n % 4 = 2",
            t.schema(),
        )
        .unwrap();
        assert!(c.failures(t.clone()).unwrap().height() > 0);
        let c = Claim::new("is_prime(n) = (n IN (2,3,5,7,11,13,17,19))", t.schema()).unwrap();
        assert_eq!(c.failures(t.clone()).unwrap().height(), 0);
        // our functions' integers take every operator, `//` and `%` included
        let c = Claim::new(
            "(1 + isqrt(1 + 4 * n)) // 2 >= 0 AND isqrt(n) // 2 <= n AND v2(n + 1) % 3 >= 0 \
             AND popcount(n) / 2 >= 0 AND -isqrt(n) <= 0",
            t.schema(),
        )
        .unwrap();
        assert_eq!(c.failures(t.clone()).unwrap().height(), 0);
        // subtraction is signed: n - 5 is negative (not 2^64 - 5) for n < 5
        let c = Claim::new("n - 5 < 100 AND n - 30 < 0", t.schema()).unwrap();
        assert_eq!(c.failures(t.clone()).unwrap().height(), 0);
        let c = Claim::new("grundy - 2 >= 0", t.schema()).unwrap();
        let f = c.failures(t.clone()).unwrap();
        assert_eq!(f.height(), 11); // grundy 0 or 1: n % 4 in {0, 1} for n in 0..=20
        assert_eq!(f.column("n").unwrap().dtype(), &DataType::UInt64);
        // function results mix with signed arithmetic exactly
        let c = Claim::new("isqrt(n) - 5 <= 0 AND xor(n, 1) - n <= 1", t.schema()).unwrap();
        assert_eq!(c.failures(t.clone()).unwrap().height(), 0);
        // negative arguments give null: guarded claims hold, unguarded rows fail
        let c = Claim::new("n < 3 OR isqrt(n - 3) >= 0", t.schema()).unwrap();
        assert_eq!(c.failures(t.clone()).unwrap().height(), 0);
        let c = Claim::new("is_square(n - 3) OR NOT is_square(n - 3)", t.schema()).unwrap();
        assert_eq!(c.failures(t.clone()).unwrap().height(), 3); // n = 0, 1, 2: null
        let c = Claim::new("isqrt(n / 2) >= 0", t.schema()).unwrap();
        let e = c.failures(t).unwrap_err().to_string();
        assert!(e.contains("take integers"), "{e}");
    }

    #[test]
    fn functions_take_heaps_past_2_63() {
        let t = df!("p" => [u64::MAX, 1u64 << 63]).unwrap();
        let c = Claim::new(
            "popcount(p) >= 1 AND v2(p) >= 0 AND is_prime(p) = false",
            t.schema(),
        );
        assert_eq!(c.unwrap().failures(t.clone()).unwrap().height(), 0);
        let c = Claim::new("popcount(p) = 64", t.schema()).unwrap();
        assert_eq!(c.failures(t).unwrap().height(), 1); // 2^63 has one bit
                                                        // exact arithmetic where a column passes 2^63 and another does not (in floating
                                                        // point p - prev would lose the last bits)
        let far = df!(
            "k" => [63u64, 64],
            "p" => [(1u64 << 63) - 1, u64::MAX],
            "gap" => [1u64 << 62, 1u64 << 63],
            "prev" => [(1u64 << 62) - 1, (1u64 << 63) - 1]
        )
        .unwrap();
        let holds = Claim::new("gap = p - prev AND gap = prev + 1", far.schema()).unwrap();
        assert_eq!(holds.failures(far.clone()).unwrap().height(), 0);
        let fails = Claim::new("k < 63 OR gap = p - prev + 1", far.schema()).unwrap();
        assert_eq!(fails.failures(far).unwrap().height(), 2);
    }

    #[test]
    fn bad_claims_are_one_line_errors() {
        let t = table();
        let e = Claim::new("nope = 1", t.schema()).unwrap_err();
        assert!(
            matches!(e, ClaimError::UnknownColumn(ref c, _) if c == "nope"),
            "{e}"
        );
        for (bad, says) in [
            ("isqrt() = 1", "`isqrt` takes 1 argument, given 0 (column 1"),
            (
                "n = 0 OR xor(n) = 1",
                "`xor` takes 2 arguments, given 1 (column 10",
            ),
            ("v2(n, (1, 2)) = 1", "`v2` takes 1 argument, given 2"),
            // aggregates, windows and subqueries: a claim is checked row by row
            (
                "n = 0 OR n > lag(n) OVER (ORDER BY n)",
                "`lag` at column 14",
            ),
            ("n <= 5 OR min(n) = 0", "`min` at column 11"),
            ("count(*) = 21", "`count` at column 1"),
            (
                "EXISTS (SELECT 1)",
                "`EXISTS` at column 1: a claim is checked row by row",
            ),
            ("n IN (SELECT 1)", "`SELECT` at column 7"),
        ] {
            let e = Claim::new(bad, t.schema()).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
        assert!(Claim::new("xor(n, isqrt(n + 1)) >= 0 AND 'isqrt()' <> ''", t.schema()).is_err());
        assert!(check_arity("xor(n, isqrt(n + 1)) >= 0 AND 'isqrt()' <> ''").is_ok());
        // a column named like an aggregate is fine where it is not called
        let st = df!("sum" => [3i64], "len" => [2i64]).unwrap();
        assert!(Claim::new("sum % 2 = 1 AND len = 2", st.schema()).is_ok());
        let e = Claim::new("N >= 0", t.schema()).unwrap_err().to_string();
        assert_eq!(
            e,
            "unknown column `N` in the claim (columns here: n, win, grundy; names are \
             case-sensitive: `n`)"
        );
        let e = Claim::new("n = = 1", t.schema()).unwrap_err();
        assert!(matches!(e, ClaimError::Invalid(_)), "{e}");
        for (bad, says) in [
            ("", "empty"),
            ("  ", "empty"),
            ("n = 1) OR (n = 2", "unmatched `)` at column 6"),
            ("(n = 1", "unclosed `(` at column 1"),
            ("n = 1; SELECT 1", "`;` at column 6"),
            ("n = 'x", "unclosed string literal from column 5"),
        ] {
            let e = Claim::new(bad, t.schema()).unwrap_err().to_string();
            assert!(e.contains(says), "{bad:?}: {e}");
        }
        // strings only where a column holds them (polars would read 'abc' as a null boolean)
        for bad in [
            "win = 'abc'",
            "win <> 'abc'",
            "'true' = win",
            "n = 1 OR (n = 2 AND ')' <> '(')",
        ] {
            let e = Claim::new(bad, t.schema()).unwrap_err().to_string();
            assert!(e.contains("string literal at column"), "{bad:?}: {e}");
        }
        let named = df!("n" => [1u64, 2], "who" => ["first", "second"]).unwrap();
        let c = Claim::new("n = 1 OR (who = 'second' AND ')' <> '(')", named.schema()).unwrap();
        assert_eq!(c.failures(named).unwrap().height(), 0);
        let e = Claim::new("n + 1", t.schema()).unwrap_err();
        assert!(matches!(e, ClaimError::NotBoolean(_)), "{e}");
        let long: Vec<String> = (0..3000).map(|i| format!("n = {i}")).collect();
        let e = Claim::new(&long.join(" OR "), t.schema())
            .unwrap_err()
            .to_string();
        assert!(e.contains("5999 operators, more than 2000"), "{e}");
        assert_eq!(
            operators("n <> 3 AND (win OR grundy >= 2) AND 'a+b' = 'or'"),
            6
        );
        let ok: Vec<String> = (0..300).map(|i| format!("n = {i}")).collect();
        assert!(Claim::new(&ok.join(" OR "), t.schema()).is_ok());
        {
            let e = e.to_string();
            assert!(!e.contains('\n'));
        }
        assert_eq!(
            identifiers("k = 0 OR gap = isqrt(prev) + 'x y'"),
            vec!["k", "or", "gap", "isqrt", "prev"]
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        /// Any string: a compiled claim or a one-line error, never a panic.
        #[test]
        fn arbitrary_claims_compile_or_fail_cleanly(
            s in "[a-z0-9 ()=<>!+*/%,'_.-]{0,40}|(n|win|grundy|isqrt\\(n\\)|v2\\(n\\)|xor\\(n, 1\\)) (=|<|>|<>|AND|OR|IN|%) [a-z0-9 ()]{0,10}|\\PC{0,20}"
        ) {
            let t = table();
            match Claim::new(&s, t.schema()) {
                Ok(c) => {
                    let _ = c.failures(t);
                }
                Err(e) => proptest::prop_assert!(!e.to_string().contains('\n'), "{e}"),
            }
        }
    }
}
