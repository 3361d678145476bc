//! [`Rooms`]: a mesh, the state of its doors and links, and the region oracle — the core's
//! first-move table over a graph of region centroids, door midpoints and link ends.

use std::sync::Arc;

use signposts::dynamic::Change;
use signposts::{Graph, GraphBuilder, NodeId};

use crate::Point;
use crate::error::Error;
use crate::funnel::{Funnel, pull};
use crate::links::{Link, LinkId};
use crate::mesh::{DoorId, NavMesh, RegionId};
use crate::oracle::{Node, Step};
use crate::path::{Path, Scratch};

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
    /// Whether the door can be crossed out of `region`.
    #[inline]
    pub(crate) fn passable_from(self, region: RegionId) -> bool {
        match self {
            DoorState::Open => true,
            DoorState::OneWay { from } => from == region,
            DoorState::Closed => false,
        }
    }
}

/// Builds [`Rooms`]: door states at the start, links, a memory limit.
#[derive(Debug, Clone)]
pub struct RoomsBuilder<'a> {
    mesh: &'a NavMesh,
    states: Option<Vec<DoorState>>,
    links: Vec<(Point, Point, f64, bool)>,
    memory_limit: Option<u64>,
    area_costs: Vec<Option<f64>>,
}

impl RoomsBuilder<'_> {
    /// The doors' states at the start (one per door, in id order; all open by default).
    #[must_use]
    pub fn door_states(mut self, states: Vec<DoorState>) -> Self {
        self.states = Some(states);
        self
    }

    /// Adds a link from `from` to `to` (both in the walkable area, in regions that need share
    /// no door) costing `cost` (in the map's length units, at least 0), one way or both: a
    /// teleporter, a ladder, a jump down a ledge, stairs to another floor.
    #[must_use]
    pub fn link(mut self, from: Point, to: Point, cost: f64, two_way: bool) -> Self {
        self.links.push((from, to, cost, two_way));
        self
    }

    /// A layer: what walking a unit of length costs in each area (`costs[area]`; `None`: the
    /// area cannot be entered; areas past the list cost 1). Each kind of unit (walkers,
    /// swimmers, flyers) gets its own [`Rooms`] over the same mesh. The oracle prices each
    /// walk inside a region by its area; the path inside a region stays straight (the cheaper
    /// corridor is chosen, not a detour inside one region).
    ///
    /// ```
    /// use signposts::search::TileGrid;
    /// use signposts_rooms::{NavMesh, Point, Rooms};
    /// // A band of mud (2) across the floor (1), with a way round at the bottom.
    /// let tiles = TileGrid::from_fn(7, 6, |c| if c.x == 3 && c.y < 5 { 2 } else { 1 })?;
    /// let mesh = NavMesh::from_tiles(&tiles, 0.0)?;
    /// let (from, to) = (Point::new(0.5, 0.5), Point::new(6.5, 0.5));
    /// let walker = Rooms::builder(&mesh).area_costs(vec![None, Some(1.0), Some(10.0)]).build()?;
    /// let wader = Rooms::builder(&mesh).build()?; // mud costs 1 like the floor
    /// let (around, across) = (walker.path(from, to).unwrap(), wader.path(from, to).unwrap());
    /// assert!(around.length() > across.length() + 5.0); // the walker goes round the mud
    /// let no_mud = Rooms::builder(&mesh).area_costs(vec![None, Some(1.0), None]).build()?;
    /// assert_eq!(no_mud.path(from, Point::new(3.5, 2.5)), None); // cannot enter it
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn area_costs(mut self, costs: Vec<Option<f64>>) -> Self {
        self.area_costs = costs;
        self
    }

    /// Refuses an oracle table larger than `bytes` (before allocating it).
    #[must_use]
    pub fn memory_limit(mut self, bytes: u64) -> Self {
        self.memory_limit = Some(bytes);
        self
    }

    /// Builds the rooms and their oracle.
    ///
    /// # Errors
    /// - [`Error::OutOfRange`] when the door states are not one per door.
    /// - [`Error::NotASide`] for a one-way state naming a region that is not its door's.
    /// - [`Error::BadLink`] for a link end outside the walkable area, or a cost that is
    ///   negative or not finite.
    /// - [`Error::BadAreaCost`] for an area cost that is not finite and positive.
    /// - [`Error::Oracle`] when the table is over the memory limit or cannot be allocated.
    pub fn build(self) -> Result<Rooms, Error> {
        let memory_limit = self.memory_limit;
        let mut rooms = self.skeleton()?;
        let mut builder = GraphBuilder::try_new(rooms.nodes_len())?;
        if let Some(limit) = memory_limit {
            builder.memory_limit(limit);
        }
        for (u, v, cost) in rooms.oracle_arcs() {
            builder.connect_directed_weighted(u, v, cost);
        }
        rooms.table = builder.try_build()?;
        Ok(rooms)
    }

    /// The rooms, every input checked, without their table (an empty one).
    pub(crate) fn skeleton(self) -> Result<Rooms, Error> {
        let mesh = self.mesh;
        let states = self.states.unwrap_or_else(|| vec![DoorState::Open; mesh.doors_len()]);
        if states.len() != mesh.doors_len() {
            return Err(Error::OutOfRange {
                what: "door state",
                id: states.len() as u32,
                len: mesh.doors_len(),
            });
        }
        for (d, state) in states.iter().enumerate() {
            if let DoorState::OneWay { from } = *state
                && !mesh.door(DoorId(d as u32)).regions.contains(&from)
            {
                return Err(Error::NotASide { door: d as u32, region: from.0 });
            }
        }
        if let Some((area, &cost)) =
            self.area_costs.iter().enumerate().find(|(_, c)| c.is_some_and(|c| !(c.is_finite() && c > 0.0)))
        {
            return Err(Error::BadAreaCost { area, cost: cost.unwrap_or(f64::NAN) });
        }
        let mut links = Vec::with_capacity(self.links.len());
        let mut links_in = vec![Vec::new(); mesh.regions_len()];
        for (k, &(from, to, cost, two_way)) in self.links.iter().enumerate() {
            let bad = |end: usize, why: &'static str| Error::BadLink { link: k as u32, end, why };
            let a = mesh.region_at(from).ok_or_else(|| bad(0, "outside the walkable area"))?;
            let b = mesh.region_at(to).ok_or_else(|| bad(1, "outside the walkable area"))?;
            if !(cost.is_finite() && cost >= 0.0) {
                return Err(bad(0, "its cost is negative or not finite"));
            }
            links_in[a.0 as usize].push((LinkId(k as u32), 0));
            links_in[b.0 as usize].push((LinkId(k as u32), 1));
            links.push(Link { ends: [from, to], regions: [a, b], cost, two_way });
        }
        Ok(Rooms {
            mesh: Arc::new(mesh.clone()),
            link_open: vec![true; links.len()],
            states,
            links,
            links_in,
            table: Graph::builder(0).build(),
            scale: fixed_point_scale(mesh),
            area_costs: self.area_costs,
        })
    }
}

