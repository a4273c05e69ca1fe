//! Interrupted runs leave nothing half-written: temporary files and folders register here
//! while they exist, and on SIGINT, SIGTERM or SIGHUP (the `ctrlc` crate's handler thread)
//! they are removed before the process exits with code 130. Checkpoints and their
//! `.partial` outputs are deliberately not registered: they exist to be resumed. A run that
//! can save its state on the way out ([`SaveOnStop`]) is asked to first, and given a
//! minute.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A temporary path removed if the process is interrupted while this guard lives.
#[derive(Debug)]
pub struct Pending(PathBuf);

impl Pending {
    /// Registers `path` (a file or a folder).
    pub fn new(path: PathBuf) -> Pending {
        lock().push(path.clone());
        Pending(path)
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        let mut v = lock();
        if let Some(i) = v.iter().position(|p| *p == self.0) {
            v.swap_remove(i);
        }
    }
}

/// Folders made for a run's output (the missing part of a path): removed again, while
/// empty, when the run fails (this guard dropped without [`MadeDirs::keep`]), and removed
/// with their contents when it is interrupted (registered as [`Pending`]).
#[derive(Debug)]
pub struct MadeDirs {
    /// The outermost folder this run made and still owns (None: the whole path existed,
    /// or the run kept its folders).
    top: Option<PathBuf>,
    leaf: PathBuf,
    _pending: Option<Pending>,
}

impl MadeDirs {
    /// The outermost folder made, if any.
    pub fn top(&self) -> Option<&std::path::Path> {
        self.top.as_deref()
    }

    /// The run succeeded: the folders stay.
    pub fn keep(mut self) {
        self.top = None;
    }
}

impl Drop for MadeDirs {
    fn drop(&mut self) {
        let Some(top) = &self.top else { return };
        // From the innermost folder out to the outermost one made; stops at one that is
        // not empty.
        let mut d = self.leaf.as_path();
        while std::fs::remove_dir(d).is_ok() && d != top {
            match d.parent() {
                Some(p) => d = p,
                None => break,
            }
        }
    }
}

/// Creates `dir` and every missing folder above it (as `create_dir_all`), remembering which
/// were made (see [`MadeDirs`]).
///
/// # Errors
/// The error of `create_dir_all`.
pub fn make_dirs(dir: &std::path::Path) -> std::io::Result<MadeDirs> {
    make_dirs_as(dir, true)
}

/// [`make_dirs`] for folders whose files outlive an interrupt (the frequency snapshots a
/// resumed run goes on from): removed, while empty, when the run fails, but kept with
/// what they hold when it is interrupted.
///
/// # Errors
/// The error of `create_dir_all`.
pub fn make_dirs_kept(dir: &std::path::Path) -> std::io::Result<MadeDirs> {
    make_dirs_as(dir, false)
}

fn make_dirs_as(dir: &std::path::Path, removed_on_interrupt: bool) -> std::io::Result<MadeDirs> {
    let mut top = None;
    let mut d = Some(dir);
    while let Some(p) = d.filter(|p| !p.as_os_str().is_empty() && !p.exists()) {
        top = Some(p.to_path_buf());
        d = p.parent();
    }
    std::fs::create_dir_all(dir)?;
    let pending = top
        .clone()
        .filter(|_| removed_on_interrupt)
        .map(Pending::new);
    Ok(MadeDirs {
        top,
        leaf: dir.to_path_buf(),
        _pending: pending,
    })
}

/// Runs `put` — the step that moves a run's finished output into place — with the
/// clean-up held off, and on success forgets `done` (the temporary paths `put` used up).
/// An interrupt arriving meanwhile waits for `put` and then leaves the output alone: never
/// a half-removed one.
pub fn finishing<R>(
    done: &[&std::path::Path],
    put: impl FnOnce() -> anyhow::Result<R>,
) -> anyhow::Result<R> {
    let mut pending = lock();
    let r = put()?;
    pending.retain(|p| !done.contains(&p.as_path()));
    Ok(r)
}

fn lock() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes the registered temporary paths now (innermost first), when the lock is free:
/// for a process about to end at once (memory exhausted). Never waits.
pub fn remove_pending() {
    let Ok(pending) = PENDING.try_lock() else {
        return;
    };
    remove_once(&pending);
}

/// One pass over `pending`, innermost first (a temporary file before the folders made for
/// it): whether something could not be removed and is still there.
fn remove_once(pending: &[PathBuf]) -> bool {
    let mut left = false;
    for p in pending.iter().rev() {
        let gone = if p.is_dir() {
            std::fs::remove_dir_all(p)
        } else {
            std::fs::remove_file(p)
        };
        left |= gone.is_err() && std::fs::symlink_metadata(p).is_ok();
    }
    left
}

