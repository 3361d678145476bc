//! The chase's enemies: the core's [`Crowd`], which moves every enemy one optimal step a tick
//! with any number to a cell (hundreds end up in single file on one line of cells), or, with
//! `--avoid`, the crowd crate's grid walkers ([`GridCrowd`]), at most `--capacity` to a cell,
//! spread over the tied optimal moves, waiting, swapping and sidestepping. Also what the
//! walkers did over the run, and the door's rule with them: it closes only on an empty
//! doorway.

use anyhow::{Result, bail};
use signposts::generate::SplitMix64;
use std::collections::VecDeque;

use signposts::grid::{Cell, GridOracle};
use signposts::{Crowd, NextHop, NodeId};
use signposts_crowd::grid::GridCrowd;

/// Random cells tried for a spawn with room before the cells are scanned in order (from a
/// random one on).
const RANDOM_TRIES: usize = 64;

/// The chase's enemies.
pub enum Enemies {
    /// The core's crowd: no limit to a cell.
    Stacked(Crowd),
    /// Grid walkers that keep to a cell's capacity (`--avoid`).
    Avoiding(Box<Avoiding>),
}

/// Grid walkers with cell capacity, and what they did over the run.
pub struct Avoiding {
    crowd: GridCrowd,
    /// What they did so far.
    pub stats: AvoidStats,
}

/// What the walkers of `--avoid` did over the run.
#[derive(Debug, Clone, Copy, Default)]
pub struct AvoidStats {
    /// Walkers a cell at most (`--capacity`).
    pub capacity: u16,
    /// Ticks of waiting before a sidestep (`None`: never).
    pub sidestep_after: Option<u32>,
    /// The most walkers seen in one cell, after the spawn and after every tick.
    pub most_in_one_cell: u16,
    /// Walker-ticks spent waiting (every optimal cell was full).
    pub waits: usize,
    /// Head-on swaps (two walkers exchanging cells).
    pub swaps: usize,
    /// Steps off the shortest paths after waiting.
    pub sidesteps: usize,
    /// One-cell pushes that cleared the doorway before the door closed (the walkers in it,
    /// and the ones that made room for them).
    pub pushed: usize,
    /// Ticks the door's closing waited because no cell a walk from it reaches had room.
    pub door_waits: usize,
}

impl Enemies {
    /// The enemies' nodes.
    pub fn positions(&self) -> &[NodeId] {
        match self {
            Enemies::Stacked(crowd) => crowd.positions(),
            Enemies::Avoiding(a) => a.crowd.positions(),
        }
    }

    /// Every enemy's move toward `target` (the timed tick: for the core's crowd one batched
    /// table query; for the walkers, their tick, table queries and moves).
    ///
    /// # Errors
    /// When the table does not have an enemy's node or the target.
    pub fn step_toward<T: NextHop + Sync>(&mut self, table: &T, target: NodeId) -> Result<()> {
        match self {
            Enemies::Stacked(crowd) => {
                crowd.step_toward(table, target)?;
            }
            Enemies::Avoiding(a) => {
                let tick = a.crowd.tick_toward(table, target)?;
                a.stats.waits += tick.waited;
                a.stats.swaps += tick.swapped / 2;
                a.stats.sidesteps += tick.sidesteps;
            }
        }
        Ok(())
    }

    /// Sends the enemies that reached `target` this tick (they stood elsewhere `before`)
    /// somewhere else from which it can be reached; returns how many. Where no such cell
    /// (with room, for walkers) is found they stay, caught once. A walker is caught too when
    /// the player `moved` onto it (the core's enemies then stay where they are): else a
    /// player pacing a corridor full of walkers, each of them at its goal when the player
    /// stands on it, would never be reached.
    ///
    /// # Errors
    /// Never, in practice: a respawn moves a walker to a cell with room.
    pub fn respawn_caught(
        &mut self,
        oracle: &GridOracle,
        before: &[NodeId],
        target: NodeId,
        moved: bool,
        rng: &mut SplitMix64,
    ) -> Result<usize> {
        let mut caught = 0;
        match self {
            Enemies::Stacked(crowd) => {
                for (position, &was) in crowd.positions_mut().iter_mut().zip(before) {
                    if *position == target && was != target {
                        caught += 1;
                        *position = super::spawn(oracle, target, rng).unwrap_or(target);
                    }
                }
            }
            Enemies::Avoiding(a) => {
                let table = oracle.table();
                for (walker, &was) in before.iter().enumerate() {
                    if a.crowd.position(walker) == target && (was != target || moved) {
                        caught += 1;
                        let crowd = &a.crowd;
                        let free = |v: NodeId| {
                            v != target
                                && crowd.occupancy(v) < crowd.cell_capacity()
                                && table.path_exists(v, target)
                        };
                        if let Some(v) = free_cell(oracle.nodes_len(), |i| i as NodeId, free, rng) {
                            a.crowd.move_to(walker, v)?;
                        }
                    }
                }
            }
        }
        Ok(caught)
    }

