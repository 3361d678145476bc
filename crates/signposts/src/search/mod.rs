//! Single queries: A* and greedy best-first search on tile grids, with no heap allocation per
//! query once a [`Searcher`] has warmed up.
//!
//! Not every question deserves an all-pairs table: a one-off path on a huge map, a unit kind
//! with its own terrain costs, a map that changes every tick. This module answers those with
//! one search, built the way a game wants it:
//!
//! - [`TileGrid`]: four bits per cell, a tile *tag*; what tags mean is the game's business.
//! - [`Layer`]: the cost of entering each tag for one unit kind (`0` = impassable), 16 bytes,
//!   swapped per query.
//! - [`Searcher`]: created once, reused for every query. Its per-cell records carry a
//!   generation stamp, so starting a query resets them in O(1); its queues keep their buckets.
//!   After the first query on a map no query allocates (a test counts with a global
//!   allocator).
//! - A* ([`Searcher::astar`]) finds optimal paths for the layer's costs on 4- and 8-connected
//!   grids (diagonal steps cost √2 times the tile's cost and never cut corners: both
//!   orthogonal neighbours must be passable). Its queue is a radix heap: 64 buckets and a
//!   64-bit occupancy mask, the lowest bucket found with `trailing_zeros`.
//! - When the layer gives every passable tag the same cost, A* runs over *jump points* (jump
//!   point search without corner cutting, after Harabor & Grastien; on 4-connected grids
//!   horizontal runs play the part of diagonal ones): straight runs are scanned 64 cells at a
//!   time on passability bitmaps (rows and columns, forward and mirrored) that the searcher
//!   keeps while the grid and layer stay the same. Same optimal costs, far fewer cells
//!   expanded (property-tested against Dijkstra, and by every Moving AI scenario). Before any
//!   search, the path the heuristic describes (diagonals first, then straight) is checked:
//!   when it is open it is optimal, and most queries in open areas end there.
//! - Greedy best-first ([`Searcher::greedy`]) runs toward the goal by the heuristic alone:
//!   fast, not optimal. Its keys go up and down, which a monotone radix queue cannot take, and
//!   a 64-bucket queue's unordered buckets made it wander (four times the cells on an open
//!   map), so it keeps a binary heap, reused like everything else.
//! - Results are a [`Route`]: a [`PackedPath`] of up to 42 steps in 24 bytes, or an explicit
//!   [`Route::Partial`] with the cell reached when the path is longer or the search budget
//!   ([`Searcher::set_budget`]) ends. [`Searcher::astar_into`] writes a whole path of any
//!   length into a caller's buffer instead.
//!
//! ## Exactness
//!
//! Costs are compared as integers: a straight step of tile cost `w` costs `470832·w`, a
//! diagonal one `665857·w`, and `665857 / 470832` (a convergent of √2's continued fraction)
//! exceeds √2 by less than 1.6·10⁻¹². The octile heuristic uses the same units, so it is
//! consistent and A* returns a path optimal for those integers; that path is within
//! `1.6·10⁻¹²` per diagonal step of the true optimum (10⁻⁶ over a million diagonals; the
//! scenario test reproduces every printed Moving AI length). Small units also keep the radix
//! queue shallow. The reported [`Cost`] is exact: `a + b·√2` summed step by step.
//! Property tests compare every A* cost with a plain Dijkstra on random grids and layers.

mod jump;
mod path;
mod queue;
mod tiles;

pub use path::PackedPath;
pub use tiles::{Layer, TAGS, TileGrid};

use crate::grid::{Cell, Connectivity, Direction};
use crate::{Cost, Error};
use queue::RadixQueue;

/// The cost of a straight step of tile cost 1, in the searches' integer units.
const STRAIGHT: u64 = 470_832;
/// The cost of a diagonal step of tile cost 1: `665857 / 470832` is a convergent of the
/// continued fraction of √2, above it by less than 1.6·10⁻¹² per unit.
const DIAGONAL: u64 = 665_857;

