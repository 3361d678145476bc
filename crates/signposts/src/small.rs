//! Fixed-capacity oracles for graphs of at most 128 nodes: no heap, `u8` ids, `Copy`.
//!
//! A [`SmallGraph<N>`] stores its adjacency as one `u128` bitset per node and, per (node,
//! target) pair, the distance and the lowest optimal next hop in a byte each: `2·N² + 17·N`
//! bytes (`Graph16`: 784 B, `Graph128`: 34.9 KiB), all inline. `neighbor_to` and `distance`
//! are one load; `neighbors_to` filters the node's neighbours by distance, O(degree).
//!
//! Use these for small rooms, menus, board-game boards and unit tests; they answer exactly
//! like [`Graph`](crate::Graph) on the same edges.

use crate::Cost;
use crate::error::{Error, panic_with};

/// Marks a missing distance or next hop.
const NONE: u8 = u8::MAX;

/// Builder of a [`SmallGraph`] with capacity `N` (at most 128) nodes.
///
/// ```
/// use signposts::Graph16Builder;
/// let mut b = Graph16Builder::new(3);
/// b.connect(0, 1).connect(1, 2);
/// let g = b.build();
/// assert_eq!(g.neighbor_to(0, 2), Some(1));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SmallGraphBuilder<const N: usize> {
    nodes: u8,
    adjacency: [u128; N],
}

/// A fixed-capacity first-move oracle for up to `N` (at most 128) nodes: adjacency as one
/// `u128` bitset per node and, per (node, target) pair, the distance and the lowest optimal
/// next hop in a byte each (`2·N² + 17·N` bytes, all inline). Answers exactly like
/// [`Graph`](crate::Graph) on the same edges.
///
/// ```
/// use signposts::Graph16;
/// let mut b = Graph16::builder(4);
/// b.connect(0, 1).connect(1, 2).connect(2, 3).connect(3, 0);
/// let g = b.build();
/// assert_eq!(g.neighbors_to(0, 2).collect::<Vec<_>>(), [1, 3]);
/// assert_eq!(g.cost(0, 2), Some(signposts::Cost::integer(2)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SmallGraph<const N: usize> {
    nodes: u8,
    adjacency: [u128; N],
    component: [u8; N],
    /// `distance[u][t]`, `NONE` when unreachable.
    distance: [[u8; N]; N],
    /// `first[u][t]`: lowest optimal next hop, `NONE` when there is none.
    first: [[u8; N]; N],
}

/// A [`SmallGraph`] for up to 16 nodes.
pub type Graph16 = SmallGraph<16>;
/// A [`SmallGraph`] for up to 32 nodes.
pub type Graph32 = SmallGraph<32>;
/// A [`SmallGraph`] for up to 64 nodes.
pub type Graph64 = SmallGraph<64>;
/// A [`SmallGraph`] for up to 128 nodes.
pub type Graph128 = SmallGraph<128>;
/// The builder of a [`Graph16`].
pub type Graph16Builder = SmallGraphBuilder<16>;
/// The builder of a [`Graph32`].
pub type Graph32Builder = SmallGraphBuilder<32>;
/// The builder of a [`Graph64`].
pub type Graph64Builder = SmallGraphBuilder<64>;
/// The builder of a [`Graph128`].
pub type Graph128Builder = SmallGraphBuilder<128>;

#[inline]
fn bit(node: u8) -> u128 {
    1u128 << node
}

#[inline]
fn all(nodes: u8) -> u128 {
    if nodes >= 128 { u128::MAX } else { bit(nodes) - 1 }
}

#[inline]
fn check(node: u8, nodes: u8) -> Result<usize, Error> {
    if node < nodes {
        Ok(node as usize)
    } else {
        Err(Error::NodeOutOfRange { node: u32::from(node), nodes: nodes as usize })
    }
}

#[inline]
#[track_caller]
fn expect(node: u8, nodes: u8) -> usize {
    check(node, nodes).unwrap_or_else(|e| panic_with(&e))
}

