//! [`GraphBuilder`]: collect edges, then build a [`Graph`].

use crate::dense::table::Layout;
use crate::error::{Error, panic_with};
use crate::{Cost, Graph, NodeId};

/// The GPU context a build may run on: none can exist without the `gpu` feature.
#[cfg(feature = "gpu")]
pub(crate) type Gpu = crate::gpu::GpuContext;
/// The GPU context a build may run on: none can exist without the `gpu` feature.
#[cfg(not(feature = "gpu"))]
pub(crate) type Gpu = core::convert::Infallible;

/// The largest node count a [`Graph`] supports: ids are `u32` and `u32::MAX` is reserved.
pub const MAX_NODES: usize = u32::MAX as usize;

/// Collects the nodes and arcs of a graph, then builds its first-move oracle.
///
/// Edges are undirected ([`connect`](GraphBuilder::connect)) or one-way
/// ([`connect_directed`](GraphBuilder::connect_directed)), with cost 1 or an integer cost
/// ([`connect_weighted`](GraphBuilder::connect_weighted)). Edits are cheap and idempotent:
/// connecting twice keeps one arc (with the last cost), a self-loop is ignored (it is never on
/// a shortest path), disconnecting a missing edge does nothing.
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
/// assert_eq!(graph.cost(1, 4), Some(signposts::Cost::integer(3)));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GraphBuilder {
    /// Out-arcs per node: sorted, duplicate-free heads. The builder is not on any hot path;
    /// per-node lists keep `connect`/`disconnect` at O(degree).
    pub(crate) adjacency: Vec<Vec<NodeId>>,
    /// The cost of each out-arc, parallel to `adjacency`.
    pub(crate) costs: Vec<Vec<u32>>,
    /// How arc costs read: integers, or octile steps (1 straight, 2 diagonal).
    pub(crate) model: CostModel,
    /// Every row gets room for at least this many neighbours (for later edits).
    pub(crate) reserve_degree: u32,
}

/// How a graph's arc costs are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum CostModel {
    /// Each arc costs its integer.
    #[default]
    Integer,
    /// Cost 1 is a straight grid step, 2 a diagonal one (√2).
    Octile,
}

impl CostModel {
    /// The exact cost of an arc of stored cost `cost`.
    #[inline]
    pub(crate) fn cost(self, cost: u32) -> Cost {
        match self {
            CostModel::Integer => Cost::integer(u64::from(cost)),
            CostModel::Octile if cost == 2 => Cost { straight: 0, diagonal: 1 },
            CostModel::Octile => Cost { straight: 1, diagonal: 0 },
        }
    }
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

    /// A builder for `nodes` isolated nodes, or an error naming what is too large.
    ///
    /// The builder itself takes [`GraphBuilder::BYTES_PER_NODE`] bytes per node before any
    /// edge; that memory is checked and asked of the allocator fallibly, so a count the machine
    /// cannot hold is an error, never an out-of-memory abort.
    ///
    /// # Errors
    /// [`Error::TooManyNodes`] when `nodes > MAX_NODES`; [`Error::AllocationFailed`] naming
    /// the bytes when the allocator refuses the per-node lists.
    ///
    /// # Example
    /// ```
    /// assert!(signposts::GraphBuilder::try_new(10).is_ok());
    /// ```
    pub fn try_new(nodes: usize) -> Result<Self, Error> {
        let mut builder = GraphBuilder {
            adjacency: Vec::new(),
            costs: Vec::new(),
            model: CostModel::Integer,
            reserve_degree: 0,
        };
        builder.try_resize(nodes)?;
        Ok(builder)
    }

    /// Bytes the builder holds per node before any edge: its (empty) neighbour and cost lists.
    pub const BYTES_PER_NODE: usize = size_of::<Vec<NodeId>>() + size_of::<Vec<u32>>();

    /// Number of nodes.
    ///
    /// ```
    /// assert_eq!(signposts::GraphBuilder::new(7).nodes_len(), 7);
    /// ```
    #[must_use]
    pub fn nodes_len(&self) -> usize {
        self.adjacency.len()
    }

    /// Number of edges: node pairs joined by an arc either way (an undirected edge counts once,
    /// as does a one-way arc).
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(3);
    /// b.connect(0, 1).connect(1, 0).connect_directed(1, 2);
    /// assert_eq!(b.edges_len(), 2);
    /// ```
    #[must_use]
    pub fn edges_len(&self) -> usize {
        count_edges(&self.adjacency)
    }

