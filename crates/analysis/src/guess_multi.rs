//! Formulas over several parameters: a value y (a period, a preperiod) of every game of a
//! family, as one polynomial of degree at most 2 in the parameters with rational
//! coefficients, or piecewise on a residue of one parameter or a comparison of two, each
//! piece exact on every row it covers.
//!
//! The search goes from the simplest shape to the richest (one linear piece, one quadratic
//! piece, then residues mod 2, 3, 4, 6 and comparisons k·x < y for k = 1, 2, 3, linear
//! before quadratic), and returns the first shape that fits every row. A piece's
//! coefficients are solved exactly (fractions) from rows chosen to make the system
//! independent, coefficients left free by the rows are 0, and the piece is then checked on
//! every one of its rows: a formula is reported only when it holds on all of them.

use serde::Serialize;
use std::fmt::Write as _;

/// Most rows a piece may have fewer than its terms plus three (so a fit is evidence).
const SPARE_ROWS: usize = 3;
/// Largest denominator a coefficient may have.
const MAX_DENOMINATOR: i128 = 12;

/// A fraction n / d in lowest terms, d > 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Q {
    n: i128,
    d: i128,
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

impl Q {
    fn new(n: i128, d: i128) -> Option<Q> {
        if d == 0 {
            return None;
        }
        let g = gcd(n, d).max(1);
        let s = if d < 0 { -1 } else { 1 };
        Some(Q {
            n: s * n / g,
            d: s * d / g,
        })
    }
    fn int(n: i128) -> Q {
        Q { n, d: 1 }
    }
    fn add(self, o: Q) -> Option<Q> {
        Q::new(
            self.n
                .checked_mul(o.d)?
                .checked_add(o.n.checked_mul(self.d)?)?,
            self.d.checked_mul(o.d)?,
        )
    }
    fn sub(self, o: Q) -> Option<Q> {
        Q::new(
            self.n
                .checked_mul(o.d)?
                .checked_sub(o.n.checked_mul(self.d)?)?,
            self.d.checked_mul(o.d)?,
        )
    }
    fn mul(self, o: Q) -> Option<Q> {
        Q::new(self.n.checked_mul(o.n)?, self.d.checked_mul(o.d)?)
    }
    fn div(self, o: Q) -> Option<Q> {
        Q::new(self.n.checked_mul(o.d)?, self.d.checked_mul(o.n)?)
    }
}

/// Which rows a piece covers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Condition {
    /// Every row.
    All,
    /// x_i ≡ r (mod m).
    Residue {
        /// The parameter.
        param: usize,
        /// The modulus.
        m: u64,
        /// The residue.
        r: u64,
    },
    /// x_j mod (m·x_i) = r·x_i (`r` Some), or x_j not a multiple of x_i (`r` None).
    Multiple {
        /// The divisor's parameter.
        i: usize,
        /// The dividend's parameter.
        j: usize,
        /// The modulus is m·x_i.
        m: u64,
        /// The residue r·x_i, or None for "not a multiple".
        r: Option<u64>,
    },
    /// k·x_i < x_j (or, negated, k·x_i >= x_j).
    Less {
        /// The smaller side's parameter.
        i: usize,
        /// Its factor.
        k: u64,
        /// The larger side's parameter.
        j: usize,
        /// Whether this piece is where the comparison holds.
        holds: bool,
    },
}

impl Condition {
    fn covers(&self, x: &[u64]) -> bool {
        match *self {
            Condition::All => true,
            Condition::Residue { param, m, r } => x[param] % m == r,
            Condition::Less { i, k, j, holds } => (k * x[i] < x[j]) == holds,
            Condition::Multiple { i, j, m, r } => match (x[i], r) {
                (0, _) => false,
                (xi, Some(r)) => x[j] % (m * xi) == r * xi,
                (xi, None) => !x[j].is_multiple_of(xi),
            },
        }
    }
    fn text(&self, names: &[String]) -> String {
        match *self {
            Condition::All => "TRUE".into(),
            Condition::Residue { param, m, r } => format!("{} % {m} = {r}", names[param]),
            Condition::Less { i, k, j, holds } => {
                let lhs = if k == 1 {
                    names[i].clone()
                } else {
                    format!("{k}*{}", names[i])
                };
                format!("{lhs} {} {}", if holds { "<" } else { ">=" }, names[j])
            }
            Condition::Multiple { i, j, m, r } => {
                let (xi, xj) = (&names[i], &names[j]);
                let modulus = if m == 1 {
                    xi.clone()
                } else {
                    format!("({m}*{xi})")
                };
                match r {
                    None => format!("{xj} % {xi} <> 0"),
                    Some(0) => format!("{xj} % {modulus} = 0"),
                    Some(1) => format!("{xj} % {modulus} = {xi}"),
                    Some(r) => format!("{xj} % {modulus} = {r}*{xi}"),
                }
            }
        }
    }
}

