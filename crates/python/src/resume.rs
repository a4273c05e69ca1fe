//! Resumable runs from Python: `Game.table(..., checkpoint=PATH)`,
//! `Game.losers(..., checkpoint=PATH)` and `census(..., journal=PATH)`.
//!
//! The formats, the checks a saved state must pass and the segmented run are the
//! libraries' ([`heaplab_core::saved`], [`heaplab_analysis::read_journal`] and its
//! neighbours); here, as in the command line (`crates/report/src/segments.rs`, `sink.rs`,
//! `cmd_census.rs`), only the files: written atomically (a temporary file in the same
//! folder, synced, renamed into place), read back and refused in one line naming the file
//! and the reason, and locked (an advisory lock on `PATH.lock`) for the run.

use crate::{budget, HeaplabError, PyWatch, Raised};
use heaplab_analysis::{journal_header, journal_line, read_journal, resume_rows, CensusRow};
use heaplab_core::saved::grundy::{self, Segments};
use heaplab_core::saved::stream::{spool_ends_right, Difference, SavedStream, SideHash};
use heaplab_core::saved::Key;
use heaplab_core::{
    plan_list, plan_table, resume_stream, Class, Error, Game, GrundyTable, Observer,
};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// `ValueError(msg)`: a saved state refused, or an argument that cannot work.
fn refused(msg: String) -> Raised {
    Raised(PyValueError::new_err(msg))
}

/// `OSError(msg)`: a file that cannot be read or written.
fn os_error(msg: String) -> Raised {
    Raised(PyOSError::new_err(msg))
}

/// `path` with `suffix` appended to its name.
fn side_path(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// The file `path` names: a symbolic link's target (the link is kept), else `path`.
fn real_path(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder, synced, then
/// renamed over `path` (a link's target), so `path` holds the old bytes or the new ones.
fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    static SERIAL: AtomicU64 = AtomicU64::new(0);
    let real = real_path(path);
    let name = real
        .file_name()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file path"))?;
    let tmp = real.with_file_name(format!(
        ".{}.{}-{}.tmp",
        name.to_string_lossy(),
        std::process::id(),
        SERIAL.fetch_add(1, Ordering::Relaxed)
    ));
    let written = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|_| f.sync_data()))
        .and_then(|_| std::fs::rename(&tmp, &real));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Removes the saved file `path` (a link's target, and the link); none is fine.
fn remove_saved(path: &Path, what: &str) -> PyResult<()> {
    let real = real_path(path);
    for p in [real.as_path(), path] {
        match std::fs::remove_file(p) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(PyOSError::new_err(format!(
                    "cannot remove {what} `{}`: {e}",
                    path.display()
                )))
            }
            _ => {}
        }
    }
    Ok(())
}

/// The checkpoint file at `path` read whole and decoded by `decode`: None when there is
/// none; `ValueError` `checkpoint `PATH` REASON; remove it to start over` when `decode`
/// refuses it or it is no regular file, `OSError` when it cannot be read (as the command
/// line's `read_checkpoint`).
fn read_checkpoint<T, E: std::fmt::Display>(
    path: &Path,
    decode: impl FnOnce(&[u8]) -> Result<T, E>,
) -> Result<Option<T>, Raised> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(os_error(format!(
                "cannot read checkpoint `{}`: {e}",
                path.display()
            )))
        }
    };
    if !meta.is_file() {
        return Err(refused(format!(
            "checkpoint `{}` is not a regular file; pick a file path",
            path.display()
        )));
    }
    let mut buf = vec![];
    File::open(path)
        .and_then(|f| f.take(meta.len()).read_to_end(&mut buf))
        .map_err(|e| os_error(format!("cannot read checkpoint `{}`: {e}", path.display())))?;
    decode(&buf).map(Some).map_err(|why| {
        refused(format!(
            "checkpoint `{}` {why}; remove it to start over",
            path.display()
        ))
    })
}

/// The advisory lock a run holds on its checkpoint or journal (on `PATH.lock`), released
/// when dropped (and by the system when the process dies), as the command line's
/// `CheckpointLock`.
pub(crate) struct Lock {
    _file: File,
    path: PathBuf,
}

