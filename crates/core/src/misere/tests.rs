//! Misère play of one-heap games against a brute-force evaluation of the game tree, written
//! without the engines: positions are multisets of heaps (of one subtraction game, plus nim
//! heaps for the genus), values by memoised recursion on the definition.

use super::*;
use crate::budget::Budget;
use crate::game::Game;
use crate::game::Play;
use crate::plan::count::count_p_positions;
use crate::plan::{grundy_table, outcome_table};
use crate::sums::sum::Sum;
use crate::{decide, Silent};
use proptest::prelude::*;
use std::collections::HashMap;

/// The misère nim-value of a sum of heaps of the subtraction game `moves` (`heaps`) and
/// nim heaps (`nims`), by the definition: 1 with no move, else the mex of the options'.
struct Brute {
    game: Game,
    memo: HashMap<(Vec<u64>, Vec<u64>), u32>,
}

impl Brute {
    fn new(moves: &[u64]) -> Brute {
        let list: Vec<String> = moves.iter().map(u64::to_string).collect();
        Brute::of(&Game::parse(&format!("sub{{{}}}", list.join(","))).unwrap())
    }

    fn of(game: &Game) -> Brute {
        Brute {
            game: game.clone(),
            memo: HashMap::new(),
        }
    }

    fn value(&mut self, heaps: &[u64], nims: &[u64]) -> u32 {
        let mut key = (heaps.to_vec(), nims.to_vec());
        key.0.retain(|&h| h > 0);
        key.0.sort_unstable();
        key.1.retain(|&h| h > 0);
        key.1.sort_unstable();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let (hs, ns) = key.clone();
        let mut seen = vec![];
        for i in 0..hs.len() {
            // the amounts, straight from the definition of the family
            let amounts: Vec<u64> = (1..=hs[i])
                .filter(|&s| self.game.is_move(hs[i], s))
                .collect();
            for s in amounts {
                let mut next = hs.clone();
                next[i] -= s;
                seen.push(self.value(&next, &ns));
            }
        }
        for i in 0..ns.len() {
            for t in 0..ns[i] {
                let mut next = ns.clone();
                next[i] = t;
                seen.push(self.value(&hs, &next));
            }
        }
        let v = if seen.is_empty() {
            1
        } else {
            (0..).find(|x| !seen.contains(x)).unwrap()
        };
        self.memo.insert(key, v);
        v
    }
}

fn misere(spec: &str) -> Game {
    Game::parse(spec).unwrap().with_play(Play::Misere)
}

/// Every P-position of 0..=max, from the game's P-position stream.
fn stream(game: &Game, max: u64) -> Vec<u64> {
    crate::plan::p_position_list(game, max, &crate::Budget::unlimited(), &Silent).unwrap()
}

#[test]
fn misere_nim_and_its_subtraction_form() {
    // sub{1,2,3}: the misère P-positions are n ≡ 1 (mod 4)
    let g = misere("sub{1,2,3}");
    let ps = stream(&g, 10_000);
    assert_eq!(
        ps,
        (0..=10_000u64).filter(|n| n % 4 == 1).collect::<Vec<_>>()
    );
    let c = count_p_positions(&g, 1_000_000_000_000).unwrap();
    assert_eq!(c.count, 250_000_000_000);
    assert_eq!(c.largest, Some(999_999_999_997));
    let d = decide(&g, 1_000_000_000_001, &Budget::new(1 << 30), &Silent).unwrap();
    assert!(!d.win);
    let d = decide(&g, 1_000_000_000_003, &Budget::new(1 << 30), &Silent).unwrap();
    assert!(d.win && d.winning_move.unwrap().removed == 2);
    // nim: a heap of n has misère nim-value n, except that 0 and 1 swap
    let v = grundy_table(&misere("nim"), 50, &Silent)
        .unwrap()
        .to_u32_vec();
    let want: Vec<u32> = (0..=50).map(|n| if n < 2 { 1 - n } else { n }).collect();
    assert_eq!(v, want);
    assert_eq!(stream(&misere("nim"), 100), vec![1]);
    // the genus of nim heaps (Winning Ways): 0^{120}, 1^{031}, 2^{20}, 3^{31}, 4^{46}
    let normal: Vec<u32> = (0..=6).collect();
    let t = genus_table(&Game::parse("nim").unwrap(), &normal, 6, &Silent)
        .unwrap()
        .unwrap();
    let shown: Vec<String> = (0..=4).map(|n| t.genus(n).to_string()).collect();
    assert_eq!(shown, ["0^{120}", "1^{031}", "2^{20}", "3^{31}", "4^{46}"]);
    assert!((0..=6).all(|n| t.phylum(n) == Phylum::Tame));
}

