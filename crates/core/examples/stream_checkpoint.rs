//! A P-position stream with a checkpoint: `cargo run --example stream_checkpoint`.
//!
//! Lists the P-positions of subtract-a-square up to 10^8, saves a checkpoint after the
//! first segments (as JSON, as a long run would every few minutes), resumes a new stream
//! from it and checks that the two halves make the same list as one uninterrupted run.
use heaplab_core::{open_stream, resume_stream, Checkpoint, Game, Silent};

fn main() {
    let squares = Game::parse("squares").expect("a valid spec");
    let max = 100_000_000;
    let mut first = Vec::new();
    let mut s = open_stream(&squares, max, &Silent).expect("the sieve opens");
    for _ in 0..3 {
        s.advance(&mut first);
    }
    let saved = serde_json::to_string(&s.checkpoint()).expect("a checkpoint serialises");
    println!(
        "checkpoint after {} P-positions (positions below {} decided): {} bytes",
        s.count(),
        s.done(),
        saved.len()
    );
    drop(s);

    let cp: Checkpoint = serde_json::from_str(&saved).expect("the checkpoint reads back");
    let mut rest = Vec::new();
    let mut r = resume_stream(cp, &Silent).expect("the stream resumes");
    while r.advance(&mut rest) {}
    println!(
        "resumed: {} P-positions in all, the largest {}",
        r.count(),
        r.last().unwrap_or(0)
    );

    let mut whole = Vec::new();
    let mut w = open_stream(&squares, max, &Silent).expect("the sieve opens");
    while w.advance(&mut whole) {}
    first.extend(rest);
    assert_eq!(first, whole, "resumed run equals the uninterrupted one");
    println!("the resumed list equals an uninterrupted run");
}
