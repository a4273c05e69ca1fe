//! Remoteness and birthday tables against a slow obvious brute force written here from the
//! definitions (each game's moves as a plain predicate, outcomes by their own recursion),
//! in normal and misère play; the parity rule against heaplab's outcome engines; hand-checked
//! small values; the refusals.

use heaplab_core::{
    birthday_table, is_square, isqrt, outcome_table, remoteness_table, Budget, Error, Game,
    Refusal, Silent,
};
use std::collections::HashMap;

/// The options of heap n: the heaps each move leaves (a one-heap game: at most one heap).
type Options = dyn Fn(u64) -> Vec<Vec<u64>>;

/// One-heap options from a predicate on (n, amount removed).
fn removing(allowed: impl Fn(u64, u64) -> bool + 'static) -> Box<Options> {
    Box::new(move |n| {
        (1..=n)
            .filter(|&s| allowed(n, s))
            .map(|s| vec![n - s])
            .collect()
    })
}

/// Outcome by plain recursion: true for an N-position. Normal play: N when some option is
/// a P-position (no option: P). Misère play: no option is an N-position.
fn wins(n: u64, opts: &Options, misere: bool, memo: &mut HashMap<u64, bool>) -> bool {
    if let Some(&w) = memo.get(&n) {
        return w;
    }
    let os = opts(n);
    let w = if os.is_empty() {
        misere
    } else {
        os.iter()
            .any(|o| !wins(o.first().copied().unwrap_or(0), opts, misere, memo))
    };
    memo.insert(n, w);
    w
}

/// Smith's remoteness by plain recursion: 0 without options; from an N-position, 1 + the
/// least remoteness of an option that is a P-position (winning moves); from a P-position,
/// 1 + the largest remoteness of an option. The empty option list of a one-heap option
/// (`sink` moves to nothing) is heap 0.
fn remote(
    n: u64,
    opts: &Options,
    misere: bool,
    memo: &mut HashMap<u64, u32>,
    out: &mut HashMap<u64, bool>,
) -> u32 {
    if let Some(&r) = memo.get(&n) {
        return r;
    }
    let os: Vec<u64> = opts(n)
        .into_iter()
        .map(|o| o.first().copied().unwrap_or(0))
        .collect();
    let r = if os.is_empty() {
        0
    } else if wins(n, opts, misere, out) {
        let losing: Vec<u64> = os
            .iter()
            .copied()
            .filter(|&m| !wins(m, opts, misere, out))
            .collect();
        1 + losing
            .iter()
            .map(|&m| remote(m, opts, misere, memo, out))
            .min()
            .unwrap()
    } else {
        1 + os
            .iter()
            .map(|&m| remote(m, opts, misere, memo, out))
            .max()
            .unwrap()
    };
    memo.insert(n, r);
    r
}

/// The length of the longest play by plain recursion: a sum's is the sum of its heaps'.
fn longest(n: u64, opts: &Options, memo: &mut HashMap<u64, u32>) -> u32 {
    if let Some(&b) = memo.get(&n) {
        return b;
    }
    let b = opts(n)
        .iter()
        .map(|o| 1 + o.iter().map(|&h| longest(h, opts, memo)).sum::<u32>())
        .max()
        .unwrap_or(0);
    memo.insert(n, b);
    b
}

fn game(spec: &str, misere: bool) -> Game {
    let g = Game::parse(spec).unwrap();
    if misere {
        g.with_play(heaplab_core::Play::Misere)
    } else {
        g
    }
}

fn remoteness(spec: &str, misere: bool, max: u64) -> Vec<u32> {
    remoteness_table(&game(spec, misere), max, &Budget::unlimited(), &Silent)
        .unwrap()
        .to_u32_vec()
}

fn birthday(spec: &str, max: u64) -> Vec<u32> {
    birthday_table(&game(spec, false), max, &Budget::unlimited(), &Silent)
        .unwrap()
        .to_u32_vec()
}

