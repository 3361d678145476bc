//! Seeded graph generators for demos, tests and benchmarks.
//!
//! Every generator lays out cells row-major: cell `(x, y)` is node `y * width + x`. Blocked
//! cells stay in the graph as isolated nodes so that ids match coordinates. The same seed gives
//! the same graph on every platform.

use crate::builder::CostModel;
use crate::grid::Grid;
use crate::{GraphBuilder, NodeId};

pub use crate::grid::Connectivity;

/// A small, fast, seedable generator (`SplitMix64`), so results do not depend on a crate version.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from `seed`.
    ///
    /// ```
    /// let mut a = signposts::generate::SplitMix64::new(7);
    /// let mut b = signposts::generate::SplitMix64::new(7);
    /// assert_eq!(a.next_u64(), b.next_u64());
    /// ```
    #[must_use]
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    ///
    /// ```
    /// let mut r = signposts::generate::SplitMix64::new(1);
    /// assert_ne!(r.next_u64(), r.next_u64());
    /// ```
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..bound`.
    ///
    /// # Panics
    /// If `bound` is 0.
    ///
    /// ```
    /// let mut r = signposts::generate::SplitMix64::new(1);
    /// assert!((0..100).all(|_| r.below(6) < 6));
    /// ```
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "bound must be positive");
        // Lemire's multiply-shift; the slight bias is irrelevant for map generation.
        ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as u64
    }

    /// True with probability `p`.
    ///
    /// ```
    /// let mut r = signposts::generate::SplitMix64::new(1);
    /// assert!(!r.chance(0.0) && r.chance(1.0));
    /// ```
    #[expect(clippy::cast_precision_loss, reason = "53 random bits are plenty")]
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64) < p * (1u64 << 53) as f64
    }
}

fn node(width: usize, x: usize, y: usize) -> NodeId {
    NodeId::try_from(y * width + x).expect("grid fits in u32 node ids")
}

/// A `width × height` grid where `open(x, y)` says which cells are passable.
///
/// # Panics
/// If the grid has more cells than [`MAX_NODES`](crate::MAX_NODES).
///
/// ```
/// use signposts::generate::{grid_from_fn, Connectivity};
/// // A 3×1 corridor with its middle blocked: the ends cannot meet.
/// let g = grid_from_fn(3, 1, Connectivity::Four, |x, _| x != 1).build();
/// assert!(!g.path_exists(0, 2));
/// ```
pub fn grid_from_fn(
    width: usize,
    height: usize,
    connectivity: Connectivity,
    open: impl Fn(usize, usize) -> bool,
) -> GraphBuilder {
    let cells = width.checked_mul(height).expect("grid size overflows usize");
    let mut passable = vec![false; cells];
    for y in 0..height {
        for x in 0..width {
            passable[y * width + x] = open(x, y);
        }
    }
    let p = |x: usize, y: usize| passable[y * width + x];
    let mut builder = GraphBuilder::new(cells);
    // Under the octile model a stored cost of 2 is a diagonal step (√2).
    let diagonal = if connectivity == Connectivity::Eight { 2 } else { 1 };
    for y in 0..height {
        for x in 0..width {
            if !p(x, y) {
                continue;
            }
            if x + 1 < width && p(x + 1, y) {
                builder.connect(node(width, x, y), node(width, x + 1, y));
            }
            if y + 1 < height && p(x, y + 1) {
                builder.connect(node(width, x, y), node(width, x, y + 1));
            }
            if connectivity != Connectivity::Four && y + 1 < height {
                if x + 1 < width && p(x + 1, y + 1) && p(x + 1, y) && p(x, y + 1) {
                    builder.connect_weighted(node(width, x, y), node(width, x + 1, y + 1), diagonal);
                }
                if x > 0 && p(x - 1, y + 1) && p(x - 1, y) && p(x, y + 1) {
                    builder.connect_weighted(node(width, x, y), node(width, x - 1, y + 1), diagonal);
                }
            }
        }
    }
    if connectivity == Connectivity::Eight {
        builder.set_model(CostModel::Octile);
    }
    builder
}

/// An open `width × height` grid.
///
/// ```
/// use signposts::generate::{grid, Connectivity};
/// use signposts::Cost;
/// let g = grid(10, 10, Connectivity::Four).build();
/// assert_eq!(g.cost(0, 99), Some(Cost::integer(18)));
/// // Diagonals cost √2: nine of them, counted exactly.
/// let g = grid(10, 10, Connectivity::Eight).build();
/// assert_eq!(g.cost(0, 99), Some(Cost { straight: 0, diagonal: 9 }));
/// // Every step costs 1 (a chess king's moves).
/// let g = grid(10, 10, Connectivity::EightUnit).build();
/// assert_eq!(g.cost(0, 99), Some(Cost::integer(9)));
/// ```
#[must_use]
pub fn grid(width: usize, height: usize, connectivity: Connectivity) -> GraphBuilder {
    grid_from_fn(width, height, connectivity, |_, _| true)
}

