//! Continuous agents with reciprocal avoidance (ORCA).
//!
//! Each agent has a position, a radius, a top speed and a goal (a point that many agents may
//! share, such as a player, [`Agents::add_goal`]). Each [`Agents::step`]:
//!
//! 1. asks a [`Waypoints`] source ([`Rooms`](signposts_rooms::Rooms) or
//!    [`ExactRooms`](signposts_rooms::ExactRooms)) for every agent's next waypoint, agents of
//!    one goal together ([`ExactRooms::next_waypoint_toward`](signposts_rooms::ExactRooms::next_waypoint_toward));
//!    an agent within four radii of a wall corner it heads for turns away from the walls by
//!    the angle that grazes the corner, so that it rounds the corner rather than pressing into
//!    it;
//! 2. sets each agent's preferred velocity towards its waypoint at top speed, slowing within
//!    [`Settings::slowdown_time`] of the goal;
//! 3. picks the permitted velocity nearest it by ORCA (optimal reciprocal collision
//!    avoidance, van den Berg et al. 2011, solved as RVO2 does): a half-plane per neighbour
//!    (the nearest [`Settings::max_neighbours`] within [`Settings::neighbour_distance`], found
//!    in a uniform grid rebuilt each step by a counting sort) and per wall (a region edge
//!    that is no door, within reach); walls are kept whenever they can be, neighbours relaxed
//!    equally when they cannot all be met;
//! 4. moves each agent, and keeps it in the walkable area: a move whose end no region holds
//!    ([`NavMesh::region_at`]) slides along one axis, or stays.
//!
//! [`Stats`] says how the step went: agents stalled (no progress for
//! [`Settings::stall_ticks`] steps: queued or deadlocked, never hidden), arrived, without a
//! path, and moves cut by the walkable check. [`Agents::overlaps`] counts the overlapping
//! pairs and the deepest overlap when asked.
//!
//! ```
//! use signposts::grid::Grid;
//! use signposts_crowd::agents::{Agent, Agents, Settings};
//! use signposts_rooms::{NavMesh, Point, Rooms};
//!
//! let grid = Grid::from_ascii("
//!     ..........
//!     .########.
//!     ..........
//! ")?;
//! let mesh = NavMesh::from_grid(&grid)?;
//! let rooms = Rooms::build(&mesh)?;
//! let mut crowd = Agents::new(&mesh, Settings::default());
//! let player = crowd.add_goal(Point::new(9.5, 2.5))?;
//! for x in 0..4 {
//!     let position = Point::new(0.5 + f64::from(x) * 0.5, 0.5);
//!     crowd.add(Agent { position, radius: 0.2, max_speed: 4.0, goal: player })?; // checked walkable
//! }
//! for _ in 0..200 {
//!     crowd.step(&rooms, 1.0 / 30.0);
//!     assert!(crowd.overlaps().deepest < 0.05); // never piled up
//! }
//! for a in crowd.ids() {
//!     assert!(crowd.position(a).distance(Point::new(9.5, 2.5)) < 1.5, "all came round the wall");
//!     assert!(mesh.region_at(crowd.position(a)).is_some()); // never left the walkable area
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Determinism
//! The same agents, goals, settings, source and time steps give bit-identical positions run
//! after run and for any number of threads: every new velocity is computed from the previous
//! step's positions and velocities only (in parallel, rayon's `par_iter` over the agents in
//! index order), then all are applied at once; each grid cell lists its agents in index order
//! and neighbours are ranked by distance, then index; two agents on the same point separate
//! along `x` by their indices (no randomness). The tests compare thread pools of 1 and 3.
//!
//! ## What is promised
//! - An agent's centre never leaves the walkable area: after every step
//!   [`NavMesh::region_at`] holds each position (checked by the property tests).
//! - Overlaps: ORCA keeps agents apart whenever every agent's half-planes can all be met
//!   within its top speed, and a feasible ORCA velocity also keeps an agent's disc off the
//!   walls. When they cannot (a crowd pressed against one goal, walls pinching two agents)
//!   the neighbours' constraints are relaxed and agents may overlap; they are pushed apart
//!   within a step once they can be. The crate's property tests check, on random small
//!   worlds (grids up to 13 × 13, up to 40 agents of radius 0.1 to 0.4, 90 steps), that no
//!   pair ever overlaps by more than 25% of the sum of their radii (over 1,500 such worlds
//!   none passed 18%); a crowd of thousands pressing on one point overlaps by up to a fifth
//!   to a quarter (docs/benchmarks.md, "Continuous agents").
//! - Agents never overlap walls by their centre (above); by their disc only when a
//!   step's half-planes cannot all hold, or when placed so.

