//! Score games on a row of piles ("stone games"): two players alternate taking piles and the
//! larger total wins. Exact solvers by dynamic programming over the remaining row, with one
//! optimal line of play.
//!
//! - Stone Game I: take the first or the last pile. O(n²) interval DP
//!   (margin(i..j) = max(a_i - margin(i+1..j), a_j - margin(i..j-1))).
//! - Stone Game II: take all of the first X remaining piles, 1 <= X <= 2M, then
//!   M = max(M, X), M starting at 1. O(n³) DP over (first pile, M) on suffix sums.
//! - Stone Game III: take 1, 2 or 3 piles from the front (values may be negative). O(n) DP.

use serde::Serialize;
use thiserror::Error;

/// The three rule sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Variant {
    /// First or last pile.
    I,
    /// First X piles with the doubling bound M.
    II,
    /// One to three piles from the front.
    III,
}

impl Variant {
    /// From 1, 2 or 3.
    pub fn from_number(v: u8) -> Option<Variant> {
        match v {
            1 => Some(Variant::I),
            2 => Some(Variant::II),
            3 => Some(Variant::III),
            _ => None,
        }
    }
    /// 1, 2 or 3.
    pub fn number(self) -> u8 {
        match self {
            Variant::I => 1,
            Variant::II => 2,
            Variant::III => 3,
        }
    }
    /// "I", "II" or "III".
    pub fn roman(self) -> &'static str {
        match self {
            Variant::I => "I",
            Variant::II => "II",
            Variant::III => "III",
        }
    }
}

/// Who wins with best play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    /// The player who moves first (Alice).
    First,
    /// The other player (Bob).
    Second,
    /// Equal totals.
    Tie,
}

impl Winner {
    /// `first`, `second` or `tie`.
    pub fn name(self) -> &'static str {
        match self {
            Winner::First => "first",
            Winner::Second => "second",
            Winner::Tie => "tie",
        }
    }
    fn of_margin(m: i64) -> Winner {
        match m.signum() {
            1 => Winner::First,
            -1 => Winner::Second,
            _ => Winner::Tie,
        }
    }
}

/// One move of a line of play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StoneMove {
    /// 1 for the first player, 2 for the second.
    pub player: u8,
    /// What was taken: `first`/`last` (I), or the number of piles from the front (II, III).
    pub took: String,
    /// The values taken.
    pub values: Vec<i64>,
}

/// The value of a row under best play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StoneResult {
    /// The first player's total.
    pub first_total: i64,
    /// The second player's total.
    pub second_total: i64,
    /// first_total - second_total.
    pub margin: i64,
    /// The winner.
    pub winner: Winner,
}

/// Why a row cannot be solved.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StoneError {
    /// No piles.
    #[error("the row of piles is empty")]
    Empty,
    /// Totals would leave 64 bits.
    #[error("pile values are too large: their sizes must add up to less than 2^61, so that totals and margins fit in 64 bits")]
    Overflow,
    /// More piles than the variant's algorithm handles in seconds: Stone Game I is
    /// O(n^2) time (and O(n^2) memory for a line of play), Stone Game II O(n^3) time and
    /// O(n^2) memory.
    #[error("Stone Game {variant} takes at most {limit} piles here ({what}); this row has {len}")]
    TooMany {
        /// "I" or "II".
        variant: &'static str,
        /// The cap for this request.
        limit: usize,
        /// Why.
        what: &'static str,
        /// Piles given.
        len: usize,
    },
}

/// The most piles [`solve`] accepts: (variant I, I with a line of play, II). Chosen so a
/// solve stays within seconds and a few hundred MB (I: n^2/2 steps, 8·n^2/2 bytes with a
/// line; II: about n^3/12 steps, 8·n^2 bytes).
pub const MAX_PILES: (usize, usize, usize) = (50_000, 10_000, 3_000);

/// The most piles [`solve`] takes for `variant` (with a line of play when `line`), and why;
/// `None` when any row that fits in memory is fine (Stone Game III is linear).
pub fn pile_cap(variant: Variant, line: bool) -> Option<(usize, &'static str)> {
    match variant {
        Variant::I if line => Some((MAX_PILES.1, "a line of play keeps n^2 margins")),
        Variant::I => Some((MAX_PILES.0, "O(n^2) time")),
        Variant::II => Some((MAX_PILES.2, "O(n^3) time")),
        Variant::III => None,
    }
}

