//! Pilot runs: the engines themselves run briefly on small sizes to measure what a model
//! cannot know in advance (how fast a take-and-break game's values grow, how long each heap
//! of canonical misère forms takes, how many values a dense set's table holds), once per
//! game and process, and the cost models that extrapolate from them.

use crate::engines::blocked::blocked_mex_grundy;
use crate::engines::layers::FFT_MAX as LAYER_FFT_MAX;
use crate::engines::mex::list_mex_grundy;
use crate::engines::sieve::{p_positions, ListMoves};
use crate::engines::sparse::take_break_grundy;
use crate::moves::breaker::Breaker;
use crate::moves::{Moves, OptionRule};
use crate::observe::Watch;
use crate::sets::MoveSet;

/// The cost hooks of an option rule, or of a seeded start's inner moves (listed one by
/// one, no bit sets).
struct Costed<'a>(&'a Moves);

impl Costed<'_> {
    fn rule(&self) -> Option<&dyn OptionRule> {
        match self.0 {
            Moves::Options(r) => Some(&**r),
            _ => None,
        }
    }
    fn one_heap(&self) -> bool {
        self.rule().is_none_or(|r| r.one_heap())
    }
    fn rows(&self) -> usize {
        self.rule().map_or(0, |r| r.rows())
    }
    fn bitsets(&self, max: u64) -> f64 {
        self.rule().map_or(0.0, |r| r.bitsets(max))
    }
    fn unions_at(&self, n: f64) -> f64 {
        self.rule().map_or(0.0, |r| r.unions_at(n))
    }
    fn singles_at(&self, n: f64) -> f64 {
        match (self.rule(), self.0) {
            (Some(r), _) => r.singles_at(n),
            (None, Moves::Seeded { inner, .. }) => inner.amounts_of(n as u64).len() as f64,
            (None, _) => 1.0,
        }
    }
    /// The largest value of 0..=max, `Err(true)` when the values outgrew `room` (or 32
    /// bits), `Err(false)` when the run was stopped or is not possible.
    fn top_value(&self, max: u64, room: u64, watch: &mut Watch) -> Result<f64, bool> {
        let r = self.rule().ok_or(false)?;
        match r.grundy(max, room, watch) {
            Ok(g) => Ok(f64::from(g.into_iter().max().unwrap_or(0))),
            Err(crate::Error::OutOfMemory { .. } | crate::Error::Unsupported { .. }) => Err(true),
            Err(_) => Err(false),
        }
    }
}

/// How the largest Grundy value of a knapsack game grows with N, from its pilot runs:
/// through the point (n, v), as a power law (exponent `alpha`) or, when the values grow
/// faster than any power the pilot can tell from n^4 (coin turning with wide moves: 2^(n−1)
/// while every subset may be turned), exponentially (`bits` more bits a heap).
#[derive(Debug, Clone, Copy)]
enum Growth {
    Power { n: f64, v: f64, alpha: f64 },
    Exponential { n: f64, v: f64, bits: f64 },
}

impl Growth {
    /// The largest value up to heap `at` (capped at 2^33: values are kept in 32 bits, so
    /// anything past that is refused by the engine anyway).
    fn top(&self, at: f64) -> f64 {
        let v = match *self {
            Growth::Power { n, v, .. } | Growth::Exponential { n, v, .. } if at <= n => v,
            Growth::Power { n, v, alpha } => v * (at / n).powf(alpha),
            Growth::Exponential { n, v, bits } => v * (bits * (at - n)).min(64.0).exp2(),
        };
        v.min(8_589_934_592.0)
    }

