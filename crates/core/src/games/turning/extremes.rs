//! Coin-turning games at their extremes: wide spans, heaps past what a run may list, the estimates that refuse them.

use crate::game::Game;

/// Huge coin counts, wide spans and fast-growing values: answers or clear errors,
/// never a panic or a runaway allocation.
#[test]
fn extreme_codes_answer_or_refuse() {
    for spec in [
        "turning{18446744073709551615}",
        "turning{1,4294967296}",
        "turning{1-1000}",
    ] {
        let g = Game::parse(spec).unwrap();
        let t = crate::grundy_table(&g, 12, &crate::observe::Silent).unwrap();
        assert_eq!(t.get(0), 0, "{spec}");
    }
    // a span of 100 coins at heap 2: answered at once, not estimated by listing
    let g = Game::parse("turning{1+C(100)}").unwrap();
    let p = crate::plan(&g, crate::Task::Grundy, 2, &crate::Budget::unlimited()).unwrap();
    assert!(p.seconds < 1.0);
}
