//! The rule abstraction: what the options of a heap are. Every family implements [`Rule`]
//! (see [`crate::games`]); the slow obvious evaluators here ([`grundy_by_definition`],
//! [`outcome_by_definition`]) follow the definitions literally and are the reference every
//! fast engine is tested against.

use crate::mex::ValueSet;

/// The moves of an impartial heap game. Every family implements it, and so can your own
/// rule (CGSuite's `HeapRuleset`): list the heaps each option of heap n leaves, and
/// [`grundy_table_of`] gives its Grundy table, which the analysis crate's `analyze_table`
/// (periodicity, P-positions, gaps, Grundy statistics) and the table writers take as they
/// take any game's.
///
/// ```
/// use heaplab_core::{grundy_table_of, Rule, Silent};
/// /// Remove 1 or 2, or split a heap of at least 4 into two equal heaps.
/// struct Halve;
/// impl Rule for Halve {
///     fn for_each_option(&self, n: u64, visit: &mut dyn FnMut(&[u64])) {
///         for s in 1..=n.min(2) {
///             visit(&[n - s]);
///         }
///         if n >= 4 && n.is_multiple_of(2) {
///             visit(&[n / 2, n / 2]);
///         }
///     }
/// }
/// let g = grundy_table_of(&Halve, 10, &Silent).unwrap();
/// assert_eq!(g.to_u32_vec(), vec![0, 1, 2, 0, 1, 2, 3, 0, 1, 2, 3]);
/// ```
pub trait Rule: Send + Sync {
    /// Calls `visit` once per option of a heap of `n` tokens with the sizes of the heaps
    /// the move leaves (any number; empty heaps count as nothing). An option may be
    /// visited more than once. Heaps must be smaller than n (the game must end).
    fn for_each_option(&self, n: u64, visit: &mut dyn FnMut(&[u64]));
}

/// Grundy values 0..=max of any [`Rule`], position by position: the mex of the XOR of the
/// values of the heaps each option leaves (Sprague–Grundy). One step per option listed;
/// `obs` sees the progress and may stop it.
///
/// # Errors
/// [`crate::Error::Unsupported`] when an option leaves a heap of n or more from heap n (a
/// loopy rule, which has no Grundy value this way); [`crate::Error::TooLarge`] past
/// 2^40 − 1 positions; [`crate::Error::OutOfMemory`] when the table cannot be allocated;
/// [`crate::Error::Cancelled`] when `obs` stops it.
pub fn grundy_table_of(
    rule: &dyn Rule,
    max: u64,
    obs: &dyn crate::Observer,
) -> Result<crate::GrundyTable, crate::Error> {
    const LIMIT: u64 = (1 << 40) - 1;
    if max > LIMIT {
        return Err(crate::Error::TooLarge {
            what: "a Grundy table of a rule",
            n: max,
            limit: LIMIT,
        });
    }
    let bytes = (max + 1) * 4;
    let mut g: Vec<u32> = Vec::new();
    // (probed first: the binary's allocator ends the process when one fails)
    crate::engines::mem::can_allocate(bytes)
        .then_some(())
        .and_then(|()| g.try_reserve_exact(max as usize + 1).ok())
        .ok_or(())
        .map_err(|_| crate::Error::OutOfMemory {
            what: "a Grundy table",
            bytes,
            most: None,
        })?;
    let mut watch = crate::observe::Watch::start(obs, max + 1)?;
    let mut vals = ValueSet::default();
    for n in 0..=max {
        vals.clear();
        let mut loopy = None;
        rule.for_each_option(n, &mut |heaps| {
            let mut x = 0;
            for &h in heaps {
                match g.get(h as usize) {
                    Some(&v) if h < n || n == 0 && h == 0 => x ^= v,
                    _ if h == 0 => {}
                    _ => loopy = Some(h),
                }
            }
            vals.insert(x);
        });
        if let Some(h) = loopy {
            return Err(crate::Error::Unsupported {
                what: format!("a rule whose heap {n} has an option leaving heap {h} (not smaller)"),
            });
        }
        g.push(vals.mex());
        watch.at(n + 1)?;
    }
    Ok(crate::GrundyTable::from_u32(g))
}

