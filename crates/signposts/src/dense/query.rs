//! The dense table's queries: next hops, paths, costs, reachability, fleeing.

use crate::dense::table::Slots;
use crate::error::{Error, panic_with};
use crate::{Cost, Graph, NodeId};

impl Graph {
    /// One optimal next hop from `from` toward `to`: the lowest-id neighbour on a shortest
    /// path. `None` when `from == to` or `to` is unreachable.
    ///
    /// # Panics
    /// If either id is out of range; see [`Graph::try_neighbor_to`].
    ///
    /// # Complexity
    /// O(1): one table load.
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(4);
    /// b.connect(0, 1).connect(1, 2);
    /// let g = b.build();
    /// assert_eq!(g.neighbor_to(0, 2), Some(1));
    /// assert_eq!(g.neighbor_to(2, 2), None);
    /// assert_eq!(g.neighbor_to(0, 3), None); // node 3 is isolated
    /// ```
    #[must_use]
    #[inline]
    #[track_caller]
    pub fn neighbor_to(&self, from: NodeId, to: NodeId) -> Option<NodeId> {
        let (u, t) = (self.expect_index(from), self.expect_index(to));
        self.next_hop(u, t)
    }

    /// [`Graph::neighbor_to`] with an error for out-of-range ids.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    ///
    /// ```
    /// let g = signposts::Graph::builder(4).build();
    /// assert!(g.try_neighbor_to(3, 1000).is_err());
    /// assert_eq!(g.try_neighbor_to(3, 0), Ok(None));
    /// ```
    pub fn try_neighbor_to(&self, from: NodeId, to: NodeId) -> Result<Option<NodeId>, Error> {
        let (u, t) = (self.index(from)?, self.index(to)?);
        Ok(self.next_hop(u, t))
    }

    #[inline]
    fn next_hop(&self, u: usize, t: usize) -> Option<NodeId> {
        let slot = self.table.entry_to(u, t).first()?;
        Some(self.table.neighbors[self.table.rows[u].first as usize + slot])
    }

    /// [`Graph::neighbor_to`] for many `(from, to)` queries at once, written to `out` (which
    /// is cleared first): the step of each entity toward its target.
    ///
    /// Answers equal one [`Graph::neighbor_to`] call per query, but the table lines of 64
    /// queries at a time are prefetched before any is read, so their memory latencies overlap:
    /// on tables larger than the cache this is several times faster per query than single
    /// calls (see the README's benchmark table).
    ///
    /// # Panics
    /// If an id is out of range; see [`Graph::try_neighbor_to_each`].
    ///
    /// # Complexity
    /// O(1) per query.
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(4);
    /// b.connect(0, 1).connect(1, 2);
    /// let g = b.build();
    /// let mut steps = Vec::new();
    /// g.neighbor_to_each(&[(0, 2), (2, 0), (1, 1), (0, 3)], &mut steps);
    /// assert_eq!(steps, [Some(1), Some(1), None, None]);
    /// ```
    #[track_caller]
    pub fn neighbor_to_each(&self, queries: &[(NodeId, NodeId)], out: &mut Vec<Option<NodeId>>) {
        if let Err(e) = self.try_neighbor_to_each(queries, out) {
            panic_with(&e);
        }
    }

    /// [`Graph::neighbor_to_each`] with an error for out-of-range ids (then `out` is left
    /// empty).
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    ///
    /// ```
    /// let g = signposts::Graph::builder(2).build();
    /// let mut out = Vec::new();
    /// assert!(g.try_neighbor_to_each(&[(0, 1), (0, 7)], &mut out).is_err());
    /// assert!(out.is_empty());
    /// ```
    pub fn try_neighbor_to_each(
        &self,
        queries: &[(NodeId, NodeId)],
        out: &mut Vec<Option<NodeId>>,
    ) -> Result<(), Error> {
        out.clear();
        let result = self.steps_into(queries, out);
        if result.is_err() {
            out.clear();
        }
        result
    }

