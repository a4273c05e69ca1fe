//! Row files through polars: the position table (`n`, `win`, `grundy`) and the P-position
//! list (`k`, `p`, `gap`), written in fixed-size batches so any N streams through bounded
//! memory, as CSV, Parquet or OEIS b-file.

use crate::util::Format;
use anyhow::Result;
use heaplab_core::{GrundyTable, OutcomeTable};
use polars::prelude::*;
use polars_io::csv::write::{BatchedWriter as CsvBatched, CsvWriter};
use polars_io::parquet::write::{BatchedWriter as PqBatched, ParquetWriter};
use polars_io::SerWriter;
use std::io::Write;

/// Rows per batch (and per Parquet row group) of every row file.
pub const BATCH_ROWS: usize = 1 << 20;

/// A batched writer of one of the formats.
pub enum RowWriter<W: Write> {
    /// CSV (or b-file: space separated, no header).
    Csv(CsvBatched<W>),
    /// Parquet.
    Parquet(Box<PqBatched<W>>),
}

impl<W: Write + Send> RowWriter<W> {
    /// A writer for `format` with this schema; `header` is false when appending to a CSV
    /// that already has one.
    pub fn new(w: W, format: Format, schema: &Schema, header: bool) -> Result<RowWriter<W>> {
        Ok(match format {
            Format::Csv => {
                RowWriter::Csv(CsvWriter::new(w).include_header(header).batched(schema)?)
            }
            Format::Bfile => RowWriter::Csv(
                CsvWriter::new(w)
                    .include_header(false)
                    .with_separator(b' ')
                    .batched(schema)?,
            ),
            Format::Parquet => RowWriter::Parquet(Box::new(ParquetWriter::new(w).batched(schema)?)),
        })
    }

    /// Writes one batch.
    pub fn write(&mut self, df: &DataFrame) -> Result<()> {
        match self {
            RowWriter::Csv(w) => w.write_batch(df)?,
            RowWriter::Parquet(w) => w.write_batch(df)?,
        }
        Ok(())
    }

    /// Finishes the file (header of an empty CSV, Parquet footer).
    pub fn finish(mut self) -> Result<()> {
        match &mut self {
            RowWriter::Csv(w) => w.finish()?,
            RowWriter::Parquet(w) => {
                w.finish()?;
            }
        }
        Ok(())
    }
}

/// Schema of the position table.
pub fn table_schema(with_grundy: bool) -> Schema {
    let mut s = Schema::default();
    s.insert("n".into(), DataType::UInt64);
    s.insert("win".into(), DataType::Boolean);
    if with_grundy {
        s.insert("grundy".into(), DataType::UInt32);
    }
    s
}

/// Rows lo..hi of the position table as a DataFrame.
pub fn table_frame(
    out: &OutcomeTable,
    grundy: Option<&GrundyTable>,
    lo: usize,
    hi: usize,
) -> Result<DataFrame> {
    let n: Vec<u64> = (lo as u64..hi as u64).collect();
    let win: Vec<bool> = out.bits()[lo..hi].iter().by_vals().collect();
    let mut cols = vec![Column::new("n".into(), n), Column::new("win".into(), win)];
    if let Some(g) = grundy {
        cols.push(Column::new("grundy".into(), g.slice_u32(lo, hi)));
    }
    Ok(DataFrame::new(hi - lo, cols)?)
}

/// Writes the whole position table in batches.
pub fn write_table<W: Write + Send>(
    w: W,
    format: Format,
    out: &OutcomeTable,
    grundy: Option<&GrundyTable>,
) -> Result<()> {
    let mut wr = RowWriter::new(w, format, &table_schema(grundy.is_some()), true)?;
    let len = out.max() as usize + 1;
    let mut lo = 0;
    while lo < len {
        let hi = (lo + BATCH_ROWS).min(len);
        wr.write(&table_frame(out, grundy, lo, hi)?)?;
        lo = hi;
    }
    wr.finish()
}

/// Schema of the P-position list (b-files carry only `k` and `p`).
pub fn losers_schema(format: Format) -> Schema {
    let mut s = Schema::default();
    s.insert("k".into(), DataType::UInt64);
    s.insert("p".into(), DataType::UInt64);
    if format != Format::Bfile {
        s.insert("gap".into(), DataType::UInt64);
    }
    s
}

