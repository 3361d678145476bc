//! Queries on [`Rooms`]: the next region and the corridor of regions (the oracle's table
//! walked), paths string pulled through the corridor's doors, and the next waypoint.

use crate::Point;
use crate::error::Error;
use crate::mesh::RegionId;
use crate::path::{Path, Scratch};
use signposts::NodeId;

use super::Rooms;
use super::funnel::{Funnel, pull};
use super::oracle::{Ends, Node, Step};

impl Rooms {
    /// The region to enter next on the way from region `from` to region `to` (through a door,
    /// or at the far end of a link): `None` when they are the same or `to` cannot be reached.
    ///
    /// # Panics
    /// If an id is out of range.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Point, Rooms};
    /// // A room above a wall, a room below it, and a bend round the wall's end on the right.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// let rooms = Rooms::build(&mesh)?;
    /// let [upper, bend, lower] =
    ///     [(0.5, 0.5), (2.5, 1.5), (0.5, 2.5)].map(|(x, y)| rooms.region_at(Point::new(x, y)).unwrap());
    /// assert_eq!(rooms.next_region(upper, lower), Some(bend)); // round the wall
    /// assert_eq!(rooms.next_region(bend, lower), Some(lower));
    /// assert_eq!(rooms.next_region(upper, upper), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Point, Rooms};
    /// // A room above a wall, a room below it, and a bend round the wall's end on the right.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// let mut rooms = Rooms::build(&mesh)?;
    /// let [upper, bend, lower] =
    ///     [(0.5, 0.5), (2.5, 1.5), (0.5, 2.5)].map(|(x, y)| rooms.region_at(Point::new(x, y)).unwrap());
    /// assert_eq!(rooms.region_path(upper, lower), Some(vec![upper, bend, lower]));
    /// assert_eq!(rooms.region_path(upper, upper), Some(vec![upper]));
    /// rooms.set_door_open(mesh.doors_of(lower)[0], false)?;
    /// assert_eq!(rooms.region_path(upper, lower), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn region_path(&self, from: RegionId, to: RegionId) -> Option<Vec<RegionId>> {
        if !self.table.path_exists(from.0, to.0) {
            return None;
        }
        let mut regions = vec![from];
        regions.extend(self.corridor(from, to).map(|step| self.entered(step)));
        Some(regions)
    }

    /// [`Rooms::next_region`] with an error for an id out of range instead of a panic.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] naming the first region id past the mesh's.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{Error, NavMesh, RegionId, Rooms};
    /// let rooms = Rooms::build(&NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?)?;
    /// assert_eq!(rooms.try_next_region(RegionId(0), RegionId(0)), Ok(None));
    /// assert!(matches!(rooms.try_next_region(RegionId(0), RegionId(99)), Err(Error::OutOfRange { what: "region", id: 99, .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_next_region(&self, from: RegionId, to: RegionId) -> Result<Option<RegionId>, Error> {
        self.check_regions(from, to)?;
        Ok(self.next_region(from, to))
    }

    /// [`Rooms::region_path`] with an error for an id out of range instead of a panic.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] naming the first region id past the mesh's.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, RegionId, Rooms};
    /// let rooms = Rooms::build(&NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?)?;
    /// assert_eq!(rooms.try_region_path(RegionId(0), RegionId(0))?, Some(vec![RegionId(0)]));
    /// assert!(rooms.try_region_path(RegionId(7), RegionId(0)).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_region_path(&self, from: RegionId, to: RegionId) -> Result<Option<Vec<RegionId>>, Error> {
        self.check_regions(from, to)?;
        Ok(self.region_path(from, to))
    }

    fn check_regions(&self, from: RegionId, to: RegionId) -> Result<(), Error> {
        let len = self.mesh.regions_len();
        match [from, to].into_iter().find(|r| r.0 as usize >= len) {
            Some(r) => Err(Error::OutOfRange { what: "region", id: r.0, len }),
            None => Ok(()),
        }
    }

    /// The region a step enters.
    fn entered(&self, step: Step) -> RegionId {
        match step {
            Step::Door(d, from) => self.mesh.door(d).other(from),
            Step::Link(l, from) => self.links[l.0 as usize].regions[1 - from],
        }
    }

    /// The region holding `p`; see [`NavMesh::region_at`](crate::NavMesh::region_at).
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Point, Rooms};
    /// // A room above a wall, a room below it, and a bend round the wall's end on the right.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// let rooms = Rooms::build(&mesh)?;
    /// let p = Point::new(0.5, 0.5);
    /// assert_eq!(rooms.region_at(p), mesh.region_at(p));
    /// assert_eq!(rooms.region_at(Point::new(0.5, 1.5)), None); // inside the wall
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn region_at(&self, p: Point) -> Option<RegionId> {
        self.mesh.region_at(p)
    }

    /// The path from `from` to `to`: the oracle's corridor of regions, the string pulled
    /// through its doors (and from link to link). `None` when either point is outside the
    /// walkable area or `to` cannot be reached.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Point, Rooms};
    /// // A room above a wall, a room below it, and a bend round the wall's end on the right.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// let rooms = Rooms::build(&mesh)?;
    /// let (top, bottom) = (Point::new(0.5, 0.5), Point::new(0.5, 2.5));
    /// let path = rooms.path(top, bottom).expect("connected");
    /// let corners = [Point::new(2.0, 1.0), Point::new(2.0, 2.0)]; // the wall's end
    /// assert_eq!(path.points(), [top, corners[0], corners[1], bottom]);
    /// assert_eq!(rooms.path(top, Point::new(0.5, 1.5)), None); // inside the wall
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn path(&self, from: Point, to: Point) -> Option<Path> {
        let mut path = Path::default();
        self.path_with(from, to, &mut Scratch::default(), &mut path).then_some(path)
    }

    /// [`Rooms::path`] into `path` with reused buffers; returns whether there is one.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Path, Point, Rooms, Scratch};
    /// // A room above a wall, a room below it, and a bend round the wall's end on the right.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// let rooms = Rooms::build(&mesh)?;
    /// let (top, bottom) = (Point::new(0.5, 0.5), Point::new(0.5, 2.5));
    /// let (mut scratch, mut path) = (Scratch::default(), Path::default());
    /// for goal in [bottom, Point::new(1.5, 2.5)] {
    ///     assert!(rooms.path_with(top, goal, &mut scratch, &mut path)); // no allocation once warm
    ///     assert_eq!(path.points().last(), Some(&goal));
    /// }
    /// assert!(!rooms.path_with(top, Point::new(0.5, 1.5), &mut scratch, &mut path)); // in the wall
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn path_with(&self, from: Point, to: Point, scratch: &mut Scratch, path: &mut Path) -> bool {
        path.points.clear();
        path.links.clear();
        let Some(ends) = self.ends(from, to) else { return false };
        path.points.push(from);
        let portals = &mut scratch.portals;
        portals.clear();
        portals.push([from, from]);
        for step in self.corridor_between(ends) {
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
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Point, Rooms};
    /// // A room above a wall, a room below it, and a bend round the wall's end on the right.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// let rooms = Rooms::build(&mesh)?;
    /// let (top, bottom) = (Point::new(0.5, 0.5), Point::new(0.5, 2.5));
    /// let d = rooms.distance(top, bottom).expect("connected");
    /// // (0.5, 0.5) → (2, 1) → (2, 2) → (0.5, 2.5): √2.5 + 1 + √2.5
    /// assert!((d - (1.0 + 2.0 * 2.5f64.sqrt())).abs() < 1e-12);
    /// assert_eq!(rooms.distance(top, Point::new(1.5, 0.5)), Some(1.0)); // in sight
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn distance(&self, from: Point, to: Point) -> Option<f64> {
        self.path(from, to).map(|p| p.length())
    }

    /// Where an entity at `from` should head now to reach `to`: the first corner of
    /// [`Rooms::path`], `to` itself when it is in sight down the corridor, or the entrance of
    /// the first link to take (its exit, when `from` is at the entrance) — found without
    /// walking more of the corridor than that needs. `None` when either point is outside the
    /// walkable area or `to` cannot be reached.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Point, Rooms};
    /// // A room above a wall, a room below it, and a bend round the wall's end on the right.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// let rooms = Rooms::build(&mesh)?;
    /// let (top, bottom) = (Point::new(0.5, 0.5), Point::new(0.5, 2.5));
    /// assert_eq!(rooms.next_waypoint(top, bottom), Some(Point::new(2.0, 1.0))); // the wall's end
    /// let bend = Point::new(2.5, 1.5);
    /// assert_eq!(rooms.next_waypoint(bend, bottom), Some(Point::new(2.0, 2.0))); // its other end
    /// let goal = Point::new(1.5, 0.5);
    /// assert_eq!(rooms.next_waypoint(top, goal), Some(goal)); // in sight
    /// assert_eq!(rooms.next_waypoint(top, Point::new(0.5, 1.5)), None); // inside the wall
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn next_waypoint(&self, from: Point, to: Point) -> Option<Point> {
        self.next_waypoint_with(from, to, &mut Scratch::default())
    }

    /// [`Rooms::next_waypoint`] with reused buffers: no allocation once warm.
    ///
    /// ```
    /// use signposts::grid::Grid;
    /// use signposts_rooms::{NavMesh, Point, Rooms, Scratch};
    /// // A room above a wall, a room below it, and a bend round the wall's end on the right.
    /// let mesh = NavMesh::from_grid(&Grid::from_ascii("...\n@@.\n...")?)?;
    /// let rooms = Rooms::build(&mesh)?;
    /// let (top, bottom) = (Point::new(0.5, 0.5), Point::new(0.5, 2.5));
    /// let mut scratch = Scratch::default(); // kept between ticks
    /// for from in [top, Point::new(2.5, 1.5)] {
    ///     let heading = rooms.next_waypoint_with(from, bottom, &mut scratch);
    ///     assert_eq!(heading, rooms.next_waypoint(from, bottom));
    /// }
    /// assert_eq!(rooms.next_waypoint_with(top, bottom, &mut scratch), Some(Point::new(2.0, 1.0)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn next_waypoint_with(&self, from: Point, to: Point, scratch: &mut Scratch) -> Option<Point> {
        let ends = self.ends(from, to)?;
        if ends.a == ends.b && ends.start == ends.target {
            return Some(to);
        }
        let portals = &mut scratch.portals;
        portals.clear();
        portals.push([from, from]);
        let mut funnel = Funnel::new(from);
        for step in self.corridor_between(ends) {
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

    /// Where a walk between two points starts and ends in the oracle: the regions of both
    /// points and the oracle nodes the corridor runs between, when both points are in the
    /// walkable area and connected.
    ///
    /// The walk runs from the start region's way out nearest the start (its centroid or the end
    /// of a door out of it) to the goal region's way in nearest the goal, so that the corridor
    /// is ranked from near the points rather than from the centroids of large regions. It is
    /// ranked from the points themselves where that can change the answer more: a start on a
    /// corner of the mesh (in several regions) and a link with an end in the start's or the
    /// goal's region. Each candidate there (the regions' own nodes, the nearest ways, the
    /// links' ends) costs the straight walk from the start to its first node, the oracle's walk
    /// to its last, and the straight walk on to the goal — so a link from the start to the
    /// goal is taken at its own cost, however large the two regions are.
    fn ends(&self, from: Point, to: Point) -> Option<Ends> {
        let b = self.mesh.region_at(to)?;
        let first = self.mesh.region_at(from)?;
        // Points in areas this layer cannot enter are outside its walkable area.
        let goal_factor = self.area_cost(b)?;
        let on_corner = self.mesh.polygon(first).any(|p| p == from);
        if !on_corner && !self.departs(first) && !self.arrives(b) {
            self.area_cost(first)?;
            let plain = Ends { a: first, b, start: first.0, target: b.0 };
            if first != b {
                // From the way out nearest the start to the way in nearest the goal; a door end
                // that leads nowhere (a one-way door out of the start's region into a dead end)
                // leaves the walk between the regions' own nodes.
                let (start, target) = (self.nearest_way(first, from, true), self.nearest_way(b, to, false));
                if self.table.path_exists(start, target) {
                    return Some(Ends { start, target, ..plain });
                }
            }
            return self.table.path_exists(first.0, b.0).then_some(plain);
        }
        // A start on a corner lies in several regions, and the oracle's walk from each may
        // differ: the one that starts nearest and reaches the goal soonest is taken, so that an
        // entity standing on a waypoint keeps to the same way.
        let regions = std::iter::once(first)
            .chain(on_corner.then(|| self.mesh.other_regions_at(from, first)).into_iter().flatten());
        let nearest = |r: RegionId, p: Point, out: bool| {
            let node = self.nearest_way(r, p, out);
            (node != r.0).then(|| (node, self.node_point(node)))
        };
        let nearest_in = nearest(b, to, false);
        let mut best: Option<(f64, Ends)> = None;
        for a in regions {
            let Some(start_factor) = self.area_cost(a) else { continue };
            for (start, p) in self.ways_out(a).chain(nearest(a, from, true)) {
                let lead = from.distance(p) * start_factor;
                for (target, q) in self.ways_in(b).chain(nearest_in) {
                    let Some(between) = self.table.cost(start, target) else { continue };
                    let cost = if start == target && a == b {
                        from.distance(to) * start_factor
                    } else {
                        lead + between.straight as f64 / self.scale + q.distance(to) * goal_factor
                    };
                    if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                        best = Some((cost, Ends { a, b, start, target }));
                    }
                }
            }
        }
        best.map(|(_, ends)| ends)
    }

    /// The oracle node of region `r` nearest `p` (which lies in `r`): its own (at its
    /// centroid) or an end of a door that can be crossed out of `r` (`out`) or into it. A walk
    /// between points ranks its corridor from there: within twice the distance to it of the
    /// walk from the point itself, where the centroid of a large region can be far off.
    fn nearest_way(&self, r: RegionId, p: Point, out: bool) -> NodeId {
        let square = |q: Point| (q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y);
        let mut best = (square(self.mesh.centroid(r)), r.0);
        // The nodes in door order, the first of equals kept; the door's state read only for a
        // node nearer than the best so far.
        for way in self.door_ways.of(r) {
            let e = square(way.point);
            if e < best.0 && self.states[way.door.0 as usize].passable_from(if out { r } else { way.other }) {
                best = (e, way.node);
            }
        }
        best.1
    }

    /// Where an oracle node stands: a region's centroid, a door's end, a link's end.
    fn node_point(&self, n: NodeId) -> Point {
        match self.node(n) {
            Node::Region(r) => self.mesh.centroid(r),
            Node::Door(d, k) => {
                self.door_points(d).nth(k as usize).map_or(self.mesh.door(d).midpoint(), |(_, p)| p)
            }
            Node::LinkEnd(l, end) => self.links[l.0 as usize].ends[end],
        }
    }

    /// Whether a link open to departures has an end in region `r`.
    fn departs(&self, r: RegionId) -> bool {
        self.ways_out(r).nth(1).is_some()
    }

    /// Whether a link open to arrivals has an end in region `r`.
    fn arrives(&self, r: RegionId) -> bool {
        self.ways_in(r).nth(1).is_some()
    }

    /// The oracle nodes a walk from a point in region `r` may start at, with their points: the
    /// region's own node (at its centroid) and the ends of open links departing from `r`.
    fn ways_out(&self, r: RegionId) -> impl Iterator<Item = (NodeId, Point)> + '_ {
        let centre = (r.0, self.mesh.centroid(r));
        std::iter::once(centre).chain(self.links_in[r.0 as usize].iter().filter_map(move |&(l, end)| {
            let link = &self.links[l.0 as usize];
            let departs = link.departs_from(end) && self.link_open[l.0 as usize];
            departs.then(|| (self.node_id(Node::LinkEnd(l, end)), link.ends[end]))
        }))
    }

    /// The oracle nodes a walk to a point in region `r` may end at, with their points: the
    /// region's own node (at its centroid) and the ends of open links arriving in `r`.
    fn ways_in(&self, r: RegionId) -> impl Iterator<Item = (NodeId, Point)> + '_ {
        std::iter::once((r.0, self.mesh.centroid(r))).chain(self.links_in[r.0 as usize].iter().filter_map(
            move |&(l, end)| {
                let link = &self.links[l.0 as usize];
                let arrives = link.arrives_at(end) && self.link_open[l.0 as usize];
                arrives.then(|| (self.node_id(Node::LinkEnd(l, end)), link.ends[end]))
            },
        ))
    }
}
