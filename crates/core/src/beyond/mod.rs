//! Games beyond one heap: two-heap games (Wythoff's family, move vectors), games with move
//! memory (Fibonacci Nim, Take-Away), and loopy games whose moves may grow the heap (win,
//! loss or draw). Their families are entries of the one registry ([`crate::FAMILIES`],
//! structures `two heaps`, `move memory`, `loopy`); [`BeyondGame::parse`] reads their specs
//! and the one-heap spec parser refuses them with a pointer here.
//!
//! | module | what |
//! |---|---|
//! | [`beatty`] | exact Beatty pairs of a-Wythoff (Fraenkel 1982) |
//! | [`pairs`] | two-heap games: Grundy squares and rows, P-pairs, one position |
//! | [`rule`] | `pair{PRED}`: two-heap rules of your own over a, b, x, y |
//! | [`sum`] | sums of normal play mixing these games with one-heap games |
//! | [`memory`] | Take-Away(r) and Fibonacci Nim: least winning moves, values by state |
//! | [`loopy`] | put-or-take games and add-or-divide: retrograde analysis with draws |

pub mod beatty;
pub mod loopy;
pub mod memory;
pub mod pairs;
pub mod rule;
pub mod sum;
#[cfg(test)]
mod tests;

use crate::spec::cursor::{Cursor, SpecError};
use loopy::{LoopyGame, PutSet};
use memory::TakeAway;
use pairs::PairGame;
use thiserror::Error;

/// A game that is not a sum of one-heap games of [`crate::Game`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BeyondGame {
    /// Positions (a, b) of two heaps.
    Pair(PairGame),
    /// A heap and the previous move (Take-Away, Fibonacci Nim).
    Memory(TakeAway),
    /// One heap whose moves may grow it.
    Loopy(LoopyGame),
}

/// Why a question about a game beyond one heap has no answer here.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BeyondError {
    /// Beyond what the engine takes (the message names the limit).
    #[error("{0}")]
    TooLarge(String),
    /// A loopy position that depends on heaps beyond every window tried.
    #[error("{0}")]
    Unsettled(String),
    /// Not a question this game answers.
    #[error("{0}")]
    Unsupported(String),
    /// The observer stopped the run.
    #[error("cancelled")]
    Cancelled,
}

impl std::fmt::Display for BeyondGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BeyondGame::Pair(g) => f.write_str(&g.spec()),
            BeyondGame::Memory(g) => f.write_str(&g.spec()),
            BeyondGame::Loopy(g) => f.write_str(&g.spec()),
        }
    }
}