/// Accumulates P-positions into `k, p, gap` rows and writes them in batches of exactly
/// [`BATCH_ROWS`] rows (so the file depends only on the sequence, never on timing).
pub struct LoserRows<W: Write> {
    writer: Option<RowWriter<W>>,
    format: Format,
    /// Index of the next P-position.
    pub k: u64,
    /// The previous P-position.
    pub prev: Option<u64>,
    ks: Vec<u64>,
    ps: Vec<u64>,
    gaps: Vec<Option<u64>>,
}

impl<W: Write + Send> LoserRows<W> {
    /// A row sink over `w`; `k0`/`prev` continue an earlier run (resume), and `header` is
    /// false when the CSV file already has its header.
    pub fn new(w: W, format: Format, k0: u64, prev: Option<u64>, header: bool) -> Result<Self> {
        Ok(LoserRows {
            writer: Some(RowWriter::new(w, format, &losers_schema(format), header)?),
            format,
            k: k0,
            prev,
            ks: Vec::new(),
            ps: Vec::new(),
            gaps: Vec::new(),
        })
    }

    /// Adds P-positions (increasing).
    pub fn push(&mut self, ps: &[u64]) -> Result<()> {
        for &p in ps {
            self.ks.push(self.k);
            self.ps.push(p);
            self.gaps.push(self.prev.map(|q| p - q));
            self.k += 1;
            self.prev = Some(p);
            if self.ks.len() == BATCH_ROWS {
                self.flush_partial()?;
            }
        }
        Ok(())
    }

    /// Writes the rows collected so far as a (possibly short) batch. CSV output does not
    /// depend on batch boundaries; Parquet callers must only flush at the end.
    pub fn flush_partial(&mut self) -> Result<()> {
        if self.ks.is_empty() {
            return Ok(());
        }
        let h = self.ks.len();
        let mut cols = vec![
            Column::new("k".into(), std::mem::take(&mut self.ks)),
            Column::new("p".into(), std::mem::take(&mut self.ps)),
        ];
        let gaps = std::mem::take(&mut self.gaps);
        if self.format != Format::Bfile {
            cols.push(Column::new("gap".into(), gaps));
        }
        let df = DataFrame::new(h, cols)?;
        self.writer.as_mut().expect("writer").write(&df)
    }

    /// Writes the last partial batch and finishes the file.
    pub fn finish(mut self) -> Result<()> {
        self.flush_partial()?;
        self.writer.take().expect("writer").finish()
    }
}

/// The format of a table file named `dest`: `.csv` or `.parquet` (a b-file holds a single
/// sequence, not a table).
///
/// # Errors
/// Any other extension, with a one-line message.
pub fn frame_format(dest: &std::path::Path) -> Result<Format> {
    match Format::from_path(dest) {
        Ok(Format::Bfile) | Err(_) => anyhow::bail!(
            "cannot write a table as `{}`: use a .csv or .parquet name",
            dest.display()
        ),
        Ok(f) => Ok(f),
    }
}

/// Writes a whole DataFrame to `dest` atomically, as CSV or Parquet by its extension.
pub fn write_frame(df: &mut DataFrame, dest: &std::path::Path) -> Result<std::path::PathBuf> {
    stage_frame(df, dest)?.commit()
}

/// [`write_frame`] up to the rename: the frame written in full to `dest`'s temporary file,
/// which [`crate::util::AtomicFile::commit`] puts in place (dropped instead, it goes and
/// `dest` is untouched), so several files can all be written before any replaces another.
pub fn stage_frame(df: &mut DataFrame, dest: &std::path::Path) -> Result<crate::util::AtomicFile> {
    let format = frame_format(dest)?;
    let file = crate::util::AtomicFile::create(dest)?;
    let w = file.file()?;
    match format {
        Format::Parquet => ParquetWriter::new(w).finish(df).map(drop),
        _ => CsvWriter::new(w).include_header(true).finish(df),
    }
    .map_err(|e| anyhow::anyhow!("cannot write `{}`: {e}", dest.display()))?;
    Ok(file)
}