impl Lock {
    /// Takes the lock of `target` (called `what` in messages), or raises
    /// [`HeaplabError`] when another run holds it.
    pub(crate) fn take(target: &Path, what: &str) -> PyResult<Lock> {
        let path = side_path(target, ".lock");
        if std::fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) {
            return Err(HeaplabError::new_err(format!(
                "cannot lock {what} `{}`: `{}` is not a file",
                target.display(),
                path.display()
            )));
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| {
                PyOSError::new_err(format!("cannot lock {what} `{}`: {e}", target.display()))
            })?;
        match file.try_lock() {
            Ok(()) => Ok(Lock { _file: file, path }),
            Err(std::fs::TryLockError::WouldBlock) => Err(HeaplabError::new_err(format!(
                "{what} `{}` is in use by another heaplab run; wait for it to end or pick another file",
                target.display()
            ))),
            Err(std::fs::TryLockError::Error(e)) => Err(PyOSError::new_err(format!(
                "cannot lock {what} `{}`: {e}",
                target.display()
            ))),
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The user's checkpoint key ([`heaplab_files::checkpoint_key`], as the command line's):
/// `OSError` when its file cannot be read or made, `ValueError` when there is no place for
/// it or it holds no key.
fn checkpoint_key(cp: &Path) -> Result<Key, Raised> {
    heaplab_files::checkpoint_key_for(cp).map_err(|e| match e.starts_with("cannot") {
        true => os_error(e),
        false => refused(e),
    })
}

/// A run that saves its state to a checkpoint file, which it holds locked.
pub(crate) struct Saving {
    path: PathBuf,
    /// What its checkpoints are sealed with.
    key: Key,
    /// Most seconds between checkpoints (the first after 10 s at most).
    every: f64,
    _lock: Lock,
}

impl Saving {
    /// Checks the arguments and takes the checkpoint's lock.
    pub(crate) fn take(path: PathBuf, every: f64) -> PyResult<Saving> {
        if !(every.is_finite() && every >= 0.0) {
            return Err(PyValueError::new_err(format!(
                "checkpoint_every must be a number of seconds (0 or more), not {every}"
            )));
        }
        if path.as_os_str().is_empty() {
            return Err(PyValueError::new_err("checkpoint is an empty path"));
        }
        if path.is_dir() {
            return Err(PyValueError::new_err(format!(
                "checkpoint `{}` is a folder; pick a file path",
                path.display()
            )));
        }
        let lock = Lock::take(&path, "checkpoint")?;
        let key = checkpoint_key(&path).map_err(|r| r.0)?;
        Ok(Saving {
            path,
            key,
            every,
            _lock: lock,
        })
    }

    /// [`Saving::take`] for a Grundy table: refuses a table without Grundy values and a
    /// game whose table cannot be continued (the command line's `check_segmented`).
    pub(crate) fn take_table(
        game: &Game,
        grundy: bool,
        path: PathBuf,
        every: f64,
    ) -> PyResult<Saving> {
        if !grundy {
            return Err(PyValueError::new_err(
                "checkpoint= saves Grundy values: pass grundy=True",
            ));
        }
        if !heaplab_core::grundy_resumable(game) {
            return Err(PyValueError::new_err(format!(
                "checkpoint= works for take-and-break codes, Grundy's game and subtraction games (finite or named sets) in normal play, not {game}"
            )));
        }
        Saving::take(path, every)
    }

    /// The run is complete: its checkpoint goes, then (`spool`: a P-position run) its
    /// spool (the order that never leaves a checkpoint without its spool), then the lock.
    pub(crate) fn finish(self, spool: bool) -> PyResult<()> {
        remove_saved(&self.path, "checkpoint")?;
        match spool {
            true => remove_saved(&self.spool(), "spool"),
            false => Ok(()),
        }
    }

    /// Where a P-position run keeps its P-positions: `PATH.spool`.
    fn spool(&self) -> PathBuf {
        side_path(&self.path, ".spool")
    }

