//! Loopy one-heap games, whose moves may grow the heap: outcomes win, loss or draw by
//! retrograde analysis on a window [0, W].
//!
//! Soundness (the argument the output states): a position is a loss when every option is
//! a known win, a win when some option is a known loss — both by induction on the length
//! of the forced win, whatever lies beyond W, since an option beyond W is never known.
//! The positions left undecided that cannot reach beyond W through undecided positions
//! form a set D where every option of a position of D is in D or a known win, and each
//! has an option in D (else it would be a loss): from D the player to move can always
//! stay in D and any other move hands the opponent a win, so every position of D is a
//! draw. An undecided position that can reach beyond W is reported as unknown, and the
//! window grows until no position asked for is unknown (or the limit is reached:
//! refused, naming the positions).

use super::BeyondError;
use crate::num::{is_prime, isqrt};
use crate::observe::Observer;
use std::ops::ControlFlow;

/// A loopy game on one heap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoopyGame {
    /// Put or take the largest member s ≤ n of a named set: n → n − s or n + s; a heap of
    /// 0 has no move. `squares`: Epstein's Put or Take a Square (OEIS A005240
    /// P-positions, A005241 N-positions; Winning Ways ch. 15 / Guy, Unsolved Problems in
    /// Number Theory E26); `triangular`: Norton's Tribulations (A006019, A266726).
    PutOrTake(PutSet),
    /// Add one or divide by a prime factor: n → n + 1, or n → n/p for a prime p | n;
    /// the player who reaches 1 wins, so 1 has no move (OEIS A362416 lists the
    /// P-positions). Positions are n ≥ 1.
    AddOrDivide,
    /// Your own rule (`loopy{C; PRED}`): n → n − k for k ≠ 0, −C ≤ k ≤ n, when the
    /// predicate over n and k holds (k < 0 adds −k tokens; C, the most a move adds, is
    /// what makes the moves of a heap finite and the analysis possible).
    Rule {
        /// The most tokens a move may add.
        add: u64,
        /// The predicate over n and k.
        pred: std::sync::Arc<crate::MovePredicate>,
    },
}

/// The sets of [`LoopyGame::PutOrTake`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PutSet {
    /// 1, 4, 9, 16, …
    Squares,
    /// 1, 3, 6, 10, …
    Triangular,
}

/// The outcome of a loopy position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Loopy {
    /// The player to move wins (N-position).
    Win,
    /// The player to move loses (P-position).
    Loss,
    /// Neither player can force a win.
    Draw,
    /// Depends on positions beyond the window.
    Unknown,
}

impl Loopy {
    /// `win`, `loss`, `draw`, `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Loopy::Win => "win",
            Loopy::Loss => "loss",
            Loopy::Draw => "draw",
            Loopy::Unknown => "unknown",
        }
    }
}

/// Largest window of a loopy analysis: 2^26 positions, about 3.5 GB (some 50 bytes a
/// position: the moves both ways and the labels).
pub const MAX_WINDOW: u64 = 1 << 26;

impl LoopyGame {
    /// The spec, as `heaplab` prints it.
    pub fn spec(&self) -> String {
        match self {
            LoopyGame::PutOrTake(PutSet::Squares) => "put-or-take{squares}".into(),
            LoopyGame::PutOrTake(PutSet::Triangular) => "put-or-take{triangular}".into(),
            LoopyGame::AddOrDivide => "add-or-divide".into(),
            LoopyGame::Rule { add, pred } => format!("loopy{{{add}; {}}}", pred.text()),
        }
    }

    /// The largest window for this game: a rule's moves are evaluated amount by amount
    /// (about W²/2 evaluations, some 10^7 a second), so its window stops at 2^14.
    pub fn max_window(&self) -> u64 {
        match self {
            LoopyGame::Rule { .. } => 1 << 14,
            _ => MAX_WINDOW,
        }
    }

    /// The first position (1 for add-or-divide, else 0).
    pub fn first(&self) -> u64 {
        match self {
            LoopyGame::AddOrDivide => 1,
            LoopyGame::PutOrTake(_) | LoopyGame::Rule { .. } => 0,
        }
    }

