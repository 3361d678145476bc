//! Large allocations: fallible, lazily zeroed, and backed by huge pages where the system allows.
//!
//! A dense table is hundreds of MiB to several GiB. Three costs dominate around its build
//! besides the search itself, and this module removes two of them:
//! - Zeroing. The table is allocated with `alloc_zeroed`, which for large sizes maps fresh
//!   pages that the kernel zeroes on first touch; writing zeros from user space first would
//!   touch every page twice.
//! - The atomic view. Build threads write disjoint words through `AtomicU64` (no `unsafe` in
//!   the engines); afterwards the buffer is reinterpreted as `Vec<u64>` in place instead of
//!   copied.
//! - Page faults and TLB misses. With 4 KiB pages, filling the table costs one fault per
//!   4 KiB and each random query risks a TLB miss; on Linux, `madvise(MADV_HUGEPAGE)` asks for
//!   2 MiB pages (transparent huge pages in `madvise` or `always` mode). Elsewhere, or when the
//!   kernel declines, nothing changes but speed.

use core::mem::ManuallyDrop;
use core::sync::atomic::AtomicU64;
use std::alloc::{Layout, alloc_zeroed};

use crate::Error;

/// Allocations smaller than this are left to the allocator as they are.
const HUGE_THRESHOLD: usize = 4 << 20;

const _: () = assert!(
    size_of::<AtomicU64>() == size_of::<u64>() && align_of::<AtomicU64>() == align_of::<u64>(),
    "the in-place reinterpretation below needs identical layouts"
);

/// Bytes that `count` values of `size_of_each` bytes take, checked against memory addressing:
/// the one place a size is turned into a byte count before it is allocated.
///
/// # Errors
/// [`Error::AllocationFailed`] naming the bytes (saturated at `u64::MAX`) when the product
/// does not fit in `isize::MAX`, the largest allocation Rust can make.
pub(crate) fn checked_bytes(count: usize, size_of_each: usize) -> Result<usize, Error> {
    match count.checked_mul(size_of_each) {
        Some(bytes) if isize::try_from(bytes).is_ok() => Ok(bytes),
        product => Err(Error::AllocationFailed { bytes: product.map_or(u64::MAX, |b| b as u64) }),
    }
}

/// Unit tests run with this allocation ceiling so that a test of a huge size exercises the
/// refusal path without ever asking the machine for gigabytes (the allocator may grant them
/// lazily on Linux, and filling them would abort the test process).
#[cfg(test)]
const TEST_CEILING: usize = 1 << 30;

/// An empty vector with room for `len` values, or [`Error::AllocationFailed`] naming the
/// bytes when the size overflows or the allocator refuses them (instead of an abort).
pub(crate) fn try_with_capacity<T>(len: usize) -> Result<Vec<T>, Error> {
    let bytes = checked_bytes(len, size_of::<T>())?;
    #[cfg(test)]
    if bytes > TEST_CEILING {
        return Err(Error::AllocationFailed { bytes: bytes as u64 });
    }
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| Error::AllocationFailed { bytes: bytes as u64 })?;
    Ok(v)
}

/// `len` values made by `value`, allocated with [`try_with_capacity`].
pub(crate) fn try_filled_with<T>(len: usize, value: impl FnMut() -> T) -> Result<Vec<T>, Error> {
    let mut v = try_with_capacity(len)?;
    v.resize_with(len, value);
    Ok(v)
}

/// `len` zeroed atomic words, or [`Error::AllocationFailed`] naming `bytes_for_error`.
pub(crate) fn zeroed_words(len: usize, bytes_for_error: u64) -> Result<Vec<AtomicU64>, Error> {
    let failed = || Error::AllocationFailed { bytes: bytes_for_error };
    if len == 0 {
        return Ok(Vec::new());
    }
    checked_bytes(len, size_of::<AtomicU64>()).map_err(|_| failed())?;
    let layout = Layout::array::<AtomicU64>(len).map_err(|_| failed())?;
    // SAFETY: `layout` has a non-zero size (`len > 0`).
    let ptr = unsafe { alloc_zeroed(layout) };
    if ptr.is_null() {
        return Err(failed());
    }
    advise_huge_pages(ptr, layout.size());
    #[expect(clippy::cast_ptr_alignment, reason = "allocated with the layout of [AtomicU64; len]")]
    let ptr = ptr.cast::<AtomicU64>();
    // SAFETY: `ptr` comes from the global allocator with the layout of `[AtomicU64; len]`, so
    // length and capacity `len` describe it exactly; every byte is zero, and zero bits are a
    // valid `AtomicU64` (the value 0).
    #[expect(clippy::same_length_and_capacity, reason = "the allocation holds exactly `len` words")]
    Ok(unsafe { Vec::from_raw_parts(ptr, len, len) })
}

/// Reinterprets the words as plain `u64`s, in place.
pub(crate) fn into_plain(words: Vec<AtomicU64>) -> Vec<u64> {
    let mut words = ManuallyDrop::new(words);
    let (ptr, len, capacity) = (words.as_mut_ptr(), words.len(), words.capacity());
    // SAFETY: `AtomicU64` has the same in-memory representation as `u64` (documented), and the
    // assertion above checks that size and alignment agree, so the allocation's layout is that
    // of `[u64; capacity]` and its first `len` elements are initialized `u64`s. The vector is
    // consumed (kept from dropping by `ManuallyDrop`), so the buffer has exactly one owner.
    unsafe { Vec::from_raw_parts(ptr.cast::<u64>(), len, capacity) }
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
            // failure (e.g. a kernel without THP) is harmless and ignored.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::sync::atomic::Ordering;

    #[test]
    fn zeroed_words_round_trip_to_plain_words() {
        for len in [0, 1, 3, 1 << 20] {
            let words = zeroed_words(len, 0).unwrap();
            assert!(words.iter().all(|w| w.load(Ordering::Relaxed) == 0));
            if let Some(last) = words.last() {
                last.store(7, Ordering::Relaxed);
            }
            let plain = into_plain(words);
            assert_eq!(plain.len(), len);
            assert_eq!(plain.last().copied().unwrap_or(7), 7);
        }
    }

    #[test]
    fn checked_bytes_names_the_bytes_of_an_overflowing_size() {
        assert_eq!(checked_bytes(3, 8), Ok(24));
        assert_eq!(checked_bytes(usize::MAX, 2), Err(Error::AllocationFailed { bytes: u64::MAX }));
        let over_isize = (isize::MAX as usize) / 4 + 1;
        assert_eq!(
            checked_bytes(over_isize, 4),
            Err(Error::AllocationFailed { bytes: over_isize as u64 * 4 })
        );
    }

    #[test]
    fn try_with_capacity_refuses_instead_of_aborting() {
        assert_eq!(try_with_capacity::<u64>(4).unwrap().capacity(), 4);
        assert_eq!(try_filled_with(3, || 7u8).unwrap(), [7, 7, 7]);
        assert_eq!(
            try_with_capacity::<u64>(1 << 40).unwrap_err(),
            Error::AllocationFailed { bytes: 8 << 40 }
        );
        assert_eq!(
            try_with_capacity::<u64>(usize::MAX).unwrap_err(),
            Error::AllocationFailed { bytes: u64::MAX }
        );
    }

    #[test]
    fn impossible_sizes_fail_cleanly() {
        assert_eq!(zeroed_words(usize::MAX / 4, 9).unwrap_err(), Error::AllocationFailed { bytes: 9 });
    }
}
