//! Censuses: every game of a space over several parameters (`sub{a,b,c}` with
//! `1 <= a < b < c <= 20`, octal patterns `0.???`), enumerated in one documented order, and
//! the canonical class of each game, so that games known to have the same values are run
//! once.
//!
//! **Order.** Game templates in the order given; within a template, its parameters in order
//! of first appearance (each `?` is a parameter of its own, in place), the last varying
//! fastest, each increasing through its values. Item i is therefore the same game on every
//! machine and in every version that enumerates the same space.
//!
//! **Classes.** Each item is reduced to a representative ([`canonical`]) by steps that are
//! proven, never merely observed:
//! - a finite subtraction set loses a move s when the set without s has a proven period
//!   and no position n >= s has the value of n - s (adding s never changes a mex: by
//!   induction the values are equal);
//! - a common factor k of the moves is divided out: G_{kS}(n) = G_S(⌊n/k⌋) (Winning Ways,
//!   ch. 4; Siegel, *Combinatorial Game Theory*, ch. IV);
//! - an octal code whose first digit is 0 becomes its first cousin: heaps of size 1 are then
//!   dead, heap n + 1 plays like heap n of the cousin with digits
//!   b_i = (a_{i-1} & 4 ? 7 : 0) | (a_i & 2 ? 3 : 0) | (a_{i+1} & 1), so
//!   G_code(n + 1) = G_cousin(n) (Winning Ways, ch. 4, "first cousins": .07 → .137,
//!   .0177 → .11377, .045 and .047 → .0177, and .057 and .055 → .1177).

use crate::expr::ast::Op as ExprOp;
use crate::expr::linear::{relations, Lin};
use crate::expr::parse::{parse, Dialect};
use crate::game::Game;
use crate::games::takebreak::TakeBreak;
use crate::num::CountError;
use crate::period::find_period;
use crate::sets::MoveSet;
use crate::spec::cursor::SpecError;
use crate::spec::template::{first_mention, substitute_param};
use crate::CertRule;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use thiserror::Error;

/// Most items a census space may hold.
pub const MAX_ITEMS: u64 = 1_000_000;
/// Most partial assignments the enumeration may visit (a space whose constraints prune too
/// late is refused rather than run for hours).
const MAX_VISITS: u64 = 200_000_000;
/// Most values one parameter may take.
const MAX_RANGE: u64 = 100_000;

/// Why a census space cannot be enumerated.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CensusError {
    /// No game template given.
    #[error("a census needs at least one game spec")]
    NoGames,
    /// A constraint or parameter that does not read.
    #[error("{0}")]
    Syntax(String),
    /// A parameter without a finite range.
    #[error(
        "parameter `{name}` has no {side} bound: bound it in --where (e.g. `{example}`) or \
         give --param {name}=A..B"
    )]
    Unbounded {
        /// The parameter.
        name: String,
        /// "lower" or "upper".
        side: &'static str,
        /// A constraint that would bound it.
        example: String,
    },
    /// A parameter range too wide.
    #[error("parameter `{name}` takes {count} values (at most {MAX_RANGE})")]
    TooWide {
        /// The parameter.
        name: String,
        /// How many values it would take.
        count: u128,
    },
    /// A name that no template mentions.
    #[error("parameter `{0}` is not in any game spec")]
    Unused(String),
    /// A constraint mixing parameters of different templates.
    #[error("the constraint `{constraint}` mentions `{name}`, which `{template}` does not")]
    Mixed {
        /// The constraint.
        constraint: String,
        /// The missing parameter.
        name: String,
        /// The template.
        template: String,
    },
    /// No game at all.
    #[error("the space has no games: its constraints exclude every value")]
    Empty,
    /// A named parameter of a code whose value is not one digit.
    #[error(
        "parameter `{name}` = {value} in the code `{template}`: a value in a code must be one \
         digit (0-9); use ? for any octal digit"
    )]
    Digit {
        /// The parameter.
        name: String,
        /// Its value.
        value: u64,
        /// The template.
        template: String,
    },
    /// Too many items, or too much enumeration.
    #[error(
        "the space has more than {MAX_ITEMS} games (or its constraints prune too late): narrow it"
    )]
    TooLarge,
    /// A value of a parameter.
    #[error(transparent)]
    Value(#[from] CountError),
    /// An item whose spec does not parse.
    #[error("item {item} (`{spec}`): {error}{hint}")]
    Spec {
        /// The item's index.
        item: u64,
        /// Its spec.
        spec: String,
        /// Why it does not parse.
        error: SpecError,
        /// What in the space may cause it (parameters starting at 0, a template without
        /// parameters), or "".
        hint: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Lt,
    Le,
    Eq,
    Ne,
}

/// One relation `lhs op rhs` (from a chain `1 <= a < b`), with the text it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Rel {
    lhs: Lin,
    op: Op,
    rhs: Lin,
    text: String,
}

impl Rel {
    fn names(&self) -> impl Iterator<Item = &str> {
        self.lhs
            .terms
            .iter()
            .chain(&self.rhs.terms)
            .map(|(_, n)| n.as_str())
    }
    /// rhs - lhs under the assignment.
    fn holds(&self, value: &dyn Fn(&str) -> i128) -> bool {
        let eval = |l: &Lin| {
            l.terms
                .iter()
                .fold(l.constant, |a, (c, n)| a + c * value(n))
        };
        let (a, b) = (eval(&self.lhs), eval(&self.rhs));
        match self.op {
            Op::Lt => a < b,
            Op::Le => a <= b,
            Op::Eq => a == b,
            Op::Ne => a != b,
        }
    }
}

