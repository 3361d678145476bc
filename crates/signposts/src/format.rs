//! Versioned binary save/load of built oracles, and opening saved files in place.
//!
//! A game precomputes its tables when it is built and loads them at start-up. The file is
//! little-endian, and every array starts at a multiple of 8 bytes from the file's start
//! (zero bytes pad the gaps), so that an opened file's arrays can be read where they lie:
//!
//! ```text
//! magic "SIGNPOST" | format version u32 | kind u32 (1 graph, 2 grid oracle, 3 compressed
//!                                                    graph, 4 compressed grid oracle,
//!                                                    5 and 6 their shards)
//! [grid oracle: width u32 | height u32 | connectivity u32 | open cells, a bit each, u64 words
//!               | cells with a node, a bit each, u64 words]
//! graph:      nodes u64 | arcs u64 | edges u64 | components u32 | flags u32 | words u64
//!             | fingerprint u64
//!             | degrees u32×n | log2 entry widths u32×n | heads u32×arcs
//!             | costs u32×arcs (if weighted) | order u32×n | component u32×n
//!             | table words u64×words
//! compressed: nodes u64 | arcs u64 | runs u64 | run width u32 | move bits u32 | flags u32
//!             | core nodes u32 | labels u64 | anchors u64 | row block shift u32
//!             | fingerprint u64
//!             | arc offsets u32×(n+1) | heads u32×arcs | costs u32×arcs (if weighted)
//!             | columns 3 bytes×n + 1 | labels u32 | parent slots u8×n
//!             | tree sizes u32×(n − core) | anchors u64 | first moves u8×n
//!             | row block starts u32 | row offsets u16×(n+1) | runs (width × runs + 1 bytes)
//! compressed shard (kind 5; kind 6 with the grid before it, open cells only):
//!             fingerprint u64 | column order's fingerprint u64 | nodes u32 | core nodes u32
//!             | index u32 | count u32 | runs u64 | row starts u32×(n+1)
//!             | run first columns u32×runs | run moves u8×runs
//! checksum u64 over every byte before it
//! ```
//!
//! ## Loading and opening
//!
//! [`Graph::load`](crate::Graph::load) (and `load` of the others) reads a stream into memory of its own. It
//! streams in one pass: each array is read in chunks of at most 1 MiB and decoded as its
//! bytes arrive, so memory grows only with the data present (a count that promises more than
//! the file holds is [`Error::Truncated`], an endless source such as `/dev/zero` fails at its
//! magic bytes or after the data the header's counts describe), and peaks at about the file's
//! size. It checks the checksum, that the file ends there, and every invariant the queries
//! rely on (ids in range, a permutation of columns, the table's size, and every table entry
//! naming only moves its node has), so a truncated, corrupted or foreign file is an
//! [`Error`], never a panic.
//!
//! [`Graph::from_bytes`](crate::Graph::from_bytes) and `Graph::map_file` (feature `mmap`, on by default; and theirs of
//! the others) open a file in
//! place: the table is read where the bytes lie, so opening costs O(1) for a compressed
//! table, O(nodes + arcs) for a dense one (its graph is read and checked), and each query the
//! pages it reads; a memory-mapped table costs resident memory only for the pages queries
//! touched. A truncated file is still an error at open (every array's size is checked
//! against the file's length), but the checksum and the invariants are checked by `verify()`,
//! on demand, or at open with [`Check::Full`]. The trade-off: until `verify()` passes, a
//! damaged or crafted file may answer wrongly or make a query panic, never undefined
//! behaviour (every read is bounds-checked, and path walks are bounded). A file changed or
//! truncated underneath a live map is undefined behaviour that no check at open can rule
//! out, so keeping it unchanged is the caller's responsibility (hence `map_file` is `unsafe`).
//!
//! The checksum only catches accidents: anyone editing a shipped table can recompute it. So
//! the invariant checks, not the checksum, make queries total: on any table that loads (or
//! verifies), every query, path walk and edit answers without panicking or looping (path
//! walks are bounded by the node count), though a crafted table whose moves are in range but
//! not shortest answers what it says, as an edited map would. The fingerprint identifies the
//! graph (its nodes, arcs and costs): [`Graph::fingerprint`](crate::Graph::fingerprint) lets a game check that a saved
//! table belongs to its current map.

