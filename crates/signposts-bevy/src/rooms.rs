//! [`NavRooms`]: rooms and doors in continuous space, and the walkers that follow their
//! waypoints.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use bevy::ecs::message::{Message, MessageReader, MessageWriter};
use bevy::ecs::prelude::*;
use bevy::ecs::system::SystemParam;
use bevy::math::Vec2;
use bevy::time::Time;
use bevy::transform::components::Transform;
use signposts::BuildOptions;
use signposts_rooms::{
    BuildRooms, DEFAULT_BUDGET, DoorId, DoorState, Error, ExactRooms, ExactScratch, LinkId, NavMesh, Point,
    Rooms, RoomsBuilder, Scratch,
};

use crate::avoid::Avoidance;
use crate::grid::TableSwapped;
use crate::work::{NavStatus, Work};
use crate::{NavError, NavFailure, NavMap, NavReady};

/// The most door edits at once that the exact index repairs one by one; more are built anew
/// (a repair costs 1/4–1/13 of a build on the maps of docs/benchmarks.md, "Doors in place").
const EXACT_REPAIRS: usize = 4;

/// Which oracle a [`NavRooms`] builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RoomsMode {
    /// [`Rooms`]: the region oracle and string-pulled corridors (paths within a fraction of a
    /// percent of the shortest on average); doors, one-way doors and links repaired in place.
    #[default]
    Corridor,
    /// [`ExactRooms`]: exactly shortest paths; door edits repaired off the main thread (in
    /// place, [`ExactRooms::set_door_open`], or built anew for many at once); links and one-way
    /// doors are not taken.
    Exact,
}

/// Opens or closes a door of the [`NavRooms`]' mesh.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SetDoorOpen {
    /// The door.
    pub door: DoorId,
    /// Open when true.
    pub open: bool,
}

/// Opens or closes a link (teleporter, ladder, stairs) of the [`NavRooms`] ([`RoomsMode::Corridor`]).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SetLinkOpen {
    /// The link.
    pub link: LinkId,
    /// Open when true.
    pub open: bool,
}

/// The oracle behind a [`NavRooms`].
#[derive(Debug, Clone)]
enum Oracle {
    Corridor(Box<Rooms>),
    Exact(Box<ExactRooms>),
}

impl Oracle {
    fn mesh(&self) -> &NavMesh {
        match self {
            Oracle::Corridor(rooms) => rooms.mesh(),
            Oracle::Exact(exact) => exact.mesh(),
        }
    }

    fn memory_bytes(&self) -> usize {
        match self {
            Oracle::Corridor(rooms) => rooms.memory_bytes(),
            Oracle::Exact(exact) => exact.memory_bytes(),
        }
    }
}

/// An edit waiting for a repair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edit {
    Door(DoorId, bool),
    Link(LinkId, bool),
}

/// What a repair task returns: the new oracle, how many edits it took, and the seconds.
type Repaired = (Oracle, usize, f32);

/// Sets up the corridor oracle's builder: links, door states, area costs, a memory limit.
type Configure = Box<dyn for<'a> FnOnce(RoomsBuilder<'a>) -> RoomsBuilder<'a> + Send + Sync>;

/// Rooms and doors over a navigation mesh: the map of [`RoomsChaser`] and [`RoomsGoTo`]
/// walkers, who move in continuous space.
///
/// Insert it as a resource; the plugin builds the oracle off the main thread. Mesh point
/// `(x, y)` (grid meshes: cell units, `y` down the rows) is at
/// `origin + (x·scale, −y·scale)` in the world, as [`NavGrid`](crate::NavGrid) places cells.
///
/// ```
/// use signposts::grid::Grid;
/// use signposts_bevy::{NavRooms, RoomsMode};
/// use signposts_rooms::{NavMesh, Point};
/// let mesh = NavMesh::from_grid(&Grid::from_ascii("....\n.##.\n....")?)?;
/// let rooms = NavRooms::new(mesh, RoomsMode::Exact).with_scale(10.0);
/// assert_eq!(rooms.to_world(Point::new(1.5, 2.0)), bevy::math::Vec2::new(15.0, -20.0));
/// assert_eq!(rooms.to_mesh(bevy::math::Vec2::new(15.0, -20.0)), Point::new(1.5, 2.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Resource)]
pub struct NavRooms {
    /// Tells this map from the ones before it (a new [`RoomsCrowd`](crate::RoomsCrowd) each).
    id: u64,
    mode: RoomsMode,
    scale: f32,
    origin: Vec2,
    budget: u64,
    source: Option<NavMesh>,
    configure: Option<Configure>,
    live: Option<Arc<Oracle>>,
    pending: Vec<Edit>,
    work: Work<Result<(Oracle, f32), Error>, Result<Repaired, Error>>,
}

