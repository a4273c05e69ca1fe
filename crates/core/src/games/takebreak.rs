//! Take-and-break games: octal and hexadecimal codes in CGSuite's notation
//! (`0.77`, `4.07`, `0.3F`) and Grundy's game (Winning Ways, ch. 4). The code is
//! [`TakeBreak`]; its moves are a [`Breaker`] (`moves::breaker`), which the sparse-space
//! engine runs. Here too: the periods that P-positions exclude ([`excluded_periods_of`]).

use crate::games::code::{Code, Constraint};
use crate::moves::breaker::{Breaker, Digit};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A take-and-break code in CGSuite's notation `d0.d1d2…dt`: digit `d_i` says what may be
/// left after removing `i` tokens from a heap — bit 1: nothing; bit 2: one non-empty heap;
/// bit 4: two non-empty heaps; bit 8 (hexadecimal codes): three non-empty heaps. `d0` (the
/// digit before the point) may only use bits 4 and 8: split without removing.
/// Winning Ways, ch. 4.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TakeBreak {
    /// `digits[i]` is `d_i`; `digits[0]` is the digit before the point. No trailing zero
    /// beyond index 0.
    pub digits: Vec<u8>,
}

impl TakeBreak {
    /// Builds a code from its digits (trailing zeros dropped).
    pub fn new(mut digits: Vec<u8>) -> TakeBreak {
        while digits.len() > 1 && *digits.last().unwrap() == 0 {
            digits.pop();
        }
        if digits.is_empty() {
            digits.push(0);
        }
        TakeBreak { digits }
    }

    /// `t`: the position of the last non-zero digit after the point (0 if none).
    pub fn last_digit(&self) -> usize {
        self.digits.len() - 1
    }

    /// The digit for removing `i` tokens (0 beyond the code).
    pub fn digit(&self, i: usize) -> u8 {
        self.digits.get(i).copied().unwrap_or(0)
    }

    /// The largest number of heaps a move may leave (0 to 3).
    pub fn max_heaps_left(&self) -> u32 {
        let all = self.digits.iter().fold(0u8, |a, &d| a | d);
        if all & 8 != 0 {
            3
        } else if all & 4 != 0 {
            2
        } else if all & 2 != 0 {
            1
        } else {
            0
        }
    }
}

impl fmt::Display for TakeBreak {
    /// `d0.d1d2…` in hexadecimal digits (of four bits: higher bits, which no move uses,
    /// are not shown), `0.0` for a code without digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex = |d: u8| {
            char::from_digit(u32::from(d & 15), 16)
                .unwrap_or('0')
                .to_ascii_uppercase()
        };
        write!(f, "{}.", hex(self.digits.first().copied().unwrap_or(0)))?;
        if self.digits.len() <= 1 {
            return write!(f, "0");
        }
        for &d in &self.digits[1..] {
            write!(f, "{}", hex(d))?;
        }
        Ok(())
    }
}

impl Breaker {
    /// From a code `d0.d1d2…`: digit d_i's bit 1 leaves nothing, bit 2 one heap, bit 4 two
    /// heaps, bit 8 three heaps, after removing i tokens (d0 may only split).
    pub fn from_code(code: &TakeBreak) -> Breaker {
        let digits = code
            .digits
            .iter()
            .enumerate()
            .filter(|(_, &d)| d != 0)
            .map(|(i, &d)| code_digit(i, u64::from(d), false))
            .collect();
        Breaker {
            digits,
            exact_to: u64::MAX,
        }
    }

    /// The rule of one of CGSuite's extended codes ([`crate::games::code::Code`]) when a
    /// breaker can play it: moves that remove a fixed number of tokens and leave at most
    /// three heaps, any sizes, or two heaps that must differ (`!` or `?`: for two heaps
    /// they say the same). `4!.0` is Grundy's game and `0.77` Kayles.
    ///
    /// # Errors
    /// The reason, in words, for a code whose digits repeat for ever, add tokens, may leave
    /// four or more heaps, or constrain three heaps or ask for equal ones.
    pub fn from_ext_code(code: &Code) -> Result<Breaker, String> {
        if code.period > 0 {
            return Err("its digits repeat for ever (moves remove any number of tokens)".into());
        }
        Breaker::from_ext_code_to(code, 0)
    }

