//! Per-game censuses of finite subtraction sets at bit speed: every item of a space (any
//! number, streamed in chunks, never all held), its outcome period under normal or misère
//! play and, when asked, its Grundy period, each proven by a repeated window
//! ([`crate::census::window`]).
//!
//! **Classes.** A set with a common factor k is computed as its primitive set S / k, whose
//! values give the item's exactly: v_{kS}(n) = v_S(⌊n/k⌋) for outcomes under either play
//! and for Grundy values (Winning Ways, ch. 4). So the item's preperiod is k·μ, its period
//! k·p (1 when p = 1), and it holds k times the P-positions of a period of S.

use super::window::{grundy_period, outcome_period, WindowPeriod};
use super::{CensusError, CensusSpace, Walked};
use crate::game::Game;
use crate::games::finite::gcd;
use crate::moves::{Moves, Play};
use rayon::prelude::*;

/// What a per-game census computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameCensusOptions {
    /// Normal or misère play (outcomes).
    pub play: Play,
    /// Grundy periods too (normal play).
    pub grundy: bool,
    /// Positions a game may compute before its row says `none` (at most
    /// [`super::window::WINDOW_LIMIT`]).
    pub limit: u64,
    /// Items per chunk (the unit of streaming, resuming and sharding).
    pub chunk: u64,
}

impl Default for GameCensusOptions {
    /// Normal play, outcomes only, 2^24 positions a game, chunks of 2^16 items.
    fn default() -> Self {
        GameCensusOptions {
            play: Play::Normal,
            grundy: false,
            limit: 1 << 24,
            chunk: 1 << 16,
        }
    }
}

/// One game's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    /// Its index in the space.
    pub item: u64,
    /// Its template (index into [`CensusSpace::games`]).
    pub template: usize,
    /// Its parameters' values (names: [`CensusSpace::parameter_names`] of its template).
    pub values: Vec<u64>,
    /// Its moves, increasing.
    pub moves: Vec<u64>,
    /// The common factor divided out (1: the set is primitive).
    pub scale: u64,
    /// Its outcome period (None: not found within the limit).
    pub outcome: Option<WindowPeriod>,
    /// Its Grundy period, when asked and found.
    pub grundy: Option<WindowPeriod>,
}

impl GameRow {
    /// The game's spec, `sub{3,5,8}`.
    pub fn spec(&self) -> String {
        set_spec(&self.moves, 1)
    }
    /// Its class: the primitive set, `sub{1,2,3}` for `sub{2,4,6}`.
    pub fn class(&self) -> String {
        set_spec(&self.moves, self.scale)
    }
}

fn set_spec(moves: &[u64], k: u64) -> String {
    let m: Vec<String> = moves.iter().map(|s| (s / k).to_string()).collect();
    format!("sub{{{}}}", m.join(","))
}

/// The period of v(⌊n/k⌋) from the period `w` of v.
fn scaled(w: WindowPeriod, k: u64) -> WindowPeriod {
    if k == 1 {
        return w;
    }
    let (period, per) = if w.period == 1 {
        (1, w.p_per_period)
    } else {
        (w.period * k, w.p_per_period * k)
    };
    WindowPeriod {
        preperiod: w.preperiod * k,
        period,
        repeat_at: w.repeat_at * k,
        computed: (w.computed + 1) * k - 1,
        p_per_period: per,
        p_before: w.p_before * k,
        max_value: w.max_value,
    }
}

/// The finite subtraction set of a spec, or why a window census cannot run it.
fn moves_of(spec: &str, item: u64) -> Result<Vec<u64>, CensusError> {
    let game = Game::parse(spec).map_err(|error| CensusError::Spec {
        item,
        spec: spec.to_string(),
        error,
        hint: String::new(),
    })?;
    if game.play() == Play::Misere {
        return Err(CensusError::Syntax(format!(
            "item {item} (`{spec}`) is a misère game: write the set alone and give the play \
             of the whole census (--play misere; Python: play=\"misere\")"
        )));
    }
    match game.structure().moves {
        Moves::Finite {
            moves,
            leave1: false,
        } if !moves.is_empty() => Ok(moves),
        _ => Err(CensusError::Syntax(format!(
            "item {item} (`{spec}`) is not a finite subtraction set: a per-game census runs \
             sets such as sub{{a,b,c}} only"
        ))),
    }
}

