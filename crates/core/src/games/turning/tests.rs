//! Coin-turning games' tests: against the definition and Winning Ways' values (ruler, Mock Turtles, Moebius).

use crate::game::Game;
use crate::rule::grundy_by_definition;

fn values(spec: &str, max: u64) -> Vec<u32> {
    let g = Game::parse(spec).unwrap_or_else(|e| panic!("{e}"));
    let t = crate::grundy_table(&g, max, &crate::observe::Silent).unwrap();
    (0..=max).map(|n| t.get(n)).collect()
}

/// The brute force: every set of coins turned, listed from the rule in words, and the
/// mex of the XOR over the other coins; independent of the enumerator above.
fn brute(max: u64, legal: impl Fn(u64, &[u64]) -> bool) -> Vec<u32> {
    let mut g = vec![0u32];
    for n in 1..=max {
        let mut vals = vec![];
        // every subset of 1..n-1 as a bit mask
        for mask in 0u64..(1 << (n - 1)) {
            let others: Vec<u64> = (1..n).filter(|c| mask >> (c - 1) & 1 == 1).collect();
            if legal(n, &others) {
                vals.push(others.iter().fold(0, |x, &c| x ^ g[c as usize]));
            }
        }
        g.push((0..).find(|x| !vals.contains(x)).unwrap());
    }
    g
}

#[test]
fn winning_ways_games() {
    // Ruler: the largest power of 2 dividing n
    let r = values("ruler", 2000);
    assert!((1..=2000u32).all(|n| r[n as usize] == 1 << n.trailing_zeros()));
    // Mock Turtles: the odious numbers, A000069
    let a000069 = [
        1, 2, 4, 7, 8, 11, 13, 14, 16, 19, 21, 22, 25, 26, 28, 31, 32, 35, 37, 38,
    ];
    let m = values("mock-turtles", 3000);
    assert_eq!(&m[1..=20], &a000069[..]);
    let mut odious = (0u32..).filter(|x| x.count_ones() % 2 == 1);
    assert!((1..=3000).all(|n| m[n] == odious.next().unwrap()));
    // Turning Turtles is Nim
    let t = values("turning-turtles", 3000);
    assert!((0..=3000u32).all(|n| t[n as usize] == n));
    // Twins: g(n) = n - 1
    let tw = values("twins", 500);
    assert!((1..=500u32).all(|n| tw[n as usize] == n - 1));
    // Grunt is Grundy's game one heap down
    let gr = values("grunt", 400);
    let gg = values("grundy-game", 399);
    assert_eq!(&gr[1..], &gg[..]);
    // Moebius: A000069-like table from Winning Ways, the first values by brute force
    assert_eq!(values("moebius", 14), brute(14, |_, o| o.len() <= 4));
}

#[test]
fn modifiers_against_the_brute_force() {
    let equal = |o: &[u64], n: u64| {
        let mut c = o.to_vec();
        c.push(n);
        c.windows(3).all(|w| w[1] - w[0] == w[2] - w[1])
    };
    let symmetric = |o: &[u64], n: u64| {
        let mut c = o.to_vec();
        c.push(n);
        let s = c[0] + n;
        (0..c.len()).all(|i| c[i] + c[c.len() - 1 - i] == s)
    };
    let consecutive = |o: &[u64], n: u64| (0..o.len()).all(|i| o[i] == n - (o.len() - i) as u64);
    type Legal = Box<dyn Fn(u64, &[u64]) -> bool>;
    let cases: Vec<(&str, Legal)> = vec![
        ("turning{1-3}", Box::new(|_, o: &[u64]| o.len() <= 2)),
        ("turning{2+}", Box::new(|_, o: &[u64]| !o.is_empty())),
        (
            "turning{1+C}",
            Box::new(move |n, o: &[u64]| consecutive(o, n)),
        ),
        (
            "turning{2-3C}",
            Box::new(move |n, o: &[u64]| (1..=2).contains(&o.len()) && consecutive(o, n)),
        ),
        (
            "turning{3E}",
            Box::new(move |n, o: &[u64]| o.len() == 2 && equal(o, n)),
        ),
        (
            "turning{2+E}",
            Box::new(move |n, o: &[u64]| !o.is_empty() && equal(o, n)),
        ),
        (
            "turning{4S}",
            Box::new(move |n, o: &[u64]| o.len() == 3 && symmetric(o, n)),
        ),
        (
            "turning{2-5S}",
            Box::new(move |n, o: &[u64]| (1..=4).contains(&o.len()) && symmetric(o, n)),
        ),
        (
            "turning{4SF}",
            Box::new(move |n, o: &[u64]| o.len() == 3 && o[0] == 1 && symmetric(o, n)),
        ),
        (
            "turning{1-3F}",
            Box::new(|n, o: &[u64]| {
                o.len() <= 2 && (o.first() == Some(&1) || (o.is_empty() && n == 1))
            }),
        ),
        (
            "turning{2+F}",
            Box::new(|_, o: &[u64]| !o.is_empty() && o[0] == 1),
        ),
        (
            "turning{1-3C(4)}",
            Box::new(|n, o: &[u64]| o.len() <= 2 && o.iter().all(|&c| c + 4 > n)),
        ),
        (
            "turning{1,3E}",
            Box::new(move |n, o: &[u64]| o.is_empty() || (o.len() == 2 && equal(o, n))),
        ),
    ];
    for (spec, legal) in cases {
        let want = brute(13, legal);
        assert_eq!(values(spec, 13), want, "{spec}");
        let g = Game::parse(spec).unwrap();
        assert_eq!(grundy_by_definition(&g, 13), want, "{spec} (listed)");
    }
}

#[test]
fn codes_read_back_and_bad_ones_name_the_place() {
    for (s, want) in [
        ("turning{1-3}", "turning{1-3}"),
        ("mock-turtles", "turning{1-3}"),
        ("ruler", "turning{1+C}"),
        ("grunt", "turning{4SF}"),
        ("turning{ 2 , 4sf }", "turning{2,4SF}"),
        ("turning{1-2C(5)}", "turning{1-2C(5)}"),
        ("turning{3-3}", "turning{3}"),
        ("turning{2,2,1-3,2}", "turning{2,1-3}"),
    ] {
        let g = Game::parse(s).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(g.to_string(), want);
        assert_eq!(Game::parse(want).unwrap(), g);
    }
    for (s, pos, word) in [
        ("turning{0}", 9, "at least one"),
        ("turning{3-1}", 9, "empty range"),
        ("turning{1-3X}", 12, "unexpected 'X'"),
        ("turning{1-3", 12, "'}'"),
        ("turning{1CE}", 11, "one of C, E, S"),
        ("turning{1C(2}", 13, "')'"),
        ("turning{}", 9, "number of coins"),
        ("turning{1-3C(0)}", 14, "m >= 1"),
    ] {
        let e = Game::parse(s).unwrap_err();
        assert!(e.pos == pos && e.message.contains(word), "{s}: {e}");
    }
}
