//! Two-heap games, positions (a, b): Fraenkel's a-Wythoff family (Wythoff's game is
//! a = 1) and two-heap subtraction games given by move vectors. Grundy values of a square
//! [0, N]² or of rows 0..=r out to a long column range, P-positions as pairs, and the
//! outcome of one position with a winning move.

use super::beatty::Beatty;
use super::rule::{rule_rect, PairRule};
use super::BeyondError;
use crate::observe::Observer;
use std::ops::ControlFlow;

/// A game on two heaps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairGame {
    /// Fraenkel's a-Wythoff (a ≥ 1): remove any positive amount from one heap, or x ≥ 1
    /// from one and y ≥ 1 from the other with |x − y| < a. a = 1 is Wythoff's game
    /// (remove the same amount from both). CGSuite's `GenWythoff(k -> k + a)`.
    Wythoff {
        /// a ≥ 1.
        a: u64,
    },
    /// Remove (x, y) from (a, b) for a vector (x, y) of the set (neither heap may go below
    /// 0). The vectors apply as written: list (y, x) too for a symmetric game.
    Vectors(Vec<(u64, u64)>),
    /// Your own rule over a, b, x, y (`pair{PRED}`, [`PairRule`]).
    Rule(PairRule),
}

/// Most cells a Grundy square or strip computes (4·10^8, a square to 19,999: 1.6 GB of
/// u32 values).
pub const MAX_CELLS: u64 = 400_000_000;

impl PairGame {
    /// The spec, as `heaplab` prints it.
    pub fn spec(&self) -> String {
        match self {
            PairGame::Wythoff { a: 1 } => "wythoff".into(),
            PairGame::Wythoff { a } => format!("wythoff{{{a}}}"),
            PairGame::Vectors(v) => format!(
                "vectors{{{}}}",
                v.iter()
                    .map(|(x, y)| format!("({x},{y})"))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            PairGame::Rule(r) => format!("pair{{{}}}", r.text()),
        }
    }

    /// Whether (a, b) and (b, a) always have the same value.
    pub fn symmetric(&self) -> bool {
        match self {
            PairGame::Wythoff { .. } => true,
            PairGame::Vectors(v) => v.iter().all(|&(x, y)| v.contains(&(y, x))),
            // not known without trying every move
            PairGame::Rule(_) => false,
        }
    }

    /// Every option of (p, q), by the definition (for checks and small positions).
    pub fn options(&self, p: u64, q: u64) -> Vec<(u64, u64)> {
        let mut out = vec![];
        match self {
            PairGame::Wythoff { a } => {
                out.extend((0..p).map(|x| (x, q)));
                out.extend((0..q).map(|y| (p, y)));
                for x in 1..=p {
                    // y ≥ 1, |x − y| < a, y ≤ q
                    let lo = x.saturating_sub(a - 1).max(1);
                    let hi = x.saturating_add(a - 1).min(q);
                    for y in lo..=hi {
                        out.push((p - x, q - y));
                    }
                }
            }
            PairGame::Vectors(v) => {
                for &(x, y) in v {
                    if x <= p && y <= q {
                        out.push((p - x, q - y));
                    }
                }
            }
            PairGame::Rule(r) => out = r.options(p, q),
        }
        out
    }

    /// The P-positions (A_n, B_n) by index, when the game has that closed form (the
    /// a-Wythoff family).
    pub fn beatty(&self) -> Option<Beatty> {
        match self {
            PairGame::Wythoff { a } => Some(Beatty { a: *a }),
            PairGame::Vectors(_) | PairGame::Rule(_) => None,
        }
    }
}

/// The outcome of one two-heap position and a winning move.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PairDecision {
    /// The position.
    pub position: (u64, u64),
    /// The player to move wins.
    pub win: bool,
    /// Its Grundy value, when it was computed (table methods).
    pub grundy: Option<u64>,
    /// A winning move's result, when it wins.
    pub to: Option<(u64, u64)>,
    /// How it was decided.
    pub method: String,
}