fn check(piles: &[i64]) -> Result<i64, StoneError> {
    if piles.is_empty() {
        return Err(StoneError::Empty);
    }
    // Every total and margin is at most the sum of |pile| in size: keep that far inside
    // i64 (i128 so that |i64::MIN| itself cannot wrap).
    let size: i128 = piles.iter().map(|&x| i128::from(x).abs()).sum();
    if size >= i128::from(i64::MAX / 4) {
        return Err(StoneError::Overflow);
    }
    Ok(piles.iter().sum())
}

fn result(sum: i64, margin: i64) -> StoneResult {
    StoneResult {
        first_total: (sum + margin) / 2,
        second_total: (sum - margin) / 2,
        margin,
        winner: Winner::of_margin(margin),
    }
}

/// Solves a row; with `line`, also returns one optimal line of play.
///
/// # Errors
/// [`StoneError`] for an empty row or values whose totals leave 64 bits.
pub fn solve(
    variant: Variant,
    piles: &[i64],
    line: bool,
) -> Result<(StoneResult, Vec<StoneMove>), StoneError> {
    let sum = check(piles)?;
    within_cap(variant, piles.len(), pile_cap(variant, line))?;
    Ok(match variant {
        Variant::I => game1(piles, sum, line),
        Variant::II => game2(piles, sum, line),
        Variant::III => game3(piles, sum, line),
    })
}