    /// The options of n (none beyond u64).
    pub fn options(&self, n: u64) -> Vec<u64> {
        match self {
            LoopyGame::Rule { add, pred } => {
                let mut v: Vec<u64> = pred.moves(n).into_iter().map(|k| n - k).collect();
                v.extend(
                    pred.added(n, *add)
                        .into_iter()
                        .filter_map(|a| n.checked_add(a)),
                );
                v
            }
            LoopyGame::PutOrTake(set) => {
                if n == 0 {
                    return vec![];
                }
                let s = match set {
                    PutSet::Squares => {
                        let r = isqrt(n);
                        r * r
                    }
                    PutSet::Triangular => {
                        // largest t = k(k+1)/2 ≤ n, in u128 (no overflow near 2^64)
                        let n = n as u128;
                        let mut k = (((8.0 * n as f64 + 1.0).sqrt() - 1.0) / 2.0) as u128;
                        while k * (k + 1) / 2 > n {
                            k -= 1;
                        }
                        while (k + 1) * (k + 2) / 2 <= n {
                            k += 1;
                        }
                        (k * (k + 1) / 2) as u64
                    }
                };
                let mut v = vec![n - s];
                if let Some(up) = n.checked_add(s) {
                    v.push(up);
                }
                v
            }
            LoopyGame::AddOrDivide => {
                if n <= 1 {
                    return vec![];
                }
                let mut v = vec![];
                if let Some(up) = n.checked_add(1) {
                    v.push(up);
                }
                for (p, _) in crate::num::factorize(n) {
                    debug_assert!(is_prime(p));
                    v.push(n / p);
                }
                v
            }
        }
    }
}

/// Outcomes of positions first..=n, certified on the window [0, window].
#[derive(Debug, Clone)]
pub struct LoopyTable {
    /// The game.
    pub game: LoopyGame,
    /// The outcomes of positions 0..=n (positions below the game's first are `Unknown`
    /// and not part of the answer).
    pub outcomes: Vec<Loopy>,
    /// The window the analysis ran on.
    pub window: u64,
}

/// Outcomes of positions 0..=n: retrograde analysis on [0, W], W from 4n (at least 1024)
/// doubling until the positions ≤ n left undecided are the same on two windows in a row,
/// the larger at least max(16n, 2^22) (or until the window reaches `max_window`). Wins, losses and draws are certified whatever W
/// (see the module's argument); [`Loopy::Unknown`] positions are draws on every window
/// tried whose moves reach beyond it — no sound bound is known for them, and they are
/// never reported as draws.
///
/// # Errors
/// [`BeyondError::TooLarge`] when 4n passes the window limit; [`BeyondError::Cancelled`].
pub fn loopy_outcomes(
    game: LoopyGame,
    n: u64,
    max_window: u64,
    obs: &dyn Observer,
) -> Result<LoopyTable, BeyondError> {
    let limit = max_window.min(game.max_window());
    if n > limit / 4 {
        return Err(BeyondError::TooLarge(format!(
            "{} to {n}: the window starts at 4N and may take at most {limit} positions here",
            game.spec()
        )));
    }
    let mut w = (4 * n).max(1024).min(limit);
    let mut before: Option<Vec<u64>> = None;
    loop {
        let mut out = on_window(&game, w, obs)?;
        out.truncate(n as usize + 1);
        let unknown: Vec<u64> = (game.first()..=n)
            .filter(|&i| out[i as usize] == Loopy::Unknown)
            .collect();
        // windows below 16n (and 2^22) are not trusted to have settled: forced wins in
        // these games can climb far above the heap (Tribulations' 52 needs about 10^6)
        let floor = match game {
            LoopyGame::Rule { .. } => 16 * n,
            _ => (16 * n).max(1 << 22),
        };
        let settled = before.as_ref() == Some(&unknown) && w >= floor.min(limit);
        if unknown.is_empty() || settled || w >= limit {
            return Ok(LoopyTable {
                game,
                outcomes: out,
                window: w,
            });
        }
        before = Some(unknown);
        w = (w * 2).min(limit);
    }
}

