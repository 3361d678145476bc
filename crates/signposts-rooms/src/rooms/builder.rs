//! [`RoomsBuilder`]: the inputs of [`Rooms`] checked (door states, links, the layer) and its
//! oracle built.

use std::sync::Arc;

use signposts::{Graph, GraphBuilder};

use super::links::{Link, LinkId};
use super::oracle::DoorWays;
use super::{DoorNodes, DoorState, Rooms};
use crate::Point;
use crate::error::Error;
use crate::mesh::{DoorId, NavMesh};

/// Builds [`Rooms`]: door states at the start, links, the layer. How the build runs (a
/// memory limit, progress, cancel, threads) is the core's
/// [`BuildOptions`](signposts::BuildOptions), through [`BuildRooms`](crate::BuildRooms).
///
/// ```
/// use signposts::grid::Grid;
/// use signposts_rooms::{DoorState, NavMesh, Point, Rooms};
/// // A room above a wall, a room below it, and a bend round the wall's end on the right.
/// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
/// let (top, bottom) = (Point::new(0.5, 0.5), Point::new(0.5, 2.5));
/// let rooms = Rooms::builder(&mesh)
///     .door_states(vec![DoorState::Closed; mesh.doors_len()]) // every door locked
///     .link(Point::new(1.5, 0.5), Point::new(1.5, 2.5), 10.0, true) // a ladder through the wall
///     .build()?;
/// let path = rooms.path(top, bottom).expect("down the ladder");
/// assert_eq!(path.links().count(), 1);
/// assert_eq!(path.length(), 12.0); // 1 walked to the ladder, 10 for it, 1 from it
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct RoomsBuilder<'a> {
    mesh: &'a NavMesh,
    states: Option<Vec<DoorState>>,
    links: Vec<(Point, Point, f64, bool)>,
    area_costs: Vec<Option<f64>>,
    door_nodes: DoorNodes,
}

