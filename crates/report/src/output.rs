//! Output formats: the row formats (CSV, Parquet, OEIS b-file) and their batched writers
//! for the position table and the P-position list, whole frames, and JSON on stdout. Every
//! file goes through [`AtomicFile`].

pub use crate::files::AtomicFile;
use anyhow::{bail, Result};
use heaplab_analysis::{
    grundy_dtype, losers_frame, losers_schema, table_frame, table_schema, LoserColumns,
};
use heaplab_core::{GrundyTable, OutcomeTable};
use polars::prelude::*;
use polars_io::csv::write::{BatchedWriter as CsvBatched, CsvWriter};
use polars_io::parquet::write::{BatchedWriter as PqBatched, ParquetWriter};
use polars_io::SerWriter;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

/// The rows of a (short) frame as JSON objects, column by column.
pub fn rows_json(df: &DataFrame) -> Vec<serde_json::Value> {
    (0..df.height())
        .map(|i| {
            let mut m = serde_json::Map::new();
            for c in df.columns() {
                let v = c.get(i).unwrap_or(AnyValue::Null);
                m.insert(c.name().to_string(), any_to_json(v));
            }
            serde_json::Value::Object(m)
        })
        .collect()
}

fn any_to_json(v: AnyValue) -> serde_json::Value {
    use serde_json::json;
    match v {
        AnyValue::Null => serde_json::Value::Null,
        AnyValue::Boolean(b) => json!(b),
        AnyValue::UInt8(x) => json!(x),
        AnyValue::UInt16(x) => json!(x),
        AnyValue::UInt32(x) => json!(x),
        AnyValue::UInt64(x) => json!(x),
        AnyValue::Int32(x) => json!(x),
        AnyValue::Int64(x) => json!(x),
        AnyValue::Float64(x) => json!(x),
        other => json!(other.to_string()),
    }
}

/// Prints a JSON value on stdout, on one line.
pub fn print_json(v: &serde_json::Value) {
    println!("{}", serde_json::to_string(v).expect("json"));
}

/// Output formats of row files.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
pub enum Format {
    /// Comma-separated values with a header line.
    Csv,
    /// Apache Parquet (zstd).
    Parquet,
    /// OEIS b-file: `index value` lines, no header.
    Bfile,
}

impl Format {
    /// The format an output path asks for: `.csv`, `.parquet`, `.txt` (b-file).
    pub fn from_path(p: &Path) -> Result<Format> {
        if p.is_dir() {
            bail!("cannot write `{}`: it is a directory", p.display());
        }
        let ext = p
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match ext.as_deref() {
            Some("csv") => Ok(Format::Csv),
            Some("parquet") | Some("pq") => Ok(Format::Parquet),
            Some("txt") | Some("b") => Ok(Format::Bfile),
            _ => bail!(
                "cannot tell the format of `{}`: use a .csv, .parquet or .txt (b-file) name",
                p.display()
            ),
        }
    }
}

/// The format of a row output: `--format` if given (it must agree with a recognised
/// extension of `-o`), else the extension of `-o`, else CSV (stdout, and a device, pipe or
/// descriptor such as `/dev/stdout`).
///
/// # Errors
/// An unknown extension without `--format`, or a `--format` that contradicts the extension.
pub fn resolve_format(format: Option<Format>, output: Option<&Path>) -> Result<Format> {
    match (format, output) {
        (Some(f), Some(p)) => {
            if let Ok(by_name) = Format::from_path(p) {
                if by_name != f {
                    bail!(
                        "--format {} contradicts the name `{}`; drop one of them",
                        format!("{f:?}").to_lowercase(),
                        p.display()
                    );
                }
            }
            Ok(f)
        }
        (Some(f), None) => Ok(f),
        // a device, pipe or descriptor without a telling name takes CSV, as stdout does
        (None, Some(p)) => Format::from_path(p).or_else(|e| {
            if crate::files::is_special(p) {
                Ok(Format::Csv)
            } else {
                Err(e)
            }
        }),
        (None, None) => Ok(Format::Csv),
    }
}

