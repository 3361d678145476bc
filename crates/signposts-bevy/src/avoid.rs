//! [`Avoidance`]: rooms walkers that keep apart, stepped by one
//! [`signposts_crowd::agents::Agents`] crowd over the [`NavRooms`]' mesh ([`RoomsCrowd`]).

use std::collections::HashMap;

use bevy::ecs::entity::EntityHashMap;
use bevy::ecs::message::MessageWriter;
use bevy::ecs::prelude::*;
use bevy::math::Vec2;
use bevy::time::Time;
use bevy::transform::components::Transform;
use signposts_crowd::agents::{Agent, AgentId, Agents, Error, GoalId, Settings, Stats};
use signposts_rooms::Point;

use crate::rooms::{NavRooms, RoomsAgent, RoomsChaser, RoomsGoTo};
use crate::{NavError, NavFailure, NavMap};

/// Makes a [`RoomsChaser`] or [`RoomsGoTo`] walker keep out of the other avoiding walkers'
/// way and off the walls: the plugin steps every walker that carries it with one
/// [`Agents`] crowd (ORCA, reciprocal collision avoidance; see [`RoomsCrowd`]) instead of
/// moving it straight along its waypoints.
///
/// The walker's `speed` is its top speed; `radius` is in mesh units. Walkers without
/// `Avoidance` walk as before, through the avoiding ones and each other.
///
/// ```
/// use bevy::prelude::*;
/// use signposts_bevy::prelude::*;
/// use signposts_rooms::Point;
///
/// let mut world = World::new();
/// let player = world.spawn(Transform::default()).id();
/// world.spawn((RoomsChaser { target: player, speed: 4.0 }, Avoidance::new(0.3), RoomsAgent::at(Point::new(5.5, 0.5))));
/// ```
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct Avoidance {
    /// The walker's radius (mesh units, positive).
    pub radius: f32,
}

impl Avoidance {
    /// Avoidance for a walker of `radius` mesh units.
    #[must_use]
    pub fn new(radius: f32) -> Avoidance {
        Avoidance { radius }
    }
}

/// What an avoiding walker heads for: one crowd goal for each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum GoalKey {
    /// A [`RoomsChaser`]'s target.
    Entity(Entity),
    /// A [`RoomsGoTo`]'s point (its coordinates' bits).
    Point(u64, u64),
    /// A chaser whose target is gone or has no position: it holds where it stands.
    Hold(Entity),
}

/// One avoiding walker as the crowd knows it.
#[derive(Debug, Clone, Copy)]
struct Member {
    entity: Entity,
    radius: f32,
    speed: f32,
    goal: GoalKey,
    /// Seen this tick (walkers not seen are removed).
    seen: bool,
}

/// The crowd over one [`NavRooms`].
#[derive(Debug)]
struct Crowd {
    /// The [`NavRooms`] it was made for.
    rooms: u64,
    agents: Agents,
    /// Agent `i`'s walker.
    members: Vec<Member>,
    /// A walker's agent index.
    index: EntityHashMap<u32>,
    goals: HashMap<GoalKey, GoalId>,
    /// Agents per goal id.
    users: Vec<u32>,
    /// Goal ids no agent uses, to reuse ([`Agents`] cannot remove a goal).
    free: Vec<GoalId>,
}