    /// The Grundy table 0..=max of `game` in segments
    /// ([`heaplab_core::saved::grundy::in_segments`]), resumed from the checkpoint when
    /// there is one (decoded and verified), saving it as the library says it is due. As
    /// the command line's `table --grundy --checkpoint`, only memory is budgeted: a run
    /// that saves its state may take longer than a day.
    pub(crate) fn grundy_table(
        &self,
        game: &Game,
        max: u64,
        w: &PyWatch,
    ) -> Result<GrundyTable, Raised> {
        let long = heaplab_core::Budget {
            seconds: f64::INFINITY,
            ..budget()
        };
        let p = plan_table(game, max, &long)?;
        w.planned(&p);
        let saved = match read_checkpoint(&self.path, |b| grundy::decode(b, game, &self.key))? {
            Some(t) => {
                // the first values again from the definition's engines: a file of another
                // game that was given this game's name is refused too
                if let Err(why) = grundy::verify(game, &t)? {
                    return Err(refused(format!(
                        "checkpoint `{}` {why}; remove it to start over",
                        self.path.display()
                    )));
                }
                Some(t)
            }
            None => None,
        };
        let mut hooks = TableHooks {
            path: &self.path,
            game,
            key: &self.key,
            failed: None,
        };
        match grundy::in_segments(game, max, saved, self.every, w, &mut hooks) {
            Ok(t) => Ok(t),
            Err(e) => Err(hooks.failed.take().map(Raised).unwrap_or_else(|| e.into())),
        }
    }

    /// The P-positions of `game` in 0..=max, by the stream its plan chose (or the one the
    /// checkpoint resumes), appended as raw little-endian u64 to `PATH.spool`; a
    /// [`SavedStream`] checkpoint written every `every` seconds (the first after 10 s at
    /// most, then at doubling intervals), as the command line's `losers --checkpoint` to
    /// a Parquet file; at the end, the spool read back.
    pub(crate) fn losers(&self, game: &Game, max: u64, w: &PyWatch) -> Result<Vec<u64>, Raised> {
        let b = budget();
        // (the list in memory at the end counted in)
        let p = plan_list(game, max, &b)?;
        let saved = read_checkpoint(&self.path, |b| SavedStream::<()>::decode(b, &self.key))?;
        if let Some(d) = saved
            .as_ref()
            .and_then(|s| s.differs(&game.to_string(), max))
        {
            let d = match d {
                Difference::Game(g) => format!("game {g} (not {game})"),
                Difference::Max(m) => format!("n_max {m} (not {max})"),
            };
            return Err(refused(format!(
                "checkpoint `{}` belongs to another run, with {d}; remove it or pick another file",
                self.path.display()
            )));
        }
        let spool = self.spool();
        let (file, mut sum) = self.open_spool(&spool, saved.as_ref())?;
        // until the first checkpoint of a fresh run refers to it, the spool goes again
        // when the run fails or is interrupted
        let mut unsaved = Unsaved(saved.is_none().then(|| spool.clone()));
        let mut stream = match saved {
            // (a state the stream's checks against the rule refuse is a refused checkpoint)
            Some(s) => resume_stream(s.stream, w).map_err(|e| match e {
                Error::BadState { .. } => refused(format!(
                    "checkpoint `{}`: {e}; remove it to start over",
                    self.path.display()
                )),
                e => e.into(),
            })?,
            None => {
                w.planned(&p);
                p.stream(w)?
            }
        };
        let cannot =
            |e: std::io::Error| os_error(format!("cannot write `{}`: {e}", spool.display()));
        let mut out = BufWriter::with_capacity(1 << 20, file);
        let total = max.saturating_add(1);
        let (mut buf, mut bytes) = (Vec::new(), Vec::new());
        let (mut last, mut gap) = (Instant::now(), self.every.min(10.0));
        loop {
            if w.observe(stream.done().min(total), total).is_break() {
                return Err(Error::Cancelled {
                    done: stream.done(),
                }
                .into());
            }
            let more = stream.advance(&mut buf);
            bytes.clear();
            bytes.extend(buf.iter().flat_map(|p| p.to_le_bytes()));
            buf.clear();
            out.write_all(&bytes).map_err(cannot)?;
            sum.add(&bytes);
            if !more {
                break;
            }
            if last.elapsed().as_secs_f64() >= gap {
                out.flush()
                    .and_then(|_| out.get_ref().sync_data())
                    .map_err(cannot)?;
                let (n, hash) = sum.now();
                let cp = SavedStream::new(stream.checkpoint(), n, hash, ())
                    .encode(&self.key)
                    .map_err(|e| Raised(HeaplabError::new_err(e)))?;
                write_atomic(&self.path, &cp).map_err(|e| {
                    os_error(format!(
                        "cannot write checkpoint `{}`: {e}",
                        self.path.display()
                    ))
                })?;
                // the checkpoint now refers to the spool: it stays
                unsaved.0 = None;
                last = Instant::now();
                gap = (gap * 2.0).min(self.every);
            }
        }
        out.flush().map_err(cannot)?;
        drop(out);
        let _ = w.observe(total, total);
        let list = read_spool(&spool)?;
        Ok(list)
    }

