//! Periods of finite subtraction games found and proven from a window of values: the
//! engine of per-game censuses over millions of games.
//!
//! **Why a window proves a period.** With moves S (largest c), the value at n (outcome, or
//! Grundy value) is a function of the c values before it, the same function at every
//! n >= c. So if the c values before q equal the c values before q + p (q >= c), the values
//! from q - c on repeat with period p for ever (by induction on n). This is Golomb's
//! argument (1966) and the certificate every row of a window census carries.
//!
//! **How the period is found.** Values are computed to L (outcomes as bits in machine
//! words, 64 or min(S) positions per step; Grundy values as bytes); the window before L is
//! looked for at every earlier q, nearest first. The first match gives the least eventual
//! period p (any match is a period of the tail, and the least period divides it, so its own
//! match, nearer to L, would have been found first). Then the preperiod is one more than
//! the last j with value(j) != value(j + p). Without a match, L doubles, up to a limit.
//! The work is O(preperiod + period + c) word operations per game.

use crate::moves::Play;

/// A period proven by a repeated window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowPeriod {
    /// Number of leading values before the periodic part.
    pub preperiod: u64,
    /// The least period.
    pub period: u64,
    /// The window: the c values before `repeat_at` equal the c values before
    /// `repeat_at + period`.
    pub repeat_at: u64,
    /// Values were computed at 0..=`computed`.
    pub computed: u64,
    /// P-positions in one period, `preperiod..preperiod + period`.
    pub p_per_period: u64,
    /// P-positions before the periodic part.
    pub p_before: u64,
    /// The largest Grundy value in 0..preperiod + period (outcomes: 1).
    pub max_value: u32,
}

impl WindowPeriod {
    /// The certificate in words: `window of c at q repeats p later (values to N)`.
    pub fn certificate(&self, c: u64) -> String {
        format!(
            "proven: the {c} values before {} repeat {} later (each value depends only on \
             the {c} before it; computed to N = {})",
            self.repeat_at, self.period, self.computed
        )
    }
}

/// Positions a window search may compute before it gives up (2^28 bits: 32 MiB).
pub const WINDOW_LIMIT: u64 = 1 << 28;

/// Checks a finite subtraction set: increasing, no 0, largest move at most 2^24.
fn check(moves: &[u64]) -> Option<u64> {
    let c = *moves.last()?;
    if moves[0] == 0 || moves.windows(2).any(|w| w[0] >= w[1]) || c > (1 << 24) {
        return None;
    }
    Some(c)
}

/// Bits in machine words, bit n of the sequence at `w[n / 64] >> (n % 64)`.
struct Bits {
    w: Vec<u64>,
}

impl Bits {
    /// The 64 bits at `pos..pos + 64` (bits not yet set read as 0).
    #[inline]
    fn get64(&self, pos: u64) -> u64 {
        let i = (pos >> 6) as usize;
        let s = pos & 63;
        let lo = self.w[i] >> s;
        if s == 0 {
            lo
        } else {
            lo | (self.w[i + 1] << (64 - s))
        }
    }
    #[inline]
    fn bit(&self, pos: u64) -> bool {
        (self.w[(pos >> 6) as usize] >> (pos & 63)) & 1 == 1
    }
    /// The `m` bits (1..=64) at `pos..pos + m` equal those at `other..other + m`.
    #[inline]
    fn same(&self, pos: u64, other: u64, m: u64) -> bool {
        let mask = if m == 64 { u64::MAX } else { (1u64 << m) - 1 };
        (self.get64(pos) ^ self.get64(other)) & mask == 0
    }
    /// The `len` bits before `a` equal the `len` bits before `b` (a, b >= len).
    fn same_window(&self, a: u64, b: u64, len: u64) -> bool {
        let mut k = len;
        while k > 0 {
            let m = k.min(64);
            if !self.same(a - k, b - k, m) {
                return false;
            }
            k -= m;
        }
        true
    }
    fn count_ones(&self, from: u64, to: u64) -> u64 {
        (from..to).filter(|&n| self.bit(n)).count() as u64
    }
}

