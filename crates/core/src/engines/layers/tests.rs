//! The layer engine's tests: against the blocked and plain mex, and the primes' published values (OEIS A014589).

use super::*;

fn slow(moves: &[u64], leave1: bool, max: u64) -> Vec<u32> {
    super::super::mex::list_mex_grundy(moves, leave1, max, &mut Watch::quiet()).unwrap()
}

fn fast(moves: &[u64], leave1: bool, max: u64) -> Vec<u32> {
    layered_grundy(moves, leave1, max, &mut Watch::quiet())
        .unwrap()
        .unwrap()
        .into_iter()
        .map(u32::from)
        .collect()
}

fn primes(n: u64) -> Vec<u64> {
    (2..=n)
        .filter(|&p| (2..).take_while(|d| d * d <= p).all(|d| p % d != 0))
        .collect()
}

#[test]
fn primes_and_practical_sets_equal_the_plain_mex() {
    let n = 40_000;
    let ps = primes(n);
    assert_eq!(fast(&ps, false, n), slow(&ps, false, n));
    assert_eq!(fast(&ps, true, n), slow(&ps, true, n));
    let mut p1 = ps.clone();
    p1.insert(0, 1);
    assert_eq!(fast(&p1, false, n), slow(&p1, false, n));
    // A014589 (subtract a prime), as published
    let published: Vec<u32> = include_str!("../../../tests/fixtures/A014589.txt")
        .lines()
        .filter_map(|l| l.split_whitespace().nth(1)?.parse().ok())
        .collect();
    let k = published.len() as u64 - 1;
    assert_eq!(fast(&primes(k), false, k), published);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]
    /// Random move sets (sparse and dense, with and without "leave one") against the
    /// plain mex, across several leaves and FFT levels.
    #[test]
    fn random_sets_equal_the_plain_mex(
        seed in 0u64..1_000_000,
        density in 1u64..30,
        leave1 in proptest::bool::ANY,
        n in 1u64..20_000,
    ) {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let moves: Vec<u64> = (1..=n)
            .filter(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x % 100 < density
            })
            .collect();
        proptest::prop_assert_eq!(fast(&moves, leave1, n), slow(&moves, leave1, n));
    }
}

#[test]
fn pieces_equal_whole_products() {
    // products cut into pieces (as for blocks beyond FFT_MAX): the same hits as one
    let n = 1usize << 16;
    let ps = primes(n as u64);
    let mut s = bits(n);
    for &p in &ps {
        set(&mut s, p as usize);
    }
    let plans = Plans::new(s, n);
    let mut member = bits(n);
    let mut x = 12345u64;
    for i in 0..n / 2 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if x.is_multiple_of(5) {
            set(&mut member, i);
        }
    }
    let mut bufs = Buffers::default();
    for first in [0, 1] {
        let mut whole = bits(n);
        product(
            &plans,
            &mut bufs,
            &member,
            first,
            0,
            n / 2,
            n / 2,
            &mut whole,
        );
        let mut cut = bits(n);
        let q = n / 8;
        for a in (0..n / 2).step_by(q) {
            for b in (n / 2..n).step_by(q) {
                product(&plans, &mut bufs, &member, first, a, b, q, &mut cut);
            }
        }
        assert_eq!(whole, cut);
        // and the definition: b is hit when some member a (>= first) has b - a prime
        let slow: Vec<usize> = (n / 2..n)
            .filter(|&b| {
                ps.iter().any(|&p| {
                    let p = p as usize;
                    p <= b
                        && b - p < n / 2
                        && b - p >= first
                        && member[(b - p) / 64] >> ((b - p) % 64) & 1 == 1
                })
            })
            .collect();
        let fast: Vec<usize> = (n / 2..n)
            .filter(|&b| whole[b / 64] >> (b % 64) & 1 == 1)
            .collect();
        assert_eq!(fast, slow);
    }
}

#[test]
fn any_number_of_workers_gives_the_same_table() {
    // the pipeline: layers handed round-robin, each waiting for the one before
    let n = 50_000;
    let ps = primes(n);
    let want = slow(&ps, true, n);
    for workers in [1, 2, 3, 5] {
        let got = layered(&ps, true, n, &mut Watch::quiet(), workers)
            .unwrap()
            .unwrap();
        let got: Vec<u32> = got.into_iter().map(u32::from).collect();
        assert_eq!(got, want, "{workers} workers");
    }
}
