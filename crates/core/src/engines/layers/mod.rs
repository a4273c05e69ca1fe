//! Grundy values of subtraction games with dense move sets (primes, practical numbers) layer
//! by layer, at a cost that grows with the largest value m instead of with the number of
//! moves (Eppstein, "Faster Evaluation of Subtraction Games", FUN 2018, §4).
//!
//! Layer i is the set L_i of positions of value i. With U_i the positions of value at least
//! i (U_0 = everything, U_{i+1} = U_i \ L_i), a position n of U_i has value i exactly when
//! no option n − s (s in S) lies in L_i: L_i is the set of P-positions of the game played
//! on U_i, one outcome computation. Each is made in increasing n with an *online*
//! convolution of L_i with the indicator of S (divide and conquer, Eppstein's §3): the
//! positions [l, r) are split at the middle m; [l, m) is decided first, then every option
//! pair from L_i ∩ [l, m) into [m, r) is found at once by one real FFT product of size
//! r − l (the hits are the counts above one half), then [m, r) is decided. Blocks of at most
//! [`LEAF`] positions are decided directly: each new member marks its moves inside the leaf
//! (a word at a time for dense sets). A layer is O(N log² N) — independent of |S| — and
//! empty stretches (no member on the left, no undecided position on the right) are skipped,
//! so the upper layers cost little. Counts stay below 2^53 and an FFT of 2^26 points errs by
//! far less than one half, so the counts are exact in f64.
//!
//! Both cores: layer i + 1 needs U_{i+1} only up to where it has got, so the layers run as
//! a pipeline — worker w takes layers w, w + T, w + 2T, …, and layer i + 1 waits at each
//! leaf until layer i has decided past it (a progress mark per layer, published after each
//! leaf). The FFT plans and the move set's spectra are made once per size and shared.

use super::crew::helpers_here;
use crate::observe::{Stopped, Watch};
use realfft::num_complex::Complex;
use realfft::{ComplexToReal, RealFftPlanner, RealToComplex};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Duration;

/// Blocks of at most this many positions are decided directly (a power of two, >= 64).
pub(crate) const LEAF: usize = 4096;

/// The smallest product (points): two leaves.
const FFT_MIN: usize = 2 * LEAF;

/// Largest FFT (points): blocks beyond it are cut into pieces (memory: per worker three
/// buffers of this many f64, and the shared spectra of every size up to it).
pub(crate) const FFT_MAX: usize = 1 << 26;

/// Near moves above this many are marked in a leaf a word at a time, not one by one.
const LIST_MARKS: usize = 32;

/// The bits of a set of positions 0..len (word k holds positions 64k..64k + 63).
fn bits(len: usize) -> Vec<u64> {
    vec![0; len.div_ceil(64)]
}

