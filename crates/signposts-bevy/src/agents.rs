//! Walkers on the [`NavGrid`]: [`Chaser`], [`Fleeing`] and [`GoTo`], stepped by one batched
//! query a tick.

use bevy::ecs::entity::EntityHashMap;
use bevy::ecs::message::{Message, MessageWriter};
use bevy::ecs::prelude::*;
use bevy::ecs::system::SystemParam;
use bevy::math::Vec2;
use bevy::time::Time;
use bevy::transform::components::Transform;
use signposts::grid::{Cell, Connectivity, Direction, GridOracle};
use signposts::{NextHop, NodeId, TableRef};

use crate::grid::NavGrid;

/// The plugin's settings, a resource: initialised by the plugin when absent, so insert your
/// own before or after adding it, and change it at any time.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct NavSettings {
    /// How walkers with the same heading share the optimal moves.
    pub spread: Spread,
    /// [`NavTable::Auto`](crate::NavTable::Auto) builds a dense table up to this many bytes,
    /// a compressed one above (default 512 MiB, as the command-line tool).
    pub dense_up_to: u64,
    /// At most this many [`Chaser`] and [`GoTo`] walkers to a cell (`Some(0)` counts as 1),
    /// moved by one [`GridCrowd`](signposts_crowd::grid::GridCrowd): each takes the least
    /// occupied of its tied optimal moves, waits while they are all full, and two that want
    /// each other's cells swap. A walker holds the cell it walks to (the one it leaves is
    /// free at once), and one spawned or put on a full cell waits there until it has room.
    /// [`Fleeing`] walkers are not counted and walk as before. `None` (the default): no limit,
    /// the moves as [`NavSettings::spread`] picks them.
    pub cell_capacity: Option<u16>,
}

impl Default for NavSettings {
    fn default() -> NavSettings {
        NavSettings { spread: Spread::Seeded, dense_up_to: 512 << 20, cell_capacity: None }
    }
}

/// How walkers choose among several optimal moves. Every choice is a move on a shortest path:
/// a walker arrives in the optimal number of steps whichever it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Spread {
    /// The table's first optimal move: all walkers on one cell heading for one target take
    /// the same move, and a crowd walks in single file. The fastest: one batched query a tick
    /// for every walker that reached a cell.
    First,
    /// A move picked among all the optimal ones by a hash of the walker and its cell: walkers
    /// fan out over every shortest path, and each one walks the same way each time. One table
    /// read a walker, as [`Spread::First`], without the batch's overlapped reads.
    #[default]
    Seeded,
    /// The optimal move into the cell fewest walkers stand in or head for (counted as the
    /// tick's walkers choose), ties by the hash: crowds spread out most.
    LeastOccupied,
}

/// Walks toward wherever `target` stands now (its [`NavAgent`] cell, or the cell under its
/// `Transform`), asking the table again at every cell.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
#[require(NavAgent, Transform)]
pub struct Chaser {
    /// The entity chased.
    pub target: Entity,
    /// Cells per second (at most one cell a tick of `FixedUpdate`).
    pub speed: f32,
}

impl Chaser {
    /// Chases `target` at `speed` cells per second.
    #[must_use]
    pub fn new(target: Entity, speed: f32) -> Chaser {
        Chaser { target, speed }
    }
}

/// Walks away from `from`: each step to a neighbouring cell strictly farther from it along
/// the map (the table's moves that lead away); holds when cornered.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
#[require(NavAgent, Transform)]
pub struct Fleeing {
    /// The entity fled.
    pub from: Entity,
    /// Cells per second (at most one cell a tick).
    pub speed: f32,
}

impl Fleeing {
    /// Flees `from` at `speed` cells per second.
    #[must_use]
    pub fn new(from: Entity, speed: f32) -> Fleeing {
        Fleeing { from, speed }
    }
}

/// Walks to a fixed cell and stays there ([`Arrived`] on arrival).
#[derive(Component, Debug, Clone, Copy, PartialEq)]
#[require(NavAgent, Transform)]
pub struct GoTo {
    /// The goal (map coordinates).
    pub cell: Cell,
    /// Cells per second (at most one cell a tick).
    pub speed: f32,
}

impl GoTo {
    /// Walks to `cell` at `speed` cells per second.
    #[must_use]
    pub fn new(cell: Cell, speed: f32) -> GoTo {
        GoTo { cell, speed }
    }
}

