//! Record runs: Grundy values of a take-and-break code (or Grundy's game) to heights far
//! beyond a whole table in memory, keeping a prefix and a window (`heaplab record`).
//!
//! # The rule, and why it is sound
//!
//! The sparse-space method (Winning Ways ch. 4; A. Flammenkamp, "Sparse- and
//! common-positions of Sprague–Grundy values of octal games"; [`crate::engines`]'s
//! `sparse`) finds g(n) from three kinds of options: those leaving one heap (n − t for the
//! code's takes t, at most the largest take T below n), the splits with a *rare* part r
//! (the other part s − r), and, only while abundant values are still missing, the sweep of
//! splits (a, s − a) from a = 1 upward. A record run keeps
//!
//! * the **prefix** g(0..K), K = `keep`, and
//! * the **window** of the last W = K + T + 4·64 values below the position being decided,
//!
//! and gives the pages between them back to the system. Every value read is then kept as
//! long as (1) every rare position is below K — then s − r >= n − T − K lies in the
//! window — and (2) every sweep finds its witnesses with parts a < K — then a is in the
//! prefix and s − a in the window. The engine checks both: a sweep that would read a part
//! from K on stops the run at that position (the value is never guessed), and a rare
//! position at K or later stops it when its segment ends (no value of that segment read
//! anything released: a segment is at most K positions long, so s − r < K). Before the
//! first page is released the whole table is there, so K first *grows* to cover every rare
//! position found so far, and the run says so. The mask that classifies positions is the
//! one the whole-table engine chose by then; it only changes the speed, never a value.
//!
//! What a run gives: value-frequency snapshots over heaps 1..=2^k as each 2^k is passed
//! (the record tables' format: every value from 0 to the largest, zero counts included),
//! the rare positions with their values, the largest value and where it first occurs, a
//! period proven by Guy–Smith if one shows in the window, else the periods the window
//! excludes, and checkpoints ([`encode`]) from which a run on another machine resumes with
//! identical results.
//!
//! Other games whose Grundy table can be continued (subtraction games such as
//! subtract-a-square, whose values need options from every earlier heap) keep the whole
//! table instead ([`RecordWay::WholeTable`]), grown in checkpointed segments.

use crate::engines::mem::Sliding;
use crate::engines::sparse::{
    take_break_grundy_from, Blocks, Mask, RareList, Stamps, Table, PREFIX,
};
use crate::error::Error;
use crate::game::Game;
use crate::moves::breaker::{guy_smith_bound, Breaker};
use crate::moves::Play;
use crate::observe::{Observer, Watch};
use crate::saved::{after_header, header, seal, unseal, Key};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// The prefix a record run keeps unless told otherwise: 2^24 values.
pub const DEFAULT_KEEP: u64 = 1 << 24;
/// The least prefix a run may keep.
pub const MIN_KEEP: u64 = 1 << 12;
/// Longest segment between the run's bookkeeping (counts, releases, checkpoints).
const SEGMENT: u64 = 1 << 22;
/// The first power of two a snapshot is written for.
pub const SNAP_FROM: u32 = 10;

/// The state of a record run after positions 0..n: what a checkpoint holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordState {
    /// Positions 0..n are decided.
    pub n: u64,
    /// The prefix kept, K.
    pub keep: u64,
    /// g(0..min(K, n)).
    prefix: Vec<u32>,
    /// First position of `window`.
    window_from: u64,
    /// g(window_from..n).
    window: Vec<u32>,
    /// The mask classifying rare positions.
    mask: Mask,
    /// Rare positions and their values, increasing.
    rare: Vec<(u64, u32)>,
    /// How many heaps 1..n have each value.
    freq: Vec<u64>,
    /// Where the largest value first occurs.
    largest_at: u64,
    /// A period (n0, p) proven before the window was first released.
    period: Option<(u64, u64)>,
    /// Heaps whose value was found with parts read back from the front end's copy.
    fallbacks: Vec<u64>,
}