/// Decides (p, q): a-Wythoff games at any size by the exact Beatty pairs (Fraenkel 1982),
/// with the Grundy value when (p + 1)(q + 1) ≤ 2^22; other games from their Grundy values
/// on [0, p] × [0, q] (at most `max_cells` cells, else an error).
///
/// # Errors
/// [`BeyondError::TooLarge`] for a vector game beyond `max_cells`.
pub fn decide_pair(
    game: &PairGame,
    p: u64,
    q: u64,
    max_cells: u64,
) -> Result<PairDecision, BeyondError> {
    let cells = (p.saturating_add(1)).saturating_mul(q.saturating_add(1));
    // the Grundy value too when its rectangle is small (a few million cells: a blink)
    let small = cells <= max_cells.min(1 << 22);
    if let Some(b) = game.beatty() {
        let (lo, hi, swapped) = if p <= q { (p, q, false) } else { (q, p, true) };
        let to = beatty_move(b, lo, hi).map(|(x, y)| if swapped { (y, x) } else { (x, y) });
        // (symmetric: the rectangle with the fewer rows, whose bitsets are smaller)
        let grundy = if small {
            Some(grundy_rect(game, lo + 1, hi + 1, &crate::observe::Silent)?.get(lo, hi) as u64)
        } else {
            None
        };
        return Ok(PairDecision {
            position: (p, q),
            win: to.is_some(),
            grundy,
            to,
            method: if b.a == 1 {
                "the P-positions of Wythoff's game are (⌊nφ⌋, ⌊nφ²⌋) (Wythoff 1907), in exact \
                 integer arithmetic"
                    .to_string()
            } else {
                format!(
                    "the P-positions of {} are (⌊nα⌋, ⌊nα⌋ + {}n) with α = (2 − {} + √{})/2 \
                     (Fraenkel 1982), in exact integer arithmetic",
                    game.spec(),
                    b.a,
                    b.a,
                    b.a * b.a + 4
                )
            },
        });
    }
    if cells > max_cells.min(MAX_CELLS) {
        return Err(BeyondError::TooLarge(format!(
            "{} at ({p}, {q}) needs its Grundy values on [0, {p}] × [0, {q}]: at most {} cells here",
            game.spec(),
            max_cells.min(MAX_CELLS)
        )));
    }
    let sq = grundy_rect(game, p + 1, q + 1, &crate::observe::Silent)?;
    let g = sq.get(p, q);
    let to = (g != 0)
        .then(|| {
            game.options(p, q)
                .into_iter()
                .find(|&(x, y)| sq.get(x, y) == 0)
        })
        .flatten();
    Ok(PairDecision {
        position: (p, q),
        win: g != 0,
        grundy: Some(g as u64),
        to,
        method: format!("Grundy values of [0, {p}] × [0, {q}] by mex"),
    })
}

/// The winning move of a-Wythoff at (p, q), p ≤ q (None: a P-position).
fn beatty_move(b: Beatty, p: u64, q: u64) -> Option<(u64, u64)> {
    if let Some(n) = b.lower_index(p) {
        let bn = b.upper(n);
        if q as u128 == bn {
            return None;
        }
        if q as u128 > bn {
            return Some((p, bn as u64));
        }
        // q < B_n: the diagonal move to (A_m, B_m) with m = ⌊(q − p)/a⌋ (|x − y| =
        // |q − p − a·m| < a, and A_m < p, B_m < q since m < n)
        let m = (q - p) / b.a;
        return Some((b.lower(m) as u64, b.upper(m) as u64));
    }
    let n = b
        .upper_index(p)
        .expect("every positive integer is A_n or B_n (Beatty)");
    // p = B_n ≤ q: move the larger heap to A_n
    Some((p, b.lower(n) as u64))
}

/// Grundy values of a rectangle [0, rows) × [0, cols), row-major.
#[derive(Debug, Clone)]
pub struct Rect {
    /// Rows (first coordinate 0..rows).
    pub rows: u64,
    /// Columns (second coordinate 0..cols).
    pub cols: u64,
    /// The values, row-major.
    pub values: Vec<u32>,
}