/// Refuses to write a binary format to a terminal.
///
/// # Errors
/// When stdout is a terminal.
pub fn refuse_binary_terminal() -> Result<()> {
    use std::io::IsTerminal;
    if std::io::stdout().is_terminal() {
        bail!("parquet is binary: give -o FILE.parquet or redirect stdout to a file");
    }
    Ok(())
}

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

/// Writes the whole position table in batches: `n`, `win`, `grundy` when given, `genus`
/// and `phylum` when given, then each of `extra` (a name and its values per heap, such as
/// `remoteness` and `birthday`).
pub fn write_table<W: Write + Send>(
    w: W,
    format: Format,
    out: &OutcomeTable,
    grundy: Option<&GrundyTable>,
    genus: Option<&heaplab_core::misere::GenusTable>,
    extra: &[(&str, GrundyTable)],
    shift: u64,
) -> Result<()> {
    let mut schema = table_schema(grundy.map(grundy_dtype));
    if genus.is_some() {
        schema.insert("genus".into(), DataType::String);
        schema.insert("phylum".into(), DataType::String);
    }
    for (name, t) in extra {
        schema.insert((*name).into(), grundy_dtype(t));
    }
    let mut wr = RowWriter::new(w, format, &schema, true)?;
    let len = out.max() as usize + 1;
    let mut lo = 0;
    while lo < len {
        let hi = (lo + BATCH_ROWS).min(len);
        let mut df = table_frame(Some(out), grundy, lo, hi)?;
        if let Some(t) = genus {
            for c in heaplab_analysis::genus_columns(t, lo, hi) {
                df.with_column(c)?;
            }
        }
        for (name, t) in extra {
            df.with_column(heaplab_analysis::value_column(name, t, lo, hi))?;
        }
        if shift > 0 {
            // (the caller keeps max + shift within u64)
            let n: Vec<u64> = (lo as u64..hi as u64).map(|n| n + shift).collect();
            df.replace("n", Column::new("n".into(), n))?;
        }
        wr.write(&df)?;
        lo = hi;
    }
    wr.finish()
}

/// The columns of a P-position file: `k`, `p` and `gap` (b-files carry only `k` and `p`).
fn loser_columns(format: Format) -> LoserColumns {
    LoserColumns {
        gap: format != Format::Bfile,
        prev: false,
    }
}

/// The game's heap for a shifted heap `shown` (`--shift`): `shown - shift`, refused when
/// `shown` is below the shift (`what` names the argument).
pub fn unshift(what: &str, shown: u64, shift: u64) -> Result<u64> {
    match shown.checked_sub(shift) {
        Some(n) => Ok(n),
        None => bail!("{what} is {shown}, below the heap shift {shift} (heaps start at {shift})"),
    }
}

/// How P-position rows are labelled: the index of the first (`k` column) and a heap shift
/// added to every position (for games whose terminal heap is not 0).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Labels {
    /// The index of the first P-position.
    pub offset: u64,
    /// Added to every position.
    pub shift: u64,
}

/// A row label (`--offset`, `--shift`) that would pass 2^64 − 1: an error in the
/// arguments found while writing, reported as it is (not as a failure to write the file).
#[derive(Debug)]
pub struct LabelOverflow(pub String);

impl std::fmt::Display for LabelOverflow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LabelOverflow {}

/// `e` with "cannot write TARGET" in front, unless it is a [`LabelOverflow`] (the
/// arguments' fault, not the file's).
pub fn write_context(e: anyhow::Error, target: &str) -> anyhow::Error {
    if e.is::<LabelOverflow>() {
        e
    } else {
        e.context(format!("cannot write {target}"))
    }
}

