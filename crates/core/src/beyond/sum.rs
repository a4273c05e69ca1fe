//! Sums of normal play that mix games beyond one heap (two heaps `a,b`, move memory `n`
//! or `n,k`) with one-heap games: `wythoff:3,5 + fibonacci-nim:10 + squares:7`.
//!
//! By the Sprague–Grundy theorem (Winning Ways ch. 2) a sum's value is the XOR of its
//! terms' values: the beyond terms' values ([`super::grundy_at`]) stand as one Nim heap of
//! their XOR in the one-heap sum ([`crate::decide_sum`]); a winning move there in that Nim
//! heap becomes a move in a beyond term to the value the XOR asks for
//! ([`super::option_with_value`]). Loopy games have no Grundy value and are refused.

use super::{grundy_at, option_with_value, BeyondError, BeyondGame};
use crate::observe::Observer;
use crate::{decide_sum, Budget, Sum};
use serde::Serialize;
use thiserror::Error;

/// Why a mixed sum has no answer.
#[derive(Debug, Error)]
pub enum MixedSumError {
    /// The text is not a sum of `SPEC:POSITION` terms (the message names the term).
    #[error("{0}")]
    Term(String),
    /// A beyond term has no value here.
    #[error(transparent)]
    Beyond(#[from] BeyondError),
    /// The one-heap part could not be decided (refused, too large, cancelled…).
    #[error(transparent)]
    Engine(#[from] crate::Error),
}

/// One term of a mixed sum and its Grundy value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MixedTerm {
    /// The term as written (`wythoff:3,5`).
    pub term: String,
    /// Its Grundy value (`None` only where a one-heap decision gives none).
    pub grundy: Option<u64>,
}

/// A mixed sum decided.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MixedSum {
    /// The sum as written.
    pub sum: String,
    /// Every term with its value.
    pub terms: Vec<MixedTerm>,
    /// The XOR of the values.
    pub grundy: u64,
    /// The player to move wins.
    pub win: bool,
    /// One winning move, as text: `term 2 (fibonacci-nim): to 8,2` or
    /// `term 3 (squares:7): leave 3`.
    pub winning_move: Option<String>,
    /// The winning move's term, counted from 1 as the text says (`term 2`).
    pub move_term: Option<usize>,
}

/// `text` cut at every `+` outside braces, brackets and parentheses (`{2+}!.0:10 + nim:1`).
pub fn split_terms(text: &str) -> Vec<&str> {
    let mut out = vec![];
    let (mut depth, mut from) = (0i32, 0usize);
    for (i, ch) in text.char_indices() {
        match ch {
            '{' | '(' | '[' => depth += 1,
            // (an unmatched closer is left to the term's own reader to refuse)
            '}' | ')' | ']' => depth = (depth - 1).max(0),
            '+' if depth == 0 => {
                out.push(&text[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[from..]);
    out
}

/// Whether some term of the sum `text` is a game beyond one heap (then
/// [`decide_mixed_sum`] answers it, not [`crate::decide_sum`]).
pub fn is_mixed_sum(text: &str) -> bool {
    split_terms(text).iter().any(|t| {
        t.rsplit_once(':')
            .is_some_and(|(spec, _)| BeyondGame::is_beyond(spec))
    })
}

/// Decides a sum of normal play whose terms are `SPEC:POSITION`, some of them games
/// beyond one heap: each term's value, the XOR, the outcome and one winning move.
///
/// # Errors
/// [`MixedSumError::Term`] for a term that is not `SPEC:POSITION` or whose position does
/// not fit its game; [`MixedSumError::Beyond`] when a beyond term has no value here (a
/// loopy game, a position beyond the engines' limits); [`MixedSumError::Engine`] as
/// [`crate::decide_sum`] for the one-heap terms.
pub fn decide_mixed_sum(
    text: &str,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<MixedSum, MixedSumError> {
    let terms = split_terms(text);
    // (term index, game, position, value) of the beyond terms; (term index, text) of the rest
    let mut beyond: Vec<(usize, BeyondGame, Vec<u64>, u64)> = vec![];
    let mut heaps: Vec<(usize, String)> = vec![];
    for (i, term) in terms.iter().enumerate() {
        let bad =
            |why: String| MixedSumError::Term(format!("term {} (`{}`): {why}", i + 1, term.trim()));
        let Some((spec, pos)) = term.rsplit_once(':') else {
            return Err(bad("write SPEC:POSITION".into()));
        };
        if !BeyondGame::is_beyond(spec) {
            heaps.push((i, term.trim().to_string()));
            continue;
        }
        let g = BeyondGame::parse(spec.trim()).map_err(|e| bad(e.to_string()))?;
        // `3,5` or `(3,5)`: one pair of parentheses at most
        let pos = pos.trim();
        let pos = match pos.strip_prefix('(') {
            Some(inner) => inner
                .strip_suffix(')')
                .ok_or_else(|| bad("unclosed `(` in the position".into()))?,
            None => pos,
        };
        let p = pos
            .split(',')
            .map(|x| {
                crate::num::parse_count(x.trim())
                    .map_err(|_| bad(format!("`{}` is not a heap size", x.trim())))
            })
            .collect::<Result<Vec<u64>, _>>()?;
        let v = grundy_at(&g, &p).map_err(|e| bad(e.to_string()))?;
        beyond.push((i, g, p, v));
    }
    let xb = beyond.iter().fold(0u64, |x, b| x ^ b.3);
    let mut parts: Vec<String> = heaps.iter().map(|h| h.1.clone()).collect();
    parts.push(format!("nim:{xb}"));
    let sum = Sum::parse(&parts.join(" + ")).map_err(|e| MixedSumError::Term(e.to_string()))?;
    let d = decide_sum(&sum, budget, obs)?;
    let total = d.grundy.unwrap_or(0);
    // the winning move: in a one-heap term, or (the Nim heap) in a beyond term
    let mut winning_move = None;
    let mut move_term = None;
    if let Some(m) = &d.winning_move {
        if let Some((i, written)) = heaps.get(m.heap) {
            let left: Vec<String> = m.step.leaves.iter().map(u64::to_string).collect();
            winning_move = Some(format!(
                "term {} ({written}): leave {}",
                i + 1,
                if left.is_empty() {
                    "nothing".to_string()
                } else {
                    left.join(" + ")
                }
            ));
            move_term = Some(*i + 1);
        } else if let Some((i, g, p, v)) = beyond.iter().find(|b| b.3 ^ total < b.3) {
            if let Some(to) = option_with_value(g, p, v ^ total)? {
                let to: Vec<String> = to.iter().map(u64::to_string).collect();
                winning_move = Some(format!("term {} ({g}): to {}", i + 1, to.join(",")));
                move_term = Some(*i + 1);
            }
        }
    }
    let terms = terms
        .iter()
        .enumerate()
        .map(|(i, t)| MixedTerm {
            term: t.trim().to_string(),
            grundy: beyond.iter().find(|b| b.0 == i).map(|b| b.3).or_else(|| {
                heaps
                    .iter()
                    .position(|h| h.0 == i)
                    .and_then(|k| d.heaps.get(k))
                    .and_then(|h| h.grundy)
            }),
        })
        .collect();
    Ok(MixedSum {
        sum: text.trim().to_string(),
        terms,
        grundy: total,
        win: d.win,
        winning_move,
        move_term,
    })
}