#[inline(always)]
fn set(b: &mut [u64], i: usize) {
    b[i >> 6] |= 1 << (i & 63);
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

type Forward = Arc<dyn RealToComplex<f64>>;
type Inverse = Arc<dyn ComplexToReal<f64>>;

/// The FFT plans and the move set's spectra per product size (FFT_MIN << k), made when first
/// needed and shared by every layer.
struct Plans {
    planner: Mutex<RealFftPlanner<f64>>,
    plans: Vec<OnceLock<(Forward, Inverse)>>,
    spectra: Vec<OnceLock<Vec<Complex<f64>>>>,
    /// The moves as bits over 0..top.
    moves: Vec<u64>,
}

impl Plans {
    fn new(moves: Vec<u64>, top: usize) -> Plans {
        let sizes = if top >= FFT_MIN {
            (top.min(FFT_MAX) / FFT_MIN).trailing_zeros() as usize + 1
        } else {
            0
        };
        Plans {
            planner: Mutex::new(RealFftPlanner::new()),
            plans: (0..sizes).map(|_| OnceLock::new()).collect(),
            spectra: (0..sizes).map(|_| OnceLock::new()).collect(),
            moves,
        }
    }

    fn index(size: usize) -> usize {
        debug_assert!(size.is_power_of_two() && (FFT_MIN..=FFT_MAX).contains(&size));
        (size / FFT_MIN).trailing_zeros() as usize
    }

    fn plan(&self, size: usize) -> &(Forward, Inverse) {
        self.plans[Self::index(size)].get_or_init(|| {
            let mut p = lock(&self.planner);
            (p.plan_fft_forward(size), p.plan_fft_inverse(size))
        })
    }

    /// The spectrum of the moves 0..size (cyclic, size points).
    fn spectrum(&self, size: usize) -> &[Complex<f64>] {
        self.spectra[Self::index(size)].get_or_init(|| {
            let mut b = Buffers::default();
            let mut out = vec![];
            transform(
                self,
                &mut b.input,
                &mut b.scratch,
                (&self.moves, 0, size),
                size,
                &mut out,
            );
            out
        })
    }
}

/// One worker's FFT buffers, kept from product to product.
#[derive(Default)]
struct Buffers {
    input: Vec<f64>,
    spectrum: Vec<Complex<f64>>,
    scratch: Vec<Complex<f64>>,
    window: Vec<Complex<f64>>,
}

/// The forward FFT (size points) of the bits src[from..from + count) (`from` a multiple of
/// 64; the other points zero) into `out`.
fn transform(
    plans: &Plans,
    input: &mut Vec<f64>,
    scratch: &mut Vec<Complex<f64>>,
    bits: (&[u64], usize, usize),
    size: usize,
    out: &mut Vec<Complex<f64>>,
) {
    fill(input, bits, size);
    forward(plans, input, scratch, out);
}

/// The forward FFT of `input` (a planned size) into `out`.
fn forward(
    plans: &Plans,
    input: &mut [f64],
    scratch: &mut Vec<Complex<f64>>,
    out: &mut Vec<Complex<f64>>,
) {
    let f = &plans.plan(input.len()).0;
    out.resize(input.len() / 2 + 1, Complex::new(0.0, 0.0));
    scratch.resize(
        f.get_scratch_len().max(scratch.len()),
        Complex::new(0.0, 0.0),
    );
    f.process_with_scratch(input, out, scratch)
        .expect("buffers of the planned sizes");
}

/// `input` = the bits src[from..from + count) as 0.0 / 1.0, then zeros up to `size`.
fn fill(input: &mut Vec<f64>, (src, from, count): (&[u64], usize, usize), size: usize) {
    debug_assert!(from % 64 == 0 && count <= size);
    input.clear();
    input.resize(size, 0.0);
    for (k, chunk) in input[..count].chunks_mut(64).enumerate() {
        let w = src.get(from / 64 + k).copied().unwrap_or(0);
        for (b, x) in chunk.iter_mut().enumerate() {
            *x = ((w >> b) & 1) as f64;
        }
    }
}

/// Marks in `hit` every position b0 + u (u < q) that a member x = a0 + v (v < q, x >= first)
/// reaches by a move s = (b0 + u) − x, that is s = d + q + u − v with d = b0 − a0 − q >= 0:
/// one product of size 2q of the members' indicator with the moves d..d + 2q (the outputs
/// q..2q never wrap). a0, b0 and q are multiples of 64.
#[allow(clippy::too_many_arguments)]
fn product(
    plans: &Plans,
    bufs: &mut Buffers,
    member: &[u64],
    first: usize,
    a0: usize,
    b0: usize,
    q: usize,
    hit: &mut [u64],
) {
    let size = 2 * q;
    let d = b0 - a0 - q;
    let Buffers {
        input,
        spectrum,
        scratch,
        window,
    } = bufs;
    let moves: &[Complex<f64>] = if d == 0 {
        plans.spectrum(size)
    } else {
        transform(plans, input, scratch, (&plans.moves, d, size), size, window);
        window
    };
    fill(input, (member, a0, q), size);
    // (positions no move may reach are no options)
    for x in &mut input[..first.saturating_sub(a0).min(q)] {
        *x = 0.0;
    }
    forward(plans, input, scratch, spectrum);
    for (a, b) in spectrum.iter_mut().zip(moves) {
        *a *= b;
    }
    // (the inverse needs real bins at both ends: they are, up to rounding)
    spectrum[0].im = 0.0;
    let last = spectrum.len() - 1;
    spectrum[last].im = 0.0;
    let inv = &plans.plan(size).1;
    scratch.resize(
        inv.get_scratch_len().max(scratch.len()),
        Complex::new(0.0, 0.0),
    );
    inv.process_with_scratch(spectrum, input, scratch)
        .expect("buffers of the planned sizes");
    // unnormalised: counts times size
    let half = 0.5 * size as f64;
    for (k, chunk) in input[q..size].chunks(64).enumerate() {
        let mut w = 0u64;
        for (b, &x) in chunk.iter().enumerate() {
            w |= u64::from(x > half) << b;
        }
        hit[b0 / 64 + k] |= w;
    }
}

/// The undecided positions one layer starts from (the previous layer's output): bits over
/// 0..top, valid below `progress`.
struct Slot {
    bits: Vec<AtomicU64>,
    progress: AtomicUsize,
}

impl Slot {
    fn new(words: usize) -> Slot {
        Slot {
            bits: (0..words).map(|_| AtomicU64::new(0)).collect(),
            progress: AtomicUsize::new(0),
        }
    }

    fn word(&self, k: usize) -> u64 {
        self.bits[k].load(Ordering::Relaxed)
    }
}

/// What the workers share: the slots by layer, the first layer after which nothing is
/// undecided, and the stop flag.
struct Board {
    state: Mutex<State>,
    changed: Condvar,
    stop: AtomicBool,
    /// Positions decided so far (for the observer).
    decided: AtomicU64,
    /// A value reached 65535.
    overflow: AtomicBool,
}

struct State {
    /// slots[i]: the positions of value >= i, once layer i − 1 has started (until layer i
    /// has finished).
    slots: Vec<Option<Arc<Slot>>>,
    /// The layer after which nothing was left (usize::MAX until one is found).
    last: usize,
}

impl Board {
    fn halt(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let _g = lock(&self.state);
        self.changed.notify_all();
    }
}

/// Stops the other workers when one unwinds (they would wait for it for ever).
struct HaltOnPanic<'a>(&'a Board);