impl NavRooms {
    /// The rooms of `mesh`, in `mode`.
    #[must_use]
    pub fn new(mesh: NavMesh, mode: RoomsMode) -> NavRooms {
        static MAPS: AtomicU64 = AtomicU64::new(0);
        NavRooms {
            id: MAPS.fetch_add(1, Ordering::Relaxed),
            mode,
            scale: 1.0,
            origin: Vec2::ZERO,
            budget: DEFAULT_BUDGET,
            source: Some(mesh),
            configure: None,
            live: None,
            pending: Vec::new(),
            work: Work::new(),
        }
    }

    /// World units per mesh unit (default 1).
    #[must_use]
    pub fn with_scale(mut self, scale: f32) -> NavRooms {
        self.scale = scale;
        self
    }

    /// The world position of the mesh's point `(0, 0)` (default the origin).
    #[must_use]
    pub fn with_origin(mut self, origin: Vec2) -> NavRooms {
        self.origin = origin;
        self
    }

    /// Sets up the corridor oracle ([`RoomsMode::Corridor`]) before it is built: links
    /// (teleporters, ladders, stairs; walkers jump from one end to the other), door states,
    /// area costs, a memory limit (see [`RoomsBuilder`]).
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_bevy::{NavRooms, RoomsMode};
    /// use signposts_rooms::{NavMesh, Point};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("..@..\n..@..")?)?;
    /// let (a, b) = (Point::new(1.5, 0.5), Point::new(3.5, 0.5));
    /// // A teleporter through the wall, both ways.
    /// let rooms = NavRooms::new(mesh, RoomsMode::Corridor).with_rooms(move |builder| builder.link(a, b, 2.0, true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_rooms(
        mut self,
        configure: impl for<'a> FnOnce(RoomsBuilder<'a>) -> RoomsBuilder<'a> + Send + Sync + 'static,
    ) -> NavRooms {
        self.configure = Some(Box::new(configure));
        self
    }

    /// The exact index's memory budget ([`ExactBuilder::memory_budget`](signposts_rooms::ExactBuilder::memory_budget),
    /// default 2 GiB).
    #[must_use]
    pub fn with_exact_budget(mut self, bytes: u64) -> NavRooms {
        self.budget = bytes;
        self
    }

    /// Where the oracle is at.
    #[must_use]
    pub fn status(&self) -> NavStatus {
        self.work.status
    }

    /// How far the build has come, from 0 to 1 (exact mode reports its sweeps and table; the
    /// corridor oracle, built in milliseconds, jumps from 0 to 1).
    #[must_use]
    pub fn progress(&self) -> f32 {
        self.work.progress()
    }

    /// The mode.
    #[must_use]
    pub fn mode(&self) -> RoomsMode {
        self.mode
    }

    /// The corridor oracle, once built ([`RoomsMode::Corridor`]).
    #[must_use]
    pub fn rooms(&self) -> Option<&Rooms> {
        match self.live.as_deref()? {
            Oracle::Corridor(rooms) => Some(rooms),
            Oracle::Exact(_) => None,
        }
    }

    /// The exact index, once built ([`RoomsMode::Exact`]).
    #[must_use]
    pub fn exact(&self) -> Option<&ExactRooms> {
        match self.live.as_deref()? {
            Oracle::Exact(exact) => Some(exact),
            Oracle::Corridor(_) => None,
        }
    }

    /// The mesh, once built.
    #[must_use]
    pub fn mesh(&self) -> Option<&NavMesh> {
        self.live.as_deref().map(Oracle::mesh).or(self.source.as_ref())
    }

    /// How many repaired oracles have been swapped in.
    #[must_use]
    pub fn version(&self) -> u64 {
        self.work.version
    }

    /// Whether every edit received is in the live oracle.
    #[must_use]
    pub fn is_up_to_date(&self) -> bool {
        !self.work.repairing() && self.pending.is_empty()
    }

    /// This map's number among those made in the process.
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// The world position of a mesh point.
    #[must_use]
    pub fn to_world(&self, p: Point) -> Vec2 {
        self.origin + Vec2::new(p.x as f32, -(p.y as f32)) * self.scale
    }

    /// The mesh point at a world position.
    #[must_use]
    pub fn to_mesh(&self, position: Vec2) -> Point {
        let local = (position - self.origin) / self.scale;
        Point::new(f64::from(local.x), -f64::from(local.y))
    }

    /// The first corner of the live oracle's path from `from` to `to` (mesh points): see
    /// [`Rooms::next_waypoint`] and [`ExactRooms::next_waypoint`].
    #[must_use]
    pub fn next_waypoint(&self, from: Point, to: Point) -> Option<Point> {
        match self.live.as_deref()? {
            Oracle::Corridor(rooms) => rooms.next_waypoint(from, to),
            Oracle::Exact(exact) => exact.next_waypoint(from, to),
        }
    }

    fn start_build(&mut self) {
        let Some(mesh) = self.source.take() else { return };
        let (mode, budget, configure) = (self.mode, self.budget, self.configure.take());
        self.work.start_build(|token, progress| async move {
            let start = Instant::now();
            let oracle = match mode {
                RoomsMode::Corridor => {
                    let builder = Rooms::builder(&mesh);
                    let builder = match configure {
                        Some(configure) => configure(builder),
                        None => builder,
                    };
                    Oracle::Corridor(Box::new(builder.build()?))
                }
                RoomsMode::Exact => Oracle::Exact(Box::new(
                    BuildOptions::new()
                        .progress(|p| progress.report(p.fraction() as f32))
                        .cancel(&token)
                        .build_exact(ExactRooms::builder(&mesh).memory_budget(budget))?,
                )),
            };
            Ok((oracle, start.elapsed().as_secs_f32()))
        });
    }

    fn poll_build(&mut self, ready: &mut MessageWriter<NavReady>, errors: &mut MessageWriter<NavError>) {
        let Some(result) = self.work.poll_build() else { return };
        match result {
            Ok((oracle, seconds)) => {
                let nodes = match &oracle {
                    Oracle::Corridor(rooms) => rooms.table().nodes_len(),
                    Oracle::Exact(exact) => exact.corners_len(),
                };
                ready.write(NavReady {
                    map: NavMap::Rooms,
                    nodes,
                    memory_bytes: oracle.memory_bytes(),
                    loaded: false,
                    seconds,
                });
                self.live = Some(Arc::new(oracle));
                self.work.status = NavStatus::Ready;
            }
            Err(error) => {
                self.work.status = NavStatus::Failed;
                errors.write(NavError::logged(
                    NavMap::Rooms,
                    format!("cannot build the rooms: {error}"),
                    NavFailure::Rooms(error),
                ));
            }
        }
    }

    fn receive(&mut self, edit: Edit) {
        let same = |e: &Edit| match (*e, edit) {
            (Edit::Door(a, _), Edit::Door(b, _)) => a == b,
            (Edit::Link(a, _), Edit::Link(b, _)) => a == b,
            _ => false,
        };
        match self.pending.iter_mut().find(|e| same(e)) {
            Some(slot) => *slot = edit,
            None => self.pending.push(edit),
        }
    }

    /// Whether the live oracle takes `edit`; if not, why.
    fn check(live: &Oracle, edit: Edit) -> Result<(), Error> {
        match (live, edit) {
            (_, Edit::Door(door, _)) if door.0 as usize >= live.mesh().doors_len() => {
                Err(Error::OutOfRange { what: "door", id: door.0, len: live.mesh().doors_len() })
            }
            (Oracle::Corridor(rooms), Edit::Link(link, _)) => rooms.is_link_open(link).map(|_| ()),
            (Oracle::Exact(_), Edit::Link(..)) => {
                Err(Error::NotExact { why: "links (exact mode does not take links)" })
            }
            (_, Edit::Door(..)) => Ok(()),
        }
    }

    fn start_repair(&mut self, errors: &mut MessageWriter<NavError>) {
        if self.work.repairing() || self.pending.is_empty() {
            return;
        }
        let Some(live) = self.live.clone() else { return };
        // Each edit checked alone: a bad one is reported and the others go on.
        let mut edits = std::mem::take(&mut self.pending);
        edits.retain(|&edit| match NavRooms::check(&live, edit) {
            Ok(()) => true,
            Err(error) => {
                errors.write(NavError::logged(
                    NavMap::Rooms,
                    format!("cannot apply {edit:?}: {error}"),
                    NavFailure::Rooms(error),
                ));
                false
            }
        });
        if edits.is_empty() {
            return;
        }
        let budget = self.budget;
        self.work.start_repair(|token| async move {
            let start = Instant::now();
            let oracle = match &*live {
                // The corridor oracle is small: a copy, repaired in place.
                Oracle::Corridor(rooms) => {
                    let mut rooms = Rooms::clone(rooms);
                    drop(live);
                    for &edit in &edits {
                        match edit {
                            Edit::Door(door, open) => rooms.set_door_open(door, open)?,
                            Edit::Link(link, open) => rooms.set_link_open(link, open)?,
                        }
                    }
                    Oracle::Corridor(Box::new(rooms))
                }
                // The exact index repaired door by door (each toggle sweeps again only the
                // corners that see the door); many doors at once are built anew instead.
                Oracle::Exact(exact) => {
                    let mut states: Vec<DoorState> = (0..exact.mesh().doors_len() as u32)
                        .map(|d| exact.door_state(DoorId(d)))
                        .collect::<Result<_, _>>()?;
                    for &edit in &edits {
                        match edit {
                            Edit::Door(door, open) => {
                                exact.door_state(door)?; // in range
                                states[door.0 as usize] =
                                    if open { DoorState::Open } else { DoorState::Closed };
                            }
                            Edit::Link(..) => {
                                return Err(Error::NotExact {
                                    why: "links (exact mode does not take links)",
                                });
                            }
                        }
                    }
                    if edits.len() <= EXACT_REPAIRS {
                        // The first repair made beside the live index (no copy of it), the
                        // others in place.
                        let mut doors = edits.iter().filter_map(|&edit| match edit {
                            Edit::Door(door, open) => Some((door, open)),
                            Edit::Link(..) => None,
                        });
                        let (door, open) = doors.next().expect("door edits only, checked above");
                        let mut repaired = exact.with_door_open(door, open)?;
                        drop(live);
                        for (door, open) in doors {
                            repaired.set_door_open(door, open)?;
                        }
                        Oracle::Exact(Box::new(repaired))
                    } else {
                        let mesh = exact.mesh().clone();
                        drop(live);
                        Oracle::Exact(Box::new(BuildOptions::new().cancel(&token).build_exact(
                            ExactRooms::builder(&mesh).door_states(states).memory_budget(budget),
                        )?))
                    }
                }
            };
            Ok((oracle, edits.len(), start.elapsed().as_secs_f32()))
        });
    }

    fn poll_repair(
        &mut self,
        swapped: &mut MessageWriter<TableSwapped>,
        errors: &mut MessageWriter<NavError>,
    ) {
        let Some(result) = self.work.poll_repair() else { return };
        match result {
            Ok((oracle, edits, seconds)) => {
                let rebuilt = matches!(oracle, Oracle::Exact(_)) && edits > EXACT_REPAIRS;
                self.live = Some(Arc::new(oracle));
                self.work.version += 1;
                swapped.write(TableSwapped {
                    map: NavMap::Rooms,
                    version: self.work.version,
                    edits,
                    rebuilt,
                    seconds,
                });
            }
            Err(error) => {
                errors.write(NavError::logged(
                    NavMap::Rooms,
                    format!("cannot apply the door and link edits, they are dropped: {error}"),
                    NavFailure::Rooms(error),
                ));
            }
        }
    }
}

