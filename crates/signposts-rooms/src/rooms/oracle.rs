//! The region oracle's graph: its nodes (region centroids, door midpoints or ends, link ends),
//! the arcs that the door and link states allow, and the walk along its first moves (the
//! corridor).

use signposts::NodeId;

use super::Rooms;
use super::links::LinkId;
use crate::Point;
use crate::mesh::{DoorId, RegionId};

/// Where the oracle's walks cross a door: the nodes each door has in the oracle's graph, set by
/// [`RoomsBuilder::door_nodes`](crate::RoomsBuilder::door_nodes) and kept in saved files.
///
/// ```
/// use signposts_rooms::{DoorNodes, NavMesh, Point, Rooms};
/// // A wide door between two rooms: a wall with a gap from x = 1 to 9.
/// let mesh = NavMesh::builder()
///     .boundary([(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)].map(Point::from))
///     .obstacle([(0.0, 4.9), (1.0, 4.9), (1.0, 5.1), (0.0, 5.1)].map(Point::from))
///     .obstacle([(9.0, 4.9), (10.0, 4.9), (10.0, 5.1), (9.0, 5.1)].map(Point::from))
///     .build()?;
/// let midpoints = Rooms::build(&mesh)?; // the default: one node per door
/// assert_eq!(midpoints.door_nodes(), DoorNodes::Midpoints);
/// let ends = Rooms::builder(&mesh).door_nodes(DoorNodes::Ends).build()?;
/// assert_eq!(ends.table().nodes_len(), mesh.regions_len() + 2 * mesh.doors_len());
/// let (a, b) = (Point::new(0.5, 1.0), Point::new(0.5, 9.0));
/// assert!(ends.distance(a, b).unwrap() <= midpoints.distance(a, b).unwrap() + 1e-9);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum DoorNodes {
    /// One node per door, at its midpoint (the default): the smallest table, the fastest
    /// build and `next_waypoint`. On grid maps, whose doors are short, the corridor's paths
    /// are within a fraction of a per cent of the shortest on average; through long doors in
    /// large regions (polygon worlds of thin obstacles) the corridor can go round the far way.
    #[default]
    Midpoints,
    /// Two nodes per door, at its ends: shortest paths bend round the corners that end doors,
    /// so the corridor is ranked by walks that turn where the path will. On polygon worlds of
    /// long doors it about halves the gap to the shortest paths beside midpoints; on large
    /// grid maps, where many doors meet at each corner, it costs 4–5× the table's memory,
    /// 10–20× the build and 2–8× the `next_waypoint` time (docs/benchmarks.md).
    Ends,
}

/// What an oracle node stands for. Nodes are numbered regions first, then each door's nodes
/// (one, at its midpoint, or two, at its ends: [`DoorNodes`]), then the two ends of each link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Node {
    /// A region, at its centroid: where walks start and end.
    Region(RegionId),
    /// A door's node: 0 its midpoint ([`DoorNodes::Midpoints`]), or end 0 or 1
    /// ([`DoorNodes::Ends`]): the door crossed at (or beside) that point.
    Door(DoorId, u32),
    /// End 0 or 1 of a link.
    LinkEnd(LinkId, usize),
}

/// Oracle nodes with their points: the ways into or out of a region.
type Ways = Vec<(Node, Point)>;

/// Where a walk between two points runs in the oracle (see `Rooms::ends`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ends {
    /// The start's region (of those at a corner, the one the walk leaves from).
    pub a: RegionId,
    /// The goal's region.
    pub b: RegionId,
    /// The oracle node the walk starts at: `a`'s, or a link end in `a`.
    pub start: NodeId,
    /// The oracle node it ends at: `b`'s, or a link end in `b`.
    pub target: NodeId,
}

/// One event of a walk through the oracle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// A door crossed, from this region.
    Door(DoorId, RegionId),
    /// A link taken, from this end.
    Link(LinkId, usize),
}

/// Per region, its doors' oracle nodes with their points, stored contiguously (regions in id
/// order, each region's doors in [`NavMesh::doors_of`](crate::NavMesh::doors_of) order, each
/// door's nodes in number order): what a walk between points scans for the way nearest a point
/// without reading the doors themselves.
#[derive(Debug, Clone, Default)]
pub(crate) struct DoorWays {
    /// Where each region's nodes begin in `ways` (one more entry than regions).
    start: Vec<u32>,
    ways: Vec<DoorWay>,
}

/// One door node of a region (see [`DoorWays`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct DoorWay {
    /// Where the node stands.
    pub point: Point,
    /// Its oracle node.
    pub node: NodeId,
    /// Its door.
    pub door: DoorId,
    /// The region on the door's other side.
    pub other: RegionId,
}

