//! The chase's door: a cell whose closing changes real routes. Candidates are the open cells
//! that cut their own neighbourhood in two (a passage one cell wide, for the chase's moves);
//! of those on the most shortest paths from a sample of sources, the one whose closing
//! lengthens or cuts the most routes from those sources to every cell is kept, and what its
//! closing does is measured.

use signposts::generate::SplitMix64;
use signposts::grid::{Cell, Connectivity, Direction, Grid};

use super::peers::{FlowField, UNREACHED};

/// Candidates measured: the local cuts on the most sampled shortest paths.
const CANDIDATES: usize = 12;

/// Sources of the routes measured (each to every open cell).
const SOURCES: usize = 16;

/// What closing a door does to the sampled routes: from [`SOURCES`] open cells to every open
/// cell, with every other cell as it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Effect {
    /// Routes measured (pairs with a way between them while the door is open).
    pub routes: usize,
    /// Routes the closed door makes longer.
    pub lengthened: usize,
    /// Routes it leaves with no way round.
    pub cut: usize,
    /// How much longer the lengthened routes get, on average, in percent.
    pub longer_percent: f64,
}

impl Effect {
    /// Routes the door changes: lengthened or cut.
    pub fn changed(&self) -> usize {
        self.lengthened + self.cut
    }

    /// The effect in words: "closing it lengthens 812 of 38000 sampled routes by 14.2% on
    /// average and cuts off 0".
    pub fn describe(&self) -> String {
        format!(
            "closing it lengthens {} of {} sampled routes (from {SOURCES} cells to every cell) by {:.1}% on average, and leaves {} with no way round",
            self.lengthened, self.routes, self.longer_percent, self.cut
        )
    }
}

/// The moves of `connectivity`.
pub(super) fn moves(connectivity: Connectivity) -> &'static [Direction] {
    match connectivity {
        Connectivity::Four => &[Direction::North, Direction::East, Direction::South, Direction::West],
        Connectivity::Eight | Connectivity::EightUnit => &Direction::ALL,
    }
}

/// Whether blocking the open cell `c` splits its open neighbours (those one move away) into
/// groups that no way around `c` within its ring of eight cells joins: a passage one cell
/// wide.
fn is_local_cut(grid: &Grid, connectivity: Connectivity, c: Cell) -> bool {
    let ring: Vec<Cell> = Direction::ALL.iter().filter_map(|&d| open_at(grid, c, d)).collect();
    let neighbours: Vec<usize> = moves(connectivity)
        .iter()
        .filter_map(|&d| grid.step(c, d))
        .filter_map(|n| ring.iter().position(|&r| r == n))
        .collect();
    if neighbours.len() < 2 {
        return false; // a dead end: closing it cuts off nothing but itself
    }
    // Flood the ring from the first neighbour, by moves that stay in the ring.
    let mut reached = vec![false; ring.len()];
    let mut stack = vec![neighbours[0]];
    reached[neighbours[0]] = true;
    while let Some(i) = stack.pop() {
        for &d in moves(connectivity) {
            if let Some(next) = grid.step(ring[i], d)
                && let Some(j) = ring.iter().position(|&r| r == next)
                && !reached[j]
            {
                reached[j] = true;
                stack.push(j);
            }
        }
    }
    neighbours.iter().any(|&i| !reached[i])
}

/// The open cell one step from `c` toward `d`, whatever the corners (a diagonal cell that the
/// move rules would not step to still joins the ring).
fn open_at(grid: &Grid, c: Cell, d: Direction) -> Option<Cell> {
    let (dx, dy) = d.delta();
    let x = c.x.checked_add_signed(dx)?;
    let y = c.y.checked_add_signed(dy)?;
    let cell = Cell::new(x, y);
    (grid.contains(cell) && grid.is_passable(cell)).then_some(cell)
}

/// The door: of the local cuts, the [`CANDIDATES`] on the most sampled shortest paths are
/// measured, and the one whose closing changes the most sampled routes is kept (ties: the
/// nearer the centre), with its effect; `None` when the map has no local cut.
pub fn choose(grid: &Grid, connectivity: Connectivity, seed: u64) -> Option<(Cell, Effect)> {
    let (cx, cy) = (i64::from(grid.width() / 2), i64::from(grid.height() / 2));
    let from_centre = |c: Cell| (i64::from(c.x) - cx).pow(2) + (i64::from(c.y) - cy).pow(2);
    let mut sampler = Sampler::new(grid, connectivity, seed);
    let through = sampler.paths_through();
    let width = grid.width() as usize;
    let mut candidates: Vec<Cell> = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| grid.is_passable(c) && is_local_cut(grid, connectivity, c))
        .collect();
    candidates
        .sort_by_key(|&c| (std::cmp::Reverse(through[c.y as usize * width + c.x as usize]), from_centre(c)));
    candidates.truncate(CANDIDATES);
    candidates
        .into_iter()
        .map(|c| (c, sampler.effect(c)))
        .max_by_key(|&(c, e)| (e.changed(), std::cmp::Reverse(from_centre(c))))
}

/// What closing `door` does to the sampled routes.
pub fn effect(grid: &Grid, connectivity: Connectivity, seed: u64, door: Cell) -> Effect {
    Sampler::new(grid, connectivity, seed).effect(door)
}

/// The sampled sources and their costs to every cell with every door open.
struct Sampler {
    grid: Grid,
    field: FlowField,
    sources: Vec<Cell>,
    open_costs: Vec<Vec<u64>>,
}

