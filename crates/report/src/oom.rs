//! The allocator: mimalloc, and a refusal instead of an abort when an allocation fails.
//!
//! Rust aborts the process (exit 134, a core dump, temporary files left behind) when memory
//! cannot be allocated, which happens long before the machine is full under an address-space
//! limit (`ulimit -v`) or a container's. The estimates refuse what will not fit before any
//! work; this is the last line for what they cannot foresee: the failed allocation prints
//! one line, the run's temporary files and folders are removed (as after an interrupt), and
//! the process exits with code 2. Nothing here allocates on the way out but the removals,
//! whose paths are short.

use std::alloc::{GlobalAlloc, Layout};

/// mimalloc (it keeps freed chunk buffers for reuse instead of returning them to the
/// kernel: glibc's trimming made chunked checks pay page faults again and again), refusing
/// in one line when it has no memory to give.
pub struct Refusing;

// SAFETY: every call is passed straight to mimalloc, a correct allocator; a null result
// never returns to the caller (the process exits), which `GlobalAlloc` permits.
unsafe impl GlobalAlloc for Refusing {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        let p = unsafe { mimalloc::MiMalloc.alloc(layout) };
        if p.is_null() {
            refuse(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) };
        if p.is_null() {
            refuse(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, i.e. from mimalloc, with `layout`.
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from mimalloc with `layout`; the caller's contract holds.
        let p = unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) };
        if p.is_null() {
            refuse(new_size);
        }
        p
    }
}

/// Set once an allocation has failed and its refusal is being written.
static REFUSING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether an allocation failed and its one-line refusal is ending the process: any other
/// error met meanwhile (a worker thread that cannot start for want of the same memory) is
/// not reported, so the refusal stays the only line ([`wait_for_the_refusal`]).
pub fn refusing() -> bool {
    REFUSING.load(std::sync::atomic::Ordering::SeqCst)
}

/// Suspends this thread while the failing allocation's thread writes its refusal and
/// ends the process.
pub fn wait_for_the_refusal() -> ! {
    loop {
        // SAFETY: pause() only suspends this thread until a signal arrives.
        unsafe {
            libc::pause();
        }
    }
}

/// Writes the one-line refusal for an allocation of `bytes` to stderr, removes the run's
/// temporary paths and exits with code 2 (once, whichever thread fails first).
fn refuse(bytes: usize) -> ! {
    // one refusal: a second thread failing meanwhile waits for the first to end the process
    if REFUSING.swap(true, std::sync::atomic::Ordering::SeqCst) {
        wait_for_the_refusal();
    }
    let mut line = [0u8; 256];
    let mut at = 0;
    let mut put = |s: &[u8]| {
        let k = s.len().min(line.len() - at);
        line[at..at + k].copy_from_slice(&s[..k]);
        at += k;
    };
    put(b"error: out of memory: an allocation of ");
    let mut digits = [0u8; 20];
    let (mut v, mut d) = (bytes, digits.len());
    loop {
        d -= 1;
        digits[d] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    put(&digits[d..]);
    put(b" bytes failed (more than this process may use: try a smaller N)\n");
    // SAFETY: writes `at` initialised bytes of `line` to file descriptor 2; a failed write
    // changes nothing here.
    unsafe {
        libc::write(2, line.as_ptr().cast(), at);
    }
    crate::cleanup::remove_pending();
    // SAFETY: ends the process at once, without running destructors or atexit handlers
    // (which might allocate again).
    unsafe { libc::_exit(2) }
}