/// Refuses a row of `len` piles beyond `cap` (the most piles, and why).
fn within_cap(
    variant: Variant,
    len: usize,
    cap: Option<(usize, &'static str)>,
) -> Result<(), StoneError> {
    match cap {
        Some((limit, what)) if len > limit => Err(StoneError::TooMany {
            variant: variant.roman(),
            limit,
            what,
            len,
        }),
        _ => Ok(()),
    }
}

fn game1(a: &[i64], sum: i64, line: bool) -> (StoneResult, Vec<StoneMove>) {
    let n = a.len();
    // m[len][i]: margin of the mover on a[i..i+len]; rolling rows of increasing length.
    let mut rows: Vec<Vec<i64>> = Vec::with_capacity(if line { n + 1 } else { 2 });
    let mut prev = vec![0i64; n + 1]; // length 0
    if line {
        rows.push(prev.clone());
    }
    for len in 1..=n {
        let mut cur = vec![0i64; n + 1 - len];
        for i in 0..=n - len {
            let j = i + len - 1;
            let take_first = a[i] - prev[i + 1];
            let take_last = a[j] - prev[i];
            cur[i] = take_first.max(take_last);
        }
        if line {
            rows.push(cur.clone());
        }
        prev = cur;
    }
    let margin = prev[0];
    let moves = if line {
        line_ends(a, |i, j, _| a[i] - rows[j - i - 1][i + 1] == rows[j - i][i])
    } else {
        vec![]
    };
    (result(sum, margin), moves)
}

/// A line of play of Stone Game I: `first(i, j, player)` says whether `player` (1 or 2)
/// takes the first pile of a[i..j] (else the last).
fn line_ends(a: &[i64], first: impl Fn(usize, usize, u8) -> bool) -> Vec<StoneMove> {
    let (mut i, mut j, mut player) = (0usize, a.len(), 1u8);
    let mut moves = vec![];
    while i < j {
        let (took, v) = if first(i, j, player) {
            i += 1;
            ("first", a[i - 1])
        } else {
            j -= 1;
            ("last", a[j])
        };
        moves.push(StoneMove {
            player,
            took: took.into(),
            values: vec![v],
        });
        player = 3 - player;
    }
    moves
}

/// A line of play of Stone Games II and III: `count(i, m, player)` is how many piles
/// `player` takes from the front of a[i..] with bound M = m (II; III ignores it), after
/// which M = max(M, count).
fn line_front(a: &[i64], count: impl Fn(usize, usize, u8) -> usize) -> Vec<StoneMove> {
    let (mut i, mut m, mut player) = (0usize, 1usize, 1u8);
    let mut moves = vec![];
    while i < a.len() {
        let x = count(i, m, player).clamp(1, a.len() - i);
        moves.push(StoneMove {
            player,
            took: x.to_string(),
            values: a[i..i + x].to_vec(),
        });
        i += x;
        m = m.max(x);
        player = 3 - player;
    }
    moves
}

/// s[i] = a[i] + … + a[n - 1], with s[n] = 0.
fn suffix_sums(a: &[i64]) -> Vec<i64> {
    let mut suffix = vec![0i64; a.len() + 1];
    for i in (0..a.len()).rev() {
        suffix[i] = suffix[i + 1] + a[i];
    }
    suffix
}

fn game2(a: &[i64], sum: i64, line: bool) -> (StoneResult, Vec<StoneMove>) {
    let n = a.len();
    let suffix = suffix_sums(a);
    // Once 2M >= piles left, every pile can be taken and a larger M changes nothing: M is
    // clamped to cap(i) = ceil((n - i) / 2) (at least 1), which cuts the work to about
    // n^3/12 steps. best[m * (n + 1) + i]: the mover's largest total from piles i.. with
    // bound M = m; laid out by m so that the moves x <= m read one row contiguously.
    let cap = |i: usize| (n - i).div_ceil(2).max(1);
    let w = n + 1;
    let mut best = vec![0i64; w * (cap(0) + 1)];
    let get = |best: &[i64], m: usize, i: usize| best[m.min(cap(i)) * w + i];
    for i in (0..n).rev() {
        for m in 1..=cap(i) {
            let mut b = i64::MIN;
            for x in 1..=(2 * m).min(n - i) {
                b = b.max(suffix[i] - get(&best, m.max(x), i + x));
            }
            best[m * w + i] = b;
        }
    }
    let first = get(&best, 1, 0);
    let moves = if line {
        line_front(a, |i, m, _| {
            (1..=(2 * m).min(n - i))
                .find(|&x| suffix[i] - get(&best, m.max(x), i + x) == get(&best, m, i))
                .unwrap_or(1)
        })
    } else {
        vec![]
    };
    (result(sum, 2 * first - sum), moves)
}

fn game3(a: &[i64], sum: i64, line: bool) -> (StoneResult, Vec<StoneMove>) {
    let n = a.len();
    // dp[i]: the mover's margin on a[i..].
    let mut dp = vec![0i64; n + 4];
    for i in (0..n).rev() {
        let mut take = 0i64;
        let mut b = i64::MIN;
        for k in 1..=3 {
            if i + k > n {
                break;
            }
            take += a[i + k - 1];
            b = b.max(take - dp[i + k]);
        }
        dp[i] = b;
    }
    let moves = if line {
        line_front(a, |i, _, _| {
            (1..=3usize.min(n - i))
                .find(|&k| a[i..i + k].iter().sum::<i64>() - dp[i + k] == dp[i])
                .unwrap_or(1)
        })
    } else {
        vec![]
    };
    (result(sum, dp[0]), moves)
}

/// A fixed strategy for the first player, scored against the best reply
/// ([`score_strategy`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    /// Take the most this move can: in I the larger end (the first pile on a tie), in II
    /// and III the number of piles whose sum is largest (the fewest on a tie).
    Greedy,
}

impl Strategy {
    /// The strategy of a name (`greedy`).
    pub fn from_name(name: &str) -> Option<Strategy> {
        match name.to_ascii_lowercase().as_str() {
            "greedy" => Some(Strategy::Greedy),
            _ => None,
        }
    }

    /// What it does in `variant`, in a few words.
    pub fn rule(self, variant: Variant) -> &'static str {
        match variant {
            Variant::I => "takes the larger end; the first pile on a tie",
            Variant::II => "takes the X <= 2M piles with the largest sum; the fewest on a tie",
            Variant::III => "takes the 1 to 3 piles with the largest sum; the fewest on a tie",
        }
    }
}

/// The most piles [`score_strategy`] takes with a line of play in Stone Game I (two
/// triangles of margins are kept: 8·n² bytes).
pub const STRATEGY_LINE_MAX: usize = 5_000;

