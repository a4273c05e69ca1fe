//! Terminal-condition variants of subtraction games.
//!
//! - `sink(S)`: a move may subtract any s in S, even more than the heap, and a move to a
//!   non-positive heap wins (the "sink" of Bhagat, Larsson, Manabe and Yamashita, arXiv
//!   2601.18715). So heap n has the options n − s for s in S with s < n, and the empty
//!   heap (a win for the mover) when some s in S is n or more.
//! - `seed(SPEC; PNNP…)`: the outcomes of heaps 0..k are prescribed (P or N, one letter a
//!   heap), and from k + 1 on a heap is an N-position iff one of SPEC's moves reaches a
//!   P-position (prescribed starting outcomes, Miklós and Post, arXiv 2312.02426). Such a
//!   game has outcomes, not Grundy values.

use crate::observe::Watch;
use crate::sets::MoveSet;
use serde::{Deserialize, Serialize};
use std::ops::ControlFlow;

/// Does `set` hold a move larger than n (so that from n a move to a non-positive heap is
/// possible without taking exactly n)?
fn overshoots(set: &MoveSet, n: u64) -> bool {
    set.max_finite().is_none_or(|k| k > n)
}

/// The least amount of `set` that is n or more (a move of `sink(set)` from heap n to a
/// non-positive heap); n itself when the set has none (never asked then).
pub(crate) fn least_move_from(set: &MoveSet, n: u64) -> u64 {
    if set.contains(n) {
        return n;
    }
    match set {
        MoveSet::AllBut { .. } => (n..).find(|&s| set.contains(s)).unwrap_or(n),
        MoveSet::Union { .. } => {
            // the elements up to the next power of two above n hold one (a named set has
            // members in every doubling: squares, primes, powers of 2, …)
            let mut top = n.saturating_mul(2).max(2);
            loop {
                if let Some(&s) = set.elements_upto(top).iter().find(|&&s| s >= n) {
                    return s;
                }
                if top == u64::MAX {
                    return n;
                }
                top = top.saturating_mul(2);
            }
        }
    }
}

/// The options of heap n in `sink(set)`: n − s (s < n in the set), and the empty heap when
/// some move is n or more.
pub(crate) fn sink_options(
    set: &MoveSet,
    n: u64,
    visit: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if n == 0 {
        return ControlFlow::Continue(());
    }
    if set.contains(n) || overshoots(set, n) {
        visit(&[])?;
    }
    for s in set.elements_upto(n - 1) {
        visit(&[n - s])?;
    }
    ControlFlow::Continue(())
}

/// Grundy values 0..=max of `sink(set)`: the mex over the moves' values, with 0 for a move
/// to a non-positive heap. About one step per (heap, move below it).
///
/// # Errors
/// When stopped.
pub(crate) fn sink_grundy(
    set: &MoveSet,
    max: u64,
    watch: &mut Watch,
) -> Result<Vec<u32>, crate::Error> {
    let len = crate::engines::knapsack::table_len(max)?;
    let moves = set.elements_upto(max);
    let mut g: Vec<u32> = Vec::with_capacity(len);
    let mut seen = crate::mex::ValueSet::default();
    g.push(0);
    for n in 1..len as u64 {
        seen.clear();
        let k = moves.partition_point(|&s| s <= n);
        if k > 0 && moves[k - 1] == n || overshoots(set, n) {
            seen.insert(0);
        }
        for &s in &moves[..k] {
            if s < n {
                seen.insert(g[(n - s) as usize]);
            }
        }
        g.push(seen.mex());
        watch.at(n + 1)?;
    }
    Ok(g)
}

/// `sink(S)` as an option rule: the options of [`sink_options`], the values of
/// [`sink_grundy`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Sink(pub MoveSet);

impl crate::moves::OptionRule for Sink {
    fn for_each_option(
        &self,
        n: u64,
        visit: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        sink_options(&self.0, n, visit)
    }
    fn grundy(&self, max: u64, _room: u64, watch: &mut Watch) -> Result<Vec<u32>, crate::Error> {
        sink_grundy(&self.0, max, watch)
    }
    fn singles_at(&self, n: f64) -> f64 {
        self.0.count_upto_estimate(n as u64) as f64
    }
    fn one_heap(&self) -> bool {
        true
    }
    /// A move to a non-positive heap removes the least such amount.
    fn removed(&self, n: u64, heaps: &[u64]) -> u64 {
        match heaps {
            [] => least_move_from(&self.0, n),
            hs => n.saturating_sub(hs.iter().sum::<u64>()),
        }
    }
}

