//! [`GraphBuilder`]: collect edges, then build a [`Graph`].

use core::sync::atomic::{AtomicUsize, Ordering};

use crate::build::{self, Adjacency, Progress};
use crate::error::{Error, panic_with};
use crate::table::{Layout, NodeRow, Table};
use crate::{Graph, NodeId, components};

/// The largest node count a [`Graph`] supports: ids are `u32` and `u32::MAX` is reserved.
pub const MAX_NODES: usize = u32::MAX as usize;

/// Collects the nodes and undirected edges of a graph, then builds its first-move oracle.
///
/// Edits are cheap and idempotent: connecting an edge twice keeps one edge, a self-loop is
/// ignored (it is never on a shortest path), disconnecting a missing edge does nothing.
///
/// # Example
/// ```
/// use signposts::GraphBuilder;
///
/// // A square 0-1-2-3-0 with a tail 3-4.
/// let mut builder = GraphBuilder::new(5);
/// builder.connect(0, 1).connect(1, 2).connect(2, 3).connect(3, 0).connect(3, 4);
/// let graph = builder.build();
/// assert_eq!(graph.neighbor_to(1, 4), Some(0));
/// assert_eq!(graph.neighbors_to(1, 3).collect::<Vec<_>>(), [0, 2]);
/// assert_eq!(graph.distance(1, 4), Some(3));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GraphBuilder {
    /// Sorted, duplicate-free neighbour lists. The builder is not on any hot path; per-node
    /// lists keep `connect`/`disconnect` at O(degree).
    adjacency: Vec<Vec<NodeId>>,
    memory_limit: Option<u64>,
}