use std::io::{Read, Write};
use std::sync::Arc;

use crate::buf::{Buf, Bytes, Origin, Plain, Sections};

use crate::Error;
use crate::builder::CostModel;

const MAGIC: &[u8; 8] = b"SIGNPOST";
/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 2;
pub(crate) const KIND_GRAPH: u32 = 1;
pub(crate) const KIND_GRID: u32 = 2;
pub(crate) const KIND_COMPRESSED: u32 = 3;
pub(crate) const KIND_GRID_COMPRESSED: u32 = 4;
pub(crate) const KIND_SHARD: u32 = 5;
pub(crate) const KIND_GRID_SHARD: u32 = 6;

pub(crate) const FLAG_DIRECTED: u32 = 1;
pub(crate) const FLAG_WEIGHTED: u32 = 2;
pub(crate) const FLAG_OCTILE: u32 = 4;

/// A fast 64-bit checksum over words (not cryptographic): detects truncation, flipped bits
/// and swapped blocks.
#[derive(Debug, Clone)]
pub(crate) struct Checksum {
    state: u64,
    pending: Vec<u8>,
}

impl Checksum {
    pub fn new() -> Self {
        Checksum { state: 0x5349_474E_504F_5354, pending: Vec::new() }
    }

    #[inline]
    fn mix(state: u64, word: u64) -> u64 {
        let x = (state ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x ^ (x >> 29) ^ state.rotate_left(23)
    }

    pub fn update(&mut self, mut bytes: &[u8]) {
        if !self.pending.is_empty() {
            let take = (8 - self.pending.len()).min(bytes.len());
            self.pending.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if self.pending.len() == 8 {
                let word = u64::from_le_bytes(self.pending[..8].try_into().expect("8 bytes"));
                self.state = Self::mix(self.state, word);
                self.pending.clear();
            }
        }
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.state = Self::mix(self.state, u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        }
        self.pending.extend_from_slice(chunks.remainder());
    }

    pub fn finish(&self) -> u64 {
        let mut last = [0u8; 8];
        last[..self.pending.len()].copy_from_slice(&self.pending);
        Self::mix(Self::mix(self.state, u64::from_le_bytes(last)), self.pending.len() as u64)
    }
}

/// The checksum saved files end with, of `bytes`: for formats built on this one (the rooms
/// layer's), so that every saved file of the project is checked the same way.
///
/// ```
/// let a = signposts::format::checksum(b"signposts");
/// assert_eq!(a, signposts::format::checksum(b"signposts"));
/// assert_ne!(a, signposts::format::checksum(b"signpostz"));
/// ```
#[must_use]
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut sum = Checksum::new();
    sum.update(bytes);
    sum.finish()
}

/// Recomputes the checksum at the end of a saved file after its body was edited, so that tests
/// can forge files that only the invariant checks can refuse. Does nothing to a slice shorter
/// than a checksum.
///
/// ```
/// let graph = signposts::Graph::builder(2).build();
/// let mut bytes = Vec::new();
/// graph.save(&mut bytes)?;
/// let last = bytes.len() - 9;
/// bytes[last] ^= 1;
/// signposts::format::reseal(&mut bytes);
/// assert!(matches!(signposts::Graph::load(bytes.as_slice()), Err(signposts::Error::Corrupt { .. })));
/// # Ok::<(), signposts::Error>(())
/// ```
#[cfg(feature = "test-support")]
#[doc(hidden)]
pub fn reseal(bytes: &mut [u8]) {
    let Some(body) = bytes.len().checked_sub(8) else { return };
    let mut sum = Checksum::new();
    sum.update(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.finish().to_le_bytes());
}

/// Writes through a checksum.
pub(crate) struct Writer<W: Write> {
    inner: W,
    sum: Checksum,
    buffer: Vec<u8>,
    /// Bytes written so far.
    at: u64,
}