/// A family's reader of its spec (called with the cursor after its word).
pub(crate) type BeyondHook = fn(&mut Cursor<'_>, &str) -> Result<BeyondGame, SpecError>;

impl BeyondGame {
    /// Reads a spec of a game beyond one heap: `wythoff`, `wythoff{2}`,
    /// `vectors{(1,2),(2,1)}`, `fibonacci-nim`, `takeaway{3}`, `takeaway{3/2}`,
    /// `put-or-take{squares}`, `put-or-take{triangular}`, `add-or-divide`,
    /// `pair{x = 0 OR y = 0 OR x = y}`, `loopy{1; k = -1 OR is_square(k)}`.
    ///
    /// # Errors
    /// A [`SpecError`] naming the position of the problem, also when the spec is a
    /// one-heap game (`Ok(None)` is never returned for a beyond family's word).
    pub fn parse(spec: &str) -> Result<BeyondGame, SpecError> {
        let mut c = Cursor::new(spec);
        c.ws();
        let start = c.i;
        while c
            .peek()
            .is_some_and(|x| x.is_ascii_alphanumeric() || x == '-')
        {
            c.i += 1;
        }
        let word = c.text_from(start).to_ascii_lowercase();
        let Some(hook) = beyond_family(&word) else {
            return Err(c.err_at(
                start,
                &format!(
                    "`{}` is not a game beyond one heap (those are: {})",
                    crate::spec::cursor::word_shown(&word),
                    beyond_words()
                ),
            ));
        };
        let g = hook(&mut c, &word)?;
        c.ws();
        if !c.at_end() {
            return Err(c.err("unexpected text after the game"));
        }
        Ok(g)
    }

    /// Whether `spec` starts with the word of a family beyond one heap (then
    /// [`BeyondGame::parse`] is the parser to call, and its error the one to show).
    pub fn is_beyond(spec: &str) -> bool {
        let word: String = spec
            .trim_start()
            .chars()
            .take_while(|x| x.is_ascii_alphanumeric() || *x == '-')
            .collect();
        beyond_family(&word.to_ascii_lowercase()).is_some()
    }

    /// A file-name-safe form of the spec (as [`crate::Game::slug`]).
    pub fn slug(&self) -> String {
        crate::game::slug_of(&self.to_string())
    }

    /// `two heaps`, `move memory` or `loopy`: the structure the registry names.
    pub fn structure(&self) -> &'static str {
        match self {
            BeyondGame::Pair(_) => "two heaps",
            BeyondGame::Memory(_) => "move memory",
            BeyondGame::Loopy(_) => "loopy",
        }
    }

    /// Whether a position is two heaps (a, b): the P-positions are pairs, and a Grundy
    /// grid ([`grundy_grid`]) can be cut to its first rows.
    pub fn is_two_heap(&self) -> bool {
        matches!(self, BeyondGame::Pair(_))
    }

    /// Whether the game has Grundy values ([`grundy_grid`]): two-heap and move-memory
    /// games; a loopy game's positions have outcomes (win, loss, draw) instead.
    pub fn has_grundy_values(&self) -> bool {
        !matches!(self, BeyondGame::Loopy(_))
    }

    /// The exact Beatty pairs of a-Wythoff's P-positions ([`beatty::Beatty`], Fraenkel
    /// 1982), streamed to any N; None for every other game.
    pub fn beatty(&self) -> Option<beatty::Beatty> {
        match self {
            BeyondGame::Pair(p) => p.beatty(),
            _ => None,
        }
    }

    /// What a row of the game's P-positions holds, for a reader: pairs (k, a, b), start
    /// heaps (k, n), or a loopy game's losses (k, n).
    pub fn losers_kind(&self) -> &'static str {
        match self {
            BeyondGame::Pair(_) => "pairs (k, a, b)",
            BeyondGame::Memory(_) => "start heaps (k, n): the first move takes 1..n-1",
            BeyondGame::Loopy(_) => "losses (k, n)",
        }
    }

    /// About how many P-pairs with both coordinates ≤ max a Beatty game has (max / β with
    /// β = α + a > a, so at most max / (a + 1)), before any work; None for other games.
    pub fn pairs_estimate(&self, max: u64) -> Option<u64> {
        self.beatty().map(|b| max / (b.a + 1))
    }
}

/// The hook of the beyond family named `word`.
pub(crate) fn beyond_family(word: &str) -> Option<BeyondHook> {
    crate::games::FAMILIES
        .iter()
        .find(|f| !f.name.is_empty() && f.name == word)
        .and_then(|f| f.beyond)
}

