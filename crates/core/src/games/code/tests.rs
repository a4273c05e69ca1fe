//! Extended codes' tests: canonical forms, refusals, the knapsack against the definition, CGSuite's published values.

use super::*;
use crate::game::Game;
use crate::game::Ruleset;
use crate::games::code::grundy::code_grundy;
use crate::rule::grundy_by_definition;
use proptest::prelude::*;

fn canon(s: &str) -> String {
    Game::parse(s).unwrap_or_else(|e| panic!("{e}")).to_string()
}

fn values(spec: &str, max: u64) -> Vec<u32> {
    let g = Game::parse(spec).unwrap();
    let t = crate::grundy_table(&g, max, &crate::observe::Silent).unwrap();
    (0..=max).map(|n| t.get(n)).collect()
}

/// mex of a list of values
fn mex(v: &[u32]) -> u32 {
    (0..).find(|x| !v.contains(x)).unwrap()
}

/// Every partition of s into distinct parts (increasing), written without the engine.
fn distinct_partitions(s: u64, min: u64, out: &mut Vec<Vec<u64>>, cur: &mut Vec<u64>) {
    if s == 0 {
        out.push(cur.clone());
        return;
    }
    for a in min..=s {
        cur.push(a);
        distinct_partitions(s - a, a + 1, out, cur);
        cur.pop();
    }
}

#[test]
fn codes_read_and_write_cgsuite_spelling() {
    assert_eq!(canon("4!.0"), "4!.0");
    assert_eq!(canon("0.[3]"), "0.[3]");
    assert_eq!(canon("0.3[3]"), "0.[3]");
    assert_eq!(canon("0.[33]"), "0.[3]");
    assert_eq!(canon("0.7[37]"), "0.[73]");
    assert_eq!(canon("0.12[0]"), "0.12");
    assert_eq!(canon("{2+}!.0"), "{2+}!.0");
    assert_eq!(canon("{2,3,4+}.0"), "{2+}.0");
    assert_eq!(canon("{2,4+}.0"), "{2,4+}.0");
    assert_eq!(canon("0.&96;"), "0.&96;");
    assert_eq!(canon("0.{5,6}"), "0.&96;");
    assert_eq!(canon("0.{1,2}"), "0.6");
    assert_eq!(canon("0.*"), "0.*");
    assert_eq!(canon("0.{0+}"), "0.*");
    assert_eq!(canon("g.0"), "G.0");
    assert_eq!(
        canon("0.3!"),
        "0.3",
        "a constraint on a digit that never splits is dropped"
    );
    assert_eq!(canon("0.7="), "0.7=");
    assert_eq!(canon("{2,3}?.0"), "C?.0");
    // plain codes stay octal codes
    assert_eq!(Game::parse("0.77").unwrap(), Game::parse("kayles").unwrap());
    assert_eq!(
        Game::parse("0.{1,2}{0,1,2}").unwrap(),
        Game::parse("0.67").unwrap()
    );
    assert!(matches!(
        Game::parse("4!.0").unwrap(),
        Game::Ruleset(Ruleset::Code(_))
    ));
}

#[test]
fn malformed_codes_name_the_position() {
    let err = |s: &str| Game::parse(s).unwrap_err();
    let e = err("12.0");
    assert!(e.message.contains("loopy"), "{e}");
    let e = err("{1,2}.0");
    assert!(e.message.contains("loopy") && e.pos == 1, "{e}");
    let e = err("0.7[3");
    assert!(e.message.contains("']'"), "{e}");
    let e = err("0.[]");
    assert_eq!(e.pos, 4, "{e}");
    let e = err("0.[3]7");
    assert!(e.message.contains("follow"), "{e}");
    let e = err("0.{2!,3}");
    assert!(e.message.contains("one constraint"), "{e}");
    let e = err("0.{64}");
    assert!(e.message.contains("63"), "{e}");
    let e = err("0.{3+,4}");
    assert!(e.message.contains("'}'"), "{e}");
    let e = err("0.&x;");
    assert!(e.message.contains("&n;"), "{e}");
    assert_eq!(canon("{ 2+ }!.0"), "{2+}!.0");
    let e = err("0.ã");
    assert!(
        e.message.contains("unexpected 'ã' after '.'") && e.pos == 3,
        "{e}"
    );
    let e = err("0.\u{1b}[31m7");
    assert!(
        e.to_string().contains("unexpected '\\u{1b}'") && e.pos == 3,
        "{e}"
    );
    let e = err("0.7W");
    assert!(e.message.contains("'W'"), "{e}");
    let e = err("0.{5,3+}");
    assert!(e.message.contains("largest"), "{e}");
    let e = err("0.&99999999999999999999;");
    assert!(e.message.contains("64 bits"), "{e}");
    for bad in ["{", "{}", "&", "*.0", "0..7", "0.7[3][4]", "4!!.0", "[3]"] {
        let e = err(bad);
        assert!(!e.message.is_empty() && e.pos >= 1, "{bad}: {e}");
    }
}

