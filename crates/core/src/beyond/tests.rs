//! Games beyond one heap against their definitions, published sequences and CGSuite's own
//! test values.

use super::loopy::{loopy_outcomes, Loopy, LoopyGame, PutSet};
use super::memory::{
    is_fibonacci, least_winning_moves, state_grundy, state_grundy_by_definition,
    zeckendorf_smallest, TakeAway,
};
use super::pairs::{decide_pair, grundy_by_definition, grundy_rect, PairGame};
use super::BeyondGame;
use crate::observe::Silent;

fn pair(spec: &str) -> PairGame {
    match BeyondGame::parse(spec).unwrap() {
        BeyondGame::Pair(g) => g,
        other => panic!("{other} is not a pair game"),
    }
}

#[test]
fn specs_read_print_and_refuse() {
    for s in [
        "wythoff",
        "wythoff{2}",
        "vectors{(0,1),(1,0),(2,3)}",
        "fibonacci-nim",
        "takeaway{3}",
        "takeaway{3/2}",
        "put-or-take{squares}",
        "put-or-take{triangular}",
        "add-or-divide",
    ] {
        assert_eq!(BeyondGame::parse(s).unwrap().to_string(), s);
    }
    assert_eq!(
        BeyondGame::parse("takeaway{4/2}").unwrap().to_string(),
        "fibonacci-nim"
    );
    assert_eq!(
        BeyondGame::parse("wythoff{1}").unwrap().to_string(),
        "wythoff"
    );
    for (bad, says) in [
        ("vectors{(0,0)}", "(0,0) is no move"),
        ("vectors{(1,-1)}", "found '-'"),
        ("wythoff{0}", "positive"),
        ("takeaway{0}", "positive"),
        ("put-or-take{cubes}", "squares or triangular"),
        ("wythoff x", "unexpected text"),
        ("squares", "not a game beyond one heap"),
    ] {
        let e = BeyondGame::parse(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
    // one-heap contexts refuse them with the reason
    let e = crate::Game::parse("wythoff|sub{1}")
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a one-heap game"), "{e}");
}

/// The pairs (k, ⌊kφ⌋, ⌊kφ²⌋) to 10^9 (both coordinates ≤ 10^9) from the exact
/// incremental Beatty arithmetic equal the mex construction of Wythoff's P-positions
/// (A_k = the least number not yet used, B_k = A_k + k): the closed form checked against
/// the game's definition of its P-positions, with no floating point.
#[test]
fn wythoff_pairs_to_a_billion_are_the_mex_construction() {
    let top: u64 = 1_000_000_000;
    let mut used = vec![0u64; (top as usize + 2) / 64 + 1];
    let mut next = 1u64;
    let mut count = 0u64;
    for (k, a, b) in (super::beatty::Beatty { a: 1 }).pairs().skip(1) {
        if b > top as u128 {
            break;
        }
        while used[next as usize / 64] >> (next % 64) & 1 == 1 {
            next += 1;
        }
        assert_eq!((a, b), (next as u128, (next + k) as u128), "k = {k}");
        used[next as usize / 64] |= 1 << (next % 64);
        let bb = next + k;
        used[bb as usize / 64] |= 1 << (bb % 64);
        count = k;
    }
    // 381966011 pairs: ⌊10^9 / φ²⌋ (and k = 0)
    assert_eq!(count, 381_966_011);
    assert_eq!((super::beatty::Beatty { a: 1 }).count_upto(top), count + 1);
}

#[test]
fn wythoff_positions_near_a_quintillion_are_decided_with_a_move_that_checks() {
    let w = PairGame::Wythoff { a: 1 };
    let b = super::beatty::Beatty { a: 1 };
    let n = 618_033_988_749_894_848u64;
    let (an, bn) = (b.lower(n) as u64, b.upper(n) as u64);
    assert!(bn > 1_000_000_000_000_000_000);
    let d = decide_pair(&w, an, bn, 1 << 30).unwrap();
    assert!(!d.win && d.to.is_none());
    let d = decide_pair(&w, bn, an, 1 << 30).unwrap();
    assert!(!d.win);
    for (p, q) in [
        (an + 1, bn),
        (an, bn + 5),
        (an - 7, bn),
        (bn, bn),
        (1_000_000_000_000_000_000, 999_999_999_999_999_999),
        (bn + 3, an),
        (u64::MAX, u64::MAX - 12345),
    ] {
        let d = decide_pair(&w, p, q, 1 << 30).unwrap();
        assert!(d.win, "({p}, {q})");
        let (x, y) = d.to.unwrap();
        // a legal move: one heap only, or the same from both
        let legal = (x == p && y < q) || (y == q && x < p) || (x < p && p - x == q - y);
        assert!(legal, "({p}, {q}) -> ({x}, {y})");
        let back = decide_pair(&w, x, y, 1 << 30).unwrap();
        assert!(!back.win, "({p}, {q}) -> ({x}, {y}) leaves a win");
    }
}

#[test]
fn a_wythoff_moves_lead_to_p_positions_on_small_boards() {
    for a in 1..=4u64 {
        let g = PairGame::Wythoff { a };
        let sq = grundy_rect(&g, 61, 61, &Silent).unwrap();
        for p in 0..=60 {
            for q in 0..=60 {
                let d = decide_pair(&g, p, q, 1 << 30).unwrap();
                assert_eq!(d.win, sq.get(p, q) != 0, "a = {a} at ({p}, {q})");
                assert_eq!(d.grundy, Some(sq.get(p, q) as u64));
                if let Some((x, y)) = d.to {
                    assert!(
                        g.options(p, q).contains(&(x, y)),
                        "a = {a}: ({p},{q}) -> ({x},{y})"
                    );
                    assert_eq!(sq.get(x, y), 0);
                }
            }
        }
    }
}

fn square_matches_definition(spec: &str, n: u64) {
    let g = pair(spec);
    let fast = grundy_rect(&g, n + 1, n + 1, &Silent).unwrap();
    let slow = grundy_by_definition(&g, n);
    assert!(fast.values == slow, "{spec} to {n}");
}

/// The Grundy square to 2000 by the bitset engine equals the mex of every option's value,
/// cell by cell, for Wythoff's game.
#[test]
fn wythoff_square_to_2000_is_the_definition() {
    square_matches_definition("wythoff", 2000);
}

#[test]
fn two_wythoff_square_to_2000_is_the_definition() {
    square_matches_definition("wythoff{2}", 2000);
}

#[test]
fn three_wythoff_square_to_2000_is_the_definition() {
    square_matches_definition("wythoff{3}", 2000);
}

#[test]
fn wide_wythoff_and_vector_squares_are_the_definition() {
    // a = 6 passes the engine's eight bitsets: the rest of its diagonals are scanned
    square_matches_definition("wythoff{6}", 150);
    square_matches_definition("vectors{(0,1),(1,0),(1,2),(2,1),(3,3)}", 2000);
    square_matches_definition("vectors{(2,0),(0,3),(1,1)}", 500);
    // the strip engine (few rows, long rows) agrees with the square engine
    for spec in ["wythoff", "wythoff{3}"] {
        let g = pair(spec);
        let strip = grundy_rect(&g, 4, 3000, &Silent).unwrap();
        let square = grundy_rect(&g, 3000, 3000, &Silent).unwrap();
        for p in 0..4 {
            assert_eq!(strip.row(p), square.row(p), "{spec} row {p}");
        }
    }
}

/// CGSuite's own test values (aaron-siegel/cgsuite,
/// lib/core/src/test/scala/org/cgsuite/lang/GameHeapTest.scala, "define coordinate games
/// properly"): the option count of (10, 10) and the nim values of (10, n), n = 0..20.
#[test]
fn cgsuite_published_values() {
    let row = |g: &PairGame| grundy_rect(g, 11, 21, &Silent).unwrap().row(10).to_vec();
    let w = PairGame::Wythoff { a: 1 };
    assert_eq!(w.options(10, 10).len(), 30);
    assert_eq!(
        row(&w),
        [10, 11, 9, 8, 13, 12, 0, 15, 16, 17, 14, 18, 7, 6, 2, 3, 1, 4, 5, 23, 28]
    );
    // GenWythoff(x -> x + 2)
    let w2 = PairGame::Wythoff { a: 2 };
    assert_eq!(w2.options(10, 10).len(), 48);
    assert_eq!(
        row(&w2),
        [10, 11, 12, 13, 0, 14, 9, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 15, 28, 29, 30]
    );
    // FibonacciNim and TakeAway(3) at CGSuite's (heap 10, previous move k): the state
    // (10, ⌊r·k⌋)
    for (game, want) in [
        (
            TakeAway::FIBONACCI,
            [
                0, 2, 2, 2, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
            ],
        ),
        (
            TakeAway::ratio(3, 1),
            [
                0, 2, 2, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
            ],
        ),
    ] {
        let g = state_grundy(&game, 10, &Silent).unwrap();
        let got: Vec<u32> = (0..=20u64)
            .map(|k| g[10][game.allowance(k).unwrap().min(10) as usize])
            .collect();
        assert_eq!(got, want, "{}", game.spec());
        assert_eq!(
            game.options(10, game.allowance(10).unwrap()).unwrap().len(),
            10
        );
    }
}

/// Fibonacci Nim's P-positions to 10^6 are the Fibonacci numbers, and the least winning
/// first move is the smallest Zeckendorf term (Whinihan 1963).
#[test]
fn fibonacci_nim_to_a_million() {
    let n = 1_000_000u64;
    let w = least_winning_moves(&TakeAway::FIBONACCI, n, &Silent).unwrap();
    let p: Vec<u64> = (1..=n).filter(|&h| w[h as usize] as u64 == h).collect();
    let mut fib = vec![1u64, 2];
    while fib[fib.len() - 1] + fib[fib.len() - 2] <= n {
        fib.push(fib[fib.len() - 1] + fib[fib.len() - 2]);
    }
    assert_eq!(p, fib);
    for h in 1..=n {
        assert_eq!(w[h as usize] as u64, zeckendorf_smallest(h), "heap {h}");
    }
    assert!(is_fibonacci(832_040) && !is_fibonacci(832_041));
}

#[test]
fn take_away_values_by_state_are_the_definition() {
    for game in [
        TakeAway::FIBONACCI,
        TakeAway::ratio(3, 1),
        TakeAway::ratio(3, 2),
        TakeAway::ratio(1, 1),
    ] {
        let g = state_grundy(&game, 60, &Silent).unwrap();
        let w = least_winning_moves(&game, 60, &Silent).unwrap();
        for n in 0..=60u64 {
            for m in 0..=n {
                assert_eq!(
                    g[n as usize][m as usize],
                    state_grundy_by_definition(&game, n, m).unwrap()
                );
                // won exactly when the least winning move is allowed
                assert_eq!(g[n as usize][m as usize] != 0, (w[n as usize] as u64) <= m);
            }
        }
    }
}

fn outcomes_of(game: LoopyGame, n: u64) -> Vec<Loopy> {
    loopy_outcomes(game, n, 1 << 24, &Silent).unwrap().outcomes
}

fn positions(o: &[Loopy], first: u64, what: Loopy) -> Vec<u64> {
    (first..o.len() as u64)
        .filter(|&i| o[i as usize] == what)
        .collect()
}

/// Epstein's Put or Take a Square: P-positions OEIS A005240, N-positions A005241, and the
/// rest draws (2 ↔ 3 is the first: moving to 1 or 4 hands the opponent the win).
#[test]
fn put_or_take_a_square_with_its_draws() {
    let o = outcomes_of(LoopyGame::PutOrTake(PutSet::Squares), 1177);
    let a005240 = [
        0, 5, 20, 29, 45, 80, 101, 116, 135, 145, 165, 173, 236, 257, 397, 404, 445, 477, 540, 565,
        580, 585, 629, 666, 836, 845, 885, 909, 944, 949, 954, 975, 1125, 1177,
    ];
    assert_eq!(positions(&o, 0, Loopy::Loss), a005240);
    let a005241 = [
        1, 4, 9, 11, 14, 16, 21, 25, 30, 36, 41, 44, 49, 52, 54, 64, 69, 71, 81, 84, 86, 92, 100,
        105, 120, 121, 126, 136, 141, 144, 149, 164, 169, 174, 189, 196, 201, 208, 216, 225, 230,
        245, 252,
    ];
    let wins = positions(&o, 0, Loopy::Win);
    assert_eq!(wins[..a005241.len()], a005241);
    // 2 <-> 3 is a certified draw (moving to 1 or 4 hands the opponent the win); the
    // other positions that are neither are undecided on every window (no sound bound)
    let draws = positions(&o, 0, Loopy::Draw);
    assert_eq!(draws[..2], [2, 3]);
    let undecided = positions(&o, 0, Loopy::Unknown);
    assert_eq!(
        draws.len() + undecided.len() + wins.len() + a005240.len(),
        1178
    );
    assert!(undecided.contains(&6));
}

/// Two more loopy games from OEIS: add one or divide by a prime (A362416: P-positions,
/// no draws) and Norton's Tribulations, put or take the largest triangular number
/// (A266726: P-positions, no draws up to 158).
#[test]
fn add_or_divide_and_tribulations() {
    let o = outcomes_of(LoopyGame::AddOrDivide, 183);
    let a362416 = [
        1, 4, 6, 10, 14, 16, 22, 25, 27, 34, 36, 38, 40, 46, 49, 51, 56, 58, 60, 63, 65, 69, 74,
        77, 82, 84, 86, 88, 91, 94, 96, 100, 104, 106, 111, 115, 117, 119, 121, 123, 129, 132, 134,
        136, 140, 142, 144, 146, 150, 152, 156, 158, 160, 162, 166, 169, 171, 178, 183,
    ];
    assert_eq!(positions(&o, 1, Loopy::Loss), a362416);
    assert!(positions(&o, 1, Loopy::Draw).is_empty());
    let o = outcomes_of(LoopyGame::PutOrTake(PutSet::Triangular), 158);
    let a266726 = [
        0, 2, 4, 9, 11, 13, 18, 20, 22, 24, 26, 29, 31, 37, 39, 41, 42, 44, 46, 48, 50, 51, 52, 56,
        58, 60, 61, 62, 63, 65, 67, 72, 74, 79, 83, 84, 85, 86, 88, 90, 92, 94, 98, 99, 101, 103,
        108, 110, 112, 119, 126, 128, 130, 135, 137, 139, 141, 142, 143, 144, 150, 151, 152, 154,
        156, 158,
    ];
    assert_eq!(positions(&o, 0, Loopy::Loss), a266726);
    assert!(positions(&o, 0, Loopy::Draw).is_empty());
}

#[test]
fn small_windows_leave_positions_undecided_never_guessed() {
    // on the window [0, 1024] Put or Take a Square leaves more positions undecided than on
    // larger windows, and none of them is called a draw or a loss
    let small = loopy_outcomes(LoopyGame::PutOrTake(PutSet::Squares), 256, 1024, &Silent).unwrap();
    let big = loopy_outcomes(LoopyGame::PutOrTake(PutSet::Squares), 256, 1 << 22, &Silent).unwrap();
    assert_eq!(small.window, 1024);
    for (i, (s, b)) in small.outcomes.iter().zip(&big.outcomes).enumerate() {
        if *s != Loopy::Unknown {
            assert_eq!(s, b, "position {i}");
        }
    }
    assert!(small.statement().contains("[0, 1024]"));
}

/// In sums of normal play a two-heap or move-memory position stands for its Grundy value,
/// and a move to any smaller value is found among its options.
#[test]
fn values_and_moves_for_sums() {
    use super::{grundy_at, option_with_value};
    let w = BeyondGame::parse("wythoff").unwrap();
    // CGSuite's row 10: g(10, 4) = 13
    assert_eq!(grundy_at(&w, &[10, 4]).unwrap(), 13);
    for target in 0..13 {
        let to = option_with_value(&w, &[10, 4], target).unwrap().unwrap();
        assert_eq!(grundy_at(&w, &to).unwrap(), target, "to {to:?}");
    }
    assert_eq!(option_with_value(&w, &[10, 4], 13).unwrap(), None);
    // a long first heap is computed on the transposed rectangle (one row, not 10^5 rows
    // of bitsets): g(a, 0) = a in Wythoff's game
    assert_eq!(grundy_at(&w, &[100_000, 0]).unwrap(), 100_000);
    assert_eq!(
        option_with_value(&w, &[100_000, 3], 1).unwrap(),
        Some(vec![6, 3])
    );
    let f = BeyondGame::parse("fibonacci-nim").unwrap();
    // CGSuite's (10, k): values 0, 2, 2, 2, 5 for k = 0..4
    let row: Vec<u64> = (0..5).map(|k| grundy_at(&f, &[10, k]).unwrap()).collect();
    assert_eq!(row, [0, 2, 2, 2, 5]);
    // (heap, previous move): taking 2 leaves heap 8 with previous move 2, a P-position
    let to = option_with_value(&f, &[10, 4], 0).unwrap().unwrap();
    assert_eq!(to, [8, 2]);
    assert_eq!(grundy_at(&f, &to).unwrap(), 0);
    let p = BeyondGame::parse("put-or-take{squares}").unwrap();
    assert!(grundy_at(&p, &[3])
        .unwrap_err()
        .to_string()
        .contains("loopy"));
    assert!(grundy_at(&w, &[3])
        .unwrap_err()
        .to_string()
        .contains("two heaps"));
}

/// A loopy rule of your own: with k = ±(the largest square) it is Put or Take a Square on
/// every window it fits (the same outcomes, draws and undecided positions), and rules
/// without a bound on what a move adds are refused.
#[test]
fn loopy_rules_of_your_own() {
    let rule = match BeyondGame::parse(
        "loopy{40000; k = isqrt(n) * isqrt(n) OR k = -(isqrt(n) * isqrt(n))}",
    )
    .unwrap()
    {
        BeyondGame::Loopy(l) => l,
        other => panic!("{other}"),
    };
    assert_eq!(rule.options(10), [1, 19]);
    // windows of 2048 (4n = the limit): one window each, the same game on it
    let a = loopy_outcomes(rule.clone(), 512, 2048, &Silent).unwrap();
    let b = loopy_outcomes(LoopyGame::PutOrTake(PutSet::Squares), 512, 2048, &Silent).unwrap();
    assert_eq!((a.window, b.window), (2048, 2048));
    assert!(a.outcomes == b.outcomes);
    assert_eq!(
        positions(&a.outcomes, 0, Loopy::Loss)[..6],
        [0, 5, 20, 29, 45, 80]
    );
    let add1 = match BeyondGame::parse("loopy{1; k = -1 OR (k > 0 AND is_square(k))}").unwrap() {
        BeyondGame::Loopy(l) => l,
        other => panic!("{other}"),
    };
    assert_eq!(add1.options(10), [9, 6, 1, 11]);
    assert_eq!(add1.spec(), "loopy{1; k = -1 OR k > 0 AND is_square(k)}");
    assert_eq!(
        BeyondGame::parse(&add1.spec()).unwrap(),
        BeyondGame::Loopy(add1.clone())
    );
    for (bad, says) in [
        ("loopy{k = -1}", "needs a bound"),
        ("loopy{0; k = -1}", "1 to 65536"),
        ("loopy{1; j = -1}", "unknown name `j`"),
        ("loopy{1; k + 1}", "true or false"),
    ] {
        let e = BeyondGame::parse(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

/// Two-heap rules of your own (`pair{…}`) against the games they restate: two-heap Nim
/// (g = a xor b, Bouton), Wythoff's game and a vector game, on both paths (a rule naming a
/// or b is evaluated at every position); and any rule's table against the mex of its
/// options one by one.
#[test]
fn two_heap_rules_of_your_own() {
    let nim = pair("pair{x = 0 OR y = 0}");
    let sq = grundy_rect(&nim, 80, 80, &Silent).unwrap();
    for p in 0..80u64 {
        for q in 0..80u64 {
            assert_eq!(sq.get(p, q) as u64, p ^ q, "nim ({p}, {q})");
        }
    }
    let wythoff = grundy_rect(&pair("wythoff"), 70, 70, &Silent).unwrap();
    for spec in [
        "pair{x = 0 OR y = 0 OR x = y}",
        "pair{(x * y = 0 OR x = y) AND a + b >= 0}",
    ] {
        assert_eq!(
            grundy_rect(&pair(spec), 70, 70, &Silent).unwrap().values,
            wythoff.values,
            "{spec}"
        );
    }
    assert_eq!(
        grundy_rect(
            &pair("pair{x = 1 AND y = 2 OR x = 2 AND y = 1 OR x + y = 1}"),
            60,
            90,
            &Silent
        )
        .unwrap()
        .values,
        grundy_rect(&pair("vectors{(1,2),(2,1),(0,1),(1,0)}"), 60, 90, &Silent)
            .unwrap()
            .values
    );
    for spec in [
        "pair{x + y <= a // 2 + 1}",
        "pair{x * y = 0 AND x + y <= isqrt(a + b) + 1}",
        "pair{is_prime(x + y) OR x = y}",
        "pair{x >= y AND y % 2 = 0}",
    ] {
        square_matches_definition(spec, 40);
    }
    // a rule naming neither heap names the same moves everywhere: its text round-trips
    assert_eq!(
        BeyondGame::parse("pair{ x=0 or y=0 }").unwrap().to_string(),
        "pair{x = 0 OR y = 0}"
    );
    // a winning move from the table, to a P-position
    let d = decide_pair(&pair("pair{x = 0 OR y = 0 OR x = y}"), 7, 9, 1 << 20).unwrap();
    assert!(d.win);
    assert_eq!(wythoff.get(d.to.unwrap().0, d.to.unwrap().1), 0);
    for (bad, says) in [
        ("pair{n = 1}", "unknown name `n`"),
        ("pair{x + y}", "true or false"),
        ("pair{}", "empty rule"),
        ("pair{x = 1", "unclosed"),
    ] {
        let e = BeyondGame::parse(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
    // beyond its limit, refused with the reason
    let e = grundy_rect(&pair("pair{x = a}"), 1000, 1000, &Silent)
        .unwrap_err()
        .to_string();
    assert!(e.contains("at most"), "{e}");
}

/// Schwenk's take-away games with an allowance function of your own: `takeaway{2 * k}`
/// is Fibonacci Nim, `takeaway{k}` is Take-Away(1) (P-positions the powers of 2: a move
/// may never take more than the previous one, so the first player takes the lowest bit),
/// and any f's values by state equal the definition.
#[test]
fn take_away_with_an_allowance_of_your_own() {
    let memory = |spec: &str| match BeyondGame::parse(spec).unwrap() {
        BeyondGame::Memory(t) => t,
        other => panic!("{other} is not a move-memory game"),
    };
    let n = 5000u64;
    assert_eq!(
        least_winning_moves(&memory("takeaway{2 * k}"), n, &Silent).unwrap(),
        least_winning_moves(&TakeAway::FIBONACCI, n, &Silent).unwrap()
    );
    let w = least_winning_moves(&memory("takeaway{k}"), n, &Silent).unwrap();
    for h in 1..=n {
        assert_eq!(w[h as usize] as u64, h & h.wrapping_neg(), "heap {h}");
    }
    for spec in [
        "takeaway{2 * k + 1}",
        "takeaway{k * k}",
        "takeaway{isqrt(k) + 1}",
        "takeaway{k - 2}",
    ] {
        let game = memory(spec);
        assert_eq!(game.spec(), spec);
        let g = state_grundy(&game, 40, &Silent).unwrap();
        let w = least_winning_moves(&game, 40, &Silent).unwrap();
        for h in 0..=40u64 {
            for m in 0..=h {
                assert_eq!(
                    g[h as usize][m as usize],
                    state_grundy_by_definition(&game, h, m).unwrap(),
                    "{spec} ({h}, {m})"
                );
                assert_eq!(g[h as usize][m as usize] != 0, (w[h as usize] as u64) <= m);
            }
        }
    }
    // Schwenk (1970): for f non-decreasing with f(k) >= k, the losing start heaps are
    // H_1 = 1, H_{j+1} = H_j + H_m with m the least index where f(H_m) >= H_j
    for spec in [
        "takeaway{2 * k + 1}",
        "takeaway{k * k}",
        "takeaway{3 * k}",
        "takeaway{k + 1}",
        "takeaway{k + isqrt(k)}",
    ] {
        let game = memory(spec);
        let n = 1_000_000u64;
        let w = least_winning_moves(&game, n, &Silent).unwrap();
        let starts: Vec<u64> = (1..=n).filter(|&h| w[h as usize] as u64 == h).collect();
        let mut h = vec![1u64];
        loop {
            let last = *h.last().unwrap();
            let m = h
                .iter()
                .find(|&&x| game.allowance(x).unwrap() >= last)
                .unwrap();
            if last + m > n {
                break;
            }
            h.push(last + m);
        }
        assert_eq!(starts, h, "{spec}");
    }
    for (bad, says) in [
        ("takeaway{n + k}", "previous move k only"),
        ("takeaway{k > 2}", "not a comparison"),
        ("takeaway{j}", "unknown name `j`"),
        ("takeaway{0}", "positive"),
        ("takeaway{3/0}", "positive"),
    ] {
        let e = BeyondGame::parse(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
    assert_eq!(
        BeyondGame::parse("takeaway{4/2}").unwrap().to_string(),
        "fibonacci-nim"
    );
    // r·k written out is Take-Away(r)
    assert_eq!(
        BeyondGame::parse("takeaway{2 * k}").unwrap().to_string(),
        "fibonacci-nim"
    );
    assert_eq!(
        BeyondGame::parse("takeaway{k*3}").unwrap().to_string(),
        "takeaway{3}"
    );
    // an allowance with no value (overflow beyond 2^127, a division by 0) is refused,
    // never read as "no move"
    let huge = memory("takeaway{k * k * k * k * k * k * k * k * k * k}");
    let e = least_winning_moves(&huge, 8000, &Silent)
        .unwrap_err()
        .to_string();
    assert!(e.contains("no value at k = "), "{e}");
    let e = super::decide(&BeyondGame::Memory(huge), &[5, 8000], &Silent)
        .unwrap_err()
        .to_string();
    assert!(e.contains("no value at k = 8000"), "{e}");
    assert!(least_winning_moves(&memory("takeaway{k // (k - 1)}"), 10, &Silent).is_err());
    // f is asked only of amounts a move takes (k >= 1): 12 // k has no value at 0 only,
    // and k // 0 is refused naming k = 1
    let f = memory("takeaway{12 // k}");
    assert!(least_winning_moves(&f, 50, &Silent).is_ok());
    assert!(state_grundy(&f, 50, &Silent).is_ok());
    let e = state_grundy(&memory("takeaway{k // 0}"), 10, &Silent)
        .unwrap_err()
        .to_string();
    assert!(e.contains("no value at k = 1 "), "{e}");
    // CGSuite's previous move of 0 allows no move: (10, 0) is lost (GameHeapTest)
    let d = super::decide(&BeyondGame::Memory(TakeAway::FIBONACCI), &[10, 0], &Silent).unwrap();
    assert_eq!(d.win(), Some(false));
}

/// Mixed sums: the XOR of the terms' values, and a winning move that leaves a sum of value
/// 0 (checked by deciding the sum it leaves).
#[test]
fn mixed_sums_decide_by_the_xor_with_a_move_that_checks() {
    use super::sum::{decide_mixed_sum, is_mixed_sum, split_terms};
    let budget = crate::Budget::unlimited();
    let d = decide_mixed_sum(
        "wythoff:3,5 + fibonacci-nim:10 + squares:7",
        &budget,
        &Silent,
    )
    .unwrap();
    assert_eq!(
        d.terms.iter().map(|t| t.grundy).collect::<Vec<_>>(),
        [Some(0), Some(5), Some(0)]
    );
    assert_eq!(
        d.winning_move.as_deref(),
        Some("term 2 (fibonacci-nim): to 8,2")
    );
    // after the move: fibonacci-nim at heap 8 with allowance 2·2 = 4 (CGSuite's (8, 2))
    let after = decide_mixed_sum(
        "wythoff:3,5 + fibonacci-nim:8,2 + squares:7",
        &budget,
        &Silent,
    )
    .unwrap();
    assert!(!after.win && after.grundy == 0);
    for (a, b, n) in [(1u64, 2u64, 3u64), (2, 2, 0), (5, 9, 6), (10, 4, 7)] {
        let text = format!("wythoff:{a},{b} + nim:{n} + pair{{x = 0 OR y = 0}}:{b},{n}");
        let d = decide_mixed_sum(&text, &budget, &Silent).unwrap();
        let w = super::grundy_at(&pair_game("wythoff"), &[a, b]).unwrap();
        assert_eq!(d.grundy, w ^ n ^ (b ^ n), "{text}");
        assert_eq!(d.win, d.grundy != 0);
    }
    assert_eq!(split_terms("{2+}!.0:10 + nim:1").len(), 2);
    assert!(is_mixed_sum("nim:1 + wythoff:1,2") && !is_mixed_sum("nim:1 + squares:2"));
    for (bad, says) in [
        ("wythoff:1 + nim:2", "two heaps"),
        ("wythoff:1,2 + nim", "SPEC:POSITION"),
        ("add-or-divide:4 + nim:1", "no Grundy value"),
        ("wythoff:3,5) + nim:1", "not a heap size"),
        ("wythoff:(3,5", "unclosed `(`"),
    ] {
        let e = decide_mixed_sum(bad, &budget, &Silent)
            .unwrap_err()
            .to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

fn pair_game(spec: &str) -> BeyondGame {
    BeyondGame::parse(spec).unwrap()
}

#[test]
fn grids_are_the_tables_of_each_family() {
    use super::{grundy_grid, BeyondError};
    // Wythoff: P-positions (0,0), (1,2), (3,5) and their mirrors (A000201, A001950) are the
    // zeros of the square; a last row is the square's first rows.
    let w = BeyondGame::parse("wythoff").unwrap();
    let g = grundy_grid(&w, 5, None, &Silent).unwrap();
    assert_eq!(
        (g.row_name, g.col_name, g.rect.rows, g.rect.cols),
        ("a", "b", 6, 6)
    );
    let zeros: Vec<(u64, u64)> = (0..6)
        .flat_map(|a| (0..6).map(move |b| (a, b)))
        .filter(|&(a, b)| g.rect.get(a, b) == 0)
        .collect();
    assert_eq!(zeros, [(0, 0), (1, 2), (2, 1), (3, 5), (5, 3)]);
    assert!((0..6).all(|a| (0..6).all(|b| g.is_state(a, b))));
    let rows = grundy_grid(&w, 5, Some(2), &Silent).unwrap();
    assert_eq!(rows.rect.values, g.rect.values[..18]);
    // rows far past max come from the transposed rectangle: the same values
    let tall = grundy_grid(&w, 3, Some(200_000), &Silent).unwrap();
    let wide = grundy_grid(&w, 200_000, Some(3), &Silent).unwrap();
    assert_eq!((tall.rect.rows, tall.rect.cols), (200_001, 4));
    for a in [0, 1, 2, 5, 1000, 199_999, 200_000] {
        for b in 0..4 {
            assert_eq!(tall.rect.get(a, b), wide.rect.get(b, a), "({a}, {b})");
        }
    }
    // Take-Away(2) by state: every state is its definition, and an allowance beyond the
    // heap reads as the heap.
    let t = BeyondGame::parse("takeaway{2}").unwrap();
    let BeyondGame::Memory(rule) = &t else {
        panic!("takeaway{{2}} is move memory")
    };
    let g = grundy_grid(&t, 12, None, &Silent).unwrap();
    assert_eq!(
        (g.row_name, g.col_name, g.clamped),
        ("heap", "allowance", true)
    );
    for h in 0..=12 {
        for m in 0..=12 {
            let want = state_grundy_by_definition(rule, h, m.min(h)).unwrap();
            assert_eq!(g.rect.get(h, m), want, "({h}, {m})");
            assert_eq!(g.is_state(h, m), m <= h);
        }
    }
    // what each structure has, asked of the game rather than its family
    let l = BeyondGame::parse("put-or-take{squares}").unwrap();
    assert_eq!(
        [&w, &t, &l].map(|g| (g.is_two_heap(), g.has_grundy_values(), g.beatty().is_some())),
        [
            (true, true, true),
            (false, true, false),
            (false, false, false)
        ]
    );
    // Wythoff's pairs to 10^9: 381,966,012 (both coordinates ≤ N), about N / 2 up front
    assert_eq!(w.pairs_estimate(1_000_000_000), Some(500_000_000));
    assert_eq!(w.beatty().unwrap().count_upto(1_000_000_000), 381_966_012);
    assert_eq!(t.pairs_estimate(1000), None);
    // Loopy games have no Grundy values; move memory has no last row.
    let l = BeyondGame::parse("put-or-take{squares}").unwrap();
    assert!(
        matches!(grundy_grid(&l, 5, None, &Silent), Err(BeyondError::Unsupported(m)) if m.contains("loopy"))
    );
    assert!(matches!(
        grundy_grid(&t, 5, Some(1), &Silent),
        Err(BeyondError::Unsupported(_))
    ));
    assert!(matches!(
        grundy_grid(&w, u64::MAX, None, &Silent),
        Err(BeyondError::TooLarge(_))
    ));
}
