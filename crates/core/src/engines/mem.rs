//! Memory advice for the large tables the engines read at random.

/// A zeroed table of `len` values whose memory the kernel is asked to back with huge pages
/// (2 MiB on x86-64 Linux, `madvise(MADV_HUGEPAGE)`), so that reads scattered over a table of
/// tens of megabytes do not miss the TLB at every window. The advice is given before the
/// first write touches the pages; where it is refused (another OS, transparent huge pages
/// disabled) the table is an ordinary one. Measured on subtract-a-square to 10^7: 15–20 %
/// less time per (position, option) pair in [`super::blocked::blocked_mex_grundy`].
pub fn huge_zeroed<T: Copy + Default>(len: usize) -> Vec<T> {
    let v = vec![T::default(); len];
    advise_huge(&v);
    v
}

/// Whether `bytes` can be allocated now: on Unix an anonymous mapping of that size that
/// the kernel grants (address space and overcommit rules, `ulimit -v` included) and that
/// is unmapped at once, no page touched; elsewhere a reservation the allocator grants and
/// gives back. Engines ask before they allocate their tables, since an allocation that
/// fails inside them ends the process. The probe does not go through the global allocator,
/// so a program whose allocator ends the process on failure (the `heaplab` binary) can
/// still ask.
pub(crate) fn can_allocate(bytes: u64) -> bool {
    let Ok(n) = usize::try_from(bytes) else {
        return false;
    };
    if n == 0 {
        return true;
    }
    #[cfg(unix)]
    {
        // SAFETY: a fresh private anonymous mapping is requested (no address given, no
        // file); on success exactly that mapping, of n bytes, is unmapped again and
        // nothing ever reads or writes it.
        unsafe {
            let p = libc::mmap(
                std::ptr::null_mut(),
                n,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if p == libc::MAP_FAILED {
                return false;
            }
            libc::munmap(p, n);
            true
        }
    }
    #[cfg(not(unix))]
    {
        let mut v: Vec<u8> = Vec::new();
        v.try_reserve_exact(n).is_ok()
    }
}

/// A table of `len` `u32` values, zero at first, whose middle can be given back to the
/// system once it will not be read again: the record mode's prefix and window of a run far
/// longer than memory. On Linux it is one private anonymous mapping reserved without
/// backing (`MAP_NORESERVE`: address space only, pages arrive as they are first written),
/// and [`Sliding::release`] returns whole pages with `madvise(MADV_DONTNEED)`, after which
/// they read as 0; elsewhere it is an ordinary vector that keeps every value.
pub(crate) struct Sliding {
    ptr: *mut u32,
    len: usize,
    #[cfg(not(target_os = "linux"))]
    vec: Vec<u32>,
}

// SAFETY: the mapping is owned by this value alone (no aliasing pointer escapes beyond the
// borrows of its methods), like a Vec.
unsafe impl Send for Sliding {}

impl Sliding {
    /// A zeroed table of `len` values, or None when the address space cannot be reserved.
    pub(crate) fn new(len: usize) -> Option<Sliding> {
        let bytes = len.checked_mul(4)?.max(4);
        #[cfg(target_os = "linux")]
        {
            // SAFETY: a fresh private anonymous mapping (no address given, no file);
            // checked for failure before use.
            let p = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    bytes,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                    -1,
                    0,
                )
            };
            if p == libc::MAP_FAILED {
                return None;
            }
            Some(Sliding {
                ptr: p as *mut u32,
                len,
            })
        }
        #[cfg(not(target_os = "linux"))]
        {
            let mut vec: Vec<u32> = Vec::new();
            vec.try_reserve_exact(bytes / 4).ok()?;
            vec.resize(len, 0);
            Some(Sliding {
                ptr: vec.as_mut_ptr(),
                len,
                vec,
            })
        }
    }

    /// Values it holds.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The first value's address (for the engines' shared table; writes only through it
    /// while `self` is borrowed mutably).
    pub(crate) fn as_mut_ptr(&mut self) -> *mut u32 {
        self.ptr
    }

    /// Values `range` (in bounds, else a panic).
    pub(crate) fn get(&self, range: std::ops::Range<usize>) -> &[u32] {
        assert!(
            range.start <= range.end && range.end <= self.len,
            "inside the table"
        );
        // SAFETY: in bounds of the mapping, which lives as long as `self`; initialised
        // (zero pages or written values).
        unsafe { std::slice::from_raw_parts(self.ptr.add(range.start), range.len()) }
    }

    /// Values `range` to write (in bounds, else a panic).
    pub(crate) fn get_mut(&mut self, range: std::ops::Range<usize>) -> &mut [u32] {
        assert!(
            range.start <= range.end && range.end <= self.len,
            "inside the table"
        );
        // SAFETY: as for `get`, and `self` is borrowed mutably, so nothing else reads.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(range.start), range.len()) }
    }

    /// Gives back the whole pages inside values `from..to`: they read as 0 afterwards (on
    /// Linux; elsewhere nothing changes). The caller never reads them again.
    pub(crate) fn release(&mut self, from: usize, to: usize) {
        #[cfg(target_os = "linux")]
        {
            const PAGE: usize = 4096;
            let to = to.min(self.len);
            if from >= to {
                return;
            }
            let base = self.ptr as usize;
            let lo = (base + 4 * from).next_multiple_of(PAGE);
            let hi = (base + 4 * to) / PAGE * PAGE;
            if hi > lo {
                // SAFETY: [lo, hi) lies inside the mapping; `self` is borrowed mutably, so
                // no reference into it lives; MADV_DONTNEED on a private anonymous mapping
                // leaves the range valid, reading as zero pages.
                unsafe {
                    libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_DONTNEED);
                }
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = (from, to);
    }
}

