//! Why an engine call did not give an answer: [`enum@Error`], and [`Refusal`] for a run the
//! caller's [`crate::Budget`] does not allow. Both carry their numbers as fields; `Display`
//! gives one line for a user.

use bytesize::ByteSize;
use thiserror::Error;

/// Bytes for a user: `1.5 GiB`.
/// Estimates of an exabyte or more (often a product saturated at 2^64 − 1) are not sizes
/// anyone can act on, and are said as such.
pub(crate) fn size(bytes: u64) -> String {
    if bytes >= 1 << 60 {
        return "more than 1 EiB".into();
    }
    ByteSize(bytes).display().iec().to_string()
}

/// `about SIZE`, or `more than 1 EiB` (no "about" before a bound).
fn about_size(bytes: u64) -> String {
    match bytes >= 1 << 60 {
        true => size(bytes),
        false => format!("about {}", size(bytes)),
    }
}

/// A duration for a user: `40 s`, `12 minutes`, `3.5 hours`, `2.1 days`, `3 years`.
pub fn duration(secs: f64) -> String {
    const MIN: f64 = 60.0;
    const HOUR: f64 = 3600.0;
    const DAY: f64 = 86_400.0;
    const YEAR: f64 = 365.25 * DAY;
    match secs {
        s if !s.is_finite() => "forever".into(),
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 90.0 * MIN => format!("{:.0} minutes", s / MIN),
        s if s < 10.0 * HOUR => format!("{:.1} hours", s / HOUR),
        s if s < 36.0 * HOUR => format!("{:.0} hours", s / HOUR),
        s if s < YEAR => format!("{:.1} days", s / DAY),
        s if s < 1.5 * YEAR => "1 year".into(),
        s if s < 1e4 * YEAR => format!("{:.0} years", s / YEAR),
        s => format!("{:.1e} years", s / YEAR),
    }
}

/// `; use N <= most` when the largest N that fits is known, else `; use a smaller N`.
fn advice(most: &Option<u64>) -> String {
    match most {
        Some(_) => at_most(most, "N"),
        None => "; use a smaller N".into(),
    }
}

/// `; use VAR <= most` when the largest value that fits is known, else nothing (the
/// message says why none does).
fn at_most(most: &Option<u64>, var: &str) -> String {
    most.map_or(String::new(), |m| format!("; use {var} <= {m}"))
}

/// A run the budget does not allow, refused before any work.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum Refusal {
    /// The memory estimate is beyond [`crate::Budget::memory`].
    #[error("{what} needs {}, more than the {} this run may use{}", about_size(*.needed), size(*.budget), advice(.most))]
    Memory {
        /// What needs it (e.g. "a Grundy table of squares to N = 1000000000").
        what: String,
        /// Estimated bytes.
        needed: u64,
        /// Bytes the budget allows.
        budget: u64,
        /// The largest N that fits, when known.
        most: Option<u64>,
    },
    /// The time estimate is beyond [`crate::Budget::seconds`].
    #[error("{what} would take about {} here, more than the {} allowed{}", duration(*.seconds), duration(*.limit), advice(.most))]
    Time {
        /// What would take it (e.g. "primes to N = 1000000000").
        what: String,
        /// Estimated seconds on this machine.
        seconds: f64,
        /// Seconds the budget allows.
        limit: f64,
        /// The largest N that fits, when known.
        most: Option<u64>,
    },
    /// An output file larger than the free space where it goes ([`crate::Budget::disk`]).
    #[error("{what} would take about {}, more than the {} free there; use --count or a smaller N", size(*.needed), size(*.free))]
    Disk {
        /// What would be written.
        what: String,
        /// Estimated bytes.
        needed: u64,
        /// Free bytes at the destination.
        free: u64,
    },
    /// A single position beyond what the family's fastest method can reach within the budget.
    #[error("{game} {why}{}", at_most(.most, "n"))]
    TooFar {
        /// The game (canonical spec).
        game: String,
        /// The position asked for.
        n: u64,
        /// The largest position the budget allows (None: none does, which `why` says).
        most: Option<u64>,
        /// Why, e.g. "has no shortcut: deciding n = 1000000000 means sieving every position up to it".
        why: String,
    },
}

/// Why an engine call did not give an answer.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum Error {
    /// The run is beyond what the engine can address at all, whatever the budget.
    #[error("N = {n} is too large for {what}: use N <= {limit}")]
    TooLarge {
        /// The structure or engine, e.g. "a Grundy table".
        what: &'static str,
        /// The N asked for.
        n: u64,
        /// The largest N it takes.
        limit: u64,
    },
    /// A move set with more moves up to N than the sieve indexes.
    #[error("{count} moves up to N = {n}: more than the sieve's {limit}")]
    TooManyMoves {
        /// Moves up to N.
        count: u64,
        /// N.
        n: u64,
        /// The most the sieve takes.
        limit: u64,
    },
    /// The budget does not allow the run.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The memory a run needs cannot be allocated here (the allocator refused it).
    #[error("{what} needs {}, which cannot be allocated here{}", about_size(*.bytes), at_most(.most, "N"))]
    OutOfMemory {
        /// What needs it.
        what: &'static str,
        /// Bytes.
        bytes: u64,
        /// The largest N whose memory can be allocated here, when known.
        most: Option<u64>,
    },
    /// A saved stream state that does not belong to this game's engine.
    #[error("the saved state {reason}")]
    BadState {
        /// What is wrong, e.g. "is not a sieve state".
        reason: String,
    },
    /// A question this game or play cannot answer (a misère sum that is not tame, a
    /// family without the engine asked for), in one sentence.
    #[error("{what}")]
    Unsupported {
        /// What cannot be done and why.
        what: String,
    },
    /// A front end's part of a run failed (saving a checkpoint, writing a snapshot): its
    /// reason, in one line.
    #[error("{what}")]
    Callback {
        /// What failed and why.
        what: String,
    },
    /// The observer stopped the run.
    #[error("cancelled after {done} positions")]
    Cancelled {
        /// Positions decided when it stopped.
        done: u64,
    },
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes_past_an_exabyte_are_not_printed_as_saturated_numbers() {
        assert_eq!(super::size(3 << 29), "1.5 GiB");
        assert_eq!(super::size(u64::MAX), "more than 1 EiB");
        let r = super::Refusal::Memory {
            what: "x".into(),
            needed: u64::MAX,
            budget: 1 << 30,
            most: Some(7),
        };
        assert_eq!(
            r.to_string(),
            "x needs more than 1 EiB, more than the 1.0 GiB this run may use; use N <= 7"
        );
    }
}