/// Why a route stops short of the goal.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Cut {
    /// The path is longer than [`PackedPath::CAPACITY`] steps; `cost` is the whole path's.
    /// Search again from the reached cell, or use [`Searcher::astar_into`].
    TooLong {
        /// The whole path's cost.
        cost: Cost,
    },
    /// The search budget ended first; the path leads to the expanded cell nearest the goal
    /// (by the heuristic).
    Budget,
}

/// The answer of a single search.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Route {
    /// The whole path and its exact cost.
    Complete {
        /// The steps from the start to the goal.
        path: PackedPath,
        /// The path's cost: `straight + diagonal·√2` in tile-cost units.
        cost: Cost,
    },
    /// The first steps of a path, ending at `reached`.
    Partial {
        /// The steps from the start to `reached`.
        path: PackedPath,
        /// Where the steps end.
        reached: Cell,
        /// Why the route stops there.
        cut: Cut,
    },
    /// No path: the start or the goal is impassable for the layer, or the goal cannot be
    /// reached.
    Unreachable,
}

impl Route {
    /// The packed steps, if any.
    #[must_use]
    pub fn path(&self) -> Option<&PackedPath> {
        match self {
            Route::Complete { path, .. } | Route::Partial { path, .. } => Some(path),
            Route::Unreachable => None,
        }
    }

    /// The cost of the whole path to the goal, when it was found.
    #[must_use]
    pub fn cost(&self) -> Option<Cost> {
        match *self {
            Route::Complete { cost, .. } | Route::Partial { cut: Cut::TooLong { cost }, .. } => Some(cost),
            _ => None,
        }
    }
}

/// Scratch of one cell: generation stamp (even: seen, odd: closed), the cell it was reached
/// from (a neighbour, or the previous jump point), cost so far. Sixteen bytes, one record per
/// cell.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    stamp: u32,
    parent: u32,
    g: u64,
}

/// A reusable search engine; see the [module docs](self).
///
/// ```
/// use signposts::grid::{Cell, Connectivity, Grid};
/// use signposts::search::{Layer, Route, Searcher, TileGrid};
/// let tiles = TileGrid::from_grid(&Grid::from_ascii("
///     ....
///     .##.
///     ....
/// ")?);
/// let mut searcher = Searcher::new();
/// let route = searcher.astar(&tiles, Layer::WALKABLE, Connectivity::Eight, Cell::new(0, 1), Cell::new(3, 1))?;
/// let Route::Complete { path, cost } = route else { panic!("a path exists") };
/// // Around the wall without cutting its corners: five straight steps.
/// assert_eq!((path.len(), cost.value()), (5, 5.0));
/// # Ok::<(), signposts::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct Searcher {
    slots: Vec<Slot>,
    generation: u32,
    radix: RadixQueue,
    /// Greedy's queue: its keys go up and down, so a binary heap (its memory is kept too).
    heap: std::collections::BinaryHeap<core::cmp::Reverse<(u64, u32)>>,
    steps: Vec<u8>,
    /// Passability bitmaps for jump point search, kept while the grid and layer stay.
    bitmaps: jump::Bitmaps,
    budget: Option<usize>,
    expanded: usize,
}

/// One query's fixed parts.
#[derive(Clone, Copy)]
struct Query<'a> {
    tiles: &'a TileGrid,
    layer: Layer,
    eight: bool,
    goal: usize,
    goal_cell: Cell,
    /// The smallest passable tile cost: the heuristic's scale.
    scale: u64,
    /// Every passable tag costs the same: jump point search applies (8-connected).
    uniform: bool,
}

/// A move out of a cell: the cell entered (index and coordinates) and the step's cost.
#[derive(Clone, Copy, Default)]
struct Move {
    to: usize,
    x: u32,
    y: u32,
    cost: u64,
}

