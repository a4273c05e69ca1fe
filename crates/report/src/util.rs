//! Shared plumbing of the commands: counts on the command line, memory checks, atomic
//! output files, output formats.

use anyhow::{bail, Context, Result};
use std::fs::File;
use std::path::{Path, PathBuf};

/// clap value parser for counts: `1000000`, `1e6`, `10^6`, `1_000_000`.
pub fn count_arg(s: &str) -> std::result::Result<u64, String> {
    heaplab_core::num::parse_count(s).map_err(|e| e.to_string())
}

/// clap value parser for game specs (canonicalised).
pub fn game_arg(s: &str) -> std::result::Result<heaplab_core::Game, String> {
    heaplab_core::Game::parse(s).map_err(|e| e.to_string())
}

/// Bytes of memory available to us now (MemAvailable from /proc/meminfo; 8 GiB when that
/// cannot be read).
pub fn available_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map_or(8 << 30, |kb| kb * 1024)
}

/// Bytes free for us in the file system holding `p` (its folder when `p` does not exist
/// yet); None when that cannot be read.
pub fn free_space(p: &Path) -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let p = resolve_links(p);
        let dir = if p.exists() { p } else { folder_of(&p) };
        let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
        let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
        // SAFETY: `c` is a NUL-terminated path and `st` a statvfs to fill.
        if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
            return None;
        }
        Some((st.f_bavail as u64).saturating_mul(st.f_frsize as u64))
    }
    #[cfg(not(unix))]
    {
        let _ = p;
        None
    }
}

/// Refuses to write about `bytes` to `dest` when its file system has less free space (a
/// device or pipe is not checked).
pub fn check_space(dest: &Path, what: &str, bytes: f64) -> Result<()> {
    if is_special(dest) {
        return Ok(());
    }
    if let Some(free) = free_space(dest) {
        if bytes > free as f64 {
            bail!(
                "{what} would take about {} in `{}`, more than the {} free there; use --count or a smaller N",
                human_bytes(bytes.min(u64::MAX as f64) as u64),
                dest.display(),
                human_bytes(free)
            );
        }
    }
    Ok(())
}

/// Human size: `1.5 GiB`.
pub fn human_bytes(b: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut v = b as f64;
    let mut i = 0;
    while v >= 1024.0 && i + 1 < units.len() {
        v /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", units[i])
    }
}

/// Bytes a run may plan to use: 80% of [`available_memory`].
pub fn memory_budget() -> u64 {
    budget_of(available_memory())
}

/// The share of `avail` bytes a run may plan to use.
fn budget_of(avail: u64) -> u64 {
    avail / 10 * 8
}

/// Refuses a job whose estimated memory exceeds [`memory_budget`] (80% of MemAvailable).
pub fn check_memory(what: &str, needed: u64) -> Result<()> {
    let avail = available_memory();
    if needed > budget_of(avail) {
        bail!(
            "{what} needs about {}, but only {} is available; use a smaller N",
            human_bytes(needed),
            human_bytes(avail)
        );
    }
    Ok(())
}

/// The largest N <= `limit` whose run of `game` this machine accepts: its memory estimate
/// (the P-position stream, or the Grundy table with `grundy`) within [`check_memory`]'s
/// bound and its work within [`check_work`]'s (both grow with N; found by bisection).
pub fn feasible_max(game: &heaplab_core::Game, grundy: bool, limit: u64) -> u64 {
    let avail = memory_budget();
    let ok = |n: u64| {
        let mem = if grundy {
            heaplab_core::grundy::grundy_memory_estimate(game, n)
        } else {
            heaplab_core::engine::stream_memory_estimate(game, n)
        };
        mem <= avail
            && heaplab_core::engine::work_estimate(game, n, grundy)
                <= heaplab_core::engine::WORK_LIMIT
    };
    if ok(limit) {
        return limit;
    }
    let (mut lo, mut hi) = (0u64, limit); // ok(lo) assumed, !ok(hi)
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Refuses a run of `game` to `max` whose estimated work is beyond
/// [`heaplab_core::engine::WORK_LIMIT`] (more than a day), with a one-line error.
pub fn check_work(game: &heaplab_core::Game, max: u64, grundy: bool) -> Result<()> {
    let w = heaplab_core::engine::work_estimate(game, max, grundy);
    if w > heaplab_core::engine::WORK_LIMIT {
        bail!(
            "{game} to N = {max} needs about {w:.1e} {} (more than a day at about 1e9 a second); use a smaller N",
            if grundy { "option visits" } else { "sieve marks" }
        );
    }
    Ok(())
}

/// A file written under a temporary name in the destination folder and renamed into place
/// by [`AtomicFile::commit`]; dropped uncommitted, it is removed, so no half-written file is
/// ever left at the destination.
pub struct AtomicFile {
    target: Target,
    dest: PathBuf,
    _pending: Option<crate::cleanup::Pending>,
}

/// Where an [`AtomicFile`] writes.
enum Target {
    /// A temporary file beside the destination, renamed over `into` (the destination with
    /// links followed) on commit.
    Temp {
        tmp: tempfile::NamedTempFile,
        into: PathBuf,
    },
    /// The destination itself: a device, FIFO or socket (`/dev/stdout`, `/dev/null`, a
    /// pipe), which a rename would replace by a regular file.
    Direct(File),
}

/// `p` with symbolic links followed (a dangling link resolves to the path it names), so a
/// rename replaces the file a link points to rather than the link.
pub fn resolve_links(p: &Path) -> PathBuf {
    let mut cur = p.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&cur) {
            Ok(m) if m.file_type().is_symlink() => match std::fs::read_link(&cur) {
                Ok(to) => {
                    cur = match cur.parent() {
                        Some(dir) if to.is_relative() => dir.join(to),
                        _ => to,
                    }
                }
                Err(_) => break,
            },
            _ => break,
        }
    }
    cur
}