/// A census space: game templates, explicit parameter values, and constraints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CensusSpace {
    /// The templates, e.g. `sub{a,b,c}` or `0.???`.
    pub games: Vec<String>,
    /// Explicit parameter values (`k=3..40`, `k=3,5,8`), as given.
    pub params: Vec<String>,
    /// The constraints, as given (`1 <= a < b < c <= 20, a + b != c`).
    pub constraints: String,
    rels: Vec<Rel>,
    explicit: Vec<(String, Vec<u64>)>,
}

/// One game of a space.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// Its index in the space's order.
    pub index: u64,
    /// Its spec (the template with the values written in).
    pub spec: String,
}

impl CensusSpace {
    /// Reads a space: `games` are templates (a `?` stands for any octal digit: 0–7 after the
    /// point, 0 or 4 before it); `params` are `NAME=A..B` or `NAME=a,b,c`; `constraints` is a
    /// comma- or `and`-separated list of chains of linear forms compared by `<`, `<=`, `>`,
    /// `>=`, `=`, `!=` (e.g. `1 <= a < b < c <= 20, a + b != c, 2*a < c`). A parameter
    /// without explicit values takes the bounds its constraints imply.
    ///
    /// # Errors
    /// [`CensusError`] naming the first problem.
    pub fn parse(
        games: &[String],
        params: &[String],
        constraints: &str,
    ) -> Result<CensusSpace, CensusError> {
        if games.is_empty() {
            return Err(CensusError::NoGames);
        }
        for t in games {
            let code_like =
                t.contains('.') && !t.contains(['{', '}', '(', ')', '|', ',', ':', '+']);
            if t.contains('?') && !code_like {
                return Err(CensusError::Syntax(format!(
                    "`?` stands for an octal digit of a code such as 0.??? or 4.??, not in `{t}`: \
                     name a parameter instead"
                )));
            }
        }
        let mut explicit: Vec<(String, Vec<u64>)> = vec![];
        for p in params {
            let s = crate::Space::parse_values(p).map_err(|e| match e {
                crate::SpaceError::Value(v) => CensusError::Value(v),
                other => CensusError::Syntax(other.to_string()),
            })?;
            if explicit.iter().any(|(n, _)| *n == s.0) {
                return Err(CensusError::Syntax(format!(
                    "parameter `{}` is given twice: give its values once (k=1..5 or k=1,3,5)",
                    s.0
                )));
            }
            explicit.push(s);
        }
        let rels = parse_constraints(constraints)?;
        // the space's text without spaces, so that `1<=a` and `1 <= a` are one census
        let squeeze = |t: &str| t.split_whitespace().collect::<String>();
        let space = CensusSpace {
            games: games.iter().map(|g| squeeze(g)).collect(),
            params: params.iter().map(|p| squeeze(p)).collect(),
            constraints: squeeze(&and_to_commas(constraints)),
            rels,
            explicit,
        };
        let mut names: Vec<&str> = space.explicit.iter().map(|(n, _)| n.as_str()).collect();
        names.extend(space.rels.iter().flat_map(|r| r.names()));
        for n in names {
            if !space.games.iter().any(|t| mentions(t, n)) {
                return Err(CensusError::Unused(n.to_string()));
            }
        }
        Ok(space)
    }

    /// A one-line description of the space (templates, parameters, constraints), the same
    /// for the same space on every machine.
    pub fn describe(&self) -> String {
        let mut s = self.games.join(" ; ");
        for p in &self.params {
            s.push_str(" | ");
            s.push_str(p.trim());
        }
        if !self.constraints.is_empty() {
            s.push_str(" | where ");
            s.push_str(&self.constraints);
        }
        s
    }

    /// Every item, in the space's order.
    ///
    /// # Errors
    /// An unbounded or too wide parameter, a constraint mixing templates, more than
    /// [`MAX_ITEMS`] items.
    pub fn items(&self) -> Result<Vec<Item>, CensusError> {
        let mut items = vec![];
        let mut visits = 0u64;
        for t in &self.games {
            self.template_items(t, &mut items, &mut visits)?;
        }
        Ok(items)
    }

