//! Unions of one-heap families and `nondivisors` against a brute force from the definition:
//! a move of a union is a move of any part (each part's own `is_move`), a non-divisor move
//! removes d < n with n mod d ≠ 0.

use crate::game::Game;
use crate::game::Play;
use crate::plan::grundy_table;
use crate::{decide, Budget, Silent};
use proptest::prelude::*;

/// g(0..=max) by the definition, with `legal(n, s)` deciding each amount.
fn brute(max: u64, legal: impl Fn(u64, u64) -> bool, misere: bool) -> Vec<u32> {
    let mut g: Vec<u32> = vec![];
    for n in 0..=max {
        let seen: Vec<u32> = (1..=n)
            .filter(|&s| legal(n, s))
            .map(|s| g[(n - s) as usize])
            .collect();
        let v = match (seen.is_empty(), misere) {
            (true, true) => 1,
            _ => (0..).find(|x| !seen.contains(x)).unwrap(),
        };
        g.push(v);
    }
    g
}

/// Every P-position of 0..=max, from the game's P-position stream.
fn stream(game: &Game, max: u64) -> Vec<u64> {
    crate::plan::p_position_list(game, max, &crate::Budget::unlimited(), &Silent).unwrap()
}

#[test]
fn unions_and_nondivisors_equal_the_definition() {
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("half|sub{1}", vec!["half", "sub{1}"]),
        ("sqrt|sub{5}", vec!["sqrt", "sub{5}"]),
        ("divisors|squares", vec!["divisors", "squares"]),
        (
            "leave1(sqrt)|upto{3}|sub{7}",
            vec!["leave1(sqrt)", "upto{3}", "sub{7}"],
        ),
        (
            "divisors-nontrivial|primes",
            vec!["divisors-nontrivial", "primes"],
        ),
    ];
    for (spec, parts) in cases {
        let g = Game::parse(spec).unwrap();
        assert!(matches!(g, Game::Union(_)), "{spec}");
        let parts: Vec<Game> = parts.iter().map(|p| Game::parse(p).unwrap()).collect();
        let legal = |n: u64, s: u64| parts.iter().any(|p| p.is_move(n, s));
        let max = 1500;
        for misere in [false, true] {
            let want = brute(max, legal, misere);
            let game = g.with_play(if misere { Play::Misere } else { Play::Normal });
            assert_eq!(
                grundy_table(&game, max, &Silent).unwrap().to_u32_vec(),
                want,
                "{game}"
            );
            let ps: Vec<u64> = (0..=max).filter(|&n| want[n as usize] == 0).collect();
            assert_eq!(stream(&game, max), ps, "{game}: the stream");
            for n in [max, 977, 2] {
                let d = decide(&game, n, &Budget::new(1 << 30), &Silent).unwrap();
                assert_eq!(d.win, want[n as usize] != 0, "{game} at {n}");
                if let Some(m) = d.winning_move {
                    assert!(legal(n, m.removed), "{game} at {n}: {m}");
                    assert_eq!(want[(n - m.removed) as usize], 0);
                }
            }
        }
    }
    // nondivisors: remove d < n with d ∤ n
    let g = Game::parse("nondivisors").unwrap();
    let want = brute(2000, |n, s| s < n && n % s != 0, false);
    assert_eq!(grundy_table(&g, 2000, &Silent).unwrap().to_u32_vec(), want);
    // by hand: 3 → {1}; 5 → {3, 2, 1}; 7 → {5, 4, 3, 2, 1}; 8 → {5, 3, 2, 1}
    assert_eq!(&want[..9], [0, 0, 0, 1, 1, 2, 1, 3, 3]);
    assert_eq!(stream(&g, 2000), vec![0, 1, 2]);
}

