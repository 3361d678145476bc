//! [`Rooms`]: a mesh, the state of its doors, and the region oracle — the core's first-move
//! table over a graph of region centres and door midpoints.

use std::sync::Arc;

use signposts::dynamic::Change;
use signposts::{Graph, GraphBuilder, NodeId};

use crate::Point;
use crate::error::Error;
use crate::funnel::Funnel;
use crate::mesh::{DoorId, NavMesh, RegionId};

/// Whether and which way a door can be crossed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DoorState {
    /// Both ways.
    #[default]
    Open,
    /// Only from this region into the other (a cliff, a drop).
    OneWay {
        /// The region it can be crossed from.
        from: RegionId,
    },
    /// Not at all: a wall until opened.
    Closed,
}

impl DoorState {
    #[inline]
    fn passable_from(self, region: RegionId) -> bool {
        match self {
            DoorState::Open => true,
            DoorState::OneWay { from } => from == region,
            DoorState::Closed => false,
        }
    }
}

/// A polyline between two points of the walkable area: its first point is the start, its last
/// the goal, and it turns only at corners of the walls (door ends).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Path {
    points: Vec<Point>,
}

impl Path {
    /// The points, start and goal included.
    #[must_use]
    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// The Euclidean length.
    #[must_use]
    pub fn length(&self) -> f64 {
        self.points.windows(2).map(|w| w[0].distance(w[1])).sum()
    }
}

/// Reusable buffers for path queries: with one kept between calls, queries allocate nothing
/// once warm.
#[derive(Debug, Clone, Default)]
pub struct Scratch {
    portals: Vec<[Point; 2]>,
}

/// A navigation mesh with doors that open, close and go one way, and its region oracle:
/// which region to enter next from any region toward any other, in one table read; and, on
/// top, paths and headings between any two points.
///
/// ## The oracle's metric
/// The oracle is the core's dense first-move table ([`signposts::Graph`]) over a graph with a
/// node per region (at its centroid) and a node per door (at its midpoint): arcs join a
/// region's centroid to each of its doors and each door to every other door of the same
/// region, costing their straight-line length (in fixed point, rounded up). So region `a` to
/// region `b` is the shortest walk from `a`'s centroid through door midpoints to `b`'s
/// centroid — the article's "edge midpoint to edge midpoint" walk, chosen over the shortest
/// walk. A door that cannot be crossed some way has no arcs that cross it that way, so one-way
/// and closed doors are arcs removed from the table by the core's in-place repair.
///
/// ## What is exact
/// - Paths never cross a wall, a closed door, or a one-way door against its way: they stay in
///   the corridor of regions the oracle chose, and pulling the string (the funnel) inside a
///   corridor of convex regions keeps every segment inside it.
/// - Within that corridor the path is the shortest; it is not the shortest path overall when
///   the oracle's metric picks a longer corridor (the exact any-angle mode is the next layer).
#[derive(Debug, Clone)]
pub struct Rooms {
    mesh: Arc<NavMesh>,
    states: Vec<DoorState>,
    table: Graph,
    /// Oracle units per map unit.
    scale: f64,
}

impl Rooms {
    /// The rooms of `mesh` with every door open, and their oracle.
    ///
    /// # Errors
    /// [`Error::Oracle`] when the table cannot be allocated.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Point, Rooms};
    /// let grid = Grid::from_ascii("
    ///     ........
    ///     .######.
    ///     .#....#.
    ///     ...##...
    /// ")?;
    /// let rooms = Rooms::build(&NavMesh::from_grid(&grid)?)?;
    /// let path = rooms.path(Point::new(0.5, 0.5), Point::new(4.5, 2.5)).expect("connected");
    /// assert!((path.length() - rooms.distance(Point::new(0.5, 0.5), Point::new(4.5, 2.5)).unwrap()).abs() < 1e-12);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Complexity
    /// One Dijkstra search per node of the oracle's graph (regions + doors), over
    /// `Σ_r doors(r)²` arcs; the table takes `n · Σ_u width(u)` bits for its `n` nodes.
    pub fn build(mesh: &NavMesh) -> Result<Rooms, Error> {
        Rooms::build_with_states(mesh, vec![DoorState::Open; mesh.doors_len()])
    }

