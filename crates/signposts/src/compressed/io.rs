//! Saving and loading, with the invariant checks that make a loaded table safe to query.

use super::format::{PAD, Packed, RowStarts, SLOT_BITS, START_BITS, U24s};
use super::{CORE, CompressedGraph, MAX_DEGREE, ROOT};
use crate::builder::CostModel;
use crate::format::{Check, Source};
use crate::{Error, NodeId};

impl CompressedGraph {
    /// A 64-bit fingerprint of the graph (node count and arcs), equal to the
    /// [`Graph::fingerprint`](crate::Graph::fingerprint) of the dense build of the same graph:
    /// of the edited graph once edited ([`CompressedGraph::apply`]).
    #[must_use]
    pub fn fingerprint(&self) -> u64 {
        match &self.edits {
            None => self.built_fingerprint(),
            Some(edits) => self.edited_fingerprint(edits),
        }
    }

    /// The fingerprint of the graph as built, which the body's runs belong to.
    fn built_fingerprint(&self) -> u64 {
        let n = self.nodes_len();
        crate::format::fingerprint(
            n,
            (0..n).map(|v| self.offsets[v + 1] - self.offsets[v]),
            self.heads.iter().copied(),
            (0..self.heads.len()).map(|a| self.costs.get(a).copied().unwrap_or(1)),
            self.model,
        )
    }

