//! [`Graph`]: the dense first-move oracle: one entry per (node, target), a bitmask of the
//! node's optimal moves. Built in `build`, queried in `query`, saved and opened in `io`
//! (the file format itself is [`format`](crate::format)), laid out in `table`.

mod build;
mod io;
mod query;
pub(crate) mod table;

use query::out_of_range;
pub use query::{NeighborsAway, NeighborsTo, PathTo};

use crate::builder::CostModel;
use crate::dense::table::Table;
use crate::error::{Error, panic_with};
use crate::{GraphBuilder, NodeId};

/// An undirected, unweighted graph with every shortest-path first move precomputed.
///
/// Built by [`GraphBuilder`]. Read-only, `Send + Sync`: share one `&Graph` between every entity
/// and thread. Every query is exact on every graph (odd cycles, disconnected parts included):
/// `v` is an answer of [`Graph::neighbors_to`]`(u, t)` exactly when `v` is a neighbour of `u`
/// and `d(v, t) = d(u, t) − 1`.
///
/// Ids out of range panic in the plain methods (each documents it under `# Panics`) and return
/// [`Error::NodeOutOfRange`] in the `try_` twins.
///
/// # Example
/// ```
/// use signposts::Graph;
///
/// // A triangle: from 0, node 2 is one step away; 1 is not on the way.
/// let mut builder = Graph::builder(3);
/// builder.connect(0, 1).connect(1, 2).connect(0, 2);
/// let graph = builder.build();
/// assert_eq!(graph.neighbor_to(0, 2), Some(2));
/// assert_eq!(graph.path_to(0, 2).collect::<Vec<_>>(), [0, 2]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    pub(crate) table: Table,
    pub(crate) component: Vec<u32>,
    pub(crate) components: u32,
    /// Stored cost per arc (table slot order); empty when every arc costs 1.
    pub(crate) costs: Vec<u32>,
    pub(crate) model: CostModel,
    pub(crate) directed: bool,
    pub(crate) edges: usize,
    /// The degree every row has room for (see [`GraphBuilder::reserve_degree`]).
    pub(crate) reserve: u32,
    /// The saved file the table's words are read from in place, if opened so.
    pub(crate) origin: crate::buf::Origin,
    /// How long the build took, when built in this process: what a repair is weighed against.
    pub(crate) build_time: crate::dynamic::clock::BuildTime,
}