impl Rect {
    /// g(p, q).
    pub fn get(&self, p: u64, q: u64) -> u32 {
        self.values[(p * self.cols + q) as usize]
    }

    /// Row p.
    pub fn row(&self, p: u64) -> &[u32] {
        let c = self.cols as usize;
        &self.values[p as usize * c..(p as usize + 1) * c]
    }
}

/// Grundy values of [0, rows) × [0, cols) (rows, cols ≥ 1; at most [`MAX_CELLS`] cells).
/// a-Wythoff: row, column and diagonal bitsets (a mex of a few words a cell); when
/// there are few rows and long columns the column and diagonal values are scanned
/// instead. Vector games: the mex of their options. Rules: every (x, y) tried (see
/// [`super::rule`] for their smaller limits).
///
/// # Errors
/// [`BeyondError::TooLarge`] beyond [`MAX_CELLS`]; [`BeyondError::Cancelled`] when the
/// observer stops it.
pub fn grundy_rect(
    game: &PairGame,
    rows: u64,
    cols: u64,
    obs: &dyn Observer,
) -> Result<Rect, BeyondError> {
    let cells = rows.saturating_mul(cols);
    if rows == 0 || cols == 0 || cells > MAX_CELLS {
        return Err(BeyondError::TooLarge(format!(
            "a Grundy table of {rows} × {cols} cells: at most {MAX_CELLS} cells (a square to 19,999)"
        )));
    }
    if let PairGame::Wythoff { a } = game {
        // the row, column and diagonal bitsets: (cols + rows + cols) sets of vmax bits
        let (r, c) = (rows as u128, cols as u128);
        let vmax = r + c + (2 * (*a).min(rows.max(cols)) as u128 - 1) * r.min(c) + 2;
        let bytes = (2 * c + r) * (vmax / 64 + 1) * 8;
        if (r >= 256 || r * 64 >= c) && bytes > 1 << 32 {
            return Err(BeyondError::TooLarge(format!(
                "a Grundy table of {rows} × {cols} cells of {}: its bitsets would take {} MB \
                 (at most 4096 MB; put the longer side second: (a, b) with a <= b)",
                game.spec(),
                bytes >> 20
            )));
        }
    }
    if let PairGame::Rule(rule) = game {
        rule.check_size(rows, cols)?;
    }
    let mut values = vec![0u32; cells as usize];
    match game {
        PairGame::Vectors(v) => vectors_rect(v, rows, cols, &mut values, obs)?,
        PairGame::Wythoff { a } => wythoff_rect(*a, rows, cols, &mut values, obs)?,
        PairGame::Rule(rule) => rule_rect(rule, rows, cols, &mut values, obs)?,
    }
    Ok(Rect { rows, cols, values })
}

fn vectors_rect(
    v: &[(u64, u64)],
    rows: u64,
    cols: u64,
    values: &mut [u32],
    obs: &dyn Observer,
) -> Result<(), BeyondError> {
    let c = cols as usize;
    let mut seen = vec![false; v.len() + 2];
    for p in 0..rows as usize {
        for q in 0..c {
            seen.iter_mut().for_each(|s| *s = false);
            for &(x, y) in v {
                let (x, y) = (x as usize, y as usize);
                if x <= p && y <= q {
                    let g = values[(p - x) * c + q - y] as usize;
                    if g < seen.len() {
                        seen[g] = true;
                    }
                }
            }
            values[p * c + q] = seen.iter().position(|s| !s).unwrap_or(seen.len()) as u32;
        }
        progress(obs, p as u64 + 1, rows)?;
    }
    Ok(())
}

fn progress(obs: &dyn Observer, done: u64, total: u64) -> Result<(), BeyondError> {
    match obs.observe(done, total) {
        ControlFlow::Continue(()) => Ok(()),
        ControlFlow::Break(()) => Err(BeyondError::Cancelled),
    }
}

