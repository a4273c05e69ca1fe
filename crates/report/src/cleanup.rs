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