/// The terms of a polynomial of degree `deg` in `d` parameters: 1, x_i, then x_i·x_j
/// (i <= j), as lists of parameter indices.
fn terms(d: usize, deg: usize) -> Vec<Vec<usize>> {
    let mut t = vec![vec![]];
    t.extend((0..d).map(|i| vec![i]));
    if deg >= 2 {
        for i in 0..d {
            for j in i..d {
                t.push(vec![i, j]);
            }
        }
    }
    t
}

fn term_value(t: &[usize], x: &[u64]) -> i128 {
    t.iter().map(|&i| i128::from(x[i])).product()
}

/// One piece: where it holds and its coefficients (one per term).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Piece {
    when: Condition,
    coef: Vec<Q>,
}

/// Solves the coefficients of `terms` on `rows` exactly; None when they do not fit every
/// row, a coefficient's denominator passes [`MAX_DENOMINATOR`], or the rows are too few.
fn fit_piece(rows: &[(&[u64], i64)], terms: &[Vec<usize>]) -> Option<Vec<Q>> {
    let k = terms.len();
    if rows.len() < k + SPARE_ROWS {
        return None;
    }
    // incremental elimination: a basis of independent rows in echelon form
    let mut basis: Vec<(Vec<Q>, Q, usize)> = vec![]; // (row, rhs, pivot column)
    for (x, y) in rows {
        let mut r: Vec<Q> = terms.iter().map(|t| Q::int(term_value(t, x))).collect();
        let mut rhs = Q::int(i128::from(*y));
        for (b, brhs, p) in &basis {
            let f = r[*p].div(b[*p])?;
            if f.n != 0 {
                for c in 0..k {
                    r[c] = r[c].sub(f.mul(b[c])?)?;
                }
                rhs = rhs.sub(f.mul(*brhs)?)?;
            }
        }
        if let Some(p) = (0..k).find(|&c| r[c].n != 0) {
            basis.push((r, rhs, p));
            if basis.len() == k {
                break;
            }
        }
    }
    // back substitution, free columns 0
    let mut coef = vec![Q::int(0); k];
    let mut order: Vec<usize> = (0..basis.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(basis[i].2));
    for i in order {
        let (r, rhs, p) = &basis[i];
        let mut v = *rhs;
        for c in 0..k {
            if c != *p && r[c].n != 0 {
                v = v.sub(r[c].mul(coef[c])?)?;
            }
        }
        coef[*p] = v.div(r[*p])?;
    }
    if coef.iter().any(|q| q.d > MAX_DENOMINATOR) {
        return None;
    }
    let value = |x: &[u64]| -> Option<Q> {
        let mut s = Q::int(0);
        for (t, c) in terms.iter().zip(&coef) {
            s = s.add(c.mul(Q::int(term_value(t, x)))?)?;
        }
        Some(s)
    };
    let fits = rows
        .iter()
        .all(|(x, y)| value(x) == Some(Q::int(i128::from(*y))));
    fits.then_some(coef)
}

