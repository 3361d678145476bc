//! [`Rooms`]: a mesh, the state of its doors and links, and the region oracle — the core's
//! first-move table over a graph of region centroids, door midpoints (or ends) and link ends.
//!
//! This file holds the type and its door and link states; `builder` checks the inputs and
//! builds the table, `oracle` is the table's graph (nodes, arcs, the corridor walk), `query`
//! the queries (next region, path, next waypoint), `funnel` the string pulling, `links` the
//! links, `io` the saved file.

mod builder;
mod funnel;
mod io;
mod links;
mod oracle;
mod query;

use std::sync::Arc;

use signposts::dynamic::Change;
use signposts::{Graph, NodeId};

pub use self::builder::RoomsBuilder;
pub use self::io::FORMAT_VERSION;
pub use self::links::{Link, LinkId};
pub use self::oracle::DoorNodes;
use self::oracle::{DoorWays, Node};
use crate::error::Error;
use crate::mesh::{DoorId, NavMesh, RegionId};

/// Whether and which way a door can be crossed.
///
/// ```
/// use signposts::grid::Grid;
/// use signposts_rooms::{DoorState, NavMesh, Point, Rooms};
/// // A room above a wall, a room below it, and a bend round the wall's end on the right.
/// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
/// let mut rooms = Rooms::build(&mesh)?;
/// let (top, bottom) = (Point::new(0.5, 0.5), Point::new(0.5, 2.5));
/// let upper = rooms.region_at(top).expect("walkable");
/// let door = mesh.doors_of(upper)[0]; // out of the top room
/// assert_eq!(rooms.door_state(door)?, DoorState::Open); // the default
/// rooms.set_door_state(door, DoorState::OneWay { from: upper })?; // a drop: down only
/// assert!(rooms.path(top, bottom).is_some());
/// assert_eq!(rooms.path(bottom, top), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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

/// An arc of the oracle's graph: tail, head, cost.
type OracleArc = (NodeId, NodeId, u32);

/// A navigation mesh with doors that open, close and go one way, links between places that
/// share no door, and its region oracle: which region to enter next from any region toward
/// any other, in one table read; on top, paths and headings between any two points.
///
/// ```
/// use signposts::grid::Grid;
/// use signposts_rooms::{NavMesh, Point, Rooms};
/// // A room above a wall, a room below it, and a bend round the wall's end on the right.
/// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
/// let mut rooms = Rooms::build(&mesh)?;
/// let (top, bottom) = (Point::new(0.5, 0.5), Point::new(0.5, 2.5));
/// assert_eq!(rooms.next_waypoint(top, bottom), Some(Point::new(2.0, 1.0))); // the wall's end
/// let door = mesh.doors_of(rooms.region_at(bottom).unwrap())[0]; // into the bottom room
/// rooms.set_door_open(door, false)?; // repaired in place
/// assert_eq!(rooms.path(top, bottom), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// ## The oracle's metric
/// The oracle is the core's dense first-move table ([`signposts::Graph`]) over a graph with a
/// node per region (at its centroid), one per door (at its midpoint; two, at its ends, with
/// [`DoorNodes::Ends`]) and one per link end: inside each region, arcs join every way in (the
/// centroid, a door node that can be crossed into it, a link end arrived at) to every way out,
/// costing their straight-line length (in fixed point, 2^20 units across the map's diagonal,
/// rounded up); a link is an arc of its own cost. So a walk through the oracle is a polyline
/// inside the corridor of regions it crosses, turning only at centroids, door nodes and link
/// ends — with midpoints, the article's "edge midpoint to edge midpoint" walk. Shortest paths
/// turn at door ends (every corner of a wall that a path bends round ends a door), so door
/// ends rank corridors through long doors closer to their paths, at twice the door nodes
/// ([`DoorNodes`] says what each costs). A door or link that cannot be taken some way has no
/// arcs that take it that way, so closing, opening and turning one way are arc edits repaired
/// in place by the core ([`Graph::apply`]).
///
/// ## What is exact, and what is not
/// - Paths never cross a wall, a closed door, a one-way door against its way, or a closed
///   link, and take one-way links only their way: they keep to the oracle's corridor, and
///   pulling the string (the funnel) inside a corridor of convex regions keeps every segment
///   inside it.
/// - Within that corridor the path is the shortest. It is not always the shortest path
///   overall: the oracle ranks corridors by its walks through door nodes, not by the path
///   pulled through them (docs/benchmarks.md measures the gap beside exact paths). The walk
///   between two points runs from the start region's way out nearest the start (its centroid
///   or a door node) to the goal region's way in nearest the goal, or from a link's end in
///   either region where that ranks cheaper from the points themselves; the gap has no ratio
///   bound, [`ExactRooms`](crate::ExactRooms) does.
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
    /// The oracle's nodes per door.
    pub(crate) door_nodes: DoorNodes,
    /// Per region, its doors' oracle nodes and their points (for the ways nearest points).
    pub(crate) door_ways: DoorWays,
}

