//! [`NextHop`]: the queries every first-move oracle answers, so that game code is written once
//! and takes a dense table, a compressed one, a fixed-size graph or a grid's table alike.

use crate::error::panic_with;
use crate::{CompressedGraph, Cost, Error, Graph, NodeId, SmallGraph};

/// The queries every first-move oracle answers: where to step next, all the optimal steps,
/// the path, its exact cost, reachability, and the steps of a whole crowd in one call.
///
/// Implemented by [`Graph`] (dense: every optimal move), [`CompressedGraph`] (runs of moves:
/// a non-empty subset of the optimal moves, see [`NextHop::keeps_every_move`]),
/// [`Graph16`](crate::Graph16) … [`Graph128`](crate::Graph128) (their `u8` ids taken as
/// `u32`: an id past the graph is an error, never truncated) and [`TableRef`], the table
/// behind a [`GridOracle`](crate::grid::GridOracle) (see
/// [`GridOracle::table`](crate::grid::GridOracle::table)).
///
/// Write game code against `&impl NextHop` (or `T: NextHop`): it is compiled for each table
/// type, with no dynamic dispatch in its loops, and swapping the dense table for the
/// compressed one is a one-line change where the table is built. The scalar queries are also
/// callable through `&dyn NextHop`; the two that return iterators ([`NextHop::neighbors_to`],
/// [`NextHop::path_to`]) need a concrete type.
///
/// Every query is exact: each step returned lies on a shortest path. Ids out of range panic
/// in the plain methods (naming the id and the node count) and are an
/// [`Error::NodeOutOfRange`] from the `try_` twins.
///
/// Other crates may implement it (a layer over regions, a table kept elsewhere); an
/// implementation must keep those promises, which the crate's own property tests check for
/// its tables. References, `Box`es and `Arc`s of a table answer as the table does.
///
/// # Example
/// ```
/// use signposts::{Graph, NextHop, NodeId};
/// use signposts::generate::{grid, Connectivity};
///
/// /// Every enemy takes one optimal step toward the player; returns how many moved.
/// fn step_all(table: &impl NextHop, enemies: &mut [NodeId], player: NodeId) -> usize {
///     let queries: Vec<_> = enemies.iter().map(|&e| (e, player)).collect();
///     let mut steps = Vec::new();
///     table.neighbor_to_each(&queries, &mut steps);
///     let mut moved = 0;
///     for (enemy, step) in enemies.iter_mut().zip(steps) {
///         if let Some(next) = step {
///             *enemy = next;
///             moved += 1;
///         }
///     }
///     moved
/// }
///
/// let builder = grid(20, 20, Connectivity::Four);
/// let dense = builder.build();
/// let compressed = builder.build_compressed()?; // the one-line swap
/// for table in [&dense as &dyn NextHop, &compressed] {
///     assert_eq!(table.cost(0, 399).map(|c| c.value()), Some(38.0));
/// }
/// let (mut a, mut b) = (vec![0, 19, 380], vec![0, 19, 380]);
/// assert_eq!(step_all(&dense, &mut a, 210), 3);
/// assert_eq!(step_all(&compressed, &mut b, 210), 3);
/// // The steps may differ where several are optimal; their costs never do.
/// for (x, y) in a.iter().zip(&b) {
///     assert_eq!(dense.cost(*x, 210), compressed.cost(*y, 210));
/// }
/// # Ok::<(), signposts::Error>(())
/// ```
pub trait NextHop {
    /// Number of nodes: ids run from `0` to `nodes_len() - 1`.
    #[must_use]
    fn nodes_len(&self) -> usize;

    /// Whether [`NextHop::neighbors_to`] lists every optimal move (dense tables and
    /// fixed-size graphs) or a non-empty subset of them (compressed tables, which keep the
    /// moves optimal toward a whole run of targets).
    #[must_use]
    fn keeps_every_move(&self) -> bool;

    /// [`NextHop::neighbor_to`] with an error for out-of-range ids.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    fn try_neighbor_to(&self, from: NodeId, to: NodeId) -> Result<Option<NodeId>, Error>;