    /// The growth through the pilot's points (n, largest value), in increasing n; `outgrew`
    /// when the next size's values no longer fitted the pilot's bit sets (2^28 bytes) or 32
    /// bits, `stopped` when it ran out of time.
    fn fit(points: &[(f64, f64)], outgrew: bool, stopped: bool) -> Growth {
        match *points {
            [.., (n1, v1), (n2, v2)] if v1 >= 1.0 => {
                let alpha = (v2 / v1).log2() / (n2 / n1).log2();
                if alpha > 4.0 || (outgrew && alpha > 1.0) {
                    let bits = ((v2 / v1).log2() / (n2 - n1)).max(if outgrew { 0.5 } else { 0.0 });
                    Growth::Exponential { n: n2, v: v2, bits }
                } else {
                    Growth::Power {
                        n: n2,
                        v: v2,
                        alpha: alpha.clamp(0.0, 4.0),
                    }
                }
            }
            // the values outgrew the pilot from a tiny table on: a bit a heap
            [.., (n, v)] if outgrew => Growth::Exponential {
                n,
                v: v.max(1.0),
                bits: 1.0,
            },
            [.., (n, v)] if stopped => Growth::Power { n, v, alpha: 4.0 },
            [.., (n, v)] => Growth::Power { n, v, alpha: 1.0 },
            // not even 8 heaps in half a second
            [] => Growth::Power {
                n: 64.0,
                v: 1e6,
                alpha: 4.0,
            },
        }
    }
}

/// Pilot results by game, kept for the life of the process.
type Pilots<T> = std::sync::Mutex<Vec<(String, T)>>;

/// The pilot result of the game named `key` in `cache`, made by `run` the first time it is asked for.
fn pilot_once<T: Clone>(cache: &Pilots<T>, key: &str, run: impl FnOnce() -> T) -> T {
    let known = cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(k, _)| k == key)
        .map(|p| p.1.clone());
    known.unwrap_or_else(|| {
        let t = run();
        cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((key.to_string(), t.clone()));
        t
    })
}

/// Seconds and bytes of the knapsack engine for a ruleset over 0..=max. The work is about
/// rows · Σ_a (N − a)·W(a) word operations for the knapsack passes of a code, plus
/// Σ_n (unions(n)·W(n) + listed moves(n)), W(n) the words of a bit set when the values up
/// to n fit (at least one); the memory is the bit sets held, each W(N) words. The values'
/// growth comes from pilot runs to 2^3, 2^4, … 2^11 for at most half a second (a power
/// law through the last two, exponent between 0 and 4: Moebius's values grow like n^3;
/// exponential when faster, as in wide coin turning: [`Growth`]), once per game and
/// process; the rate, 1e9 word operations a second, was measured here
/// (`{2+}.0` to 10^4: 8 s).
pub(crate) fn ruleset_cost(key: &str, moves: &Moves, max: u64) -> (f64, u64) {
    static PILOTS: Pilots<Growth> = std::sync::Mutex::new(Vec::new());
    let r = Costed(moves);
    let one_heap = r.one_heap();
    // the pilot's own work to 2^11, by the same model with one word a set: a game whose
    // moves are listed one by one (a wide span, symmetric coins without a limit) may list
    // more than can ever be done within one heap, where no deadline can stop it
    let per_heap = |n: f64| r.rows() as f64 * n + r.unions_at(n) + 20.0 * r.singles_at(n);
    let pilot_work: f64 = (1..=16)
        .map(|k| per_heap(128.0 * f64::from(k)) * 128.0)
        .sum();
    // (one-heap rulesets keep no bit sets: no pilot)
    let growth = if one_heap {
        Growth::Power {
            n: 1.0,
            v: 0.0,
            alpha: 0.0,
        }
    } else if pilot_work.is_nan() || pilot_work >= 5e8 {
        // values taken to grow like n
        Growth::Power {
            n: 64.0,
            v: 64.0,
            alpha: 1.0,
        }
    } else {
        pilot_once(&PILOTS, key, || {
            let start = std::time::Instant::now();
            let deadline = |_: u64, _: u64| {
                if start.elapsed().as_secs_f64() > 0.5 {
                    std::ops::ControlFlow::Break(())
                } else {
                    std::ops::ControlFlow::Continue(())
                }
            };
            let mut points: Vec<(f64, f64)> = vec![];
            let (mut outgrew, mut stopped) = (false, false);
            for n in [8u64, 16, 32, 64, 128, 256, 512, 1024, 2048] {
                let top = match Watch::start(&deadline, n + 1) {
                    Ok(mut w) => r.top_value(n, 1 << 28, &mut w),
                    Err(_) => Err(false),
                };
                match top {
                    Ok(v) => points.push((n as f64, v)),
                    Err(o) => {
                        (outgrew, stopped) = (o, !o);
                        break;
                    }
                }
            }
            Growth::fit(&points, outgrew, stopped)
        })
    };
    let words = |n: f64| -> f64 { ((growth.top(n) + 1.0).log2().ceil().exp2() / 64.0).max(1.0) };
    let m = max as f64;
    // Σ by 64 slices of 0..=N
    let mut work = 0.0;
    for k in 0..64 {
        let a = m * (k as f64 + 0.5) / 64.0;
        let w = words(a);
        // a move listed one by one costs about 20 word operations (5e7 a second here, as
        // for the listed one-heap games)
        work += m / 64.0
            * ((m - a) * r.rows() as f64 * w + r.unions_at(a) * w + 20.0 * r.singles_at(a) + w);
    }
    let bytes = (r.bitsets(max) * words(m) * 8.0 + (m + 1.0) * 8.0).min(u64::MAX as f64);
    (work / 1e9, bytes as u64)
}

