//! Sweep rows of the subtraction games sub{1,2,k}: `cargo run --example sweep_row`.
//!
//! One row by itself (k = 4), then the whole family k = 3..=10 in parallel, each with its
//! period, whether it is proven, the P-positions to N and the largest Grundy value.
use heaplab_analysis::{sweep, sweep_row};
use heaplab_core::{Budget, Game, Silent, Space};

fn main() {
    let budget = Budget::new(1 << 30);
    let one = sweep_row(
        4,
        &Game::parse("sub{1,2,4}").unwrap(),
        1000,
        &budget,
        &Silent,
    )
    .expect("a small game fits");
    println!("{one:?}");
    let space = Space::parse("sub{1,2,k}", "k=3..10").expect("a valid family");
    for row in sweep(&space, 1000, &budget, &Silent).expect("small games fit") {
        println!(
            "k = {:>2}  {:<12} period {:?} from {:?}, proven {}, {} P-positions, largest g {:?}",
            row.value,
            row.game,
            row.period,
            row.preperiod,
            row.certified,
            row.p_positions,
            row.max_grundy
        );
    }
}
