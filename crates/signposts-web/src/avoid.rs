//! Crowd avoidance for the page (`signposts_crowd`): in the grid mode the enemies are walkers
//! of a [`GridCrowd`] with room for one a cell, in the rooms mode [`Agents`] kept apart by
//! reciprocal avoidance (ORCA). Off, the enemies follow the same optimal moves and pile up
//! many to a cell.

use std::collections::HashSet;

use signposts::grid::{Cell, GridOracle};
use signposts::{Error, NodeId};
use signposts_crowd::agents::{Agent, AgentId, Agents, GoalId, Overlaps, Settings, Stats};
use signposts_crowd::grid::GridCrowd;
use signposts_rooms::Point;

use crate::{Game, RoomsGame, random_cell, reserve, xorshift};

/// The radius of a rooms enemy with avoidance on, in cells: two pass side by side only where
/// the walkable area is wider than a cell and a fifth; a one-cell corridor makes them queue.
pub const AGENT_RADIUS: f64 = 0.3;

/// About the bytes a [`GridCrowd`] takes per node of its oracle (neighbour lists, occupancy, a
/// tick's waiting lists) and per walker (its cell, goal, moves and waits): checked fallibly
/// before one is made, so that a crowd too large for the memory is an error, not an abort.
const CROWD_BYTES: (usize, usize) = (48, 64);

/// About the bytes an agent of [`Agents`] takes (position, velocity, waypoint, a step's
/// buffers), checked in the same way.
const AGENT_BYTES: usize = 256;

/// [`Error::AllocationFailed`] unless `bytes` can be had now.
fn room_for(bytes: usize) -> Result<(), Error> {
    let mut probe: Vec<u8> = Vec::new();
    probe.try_reserve_exact(bytes).map_err(|_| Error::AllocationFailed { bytes: bytes as u64 })
}

/// The node of a random open cell that no walker stands on; `None` when every open cell
/// holds one. A few random picks, then a scan of `open` from a random cell.
fn free_node(crowd: &GridCrowd, oracle: &GridOracle, open: &[Cell], seed: &mut u64) -> Option<NodeId> {
    let free = |c: Cell| oracle.node(c).filter(|&v| crowd.occupancy(v) == 0);
    for _ in 0..32 {
        if let Some(v) = random_cell(open, seed).and_then(free) {
            return Some(v);
        }
    }
    let start = (xorshift(seed) % open.len().max(1) as u64) as usize;
    open.get(start..)?.iter().chain(&open[..start]).find_map(|&c| free(c))
}

/// The nodes of `n` random free open cells, all different (fewer when fewer are free).
fn free_nodes(
    crowd: &GridCrowd,
    oracle: &GridOracle,
    open: &[Cell],
    seed: &mut u64,
    n: usize,
) -> Result<Vec<NodeId>, Error> {
    let mut free = Vec::new();
    reserve(&mut free, open.len())?;
    free.extend(open.iter().filter_map(|&c| oracle.node(c)).filter(|&v| crowd.occupancy(v) == 0));
    let n = n.min(free.len());
    // The first `n` of a Fisher-Yates shuffle.
    for i in 0..n {
        let j = i + (xorshift(seed) % (free.len() - i) as u64) as usize;
        free.swap(i, j);
    }
    free.truncate(n);
    Ok(free)
}

/// The cells that hold the centre of one of `points` (cell `(x, y)` spans `[x, x + 1] ×
/// [y, y + 1]`).
fn cells_of(points: impl ExactSizeIterator<Item = Point>) -> Result<HashSet<Cell>, Error> {
    let mut cells = HashSet::new();
    cells
        .try_reserve(points.len())
        .map_err(|_| Error::AllocationFailed { bytes: (points.len() as u64).saturating_mul(16) })?;
    cells.extend(points.map(cell_of));
    Ok(cells)
}

/// The cell that holds `p` (points of the walkable area are not negative).
#[expect(clippy::cast_sign_loss, reason = "the walkable area's coordinates are not negative; `as` saturates")]
fn cell_of(p: Point) -> Cell {
    Cell::new(p.x.floor() as u32, p.y.floor() as u32)
}

