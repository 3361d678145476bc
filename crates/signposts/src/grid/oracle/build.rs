//! Building a [`GridOracle`]: the grid's graph (open cells as nodes), then its table.

use super::{
    Cell, CompressedGraph, Connectivity, CostModel, Direction, Error, GraphBuilder, Grid, GridOracle,
    NO_NODE, NodeId, Table, TableKind,
};
use crate::BuildOptions;

impl GridOracle {
    /// Builds the oracle of `grid`: its dense table.
    ///
    /// A memory limit, progress reports, cancellation, a thread count, the GPU or a
    /// compressed table chosen at run time: [`BuildOptions::build_grid`].
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
        GridOracle::build_by(grid, connectivity, TableKind::Dense, &BuildOptions::new())
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
    /// let oracle = GridOracle::build_compressed(&grid, Connectivity::Four)?;
    /// assert!(oracle.is_compressed());
    /// assert_eq!(oracle.distance(Cell::new(0, 1), Cell::new(3, 1)), Some(5.0));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn build_compressed(grid: &Grid, connectivity: Connectivity) -> Result<GridOracle, Error> {
        GridOracle::build_by(grid, connectivity, TableKind::Compressed, &BuildOptions::new())
    }

    /// The `kind` of table for `grid` as `options` say ([`BuildOptions::build_grid`]): a
    /// compressed table's node count checked first, before the graph is made.
    pub(crate) fn build_by(
        grid: &Grid,
        connectivity: Connectivity,
        kind: TableKind,
        options: &BuildOptions<'_>,
    ) -> Result<GridOracle, Error> {
        if kind == TableKind::Compressed {
            CompressedGraph::check_nodes(grid.passable_len())?;
        }
        let (builder, node, cell) = GridOracle::graph_of(grid, connectivity, &grid.passable)?;
        let table = match kind {
            TableKind::Dense => Table::Dense(options.build(&builder)?),
            TableKind::Compressed => Table::Compressed(options.build_compressed(&builder)?),
        };
        Ok(GridOracle { grid: grid.clone(), connectivity, table, node, cell })
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
    pub(super) fn graph_of(
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
    pub(super) fn nodes_of(grid: &Grid, has_node: &[bool]) -> Result<(Vec<u32>, Vec<Cell>), Error> {
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
    pub(super) fn builder_of(
        grid: &Grid,
        connectivity: Connectivity,
        node: &[u32],
        cell: &[Cell],
    ) -> Result<GraphBuilder, Error> {
        let mut builder = GraphBuilder::try_new(cell.len())?;
        let forward: &[Direction] = match connectivity {
            Connectivity::Four => &[Direction::East, Direction::South],
            Connectivity::Eight | Connectivity::EightUnit => {
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
                    builder.connect_weighted(a as NodeId, b, arc_cost(connectivity, d));
                }
            }
        }
        if connectivity == Connectivity::Eight {
            builder.set_model(CostModel::Octile);
        }
        Ok(builder)
    }
}

/// The stored cost of a move: 2 marks a diagonal under the octile model (√2), every other
/// move costs 1.
pub(super) fn arc_cost(connectivity: Connectivity, direction: Direction) -> u32 {
    if connectivity == Connectivity::Eight && direction.is_diagonal() { 2 } else { 1 }
}