mod hash;
mod orca;
mod source;
mod types;
mod walls;

use rayon::prelude::*;
use signposts_rooms::{NavMesh, Point};

use hash::Hash;
use orca::{Line, V2};
pub use source::Waypoints;
pub use types::{Agent, AgentId, Error, GoalId, Overlaps, Settings, Stats};
use walls::Walls;

/// One agent's result of a step, from the previous step's snapshot.
#[expect(clippy::struct_excessive_bools, reason = "four independent outcomes, counted separately")]
#[derive(Debug, Clone, Copy, Default)]
struct Moved {
    position: V2,
    velocity: V2,
    arrived: bool,
    progressed: bool,
    unreachable: bool,
    clamped: bool,
}

/// A crowd of continuous agents over one mesh: see the [module](self).
#[derive(Debug, Clone)]
pub struct Agents {
    /// The walkable area (a copy of the mesh the crowd was made on).
    mesh: NavMesh,
    settings: Settings,
    lo: V2,
    hi: V2,
    wall_list: Vec<walls::Wall>,
    walls: Walls,
    goals: Vec<V2>,
    position: Vec<V2>,
    velocity: Vec<V2>,
    radius: Vec<f64>,
    max_speed: Vec<f64>,
    goal: Vec<u32>,
    stall: Vec<u32>,
    arrived: Vec<bool>,
    hash: Hash,
    /// Whether `hash` holds the current positions with the current cell side.
    hashed: Option<f64>,
    /// Each agent's last waypoint, and whether it must be asked again at the next step
    /// whatever [`Settings::waypoint_interval`] says (new agents, new goals).
    waypoints: Vec<Option<Point>>,
    stale: Vec<bool>,
    /// Steps taken.
    tick: u64,
    moved: Vec<Moved>,
}

/// How many agents of one goal share a waypoint query.
const CHUNK: usize = 512;

#[inline]
fn v2(p: Point) -> V2 {
    V2::new(p.x, p.y)
}

#[inline]
fn pt(v: V2) -> Point {
    Point::new(v.x, v.y)
}

