//! P-position streams: every family's fastest way to list its P-positions in increasing
//! order, one segment at a time, with a resumable state. [`p_stream`] picks the engine;
//! [`outcome_table`] collects a stream into a bit table.
//!
//! | family | engine | memory |
//! |---|---|---|
//! | finite set, largest move k | push sieve over a sliding window | O(k + segment) bits |
//! | infinite sets and unions | [`crate::sieve::SetSieve`] | 12 bytes per P-position |
//! | all-but sets | every P-position is 0, (1,) or q + e for e excluded: finite list | O(excluded²) |
//! | divisors | pull over divisor lists of each segment | N / 8 bytes (one bit per position) |
//! | interval games | jump-ahead ([`crate::interval`]) | O(1) |
//! | take-and-break | zeros of the Grundy table | the Grundy table |

use crate::grundy::{grundy_table, BuildError};
use crate::interval::IntervalGame;
use crate::num::isqrt;
use crate::sets::{MoveSet, NamedSet};
use crate::sieve::{
    ListMoves, SetSieve, SieveState, SquareMoves, DEFAULT_SEGMENT_BITS, MAX_SIEVE_N,
};
use crate::spec::Game;
use crate::table::OutcomeTable;
use bitvec::prelude::*;
use serde::{Deserialize, Serialize};

/// Saved state of any stream, for checkpoints (serde-serialisable; the caller stores it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum StreamState {
    /// [`SetSieve`].
    Sieve(SieveState),
    /// Finite-set window: positions below `lo` decided; `marks` covers lo..lo+len(marks)*64.
    Window {
        /// First undecided position.
        lo: u64,
        /// Pending marks from P-positions already found (bit i = position lo + i).
        marks: Vec<u64>,
        /// P-positions emitted so far.
        count: u64,
    },
    /// Divisor pull: positions below `lo` decided, `win` holds their outcome bits.
    Divisors {
        /// First undecided position.
        lo: u64,
        /// Outcome bits 0..lo (set = N-position), as words.
        win: Vec<u64>,
        /// P-positions so far.
        count: u64,
    },
    /// Precomputed list (all-but sets, take-and-break): index of the next one to emit.
    List {
        /// Index into the list.
        next: u64,
    },
    /// Jump-ahead: the last P-position emitted (None before 0).
    Jump {
        /// Last P-position emitted.
        last: Option<u64>,
        /// Number emitted.
        count: u64,
    },
}

/// A P-position engine: decides positions in increasing order, one segment per call.
pub trait PStream: Send {
    /// Every position below this is decided and its P-positions were emitted.
    fn done(&self) -> u64;
    /// Decides the next segment, appending its P-positions (increasing) to `out`. Returns
    /// false once every position up to N is decided.
    fn advance(&mut self, out: &mut Vec<u64>) -> bool;
    /// The state to save for a checkpoint.
    fn state(&self) -> StreamState;
    /// Number of P-positions emitted so far.
    fn count(&self) -> u64;
    /// Short name of the method, for reports (`sieve`, `window`, `jump-ahead`, …).
    fn method(&self) -> &'static str;
}

struct SieveStream<M: crate::sieve::Moves>(SetSieve<M>);

impl<M: crate::sieve::Moves> PStream for SieveStream<M> {
    fn done(&self) -> u64 {
        self.0.done()
    }
    fn advance(&mut self, out: &mut Vec<u64>) -> bool {
        self.0.advance(out)
    }
    fn state(&self) -> StreamState {
        StreamState::Sieve(self.0.state().clone())
    }
    fn count(&self) -> u64 {
        self.0.count()
    }
    fn method(&self) -> &'static str {
        "segmented sieve"
    }
}

/// Segment length (bits) of the squares sieve up to `max`: about 128·√max rounded up to a
/// power of two, between 2^19 and 2^22. Eight successive squares near max span 16·√max, so
/// the old-marks kernel's groups of moves keep a shared window core (one read, eight marks)
/// when the segment is several spans long; beyond 2^22 bits the segment and the workers'
/// copies leave L2. Measured on 2 cores at N = 1e9: 25.1 s with 2^19, 22.6 s with 2^21,
/// 20.4 s with 2^22, 22.1 s with 2^23.
pub fn square_segment_bits(max: u64) -> u64 {
    (128 * crate::num::isqrt(max))
        .next_power_of_two()
        .clamp(DEFAULT_SEGMENT_BITS, 1 << 22)
}

/// Finite subtraction set: each P-position p marks p + s for s in S in a buffer that covers
/// the current segment plus the largest move ahead.
struct WindowStream {
    moves: Vec<u64>,
    leave1: bool,
    max: u64,
    seg: u64,
    lo: u64,
    marks: Vec<u64>,
    count: u64,
}

