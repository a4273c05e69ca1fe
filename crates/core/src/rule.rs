//! The rule abstraction: what the options of a heap are. Every family implements [`Rule`]
//! (see [`crate::games`]); the slow obvious evaluators here ([`grundy_by_definition`],
//! [`outcome_by_definition`]) follow the definitions literally and are the reference every
//! fast engine is tested against.

use crate::mex::ValueSet;

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
    use crate::spec::Game;

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
