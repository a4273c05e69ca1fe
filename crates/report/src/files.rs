//! Files heaplab writes, and where: every output goes through [`AtomicFile`] — written under
//! a temporary name beside the destination and renamed into place when complete, with the
//! mode an ordinary new file gets (the umask) or the mode of the file it replaces — except
//! devices, pipes and the descriptors a path can name (`/dev/stdout`, `/dev/fd/N`,
//! `/proc/self/fd/N`), which are written through in place.

use anyhow::{bail, Context, Result};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

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

/// The file-creation mask of this process, read once (at start-up, before any thread
/// creates files: see [`init_umask`]).
static UMASK: OnceLock<u32> = OnceLock::new();

/// Reads the process's umask and keeps it; call once at start-up, while no other thread
/// creates files (reading it means setting it for a moment).
pub fn init_umask() {
    #[cfg(unix)]
    UMASK.get_or_init(|| {
        // SAFETY: umask only swaps the process's creation mask; it is put back at once,
        // before any other thread of this process exists.
        unsafe {
            let old = libc::umask(0o022);
            libc::umask(old);
            // (mode_t is u16 on some systems)
            #[allow(clippy::useless_conversion)]
            u32::from(old)
        }
    });
}

/// The mode a new file gets here: 0666 less the umask (0644 with the usual 022).
fn new_file_mode() -> u32 {
    0o666 & !UMASK.get().copied().unwrap_or(0o022)
}

/// The mode a new folder gets here: 0777 less the umask.
pub fn new_dir_mode() -> u32 {
    0o777 & !UMASK.get().copied().unwrap_or(0o022)
}

/// The open descriptor `p` names, directly or through links: `/dev/stdout` (1),
/// `/dev/stderr` (2), `/dev/fd/N`, `/proc/self/fd/N` or `/proc/<this process>/fd/N`;
/// None for any other path, or a descriptor that is not open.
pub fn open_descriptor(p: &Path) -> Option<i32> {
    let mut cur = p.to_path_buf();
    for _ in 0..40 {
        if let Some(fd) = descriptor_name(&cur) {
            return is_open(fd).then_some(fd);
        }
        match std::fs::read_link(&cur) {
            Ok(to) => {
                cur = match cur.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                }
            }
            Err(_) => return None,
        }
    }
    None
}

/// Whether `p` names this process's stdout (`/dev/stdout`, `/dev/fd/1`, …, or the file
/// stdout was redirected to): a summary line then goes to stderr, so it does not land among
/// the rows.
pub fn is_stdout(p: &Path) -> bool {
    open_descriptor(p) == Some(1) || same_file_as_stdout(p)
}

/// The descriptor number a path spells, if it spells one.
fn descriptor_name(p: &Path) -> Option<i32> {
    let s = p.to_str()?;
    match s {
        "/dev/stdout" => return Some(1),
        "/dev/stderr" => return Some(2),
        _ => {}
    }
    let own = format!("/proc/{}/fd/", std::process::id());
    ["/dev/fd/", "/proc/self/fd/", own.as_str()]
        .iter()
        .find_map(|pre| s.strip_prefix(pre))
        .and_then(|n| n.parse().ok())
}

/// Whether descriptor `fd` is open in this process.
fn is_open(fd: i32) -> bool {
    #[cfg(unix)]
    // SAFETY: F_GETFD only reads the descriptor's flags; an fd that is not open gives -1.
    unsafe {
        libc::fcntl(fd, libc::F_GETFD) != -1
    }
    #[cfg(not(unix))]
    {
        let _ = fd;
        false
    }
}

/// A file of our own writing through the open descriptor `fd` (a duplicate of it, so the
/// writes land where the descriptor points, at its offset, append mode kept).
fn through_descriptor(fd: i32, dest: &Path) -> Result<File> {
    #[cfg(unix)]
    {
        use std::os::fd::FromRawFd;
        // SAFETY: F_DUPFD_CLOEXEC makes a new descriptor (or fails with -1); it is ours
        // alone, so the File below owns it.
        let dup = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 3) };
        if dup == -1 {
            bail!(
                "cannot write `{}`: {}",
                dest.display(),
                std::io::Error::last_os_error()
            );
        }
        // SAFETY: `dup` is a new open descriptor owned by nobody else.
        Ok(unsafe { File::from_raw_fd(dup) })
    }
    #[cfg(not(unix))]
    bail!("cannot write `{}` ({fd})", dest.display())
}

/// Whether descriptor `fd` was opened for writing.
fn writable_descriptor(fd: i32) -> bool {
    #[cfg(unix)]
    // SAFETY: F_GETFL only reads the descriptor's status flags.
    unsafe {
        let fl = libc::fcntl(fd, libc::F_GETFL);
        fl != -1 && (fl & libc::O_ACCMODE) != libc::O_RDONLY
    }
    #[cfg(not(unix))]
    {
        let _ = fd;
        false
    }
}

/// What `fstat` says of stdout; None when it is closed.
#[cfg(unix)]
fn stdout_stat() -> Option<libc::stat> {
    // SAFETY: fstat only fills `st`.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        (libc::fstat(1, &mut st) == 0).then_some(st)
    }
}