impl Query<'_> {
    /// The heuristic at `(x, y)`: octile (or Manhattan) distance to the goal in units of the
    /// cheapest tile.
    #[inline]
    fn h(&self, x: u32, y: u32) -> u64 {
        let dx = u64::from(x.abs_diff(self.goal_cell.x));
        let dy = u64::from(y.abs_diff(self.goal_cell.y));
        let distance = if self.eight {
            let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
            (hi - lo) * STRAIGHT + lo * DIAGONAL
        } else {
            (dx + dy) * STRAIGHT
        };
        distance * self.scale
    }

    /// The cost of entering index `i` (0 = impassable).
    #[inline]
    fn enter(&self, i: usize) -> u64 {
        u64::from(self.layer.cost(self.tiles.tag_at(i)))
    }

    /// The moves out of cell `i` at `(x, y)`, written into `out`; returns how many.
    #[inline]
    fn moves(&self, at: usize, x: u32, y: u32, out: &mut [Move; 8]) -> usize {
        let row = self.tiles.width() as usize;
        let (last_x, last_y) = (self.tiles.width() - 1, self.tiles.height() - 1);
        let mut count = 0;
        let mut add = |to: usize, x: u32, y: u32, cost: u64| {
            out[count] = Move { to, x, y, cost };
            count += 1;
        };
        // Straight moves first: diagonals need both of their sides open.
        let north = if y > 0 { self.enter(at - row) } else { 0 };
        let south = if y < last_y { self.enter(at + row) } else { 0 };
        let west = if x > 0 { self.enter(at - 1) } else { 0 };
        let east = if x < last_x { self.enter(at + 1) } else { 0 };
        if north != 0 {
            add(at - row, x, y - 1, north * STRAIGHT);
        }
        if east != 0 {
            add(at + 1, x + 1, y, east * STRAIGHT);
        }
        if south != 0 {
            add(at + row, x, y + 1, south * STRAIGHT);
        }
        if west != 0 {
            add(at - 1, x - 1, y, west * STRAIGHT);
        }
        if self.eight {
            // Each diagonal's two sides are open, so its cell is inside the grid.
            let mut diagonal = |to: usize, x: u32, y: u32| {
                let cost = self.enter(to);
                if cost != 0 {
                    add(to, x, y, cost * DIAGONAL);
                }
            };
            if north != 0 && east != 0 {
                diagonal(at - row + 1, x + 1, y - 1);
            }
            if south != 0 && east != 0 {
                diagonal(at + row + 1, x + 1, y + 1);
            }
            if south != 0 && west != 0 {
                diagonal(at + row - 1, x - 1, y + 1);
            }
            if north != 0 && west != 0 {
                diagonal(at - row - 1, x - 1, y - 1);
            }
        }
        count
    }
}

/// The index in [`Direction::ALL`] of the step `(sx, sy)` (each of -1, 0, 1, not both 0).
fn code_of(sx: i64, sy: i64) -> u8 {
    match (sx, sy) {
        (0, -1) => 0,
        (1, -1) => 1,
        (1, 0) => 2,
        (1, 1) => 3,
        (0, 1) => 4,
        (-1, 1) => 5,
        (-1, 0) => 6,
        _ => 7,
    }
}

impl Searcher {
    /// A searcher with no budget. It sizes itself to the first grid it searches.
    #[must_use]
    pub fn new() -> Searcher {
        Searcher::default()
    }

    /// Limits every search to expanding `nodes` cells (`None`: no limit); a search that hits
    /// it returns [`Route::Partial`] with [`Cut::Budget`].
    pub fn set_budget(&mut self, nodes: Option<usize>) {
        self.budget = nodes;
    }

    /// Cells expanded by the last search.
    #[must_use]
    pub fn expanded(&self) -> usize {
        self.expanded
    }

    /// An optimal route from `start` to `goal` for `layer`'s costs.
    ///
    /// # Errors
    /// [`Error::CellOutOfBounds`] if either cell lies outside the grid.
    pub fn astar(
        &mut self,
        tiles: &TileGrid,
        layer: Layer,
        connectivity: Connectivity,
        start: Cell,
        goal: Cell,
    ) -> Result<Route, Error> {
        let Some(query) = self.begin(tiles, layer, connectivity, start, goal)? else {
            return Ok(Route::Unreachable);
        };
        let end = self.optimal(&query, tiles.index(start));
        Ok(self.route(&query, tiles.index(start), end))
    }