    fn template_items(
        &self,
        template: &str,
        items: &mut Vec<Item>,
        visits: &mut u64,
    ) -> Result<(), CensusError> {
        // parameters: named ones in order of first appearance, and each `?`
        #[derive(Clone)]
        enum Var {
            Named(String),
            Digit(usize, bool),
        }
        let mut vars: Vec<(Var, usize)> = vec![];
        let named: Vec<String> = self
            .explicit
            .iter()
            .map(|(n, _)| n.clone())
            .chain(self.rels.iter().flat_map(|r| r.names().map(String::from)))
            .collect();
        for n in &named {
            if let Some(pos) = first_mention(template, n) {
                if !vars
                    .iter()
                    .any(|(v, _)| matches!(v, Var::Named(m) if m == n))
                {
                    vars.push((Var::Named(n.clone()), pos));
                }
            }
        }
        let point = template.find('.');
        let mut q = 0;
        for (pos, c) in template.char_indices() {
            if c == '?' {
                vars.push((Var::Digit(q, point.is_none_or(|p| pos < p)), pos));
                q += 1;
            }
        }
        vars.sort_by_key(|&(_, pos)| pos);
        let names: Vec<String> = vars
            .iter()
            .map(|(v, _)| match v {
                Var::Named(n) => n.clone(),
                Var::Digit(i, _) => format!("?{}", i + 1),
            })
            .collect();
        // constraints that apply: all their names in the template (none: skip; some: error)
        let mut rels: Vec<(usize, &Rel)> = vec![];
        for r in &self.rels {
            let idx: Vec<Option<usize>> = r
                .names()
                .map(|n| names.iter().position(|m| m == n))
                .collect();
            if idx.iter().all(Option::is_none) && !idx.is_empty() {
                continue;
            }
            if let Some(missing) = r
                .names()
                .zip(&idx)
                .find(|(_, i)| i.is_none())
                .map(|(n, _)| n)
            {
                return Err(CensusError::Mixed {
                    constraint: r.text.clone(),
                    name: missing.to_string(),
                    template: template.to_string(),
                });
            }
            let depth = idx.iter().flatten().copied().max().unwrap_or(0);
            rels.push((depth, r));
        }
        // values of each parameter
        let mut values: Vec<Vec<u64>> = vec![];
        for (i, (v, _)) in vars.iter().enumerate() {
            values.push(match v {
                Var::Digit(_, before_point) => {
                    if *before_point {
                        vec![0, 4]
                    } else {
                        (0..8).collect()
                    }
                }
                Var::Named(n) => match self.explicit.iter().find(|(m, _)| m == n) {
                    Some((_, vals)) => vals.clone(),
                    None => {
                        let (lo, hi, _) = bounds(n, &self.rels, &self.explicit)?;
                        let _ = i;
                        (lo..=hi).collect()
                    }
                },
            });
        }
        // depth-first, each constraint checked once its last parameter is set
        let mut assign: Vec<u64> = vec![0; vars.len()];
        let mut stack: Vec<usize> = vec![0];
        let base = items.len();
        let _ = base;
        if vars.is_empty() {
            if rels.iter().all(|(_, r)| r.holds(&|_| 0)) {
                push_item(items, template.to_string())?;
            }
            return Ok(());
        }
        while let Some(&next) = stack.last() {
            let depth = stack.len() - 1;
            if next >= values[depth].len() {
                stack.pop();
                if let Some(top) = stack.last_mut() {
                    *top += 1;
                }
                continue;
            }
            *visits += 1;
            if *visits > MAX_VISITS {
                return Err(CensusError::TooLarge);
            }
            assign[depth] = values[depth][next];
            let value = |n: &str| -> i128 {
                names
                    .iter()
                    .position(|m| m == n)
                    .map_or(0, |i| i128::from(assign[i]))
            };
            let ok = rels
                .iter()
                .filter(|(d, _)| *d == depth)
                .all(|(_, r)| r.holds(&value));
            if !ok {
                *stack.last_mut().unwrap() += 1;
                continue;
            }
            if depth + 1 < vars.len() {
                stack.push(0);
                continue;
            }
            // a full assignment: named parameters first (`0.?a`: the `a` next to a `?` is
            // a word of its own only while the `?` is there), then the digits
            let mut named = template.to_string();
            let code_like = template.contains('.') && !template.contains(['{', '(', '|']);
            for (i, (v, _)) in vars.iter().enumerate() {
                if let Var::Named(n) = v {
                    if code_like && assign[i] > 9 {
                        return Err(CensusError::Digit {
                            name: n.clone(),
                            value: assign[i],
                            template: template.to_string(),
                        });
                    }
                    named = substitute_param(&named, n, assign[i]);
                }
            }
            let mut spec = String::with_capacity(named.len());
            let mut digit = 0;
            for c in named.chars() {
                if c == '?' {
                    let i = vars
                        .iter()
                        .position(|(v, _)| matches!(v, Var::Digit(d, _) if *d == digit))
                        .expect("every ? is a parameter");
                    spec.push(char::from(b'0' + assign[i] as u8));
                    digit += 1;
                } else {
                    spec.push(c);
                }
            }
            push_item(items, spec)?;
            *stack.last_mut().unwrap() += 1;
        }
        Ok(())
    }

    /// The items grouped into classes ([`canonical`]), in order of each class's first
    /// item.
    ///
    /// # Errors
    /// As [`CensusSpace::items`]; an item whose spec does not parse.
    pub fn classes(&self) -> Result<Vec<Class>, CensusError> {
        use rayon::prelude::*;
        let items = self.items()?;
        if items.is_empty() {
            return Err(CensusError::Empty);
        }
        // parsed and reduced in parallel (a redundancy proof computes a table), grouped in
        // item order
        let reduced: Vec<(Item, Game, Reduction)> = items
            .into_par_iter()
            .map(|it| {
                let game = Game::parse(&it.spec).map_err(|error| CensusError::Spec {
                    item: it.index,
                    spec: it.spec.clone(),
                    error,
                    hint: self.hint(),
                })?;
                let (rep, reduction) = canonical(&game);
                let spec = game.to_string();
                Ok((Item { spec, ..it }, rep, reduction))
            })
            .collect::<Result<_, CensusError>>()?;
        let mut classes: Vec<Class> = vec![];
        let mut index: HashMap<String, usize> = HashMap::new();
        for (it, rep, reduction) in reduced {
            let spec = it.spec;
            let key = rep.to_string();
            let member = Member {
                item: it.index,
                spec,
                reduction,
            };
            match index.get(&key) {
                Some(&c) => classes[c].members.push(member),
                None => {
                    index.insert(key, classes.len());
                    classes.push(Class {
                        index: classes.len() as u64,
                        representative: rep,
                        members: vec![member],
                    });
                }
            }
        }
        Ok(classes)
    }
}