    /// An optimal next node from `from` toward `to`: `None` when `from == to` or `to` cannot
    /// be reached.
    ///
    /// # Panics
    /// If an id is out of range; see [`NextHop::try_neighbor_to`].
    ///
    /// # Complexity
    /// O(1) on dense tables (one load), O(log runs) on compressed ones.
    #[must_use]
    #[track_caller]
    fn neighbor_to(&self, from: NodeId, to: NodeId) -> Option<NodeId> {
        self.try_neighbor_to(from, to).unwrap_or_else(|e| panic_with(&e))
    }

    /// [`NextHop::neighbor_to_each`] with an error for out-of-range ids (then `out` is left
    /// empty).
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    fn try_neighbor_to_each(
        &self,
        queries: &[(NodeId, NodeId)],
        out: &mut Vec<Option<NodeId>>,
    ) -> Result<(), Error>;

    /// [`NextHop::neighbor_to`] for many `(from, to)` queries at once, written to `out`
    /// (cleared first): the step of each entity of a crowd. The answers equal one call per
    /// query. Dense and compressed tables overlap the memory reads of many queries: on tables
    /// larger than the cache that is about twice as fast per query (compressed) to several
    /// times (dense); the fixed-size graphs, always in cache, answer one after another. No
    /// allocation but `out`'s growth.
    ///
    /// # Panics
    /// If an id is out of range; see [`NextHop::try_neighbor_to_each`].
    #[track_caller]
    fn neighbor_to_each(&self, queries: &[(NodeId, NodeId)], out: &mut Vec<Option<NodeId>>) {
        if let Err(e) = self.try_neighbor_to_each(queries, out) {
            panic_with(&e);
        }
    }

    /// [`NextHop::neighbor_to_each_spread`] with an error for out-of-range ids (then `out` is
    /// left empty).
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    fn try_neighbor_to_each_spread(
        &self,
        queries: &[(NodeId, NodeId, u64)],
        out: &mut Vec<Option<NodeId>>,
    ) -> Result<(), Error>
    where
        Self: Sized,
    {
        out.clear();
        for &(from, to, seed) in queries {
            let moves = match self.try_neighbors_to(from, to) {
                Ok(moves) => moves,
                Err(e) => {
                    out.clear();
                    return Err(e);
                }
            };
            let mut moves = moves.fuse();
            let mut picked = [0; 8];
            let mut k = 0;
            for v in moves.by_ref().take(picked.len()) {
                picked[k] = v;
                k += 1;
            }
            // Rare: more than eight optimal moves (a node of a general graph).
            let rest: Vec<NodeId> = moves.collect();
            let all = k + rest.len();
            out.push((all > 0).then(|| {
                let i = (seed % all as u64) as usize;
                if i < k { picked[i] } else { rest[i - k] }
            }));
        }
        Ok(())
    }

    /// [`NextHop::neighbor_to_each`] that spreads a crowd over the tied moves: query
    /// `(from, to, seed)` takes move number `seed % k` of the `k` moves
    /// [`NextHop::neighbors_to`] lists (in increasing id order), so entities with different
    /// seeds (a hash of their id, say) heading the same way take different shortest paths, and
    /// each keeps its own. `None` exactly where [`NextHop::neighbor_to`] is. Dense tables read
    /// each entry once, the reads of many queries overlapped as in
    /// [`NextHop::neighbor_to_each`]; other tables list their moves per query.
    ///
    /// # Panics
    /// If an id is out of range; see [`NextHop::try_neighbor_to_each_spread`].
    ///
    /// ```
    /// use signposts::NextHop;
    /// use signposts::generate::{grid, Connectivity};
    /// let table = grid(5, 5, Connectivity::Four).build(); // from 0 to 24: east (1) or south (5)
    /// let mut steps = Vec::new();
    /// table.neighbor_to_each_spread(&[(0, 24, 0), (0, 24, 1), (0, 24, 7), (24, 24, 3)], &mut steps);
    /// assert_eq!(steps, [Some(1), Some(5), Some(5), None]);
    /// ```
    #[track_caller]
    fn neighbor_to_each_spread(&self, queries: &[(NodeId, NodeId, u64)], out: &mut Vec<Option<NodeId>>)
    where
        Self: Sized,
    {
        if let Err(e) = self.try_neighbor_to_each_spread(queries, out) {
            panic_with(&e);
        }
    }