impl WindowStream {
    fn new(mut moves: Vec<u64>, leave1: bool, max: u64) -> WindowStream {
        // moves beyond max never apply (and would size the buffer)
        moves.retain(|&s| s <= max);
        let k = *moves.last().unwrap_or(&1);
        let seg = (DEFAULT_SEGMENT_BITS)
            .max(k.next_power_of_two())
            .min(1 << 26);
        WindowStream {
            moves,
            leave1,
            max,
            seg,
            lo: 0,
            marks: Vec::new(),
            count: 0,
        }
    }
}

impl PStream for WindowStream {
    fn done(&self) -> u64 {
        self.lo
    }
    fn advance(&mut self, out: &mut Vec<u64>) -> bool {
        if self.lo > self.max {
            return false;
        }
        let lo = self.lo;
        let hi = (lo + self.seg).min(self.max + 1);
        let k = self.moves.last().copied().unwrap_or(0);
        // buffer covers lo .. hi + k
        let words = ((hi - lo) + k).div_ceil(64) as usize + 1;
        if self.marks.len() < words {
            self.marks.resize(words, 0);
        }
        let marks = &mut self.marks;
        for off in 0..(hi - lo) as usize {
            if marks[off >> 6] >> (off & 63) & 1 == 0 {
                let p = lo + off as u64;
                out.push(p);
                self.count += 1;
                if self.leave1 && p == 0 {
                    continue;
                }
                for &s in &self.moves {
                    let o = off + s as usize;
                    marks[o >> 6] |= 1 << (o & 63);
                }
            }
        }
        // Shift the pending marks beyond hi to the front.
        let shift = (hi - lo) as usize;
        let (ws, bs) = (shift >> 6, shift & 63);
        let n = marks.len();
        for i in 0..n {
            let a = marks.get(i + ws).copied().unwrap_or(0);
            let b = marks.get(i + ws + 1).copied().unwrap_or(0);
            marks[i] = if bs == 0 {
                a
            } else {
                (a >> bs) | (b << (64 - bs))
            };
        }
        self.lo = hi;
        true
    }
    fn state(&self) -> StreamState {
        StreamState::Window {
            lo: self.lo,
            marks: self.marks.clone(),
            count: self.count,
        }
    }
    fn count(&self) -> u64 {
        self.count
    }
    fn method(&self) -> &'static str {
        "window sieve"
    }
}

/// Divisor games: n is an N-position iff n - d is a P-position for some proper divisor d
/// (d >= 2 for the non-trivial variant). Divisors of a segment are listed by pairs d·m = n
/// with d <= sqrt(n): O(S log N) per segment of S positions.
struct DivisorStream {
    nontrivial: bool,
    max: u64,
    seg: u64,
    lo: u64,
    win: BitVec<u64, Lsb0>,
    count: u64,
}

impl PStream for DivisorStream {
    fn done(&self) -> u64 {
        self.lo
    }
    fn advance(&mut self, out: &mut Vec<u64>) -> bool {
        if self.lo > self.max {
            return false;
        }
        let lo = self.lo;
        let hi = (lo + self.seg).min(self.max + 1);
        let (start, divs) = divisor_lists(lo, hi, self.nontrivial);
        for n in lo..hi {
            let i = (n - lo) as usize;
            let w = divs[start[i] as usize..start[i + 1] as usize]
                .iter()
                .any(|&d| !self.win[(n - d) as usize]);
            self.win.push(w);
            if !w {
                out.push(n);
                self.count += 1;
            }
        }
        self.lo = hi;
        true
    }
    fn state(&self) -> StreamState {
        StreamState::Divisors {
            lo: self.lo,
            win: self.win.as_raw_slice().to_vec(),
            count: self.count,
        }
    }
    fn count(&self) -> u64 {
        self.count
    }
    fn method(&self) -> &'static str {
        "divisor pull"
    }
}