impl Sampler {
    fn new(grid: &Grid, connectivity: Connectivity, seed: u64) -> Sampler {
        let mut rng = SplitMix64::new(seed ^ 0xD00D_D00D);
        let mut field = FlowField::new(grid, connectivity);
        let mut sources = Vec::new();
        for _ in 0..SOURCES * 1000 {
            if sources.len() == SOURCES || grid.passable_len() == 0 {
                break;
            }
            let c = Cell::new(
                rng.below(u64::from(grid.width())) as u32,
                rng.below(u64::from(grid.height())) as u32,
            );
            if grid.is_passable(c) {
                sources.push(c);
            }
        }
        let open_costs = sources
            .iter()
            .map(|&s| {
                field.compute(grid, s);
                field.costs().to_vec()
            })
            .collect();
        Sampler { grid: grid.clone(), field, sources, open_costs }
    }

    /// For every cell, how many of the sampled shortest paths (one per source and open cell,
    /// each following the flow field's first step) pass through it.
    fn paths_through(&mut self) -> Vec<u64> {
        let width = self.grid.width() as usize;
        let mut through = vec![0; self.open_costs.first().map_or(0, Vec::len)];
        let mut order: Vec<usize> = Vec::new();
        let mut size = vec![0u64; through.len()];
        for (&source, costs) in self.sources.iter().zip(&self.open_costs) {
            self.field.compute(&self.grid, source);
            // Farthest first: each cell's subtree is whole when it hands it to its parent.
            order.clear();
            order.extend((0..costs.len()).filter(|&i| costs[i] != UNREACHED));
            order.sort_unstable_by_key(|&i| std::cmp::Reverse(costs[i]));
            size.fill(1);
            for &i in &order {
                through[i] += size[i];
                let cell = Cell::new((i % width) as u32, (i / width) as u32);
                if let Some(parent) = self.field.step(&self.grid, cell) {
                    size[parent.y as usize * width + parent.x as usize] += size[i];
                }
            }
        }
        through
    }

    fn effect(&mut self, door: Cell) -> Effect {
        let door_index = door.y as usize * self.grid.width() as usize + door.x as usize;
        self.grid.set_blocked(door, true);
        let (mut routes, mut lengthened, mut cut, mut longer) = (0, 0, 0, 0.0);
        for (&source, open) in self.sources.iter().zip(&self.open_costs) {
            if source == door {
                continue;
            }
            self.field.compute(&self.grid, source);
            for (i, (&before, &after)) in open.iter().zip(self.field.costs()).enumerate() {
                if before == UNREACHED || before == 0 || i == door_index {
                    continue;
                }
                routes += 1;
                if after == UNREACHED {
                    cut += 1;
                } else if after > before {
                    lengthened += 1;
                    longer += (after - before) as f64 / before as f64;
                }
            }
        }
        self.grid.set_blocked(door, false);
        let longer_percent = if lengthened == 0 { 0.0 } else { 100.0 * longer / lengthened as f64 };
        Effect { routes, lengthened, cut, longer_percent }
    }
}

#[cfg(test)]
mod tests {
    use signposts::grid::{Cell, Connectivity, parse_map};

    use super::{choose, effect};

    #[test]
    fn the_door_is_on_real_routes_not_at_a_dead_end() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../maps/lak303d.map");
        let grid = parse_map(&std::fs::read(path).expect("the Moving AI maps")).expect("a map");
        // The door chosen before: a one-cell passage (by its four neighbours) nearest the
        // centre, whose closing cut off only the dead-end cell (83, 55) behind it.
        let old = effect(&grid, Connectivity::Eight, 1, Cell::new(82, 55));
        assert_eq!((old.lengthened, old.cut), (0, 16), "{old:?}");
        let (door, chosen) = choose(&grid, Connectivity::Eight, 1).expect("lak303d has narrow passages");
        assert!(chosen.changed() * 20 > chosen.routes, "{door}: {chosen:?}");
        assert!(chosen.longer_percent > 5.0, "{door}: {chosen:?}");
        assert_eq!(effect(&grid, Connectivity::Eight, 1, door), chosen);
    }

    #[test]
    fn a_corridor_cell_is_a_local_cut_and_a_room_cell_is_not() {
        let room = signposts::grid::Grid::from_ascii("...\n...\n...\n").expect("a picture");
        // Between the edge and a pillar: one cell wide here, though there is a way round.
        let pillar = signposts::grid::Grid::from_ascii("...\n.#.\n...\n").expect("a picture");
        for connectivity in [Connectivity::Four, Connectivity::Eight] {
            assert!(!super::is_local_cut(&room, connectivity, Cell::new(1, 1)), "{connectivity:?}");
            assert!(!super::is_local_cut(&room, connectivity, Cell::new(0, 0)), "{connectivity:?}");
            assert!(super::is_local_cut(&pillar, connectivity, Cell::new(1, 0)), "{connectivity:?}");
        }
        assert!(choose(&room, Connectivity::Four, 1).is_none(), "an open room has no passage");
        let joined =
            signposts::grid::Grid::from_ascii(".....\n.....\n##.##\n.....\n.....\n").expect("a picture");
        let (door, e) = choose(&joined, Connectivity::Eight, 1).expect("one passage");
        assert_eq!(door, Cell::new(2, 2));
        assert!(e.cut > 0 && e.lengthened == 0, "{e:?}");
    }
}