/// The row of one item.
fn row_of(it: &Pending, opts: &GameCensusOptions) -> Result<GameRow, CensusError> {
    let moves = moves_of(&it.spec, it.item)?;
    let k = moves.iter().fold(0, |g, &s| gcd(g, s));
    let prim: Vec<u64> = moves.iter().map(|s| s / k).collect();
    let outcome = outcome_period(&prim, opts.play, opts.limit).map(|w| scaled(w, k));
    let grundy = if opts.grundy {
        grundy_period(&prim, opts.limit).map(|w| scaled(w, k))
    } else {
        None
    };
    Ok(GameRow {
        item: it.item,
        template: it.template,
        values: it.values.clone(),
        moves,
        scale: k,
        outcome,
        grundy,
    })
}

struct Pending {
    item: u64,
    template: usize,
    values: Vec<u64>,
    spec: String,
}

/// Runs the per-game census of `space`: items in chunks of `opts.chunk` (chunk i holds
/// items i·chunk..), those chunks `wanted` accepts computed on every core, and each
/// finished chunk handed to `done` in order, with its index. Returns the number of items
/// in the space.
///
/// # Errors
/// An item that is not a finite subtraction set, a space that cannot be enumerated, or
/// `done`'s error (which stops the run).
pub fn game_census(
    space: &CensusSpace,
    opts: &GameCensusOptions,
    wanted: &(dyn Fn(u64) -> bool + Sync),
    done: &mut dyn FnMut(u64, Vec<GameRow>) -> Result<(), CensusError>,
) -> Result<u64, CensusError> {
    let chunk = opts.chunk.max(1);
    // the walk (serial) fills the next chunk while every core computes this one
    let (tx, rx) = std::sync::mpsc::sync_channel::<(u64, Vec<Pending>)>(2);
    std::thread::scope(|scope| {
        let walker = scope.spawn(move || -> Result<u64, CensusError> {
            let mut buf: Vec<Pending> = vec![];
            let mut current = 0u64;
            let mut total = 0u64;
            space.walk(&mut |it: Walked<'_>| {
                total = it.index + 1;
                let c = it.index / chunk;
                if c != current {
                    if !buf.is_empty() && tx.send((current, std::mem::take(&mut buf))).is_err() {
                        // the computing side stopped: its error is the one to report
                        return Err(CensusError::Syntax("stopped".into()));
                    }
                    current = c;
                }
                if wanted(c) {
                    buf.push(Pending {
                        item: it.index,
                        template: it.template,
                        values: it.values.to_vec(),
                        spec: it.spec.to_string(),
                    });
                }
                Ok(())
            })?;
            if !buf.is_empty() {
                let _ = tx.send((current, buf));
            }
            Ok(total)
        });
        let mut failed: Option<CensusError> = None;
        for (index, buf) in rx.iter() {
            let rows = buf
                .par_iter()
                .map(|it| row_of(it, opts))
                .collect::<Result<Vec<_>, _>>()
                .and_then(|rows| done(index, rows));
            if let Err(e) = rows {
                failed = Some(e);
                break;
            }
        }
        drop(rx);
        let walked = walker.join().expect("the walk does not panic");
        if let Some(e) = failed {
            return Err(e);
        }
        match walked? {
            0 => Err(CensusError::Empty),
            total => Ok(total),
        }
    })
}

/// What a per-game census needs to know of its space before computing: how many items it
/// holds, and the most moves any of them has (so every chunk's file has the same columns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpaceCount {
    /// Items in the space.
    pub items: u64,
    /// The most moves of any item's set.
    pub most_moves: usize,
}

