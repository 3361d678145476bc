//! What a chase tick costs without a table, measured beside it: one A* search per enemy, and
//! one flow field (a whole-map search from the player) read by every enemy. Both are checked
//! against the table's exact costs, so the figures time right answers.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::time::Instant;

use anyhow::{Result, bail};
use signposts::Cost;
use signposts::grid::{Cell, Connectivity, Direction, Grid, GridOracle};
use signposts::search::{Layer, Searcher, TileGrid};

/// Enemies timed with A* per measured tick at most: the time for all of them is estimated
/// from these (one A* search takes milliseconds on a large map).
pub const ASTAR_SAMPLE: usize = 250;

/// A straight step's cost in the flow field's integer costs on octile maps.
const STRAIGHT: u64 = 470_832;
/// A diagonal step's: `665857 / 470832` is a convergent of √2, above it by less than
/// 1.6·10⁻¹² a step, so integer sums order paths of these maps' lengths exactly as their
/// exact costs (the crate's A* uses the same pair).
const DIAGONAL: u64 = 665_857;

/// A cell no search has reached.
pub const UNREACHED: u64 = u64::MAX;

/// The four straight moves.
const FOUR: [Direction; 4] = [Direction::North, Direction::East, Direction::South, Direction::West];

/// A flow field: the cost from every cell to the goal, by one search over the whole map —
/// breadth-first on 4-connected maps, Dijkstra over integer costs on octile ones — which a
/// game without a table runs every tick the target moves. Buffers are kept between ticks.
pub struct FlowField {
    connectivity: Connectivity,
    width: usize,
    cost: Vec<u64>,
    queue: VecDeque<u32>,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
}

impl FlowField {
    pub fn new(grid: &Grid, connectivity: Connectivity) -> FlowField {
        let cells = grid.width() as usize * grid.height() as usize;
        FlowField {
            connectivity,
            width: grid.width() as usize,
            cost: vec![UNREACHED; cells],
            queue: VecDeque::new(),
            heap: BinaryHeap::new(),
        }
    }

    fn index(&self, c: Cell) -> usize {
        c.y as usize * self.width + c.x as usize
    }

    fn cell(&self, i: u32) -> Cell {
        Cell::new(i % self.width as u32, i / self.width as u32)
    }

    /// The moves of this field's connectivity, each with its integer cost.
    fn moves(&self) -> impl Iterator<Item = (Direction, u64)> + use<> {
        let (all, straight, diagonal): (&[Direction], u64, u64) = match self.connectivity {
            Connectivity::Four => (&FOUR, 1, 1),
            Connectivity::Eight => (&Direction::ALL, STRAIGHT, DIAGONAL),
            Connectivity::EightUnit => (&Direction::ALL, 1, 1),
        };
        all.iter().map(move |&d| (d, if d.is_diagonal() { diagonal } else { straight }))
    }

    /// The integer cost of an exact path cost, in this field's units.
    fn units(&self, cost: Cost) -> u64 {
        match self.connectivity {
            Connectivity::Four | Connectivity::EightUnit => cost.straight + cost.diagonal,
            Connectivity::Eight => cost.straight * STRAIGHT + cost.diagonal * DIAGONAL,
        }
    }

    /// Searches the whole map from `goal`.
    pub fn compute(&mut self, grid: &Grid, goal: Cell) {
        self.cost.fill(UNREACHED);
        let start = self.index(goal);
        self.cost[start] = 0;
        match self.connectivity {
            // Unit costs: breadth-first.
            Connectivity::Four | Connectivity::EightUnit => {
                self.queue.push_back(start as u32);
                while let Some(i) = self.queue.pop_front() {
                    let next = self.cost[i as usize] + 1;
                    for (d, _) in self.moves() {
                        if let Some(c) = grid.step(self.cell(i), d) {
                            let j = self.index(c);
                            if self.cost[j] == UNREACHED {
                                self.cost[j] = next;
                                self.queue.push_back(j as u32);
                            }
                        }
                    }
                }
            }
            Connectivity::Eight => {
                self.heap.push(Reverse((0, start as u32)));
                while let Some(Reverse((here, i))) = self.heap.pop() {
                    if here > self.cost[i as usize] {
                        continue; // an old entry
                    }
                    for (d, w) in self.moves() {
                        if let Some(c) = grid.step(self.cell(i), d) {
                            let j = self.index(c);
                            if here + w < self.cost[j] {
                                self.cost[j] = here + w;
                                self.heap.push(Reverse((here + w, j as u32)));
                            }
                        }
                    }
                }
            }
        }
    }