    /// The rooms of `mesh` with the given door states (a level that starts with some doors
    /// closed), and their oracle.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when `states` has not one state per door; [`Error::NotASide`]
    /// for a one-way state naming a region that is not a side of its door; [`Error::Oracle`]
    /// when the table cannot be allocated.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{DoorState, NavMesh, Point, Rooms};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n.#.\n...")?)?;
    /// let rooms = Rooms::build_with_states(&mesh, vec![DoorState::Closed; mesh.doors_len()])?;
    /// assert_eq!(rooms.path(Point::new(0.5, 0.5), Point::new(2.5, 2.5)).is_some(), mesh.regions_len() == 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn build_with_states(mesh: &NavMesh, states: Vec<DoorState>) -> Result<Rooms, Error> {
        if states.len() != mesh.doors_len() {
            return Err(Error::OutOfRange { what: "door state", id: states.len() as u32, len: mesh.doors_len() });
        }
        for (d, state) in states.iter().enumerate() {
            if let DoorState::OneWay { from } = *state
                && !mesh.door(DoorId(d as u32)).regions.contains(&from)
            {
                return Err(Error::NotASide { door: d as u32, region: from.0 });
            }
        }
        let scale = fixed_point_scale(mesh);
        let mut rooms =
            Rooms { mesh: Arc::new(mesh.clone()), states, table: Graph::builder(0).build(), scale };
        let mut builder = GraphBuilder::try_new(mesh.regions_len() + mesh.doors_len())?;
        for (u, v, cost) in rooms.oracle_arcs() {
            builder.connect_directed_weighted(u, v, cost);
        }
        rooms.table = builder.try_build()?;
        Ok(rooms)
    }

    /// The arcs of the oracle's graph under the current door states: `(from, to, cost)`,
    /// nodes `0..regions_len` being regions (at their centroids) and `regions_len + d` door
    /// `d` (at its midpoint), costs in the oracle's fixed point. For checking the oracle
    /// against another shortest-path method.
    pub fn oracle_arcs(&self) -> impl Iterator<Item = (NodeId, NodeId, u32)> + '_ {
        (0..self.mesh.regions_len() as u32).flat_map(|r| self.region_arcs(RegionId(r)))
    }

    /// The mesh.
    #[must_use]
    pub fn mesh(&self) -> &NavMesh {
        &self.mesh
    }

    /// The region oracle's table (nodes: regions `0..regions_len`, then doors).
    #[must_use]
    pub fn table(&self) -> &Graph {
        &self.table
    }

    /// Bytes held: the mesh and the oracle.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.mesh.memory_bytes() + self.table.memory_bytes() + self.states.len() * size_of::<DoorState>()
    }

    /// The state of door `d`.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a door id past the mesh's.
    pub fn door_state(&self, d: DoorId) -> Result<DoorState, Error> {
        self.states.get(d.0 as usize).copied().ok_or(self.door_out_of_range(d))
    }

    /// Opens or closes door `d` (opening makes it two-way); the oracle is repaired in place.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a bad id; [`Error::Oracle`] if the repair cannot allocate.
    pub fn set_door_open(&mut self, d: DoorId, open: bool) -> Result<(), Error> {
        self.set_door_state(d, if open { DoorState::Open } else { DoorState::Closed })
    }

    /// Makes door `d` passable only from region `from` into the other; repaired in place.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a bad id; [`Error::NotASide`] when `from` is not one of the
    /// door's regions; [`Error::Oracle`] if the repair cannot allocate.
    pub fn set_one_way(&mut self, d: DoorId, from: RegionId) -> Result<(), Error> {
        self.set_door_state(d, DoorState::OneWay { from })
    }

    /// Sets door `d`'s state; the oracle is repaired in place by the core's incremental
    /// update (only the arcs through the door change).
    ///
    /// # Errors
    /// As [`Rooms::set_one_way`].
    pub fn set_door_state(&mut self, d: DoorId, state: DoorState) -> Result<(), Error> {
        let old = self.door_state(d)?;
        if let DoorState::OneWay { from } = state
            && !self.mesh.door(d).regions.contains(&from)
        {
            return Err(Error::NotASide { door: d.0, region: from.0 });
        }
        if old == state {
            return Ok(());
        }
        let before = self.door_arcs(d);
        self.states[d.0 as usize] = state;
        let after = self.door_arcs(d);
        let mut changes: Vec<Change> = before
            .iter()
            .filter(|a| !after.contains(a))
            .map(|&(u, v, _)| Change::DisconnectDirected(u, v))
            .collect();
        changes.extend(
            after.iter().filter(|a| !before.contains(a)).map(|&(u, v, c)| Change::ConnectDirected(u, v, c)),
        );
        if let Err(e) = self.table.apply(&changes) {
            self.states[d.0 as usize] = old;
            return Err(e.into());
        }
        Ok(())
    }

    /// The region to enter next on the way from region `from` to region `to`: `None` when they
    /// are the same or `to` cannot be reached.
    ///
    /// # Panics
    /// If an id is out of range.
    #[must_use]
    pub fn next_region(&self, from: RegionId, to: RegionId) -> Option<RegionId> {
        self.corridor(from, to).next().map(|(d, at)| self.mesh.door(d).other(at))
    }

    /// The regions from `from` to `to`, both included; `None` when `to` cannot be reached.
    ///
    /// # Panics
    /// If an id is out of range.
    #[must_use]
    pub fn region_path(&self, from: RegionId, to: RegionId) -> Option<Vec<RegionId>> {
        if !self.table.path_exists(from.0, to.0) {
            return None;
        }
        let mut regions = vec![from];
        regions.extend(self.corridor(from, to).map(|(d, at)| self.mesh.door(d).other(at)));
        Some(regions)
    }

    /// The region holding `p`; see [`NavMesh::region_at`].
    #[must_use]
    pub fn region_at(&self, p: Point) -> Option<RegionId> {
        self.mesh.region_at(p)
    }

    /// The path from `from` to `to`: the oracle's corridor of regions, the string pulled
    /// through its doors. `None` when either point is outside the walkable area or `to`
    /// cannot be reached.
    #[must_use]
    pub fn path(&self, from: Point, to: Point) -> Option<Path> {
        let mut path = Path::default();
        self.path_with(from, to, &mut Scratch::default(), &mut path).then_some(path)
    }

    /// [`Rooms::path`] into `path` with reused buffers; returns whether there is one.
    pub fn path_with(&self, from: Point, to: Point, scratch: &mut Scratch, path: &mut Path) -> bool {
        path.points.clear();
        let Some((a, b)) = self.ends(from, to) else { return false };
        path.points.push(from);
        self.portals(a, b, from, to, &mut scratch.portals);
        crate::funnel::pull(&scratch.portals, &mut path.points);
        true
    }

    /// The length of [`Rooms::path`].
    #[must_use]
    pub fn distance(&self, from: Point, to: Point) -> Option<f64> {
        self.path(from, to).map(|p| p.length())
    }

    /// Where an entity at `from` should head now to reach `to`: the first corner of
    /// [`Rooms::path`] (or `to` itself when it is in sight down the corridor), found without
    /// walking more of the corridor than that corner needs. `None` when either point is
    /// outside the walkable area or `to` cannot be reached.
    #[must_use]
    pub fn next_waypoint(&self, from: Point, to: Point) -> Option<Point> {
        self.next_waypoint_with(from, to, &mut Scratch::default())
    }

    /// [`Rooms::next_waypoint`] with reused buffers.
    pub fn next_waypoint_with(&self, from: Point, to: Point, scratch: &mut Scratch) -> Option<Point> {
        let (a, b) = self.ends(from, to)?;
        if a == b {
            return Some(to);
        }
        let portals = &mut scratch.portals;
        portals.clear();
        portals.push([from, from]);
        let mut funnel = Funnel::new(from);
        for (door, at) in self.corridor(a, b) {
            portals.push(self.mesh.door(door).ends_from(at));
            if let Some(corner) = funnel.advance(portals) {
                return Some(corner);
            }
        }
        portals.push([to, to]);
        Some(funnel.advance(portals).unwrap_or(to))
    }

    /// The regions of both points, when both are in the walkable area and connected.
    fn ends(&self, from: Point, to: Point) -> Option<(RegionId, RegionId)> {
        let a = self.mesh.region_at(from)?;
        let b = self.mesh.region_at(to)?;
        self.table.path_exists(a.0, b.0).then_some((a, b))
    }

    /// The portals from `from` (in `a`) to `to` (in `b`): `[from, from]`, each door crossed,
    /// `[to, to]`.
    fn portals(&self, a: RegionId, b: RegionId, from: Point, to: Point, portals: &mut Vec<[Point; 2]>) {
        portals.clear();
        portals.push([from, from]);
        portals.extend(self.corridor(a, b).map(|(d, at)| self.mesh.door(d).ends_from(at)));
        portals.push([to, to]);
    }

    /// The doors crossed on the way from region `a` to region `b`, each with the region it is
    /// crossed from.
    fn corridor(&self, a: RegionId, b: RegionId) -> Corridor<'_> {
        Corridor { rooms: self, at: a.0, region: a, target: b.0 }
    }

    /// The oracle node of door `d`.
    #[inline]
    fn door_node(&self, d: DoorId) -> NodeId {
        self.mesh.regions_len() as NodeId + d.0
    }

    /// The arcs of region `r`'s part of the oracle graph under the current door states.
    fn region_arcs(&self, r: RegionId) -> Vec<(NodeId, NodeId, u32)> {
        let mesh = &self.mesh;
        let centre = mesh.centroid(r);
        let mut arcs = Vec::new();
        for &d in mesh.doors_of(r) {
            let door = mesh.door(d);
            let (out, into) = (
                self.states[d.0 as usize].passable_from(r),
                self.states[d.0 as usize].passable_from(door.other(r)),
            );
            let length = self.cost(centre, door.midpoint());
            if out {
                arcs.push((r.0, self.door_node(d), length));
            }
            if into {
                arcs.push((self.door_node(d), r.0, length));
                for &e in mesh.doors_of(r) {
                    if e != d && self.states[e.0 as usize].passable_from(r) {
                        arcs.push((
                            self.door_node(d),
                            self.door_node(e),
                            self.cost(door.midpoint(), mesh.door(e).midpoint()),
                        ));
                    }
                }
            }
        }
        arcs
    }

    /// The arcs at door `d`'s node (into or out of it) under the current door states.
    fn door_arcs(&self, d: DoorId) -> Vec<(NodeId, NodeId, u32)> {
        let node = self.door_node(d);
        let mut arcs: Vec<_> = self.mesh.door(d).regions.iter().flat_map(|&r| self.region_arcs(r)).collect();
        arcs.retain(|&(u, v, _)| u == node || v == node);
        arcs
    }

    /// The oracle's cost of a straight walk from `a` to `b`.
    #[inline]
    fn cost(&self, a: Point, b: Point) -> u32 {
        ((a.distance(b) * self.scale).ceil() as u32).max(1)
    }

    fn door_out_of_range(&self, d: DoorId) -> Error {
        Error::OutOfRange { what: "door", id: d.0, len: self.mesh.doors_len() }
    }
}

