//! Progress on stderr for long runs: hidden for the first two seconds (short runs print
//! nothing), never on stdout, off with `--quiet`.

use heaplab_core::{duration, ControlFlow, Estimate, Observer};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Delay before a bar appears.
const SHOW_AFTER: Duration = Duration::from_secs(2);

/// A position counter with rate and ETA; an [`Observer`] of the engines.
pub struct Progress {
    bar: ProgressBar,
    quiet: bool,
    what: String,
    unit: &'static str,
    state: Mutex<State>,
    eta: Arc<EtaModel>,
}

/// What the time left needs besides the bar's own counts, shared with the bar's ETA key
/// (atomics: the bar draws while [`Progress::set`] holds its state).
struct EtaModel {
    /// The plan's [`Estimate::growth`], as f64 bits.
    growth: AtomicU64,
    /// The first count of this run (a resumed run's starting point).
    base: AtomicU64,
    /// Seconds after the bar's start when that count arrived, as f64 bits.
    base_secs: AtomicU64,
}

impl EtaModel {
    /// Seconds left at `done` of `total`, `elapsed` seconds after the bar's start.
    fn left(&self, elapsed: f64, done: u64, total: u64) -> Option<f64> {
        let secs = elapsed - f64::from_bits(self.base_secs.load(Ordering::Relaxed));
        let growth = f64::from_bits(self.growth.load(Ordering::Relaxed));
        eta_and_rate(secs, self.base.load(Ordering::Relaxed), done, total, growth).0
    }
}

/// What a [`Progress`] remembers between calls.
struct State {
    start: Instant,
    shown: bool,
    /// stderr is a log file, not a terminal: plain lines every minute instead of a bar
    log: Option<Instant>,
    /// When the first count arrived and what it was: a run resumed from a checkpoint starts
    /// far from 0, and its rate and time left count only the positions done since.
    base: Option<(Instant, u64)>,
    /// The last count: a count below it starts a new pass (a sum's canonical forms after
    /// its quotient failed), whose rate and time left start afresh.
    last: u64,
}

impl Progress {
    /// A bar over `total` positions labelled `what` (silent with `--quiet`, see
    /// [`set_quiet`]).
    pub fn new(what: &str, total: u64) -> Progress {
        Progress::counting(what, total, "positions")
    }

    /// [`Progress::new`] counting `unit` (`games`) instead of positions.
    pub fn counting(what: &str, total: u64, unit: &'static str) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        let eta = Arc::new(EtaModel {
            growth: AtomicU64::new(1f64.to_bits()),
            base: AtomicU64::new(0),
            base_secs: AtomicU64::new(0f64.to_bits()),
        });
        let model = Arc::clone(&eta);
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "{{msg}} [{{elapsed_precise}}] {{wide_bar}} {{human_pos}}/{{human_len}} {unit} ({{rate}}, ETA {{left}})"
            ))
            .expect("template")
            .with_key("rate", move |st: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{}", rate_text(st.per_sec(), unit));
            })
            .with_key("left", move |st: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let left = model.left(st.elapsed().as_secs_f64(), st.pos(), st.len().unwrap_or(0));
                let _ = match left {
                    Some(s) => write!(w, "{:#}", indicatif::HumanDuration(Duration::from_secs_f64(s))),
                    None => write!(w, "?"),
                };
            })
            .progress_chars("=> "),
        );
        bar.set_message(what.to_string());
        Progress {
            bar,
            quiet: QUIET.load(Ordering::Relaxed),
            what: what.to_string(),
            unit,
            state: Mutex::new(State {
                start: Instant::now(),
                shown: false,
                log: (!std::io::stderr().is_terminal()).then(Instant::now),
                base: None,
                last: 0,
            }),
            eta,
        }
    }

    /// Sets the number of positions done.
    pub fn set(&self, done: u64) {
        if self.quiet {
            return;
        }
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let total = self.bar.length().unwrap_or(0);
        let start = st.start;
        if done < st.last {
            st.base = None;
            self.bar.set_position(done);
            self.bar.reset_eta();
        }
        st.last = done;
        let (since, base) = *st.base.get_or_insert_with(|| {
            if done > 0 {
                // resumed: the bar's rate estimator must not count the jump from 0
                self.bar.set_position(done);
                self.bar.reset_eta();
            }
            self.eta.base.store(done, Ordering::Relaxed);
            let secs = start.elapsed().as_secs_f64();
            self.eta.base_secs.store(secs.to_bits(), Ordering::Relaxed);
            (Instant::now(), done)
        });
        if let Some(last) = st.log {
            if last.elapsed() >= LOG_EVERY {
                let t = st.start.elapsed().as_secs_f64();
                let pct = 100.0 * done as f64 / total.max(1) as f64;
                let growth = f64::from_bits(self.eta.growth.load(Ordering::Relaxed));
                let secs = since.elapsed().as_secs_f64();
                let (eta, rate) = eta_and_rate(secs, base, done, total, growth);
                let eta = match eta {
                    Some(eta) => format!(", {}, ETA {eta:.0} s", rate_text(rate, self.unit)),
                    None => String::new(),
                };
                eprintln!(
                    "heaplab: {}: {done}/{total} {} ({pct:.1}%), {t:.0} s{eta}",
                    self.what, self.unit
                );
                st.log = Some(Instant::now());
            }
            return;
        }
        if !st.shown && st.start.elapsed() >= SHOW_AFTER {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            st.shown = true;
        }
        self.bar.set_position(done);
    }

    /// Removes the bar.
    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}