impl CensusSpace {
    /// Why an item may not parse: the parameters that no constraint bounds from below (they
    /// start at 0), or templates without any parameter.
    fn hint(&self) -> String {
        let mut names: Vec<&str> = self.rels.iter().flat_map(|r| r.names()).collect();
        names.sort_unstable();
        names.dedup();
        let free: Vec<&str> = names
            .into_iter()
            .filter(|n| !self.explicit.iter().any(|(m, _)| m == n))
            .filter(|n| matches!(bounds(n, &self.rels, &self.explicit), Ok((_, _, false))))
            .collect();
        if let Some(n) = free.first() {
            return format!(
                " (parameter `{n}` has no lower bound and starts at 0: add one in --where, e.g. \
                 `1 <= {n}`)"
            );
        }
        let bare: Vec<&str> = self
            .games
            .iter()
            .filter(|t| {
                !t.contains('?')
                    && !self.explicit.iter().any(|(n, _)| mentions(t, n))
                    && !self
                        .rels
                        .iter()
                        .flat_map(|r| r.names())
                        .any(|n| mentions(t, n))
            })
            .map(String::as_str)
            .collect();
        match bare.first() {
            Some(t) => format!(
                " (`{t}` has no parameters: name them in --where or --param, or use ? for an \
                 octal digit)"
            ),
            None => String::new(),
        }
    }
}

fn push_item(items: &mut Vec<Item>, spec: String) -> Result<(), CensusError> {
    if items.len() as u64 >= MAX_ITEMS {
        return Err(CensusError::TooLarge);
    }
    items.push(Item {
        index: items.len() as u64,
        spec,
    });
    Ok(())
}

/// Whether `template` mentions the identifier `name` (as [`substitute_param`] sees it).
fn mentions(template: &str, name: &str) -> bool {
    first_mention(template, name).is_some()
}

