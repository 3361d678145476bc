//! Grid walkers with cell capacity: [`GridCrowd`].
//!
//! The core's [`signposts::Crowd`] moves every walker one optimal step a tick, so hundreds of
//! walkers heading the same way collapse into single file, many to a cell. A [`GridCrowd`]
//! keeps at most [`GridCrowd::cell_capacity`] walkers in a cell (1 by default) and spreads them
//! over the tied optimal moves:
//!
//! - each tick a walker takes the least occupied of its optimal moves toward its goal (ties
//!   broken by the walker's index, so walkers side by side fan out over the shortest paths);
//! - when every optimal cell is full it waits, unless a walker in one of those cells wants its
//!   cell: then the two swap (a head-on meeting in a one-cell corridor resolves at once);
//! - with [`GridCrowd::with_sidestep_after`]`(Some(n))`, a walker that has waited `n` ticks in
//!   a row and is still blocked steps to the least occupied neighbour with room that is not an
//!   optimal move (a *sidestep*, counted in [`Tick::sidesteps`]); if none has room it tries
//!   again every `n + 1` ticks while blocked. Sidesteps are resolved after every optimal move
//!   of the tick. Off by default: without them every move is optimal, and a walker blocked by
//!   walkers that have arrived waits for good.
//!
//! The optimal moves are those [`NextHop::neighbors_to`] lists: every one on a dense table
//! ([`signposts::Graph`], a dense [`GridOracle`]), a non-empty subset on a compressed one
//! (runs keep the moves optimal toward a whole run of targets; see
//! [`NextHop::keeps_every_move`]), so walkers spread less on compressed tables, and never off
//! a shortest path. At most [`MAX_MOVES`] are considered per walker (a grid has at most 8).
//!
//! # Moves within a tick
//!
//! A walker may enter a cell another walker leaves in the same tick (a queue advances as a
//! whole). Walkers are resolved one at a time in index order; a walker whose cells are all
//! full waits on them, and is retried as soon as one of them is vacated. Capacity is never
//! exceeded, not even for an instant, and each walker moves at most one step a tick.
//!
//! # Determinism
//!
//! The same crowd, table and goals give the same positions bit for bit, run after run and for
//! any number of threads: the table queries of a tick run on rayon's current pool (install a
//! pool to choose its size), each a pure function of the walker's cell and goal; the moves are
//! then resolved on one thread in walker order. Walker `i` is the `i`-th added.
//!
//! # Example
//! ```
//! use signposts::grid::{Cell, Connectivity, Grid, GridOracle};
//! use signposts_crowd::grid::GridCrowd;
//!
//! // A corridor one cell wide: two walkers meet head on and swap.
//! let oracle = GridOracle::build(&Grid::from_ascii("......")?, Connectivity::Four)?;
//! let node = |x| oracle.node(Cell::new(x, 0)).unwrap();
//! let mut crowd = GridCrowd::new(&oracle); // capacity 1, no sidesteps
//! let west = crowd.add(node(0), node(5))?;
//! let east = crowd.add(node(5), node(0))?;
//! for _ in 0..5 {
//!     let tick = crowd.tick(&oracle.table())?;
//!     assert_eq!(tick.moved, 2);
//! }
//! assert_eq!((crowd.position(west), crowd.position(east)), (node(5), node(0)));
//!
//! // Eight walkers chase one target; never two to a cell.
//! let oracle = GridOracle::build(&Grid::new(8, 8), Connectivity::Eight)?;
//! let node = |x, y| oracle.node(Cell::new(x, y)).unwrap();
//! let mut crowd = GridCrowd::new(&oracle);
//! for x in 0..8 {
//!     crowd.add(node(x, 7), node(x, 7))?;
//! }
//! for _ in 0..20 {
//!     crowd.tick_toward(&oracle.table(), node(4, 0))?;
//!     assert!((0..oracle.nodes_len() as u32).all(|v| crowd.occupancy(v) <= 1));
//! }
//! assert_eq!(crowd.occupancy(node(4, 0)), 1); // one got there; the others stand around it
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use signposts::grid::{Connectivity, Direction, GridOracle};
use signposts::{NextHop, NodeId};