    /// The cost from every cell (row-major) to the last goal computed, in this field's
    /// integer units; [`UNREACHED`] where there is no way.
    pub fn costs(&self) -> &[u64] {
        &self.cost
    }

    /// The move from `from` that the field says is on a shortest path: the neighbour with the
    /// least step cost plus field cost, when that leads nearer.
    pub fn step(&self, grid: &Grid, from: Cell) -> Option<Cell> {
        let here = self.cost[self.index(from)];
        self.moves()
            .filter_map(|(d, w)| {
                let c = grid.step(from, d)?;
                let there = self.cost[self.index(c)];
                (there != UNREACHED).then(|| (there + w, c))
            })
            .min_by_key(|&(total, _)| total)
            .filter(|&(total, _)| total == here && here != 0)
            .map(|(_, c)| c)
    }
}

/// Times one A* search per enemy (at most [`ASTAR_SAMPLE`] of them, evenly spread; the time
/// scaled to all) and one flow field read by every enemy, checking each answer against the
/// table's exact cost: A*'s cost, the field's cost, and the field's step (its cost plus the
/// rest of the way equals the whole). Returns (A* ns for all enemies, flow field ns).
pub fn measure(
    oracle: &GridOracle,
    tiles: &TileGrid,
    searcher: &mut Searcher,
    field: &mut FlowField,
    enemies: &[Cell],
    player: Cell,
) -> Result<(f64, f64)> {
    let connectivity = oracle.connectivity();
    let sampled: Vec<Cell> =
        enemies.iter().step_by(enemies.len().div_ceil(ASTAR_SAMPLE).max(1)).copied().collect();
    let start = Instant::now();
    let mut astar: Vec<Option<Cost>> = Vec::with_capacity(sampled.len());
    for &enemy in &sampled {
        astar.push(searcher.astar(tiles, Layer::WALKABLE, connectivity, enemy, player)?.cost());
    }
    let astar_ns = start.elapsed().as_secs_f64() * 1e9 * enemies.len() as f64 / sampled.len().max(1) as f64;
    for (&enemy, cost) in sampled.iter().zip(astar) {
        let table = oracle.cost(enemy, player);
        if cost != table {
            bail!("{enemy} → {player}: the table says {table:?}, A* {cost:?}");
        }
    }

    let grid = oracle.grid();
    let start = Instant::now();
    field.compute(grid, player);
    let steps: Vec<Option<Cell>> = enemies.iter().map(|&e| field.step(grid, e)).collect();
    let field_ns = start.elapsed().as_secs_f64() * 1e9;

    for (&enemy, step) in enemies.iter().zip(steps) {
        let table = oracle.cost(enemy, player);
        let by_field = field.cost[field.index(enemy)];
        if table.map_or(UNREACHED, |c| field.units(c)) != by_field {
            bail!("{enemy} → {player}: the table says {table:?}, the flow field {by_field} units");
        }
        let through = step.and_then(|s| Some(oracle.cost(enemy, s)? + oracle.cost(s, player)?));
        if step.is_some() != (table.is_some() && enemy != player) || (step.is_some() && through != table) {
            bail!("{enemy} → {player}: the flow field's step {step:?} is not on a shortest path");
        }
    }
    Ok((astar_ns, field_ns))
}