#[test]
fn grundys_game_as_4_bang_0() {
    // A002188: Grundy's game
    let a002188 = [
        0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0,
    ];
    let code = values("4!.0", 2000);
    assert_eq!(&code[..=20], &a002188[..]);
    assert_eq!(code, values("grundy-game", 2000));
}

#[test]
fn nim_as_0_period_3() {
    assert_eq!(values("0.[3]", 3000), (0..=3000).collect::<Vec<u32>>());
    // remove any even number: g(n) = floor(n / 2)
    let even: Vec<u32> = (0..=500).map(|n| n / 2).collect();
    assert_eq!(values("0.[03]", 500), even);
}

#[test]
fn any_number_of_unequal_heaps_to_60_by_distinct_partitions() {
    // {2+}!.0: split into two or more pairwise unequal heaps — the brute force lists every
    // partition into distinct parts
    let mut g: Vec<u32> = vec![0];
    for n in 1..=60u64 {
        let mut ps = vec![];
        distinct_partitions(n, 1, &mut ps, &mut vec![]);
        let vals: Vec<u32> = ps
            .iter()
            .filter(|p| p.len() >= 2)
            .map(|p| p.iter().fold(0, |x, &h| x ^ g[h as usize]))
            .collect();
        g.push(mex(&vals));
    }
    assert_eq!(values("{2+}!.0", 60), g);
    // and any number of heaps, equal or not: g(n) = n - 1 (every value below n - 1 is
    // reached by (v + 1) + 1 + … + 1, and no XOR of the parts' values exceeds n - 2)
    let v = values("{2+}.0", 300);
    assert!((1..=300).all(|n| v[n] == n as u32 - 1), "{:?}", &v[..20]);
}

#[test]
fn all_equal_and_not_all_equal_digits_by_definition() {
    for spec in [
        "{2+}?.0",
        "0.*?",
        "{3+}?.0",
        "0.{2,5+}?",
        "{2+}?.[3]",
        "{2,3}=.0",
        "{2+}=.0",
        "0.{2,3}?",
        "{2,3,4}?.0",
        "0.7?",
        "0.&28;",
        "0.4!7",
        "8.0",
        "0.*",
        "0.[7]",
        "0.1[4!]",
        "0.{1,3}",
        "0.{2,4+}!",
        "{2,3}?.3",
    ] {
        let g = Game::parse(spec).unwrap();
        let want = grundy_by_definition(&g, 26);
        assert_eq!(values(spec, 26), want, "{spec}");
    }
}

fn digit() -> impl Strategy<Value = CodeDigit> {
    (0u64..64, any::<bool>(), 0..4u8).prop_map(|(counts, more, c)| {
        let constraint = [
            Constraint::Any,
            Constraint::Unequal,
            Constraint::NotAllEqual,
            Constraint::AllEqual,
        ][c as usize];
        let more = more && counts != 0;
        CodeDigit {
            counts,
            more,
            constraint,
        }
        .normalized()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The knapsack engine equals the definition (every option listed) on random codes,
    /// and every code's canonical spelling parses back to it.
    #[test]
    fn knapsack_equals_the_definition(
        d0 in (0u64..16, any::<bool>(), 0..4u8),
        rest in prop::collection::vec(digit(), 1..5),
        period in 0usize..3,
    ) {
        let mut first = CodeDigit {
            counts: d0.0 & !3,
            more: d0.1 && d0.0 & !3 != 0,
            constraint: [Constraint::Any, Constraint::Unequal, Constraint::AllEqual, Constraint::Any][d0.2 as usize],
        };
        first = first.normalized();
        let mut digits = vec![first];
        digits.extend(rest);
        let code = Code::new(digits, period).unwrap();
        let game = if code.is_plain() {
            Game::parse(&code.to_string()).unwrap()
        } else {
            Game::Ruleset(Ruleset::Code(code.clone()))
        };
        prop_assert_eq!(Game::parse(&game.to_string()).unwrap(), game.clone());
        if let Game::Ruleset(_) = game {
            let want = grundy_by_definition(&game, 22);
            let mut w = crate::observe::Watch::quiet();
            let got = code_grundy(&code, 22, u64::MAX, &mut w).unwrap();
            prop_assert_eq!(got, want, "{}", code);
        }
    }
}

/// {2+}!.0 and {2,3}.0 past 64 values (whole-word XOR moves), against knapsacks over
/// plain sets of values written without bit sets.
#[test]
fn wide_values_against_a_set_knapsack() {
    use std::collections::BTreeSet;
    let n_max = 400usize;
    // distinct parts: d[t] = XORs of partitions of t into distinct parts < the next part
    let mut d: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); n_max + 1];
    d[0].insert(0);
    let mut g = vec![0u32];
    for n in 1..=n_max {
        // parts 1..n-1 are in: every partition of n found has two or more parts
        let v: Vec<u32> = d[n].iter().copied().collect();
        g.push(mex(&v));
        for t in (n..=n_max).rev() {
            let add: Vec<u32> = d[t - n].iter().map(|x| x ^ g[n]).collect();
            d[t].extend(add);
        }
    }
    assert_eq!(values("{2+}!.0", n_max as u64), g);
    assert!(g.iter().any(|&v| v >= 256));
    // exactly two or three heaps, any sizes
    let mut g = vec![0u32];
    for n in 1..=n_max {
        let mut v = vec![];
        for a in 1..n {
            let b = n - a;
            if a <= b {
                v.push(g[a] ^ g[b]);
            }
            for c in 1..b {
                let e = b - c;
                if a <= c && c <= e {
                    v.push(g[a] ^ g[c] ^ g[e]);
                }
            }
        }
        g.push(mex(&v));
    }
    assert_eq!(values("{2,3}.0", n_max as u64), g);
    assert!(g.iter().any(|&v| v >= 64));
}