/// Games in which every move removes `s` tokens from one heap and leaves one heap of
/// `n - s` (possibly empty).
pub trait SubtractionRule: Rule {
    /// Calls `visit(s)` for every legal amount `s` (1 <= s <= n) from a heap of `n`,
    /// increasing, each once.
    fn for_each_move(&self, n: u64, visit: &mut dyn FnMut(u64));
}

/// Grundy values 0..=max straight from the definition: g(n) = mex of the XOR of the values
/// of the heaps each option leaves (Sprague–Grundy). Quadratic or worse; the reference for
/// tests.
pub fn grundy_by_definition(rule: &dyn Rule, max: u64) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(max as usize + 1);
    let mut vals = ValueSet::default();
    for n in 0..=max {
        vals.clear();
        rule.for_each_option(n, &mut |heaps| {
            vals.insert(heaps.iter().fold(0, |x, &h| x ^ g[h as usize]));
        });
        g.push(vals.mex());
    }
    g
}

/// Outcomes 0..=max straight from the definition: n is an N-position (true) iff some option
/// is a P-position. For one-heap options only the zero/non-zero status of values matters,
/// so this is [`grundy_by_definition`] reduced to booleans for subtraction games.
pub fn outcome_by_definition(rule: &dyn SubtractionRule, max: u64) -> Vec<bool> {
    let mut win: Vec<bool> = Vec::with_capacity(max as usize + 1);
    for n in 0..=max {
        let mut w = false;
        rule.for_each_move(n, &mut |s| w |= !win[(n - s) as usize]);
        win.push(w);
    }
    win
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn definitions_on_seed_examples() {
        let sq = Game::parse("squares").unwrap();
        let w = outcome_by_definition(&sq, 20);
        // Stone Game IV: 1 win, 2 lose, 4 win, 7 lose, 17 lose.
        assert!(w[1] && !w[2] && w[4] && !w[7] && !w[17]);
        let kayles = Game::parse("0.77").unwrap();
        let g = grundy_by_definition(&kayles, 12);
        // A002186: 0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4
        assert_eq!(g, vec![0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]);
        let gg = grundy_by_definition(&Game::GrundyGame, 10);
        // A002188: 0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0
        assert_eq!(gg, vec![0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0]);
        assert_eq!(crate::mex::mex(&[3, 0, 1, 1, 5]), 2);
    }
}

#[cfg(test)]
mod plug_in {
    use super::*;
    use crate::game::Game;

    /// A rule written outside the menu: remove 1 or 2, or split an even heap of 4 or more
    /// into two equal heaps.
    struct Halve;
    impl Rule for Halve {
        fn for_each_option(&self, n: u64, visit: &mut dyn FnMut(&[u64])) {
            for s in 1..=n.min(2) {
                visit(&[n - s]);
            }
            if n >= 4 && n.is_multiple_of(2) {
                visit(&[n / 2, n / 2]);
            }
        }
    }

    /// A loopy rule: heap 3 moves to heap 5.
    struct Loopy;
    impl Rule for Loopy {
        fn for_each_option(&self, n: u64, visit: &mut dyn FnMut(&[u64])) {
            if n == 3 {
                visit(&[5]);
            }
        }
    }

    #[test]
    fn any_rule_gets_a_table_equal_to_the_definition_and_the_engines() {
        let t = grundy_table_of(&Halve, 300, &crate::observe::Silent).unwrap();
        assert_eq!(t.to_u32_vec(), grundy_by_definition(&Halve, 300));
        // every family through the same door equals its own engine
        for spec in [
            "0.77",
            "sub{2,5}",
            "4!.0",
            "ruler",
            "divisors",
            "half|sub{1}",
        ] {
            let g = Game::parse(spec).unwrap();
            let by_rule = grundy_table_of(&g, 200, &crate::observe::Silent).unwrap();
            let engine = crate::grundy_table(&g, 200, &crate::observe::Silent).unwrap();
            assert_eq!(by_rule.to_u32_vec(), engine.to_u32_vec(), "{spec}");
        }
        let e = grundy_table_of(&Loopy, 10, &crate::observe::Silent).unwrap_err();
        assert!(
            e.to_string()
                .contains("heap 3 has an option leaving heap 5"),
            "{e}"
        );
        // a stop is obeyed
        let stop = |_: u64, _: u64| std::ops::ControlFlow::Break(());
        assert!(grundy_table_of(&Halve, 1 << 30, &stop).is_err());
    }
}