/// How many items `space` holds and their most moves, enumerating them without computing
/// (any number), each checked to be a finite subtraction set in normal play as
/// [`game_census`] needs.
///
/// # Errors
/// As [`CensusSpace::walk`]; [`CensusError::Empty`] for none; the first item that is not
/// a finite subtraction set, or is written as a misère game.
pub fn count_items(space: &CensusSpace) -> Result<SpaceCount, CensusError> {
    let mut n = 0u64;
    let mut most = 0usize;
    space.walk(&mut |w| {
        // every item checked before any is computed: a bad one refuses the whole census
        most = most.max(moves_of(w.spec, w.index)?.len());
        n += 1;
        Ok(())
    })?;
    if n == 0 {
        return Err(CensusError::Empty);
    }
    Ok(SpaceCount {
        items: n,
        most_moves: most,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn space(w: &str) -> CensusSpace {
        CensusSpace::parse(&["sub{a,b,c}".to_string()], &[], w).unwrap()
    }

    #[test]
    fn scaled_sets_equal_their_own_computation() {
        // every set {a,b,c}, c <= 24, with a factor: the derived period equals the direct one
        let s = space("1 <= a < b < c <= 24");
        let mut checked = 0;
        for play in [Play::Normal, Play::Misere] {
            let opts = GameCensusOptions {
                play,
                grundy: true,
                chunk: 100,
                ..GameCensusOptions::default()
            };
            game_census(&s, &opts, &|_| true, &mut |_, rows| {
                for r in rows.iter().filter(|r| r.scale > 1) {
                    let direct = outcome_period(&r.moves, play, 1 << 24).unwrap();
                    let o = r.outcome.unwrap();
                    assert_eq!(
                        (o.preperiod, o.period, o.p_per_period, o.p_before),
                        (
                            direct.preperiod,
                            direct.period,
                            direct.p_per_period,
                            direct.p_before
                        ),
                        "{:?}",
                        r.moves
                    );
                    let g = grundy_period(&r.moves, 1 << 24).unwrap();
                    let rg = r.grundy.unwrap();
                    assert_eq!(
                        (rg.preperiod, rg.period, rg.p_per_period, rg.max_value),
                        (g.preperiod, g.period, g.p_per_period, g.max_value)
                    );
                    checked += 1;
                }
                Ok(())
            })
            .unwrap();
        }
        assert!(checked > 300, "{checked}");
    }

    #[test]
    fn chunks_come_in_order_and_skip_what_is_not_wanted() {
        let s = space("1 <= a < b < c <= 12");
        assert_eq!(
            count_items(&s).unwrap(),
            SpaceCount {
                items: 220,
                most_moves: 3
            }
        );
        let opts = GameCensusOptions {
            chunk: 50,
            ..GameCensusOptions::default()
        };
        let mut seen = vec![];
        let total = game_census(&s, &opts, &|c| c % 2 == 1, &mut |i, rows| {
            assert!(rows.iter().all(|r| r.item / 50 == i));
            seen.push((i, rows.len(), rows[0].values.clone()));
            Ok(())
        })
        .unwrap();
        assert_eq!(total, 220);
        assert_eq!(seen.len(), 2);
        assert_eq!((seen[0].0, seen[0].1, seen[1].0, seen[1].1), (1, 50, 3, 50));
        // item 50 in the order a, b, c (c fastest)
        assert_eq!(seen[0].2, vec![1, 9, 11]);
    }

    #[test]
    fn other_games_are_refused_by_name() {
        let s = CensusSpace::parse(&["0.?".to_string()], &[], "").unwrap();
        let e = game_census(&s, &GameCensusOptions::default(), &|_| true, &mut |_, _| {
            Ok(())
        })
        .unwrap_err();
        assert!(
            e.to_string().contains("not a finite subtraction set"),
            "{e}"
        );
    }
}
