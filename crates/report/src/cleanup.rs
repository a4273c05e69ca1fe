//! Interrupted runs leave nothing half-written: temporary files and folders register here
//! while they exist, and on SIGINT, SIGTERM or SIGHUP (the `ctrlc` crate's handler thread)
//! they are removed before the process exits with code 130. Checkpoints and their
//! `.partial` outputs are deliberately not registered: they exist to be resumed.

use std::path::PathBuf;
use std::sync::Mutex;

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
    /// The outermost folder this run made (None: the whole path existed).
    top: Option<PathBuf>,
    leaf: PathBuf,
    kept: bool,
    _pending: Option<Pending>,
}

impl MadeDirs {
    /// The run succeeded: the folders stay.
    pub fn keep(mut self) {
        self.kept = true;
    }
}

impl Drop for MadeDirs {
    fn drop(&mut self) {
        let Some(top) = &self.top else { return };
        if self.kept {
            return;
        }
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
    let mut top = None;
    let mut d = Some(dir);
    while let Some(p) = d.filter(|p| !p.as_os_str().is_empty() && !p.exists()) {
        top = Some(p.to_path_buf());
        d = p.parent();
    }
    std::fs::create_dir_all(dir)?;
    let pending = top.clone().map(Pending::new);
    Ok(MadeDirs {
        top,
        leaf: dir.to_path_buf(),
        kept: false,
        _pending: pending,
    })
}

fn lock() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Installs the handler (once, at start-up). Failing to install it only loses the clean-up.
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        let pending = lock();
        for p in pending.iter() {
            if p.is_dir() {
                let _ = std::fs::remove_dir_all(p);
            } else {
                let _ = std::fs::remove_file(p);
            }
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