/// A walker's place on the [`NavGrid`], kept by the plugin (added with [`Chaser`],
/// [`Fleeing`] or [`GoTo`]): the cell it last stood on, the neighbouring cell it is walking
/// to, and how far it is along that step. Its `Transform` follows.
///
/// A walker spawned with no cell takes the open cell under its `Transform` on its first tick;
/// on a blocked cell or off the map it stays put. A walker whose cell is closed
/// ([`SetBlocked`](crate::SetBlocked)) steps out to an open neighbour; one walking into a
/// cell that closes (or past one, diagonally) is put back at the centre of the cell it came
/// from. Steps are chosen from the live table among the moves the latest edits allow: while a
/// repair is under way a walker may wait when every move the table has is closed.
#[derive(Component, Debug, Clone, Copy, Default, PartialEq)]
pub struct NavAgent {
    pub(crate) cell: Option<Cell>,
    pub(crate) next: Option<Cell>,
    pub(crate) progress: f32,
    /// Distance walked past the cell centre reached this tick, for the next step.
    pub(crate) carry: f32,
    steps: u32,
    pub(crate) arrived: bool,
}

impl NavAgent {
    /// A walker standing on `cell` (its `Transform` is moved there on the next tick).
    #[must_use]
    pub fn at(cell: Cell) -> NavAgent {
        NavAgent { cell: Some(cell), ..NavAgent::default() }
    }

    /// Puts the walker on `cell` (a respawn, a teleporter): its step under way is dropped, and
    /// its `Transform` moves there on the next tick.
    pub fn place(&mut self, cell: Cell) {
        *self = NavAgent { steps: self.steps, ..NavAgent::at(cell) };
    }

    /// The cell last stood on.
    #[must_use]
    pub fn cell(&self) -> Option<Cell> {
        self.cell
    }

    /// The cell being walked to.
    #[must_use]
    pub fn next(&self) -> Option<Cell> {
        self.next
    }

    /// How far along the step to [`NavAgent::next`], from 0 to 1.
    #[must_use]
    pub fn progress(&self) -> f32 {
        self.progress
    }

    /// Steps finished: cells entered since spawning.
    #[must_use]
    pub fn steps(&self) -> u32 {
        self.steps
    }
}

/// A [`Chaser`] or [`GoTo`] walker reached its goal cell.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrived {
    /// The walker.
    pub entity: Entity,
    /// The cell reached.
    pub cell: Cell,
}

/// What a walker wants this tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Goal {
    Toward(Cell),
    Away(Cell),
}

/// One walker that stands on a cell centre and asks for a step.
#[derive(Debug, Clone, Copy)]
struct Ask {
    /// The walker's place in the walkers query's order.
    index: usize,
    here: Cell,
    goal: Goal,
    /// The walker's entity bits, which [`Spread::Seeded`] hashes.
    seed: u64,
}

impl Ask {
    /// The walker's seed at its cell: a hash of its entity and the cell.
    fn seed(&self) -> u64 {
        mix(self.seed ^ (u64::from(self.here.x) << 32 | u64::from(self.here.y)))
    }
}

/// The buffers kept between ticks: a tick allocates nothing once warm.
#[derive(Default)]
pub(crate) struct Buffers {
    asks: Vec<Ask>,
    queries: Vec<(Cell, Cell, u64)>,
    steps: Vec<Option<Direction>>,
    occupied: Vec<u16>,
    /// The cell of each target entity this tick.
    places: EntityHashMap<Option<Cell>>,
    /// The map's generation the walkers' steps were last checked against.
    generation: u64,
    /// The grid crowd, with a cell capacity.
    capacity: Option<crate::capacity::Capacity>,
}

/// The walkers and their targets, read, or the walkers written, in turns (a target may itself
/// be a walker).
#[derive(SystemParam)]
pub(crate) struct Walkers<'w, 's> {
    walkers: ParamSet<'w, 's, (Readers<'w, 's>, Writer<'w, 's>)>,
}