mod tick;

/// The most optimal moves a walker considers from a cell (the first ones in id order when a
/// node of a general graph has more): a grid cell has at most 8.
pub const MAX_MOVES: usize = 8;

/// What went wrong with a [`GridCrowd`] call, and which ids were at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A node id (a walker's cell or goal, or a target) was not below the node count.
    ///
    /// Fix: take ids from the same oracle or graph the crowd was made for
    /// ([`GridOracle::node`] maps a cell to its id).
    NodeOutOfRange {
        /// The id passed.
        node: NodeId,
        /// The crowd's node count.
        nodes: usize,
    },
    /// A walker was added to a cell that already holds [`GridCrowd::cell_capacity`] walkers.
    ///
    /// Fix: place it in another cell, or raise the capacity with
    /// [`GridCrowd::with_cell_capacity`] before adding walkers.
    CellFull {
        /// The full cell's node.
        node: NodeId,
        /// The capacity.
        capacity: u16,
    },
    /// The table passed to a tick has a different node count from the crowd's graph.
    ///
    /// Fix: pass the table of the oracle (or graph) the crowd was made from.
    TableMismatch {
        /// The table's node count.
        table: usize,
        /// The crowd's node count.
        crowd: usize,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NodeOutOfRange { node, nodes } => {
                write!(
                    f,
                    "node {node} is out of range: the crowd's graph has {nodes} nodes (ids 0 to {nodes} - 1)"
                )
            }
            Error::CellFull { node, capacity } => write!(
                f,
                "node {node} already holds {capacity} walkers, the cell capacity: place the walker elsewhere or raise the capacity"
            ),
            Error::TableMismatch { table, crowd } => write!(
                f,
                "the table has {table} nodes but the crowd's graph has {crowd}: pass the table of the oracle the crowd was made from"
            ),
        }
    }
}

impl std::error::Error for Error {}

/// What one [`GridCrowd::tick`] did. Every walker is counted once in `moved`, `waited`,
/// `arrived` or `stranded`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Tick {
    /// Walkers that took a step (optimal moves, swaps and sidesteps).
    pub moved: usize,
    /// Of the walkers that moved, those that exchanged cells with another walker (two per
    /// swap).
    pub swapped: usize,
    /// Of the walkers that moved, those that took a non-optimal step
    /// ([`GridCrowd::with_sidestep_after`]).
    pub sidesteps: usize,
    /// Walkers that could not move: every optimal cell was full.
    pub waited: usize,
    /// Walkers already at their goal (they stay).
    pub arrived: usize,
    /// Walkers whose goal cannot be reached (they stay).
    pub stranded: usize,
}

/// Walkers on the nodes of a grid (or any graph), each with a goal, moving one step a tick
/// along the table's optimal moves with at most [`GridCrowd::cell_capacity`] walkers to a cell.
/// See the [module docs](self) for the rules and the determinism promise.
///
/// A walker that waits keeps the moves the table gave it while its cell and goal stay the
/// same: after changing the table, call [`GridCrowd::table_changed`] (or
/// [`GridCrowd::oracle_changed`]).
///
/// Made for the oracle or graph whose table the ticks take: [`GridCrowd::new`] for a
/// [`GridOracle`] (node `v` is the cell [`GridOracle::cell`]`(v)`),
/// [`GridCrowd::from_neighbors`] for any graph. The crowd keeps the graph's neighbours for
/// sidesteps: after blocking cells of a dense oracle ([`GridOracle::set_blocked`]), make a
/// new crowd (or keep sidesteps off) so that none steps into them.
#[derive(Debug, Clone)]
pub struct GridCrowd {
    capacity: u16,
    sidestep_after: Option<u32>,
    /// Node `v`'s neighbours are `neighbors[first[v]..first[v + 1]]`.
    first: Vec<u32>,
    neighbors: Vec<NodeId>,
    occupancy: Vec<u16>,
    positions: Vec<NodeId>,
    goals: Vec<NodeId>,
    waited: Vec<u32>,
    scratch: tick::Scratch,
}