/// The polynomial as text: `a + b`, `2*a*b - a + 1`, `(a*a + 3*b) // 2`.
fn poly_text(coef: &[Q], terms: &[Vec<usize>], names: &[String]) -> String {
    let lcm = coef.iter().fold(1i128, |l, q| l / gcd(l, q.d) * q.d);
    let mut s = String::new();
    // highest degree first, parameters in order within a degree, the constant last
    let mut order: Vec<usize> = (0..terms.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(terms[i].len()), i));
    for (t, q) in order.iter().map(|&i| (&terms[i], &coef[i])) {
        let c = q.n * (lcm / q.d);
        if c == 0 {
            continue;
        }
        let mono: Vec<&str> = t.iter().map(|&i| names[i].as_str()).collect();
        let mono = mono.join("*");
        let (sign, mag) = if c < 0 { ("-", -c) } else { ("+", c) };
        if s.is_empty() {
            if sign == "-" {
                s.push('-');
            }
        } else {
            let _ = write!(s, " {sign} ");
        }
        match (mono.is_empty(), mag) {
            (true, m) => {
                let _ = write!(s, "{m}");
            }
            (false, 1) => s.push_str(&mono),
            (false, m) => {
                let _ = write!(s, "{m}*{mono}");
            }
        }
    }
    if s.is_empty() {
        s.push('0');
    }
    if lcm > 1 {
        format!("({s}) // {lcm}")
    } else {
        s
    }
}

/// A formula found for one column over the rows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MultiGuess {
    /// The column (`period`, `preperiod`, …).
    pub column: String,
    /// The claim, in `check`'s language over the parameters: `period = a + b` or
    /// `period = CASE WHEN a % 2 = 0 THEN … ELSE … END`.
    pub claim: String,
    /// Its shape in words.
    pub law: String,
    /// Rows it was found on, and holds on.
    pub rows: u64,
    /// Pieces (1 for one formula).
    pub pieces: usize,
    /// Highest degree used (1 linear, 2 quadratic).
    pub degree: usize,
}

