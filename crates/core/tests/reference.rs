//! Published sequences (tests/fixtures, copied from OEIS with their A-numbers) against the
//! engines.

use heaplab_core::{grundy_table, outcome_table, Game, Silent};

/// `n a(n)` lines of a fixture.
fn fixture(text: &str) -> Vec<(u64, u64)> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut it = l.split_whitespace().map(|x| x.parse::<u64>().unwrap());
            (it.next().unwrap(), it.next().unwrap())
        })
        .collect()
}

fn check_grundy(spec: &str, data: &str, shift: i64) {
    let g = Game::parse(spec).unwrap();
    let rows = fixture(data);
    let max = rows.iter().map(|r| r.0 as i64 + shift).max().unwrap() as u64;
    let t = grundy_table(&g, max, &Silent).unwrap();
    for (n, a) in rows {
        let pos = n as i64 + shift;
        if pos >= 0 {
            assert_eq!(
                t.get(pos as u64) as u64,
                a,
                "{spec}: a({n}) at position {pos}"
            );
        }
    }
}

#[test]
fn subtract_a_square_a030193_p_positions() {
    let rows = fixture(include_str!("fixtures/A030193.txt"));
    let max = rows.last().unwrap().1;
    let t = outcome_table(&Game::parse("squares").unwrap(), max, &Silent).unwrap();
    let ps: Vec<u64> = t.p_positions().collect();
    assert_eq!(ps, rows.iter().map(|r| r.1).collect::<Vec<_>>());
}

#[test]
fn subtract_a_square_a014586_grundy() {
    check_grundy("squares", include_str!("fixtures/A014586.txt"), 0);
}

#[test]
fn subtract_a_prime_a025043_p_positions() {
    // offset 1: a(1) = 0, a(2) = 1
    let rows = fixture(include_str!("fixtures/A025043.txt"));
    let max = rows.last().unwrap().1;
    let t = outcome_table(&Game::parse("primes").unwrap(), max, &Silent).unwrap();
    let ps: Vec<u64> = t.p_positions().collect();
    assert_eq!(ps, rows.iter().map(|r| r.1).collect::<Vec<_>>());
}

#[test]
fn subtract_a_prime_a014589_fibonacci_a014588_triangular_a019509() {
    check_grundy("primes", include_str!("fixtures/A014589.txt"), 0);
    check_grundy("fibonacci", include_str!("fixtures/A014588.txt"), 0);
    check_grundy("triangular", include_str!("fixtures/A019509.txt"), 0);
}

#[test]
fn octal_games_a002186_a002187_a071074_a071431_a077069_a125920() {
    check_grundy("0.77", include_str!("fixtures/A002186.txt"), 0); // Kayles
    check_grundy("0.137", include_str!("fixtures/A002187.txt"), 0); // Dawson's chess
    check_grundy("0.07", include_str!("fixtures/A002187.txt"), 1); // Dawson's Kayles: g(n) = a(n-1)
    check_grundy("0.7777", include_str!("fixtures/A071074.txt"), 0);
    check_grundy("0.17", include_str!("fixtures/A071431.txt"), 0);
    check_grundy("4.777", include_str!("fixtures/A077069.txt"), 0); // offset 1
    check_grundy("0.176", include_str!("fixtures/A125920.txt"), 0); // offset 1
}

/// The 82 games of tczajka/octal-games' TrivialGames.md: `game | prefix | period | nimbers`
/// with the nimbers as prefix(period) in base-36 digits, entry j being g(j + s) where
/// s = (the smallest heap with a legal move) - 1.
#[test]
fn tczajka_trivial_octal_games() {
    use heaplab_core::Rule;
    let text = include_str!("fixtures/tczajka_octal_trivial_games.txt");
    let mut games = 0;
    for line in text.lines() {
        let cols: Vec<&str> = line.split('|').map(str::trim).collect();
        if cols.len() != 4 || !cols[3].contains('(') {
            continue;
        }
        let (spec, pre, per) = (cols[0], cols[1], cols[2]);
        let pre: usize = pre.parse().unwrap();
        let per: usize = per.parse().unwrap();
        let digits: Vec<u32> = cols[3]
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_digit(36).unwrap())
            .collect();
        assert_eq!(digits.len(), pre + per, "{spec}");
        let game = Game::parse(spec).unwrap_or_else(|e| panic!("{e}"));
        let mut first_move = 0u64;
        loop {
            let mut any = false;
            game.for_each_option(first_move, &mut |_| any = true);
            if any {
                break;
            }
            first_move += 1;
        }
        let s = first_move.saturating_sub(1);
        // Check the prefix and three full periods (and a long run beyond, where the engine
        // may already be copying a proven period).
        let len = (pre + 3 * per).max(3000);
        let t = grundy_table(&game, len as u64 + s, &Silent).unwrap();
        for j in 0..len {
            let expect = if j < pre + per {
                digits[j]
            } else {
                digits[pre + (j - pre) % per]
            };
            assert_eq!(t.get(j as u64 + s), expect, "{spec}: g({})", j as u64 + s);
        }
        games += 1;
    }
    assert_eq!(games, 82);
}
