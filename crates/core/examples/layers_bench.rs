//! Times the layer engine on a subtraction game: `layers_bench SPEC N [check]`. Prints the
//! largest value and seconds; with `check`, runs the blocked mex too and compares.
use heaplab_core::engines::dense_subtraction;
use heaplab_core::{parse_count, Engine, Game, Silent};
use std::time::Instant;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let game = Game::parse(&a[1]).unwrap();
    let n = parse_count(&a[2]).unwrap();
    let Game::Subtraction { set, leave1 } = &*game.normalized() else {
        panic!("a subtraction game")
    };
    let moves = set.elements_upto(n);
    let t = Instant::now();
    let g = dense_subtraction(Engine::LayeredMex, &moves, *leave1, n, &Silent)
        .unwrap()
        .unwrap();
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{} N={n} moves={} max_grundy={} seconds={secs:.3}",
        a[1],
        moves.len(),
        g.iter().max().unwrap()
    );
    if a.get(3).is_some_and(|x| x == "check") {
        let t = Instant::now();
        let other = dense_subtraction(Engine::BlockedMex, &moves, *leave1, n, &Silent)
            .unwrap()
            .unwrap();
        println!(
            "blocked mex: seconds={:.3} equal={}",
            t.elapsed().as_secs_f64(),
            other == g
        );
    }
}