impl<const N: usize> SmallGraphBuilder<N> {
    const CAPACITY_OK: () = assert!(N <= 128, "a SmallGraph holds at most 128 nodes");

    /// A builder of `nodes` isolated nodes.
    ///
    /// # Panics
    /// If `nodes > N`; see [`SmallGraphBuilder::try_new`].
    ///
    /// ```
    /// assert_eq!(signposts::Graph32Builder::new(20).nodes_len(), 20);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn new(nodes: usize) -> Self {
        Self::try_new(nodes).unwrap_or_else(|e| panic_with(&e))
    }

    /// A builder of `nodes` isolated nodes, or an error when `nodes > N`.
    ///
    /// # Errors
    /// [`Error::TooManyNodes`].
    ///
    /// ```
    /// assert!(signposts::Graph16Builder::try_new(17).is_err());
    /// ```
    pub fn try_new(nodes: usize) -> Result<Self, Error> {
        let () = Self::CAPACITY_OK;
        if nodes > N {
            return Err(Error::TooManyNodes { nodes, max: N });
        }
        Ok(SmallGraphBuilder { nodes: u8::try_from(nodes).unwrap_or(u8::MAX), adjacency: [0; N] })
    }

    /// Number of nodes.
    ///
    /// ```
    /// assert_eq!(signposts::Graph16Builder::new(5).nodes_len(), 5);
    /// ```
    #[must_use]
    pub fn nodes_len(&self) -> usize {
        self.nodes as usize
    }

    /// Number of undirected edges.
    ///
    /// ```
    /// let mut b = signposts::Graph16Builder::new(3);
    /// b.connect(0, 1).connect(1, 0);
    /// assert_eq!(b.edges_len(), 1);
    /// ```
    #[must_use]
    pub fn edges_len(&self) -> usize {
        self.adjacency.iter().map(|a| a.count_ones() as usize).sum::<usize>() / 2
    }

    /// Adds the edge `a`–`b` (idempotent; self-loops ignored).
    ///
    /// # Panics
    /// If an id is out of range; see [`SmallGraphBuilder::try_connect`].
    ///
    /// ```
    /// let mut b = signposts::Graph16Builder::new(2);
    /// b.connect(0, 1).connect(0, 0);
    /// assert_eq!(b.edges_len(), 1);
    /// ```
    #[track_caller]
    pub fn connect(&mut self, a: u8, b: u8) -> &mut Self {
        self.try_connect(a, b).unwrap_or_else(|e| panic_with(&e))
    }

    /// Adds the edge `a`–`b`, or reports an out-of-range id.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`].
    ///
    /// ```
    /// assert!(signposts::Graph16Builder::new(2).try_connect(0, 2).is_err());
    /// ```
    pub fn try_connect(&mut self, a: u8, b: u8) -> Result<&mut Self, Error> {
        let (ua, ub) = (check(a, self.nodes)?, check(b, self.nodes)?);
        if a != b {
            self.adjacency[ua] |= bit(b);
            self.adjacency[ub] |= bit(a);
        }
        Ok(self)
    }

    /// Removes the edge `a`–`b` if present.
    ///
    /// # Panics
    /// If an id is out of range; see [`SmallGraphBuilder::try_disconnect`].
    ///
    /// ```
    /// let mut b = signposts::Graph16Builder::new(2);
    /// b.connect(0, 1).disconnect(1, 0);
    /// assert_eq!(b.edges_len(), 0);
    /// ```
    #[track_caller]
    pub fn disconnect(&mut self, a: u8, b: u8) -> &mut Self {
        self.try_disconnect(a, b).unwrap_or_else(|e| panic_with(&e))
    }

    /// Removes the edge `a`–`b` if present, or reports an out-of-range id.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`].
    ///
    /// ```
    /// assert!(signposts::Graph16Builder::new(2).try_disconnect(9, 0).is_err());
    /// ```
    pub fn try_disconnect(&mut self, a: u8, b: u8) -> Result<&mut Self, Error> {
        let (ua, ub) = (check(a, self.nodes)?, check(b, self.nodes)?);
        self.adjacency[ua] &= !bit(b);
        self.adjacency[ub] &= !bit(a);
        Ok(self)
    }

    /// Sets the node count, dropping removed nodes and their edges.
    ///
    /// # Panics
    /// If `nodes > N`.
    ///
    /// ```
    /// let mut b = signposts::Graph16Builder::new(3);
    /// b.connect(0, 1).connect(1, 2).resize(2);
    /// assert_eq!(b.edges_len(), 1);
    /// ```
    #[track_caller]
    pub fn resize(&mut self, nodes: usize) -> &mut Self {
        if nodes > N {
            panic_with(&Error::TooManyNodes { nodes, max: N });
        }
        let nodes = u8::try_from(nodes).unwrap_or(u8::MAX);
        let keep = all(nodes);
        for (u, adjacency) in self.adjacency.iter_mut().enumerate() {
            *adjacency = if u < nodes as usize { *adjacency & keep } else { 0 };
        }
        self.nodes = nodes;
        self
    }

    /// Builds the oracle, on the stack.
    ///
    /// # Complexity
    /// O(N² · D) word operations for diameter D.
    ///
    /// ```
    /// let mut b = signposts::Graph16Builder::new(3);
    /// b.connect(0, 1).connect(0, 2).connect(1, 2);
    /// assert_eq!(b.build().path_to(0, 2).collect::<Vec<_>>(), [0, 2]);
    /// ```
    #[must_use]
    pub fn build(&self) -> SmallGraph<N> {
        let n = self.nodes;
        let mut g = SmallGraph {
            nodes: n,
            adjacency: self.adjacency,
            component: [NONE; N],
            distance: [[NONE; N]; N],
            first: [[NONE; N]; N],
        };
        for t in 0..n {
            let ti = t as usize;
            g.distance[ti][ti] = 0;
            let mut visited = bit(t);
            let mut frontier = bit(t);
            let mut level = 0u8;
            while frontier != 0 {
                level += 1;
                let mut next = 0;
                let mut rest = all(n) & !visited;
                while rest != 0 {
                    let v = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let toward = self.adjacency[v] & frontier;
                    if toward != 0 {
                        next |= 1u128 << v;
                        g.distance[v][ti] = level;
                        #[expect(clippy::cast_possible_truncation, reason = "below 128")]
                        let hop = toward.trailing_zeros() as u8;
                        g.first[v][ti] = hop;
                    }
                }
                visited |= next;
                frontier = next;
            }
        }
        let mut count = 0u8;
        for u in 0..n as usize {
            if g.component[u] == NONE {
                for v in 0..n as usize {
                    if g.distance[v][u] != NONE {
                        g.component[v] = count;
                    }
                }
                count += 1;
            }
        }
        g
    }
}