    /// A route found by greedy best-first search: expands the cell nearest the goal by the
    /// heuristic first. Usually far fewer cells than A*, not optimal.
    ///
    /// # Errors
    /// [`Error::CellOutOfBounds`] if either cell lies outside the grid.
    pub fn greedy(
        &mut self,
        tiles: &TileGrid,
        layer: Layer,
        connectivity: Connectivity,
        start: Cell,
        goal: Cell,
    ) -> Result<Route, Error> {
        let Some(query) = self.begin(tiles, layer, connectivity, start, goal)? else {
            return Ok(Route::Unreachable);
        };
        let end = self.run_greedy(&query, tiles.index(start));
        Ok(self.route(&query, tiles.index(start), end))
    }

    /// An optimal path of any length, written into `path` (cleared first, start and goal
    /// included); returns its exact cost, or `None` when there is no path or the budget ends
    /// first (`path` is then empty). Allocates only if `path` must grow.
    ///
    /// # Errors
    /// [`Error::CellOutOfBounds`] if either cell lies outside the grid.
    ///
    /// ```
    /// use signposts::grid::{Cell, Connectivity, Grid};
    /// use signposts::search::{Layer, Searcher, TileGrid};
    /// let tiles = TileGrid::from_grid(&Grid::new(100, 1));
    /// let mut path = Vec::new();
    /// let cost = Searcher::new().astar_into(&tiles, Layer::WALKABLE, Connectivity::Four, Cell::new(0, 0), Cell::new(99, 0), &mut path)?;
    /// assert_eq!((path.len(), cost.map(|c| c.value())), (100, Some(99.0)));
    /// # Ok::<(), signposts::Error>(())
    /// ```
    pub fn astar_into(
        &mut self,
        tiles: &TileGrid,
        layer: Layer,
        connectivity: Connectivity,
        start: Cell,
        goal: Cell,
        path: &mut Vec<Cell>,
    ) -> Result<Option<Cost>, Error> {
        path.clear();
        let Some(query) = self.begin(tiles, layer, connectivity, start, goal)? else {
            return Ok(None);
        };
        let s = tiles.index(start);
        if self.optimal(&query, s) != Some(query.goal) {
            return Ok(None);
        }
        let cost = self.trace(&query, s, query.goal);
        path.push(start);
        // A found path stays on the grid, so every step exists.
        path.extend(self.steps.iter().rev().scan(start, |at, &code| {
            *at = at.step(Direction::ALL[code as usize])?;
            Some(*at)
        }));
        Ok(Some(cost))
    }

