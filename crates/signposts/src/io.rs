//! Versioned binary save/load of built oracles.
//!
//! A game precomputes its tables when it is built and loads them at start-up. The file is
//! little-endian:
//!
//! ```text
//! magic "SIGNPOST" | format version u32 | kind u32 (1 graph, 2 grid oracle)
//! [grid oracle: width u32 | height u32 | connectivity u32 | passable bits, u64 words]
//! graph header: nodes u64 | arcs u64 | edges u64 | components u32 | flags u32 | words u64
//!               | fingerprint u64
//! arrays: degrees u32×n | log2 entry widths u32×n | heads u32×arcs | costs u32×arcs (if weighted) | order u32×n
//!         | component u32×n | table words u64×words
//! checksum u64 over every byte before it
//! ```
//!
//! Loading reads the file in one pass, checks the length the header implies *before*
//! allocating, the checksum, and every structural invariant the queries rely on (ids in range,
//! a permutation of columns, the table's size), so a truncated, corrupted or foreign file is an
//! [`Error`], never a panic or a wrong answer. The fingerprint identifies the graph (its nodes,
//! arcs and costs): [`Graph::fingerprint`] lets a game check that a saved table belongs to its
//! current map.

use std::io::{Read, Write};

use crate::builder::CostModel;
use crate::table::{Layout, NodeRow, Table};
use crate::{Error, Graph};

const MAGIC: &[u8; 8] = b"SIGNPOST";
/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;
pub(crate) const KIND_GRAPH: u32 = 1;
pub(crate) const KIND_GRID: u32 = 2;
pub(crate) const KIND_COMPRESSED: u32 = 3;
pub(crate) const KIND_GRID_COMPRESSED: u32 = 4;

const FLAG_DIRECTED: u32 = 1;
const FLAG_WEIGHTED: u32 = 2;
const FLAG_OCTILE: u32 = 4;

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

/// Writes through a checksum.
pub(crate) struct Writer<W: Write> {
    inner: W,
    sum: Checksum,
    buffer: Vec<u8>,
}

impl<W: Write> Writer<W> {
    pub fn new(inner: W) -> Self {
        Writer { inner, sum: Checksum::new(), buffer: Vec::with_capacity(1 << 16) }
    }

    pub fn bytes(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.sum.update(bytes);
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= 1 << 16 {
            self.inner.write_all(&self.buffer).map_err(io_error)?;
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

    pub fn u32s(&mut self, values: impl Iterator<Item = u32>) -> Result<(), Error> {
        for v in values {
            self.u32(v)?;
        }
        Ok(())
    }

    pub fn u64s(&mut self, values: &[u64]) -> Result<(), Error> {
        for chunk in values.chunks(8192) {
            let bytes: Vec<u8> = chunk.iter().flat_map(|w| w.to_le_bytes()).collect();
            self.bytes(&bytes)?;
        }
        Ok(())
    }

    pub fn finish(mut self) -> Result<(), Error> {
        let sum = self.sum.finish();
        self.buffer.extend_from_slice(&sum.to_le_bytes());
        self.inner.write_all(&self.buffer).map_err(io_error)?;
        self.inner.flush().map_err(io_error)
    }
}

/// Reads a whole file's bytes and hands out fields, checking lengths.
pub(crate) struct Reader {
    bytes: Vec<u8>,
    at: usize,
}

impl Reader {
    /// Reads everything, verifies magic, version, kind and checksum.
    pub fn open(source: impl Read, kind: u32) -> Result<Reader, Error> {
        Ok(Reader::open_any(source, &[kind])?.0)
    }

    /// As [`Reader::open`], for a file of any of `kinds`; returns the kind found.
    pub fn open_any(mut source: impl Read, kinds: &[u32]) -> Result<(Reader, u32), Error> {
        let mut bytes = Vec::new();
        source.read_to_end(&mut bytes).map_err(io_error)?;
        if bytes.len() < 8 + 4 + 4 + 8 {
            return Err(Error::Truncated { expected: 24, actual: bytes.len() as u64 });
        }
        if &bytes[..8] != MAGIC {
            return Err(Error::Format { message: "not a signposts file (bad magic bytes)".into() });
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != FORMAT_VERSION {
            return Err(Error::Format {
                message: format!("format version {version}; this build reads version {FORMAT_VERSION}"),
            });
        }
        let found = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes"));
        if !kinds.contains(&found) {
            let name = |k: u32| match k {
                KIND_GRAPH => "a graph",
                KIND_GRID => "a grid oracle",
                KIND_COMPRESSED => "a compressed graph",
                KIND_GRID_COMPRESSED => "a compressed grid oracle",
                _ => "an unknown kind",
            };
            let wanted: Vec<&str> = kinds.iter().map(|&k| name(k)).collect();
            return Err(Error::Format {
                message: format!("the file holds {}, not {}", name(found), wanted.join(" or ")),
            });
        }
        let body = bytes.len() - 8;
        let mut sum = Checksum::new();
        sum.update(&bytes[..body]);
        let stored = u64::from_le_bytes(bytes[body..].try_into().expect("8 bytes"));
        if sum.finish() != stored {
            return Err(Error::Corrupt {
                message: "checksum mismatch: the file is damaged or truncated".into(),
            });
        }
        bytes.truncate(body);
        Ok((Reader { bytes, at: 16 }, found))
    }

    fn take(&mut self, len: u64) -> Result<&[u8], Error> {
        let remaining = (self.bytes.len() - self.at) as u64;
        if len > remaining {
            return Err(Error::Truncated {
                expected: self.at as u64 + len + 8,
                actual: self.bytes.len() as u64 + 8,
            });
        }
        let start = self.at;
        self.at += len as usize;
        Ok(&self.bytes[start..self.at])
    }

    pub fn u32(&mut self) -> Result<u32, Error> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }

    pub fn u64(&mut self) -> Result<u64, Error> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }

    /// `count` bytes; the length is checked first.
    pub fn bytes(&mut self, count: u64) -> Result<&[u8], Error> {
        self.take(count)
    }

    /// `count` u32 values; the length is checked before allocating.
    pub fn u32s(&mut self, count: u64) -> Result<Vec<u32>, Error> {
        let bytes = self.take(count.checked_mul(4).ok_or_else(|| corrupt("array length overflows"))?)?;
        Ok(bytes.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes"))).collect())
    }

    /// `count` u64 values; the length is checked before allocating.
    pub fn u64s(&mut self, count: u64) -> Result<Vec<u64>, Error> {
        let bytes = self.take(count.checked_mul(8).ok_or_else(|| corrupt("array length overflows"))?)?;
        Ok(bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))).collect())
    }

    pub fn finish(&self) -> Result<(), Error> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(corrupt(&format!("{} unexpected bytes after the data", self.bytes.len() - self.at)))
        }
    }
}