impl GridCrowd {
    /// An empty crowd on the open cells of `oracle` (its nodes, its moves: 4 or 8
    /// neighbours, no corner cutting), capacity 1, sidesteps off.
    #[must_use]
    pub fn new(oracle: &GridOracle) -> GridCrowd {
        let (first, neighbors) = oracle_neighbors(oracle);
        GridCrowd::with_neighbors(first, neighbors)
    }

    /// An empty crowd on a graph of `nodes` nodes whose node `v` neighbours
    /// `neighbors(v)` (the moves a sidestep may take), capacity 1, sidesteps off.
    ///
    /// ```
    /// use signposts::generate::{grid, Connectivity};
    /// use signposts_crowd::grid::GridCrowd;
    /// let builder = grid(4, 4, Connectivity::Four);
    /// let table = builder.build();
    /// let mut crowd = GridCrowd::from_neighbors(16, |v| table.neighbors(v).iter().copied());
    /// crowd.add(0, 15)?;
    /// crowd.tick(&table)?;
    /// assert!(crowd.position(0) == 1 || crowd.position(0) == 4);
    /// # Ok::<(), signposts_crowd::grid::Error>(())
    /// ```
    ///
    /// # Panics
    /// If `nodes` or a neighbour list is too long for `u32` indices.
    #[must_use]
    pub fn from_neighbors<I: IntoIterator<Item = NodeId>>(
        nodes: usize,
        neighbors: impl FnMut(NodeId) -> I,
    ) -> GridCrowd {
        let (first, list) = csr(nodes, neighbors);
        GridCrowd::with_neighbors(first, list)
    }

    fn with_neighbors(first: Vec<u32>, neighbors: Vec<NodeId>) -> GridCrowd {
        GridCrowd {
            capacity: 1,
            sidestep_after: None,
            occupancy: vec![0; first.len() - 1],
            first,
            neighbors,
            positions: Vec::new(),
            goals: Vec::new(),
            waited: Vec::new(),
            scratch: tick::Scratch::default(),
        }
    }

    /// The crowd with room for `capacity` walkers in a cell.
    ///
    /// # Panics
    /// If `capacity` is 0, or lower than the walkers already in some cell.
    #[must_use]
    pub fn with_cell_capacity(mut self, capacity: u16) -> GridCrowd {
        assert!(capacity > 0, "a cell capacity of 0 leaves no room for any walker: use 1 or more");
        let most = self.occupancy.iter().copied().max().unwrap_or(0);
        assert!(
            most <= capacity,
            "a cell already holds {most} walkers, more than the capacity {capacity}: set the capacity before adding walkers"
        );
        self.capacity = capacity;
        self
    }

    /// The crowd with sidesteps after `ticks` ticks of waiting in a row (`Some(0)`: as soon
    /// as a walker is blocked; retried every `ticks + 1` ticks while it stays blocked), or
    /// without sidesteps (`None`, the default). See the [module docs](self).
    #[must_use]
    pub fn with_sidestep_after(mut self, ticks: Option<u32>) -> GridCrowd {
        self.sidestep_after = ticks;
        self
    }

    /// The most walkers a cell holds.
    #[must_use]
    pub fn cell_capacity(&self) -> u16 {
        self.capacity
    }

    /// After how many ticks of waiting a blocked walker may sidestep (`None`: never).
    #[must_use]
    pub fn sidestep_after(&self) -> Option<u32> {
        self.sidestep_after
    }

    /// Number of nodes of the crowd's graph.
    #[must_use]
    pub fn nodes_len(&self) -> usize {
        self.occupancy.len()
    }

    /// Number of walkers.
    #[must_use]
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether there are no walkers.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    fn check(&self, node: NodeId) -> Result<(), Error> {
        if (node as usize) < self.nodes_len() {
            Ok(())
        } else {
            Err(Error::NodeOutOfRange { node, nodes: self.nodes_len() })
        }
    }