impl Drop for HaltOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.halt();
        }
    }
}

/// The run was stopped (by the observer or a panicking worker).
struct Halt;

/// How a new member marks its moves inside its leaf.
enum Near<'a> {
    /// The moves below LEAF, one by one.
    List(&'a [usize]),
    /// The moves' bits, a word at a time.
    Bits(&'a [u64]),
}

/// One layer: the members of `open` (U_i) that no move from another member reaches, in
/// increasing order (see the module documentation). `first`: the least position that may
/// be an option (1 when a move may not empty the heap).
struct Layer<'a> {
    plans: &'a Plans,
    bufs: &'a mut Buffers,
    board: &'a Board,
    open: &'a Slot,
    out: &'a Slot,
    near: &'a Near<'a>,
    first: usize,
    len: usize,
    member: Vec<u64>,
    hit: Vec<u64>,
    /// `open` is known below this.
    known: usize,
    /// `out` is written below this (a multiple of 64, or the end).
    published: usize,
}

impl Layer<'_> {
    /// Decides [l, r) (a power of two long, aligned), every hit from before l marked.
    fn solve(&mut self, l: usize, r: usize) -> Result<(), Halt> {
        if l >= self.len || self.known_empty(l, r.min(self.len)) {
            return self.publish(r);
        }
        if r - l <= LEAF {
            let r = r.min(self.len);
            self.wait(r)?;
            self.leaf(l, r);
            return self.publish(r);
        }
        let m = (l + r) / 2;
        self.solve(l, m)?;
        if m < self.len && any_in(|k| self.member[k], l, m) && !self.known_empty(m, r) {
            let q = (m - l).min(FFT_MAX / 2);
            for a in (l..m).step_by(q) {
                if !any_in(|k| self.member[k], a, a + q) {
                    continue;
                }
                for b in (m..r.min(self.len)).step_by(q) {
                    if !self.known_empty(b, (b + q).min(self.len)) {
                        let member = &self.member;
                        let (first, hit) = (self.first, &mut self.hit);
                        product(self.plans, self.bufs, member, first, a, b, q, hit);
                    }
                }
            }
        }
        self.solve(m, r)
    }

    /// Is [l, r) known to hold no undecided position? (False while it is not known.)
    fn known_empty(&mut self, l: usize, r: usize) -> bool {
        if l >= r {
            return true;
        }
        if r > self.known {
            self.known = self.open.progress.load(Ordering::Acquire);
            if r > self.known {
                return false;
            }
        }
        !any_in(|k| self.open.word(k), l, r)
    }

    /// Waits until `open` is known below r.
    fn wait(&mut self, r: usize) -> Result<(), Halt> {
        if r <= self.known {
            return Ok(());
        }
        self.known = self.open.progress.load(Ordering::Acquire);
        if r <= self.known {
            return Ok(());
        }
        let mut g = lock(&self.board.state);
        loop {
            if self.board.stop.load(Ordering::Relaxed) {
                return Err(Halt);
            }
            self.known = self.open.progress.load(Ordering::Acquire);
            if r <= self.known {
                return Ok(());
            }
            g = self
                .board
                .changed
                .wait(g)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// [0, r) is decided: writes the next layer's bits there and says so.
    fn publish(&mut self, r: usize) -> Result<(), Halt> {
        let words = r.div_ceil(64).min(self.out.bits.len());
        for k in self.published / 64..words {
            // (past what is known, `open` has no bit: those positions are past the end)
            let w = self.open.word(k) & !self.member[k];
            self.out.bits[k].store(w, Ordering::Relaxed);
        }
        self.published = self.published.max(words * 64);
        self.out.progress.store(self.published, Ordering::Release);
        let _g = lock(&self.board.state);
        self.board.changed.notify_all();
        if self.board.stop.load(Ordering::Relaxed) {
            return Err(Halt);
        }
        Ok(())
    }

    /// Decides [l, r) directly: in increasing order, an open position that is not hit is a
    /// member, and marks its moves inside the leaf.
    fn leaf(&mut self, l: usize, r: usize) {
        let mut count = 0;
        for k in l / 64..r.div_ceil(64) {
            let open = self.open.word(k);
            let mut above = !0u64;
            loop {
                let c = open & !self.hit[k] & above;
                if c == 0 {
                    break;
                }
                let b = c.trailing_zeros() as usize;
                above = (!0u64 << b) << 1;
                let n = 64 * k + b;
                set(&mut self.member, n);
                count += 1;
                if n >= self.first {
                    self.mark(n, r);
                }
            }
        }
        self.board.decided.fetch_add(count, Ordering::Relaxed);
    }

    /// Marks the positions n + s < r (s a move) as hit (any word-wise extra past r is a true
    /// hit too).
    #[inline]
    fn mark(&mut self, n: usize, r: usize) {
        match *self.near {
            Near::List(near) => {
                for &s in near {
                    let t = n + s;
                    if t >= r {
                        break;
                    }
                    set(&mut self.hit, t);
                }
            }
            Near::Bits(s) => {
                let (a, c) = (n / 64, n % 64);
                let end = r.div_ceil(64);
                // hit word a + j gets the moves of words j and j − 1 shifted by c
                self.hit[a] |= s[0] << c;
                for j in 1..end - a {
                    let lo = if c == 0 { 0 } else { s[j - 1] >> (64 - c) };
                    self.hit[a + j] |= (s[j] << c) | lo;
                }
            }
        }
    }
}

/// Is any bit in [l, r) set, the words read by `word`?
fn any_in(word: impl Fn(usize) -> u64, l: usize, r: usize) -> bool {
    if l >= r {
        return false;
    }
    let (wl, wr) = (l >> 6, (r - 1) >> 6);
    let lo_mask = !0u64 << (l & 63);
    let hi_mask = !0u64 >> (63 - ((r - 1) & 63));
    if wl == wr {
        return word(wl) & lo_mask & hi_mask != 0;
    }
    word(wl) & lo_mask != 0 || (wl + 1..wr).any(|k| word(k) != 0) || word(wr) & hi_mask != 0
}

/// What one layer's worker needs besides its buffers.
struct Run<'a> {
    plans: &'a Plans,
    board: &'a Board,
    near: Near<'a>,
    first: usize,
    len: usize,
    top: usize,
}

