//! A crew of helper threads for fine-grained fork-join inside the block engines.
//!
//! The Grundy engines hand out work in blocks of tens to hundreds of microseconds, one after
//! another. Waking a sleeping thread for each (as a thread pool does once its workers have
//! gone idle) costs about as much as the work in a virtual machine, so the helpers here spin
//! between jobs (yielding the CPU after a while) and claim shares of the current job with
//! one atomic word: epoch (32 bits) | shares (16) | next share (16).
//!
//! Usage: [`Crew::run`] starts `helpers` threads for the duration of a closure; inside it,
//! [`Crew::share`] publishes a job `f(share)` for shares `0..shares`, runs the caller's
//! `meanwhile` closure, then runs the unclaimed shares itself and waits for the others.
//! Every share runs exactly once, before `share` returns (even if `meanwhile` panics).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

/// The job type: one share of the work, by index, and the worker running it (0 for the
/// caller of [`Crew::share`], 1..=helpers for the helpers), so shares can accumulate into
/// per-worker buffers.
type Job<'a> = &'a (dyn Fn(usize, usize) + Sync);

/// Helper threads claiming shares of published jobs (see the module documentation).
pub struct Crew {
    state: AtomicU64,
    done: AtomicU32,
    stop: AtomicBool,
    /// The current job, as a raw trait-object pointer: it lives until its guard is dropped,
    /// which waits for every share.
    job: std::cell::UnsafeCell<Option<*const (dyn Fn(usize, usize) + Sync)>>,
}

// SAFETY: `job` is written only by the publisher while no share of the current epoch is
// unclaimed or running, and read only by the claimant of a share of its epoch, which
// finishes before the guard lets the job go; the job itself is Sync.
unsafe impl Sync for Crew {}

/// Helper threads worth starting here: one fewer than the rayon pool's threads, or none when
/// already running on a pool thread (callers that run games in parallel, such as a sweep,
/// keep every core busy by themselves).
pub fn helpers_here() -> usize {
    if rayon::current_thread_index().is_some() {
        0
    } else {
        rayon::current_num_threads().saturating_sub(1)
    }
}

/// Shares per job at most (16 bits of the state word).
pub const MAX_SHARES: usize = 0xFFFF;

