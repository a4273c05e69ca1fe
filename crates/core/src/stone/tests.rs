//! Stone games' tests: seed examples, the minimax by definition, and the greedy strategy's margins.

use super::*;

#[test]
fn seed_examples() {
    let (r, _) = solve(Variant::I, &[5, 3, 4, 5], false).unwrap();
    assert_eq!(r.winner, Winner::First);
    let (r, _) = solve(Variant::II, &[2, 7, 9, 4, 4], false).unwrap();
    assert_eq!(r.first_total, 10);
    let (r, _) = solve(Variant::III, &[1, 2, 3, 7], false).unwrap();
    assert_eq!(r.winner, Winner::Second);
    let (r, _) = solve(Variant::III, &[1, 2, 3, -9], false).unwrap();
    assert_eq!(r.winner, Winner::First);
    let (r, _) = solve(Variant::III, &[1, 2, 3, 6], false).unwrap();
    assert_eq!(r.winner, Winner::Tie);
    assert_eq!(solve(Variant::I, &[], false), Err(StoneError::Empty));
    for bad in [
        vec![i64::MIN],
        vec![i64::MIN, i64::MAX],
        vec![0, i64::MIN + 1],
    ] {
        for v in [Variant::I, Variant::II, Variant::III] {
            assert_eq!(solve(v, &bad, false), Err(StoneError::Overflow), "{bad:?}");
        }
    }
    let long = vec![1i64; MAX_PILES.2 + 1];
    assert!(matches!(
        solve(Variant::II, &long, false),
        Err(StoneError::TooMany { limit: 3000, .. })
    ));
    assert!(solve(Variant::III, &long, true).is_ok());
    assert!(solve(Variant::I, &long, false).is_ok());
}

#[test]
fn lines_of_play_add_up() {
    for v in [Variant::I, Variant::II, Variant::III] {
        let piles = [3i64, -1, 4, 1, 5, 9, 2, 6];
        let (r, line) = solve(v, &piles, true).unwrap();
        let first: i64 = line
            .iter()
            .filter(|m| m.player == 1)
            .flat_map(|m| m.values.clone())
            .sum();
        let second: i64 = line
            .iter()
            .filter(|m| m.player == 2)
            .flat_map(|m| m.values.clone())
            .sum();
        assert_eq!((first, second), (r.first_total, r.second_total), "{v:?}");
    }
}

#[test]
fn rows_are_enumerated_in_order() {
    let r = StoneRows::all((1, 2), (0, 2)).unwrap();
    assert_eq!(r.len(), 3 + 9);
    assert_eq!(
        (r.row(0), r.row(2), r.row(3), r.row(11)),
        (vec![0], vec![2], vec![0, 0], vec![2, 2])
    );
    assert!(matches!(
        StoneRows::all((2, 40), (1, 5)),
        Err(RowsError::TooMany { base: 5, len: 15 })
    ));
    let a = StoneRows::random(10, 7, (2, 4), (-3, 3)).unwrap();
    let b = StoneRows::random(10, 7, (2, 4), (-3, 3)).unwrap();
    for i in 0..10 {
        let row = a.row(i);
        assert_eq!(row, b.row(i));
        assert!((2..=4).contains(&row.len()) && row.iter().all(|v| (-3..=3).contains(v)));
    }
    assert!(StoneRows::all((0, 2), (1, 2)).is_err());
    assert!(matches!(
        StoneRows::random(1, 1, (2_000_000_000, 2_000_000_000), (5, 5)),
        Err(RowsError::TooLong { .. })
    ));
    assert!(StoneRows::all((1, 2), (1, 1 << 41)).is_err());
}

proptest::proptest! {
    #[test]
    fn solvers_equal_minimax(piles in proptest::collection::vec(-20i64..40, 1..12), v in 1u8..4) {
        let variant = Variant::from_number(v).unwrap();
        // The published games have positive piles in I and II; the solvers are exact
        // for any values (the DPs never assume a sign), so the check uses both signs.
        let (r, _) = solve(variant, &piles, false).unwrap();
        proptest::prop_assert_eq!(r.margin, margin_by_minimax(variant, &piles));
    }
}

/// The strategist's margin by plain search: the first player's moves fixed by the
/// greedy rule, the second player's the best reply (the reference for the DP).
fn greedy_by_search(v: Variant, a: &[i64], i: usize, j: usize, m: usize, me: bool) -> i64 {
    if i >= j {
        return 0;
    }
    let options: Vec<(i64, usize, usize, usize)> = match v {
        Variant::I => vec![(a[i], i + 1, j, m), (a[j - 1], i, j - 1, m)],
        Variant::II => (1..=2 * m)
            .filter(|&x| i + x <= j)
            .map(|x| (a[i..i + x].iter().sum(), i + x, j, m.max(x)))
            .collect(),
        Variant::III => (1..=3)
            .filter(|&k| i + k <= j)
            .map(|k| (a[i..i + k].iter().sum(), i + k, j, m))
            .collect(),
    };
    if me {
        // greedy: the largest take, the first such (first pile / fewest piles)
        let best = options.iter().map(|o| o.0).max().unwrap();
        let o = options.iter().find(|o| o.0 == best).unwrap();
        o.0 + greedy_by_search(v, a, o.1, o.2, o.3, false)
    } else {
        options
            .iter()
            .map(|o| greedy_by_search(v, a, o.1, o.2, o.3, true) - o.0)
            .min()
            .unwrap()
    }
}

#[test]
fn greedy_against_the_best_reply() {
    // the classic: greedy takes an end of 2 and loses; best play wins
    let a = [2, 10, 1, 2, 10, 2];
    let (g, line) = score_strategy(Variant::I, &a, Strategy::Greedy, true).unwrap();
    let (best, _) = solve(Variant::I, &a, false).unwrap();
    assert!(g.margin < best.margin, "{g:?} {best:?}");
    assert_eq!(
        g.margin,
        greedy_by_search(Variant::I, &a, 0, a.len(), 1, true)
    );
    assert_eq!(line.len(), a.len());
    let mine: i64 = line
        .iter()
        .filter(|m| m.player == 1)
        .flat_map(|m| m.values.clone())
        .sum();
    assert_eq!(mine, g.first_total);
    let mut rnd = crate::num::xorshift(4242);
    for _ in 0..300 {
        let len = 1 + (rnd() % 9) as usize;
        let a: Vec<i64> = (0..len).map(|_| (rnd() % 11) as i64 - 3).collect();
        for v in [Variant::I, Variant::II, Variant::III] {
            let (g, line) = score_strategy(v, &a, Strategy::Greedy, true).unwrap();
            assert_eq!(
                g.margin,
                greedy_by_search(v, &a, 0, a.len(), 1, true),
                "{v:?} {a:?}"
            );
            assert!(g.margin <= margin_by_minimax(v, &a), "{v:?} {a:?}");
            let (p1, p2): (Vec<_>, Vec<_>) = line.iter().partition(|m| m.player == 1);
            let total = |ms: Vec<&StoneMove>| ms.iter().flat_map(|m| m.values.clone()).sum::<i64>();
            assert_eq!(
                (total(p1), total(p2)),
                (g.first_total, g.second_total),
                "{v:?} {a:?}"
            );
        }
    }
}
