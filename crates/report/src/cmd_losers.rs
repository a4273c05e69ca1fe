//! `heaplab losers`: P-positions streamed as they are found, with progress and
//! checkpoint/resume.
//!
//! Rows go out in fixed batches (see [`crate::frames::LoserRows`]), so the output depends on
//! the sequence alone. With `--checkpoint`, CSV and b-file rows go to `FILE.partial`, whose
//! length is recorded at every checkpoint (a resumed run truncates it there and appends);
//! Parquet output is spooled as raw 64-bit P-positions to `FILE.spool` and converted at the
//! end, since a Parquet file cannot be reopened for appending. Either way the final file is
//! renamed into place only when complete, and is byte-identical to an uninterrupted run.

use crate::frames::{LoserRows, BATCH_ROWS};
use crate::progress::Progress;
use crate::util::{check_memory, secs, AtomicFile, Format};
use crate::{print_json, LosersArgs};
use anyhow::{bail, Context, Result};
use heaplab_core::engine::stream_memory_estimate;
use heaplab_core::{p_stream, StreamState};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// What a checkpoint file holds.
#[derive(Serialize, Deserialize)]
struct Checkpoint {
    version: u32,
    game: String,
    max: u64,
    output: Option<PathBuf>,
    format: Format,
    /// P-positions written so far (all flushed to the partial or spool file).
    k: u64,
    prev: Option<u64>,
    /// Length of the partial/spool file at the checkpoint.
    bytes: u64,
    stream: StreamState,
}

const CHECKPOINT_VERSION: u32 = 1;

/// Where the P-positions go.
enum Sink {
    /// Rows through polars; `probe` reads the file length for checkpoints.
    Rows {
        rows: Box<LoserRows<Box<dyn Write + Send>>>,
        probe: Option<File>,
    },
    /// Raw little-endian u64 P-positions (Parquet with checkpoints).
    Spool {
        w: BufWriter<File>,
        k: u64,
        prev: Option<u64>,
    },
    /// Count only.
    Count { k: u64, prev: Option<u64> },
}

impl Sink {
    fn push(&mut self, ps: &[u64]) -> Result<()> {
        match self {
            Sink::Rows { rows, .. } => rows.push(ps)?,
            Sink::Spool { w, k, prev } => {
                for &p in ps {
                    w.write_all(&p.to_le_bytes())?;
                }
                *k += ps.len() as u64;
                if let Some(&p) = ps.last() {
                    *prev = Some(p);
                }
            }
            Sink::Count { k, prev } => {
                *k += ps.len() as u64;
                if let Some(&p) = ps.last() {
                    *prev = Some(p);
                }
            }
        }
        Ok(())
    }

    fn k_prev(&self) -> (u64, Option<u64>) {
        match self {
            Sink::Rows { rows, .. } => (rows.k, rows.prev),
            Sink::Spool { k, prev, .. } | Sink::Count { k, prev } => (*k, *prev),
        }
    }

    /// Writes everything pending to the file and returns its length.
    fn sync(&mut self) -> Result<u64> {
        match self {
            Sink::Rows { rows, probe } => {
                rows.flush_partial()?;
                match probe {
                    Some(f) => {
                        f.sync_data()?;
                        Ok(f.metadata()?.len())
                    }
                    None => Ok(0),
                }
            }
            Sink::Spool { w, .. } => {
                w.flush()?;
                w.get_ref().sync_data()?;
                Ok(w.get_ref().metadata()?.len())
            }
            Sink::Count { .. } => Ok(0),
        }
    }
}

fn side_path(out: &Path, suffix: &str) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

fn save_checkpoint(path: &Path, cp: &Checkpoint) -> Result<()> {
    let bytes = postcard::to_stdvec(cp).context("encoding the checkpoint")?;
    let file = AtomicFile::create(path)?;
    {
        let mut f = file.file()?;
        f.write_all(&bytes)?;
        f.sync_data()?;
    }
    file.commit()?;
    Ok(())
}

fn load_checkpoint(path: &Path) -> Result<Option<Checkpoint>> {
    if !path.exists() {
        return Ok(None);
    }
    let mut buf = vec![];
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut buf))
        .with_context(|| format!("cannot read checkpoint `{}`", path.display()))?;
    let cp: Checkpoint = postcard::from_bytes(&buf)
        .with_context(|| format!("`{}` is not a heaplab checkpoint", path.display()))?;
    if cp.version != CHECKPOINT_VERSION {
        bail!(
            "checkpoint `{}` is from another heaplab version",
            path.display()
        );
    }
    Ok(Some(cp))
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