/// The one-heap games of the acceptance list, each with its moves written as a predicate.
fn one_heap_games() -> Vec<(&'static str, Box<Options>)> {
    vec![
        ("sub{1,2}", removing(|_, s| s <= 2)),
        ("sub{1,3,4}", removing(|_, s| [1, 3, 4].contains(&s))),
        ("squares", removing(|_, s| is_square(s))),
        ("divisors", removing(|n, s| s < n && n % s == 0)),
        ("half", removing(|n, s| s <= n / 2)),
        ("allbut{2,5}", removing(|_, s| s != 2 && s != 5)),
        ("upto{3}", removing(|_, s| s <= 3)),
        (
            "rule{k <= isqrt(n) AND k % 2 = 1}",
            removing(|n, s| s <= isqrt(n) && s % 2 == 1),
        ),
        (
            "sink(sub{2,5})",
            // remove 2 or 5; removing more than the heap empties it
            Box::new(|n| {
                let mut v: Vec<Vec<u64>> = vec![];
                for s in [2, 5] {
                    if s < n {
                        v.push(vec![n - s]);
                    } else if n >= 1 {
                        v.push(vec![]);
                    }
                }
                v
            }),
        ),
    ]
}

#[test]
fn remoteness_equals_the_brute_force_in_both_plays_to_1000() {
    const N: u64 = 1000;
    for (spec, opts) in one_heap_games() {
        for misere in [false, true] {
            if misere && spec.starts_with("sink") {
                continue; // (sink( ) has no misère form here)
            }
            let (mut memo, mut out) = (HashMap::new(), HashMap::new());
            let expect: Vec<u32> = (0..=N)
                .map(|n| remote(n, &*opts, misere, &mut memo, &mut out))
                .collect();
            assert_eq!(
                remoteness(spec, misere, N),
                expect,
                "{spec} misère {misere}"
            );
        }
    }
}

#[test]
fn the_parity_of_the_remoteness_is_the_outcome() {
    const N: u64 = 3000;
    for (spec, _) in one_heap_games() {
        for misere in [false, true] {
            if misere && spec.starts_with("sink") {
                continue;
            }
            let g = game(spec, misere);
            let r = remoteness(spec, misere, N);
            let o = outcome_table(&g, N, &Silent).unwrap();
            for n in 0..=N {
                // normal play: P-positions have even remoteness; misère play: odd
                let p = r[n as usize] % 2 == u32::from(misere);
                assert_eq!(p, !o.is_win(n), "{g} at {n}: remoteness {}", r[n as usize]);
            }
        }
    }
}

#[test]
fn birthday_equals_the_longest_play() {
    for (spec, opts) in one_heap_games() {
        let mut memo = HashMap::new();
        let expect: Vec<u32> = (0..=1000).map(|n| longest(n, &*opts, &mut memo)).collect();
        assert_eq!(birthday(spec, 1000), expect, "{spec}");
        if !spec.starts_with("sink") {
            // the play does not change the game tree
            let b = birthday_table(&game(spec, true), 1000, &Budget::unlimited(), &Silent);
            assert_eq!(b.unwrap().to_u32_vec(), expect, "misere({spec})");
        }
    }
}

/// Remove `take` tokens from a row (any of `takes`), leaving the two sides a + b (either
/// may be empty): the octal digit 7 at each take.
fn row_options(takes: &'static [u64]) -> Box<Options> {
    Box::new(move |n| {
        let mut v = vec![];
        for &t in takes.iter().filter(|&&t| t <= n) {
            for a in 0..=n - t {
                let parts: Vec<u64> = [a, n - t - a].into_iter().filter(|&h| h > 0).collect();
                v.push(parts);
            }
        }
        v
    })
}

#[test]
fn birthday_of_take_and_break_games_is_the_longest_play_of_the_sum() {
    let grundy_game: Box<Options> = Box::new(|n| {
        (1..n)
            .filter(|&a| 2 * a < n)
            .map(|a| vec![a, n - a])
            .collect()
    });
    // 0.F: remove one token, leave nothing or one, two or three heaps
    let hex: Box<Options> = Box::new(|n| {
        let mut v: Vec<Vec<u64>> = vec![];
        if n == 0 {
            return v;
        }
        let s = n - 1;
        v.push(if s == 0 { vec![] } else { vec![s] });
        for a in 1..s {
            v.push(vec![a, s - a]);
            for b in 1..s - a {
                v.push(vec![a, b, s - a - b]);
            }
        }
        v
    });
    // {2+}!.0: split into any number (two or more) of pairwise unequal heaps
    fn distinct(s: u64, least: u64, parts: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
        if s == 0 {
            if parts.len() >= 2 {
                out.push(parts.clone());
            }
            return;
        }
        for p in least..=s {
            parts.push(p);
            distinct(s - p, p + 1, parts, out);
            parts.pop();
        }
    }
    let unequal: Box<Options> = Box::new(|n| {
        let mut out = vec![];
        distinct(n, 1, &mut vec![], &mut out);
        out
    });
    let cases: Vec<(&str, Box<Options>, u64)> = vec![
        ("0.77", row_options(&[1, 2]), 300),
        ("0.07", row_options(&[2]), 300),
        ("grundy-game", grundy_game, 300),
        ("0.F", hex, 60),
        ("{2+}!.0", unequal, 40),
    ];
    for (spec, opts, max) in cases {
        let mut memo = HashMap::new();
        let expect: Vec<u32> = (0..=max).map(|n| longest(n, &*opts, &mut memo)).collect();
        assert_eq!(birthday(spec, max), expect, "{spec}");
    }
}