impl Observer for Progress {
    fn observe(&self, done: u64, total: u64) -> ControlFlow<()> {
        if self.bar.length() != Some(total) {
            self.bar.set_length(total);
        }
        self.set(done);
        // a run that saves before stopping has been interrupted ([`crate::cleanup`])
        if crate::cleanup::stop_requested() {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    /// Says up front how long a run will take, when that is more than half a minute.
    fn planned(&self, plan: &Estimate) {
        self.eta
            .growth
            .store(plan.growth.to_bits(), Ordering::Relaxed);
        if !self.quiet && plan.seconds >= ANNOUNCE_AFTER {
            eprintln!(
                "heaplab: {} ({}) is estimated at about {} here",
                self.what,
                plan.engine.name(),
                duration(plan.seconds)
            );
        }
    }
}

/// Seconds left and the rate (positions a second) of a run that counted `base` when it
/// began `secs` seconds ago and counts `done` of `total` now, its cost to n growing as
/// n^`growth` ([`Estimate::growth`]): the time from base to done is c·(done^g − base^g),
/// so the time left is secs·(total^g − done^g) / (done^g − base^g) — the rate since the
/// start when g = 1. No estimate before it has counted anything since it began, nor
/// before half-way when g passes [`STEEP`].
fn eta_and_rate(secs: f64, base: u64, done: u64, total: u64, growth: f64) -> (Option<f64>, f64) {
    let since = done.saturating_sub(base);
    if since == 0 || secs <= 0.0 || total == 0 {
        return (None, 0.0);
    }
    let rate = since as f64 / secs;
    let g = if growth.is_finite() {
        growth.max(1.0)
    } else {
        1.0
    };
    // a steep law (canonical misère forms, fitted between N/2 and N) says nothing before
    // half-way: at heap 1 of 51 it told 110 million years
    if g > STEEP && done < total / 2 {
        return (None, rate);
    }
    // in units of total, so the powers stay near 1
    let t = total as f64;
    let (d, b) = ((done as f64 / t).min(1.0), base as f64 / t);
    let (dg, bg) = (d.powf(g), b.powf(g));
    let left = if dg > bg {
        secs * (1.0 - dg) / (dg - bg)
    } else {
        total.saturating_sub(done) as f64 / rate
    };
    (Some(left.max(0.0)), rate)
}

/// Growth exponents past this give a time left only from half-way on ([`eta_and_rate`]).
const STEEP: f64 = 3.0;

/// A rate as people read it: `1,234,567 positions/s` when fast, and for slow steps (a
/// misère quotient's heaps) per minute or per hour rather than a rounded `0 positions/s`.
fn rate_text(per_sec: f64, unit: &str) -> String {
    if !per_sec.is_finite() || per_sec <= 0.0 {
        return format!("no {unit} yet");
    }
    if per_sec >= 10.0 {
        format!("{} {unit}/s", indicatif::HumanCount(per_sec as u64))
    } else if per_sec >= 1.0 {
        format!("{per_sec:.1} {unit}/s")
    } else if per_sec * 60.0 >= 1.0 {
        format!("{:.1} {unit}/min", per_sec * 60.0)
    } else {
        format!("{:.2} {unit}/h", per_sec * 3600.0)
    }
}

/// Runs estimated at more seconds than this are announced with their estimate.
const ANNOUNCE_AFTER: f64 = 30.0;

static QUIET: AtomicBool = AtomicBool::new(false);
static SPINNING: AtomicBool = AtomicBool::new(false);

/// Sets the global `--quiet` flag that [`Spinner`]s and library warnings obey.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
    polars::error::set_warning_function(polars_warning);
}

/// polars' warnings (deprecations met while evaluating a claim, which then fails with its
/// own one-line error) are not shown: every message on stderr is heaplab's own.
fn polars_warning(_msg: &str, _kind: polars::error::PolarsWarning) {}

/// Seconds between plain progress lines when stderr is not a terminal (a log file).
const LOG_EVERY: Duration = Duration::from_secs(60);

/// A sign of life for a long step that reports no positions (building a whole table):
/// after two seconds a spinner with the elapsed time on a terminal, or one plain line a
/// minute on stderr when it is redirected to a log. Only one spinner shows at a time
/// (nested steps stay silent); dropping it ends it. Off with `--quiet`.
pub struct Spinner {
    stop: Option<(Arc<AtomicBool>, std::thread::JoinHandle<()>)>,
}

impl Spinner {
    /// Starts a spinner for the step `what` (e.g. "Grundy values of squares to 1e9").
    pub fn new(what: String) -> Spinner {
        if QUIET.load(Ordering::Relaxed) || SPINNING.swap(true, Ordering::AcqRel) {
            return Spinner { stop: None };
        }
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let handle = std::thread::spawn(move || {
            let start = Instant::now();
            let tty = std::io::stderr().is_terminal();
            let mut bar: Option<ProgressBar> = None;
            let mut last_line = start;
            while !flag.load(Ordering::Acquire) {
                std::thread::sleep(Duration::from_millis(100));
                let t = start.elapsed();
                if t < SHOW_AFTER {
                    continue;
                }
                if tty {
                    let b = bar.get_or_insert_with(|| {
                        let b = ProgressBar::new_spinner();
                        b.set_style(
                            ProgressStyle::with_template("{spinner} {msg} [{elapsed_precise}]")
                                .expect("template"),
                        );
                        b.set_message(what.clone());
                        b
                    });
                    b.tick();
                } else if last_line.elapsed() >= LOG_EVERY {
                    eprintln!("heaplab: {what}: still working, {} s", t.as_secs());
                    last_line = Instant::now();
                }
            }
            if let Some(b) = bar {
                b.finish_and_clear();
            }
        });
        Spinner {
            stop: Some((stop, handle)),
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        if let Some((stop, handle)) = self.stop.take() {
            stop.store(true, Ordering::Release);
            let _ = handle.join();
            SPINNING.store(false, Ordering::Release);
        }
    }
}

/// Whether `--quiet` was given.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::{eta_and_rate, rate_text, Progress};
    use std::sync::atomic::Ordering;