    /// Opens the spool to append: fresh (created empty), or resumed — checked against the
    /// checkpoint ([`SideHash::check`], [`spool_ends_right`]), cut to the saved bytes, its
    /// checksum carried on.
    fn open_spool(
        &self,
        spool: &Path,
        saved: Option<&SavedStream<()>>,
    ) -> Result<(File, SideHash), Raised> {
        let Some(saved) = saved else {
            let f = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(true)
                .open(spool)
                .map_err(|e| os_error(format!("cannot open `{}`: {e}", spool.display())))?;
            return Ok((f, SideHash::default()));
        };
        let refuse = |why: String| {
            refused(format!(
                "`{}` does not match checkpoint `{}`: {why}; remove both to start over",
                spool.display(),
                self.path.display()
            ))
        };
        let mut f = OpenOptions::new()
            .read(true)
            .write(true)
            .open(spool)
            .map_err(|e| refuse(format!("it cannot be opened ({e})")))?;
        let (sum, tail) = SideHash::check(&f, saved.bytes, saved.hash).map_err(refuse)?;
        spool_ends_right(&tail, saved.bytes, &saved.stream).map_err(refuse)?;
        f.set_len(saved.bytes)
            .and_then(|_| f.seek(SeekFrom::Start(saved.bytes)))
            .map_err(|e| os_error(format!("cannot write `{}`: {e}", spool.display())))?;
        Ok((f, sum))
    }
}

/// A spool no checkpoint refers to yet: removed when dropped, unless taken.
struct Unsaved(Option<PathBuf>);

impl Drop for Unsaved {
    fn drop(&mut self) {
        if let Some(p) = &self.0 {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// The P-positions a spool holds (raw little-endian u64).
fn read_spool(spool: &Path) -> Result<Vec<u64>, Raised> {
    let cannot = |e: std::io::Error| os_error(format!("cannot read `{}`: {e}", spool.display()));
    let f = File::open(spool).map_err(cannot)?;
    let len = f.metadata().map_err(cannot)?.len();
    let mut list = Vec::with_capacity(usize::try_from(len / 8).unwrap_or(0));
    let mut r = BufReader::new(f);
    let mut chunk = vec![0u8; 1 << 20];
    loop {
        let mut got = 0;
        while got < chunk.len() {
            match r.read(&mut chunk[got..]).map_err(cannot)? {
                0 => break,
                n => got += n,
            }
        }
        list.extend(
            chunk[..got]
                .chunks_exact(8)
                .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes"))),
        );
        if got < chunk.len() {
            return Ok(list);
        }
    }
}

/// What a segmented Grundy run does between segments: save the checkpoint.
struct TableHooks<'a> {
    path: &'a Path,
    game: &'a Game,
    key: &'a Key,
    /// The exception of a save that failed (an `OSError`), raised instead of the
    /// library's one-line error.
    failed: Option<PyErr>,
}

impl Segments for TableHooks<'_> {
    fn save(&mut self, table: &GrundyTable) -> Result<(), String> {
        let bytes = grundy::encode(self.game, table, self.key);
        write_atomic(self.path, &bytes).map_err(|e| {
            let msg = format!("cannot write checkpoint `{}`: {e}", self.path.display());
            self.failed = Some(PyOSError::new_err(msg.clone()));
            msg
        })
    }
}

/// A census journal (`census(..., journal=PATH)`): locked for the run; its rows read back
/// and kept by the library's rule; each finished row appended and flushed.
#[pyclass(frozen, module = "heaplab._heaplab")]
pub(crate) struct CensusJournal {
    path: PathBuf,
    census: String,
    classes: u64,
    /// Open to append once [`CensusJournal::resume`] has written the header.
    file: Mutex<Option<File>>,
    /// Held until the run ends.
    lock: Mutex<Option<Lock>>,
}

#[pymethods]
impl CensusJournal {
    /// Takes the lock of the journal at `path` of the census `census` (its identity) of
    /// `classes` classes.
    #[new]
    fn new(path: PathBuf, census: String, classes: u64) -> PyResult<CensusJournal> {
        if path.as_os_str().is_empty() {
            return Err(PyValueError::new_err("journal is an empty path"));
        }
        let lock = Lock::take(&path, "journal")?;
        Ok(CensusJournal {
            path,
            census,
            classes,
            file: Mutex::new(None),
            lock: Mutex::new(Some(lock)),
        })
    }

