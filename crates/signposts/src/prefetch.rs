//! Software prefetch: overlapping the memory latency of independent table reads.

/// Hints the processor to bring the cache line holding `value` into the cache. A no-op on
/// targets without a stable prefetch instruction.
#[inline]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` only needs SSE, which every x86_64 processor has; a prefetch is a
    // hint that never faults, reads nothing into the program and writes nothing, and the
    // address comes from a live reference.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
            core::ptr::from_ref(value).cast(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