/// Lower and upper bounds of `name` implied by the simple relations (var op const,
/// var op var), propagated to a fixed point.
/// Lower and upper bounds of `name` implied by the constraints: every relation read as
/// Σ c·x <= C and propagated over intervals to a fixed point, every parameter at least 0,
/// explicit values giving their own bounds.
fn bounds(
    name: &str,
    rels: &[Rel],
    explicit: &[(String, Vec<u64>)],
) -> Result<(u64, u64, bool), CensusError> {
    let mut lo: HashMap<&str, i128> = HashMap::new();
    let mut hi: HashMap<&str, i128> = HashMap::new();
    for (n, v) in explicit {
        lo.insert(n, v.iter().copied().min().map_or(0, i128::from));
        if let Some(&m) = v.iter().max() {
            hi.insert(n, i128::from(m));
        }
    }
    // Σ c·x <= C
    let mut ineqs: Vec<(Vec<(i128, &str)>, i128)> = vec![];
    for r in rels {
        let mut terms: Vec<(i128, &str)> =
            r.lhs.terms.iter().map(|(c, n)| (*c, n.as_str())).collect();
        terms.extend(r.rhs.terms.iter().map(|(c, n)| (-c, n.as_str())));
        let c = r.rhs.constant - r.lhs.constant;
        match r.op {
            Op::Le => ineqs.push((terms, c)),
            Op::Lt => ineqs.push((terms, c - 1)),
            Op::Eq => {
                ineqs.push((terms.iter().map(|&(k, n)| (-k, n)).collect(), -c));
                ineqs.push((terms, c));
            }
            Op::Ne => {}
        }
    }
    for _ in 0..64 {
        let mut changed = false;
        for (terms, c) in &ineqs {
            for (j, &(cj, nj)) in terms.iter().enumerate() {
                let mut rest = 0i128;
                let mut known = true;
                for (i, &(ci, ni)) in terms.iter().enumerate() {
                    if i == j {
                        continue;
                    }
                    let b = if ci > 0 {
                        Some(lo.get(ni).copied().unwrap_or(0))
                    } else {
                        hi.get(ni).copied()
                    };
                    match b {
                        Some(b) => rest = rest.saturating_add(ci.saturating_mul(b)),
                        None => known = false,
                    }
                }
                if !known || cj == 0 {
                    continue;
                }
                let room = c.saturating_sub(rest);
                if cj > 0 {
                    let v = room.div_euclid(cj);
                    if hi.get(nj).is_none_or(|&o| v < o) {
                        hi.insert(nj, v);
                        changed = true;
                    }
                } else {
                    // cj·x <= room  ⇔  x >= ceil(room / cj)
                    let v = -((room).div_euclid(-cj));
                    if lo.get(nj).is_none_or(|&o| v > o) {
                        lo.insert(nj, v);
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let has_lower = lo.contains_key(name);
    let l = lo.get(name).copied().unwrap_or(0).max(0);
    let Some(&h) = hi.get(name) else {
        return Err(CensusError::Unbounded {
            name: name.to_string(),
            side: "upper",
            example: format!("{name} <= 30"),
        });
    };
    if h < l {
        return Ok((1, 0, has_lower));
    }
    let count = (h - l + 1) as u128;
    if count > u128::from(MAX_RANGE) || h > i128::from(u64::MAX) {
        return Err(CensusError::TooWide {
            name: name.to_string(),
            count,
        });
    }
    Ok((l as u64, h as u64, has_lower))
}

/// `text` with the word `and` (any case, between spaces) as a comma.
fn and_to_commas(text: &str) -> String {
    let mut out = vec![];
    for w in text.split(' ') {
        if w.eq_ignore_ascii_case("and") {
            out.push(",");
        } else {
            out.push(w);
        }
    }
    out.join(" ")
}

/// Splits `text` into chains (`,` or the word `and`), each read by the expression
/// language as a chain of comparisons of linear forms.
fn parse_constraints(text: &str) -> Result<Vec<Rel>, CensusError> {
    let mut rels = vec![];
    for chain in and_to_commas(text).split(',') {
        let chain = chain.trim();
        if chain.is_empty() {
            continue;
        }
        let sums = || {
            CensusError::Syntax(format!(
                "the constraint `{chain}` must compare sums of terms like 3, a or 2*a"
            ))
        };
        let e = parse(chain, Dialect::CONSTRAINT).map_err(|e| {
            match e
                .message
                .strip_prefix("unexpected '")
                .and_then(|m| m.strip_suffix('\''))
            {
                Some(ch) => CensusError::Syntax(format!(
                    "unexpected `{ch}` in the constraint `{chain}`{}",
                    if ch == "!" { " (write != )" } else { "" }
                )),
                None => sums(),
            }
        })?;
        let Some(found) = relations(&e) else {
            return Err(if e.has_comparison() {
                sums()
            } else {
                CensusError::Syntax(format!(
                    "the constraint `{chain}` compares nothing: write e.g. `1 <= a < b <= 20`"
                ))
            });
        };
        for (lhs, op, rhs) in found {
            let (lhs, op, rhs) = match op {
                ExprOp::Lt => (lhs, Op::Lt, rhs),
                ExprOp::Le => (lhs, Op::Le, rhs),
                ExprOp::Gt => (rhs, Op::Lt, lhs),
                ExprOp::Ge => (rhs, Op::Le, lhs),
                ExprOp::Eq => (lhs, Op::Eq, rhs),
                _ => (lhs, Op::Ne, rhs),
            };
            rels.push(Rel {
                lhs,
                op,
                rhs,
                text: chain.to_string(),
            });
        }
    }
    Ok(rels)
}

/// How an item's values follow from its representative's: moves dropped (values
/// unchanged), then G_item(n) = G_rep(⌊n / scale⌋), or with a shift s,
/// G_item(n) = G_rep(n - s) for n >= s and 0 below.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Reduction {
    /// Moves removed as provably redundant, increasing.
    pub removed: Vec<u64>,
    /// The common factor divided out (1: none).
    pub scale: u64,
    /// First-cousin steps (octal codes).
    pub shift: u64,
}

impl Reduction {
    /// Nothing reduced: the item is its own representative.
    pub fn identity() -> Reduction {
        Reduction {
            removed: vec![],
            scale: 1,
            shift: 0,
        }
    }

    /// Whether nothing was reduced.
    pub fn is_identity(&self) -> bool {
        self.removed.is_empty() && self.scale <= 1 && self.shift == 0
    }

    /// The item's value at n from the representative's values `rep` (None past them).
    pub fn value_at(&self, rep: &[u32], n: u64) -> Option<u32> {
        if n < self.shift {
            return Some(0);
        }
        let m = (n - self.shift) / self.scale.max(1);
        rep.get(usize::try_from(m).ok()?).copied()
    }

    /// The item's values at 0..=max (fewer when `rep` runs out first).
    pub fn item_values(&self, rep: &[u32], max: u64) -> Vec<u32> {
        (0..=max).map_while(|n| self.value_at(rep, n)).collect()
    }
}

impl fmt::Display for Reduction {
    /// `itself`, or the steps: `less {4}`, `scale 2`, `shift 1`, joined by `, `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_identity() {
            return write!(f, "itself");
        }
        let mut parts = vec![];
        if !self.removed.is_empty() {
            let list: Vec<String> = self.removed.iter().map(u64::to_string).collect();
            parts.push(format!("less {{{}}}", list.join(",")));
        }
        if self.scale > 1 {
            parts.push(format!("scale {}", self.scale));
        }
        if self.shift > 0 {
            parts.push(format!("shift {}", self.shift));
        }
        write!(f, "{}", parts.join(", "))
    }
}

/// One item of a class and how it reduces to the representative.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    /// Its index in the space.
    pub item: u64,
    /// Its canonical spec.
    pub spec: String,
    /// How its values follow from the representative's.
    pub reduction: Reduction,
}

/// Items with one representative.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Class {
    /// The class's index (classes in order of their first item).
    pub index: u64,
    /// The game computed for the whole class.
    pub representative: Game,
    /// Its members, in item order.
    pub members: Vec<Member>,
}