/// What a record run found.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordRun {
    /// The last heap, N.
    pub max: u64,
    /// The prefix kept (grown past the asked one when a rare position needed it).
    pub keep: u64,
    /// The prefix asked for, as the run took it: the `keep` argument clamped to between 256
    /// and N + 1 (a prefix never holds more than the whole table).
    pub keep_asked: u64,
    /// Values in the window.
    pub window: u64,
    /// The sparse-space mask (None: the run never needed one: N within the first phase).
    pub mask: Option<Mask>,
    /// Rare positions n >= 1 under the mask, with their values.
    pub rare: Vec<(u64, u32)>,
    /// How many heaps 1..=N have each value 0..=largest.
    pub freq: Vec<u64>,
    /// The largest value among heaps 0..=N.
    pub largest: u32,
    /// The least heap with that value.
    pub largest_at: u64,
    /// A period (preperiod n0, period p) proven by Guy–Smith (values to 2·n0 + 2p + t).
    pub period: Option<(u64, u64)>,
    /// Values at the end looked at for periods, and the least period p they have: no
    /// period below p starts at or before N + 1 − (values looked at).
    pub tail: Option<(u64, u64)>,
    /// Where a resumed run took up its checkpoint.
    pub resumed_at: Option<u64>,
    /// Heaps whose value needed parts given back, read from the front end's copy (a new
    /// rare position, or a witness beyond the prefix), since the run (or its first
    /// checkpoint) began.
    pub fallbacks: Vec<u64>,
    /// The peak memory the run planned for, bytes.
    pub planned_bytes: u64,
}

/// What a front end does during a record run.
pub trait RecordHooks {
    /// Heaps 1..=2^k are decided; `freq[v]` of them have value v (the last entry nonzero).
    ///
    /// # Errors
    /// Why writing the snapshot failed, in one line: the run stops.
    fn passed(&mut self, k: u32, freq: &[u64]) -> Result<(), String>;
    /// A checkpoint is due.
    ///
    /// # Errors
    /// Why saving failed, in one line: the run stops.
    fn save(&mut self, state: &RecordState) -> Result<(), String>;
    /// The values of heaps `from..from + values.len()`, in order, each heap once (for a
    /// front end that writes the whole table as it goes; nothing by default).
    ///
    /// # Errors
    /// Why writing them failed, in one line: the run stops.
    fn values(&mut self, from: u64, values: &[u32]) -> Result<(), String> {
        let _ = (from, values);
        Ok(())
    }
    /// Whether [`RecordHooks::fetch`] can give values back (the front end keeps a copy of
    /// what `values` handed over): then the run never stops for a witness or a rare
    /// position beyond the prefix, it reads those values back instead.
    fn can_fetch(&self) -> bool {
        false
    }
    /// Fills `out` with the values of heaps `from..from + out.len()`, all handed over by
    /// `values` earlier; Ok(false) when no copy is kept.
    ///
    /// # Errors
    /// Why reading them failed, in one line: the run stops.
    fn fetch(&mut self, from: u64, out: &mut [u32]) -> Result<bool, String> {
        let _ = (from, out);
        Ok(false)
    }
}

/// The rule of a record run: a take-and-break game in normal play whose splits leave two
/// heaps (never three), or why not.
///
/// # Errors
/// [`Error::Unsupported`] naming the reason.
pub fn record_rule(game: &Game) -> Result<Breaker, Error> {
    let unsupported = |why: &str| Error::Unsupported {
        what: format!("record mode {why}; {game} is not (use `heaplab table --grundy`)"),
    };
    if game.play() != Play::Normal {
        return Err(unsupported("is for normal play"));
    }
    let br = Breaker::of(game)
        .ok_or_else(|| unsupported("is for take-and-break codes and Grundy's game"))?;
    if !crate::engines::sparse::sparse_applies(&br) {
        return Err(unsupported(
            "needs moves that split a heap in two (and never in three)",
        ));
    }
    Ok(br)
}