    /// True for a code whose digits repeat for ever and that [`Breaker::from_ext_code_to`]
    /// can cut (its moves otherwise remove and leave what a breaker plays).
    pub fn cuts_repeating(code: &Code) -> bool {
        code.period > 0 && Breaker::from_ext_code_to(code, 0).is_ok()
    }

    /// As [`Breaker::from_ext_code`], and a code whose digits repeat for ever (`0.51[2]`,
    /// Plambeck and Siegel's dotted codes 0.512̇) is cut after the digit that removes
    /// `max` tokens: the finite rule plays every heap of at most `max` tokens exactly as
    /// the code does (no such heap can lose more than `max` tokens), and larger heaps not
    /// at all as the code does. Its last take is then at least `max`, so no periodicity
    /// bound that counts heaps past the last take proves anything on heaps 0..=`max`.
    ///
    /// # Errors
    /// As [`Breaker::from_ext_code`], but for repeating digits.
    pub fn from_ext_code_to(code: &Code, max: u64) -> Result<Breaker, String> {
        if !code.adds.is_empty() {
            return Err("its moves add tokens".into());
        }
        let last = if code.period > 0 {
            max.max(code.digits.len() as u64 - 1)
        } else {
            code.digits.len() as u64 - 1
        };
        let Ok(last) = usize::try_from(last) else {
            return Err("its repeating digits reach past this machine's word".into());
        };
        let mut digits = vec![];
        for i in 0..=last {
            let d = code.digit(i as u64);
            if d.is_zero() {
                continue;
            }
            if d.more || d.counts >> 4 != 0 {
                return Err(format!(
                    "removing {} may leave four or more heaps (digit {d})",
                    tokens(i)
                ));
            }
            let unequal = match d.constraint {
                Constraint::Any => false,
                Constraint::Unequal | Constraint::NotAllEqual if d.counts & 8 == 0 => true,
                _ => {
                    return Err(format!(
                        "removing {} leaves heaps under a constraint (digit {d}) other than \
                         two unequal heaps",
                        tokens(i)
                    ))
                }
            };
            digits.push(code_digit(i, d.counts, unequal));
        }
        let exact_to = if code.period > 0 {
            last as u64
        } else {
            u64::MAX
        };
        Ok(Breaker { digits, exact_to })
    }

    /// Grundy's game: split a heap into two unequal non-empty heaps.
    pub fn grundy_game() -> Breaker {
        Breaker {
            digits: vec![Digit {
                take: 0,
                nothing: false,
                one: false,
                two: true,
                three: false,
                unequal: true,
            }],
            exact_to: u64::MAX,
        }
    }
}

/// The digit that removes `take` tokens with code bits `bits` (1: leave nothing, 2: one
/// heap, 4: two, 8: three; the digit before the point only splits); `unequal`: its two
/// heaps must differ.
fn code_digit(take: usize, bits: u64, unequal: bool) -> Digit {
    Digit {
        take: take as u64,
        nothing: take > 0 && bits & 1 != 0,
        one: take > 0 && bits & 2 != 0,
        two: bits & 4 != 0,
        three: bits & 8 != 0,
        unequal: unequal && bits & 4 != 0,
    }
}

/// "1 token", "2 tokens".
fn tokens(i: usize) -> String {
    if i == 1 {
        "1 token".into()
    } else {
        format!("{i} tokens")
    }
}

/// Eventual periods ruled out by the P-positions of a take-and-break game (see
/// [`excluded_periods_of`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExcludedPeriods {
    /// The takes t whose moves may split what is left into two heaps of any sizes.
    pub takes: Vec<u64>,
    /// The takes t whose moves split what is left into two *unequal* heaps only (Grundy's
    /// game: t = 0); with them, b = L is left out.
    #[serde(default)]
    pub unequal_takes: Vec<u64>,
    /// L, the largest P-position given: the exclusion holds for every eventual period
    /// whose preperiod is at most L.
    pub preperiod_at_most: u64,
    /// The numbers b + t (b >= 1 a given P-position, t one of `takes`, or one of
    /// `unequal_takes` with b != L), increasing.
    pub sums: Vec<u64>,
    /// Their divisors, increasing: none of them is such an eventual period.
    pub periods: Vec<u64>,
}