/// Scores `strategy`, played by the first player, against a second player who answers
/// with the best reply to it (knowing the strategy): the first player's result under the
/// strategy and, with `line`, that line of play (the strategy's moves and the best
/// replies). Compare with [`solve`], best play on both sides: the difference is what the
/// strategy gives away. The same dynamic programs as [`solve`], with the first player's
/// move fixed by the strategy at each state (O(n²) for I, O(n³) for II, O(n) for III).
///
/// # Errors
/// As [`solve`]; a line of play in Stone Game I beyond [`STRATEGY_LINE_MAX`] piles.
pub fn score_strategy(
    variant: Variant,
    piles: &[i64],
    strategy: Strategy,
    line: bool,
) -> Result<(StoneResult, Vec<StoneMove>), StoneError> {
    let sum = check(piles)?;
    let cap = match (variant, line) {
        (Variant::I, true) => Some((
            STRATEGY_LINE_MAX,
            "a scored line of play keeps 2 n^2 margins",
        )),
        _ => pile_cap(variant, false),
    };
    within_cap(variant, piles.len(), cap)?;
    let Strategy::Greedy = strategy;
    Ok(match variant {
        Variant::I => greedy1(piles, sum, line),
        Variant::II => greedy2(piles, sum, line),
        Variant::III => greedy3(piles, sum, line),
    })
}

/// Stone Game I, the first player taking the larger end: s[len][i] is the strategist's
/// margin on a[i..i+len] with the strategist to move, r[len][i] with the replier to move
/// (who minimises it).
fn greedy1(a: &[i64], sum: i64, line: bool) -> (StoneResult, Vec<StoneMove>) {
    let n = a.len();
    let mut s_rows: Vec<Vec<i64>> = vec![];
    let mut r_rows: Vec<Vec<i64>> = vec![];
    let (mut s_prev, mut r_prev) = (vec![0i64; n + 1], vec![0i64; n + 1]);
    if line {
        s_rows.push(s_prev.clone());
        r_rows.push(r_prev.clone());
    }
    for len in 1..=n {
        let (mut s_cur, mut r_cur) = (vec![0i64; n + 1 - len], vec![0i64; n + 1 - len]);
        for i in 0..=n - len {
            let j = i + len - 1;
            s_cur[i] = if a[i] >= a[j] {
                a[i] + r_prev[i + 1]
            } else {
                a[j] + r_prev[i]
            };
            r_cur[i] = (s_prev[i + 1] - a[i]).min(s_prev[i] - a[j]);
        }
        if line {
            s_rows.push(s_cur.clone());
            r_rows.push(r_cur.clone());
        }
        s_prev = s_cur;
        r_prev = r_cur;
    }
    let margin = s_prev[0];
    let moves = if line {
        line_ends(a, |i, j, player| match player {
            1 => a[i] >= a[j - 1],
            _ => s_rows[j - i - 1][i + 1] - a[i] == r_rows[j - i][i],
        })
    } else {
        vec![]
    };
    (result(sum, margin), moves)
}

/// Stone Game II, the first player taking the X <= 2M piles of largest sum: the
/// strategist's own total from piles i.. with bound M (s when the strategist moves, r when
/// the replier does, who minimises it); M clamped as in [`solve`].
fn greedy2(a: &[i64], sum: i64, line: bool) -> (StoneResult, Vec<StoneMove>) {
    let n = a.len();
    let suffix = suffix_sums(a);
    let cap = |i: usize| (n - i).div_ceil(2).max(1);
    let w = n + 1;
    let mut s = vec![0i64; w * (cap(0) + 1)];
    let mut r = vec![0i64; w * (cap(0) + 1)];
    let get = |t: &[i64], m: usize, i: usize| t[m.min(cap(i)) * w + i];
    // the greedy X from piles i with bound m
    let pick = |i: usize, m: usize| {
        (1..=(2 * m).min(n - i))
            .max_by_key(|&x| (suffix[i] - suffix[i + x], std::cmp::Reverse(x)))
            .unwrap_or(1)
    };
    for i in (0..n).rev() {
        for m in 1..=cap(i) {
            let x = pick(i, m);
            s[m * w + i] = suffix[i] - suffix[i + x] + get(&r, m.max(x), i + x);
            r[m * w + i] = (1..=(2 * m).min(n - i))
                .map(|x| get(&s, m.max(x), i + x))
                .min()
                .unwrap_or(0);
        }
    }
    let own = get(&s, 1, 0);
    let moves = if line {
        line_front(a, |i, m, player| match player {
            1 => pick(i, m),
            _ => (1..=(2 * m).min(n - i))
                .find(|&x| get(&s, m.max(x), i + x) == get(&r, m, i))
                .unwrap_or(1),
        })
    } else {
        vec![]
    };
    (result(sum, 2 * own - sum), moves)
}