impl GraphBuilder {
    /// A builder for `nodes` isolated nodes with ids `0..nodes`.
    ///
    /// # Panics
    /// If `nodes` is above [`MAX_NODES`]; [`GraphBuilder::try_new`] returns an error instead.
    ///
    /// # Example
    /// ```
    /// let builder = signposts::GraphBuilder::new(3);
    /// assert_eq!(builder.nodes_len(), 3);
    /// assert_eq!(builder.edges_len(), 0);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn new(nodes: usize) -> Self {
        Self::try_new(nodes).unwrap_or_else(|e| panic_with(&e))
    }

    /// A builder for `nodes` isolated nodes, or [`Error::TooManyNodes`] above [`MAX_NODES`].
    ///
    /// # Errors
    /// [`Error::TooManyNodes`] when `nodes > MAX_NODES`.
    ///
    /// # Example
    /// ```
    /// assert!(signposts::GraphBuilder::try_new(10).is_ok());
    /// ```
    pub fn try_new(nodes: usize) -> Result<Self, Error> {
        check_node_count(nodes)?;
        Ok(GraphBuilder { adjacency: vec![Vec::new(); nodes], memory_limit: None })
    }

    /// Number of nodes.
    ///
    /// ```
    /// assert_eq!(signposts::GraphBuilder::new(7).nodes_len(), 7);
    /// ```
    #[must_use]
    pub fn nodes_len(&self) -> usize {
        self.adjacency.len()
    }

    /// Number of undirected edges.
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(3);
    /// b.connect(0, 1).connect(1, 0).connect(1, 2);
    /// assert_eq!(b.edges_len(), 2);
    /// ```
    #[must_use]
    pub fn edges_len(&self) -> usize {
        self.adjacency.iter().map(Vec::len).sum::<usize>() / 2
    }

    /// Neighbours of `node`, sorted by id.
    ///
    /// # Panics
    /// If `node` is out of range.
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(3);
    /// b.connect(1, 2).connect(1, 0);
    /// assert_eq!(b.neighbors(1), [0, 2]);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn neighbors(&self, node: NodeId) -> &[NodeId] {
        let u = self.check(node).unwrap_or_else(|e| panic_with(&e));
        &self.adjacency[u]
    }

    /// Whether the edge `a`–`b` is present (false for out-of-range ids).
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(3);
    /// b.connect(0, 2);
    /// assert!(b.contains_edge(2, 0));
    /// assert!(!b.contains_edge(0, 1));
    /// assert!(!b.contains_edge(0, 99));
    /// ```
    #[must_use]
    pub fn contains_edge(&self, a: NodeId, b: NodeId) -> bool {
        self.adjacency.get(a as usize).is_some_and(|list| list.binary_search(&b).is_ok())
    }

    /// Adds the undirected edge `a`–`b`. Idempotent; `connect(a, a)` is ignored.
    ///
    /// # Panics
    /// If `a` or `b` is out of range; [`GraphBuilder::try_connect`] returns an error instead.
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(2);
    /// b.connect(0, 1).connect(0, 1).connect(1, 1);
    /// assert_eq!(b.edges_len(), 1);
    /// ```
    #[track_caller]
    pub fn connect(&mut self, a: NodeId, b: NodeId) -> &mut Self {
        self.try_connect(a, b).unwrap_or_else(|e| panic_with(&e))
    }

    /// Adds the undirected edge `a`–`b`, or reports an out-of-range id without changing anything.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(2);
    /// assert!(b.try_connect(0, 5).is_err());
    /// assert_eq!(b.edges_len(), 0);
    /// ```
    pub fn try_connect(&mut self, a: NodeId, b: NodeId) -> Result<&mut Self, Error> {
        let (ua, ub) = (self.check(a)?, self.check(b)?);
        if a != b {
            insert_sorted(&mut self.adjacency[ua], b);
            insert_sorted(&mut self.adjacency[ub], a);
        }
        Ok(self)
    }

    /// Removes the edge `a`–`b` if present.
    ///
    /// # Panics
    /// If `a` or `b` is out of range; [`GraphBuilder::try_disconnect`] returns an error instead.
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(2);
    /// b.connect(0, 1).disconnect(1, 0);
    /// assert_eq!(b.edges_len(), 0);
    /// ```
    #[track_caller]
    pub fn disconnect(&mut self, a: NodeId, b: NodeId) -> &mut Self {
        self.try_disconnect(a, b).unwrap_or_else(|e| panic_with(&e))
    }

    /// Removes the edge `a`–`b` if present, or reports an out-of-range id.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(2);
    /// assert!(b.try_disconnect(3, 0).is_err());
    /// ```
    pub fn try_disconnect(&mut self, a: NodeId, b: NodeId) -> Result<&mut Self, Error> {
        let (ua, ub) = (self.check(a)?, self.check(b)?);
        remove_sorted(&mut self.adjacency[ua], b);
        remove_sorted(&mut self.adjacency[ub], a);
        Ok(self)
    }

    /// Sets the node count. Growing adds isolated nodes; shrinking drops the removed nodes and
    /// every edge touching them.
    ///
    /// # Panics
    /// If `nodes` is above [`MAX_NODES`].
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(3);
    /// b.connect(0, 1).connect(1, 2);
    /// b.resize(2);
    /// assert_eq!(b.edges_len(), 1);
    /// b.resize(4);
    /// assert_eq!((b.nodes_len(), b.edges_len()), (4, 1));
    /// ```
    #[track_caller]
    pub fn resize(&mut self, nodes: usize) -> &mut Self {
        check_node_count(nodes).unwrap_or_else(|e| panic_with(&e));
        self.adjacency.resize_with(nodes, Vec::new);
        if let Ok(limit) = NodeId::try_from(nodes) {
            for list in &mut self.adjacency {
                let keep = list.partition_point(|&v| v < limit);
                list.truncate(keep);
            }
        }
        self
    }

    /// Caps the bytes a build may allocate; past it [`GraphBuilder::try_build`] returns
    /// [`Error::OverMemoryLimit`] before allocating anything. No limit by default (a build
    /// that the allocator refuses still returns [`Error::AllocationFailed`]).
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(1000);
    /// b.memory_limit(1024);
    /// assert!(matches!(b.try_build(), Err(signposts::Error::OverMemoryLimit { .. })));
    /// ```
    pub fn memory_limit(&mut self, bytes: u64) -> &mut Self {
        self.memory_limit = Some(bytes);
        self
    }

    /// Bytes the built [`Graph`] will hold ([`Graph::memory_bytes`]), computed without building.
    ///
    /// # Complexity
    /// O(n).
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(4);
    /// b.connect(0, 1).connect(1, 2).connect(2, 3);
    /// assert_eq!(b.memory_needed(), b.build().memory_bytes() as u64);
    /// ```
    #[must_use]
    pub fn memory_needed(&self) -> u64 {
        let n = self.nodes_len();
        let arcs = self.adjacency.iter().map(Vec::len).sum::<usize>();
        let degrees = self.adjacency.iter().map(|l| degree(l.len()));
        let words = Layout::words_for(degrees, n);
        Graph::overhead_bytes(n, arcs) + words * 8
    }

    /// Builds the oracle.
    ///
    /// # Panics
    /// If the build is over the memory limit or the allocator refuses it;
    /// [`GraphBuilder::try_build`] returns an error instead.
    ///
    /// # Complexity
    /// Time O(n · (n + m) / 64 · D) where D is about the diameter of a 64-node ball (the
    /// batched BFS); extra space O(n + m) per thread besides the table.
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(3);
    /// b.connect(0, 1).connect(1, 2);
    /// assert_eq!(b.build().path_to(0, 2).collect::<Vec<_>>(), [0, 1, 2]);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn build(&self) -> Graph {
        self.try_build().unwrap_or_else(|e| panic_with(&e))
    }

    /// Builds the oracle, or says why it cannot (before allocating the table).
    ///
    /// # Errors
    /// [`Error::OverMemoryLimit`] past [`GraphBuilder::memory_limit`];
    /// [`Error::AllocationFailed`] when the allocator refuses the table.
    ///
    /// ```
    /// let graph = signposts::GraphBuilder::new(2).try_build()?;
    /// assert!(!graph.path_exists(0, 1));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn try_build(&self) -> Result<Graph, Error> {
        self.build_with_progress(|_| {})
    }

    /// Builds the oracle, calling `progress` as steps finish (from worker threads, in no
    /// particular order of calls; the largest `done` reported is `total`).
    ///
    /// # Errors
    /// As [`GraphBuilder::try_build`].
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// // A ring of 600 nodes: 600 targets in batches of 128.
    /// let mut b = signposts::GraphBuilder::new(600);
    /// for i in 0..600 { b.connect(i, (i + 1) % 600); }
    /// let last = AtomicUsize::new(0);
    /// let graph = b.build_with_progress(|p| { last.fetch_max(p.done, Ordering::Relaxed); })?;
    /// assert_eq!(last.into_inner(), 5);
    /// assert_eq!(graph.distance(0, 299), Some(299));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn build_with_progress(&self, progress: impl Fn(Progress) + Sync) -> Result<Graph, Error> {
        self.build_inner(&progress, None)
    }

    /// The build, with the batch width forced in tests.
    fn build_inner(
        &self,
        progress: &(dyn Fn(Progress) + Sync),
        batch: Option<usize>,
    ) -> Result<Graph, Error> {
        let n = self.nodes_len();
        let needed = self.memory_needed();
        if let Some(limit) = self.memory_limit
            && needed > limit
        {
            return Err(Error::OverMemoryLimit { needed, limit });
        }

        let mut rows = Vec::with_capacity(n);
        let mut neighbors = Vec::with_capacity(self.adjacency.iter().map(Vec::len).sum());
        for list in &self.adjacency {
            rows.push(NodeRow { word: 0, first: arc_index(neighbors.len())?, deg: degree(list.len()) });
            neighbors.extend_from_slice(list);
        }
        arc_index(neighbors.len())?;
        let layout = Layout::assign(&mut rows);
        let total_words =
            usize::try_from(layout.words()).map_err(|_| Error::AllocationFailed { bytes: needed })?;

        let words = crate::memory::zeroed_words(total_words, needed)?;

        let (component, components) = components::label(&rows, &neighbors);
        let mut peel = build::peel::peel(&rows, &neighbors);
        let batch = batch.unwrap_or_else(|| build::batch_width(peel.core_len));
        let mut order = build::order::ball_order(&rows, &neighbors, &peel.peeled, batch);
        peel.order_trees(&rows, &neighbors, &mut order);
        let mut column = vec![0u32; n];
        for (c, &node) in order.iter().enumerate() {
            column[node as usize] = u32::try_from(c).expect("column fits: n <= MAX_NODES");
        }
        let offsets: Vec<u32> =
            rows.iter().map(|r| r.first).chain(core::iter::once(arc_index(neighbors.len())?)).collect();
        let adjacency = Adjacency {
            offsets: &offsets,
            heads: &neighbors,
            in_offsets: &offsets,
            tails: &neighbors,
            component: &component,
            peeled: &peel.peeled,
        };
        let total = peel.core_len.div_ceil(batch) + usize::from(!peel.is_trivial());
        let done = AtomicUsize::new(0);
        let step = || progress(Progress { done: done.fetch_add(1, Ordering::Relaxed) + 1, total });
        build::fill_unit(adjacency, &rows, layout, &order[..peel.core_len], batch, &words, &step);
        drop(offsets);
        if !peel.is_trivial() {
            peel.fill(&rows, layout, &neighbors, &column, &component, &words);
            step();
        }

        let words = crate::memory::into_plain(words);
        let table = Table { rows, neighbors, column, order, words, layout };
        Ok(Graph::from_parts(table, component, components))
    }

    #[inline]
    fn check(&self, node: NodeId) -> Result<usize, Error> {
        let nodes = self.nodes_len();
        if (node as usize) < nodes { Ok(node as usize) } else { Err(Error::NodeOutOfRange { node, nodes }) }
    }

    pub(crate) fn from_adjacency(adjacency: Vec<Vec<NodeId>>) -> Self {
        GraphBuilder { adjacency, memory_limit: None }
    }
}