impl Graph {
    /// A [`GraphBuilder`] for `nodes` isolated nodes.
    ///
    /// # Panics
    /// If `nodes` is above [`MAX_NODES`](crate::MAX_NODES).
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(2);
    /// b.connect(0, 1);
    /// assert_eq!(b.build().edges_len(), 1);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn builder(nodes: usize) -> GraphBuilder {
        GraphBuilder::new(nodes)
    }

    pub(crate) fn from_parts(
        table: Table,
        component: Vec<u32>,
        components: u32,
        costs: Vec<u32>,
        model: CostModel,
        directed: bool,
        edges: usize,
    ) -> Self {
        Graph {
            table,
            component,
            components,
            costs,
            model,
            directed,
            edges,
            reserve: 0,
            origin: crate::buf::Origin::default(),
            build_time: crate::dynamic::clock::BuildTime::default(),
        }
    }

    /// Whether the graph has one-way arcs (or different costs each way).
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(2);
    /// b.connect_directed(0, 1);
    /// assert!(b.build().is_directed());
    /// ```
    #[must_use]
    pub fn is_directed(&self) -> bool {
        self.directed
    }

    /// Whether some arc costs more than 1.
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(2);
    /// b.connect(0, 1);
    /// assert!(!b.build().is_weighted());
    /// ```
    #[must_use]
    pub fn is_weighted(&self) -> bool {
        !self.costs.is_empty() && (self.model != CostModel::Integer || self.costs.iter().any(|&c| c != 1))
    }

    /// The stored cost of arc slot `arc` (table slot order).
    #[inline]
    pub(crate) fn arc_cost(&self, arc: usize) -> u32 {
        self.costs.get(arc).copied().unwrap_or(1)
    }

    /// Bytes besides the table words for a graph of `nodes` nodes and `arcs` arcs.
    pub(crate) fn overhead_bytes(nodes: usize, arcs: usize) -> u64 {
        let per_node = size_of::<crate::dense::table::NodeRow>() + 3 * size_of::<u32>();
        (nodes * per_node + arcs * size_of::<NodeId>()) as u64
    }

    /// Turns the graph back into a builder with the same nodes and edges, to edit and rebuild.
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(3);
    /// b.connect(0, 1);
    /// let mut b = b.build().into_builder();
    /// b.connect(1, 2);
    /// assert_eq!(b.build().cost(0, 2), Some(signposts::Cost::integer(2)));
    /// ```
    #[must_use]
    pub fn into_builder(self) -> GraphBuilder {
        let adjacency = (0..self.nodes_len()).map(|u| self.table.neighbors(u).to_vec()).collect();
        let costs = (0..self.nodes_len())
            .map(|u| self.table.rows[u].slots().map(|a| self.arc_cost(a)).collect())
            .collect();
        GraphBuilder::from_parts(adjacency, costs, self.model)
    }

    /// Number of nodes.
    ///
    /// ```
    /// assert_eq!(signposts::Graph::builder(4).build().nodes_len(), 4);
    /// ```
    #[must_use]
    #[inline]
    pub fn nodes_len(&self) -> usize {
        self.table.rows.len()
    }

    /// Number of undirected edges.
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(3);
    /// b.connect(0, 1).connect(1, 2);
    /// assert_eq!(b.build().edges_len(), 2);
    /// ```
    #[must_use]
    pub fn edges_len(&self) -> usize {
        self.edges
    }

    /// Number of connected components.
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(4);
    /// b.connect(0, 1);
    /// assert_eq!(b.build().components_len(), 3);
    /// ```
    #[must_use]
    pub fn components_len(&self) -> usize {
        self.components as usize
    }

    /// Bytes held by the graph, exactly what [`GraphBuilder::memory_needed`] computed before
    /// the build: the table plus the structure it indexes.
    ///
    /// - The table: `Σ_u width(u)` words per 64 target columns, `⌈n / 64⌉` of them, where
    ///   `width(u)` is `u`'s degree (or the [`reserve_degree`](GraphBuilder::reserve_degree)
    ///   if larger) rounded up to a power of two bits; so `n · Σ_u width(u)` bits with the
    ///   columns padded to a multiple of 64.
    /// - 28 bytes per node (its row record, column, column order and component) and 4 per arc
    ///   (two arcs per edge), plus 4 more per arc for the costs of a weighted or directed graph.
    ///
    /// Build scratch (freed when the build returns) is not counted. A
    /// [`GridOracle`](crate::grid::GridOracle) adds its maps between cells and nodes (see
    /// [`GridOracle::memory_needed`](crate::grid::GridOracle::memory_needed)).
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(64);
    /// for i in 1..64 { b.connect(i - 1, i); }
    /// let graph = b.build();
    /// // 62 inner nodes of degree 2 (2 bits per target), 2 ends of degree 1 (1 bit).
    /// let table = (62 * 64 * 2 + 2 * 64) / 8;
    /// assert_eq!(graph.memory_bytes(), table + 64 * 28 + 126 * 4);
    /// ```
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.table.memory_bytes()
            + self.component.len() * size_of::<u32>()
            + self.costs.len() * size_of::<u32>()
    }

    #[inline]
    pub(crate) fn index(&self, node: NodeId) -> Result<usize, Error> {
        let nodes = self.nodes_len();
        if (node as usize) < nodes { Ok(node as usize) } else { Err(out_of_range(node, nodes)) }
    }

    #[inline]
    #[track_caller]
    fn expect_index(&self, node: NodeId) -> usize {
        match self.index(node) {
            Ok(u) => u,
            Err(e) => panic_with(&e),
        }
    }

    /// Neighbours of `node`, sorted by id.
    ///
    /// # Panics
    /// If `node` is out of range; see [`Graph::try_neighbors`].
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(3);
    /// b.connect(2, 0).connect(2, 1);
    /// assert_eq!(b.build().neighbors(2), [0, 1]);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn neighbors(&self, node: NodeId) -> &[NodeId] {
        self.table.neighbors(self.expect_index(node))
    }

    /// Neighbours of `node`, or an error for an out-of-range id.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`].
    ///
    /// ```
    /// assert!(signposts::Graph::builder(1).build().try_neighbors(1).is_err());
    /// ```
    pub fn try_neighbors(&self, node: NodeId) -> Result<&[NodeId], Error> {
        Ok(self.table.neighbors(self.index(node)?))
    }

    /// The component id of `node`, numbered `0..components_len()` in order of each
    /// component's lowest node.
    ///
    /// # Panics
    /// If `node` is out of range; see [`Graph::try_component`].
    ///
    /// ```
    /// let mut b = signposts::Graph::builder(4);
    /// b.connect(0, 3);
    /// let g = b.build();
    /// assert_eq!([g.component(0), g.component(1), g.component(2), g.component(3)], [0, 1, 2, 0]);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn component(&self, node: NodeId) -> u32 {
        self.component[self.expect_index(node)]
    }

    /// The component id of `node`, or an error for an out-of-range id.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`].
    ///
    /// ```
    /// assert_eq!(signposts::Graph::builder(1).build().try_component(0), Ok(0));
    /// ```
    pub fn try_component(&self, node: NodeId) -> Result<u32, Error> {
        Ok(self.component[self.index(node)?])
    }
}