/// Stone Game III, the first player taking the 1 to 3 piles of largest sum: margins of the
/// strategist on a[i..] (s: strategist to move; r: replier to move, who minimises).
fn greedy3(a: &[i64], sum: i64, line: bool) -> (StoneResult, Vec<StoneMove>) {
    let n = a.len();
    let (mut s, mut r) = (vec![0i64; n + 4], vec![0i64; n + 4]);
    let pick = |i: usize| {
        (1..=3usize.min(n - i))
            .max_by_key(|&k| (a[i..i + k].iter().sum::<i64>(), std::cmp::Reverse(k)))
            .unwrap_or(1)
    };
    for i in (0..n).rev() {
        let k = pick(i);
        s[i] = a[i..i + k].iter().sum::<i64>() + r[i + k];
        r[i] = (1..=3usize.min(n - i))
            .map(|k| s[i + k] - a[i..i + k].iter().sum::<i64>())
            .min()
            .unwrap_or(0);
    }
    let moves = if line {
        line_front(a, |i, _, player| match player {
            1 => pick(i),
            _ => (1..=3usize.min(n - i))
                .find(|&k| s[i + k] - a[i..i + k].iter().sum::<i64>() == r[i])
                .unwrap_or(1),
        })
    } else {
        vec![]
    };
    (result(sum, s[0]), moves)
}

/// The rows a stone-game check runs over, each with an index: every row of the lengths in
/// turn (each length's rows in lexicographic order of values, so the first failing index is
/// the smallest counterexample), or a number of random rows from a seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoneRows {
    lens: (usize, usize),
    values: (i64, i64),
    random: Option<(u64, u64)>,
    total: u64,
}

/// Why a set of rows cannot be enumerated.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum RowsError {
    /// Lengths or values that give no row.
    #[error("{what} range {lo}..{hi} is empty")]
    Empty {
        /// "--len" or "--values".
        what: &'static str,
        /// Its start.
        lo: i64,
        /// Its end.
        hi: i64,
    },
    /// A row length of 0.
    #[error("row lengths must be at least 1")]
    ZeroLength,
    /// Values beyond ±2^40 (sums of a million piles must stay far inside 64 bits).
    #[error("pile values must lie within -2^40..2^40")]
    ValueRange,
    /// Rows longer than a row in memory may be.
    #[error("rows of {len} piles are longer than the {limit} a row may have")]
    TooLong {
        /// The longest row asked for.
        len: usize,
        /// [`StoneRows::MAX_LEN`].
        limit: usize,
    },
    /// Rows whose solving is estimated at more than the budget allows.
    #[error("{rows} rows of up to {longest} piles would take about {} here, more than the {} allowed; use fewer or shorter rows", crate::error::duration(*.seconds), crate::error::duration(*.limit))]
    TooSlow {
        /// Rows.
        rows: u64,
        /// The longest row.
        longest: usize,
        /// Estimated seconds.
        seconds: f64,
        /// Seconds allowed.
        limit: f64,
    },
    /// More rows of one length than can be enumerated.
    #[error("{base}^{len} rows are too many to enumerate; use random rows")]
    TooMany {
        /// Values per pile.
        base: u64,
        /// Row length.
        len: usize,
    },
}

impl StoneRows {
    /// Largest pile value in size.
    const VMAX: i64 = 1 << 40;

    /// The longest row (10^7 piles: 80 MB).
    pub const MAX_LEN: usize = 10_000_000;

    fn check(lens: (usize, usize), values: (i64, i64)) -> Result<(), RowsError> {
        if lens.0 < 1 {
            return Err(RowsError::ZeroLength);
        }
        if lens.1 > Self::MAX_LEN {
            return Err(RowsError::TooLong {
                len: lens.1,
                limit: Self::MAX_LEN,
            });
        }
        if lens.0 > lens.1 {
            return Err(RowsError::Empty {
                what: "--len",
                lo: lens.0 as i64,
                hi: lens.1 as i64,
            });
        }
        if values.0 > values.1 {
            return Err(RowsError::Empty {
                what: "--values",
                lo: values.0,
                hi: values.1,
            });
        }
        if values.0 < -Self::VMAX || values.1 > Self::VMAX {
            return Err(RowsError::ValueRange);
        }
        Ok(())
    }

