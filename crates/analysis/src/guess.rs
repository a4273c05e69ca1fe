//! Conjectures found in the data: closed forms proposed from a game's table, each written as a
//! claim in `check`'s language (columns `n`, `win`, `grundy` of the table, or `k`, `p`,
//! `gap`, `prev` of the P-position list), so that a far larger table can confirm or refute
//! it ([`crate::check_claim`]).
//!
//! The families searched, in order: residue classes after a preperiod (from the periodicity,
//! with its exceptions written out), the Grundy value or outcome as a simple function of n
//! (`n % k`, `n // k`, `v2(n)`, the ruler function `v2(n) + 1` (OEIS A001511), `popcount`,
//! its parity, and these of `n // k`), the k-th P-position as a quasi-polynomial in k (the
//! method of finite differences per residue class of k), a linear recurrence of the
//! P-positions (Berlekamp–Massey modulo two primes, lifted to small integers and confirmed
//! exactly; Massey 1969, "Shift-register synthesis and BCH decoding"), Beatty sequences
//! ⌊kα + β⌋ with α a quadratic irrational, and gap recurrences p_{k+1} = p_k + h(p_k) with h
//! from a small grammar of `isqrt` and affine terms. Over a one-parameter family of games
//! ([`guess_sweep`]) the period and preperiod are fitted as quasi-polynomials in the
//! parameter.
//!
//! A guess is kept only when it fits every row it was found on (the rows before its law
//! takes hold are written into the claim as exceptions) and leaves enough rows beyond its
//! own parameters to be evidence: guessing cannot prove, `check` to a larger N can refute.

use crate::periodicity::{periodicity, Periodicity};
use crate::record::analyze;
use crate::stats::gcd;
use crate::sweep::SweepRow;
use crate::Error;
use heaplab_core::{Budget, CertRule, Game, Observer, Sequence};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The sequence a guess describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// The Grundy value g(n) (column `grundy` of the table).
    Grundy,
    /// The outcome (column `win` of the table).
    Outcome,
    /// The P-positions in order (columns `k`, `p`, `gap`, `prev` of the P-position list).
    Losers,
}

impl Target {
    /// Every target, in the order guesses are printed.
    pub const ALL: [Target; 3] = [Target::Grundy, Target::Outcome, Target::Losers];

    /// `grundy`, `outcome` or `losers`.
    pub fn name(self) -> &'static str {
        match self {
            Target::Grundy => "grundy",
            Target::Outcome => "outcome",
            Target::Losers => "losers",
        }
    }
}

/// How a guess was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// Residue classes mod the period after a preperiod.
    Residues,
    /// A function of n from the small grammar.
    Formula,
    /// A quasi-polynomial in k (or in the parameter of a sweep).
    QuasiPolynomial,
    /// A linear recurrence of the P-positions.
    Recurrence,
    /// A Beatty sequence ⌊kα + β⌋.
    Beatty,
    /// A gap recurrence p_{k+1} = p_k + h(p_k).
    GapRecurrence,
}

impl Family {
    /// The family's name as printed (`residues`, `formula`, `quasi-polynomial`, …).
    pub fn name(self) -> &'static str {
        match self {
            Family::Residues => "residues",
            Family::Formula => "formula",
            Family::QuasiPolynomial => "quasi-polynomial",
            Family::Recurrence => "recurrence",
            Family::Beatty => "beatty",
            Family::GapRecurrence => "gap recurrence",
        }
    }
}

/// Which rows a claim is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClaimOn {
    /// The position table (`n`, `win`, `grundy`): `check --on table`.
    Table,
    /// The P-position list (`k`, `p`, `gap`, `prev`): `check --on losers`.
    Losers,
    /// The rows of a sweep (the parameter, `period`, `preperiod`).
    Sweep,
}

/// One conjecture with its evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Guess {
    /// The sequence described.
    pub target: Target,
    /// How it was found.
    pub family: Family,
    /// The claim, in `check`'s language (a boolean polars SQL expression).
    pub claim: String,
    /// The rows the claim is about.
    pub on: ClaimOn,
    /// The law in words (`period 8 from n = 0`, `degree 2, period 2 in k`, …).
    pub law: String,
    /// Rows the guess was found on (it fits all of them).
    pub rows: u64,
    /// The first row (n, k or the parameter) from which the law holds without exceptions.
    pub from: u64,
    /// Rows before `from` written into the claim as exceptions.
    pub exceptions: u64,
    /// Simplicity rank: smaller is simpler (guesses are listed by it within a target).
    pub cost: u64,
    /// For sweep guesses, the column and the law, to be evaluated again on more rows.
    #[serde(skip)]
    pub sweep_law: Option<(String, QuasiPolynomial)>,
}

impl Guess {
    /// A guess with its claim and law; evidence to be added with [`Guess::evidence`].
    fn new(target: Target, family: Family, on: ClaimOn, claim: String, law: String) -> Guess {
        Guess {
            target,
            family,
            cost: claim.len() as u64,
            claim,
            on,
            law,
            rows: 0,
            from: 0,
            exceptions: 0,
            sweep_law: None,
        }
    }

    /// The guess with its evidence: rows fitted, the first row of the law, exceptions.
    fn evidence(self, rows: u64, from: u64, exceptions: u64) -> Guess {
        Guess {
            rows,
            from,
            exceptions,
            ..self
        }
    }
}

/// Longest claim kept (characters): a longer one is no readable closed form.
const CLAIM_MAX: usize = 4000;

/// Most exceptions written into a claim.
const EXCEPTIONS_MAX: usize = 24;

/// `x = a` for one value, else `x IN (a, b, …)`.
fn one_of(x: &str, values: &[impl ToString]) -> String {
    membership(x, values, "=", "IN")
}

/// `x <> a` for one value, else `x NOT IN (a, b, …)`.
fn not_one_of(x: &str, values: &[impl ToString]) -> String {
    membership(x, values, "<>", "NOT IN")
}

/// `x OP a` for one value, else `x LIST (a, b, …)`.
fn membership(x: &str, values: &[impl ToString], op: &str, list: &str) -> String {
    let items: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    match items.as_slice() {
        [v] => format!("{x} {op} {v}"),
        _ => format!("{x} {list} ({})", items.join(", ")),
    }
}

/// `CASE WHEN cond THEN value … ELSE value END` from (condition, value) branches and a
/// default; the default alone when there are no branches.
fn case(branches: &[(String, String)], default: &str) -> String {
    if branches.is_empty() {
        return default.to_string();
    }
    let mut s = String::from("CASE");
    for (c, v) in branches {
        s += &format!(" WHEN {c} THEN {v}");
    }
    s + &format!(" ELSE {default} END")
}

