//! The frames heaplab's tables are written from: the position table (`n`, `win`, `grundy`)
//! and the P-position list (`k`, `p`, `gap`, `prev`), built a chunk of rows at a time so any
//! N streams through bounded memory. Grundy columns use the smallest unsigned type that
//! holds the table's values.

use heaplab_core::{GrundyTable, OutcomeTable};
use polars::prelude::*;

/// The dtype of a Grundy column for this table: `UInt8`, `UInt16` or `UInt32`.
pub fn grundy_dtype(g: &GrundyTable) -> DataType {
    match g {
        GrundyTable::U8(_) => DataType::UInt8,
        GrundyTable::U16(_) => DataType::UInt16,
        GrundyTable::U32(_) => DataType::UInt32,
    }
}

/// Schema of the position table: `n` (u64), `win` (bool) and, with a Grundy column of
/// `grundy` type, `grundy`.
pub fn table_schema(grundy: Option<DataType>) -> Schema {
    let mut s = Schema::default();
    s.insert("n".into(), DataType::UInt64);
    s.insert("win".into(), DataType::Boolean);
    if let Some(t) = grundy {
        s.insert("grundy".into(), t);
    }
    s
}

/// Rows lo..hi of the position table: `n`, and `win` and `grundy` when given.
///
/// # Errors
/// From polars (or lo..hi beyond the tables: a panic).
pub fn table_frame(
    out: Option<&OutcomeTable>,
    grundy: Option<&GrundyTable>,
    lo: usize,
    hi: usize,
) -> PolarsResult<DataFrame> {
    let n: Vec<u64> = (lo as u64..hi as u64).collect();
    let mut cols = vec![Column::new("n".into(), n)];
    if let Some(o) = out {
        let win: Vec<bool> = o.bits()[lo..hi].iter().by_vals().collect();
        cols.push(Column::new("win".into(), win));
    }
    if let Some(g) = grundy {
        cols.push(value_column("grundy", g, lo, hi));
    }
    DataFrame::new(hi - lo, cols)
}

/// Rows lo..hi of a table of small values per heap (Grundy values, remoteness, birthday)
/// as the column `name`, in the table's own type ([`grundy_dtype`]).
///
/// # Panics
/// When lo..hi is beyond the table.
pub fn value_column(name: &str, t: &GrundyTable, lo: usize, hi: usize) -> Column {
    match t {
        GrundyTable::U8(v) => Column::new(name.into(), &v[lo..hi]),
        GrundyTable::U16(v) => Column::new(name.into(), &v[lo..hi]),
        GrundyTable::U32(v) => Column::new(name.into(), &v[lo..hi]),
    }
}

/// The misère columns of rows lo..hi of a position table: `genus` (the normalised genus,
/// `0^{120}`) and `phylum` (`tame`, `restive`, `restless`, `wild`), both strings.
///
/// # Panics
/// When lo..hi is beyond the table.
pub fn genus_columns(t: &heaplab_core::misere::GenusTable, lo: usize, hi: usize) -> Vec<Column> {
    let genus: Vec<String> = (lo..hi).map(|n| t.genus(n as u64).to_string()).collect();
    let phylum: Vec<&str> = (lo..hi).map(|n| t.phylum(n as u64).name()).collect();
    vec![
        Column::new("genus".into(), genus),
        Column::new("phylum".into(), phylum),
    ]
}

/// Which columns a P-position frame has besides `k` and `p`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoserColumns {
    /// `gap`: p minus the previous P-position (null for k = 0).
    pub gap: bool,
    /// `prev`: the previous P-position (null for k = 0).
    pub prev: bool,
}

/// Schema of a P-position frame: `k`, `p` and the chosen columns, all u64.
pub fn losers_schema(cols: LoserColumns) -> Schema {
    let mut s = Schema::default();
    for (name, on) in [
        ("k", true),
        ("p", true),
        ("gap", cols.gap),
        ("prev", cols.prev),
    ] {
        if on {
            s.insert(name.into(), DataType::UInt64);
        }
    }
    s
}

/// The P-positions `ps` (increasing) as rows: `k` from `k0`, `p`, and the chosen columns,
/// `prev` being the P-position before `ps[0]` (None when `ps[0]` is the first).
///
/// # Errors
/// From polars.
pub fn losers_frame(
    k0: u64,
    prev: Option<u64>,
    ps: &[u64],
    cols: LoserColumns,
) -> PolarsResult<DataFrame> {
    let n = ps.len();
    let mut out = vec![
        // (k0 + i, which the caller keeps within u64: the last index may be 2^64 - 1)
        Column::new(
            "k".into(),
            (0..n as u64).map(|i| k0 + i).collect::<Vec<u64>>(),
        ),
        Column::new("p".into(), ps),
    ];
    let before = |i: usize| if i == 0 { prev } else { Some(ps[i - 1]) };
    if cols.gap {
        let gaps: Vec<Option<u64>> = (0..n).map(|i| before(i).map(|q| ps[i] - q)).collect();
        out.push(Column::new("gap".into(), gaps));
    }
    if cols.prev {
        let prevs: Vec<Option<u64>> = (0..n).map(before).collect();
        out.push(Column::new("prev".into(), prevs));
    }
    DataFrame::new(n, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_carry_the_rows_and_the_smallest_grundy_type() {
        let g = GrundyTable::from_u32(vec![0, 1, 0, 2]);
        let o = g.outcomes();
        let df = table_frame(Some(&o), Some(&g), 1, 4).unwrap();
        assert_eq!(**df.schema(), table_schema(Some(grundy_dtype(&g))));
        assert_eq!(grundy_dtype(&g), DataType::UInt8);
        assert_eq!(df.column("grundy").unwrap().u8().unwrap().get(2), Some(2));
        let cols = LoserColumns {
            gap: true,
            prev: true,
        };
        let df = losers_frame(5, Some(10), &[12, 17], cols).unwrap();
        assert_eq!(**df.schema(), losers_schema(cols));
        let gap = df.column("gap").unwrap().u64().unwrap();
        assert_eq!((gap.get(0), gap.get(1)), (Some(2), Some(5)));
        let df = losers_frame(
            0,
            None,
            &[0, 2],
            LoserColumns {
                gap: true,
                prev: false,
            },
        );
        assert_eq!(
            df.unwrap().column("gap").unwrap().u64().unwrap().get(0),
            None
        );
    }
}