/// The words of the beyond families, for messages.
pub(crate) fn beyond_words() -> String {
    crate::games::FAMILIES
        .iter()
        .filter(|f| f.beyond.is_some())
        .map(|f| format!("{}{}", f.name, f.args))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `wythoff` or `wythoff{a}`.
pub(crate) fn wythoff(c: &mut Cursor<'_>, _: &str) -> Result<BeyondGame, SpecError> {
    c.ws();
    let a = if c.peek() == Some('{') {
        let v = c.list("a of a-Wythoff")?;
        if v.len() != 1 || v[0] == 0 {
            return Err(
                c.err("wythoff{a} takes one positive a (|x − y| < a on the diagonal moves)")
            );
        }
        if v[0] > 1 << 20 {
            return Err(c.err("wythoff{a}: a is at most 1048576"));
        }
        v[0]
    } else {
        1
    };
    Ok(BeyondGame::Pair(PairGame::Wythoff { a }))
}

/// `vectors{(x,y),…}`.
pub(crate) fn vectors(c: &mut Cursor<'_>, _: &str) -> Result<BeyondGame, SpecError> {
    c.expect('{', "to open the move vectors")?;
    let mut v: Vec<(u64, u64)> = vec![];
    loop {
        c.ws();
        let at = c.i;
        c.expect('(', "to open a move vector (x,y)")?;
        let x = c.count()?;
        c.expect(',', "between x and y")?;
        let y = c.count()?;
        c.expect(')', "to close the move vector")?;
        if x == 0 && y == 0 {
            return Err(c.err_at(
                at,
                "the move vector (0,0) is no move: every vector removes at least one token",
            ));
        }
        if x > 1 << 20 || y > 1 << 20 {
            return Err(c.err_at(at, "move vectors are at most 1048576 in each coordinate"));
        }
        if !v.contains(&(x, y)) {
            v.push((x, y));
        }
        c.ws();
        match c.peek() {
            Some(',') => c.i += 1,
            Some('}') => {
                c.i += 1;
                break;
            }
            Some(ch) => return Err(c.err(&format!("expected ',' or '}}', found '{ch}'"))),
            None => return Err(c.err("unclosed move vectors: expected '}'")),
        }
    }
    v.sort_unstable();
    Ok(BeyondGame::Pair(PairGame::Vectors(v)))
}

/// `pair{PRED}`: a two-heap rule over a, b, x, y.
pub(crate) fn pair_rule(c: &mut Cursor<'_>, _: &str) -> Result<BeyondGame, SpecError> {
    c.expect('{', "after `pair`")?;
    let from = c.i;
    let Some(len) = c.chars[from..].iter().position(|&ch| ch == '}') else {
        return Err(c.err_at(from, "unclosed pair{ (expected '}')"));
    };
    let inner: String = c.chars[from..from + len].iter().collect();
    let r = rule::PairRule::parse(&inner).map_err(|e| c.err_at(from + e.pos - 1, &e.message))?;
    c.i = from + len + 1;
    Ok(BeyondGame::Pair(PairGame::Rule(r)))
}

/// `fibonacci-nim`.
pub(crate) fn fibonacci_nim(_: &mut Cursor<'_>, _: &str) -> Result<BeyondGame, SpecError> {
    Ok(BeyondGame::Memory(TakeAway::FIBONACCI))
}

/// `takeaway{r}` or `takeaway{p/q}`.
pub(crate) fn takeaway(c: &mut Cursor<'_>, _: &str) -> Result<BeyondGame, SpecError> {
    c.expect(
        '{',
        "to open takeaway{r} (a ratio p/q, or f over the previous move k)",
    )?;
    let from = c.i;
    let Some(len) = c.chars[from..].iter().position(|&ch| ch == '}') else {
        return Err(c.err_at(from, "unclosed takeaway{ (expected '}')"));
    };
    let inner: String = c.chars[from..from + len].iter().collect();
    let ratio = |t: &str| t.trim().parse::<u64>().ok();
    let pq = match inner.split_once('/') {
        Some((p, q)) if !q.starts_with('/') => ratio(p).zip(ratio(q)),
        Some(_) => None,
        None => ratio(&inner).map(|p| (p, 1)),
    };
    let game = match pq {
        Some((p, q)) => {
            if p == 0 || q == 0 || p > 1 << 20 || q > 1 << 20 {
                return Err(c.err_at(
                    from,
                    "takeaway{p/q}: p and q are positive and at most 1048576",
                ));
            }
            let g = gcd(p, q);
            TakeAway::ratio(p / g, q / g)
        }
        None => {
            let f = memory::Allowance::parse(&inner)
                .map_err(|e| c.err_at(from + e.pos - 1, &e.message))?;
            // r·k written out is Take-Away(r): its closed forms (Fibonacci Nim's) apply
            let t = f.text();
            let r = if t == "k" {
                Some(1)
            } else {
                t.strip_suffix(" * k")
                    .or_else(|| t.strip_prefix("k * "))
                    .and_then(|x| x.parse::<u64>().ok())
            };
            match r {
                Some(r) if (1..=1 << 20).contains(&r) => TakeAway::ratio(r, 1),
                _ => TakeAway::Rule(f),
            }
        }
    };
    c.i = from + len + 1;
    Ok(BeyondGame::Memory(game))
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// `put-or-take{squares}` or `put-or-take{triangular}`.
pub(crate) fn put_or_take(c: &mut Cursor<'_>, _: &str) -> Result<BeyondGame, SpecError> {
    c.expect('{', "to open the set of put-or-take{SET}")?;
    c.ws();
    let start = c.i;
    while c.peek().is_some_and(|x| x.is_ascii_alphanumeric()) {
        c.i += 1;
    }
    let set = match c.text_from(start).to_ascii_lowercase().as_str() {
        "squares" => PutSet::Squares,
        "triangular" => PutSet::Triangular,
        other => {
            return Err(c.err_at(
                start,
                &format!(
                    "put-or-take{{SET}} takes squares or triangular, not `{}`",
                    crate::spec::cursor::word_shown(other)
                ),
            ))
        }
    };
    c.expect('}', "to close put-or-take{SET}")?;
    Ok(BeyondGame::Loopy(LoopyGame::PutOrTake(set)))
}

/// `add-or-divide`.
pub(crate) fn add_or_divide(_: &mut Cursor<'_>, _: &str) -> Result<BeyondGame, SpecError> {
    Ok(BeyondGame::Loopy(LoopyGame::AddOrDivide))
}

/// A chunk of a game's rows ([`for_each_rows`]).
#[derive(Debug)]
pub enum Rows<'a> {
    /// P-positions of a two-heap game: (k, a, b), k counting from 0.
    Pairs(&'a [(u64, u64, u64)]),
    /// P-positions of one heap: start heaps of a move-memory game, or a loopy game's
    /// losses when only P-positions are asked for. The k-th (from `k0`) is
    /// `heaps[k - k0]`.
    Starts {
        /// Index of the first.
        k0: u64,
        /// The heaps.
        heaps: &'a [u64],
    },
    /// Outcomes of a loopy game's positions `first..`.
    Outcomes {
        /// The first position.
        first: u64,
        /// Their outcomes.
        outcomes: &'a [loopy::Loopy],
        /// The soundness statement of the window.
        statement: &'a str,
    },
}

/// Rows per chunk of [`for_each_rows`].
pub const ROW_CHUNK: usize = 1 << 20;

/// The rows of `game` up to `max`, in chunks of at most [`ROW_CHUNK`]: P-pairs with both
/// coordinates ≤ max (a-Wythoff streamed from the exact Beatty pairs, so any max; vector
/// games from their Grundy square, a ≤ b when symmetric), P-position start heaps ≤ max,
/// or loopy outcomes of positions ≤ max — only the losses, as [`Rows::Starts`], with
/// `losers_only` (Fibonacci Nim beyond the table of least winning moves: the Fibonacci
/// numbers, Whinihan 1963). The one enumeration behind `losers`, `table`, `check` and
/// Python's tables.
///
/// # Errors
/// The engines' limits, cancellation, and whatever `each` returns.
pub fn for_each_rows<E: From<BeyondError>>(
    game: &BeyondGame,
    max: u64,
    losers_only: bool,
    obs: &dyn crate::Observer,
    each: &mut dyn FnMut(Rows<'_>) -> Result<(), E>,
) -> Result<(), E> {
    match game {
        BeyondGame::Pair(g) => {
            if let Some(b) = g.beatty() {
                let mut rows = b.pairs().take_while(|&(_, _, bb)| bb <= max as u128);
                let mut buf: Vec<(u64, u64, u64)> = Vec::with_capacity(ROW_CHUNK);
                loop {
                    buf.clear();
                    buf.extend(
                        rows.by_ref()
                            .take(ROW_CHUNK)
                            .map(|(k, a, b)| (k, a as u64, b as u64)),
                    );
                    if buf.is_empty() {
                        return Ok(());
                    }
                    let done = buf[buf.len() - 1].2;
                    each(Rows::Pairs(&buf))?;
                    if let std::ops::ControlFlow::Break(()) =
                        obs.observe(done, max.saturating_add(1))
                    {
                        return Err(BeyondError::Cancelled.into());
                    }
                }
            }
            let pairs = pairs::p_pairs_by_table(g, max, obs)?;
            let rows: Vec<(u64, u64, u64)> = pairs
                .iter()
                .enumerate()
                .map(|(k, &(a, b))| (k as u64, a, b))
                .collect();
            for chunk in rows.chunks(ROW_CHUNK) {
                each(Rows::Pairs(chunk))?;
            }
            Ok(())
        }
        BeyondGame::Memory(t) if *t == memory::TakeAway::FIBONACCI && max >= memory::MAX_HEAPS => {
            // Whinihan (1963): the P-positions of Fibonacci Nim are the Fibonacci numbers
            let mut fib = vec![1u64, 2];
            while let Some(next) = fib[fib.len() - 1].checked_add(fib[fib.len() - 2]) {
                if next > max {
                    break;
                }
                fib.push(next);
            }
            each(Rows::Starts { k0: 1, heaps: &fib })
        }
        BeyondGame::Memory(t) => {
            let w = memory::least_winning_moves(t, max, obs)?;
            let p: Vec<u64> = (1..=max).filter(|&h| w[h as usize] as u64 == h).collect();
            each(Rows::Starts { k0: 1, heaps: &p })
        }
        BeyondGame::Loopy(l) => {
            let t = loopy::loopy_outcomes(l.clone(), max, u64::MAX, obs)?;
            if losers_only {
                let losses: Vec<u64> = (l.first()..=max)
                    .filter(|&n| t.outcomes[n as usize] == loopy::Loopy::Loss)
                    .collect();
                return each(Rows::Starts {
                    k0: 1,
                    heaps: &losses,
                });
            }
            let statement = t.statement();
            each(Rows::Outcomes {
                first: l.first(),
                outcomes: &t.outcomes[l.first() as usize..],
                statement: &statement,
            })
        }
    }
}

/// Grundy values of a two-heap or move-memory game on a grid ([`grundy_grid`]).
#[derive(Debug, Clone)]
pub struct Grid {
    /// The first coordinate's name: `a` (two heaps) or `heap` (move memory).
    pub row_name: &'static str,
    /// The second coordinate's name: `b` or `allowance`.
    pub col_name: &'static str,
    /// g(r, c) for r < `rect.rows`, c < `rect.cols`, row-major.
    pub rect: pairs::Rect,
    /// Move memory: a state is (heap, allowance ≤ heap), and the cells with allowance
    /// beyond the heap repeat the heap's own (cell (h, h)).
    pub clamped: bool,
}

impl Grid {
    /// Whether cell (r, c) is a state of its own (not a copy of (r, r) beyond the heap).
    pub fn is_state(&self, r: u64, c: u64) -> bool {
        !self.clamped || c <= r
    }
}

/// The Grundy values of `game` on the grid 0 ≤ r ≤ max (or 0 ≤ r ≤ `last_row` when
/// given), 0 ≤ c ≤ max: a two-heap game's g(a, b) ([`pairs::grundy_rect`]); a move-memory
/// game's g(heap, allowance) by state ([`memory::state_grundy`]), an allowance beyond the
/// heap reading as the heap. The one table behind `table`, `plot` and Python's
/// `BeyondGame.grundy`.
///
/// # Errors
/// [`BeyondError::Unsupported`] for loopy games (outcomes, not Grundy values) and for
/// `last_row` on a move-memory game; the engines' limits ([`pairs::MAX_CELLS`],
/// [`memory::MAX_STATE_HEAP`]); [`BeyondError::Cancelled`] when the observer stops it.
pub fn grundy_grid(
    game: &BeyondGame,
    max: u64,
    last_row: Option<u64>,
    obs: &dyn crate::Observer,
) -> Result<Grid, BeyondError> {
    let side = max
        .checked_add(1)
        .ok_or_else(|| BeyondError::TooLarge(format!("{game}: a grid to {max}")))?;
    match game {
        BeyondGame::Pair(p) => {
            let rows = last_row.map_or(side, |r| r.saturating_add(1));
            let rect = if rows > side && p.symmetric() {
                // rows far past max: the engines take the longer side second, so the
                // transposed rectangle, read back by symmetry (g(a, b) = g(b, a))
                let t = pairs::grundy_rect(p, side, rows, obs)?;
                let mut values = Vec::with_capacity(t.values.len());
                for a in 0..rows {
                    values.extend((0..side).map(|b| t.get(b, a)));
                }
                pairs::Rect {
                    rows,
                    cols: side,
                    values,
                }
            } else {
                pairs::grundy_rect(p, rows, side, obs)?
            };
            Ok(Grid {
                row_name: "a",
                col_name: "b",
                rect,
                clamped: false,
            })
        }
        BeyondGame::Memory(t) => {
            if last_row.is_some() {
                return Err(BeyondError::Unsupported(format!(
                    "{game}: a single row is for two-heap games"
                )));
            }
            let g = memory::state_grundy(t, max, obs)?;
            let mut values = Vec::with_capacity((side * side) as usize);
            for (h, r) in g.iter().enumerate() {
                values.extend((0..side as usize).map(|m| r[m.min(h)]));
            }
            Ok(Grid {
                row_name: "heap",
                col_name: "allowance",
                rect: pairs::Rect {
                    rows: side,
                    cols: side,
                    values,
                },
                clamped: true,
            })
        }
        BeyondGame::Loopy(_) => Err(BeyondError::Unsupported(format!(
            "{game} is loopy: it has outcomes (win, loss, draw), not Grundy values"
        ))),
    }
}

/// A position of a game beyond one heap in a sum of normal play, read from its
/// coordinates: two heaps (a, b); a start heap n (the first move takes 1..n − 1) or
/// CGSuite's (heap, previous move) for move memory. Loopy games have no Grundy values.
fn state(game: &BeyondGame, pos: &[u64]) -> Result<(u64, u64), BeyondError> {
    match (game, pos) {
        (BeyondGame::Pair(_), &[a, b]) => Ok((a, b)),
        (BeyondGame::Memory(_), &[n]) => Ok((n, n.saturating_sub(1))),
        (BeyondGame::Memory(t), &[n, k]) => Ok((n, t.allowance(k)?.min(n))),
        (BeyondGame::Loopy(_), _) => Err(BeyondError::Unsupported(format!(
            "{game} is loopy: it has no Grundy value, so it cannot join a sum of normal play"
        ))),
        (BeyondGame::Pair(_), _) => Err(BeyondError::Unsupported(format!(
            "{game}: a position is two heaps a,b"
        ))),
        (BeyondGame::Memory(_), _) => Err(BeyondError::Unsupported(format!(
            "{game}: a position is a start heap n, or heap,previous-move"
        ))),
    }
}

/// Largest heap of a move-memory game in a sum (its values by state are computed).
pub const SUM_MEMORY_HEAP: u64 = 5_000;

/// The Grundy value of a position of a two-heap or move-memory game (for sums of normal
/// play): from the Grundy values of [0, a] × [0, b], or by state to the heap.
///
/// # Errors
/// Loopy games; positions beyond [`pairs::MAX_CELLS`] or [`SUM_MEMORY_HEAP`].
pub fn grundy_at(game: &BeyondGame, pos: &[u64]) -> Result<u64, BeyondError> {
    let (x, y) = state(game, pos)?;
    match game {
        BeyondGame::Pair(p) => {
            let d = pairs::decide_pair(p, x, y, pairs::MAX_CELLS)?;
            // symmetric games on the rectangle with the fewer rows
            let (x, y) = if p.symmetric() && x > y {
                (y, x)
            } else {
                (x, y)
            };
            match d.grundy {
                Some(g) => Ok(g),
                None => Ok(pairs::grundy_rect(p, x + 1, y + 1, &crate::Silent)?.get(x, y) as u64),
            }
        }
        BeyondGame::Memory(t) => {
            if x > SUM_MEMORY_HEAP {
                return Err(BeyondError::TooLarge(format!(
                    "{game} in a sum: heaps up to {SUM_MEMORY_HEAP} (values by state)"
                )));
            }
            Ok(memory::state_grundy(t, x, &crate::Silent)?[x as usize][y as usize] as u64)
        }
        BeyondGame::Loopy(_) => unreachable!("refused by state()"),
    }
}

/// An option of the position whose Grundy value is `target`, in the position's own
/// coordinates (two heaps a,b; move memory: heap, previous move), if there is one.
///
/// # Errors
/// As [`grundy_at`].
pub fn option_with_value(
    game: &BeyondGame,
    pos: &[u64],
    target: u64,
) -> Result<Option<Vec<u64>>, BeyondError> {
    let (x, y) = state(game, pos)?;
    match game {
        BeyondGame::Pair(p) => {
            // symmetric games on the rectangle with the fewer rows, the move turned back
            let flip = p.symmetric() && x > y;
            let (x, y) = if flip { (y, x) } else { (x, y) };
            let t = pairs::grundy_rect(p, x + 1, y + 1, &crate::Silent)?;
            Ok(p.options(x, y)
                .into_iter()
                .find(|&(u, v)| t.get(u, v) as u64 == target)
                .map(|(u, v)| if flip { vec![v, u] } else { vec![u, v] }))
        }
        BeyondGame::Memory(t) => {
            grundy_at(game, pos)?;
            let g = memory::state_grundy(t, x, &crate::Silent)?;
            Ok(t.options(x, y)?
                .into_iter()
                .zip(1u64..)
                .find(|&((h, m), _)| g[h as usize][m.min(h) as usize] as u64 == target)
                .map(|((h, _), j)| vec![h, j]))
        }
        BeyondGame::Loopy(_) => unreachable!("refused by state()"),
    }
}

/// Most tokens a move of `loopy{C; PRED}` may add.
pub const MAX_ADD: u64 = 1 << 16;

/// `loopy{C; PRED}`: n → n − k when PRED(n, k) holds, −C ≤ k ≤ n, k ≠ 0.
pub(crate) fn loopy_rule(c: &mut Cursor<'_>, _: &str) -> Result<BeyondGame, SpecError> {
    c.expect('{', "after `loopy`")?;
    let from = c.i;
    let Some(len) = c.chars[from..].iter().position(|&ch| ch == '}') else {
        return Err(c.err_at(from, "unclosed loopy{ (expected '}')"));
    };
    let inner: String = c.chars[from..from + len].iter().collect();
    let Some((bound, pred)) = inner.split_once(';') else {
        return Err(c.err_at(
            from,
            "a loopy rule needs a bound: write loopy{C; PRED} with C the most tokens a move may \
             add (without one a move could add any number, and no window would be sound)",
        ));
    };
    let add = crate::num::parse_count(bound.trim())
        .ok()
        .filter(|&a| (1..=MAX_ADD).contains(&a))
        .ok_or_else(|| {
            c.err_at(
                from,
                &format!(
                    "loopy{{C; PRED}}: C is the most tokens a move may add, 1 to {MAX_ADD}, not `{}`",
                    crate::spec::cursor::word_shown(bound.trim())
                ),
            )
        })?;
    let at = from + bound.chars().count() + 1;
    let p = crate::MovePredicate::parse(pred).map_err(|e| c.err_at(at + e.pos - 1, &e.message))?;
    c.i = from + len + 1;
    Ok(BeyondGame::Loopy(LoopyGame::Rule {
        add,
        pred: std::sync::Arc::new(p),
    }))
}

/// The outcome of one position of a game beyond one heap ([`decide`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BeyondDecision {
    /// Win, loss, draw (loopy, proven) or unknown (loopy, undecided on every window).
    pub outcome: loopy::Loopy,
    /// The Grundy value, when it was computed (small two-heap positions).
    pub grundy: Option<u64>,
    /// A winning move's result, in the position's coordinates: two heaps (a, b); move
    /// memory (heap left, tokens taken) — CGSuite's (heap, previous move); loopy (n).
    pub to: Option<Vec<u64>>,
    /// The winning move in words.
    pub move_text: Option<String>,
    /// How it was decided (for loopy games: the window and its argument).
    pub method: String,
}

impl BeyondDecision {
    /// True for a win, false for a loss, `None` for a draw or an undecided position.
    pub fn win(&self) -> Option<bool> {
        match self.outcome {
            loopy::Loopy::Win => Some(true),
            loopy::Loopy::Loss => Some(false),
            _ => None,
        }
    }
}

/// Decides one position: two heaps (a, b) by [`pairs::decide_pair`]; move memory from a
/// start heap n (the first move takes 1..n − 1) or CGSuite's (heap, previous move), by
/// the least winning move w(n) (the Zeckendorf rule for Fibonacci Nim beyond 2^26);
/// loopy games by [`loopy::loopy_outcomes`], a winning move read off one table that
/// reaches every option.
///
/// # Errors
/// A position of the wrong shape; the engines' limits; cancellation.
pub fn decide(
    game: &BeyondGame,
    pos: &[u64],
    obs: &dyn crate::Observer,
) -> Result<BeyondDecision, BeyondError> {
    let shape = |what: &str| BeyondError::Unsupported(format!("{game}: a position is {what}"));
    match game {
        BeyondGame::Pair(p) => {
            let &[a, b] = pos else {
                return Err(shape("two heaps (a, b): give two numbers"));
            };
            let d = pairs::decide_pair(p, a, b, pairs::MAX_CELLS)?;
            Ok(BeyondDecision {
                outcome: if d.win {
                    loopy::Loopy::Win
                } else {
                    loopy::Loopy::Loss
                },
                grundy: d.grundy,
                to: d.to.map(|(u, v)| vec![u, v]),
                move_text: d.to.map(|(u, v)| format!("to ({u}, {v})")),
                method: d.method,
            })
        }
        BeyondGame::Memory(t) => {
            let (n, allowance, start) = match *pos {
                [n] => (n, n.saturating_sub(1), true),
                [n, k] => (n, t.allowance(k)?.min(n), false),
                _ => return Err(shape("a start heap n, or (heap, previous move)")),
            };
            let (least, how) = if n == 0 {
                (u64::MAX, "no move from an empty heap".to_string())
            } else if *t == memory::TakeAway::FIBONACCI && n >= 1 << 26 {
                (
                    memory::zeckendorf_smallest(n),
                    "the least winning move is the smallest Zeckendorf term of n (Whinihan 1963)"
                        .to_string(),
                )
            } else {
                (
                    memory::least_winning_moves(t, n, obs)?[n as usize] as u64,
                    format!(
                        "least winning moves w(h) for heaps to {n}: (h, m) wins exactly when w(h) <= m"
                    ),
                )
            };
            let win = least <= allowance;
            let next = if win { t.allowance(least)? } else { 0 };
            Ok(BeyondDecision {
                outcome: if win {
                    loopy::Loopy::Win
                } else {
                    loopy::Loopy::Loss
                },
                grundy: None,
                to: win.then(|| vec![n - least, least]),
                move_text: win.then(|| {
                    format!(
                        "to heap {} after taking {least} (the next move may take up to {})",
                        n - least,
                        next
                    )
                }),
                method: format!(
                    "{how}; position: heap {n}, {}",
                    if start {
                        format!("the first move (takes 1..{allowance})")
                    } else {
                        format!("may take up to {allowance}")
                    }
                ),
            })
        }
        BeyondGame::Loopy(l) => {
            let &[n] = pos else {
                return Err(shape("one heap n"));
            };
            if n < l.first() {
                return Err(shape(&format!("a heap n ≥ {}", l.first())));
            }
            let t = loopy::loopy_outcomes(l.clone(), n, u64::MAX, obs)?;
            let outcome = t.outcomes[n as usize];
            // a winning move: an option that is a certified loss, read off one table that
            // reaches the largest option
            let to = if outcome == loopy::Loopy::Win {
                let options = l.options(n);
                let top = options.iter().copied().max().unwrap_or(n);
                // (options beyond what a window takes give no move, not an error)
                match loopy::loopy_outcomes(l.clone(), top, u64::MAX, obs) {
                    Ok(wide) => options
                        .into_iter()
                        .find(|&m| wide.outcomes[m as usize] == loopy::Loopy::Loss),
                    Err(BeyondError::Cancelled) => return Err(BeyondError::Cancelled),
                    Err(_) => None,
                }
            } else {
                None
            };
            Ok(BeyondDecision {
                outcome,
                grundy: None,
                to: to.map(|m| vec![m]),
                move_text: to.map(|m| format!("to {m}")),
                method: t.statement(),
            })
        }
    }
}