fn check_node_count(nodes: usize) -> Result<(), Error> {
    if nodes > MAX_NODES { Err(Error::TooManyNodes { nodes, max: MAX_NODES }) } else { Ok(()) }
}

/// A neighbour-list length as a degree. Lists hold distinct ids below `u32::MAX`, so they fit.
fn degree(len: usize) -> u32 {
    u32::try_from(len).expect("a node has fewer than u32::MAX distinct neighbours")
}

fn arc_index(arcs: usize) -> Result<u32, Error> {
    u32::try_from(arcs).map_err(|_| Error::TooManyArcs { arcs, max: u32::MAX as usize })
}

fn insert_sorted(list: &mut Vec<NodeId>, v: NodeId) {
    if let Err(at) = list.binary_search(&v) {
        list.insert(at, v);
    }
}

fn remove_sorted(list: &mut Vec<NodeId>, v: NodeId) {
    if let Ok(at) = list.binary_search(&v) {
        list.remove(at);
    }
}

#[cfg(test)]
mod tests {
    use crate::generate::{Connectivity, walled_grid};

    #[test]
    fn both_batch_widths_build_the_same_answers() {
        let builder = walled_grid(37, 29, 0.2, 5, Connectivity::Eight);
        let narrow = builder.build_inner(&|_| {}, Some(128)).unwrap();
        let wide = builder.build_inner(&|_| {}, Some(256)).unwrap();
        let n = u32::try_from(builder.nodes_len()).unwrap();
        for u in 0..n {
            for t in 0..n {
                assert!(narrow.neighbors_to(u, t).eq(wide.neighbors_to(u, t)), "{u} -> {t}");
            }
        }
    }
}
