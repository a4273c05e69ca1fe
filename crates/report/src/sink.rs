//! Where `heaplab losers` puts P-positions, and how a killed run resumes.
//!
//! Rows go out in fixed batches (see [`crate::output::LoserRows`]), so the output depends
//! on the sequence alone. With `--checkpoint`, CSV and b-file rows go to `FILE.partial`,
//! whose length and checksum are recorded at every checkpoint (a resumed run checks them,
//! truncates the file there and appends); Parquet output is spooled as raw 64-bit
//! P-positions to `FILE.spool` and converted at the end, since a Parquet file cannot be
//! reopened for appending. Either way the final file is renamed into place only when
//! complete, and is byte-identical to an uninterrupted run.
//!
//! The checkpoint file holds the core's stream [`Checkpoint`] and the output's state
//! ([`SavedRun`]), sealed with the user's checkpoint key ([`checkpoint_key`]); a run holds an advisory lock on
//! `CHECKPOINT.lock` so two runs never share one checkpoint. A checkpoint is resumed only
//! when its seal, the side file's length, checksum and last row, and (in the core) the
//! stream state against the rule all agree; anything else is refused in one line.

use crate::output::{AtomicFile, Format, Labels, LoserRows, BATCH_ROWS};
use anyhow::{bail, Context, Result};
use heaplab_core::saved::stream::{
    last_agrees, spool_ends_right, Difference, SavedStream, SideHash,
};
use heaplab_core::saved::Key;
use heaplab_core::Checkpoint;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// What the command line keeps of its output in a checkpoint: the file, its format and
/// how its rows are labelled.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Front {
    /// The output file (None: counting only).
    pub output: Option<PathBuf>,
    /// Its format.
    pub format: Format,
    /// How its rows are labelled (`--offset`, `--shift`).
    pub labels: Labels,
}

/// What a checkpoint file holds: the stream's state, the side file's and the output's
/// ([`heaplab_core::saved::stream::SavedStream`]).
pub type SavedRun = SavedStream<Front>;

/// The user's checkpoint key ([`heaplab_files::checkpoint_key`]) for the checkpoint at
/// `cp`, read once per run (made only when no checkpoint waits to be resumed).
///
/// # Errors
/// One line naming the key's file when it cannot be read or made, or holds no key.
pub fn checkpoint_key(cp: &Path) -> Result<&'static Key> {
    static KEY: OnceLock<Key> = OnceLock::new();
    if let Some(key) = KEY.get() {
        return Ok(key);
    }
    let key = heaplab_files::checkpoint_key_for(cp).map_err(anyhow::Error::msg)?;
    Ok(KEY.get_or_init(|| key))
}

/// Reads the checkpoint at `path`, checking its seal; None when there is none.
pub fn load_run(path: &Path) -> Result<Option<SavedRun>> {
    let key = checkpoint_key(path)?;
    read_checkpoint(path, |b| SavedRun::decode(b, key))
}

/// Fails unless the checkpoint `saved` at `path` belongs to the run of `game` to `max`
/// into `out` in `format`, naming what differs.
pub fn check_same(
    saved: &SavedRun,
    path: &Path,
    game: &str,
    max: u64,
    out: Option<&Path>,
    format: Format,
    labels: Labels,
) -> Result<()> {
    let f = &saved.front;
    let show = |o: Option<&Path>| o.map_or("no file".into(), |p| format!("`{}`", p.display()));
    let differs = if let Some(d) = saved.differs(game, max) {
        match d {
            Difference::Game(g) => format!("game {g} (not {game})"),
            Difference::Max(m) => format!("--max {m} (not {max})"),
        }
    } else if out.is_some() && f.labels != labels {
        format!(
            "--offset {} --shift {} (not --offset {} --shift {})",
            f.labels.offset, f.labels.shift, labels.offset, labels.shift
        )
    } else if !same_output(f.output.as_deref(), out) {
        format!("-o {} (not {})", show(f.output.as_deref()), show(out))
    } else if out.is_some() && f.format != format {
        format!("format {:?} (not {format:?})", f.format).to_lowercase()
    } else {
        return Ok(());
    };
    bail!(
        "checkpoint `{}` belongs to another run, with {differs}; remove it or pick another file",
        path.display()
    );
}

