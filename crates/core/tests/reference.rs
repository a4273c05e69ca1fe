//! Published sequences (tests/fixtures, copied from OEIS with their A-numbers) against the
//! engines.

use heaplab_core::{grundy_table, outcome_table, Game};

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
    let t = grundy_table(&g, max).unwrap();
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
    let t = outcome_table(&Game::parse("squares").unwrap(), max).unwrap();
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
    let t = outcome_table(&Game::parse("primes").unwrap(), max).unwrap();
    let ps: Vec<u64> = t.p_positions().collect();
    assert_eq!(ps, rows.iter().map(|r| r.1).collect::<Vec<_>>());
}

#[test]
fn subtract_a_prime_a014589_fibonacci_a014588_triangular_a019509() {
    check_grundy("primes", include_str!("fixtures/A014589.txt"), 0);
    check_grundy("fibonacci", include_str!("fixtures/A014588.txt"), 0);
    check_grundy("triangular", include_str!("fixtures/A019509.txt"), 0);
}