/// Runs that save a checkpoint when asked to stop ([`SaveOnStop`]) now, and whether an
/// interrupt has asked them to.
static SAVERS: AtomicUsize = AtomicUsize::new(0);
static STOP: AtomicBool = AtomicBool::new(false);
/// How long the handler waits for a run to save before it stops the process anyway.
const SAVE_WAIT: Duration = Duration::from_secs(60);

/// While this guard lives, an interrupt first asks the run to stop
/// ([`stop_requested`]) and waits up to a minute for it to save its checkpoint and return;
/// the process then ends as for any interrupt (temporary files removed, code 130).
#[derive(Debug)]
pub struct SaveOnStop(());

impl SaveOnStop {
    /// Registers a run that saves when asked to stop.
    pub fn new() -> SaveOnStop {
        SAVERS.fetch_add(1, Ordering::SeqCst);
        SaveOnStop(())
    }
}

impl Drop for SaveOnStop {
    fn drop(&mut self) {
        SAVERS.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Has an interrupt asked a [`SaveOnStop`] run to save and stop?
pub fn stop_requested() -> bool {
    STOP.load(Ordering::SeqCst)
}

/// Installs the handler (once, at start-up). Failing to install it only loses the clean-up.
pub fn install() {
    #[cfg(unix)]
    let hangup_ignored = {
        // SAFETY: sigaction with a null new action only reads the current one into `old`,
        // a zeroed sigaction being a valid value to overwrite.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            libc::sigaction(libc::SIGHUP, std::ptr::null(), &mut old) == 0
                && old.sa_sigaction == libc::SIG_IGN
        }
    };
    install_handler();
    // a run started under `nohup` keeps ignoring hang-ups
    #[cfg(unix)]
    if hangup_ignored {
        // SAFETY: setting a signal's disposition to SIG_IGN has no memory effects.
        unsafe {
            libc::signal(libc::SIGHUP, libc::SIG_IGN);
        }
    }
}

/// The handler itself (`ctrlc`'s thread): a saving run first, then the clean-up.
fn install_handler() {
    let _ = ctrlc::set_handler(|| {
        if SAVERS.load(Ordering::SeqCst) > 0 && !STOP.swap(true, Ordering::SeqCst) {
            eprintln!("heaplab: interrupted: saving a checkpoint before stopping");
            let t0 = Instant::now();
            while SAVERS.load(Ordering::SeqCst) > 0 && t0.elapsed() < SAVE_WAIT {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        // (waits while a run puts its finished output in place: see `finishing`)
        let pending = lock();
        // Innermost first (a temporary file before the folders made for it), and again
        // while the rest of the process, still running, adds files to a folder being
        // removed.
        for _ in 0..20 {
            let left = remove_once(&pending);
            if !left {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        if pending.is_empty() {
            eprintln!("interrupted");
        } else {
            eprintln!("interrupted; temporary files removed");
        }
        std::process::exit(130);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finishing_forgets_the_used_paths_only_on_success() {
        let a = PathBuf::from("/nonexistent/heaplab-finishing-a");
        let b = PathBuf::from("/nonexistent/heaplab-finishing-b");
        let (_pa, _pb) = (Pending::new(a.clone()), Pending::new(b.clone()));
        let listed = |p: &PathBuf| lock().contains(p);
        let r = finishing(&[&a], || -> anyhow::Result<()> { anyhow::bail!("no") });
        assert!(r.is_err() && listed(&a) && listed(&b));
        assert_eq!(finishing(&[&a], || Ok(7)).unwrap(), 7);
        assert!(!listed(&a) && listed(&b));
    }

    #[test]
    fn made_folders_go_again_unless_kept() {
        let base = tempfile::tempdir().unwrap();
        let leaf = base.path().join("a/b/c");
        // Dropped: every folder made is removed, the existing base stays.
        drop(make_dirs(&leaf).unwrap());
        assert!(!base.path().join("a").exists());
        assert!(base.path().exists());
        // Kept: the folders stay.
        make_dirs(&leaf).unwrap().keep();
        assert!(leaf.is_dir());
        // Made only below an existing folder, and a folder with a file in it stays.
        let leaf2 = base.path().join("a/b/d/e");
        let made = make_dirs(&leaf2).unwrap();
        std::fs::write(leaf2.join("f"), "x").unwrap();
        drop(made);
        assert!(leaf2.join("f").exists());
        std::fs::remove_file(leaf2.join("f")).unwrap();
        drop(make_dirs(&leaf2).unwrap());
        assert!(leaf2.exists(), "existed before: not this run's to remove");
        let made = make_dirs(&base.path().join("a/b/d/e/g")).unwrap();
        drop(made);
        assert!(leaf2.is_dir() && !leaf2.join("g").exists());
        assert!(leaf.is_dir());
    }
}