/// A grid where each cell is a wall with probability `walls` (seeded).
///
/// ```
/// use signposts::generate::{walled_grid, Connectivity};
/// let a = walled_grid(20, 20, 0.2, 7, Connectivity::Four);
/// assert_eq!(a, walled_grid(20, 20, 0.2, 7, Connectivity::Four));
/// assert!(a.edges_len() < 2 * 19 * 20);
/// ```
#[must_use]
pub fn walled_grid(
    width: usize,
    height: usize,
    walls: f64,
    seed: u64,
    connectivity: Connectivity,
) -> GraphBuilder {
    let mut rng = SplitMix64::new(seed);
    let cells = width * height;
    let wall: Vec<bool> = (0..cells).map(|_| rng.chance(walls)).collect();
    grid_from_fn(width, height, connectivity, |x, y| !wall[y * width + x])
}

/// A perfect maze on a `width × height` grid of cells: a spanning tree carved by a randomized
/// depth-first search (seeded). Every cell is a node; exactly one path joins any two.
///
/// ```
/// let g = signposts::generate::maze(8, 8, 1).build();
/// assert_eq!(g.edges_len(), 63); // a tree
/// assert_eq!(g.components_len(), 1);
/// ```
#[must_use]
pub fn maze(width: usize, height: usize, seed: u64) -> GraphBuilder {
    let cells = width * height;
    let mut builder = GraphBuilder::new(cells);
    if cells == 0 {
        return builder;
    }
    let mut rng = SplitMix64::new(seed);
    let mut carved = vec![false; cells];
    let mut stack = vec![0usize];
    carved[0] = true;
    let mut options = Vec::with_capacity(4);
    while let Some(&cell) = stack.last() {
        let (x, y) = (cell % width, cell / width);
        options.clear();
        if x > 0 {
            options.push(cell - 1);
        }
        if x + 1 < width {
            options.push(cell + 1);
        }
        if y > 0 {
            options.push(cell - width);
        }
        if y + 1 < height {
            options.push(cell + width);
        }
        options.retain(|&c| !carved[c]);
        if options.is_empty() {
            stack.pop();
            continue;
        }
        #[expect(clippy::cast_possible_truncation, reason = "at most 4 options")]
        let next = options[rng.below(options.len() as u64) as usize];
        carved[next] = true;
        builder.connect(node(1, cell, 0), node(1, next, 0));
        stack.push(next);
    }
    builder
}

/// A maze drawn on a tile grid: `rooms_x × rooms_y` rooms, a grid of `2·rooms_x + 1` by
/// `2·rooms_y + 1` cells with walls between the rooms, carved depth-first from `seed`; then
/// each wall between two rooms is knocked down with chance `1 / loops`, so that there are
/// several ways between places (`loops == 0`: none, a perfect maze). The game examples and the
/// web page play on these.
///
/// ```
/// let maze = signposts::generate::maze_grid(4, 3, 0, 42);
/// assert_eq!((maze.width(), maze.height()), (9, 7));
/// // A perfect maze: every room and one wall between each two joined rooms.
/// assert_eq!(maze.passable_len(), 4 * 3 + (4 * 3 - 1));
/// ```
#[must_use]
pub fn maze_grid(rooms_x: u32, rooms_y: u32, loops: u64, seed: u64) -> Grid {
    let (width, height) = (2 * rooms_x + 1, 2 * rooms_y + 1);
    let at = |x: u32, y: u32| (y * width + x) as usize;
    let mut open = vec![false; at(0, height)];
    // Xorshift (not SplitMix64: the mazes measured in docs/ came from this one).
    let mut state = if seed == 0 { 0x9e37_79b9_7f4a_7c15 } else { seed };
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    if rooms_x == 0 || rooms_y == 0 {
        return Grid::from_fn(width, height, |_| false);
    }
    let mut stack = vec![(0u32, 0u32)];
    open[at(1, 1)] = true;
    while let Some(&(x, y)) = stack.last() {
        let ways: Vec<(u32, u32)> = [(0i32, -1i32), (1, 0), (0, 1), (-1, 0)]
            .iter()
            .filter_map(|&(dx, dy)| Some((x.checked_add_signed(dx)?, y.checked_add_signed(dy)?)))
            .filter(|&(nx, ny)| nx < rooms_x && ny < rooms_y && !open[at(2 * nx + 1, 2 * ny + 1)])
            .collect();
        if ways.is_empty() {
            stack.pop();
            continue;
        }
        let (nx, ny) = ways[(next() % ways.len() as u64) as usize];
        open[at(2 * nx + 1, 2 * ny + 1)] = true;
        open[at(x + nx + 1, y + ny + 1)] = true; // the wall between
        stack.push((nx, ny));
    }
    if loops > 0 {
        for y in 1..height - 1 {
            for x in 1..width - 1 {
                let between = (x % 2 == 0) != (y % 2 == 0);
                if between && !open[at(x, y)] && next().is_multiple_of(loops) {
                    open[at(x, y)] = true;
                }
            }
        }
    }
    Grid::from_fn(width, height, |c| open[at(c.x, c.y)])
}