    /// Number of arcs: two per undirected edge, one per one-way arc.
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(3);
    /// b.connect(0, 1).connect_directed(1, 2);
    /// assert_eq!(b.arcs_len(), 3);
    /// ```
    #[must_use]
    pub fn arcs_len(&self) -> usize {
        self.adjacency.iter().map(Vec::len).sum()
    }

    /// Whether some arc has no reverse arc of the same cost: the graph is built as directed.
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(2);
    /// b.connect(0, 1);
    /// assert!(!b.is_directed());
    /// b.connect_directed_weighted(0, 1, 5);
    /// assert!(b.is_directed());
    /// ```
    #[must_use]
    pub fn is_directed(&self) -> bool {
        (0..self.nodes_len()).any(|a| {
            self.adjacency[a]
                .iter()
                .zip(&self.costs[a])
                .any(|(&b, &c)| self.arc_cost(b as usize, a as NodeId) != Some(c))
        })
    }

    /// Whether some arc costs more than 1.
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(2);
    /// b.connect_weighted(0, 1, 3);
    /// assert!(b.is_weighted());
    /// ```
    #[must_use]
    pub fn is_weighted(&self) -> bool {
        self.model != CostModel::Integer || self.costs.iter().flatten().any(|&c| c != 1)
    }

    /// The cost of the arc `a → b`, if present (out-of-range ids have none).
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(3);
    /// b.connect_weighted(0, 1, 7).connect_directed(1, 2);
    /// assert_eq!((b.cost(1, 0), b.cost(1, 2), b.cost(2, 1)), (Some(7), Some(1), None));
    /// ```
    #[must_use]
    pub fn cost(&self, a: NodeId, b: NodeId) -> Option<u32> {
        self.arc_cost(a as usize, b)
    }

    fn arc_cost(&self, a: usize, b: NodeId) -> Option<u32> {
        let list = self.adjacency.get(a)?;
        list.binary_search(&b).ok().map(|i| self.costs[a][i])
    }

    /// Out-neighbours of `node` (the heads of its arcs), sorted by id.
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

