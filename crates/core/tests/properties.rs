//! Property tests: every fast engine against the slow obvious evaluation by definition, on
//! random games (random finite sets, all-but sets and unions; N <= 2000).

use heaplab_core::{
    grundy_by_definition, grundy_table, open_stream, outcome_by_definition, outcome_table, Game,
    Silent,
};
use proptest::prelude::*;

fn check(spec: &str, max: u64) -> Result<(), TestCaseError> {
    let g = Game::parse(spec).map_err(|e| TestCaseError::fail(e.to_string()))?;
    // the canonical form parses back to the same game
    prop_assert_eq!(Game::parse(&g.to_string()).unwrap(), g.clone());
    let win = outcome_by_definition(&g, max);
    let t = outcome_table(&g, max, &Silent).unwrap();
    for n in 0..=max {
        prop_assert_eq!(t.is_win(n), win[n as usize], "{} outcome at {}", spec, n);
    }
    let mut s = open_stream(&g, max, &Silent).unwrap();
    let mut ps = vec![];
    while s.advance(&mut ps) {}
    let expect: Vec<u64> = (0..=max).filter(|&n| !win[n as usize]).collect();
    prop_assert_eq!(ps, expect, "{} P-positions", spec);
    let gt = grundy_table(&g, max, &Silent).unwrap();
    prop_assert_eq!(
        gt.to_u32_vec(),
        grundy_by_definition(&g, max),
        "{} Grundy",
        spec
    );
    Ok(())
}

fn list(v: &[u64]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

const NAMED: [&str; 8] = [
    "squares",
    "cubes",
    "triangular",
    "fibonacci",
    "primes",
    "powers2",
    "factorials",
    "practical",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_finite_sets(moves in prop::collection::vec(1u64..40, 1..7), leave1: bool) {
        let spec = format!("sub{{{}}}", list(&moves));
        let spec = if leave1 { format!("leave1({spec})") } else { spec };
        check(&spec, 2000)?;
    }

    #[test]
    fn random_all_but_sets(excl in prop::collection::vec(1u64..25, 1..6), leave1: bool) {
        let spec = format!("allbut{{{}}}", list(&excl));
        let spec = if leave1 { format!("leave1({spec})") } else { spec };
        check(&spec, 600)?;
    }

    #[test]
    fn random_unions(
        named in prop::collection::vec(0usize..8, 1..3),
        extra in prop::collection::vec(1u64..30, 0..4),
        leave1: bool,
    ) {
        let mut parts: Vec<String> = named.iter().map(|&i| NAMED[i].to_string()).collect();
        if !extra.is_empty() {
            parts.push(format!("sub{{{}}}", list(&extra)));
        }
        let spec = parts.join("|");
        let spec = if leave1 { format!("leave1({spec})") } else { spec };
        check(&spec, 1500)?;
    }
}