/// The simplest formula for `column` over the rows (parameter values `x`, the value `y`),
/// or None when no shape fits every row (a row without a value: none).
pub fn guess_multi(names: &[String], column: &str, rows: &[(Vec<u64>, i64)]) -> Option<MultiGuess> {
    let d = names.len();
    if d == 0 || rows.is_empty() || rows.iter().any(|(x, _)| x.len() != d) {
        return None;
    }
    let mut splits: Vec<Vec<Condition>> = vec![vec![Condition::All]];
    for m in [2u64, 3, 4, 6] {
        for param in 0..d {
            splits.push((0..m).map(|r| Condition::Residue { param, m, r }).collect());
        }
    }
    for m in [1u64, 2, 3] {
        for i in 0..d {
            for j in 0..d {
                if i != j {
                    let mut v: Vec<Condition> = (0..m)
                        .map(|r| Condition::Multiple {
                            i,
                            j,
                            m,
                            r: Some(r),
                        })
                        .collect();
                    v.push(Condition::Multiple { i, j, m, r: None });
                    splits.push(v);
                }
            }
        }
    }
    for k in [1u64, 2, 3] {
        for i in 0..d {
            for j in 0..d {
                if i != j {
                    splits.push(
                        [true, false]
                            .iter()
                            .map(|&holds| Condition::Less { i, k, j, holds })
                            .collect(),
                    );
                }
            }
        }
    }
    // shapes in order: (split, degree), one piece first, linear before quadratic
    let mut shapes: Vec<(usize, usize)> = vec![(0, 1), (0, 2)];
    for deg in [1, 2] {
        for s in 1..splits.len() {
            shapes.push((s, deg));
        }
    }
    for (s, deg) in shapes {
        let ts = terms(d, deg);
        let mut pieces = vec![];
        let mut ok = true;
        for when in &splits[s] {
            let mine: Vec<(&[u64], i64)> = rows
                .iter()
                .filter(|(x, _)| when.covers(x))
                .map(|(x, y)| (x.as_slice(), *y))
                .collect();
            if mine.is_empty() {
                continue;
            }
            match fit_piece(&mine, &ts) {
                Some(coef) => pieces.push(Piece {
                    when: when.clone(),
                    coef,
                }),
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if !ok || pieces.is_empty() {
            continue;
        }
        let texts: Vec<String> = pieces
            .iter()
            .map(|p| poly_text(&p.coef, &ts, names))
            .collect();
        // pieces with the same formula share a branch; the one covering most rows is ELSE
        let mut groups: Vec<(String, Vec<usize>, usize)> = vec![];
        for (k, t) in texts.iter().enumerate() {
            let covered = rows
                .iter()
                .filter(|(x, _)| pieces[k].when.covers(x))
                .count();
            match groups.iter_mut().find(|g| g.0 == *t) {
                Some(g) => {
                    g.1.push(k);
                    g.2 += covered;
                }
                None => groups.push((t.clone(), vec![k], covered)),
            }
        }
        let widest = (0..groups.len()).max_by_key(|&g| groups[g].2).unwrap_or(0);
        let claim = if groups.len() == 1 {
            format!("{column} = {}", groups[0].0)
        } else {
            let mut c = format!("{column} = CASE");
            for (g, (t, ks, _)) in groups.iter().enumerate() {
                if g == widest {
                    continue;
                }
                let conds: Vec<String> = ks.iter().map(|&k| pieces[k].when.text(names)).collect();
                let _ = write!(c, " WHEN {} THEN {t}", conds.join(" OR "));
            }
            let _ = write!(c, " ELSE {} END", groups[widest].0);
            c
        };
        let law = format!(
            "{column} is {} {} in {}{}",
            if groups.len() == 1 {
                "one"
            } else {
                "a piecewise"
            },
            if deg == 1 { "linear form" } else { "quadratic" },
            names.join(", "),
            match &pieces[0].when {
                Condition::All => String::new(),
                Condition::Residue { param, m, .. } =>
                    format!(", by the residue of {} mod {m}", names[*param]),
                Condition::Multiple { i, j, m, .. } => format!(
                    ", by {} mod {}{}",
                    names[*j],
                    if *m == 1 {
                        String::new()
                    } else {
                        format!("{m}*")
                    },
                    names[*i]
                ),
                Condition::Less { i, k, j, .. } => format!(
                    ", by whether {}{} < {}",
                    if *k == 1 {
                        String::new()
                    } else {
                        format!("{k}*")
                    },
                    names[*i],
                    names[*j]
                ),
            }
        );
        return Some(MultiGuess {
            column: column.to_string(),
            claim,
            law,
            rows: rows.len() as u64,
            pieces: groups.len(),
            degree: deg,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        vec!["a".into(), "b".into()]
    }

    fn grid(f: impl Fn(u64, u64) -> i64) -> Vec<(Vec<u64>, i64)> {
        let mut v = vec![];
        for a in 1..12 {
            for b in a + 1..20 {
                v.push((vec![a, b], f(a, b)));
            }
        }
        v
    }

    #[test]
    fn linear_quadratic_and_piecewise_laws_are_found() {
        let g = guess_multi(&names(), "period", &grid(|a, b| (a + b) as i64)).unwrap();
        assert_eq!(g.claim, "period = a + b");
        let g = guess_multi(&names(), "period", &grid(|a, b| (a * b) as i64 - 1)).unwrap();
        assert_eq!((g.claim.as_str(), g.degree), ("period = a*b - 1", 2));
        let g = guess_multi(
            &names(),
            "p",
            &grid(|a, b| if a % 2 == 0 { (2 * b) as i64 } else { a as i64 }),
        )
        .unwrap();
        assert_eq!(g.claim, "p = CASE WHEN a % 2 = 0 THEN 2*b ELSE a END");
        let g = guess_multi(
            &names(),
            "p",
            &grid(|a, b| if 2 * a < b { b as i64 } else { 7 }),
        )
        .unwrap();
        assert_eq!(g.claim, "p = CASE WHEN 2*a >= b THEN 7 ELSE b END");
        // two-move subtraction games: period a + b, or 2a when b is an odd multiple of a
        let g = guess_multi(
            &names(),
            "period",
            &grid(|a, b| {
                if b % (2 * a) == a {
                    2 * a as i64
                } else {
                    (a + b) as i64
                }
            }),
        )
        .unwrap();
        assert_eq!(
            g.claim,
            "period = CASE WHEN b % (2*a) = a THEN 2*a ELSE a + b END"
        );
        let g = guess_multi(&names(), "p", &grid(|a, b| ((a * (a + 1)) / 2 + b) as i64)).unwrap();
        assert_eq!(g.claim, "p = (a*a + a + 2*b) // 2");
    }

    #[test]
    fn what_no_shape_fits_is_not_guessed() {
        // a value no polynomial piece of these shapes describes
        let g = guess_multi(
            &names(),
            "p",
            &grid(|a, b| ((a * 7919 + b * 104729) % 101) as i64),
        );
        assert!(g.is_none());
        assert!(guess_multi(&names(), "p", &[]).is_none());
    }
}