    /// Every row with a length in `lens` and each pile in `values` (both inclusive), at most
    /// 2^34 rows of each length.
    ///
    /// # Errors
    /// [`RowsError`] naming the problem.
    pub fn all(lens: (usize, usize), values: (i64, i64)) -> Result<StoneRows, RowsError> {
        Self::check(lens, values)?;
        let base = (values.1 - values.0 + 1) as u64;
        let mut total: u64 = 0;
        for len in lens.0..=lens.1 {
            let c = u32::try_from(len)
                .ok()
                .and_then(|l| base.checked_pow(l))
                .filter(|&c| c <= 1 << 34)
                .ok_or(RowsError::TooMany { base, len })?;
            total += c;
        }
        Ok(StoneRows {
            lens,
            values,
            random: None,
            total,
        })
    }

    /// `count` random rows (length and piles uniform in the ranges) from `seed`: row i is
    /// the same for the same seed on every machine.
    ///
    /// # Errors
    /// [`RowsError`] for empty or out-of-range ranges.
    pub fn random(
        count: u64,
        seed: u64,
        lens: (usize, usize),
        values: (i64, i64),
    ) -> Result<StoneRows, RowsError> {
        Self::check(lens, values)?;
        Ok(StoneRows {
            lens,
            values,
            random: Some((count, seed)),
            total: count,
        })
    }

    /// Number of rows.
    pub fn len(&self) -> u64 {
        self.total
    }

    /// True when there is no row.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The longest row.
    pub fn longest(&self) -> usize {
        self.lens.1
    }

    /// Estimated seconds to solve and check every row of `variant` here: rows times the
    /// solver's steps for the longest (I n²/2, II n³/12, III n) at about 1e9 a second, plus
    /// about 1 µs a row for the row, its frame and the claim (measured about 270 ns a row
    /// of a few piles).
    pub fn seconds(&self, variant: Variant) -> f64 {
        let l = self.lens.1 as f64;
        let per_row = match variant {
            Variant::I => l.powi(2) / 2.0,
            Variant::II => l.powi(3) / 12.0,
            Variant::III => l,
        } + 1000.0;
        self.total as f64 * per_row / 1e9
    }

    /// Row `i` (< [`StoneRows::len`]).
    pub fn row(&self, i: u64) -> Vec<i64> {
        let (l0, l1) = self.lens;
        let (v0, v1) = self.values;
        let base = (v1 - v0 + 1) as u64;
        if let Some((_, seed)) = self.random {
            let mut g = SplitMix(seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let len = l0 + g.below((l1 - l0 + 1) as u64) as usize;
            return (0..len).map(|_| v0 + g.below(base) as i64).collect();
        }
        let mut i = i;
        let mut len = l0;
        loop {
            let c = base.pow(len as u32);
            if i < c {
                break;
            }
            i -= c;
            len += 1;
        }
        let mut row = vec![v0; len];
        for slot in row.iter_mut().rev() {
            *slot = v0 + (i % base) as i64;
            i /= base;
        }
        row
    }
}

/// A tiny deterministic generator (SplitMix64; Steele, Lea and Flood, OOPSLA 2014).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Margin by plain minimax over every line of play (exponential; the reference for tests).
pub fn margin_by_minimax(variant: Variant, piles: &[i64]) -> i64 {
    fn go(v: Variant, a: &[i64], i: usize, j: usize, m: usize) -> i64 {
        if i >= j {
            return 0;
        }
        match v {
            Variant::I => (a[i] - go(v, a, i + 1, j, m)).max(a[j - 1] - go(v, a, i, j - 1, m)),
            Variant::II => (1..=2 * m)
                .filter(|&x| i + x <= j)
                .map(|x| a[i..i + x].iter().sum::<i64>() - go(v, a, i + x, j, m.max(x)))
                .max()
                .unwrap(),
            Variant::III => (1..=3)
                .filter(|&k| i + k <= j)
                .map(|k| a[i..i + k].iter().sum::<i64>() - go(v, a, i + k, j, m))
                .max()
                .unwrap(),
        }
    }
    go(variant, piles, 0, piles.len(), 1)
}

#[cfg(test)]
mod tests;