impl LoopyTable {
    /// Positions ≤ n still unknown.
    pub fn unknown(&self) -> usize {
        self.outcomes[self.game.first() as usize..]
            .iter()
            .filter(|&&o| o == Loopy::Unknown)
            .count()
    }

    /// The soundness statement printed with every answer.
    pub fn statement(&self) -> String {
        let u = self.unknown();
        let mut s = format!(
            "retrograde analysis on the window [0, {}]: every win and loss is forced within it, \
             and every draw is a set of undecided positions none of whose moves leaves it \
             except to a win",
            self.window
        );
        if u > 0 {
            s.push_str(&format!(
                "; positions left undecided: {u} (a draw on this window and on the one half \
                 its size, but their moves reach beyond every window: no sound bound is known, \
                 so they are not called draws)"
            ));
        }
        s
    }
}

/// Retrograde analysis on [0, w]: wins and losses certified, draws certified, the rest
/// unknown.
fn on_window(game: &LoopyGame, w: u64, obs: &dyn Observer) -> Result<Vec<Loopy>, BeyondError> {
    let size = w as usize + 1;
    // options inside the window as a CSR list; `left[v]`: options not yet known wins
    // (options beyond the window never become known)
    let mut start = Vec::with_capacity(size + 1);
    let mut targets: Vec<u32> = Vec::with_capacity(size * 2);
    let mut left = vec![0u32; size];
    let mut escapes = vec![false; size];
    start.push(0u64);
    for v in 0..size {
        let opts = if (v as u64) < game.first() {
            vec![]
        } else {
            game.options(v as u64)
        };
        left[v] = opts.len() as u32;
        for o in opts {
            if o <= w {
                targets.push(o as u32);
            } else {
                escapes[v] = true;
            }
        }
        start.push(targets.len() as u64);
        if v % (1 << 20) == 0 {
            if let ControlFlow::Break(()) = obs.observe(v as u64, 2 * size as u64) {
                return Err(BeyondError::Cancelled);
            }
        }
    }
    // predecessors (reverse CSR)
    let mut pstart = vec![0u64; size + 1];
    for &t in &targets {
        pstart[t as usize + 1] += 1;
    }
    for i in 0..size {
        pstart[i + 1] += pstart[i];
    }
    let mut fill = pstart.clone();
    let mut preds = vec![0u32; targets.len()];
    for v in 0..size {
        for &t in &targets[start[v] as usize..start[v + 1] as usize] {
            preds[fill[t as usize] as usize] = v as u32;
            fill[t as usize] += 1;
        }
    }
    drop(fill);
    let mut out = vec![Loopy::Unknown; size];
    let mut queue: Vec<u32> = vec![];
    for v in game.first() as usize..size {
        if left[v] == 0 {
            out[v] = Loopy::Loss;
            queue.push(v as u32);
        }
    }
    while let Some(u) = queue.pop() {
        let u = u as usize;
        let lost = out[u] == Loopy::Loss;
        for &p in &preds[pstart[u] as usize..pstart[u + 1] as usize] {
            let p = p as usize;
            if out[p] != Loopy::Unknown {
                continue;
            }
            if lost {
                out[p] = Loopy::Win;
                queue.push(p as u32);
            } else {
                left[p] -= 1;
                if left[p] == 0 {
                    out[p] = Loopy::Loss;
                    queue.push(p as u32);
                }
            }
        }
    }
    // undecided positions that reach beyond the window through undecided positions stay
    // unknown; the others are draws
    let mut reach: Vec<u32> = (0..size)
        .filter(|&v| out[v] == Loopy::Unknown && escapes[v])
        .map(|v| v as u32)
        .collect();
    let mut marked = vec![false; size];
    for &v in &reach {
        marked[v as usize] = true;
    }
    while let Some(u) = reach.pop() {
        let u = u as usize;
        for &p in &preds[pstart[u] as usize..pstart[u + 1] as usize] {
            let p = p as usize;
            if out[p] == Loopy::Unknown && !marked[p] {
                marked[p] = true;
                reach.push(p as u32);
            }
        }
    }
    for v in game.first() as usize..size {
        if out[v] == Loopy::Unknown && !marked[v] {
            out[v] = Loopy::Draw;
        }
    }
    Ok(out)
}