    /// Validates a query and resets the scratch; `None` when the start or goal is
    /// impassable.
    fn begin<'a>(
        &mut self,
        tiles: &'a TileGrid,
        layer: Layer,
        connectivity: Connectivity,
        start: Cell,
        goal: Cell,
    ) -> Result<Option<Query<'a>>, Error> {
        if connectivity == Connectivity::EightUnit {
            return Err(Error::Unsupported {
                what: "searches with unit-cost diagonals (search with Connectivity::Eight: diagonals cost √2)",
            });
        }
        for cell in [start, goal] {
            if !tiles.contains(cell) {
                return Err(Error::CellOutOfBounds {
                    x: cell.x,
                    y: cell.y,
                    width: tiles.width(),
                    height: tiles.height(),
                });
            }
        }
        self.expanded = 0;
        let cells = tiles.width() as usize * tiles.height() as usize;
        if self.slots.len() < cells {
            self.slots.resize(cells, Slot::default());
        }
        // Even stamps mark cells seen in this query, the next odd one cells closed.
        if self.generation >= u32::MAX - 2 {
            self.slots.iter_mut().for_each(|s| s.stamp = 0);
            self.generation = 0;
        }
        self.generation += 2;
        let passable = |c: Cell| layer.is_passable(tiles.tag(c).unwrap_or(0));
        let (Some(scale), true, true) = (layer.min_cost(), passable(start), passable(goal)) else {
            return Ok(None);
        };
        Ok(Some(Query {
            tiles,
            layer,
            eight: connectivity == Connectivity::Eight,
            goal: tiles.index(goal),
            goal_cell: goal,
            scale: u64::from(scale),
            uniform: (0..TAGS as u8).all(|tag| matches!(layer.cost(tag), 0) || layer.cost(tag) == scale),
        }))
    }

    /// An optimal search: jump points when they apply (uniform costs), plain A* otherwise.
    fn optimal(&mut self, query: &Query<'_>, source: usize) -> Option<usize> {
        if !query.uniform {
            return self.run_astar(query, source);
        }
        self.bitmaps.prepare(query.tiles, query.layer);
        if self.straight_shot(query, source) { Some(query.goal) } else { self.run_jps(query, source) }
    }

    /// With uniform costs, a path as long as the heuristic is optimal: the diagonal steps
    /// first, then the straight ones (4-connected: horizontal, then vertical). When every cell
    /// of it is open (and no diagonal cuts a corner) it is recorded as two runs and no search
    /// is needed; in open areas most queries end here.
    #[expect(
        clippy::cast_possible_wrap,
        clippy::cast_sign_loss,
        reason = "signed coordinates of cells inside the grid (below 2^32)"
    )]
    fn straight_shot(&mut self, query: &Query<'_>, source: usize) -> bool {
        let width = query.tiles.width() as usize;
        let (x0, y0) = ((source % width) as i64, (source / width) as i64);
        let (gx, gy) = (i64::from(query.goal_cell.x), i64::from(query.goal_cell.y));
        let (sx, sy) = ((gx - x0).signum(), (gy - y0).signum());
        let (ax, ay) = ((gx - x0).abs(), (gy - y0).abs());
        let open = |x: i64, y: i64| self.bitmaps.open(x, y);
        // The corner between the two runs.
        let (cx, cy) = if query.eight {
            let d = ax.min(ay);
            for k in 0..d {
                let (x, y) = (x0 + k * sx, y0 + k * sy);
                if !(open(x + sx, y) && open(x, y + sy) && open(x + sx, y + sy)) {
                    return false;
                }
            }
            (x0 + d * sx, y0 + d * sy)
        } else {
            if !(1..=ax).all(|k| open(x0 + k * sx, y0)) {
                return false;
            }
            (gx, y0)
        };
        let (rx, ry) = ((gx - cx).signum(), (gy - cy).signum());
        let rest = (gx - cx).abs().max((gy - cy).abs());
        if !(1..=rest).all(|k| open(cx + k * rx, cy + k * ry)) {
            return false;
        }
        let corner = cy as usize * width + cx as usize;
        let (straight, diagonal) = (query.scale * STRAIGHT, query.scale * DIAGONAL);
        let first = if query.eight { ax.min(ay) as u64 * diagonal } else { ax as u64 * straight };
        self.slots[corner] = Slot { stamp: self.generation + 1, parent: source as u32, g: first };
        if query.goal != corner {
            self.slots[query.goal] =
                Slot { stamp: self.generation + 1, parent: corner as u32, g: first + rest as u64 * straight };
        }
        true
    }

    /// A* from `s`; returns the goal when reached, or the expanded cell nearest the goal when
    /// the budget ends, or `None`.
    fn run_astar(&mut self, query: &Query<'_>, source: usize) -> Option<usize> {
        let (seen, closed) = (self.generation, self.generation + 1);
        let width = query.tiles.width() as usize;
        let hs = query.h((source % width) as u32, (source / width) as u32);
        self.slots[source] = Slot { stamp: seen, parent: source as u32, g: 0 };
        self.radix.reset(hs);
        self.radix.push(hs, source as u32);
        let mut nearest = (u64::MAX, source);
        let mut out = [Move::default(); 8];
        while let Some((key, at)) = self.radix.pop() {
            let at = at as usize;
            let slot = self.slots[at];
            if slot.stamp == closed {
                continue;
            }
            self.slots[at].stamp = closed;
            if at == query.goal {
                return Some(at);
            }
            let h = key - slot.g;
            if h < nearest.0 {
                nearest = (h, at);
            }
            self.expanded += 1;
            if self.budget.is_some_and(|b| self.expanded > b) {
                return Some(nearest.1);
            }
            let (x, y) = ((at % width) as u32, (at / width) as u32);
            let count = query.moves(at, x, y, &mut out);
            for step in &out[..count] {
                let next = &mut self.slots[step.to];
                let cost = slot.g + step.cost;
                if (next.stamp != seen && next.stamp != closed) || (next.stamp == seen && cost < next.g) {
                    *next = Slot { stamp: seen, parent: at as u32, g: cost };
                    self.radix.push(cost + query.h(step.x, step.y), step.to as u32);
                }
            }
        }
        None
    }

    /// A* over jump points (uniform costs): the same optimal costs as
    /// [`Searcher::run_astar`], expanding only the cells where canonical paths branch.
    #[expect(
        clippy::cast_sign_loss,
        clippy::cast_possible_wrap,
        reason = "signed coordinates of cells inside the grid (below 2^32)"
    )]
    fn run_jps(&mut self, query: &Query<'_>, source: usize) -> Option<usize> {
        const ALL: [(i64, i64); 8] = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)];
        let (seen, closed) = (self.generation, self.generation + 1);
        let width = query.tiles.width() as usize;
        let xy = |i: usize| ((i % width) as i64, (i / width) as i64);
        let (sx, sy) = xy(source);
        let hs = query.h(sx as u32, sy as u32);
        self.slots[source] = Slot { stamp: seen, parent: source as u32, g: 0 };
        self.radix.reset(hs);
        self.radix.push(hs, source as u32);
        let mut nearest = (u64::MAX, source);
        let (straight, diagonal) = (query.scale * STRAIGHT, query.scale * DIAGONAL);
        while let Some((key, at)) = self.radix.pop() {
            let at = at as usize;
            let slot = self.slots[at];
            if slot.stamp == closed {
                continue;
            }
            self.slots[at].stamp = closed;
            if at == query.goal {
                return Some(at);
            }
            let h = key - slot.g;
            if h < nearest.0 {
                nearest = (h, at);
            }
            self.expanded += 1;
            if self.budget.is_some_and(|b| self.expanded > b) {
                return Some(nearest.1);
            }
            let (x, y) = xy(at);
            let (px, py) = xy(slot.parent as usize);
            let (dx, dy) = ((x - px).signum(), (y - py).signum());
            // Pruned directions. 8-connected: all at the start; after a diagonal step its two
            // sides and itself; after a straight step itself, the two diagonals ahead and the
            // two sides. 4-connected: all at the start; after a horizontal step itself and
            // both verticals; after a vertical step itself and both horizontals.
            let mut directions = [(0i64, 0i64); 8];
            let count = match (query.eight, dx, dy) {
                (true, 0, 0) => {
                    directions = ALL;
                    8
                }
                (true, _, _) if dx != 0 && dy != 0 => {
                    directions[..3].copy_from_slice(&[(dx, 0), (0, dy), (dx, dy)]);
                    3
                }
                (true, _, 0) => {
                    directions[..5].copy_from_slice(&[(dx, 0), (dx, -1), (dx, 1), (0, -1), (0, 1)]);
                    5
                }
                (true, _, _) => {
                    directions[..5].copy_from_slice(&[(0, dy), (-1, dy), (1, dy), (-1, 0), (1, 0)]);
                    5
                }
                (false, 0, 0) => {
                    directions[..4].copy_from_slice(&[(0, -1), (1, 0), (0, 1), (-1, 0)]);
                    4
                }
                (false, _, 0) => {
                    directions[..3].copy_from_slice(&[(dx, 0), (0, -1), (0, 1)]);
                    3
                }
                (false, _, _) => {
                    directions[..3].copy_from_slice(&[(0, dy), (-1, 0), (1, 0)]);
                    3
                }
            };
            for &(ddx, ddy) in &directions[..count] {
                let jumped = if query.eight {
                    self.bitmaps.jump(x, y, ddx, ddy, query.goal_cell)
                } else {
                    self.bitmaps.jump4(x, y, ddx, ddy, query.goal_cell)
                };
                let Some((jx, jy)) = jumped else { continue };
                let to = jy as usize * width + jx as usize;
                let run = (jx - x).abs().max((jy - y).abs()) as u64;
                let cost = slot.g + run * if ddx != 0 && ddy != 0 { diagonal } else { straight };
                let next = &mut self.slots[to];
                if (next.stamp != seen && next.stamp != closed) || (next.stamp == seen && cost < next.g) {
                    *next = Slot { stamp: seen, parent: at as u32, g: cost };
                    self.radix.push(cost + query.h(jx as u32, jy as u32), to as u32);
                }
            }
        }
        None
    }

    /// Greedy best-first from `source`; cells are final when first reached.
    fn run_greedy(&mut self, query: &Query<'_>, source: usize) -> Option<usize> {
        let seen = self.generation;
        let width = query.tiles.width() as usize;
        let hs = query.h((source % width) as u32, (source / width) as u32);
        self.slots[source] = Slot { stamp: seen, parent: source as u32, g: hs };
        self.heap.clear();
        self.heap.push(core::cmp::Reverse((hs, source as u32)));
        let mut nearest = (u64::MAX, source);
        let mut out = [Move::default(); 8];
        while let Some(core::cmp::Reverse((_, at))) = self.heap.pop() {
            let at = at as usize;
            if at == query.goal {
                return Some(at);
            }
            // Greedy records keep the heuristic where A* keeps the cost so far.
            let h = self.slots[at].g;
            if h < nearest.0 {
                nearest = (h, at);
            }
            self.expanded += 1;
            if self.budget.is_some_and(|b| self.expanded > b) {
                return Some(nearest.1);
            }
            let (x, y) = ((at % width) as u32, (at / width) as u32);
            let count = query.moves(at, x, y, &mut out);
            for step in &out[..count] {
                let next = &mut self.slots[step.to];
                if next.stamp != seen {
                    let h = query.h(step.x, step.y);
                    *next = Slot { stamp: seen, parent: at as u32, g: h };
                    self.heap.push(core::cmp::Reverse((h, step.to as u32)));
                }
            }
        }
        None
    }

    /// Collects the direction codes from `s` to `end` into `self.steps` (last step first) and
    /// returns the path's exact cost.
    #[expect(clippy::cast_possible_wrap, reason = "signed coordinates of cells inside the grid (below 2^32)")]
    fn trace(&mut self, query: &Query<'_>, source: usize, end: usize) -> Cost {
        let width = query.tiles.width() as usize;
        let xy = |i: usize| ((i % width) as i64, (i / width) as i64);
        self.steps.clear();
        let mut cost = Cost::ZERO;
        let mut at = end;
        while at != source {
            // From the parent to `at`: a straight or diagonal run (one step for A*).
            let parent = self.slots[at].parent as usize;
            let ((x, y), (px, py)) = (xy(at), xy(parent));
            let (sx, sy) = ((x - px).signum(), (y - py).signum());
            let code = code_of(sx, sy);
            let back = (sy * width as i64 + sx) as isize;
            let mut cell = at;
            for _ in 0..(x - px).abs().max((y - py).abs()) {
                let weight = query.enter(cell);
                if sx != 0 && sy != 0 {
                    cost.diagonal += weight;
                } else {
                    cost.straight += weight;
                }
                self.steps.push(code);
                cell = cell.wrapping_add_signed(-back);
            }
            at = parent;
        }
        cost
    }

    /// The route from `s` to the search's end cell.
    fn route(&mut self, q: &Query<'_>, s: usize, end: Option<usize>) -> Route {
        let Some(end) = end else { return Route::Unreachable };
        let cost = self.trace(q, s, end);
        let mut path = PackedPath::new();
        for &code in self.steps.iter().rev().take(PackedPath::CAPACITY) {
            path.push_code(code);
        }
        let w = q.tiles.width() as usize;
        let cell = |i: usize| Cell::new((i % w) as u32, (i / w) as u32);
        if end != q.goal {
            // The budget ended: the path toward the nearest expanded cell, as far as it fits.
            let reached = path.cells(cell(s)).last().unwrap_or(cell(s));
            return Route::Partial { path, reached, cut: Cut::Budget };
        }
        if self.steps.len() > PackedPath::CAPACITY {
            let reached = path.cells(cell(s)).last().unwrap_or(cell(s));
            return Route::Partial { path, reached, cut: Cut::TooLong { cost } };
        }
        Route::Complete { path, cost }
    }
}