/// Proper divisors of every n in [lo, hi) (d >= 2 when `nontrivial`), as CSR lists: the
/// divisors of n are `divs[start[n - lo]..start[n - lo + 1]]`, unordered. Found by pairs
/// d·m = n with d <= sqrt(n), so a segment of S positions costs O(S log hi + sqrt hi).
pub fn divisor_lists(lo: u64, hi: u64, nontrivial: bool) -> (Vec<u32>, Vec<u64>) {
    let len = (hi - lo) as usize;
    let mut start = vec![0u32; len + 1];
    if hi <= 1 {
        return (start, Vec::new());
    }
    let top = isqrt(hi - 1);
    let first_d = if nontrivial { 2 } else { 1 };
    let each = |f: &mut dyn FnMut(usize, u64)| {
        for d in 1..=top {
            // multiples n = m·d with m >= d (so d <= sqrt n), n in [lo, hi)
            let mut n = lo.div_ceil(d).max(d) * d;
            while n < hi {
                let i = (n - lo) as usize;
                let m = n / d;
                if d >= first_d && d < n {
                    f(i, d);
                }
                if m != d && m >= first_d && m < n {
                    f(i, m);
                }
                n += d;
            }
        }
    };
    each(&mut |i, _| start[i + 1] += 1);
    for i in 0..len {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut divs = vec![0u64; start[len] as usize];
    each(&mut |i, d| {
        divs[fill[i] as usize] = d;
        fill[i] += 1;
    });
    (start, divs)
}

/// A list computed up front (all-but sets, take-and-break games), emitted at once.
struct ListStream {
    list: Vec<u64>,
    max: u64,
    next: usize,
    method: &'static str,
}

impl PStream for ListStream {
    fn done(&self) -> u64 {
        if self.next == self.list.len() {
            self.max.saturating_add(1)
        } else {
            self.list[self.next]
        }
    }
    fn advance(&mut self, out: &mut Vec<u64>) -> bool {
        if self.next == self.list.len() {
            return false;
        }
        out.extend_from_slice(&self.list[self.next..]);
        self.next = self.list.len();
        true
    }
    fn state(&self) -> StreamState {
        StreamState::List {
            next: self.next as u64,
        }
    }
    fn count(&self) -> u64 {
        self.next as u64
    }
    fn method(&self) -> &'static str {
        self.method
    }
}

/// Jump-ahead for interval games: O(1) per P-position.
struct JumpStream {
    game: IntervalGame,
    max: u64,
    last: Option<u64>,
    count: u64,
    finished: bool,
}

impl PStream for JumpStream {
    fn done(&self) -> u64 {
        if self.finished {
            self.max.saturating_add(1)
        } else {
            self.last.map_or(0, |p| p + 1)
        }
    }
    fn advance(&mut self, out: &mut Vec<u64>) -> bool {
        if self.finished {
            return false;
        }
        for _ in 0..(1 << 20) {
            let next = match self.last {
                None => Some(0),
                Some(p) => self.game.next_p(p),
            };
            match next {
                Some(q) if q <= self.max => {
                    out.push(q);
                    self.count += 1;
                    self.last = Some(q);
                }
                _ => {
                    self.finished = true;
                    return true;
                }
            }
        }
        true
    }
    fn state(&self) -> StreamState {
        StreamState::Jump {
            last: self.last,
            count: self.count,
        }
    }
    fn count(&self) -> u64 {
        self.count
    }
    fn method(&self) -> &'static str {
        "jump-ahead"
    }
}

/// P-positions of an all-but game: if q0 is the least reachable P-position (0, or 1 with
/// leave1), every larger P-position n has n - q0 excluded, so candidates are finite.
pub fn all_but_p_positions(excluded: &[u64], leave1: bool) -> Vec<u64> {
    let mut ps: Vec<u64> = vec![0];
    let q0 = if leave1 {
        ps.push(1);
        1
    } else {
        0
    };
    let mut cands: Vec<u64> = excluded.iter().map(|&e| q0 + e).collect();
    cands.sort_unstable();
    cands.dedup();
    for n in cands {
        if n <= q0 {
            continue;
        }
        // n is P iff every P-position q < n that is an option (q >= leave1) has n - q excluded.
        let is_p = ps
            .iter()
            .filter(|&&q| q < n && (!leave1 || q >= 1))
            .all(|&q| excluded.binary_search(&(n - q)).is_ok());
        if is_p {
            ps.push(n);
        }
    }
    ps
}

/// The outcome sequence of a finite subtraction game (largest move k), shown eventually
/// periodic: `win[n]` for n < start + period, and `win(n) = win(start + (n - start) % period)`
/// beyond.
#[derive(Debug, Clone)]
pub struct PeriodicOutcomes {
    /// First position of the periodic part (not necessarily the least such).
    pub start: u64,
    /// The period.
    pub period: u64,
    /// Outcomes 0..start+period (set = N-position).
    pub win: BitVec<u64, Lsb0>,
}

impl PeriodicOutcomes {
    /// Outcome of any position (true = N-position).
    pub fn is_win(&self, n: u64) -> bool {
        let i = if n < self.start + self.period {
            n
        } else {
            self.start + (n - self.start) % self.period
        };
        self.win[i as usize]
    }
}

/// Count and largest P-position in 0..=max, read off a proven outcome period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeriodicCount {
    /// P-positions in 0..=max.
    pub count: u64,
    /// The largest of them (None when there is none).
    pub largest: Option<u64>,
    /// How it was found, for reports.
    pub method: String,
}