impl Crew {
    /// Runs `body` with `helpers` helper threads spinning for jobs; they stop when it returns.
    pub fn run<R>(helpers: usize, body: impl FnOnce(&Crew) -> R) -> R {
        let crew = Crew {
            state: AtomicU64::new(0),
            done: AtomicU32::new(0),
            stop: AtomicBool::new(false),
            job: std::cell::UnsafeCell::new(None),
        };
        std::thread::scope(|sc| {
            for h in 1..=helpers {
                let crew = &crew;
                sc.spawn(move || crew.help(h));
            }
            // Stop the helpers even if the body panics.
            struct Stop<'c>(&'c Crew);
            impl Drop for Stop<'_> {
                fn drop(&mut self) {
                    self.0.stop.store(true, Ordering::Release);
                }
            }
            let _stop = Stop(&crew);
            body(&crew)
        })
    }

    /// Runs `f(i, worker)` for every share i in `0..shares` (at most [`MAX_SHARES`]) on the
    /// helpers and the caller, and `meanwhile()` on the caller while the helpers start;
    /// returns `meanwhile`'s result once every share is done.
    pub fn share<R>(&self, shares: usize, f: Job<'_>, meanwhile: impl FnOnce() -> R) -> R {
        assert!(shares <= MAX_SHARES);
        // SAFETY: the previous job's shares are all done (the guard of its `share` call
        // waited), so nobody reads the job now; claimants of the new epoch read it after
        // the Release store below. The lifetime is erased: the guard below keeps this call
        // (and so the borrow of `f`) alive until every share is done.
        unsafe {
            let p: *const (dyn Fn(usize, usize) + Sync + '_) = f;
            *self.job.get() = Some(std::mem::transmute::<
                *const (dyn Fn(usize, usize) + Sync + '_),
                *const (dyn Fn(usize, usize) + Sync + 'static),
            >(p));
        }
        self.done.store(0, Ordering::Relaxed);
        let epoch = (self.state.load(Ordering::Relaxed) >> 32) + 1;
        self.state
            .store((epoch << 32) | ((shares as u64) << 16), Ordering::Release);
        /// Finishes the job when dropped (also while unwinding).
        struct Finish<'c>(&'c Crew, u32);
        impl Drop for Finish<'_> {
            fn drop(&mut self) {
                while self.0.run_one(0) {}
                while self.0.done.load(Ordering::Acquire) < self.1 {
                    std::hint::spin_loop();
                }
            }
        }
        let _finish = Finish(self, shares as u32);
        meanwhile()
    }

    /// Claims and runs one share as `worker`; false when none is left.
    fn run_one(&self, worker: usize) -> bool {
        let v = self.state.load(Ordering::Acquire);
        let (shares, next) = ((v >> 16) & 0xFFFF, v & 0xFFFF);
        if next >= shares {
            return false;
        }
        if self
            .state
            .compare_exchange_weak(v, v + 1, Ordering::AcqRel, Ordering::Relaxed)
            .is_err()
        {
            return true;
        }
        // SAFETY: a share of this epoch is ours and not done, so the job is the published
        // one and alive (its guard waits for us).
        let job = unsafe { &*(*self.job.get()).expect("published job") };
        job(next as usize, worker);
        self.done.fetch_add(1, Ordering::Release);
        true
    }

    /// Helper `worker`'s loop, until `stop`.
    fn help(&self, worker: usize) {
        let mut idle = 0u32;
        while !self.stop.load(Ordering::Acquire) {
            if self.run_one(worker) {
                idle = 0;
            } else if idle < 1 << 16 {
                idle += 1;
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }
}

impl Crew {
    /// One step of a block pipeline: the *bulk* of the next block, cut into `shares`
    /// shares, runs on the helpers (and the caller, once done with its own work) while the
    /// caller runs `meanwhile` — finishing the current block. Each share ORs its marks into
    /// its worker's buffer of `acc` (all `len` words, zeroed first); once every share is
    /// done, `out` becomes the OR of the buffers. With one share the bulk runs on the
    /// caller, before `meanwhile`. Returns `meanwhile`'s result.
    pub fn bulk_while<R, B: Fn(usize, &mut [u64]) + Sync>(
        &self,
        acc: &Accumulators,
        len: usize,
        shares: usize,
        bulk: &B,
        meanwhile: impl FnOnce() -> R,
        out: &mut Vec<u64>,
    ) -> R {
        acc.reset(len);
        let job = |share: usize, worker: usize| bulk(share, &mut acc.of(worker));
        let r = if shares > 1 {
            self.share(shares, &job, meanwhile)
        } else {
            job(0, 0);
            meanwhile()
        };
        acc.or_into(out, len);
        r
    }
}

/// One word buffer per worker of a crew (0 the caller of [`Crew::share`], 1..=helpers the
/// helpers): the shares of a job OR their marks into their worker's buffer, and the buffers
/// are OR-ed together once the job is done. Each worker only locks its own buffer, so the
/// locks never wait; each lock has cache lines of its own, so taking it does not disturb
/// the other workers.
pub struct Accumulators(Vec<Own>);

/// One worker's buffer, alone on its cache lines (128 bytes: a line and its prefetch pair).
#[repr(align(128))]
struct Own(Mutex<Vec<u64>>);

impl Accumulators {
    /// Buffers for `workers` workers (helpers + 1).
    pub fn new(workers: usize) -> Accumulators {
        Accumulators((0..workers).map(|_| Own(Mutex::new(Vec::new()))).collect())
    }

    /// Makes every buffer `len` zero words.
    pub fn reset(&self, len: usize) {
        for b in &self.0 {
            let mut b = b.0.lock().unwrap_or_else(|e| e.into_inner());
            b.clear();
            b.resize(len, 0);
        }
    }

    /// The buffer of `worker`.
    pub fn of(&self, worker: usize) -> MutexGuard<'_, Vec<u64>> {
        self.0[worker].0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `out` becomes `len` words: the OR of every buffer.
    pub fn or_into(&self, out: &mut Vec<u64>, len: usize) {
        out.clear();
        out.resize(len, 0);
        for b in &self.0 {
            let b = b.0.lock().unwrap_or_else(|e| e.into_inner());
            for (x, y) in out.iter_mut().zip(b.iter()) {
                *x |= y;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_share_runs_once() {
        for helpers in [0, 1, 3] {
            let total = Crew::run(helpers, |crew| {
                let mut sum = 0u64;
                for round in 0..200u64 {
                    let hits: Vec<Mutex<u64>> = (0..37).map(|_| Mutex::new(0)).collect();
                    let job = |i: usize, w: usize| {
                        assert!(w <= helpers);
                        *hits[i].lock().unwrap() += round + i as u64
                    };
                    // The publisher works on something else meanwhile.
                    sum += crew.share(hits.len(), &job, || round);
                    for (i, h) in hits.iter().enumerate() {
                        assert_eq!(*h.lock().unwrap(), round + i as u64);
                    }
                }
                sum
            });
            assert_eq!(total, (0..200).sum::<u64>());
        }
    }
}
