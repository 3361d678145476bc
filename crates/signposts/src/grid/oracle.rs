//! [`GridOracle`]: the first-move oracle of a tile grid, answering in cells and directions.

use core::fmt;

use super::{Cell, Connectivity, Direction, Grid};
use crate::builder::CostModel;
use crate::io::{Check, KIND_GRID, KIND_GRID_COMPRESSED, Source};

mod shard;
use crate::{Cancel, CompressedGraph, Cost, Error, Graph, GraphBuilder, NextHop, NodeId, Progress, TableRef};
pub use shard::GridShard;

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

/// Which table a [`GridOracle`] holds: see [`GridOracle::build_table`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// Every optimal move, one load a query, edited in place
    /// ([`GridOracle::set_blocked`]); [`GridOracle::memory_needed`] bytes.
    Dense,
    /// Runs of first moves ([`compressed`](crate::compressed)): a fraction of the memory on
    /// large maps, a few loads a query, not editable.
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
    /// Builds the oracle of `grid`.
    ///
    /// # Errors
    /// As [`GraphBuilder::try_build`]: [`Error::AllocationFailed`] when the table does not
    /// fit in memory.
    ///
    /// ```
    /// use signposts::grid::{Connectivity, Grid, GridOracle};
    /// let oracle = GridOracle::build(&Grid::new(3, 3), Connectivity::Eight)?;
    /// assert_eq!(oracle.nodes_len(), 9);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn build(grid: &Grid, connectivity: Connectivity) -> Result<GridOracle, Error> {
        GridOracle::build_with(grid, connectivity, None, |_| {})
    }

    /// Builds the oracle with a memory limit (an error before allocating past it) and a
    /// progress callback (see [`GraphBuilder::build_with_progress`]).
    ///
    /// # Errors
    /// [`Error::OverMemoryLimit`] past `memory_limit`; [`Error::AllocationFailed`].
    ///
    /// ```
    /// use signposts::grid::{Connectivity, Grid, GridOracle};
    /// let err = GridOracle::build_with(&Grid::new(100, 100), Connectivity::Four, Some(1 << 20), |_| {});
    /// assert!(matches!(err, Err(signposts::Error::OverMemoryLimit { .. })));
    /// ```
    pub fn build_with(
        grid: &Grid,
        connectivity: Connectivity,
        memory_limit: Option<u64>,
        progress: impl Fn(Progress) + Sync,
    ) -> Result<GridOracle, Error> {
        let (mut builder, node, cell) = GridOracle::graph_of(grid, connectivity, &grid.passable)?;
        if let Some(limit) = memory_limit {
            builder.memory_limit(limit);
        }
        let graph = builder.build_with_progress(progress)?;
        Ok(GridOracle { grid: grid.clone(), connectivity, table: Table::Dense(graph), node, cell })
    }

    /// Builds a compressed oracle of `grid` (see [`compressed`](crate::compressed)): the same
    /// queries from a fraction of the memory on large maps; [`GridOracle::next_steps`] returns
    /// the optimal steps kept in the run (at least one), and [`GridOracle::set_blocked`] is
    /// not available.
    ///
    /// # Errors
    /// [`Error::TooManyNodes`] for grids of 2^24 open cells or more (the compressed format's
    /// limit), found from the count before any work; [`Error::TooManyArcs`] past its arc limit.
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
    /// let grid = Grid::from_ascii("
    ///     ....
    ///     .##.
    ///     ....
    /// ")?;
    /// let oracle = GridOracle::build_compressed(&grid, Connectivity::Four, |_| {})?;
    /// assert!(oracle.is_compressed());
    /// assert_eq!(oracle.distance(Cell::new(0, 1), Cell::new(3, 1)), Some(5.0));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn build_compressed(
        grid: &Grid,
        connectivity: Connectivity,
        progress: impl Fn(Progress) + Sync,
    ) -> Result<GridOracle, Error> {
        CompressedGraph::check_nodes(grid.passable_len())?;
        let (builder, node, cell) = GridOracle::graph_of(grid, connectivity, &grid.passable)?;
        let compressed = builder.build_compressed_with_progress(progress)?;
        Ok(GridOracle { grid: grid.clone(), connectivity, table: Table::Compressed(compressed), node, cell })
    }

    /// Builds the `kind` of table for `grid`, for callers that choose the kind at run time and
    /// may stop the build from another thread (a game engine's background task): the dense
    /// build as [`GridOracle::build_with`] (`memory_limit` checked before allocating), the
    /// compressed one as [`GridOracle::build_compressed`] (`memory_limit` does not apply: its
    /// size is known only once built). Once `cancel` is cancelled no further batch of targets
    /// starts and the build returns [`Error::Cancelled`].
    ///
    /// # Errors
    /// As [`GridOracle::build_with`] or [`GridOracle::build_compressed`]; [`Error::Cancelled`].
    ///
    /// ```
    /// use signposts::Cancel;
    /// use signposts::grid::{Connectivity, Grid, GridOracle, TableKind};
    /// let grid = Grid::new(20, 20);
    /// let kind = TableKind::for_memory(&grid, Connectivity::Eight, 512 << 20);
    /// assert_eq!(kind, TableKind::Dense); // 400 cells: a dense table of 0.3 MiB
    /// let cancel = Cancel::new();
    /// let oracle = GridOracle::build_table(&grid, Connectivity::Eight, kind, None, |_| {}, &cancel)?;
    /// assert!(!oracle.is_compressed());
    /// cancel.cancel();
    /// let stopped = GridOracle::build_table(&grid, Connectivity::Eight, TableKind::Compressed, None, |_| {}, &cancel);
    /// assert!(matches!(stopped, Err(signposts::Error::Cancelled)));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn build_table(
        grid: &Grid,
        connectivity: Connectivity,
        kind: TableKind,
        memory_limit: Option<u64>,
        progress: impl Fn(Progress) + Sync,
        cancel: &Cancel,
    ) -> Result<GridOracle, Error> {
        GridOracle::with_table(grid, connectivity, kind, |mut builder| {
            Ok(match kind {
                TableKind::Dense => {
                    if let Some(limit) = memory_limit {
                        builder.memory_limit(limit);
                    }
                    Table::Dense(builder.build_with_cancel(progress, cancel)?)
                }
                TableKind::Compressed => {
                    Table::Compressed(builder.build_compressed_with_cancel(progress, cancel)?)
                }
            })
        })
    }

    /// The oracle of `grid` with the `kind` of table `build` makes of its graph: a compressed
    /// table's node count checked first, before the graph is made.
    fn with_table(
        grid: &Grid,
        connectivity: Connectivity,
        kind: TableKind,
        build: impl FnOnce(GraphBuilder) -> Result<Table, Error>,
    ) -> Result<GridOracle, Error> {
        if kind == TableKind::Compressed {
            CompressedGraph::check_nodes(grid.passable_len())?;
        }
        let (builder, node, cell) = GridOracle::graph_of(grid, connectivity, &grid.passable)?;
        let table = build(builder)?;
        Ok(GridOracle { grid: grid.clone(), connectivity, table, node, cell })
    }

    /// Builds the `kind` of table for `grid` on the GPU (feature `gpu`): the same oracle as
    /// [`GridOracle::build_table`], byte for byte (see [`GraphBuilder::build_gpu`] and
    /// [`GraphBuilder::build_compressed_gpu`]), 4-connected or octile.
    ///
    /// # Errors
    /// As [`GraphBuilder::build_gpu`] or [`GraphBuilder::build_compressed_gpu`].
    ///
    /// ```no_run
    /// use signposts::grid::{Connectivity, Grid, GridOracle, TableKind};
    /// let gpu = signposts::gpu::GpuContext::new()?;
    /// let grid = Grid::new(100, 100);
    /// let oracle = GridOracle::build_gpu(&grid, Connectivity::Four, TableKind::Dense, &gpu, |_| {})?;
    /// assert_eq!(oracle.nodes_len(), 10_000);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[cfg(feature = "gpu")]
    pub fn build_gpu(
        grid: &Grid,
        connectivity: Connectivity,
        kind: TableKind,
        gpu: &crate::gpu::GpuContext,
        progress: impl Fn(Progress) + Sync,
    ) -> Result<GridOracle, Error> {
        GridOracle::with_table(grid, connectivity, kind, |builder| {
            Ok(match kind {
                TableKind::Dense => Table::Dense(builder.build_gpu(gpu, progress)?),
                TableKind::Compressed => Table::Compressed(builder.build_compressed_gpu(gpu, progress)?),
            })
        })
    }

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

    /// Bytes the dense oracle of `grid` will take, computed without building it: exactly
    /// what [`GridOracle::memory_bytes`] reports once [`GridOracle::build`] has built it.
    ///
    /// That is two sizes added up: the dense table of the grid's graph
    /// ([`GraphBuilder::memory_needed`], which is [`Graph::memory_bytes`](crate::Graph::memory_bytes)
    /// of the table alone), plus the oracle's maps between cells and nodes: 5 bytes per cell
    /// (its node id and its passability) and 8 per open cell (its coordinates). On a 49×49
    /// map of 2054 open cells the maps take 2401 · 5 + 2054 · 8 = 28 437 bytes, the difference
    /// between this size and the table's. A compressed oracle
    /// ([`GridOracle::build_compressed`]) is smaller; its size is known after the build. The
    /// build's scratch (freed when it returns) is not counted. Saturates at `u64::MAX`.
    ///
    /// ```
    /// use signposts::grid::{Connectivity, Grid, GridOracle};
    /// let grid = Grid::new(10, 10);
    /// let needed = GridOracle::memory_needed(&grid, Connectivity::Four);
    /// let oracle = GridOracle::build(&grid, Connectivity::Four)?;
    /// assert_eq!(needed, oracle.memory_bytes() as u64);
    /// let table = GridOracle::graph_builder(&grid, Connectivity::Four).memory_needed();
    /// assert_eq!(needed, table + 100 * 5 + 100 * 8);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn memory_needed(grid: &Grid, connectivity: Connectivity) -> u64 {
        let Ok((builder, node, cell)) = GridOracle::graph_of(grid, connectivity, &grid.passable) else {
            return u64::MAX; // the cell maps alone could not be allocated
        };
        let maps = node.len() * size_of::<u32>() + cell.len() * size_of::<Cell>() + grid.passable.len();
        builder.memory_needed().saturating_add(maps as u64)
    }

    /// The graph of the passable cells of `grid`, node ids in row-major order of those cells
    /// (the ids [`GridOracle::node`] gives): for [`GraphBuilder::build_compressed`] and other
    /// builds of the graph itself. Diagonal arcs under [`Connectivity::Eight`] carry the octile
    /// cost model.
    ///
    /// ```
    /// use signposts::grid::{Connectivity, Grid, GridOracle};
    /// let grid = Grid::from_ascii("..#\n...")?;
    /// let builder = GridOracle::graph_builder(&grid, Connectivity::Four);
    /// assert_eq!((builder.nodes_len(), builder.edges_len()), (5, 5));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    ///
    /// # Panics
    /// If the maps between cells and nodes cannot be allocated (the message names the bytes).
    #[must_use]
    pub fn graph_builder(grid: &Grid, connectivity: Connectivity) -> GraphBuilder {
        GridOracle::graph_of(grid, connectivity, &grid.passable).unwrap_or_else(|e| panic!("{e}")).0
    }

    /// The graph of the cells that have nodes (`has_node`, row-major; node ids in that
    /// order), edges between open ones, with the maps between cells and nodes.
    fn graph_of(
        grid: &Grid,
        connectivity: Connectivity,
        has_node: &[bool],
    ) -> Result<(GraphBuilder, Vec<u32>, Vec<Cell>), Error> {
        let (node, cell) = GridOracle::nodes_of(grid, has_node)?;
        let builder = GridOracle::builder_of(grid, connectivity, &node, &cell)?;
        Ok((builder, node, cell))
    }

    /// The maps between cells and nodes: the cells that have nodes (`has_node`, row-major)
    /// numbered in that order.
    fn nodes_of(grid: &Grid, has_node: &[bool]) -> Result<(Vec<u32>, Vec<Cell>), Error> {
        let mut node = crate::memory::try_filled_with(grid.passable.len(), || NO_NODE)?;
        let mut cell = crate::memory::try_with_capacity(has_node.iter().filter(|&&h| h).count())?;
        for y in 0..grid.height() {
            for x in 0..grid.width() {
                let c = Cell { x, y };
                if has_node[grid.index(c)] {
                    node[grid.index(c)] = u32::try_from(cell.len()).expect("cells fit u32 ids");
                    cell.push(c);
                }
            }
        }
        Ok((node, cell))
    }

    /// The graph over [`GridOracle::nodes_of`]'s nodes: edges between open cells.
    fn builder_of(
        grid: &Grid,
        connectivity: Connectivity,
        node: &[u32],
        cell: &[Cell],
    ) -> Result<GraphBuilder, Error> {
        let mut builder = GraphBuilder::try_new(cell.len())?;
        let forward: &[Direction] = match connectivity {
            Connectivity::Four => &[Direction::East, Direction::South],
            Connectivity::Eight => {
                &[Direction::East, Direction::South, Direction::SouthEast, Direction::SouthWest]
            }
        };
        for (a, &c) in cell.iter().enumerate() {
            if !grid.is_passable(c) {
                continue;
            }
            for &d in forward {
                if let Some(to) = grid.step(c, d) {
                    let b = node[grid.index(to)];
                    // Stored cost 2 marks a diagonal under the octile model.
                    builder.connect_weighted(a as NodeId, b, if d.is_diagonal() { 2 } else { 1 });
                }
            }
        }
        if connectivity == Connectivity::Eight {
            builder.set_model(CostModel::Octile);
        }
        Ok(builder)
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

    /// Opens (`false`) or blocks (`true`) a cell and repairs the table in place: the cell's
    /// moves, and the diagonals it allows or forbids beside it, change; every answer then
    /// equals a fresh build's.
    ///
    /// Cells open when the oracle was built keep their node while blocked, so closing and
    /// reopening a door is repaired in place. Opening a cell that was blocked at build time
    /// needs a new node: the oracle is rebuilt ([`Update::rebuilt`](crate::dynamic::Update)).
    ///
    /// # Errors
    /// [`Error::CellOutOfBounds`] for a cell outside the grid; [`Error::AllocationFailed`]
    /// if a rebuild does not fit; [`Error::Unsupported`] for a compressed oracle (nothing is
    /// changed).
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
    /// let grid = Grid::from_ascii("
    ///     .....
    ///     .....
    ///     .....
    /// ")?;
    /// let mut oracle = GridOracle::build(&grid, Connectivity::Four)?;
    /// let door = Cell::new(2, 1);
    /// oracle.set_blocked(door, true)?;
    /// assert_eq!(oracle.distance(Cell::new(1, 1), Cell::new(3, 1)), Some(4.0));
    /// let update = oracle.set_blocked(door, false)?;
    /// assert_eq!(oracle.distance(Cell::new(1, 1), Cell::new(3, 1)), Some(2.0));
    /// assert!(!update.rebuilt);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn set_blocked(&mut self, cell: Cell, blocked: bool) -> Result<crate::dynamic::Update, Error> {
        self.set_blocked_each(&[(cell, blocked)])
    }

    /// [`GridOracle::set_blocked`] for many cells at once (doors closing together, a wall
    /// built): the grid takes every edit, then the table is repaired for all of them in one
    /// [`Graph::apply`], which shares the work of targets several edits touch and rebuilds
    /// instead when the repairs would cost more than a build. The answers are those of a fresh
    /// build of the edited grid, as after one call per cell; a cell listed twice takes its last
    /// state.
    ///
    /// # Errors
    /// As [`GridOracle::set_blocked`]; a cell outside the grid is refused before any edit.
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
    /// let mut oracle = GridOracle::build(&Grid::new(5, 3), Connectivity::Four)?;
    /// let wall = [(Cell::new(2, 0), true), (Cell::new(2, 1), true)];
    /// oracle.set_blocked_each(&wall)?;
    /// assert_eq!(oracle.distance(Cell::new(1, 0), Cell::new(3, 0)), Some(6.0)); // round below
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn set_blocked_each(&mut self, edits: &[(Cell, bool)]) -> Result<crate::dynamic::Update, Error> {
        if let Some(&(cell, _)) = edits.iter().find(|&&(cell, _)| !self.grid.contains(cell)) {
            return Err(self.out_of_bounds(cell));
        }
        if self.is_compressed() {
            return Err(Error::Unsupported {
                what: "editing a compressed oracle (build a dense one to edit)",
            });
        }
        let mut edited = Vec::with_capacity(edits.len());
        let mut rebuild = false;
        for &(cell, blocked) in edits {
            if self.grid.is_passable(cell) == blocked {
                self.grid.set_blocked(cell, blocked);
                edited.push(cell);
                rebuild |= !blocked && self.node[self.grid.index(cell)] == NO_NODE;
            }
        }
        if rebuild {
            *self = GridOracle::build(&self.grid, self.connectivity)?;
            return Ok(crate::dynamic::Update::rebuilt(self.nodes_len()));
        }
        // Cells a step apart share edges: each edge's change once.
        let mut changes = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for cell in edited {
            for change in self.edge_changes(cell) {
                let pair = match change {
                    crate::dynamic::Change::ConnectWeighted(u, v, _)
                    | crate::dynamic::Change::Disconnect(u, v) => (u, v),
                    _ => unreachable!("edge_changes connects and disconnects only"),
                };
                if seen.insert(pair) {
                    changes.push(change);
                }
            }
        }
        match &mut self.table {
            Table::Dense(graph) => graph.apply(&changes),
            Table::Compressed(_) => unreachable!("refused above"),
        }
    }

    /// The edges around `cell` whose presence differs from what the grid allows now.
    fn edge_changes(&self, cell: Cell) -> Vec<crate::dynamic::Change> {
        use crate::dynamic::Change;
        let directions: &[Direction] = match self.connectivity {
            Connectivity::Four => &[Direction::East, Direction::South, Direction::West, Direction::North],
            Connectivity::Eight => &Direction::ALL,
        };
        // Every move between two cells of the 3×3 block around `cell` may change.
        let block: Vec<Cell> = (-1i32..=1)
            .flat_map(|dy| (-1i32..=1).map(move |dx| (dx, dy)))
            .filter_map(|(dx, dy)| {
                Some(Cell::new(cell.x.checked_add_signed(dx)?, cell.y.checked_add_signed(dy)?))
            })
            .filter(|&c| self.grid.contains(c))
            .collect();
        let mut changes = Vec::new();
        for &p in &block {
            let Some(&u) = self.node.get(self.grid.index(p)).filter(|&&n| n != NO_NODE) else { continue };
            for &d in directions {
                let Some(q) = p.step(d).filter(|&q| self.grid.contains(q) && block.contains(&q)) else {
                    continue;
                };
                let v = self.node[self.grid.index(q)];
                if v == NO_NODE || u > v {
                    continue;
                }
                let allowed = self.grid.step(p, d).is_some();
                let Table::Dense(graph) = &self.table else { unreachable!("edits are dense only") };
                let present = graph.neighbors(u).binary_search(&v).is_ok();
                if allowed && !present {
                    changes.push(Change::ConnectWeighted(u, v, if d.is_diagonal() { 2 } else { 1 }));
                } else if !allowed && present {
                    changes.push(Change::Disconnect(u, v));
                }
            }
        }
        changes
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

    fn direction(&self, from: NodeId, to: NodeId) -> Direction {
        let (a, b) = (self.cell[from as usize], self.cell[to as usize]);
        let dx = i32::try_from(i64::from(b.x) - i64::from(a.x)).unwrap_or(i32::MAX);
        let dy = i32::try_from(i64::from(b.y) - i64::from(a.y)).unwrap_or(i32::MAX);
        Direction::from_delta(dx, dy).expect("graph arcs join adjacent cells")
    }

    /// One optimal first step from `from` toward `to`. `None` when `from == to`, when `to`
    /// cannot be reached, or when either cell is blocked or outside the grid (see
    /// [`GridOracle::try_next_step`] to tell these apart).
    ///
    /// # Complexity
    /// O(1): one table load.
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Direction, Grid, GridOracle};
    /// let oracle = GridOracle::build(&Grid::new(5, 5), Connectivity::Eight)?;
    /// assert_eq!(oracle.next_step(Cell::new(0, 0), Cell::new(4, 4)), Some(Direction::SouthEast));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn next_step(&self, from: Cell, to: Cell) -> Option<Direction> {
        self.try_next_step(from, to).ok().flatten()
    }

    /// [`GridOracle::next_step`], with an error for a blocked or outside cell.
    ///
    /// # Errors
    /// [`Error::CellOutOfBounds`] or [`Error::CellBlocked`] naming the first bad cell.
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
    /// let oracle = GridOracle::build(&Grid::from_ascii("..#")?, Connectivity::Four)?;
    /// assert_eq!(oracle.try_next_step(Cell::new(0, 0), Cell::new(2, 0)), Err(signposts::Error::CellBlocked { x: 2, y: 0 }));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn try_next_step(&self, from: Cell, to: Cell) -> Result<Option<Direction>, Error> {
        let (u, t) = (self.require(from)?, self.require(to)?);
        Ok(self.table().neighbor_to(u, t).map(|v| self.direction(u, v)))
    }

    /// [`GridOracle::next_step`] for many `(from, to)` queries at once (an army's steps
    /// toward its targets), written to `out` (cleared first): answers equal one
    /// [`GridOracle::next_step`] call per query, but the table's memory of many queries is
    /// asked for before any is read ([`Graph::neighbor_to_each`],
    /// [`CompressedGraph::neighbor_to_each`]), which pays off on tables larger than the cache.
    ///
    /// # Complexity
    /// Per query, as [`GridOracle::next_step`]; one allocation of scratch per call.
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Direction, Grid, GridOracle};
    /// let oracle = GridOracle::build_compressed(&Grid::from_ascii(".....\n.###.\n.....")?, Connectivity::Four, |_| {})?;
    /// let mut steps = Vec::new();
    /// let to = Cell::new(4, 2);
    /// oracle.next_step_each(&[(Cell::new(4, 0), to), (Cell::new(1, 1), to), (to, to)], &mut steps);
    /// assert_eq!(steps, [Some(Direction::South), None, None]); // (1, 1) is a wall
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn next_step_each(&self, queries: &[(Cell, Cell)], out: &mut Vec<Option<Direction>>) {
        let nodes = |(from, to): (Cell, Cell)| match (self.node(from), self.node(to)) {
            (Some(u), Some(t)) => (u, t),
            _ => (0, 0), // node 0's step to itself: none
        };
        self.steps_each(
            queries,
            nodes,
            |(u, _)| u,
            |nodes, next| self.table().neighbor_to_each(nodes, next),
            out,
        );
    }

    /// [`GridOracle::next_step_each`] that spreads a crowd over the tied steps: query
    /// `(from, to, seed)` takes the optimal move number `seed % k` of the `k` the table keeps
    /// ([`NextHop::neighbor_to_each_spread`]), so walkers with different seeds (a hash of
    /// their entity) heading the same way fan out over the shortest paths instead of walking
    /// in single file, and each one takes the same way from the same cell. Every step is on a
    /// shortest path; `None` where [`GridOracle::next_step`] is.
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Direction, Grid, GridOracle};
    /// let oracle = GridOracle::build(&Grid::new(4, 4), Connectivity::Four)?;
    /// let (from, to) = (Cell::new(0, 0), Cell::new(3, 3));
    /// let mut steps = Vec::new();
    /// oracle.next_step_each_spread(&[(from, to, 0), (from, to, 1)], &mut steps);
    /// assert_eq!(steps, [Some(Direction::East), Some(Direction::South)]);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn next_step_each_spread(&self, queries: &[(Cell, Cell, u64)], out: &mut Vec<Option<Direction>>) {
        let nodes = |(from, to, seed): (Cell, Cell, u64)| match (self.node(from), self.node(to)) {
            (Some(u), Some(t)) => (u, t, seed),
            _ => (0, 0, 0), // node 0's step to itself: none
        };
        let batch = |nodes: &[(NodeId, NodeId, u64)], next: &mut Vec<Option<NodeId>>| {
            self.table().neighbor_to_each_spread(nodes, next);
        };
        self.steps_each(queries, nodes, |(u, _, _)| u, batch, out);
    }

    /// Answers cell queries a chunk at a time: each turned into a node query by `nodes` (a
    /// blocked or outside cell into node 0's step to itself, none), the chunk answered by
    /// `batch`, each step turned into a direction from the query's node `from`.
    fn steps_each<Q: Copy, N: Copy>(
        &self,
        queries: &[Q],
        nodes: impl Fn(Q) -> N,
        from: impl Fn(N) -> NodeId,
        batch: impl Fn(&[N], &mut Vec<Option<NodeId>>),
        out: &mut Vec<Option<Direction>>,
    ) {
        const CHUNK: usize = 1024;
        out.clear();
        if self.nodes_len() == 0 {
            out.resize(queries.len(), None); // every cell blocked or outside
            return;
        }
        out.reserve(queries.len());
        let (mut chunk_nodes, mut next) = (Vec::with_capacity(CHUNK.min(queries.len())), Vec::new());
        for chunk in queries.chunks(CHUNK) {
            chunk_nodes.clear();
            chunk_nodes.extend(chunk.iter().map(|&q| nodes(q)));
            batch(&chunk_nodes, &mut next);
            out.extend(chunk_nodes.iter().zip(&next).map(|(&n, &v)| v.map(|v| self.direction(from(n), v))));
        }
    }

    /// Every optimal first step, clockwise from north. Empty in the cases where
    /// [`GridOracle::next_step`] is `None`.
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Direction, Grid, GridOracle};
    /// let oracle = GridOracle::build(&Grid::new(5, 5), Connectivity::Four)?;
    /// let steps: Vec<_> = oracle.next_steps(Cell::new(0, 0), Cell::new(2, 2)).collect();
    /// assert_eq!(steps, [Direction::East, Direction::South]);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn next_steps(&self, from: Cell, to: Cell) -> impl Iterator<Item = Direction> + '_ {
        let mut steps: Vec<Direction> = match (self.node(from), self.node(to)) {
            (Some(u), Some(t)) => self.table().neighbors_to(u, t).map(|v| self.direction(u, v)).collect(),
            _ => Vec::new(),
        };
        steps.sort_unstable();
        steps.into_iter()
    }

    /// The cells of one shortest path, both ends included; `[from]` when equal; empty when
    /// `to` cannot be reached or a cell is blocked or outside.
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
    /// let oracle = GridOracle::build(&Grid::new(3, 1), Connectivity::Four)?;
    /// let path: Vec<_> = oracle.path(Cell::new(0, 0), Cell::new(2, 0)).collect();
    /// assert_eq!(path, [Cell::new(0, 0), Cell::new(1, 0), Cell::new(2, 0)]);
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn path(&self, from: Cell, to: Cell) -> impl Iterator<Item = Cell> + '_ {
        let (mut dense, mut compressed) = (None, None);
        match (self.node(from), self.node(to), &self.table) {
            (Some(u), Some(t), Table::Dense(graph)) => dense = Some(graph.path_to(u, t)),
            (Some(u), Some(t), Table::Compressed(graph)) => compressed = Some(graph.path_to(u, t)),
            _ => {}
        }
        dense.into_iter().flatten().chain(compressed.into_iter().flatten()).map(|v| self.cell[v as usize])
    }

    /// The exact cost of a shortest path (`straight + diagonal · √2`), or `None` when
    /// unreachable, blocked or outside.
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
    /// let oracle = GridOracle::build(&Grid::new(4, 3), Connectivity::Eight)?;
    /// let cost = oracle.cost(Cell::new(0, 0), Cell::new(3, 2)).unwrap();
    /// assert_eq!((cost.straight, cost.diagonal), (1, 2));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn cost(&self, from: Cell, to: Cell) -> Option<Cost> {
        let (u, t) = (self.node(from)?, self.node(to)?);
        self.table().cost(u, t)
    }

    /// The length of a shortest path, or `None` when unreachable, blocked or outside.
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
    /// let oracle = GridOracle::build(&Grid::new(2, 2), Connectivity::Eight)?;
    /// assert_eq!(oracle.distance(Cell::new(0, 0), Cell::new(1, 1)), Some(2f64.sqrt()));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn distance(&self, from: Cell, to: Cell) -> Option<f64> {
        self.cost(from, to).map(Cost::value)
    }

    /// Whether `to` can be reached from `from` (false for blocked or outside cells).
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
    /// let oracle = GridOracle::build(&Grid::from_ascii(".#.")?, Connectivity::Four)?;
    /// assert!(!oracle.path_exists(Cell::new(0, 0), Cell::new(2, 0)));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[must_use]
    pub fn path_exists(&self, from: Cell, to: Cell) -> bool {
        match (self.node(from), self.node(to)) {
            (Some(u), Some(t)) => self.table().path_exists(u, t),
            _ => false,
        }
    }
}