    /// [`NextHop::cost`] with an error for out-of-range ids.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    fn try_cost(&self, from: NodeId, to: NodeId) -> Result<Option<Cost>, Error>;

    /// The exact cost of a shortest path (`Cost::value` gives it as `f64`; diagonal steps of
    /// octile grids are counted apart, so ties compare exactly), or `None` when `to` cannot
    /// be reached.
    ///
    /// # Panics
    /// If an id is out of range; see [`NextHop::try_cost`].
    ///
    /// # Complexity
    /// O(path length): the tables store moves, not distances, so the path is walked.
    #[must_use]
    #[track_caller]
    fn cost(&self, from: NodeId, to: NodeId) -> Option<Cost> {
        self.try_cost(from, to).unwrap_or_else(|e| panic_with(&e))
    }

    /// [`NextHop::path_exists`] with an error for out-of-range ids.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    fn try_path_exists(&self, from: NodeId, to: NodeId) -> Result<bool, Error>;

    /// Whether `to` can be reached from `from` (always when `from == to`).
    ///
    /// # Panics
    /// If an id is out of range; see [`NextHop::try_path_exists`].
    ///
    /// # Complexity
    /// O(1) on undirected graphs (component labels).
    #[must_use]
    #[track_caller]
    fn path_exists(&self, from: NodeId, to: NodeId) -> bool {
        self.try_path_exists(from, to).unwrap_or_else(|e| panic_with(&e))
    }

    /// [`NextHop::neighbors_to`] with an error for out-of-range ids.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    fn try_neighbors_to(&self, from: NodeId, to: NodeId) -> Result<impl Iterator<Item = NodeId> + '_, Error>
    where
        Self: Sized;

    /// Optimal next nodes from `from` toward `to`, in increasing id order: all of them when
    /// [`NextHop::keeps_every_move`], otherwise a non-empty subset; empty when `from == to`
    /// or `to` cannot be reached.
    ///
    /// # Panics
    /// If an id is out of range; see [`NextHop::try_neighbors_to`].
    #[track_caller]
    fn neighbors_to(&self, from: NodeId, to: NodeId) -> impl Iterator<Item = NodeId> + '_
    where
        Self: Sized,
    {
        self.try_neighbors_to(from, to).unwrap_or_else(|e| panic_with(&e))
    }

    /// [`NextHop::path_to`] with an error for out-of-range ids.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] naming the first bad id.
    fn try_path_to(&self, from: NodeId, to: NodeId) -> Result<impl Iterator<Item = NodeId> + '_, Error>
    where
        Self: Sized;

    /// The nodes of one shortest path, both ends included: `[from]` when `from == to`,
    /// empty when `to` cannot be reached. Each step is [`NextHop::neighbor_to`].
    ///
    /// # Panics
    /// If an id is out of range; see [`NextHop::try_path_to`].
    #[track_caller]
    fn path_to(&self, from: NodeId, to: NodeId) -> impl Iterator<Item = NodeId> + '_
    where
        Self: Sized,
    {
        self.try_path_to(from, to).unwrap_or_else(|e| panic_with(&e))
    }
}

/// `Ok` when both ids are below `nodes`, else the error naming the first bad one.
#[inline]
fn check(from: NodeId, to: NodeId, nodes: usize) -> Result<(), Error> {
    for node in [from, to] {
        if node as usize >= nodes {
            return Err(Error::NodeOutOfRange { node, nodes });
        }
    }
    Ok(())
}

impl NextHop for Graph {
    #[inline]
    fn nodes_len(&self) -> usize {
        Graph::nodes_len(self)
    }

    fn keeps_every_move(&self) -> bool {
        true
    }

    #[inline]
    fn try_neighbor_to(&self, from: NodeId, to: NodeId) -> Result<Option<NodeId>, Error> {
        Graph::try_neighbor_to(self, from, to)
    }

    #[inline]
    #[track_caller]
    fn neighbor_to(&self, from: NodeId, to: NodeId) -> Option<NodeId> {
        Graph::neighbor_to(self, from, to)
    }