impl<W: Write> Writer<W> {
    pub fn new(inner: W) -> Self {
        Writer { inner, sum: Checksum::new(), buffer: Vec::with_capacity(1 << 16), at: 0 }
    }

    /// Writes zeros up to the next multiple of 8 bytes: every array starts there, so that an
    /// opened file's arrays can be read in place.
    pub fn align(&mut self) -> Result<(), Error> {
        let pad = self.at.next_multiple_of(8) - self.at;
        self.bytes(&[0; 8][..pad as usize])
    }

    /// An array of bytes (aligned).
    pub fn array(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.align()?;
        self.bytes(bytes)
    }

    pub fn bytes(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.at += bytes.len() as u64;
        self.sum.update(bytes);
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= 1 << 16 {
            self.inner.write_all(&self.buffer).map_err(Error::from)?;
            self.buffer.clear();
        }
        Ok(())
    }

    pub fn u32(&mut self, v: u32) -> Result<(), Error> {
        self.bytes(&v.to_le_bytes())
    }

    /// Magic, format version and kind.
    pub fn header(&mut self, kind: u32) -> Result<(), Error> {
        self.bytes(MAGIC)?;
        self.u32(FORMAT_VERSION)?;
        self.u32(kind)
    }

    pub fn u64(&mut self, v: u64) -> Result<(), Error> {
        self.bytes(&v.to_le_bytes())
    }

    /// An array of `u16` (aligned).
    pub fn u16s(&mut self, values: impl Iterator<Item = u16>) -> Result<(), Error> {
        self.align()?;
        for v in values {
            self.bytes(&v.to_le_bytes())?;
        }
        Ok(())
    }

    /// An array of `u32` (aligned).
    pub fn u32s(&mut self, values: impl Iterator<Item = u32>) -> Result<(), Error> {
        self.align()?;
        for v in values {
            self.u32(v)?;
        }
        Ok(())
    }

    /// An array of `u64` (aligned).
    pub fn u64s(&mut self, values: &[u64]) -> Result<(), Error> {
        self.align()?;
        for chunk in values.chunks(8192) {
            let bytes: Vec<u8> = chunk.iter().flat_map(|w| w.to_le_bytes()).collect();
            self.bytes(&bytes)?;
        }
        Ok(())
    }

    pub fn finish(mut self) -> Result<(), Error> {
        let sum = self.sum.finish();
        self.buffer.extend_from_slice(&sum.to_le_bytes());
        self.inner.write_all(&self.buffer).map_err(Error::from)?;
        self.inner.flush().map_err(Error::from)
    }
}

/// Bytes of magic, format version and kind.
pub(crate) const HEADER: usize = 16;

/// Checks magic, version and kind of a file's first [`HEADER`] bytes; returns the kind.
fn check_header(header: &[u8; HEADER], kinds: &[u32]) -> Result<u32, Error> {
    if &header[..8] != MAGIC {
        return Err(Error::Format { message: "not a signposts file (bad magic bytes)".into() });
    }
    let version = u32::from_le_bytes(header[8..12].try_into().expect("4 bytes"));
    if version != FORMAT_VERSION {
        return Err(Error::Format {
            message: format!("format version {version}; this build reads version {FORMAT_VERSION}"),
        });
    }
    let found = u32::from_le_bytes(header[12..16].try_into().expect("4 bytes"));
    if !kinds.contains(&found) {
        let name = |k: u32| match k {
            KIND_GRAPH => "a graph",
            KIND_GRID => "a grid oracle",
            KIND_COMPRESSED => "a compressed graph",
            KIND_GRID_COMPRESSED => "a compressed grid oracle",
            KIND_SHARD => "a shard of a compressed graph",
            KIND_GRID_SHARD => "a shard of a compressed grid oracle",
            _ => "an unknown kind",
        };
        let wanted: Vec<&str> = kinds.iter().map(|&k| name(k)).collect();
        return Err(Error::Format {
            message: format!("the file holds {}, not {}", name(found), wanted.join(" or ")),
        });
    }
    Ok(found)
}