impl<const N: usize> SmallGraph<N> {
    /// A [`SmallGraphBuilder`] of `nodes` isolated nodes.
    ///
    /// # Panics
    /// If `nodes > N`.
    ///
    /// ```
    /// let g = signposts::Graph64::builder(64).build();
    /// assert_eq!(g.nodes_len(), 64);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn builder(nodes: usize) -> SmallGraphBuilder<N> {
        SmallGraphBuilder::new(nodes)
    }

    /// Back to a builder with the same nodes and edges.
    ///
    /// ```
    /// let mut b = signposts::Graph16::builder(3);
    /// b.connect(0, 1);
    /// let mut b = b.build().into_builder();
    /// b.connect(1, 2);
    /// assert_eq!(b.build().cost(0, 2), Some(signposts::Cost::integer(2)));
    /// ```
    #[must_use]
    pub fn into_builder(self) -> SmallGraphBuilder<N> {
        SmallGraphBuilder { nodes: self.nodes, adjacency: self.adjacency }
    }

    /// Number of nodes.
    ///
    /// ```
    /// assert_eq!(signposts::Graph16::builder(3).build().nodes_len(), 3);
    /// ```
    #[must_use]
    pub fn nodes_len(&self) -> usize {
        self.nodes as usize
    }

    /// Number of undirected edges.
    ///
    /// ```
    /// let mut b = signposts::Graph16::builder(3);
    /// b.connect(0, 1);
    /// assert_eq!(b.build().edges_len(), 1);
    /// ```
    #[must_use]
    pub fn edges_len(&self) -> usize {
        self.into_builder().edges_len()
    }

    /// Bytes held: the whole value, inline (`size_of::<Self>()`).
    ///
    /// ```
    /// assert_eq!(signposts::Graph16::builder(1).build().memory_bytes(), 800);
    /// ```
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        size_of::<Self>()
    }

    /// Neighbours of `node`, increasing.
    ///
    /// # Panics
    /// If `node` is out of range; see [`SmallGraph::try_neighbors`].
    ///
    /// ```
    /// let mut b = signposts::Graph16::builder(3);
    /// b.connect(1, 2).connect(1, 0);
    /// assert_eq!(b.build().neighbors(1).collect::<Vec<_>>(), [0, 2]);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn neighbors(&self, node: u8) -> Nodes {
        Nodes(self.adjacency[expect(node, self.nodes)])
    }

    /// [`SmallGraph::neighbors`] with an error for an out-of-range id.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`].
    ///
    /// ```
    /// assert!(signposts::Graph16::builder(3).build().try_neighbors(3).is_err());
    /// ```
    pub fn try_neighbors(&self, node: u8) -> Result<Nodes, Error> {
        Ok(Nodes(self.adjacency[check(node, self.nodes)?]))
    }

    /// Component id of `node` (`0..`, in order of each component's lowest node).
    ///
    /// # Panics
    /// If `node` is out of range; see [`SmallGraph::try_component`].
    ///
    /// ```
    /// let mut b = signposts::Graph16::builder(3);
    /// b.connect(0, 2);
    /// let g = b.build();
    /// assert_eq!([g.component(0), g.component(1), g.component(2)], [0, 1, 0]);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn component(&self, node: u8) -> u32 {
        u32::from(self.component[expect(node, self.nodes)])
    }

    /// [`SmallGraph::component`] with an error for an out-of-range id.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`].
    ///
    /// ```
    /// assert!(signposts::Graph16::builder(1).build().try_component(1).is_err());
    /// ```
    pub fn try_component(&self, node: u8) -> Result<u32, Error> {
        Ok(u32::from(self.component[check(node, self.nodes)?]))
    }

    /// The lowest optimal next hop, `None` when `from == to` or unreachable.
    ///
    /// # Panics
    /// If an id is out of range; see [`SmallGraph::try_neighbor_to`].
    ///
    /// ```
    /// let mut b = signposts::Graph16::builder(3);
    /// b.connect(0, 1);
    /// let g = b.build();
    /// assert_eq!((g.neighbor_to(0, 1), g.neighbor_to(0, 2)), (Some(1), None));
    /// ```
    #[must_use]
    #[inline]
    #[track_caller]
    pub fn neighbor_to(&self, from: u8, to: u8) -> Option<u8> {
        let (u, t) = (expect(from, self.nodes), expect(to, self.nodes));
        self.hop(u, t)
    }

    /// [`SmallGraph::neighbor_to`] with an error for an out-of-range id.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`].
    ///
    /// ```
    /// assert!(signposts::Graph16::builder(4).build().try_neighbor_to(3, 200).is_err());
    /// ```
    pub fn try_neighbor_to(&self, from: u8, to: u8) -> Result<Option<u8>, Error> {
        let (u, t) = (check(from, self.nodes)?, check(to, self.nodes)?);
        Ok(self.hop(u, t))
    }

    #[inline]
    fn hop(&self, u: usize, t: usize) -> Option<u8> {
        let hop = self.first[u][t];
        (hop != NONE).then_some(hop)
    }

    fn hops(&self, u: usize, t: usize) -> Nodes {
        let d = self.distance[u][t];
        if d == NONE || d == 0 {
            return Nodes(0);
        }
        Nodes(self.filter(u, |v| self.distance[v][t] == d - 1))
    }

    fn filter(&self, u: usize, keep: impl Fn(usize) -> bool) -> u128 {
        let mut out = 0;
        let mut rest = self.adjacency[u];
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if keep(v) {
                out |= 1u128 << v;
            }
        }
        out
    }

    /// Every optimal next hop, increasing.
    ///
    /// # Panics
    /// If an id is out of range; see [`SmallGraph::try_neighbors_to`].
    ///
    /// # Complexity
    /// O(degree).
    ///
    /// ```
    /// let mut b = signposts::Graph16::builder(4);
    /// b.connect(0, 1).connect(1, 2).connect(2, 3).connect(3, 0);
    /// assert_eq!(b.build().neighbors_to(0, 2).collect::<Vec<_>>(), [1, 3]);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn neighbors_to(&self, from: u8, to: u8) -> Nodes {
        let (u, t) = (expect(from, self.nodes), expect(to, self.nodes));
        self.hops(u, t)
    }

    /// [`SmallGraph::neighbors_to`] with an error for an out-of-range id.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`].
    ///
    /// ```
    /// assert!(signposts::Graph16::builder(2).build().try_neighbors_to(0, 2).is_err());
    /// ```
    pub fn try_neighbors_to(&self, from: u8, to: u8) -> Result<Nodes, Error> {
        let (u, t) = (check(from, self.nodes)?, check(to, self.nodes)?);
        Ok(self.hops(u, t))
    }

    /// The nodes of a shortest path, both ends included; `[from]` when equal, empty when
    /// unreachable.
    ///
    /// # Panics
    /// If an id is out of range; see [`SmallGraph::try_path_to`].
    ///
    /// ```
    /// let mut b = signposts::Graph16::builder(3);
    /// b.connect(0, 1).connect(1, 2);
    /// assert_eq!(b.build().path_to(2, 0).collect::<Vec<_>>(), [2, 1, 0]);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn path_to(&self, from: u8, to: u8) -> SmallPath<'_, N> {
        let (u, t) = (expect(from, self.nodes), expect(to, self.nodes));
        self.path(u, t)
    }

    /// [`SmallGraph::path_to`] with an error for an out-of-range id.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`].
    ///
    /// ```
    /// assert!(signposts::Graph16::builder(2).build().try_path_to(5, 0).is_err());
    /// ```
    pub fn try_path_to(&self, from: u8, to: u8) -> Result<SmallPath<'_, N>, Error> {
        let (u, t) = (check(from, self.nodes)?, check(to, self.nodes)?);
        Ok(self.path(u, t))
    }

    #[expect(clippy::cast_possible_truncation, reason = "node indices are below 128")]
    fn path(&self, u: usize, t: usize) -> SmallPath<'_, N> {
        let next = (self.distance[u][t] != NONE).then_some(u as u8);
        SmallPath { graph: self, next, to: t as u8 }
    }

    /// The cost of a shortest path (its number of edges), `None` when unreachable.
    ///
    /// # Panics
    /// If an id is out of range; see [`SmallGraph::try_cost`].
    ///
    /// # Complexity
    /// O(1).
    ///
    /// ```
    /// let mut b = signposts::Graph16::builder(3);
    /// b.connect(0, 1).connect(1, 2);
    /// assert_eq!(b.build().cost(0, 2), Some(signposts::Cost::integer(2)));
    /// ```
    #[must_use]
    #[track_caller]
    pub fn cost(&self, from: u8, to: u8) -> Option<Cost> {
        let (u, t) = (expect(from, self.nodes), expect(to, self.nodes));
        self.dist(u, t)
    }

    /// [`SmallGraph::cost`] with an error for an out-of-range id.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`].
    ///
    /// ```
    /// assert_eq!(signposts::Graph16::builder(2).build().try_cost(0, 1), Ok(None));
    /// ```
    pub fn try_cost(&self, from: u8, to: u8) -> Result<Option<Cost>, Error> {
        let (u, t) = (check(from, self.nodes)?, check(to, self.nodes)?);
        Ok(self.dist(u, t))
    }

    fn dist(&self, u: usize, t: usize) -> Option<Cost> {
        let d = self.distance[u][t];
        (d != NONE).then_some(Cost::integer(u64::from(d)))
    }

    /// Whether `to` can be reached from `from` (true when equal).
    ///
    /// # Panics
    /// If an id is out of range; see [`SmallGraph::try_path_exists`].
    ///
    /// ```
    /// let g = signposts::Graph16::builder(2).build();
    /// assert!(g.path_exists(1, 1) && !g.path_exists(0, 1));
    /// ```
    #[must_use]
    #[track_caller]
    pub fn path_exists(&self, from: u8, to: u8) -> bool {
        let (u, t) = (expect(from, self.nodes), expect(to, self.nodes));
        self.distance[u][t] != NONE
    }

    /// [`SmallGraph::path_exists`] with an error for an out-of-range id.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`].
    ///
    /// ```
    /// assert!(signposts::Graph16::builder(2).build().try_path_exists(0, 2).is_err());
    /// ```
    pub fn try_path_exists(&self, from: u8, to: u8) -> Result<bool, Error> {
        let (u, t) = (check(from, self.nodes)?, check(to, self.nodes)?);
        Ok(self.distance[u][t] != NONE)
    }

    /// Neighbours strictly farther from `to` than `from`, increasing; empty when unreachable.
    ///
    /// # Panics
    /// If an id is out of range; see [`SmallGraph::try_neighbors_away`].
    ///
    /// ```
    /// let mut b = signposts::Graph16::builder(3);
    /// b.connect(0, 1).connect(1, 2);
    /// assert_eq!(b.build().neighbors_away(1, 0).collect::<Vec<_>>(), [2]);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn neighbors_away(&self, from: u8, to: u8) -> Nodes {
        let (u, t) = (expect(from, self.nodes), expect(to, self.nodes));
        self.away(u, t)
    }

    /// [`SmallGraph::neighbors_away`] with an error for an out-of-range id.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`].
    ///
    /// ```
    /// assert!(signposts::Graph16::builder(2).build().try_neighbors_away(0, 9).is_err());
    /// ```
    pub fn try_neighbors_away(&self, from: u8, to: u8) -> Result<Nodes, Error> {
        let (u, t) = (check(from, self.nodes)?, check(to, self.nodes)?);
        Ok(self.away(u, t))
    }

    fn away(&self, u: usize, t: usize) -> Nodes {
        let d = self.distance[u][t];
        if d == NONE {
            return Nodes(0);
        }
        // Neighbours of a reachable node are reachable, so `NONE` never passes here.
        Nodes(self.filter(u, |v| self.distance[v][t] == d + 1))
    }
}

/// A set of small-graph nodes, iterated in increasing order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Nodes(u128);

impl Iterator for Nodes {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        #[expect(clippy::cast_possible_truncation, reason = "below 128")]
        let v = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(v)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Nodes {}
impl core::iter::FusedIterator for Nodes {}

/// The nodes of a shortest path in a [`SmallGraph`]; see [`SmallGraph::path_to`].
#[derive(Debug, Clone)]
pub struct SmallPath<'a, const N: usize> {
    graph: &'a SmallGraph<N>,
    next: Option<u8>,
    to: u8,
}

impl<const N: usize> Iterator for SmallPath<'_, N> {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        let node = self.next?;
        self.next = if node == self.to { None } else { self.graph.hop(node as usize, self.to as usize) };
        Some(node)
    }
}

impl<const N: usize> core::iter::FusedIterator for SmallPath<'_, N> {}