pub(crate) type Kind = AnyOf<(&'static Chaser, &'static Fleeing, &'static GoTo)>;
type Readers<'w, 's> = (
    Query<'w, 's, (Entity, &'static NavAgent, &'static Transform, Kind)>,
    Query<'w, 's, (Option<&'static Transform>, Option<&'static NavAgent>)>,
);
pub(crate) type Writer<'w, 's> = Query<'w, 's, (Entity, &'static mut NavAgent, &'static Transform, Kind)>;

/// The walker's speed in cells a second.
fn speed_of((chaser, fleeing, goto): (Option<&Chaser>, Option<&Fleeing>, Option<&GoTo>)) -> f32 {
    chaser.map(|c| c.speed).or(fleeing.map(|f| f.speed)).or(goto.map(|g| g.speed)).unwrap_or(0.0)
}

/// [`NavSystems::Steer`](crate::NavSystems::Steer): advances every walker along its step,
/// then answers the steps of all walkers that reached a cell centre.
pub(crate) fn steer(
    grid: Option<Res<NavGrid>>,
    settings: Res<NavSettings>,
    time: Res<Time>,
    mut walkers: Walkers,
    mut arrived: MessageWriter<Arrived>,
    mut buffers: Local<Buffers>,
) {
    let Some(grid) = grid else { return };
    let Some(oracle) = grid.oracle() else { return };
    let Buffers { asks, queries, steps, occupied, places, generation, capacity } = &mut *buffers;
    asks.clear();

    // 1. Advance: finish steps (keeping the distance walked past the centre); steps under way
    // are checked against the map only when it changed.
    let edited = core::mem::replace(generation, grid.generation()) != grid.generation();
    advance(&grid, time.delta_secs(), edited, &mut walkers.walkers.p1());

    // 2. Where each target stands, once a target (after this tick's steps).
    let (reader, targets) = walkers.walkers.p0();
    places.clear();
    let mut last: Option<(Entity, Option<Cell>)> = None;
    for (_, agent, _, (chaser, fleeing, _)) in &reader {
        let Some(target) = chaser.map(|c| c.target).or(fleeing.map(|f| f.from)) else { continue };
        if agent.next.is_some() || last.is_some_and(|(e, _)| e == target) {
            continue;
        }
        let cell = *places.entry(target).or_insert_with(|| {
            let (transform, agent) = targets.get(target).ok()?;
            agent.and_then(NavAgent::cell).or_else(|| grid.cell_at(transform?.translation.truncate()))
        });
        last = Some((target, cell));
    }

    // With a cell capacity, chasers and gotos step as the grid crowd moves them.
    let capped = settings.cell_capacity;
    crate::capacity::steer(&grid, oracle, capped, capacity, places, &mut walkers.walkers.p1(), &mut arrived);

    // 3. The walkers on a cell centre and their goals, by their place in the query's order.
    for (index, (entity, agent, transform, kind @ (chaser, fleeing, goto))) in
        walkers.walkers.p1().iter().enumerate()
    {
        if agent.next.is_some() || (capped.is_some() && crate::capacity::managed(kind)) {
            continue;
        }
        let here = match agent.cell {
            Some(cell) => cell,
            None => match grid.cell_at(transform.translation.truncate()).filter(|&c| grid.is_open(c)) {
                Some(cell) => cell,
                None => continue,
            },
        };
        let goal = match (chaser, fleeing, goto) {
            (Some(chaser), ..) => places.get(&chaser.target).copied().flatten().map(Goal::Toward),
            (None, _, Some(goto)) => Some(Goal::Toward(goto.cell)),
            (None, Some(fleeing), None) => places.get(&fleeing.from).copied().flatten().map(Goal::Away),
            (None, None, None) => None,
        };
        let Some(goal) = goal else { continue };
        asks.push(Ask { index, here, goal, seed: entity.to_bits() });
    }

    // 4. The steps: one batched query for every walker heading toward a cell.
    choose(oracle, &grid, settings.spread, asks, queries, steps, occupied, &mut walkers);

    // 5. Start the chosen steps (the same query, so the same order).
    let up_to_date = grid.is_up_to_date();
    let mut asked = asks.iter().zip(steps.iter()).peekable();
    for (index, (entity, mut agent, _, _)) in walkers.walkers.p1().iter_mut().enumerate() {
        let Some(&(ask, &step)) = asked.peek() else { break };
        if ask.index != index {
            continue;
        }
        asked.next();
        if agent.cell.is_none() {
            agent.cell = Some(ask.here);
        }
        let reached = matches!(ask.goal, Goal::Toward(goal) if goal == ask.here);
        if reached && !agent.arrived {
            arrived.write(Arrived { entity, cell: ask.here });
        }
        agent.arrived = reached;
        let carry = core::mem::take(&mut agent.carry); // for this step only
        // A step the latest edits forbid (the live table is being repaired): another of the
        // table's moves that they allow, or none.
        let step = match step {
            // Up to date, the live table is the map: its steps are allowed.
            Some(d) if up_to_date || allowed(&grid, ask.here, d) => Some(d),
            Some(_) => match ask.goal {
                Goal::Toward(goal) => pick(oracle, &grid, ask, toward(oracle, ask.here, goal), |_| 0),
                Goal::Away(from) => pick(oracle, &grid, ask, away(oracle, ask.here, from), |_| 0),
            },
            None => None,
        };
        let Some(next) = step.and_then(|d| ask.here.step(d)) else { continue };
        agent.next = Some(next);
        // At most one step a tick: a walker faster than a cell a tick walks a cell a tick.
        let length = step_length(ask.here, next);
        agent.progress = (carry / length).min(1.0);
    }
}

/// Moves every walker along its step by `dt` seconds of its speed; finished steps keep the
/// distance walked past the centre for the next one. When the map was `edited` since the last
/// tick, steps it closes are undone and walkers on closed cells step out.
fn advance(grid: &NavGrid, dt: f32, edited: bool, walkers: &mut Writer) {
    for (_, mut agent, _, kind) in walkers.iter_mut() {
        let Some(here) = agent.cell else { continue };
        if edited && agent.next.is_none() && !grid.is_open(here) {
            // The cell closed under its feet: out to an open neighbour, if any.
            let straight = [Direction::North, Direction::East, Direction::South, Direction::West];
            agent.next = straight.into_iter().filter_map(|d| here.step(d)).find(|&to| grid.is_open(to));
            continue;
        }
        if let Some(next) = agent.next {
            if edited && !still_open(grid, here, next) {
                // Closed ahead (or beside a diagonal): back to the centre it came from.
                agent.next = None;
                agent.progress = 0.0;
                continue;
            }
            let length = step_length(here, next);
            let progress = agent.progress + speed_of(kind) * dt / length;
            if progress < 1.0 {
                agent.progress = progress;
                continue;
            }
            agent.cell = Some(next);
            agent.next = None;
            agent.progress = 0.0;
            agent.steps += 1;
            agent.carry = (progress - 1.0) * length;
        }
    }
}

/// The move from `here` to the neighbouring cell `next`.
pub(crate) fn direction(here: Cell, next: Cell) -> Option<Direction> {
    let delta = |to: u32, from: u32| i32::try_from(i64::from(to) - i64::from(from)).ok();
    Direction::from_delta(delta(next.x, here.x)?, delta(next.y, here.y)?)
}

/// The length of the step from `here` to the neighbouring cell `next`: 1, or √2 diagonally.
pub(crate) fn step_length(here: Cell, next: Cell) -> f32 {
    if here.x != next.x && here.y != next.y { core::f32::consts::SQRT_2 } else { 1.0 }
}

/// Whether the step from `here` to `next` is still allowed by the map; stepping out of a cell
/// closed under the walker's feet needs only the cell ahead open.
fn still_open(grid: &NavGrid, here: Cell, next: Cell) -> bool {
    if !grid.is_open(here) {
        return grid.is_open(next);
    }
    direction(here, next).is_some_and(|d| allowed(grid, here, d))
}

/// Fills `steps` (parallel to `asks`) with each walker's move.
#[expect(clippy::too_many_arguments, reason = "the tick's buffers, passed once")]
fn choose(
    oracle: &GridOracle,
    grid: &NavGrid,
    spread: Spread,
    asks: &[Ask],
    queries: &mut Vec<(Cell, Cell, u64)>,
    steps: &mut Vec<Option<Direction>>,
    occupied: &mut Vec<u16>,
    walkers: &mut Walkers,
) {
    steps.clear();
    if spread != Spread::LeastOccupied {
        // One batched query for every walker heading toward a cell; fleeing walkers ask
        // nothing here (from == to) and their own way below.
        queries.clear();
        queries.extend(asks.iter().map(|ask| match ask.goal {
            Goal::Toward(goal) if spread == Spread::Seeded => (ask.here, goal, ask.seed()),
            Goal::Toward(goal) => (ask.here, goal, 0),
            Goal::Away(_) => (ask.here, ask.here, 0),
        }));
        oracle.next_step_each_spread(queries, steps);
        for (ask, step) in asks.iter().zip(steps.iter_mut()) {
            if let Goal::Away(from) = ask.goal {
                *step = pick(oracle, grid, ask, away(oracle, ask.here, from), |_| 0);
            }
        }
        return;
    }
    let Some(map) = grid.map() else { return };
    let (width, height) = (map.width() as usize, map.height() as usize);
    let slot = |cell: Cell| (map.contains(cell)).then(|| cell.y as usize * width + cell.x as usize);
    occupied.clear();
    occupied.resize(width * height, 0);
    for (_, agent, _, _) in &walkers.walkers.p0().0 {
        for cell in [agent.cell, agent.next].into_iter().flatten() {
            if let Some(count) = slot(cell).and_then(|i| occupied.get_mut(i)) {
                *count = count.saturating_add(1);
            }
        }
    }
    for ask in asks {
        let moves = match ask.goal {
            Goal::Toward(goal) => toward(oracle, ask.here, goal),
            Goal::Away(from) => away(oracle, ask.here, from),
        };
        let load = |cell: Cell| slot(cell).and_then(|i| occupied.get(i)).copied().unwrap_or(0);
        let step = pick(oracle, grid, ask, moves, load);
        if let Some(count) =
            step.and_then(|d| ask.here.step(d)).and_then(slot).and_then(|i| occupied.get_mut(i))
        {
            *count = count.saturating_add(1);
        }
        steps.push(step);
    }
}

/// Whether the map as the latest edit left it allows the step (both cells open and, for a
/// diagonal, both cells beside it): the live table may not have the edit yet.
pub(crate) fn allowed(grid: &NavGrid, here: Cell, step: Direction) -> bool {
    grid.map().is_some_and(|map| map.contains(here) && map.step(here, step).is_some())
}

/// Up to eight neighbouring nodes, on the stack.
#[derive(Default, Clone, Copy)]
struct Moves {
    nodes: [NodeId; 8],
    len: usize,
}

impl Moves {
    fn push(&mut self, node: NodeId) {
        if self.len < self.nodes.len() {
            self.nodes[self.len] = node;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[NodeId] {
        &self.nodes[..self.len]
    }
}

/// Every optimal move the table keeps from `here` toward `goal`.
fn toward(oracle: &GridOracle, here: Cell, goal: Cell) -> Moves {
    let mut moves = Moves::default();
    if let (Some(u), Some(t)) = (oracle.node(here), oracle.node(goal)) {
        for v in oracle.table().neighbors_to(u, t) {
            moves.push(v);
        }
    }
    moves
}

/// Every move from `here` to a node strictly farther from `from`.
fn away(oracle: &GridOracle, here: Cell, from: Cell) -> Moves {
    let mut moves = Moves::default();
    let (Some(u), Some(t)) = (oracle.node(here), oracle.node(from)) else { return moves };
    match oracle.table() {
        TableRef::Dense(graph) => {
            for v in graph.neighbors_away(u, t) {
                moves.push(v);
            }
        }
        table => {
            // Compressed tables keep no move away: compare the distances (walked paths).
            let Some(d) = table.cost(u, t) else { return moves };
            let directions: &[Direction] = match oracle.connectivity() {
                Connectivity::Four => &[Direction::North, Direction::East, Direction::South, Direction::West],
                Connectivity::Eight | Connectivity::EightUnit => &Direction::ALL,
            };
            for &direction in directions {
                let Some(v) = oracle.grid().step(here, direction).and_then(|cell| oracle.node(cell)) else {
                    continue;
                };
                if table.cost(v, t).is_none_or(|dv| dv > d) {
                    moves.push(v);
                }
            }
        }
    }
    moves
}

/// The move among `moves` that the map still allows with the least `load`, ties by the
/// walker's seed.
fn pick(
    oracle: &GridOracle,
    grid: &NavGrid,
    ask: &Ask,
    moves: Moves,
    load: impl Fn(Cell) -> u16,
) -> Option<Direction> {
    let nodes = moves.as_slice();
    if nodes.is_empty() {
        return None;
    }
    let first = (ask.seed() % nodes.len() as u64) as usize;
    let here = ask.here;
    let mut best: Option<(u16, Direction)> = None;
    for k in 0..nodes.len() {
        let Some(cell) = oracle.cell(nodes[(first + k) % nodes.len()]) else { continue };
        let Some(step) = direction(here, cell) else { continue };
        if !allowed(grid, here, step) {
            continue;
        }
        let cost = load(cell);
        if best.is_none_or(|(least, _)| cost < least) {
            best = Some((cost, step));
        }
    }
    best.map(|(_, step)| step)
}

/// The finaliser of `SplitMix64`: a well-spread hash of one word.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// [`NavSystems::Move`](crate::NavSystems::Move): puts each walker's `Transform` where its step
/// has taken it (its `z` kept).
pub(crate) fn place(grid: Option<Res<NavGrid>>, mut walkers: Query<(&NavAgent, &mut Transform)>) {
    let Some(grid) = grid else { return };
    for (agent, mut transform) in &mut walkers {
        let Some(cell) = agent.cell else { continue };
        let from = grid.cell_center(cell);
        let at: Vec2 = match agent.next {
            Some(next) => from.lerp(grid.cell_center(next), agent.progress),
            None => from,
        };
        if transform.translation.truncate() != at {
            transform.translation.x = at.x;
            transform.translation.y = at.y;
        }
    }
}