/// Branches over residue classes `var % m` by value: each value's classes in one `IN`, the
/// most common value last (as the default). `None` when m is 1 or there is one value.
fn residue_case(var: &str, m: u64, value_of: impl Fn(u64) -> String) -> String {
    let mut groups: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for r in 0..m {
        groups.entry(value_of(r)).or_default().push(r);
    }
    let mut groups: Vec<(String, Vec<u64>)> = groups.into_iter().collect();
    // the largest group is the default; the others in order of their first residue
    let big = (0..groups.len())
        .max_by_key(|&i| (groups[i].1.len(), groups[i].1[0]))
        .unwrap_or(0);
    let default = groups.remove(big).0;
    groups.sort_by_key(|g| g.1[0]);
    let branches: Vec<(String, String)> = groups
        .into_iter()
        .map(|(v, rs)| (one_of(&format!("{var} % {m}"), &rs), v))
        .collect();
    case(&branches, &default)
}

// ---------------------------------------------------------------------------------------
// Family 1: residue classes after a preperiod

/// Rows a guess needs at least, unless a theorem proves it.
const MIN_ROWS: u64 = 100;

/// Whether a period is evidence enough for a guess: proven, or seen at least 10 times over
/// at least [`MIN_ROWS`] rows, starting within the first sixteenth of them (a period seen
/// twice is the detector's threshold, not a conjecture: squares to 24 looks periodic).
fn enough_periods(per: &Periodicity, len: u64) -> bool {
    per.certified || (per.periods_seen >= 10 && len >= MIN_ROWS && per.preperiod * 16 <= len)
}

/// The Grundy values as residue classes of n mod the period after the preperiod, with
/// saltus (a(n + p) = a(n) + s) and the exceptions before the preperiod written out.
fn grundy_residues(a: &[i64], per: &Periodicity) -> Option<Guess> {
    let (n0, p, s) = (per.preperiod, per.period, per.saltus);
    let len = a.len() as u64;
    if !enough_periods(per, len) {
        return None;
    }
    // the periodic law, adjusted by the saltus: a(n) = c[n % p] + s·(n // p) for n >= n0
    let c: Vec<i64> = (0..p)
        .map(|r| {
            let m = n0 + (r + p - n0 % p) % p;
            a[m as usize] - s * (m / p) as i64
        })
        .collect();
    let law = |n: u64| c[(n % p) as usize] + s * (n / p) as i64;
    let exceptions: Vec<u64> = (0..n0.min(len))
        .filter(|&n| a[n as usize] != law(n))
        .collect();
    if exceptions.len() > EXCEPTIONS_MAX {
        return None;
    }
    let plain_mod = p >= 2 && (0..p).all(|r| c[r as usize] == r as i64);
    let body = if plain_mod {
        format!("n % {p}")
    } else {
        residue_case("n", p, |r| c[r as usize].to_string())
    };
    // exceptions by value (adjusted like the law), before the classes
    let mut by_value: BTreeMap<i64, Vec<u64>> = BTreeMap::new();
    for &n in &exceptions {
        by_value
            .entry(a[n as usize] - s * (n / p) as i64)
            .or_default()
            .push(n);
    }
    let branches: Vec<(String, String)> = by_value
        .into_iter()
        .map(|(v, ns)| (one_of("n", &ns), v.to_string()))
        .collect();
    let mut expr = case(&branches, &body);
    if s != 0 {
        expr = match (p, branches.is_empty(), c[0]) {
            // a(n) = c + s·n
            (1, true, 0) if s == 1 => "n".to_string(),
            (1, true, 0) => format!("{s} * n"),
            (1, true, c0) => format!("{c0} + {s} * n"),
            _ => format!("{expr} + {s} * (n // {p})"),
        };
    }
    let claim = format!("grundy = {expr}");
    let law_words = format!(
        "period {p}{} from n = {n0}; {}",
        if s != 0 {
            format!(", saltus {s}")
        } else {
            String::new()
        },
        per.certificate
    );
    (claim.len() <= CLAIM_MAX).then(|| {
        Guess::new(
            Target::Grundy,
            Family::Residues,
            ClaimOn::Table,
            claim,
            law_words,
        )
        .evidence(
            len,
            exceptions.last().map_or(0, |&e| e + 1),
            exceptions.len() as u64,
        )
    })
}

/// The outcomes as residue classes: the P-positions are the classes R mod p from n0 on,
/// plus the P-positions before n0 outside R, minus the N-positions before n0 inside R.
fn outcome_residues(win: &[bool], per: &Periodicity) -> Option<Guess> {
    let (n0, p) = (per.preperiod, per.period);
    let len = win.len() as u64;
    // an outcome has no saltus (0/1 read as numbers may show one: 0,0,0,0,1,1,1,1)
    if per.saltus != 0 || !enough_periods(per, len) {
        return None;
    }
    let lost_class: Vec<bool> = (0..p)
        .map(|r| !win[(n0 + (r + p - n0 % p) % p) as usize])
        .collect();
    let in_r = |n: u64| lost_class[(n % p) as usize];
    let (mut p_exc, mut n_exc) = (vec![], vec![]);
    for n in 0..n0.min(len) {
        let lost = !win[n as usize];
        if lost && !in_r(n) {
            p_exc.push(n);
        } else if !lost && in_r(n) {
            n_exc.push(n);
        }
    }
    if p_exc.len() + n_exc.len() > EXCEPTIONS_MAX {
        return None;
    }
    let r: Vec<u64> = (0..p).filter(|&r| lost_class[r as usize]).collect();
    let claim = if r.is_empty() {
        if p_exc.is_empty() {
            "win".to_string()
        } else {
            format!("win = ({})", not_one_of("n", &p_exc))
        }
    } else if r.len() as u64 == p && n_exc.is_empty() && p_exc.is_empty() {
        "NOT win".to_string()
    } else {
        let classes = if r.len() as u64 == p {
            "true".to_string()
        } else {
            one_of(&format!("n % {p}"), &r)
        };
        if p_exc.is_empty() && n_exc.is_empty() {
            match r.as_slice() {
                [x] => format!("win = (n % {p} <> {x})"),
                _ => format!("win = (n % {p} NOT IN ({}))", join(&r)),
            }
        } else {
            let mut lost = classes;
            if !n_exc.is_empty() {
                lost = format!("({lost} AND {})", not_one_of("n", &n_exc));
            }
            if !p_exc.is_empty() {
                lost = format!("{} OR {lost}", one_of("n", &p_exc));
            }
            format!("win = NOT ({lost})")
        }
    };
    let last = p_exc.iter().chain(&n_exc).max().copied();
    (claim.len() <= CLAIM_MAX).then(|| {
        Guess::new(
            Target::Outcome,
            Family::Residues,
            ClaimOn::Table,
            claim,
            format!(
                "P-positions in {} of {p} residue classes from n = {n0}; {}",
                r.len(),
                per.certificate
            ),
        )
        .evidence(
            len,
            last.map_or(0, |e| e + 1),
            (p_exc.len() + n_exc.len()) as u64,
        )
    })
}

fn join(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}

// ---------------------------------------------------------------------------------------
// Family 2: a simple function of n

/// One formula of the grammar: its text in `n` and its value (None where undefined).
struct Formula {
    text: String,
    eval: Box<dyn Fn(u64) -> Option<i64> + Sync>,
    cost: u64,
}