/// [`PeriodicCount`] of a game whose P-positions can be counted without listing them:
/// `upto{k}` (an arithmetic progression) and `sqrt` (closed form), O(1) both, and finite
/// subtraction sets with an outcome
/// period (see [`finite_p_count`]). None for every other game.
pub fn closed_p_count(game: &Game, max: u64) -> Option<PeriodicCount> {
    if let Some(ig) = IntervalGame::of(game) {
        let (count, largest) = ig.count_upto(max)?;
        return Some(PeriodicCount {
            count,
            largest: Some(largest),
            method: ig.closed_form().unwrap_or_default().into(),
        });
    }
    finite_p_count(game, max)
}

/// [`PeriodicCount`] of a finite subtraction game (`sub{..}`, `leave1(sub{..})`) whose
/// outcome period shows up within 2^24 positions: O(preperiod + period) time whatever max
/// is. None for other games, or when no period was found.
pub fn finite_p_count(game: &Game, max: u64) -> Option<PeriodicCount> {
    let Game::Subtraction {
        set: MoveSet::Union { named, finite },
        leave1,
    } = game
    else {
        return None;
    };
    if !named.is_empty() || finite.is_empty() {
        return None;
    }
    let po = finite_outcome_period(finite, *leave1, 1 << 24)?;
    let head = (po.start + po.period).min(max.saturating_add(1));
    let lose = |n: u64| !po.win[n as usize];
    let mut count = (0..head).filter(|&n| lose(n)).count() as u64;
    if max >= head {
        // positions head..=max repeat start..start + period from its beginning
        let per = (po.start..po.start + po.period)
            .filter(|&n| lose(n))
            .count() as u64;
        let rest = max - head + 1;
        let part = (po.start..po.start + rest % po.period)
            .filter(|&n| lose(n))
            .count() as u64;
        count += rest / po.period * per + part;
    }
    let largest = (0..=po.start + po.period)
        .map(|d| max.checked_sub(d))
        .take_while(Option::is_some)
        .flatten()
        .find(|&n| !po.is_win(n));
    Some(PeriodicCount {
        count,
        largest,
        method: format!(
            "outcomes proven periodic (period {} from {})",
            po.period, po.start
        ),
    })
}

/// Finds the period of a finite subtraction game's outcomes by Brent's cycle detection on
/// the window of the last k outcomes (which determines every later outcome once all moves
/// are legal): equal windows at m < n prove win(x + n - m) = win(x) for all x >= m - k.
/// Windows are compared by a rolling hash mod 2^61 - 1, then bit for bit. Examines at most
/// `limit` positions; `None` when no repeat shows up by then.
pub fn finite_outcome_period(moves: &[u64], leave1: bool, limit: u64) -> Option<PeriodicOutcomes> {
    const P: u128 = (1 << 61) - 1;
    const B: u128 = 1_000_003;
    if *moves.last()? >= limit {
        return None; // the first window alone is beyond the limit
    }
    let k = *moves.last()? as usize;
    let first = k + usize::from(leave1); // from here on every move is legal
    let mut win: BitVec<u64, Lsb0> = BitVec::new();
    let outcome = |win: &BitVec<u64, Lsb0>, n: usize| {
        let top = if leave1 { n.saturating_sub(1) } else { n };
        moves
            .iter()
            .take_while(|&&s| s as usize <= top)
            .any(|&s| !win[n - s as usize])
    };
    for n in 0..first {
        let w = outcome(&win, n);
        win.push(w);
    }
    let bk = (0..k).fold(1u128, |a, _| a * B % P); // B^k
                                                   // hash of window [n-k, n) = sum b[j] B^(n-1-j)
    let mut h: u128 = 0;
    for j in first - k..first {
        h = (h * B + u128::from(win[j])) % P;
    }
    let mut saved = (first, h);
    let (mut power, mut lam) = (1u64, 0u64);
    let mut n = first;
    while (n as u64) < limit {
        let w = outcome(&win, n);
        win.push(w);
        // slide: add b[n], drop b[n-k]
        h = (h * B + u128::from(w) + P * P - u128::from(win[n - k]) * bk % P) % P;
        n += 1;
        if h == saved.1 && win[n - k..n] == win[saved.0 - k..saved.0] {
            let period = (n - saved.0) as u64;
            let mut start = (saved.0 - k) as u64;
            while start > 0 && win[start as usize - 1] == win[(start + period) as usize - 1] {
                start -= 1;
            }
            win.truncate((start + period) as usize);
            return Some(PeriodicOutcomes { start, period, win });
        }
        lam += 1;
        if lam == power {
            saved = (n, h);
            power *= 2;
            lam = 0;
        }
    }
    None
}

