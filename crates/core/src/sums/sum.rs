//! A sum of heaps as text and as data: [`Sum`] (`squares:5 + 0.77:12`), and the answers
//! about it the sum calls give ([`SumDecision`], [`SumMove`], [`SumMoves`], [`HeapValue`]).

use crate::game::Game;
use crate::known::Move;
use crate::num::{parse_count, CountError};
use crate::spec::cursor::SpecError;
use serde::Serialize;
use thiserror::Error;

/// Why a sum cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SumError {
    /// Nothing to add up.
    #[error("the sum is empty: write heaps as `squares:5 + 0.77:12`")]
    Empty,
    /// A term without `:HEAP`.
    #[error("term {term} (`{text}`) has no heap: write it as SPEC:HEAP, e.g. `squares:5`")]
    NoHeap {
        /// 1-based term number.
        term: usize,
        /// The term.
        text: String,
    },
    /// A term with more than one `:HEAP`.
    #[error(
        "term {term} (`{text}`) has more than one `:HEAP`: write one term per heap, e.g. \
         `sub{{1,2}}:7 + sub{{1,2}}:3`"
    )]
    SeveralHeaps {
        /// 1-based term number.
        term: usize,
        /// The term.
        text: String,
    },
    /// A heap size that is no count.
    #[error("term {term}: the heap {source}")]
    Heap {
        /// 1-based term number.
        term: usize,
        /// Why.
        source: CountError,
    },
    /// A spec that does not parse.
    #[error("term {term}: {source}")]
    Spec {
        /// 1-based term number.
        term: usize,
        /// Why.
        source: SpecError,
    },
}

/// A sum of heaps: (game, heap size) terms, played together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sum {
    /// The terms, in order.
    pub heaps: Vec<(Game, u64)>,
}

impl Sum {
    /// Several heaps of one game.
    pub fn of_heaps(game: &Game, heaps: &[u64]) -> Sum {
        Sum {
            heaps: heaps.iter().map(|&n| (game.clone(), n)).collect(),
        }
    }

    /// Reads `SPEC:HEAP + SPEC:HEAP + …` (whitespace allowed; heaps in any count form such
    /// as `1e18`). A `+` or `:` inside braces or parentheses belongs to the spec.
    ///
    /// # Errors
    /// [`SumError`] naming the term and the problem.
    pub fn parse(text: &str) -> Result<Sum, SumError> {
        let terms = split_top(text, '+');
        if terms.iter().all(|t| t.trim().is_empty()) {
            return Err(SumError::Empty);
        }
        let heaps = terms
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let term = i + 1;
                let parts = split_top(t, ':');
                let text = || t.trim().chars().take(60).collect();
                let (spec, heap) = match parts.len() {
                    2 if parts[1].trim().is_empty() => {
                        return Err(SumError::NoHeap { term, text: text() })
                    }
                    2 => (parts[0].trim(), parts[1].trim()),
                    1 => return Err(SumError::NoHeap { term, text: text() }),
                    _ => return Err(SumError::SeveralHeaps { term, text: text() }),
                };
                let game = Game::parse(spec).map_err(|source| SumError::Spec { term, source })?;
                let n = parse_count(heap).map_err(|source| SumError::Heap { term, source })?;
                Ok((game, n))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Sum { heaps })
    }
}

impl std::fmt::Display for Sum {
    /// `squares:5 + 0.77:12` (canonical specs).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, (g, n)) in self.heaps.iter().enumerate() {
            if i > 0 {
                f.write_str(" + ")?;
            }
            write!(f, "{g}:{n}")?;
        }
        Ok(())
    }
}

/// `text` split at each `sep` outside braces and parentheses.
fn split_top(text: &str, sep: char) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (vec![], 0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '{' | '(' | '[' => depth += 1,
            '}' | ')' | ']' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// One heap's Grundy value and how it was found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeapValue {
    /// The game's canonical spec.
    pub game: String,
    /// The heap size.
    pub n: u64,
    /// g(n); `None` only for a lone heap whose outcome was decided without its value
    /// (a P-position sieve).
    pub grundy: Option<u64>,
    /// How it was found.
    pub method: String,
}

/// A winning move in a sum: the heap it is made in, the move in that heap's own terms, and
/// the sum it leaves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SumMove {
    /// 0-based index of the heap moved in.
    pub heap: usize,
    /// The move: tokens removed and the heaps that one heap leaves.
    #[serde(flatten)]
    pub step: Move,
    /// The sum after the move (that heap replaced by what it leaves), as (spec, heap) pairs.
    pub result: Vec<(String, u64)>,
}

/// Who wins a sum.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SumDecision {
    /// Every heap's Grundy value.
    pub heaps: Vec<HeapValue>,
    /// The XOR of the heaps' values: the sum's Grundy value (`None` only as for
    /// [`HeapValue::grundy`]).
    pub grundy: Option<u64>,
    /// True for an N-position (the player to move wins): the XOR is not 0.
    pub win: bool,
    /// One winning move, when the sum wins.
    pub winning_move: Option<SumMove>,
}

/// Every winning move of a sum, as [`decide_sum`] finds one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SumMoves {
    /// The decision (its `winning_move` is the first of `moves`).
    pub decision: SumDecision,
    /// The winning moves, heap by heap, at most the limit asked for.
    pub moves: Vec<SumMove>,
    /// Whether `moves` is every winning move (false when the limit, a scan of more than
    /// 10^7 candidate moves in one heap, or a proven period's split bound cut the list).
    pub complete: bool,
    /// For one heap: which moves are listed when the method lists only some by
    /// construction ([`crate::WinningMoves::note`]).
    pub note: Option<String>,
}