/// The grammar: a base (`n`, `n // k` for k = 2..=16) under a function (itself, `v2`, the
/// ruler function `v2 + 1`, `popcount`, its parity, `% m` for m = 2..=16).
fn formulas() -> Vec<Formula> {
    let mut bases: Vec<(String, u64, u64)> = vec![("n".into(), 1, 0)];
    for k in 2..=16u64 {
        bases.push((format!("n // {k}"), k, 2 + k));
    }
    let mut out = vec![];
    for (b, k, bc) in bases {
        let paren = if k == 1 { b.clone() } else { format!("({b})") };
        let arg = b.clone();
        let base = move |n: u64| n / k;
        if k > 1 {
            out.push(Formula {
                text: b.clone(),
                eval: Box::new(move |n| Some(base(n) as i64)),
                cost: bc + 2,
            });
        } else {
            out.push(Formula {
                text: "n".into(),
                eval: Box::new(|n| Some(n as i64)),
                cost: 1,
            });
        }
        out.push(Formula {
            text: format!("v2({arg})"),
            eval: Box::new(move |n| {
                let x = base(n);
                (x > 0).then(|| i64::from(x.trailing_zeros()))
            }),
            cost: bc + 4,
        });
        out.push(Formula {
            text: format!("v2({arg}) + 1"),
            eval: Box::new(move |n| {
                let x = base(n);
                (x > 0).then(|| i64::from(x.trailing_zeros()) + 1)
            }),
            cost: bc + 6,
        });
        out.push(Formula {
            text: format!("popcount({arg})"),
            eval: Box::new(move |n| Some(i64::from(base(n).count_ones()))),
            cost: bc + 5,
        });
        out.push(Formula {
            text: format!("popcount({arg}) % 2"),
            eval: Box::new(move |n| Some(i64::from(base(n).count_ones() % 2))),
            cost: bc + 6,
        });
        for m in 2..=16u64 {
            out.push(Formula {
                text: format!("{paren} % {m}"),
                eval: Box::new(move |n| Some((base(n) % m) as i64)),
                cost: bc + 2 + m,
            });
        }
    }
    out.sort_by_key(|f| f.cost);
    out
}

/// Where `f` fits `a` (or `a`'s truth, for outcomes) from some early row on: the first row
/// of the fit and the rows before it that differ. None when the fit starts late (past a
/// sixteenth of the rows, or past 16 exceptions) or covers fewer than [`MIN_ROWS`] rows.
fn fit_from(len: usize, fits: impl Fn(usize) -> bool) -> Option<(usize, Vec<usize>)> {
    let last_bad = (0..len).rev().find(|&i| !fits(i));
    let from = last_bad.map_or(0, |i| i + 1);
    if ((len - from) as u64) < MIN_ROWS || from * 16 > len {
        return None;
    }
    let bad: Vec<usize> = (0..from).filter(|&i| !fits(i)).collect();
    (bad.len() <= 16).then_some((from, bad))
}

/// The simplest formula of the grammar for the Grundy values, with the values of its
/// exceptions written out.
fn grundy_formula(a: &[i64]) -> Option<Guess> {
    for f in formulas() {
        let Some((from, bad)) = fit_from(a.len(), |i| (f.eval)(i as u64) == Some(a[i])) else {
            continue;
        };
        let mut by_value: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
        for &n in &bad {
            by_value.entry(a[n]).or_default().push(n);
        }
        let branches: Vec<(String, String)> = by_value
            .into_iter()
            .map(|(v, ns)| (one_of("n", &ns), v.to_string()))
            .collect();
        let claim = format!("grundy = {}", case(&branches, &f.text));
        return Some(
            Guess::new(
                Target::Grundy,
                Family::Formula,
                ClaimOn::Table,
                claim,
                format!("g(n) = {} from n = {from}", f.text),
            )
            .evidence(a.len() as u64, from as u64, bad.len() as u64),
        );
    }
    None
}

/// The simplest formula f of the grammar with win = (f(n) <> 0), exceptions written out.
fn outcome_formula(win: &[bool]) -> Option<Guess> {
    for f in formulas() {
        let fits = |i: usize| (f.eval)(i as u64).map(|v| v != 0) == Some(win[i]);
        let Some((from, bad)) = fit_from(win.len(), fits) else {
            continue;
        };
        let (wins, losses): (Vec<usize>, Vec<usize>) = bad.iter().partition(|&&i| win[i]);
        let mut expr = format!("({} <> 0)", f.text);
        if !losses.is_empty() {
            expr = format!("({expr} AND {})", not_one_of("n", &losses));
        }
        if !wins.is_empty() {
            expr = format!("({} OR {expr})", one_of("n", &wins));
        }
        let claim = format!("win = {expr}");
        return Some(
            Guess::new(
                Target::Outcome,
                Family::Formula,
                ClaimOn::Table,
                claim,
                format!("win exactly when {} <> 0, from n = {from}", f.text),
            )
            .evidence(win.len() as u64, from as u64, bad.len() as u64),
        );
    }
    None
}

// ---------------------------------------------------------------------------------------
// Family 3: quasi-polynomials

/// A quasi-polynomial in x: for each residue class c of x mod `period`, a polynomial
/// (integer coefficients over a common denominator), valid for x >= `from`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuasiPolynomial {
    /// The period in x.
    pub period: u64,
    /// The largest degree.
    pub degree: u32,
    /// The first x from which the law holds.
    pub from: u64,
    /// Per class c = x mod period: coefficients of x^0, x^1, … and the denominator.
    pub classes: Vec<(Vec<i128>, i128)>,
}

impl QuasiPolynomial {
    /// The shape in words, with `var` for x: `constant`, `a polynomial of degree 2 in k`,
    /// or `on each residue class of k mod 3, a polynomial of degree at most 1 in k`.
    pub fn shape(&self, var: &str) -> String {
        match (self.period, self.degree) {
            (1, 0) => "constant".into(),
            (1, d) => format!("a polynomial of degree {d} in {var}"),
            (q, d) => format!(
                "on each residue class of {var} mod {q}, a polynomial of degree at most {d} in {var}"
            ),
        }
    }

    /// The value at x (exact; None if it leaves i128 or is not an integer).
    pub fn at(&self, x: u64) -> Option<i128> {
        let (coef, den) = &self.classes[(x % self.period) as usize];
        let x = i128::from(x);
        let mut acc: i128 = 0;
        for &c in coef.iter().rev() {
            acc = acc.checked_mul(x)?.checked_add(c)?;
        }
        (acc % den == 0).then(|| acc / den)
    }

    /// The law in `check`'s language with `var` for x.
    fn expr(&self, var: &str) -> String {
        let poly = |(coef, den): &(Vec<i128>, i128)| {
            let mut terms = vec![];
            for (i, &c) in coef.iter().enumerate().rev() {
                if c == 0 {
                    continue;
                }
                let mono = match i {
                    0 => String::new(),
                    _ => vec![var; i].join(" * "),
                };
                let mag = c.unsigned_abs();
                let t = match (i, mag) {
                    (0, m) => m.to_string(),
                    (_, 1) => mono,
                    (_, m) => format!("{m} * {mono}"),
                };
                terms.push((c < 0, t));
            }
            let mut s = String::new();
            for (k, (neg, t)) in terms.iter().enumerate() {
                match (k, neg) {
                    (0, true) => s += &format!("-{t}"),
                    (0, false) => s += t,
                    (_, true) => s += &format!(" - {t}"),
                    (_, false) => s += &format!(" + {t}"),
                }
            }
            if s.is_empty() {
                s = "0".into();
            }
            if *den != 1 {
                s = format!("({s}) // {den}");
            }
            s
        };
        residue_case(var, self.period, |c| poly(&self.classes[c as usize]))
    }
}