/// [`NavSystems::Sync`](crate::NavSystems::Sync) for the rooms.
pub(crate) fn sync(
    rooms: Option<ResMut<NavRooms>>,
    mut doors: MessageReader<SetDoorOpen>,
    mut links: MessageReader<SetLinkOpen>,
    mut ready: MessageWriter<NavReady>,
    mut swapped: MessageWriter<TableSwapped>,
    mut errors: MessageWriter<NavError>,
) {
    let Some(mut rooms) = rooms else {
        doors.clear();
        links.clear();
        return;
    };
    let rooms = &mut *rooms;
    if rooms.work.status == NavStatus::Waiting {
        rooms.start_build();
    }
    rooms.poll_build(&mut ready, &mut errors);
    for edit in doors.read() {
        rooms.receive(Edit::Door(edit.door, edit.open));
    }
    for edit in links.read() {
        rooms.receive(Edit::Link(edit.link, edit.open));
    }
    rooms.poll_repair(&mut swapped, &mut errors);
    rooms.start_repair(&mut errors);
}

/// Walks toward wherever `target` stands now (its [`RoomsAgent`] position, or its
/// `Transform`), straight to each waypoint of the [`NavRooms`]; through a link it jumps from
/// one end to the other.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
#[require(RoomsAgent, Transform)]
pub struct RoomsChaser {
    /// The entity chased.
    pub target: Entity,
    /// Mesh units per second.
    pub speed: f32,
}