/// `leave1( )` of a union leaves the whole heap out of every part; `sink( )` takes a union
/// whose moves are a finite set.
#[test]
fn leave1_and_sink_take_unions() {
    let max = 600;
    for (spec, union) in [
        ("leave1(half|sub{1})", "half|sub{1}"),
        ("leave1(upto{3}|sub{7})", "upto{3}|sub{7}"),
        ("leave1(sqrt|sub{5}|divisors)", "sqrt|sub{5}|divisors"),
    ] {
        let u = Game::parse(union).unwrap();
        let g = Game::parse(spec).unwrap();
        let want = brute(max, |n, s| s < n && u.is_move(n, s), false);
        assert_eq!(
            grundy_table(&g, max, &Silent).unwrap().to_u32_vec(),
            want,
            "{spec} = {g}"
        );
        assert_eq!(Game::parse(&g.to_string()).unwrap(), g, "{g}");
    }
    assert_eq!(
        Game::parse("sink(upto{3}|sub{7})").unwrap(),
        Game::parse("sink(sub{1,2,3,7})").unwrap()
    );
    for (s, why) in [
        (
            "leave1(rule{k <= n // 2})",
            "`rule{k <= n // 2}` is not one",
        ),
        ("leave1(half|nondivisors)", "`nondivisors` is not one"),
        ("sink(half|sub{1})", "`half|sub{1}` is not one"),
    ] {
        let e = Game::parse(s).unwrap_err().to_string();
        assert!(e.contains(why), "{s}: {e}");
    }
}

#[test]
fn unions_are_written_one_way() {
    let a = Game::parse("sub{1}|half").unwrap();
    assert_eq!(a.to_string(), "half|sub{1}");
    assert_eq!(a, Game::parse("half|sub{1}").unwrap());
    // subtraction sets inside a union merge; a union of sets alone is a set
    assert_eq!(
        Game::parse("sub{2}|half|sub{1}").unwrap().to_string(),
        "half|sub{1,2}"
    );
    assert_eq!(
        Game::parse("primes|sub{1}").unwrap().to_string(),
        "primes|sub{1}"
    );
    assert!(matches!(
        Game::parse("primes|sub{1}").unwrap(),
        Game::Subtraction { .. }
    ));
    assert_eq!(
        Game::parse("half|half").unwrap(),
        Game::parse("half").unwrap()
    );
    for (s, why) in [
        ("0.77|sub{1}", "`0.77` is not a one-heap game"),
        ("sub{1}|grundy-game", "`grundy-game` is not a one-heap game"),
        ("half|misere(sub{1})", "is in misère play"),
    ] {
        let e = Game::parse(s).unwrap_err().to_string();
        assert!(e.contains(why), "{s}: {e}");
    }
}

proptest! {
    /// Any union of family specs parses back from its canonical form, in any order.
    #[test]
    fn unions_parse_back(picks in proptest::collection::vec(0usize..10, 2..5)) {
        let specs = ["half", "sqrt", "divisors", "nondivisors", "sub{1,3}", "squares",
                     "leave1(sqrt)", "upto{4}", "allbut{2}", "leave1(sub{2})"];
        let text: Vec<&str> = picks.iter().map(|&i| specs[i]).collect();
        let g = Game::parse(&text.join("|")).unwrap();
        let back = Game::parse(&g.to_string()).unwrap();
        prop_assert_eq!(&back, &g);
        let mut rev = text.clone();
        rev.reverse();
        prop_assert_eq!(Game::parse(&rev.join("|")).unwrap(), g);
    }
}

/// A `rule{…}` gives the same tables as the built-in family it imitates.
#[test]
fn rules_imitate_the_families() {
    for (rule, family, max) in [
        ("rule{k <= isqrt(n)}", "sqrt", 3000u64),
        ("rule{n % k = 0 AND k < n}", "divisors", 3000),
        ("rule{k <= n // 2}", "half", 1000),
        ("rule{is_square(k)}", "squares", 3000),
        ("rule{k = 1 OR is_prime(k)}", "primes|sub{1}", 2000),
        ("rule{k < n AND n % k <> 0}", "nondivisors", 1000),
    ] {
        let (r, f) = (Game::parse(rule).unwrap(), Game::parse(family).unwrap());
        for play in [Play::Normal, Play::Misere] {
            let (r, f) = (r.with_play(play), f.with_play(play));
            assert_eq!(
                grundy_table(&r, max, &Silent).unwrap().to_u32_vec(),
                grundy_table(&f, max, &Silent).unwrap().to_u32_vec(),
                "{r} against {f}"
            );
            assert_eq!(
                stream(&r, max),
                stream(&f, max),
                "{r} against {f}: P-positions"
            );
        }
    }
    // a rule in a union, and its moves straight from the definition
    let g = Game::parse("rule{k % 3 = 2}|sub{1}").unwrap();
    let want = brute(600, |_, s| s % 3 == 2 || s == 1, false);
    assert_eq!(grundy_table(&g, 600, &Silent).unwrap().to_u32_vec(), want);
    // malformed rules name the position in the whole spec
    let e = Game::parse("rule{k <= sqrt(n)}").unwrap_err();
    assert_eq!(e.pos, 11, "{e}");
    assert!(e.to_string().contains("unknown name `sqrt`"));
    assert!(Game::parse("rule{k < n")
        .unwrap_err()
        .to_string()
        .contains("unclosed rule{"));
}