/// The crowd of [`Avoidance`] walkers, a resource (initialised by the plugin): its settings,
/// and the crowd itself once the [`NavRooms`] are built.
///
/// Each tick of [`NavSystems::Steer`](crate::NavSystems::Steer), after the other rooms
/// walkers have stepped:
///
/// - walkers that gained [`Avoidance`] join the crowd at their [`RoomsAgent`] position (or
///   their `Transform`'s); those that lost it, or their [`RoomsChaser`] or [`RoomsGoTo`], or
///   were despawned, leave it (the crowd's `swap_remove`); a change of radius or speed is
///   a leave and a join;
/// - a walker whose `Transform` the game moved (its `x`, `y` differ from where the plugin
///   last put it), or given a new [`RoomsAgent`], is put there (a teleport, at rest): the
///   [`RoomsAgent`] is looked at first, then the `Transform`;
/// - each distinct target (a chased entity, a [`RoomsGoTo`] point) is one goal of the crowd,
///   moved to where the target stands now; a chaser whose target is gone holds its place
///   (and still makes way for others);
/// - the crowd steps by the fixed time step on the live oracle (corridor or exact), and each
///   walker's [`RoomsAgent`] position, then its `Transform`, follows.
///
/// Deterministic: the same spawns, despawns and targets give the same positions bit for bit
/// (agents join in the walkers query's order; the crowd's step is deterministic for any
/// thread count). A walker that cannot join (outside the walkable area) stays put, and a
/// [`NavError`] says so once per position it is tried at.
///
/// Limits: the crowd's walls are the mesh's outline: a closed door is routed around but is
/// no wall to the crowd, and links are not taken (an avoiding walker never jumps). A
/// walker's [`RoomsAgent::waypoint`] is `None` while it avoids. A new [`NavRooms`] starts a
/// new crowd (every walker joins again at its position).
#[derive(Resource, Debug, Default)]
pub struct RoomsCrowd {
    settings: Settings,
    crowd: Option<Crowd>,
    stats: Option<Stats>,
    /// Walkers that could not join: where, and the last tick they were tried.
    rejected: EntityHashMap<(Point, u64)>,
    /// Ticks run.
    tick: u64,
}

impl RoomsCrowd {
    /// The crowd's settings (its defaults: [`Settings::default`]).
    #[must_use]
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The settings, to change at any time (taken at the next tick). Time is in seconds,
    /// lengths in mesh units.
    pub fn settings_mut(&mut self) -> &mut Settings {
        &mut self.settings
    }

    /// The crowd, once the rooms are built and a walker has joined.
    #[must_use]
    pub fn agents(&self) -> Option<&Agents> {
        self.crowd.as_ref().map(|crowd| &crowd.agents)
    }

    /// The crowd's agent for `walker`, if it is in the crowd.
    #[must_use]
    pub fn agent(&self, walker: Entity) -> Option<AgentId> {
        self.crowd.as_ref()?.index.get(&walker).map(|&i| AgentId(i))
    }

    /// The walker of the crowd's agent `agent`.
    #[must_use]
    pub fn walker(&self, agent: AgentId) -> Option<Entity> {
        Some(self.crowd.as_ref()?.members.get(agent.0 as usize)?.entity)
    }

    /// How the last step went (overlaps, stalled, arrived, ...): `None` before the first.
    #[must_use]
    pub fn stats(&self) -> Option<Stats> {
        self.stats
    }
}

impl Crowd {
    fn new(rooms: &NavRooms, settings: &Settings) -> Option<Crowd> {
        Some(Crowd {
            rooms: rooms.id(),
            agents: Agents::new(rooms.mesh()?, settings.clone()),
            members: Vec::new(),
            index: EntityHashMap::default(),
            goals: HashMap::new(),
            users: Vec::new(),
            free: Vec::new(),
        })
    }

    /// The goal for `key` (a new or reused one), counted as used once more.
    fn take_goal(&mut self, key: GoalKey, at: Point) -> Result<GoalId, Error> {
        let id = if let Some(&id) = self.goals.get(&key) {
            id
        } else {
            let id = if let Some(id) = self.free.pop() {
                if let Err(error) = self.agents.set_goal(id, at) {
                    self.free.push(id);
                    return Err(error);
                }
                id
            } else {
                let id = self.agents.add_goal(at)?;
                self.users.push(0);
                id
            };
            self.goals.insert(key, id);
            id
        };
        self.users[id.0 as usize] += 1;
        Ok(id)
    }

    /// One user less for `key`'s goal; freed when it has none.
    fn drop_goal(&mut self, key: GoalKey) {
        let Some(&id) = self.goals.get(&key) else { return };
        let users = &mut self.users[id.0 as usize];
        *users -= 1;
        if *users == 0 {
            self.goals.remove(&key);
            self.free.push(id);
        }
    }

    /// Removes agent `i` (the last one takes its index).
    fn remove(&mut self, i: usize) {
        self.agents.swap_remove(AgentId(i as u32));
        let gone = self.members.swap_remove(i);
        self.index.remove(&gone.entity);
        if let Some(moved) = self.members.get(i) {
            self.index.insert(moved.entity, i as u32);
        }
        self.drop_goal(gone.goal);
    }