/// Whether two spellings of an output name the same file (`X.txt`, `./X.txt`, its
/// absolute path, a path through a link to its folder).
fn same_output(a: Option<&Path>, b: Option<&Path>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => crate::files::same_file_key(a) == crate::files::same_file_key(b),
        (a, b) => a == b,
    }
}

/// Writes the checkpoint to `path` atomically.
fn save_run(run: &SavedRun, path: &Path) -> Result<()> {
    let bytes = run
        .encode(checkpoint_key(path)?)
        .map_err(anyhow::Error::msg)?;
    AtomicFile::write_whole(path, &bytes, "checkpoint")?;
    Ok(())
}

/// The advisory lock a run holds on its checkpoint (on `CHECKPOINT.lock`), released when
/// dropped (and by the system when the process dies).
pub struct CheckpointLock {
    _file: File,
    path: PathBuf,
    /// Removed by the interrupt handler too (SIGINT, SIGTERM, SIGHUP).
    _pending: crate::cleanup::Pending,
}

impl CheckpointLock {
    /// Takes the lock of checkpoint `cp`, or fails when another run holds it.
    pub fn take(cp: &Path) -> Result<CheckpointLock> {
        CheckpointLock::take_named(cp, "checkpoint")
    }

    /// [`CheckpointLock::take`] for a file called `what` in messages (a census journal).
    /// The lock file `FILE.lock` must be a regular file or absent (a FIFO would block).
    pub fn take_named(cp: &Path, what: &str) -> Result<CheckpointLock> {
        // (one lock per file, however it is named: through links, `..` or `./`)
        let path = side_path(&crate::files::same_file_key(cp), ".lock");
        if std::fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) {
            bail!(
                "cannot lock {what} `{}`: `{}` is not a file",
                cp.display(),
                path.display()
            );
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .with_context(|| format!("cannot lock {what} `{}`", cp.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(CheckpointLock {
                _file: file,
                _pending: crate::cleanup::Pending::new(path.clone()),
                path,
            }),
            Err(std::fs::TryLockError::WouldBlock) => bail!(
                "{what} `{}` is in use by another heaplab run; wait for it to end or pick another file",
                cp.display()
            ),
            Err(std::fs::TryLockError::Error(e)) => {
                bail!("cannot lock {what} `{}`: {e}", cp.display())
            }
        }
    }
}

impl Drop for CheckpointLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The checkpoint file at `path` read whole (no more than its length, whatever it is
/// linked to) and decoded by `decode`: None when there is none; a one-line error when it is
/// not a regular file, cannot be read, or `decode` says why it is refused.
pub(crate) fn read_checkpoint<T, E: std::fmt::Display>(
    path: &Path,
    decode: impl FnOnce(&[u8]) -> std::result::Result<T, E>,
) -> Result<Option<T>> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => bail!("cannot read checkpoint `{}`: {e}", path.display()),
    };
    if !meta.is_file() {
        bail!(
            "checkpoint `{}` is not a regular file; pick a file path",
            path.display()
        );
    }
    let mut buf = vec![];
    File::open(path)
        .and_then(|f| f.take(meta.len()).read_to_end(&mut buf))
        .with_context(|| format!("cannot read checkpoint `{}`", path.display()))?;
    decode(&buf).map(Some).map_err(|why| {
        anyhow::anyhow!(
            "checkpoint `{}` {why}; remove it to start over",
            path.display()
        )
    })
}

/// Removes the checkpoint `cp` of a run that is complete (nothing when it is gone already).
pub fn remove_finished(cp: &Path) -> Result<()> {
    if cp.exists() {
        std::fs::remove_file(cp)
            .with_context(|| format!("cannot remove checkpoint `{}`", cp.display()))?;
    }
    Ok(())
}