/// A growing set of small values as bits, with its mex (the least value not in it).
struct Bits {
    words: Vec<u64>,
    low: usize,
}

impl Bits {
    fn new(bits: usize) -> Bits {
        Bits {
            words: vec![0; bits / 64 + 1],
            low: 0,
        }
    }
    fn insert(&mut self, v: usize) {
        self.words[v / 64] |= 1 << (v % 64);
        while self.words[self.low / 64] >> (self.low % 64) & 1 == 1 {
            self.low += 1;
        }
    }
}

fn wythoff_rect(
    a: u64,
    rows: u64,
    cols: u64,
    values: &mut [u32],
    obs: &dyn Observer,
) -> Result<(), BeyondError> {
    let (r, c) = (rows as usize, cols as usize);
    let a = a.min(rows.max(cols)) as usize;
    // a value is at most the number of options: p + q + (2a − 1)·min(p, q)
    let vmax = r + c + (2 * a - 1) * r.min(c) + 2;
    // bitsets for columns and diagonals when the table is square-ish; scans when few rows
    let bitsets = r >= 256 || r * 64 >= c;
    let words = vmax / 64 + 1;
    let mut col: Vec<Bits> = if bitsets {
        (0..c).map(|_| Bits::new(vmax)).collect()
    } else {
        vec![]
    };
    // diagonal q − p + (r − 1), holding the rows at least `a` above the current one
    let mut diag: Vec<Bits> = if bitsets {
        (0..r + c).map(|_| Bits::new(vmax)).collect()
    } else {
        vec![]
    };
    let mut extra: Vec<usize> = Vec::new();
    for p in 0..r {
        let mut row = Bits::new(vmax);
        for q in 0..c {
            extra.clear();
            // the diagonal moves' targets not yet in the diagonal sets (or all of them,
            // when scanning): (p − x, q − y), x, y ≥ 1, |x − y| < a
            let first_row = if bitsets { p.saturating_sub(a - 1) } else { 0 };
            for pp in first_row..p {
                let x = p - pp;
                let lo = x.saturating_sub(a - 1).max(1);
                let hi = (x + a - 1).min(q);
                for y in lo..=hi {
                    extra.push(values[pp * c + q - y] as usize);
                }
            }
            let mut sets: [&[u64]; 8] = [&[]; 8];
            let mut k = 0;
            let mut start = row.low;
            if bitsets {
                sets[k] = &col[q].words;
                k += 1;
                start = start.max(col[q].low);
                // whole diagonals d' = d − δ, |δ| < a: rows ≤ p − a are in them
                let d = q + r - 1 - p;
                let first = d.saturating_sub(a - 1);
                let last = (d + a - 1).min(r + c - 2);
                for (dd, set) in diag.iter().enumerate().take(last + 1).skip(first) {
                    if k < sets.len() {
                        sets[k] = &set.words;
                        k += 1;
                    } else {
                        // wide a: fold the rest into the scanned values
                        for pp in 0..p.saturating_sub(a - 1) {
                            let qq = (dd + pp + 1).wrapping_sub(r);
                            if qq < q {
                                extra.push(values[pp * c + qq] as usize);
                            }
                        }
                    }
                }
                if a == 1 {
                    start = start.max(diag[d].low);
                }
            } else {
                for pp in 0..p {
                    extra.push(values[pp * c + q] as usize);
                }
            }
            let g = mex_of(&row.words, &sets[..k], start, &mut extra, words);
            values[p * c + q] = g as u32;
            row.insert(g);
            if bitsets {
                col[q].insert(g);
            }
        }
        // row p − a + 1 joins its diagonals (from row p + 1 on, every diagonal target
        // of rows ≤ (p + 1) − a is a move)
        if bitsets && p + 1 >= a {
            let pp = p + 1 - a;
            for qq in 0..c {
                let d = qq + r - 1 - pp;
                diag[d].insert(values[pp * c + qq] as usize);
            }
        }
        progress(obs, p as u64 + 1, rows)?;
    }
    Ok(())
}