/// A navigation mesh with doors that open, close and go one way, links between places that
/// share no door, and its region oracle: which region to enter next from any region toward
/// any other, in one table read; on top, paths and headings between any two points.
///
/// ## The oracle's metric
/// The oracle is the core's dense first-move table ([`signposts::Graph`]) over a graph with a
/// node per region (at its centroid), per door (at its midpoint) and per link end: inside each
/// region, arcs join every way in (the centroid, a door that can be crossed into it, a link
/// end arrived at) to every way out, costing their straight-line length (in fixed point,
/// 2^20 units across the map's diagonal, rounded up); a link is an arc of its own cost. So
/// region `a` to region `b` costs the shortest walk from `a`'s centroid through door
/// midpoints to `b`'s centroid — the article's "edge midpoint to edge midpoint" walk. A door
/// or link that cannot be taken some way has no arcs that take it that way, so closing,
/// opening and turning one way are arc edits repaired in place by the core
/// ([`Graph::apply`]).
///
/// ## What is exact, and what is not
/// - Paths never cross a wall, a closed door, a one-way door against its way, or a closed
///   link, and take one-way links only their way: they keep to the oracle's corridor, and
///   pulling the string (the funnel) inside a corridor of convex regions keeps every segment
///   inside it.
/// - Within that corridor the path is the shortest. It is not always the shortest path
///   overall: the oracle ranks corridors by door midpoints, not by the path pulled through
///   them (docs/benchmarks.md measures the gap beside an optimal search).
#[derive(Debug, Clone)]
pub struct Rooms {
    pub(crate) mesh: Arc<NavMesh>,
    pub(crate) states: Vec<DoorState>,
    pub(crate) links: Vec<Link>,
    pub(crate) link_open: Vec<bool>,
    /// Per region, the link ends in it: `(link, end)`.
    pub(crate) links_in: Vec<Vec<(LinkId, usize)>>,
    pub(crate) table: Graph,
    /// Oracle units per map unit.
    pub(crate) scale: f64,
    /// The layer: cost factor per area (`None`: not enterable; past the end: 1).
    pub(crate) area_costs: Vec<Option<f64>>,
}