/// Walks to a fixed point of the [`NavRooms`]' mesh and stays there.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
#[require(RoomsAgent, Transform)]
pub struct RoomsGoTo {
    /// The goal (mesh coordinates).
    pub point: Point,
    /// Mesh units per second.
    pub speed: f32,
}

/// A rooms walker's place, kept by the plugin: its position (mesh coordinates) and the
/// waypoint it heads for. A walker spawned without a position takes its `Transform`'s.
#[derive(Component, Debug, Clone, Copy, Default, PartialEq)]
pub struct RoomsAgent {
    position: Option<Point>,
    waypoint: Option<Point>,
    walked: f64,
}

impl RoomsAgent {
    /// A walker standing at `point` (mesh coordinates).
    #[must_use]
    pub fn at(point: Point) -> RoomsAgent {
        RoomsAgent { position: Some(point), ..RoomsAgent::default() }
    }

    /// Where it stands (mesh coordinates).
    #[must_use]
    pub fn position(&self) -> Option<Point> {
        self.position
    }

    /// The waypoint it heads for; `None` when at its goal or with no way there, and while it
    /// avoids ([`Avoidance`]: the crowd keeps its waypoints).
    #[must_use]
    pub fn waypoint(&self) -> Option<Point> {
        self.waypoint
    }

