//! [`GridOracle`]: the first-move oracle of a tile grid, answering in cells and directions.

use core::fmt;

use super::{Cell, Connectivity, Direction, Grid};
use crate::builder::CostModel;
use crate::format::{Check, KIND_GRID, KIND_GRID_COMPRESSED, Source};

mod build;
mod edit;
mod io;
mod job;
mod query;
mod shard;
mod shard_file;
use crate::{CompressedGraph, Cost, Error, Graph, GraphBuilder, NextHop, NodeId, TableRef};
pub use job::GridRepairJob;
pub use shard::GridShard;
pub use shard_file::{GridShardFile, MergedTable};

/// Marks a blocked cell in the cell-to-node map.
const NO_NODE: u32 = u32::MAX;

/// The exact all-pairs oracle of a grid: from any open cell, which direction(s) lead along a
/// shortest path to any other open cell.
///
/// Only open cells become nodes. 4-connected grids cost 1 per step; 8-connected grids cost 1
/// per straight step and √2 per diagonal step, compared exactly (see [`Cost`]), with no corner
/// cutting. Blocked or outside cells get `None` from the plain queries and an error naming the
/// cell from the `try_` ones; they never get a step.
///
/// ```
/// use signposts::grid::{Cell, Connectivity, Direction, Grid, GridOracle};
/// let grid = Grid::from_ascii("
///     ....
///     .##.
///     ....
/// ")?;
/// let oracle = GridOracle::build(&grid, Connectivity::Four)?;
/// let (from, to) = (Cell::new(0, 1), Cell::new(3, 1));
/// assert_eq!(oracle.next_steps(from, to).collect::<Vec<_>>(), [Direction::North, Direction::South]);
/// assert_eq!(oracle.distance(from, to), Some(5.0));
/// assert_eq!(oracle.next_step(from, Cell::new(1, 1)), None); // a wall
/// # Ok::<(), signposts::Error>(())
/// ```
#[derive(Clone)]
pub struct GridOracle {
    grid: Grid,
    connectivity: Connectivity,
    table: Table,
    /// Per cell, row-major: its node, or `NO_NODE` when blocked.
    node: Vec<u32>,
    /// Per node: its cell.
    cell: Vec<Cell>,
}

/// The table behind an oracle: dense (every optimal move, editable in place) or compressed
/// (runs of first moves; see [`compressed`](crate::compressed)).
#[derive(Clone)]
#[expect(
    clippy::large_enum_variant,
    reason = "one per map, read by every query: a box would add a pointer to follow"
)]
enum Table {
    Dense(Graph),
    Compressed(CompressedGraph),
}

/// Which table a [`GridOracle`] holds: see [`BuildOptions::build_grid`](crate::BuildOptions::build_grid).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// Every optimal move, one load a query, edited in place
    /// ([`GridOracle::set_blocked`]); [`GridOracle::memory_needed`] bytes.
    Dense,
    /// Runs of first moves ([`compressed`](crate::compressed)): a fraction of the memory on
    /// large maps, a few loads a query, edited by an overlay of fresh rows and columns
    /// ([`CompressedGraph::apply`]).
    Compressed,
}

impl TableKind {
    /// Dense when its table fits in `dense_up_to` bytes ([`GridOracle::memory_needed`]),
    /// compressed otherwise: the `signposts` command-line tool's choice, with 512 MiB.
    ///
    /// ```
    /// use signposts::grid::{Connectivity, Grid, TableKind};
    /// let grid = Grid::new(300, 300); // 90,000 cells: a dense table of about 1 GiB
    /// assert_eq!(TableKind::for_memory(&grid, Connectivity::Four, 512 << 20), TableKind::Compressed);
    /// assert_eq!(TableKind::for_memory(&grid, Connectivity::Four, 4 << 30), TableKind::Dense);
    /// ```
    #[must_use]
    pub fn for_memory(grid: &Grid, connectivity: Connectivity, dense_up_to: u64) -> TableKind {
        if GridOracle::memory_needed(grid, connectivity) <= dense_up_to {
            TableKind::Dense
        } else {
            TableKind::Compressed
        }
    }
}

impl fmt::Debug for GridOracle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GridOracle")
            .field("width", &self.grid.width())
            .field("height", &self.grid.height())
            .field("connectivity", &self.connectivity)
            .field("compressed", &self.is_compressed())
            .field("nodes", &self.cell.len())
            .field("memory_bytes", &self.memory_bytes())
            .finish_non_exhaustive()
    }
}

impl GridOracle {
    /// The compressed table, when the oracle has one: its size and runs.
    #[must_use]
    pub fn compressed_table(&self) -> Option<&CompressedGraph> {
        match &self.table {
            Table::Compressed(graph) => Some(graph),
            Table::Dense(_) => None,
        }
    }