#[expect(clippy::needless_pass_by_value, reason = "used as `map_err(io_error)`")]
pub(crate) fn io_error(e: std::io::Error) -> Error {
    Error::Io { kind: e.kind(), message: e.to_string() }
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

impl Graph {
    /// A 64-bit fingerprint of the graph: its node count, arcs and costs (not the table).
    /// Two graphs with the same fingerprint are, with overwhelming probability, the same.
    ///
    /// ```
    /// let mut a = signposts::Graph::builder(3);
    /// a.connect(0, 1);
    /// let mut b = a.clone();
    /// b.connect(1, 2);
    /// assert_ne!(a.build().fingerprint(), b.build().fingerprint());
    /// ```
    #[must_use]
    pub fn fingerprint(&self) -> u64 {
        fingerprint(
            self.nodes_len(),
            self.table.rows.iter().map(|r| r.deg),
            self.table.neighbors.iter().copied(),
            (0..self.table.neighbors.len()).map(|a| self.arc_cost(a)),
            self.model,
        )
    }

    /// Writes the graph and its table (see the [module docs](crate::io) for the format).
    ///
    /// # Errors
    /// [`Error::Io`] when writing fails.
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(3);
    /// b.connect(0, 1).connect(1, 2);
    /// let graph = b.build();
    /// let mut bytes = Vec::new();
    /// graph.save(&mut bytes)?;
    /// assert_eq!(signposts::Graph::load(bytes.as_slice())?, graph);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn save(&self, sink: impl Write) -> Result<(), Error> {
        let mut w = Writer::new(sink);
        w.header(KIND_GRAPH)?;
        self.write_body(&mut w)?;
        w.finish()
    }

    pub(crate) fn write_body<W: Write>(&self, w: &mut Writer<W>) -> Result<(), Error> {
        let mut flags = 0;
        if self.directed {
            flags |= FLAG_DIRECTED;
        }
        if !self.costs.is_empty() {
            flags |= FLAG_WEIGHTED;
        }
        if self.model == CostModel::Octile {
            flags |= FLAG_OCTILE;
        }
        w.u64(self.nodes_len() as u64)?;
        w.u64(self.table.neighbors.len() as u64)?;
        w.u64(self.edges as u64)?;
        w.u32(self.components)?;
        w.u32(flags)?;
        w.u64(self.table.words.len() as u64)?;
        w.u64(self.fingerprint())?;
        w.u32s(self.table.rows.iter().map(|r| r.deg))?;
        w.u32s(self.table.rows.iter().map(|r| r.width_bits().trailing_zeros()))?;
        w.u32s(self.table.neighbors.iter().copied())?;
        if !self.costs.is_empty() {
            w.u32s(self.costs.iter().copied())?;
        }
        w.u32s(self.table.order.iter().copied())?;
        w.u32s(self.component.iter().copied())?;
        w.u64s(&self.table.words)
    }

    /// Reads a graph written by [`Graph::save`].
    ///
    /// # Errors
    /// [`Error::Io`] when reading fails; [`Error::Format`] for a file that is not a saved
    /// graph or of another format version; [`Error::Truncated`] when it is cut short;
    /// [`Error::Corrupt`] when the checksum or an invariant fails.
    ///
    /// ```
    /// assert!(signposts::Graph::load(&b"not a table"[..]).is_err());
    /// ```
    pub fn load(source: impl Read) -> Result<Graph, Error> {
        let mut r = Reader::open(source, KIND_GRAPH)?;
        let graph = Graph::read_body(&mut r)?;
        r.finish()?;
        Ok(graph)
    }

    /// [`Graph::save`] to a file.
    ///
    /// # Errors
    /// As [`Graph::save`].
    ///
    /// ```no_run
    /// # let graph = signposts::Graph::builder(1).build();
    /// graph.save_to("level1.signposts")?;
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn save_to(&self, path: impl AsRef<std::path::Path>) -> Result<(), Error> {
        self.save(std::fs::File::create(path).map_err(io_error)?)
    }

    /// [`Graph::load`] from a file.
    ///
    /// # Errors
    /// As [`Graph::load`].
    ///
    /// ```no_run
    /// let graph = signposts::Graph::load_from("level1.signposts")?;
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn load_from(path: impl AsRef<std::path::Path>) -> Result<Graph, Error> {
        Graph::load(std::io::BufReader::new(std::fs::File::open(path).map_err(io_error)?))
    }

    pub(crate) fn read_body(r: &mut Reader) -> Result<Graph, Error> {
        let nodes = r.u64()?;
        let arcs = r.u64()?;
        let edges = r.u64()?;
        let components = r.u32()?;
        let flags = r.u32()?;
        let words_len = r.u64()?;
        let fingerprint = r.u64()?;
        if nodes > crate::MAX_NODES as u64 || arcs > u64::from(u32::MAX) {
            return Err(corrupt("node or arc count out of range"));
        }
        let degrees = r.u32s(nodes)?;
        let widths = r.u32s(nodes)?;
        let neighbors = r.u32s(arcs)?;
        let costs = if flags & FLAG_WEIGHTED != 0 { r.u32s(arcs)? } else { Vec::new() };
        let order = r.u32s(nodes)?;
        let component = r.u32s(nodes)?;
        let words = r.u64s(words_len)?;
        let n = nodes as usize;

        // Structure: degrees sum to the arcs, heads in range and sorted per node.
        let mut rows = Vec::with_capacity(n);
        let mut first = 0u64;
        for &deg in &degrees {
            rows.push(NodeRow { word: 0, first: first as u32, deg });
            first += u64::from(deg);
            if first > arcs {
                return Err(corrupt("degrees add up to more arcs than stored"));
            }
        }
        if first != arcs {
            return Err(corrupt("degrees do not add up to the stored arcs"));
        }
        for row in &rows {
            let list = &neighbors[row.slots()];
            if list.iter().any(|&v| u64::from(v) >= nodes) || list.windows(2).any(|w| w[0] >= w[1]) {
                return Err(corrupt("a neighbour list is out of range or unsorted"));
            }
        }
        if costs.contains(&0) {
            return Err(corrupt("an arc costs 0"));
        }
        for (row, &log) in rows.iter().zip(&widths) {
            if log > 31 || 1u32 << log < crate::table::entry_bits(row.deg) {
                return Err(corrupt("an entry width is too small for its node's degree"));
            }
        }
        let mut width = widths.iter();
        let layout = Layout::assign_widths(&mut rows, |_| 1 << width.next().copied().unwrap_or(0));
        if layout.words() != words_len {
            return Err(corrupt("the table's size does not match the graph"));
        }
        let mut column = vec![u32::MAX; n];
        for (c, &v) in order.iter().enumerate() {
            if u64::from(v) >= nodes || column[v as usize] != u32::MAX {
                return Err(corrupt("the column order is not a permutation"));
            }
            column[v as usize] = c as u32;
        }
        if component.iter().any(|&c| c >= components) {
            return Err(corrupt("a component id is out of range"));
        }
        let model = if flags & FLAG_OCTILE != 0 { CostModel::Octile } else { CostModel::Integer };
        let table = Table { rows, neighbors, column, order, words, layout };
        let graph = Graph::from_parts(
            table,
            component,
            components,
            costs,
            model,
            flags & FLAG_DIRECTED != 0,
            usize::try_from(edges).map_err(|_| corrupt("edge count out of range"))?,
        );
        if graph.fingerprint() != fingerprint {
            return Err(corrupt("the graph does not match its fingerprint"));
        }
        Ok(graph)
    }
}