/// True when `p` exists and is neither a regular file nor a folder (a device, FIFO or
/// socket), after following links.
pub fn is_special(p: &Path) -> bool {
    std::fs::metadata(p).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// The folder `p` is in (`.` for a bare file name).
pub fn folder_of(p: &Path) -> PathBuf {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// One name for a path that may not exist yet: its folder canonicalised, links followed,
/// so `./a.txt`, `a.txt` and `/abs/dir/a.txt` compare equal.
pub fn same_file_key(p: &Path) -> PathBuf {
    let p = resolve_links(p);
    let dir = folder_of(&p);
    let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
    match p.file_name() {
        Some(name) => dir.join(name),
        None => dir,
    }
}

impl AtomicFile {
    /// Creates the temporary file next to `dest` (fails early when the folder is missing or
    /// not writable). The temporary name keeps `dest`'s extension. A symbolic link is
    /// followed (its target is replaced, the link kept); a device, FIFO or socket is
    /// written in place.
    pub fn create(dest: &Path) -> Result<AtomicFile> {
        if dest.is_dir() {
            bail!("cannot write `{}`: it is a directory", dest.display());
        }
        if is_special(dest) {
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(dest)
                .with_context(|| format!("cannot write `{}`", dest.display()))?;
            return Ok(AtomicFile {
                target: Target::Direct(f),
                dest: dest.to_path_buf(),
                _pending: None,
            });
        }
        let real = resolve_links(dest);
        let dir = folder_of(&real);
        let name = real
            .file_name()
            .with_context(|| format!("`{}` is not a file path", dest.display()))?
            .to_string_lossy()
            .to_string();
        let ext = real
            .extension()
            .map(|e| format!(".{}", e.to_string_lossy()))
            .unwrap_or_default();
        let tmp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(&format!(".tmp{ext}"))
            .tempfile_in(&dir)
            // the io error alone: tempfile's message names our temporary file
            .map_err(|e| {
                anyhow::anyhow!(
                    "cannot write `{}`: {}",
                    dest.display(),
                    e.to_string().split(" at path ").next().unwrap_or_default()
                )
            })?;
        Ok(AtomicFile {
            _pending: Some(crate::cleanup::Pending::new(tmp.path().to_path_buf())),
            target: Target::Temp { tmp, into: real },
            dest: dest.to_path_buf(),
        })
    }

    /// Fails now, before any work, when `dest` cannot be written: creates and removes the
    /// temporary file, or, for a device or pipe, only checks it can be opened without
    /// opening it (a pipe's reader would see the end of its data).
    pub fn check(dest: &Path) -> Result<()> {
        if is_special(dest) {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let m = std::fs::metadata(dest)?;
                if m.permissions().mode() & 0o222 == 0 {
                    bail!("cannot write `{}`: it is not writable", dest.display());
                }
            }
            return Ok(());
        }
        drop(AtomicFile::create(dest)?);
        Ok(())
    }

    /// The open file to write (the temporary one, or a device itself).
    pub fn file(&self) -> Result<File> {
        Ok(match &self.target {
            Target::Temp { tmp, .. } => tmp.as_file().try_clone()?,
            Target::Direct(f) => f.try_clone()?,
        })
    }

    /// Renames the finished file into place (the target of a link; a device has had the
    /// bytes already).
    pub fn commit(self) -> Result<PathBuf> {
        let dest = self.dest.clone();
        let (tmp, into) = match self.target {
            Target::Direct(_) => return Ok(dest),
            Target::Temp { tmp, into } => (tmp, into),
        };
        // Temporary files are created private; the result gets ordinary file permissions.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o644));
        }
        tmp.persist(into)
            .with_context(|| format!("cannot write `{}`", dest.display()))?;
        Ok(dest)
    }
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
/// extension of `-o`), else the extension of `-o`, else CSV (stdout).
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
        (None, Some(p)) => Format::from_path(p),
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

/// Seconds since `t`, rounded to milliseconds.
pub fn secs(t: std::time::Instant) -> f64 {
    (t.elapsed().as_secs_f64() * 1000.0).round() / 1000.0
}