/// Runs the command.
pub fn run(a: LosersArgs, quiet: bool) -> Result<ExitCode> {
    let t0 = Instant::now();
    let (game, max) = (a.gm.game.clone(), a.gm.max);
    let format = crate::util::resolve_format(a.format, a.output.as_deref())?;
    let rows_to_stdout = a.output.is_none() && !a.count && !a.json;
    if a.format.is_some() && a.output.is_none() && !rows_to_stdout {
        bail!("--format applies to rows, and --count/--json without -o writes none; add -o FILE");
    }
    if rows_to_stdout && format == Format::Parquet {
        crate::util::refuse_binary_terminal()?;
    }
    if let (Some(cp), Some(out)) = (&a.checkpoint, &a.output) {
        use crate::util::same_file_key as key;
        let cp = key(cp);
        if [
            out.clone(),
            side_path(out, ".partial"),
            side_path(out, ".spool"),
        ]
        .iter()
        .any(|p| key(p) == cp)
        {
            bail!("--checkpoint must be another file than -o (and its .partial/.spool)");
        }
        if crate::util::is_special(out) {
            bail!(
                "--checkpoint needs a regular file as -o, not the device or pipe `{}`",
                out.display()
            );
        }
    }
    if a.checkpoint.is_some() && rows_to_stdout {
        bail!("--checkpoint needs -o FILE or --count: rows on stdout cannot be resumed");
    }
    // Counts with a closed form (upto{k}, finite sets) need no engine at all.
    let closed = if a.output.is_none() && (a.count || a.json) {
        heaplab_core::engine::closed_p_count(&game, max)
    } else {
        None
    };
    // A file of rows must fit on its disk: the count is known for closed forms and
    // estimated for interval games (sieve games are bounded by their run time instead).
    if let Some(out) = &a.output {
        let rows = heaplab_core::engine::closed_p_count(&game, max)
            .map(|c| c.count as f64)
            .or_else(|| {
                heaplab_core::interval::IntervalGame::of(&game).map(|g| g.p_count_estimate(max))
            });
        if let Some(rows) = rows {
            // k, p and gap in decimal (Parquet: delta-coded, a few bytes a row)
            let digits = (max.max(1) as f64).log10().floor() + 1.0;
            let per_row = match format {
                Format::Parquet => 4.0,
                _ => 2.0 * digits + 4.0,
            };
            crate::util::check_space(out, &format!("{rows:.3e} P-positions"), rows * per_row)?;
        }
    }
    if closed.is_none() {
        check_memory("the P-position engine", stream_memory_estimate(&game, max))?;
        crate::util::check_work(&game, max, false)?;
    }

    // A checkpoint from an earlier run of the same command?
    let resume = match &a.checkpoint {
        Some(cp_path) => load_checkpoint(cp_path)?,
        None => None,
    };
    if let Some(cp) = &resume {
        let same = cp.game == game.to_string()
            && cp.max == max
            && cp.output == a.output
            && (a.output.is_none() || cp.format == format);
        if !same {
            bail!(
                "checkpoint `{}` belongs to another run (game {}, max {}); remove it or pick another file",
                a.checkpoint.as_ref().unwrap().display(),
                cp.game,
                cp.max
            );
        }
    }
    if let (Some(cp_path), None) = (&a.checkpoint, &resume) {
        // an unwritable checkpoint fails now, not minutes into the run
        AtomicFile::check(cp_path)?;
    }
    let (k0, prev0, bytes0) = resume
        .as_ref()
        .map_or((0, None, 0), |c| (c.k, c.prev, c.bytes));

    // The destination.
    let mut atomic: Option<AtomicFile> = None;
    let mut partial: Option<PathBuf> = None;
    // A side file (.partial / .spool) is only worth keeping once a checkpoint refers to it:
    // until the first checkpoint of a fresh run, an interruption removes it.
    let mut unsaved: Option<crate::cleanup::Pending> = None;
    let mut spool: Option<PathBuf> = None;
    let mut sink = match &a.output {
        // --count (or --json) without -o: only the count; with -o the rows still go there
        None if a.count || a.json => Sink::Count { k: k0, prev: prev0 },
        None => Sink::Rows {
            rows: Box::new(LoserRows::new(
                Box::new(std::io::stdout()) as Box<dyn Write + Send>,
                format,
                0,
                None,
                true,
            )?),
            probe: None,
        },
        Some(out) if a.checkpoint.is_none() => {
            let f = AtomicFile::create(out)?;
            let w: Box<dyn Write + Send> = Box::new(f.file()?);
            let rows = LoserRows::new(w, format, 0, None, true)?;
            atomic = Some(f);
            Sink::Rows {
                rows: Box::new(rows),
                probe: None,
            }
        }
        Some(out) if format == Format::Parquet => {
            let sp = side_path(out, ".spool");
            let f = open_truncated(&sp, bytes0, resume.is_some())?;
            if resume.is_none() {
                unsaved.replace(crate::cleanup::Pending::new(sp.clone()));
            }
            spool = Some(sp);
            Sink::Spool {
                w: BufWriter::new(f),
                k: k0,
                prev: prev0,
            }
        }
        Some(out) => {
            let pp = side_path(out, ".partial");
            let f = open_truncated(&pp, bytes0, resume.is_some())?;
            let probe = f.try_clone()?;
            if resume.is_none() {
                unsaved.replace(crate::cleanup::Pending::new(pp.clone()));
            }
            partial = Some(pp);
            let header = resume.is_none();
            let w: Box<dyn Write + Send> = Box::new(f);
            let rows = LoserRows::new(w, format, k0, prev0, header)?;
            Sink::Rows {
                rows: Box::new(rows),
                probe: Some(probe),
            }
        }
    };
    // Fail early when the final destination is not writable.
    if atomic.is_none() {
        if let Some(out) = &a.output {
            AtomicFile::check(out)?;
        }
    }

    // Only the count: straight from a closed form (upto{k}) or a proven period (finite sets).
    let shortcut = closed.filter(|_| resume.is_none());
    let (count, largest, method, files) = if let Some(sc) = shortcut {
        (sc.count, sc.largest, sc.method, vec![])
    } else {
        let mut stream = p_stream(&game, max, resume.map(|c| c.stream))?;
        let method = stream.method();
        let mut progress = Progress::new("P-positions", max.saturating_add(1));
        let mut buf = Vec::new();
        let mut last_cp = Instant::now();
        let target = a
            .output
            .as_ref()
            .map_or("to stdout".to_string(), |p| format!("`{}`", p.display()));
        let cannot_write = || format!("cannot write {target}");
        while stream.advance(&mut buf) {
            sink.push(&buf).with_context(cannot_write)?;
            buf.clear();
            progress.set(stream.done().min(max.saturating_add(1)));
            if let Some(cp_path) = &a.checkpoint {
                if last_cp.elapsed().as_secs_f64() >= a.checkpoint_every {
                    let bytes = sink.sync()?;
                    let (k, prev) = sink.k_prev();
                    debug_assert_eq!(k, stream.count());
                    save_checkpoint(
                        cp_path,
                        &Checkpoint {
                            version: CHECKPOINT_VERSION,
                            game: game.to_string(),
                            max,
                            output: a.output.clone(),
                            format,
                            k,
                            prev,
                            bytes,
                            stream: stream.state(),
                        },
                    )?;
                    drop(unsaved.take()); // the checkpoint now refers to the side file
                    last_cp = Instant::now();
                }
            }
        }
        progress.finish();
        let (count, largest) = sink.k_prev();

        // Finish the file and move it into place.
        let mut files = vec![];
        match sink {
            Sink::Rows { rows, .. } => {
                rows.finish().with_context(cannot_write)?;
                if let Some(f) = atomic {
                    files.push(f.commit()?.display().to_string());
                }
                if let (Some(pp), Some(out)) = (&partial, &a.output) {
                    std::fs::rename(pp, out)
                        .with_context(|| format!("cannot write `{}`", out.display()))?;
                    files.push(out.display().to_string());
                }
            }
            Sink::Spool { mut w, .. } => {
                w.flush()?;
                drop(w);
                let (sp, out) = (spool.as_ref().unwrap(), a.output.as_ref().unwrap());
                let f = AtomicFile::create(out)?;
                let mut rows = LoserRows::new(f.file()?, format, 0, None, true)?;
                let mut r = std::io::BufReader::new(File::open(sp)?);
                let mut chunk = vec![0u8; BATCH_ROWS * 8];
                loop {
                    let mut got = 0;
                    while got < chunk.len() {
                        let n = r.read(&mut chunk[got..])?;
                        if n == 0 {
                            break;
                        }
                        got += n;
                    }
                    if got == 0 {
                        break;
                    }
                    let ps: Vec<u64> = chunk[..got]
                        .chunks_exact(8)
                        .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
                        .collect();
                    rows.push(&ps).with_context(cannot_write)?;
                }
                rows.finish().with_context(cannot_write)?;
                files.push(f.commit()?.display().to_string());
                std::fs::remove_file(sp)?;
            }
            Sink::Count { .. } => {}
        }
        if let Some(cp_path) = &a.checkpoint {
            if cp_path.exists() {
                std::fs::remove_file(cp_path)?;
            }
        }
        (count, largest, method.to_string(), files)
    };

    let seconds = secs(t0);
    if a.json {
        print_json(&json!({
            "game": game.to_string(),
            "max": max,
            "p_positions": count,
            "largest_p": largest,
            "max_grundy": null,
            "files": files,
            "seconds": seconds,
            "method": method,
        }));
    } else {
        let line = format!(
            "{game}: {count} P-positions in 0..={max}, largest {}{} ({method}, {seconds:.2} s)",
            largest.map_or("none".into(), |p| p.to_string()),
            if files.is_empty() {
                String::new()
            } else {
                format!("; wrote {}", files.join(", "))
            },
        );
        if rows_to_stdout {
            if !quiet {
                eprintln!("{line}");
            }
        } else {
            println!("{line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