    /// Whether the table is compressed ([`GridOracle::build_compressed`]).
    #[must_use]
    pub fn is_compressed(&self) -> bool {
        matches!(self.table, Table::Compressed(_))
    }

    /// The table behind the oracle, dense or compressed, as a node-level [`NextHop`](crate::NextHop)
    /// oracle: node `v` is the open cell [`GridOracle::cell`]`(v)`, and
    /// [`GridOracle::node`] maps a cell back. Game code written against [`NextHop`](crate::NextHop) takes it
    /// as it takes any other table.
    ///
    /// ```
    /// use signposts::NextHop;
    /// use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
    /// let oracle = GridOracle::build(&Grid::new(4, 4), Connectivity::Eight)?;
    /// let (from, to) = (oracle.node(Cell::new(0, 0)).unwrap(), oracle.node(Cell::new(3, 3)).unwrap());
    /// let step = oracle.table().neighbor_to(from, to).unwrap();
    /// assert_eq!(oracle.cell(step), Some(Cell::new(1, 1)));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn table(&self) -> TableRef<'_> {
        match &self.table {
            Table::Dense(graph) => TableRef::Dense(graph),
            Table::Compressed(graph) => TableRef::Compressed(graph),
        }
    }

    /// The grid.
    ///
    /// ```
    /// use signposts::grid::{Connectivity, Grid, GridOracle};
    /// let oracle = GridOracle::build(&Grid::new(2, 3), Connectivity::Four)?;
    /// assert_eq!(oracle.grid().height(), 3);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// How the grid is connected.
    ///
    /// ```
    /// use signposts::grid::{Connectivity, Grid, GridOracle};
    /// let oracle = GridOracle::build(&Grid::new(2, 2), Connectivity::Eight)?;
    /// assert_eq!(oracle.connectivity(), Connectivity::Eight);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn connectivity(&self) -> Connectivity {
        self.connectivity
    }

    /// Number of nodes: the open cells (and cells blocked since the build).
    ///
    /// ```
    /// use signposts::grid::{Connectivity, Grid, GridOracle};
    /// let grid = Grid::from_ascii("#..")?;
    /// assert_eq!(GridOracle::build(&grid, Connectivity::Four)?.nodes_len(), 2);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn nodes_len(&self) -> usize {
        self.cell.len()
    }

    /// Number of allowed moves between open cells, each counted once.
    ///
    /// ```
    /// use signposts::grid::{Connectivity, Grid, GridOracle};
    /// let grid = Grid::new(2, 2);
    /// assert_eq!(GridOracle::build(&grid, Connectivity::Four)?.edges_len(), 4);
    /// assert_eq!(GridOracle::build(&grid, Connectivity::Eight)?.edges_len(), 6);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn edges_len(&self) -> usize {
        match &self.table {
            Table::Dense(graph) => graph.edges_len(),
            Table::Compressed(graph) => graph.edges_len(),
        }
    }

    /// Bytes held: the table, the graph, the grid and the cell maps.
    ///
    /// ```
    /// use signposts::grid::{Connectivity, Grid, GridOracle};
    /// let oracle = GridOracle::build(&Grid::new(8, 8), Connectivity::Four)?;
    /// assert!(oracle.memory_bytes() > 64 * 64 / 8);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        let table = match &self.table {
            Table::Dense(graph) => graph.memory_bytes(),
            Table::Compressed(graph) => graph.memory_bytes(),
        };
        table + self.node.len() * 4 + self.cell.len() * 8 + self.grid.passable.len()
    }

    /// The node of an open cell (`None` for blocked or outside cells).
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
    /// let oracle = GridOracle::build(&Grid::from_ascii("#..")?, Connectivity::Four)?;
    /// assert_eq!((oracle.node(Cell::new(0, 0)), oracle.node(Cell::new(1, 0))), (None, Some(0)));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn node(&self, cell: Cell) -> Option<NodeId> {
        if !self.grid.is_passable(cell) {
            return None;
        }
        let n = self.node[self.grid.index(cell)];
        (n != NO_NODE).then_some(n)
    }

    /// The cell of a node (`None` when out of range).
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
    /// let oracle = GridOracle::build(&Grid::from_ascii("#..")?, Connectivity::Four)?;
    /// assert_eq!(oracle.cell(1), Some(Cell::new(2, 0)));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn cell(&self, node: NodeId) -> Option<Cell> {
        self.cell.get(node as usize).copied()
    }

    #[cold]
    fn out_of_bounds(&self, cell: Cell) -> Error {
        Error::CellOutOfBounds { x: cell.x, y: cell.y, width: self.grid.width(), height: self.grid.height() }
    }

    fn require(&self, cell: Cell) -> Result<NodeId, Error> {
        if !self.grid.contains(cell) {
            return Err(self.out_of_bounds(cell));
        }
        self.node(cell).ok_or(Error::CellBlocked { x: cell.x, y: cell.y })
    }
}