impl DoorWays {
    /// The door nodes of every region of `rooms`' mesh, under its door node setting.
    pub(crate) fn new(rooms: &Rooms) -> DoorWays {
        let mesh = &rooms.mesh;
        let mut start = Vec::with_capacity(mesh.regions_len() + 1);
        let mut ways = Vec::new();
        for r in 0..mesh.regions_len() as u32 {
            let r = RegionId(r);
            start.push(ways.len() as u32);
            for &d in mesh.doors_of(r) {
                let other = mesh.door(d).other(r);
                ways.extend(rooms.door_points(d).map(|(k, point)| DoorWay {
                    point,
                    node: rooms.node_id(Node::Door(d, k)),
                    door: d,
                    other,
                }));
            }
        }
        start.push(ways.len() as u32);
        DoorWays { start, ways }
    }

    /// Region `r`'s door nodes.
    #[inline]
    pub(crate) fn of(&self, r: RegionId) -> &[DoorWay] {
        let r = r.0 as usize;
        &self.ways[self.start[r] as usize..self.start[r + 1] as usize]
    }
}

impl Rooms {
    /// Oracle nodes per door: 1 or 2.
    #[inline]
    fn per_door(&self) -> u32 {
        match self.door_nodes {
            DoorNodes::Midpoints => 1,
            DoorNodes::Ends => 2,
        }
    }

    /// Door `d`'s nodes: their numbers in [`Node::Door`] and their points.
    pub(crate) fn door_points(&self, d: DoorId) -> impl Iterator<Item = (u32, Point)> {
        let door = self.mesh.door(d);
        let points = match self.door_nodes {
            DoorNodes::Midpoints => [Some(door.midpoint()), None],
            DoorNodes::Ends => door.ends.map(Some),
        };
        (0..).zip(points).filter_map(|(k, p)| Some((k, p?)))
    }

    #[inline]
    pub(crate) fn node(&self, n: NodeId) -> Node {
        let (regions, doors, per) =
            (self.mesh.regions_len() as u32, self.mesh.doors_len() as u32, self.per_door());
        if n < regions {
            Node::Region(RegionId(n))
        } else if n < regions + per * doors {
            // `per` is 1 or 2: a shift and a mask, not a division (this runs twice a step).
            let shift = per - 1;
            Node::Door(DoorId((n - regions) >> shift), (n - regions) & shift)
        } else {
            let k = n - regions - per * doors;
            Node::LinkEnd(LinkId(k / 2), (k % 2) as usize)
        }
    }

    #[inline]
    pub(crate) fn node_id(&self, node: Node) -> NodeId {
        let (regions, doors, per) =
            (self.mesh.regions_len() as u32, self.mesh.doors_len() as u32, self.per_door());
        match node {
            Node::Region(r) => r.0,
            Node::Door(d, k) => regions + per * d.0 + k,
            Node::LinkEnd(l, end) => regions + per * doors + 2 * l.0 + end as u32,
        }
    }

    /// Oracle nodes: regions, one or two per door, two per link.
    pub(crate) fn nodes_len(&self) -> usize {
        self.mesh.regions_len() + self.per_door() as usize * self.mesh.doors_len() + 2 * self.links.len()
    }

    /// The arcs inside region `r` under the current states: from every way in (the centroid,
    /// a door crossable into `r`, a link end arrived at) to every way out (the centroid, a
    /// door crossable out of `r`, a link end departed from), at their straight-line length
    /// times the layer's cost of `r`'s area (none when the layer cannot enter it).
    pub(crate) fn region_arcs(&self, r: RegionId, arcs: &mut Vec<(NodeId, NodeId, u32)>) {
        let Some(factor) = self.area_cost(r) else { return };
        let (mut ins, mut outs): (Ways, Ways) = (Vec::new(), Vec::new());
        let centre = (Node::Region(r), self.mesh.centroid(r));
        ins.push(centre);
        outs.push(centre);
        for &d in self.mesh.doors_of(r) {
            let door = self.mesh.door(d);
            let state = self.states[d.0 as usize];
            for (k, p) in self.door_points(d) {
                let at = (Node::Door(d, k), p);
                if state.passable_from(door.other(r)) {
                    ins.push(at);
                }
                if state.passable_from(r) {
                    outs.push(at);
                }
            }
        }
        for &(link, end) in &self.links_in[r.0 as usize] {
            let l = &self.links[link.0 as usize];
            let at = (Node::LinkEnd(link, end), l.ends[end]);
            if l.arrives_at(end) {
                ins.push(at);
            }
            if l.departs_from(end) {
                outs.push(at);
            }
        }
        for &(u, pu) in &ins {
            for &(v, pv) in &outs {
                // No walk between the two ends of one link in one region: its jump is that
                // arc (kept unique, so closing the link removes exactly the jump), and going
                // on from the first end directly is never longer than walking to the second.
                // Nor along a door from one of its ends to the other: the arc would lie in both
                // its regions, and going on from the first end directly is never longer.
                let same_link = matches!((u, v), (Node::LinkEnd(a, _), Node::LinkEnd(b, _)) if a == b);
                let same_door = matches!((u, v), (Node::Door(a, _), Node::Door(b, _)) if a == b);
                if u != v && !same_link && !same_door {
                    arcs.push((self.node_id(u), self.node_id(v), self.fixed(pu.distance(pv) * factor)));
                }
            }
        }
    }