/// Reads a file's fields in order as they stream in, checking lengths and, at
/// [`Reader::finish`], the checksum and the end of the file.
///
/// Nothing is read ahead: each field is read when asked for, in chunks of at most
/// [`Reader::CHUNK`] bytes, so memory grows only with the data actually present (a length
/// field that promises more than the file holds is [`Error::Truncated`] after one chunk), and
/// an endless source (`/dev/zero`) fails at its magic bytes or reads no more than the header's
/// counts allow before the trailing-bytes check.
pub(crate) struct Reader<'a> {
    source: Box<dyn Read + 'a>,
    sum: Checksum,
    buffer: Vec<u8>,
    /// Bytes consumed so far.
    at: u64,
}

impl<'a> Reader<'a> {
    /// The largest read into memory at once.
    const CHUNK: u64 = 1 << 20;

    /// Reads and verifies magic, version and kind.
    pub fn open(source: impl Read + 'a, kind: u32) -> Result<Reader<'a>, Error> {
        Ok(Reader::open_any(source, &[kind])?.0)
    }

    /// As [`Reader::open`], for a file of any of `kinds`; returns the kind found.
    pub fn open_any(source: impl Read + 'a, kinds: &[u32]) -> Result<(Reader<'a>, u32), Error> {
        let mut r = Reader { source: Box::new(source), sum: Checksum::new(), buffer: Vec::new(), at: 0 };
        let header: [u8; HEADER] = match r.take(HEADER as u64) {
            Ok(bytes) => bytes.try_into().expect("the header's bytes"),
            Err(Error::Truncated { actual, .. }) => return Err(Error::Truncated { expected: 24, actual }),
            Err(e) => return Err(e),
        };
        let found = check_header(&header, kinds)?;
        Ok((r, found))
    }

    /// Reads exactly `len` bytes into the buffer, a chunk at a time.
    fn fill(&mut self, len: u64) -> Result<(), Error> {
        self.buffer.clear();
        let mut got = 0u64;
        while got < len {
            let want = (len - got).min(Self::CHUNK);
            self.buffer.reserve(want as usize);
            let read = (&mut self.source).take(want).read_to_end(&mut self.buffer).map_err(Error::from)?;
            if read == 0 {
                return Err(Error::Truncated {
                    expected: self.at.saturating_add(len).saturating_add(8),
                    actual: self.at + got,
                });
            }
            got += read as u64;
        }
        Ok(())
    }

    fn take(&mut self, len: u64) -> Result<&[u8], Error> {
        self.fill(len)?;
        self.sum.update(&self.buffer);
        self.at += len;
        Ok(&self.buffer)
    }

    pub fn u32(&mut self) -> Result<u32, Error> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }

    /// Bytes read so far: where the next field starts in the file.
    pub fn position(&self) -> u64 {
        self.at
    }

    pub fn u64(&mut self) -> Result<u64, Error> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }

    /// Reads `len` bytes a chunk at a time, handing each chunk to `each` (chunks hold whole
    /// values: [`Reader::CHUNK`] is a multiple of 8).
    fn chunks(&mut self, len: u64, mut each: impl FnMut(&[u8])) -> Result<(), Error> {
        let start = self.at;
        let mut done = 0;
        while done < len {
            let want = (len - done).min(Self::CHUNK);
            self.buffer.clear();
            let read = (&mut self.source).take(want).read_to_end(&mut self.buffer).map_err(Error::from)?;
            if read as u64 != want {
                return Err(Error::Truncated {
                    expected: start.saturating_add(len).saturating_add(8),
                    actual: start + done + read as u64,
                });
            }
            self.sum.update(&self.buffer);
            each(&self.buffer);
            done += want;
            self.at += want;
        }
        Ok(())
    }
}