/// P-positions (b >= 1) whose sums [`excluded_periods_of`] factors, at most.
const EXCLUDE_MAX_P: usize = 1000;

/// The eventual periods that the P-positions `ps` (increasing, of `game`'s Grundy values
/// in normal play) rule out, for games with a move that removes t tokens and may leave two
/// heaps a + b (an octal digit with bit 4), such as Officers (0.6, t = 1), or only unequal
/// ones, such as Grundy's game (t = 0).
///
/// Theorem (proof here; the case a = b is the rule "a P-position l past the preperiod
/// rules out every divisor of l + 1" for Officers): let g have period p from n0, let a >= n0
/// and b >= 1 be P-positions. The heap a + b + t has the option a + b (t removed, two heaps)
/// of value g(a) ^ g(b) = 0, so g(a + b + t) != 0. If p divided b + t, then
/// a + b + t ≡ a (mod p) with both past n0, so g(a + b + t) = g(a) = 0: a contradiction.
/// Hence, taking a = L (the largest P-position known), no eventual period whose preperiod is
/// at most L divides b + t, for any P-position b >= 1 and such t. Where the two heaps must
/// differ, the option a + b exists only for b != a = L, so b = L is left out there.
///
/// The first [`EXCLUDE_MAX_P`] P-positions b >= 1 are used. None when `game` has no such
/// move or `ps` has no P-position b >= 1.
pub fn excluded_periods_of(br: &Breaker, ps: &[u64]) -> Option<ExcludedPeriods> {
    let split = |unequal: bool| {
        let mut t: Vec<u64> = br
            .digits
            .iter()
            .filter(|d| d.two && d.unequal == unequal)
            .map(|d| d.take)
            .collect();
        t.sort_unstable();
        t.dedup();
        t
    };
    let takes = split(false);
    // (a take allowed for any two heaps needs no unequal rule)
    let unequal_takes: Vec<u64> = split(true)
        .into_iter()
        .filter(|t| !takes.contains(t))
        .collect();
    let l = *ps.last()?;
    let bs: Vec<u64> = ps
        .iter()
        .copied()
        .filter(|&b| b >= 1)
        .take(EXCLUDE_MAX_P)
        .collect();
    if (takes.is_empty() && unequal_takes.is_empty()) || bs.is_empty() {
        return None;
    }
    let mut sums: Vec<u64> = bs
        .iter()
        .flat_map(|&b| takes.iter().map(move |&t| b.saturating_add(t)))
        .chain(
            bs.iter()
                .filter(|&&b| b != l)
                .flat_map(|&b| unequal_takes.iter().map(move |&t| b.saturating_add(t))),
        )
        .collect();
    sums.sort_unstable();
    sums.dedup();
    let mut periods: Vec<u64> = vec![];
    for &m in &sums {
        let mut d = 1u64;
        while d.saturating_mul(d) <= m {
            if m % d == 0 {
                periods.push(d);
                periods.push(m / d);
            }
            d += 1;
        }
    }
    periods.sort_unstable();
    periods.dedup();
    if sums.is_empty() {
        return None;
    }
    Some(ExcludedPeriods {
        takes,
        unequal_takes,
        preperiod_at_most: l,
        sums,
        periods,
    })
}

/// The first cousin of an octal code with d1 = 0: b_i = (a_{i-1} & 4 ? 7 : 0) |
/// (a_i & 2 ? 3 : 0) | (a_{i+1} & 1) for i >= 1, b_0 = 0; G_code(n + 1) = G_cousin(n).
///
/// Proof: heaps of size 1 have no move (d1 = 0 and a split needs two tokens), so a heap of
/// m + 1 in the code plays like a heap of m in the cousin when every heap is read one
/// smaller: removing i and leaving one heap y maps to removing i and leaving y - 1 (nothing
/// when y = 1); removing i - 1 and leaving two heaps y, z maps to removing i and leaving
/// y - 1 and z - 1 (fewer heaps when one is 1); removing i + 1 from a heap of i + 1 maps to
/// removing i from a heap of i. Collecting which of "nothing", "one heap", "two heaps" each
/// removal i reaches gives the digits above.
pub fn first_cousin(code: &TakeBreak) -> TakeBreak {
    let a = |i: usize| code.digit(i);
    let len = code.digits.len() + 1;
    let mut digits = vec![0u8];
    for i in 1..=len {
        let mut b = 0u8;
        if a(i - 1) & 4 != 0 {
            b |= 7;
        }
        if a(i) & 2 != 0 {
            b |= 3;
        }
        if a(i + 1) & 1 != 0 {
            b |= 1;
        }
        digits.push(b);
    }
    TakeBreak::new(digits)
}