/// The outcome period of the subtraction game with `moves` (increasing, no 0) under
/// `play`, with its window certificate ([`WindowPeriod`]). `None` when no period is found by `limit` positions (at most
/// [`WINDOW_LIMIT`]) or the set is not valid (empty, unsorted, 0, largest move over
/// 2^24).
///
/// Normal play: n is a P-position when no move reaches a P-position (so heaps below the
/// least move are P-positions). Misère play: heaps below the least move are N-positions
/// (the player to move cannot move, and wins), and above them the rule is the same.
pub fn outcome_period(moves: &[u64], play: Play, limit: u64) -> Option<WindowPeriod> {
    let c = check(moves)?;
    let a = moves[0];
    let limit = limit.min(WINDOW_LIMIT);
    let mut bits = Bits { w: vec![] };
    let mut done = 0u64; // positions 0..done computed
    let mut len = (4 * c + 256).next_power_of_two();
    loop {
        let target = len.min(limit.max(c + 1));
        bits.w.resize((target as usize >> 6) + 2, 0);
        // heaps below c one at a time (some moves do not fit)
        while done < target.min(c) {
            let n = done;
            let p = if n < a {
                play == Play::Normal
            } else {
                !moves.iter().any(|&s| s <= n && bits.bit(n - s))
            };
            if p {
                bits.w[(n >> 6) as usize] |= 1 << (n & 63);
            }
            done += 1;
        }
        // then min(a, 64) heaps at a time: their options are all computed already
        let step = a.min(64);
        let mask = if step == 64 {
            u64::MAX
        } else {
            (1u64 << step) - 1
        };
        while done < target {
            let n = done;
            let mut any = 0u64;
            for &s in moves {
                any |= bits.get64(n - s);
            }
            let v = !any & mask;
            let m = step.min(target - n);
            let v = if m < 64 { v & ((1u64 << m) - 1) } else { v };
            let (i, sh) = ((n >> 6) as usize, n & 63);
            bits.w[i] |= v << sh;
            if sh != 0 {
                bits.w[i + 1] |= v >> (64 - sh);
            }
            done += m;
        }
        if let Some(found) = search(&bits, c, done, |x, y, l| bits.same_window(x, y, l)) {
            let (q, p) = found;
            // the preperiod: one past the last mismatch before q - c
            let mut mu = 0;
            let mut j = q - c;
            while j > 0 {
                j -= 1;
                if bits.bit(j) != bits.bit(j + p) {
                    mu = j + 1;
                    break;
                }
            }
            return Some(WindowPeriod {
                preperiod: mu,
                period: p,
                repeat_at: q,
                computed: done - 1,
                p_per_period: bits.count_ones(mu, mu + p),
                p_before: bits.count_ones(0, mu),
                max_value: 1,
            });
        }
        if target >= limit {
            return None;
        }
        len = len.saturating_mul(2);
    }
}

/// The nearest q in [c, end) whose window (the c values before q) equals the window
/// before `end`, and p = end - q.
fn search(
    bits: &Bits,
    c: u64,
    end: u64,
    same: impl Fn(u64, u64, u64) -> bool,
) -> Option<(u64, u64)> {
    if end <= c {
        return None;
    }
    let m = c.min(64);
    let tail = bits.get64(end - m);
    let mask = if m == 64 { u64::MAX } else { (1u64 << m) - 1 };
    let tail = tail & mask;
    let mut q = end - 1;
    while q >= c {
        if bits.get64(q - m) & mask == tail && same(q, end, c) {
            return Some((q, end - q));
        }
        q -= 1;
    }
    None
}

/// The Grundy period of the subtraction game with `moves` (normal play), with its window
/// certificate ([`WindowPeriod`]). `None` as
/// [`outcome_period`], or when the set has more than 255 moves (values are kept in bytes).
pub fn grundy_period(moves: &[u64], limit: u64) -> Option<WindowPeriod> {
    let c = check(moves)?;
    if moves.len() > 255 {
        return None;
    }
    let limit = limit.min(WINDOW_LIMIT);
    let c_us = c as usize;
    let mut g: Vec<u8> = vec![];
    let mut len = (4 * c + 256).next_power_of_two();
    let mut seen = vec![false; moves.len() + 2];
    loop {
        let target = len.min(limit.max(c + 1)) as usize;
        while g.len() < target {
            let n = g.len();
            seen.iter_mut().for_each(|x| *x = false);
            for &s in moves {
                let s = s as usize;
                if s > n {
                    break;
                }
                seen[usize::from(g[n - s])] = true;
            }
            let v = seen.iter().position(|x| !x).unwrap_or(seen.len());
            g.push(v as u8);
        }
        let end = g.len();
        if end > c_us {
            let tail = &g[end - c_us..];
            let mut q = end - 1;
            let mut found = None;
            while q >= c_us {
                if g[q - 1] == tail[c_us - 1] && &g[q - c_us..q] == tail {
                    found = Some((q, end - q));
                    break;
                }
                q -= 1;
            }
            if let Some((q, p)) = found {
                let mut mu = 0;
                let mut j = q - c_us;
                while j > 0 {
                    j -= 1;
                    if g[j] != g[j + p] {
                        mu = j + 1;
                        break;
                    }
                }
                let zeros = |r: std::ops::Range<usize>| g[r].iter().filter(|&&v| v == 0).count();
                return Some(WindowPeriod {
                    preperiod: mu as u64,
                    period: p as u64,
                    repeat_at: q as u64,
                    computed: end as u64 - 1,
                    p_per_period: zeros(mu..mu + p) as u64,
                    p_before: zeros(0..mu) as u64,
                    max_value: u32::from(g[..mu + p].iter().copied().max().unwrap_or(0)),
                });
            }
        }
        if target as u64 >= limit {
            return None;
        }
        len = len.saturating_mul(2);
    }
}

#[cfg(test)]
mod tests;
