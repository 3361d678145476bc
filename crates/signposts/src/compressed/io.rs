//! Saving and loading, with the invariant checks that make a loaded table safe to query.

use super::format::{PAD, Packed, RowStarts, SLOT_BITS, START_BITS, U24s};
use super::{CORE, CompressedGraph, MAX_DEGREE, ROOT};
use crate::builder::CostModel;
use crate::{Error, NodeId};

impl CompressedGraph {
    /// A 64-bit fingerprint of the graph (node count and arcs), equal to the
    /// [`Graph::fingerprint`](crate::Graph::fingerprint) of the dense build of the same graph.
    #[must_use]
    pub fn fingerprint(&self) -> u64 {
        let n = self.nodes_len();
        crate::io::fingerprint(
            n,
            (0..n).map(|v| self.offsets[v + 1] - self.offsets[v]),
            self.heads.iter().copied(),
            (0..self.heads.len()).map(|a| self.costs.get(a).copied().unwrap_or(1)),
            self.model,
        )
    }

    /// Writes the oracle (see the [`io`](crate::io) module for the format).
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
        let mut w = crate::io::Writer::new(sink);
        w.header(crate::io::KIND_COMPRESSED)?;
        self.write_body(&mut w)?;
        w.finish()
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
        let mut r = crate::io::Reader::open(source, crate::io::KIND_COMPRESSED)?;
        let graph = CompressedGraph::read_body(&mut r)?;
        r.finish()?;
        Ok(graph)
    }

    /// Checks every invariant a query relies on (after reading a file).
    fn check(&self) -> Result<(), Error> {
        use crate::io::corrupt;
        let n = self.nodes_len();
        let nodes = n as u64;
        let runs_len = self.runs.len as u64;
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
            if l.iter().any(|&w| !self.connected(w as usize, v)) {
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
        if self.anchors.iter().any(|&(a, first)| u64::from(a) >= nodes || u64::from(first) >= nodes)
            || self.anchors.windows(2).any(|p| p[0].1 >= p[1].1)
        {
            return Err(corrupt("the tree anchors are out of range or order"));
        }
        Ok(())
    }

    pub(crate) fn write_body<W: std::io::Write>(&self, w: &mut crate::io::Writer<W>) -> Result<(), Error> {
        let n = self.nodes_len();
        w.u64(n as u64)?;
        w.u64(self.heads.len() as u64)?;
        w.u64(self.runs.len as u64)?;
        w.u32(self.runs.width as u32)?;
        w.u32(self.runs.move_bits)?;
        w.u32(u32::from(!self.costs.is_empty()) | u32::from(self.model == CostModel::Octile) << 1)?;
        w.u64(self.fingerprint())?;
        w.u32s((0..n).map(|v| self.offsets[v + 1] - self.offsets[v]))?;
        w.u32s(self.heads.iter().copied())?;
        w.u32s(self.costs.iter().copied())?;
        w.u32s(self.column.iter())?;
        w.u64(self.component.len() as u64)?;
        w.u32s(self.component.iter().copied())?;
        w.bytes(&self.parent_slot)?;
        w.u32(self.core_len)?;
        w.u32s(self.size.iter().copied())?;
        w.u64(self.anchors.len() as u64)?;
        w.u32s(self.anchors.iter().flat_map(|&(a, first)| [a, first]))?;
        w.bytes(&self.first_moves)?;
        w.u32s(self.first_run.iter())?;
        w.bytes(&self.runs.bytes[..self.runs.len * self.runs.width])
    }

    /// Reads and checks every invariant a query relies on: arcs in range, sorted and
    /// symmetric; a permutation of columns; labels that agree across arcs; rows of increasing
    /// runs whose moves name existing slots. A file that passes answers without panicking.
    pub(crate) fn read_body(r: &mut crate::io::Reader<'_>) -> Result<CompressedGraph, Error> {
        use crate::io::corrupt;
        let nodes = r.u64()?;
        let arcs = r.u64()?;
        let runs_len = r.u64()?;
        let width = r.u32()? as usize;
        let move_bits = r.u32()?;
        let flags = r.u32()?;
        let fingerprint = r.u64()?;
        if nodes >= 1 << START_BITS || arcs > u64::from(u32::MAX) || runs_len > u64::from(u32::MAX) {
            return Err(corrupt("node, arc or run count out of range"));
        }
        let degrees = r.u32s(nodes)?;
        let heads = r.u32s(arcs)?;
        let costs = r.u32s(if flags & 1 == 1 { arcs } else { 0 })?;
        let model = if flags & 2 == 2 { CostModel::Octile } else { CostModel::Integer };
        if costs.contains(&0) || flags > 3 {
            return Err(corrupt("an arc costs 0, or unknown flags"));
        }
        let column = r.u32s(nodes)?;
        let labels = r.u64()?;
        if labels != 0 && labels != nodes {
            return Err(corrupt("component labels for some nodes only"));
        }
        let component = r.u32s(labels)?;
        let parent_slot = r.bytes(nodes)?.to_vec();
        let core_len = r.u32()?;
        if u64::from(core_len) > nodes {
            return Err(corrupt("more core nodes than nodes"));
        }
        let size = r.u32s(nodes - u64::from(core_len))?;
        let anchors_len = r.u64()?;
        if anchors_len > nodes {
            return Err(corrupt("more anchors than nodes"));
        }
        let anchors: Vec<(u32, u32)> =
            r.u32s(2 * anchors_len)?.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        let first_moves = r.bytes(nodes)?.to_vec();
        let first_run = r.u32s(nodes + 1)?;
        // Checked before packing: columns must fit three bytes, row starts must not fall.
        if column.iter().any(|&c| u64::from(c) >= nodes) {
            return Err(corrupt("the column order is not a permutation"));
        }
        if first_run.windows(2).any(|p| p[0] > p[1]) {
            return Err(corrupt("run indices are not increasing"));
        }
        let (column, first_run) = (U24s::new(&column), RowStarts::new(&first_run));
        let column_bits = u64::BITS - nodes.leading_zeros();
        if !matches!((width, move_bits), (3 | 4, SLOT_BITS | 4 | 8))
            || move_bits + column_bits > 8 * width as u32
        {
            return Err(corrupt("a run layout too narrow for the graph"));
        }
        let mut runs = Packed::new(width, move_bits);
        runs.bytes = r.bytes(runs_len * width as u64)?.to_vec();
        runs.bytes.resize(runs.bytes.len() + PAD, 0);
        runs.len = runs_len as usize;
        let n = nodes as usize;
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0u32);
        for &deg in &degrees {
            let next = u64::from(*offsets.last().expect("non-empty")) + u64::from(deg);
            if deg as usize > MAX_DEGREE || next > arcs {
                return Err(corrupt("a degree is too large or the degrees exceed the arcs"));
            }
            offsets.push(next as u32);
        }
        if u64::from(offsets[n]) != arcs {
            return Err(corrupt("degrees do not add up to the stored arcs"));
        }
        let graph = CompressedGraph {
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
            first_run,
            runs,
        };
        graph.check()?;
        if graph.fingerprint() != fingerprint {
            return Err(corrupt("the graph does not match its fingerprint"));
        }
        Ok(graph)
    }
}

#[cfg(test)]
mod tests {
    use super::CompressedGraph;
    use crate::Error;

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