    /// Adds a walker at node `at` heading for `goal`; returns its index (walkers are
    /// numbered in the order added).
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] for a bad id, [`Error::CellFull`] when `at` holds
    /// [`GridCrowd::cell_capacity`] walkers already; then nothing is added.
    pub fn add(&mut self, at: NodeId, goal: NodeId) -> Result<usize, Error> {
        self.check(at)?;
        self.check(goal)?;
        let count = &mut self.occupancy[at as usize];
        if *count >= self.capacity {
            return Err(Error::CellFull { node: at, capacity: self.capacity });
        }
        *count += 1;
        self.positions.push(at);
        self.goals.push(goal);
        self.waited.push(0);
        Ok(self.positions.len() - 1)
    }

    /// The walkers' nodes, by index.
    #[must_use]
    pub fn positions(&self) -> &[NodeId] {
        &self.positions
    }

    /// Walker `walker`'s node.
    ///
    /// # Panics
    /// If there is no such walker.
    #[must_use]
    pub fn position(&self, walker: usize) -> NodeId {
        self.positions[walker]
    }

    /// The walkers' goals, by index ([`GridCrowd::tick`] heads for them;
    /// [`GridCrowd::tick_toward`] ignores them).
    #[must_use]
    pub fn goals(&self) -> &[NodeId] {
        &self.goals
    }

    /// Gives walker `walker` a new goal.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] for a bad id; then the goal is unchanged.
    ///
    /// # Panics
    /// If there is no such walker.
    pub fn set_goal(&mut self, walker: usize, goal: NodeId) -> Result<(), Error> {
        self.check(goal)?;
        self.goals[walker] = goal;
        Ok(())
    }

    /// Puts walker `walker` on node `node` (a teleport, a respawn); its wait count starts
    /// again. Its moves are asked for again at the next tick.
    ///
    /// # Errors
    /// [`Error::NodeOutOfRange`] for a bad id, [`Error::CellFull`] when `node` holds
    /// [`GridCrowd::cell_capacity`] walkers already (the walker itself not counted when it
    /// stands there); then the walker stays where it was.
    ///
    /// # Panics
    /// If there is no such walker.
    pub fn move_to(&mut self, walker: usize, node: NodeId) -> Result<(), Error> {
        self.check(node)?;
        let from = self.positions[walker];
        if from == node {
            self.waited[walker] = 0;
            return Ok(());
        }
        if self.occupancy[node as usize] >= self.capacity {
            return Err(Error::CellFull { node, capacity: self.capacity });
        }
        self.occupancy[from as usize] -= 1;
        self.occupancy[node as usize] += 1;
        self.positions[walker] = node;
        self.waited[walker] = 0;
        Ok(())
    }

    /// Removes walker `walker` and returns its node and goal. The last walker takes its
    /// index (as [`Vec::swap_remove`]): the walker that had index `len() - 1` has index
    /// `walker` afterwards (unless it was `walker`).
    ///
    /// # Panics
    /// If there is no such walker.
    pub fn swap_remove(&mut self, walker: usize) -> (NodeId, NodeId) {
        let at = self.positions.swap_remove(walker);
        let goal = self.goals.swap_remove(walker);
        self.waited.swap_remove(walker);
        self.occupancy[at as usize] -= 1;
        self.scratch.forget_walker(walker, self.positions.len());
        (at, goal)
    }

    /// How many ticks in a row walker `walker` has waited (0 after a move or at its goal).
    ///
    /// # Panics
    /// If there is no such walker.
    #[must_use]
    pub fn waited(&self, walker: usize) -> u32 {
        self.waited[walker]
    }

    /// How many walkers stand on `node` (0 for an id out of range).
    #[must_use]
    pub fn occupancy(&self, node: NodeId) -> u16 {
        self.occupancy.get(node as usize).copied().unwrap_or(0)
    }

    /// Moves every walker at most one step toward its own goal; see the [module docs](self).
    ///
    /// # Errors
    /// [`Error::TableMismatch`] when `table` has a different node count from the crowd's
    /// graph; then nobody moves.
    ///
    /// # Complexity
    /// For each walker not at its goal whose cell or goal changed, one
    /// [`NextHop::neighbor_to_each`] entry (to bring the table's memory in, many queries
    /// overlapped) and one [`NextHop::neighbors_to`], on rayon's current pool; then
    /// O(walkers + moves) on one thread. No allocation once the crowd has ticked with as
    /// many walkers.
    pub fn tick<T: NextHop + Sync>(&mut self, table: &T) -> Result<Tick, Error> {
        self.check_table(table)?;
        Ok(self.run_tick(table, None))
    }

    /// Moves every walker at most one step toward one shared `target` (a player),
    /// ignoring their own goals; as [`GridCrowd::tick`] otherwise.
    ///
    /// # Errors
    /// [`Error::TableMismatch`] as [`GridCrowd::tick`]; [`Error::NodeOutOfRange`] for a bad
    /// `target`. Then nobody moves.
    pub fn tick_toward<T: NextHop + Sync>(&mut self, table: &T, target: NodeId) -> Result<Tick, Error> {
        self.check_table(table)?;
        self.check(target)?;
        Ok(self.run_tick(table, Some(target)))
    }

    /// Tells the crowd that its table changed (cells blocked or opened on a dense
    /// [`GridOracle`], say): the next tick asks it again for every walker's moves. Needed
    /// because a walker that waited keeps the moves it was given while its cell and goal stay
    /// the same, rather than asking the table every tick.
    pub fn table_changed(&mut self) {
        self.scratch.forget_moves();
    }

    /// Tells the crowd that cells of its oracle were blocked or opened
    /// ([`GridOracle::set_blocked`], with no rebuild): it takes the oracle's moves again for
    /// sidesteps, and forgets the walkers' moves ([`GridCrowd::table_changed`]). Walkers on a
    /// cell blocked since stay until they move off it.
    ///
    /// # Errors
    /// [`Error::TableMismatch`] when `oracle` has a different node count (a rebuilt oracle
    /// numbers its cells anew: make a new crowd); then nothing changes.
    pub fn oracle_changed(&mut self, oracle: &GridOracle) -> Result<(), Error> {
        if oracle.nodes_len() != self.nodes_len() {
            return Err(Error::TableMismatch { table: oracle.nodes_len(), crowd: self.nodes_len() });
        }
        (self.first, self.neighbors) = oracle_neighbors(oracle);
        self.table_changed();
        Ok(())
    }

    fn check_table<T: NextHop>(&self, table: &T) -> Result<(), Error> {
        if table.nodes_len() == self.nodes_len() {
            Ok(())
        } else {
            Err(Error::TableMismatch { table: table.nodes_len(), crowd: self.nodes_len() })
        }
    }
}

