//! Engines for interval moves ([`Reach`]: remove 1..=reach(n), or one of finitely many
//! extra amounts), whose interval options [low(n), n) slide to the right as n grows:
//!
//! * P-positions by jump-ahead ([`JumpStream`]): after the P-position p, every heap L with
//!   low(L) <= p has p as an option, so the next P-position is the least L > p with
//!   low(L) > p whose extra amounts reach no P-position (a few heaps are stepped over while
//!   an extra amount still reaches past the interval). O(1) per P-position for an interval
//!   game, O(log) with several bounds or a rule's bound;
//! * Grundy values by the sliding-window mex ([`window_grundy`]): g(n) = mex of the values
//!   in the window [low(n), n) (a count per value and a two-level bitmap) and of the extra
//!   amounts' options below it, added for one heap and taken out again.

use crate::engines::stream::{PStream, StreamState};
use crate::mex::MexCounter;
use crate::moves::interval::Reach;
use crate::observe::{Stopped, Watch};
use std::collections::VecDeque;

/// P-positions of interval moves by jump-ahead.
pub(crate) struct JumpStream {
    reach: Reach,
    /// The first P-position: 0 in normal play; in misère play the least heap with a move
    /// (every heap below it has none, so it is an N-position, and that heap's options are
    /// all such).
    first: u64,
    max: u64,
    last: Option<u64>,
    count: u64,
    /// The P-positions an extra amount may still reach (those at least L − the largest
    /// extra amount below the next candidate L), increasing.
    recent: VecDeque<u64>,
    finished: bool,
}

impl JumpStream {
    /// A stream over 0..=max after `last` (None: from the start), `count` emitted so far,
    /// `recent` the P-positions up to `last` that an extra amount may still reach, whose
    /// first P-position is `first`.
    pub fn new(
        reach: Reach,
        first: u64,
        max: u64,
        last: Option<u64>,
        count: u64,
        recent: Vec<u64>,
    ) -> JumpStream {
        JumpStream {
            reach,
            first,
            max,
            last,
            count,
            recent: recent.into(),
            finished: false,
        }
    }

    /// The P-position after `last`, or the first one: the least candidate L whose extra
    /// amounts beyond the interval reach no P-position.
    fn next(&mut self) -> Option<u64> {
        let mut l = match self.last {
            None => self.first,
            Some(p) => self.reach.next_low_above(p)?,
        };
        if self.reach.extra.is_empty() {
            return Some(l);
        }
        // low(L + 1) >= low(L) > p: every later heap keeps the interval free of
        // P-positions, so only the extra amounts below the interval can make L an
        // N-position
        loop {
            let hit = self
                .reach
                .extra_beyond(l)
                .any(|s| self.recent.binary_search(&(l - s)).is_ok());
            if !hit {
                return Some(l);
            }
            l = l.checked_add(1)?;
        }
    }
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
        let reach_back = self.reach.extra.last().copied().unwrap_or(0);
        for _ in 0..(1 << 20) {
            match self.next() {
                Some(q) if q <= self.max => {
                    out.push(q);
                    self.count += 1;
                    self.last = Some(q);
                    if reach_back > 0 {
                        self.recent.push_back(q);
                        while self
                            .recent
                            .front()
                            .is_some_and(|&x| x.saturating_add(reach_back) < q)
                        {
                            self.recent.pop_front();
                        }
                    }
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
        if self.reach.extra.is_empty() {
            StreamState::Jump {
                last: self.last,
                count: self.count,
            }
        } else {
            StreamState::JumpRecent {
                last: self.last,
                count: self.count,
                recent: self.recent.iter().copied().collect(),
            }
        }
    }
    fn count(&self) -> u64 {
        self.count
    }
    fn method(&self) -> &'static str {
        "jump-ahead"
    }
}

/// Grundy values 0..=max of interval moves by the sliding-window mex (see the module
/// documentation); with `empty` for a heap without a move (0 in normal play, 1 for
/// misère nim-values).
///
/// # Errors
/// When stopped.
pub(crate) fn window_grundy(
    reach: &Reach,
    empty: u32,
    max: u64,
    watch: &mut Watch,
) -> Result<Vec<u32>, Stopped> {
    let mut g: Vec<u32> = Vec::with_capacity(max as usize + 1);
    let mut window = MexCounter::default();
    let (mut wlo, mut whi) = (0u64, 0u64); // window holds g[wlo..whi)
    let mut extra: Vec<u32> = vec![];
    for n in 0..=max {
        watch.at(n)?;
        let lo = reach.low(n);
        while whi < n {
            window.add(g[whi as usize]);
            whi += 1;
        }
        while wlo < lo {
            if wlo < whi {
                window.remove(g[wlo as usize]);
            }
            wlo += 1;
        }
        extra.clear();
        extra.extend(reach.extra_beyond(n).map(|s| g[(n - s) as usize]));
        for &v in &extra {
            window.add(v);
        }
        let v = if lo == n && extra.is_empty() {
            empty
        } else {
            window.mex()
        };
        for &v in &extra {
            window.remove(v);
        }
        g.push(v);
    }
    Ok(g)
}

#[cfg(test)]
impl crate::moves::interval::IntervalGame {
    /// Grundy values 0..=max by the sliding-window mex.
    pub(crate) fn grundy(&self, max: u64, watch: &mut Watch) -> Result<Vec<u32>, Stopped> {
        window_grundy(&Reach::from(*self), 0, max, watch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::rule::{grundy_by_definition, outcome_by_definition};

    /// Unions of interval games with finite sets, and several bounds: the jump-ahead and
    /// the window equal the definition, in both plays.
    #[test]
    fn intervals_with_extra_amounts_equal_the_definition() {
        for spec in [
            "half|sub{1}",
            "half|sub{3,7}",
            "sqrt|sub{5}",
            "sqrt|sub{2,9,30}",
            "leave1(sqrt)|sub{4}",
            "sqrt|upto{3}",
            "half|sqrt|sub{11}",
            "leave1(half)|leave1(sub{1,6})",
        ] {
            let g = Game::parse(spec).unwrap();
            let crate::moves::Moves::Interval(reach) = g.structure().moves else {
                panic!("{spec} is no interval: {:?}", g.structure().moves);
            };
            let max = 3000;
            let win = outcome_by_definition(&g, max);
            let want: Vec<u64> = (0..=max).filter(|&n| !win[n as usize]).collect();
            let mut s = JumpStream::new(reach.clone(), 0, max, None, 0, vec![]);
            let mut got = vec![];
            while s.advance(&mut got) {}
            assert_eq!(got, want, "{spec}");
            let values = window_grundy(&reach, 0, max, &mut Watch::quiet()).unwrap();
            assert_eq!(values, grundy_by_definition(&g, max), "{spec}");
            // misère: a heap without a move is an N-position
            let mut mwin: Vec<bool> = vec![];
            for n in 0..=max {
                let ms = g.moves_of(n).unwrap();
                let w = ms.is_empty() || ms.iter().any(|&s| !mwin[(n - s) as usize]);
                mwin.push(w);
            }
            let mwant: Vec<u64> = (0..=max).filter(|&n| !mwin[n as usize]).collect();
            let first = reach.first_move();
            let mut s = JumpStream::new(reach.clone(), first, max, None, 0, vec![]);
            let mut got = vec![];
            while s.advance(&mut got) {}
            assert_eq!(got, mwant, "misère {spec}");
        }
    }
}
