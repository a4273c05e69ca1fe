//! The growth exponent of subtract-a-square's P-positions (Eppstein, FUN 2018, reports
//! count(<= n) ≈ 0.9·n^0.7), fitted on the P-positions up to 10^8.

use heaplab_analysis::{growth_fit, Law};
use heaplab_core::engines::{p_positions, SquareMoves};

#[test]
fn squares_grow_like_n_to_the_0_7() {
    let n = 100_000_000;
    let ps = p_positions(SquareMoves::new(n), n, false);
    assert_eq!(ps.len(), 346_814); // sas_seg baseline count for [0, 10^8]
    let f = growth_fit(&ps, n).unwrap();
    assert_eq!(f.law, Law::Power);
    let (c, alpha) = (f.c, f.alpha);
    assert!((0.68..=0.72).contains(&alpha), "alpha = {alpha}");
    assert!((0.5..=1.5).contains(&c), "c = {c}");
    assert!(f.close(), "{f:?}");
}