/// How much slower the blocked mex runs once its table (2 bytes a position) outgrows the
/// caches: every move reads a window of the table far behind the block, so the reads come
/// from memory. Measured here (squares, 2 cores): to 3·10^7 in 33 s and to 10^8 in 301 s;
/// in the run to 10^9, 1.6·10^9 (position, option) pairs a second at 1.3·10^8 and
/// 1.43·10^9 at 2.05·10^8 — the rate falls as N^-0.25 from about 3.2·10^7 positions
/// (64 MB of table), and the run to 10^9 takes about 5 hours, not the 2.7 the rate at
/// 10^7 gave.
fn table_slowdown(max: f64) -> f64 {
    (max / 3.2e7).max(1.0).powf(0.25)
}

/// Seconds of (the layer engine, the blocked mex) for the Grundy values of a subtraction
/// game with an infinite move set over 0..=max. The blocked mex costs N·#moves / 4e9, times
/// V / 1600 when the largest value V passes 1600 (its marks cover the values 32 at a time:
/// `practical` to 2^17, 2^18, 2^19 took 0.83 s, 5.35 s, 38.6 s here, values 3023, 5222,
/// 9051, against 0.48 s, 1.8 s, 6.8 s for N·#moves / 4e9 alone). The
/// layer engine costs about 2e-10 s per position, layer and level² (the online convolution
/// has log2(top) levels, top the power of two above N; measured here: primes to 10^7,
/// 12 layers, 13.5 s; to 10^8, 120 s), times the extra work of the levels cut into pieces
/// beyond its largest FFT; the layers are the largest value plus one, extrapolated from a
/// pilot table to 2^16 (values at 2^12 and 2^16, a power law with exponent 0 to 1; run
/// once per game and process, and only when the blocked mex would take a second or more).
pub(crate) fn dense_seconds(set: &MoveSet, leave1: bool, max: u64) -> (f64, f64) {
    let m = max as f64;
    let blocked = m * set.count_upto_estimate(max) as f64 / 4e9 * table_slowdown(m);
    if blocked < 1.0 {
        return (f64::INFINITY, blocked);
    }
    static PILOTS: Pilots<(u32, u32)> = std::sync::Mutex::new(Vec::new());
    let key = format!("{}{set}", if leave1 { "leave1 " } else { "" });
    let (v12, v16) = pilot_once(&PILOTS, &key, || {
        let pilot = 1u64 << 16;
        let moves = set.elements_upto(pilot);
        let mut watch = Watch::start(&crate::observe::Silent, pilot + 1).expect("never stops");
        let g: Vec<u32> = match blocked_mex_grundy(&moves, leave1, pilot, &mut watch) {
            Ok(Some(g)) => g.into_iter().map(u32::from).collect(),
            _ => list_mex_grundy(&moves, leave1, pilot, &mut watch).expect("never stops"),
        };
        let top = |k: usize| g[..=k].iter().copied().max().unwrap_or(0);
        (top(1 << 12), top(1 << 16))
    });
    let (l12, l16) = (f64::from(v12) + 1.0, f64::from(v16) + 1.0);
    let a = ((l16 / l12).log2() / 4.0).clamp(0.0, 1.0);
    let layers = l16 * (m / 65536.0).max(1.0).powf(a);
    // the blocked mex's marks cover the values seen, 32 at a time: large values slow it
    let blocked = blocked * (layers / 1600.0).max(1.0);
    if layers >= f64::from(u16::MAX) {
        return (f64::INFINITY, blocked);
    }
    let top = (max + 1).next_power_of_two().max(1 << 12);
    let lg = f64::from(top.trailing_zeros());
    // a level whose blocks are 2^j times the largest product's half costs 2^j levels
    let cut = top
        .trailing_zeros()
        .saturating_sub(LAYER_FFT_MAX.trailing_zeros());
    let extra: f64 = (1..=cut).map(|j| f64::from((1u32 << j) - 1)).sum();
    let layered = layers * m * lg * (lg + extra) * 2e-10;
    (layered, blocked)
}