impl Rooms {
    /// The rooms of `mesh` with every door open and no links, and their oracle.
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
    /// let (from, to) = (Point::new(0.5, 0.5), Point::new(4.5, 2.5));
    /// let path = rooms.path(from, to).expect("connected");
    /// assert_eq!(path.points()[1], Point::new(1.0, 3.0)); // round the wall's inner corner
    /// assert_eq!(rooms.next_waypoint(from, to), Some(Point::new(1.0, 3.0)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Complexity
    /// One Dijkstra search per node of the oracle's graph (regions, doors, link ends), over
    /// `Σ_r (ways in · ways out)` arcs; the table takes `n · Σ_u width(u)` bits for `n` nodes.
    pub fn build(mesh: &NavMesh) -> Result<Rooms, Error> {
        Rooms::builder(mesh).build()
    }

    /// A builder: door states at the start, links, a memory limit.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, PathStep, Point, Rooms};
    /// // Two rooms with no door between them, and a teleporter.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...#...\n...#...")?)?;
    /// let rooms = Rooms::builder(&mesh).link(Point::new(1.0, 1.0), Point::new(5.0, 1.0), 0.5, false).build()?;
    /// let path = rooms.path(Point::new(0.5, 0.5), Point::new(6.5, 1.5)).expect("through the teleporter");
    /// assert!(path.steps().any(|s| matches!(s, PathStep::Link { .. })));
    /// assert_eq!(rooms.path(Point::new(6.5, 1.5), Point::new(0.5, 0.5)), None); // one way
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn builder(mesh: &NavMesh) -> RoomsBuilder<'_> {
        RoomsBuilder { mesh, states: None, links: Vec::new(), memory_limit: None, area_costs: Vec::new() }
    }

    /// The arcs of the oracle's graph under the current door and link states: `(from, to,
    /// cost)`, nodes `0..regions_len` being regions (at their centroids), then one per door
    /// (at its midpoint), then two per link (its ends), costs in the oracle's fixed point. For
    /// checking the oracle against another shortest-path method.
    pub fn oracle_arcs(&self) -> impl Iterator<Item = (NodeId, NodeId, u32)> + '_ {
        let mut arcs = Vec::new();
        for r in 0..self.mesh.regions_len() as u32 {
            self.region_arcs(RegionId(r), &mut arcs);
        }
        for l in 0..self.links.len() as u32 {
            self.link_arcs(LinkId(l), &mut arcs);
        }
        arcs.into_iter()
    }

    /// The mesh.
    #[must_use]
    pub fn mesh(&self) -> &NavMesh {
        &self.mesh
    }

    /// The region oracle's table (see [`Rooms::oracle_arcs`] for its nodes).
    #[must_use]
    pub fn table(&self) -> &Graph {
        &self.table
    }

    /// The links, in id order.
    #[must_use]
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    /// Bytes held: the mesh and the oracle.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.mesh.memory_bytes()
            + self.table.memory_bytes()
            + self.states.len() * size_of::<DoorState>()
            + self.links.len() * (size_of::<Link>() + 1 + size_of::<(LinkId, usize)>() * 2)
    }

    /// The state of door `d`.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a door id past the mesh's.
    pub fn door_state(&self, d: DoorId) -> Result<DoorState, Error> {
        self.states.get(d.0 as usize).copied().ok_or(Error::OutOfRange {
            what: "door",
            id: d.0,
            len: self.states.len(),
        })
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
    /// update: only the arcs at the door's node change.
    ///
    /// # Errors
    /// As [`Rooms::set_one_way`].
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{DoorState, NavMesh, Point, Rooms};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("..#..\n.....\n..#..")?)?;
    /// let mut rooms = Rooms::build(&mesh)?;
    /// let (a, b) = (Point::new(0.5, 0.5), Point::new(4.5, 0.5));
    /// for d in 0..mesh.doors_len() as u32 {
    ///     rooms.set_door_state(signposts_rooms::DoorId(d), DoorState::Closed)?;
    /// }
    /// assert_eq!(rooms.path(a, b), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_door_state(&mut self, d: DoorId, state: DoorState) -> Result<(), Error> {
        let old = self.door_state(d)?;
        if let DoorState::OneWay { from } = state
            && !self.mesh.door(d).regions.contains(&from)
        {
            return Err(Error::NotASide { door: d.0, region: from.0 });
        }
        let before = self.door_arcs(d);
        self.states[d.0 as usize] = state;
        let after = self.door_arcs(d);
        if let Err(e) = self.apply(&before, &after) {
            self.states[d.0 as usize] = old;
            return Err(e);
        }
        Ok(())
    }

    /// Opens or closes link `l`; repaired in place.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a bad id; [`Error::Oracle`] if the repair cannot allocate.
    pub fn set_link_open(&mut self, l: LinkId, open: bool) -> Result<(), Error> {
        let Some(&old) = self.link_open.get(l.0 as usize) else {
            return Err(Error::OutOfRange { what: "link", id: l.0, len: self.links.len() });
        };
        let (mut before, mut after) = (Vec::new(), Vec::new());
        self.link_arcs(l, &mut before);
        self.link_open[l.0 as usize] = open;
        self.link_arcs(l, &mut after);
        if let Err(e) = self.apply(&before, &after) {
            self.link_open[l.0 as usize] = old;
            return Err(e);
        }
        Ok(())
    }

    /// Whether link `l` is open.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a bad id.
    pub fn is_link_open(&self, l: LinkId) -> Result<bool, Error> {
        self.link_open.get(l.0 as usize).copied().ok_or(Error::OutOfRange {
            what: "link",
            id: l.0,
            len: self.links.len(),
        })
    }

    /// Turns the arcs `before` into `after` in the table.
    fn apply(
        &mut self,
        before: &[(NodeId, NodeId, u32)],
        after: &[(NodeId, NodeId, u32)],
    ) -> Result<(), Error> {
        let mut changes: Vec<Change> = before
            .iter()
            .filter(|a| !after.contains(a))
            .map(|&(u, v, _)| Change::DisconnectDirected(u, v))
            .collect();
        changes.extend(
            after.iter().filter(|a| !before.contains(a)).map(|&(u, v, c)| Change::ConnectDirected(u, v, c)),
        );
        if !changes.is_empty() {
            self.table.apply(&changes)?;
        }
        Ok(())
    }

    /// The arcs at door `d`'s node (into or out of it) under the current states.
    fn door_arcs(&self, d: DoorId) -> Vec<(NodeId, NodeId, u32)> {
        let node = self.node_id(Node::Door(d));
        let mut arcs = Vec::new();
        for &r in &self.mesh.door(d).regions {
            self.region_arcs(r, &mut arcs);
        }
        arcs.retain(|&(u, v, _)| u == node || v == node);
        arcs
    }

    /// The region to enter next on the way from region `from` to region `to` (through a door,
    /// or at the far end of a link): `None` when they are the same or `to` cannot be reached.
    ///
    /// # Panics
    /// If an id is out of range.
    ///
    /// # Complexity
    /// One table read per oracle node walked to the first door: usually one or two.
    #[must_use]
    pub fn next_region(&self, from: RegionId, to: RegionId) -> Option<RegionId> {
        self.corridor(from, to).next().map(|step| self.entered(step))
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
        regions.extend(self.corridor(from, to).map(|step| self.entered(step)));
        Some(regions)
    }

    /// The region a step enters.
    fn entered(&self, step: Step) -> RegionId {
        match step {
            Step::Door(d, from) => self.mesh.door(d).other(from),
            Step::Link(l, from) => self.links[l.0 as usize].regions[1 - from],
        }
    }

    /// The region holding `p`; see [`NavMesh::region_at`].
    #[must_use]
    pub fn region_at(&self, p: Point) -> Option<RegionId> {
        self.mesh.region_at(p)
    }

    /// The path from `from` to `to`: the oracle's corridor of regions, the string pulled
    /// through its doors (and from link to link). `None` when either point is outside the
    /// walkable area or `to` cannot be reached.
    #[must_use]
    pub fn path(&self, from: Point, to: Point) -> Option<Path> {
        let mut path = Path::default();
        self.path_with(from, to, &mut Scratch::default(), &mut path).then_some(path)
    }

    /// [`Rooms::path`] into `path` with reused buffers; returns whether there is one.
    pub fn path_with(&self, from: Point, to: Point, scratch: &mut Scratch, path: &mut Path) -> bool {
        path.points.clear();
        path.links.clear();
        let Some((a, b)) = self.ends(from, to) else { return false };
        path.points.push(from);
        let portals = &mut scratch.portals;
        portals.clear();
        portals.push([from, from]);
        for step in self.corridor(a, b) {
            match step {
                Step::Door(d, at) => portals.push(self.mesh.door(d).ends_from(at)),
                Step::Link(l, end) => {
                    let link = &self.links[l.0 as usize];
                    let (entry, exit) = (link.ends[end], link.ends[1 - end]);
                    portals.push([entry, entry]);
                    pull(portals, &mut path.points);
                    path.links.push((path.points.len() - 1, l, link.cost));
                    path.points.push(exit);
                    portals.clear();
                    portals.push([exit, exit]);
                }
            }
        }
        portals.push([to, to]);
        pull(portals, &mut path.points);
        true
    }

    /// The cost of [`Rooms::path`] ([`Path::length`]).
    #[must_use]
    pub fn distance(&self, from: Point, to: Point) -> Option<f64> {
        self.path(from, to).map(|p| p.length())
    }

    /// Where an entity at `from` should head now to reach `to`: the first corner of
    /// [`Rooms::path`], `to` itself when it is in sight down the corridor, or the entrance of
    /// the first link to take (its exit, when `from` is at the entrance) — found without
    /// walking more of the corridor than that needs. `None` when either point is outside the
    /// walkable area or `to` cannot be reached.
    #[must_use]
    pub fn next_waypoint(&self, from: Point, to: Point) -> Option<Point> {
        self.next_waypoint_with(from, to, &mut Scratch::default())
    }

    /// [`Rooms::next_waypoint`] with reused buffers: no allocation once warm.
    pub fn next_waypoint_with(&self, from: Point, to: Point, scratch: &mut Scratch) -> Option<Point> {
        let (a, b) = self.ends(from, to)?;
        if a == b {
            return Some(to);
        }
        let portals = &mut scratch.portals;
        portals.clear();
        portals.push([from, from]);
        let mut funnel = Funnel::new(from);
        for step in self.corridor(a, b) {
            match step {
                Step::Door(d, at) => portals.push(self.mesh.door(d).ends_from(at)),
                Step::Link(l, end) => {
                    let link = &self.links[l.0 as usize];
                    let entry = link.ends[end];
                    portals.push([entry, entry]);
                    let head = funnel.advance(portals).unwrap_or(entry);
                    return Some(if head == from { link.ends[1 - end] } else { head });
                }
            }
            if let Some(corner) = funnel.advance(portals) {
                return Some(corner);
            }
        }
        portals.push([to, to]);
        Some(funnel.advance(portals).unwrap_or(to))
    }

    /// What walking a unit of length costs in region `r`'s area (`None`: not enterable).
    pub(crate) fn area_cost(&self, r: RegionId) -> Option<f64> {
        self.area_costs.get(self.mesh.area(r) as usize).copied().unwrap_or(Some(1.0))
    }

    /// The regions of both points, when both are in the walkable area and connected.
    fn ends(&self, from: Point, to: Point) -> Option<(RegionId, RegionId)> {
        let a = self.mesh.region_at(from)?;
        let b = self.mesh.region_at(to)?;
        // Points in areas this layer cannot enter are outside its walkable area.
        let enterable = self.area_cost(a).is_some() && self.area_cost(b).is_some();
        (enterable && self.table.path_exists(a.0, b.0)).then_some((a, b))
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