    /// Distance walked since spawning (mesh units).
    #[must_use]
    pub fn walked(&self) -> f64 {
        self.walked
    }

    /// Puts an [`Avoidance`] walker where the crowd moved it, having walked `walked` more.
    pub(crate) fn avoided(&mut self, to: Point, walked: f64) {
        self.position = Some(to);
        self.waypoint = None;
        self.walked += walked;
    }
}

/// The rooms walkers and their targets, in turns.
#[derive(SystemParam)]
pub(crate) struct RoomsWalkers<'w, 's> {
    walkers: ParamSet<'w, 's, (Readers<'w, 's>, Writer<'w, 's>)>,
}

type Kind = AnyOf<(&'static RoomsChaser, &'static RoomsGoTo)>;
type Readers<'w, 's> = (
    Query<'w, 's, (Entity, &'static RoomsAgent, &'static Transform, Kind), Without<Avoidance>>,
    Query<'w, 's, (Option<&'static Transform>, Option<&'static RoomsAgent>)>,
);
type Writer<'w, 's> = Query<'w, 's, &'static mut RoomsAgent>;

/// The tick's buffers and query scratch, kept between ticks.
#[derive(Default)]
pub(crate) struct Buffers {
    goals: Vec<(Entity, Point, Point, f64)>,
    corridor: Scratch,
    exact: ExactScratch,
}