/// Bytes of the layer engine over 0..=max at its peak (measured here: primes to 10^8,
/// 7.5 GB): the u16 table and its narrowed copy, bit sets over the top block (three per
/// worker and two more), the move set's spectra (16 bytes a point, all sizes) and per worker
/// FFT buffers and plans (about 48 bytes a point of the largest product).
pub(crate) fn layered_memory(max: u64) -> u64 {
    let n = max.saturating_add(1);
    let top = n
        .checked_next_power_of_two()
        .unwrap_or(u64::MAX)
        .max(1 << 12);
    let workers = rayon::current_num_threads() as u64;
    let fft = top.min(LAYER_FFT_MAX as u64);
    n.saturating_mul(3)
        .saturating_add((top / 8).saturating_mul(3 * workers + 2))
        .saturating_add(fft * 16)
        .saturating_add(fft.saturating_mul(48 * workers))
}

/// Seconds per arena entry when canonical misère forms are built: measured here, Kayles to
/// heap 70 makes 1.44·10^7 entries in 23.7 s (1.6 µs each), Dawson's Kayles to 110 makes
/// 6.5·10^6 in 5.4 s (0.8 µs); larger arenas miss the cache more, so 2 µs.
const CANON_SECONDS_PER_ENTRY: f64 = 2e-6;

/// Bytes per arena entry at the peak: Kayles to 70 holds 187 MB for 1.44·10^7 entries
/// (13 bytes each); hash tables double as they grow, so 32.
const CANON_BYTES_PER_ENTRY: f64 = 32.0;

/// Arena entries the pilot of [`canonical_entries`] builds before it stops (about 0.2 s).
const CANON_PILOT_ENTRIES: u64 = 150_000;

/// Options the pilot of [`canonical_entries`] enumerates at most
/// ([`Breaker::option_visits`], counted from the rule, so the same on every machine): a
/// rule that leaves three heaps has about n²/12 options at heap n, and its forms may stay
/// few, so entries alone would not stop it.
const CANON_PILOT_OPTIONS: f64 = 2e6;

/// Entries of the arena ([`crate::misere::canon::MisereForms::entries`]: forms, option
/// ids, hash buckets, memoized sums) once the canonical misère forms of a take-and-break
/// game's heaps 0..=max are built. The forms of a heap are sums of the smaller heaps'
/// forms, whose number grows about geometrically with the heap once the game is wild
/// (Kayles: heap 40 in 0.06 s, 50 in 0.23 s, 60 in 1.9 s, 75 in a minute; Dawson's Kayles
/// and Grundy's game reach about 130 in a minute). So a pilot run of the engine itself
/// builds heaps until the arena holds [`CANON_PILOT_ENTRIES`] entries, counting them after
/// every heap; beyond it, each heap's entries are extrapolated geometrically from a
/// least-squares fit of the logarithms of the last 16 heaps' (a ratio kept between 1 and 3
/// a heap). The count is the same on every machine and run, so estimates and the largest
/// N they allow do not move with the load. Pilots are run once per game and process.
pub(crate) fn canonical_entries(key: &str, br: &Breaker, max: u64) -> f64 {
    static PILOTS: Pilots<Vec<f64>> = std::sync::Mutex::new(Vec::new());
    let done = pilot_once(&PILOTS, key, || canonical_pilot(br));
    // done[i]: entries once heap i was built
    let Some(&last) = done.last() else {
        return f64::INFINITY;
    };
    let n = done.len() as u64;
    if max < n {
        return done[max as usize];
    }
    // each heap's own entries, and the growth of the last ones by a least-squares line
    // through their logarithms
    let cost: Vec<f64> = (0..done.len())
        .map(|i| (done[i] - if i == 0 { 0.0 } else { done[i - 1] }).max(1.0))
        .collect();
    let tail = &cost[cost.len().saturating_sub(16)..];
    let k = tail.len() as f64;
    let (ratio, base) = if tail.len() < 3 {
        (2.0, *tail.last().unwrap_or(&1.0))
    } else {
        let xm = (k - 1.0) / 2.0;
        let ym = tail.iter().map(|c| c.ln()).sum::<f64>() / k;
        let (mut sxy, mut sxx) = (0.0, 0.0);
        for (x, c) in tail.iter().enumerate() {
            sxy += (x as f64 - xm) * (c.ln() - ym);
            sxx += (x as f64 - xm).powi(2);
        }
        let slope = sxy / sxx;
        (
            slope.exp().clamp(1.0, 3.0),
            (ym + slope * (k - 1.0 - xm)).exp(),
        )
    };
    let more = (max - n + 1) as f64;
    let rest = if ratio <= 1.0 + 1e-9 {
        base * more
    } else {
        base * ratio * (ratio.powf(more) - 1.0) / (ratio - 1.0)
    };
    last + rest
}