/// The least v ≥ `start` in none of the bitsets (`row` and `sets`) nor `extra`.
fn mex_of(row: &[u64], sets: &[&[u64]], start: usize, extra: &mut [usize], words: usize) -> usize {
    extra.sort_unstable();
    let mut v = start;
    loop {
        let mut w = v / 64;
        // the first value ≥ v in no bitset
        let found = loop {
            let mut bits = row[w];
            for s in sets {
                bits |= s[w];
            }
            if w == v / 64 {
                bits |= (1u64 << (v % 64)) - 1;
            }
            if bits != u64::MAX {
                break w * 64 + (!bits).trailing_zeros() as usize;
            }
            w += 1;
            assert!(w < words, "a value is at most the number of options");
        };
        if extra.binary_search(&found).is_err() {
            return found;
        }
        v = found + 1;
    }
}

/// The P-positions (p, q) of [0, n]² with p ≤ q when the P-positions of the square are
/// symmetric (every one otherwise), from the Grundy square.
///
/// # Errors
/// As [`grundy_rect`].
pub fn p_pairs_by_table(
    game: &PairGame,
    n: u64,
    obs: &dyn Observer,
) -> Result<Vec<(u64, u64)>, BeyondError> {
    let sq = grundy_rect(game, n.saturating_add(1), n.saturating_add(1), obs)?;
    // a rule's symmetry is read off its square: listing p ≤ q is then complete
    let sym = game.symmetric()
        || (0..=n).all(|p| (p + 1..=n).all(|q| (sq.get(p, q) == 0) == (sq.get(q, p) == 0)));
    let mut out = vec![];
    for p in 0..=n {
        for q in if sym { p } else { 0 }..=n {
            if sq.get(p, q) == 0 {
                out.push((p, q));
            }
        }
    }
    Ok(out)
}

/// Grundy values by the definition: each cell the mex of its options' values, the options
/// enumerated one by one from the rule (for tests). The table is kept row-major, by
/// column and by diagonal, so that each kind of move reads memory in order.
pub fn grundy_by_definition(game: &PairGame, n: u64) -> Vec<u32> {
    let side = n as usize + 1;
    let mut g = vec![0u32; side * side];
    let mut by_col = vec![0u32; side * side];
    // diagonal d = q − p + n, position p
    let mut by_diag = vec![0u32; (2 * side) * side];
    let mut stamp = vec![u32::MAX; 8 * side + 8];
    for p in 0..side {
        for q in 0..side {
            let id = (p * side + q) as u32;
            let mut mark = |v: u32| {
                if (v as usize) < stamp.len() {
                    stamp[v as usize] = id;
                }
            };
            match game {
                PairGame::Vectors(_) | PairGame::Rule(_) => {
                    for (x, y) in game.options(p as u64, q as u64) {
                        mark(g[x as usize * side + y as usize]);
                    }
                }
                PairGame::Wythoff { a } => {
                    // one heap: (x, q) for x < p, (p, y) for y < q
                    g[p * side..p * side + q].iter().for_each(|&v| mark(v));
                    by_col[q * side..q * side + p].iter().for_each(|&v| mark(v));
                    // both heaps: (p − x, q − y), x, y ≥ 1, y − x = δ with |δ| < a
                    let a = (*a as i64).min(2 * side as i64);
                    for delta in (1 - a)..a {
                        for x in 1..=p as i64 {
                            let y = x + delta;
                            if y < 1 || y > q as i64 {
                                continue;
                            }
                            let (pp, qq) = ((p as i64 - x) as usize, (q as i64 - y) as usize);
                            mark(by_diag[(qq + side - 1 - pp) * side + pp]);
                        }
                    }
                }
            }
            let v = stamp
                .iter()
                .position(|&s| s != id)
                .expect("stamps outnumber options") as u32;
            g[p * side + q] = v;
            by_col[q * side + p] = v;
            by_diag[(q + side - 1 - p) * side + p] = v;
        }
    }
    g
}