impl Rooms {
    /// The rooms of `mesh` with every door open and no links, and their oracle.
    ///
    /// # Errors
    /// [`Error::Core`] when the table cannot be allocated.
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

    /// A builder: door states at the start, links, the layer.
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
        RoomsBuilder::new(mesh)
    }

    /// The arcs of the oracle's graph under the current door and link states: `(from, to,
    /// cost)`, nodes `0..regions_len` being regions (at their centroids), then one per door
    /// (its midpoint, door `d`'s at `regions_len + d`; with [`DoorNodes::Ends`] two, its ends,
    /// at `regions_len + 2d` and the next), then two per link (its ends), costs in the oracle's
    /// fixed point. For checking the oracle against another shortest-path method.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{DoorId, NavMesh, Rooms};
    /// // A room above a wall, a room below it, and a bend round the wall's end on the right.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// let mut rooms = Rooms::build(&mesh)?;
    /// let nodes = rooms.table().nodes_len(); // regions, then doors (no links here)
    /// assert_eq!(nodes, mesh.regions_len() + mesh.doors_len());
    /// let arcs: Vec<_> = rooms.oracle_arcs().collect();
    /// assert!(arcs.iter().all(|&(u, v, cost)| u != v && (v as usize) < nodes && cost > 0));
    /// rooms.set_door_open(DoorId(0), false)?;
    /// assert!(rooms.oracle_arcs().count() < arcs.len()); // the closed door's arcs are gone
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Rooms};
    /// // A room above a wall, a room below it, and a bend round the wall's end on the right.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// let rooms = Rooms::build(&mesh)?;
    /// assert_eq!(rooms.mesh().doors(), mesh.doors()); // its own copy of the mesh
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn mesh(&self) -> &NavMesh {
        &self.mesh
    }

    /// The oracle's nodes per door, as built ([`RoomsBuilder::door_nodes`]).
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{DoorNodes, NavMesh, Rooms};
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// assert_eq!(Rooms::build(&mesh)?.door_nodes(), DoorNodes::Midpoints);
    /// let ends = Rooms::builder(&mesh).door_nodes(DoorNodes::Ends).build()?;
    /// assert_eq!(ends.door_nodes(), DoorNodes::Ends);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn door_nodes(&self) -> DoorNodes {
        self.door_nodes
    }

    /// The region oracle's table (see [`Rooms::oracle_arcs`] for its nodes).
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Point, Rooms};
    /// // A room above a wall, a room below it, and a bend round the wall's end on the right.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// let rooms = Rooms::build(&mesh)?;
    /// assert_eq!(rooms.table().nodes_len(), mesh.regions_len() + mesh.doors_len());
    /// let upper = rooms.region_at(Point::new(0.5, 0.5)).unwrap();
    /// let lower = rooms.region_at(Point::new(0.5, 2.5)).unwrap();
    /// assert!(rooms.table().path_exists(upper.0, lower.0)); // a region's node is its id
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn table(&self) -> &Graph {
        &self.table
    }

    /// The links, in id order.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Point, Rooms};
    /// // Two rooms with no door between them, and a two-way teleporter.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("..@..\n..@..")?)?;
    /// let (a, b) = (Point::new(1.5, 0.5), Point::new(3.5, 0.5));
    /// let rooms = Rooms::builder(&mesh).link(a, b, 1.0, true).build()?;
    /// let link = rooms.links()[0];
    /// assert_eq!(link.ends, [a, b]);
    /// assert_eq!(link.regions, [rooms.region_at(a).unwrap(), rooms.region_at(b).unwrap()]);
    /// assert!(link.two_way && link.cost == 1.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    /// Bytes held: the mesh and the oracle.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Rooms};
    /// // A room above a wall, a room below it, and a bend round the wall's end on the right.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// let rooms = Rooms::build(&mesh)?;
    /// assert!(rooms.memory_bytes() >= rooms.mesh().memory_bytes() + rooms.table().memory_bytes());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{DoorId, DoorState, Error, NavMesh, Rooms};
    /// // A room above a wall, a room below it, and a bend round the wall's end on the right.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// let mut rooms = Rooms::build(&mesh)?;
    /// assert_eq!(rooms.door_state(DoorId(0))?, DoorState::Open);
    /// rooms.set_door_open(DoorId(0), false)?;
    /// assert_eq!(rooms.door_state(DoorId(0))?, DoorState::Closed);
    /// assert!(matches!(rooms.door_state(DoorId(9)), Err(Error::OutOfRange { what: "door", id: 9, .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    /// [`Error::OutOfRange`] for a bad id; [`Error::Core`] if the repair cannot allocate.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{DoorId, NavMesh, Point, Rooms};
    /// // A room above a wall, a room below it, and a bend round the wall's end on the right.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// let mut rooms = Rooms::build(&mesh)?;
    /// let (top, bottom) = (Point::new(0.5, 0.5), Point::new(0.5, 2.5));
    /// let door = mesh.doors_of(rooms.region_at(bottom).unwrap())[0]; // into the bottom room
    /// rooms.set_door_open(door, false)?;
    /// assert_eq!(rooms.path(top, bottom), None);
    /// rooms.set_door_open(door, true)?;
    /// assert!(rooms.path(top, bottom).is_some());
    /// assert!(rooms.set_door_open(DoorId(9), true).is_err()); // no such door
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_door_open(&mut self, d: DoorId, open: bool) -> Result<(), Error> {
        self.set_door_state(d, if open { DoorState::Open } else { DoorState::Closed })
    }

    /// Makes door `d` passable only from region `from` into the other; repaired in place.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a bad id; [`Error::NotASide`] when `from` is not one of the
    /// door's regions; [`Error::Core`] if the repair cannot allocate.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{Error, NavMesh, Point, Rooms};
    /// // A room above a wall, a room below it, and a bend round the wall's end on the right.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// let mut rooms = Rooms::build(&mesh)?;
    /// let (top, bottom) = (Point::new(0.5, 0.5), Point::new(0.5, 2.5));
    /// let (upper, lower) = (rooms.region_at(top).unwrap(), rooms.region_at(bottom).unwrap());
    /// let door = mesh.doors_of(upper)[0]; // out of the top room
    /// rooms.set_one_way(door, upper)?; // a drop: down only
    /// assert!(rooms.path(top, bottom).is_some());
    /// assert_eq!(rooms.path(bottom, top), None);
    /// assert!(matches!(rooms.set_one_way(door, lower), Err(Error::NotASide { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    /// [`Error::OutOfRange`] for a bad id; [`Error::Core`] if the repair cannot allocate.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{LinkId, NavMesh, Point, Rooms};
    /// // Two rooms with no door between them, and a two-way teleporter.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("..@..\n..@..")?)?;
    /// let (a, b) = (Point::new(1.5, 0.5), Point::new(3.5, 0.5));
    /// let mut rooms = Rooms::builder(&mesh).link(a, b, 1.0, true).build()?;
    /// let (left, right) = (Point::new(0.5, 0.5), Point::new(4.5, 0.5));
    /// rooms.set_link_open(LinkId(0), false)?;
    /// assert_eq!(rooms.path(left, right), None); // it was the only way across
    /// rooms.set_link_open(LinkId(0), true)?;
    /// assert!(rooms.path(left, right).is_some());
    /// assert!(rooms.set_link_open(LinkId(1), true).is_err()); // no such link
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{Error, LinkId, NavMesh, Point, Rooms};
    /// // Two rooms with no door between them, and a two-way teleporter.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("..@..\n..@..")?)?;
    /// let (a, b) = (Point::new(1.5, 0.5), Point::new(3.5, 0.5));
    /// let mut rooms = Rooms::builder(&mesh).link(a, b, 1.0, true).build()?;
    /// assert!(rooms.is_link_open(LinkId(0))?); // links start open
    /// rooms.set_link_open(LinkId(0), false)?;
    /// assert!(!rooms.is_link_open(LinkId(0))?);
    /// assert!(matches!(rooms.is_link_open(LinkId(1)), Err(Error::OutOfRange { what: "link", .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_link_open(&self, l: LinkId) -> Result<bool, Error> {
        self.link_open.get(l.0 as usize).copied().ok_or(Error::OutOfRange {
            what: "link",
            id: l.0,
            len: self.links.len(),
        })
    }

    /// Turns the arcs `before` into `after` in the table.
    fn apply(&mut self, before: &[OracleArc], after: &[OracleArc]) -> Result<(), Error> {
        let removed: Vec<_> = before.iter().filter(|a| !after.contains(a)).copied().collect();
        let added: Vec<_> = after.iter().filter(|a| !before.contains(a)).copied().collect();
        // An arc and its reverse of the same cost change together as one undirected edge: the
        // core repairs undirected edits locally, directed ones by a search per column.
        let pairs = |arcs: &[OracleArc]| -> (Vec<OracleArc>, Vec<OracleArc>) {
            let (mut both, mut one) = (Vec::new(), Vec::new());
            for &(u, v, c) in arcs {
                if arcs.contains(&(v, u, c)) {
                    if u < v {
                        both.push((u, v, c));
                    }
                } else {
                    one.push((u, v, c));
                }
            }
            (both, one)
        };
        let ((removed_both, removed_one), (added_both, added_one)) = (pairs(&removed), pairs(&added));
        let mut changes: Vec<Change> =
            removed_both.iter().map(|&(u, v, _)| Change::Disconnect(u, v)).collect();
        changes.extend(removed_one.iter().map(|&(u, v, _)| Change::DisconnectDirected(u, v)));
        changes.extend(added_both.iter().map(|&(u, v, c)| Change::ConnectWeighted(u, v, c)));
        changes.extend(added_one.iter().map(|&(u, v, c)| Change::ConnectDirected(u, v, c)));
        if !changes.is_empty() {
            self.table.apply(&changes)?;
        }
        Ok(())
    }

    /// The arcs at door `d`'s node (into or out of it) under the current states.
    fn door_arcs(&self, d: DoorId) -> Vec<(NodeId, NodeId, u32)> {
        let nodes: Vec<NodeId> = self.door_points(d).map(|(k, _)| self.node_id(Node::Door(d, k))).collect();
        let mut arcs = Vec::new();
        for &r in &self.mesh.door(d).regions {
            self.region_arcs(r, &mut arcs);
        }
        arcs.retain(|&(u, v, _)| nodes.contains(&u) || nodes.contains(&v));
        arcs
    }

    /// What walking a unit of length costs in region `r`'s area (`None`: not enterable).
    pub(crate) fn area_cost(&self, r: RegionId) -> Option<f64> {
        self.area_costs.get(self.mesh.area(r) as usize).copied().unwrap_or(Some(1.0))
    }
}
