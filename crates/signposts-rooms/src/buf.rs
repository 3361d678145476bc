//! Arrays that either own their values or read them in place from a saved file's bytes (as
//! the core's tables keep theirs): an [`ExactRooms`](crate::ExactRooms) opened with
//! `from_bytes` or `map_file` reads its corner table, cell lists and views where the bytes
//! lie, nothing copied, so opening costs the pages its queries touch.
//!
//! Alignment: a saved file starts every array at a multiple of 8 bytes from its first byte
//! (zero bytes pad the gaps), and a memory map starts on a page; [`Buf::view`] borrows the
//! values in place only when their first byte is aligned for `T` (and the machine is
//! little-endian), and otherwise decodes them into a vector of its own. So bytes of any
//! alignment (a `Vec<u8>` at an odd address) read correctly, only more slowly.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

/// Bytes a [`Buf`] can borrow from: a `Vec<u8>`, a memory map, a `&'static [u8]`, … kept
/// alive by reference counting and only read, so unwind-safe whatever their type.
pub(crate) type Bytes = Arc<AssertUnwindSafe<Box<dyn AsRef<[u8]> + Send + Sync>>>;

/// The slice `bytes` holds.
pub(crate) fn slice(bytes: &Bytes) -> &[u8] {
    (****bytes).as_ref()
}

/// `bytes` shared, as [`Bytes`].
pub(crate) fn share(bytes: impl AsRef<[u8]> + Send + Sync + 'static) -> Bytes {
    Arc::new(AssertUnwindSafe(Box::new(bytes)))
}

/// Values stored as their little-endian bytes, with no padding, for which every bit pattern
/// is a value.
///
/// # Safety
/// Implement only for primitive integers and floats, and `#[repr(C)]` structs of `u32`s.
pub(crate) unsafe trait Plain: Copy + Send + Sync + 'static {
    /// Decodes one value from its little-endian bytes (`size_of::<Self>()` of them).
    fn decode(bytes: &[u8]) -> Self;
    /// Appends the value's little-endian bytes.
    fn encode(&self, out: &mut Vec<u8>);
}

macro_rules! plain {
    ($($t:ty),*) => {$(
        // SAFETY: a primitive number: every bit pattern is a value, no padding.
        unsafe impl Plain for $t {
            #[inline]
            fn decode(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().expect("the size of the value"))
            }
            #[inline]
            fn encode(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
plain!(u8, u16, u32, f32, f64);

/// A slice of `T` that owns its values or borrows them from shared [`Bytes`]; read only.
pub(crate) struct Buf<T: Plain> {
    /// The first value: from the owned vector, or into the shared bytes.
    ptr: core::ptr::NonNull<T>,
    len: usize,
    owner: Owner<T>,
}

enum Owner<T> {
    Vec(Vec<T>),
    /// Never written through.
    Shared(Bytes),
}

// SAFETY: a `Buf` is a `Vec<T>` or a read-only view into `Send + Sync` bytes; the pointer is
// only an alias of one of those.
unsafe impl<T: Plain> Send for Buf<T> {}
// SAFETY: as above; a `Buf` is never written through.
unsafe impl<T: Plain> Sync for Buf<T> {}

impl<T: Plain> Buf<T> {
    /// `count` values at byte `offset` of `bytes`, borrowed in place when they are aligned and
    /// the machine is little-endian, else decoded into a vector.
    ///
    /// # Panics
    /// When they do not lie inside `bytes` (the caller checks first).
    pub(crate) fn view(bytes: &Bytes, offset: usize, count: usize) -> Buf<T> {
        let size = size_of::<T>();
        let end = count.checked_mul(size).and_then(|len| len.checked_add(offset));
        let values = &slice(bytes)[offset..end.expect("an array inside the bytes")];
        if cfg!(target_endian = "little") && values.as_ptr().cast::<T>().is_aligned() {
            let ptr = core::ptr::NonNull::from(values).cast::<T>();
            Buf { ptr, len: count, owner: Owner::Shared(Arc::clone(bytes)) }
        } else {
            values.chunks_exact(size).map(T::decode).collect::<Vec<T>>().into()
        }
    }

    /// Edits the values as a vector of their own (copied first when shared).
    pub(crate) fn edit<R>(&mut self, f: impl FnOnce(&mut Vec<T>) -> R) -> R {
        let mut values = match core::mem::take(self) {
            Buf { owner: Owner::Vec(v), .. } => v,
            shared => shared.to_vec(),
        };
        let out = f(&mut values);
        *self = values.into();
        out
    }

    /// Whether the values are read in place from shared bytes.
    #[cfg_attr(
        not(any(test, feature = "test-support")),
        expect(dead_code, reason = "for the tests' check that arrays are read in place")
    )]
    pub(crate) fn is_shared(&self) -> bool {
        matches!(self.owner, Owner::Shared(_))
    }
}

impl<T: Plain> From<Vec<T>> for Buf<T> {
    fn from(mut v: Vec<T>) -> Buf<T> {
        let ptr = core::ptr::NonNull::new(v.as_mut_ptr()).expect("a vector's pointer is not null");
        Buf { ptr, len: v.len(), owner: Owner::Vec(v) }
    }
}

impl<T: Plain> Default for Buf<T> {
    fn default() -> Buf<T> {
        Vec::new().into()
    }
}

impl<T: Plain> core::ops::Deref for Buf<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points at `len` initialized values owned by `owner` (the vector's
        // buffer, whose pointer moves do not change, or aligned bytes inside the shared buffer,
        // checked by `view`; every bit pattern is a `T`), which lives as long as `self`; no
        // one writes to either while `self` lives.
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Plain> Clone for Buf<T> {
    fn clone(&self) -> Buf<T> {
        match &self.owner {
            Owner::Vec(v) => v.clone().into(),
            Owner::Shared(bytes) => {
                Buf { ptr: self.ptr, len: self.len, owner: Owner::Shared(Arc::clone(bytes)) }
            }
        }
    }
}

impl<T: Plain + core::fmt::Debug> core::fmt::Debug for Buf<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        (**self).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::{Buf, Bytes};

    #[test]
    fn views_read_in_place_or_decode() {
        // Aligned: borrowed (on a little-endian machine).
        let words: Vec<u64> = vec![0x0000_0002_0000_0001, 3];
        let raw: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let bytes: Bytes = super::share(raw);
        let aligned = super::slice(&bytes).as_ptr().addr().is_multiple_of(4);
        let view: Buf<u32> = Buf::view(&bytes, 0, 3);
        assert_eq!(&view[..], &[1, 2, 3]);
        assert_eq!(view.is_shared(), aligned && cfg!(target_endian = "little"));
        assert_eq!(&view.clone()[..], &[1, 2, 3]);
        // Misaligned: decoded.
        let odd: Buf<u32> = Buf::view(&bytes, 1, 1);
        assert_eq!(&odd[..], &[2 << 24]);
        assert!(!odd.is_shared());
    }
}