    /// [`NextHop::neighbor_to_each_spread`](crate::NextHop::neighbor_to_each_spread) with an
    /// error for out-of-range ids (then `out` is left empty): each entry read once, the reads
    /// of 64 queries overlapped.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    pub fn try_neighbor_to_each_spread(
        &self,
        queries: &[(NodeId, NodeId, u64)],
        out: &mut Vec<Option<NodeId>>,
    ) -> Result<(), Error> {
        out.clear();
        let pick =
            |u: usize, _: usize, entry: Option<u64>, (from, to, seed): (NodeId, NodeId, u64)| match entry {
                // A node with more than 64 neighbours: its moves one by one.
                None => {
                    let k = self.neighbors_to(from, to).count() as u64;
                    (k > 0).then(|| self.neighbors_to(from, to).nth((seed % k) as usize)).flatten()
                }
                Some(mut entry) => {
                    let k = u64::from(entry.count_ones());
                    for _ in 0..seed.checked_rem(k)? {
                        entry &= entry - 1; // drop the lowest move
                    }
                    Some(self.slot_neighbor(u, entry))
                }
            };
        let result = self.each_into(queries, |(from, to, _)| (from, to), pick, out);
        if result.is_err() {
            out.clear();
        }
        result
    }

    fn steps_into(&self, queries: &[(NodeId, NodeId)], out: &mut Vec<Option<NodeId>>) -> Result<(), Error> {
        let pick = |u: usize, t: usize, entry: Option<u64>, _| match entry {
            None => self.next_hop(u, t), // a node with more than 64 neighbours
            Some(entry) => (entry != 0).then(|| self.slot_neighbor(u, entry)),
        };
        self.each_into(queries, |query| query, pick, out)
    }

    /// Answers `queries` with their table reads overlapped, 64 at a time: every entry located
    /// and its cache line asked for, then `pick(u, t, entry, query)` on each (`entry` is `None`
    /// for a node of more than 64 neighbours, whose entries span words).
    fn each_into<Q: Copy>(
        &self,
        queries: &[Q],
        ends: impl Fn(Q) -> (NodeId, NodeId),
        pick: impl Fn(usize, usize, Option<u64>, Q) -> Option<NodeId>,
        out: &mut Vec<Option<NodeId>>,
    ) -> Result<(), Error> {
        const GROUP: usize = 64;
        let mut found = [(0usize, 0u32, 0u64); GROUP];
        for group in queries.chunks(GROUP) {
            // Locate every entry and ask for its cache line; read them; then answer.
            for (place, &query) in found.iter_mut().zip(group) {
                let (from, to) = ends(query);
                let (u, t) = (self.index(from)?, self.index(to)?);
                *place = self.table.locate(u, self.table.column[t] as usize).unwrap_or((0, 0, 0));
                crate::prefetch::prefetch(&self.table.words[place.0]);
            }
            for (&(word, shift, mask), &query) in found.iter().zip(group) {
                let (from, to) = ends(query);
                let entry = (mask != 0).then(|| (self.table.words[word] >> shift) & mask);
                out.push(pick(from as usize, to as usize, entry, query));
            }
        }
        Ok(())
    }

    /// The neighbour of `u` at the lowest slot set in `entry` (not zero).
    fn slot_neighbor(&self, u: usize, entry: u64) -> NodeId {
        self.table.neighbors[self.table.rows[u].first as usize + entry.trailing_zeros() as usize]
    }

    /// Every optimal next hop from `from` toward `to`, in increasing id order: exactly the
    /// neighbours `v` with `d(v, to) = d(from, to) − 1`. Empty when `from == to` or `to` is
    /// unreachable.
    ///
    /// # Panics
    /// If either id is out of range; see [`Graph::try_neighbors_to`].
    ///
    /// # Complexity
    /// O(1) to create, O(1) per item.
    ///
    /// ```
    /// // A 4-cycle: from 0, both 1 and 3 lead to 2.
    /// let mut b = signposts::Graph::builder(4);
    /// b.connect(0, 1).connect(1, 2).connect(2, 3).connect(3, 0);
    /// assert_eq!(b.build().neighbors_to(0, 2).collect::<Vec<_>>(), [1, 3]);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn neighbors_to(&self, from: NodeId, to: NodeId) -> NeighborsTo<'_> {
        let (u, t) = (self.expect_index(from), self.expect_index(to));
        self.hops(u, t)
    }

    /// [`Graph::neighbors_to`] with an error for out-of-range ids.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    ///
    /// ```
    /// let g = signposts::Graph::builder(2).build();
    /// assert!(g.try_neighbors_to(0, 2).is_err());
    /// ```
    pub fn try_neighbors_to(&self, from: NodeId, to: NodeId) -> Result<NeighborsTo<'_>, Error> {
        let (u, t) = (self.index(from)?, self.index(to)?);
        Ok(self.hops(u, t))
    }

    fn hops(&self, u: usize, t: usize) -> NeighborsTo<'_> {
        NeighborsTo { slots: Slots::new(self.table.entry_to(u, t)), neighbors: self.table.neighbors(u) }
    }

    /// The nodes of one shortest path from `from` to `to`, both included; `[from]` when
    /// `from == to`, empty when `to` is unreachable. Each step is [`Graph::neighbor_to`].
    ///
    /// # Panics
    /// If either id is out of range; see [`Graph::try_path_to`].
    ///
    /// # Complexity
    /// O(1) per node.
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(4);
    /// b.connect(0, 1).connect(1, 2);
    /// let g = b.build();
    /// assert_eq!(g.path_to(0, 2).collect::<Vec<_>>(), [0, 1, 2]);
    /// assert_eq!(g.path_to(1, 1).collect::<Vec<_>>(), [1]);
    /// assert_eq!(g.path_to(0, 3).count(), 0);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn path_to(&self, from: NodeId, to: NodeId) -> PathTo<'_> {
        let (u, t) = (self.expect_index(from), self.expect_index(to));
        self.path(u, t)
    }

    /// [`Graph::path_to`] with an error for out-of-range ids.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    ///
    /// ```
    /// let g = signposts::Graph::builder(2).build();
    /// assert!(g.try_path_to(9, 0).is_err());
    /// ```
    pub fn try_path_to(&self, from: NodeId, to: NodeId) -> Result<PathTo<'_>, Error> {
        let (u, t) = (self.index(from)?, self.index(to)?);
        Ok(self.path(u, t))
    }

    fn path(&self, u: usize, t: usize) -> PathTo<'_> {
        let reachable = u == t || self.next_hop(u, t).is_some();
        PathTo { graph: self, next: reachable.then_some(u as NodeId), to: t, left: self.table.rows.len() }
    }

    /// The exact cost of a shortest path, or `None` when `to` is unreachable: the number of
    /// edges on an unweighted graph, the sum of arc costs on a weighted one, straight and
    /// diagonal (√2) steps counted apart on an octile grid's graph ([`Cost::value`] gives
    /// it as `f64`).
    ///
    /// # Panics
    /// If either id is out of range; see [`Graph::try_cost`].
    ///
    /// # Complexity
    /// O(d): walks the path (the table stores moves, not distances).
    ///
    /// ```
    /// use signposts::Cost;
    /// let mut b = signposts::Graph::builder(4);
    /// b.connect(0, 1).connect(1, 2);
    /// let g = b.build();
    /// assert_eq!(g.cost(0, 2), Some(Cost::integer(2)));
    /// assert_eq!(g.cost(0, 0), Some(Cost::ZERO));
    /// assert_eq!(g.cost(0, 3), None);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn cost(&self, from: NodeId, to: NodeId) -> Option<Cost> {
        let (u, t) = (self.expect_index(from), self.expect_index(to));
        self.walk_cost(u, t)
    }

    /// [`Graph::cost`] with an error for out-of-range ids.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    ///
    /// ```
    /// let g = signposts::Graph::builder(2).build();
    /// assert_eq!(g.try_cost(0, 1), Ok(None));
    /// ```
    pub fn try_cost(&self, from: NodeId, to: NodeId) -> Result<Option<Cost>, Error> {
        let (u, t) = (self.index(from)?, self.index(to)?);
        Ok(self.walk_cost(u, t))
    }

    /// The exact cost of the path [`Graph::path_to`] walks: for grids with diagonal moves,
    /// straight and diagonal steps are counted apart.
    pub(crate) fn walk_cost(&self, u: usize, t: usize) -> Option<Cost> {
        let mut total = Cost::ZERO;
        let mut at = u;
        // A shortest path has fewer steps than nodes; the bound only matters for a loaded
        // file whose checksum holds but whose moves go round in a circle.
        for _ in 0..self.table.rows.len() {
            if at == t {
                return Some(total);
            }
            let slot = self.table.entry_to(at, t).first()?;
            let arc = self.table.rows[at].first as usize + slot;
            total = total + self.model.cost(self.arc_cost(arc));
            at = self.table.neighbors[arc] as usize;
        }
        (at == t).then_some(total)
    }

    /// Whether `to` can be reached from `from` (always true when `from == to`).
    ///
    /// # Panics
    /// If either id is out of range; see [`Graph::try_path_exists`].
    ///
    /// # Complexity
    /// O(1).
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(3);
    /// b.connect(0, 1);
    /// let g = b.build();
    /// assert!(g.path_exists(1, 0) && g.path_exists(2, 2) && !g.path_exists(1, 2));
    /// ```
    #[must_use]
    #[track_caller]
    pub fn path_exists(&self, from: NodeId, to: NodeId) -> bool {
        let (u, t) = (self.expect_index(from), self.expect_index(to));
        self.reaches(u, t)
    }

    /// [`Graph::path_exists`] with an error for out-of-range ids.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    ///
    /// ```
    /// let g = signposts::Graph::builder(4).build();
    /// assert!(g.try_path_exists(1, 1000).is_err());
    /// ```
    pub fn try_path_exists(&self, from: NodeId, to: NodeId) -> Result<bool, Error> {
        let (u, t) = (self.index(from)?, self.index(to)?);
        Ok(self.reaches(u, t))
    }

    fn reaches(&self, u: usize, t: usize) -> bool {
        if self.directed {
            u == t || !self.table.entry_to(u, t).is_empty()
        } else {
            self.component[u] == self.component[t]
        }
    }

    /// The neighbours of `from` strictly farther from `to` than `from` is, in increasing id
    /// order: where to flee. Empty when `to` is unreachable from `from`; on a directed graph a
    /// neighbour from which `to` cannot be reached at all counts as farther.
    ///
    /// On an unweighted undirected graph a neighbour `v` is farther exactly when `from` is an
    /// optimal move from `v` toward `to`, so this needs no extra storage and no walking.
    ///
    /// # Panics
    /// If either id is out of range; see [`Graph::try_neighbors_away`].
    ///
    /// # Complexity
    /// O(deg(from) · log deg) to exhaust on unweighted undirected graphs; O(deg(from) · d)
    /// otherwise (each neighbour's distance is walked).
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(4);
    /// b.connect(0, 1).connect(1, 2).connect(1, 3).connect(2, 3);
    /// let g = b.build();
    /// // From 1, fleeing 0: both 2 and 3 are farther.
    /// assert_eq!(g.neighbors_away(1, 0).collect::<Vec<_>>(), [2, 3]);
    /// // From 2, fleeing 0: 3 is as close as 2, so it is not "away".
    /// assert_eq!(g.neighbors_away(2, 0).count(), 0);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn neighbors_away(&self, from: NodeId, to: NodeId) -> NeighborsAway<'_> {
        let (u, t) = (self.expect_index(from), self.expect_index(to));
        self.away(u, t)
    }

    /// [`Graph::neighbors_away`] with an error for out-of-range ids.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    ///
    /// ```
    /// let g = signposts::Graph::builder(2).build();
    /// assert!(g.try_neighbors_away(0, 5).is_err());
    /// ```
    pub fn try_neighbors_away(&self, from: NodeId, to: NodeId) -> Result<NeighborsAway<'_>, Error> {
        let (u, t) = (self.index(from)?, self.index(to)?);
        Ok(self.away(u, t))
    }

    fn away(&self, u: usize, t: usize) -> NeighborsAway<'_> {
        let rest = self.table.neighbors(u);
        let from = u as NodeId;
        if !self.directed && self.costs.is_empty() {
            return NeighborsAway { graph: self, from, to: t, here: None, rest };
        }
        match self.walk_cost(u, t) {
            Some(here) => NeighborsAway { graph: self, from, to: t, here: Some(here), rest },
            None => NeighborsAway { graph: self, from, to: t, here: None, rest: &[] },
        }
    }

    /// Whether `from` is an optimal move from `v` toward `t` (`from` must neighbour `v`).
    fn leads_through(&self, v: usize, from: NodeId, t: usize) -> bool {
        let Ok(slot) = self.table.neighbors(v).binary_search(&from) else { return false };
        self.table.entry_to(v, t).contains(slot)
    }
}