/// (x - r0)(x - r1)… as coefficients of x^0, x^1, …; None on overflow.
fn falling(roots: &[i128]) -> Option<Vec<i128>> {
    let mut p = vec![1i128];
    for &r in roots {
        let mut q = vec![0i128; p.len() + 1];
        for (i, &c) in p.iter().enumerate() {
            q[i + 1] = q[i + 1].checked_add(c)?;
            q[i] = q[i].checked_sub(c.checked_mul(r)?)?;
        }
        p = q;
    }
    Some(p)
}

/// Fits y(x) for x = x0, x0 + 1, … (`ys[i]` at x0 + i) by the simplest quasi-polynomial
/// with period up to `max_period` and degree up to `max_degree` (fewest parameters first),
/// holding from the earliest x: per class, the (d + 1)-th differences vanish from there on.
/// Each class needs at least d + 4 values in the law (three beyond those that fix it), the
/// law must hold on the last three quarters of the values, and the parameters must be at
/// most a quarter of the values it covers.
pub fn fit_quasi_polynomial(
    ys: &[i64],
    x0: u64,
    max_period: u64,
    max_degree: u32,
    min_degree: u32,
) -> Option<QuasiPolynomial> {
    let n = ys.len() as u64;
    let mut shapes: Vec<(u64, u32)> = (1..=max_period)
        .flat_map(|q| (min_degree..=max_degree).map(move |d| (q, d)))
        .collect();
    shapes.sort_by_key(|&(q, d)| (q * u64::from(d + 1), d));
    'shape: for (q, d) in shapes {
        let mut classes = vec![];
        let mut from = x0;
        for c in 0..q {
            // the class's values, in increasing x
            let first = (0..q).map(|i| x0 + i).find(|x| x % q == c)?;
            let xs: Vec<u64> = (first..x0 + n).step_by(q as usize).collect();
            let vs: Vec<i128> = xs
                .iter()
                .map(|&x| i128::from(ys[(x - x0) as usize]))
                .collect();
            let need = d as usize + 4;
            if vs.len() < need {
                continue 'shape;
            }
            // the last index t at which the (d + 1)-th difference over t..=t + d + 1 is not 0
            let mut diff = vs.clone();
            for _ in 0..=d {
                let next: Option<Vec<i128>> =
                    diff.windows(2).map(|w| w[1].checked_sub(w[0])).collect();
                let Some(next) = next else { continue 'shape };
                diff = next;
            }
            let start = diff.iter().rposition(|&v| v != 0).map_or(0, |t| t + 1);
            if vs.len() - start < need {
                continue 'shape;
            }
            from = from.max(xs[start]);
            // Newton's forward form at x_s, in x: Σ_i Δ^i(v_s) · Π_{m<i}(x - x_s - m q)
            // / (q^i i!), over the common denominator q^d d!
            let xs0 = i128::from(xs[start]);
            let qi = i128::from(q);
            let mut deltas = vec![];
            let mut row: Vec<i128> = vs[start..start + d as usize + 1].to_vec();
            for _ in 0..=d {
                deltas.push(row[0]);
                row = row.windows(2).map(|w| w[1] - w[0]).collect();
            }
            let fact = |k: u32| (1..=i128::from(k)).product::<i128>();
            let den = qi.checked_pow(d)?.checked_mul(fact(d))?;
            let mut coef = vec![0i128; d as usize + 1];
            for (i, &delta) in deltas.iter().enumerate() {
                let roots: Vec<i128> = (0..i as i128).map(|m| xs0 + m * qi).collect();
                let f = falling(&roots)?;
                let mult = qi
                    .checked_pow(d - i as u32)?
                    .checked_mul(fact(d) / fact(i as u32))?;
                for (k, &fc) in f.iter().enumerate() {
                    coef[k] = coef[k].checked_add(fc.checked_mul(mult)?.checked_mul(delta)?)?;
                }
            }
            let g = coef.iter().fold(den, |g, &c| gcd(g, c));
            let g = if g == 0 { 1 } else { g };
            let mut coef: Vec<i128> = coef.iter().map(|c| c / g).collect();
            while coef.len() > 1 && coef.last() == Some(&0) {
                coef.pop();
            }
            classes.push((c, coef, den / g));
        }
        classes.sort_by_key(|c| c.0);
        let qp = QuasiPolynomial {
            period: q,
            degree: d,
            from,
            classes: classes.into_iter().map(|(_, c, d)| (c, d)).collect(),
        };
        let covered = x0 + n - from;
        if (from - x0) * 4 > n || q * u64::from(d + 1) * 4 > covered {
            continue;
        }
        // confirm every value from `from` on (the per-class starts may be earlier)
        if (from..x0 + n).all(|x| qp.at(x) == Some(i128::from(ys[(x - x0) as usize]))) {
            return Some(qp);
        }
    }
    None
}

/// The k-th P-position as a quasi-polynomial in k (degree 1 to 3, period up to 12).
fn losers_quasi(ps: &[u64]) -> Option<Guess> {
    if ps.len() < 16 || ps.iter().any(|&p| p > i64::MAX as u64) {
        return None;
    }
    let ys: Vec<i64> = ps.iter().map(|&p| p as i64).collect();
    let qp = fit_quasi_polynomial(&ys, 0, 12, 3, 1)?;
    let bad: Vec<u64> = (0..qp.from)
        .filter(|&k| qp.at(k) != Some(i128::from(ys[k as usize])))
        .collect();
    if bad.len() > EXCEPTIONS_MAX {
        return None;
    }
    let branches: Vec<(String, String)> = bad
        .iter()
        .map(|&k| (format!("k = {k}"), ys[k as usize].to_string()))
        .collect();
    let claim = format!("p = {}", case(&branches, &qp.expr("k")));
    (claim.len() <= CLAIM_MAX).then(|| {
        Guess::new(
            Target::Losers,
            Family::QuasiPolynomial,
            ClaimOn::Losers,
            claim,
            format!(
                "the k-th P-position is {}, from k = {}",
                qp.shape("k"),
                bad.last().map_or(0, |&k| k + 1)
            ),
        )
        .evidence(
            ps.len() as u64,
            bad.last().map_or(0, |&k| k + 1),
            bad.len() as u64,
        )
    })
}

// ---------------------------------------------------------------------------------------
// Family 4: linear recurrences

const PRIMES: [u64; 2] = [(1 << 61) - 1, 1_000_000_007];

fn mulmod(a: u64, b: u64, m: u64) -> u64 {
    ((u128::from(a) * u128::from(b)) % u128::from(m)) as u64
}

