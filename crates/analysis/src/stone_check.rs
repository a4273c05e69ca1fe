//! Claims over stone-game rows: every row of some lengths and pile values (or random rows,
//! [`heaplab_core::StoneRows`]) is solved, and a claim in polars SQL over `len`, `sum`,
//! `margin`, `winner` and `first_total` is checked on each; the smallest counterexample
//! (shortest, then lexicographically least) is kept.

use crate::check::observe;
use crate::claim::Claim;
use crate::Error;
use heaplab_core::{
    pile_cap, solve, Budget, Observer, StoneError, StoneResult, StoneRows, Variant,
};
use polars::prelude::*;
use rayon::prelude::*;

/// Rows per chunk.
const CHUNK: u64 = 1 << 18;

/// The outcome of a stone-game check.
#[derive(Debug, Clone, PartialEq)]
pub struct StoneCheck {
    /// Rows checked.
    pub rows: u64,
    /// Rows where the claim is not true.
    pub failures: u64,
    /// The smallest failing row and its solution.
    pub smallest: Option<(Vec<i64>, StoneResult)>,
}

/// The columns a stone claim may name: `len`, `sum`, `margin`, `winner` ('first', 'second',
/// 'tie'), `first_total`.
pub fn stone_schema() -> Schema {
    let mut s = Schema::default();
    for (name, dt) in [
        ("len", DataType::UInt64),
        ("sum", DataType::Int64),
        ("margin", DataType::Int64),
        ("winner", DataType::String),
        ("first_total", DataType::Int64),
    ] {
        s.insert(name.into(), dt);
    }
    s
}

/// Checks `claim` on every row of `rows` under `variant`, after refusing work beyond the
/// budget and rows longer than the variant's solver takes.
///
/// # Errors
/// The claim's, the budget's and the solver's errors; cancellation by `obs`.
pub fn stone_check(
    variant: Variant,
    rows: &StoneRows,
    claim: &str,
    budget: &Budget,
    obs: &dyn Observer,
) -> Result<StoneCheck, Error> {
    let claim = Claim::new(claim, &stone_schema())?;
    let (total, longest) = (rows.len(), rows.longest());
    let seconds = rows.seconds(variant);
    if seconds > budget.seconds {
        return Err(heaplab_core::RowsError::TooSlow {
            rows: total,
            longest,
            seconds,
            limit: budget.seconds,
        }
        .into());
    }
    if let Some((limit, what)) = pile_cap(variant, false).filter(|&(cap, _)| longest > cap) {
        return Err(StoneError::TooMany {
            variant: variant.roman(),
            limit,
            what,
            len: longest,
        }
        .into());
    }
    let mut result = StoneCheck {
        rows: total,
        failures: 0,
        smallest: None,
    };
    let mut lo = 0u64;
    while lo < total {
        let hi = (lo + CHUNK).min(total);
        let f = claim.failures(chunk(variant, rows, lo, hi)?)?;
        result.failures += f.height() as u64;
        // the smallest failing row of this chunk (shortest, then least), if smaller
        let idx = f.column("i")?.u64()?;
        let best = (0..f.height())
            .filter_map(|k| idx.get(k))
            .map(|i| rows.row(i))
            .chain(result.smallest.take().map(|s| s.0))
            .min_by(|x, y| x.len().cmp(&y.len()).then(x.cmp(y)));
        if let Some(row) = best {
            let (r, _) = solve(variant, &row, false)?;
            result.smallest = Some((row, r));
        }
        observe(obs, hi, total)?;
        lo = hi;
    }
    Ok(result)
}

/// Rows lo..hi solved, as a frame with the row index `i` and the claim's columns.
fn chunk(variant: Variant, rows: &StoneRows, lo: u64, hi: u64) -> Result<DataFrame, Error> {
    let solved: Vec<(u64, StoneResult)> = (lo..hi)
        .into_par_iter()
        .map(|i| {
            let row = rows.row(i);
            solve(variant, &row, false).map(|(r, _)| (row.len() as u64, r))
        })
        .collect::<Result<_, StoneError>>()?;
    let col = |f: fn(&StoneResult) -> i64| solved.iter().map(|s| f(&s.1)).collect::<Vec<_>>();
    Ok(DataFrame::new(
        solved.len(),
        vec![
            Column::new("i".into(), (lo..hi).collect::<Vec<u64>>()),
            Column::new("len".into(), solved.iter().map(|s| s.0).collect::<Vec<_>>()),
            Column::new("sum".into(), col(|r| r.first_total + r.second_total)),
            Column::new("margin".into(), col(|r| r.margin)),
            Column::new(
                "winner".into(),
                solved.iter().map(|s| s.1.winner.name()).collect::<Vec<_>>(),
            ),
            Column::new("first_total".into(), col(|r| r.first_total)),
        ],
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use heaplab_core::Silent;

    #[test]
    fn even_rows_of_odd_sum_are_the_counterexamples() {
        let rows = StoneRows::all((2, 6), (1, 3)).unwrap();
        let b = Budget::new(1 << 30);
        let c = stone_check(Variant::I, &rows, "winner = 'first'", &b, &Silent).unwrap();
        assert_eq!(c.rows, 9 + 27 + 81 + 243 + 729);
        // the smallest row the first player does not win: a tie
        let (row, r) = c.smallest.unwrap();
        assert_eq!((row, r.winner.name()), (vec![1, 1], "tie"));
        // with an even number of piles the first player never loses (take every pile of
        // one parity)
        let ok = "NOT (len % 2 = 0) OR winner <> 'second'";
        assert_eq!(
            stone_check(Variant::I, &rows, ok, &b, &Silent)
                .unwrap()
                .failures,
            0
        );
    }
}
