//! Arrays that either own their values or read them in place from a saved file's bytes.
//!
//! A table opened with [`CompressedGraph::from_bytes`](crate::CompressedGraph::from_bytes) (or
//! mapped from a file) keeps its large arrays where the file's bytes are: nothing is copied or
//! converted, so opening costs the pages a query touches. [`Buf`] is one such array: a slice
//! that either owns a `Vec` or borrows its values from a shared byte buffer, read through one
//! pointer either way (no branch on the hot path). Editing a borrowed array first copies it
//! into a `Vec` of its own (copy on write).

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use crate::Error;

/// Bytes that a [`Buf`] can borrow from: a `Vec<u8>`, a memory map, a `&'static [u8]` from
/// `include_bytes!`, … kept alive by reference counting. The library only reads them, so a
/// panic cannot leave them half-changed: they are unwind-safe whatever their type.
pub(crate) type Bytes = Arc<AssertUnwindSafe<Box<dyn AsRef<[u8]> + Send + Sync>>>;

/// The slice `bytes` holds.
pub(crate) fn slice(bytes: &Bytes) -> &[u8] {
    (****bytes).as_ref()
}

/// `bytes` shared, as [`Bytes`].
pub(crate) fn share(bytes: impl AsRef<[u8]> + Send + Sync + 'static) -> Bytes {
    Arc::new(AssertUnwindSafe(Box::new(bytes)))
}

/// Values that are plain little-endian bytes: every bit pattern is a value and there is no
/// padding.
///
/// # Safety
/// Implement only for primitive integers.
pub(crate) unsafe trait Plain: Copy + Send + Sync + 'static {
    /// Decodes one value from its little-endian bytes (`size_of::<Self>()` of them).
    fn decode(bytes: &[u8]) -> Self;
}

macro_rules! plain {
    ($($t:ty),*) => {$(
        // SAFETY: a primitive integer: every bit pattern is a value, no padding.
        unsafe impl Plain for $t {
            #[inline]
            fn decode(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().expect("the size of the value"))
            }
        }
    )*};
}
plain!(u8, u16, u32, u64);

/// A slice of `T` that owns its values or borrows them from shared [`Bytes`].
pub(crate) struct Buf<T: Plain> {
    /// The first value: from `Vec::as_mut_ptr` of the owned vector (stable across moves and
    /// across the vector's other pointer methods), or into the shared bytes.
    ptr: core::ptr::NonNull<T>,
    len: usize,
    owner: Owner<T>,
}

enum Owner<T> {
    Vec(Vec<T>),
    /// Never written through: [`Buf::deref_mut`] first copies the values into a `Vec`.
    Shared(Bytes),
}

// SAFETY: a `Buf` is a `Vec<T>` or a shared read-only view into `Send + Sync` bytes; the
// pointer is only an alias of one of those.
unsafe impl<T: Plain> Send for Buf<T> {}
// SAFETY: as above; `&Buf` only reads.
unsafe impl<T: Plain> Sync for Buf<T> {}

impl<T: Plain> Buf<T> {
    /// `count` values at byte `offset` of `bytes`, borrowed in place when they are aligned and
    /// the machine is little-endian, else decoded into a vector. The caller has checked that
    /// they lie inside `bytes`.
    pub(crate) fn view(bytes: &Bytes, offset: usize, count: usize) -> Buf<T> {
        let size = size_of::<T>();
        let all = slice(bytes);
        let end = count
            .checked_mul(size)
            .and_then(|len| len.checked_add(offset))
            .expect("an array inside the bytes");
        let values = &all[offset..end];
        if cfg!(target_endian = "little") && values.as_ptr().cast::<T>().is_aligned() {
            let ptr = core::ptr::NonNull::from(values).cast::<T>();
            Buf { ptr, len: count, owner: Owner::Shared(Arc::clone(bytes)) }
        } else {
            values.chunks_exact(size).map(T::decode).collect::<Vec<T>>().into()
        }
    }

    /// Whether the values are borrowed from shared bytes (not yet copied by an edit).
    pub(crate) fn is_shared(&self) -> bool {
        matches!(self.owner, Owner::Shared(_))
    }