fn powmod(mut a: u64, mut e: u64, m: u64) -> u64 {
    let mut r = 1;
    while e > 0 {
        if e & 1 == 1 {
            r = mulmod(r, a, m);
        }
        a = mulmod(a, a, m);
        e >>= 1;
    }
    r
}

/// Berlekamp–Massey over GF(m): the shortest c with s_i = Σ_j c_j s_{i-1-j} for every i.
fn berlekamp_massey(s: &[u64], m: u64) -> Vec<u64> {
    let (mut c, mut b) = (vec![1u64], vec![1u64]);
    let (mut l, mut shift, mut bd) = (0usize, 1usize, 1u64);
    for i in 0..s.len() {
        let mut d = 0u64;
        for j in 0..=l.min(c.len() - 1) {
            d = (d + mulmod(c[j], s[i - j], m)) % m;
        }
        if d == 0 {
            shift += 1;
            continue;
        }
        let coef = mulmod(d, powmod(bd, m - 2, m), m);
        let old = c.clone();
        if c.len() < b.len() + shift {
            c.resize(b.len() + shift, 0);
        }
        for (j, &bj) in b.iter().enumerate() {
            c[j + shift] = (c[j + shift] + m - mulmod(coef, bj, m)) % m;
        }
        if 2 * l <= i {
            l = i + 1 - l;
            b = old;
            bd = d;
            shift = 1;
        } else {
            shift += 1;
        }
    }
    c.resize(l + 1, 0);
    // s_i + Σ c_j s_{i-j} = 0  →  s_i = Σ (-c_j) s_{i-j}
    c[1..].iter().map(|&x| (m - x) % m).collect()
}

/// A linear recurrence with small integer coefficients satisfied by `ys` from index
/// `start` on: found modulo two primes (same length, coefficients that lift to the same
/// integers below 10^6 in size) and confirmed exactly.
fn integer_recurrence(ys: &[i64]) -> Option<(Vec<i64>, usize)> {
    let mut found: Option<Vec<i64>> = None;
    // recurrences of order up to 16 show on a prefix of 64 terms (Berlekamp–Massey is
    // quadratic in what it reads); the whole sequence confirms below
    let head = &ys[..ys.len().min(64)];
    for &m in &PRIMES {
        let s: Vec<u64> = head
            .iter()
            .map(|&y| y.rem_euclid(m as i64) as u64)
            .collect();
        let c = berlekamp_massey(&s, m);
        let lifted: Option<Vec<i64>> = c
            .iter()
            .map(|&x| {
                let v = if x > m / 2 {
                    x as i128 - m as i128
                } else {
                    x as i128
                };
                (v.abs() < 1_000_000).then_some(v as i64)
            })
            .collect();
        let lifted = lifted?;
        match &found {
            None => found = Some(lifted),
            Some(f) if *f == lifted => {}
            Some(_) => return None,
        }
    }
    let c = found?;
    let l = c.len();
    if l == 0 || l > 16 || 2 * l + 8 > head.len() {
        return None;
    }
    for i in l..ys.len() {
        let mut v: i128 = 0;
        for (j, &cj) in c.iter().enumerate() {
            v += i128::from(cj) * i128::from(ys[i - 1 - j]);
        }
        if v != i128::from(ys[i]) {
            return None;
        }
    }
    Some((c, l))
}

/// The P-positions by a linear recurrence written with `prev`: p = a·prev + b (the
/// recurrences of order 2 with root 1, and of order 1), which `check` can verify.
fn losers_recurrence(ps: &[u64]) -> Option<Guess> {
    if ps.len() < 12 || ps.iter().any(|&p| p > i64::MAX as u64 / 2) {
        return None;
    }
    let ys: Vec<i64> = ps.iter().map(|&p| p as i64).collect();
    let (c, _) = integer_recurrence(&ys)?;
    // p_k = a p_{k-1} + b: order 1 (b = 0) or roots 1 and a
    let (a, b) = match c.as_slice() {
        [a] => (*a, 0),
        [c1, c2] if c1 + c2 == 1 => {
            let a = c1 - 1;
            (a, ys[1] - a * ys[0])
        }
        _ => return None,
    };
    // the law from k = l on; check every k >= 1
    let bad: Vec<usize> = (1..ys.len())
        .filter(|&k| i128::from(ys[k]) != i128::from(a) * i128::from(ys[k - 1]) + i128::from(b))
        .collect();
    if !bad.is_empty() {
        return None;
    }
    let rhs = match (a, b) {
        (1, b) => {
            return Some(gap_guess(
                Family::Recurrence,
                format!("gap = {b}"),
                ps,
                0,
                0,
            ))
        }
        (a, 0) => format!("{a} * prev"),
        (a, b) if b < 0 => format!("{a} * prev - {}", -b),
        (a, b) => format!("{a} * prev + {b}"),
    };
    Some(gap_guess(
        Family::Recurrence,
        format!("p = {rhs}"),
        ps,
        0,
        0,
    ))
}

/// A guess about the P-positions from row k = `from` on (`k = 0 OR …` from k = 1, else
/// `k < from OR …`), `exceptions` of the rows 1..from breaking the law.
fn gap_guess(family: Family, law: String, ps: &[u64], from: u64, exceptions: u64) -> Guess {
    let (claim, law) = if from <= 1 {
        (format!("k = 0 OR {law}"), format!("{law} for every k >= 1"))
    } else {
        let broken = if exceptions == 1 && from == 2 {
            format!("row k = 1 breaks it: p = {} after prev = {}", ps[1], ps[0])
        } else {
            format!("{exceptions} of the rows k = 1..{} break it", from - 1)
        };
        (
            format!("k < {from} OR {law}"),
            format!("{law} from row k = {from} on ({broken})"),
        )
    };
    Guess::new(Target::Losers, family, ClaimOn::Losers, claim, law).evidence(
        ps.len() as u64,
        from,
        exceptions,
    )
}

// ---------------------------------------------------------------------------------------
// Family 5: Beatty sequences