/// How a record run of a game goes.
#[derive(Debug, Clone)]
pub enum RecordWay {
    /// The prefix-and-window run of [`record_run`]: a take-and-break game in normal play
    /// whose splits leave two heaps (never three), Grundy's game included.
    Sparse(Breaker),
    /// Every value in memory, grown in segments with checkpoints and snapshots
    /// ([`crate::saved::grundy::in_segments`]): the other games whose Grundy table can be
    /// continued ([`crate::grundy_resumable`]), such as subtract-a-square. The run's summary
    /// is [`whole_table_run`].
    WholeTable,
}

/// How a record run of `game` goes ([`RecordWay`]), or why there is none.
///
/// # Errors
/// [`Error::Unsupported`] naming the reason: misère play, or a game whose Grundy table
/// cannot be continued in segments (all-but sets, listed moves, beyond one heap).
pub fn record_way(game: &Game) -> Result<RecordWay, Error> {
    match record_rule(game) {
        Ok(br) => Ok(RecordWay::Sparse(br)),
        Err(_) if crate::grundy_resumable(game) => Ok(RecordWay::WholeTable),
        Err(e) if game.play() != Play::Normal => Err(e),
        Err(_) => Err(Error::Unsupported {
            what: format!(
                "record mode is for take-and-break codes, Grundy's game and subtraction games \
                 with a finite or named move set; {game} is not (use `heaplab table --grundy`)"
            ),
        }),
    }
}

/// How many of the heaps 1..=`upto` of the table `g` have each value (every value from 0
/// to the largest, zero counts included: a record table's snapshot), and the least heap in
/// 0..=`upto` with the largest value. `upto` is cut to the table's last heap.
pub fn frequencies(g: &crate::GrundyTable, upto: u64) -> (Vec<u64>, u64) {
    let len = (g.len() as u64).min(upto.saturating_add(1));
    let (mut freq, mut largest_at) = (Vec::new(), 0);
    const CHUNK: u64 = 1 << 20;
    let mut from = 0;
    while from < len {
        let to = (from + CHUNK).min(len);
        for (x, v) in (from..).zip(g.slice_u32(from as usize, to as usize)) {
            tally(&mut freq, &mut largest_at, x, v);
        }
        from = to;
    }
    // heap 0 (value 0) counts for the largest value, not in the frequencies
    if let Some(f) = freq.first_mut() {
        *f -= 1;
    }
    (freq, largest_at)
}

/// The summary of a record run that kept the whole table `g` (values of heaps 0..=N,
/// [`RecordWay::WholeTable`]): the value frequencies over heaps 1..=N, the largest value
/// and its first heap; no mask, rare positions or period (`tail` and `period` are None).
pub fn whole_table_run(g: &crate::GrundyTable) -> RecordRun {
    let len = g.len() as u64;
    let (freq, largest_at) = frequencies(g, len.saturating_sub(1));
    RecordRun {
        max: len.saturating_sub(1),
        keep: len,
        keep_asked: len,
        window: 0,
        mask: None,
        rare: vec![],
        largest: freq.len().saturating_sub(1) as u32,
        freq,
        largest_at,
        period: None,
        tail: None,
        resumed_at: None,
        fallbacks: vec![],
        planned_bytes: 0,
    }
}

/// The window a run keeping `keep` values keeps for `br`.
fn window_of(br: &Breaker, keep: u64) -> u64 {
    keep + br.last_take() + 4 * 64
}

/// The peak memory of a record run of `br` to `max` keeping `keep` (bytes): the first
/// phase's whole table to min(N, 2K) next to its copy, or the prefix, window and one
/// segment, whichever is larger, with the period check's array of one window, plus a
/// margin for the engine's rows and lists. (Measured: 0.167 to 2^26 with K = 2^24 peaks
/// at 363 MiB; this says 384 MiB.)
pub fn record_memory(br: &Breaker, max: u64, keep: u64) -> u64 {
    let first = max.min(2 * keep).saturating_add(1);
    let steady = keep + window_of(br, keep) + SEGMENT.min(keep);
    let values = (2 * first).max(if max > 2 * keep { steady } else { 0 });
    let check = window_of(br, keep).min(max + 1);
    (values + check).saturating_mul(4).saturating_add(64 << 20)
}