/// Upper estimate of the memory (bytes) a P-position stream needs for positions 0..=max.
pub fn stream_memory_estimate(game: &Game, max: u64) -> u64 {
    let seg = DEFAULT_SEGMENT_BITS / 8 * (rayon::current_num_threads() as u64 + 2);
    match game {
        Game::Subtraction { set, .. } => match set {
            // the window: a segment plus the largest move (up to max) ahead
            MoveSet::Union { named, finite } if named.is_empty() => {
                let k = finite.last().copied().unwrap_or(0).min(max);
                seg * 2 + k / 8 * 2
            }
            MoveSet::AllBut { excluded } => (excluded.len() as u64 + 2) * 16,
            MoveSet::Union { named, .. } => {
                let moves = if named == &[NamedSet::Squares] {
                    0
                } else {
                    set.count_upto_estimate(max) * 8
                };
                // P-positions: squares ~0.9 n^0.7 (Eppstein 2018); other sets are not known
                // in advance, so take the same law with a wide margin.
                let ps = 1.5 * 0.9 * (max.max(1) as f64).powf(0.7);
                let ps = if named == &[NamedSet::Squares] {
                    ps
                } else {
                    ps * 4.0
                };
                seg + moves + (ps * 12.0) as u64
            }
        },
        Game::Divisors { .. } => max / 8 + seg + (1 << 20) * 24,
        Game::Interval { .. } => 1 << 16,
        Game::TakeBreak(_) | Game::GrundyGame => crate::grundy::grundy_memory_estimate(game, max),
    }
}

/// Elementary steps above which a run is refused up front: at about 1e9 steps per second
/// (sieve marks or option visits on 2 cores) this is more than a day.
pub const WORK_LIMIT: f64 = 1e14;

/// Estimated elementary steps to decide 0..=max: sieve marks (p + s for a P-position p and
/// a move s) for outcomes, option visits for Grundy values (`grundy`). Only subtraction games
/// with an infinite move set grow faster than the answer; every other family is estimated
/// at max (its engines are near-linear, or periodic, or bounded by memory checks).
///
/// For outcomes the number of P-positions is not known in advance (except for squares,
/// about 0.9·n^0.7, Eppstein 2018): a pilot sieve to min(max, 2^16) fits a power law to the
/// counts at 2^15 and 2^16, and the marks are about #P(max) · #moves(max) / 2. Grundy values
/// visit every (position, option) pair: about max · #moves(max) / 2. Take-and-break codes
/// that may leave three heaps visit every three-way split: about max^3 / 36.
pub fn work_estimate(game: &Game, max: u64, grundy: bool) -> f64 {
    if let (Some(ig), false) = (IntervalGame::of(game), grundy) {
        // jump-ahead: O(1) per P-position
        return ig.p_count_estimate(max);
    }
    if let Game::TakeBreak(code) = game {
        if code.max_heaps_left() == 3 {
            // three-heap splits: every split a + b + c of every position, about n^3 / 36
            // (measured: 0.3F to 10^4 in 17 s, to 3·10^4 in 319 s)
            let m = max as f64;
            return (m * m * m / 36.0).max(m);
        }
    }
    let Game::Subtraction { set, leave1 } = game else {
        return max as f64;
    };
    let MoveSet::Union { named, .. } = set else {
        if let (MoveSet::AllBut { excluded }, false) = (set, grundy) {
            // finitely many P-positions, found among the excluded sums
            return ((excluded.len() + 2) as f64).powi(2);
        }
        return max as f64;
    };
    if named.is_empty() {
        return max as f64;
    }
    let moves = set.count_upto_estimate(max) as f64;
    if grundy {
        return max as f64 * moves / 2.0;
    }
    let ps = if named == &[NamedSet::Squares] {
        0.9 * (max.max(1) as f64).powf(0.7)
    } else {
        let pilot = max.min(1 << 16);
        if pilot < 1 << 12 {
            return max as f64 * moves;
        }
        let m = ListMoves::new(set.elements_upto(pilot));
        let p = crate::sieve::p_positions(m, pilot, *leave1);
        let half = p.partition_point(|&x| x <= pilot / 2).max(1) as f64;
        let full = p.len().max(1) as f64;
        // Exponent of the count's growth, kept between 0 and 1.
        let a = (full / half).log2().clamp(0.0, 1.0);
        full * (max as f64 / pilot as f64).powf(a)
    };
    ps * moves / 2.0
}