/// The centre of a random open cell that holds no agent's centre (marked taken), or `None`
/// when every open cell holds one. A few random picks, then a scan from a random cell.
fn free_centre(taken: &mut HashSet<Cell>, open: &[Cell], seed: &mut u64) -> Option<Point> {
    let mut cell = None;
    for _ in 0..32 {
        cell = random_cell(open, seed).filter(|c| !taken.contains(c));
        if cell.is_some() {
            break;
        }
    }
    if cell.is_none() {
        let start = (xorshift(seed) % open.len().max(1) as u64) as usize;
        cell = open.get(start..)?.iter().chain(&open[..start]).find(|c| !taken.contains(c)).copied();
    }
    let cell = cell?;
    taken.insert(cell);
    Some(Point::new(f64::from(cell.x) + 0.5, f64::from(cell.y) + 0.5))
}

impl Game {
    /// Turns avoidance on or off. On: the enemies become walkers of a [`GridCrowd`] with room
    /// for one a cell; each keeps its cell, those that shared one move to random free cells,
    /// and those beyond the open cells are removed (the count is clamped to the open cells
    /// from then on). Each [`Game::tick`] every enemy takes the least crowded of its optimal
    /// moves toward the player, waits when all are taken (two that want each other's cells
    /// swap), and the enemy that reaches the player starts again at a random free cell. Off:
    /// the enemies stay where they are and step as before, many to a cell. Returns the number
    /// of enemies now.
    ///
    /// # Errors
    /// [`Error::AllocationFailed`] when the crowd's memory cannot be had; avoidance is then
    /// off and the enemies as before.
    pub fn set_avoid(&mut self, on: bool) -> Result<usize, Error> {
        if !on {
            self.crowd = None;
        } else if self.crowd.is_none() {
            // The crowd reads the table itself: a repair under way ends first.
            self.finish_repair()?;
            self.crowd = Some(self.new_crowd()?);
            self.sync_crowd();
        }
        Ok(self.enemies.len())
    }

    /// Whether avoidance is on ([`Game::set_avoid`]).
    #[must_use]
    pub fn avoiding(&self) -> bool {
        self.crowd.is_some()
    }

    /// The number of open cells: with avoidance on, the most enemies the game keeps.
    #[must_use]
    pub fn open_len(&self) -> usize {
        self.open.len()
    }

    /// The most enemies standing on one cell, counted from their cells (0 without enemies;
    /// with avoidance on, 1).
    ///
    /// # Errors
    /// [`Error::AllocationFailed`] when the count's memory cannot be had.
    pub fn most_in_a_cell(&self) -> Result<usize, Error> {
        let mut cells = Vec::new();
        reserve(&mut cells, self.enemies.len())?;
        cells.extend_from_slice(&self.enemies);
        cells.sort_unstable();
        Ok(cells.chunk_by(|a, b| a == b).map(<[Cell]>::len).max().unwrap_or(0))
    }

    /// A crowd of the enemies as they stand: each on its cell, those on a cell taken (or
    /// blocked) on random free cells, the rest dropped.
    fn new_crowd(&mut self) -> Result<GridCrowd, Error> {
        let (per_node, per_walker) = CROWD_BYTES;
        room_for(
            self.oracle
                .nodes_len()
                .saturating_mul(per_node)
                .saturating_add(self.enemies.len().saturating_mul(per_walker)),
        )?;
        let mut crowd = GridCrowd::new(&self.oracle);
        let mut displaced = 0;
        for &cell in &self.enemies {
            let placed = self.oracle.node(cell).is_some_and(|v| crowd.add(v, v).is_ok());
            displaced += usize::from(!placed);
        }
        for v in free_nodes(&crowd, &self.oracle, &self.open, &mut self.seed, displaced)? {
            if crowd.add(v, v).is_err() {
                break;
            }
        }
        Ok(crowd)
    }

    /// The enemies' cells (and positions) from the crowd's walkers, in walker order.
    fn sync_crowd(&mut self) {
        if let Some(crowd) = &self.crowd {
            self.enemies.clear();
            self.enemies.extend(crowd.positions().iter().map(|&v| self.oracle.cell(v).unwrap_or_default()));
            self.sync_positions();
        }
    }

