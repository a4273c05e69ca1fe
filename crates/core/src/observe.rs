//! Progress and cancellation for long engine calls.
//!
//! Every engine call that may run for more than a moment takes an [`Observer`]: the engine
//! tells it how far it got, about every ten milliseconds, and stops with
//! [`crate::Error::Cancelled`] as soon as the observer answers [`ControlFlow::Break`]. A
//! command-line progress bar, a Python `KeyboardInterrupt` check or a cluster task's time
//! limit are all observers. [`Silent`] never stops anything.

pub use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// Watches a long engine call.
///
/// `observe(done, total)` is called from the thread that called the engine with the number
/// of positions decided so far and the number to decide (`total` is N + 1 for a table of
/// 0..=N); the first call comes at the start (`done` = 0) and later ones about every ten
/// milliseconds of work. Returning [`ControlFlow::Break`] stops the engine, which then
/// returns [`crate::Error::Cancelled`]. Any `Fn(u64, u64) -> ControlFlow<()>` closure is an
/// observer.
pub trait Observer: Sync {
    /// `done` of `total` positions decided; `Break` to stop.
    fn observe(&self, done: u64, total: u64) -> ControlFlow<()>;

    /// A run about to start, with its estimated cost: calls that plan before they run
    /// (`tables`, `decide`, analyses, checks) report their plan's [`crate::Estimate`] here
    /// (a [`crate::Plan`] dereferences to it), so a front end can say how long a run will
    /// take. Nothing by default.
    fn planned(&self, plan: &crate::budget::Estimate) {
        let _ = plan;
    }
}

impl<F: Fn(u64, u64) -> ControlFlow<()> + Sync> Observer for F {
    fn observe(&self, done: u64, total: u64) -> ControlFlow<()> {
        self(done, total)
    }
}

/// The observer that sees nothing and never cancels.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Observer for Silent {
    fn observe(&self, _done: u64, _total: u64) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// How often an engine reports to its observer.
const EVERY: Duration = Duration::from_millis(10);

/// An engine's side of an [`Observer`]: [`Watch::at`] is cheap enough to call once per
/// position of the fastest engine (one comparison); only every `stride` positions does it
/// read the clock, and it tunes `stride` so the clock is read about every millisecond and
/// the observer called about every [`EVERY`].
pub(crate) struct Watch<'a> {
    obs: &'a dyn Observer,
    total: u64,
    next: u64,
    stride: u64,
    last_check: Instant,
    last_call: Instant,
}

/// The engine was told to stop after `done` positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stopped {
    /// Positions decided when it stopped.
    pub done: u64,
}

impl From<Stopped> for crate::Error {
    fn from(s: Stopped) -> crate::Error {
        crate::Error::Cancelled { done: s.done }
    }
}

impl<'a> Watch<'a> {
    /// Starts watching a run over `total` positions: calls the observer once (done = 0).
    pub fn start(obs: &'a dyn Observer, total: u64) -> Result<Watch<'a>, Stopped> {
        let now = Instant::now();
        let w = Watch {
            obs,
            total,
            next: 1,
            stride: 1,
            last_check: now,
            last_call: now,
        };
        match obs.observe(0, total) {
            ControlFlow::Continue(()) => Ok(w),
            ControlFlow::Break(()) => Err(Stopped { done: 0 }),
        }
    }

    /// A watch that reports to nobody and never stops (for tests).
    #[cfg(test)]
    pub fn quiet() -> Watch<'static> {
        static SILENT: Silent = Silent;
        let now = Instant::now();
        Watch {
            obs: &SILENT,
            total: 0,
            next: u64::MAX,
            stride: u64::MAX,
            last_check: now,
            last_call: now,
        }
    }

    /// `done` positions are decided: now and then reports to the observer.
    #[inline(always)]
    pub fn at(&mut self, done: u64) -> Result<(), Stopped> {
        if done < self.next {
            return Ok(());
        }
        self.check(done)
    }

    #[cold]
    #[inline(never)]
    fn check(&mut self, done: u64) -> Result<(), Stopped> {
        let now = Instant::now();
        let dt = now - self.last_check;
        if dt < EVERY / 10 {
            self.stride = self.stride.saturating_mul(2);
        } else if dt > EVERY && self.stride > 1 {
            self.stride /= 2;
        }
        self.last_check = now;
        self.next = done.saturating_add(self.stride);
        if now - self.last_call >= EVERY {
            self.last_call = now;
            if self.obs.observe(done, self.total).is_break() {
                return Err(Stopped { done });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn the_observer_is_called_at_the_start_and_can_stop_the_run() {
        let calls = AtomicU64::new(0);
        let obs = |done: u64, total: u64| {
            assert!(done <= total);
            calls.fetch_add(1, Ordering::Relaxed);
            ControlFlow::Continue(())
        };
        let mut w = Watch::start(&obs, 1000).unwrap();
        for n in 0..1000 {
            w.at(n).unwrap();
        }
        assert!(calls.load(Ordering::Relaxed) >= 1);
        let stop = |_: u64, _: u64| ControlFlow::Break(());
        assert_eq!(Watch::start(&stop, 10).err(), Some(Stopped { done: 0 }));
        // a run that stops later: the first call lets it start, a later one stops it
        let later = |done: u64, _: u64| {
            if done == 0 {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        };
        let mut w = Watch::start(&later, u64::MAX).unwrap();
        let t = Instant::now();
        let mut n = 0u64;
        let stopped = loop {
            if let Err(s) = w.at(n) {
                break s;
            }
            n += 1;
        };
        assert!(stopped.done > 0 && t.elapsed() < Duration::from_secs(2));
    }
}