#[test]
fn every_engine_agrees_with_the_definition_in_misere_play() {
    // (spec, largest heap) over the one-heap families and their engines
    for (spec, max) in [
        ("sub{2,5,7}", 3000u64),
        ("leave1(sub{1,3,4})", 3000),
        ("squares", 3000),
        ("leave1(squares)", 3000),
        ("primes|sub{1}", 2000),
        ("allbut{1,2,5}", 300),
        ("leave1(allbut{3})", 300),
        ("nim", 300),
        ("divisors", 3000),
        ("divisors-nontrivial", 3000),
        ("sqrt", 3000),
        ("leave1(sqrt)", 3000),
        ("half", 1000),
        ("upto{4}", 1000),
    ] {
        let inner = Game::parse(spec).unwrap();
        let g = inner.with_play(Play::Misere);
        // misère values by the definition on one heap
        let mut want: Vec<u32> = vec![];
        for n in 0..=max {
            let opts = inner.moves_of(n).unwrap();
            let v = if opts.is_empty() {
                1
            } else {
                let seen: Vec<u32> = opts.iter().map(|&s| want[(n - s) as usize]).collect();
                (0..).find(|x| !seen.contains(x)).unwrap()
            };
            want.push(v);
        }
        let values = grundy_table(&g, max, &Silent).unwrap().to_u32_vec();
        assert_eq!(values, want, "{spec}");
        let ps: Vec<u64> = (0..=max).filter(|&n| want[n as usize] == 0).collect();
        assert_eq!(stream(&g, max), ps, "{spec}: the stream");
        let t = outcome_table(&g, max, &Silent).unwrap();
        assert_eq!(t.p_positions().collect::<Vec<_>>(), ps, "{spec}: the table");
        for n in [max, max - 1, max / 2 + 1] {
            let d = decide(&g, n, &Budget::new(1 << 30), &Silent).unwrap();
            assert_eq!(d.win, want[n as usize] != 0, "{spec}: decide {n}");
            if let Some(m) = d.winning_move {
                assert_eq!(want[m.leaves.first().copied().unwrap_or(0) as usize], 0);
            }
        }
        if let Some(c) = count_p_positions(&g, max) {
            assert_eq!(c.count, ps.len() as u64, "{spec}: the count");
        }
    }
}