/// `out` with `suffix` appended to its name.
pub fn side_path(out: &Path, suffix: &str) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// The running checksum of what a side file holds: every byte written to it, in order
/// ([`SideHash`], shared with the writer).
#[derive(Clone)]
pub(crate) struct Hashed(Arc<Mutex<SideHash>>);

impl Hashed {
    pub(crate) fn new() -> Hashed {
        Hashed::from(SideHash::default())
    }
    fn from(h: SideHash) -> Hashed {
        Hashed(Arc::new(Mutex::new(h)))
    }
    fn add(&self, bytes: &[u8]) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).add(bytes);
    }
    /// (bytes so far, their xxh3-64).
    pub(crate) fn now(&self) -> (u64, u64) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).now()
    }
}

/// A file that adds every byte written to a [`Hashed`].
pub(crate) struct HashWrite {
    pub(crate) file: File,
    pub(crate) sum: Hashed,
}

impl Write for HashWrite {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.file.write(buf)?;
        self.sum.add(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// Opens the side file `path` to append: fresh (created empty), or resumed — checked
/// against the checkpoint ([`SideHash::check`]: at least `saved.bytes` long, those bytes
/// with the saved checksum, and ending in the saved last row), cut there, and its checksum
/// carried on.
fn open_side(path: &Path, resume: Option<&SavedRun>, cp: &Path) -> Result<(File, Hashed)> {
    let Some(saved) = resume else {
        let f = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .with_context(|| format!("cannot open `{}`", path.display()))?;
        return Ok((f, Hashed::new()));
    };
    let refuse = |why: String| {
        anyhow::anyhow!(
            "`{}` does not match checkpoint `{}`: {why}; remove both to start over",
            path.display(),
            cp.display()
        )
    };
    let mut f = match OpenOptions::new().read(true).write(true).open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
            "checkpoint `{}` goes on from `{}`, which is missing: copy it with the checkpoint \
             (a run moved to another machine needs both, and the checkpoint key), or remove \
             the checkpoint to start over",
            cp.display(),
            path.display()
        ),
        Err(e) => return Err(refuse(format!("it cannot be opened ({e})"))),
    };
    let (sum, tail) = SideHash::check(&f, saved.bytes, saved.hash).map_err(refuse)?;
    last_row_agrees(&tail, saved).map_err(refuse)?;
    f.set_len(saved.bytes)?;
    f.seek(SeekFrom::Start(saved.bytes))?;
    Ok((f, Hashed::from(sum)))
}

/// The side file's saved part ends in the checkpoint's last P-position: as the last 8
/// bytes of a spool ([`spool_ends_right`]), or as the last row (`k,p,…` or `k p`) of a CSV
/// or b-file, labelled as the run labels its rows.
fn last_row_agrees(tail: &[u8], saved: &SavedRun) -> std::result::Result<(), String> {
    if saved.front.format == Format::Parquet {
        return spool_ends_right(tail, saved.bytes, &saved.stream);
    }
    let text = String::from_utf8_lossy(tail);
    let row = text
        .trim_end_matches('\n')
        .rsplit('\n')
        .next()
        .unwrap_or("");
    let mut cells = row.split([',', ' ']).map(|c| c.parse::<u64>().ok());
    let (k, p) = match (cells.next().flatten(), cells.next().flatten()) {
        (Some(k), Some(p)) => (Some(k), Some(p)),
        _ => (None, None), // the header alone, or nothing
    };
    let Labels { offset, shift } = saved.front.labels;
    last_agrees(
        k.and_then(|k| k.checked_sub(offset)),
        p.and_then(|p| p.checked_sub(shift)),
        &saved.stream,
    )
}

/// How the P-positions are kept.
enum Kind {
    /// Rows through polars; `probe` reads the file length for checkpoints.
    Rows {
        rows: Box<LoserRows<Box<dyn Write + Send>>>,
        probe: Option<File>,
    },
    /// Raw little-endian u64 P-positions (Parquet with checkpoints).
    Spool { w: BufWriter<HashWrite> },
    /// Count only.
    Count,
}