/// Where a saved body's fields come from: a stream read into memory ([`Reader`]) or bytes read
/// in place ([`Sections`]). Bodies are read once, by code generic over the source.
pub(crate) trait Source {
    fn u32(&mut self) -> Result<u32, Error>;
    fn u64(&mut self) -> Result<u64, Error>;
    /// `count` values of `T`, starting at the next multiple of 8 bytes.
    fn array<T: Plain>(&mut self, count: u64) -> Result<Buf<T>, Error>;
    /// The file the arrays are read from in place, if they are.
    fn file(&self) -> Option<Bytes>;
}

impl Source for Reader<'_> {
    fn u32(&mut self) -> Result<u32, Error> {
        Reader::u32(self)
    }

    fn u64(&mut self) -> Result<u64, Error> {
        Reader::u64(self)
    }

    /// Memory grows only as the values arrive, one chunk beside them.
    fn array<T: Plain>(&mut self, count: u64) -> Result<Buf<T>, Error> {
        let pad = self.at.next_multiple_of(8) - self.at;
        self.take(pad)?;
        let size = size_of::<T>();
        let len = count.checked_mul(size as u64).ok_or_else(|| corrupt("array length overflows"))?;
        let mut values = Vec::new();
        self.chunks(len, |bytes| values.extend(bytes.chunks_exact(size).map(T::decode)))?;
        Ok(values.into())
    }

    fn file(&self) -> Option<Bytes> {
        None
    }
}

impl Source for Sections {
    fn u32(&mut self) -> Result<u32, Error> {
        Sections::u32(self)
    }

    fn u64(&mut self) -> Result<u64, Error> {
        Sections::u64(self)
    }

    fn array<T: Plain>(&mut self, count: u64) -> Result<Buf<T>, Error> {
        Sections::array(self, count)
    }

    fn file(&self) -> Option<Bytes> {
        Some(Arc::clone(self.bytes()))
    }
}

impl Reader<'_> {
    /// Reads and verifies the checksum, then that the file ends there.
    pub fn finish(&mut self) -> Result<(), Error> {
        self.fill(8)?;
        let stored = u64::from_le_bytes(self.buffer[..8].try_into().expect("8 bytes"));
        if self.sum.finish() != stored {
            return Err(Error::Corrupt {
                message: "checksum mismatch: the file is damaged or truncated".into(),
            });
        }
        let mut extra = [0u8; 1];
        loop {
            match self.source.read(&mut extra) {
                Ok(0) => return Ok(()),
                Ok(_) => return Err(corrupt("unexpected bytes after the data")),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::from(e)),
            }
        }
    }
}

/// How much of a saved file to check when opening it in place (`from_bytes` and `map_file`
/// of [`Graph`](crate::Graph), [`CompressedGraph`](crate::CompressedGraph) and
/// [`GridOracle`](crate::grid::GridOracle)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// Magic, version, kind, the header's counts and every array's size against the file's
    /// length: no page of the table read, so it answers at once (a compressed table opens in
    /// O(1); a dense one reads its graph's arrays, O(nodes + arcs); a grid oracle its grid,
    /// O(cells)). The checksum and the table's invariants wait for `verify()`: until it
    /// passes, a damaged or crafted file may answer wrongly or make a query panic, but never
    /// causes undefined behaviour (every read is bounds-checked, path walks are bounded).
    Sizes,
    /// Everything [`Graph::load`](crate::Graph::load) checks (the checksum and every invariant the queries rely
    /// on) before returning: O(file), reading every page once.
    Full,
}

/// Opens `bytes` in place as a saved file of one of `kinds`: `read` reads its body (the
/// kind found is passed; sizes checked, nothing of the arrays read), then exactly the checksum
/// must be left, and with [`Check::Full`] `verify` checks the rest.
pub(crate) fn open_in_place<T>(
    bytes: Bytes,
    kinds: &[u32],
    check: Check,
    read: impl FnOnce(&mut Sections, u32) -> Result<T, Error>,
    verify: impl FnOnce(&T) -> Result<(), Error>,
) -> Result<T, Error> {
    let all = crate::buf::slice(&bytes);
    let Some(header) = all.first_chunk::<HEADER>() else {
        return Err(Error::Truncated { expected: 24, actual: all.len() as u64 });
    };
    let kind = check_header(header, kinds)?;
    let mut sections = Sections::new(bytes);
    sections.skip(HEADER);
    let body = read(&mut sections, kind)?;
    let (at, len) = (sections.position() as u64, sections.total() as u64);
    match len.cmp(&(at + 8)) {
        core::cmp::Ordering::Less => return Err(Error::Truncated { expected: at + 8, actual: len }),
        core::cmp::Ordering::Greater => return Err(corrupt("unexpected bytes after the data")),
        core::cmp::Ordering::Equal => {}
    }
    if check == Check::Full {
        verify(&body)?;
    }
    Ok(body)
}