impl GridOracle {
    /// Writes the grid, its connectivity and the table (see the [`io`](crate::io) module).
    ///
    /// # Errors
    /// [`Error::Io`] when writing fails.
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
    /// let oracle = GridOracle::build(&Grid::from_ascii("..#\n...")?, Connectivity::Eight)?;
    /// let mut bytes = Vec::new();
    /// oracle.save(&mut bytes)?;
    /// let loaded = GridOracle::load(bytes.as_slice())?;
    /// assert_eq!(loaded.distance(Cell::new(0, 0), Cell::new(2, 1)), oracle.distance(Cell::new(0, 0), Cell::new(2, 1)));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn save(&self, sink: impl std::io::Write) -> Result<(), Error> {
        let mut w = crate::io::Writer::new(sink);
        w.header(if self.is_compressed() { KIND_GRID_COMPRESSED } else { KIND_GRID })?;
        shard::write_grid(&mut w, &self.grid, self.connectivity)?;
        // Cells with a node: the open ones, and those blocked after the build.
        let has_node: Vec<bool> = self.node.iter().map(|&n| n != NO_NODE).collect();
        w.u64s(&shard::bits(&has_node))?;
        match &self.table {
            Table::Dense(graph) => graph.write_body(&mut w)?,
            Table::Compressed(graph) => graph.write_body(&mut w)?,
        }
        w.finish()
    }

    /// Reads an oracle written by [`GridOracle::save`], checking that the table belongs to the
    /// stored grid. The table is checked as [`Graph::load`](crate::Graph::load) or
    /// [`CompressedGraph::load`] check theirs, so an edited file is an error or an oracle
    /// whose queries and [`GridOracle::set_blocked`] cannot panic or loop.
    ///
    /// # Errors
    /// As [`Graph::load`](crate::Graph::load).
    ///
    /// ```
    /// assert!(signposts::grid::GridOracle::load(&b"SIGNPOST"[..]).is_err());
    /// ```
    pub fn load(source: impl std::io::Read) -> Result<GridOracle, Error> {
        let (mut r, kind) = crate::io::Reader::open_any(source, &[KIND_GRID, KIND_GRID_COMPRESSED])?;
        let oracle = GridOracle::read_body(&mut r, kind, Check::Full)?;
        r.finish()?;
        oracle.check_grid()?;
        Ok(oracle)
    }

    /// Reads the grid, then the table ([`Graph`] or [`CompressedGraph`] as `kind` says),
    /// checked as `check` says.
    fn read_body(r: &mut impl Source, kind: u32, check: Check) -> Result<GridOracle, Error> {
        use crate::io::corrupt;
        let (grid, connectivity) = shard::read_grid(r)?;
        let has_node = shard::unpack(r, grid.passable.len())?;
        if grid.passable.iter().zip(&has_node).any(|(&p, &n)| p && !n) {
            return Err(corrupt("an open cell has no node"));
        }
        let table = if kind == KIND_GRID_COMPRESSED {
            Table::Compressed(CompressedGraph::read_body(r, check)?)
        } else {
            Table::Dense(Graph::read_body(r, check)?)
        };
        let (node, cell) = GridOracle::nodes_of(&grid, &has_node)?;
        let nodes = match &table {
            Table::Dense(graph) => graph.nodes_len(),
            Table::Compressed(graph) => graph.nodes_len(),
        };
        if cell.len() != nodes {
            return Err(corrupt("the table does not belong to the stored grid"));
        }
        Ok(GridOracle { grid, connectivity, table, node, cell })
    }

    /// Checks that the table is the stored grid's graph, by fingerprint.
    fn check_grid(&self) -> Result<(), Error> {
        let builder = GridOracle::builder_of(&self.grid, self.connectivity, &self.node, &self.cell)?;
        // A compressed table's fingerprint counts unit costs, as the builder of a 4-connected
        // grid has them.
        let fingerprint = match &self.table {
            Table::Dense(graph) => graph.fingerprint(),
            Table::Compressed(graph) => graph.fingerprint(),
        };
        if builder.fingerprint() != fingerprint {
            return Err(crate::io::corrupt("the table does not belong to the stored grid"));
        }
        Ok(())
    }

    /// Opens a saved oracle in place, as [`Graph::from_bytes`] and
    /// [`CompressedGraph::from_bytes`] open theirs: the table is read where `bytes` holds it.
    /// Opening reads the grid (a bit per cell) and builds the maps between cells and nodes,
    /// O(cells); with [`Check::Sizes`] nothing of the table but its header.
    /// [`GridOracle::verify`] checks the rest on demand.
    ///
    /// # Errors
    /// As [`GridOracle::load`]; [`Error::Truncated`] when the file is shorter than its
    /// header's counts say.
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
    /// use signposts::io::Check;
    /// let oracle = GridOracle::build(&Grid::from_ascii("..#\n...")?, Connectivity::Eight)?;
    /// let mut bytes = Vec::new();
    /// oracle.save(&mut bytes)?;
    /// let opened = GridOracle::from_bytes(bytes, Check::Sizes)?;
    /// assert_eq!(opened.next_step(Cell::new(0, 0), Cell::new(2, 1)), oracle.next_step(Cell::new(0, 0), Cell::new(2, 1)));
    /// opened.verify()?;
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn from_bytes(
        bytes: impl AsRef<[u8]> + Send + Sync + 'static,
        check: Check,
    ) -> Result<GridOracle, Error> {
        GridOracle::open_in_place(crate::buf::share(bytes), check)
    }

    fn open_in_place(bytes: crate::buf::Bytes, check: Check) -> Result<GridOracle, Error> {
        let read = |r: &mut crate::buf::Sections, kind| GridOracle::read_body(r, kind, Check::Sizes);
        crate::io::open_in_place(bytes, &[KIND_GRID, KIND_GRID_COMPRESSED], check, read, GridOracle::verify)
    }

    /// Opens a saved oracle memory-mapped: [`GridOracle::from_bytes`] over the file's pages
    /// (see [`CompressedGraph::map_file`]).
    ///
    /// # Safety
    /// As [`Graph::map_file`]: the file must not be modified or truncated while the oracle or
    /// any clone of it lives.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be opened or mapped; as [`GridOracle::from_bytes`].
    ///
    /// ```no_run
    /// use signposts::{grid::GridOracle, io::Check};
    /// // SAFETY: the game's data files are not written while it runs.
    /// let oracle = unsafe { GridOracle::map_file("arena.signposts", Check::Sizes) }?;
    /// # Ok::<(), signposts::Error>(())
    /// ```
    #[cfg(feature = "mmap")]
    pub unsafe fn map_file(path: impl AsRef<std::path::Path>, check: Check) -> Result<GridOracle, Error> {
        // SAFETY: passed on to the caller.
        GridOracle::open_in_place(unsafe { crate::io::map(path.as_ref()) }?, check)
    }

    /// Checks an oracle opened in place as [`GridOracle::load`] checks a file: the table as
    /// [`Graph::verify`] or [`CompressedGraph::verify`] check theirs, and that it belongs to
    /// the stored grid.
    ///
    /// # Complexity
    /// O(file).
    ///
    /// # Errors
    /// [`Error::Corrupt`] when the checksum or an invariant fails.
    pub fn verify(&self) -> Result<(), Error> {
        match &self.table {
            Table::Dense(graph) => graph.verify()?,
            Table::Compressed(graph) => graph.verify()?,
        }
        self.check_grid()
    }

    /// [`GridOracle::save`] to a file.
    ///
    /// # Errors
    /// As [`GridOracle::save`].
    ///
    /// ```no_run
    /// # let oracle = signposts::grid::GridOracle::build(&signposts::grid::Grid::new(2, 2), signposts::grid::Connectivity::Four)?;
    /// oracle.save_to("arena.signposts")?;
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn save_to(&self, path: impl AsRef<std::path::Path>) -> Result<(), Error> {
        let file =
            std::fs::File::create(path).map_err(|e| Error::Io { kind: e.kind(), message: e.to_string() })?;
        self.save(file)
    }

    /// [`GridOracle::load`] from a file.
    ///
    /// # Errors
    /// As [`GridOracle::load`].
    ///
    /// ```no_run
    /// let oracle = signposts::grid::GridOracle::load_from("arena.signposts")?;
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn load_from(path: impl AsRef<std::path::Path>) -> Result<GridOracle, Error> {
        let file =
            std::fs::File::open(path).map_err(|e| Error::Io { kind: e.kind(), message: e.to_string() })?;
        GridOracle::load(std::io::BufReader::new(file))
    }
}