/// The destination of a `losers` run.
pub struct Sink {
    kind: Kind,
    /// The final file, written under a temporary name (no checkpoint).
    atomic: Option<AtomicFile>,
    /// The side file (.partial or .spool) of a run with checkpoints, and its checksum.
    side: Option<(PathBuf, Hashed)>,
    /// Until the first checkpoint of a fresh run refers to it, the side file goes again
    /// when the run fails or is interrupted.
    unsaved: Option<Unsaved>,
    output: Option<PathBuf>,
    format: Format,
    labels: Labels,
}

impl Sink {
    /// The sink for `output` in `format` (None with `count_only`: count only; None
    /// otherwise: rows on stdout), resumed from `resume` when given. With a checkpoint
    /// (`cp`), a file output goes to its side file until the end.
    pub fn open(
        output: Option<&Path>,
        format: Format,
        count_only: bool,
        cp: Option<&Path>,
        resume: Option<&SavedRun>,
        labels: Labels,
    ) -> Result<Sink> {
        let (k0, prev0) = resume.map_or((0, None), |c| (c.stream.count, c.stream.last));
        let mut sink = Sink {
            kind: Kind::Count,
            atomic: None,
            side: None,
            unsaved: None,
            output: output.map(Path::to_path_buf),
            format,
            labels,
        };
        sink.kind = match (output, cp) {
            (None, _) if count_only => Kind::Count,
            (None, _) => Kind::Rows {
                rows: Box::new(LoserRows::new(
                    Box::new(std::io::stdout()) as Box<dyn Write + Send>,
                    format,
                    0,
                    None,
                    true,
                    labels,
                )?),
                probe: None,
            },
            (Some(out), None) => {
                let f = AtomicFile::create(out)?;
                let w: Box<dyn Write + Send> = Box::new(f.file()?);
                sink.atomic = Some(f);
                Kind::Rows {
                    rows: Box::new(LoserRows::new(w, format, 0, None, true, labels)?),
                    probe: None,
                }
            }
            (Some(out), Some(cp)) => {
                let parquet = format == Format::Parquet;
                let path = side_path(out, if parquet { ".spool" } else { ".partial" });
                let (file, sum) = open_side(&path, resume, cp)?;
                if resume.is_none() {
                    sink.unsaved = Some(Unsaved {
                        _pending: crate::cleanup::Pending::new(path.clone()),
                        path: Some(path.clone()),
                    });
                }
                sink.side = Some((path, sum.clone()));
                let probe = file.try_clone()?;
                let w = HashWrite { file, sum };
                if parquet {
                    Kind::Spool {
                        w: BufWriter::new(w),
                    }
                } else {
                    let w: Box<dyn Write + Send> = Box::new(w);
                    let rows = LoserRows::new(w, format, k0, prev0, resume.is_none(), labels)?;
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

    /// Writes everything pending to the side file and saves `stream` with it to `path`.
    pub fn checkpoint(&mut self, path: &Path, stream: Checkpoint) -> Result<()> {
        let side = self.side.as_ref().map(|s| s.0.display().to_string());
        let cannot = || format!("cannot write `{}`", side.clone().unwrap_or_default());
        match &mut self.kind {
            Kind::Rows { rows, probe } => {
                rows.flush_partial().with_context(cannot)?;
                if let Some(f) = probe {
                    f.sync_data().with_context(cannot)?;
                }
            }
            Kind::Spool { w } => {
                w.flush().with_context(cannot)?;
                w.get_ref().file.sync_data().with_context(cannot)?;
            }
            Kind::Count => {}
        }
        let (bytes, hash) = self.side.as_ref().map_or((0, 0), |(_, sum)| sum.now());
        let front = Front {
            output: self.output.clone(),
            format: self.format,
            labels: self.labels,
        };
        save_run(&SavedRun::new(stream, bytes, hash, front), path)?;
        // the checkpoint now refers to the side file: it stays
        if let Some(u) = self.unsaved.take() {
            u.keep();
        }
        Ok(())
    }

    /// Finishes the file and moves it into place; returns the files written.
    pub fn finish(self) -> Result<Vec<String>> {
        let mut files = vec![];
        let side = self.side.map(|s| s.0);
        match self.kind {
            Kind::Rows { rows, .. } => {
                rows.finish()?;
                if let Some(f) = self.atomic {
                    files.push(f.commit()?.display().to_string());
                }
                if let (Some(side), Some(out)) = (&side, &self.output) {
                    std::fs::rename(side, out)
                        .with_context(|| format!("cannot write `{}`", out.display()))?;
                    files.push(out.display().to_string());
                }
            }
            Kind::Spool { mut w } => {
                w.flush()?;
                drop(w);
                let (sp, out) = (side.as_ref().unwrap(), self.output.as_ref().unwrap());
                let f = AtomicFile::create(out)?;
                let mut rows = LoserRows::new(f.file()?, self.format, 0, None, true, self.labels)?;
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

/// A side file no checkpoint refers to yet: removed when dropped (the run failed), unless
/// kept.
struct Unsaved {
    /// None once kept.
    path: Option<PathBuf>,
    _pending: crate::cleanup::Pending,
}

impl Unsaved {
    /// A checkpoint refers to the file now: it stays.
    fn keep(mut self) {
        self.path = None;
    }
}

impl Drop for Unsaved {
    fn drop(&mut self) {
        if let Some(p) = &self.path {
            let _ = std::fs::remove_file(p);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn run(count: u64) -> SavedRun {
        let g = heaplab_core::Game::parse("squares").unwrap();
        let mut s = heaplab_core::open_stream(&g, 100_000, &heaplab_core::Silent).unwrap();
        let mut out = vec![];
        while s.count() < count && s.advance(&mut out) {}
        let front = Front {
            output: Some("x.txt".into()),
            format: Format::Bfile,
            labels: Labels::default(),
        };
        SavedRun::new(s.checkpoint(), 1234, 99, front)
    }

    fn key() -> Key {
        Key::parse(&[b'3'; 64], "test.key").unwrap()
    }

    #[test]
    fn any_damage_to_a_checkpoint_file_is_refused() {
        let bytes = run(1).encode(&key()).unwrap();
        assert!(SavedRun::decode(&bytes, &key()).is_ok());
        // a bit flipped anywhere, at 100 positions spread over the file
        for i in 0..100 {
            let at = i * bytes.len() / 100;
            for bit in [0, 3, 7] {
                let mut b = bytes.clone();
                b[at] ^= 1 << bit;
                assert!(
                    SavedRun::decode(&b, &key()).is_err(),
                    "bit {bit} of byte {at}"
                );
            }
        }
        // truncated at every length, and extended
        for len in 0..bytes.len() {
            assert!(
                SavedRun::decode(&bytes[..len], &key()).is_err(),
                "{len} bytes"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(SavedRun::decode(&longer, &key()).is_err());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// Arbitrary bytes never decode as a checkpoint, and never panic.
        #[test]
        fn arbitrary_bytes_are_no_checkpoint(b in proptest::collection::vec(0u8..=255, 0..4096)) {
            proptest::prop_assert!(SavedRun::decode(&b, &key()).is_err());
        }
    }

    #[test]
    fn the_last_row_must_be_the_checkpoints() {
        let mut saved = run(5);
        let last = saved.stream.last.unwrap();
        let k = saved.stream.count - 1;
        saved.front.format = Format::Csv;
        let ok = format!("k,p,gap\n0,0,\n{k},{last},3\n");
        assert!(last_row_agrees(ok.as_bytes(), &saved).is_ok());
        let wrong = format!("k,p,gap\n0,0,\n{k},{},3\n", last + 1);
        assert!(last_row_agrees(wrong.as_bytes(), &saved).is_err());
        saved.front.format = Format::Bfile;
        assert!(last_row_agrees(format!("{k} {last}\n").as_bytes(), &saved).is_ok());
        assert!(last_row_agrees(b"", &saved).is_err());
        saved.front.format = Format::Parquet;
        saved.bytes = 8 * saved.stream.count;
        assert!(last_row_agrees(&last.to_le_bytes(), &saved).is_ok());
        assert!(last_row_agrees(&(last + 1).to_le_bytes(), &saved).is_err());
    }
}
