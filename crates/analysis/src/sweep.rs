//! Sweeps: one analysis row per game of a family ([`heaplab_core::Space`]), the games run in
//! parallel.

use crate::record::{analyze, analyze_unchecked, check, Analysis};
use crate::Error;
use heaplab_core::{time_estimate, Budget, Game, Observer, Refusal, Sequence, Space, Task};
#[cfg(feature = "polars")]
use polars::prelude::*;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// One row of a sweep: the parameter's value, the game, and its analysis in brief.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepRow {
    /// The parameter's value.
    pub value: u64,
    /// The game's canonical spec.
    pub game: String,
    /// Preperiod of the Grundy values (when periodic).
    pub preperiod: Option<u64>,
    /// Period.
    pub period: Option<u64>,
    /// Saltus.
    pub saltus: Option<i64>,
    /// Whether the period is proven.
    pub certified: bool,
    /// P-positions in 0..=N.
    pub p_positions: u64,
    /// The largest Grundy value.
    pub max_grundy: Option<u64>,
}

impl SweepRow {
    /// The row of `value` from an analysis of its game's Grundy values.
    pub fn of(value: u64, a: &Analysis) -> SweepRow {
        let p = a.periodicity.as_ref();
        SweepRow {
            value,
            game: a.game.clone(),
            preperiod: p.map(|p| p.preperiod),
            period: p.map(|p| p.period),
            saltus: p.map(|p| p.saltus),
            certified: p.is_some_and(|p| p.certified),
            p_positions: a.p_positions.count,
            max_grundy: a.grundy.as_ref().map(|g| u64::from(g.max)),
        }
    }
}

/// The sweep row of one game: its Grundy values over 0..=max analysed.
///
/// # Errors
/// As [`analyze`].
pub fn sweep_row(
    value: u64,
    game: &Game,
    max: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<SweepRow, Error> {
    let a = analyze(game, max, Sequence::Grundy, budget, obs)?;
    Ok(SweepRow::of(value, &a.analysis))
}

/// Every row of `space` over 0..=max, in the space's order, the games analysed in parallel
/// (rayon). Checked first: every game within the budget's memory with one analysis per
/// thread, each within its work, and all together within the budget's work.
///
/// # Errors
/// The space's first bad spec, the first refusal, or a cancellation by `obs`.
pub fn sweep(
    space: &Space,
    max: u64,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<Vec<SweepRow>, Error> {
    let games = space.games()?;
    let threads = rayon::current_num_threads() as u64;
    let each = Budget {
        memory: budget.memory / threads.max(1),
        ..*budget
    };
    for (_, g) in &games {
        check(g, max, Sequence::Grundy, &each)?;
    }
    let total: f64 = games
        .iter()
        .map(|(_, g)| time_estimate(g, Task::Grundy, max))
        .sum::<f64>()
        / threads.max(1) as f64;
    budget
        .check_time(
            || format!("the sweep's {} games to N = {max}", games.len()),
            total,
        )
        .map_err(|r: Refusal| heaplab_core::Error::from(r))?;
    games
        .into_par_iter()
        .map(|(v, g)| {
            let a = analyze_unchecked(&g, max, Sequence::Grundy, obs)?;
            Ok(SweepRow::of(v, &a.analysis))
        })
        .collect()
}

#[cfg(feature = "polars")]
/// The rows as a frame: the parameter's column (named `name`), then `game`, `preperiod`,
/// `period`, `saltus`, `certified`, `p_positions`, `max_grundy`.
///
/// # Errors
/// From polars.
pub fn sweep_frame(rows: &[SweepRow], name: &str) -> PolarsResult<DataFrame> {
    let col = |f: fn(&SweepRow) -> Option<u64>| rows.iter().map(f).collect::<Vec<_>>();
    DataFrame::new(
        rows.len(),
        vec![
            Column::new(
                name.into(),
                rows.iter().map(|r| r.value).collect::<Vec<_>>(),
            ),
            Column::new(
                "game".into(),
                rows.iter().map(|r| r.game.clone()).collect::<Vec<_>>(),
            ),
            Column::new("preperiod".into(), col(|r| r.preperiod)),
            Column::new("period".into(), col(|r| r.period)),
            Column::new(
                "saltus".into(),
                rows.iter().map(|r| r.saltus).collect::<Vec<_>>(),
            ),
            Column::new(
                "certified".into(),
                rows.iter().map(|r| r.certified).collect::<Vec<_>>(),
            ),
            Column::new("p_positions".into(), col(|r| Some(r.p_positions))),
            Column::new("max_grundy".into(), col(|r| r.max_grundy)),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use heaplab_core::Silent;

    #[test]
    fn rows_follow_the_space_and_match_single_rows() {
        let space = Space::parse("sub{1,k}", "k=2..5").unwrap();
        let b = Budget::new(1 << 30);
        let rows = sweep(&space, 200, &b, &Silent).unwrap();
        assert_eq!(rows.len(), 4);
        for (r, (v, g)) in rows.iter().zip(space.games().unwrap()) {
            assert_eq!(*r, sweep_row(v, &g, 200, &b, &Silent).unwrap());
        }
        // sub{1,2}: period 3 from 0, proven
        assert_eq!((rows[0].period, rows[0].certified), (Some(3), true));
        let df = sweep_frame(&rows, "k").unwrap();
        assert_eq!(df.height(), 4);
        assert_eq!(df.get_column_names()[0].as_str(), "k");
    }
}