/// `{2+}?.0` (split into two or more heaps, not all equal) to 150 by counting: the
/// partitions of n with each XOR value (exact counts over part sizes < n), less the
/// all-equal ones; a value is reached iff more partitions give it than all-equal ones.
#[test]
fn not_all_equal_by_counting_partitions() {
    let n_max = 150usize;
    const V: usize = 256;
    // count[t][x]: partitions of t into parts processed so far with XOR x
    let mut count = vec![[0u64; V]; n_max + 1];
    count[0][0] = 1;
    let mut g = vec![0u32];
    for n in 1..=n_max {
        // parts 1..n-1 are in: every partition counted has two or more parts
        let mut c = count[n];
        for (b, &gb) in g.iter().enumerate().skip(1) {
            if n % b == 0 {
                let j = n / b;
                let x = if j % 2 == 1 { gb } else { 0 } as usize;
                c[x] -= 1;
            }
        }
        let v = (0..V).find(|&x| c[x] == 0).unwrap() as u32;
        g.push(v);
        for t in n..=n_max {
            for x in 0..V {
                let add = count[t - n][x ^ v as usize];
                count[t][x] += add;
            }
        }
    }
    assert_eq!(values("{2+}?.0", n_max as u64), g);
    assert!(g.iter().any(|&v| v >= 64));
}

/// Codes with digits left of the point add tokens (CGSuite's `80.0`: add one, leave three
/// heaps): accepted when every count is at least t + 2 (every part below the heap), the
/// knapsack equal to the mex over every option listed, loopy ones refused with the reason.
#[test]
fn codes_that_add_tokens_by_definition() {
    for spec in [
        "80.0",
        "80.7",
        "{3,4}0.0",
        "{3+}0.0",
        "8!0.0",
        "{3}=0.0",
        "{3,4}?0.0",
        "{4}{3}0.0",
        "{4+}00.0",
        "80.[3]",
        "80!.0",
    ] {
        let g = Game::parse(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(
            Game::parse(&g.to_string()).unwrap(),
            g,
            "{spec} prints as {g}"
        );
        let want = grundy_by_definition(&g, 24);
        assert_eq!(values(spec, 24), want, "{spec}");
    }
    assert_eq!(canon("80.0"), "80.0");
    assert_eq!(canon("{3,4}0.0"), "O0.0");
    // every option of 80.0 from a heap of 6: 7 tokens in three heaps, each below 6
    let Game::Ruleset(Ruleset::Code(c)) = Game::parse("80.0").unwrap() else {
        panic!("80.0 is an extended code")
    };
    let mut seen = vec![];
    let _ = c.for_each_option(6, &mut |h| {
        seen.push(h.to_vec());
        ControlFlow::Continue(())
    });
    assert_eq!(
        seen,
        [vec![1, 1, 5], vec![1, 2, 4], vec![1, 3, 3], vec![2, 2, 3]]
    );
    for (bad, why) in [
        ("40.0", "may leave 2 heap(s)"),
        ("{2+}0.0", "may leave 2 heap(s)"),
        ("800.0", "adds 2 token(s) and may leave 3"),
        ("7.0", "may only split"),
    ] {
        let e = Game::parse(bad).unwrap_err().to_string();
        assert!(e.contains(why), "{bad}: {e}");
    }
}
