//! Where `heaplab losers` puts P-positions, and how a killed run resumes.
//!
//! Rows go out in fixed batches (see [`crate::output::LoserRows`]), so the output depends
//! on the sequence alone. With `--checkpoint`, CSV and b-file rows go to `FILE.partial`,
//! whose length is recorded at every checkpoint (a resumed run truncates it there and
//! appends); Parquet output is spooled as raw 64-bit P-positions to `FILE.spool` and
//! converted at the end, since a Parquet file cannot be reopened for appending. Either way
//! the final file is renamed into place only when complete, and is byte-identical to an
//! uninterrupted run. The checkpoint file holds the core's stream [`Checkpoint`] and the
//! output's state ([`SavedRun`]).

use crate::output::{AtomicFile, Format, LoserRows, BATCH_ROWS};
use anyhow::{bail, Context, Result};
use heaplab_core::Checkpoint;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// What a checkpoint file holds: the stream's state and the output's.
#[derive(Serialize, Deserialize)]
pub struct SavedRun {
    version: u32,
    /// The P-position stream.
    pub stream: Checkpoint,
    /// The output file (None: counting only).
    pub output: Option<PathBuf>,
    /// Its format.
    pub format: Format,
    /// Length of the partial/spool file at the checkpoint.
    pub bytes: u64,
}

const CHECKPOINT_VERSION: u32 = 2;

impl SavedRun {
    /// Reads the checkpoint at `path`; None when there is none.
    pub fn load(path: &Path) -> Result<Option<SavedRun>> {
        if !path.exists() {
            return Ok(None);
        }
        let mut buf = vec![];
        File::open(path)
            .and_then(|mut f| f.read_to_end(&mut buf))
            .with_context(|| format!("cannot read checkpoint `{}`", path.display()))?;
        let cp: SavedRun = postcard::from_bytes(&buf)
            .ok()
            .filter(|c: &SavedRun| c.version == CHECKPOINT_VERSION)
            .with_context(|| {
                format!(
                    "`{}` is not a checkpoint of this heaplab version",
                    path.display()
                )
            })?;
        Ok(Some(cp))
    }

    /// Fails unless this checkpoint belongs to the run of `game` to `max` into `output`.
    pub fn check_same(
        &self,
        path: &Path,
        game: &str,
        max: u64,
        out: Option<&Path>,
        format: Format,
    ) -> Result<()> {
        let same = self.stream.game == game
            && self.stream.max == max
            && self.output.as_deref() == out
            && (out.is_none() || self.format == format);
        if !same {
            bail!(
                "checkpoint `{}` belongs to another run (game {}, max {}); remove it or pick another file",
                path.display(),
                self.stream.game,
                self.stream.max
            );
        }
        Ok(())
    }

    /// Writes the checkpoint to `path` atomically.
    fn save(&self, path: &Path) -> Result<()> {
        let bytes = postcard::to_stdvec(self).context("encoding the checkpoint")?;
        let file = AtomicFile::create(path)?;
        {
            let mut f = file.file()?;
            f.write_all(&bytes)?;
            f.sync_data()?;
        }
        file.commit()?;
        Ok(())
    }
}

/// `out` with `suffix` appended to its name.
pub fn side_path(out: &Path, suffix: &str) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// Opens `path` for appending after truncating it to `len` (resume), or creates it empty.
fn open_truncated(path: &Path, len: u64, resume: bool) -> Result<File> {
    let mut f = OpenOptions::new()
        .read(true)
        .write(true)
        .create(!resume)
        .truncate(false)
        .open(path)
        .with_context(|| format!("cannot open `{}`", path.display()))?;
    if resume && f.metadata()?.len() < len {
        bail!(
            "`{}` is shorter than the checkpoint says; remove the checkpoint to start over",
            path.display()
        );
    }
    f.set_len(len)?;
    f.seek(SeekFrom::Start(len))?;
    Ok(f)
}

/// How the P-positions are kept.
enum Kind {
    /// Rows through polars; `probe` reads the file length for checkpoints.
    Rows {
        rows: Box<LoserRows<Box<dyn Write + Send>>>,
        probe: Option<File>,
    },
    /// Raw little-endian u64 P-positions (Parquet with checkpoints).
    Spool { w: BufWriter<File> },
    /// Count only.
    Count,
}

/// The destination of a `losers` run.
pub struct Sink {
    kind: Kind,
    /// The final file, written under a temporary name (no checkpoint).
    atomic: Option<AtomicFile>,
    /// The side file (.partial or .spool) of a run with checkpoints.
    side: Option<PathBuf>,
    /// Until the first checkpoint of a fresh run refers to it, an interruption removes the
    /// side file.
    unsaved: Option<crate::cleanup::Pending>,
    output: Option<PathBuf>,
    format: Format,
}