/// Opens the fastest P-position stream for `game` over 0..=max, optionally resuming from a
/// saved state (which must come from the same game and max).
///
/// # Errors
/// [`BuildError::TooLarge`] when max is beyond what the family's engine can address;
/// [`BuildError::BadState`] for a state of another engine.
pub fn p_stream(
    game: &Game,
    max: u64,
    resume: Option<StreamState>,
) -> Result<Box<dyn PStream>, BuildError> {
    let bad = |what: &str| BuildError::BadState(format!("the saved state is not a {what} state"));
    match game {
        Game::Interval { bound, leave1 } => {
            let game = IntervalGame {
                bound: *bound,
                leave1: *leave1,
            };
            let (last, count) = match resume {
                None => (None, 0),
                Some(StreamState::Jump { last, count }) => (last, count),
                Some(_) => return Err(bad("jump-ahead")),
            };
            Ok(Box::new(JumpStream {
                game,
                max,
                last,
                count,
                finished: false,
            }))
        }
        Game::Subtraction { set, leave1 } => {
            if let MoveSet::AllBut { excluded } = set {
                let list: Vec<u64> = all_but_p_positions(excluded, *leave1)
                    .into_iter()
                    .filter(|&p| p <= max)
                    .collect();
                return list_stream(list, max, resume, "all-but candidates");
            }
            if max > MAX_SIEVE_N {
                return Err(BuildError::TooLarge(format!(
                    "N = {max} is beyond the sieve's range (at most 2^62 - 1)"
                )));
            }
            if let Some(k) = set.max_finite() {
                let mut w = WindowStream::new(set.elements_upto(k), *leave1, max);
                match resume {
                    None => {}
                    Some(StreamState::Window { lo, marks, count }) => {
                        w.lo = lo;
                        w.marks = marks;
                        w.count = count;
                    }
                    Some(_) => return Err(bad("window")),
                }
                return Ok(Box::new(w));
            }
            let state = match resume {
                None => None,
                Some(StreamState::Sieve(s)) => Some(s),
                Some(_) => return Err(bad("sieve")),
            };
            let seg = DEFAULT_SEGMENT_BITS;
            if matches!(set, MoveSet::Union { named, finite } if named == &[NamedSet::Squares] && finite.is_empty())
            {
                let m = SquareMoves::new(max);
                let seg = square_segment_bits(max);
                return Ok(Box::new(SieveStream(match state {
                    Some(s) => SetSieve::resume(m, max, *leave1, seg, s),
                    None => SetSieve::new(m, max, *leave1, seg),
                })));
            }
            let moves = set.elements_upto(max);
            if moves.len() >= u32::MAX as usize {
                return Err(BuildError::TooLarge(format!(
                    "{} moves up to N = {max}: more than the sieve's 2^32 - 1",
                    moves.len()
                )));
            }
            let m = ListMoves::new(moves);
            Ok(Box::new(SieveStream(match state {
                Some(s) => SetSieve::resume(m, max, *leave1, seg, s),
                None => SetSieve::new(m, max, *leave1, seg),
            })))
        }
        Game::Divisors { nontrivial } => {
            if max >= usize::MAX as u64 / 2 {
                return Err(BuildError::TooLarge(format!(
                    "N = {max} is too large for a bit table"
                )));
            }
            let mut d = DivisorStream {
                nontrivial: *nontrivial,
                max,
                seg: 1 << 16,
                lo: 0,
                win: BitVec::new(),
                count: 0,
            };
            match resume {
                None => {}
                Some(StreamState::Divisors { lo, win, count }) => {
                    let mut bits = BitVec::<u64, Lsb0>::from_vec(win);
                    bits.truncate(lo as usize);
                    d.lo = lo;
                    d.win = bits;
                    d.count = count;
                }
                Some(_) => return Err(bad("divisor")),
            }
            Ok(Box::new(d))
        }
        Game::TakeBreak(_) | Game::GrundyGame => {
            let g = grundy_table(game, max)?;
            let list: Vec<u64> = (0..=max).filter(|&n| g.get(n) == 0).collect();
            list_stream(list, max, resume, "grundy table")
        }
    }
}

fn list_stream(
    list: Vec<u64>,
    max: u64,
    resume: Option<StreamState>,
    method: &'static str,
) -> Result<Box<dyn PStream>, BuildError> {
    let next = match resume {
        None => 0,
        Some(StreamState::List { next }) => next as usize,
        Some(_) => {
            return Err(BuildError::BadState(
                "the saved state is not a list state".into(),
            ))
        }
    };
    if next > list.len() {
        return Err(BuildError::BadState(
            "the saved state is past the end".into(),
        ));
    }
    Ok(Box::new(ListStream {
        list,
        max,
        next,
        method,
    }))
}

