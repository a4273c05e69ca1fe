//! The bound of an interval game: from a heap of n remove 1..=f(n) tokens, f
//! non-decreasing with n - f(n) non-decreasing (`sqrt`, `upto{k}`, `half`).

use serde::{Deserialize, Serialize};

/// The move bound of an interval game: from n you may remove 1..=f(n) tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Bound {
    /// f(n) = floor(sqrt(n)).
    Sqrt,
    /// f(n) = k: the Bash game.
    Upto(u64),
    /// f(n) = floor(n / 2).
    Half,
}

impl Bound {
    /// f(n), exact.
    pub fn f(self, n: u64) -> u64 {
        match self {
            Bound::Sqrt => crate::num::isqrt(n),
            Bound::Upto(k) => k,
            Bound::Half => n / 2,
        }
    }
}