    /// How many distinct cells the enemies occupy (`seen`: scratch, one flag a node, left
    /// all false); for the walkers, also keeps the most seen in one cell.
    pub fn occupied_cells(&mut self, seen: &mut Vec<bool>, nodes: usize) -> usize {
        seen.resize(nodes, false);
        let mut distinct = 0;
        for &v in self.positions() {
            if !std::mem::replace(&mut seen[v as usize], true) {
                distinct += 1;
            }
        }
        for &v in self.positions() {
            seen[v as usize] = false;
        }
        if let Enemies::Avoiding(a) = self {
            let most = a.crowd.positions().iter().map(|&v| a.crowd.occupancy(v)).max().unwrap_or(0);
            a.stats.most_in_one_cell = a.stats.most_in_one_cell.max(most);
        }
        distinct
    }

    /// The walkers' figures (`None` for the core's crowd).
    pub fn stats(&self) -> Option<AvoidStats> {
        match self {
            Enemies::Stacked(_) => None,
            Enemies::Avoiding(a) => Some(a.stats),
        }
    }

    /// Clears the doorway before the door closes on it: each walker in it is pushed one
    /// cell, toward the nearest cell with room (by moves, the `player`'s cell never one), and
    /// one walker of each full cell on the way moves one cell along, so that nobody moves
    /// more than a cell. Returns false, and counts a wait, when no cell that a walk from the
    /// door reaches has room (the door must wait); true at once for the core's crowd, whose
    /// enemies are not moved.
    ///
    /// # Errors
    /// When `door` or `player` is not an open cell of `oracle`.
    pub fn clear_doorway(&mut self, oracle: &GridOracle, door: Cell, player: Cell) -> Result<bool> {
        let Enemies::Avoiding(a) = self else { return Ok(true) };
        let (Some(door), Some(player)) = (oracle.node(door), oracle.node(player)) else {
            bail!("the door {door} and the player {player} must be open cells");
        };
        while a.crowd.occupancy(door) > 0 {
            let Some(chain) = a.way_to_room(oracle, door, player) else {
                a.stats.door_waits += 1;
                return Ok(false);
            };
            // From the cell with room back to the door: each cell's walker steps into the
            // room its successor just had or made.
            for pair in chain.windows(2) {
                let (to, from) = (pair[0], pair[1]);
                let walker = (0..a.crowd.len())
                    .find(|&w| a.crowd.position(w) == from)
                    .expect("the cells on the way are full, so hold walkers");
                a.crowd.move_to(walker, to)?;
                a.stats.pushed += 1;
            }
        }
        Ok(true)
    }

    /// After the door's change on `oracle`: the walkers take its moves again.
    ///
    /// # Errors
    /// When the oracle's nodes no longer match the walkers' (it was rebuilt).
    pub fn door_changed(&mut self, oracle: &GridOracle) -> Result<()> {
        if let Enemies::Avoiding(a) = self {
            a.crowd.oracle_changed(oracle)?;
        }
        Ok(())
    }
}

impl Avoiding {
    /// The shortest way by moves from `from` to the nearest cell with room other than
    /// `player`'s (not through it), listed from that cell back to `from`; `None` when none is
    /// reached.
    fn way_to_room(&self, oracle: &GridOracle, from: NodeId, player: NodeId) -> Option<Vec<NodeId>> {
        let grid = oracle.grid();
        let moves = super::door::moves(oracle.connectivity());
        let capacity = self.crowd.cell_capacity();
        let mut parent = vec![NodeId::MAX; oracle.nodes_len()];
        parent[from as usize] = from;
        let mut queue = VecDeque::from([from]);
        while let Some(v) = queue.pop_front() {
            let cell = oracle.cell(v).expect("a node");
            for w in moves.iter().filter_map(|&d| grid.step(cell, d)).filter_map(|c| oracle.node(c)) {
                if w == player || parent[w as usize] != NodeId::MAX {
                    continue;
                }
                parent[w as usize] = v;
                if self.crowd.occupancy(w) < capacity {
                    let mut chain = vec![w];
                    while let Some(&last) = chain.last().filter(|&&c| c != from) {
                        chain.push(parent[last as usize]);
                    }
                    return Some(chain);
                }
                queue.push_back(w);
            }
        }
        None
    }
}