/// Accumulates P-positions into `k, p, gap` rows and writes them in batches of exactly
/// [`BATCH_ROWS`] rows (so the file depends only on the sequence, never on timing).
pub struct LoserRows<W: Write> {
    writer: Option<RowWriter<W>>,
    format: Format,
    /// How the rows are labelled.
    labels: Labels,
    /// Index of the next P-position to write.
    k: u64,
    /// The last P-position written.
    prev: Option<u64>,
    /// P-positions not yet written.
    ps: Vec<u64>,
}

impl<W: Write + Send> LoserRows<W> {
    /// A row sink over `w`; `k0`/`prev` continue an earlier run (resume), and `header` is
    /// false when the CSV file already has its header.
    pub fn new(
        w: W,
        format: Format,
        k0: u64,
        prev: Option<u64>,
        header: bool,
        labels: Labels,
    ) -> Result<Self> {
        let schema = losers_schema(loser_columns(format));
        Ok(LoserRows {
            writer: Some(RowWriter::new(w, format, &schema, header)?),
            format,
            labels,
            k: k0,
            prev,
            ps: Vec::new(),
        })
    }

    /// Adds P-positions (increasing).
    pub fn push(&mut self, mut ps: &[u64]) -> Result<()> {
        while !ps.is_empty() {
            let take = (BATCH_ROWS - self.ps.len()).min(ps.len());
            self.ps.extend_from_slice(&ps[..take]);
            ps = &ps[take..];
            if self.ps.len() == BATCH_ROWS {
                self.flush_partial()?;
            }
        }
        Ok(())
    }

    /// Writes the rows collected so far as a (possibly short) batch. CSV output does not
    /// depend on batch boundaries; Parquet callers must only flush at the end.
    pub fn flush_partial(&mut self) -> Result<()> {
        if self.ps.is_empty() {
            return Ok(());
        }
        let Labels { offset, shift } = self.labels;
        let df = if (offset, shift) == (0, 0) {
            losers_frame(self.k, self.prev, &self.ps, loser_columns(self.format))?
        } else {
            let shifted = |p: u64| {
                p.checked_add(shift).ok_or_else(|| {
                    anyhow::Error::from(LabelOverflow(format!(
                        "--shift {shift}: position {p} would pass 2^64 - 1"
                    )))
                })
            };
            let ps = self
                .ps
                .iter()
                .map(|&p| shifted(p))
                .collect::<Result<Vec<u64>>>()?;
            // the last row's index must fit in 64 bits: name the first row whose does not
            let room = u64::MAX - offset;
            if self.k + (ps.len() as u64 - 1) > room {
                let i = room.checked_sub(self.k).map_or(0, |r| r + 1) as usize;
                return Err(LabelOverflow(format!(
                    "--offset {offset}: P-position {} would get index {} + {offset}, \
                     past 2^64 - 1",
                    ps[i],
                    self.k + i as u64
                ))
                .into());
            }
            let k = self.k + offset;
            let prev = self.prev.map(shifted).transpose()?;
            losers_frame(k, prev, &ps, loser_columns(self.format))?
        };
        self.k += self.ps.len() as u64;
        self.prev = self.ps.last().copied();
        self.ps.clear();
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
        Err(e) if dest.is_dir() => Err(e),
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
/// which [`AtomicFile::commit`] puts in place (dropped instead, it goes and
/// `dest` is untouched), so several files can all be written before any replaces another.
pub fn stage_frame(df: &mut DataFrame, dest: &std::path::Path) -> Result<AtomicFile> {
    let format = frame_format(dest)?;
    let file = AtomicFile::create(dest)?;
    let w = file.file()?;
    match format {
        Format::Parquet => ParquetWriter::new(w).finish(df).map(drop),
        _ => CsvWriter::new(w).include_header(true).finish(df),
    }
    .map_err(|e| anyhow::anyhow!("cannot write `{}`: {e}", dest.display()))?;
    Ok(file)
}

/// Seconds since `t`, rounded to milliseconds.
pub fn secs(t: std::time::Instant) -> f64 {
    (t.elapsed().as_secs_f64() * 1000.0).round() / 1000.0
}
