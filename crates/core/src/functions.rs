//! The number-theory functions of heaplab's expression language, exact on 64 bits — one
//! definition for every place that evaluates it: claims (the command line through polars
//! SQL, the Python package through its own polars) and `rule{…}` move predicates.

use crate::num;

/// A claim function: `isqrt(x)`, `v2(x)` (2-adic valuation; null for 0), `popcount(x)`,
/// `is_square(x)`, `is_prime(x)` (deterministic Miller–Rabin), `xor(a, b)`. Every one gives
/// null for a null or negative argument (so a claim can guard with `n < 3 OR
/// isqrt(n - 3) ...`: SQL evaluates both sides on every row, and `TRUE OR NULL` is true).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimFunction {
    /// floor(sqrt(x)).
    Isqrt,
    /// The exponent of 2 in x (null for 0).
    V2,
    /// Set bits of x.
    Popcount,
    /// x is a perfect square.
    IsSquare,
    /// x is prime.
    IsPrime,
    /// a XOR b.
    Xor,
    /// floor(x·√d), exact (`floor_sqrt_mul(k, 5)`; null beyond 2^63).
    FloorSqrtMul,
    /// floor(x·φ), φ the golden ratio, exact (Wythoff's A_k: OEIS A000201).
    FloorPhi,
    /// floor(x·φ²) = floor(x·φ) + x, exact (Wythoff's B_k: OEIS A001950).
    FloorPhi2,
}

/// A function's value on one row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimValue {
    /// An integer.
    Int(u64),
    /// true/false.
    Bool(bool),
}

impl ClaimFunction {
    /// The function of a name (any case), if it is one of ours.
    pub fn from_name(name: &str) -> Option<ClaimFunction> {
        Some(match name.to_ascii_lowercase().as_str() {
            "isqrt" => ClaimFunction::Isqrt,
            "v2" => ClaimFunction::V2,
            "popcount" => ClaimFunction::Popcount,
            "is_square" => ClaimFunction::IsSquare,
            "is_prime" => ClaimFunction::IsPrime,
            "xor" => ClaimFunction::Xor,
            "floor_sqrt_mul" => ClaimFunction::FloorSqrtMul,
            "floor_phi" => ClaimFunction::FloorPhi,
            "floor_phi2" => ClaimFunction::FloorPhi2,
            _ => return None,
        })
    }

    /// Every function, in the order of the documentation.
    pub const ALL: [ClaimFunction; 9] = [
        ClaimFunction::Isqrt,
        ClaimFunction::V2,
        ClaimFunction::Popcount,
        ClaimFunction::IsSquare,
        ClaimFunction::IsPrime,
        ClaimFunction::Xor,
        ClaimFunction::FloorSqrtMul,
        ClaimFunction::FloorPhi,
        ClaimFunction::FloorPhi2,
    ];

    /// Its name in claims.
    pub fn name(self) -> &'static str {
        match self {
            ClaimFunction::Isqrt => "isqrt",
            ClaimFunction::V2 => "v2",
            ClaimFunction::Popcount => "popcount",
            ClaimFunction::IsSquare => "is_square",
            ClaimFunction::IsPrime => "is_prime",
            ClaimFunction::Xor => "xor",
            ClaimFunction::FloorSqrtMul => "floor_sqrt_mul",
            ClaimFunction::FloorPhi => "floor_phi",
            ClaimFunction::FloorPhi2 => "floor_phi2",
        }
    }

    /// Arguments it takes (1, or 2 for `xor` and `floor_sqrt_mul`).
    pub fn arity(self) -> usize {
        if matches!(self, ClaimFunction::Xor | ClaimFunction::FloorSqrtMul) {
            2
        } else {
            1
        }
    }

    /// True when its values are true/false (`is_square`, `is_prime`).
    pub fn is_boolean(self) -> bool {
        matches!(self, ClaimFunction::IsSquare | ClaimFunction::IsPrime)
    }

    /// The value on one row from its arguments (`None` = null or negative); `None` for a
    /// null result. `args` holds [`Self::arity`] values (a missing one reads as null).
    pub fn apply(self, args: &[Option<u64>]) -> Option<ClaimValue> {
        let x = (*args.first()?)?;
        Some(match self {
            ClaimFunction::Isqrt => ClaimValue::Int(num::isqrt(x)),
            ClaimFunction::V2 => ClaimValue::Int(u64::from((x != 0).then(|| num::v2(x))?)),
            ClaimFunction::Popcount => ClaimValue::Int(u64::from(x.count_ones())),
            ClaimFunction::IsSquare => ClaimValue::Bool(num::is_square(x)),
            ClaimFunction::IsPrime => ClaimValue::Bool(num::is_prime(x)),
            ClaimFunction::Xor => ClaimValue::Int(x ^ (*args.get(1)?)?),
            ClaimFunction::FloorSqrtMul => {
                let d = (*args.get(1)?)?;
                small(crate::beyond::beatty::floor_n_sqrt(x, d))?
            }
            ClaimFunction::FloorPhi => small(crate::beyond::beatty::Beatty { a: 1 }.lower(x))?,
            ClaimFunction::FloorPhi2 => small(crate::beyond::beatty::Beatty { a: 1 }.upper(x))?,
        })
    }

    /// An argument as the functions take it: a negative value is null.
    pub fn argument(x: i64) -> Option<u64> {
        u64::try_from(x).ok()
    }
}

/// A value the signed 64-bit columns of a claim can hold (else null).
fn small(v: u128) -> Option<ClaimValue> {
    (v <= i64::MAX as u128).then_some(ClaimValue::Int(v as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_nulls() {
        let f =
            |name: &str, args: &[Option<u64>]| ClaimFunction::from_name(name).unwrap().apply(args);
        assert_eq!(
            f("ISQRT", &[Some(u64::MAX)]),
            Some(ClaimValue::Int(4294967295))
        );
        assert_eq!(f("v2", &[Some(96)]), Some(ClaimValue::Int(5)));
        assert_eq!(f("v2", &[Some(0)]), None);
        assert_eq!(f("popcount", &[Some(255)]), Some(ClaimValue::Int(8)));
        assert_eq!(
            f("is_square", &[Some(1 << 62)]),
            Some(ClaimValue::Bool(true))
        );
        assert_eq!(
            f("is_prime", &[Some(18446744073709551557)]),
            Some(ClaimValue::Bool(true))
        );
        assert_eq!(f("xor", &[Some(6), Some(3)]), Some(ClaimValue::Int(5)));
        assert_eq!(f("xor", &[Some(6), None]), None);
        assert_eq!(f("isqrt", &[ClaimFunction::argument(-4)]), None);
        assert_eq!(ClaimFunction::from_name("sqrt"), None);
        for g in ClaimFunction::ALL {
            assert_eq!(ClaimFunction::from_name(g.name()), Some(g));
        }
    }
}