proptest! {
    /// Every rule parses back from its canonical form to the same moves.
    #[test]
    fn rules_parse_back(a in 0usize..6, b in 0usize..6, c in 1u64..7, neg in proptest::bool::ANY) {
        let atoms = ["k <= isqrt(n)", "n % k = 0", "k % 2 = 1", "is_square(n - k)",
                     "k < n // 3 + 1", "popcount(k) = 1"];
        let glue = if neg { "OR NOT" } else { "and" };
        let text = format!("rule{{({}) {glue} ({}) OR k = {c}}}", atoms[a], atoms[b]);
        let g = Game::parse(&text).unwrap();
        let back = Game::parse(&g.to_string()).unwrap();
        prop_assert_eq!(&back, &g);
        for n in 0..60u64 {
            prop_assert_eq!(back.moves_of(n), g.moves_of(n));
        }
    }
}

/// A sweep's parameter never replaces a rule's own `n` and `k`.
#[test]
fn parameters_leave_the_rule_variables_alone() {
    use crate::spec::template::substitute_param;
    assert_eq!(
        substitute_param("sub{1,k}|rule{k <= a * n}", "k", 3),
        "sub{1,3}|rule{k <= a * n}"
    );
    assert_eq!(
        substitute_param("rule{k <= a * n}", "a", 2),
        "rule{k <= 2 * n}"
    );
    assert_eq!(
        substitute_param("rule{k <= n}|upto{n}", "n", 5),
        "rule{k <= n}|upto{5}"
    );
}

/// splittles{S}: remove s in S and leave the rest, split it in two, or nothing — the octal
/// code with 7 at every s; against a brute force over the definition.
#[test]
fn splittles_are_their_octal_codes() {
    assert_eq!(
        Game::parse("splittles{1,2}").unwrap(),
        Game::parse("kayles").unwrap()
    );
    assert_eq!(Game::parse("splittles{2,3}").unwrap().to_string(), "0.077");
    for set in [vec![1u64, 3], vec![2, 5], vec![1, 2, 4], vec![3]] {
        let text: Vec<String> = set.iter().map(u64::to_string).collect();
        let g = Game::parse(&format!("splittles{{{}}}", text.join(","))).unwrap();
        // g(n) = mex over s in S, s <= n, of g(n - s) and g(a) ^ g(n - s - a), 1 <= a < n - s
        let max = 80usize;
        let mut want: Vec<u32> = vec![];
        for n in 0..=max {
            let mut seen = vec![];
            for &s in &set {
                let s = s as usize;
                if s <= n {
                    let r = n - s;
                    seen.push(want[r]);
                    for a in 1..r {
                        seen.push(want[a] ^ want[r - a]);
                    }
                }
            }
            want.push((0..).find(|x| !seen.contains(x)).unwrap());
        }
        assert_eq!(
            grundy_table(&g, max as u64, &Silent).unwrap().to_u32_vec(),
            want,
            "{g}"
        );
    }
    let e = Game::parse("splittles{0,2}").unwrap_err().to_string();
    assert!(e.contains("0 is not a move"), "{e}");
    assert!(Game::parse("splittles{5000}")
        .unwrap_err()
        .to_string()
        .contains("up to 1000"));
}
