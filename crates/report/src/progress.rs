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
        if let Some(last) = st.log {
            if last.elapsed() >= LOG_EVERY {
                let t = st.start.elapsed().as_secs_f64();
                let pct = 100.0 * done as f64 / total.max(1) as f64;
                let eta = if done > 0 {
                    format!(
                        ", ETA {:.0} s",
                        t * (total.saturating_sub(done)) as f64 / done as f64
                    )
                } else {
                    String::new()
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
