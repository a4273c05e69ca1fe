//! Progress on stderr for long runs: hidden for the first two seconds (short runs print
//! nothing), never on stdout, off with `--quiet`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::{Duration, Instant};

/// Delay before a bar appears.
const SHOW_AFTER: Duration = Duration::from_secs(2);

/// A position counter with rate and ETA.
pub struct Progress {
    bar: ProgressBar,
    start: Instant,
    shown: bool,
    quiet: bool,
}

impl Progress {
    /// A bar over `total` positions labelled `what`.
    pub fn new(what: &str, total: u64, quiet: bool) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} positions ({per_sec}, ETA {eta})",
            )
            .expect("template")
            .progress_chars("=> "),
        );
        bar.set_message(what.to_string());
        Progress {
            bar,
            start: Instant::now(),
            shown: false,
            quiet,
        }
    }

    /// Sets the number of positions done.
    pub fn set(&mut self, done: u64) {
        if !self.shown && !self.quiet && self.start.elapsed() >= SHOW_AFTER {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
        self.bar.set_position(done);
    }

    /// Removes the bar.
    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}