/// The neighbour lists of `nodes` nodes in compressed rows: node `v`'s are
/// `list[first[v]..first[v + 1]]`.
fn csr<I: IntoIterator<Item = NodeId>>(
    nodes: usize,
    mut neighbors: impl FnMut(NodeId) -> I,
) -> (Vec<u32>, Vec<NodeId>) {
    let mut first = Vec::with_capacity(nodes + 1);
    let mut list = Vec::new();
    first.push(0);
    for v in 0..nodes {
        let v = NodeId::try_from(v).expect("node ids fit u32");
        list.extend(neighbors(v));
        first.push(u32::try_from(list.len()).expect("the neighbour lists fit u32 indices"));
    }
    (first, list)
}

/// The moves between the open cells of `oracle`, as [`csr`] lists.
fn oracle_neighbors(oracle: &GridOracle) -> (Vec<u32>, Vec<NodeId>) {
    let grid = oracle.grid();
    let directions: &[Direction] = match oracle.connectivity() {
        Connectivity::Four => &[Direction::North, Direction::East, Direction::South, Direction::West],
        _ => &Direction::ALL,
    };
    csr(oracle.nodes_len(), |v| {
        let cell = oracle.cell(v).expect("a node below nodes_len has a cell");
        directions.iter().filter_map(move |&d| grid.step(cell, d)).filter_map(|c| oracle.node(c))
    })
}