impl<'a> RoomsBuilder<'a> {
    /// An empty builder (every door open, no links, no layer, door midpoints).
    pub(crate) fn new(mesh: &'a NavMesh) -> RoomsBuilder<'a> {
        RoomsBuilder {
            mesh,
            states: None,
            links: Vec::new(),
            area_costs: Vec::new(),
            door_nodes: DoorNodes::Midpoints,
        }
    }

    /// Where the oracle's walks cross doors: at their midpoints (the default) or their ends
    /// ([`DoorNodes::Ends`]: closer paths through long doors, for polygon worlds; costly on
    /// large grid maps). See [`DoorNodes`] for what each costs.
    ///
    /// ```
    /// use signposts_rooms::{DoorNodes, NavMesh, Point, Rooms};
    /// // A thin wall across a box, open at both ends; a start and a goal near its left end.
    /// let mesh = NavMesh::builder()
    ///     .boundary([(0.0, 0.0), (40.0, 0.0), (40.0, 10.0), (0.0, 10.0)].map(Point::from))
    ///     .obstacle([(2.0, 4.9), (38.0, 4.9), (38.0, 5.1), (2.0, 5.1)].map(Point::from))
    ///     .build()?;
    /// let rooms = Rooms::builder(&mesh).door_nodes(DoorNodes::Ends).build()?;
    /// let (a, b) = (Point::new(5.0, 1.0), Point::new(6.0, 9.0));
    /// assert!(rooms.distance(a, b).unwrap() < 12.0); // round the near end
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn door_nodes(mut self, door_nodes: DoorNodes) -> Self {
        self.door_nodes = door_nodes;
        self
    }

    /// The doors' states at the start (one per door, in id order; all open by default).
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{DoorState, Error, NavMesh, Point, Rooms};
    /// // A room above a wall, a room below it, and a bend round the wall's end on the right.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// let (top, bottom) = (Point::new(0.5, 0.5), Point::new(0.5, 2.5));
    /// let closed = Rooms::builder(&mesh).door_states(vec![DoorState::Closed; mesh.doors_len()]).build()?;
    /// assert_eq!(closed.path(top, bottom), None);
    /// assert!(closed.path(top, Point::new(1.5, 0.5)).is_some()); // within the room
    /// let short = Rooms::builder(&mesh).door_states(vec![DoorState::Closed]).build();
    /// assert!(matches!(short, Err(Error::OutOfRange { what: "door state", .. }))); // one per door
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn door_states(mut self, states: Vec<DoorState>) -> Self {
        self.states = Some(states);
        self
    }

    /// Adds a link from `from` to `to` (both in the walkable area, in regions that need share
    /// no door) costing `cost` (in the map's length units, at least 0), one way or both: a
    /// teleporter, a ladder, a jump down a ledge, stairs to another floor.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Point, Rooms};
    /// // Two rooms with no door between them, and a two-way teleporter.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("..@..\n..@..")?)?;
    /// let (a, b) = (Point::new(1.5, 0.5), Point::new(3.5, 0.5));
    /// let rooms = Rooms::builder(&mesh).link(a, b, 1.0, true).build()?;
    /// let (left, right) = (Point::new(0.5, 1.5), Point::new(4.5, 1.5));
    /// assert_eq!(rooms.path(left, right).expect("through it").points(), [left, a, b, right]);
    /// assert!(rooms.path(right, left).is_some()); // both ways
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    /// let tiles = TileGrid::try_from_fn(7, 6, |c| if c.x == 3 && c.y < 5 { 2 } else { 1 })?;
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

    /// Builds the rooms and their oracle: [`BuildRooms::build_rooms`](crate::BuildRooms::build_rooms)
    /// with default options (no memory limit, no progress, every core).
    ///
    /// # Errors
    /// - [`Error::OutOfRange`] when the door states are not one per door.
    /// - [`Error::NotASide`] for a one-way state naming a region that is not its door's.
    /// - [`Error::BadLink`] for a link end outside the walkable area, or a cost that is
    ///   negative or not finite.
    /// - [`Error::BadAreaCost`] for an area cost that is not finite and positive.
    /// - [`Error::Core`] when the table cannot be allocated.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{DoorState, Error, NavMesh, Point, Rooms};
    /// // A room above a wall, a room below it, and a bend round the wall's end on the right.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// let (top, bottom) = (Point::new(0.5, 0.5), Point::new(0.5, 2.5));
    /// assert!(Rooms::builder(&mesh).build()?.path(top, bottom).is_some()); // as `Rooms::build`
    /// let in_wall = Point::new(0.5, 1.5);
    /// let bad = Rooms::builder(&mesh).link(top, in_wall, 1.0, false).build();
    /// assert!(matches!(bad, Err(Error::BadLink { link: 0, end: 1, .. })));
    /// let (upper, lower) = (mesh.region_at(top).unwrap(), mesh.region_at(bottom).unwrap());
    /// let mut states = vec![DoorState::Open; mesh.doors_len()];
    /// states[mesh.doors_of(upper)[0].0 as usize] = DoorState::OneWay { from: lower }; // not its side
    /// let bad = Rooms::builder(&mesh).door_states(states).build();
    /// assert!(matches!(bad, Err(Error::NotASide { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn build(self) -> Result<Rooms, Error> {
        use crate::BuildRooms as _;
        signposts::BuildOptions::new().build_rooms(&self)
    }

    /// The rooms, every input checked, without their table (an empty one).
    pub(crate) fn skeleton(&self) -> Result<Rooms, Error> {
        let mesh = self.mesh;
        let states = self.states.clone().unwrap_or_else(|| vec![DoorState::Open; mesh.doors_len()]);
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
        let mut rooms = Rooms {
            mesh: Arc::new(mesh.clone()),
            link_open: vec![true; links.len()],
            states,
            links,
            links_in,
            table: Graph::builder(0).build(),
            scale: fixed_point_scale(mesh),
            area_costs: self.area_costs.clone(),
            door_nodes: self.door_nodes,
            door_ways: DoorWays::default(),
        };
        rooms.door_ways = DoorWays::new(&rooms);
        Ok(rooms)
    }
}

impl Rooms {
    /// The oracle's graph under the current door and link states, ready to build.
    pub(crate) fn oracle_graph(&self) -> Result<GraphBuilder, Error> {
        let mut graph = GraphBuilder::try_new(self.nodes_len())?;
        for (u, v, cost) in self.oracle_arcs() {
            graph.connect_directed_weighted(u, v, cost);
        }
        Ok(graph)
    }
}

/// Oracle units per map unit: the mesh's diagonal is 2^20 units, so an arc costs at most about
/// 2^20 and costs keep 20 bits of relative precision across the map.
fn fixed_point_scale(mesh: &NavMesh) -> f64 {
    let diagonal = mesh.diagonal();
    if diagonal.is_finite() && diagonal > 0.0 { f64::from(1u32 << 20) / diagonal } else { 1.0 }
}