    /// Whether the arc `a → b` is present (false for out-of-range ids).
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
        self.try_connect_weighted(a, b, 1)
    }

    /// Adds the undirected edge `a`–`b` with cost `cost` both ways (replacing a previous cost).
    ///
    /// # Panics
    /// If an id is out of range or `cost` is 0; [`GraphBuilder::try_connect_weighted`] returns
    /// an error instead.
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(3);
    /// b.connect_weighted(0, 1, 5).connect(1, 2).connect_weighted(0, 2, 9);
    /// let g = b.build();
    /// assert_eq!(g.path_to(0, 2).collect::<Vec<_>>(), [0, 1, 2]); // 5 + 1 < 9
    /// assert_eq!(g.cost(0, 2), Some(signposts::Cost::integer(6)));
    /// ```
    #[track_caller]
    pub fn connect_weighted(&mut self, a: NodeId, b: NodeId, cost: u32) -> &mut Self {
        self.try_connect_weighted(a, b, cost).unwrap_or_else(|e| panic_with(&e))
    }

    /// [`GraphBuilder::connect_weighted`], or an error without changing anything.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id; [`Error::ZeroCost`] for cost 0.
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(2);
    /// assert!(b.try_connect_weighted(0, 1, 0).is_err());
    /// ```
    pub fn try_connect_weighted(&mut self, a: NodeId, b: NodeId, cost: u32) -> Result<&mut Self, Error> {
        self.try_connect_directed_weighted(b, a, cost)?;
        self.try_connect_directed_weighted(a, b, cost)
    }

    /// Adds the one-way arc `a → b` with cost 1 (a one-way passage: `b` is reached from `a`,
    /// not the other way).
    ///
    /// # Panics
    /// If an id is out of range; see [`GraphBuilder::try_connect_directed_weighted`].
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(3);
    /// b.connect_directed(0, 1).connect(1, 2).connect(2, 0);
    /// let g = b.build();
    /// assert_eq!(g.path_to(0, 2).collect::<Vec<_>>(), [0, 2]);
    /// assert_eq!(g.path_to(1, 0).collect::<Vec<_>>(), [1, 2, 0]); // 1 → 0 is not allowed
    /// ```
    #[track_caller]
    pub fn connect_directed(&mut self, a: NodeId, b: NodeId) -> &mut Self {
        self.try_connect_directed_weighted(a, b, 1).unwrap_or_else(|e| panic_with(&e))
    }

    /// Adds the one-way arc `a → b` with cost `cost` (replacing a previous cost).
    ///
    /// # Panics
    /// If an id is out of range or `cost` is 0; see
    /// [`GraphBuilder::try_connect_directed_weighted`].
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(2);
    /// b.connect_directed_weighted(0, 1, 4);
    /// assert_eq!(b.build().cost(0, 1), Some(signposts::Cost::integer(4)));
    /// ```
    #[track_caller]
    pub fn connect_directed_weighted(&mut self, a: NodeId, b: NodeId, cost: u32) -> &mut Self {
        self.try_connect_directed_weighted(a, b, cost).unwrap_or_else(|e| panic_with(&e))
    }

    /// Adds the arc `a → b` with cost `cost`, or an error without changing anything.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id; [`Error::ZeroCost`] for cost 0 (a
    /// free arc would let paths cycle at no cost).
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(2);
    /// assert!(b.try_connect_directed_weighted(0, 9, 1).is_err());
    /// assert!(b.try_connect_directed_weighted(0, 1, 0).is_err());
    /// ```
    pub fn try_connect_directed_weighted(
        &mut self,
        a: NodeId,
        b: NodeId,
        cost: u32,
    ) -> Result<&mut Self, Error> {
        let (ua, _) = (self.check(a)?, self.check(b)?);
        if cost == 0 {
            return Err(Error::ZeroCost { from: a, to: b });
        }
        if a != b {
            match self.adjacency[ua].binary_search(&b) {
                Ok(i) => self.costs[ua][i] = cost,
                Err(i) => {
                    self.adjacency[ua].insert(i, b);
                    self.costs[ua].insert(i, cost);
                }
            }
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
        self.try_disconnect_directed(b, a)?;
        self.try_disconnect_directed(a, b)
    }

    /// Removes the arc `a → b` only, if present.
    ///
    /// # Panics
    /// If an id is out of range; see [`GraphBuilder::try_disconnect_directed`].
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(2);
    /// b.connect(0, 1).disconnect_directed(1, 0);
    /// assert!(b.contains_edge(0, 1) && !b.contains_edge(1, 0));
    /// ```
    #[track_caller]
    pub fn disconnect_directed(&mut self, a: NodeId, b: NodeId) -> &mut Self {
        self.try_disconnect_directed(a, b).unwrap_or_else(|e| panic_with(&e))
    }

    /// Removes the arc `a → b` if present, or reports an out-of-range id.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    ///
    /// ```
    /// assert!(signposts::GraphBuilder::new(2).try_disconnect_directed(0, 2).is_err());
    /// ```
    pub fn try_disconnect_directed(&mut self, a: NodeId, b: NodeId) -> Result<&mut Self, Error> {
        let (ua, _) = (self.check(a)?, self.check(b)?);
        if let Ok(i) = self.adjacency[ua].binary_search(&b) {
            self.adjacency[ua].remove(i);
            self.costs[ua].remove(i);
        }
        Ok(self)
    }

    /// Sets the node count. Growing adds isolated nodes; shrinking drops the removed nodes and
    /// every edge touching them.
    ///
    /// # Panics
    /// If `nodes` is above [`MAX_NODES`] or the allocator refuses the new nodes' lists (with
    /// the message of [`GraphBuilder::try_resize`]'s error, not an out-of-memory abort).
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
        self.try_resize(nodes).unwrap_or_else(|e| panic_with(&e))
    }

    /// [`GraphBuilder::resize`], or an error without changing anything.
    ///
    /// Growing asks the allocator, fallibly, for [`GraphBuilder::BYTES_PER_NODE`] bytes per
    /// node of the new size (the lists are moved into the new allocation).
    ///
    /// # Errors
    /// [`Error::TooManyNodes`] when `nodes > MAX_NODES`; [`Error::AllocationFailed`] naming
    /// the bytes the new nodes' lists need when the allocator refuses them.
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(2);
    /// assert!(b.try_resize(usize::MAX).is_err());
    /// assert_eq!(b.try_resize(5)?.nodes_len(), 5);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn try_resize(&mut self, nodes: usize) -> Result<&mut Self, Error> {
        check_node_count(nodes)?;
        if nodes > self.nodes_len() {
            // Both lists are checked and allocated before either is touched, so that a refusal
            // changes nothing; the error names the bytes of both at the new size.
            let bytes = crate::memory::checked_bytes(nodes, Self::BYTES_PER_NODE)?;
            let mut adjacency = crate::memory::try_with_capacity::<Vec<NodeId>>(nodes)
                .map_err(|_| Error::AllocationFailed { bytes: bytes as u64 })?;
            let mut costs = crate::memory::try_with_capacity::<Vec<u32>>(nodes)
                .map_err(|_| Error::AllocationFailed { bytes: bytes as u64 })?;
            adjacency.append(&mut self.adjacency);
            costs.append(&mut self.costs);
            self.adjacency = adjacency;
            self.costs = costs;
        }
        self.adjacency.resize_with(nodes, Vec::new);
        self.costs.resize_with(nodes, Vec::new);
        if let Ok(limit) = NodeId::try_from(nodes) {
            for (list, costs) in self.adjacency.iter_mut().zip(&mut self.costs) {
                let keep = list.partition_point(|&v| v < limit);
                list.truncate(keep);
                costs.truncate(keep);
            }
        }
        Ok(self)
    }

    /// Gives every node's entries room for at least `degree` neighbours, so that edits of the
    /// built graph ([`Graph::apply`]) that add neighbours repair the table in place instead of
    /// rebuilding it. Costs memory: entries are `degree` rounded up to a power of two bits.
    ///
    /// Degrees up to 2^31 are supported; above, [`GraphBuilder::memory_needed`] says
    /// `u64::MAX` and [`GraphBuilder::try_build`] returns [`Error::Unsupported`] (an entry of
    /// more than 2^31 bits cannot be stored).
    ///
    /// ```
    /// use signposts::generate::{grid, Connectivity};
    /// let mut b = grid(4, 4, Connectivity::Four);
    /// b.reserve_degree(4);
    /// let mut g = b.build();
    /// // A shortcut along the top edge: the corner gets a third neighbour, (2, 0) a fourth.
    /// let update = g.connect(0, 2);
    /// assert!(!update.rebuilt);
    /// assert_eq!(g.cost(0, 3), Some(signposts::Cost::integer(2)));
    /// ```
    pub fn reserve_degree(&mut self, degree: u32) -> &mut Self {
        self.reserve_degree = degree;
        self
    }

    /// Bytes the built [`Graph`] will hold ([`Graph::memory_bytes`]), computed without building.
    ///
    /// Saturates at `u64::MAX` (over any limit) when the size overflows or a
    /// [`reserve_degree`](GraphBuilder::reserve_degree) above 2^31 has no entry width.
    ///
    /// # Complexity
    /// O(n).
    ///
    /// ```
    /// let mut b = signposts::GraphBuilder::new(4);
    /// b.connect(0, 1).connect(1, 2).connect(2, 3);
    /// assert_eq!(b.memory_needed(), b.build().memory_bytes() as u64);
    /// b.reserve_degree(u32::MAX);
    /// assert_eq!(b.memory_needed(), u64::MAX);
    /// ```
    #[must_use]
    pub fn memory_needed(&self) -> u64 {
        let n = self.nodes_len();
        let arcs = self.adjacency.iter().map(Vec::len).sum::<usize>();
        let degrees = self.adjacency.iter().map(|l| degree(l.len()));
        let arc_costs = if self.is_weighted() || self.is_directed() { arcs as u64 * 4 } else { 0 };
        Layout::words_for(degrees.map(|d| d.max(self.reserve_degree)), n)
            .and_then(|words| words.checked_mul(8))
            .and_then(|table| table.checked_add(Graph::overhead_bytes(n, arcs) + arc_costs))
            .unwrap_or(u64::MAX)
    }

    #[inline]
    fn check(&self, node: NodeId) -> Result<usize, Error> {
        let nodes = self.nodes_len();
        if (node as usize) < nodes { Ok(node as usize) } else { Err(Error::NodeOutOfRange { node, nodes }) }
    }

    pub(crate) fn from_parts(adjacency: Vec<Vec<NodeId>>, costs: Vec<Vec<u32>>, model: CostModel) -> Self {
        GraphBuilder { adjacency, costs, model, reserve_degree: 0 }
    }

    /// The [`Graph::fingerprint`] the built graph will have: for checking that a saved table
    /// belongs to a graph rebuilt from its description (the rooms layer's loader does).
    ///
    /// ```
    /// let mut builder = signposts::Graph::builder(3);
    /// builder.connect(0, 1).connect_weighted(1, 2, 4);
    /// assert_eq!(builder.fingerprint(), builder.build().fingerprint());
    /// ```
    #[must_use]
    pub fn fingerprint(&self) -> u64 {
        crate::format::fingerprint(
            self.nodes_len(),
            self.adjacency.iter().map(|l| degree(l.len())),
            self.adjacency.iter().flatten().copied(),
            self.costs.iter().flatten().copied(),
            self.model,
        )
    }

    /// Replaces the out-arcs of `u` (sorted heads and their costs).
    pub(crate) fn replace_arcs(&mut self, u: usize, (heads, costs): (Vec<NodeId>, Vec<u32>)) {
        self.adjacency[u] = heads;
        self.costs[u] = costs;
    }

    /// The stored costs of `u`'s arcs, in neighbour order.
    pub(crate) fn costs_of(&self, u: usize) -> &[u32] {
        &self.costs[u]
    }

    /// How stored costs read.
    pub(crate) fn model(&self) -> CostModel {
        self.model
    }

    /// Reads stored costs as octile steps (1 straight, 2 diagonal): for grids.
    pub(crate) fn set_model(&mut self, model: CostModel) {
        self.model = model;
    }
}