    /// Adds `walk`'s walker as a new agent.
    fn add(&mut self, walk: &Walk) -> Result<(), Error> {
        let goal = self.take_goal(walk.goal, walk.goal_at)?;
        let agent = Agent {
            position: walk.at,
            radius: f64::from(walk.radius),
            max_speed: f64::from(walk.speed),
            goal,
        };
        if let Err(error) = self.agents.add(agent) {
            self.drop_goal(walk.goal);
            return Err(error);
        }
        self.index.insert(walk.entity, self.members.len() as u32);
        self.members.push(Member {
            entity: walk.entity,
            radius: walk.radius,
            speed: walk.speed,
            goal: walk.goal,
            seen: true,
        });
        Ok(())
    }
}

/// One avoiding walker this tick, as read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Walk {
    entity: Entity,
    /// Its [`RoomsAgent`] position, else its `Transform`'s.
    at: Point,
    agent_at: Option<Point>,
    transform_at: Vec2,
    radius: f32,
    speed: f32,
    goal: GoalKey,
    goal_at: Point,
}

type Kind = AnyOf<(&'static RoomsChaser, &'static RoomsGoTo)>;
type Walkers<'w, 's> =
    Query<'w, 's, (Entity, &'static RoomsAgent, &'static Transform, &'static Avoidance, Kind)>;
type Targets<'w, 's> = Query<'w, 's, (Option<&'static Transform>, Option<&'static RoomsAgent>)>;

/// [`NavSystems::Steer`](crate::NavSystems::Steer) for the [`Avoidance`] walkers, after the
/// other rooms walkers: see [`RoomsCrowd`].
pub(crate) fn steer(
    rooms: Option<Res<NavRooms>>,
    time: Res<Time>,
    mut crowd: ResMut<RoomsCrowd>,
    mut walkers: ParamSet<((Walkers, Targets), Query<&mut RoomsAgent>)>,
    mut errors: MessageWriter<NavError>,
    mut walks: Local<Vec<Walk>>,
) {
    let Some(rooms) = rooms else { return };
    if rooms.rooms().is_none() && rooms.exact().is_none() {
        return;
    }
    // 1. The walkers and where their targets stand (before this tick's steps).
    let walks = &mut *walks;
    walks.clear();
    let (reader, targets) = walkers.p0();
    walks.extend(read(&rooms, &reader, &targets));

    let RoomsCrowd { settings, crowd, stats, rejected, tick } = &mut *crowd;
    *tick += 1;
    if crowd.as_ref().is_none_or(|c| c.rooms != rooms.id()) {
        // A crowd once a walker avoids; a new one for new rooms.
        *crowd = if walks.is_empty() { None } else { Crowd::new(&rooms, settings) };
        rejected.clear();
    }
    let Some(crowd) = crowd.as_mut() else { return };
    if crowd.agents.settings() != settings {
        *crowd.agents.settings_mut() = settings.clone();
    }

    // 2. Leavers out (from the last index down: each takes the last one's place).
    for member in &mut crowd.members {
        member.seen = false;
    }
    for walk in &*walks {
        if let Some(&i) = crowd.index.get(&walk.entity) {
            crowd.members[i as usize].seen = true;
        }
    }
    for i in (0..crowd.members.len()).rev() {
        if !crowd.members[i].seen {
            crowd.remove(i);
        }
    }

    // 3. Joiners in, in the query's order; the others teleported, re-sized, re-targeted.
    for walk in &*walks {
        let Some(&i) = crowd.index.get(&walk.entity) else {
            join(crowd, rejected, *tick, walk, &mut errors);
            continue;
        };
        let i = i as usize;
        let member = crowd.members[i];
        if (member.radius, member.speed) != (walk.radius, walk.speed) {
            // The crowd keeps an agent's radius and speed: out and in again.
            crowd.remove(i);
            join(crowd, rejected, *tick, walk, &mut errors);
            continue;
        }
        let id = AgentId(i as u32);
        let now = crowd.agents.position(id);
        let moved_to = match walk.agent_at {
            Some(p) if p != now => Some(p),
            _ if walk.transform_at != rooms.to_world(now) => Some(rooms.to_mesh(walk.transform_at)),
            _ => None,
        };
        if let Some(to) = moved_to
            && let Err(error) = crowd.agents.set_position(id, to)
        {
            errors.write(NavError::logged(
                NavMap::Rooms,
                format!("cannot move avoiding walker {} to {to}: {error}", walk.entity),
                NavFailure::Crowd(error),
            ));
        }
        // A new target (a goal not finite is refused: the old one is kept).
        if member.goal != walk.goal
            && let Ok(goal) = crowd.take_goal(walk.goal, walk.goal_at)
        {
            crowd.drop_goal(member.goal);
            crowd.agents.set_agent_goal(id, goal).expect("a goal of this crowd");
            crowd.members[i].goal = walk.goal;
        }
    }

    // Walkers refused and gone (or no longer avoiding) are forgotten.
    rejected.retain(|_, &mut (_, tried)| tried == *tick);

    // 4. Goals where their targets stand now.
    for walk in &*walks {
        let at = match walk.goal {
            GoalKey::Hold(_) => match crowd.index.get(&walk.entity) {
                Some(&i) => crowd.agents.position(AgentId(i)),
                None => continue,
            },
            _ => walk.goal_at,
        };
        if let Some(&id) = crowd.goals.get(&walk.goal) {
            // Not finite (a target off in NaN): the goal stays where it was.
            crowd.agents.set_goal(id, at).ok();
        }
    }

    // 5. The step, and the walkers where it put them.
    let dt = f64::from(time.delta_secs());
    if crowd.agents.is_empty() || dt <= 0.0 {
        return;
    }
    *stats = Some(match (rooms.rooms(), rooms.exact()) {
        (Some(corridor), _) => crowd.agents.step(corridor, dt),
        (None, Some(exact)) => crowd.agents.step(exact, dt),
        (None, None) => return,
    });
    let mut writer = walkers.p1();
    for (i, member) in crowd.members.iter().enumerate() {
        let Ok(mut agent) = writer.get_mut(member.entity) else { continue };
        let id = AgentId(i as u32);
        // The step's move (a teleport walks nothing).
        let walked = crowd.agents.velocity(id).distance(Point::new(0.0, 0.0)) * dt;
        agent.avoided(crowd.agents.position(id), walked);
    }
}

/// The avoiding walkers, in the query's order, with their targets' positions.
fn read<'a>(
    rooms: &'a NavRooms,
    walkers: &'a Walkers,
    targets: &'a Targets,
) -> impl Iterator<Item = Walk> + 'a {
    walkers.iter().map(move |(entity, agent, transform, avoidance, (chaser, goto))| {
        let transform_at = transform.translation.truncate();
        let at = agent.position().unwrap_or_else(|| rooms.to_mesh(transform_at));
        let (goal, goal_at, speed) = if let Some(goto) = goto {
            (GoalKey::Point(goto.point.x.to_bits(), goto.point.y.to_bits()), goto.point, goto.speed)
        } else {
            let chaser = chaser.expect("a rooms walker is a chaser or a goto");
            let target = targets.get(chaser.target).ok().and_then(|(transform, agent)| {
                agent
                    .and_then(RoomsAgent::position)
                    .or_else(|| Some(rooms.to_mesh(transform?.translation.truncate())))
            });
            match target {
                Some(p) => (GoalKey::Entity(chaser.target), p, chaser.speed),
                None => (GoalKey::Hold(entity), at, chaser.speed),
            }
        };
        Walk {
            entity,
            at,
            agent_at: agent.position(),
            transform_at,
            radius: avoidance.radius,
            speed,
            goal,
            goal_at,
        }
    })
}

/// Adds a walker to the crowd; a refusal is reported once per position.
fn join(
    crowd: &mut Crowd,
    rejected: &mut EntityHashMap<(Point, u64)>,
    tick: u64,
    walk: &Walk,
    errors: &mut MessageWriter<NavError>,
) {
    if let Some((at, tried)) = rejected.get_mut(&walk.entity) {
        *tried = tick;
        if *at == walk.at {
            return;
        }
    }
    match crowd.add(walk) {
        Ok(()) => {
            rejected.remove(&walk.entity);
        }
        Err(error) => {
            rejected.insert(walk.entity, (walk.at, tick));
            errors.write(NavError::logged(
                NavMap::Rooms,
                format!("avoiding walker {} cannot join the crowd at {}: {error}", walk.entity, walk.at),
                NavFailure::Crowd(error),
            ));
        }
    }
}