/// An octal code (digits below 8, nothing or a split of two before the point) whose first
/// digit after the point is 0, taken to its first cousins until that digit is not 0: the
/// code and the number of steps (each moves every heap one down).
pub(crate) fn cousins(code: &TakeBreak) -> Option<(TakeBreak, u64)> {
    if !(code.digits.iter().all(|&d| d < 8) && matches!(code.digit(0), 0 | 4)) {
        return None;
    }
    let mut code = code.clone();
    let mut shift = 0;
    while code.digit(1) == 0 && code.digits.iter().any(|&d| d != 0) {
        code = first_cousin(&code);
        shift += 1;
    }
    Some((code, shift))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{excluded_periods, Game};
    use crate::moves::breaker::guy_smith_bound;
    use std::ops::ControlFlow;

    #[test]
    fn p_positions_exclude_periods_that_would_repeat_them() {
        let officers = Game::parse("0.6").unwrap();
        let e = excluded_periods(&officers, &[0, 1, 4, 8]).unwrap();
        assert_eq!(e.takes, vec![1]);
        assert_eq!(e.preperiod_at_most, 8);
        assert_eq!(e.sums, vec![2, 5, 9]);
        assert_eq!(e.periods, vec![1, 2, 3, 5, 9]);
        // Grundy's game splits into unequal heaps only (t = 0): b = L is left out
        let grundy = Game::parse("grundy-game").unwrap();
        let e = excluded_periods(&grundy, &[0, 1, 2, 4, 7, 10, 20]).unwrap();
        assert_eq!(
            (e.takes.clone(), e.unequal_takes.clone()),
            (vec![], vec![0])
        );
        assert_eq!(e.sums, vec![1, 2, 4, 7, 10]);
        assert_eq!(e.periods, vec![1, 2, 4, 5, 7, 10]);
        // the proof's step on real tables: L + b + t is no P-position for each sum b + t
        for (game, max) in [(&officers, 3000u64), (&grundy, 3000)] {
            let g = crate::grundy_table(game, max, &crate::Silent).unwrap();
            let ps: Vec<u64> = (0..=max).filter(|&n| g.get(n) == 0).collect();
            let e = excluded_periods(game, &ps).unwrap();
            let l = e.preperiod_at_most;
            assert!(!e.sums.is_empty());
            for s in e.sums.iter().filter(|&&s| l + s <= max) {
                assert_ne!(g.get(l + s), 0, "{game}: {l} + {s}");
            }
        }
        // no split move (0.3: take one or two, never split), no P-position b >= 1
        for spec in ["0.3", "sub{1,2}"] {
            assert_eq!(
                excluded_periods(&Game::parse(spec).unwrap(), &[0, 3, 6]),
                None,
                "{spec}"
            );
        }
        assert_eq!(excluded_periods(&officers, &[0]), None);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// The theorem against the values: for random octal codes with a split move whose
        /// Grundy values are eventually periodic to 3000, the period found (with its
        /// preperiod at most the last P-position) is never excluded.
        #[test]
        fn found_periods_are_never_excluded(ds in proptest::collection::vec(0u8..8, 1..4)) {
            let mut digits = vec![0u8];
            digits.extend(ds);
            let game = Game::TakeBreak(TakeBreak::new(digits));
            let g = crate::grundy_table(&game, 3000, &crate::Silent).unwrap().to_u32_vec();
            let wide: Vec<i64> = g.iter().map(|&x| x as i64).collect();
            let ps: Vec<u64> = (0..g.len() as u64).filter(|&n| g[n as usize] == 0).collect();
            if let (Some(per), Some(e)) = (crate::period::find_period(&wide, false), excluded_periods(&game, &ps)) {
                if per.preperiod <= e.preperiod_at_most {
                    proptest::prop_assert!(!e.periods.contains(&per.period), "{} {:?} {:?}", game, per, e.sums);
                }
            }
        }
    }

    fn all(br: &Breaker, n: u64, a_max: u64) -> Vec<(u64, Vec<u64>)> {
        let mut v = vec![];
        let _ = br.options(n, a_max, &mut |r, h| {
            v.push((r, h.to_vec()));
            ControlFlow::Continue(())
        });
        v
    }

    /// A breaker made from an extended code plays the code's moves: the same options (as
    /// sorted heap lists) for every heap to 24; codes it cannot play say why.
    #[test]
    fn extended_codes_become_breakers_with_the_same_options() {
        use crate::{Game, Ruleset};
        let code = |spec: &str| match Game::parse(spec).unwrap() {
            Game::Ruleset(Ruleset::Code(c)) => c,
            g => panic!("{spec} parsed as {g:?}"),
        };
        for spec in ["4!.0", "4?.0", "4!.4!", "0.4!7", "4!.C", "0.6!3?", "0.07!"] {
            let c = code(spec);
            let br = Breaker::from_ext_code(&c).unwrap_or_else(|e| panic!("{spec}: {e}"));
            for n in 0..=24 {
                let mut mine: Vec<Vec<u64>> =
                    all(&br, n, u64::MAX).into_iter().map(|(_, h)| h).collect();
                let mut theirs = vec![];
                let _ = c.for_each_option(n, &mut |h| {
                    let mut h = h.to_vec();
                    h.sort_unstable();
                    theirs.push(h);
                    ControlFlow::Continue(())
                });
                for h in mine.iter_mut() {
                    h.sort_unstable();
                }
                mine.sort();
                mine.dedup();
                theirs.sort();
                theirs.dedup();
                assert_eq!(mine, theirs, "{spec} heap {n}");
            }
        }
        assert_eq!(
            Breaker::from_ext_code(&code("4!.0")).unwrap().digits.len(),
            1,
            "Grundy's game"
        );
        for (spec, why) in [
            ("0.[3]", "repeat"),
            ("80.0", "add tokens"),
            ("0.{2+}", "four or more"),
            ("0.G", "four or more"),
            ("0.C!", "constraint"),
            ("4=.0", "constraint"),
        ] {
            let e = Breaker::from_ext_code(&code(spec)).unwrap_err();
            assert!(e.contains(why), "{spec}: {e}");
        }
    }

    #[test]
    fn options_of_kayles_grundy_and_a_hexadecimal_code() {
        let kayles = Breaker::of(&Game::parse("0.77").unwrap()).unwrap();
        assert_eq!(
            all(&kayles, 4, u64::MAX),
            vec![(1, vec![3]), (1, vec![1, 2]), (2, vec![2]), (2, vec![1, 1])]
        );
        assert_eq!(all(&kayles, 2, u64::MAX), vec![(1, vec![1]), (2, vec![])]);
        // two-heap splits beyond a_max are skipped
        assert_eq!(all(&kayles, 9, 1).len(), 4);
        let gg = Breaker::grundy_game();
        assert_eq!(
            all(&gg, 6, u64::MAX),
            vec![(0, vec![1, 5]), (0, vec![2, 4])]
        );
        let hex = Breaker::of(&Game::parse("0.8").unwrap()).unwrap();
        assert_eq!(all(&hex, 4, u64::MAX), vec![(1, vec![1, 1, 1])]);
        assert!(kayles.is_octal() && !gg.is_octal() && !hex.is_octal());
        assert_eq!(kayles.last_take(), 2);
        // stops when told
        let mut seen = 0;
        let r = kayles.options(10, u64::MAX, &mut |_, _| {
            seen += 1;
            ControlFlow::Break(())
        });
        assert!(r.is_break() && seen == 1);
        assert_eq!(guy_smith_bound(71, 12, 2), 168);
        assert_eq!(guy_smith_bound(u64::MAX, 1, 1), u64::MAX);
    }
}