/// `enemies` walkers on random cells with room from which `player` can be reached,
/// `capacity` a cell, sidestepping after `sidestep_after` ticks of waiting.
///
/// # Errors
/// When they do not fit: fewer than `enemies` places (cells that reach the player, the
/// player's own cell excepted, times the capacity); the message says how many there are.
pub fn avoiding(
    oracle: &GridOracle,
    player: NodeId,
    enemies: usize,
    capacity: u16,
    sidestep_after: Option<u32>,
    rng: &mut SplitMix64,
) -> Result<Avoiding> {
    let table = oracle.table();
    let reach: Vec<NodeId> =
        (0..oracle.nodes_len() as NodeId).filter(|&v| v != player && table.path_exists(v, player)).collect();
    let room = reach.len().saturating_mul(usize::from(capacity));
    if enemies > room {
        let at = oracle.cell(player).expect("a node");
        bail!(
            "{enemies} enemies do not fit: {} cells lead to the player's start {at}, room for {room} at {capacity} a cell: lower --enemies or raise --capacity",
            reach.len()
        );
    }
    let mut crowd = GridCrowd::new(oracle).with_cell_capacity(capacity).with_sidestep_after(sidestep_after);
    for _ in 0..enemies {
        let free = |v: NodeId| crowd.occupancy(v) < capacity;
        let v = free_cell(reach.len(), |i| reach[i], free, rng).expect("room was counted");
        crowd.add(v, player)?;
    }
    let stats = AvoidStats { capacity, sidestep_after, ..AvoidStats::default() };
    Ok(Avoiding { crowd, stats })
}

/// One of the `len` candidates `at(0..len)` that is `free`: [`RANDOM_TRIES`] random ones,
/// then every one in order from a random one on; `None` when none is.
fn free_cell(
    len: usize,
    at: impl Fn(usize) -> NodeId,
    free: impl Fn(NodeId) -> bool,
    rng: &mut SplitMix64,
) -> Option<NodeId> {
    if len == 0 {
        return None;
    }
    let mut pick = || rng.below(len as u64) as usize;
    if let Some(v) = (0..RANDOM_TRIES).map(|_| at(pick())).find(|&v| free(v)) {
        return Some(v);
    }
    let start = pick();
    (start..len).chain(0..start).map(at).find(|&v| free(v))
}

#[cfg(test)]
mod tests {
    use signposts::generate::SplitMix64;
    use signposts::grid::{Cell, Connectivity, Grid, GridOracle};

    use super::{Enemies, avoiding, free_cell};

    #[test]
    fn a_free_cell_is_found_when_one_is_left_and_none_when_none_is() {
        let mut rng = SplitMix64::new(7);
        for free in 0..100 {
            assert_eq!(free_cell(100, |i| i as u32, |v| v == free, &mut rng), Some(free));
        }
        assert_eq!(free_cell(100, |i| i as u32, |_| false, &mut rng), None);
        assert_eq!(free_cell(0, |i| i as u32, |_| true, &mut rng), None);
    }

    #[test]
    fn the_walkers_fill_every_place_and_refuse_one_more() {
        // Two rooms of 3 cells joined by a door; the player in one: 5 cells lead to it.
        let oracle =
            GridOracle::build(&Grid::from_ascii("...#\n...#\n#.##\n....\n").unwrap(), Connectivity::Four)
                .unwrap();
        let player = oracle.node(Cell::new(0, 0)).unwrap();
        let places = (oracle.nodes_len() - 1) * 2;
        let mut rng = SplitMix64::new(1);
        let walkers = avoiding(&oracle, player, places, 2, None, &mut rng).unwrap();
        assert!(
            (0..oracle.nodes_len() as u32)
                .all(|v| walkers.crowd.occupancy(v) == if v == player { 0 } else { 2 })
        );
        let err = avoiding(&oracle, player, places + 1, 2, None, &mut rng).err().unwrap().to_string();
        assert!(err.contains(&format!("room for {places} at 2 a cell")), "{err}");
    }

    #[test]
    fn the_doorway_is_cleared_by_one_cell_pushes_or_the_door_waits() {
        // A corridor, the door in the middle, the player at the west end, walkers on
        // every cell but the last.
        let mut oracle =
            GridOracle::build(&Grid::from_ascii(".......").unwrap(), Connectivity::Four).unwrap();
        let node = |x| oracle.node(Cell::new(x, 0)).unwrap();
        let (door, player) = (Cell::new(3, 0), Cell::new(0, 0));
        let mut rng = SplitMix64::new(3);
        let mut walkers = avoiding(&oracle, node(0), 0, 1, None, &mut rng).unwrap();
        for x in 1..6 {
            walkers.crowd.add(node(x), node(0)).unwrap();
        }
        let mut enemies = Enemies::Avoiding(Box::new(walkers));
        // The room is east, three cells from the door: three one-cell pushes.
        assert!(enemies.clear_doorway(&oracle, door, player).unwrap());
        assert_eq!(enemies.positions(), [node(1), node(2), node(4), node(5), node(6)]);
        let stats = enemies.stats().unwrap();
        assert_eq!((stats.pushed, stats.door_waits), (3, 0));
        // Every cell but the player's taken: the door waits.
        let mut full = Enemies::Avoiding(Box::new(avoiding(&oracle, node(0), 6, 1, None, &mut rng).unwrap()));
        assert!(!full.clear_doorway(&oracle, door, player).unwrap());
        assert_eq!(full.stats().unwrap().door_waits, 1);
        oracle.set_blocked(door, true).unwrap();
        enemies.door_changed(&oracle).unwrap();
    }
}