impl Agents {
    /// An empty crowd on `mesh` (kept as a copy: its walls, and the walkable area that every
    /// move is checked against; step it with a [`Waypoints`] source over the same mesh).
    #[must_use]
    pub fn new(mesh: &NavMesh, settings: Settings) -> Agents {
        let (mut lo, mut hi) =
            (V2::new(f64::INFINITY, f64::INFINITY), V2::new(f64::NEG_INFINITY, f64::NEG_INFINITY));
        for p in mesh.vertices() {
            lo = V2::new(lo.x.min(p.x), lo.y.min(p.y));
            hi = V2::new(hi.x.max(p.x), hi.y.max(p.y));
        }
        if lo.x > hi.x {
            (lo, hi) = (V2::ZERO, V2::ZERO);
        }
        Agents {
            mesh: mesh.clone(),
            settings,
            lo,
            hi,
            wall_list: walls::walls_of(mesh),
            walls: Walls::default(),
            goals: Vec::new(),
            position: Vec::new(),
            velocity: Vec::new(),
            radius: Vec::new(),
            max_speed: Vec::new(),
            goal: Vec::new(),
            stall: Vec::new(),
            arrived: Vec::new(),
            hash: Hash::default(),
            hashed: None,
            waypoints: Vec::new(),
            stale: Vec::new(),
            tick: 0,
            moved: Vec::new(),
        }
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The settings, to change between steps.
    pub fn settings_mut(&mut self) -> &mut Settings {
        self.hashed = None;
        &mut self.settings
    }

    /// Adds a goal at `at` (any finite point; agents heading for an unwalkable one stay).
    ///
    /// # Errors
    /// [`Error::BadValue`] for a point that is not finite.
    pub fn add_goal(&mut self, at: Point) -> Result<GoalId, Error> {
        check_goal(at)?;
        self.goals.push(v2(at));
        Ok(GoalId(self.goals.len() as u32 - 1))
    }

    /// Moves goal `g` to `at`.
    ///
    /// # Errors
    /// [`Error::NoSuchGoal`], or [`Error::BadValue`] for a point that is not finite.
    pub fn set_goal(&mut self, g: GoalId, at: Point) -> Result<(), Error> {
        check_goal(at)?;
        *self.goals.get_mut(g.0 as usize).ok_or(Error::NoSuchGoal(g))? = v2(at);
        Ok(())
    }

    /// Where goal `g` is.
    ///
    /// # Panics
    /// If `g` was not given by [`Agents::add_goal`].
    #[must_use]
    pub fn goal(&self, g: GoalId) -> Point {
        pt(self.goals[g.0 as usize])
    }

    /// Adds an agent, at rest.
    ///
    /// # Errors
    /// [`Error::NotWalkable`] when no region of the crowd's mesh holds its position,
    /// [`Error::BadValue`] for a bad radius, speed or position, [`Error::NoSuchGoal`].
    pub fn add(&mut self, agent: Agent) -> Result<AgentId, Error> {
        if !(agent.radius > 0.0 && agent.radius.is_finite()) {
            return Err(Error::BadValue { what: "radius", value: agent.radius });
        }
        if !(agent.max_speed >= 0.0 && agent.max_speed.is_finite()) {
            return Err(Error::BadValue { what: "max_speed", value: agent.max_speed });
        }
        if !agent.position.is_finite() {
            return Err(Error::BadValue { what: "position", value: agent.position.x + agent.position.y });
        }
        if agent.goal.0 as usize >= self.goals.len() {
            return Err(Error::NoSuchGoal(agent.goal));
        }
        if self.mesh.region_at(agent.position).is_none() {
            return Err(Error::NotWalkable { position: agent.position });
        }
        self.position.push(v2(agent.position));
        self.velocity.push(V2::ZERO);
        self.radius.push(agent.radius);
        self.max_speed.push(agent.max_speed);
        self.goal.push(agent.goal.0);
        self.stall.push(0);
        self.arrived.push(false);
        self.stale.push(true);
        self.hashed = None;
        Ok(AgentId(self.position.len() as u32 - 1))
    }

    /// Puts agent `a` at `at` (a teleport, a respawn), at rest, not arrived; its waypoint is
    /// asked for again at the next step.
    ///
    /// # Errors
    /// [`Error::BadValue`] for a position that is not finite, [`Error::NotWalkable`] when no
    /// region of the crowd's mesh holds it; then the agent stays where it was.
    ///
    /// # Panics
    /// If `a` is not an agent of this crowd.
    pub fn set_position(&mut self, a: AgentId, at: Point) -> Result<(), Error> {
        let i = a.0 as usize;
        assert!(i < self.len(), "agent {} is not in this crowd of {} agents", a.0, self.len());
        if !at.is_finite() {
            return Err(Error::BadValue { what: "position", value: at.x + at.y });
        }
        if self.mesh.region_at(at).is_none() {
            return Err(Error::NotWalkable { position: at });
        }
        self.position[i] = v2(at);
        self.velocity[i] = V2::ZERO;
        self.stall[i] = 0;
        self.arrived[i] = false;
        self.stale[i] = true;
        self.hashed = None;
        Ok(())
    }

    /// Removes agent `a` and returns it as it stands (its position now, its radius, speed
    /// and goal). The last agent takes its id (as [`Vec::swap_remove`]): ids above `a` are
    /// unchanged, and the agent that had id `len() - 1` has id `a` afterwards (unless it was
    /// `a`).
    ///
    /// # Panics
    /// If `a` is not an agent of this crowd.
    pub fn swap_remove(&mut self, a: AgentId) -> Agent {
        let i = a.0 as usize;
        assert!(i < self.len(), "agent {} is not in this crowd of {} agents", a.0, self.len());
        let agent = Agent {
            position: pt(self.position.swap_remove(i)),
            radius: self.radius.swap_remove(i),
            max_speed: self.max_speed.swap_remove(i),
            goal: GoalId(self.goal.swap_remove(i)),
        };
        self.velocity.swap_remove(i);
        self.stall.swap_remove(i);
        self.arrived.swap_remove(i);
        self.stale.swap_remove(i);
        // The moved agent's waypoint is asked for again; the buffers of a step are resized
        // by the next one.
        if i < self.stale.len() {
            self.stale[i] = true;
        }
        self.waypoints.truncate(self.len());
        self.hashed = None;
        agent
    }

    /// Sends agent `a` to goal `g`.
    ///
    /// # Errors
    /// [`Error::NoSuchGoal`].
    ///
    /// # Panics
    /// If `a` is not an agent of this crowd.
    pub fn set_agent_goal(&mut self, a: AgentId, g: GoalId) -> Result<(), Error> {
        if g.0 as usize >= self.goals.len() {
            return Err(Error::NoSuchGoal(g));
        }
        self.goal[a.0 as usize] = g.0;
        self.stall[a.0 as usize] = 0;
        self.stale[a.0 as usize] = true;
        Ok(())
    }

    /// The number of agents.
    #[must_use]
    pub fn len(&self) -> usize {
        self.position.len()
    }

    /// Whether there are no agents.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.position.is_empty()
    }