/// The outcome table 0..=max (bit set = N-position) from the family's P-position stream.
///
/// # Errors
/// As [`p_stream`].
pub fn outcome_table(game: &Game, max: u64) -> Result<OutcomeTable, BuildError> {
    if max >= (usize::MAX as u64) / 2 {
        return Err(BuildError::TooLarge(format!(
            "N = {max} is too large for a bit table"
        )));
    }
    let mut win = bitvec![u64, Lsb0; 1; max as usize + 1];
    let mut s = p_stream(game, max, None)?;
    let mut out = Vec::new();
    while s.advance(&mut out) {
        for &p in &out {
            win.set(p as usize, false);
        }
        out.clear();
    }
    Ok(OutcomeTable::from_bits(win))
}

#[cfg(test)]
mod tests {

    #[test]
    fn finite_counts_from_the_period_equal_the_stream() {
        for spec in [
            "sub{1,2,3}",
            "sub{2,5,7}",
            "sub{1,3,4}",
            "leave1(sub{1,2,6})",
            "sub{3,8,19,20}",
        ] {
            let g = Game::parse(spec).unwrap();
            let mut s = p_stream(&g, 50_000, None).unwrap();
            let mut ps = Vec::new();
            while s.advance(&mut ps) {}
            for max in [0u64, 1, 7, 100, 4321, 50_000] {
                let c = finite_p_count(&g, max).unwrap();
                let upto: Vec<u64> = ps.iter().copied().filter(|&p| p <= max).collect();
                assert_eq!(c.count, upto.len() as u64, "{spec} {max}");
                assert_eq!(c.largest, upto.last().copied(), "{spec} {max}");
            }
        }
        // sub{1,2,3}: the multiples of 4.
        let c = finite_p_count(&Game::parse("sub{1,2,3}").unwrap(), 1_000_000_000_000).unwrap();
        assert_eq!(
            (c.count, c.largest),
            (250_000_000_001, Some(1_000_000_000_000))
        );
        assert!(finite_p_count(&Game::parse("squares").unwrap(), 100).is_none());
        // a move beyond the search limit: no period search at all (was 10^12 bits of work)
        assert!(finite_outcome_period(&[1_000_000_000_000], false, 1 << 24).is_none());
        let c = closed_p_count(&Game::parse("leave1(upto{3})").unwrap(), 10).unwrap();
        assert_eq!((c.count, c.largest), (4, Some(9))); // 0, 1, 5, 9
        let c = closed_p_count(&Game::parse("sub{1,2,3}").unwrap(), 10).unwrap();
        assert_eq!((c.count, c.largest), (3, Some(8)));
        // sqrt: 0, 2, 5, 8 (closed form); half walks instead
        let c = closed_p_count(&Game::parse("sqrt").unwrap(), 10).unwrap();
        assert_eq!(
            (c.count, c.largest, c.method.as_str()),
            (4, Some(8), "closed form")
        );
        assert!(closed_p_count(&Game::parse("half").unwrap(), 10).is_none());
    }

    #[test]
    fn work_estimates_refuse_only_hopeless_runs() {
        let g = |s: &str| Game::parse(s).unwrap();
        // subtract-a-prime: about N / 6 P-positions, N / ln N moves: quadratic.
        assert!(work_estimate(&g("primes"), 1_000_000_000, false) > WORK_LIMIT);
        let small = work_estimate(&g("primes"), 1_000_000, false);
        assert!((1e9..1e11).contains(&small), "{small:e}");
        // squares: 0.9 n^0.7 P-positions times sqrt(n) moves.
        assert!(work_estimate(&g("squares"), 10_000_000_000, false) < WORK_LIMIT);
        assert!(work_estimate(&g("squares"), 10_000_000, true) < WORK_LIMIT);
        assert!(work_estimate(&g("primes"), 100_000_000, true) > WORK_LIMIT);
        // linear families
        assert_eq!(work_estimate(&g("sub{1,2,3}"), 1000, false), 1000.0);
        assert_eq!(work_estimate(&g("0.77"), 1000, true), 1000.0);
        // interval games: jump-ahead, one step per P-position
        assert!(work_estimate(&g("sqrt"), 1_000_000_000_000_000, false) < 1e8);
        assert!(work_estimate(&g("half"), u64::MAX, false) < 100.0);
        assert!(work_estimate(&g("upto{3}"), 1_000_000_000_000, false) < 3e11);
        // all-but sets: finitely many P-positions
        assert!(work_estimate(&g("nim"), 1_000_000_000_000_000, false) < 10.0);
        // hexadecimal codes leaving three heaps are cubic
        assert!(work_estimate(&g("0.3F"), 100_000_000, true) > WORK_LIMIT);
        assert!(work_estimate(&g("0.3F"), 10_000, true) < 1e11);
    }
    use super::*;
    use crate::rule::outcome_by_definition;

