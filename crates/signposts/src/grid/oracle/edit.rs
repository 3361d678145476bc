//! Editing a built [`GridOracle`] in place: cells opened and closed, the table repaired.

use super::{Cell, Connectivity, Direction, Error, GridOracle, NO_NODE, Table};

impl GridOracle {
    /// Opens (`false`) or blocks (`true`) a cell and repairs the table in place: the cell's
    /// moves, and the diagonals it allows or forbids beside it, change; every answer then
    /// equals a fresh build's.
    ///
    /// Cells open when the oracle was built keep their node while blocked, so closing and
    /// reopening a door is repaired in place. Opening a cell that was blocked at build time
    /// needs a new node: the oracle is rebuilt ([`Update::rebuilt`](crate::dynamic::Update)).
    ///
    /// A compressed oracle is edited too ([`CompressedGraph::apply`](crate::CompressedGraph::apply)):
    /// its runs stay, and fresh rows and columns beside them answer for what the edit
    /// changed; every step is then an optimal step of the edited grid (one of the optimal
    /// steps, as before the edit). A compressed rebuild takes seconds to minutes on large
    /// maps; reopening a cell blocked at build time is one.
    ///
    /// # Errors
    /// [`Error::CellOutOfBounds`] for a cell outside the grid; [`Error::AllocationFailed`]
    /// if a rebuild does not fit.
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
        self.apply(&[(cell, blocked)])
    }

    /// [`GridOracle::set_blocked`] for many cells at once (doors closing together, a wall
    /// built): the grid takes every edit, then the table is repaired for all of them in one
    /// [`Graph::apply`](crate::Graph::apply), which shares the work of targets several edits touch and rebuilds
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
    /// oracle.apply(&wall)?;
    /// assert_eq!(oracle.distance(Cell::new(1, 0), Cell::new(3, 0)), Some(6.0)); // round below
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn apply(&mut self, edits: &[(Cell, bool)]) -> Result<crate::dynamic::Update, Error> {
        if let Some(&(cell, _)) = edits.iter().find(|&&(cell, _)| !self.grid.contains(cell)) {
            return Err(self.out_of_bounds(cell));
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
            *self = if self.is_compressed() {
                GridOracle::build_compressed(&self.grid, self.connectivity)?
            } else {
                GridOracle::build(&self.grid, self.connectivity)?
            };
            return Ok(crate::dynamic::Update::rebuilt(self.nodes_len()));
        }
        let changes = self.edges_changed(&edited);
        match &mut self.table {
            Table::Dense(graph) => graph.apply(&changes),
            Table::Compressed(graph) => match graph.apply(&changes) {
                // A table rebuilt by an earlier edit lacks the blocked cells' edges: the grid
                // is rebuilt, as for a cell blocked at build time.
                Err(Error::Unsupported { .. }) => {
                    *self = GridOracle::build_compressed(&self.grid, self.connectivity)?;
                    Ok(crate::dynamic::Update::rebuilt(self.nodes_len()))
                }
                done => done,
            },
        }
    }

    /// The edges around the `edited` cells whose presence differs from what the grid allows
    /// now, each once (cells a step apart share edges).
    pub(super) fn edges_changed(&self, edited: &[Cell]) -> Vec<crate::dynamic::Change> {
        let mut changes = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for &cell in edited {
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
        changes
    }

    /// The edges around `cell` whose presence differs from what the grid allows now.
    fn edge_changes(&self, cell: Cell) -> Vec<crate::dynamic::Change> {
        use crate::dynamic::Change;
        let directions: &[Direction] = match self.connectivity {
            Connectivity::Four => &[Direction::East, Direction::South, Direction::West, Direction::North],
            Connectivity::Eight | Connectivity::EightUnit => &Direction::ALL,
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
                let present = match &self.table {
                    Table::Dense(graph) => graph.neighbors(u).binary_search(&v).is_ok(),
                    Table::Compressed(graph) => graph.has_edge(u, v),
                };
                if allowed && !present {
                    changes.push(Change::ConnectWeighted(u, v, super::build::arc_cost(self.connectivity, d)));
                } else if !allowed && present {
                    changes.push(Change::Disconnect(u, v));
                }
            }
        }
        changes
    }
}