/// [`NavSystems::Steer`](crate::NavSystems::Steer) for the rooms: each walker walks its
/// speed's distance, turning at each waypoint it reaches within the tick.
pub(crate) fn steer(
    rooms: Option<Res<NavRooms>>,
    time: Res<Time>,
    mut walkers: RoomsWalkers,
    mut buffers: Local<Buffers>,
) {
    let Some(rooms) = rooms else { return };
    let Some(oracle) = rooms.live.as_deref() else { return };
    let Buffers { goals, corridor, exact } = &mut *buffers;
    goals.clear();
    let dt = f64::from(time.delta_secs());
    let (reader, targets) = walkers.walkers.p0();
    for (entity, agent, transform, (chaser, goto)) in &reader {
        let here = agent.position.unwrap_or_else(|| rooms.to_mesh(transform.translation.truncate()));
        let goal = if let Some(goto) = goto {
            Some((goto.point, goto.speed))
        } else {
            chaser.and_then(|c| {
                let (transform, agent) = targets.get(c.target).ok()?;
                let at = agent
                    .and_then(RoomsAgent::position)
                    .or_else(|| Some(rooms.to_mesh(transform?.translation.truncate())))?;
                Some((at, c.speed))
            })
        };
        if let Some((goal, speed)) = goal {
            goals.push((entity, here, goal, f64::from(speed) * dt));
        }
    }
    let mut writer = walkers.walkers.p1();
    for &(entity, mut here, goal, mut budget) in goals.iter() {
        let Ok(mut agent) = writer.get_mut(entity) else { continue };
        let mut waypoint = None;
        // A few turns a tick at most: waypoints closer than a tick's walk are passed through.
        for _ in 0..4 {
            waypoint = match oracle {
                Oracle::Corridor(rooms) => rooms.next_waypoint_with(here, goal, corridor),
                Oracle::Exact(index) => index.next_waypoint_with(here, goal, exact),
            };
            let Some(to) = waypoint else { break };
            if let Oracle::Corridor(rooms) = oracle
                && takes_link(rooms, here, to)
            {
                here = to; // through the link: a jump, not a walk
                continue;
            }
            let gap = here.distance(to);
            if gap > budget {
                let t = budget / gap;
                here = Point::new(here.x + (to.x - here.x) * t, here.y + (to.y - here.y) * t);
                agent.walked += budget;
                break;
            }
            here = to;
            budget -= gap;
            agent.walked += gap;
        }
        agent.position = Some(here);
        agent.waypoint = waypoint;
    }
}

/// Whether the step from `here` to `to` is an open link's (the path's waypoints put a walker
/// on a link's entrance, then give its exit).
fn takes_link(rooms: &Rooms, here: Point, to: Point) -> bool {
    rooms.links().iter().enumerate().any(|(i, link)| {
        let forward = link.ends == [here, to];
        let back = link.two_way && link.ends == [to, here];
        (forward || back) && rooms.is_link_open(LinkId(i as u32)).unwrap_or(false)
    })
}

/// [`NavSystems::Move`](crate::NavSystems::Move) for the rooms: each walker's `Transform` at
/// its position (its `z` kept).
pub(crate) fn place(rooms: Option<Res<NavRooms>>, mut walkers: Query<(&RoomsAgent, &mut Transform)>) {
    let Some(rooms) = rooms else { return };
    for (agent, mut transform) in &mut walkers {
        let Some(at) = agent.position.map(|p| rooms.to_world(p)) else { continue };
        if transform.translation.truncate() != at {
            transform.translation.x = at.x;
            transform.translation.y = at.y;
        }
    }
}