/// `seed(SPEC; …)`: a one-heap game whose first outcomes are prescribed; `G` is the game
/// whose moves follow (a [`crate::Game`] whose every move leaves one heap, in normal play).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Seed<G> {
    /// The moves (a one-heap game in normal play).
    pub game: Box<G>,
    /// `start[n]`: heap n is an N-position (true) or a P-position, for n < start.len().
    pub start: Vec<bool>,
}

impl<G: std::fmt::Display> std::fmt::Display for Seed<G> {
    /// `seed(sub{1,3}; PNNP)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "seed({}; ", self.game)?;
        for &w in &self.start {
            f.write_str(if w { "N" } else { "P" })?;
        }
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use crate::game::Game;

    fn values(spec: &str, max: u64) -> Vec<u32> {
        let g = Game::parse(spec).unwrap_or_else(|e| panic!("{e}"));
        let t = crate::grundy_table(&g, max, &crate::observe::Silent).unwrap();
        (0..=max).map(|n| t.get(n)).collect()
    }

    #[test]
    fn sink_games_against_the_rule_in_words() {
        // every heap n >= 1 with a move of n or more is won at once; the rest as usual
        for (spec, set) in [
            ("sink(sub{2,5})", vec![2u64, 5]),
            ("sink(sub{3,4,9})", vec![3, 4, 9]),
        ] {
            let mut g = vec![0u32];
            for n in 1..=300u64 {
                let mut vals: Vec<u32> = set
                    .iter()
                    .filter(|&&s| s < n)
                    .map(|&s| g[(n - s) as usize])
                    .collect();
                if set.iter().any(|&s| s >= n) {
                    vals.push(0);
                }
                g.push((0..).find(|x| !vals.contains(x)).unwrap());
            }
            assert_eq!(values(spec, 300), g, "{spec}");
            let game = Game::parse(spec).unwrap();
            assert_eq!(
                crate::grundy_by_definition(&game, 300),
                g,
                "{spec} (listed)"
            );
        }
        // an infinite set always overshoots: every heap but 0 is won
        let sq = values("sink(squares)", 100);
        assert!(sq[1..].iter().all(|&v| v > 0) && sq[0] == 0);
        assert_eq!(
            Game::parse("sink( sub{5,2} )").unwrap().to_string(),
            "sink(sub{2,5})"
        );
        let e = Game::parse("sink(0.77)").unwrap_err();
        assert!(e.message.contains("subtraction sets") && e.pos == 6, "{e}");
    }

    #[test]
    fn seeded_outcomes() {
        // seed(sub{1,2}; NN): heaps 0 and 1 prescribed N, then Bash-like by the moves:
        // 2 has moves to 1 (N) and 0 (N) only: P; 3 → 2 (P): N; 4 → 2: N; 5 → 4, 3: P …
        let g = Game::parse("seed(sub{1,2}; NN)").unwrap();
        assert_eq!(g.to_string(), "seed(sub{1,2}; NN)");
        let ps =
            crate::p_position_list(&g, 20, &crate::Budget::unlimited(), &crate::observe::Silent)
                .unwrap();
        assert_eq!(ps, vec![2, 5, 8, 11, 14, 17, 20]);
        // against the rule in words, for a longer seed
        let g = Game::parse("seed(squares; PNPNNP)").unwrap();
        let o = crate::outcome_table(&g, 500, &crate::observe::Silent).unwrap();
        let mut win = vec![false, true, false, true, true, false];
        for n in 6..=500usize {
            let w = (1..)
                .map(|k| k * k)
                .take_while(|&s| s <= n)
                .any(|s| !win[n - s]);
            win.push(w);
        }
        assert!((0..=500).all(|n| o.is_win(n) == win[n as usize]));
        // Grundy values are refused with the reason
        let e = crate::grundy_table(&g, 10, &crate::observe::Silent).unwrap_err();
        assert!(e.to_string().contains("outcomes"), "{e}");
        for (bad, pos, says) in [
            ("seed(sub{1}; PX)", 15, "P or N"),
            ("seed(sub{1}; )", 14, "P or N"),
            ("seed(0.77; P)", 6, "every move leaves one heap"),
            ("seed(sub{1} PN)", 13, "';'"),
        ] {
            let e = Game::parse(bad).unwrap_err();
            assert!(e.pos == pos && e.message.contains(says), "{bad}: {e}");
        }
    }
}