/// Bytes of a checkpoint of a run keeping `keep` (at most: two bytes a value when values
/// stay below 2^14, as checkpoints store them).
pub fn record_checkpoint_bytes(br: &Breaker, keep: u64) -> u64 {
    (keep + window_of(br, keep)) * 3 + (1 << 20)
}

/// Grundy values of `game` to `max` in a record run (see the module documentation),
/// keeping `keep` values (at least [`MIN_KEEP`]), resuming `saved` when given (a
/// checkpoint's state, checked by [`decode`]), calling `hooks` as powers of two are passed
/// and every `every` seconds (the first after 10 s, then at doubling intervals) to save.
/// `obs` sees positions out of N + 1.
///
/// # Errors
/// [`Error::Unsupported`] for a game the record mode cannot run, or when the run stops
/// because a witness or a rare position lies beyond what is kept (the message says where
/// and what to do); [`Error::OutOfMemory`] when the address space cannot be reserved;
/// [`Error::Callback`] when a hook fails; [`Error::Cancelled`] when `obs` stops it (after
/// the record phase has begun, its state at the start of the segment is saved first).
pub fn record_run(
    game: &Game,
    max: u64,
    keep: u64,
    saved: Option<RecordState>,
    every: f64,
    obs: &dyn Observer,
    hooks: &mut dyn RecordHooks,
) -> Result<RecordRun, Error> {
    run_keeping(
        game,
        max,
        keep.max(MIN_KEEP),
        PREFIX,
        saved,
        every,
        obs,
        hooks,
    )
}