#[test]
fn small_values_checked_by_hand() {
    // sub{1,2}, normal play: 0 (no move); 1, 2 move to 0; 3 (P) must leave 2 or 1 (each
    // 1) and delays: 2; 4 and 5 move to 3: 3; 6 (P): 4; 7, 8 move to 6: 5; 9: 6
    assert_eq!(
        remoteness("sub{1,2}", false, 9),
        [0, 1, 1, 2, 3, 3, 4, 5, 5, 6]
    );
    // misère: 0 has no move and is won (0); 1 (P) must move to 0: 1; 2, 3 move to 1: 2;
    // 4 (P) leaves 3 or 2 (each 2): 3; 5, 6 move to 4: 4; 7 (P): 5; 8, 9 move to 7: 6
    assert_eq!(
        remoteness("sub{1,2}", true, 9),
        [0, 1, 2, 2, 3, 4, 4, 5, 6, 6]
    );
    // the longest play removes one token a move
    assert_eq!(birthday("sub{1,2}", 5), [0, 1, 2, 3, 4, 5]);
    // Dawson's Kayles removes two a move; Grundy's game splits 1 + (n - 1) each time and
    // ends with a heap of 2 and ones
    assert_eq!(birthday("0.07", 8), [0, 0, 1, 1, 2, 2, 3, 3, 4]);
    assert_eq!(birthday("grundy-game", 7), [0, 0, 0, 1, 2, 3, 4, 5]);
    // divisors: 1 → 0 is no move (d < n); 2 → 1; 4 → 2 → 1 or 4 → 3 → 2 → 1: 3
    assert_eq!(birthday("divisors", 4), [0, 0, 1, 2, 3]);
}

#[test]
fn refusals_name_the_reason() {
    let b = Budget::unlimited();
    let e = remoteness_table(&Game::parse("0.77").unwrap(), 10, &b, &Silent).unwrap_err();
    assert!(matches!(e, Error::Unsupported { .. }), "{e}");
    assert!(e.to_string().contains("split a heap"), "{e}");
    let e = remoteness_table(&Game::parse("{2+}!.0").unwrap(), 10, &b, &Silent).unwrap_err();
    assert!(matches!(e, Error::Unsupported { .. }), "{e}");
    for spec in ["ruler", "seed(sub{1,2}; NN)"] {
        let g = Game::parse(spec).unwrap();
        for e in [
            remoteness_table(&g, 10, &b, &Silent).unwrap_err(),
            birthday_table(&g, 10, &b, &Silent).unwrap_err(),
        ] {
            assert!(matches!(e, Error::Unsupported { .. }), "{spec}: {e}");
            assert!(!e.to_string().contains('\n'));
        }
    }
    // a budget of 16 MiB refuses 10^7 heaps (8 bytes each, and the move lists) and names
    // the largest N that fits
    let small = Budget::new(16 << 20);
    let sq = Game::parse("squares").unwrap();
    match remoteness_table(&sq, 10_000_000, &small, &Silent).unwrap_err() {
        Error::Refused(Refusal::Memory { most: Some(m), .. }) => {
            assert!(m > 1_000_000 && m < 2_100_000, "{m}");
            assert!(heaplab_core::plan(&sq, heaplab_core::Task::Remoteness, m, &small).is_ok());
        }
        e => panic!("{e}"),
    }
    // a time budget: `half` has about n / 2 moves a heap
    let quick = Budget {
        seconds: 1.0,
        ..Budget::unlimited()
    };
    let e = birthday_table(&Game::parse("half").unwrap(), 10_000_000, &quick, &Silent);
    assert!(matches!(
        e,
        Err(Error::Refused(Refusal::Time { most: Some(_), .. }))
    ));
    // past the u32 values
    let e = birthday_table(&sq, 1 << 40, &b, &Silent).unwrap_err();
    assert!(matches!(e, Error::TooLarge { .. }), "{e}");
}