    /// The jump arcs of link `l` under its state.
    pub(crate) fn link_arcs(&self, l: LinkId, arcs: &mut Vec<(NodeId, NodeId, u32)>) {
        let link = &self.links[l.0 as usize];
        if !self.link_open[l.0 as usize] {
            return;
        }
        let (a, b) = (self.node_id(Node::LinkEnd(l, 0)), self.node_id(Node::LinkEnd(l, 1)));
        let cost = self.fixed(link.cost);
        arcs.push((a, b, cost));
        if link.two_way {
            arcs.push((b, a, cost));
        }
    }

    /// A length in the oracle's fixed point, rounded up, at least 1.
    #[inline]
    #[expect(clippy::cast_sign_loss, reason = "lengths are not negative")]
    pub(crate) fn fixed(&self, length: f64) -> u32 {
        ((length * self.scale).ceil().min(f64::from(u32::MAX)) as u32).max(1)
    }

    /// The region an arc lies in (not a link's jump): the one its two nodes share.
    #[inline]
    #[expect(clippy::many_single_char_names, reason = "points of a figure: a b c d p q")]
    fn arc_region(&self, u: Node, v: Node) -> RegionId {
        match (u, v) {
            (Node::Region(r), _) | (_, Node::Region(r)) => r,
            (Node::LinkEnd(l, end), _) | (_, Node::LinkEnd(l, end)) => self.links[l.0 as usize].regions[end],
            (Node::Door(a, _), Node::Door(b, _)) => {
                let [x, y] = self.mesh.door(a).regions;
                if self.mesh.door(b).regions.contains(&x) { x } else { y }
            }
        }
    }

    /// The walk from region `a`'s node toward region `b`'s along the oracle's first moves.
    pub(crate) fn corridor(&self, a: RegionId, b: RegionId) -> Corridor<'_> {
        Corridor { rooms: self, at: a.0, region: a, target: b.0, goal: b, steps_left: self.nodes_len() }
    }

    /// The walk between two points' oracle nodes ([`Ends`]).
    pub(crate) fn corridor_between(&self, ends: Ends) -> Corridor<'_> {
        let steps_left = self.nodes_len();
        Corridor {
            rooms: self,
            at: ends.start,
            region: ends.a,
            target: ends.target,
            goal: ends.b,
            steps_left,
        }
    }
}

/// Walks the oracle from a region toward another, yielding each door crossed (with the region
/// it is crossed from) and each link taken. An arc lies in one region (the one its two nodes
/// share), so a door is crossed exactly where two consecutive arcs lie in different regions —
/// a walk that touches a door's end and turns back (a tie) does not cross it; a walk that ends
/// at a door's end into the goal's region crosses that door last.
pub(crate) struct Corridor<'a> {
    rooms: &'a Rooms,
    /// The oracle node reached.
    at: NodeId,
    /// The region the walk is in.
    region: RegionId,
    target: NodeId,
    /// The region the walk ends in: past the target when the target is a door into it.
    goal: RegionId,
    /// A shortest walk visits each node at most once: a table that leads round in circles (a
    /// forged file) ends the walk instead of looping.
    steps_left: usize,
}

impl Iterator for Corridor<'_> {
    type Item = Step;

    #[inline]
    fn next(&mut self) -> Option<Step> {
        let rooms = self.rooms;
        while self.at != self.target {
            self.steps_left = self.steps_left.checked_sub(1)?;
            let next = rooms.table.neighbor_to(self.at, self.target)?;
            let (u, v) = (rooms.node(self.at), rooms.node(next));
            self.at = next;
            if let (Node::LinkEnd(a, from), Node::LinkEnd(b, to)) = (u, v)
                && a == b
            {
                self.region = rooms.links[a.0 as usize].regions[to];
                return Some(Step::Link(a, from));
            }
            let region = rooms.arc_region(u, v);
            if region != self.region {
                // Only a door joins two regions' arcs (a table that says otherwise ends the walk).
                let Node::Door(door, _) = u else { return None };
                let from = std::mem::replace(&mut self.region, region);
                return Some(Step::Door(door, from));
            }
        }
        // A walk that ends at a door into the goal's region crosses it last.
        if self.region != self.goal
            && let Node::Door(door, _) = rooms.node(self.target)
            && rooms.mesh.door(door).regions.contains(&self.goal)
        {
            let from = std::mem::replace(&mut self.region, self.goal);
            return Some(Step::Door(door, from));
        }
        None
    }
}
