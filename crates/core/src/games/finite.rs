//! Finite subtraction sets `sub{..}` (and `leave1(sub{..})`): once every move is legal,
//! the outcome of n depends only on the k outcomes before it (k the largest move), so the
//! outcome sequence is eventually periodic with a period found by cycle detection
//! ([`finite_outcome_period`]); counts of P-positions to any N follow from it
//! ([`finite_p_count_played`]).

use crate::cert::CertRule;
use crate::engines::mex::finite_set_grundy;
use crate::period::find_period;
use crate::table::PCount;
use bitvec::prelude::*;

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

/// [`PCount`] of the finite subtraction game with these moves (increasing, non-empty)
/// over 0..=max, when its outcome period shows up within 2^24 positions: O(preperiod +
/// period) time whatever max is, in normal or (`misere`) misère play. `None` when no
/// period was found.
pub fn finite_p_count_played(
    finite: &[u64],
    leave1: bool,
    misere: bool,
    max: u64,
) -> Option<PCount> {
    let po = finite_outcome_period_played(finite, leave1, misere, 1 << 24)?;
    // (a count past 2^64 - 1 cannot arise: the least move leads from a P-position)
    let (count, largest) =
        crate::period::periodic_count(po.start, po.period, max, |n| !po.is_win(n)).ok()?;
    Some(PCount {
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
/// `limit` positions; `None` when no repeat shows up by then, or when `moves` is not
/// positive and strictly increasing.
pub fn finite_outcome_period(moves: &[u64], leave1: bool, limit: u64) -> Option<PeriodicOutcomes> {
    finite_outcome_period_played(moves, leave1, false, limit)
}

/// [`finite_outcome_period`] in normal or (`misere`) misère play, where a heap with no
/// move is an N-position. The window argument is the same: from the heap k (k + 1 under
/// leave1) on, every move is legal in both plays.
pub fn finite_outcome_period_played(
    moves: &[u64],
    leave1: bool,
    misere: bool,
    limit: u64,
) -> Option<PeriodicOutcomes> {
    if moves.first() == Some(&0) || !moves.windows(2).all(|w| w[0] < w[1]) {
        return None; // not a set of positive moves, increasing
    }
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
        (misere && moves[0] as usize > top)
            || moves
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
/// A finite set (no leave-one rule) reduced by proven steps: moves that are provably
/// redundant dropped (at most 12 moves, the largest at most 4096; see [`redundant`]), then
/// a common factor k divided out, G_{kS}(n) = G_S(⌊n/k⌋) (Winning Ways, ch. 4; Siegel,
/// *Combinatorial Game Theory*, ch. IV). Returns the set, the moves dropped (increasing)
/// and the factor (1: none).
pub(crate) fn reduce_finite(mut set: Vec<u64>) -> (Vec<u64>, Vec<u64>, u64) {
    let mut removed = vec![];
    if set.len() <= 12 && set.last().is_some_and(|&m| m <= 4096) {
        'outer: loop {
            for i in (0..set.len()).rev() {
                if set.len() > 1 && redundant(&set, i) {
                    removed.push(set.remove(i));
                    continue 'outer;
                }
            }
            break;
        }
        removed.sort_unstable();
    }
    let g = set.iter().fold(0, |a, &b| gcd(a, b));
    if g > 1 {
        set.iter_mut().for_each(|s| *s /= g);
    }
    (set, removed, g.max(1))
}

pub(crate) fn gcd(a: u64, b: u64) -> u64 {
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
    let mut len = 1024usize;
    loop {
        // the project's engine for a finite set (the plain mex), for the set without s
        let mut watch =
            crate::observe::Watch::start(&crate::observe::Silent, len as u64).expect("never stops");
        let Ok(g) = finite_set_grundy(&rest, false, len as u64 - 1, &mut watch) else {
            return false;
        };
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