    /// Every agent's id, in order.
    pub fn ids(&self) -> impl ExactSizeIterator<Item = AgentId> + use<> {
        (0..self.len() as u32).map(AgentId)
    }

    /// Agent `a`'s position.
    ///
    /// # Panics
    /// If `a` is not an agent of this crowd (here and in the other getters).
    #[must_use]
    pub fn position(&self, a: AgentId) -> Point {
        pt(self.position[a.0 as usize])
    }

    /// Every agent's position, in order.
    #[must_use = "an iterator does nothing unless used"]
    pub fn positions(&self) -> impl ExactSizeIterator<Item = Point> + '_ {
        self.position.iter().map(|&p| pt(p))
    }

    /// Agent `a`'s velocity in the last step (its move over the time step).
    #[must_use]
    pub fn velocity(&self, a: AgentId) -> Point {
        pt(self.velocity[a.0 as usize])
    }

    /// Agent `a`'s radius.
    #[must_use]
    pub fn radius(&self, a: AgentId) -> f64 {
        self.radius[a.0 as usize]
    }

    /// Whether agent `a` was within [`Settings::arrival_distance`] of its goal at the last step.
    #[must_use]
    pub fn has_arrived(&self, a: AgentId) -> bool {
        self.arrived[a.0 as usize]
    }

    /// Whether agent `a` is stalled (see [`Stats::stalled`]).
    #[must_use]
    pub fn is_stalled(&self, a: AgentId) -> bool {
        !self.arrived[a.0 as usize] && self.stall[a.0 as usize] >= self.settings.stall_ticks
    }

    /// The neighbour distance and the grid's cell side.
    fn reach(&self) -> (f64, f64) {
        let max_r = self.radius.iter().copied().fold(0.0, f64::max);
        let max_v = self.max_speed.iter().copied().fold(0.0, f64::max);
        let nd = self.settings.neighbour_distance.unwrap_or(2.0 * max_r + max_v * self.settings.time_horizon);
        // Cells of a third of the neighbour distance: a dense crowd finds its nearest
        // neighbours in the first rings.
        (nd, (nd / 3.0).max(2.0 * max_r))
    }

    /// Moves every agent by one time step `dt`, reading waypoints from `source` (over the
    /// crowd's mesh): see the [module](self). Runs on rayon's current pool.
    ///
    /// # Panics
    /// If `dt` is not positive and finite, or a setting's time is not positive.
    pub fn step<W: Waypoints>(&mut self, source: &W, dt: f64) -> Stats {
        assert!(dt > 0.0 && dt.is_finite(), "the time step must be positive and finite, not {dt}");
        let s = &self.settings;
        assert!(
            s.time_horizon > 0.0 && s.wall_time_horizon > 0.0 && s.slowdown_time > 0.0,
            "the settings' time horizons and slowdown time must be positive: {s:?}"
        );
        let n = self.len();
        let (nd, cell) = self.reach();
        if self.hashed != Some(cell) {
            self.hash.rebuild(&self.position, self.lo, self.hi, cell);
            self.hashed = Some(cell);
        }
        let wall_horizon = s.wall_time_horizon.max(dt);
        let wall_reach =
            (0..n).map(|i| self.radius[i] + self.max_speed[i] * wall_horizon).fold(0.0, f64::max);
        if wall_reach > self.walls.reach || self.walls.segments.len() != self.wall_list.len() {
            let side = wall_reach.max((self.hi.x - self.lo.x).max(self.hi.y - self.lo.y) / 1024.0);
            self.walls = Walls::new(self.wall_list.clone(), self.lo, self.hi, side, wall_reach);
        }
        self.find_waypoints(source);

        let rings = self.hash.rings_for(nd);
        let mut moved = core::mem::take(&mut self.moved);
        let this = &*self;
        let mesh = &self.mesh;
        (0..n)
            .into_par_iter()
            .map_init(Work::default, |work, i| this.move_one(mesh, i, (dt, nd, rings), wall_horizon, work))
            .collect_into_vec(&mut moved);

        let mut stats = Stats { agents: n, ..Stats::default() };
        for (i, m) in moved.iter().enumerate() {
            self.position[i] = m.position;
            self.velocity[i] = m.velocity;
            self.arrived[i] = m.arrived;
            self.stall[i] = if m.arrived || m.progressed { 0 } else { self.stall[i].saturating_add(1) };
            stats.arrived += usize::from(m.arrived);
            stats.unreachable += usize::from(m.unreachable);
            stats.clamped += usize::from(m.clamped);
            stats.stalled += usize::from(!m.arrived && self.stall[i] >= self.settings.stall_ticks);
        }
        self.moved = moved;
        self.hash.rebuild(&self.position, self.lo, self.hi, cell);
        self.tick += 1;
        stats
    }

    /// Every agent's waypoint into `self.waypoints`: agents grouped by goal (in index order
    /// within each), in chunks of [`CHUNK`] a query.
    #[expect(clippy::many_single_char_names, reason = "counts and ranges: n g k a b c")]
    fn find_waypoints<W: Waypoints>(&mut self, source: &W) {
        let n = self.len();
        let g = self.goals.len();
        let every = u64::from(self.settings.waypoint_interval.max(1));
        let tick = self.tick;
        let stale = &mut self.stale;
        let mut due = |i: usize| {
            let due = stale[i] || (tick + i as u64).is_multiple_of(every);
            stale[i] = false;
            due
        };
        let mut start = vec![0u32; g + 1];
        let mut order = Vec::with_capacity(n);
        for (i, &k) in self.goal.iter().enumerate() {
            if due(i) {
                start[k as usize + 1] += 1;
                order.push(i as u32);
            }
        }
        for k in 1..=g {
            start[k] += start[k - 1];
        }
        let mut at = start.clone();
        let due_agents = core::mem::take(&mut order);
        order.resize(due_agents.len(), 0);
        for &i in &due_agents {
            let k = self.goal[i as usize] as usize;
            order[at[k] as usize] = i;
            at[k] += 1;
        }
        let mut jobs = Vec::new();
        for k in 0..g {
            let (a, b) = (start[k] as usize, start[k + 1] as usize);
            let mut c = a;
            while c < b {
                jobs.push((k, c, (c + CHUNK).min(b)));
                c += CHUNK;
            }
        }
        let (position, goals) = (&self.position, &self.goals);
        let answers: Vec<Vec<Option<Point>>> = jobs
            .par_iter()
            .map_init(
                || (W::Scratch::default(), Vec::new()),
                |(scratch, froms), &(k, a, b)| {
                    froms.clear();
                    froms.extend(order[a..b].iter().map(|&i| pt(position[i as usize])));
                    let mut out = Vec::with_capacity(b - a);
                    source.waypoints_toward(froms, pt(goals[k]), &mut out, scratch);
                    out
                },
            )
            .collect();
        self.waypoints.resize(n, None);
        for (&(_, a, _), out) in jobs.iter().zip(&answers) {
            for (j, &w) in out.iter().enumerate() {
                self.waypoints[order[a + j] as usize] = w;
            }
        }
    }

    /// Agent `i`'s new velocity and position, from the snapshot.
    #[expect(clippy::many_single_char_names, reason = "an agent's state: i p v r, and s w d c")]
    fn move_one(
        &self,
        mesh: &NavMesh,
        i: usize,
        (dt, nd, rings): (f64, f64, usize),
        wall_horizon: f64,
        work: &mut Work,
    ) -> Moved {
        let s = &self.settings;
        let (p, v, r, speed) = (self.position[i], self.velocity[i], self.radius[i], self.max_speed[i]);
        let goal = self.goals[self.goal[i] as usize];
        let to_goal = (goal - p).len();
        let arrived = to_goal <= s.arrival_distance;
        let mut unreachable = false;
        let (mut preferred, mut heading) = (V2::ZERO, V2::ZERO);
        if !arrived {
            match self.waypoints[i] {
                None => unreachable = true,
                Some(w) => {
                    let w = v2(w);
                    let d = w - p;
                    let len = d.len();
                    if len > 0.0 {
                        heading = (1.0 / len) * d;
                        if w != goal && len < 4.0 * r {
                            heading = self.round_corner(w, heading, len, r);
                        }
                        preferred = speed.min(to_goal / s.slowdown_time.max(dt)) * heading;
                    }
                }
            }
        }

        let lines = &mut work.lines;
        lines.clear();
        // The distance from `p` to the nearest wall, or the walls' reach when none is nearer
        // (the walls not listed for `p`'s cell are farther).
        let mut clear = self.walls.reach;
        for wall in self.walls.near(p) {
            let c = wall.nearest(p);
            let off = p - c;
            let d = off.len();
            clear = clear.min(d);
            if d >= r + speed * wall_horizon {
                continue;
            }
            let normal = if d > 0.0 { (1.0 / d) * off } else { wall.inward };
            lines.push(Line::at_least(normal, (d - r).max(0.0) / wall_horizon));
        }
        let fixed = lines.len();

        self.nearest(i, nd, rings, &mut work.near);
        for &(_, j) in &work.near {
            let j = j as usize;
            let away = if i < j { V2::new(-1.0, 0.0) } else { V2::new(1.0, 0.0) };
            lines.push(orca::agent_line(
                p,
                v,
                r,
                self.position[j],
                self.velocity[j],
                self.radius[j],
                s.time_horizon,
                dt,
                away,
            ));
        }
        let chosen = orca::solve(lines, fixed, speed, preferred, &mut work.projected);

        // Keep the centre in the walkable area. A step shorter than the distance to the
        // nearest wall (less a margin for rounding, relative to the coordinates) cannot cross
        // the area's boundary from `p`, which is inside: only longer ones locate their end.
        let inside = |q: V2| q.x.is_finite() && q.y.is_finite() && mesh.region_at(pt(q)).is_some();
        let step = dt * chosen;
        let margin = 64.0 * f64::EPSILON * (p.x.abs() + p.y.abs() + clear);
        let mut clamped = false;
        let mut to = p + step;
        let short = step.len() + margin < clear;
        if !short && !inside(to) {
            clamped = true;
            to = [p + V2::new(step.x, 0.0), p + V2::new(0.0, step.y)]
                .into_iter()
                .find(|&q| inside(q))
                .unwrap_or(p);
        }
        let went = to - p;
        let pref_speed = preferred.len();
        let progressed = pref_speed > 0.0 && went.dot(heading) >= 0.1 * pref_speed * dt;
        Moved { position: to, velocity: (1.0 / dt) * went, arrived, progressed, unreachable, clamped }
    }

    /// Agent `i`'s nearest [`Settings::max_neighbours`] within `nd` into `near`, ranked by
    /// distance, then index.
    fn nearest(&self, i: usize, nd: f64, rings: usize, near: &mut Vec<(f64, u32)>) {
        let p = self.position[i];
        near.clear();
        let (k, nd_sq) = (self.settings.max_neighbours, nd * nd);
        if k == 0 {
            return;
        }
        // Ring by ring outwards, until the k-th nearest is nearer than any agent beyond.
        let cell = self.hash.cell();
        let mut worst = nd_sq;
        let at = self.hash.coords(p);
        for m in 0..=rings {
            self.hash.ring(at, m, |j, q| {
                let d_sq = (q - p).len_sq();
                // Farther than the k-th nearest so far (or than `nd`): the common case, one
                // comparison. Ties go on to be ranked by index.
                if d_sq > worst || d_sq >= nd_sq || j as usize == i {
                    return;
                }
                let key = (d_sq, j);
                if near.len() == k {
                    if key >= near[k - 1] {
                        return;
                    }
                    near.pop();
                }
                // Insertion by hand: shifting a few entries beats `Vec::insert`'s copy.
                near.push(key);
                let mut at = near.len() - 1;
                while at > 0 && near[at - 1] > key {
                    near[at] = near[at - 1];
                    at -= 1;
                }
                near[at] = key;
                if near.len() == k {
                    worst = near[k - 1].0;
                }
            });
            let bound = m as f64 * cell;
            if near.len() == k && near[k - 1].0 < bound * bound {
                break;
            }
        }
    }

    /// The heading of an agent at distance `d` (under four radii `r`) from the wall corner
    /// `w` it heads for (along unit `u`): turned away from the walls meeting there by the
    /// angle that grazes a circle of 1.1 `r` around the corner, so that the agent rounds it
    /// rather than pressing into it. `u` when `w` is no wall's end.
    #[expect(clippy::many_single_char_names, reason = "points of a figure: w u d r e")]
    fn round_corner(&self, w: V2, u: V2, d: f64, r: f64) -> V2 {
        let mut side = 0.0f64;
        for wall in self.walls.near(w) {
            let e = if wall.a == w {
                wall.b
            } else if wall.b == w {
                wall.a
            } else {
                continue;
            };
            let along = e - w;
            let len = along.len();
            if len > 0.0 {
                let turn = u.det(along) / len;
                if turn.abs() > side.abs() {
                    side = turn;
                }
            }
        }
        if side == 0.0 {
            return u;
        }
        let sin = (1.1 * r / d).min(1.0);
        let cos = (1.0 - sin * sin).sqrt();
        // Walls on the left: turn right (clockwise); on the right: left.
        let sin = if side > 0.0 { -sin } else { sin };
        V2::new(u.x * cos - u.y * sin, u.x * sin + u.y * cos)
    }

    /// The pairs of agents closer than the sum of their radii now, and the deepest such
    /// overlap: a measure of how well the crowd keeps apart, counted when asked (one pass over
    /// each agent's nearest cells, on rayon's current pool) rather than by every step.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_crowd::agents::{Agent, Agents, Overlaps, Settings};
    /// use signposts_rooms::{NavMesh, Point};
    ///
    /// let mesh = NavMesh::from_grid(&Grid::new(4, 1))?;
    /// let mut crowd = Agents::new(&mesh, Settings::default());
    /// let goal = crowd.add_goal(Point::new(3.5, 0.5))?;
    /// for x in [0.5, 0.8, 2.0] {
    ///     crowd.add(Agent { position: Point::new(x, 0.5), radius: 0.25, max_speed: 1.0, goal })?;
    /// }
    /// let Overlaps { pairs, deepest } = crowd.overlaps();
    /// assert_eq!(pairs, 1); // the first two, 0.3 apart
    /// assert!((deepest - 0.2).abs() < 1e-12);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn overlaps(&self) -> Overlaps {
        let (_, cell) = self.reach();
        if self.hashed == Some(cell) {
            return self.overlaps_in(&self.hash);
        }
        // Agents added or moved since the last step: a grid of the positions as they are.
        let mut hash = Hash::default();
        hash.rebuild(&self.position, self.lo, self.hi, cell);
        self.overlaps_in(&hash)
    }

    /// [`Agents::overlaps`] with `hash` holding the current positions.
    fn overlaps_in(&self, hash: &Hash) -> Overlaps {
        let max_r = self.radius.iter().copied().fold(0.0, f64::max);
        let rings = hash.rings_for(2.0 * max_r);
        let (pairs, deepest) = (0..self.len())
            .into_par_iter()
            .map(|i| {
                let (p, r) = (self.position[i], self.radius[i]);
                let (mut count, mut deepest) = (0usize, 0.0f64);
                let at = hash.coords(p);
                for m in 0..=rings {
                    hash.ring(at, m, |j, q| {
                        let j = j as usize;
                        if j <= i {
                            return;
                        }
                        let sum = r + self.radius[j];
                        let d_sq = (q - p).len_sq();
                        if d_sq < sum * sum {
                            count += 1;
                            deepest = deepest.max(sum - d_sq.sqrt());
                        }
                    });
                }
                (count, deepest)
            })
            .reduce(|| (0, 0.0), |a, b| (a.0 + b.0, a.1.max(b.1)));
        Overlaps { pairs, deepest }
    }
}

fn check_goal(at: Point) -> Result<(), Error> {
    if at.is_finite() { Ok(()) } else { Err(Error::BadValue { what: "goal", value: at.x + at.y }) }
}

/// A thread's buffers for [`Agents::move_one`].
#[derive(Default)]
struct Work {
    lines: Vec<Line>,
    projected: Vec<Line>,
    near: Vec<(f64, u32)>,
}