    /// The rows the journal already holds that a run over the classes in `classes_json`
    /// keeps ([`read_journal`], [`resume_rows`]) as a JSON list, and the positions in
    /// that list of the classes still to compute. The journal is written again with its
    /// header and the kept rows, and stays open to append.
    fn resume(&self, py: Python<'_>, classes_json: &str) -> PyResult<(String, Vec<usize>)> {
        let classes: Vec<Class> = serde_json::from_str(classes_json)
            .map_err(|e| PyValueError::new_err(format!("not a list of census classes: {e}")))?;
        let header = journal_header(&self.census, self.classes, "1/1");
        let p = &self.path;
        py.detach(|| -> PyResult<(String, Vec<usize>)> {
            let done = match std::fs::metadata(p) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => vec![],
                Err(e) => {
                    return Err(PyOSError::new_err(format!(
                        "cannot read the journal `{}`: {e}",
                        p.display()
                    )))
                }
                Ok(m) if !m.is_file() => {
                    return Err(PyValueError::new_err(format!(
                        "the journal `{}` is not a file",
                        p.display()
                    )))
                }
                Ok(_) => {
                    let bytes = std::fs::read(p).map_err(|e| {
                        PyOSError::new_err(format!(
                            "cannot read the journal `{}`: {e}",
                            p.display()
                        ))
                    })?;
                    read_journal(&bytes, &header).map_err(|why| {
                        PyValueError::new_err(format!(
                            "`{}` {why}: remove it to start afresh",
                            p.display()
                        ))
                    })?
                }
            };
            let (kept, todo) = resume_rows(done, &classes);
            let mut text = header.clone();
            text.push('\n');
            for r in &kept {
                text.push_str(&journal_line(r, &self.census, self.classes));
                text.push('\n');
            }
            let cannot = |e: std::io::Error| {
                PyOSError::new_err(format!("cannot write `{}`: {e}", p.display()))
            };
            write_atomic(p, text.as_bytes()).map_err(cannot)?;
            let f = OpenOptions::new().append(true).open(p).map_err(cannot)?;
            if let Ok(mut g) = self.file.lock() {
                *g = Some(f);
            }
            let at: std::collections::HashMap<u64, usize> = classes
                .iter()
                .enumerate()
                .map(|(i, c)| (c.index, i))
                .collect();
            let todo = todo.iter().map(|c| at[&c.index]).collect();
            Ok((serde_json::to_string(&kept).expect("rows serialise"), todo))
        })
    }

    /// Appends a finished row (JSON) and flushes it.
    fn write(&self, row_json: &str) -> PyResult<()> {
        let row: CensusRow = serde_json::from_str(row_json)
            .map_err(|e| PyValueError::new_err(format!("not a census row: {e}")))?;
        self.append(&row);
        Ok(())
    }

    /// The census is complete: the journal goes, and its lock.
    fn finish(&self) -> PyResult<()> {
        if let Ok(mut f) = self.file.lock() {
            f.take();
        }
        remove_saved(&self.path, "journal")?;
        self.close();
        Ok(())
    }

    /// Releases the lock (the journal stays, for a later run to resume).
    fn close(&self) {
        if let Ok(mut f) = self.file.lock() {
            f.take();
        }
        if let Ok(mut l) = self.lock.lock() {
            l.take();
        }
    }
}

impl CensusJournal {
    /// Appends a row's journal line ([`journal_line`]) and flushes it; as on the command
    /// line, a line lost to a full disk is only computed again on resume.
    pub(crate) fn append(&self, row: &CensusRow) {
        if let Ok(mut g) = self.file.lock() {
            if let Some(f) = g.as_mut() {
                let line = format!("{}\n", journal_line(row, &self.census, self.classes));
                let _ = f.write_all(line.as_bytes()).and_then(|_| f.flush());
            }
        }
    }
}