/// [`record_run`] keeping exactly `keep` (tests keep less than [`MIN_KEEP`]), the
/// whole-table engine scanning `prefix` positions plainly before it picks a mask.
#[allow(clippy::too_many_arguments)]
fn run_keeping(
    game: &Game,
    max: u64,
    keep: u64,
    prefix: u64,
    saved: Option<RecordState>,
    every: f64,
    obs: &dyn Observer,
    hooks: &mut dyn RecordHooks,
) -> Result<RecordRun, Error> {
    let br = record_rule(game)?;
    // (no more than the whole table)
    let keep_asked = keep.min(max.saturating_add(1)).max(256);
    let callback = |what: String| Error::Callback { what };
    let mut watch = Watch::start(obs, max.saturating_add(1))?;
    let planned_bytes = record_memory(&br, max, keep_asked);
    let mut snapped = SNAP_FROM;
    let resumed_at = saved.as_ref().map(|s| s.n);
    // the first phase's whole table, copied into the run's table (no other copy is made)
    let mut fresh: Option<Vec<u32>> = None;
    let mut state = match saved {
        Some(s) if s.n > max => {
            return Err(Error::Unsupported {
                what: format!(
                    "the checkpoint is at heap {}, past N = {max}: a record run goes forward \
                     only",
                    s.n - 1
                ),
            })
        }
        Some(s) => {
            while snapped < 64 && (1u64 << snapped) < s.n {
                snapped += 1;
            }
            s
        }
        None => {
            // First phase: the whole table to min(N, 2K) by the usual engine.
            let first = max.min(2 * keep_asked);
            let (g, stats) = take_break_grundy_from(&br, first, prefix, None, &mut watch)?;
            hooks.values(0, &g).map_err(callback)?;
            let mut freq: Vec<u64> = Vec::new();
            let mut largest_at = 0;
            for (x, &v) in g.iter().enumerate().skip(1) {
                tally(&mut freq, &mut largest_at, x as u64, v);
                if snapped < 64 && x as u64 == 1 << snapped {
                    hooks.passed(snapped, &freq).map_err(callback)?;
                    snapped += 1;
                }
            }
            if first == max {
                let tail = tail_of(&br, &g, 0, stats.period);
                let mask = stats.mask;
                let rare = match mask {
                    Some(m) => rare_of(m, &g),
                    None => vec![],
                };
                return Ok(RecordRun {
                    max,
                    keep: keep_asked,
                    keep_asked,
                    window: window_of(&br, keep_asked),
                    mask,
                    rare,
                    largest: freq.len().saturating_sub(1) as u32,
                    freq,
                    largest_at,
                    period: tail.0,
                    tail: tail.1,
                    resumed_at,
                    planned_bytes,
                    fallbacks: vec![],
                });
            }
            let Some(mask) = stats.mask.or(stats.period.map(|_| Mask {
                bits: 1,
                domain: false,
                rare: 0,
            })) else {
                return Err(Error::Unsupported {
                    what: format!(
                        "record mode needs sparse values (a mask leaving few rare \
                         positions), and {game} shows none to heap {first}: its whole table \
                         is needed (`heaplab table --grundy`)"
                    ),
                });
            };
            let rare = match stats.mask {
                Some(_) => rare_of(mask, &g),
                None => vec![],
            };
            // Grow the prefix over every rare position (and a proven period's values)
            // while the whole table is still here.
            let mut keep = keep_asked;
            if let Some(&(r, _)) = rare.last() {
                keep = keep.max(r + 1);
            }
            if let Some((n0, p)) = stats.period {
                keep = keep.max(n0 + p);
            }
            let n = first + 1;
            fresh = Some(g);
            RecordState {
                n,
                keep,
                prefix: Vec::new(),
                window_from: n,
                window: Vec::new(),
                mask,
                rare,
                freq,
                largest_at,
                period: stats.period,
                fallbacks: vec![],
            }
        }
    };
    let keep = state.keep;
    let w = window_of(&br, keep);
    let mut store = Sliding::new(max as usize + 1).ok_or(Error::OutOfMemory {
        what: "the record run's address space",
        bytes: (max + 1) * 4,
        most: None,
    })?;
    match fresh.take() {
        Some(g) => store.get_mut(0..g.len()).copy_from_slice(&g),
        None => {
            store
                .get_mut(0..state.prefix.len())
                .copy_from_slice(&state.prefix);
            let wf = state.window_from as usize;
            store
                .get_mut(wf..wf + state.window.len())
                .copy_from_slice(&state.window);
        }
    }
    state.prefix = Vec::new();
    state.window = Vec::new();
    let mut released = state.n.saturating_sub(w).max(keep);
    store.release(keep as usize, released as usize);
    let no_copy = |what: String| Error::Unsupported {
        what: format!(
            "record run stopped: {what}, beyond the prefix of {keep} values kept, and no copy \
             of the values given back is at hand; rerun with a larger --keep or with a copy \
             (the values before it are right, and the snapshots written stand)"
        ),
    };
    let mut pos: Vec<u64> = state.rare.iter().map(|r| r.0).collect();
    let mut val: Vec<u32> = state.rare.iter().map(|r| r.1).collect();
    let mut maxv = state.freq.len().saturating_sub(1) as u32;
    let mut blocks = Blocks::default();
    let mut st = Stamps::default();
    let mut n = state.n;
    let mut gap = every.min(10.0);
    let mut since = Instant::now();
    let seg = SEGMENT.min(keep);
    while n <= max {
        let mut to = max.min(n + seg - 1);
        if snapped < 64 && (1u64 << snapped) >= n {
            to = to.min(1 << snapped);
        }
        let done: Result<(), crate::observe::Stopped> = 'seg: {
            match state.period {
                Some((n0, p)) => {
                    for x in n..=to {
                        if let Err(e) = watch.at(x) {
                            break 'seg Err(e);
                        }
                        let v = store.get(0..keep as usize)[(n0 + (x - n0) % p) as usize];
                        store.get_mut(x as usize..x as usize + 1)[0] = v;
                    }
                }
                None => {
                    let spill = hooks.can_fetch();
                    // rare parts from K on read g(x − take − r): refill those values from the
                    // front end's copy where they were given back
                    let tmax = br.last_take();
                    for &r in pos.iter().filter(|&&r| r >= keep) {
                        let lo = n.saturating_sub(tmax + r).max(keep);
                        let hi = (to + 1).saturating_sub(r).min(released);
                        if lo < hi {
                            let mut buf = vec![0u32; (hi - lo) as usize];
                            if !hooks.fetch(lo, &mut buf).map_err(callback)? {
                                return Err(no_copy(format!("heap {r} is a rare position")));
                            }
                            store
                                .get_mut(lo as usize..hi as usize)
                                .copy_from_slice(&buf);
                        }
                    }
                    let mut from = n;
                    while from <= to {
                        let tab = Table {
                            ptr: store.as_mut_ptr(),
                            len: store.len(),
                        };
                        let before = pos.len();
                        let mut rl = RareList {
                            pos: &mut pos,
                            val: &mut val,
                        };
                        let cut = match blocks.run(
                            &br, tab, keep, state.mask, &mut rl, &mut maxv, from, to, &mut st,
                            &mut watch,
                        ) {
                            Ok(cut) => cut,
                            Err(e) => break 'seg Err(e),
                        };
                        if !spill {
                            if let Some(&r) = pos[before..].iter().find(|&&r| r >= keep) {
                                return Err(no_copy(format!("heap {r} is a new rare position")));
                            }
                        }
                        let Some(x) = cut else { break };
                        // The fallback: g(x) from every option, the parts given back read from
                        // the front end's copy.
                        let Some(v) = value_from_copy(&br, &store, keep, released, x, hooks)
                            .map_err(callback)?
                        else {
                            return Err(no_copy(format!(
                                "a witness for the value of heap {x} lies in a part of {keep} \
                                 or more"
                            )));
                        };
                        store.get_mut(x as usize..x as usize + 1)[0] = v;
                        maxv = maxv.max(v);
                        if state.mask.is_rare(x, v) {
                            pos.push(x);
                            val.push(v);
                        }
                        state.fallbacks.push(x);
                        from = x + 1;
                    }
                }
            }
            Ok(())
        };
        if done.is_err() {
            // stopped inside the segment (an interrupt): the state before it is saved, so
            // a resume redoes only this segment
            state.fallbacks.retain(|&x| x < n);
            let keep_rare = pos.partition_point(|&r| r < n);
            pos.truncate(keep_rare);
            val.truncate(keep_rare);
            save_at(&mut state, n, keep, w, &store, &pos, &val, hooks).map_err(callback)?;
            return Err(Error::Cancelled { done: n });
        }
        for (x, &v) in (n..).zip(store.get(n as usize..to as usize + 1)) {
            tally(&mut state.freq, &mut state.largest_at, x, v);
        }
        maxv = maxv.max(state.freq.len().saturating_sub(1) as u32);
        hooks
            .values(n, store.get(n as usize..to as usize + 1))
            .map_err(callback)?;
        n = to + 1;
        if snapped < 64 && 1u64 << snapped == to {
            hooks.passed(snapped, &state.freq).map_err(callback)?;
            snapped += 1;
        }
        // values below n − W (and from K on) are read again only from the front end's copy
        released = released.max(n.saturating_sub(w));
        store.release(keep as usize, released as usize);
        if n <= max && since.elapsed().as_secs_f64() >= gap {
            save_at(&mut state, n, keep, w, &store, &pos, &val, hooks).map_err(callback)?;
            since = Instant::now();
            gap = (gap * 2.0).min(every);
        }
    }
    let from = (max + 1).saturating_sub(w).max(keep.min(max + 1));
    let tail = tail_of(
        &br,
        store.get(from as usize..max as usize + 1),
        from,
        state.period,
    );
    Ok(RecordRun {
        max,
        keep,
        keep_asked,
        window: w,
        mask: Some(state.mask),
        rare: pos.into_iter().zip(val).collect(),
        largest: state.freq.len().saturating_sub(1) as u32,
        freq: state.freq,
        largest_at: state.largest_at,
        period: tail.0,
        tail: tail.1,
        resumed_at,
        planned_bytes,
        fallbacks: state.fallbacks,
    })
}

