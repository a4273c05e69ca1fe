//! Periodicity of a sequence with a certificate from the rule behind it
//! ([`heaplab_core::CertRule`], chosen per family in the core).

use heaplab_core::{best_candidate, exceptions, find_period, CertRule, Period};
use serde::{Deserialize, Serialize};

/// A detected period and how sure it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Periodicity {
    /// Number of leading values before the periodic part (Kayles: 71).
    pub preperiod: u64,
    /// The last position that does not follow the period (preperiod - 1), if any.
    pub last_exception: Option<u64>,
    /// Smallest period.
    pub period: u64,
    /// a(n + p) - a(n) on the periodic part.
    pub saltus: i64,
    /// Full periods seen after the preperiod.
    pub periods_seen: u64,
    /// Proven for every n (not only the data examined).
    pub certified: bool,
    /// Why it is proven, or that it is only observed.
    pub certificate: String,
    /// Every n < preperiod whose value differs from the periodic continuation (the period
    /// and saltus run backwards), increasing; the first [`EXCEPTIONS_LISTED`] of them.
    #[serde(default)]
    pub exceptions: Vec<u64>,
    /// How many exceptions there are (more than listed when the list is cut).
    #[serde(default)]
    pub exception_count: u64,
}

/// How many exceptions a [`Periodicity`] lists.
pub const EXCEPTIONS_LISTED: usize = 1000;

/// When no period is accepted: the period the data come closest to accepting, and the N that
/// would accept and prove it if the pattern goes on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Candidate {
    /// Its preperiod, from the pattern at the end of the data.
    pub preperiod: u64,
    /// The period.
    pub period: u64,
    /// Its saltus.
    pub saltus: i64,
    /// Full periods seen after that preperiod.
    pub periods_seen: u64,
    /// The N from which it would be accepted: 2·n0 + 2p - 1.
    pub accept_at: u64,
    /// The N from which the family's theorem would prove it (None: no theorem applies).
    pub prove_at: Option<u64>,
}

/// Smallest period (then smallest preperiod, with saltus) of `values` = a(0..=N), in O(N),
/// accepted only when N + 1 >= 2·n0 + 2p (see [`heaplab_core::find_period`]), and its
/// certificate from `rule` ([`CertRule::certify`]):
///
/// - finite subtraction set with largest move k, saltus 0: proven once N >= n0 + p + k (the
///   k values before any position repeat, so everything after repeats);
/// - octal code with last digit t, saltus 0: proven once N >= 2·n0 + 2p + t (Guy–Smith);
/// - otherwise "observed", with the number of periods seen.
pub fn periodicity(values: &[i64], rule: CertRule) -> Option<Periodicity> {
    let p: Period = find_period(values, true)?;
    let (certified, certificate) = rule.certify(&p);
    let (exceptions, exception_count) = exceptions(values, &p, EXCEPTIONS_LISTED);
    Some(Periodicity {
        preperiod: p.preperiod,
        last_exception: p.preperiod.checked_sub(1),
        period: p.period,
        saltus: p.saltus,
        periods_seen: p.periods_seen(),
        certified,
        certificate,
        exceptions,
        exception_count,
    })
}

/// The best candidate period of `values` when [`periodicity`] accepts none
/// ([`heaplab_core::best_candidate`]), with the N that would accept it and the N from which
/// `rule` would prove it.
pub fn candidate(values: &[i64], rule: CertRule) -> Option<Candidate> {
    let p = best_candidate(values, true)?;
    Some(Candidate {
        preperiod: p.preperiod,
        period: p.period,
        saltus: p.saltus,
        periods_seen: p.periods_seen(),
        accept_at: (2 * p.preperiod + 2 * p.period).saturating_sub(1),
        prove_at: rule
            .bound(p.preperiod, p.period, p.saltus)
            .map(|b| b.max((2 * p.preperiod + 2 * p.period).saturating_sub(1))),
    })
}

impl Periodicity {
    /// a(n) for any n from the first values (which must cover preperiod + period).
    pub fn value_at(&self, head: &[i64], n: u64) -> Option<i64> {
        Period {
            preperiod: self.preperiod,
            period: self.period,
            saltus: self.saltus,
            len: head.len() as u64,
        }
        .extend(head, n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn certificates() {
        // sub{1,3,4}: 0,1,0,1,2,3,2 repeating; largest move 4.
        let a: Vec<i64> = (0..20).map(|n| [0, 1, 0, 1, 2, 3, 2][n % 7]).collect();
        let p = periodicity(&a, CertRule::FiniteSubtraction { largest_move: 4 }).unwrap();
        assert_eq!(
            (p.preperiod, p.period, p.saltus, p.certified),
            (0, 7, 0, true)
        );
        assert_eq!(p.last_exception, None);
        let p = periodicity(&a[..14], CertRule::FiniteSubtraction { largest_move: 4 }).unwrap();
        assert!(p.certified); // N = 13 >= 0 + 7 + 4
                              // a move near 2^64 must not wrap the bound into "proven"
        let p = periodicity(
            &a,
            CertRule::FiniteSubtraction {
                largest_move: u64::MAX - 3,
            },
        )
        .unwrap();
        assert!(!p.certified, "{}", p.certificate);
        let p = periodicity(&a, CertRule::None).unwrap();
        assert!(!p.certified && p.certificate.starts_with("observed"));
        assert_eq!(
            p.value_at(&a, 1_000_000_000_000),
            Some(a[(1_000_000_000_000u64 % 7) as usize])
        );
    }
}