#[cfg(test)]
mod parse_back {
    use crate::game::Game;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// sink( ), seed( ) and coin-turning specs parse back from their canonical forms.
        #[test]
        fn new_specs_parse_back(
            set in prop::collection::vec(1u64..40, 1..5),
            start in prop::collection::vec(any::<bool>(), 1..9),
            elems in prop::collection::vec((1u64..6, 0u64..4, any::<bool>(), 0..4u8, any::<bool>(), 0u64..8), 1..4),
        ) {
            let list = set.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
            let outcomes: String = start.iter().map(|&w| if w { 'N' } else { 'P' }).collect();
            let code = elems
                .iter()
                .map(|&(lo, extra, open, sp, first, span)| {
                    let mut e = if open {
                        format!("{lo}+")
                    } else if extra == 0 {
                        format!("{lo}")
                    } else {
                        format!("{lo}-{}", lo + extra)
                    };
                    e.push_str(["", "C", "E", "S"][sp as usize]);
                    if first {
                        e.push('F');
                    }
                    if span > 0 {
                        e.push_str(&format!("C({span})"));
                    }
                    e
                })
                .collect::<Vec<_>>()
                .join(",");
            for spec in [
                format!("sink(sub{{{list}}})"),
                format!("seed(sub{{{list}}}; {outcomes})"),
                format!("seed(sub{{{list}}}|half; {outcomes})"),
                format!("turning{{{code}}}"),
            ] {
                let g = Game::parse(&spec).unwrap_or_else(|e| panic!("{e}"));
                let back = Game::parse(&g.to_string()).unwrap_or_else(|e| panic!("{e}"));
                prop_assert_eq!(back, g.clone(), "{}", spec);
            }
        }
    }
}

#[cfg(test)]
mod rulesets_in_sums {
    use crate::game::Game;
    use crate::game::Play;
    use crate::sums::sum::Sum;
    use crate::sums::sum_winning_moves;
    use crate::{Budget, Silent};

    /// Sums of the new families list their winning moves (each checked to reach a
    /// P-position), and their misère play is refused, never answered wrongly — except for
    /// codes a breaker plays (4!.0), whose misère play is Grundy's game's.
    #[test]
    fn sums_list_winning_moves_and_misere_is_refused() {
        for (spec, heaps) in [
            ("4!.0", vec![5u64, 3]),
            ("{2+}.0", vec![5, 6]),
            ("0.[3]", vec![5, 3]),
            ("turning{3E}", vec![7, 3]),
            ("sink(sub{2,5})", vec![8, 3]),
            ("ruler", vec![12, 3]),
        ] {
            let g = Game::parse(spec).unwrap();
            let sum = Sum::of_heaps(&g, &heaps);
            let m = sum_winning_moves(&sum, 50, &Budget::unlimited(), &Silent).unwrap();
            assert!(m.decision.win, "{spec}");
            assert!(!m.moves.is_empty(), "{spec}: no winning move listed");
            let t = crate::grundy_table(&g, 20, &Silent).unwrap();
            for mv in &m.moves {
                let x = mv.result.iter().fold(0, |x, (_, h)| x ^ t.get(*h));
                assert_eq!(x, 0, "{spec}: {mv:?} does not reach a P-position");
            }
            assert_eq!(g.play(), Play::Normal);
            if spec == "4!.0" {
                assert!(g.misere_unsupported().is_none());
                assert_eq!(Game::parse("misere(4!.0)").unwrap().play(), Play::Misere);
                continue;
            }
            let e = Game::parse(&format!("misere({spec})")).unwrap_err();
            assert!(e.message.contains("not available"), "{e}");
            assert!(g.misere_unsupported().is_some());
        }
        assert!(Game::parse("sub{1,2}")
            .unwrap()
            .misere_unsupported()
            .is_none());
    }
}