    /// [`Game::set_enemies`] with avoidance on: the last walkers removed, or new ones on
    /// random free cells (`count` is at most the open cells).
    pub(crate) fn crowd_resize(&mut self, count: usize) -> Result<(), Error> {
        let Some(crowd) = &mut self.crowd else { return Ok(()) };
        while crowd.len() > count {
            crowd.swap_remove(crowd.len() - 1);
        }
        let more = count.saturating_sub(crowd.len());
        if more > 0 {
            for v in free_nodes(crowd, &self.oracle, &self.open, &mut self.seed, more)? {
                if crowd.add(v, v).is_err() {
                    break;
                }
            }
        }
        self.sync_crowd();
        Ok(())
    }

    /// [`Game::tick`] with avoidance on: one tick of the crowd toward the player's cell, then
    /// the enemy on it (caught) starts again at a random free cell.
    pub(crate) fn crowd_tick(&mut self, player: Cell) -> usize {
        let Some(crowd) = &mut self.crowd else { return 0 };
        let Some(target) = self.oracle.node(player) else { return 0 };
        let moved = crowd.tick_toward(&self.oracle.table(), target).map_or(0, |tick| tick.moved);
        if crowd.occupancy(target) > 0
            && let Some(caught) = crowd.positions().iter().position(|&v| v == target)
            && let Some(to) = free_node(crowd, &self.oracle, &self.open, &mut self.seed)
        {
            // A free cell has room: the move cannot fail.
            crowd.move_to(caught, to).ok();
        }
        self.sync_crowd();
        moved
    }

    /// [`Game::toggle`] with avoidance on, after the edit: the crowd told (or made again when
    /// the oracle was rebuilt: its cells numbered anew), and the enemy on a cell that closed
    /// moved to a random free cell, or removed when none is free. A crowd that cannot be made
    /// again turns avoidance off ([`Game::avoiding`]).
    pub(crate) fn crowd_edited(&mut self, cell: Cell, blocked: bool, rebuilt: bool) {
        let renumbered =
            rebuilt || self.crowd.as_mut().is_some_and(|c| c.oracle_changed(&self.oracle).is_err());
        if renumbered {
            self.crowd = None;
            self.crowd = self.new_crowd().ok();
        } else if blocked
            && let Some(crowd) = &mut self.crowd
            && let Some(i) = self.enemies.iter().position(|&e| e == cell)
        {
            match free_node(crowd, &self.oracle, &self.open, &mut self.seed) {
                Some(to) => {
                    crowd.move_to(i, to).ok();
                }
                None => {
                    crowd.swap_remove(i);
                }
            }
        }
        self.sync_crowd();
    }
}

/// The rooms enemies with avoidance on.
#[derive(Debug)]
pub(crate) struct RoomsCrowd {
    agents: Agents,
    /// The goal every agent shares: the player.
    player: GoalId,
    /// The last step's.
    stats: Stats,
    /// The overlapping pairs after the last step (the page shows them).
    overlaps: Overlaps,
}

impl RoomsGame {
    /// Turns avoidance on or off. On: the enemies become `signposts_crowd` [`Agents`] of
    /// radius [`AGENT_RADIUS`] and a top speed of one cell per unit of time, a tick's stride
    /// its time step (at most 1): each heads for its next waypoint of [`RoomsGame::rooms`],
    /// and ORCA keeps them apart and off the walls (they queue in corridors, overlapping only
    /// when pressed together, counted in [`RoomsGame::avoid_overlaps`]). They start one to a
    /// cell, as the grid mode's: each keeps its place unless an earlier one stands in its
    /// cell, then it moves to the centre of a random cell that holds none; those beyond the
    /// number of open cells are removed (the count is clamped to it from then on). Off: they
    /// walk straight to their waypoints as before, through one another. Returns the number
    /// of enemies now.
    ///
    /// # Errors
    /// [`Error::AllocationFailed`] when the agents' memory cannot be had; avoidance is then
    /// off and the enemies as before.
    pub fn set_avoid(&mut self, on: bool) -> Result<usize, Error> {
        if !on {
            self.agents = None;
            return Ok(self.enemies.len());
        }
        if self.agents.is_some() {
            return Ok(self.enemies.len());
        }
        room_for(self.enemies.len().min(self.open.len()).saturating_mul(AGENT_BYTES))?;
        let settings = Settings { waypoint_interval: 2, ..Settings::default() };
        let mut agents = Agents::new(self.rooms.mesh(), settings);
        // A finite point: cannot fail. Each tick moves it to the player.
        let Ok(player) = agents.add_goal(Point::new(0.0, 0.0)) else { return Ok(self.enemies.len()) };
        // Room for every open cell: the enemies kept are at most as many.
        let mut taken = HashSet::new();
        taken
            .try_reserve(self.open.len())
            .map_err(|_| Error::AllocationFailed { bytes: (self.open.len() as u64).saturating_mul(16) })?;
        for &at in &self.enemies {
            let position = if taken.insert(cell_of(at)) {
                Some(at)
            } else {
                free_centre(&mut taken, &self.open, &mut self.seed)
            };
            // No cell left: the rest are dropped (as is an enemy off the walkable area; none
            // should be).
            let Some(position) = position else { break };
            agents.add(Agent { position, radius: AGENT_RADIUS, max_speed: 1.0, goal: player }).ok();
        }
        self.agents =
            Some(RoomsCrowd { agents, player, stats: Stats::default(), overlaps: Overlaps::default() });
        self.sync_agents();
        Ok(self.enemies.len())
    }