impl Sink {
    /// The sink for `output` in `format` (None with `count`: count only; None otherwise:
    /// rows on stdout), resumed from `resume` when given. With `checkpoint`, a file output
    /// goes to its side file until the end.
    pub fn open(
        output: Option<&Path>,
        format: Format,
        count_only: bool,
        checkpoint: bool,
        resume: Option<&SavedRun>,
    ) -> Result<Sink> {
        let (k0, prev0, bytes0) =
            resume.map_or((0, None, 0), |c| (c.stream.count, c.stream.last, c.bytes));
        let mut sink = Sink {
            kind: Kind::Count,
            atomic: None,
            side: None,
            unsaved: None,
            output: output.map(Path::to_path_buf),
            format,
        };
        sink.kind = match output {
            None if count_only => Kind::Count,
            None => Kind::Rows {
                rows: Box::new(LoserRows::new(
                    Box::new(std::io::stdout()) as Box<dyn Write + Send>,
                    format,
                    0,
                    None,
                    true,
                )?),
                probe: None,
            },
            Some(out) if !checkpoint => {
                let f = AtomicFile::create(out)?;
                let w: Box<dyn Write + Send> = Box::new(f.file()?);
                sink.atomic = Some(f);
                Kind::Rows {
                    rows: Box::new(LoserRows::new(w, format, 0, None, true)?),
                    probe: None,
                }
            }
            Some(out) => {
                let parquet = format == Format::Parquet;
                let side = side_path(out, if parquet { ".spool" } else { ".partial" });
                let f = open_truncated(&side, bytes0, resume.is_some())?;
                if resume.is_none() {
                    sink.unsaved = Some(crate::cleanup::Pending::new(side.clone()));
                }
                sink.side = Some(side);
                if parquet {
                    Kind::Spool {
                        w: BufWriter::new(f),
                    }
                } else {
                    let probe = f.try_clone()?;
                    let w: Box<dyn Write + Send> = Box::new(f);
                    let rows = LoserRows::new(w, format, k0, prev0, resume.is_none())?;
                    Kind::Rows {
                        rows: Box::new(rows),
                        probe: Some(probe),
                    }
                }
            }
        };
        // Fail early when the final destination is not writable.
        if let (None, Some(out)) = (&sink.atomic, output) {
            AtomicFile::check(out)?;
        }
        Ok(sink)
    }

    /// Adds P-positions (increasing).
    pub fn push(&mut self, ps: &[u64]) -> Result<()> {
        match &mut self.kind {
            Kind::Rows { rows, .. } => rows.push(ps)?,
            Kind::Spool { w } => {
                for &p in ps {
                    w.write_all(&p.to_le_bytes())?;
                }
            }
            Kind::Count => {}
        }
        Ok(())
    }

    /// Writes everything pending to the side file and saves `stream` with it to
    /// `path`.
    pub fn checkpoint(&mut self, path: &Path, stream: Checkpoint) -> Result<()> {
        let bytes = match &mut self.kind {
            Kind::Rows { rows, probe } => {
                rows.flush_partial()?;
                match probe {
                    Some(f) => {
                        f.sync_data()?;
                        f.metadata()?.len()
                    }
                    None => 0,
                }
            }
            Kind::Spool { w } => {
                w.flush()?;
                w.get_ref().sync_data()?;
                w.get_ref().metadata()?.len()
            }
            Kind::Count => 0,
        };
        SavedRun {
            version: CHECKPOINT_VERSION,
            stream,
            output: self.output.clone(),
            format: self.format,
            bytes,
        }
        .save(path)?;
        drop(self.unsaved.take()); // the checkpoint now refers to the side file
        Ok(())
    }

    /// Finishes the file and moves it into place; returns the files written.
    pub fn finish(self) -> Result<Vec<String>> {
        let mut files = vec![];
        match self.kind {
            Kind::Rows { rows, .. } => {
                rows.finish()?;
                if let Some(f) = self.atomic {
                    files.push(f.commit()?.display().to_string());
                }
                if let (Some(side), Some(out)) = (&self.side, &self.output) {
                    std::fs::rename(side, out)
                        .with_context(|| format!("cannot write `{}`", out.display()))?;
                    files.push(out.display().to_string());
                }
            }
            Kind::Spool { mut w } => {
                w.flush()?;
                drop(w);
                let (sp, out) = (self.side.as_ref().unwrap(), self.output.as_ref().unwrap());
                let f = AtomicFile::create(out)?;
                let mut rows = LoserRows::new(f.file()?, self.format, 0, None, true)?;
                let mut r = std::io::BufReader::new(File::open(sp)?);
                let mut chunk = vec![0u8; BATCH_ROWS * 8];
                loop {
                    let got = read_full(&mut r, &mut chunk)?;
                    if got == 0 {
                        break;
                    }
                    let ps: Vec<u64> = chunk[..got]
                        .chunks_exact(8)
                        .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
                        .collect();
                    rows.push(&ps)?;
                }
                rows.finish()?;
                files.push(f.commit()?.display().to_string());
                std::fs::remove_file(sp)?;
            }
            Kind::Count => {}
        }
        Ok(files)
    }
}

/// Reads until `buf` is full or the input ends; the bytes read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        let n = r.read(&mut buf[got..])?;
        if n == 0 {
            break;
        }
        got += n;
    }
    Ok(got)
}