/// Checks the checksum of a file read in place (nothing to check for a table in memory).
pub(crate) fn verify_checksum(origin: &Origin) -> Result<(), Error> {
    let Some(bytes) = origin.bytes() else { return Ok(()) };
    let body = bytes.len().checked_sub(8).ok_or_else(|| corrupt("no checksum"))?;
    if checksum(&bytes[..body]).to_le_bytes() != bytes[body..] {
        return Err(Error::Corrupt { message: "checksum mismatch: the file is damaged or truncated".into() });
    }
    Ok(())
}

/// Maps the file at `path` into memory, read-only.
///
/// # Safety
/// The file must not be changed or truncated while the map lives.
#[cfg(feature = "mmap")]
pub(crate) unsafe fn map(path: &std::path::Path) -> Result<Bytes, Error> {
    let file = std::fs::File::open(path).map_err(Error::from)?;
    // SAFETY: the caller keeps the file unchanged while the map lives.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(Error::from)?;
    Ok(crate::buf::share(map))
}

/// Writes a file atomically: `write` fills a temporary file beside `path`, which is flushed
/// to disk and then renamed over `path`, so that a reader (or a crash half-way) sees either
/// the old file or the whole new one, never a part. Every saved type's `save_to` uses it.
///
/// # Errors
/// [`Error::Io`] when the temporary file cannot be made, written, synced or renamed (it is
/// removed again), or the error of `write`.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("signposts-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("hello.bin");
/// signposts::format::write_atomically(&path, |file| std::io::Write::write_all(file, b"hi").map_err(signposts::Error::from))?;
/// assert_eq!(std::fs::read(&path).unwrap(), b"hi");
/// # std::fs::remove_dir_all(&dir).unwrap();
/// # Ok::<(), signposts::Error>(())
/// ```
pub fn write_atomically<E: From<std::io::Error>>(
    path: impl AsRef<std::path::Path>,
    write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> Result<(), E>,
) -> Result<(), E> {
    use std::io::Write as _;
    let path = path.as_ref();
    let name = path.file_name().map_or_else(|| "table".into(), |n| n.to_string_lossy().into_owned());
    let temporary = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::io::BufWriter::new(std::fs::File::create(&temporary)?);
        write(&mut file)?;
        file.flush()?;
        file.get_ref().sync_all()?;
        drop(file);
        std::fs::rename(&temporary, path)?;
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

pub(crate) fn corrupt(message: &str) -> Error {
    Error::Corrupt { message: message.to_string() }
}

/// The fingerprint of a graph given by its parts, in table slot order.
pub(crate) fn fingerprint(
    nodes: usize,
    degrees: impl Iterator<Item = u32>,
    heads: impl Iterator<Item = u32>,
    costs: impl Iterator<Item = u32>,
    model: CostModel,
) -> u64 {
    let mut sum = Checksum::new();
    sum.update(&(nodes as u64).to_le_bytes());
    let mut buf = Vec::with_capacity(4096);
    for part in [&mut degrees.collect::<Vec<_>>(), &mut heads.collect(), &mut costs.collect()] {
        for chunk in part.chunks(1024) {
            buf.clear();
            buf.extend(chunk.iter().flat_map(|v| v.to_le_bytes()));
            sum.update(&buf);
        }
    }
    sum.update(&[u8::from(model == CostModel::Octile)]);
    sum.finish()
}
