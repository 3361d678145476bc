//! Large allocations: fallible, and backed by huge pages where the system allows.
//!
//! A dense table is hundreds of MiB to several GiB. With 4 KiB pages, filling it costs one page
//! fault per 4 KiB and every random query risks a TLB miss; on Linux, `madvise(MADV_HUGEPAGE)`
//! asks for 2 MiB pages instead (transparent huge pages in `madvise` or `always` mode), which
//! removes most of both. Elsewhere, or when the kernel declines, nothing changes but speed.

use core::sync::atomic::AtomicU64;

use crate::Error;

/// Allocations smaller than this are left to the allocator as they are.
const HUGE_THRESHOLD: usize = 4 << 20;

/// `len` zeroed atomic words, or [`Error::AllocationFailed`] naming `bytes_for_error`.
pub(crate) fn zeroed_words(len: usize, bytes_for_error: u64) -> Result<Vec<AtomicU64>, Error> {
    let mut words: Vec<AtomicU64> = Vec::new();
    words.try_reserve_exact(len).map_err(|_| Error::AllocationFailed { bytes: bytes_for_error })?;
    advise_huge_pages(words.as_ptr().cast(), len * size_of::<AtomicU64>());
    words.resize_with(len, || AtomicU64::new(0));
    Ok(words)
}

/// A vector of `len` copies of `value`, on huge pages when large.
pub(crate) fn filled<T: Clone>(len: usize, value: T) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(len);
    advise_huge_pages(v.as_ptr().cast(), len * size_of::<T>());
    v.resize(len, value);
    v
}

/// Asks the kernel to back `[start, start + bytes)` with huge pages (Linux), before first use.
#[cfg_attr(not(target_os = "linux"), expect(unused_variables, reason = "a no-op off Linux"))]
fn advise_huge_pages(start: *const u8, bytes: usize) {
    if bytes < HUGE_THRESHOLD {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let addr = start as usize;
        let first = addr.next_multiple_of(PAGE);
        let end = (addr + bytes) & !(PAGE - 1);
        if end > first {
            // SAFETY: the range lies inside one live allocation of `bytes` bytes starting at
            // `start` (rounded inward to whole pages, as madvise requires); MADV_HUGEPAGE only
            // changes how the kernel backs those pages, never their contents or validity. A
            // failure (e.g. kernel without THP) is harmless and ignored.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
}