    fn try_neighbor_to_each(
        &self,
        queries: &[(NodeId, NodeId)],
        out: &mut Vec<Option<NodeId>>,
    ) -> Result<(), Error> {
        Graph::try_neighbor_to_each(self, queries, out)
    }

    fn try_neighbor_to_each_spread(
        &self,
        queries: &[(NodeId, NodeId, u64)],
        out: &mut Vec<Option<NodeId>>,
    ) -> Result<(), Error> {
        Graph::try_neighbor_to_each_spread(self, queries, out)
    }

    fn try_cost(&self, from: NodeId, to: NodeId) -> Result<Option<Cost>, Error> {
        check(from, to, self.nodes_len())?;
        Ok(self.walk_cost(from as usize, to as usize))
    }

    fn try_path_exists(&self, from: NodeId, to: NodeId) -> Result<bool, Error> {
        Graph::try_path_exists(self, from, to)
    }

    fn try_neighbors_to(&self, from: NodeId, to: NodeId) -> Result<impl Iterator<Item = NodeId> + '_, Error> {
        Graph::try_neighbors_to(self, from, to)
    }

    fn try_path_to(&self, from: NodeId, to: NodeId) -> Result<impl Iterator<Item = NodeId> + '_, Error> {
        Graph::try_path_to(self, from, to)
    }
}

impl NextHop for CompressedGraph {
    #[inline]
    fn nodes_len(&self) -> usize {
        CompressedGraph::nodes_len(self)
    }

    fn keeps_every_move(&self) -> bool {
        false
    }

    #[inline]
    fn try_neighbor_to(&self, from: NodeId, to: NodeId) -> Result<Option<NodeId>, Error> {
        check(from, to, self.nodes_len())?;
        Ok(CompressedGraph::neighbor_to(self, from, to))
    }

    #[inline]
    #[track_caller]
    fn neighbor_to(&self, from: NodeId, to: NodeId) -> Option<NodeId> {
        CompressedGraph::neighbor_to(self, from, to)
    }

    fn try_neighbor_to_each(
        &self,
        queries: &[(NodeId, NodeId)],
        out: &mut Vec<Option<NodeId>>,
    ) -> Result<(), Error> {
        CompressedGraph::try_neighbor_to_each(self, queries, out)
    }

    fn try_cost(&self, from: NodeId, to: NodeId) -> Result<Option<Cost>, Error> {
        check(from, to, self.nodes_len())?;
        Ok(self.walk_cost(from as usize, to as usize))
    }

    fn try_path_exists(&self, from: NodeId, to: NodeId) -> Result<bool, Error> {
        check(from, to, self.nodes_len())?;
        Ok(CompressedGraph::path_exists(self, from, to))
    }

    fn try_neighbors_to(&self, from: NodeId, to: NodeId) -> Result<impl Iterator<Item = NodeId> + '_, Error> {
        check(from, to, self.nodes_len())?;
        Ok(CompressedGraph::neighbors_to(self, from, to))
    }

    fn try_path_to(&self, from: NodeId, to: NodeId) -> Result<impl Iterator<Item = NodeId> + '_, Error> {
        check(from, to, self.nodes_len())?;
        Ok(CompressedGraph::path_to(self, from, to))
    }
}

/// The `u8` id of a node of a fixed-size graph of `nodes` nodes, or the error naming `id`.
#[inline]
fn small_id(id: NodeId, nodes: usize) -> Result<u8, Error> {
    u8::try_from(id).ok().filter(|&v| usize::from(v) < nodes).ok_or(Error::NodeOutOfRange { node: id, nodes })
}

impl<const N: usize> NextHop for SmallGraph<N> {
    #[inline]
    fn nodes_len(&self) -> usize {
        SmallGraph::nodes_len(self)
    }

    fn keeps_every_move(&self) -> bool {
        true
    }

    #[inline]
    fn try_neighbor_to(&self, from: NodeId, to: NodeId) -> Result<Option<NodeId>, Error> {
        let (u, t) = (small_id(from, self.nodes_len())?, small_id(to, self.nodes_len())?);
        Ok(SmallGraph::neighbor_to(self, u, t).map(NodeId::from))
    }

