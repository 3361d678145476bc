//! Saving and loading a dense [`Graph`] in the [`format`](crate::format).

use std::io::{Read, Write};

use crate::buf::{Bytes, Origin};
use crate::builder::CostModel;
use crate::dense::table::{BLOCK, Entry, Layout, NodeRow, Table};
#[cfg(feature = "mmap")]
use crate::format::map;
use crate::format::{
    Check, FLAG_DIRECTED, FLAG_OCTILE, FLAG_WEIGHTED, KIND_GRAPH, Reader, Source, Writer, corrupt,
    fingerprint, open_in_place, verify_checksum,
};
use crate::{Error, Graph};

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

    /// Writes the graph and its table (see the [module docs](crate::format) for the format).
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
    /// Every invariant a query relies on is checked, so that a file edited on purpose (its
    /// checksum recomputed) is an error or a graph whose queries and edits cannot panic or
    /// loop: besides the structure, every table entry must name only slots its node has, and
    /// the entries of a node toward itself and toward the padding columns must be empty.
    ///
    /// # Complexity
    /// O(file): one streaming read (a buffer of at most 1 MiB beside the graph's arrays), then
    /// one pass over the table's words for the entry check, which allocates nothing. The
    /// check costs about 11 ms of the ~50 ms load of a 100×100 4-connected grid's 48 MiB file
    /// (optimized build, shared 2-core machine; about 32 ms of ~95 ms for the 8-connected
    /// grid's 96 MiB).
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
        let graph = Graph::read_body(&mut r, Check::Full)?;
        r.finish()?;
        Ok(graph)
    }

    /// [`Graph::save`] to a file, atomically: a reader sees the old file or the whole new
    /// one ([`write_atomically`](crate::format::write_atomically)).
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
        crate::format::write_atomically(path, |file| self.save(file))
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
        Graph::load(std::io::BufReader::new(std::fs::File::open(path).map_err(Error::from)?))
    }

    /// Reads a body. The small arrays (O(nodes + arcs)) are read into memory and checked
    /// always; the table's words are borrowed in place from a file opened so, and their
    /// entries checked only when `check` is [`Check::Full`].
    pub(crate) fn read_body(r: &mut impl Source, check: Check) -> Result<Graph, Error> {
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
        let degrees = r.array::<u32>(nodes)?;
        let widths = r.array::<u32>(nodes)?;
        let neighbors = r.array::<u32>(arcs)?.into_vec();
        let costs = if flags & FLAG_WEIGHTED != 0 { r.array::<u32>(arcs)?.into_vec() } else { Vec::new() };
        let order = r.array::<u32>(nodes)?.into_vec();
        let component = r.array::<u32>(nodes)?.into_vec();
        let words = r.array::<u64>(words_len)?;
        let file = r.file();
        let n = nodes as usize;

        // Structure: degrees sum to the arcs, heads in range and sorted per node.
        let mut rows = Vec::with_capacity(n);
        let mut first = 0u64;
        for &deg in degrees.iter() {
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
        for (row, &log) in rows.iter().zip(widths.iter()) {
            if log > 31 || 1u32 << log < crate::dense::table::entry_bits(row.deg) {
                return Err(corrupt("an entry width is too small for its node's degree"));
            }
        }
        // The table's size from the widths, checked before the layout multiplies it out (a
        // crafted file's widths could make it wrap to the stored count).
        let lane_words = widths.iter().try_fold(0u64, |sum, &log| sum.checked_add(1 << log));
        if lane_words.and_then(|w| w.checked_mul(nodes.div_ceil(64))) != Some(words_len) {
            return Err(corrupt("the table's size does not match the graph"));
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
        if check == Check::Full {
            check_entries(&table)?;
        }
        let mut graph = Graph::from_parts(
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
        graph.origin = Origin { file, fingerprint };
        Ok(graph)
    }

    /// Opens a saved graph in place: the table's words are read where `bytes` holds them,
    /// nothing of them copied or converted, so opening costs O(nodes + arcs) (the graph's own
    /// arrays are read and checked) and each query the pages it reads. `bytes` may be a
    /// `Vec<u8>`, a memory map, any bytes whose `as_ref` returns the same slice each time.
    ///
    /// With [`Check::Sizes`] the table's entries are not checked: call [`Graph::verify`]
    /// before trusting a file that may be damaged or crafted (see [`Check`]). [`Check::Full`]
    /// checks everything [`Graph::load`] checks before returning. The first edit
    /// ([`Graph::apply`] and friends) copies the table into memory of its own.
    ///
    /// The words are read in place on little-endian machines when `bytes` starts at a
    /// multiple of 8 bytes in memory (a memory map, the allocator's vectors in practice);
    /// otherwise they are copied (`include_bytes!` data, aligned to 1, usually is).
    ///
    /// # Errors
    /// As [`Graph::load`]; [`Error::Truncated`] when the file is shorter than its header's
    /// counts say.
    ///
    /// ```
    /// use signposts::{Graph, format::Check};
    /// let mut b = Graph::builder(3);
    /// b.connect(0, 1).connect(1, 2);
    /// let graph = b.build();
    /// let mut bytes = Vec::new();
    /// graph.save(&mut bytes)?;
    /// let opened = Graph::from_bytes(bytes, Check::Sizes)?;
    /// assert_eq!(opened.neighbor_to(0, 2), Some(1));
    /// opened.verify()?;
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn from_bytes(bytes: impl AsRef<[u8]> + Send + Sync + 'static, check: Check) -> Result<Graph, Error> {
        Graph::open_in_place(crate::buf::share(bytes), check)
    }

    fn open_in_place(bytes: Bytes, check: Check) -> Result<Graph, Error> {
        open_in_place(bytes, &[KIND_GRAPH], check, |r, _| Graph::read_body(r, Check::Sizes), Graph::verify)
    }

    /// Opens a saved graph memory-mapped: [`Graph::from_bytes`] over the file's pages, which
    /// the system reads as queries touch them (and may drop again under memory pressure: the
    /// file is their backing).
    ///
    /// # Safety
    /// The file must not be modified or truncated, by this process or another, while the
    /// graph or any clone of it lives: the bytes are read as they lie, so a change underneath
    /// is undefined behaviour (a truncated file faults, `SIGBUS`). No check at open can rule
    /// it out; ship tables read-only and write new ones under new names.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be opened or mapped; as [`Graph::from_bytes`].
    ///
    /// ```no_run
    /// use signposts::{Graph, format::Check};
    /// // SAFETY: the game's data files are not written while it runs.
    /// let graph = unsafe { Graph::map_file("level1.signposts", Check::Sizes) }?;
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[cfg(feature = "mmap")]
    pub unsafe fn map_file(path: impl AsRef<std::path::Path>, check: Check) -> Result<Graph, Error> {
        // SAFETY: passed on to the caller.
        Graph::open_in_place(unsafe { map(path.as_ref()) }?, check)
    }

    /// Checks a graph opened in place as [`Graph::load`] checks a file: the checksum over the
    /// whole file and that every table entry names only moves its node has. After it passes,
    /// no query, path walk or edit can panic or loop. On a graph built or loaded into memory
    /// it checks the entries only.
    ///
    /// # Complexity
    /// O(file): every page is read once.
    ///
    /// # Errors
    /// [`Error::Corrupt`] when the checksum or an entry fails.
    pub fn verify(&self) -> Result<(), Error> {
        verify_checksum(&self.origin)?;
        check_entries(&self.table)
    }
}

/// Checks that every entry of a loaded table names only slots its node has, and that the
/// entries no query should find a move in (a node toward itself, the padding columns past the
/// last node) are empty: after this, every move a query reads leads to a neighbour.
///
/// # Complexity
/// One pass over the table's words, O(table), allocating nothing.
fn check_entries(table: &Table) -> Result<(), Error> {
    let n = table.order.len();
    let padded = usize::try_from(table.layout.lanes * 64).map_err(|_| corrupt("table too large"))?;
    for (u, &row) in table.rows.iter().enumerate() {
        if let Some(log) = row.width_log2() {
            // Each field of `1 << log` bits may only use its low `deg` bits.
            let field = if row.deg >= 64 { u64::MAX } else { (1u64 << row.deg) - 1 };
            let mut allowed = 0u64;
            for at in (0..64).step_by(1 << log) {
                allowed |= field << at;
            }
            for block in 0..n.div_ceil(BLOCK) {
                let (start, lanes) = table.layout.chunk(row, block);
                if table.words[start..start + (lanes << log)].iter().any(|&w| w & !allowed != 0) {
                    return Err(corrupt("a table entry names a move its node does not have"));
                }
            }
        } else {
            // Entries of whole words: word `k` holds slots `64k..64k + 64`.
            let deg = row.deg as usize;
            let allowed = |k: usize| match deg.saturating_sub(64 * k) {
                0 => 0,
                left if left >= 64 => u64::MAX,
                left => (1u64 << left) - 1,
            };
            for col in 0..padded {
                let Entry::Wide(words) = table.entry(u, col) else { continue };
                if words.iter().enumerate().any(|(k, &w)| w & !allowed(k) != 0) {
                    return Err(corrupt("a table entry names a move its node does not have"));
                }
            }
        }
        if !table.entry(u, table.column[u] as usize).is_empty()
            || (n..padded).any(|c| !table.entry(u, c).is_empty())
        {
            return Err(corrupt("a node has a move toward itself or toward a column past the last node"));
        }
    }
    Ok(())
}
