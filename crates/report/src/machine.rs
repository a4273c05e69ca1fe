//! What this machine allows a run: the [`Budget`] the libraries check every run against,
//! from the memory available now (sysinfo) and the free space where an output goes (fs4).

use heaplab_core::Budget;
use std::path::Path;

/// Bytes of memory available now (the kernel's estimate of what can be allocated without
/// swapping; 8 GiB when it cannot be read).
fn available_memory() -> u64 {
    let mut sys = sysinfo::System::new();
    sys.refresh_memory();
    match sys.available_memory() {
        0 => 8 << 30,
        m => m,
    }
}

/// The budget of a run here: 80% of the available memory, the default day of work, and
/// no disk check.
pub fn budget() -> Budget {
    Budget::new(available_memory() / 10 * 8)
}

/// [`budget`] with the free space where `dest` goes (its folder when it does not exist
/// yet; not checked for a device or pipe, or when it cannot be read).
pub fn budget_for(dest: &Path) -> Budget {
    budget().with_disk(free_space(dest))
}

/// Bytes free for us in the file system holding `p`; None for a device or pipe, or when
/// that cannot be read.
fn free_space(p: &Path) -> Option<u64> {
    if crate::files::is_special(p) {
        return None;
    }
    let p = crate::files::resolve_links(p);
    let dir = if p.exists() {
        p
    } else {
        crate::files::folder_of(&p)
    };
    fs4::available_space(dir).ok()
}