/// Seconds for the canonical misère forms of heaps 0..=max ([`canonical_entries`] at
/// [`CANON_SECONDS_PER_ENTRY`]).
pub(crate) fn canonical_seconds(key: &str, br: &Breaker, max: u64) -> f64 {
    canonical_entries(key, br, max) * CANON_SECONDS_PER_ENTRY
}

/// Peak bytes of the canonical misère forms of heaps 0..=max ([`canonical_entries`] at
/// [`CANON_BYTES_PER_ENTRY`], plus 32 MB).
pub(crate) fn canonical_bytes(key: &str, br: &Breaker, max: u64) -> f64 {
    canonical_entries(key, br, max) * CANON_BYTES_PER_ENTRY + 32e6
}

/// The pilot run of [`canonical_entries`]: the arena's entries after each heap, until
/// they pass [`CANON_PILOT_ENTRIES`] (or heap 2^16).
fn canonical_pilot(br: &Breaker) -> Vec<f64> {
    use crate::misere::canon::{extend_heaps, MisereForms};
    let mut forms = MisereForms::new();
    let mut heaps = vec![];
    let mut done = vec![];
    for n in 0..1u64 << 16 {
        if extend_heaps(br, &mut forms, &mut heaps, n, &crate::Silent).is_err() {
            break;
        }
        done.push(forms.entries() as f64);
        if forms.entries() > CANON_PILOT_ENTRIES || br.option_visits(n) > CANON_PILOT_OPTIONS {
            break;
        }
    }
    done
}

/// The P-positions of the subtraction set `set` in 0..=max, estimated: the count to
/// min(max, 2^16) by the sieve, extended by the power law of the counts at half of that
/// and all of it (exponent kept between 0 and 1).
pub(crate) fn pilot_p_count(set: &MoveSet, leave1: bool, max: u64) -> f64 {
    let pilot = max.min(1 << 16);
    let p = p_positions(ListMoves::new(set.elements_upto(pilot)), pilot, leave1);
    if pilot < 1 << 12 {
        return p.len() as f64 * (max as f64 / pilot.max(1) as f64);
    }
    let half = p.partition_point(|&x| x <= pilot / 2).max(1) as f64;
    let full = p.len().max(1) as f64;
    let a = (full / half).log2().clamp(0.0, 1.0);
    full * (max as f64 / pilot as f64).powf(a)
}

/// A pilot run of the sparse-space engine: the largest size run, its seconds, the growth
/// exponent of the time between the last two sizes, and whether a period was proven.
#[derive(Debug, Clone, Copy)]
struct Pilot {
    n: u64,
    secs: f64,
    alpha: f64,
    periodic: bool,
}