    /// Whether avoidance is on ([`RoomsGame::set_avoid`]).
    #[must_use]
    pub fn avoiding(&self) -> bool {
        self.agents.is_some()
    }

    /// With avoidance on, how the last tick went (overlapping pairs and the deepest overlap,
    /// stalled agents...); `None` with it off.
    #[must_use]
    pub fn avoid_stats(&self) -> Option<Stats> {
        self.agents.as_ref().map(|a| a.stats)
    }

    /// With avoidance on, the rooms enemies' overlapping pairs and deepest overlap after the
    /// last tick.
    #[must_use]
    pub fn avoid_overlaps(&self) -> Option<Overlaps> {
        self.agents.as_ref().map(|a| a.overlaps)
    }

    /// The enemies' positions (and drawn positions) from the agents, in agent order.
    fn sync_agents(&mut self) {
        if let Some(crowd) = &self.agents {
            self.enemies.clear();
            self.enemies.extend(crowd.agents.positions());
            self.sync_positions();
        }
    }

    /// [`RoomsGame::set_enemies`] with avoidance on: the last agents removed, or new ones at
    /// the centres of random open cells that hold no agent (any open cell when all do).
    pub(crate) fn agents_resize(&mut self, count: usize) -> Result<(), Error> {
        let Some(crowd) = &mut self.agents else { return Ok(()) };
        while crowd.agents.len() > count {
            crowd.agents.swap_remove(AgentId(crowd.agents.len() as u32 - 1));
        }
        let mut taken =
            if crowd.agents.len() < count { cells_of(crowd.agents.positions())? } else { HashSet::new() };
        while crowd.agents.len() < count {
            let position = free_centre(&mut taken, &self.open, &mut self.seed).or_else(|| {
                random_cell(&self.open, &mut self.seed)
                    .map(|c| Point::new(f64::from(c.x) + 0.5, f64::from(c.y) + 0.5))
            });
            let Some(position) = position else { break };
            let agent = Agent { position, radius: AGENT_RADIUS, max_speed: 1.0, goal: crowd.player };
            if crowd.agents.add(agent).is_err() {
                break;
            }
        }
        self.sync_agents();
        Ok(())
    }

    /// [`RoomsGame::tick`] with avoidance on (`stride` positive, `player` finite): one ORCA
    /// step of `stride` (at most 1) toward the player.
    pub(crate) fn agents_tick(&mut self, player: Point, stride: f64) -> usize {
        let Some(crowd) = &mut self.agents else { return 0 };
        if crowd.agents.set_goal(crowd.player, player).is_err() {
            return 0;
        }
        // At most a cell a tick: the time step stays short beside ORCA's horizons (an
        // infinite stride included).
        crowd.stats = crowd.agents.step(&self.rooms, stride.min(1.0));
        crowd.overlaps = crowd.agents.overlaps();
        let mut moved = 0;
        for (enemy, now) in self.enemies.iter_mut().zip(crowd.agents.positions()) {
            moved += usize::from(*enemy != now);
            *enemy = now;
        }
        self.sync_positions();
        moved
    }
}