impl Class {
    /// The members as `spec (reduction)` joined by `; `, e.g. `sub{2,4,6} (scale 2)`.
    pub fn member_list(&self) -> String {
        self.members
            .iter()
            .map(|m| {
                if m.reduction.is_identity() {
                    m.spec.clone()
                } else {
                    format!("{} ({})", m.spec, m.reduction)
                }
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The representative of `game` and how `game` reduces to it (see the module's notes for
/// the three proven steps). Games of other families are their own representatives.
pub fn canonical(game: &Game) -> (Game, Reduction) {
    let mut red = Reduction::identity();
    match game {
        Game::Subtraction {
            set: MoveSet::Union { named, finite },
            leave1: false,
        } if named.is_empty() && !finite.is_empty() => {
            let mut set = finite.clone();
            if set.len() <= 12 && set.last().is_some_and(|&m| m <= 4096) {
                'outer: loop {
                    for i in (0..set.len()).rev() {
                        if set.len() > 1 && redundant(&set, i) {
                            red.removed.push(set.remove(i));
                            continue 'outer;
                        }
                    }
                    break;
                }
                red.removed.sort_unstable();
            }
            let g = set.iter().fold(0, |a, &b| gcd(a, b));
            if g > 1 {
                set.iter_mut().for_each(|s| *s /= g);
                red.scale = g;
            }
            (
                Game::Subtraction {
                    set: MoveSet::finite(set),
                    leave1: false,
                },
                red,
            )
        }
        Game::TakeBreak(code)
            if code.digits.iter().all(|&d| d < 8) && matches!(code.digit(0), 0 | 4) =>
        {
            let mut code = code.clone();
            while code.digit(1) == 0 && code.digits.iter().any(|&d| d != 0) {
                code = first_cousin(&code);
                red.shift += 1;
            }
            (Game::TakeBreak(code), red)
        }
        other => (other.clone(), red),
    }
}

/// The first cousin of an octal code with d1 = 0: b_i = (a_{i-1} & 4 ? 7 : 0) |
/// (a_i & 2 ? 3 : 0) | (a_{i+1} & 1) for i >= 1, b_0 = 0; G_code(n + 1) = G_cousin(n).
///
/// Proof: heaps of size 1 have no move (d1 = 0 and a split needs two tokens), so a heap of
/// m + 1 in the code plays like a heap of m in the cousin when every heap is read one
/// smaller: removing i and leaving one heap y maps to removing i and leaving y - 1 (nothing
/// when y = 1); removing i - 1 and leaving two heaps y, z maps to removing i and leaving
/// y - 1 and z - 1 (fewer heaps when one is 1); removing i + 1 from a heap of i + 1 maps to
/// removing i from a heap of i. Collecting which of "nothing", "one heap", "two heaps" each
/// removal i reaches gives the digits above.
pub fn first_cousin(code: &TakeBreak) -> TakeBreak {
    let a = |i: usize| code.digit(i);
    let len = code.digits.len() + 1;
    let mut digits = vec![0u8];
    for i in 1..=len {
        let mut b = 0u8;
        if a(i - 1) & 4 != 0 {
            b |= 7;
        }
        if a(i) & 2 != 0 {
            b |= 3;
        }
        if a(i + 1) & 1 != 0 {
            b |= 1;
        }
        digits.push(b);
    }
    TakeBreak::new(digits)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Whether the move `set[i]` is redundant in the finite subtraction set `set`: the set
/// without it has a period proven within 2^16 positions, and no n >= s has
/// G'(n) = G'(n - s). Then adding s never changes a mex, and G_set = G_{set \ s}.
fn redundant(set: &[u64], i: usize) -> bool {
    let s = set[i];
    let rest: Vec<u64> = set
        .iter()
        .enumerate()
        .filter(|&(j, _)| j != i)
        .map(|(_, &x)| x)
        .collect();
    let k = *rest.iter().max().expect("at least one move is left");
    let game = Game::Subtraction {
        set: MoveSet::finite(rest),
        leave1: false,
    };
    let mut len = 1024usize;
    loop {
        // the project's engine for the set without s (an error proves nothing)
        let Ok(t) = crate::grundy_table(&game, len as u64 - 1, &crate::Silent) else {
            return false;
        };
        let g = t.to_u32_vec();
        let seq: Vec<i64> = g.iter().map(|&v| i64::from(v)).collect();
        if let Some(p) = find_period(&seq, false) {
            let (proven, _) = CertRule::FiniteSubtraction { largest_move: k }.certify(&p);
            if proven && p.saltus == 0 {
                let (n0, per) = (p.preperiod, p.period);
                let at = |x: u64| -> u32 {
                    if x < len as u64 {
                        g[x as usize]
                    } else {
                        g[(n0 + (x - n0) % per) as usize]
                    }
                };
                return (s..s + n0 + per).all(|n| at(n) != at(n - s));
            }
        }
        if len >= 1 << 16 {
            return false;
        }
        len *= 2;
    }
}

/// The classes of shard `i` of `n` (1-based): those whose index is ≡ i - 1 (mod n).
///
/// # Errors
/// `i` outside 1..=n.
pub fn shard(classes: Vec<Class>, i: u64, n: u64) -> Result<Vec<Class>, CensusError> {
    if n == 0 || i == 0 || i > n {
        return Err(CensusError::Syntax(format!(
            "shard {i}/{n}: write i/n with 1 <= i <= n"
        )));
    }
    Ok(classes
        .into_iter()
        .filter(|c| c.index % n == i - 1)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{grundy_by_definition, grundy_table, Silent};
    use proptest::prelude::*;

    fn space(games: &[&str], params: &[&str], w: &str) -> Result<CensusSpace, CensusError> {
        let g: Vec<String> = games.iter().map(|s| s.to_string()).collect();
        let p: Vec<String> = params.iter().map(|s| s.to_string()).collect();
        CensusSpace::parse(&g, &p, w)
    }

    fn specs(s: &CensusSpace) -> Vec<String> {
        s.items().unwrap().into_iter().map(|i| i.spec).collect()
    }

    fn values(spec: &str, max: u64) -> Vec<u32> {
        grundy_table(&Game::parse(spec).unwrap(), max, &Silent)
            .unwrap()
            .to_u32_vec()
    }

    #[test]
    fn spaces_enumerate_in_the_documented_order() {
        let s = space(&["sub{a,b,c}"], &[], "1 <= a < b < c <= 20").unwrap();
        let all = specs(&s);
        assert_eq!(all.len(), 1140); // C(20, 3)
        assert_eq!(&all[..3], ["sub{1,2,3}", "sub{1,2,4}", "sub{1,2,5}"]);
        assert_eq!(all.last().unwrap(), "sub{18,19,20}");
        // parameters in order of appearance, not of the constraints
        let s = space(&["sub{b,a}"], &["a=1..2"], "1 <= b <= 2, a != b").unwrap();
        assert_eq!(specs(&s), ["sub{1,2}", "sub{2,1}"]);
        // linear forms, explicit values, `and`
        let s = space(
            &["sub{1,a,b}"],
            &["a=2,3"],
            "a < b and a + b <= 7, 2*a != b",
        )
        .unwrap();
        assert_eq!(
            specs(&s),
            ["sub{1,2,3}", "sub{1,2,5}", "sub{1,3,4}"] // (2,4): 2a = b
        );
        // octal patterns: 0-7 after the point, 0 or 4 before it
        let s = space(&["0.???"], &[], "").unwrap();
        let all = specs(&s);
        assert_eq!(
            (all.len(), &all[1][..], &all[511][..]),
            (512, "0.001", "0.777")
        );
        let s = space(&["?.???"], &[], "").unwrap();
        assert_eq!(s.items().unwrap().len(), 1024);
        let s = space(&["0.??", "4.?"], &[], "").unwrap();
        let all = specs(&s);
        assert_eq!((all.len(), &all[64][..], &all[71][..]), (72, "4.0", "4.7"));
        assert!(s.describe().contains("0.?? ; 4.?"));
        // a parameter next to a `?`
        let s = space(&["0.?a"], &[], "1 <= a <= 3").unwrap();
        let all = specs(&s);
        assert_eq!(
            (all.len(), &all[..3]),
            (24, &["0.01".to_string(), "0.02".into(), "0.03".into()][..])
        );
        // spaces and `and` do not change the space's identity
        let a = space(&["sub{1,a}"], &[], "1<a and a<=9").unwrap();
        let b = space(&["sub{1,a}"], &[], " 1 < a, a <= 9 ").unwrap();
        assert_eq!(a.describe(), b.describe());
        assert_eq!(
            specs(&space(&["sub{a}"], &[], "1 <= a <= 1_000").unwrap()).len(),
            1000
        );
    }

    #[test]
    fn bad_spaces_name_the_problem() {
        for (games, params, w, says) in [
            (
                &["sub{a,b}"][..],
                &[][..],
                "1 <= a < b",
                "`a` has no upper bound",
            ),
            (&["sub{a}"], &[], "a <= 1e9", "takes 1000000001 values"),
            (&["sub{a}"], &[], "a < 5, b < 3", "`b` is not in any game"),
            (&["sub{a}"], &["a"], "", "must look like"),
            (&["sub{a}"], &[], "a ! 3", "unexpected `!`"),
            (&["sub{a}"], &[], "a < 3 +", "sums of terms"),
            (&["sub{a}"], &[], "a", "compares nothing"),
            (&["sub{a}"], &[], "1 <= a <= 3 ; ", "unexpected `;`"),
            (
                &["sub{a}", "sub{b}"],
                &[],
                "a < b <= 4, 1 <= a",
                "which `sub{a}` does not",
            ),
            (&[], &[], "", "at least one"),
            (&["sub{1?}"], &[], "", "`?` stands for an octal digit"),
            (&["rule{k <= ?}"], &[], "", "`?` stands for an octal digit"),
            (&["sub{a}"], &["a=1..2", "a=3..4"], "", "`a` is given twice"),
        ] {
            let e = space(games, params, w)
                .and_then(|s| s.items())
                .unwrap_err()
                .to_string();
            assert!(e.contains(says), "{games:?} {w}: {e}");
        }
        let e = space(&["sub{a}"], &[], "a <= 3").unwrap().classes();
        let e = e.unwrap_err().to_string();
        assert!(e.contains("item 0 (`sub{0}`)"), "{e}");
        assert!(
            e.contains("parameter `a` has no lower bound and starts at 0"),
            "{e}"
        );
        let e = space(&["sub{1,2,k}"], &[], "")
            .unwrap()
            .classes()
            .unwrap_err();
        assert!(
            e.to_string().contains("`sub{1,2,k}` has no parameters"),
            "{e}"
        );
        let e = space(
            &["sub{a,b,c,d,e,f}"],
            &[],
            "1<=a<=99,1<=b<=99,1<=c<=99,1<=d<=99,1<=e<=99,1<=f<=99",
        )
        .unwrap()
        .items()
        .unwrap_err();
        assert_eq!(e, CensusError::TooLarge);
        // an empty range is an empty list of items, and no classes to run
        assert!(space(&["sub{a}"], &[], "3 <= a <= 2")
            .unwrap()
            .items()
            .unwrap()
            .is_empty());
        let e = space(&["sub{a}"], &[], "3 <= a <= 2")
            .unwrap()
            .classes()
            .unwrap_err();
        assert_eq!(e, CensusError::Empty);
        let e = space(&["0.a"], &[], "9 <= a <= 11")
            .unwrap()
            .items()
            .unwrap_err();
        assert!(e.to_string().contains("`a` = 10 in the code `0.a`"), "{e}");
    }

    #[test]
    fn first_cousins_are_the_published_ones() {
        // Winning Ways ch. 4 and OEIS A002187 (.07 is .137 shifted by one), A071452
        // (.0177 shifted from .11377; .045 and .047 by two)
        for (code, rep, shift) in [
            ("0.07", "0.137", 1),
            ("0.0177", "0.11377", 1),
            ("0.045", "0.11377", 2),
            ("0.047", "0.11377", 2),
            ("0.057", "0.1177", 1),
            ("0.055", "0.1177", 1),
            ("0.77", "0.77", 0),
            ("0.0", "0.0", 0),
            ("4.07", "0.737", 1),
        ] {
            let (r, red) = canonical(&Game::parse(code).unwrap());
            assert_eq!(
                (r.to_string(), red.shift),
                (rep.to_string(), shift),
                "{code}"
            );
        }
        // and they have the values: G_code(n + shift) = G_rep(n)
        for code in [
            "0.07", "0.045", "0.057", "0.055", "4.0", "4.01", "4.05", "0.0401",
        ] {
            let (r, red) = canonical(&Game::parse(code).unwrap());
            let rep = values(&r.to_string(), 400);
            assert_eq!(red.item_values(&rep, 400), values(code, 400), "{code}");
        }
    }

    #[test]
    fn subtraction_sets_reduce_by_proven_steps() {
        for (set, rep, red) in [
            ("sub{2,4,6}", "sub{1,2,3}", "scale 2"),
            ("sub{1,2,4}", "sub{1,2}", "less {4}"),
            ("sub{2,4,8}", "sub{1,2}", "less {8}, scale 2"),
            ("sub{1,3,4}", "sub{1,3,4}", "itself"),
            ("sub{3}", "sub{1}", "scale 3"),
        ] {
            let (r, d) = canonical(&Game::parse(set).unwrap());
            assert_eq!(
                (r.to_string(), d.to_string()),
                (rep.to_string(), red.to_string())
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Every reduction reproduces the item's values from the representative's, against
        /// the definition (sets) or the engine (octal codes with first digit 0).
        #[test]
        fn reductions_reproduce_the_values(
            set in proptest::collection::btree_set(1u64..=14, 1..=4),
            digits in proptest::collection::vec(0u8..8, 1..4),
            four in any::<bool>(),
        ) {
            let spec = format!(
                "sub{{{}}}",
                set.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
            );
            let g = Game::parse(&spec).unwrap();
            let (r, red) = canonical(&g);
            let by_def = grundy_by_definition(&g, 300);
            let rep = grundy_by_definition(&r, 300);
            prop_assert_eq!(red.item_values(&rep, 300), by_def, "{} -> {} ({})", spec, r, red);
            let code = format!(
                "{}.0{}",
                if four { 4 } else { 0 },
                digits.iter().map(u8::to_string).collect::<String>()
            );
            let g = Game::parse(&code).unwrap();
            let (r, red) = canonical(&g);
            let rep = grundy_by_definition(&r, 120);
            let item = grundy_by_definition(&g, 120);
            prop_assert_eq!(red.item_values(&rep, 120), item, "{} -> {} ({})", code, r, red);
        }
    }

    #[test]
    fn classes_group_members_in_item_order() {
        let s = space(&["sub{a,b,c}"], &[], "1 <= a < b < c <= 20").unwrap();
        let classes = s.classes().unwrap();
        let members: usize = classes.iter().map(|c| c.members.len()).sum();
        assert_eq!(members, 1140);
        // no representative keeps a common factor
        for c in &classes {
            if let Game::Subtraction { set, .. } = &c.representative {
                let MoveSet::Union { finite, .. } = set else {
                    unreachable!()
                };
                assert_eq!(
                    finite.iter().fold(0, |a, &b| gcd(a, b)),
                    1,
                    "{}",
                    c.representative
                );
            }
        }
        let c = classes
            .iter()
            .find(|c| c.representative.to_string() == "sub{1,2,3}")
            .unwrap();
        assert!(
            c.member_list().starts_with("sub{1,2,3}; "),
            "{}",
            c.member_list()
        );
        assert!(c.member_list().contains("sub{2,4,6} (scale 2)"));
        let all: Vec<u64> = (1..=3)
            .flat_map(|i| shard(classes.clone(), i, 3).unwrap())
            .map(|c| c.index)
            .collect();
        assert_eq!(all.len(), classes.len());
        assert!(shard(classes, 4, 3).is_err());
    }
}