/// Two numbers: (preperiod, period), or (values looked at, their least period).
type Pair = (u64, u64);

/// Values of heaps `range` into `out`: from `store` where kept (below `keep`, and from
/// `released` on), from the front end's copy between. Ok(false) when no copy is kept.
fn read_values(
    store: &Sliding,
    keep: u64,
    released: u64,
    range: std::ops::Range<u64>,
    hooks: &mut dyn RecordHooks,
    out: &mut Vec<u32>,
) -> Result<bool, String> {
    out.clear();
    out.resize((range.end - range.start) as usize, 0);
    let mut y = range.start;
    while y < range.end {
        let (end, kept) = if y < keep {
            (range.end.min(keep), true)
        } else if y < released {
            (range.end.min(released), false)
        } else {
            (range.end, true)
        };
        let dst = &mut out[(y - range.start) as usize..(end - range.start) as usize];
        if kept {
            dst.copy_from_slice(store.get(y as usize..end as usize));
        } else if !hooks.fetch(y, dst)? {
            return Ok(false);
        }
        y = end;
    }
    Ok(true)
}

/// g(x) from the definition: every option of heap x, parts kept read from `store`, the
/// others from the front end's copy (a chunk at a time); None when no copy is kept.
fn value_from_copy(
    br: &Breaker,
    store: &Sliding,
    keep: u64,
    released: u64,
    x: u64,
    hooks: &mut dyn RecordHooks,
) -> Result<Option<u32>, String> {
    const CHUNK: u64 = 1 << 20;
    let mut set = crate::mex::ValueSet::default();
    let (mut aa, mut bb) = (Vec::new(), Vec::new());
    for d in &br.digits {
        // (one-heap options are within the largest take of x: kept in the window)
        let Some(s) = d.leave_at_most_one(
            x,
            |y| store.get(y as usize..y as usize + 1)[0],
            |v| set.insert(v),
        ) else {
            continue;
        };
        if !(d.two && s >= 2) {
            continue;
        }
        let top = crate::moves::breaker::pair_top(s, d.unequal);
        let mut a0 = 1;
        while a0 <= top {
            let a1 = (a0 + CHUNK).min(top + 1);
            // parts a in a0..a1 and b = s − a in s + 1 − a1 ..= s − a0
            if !read_values(store, keep, released, a0..a1, hooks, &mut aa)?
                || !read_values(
                    store,
                    keep,
                    released,
                    s + 1 - a1..s + 1 - a0,
                    hooks,
                    &mut bb,
                )?
            {
                return Ok(None);
            }
            for (ga, gb) in aa.iter().zip(bb.iter().rev()) {
                set.insert(ga ^ gb);
            }
            a0 = a1;
        }
    }
    Ok(Some(set.mex()))
}