impl Drop for Sliding {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        // SAFETY: exactly the mapping made in `new`, unmapped once, with no reference into
        // it left (self is being dropped).
        unsafe {
            libc::munmap(self.ptr as *mut libc::c_void, (self.len * 4).max(4));
        }
    }
}

/// Asks for huge pages over the 2 MiB-aligned part of `v` (advice only; errors ignored).
fn advise_huge<T>(v: &[T]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = v.as_ptr() as usize;
        let end = start + std::mem::size_of_val(v);
        let lo = start.next_multiple_of(HUGE);
        let hi = end / HUGE * HUGE;
        if hi > lo {
            // SAFETY: [lo, hi) lies inside the allocation of `v`; MADV_HUGEPAGE changes no
            // contents, only how the kernel backs the pages.
            unsafe {
                libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_allocation_probe_answers_both_ways() {
        assert!(can_allocate(0) && can_allocate(1 << 20));
        // far beyond any address space
        assert!(!can_allocate(1 << 62) && !can_allocate(u64::MAX));
    }

    #[test]
    fn sliding_tables_keep_what_is_not_released() {
        let mut t = Sliding::new(1 << 20).unwrap();
        for (i, v) in t.get_mut(0..1 << 20).iter_mut().enumerate() {
            *v = i as u32 + 1;
        }
        t.release(1000, 900_000);
        // the kept ends are intact
        assert!(t
            .get(0..1000)
            .iter()
            .enumerate()
            .all(|(i, &v)| v == i as u32 + 1));
        let tail = t.get(900_000..1 << 20);
        assert!(tail.iter().zip(900_000..).all(|(&v, i)| v == i + 1));
        assert!(Sliding::new(usize::MAX).is_none());
    }

    #[test]
    fn tables_are_zeroed_at_every_size() {
        for len in [0usize, 1, 1000, 3 << 20] {
            let v: Vec<u16> = huge_zeroed(len);
            assert_eq!(v.len(), len);
            assert!(v.iter().all(|&x| x == 0));
        }
    }
}