    fn try_neighbor_to_each(
        &self,
        queries: &[(NodeId, NodeId)],
        out: &mut Vec<Option<NodeId>>,
    ) -> Result<(), Error> {
        out.clear();
        // Every id first, so that a bad one leaves `out` empty; then the answers (the table is
        // a few KiB and always in cache: one query after another).
        let n = self.nodes_len();
        queries.iter().try_for_each(|&(from, to)| small_id(from, n).and(small_id(to, n)).map(drop))?;
        out.extend(
            queries
                .iter()
                .map(|&(from, to)| SmallGraph::neighbor_to(self, from as u8, to as u8).map(NodeId::from)),
        );
        Ok(())
    }

    fn try_cost(&self, from: NodeId, to: NodeId) -> Result<Option<Cost>, Error> {
        let (u, t) = (small_id(from, self.nodes_len())?, small_id(to, self.nodes_len())?);
        Ok(SmallGraph::cost(self, u, t))
    }

    fn try_path_exists(&self, from: NodeId, to: NodeId) -> Result<bool, Error> {
        let (u, t) = (small_id(from, self.nodes_len())?, small_id(to, self.nodes_len())?);
        Ok(SmallGraph::path_exists(self, u, t))
    }

    fn try_neighbors_to(&self, from: NodeId, to: NodeId) -> Result<impl Iterator<Item = NodeId> + '_, Error> {
        let (u, t) = (small_id(from, self.nodes_len())?, small_id(to, self.nodes_len())?);
        Ok(SmallGraph::neighbors_to(self, u, t).map(NodeId::from))
    }

    fn try_path_to(&self, from: NodeId, to: NodeId) -> Result<impl Iterator<Item = NodeId> + '_, Error> {
        let (u, t) = (small_id(from, self.nodes_len())?, small_id(to, self.nodes_len())?);
        Ok(SmallGraph::path_to(self, u, t).map(NodeId::from))
    }
}

/// A borrowed first-move table that is either dense or compressed, chosen at run time: the
/// table behind a [`GridOracle`](crate::grid::GridOracle)
/// ([`GridOracle::table`](crate::grid::GridOracle::table)), whose node `v` is the open cell
/// [`GridOracle::cell`](crate::grid::GridOracle::cell)`(v)`.
///
/// Each query matches on the kind once (the batched one once per call), then runs the
/// table's own code.
///
/// ```
/// use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
/// use signposts::{NextHop, TableRef};
/// let oracle = GridOracle::build(&Grid::from_ascii("....\n.##.\n....")?, Connectivity::Four)?;
/// let table: TableRef<'_> = oracle.table();
/// let (from, to) = (oracle.node(Cell::new(0, 1)).unwrap(), oracle.node(Cell::new(3, 1)).unwrap());
/// assert_eq!(table.cost(from, to).map(|c| c.value()), Some(5.0));
/// assert!(matches!(table, TableRef::Dense(_)));
/// # Ok::<(), signposts::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum TableRef<'a> {
    /// Every optimal move, O(1) queries; editable in place through its owner.
    Dense(&'a Graph),
    /// Runs of first moves, O(log runs) queries.
    Compressed(&'a CompressedGraph),
}

/// Runs `$body` with `$t` bound to the table inside a [`TableRef`].
macro_rules! on_table {
    ($table:expr, $t:ident => $body:expr) => {
        match $table {
            TableRef::Dense($t) => $body,
            TableRef::Compressed($t) => $body,
        }
    };
}

impl NextHop for TableRef<'_> {
    #[inline]
    fn nodes_len(&self) -> usize {
        on_table!(self, t => NextHop::nodes_len(*t))
    }

    fn keeps_every_move(&self) -> bool {
        on_table!(self, t => t.keeps_every_move())
    }

    #[inline]
    fn try_neighbor_to(&self, from: NodeId, to: NodeId) -> Result<Option<NodeId>, Error> {
        on_table!(self, t => NextHop::try_neighbor_to(*t, from, to))
    }

    fn try_neighbor_to_each(
        &self,
        queries: &[(NodeId, NodeId)],
        out: &mut Vec<Option<NodeId>>,
    ) -> Result<(), Error> {
        on_table!(self, t => NextHop::try_neighbor_to_each(*t, queries, out))
    }

    fn try_neighbor_to_each_spread(
        &self,
        queries: &[(NodeId, NodeId, u64)],
        out: &mut Vec<Option<NodeId>>,
    ) -> Result<(), Error> {
        on_table!(self, t => NextHop::try_neighbor_to_each_spread(*t, queries, out))
    }

    fn try_cost(&self, from: NodeId, to: NodeId) -> Result<Option<Cost>, Error> {
        on_table!(self, t => t.try_cost(from, to))
    }

    fn try_path_exists(&self, from: NodeId, to: NodeId) -> Result<bool, Error> {
        on_table!(self, t => NextHop::try_path_exists(*t, from, to))
    }

    fn try_neighbors_to(&self, from: NodeId, to: NodeId) -> Result<impl Iterator<Item = NodeId> + '_, Error> {
        // One iterator type for both kinds: the other side is empty.
        Ok(match self {
            TableRef::Dense(t) => Either::Left(NextHop::try_neighbors_to(*t, from, to)?),
            TableRef::Compressed(t) => Either::Right(NextHop::try_neighbors_to(*t, from, to)?),
        })
    }

    fn try_path_to(&self, from: NodeId, to: NodeId) -> Result<impl Iterator<Item = NodeId> + '_, Error> {
        Ok(match self {
            TableRef::Dense(t) => Either::Left(NextHop::try_path_to(*t, from, to)?),
            TableRef::Compressed(t) => Either::Right(NextHop::try_path_to(*t, from, to)?),
        })
    }
}