    /// Writes the oracle (see the [`format`](crate::format) module).
    ///
    /// # Errors
    /// [`Error::Io`] when writing fails.
    ///
    /// ```
    /// let builder = signposts::generate::grid(6, 6, signposts::generate::Connectivity::Four);
    /// let compressed = builder.build_compressed()?;
    /// let mut bytes = Vec::new();
    /// compressed.save(&mut bytes)?;
    /// assert_eq!(signposts::CompressedGraph::load(bytes.as_slice())?, compressed);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn save(&self, sink: impl std::io::Write) -> Result<(), Error> {
        let mut w = crate::format::Writer::new(sink);
        w.header(crate::format::KIND_COMPRESSED)?;
        self.write_body(&mut w)?;
        w.finish()
    }

    /// [`CompressedGraph::save`] to a file, atomically: a reader sees the old file or the
    /// whole new one ([`write_atomically`](crate::format::write_atomically)).
    ///
    /// # Errors
    /// As [`CompressedGraph::save`].
    pub fn save_to(&self, path: impl AsRef<std::path::Path>) -> Result<(), Error> {
        crate::format::write_atomically(path, |file| self.save(file))
    }

    /// [`CompressedGraph::load`] from a file.
    ///
    /// # Errors
    /// As [`CompressedGraph::load`].
    pub fn load_from(path: impl AsRef<std::path::Path>) -> Result<CompressedGraph, Error> {
        CompressedGraph::load(std::io::BufReader::new(std::fs::File::open(path)?))
    }

    /// Reads an oracle written by [`CompressedGraph::save`].
    ///
    /// Every invariant a query relies on is checked (arcs, columns, row starts in order, runs
    /// naming only slots their node has, the peeled trees), so a file edited on purpose with
    /// its checksum recomputed is an error or a table whose queries cannot panic or loop.
    ///
    /// # Complexity
    /// O(file): one streaming read and one pass over the runs.
    ///
    /// # Errors
    /// As [`Graph::load`](crate::Graph::load).
    ///
    /// ```
    /// assert!(signposts::CompressedGraph::load(&b"SIGNPOST"[..]).is_err());
    /// ```
    pub fn load(source: impl std::io::Read) -> Result<CompressedGraph, Error> {
        let mut r = crate::format::Reader::open(source, crate::format::KIND_COMPRESSED)?;
        let graph = CompressedGraph::read_body(&mut r, Check::Full)?;
        r.finish()?;
        Ok(graph)
    }

    /// Opens a saved oracle in place: its arrays are read where `bytes` holds them, nothing is
    /// copied or converted, so opening costs O(1) and each query the pages it reads. `bytes`
    /// may be a `Vec<u8>`, a memory map, any bytes whose `as_ref` returns the same slice each
    /// time.
    ///
    /// With [`Check::Sizes`] only the header and the arrays' sizes are checked: call
    /// [`CompressedGraph::verify`] before trusting a file that may be damaged or crafted (see
    /// [`Check`] for what an unverified file can do). [`Check::Full`] checks everything
    /// [`CompressedGraph::load`] checks before returning.
    ///
    /// Arrays are read in place on little-endian machines when `bytes` starts at a multiple
    /// of 8 bytes in memory (a memory map, the allocator's vectors in practice); otherwise
    /// each is copied (`include_bytes!` data, aligned to 1, usually is).
    ///
    /// # Errors
    /// As [`CompressedGraph::load`]; [`Error::Truncated`] when the file is shorter than its
    /// header's counts say.
    ///
    /// ```
    /// use signposts::{CompressedGraph, format::Check};
    /// let builder = signposts::generate::grid(6, 6, signposts::generate::Connectivity::Eight);
    /// let built = builder.build_compressed()?;
    /// let mut bytes = Vec::new();
    /// built.save(&mut bytes)?;
    /// let opened = CompressedGraph::from_bytes(bytes, Check::Sizes)?;
    /// assert_eq!(opened.neighbor_to(0, 35), built.neighbor_to(0, 35));
    /// opened.verify()?;
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn from_bytes(
        bytes: impl AsRef<[u8]> + Send + Sync + 'static,
        check: Check,
    ) -> Result<CompressedGraph, Error> {
        CompressedGraph::open_in_place(crate::buf::share(bytes), check)
    }

    fn open_in_place(bytes: crate::buf::Bytes, check: Check) -> Result<CompressedGraph, Error> {
        let read = |r: &mut crate::buf::Sections, _| CompressedGraph::read_body(r, Check::Sizes);
        crate::format::open_in_place(
            bytes,
            &[crate::format::KIND_COMPRESSED],
            check,
            read,
            CompressedGraph::verify,
        )
    }

    /// Opens a saved oracle memory-mapped: [`CompressedGraph::from_bytes`] over the file's
    /// pages, which the system reads as queries touch them (and may drop again under memory
    /// pressure: the file is their backing).
    ///
    /// # Safety
    /// As [`Graph::map_file`](crate::Graph::map_file): the file must not be modified or
    /// truncated while the oracle or any clone of it lives.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be opened or mapped; as
    /// [`CompressedGraph::from_bytes`].
    ///
    /// ```no_run
    /// use signposts::{CompressedGraph, format::Check};
    /// // SAFETY: the game's data files are not written while it runs.
    /// let table = unsafe { CompressedGraph::map_file("level1.signposts", Check::Sizes) }?;
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[cfg(feature = "mmap")]
    pub unsafe fn map_file(
        path: impl AsRef<std::path::Path>,
        check: Check,
    ) -> Result<CompressedGraph, Error> {
        // SAFETY: passed on to the caller.
        CompressedGraph::open_in_place(unsafe { crate::format::map(path.as_ref()) }?, check)
    }

    /// Checks a table opened in place as [`CompressedGraph::load`] checks a file: the
    /// checksum over the whole file and every invariant a query relies on. After it passes,
    /// no query can panic or loop. On a table built or loaded into memory it checks the
    /// invariants only.
    ///
    /// # Complexity
    /// O(file): every page is read once.
    ///
    /// # Errors
    /// [`Error::Corrupt`] when the checksum or an invariant fails.
    pub fn verify(&self) -> Result<(), Error> {
        if self.origin.file.is_none() {
            return self.check();
        }
        crate::format::verify_checksum(&self.origin)?;
        self.check_body(self.origin.fingerprint)
    }

    /// Checks every invariant a query relies on (after reading a file), in an order that lets
    /// each check rely on the ones before: no check can panic on any bytes.
    pub(super) fn check(&self) -> Result<(), Error> {
        use crate::format::corrupt;
        let n = self.nodes_len();
        let nodes = n as u64;
        let runs_len = self.runs.len as u64;
        if self.offsets.first() != Some(&0)
            || self.offsets.last().map(|&last| last as usize) != Some(self.heads.len())
            || self.offsets.windows(2).any(|p| p[0] > p[1] || (p[1] - p[0]) as usize > MAX_DEGREE)
        {
            return Err(corrupt("a degree is too large or the degrees do not add up to the arcs"));
        }
        if self.costs.contains(&0) {
            return Err(corrupt("an arc costs 0"));
        }
        let starts_rise = (0..n).all(|i| self.first_run.start(i) <= self.first_run.start(i + 1));
        if !starts_rise {
            return Err(corrupt("run indices are not increasing"));
        }
        let list = |v: usize| &self.heads[self.offsets[v] as usize..self.offsets[v + 1] as usize];
        for v in 0..n {
            let l = list(v);
            if l.iter().any(|&w| u64::from(w) >= nodes) || l.windows(2).any(|p| p[0] >= p[1]) {
                return Err(corrupt("a neighbour list is out of range or unsorted"));
            }
            let cost = |a: usize| self.costs.get(a).copied().unwrap_or(1);
            let reverse = |s: usize, w: usize| {
                let back = list(w).binary_search(&(v as NodeId)).ok()?;
                Some(cost(self.offsets[w] as usize + back) == cost(self.offsets[v] as usize + s))
            };
            if l.iter().enumerate().any(|(s, &w)| reverse(s, w as usize) != Some(true)) {
                return Err(corrupt("an arc has no reverse arc of the same cost"));
            }
            if l.iter().any(|&w| !self.built_connected(w as usize, v)) {
                return Err(corrupt("component labels disagree across an arc"));
            }
        }
        let mut seen = vec![false; n];
        for c in self.column.iter() {
            if u64::from(c) >= nodes || core::mem::replace(&mut seen[c as usize], true) {
                return Err(corrupt("the column order is not a permutation"));
            }
        }
        if self.first_run.start(0) != 0 || self.first_run.start(n) as u64 != runs_len {
            return Err(corrupt("run indices do not cover the runs"));
        }
        for v in 0..n {
            let slots = (1u32 << (self.offsets[v + 1] - self.offsets[v])) - 1;
            let row = self.first_run.row(v);
            let starts_ok = row.clone().skip(1).all(|i| self.runs.start(i - 1) < self.runs.start(i))
                && row.clone().all(|i| self.runs.start(i) > 0 && u64::from(self.runs.start(i)) < nodes);
            let moves_ok = u32::from(self.first_moves[v]) & !slots == 0
                && row
                    .clone()
                    .all(|i| self.runs.moves(i) != 0 && u32::from(self.runs.moves(i)) & !slots == 0);
            if !starts_ok || !moves_ok {
                return Err(corrupt("a row of runs is out of order or names a missing move"));
            }
        }
        for v in 0..n {
            let deg = self.offsets[v + 1] - self.offsets[v];
            let ok = match self.parent_slot[v] {
                CORE => self.column.get(v) < self.core_len,
                slot => {
                    (slot == ROOT || u32::from(slot) < deg)
                        && self.column.get(v) >= self.core_len
                        && self.tree_size(v) >= 1
                        && u64::from(self.column.get(v)) + u64::from(self.tree_size(v)) <= nodes
                }
            };
            if !ok {
                return Err(corrupt("a peeled tree's parent or size is out of range"));
            }
        }
        if self.anchors.iter().any(|&pair| u64::from(pair as u32) >= nodes || pair >> 32 >= nodes)
            || self.anchors.windows(2).any(|p| p[0] >> 32 >= p[1] >> 32)
        {
            return Err(corrupt("the tree anchors are out of range or order"));
        }
        match &self.edits {
            Some(edits) => edits.check(self),
            None => Ok(()),
        }
    }

    /// Writes the arrays as they lie in memory, each at a multiple of 8 bytes, so that an
    /// opened file is read in place (see the [`io`](crate::format) module for the layout).
    pub(crate) fn write_body<W: std::io::Write>(
        &self,
        w: &mut crate::format::Writer<W>,
    ) -> Result<(), Error> {
        self.write_body_head(w)?;
        w.array(&self.runs.bytes)?;
        // An edited table's overlay follows its runs (flag bit 2); a merge streams tables
        // without one.
        match &self.edits {
            Some(edits) => edits.write(w),
            None => Ok(()),
        }
    }

    /// [`CompressedGraph::write_body`] up to the runs' bytes (a merge streams those).
    pub(super) fn write_body_head<W: std::io::Write>(
        &self,
        w: &mut crate::format::Writer<W>,
    ) -> Result<(), Error> {
        w.u64(self.nodes_len() as u64)?;
        w.u64(self.heads.len() as u64)?;
        w.u64(self.runs.len as u64)?;
        w.u32(self.runs.width as u32)?;
        w.u32(self.runs.move_bits)?;
        w.u32(
            u32::from(!self.costs.is_empty())
                | u32::from(self.model == CostModel::Octile) << 1
                | u32::from(self.edits.is_some()) << 2,
        )?;
        w.u32(self.core_len)?;
        w.u64(self.component.len() as u64)?;
        w.u64(self.anchors.len() as u64)?;
        w.u32(self.first_run.shift)?;
        w.u64(self.built_fingerprint())?;
        w.u32s(self.offsets.iter().copied())?;
        w.u32s(self.heads.iter().copied())?;
        w.u32s(self.costs.iter().copied())?;
        w.array(&self.column.bytes)?;
        w.u32s(self.component.iter().copied())?;
        w.array(&self.parent_slot)?;
        w.u32s(self.size.iter().copied())?;
        w.u64s(&self.anchors)?;
        w.array(&self.first_moves)?;
        w.u32s(self.first_run.base.iter().copied())?;
        w.u16s(self.first_run.offset.iter().copied())
    }

    /// Reads a body: the header's counts are checked at once, the arrays' contents by
    /// [`CompressedGraph::check`] when `check` is [`Check::Full`] (a body read in place
    /// borrows its arrays, each sized by the counts).
    pub(crate) fn read_body(r: &mut impl Source, check: Check) -> Result<CompressedGraph, Error> {
        use crate::format::corrupt;
        let nodes = r.u64()?;
        let arcs = r.u64()?;
        let runs_len = r.u64()?;
        let width = r.u32()? as usize;
        let move_bits = r.u32()?;
        let flags = r.u32()?;
        let core_len = r.u32()?;
        let labels = r.u64()?;
        let anchors_len = r.u64()?;
        let shift = r.u32()?;
        let fingerprint = r.u64()?;
        if nodes >= 1 << START_BITS || arcs > u64::from(u32::MAX) || runs_len > u64::from(u32::MAX) {
            return Err(corrupt("node, arc or run count out of range"));
        }
        if flags > 7 {
            return Err(corrupt("unknown flags"));
        }
        if labels != 0 && labels != nodes {
            return Err(corrupt("component labels for some nodes only"));
        }
        if u64::from(core_len) > nodes || anchors_len > nodes || shift > 4 {
            return Err(corrupt("more core nodes or anchors than nodes, or rows in blocks too large"));
        }
        let column_bits = u64::BITS - nodes.leading_zeros();
        if !matches!((width, move_bits), (3 | 4, SLOT_BITS | 4 | 8))
            || move_bits + column_bits > 8 * width as u32
        {
            return Err(corrupt("a run layout too narrow for the graph"));
        }
        let model = if flags & 2 == 2 { CostModel::Octile } else { CostModel::Integer };
        let offsets = r.array(nodes + 1)?;
        let heads = r.array(arcs)?;
        let costs = r.array(if flags & 1 == 1 { arcs } else { 0 })?;
        let column = U24s { bytes: r.array(3 * nodes + 1)? };
        let component = r.array(labels)?;
        let parent_slot = r.array(nodes)?;
        let size = r.array(nodes - u64::from(core_len))?;
        let anchors = r.array(anchors_len)?;
        let first_moves = r.array(nodes)?;
        let base = r.array((nodes + 1).div_ceil(1 << shift))?;
        let offset = r.array(nodes + 1)?;
        let mut runs = Packed::new(width, move_bits);
        runs.bytes = r.array(runs_len * width as u64 + PAD as u64)?;
        runs.len = runs_len as usize;
        let edits = if flags & 4 == 4 { Some(Box::new(super::edit::Edits::read(r, nodes)?)) } else { None };
        let mut graph = CompressedGraph {
            offsets,
            heads,
            costs,
            model,
            column,
            component,
            first_moves,
            parent_slot,
            core_len,
            size,
            anchors,
            first_run: RowStarts { shift, base, offset },
            runs,
            origin: crate::buf::Origin { file: r.file(), fingerprint },
            edits: None,
        };
        if let Some(mut edits) = edits {
            edits.count_dead(&graph);
            graph.edits = Some(edits);
        }
        if check == Check::Full {
            graph.check_body(fingerprint)?;
        }
        Ok(graph)
    }

    /// Every invariant, then the fingerprint stored beside the body.
    fn check_body(&self, fingerprint: u64) -> Result<(), Error> {
        self.check()?;
        if self.built_fingerprint() != fingerprint {
            return Err(crate::format::corrupt("the graph does not match its fingerprint"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::CompressedGraph;
    use crate::Error;

    /// Bytes at a multiple of 8 in memory, as a map's are.
    struct Aligned(Vec<u64>, usize);

    impl AsRef<[u8]> for Aligned {
        fn as_ref(&self) -> &[u8] {
            // SAFETY: the words' memory, `self.1 <= 8 * len` bytes of it, read as bytes.
            unsafe { core::slice::from_raw_parts(self.0.as_ptr().cast::<u8>(), self.1) }
        }
    }

    /// Opened from aligned bytes, the arrays are read where the bytes lie, not copied.
    #[test]
    fn aligned_bytes_are_read_in_place() {
        let builder = crate::generate::walled_grid(10, 10, 0.2, 4, crate::generate::Connectivity::Four);
        let built = builder.build_compressed().unwrap();
        let mut bytes = Vec::new();
        built.save(&mut bytes).unwrap();
        let len = bytes.len();
        bytes.resize(len.next_multiple_of(8), 0);
        let words = bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect();
        let opened = CompressedGraph::from_bytes(Aligned(words, len), crate::format::Check::Full).unwrap();
        assert!(cfg!(target_endian = "big") || (opened.runs.bytes.is_shared() && opened.heads.is_shared()));
        assert_eq!(opened, built);
    }

    /// Files with a valid checksum but broken contents are refused by the invariant checks.
    #[test]
    fn consistent_but_broken_files_are_corrupt() {
        let builder = crate::generate::walled_grid(10, 10, 0.2, 4, crate::generate::Connectivity::Four);
        let good = builder.build_compressed().unwrap();
        let breaks: [fn(&mut CompressedGraph); 5] = [
            |_| {}, // unchanged: the control
            |g| {
                let mut column: Vec<u32> = g.column.iter().collect();
                column[1] = column[0];
                g.column = super::U24s::new(&column);
            },
            |g| g.first_moves[0] = 0x80,
            |g| g.anchors.reverse(),
            |g| g.heads[0] = 10_000,
        ];
        for (i, broken) in breaks.iter().enumerate() {
            let mut graph = good.clone();
            broken(&mut graph);
            let mut bytes = Vec::new();
            graph.save(&mut bytes).unwrap();
            let loaded = CompressedGraph::load(bytes.as_slice());
            if i == 0 {
                assert_eq!(loaded.unwrap(), good);
            } else {
                assert!(matches!(loaded, Err(Error::Corrupt { .. })), "break {i}: {loaded:?}");
            }
        }
    }
}