#[cold]
pub(super) fn out_of_range(node: NodeId, nodes: usize) -> Error {
    Error::NodeOutOfRange { node, nodes }
}

/// Iterator over every optimal next hop; see [`Graph::neighbors_to`].
#[derive(Debug, Clone)]
pub struct NeighborsTo<'a> {
    slots: Slots<'a>,
    neighbors: &'a [NodeId],
}

impl Iterator for NeighborsTo<'_> {
    type Item = NodeId;

    #[inline]
    fn next(&mut self) -> Option<NodeId> {
        self.slots.next().map(|slot| self.neighbors[slot])
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.slots.size_hint()
    }
}

impl ExactSizeIterator for NeighborsTo<'_> {}
impl core::iter::FusedIterator for NeighborsTo<'_> {}

/// Iterator over the nodes of a shortest path; see [`Graph::path_to`].
#[derive(Debug, Clone)]
pub struct PathTo<'a> {
    graph: &'a Graph,
    next: Option<NodeId>,
    to: usize,
    /// Nodes still allowed: a path visits each node at most once.
    left: usize,
}

impl Iterator for PathTo<'_> {
    type Item = NodeId;

    #[inline]
    fn next(&mut self) -> Option<NodeId> {
        let node = self.next?;
        self.left = self.left.checked_sub(1)?;
        self.next = if node as usize == self.to { None } else { self.graph.next_hop(node as usize, self.to) };
        Some(node)
    }
}

impl core::iter::FusedIterator for PathTo<'_> {}

/// Iterator over the neighbours farther from a target; see [`Graph::neighbors_away`].
#[derive(Debug, Clone)]
pub struct NeighborsAway<'a> {
    graph: &'a Graph,
    from: NodeId,
    to: usize,
    /// The distance from `from`, when neighbours are compared by walking.
    here: Option<Cost>,
    rest: &'a [NodeId],
}

impl Iterator for NeighborsAway<'_> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        while let Some((&v, rest)) = self.rest.split_first() {
            self.rest = rest;
            let farther = match self.here {
                None => self.graph.leads_through(v as usize, self.from, self.to),
                Some(here) => self.graph.walk_cost(v as usize, self.to).is_none_or(|there| there > here),
            };
            if farther {
                return Some(v);
            }
        }
        None
    }
}

impl core::iter::FusedIterator for NeighborsAway<'_> {}