/// Whether `path` is the file stdout writes to: the same device and inode.
fn same_file_as_stdout(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Some(st), Ok(m)) = (stdout_stat(), std::fs::metadata(path)) {
            return m.dev() == st.st_dev && m.ino() == st.st_ino;
        }
    }
    let _ = path;
    false
}

/// Fails when stdout is closed (`>&-`), so rows written there would be lost without a
/// word. (Rust's runtime puts `/dev/null`, opened for reading and writing, on a closed
/// standard descriptor before `main`; a shell's `> /dev/null` opens it for writing only.)
pub fn check_stdout() -> Result<()> {
    #[cfg(unix)]
    {
        let st = stdout_stat();
        // SAFETY: F_GETFL only reads the descriptor's flags.
        let fl = unsafe { libc::fcntl(1, libc::F_GETFL) };
        let dev_null = std::fs::metadata("/dev/null").ok().map(|m| {
            use std::os::unix::fs::MetadataExt;
            m.rdev()
        });
        let filled_in = st.is_some_and(|st| {
            (st.st_mode & libc::S_IFMT) == libc::S_IFCHR
                && Some(st.st_rdev) == dev_null
                && (fl & libc::O_ACCMODE) == libc::O_RDWR
        });
        if st.is_none() || filled_in {
            bail!("cannot write the answer to stdout: it is closed");
        }
    }
    Ok(())
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

/// True when `p` names an open descriptor, or exists and is neither a regular file nor a
/// folder (a device, FIFO or socket), after following links: written in place, never
/// replaced.
pub fn is_special(p: &Path) -> bool {
    open_descriptor(p).is_some() || std::fs::metadata(p).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// The part of a file name a temporary name beside it starts with: the whole name, or its
/// first 60 characters when it is long (a temporary name must stay within the 255 bytes a
/// file name may have).
pub fn temp_stem(name: &str) -> String {
    name.chars().take(60).collect()
}

/// Removes the temporary files of earlier runs writing the same file into `dir`
/// (`PREFIX` + six random characters + `SUFFIX`) that no run holds locked: a run killed
/// with `kill -9` leaves its temporary file, and the next run for that output removes it.
/// A file another run is writing is locked by it and left alone.
fn remove_stale_temps(dir: &Path, prefix: &str, suffix: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(name) = name.to_str() else { continue };
        let ours = name.len() == prefix.len() + 6 + suffix.len()
            && name.starts_with(prefix)
            && name.ends_with(suffix)
            && e.file_type().is_ok_and(|t| t.is_file());
        if !ours {
            continue;
        }
        let path = e.path();
        if let Ok(f) = std::fs::OpenOptions::new().write(true).open(&path) {
            if f.try_lock().is_ok() {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
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
        if let Some(fd) = open_descriptor(dest) {
            return Ok(AtomicFile {
                target: Target::Direct(through_descriptor(fd, dest)?),
                dest: dest.to_path_buf(),
                _pending: None,
            });
        }
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
        let (prefix, suffix) = (format!(".{}.", temp_stem(&name)), format!(".tmp{ext}"));
        remove_stale_temps(&dir, &prefix, &suffix);
        let tmp = tempfile::Builder::new()
            .prefix(&prefix)
            .suffix(&suffix)
            .tempfile_in(&dir)
            // the io error alone: tempfile's message names our temporary file
            .map_err(|e| {
                anyhow::anyhow!(
                    "cannot write `{}`: {}",
                    dest.display(),
                    e.to_string().split(" at path ").next().unwrap_or_default()
                )
            })?;
        // held while it is written: a temporary file nobody holds is a killed run's
        // (see remove_stale_temps); where locks are not supported it is only not cleaned
        let _ = tmp.as_file().try_lock();
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
        if let Some(fd) = open_descriptor(dest) {
            if !writable_descriptor(fd) {
                bail!(
                    "cannot write `{}`: it is not open for writing",
                    dest.display()
                );
            }
            return Ok(());
        }
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

    /// Writes `bytes` to `dest` whole, synced to disk, then renames it into place: a kill
    /// at any moment leaves the old file or the new one, never a part (checkpoints).
    /// `what` names the file in the error (`checkpoint`).
    pub fn write_whole(dest: &Path, bytes: &[u8], what: &str) -> Result<PathBuf> {
        let file = AtomicFile::create(dest)?;
        {
            let mut f = file.file()?;
            f.write_all(bytes)
                .and_then(|_| f.sync_data())
                .with_context(|| format!("cannot write {what} `{}`", dest.display()))?;
        }
        file.commit()
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
        // Temporary files are created private: the result gets the mode of the file it
        // replaces, or that of a new file under the umask.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&into)
                .map(|m| m.permissions().mode() & 0o7777)
                .unwrap_or_else(|_| new_file_mode());
            let _ = std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(mode));
        }
        tmp.persist(into)
            .with_context(|| format!("cannot write `{}`", dest.display()))?;
        Ok(dest)
    }
}