    #[test]
    fn a_count_that_goes_back_starts_a_new_pass() {
        // a sum's forms after its quotient failed count heaps from the start again: the time
        // left starts from the new pass (the old base gave "ETA 39065y")
        let p = Progress::new("two passes", 67);
        p.set(22);
        assert_eq!(p.eta.base.load(Ordering::Relaxed), 22);
        p.set(30);
        assert_eq!(p.eta.base.load(Ordering::Relaxed), 22);
        p.set(7);
        assert_eq!(p.eta.base.load(Ordering::Relaxed), 7);
        let st = p.state.lock().unwrap();
        assert_eq!((st.base.map(|b| b.1), st.last), (Some(7), 7));
    }

    #[test]
    fn slow_rates_are_per_minute_or_per_hour_not_zero() {
        assert_eq!(rate_text(2_500_000.4, "positions"), "2,500,000 positions/s");
        assert_eq!(rate_text(3.26, "positions"), "3.3 positions/s");
        assert_eq!(rate_text(4.0 / 126.0, "positions"), "1.9 positions/min");
        assert_eq!(rate_text(1.0 / 1600.0, "positions"), "2.25 positions/h");
        assert_eq!(rate_text(0.0, "games"), "no games yet");
    }

    #[test]
    fn a_resumed_run_counts_its_rate_from_where_it_resumed() {
        let near = |a: Option<f64>, b: f64| (a.unwrap() - b).abs() < 1e-6 * b.max(1.0);
        // resumed at 1.8e9 of 4.3e9, 2.9e7 done in 100 s: 2.9e5 a second, 8,621 s left
        let (eta, rate) = eta_and_rate(100.0, 1_800_000_000, 1_829_000_000, 4_329_000_000, 1.0);
        assert_eq!(rate.round(), 290_000.0);
        assert_eq!(eta.unwrap().round(), 8_621.0);
        // a fresh run: the same as counting from 0
        let (eta, rate) = eta_and_rate(10.0, 0, 1_000, 5_000, 1.0);
        assert!(near(eta, 40.0) && rate == 100.0, "{eta:?} {rate}");
        // nothing done since it began: no estimate
        assert_eq!(eta_and_rate(10.0, 7, 7, 100, 1.0), (None, 0.0));
        assert_eq!(eta_and_rate(10.0, 0, 0, 0, 2.0), (None, 0.0));
    }