/// One of two iterators of the same item.
enum Either<L, R> {
    Left(L),
    Right(R),
}

impl<L: Iterator, R: Iterator<Item = L::Item>> Iterator for Either<L, R> {
    type Item = L::Item;

    #[inline]
    fn next(&mut self) -> Option<L::Item> {
        match self {
            Either::Left(l) => l.next(),
            Either::Right(r) => r.next(),
        }
    }
}

/// Implements [`NextHop`] for a pointer to a table by answering as the table does.
macro_rules! forward {
    ($($pointer:ty),+) => {$(
        impl<T: NextHop> NextHop for $pointer {
            #[inline]
            fn nodes_len(&self) -> usize {
                (**self).nodes_len()
            }

            fn keeps_every_move(&self) -> bool {
                (**self).keeps_every_move()
            }

            #[inline]
            fn try_neighbor_to(&self, from: NodeId, to: NodeId) -> Result<Option<NodeId>, Error> {
                (**self).try_neighbor_to(from, to)
            }

            #[inline]
            #[track_caller]
            fn neighbor_to(&self, from: NodeId, to: NodeId) -> Option<NodeId> {
                (**self).neighbor_to(from, to)
            }

            fn try_neighbor_to_each(
                &self,
                queries: &[(NodeId, NodeId)],
                out: &mut Vec<Option<NodeId>>,
            ) -> Result<(), Error> {
                (**self).try_neighbor_to_each(queries, out)
            }

            fn try_neighbor_to_each_spread(
                &self,
                queries: &[(NodeId, NodeId, u64)],
                out: &mut Vec<Option<NodeId>>,
            ) -> Result<(), Error> {
                (**self).try_neighbor_to_each_spread(queries, out)
            }

            fn try_cost(&self, from: NodeId, to: NodeId) -> Result<Option<Cost>, Error> {
                (**self).try_cost(from, to)
            }

            fn try_path_exists(&self, from: NodeId, to: NodeId) -> Result<bool, Error> {
                (**self).try_path_exists(from, to)
            }

            fn try_neighbors_to(&self, from: NodeId, to: NodeId) -> Result<impl Iterator<Item = NodeId> + '_, Error> {
                (**self).try_neighbors_to(from, to)
            }

            fn try_path_to(&self, from: NodeId, to: NodeId) -> Result<impl Iterator<Item = NodeId> + '_, Error> {
                (**self).try_path_to(from, to)
            }
        }
    )+};
}

forward!(&T, &mut T, Box<T>, std::rc::Rc<T>, std::sync::Arc<T>);