pub(crate) fn check_node_count(nodes: usize) -> Result<(), Error> {
    if nodes > MAX_NODES { Err(Error::TooManyNodes { nodes, max: MAX_NODES }) } else { Ok(()) }
}

/// A neighbour-list length as a degree. Lists hold distinct ids below `u32::MAX`, so they fit.
pub(crate) fn degree(len: usize) -> u32 {
    u32::try_from(len).expect("a node has fewer than u32::MAX distinct neighbours")
}

pub(crate) fn arc_index(arcs: usize) -> Result<u32, Error> {
    u32::try_from(arcs).map_err(|_| Error::TooManyArcs { arcs, max: u32::MAX as usize })
}

/// Node pairs joined by an arc either way.
pub(crate) fn count_edges(adjacency: &[Vec<NodeId>]) -> usize {
    adjacency
        .iter()
        .enumerate()
        .map(|(a, list)| {
            let a = a as NodeId;
            list.iter().filter(|&&b| a < b || adjacency[b as usize].binary_search(&a).is_err()).count()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dense::table::MAX_ENTRY_DEGREE;

    #[test]
    fn try_new_of_max_nodes_is_an_allocation_error_not_an_abort() {
        let bytes = (MAX_NODES * GraphBuilder::BYTES_PER_NODE) as u64;
        assert_eq!(GraphBuilder::try_new(MAX_NODES).unwrap_err(), Error::AllocationFailed { bytes });
        assert_eq!(
            GraphBuilder::try_new(MAX_NODES + 1).unwrap_err(),
            Error::TooManyNodes { nodes: MAX_NODES + 1, max: MAX_NODES }
        );
    }

    #[test]
    fn try_resize_past_memory_is_an_error_and_changes_nothing() {
        let mut b = GraphBuilder::new(3);
        b.connect(0, 1).connect(1, 2);
        let bytes = ((1u64 << 31) * GraphBuilder::BYTES_PER_NODE as u64, 3, 2);
        let err = b.try_resize(1 << 31).unwrap_err();
        assert_eq!(
            (err, b.nodes_len(), b.edges_len()),
            (Error::AllocationFailed { bytes: bytes.0 }, bytes.1, bytes.2)
        );
        assert_eq!(b.try_resize(4).unwrap().nodes_len(), 4);
    }

    #[test]
    fn reserve_degree_above_2_pow_31_is_refused_instead_of_panicking_in_a_build_thread() {
        for degree in [MAX_ENTRY_DEGREE + 1, u32::MAX] {
            let mut b = crate::generate::grid(3, 3, crate::generate::Connectivity::Four);
            b.reserve_degree(degree);
            assert_eq!(b.memory_needed(), u64::MAX, "degree {degree}");
            assert!(matches!(b.try_build(), Err(Error::Unsupported { .. })), "degree {degree}");
            let limited = crate::BuildOptions::new().memory_limit(1 << 20).build(&b);
            assert!(matches!(limited, Err(Error::Unsupported { .. })), "degree {degree}");
        }
    }

    #[test]
    fn reserve_degree_of_2_pow_31_is_measured_and_held_to_the_limit() {
        let mut b = GraphBuilder::new(3);
        b.reserve_degree(MAX_ENTRY_DEGREE);
        let needed = (3u64 << 31) * 8 + Graph::overhead_bytes(3, 0);
        assert_eq!(b.memory_needed(), needed);
        let limited = crate::BuildOptions::new().memory_limit(1 << 20).build(&b);
        assert_eq!(limited.unwrap_err(), Error::OverMemoryLimit { needed, limit: 1 << 20 });
    }

    #[test]
    fn a_table_past_u64_bytes_is_refused_before_its_layout_wraps() {
        let mut b = GraphBuilder::new(1 << 20);
        b.reserve_degree(MAX_ENTRY_DEGREE);
        assert_eq!(b.memory_needed(), u64::MAX);
        assert_eq!(b.try_build().unwrap_err(), Error::AllocationFailed { bytes: u64::MAX });
    }

    #[test]
    #[should_panic(expected = "could not allocate 103079215104 bytes")]
    fn resize_past_memory_panics_with_the_bytes_instead_of_aborting() {
        GraphBuilder::new(1).resize(1 << 31);
    }
}