/// Oracle units per map unit: the mesh's diagonal is 2^20 units, so an arc costs at most about
/// 2^20 and costs keep 20 bits of relative precision across the map.
fn fixed_point_scale(mesh: &NavMesh) -> f64 {
    let (mut lo, mut hi) =
        (Point::new(f64::INFINITY, f64::INFINITY), Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY));
    for r in 0..mesh.regions_len() as u32 {
        for p in mesh.polygon(RegionId(r)) {
            (lo.x, lo.y, hi.x, hi.y) = (lo.x.min(p.x), lo.y.min(p.y), hi.x.max(p.x), hi.y.max(p.y));
        }
    }
    let diagonal = lo.distance(hi);
    if diagonal.is_finite() && diagonal > 0.0 { f64::from(1u32 << 20) / diagonal } else { 1.0 }
}

/// Walks the oracle from a region toward another, yielding each door crossed with the region
/// it is crossed from. An arc of the oracle's graph lies in one region (the one its two nodes
/// share), so a door is crossed exactly where two consecutive arcs lie in different regions —
/// ties that touch a door's midpoint and turn back are not crossings.
struct Corridor<'a> {
    rooms: &'a Rooms,
    /// The oracle node reached.
    at: NodeId,
    /// The region the walk is in.
    region: RegionId,
    target: NodeId,
}

impl Iterator for Corridor<'_> {
    type Item = (DoorId, RegionId);

    fn next(&mut self) -> Option<(DoorId, RegionId)> {
        let regions = self.rooms.mesh.regions_len() as NodeId;
        let mesh = &self.rooms.mesh;
        while self.at != self.target {
            let next = self.rooms.table.neighbor_to(self.at, self.target)?;
            let arc_region = if self.at < regions {
                RegionId(self.at)
            } else if next < regions {
                RegionId(next)
            } else {
                let [a, b] = mesh.door(DoorId(self.at - regions)).regions;
                if mesh.door(DoorId(next - regions)).regions.contains(&a) { a } else { b }
            };
            let crossed = (arc_region != self.region).then(|| (DoorId(self.at - regions), self.region));
            (self.at, self.region) = (next, arc_region);
            if crossed.is_some() {
                return crossed;
            }
        }
        None
    }
}
