//! The analysis record of Kayles (0.77) to 300: `cargo run --example analysis_kayles`.
//!
//! Prints the readable summary and the record as JSON: the Grundy values are periodic with
//! period 12 after 71 exceptions, proven by the Guy–Smith theorem.
use heaplab_analysis::analyze;
use heaplab_core::{Budget, Game, Sequence, Silent};

fn main() {
    let kayles = Game::parse("0.77").expect("a valid spec");
    let data = analyze(
        &kayles,
        300,
        Sequence::Grundy,
        &Budget::new(1 << 30),
        &Silent,
    )
    .expect("300 positions fit any budget");
    print!("{}", data.analysis.text());
    println!(
        "{}",
        serde_json::to_string_pretty(&data.analysis).expect("the record serialises")
    );
}
