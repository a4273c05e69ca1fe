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
use crate::num::CountError;
use crate::spec::cursor::SpecError;
use crate::spec::template::{first_mention, instantiate, is_code_like};
use std::collections::HashMap;
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

/// A parameter of a template: named, or the i-th `?` (before the point or not).
#[derive(Debug, Clone)]
enum Var {
    Named(String),
    Digit(usize, bool),
}

/// One item as [`CensusSpace::walk`] gives it.
#[derive(Debug, Clone, Copy)]
pub struct Walked<'a> {
    /// Its index in the space's order.
    pub index: u64,
    /// Which template it comes from (an index into [`CensusSpace::games`]).
    pub template: usize,
    /// The template's parameters ([`CensusSpace::parameter_names`]).
    pub names: &'a [String],
    /// Their values for this item.
    pub values: &'a [u64],
    /// Its spec.
    pub spec: &'a str,
}

/// What a template's enumeration calls with each item: its parameters' names and values,
/// and its spec.
type Emit<'a> = dyn FnMut(&[String], &[u64], &str) -> Result<(), CensusError> + 'a;

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
        self.walk(&mut |it: Walked<'_>| push_item(&mut items, it.spec.to_string()))?;
        Ok(items)
    }

    /// Calls `visit` with every item in the space's order, one at a time, holding none: the
    /// enumeration of censuses larger than [`MAX_ITEMS`] (their items are not kept).
    /// Stops at the first error `visit` returns.
    ///
    /// # Errors
    /// As [`CensusSpace::items`] (but any number of items), or `visit`'s error.
    pub fn walk(
        &self,
        visit: &mut dyn FnMut(Walked<'_>) -> Result<(), CensusError>,
    ) -> Result<(), CensusError> {
        let mut visits = 0u64;
        let mut index = 0u64;
        for (t, template) in self.games.iter().enumerate() {
            self.template_items(template, &mut visits, &mut |names, values, spec| {
                let it = Walked {
                    index,
                    template: t,
                    names,
                    values,
                    spec,
                };
                index += 1;
                visit(it)
            })?;
        }
        Ok(())
    }

    /// The parameters of every template, in the order [`CensusSpace::walk`] gives their
    /// values: named ones in order of first appearance, each `?` as `?1`, `?2`, …
    pub fn parameter_names(&self) -> Vec<Vec<String>> {
        self.games.iter().map(|t| self.vars_of(t).1).collect()
    }

    /// The parameters of `template` (named ones in order of first appearance, each `?` in
    /// place) and their names.
    fn vars_of(&self, template: &str) -> (Vec<(Var, usize)>, Vec<String>) {
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
        (vars, names)
    }

    fn template_items(
        &self,
        template: &str,
        visits: &mut u64,
        emit: &mut Emit<'_>,
    ) -> Result<(), CensusError> {
        let (vars, names) = self.vars_of(template);
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
        if vars.is_empty() {
            if rels.iter().all(|(_, r)| r.holds(&|_| 0)) {
                emit(&names, &[], template)?;
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
            let code_like = is_code_like(template);
            let mut given: Vec<(&str, u64)> = Vec::with_capacity(vars.len());
            for (i, (v, _)) in vars.iter().enumerate() {
                if let Var::Named(n) = v {
                    if code_like && assign[i] > 9 {
                        return Err(CensusError::Digit {
                            name: n.clone(),
                            value: assign[i],
                            template: template.to_string(),
                        });
                    }
                    given.push((n.as_str(), assign[i]));
                }
            }
            let named = if given.is_empty() {
                template.to_string()
            } else {
                instantiate(template, &given)
            };
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
            emit(&names, &assign, &spec)?;
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

pub mod games;
pub(crate) mod reduce;
#[cfg(test)]
mod tests;
pub mod window;

pub use crate::census::reduce::{canonical, first_cousin, Class, Member, Reduction};

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
