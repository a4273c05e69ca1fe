//! Progress on stderr for long runs: hidden for the first two seconds (short runs print
//! nothing), never on stdout, off with `--quiet`.

use heaplab_core::{duration, ControlFlow, Estimate, Observer};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
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
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "{{msg}} [{{elapsed_precise}}] {{wide_bar}} {{human_pos}}/{{human_len}} {unit} ({{rate}}, ETA {{eta}})"
            ))
            .expect("template")
            .with_key("rate", move |st: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{} {unit}/s", indicatif::HumanCount(st.per_sec() as u64));
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
            }),
        }
    }

    /// Sets the number of positions done.
    pub fn set(&self, done: u64) {
        if self.quiet {
            return;
        }
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let total = self.bar.length().unwrap_or(0);
        let (since, base) = *st.base.get_or_insert_with(|| {
            if done > 0 {
                // resumed: the bar's rate estimator must not count the jump from 0
                self.bar.set_position(done);
                self.bar.reset_eta();
            }
            (Instant::now(), done)
        });
        if let Some(last) = st.log {
            if last.elapsed() >= LOG_EVERY {
                let t = st.start.elapsed().as_secs_f64();
                let pct = 100.0 * done as f64 / total.max(1) as f64;
                let (eta, rate) = eta_and_rate(since.elapsed().as_secs_f64(), base, done, total);
                let eta = match eta {
                    Some(eta) => format!(", {rate:.0} {}/s, ETA {eta:.0} s", self.unit),
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
/// began `secs` seconds ago and counts `done` of `total` now; no estimate before it has
/// counted anything since it began.
fn eta_and_rate(secs: f64, base: u64, done: u64, total: u64) -> (Option<f64>, f64) {
    let since = done.saturating_sub(base);
    if since == 0 || secs <= 0.0 {
        return (None, 0.0);
    }
    let rate = since as f64 / secs;
    (Some(total.saturating_sub(done) as f64 / rate), rate)
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
    use super::eta_and_rate;

    #[test]
    fn a_resumed_run_counts_its_rate_from_where_it_resumed() {
        // resumed at 1.8e9 of 4.3e9, 2.9e7 done in 100 s: 2.9e5 a second, 8,621 s left
        let (eta, rate) = eta_and_rate(100.0, 1_800_000_000, 1_829_000_000, 4_329_000_000);
        assert_eq!(rate.round(), 290_000.0);
        assert_eq!(eta.unwrap().round(), 8_621.0);
        // a fresh run: the same as counting from 0
        let (eta, rate) = eta_and_rate(10.0, 0, 1_000, 5_000);
        assert_eq!((eta, rate), (Some(40.0), 100.0));
        // nothing done since it began: no estimate
        assert_eq!(eta_and_rate(10.0, 7, 7, 100), (None, 0.0));
    }
}