/// Estimated seconds for the Grundy values of a take-and-break game over 0..=max, from
/// pilot runs of the engine itself at 1024, 2048, … positions until one takes 0.25 s (or
/// the next would pass a second, or 2^20 or max/8 is reached, so that the pilot stays a
/// small share of the run): the last run's time, extrapolated as n^α. The exponent is the smaller of
/// the growth of the last two runs' times and what the engine's structure says — a
/// position costs O(#rare positions) with a mask and O(n) without one (the plain scan),
/// and one more factor n^β where the values grow like n^β (the rows of value bits grow
/// with them; counted when the values reach n/16), #rare and the values compared between
/// the last two runs — kept between 1 and 3. Once a pilot proves a period (Guy–Smith) the rest is copied, about 2 ns a
/// position. Pilots are run once per game and process.
pub(crate) fn sparse_seconds(key: &str, br: &Breaker, max: u64) -> f64 {
    // small tables need no pilot: the plain scan's worst case, n²/2 pairs for each digit
    // that splits (two heaps; three heaps cost a factor n more), at 1e9 pairs a second
    if max <= SPARSE_NO_PILOT {
        let splits = br.digits.iter().filter(|d| d.two || d.three).count();
        let three = br.has_three();
        let m = max as f64;
        let pairs = m * m / 2.0 * (splits.max(1) as f64) * if three { m / 6.0 } else { 1.0 };
        return pairs * 1e-9;
    }
    static PILOTS: Pilots<Pilot> = std::sync::Mutex::new(Vec::new());
    // the pilot stays a small share of the run it estimates: to N/8 at most (the table
    // itself is no more than 8 times the pilot's largest run, whose time the pilot
    // extrapolates with the exponent it measured)
    let p = pilot_once(&PILOTS, key, || sparse_pilot(br, (max / 8).max(1 << 11)));
    let ratio = max as f64 / p.n as f64;
    if p.periodic {
        p.secs + max as f64 * 2e-9
    } else if ratio <= 1.0 {
        p.secs * ratio
    } else {
        p.secs * ratio.powf(p.alpha)
    }
}

/// Tables of take-and-break games up to this N are estimated without a pilot run.
const SPARSE_NO_PILOT: u64 = 1 << 14;

/// The pilot runs of [`sparse_seconds`], on tables of 1024, 2048, … positions up to `cap`.
fn sparse_pilot(br: &Breaker, cap: u64) -> Pilot {
    // (n, seconds, rare positions, largest value, mask in use)
    let mut prev: Option<(u64, f64, u64, u32, bool)> = None;
    let mut n = 1024u64;
    loop {
        let t = std::time::Instant::now();
        let mut watch = Watch::start(&crate::observe::Silent, n + 1).expect("never stops");
        let (g, stats) = take_break_grundy(br, n, &mut watch).expect("never stops");
        let secs = t.elapsed().as_secs_f64().max(1e-6);
        if stats.period.is_some() {
            return Pilot {
                n,
                secs,
                alpha: 1.0,
                periodic: true,
            };
        }
        let maxv = g.iter().copied().max().unwrap_or(0);
        let now = (n, secs, stats.rare, maxv, stats.mask.is_some());
        // the next run would take about secs² / (the previous run's): stop before it
        // passes a second
        let next = prev.map_or(0.0, |p| secs * secs / p.1);
        if secs >= 0.25 || next > 1.0 || n >= 1 << 20 || n * 2 > cap {
            let alpha = prev.map_or(1.0, |(pn, ps, pr, pv, _)| {
                let grow = |a: f64, b: f64| {
                    ((b.max(1.0) / a.max(1.0)).ln() / (n as f64 / pn as f64).ln()).clamp(0.0, 1.0)
                };
                // values far below n (most games: a few hundred) cost nothing that grows
                let values = if u64::from(maxv) >= n / 16 {
                    grow(f64::from(pv), f64::from(maxv))
                } else {
                    0.0
                };
                let per_position = if now.4 {
                    grow(pr as f64, now.2 as f64)
                } else {
                    1.0
                };
                // each alone can overstate the growth (the timings in a transient, the
                // structure where the bulk pipeline absorbs it): the smaller one counts
                let timed = (secs / ps).ln() / (n as f64 / pn as f64).ln();
                // the plain scan (no mask) reads about n/2 pairs a position: quadratic
                // at least, whatever small runs' overheads suggest
                let floor = if now.4 { 1.0 } else { 2.0 };
                timed.min(1.0 + per_position + values).clamp(floor, 3.0)
            });
            return Pilot {
                n,
                secs,
                alpha,
                periodic: false,
            };
        }
        prev = Some(now);
        n *= 2;
    }
}