    #[test]
    fn a_run_whose_cost_grows_is_given_the_time_its_growth_leaves() {
        let near = |a: Option<f64>, b: f64| (a.unwrap() - b).abs() < 1e-6 * b;
        // cost c·n²: half-way after 100 s, the whole run takes 400 s, so 300 s are left
        // (the rate since the start would say 100)
        let (eta, rate) = eta_and_rate(100.0, 0, 500, 1_000, 2.0);
        assert!(near(eta, 300.0) && rate == 5.0, "{eta:?}");
        // resumed at a quarter: 0.25² to 0.5² took 100 s, 0.5² to 1 takes 400 s
        let (eta, _) = eta_and_rate(100.0, 250, 500, 1_000, 2.0);
        assert!(near(eta, 400.0), "{eta:?}");
        // the blocked mex to 10^9 of squares (n^1.75): a fifth of the way in 1,000 s
        // leaves 1000·(1 − 0.2^1.75)/0.2^1.75 ≈ 15,700 s, where the rate says 4,000
        let (eta, _) = eta_and_rate(1_000.0, 0, 200_000_000, 1_000_000_000, 1.75);
        let want = 1000.0 * (1.0 - 0.2f64.powf(1.75)) / 0.2f64.powf(1.75);
        assert!(
            near(eta, want) && (15_000.0..16_500.0).contains(&want),
            "{eta:?}"
        );
        // a steep law (forms, n^9) gives no time left before half-way, then the law's
        assert_eq!(eta_and_rate(1.0, 0, 1, 51, 16.0).0, None);
        assert_eq!(eta_and_rate(10.0, 0, 24, 50, 9.0).0, None);
        let (eta, _) = eta_and_rate(10.0, 0, 25, 50, 9.0);
        assert!(near(eta, 10.0 * 511.0), "{eta:?}");
        // done: nothing left; a growth below 1 or not a number counts as 1
        assert_eq!(eta_and_rate(10.0, 0, 100, 100, 1.5).0, Some(0.0));
        assert!(near(eta_and_rate(10.0, 0, 50, 100, 0.5).0, 10.0));
        assert!(near(eta_and_rate(10.0, 0, 50, 100, f64::NAN).0, 10.0));
    }
}
