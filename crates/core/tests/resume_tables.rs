//! Grundy tables continued from a saved prefix ([`heaplab_core::grundy_table_after`]) equal
//! the tables of an uninterrupted run, for every family that can resume, with cuts at
//! random places (inside the plain-scan prefix of the take-and-break engine, inside a
//! block, at powers of two) and in several segments.
use heaplab_core::{grundy_resumable, grundy_table, grundy_table_after, Game, GrundyTable, Silent};
use proptest::prelude::*;

fn table(spec: &str, max: u64) -> GrundyTable {
    grundy_table(&Game::parse(spec).unwrap(), max, &Silent).unwrap()
}

/// The table to `max` made in segments ending at each of `cuts` (increasing, below max).
fn in_segments(spec: &str, cuts: &[u64], max: u64) -> GrundyTable {
    let game = Game::parse(spec).unwrap();
    let mut done = grundy_table(&game, cuts[0], &Silent).unwrap();
    for &c in cuts[1..].iter().chain([&max]) {
        done = grundy_table_after(&game, done, c, &Silent).unwrap();
    }
    done
}

const GAMES: [&str; 9] = [
    "0.167",
    "0.6",
    "0.034",
    "grundy-game",
    "4.07",
    "sub{1,3,4}",
    "squares",
    "primes",
    "primes|sub{1}",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn continued_tables_equal_uninterrupted_ones(
        game in 0..GAMES.len(),
        mut cuts in proptest::collection::vec(0u64..20_000, 1..4),
    ) {
        let max = 20_000;
        cuts.sort_unstable();
        cuts.dedup();
        let spec = GAMES[game];
        prop_assert_eq!(in_segments(spec, &cuts, max), table(spec, max), "{} cut at {:?}", spec, cuts);
    }
}

#[test]
fn segments_at_powers_of_two_past_the_sparse_prefix() {
    // 0.6 (Officers) uses its mask from 3001 and rechecks it at 4096, 8192, ...; 0.16 has a
    // period that the engine proves and copies.
    for spec in ["0.6", "0.16", "grundy-game", "squares"] {
        assert_eq!(
            in_segments(spec, &[4096, 8192, 50_000], 70_000),
            table(spec, 70_000),
            "{spec}"
        );
    }
}

#[test]
fn only_resumable_families_continue() {
    for spec in [
        "0.77",
        "grundy-game",
        "sub{2,5}",
        "primes",
        "squares|sub{1}",
    ] {
        assert!(grundy_resumable(&Game::parse(spec).unwrap()), "{spec}");
    }
    for spec in ["allbut{1,2}", "divisors", "misere(0.77)"] {
        let game = Game::parse(spec).unwrap();
        assert!(!grundy_resumable(&game), "{spec}");
        let done = grundy_table(&game, 10, &Silent).unwrap();
        let err = grundy_table_after(&game, done, 20, &Silent).unwrap_err();
        assert!(
            err.to_string().contains("continuing a saved Grundy table"),
            "{err}"
        );
    }
}

/// Where the layer engine runs (primes past about 2.5·10^5), a continued table is made
/// again from 0 and still equals the uninterrupted one; below, the blocked mex continues.
#[test]
fn dense_sets_resume_through_the_layer_engine() {
    use heaplab_core::{grundy_continues, Engine, Task};
    let game = Game::parse("primes").unwrap();
    let max = 400_000;
    assert_eq!(
        Engine::for_size(&game, Task::Grundy, max),
        Engine::LayeredMex
    );
    assert!(!grundy_continues(&game, max));
    assert!(grundy_continues(&game, 10_000));
    let whole = table("primes", max);
    assert_eq!(whole.max_value(), 11);
    assert_eq!(in_segments("primes", &[5_000, 131_072], max), whole);
    // the first values as published (A014589: 0, 0, 1, 1, 2, 2, 3, 3, 4, 0, 0, 1, 1, 2)
    let head: Vec<u32> = (0..14).map(|n| whole.get(n)).collect();
    assert_eq!(head, [0, 0, 1, 1, 2, 2, 3, 3, 4, 0, 0, 1, 1, 2]);
}