impl Run<'_> {
    /// Worker `me` of `workers`: layers me, me + workers, …, each layer's members sent on.
    fn worker(&self, me: usize, workers: usize, done: &mpsc::Sender<(usize, Vec<u64>)>) {
        let _guard = HaltOnPanic(self.board);
        let mut bufs = Buffers::default();
        for i in (me..).step_by(workers) {
            if i >= usize::from(u16::MAX) {
                self.board.overflow.store(true, Ordering::Relaxed);
                self.board.halt();
                return;
            }
            let Some((open, out)) = self.start(i) else {
                return;
            };
            let mut layer = Layer {
                plans: self.plans,
                bufs: &mut bufs,
                board: self.board,
                open: &open,
                out: &out,
                near: &self.near,
                first: self.first,
                len: self.len,
                member: bits(self.top),
                hit: bits(self.top),
                known: 0,
                published: 0,
            };
            if layer.solve(0, self.top).is_err() {
                return;
            }
            let member = layer.member;
            let left = out.bits.iter().any(|w| w.load(Ordering::Relaxed) != 0);
            {
                let mut st = lock(&self.board.state);
                if !left {
                    st.last = st.last.min(i);
                }
                st.slots[i] = None;
            }
            // (the receiver goes only when every worker has)
            let _ = done.send((i, member));
        }
    }

    /// Layer i's input and output slots, once layer i − 1 has started; None when layer i
    /// is not needed (nothing is left before it) or the run stops.
    fn start(&self, i: usize) -> Option<(Arc<Slot>, Arc<Slot>)> {
        let mut st = lock(&self.board.state);
        loop {
            if self.board.stop.load(Ordering::Relaxed) || i > st.last {
                return None;
            }
            if let Some(Some(open)) = st.slots.get(i) {
                let open = Arc::clone(open);
                let out = Arc::new(Slot::new(self.top / 64));
                debug_assert_eq!(st.slots.len(), i + 1);
                st.slots.push(Some(Arc::clone(&out)));
                self.board.changed.notify_all();
                return Some((open, out));
            }
            st = self
                .board
                .changed
                .wait(st)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// Grundy values 0..=max of the subtraction game with the increasing move list `moves`
/// (every s >= 1), where a move may not empty the heap when `leave1`, layer by layer (see
/// the module documentation), on every core the rayon pool allows. None when a value would
/// reach 65535 (the caller then uses an engine without that limit).
///
/// # Errors
/// [`Stopped`] when the observer behind `watch` stops the run (asked about every tenth of
/// a second).
pub(crate) fn layered_grundy(
    moves: &[u64],
    leave1: bool,
    max: u64,
    watch: &mut Watch,
) -> Result<Option<Vec<u16>>, Stopped> {
    layered(moves, leave1, max, watch, helpers_here() + 1)
}

/// [`layered_grundy`] with `workers` threads (at least one).
fn layered(
    moves: &[u64],
    leave1: bool,
    max: u64,
    watch: &mut Watch,
    workers: usize,
) -> Result<Option<Vec<u16>>, Stopped> {
    let workers = workers.max(1);
    let len = usize::try_from(max).expect("a table that fits in memory") + 1;
    // (bit sets span the whole top block: positions past max are never open)
    let top = len.next_power_of_two().max(LEAF);
    let mut s = bits(top);
    let mut near = vec![];
    for &m in moves {
        if (m as usize) < len && m >= 1 {
            set(&mut s, m as usize);
            if (m as usize) < LEAF {
                near.push(m as usize);
            }
        }
    }
    let plans = Plans::new(s, top);
    let near = if near.len() > LIST_MARKS {
        Near::Bits(&plans.moves[..LEAF / 64])
    } else {
        Near::List(&near)
    };
    let base = Slot::new(top / 64);
    for k in 0..len / 64 {
        base.bits[k].store(!0, Ordering::Relaxed);
    }
    if len % 64 != 0 {
        base.bits[len / 64].store((1u64 << (len % 64)) - 1, Ordering::Relaxed);
    }
    base.progress.store(usize::MAX, Ordering::Relaxed);
    let board = Board {
        state: Mutex::new(State {
            slots: vec![Some(Arc::new(base))],
            last: usize::MAX,
        }),
        changed: Condvar::new(),
        stop: AtomicBool::new(false),
        decided: AtomicU64::new(0),
        overflow: AtomicBool::new(false),
    };
    let run = Run {
        plans: &plans,
        board: &board,
        near,
        first: usize::from(leave1),
        len,
        top,
    };
    let mut g = vec![u16::MAX; len];
    let mut stopped = None;
    let (tx, rx) = mpsc::channel::<(usize, Vec<u64>)>();
    std::thread::scope(|sc| {
        for me in 0..workers {
            let (run, tx) = (&run, tx.clone());
            sc.spawn(move || run.worker(me, workers, &tx));
        }
        drop(tx);
        loop {
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok((value, member)) => {
                    for (k, &mw) in member.iter().enumerate() {
                        let mut w = mw;
                        while w != 0 {
                            g[64 * k + w.trailing_zeros() as usize] = value as u16;
                            w &= w - 1;
                        }
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if stopped.is_none() {
                if let Err(e) = watch.at(board.decided.load(Ordering::Relaxed)) {
                    stopped = Some(e);
                    board.halt();
                }
            }
        }
    });
    if let Some(e) = stopped {
        return Err(e);
    }
    if board.overflow.load(Ordering::Relaxed) {
        return Ok(None);
    }
    debug_assert!(g.iter().all(|&v| v != u16::MAX));
    Ok(Some(g))
}

#[cfg(test)]
mod tests;