/// ⌊√x⌋ for x >= 0.
fn isqrt(x: u128) -> u128 {
    if x < 2 {
        return x;
    }
    let mut r = (x as f64).sqrt() as u128;
    while r * r > x {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= x {
        r += 1;
    }
    r
}

/// p_k = ⌊kα + β⌋ for k >= 1 with α = (a + √D)/c (D not a square, up to 50; c up to 6)
/// and β = b/c: written `p = (a * k + b + isqrt(D * k * k)) // c`, exact since
/// ⌊(m + x)/c⌋ = ⌊(m + ⌊x⌋)/c⌋ for integers m and c.
fn losers_beatty(ps: &[u64]) -> Option<Guess> {
    let kmax = ps.len() as u64 - 1;
    if kmax < MIN_ROWS || ps[kmax as usize] > 1 << 40 {
        return None;
    }
    let est = ps[kmax as usize] as f64 / kmax as f64;
    let mut best: Option<(u64, String)> = None;
    for d in 2..=50u64 {
        if isqrt(u128::from(d)).pow(2) == u128::from(d) {
            continue;
        }
        for c in 1..=6i64 {
            for a in -12..=12i64 {
                let alpha = (a as f64 + (d as f64).sqrt()) / c as f64;
                if alpha <= 0.0 || (alpha - est).abs() > 2.0 * c as f64 / kmax as f64 + 1e-9 {
                    continue;
                }
                for b in -c..=2 * c {
                    let law = |k: u64| {
                        let s = isqrt(u128::from(d) * u128::from(k) * u128::from(k)) as i128;
                        (i128::from(a) * i128::from(k) + i128::from(b) + s)
                            .div_euclid(i128::from(c))
                    };
                    if (1..=kmax).all(|k| law(k) == i128::from(ps[k as usize])) {
                        let cost = d + c as u64 + a.unsigned_abs() + b.unsigned_abs();
                        let mut t = String::from("(");
                        match a {
                            0 => {}
                            1 => t += "k + ",
                            a => t += &format!("{a} * k + "),
                        }
                        if b != 0 {
                            t += &format!("{b} + ");
                        }
                        t += &format!("isqrt({d} * k * k))");
                        let t = if c == 1 { t } else { format!("{t} // {c}") };
                        if best.as_ref().is_none_or(|(bc, _)| cost < *bc) {
                            best = Some((cost, format!("p = {t}")));
                        }
                    }
                }
            }
        }
    }
    let (_, law) = best?;
    let mut g = gap_guess(Family::Beatty, law, ps, 1, 0);
    g.law = format!("{} (a Beatty sequence)", g.law);
    Some(g)
}

// ---------------------------------------------------------------------------------------
// Family 6: gap recurrences

/// A candidate h of a gap recurrence: its cost, its text in `prev`, its value.
type GapLaw = (u64, String, Box<dyn Fn(u64) -> i128>);

/// Rows at the start (k = 1, 2, …) a gap recurrence may break on and still be guessed
/// "from row k on" (more when the rows are many: up to a sixteenth of them).
const GAP_LATE_START: usize = 3;

/// Rows a gap recurrence must hold on (from its first row to the last).
const GAP_ROWS: usize = 11;

/// gap_k = h(p_{k-1}) for every k >= k0 (k0 = 1 when it can, else at most
/// [`GAP_LATE_START`], the rows before written into the claim), h from the grammar `(a + isqrt(b + c·x)) // d + e`
/// (a 0..=2, b 0..=4, c 1, 2, 4, 8, d 1..=2, e -1..=2) or `x // d + e` (d 1..=8, e -1..=3);
/// the simplest that fits.
fn losers_gap_recurrence(ps: &[u64]) -> Option<Guess> {
    if ps.len() < 12 || ps.iter().any(|&p| p > 1 << 60) {
        return None;
    }
    // the first row k from which gap_k = h(p_{k-1}) holds to the end, and how many rows
    // before it break the law; None when that start is past GAP_LATE_START (or a sixteenth
    // of the rows) or leaves fewer than GAP_ROWS rows
    let fits_from = |h: &dyn Fn(u64) -> i128| -> Option<(usize, u64)> {
        let holds = |k: usize| h(ps[k - 1]) == i128::from(ps[k]) - i128::from(ps[k - 1]);
        let from = (1..ps.len())
            .rev()
            .find(|&k| !holds(k))
            .map_or(1, |k| k + 1);
        if from > GAP_LATE_START.max(ps.len() / 16) || ps.len() - from < GAP_ROWS {
            return None;
        }
        Some((from, (1..from).filter(|&k| !holds(k)).count() as u64))
    };
    let mut cands: Vec<GapLaw> = vec![];
    for d in 1..=8u64 {
        for e in -1..=3i64 {
            let text = match (d, e) {
                (1, _) => "prev".to_string(),
                _ => format!("prev // {d}"),
            };
            let text = match e {
                0 => text,
                e if e < 0 => format!("{text} - {}", -e),
                e => format!("{text} + {e}"),
            };
            cands.push((
                2 + d + e.unsigned_abs(),
                text,
                Box::new(move |x| i128::from(x / d) + i128::from(e)),
            ));
        }
    }
    for a in 0..=2u64 {
        for b in 0..=4u64 {
            for c in [1u64, 2, 4, 8] {
                for d in 1..=2u64 {
                    for e in -1..=2i64 {
                        let mut inner = String::new();
                        if b != 0 {
                            inner += &format!("{b} + ");
                        }
                        inner += &if c == 1 {
                            "prev".to_string()
                        } else {
                            format!("{c} * prev")
                        };
                        let root = format!("isqrt({inner})");
                        let mut t = if a != 0 {
                            format!("({a} + {root})")
                        } else {
                            root
                        };
                        if d != 1 {
                            t = format!("{t} // {d}");
                        }
                        t = match e {
                            0 => t,
                            e if e < 0 => format!("{t} - {}", -e),
                            e => format!("{t} + {e}"),
                        };
                        cands.push((
                            5 + a + b + c + d + e.unsigned_abs(),
                            t,
                            Box::new(move |x| {
                                let r = isqrt(u128::from(b) + u128::from(c) * u128::from(x));
                                ((u128::from(a) + r) / u128::from(d)) as i128 + i128::from(e)
                            }),
                        ));
                    }
                }
            }
        }
    }
    // the earliest start, then the simplest law
    let (from, _, text, bad) = cands
        .into_iter()
        .filter_map(|(cost, text, h)| {
            let (from, bad) = fits_from(h.as_ref())?;
            Some((from, cost, text, bad))
        })
        .min_by_key(|c| (c.0, c.1))?;
    Some(gap_guess(
        Family::GapRecurrence,
        format!("gap = {text}"),
        ps,
        from as u64,
        bad,
    ))
}

// ---------------------------------------------------------------------------------------
// Entry points

/// Guesses about Grundy values a(0..=N): residue classes (from `per`, the periodicity
/// with its certificate) and formulas of the grammar.
pub fn guess_grundy(a: &[i64], per: Option<&Periodicity>) -> Vec<Guess> {
    let mut out = vec![];
    if let Some(g) = grundy_formula(a) {
        out.push(g);
    }
    if let Some(g) = per.and_then(|p| grundy_residues(a, p)) {
        out.push(g);
    }
    tidy(out)
}

/// Guesses about outcomes (true for N-positions) over 0..=N: residue classes (from `per`,
/// the periodicity of the outcome sequence) and formulas of the grammar.
pub fn guess_outcomes(win: &[bool], per: Option<&Periodicity>) -> Vec<Guess> {
    let mut out = vec![];
    if let Some(g) = per.and_then(|p| outcome_residues(win, p)) {
        out.push(g);
    }
    // an eventually periodic outcome is said by its residues (with their certificate)
    if out.is_empty() {
        out.extend(outcome_formula(win));
    }
    tidy(out)
}

/// Guesses about the P-positions p_0 < p_1 < … : quasi-polynomials in k, linear
/// recurrences, Beatty sequences and gap recurrences.
pub fn guess_losers(ps: &[u64]) -> Vec<Guess> {
    let mut out = vec![];
    out.extend(losers_quasi(ps));
    // an irrational slope close to a rational one fits a quasi-linear sequence for a while
    if out.is_empty() {
        out.extend(losers_beatty(ps));
    }
    out.extend(losers_gap_recurrence(ps));
    // a linear recurrence says again what a quasi-polynomial (roots of unity) or an affine
    // gap recurrence says: shown only when neither was found
    if out.iter().all(|g| g.family == Family::Beatty) {
        out.extend(losers_recurrence(ps));
    }
    tidy(out)
}

/// Guesses over a sweep (rows in the order of the parameter `name`, whose values must be
/// consecutive integers, each with a proven period): the period and the preperiod of the
/// Grundy values as quasi-polynomials in the parameter (degree up to 2, period up to 6).
pub fn guess_sweep(rows: &[SweepRow], name: &str) -> Vec<Guess> {
    let consecutive = rows.windows(2).all(|w| w[1].value == w[0].value + 1);
    // rows whose period is only observed (sub{1,2,k} with k past N looks like sub{1,2})
    // are no evidence about the family
    let proven = rows.iter().all(|r| r.certified);
    if rows.len() < 8 || !consecutive || !proven {
        return vec![];
    }
    let x0 = rows[0].value;
    let mut out = vec![];
    for col in SWEEP_COLUMNS {
        let Some(ys) = rows
            .iter()
            .map(|r| sweep_value(r, col).and_then(|v| i64::try_from(v).ok()))
            .collect::<Option<Vec<i64>>>()
        else {
            continue;
        };
        let Some(qp) = fit_quasi_polynomial(&ys, x0, 6, 2, 0) else {
            continue;
        };
        let bad: Vec<u64> = (x0..qp.from)
            .filter(|&x| qp.at(x) != Some(i128::from(ys[(x - x0) as usize])))
            .collect();
        if bad.len() > EXCEPTIONS_MAX {
            continue;
        }
        let branches: Vec<(String, String)> = bad
            .iter()
            .map(|&x| (format!("{name} = {x}"), ys[(x - x0) as usize].to_string()))
            .collect();
        let claim = format!("{col} = {}", case(&branches, &qp.expr(name)));
        let law = format!(
            "the {col} of the Grundy values is {} over {name} = {}..={}",
            qp.shape(name),
            x0,
            x0 + rows.len() as u64 - 1
        );
        let g = Guess::new(
            Target::Grundy,
            Family::QuasiPolynomial,
            ClaimOn::Sweep,
            claim,
            law,
        )
        .evidence(
            rows.len() as u64,
            bad.last().map_or(x0, |&x| x + 1),
            bad.len() as u64,
        );
        out.push(Guess {
            sweep_law: Some((col.to_string(), qp)),
            ..g
        });
    }
    out
}

/// A parameter value where a sweep guess fails, and the value found there.
pub type SweepFailure = (u64, Option<u64>);

/// The sweep columns guessed at.
const SWEEP_COLUMNS: [&str; 2] = ["period", "preperiod"];

/// A sweep row's period or preperiod (`col`, one of [`SWEEP_COLUMNS`]).
fn sweep_value(r: &SweepRow, col: &str) -> Option<u64> {
    if col == "period" {
        r.period
    } else {
        r.preperiod
    }
}

/// Where a sweep guess fails among `rows` (None for guesses not about sweeps): the column
/// it is about, and each parameter value from its law's start whose value there (found)
/// is not the law's.
pub fn sweep_guess_failures(
    g: &Guess,
    rows: &[SweepRow],
) -> Option<(&'static str, Vec<SweepFailure>)> {
    let (col, qp) = g.sweep_law.as_ref()?;
    let col = SWEEP_COLUMNS.into_iter().find(|c| c == col)?;
    let bad = rows
        .iter()
        .filter(|r| r.value >= qp.from)
        .map(|r| (r.value, sweep_value(r, col)))
        .filter(|&(x, v)| v.map(i128::from) != qp.at(x))
        .collect();
    Some((col, bad))
}

/// Sorted by cost, identical claims once.
fn tidy(mut v: Vec<Guess>) -> Vec<Guess> {
    v.sort_by_key(|g| g.cost);
    let mut seen = std::collections::HashSet::new();
    v.retain(|g| seen.insert(g.claim.clone()));
    v
}

/// Guesses about `game` from its table to `max`: for each of `targets` (Grundy values,
/// outcomes, P-positions) the families above, simplest first. Outcomes and P-positions come
/// from the Grundy table when Grundy values are a target, else from the outcome table.
///
/// # Errors
/// As [`analyze`]: refusals within `budget`, cancellation by `obs`.
pub fn guess(
    game: &Game,
    max: u64,
    targets: &[Target],
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<Vec<Guess>, Error> {
    let want = |t| targets.contains(&t);
    let values = if want(Target::Grundy) {
        Sequence::Grundy
    } else {
        Sequence::Outcome
    };
    let data = analyze(game, max, values, budget, obs)?;
    let mut out = vec![];
    let win: Vec<bool> = match (&data.table, &data.outcomes) {
        (Some(t), _) => (0..=max).map(|n| t.get(n) != 0).collect(),
        (None, Some(o)) => (0..=max).map(|n| o.is_win(n)).collect(),
        (None, None) => vec![],
    };
    if want(Target::Grundy) {
        if let Some(t) = &data.table {
            let a: Vec<i64> = t.to_u32_vec().into_iter().map(i64::from).collect();
            out.extend(guess_grundy(&a, data.analysis.periodicity.as_ref()));
        }
    }
    if want(Target::Outcome) {
        let per = match values {
            Sequence::Outcome => data.analysis.periodicity.clone(),
            Sequence::Grundy => {
                let seq: Vec<i64> = win.iter().map(|&w| i64::from(w)).collect();
                let per = periodicity(&seq, CertRule::of(game, Sequence::Outcome));
                // the outcomes follow the Grundy values: a proven Grundy period proves the
                // outcome's (found on the same rows, past twice the preperiod and period)
                match (per, data.analysis.periodicity.as_ref()) {
                    (Some(o), Some(g)) if !o.certified && g.certified && g.saltus == 0 => {
                        Some(Periodicity {
                            certified: true,
                            certificate: format!(
                                "from the Grundy values' period, {}",
                                g.certificate
                            ),
                            ..o
                        })
                    }
                    (per, _) => per,
                }
            }
        };
        out.extend(guess_outcomes(&win, per.as_ref()));
    }
    if want(Target::Losers) {
        out.extend(guess_losers(&data.ps));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grundy_of(values: &[i64]) -> Vec<Guess> {
        let per = periodicity(values, CertRule::None);
        guess_grundy(values, per.as_ref())
    }

    #[test]
    fn residues_and_formulas_read_back() {
        // sub{1,4,5}: 0,1,0,1,2,3,2,3 repeating
        let a: Vec<i64> = (0..200).map(|n| [0, 1, 0, 1, 2, 3, 2, 3][n % 8]).collect();
        let g = grundy_of(&a);
        assert!(g.iter().any(|g| g.family == Family::Residues
            && g.claim
                == "grundy = CASE WHEN n % 8 IN (0, 2) THEN 0 WHEN n % 8 IN (1, 3) THEN 1 \
                    WHEN n % 8 IN (4, 6) THEN 2 ELSE 3 END"));
        // v2(n) with g(0) = 0 written out
        let a: Vec<i64> = (0..300u64)
            .map(|n| {
                if n == 0 {
                    0
                } else {
                    i64::from(n.trailing_zeros())
                }
            })
            .collect();
        let g = grundy_of(&a);
        assert_eq!(g[0].claim, "grundy = CASE WHEN n = 0 THEN 0 ELSE v2(n) END");
        assert_eq!((g[0].from, g[0].exceptions), (1, 1));
    }

    #[test]
    fn quasi_polynomials_in_closed_form() {
        // 5k, and k^2 + k on even k, k^2 on odd k
        let ps: Vec<u64> = (0..100).map(|k| 5 * k).collect();
        let g = guess_losers(&ps);
        assert!(g.iter().any(|g| g.claim == "p = 5 * k"), "{g:?}");
        let ys: Vec<i64> = (0..60i64)
            .map(|k| if k % 2 == 0 { k * k + k } else { k * k })
            .collect();
        let q = fit_quasi_polynomial(&ys, 0, 4, 3, 1).unwrap();
        assert_eq!((q.period, q.degree), (2, 2));
        assert_eq!(
            q.expr("k"),
            "CASE WHEN k % 2 = 0 THEN k * k + k ELSE k * k END"
        );
        // (k^2 - k) / 2 has a denominator
        let ys: Vec<i64> = (0..40i64).map(|k| k * (k - 1) / 2).collect();
        let q = fit_quasi_polynomial(&ys, 0, 4, 3, 1).unwrap();
        assert_eq!(q.expr("k"), "(k * k - k) // 2");
        // noise: no law
        let mut x = 12345u64;
        let ys: Vec<i64> = (0..200)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % 1000) as i64
            })
            .collect();
        assert!(fit_quasi_polynomial(&ys, 0, 12, 3, 0).is_none());
    }

    #[test]
    fn gap_recurrences_may_start_late() {
        // half|sub{1}: 0, then 3·2^k − 1; gap = prev + 1 breaks only at k = 1 (0 -> 2)
        let ps: Vec<u64> = std::iter::once(0)
            .chain((0..16).map(|k| 3 * (1u64 << k) - 1))
            .collect();
        let g = losers_gap_recurrence(&ps).unwrap();
        assert_eq!(g.claim, "k < 2 OR gap = prev + 1");
        assert_eq!((g.from, g.exceptions), (2, 1));
        assert_eq!(
            g.law,
            "gap = prev + 1 from row k = 2 on (row k = 1 breaks it: p = 2 after prev = 0)"
        );
        // one that holds from k = 1 is still said so
        let ps: Vec<u64> = (0..20).map(|k| (1u64 << k) - 1).collect();
        assert_eq!(
            losers_gap_recurrence(&ps).unwrap().claim,
            "k = 0 OR gap = prev + 1"
        );
        // a law broken past the first rows is no guess: 2^k − 1 with row 6 changed
        let mut ps: Vec<u64> = (0..20).map(|k| (1u64 << k) - 1).collect();
        ps[6] += 1;
        assert!(losers_gap_recurrence(&ps).is_none(), "{ps:?}");
        // too few rows after the start
        let ps: Vec<u64> = std::iter::once(0)
            .chain((0..11).map(|k| 3 * (1u64 << k) - 1))
            .collect();
        assert!(losers_gap_recurrence(&ps).is_none());
    }

    #[test]
    fn recurrences_beatty_and_gaps() {
        // 2^k - 1: p = 2 * prev + 1
        let ps: Vec<u64> = (0..40).map(|k| (1u64 << k) - 1).collect();
        let g = guess_losers(&ps);
        assert!(
            g.iter()
                .any(|g| g.claim == "k = 0 OR p = 2 * prev + 1"
                    || g.claim == "k = 0 OR gap = prev + 1"),
            "{g:?}"
        );
        // floor(k φ): (k + isqrt(5 k^2)) // 2
        let ps: Vec<u64> = (0..300u64)
            .map(|k| ((k as f64) * (1.0 + 5f64.sqrt()) / 2.0).floor() as u64)
            .collect();
        let g = guess_losers(&ps);
        assert!(
            g.iter()
                .any(|g| g.claim == "k = 0 OR p = (k + isqrt(5 * k * k)) // 2"),
            "{g:?}"
        );
        // Berlekamp–Massey finds Fibonacci's recurrence
        let mut f = vec![0i64, 1];
        for i in 2..40 {
            f.push(f[i - 1] + f[i - 2]);
        }
        assert_eq!(integer_recurrence(&f).unwrap().0, vec![1, 1]);
    }

    /// Every claim guessed on a table holds when `check` evaluates it on that table: the
    /// claims mean in polars SQL what the guesser found.
    #[cfg(feature = "polars")]
    #[test]
    fn every_guess_holds_where_it_was_found() {
        use heaplab_core::Silent;
        let b = Budget::new(1 << 30);
        for spec in [
            "sub{1,4,5}",
            "sub{2,3}",
            "divisors",
            "upto{3}",
            "leave1(upto{2})",
            "half",
            "sqrt",
            "0.77",
            "0.07",
            "0.137",
            "nim",
            "allbut{1,3}",
            "sub{3,5,9}",
            "leave1(half)",
            "squares",
            "4.07",
            "half|sub{1}",
        ] {
            let g = Game::parse(spec).unwrap();
            for max in [300, 3000] {
                for guess in guess(&g, max, &Target::ALL, &b, &Silent).unwrap() {
                    let r = crate::verify_guess(&g, &guess, max, &b, &Silent)
                        .unwrap()
                        .unwrap();
                    assert!(
                        r.holds(),
                        "{spec} to {max}: {}: {:?}",
                        guess.claim,
                        r.counterexamples
                    );
                }
            }
        }
    }

    #[test]
    fn sweep_laws_are_fitted_and_their_failures_named() {
        let row = |k: u64, period: u64| SweepRow {
            value: k,
            game: format!("sub{{1,2,{k}}}"),
            preperiod: Some(0),
            period: Some(period),
            saltus: Some(0),
            certified: true,
            p_positions: 0,
            max_grundy: None,
        };
        let law = |k: u64| if k.is_multiple_of(3) { k + 1 } else { 3 };
        let rows: Vec<SweepRow> = (3..=40).map(|k| row(k, law(k))).collect();
        let g = guess_sweep(&rows, "k");
        assert_eq!(
            g[0].claim,
            "period = CASE WHEN k % 3 = 0 THEN k + 1 ELSE 3 END"
        );
        assert_eq!(sweep_guess_failures(&g[0], &rows), Some(("period", vec![])));
        // rows that break the law are named
        let mut other = rows.clone();
        other[3].period = Some(99);
        other[9].period = Some(98);
        assert_eq!(
            sweep_guess_failures(&g[0], &other),
            Some(("period", vec![(6, Some(99)), (12, Some(98))]))
        );
        // a row without a proven period: no guess
        let mut unproven = rows.clone();
        unproven[0].certified = false;
        assert!(guess_sweep(&unproven, "k").is_empty());
    }
}