/// Saves the run's state at heap `n` (values 0..n final in `store`; the rare positions
/// `pos` with values `val`, all below n; `state`'s counts up to n) through
/// [`RecordHooks::save`]: the prefix of `keep` values and the window of `w` below n.
#[allow(clippy::too_many_arguments)]
fn save_at(
    state: &mut RecordState,
    n: u64,
    keep: u64,
    w: u64,
    store: &Sliding,
    pos: &[u64],
    val: &[u32],
    hooks: &mut dyn RecordHooks,
) -> Result<(), String> {
    let from = n.saturating_sub(w).max(keep.min(n));
    state.n = n;
    state.prefix = store.get(0..keep.min(n) as usize).to_vec();
    state.window_from = from;
    state.window = store.get(from as usize..n as usize).to_vec();
    state.rare = pos.iter().copied().zip(val.iter().copied()).collect();
    let r = hooks.save(state);
    state.prefix = Vec::new();
    state.window = Vec::new();
    r
}

/// Counts value `v` of heap `x` in `freq` (heaps in increasing order); a value beyond every
/// earlier one makes `x` where the largest value first occurs.
fn tally(freq: &mut Vec<u64>, largest_at: &mut u64, x: u64, v: u32) {
    if v as usize >= freq.len() {
        freq.resize(v as usize + 1, 0);
        *largest_at = x;
    }
    freq[v as usize] += 1;
}

