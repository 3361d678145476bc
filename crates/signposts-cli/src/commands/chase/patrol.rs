//! The player's walk. Without a door it wanders the whole map. With one it patrols beside
//! the door on its *home side*: of the door's open neighbours, the one that the most cells
//! reach through the door (closing it lengthens or cuts their way there). The waypoints are
//! the cells a few moves from that neighbour without the door, so most of the map's routes
//! to the player cross the door while it is open and bend round while it is closed.

use anyhow::Result;
use signposts::NextHop;
use signposts::generate::SplitMix64;
use signposts::grid::{Cell, Connectivity, Direction, Grid, GridOracle};
use signposts::search::{Layer, Searcher, TileGrid};

use super::peers::{FlowField, UNREACHED};

/// Where the player patrols: near a door, on its home side.
pub struct Patrol {
    /// The cells within a few moves of the door's home neighbour (not through the door).
    waypoints: Vec<Cell>,
}

impl Patrol {
    /// The patrol beside `door` of `grid` (every door open): waypoints within
    /// [`moves`]`(door_every)` moves of its home neighbour, so that the player stays by the
    /// door.
    pub fn new(grid: &Grid, connectivity: Connectivity, door: Cell, door_every: usize) -> Patrol {
        let mut field = FlowField::new(grid, connectivity);
        let mut closed = grid.clone();
        closed.set_blocked(door, true);
        // For each open neighbour: the cells whose cost to it rises when the door closes.
        let mut best: Option<(usize, Cell, Vec<bool>)> = None;
        for n in Direction::ALL.iter().filter_map(|&d| grid.step(door, d)) {
            field.compute(grid, n);
            let open = field.costs().to_vec();
            field.compute(&closed, n);
            let far: Vec<bool> =
                open.iter().zip(field.costs()).map(|(&a, &b)| a != UNREACHED && b > a).collect();
            let count = far.iter().filter(|&&f| f).count();
            if best.as_ref().is_none_or(|b| count > b.0) {
                best = Some((count, n, far));
            }
        }
        let Some((_, home, _)) = best else {
            return Patrol { waypoints: Vec::new() }; // a door with no open neighbour
        };
        // Breadth-first from the home neighbour, the door closed, up to `moves` moves.
        let (width, limit) = (grid.width() as usize, moves(door_every));
        let mut depth = vec![usize::MAX; width * grid.height() as usize];
        depth[home.y as usize * width + home.x as usize] = 0;
        let mut waypoints = vec![home];
        let mut next = 0;
        while let Some(&c) = waypoints.get(next) {
            next += 1;
            let d = depth[c.y as usize * width + c.x as usize];
            if d == limit {
                continue;
            }
            let steps =
                Direction::ALL.iter().filter(|d| connectivity != Connectivity::Four || !d.is_diagonal());
            for n in steps.filter_map(|&dir| closed.step(c, dir)) {
                let i = n.y as usize * width + n.x as usize;
                if depth[i] == usize::MAX {
                    depth[i] = d + 1;
                    waypoints.push(n);
                }
            }
        }
        Patrol { waypoints }
    }
}

/// How many moves from the door's home neighbour the waypoints lie: an eighth of the door's
/// period (3 to 32), so that the player keeps close to the door, where most of the map's
/// routes to it cross the door.
pub fn moves(door_every: usize) -> usize {
    (door_every / 8).clamp(3, 32)
}

/// The open cell from which most of 256 random open cells can be reached, of 16 tried, so
/// that the player does not start on an island.
fn best_start(oracle: &GridOracle, rng: &mut SplitMix64) -> Cell {
    let n = oracle.nodes_len() as u64;
    let table = oracle.table();
    let sample: Vec<u32> = (0..256).map(|_| rng.below(n) as u32).collect();
    let best = (0..16)
        .map(|_| rng.below(n) as u32)
        .max_by_key(|&v| sample.iter().filter(|&&w| table.path_exists(v, w)).count())
        .expect("16 candidates");
    oracle.cell(best).expect("a node")
}

/// The player's walk, at least `ticks + 1` cells long: shortest paths (one A* each, on the
/// map with every door open) between random waypoints that can be reached, from a start
/// that can reach most of the map. With a `patrol`, the start and the waypoints are the
/// patrol's (near the door, on its home side); when there are fewer than two, or 10,000 in a
/// row cannot be reached, the walk wanders the whole map instead. Whether a waypoint can be reached is the table's
/// exact answer, the paths A*'s, so runs with different tables of one map follow the same
/// route.
pub fn route(
    oracle: &GridOracle,
    ticks: usize,
    patrol: Option<&Patrol>,
    rng: &mut SplitMix64,
) -> Result<Vec<Cell>> {
    let grid = oracle.grid();
    let mut patrol = patrol;
    let pick = |p: &Patrol, rng: &mut SplitMix64| p.waypoints[rng.below(p.waypoints.len() as u64) as usize];
    patrol = patrol.filter(|p| p.waypoints.len() > 1);
    let start = if let Some(p) = patrol { pick(p, rng) } else { best_start(oracle, rng) };
    let tiles = TileGrid::from_grid(grid);
    let mut searcher = Searcher::new();
    let (mut route, mut leg) = (vec![start], Vec::new());
    let mut misses = 0;
    while route.len() <= ticks {
        let goal = match patrol {
            Some(p) => pick(p, rng),
            None => Cell::new(
                rng.below(u64::from(grid.width())) as u32,
                rng.below(u64::from(grid.height())) as u32,
            ),
        };
        let from = *route.last().expect("starts with one cell");
        let reached = goal != from
            && oracle.path_exists(from, goal)
            && searcher
                .astar_into(&tiles, Layer::WALKABLE, oracle.connectivity(), from, goal, &mut leg)?
                .is_some();
        if reached {
            route.extend_from_slice(&leg[1..]);
            misses = 0;
        } else {
            misses += 1;
            if misses > 10_000 && patrol.take().is_none() {
                route.push(from); // no other cell in reach: the player stands still
            }
        }
    }
    Ok(route)
}
