//! A [`GridOracle`]'s queries, in cells and directions.

use super::{Cell, Cost, Direction, Error, GridOracle, NextHop, NodeId, Table};

impl GridOracle {
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
    /// asked for before any is read ([`Graph::neighbor_to_each`](crate::Graph::neighbor_to_each),
    /// [`CompressedGraph::neighbor_to_each`](crate::CompressedGraph::neighbor_to_each)), which pays off on tables larger than the cache.
    ///
    /// # Complexity
    /// Per query, as [`GridOracle::next_step`]; one allocation of scratch per call.
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Direction, Grid, GridOracle};
    /// let oracle = GridOracle::build_compressed(&Grid::from_ascii(".....\n.###.\n.....")?, Connectivity::Four)?;
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