#[test]
fn the_misere_period_of_a_finite_set_is_certified() {
    use crate::cert::{CertRule, Sequence};
    let g = misere("sub{1,4,5}");
    assert_eq!(
        CertRule::of(&g, Sequence::Outcome),
        CertRule::FiniteSubtraction { largest_move: 5 }
    );
    // Guy–Smith is a normal-play theorem
    assert_eq!(
        CertRule::of(&misere("0.77"), Sequence::Grundy),
        CertRule::None
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// For random finite subtraction sets: γ0, γ1, γ2, … of every heap n <= 60 equal the
    /// brute force (γi = misère value of the heap plus i − 1 nim heaps of 2), and so do
    /// the misère outcomes and nim-values of the engines.
    #[test]
    fn genus_values_and_outcomes_equal_brute_force(
        set in proptest::collection::btree_set(1u64..=9, 1..=4)
    ) {
        let moves: Vec<u64> = set.into_iter().collect();
        let spec = format!(
            "sub{{{}}}",
            moves.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
        );
        let inner = Game::parse(&spec).unwrap();
        let max = 60u64;
        let normal = grundy_table(&inner, max, &Silent).unwrap().to_u32_vec();
        let t = genus_table(&inner, &normal, max, &Silent).unwrap().unwrap();
        let mut b = Brute::new(&moves);
        for n in 0..=max {
            for i in 1..=t.layers() + 1 {
                let twos = vec![2u64; i - 1];
                prop_assert_eq!(t.gamma(i, n), b.value(&[n], &twos), "{} n={} γ{}", spec, n, i);
            }
            // the normalised superscript reproduces every layer
            let gen = t.genus(n);
            let k = gen.superscript.len();
            for i in 1..=t.layers() + 1 {
                let j = if i <= k { i } else { k - 1 + (i - (k - 1)) % 2 };
                prop_assert_eq!(gen.superscript[j - 1], t.gamma(i, n));
            }
        }
        let g = inner.with_play(Play::Misere);
        let values = grundy_table(&g, max, &Silent).unwrap().to_u32_vec();
        let ps = stream(&g, max);
        for n in 0..=max {
            prop_assert_eq!(values[n as usize], b.value(&[n], &[]));
            prop_assert_eq!(ps.contains(&n), b.value(&[n], &[]) == 0);
        }
    }

    /// Tame sums: over all sums of up to three heaps <= 12, the misère-Nim rule on genera
    /// gives the brute-force outcome whenever every heap is tame, its winning moves reach
    /// brute-force P-positions, and a sum with a heap that is not tame is refused.
    #[test]
    fn tame_sums_equal_brute_force(
        set in proptest::collection::btree_set(1u64..=6, 1..=3)
    ) {
        let moves: Vec<u64> = set.into_iter().collect();
        let spec = format!(
            "misere(sub{{{}}})",
            moves.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
        );
        let g = Game::parse(&spec).unwrap();
        let mut b = Brute::new(&moves);
        let budget = Budget::new(1 << 30);
        let mut decided = 0;
        for a in 0..=12u64 {
            for c in a..=12 {
                for e in c..=12 {
                    for heaps in [vec![a, c], vec![a, c, e]] {
                        let sum = Sum::of_heaps(&g, &heaps);
                        let truth = b.value(&heaps, &[]) != 0;
                        match misere_sum(&sum, 3, &budget, &Silent) {
                            Ok(m) => {
                                prop_assert!(m.heaps.iter().all(|h| h.phylum == Some(Phylum::Tame)));
                                prop_assert_eq!(m.win, truth, "{} {:?}", spec, heaps);
                                // (a sum without a move wins with no move at all)
                                let stuck = heaps.iter().all(|&h| h < moves[0]);
                                prop_assert_eq!(m.moves.is_empty(), !truth || stuck);
                                for mv in &m.moves {
                                    let left: Vec<u64> = mv.result.iter().map(|r| r.1).collect();
                                    prop_assert_eq!(b.value(&left, &[]), 0, "{} {:?} -> {:?}", spec, heaps, left);
                                }
                                decided += 1;
                            }
                            Err(crate::Error::Unsupported { what }) => {
                                prop_assert!(what.contains("not tame"), "{}", what);
                            }
                            Err(e) => panic!("{e}"),
                        }
                    }
                }
            }
        }
        // sub{1}: everything is tame
        if moves == [1] {
            prop_assert!(decided > 0);
        }
    }
}

/// Divisors has heaps that are not tame (heap 6 is restive, 1^{31}): sums of tame heaps
/// still follow the rule, and the others are refused by name.
#[test]
fn sums_with_restive_heaps_are_refused_and_tame_ones_decided() {
    let g = misere("divisors");
    let mut b = Brute::of(&Game::parse("divisors").unwrap());
    let budget = Budget::new(1 << 30);
    let (mut decided, mut refused) = (0, 0);
    for a in 0..=12u64 {
        for c in a..=12 {
            for e in c..=12 {
                let heaps = vec![a, c, e];
                match misere_sum(&Sum::of_heaps(&g, &heaps), 2, &budget, &Silent) {
                    Ok(m) => {
                        assert_eq!(m.win, b.value(&heaps, &[]) != 0, "{heaps:?}");
                        for mv in &m.moves {
                            let left: Vec<u64> = mv.result.iter().map(|r| r.1).collect();
                            assert_eq!(b.value(&left, &[]), 0, "{heaps:?} -> {left:?}");
                        }
                        decided += 1;
                    }
                    Err(crate::Error::Unsupported { what }) => {
                        assert!(what.contains("not tame") && what.contains("are not supported"));
                        assert!(heaps.iter().any(|&h| h >= 6), "{heaps:?}: {what}");
                        refused += 1;
                    }
                    Err(e) => panic!("{e}"),
                }
            }
        }
    }
    assert!(
        decided >= 50 && refused >= 50,
        "{decided} decided, {refused} refused"
    );
    let m = misere_sum(&Sum::of_heaps(&g, &[6, 1]), 1, &budget, &Silent);
    let e = m.unwrap_err().to_string();
    assert!(
        e.contains("heap 1 (divisors:6) is restive with genus 1^{31}"),
        "{e}"
    );
    // one heap is decided by its misère value, tame or not
    let one = misere_sum(&Sum::of_heaps(&g, &[6]), 1, &budget, &Silent).unwrap();
    assert_eq!(one.win, b.value(&[6], &[]) != 0);
    // normal and misère terms do not mix
    let mixed = Sum::parse("misere(divisors):3 + divisors:4").unwrap();
    assert!(misere_sum(&mixed, 1, &budget, &Silent).is_err());
}

/// Heaps of any size in a tame sum of a finite subtraction set, once its genus period is
/// proven: the same answers as heaps of the same residue within the brute force's reach.
#[test]
fn tame_sums_of_huge_heaps_follow_the_genus_period() {
    let g = misere("sub{1,2,3}");
    let mut b = Brute::new(&[1, 2, 3]);
    let budget = Budget::new(1 << 30);
    for (big, small) in [
        (1_000_000_000_000_000u64, 8u64),
        (1_000_000_000_000_001, 9),
        (u64::MAX, 7),
    ] {
        for other in 0..=9u64 {
            let m = misere_sum(&Sum::of_heaps(&g, &[other, big]), 1, &budget, &Silent).unwrap();
            assert_eq!(m.win, b.value(&[other, small], &[]) != 0, "{other} + {big}");
            if let Some(mv) = m.moves.first() {
                let left: Vec<u64> = mv
                    .result
                    .iter()
                    .map(|r| if r.1 > 1000 { small - (big - r.1) } else { r.1 })
                    .collect();
                assert_eq!(b.value(&left, &[]), 0, "{other} + {big} -> {left:?}");
            }
        }
    }
    // no proven period for divisors: refused beyond the table, by name
    let d = misere("divisors");
    let e = misere_sum(&Sum::of_heaps(&d, &[3, 1 << 40]), 1, &budget, &Silent).unwrap_err();
    assert!(
        e.to_string()
            .contains("genera are computed to heaps of at most"),
        "{e}"
    );
}

/// Misère Nim: sums of nim heaps of any size by their known genera (no table), against
/// misère Nim's rule (all heaps ≤ 1: lost iff an odd number of 1s; else lost iff the XOR is
/// 0), and its winning moves.
#[test]
fn misere_nim_sums_of_any_size() {
    let g = misere("nim");
    let budget = Budget::new(1 << 30);
    let rule = |h: &[u64]| {
        if h.iter().all(|&x| x <= 1) {
            h.iter().sum::<u64>() % 2 == 1
        } else {
            h.iter().fold(0, |x, &y| x ^ y) == 0
        }
    };
    for a in 0..=9u64 {
        for b in 0..=9 {
            for c in [0u64, 1, 2, 7, 1 << 40] {
                let heaps = [a, b, c];
                let m = misere_sum(&Sum::of_heaps(&g, &heaps), 100, &budget, &Silent).unwrap();
                assert_eq!(m.win, !rule(&heaps), "{heaps:?}");
                for mv in &m.moves {
                    let left: Vec<u64> = mv.result.iter().map(|r| r.1).collect();
                    assert!(rule(&left), "{heaps:?} -> {left:?}");
                }
                assert_eq!(m.moves.is_empty(), !m.win || heaps.iter().all(|&h| h == 0));
            }
        }
    }
    let m = misere_sum(&Sum::of_heaps(&g, &[u64::MAX, 5, 7]), 5, &budget, &Silent).unwrap();
    assert_eq!(
        m.heaps[0].genus.as_deref(),
        Some(format!("{0}^{{{0},{1}}}", u64::MAX, u64::MAX ^ 2).as_str())
    );
    let left: Vec<u64> = m.moves[0].result.iter().map(|r| r.1).collect();
    assert_eq!(left, [2, 5, 7]);
}

#[test]
fn misere_specs_parse_back_and_nest_only_once() {
    for s in [
        "misere(leave1(sub{1,3}))",
        "misere(0.77)",
        "misere(primes|sub{1})",
        "misere(nim)",
    ] {
        let g = Game::parse(s).unwrap();
        assert_eq!(g.to_string(), s);
        assert_eq!(Game::parse(&g.to_string()).unwrap(), g);
        assert_eq!(g.play(), Play::Misere);
        assert_eq!(g.with_play(Play::Normal).with_play(Play::Misere), g);
    }
    for (s, why) in [
        ("misere(misere(nim))", "of a misère game"),
        ("leave1(misere(nim))", "applies to subtraction games"),
        ("misere()", "expected a game inside misere( )"),
        (
            "misere(0.77)|sub{1}",
            "put misere( ) around the whole union",
        ),
    ] {
        let e = Game::parse(s).unwrap_err().to_string();
        assert!(e.contains(why), "{s}: {e}");
    }
}

/// A sum with a heap past 64 whose quotient is not proved quickly goes to canonical forms
/// when they take seconds, before the quotient is learned (issue: `who --play misere --game
/// 0.07 100 3` spent 75 s learning a quotient that stops growing at heap 30, then the
/// forms answered in 4 s).
#[test]
fn sums_past_the_quick_quotient_go_to_cheap_forms_first() {
    let g = misere("0.07");
    let budget = Budget::new(4 << 30);
    let r = misere_sum(&Sum::of_heaps(&g, &[73, 3]), 1, &budget, &Silent).unwrap();
    assert!(r.method.contains("canonical misère forms"), "{}", r.method);
    // 0.07 heap 73 + heap 3 is an N-position; its winning move leaves a P-position, checked
    // by the forms of the heaps it leaves
    assert!(r.win);
    let left: Vec<u64> = r.moves[0].result.iter().map(|t| t.1).collect();
    assert_eq!(left.iter().sum::<u64>(), 74, "{left:?}");
    let after = misere_sum(&Sum::of_heaps(&g, &left), 1, &budget, &Silent).unwrap();
    assert!(!after.win, "{left:?}");
}

/// Forms estimated under a minute come before the quotient is learned: Dawson's Kayles
/// heap 110 (+ 3) has forms estimated at about 16 s (run in about 12 s), while learning
/// its quotient spends about 65 s before it is refused at heap 25. With 10 s for the
/// forms, `who --play misere --game 0.07 110 3` waited on the learner first (the 0.137
/// heap 105 did too). An observer that stops the run at its first step sees which came
/// first.
#[test]
fn forms_under_a_minute_come_before_learning() {
    struct First(std::sync::Mutex<Vec<(crate::Engine, u64)>>);
    impl crate::Observer for First {
        fn observe(&self, _: u64, _: u64) -> std::ops::ControlFlow<()> {
            std::ops::ControlFlow::Break(())
        }
        fn planned(&self, p: &crate::budget::Estimate) {
            self.0.lock().unwrap().push((p.engine, p.max));
        }
    }
    let first = First(Default::default());
    let g = misere("0.07");
    let r = misere_sum(
        &Sum::of_heaps(&g, &[110, 3]),
        1,
        &Budget::new(4 << 30),
        &first,
    );
    assert!(matches!(r, Err(crate::Error::Cancelled { .. })), "{r:?}");
    let planned = first.0.lock().unwrap();
    assert_eq!(
        planned.first(),
        Some(&(crate::Engine::CanonicalForms, 110)),
        "{planned:?}"
    );
}

/// A misère sum of wild heaps by canonical forms is estimated from the pairs of forms it
/// will visit before any sum is formed (issue: `who --game 0.77 --play misere 40 41` ran
/// 293 s, 1.86 GB, with no estimate): within the budget it is decided, beyond it refused
/// naming the largest heap that fits in place of the largest one. (`misere_sum` now
/// decides these Kayles sums by the quotient; the forms are called directly.)
#[test]
fn misere_sums_of_wild_heaps_are_estimated_first() {
    let g = misere("0.77");
    let by_forms = |heaps: &[u64], budget: &Budget| {
        let terms = sums::misere_terms(&Sum::of_heaps(&g, heaps)).unwrap();
        sums::by_forms(&terms, 1, budget, &Silent)
    };
    // Kayles heaps 30 and 31 reach 751 and 884 forms: 2 × 750 × 883 pairs
    let (secs, bytes) = crate::misere::sums::sum_cost(&[751.0, 884.0]);
    assert!(
        (0.5..10.0).contains(&secs) && bytes < 1e9,
        "{secs} s {bytes} B"
    );
    let tight = Budget {
        seconds: 0.2,
        ..Budget::new(1 << 30)
    };
    match by_forms(&[30, 31], &tight) {
        Err(crate::Error::Refused(crate::error::Refusal::TooFar {
            most: Some(most),
            n,
            why,
            ..
        })) => {
            assert_eq!(n, 31);
            assert!((15..31).contains(&most), "{most}");
            assert!(why.contains("pairs of forms"), "{why}");
            // and the heap it names is decided within that budget
            let ok = by_forms(&[30, most], &tight);
            assert!(ok.is_ok(), "{ok:?}");
        }
        other => panic!("{other:?}"),
    }
    // no size of the largest heap fits when the others alone do not: said, no `n <= 0`
    match by_forms(&[30, 30, 31], &tight) {
        Err(e @ crate::Error::Refused(crate::error::Refusal::TooFar { most: None, .. })) => {
            let e = e.to_string();
            assert!(
                e.contains("even with heap 31 left out, the other heaps do not fit"),
                "{e}"
            );
            assert!(!e.contains("use n <="), "{e}");
        }
        other => panic!("{other:?}"),
    }
    // the heaps' forms are planned and announced before they are built, once per game for
    // its largest heap (heap 95 of 0.37 ran a minute with no estimate); then the sum
    struct Seen(std::sync::Mutex<Vec<crate::budget::Estimate>>);
    impl crate::observe::Observer for Seen {
        fn observe(&self, _: u64, _: u64) -> std::ops::ControlFlow<()> {
            std::ops::ControlFlow::Continue(())
        }
        fn planned(&self, e: &crate::budget::Estimate) {
            self.0.lock().unwrap().push(*e);
        }
    }
    let seen = Seen(Default::default());
    let budget = Budget::new(1 << 30);
    let terms = sums::misere_terms(&Sum::of_heaps(&g, &[12, 31, 30])).unwrap();
    sums::by_forms(&terms, 1, &budget, &seen).unwrap();
    let seen = seen.0.into_inner().unwrap();
    let forms = crate::plan::plan(&g, crate::budget::Task::Grundy, 31, &budget).unwrap();
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert_eq!(seen[0], *forms);
    assert_eq!(seen[1].engine, crate::budget::Engine::CanonicalForms);
    assert!(seen[1].seconds > seen[0].seconds, "{seen:?}");
    // two spellings of one take-and-break rule share their forms: one plan for both, to the
    // larger heap, and the outcome of the game with itself (4!.0 is Grundy's game)
    let seen = Seen(Default::default());
    let mut terms = sums::misere_terms(&Sum::of_heaps(&misere("4!.0"), &[9])).unwrap();
    terms.extend(sums::misere_terms(&Sum::of_heaps(&misere("grundy-game"), &[13])).unwrap());
    let mixed = sums::by_forms(&terms, 1, &budget, &seen).unwrap();
    let seen = seen.0.into_inner().unwrap();
    assert_eq!(seen.len(), 2, "{seen:?}");
    let grundy = misere("grundy-game");
    let forms = crate::plan::plan(&grundy, crate::budget::Task::Grundy, 13, &budget).unwrap();
    assert_eq!(seen[0], *forms);
    let same = sums::misere_terms(&Sum::of_heaps(&grundy, &[9, 13])).unwrap();
    let same = sums::by_forms(&same, 1, &budget, &Silent).unwrap();
    assert_eq!(mixed.win, same.win);
    assert_eq!(mixed.moves, same.moves);
    // a heap of size 0 adds nothing to the estimate
    let r = [40.0, 50.0, 60.0];
    assert_eq!(sums::sum_cost(&[40.0, 1.0, 50.0, 60.0]), sums::sum_cost(&r));
    assert!(sums::sum_cost(&[40.0, 50.0, 1.0]).0 < sums::sum_cost(&r).0);
    // small sums are decided as before, as the brute force decides them
    let kayles = Game::parse("0.77").unwrap();
    let mut memo = HashMap::new();
    for heaps in [[4u64, 4], [4, 5], [1, 1], [2, 7]] {
        let small = misere_sum(&Sum::of_heaps(&g, &heaps), 1, &tight, &Silent).unwrap();
        assert_eq!(
            small.win,
            exhaustive_misere_win(&kayles, heaps.to_vec(), &mut memo),
            "{heaps:?}"
        );
    }
}

#[test]
fn joint_quotients_take_distinct_games_with_their_rules() {
    use crate::misere::quotient::{joint_last, joint_rules, GrowthLimit};
    let g = |s: &str| Game::parse(s).unwrap();
    let (names, rules) = joint_rules(&[g("0.75"), g("misere(0.77)")]).unwrap();
    assert_eq!(names, ["0.75", "0.77"]);
    assert_eq!(rules.len(), 2);
    let refused = |games: &[Game]| match joint_rules(games) {
        Err(crate::Error::Unsupported { what }) => what,
        other => panic!("{other:?}"),
    };
    assert!(refused(&[g("0.77"), g("misere(0.77)")]).contains("0.77 is listed twice"));
    assert!(refused(&[g("4!.0"), g("grundy-game")]).contains("are the same game"));
    assert!(refused(&[g("0.77"), g("squares")]).contains("not a take-and-break game"));
    // positions interleave the games: heaps 0..=30 of two games are positions 0..=61
    assert_eq!(joint_last(2, 30).unwrap(), 61);
    assert_eq!(joint_last(1, 0).unwrap(), 0);
    // past 2^64 positions: the last whole round of both games
    assert_eq!(joint_last(2, u64::MAX / 2).unwrap(), u64::MAX - 2);
    assert_eq!(joint_last(3, u64::MAX).unwrap() % 3, 2);
    assert!(joint_last(0, 5).is_err());
    // a grow-to below the quick limit never makes it stricter
    assert_eq!(GrowthLimit::up_to(None), GrowthLimit::QUICK);
    assert_eq!(
        GrowthLimit::up_to(Some(4)),
        GrowthLimit::to_heap(GrowthLimit::QUICK.heap)
    );
    assert_eq!(GrowthLimit::up_to(Some(40)), GrowthLimit::to_heap(40));
}