    /// The values as a vector of their own, copied from shared bytes if need be.
    pub(crate) fn into_vec(self) -> Vec<T> {
        match self.owner {
            Owner::Vec(v) => v,
            Owner::Shared(_) => self.to_vec(),
        }
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
        // buffer, or aligned bytes inside the shared buffer checked by `view`), which lives as
        // long as `self`; shared bytes are never written while borrowed here.
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Plain> core::ops::DerefMut for Buf<T> {
    /// Borrowed values are copied into a vector first.
    fn deref_mut(&mut self) -> &mut [T] {
        if self.is_shared() {
            *self = self.to_vec().into();
        }
        // SAFETY: `owner` is now the vector `ptr` came from (`as_mut_ptr`, whose pointers stay
        // valid beside the vector's other pointer methods), with `len` values; `&mut self`
        // makes this the only borrow.
        unsafe { core::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
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

impl<T: Plain + PartialEq> PartialEq for Buf<T> {
    fn eq(&self, other: &Buf<T>) -> bool {
        **self == **other
    }
}

impl<T: Plain + Eq> Eq for Buf<T> {}

impl<T: Plain + core::fmt::Debug> core::fmt::Debug for Buf<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        (**self).fmt(f)
    }
}

/// The saved file a table's arrays are read from in place (nothing for a table built or
/// loaded into memory), and the fingerprint its body stores: kept to check both on demand.
/// Compares equal to any other, as where a table came from is no part of its value.
#[derive(Clone, Default)]
pub(crate) struct Origin {
    pub(crate) file: Option<Bytes>,
    pub(crate) fingerprint: u64,
}

impl Origin {
    /// The file's bytes.
    pub(crate) fn bytes(&self) -> Option<&[u8]> {
        self.file.as_ref().map(slice)
    }
}

impl PartialEq for Origin {
    fn eq(&self, _: &Origin) -> bool {
        true
    }
}

impl Eq for Origin {}

impl core::fmt::Debug for Origin {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.bytes() {
            Some(bytes) => write!(f, "Origin({} bytes in place)", bytes.len()),
            None => f.write_str("Origin(in memory)"),
        }
    }
}

/// Reads a saved file's sections in place: each array starts at a multiple of 8 bytes from the
/// file's start, so that it can be borrowed as it lies.
pub(crate) struct Sections {
    bytes: Bytes,
    at: usize,
}

impl Sections {
    pub(crate) fn new(bytes: Bytes) -> Sections {
        Sections { bytes, at: 0 }
    }

    /// Bytes in the file.
    pub(crate) fn total(&self) -> usize {
        slice(&self.bytes).len()
    }

    /// Skips `len` bytes known to be there.
    pub(crate) fn skip(&mut self, len: usize) {
        self.at += len;
    }

    /// Bytes read so far.
    pub(crate) fn position(&self) -> usize {
        self.at
    }

    pub(crate) fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// The next `len` bytes, or [`Error::Truncated`] (counting the checksum after them).
    fn take(&mut self, len: u64) -> Result<usize, Error> {
        let end = (self.at as u64).checked_add(len).filter(|&end| end <= self.total() as u64);
        let Some(end) = end else {
            return Err(Error::Truncated {
                expected: (self.at as u64).saturating_add(len).saturating_add(8),
                actual: self.total() as u64,
            });
        };
        let start = self.at;
        self.at = end as usize;
        Ok(start)
    }

    pub(crate) fn u32(&mut self) -> Result<u32, Error> {
        let at = self.take(4)?;
        Ok(u32::decode(&slice(&self.bytes)[at..at + 4]))
    }

    pub(crate) fn u64(&mut self) -> Result<u64, Error> {
        let at = self.take(8)?;
        Ok(u64::decode(&slice(&self.bytes)[at..at + 8]))
    }

    /// Skips to the next multiple of 8 bytes.
    pub(crate) fn align(&mut self) -> Result<(), Error> {
        let pad = self.at.next_multiple_of(8) - self.at;
        self.take(pad as u64).map(drop)
    }

    /// `count` values of `T`, aligned to 8 bytes first.
    pub(crate) fn array<T: Plain>(&mut self, count: u64) -> Result<Buf<T>, Error> {
        self.align()?;
        let len = count
            .checked_mul(size_of::<T>() as u64)
            .ok_or_else(|| crate::format::corrupt("array length overflows"))?;
        let at = self.take(len)?;
        Ok(Buf::view(&self.bytes, at, count as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::{Buf, Bytes, Sections};

    /// Words read as their little-endian bytes.
    struct Words(Vec<u64>);

    impl AsRef<[u8]> for Words {
        fn as_ref(&self) -> &[u8] {
            // SAFETY: the vector's initialized memory, read as bytes.
            unsafe { core::slice::from_raw_parts(self.0.as_ptr().cast::<u8>(), 8 * self.0.len()) }
        }
    }

    #[test]
    fn views_read_in_place_and_copy_on_write() {
        let words: Vec<u64> = vec![7, 1 << 40, u64::MAX];
        // Aligned storage, as a map's: the words are borrowed, not copied.
        let raw: Vec<u64> = [0].into_iter().chain(words.iter().copied()).collect();
        let bytes: Bytes = super::share(Words(raw));
        let mut sections = Sections::new(bytes);
        assert_eq!(sections.u64().unwrap(), 0);
        let mut view: Buf<u64> = sections.array(3).unwrap();
        assert_eq!(*view, *words);
        assert!(cfg!(target_endian = "big") || view.is_shared());
        let copy = view.clone();
        view[1] = 5;
        assert!(!view.is_shared());
        assert_eq!(&view[..], &[7, 5, u64::MAX]);
        assert_eq!(&copy[..], &words[..], "the shared bytes are unchanged");
        assert!(matches!(sections.array::<u32>(1), Err(crate::Error::Truncated { .. })));
    }

    #[test]
    fn misaligned_bytes_are_decoded() {
        // A view at an odd offset cannot be borrowed as `u32`s: it is decoded.
        let raw: Vec<u8> = vec![0, 1, 0, 0, 0, 2, 0, 0, 0];
        let bytes: Bytes = super::share(raw);
        let view: Buf<u32> = Buf::view(&bytes, 1, 2);
        assert_eq!(&view[..], &[1, 2]);
        let mut owned: Buf<u32> = vec![3, 4].into();
        owned[0] = 9;
        assert_eq!(owned.into_vec(), vec![9, 4]);
    }
}
