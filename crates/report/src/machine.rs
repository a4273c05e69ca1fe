//! What this machine allows a run: the [`Budget`] the libraries check every run against,
//! from the memory available now (sysinfo) and the free space where an output goes (fs4).

use heaplab_core::Budget;
use std::path::Path;

/// Bytes of memory available now (the kernel's estimate of what can be allocated without
/// swapping; 8 GiB when it cannot be read), or what an address-space limit (`ulimit -v`)
/// still leaves this process, whichever is less.
pub fn available_memory() -> u64 {
    let mut sys = sysinfo::System::new();
    sys.refresh_memory();
    let free = match sys.available_memory() {
        0 => 8 << 30,
        m => m,
    };
    address_space_left().map_or(free, |left| free.min(left))
}

/// Bytes the address-space limit (RLIMIT_AS, `ulimit -v`) leaves this process beyond the
/// address space it maps now (`/proc/self/statm`); None without a limit, or when either
/// cannot be read.
fn address_space_left() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let mut r = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit only fills `r`; sysconf only reads a constant.
        let (got, page) = unsafe {
            (
                libc::getrlimit(libc::RLIMIT_AS, &mut r),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        if got != 0 || r.rlim_cur == libc::RLIM_INFINITY || page <= 0 {
            return None;
        }
        let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
        let pages: u64 = statm.split_whitespace().next()?.parse().ok()?;
        // (rlim_t is 32 bits wide on 32-bit targets)
        #[allow(clippy::useless_conversion)]
        let limit = u64::from(r.rlim_cur);
        Some(limit.saturating_sub(pages.saturating_mul(page as u64)))
    }
    #[cfg(not(target_os = "linux"))]
    None
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
pub fn free_space(p: &Path) -> Option<u64> {
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
