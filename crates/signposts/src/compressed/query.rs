//! Queries: next moves, paths and distances, by binary search in a row's runs.

use super::{CORE, CompressedGraph, MAX_DEGREE, ROOT};
use crate::Cost;
use crate::{Error, NodeId};

/// Queries whose memory [`CompressedGraph::neighbor_to_each`] asks for at a time.
const PREFETCH_GROUP: usize = 16;

impl CompressedGraph {
    /// Number of nodes.
    #[must_use]
    pub fn nodes_len(&self) -> usize {
        self.column.len()
    }

    /// Number of edges (each undirected edge once).
    #[must_use]
    pub fn edges_len(&self) -> usize {
        self.heads.len() / 2 - self.edits.as_ref().map_or(0, |e| e.dead_edges())
    }

    /// Nodes with a row: the core left after peeling trees.
    #[must_use]
    pub fn core_len(&self) -> usize {
        self.core_len as usize
    }

    /// Runs stored, over all rows (a row's first run included).
    #[must_use]
    pub fn runs_len(&self) -> usize {
        self.runs.len + self.first_moves.iter().filter(|&&m| m != 0).count()
    }

    /// Bytes held: runs (3 or 4 bytes each, a row's first 1 byte), row and arc indices,
    /// labels, peeled trees, and the overlay of an edited table.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.first_moves.len()
            + self.parent_slot.len()
            + self.size.len() * 4
            + self.anchors.len() * 8
            + self.runs.memory_bytes()
            + self.first_run.memory_bytes()
            + self.column.bytes.len()
            + (self.offsets.len() + self.heads.len() + self.component.len()) * 4
            + self.edits.as_ref().map_or(0, |e| e.memory_bytes())
    }

    /// Bytes of the first-move data alone: [`CompressedGraph::memory_bytes`] less the graph's
    /// own arcs (which a grid, say, holds anyway).
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.memory_bytes() - (self.offsets.len() + self.heads.len()) * 4
    }

    pub(super) fn index(&self, id: NodeId) -> Result<usize, Error> {
        let n = self.nodes_len();
        if (id as usize) < n { Ok(id as usize) } else { Err(Error::NodeOutOfRange { node: id, nodes: n }) }
    }

    #[track_caller]
    fn expect_index(&self, id: NodeId) -> usize {
        self.index(id).unwrap_or_else(|e| crate::error::panic_with(&e))
    }

    /// Whether `u` and `t` lie in one component.
    #[inline]
    pub(super) fn connected(&self, u: usize, t: usize) -> bool {
        match &self.edits {
            None => self.built_connected(u, t),
            Some(edits) => edits.connected(u, t),
        }
    }

    /// Whether `u` and `t` lie in one component of the graph as built.
    #[inline]
    pub(super) fn built_connected(&self, u: usize, t: usize) -> bool {
        self.component.is_empty() || self.component[u] == self.component[t]
    }

    /// The nodes in the subtree of the peeled node `w`, itself included.
    #[inline]
    pub(super) fn tree_size(&self, w: usize) -> u32 {
        self.size[(self.column.get(w) - self.core_len) as usize]
    }

    /// The moves of `u` toward `t` as a slot mask (0 when `u == t` or `t` is unreachable).
    #[inline]
    fn moves(&self, u: usize, t: usize) -> u8 {
        match &self.edits {
            None => self.built_moves(u, t),
            Some(edits) => edits.moves(u, t).unwrap_or_else(|| self.built_moves(u, t)),
        }
    }

    /// [`CompressedGraph::moves`] from the runs, as built.
    #[inline]
    fn built_moves(&self, u: usize, mut t: usize) -> u8 {
        if u == t || !self.built_connected(u, t) {
            return 0;
        }
        if self.parent_slot[u] != CORE {
            // In a tree: down into the child whose subtree holds `t`, else up.
            let up = match self.parent_slot[u] {
                ROOT => 0,
                slot => 1 << slot,
            };
            return self.child_toward(u, t).unwrap_or(up);
        }
        if self.parent_slot[t] != CORE {
            // Toward a tree node: as toward its anchor, or from the anchor into the tree.
            let col = self.column.get(t);
            let block = self.anchors.partition_point(|&pair| (pair >> 32) as u32 <= col).saturating_sub(1);
            let anchor = self.anchors.get(block).map_or(t, |&pair| pair as u32 as usize);
            if anchor == u {
                return self.child_toward(u, t).unwrap_or(0);
            }
            t = anchor;
        }
        let row = self.first_run.row(u);
        // The last run starting at or before the target's column.
        match self.runs.starting_by(row.clone(), self.column.get(t)) {
            0 => self.first_moves[u],
            i => self.runs.moves(row.start + i - 1),
        }
    }

    /// The slot of the child of `u` in a peeled tree whose subtree holds `t`, as a mask.
    fn child_toward(&self, u: usize, t: usize) -> Option<u8> {
        let col = self.column.get(t);
        let first = self.offsets[u] as usize;
        self.heads[first..self.offsets[u + 1] as usize].iter().enumerate().find_map(|(s, &w)| {
            let w = w as usize;
            let hangs = self.parent_slot[w] < ROOT
                && self.heads[self.offsets[w] as usize + self.parent_slot[w] as usize] as usize == u;
            let holds = hangs && (self.column.get(w)..self.column.get(w) + self.tree_size(w)).contains(&col);
            holds.then_some(1 << s)
        })
    }

    /// An optimal next node from `from` toward `to`, or `None` when `from == to` or `to` is
    /// unreachable.
    ///
    /// # Panics
    /// If an id is out of range.
    ///
    /// # Complexity
    /// O(log r) for the `r` runs of `from`'s row.
    #[must_use]
    #[track_caller]
    pub fn neighbor_to(&self, from: NodeId, to: NodeId) -> Option<NodeId> {
        let (u, t) = (self.expect_index(from), self.expect_index(to));
        let moves = self.moves(u, t);
        (moves != 0).then(|| self.heads[self.offsets[u] as usize + moves.trailing_zeros() as usize])
    }

    /// [`CompressedGraph::neighbor_to`] for many `(from, to)` queries at once, written to
    /// `out` (which is cleared first): the step of each entity toward its target.
    ///
    /// Answers equal one [`CompressedGraph::neighbor_to`] call per query, but the memory of a
    /// group of queries is asked for before any of it is read, in two rounds (each query's
    /// node data, then each row's runs: with the first round alone, no faster than single
    /// calls on random512-10-0), so that the cache misses of many queries overlap: on
    /// tables larger than the cache about twice as fast per query as single calls
    /// (random512-10-0, 4-connected: 146 → 77–81 ns), on tables that fit it a few
    /// nanoseconds slower (see the README's tables of compressed oracles).
    ///
    /// # Panics
    /// If an id is out of range; see [`CompressedGraph::try_neighbor_to_each`].
    ///
    /// # Complexity
    /// O(log r) per query for the `r` runs of its source's row; no allocation beyond `out`.
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(4);
    /// b.connect(0, 1).connect(1, 2);
    /// let g = b.build_compressed()?;
    /// let mut steps = Vec::new();
    /// g.neighbor_to_each(&[(0, 2), (2, 0), (1, 1), (0, 3)], &mut steps);
    /// assert_eq!(steps, [Some(1), Some(1), None, None]);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[track_caller]
    pub fn neighbor_to_each(&self, queries: &[(NodeId, NodeId)], out: &mut Vec<Option<NodeId>>) {
        if let Err(e) = self.try_neighbor_to_each(queries, out) {
            crate::error::panic_with(&e);
        }
    }

    /// [`CompressedGraph::neighbor_to_each`] with an error for out-of-range ids (then `out`
    /// is left empty).
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    ///
    /// ```
    /// let g = signposts::Graph::builder(2).build_compressed()?;
    /// let mut out = Vec::new();
    /// assert!(g.try_neighbor_to_each(&[(0, 1), (0, 7)], &mut out).is_err());
    /// assert!(out.is_empty());
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn try_neighbor_to_each(
        &self,
        queries: &[(NodeId, NodeId)],
        out: &mut Vec<Option<NodeId>>,
    ) -> Result<(), Error> {
        out.clear();
        for &(from, to) in queries {
            self.index(from)?;
            self.index(to)?;
        }
        out.reserve(queries.len());
        for group in queries.chunks(PREFETCH_GROUP) {
            for &(from, to) in group {
                self.prefetch_nodes(from as usize, to as usize);
            }
            for &(from, _) in group {
                self.prefetch_row(from as usize);
            }
            out.extend(group.iter().map(|&(from, to)| {
                let u = from as usize;
                let moves = self.moves(u, to as usize);
                (moves != 0).then(|| self.heads[self.offsets[u] as usize + moves.trailing_zeros() as usize])
            }));
        }
        Ok(())
    }

    /// Asks for what [`CompressedGraph::moves`] reads of `u` and `t` before the row.
    #[inline]
    fn prefetch_nodes(&self, u: usize, t: usize) {
        use crate::prefetch::prefetch;
        if !self.component.is_empty() {
            prefetch(&self.component[u]);
            prefetch(&self.component[t]);
        }
        prefetch(&self.parent_slot[u]);
        prefetch(&self.parent_slot[t]);
        prefetch(&self.column.bytes[3 * t]);
        prefetch(&self.first_moves[u]);
        prefetch(&self.offsets[u]);
        self.first_run.prefetch(u);
    }

    /// Asks for the runs of `u`'s row (its first lines: a row of up to 8 lines whole).
    #[inline]
    fn prefetch_row(&self, u: usize) {
        let row = self.first_run.row(u);
        let bytes = &self.runs.bytes[row.start * self.runs.width..row.end * self.runs.width];
        for line in bytes.iter().step_by(64).take(8) {
            crate::prefetch::prefetch(line);
        }
    }

    /// The optimal next nodes from `from` toward `to` kept in its run (at least one when a
    /// path exists; a subset of all optimal moves, see the [module docs](super)).
    ///
    /// # Panics
    /// If an id is out of range.
    #[track_caller]
    pub fn neighbors_to(&self, from: NodeId, to: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let (u, t) = (self.expect_index(from), self.expect_index(to));
        let moves = self.moves(u, t);
        let first = self.offsets[u] as usize;
        (0..MAX_DEGREE).filter(move |s| moves >> s & 1 == 1).map(move |s| self.heads[first + s])
    }

    /// The nodes of a shortest path from `from` to `to`, both included (empty when `to` is
    /// unreachable; `[from]` when they are equal).
    ///
    /// # Panics
    /// If an id is out of range.
    #[track_caller]
    pub fn path_to(&self, from: NodeId, to: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let reachable = self.path_exists(from, to);
        let mut at = reachable.then_some(from);
        // At most one visit per node (see `walk_cost`).
        let mut left = self.nodes_len();
        core::iter::from_fn(move || {
            let here = at?;
            left = left.checked_sub(1)?;
            at = self.neighbor_to(here, to);
            Some(here)
        })
    }

    /// Whether `to` can be reached from `from`.
    ///
    /// # Panics
    /// If an id is out of range.
    #[must_use]
    #[track_caller]
    pub fn path_exists(&self, from: NodeId, to: NodeId) -> bool {
        let (u, t) = (self.expect_index(from), self.expect_index(to));
        self.connected(u, t)
    }

    /// The exact cost of a shortest path, as [`Graph::cost`](crate::Graph::cost), by
    /// walking it: O(length · log runs).
    ///
    /// # Panics
    /// If an id is out of range; see [`CompressedGraph::try_cost`].
    #[must_use]
    #[track_caller]
    pub fn cost(&self, from: NodeId, to: NodeId) -> Option<Cost> {
        let (u, t) = (self.expect_index(from), self.expect_index(to));
        self.walk_cost(u, t)
    }

    /// [`CompressedGraph::cost`] with an error for out-of-range ids.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    pub fn try_cost(&self, from: NodeId, to: NodeId) -> Result<Option<Cost>, Error> {
        let (u, t) = (self.index(from)?, self.index(to)?);
        Ok(self.walk_cost(u, t))
    }

    /// The exact cost of a shortest path from `u` to `t`, by walking it.
    pub(crate) fn walk_cost(&self, u: usize, t: usize) -> Option<Cost> {
        if !self.connected(u, t) {
            return None;
        }
        let mut total = Cost::ZERO;
        let mut at = u;
        // A shortest path has fewer steps than nodes; the bound only matters for a loaded
        // file whose checksum holds but whose moves go round in a circle.
        for _ in 0..self.nodes_len() {
            if at == t {
                return Some(total);
            }
            let moves = self.moves(at, t);
            if moves == 0 {
                return None;
            }
            let arc = self.offsets[at] as usize + moves.trailing_zeros() as usize;
            total = total + self.model.cost(self.costs.get(arc).copied().unwrap_or(1));
            at = self.heads[arc] as usize;
        }
        (at == t).then_some(total)
    }
}

#[cfg(test)]
mod tests {
    use crate::GraphBuilder;
    use crate::compressed::format::RowStarts;

    #[test]
    fn moves_that_go_round_in_a_circle_end_the_walk() {
        // A 4-cycle whose rows are tampered with (as a crafted file with a valid checksum
        // could be): 0 and 1 send every target to each other.
        let mut builder = GraphBuilder::new(4);
        builder.connect(0, 1).connect(1, 2).connect(2, 3).connect(3, 0);
        let mut g = builder.build_compressed().unwrap();
        assert_eq!(g.core_len(), 4);
        g.first_moves = vec![0b01, 0b01, 0b01, 0b01].into();
        g.first_run = RowStarts::new(&[0; 5]);
        g.runs.len = 0;
        assert_eq!(g.cost(0, 2), None);
        assert!(g.path_to(0, 2).count() <= 4);
    }
}