/// Rare positions n >= 1 of `g` under `m`, with their values.
fn rare_of(m: Mask, g: &[u32]) -> Vec<(u64, u32)> {
    m.rare_in(g).collect()
}

/// The period proven (one known already, or one the last values `g` = g(from..) show and
/// Guy–Smith proves for an octal rule), and (values looked at, their least period).
fn tail_of(
    br: &Breaker,
    g: &[u32],
    from: u64,
    known: Option<(u64, u64)>,
) -> (Option<Pair>, Option<Pair>) {
    let Some((n0, p)) = crate::period::tail_period(g, g.len()) else {
        return (known, None);
    };
    let (n0, last) = (from + n0, from + g.len() as u64 - 1);
    let proven = known.or_else(|| {
        (br.is_octal() && last >= guy_smith_bound(n0, p, br.last_take())).then_some((n0, p))
    });
    (proven, Some((g.len() as u64, p)))
}

const MAGIC: &[u8; 8] = b"HLRECORD";
/// Version of the checkpoint layout.
const FORMAT: u32 = 1;

/// The bytes of a checkpoint of a record run of `game`: `HLRECORD`, the layout version, the
/// heaplab version, the game's canonical spec, the state (postcard: values as variable-width
/// integers, two bytes each below 2^14), sealed with `key` ([`crate::saved::Key`]).
pub fn encode(game: &Game, state: &RecordState, key: &Key) -> Vec<u8> {
    let mut b = header(MAGIC, FORMAT, game);
    b.extend(postcard::to_stdvec(state).expect("a record state serializes"));
    seal(b, key)
}

/// The state in a record checkpoint's `bytes` for `game`, or why it is refused (a phrase
/// after the checkpoint's name: damaged, another key, another game or heaplab version, or
/// a state that does not hang together). Its prefix is checked against a fresh computation
/// of the first 4096 values.
///
/// # Errors
/// The reason, as above.
pub fn decode(bytes: &[u8], game: &Game, key: &Key) -> Result<RecordState, String> {
    if bytes.len() >= 8 && !bytes.starts_with(MAGIC) {
        return Err("is not a heaplab record checkpoint".into());
    }
    let body = unseal(bytes, key)?;
    let body = after_header(body, MAGIC, FORMAT, game, "record checkpoint")?;
    let state: RecordState =
        postcard::from_bytes(body).map_err(|_| "is damaged (bad state)".to_string())?;
    let whole = state.prefix.len() as u64 == state.keep.min(state.n)
        && state.window_from + state.window.len() as u64 == state.n
        && state.window_from <= state.n
        && state.freq.iter().sum::<u64>() + 1 == state.n
        && state.keep >= 256;
    if !whole {
        return Err("is damaged (its parts do not fit together)".into());
    }
    let check = state.prefix.len().min(4096) as u64;
    if check > 0 {
        let fresh = crate::plan::grundy_table(game, check - 1, &crate::observe::Silent)
            .map_err(|e| e.to_string())?;
        if let Some(x) = (0..check).find(|&x| fresh.get(x) != state.prefix[x as usize]) {
            return Err(format!(
                "says g({x}) = {} but {game} has g({x}) = {}",
                state.prefix[x as usize],
                fresh.get(x)
            ));
        }
    }
    Ok(state)
}

#[cfg(test)]
mod tests;
