//! Times the layer engine on a subtraction game: `layers_bench SPEC N [check]`. Prints the
//! largest value and seconds; with `check`, compares with the engine `grundy_table` picks.
use heaplab_core::engines::layered_subtraction;
use heaplab_core::{grundy_table, parse_count, Game, Silent};
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
    let g = layered_subtraction(&moves, *leave1, n, &Silent)
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
        let other = grundy_table(&game, n, &Silent).unwrap();
        let same = (0..=n).all(|x| other.get(x) == u32::from(g[x as usize]));
        println!(
            "grundy_table: {:.3} s, equal: {same}",
            t.elapsed().as_secs_f64()
        );
    }
}
