//! Certificates: which theorem, if any, turns a period seen in a game's sequence into a
//! statement for every n ([`CertRule`]), and which sequence an analysis looks at
//! ([`Sequence`]). The rule of a game comes from its structure (`CertRule::of`).

use crate::moves::breaker::guy_smith_bound;
use crate::period::Period;
use serde::{Deserialize, Serialize};

/// The sequence of a game an analysis looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sequence {
    /// Grundy values g(n).
    Grundy,
    /// Outcomes: 1 for an N-position, 0 for a P-position.
    Outcome,
}

/// Which theorem, if any, proves that a period seen in a game's sequence holds for ever.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum CertRule {
    /// A finite subtraction set with largest move k: every value depends only on the k
    /// values before it, so a period (saltus 0) with preperiod n0 seen on 0..=N is proven
    /// once N >= n0 + p + k.
    FiniteSubtraction {
        /// The largest move.
        largest_move: u64,
    },
    /// An octal code whose moves leave at most two heaps and remove at most t tokens: a
    /// Grundy period (saltus 0) is proven once N >= 2·n0 + 2p + t (Guy and Smith 1956, see
    /// [`crate::moves::breaker::guy_smith_bound`]).
    Octal {
        /// t: the position of the code's last non-zero digit.
        last_digit: u64,
    },
    /// No theorem applies: periods are only observed.
    None,
}

impl CertRule {
    /// The N from which a period with this preperiod, period and saltus seen on 0..=N is
    /// proven; `None` when the rule proves nothing (no theorem, or a saltus).
    pub fn bound(&self, preperiod: u64, period: u64, saltus: i64) -> Option<u64> {
        if saltus != 0 {
            return None;
        }
        match *self {
            CertRule::FiniteSubtraction { largest_move } => Some(
                preperiod
                    .saturating_add(period)
                    .saturating_add(largest_move),
            ),
            CertRule::Octal { last_digit } => Some(guy_smith_bound(preperiod, period, last_digit)),
            CertRule::None => None,
        }
    }

    /// Whether the period `p` (found on `p.len` values, 0..=N) is proven by this rule, and
    /// the sentence reports print: why it is proven, or that it is only observed and what
    /// a proof would need.
    pub fn certify(&self, p: &Period) -> (bool, String) {
        let n = p.len - 1;
        let seen = p.periods_seen();
        let Some(need) = self.bound(p.preperiod, p.period, p.saltus) else {
            return (
                false,
                format!("observed ({seen} periods after the preperiod)"),
            );
        };
        let proven = n >= need;
        let text = match (*self, proven) {
            (CertRule::FiniteSubtraction { largest_move: k }, true) => format!(
                "proven: finite subtraction set with largest move {k}, and the data reach \
                 N = {n} >= n0 + p + k = {need}"
            ),
            (CertRule::FiniteSubtraction { .. }, false) => {
                format!("observed ({seen} periods); proof needs N >= n0 + p + k = {need}")
            }
            (CertRule::Octal { last_digit: t }, true) => format!(
                "proven (Guy–Smith 1956): octal code with last digit t = {t}, and N = {n} >= \
                 2·n0 + 2p + t = {need}"
            ),
            (CertRule::Octal { .. }, false) => {
                format!("observed ({seen} periods); Guy–Smith needs N >= 2·n0 + 2p + t = {need}")
            }
            (CertRule::None, _) => format!("observed ({seen} periods after the preperiod)"),
        };
        (proven, text)
    }
}
