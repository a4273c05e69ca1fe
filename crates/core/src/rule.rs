//! The rule abstraction: what the options of a heap are. Every family implements [`Rule`];
//! the slow obvious evaluators here ([`grundy_by_definition`], [`outcome_by_definition`])
//! follow the definitions literally and are the reference every fast engine is tested
//! against.

use crate::sets::{MoveSet, NamedSet};
use crate::spec::{Game, TakeBreak};

/// The moves of an impartial heap game.
pub trait Rule: Send + Sync {
    /// Calls `visit` once per option of a heap of `n` tokens with the sizes of the non-empty
    /// heaps the move leaves (zero to three heaps). An option may be visited more than once.
    fn for_each_option(&self, n: u64, visit: &mut dyn FnMut(&[u64]));
}

/// Games in which every move removes `s` tokens from one heap and leaves one heap of
/// `n - s` (possibly empty).
pub trait SubtractionRule: Rule {
    /// Calls `visit(s)` for every legal amount `s` (1 <= s <= n) from a heap of `n`,
    /// increasing, each once.
    fn for_each_move(&self, n: u64, visit: &mut dyn FnMut(u64));
}

fn named_members_upto(set: NamedSet, n: u64, out: &mut Vec<u64>) {
    match set {
        // These are cheap to generate directly for one n.
        NamedSet::Primes | NamedSet::Practical => {
            out.extend((1..=n).filter(|&s| set.contains(s)));
        }
        _ => out.extend(set.elements_upto(n)),
    }
}

impl Game {
    /// Subtraction moves of heap `n` for the subtraction-type families (sets, divisors,
    /// interval games), increasing; `None` for take-and-break games.
    pub fn moves_of(&self, n: u64) -> Option<Vec<u64>> {
        let mut v = Vec::new();
        match self {
            Game::Subtraction { set, leave1 } => {
                let top = if *leave1 { n.saturating_sub(1) } else { n };
                match set {
                    MoveSet::Union { named, finite } => {
                        v.extend(finite.iter().copied().filter(|&s| s <= top));
                        for &s in named {
                            named_members_upto(s, top, &mut v);
                        }
                        v.sort_unstable();
                        v.dedup();
                    }
                    MoveSet::AllBut { excluded } => {
                        v.extend((1..=top).filter(|s| excluded.binary_search(s).is_err()))
                    }
                }
            }
            Game::Divisors { nontrivial } => {
                let lo = if *nontrivial { 2 } else { 1 };
                v.extend((lo..n).filter(|d| n.is_multiple_of(*d)));
            }
            Game::Interval { bound, leave1 } => {
                let top = if *leave1 { n.saturating_sub(1) } else { n };
                v.extend(1..=bound.f(n).min(top));
            }
            Game::TakeBreak(_) | Game::GrundyGame => return None,
        }
        Some(v)
    }
}

fn take_break_options(code: &TakeBreak, n: u64, visit: &mut dyn FnMut(&[u64])) {
    for i in 0..code.digits.len() as u64 {
        if i > n {
            break;
        }
        let d = code.digit(i as usize);
        let rest = n - i;
        if i > 0 && d & 1 != 0 && rest == 0 {
            visit(&[]);
        }
        if i > 0 && d & 2 != 0 && rest >= 1 {
            visit(&[rest]);
        }
        if d & 4 != 0 && rest >= 2 {
            for a in 1..=rest / 2 {
                visit(&[a, rest - a]);
            }
        }
        if d & 8 != 0 && rest >= 3 {
            for a in 1..=rest / 3 {
                for b in a..=(rest - a) / 2 {
                    visit(&[a, b, rest - a - b]);
                }
            }
        }
    }
}

impl Rule for Game {
    fn for_each_option(&self, n: u64, visit: &mut dyn FnMut(&[u64])) {
        match self {
            Game::TakeBreak(code) => take_break_options(code, n, visit),
            Game::GrundyGame => {
                for a in 1..n.div_ceil(2) {
                    visit(&[a, n - a]);
                }
            }
            _ => {
                for s in self.moves_of(n).unwrap_or_default() {
                    visit(&[n - s]);
                }
            }
        }
    }
}

impl SubtractionRule for Game {
    fn for_each_move(&self, n: u64, visit: &mut dyn FnMut(u64)) {
        for s in self.moves_of(n).unwrap_or_default() {
            visit(s);
        }
    }
}

/// mex of a list of values: the least non-negative integer not in it.
pub fn mex(values: &mut [u32]) -> u32 {
    values.sort_unstable();
    let mut m = 0;
    for &v in values.iter() {
        if v == m {
            m += 1;
        } else if v > m {
            break;
        }
    }
    m
}

/// Grundy values 0..=max straight from the definition: g(n) = mex of the XOR of the values
/// of the heaps each option leaves. Quadratic or worse; the reference for tests.
pub fn grundy_by_definition(rule: &dyn Rule, max: u64) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(max as usize + 1);
    let mut vals = Vec::new();
    for n in 0..=max {
        vals.clear();
        rule.for_each_option(n, &mut |heaps| {
            vals.push(heaps.iter().fold(0, |x, &h| x ^ g[h as usize]));
        });
        g.push(mex(&mut vals));
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
        assert_eq!(mex(&mut [3, 0, 1, 1, 5]), 2);
    }
}