    fn collect(game: &Game, max: u64) -> Vec<u64> {
        let mut s = p_stream(game, max, None).unwrap();
        let mut out = vec![];
        while s.advance(&mut out) {}
        assert_eq!(s.count(), out.len() as u64);
        assert!(s.done() > max);
        out
    }

    #[test]
    fn moves_beyond_max_cost_nothing() {
        // the window would be 10^12 bits if the move sized it
        let g = Game::parse("sub{1000000000000}").unwrap();
        assert_eq!(collect(&g, 10), (0..=10).collect::<Vec<_>>());
        assert!(stream_memory_estimate(&g, 10) < 1 << 24);
        let g = Game::parse("sub{3,1000000000000}").unwrap();
        assert_eq!(collect(&g, 10), vec![0, 1, 2, 6, 7, 8]);
    }

    #[test]
    fn every_subtraction_family_matches_the_definition() {
        for spec in [
            "sub{1,2,3}",
            "sub{2,5,7}",
            "leave1(sub{1,3})",
            "sub{70,3}",
            "squares",
            "cubes",
            "divisors",
            "divisors-nontrivial",
            "sqrt",
            "leave1(sqrt)",
            "half",
            "upto{4}",
            "allbut{2,3,7}",
            "leave1(allbut{1,4})",
            "nim",
            "primes",
            "leave1(primes|sub{1})",
            "practical",
            "triangular|sub{2}",
        ] {
            let g = Game::parse(spec).unwrap();
            let win = outcome_by_definition(&g, 3000);
            let expect: Vec<u64> = (0..=3000u64).filter(|&n| !win[n as usize]).collect();
            assert_eq!(collect(&g, 3000), expect, "{spec}");
        }
    }

    #[test]
    fn seed_facts() {
        // Nim 1-3: loses iff n % 4 == 0 (to 10^5).
        let t = outcome_table(&Game::parse("sub{1,2,3}").unwrap(), 100_000).unwrap();
        for n in 0..=100_000u64 {
            assert_eq!(t.is_win(n), n % 4 != 0, "{n}");
        }
        // Divisor game: P-positions are 0 and the odd n (to 10^5); 2 wins, 3 loses.
        let t = outcome_table(&Game::parse("divisors").unwrap(), 100_000).unwrap();
        assert!(t.is_win(2) && !t.is_win(3));
        for n in 1..=100_000u64 {
            assert_eq!(t.is_win(n), n % 2 == 0, "{n}");
        }
        // sqrt game: 3 wins, 5 loses.
        let t = outcome_table(&Game::parse("sqrt").unwrap(), 100).unwrap();
        assert!(t.is_win(3) && !t.is_win(5));
    }

    #[test]
    fn streams_resume_from_their_state() {
        for spec in [
            "sub{1,3,4}",
            "squares",
            "divisors",
            "sqrt",
            "allbut{2,3,7}",
            "primes",
        ] {
            let g = Game::parse(spec).unwrap();
            let max = 300_000;
            let full = collect(&g, max);
            let mut s = p_stream(&g, max, None).unwrap();
            let mut out = vec![];
            s.advance(&mut out);
            let st = s.state();
            let mut r = p_stream(&g, max, Some(st)).unwrap();
            while r.advance(&mut out) {}
            assert_eq!(out, full, "{spec}");
            assert_eq!(r.count(), full.len() as u64, "{spec}");
        }
    }

    #[test]
    fn finite_periods_are_exact() {
        for spec in [
            "sub{1,2,3}",
            "sub{2,5,7}",
            "leave1(sub{1,3})",
            "sub{3,70}",
            "sub{1,4,9,16}",
        ] {
            let g = Game::parse(spec).unwrap();
            let set = g.move_set().unwrap();
            let leave1 = matches!(g, Game::Subtraction { leave1: true, .. });
            let per = finite_outcome_period(&set.elements_upto(1000), leave1, 1 << 20).unwrap();
            let win = outcome_by_definition(&g, 5000);
            for n in 0..=5000u64 {
                assert_eq!(per.is_win(n), win[n as usize], "{spec} {n}");
            }
        }
        let per = finite_outcome_period(&[1, 2, 3], false, 100).unwrap();
        assert_eq!((per.start, per.period), (0, 4));
        assert!(!per.is_win(4_000_000_000_000_000_000));
        assert!(per.is_win(4_000_000_000_000_000_001));
    }

    #[test]
    fn all_but_sets_have_finitely_many_p_positions() {
        assert_eq!(all_but_p_positions(&[2, 3, 7], false), vec![0, 2]);
    }
}
