//! The P-position engines' common shape: [`PStream`] decides positions in increasing order,
//! one segment per call, and saves a [`StreamState`] to resume from. The adaptors here wrap
//! the engines that need no window of their own: the sieve ([`SieveStream`]) and a list
//! computed up front ([`ListStream`]). (The jump-ahead is in `engines::interval`.)

use super::sieve::{Moves, SetSieve, SieveState};
use serde::{Deserialize, Serialize};

/// Saved state of any stream, for checkpoints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum StreamState {
    /// The segmented sieve.
    Sieve(SieveState),
    /// Finite-set window: positions below `lo` decided; `marks` covers lo..lo+len(marks)*64.
    Window {
        /// First undecided position.
        lo: u64,
        /// Pending marks from P-positions already found (bit i = position lo + i).
        marks: Vec<u64>,
        /// P-positions emitted so far.
        count: u64,
    },
    /// Divisor pull: positions below `lo` decided, `win` holds their outcome bits.
    Divisors {
        /// First undecided position.
        lo: u64,
        /// Outcome bits 0..lo (set = N-position), as words.
        win: Vec<u64>,
        /// P-positions so far.
        count: u64,
    },
    /// Precomputed list (all-but sets, take-and-break): index of the next one to emit.
    List {
        /// Index into the list.
        next: u64,
    },
    /// Jump-ahead: the last P-position emitted (None before 0).
    Jump {
        /// Last P-position emitted.
        last: Option<u64>,
        /// Number emitted.
        count: u64,
    },
    /// Jump-ahead with extra amounts: also the P-positions an extra amount may still
    /// reach.
    JumpRecent {
        /// Last P-position emitted.
        last: Option<u64>,
        /// Number emitted.
        count: u64,
        /// The P-positions at least `last` − the largest extra amount, increasing.
        recent: Vec<u64>,
    },
}

/// Everything needed to resume a P-position stream: the game and N it was opened for, the
/// P-positions emitted so far (how many, and the last) and the engine's state.
/// Serialisable; the caller stores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The game's canonical spec.
    pub game: String,
    /// N.
    pub max: u64,
    /// P-positions emitted so far.
    pub count: u64,
    /// The last of them.
    pub last: Option<u64>,
    /// The engine's state.
    pub state: StreamState,
}

/// A P-position engine: decides positions in increasing order, one segment per call.
pub(crate) trait PStream: Send {
    /// Every position below this is decided and its P-positions were emitted.
    fn done(&self) -> u64;
    /// Decides the next segment, appending its P-positions (increasing) to `out`. Returns
    /// false once every position up to N is decided.
    fn advance(&mut self, out: &mut Vec<u64>) -> bool;
    /// The state to save for a checkpoint.
    fn state(&self) -> StreamState;
    /// Number of P-positions emitted so far.
    fn count(&self) -> u64;
    /// Short name of the method, for reports (`segmented sieve`, `jump-ahead`, …).
    fn method(&self) -> &'static str;
}

/// The segmented sieve as a stream.
pub(crate) struct SieveStream<M: Moves>(pub SetSieve<M>);

impl<M: Moves> PStream for SieveStream<M> {
    fn done(&self) -> u64 {
        self.0.done()
    }
    fn advance(&mut self, out: &mut Vec<u64>) -> bool {
        self.0.advance(out)
    }
    fn state(&self) -> StreamState {
        StreamState::Sieve(self.0.state().clone())
    }
    fn count(&self) -> u64 {
        self.0.count()
    }
    fn method(&self) -> &'static str {
        "segmented sieve"
    }
}

/// A list computed up front (all-but sets, take-and-break games), emitted at once.
pub(crate) struct ListStream {
    list: Vec<u64>,
    max: u64,
    next: usize,
    method: &'static str,
}

impl ListStream {
    /// The P-positions `list` (increasing, all <= max), resumed at index `next`.
    pub fn new(list: Vec<u64>, max: u64, next: usize, method: &'static str) -> ListStream {
        ListStream {
            list,
            max,
            next,
            method,
        }
    }
}

impl PStream for ListStream {
    fn done(&self) -> u64 {
        if self.next == self.list.len() {
            self.max.saturating_add(1)
        } else {
            self.list[self.next]
        }
    }
    fn advance(&mut self, out: &mut Vec<u64>) -> bool {
        if self.next == self.list.len() {
            return false;
        }
        out.extend_from_slice(&self.list[self.next..]);
        self.next = self.list.len();
        true
    }
    fn state(&self) -> StreamState {
        StreamState::List {
            next: self.next as u64,
        }
    }
    fn count(&self) -> u64 {
        self.next as u64
    }
    fn method(&self) -> &'static str {
        self.method
    }
}
